//! Capture (SPEC §13): frames made through the capture's wrappers, written as traces and
//! replayed; the replay's digest must be the live frame's (R-CAP-6).

use executor::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};
use executor::trace::{replay, ReplayOptions};
use recorder::*;

fn digest_of(stdout: &str) -> Option<u64> {
    let at = stdout.find("digest=")? + "digest=".len();
    u64::from_str_radix(stdout.get(at..at + 16)?, 16).ok()
}

fn replayed(trace: &str, options: &ReplayOptions) -> (i32, Option<u64>, String) {
    let run = replay(trace.as_bytes(), options);
    (
        run.exit_code,
        digest_of(&run.stdout),
        format!("{}{}", run.stdout, run.stderr),
    )
}

#[test]
fn r_cap_2_triggered_frame_round_trips() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let capture = device.capture();
    let cb = device
        .create_buffer(&BufferDesc {
            name: "per_draw",
            size: 256,
            usage: Usage::Dynamic,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
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
            width: 64,
            height: 64,
        })
        .unwrap();
    let mut imm = CapturedImmediate::new(&device).unwrap();
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc {
            name: "worker",
            ..Default::default()
        })
        .unwrap();
    for frame in 0..3u32 {
        if frame == 0 {
            capture.trigger();
        }
        worker.set_shader(Stage::Vertex, Some(vs));
        if let Ok(mut data) = worker.map(cb, MapType::WriteDiscard, MapFlags::None) {
            data[..4].copy_from_slice(&frame.to_le_bytes());
        }
        worker.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
        worker.draw(3, frame);
        let list = worker
            .finish_command_list(RestoreState::ClearState)
            .unwrap();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        imm.set_shader(Stage::Vertex, Some(vs));
        imm.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
        imm.draw(6, 0);
        imm.present(chain).unwrap();
    }
    let outcomes = capture.take_outcomes();
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    let FrameOutcome::Captured(frame) = &outcomes[0] else {
        panic!("{outcomes:?}")
    };
    assert_eq!(frame.records, 2);
    let (code, digest, out) = replayed(&frame.trace, &ReplayOptions::default());
    assert_eq!(code, 0, "{}\n{out}", frame.trace);
    assert_eq!(digest, Some(frame.digest), "{}\n{out}", frame.trace);
    println!("{}", frame.trace);
}
