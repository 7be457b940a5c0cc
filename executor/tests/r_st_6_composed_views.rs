//! R-ST-6 and seed 000's `ComposeShaderResourceView`: a view descriptor composed from a
//! description has fast affinity for its minimum LOD. With a MinLevelOfDetail, every bind reads
//! that value, on a legacy context too, and ignores the resource's; with the default, every
//! bind reads the resource's, on a fast context too. And a view's minimum LOD, given at creation
//! or at composition, is a finite non-negative number.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

#[track_caller]
fn min_lod(imm: &mut ImmediateContext, index: usize) -> String {
    imm.sync_gpu();
    shown(imm.gpu(), index, "vs.srv.0.min_lod")
}

fn bind_and_draw(f: &Fixture, c: &mut impl DeviceContext, view: ShaderResourceView) {
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_shader_resources(Stage::Vertex, 0, &[Some(view)]);
    c.draw(3, 0);
}

fn composed(f: &Fixture, min_lod: Option<f32>) -> ShaderResourceView {
    let desc = ViewDesc {
        min_lod,
        ..ViewDesc::new("composed", f.tex)
    };
    f.device
        .compose_shader_resource_view(&desc)
        .unwrap_or_else(|e| panic!("compose: {e}"))
}

#[test]
fn r_st_6_a_composed_descriptor_reads_its_own_min_lod_on_every_context() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::with_immediate(semantics);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        imm.set_resource_min_lod(f.tex, 2.0);
        let view = composed(&f, Some(1.5));
        assert!(f
            .device
            .view_info(view)
            .is_some_and(|info| info.min_lod == ViewMinLod::Composed));
        bind_and_draw(&f, &mut imm, view);
        assert_eq!(min_lod(&mut imm, 0), "1.5", "{semantics:?}: its own");
        // In a legacy list too.
        let list = f.legacy(|c| bind_and_draw(&f, c, view));
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        assert_eq!(min_lod(&mut imm, 1), "1.5", "{semantics:?}: a legacy list");
        // Its value changes as a view object's does, for the binds after.
        imm.set_shader_resource_view_min_lod(view, 0.5);
        bind_and_draw(&f, &mut imm, view);
        assert_eq!(
            min_lod(&mut imm, 2),
            "0.5",
            "{semantics:?}: set, then bound"
        );
    }
}

#[test]
fn r_st_6_a_composed_descriptor_asking_for_the_default_reads_the_resource_min_lod_at_the_bind() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::with_immediate(semantics);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        imm.set_resource_min_lod(f.tex, 2.0);
        let view = composed(&f, None);
        imm.set_resource_min_lod(f.tex, 3.0);
        bind_and_draw(&f, &mut imm, view);
        assert_eq!(
            min_lod(&mut imm, 0),
            "3",
            "{semantics:?}: the resource's now"
        );
        // The fast calls keep the fast contract (R-FX-1) and still read the resource's.
        imm.set_resource_min_lod(f.tex, 4.0);
        imm.set_fast_shader_resource(Stage::Vertex, 0, Some(view));
        imm.draw(3, 0);
        assert_eq!(min_lod(&mut imm, 1), "4", "{semantics:?}: a fast bind");
        let list = f.fast(|c| bind_and_draw(&f, c, view));
        imm.set_resource_min_lod(f.tex, 1.0);
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        assert_eq!(
            min_lod(&mut imm, 2),
            "4",
            "{semantics:?}: as it was at the list's bind"
        );
    }
}

#[test]
fn r_st_6_a_view_min_lod_must_be_finite_and_non_negative() {
    let f = Fixture::new();
    for bad in [f32::NAN, -1.0, f32::INFINITY] {
        let desc = ViewDesc {
            min_lod: Some(bad),
            ..ViewDesc::new("bad", f.tex)
        };
        for (call, result) in [
            (
                "create_shader_resource_view",
                f.device.create_shader_resource_view(&desc),
            ),
            (
                "compose_shader_resource_view",
                f.device.compose_shader_resource_view(&desc),
            ),
        ] {
            match result {
                Err(error @ Error::OutOfRange { .. }) => {
                    let message = error.to_string();
                    assert!(
                        message.contains(call) && message.contains("R-ST-6"),
                        "{message}"
                    );
                }
                other => panic!("{call} with min LOD {bad}: {other:?}"),
            }
        }
    }
}

#[test]
fn r_obj_2_a_composed_descriptor_needs_a_shader_resource_bind_flag() {
    let f = Fixture::new();
    let result = f
        .device
        .compose_shader_resource_view(&ViewDesc::new("no_flag", f.args));
    assert!(
        matches!(
            result,
            Err(Error::MissingBindFlag {
                call: "compose_shader_resource_view",
                ..
            })
        ),
        "{result:?}"
    );
}
