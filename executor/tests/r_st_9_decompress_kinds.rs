//! R-ST-9, R-BAR-3, R-V-1 in the GPU model (seed 000): a decompression limited to some
//! kinds leaves the target partly compressed until its last kind goes; one limited to a region
//! that leaves part of the resource out leaves it compressed (the model tracks compression per
//! resource) and one covering it decompresses it; into a second resource keeps the source
//! compressed; legacy semantics decompresses a compressed texture it copies or presents, counted,
//! and fast semantics does not (validation reports it).

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

fn target(
    f: &Fixture,
    name: &'static str,
    desc: TextureDesc<'static>,
) -> (Texture, RenderTargetView) {
    let texture = f
        .device
        .create_texture(&TextureDesc { name, ..desc })
        .unwrap();
    let rtv = f
        .device
        .create_render_target_view(&ViewDesc::new(name, texture))
        .unwrap();
    (texture, rtv)
}

fn color() -> TextureDesc<'static> {
    TextureDesc {
        name: "",
        format: Format::R8G8B8A8Unorm,
        width: 64,
        height: 64,
        bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
        ..Default::default()
    }
}

fn decompressions(imm: &mut ImmediateContext) -> u64 {
    imm.counters().decompressions
}

#[test]
fn r_st_9_decompressing_some_colour_kinds_leaves_the_target_partly_compressed() {
    let f = Fixture::new();
    let (msaa, rtv) = target(
        &f,
        "msaa",
        TextureDesc {
            sample_count: 4,
            dcc: true,
            ..color()
        },
    );
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.decompress_resource_x(msaa, None, DecompressKinds::FMASK, None);
    assert!(imm.resource_compression(msaa), "clear and DCC are left");
    assert_eq!(
        imm.gpu().compressed_kinds(msaa.raw()),
        Some(DecompressKinds::CLEAR.union(DecompressKinds::DCC))
    );
    assert_eq!(decompressions(&mut imm), 1);
    // FMask again: nothing left of it, nothing done.
    imm.decompress_resource_x(msaa, None, DecompressKinds::FMASK, None);
    assert_eq!(decompressions(&mut imm), 1);
    imm.decompress_resource_x(msaa, None, DecompressKinds::DCC, None);
    assert!(imm.resource_compression(msaa));
    imm.decompress_resource_x(msaa, None, DecompressKinds::CLEAR, None);
    assert!(
        !imm.resource_compression(msaa),
        "the last kind decompresses it"
    );
    assert_eq!(imm.gpu().compressed_kinds(msaa.raw()), None);
    assert_eq!(decompressions(&mut imm), 3);
    // A clear compresses every kind again.
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.flush().unwrap();
    assert_eq!(
        imm.gpu().compressed_kinds(msaa.raw()),
        Some(DecompressKinds::COLOR)
    );
}

#[test]
fn r_st_9_depth_and_stencil_kinds_decompress_one_plane_each() {
    let f = Fixture::new();
    let depth = f
        .device
        .create_texture(&TextureDesc {
            name: "d24s8",
            format: Format::D24UnormS8Uint,
            width: 64,
            height: 64,
            bind: BindFlags::DEPTH_STENCIL,
            ..Default::default()
        })
        .unwrap();
    let dsv = f
        .device
        .create_depth_stencil_view(&ViewDesc::new("d24s8_dsv", depth))
        .unwrap();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_depth_stencil_view(dsv, ClearFlags::DEPTH_STENCIL, 1.0, 0);
    imm.decompress_resource_x(depth, None, DecompressKinds::STENCIL, None);
    imm.flush().unwrap();
    let state = imm.gpu().texture_state(depth.raw());
    assert_eq!(
        (
            state.compressed,
            state.depth_compressed,
            state.stencil_compressed
        ),
        (true, Some(true), Some(false))
    );
    imm.decompress_resource_x(depth, None, DecompressKinds::DEPTH, None);
    imm.flush().unwrap();
    let state = imm.gpu().texture_state(depth.raw());
    assert_eq!(
        (
            state.compressed,
            state.depth_compressed,
            state.stencil_compressed
        ),
        (false, Some(false), Some(false))
    );
    assert_eq!(decompressions(&mut imm), 2);
}

#[test]
fn r_st_9_a_partial_region_leaves_the_resource_compressed_and_a_whole_one_decompresses_it() {
    let f = Fixture::new();
    let (texture, rtv) = target(&f, "color", color());
    let (mips, mips_rtv) = target(
        &f,
        "mips",
        TextureDesc {
            mip_levels: 2,
            ..color()
        },
    );
    let all = DecompressKinds::ALL;
    let region = |subresource, right, bottom| {
        Some(DecompressRegion {
            subresource,
            rect: CopyBox {
                left: 0,
                top: 0,
                right,
                bottom,
            },
        })
    };
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.decompress_resource_x(texture, None, all, region(0, 32, 64));
    assert!(imm.resource_compression(texture), "half of it");
    assert_eq!(decompressions(&mut imm), 1, "the region was decompressed");
    imm.decompress_resource_x(texture, None, all, region(0, 64, 64));
    assert!(!imm.resource_compression(texture), "all of it");
    assert_eq!(decompressions(&mut imm), 2);
    // Every texel of one mip of two is not the whole resource.
    imm.clear_render_target_view(mips_rtv, [0.0; 4]);
    imm.decompress_resource_x(mips, None, all, region(0, 64, 64));
    assert!(imm.resource_compression(mips));
    // A region of an uncompressed texture does nothing.
    imm.decompress_resource_x(texture, None, all, region(0, 8, 8));
    assert_eq!(decompressions(&mut imm), 3);
}

#[test]
fn r_st_9_decompressing_into_a_second_resource_keeps_the_source_compressed() {
    let f = Fixture::new();
    let (source, rtv) = target(&f, "source", color());
    let (copy, copy_rtv) = target(&f, "copy", color());
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.clear_render_target_view(copy_rtv, [0.0; 4]);
    imm.decompress_resource_x(source, Some(copy), DecompressKinds::ALL, None);
    assert!(
        imm.resource_compression(source),
        "the original stays compressed"
    );
    assert!(!imm.resource_compression(copy), "written decompressed");
    assert_eq!(decompressions(&mut imm), 1);
}

#[test]
fn r_st_9_legacy_copies_decompress_a_compressed_source_or_destination() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    // Source, destination, a region copy, and a legacy list's copy: each decompresses.
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    imm.copy_resource(f.rt_plain, f.rt);
    assert!(!imm.resource_compression(f.rt));
    assert_eq!(decompressions(&mut imm), 1);
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    imm.copy_resource(f.rt, f.rt_plain);
    assert!(!imm.resource_compression(f.rt));
    let quarter = CopyBox {
        left: 0,
        top: 0,
        right: 8,
        bottom: 8,
    };
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    imm.copy_texture_region(f.rt_plain, 0, 0, 0, f.rt, 0, quarter);
    assert!(!imm.resource_compression(f.rt));
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    let list = f.legacy(|c| c.copy_resource(f.rt_plain, f.rt));
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert!(!imm.resource_compression(f.rt));
    assert_eq!(decompressions(&mut imm), 4);
    // A fast list's copy decompresses nothing: that is the application's task.
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    let list = f.fast(|c| c.copy_resource(f.rt_plain, f.rt));
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert!(imm.resource_compression(f.rt));
    assert_eq!(decompressions(&mut imm), 4);
}

#[test]
fn r_st_9_a_legacy_present_decompresses_a_compressed_back_buffer() {
    let f = Fixture::new();
    let chain = swap_chain(&f);
    let (back_buffer, rtv) = f.device.swap_chain_info(chain).unwrap().buffers[0];
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(rtv, [0.0; 4]);
    assert!(imm.resource_compression(back_buffer));
    imm.present(chain).unwrap();
    assert!(
        !imm.resource_compression(back_buffer),
        "decompressed by the present"
    );
    assert_eq!(decompressions(&mut imm), 1);
}

#[test]
fn r_v_1_a_fast_present_decompresses_nothing_and_validation_reports_it() {
    let f = Fixture::validated(Semantics::Fast);
    let chain = swap_chain(&f);
    let (back_buffer, rtv) = f.device.swap_chain_info(chain).unwrap().buffers[0];
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.insert_wait_on_present(chain);
    imm.clear_render_target_view(rtv, [0.0; 4]);
    let error = imm.present(chain).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CompressedRead);
    assert!(imm.resource_compression(back_buffer), "left as it was");
    assert_eq!(decompressions(&mut imm), 0);
    // A fast copy of a compressed target: reported, not decompressed.
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    imm.copy_resource(f.rt_plain, f.rt);
    assert_eq!(imm.flush().unwrap_err().kind(), ErrorKind::CompressedRead);
    assert!(imm.resource_compression(f.rt));
    assert_eq!(decompressions(&mut imm), 0);
}
