//! R-GPU-4, blend states' D3D11 fields (R-GPU-2) in the pipeline and the blend factor as
//! dynamic state: a white quad blended by the blend factor over a black target, then a
//! half-transparent one blended by its alpha; a scissor rectangle (rasterizer field) clips.

mod common;

use common::*;
use recorder::*;

#[test]
fn r_gpu_4_blend_factor_alpha_blend_and_scissor() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let blend = |src, dest| {
        let mut desc = BlendDesc::default();
        desc.targets[0] = TargetBlend {
            enable: true,
            src,
            dest,
            src_alpha: BlendFactor::One,
            dest_alpha: BlendFactor::Zero,
            ..TargetBlend::default()
        };
        desc
    };
    let by_factor = gpu
        .device
        .create_blend_state_with("by_factor", &blend(BlendFactor::Factor, BlendFactor::Zero))
        .unwrap();
    let by_alpha = gpu
        .device
        .create_blend_state_with(
            "by_alpha",
            &blend(BlendFactor::SrcAlpha, BlendFactor::InvSrcAlpha),
        )
        .unwrap();
    let scissored = gpu
        .device
        .create_rasterizer_state_with(
            "scissored",
            &RasterizerDesc {
                scissor: true,
                ..Default::default()
            },
        )
        .unwrap();
    let white = gpu.colour_buffer("white", Usage::Default, [1.0, 1.0, 1.0, 1.0]);
    let half_red = gpu.colour_buffer("half red", Usage::Default, [1.0, 0.0, 0.0, 0.5]);

    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    // The left half: white times the blend factor.
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_blend_state(Some(by_factor), [0.25, 0.5, 0.75, 1.0], u32::MAX);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(white)]);
    gpu.imm.draw(6, 6);
    // The right half: half-transparent red over black, scissored to its top half.
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 16.0)]);
    gpu.imm.set_blend_state(Some(by_alpha), [1.0; 4], u32::MAX);
    gpu.imm.set_rasterizer_state(Some(scissored));
    gpu.imm.set_scissor_rects(&[Rect {
        left: 16,
        top: 0,
        right: 32,
        bottom: 8,
    }]);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(half_red)]);
    gpu.imm.draw(6, 6);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();

    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    let near =
        |got: [u8; 4], want: [u8; 3]| got[..3].iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 1);
    assert!(
        near(texel(&pixels, 8, 8), [64, 128, 191]),
        "{:?}",
        texel(&pixels, 8, 8)
    );
    assert!(
        near(texel(&pixels, 24, 4), [128, 0, 0]),
        "{:?}",
        texel(&pixels, 24, 4)
    );
    assert_eq!(
        texel(&pixels, 24, 12),
        [0, 0, 0, 255],
        "outside the scissor"
    );
    gpu.assert_clean();
}
