//! R-B-10 with the GPU model's kept bundle bodies (`executor/src/gpu/bundle_body.rs`): a body is
//! decoded and stepped through the overlay once and replayed at every later call. What a call
//! reads of its caller (inherited slots, remaps' sources) is read at that call, the caller's
//! state is put back after each, and a kept body is its own bundle's only: never read for
//! another bundle, even one recorded into the memory a released bundle gave back.

mod common;

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use common::*;
use executor::{DrawArgs, FieldValue, GpuState, ImmediateContext};
use recorder::command::DirectArgs;
use recorder::*;

fn desc() -> BundleDesc<'static> {
    BundleDesc {
        depth: Some(Format::D32Float),
        ..BundleDesc::new("bundle", &[Format::R8G8B8A8Unorm])
    }
}

/// A recorder with vs, ps, null hs / ds / gs and the input layout set (R-B-3).
fn recorder(f: &Fixture) -> BundleRecorder {
    let mut recorder = BundleRecorder::new(&f.device, &desc()).expect("recorder");
    recorder.set_input_layout(Some(f.layout));
    recorder.set_shader(Stage::Vertex, Some(f.vs));
    for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
        recorder.set_shader(stage, None);
    }
    recorder.set_shader(Stage::Pixel, Some(f.ps));
    recorder
}

fn caller(f: &Fixture) -> ImmediateContext {
    let mut imm = ImmediateContext::new(&f.device).expect("immediate context");
    imm.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    imm.set_input_layout(Some(f.layout));
    imm.set_shader(Stage::Vertex, Some(f.vs));
    imm.set_shader(Stage::Pixel, Some(f.ps));
    imm
}

fn state(imm: &mut ImmediateContext) -> GpuState {
    imm.sync_gpu();
    imm.gpu().state().clone()
}

/// The constant buffer at vs slot 0 and the arguments of record `index`.
#[track_caller]
fn vs_cb0_and_args(imm: &mut ImmediateContext, index: usize) -> (FieldValue, DrawArgs) {
    let records = imm.records();
    let record = records.get(index).expect("the record");
    let cb = record.field("vs.cb.0").expect("vs.cb.0");
    (cb, record.args)
}

fn draw(vertices: u32) -> DrawArgs {
    DrawArgs::Direct(DirectArgs::draw(vertices, 0))
}

#[test]
fn r_b_10_every_call_of_a_kept_body_reads_its_own_callers_state() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    // Overrides vs cb 0, draws, then remaps it to the caller's ps cb 1 and draws again.
    let mut recorder = recorder(&f);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb2)]);
    recorder.draw(3, 0);
    recorder.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Pixel, 1);
    recorder.draw(4, 0);
    let bundle: DrawBundle = recorder.finish().expect("finish");
    // Three callers, three sources for the remap; the caller's vs cb 0 is never read.
    let calls = [(f.cb, f.cb2), (f.cb2, f.cb), (f.cb, f.cb)];
    for (call, (vs_cb, ps_cb)) in calls.into_iter().enumerate() {
        imm.set_constant_buffers(Stage::Vertex, 0, &[Some(vs_cb)]);
        imm.set_constant_buffers(Stage::Pixel, 1, &[Some(ps_cb)]);
        let before = state(&mut imm);
        imm.draw_bundle(&bundle).expect("draw_bundle");
        assert_eq!(
            state(&mut imm),
            before,
            "call {call}: the caller's state is put back"
        );
        let first = 2 * call;
        assert_eq!(
            vs_cb0_and_args(&mut imm, first),
            (object(f.cb2), draw(3)),
            "call {call}: the override"
        );
        assert_eq!(
            vs_cb0_and_args(&mut imm, first + 1),
            (object(ps_cb), draw(4)),
            "call {call}: the remap reads this caller's ps cb 1"
        );
    }
    assert_eq!(imm.counters().bundle_calls, 3);
    assert_eq!(imm.counters().draws, 6);
}

#[test]
fn r_b_10_a_kept_body_is_never_read_for_another_bundle() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    let bundle = |cb: Buffer, vertices: &[u32]| {
        let mut recorder = recorder(&f);
        recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
        for &count in vertices {
            recorder.draw(count, 0);
        }
        recorder.finish().expect("finish")
    };
    // Two live bundles called in turn: each call replays its own body.
    let (a, b) = (bundle(f.cb, &[3]), bundle(f.cb2, &[5, 6]));
    for called in [&a, &b, &a, &b] {
        imm.draw_bundle(called).expect("draw_bundle");
    }
    let expected = [
        (f.cb, 3),
        (f.cb2, 5),
        (f.cb2, 6),
        (f.cb, 3),
        (f.cb2, 5),
        (f.cb2, 6),
    ];
    for (index, (cb, vertices)) in expected.into_iter().enumerate() {
        assert_eq!(
            vs_cb0_and_args(&mut imm, index),
            (object(cb), draw(vertices)),
            "record {index}"
        );
    }
    // Released, then new bundles recorded from the memory they gave back (the same recorder
    // thread, the device's chunk pool): each new one is called once and must read its own
    // body, not what was kept for a released one that lay at the same place.
    imm.clear_records();
    drop((a, b));
    for round in 0..8u32 {
        let vertices = [7 + round, 20 + round];
        let cb = if round % 2 == 0 { f.cb2 } else { f.cb };
        let fresh = bundle(cb, &vertices);
        imm.draw_bundle(&fresh).expect("draw_bundle");
        let n = imm.records().len();
        for (i, count) in vertices.into_iter().enumerate() {
            assert_eq!(
                vs_cb0_and_args(&mut imm, n - 2 + i),
                (object(cb), draw(count)),
                "round {round}, draw {i}"
            );
        }
    }
}

#[test]
fn r_b_10_a_kept_body_serves_calls_from_lists_and_the_immediate_context_alike() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    let mut recorder = recorder(&f);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb2)]);
    recorder.draw(3, 0);
    let bundle = recorder.finish().expect("finish");
    // From a fast deferred list (the body kept at its first call there), then directly.
    let mut deferred = f
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "calls",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("deferred");
    deferred.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    deferred.set_input_layout(Some(f.layout));
    deferred.set_shader(Stage::Vertex, Some(f.vs));
    deferred.set_shader(Stage::Pixel, Some(f.ps));
    deferred.draw_bundle(&bundle);
    deferred.draw_bundle(&bundle);
    let list = deferred
        .finish_command_list(RestoreState::ClearState)
        .map_err(|e| e.error)
        .expect("finish list");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("execute");
    // The list's end cleared the state (`RestoreState::ClearState`): the targets again.
    imm.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    imm.draw_bundle(&bundle).expect("draw_bundle");
    assert_eq!(imm.counters().bundle_calls, 3);
    for index in 0..3 {
        assert_eq!(
            vs_cb0_and_args(&mut imm, index),
            (object(f.cb2), draw(3)),
            "record {index}"
        );
    }
}
