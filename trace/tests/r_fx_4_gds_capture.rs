//! R-FX-4 in the trace: a captured frame writes the global-data-store and constant-RAM calls,
//! and its trace replays to the same memory in every mode. The engine's side of R-FX-4 is tested
//! in `executor/tests/r_fx_4_gds.rs`.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

#[test]
fn r_fx_4_a_captured_frame_writes_the_calls_and_replays_them() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: Semantics::Legacy,
            ..Default::default()
        }),
        CaptureOptions::default(),
    );
    let target = device
        .create_buffer(&BufferDesc {
            name: "target",
            size: 64,
            usage: Usage::Default,
            bind: BindFlags::UNORDERED_ACCESS,
            ..Default::default()
        })
        .unwrap();
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "main",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 8,
            height: 8,
        })
        .unwrap();
    let mut imm = CapturedImmediate::new(&device).unwrap();
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc {
            name: "worker",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .unwrap();
    device.capture().trigger();
    for frame in 0..3u32 {
        imm.write_gds(0, &[frame + 10, 5]);
        worker.set_gds_range(Stage::Compute, 0, 64);
        worker.read_gds(0, 2, target, 8);
        worker.load_constant_ram(target, 8, 256, 8);
        worker.store_constant_ram(target, 32, 256, 8);
        let list = worker
            .finish_command_list(RestoreState::ClearState)
            .unwrap();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        imm.present(chain).unwrap();
    }
    let outcomes = device.capture().take_outcomes();
    let frame = match outcomes.first() {
        Some(FrameOutcome::Captured(frame)) => frame,
        other => panic!("no frame captured: {other:?}"),
    };
    for statement in [
        "imm write_gds 0 11 5\n",
        "worker set_gds_range cs 0 64\n",
        "worker read_gds 0 2 target 8\n",
        "worker load_constant_ram target 8 256 8\n",
        "worker store_constant_ram target 32 256 8\n",
    ] {
        assert!(
            frame.trace.contains(statement),
            "{statement}{}",
            frame.trace
        );
    }
    // The captured frame replays to the same memory, in every mode.
    let checked = format!(
        "{}expect gds 0 11 5\nexpect constant_ram 256 11 5\nexpect memory target 8 11 5\n\
         expect memory target 32 11 5\nexpect counters ce_bytes=16\n",
        frame.trace
    );
    modes::assert_round_trip(frame);
    modes::assert_holds_in_three_modes(&checked);
}
