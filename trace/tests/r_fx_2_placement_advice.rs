//! R-FX-2 in the advisor: `--explain` offers placement as a fix for dynamic-resource split
//! points, measured. The engine's side of R-FX-2 is tested in `executor/tests/r_fx_2_placement.rs`.

use trace::explain::{explain, Fix};

const DYNAMIC_TRACE: &str = "\
device semantics=legacy
buffer cb usage=dynamic bind=constant size=256
shader vs0 stage=vs cb=0
context dc semantics=legacy
imm map cb write_discard
imm write cb 0 00112233
imm unmap cb
dc vs_set_shader vs0
dc vs_set_constant_buffers 0 cb
dc draw 3 0
dc vs_set_constant_buffers 0 cb
dc draw 3 0
dc finish frame
imm execute frame
";

#[test]
fn r_fx_2_placement_removes_dynamic_split_points() {
    let advice = explain(DYNAMIC_TRACE.as_bytes()).expect("explain");
    assert_eq!(advice.baseline.recorded.total(), 2);
    let outcome = advice
        .fixes
        .iter()
        .find(|o| o.fix == Fix::Placement)
        .expect("placement applies to a dynamic constant buffer's split points");
    assert_eq!(outcome.after.recorded.total(), 0, "{}", outcome.edit);
    let refused: Vec<&String> = outcome.after.new_refusals(&advice.baseline).collect();
    assert!(refused.is_empty(), "{refused:?}");
    // The placed binds show in the records.
    assert!(
        outcome
            .after
            .records
            .iter()
            .all(|r| r.contains("vs.cb.0=cb@0x")),
        "{:?}",
        outcome.after.records
    );
}
