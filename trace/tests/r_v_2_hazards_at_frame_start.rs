//! R-V-2 under the capture (R-CAP-3, R-CAP-6): the hazard tracker's pending writes at a frame's
//! start are not written (`capture/mod.rs` says why), so a frame whose draw reads a resource a
//! copy wrote before it, with no barrier between, reports the hazard live and not in its replay;
//! the draw still runs in both, so the replay gives the live digest in the three modes. What
//! this test pins: the limit changes no digest.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

#[test]
fn r_v_2_a_write_pending_at_the_frame_s_start_changes_no_digest() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
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
    // A copy writes cb before the frame; no barrier covers it.
    imm.copy_resource(cb, source);
    imm.flush().unwrap();
    imm.take_execution_errors();
    device.capture().trigger();
    imm.present(chain).unwrap();
    imm.set_shader(Stage::Vertex, Some(vs));
    imm.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
    imm.draw(3, 0);
    // The present submits the draw: the hazard comes back there (or later, as an execution
    // error).
    let mut live: Vec<Error> = imm.present(chain).err().into_iter().collect();
    live.extend(imm.take_execution_errors());
    assert!(
        live.iter().any(|e| e.kind() == ErrorKind::Hazard),
        "the live frame reports the hazard: {live:?}"
    );
    let frame = match device.capture().take_outcomes().into_iter().next() {
        Some(FrameOutcome::Captured(frame)) => frame,
        other => panic!("{other:?}"),
    };
    assert_eq!(frame.records, 1);
    assert!(!frame.trace.contains("copy_resource"), "{}", frame.trace);
    modes::assert_round_trip(&frame);
}
