//! R-V-2 under the capture (R-CAP-3, R-CAP-6): of the hazard tracker's pending writes at a
//! frame's start, the capture writes the one kind a call gives without a record (`capture/mod.rs`
//! says which and why): a lone copy of a whole resource made by a legacy immediate context, as
//! an `update_subresource` in the setup, so a fast list's draw in the frame that reads it with
//! no barrier between reports the hazard in the replay as it did live. A region copy's pending
//! write is not written: live reports, the replay does not, and the digest is the same (the
//! draw runs in both).

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

/// The frame's live hazards and the captured frame, after `before` wrote cb (from `source`)
/// on the legacy immediate context before the frame, and a fast list's draw in it read cb.
fn frame_after(
    before: impl FnOnce(&mut CapturedImmediate, Buffer, Buffer),
) -> (Vec<Error>, trace::capture::CapturedFrame) {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: Semantics::Legacy,
            validation: Validation::Hazards,
            ..DeviceDesc::default()
        }),
        CaptureOptions::default(),
    );
    let desc = |name| BufferDesc {
        name,
        size: 256,
        usage: Usage::Default,
        bind: BindFlags::CONSTANT,
        ..Default::default()
    };
    let cb = device.create_buffer(&desc("cb")).unwrap();
    let source = device.create_buffer(&desc("source")).unwrap();
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
            width: 16,
            height: 16,
        })
        .unwrap();
    let mut imm = CapturedImmediate::new(&device).unwrap();
    before(&mut imm, cb, source);
    imm.flush().unwrap();
    imm.take_execution_errors();
    device.capture().trigger();
    imm.present(chain).unwrap();
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc {
            name: "worker",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .unwrap();
    worker.set_shader(Stage::Vertex, Some(vs));
    worker.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
    worker.draw(3, 0);
    let list = worker
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    // The execution reports the hazard of the list's draw (or the present, or later).
    let mut live: Vec<Error> = imm
        .execute_command_list(&list, RestoreState::ClearState)
        .err()
        .into_iter()
        .collect();
    live.extend(imm.present(chain).err());
    live.extend(imm.take_execution_errors());
    let frame = match device.capture().take_outcomes().into_iter().next() {
        Some(FrameOutcome::Captured(frame)) => frame,
        other => panic!("{other:?}"),
    };
    assert_eq!(frame.records, 1);
    (live, frame)
}

fn hazard(errors: &[Error]) -> bool {
    errors.iter().any(|e| e.kind() == ErrorKind::Hazard)
}

/// Whether the plain replay of `frame` reports a hazard at the execution: the trace with
/// `expect error imm hazard` after it holds.
fn replay_reports_hazard(frame: &trace::capture::CapturedFrame) -> bool {
    let text = frame.trace.replacen(
        "imm execute list_1\n",
        "imm execute list_1\nexpect error imm hazard\n",
        1,
    );
    assert_ne!(text, frame.trace, "{}", frame.trace);
    trace::replay(text.as_bytes(), &Default::default()).exit_code == 0
}

#[test]
fn r_v_2_a_whole_copy_pending_at_the_frame_s_start_is_written_and_reported_again() {
    let (live, frame) = frame_after(|imm, cb, source| imm.copy_resource(cb, source));
    assert!(hazard(&live), "the live frame reports the hazard: {live:?}");
    assert!(
        frame.trace.contains("imm update_subresource cb"),
        "{}",
        frame.trace
    );
    assert!(replay_reports_hazard(&frame), "{}", frame.trace);
    modes::assert_round_trip(&frame);
}

#[test]
fn r_v_2_a_region_copy_pending_at_the_frame_s_start_changes_no_digest() {
    let (live, frame) = frame_after(|imm, cb, source| imm.copy_buffer_region(cb, 0, source, 0, 16));
    assert!(hazard(&live), "the live frame reports the hazard: {live:?}");
    assert!(
        !frame.trace.contains("update_subresource"),
        "{}",
        frame.trace
    );
    assert!(!replay_reports_hazard(&frame), "{}", frame.trace);
    modes::assert_round_trip(&frame);
}
