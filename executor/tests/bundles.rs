//! SPEC §7 on the execution side: what a bundle's draws read (encapsulated slots over the
//! caller's, R-B-4; remaps, R-B-9), that the caller's state is exactly as before afterwards, the
//! format check, the counters and the context rolls (R-B-10), on the immediate context and from
//! deferred lists.

mod common;

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use common::*;
use executor::{FieldValue, GpuState, GpuTiming, ImmediateContext};
use recorder::*;

/// The declaration matching `rt_rtv` and `ds_dsv`.
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

#[track_caller]
fn finish(mut recorder: BundleRecorder) -> DrawBundle {
    recorder
        .finish()
        .unwrap_or_else(|e| panic!("finish bundle: {e}"))
}

/// A fast immediate context with the declared targets, the pipeline and a few bindings.
fn caller(f: &Fixture) -> ImmediateContext {
    let mut imm = ImmediateContext::new(&f.device).expect("immediate context");
    targets(f, &mut imm);
    imm
}

fn targets(f: &Fixture, c: &mut impl DeviceContext) {
    c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    c.set_input_layout(Some(f.layout));
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_shader(Stage::Pixel, Some(f.ps));
}

/// Field `name` of record `index`.
#[track_caller]
fn read(imm: &mut ImmediateContext, index: usize, name: &str) -> FieldValue {
    let records = imm.records();
    let record = records
        .get(index)
        .unwrap_or_else(|| panic!("no record {index}: {} records", records.len()));
    record
        .field(name)
        .unwrap_or_else(|| panic!("record {index} has no field {name}"))
}

fn state(imm: &mut ImmediateContext) -> GpuState {
    imm.sync_gpu();
    imm.gpu().state().clone()
}

fn constant_buffer(f: &Fixture, name: &str) -> Buffer {
    f.device
        .create_buffer(&BufferDesc {
            name,
            size: 256,
            usage: Usage::Default,
            bind: BindFlags::CONSTANT,
            uav_flag: UavFlag::None,
            placement: None,
        })
        .expect("constant buffer")
}

// ----- R-B-1: recording on the immediate context -------------------------------------------------

#[test]
fn r_b_1_start_bundle_and_finish_bundle_on_the_immediate_context() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    let bundle = {
        let mut recording = imm.start_bundle(&desc()).expect("start_bundle");
        recording.set_input_layout(Some(f.layout));
        for stage in Stage::GRAPHICS {
            recording.set_shader(stage, None);
        }
        recording.set_shader(Stage::Vertex, Some(f.vs));
        recording.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
        recording.draw(3, 0);
        recording.finish_bundle().expect("finish_bundle")
    };
    imm.draw_bundle(&bundle).expect("draw_bundle");
    assert_eq!(read(&mut imm, 0, "vs.cb.0"), object(f.cb));
    // A recording with an error gives the error.
    let mut recording = imm.start_bundle(&desc()).expect("start_bundle");
    recording.draw(3, 0);
    let error = recording.finish_bundle().expect_err("missing state");
    assert_eq!(error.kind(), ErrorKind::MissingMandatoryState);
}

// ----- R-B-2: dispatch -------------------------------------------------------------------------

#[test]
fn r_b_2_a_dispatch_in_a_bundle_reads_the_bundles_compute_slots() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    imm.set_constant_buffers(Stage::Compute, 0, &[Some(f.cb)]);
    imm.set_shader_resources(Stage::Compute, 0, &[Some(f.tex_srv)]);
    let mut recorder = BundleRecorder::new(&f.device, &desc()).expect("recorder");
    recorder.set_shader(Stage::Compute, Some(f.cs));
    recorder.set_constant_buffers(Stage::Compute, 0, &[Some(f.cb2)]);
    recorder.dispatch(4, 2, 1);
    let bundle = finish(recorder);
    imm.draw_bundle(&bundle).expect("draw_bundle");
    assert_eq!(read(&mut imm, 0, "cs"), object(f.cs));
    assert_eq!(read(&mut imm, 0, "cs.cb.0"), object(f.cb2));
    assert_eq!(read(&mut imm, 0, "cs.srv.0"), object(f.tex_srv));
    assert_eq!(imm.counters().dispatches, 1);
}

// ----- R-B-4: encapsulation per slot -----------------------------------------------------------

#[test]
fn r_b_4_unset_slots_are_inherited_and_set_slots_encapsulated() {
    // The seeds' example: the shader reads slots 0 and 2 (theirs: 0 and 1); the bundle sets 2.
    let f = Fixture::new();
    let mut imm = caller(&f);
    imm.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv), None, Some(f.tex2_srv)]);
    let mut recorder = recorder(&f);
    recorder.set_shader_resources(Stage::Pixel, 2, &[Some(f.sb_srv)]);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    imm.draw_bundle(&bundle).expect("draw_bundle");
    assert_eq!(
        read(&mut imm, 0, "ps.srv.0"),
        object(f.tex_srv),
        "inherited"
    );
    assert_eq!(
        read(&mut imm, 0, "ps.srv.2"),
        object(f.sb_srv),
        "encapsulated"
    );
}

#[test]
fn r_b_4_a_slot_set_to_null_overrides_the_callers_binding() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    imm.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb), Some(f.cb2)]);
    let mut recorder = recorder(&f);
    recorder.set_constant_buffers(Stage::Pixel, 1, &[None]);
    recorder.draw(3, 0);
    imm.draw_bundle(&finish(recorder)).expect("draw_bundle");
    assert_eq!(read(&mut imm, 0, "ps.cb.0"), object(f.cb));
    assert_eq!(read(&mut imm, 0, "ps.cb.1"), FieldValue::Null);
}

#[test]
fn r_b_4_shaders_layout_topology_index_and_vertex_buffers_are_encapsulated() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    imm.set_primitive_topology(PrimitiveTopology::PointList);
    imm.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb), vertex(f.vb)]);
    let mut recorder = recorder(&f);
    recorder.set_shader(Stage::Hull, Some(f.hs));
    recorder.set_primitive_topology(PrimitiveTopology::TriangleStrip);
    recorder.set_vertex_buffers(2, &[vertex(f.vb2)]);
    recorder.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
    recorder.draw_indexed(6, 0, 0);
    imm.draw_bundle(&finish(recorder)).expect("draw_bundle");
    imm.draw(3, 0);
    assert_eq!(read(&mut imm, 0, "hs"), object(f.hs));
    assert_eq!(
        read(&mut imm, 0, "topology"),
        FieldValue::Topology(PrimitiveTopology::TriangleStrip)
    );
    assert_eq!(read(&mut imm, 0, "vb.0"), object(f.vb));
    assert_eq!(read(&mut imm, 0, "vb.2"), object(f.vb2));
    assert_eq!(read(&mut imm, 0, "ib"), object(f.ib));
    // Afterwards: the caller's again.
    assert_eq!(read(&mut imm, 1, "hs"), FieldValue::Null);
    assert_eq!(
        read(&mut imm, 1, "topology"),
        FieldValue::Topology(PrimitiveTopology::PointList)
    );
    assert_eq!(read(&mut imm, 1, "vb.2"), object(f.vb));
    assert_eq!(read(&mut imm, 1, "ib"), FieldValue::Null);
}

// ----- R-B-9: remaps ---------------------------------------------------------------------------

#[test]
fn r_b_9_the_seeds_four_draw_remap_example() {
    // Four draws with a shader reading vs constant buffer 0; the caller loads slots 0, 10, 11
    // and 15; each draw reads the next.
    let f = Fixture::new();
    let buffers: Vec<Buffer> = ["cb0", "cb10", "cb11", "cb15"]
        .iter()
        .map(|name| constant_buffer(&f, name))
        .collect();
    let mut imm = caller(&f);
    for (slot, buffer) in [0, 10, 11, 15].into_iter().zip(&buffers) {
        imm.set_constant_buffers(Stage::Vertex, slot, &[Some(*buffer)]);
    }
    let mut recorder = recorder(&f);
    recorder.draw(3, 0);
    recorder.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Vertex, 10);
    recorder.draw(3, 0);
    recorder.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Vertex, 11);
    recorder.draw(3, 0);
    recorder.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Vertex, 15);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    assert_eq!(bundle.footprint_bytes(), 0, "remaps are free");
    imm.draw_bundle(&bundle).expect("draw_bundle");
    for (draw, buffer) in buffers.iter().enumerate() {
        assert_eq!(
            read(&mut imm, draw, "vs.cb.0"),
            object(*buffer),
            "draw {draw}"
        );
    }
}

#[test]
fn r_b_9_remap_to_self_cancels_the_override() {
    // The seeds' second example.
    let f = Fixture::new();
    let mut imm = caller(&f);
    imm.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    let mut recorder = recorder(&f);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb2)]);
    recorder.draw(3, 0);
    recorder.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Vertex, 0);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    assert_eq!(
        bundle.footprint_bytes(),
        16,
        "the slot was loaded all the same"
    );
    imm.draw_bundle(&bundle).expect("draw_bundle");
    assert_eq!(read(&mut imm, 0, "vs.cb.0"), object(f.cb2), "encapsulated");
    assert_eq!(
        read(&mut imm, 1, "vs.cb.0"),
        object(f.cb),
        "inherited again"
    );
}

#[test]
fn r_b_9_remaps_never_chain() {
    let f = Fixture::new();
    let other = constant_buffer(&f, "other");
    let mut imm = caller(&f);
    imm.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb), Some(f.cb2), Some(other)]);
    let mut recorder = recorder(&f);
    // Slot 1 reads the caller's 2, then slot 0 reads the caller's 1: not the remapped 2.
    recorder.remap_constant_buffer_inheritance(Stage::Pixel, 1, Stage::Pixel, 2);
    recorder.remap_constant_buffer_inheritance(Stage::Pixel, 0, Stage::Pixel, 1);
    recorder.draw(3, 0);
    // An override is not inherited either: slot 0 reads the caller's 1, not the bundle's.
    recorder.set_constant_buffers(Stage::Pixel, 1, &[None]);
    recorder.remap_constant_buffer_inheritance(Stage::Pixel, 0, Stage::Pixel, 1);
    recorder.draw(3, 0);
    imm.draw_bundle(&finish(recorder)).expect("draw_bundle");
    assert_eq!(read(&mut imm, 0, "ps.cb.0"), object(f.cb2));
    assert_eq!(read(&mut imm, 0, "ps.cb.1"), object(other));
    assert_eq!(read(&mut imm, 1, "ps.cb.0"), object(f.cb2));
    assert_eq!(read(&mut imm, 1, "ps.cb.1"), FieldValue::Null);
}

#[test]
fn r_b_9_remaps_cross_stages_for_every_kind() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    imm.set_constant_buffers(Stage::Hull, 5, &[Some(f.cb2)]);
    imm.set_shader_resources(Stage::Domain, 7, &[Some(f.sb_srv)]);
    imm.set_samplers(Stage::Compute, 3, &[Some(f.sampler)]);
    imm.set_vertex_buffers(9, &[vertex(f.vb2)]);
    let mut recorder = recorder(&f);
    recorder.remap_constant_buffer_inheritance(Stage::Pixel, 1, Stage::Hull, 5);
    recorder.remap_shader_resource_inheritance(Stage::Pixel, 2, Stage::Domain, 7);
    recorder.remap_sampler_inheritance(Stage::Pixel, 0, Stage::Compute, 3);
    recorder.remap_vertex_buffer_inheritance(2, 9);
    recorder.draw(3, 0);
    imm.draw_bundle(&finish(recorder)).expect("draw_bundle");
    assert_eq!(read(&mut imm, 0, "ps.cb.1"), object(f.cb2));
    assert_eq!(read(&mut imm, 0, "ps.srv.2"), object(f.sb_srv));
    assert_eq!(read(&mut imm, 0, "ps.sampler.0"), object(f.sampler));
    assert_eq!(read(&mut imm, 0, "vb.2"), object(f.vb2));
}

#[test]
fn r_b_9_a_remap_changes_later_draws_only() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    imm.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb), Some(f.cb2)]);
    let mut recorder = recorder(&f);
    recorder.draw(3, 0);
    recorder.draw(3, 0);
    recorder.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Vertex, 1);
    let bundle = finish(recorder);
    imm.draw_bundle(&bundle).expect("draw_bundle");
    imm.draw(3, 0);
    for draw in 0..3 {
        assert_eq!(read(&mut imm, draw, "vs.cb.0"), object(f.cb), "draw {draw}");
    }
}

// ----- R-B-10: no leak, checks, counters, rolls ------------------------------------------------

/// A bundle that overrides and remaps a bit of everything.
fn busy_bundle(f: &Fixture) -> DrawBundle {
    let mut recorder = recorder(f);
    recorder.set_shader(Stage::Hull, Some(f.hs));
    recorder.set_primitive_topology(PrimitiveTopology::LineList);
    recorder.set_vertex_buffers(0, &[vertex(f.vb2), vertex(f.vb2)]);
    recorder.set_index_buffer(Some(f.ib), Format::R16Uint, 4);
    recorder.set_constant_buffers(Stage::Pixel, 0, &[None, Some(f.cb)]);
    recorder.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex2_srv); 3]);
    recorder.set_samplers(Stage::Pixel, 0, &[None]);
    recorder.draw_indexed(3, 0, 0);
    recorder.remap_constant_buffer_inheritance(Stage::Pixel, 0, Stage::Vertex, 0);
    recorder.remap_shader_resource_inheritance(Stage::Pixel, 2, Stage::Pixel, 2);
    recorder.remap_vertex_buffer_inheritance(1, 2);
    recorder.set_shader(Stage::Pixel, None);
    recorder.draw(3, 0);
    finish(recorder)
}

#[test]
fn r_b_10_the_callers_state_is_exactly_as_before() {
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let f = Fixture::with_immediate(semantics);
        let mut imm = caller(&f);
        imm.set_primitive_topology(PrimitiveTopology::TriangleList);
        imm.set_index_buffer(Some(f.ib), Format::R32Uint, 0);
        imm.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb2), vertex(f.vb)]);
        imm.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb2)]);
        imm.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb2), Some(f.cb2)]);
        imm.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv); 3]);
        imm.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
        imm.set_blend_state(Some(f.blend), [0.5; 4], 7);
        imm.set_viewports(&SCREEN);
        let before = state(&mut imm);
        let bundle = busy_bundle(&f);
        imm.draw_bundle(&bundle).expect("draw_bundle");
        imm.draw_bundle(&bundle).expect("draw_bundle");
        assert_eq!(state(&mut imm), before, "{semantics:?}");
        assert_eq!(imm.counters().draws, 4);
    }
}

#[test]
fn r_b_10_a_legacy_callers_reset_index_is_left_alone() {
    // A legacy immediate context derives the reset index from its index buffer; the bundle's
    // index buffer (fast semantics) does not change it, and the caller's comes back.
    let f = Fixture::with_immediate(Semantics::Legacy);
    let mut imm = caller(&f);
    imm.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
    let mut recorder = recorder(&f);
    recorder.set_index_buffer(Some(f.ib), Format::R32Uint, 0);
    recorder.draw_indexed(3, 0, 0);
    imm.draw_bundle(&finish(recorder)).expect("draw_bundle");
    imm.draw_indexed(3, 0, 0);
    assert_eq!(read(&mut imm, 0, "reset_index"), FieldValue::Uint(0xFFFF));
    assert_eq!(
        read(&mut imm, 0, "ib.format"),
        FieldValue::Format(Format::R32Uint)
    );
    assert_eq!(
        read(&mut imm, 1, "ib.format"),
        FieldValue::Format(Format::R16Uint)
    );
    assert_eq!(read(&mut imm, 1, "reset_index"), FieldValue::Uint(0xFFFF));
}

#[test]
fn r_b_10_mismatched_targets_are_refused_and_count_nothing() {
    let f = Fixture::new();
    let msaa = f
        .device
        .create_texture(&TextureDesc {
            name: "msaa",
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
            sample_count: 4,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .expect("msaa target");
    let msaa_rtv = f
        .device
        .create_render_target_view(&ViewDesc::new("msaa_rtv", msaa))
        .expect("msaa rtv");
    let mut recorder = recorder(&f);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    type Targets = ([Option<RenderTargetView>; 1], Option<DepthStencilView>);
    let bindings: [(&str, Targets); 4] = [
        ("nothing bound", ([None], None)),
        ("another format", ([Some(f.rt_plain_rtv)], Some(f.ds_dsv))),
        ("no depth", ([Some(f.rt_rtv)], None)),
        ("four samples", ([Some(msaa_rtv)], Some(f.ds_dsv))),
    ];
    let mut imm = ImmediateContext::new(&f.device).expect("immediate");
    for (case, (render_targets, depth)) in bindings {
        imm.set_render_targets(&render_targets, depth);
        let error = imm.draw_bundle(&bundle).expect_err(case);
        assert_eq!(error.kind(), ErrorKind::FormatMismatch, "{case}");
        assert!(
            error
                .to_string()
                .contains("render targets [r8g8b8a8_unorm], depth d32_float, 1 sample"),
            "{error}"
        );
    }
    let counters = *imm.counters();
    assert_eq!(
        (counters.draws, counters.bundle_calls, counters.ce_bytes),
        (0, 0, 0)
    );
    // The declared targets: accepted.
    imm.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    imm.draw_bundle(&bundle).expect("matching targets");
    assert_eq!(imm.counters().bundle_calls, 1);
}

#[test]
fn r_b_10_a_fast_list_checks_the_formats_when_it_executes() {
    let f = Fixture::new();
    let mut recorder = recorder(&f);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    let list = f.fast(|c| {
        c.draw_bundle(&bundle);
        c.draw(3, 0);
    });
    // Executed where nothing is bound: the bundle call is refused, the rest of the list runs.
    let mut imm = ImmediateContext::new(&f.device).expect("immediate");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("executes");
    let errors = imm.take_execution_errors();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind(), ErrorKind::FormatMismatch);
    assert_eq!(imm.counters().bundle_calls, 0);
    assert_eq!(imm.counters().draws, 1);
    // Executed where the declared targets are bound: it runs.
    targets(&f, &mut imm);
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("executes");
    assert!(imm.take_execution_errors().is_empty());
    assert_eq!(imm.counters().bundle_calls, 1);
    assert_eq!(imm.counters().draws, 3);
}

#[test]
fn r_b_10_under_deferred_timing_the_model_checks_the_formats() {
    let f = Fixture::new();
    let mut recorder = recorder(&f);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    let mut imm = ImmediateContext::new(&f.device).expect("immediate");
    imm.set_gpu_timing(GpuTiming::Deferred);
    imm.draw_bundle(&bundle).expect("submitted, checked later");
    let errors = imm.take_execution_errors();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind(), ErrorKind::FormatMismatch);
    assert_eq!(imm.counters().bundle_calls, 0);
}

#[test]
fn r_b_10_bundle_calls_from_lists_read_the_same_as_from_the_immediate_context() {
    let f = Fixture::new();
    let bundle = busy_bundle(&f);
    fn setup(f: &Fixture, c: &mut impl DeviceContext) {
        targets(f, c);
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb2)]);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv); 3]);
        c.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb), vertex(f.vb)]);
    }
    let mut direct = ImmediateContext::new(&f.device).expect("immediate");
    setup(&f, &mut direct);
    direct.draw_bundle(&bundle).expect("draw_bundle");
    direct.draw(3, 0);
    let expected: Vec<_> = direct.records().iter().map(|r| r.fields()).collect();
    drop(direct);
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let list = f.list(semantics, |c| {
            setup(&f, c);
            c.draw_bundle(&bundle);
            c.draw(3, 0);
        });
        let mut imm = ImmediateContext::new(&f.device).expect("immediate");
        imm.execute_command_list(&list, RestoreState::ClearState)
            .expect("executes");
        let found: Vec<_> = imm.records().iter().map(|r| r.fields()).collect();
        assert_eq!(found, expected, "{semantics:?} list");
        assert_eq!(imm.counters().bundle_calls, 1);
    }
}

#[test]
fn r_b_10_a_nested_list_calls_its_bundles() {
    let f = Fixture::new();
    let mut recorder = recorder(&f);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    let inner = f.fast(|c| c.draw_bundle(&bundle));
    let outer = f.fast(|c| {
        targets(&f, c);
        c.execute_command_list(&inner, RestoreState::ClearState);
        c.draw_bundle(&bundle);
    });
    drop(inner);
    let mut imm = ImmediateContext::new(&f.device).expect("immediate");
    imm.execute_command_list(&outer, RestoreState::ClearState)
        .expect("executes");
    assert_eq!(imm.counters().bundle_calls, 2);
    assert_eq!(read(&mut imm, 1, "vs.cb.0"), object(f.cb));
    drop(bundle);
}

#[test]
fn r_b_10_a_fast_list_does_not_keep_its_bundles_and_a_released_one_is_reported() {
    for validation in [false, true] {
        let f = if validation {
            Fixture::on(DeviceDesc {
                immediate_semantics: Semantics::Fast,
                validation: Validation::On,
                ..DeviceDesc::default()
            })
        } else {
            Fixture::with_immediate(Semantics::Fast)
        };
        let mut recorder = recorder(&f);
        recorder.draw(3, 0);
        let bundle = finish(recorder);
        let list = f.fast(|c| {
            targets(&f, c);
            c.draw_bundle(&bundle);
            c.draw(3, 0);
        });
        drop(bundle); // the application broke its promise (R-OBJ-4)
        let mut imm = ImmediateContext::new(&f.device).expect("immediate");
        let result = imm.execute_command_list(&list, RestoreState::ClearState);
        if validation {
            let error = result.expect_err("validation refuses the execution");
            assert_eq!(error.kind(), ErrorKind::ReleasedObject);
            assert!(error.to_string().contains("draw bundle"), "{error}");
            assert_eq!(imm.counters().draws, 0);
        } else {
            result.expect("runs");
            let errors = imm.take_execution_errors();
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert_eq!(errors[0].kind(), ErrorKind::ReleasedObject);
            let counters = imm.counters();
            assert_eq!(
                (counters.bundle_calls, counters.draws),
                (0, 1),
                "the call skipped"
            );
        }
    }
}

#[test]
fn r_v_1_a_legacy_list_keeps_the_bundle_it_calls_and_a_fast_list_may_not_call_a_released_one() {
    // A legacy list holds a reference on the bundle it calls, a fast one none (R-OBJ-4): with
    // the bundle released, the legacy list is valid; the fast list is refused even though the
    // legacy list still keeps the bundle alive (R-V-1: the application broke the fast rule).
    let f = Fixture::validated(Semantics::Fast);
    let mut recorder = recorder(&f);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    let legacy = f.legacy(|c| {
        targets(&f, c);
        c.draw_bundle(&bundle);
    });
    let fast = f.fast(|c| {
        targets(&f, c);
        c.draw_bundle(&bundle);
    });
    drop(bundle);
    let mut imm = ImmediateContext::new(&f.device).expect("immediate");
    imm.execute_command_list(&legacy, RestoreState::ClearState)
        .expect("the legacy list holds its bundle");
    assert_eq!(imm.counters().bundle_calls, 1);
    let error = imm
        .execute_command_list(&fast, RestoreState::ClearState)
        .expect_err("a fast list calls a released bundle");
    assert_eq!(error.kind(), ErrorKind::ReleasedObject);
    assert!(error.to_string().contains("draw bundle"), "{error}");
    assert_eq!(imm.counters().bundle_calls, 1, "refused: nothing ran");
}

#[test]
fn r_b_10_bundle_calls_and_constant_engine_bytes_are_counted() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    let mut recorder = recorder(&f);
    recorder.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv), Some(f.tex2_srv)]);
    recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    recorder.draw(3, 0);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    assert_eq!(bundle.footprint_bytes(), 144);
    for _ in 0..3 {
        imm.draw_bundle(&bundle).expect("draw_bundle");
    }
    let counters = *imm.counters();
    assert_eq!(counters.bundle_calls, 3);
    assert_eq!(counters.ce_bytes, 3 * 144);
    assert_eq!(counters.draws, 6);
    assert_eq!(counters.get("bundle_calls"), Some(3));
    assert_eq!(counters.get("ce_bytes"), Some(432));
}

#[test]
fn r_b_10_the_first_bundle_call_and_the_first_draw_after_roll_the_context() {
    let f = Fixture::new();
    let mut imm = caller(&f);
    let mut recorder = recorder(&f);
    recorder.draw(3, 0);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    let rolls = |imm: &mut ImmediateContext| imm.counters().context_rolls;
    imm.draw(3, 0); // the targets were set: a roll
    imm.draw(3, 0);
    assert_eq!(rolls(&mut imm), 1);
    imm.draw_bundle(&bundle).expect("draw_bundle"); // the first bundle call: a roll
    assert_eq!(rolls(&mut imm), 2, "the bundle's own draws do not roll");
    imm.draw_bundle(&bundle).expect("draw_bundle"); // right after another: none
    assert_eq!(rolls(&mut imm), 2);
    imm.draw(3, 0); // the first draw after: a roll
    imm.draw(3, 0);
    assert_eq!(rolls(&mut imm), 3);
    imm.draw_bundle(&bundle).expect("draw_bundle"); // first again
    imm.set_viewports(&SCREEN);
    imm.draw_bundle(&bundle).expect("draw_bundle"); // a register changed since: a roll
    assert_eq!(rolls(&mut imm), 5);
    imm.draw(3, 0);
    assert_eq!(rolls(&mut imm), 6);
    assert_eq!(imm.counters().draws, 5 + 4 * 2);
}

#[test]
fn r_b_10_a_bundle_of_another_device_is_refused() {
    let f = Fixture::new();
    let g = Fixture::new();
    let mut recorder = recorder(&g);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    let mut imm = caller(&f);
    let error = imm.draw_bundle(&bundle).expect_err("another device");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
}

// R-B-10: a bundle call through `DrawBundleExt` on the immediate context would put the call
// in a batch; `ImmediateContext` has no `Deref` to a recorder and implements no
// `DrawBundleExt`, so only `ImmediateContext::draw_bundle` can be written (the compile_fail
// doctest `r_b_10_the_immediate_recorder_refuses_a_bundle_call_recorded_through_it` in
// `executor/src/immediate/draw_bundle.rs`).

#[test]
fn r_b_10_every_gpu_timing_gives_the_same_records() {
    let f = Fixture::new();
    let bundle = busy_bundle(&f);
    let list = f.fast(|c| {
        c.draw_bundle(&bundle);
        c.draw(3, 0);
    });
    let records = |timing: GpuTiming| {
        let mut imm = caller(&f);
        imm.set_gpu_timing(timing);
        imm.draw_bundle(&bundle).expect("draw_bundle");
        imm.draw(3, 0);
        imm.execute_command_list(&list, RestoreState::ClearState)
            .expect("executes");
        let counters = *imm.counters();
        let fields: Vec<_> = imm.records().iter().map(|r| r.fields()).collect();
        assert!(imm.take_execution_errors().is_empty(), "{timing:?}");
        (fields, counters)
    };
    let inline = records(GpuTiming::Inline);
    assert_eq!(inline.1.bundle_calls, 2);
    for timing in [GpuTiming::Deferred, GpuTiming::Threaded] {
        assert_eq!(records(timing), inline, "{timing:?}");
    }
}

#[test]
fn r_b_10_validation_refuses_a_bundle_naming_a_released_object() {
    // A bundle holds no reference (fast semantics): releasing what it names destroys it, and
    // validation catches the call (R-OBJ-3, R-V-1); with the call in a fast list, the execution.
    let f = Fixture::validated(Semantics::Fast);
    let texture = f
        .device
        .create_texture(&TextureDesc {
            name: "doomed",
            bind: BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .expect("texture");
    let view = f
        .device
        .create_shader_resource_view(&ViewDesc::new("doomed_srv", texture))
        .expect("srv");
    let mut recorder = recorder(&f);
    recorder.set_shader_resources(Stage::Pixel, 0, &[Some(view)]);
    recorder.draw(3, 0);
    let bundle = finish(recorder);
    let list = f.fast(|c| c.draw_bundle(&bundle));
    let mut imm = caller(&f);
    imm.draw_bundle(&bundle).expect("alive");
    f.device.release(view);
    let error = imm.draw_bundle(&bundle).expect_err("released");
    assert_eq!(error.kind(), ErrorKind::ReleasedObject);
    assert!(error.to_string().contains("doomed_srv"), "{error}");
    let error = imm
        .execute_command_list(&list, RestoreState::ClearState)
        .expect_err("released");
    assert_eq!(error.kind(), ErrorKind::ReleasedObject);
    assert_eq!(imm.counters().bundle_calls, 1);
}
