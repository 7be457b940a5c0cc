//! Compression end to end (R-ST-9, R-V-1, R-SP-2): what validation reports about still-compressed
//! targets (at the bind of a view, at a copy, at a present), texture-compatible targets, and the
//! fast-semantics rule that a bound render target's change of compression is seen only after it
//! is bound again.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

/// A texture-compatible compressible render target with an RTV, an SRV and a UAV.
fn tc_target(
    f: &Fixture,
) -> (
    Texture,
    RenderTargetView,
    ShaderResourceView,
    UnorderedAccessView,
) {
    let texture = f
        .device
        .create_texture(&TextureDesc {
            name: "tc",
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET
                | BindFlags::SHADER_RESOURCE
                | BindFlags::UNORDERED_ACCESS,
            texture_compatible: true,
            ..Default::default()
        })
        .unwrap();
    let view = |name| ViewDesc::new(name, texture);
    (
        texture,
        f.device.create_render_target_view(&view("tc_rtv")).unwrap(),
        f.device
            .create_shader_resource_view(&view("tc_srv"))
            .unwrap(),
        f.device
            .create_unordered_access_view(&view("tc_uav"))
            .unwrap(),
    )
}

// ----- R-V-1: where a still-compressed target is reported ---------------------------------------

#[test]
fn r_v_1_compressed_read_is_reported_at_the_bind_whether_or_not_a_shader_reads_the_slot() {
    let f = Fixture::validated(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    imm.flush().unwrap();
    // No shader reads slot 1 of any stage, and nothing draws.
    imm.set_shader_resources(Stage::Pixel, 1, &[Some(f.rt_srv)]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CompressedRead);
    let message = error.to_string();
    for part in ["'rt_srv'", "set_shader_resources", "decompress_resource"] {
        assert!(message.contains(part), "{part}: {message}");
    }
    // Reported once, by the bind: the draw that reads it is not reported again.
    imm.set_shader(Stage::Pixel, Some(f.ps));
    imm.draw(3, 0);
    imm.flush().expect("the bind reported it");
    // A UAV bind too, and the output merger's UAVs.
    imm.cs_set_unordered_access_views(0, &[Some(f.rt_uav)]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CompressedRead);
    assert!(error.to_string().contains("'rt_uav'"), "{error}");
    imm.om_set_render_targets_and_unordered_access_views(&[None], None, 1, &[Some(f.rt_uav)]);
    assert_eq!(imm.flush().unwrap_err().kind(), ErrorKind::CompressedRead);
    // Several views of compressed targets in one call: one report.
    imm.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0);
    imm.set_shader_resources(Stage::Vertex, 0, &[Some(f.rt_srv), Some(f.ds_srv)]);
    assert_eq!(imm.flush().unwrap_err().kind(), ErrorKind::CompressedRead);
    imm.flush().expect("nothing more");
    // Decompressed first: nothing to report.
    imm.decompress_resource(f.rt, None);
    imm.set_shader_resources(Stage::Pixel, 1, &[Some(f.rt_srv)]);
    imm.flush().expect("decompressed first");
}

#[test]
fn r_v_1_compressed_read_in_a_fast_list_is_reported_by_its_execution() {
    let f = Fixture::validated(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    let list = f.fast(|c| c.set_shader_resources(Stage::Compute, 5, &[Some(f.rt_srv)]));
    let error = imm.execute_command_list(&list, false).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CompressedRead);
}

#[test]
fn r_v_1_a_copy_from_or_to_a_still_compressed_target_is_reported() {
    let f = Fixture::validated(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    imm.flush().unwrap();
    for (destination, source) in [(f.tex, f.rt), (f.rt, f.tex)] {
        imm.copy_resource(destination, source);
        let error = imm.flush().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::CompressedRead, "{error}");
        let message = error.to_string();
        for part in ["'rt'", "copy_resource", "decompress_resource"] {
            assert!(message.contains(part), "{part}: {message}");
        }
    }
    imm.decompress_resource(f.rt, None);
    imm.copy_resource(f.tex, f.rt);
    imm.flush().expect("decompressed first");
}

#[test]
fn r_v_1_presenting_a_still_compressed_back_buffer_is_reported() {
    let f = Fixture::validated(Semantics::Fast);
    let chain = swap_chain(&f);
    let (back_buffer, rtv) = f.device.swap_chain_info(chain).unwrap().buffers[0];
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.insert_wait_on_present(chain);
    imm.clear_render_target_view(rtv, [0.0; 4]);
    let error = imm.present(chain).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CompressedRead);
    let message = error.to_string();
    for part in ["'chain.0'", "present", "decompress_resource"] {
        assert!(message.contains(part), "{part}: {message}");
    }
    // The next frame: decompressed before the present, nothing to report.
    let (next, next_rtv) = f.device.swap_chain_info(chain).unwrap().buffers[1];
    imm.insert_wait_on_present(chain);
    imm.clear_render_target_view(next_rtv, [0.0; 4]);
    imm.decompress_resource(next, None);
    imm.present(chain).expect("decompressed first");
    let _ = back_buffer;
}
