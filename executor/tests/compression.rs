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
    imm.set_compute_unordered_access_views(0, &[Some(f.rt_uav)]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CompressedRead);
    assert!(error.to_string().contains("'rt_uav'"), "{error}");
    imm.set_render_targets_and_unordered_access_views(&[None], None, 1, &[Some(f.rt_uav)]);
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
    let error = imm
        .execute_command_list(&list, RestoreState::ClearState)
        .unwrap_err();
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

// ----- R-ST-9: texture-compatible targets -------------------------------------------------------

#[test]
fn r_st_9_a_tc_srv_bind_needs_no_decompression_and_makes_no_split_point() {
    let f = Fixture::new();
    let (tc, tc_rtv, tc_srv, tc_uav) = tc_target(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(tc_rtv, [0.0; 4]);
    imm.set_shader(Stage::Pixel, Some(f.ps));
    imm.set_shader_resources(Stage::Pixel, 0, &[Some(tc_srv)]);
    imm.draw(3, 0);
    assert_eq!(
        imm.counters().decompressions,
        0,
        "read in its compressed form"
    );
    assert!(imm.resource_compression(tc));
    imm.sync_gpu();
    assert_eq!(shown(imm.gpu(), 0, "ps.srv.0.compressed"), "yes");
    // A legacy list: no decompression split point for the SRV, one for the UAV.
    let list = f.legacy(|c| {
        c.set_shader_resources(Stage::Pixel, 0, &[Some(tc_srv)]);
        c.set_compute_unordered_access_views(0, &[Some(tc_uav)]);
    });
    assert_eq!(list.stats().split_points[SplitCategory::Decompression], 1);
    // A UAV bind still decompresses it (legacy immediate).
    imm.set_compute_unordered_access_views(0, &[Some(tc_uav)]);
    assert_eq!(imm.counters().decompressions, 1);
    assert!(!imm.resource_compression(tc));
}

#[test]
fn r_st_9_a_tc_srv_of_a_compressed_target_is_no_compressed_read_its_uav_is() {
    let f = Fixture::validated(Semantics::Fast);
    let (_, tc_rtv, tc_srv, tc_uav) = tc_target(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(tc_rtv, [0.0; 4]);
    imm.set_shader_resources(Stage::Pixel, 0, &[Some(tc_srv)]);
    imm.flush().expect("a tc target is read compressed");
    imm.set_compute_unordered_access_views(0, &[Some(tc_uav)]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CompressedRead);
    assert!(error.to_string().contains("'tc_uav'"), "{error}");
}

// ----- R-ST-9: fast, a bound target's change of compression is seen after a re-bind ------------

/// Binds `rt` to the output merger, then `change`s its compression while it is bound, then
/// (`rebind`) binds it again, then draws to it; returns whether it is compressed after the draw.
fn compressed_after_draw(
    semantics: Semantics,
    rebind: bool,
    start_compressed: bool,
    change: impl Fn(&Fixture, &mut ImmediateContext),
) -> bool {
    let f = Fixture::with_immediate(semantics);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    if start_compressed {
        imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    }
    imm.set_render_targets(&[Some(f.rt_rtv)], None);
    change(&f, &mut imm);
    if rebind {
        imm.set_render_targets(&[Some(f.rt_rtv)], None);
    }
    imm.draw(3, 0);
    imm.resource_compression(f.rt)
}

#[test]
fn r_st_9_fast_a_clear_of_a_bound_target_is_seen_only_after_a_rebind() {
    let clear =
        |f: &Fixture, imm: &mut ImmediateContext| imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    assert!(
        !compressed_after_draw(Semantics::Fast, false, false, clear),
        "fast, not bound again: the draw went through the view as it was bound"
    );
    assert!(compressed_after_draw(Semantics::Fast, true, false, clear));
    assert!(
        compressed_after_draw(Semantics::Legacy, false, false, clear),
        "legacy updates the bound view itself"
    );
}

#[test]
fn r_st_9_fast_a_decompression_of_a_bound_target_is_seen_only_after_a_rebind() {
    let decompress = |f: &Fixture, imm: &mut ImmediateContext| imm.decompress_resource(f.rt, None);
    assert!(
        compressed_after_draw(Semantics::Fast, false, true, decompress),
        "fast, not bound again: the draw wrote it compressed again"
    );
    assert!(!compressed_after_draw(
        Semantics::Fast,
        true,
        true,
        decompress
    ));
    assert!(!compressed_after_draw(
        Semantics::Legacy,
        false,
        true,
        decompress
    ));
}
