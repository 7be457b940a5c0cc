//! R-CAP-3 and R-CAP-6 for the queries' state a frame starts from (R-FX-3): whatever the
//! immediate context did with a predicate before the captured frame (begun, ended, written while
//! open, reset, configured), a fast worker's draw predicated on it in the frame replays from the
//! trace as it ran live, and so does an immediate context's draw under a predication set before
//! the frame. The case the round-trip property found (a predicate begun before the
//! frame and written while open: live `predicated=no`, replayed `predicated=yes`) is the second.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

/// What the immediate context does with the predicate before the frame.
#[derive(Clone, Copy, Debug)]
enum Before {
    Begin,
    BeginWrite,
    BeginEnd,
    EndBegin,
    Write,
    BinaryBeginWrite,
    BeginWriteReset,
    End,
}

/// Who predicates the frame's draw on the predicate.
#[derive(Clone, Copy, Debug)]
enum Predicated {
    /// A fast worker, in the frame (`set_predication`).
    Worker,
    /// The immediate context, before the frame (`set_predication`): the frame starts with it.
    ImmediateBefore,
    /// The immediate context, before the frame (`set_predication_from_query`).
    ImmediateFromQueryBefore,
}

/// Runs two frames (capturing the second): `before` on the immediate context in frame 0; in
/// frame 1 a draw predicated on it with `value` (by `by`).
fn frame_after(before: Before, value: bool, by: Predicated) -> trace::capture::CapturedFrame {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "main",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
        })
        .expect("chain");
    let vs = device
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .expect("vs");
    let predicate = device
        .create_query("predicate", QueryKind::Predicate)
        .expect("query");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc {
            name: "worker",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("context");
    match before {
        Before::Begin => imm.begin_query(predicate),
        Before::BeginWrite => {
            imm.begin_query(predicate);
            imm.write_query(predicate);
        }
        Before::BeginEnd => {
            imm.begin_query(predicate);
            imm.end_query(predicate);
        }
        Before::EndBegin => {
            imm.end_query(predicate);
            imm.begin_query(predicate);
        }
        Before::Write => imm.write_query(predicate),
        Before::BinaryBeginWrite => {
            imm.configure_query(predicate, QueryMode::Binary);
            imm.begin_query(predicate);
            imm.write_query(predicate);
        }
        Before::BeginWriteReset => {
            imm.begin_query(predicate);
            imm.write_query(predicate);
            imm.reset_query(predicate);
        }
        Before::End => imm.end_query(predicate),
    }
    let value = match value {
        true => PredicateValue::True,
        false => PredicateValue::False,
    };
    match by {
        Predicated::Worker => {}
        Predicated::ImmediateBefore => imm.set_predication(Some(predicate), value),
        Predicated::ImmediateFromQueryBefore => {
            imm.set_predication_from_query(Some(predicate), value)
        }
    }
    imm.present(chain).expect("present");
    device.capture().trigger();
    for frame in 0..2 {
        if let Predicated::Worker = by {
            worker.set_predication(Some(predicate), value);
        } else {
            imm.set_primitive_topology(PrimitiveTopology::TriangleList);
            imm.set_shader(Stage::Vertex, Some(vs));
            imm.draw(3, frame);
        }
        worker.set_primitive_topology(PrimitiveTopology::TriangleList);
        worker.set_shader(Stage::Vertex, Some(vs));
        worker.draw(3, frame);
        let list = worker
            .finish_command_list(RestoreState::ClearState)
            .expect("list");
        imm.execute_command_list(&list, RestoreState::ClearState)
            .expect("execute");
        imm.present(chain).expect("present");
    }
    let outcomes = device.capture().take_outcomes();
    match outcomes.as_slice() {
        [FrameOutcome::Captured(frame), ..] => frame.clone(),
        other => panic!("{before:?}: {other:?}"),
    }
}

#[test]
fn r_cap_6_a_predicate_written_while_open_before_the_frame_replays_as_live() {
    let frame = frame_after(Before::BeginWrite, true, Predicated::Worker);
    // Live: the result written before the frame (no samples) answers `false`, so a draw
    // predicated `yes` runs and is not predicated.
    assert!(
        frame
            .record_lines
            .iter()
            .any(|l| l.contains("predicated=no")),
        "{:?}",
        frame.record_lines
    );
    modes::assert_round_trip(&frame);
}

#[test]
fn r_cap_6_every_query_and_predication_state_before_the_frame_replays_as_live() {
    use Before::*;
    for before in [
        Begin,
        BeginWrite,
        BeginEnd,
        EndBegin,
        Write,
        BinaryBeginWrite,
        BeginWriteReset,
        End,
    ] {
        for value in [false, true] {
            for by in [
                Predicated::Worker,
                Predicated::ImmediateBefore,
                Predicated::ImmediateFromQueryBefore,
            ] {
                let frame = frame_after(before, value, by);
                eprintln!("{before:?} {value} {by:?}: {:?}", frame.record_lines);
                modes::assert_round_trip(&frame);
            }
        }
    }
}
