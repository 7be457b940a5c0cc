//! R-ST-6 under capture: composed shader-resource view descriptors (seed 000's
//! `ComposeShaderResourceView`) declared `composed=yes`, with their MinLevelOfDetail or without
//! (the default), and the frame replayed to its live digest. The engine's side is
//! `executor/tests/r_st_6_composed_views.rs`.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

#[test]
fn r_st_6_captured_composed_views_replay_to_the_frame_digest() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let texture = device
        .create_texture(&TextureDesc {
            name: "tex",
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
            mip_levels: 4,
            bind: BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let own = device
        .compose_shader_resource_view(&ViewDesc {
            min_lod: Some(1.5),
            ..ViewDesc::new("own", texture)
        })
        .unwrap();
    let by_default = device
        .compose_shader_resource_view(&ViewDesc::new("by_default", texture))
        .unwrap();
    let vs = device
        .create_shader(&ShaderDesc {
            shader_resources: Slots::first(2),
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
    imm.set_resource_min_lod(texture, 2.0);
    imm.present(chain).unwrap();
    device.capture().trigger();
    imm.present(chain).unwrap();
    imm.set_shader(Stage::Vertex, Some(vs));
    imm.set_shader_resources(Stage::Vertex, 0, &[Some(own), Some(by_default)]);
    imm.draw(3, 0);
    imm.set_resource_min_lod(texture, 3.0);
    imm.set_shader_resources(Stage::Vertex, 1, &[Some(by_default)]);
    imm.draw(3, 0);
    imm.present(chain).unwrap();
    let outcomes = device.capture().take_outcomes();
    let frame = match &outcomes[0] {
        FrameOutcome::Captured(frame) => frame,
        FrameOutcome::Failed { reason, .. } => panic!("frame failed: {reason}"),
    };
    assert!(
        frame
            .trace
            .contains("srv own tex min_lod=1.5 composed=yes\n")
            && frame.trace.contains("srv by_default tex composed=yes\n"),
        "{}",
        frame.trace
    );
    modes::assert_round_trip(frame);
}
