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
    gpu.imm.clear_render_target_view(copy_rtv, [1.0, 0.0, 0.0, 1.0]);
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
