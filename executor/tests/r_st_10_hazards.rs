//! R-ST-10, legacy hazard tracking, end to end: a legacy context (deferred or immediate) unbinds
//! the shader-resource views of a resource it binds for output and leaves an SRV bind of a
//! resource bound for output null; the GPU model counts a cache flush for each transition of a
//! resource between legacy draws; fast contexts bind what they are told.

mod common;

use common::*;
use executor::{FieldValue, ImmediateContext};
use recorder::*;

/// Field `name` of record `index` on `imm`.
#[track_caller]
fn seen(imm: &mut ImmediateContext, index: usize, name: &str) -> FieldValue {
    let records = imm.records();
    records
        .get(index)
        .unwrap_or_else(|| panic!("no record {index}: {} records", records.len()))
        .field(name)
        .unwrap_or_else(|| panic!("record {index} has no field {name}"))
}

/// The calls these tests make, on any context behind one `dyn` (a deferred context and the
/// immediate context have different recording cores, so no capability trait is one `dyn` type
/// for both). In a module of its own, so that its names do not shadow the capabilities' on
/// concrete contexts.
mod dynamic {
    use recorder::*;

    pub trait Calls {
        fn set_shader(&mut self, stage: Stage, shader: Option<Shader>);
        fn set_shader_resources(
            &mut self,
            stage: Stage,
            start: u32,
            views: &[Option<ShaderResourceView>],
        );
        fn set_render_targets(
            &mut self,
            targets: &[Option<RenderTargetView>],
            depth: Option<DepthStencilView>,
        );
        fn set_render_targets_and_unordered_access_views(
            &mut self,
            targets: &[Option<RenderTargetView>],
            depth: Option<DepthStencilView>,
            start: u32,
            views: &[Option<UnorderedAccessView>],
        );
        fn set_compute_unordered_access_views(
            &mut self,
            start: u32,
            views: &[Option<UnorderedAccessView>],
        );
        fn draw(&mut self, vertex_count: u32, start_vertex: u32);
    }

    impl<C: DeviceContext> Calls for C {
        fn set_shader(&mut self, stage: Stage, shader: Option<Shader>) {
            BindCalls::set_shader(self, stage, shader)
        }
        fn set_shader_resources(
            &mut self,
            stage: Stage,
            start: u32,
            views: &[Option<ShaderResourceView>],
        ) {
            BindCalls::set_shader_resources(self, stage, start, views)
        }
        fn set_render_targets(
            &mut self,
            targets: &[Option<RenderTargetView>],
            depth: Option<DepthStencilView>,
        ) {
            InheritedStateCalls::set_render_targets(self, targets, depth)
        }
        fn set_render_targets_and_unordered_access_views(
            &mut self,
            targets: &[Option<RenderTargetView>],
            depth: Option<DepthStencilView>,
            start: u32,
            views: &[Option<UnorderedAccessView>],
        ) {
            InheritedStateCalls::set_render_targets_and_unordered_access_views(
                self, targets, depth, start, views,
            )
        }
        fn set_compute_unordered_access_views(
            &mut self,
            start: u32,
            views: &[Option<UnorderedAccessView>],
        ) {
            InheritedStateCalls::set_compute_unordered_access_views(self, start, views)
        }
        fn draw(&mut self, vertex_count: u32, start_vertex: u32) {
            DrawCalls::draw(self, vertex_count, start_vertex)
        }
    }
}

fn shaders(f: &Fixture, c: &mut dyn dynamic::Calls) {
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_shader(Stage::Pixel, Some(f.ps));
}

/// A call that binds something, named.
type Bind<'a> = (&'static str, Box<dyn Fn(&mut dyn dynamic::Calls) + 'a>);

/// Every way of binding `rt` for output after its SRV is bound to vs and ps slot 0.
fn output_binds(f: &Fixture) -> Vec<Bind<'_>> {
    vec![
        (
            "render target",
            Box::new(|c: &mut dyn dynamic::Calls| c.set_render_targets(&[Some(f.rt_rtv)], None)),
        ),
        (
            "output-merger UAV",
            Box::new(|c: &mut dyn dynamic::Calls| {
                c.set_render_targets_and_unordered_access_views(&[None], None, 1, &[Some(f.rt_uav)])
            }),
        ),
        (
            "compute UAV",
            Box::new(|c: &mut dyn dynamic::Calls| {
                c.set_compute_unordered_access_views(0, &[Some(f.rt_uav)])
            }),
        ),
    ]
}

#[test]
fn r_st_10_binding_for_output_unbinds_the_resource_srvs_on_a_legacy_context() {
    let f = Fixture::new();
    for (what, bind) in output_binds(&f) {
        for deferred in [true, false] {
            let mut imm = ImmediateContext::new(&f.device).unwrap();
            let calls = |c: &mut dyn dynamic::Calls| {
                shaders(&f, c);
                c.set_shader_resources(Stage::Vertex, 0, &[Some(f.rt_srv)]);
                c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv), None, Some(f.tex_srv)]);
                bind(c);
                c.draw(3, 0);
            };
            if deferred {
                let list = f.legacy(|c| calls(c));
                imm.execute_command_list(&list, RestoreState::Restore)
                    .unwrap();
            } else {
                calls(&mut imm);
            }
            let context = if deferred { "deferred" } else { "immediate" };
            assert_eq!(
                seen(&mut imm, 0, "vs.srv.0"),
                FieldValue::Null,
                "{what}, {context}"
            );
            assert_eq!(
                seen(&mut imm, 0, "ps.srv.0"),
                FieldValue::Null,
                "{what}, {context}"
            );
            // Other resources' views stay.
            assert_eq!(
                seen(&mut imm, 0, "ps.srv.2"),
                object(f.tex_srv),
                "{what}, {context}"
            );
            if !deferred {
                // The legacy immediate context's getters show the slot null.
                assert_eq!(
                    imm.get_shader_resource(Stage::Pixel, 0),
                    Some(ShaderResourceView::from_raw(RawHandle::NULL))
                );
                assert_eq!(imm.get_shader_resource(Stage::Pixel, 2), Some(f.tex_srv));
            }
        }
    }
}

#[test]
fn r_st_10_binding_a_writable_depth_stencil_unbinds_its_srvs() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    shaders(&f, &mut imm);
    imm.set_shader_resources(Stage::Pixel, 0, &[Some(f.ds_srv)]);
    imm.set_render_targets(&[None], Some(f.ds_dsv));
    imm.draw(3, 0);
    assert_eq!(seen(&mut imm, 0, "ps.srv.0"), FieldValue::Null);
    assert_eq!(seen(&mut imm, 0, "dsv"), object(f.ds_dsv));
}

#[test]
fn r_st_10_an_srv_of_a_resource_bound_for_output_reads_null() {
    let f = Fixture::new();
    for (what, bind) in output_binds(&f) {
        for deferred in [true, false] {
            let mut imm = ImmediateContext::new(&f.device).unwrap();
            let calls = |c: &mut dyn dynamic::Calls| {
                shaders(&f, c);
                bind(c);
                c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv), None, Some(f.tex_srv)]);
                c.draw(3, 0);
            };
            if deferred {
                let list = f.legacy(|c| calls(c));
                imm.execute_command_list(&list, RestoreState::Restore)
                    .unwrap();
            } else {
                calls(&mut imm);
                assert_eq!(
                    imm.get_shader_resource(Stage::Pixel, 0),
                    Some(ShaderResourceView::from_raw(RawHandle::NULL))
                );
            }
            let context = if deferred { "deferred" } else { "immediate" };
            assert_eq!(
                seen(&mut imm, 0, "ps.srv.0"),
                FieldValue::Null,
                "{what}, {context}"
            );
            assert_eq!(
                seen(&mut imm, 0, "ps.srv.2"),
                object(f.tex_srv),
                "{what}, {context}"
            );
        }
    }
    // A null SRV bind of a compressible target makes no decompression split point.
    let list = f.legacy(|c| {
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    });
    assert_eq!(list.stats().split_points[SplitCategory::Decompression], 0);
}

#[test]
fn r_st_10_fast_contexts_bind_what_they_are_told() {
    // The same calls on a fast and a legacy list: only legacy unbinds and leaves slots null.
    let calls = |f: &Fixture, c: &mut dyn dynamic::Calls| {
        shaders(f, c);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.draw(3, 0);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
        c.draw(3, 0);
    };
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let f = Fixture::with_immediate(semantics);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        let list = f.list(semantics, |c| calls(&f, c));
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        // And directly on the immediate context of the same semantics.
        calls(&f, &mut imm);
        let expected = match semantics {
            Semantics::Fast => object(f.rt_srv),
            Semantics::Legacy => FieldValue::Null,
        };
        for draw in 0..4 {
            assert_eq!(
                seen(&mut imm, draw, "ps.srv.0"),
                expected,
                "{semantics:?} draw {draw}"
            );
        }
        assert_eq!(imm.counters().cache_flushes, 0, "{semantics:?}");
    }
}

/// Draw 0 writes rt, draw 1 reads it (a flush), draw 2 reads it again (none), draw 3 writes it
/// (a flush), draw 4 writes it again (none).
fn transitions(f: &Fixture, c: &mut dyn dynamic::Calls) {
    shaders(f, c);
    c.set_render_targets(&[Some(f.rt_rtv)], None);
    c.draw(3, 0);
    c.set_render_targets(&[Some(f.rt_plain_rtv)], None);
    c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    c.draw(3, 0);
    c.draw(3, 0);
    c.set_render_targets(&[Some(f.rt_rtv)], None);
    c.draw(3, 0);
    c.draw(3, 0);
}

#[test]
fn r_st_10_cache_flushes_count_each_transition_of_a_resource_between_legacy_draws() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    transitions(&f, &mut imm);
    assert_eq!(imm.counters().cache_flushes, 2);
    assert_eq!(seen(&mut imm, 1, "ps.srv.0"), object(f.rt_srv));
    assert_eq!(seen(&mut imm, 3, "ps.srv.0"), FieldValue::Null);
    drop(imm);
    // A read through a slot the shader does not read is no use: no transition.
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    shaders(&f, &mut imm);
    imm.set_render_targets(&[Some(f.rt_rtv)], None);
    imm.draw(3, 0);
    imm.set_render_targets(&[None], None);
    imm.set_shader_resources(Stage::Pixel, 1, &[Some(f.rt_srv)]);
    imm.draw(3, 0);
    assert_eq!(imm.counters().cache_flushes, 0);
    drop(imm);
    // Compute: a dispatch writing rt through a UAV, then a draw reading it.
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    shaders(&f, &mut imm);
    imm.set_shader(Stage::Compute, Some(f.cs));
    imm.set_compute_unordered_access_views(0, &[Some(f.rt_uav)]);
    imm.dispatch(1, 1, 1);
    imm.set_compute_unordered_access_views(0, &[None]);
    imm.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    imm.draw(3, 0);
    assert_eq!(imm.counters().cache_flushes, 1);
}

#[test]
fn r_st_10_fast_draws_count_no_flush_and_hide_nothing_from_legacy_ones() {
    // A list writing rt between two legacy lists reading it: a legacy writer costs two
    // flushes; a fast one none, as the driver is not aware of the fast use (the application's
    // barriers synchronise, §9), and the two legacy reads see no transition between them.
    let f = Fixture::new();
    let read = f.legacy(|c| {
        shaders(&f, c);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
        c.draw(3, 0);
    });
    for (semantics, flushes) in [(Semantics::Legacy, 2), (Semantics::Fast, 0)] {
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        let write = f.list(semantics, |c| {
            shaders(&f, c);
            c.set_render_targets(&[Some(f.rt_rtv)], None);
            c.draw(3, 0);
        });
        for list in [&read, &write, &read] {
            imm.execute_command_list(list, RestoreState::ClearState)
                .unwrap();
        }
        assert_eq!(
            imm.counters().cache_flushes,
            flushes,
            "{semantics:?} writer"
        );
    }
}

#[test]
fn r_st_10_transitions_are_counted_across_list_boundaries() {
    // The GPU model sees the lists in execution order: the driver responds across lists too
    // (R-V-2). A list that writes rt, then one that reads it, then one that writes it again.
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let write = f.legacy(|c| {
        shaders(&f, c);
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.draw(3, 0);
    });
    let read = f.legacy(|c| {
        shaders(&f, c);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
        c.draw(3, 0);
    });
    for list in [&write, &read, &read, &write] {
        imm.execute_command_list(list, RestoreState::ClearState)
            .unwrap();
    }
    assert_eq!(imm.counters().cache_flushes, 2);
}

#[test]
fn r_st_10_immediate_and_deferred_agree() {
    // The same calls as a legacy list and directly on a legacy immediate context: the same
    // records and the same flushes.
    let f = Fixture::new();
    let mut deferred = ImmediateContext::new(&f.device).unwrap();
    let list = f.legacy(|c| transitions(&f, c));
    deferred
        .execute_command_list(&list, RestoreState::Restore)
        .unwrap();
    let g = Fixture::twin_of(&f, Semantics::Legacy);
    let mut direct = ImmediateContext::new(&g.device).unwrap();
    transitions(&g, &mut direct);
    assert_eq!(deferred.records(), direct.records());
    assert_eq!(
        deferred.counters().cache_flushes,
        direct.counters().cache_flushes
    );
    assert_eq!(direct.counters().cache_flushes, 2);
}

#[test]
fn r_st_10_carried_state_keeps_the_unbound_slot_null() {
    // The shadow a legacy context carries into its next list (R-ST-1) is the state the GPU saw:
    // the SRV the render-target bind unbound stays unbound after the target is unbound.
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let mut context = f.context(Semantics::Legacy);
    shaders(&f, &mut context);
    context.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    context.set_render_targets(&[Some(f.rt_rtv)], None);
    context.set_render_targets(&[None], None);
    let first = context.finish_command_list(RestoreState::Restore).unwrap();
    context.draw(3, 0);
    let second = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    imm.execute_command_list(&first, RestoreState::ClearState)
        .unwrap();
    imm.execute_command_list(&second, RestoreState::ClearState)
        .unwrap();
    assert_eq!(seen(&mut imm, 0, "ps.srv.0"), FieldValue::Null);
}

#[test]
fn r_st_10_an_unbound_slot_drops_its_binding_reference() {
    // R-OBJ-4 with R-ST-10: the slot the output bind empties holds no reference any more; the
    // list keeps the one it took when the view was bound, until it is dropped. A bind left
    // null takes none.
    let f = Fixture::new();
    let d = &f.device;
    let mut context = f.context(Semantics::Legacy);
    context.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    assert_eq!(d.references(f.rt_srv), Some(2), "binding + list");
    context.set_render_targets(&[Some(f.rt_rtv)], None);
    assert_eq!(d.references(f.rt_srv), Some(1), "the list's only");
    context.set_shader_resources(Stage::Pixel, 1, &[Some(f.rt_srv)]);
    assert_eq!(d.references(f.rt_srv), Some(1), "a null bind takes none");
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    assert_eq!(d.references(f.rt_srv), Some(1));
    drop(list);
    assert_eq!(d.references(f.rt_srv), Some(0));
}
