//! R-CAP-3 and R-CAP-6 for objects released in a captured frame before a fast list that names
//! them runs (R-OBJ-3, R-OBJ-4): the release stays where it happened in the text, before the
//! execution, even when a later call names the object again; and a dynamic buffer the device
//! destroyed at its release (a fast list's binding keeps no reference) is named in the live
//! records as the replay names it, with its instance (`temp#1`). Both cases the capture round
//! trip found (`CAPTURE_CASES=2000`).

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

struct App {
    device: CaptureDevice,
    imm: CapturedImmediate,
    vs: Shader,
    chain: SwapChain,
}

fn app() -> App {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
            ..DeviceDesc::default()
        }),
        CaptureOptions::default(),
    );
    let vs = device
        .create_shader(&ShaderDesc {
            constant_buffers: Slots::first(1),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .unwrap();
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "sc",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
        })
        .unwrap();
    let imm = CapturedImmediate::new(&device).unwrap();
    App {
        device,
        imm,
        vs,
        chain,
    }
}

fn buffer(app: &App, name: &'static str, usage: Usage, bind: BindFlags) -> Buffer {
    app.device
        .create_buffer(&BufferDesc {
            name,
            size: 256,
            usage,
            bind,
            ..Default::default()
        })
        .unwrap()
}

fn fast_worker(app: &App) -> trace::capture::CapturedDeferred {
    app.device
        .create_deferred_context(&DeferredContextDesc {
            name: "worker",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .unwrap()
}

fn only_frame(app: &App) -> trace::capture::CapturedFrame {
    match app.device.capture().take_outcomes().into_iter().next() {
        Some(FrameOutcome::Captured(frame)) => frame,
        other => panic!("{other:?}"),
    }
}

#[test]
fn r_cap_3_a_release_before_a_checked_fast_execution_stays_before_it() {
    let mut app = app();
    let ub = buffer(
        &app,
        "ub",
        Usage::Default,
        BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS,
    );
    let mut worker = fast_worker(&app);
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    let temp = buffer(&app, "temp", Usage::Default, BindFlags::CONSTANT);
    worker.set_constant_buffers(Stage::Vertex, 0, &[Some(temp)]);
    // `read_gds` keeps the fast contract: the list is checked at every execution (R-OBJ-3).
    worker.read_gds(0, 2, ub, 0);
    worker.draw(1, 1);
    let list = worker
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    app.device.release(temp);
    let _ = app
        .imm
        .execute_command_list(&list, RestoreState::ClearState);
    // A later call naming the released buffer (refused live and in the replay alike).
    app.imm
        .set_constant_buffers(Stage::Vertex, 0, &[Some(temp)]);
    app.imm.present(app.chain).unwrap();
    let frame = only_frame(&app);
    let release = frame.trace.find("release temp").expect("the release");
    let execute = frame.trace.find("imm execute").expect("the execution");
    assert!(release < execute, "{}", frame.trace);
    assert_eq!(frame.records, 0, "{}", frame.record_lines.join("\n"));
    modes::assert_round_trip(&frame);
}

#[test]
fn r_cap_6_a_dynamic_buffer_destroyed_at_its_release_keeps_its_instance_name() {
    let mut app = app();
    let mut worker = fast_worker(&app);
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    let temp = buffer(&app, "temp", Usage::Dynamic, BindFlags::CONSTANT);
    worker.set_shader(Stage::Vertex, Some(app.vs));
    if let Ok(mut data) = worker.map(temp, MapType::WriteDiscard, MapFlags::None) {
        data[0] = 1;
    }
    worker.set_constant_buffers(Stage::Vertex, 0, &[Some(temp)]);
    let list = worker
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    app.device.release(temp);
    let _ = app
        .imm
        .execute_command_list(&list, RestoreState::ClearState);
    app.imm.draw(1, 1);
    app.imm.present(app.chain).unwrap();
    let frame = only_frame(&app);
    assert_eq!(frame.records, 1);
    assert!(
        frame.record_lines[0].contains("vs.cb.0=temp#1"),
        "{}",
        frame.record_lines[0]
    );
    modes::assert_round_trip(&frame);
}
