//! Capture misuse (R-CAP-2, R-CAP-5, with R-OBJ-3): an application that drops its captured
//! immediate context while a frame is open, or brings another device's list or object into a
//! captured frame, gets an outcome that says what happened, and the capture is left in a state
//! it can go on from.

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

fn device() -> CaptureDevice {
    CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    )
}

fn chain(device: &CaptureDevice) -> SwapChain {
    device
        .create_swap_chain(&SwapChainDesc {
            name: "main",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
        })
        .expect("chain")
}

fn failed(outcomes: &[FrameOutcome]) -> (u64, &str) {
    match outcomes {
        [FrameOutcome::Failed { frame, reason }] => (*frame, reason),
        other => panic!("{other:?}"),
    }
}

#[test]
fn r_cap_2_dropping_the_immediate_context_mid_frame_abandons_the_frame_and_says_so() {
    // Begun by the application.
    let device = device();
    let vs = device
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .expect("vs");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    imm.begin_capture();
    imm.set_shader(Stage::Vertex, Some(vs));
    imm.draw(3, 0);
    assert!(device.capture().is_capturing());
    drop(imm);
    assert!(!device.capture().is_capturing());
    let outcomes = device.capture().take_outcomes();
    let (frame, reason) = failed(&outcomes);
    assert_eq!(frame, 0);
    assert!(reason.contains("dropped"), "{reason}");
    assert!(reason.contains("end_capture"), "{reason}");

    // Begun by a trigger: the next immediate context starts with no frame open and captures
    // the frame a new trigger asks for.
    let chain = chain(&device);
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    device.capture().trigger();
    imm.present(chain).expect("present");
    assert!(device.capture().is_capturing());
    drop(imm);
    assert!(!device.capture().is_capturing());
    let outcomes = device.capture().take_outcomes();
    let (frame, reason) = failed(&outcomes);
    assert_eq!(frame, 1);
    assert!(reason.contains("dropped"), "{reason}");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    device.capture().trigger();
    for frame in 0..2 {
        imm.set_shader(Stage::Vertex, Some(vs));
        imm.draw(3, frame);
        imm.present(chain).expect("present");
    }
    assert!(matches!(
        device.capture().take_outcomes().as_slice(),
        [FrameOutcome::Captured(_)]
    ));
}

#[test]
fn r_cap_5_a_list_of_another_device_in_a_frame_fails_it_naming_the_other_device() {
    let (ours, theirs) = (device(), device());
    let vs = theirs
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .expect("vs");
    let mut imm = CapturedImmediate::new(&ours).expect("imm");
    let mut other_imm = CapturedImmediate::new(&theirs).expect("imm");
    let mut worker = theirs
        .create_deferred_context(&DeferredContextDesc::default())
        .expect("context");
    // Both devices capture: the other device's worker keeps the list's calls, as its own
    // capture asks.
    other_imm.begin_capture();
    imm.begin_capture();
    worker.set_shader(Stage::Vertex, Some(vs));
    worker.draw(3, 0);
    let list = worker
        .finish_command_list(RestoreState::ClearState)
        .expect("list");
    assert!(imm
        .execute_command_list(&list, RestoreState::ClearState)
        .is_err());
    let outcome = imm.end_capture().expect("a capture was open");
    let FrameOutcome::Failed { reason, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(reason.contains("another device"), "{reason}");
    assert!(
        reason.contains(&format!("#{}", theirs.device().serial())),
        "{reason}"
    );
    assert!(!reason.contains("before the capture began"), "{reason}");
    other_imm.end_capture();

    // The other device not capturing: the list has no calls kept, and the reason is the same.
    let list = {
        worker.set_shader(Stage::Vertex, Some(vs));
        worker.draw(3, 0);
        worker
            .finish_command_list(RestoreState::ClearState)
            .expect("list")
    };
    imm.begin_capture();
    assert!(imm
        .execute_command_list(&list, RestoreState::ClearState)
        .is_err());
    let outcome = imm.end_capture().expect("a capture was open");
    let FrameOutcome::Failed { reason, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(reason.contains("another device"), "{reason}");
    assert!(!reason.contains("before the capture began"), "{reason}");
}

#[test]
fn r_cap_3_an_object_of_another_device_in_a_frame_fails_it_naming_the_other_device() {
    let (ours, theirs) = (device(), device());
    let vs = theirs
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .expect("vs");
    let mut imm = CapturedImmediate::new(&ours).expect("imm");
    imm.begin_capture();
    imm.set_shader(Stage::Vertex, Some(vs));
    imm.draw(3, 0);
    let outcome = imm.end_capture().expect("a capture was open");
    let FrameOutcome::Failed { reason, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(reason.contains("another device"), "{reason}");
    assert!(
        reason.contains(&format!("#{}", theirs.device().serial())),
        "{reason}"
    );
    assert!(!reason.contains("no longer known"), "{reason}");
}

#[test]
fn r_fx_6_a_context_state_object_of_another_device_in_a_frame_fails_it_saying_so() {
    let (ours, theirs) = (device(), device());
    let mut their_imm = CapturedImmediate::new(&theirs).expect("their imm");
    let state = their_imm.create_device_context_state().expect("a state");
    let mut imm = CapturedImmediate::new(&ours).expect("imm");
    imm.begin_capture();
    let refused = imm.swap_device_context_state(&state);
    assert!(
        matches!(refused, Err(ref e) if e.kind() == ErrorKind::InvalidArgument),
        "{refused:?}"
    );
    imm.draw(3, 0);
    let outcome = imm.end_capture().expect("a capture was open");
    let FrameOutcome::Failed { reason, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(reason.contains("another device"), "{reason}");
    assert!(reason.contains("swap_device_context_state"), "{reason}");
}
