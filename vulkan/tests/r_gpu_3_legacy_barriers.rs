//! R-GPU-3, legacy barriers through the equivalence table (§9, R-BAR-6): on a legacy immediate
//! context the application moves mip 0 of a two-mip texture (subresource 0 alone) from `common`
//! to `render_target`, draws into it, and moves it to `pixel_shader_resource` with legacy
//! `resource_barrier` transitions; a post pass samples it. The backend records each transition as
//! the Vulkan barrier of its equivalent enhanced barrier (sync, access, layout, subresource) and
//! adds a transition of its own only for the post target, which no barrier named. Split, the
//! second transition is recorded once, at its begin.

mod common;

use common::*;
use recorder::*;

fn transition(texture: Texture, before: ResourceStates, after: ResourceStates) -> ResourceBarrier {
    split_transition(texture, before, after, SplitHalf::None)
}

fn split_transition(
    texture: Texture,
    before: ResourceStates,
    after: ResourceStates,
    split: SplitHalf,
) -> ResourceBarrier {
    ResourceBarrier::Transition {
        resource: texture.into(),
        before,
        after,
        subresource: Some(0),
        split,
    }
}

#[test]
fn r_gpu_3_legacy_transitions_are_the_vulkan_barriers_of_their_equivalents() {
    legacy_frame(false);
}

/// The same frame with the render target → shader resource transition split: recorded at its
/// begin (where the model runs it), its end adding nothing.
#[test]
fn r_gpu_3_a_split_legacy_transition_is_one_vulkan_barrier_at_its_begin() {
    legacy_frame(true);
}

fn legacy_frame(split: bool) {
    let Some(mut gpu) = gpu() else { return };
    let scene = gpu
        .device
        .create_texture(&TextureDesc {
            name: "scene",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            mip_levels: 2,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let mip0 = SubresourceRange {
        first_mip: 0,
        mip_count: 1,
        ..SubresourceRange::ALL
    };
    let scene_rtv = gpu
        .device
        .create_render_target_view(&ViewDesc {
            range: mip0,
            ..ViewDesc::new("scene.rtv", scene)
        })
        .unwrap();
    let scene_srv = gpu
        .device
        .create_shader_resource_view(&ViewDesc {
            range: mip0,
            ..ViewDesc::new("scene.srv", scene)
        })
        .unwrap();
    let post = gpu
        .device
        .create_texture(&TextureDesc {
            name: "post",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .unwrap();
    let post_rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("post.rtv", post))
        .unwrap();
    let (vs, colour_ps) = (gpu.quad_vs(), gpu.colour_ps());
    let sample_ps = gpu.sample_ps();
    let cyan = gpu.colour_buffer("cyan", Usage::Default, [0.0, 1.0, 1.0, 1.0]);
    let before = gpu.backend().barrier_counts();

    gpu.imm.resource_barrier(&[transition(
        scene,
        ResourceStates::COMMON,
        ResourceStates::RENDER_TARGET,
    )]);
    gpu.imm.set_render_targets(&[Some(scene_rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(colour_ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cyan)]);
    gpu.imm.draw(6, 6);
    let (rt, ps) = (
        ResourceStates::RENDER_TARGET,
        ResourceStates::PIXEL_SHADER_RESOURCE,
    );
    if split {
        gpu.imm
            .resource_barrier(&[split_transition(scene, rt, ps, SplitHalf::Begin)]);
        gpu.imm
            .clear_render_target_view(post_rtv, [0.0, 0.0, 0.0, 1.0]);
        gpu.imm
            .resource_barrier(&[split_transition(scene, rt, ps, SplitHalf::End)]);
    } else {
        gpu.imm.resource_barrier(&[transition(scene, rt, ps)]);
        gpu.imm
            .clear_render_target_view(post_rtv, [0.0, 0.0, 0.0, 1.0]);
    }
    gpu.imm.set_render_targets(&[Some(post_rtv)], None);
    gpu.imm.set_shader(Stage::Pixel, Some(sample_ps));
    gpu.imm
        .set_shader_resources(Stage::Pixel, 0, &[Some(scene_srv)]);
    gpu.imm.draw(6, 0);
    gpu.imm.flush().unwrap();
    let after = gpu.backend().barrier_counts();
    assert_eq!(
        after.explicit - before.explicit,
        2,
        "each legacy transition, once"
    );
    assert_eq!(
        after.implicit - before.implicit,
        1,
        "only the post target's first use (its clear folded into the pass): the scene's layouts were the transitions'"
    );
    let pixels = gpu.backend().read_texture(post).unwrap();
    assert_eq!(
        texel(&pixels, 8, 8),
        [0, 255, 255, 255],
        "the scene, sampled"
    );
    assert_eq!(
        texel(&pixels, 1, 1),
        [0, 0, 0, 255],
        "the post target's clear, outside its quad"
    );
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}
