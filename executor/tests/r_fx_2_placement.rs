//! R-FX-2: placement gives a default resource a new address as it is bound: no split point, no
//! reference, the draw records show the placed instance, only default-usage resources. The
//! advisor's use of it (`--explain`) is tested in `trace/tests/r_fx_2_placement_advice.rs`.

mod common;

use common::*;
use recorder::command::InstanceId;
use recorder::*;

#[test]
fn r_fx_2_draw_record_shows_placed_address() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let before = f.device.references(f.cb);
        let mut c = f.context(semantics);
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_placement_constant_buffer(Stage::Pixel, 0, f.cb, 0x1000);
        c.set_placement_shader_resource(Stage::Pixel, 0, f.tex_srv, 0x20000);
        c.set_placement_index_buffer(f.ib, 0x3000, Format::R32Uint);
        c.draw_indexed(3, 0, 0);
        c.set_placement_constant_buffer(Stage::Pixel, 0, f.cb, 0x1100);
        c.draw_indexed(3, 0, 0);
        assert_eq!(
            f.device.references(f.cb),
            before,
            "{semantics:?}: no reference"
        );
        let list = c
            .finish_command_list(RestoreState::ClearState)
            .expect("finish");
        assert_eq!(list.stats().split_points.total(), 0, "{semantics:?}");
        let gpu = gpu_after(&[&list]);
        let placed = |a| InstanceId::placed(a);
        assert_eq!(field(&gpu, 0, "ps.cb.0"), Some(at(f.cb, placed(0x1000))));
        assert_eq!(
            field(&gpu, 0, "ps.srv.0"),
            Some(at(f.tex_srv, placed(0x20000)))
        );
        assert_eq!(field(&gpu, 0, "ib"), Some(at(f.ib, placed(0x3000))));
        assert_eq!(field(&gpu, 1, "ps.cb.0"), Some(at(f.cb, placed(0x1100))));
        assert!(
            shown(&gpu, 1, "ps.cb.0").ends_with("@0x1100"),
            "{}",
            shown(&gpu, 1, "ps.cb.0")
        );
    }
    assert_eq!(InstanceId::placed(0x1000).placement(), Some(0x1000));
    assert_eq!(InstanceId::INITIAL.placement(), None);
    assert_eq!(InstanceId::RESOLVE_AT_EXECUTION.placement(), None);
    assert_eq!(InstanceId::new(3, 7).placement(), None);
}

#[test]
fn r_fx_2_non_default_refused() {
    let f = Fixture::new();
    let mut c = f.context(Semantics::Legacy);
    c.set_placement_constant_buffer(Stage::Pixel, 0, f.cb_dyn, 0x1000);
    match c.last_refusal() {
        Some(Error::OutOfRange { allowed, .. }) => assert!(allowed.contains("R-FX-2"), "{allowed}"),
        other => panic!("expected the R-FX-2 refusal, found {other:?}"),
    }
    // An immutable vertex buffer is not default either.
    c.set_placement_vertex_buffer(0, f.vb, 16, 0, 0x1000);
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::InvalidArgument)
    );
    // An address past what an instance holds.
    c.set_placement_constant_buffer(Stage::Pixel, 0, f.cb, u64::MAX);
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::InvalidArgument)
    );
}
