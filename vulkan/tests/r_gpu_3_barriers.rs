//! R-GPU-3, enhanced barriers (§9) one for one: on a fast-semantics immediate context the
//! application moves a texture it rendered from render target to shader resource with one
//! `barrier`; the backend records it as one Vulkan barrier, and the post pass that samples the
//! texture needs no transition of its own.

mod common;

use common::*;
use recorder::*;

fn target(gpu: &Gpu, name: &str) -> (Texture, RenderTargetView, ShaderResourceView) {
    let texture = gpu
        .device
        .create_texture(&TextureDesc {
            name,
            format: Format::R8G8B8A8Unorm,
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
    let srv = gpu
        .device
        .create_shader_resource_view(&ViewDesc::new(name, texture))
        .unwrap();
    (texture, rtv, srv)
}

#[test]
fn r_gpu_3_an_enhanced_barrier_is_one_vulkan_barrier() {
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let (scene, scene_rtv, scene_srv) = target(&gpu, "scene");
    let (post, post_rtv, _) = target(&gpu, "post");
    let (vs, colour_ps) = (gpu.quad_vs(), gpu.colour_ps());
    let sample_ps = gpu.sample_ps();
    let yellow = gpu.colour_buffer("yellow", Usage::Default, [1.0, 1.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(scene_rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(colour_ps));
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(yellow)]);
    gpu.imm.draw(6, 6);
    gpu.imm.flush().unwrap();
    let before = gpu.backend().barrier_counts();

    gpu.imm.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
        sync_before: BarrierSync::RENDER_TARGET,
        sync_after: BarrierSync::PIXEL_SHADING,
        access_before: BarrierAccess::RENDER_TARGET,
        access_after: BarrierAccess::SHADER_RESOURCE,
        layout_before: BarrierLayout::RenderTarget,
        layout_after: BarrierLayout::ShaderResource,
        resource: scene.into(),
        subresources: BarrierSubresources::ALL,
        discard: false,
    }])]);
    gpu.imm.set_render_targets(&[Some(post_rtv)], None);
    gpu.imm.set_shader(Stage::Pixel, Some(sample_ps));
    gpu.imm
        .set_shader_resources(Stage::Pixel, 0, &[Some(scene_srv)]);
    gpu.imm.draw(6, 6);
    gpu.imm.flush().unwrap();
    let after = gpu.backend().barrier_counts();
    assert_eq!(
        after.explicit - before.explicit,
        1,
        "the application's barrier, once"
    );
    assert_eq!(
        after.implicit - before.implicit,
        1,
        "only the post target's first use: the scene was moved by the application's barrier"
    );
    let pixels = gpu.backend().read_texture(post).unwrap();
    assert_eq!(
        texel(&pixels, 8, 8),
        [255, 255, 0, 255],
        "the scene, sampled"
    );
    gpu.assert_clean();
}
