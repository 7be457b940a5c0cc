//! R-CAP-1 while capturing : the calls of several contexts are written in the order
//! they were made. A tap takes a tick of the capture's clock only when the clock moved since
//! its last one (`trace/src/capture/kept_calls.rs`): consecutive calls of one context share a
//! tick, and a call made after another context's (or after an object was made or released)
//! takes a new one. Here two deferred contexts alternate on one thread, in runs of one and of
//! several calls, with a buffer made between two calls of a run: the text has every call where
//! it was made, the one-slot binds and draws (kept as they came) and the others (kept in full)
//! alike.

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

#[test]
fn r_cap_1_calls_of_two_contexts_are_written_in_the_order_they_were_made() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let buffer = |name: &str| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 256,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            })
            .expect("buffer")
    };
    let cb0 = buffer("cb0");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    let context = |name: &str| {
        device
            .create_deferred_context(&DeferredContextDesc {
                name,
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .expect("context")
    };
    let (mut a, mut b) = (context("a"), context("b"));
    imm.begin_capture();
    a.draw(1, 0);
    a.draw(2, 0);
    b.draw(3, 0);
    a.draw(4, 0);
    a.set_constant_buffers(Stage::Vertex, 0, &[Some(cb0)]);
    // Made between two calls of a run: the next call comes after it.
    let cb1 = buffer("cb1");
    a.set_constant_buffers(Stage::Vertex, 1, &[Some(cb1)]);
    b.set_constant_buffers(Stage::Pixel, 2, &[Some(cb1), None]);
    b.draw(5, 0);
    a.draw(6, 0);
    b.draw(7, 0);
    b.draw(8, 0);
    let [la, lb] = [&mut a, &mut b].map(|context| {
        context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|e| e.error)
            .expect("list")
    });
    imm.draw(9, 0);
    for list in [&lb, &la] {
        imm.execute_command_list(list, RestoreState::ClearState)
            .expect("executed");
    }
    let frame = match imm.end_capture() {
        Some(FrameOutcome::Captured(frame)) => frame,
        other => panic!("{other:?}"),
    };
    let calls: Vec<&str> = frame
        .trace
        .lines()
        .filter(|line| {
            line.starts_with("a ")
                || line.starts_with("b ")
                || line.starts_with("imm draw")
                || line.starts_with("imm execute")
        })
        .collect();
    let want = [
        "a draw 1 0",
        "a draw 2 0",
        "b draw 3 0",
        "a draw 4 0",
        "a vs_set_constant_buffers 0 cb0",
        "a vs_set_constant_buffers 1 cb1",
        "b ps_set_constant_buffers 2 cb1 null",
        "b draw 5 0",
        "a draw 6 0",
        "b draw 7 0",
        "b draw 8 0",
        "a finish list_1",
        "b finish list_2",
        "imm draw 9 0",
        "imm execute list_2",
        "imm execute list_1",
    ];
    assert_eq!(calls, want, "the trace:\n{}", frame.trace);
}
