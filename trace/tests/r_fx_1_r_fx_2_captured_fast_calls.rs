//! R-FX-1, R-FX-2 under capture: the fast calls (`set_fast_resources`, its batches, placement)
//! written as trace statements, and the trace replayed to the live frame's digest. The engine's
//! side of R-FX-1 is tested in `executor/tests/r_fx_1_fast_resources.rs`.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

fn cb(stage: Stage, slot: u32, buffer: Option<Buffer>) -> FastResource {
    FastResource::ConstantBuffer {
        stage,
        slot,
        buffer,
    }
}

/// Capture writes the fast calls as trace statements (an applied batch as the
/// `set_fast_resources` of its entries, placement with its address), and the trace replays to
/// the live frame's digest in the three modes.
#[test]
fn r_fx_1_r_fx_2_captured_fast_calls_replay_to_the_frame_digest() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let buffer = |name, usage| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 256,
                usage,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            })
            .unwrap()
    };
    let (dynamic, ring) = (
        buffer("dynamic", Usage::Dynamic),
        buffer("ring", Usage::Default),
    );
    let vs = device
        .create_shader(&ShaderDesc {
            constant_buffers: Slots::first(2),
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
    let mut imm = CapturedImmediate::new(&device).unwrap();
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc {
            name: "worker",
            semantics: Semantics::Legacy,
            ..Default::default()
        })
        .unwrap();
    let mut batch = FastResourceBatch::new();
    worker.set_fast_resources_into_batch(&mut batch, &[cb(Stage::Vertex, 1, Some(ring))]);
    imm.present(chain).unwrap();
    device.capture().trigger();
    imm.present(chain).unwrap();
    worker.set_shader(Stage::Vertex, Some(vs));
    if let Ok(mut data) = worker.map(dynamic, MapType::WriteDiscard, MapFlags::None) {
        data[0] = 7;
    }
    worker.set_fast_resources(&[cb(Stage::Vertex, 0, Some(dynamic))]);
    worker.set_fast_resources_from_batch(&batch);
    worker.draw(3, 0);
    worker.set_placement_constant_buffer(Stage::Vertex, 1, ring, 0x4000);
    worker.draw(3, 1);
    let list = worker
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    imm.present(chain).unwrap();
    let outcomes = device.capture().take_outcomes();
    let frame = match &outcomes[0] {
        FrameOutcome::Captured(frame) => frame,
        FrameOutcome::Failed { reason, .. } => panic!("frame failed: {reason}"),
    };
    assert!(
        frame
            .trace
            .contains("worker set_fast_resources vs.cb.0=dynamic\n")
            && frame
                .trace
                .contains("worker set_fast_resources vs.cb.1=ring\n")
            && frame
                .trace
                .contains("worker vs_set_placement_constant_buffer 1 ring 0x4000\n"),
        "{}",
        frame.trace
    );
    modes::assert_round_trip(frame);
}
