//! R-CAP-3 with R-ST-9: a texture partly compressed when a frame starts (some colour kinds, or
//! one plane of a depth format, decompressed before it) is written as `set_resource_compression
//! compressed` and the `decompress_resource … kinds=` of what it no longer holds, so the replay
//! starts from the same partial state: a decompression in the frame of the kinds left
//! decompresses it there as it did live, and the draw that reads it agrees (R-CAP-6).

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

#[path = "common/modes.rs"]
mod modes;
use modes::assert_round_trip;

#[test]
fn r_cap_3_a_partly_compressed_texture_starts_the_frame_partly_compressed() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
            ..Default::default()
        }),
        CaptureOptions::default(),
    );
    let msaa = device
        .create_texture(&TextureDesc {
            name: "msaa",
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
            sample_count: 4,
            dcc: true,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let rtv = device
        .create_render_target_view(&ViewDesc::new("msaa_rtv", msaa))
        .unwrap();
    let srv = device
        .create_shader_resource_view(&ViewDesc::new("msaa_srv", msaa))
        .unwrap();
    let depth = device
        .create_texture(&TextureDesc {
            name: "depth",
            format: Format::D24UnormS8Uint,
            width: 64,
            height: 64,
            bind: BindFlags::DEPTH_STENCIL,
            ..Default::default()
        })
        .unwrap();
    let dsv = device
        .create_depth_stencil_view(&ViewDesc::new("depth_dsv", depth))
        .unwrap();
    let ps = device
        .create_shader(&ShaderDesc {
            shader_resources: Slots::first(1),
            ..ShaderDesc::new("ps", Stage::Pixel)
        })
        .unwrap();
    let mut imm = CapturedImmediate::new(&device).unwrap();
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.decompress_resource_x(msaa, None, DecompressKinds::FMASK, None);
    imm.clear_depth_stencil_view(dsv, ClearFlags::DEPTH_STENCIL, 1.0, 0);
    imm.decompress_resource_x(depth, None, DecompressKinds::STENCIL, None);
    imm.begin_capture();
    // The kinds left: decompressed here, live and in the replay alike.
    imm.decompress_resource_x(
        msaa,
        None,
        DecompressKinds::CLEAR.union(DecompressKinds::DCC),
        None,
    );
    imm.decompress_resource_x(depth, None, DecompressKinds::DEPTH, None);
    imm.set_shader(Stage::Pixel, Some(ps));
    imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    imm.draw(3, 0);
    let frame = match imm.end_capture().unwrap() {
        FrameOutcome::Captured(frame) => frame,
        FrameOutcome::Failed { reason, .. } => panic!("frame failed: {reason}"),
    };
    for line in [
        "imm set_resource_compression msaa compressed\nimm decompress_resource msaa kinds=fmask\n",
        "imm set_resource_compression depth compressed\nimm decompress_resource depth kinds=stencil\n",
    ] {
        assert!(frame.trace.contains(line), "{line} in\n{}", frame.trace);
    }
    assert_round_trip(&frame);
}
