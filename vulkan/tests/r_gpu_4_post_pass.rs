//! R-GPU-4, a post pass: a quad drawn into a texture of the frame, then that texture sampled
//! by a full-screen pass onto the back buffer (the backend moves it from attachment to sampled
//! layout between the passes); under the validation layer with synchronization validation.

mod common;

use common::*;
use recorder::*;

#[test]
fn r_gpu_4_a_post_pass_samples_the_frames_target() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let back_buffer = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let scene = gpu
        .device
        .create_texture(&TextureDesc {
            name: "scene",
            format: Format::R8G8B8A8Unorm,
            width: 32,
            height: 32,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let scene_rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("scene.rtv", scene))
        .unwrap();
    let scene_srv = gpu
        .device
        .create_shader_resource_view(&ViewDesc::new("scene.srv", scene))
        .unwrap();
    let (vs, colour_ps) = (gpu.quad_vs(), gpu.colour_ps());
    let sample_ps = gpu.sample_ps();
    let point = gpu
        .device
        .create_sampler_state_with(
            "point",
            &SamplerDesc {
                linear: false,
                ..Default::default()
            },
        )
        .unwrap();
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);

    // The scene: a green quad in the middle of a red target.
    gpu.imm
        .clear_render_target_view(scene_rtv, [1.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(scene_rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(colour_ps));
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(green)]);
    gpu.imm.draw(6, 0);
    // The post pass: the scene sampled over the whole back buffer.
    gpu.imm.set_render_targets(&[Some(back_buffer)], None);
    gpu.imm.set_shader(Stage::Pixel, Some(sample_ps));
    gpu.imm
        .set_shader_resources(Stage::Pixel, 0, &[Some(scene_srv)]);
    gpu.imm.set_samplers(Stage::Pixel, 0, &[Some(point)]);
    gpu.imm.draw(6, 6);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();

    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(8, 8), (16, 16), (23, 23)] {
        assert_eq!(
            texel(&pixels, x, y),
            [0, 255, 0, 255],
            "the scene's quad, ({x}, {y})"
        );
    }
    for (x, y) in [(0, 0), (31, 31), (7, 16)] {
        assert_eq!(
            texel(&pixels, x, y),
            [255, 0, 0, 255],
            "the scene's clear, ({x}, {y})"
        );
    }
    let scene_pixels = gpu.backend().read_texture(scene).unwrap();
    assert_eq!(
        scene_pixels, pixels,
        "the back buffer is the scene, texel for texel"
    );
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}

/// D3D11 reads zeros from an empty slot: a quad sampling an empty shader-resource slot, and one
/// reading an empty constant-buffer slot, both draw transparent black over a red clear.
#[test]
fn r_gpu_4_empty_slots_read_zeros() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, colour_ps) = (gpu.quad_vs(), gpu.colour_ps());
    let sample_ps = gpu.sample_ps();
    gpu.imm.clear_render_target_view(rtv, [1.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(sample_ps));
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm.draw(6, 6);
    gpu.imm.set_shader(Stage::Pixel, Some(colour_ps));
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 16.0)]);
    gpu.imm.draw(6, 6);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    assert_eq!(
        texel(&pixels, 8, 8),
        [0, 0, 0, 0],
        "an empty shader-resource slot"
    );
    assert_eq!(
        texel(&pixels, 24, 8),
        [0, 0, 0, 0],
        "an empty constant-buffer slot"
    );
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}
