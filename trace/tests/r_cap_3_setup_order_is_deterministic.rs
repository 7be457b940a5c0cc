//! R-CAP-3: the state a frame starts from is written in the objects' creation order, and where
//! that does not decide (objects the capture met only when it wrote an earlier frame: made
//! before the device was wrapped), by kind and handle: the same frame captured twice, each time
//! on a device and capture of its own, is the same text byte for byte. The setup's
//! `set_resource_compression` lines followed the registry's hash order before, which changes
//! with each hash map's seed.

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

/// Textures made before the capture wraps the device (so it names them only when it writes
/// its first frame), two frames that clear each one, and the second frame's text.
fn second_frame() -> String {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..Default::default()
    });
    let views: Vec<RenderTargetView> = (0..12)
        .map(|i| {
            let texture = device
                .create_texture(&TextureDesc {
                    name: &format!("target{i}"),
                    format: Format::R8G8B8A8Unorm,
                    width: 16,
                    height: 16,
                    dcc: true,
                    bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
                    ..Default::default()
                })
                .unwrap();
            device
                .create_render_target_view(&ViewDesc::new(&format!("target{i}_rtv"), texture))
                .unwrap()
        })
        .collect();
    let device = CaptureDevice::new(device, CaptureOptions::default());
    let mut imm = CapturedImmediate::new(&device).unwrap();
    let mut frame = || {
        imm.begin_capture();
        for view in &views {
            imm.clear_render_target_view(*view, [0.5; 4]);
        }
        match imm.end_capture().unwrap() {
            FrameOutcome::Captured(frame) => frame.trace,
            FrameOutcome::Failed { reason, .. } => panic!("frame failed: {reason}"),
        }
    };
    let _first = frame();
    frame()
}

#[test]
fn r_cap_3_two_captures_of_the_same_frame_are_the_same_text() {
    let one = second_frame();
    assert_eq!(
        one.matches("set_resource_compression").count(),
        12,
        "each texture's compression in the setup:\n{one}"
    );
    for _ in 0..3 {
        let again = second_frame();
        assert!(one == again, "two texts of one frame:\n{one}\n---\n{again}");
    }
}
