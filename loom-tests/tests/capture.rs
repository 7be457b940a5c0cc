//! Models of the capture's list decision (`trace/src/capture/log.rs`): the immediate context
//! starts a frame capture with a Release store of `capturing`; a deferred context reads it
//! (Acquire) at the first call of each list and keeps the whole list or none of it. Whatever the
//! interleaving, the list executed in the frame is either written whole or fails the frame with
//! its reason: never a list with some of its calls.
#![cfg(loom)]

use loom_tests::{check, spawn, DEVICE_BRANCHES};
use recorder::capabilities::*;
use recorder::{
    ChunkPolicy, DeferredContextDesc, Device, DeviceDesc, RestoreState, Semantics, ShaderDesc,
    Stage,
};
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

fn small_device() -> Device {
    Device::new(DeviceDesc {
        chunk_policy: ChunkPolicy {
            chunk_size: 4096,
            ..ChunkPolicy::default()
        },
        ..DeviceDesc::default()
    })
}

/// Executions that ended each way (outside the model: counted across all of them).
static WRITTEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static FAILED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A worker records a two-draw list while the immediate context begins a capture; the list is
/// then executed in the frame. Both endings are reached (the model explores the list starting
/// before and after the store).
#[test]
fn a_list_racing_the_capture_start_is_written_whole_or_fails_the_frame() {
    use std::sync::atomic::Ordering::Relaxed;
    check(DEVICE_BRANCHES, || {
        let device = CaptureDevice::new(small_device(), CaptureOptions::default());
        let vs = device
            .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
            .unwrap();
        let mut imm = CapturedImmediate::new(&device).unwrap();
        let mut worker = device
            .create_deferred_context(&DeferredContextDesc {
                name: "worker",
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .unwrap();
        let recording = spawn(move || {
            worker.set_shader(Stage::Vertex, Some(vs));
            worker.draw(3, 1);
            worker.draw(3, 2);
            worker
                .finish_command_list(RestoreState::ClearState)
                .map_err(|e| e.error)
        });
        imm.begin_capture();
        let list = recording.join().unwrap().unwrap();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        match imm.end_capture().unwrap() {
            FrameOutcome::Captured(frame) => {
                assert_eq!(frame.records, 2);
                assert!(frame.trace.contains("worker draw 3 1\n"), "{}", frame.trace);
                assert!(frame.trace.contains("worker draw 3 2\n"), "{}", frame.trace);
                WRITTEN.fetch_add(1, Relaxed);
            }
            FrameOutcome::Failed { reason, .. } => {
                assert!(
                    reason.contains("recorded before the capture began"),
                    "{reason}"
                );
                FAILED.fetch_add(1, Relaxed);
            }
        }
    });
    assert!(WRITTEN.load(Relaxed) > 0 && FAILED.load(Relaxed) > 0);
}
