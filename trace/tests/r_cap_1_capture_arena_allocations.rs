//! R-CAP-1 while capturing : a captured deferred context keeps its calls' lists (a
//! bind's buffers, the viewports) in its per-context arena (`trace/src/capture/arena.rs`), reset
//! between frames, so a warm context recording a captured list allocates a bounded number of
//! times whatever its number of calls: the engine's list and the log the list carries (its
//! entries copied at their length), no vector per slice argument.

#[path = "../../recorder/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use counting_alloc::allocations_during;
use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

/// Allocations of one captured list of `steps` steps (a one-slot constant-buffer bind, a
/// viewport set, a draw each), recorded, finished, on a context warmed by earlier frames.
fn captured_list_allocations(steps: u32) -> u64 {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let buffer = device
        .create_buffer(&BufferDesc {
            name: "cb",
            size: 256,
            usage: Usage::Default,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .expect("a buffer");
    let mut imm = CapturedImmediate::new(&device).expect("the immediate context");
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc {
            name: "worker",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("a deferred context");
    let viewport = Viewport {
        x: 0.0,
        y: 0.0,
        width: 64.0,
        height: 64.0,
        min_depth: 0.0,
        max_depth: 1.0,
    };
    let mut last = 0;
    for frame in 0..4 {
        imm.begin_capture();
        let (list, allocations) = allocations_during(|| {
            for step in 0..steps {
                worker.set_constant_buffers(Stage::Vertex, step % 4, &[Some(buffer)]);
                worker.set_viewports(&[viewport]);
                worker.draw(3, step);
            }
            worker
                .finish_command_list(RestoreState::ClearState)
                .map_err(|e| e.error)
                .expect("the list")
        });
        imm.execute_command_list(&list, RestoreState::ClearState)
            .expect("executed");
        drop(list);
        match imm.end_capture() {
            Some(FrameOutcome::Captured(captured)) => {
                assert_eq!(captured.records, steps as usize, "frame {frame}")
            }
            other => panic!("frame {frame}: {other:?}"),
        }
        last = allocations;
    }
    last
}

#[test]
fn r_cap_1_a_warm_captured_list_allocates_independently_of_its_calls() {
    let few = captured_list_allocations(500);
    let many = captured_list_allocations(4_000);
    eprintln!("a warm captured list: {few} allocations for 500 steps, {many} for 4,000");
    // The list's own (the engine's finish), its log and its entries' two vectors: a handful,
    // the same for 8 times the calls (a vector per list argument would be 8,000 more).
    assert!(many <= 12, "{many} allocations for 4,000 steps");
    assert_eq!(few, many, "500 steps: {few}, 4,000 steps: {many}");
}
