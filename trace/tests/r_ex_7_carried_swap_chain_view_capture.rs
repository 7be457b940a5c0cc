//! R-EX-7 with R-CAP-6: a worker's legacy list binds a swap-chain view before the present that
//! triggers the capture, and its next list (in the frame) carries that binding in. The carried
//! binding keeps the back buffer the bind encoded (`sc.0`), though the present moved the view to
//! `sc.1`; the captured trace must replay it with that buffer in the three modes.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

#[test]
fn r_ex_7_r_cap_6_a_bind_recorded_before_the_triggering_present_replays_its_buffer() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "sc",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
        })
        .expect("chain");
    let info = device.device().swap_chain_info(chain).expect("info");
    let vs = device
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .expect("vs");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc::default())
        .expect("worker");
    // Before the capture: the bind encodes sc.0, and the list restores its state.
    worker.set_shader(Stage::Vertex, Some(vs));
    worker.set_render_targets(&[Some(info.buffers[0].1)], None);
    worker.draw(3, 0);
    let first = worker
        .finish_command_list(RestoreState::Restore)
        .map_err(|e| e.error)
        .expect("first list");
    imm.execute_command_list(&first, RestoreState::ClearState)
        .expect("executed");
    device.capture().trigger();
    // The triggering present moves sc.0.rtv to sc.1; the carried binding keeps sc.0.
    imm.present(chain).expect("present");
    worker.draw(3, 1);
    let second = worker
        .finish_command_list(RestoreState::ClearState)
        .map_err(|e| e.error)
        .expect("second list");
    imm.execute_command_list(&second, RestoreState::ClearState)
        .expect("executed");
    imm.present(chain).expect("present");
    let outcomes = device.capture().take_outcomes();
    let frame = match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame,
        other => panic!("{other:?}"),
    };
    let lines = frame.record_lines.join("\n");
    assert!(
        lines.contains("rtv.0=sc.0.rtv") && lines.contains("rtv.0.resource=sc.0"),
        "{lines}"
    );
    modes::assert_round_trip(frame);
}

/// R-EX-7 with R-CAP-5: with `keep_all_lists`, a list recorded (and its bind made) before the
/// triggering present is executed in the frame: its bind keeps `sc.0`, though the trace writes the
/// list after the opening present that moves the view.
#[test]
fn r_ex_7_r_cap_5_a_kept_list_recorded_before_the_triggering_present_replays_its_buffer() {
    let options = CaptureOptions {
        keep_all_lists: true,
        ..CaptureOptions::default()
    };
    let device = CaptureDevice::new(Device::new(DeviceDesc::default()), options);
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "sc",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
        })
        .expect("chain");
    let info = device.device().swap_chain_info(chain).expect("info");
    let vs = device
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .expect("vs");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc::default())
        .expect("worker");
    worker.set_shader(Stage::Vertex, Some(vs));
    worker.set_render_targets(&[Some(info.buffers[0].1)], None);
    worker.draw(3, 0);
    let early = worker
        .finish_command_list(RestoreState::ClearState)
        .map_err(|e| e.error)
        .expect("early list");
    device.capture().trigger();
    imm.present(chain).expect("present");
    imm.execute_command_list(&early, RestoreState::ClearState)
        .expect("executed");
    imm.present(chain).expect("present");
    let outcomes = device.capture().take_outcomes();
    let frame = match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame,
        other => panic!("{other:?}"),
    };
    let lines = frame.record_lines.join("\n");
    assert!(lines.contains("rtv.0.resource=sc.0"), "{lines}");
    modes::assert_round_trip(frame);
}
