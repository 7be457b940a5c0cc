//! R-GPU-3, `copy_texture_region` as `vkCmdCopyImage`: a quadrant of a drawn picture copied into
//! another texture, and within one texture (the `GENERAL` layout for both ends), checked by
//! pixels read back; under the validation layer.

mod common;

use common::*;
use recorder::*;

const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const RED: [u8; 4] = [255, 0, 0, 255];

/// A 16 x 16 RGBA8 render target and its view.
fn target(gpu: &Gpu, name: &str) -> (Texture, RenderTargetView) {
    let texture = gpu
        .device
        .create_texture(&TextureDesc {
            name,
            width: 16,
            height: 16,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new(name, texture))
        .unwrap();
    (texture, rtv)
}

/// Blue with a green quad over the middle half (texels 4..12), drawn into `rtv`.
fn draw_picture(gpu: &mut Gpu, rtv: RenderTargetView) {
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(green)]);
    gpu.imm.draw(6, 0);
    gpu.imm.set_render_targets(&[], None);
}

const BOTTOM_RIGHT: CopyBox = CopyBox {
    left: 8,
    top: 8,
    right: 16,
    bottom: 16,
};

#[test]
fn r_gpu_3_a_quadrant_copied_into_another_texture() {
    let Some(mut gpu) = gpu() else { return };
    let (picture, picture_rtv) = target(&gpu, "picture");
    let (copy, copy_rtv) = target(&gpu, "copy");
    draw_picture(&mut gpu, picture_rtv);
    gpu.imm
        .clear_render_target_view(copy_rtv, [1.0, 0.0, 0.0, 1.0]);
    gpu.imm
        .copy_texture_region(copy, 0, 0, 0, picture, 0, BOTTOM_RIGHT);
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().read_texture(copy).unwrap();
    for y in 0..16 {
        for x in 0..16 {
            let want = match (x, y) {
                (0..4, 0..4) => GREEN,
                (0..8, 0..8) => BLUE,
                _ => RED,
            };
            assert_eq!(texel(&pixels, x, y), want, "({x}, {y})");
        }
    }
    assert_eq!(gpu.backend().untranslated_commands(), 0);
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_a_quadrant_copied_within_one_texture() {
    let Some(mut gpu) = gpu() else { return };
    let (picture, picture_rtv) = target(&gpu, "picture");
    draw_picture(&mut gpu, picture_rtv);
    // The bottom-right quadrant (green 8..12, blue 12..16) onto the top-left one.
    gpu.imm
        .copy_texture_region(picture, 0, 0, 0, picture, 0, BOTTOM_RIGHT);
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().read_texture(picture).unwrap();
    for y in 0..16 {
        for x in 0..16 {
            let drawn = (4..12).contains(&x) && (4..12).contains(&y);
            let want = match (x, y) {
                (0..4, 0..4) => GREEN,
                (0..8, 0..8) => BLUE,
                _ if drawn => GREEN,
                _ => BLUE,
            };
            assert_eq!(texel(&pixels, x, y), want, "({x}, {y})");
        }
    }
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_region_copies_within_a_size_class_and_refused_across() {
    let Some(mut gpu) = gpu() else { return };
    let (picture, picture_rtv) = target(&gpu, "picture");
    draw_picture(&mut gpu, picture_rtv);
    let texture = |gpu: &Gpu, name, format| {
        gpu.device
            .create_texture(&TextureDesc {
                name,
                format,
                width: 16,
                height: 16,
                bind: BindFlags::NONE,
                ..Default::default()
            })
            .unwrap()
    };
    // r8g8b8a8 into r32_uint (both 4 bytes a texel): the texels' bytes, reinterpreted.
    let words = texture(&gpu, "words", Format::R32Uint);
    gpu.imm
        .copy_texture_region(words, 0, 0, 0, picture, 0, BOTTOM_RIGHT);
    {
        let mapped = gpu.imm.map(words, MapType::Read, MapFlags::None).unwrap();
        let pitch = mapped.row_pitch();
        assert_eq!(mapped[..4], GREEN, "(0, 0)");
        assert_eq!(mapped[3 * pitch + 16..3 * pitch + 20], BLUE, "(4, 3)");
    }
    gpu.imm.flush().unwrap();
    // r8g8b8a8 into r16g16b16a16_float (8 bytes a texel): refused, naming the destination.
    let wide = texture(&gpu, "wide", Format::R16G16B16A16Float);
    gpu.imm
        .copy_texture_region(wide, 0, 0, 0, picture, 0, BOTTOM_RIGHT);
    let error = gpu.imm.flush().unwrap_err();
    assert!(
        matches!(&error, Error::GpuBackend { call: "copy_texture_region", object, problem }
            if object.contains("wide") && problem.contains("size class")),
        "{error}"
    );
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_a_block_compressed_region_copy_moves_whole_blocks() {
    let Some(mut gpu) = gpu() else { return };
    // 16 x 8 texels of bc1: 4 x 2 blocks of 8 bytes, block i filled with byte i + 1.
    let blocks: Vec<u8> = (0..8u8).flat_map(|i| [i + 1; 8]).collect();
    let desc = |name| TextureDesc {
        name,
        format: Format::Bc1Unorm,
        width: 16,
        height: 8,
        bind: BindFlags::NONE,
        ..Default::default()
    };
    let source = gpu
        .device
        .create_texture_with_data(&desc("source"), &blocks)
        .unwrap();
    let staging = gpu.device.create_texture(&desc("staging")).unwrap();
    gpu.imm
        .map(staging, MapType::Write, MapFlags::None)
        .unwrap()
        .fill(0);
    // Blocks 1 and 2 of the top row onto blocks 0 and 1 of the bottom one.
    let two_blocks = CopyBox {
        left: 4,
        top: 0,
        right: 12,
        bottom: 4,
    };
    gpu.imm
        .copy_texture_region(staging, 0, 0, 4, source, 0, two_blocks);
    {
        let mapped = gpu.imm.map(staging, MapType::Read, MapFlags::None).unwrap();
        assert_eq!((mapped.row_pitch(), mapped.len()), (32, 64));
        let mut want = [0u8; 64];
        want[32..40].fill(2);
        want[40..48].fill(3);
        assert_eq!(&mapped[..], &want[..]);
    }
    gpu.imm.flush().unwrap();
    gpu.assert_clean();
}
