//! R-FX-1, R-FX-2 and R-ST-6 under `replay --compare`: a fast bind of a view copies the view's
//! minimum LOD in force at its line, so a list whose fast binds were recorded before a
//! `set_shader_resource_view_min_lod` draws with the LOD of the recording, and the reference
//! (every call issued directly when the list runs) must put that LOD back before it issues the
//! bind, as it does for a plain bind.

use trace::{replay, ReplayOptions};

const TRACE: &str = "\
device semantics=fast
texture tex format=r8g8b8a8_unorm width=16 height=16 mips=4 bind=shader_resource
srv tex_srv tex
shader ps0 stage=ps srv=0-3
context c1 semantics=fast
BIND
c1 draw 1 0
c1 finish l1
imm set_shader_resource_view_min_lod tex_srv 2
imm ps_set_shader ps0
imm execute l1
expect draw 0 ps.srv.1.min_lod 0
";

#[test]
fn r_fx_1_r_fx_2_compare_copies_the_view_lod_at_the_fast_bind() {
    for bind in [
        "c1 set_fast_resources ps.srv.1=tex_srv",
        "c1 ps_set_fast_shader_resource 1 tex_srv",
        "c1 set_fast_resources_into_batch b ps.srv.1=tex_srv\nc1 set_fast_resources_from_batch b",
        "c1 ps_set_placement_shader_resource 1 tex_srv 0x1000",
        "c1 ps_set_shader_resources 1 tex_srv",
    ] {
        let trace = TRACE.replace("BIND", bind);
        let run = replay(
            trace.as_bytes(),
            &ReplayOptions {
                compare: true,
                ..ReplayOptions::default()
            },
        );
        assert_eq!(run.exit_code, 0, "{bind}:\n{}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("identical to the reference"),
            "{bind}:\n{}",
            run.stdout
        );
    }
}
