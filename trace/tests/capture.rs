//! Capture (SPEC §13): frames made through the capture's wrappers, written as traces and
//! replayed; the replay's digest must be the live frame's (R-CAP-6). Each test is one rule of
//! R-CAP-2..5 on a small hand-made application; `capture_roundtrip.rs` is the random property.

use executor::prelude::BundleDesc;
use recorder::*;
use trace::capture::{
    CaptureDevice, CaptureOptions, CapturedDeferred, CapturedFrame, CapturedImmediate, FrameOutcome,
};
use trace::{replay, ReplayOptions};

#[path = "common/modes.rs"]
mod modes;
use modes::assert_round_trip;

fn captured(outcome: &FrameOutcome) -> &CapturedFrame {
    match outcome {
        FrameOutcome::Captured(frame) => frame,
        FrameOutcome::Failed { reason, .. } => panic!("frame failed: {reason}"),
    }
}

/// A device, a dynamic constant buffer, a vertex shader reading it, a swap chain.
struct App {
    device: CaptureDevice,
    cb: Buffer,
    vs: Shader,
    chain: SwapChain,
    imm: CapturedImmediate,
}

impl App {
    fn new(semantics: Semantics, options: CaptureOptions) -> Self {
        let device = CaptureDevice::new(
            Device::new(DeviceDesc {
                immediate_semantics: semantics,
                ..Default::default()
            }),
            options,
        );
        let cb = device
            .create_buffer(&BufferDesc {
                name: "per draw",
                size: 256,
                usage: Usage::Dynamic,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            })
            .unwrap();
        let vs = device
            .create_shader(&ShaderDesc {
                constant_buffers: Slots::first(1),
                ..ShaderDesc::new("vs", Stage::Vertex)
            })
            .unwrap();
        let chain = device
            .create_swap_chain(&SwapChainDesc {
                name: "main",
                buffers: 2,
                format: Format::R8G8B8A8Unorm,
                width: 64,
                height: 64,
            })
            .unwrap();
        let imm = CapturedImmediate::new(&device).unwrap();
        Self {
            device,
            cb,
            vs,
            chain,
            imm,
        }
    }

    fn context(&self, name: &str, semantics: Semantics) -> CapturedDeferred {
        self.device
            .create_deferred_context(&DeferredContextDesc {
                name,
                semantics,
                ..Default::default()
            })
            .unwrap()
    }

    /// One list on `worker`: the shader, a write_discard map writing `value`, a draw.
    fn list(&self, worker: &mut CapturedDeferred, value: u32) -> CommandList {
        worker.set_shader(Stage::Vertex, Some(self.vs));
        if let Ok(mut data) = worker.map(self.cb, MapType::WriteDiscard, MapFlags::None) {
            data[..4].copy_from_slice(&value.to_le_bytes());
        }
        worker.set_constant_buffers(Stage::Vertex, 0, &[Some(self.cb)]);
        worker.draw(3, value);
        worker
            .finish_command_list(RestoreState::ClearState)
            .unwrap()
    }

    fn outcomes(&self) -> Vec<FrameOutcome> {
        self.device.capture().take_outcomes()
    }
}

#[test]
fn r_cap_2_triggered_frame_is_the_next_present_to_the_following_one() {
    let mut app = App::new(Semantics::Legacy, CaptureOptions::default());
    let mut worker = app.context("worker", Semantics::Legacy);
    app.device.capture().trigger();
    for frame in 0..3u32 {
        let list = app.list(&mut worker, frame + 1);
        app.imm
            .execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        app.imm.set_shader(Stage::Vertex, Some(app.vs));
        app.imm
            .set_constant_buffers(Stage::Vertex, 0, &[Some(app.cb)]);
        app.imm.draw(6, 0);
        app.imm.present(app.chain).unwrap();
    }
    let outcomes = app.outcomes();
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    let frame = captured(&outcomes[0]);
    assert_eq!((frame.frame, frame.records), (1, 2));
    // The frame's list (draw 3 2) and not frame 0's or frame 2's; its map's bytes; the present
    // that ends the frame.
    assert!(frame.trace.contains("worker draw 3 2\n"), "{}", frame.trace);
    assert!(!frame.trace.contains("draw 3 1\n") && !frame.trace.contains("draw 3 3\n"));
    assert!(
        frame.trace.contains("worker write per_draw 0 02\n"),
        "{}",
        frame.trace
    );
    assert!(frame.trace.trim_end().ends_with("imm present main"));
    assert_round_trip(frame);
}

#[test]
fn r_cap_2_trigger_at_frame_n_and_begin_end_anywhere() {
    let mut app = App::new(Semantics::Fast, CaptureOptions::default());
    let mut worker = app.context("worker", Semantics::Fast);
    app.device.capture().trigger_at(2);
    for frame in 0..4u32 {
        if frame == 3 {
            app.imm.begin_capture();
        }
        let list = app.list(&mut worker, frame + 1);
        app.imm
            .execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        if frame == 3 {
            let outcome = app.imm.end_capture().expect("a capture was open");
            let frame = captured(&outcome);
            assert_eq!((frame.frame, frame.records), (3, 1));
            assert_round_trip(frame);
        }
        app.imm.present(app.chain).unwrap();
    }
    let outcomes = app.outcomes();
    assert_eq!(outcomes.len(), 2, "{outcomes:?}");
    let frame = captured(&outcomes[0]);
    assert_eq!(frame.frame, 2);
    assert!(frame.trace.contains("worker draw 3 3\n"), "{}", frame.trace);
    assert_round_trip(frame);
}

#[test]
fn r_cap_3_declares_only_what_the_frame_uses_or_every_live_object() {
    for all_objects in [false, true] {
        let mut app = App::new(
            Semantics::Legacy,
            CaptureOptions {
                all_objects,
                ..Default::default()
            },
        );
        let unused = app
            .device
            .create_buffer(&BufferDesc {
                name: "unused",
                size: 64,
                bind: BindFlags::VERTEX,
                ..Default::default()
            })
            .unwrap();
        let texture = app
            .device
            .create_texture(&TextureDesc {
                name: "albedo",
                format: Format::R8G8B8A8Unorm,
                width: 16,
                height: 16,
                bind: BindFlags::SHADER_RESOURCE,
                ..Default::default()
            })
            .unwrap();
        // A view made on the bare device: declared all the same, after its texture.
        let view = app
            .device
            .device()
            .create_shader_resource_view(&ViewDesc::new("albedo srv", texture))
            .unwrap();
        let ps = app
            .device
            .create_shader(&ShaderDesc {
                shader_resources: Slots::first(1),
                ..ShaderDesc::new("ps", Stage::Pixel)
            })
            .unwrap();
        app.imm.begin_capture();
        app.imm.set_shader(Stage::Pixel, Some(ps));
        app.imm.set_shader_resources(Stage::Pixel, 0, &[Some(view)]);
        app.imm.draw(3, 0);
        let frame = captured(&app.imm.end_capture().unwrap()).clone();
        let lines: Vec<&str> = frame.trace.lines().collect();
        let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix));
        assert!(at("texture albedo ").unwrap() < at("srv albedo_srv albedo").unwrap());
        assert_eq!(
            at("buffer unused ").is_some(),
            all_objects,
            "{}",
            frame.trace
        );
        assert_eq!(at("buffer per_draw ").is_some(), all_objects);
        assert_round_trip(&frame);
        let _ = unused;
    }
}

#[test]
fn r_cap_3_immediate_state_at_frame_start_is_written_as_calls() {
    let mut app = App::new(Semantics::Legacy, CaptureOptions::default());
    // Bound before the frame, read by the frame's draw.
    app.imm.set_shader(Stage::Vertex, Some(app.vs));
    app.imm
        .set_constant_buffers(Stage::Vertex, 0, &[Some(app.cb)]);
    if let Ok(mut data) = app.imm.map(app.cb, MapType::WriteDiscard, MapFlags::None) {
        data[0] = 9;
    }
    app.imm.present(app.chain).unwrap(); // the swap chain is now on buffer 1
    app.imm.begin_capture();
    app.imm.draw(3, 0);
    let frame = captured(&app.imm.end_capture().unwrap()).clone();
    for line in [
        "imm present main\n",
        "imm vs_set_shader vs\n",
        "imm vs_set_constant_buffers 0 per_draw\n",
        "imm map per_draw write_discard\n",
    ] {
        assert!(frame.trace.contains(line), "{line} in\n{}", frame.trace);
    }
    assert_round_trip(&frame);
}

#[test]
fn r_cap_4_maps_write_the_changed_range_per_context_and_read_maps_nothing() {
    let mut app = App::new(Semantics::Legacy, CaptureOptions::default());
    let staging = app
        .device
        .create_buffer(&BufferDesc {
            name: "readback",
            size: 64,
            usage: Usage::Staging,
            ..Default::default()
        })
        .unwrap();
    let mut a = app.context("a", Semantics::Legacy);
    let mut b = app.context("b", Semantics::Legacy);
    app.imm.present(app.chain).unwrap();
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    // The same buffer mapped on both contexts at once: each writes its own bytes.
    let bytes_a = a
        .map(app.cb, MapType::WriteDiscard, MapFlags::None)
        .unwrap()
        .keep_mapped();
    bytes_a[16..20].copy_from_slice(&[1, 2, 3, 4]);
    let bytes_b = b
        .map(app.cb, MapType::WriteDiscard, MapFlags::None)
        .unwrap()
        .keep_mapped();
    bytes_b[100] = 0xee;
    a.unmap(app.cb);
    b.unmap(app.cb);
    for worker in [&mut a, &mut b] {
        worker.set_shader(Stage::Vertex, Some(app.vs));
        worker.set_constant_buffers(Stage::Vertex, 0, &[Some(app.cb)]);
        worker.draw(3, 0);
    }
    let list_a = a.finish_command_list(RestoreState::ClearState).unwrap();
    let list_b = b.finish_command_list(RestoreState::ClearState).unwrap();
    app.imm
        .execute_command_list(&list_a, RestoreState::ClearState)
        .unwrap();
    app.imm
        .execute_command_list(&list_b, RestoreState::ClearState)
        .unwrap();
    // A read map: its bytes are not captured.
    let _ = app
        .imm
        .map(staging, MapType::Read, MapFlags::None)
        .map(|m| m[0]);
    app.imm.present(app.chain).unwrap();
    let outcomes = app.outcomes();
    let frame = captured(&outcomes[0]);
    assert!(
        frame.trace.contains("a write per_draw 16 01020304\n"),
        "{}",
        frame.trace
    );
    assert!(
        frame.trace.contains("b write per_draw 100 ee\n"),
        "{}",
        frame.trace
    );
    assert!(
        frame.trace.contains("imm map readback read\n"),
        "{}",
        frame.trace
    );
    assert!(!frame.trace.contains("imm write"), "{}", frame.trace);
    assert_round_trip(frame);
}

#[test]
fn r_cap_5_a_list_recorded_before_the_capture_fails_the_frame_and_the_next_one_captures() {
    for keep_all_lists in [false, true] {
        let mut app = App::new(
            Semantics::Fast,
            CaptureOptions {
                keep_all_lists,
                ..Default::default()
            },
        );
        let mut worker = app.context("late", Semantics::Fast);
        app.device.capture().trigger();
        // Recorded in frame 0, executed in frame 1 (a list made across a frame boundary).
        let mut carried_over = app.list(&mut worker, 1);
        app.imm.present(app.chain).unwrap();
        for frame in 1..3u32 {
            app.imm
                .execute_command_list(&carried_over, RestoreState::ClearState)
                .unwrap();
            carried_over = app.list(&mut worker, frame + 1);
            app.imm.present(app.chain).unwrap();
        }
        let outcomes = app.outcomes();
        if keep_all_lists {
            assert_eq!(outcomes.len(), 1, "{outcomes:?}");
            let frame = captured(&outcomes[0]);
            assert_eq!(frame.frame, 1);
            assert_round_trip(frame);
        } else {
            assert_eq!(outcomes.len(), 2, "{outcomes:?}");
            let FrameOutcome::Failed { frame, reason } = &outcomes[0] else {
                panic!("{outcomes:?}")
            };
            assert_eq!(*frame, 1);
            assert!(
                reason.contains("recorded before the capture began"),
                "{reason}"
            );
            let frame = captured(&outcomes[1]);
            assert_eq!(frame.frame, 2);
            assert_round_trip(frame);
        }
    }
}

#[test]
fn r_cap_5_nested_lists_bundles_and_carried_state_round_trip() {
    let mut app = App::new(Semantics::Legacy, CaptureOptions::default());
    let mut bundles = app
        .device
        .create_bundle_recorder(&BundleDesc::new("object", &[Format::R8G8B8A8Unorm]))
        .unwrap();
    for stage in [Stage::Hull, Stage::Domain, Stage::Geometry, Stage::Pixel] {
        bundles.set_shader(stage, None);
    }
    bundles.set_input_layout(None);
    bundles.set_shader(Stage::Vertex, Some(app.vs));
    bundles.set_primitive_topology(PrimitiveTopology::TriangleList);
    bundles.draw(3, 7);
    let bundle = bundles.finish().unwrap();
    let mut inner = app.context("inner", Semantics::Legacy);
    let mut outer = app.context("outer", Semantics::Legacy);
    let mut fast = app.context("fast", Semantics::Fast);
    app.imm.present(app.chain).unwrap();
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    // A list whose state carries into the next one (restore), the next one nesting it.
    inner.set_shader(Stage::Vertex, Some(app.vs));
    inner.set_constant_buffers(Stage::Vertex, 0, &[Some(app.cb)]);
    inner.draw(3, 1);
    let first = inner.finish_command_list(RestoreState::Restore).unwrap();
    inner.draw(3, 2); // the carried shader and buffer
    let second = inner.finish_command_list(RestoreState::ClearState).unwrap();
    outer.execute_command_list(&first, RestoreState::ClearState);
    outer.draw(3, 3);
    let nesting = outer.finish_command_list(RestoreState::ClearState).unwrap();
    let back_buffer = app
        .device
        .device()
        .swap_chain_info(app.chain)
        .unwrap()
        .buffers[0]
        .1;
    fast.set_render_targets(&[Some(back_buffer)], None);
    fast.draw_bundle(&bundle);
    let calling = fast.finish_command_list(RestoreState::ClearState).unwrap();
    for list in [&second, &nesting, &calling] {
        app.imm
            .execute_command_list(list, RestoreState::ClearState)
            .unwrap();
    }
    app.imm.set_render_targets(&[Some(back_buffer)], None);
    app.imm.draw_bundle(&bundle).unwrap();
    app.device.release(app.cb); // during the frame: written where it happened
    app.imm.present(app.chain).unwrap();
    let outcomes = app.outcomes();
    let frame = captured(&outcomes[0]);
    assert_eq!(frame.records, 5, "{}", frame.trace);
    // The second list of `inner` follows the first in the trace: the restore carries its state.
    assert!(
        !frame.trace.contains("inner clear_state"),
        "{}",
        frame.trace
    );
    assert!(frame.trace.contains("object finish\n"), "{}", frame.trace);
    assert!(
        frame.trace.contains("release per_draw\n"),
        "{}",
        frame.trace
    );
    assert_round_trip(frame);
}

/// A texture barrier of the whole texture.
fn texture_barrier(
    texture: Texture,
    sync: (BarrierSync, BarrierSync),
    access: (BarrierAccess, BarrierAccess),
    layout: (BarrierLayout, BarrierLayout),
) -> TextureBarrier {
    TextureBarrier {
        sync_before: sync.0,
        sync_after: sync.1,
        access_before: access.0,
        access_after: access.1,
        layout_before: layout.0,
        layout_after: layout.1,
        resource: texture.into(),
        subresources: BarrierSubresources::ALL,
        discard: false,
    }
}

#[test]
fn r_cap_3_texture_layouts_at_frame_start_are_written_as_barriers() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
            validation: Validation::On,
            ..Default::default()
        }),
        CaptureOptions::default(),
    );
    let target = device
        .create_texture(&TextureDesc {
            name: "shadow",
            format: Format::R8G8B8A8Unorm,
            width: 32,
            height: 32,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let rtv = device
        .create_render_target_view(&ViewDesc::new("shadow rtv", target))
        .unwrap();
    let srv = device
        .create_shader_resource_view(&ViewDesc::new("shadow srv", target))
        .unwrap();
    let ps = device
        .create_shader(&ShaderDesc {
            shader_resources: Slots::first(1),
            ..ShaderDesc::new("ps", Stage::Pixel)
        })
        .unwrap();
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "main",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 32,
            height: 32,
        })
        .unwrap();
    let mut imm = CapturedImmediate::new(&device).unwrap();
    let to_target = texture_barrier(
        target,
        (BarrierSync::PIXEL_SHADING, BarrierSync::RENDER_TARGET),
        (BarrierAccess::SHADER_RESOURCE, BarrierAccess::RENDER_TARGET),
        (BarrierLayout::ShaderResource, BarrierLayout::RenderTarget),
    );
    let to_read = texture_barrier(
        target,
        (BarrierSync::RENDER_TARGET, BarrierSync::PIXEL_SHADING),
        (BarrierAccess::RENDER_TARGET, BarrierAccess::SHADER_RESOURCE),
        (BarrierLayout::RenderTarget, BarrierLayout::ShaderResource),
    );
    // Before the frame: the texture goes to shader_resource, where the frame finds it.
    imm.barrier(&[BarrierGroup::Texture(&[texture_barrier(
        target,
        (BarrierSync::NONE, BarrierSync::RENDER_TARGET),
        (BarrierAccess::NO_ACCESS, BarrierAccess::RENDER_TARGET),
        (BarrierLayout::Common, BarrierLayout::RenderTarget),
    )])]);
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.barrier(&[BarrierGroup::Texture(&[to_read])]);
    device.capture().trigger();
    imm.present(chain).unwrap();
    for _ in 0..2 {
        imm.barrier(&[BarrierGroup::Texture(&[to_target])]);
        imm.set_render_targets(&[Some(rtv)], None);
        imm.clear_render_target_view(rtv, [1.0; 4]);
        imm.draw(3, 0);
        imm.set_render_targets(&[], None);
        imm.barrier(&[BarrierGroup::Texture(&[to_read])]);
        imm.set_shader(Stage::Pixel, Some(ps));
        imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
        imm.draw(3, 0);
        imm.present(chain).unwrap();
    }
    let outcomes = device.capture().take_outcomes();
    let frame = captured(&outcomes[0]);
    assert!(
        frame.trace.contains("layout=common:shader_resource"),
        "{}",
        frame.trace
    );
    assert_round_trip(frame);
}

#[test]
fn r_cap_6_empty_target_and_viewport_lists_are_written_and_replayed() {
    // What a capture writes for `OMSetRenderTargets(0, ...)` and `RSSetViewports(0, ...)`: `-`,
    // not `null` (one null slot).
    let text = "device semantics=legacy\n\
                texture t format=r8g8b8a8_unorm width=4 height=4 bind=render_target\n\
                rtv t_rtv t\n\
                imm om_set_render_targets t_rtv null\n\
                imm rs_set_viewports 0,0,4,4\n\
                imm draw 3 0\n\
                imm om_set_render_targets - null\n\
                imm rs_set_viewports -\n\
                imm rs_set_scissor_rects -\n\
                imm draw 3 0\n\
                imm om_set_render_targets null null\n\
                imm draw 3 0\n\
                expect draw 0 rtv.0 t_rtv\n\
                expect draw 2 rtv.0 null\n";
    let parsed = trace::parse(text.as_bytes()).unwrap();
    let printed = parsed.to_string();
    assert!(
        printed.contains("imm om_set_render_targets - null\n"),
        "{printed}"
    );
    assert!(printed.contains("imm rs_set_viewports -\n"), "{printed}");
    assert_eq!(
        trace::parse(printed.as_bytes()).unwrap().to_string(),
        printed
    );
    let run = replay(
        text.as_bytes(),
        &ReplayOptions {
            records: true,
            ..Default::default()
        },
    );
    assert_eq!(run.exit_code, 0, "{}{}", run.stdout, run.stderr);
    let second = run.stdout.lines().nth(1).unwrap_or_default();
    assert!(
        !second.contains("rtv.0") && !second.contains("viewport.0"),
        "{second}"
    );
}

#[test]
fn r_cap_3_a_dynamic_buffer_made_on_the_bare_device_keeps_its_instance_and_views_name_it() {
    let mut app = App::new(Semantics::Legacy, CaptureOptions::default());
    let bare = app.device.device().clone();
    let structured = bare
        .create_buffer(&BufferDesc {
            name: "particles",
            size: 256,
            usage: Usage::Dynamic,
            bind: BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let view = bare
        .create_shader_resource_view(&ViewDesc::new("particles srv", structured))
        .unwrap();
    let vs = app
        .device
        .create_shader(&ShaderDesc {
            shader_resources: Slots::first(1),
            ..ShaderDesc::new("reader", Stage::Vertex)
        })
        .unwrap();
    // Made current before the frame by a legacy list's map.
    let mut worker = app.context("worker", Semantics::Legacy);
    let _ = worker
        .map(structured, MapType::WriteDiscard, MapFlags::None)
        .map(|mut m| m[0] = 1);
    let list = worker
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    app.imm
        .execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    app.imm.present(app.chain).unwrap();
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    app.imm.set_shader(Stage::Vertex, Some(vs));
    app.imm
        .set_shader_resources(Stage::Vertex, 0, &[Some(view)]);
    app.imm.draw(3, 0);
    app.imm.present(app.chain).unwrap();
    let outcomes = app.outcomes();
    let frame = captured(&outcomes[0]);
    assert!(
        frame.record_lines[0].contains("vs.srv.0=particles_srv#1"),
        "{:?}",
        frame.record_lines
    );
    assert_round_trip(frame);
}

#[test]
fn r_cap_4_bytes_written_before_a_flush_of_an_open_map_are_captured_where_written() {
    let mut app = App::new(Semantics::Legacy, CaptureOptions::default());
    app.imm.begin_capture();
    let bytes = app
        .imm
        .map(app.cb, MapType::WriteDiscard, MapFlags::None)
        .unwrap()
        .keep_mapped();
    bytes[8] = 5;
    // The batch holding the map's memory goes to the GPU model; the map stays open.
    app.imm.flush().unwrap();
    app.imm.set_shader(Stage::Vertex, Some(app.vs));
    app.imm.unmap(app.cb);
    app.imm
        .set_constant_buffers(Stage::Vertex, 0, &[Some(app.cb)]);
    app.imm.draw(3, 0);
    let frame = captured(&app.imm.end_capture().unwrap()).clone();
    assert!(
        frame.trace.contains(
            "imm map per_draw write_discard\nimm write per_draw 8 05\nimm vs_set_shader vs\n"
        ),
        "{}",
        frame.trace
    );
    assert_round_trip(&frame);
}

#[test]
fn r_cap_3_an_object_released_before_the_frame_and_still_bound_keeps_its_instance() {
    let mut app = App::new(Semantics::Legacy, CaptureOptions::default());
    let temp = app
        .device
        .create_buffer(&BufferDesc {
            name: "temp",
            size: 256,
            usage: Usage::Dynamic,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    let _ = app
        .imm
        .map(temp, MapType::WriteDiscard, MapFlags::None)
        .map(|mut m| m[0] = 3);
    app.imm.set_shader(Stage::Vertex, Some(app.vs));
    app.imm
        .set_constant_buffers(Stage::Vertex, 0, &[Some(temp)]);
    app.device.release(temp); // the binding keeps it alive (legacy)
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    app.imm.draw(1, 1);
    app.imm.present(app.chain).unwrap();
    let outcomes = app.outcomes();
    let frame = captured(&outcomes[0]);
    assert!(
        frame.record_lines[0].contains("vs.cb.0=temp#1"),
        "{:?}",
        frame.record_lines
    );
    assert_round_trip(frame);
}
