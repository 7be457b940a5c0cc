//! R-CAP-3 for placed resources (R-BAR-7): which of the placed resources sharing a heap's bytes
//! is active at the frame's start. A buffer whose alias was activated before the frame is a
//! deactivated alias when the frame starts, so a copy reading it in the frame is a hazard under
//! hazard validation (R-V-2); the trace starts it deactivated, so the replay reports the same
//! hazard, and a copy of a resource still active reports none.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};
use trace::replay;

/// Frame 0 activates `b` over `a`'s bytes; frame 1 copies from `read` (`a` or `b`). The trace,
/// and whether the live copy was refused.
fn run(read_a: bool) -> (trace::capture::CapturedFrame, bool) {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
            validation: Validation::Hazards,
            ..Default::default()
        }),
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
    let heap = device
        .create_heap(&HeapDesc {
            name: "h",
            size: 1 << 16,
        })
        .expect("heap");
    let placed = |name| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 4096,
                bind: BindFlags::SHADER_RESOURCE,
                placement: Some(Placement { heap, offset: 0 }),
                ..BufferDesc::default()
            })
            .expect("placed buffer")
    };
    let (a, b) = (placed("a"), placed("b"));
    let target = device
        .create_buffer(&BufferDesc {
            name: "target",
            size: 4096,
            bind: BindFlags::SHADER_RESOURCE,
            ..BufferDesc::default()
        })
        .expect("buffer");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    imm.barrier(&[BarrierGroup::Buffer(&[BufferBarrier {
        sync_before: BarrierSync::NONE,
        sync_after: BarrierSync::COPY,
        access_before: BarrierAccess::NO_ACCESS,
        access_after: BarrierAccess::COPY_SOURCE,
        resource: b.into(),
        offset: 0,
        size: BufferBarrier::WHOLE,
    }])]);
    imm.flush().expect("the activation is valid");
    device.capture().trigger();
    imm.present(chain).expect("present");
    imm.copy_buffer_region(target, 0, if read_a { a } else { b }, 0, 64);
    let refused = imm.flush().is_err();
    imm.present(chain).expect("present");
    let outcomes = device.capture().take_outcomes();
    match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => (frame.clone(), refused),
        other => panic!("{other:?}"),
    }
}

#[test]
fn r_cap_3_a_placed_resource_deactivated_before_the_frame_starts_the_trace_deactivated() {
    for read_a in [true, false] {
        let (frame, refused) = run(read_a);
        assert_eq!(
            refused, read_a,
            "live: reading a deactivated alias is a hazard"
        );
        modes::assert_round_trip(&frame);
        let expected = match refused {
            true => "expect error imm hazard\n",
            false => "expect accepted imm\n",
        };
        let at = frame
            .trace
            .find("imm copy_buffer_region")
            .expect("the copy");
        let end = at + frame.trace[at..].find('\n').expect("a line") + 1;
        let checked = format!("{}{expected}{}", &frame.trace[..end], &frame.trace[end..]);
        for options in modes::three_modes() {
            let run = replay(checked.as_bytes(), &options);
            assert_eq!(
                run.exit_code, 0,
                "{options:?}\n{checked}\n{}{}",
                run.stdout, run.stderr
            );
        }
    }
}
