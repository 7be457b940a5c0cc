//! R-FX-6 under the capture (SPEC §13): a frame with a title-managed legacy context and fence
//! kick-offs is written as trace statements that replay to the frame's digest; a frame that
//! swaps a device context state object is reported not written, with the reason.

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, FrameOutcome};
use trace::capture::{CapturedDeferred, CapturedImmediate};

#[path = "common/modes.rs"]
mod modes;
use modes::assert_round_trip;

struct App {
    device: CaptureDevice,
    cb: Buffer,
    vs: Shader,
    chain: SwapChain,
    imm: CapturedImmediate,
}

impl App {
    fn new() -> Self {
        let device = CaptureDevice::new(
            Device::new(DeviceDesc::default()),
            CaptureOptions::default(),
        );
        let cb = device
            .create_buffer(&BufferDesc {
                name: "cb",
                size: 256,
                usage: Usage::Default,
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

    fn title_managed(&self) -> CapturedDeferred {
        self.device
            .create_deferred_context(&DeferredContextDesc {
                name: "title",
                semantics: Semantics::Legacy,
                title_managed_lifetimes: true,
                ..Default::default()
            })
            .unwrap()
    }
}

#[test]
fn r_fx_6_capture_writes_title_managed_contexts_and_kick_offs() {
    let mut app = App::new();
    let mut worker = app.title_managed();
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    worker.set_shader(Stage::Vertex, Some(app.vs));
    worker.set_constant_buffers(Stage::Vertex, 0, &[Some(app.cb)]);
    worker.draw(3, 0);
    worker.insert_fence_with(Engine::Graphics, FenceFlags::KickOff);
    worker.draw(3, 1);
    let list = worker
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    app.imm
        .execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    app.imm.set_shader(Stage::Vertex, Some(app.vs));
    app.imm.draw(3, 2);
    app.imm
        .insert_fence_with(Engine::Graphics, FenceFlags::KickOff);
    app.imm.draw(3, 3);
    app.imm.present(app.chain).unwrap();
    let outcomes = app.device.capture().take_outcomes();
    let frame = match outcomes.first() {
        Some(FrameOutcome::Captured(frame)) => frame,
        other => panic!("{other:?}"),
    };
    assert!(
        frame
            .trace
            .contains("semantics=legacy title_managed_lifetimes=yes"),
        "{}",
        frame.trace
    );
    assert_eq!(
        frame.trace.matches(" kick_off").count(),
        2,
        "{}",
        frame.trace
    );
    assert_eq!(frame.records, 4);
    assert_round_trip(frame);
}

#[test]
fn r_fx_6_capture_reports_an_immediate_context_state_swap_as_not_written() {
    let mut app = App::new();
    let state = app.imm.create_device_context_state().unwrap();
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    app.imm
        .swap_device_context_state(&state)
        .expect("a legacy immediate context swaps");
    app.imm.draw(3, 0);
    app.imm.present(app.chain).unwrap();
    let outcomes = app.device.capture().take_outcomes();
    match outcomes.first() {
        Some(FrameOutcome::Failed { reason, .. }) => {
            assert!(reason.contains("swap_device_context_state"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}
