//! R-TOOL-2 with R-ST-9: the advisor's fast-semantics fix keeps what a legacy list's copy of a
//! compressed target did. A legacy copy decompresses a compressed source or destination itself;
//! a fast one does not, so the fix inserts an explicit `decompress_resource` before the copy,
//! and the fixed trace decompresses as often as the trace did and draws the same records.

use trace::explain::{explain, Fix};

const TRACE: &str = "device semantics=legacy
texture color format=r8g8b8a8_unorm width=64 height=64 bind=render_target,shader_resource
texture plain format=r8g8b8a8_unorm width=64 height=64 bind=shader_resource compressible=no
rtv color_rtv color
srv plain_srv plain
shader ps0 stage=ps srv=0
context dc semantics=legacy
dc copy_resource plain color
dc ps_set_shader ps0
dc ps_set_shader_resources 0 plain_srv
dc om_set_render_targets color_rtv null
dc draw 3 0
dc finish frame
imm clear_render_target_view color_rtv 0 0 0 0
imm execute frame
imm clear_render_target_view color_rtv 0 0 0 0
imm execute frame
";

#[test]
fn r_tool_2_the_fast_semantics_fix_decompresses_before_a_copy_of_a_compressible_target() {
    let advice = explain(TRACE.as_bytes()).expect("explain");
    let fast = advice
        .fixes
        .iter()
        .find(|f| f.fix == Fix::FastSemantics)
        .expect("fast semantics applies");
    assert_eq!(fast.after.recorded.total(), 0, "{}", fast.edit);
    assert!(
        fast.edit.contains("1 decompress_resource call(s) inserted"),
        "one for the copy: {}",
        fast.edit
    );
    assert_eq!(advice.baseline.decompressions, 2, "the legacy copies'");
    assert_eq!(
        fast.after.decompressions, advice.baseline.decompressions,
        "{}",
        fast.edit
    );
    assert_eq!(fast.after.records, advice.baseline.records);
    assert!(fast.after.refusals.is_empty(), "{:?}", fast.after.refusals);
}
