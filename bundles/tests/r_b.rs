//! SPEC §7 on the recording side: what a bundle recorder accepts, refuses (with TRACE.md's error
//! kinds), and counts against the constant-engine budget. Execution (overlay, remaps, no leak,
//! format checks, counters) is tested in `executor/tests/bundles.rs`.

mod common;

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt, SlotKind};
use common::*;
use recorder::command::Command;
use recorder::limits::BUNDLE_BUDGET_BYTES;
use recorder::*;

/// A call on a recorder, for tables of cases.
type Call<'a> = &'a dyn Fn(&mut BundleRecorder);

// ----- R-B-1: recorders, declarations, finish --------------------------------------------------

#[test]
fn r_b_1_a_bundle_is_recorded_on_another_thread_and_shared() {
    let f = Fixture::new();
    let bundle: DrawBundle = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let mut recorder = f.ready();
                recorder.draw(3, 0);
                finish(&mut recorder)
            })
            .join()
            .expect("recording thread")
    });
    let shared = bundle.clone();
    std::thread::scope(|scope| {
        scope.spawn(move || assert_eq!(shared.draws(), 1));
    });
    assert_eq!(bundle.draws(), 1);
    assert!(bundle.is_from(&f.device));
}

#[test]
fn r_b_1_the_recorder_keeps_its_declaration() {
    let f = Fixture::new();
    let desc = BundleDesc {
        sample_count: 4,
        ..BundleDesc::new("msaa", &[Format::R16G16B16A16Float, Format::R8G8B8A8Unorm])
    };
    let mut recorder = BundleRecorder::new(&f.device, &desc).expect("recorder");
    let declaration = *recorder.declaration();
    assert_eq!(declaration.render_targets[0], Format::R16G16B16A16Float);
    assert_eq!(declaration.render_targets[1], Format::R8G8B8A8Unorm);
    assert_eq!(declaration.render_targets[2], Format::Unknown);
    assert_eq!(declaration.depth, Format::Unknown);
    assert_eq!(declaration.sample_count, 4);
    set_mandatory(&f, &mut recorder);
    let bundle = finish(&mut recorder);
    assert_eq!(*bundle.declaration(), declaration);
    assert_eq!(bundle.name(), "msaa");
}

#[test]
fn r_b_1_a_declaration_of_nine_render_targets_is_refused() {
    let f = Fixture::new();
    let formats = [Format::R8G8B8A8Unorm; 9];
    let error = BundleRecorder::new(&f.device, &BundleDesc::new("wide", &formats))
        .expect_err("nine targets");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(
        matches!(
            error,
            Error::SlotOutOfRange {
                count: 9,
                limit: 8,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn r_b_1_finish_returns_the_first_error_with_its_call_index() {
    let f = Fixture::new();
    let mut recorder = f.ready(); // calls 0..=6
    recorder.draw(3, 0); // 7
                         // No such calls on a bundle recorder (they do not compile: the crate's doctests); made by
                         // name, as the trace replay makes them, they are refused and counted.
    recorder.refuse_missing_capability("clear_state", Capability::ClearState); // 8: unsupported
    recorder.refuse_missing_capability("set_rasterizer_state", Capability::InheritedState); // 9: inherited
    recorder.draw(3, 0); // 10
    assert_eq!(refused(&recorder), ErrorKind::InheritedStateInBundle);
    let error = recorder.finish().expect_err("sticky error");
    assert_eq!(error.kind(), ErrorKind::UnsupportedInBundle);
    assert_eq!(error.call_index, 8);
    assert!(
        error.context.starts_with("bundle recorder 'bundle'"),
        "{error}"
    );
    assert!(error.to_string().contains("clear_state"), "{error}");
}

#[test]
fn r_b_1_the_recorder_starts_a_new_bundle_after_finish() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    recorder.draw(3, 0);
    let first = finish(&mut recorder);
    assert_eq!(first.footprint_bytes(), 16);
    // Mandatory state and overrides start again from nothing.
    recorder.draw(3, 0);
    assert_eq!(refused(&recorder), ErrorKind::MissingMandatoryState);
    assert!(recorder.finish().is_err());
    set_mandatory(&f, &mut recorder);
    recorder.draw(3, 0);
    let second = finish(&mut recorder);
    assert_eq!(second.footprint_bytes(), 0);
    assert_eq!(first.draws(), 1);
}

#[test]
fn r_b_1_bundle_recorders_do_not_count_against_the_48_deferred_contexts() {
    let f = Fixture::new();
    let contexts: Vec<DeferredContext> = (0..recorder::limits::MAX_DEFERRED_CONTEXTS)
        .map(|_| f.context(Semantics::Fast))
        .collect();
    let recorders: Vec<BundleRecorder> = (0..4).map(|_| f.recorder()).collect();
    assert_eq!(f.device.live_deferred_contexts(), 48);
    drop(recorders);
    assert_eq!(f.device.live_deferred_contexts(), 48);
    drop(contexts);
    assert_eq!(f.device.live_deferred_contexts(), 0);
}

// ----- R-B-2: allowed draws --------------------------------------------------------------------

#[test]
fn r_b_2_every_allowed_draw_is_recorded() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.draw(3, 0);
    recorder.draw_indexed(3, 0, 0);
    recorder.draw_instanced(3, 2, 0, 0);
    recorder.draw_indexed_instanced(3, 2, 0, 0, 0);
    recorder.draw_auto();
    recorder.draw_instanced_indirect(f.args, 0);
    recorder.draw_indexed_instanced_indirect(f.args, 16);
    recorder.dispatch(1, 2, 3);
    let bundle = finish(&mut recorder);
    assert_eq!(bundle.draws(), 8);
}

#[test]
fn r_b_2_dispatch_indirect_is_not_among_the_allowed_draws() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    // No `dispatch_indirect` on a bundle recorder (no `IndirectDispatchCalls`); made by name:
    recorder.refuse_missing_capability("dispatch_indirect", Capability::IndirectDispatch);
    assert_eq!(refused(&recorder), ErrorKind::UnsupportedInBundle);
}

// ----- R-B-3: mandatory state ------------------------------------------------------------------

#[test]
fn r_b_3_a_draw_before_the_graphics_stages_and_input_layout_are_set_is_refused() {
    let f = Fixture::new();
    let mut recorder = f.recorder();
    recorder.set_shader(Stage::Vertex, Some(f.vs));
    recorder.set_shader(Stage::Pixel, Some(f.ps));
    recorder.draw(3, 0);
    let error = recorder.last_refusal().expect("refused").clone();
    assert_eq!(error.kind(), ErrorKind::MissingMandatoryState);
    let message = error.to_string();
    assert!(
        message.contains("hs, ds, gs, the input layout"),
        "{message}"
    );
    assert!(message.contains("first draw"), "{message}");
    assert_eq!(recorder.stats().draws, 0);
}

#[test]
fn r_b_3_null_counts_as_set() {
    let f = Fixture::new();
    let mut recorder = f.recorder();
    for stage in Stage::GRAPHICS {
        recorder.set_shader(stage, None);
    }
    recorder.set_input_layout(None);
    recorder.draw(3, 0);
    assert!(recorder.last_refusal().is_none());
    assert_eq!(finish(&mut recorder).draws(), 1);
}

#[test]
fn r_b_3_every_draw_kind_checks_the_graphics_state() {
    let f = Fixture::new();
    let mut recorder = f.recorder();
    let draws: [Call; 7] = [
        &|r| r.draw(3, 0),
        &|r| r.draw_indexed(3, 0, 0),
        &|r| r.draw_instanced(3, 1, 0, 0),
        &|r| r.draw_indexed_instanced(3, 1, 0, 0, 0),
        &|r| r.draw_auto(),
        &|r| r.draw_instanced_indirect(f.args, 0),
        &|r| r.draw_indexed_instanced_indirect(f.args, 0),
    ];
    for draw in draws {
        draw(&mut recorder);
        assert_eq!(refused(&recorder), ErrorKind::MissingMandatoryState);
    }
    assert_eq!(recorder.stats().draws, 0);
}

#[test]
fn r_b_3_a_dispatch_needs_the_compute_shader_only() {
    let f = Fixture::new();
    let mut recorder = f.recorder();
    recorder.dispatch(1, 1, 1);
    let error = recorder.last_refusal().expect("refused").to_string();
    assert!(error.contains("cs must be set"), "{error}");
    assert!(error.contains("first dispatch"), "{error}");
    recorder.set_shader(Stage::Compute, None);
    recorder.dispatch(1, 1, 1);
    assert_eq!(recorder.stats().draws, 1);
    // A compute shader is not a draw's mandatory state.
    recorder.draw(3, 0);
    assert_eq!(refused(&recorder), ErrorKind::MissingMandatoryState);
}

#[test]
fn r_b_3_a_refused_set_does_not_count_as_set() {
    let f = Fixture::new();
    let mut recorder = f.recorder();
    // The pixel shader bound to the vertex stage: the recorder refuses it.
    recorder.set_shader(Stage::Vertex, Some(f.ps));
    assert_eq!(refused(&recorder), ErrorKind::InvalidArgument);
    for stage in [Stage::Hull, Stage::Domain, Stage::Geometry, Stage::Pixel] {
        recorder.set_shader(stage, None);
    }
    recorder.set_input_layout(None);
    recorder.draw(3, 0);
    let error = recorder.last_refusal().expect("refused").to_string();
    assert!(error.contains("vs must be set"), "{error}");
}

// ----- R-B-4: encapsulation per slot -----------------------------------------------------------

#[test]
fn r_b_4_a_slot_set_to_null_is_still_overridden() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.set_shader_resources(Stage::Pixel, 1, &[None]);
    assert!(recorder
        .overrides()
        .contains(SlotKind::ShaderResource, Stage::Pixel, 1));
    assert!(!recorder
        .overrides()
        .contains(SlotKind::ShaderResource, Stage::Pixel, 0));
    recorder.draw(3, 0);
    assert_eq!(finish(&mut recorder).footprint_bytes(), 64);
}

#[test]
fn r_b_4_encapsulated_state_is_recorded_with_its_descriptors() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.set_primitive_topology(PrimitiveTopology::TriangleStrip);
    recorder.set_vertex_buffers(
        2,
        &[VertexBuffer {
            buffer: Some(f.vb),
            stride: 16,
            offset: 0,
        }],
    );
    recorder.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
    recorder.set_constant_buffers(Stage::Vertex, 3, &[Some(f.cb)]);
    recorder.set_shader_resources(Stage::Pixel, 1, &[Some(f.tex_srv)]);
    recorder.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
    recorder.draw_indexed(6, 0, 0);
    let bundle = finish(&mut recorder);
    let kinds: Vec<&str> = bundle
        .body()
        .commands()
        .map(|d| match d.command {
            Command::SetPrimitiveTopology(_) => "topology",
            Command::SetVertexBuffers { start: 2, .. } => "vb",
            Command::SetIndexBuffer(_) => "ib",
            Command::SetConstantBuffers { start: 3, .. } => "cb",
            Command::SetShaderResources { start: 1, .. } => "srv",
            Command::SetSamplers { .. } => "sampler",
            Command::DrawIndexed { .. } => "draw",
            _ => "other",
        })
        .filter(|k| *k != "other")
        .collect();
    assert_eq!(
        kinds,
        ["topology", "vb", "ib", "cb", "srv", "sampler", "draw"]
    );
    // 16 (vb) + 16 (ib) + 16 (cb) + 64 (srv) + 16 (sampler); topology is free.
    assert_eq!(bundle.footprint_bytes(), 128);
}

// ----- R-B-5: the constant-engine budget -------------------------------------------------------

#[test]
fn r_b_5_slot_0_re_set_before_each_of_10_draws_costs_64_bytes() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    for draw in 0..10 {
        let view = if draw % 2 == 0 { f.tex_srv } else { f.buf_srv };
        recorder.set_shader_resources(Stage::Pixel, 0, &[Some(view)]);
        recorder.draw(3, 0);
    }
    let bundle = finish(&mut recorder);
    assert_eq!(bundle.draws(), 10);
    assert_eq!(bundle.footprint_bytes(), 64);
}

#[test]
fn r_b_5_slots_0_to_9_in_one_draw_cost_640_bytes() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv); 10]);
    recorder.draw(3, 0);
    assert_eq!(finish(&mut recorder).footprint_bytes(), 640);
}

#[test]
fn r_b_5_footprints_per_kind() {
    let f = Fixture::new();
    let cases: [(Call, u32); 6] = [
        (&|r| r.set_shader_resources(Stage::Pixel, 0, &[None]), 64),
        (
            &|r| r.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]),
            16,
        ),
        (&|r| r.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]), 16),
        (&|r| r.set_vertex_buffers(0, &[VertexBuffer::default()]), 16),
        (&|r| r.set_index_buffer(Some(f.ib), Format::R32Uint, 0), 16),
        (
            &|r| r.set_primitive_topology(PrimitiveTopology::LineList),
            0,
        ),
    ];
    for (set, footprint) in cases {
        let mut recorder = f.ready();
        set(&mut recorder);
        set(&mut recorder);
        assert!(recorder.last_refusal().is_none());
        assert_eq!(recorder.footprint_bytes(), footprint);
        assert_eq!(finish(&mut recorder).footprint_bytes(), footprint);
    }
}

#[test]
fn r_b_5_the_same_slot_of_another_stage_or_kind_is_another_override() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    recorder.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
    recorder.set_samplers(Stage::Pixel, 0, &[None]);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb2)]);
    assert_eq!(recorder.footprint_bytes(), 48);
}

#[test]
fn r_b_5_the_call_that_would_exceed_6144_bytes_is_refused() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    // 96 shader-resource slots = 6144 bytes: exactly the budget.
    for stage in [Stage::Vertex, Stage::Pixel] {
        recorder.set_shader_resources(stage, 0, &[Some(f.tex_srv); 48]);
    }
    assert_eq!(recorder.footprint_bytes(), BUNDLE_BUDGET_BYTES);
    // Re-setting an overridden slot is free.
    recorder.set_shader_resources(Stage::Vertex, 40, &[None; 8]);
    assert!(recorder.last_refusal().is_none());
    // One more slot of any kind is refused, and costs nothing.
    recorder.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
    let error = recorder.last_refusal().expect("refused").clone();
    assert_eq!(error.kind(), ErrorKind::BudgetExceeded);
    match &error {
        Error::BudgetExceeded {
            call,
            total,
            budget,
            slot,
        } => {
            assert_eq!(*call, "set_samplers");
            assert_eq!(*total, 6144 + 16);
            assert_eq!(*budget, 6144);
            assert_eq!(slot, "ps sampler slots 0..1");
        }
        other => panic!("{other}"),
    }
    assert_eq!(recorder.footprint_bytes(), BUNDLE_BUDGET_BYTES);
    let message = error.to_string();
    assert!(
        message.contains("6160") && message.contains("6144"),
        "{message}"
    );
    let finished = recorder.finish().expect_err("the bundle keeps its error");
    assert_eq!(finished.call_index, 7 + 3);
}

#[test]
fn r_b_5_a_multi_slot_call_over_the_budget_is_refused_whole() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv); 128]);
    assert_eq!(refused(&recorder), ErrorKind::BudgetExceeded);
    assert_eq!(recorder.footprint_bytes(), 0);
    assert_eq!(recorder.stats().commands, 7);
}

#[test]
fn r_b_5_a_call_the_recorder_refuses_costs_nothing() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    // A vertex buffer bound as a constant buffer: refused by the recorder (bind flags).
    recorder.set_constant_buffers(Stage::Pixel, 0, &[Some(f.vb)]);
    assert_eq!(refused(&recorder), ErrorKind::InvalidArgument);
    // Out of range: refused by the recorder, nothing counted.
    recorder.set_constant_buffers(Stage::Pixel, 15, &[None, None]);
    assert_eq!(refused(&recorder), ErrorKind::InvalidArgument);
    assert_eq!(recorder.footprint_bytes(), 0);
}

// ----- R-B-6: not encapsulable -----------------------------------------------------------------

#[test]
fn r_b_6_dynamic_buffers_are_not_encapsulable() {
    let f = Fixture::new();
    let calls: [Call; 6] = [
        &|r| r.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]),
        &|r| {
            r.set_vertex_buffers(
                0,
                &[VertexBuffer {
                    buffer: Some(f.vb_dyn),
                    stride: 16,
                    offset: 0,
                }],
            )
        },
        &|r| r.set_index_buffer(Some(f.ib_dyn), Format::R16Uint, 0),
        &|r| r.set_shader_resources(Stage::Pixel, 0, &[Some(f.buf_dyn_srv)]),
        &|r| r.draw_instanced_indirect(f.args_dyn, 0),
        &|r| r.draw_indexed_instanced_indirect(f.args_dyn, 0),
    ];
    for call in calls {
        let mut recorder = f.ready();
        call(&mut recorder);
        let error = recorder.last_refusal().expect("refused").clone();
        assert_eq!(error.kind(), ErrorKind::NotEncapsulable, "{error}");
        assert!(error.to_string().contains("dynamic"), "{error}");
        assert_eq!(recorder.footprint_bytes(), 0);
    }
}

#[test]
fn r_b_6_shader_resource_views_on_render_targets_or_depth_stencils_are_not_encapsulable() {
    let f = Fixture::new();
    for view in [f.rt_srv, f.rt_plain_srv, f.ds_srv] {
        let mut recorder = f.ready();
        recorder.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv), Some(view)]);
        let error = recorder.last_refusal().expect("refused").clone();
        assert_eq!(error.kind(), ErrorKind::NotEncapsulable);
        assert!(
            error.to_string().contains("render target or depth stencil"),
            "{error}"
        );
        // The whole call is refused: slot 0 was not overridden either.
        assert_eq!(recorder.footprint_bytes(), 0);
    }
    // A view on a plain texture or a default buffer is encapsulable.
    let mut recorder = f.ready();
    recorder.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv), Some(f.buf_srv)]);
    assert!(recorder.last_refusal().is_none());
}

#[test]
fn r_b_6_not_encapsulable_takes_precedence_over_any_other_bind_error() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    // Out of range (slots 15..17) and dynamic: not_encapsulable.
    recorder.set_constant_buffers(Stage::Vertex, 15, &[Some(f.cb_dyn), Some(f.cb_dyn)]);
    assert_eq!(refused(&recorder), ErrorKind::NotEncapsulable);
    // Missing bind flag (a dynamic vertex buffer as a constant buffer) and dynamic.
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.vb_dyn)]);
    assert_eq!(refused(&recorder), ErrorKind::NotEncapsulable);
    // Over the budget and on a render target.
    for stage in [Stage::Vertex, Stage::Pixel] {
        recorder.set_shader_resources(stage, 0, &[None; 48]);
    }
    recorder.set_shader_resources(Stage::Hull, 0, &[Some(f.rt_srv)]);
    assert_eq!(refused(&recorder), ErrorKind::NotEncapsulable);
    // A dynamic index buffer with a bad format.
    recorder.set_index_buffer(Some(f.ib_dyn), Format::R8Unorm, 0);
    assert_eq!(refused(&recorder), ErrorKind::NotEncapsulable);
}

/// The precedence holds for the bundle's first error too, with its call index, and whatever
/// error the recorder finds first (a released buffer ahead of the dynamic one, a missing bind
/// flag); a later not-encapsulable call leaves the first error alone.
#[test]
fn r_b_6_not_encapsulable_is_the_first_error_whatever_else_the_call_gets_wrong() {
    let f = Fixture::new();
    let released = f
        .device
        .create_buffer(&BufferDesc {
            name: "released",
            size: 256,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .expect("create buffer");
    f.device.release(released);
    let mut recorder = f.ready(); // calls 0..=6
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]); // 7: fine
    recorder.set_constant_buffers(Stage::Vertex, 1, &[Some(released), Some(f.cb_dyn)]); // 8
    let error = recorder.last_refusal().expect("refused").clone();
    assert_eq!(error.kind(), ErrorKind::NotEncapsulable, "{error}");
    assert!(error.to_string().contains("cb_dyn"), "{error}");
    let first = recorder.error().expect("sticky error").clone();
    assert_eq!(
        (first.kind(), first.call_index),
        (ErrorKind::NotEncapsulable, 8)
    );
    // A refusal of the recorder's own is still its own.
    recorder.set_constant_buffers(Stage::Vertex, 2, &[Some(released)]); // 9
    assert_eq!(refused(&recorder), ErrorKind::ReleasedObject);
    // A later not-encapsulable call is the last refusal, not the first error.
    recorder.set_vertex_buffers(
        0,
        &[VertexBuffer {
            buffer: Some(f.vb_dyn),
            stride: 16,
            offset: 0,
        }],
    ); // 10
    assert_eq!(refused(&recorder), ErrorKind::NotEncapsulable);
    recorder.set_index_buffer(Some(f.vb_dyn), Format::R16Uint, 0); // 11: no index bind flag
    assert_eq!(refused(&recorder), ErrorKind::NotEncapsulable);
    let error = recorder.finish().expect_err("sticky error");
    assert_eq!(
        (error.kind(), error.call_index),
        (ErrorKind::NotEncapsulable, 8)
    );
    assert!(error.to_string().contains("cb_dyn"), "{error}");
    // The next bundle starts clean, and its footprint counts only its own slots.
    let mut recorder = recorder;
    set_mandatory(&f, &mut recorder);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb), Some(f.cb2)]);
    recorder.set_constant_buffers(Stage::Vertex, 1, &[Some(f.cb)]);
    assert_eq!(recorder.footprint_bytes(), 2 * 16);
    recorder.draw(3, 0);
    let bundle = recorder.finish().expect("a clean bundle");
    assert_eq!(bundle.footprint_bytes(), 2 * 16);
}

/// A one-slot bind of a slot the bundle overrides already (the covered path, which learns from
/// the recorder's call whether it was accepted) gets the same answers as a first bind: a dynamic
/// buffer is `not_encapsulable` (as the bundle's first error, with its call index), a released
/// one the recorder's own `released_object`, a static one is accepted and costs nothing more.
#[test]
fn r_b_6_a_bind_of_an_overridden_slot_gets_not_encapsulable_too() {
    let f = Fixture::new();
    let released = f
        .device
        .create_buffer(&BufferDesc {
            name: "released",
            size: 256,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .expect("create buffer");
    f.device.release(released);
    let stream = |buffer| VertexBuffer {
        buffer: Some(buffer),
        stride: 16,
        offset: 0,
    };
    let mut recorder = f.ready(); // calls 0..=6
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]); // 7: overrides slot 0
    recorder.set_vertex_buffers(0, &[stream(f.vb)]); // 8: overrides slot 0
    assert!(recorder.last_refusal().is_none());
    let footprint = recorder.footprint_bytes();
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]); // 9
    let error = recorder.last_refusal().expect("refused").clone();
    assert_eq!(error.kind(), ErrorKind::NotEncapsulable, "{error}");
    assert!(error.to_string().contains("cb_dyn"), "{error}");
    recorder.set_vertex_buffers(0, &[stream(f.vb_dyn)]); // 10
    assert_eq!(refused(&recorder), ErrorKind::NotEncapsulable);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(released)]); // 11
    assert_eq!(refused(&recorder), ErrorKind::ReleasedObject);
    // Accepted covered binds: each counted as accepted, and the footprint does not move.
    let accepted = recorder.stats().calls;
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb2)]); // 12
    recorder.set_constant_buffers(Stage::Vertex, 0, &[None]); // 13
    recorder.set_vertex_buffers(0, &[stream(f.vb)]); // 14
    assert_eq!(recorder.stats().calls, accepted + 3);
    assert_eq!(recorder.footprint_bytes(), footprint);
    let error = recorder.finish().expect_err("sticky error");
    assert_eq!(
        (error.kind(), error.call_index),
        (ErrorKind::NotEncapsulable, 9)
    );
}

#[test]
fn r_b_6_shaders_that_use_stream_output_are_forbidden() {
    let f = Fixture::new();
    let mut recorder = f.recorder();
    recorder.set_shader(Stage::Geometry, Some(f.so_gs));
    let error = recorder.last_refusal().expect("refused").clone();
    assert_eq!(error.kind(), ErrorKind::StreamOutputInBundle);
    assert!(error.to_string().contains("so_gs"), "{error}");
    // Refused: the geometry stage is still not set.
    for stage in [Stage::Vertex, Stage::Hull, Stage::Domain, Stage::Pixel] {
        recorder.set_shader(stage, None);
    }
    recorder.set_input_layout(None);
    recorder.draw(3, 0);
    assert_eq!(refused(&recorder), ErrorKind::MissingMandatoryState);
}

// ----- R-B-7, R-B-8: inherited and unsupported calls ---------------------------------------------

#[test]
fn r_b_7_always_inherited_state_cannot_be_recorded() {
    // A bundle recorder has no `InheritedStateCalls`: the calls do not compile on it (the
    // crate's doctests). Made by name (the trace replay), each is refused as R-B-7 says.
    let f = Fixture::new();
    let calls = [
        "set_render_targets",
        "set_render_targets_and_unordered_access_views",
        "set_blend_state",
        "set_depth_stencil_state",
        "set_rasterizer_state",
        "set_viewports",
        "set_scissor_rects",
        "set_predication",
        "set_compute_unordered_access_views",
        "set_primitive_reset_index",
    ];
    for name in calls {
        let mut recorder = f.ready();
        recorder.refuse_missing_capability(name, Capability::InheritedState);
        let error = recorder.last_refusal().expect("refused").clone();
        assert_eq!(error.kind(), ErrorKind::InheritedStateInBundle, "{name}");
        assert!(error.to_string().starts_with(name), "{error}");
        assert_eq!(recorder.stats().commands, 7, "{name} recorded nothing");
        let error = recorder.finish().expect_err("sticky");
        assert_eq!(error.call_index, 7, "{name}");
    }
}

#[test]
fn r_b_8_unsupported_calls_cannot_be_recorded() {
    // A bundle recorder has none of these calls: they do not compile on it (the crate's
    // doctests). Made by name (the trace replay), each is refused as R-B-8 says: through the
    // capability it lacks, or, for the calls no capability holds (fences, executions, bundle
    // calls, presents), `refuse_unsupported`.
    let f = Fixture::new();
    let calls: [(&str, Option<Capability>); 28] = [
        ("clear_state", Some(Capability::ClearState)),
        ("clear_render_target_view", Some(Capability::Transfer)),
        ("clear_depth_stencil_view", Some(Capability::Transfer)),
        ("map", Some(Capability::Map)),
        ("unmap", Some(Capability::Map)),
        ("copy_resource", Some(Capability::Transfer)),
        ("copy_buffer_region", Some(Capability::Transfer)),
        ("copy_texture_region", Some(Capability::Transfer)),
        ("copy_structure_count", Some(Capability::Transfer)),
        ("update_subresource", Some(Capability::Transfer)),
        ("begin_query", Some(Capability::Query)),
        ("end_query", Some(Capability::Query)),
        ("insert_fence", None),
        ("insert_wait_on_fence", Some(Capability::Fence)),
        ("write_value_bottom_of_pipe", Some(Capability::Fence)),
        ("insert_wait_on_memory", Some(Capability::Fence)),
        ("set_gds_range", Some(Capability::EngineMemory)),
        ("write_gds", Some(Capability::EngineMemory)),
        ("read_gds", Some(Capability::EngineMemory)),
        ("load_constant_ram", Some(Capability::EngineMemory)),
        ("store_constant_ram", Some(Capability::EngineMemory)),
        ("insert_wait_on_present", Some(Capability::Fence)),
        ("decompress_resource", Some(Capability::Barrier)),
        ("set_resource_compression", Some(Capability::Barrier)),
        ("execute_command_list", None),
        ("draw_bundle", None),
        ("present", None),
        ("dispatch_indirect", Some(Capability::IndirectDispatch)),
    ];
    for (name, capability) in calls {
        let mut recorder = f.ready();
        match capability {
            Some(capability) => recorder.refuse_missing_capability(name, capability),
            None => recorder.refuse_unsupported(name),
        }
        let error = recorder.last_refusal().expect("refused").clone();
        assert_eq!(error.kind(), ErrorKind::UnsupportedInBundle, "{name}");
        assert!(error.to_string().starts_with(name), "{error}");
        assert_eq!(recorder.stats().commands, 7, "{name} recorded nothing");
    }
}

#[test]
fn r_b_8_min_lod_calls_act_on_the_object_and_record_nothing() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.set_shader_resource_view_min_lod(f.tex_srv, 2.0);
    assert!(recorder.last_refusal().is_none());
    assert_eq!(f.device.shader_resource_view_min_lod(f.tex_srv), Some(2.0));
    assert_eq!(recorder.stats().commands, 7);
}

// ----- R-B-9: remaps on the recording side -----------------------------------------------------

#[test]
fn r_b_9_remaps_cost_no_budget_and_are_recorded_in_order() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.draw(3, 0);
    recorder.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Vertex, 10);
    recorder.remap_shader_resource_inheritance(Stage::Pixel, 3, Stage::Vertex, 127);
    recorder.remap_sampler_inheritance(Stage::Pixel, 0, Stage::Hull, 15);
    recorder.remap_vertex_buffer_inheritance(0, 31);
    recorder.draw(3, 0);
    assert_eq!(recorder.footprint_bytes(), 0);
    let bundle = finish(&mut recorder);
    let remaps: Vec<Remap> = bundle
        .body()
        .commands()
        .filter_map(|d| match d.command {
            Command::RemapInheritance(remap) => Some(remap),
            _ => None,
        })
        .collect();
    let expected = [
        (
            RemapKind::ConstantBuffer,
            Stage::Vertex,
            0,
            Stage::Vertex,
            10,
        ),
        (
            RemapKind::ShaderResource,
            Stage::Pixel,
            3,
            Stage::Vertex,
            127,
        ),
        (RemapKind::Sampler, Stage::Pixel, 0, Stage::Hull, 15),
        (RemapKind::VertexBuffer, Stage::Vertex, 0, Stage::Vertex, 31),
    ]
    .map(|(kind, stage, slot, inherit_stage, inherit_slot)| Remap {
        kind,
        stage,
        slot,
        inherit_stage,
        inherit_slot,
    });
    assert_eq!(remaps, expected);
    assert_eq!(bundle.footprint_bytes(), 0);
}

#[test]
fn r_b_9_remap_slots_out_of_range_are_refused() {
    let f = Fixture::new();
    let calls: [Call; 5] = [
        &|r| r.remap_constant_buffer_inheritance(Stage::Vertex, 16, Stage::Vertex, 0),
        &|r| r.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Vertex, 16),
        &|r| r.remap_shader_resource_inheritance(Stage::Pixel, 0, Stage::Pixel, 128),
        &|r| r.remap_sampler_inheritance(Stage::Pixel, 16, Stage::Pixel, 0),
        &|r| r.remap_vertex_buffer_inheritance(32, 0),
    ];
    for call in calls {
        let mut recorder = f.ready();
        call(&mut recorder);
        assert_eq!(refused(&recorder), ErrorKind::InvalidArgument);
        assert_eq!(recorder.stats().commands, 7);
    }
}

// R-B-9, remapping applies to bundles only: `remap_inheritance` exists on a bundle recorder's
// core alone, so a deferred context cannot make the call (the compile_fail doctest
// `r_b_9_remapping_applies_to_bundles_only` in `recorder/src/role.rs`).

// ----- R-B-10: calls from deferred contexts (recording side) -------------------------------------

fn bundle_of(f: &Fixture, draws: u32) -> DrawBundle {
    let mut recorder = f.ready();
    for draw in 0..draws {
        recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
        recorder.draw(3, draw);
    }
    finish(&mut recorder)
}

#[test]
fn r_b_10_a_bundle_call_records_a_reference_whatever_the_bundle_size() {
    let f = Fixture::new();
    let small = bundle_of(&f, 1);
    let large = bundle_of(&f, 3000);
    assert!(large.size_bytes() > 100 * small.size_bytes());
    let mut bytes = Vec::new();
    for bundle in [&small, &large] {
        let mut context = f.context(Semantics::Fast);
        context.draw_bundle(bundle);
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .expect("list");
        bytes.push(list.stats().bytes);
        let calls: Vec<u32> = list
            .commands()
            .filter_map(|d| match d.command {
                Command::DrawBundle { bundle: handle } => {
                    assert_eq!(handle, bundle.handle().raw());
                    let body = f.device.bundle_body(handle).expect("registered");
                    assert_eq!(body.declaration, *bundle.declaration());
                    assert_eq!(body.commands.stats().draws, bundle.draws());
                    Some(body.footprint)
                }
                _ => None,
            })
            .collect();
        assert_eq!(calls, [16]);
        assert_eq!(
            list.stats().draws,
            0,
            "the bundle's draws stay in the bundle"
        );
    }
    assert_eq!(bytes[0], bytes[1]);
}

#[test]
fn r_b_10_a_legacy_list_keeps_the_bundles_it_calls_alive_and_a_fast_one_does_not() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let bundle = bundle_of(&f, 2);
        let handle = bundle.handle();
        let mut context = f.context(semantics);
        context.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
        context.draw_bundle(&bundle);
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .expect("list");
        let called = list
            .commands()
            .find_map(|d| match d.command {
                Command::DrawBundle { bundle, .. } => Some(bundle),
                _ => None,
            })
            .expect("a bundle call");
        assert_eq!(called, handle.raw());
        let pool_before = f.device.pool_stats();
        drop(bundle);
        match semantics {
            Semantics::Legacy => {
                let body = f
                    .device
                    .bundle_body(called)
                    .expect("kept by the legacy list");
                assert_eq!(body.commands.stats().draws, 2);
                drop(body);
                drop(list);
            }
            Semantics::Fast => {
                assert!(
                    f.device.bundle_body(called).is_none(),
                    "gone: fast holds nothing"
                );
                assert_eq!(
                    list.first_released_object().map(|o| o.kind),
                    Some(ObjectKind::Bundle)
                );
                drop(list);
            }
        }
        assert!(f.device.bundle_body(called).is_none());
        // The bundle's chunks went back to the pool with the last reference.
        assert!(
            f.device.pool_stats().free_chunks > pool_before.free_chunks,
            "{semantics:?}"
        );
    }
}

#[test]
fn r_b_10_a_legacy_deferred_context_checks_the_formats_when_it_records_the_call() {
    let f = Fixture::new();
    let bundle = bundle_of(&f, 1);
    // ClearState defaults: no targets bound.
    let mut context = f.context(Semantics::Legacy);
    context.draw_bundle(&bundle);
    let error = context
        .finish_command_list(RestoreState::ClearState)
        .expect_err("mismatch");
    assert_eq!(error.kind(), ErrorKind::FormatMismatch);
    let message = error.to_string();
    assert!(
        message.contains("render targets [r8g8b8a8_unorm], depth d32_float, 1 sample"),
        "{message}"
    );
    assert!(
        message.contains("render targets [none], depth none"),
        "{message}"
    );
    // With the declared targets bound, it records.
    context.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    context.draw_bundle(&bundle);
    assert!(context
        .finish_command_list(RestoreState::ClearState)
        .is_ok());
    // A missing depth target is a mismatch too.
    context.set_render_targets(&[Some(f.rt_rtv)], None);
    context.draw_bundle(&bundle);
    assert_eq!(
        context.last_refusal().map(Error::kind),
        Some(ErrorKind::FormatMismatch)
    );
}

#[test]
fn r_b_10_a_fast_deferred_context_records_the_call_unchecked() {
    let f = Fixture::new();
    let bundle = bundle_of(&f, 1);
    let mut context = f.context(Semantics::Fast);
    context.draw_bundle(&bundle);
    assert!(context
        .finish_command_list(RestoreState::ClearState)
        .is_ok());
}

#[test]
fn r_b_10_a_bundle_of_another_device_is_refused() {
    let f = Fixture::new();
    let g = Fixture::new();
    let bundle = bundle_of(&g, 1);
    let mut context = f.context(Semantics::Fast);
    context.draw_bundle(&bundle);
    assert_eq!(
        context.last_refusal().map(Error::kind),
        Some(ErrorKind::InvalidArgument)
    );
}

// ----- R-B-11: size and footprint -------------------------------------------------------------

#[test]
fn r_b_11_a_bundle_reports_its_size_and_footprint() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    recorder.draw(3, 0);
    let empty_ish = finish(&mut recorder);
    let mut recorder = f.ready();
    recorder.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv); 4]);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb); 2]);
    for draw in 0..20 {
        recorder.draw(3, draw);
    }
    let bundle = finish(&mut recorder);
    assert_eq!(bundle.footprint_bytes(), 4 * 64 + 2 * 16);
    assert_eq!(bundle.draws(), 20);
    // Twenty draws of 16 bytes (the compact `draw`) and two binds more than the one-draw bundle.
    assert!(bundle.size_bytes() >= empty_ish.size_bytes() + 19 * 16);
    assert_eq!(bundle.size_bytes(), bundle.body().stats().bytes);
    let shown = format!("{bundle:?}");
    assert!(shown.contains("footprint_bytes: 288"), "{shown}");
}
