//! Requirement tests for the GPU model: draw records (R-EX-3), context rolls (R-EX-4), the reset
//! index (R-ST-5), compression (R-ST-9), split-point resolution and its counters (R-SP-4, R-SP-5).
//! Every command stream is a real list recorded on a deferred context, fed to the model by hand
//! (`tests/common`) until the executor exists.

mod common;

use common::*;
use executor::{DrawArgs, DrawKind, FieldValue, GpuModel, DEFAULT_RESET_INDEX, R16_RESET_INDEX};
use recorder::command::InstanceId;
use recorder::*;

// ----- R-EX-3: draw records ----------------------------------------------------------------------

#[test]
fn r_ex_3_records_only_the_slots_the_shader_reads() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_input_layout(Some(f.layout)); // vertex-buffer slots 0 and 2
        c.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb2), vertex(f.vb2)]);
        c.set_shader(Stage::Pixel, Some(f.ps)); // cb 0-1, srv 0 and 2, sampler 0, uav 1
        let srvs = [
            Some(f.tex_srv),
            Some(f.tex2_srv),
            Some(f.sb_srv),
            Some(f.tex_srv),
        ];
        c.set_shader_resources(Stage::Pixel, 0, &srvs);
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb), None, Some(f.cb2)]);
        c.set_samplers(Stage::Pixel, 0, &[Some(f.sampler), Some(f.sampler)]);
        // Bound, but no hull shader reads it.
        c.set_constant_buffers(Stage::Hull, 0, &[Some(f.cb)]);
        c.draw(3, 0);
    });
    let gpu = gpu_after(&[&list]);
    let expect = |name: &str, value: Option<FieldValue>| {
        assert_eq!(field(&gpu, 0, name), value, "{name}");
    };
    expect("vb.0", Some(object(f.vb)));
    expect("vb.1", None);
    expect("vb.2", Some(object(f.vb2)));
    expect("ps", Some(object(f.ps)));
    expect("ps.srv.0", Some(object(f.tex_srv)));
    expect("ps.srv.1", None);
    expect("ps.srv.2", Some(object(f.sb_srv)));
    expect("ps.srv.3", None);
    expect("ps.cb.0", Some(object(f.cb)));
    expect("ps.cb.1", Some(FieldValue::Null)); // read but empty
    expect("ps.cb.2", None);
    expect("ps.sampler.0", Some(object(f.sampler)));
    expect("ps.sampler.1", None);
    expect("ps.uav.1", Some(FieldValue::Null));
    expect("hs", Some(FieldValue::Null));
    expect("hs.cb.0", None); // a stage with no shader contributes nothing
    expect("cs", None); // a draw has no compute stage
    let ps = record(&gpu, 0)
        .stage(Stage::Pixel)
        .expect("a draw records the pixel stage");
    let slots: Vec<u32> = ps.shader_resources.iter().map(|(slot, _)| *slot).collect();
    assert_eq!(slots, [0, 2]);
}

#[test]
fn r_ex_3_a_draw_record_answers_every_trace_field() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_shader_resource_view_min_lod(f.tex_srv, 2.5);
        c.set_input_layout(Some(f.layout));
        c.set_primitive_topology(PrimitiveTopology::TriangleStrip);
        c.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb), vertex(f.vb2)]);
        c.set_index_buffer(Some(f.ib), Format::R16Uint, 8);
        c.set_shader(Stage::Vertex, Some(f.vs));
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv)]);
        c.set_render_targets_and_unordered_access_views(
            &[Some(f.rt_rtv), None],
            Some(f.ds_dsv),
            2,
            &[],
        );
        c.set_render_targets_and_unordered_access_views(&[], None, 1, &[Some(f.sb_uav)]);
        c.set_render_targets(&[Some(f.rt_rtv), None], Some(f.ds_dsv)); // keeps the UAVs
        c.set_blend_state(Some(f.blend), [0.5; 4], 0xF);
        c.set_depth_stencil_state(Some(f.dss), 3);
        c.set_rasterizer_state(Some(f.raster));
        c.set_viewports(&SCREEN);
        c.set_scissor_rects(&RECT);
        c.set_predication(Some(f.predicate), PredicateValue::True);
        c.draw_indexed_instanced(6, 2, 1, -4, 3);
    });
    let gpu = gpu_after(&[&list]);
    let expect = |name: &str, value: &str| assert_eq!(shown(&gpu, 0, name), value, "{name}");
    // Unnamed objects print as their kind and index (`RawNames`: `shader0`, `buffer7`).
    let index = |kind: ObjectKind, handle: RawHandle| {
        format!("{}{}", kind.name().replace([' ', '-'], "_"), handle.index())
    };
    expect("vs", &index(ObjectKind::Shader, f.vs.raw()));
    expect(
        "input_layout",
        &index(ObjectKind::InputLayout, f.layout.raw()),
    );
    expect("topology", "triangle_strip");
    expect("reset_index", "4294967295");
    expect("ib", &index(ObjectKind::Buffer, f.ib.raw()));
    expect("ib.format", "r16_uint");
    expect("ib.offset", "8");
    expect("vb.2", &index(ObjectKind::Buffer, f.vb2.raw()));
    expect(
        "ps.srv.0",
        &index(ObjectKind::ShaderResourceView, f.tex_srv.raw()),
    );
    expect("ps.srv.0.min_lod", "2.5");
    expect("ps.srv.0.compressed", "no");
    expect(
        "ps.uav.1",
        &index(ObjectKind::UnorderedAccessView, f.sb_uav.raw()),
    );
    expect(
        "rtv.0",
        &index(ObjectKind::RenderTargetView, f.rt_rtv.raw()),
    );
    expect("rtv.0.format", "r8g8b8a8_unorm");
    expect("rtv.1", "null");
    expect("dsv", &index(ObjectKind::DepthStencilView, f.ds_dsv.raw()));
    expect("dsv.format", "d32_float");
    expect("blend", &index(ObjectKind::BlendState, f.blend.raw()));
    expect(
        "depth_stencil",
        &index(ObjectKind::DepthStencilState, f.dss.raw()),
    );
    expect(
        "rasterizer",
        &index(ObjectKind::RasterizerState, f.raster.raw()),
    );
    expect("viewport.0", "0,0,64,32");
    expect("viewport.1", "null");
    expect("scissor.0", "1,2,3,4");
    expect("predicated", "yes");
    expect("args", "6,2,1,-4,3");
    let draw = record(&gpu, 0);
    assert_eq!(draw.kind, DrawKind::DrawIndexedInstanced);
    let graphics = draw.graphics.as_ref().expect("a draw has graphics state");
    assert_eq!(graphics.blend.factor, [0.5; 4]);
    assert_eq!(graphics.blend.sample_mask, 0xF);
    assert_eq!(graphics.depth_stencil_state.stencil_ref, 3);
    // Every field the record lists answers by its name, with the same value.
    let fields = draw.fields();
    for (name, value) in &fields {
        assert_eq!(draw.field(name).as_ref(), Some(value), "{name}");
    }
    let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
    for name in [
        "hs",
        "ds",
        "gs",
        "vs.cb.0",
        "ps.sampler.0",
        "ps.cb.1",
        "blend",
        "args",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
}

#[test]
fn r_ex_3_a_dispatch_records_the_compute_stage_only() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_shader(Stage::Vertex, Some(f.vs));
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.set_shader(Stage::Compute, Some(f.cs)); // cb 0, srv 0, uav 0 and 2
        c.set_constant_buffers(Stage::Compute, 0, &[Some(f.cb2)]);
        c.set_shader_resources(Stage::Compute, 0, &[Some(f.sb_srv)]);
        c.set_compute_unordered_access_views(0, &[Some(f.sb_uav), Some(f.sb_uav), Some(f.rt_uav)]);
        c.dispatch(4, 2, 1);
    });
    let gpu = gpu_after(&[&list]);
    assert_eq!(record(&gpu, 0).kind, DrawKind::Dispatch);
    assert_eq!(field(&gpu, 0, "cs"), Some(object(f.cs)));
    assert_eq!(field(&gpu, 0, "cs.cb.0"), Some(object(f.cb2)));
    assert_eq!(field(&gpu, 0, "cs.srv.0"), Some(object(f.sb_srv)));
    assert_eq!(field(&gpu, 0, "cs.uav.0"), Some(object(f.sb_uav)));
    assert_eq!(field(&gpu, 0, "cs.uav.1"), None);
    assert_eq!(field(&gpu, 0, "cs.uav.2"), Some(object(f.rt_uav)));
    for graphics in ["vs", "rtv.0", "ib", "topology", "viewport.0", "blend"] {
        assert_eq!(field(&gpu, 0, graphics), None, "{graphics}");
    }
    assert_eq!(shown(&gpu, 0, "args"), "4,2,1");
    assert_eq!((gpu.counters().dispatches, gpu.counters().draws), (1, 0));
}

#[test]
fn r_ex_3_indirect_draws_record_their_argument_buffer() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.draw_instanced_indirect(f.args, 16);
        c.draw_indexed_instanced_indirect(f.args, 20);
        c.dispatch_indirect(f.args, 32);
        c.draw_auto();
    });
    let gpu = gpu_after(&[&list]);
    let kinds: Vec<DrawKind> = gpu.records().iter().map(|r| r.kind).collect();
    use DrawKind as K;
    let expected = [
        K::DrawInstancedIndirect,
        K::DrawIndexedInstancedIndirect,
        K::DispatchIndirect,
        K::DrawAuto,
    ];
    assert_eq!(kinds, expected);
    let DrawArgs::Indirect(args) = record(&gpu, 0).args else {
        panic!("an indirect draw records its argument buffer")
    };
    assert_eq!(
        (args.buffer, args.instance, args.offset),
        (f.args.raw(), InstanceId::INITIAL, 16)
    );
    let args_name = format!("buffer{}", f.args.raw().index());
    assert_eq!(shown(&gpu, 1, "args"), format!("{args_name},20"));
    assert_eq!(shown(&gpu, 2, "args"), format!("{args_name},32"));
    assert_eq!(shown(&gpu, 3, "args"), "");
    assert_eq!((gpu.counters().draws, gpu.counters().dispatches), (3, 1));
}

#[test]
fn r_ex_3_a_whole_om_uav_bind_unbinds_the_slots_it_does_not_name() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps_uavs)); // uav 1-2
        let uavs = [Some(f.sb_uav), Some(f.rt_uav)];
        c.set_render_targets_and_unordered_access_views(&[Some(f.rt_plain_rtv)], None, 1, &uavs);
        c.draw(3, 0);
        c.set_render_targets(&[Some(f.rt_rtv)], None); // keeps the UAVs
        c.draw(3, 0);
        c.set_render_targets_and_unordered_access_views(&[], None, 2, &[Some(f.sb_uav)]);
        c.draw(3, 0);
    });
    let gpu = gpu_after(&[&list]);
    assert_eq!(field(&gpu, 0, "ps.uav.1"), Some(object(f.sb_uav)));
    assert_eq!(field(&gpu, 0, "ps.uav.2"), Some(object(f.rt_uav)));
    assert_eq!(field(&gpu, 1, "rtv.0"), Some(object(f.rt_rtv)));
    assert_eq!(field(&gpu, 1, "ps.uav.2"), Some(object(f.rt_uav)));
    assert_eq!(
        field(&gpu, 2, "rtv.0"),
        Some(FieldValue::Null),
        "the call binds no target"
    );
    assert_eq!(
        field(&gpu, 2, "ps.uav.1"),
        Some(FieldValue::Null),
        "unbound"
    );
    assert_eq!(field(&gpu, 2, "ps.uav.2"), Some(object(f.sb_uav)));
}

#[test]
fn r_ex_3_a_single_slot_split_point_keeps_the_other_om_uavs() {
    let f = Fixture::new();
    let list = f.legacy(|c| {
        c.clear_render_target_view(f.rt_rtv, [0.0; 4]); // compresses rt
        c.set_shader(Stage::Pixel, Some(f.ps_uavs));
        // rt_uav is a compressible target's: its slot becomes a decompression split point.
        let uavs = [Some(f.sb_uav), Some(f.rt_uav)];
        c.set_render_targets_and_unordered_access_views(&[Some(f.rt_plain_rtv)], None, 1, &uavs);
        c.draw(3, 0);
    });
    let decompression = list.stats().split_points[SplitCategory::Decompression];
    assert_eq!(decompression, 1, "the recorder cut rt_uav out of the bind");
    for (name, mut gpu) in [("linear", GpuModel::new()), ("segments", GpuModel::new())] {
        if name == "linear" {
            run(&mut gpu, &list);
        } else {
            run_segments(&mut gpu, &list);
        }
        assert_eq!(field(&gpu, 0, "ps.uav.1"), Some(object(f.sb_uav)), "{name}");
        assert_eq!(field(&gpu, 0, "ps.uav.2"), Some(object(f.rt_uav)), "{name}");
    }
    let mut gpu = GpuModel::new();
    run_segments(&mut gpu, &list);
    assert_eq!(gpu.counters().decompressions, 1);
    assert!(!gpu.is_compressed(f.rt.raw()));
}

#[test]
fn r_ex_3_clear_state_resets_every_binding() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_input_layout(Some(f.layout));
        c.set_primitive_topology(PrimitiveTopology::LineList);
        c.set_index_buffer(Some(f.ib), Format::R32Uint, 0);
        c.set_primitive_reset_index(7);
        c.set_shader(Stage::Vertex, Some(f.vs));
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
        c.set_blend_state(Some(f.blend), [0.0; 4], 1);
        c.set_depth_stencil_state(Some(f.dss), 1);
        c.set_rasterizer_state(Some(f.raster));
        c.set_viewports(&SCREEN);
        c.set_scissor_rects(&RECT);
        c.set_predication(Some(f.predicate), PredicateValue::False);
        c.draw(3, 0);
        c.clear_state();
        c.draw(3, 0);
    });
    let gpu = gpu_after(&[&list]);
    assert_eq!(shown(&gpu, 0, "reset_index"), "7");
    let cleared = [
        ("vs", "null"),
        ("ps", "null"),
        ("input_layout", "null"),
        ("topology", "undefined"),
        ("ib", "null"),
        ("ib.format", "null"),
        ("reset_index", "4294967295"),
        ("rtv.0", "null"),
        ("dsv", "null"),
        ("blend", "null"),
        ("depth_stencil", "null"),
        ("rasterizer", "null"),
        ("viewport.0", "null"),
        ("scissor.0", "null"),
        ("predicated", "no"),
    ];
    for (name, value) in cleared {
        assert_eq!(shown(&gpu, 1, name), value, "{name}");
    }
    assert_eq!(
        field(&gpu, 1, "ps.srv.0"),
        None,
        "no pixel shader reads anything"
    );
    // The model's own ClearState (what the executor issues) is the same.
    let mut direct = gpu_after(&[&list]);
    direct.clear_state();
    direct.execute(
        &command::Command::Draw(command::DirectArgs::draw(3, 0)),
        Semantics::Fast,
    );
    let records = direct.records();
    assert_eq!(records[2].stages, records[1].stages);
    assert_eq!(records[2].graphics, records[1].graphics);
}

#[test]
fn r_ex_3_restore_puts_the_snapshot_back() {
    let f = Fixture::new();
    let state_a = f.fast(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv), None, Some(f.sb_srv)]);
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.set_viewports(&SCREEN);
        c.draw(3, 0);
    });
    let state_b = f.fast(|c| {
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex2_srv)]);
        c.set_render_targets(&[Some(f.rt_plain_rtv)], None);
        c.draw(3, 0);
    });
    let mut gpu = gpu_after(&[&state_a]);
    let snapshot = gpu.snapshot();
    run(&mut gpu, &state_b);
    assert_ne!(gpu.snapshot(), snapshot);
    gpu.restore(&snapshot);
    assert_eq!(gpu.snapshot(), snapshot);
    gpu.execute(
        &command::Command::Draw(command::DirectArgs::draw(3, 0)),
        Semantics::Fast,
    );
    assert_eq!(gpu.records()[2], gpu.records()[0]);
    assert_ne!(gpu.records()[1], gpu.records()[0]);
}

#[test]
fn r_ex_3_maps_change_no_bindings() {
    let f = Fixture::new();
    // Fast (R-ST-8): draws see the instance bound, until the buffer is bound again.
    let fast = f.fast(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        write_discard(c, f.cb_dyn);
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
        c.draw(3, 0);
        write_discard(c, f.cb_dyn);
        c.draw(3, 0);
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
        c.draw(3, 0);
    });
    let instances = map_instances(&fast);
    assert_eq!(instances.len(), 2);
    let gpu = gpu_after(&[&fast]);
    assert_eq!(field(&gpu, 0, "ps.cb.0"), Some(at(f.cb_dyn, instances[0])));
    assert_eq!(field(&gpu, 1, "ps.cb.0"), Some(at(f.cb_dyn, instances[0])));
    assert_eq!(field(&gpu, 2, "ps.cb.0"), Some(at(f.cb_dyn, instances[1])));
    // Legacy: the recorder re-binds the renamed buffer itself; the model just follows.
    let legacy = f.legacy(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        write_discard(c, f.cb_dyn);
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
        c.draw(3, 0);
        write_discard(c, f.cb_dyn);
        c.draw(3, 0);
    });
    let instances = map_instances(&legacy);
    let gpu = gpu_after(&[&legacy]);
    assert_eq!(field(&gpu, 0, "ps.cb.0"), Some(at(f.cb_dyn, instances[0])));
    assert_eq!(field(&gpu, 1, "ps.cb.0"), Some(at(f.cb_dyn, instances[1])));
}

#[test]
fn r_ex_3_nested_lists_are_left_to_the_executor() {
    let f = Fixture::new();
    let inner = f.fast(|c| c.draw(3, 0));
    let outer = f.fast(|c| {
        c.execute_command_list(&inner, RestoreState::ClearState);
        c.dispatch(1, 1, 1);
    });
    let gpu = gpu_after(&[&outer]);
    let kinds: Vec<DrawKind> = gpu.records().iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds,
        [DrawKind::Dispatch],
        "the nested draw is the executor's to expand"
    );
}

#[test]
fn r_ex_3_counters_answer_every_trace_key() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.insert_fence(Engine::Graphics);
        c.insert_wait_on_fence(Engine::Compute, 1);
        c.insert_wait_on_memory(f.args, 8, 1);
        c.draw(3, 0);
    });
    let gpu = gpu_after(&[&list]);
    let counters = gpu.counters();
    for key in executor::Counters::KEYS {
        assert!(counters.get(key).is_some(), "{key}");
    }
    assert_eq!(counters.get("fence_waits"), Some(2));
    assert_eq!(counters.get("draws"), Some(1));
    assert_eq!(counters.get("split_points_resolved.decompression"), Some(0));
    assert_eq!(counters.get("split_points_resolved.nonsense"), None);
    assert_eq!(counters.get("nonsense"), None);
}

// ----- R-EX-4: context rolls ---------------------------------------------------------------------

#[test]
fn r_ex_4_a_draw_after_a_render_target_change_rolls_the_context() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.draw(3, 0); // nothing changed yet
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.draw(3, 0); // rolls
        c.draw(3, 0);
        c.set_render_targets(&[Some(f.rt_plain_rtv)], None);
        c.dispatch(1, 1, 1); // rolls too
    });
    assert_eq!(gpu_after(&[&list]).counters().context_rolls, 2);
}

#[test]
fn r_ex_4_one_roll_per_draw_however_many_registers_changed() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
        c.set_blend_state(Some(f.blend), [1.0; 4], u32::MAX);
        c.set_depth_stencil_state(Some(f.dss), 0);
        c.set_rasterizer_state(Some(f.raster));
        c.set_viewports(&SCREEN);
        c.set_scissor_rects(&RECT);
        c.set_primitive_reset_index(5);
        c.draw(3, 0);
    });
    assert_eq!(gpu_after(&[&list]).counters().context_rolls, 1);
}

/// A call that writes one context register.
type Setter<'a> = dyn Fn(&mut DeferredContext) + 'a;

#[test]
fn r_ex_4_each_context_register_rolls() {
    let f = Fixture::new();
    let setters: [(&str, &Setter); 8] = [
        ("render targets", &|c| {
            c.set_render_targets(&[Some(f.rt_rtv)], None)
        }),
        ("depth", &|c| c.set_render_targets(&[], Some(f.ds_dsv))),
        ("blend", &|c| c.set_blend_state(None, [1.0; 4], 7)),
        ("depth-stencil", &|c| {
            c.set_depth_stencil_state(Some(f.dss), 0)
        }),
        ("rasterizer", &|c| c.set_rasterizer_state(Some(f.raster))),
        ("viewports", &|c| c.set_viewports(&SCREEN)),
        ("scissors", &|c| c.set_scissor_rects(&RECT)),
        ("reset index", &|c| c.set_primitive_reset_index(1)),
    ];
    for (register, set) in setters {
        let list = f.fast(|c| {
            c.draw(3, 0);
            set(c);
            c.draw(3, 0);
            c.draw(3, 0);
        });
        assert_eq!(
            gpu_after(&[&list]).counters().context_rolls,
            1,
            "{register}"
        );
    }
}

#[test]
fn r_ex_4_setting_a_register_to_its_value_still_rolls() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_rasterizer_state(Some(f.raster));
        c.draw(3, 0);
        c.set_rasterizer_state(Some(f.raster)); // D3D does not filter redundant sets
        c.draw(3, 0);
    });
    assert_eq!(gpu_after(&[&list]).counters().context_rolls, 2);
}

#[test]
fn r_ex_4_bindings_that_are_not_context_registers_do_not_roll() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_input_layout(Some(f.layout));
        c.set_primitive_topology(PrimitiveTopology::TriangleList);
        c.set_vertex_buffers(0, &[vertex(f.vb)]);
        c.set_index_buffer(Some(f.ib), Format::R16Uint, 0); // fast: no reset-index change
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv)]);
        c.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
        c.set_compute_unordered_access_views(0, &[Some(f.sb_uav)]);
        c.set_predication(Some(f.predicate), PredicateValue::True);
        c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
        c.draw(3, 0);
    });
    assert_eq!(gpu_after(&[&list]).counters().context_rolls, 0);
}

#[test]
fn r_ex_4_clear_state_and_restore_write_every_register() {
    let f = Fixture::new();
    let list = f.fast(|c| c.draw(3, 0));
    let mut gpu = GpuModel::new();
    run(&mut gpu, &list);
    let snapshot = gpu.snapshot();
    gpu.clear_state();
    run(&mut gpu, &list);
    gpu.restore(&snapshot);
    run(&mut gpu, &list);
    run(&mut gpu, &list);
    assert_eq!(gpu.counters().context_rolls, 2);
}

// ----- R-ST-5: the primitive reset index ---------------------------------------------------------

#[test]
fn r_st_5_legacy_index_format_change_sets_the_reset_index() {
    let f = Fixture::new();
    let list = f.legacy(|c| {
        c.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
        c.draw_indexed(3, 0, 0); // 0xFFFF, rolls
        c.set_index_buffer(Some(f.ib), Format::R16Uint, 64);
        c.draw_indexed(3, 0, 0); // same format: no change
        c.set_index_buffer(Some(f.ib), Format::R32Uint, 0);
        c.draw_indexed(3, 0, 0); // 0xFFFFFFFF, rolls
    });
    let gpu = gpu_after(&[&list]);
    let reset: Vec<String> = (0..3).map(|i| shown(&gpu, i, "reset_index")).collect();
    assert_eq!(reset, ["65535", "65535", "4294967295"]);
    assert_eq!(shown(&gpu, 1, "ib.offset"), "64");
    assert_eq!(gpu.counters().context_rolls, 2);
}

#[test]
fn r_st_5_fast_reset_index_ignores_the_index_buffer() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
        c.draw_indexed(3, 0, 0); // 0xFFFFFFFF for every format
        c.set_primitive_reset_index(7);
        c.draw_indexed(3, 0, 0);
        c.set_index_buffer(Some(f.ib), Format::R32Uint, 0);
        c.draw_indexed(3, 0, 0); // still 7
    });
    let gpu = gpu_after(&[&list]);
    let reset: Vec<String> = (0..3).map(|i| shown(&gpu, i, "reset_index")).collect();
    assert_eq!(reset, ["4294967295", "7", "7"]);
    assert_eq!(shown(&gpu, 2, "ib.format"), "r32_uint");
    assert_eq!(gpu.counters().context_rolls, 1, "only the explicit set");
}

#[test]
fn r_st_5_clear_state_restores_the_default_and_forgets_the_format() {
    let f = Fixture::new();
    let bind_r16 = f.legacy(|c| {
        c.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
        c.draw_indexed(3, 0, 0);
    });
    let mut gpu = gpu_after(&[&bind_r16]);
    assert_eq!(gpu.state().reset_index(), R16_RESET_INDEX);
    gpu.clear_state();
    assert_eq!(gpu.state().reset_index(), DEFAULT_RESET_INDEX);
    run(&mut gpu, &bind_r16); // r16 again, after ClearState: derived again
    assert_eq!(shown(&gpu, 1, "reset_index"), "65535");
    // An explicit reset index does not survive the next legacy bind, whatever its format.
    let override_then_bind = f.legacy(|c| {
        c.set_primitive_reset_index(9);
        c.draw_indexed(3, 0, 0);
        c.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
        c.draw_indexed(3, 0, 0);
    });
    run(&mut gpu, &override_then_bind);
    assert_eq!(shown(&gpu, 2, "reset_index"), "9");
    assert_eq!(shown(&gpu, 3, "reset_index"), "65535");
}

// ----- R-ST-9: compression -----------------------------------------------------------------------

#[test]
fn r_st_9_full_clear_compresses_and_decompress_resource_decompresses() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps)); // srv 0 and 2
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv), None, Some(f.ds_srv)]);
        c.draw(3, 0);
        c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
        c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0);
        c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
        c.draw(3, 0); // drawing keeps them compressed
        c.draw(3, 0);
        c.decompress_resource(f.rt, None);
        c.decompress_resource(f.ds, None);
        c.decompress_resource(f.ds, None); // already decompressed: nothing done
        c.draw(3, 0);
    });
    let gpu = gpu_after(&[&list]);
    let compressed = |i| {
        (
            shown(&gpu, i, "ps.srv.0.compressed"),
            shown(&gpu, i, "ps.srv.2.compressed"),
        )
    };
    assert_eq!(compressed(0), ("no".into(), "no".into()));
    assert_eq!(compressed(1), ("yes".into(), "yes".into()));
    assert_eq!(compressed(2), ("yes".into(), "yes".into()));
    assert_eq!(compressed(3), ("no".into(), "no".into()));
    assert_eq!(gpu.counters().decompressions, 2);
}

#[test]
fn r_st_9_decompress_into_leaves_the_source_compressed() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_resource_compression(f.rt_plain, Compression::Compressed);
        c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
        c.decompress_resource(f.rt, Some(f.rt_plain));
    });
    let gpu = gpu_after(&[&list]);
    assert!(gpu.is_compressed(f.rt.raw()));
    assert!(!gpu.is_compressed(f.rt_plain.raw()));
    assert_eq!(gpu.counters().decompressions, 1);
}

#[test]
fn r_st_9_set_resource_compression_overrides_and_plain_targets_stay_uncompressed() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(
            Stage::Pixel,
            0,
            &[Some(f.rt_plain_srv), None, Some(f.tex_srv)],
        );
        c.clear_render_target_view(f.rt_plain_rtv, [0.0; 4]); // not compressible
        c.draw(3, 0);
        c.set_resource_compression(f.rt_plain, Compression::Compressed);
        c.draw(3, 0);
        c.set_resource_compression(f.rt_plain, Compression::Decompressed);
        c.draw(3, 0);
    });
    let gpu = gpu_after(&[&list]);
    let compressed: Vec<String> = (0..3)
        .map(|i| shown(&gpu, i, "ps.srv.0.compressed"))
        .collect();
    assert_eq!(compressed, ["no", "yes", "no"]);
    assert_eq!(shown(&gpu, 1, "ps.srv.2.compressed"), "no");
    assert_eq!(
        gpu.counters().decompressions,
        0,
        "an override is not a decompression"
    );
}

// ----- R-SP-4: resolving split points ------------------------------------------------------------

#[test]
fn r_sp_4_split_point_inside_predication_rolls_the_context() {
    let f = Fixture::new();
    let clear_twice = |predicated: bool| {
        f.legacy(|c| {
            if predicated {
                c.set_predication(Some(f.predicate), PredicateValue::True);
            }
            c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
            c.set_depth_stencil_state(Some(f.dss), 0);
            c.set_predication(None, PredicateValue::False);
            c.clear_render_target_view(f.rt_rtv, [0.0; 4]); // outside the scope
        })
    };
    for (predicated, rolls) in [(false, 0), (true, 2)] {
        let list = clear_twice(predicated);
        let mut gpu = GpuModel::new();
        run_segments(&mut gpu, &list);
        let counters = gpu.counters();
        assert_eq!(counters.split_points_resolved.total(), 3);
        assert_eq!(counters.context_rolls, rolls, "predicated: {predicated}");
    }
}

#[test]
fn r_sp_4_each_command_segment_is_one_indirect_buffer_execution() {
    let f = Fixture::new();
    let list = f.legacy(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb), Some(f.cb_dyn)]); // dynamic split
        c.draw(3, 0);
        c.set_render_targets(&[Some(f.rt_rtv)], None); // split
        c.draw(3, 0);
        c.set_shader_resources(
            Stage::Pixel,
            0,
            &[Some(f.rt_plain_srv), None, Some(f.rt_srv)],
        );
        c.draw(3, 0);
    });
    let segments: Vec<_> = list.segments().collect();
    let command_segments = segments
        .iter()
        .filter(|s| matches!(s, Segment::Commands(_)))
        .count();
    assert!(
        command_segments >= 3,
        "the list is cut: {command_segments} segments"
    );
    let mut by_segments = GpuModel::new();
    run_segments(&mut by_segments, &list);
    let counters = by_segments.counters();
    assert_eq!(counters.ib_executions, command_segments as u64);
    assert_eq!(counters.split_points_resolved, list.stats().split_points);
    assert_eq!(
        counters.split_points_resolved[SplitCategory::DynamicConstantBuffer],
        1
    );
    // Cutting the list changes nothing a draw sees.
    let linear = gpu_after(&[&list]);
    assert_eq!(by_segments.records(), linear.records());
    assert_eq!(linear.counters().ib_executions, 0);
}

#[test]
fn r_sp_4_a_decompression_split_point_decompresses_what_is_compressed_now() {
    let f = Fixture::new();
    let clear = f.legacy(|c| c.clear_render_target_view(f.rt_rtv, [0.0; 4]));
    let read = f.legacy(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
        c.draw(3, 0);
    });
    let mut gpu = GpuModel::new();
    run_segments(&mut gpu, &clear);
    assert!(gpu.is_compressed(f.rt.raw()));
    run_segments(&mut gpu, &read);
    assert_eq!(shown(&gpu, 0, "ps.srv.0.compressed"), "no");
    assert_eq!(gpu.counters().decompressions, 1);
    run_segments(&mut gpu, &read); // nothing compressed any more
    assert_eq!(gpu.counters().decompressions, 1);
    assert_eq!(
        gpu.counters().split_points_resolved[SplitCategory::Decompression],
        2
    );
    assert!(!gpu.decompress_if_compressed(f.rt.raw()));
    run_segments(&mut gpu, &clear);
    assert!(gpu.decompress_if_compressed(f.rt.raw()));
    assert_eq!(gpu.counters().decompressions, 2);
}

#[test]
fn r_ex_3_take_records_hands_them_over_and_counters_keep_counting() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.draw(3, 0);
        c.dispatch(1, 1, 1);
    });
    let mut gpu = gpu_after(&[&list]);
    let taken = gpu.take_records();
    assert_eq!(taken.len(), 2);
    assert!(gpu.records().is_empty());
    run(&mut gpu, &list);
    assert_eq!(gpu.records().len(), 2);
    assert_eq!((gpu.counters().draws, gpu.counters().dispatches), (2, 2));
}
