//! R-GPU-3, barriers of part of an image: a texture of two mips, mip 0 rendered (a yellow
//! square on blue), moved to shader resource by a barrier of mip 0 alone, then sampled through
//! a view of mip 0 while mip 1 is the render target of the same draw (a downsample); mip 1 is
//! then moved by a barrier of its own and sampled into a third target, read back. Each mip is in
//! its own Vulkan layout at the same time: the backend tracks layouts per subresource once a
//! barrier or a view splits the image, and transitions exactly the subresources each use names.

mod common;

use common::*;
use recorder::*;

/// A barrier of mip `mip` of `texture` alone.
fn mip_barrier(
    texture: Texture,
    mip: u16,
    before: (BarrierSync, BarrierAccess, BarrierLayout),
    after: (BarrierSync, BarrierAccess, BarrierLayout),
) -> TextureBarrier {
    TextureBarrier {
        sync_before: before.0,
        sync_after: after.0,
        access_before: before.1,
        access_after: after.1,
        layout_before: before.2,
        layout_after: after.2,
        resource: texture.into(),
        subresources: BarrierSubresources {
            mips: Span::new(mip, mip),
            ..BarrierSubresources::ALL
        },
        discard: false,
    }
}

const RENDER: (BarrierSync, BarrierAccess, BarrierLayout) = (
    BarrierSync::RENDER_TARGET,
    BarrierAccess::RENDER_TARGET,
    BarrierLayout::RenderTarget,
);
const SAMPLED: (BarrierSync, BarrierAccess, BarrierLayout) = (
    BarrierSync::PIXEL_SHADING,
    BarrierAccess::SHADER_RESOURCE,
    BarrierLayout::ShaderResource,
);

fn view_of_mip(mip: u32) -> SubresourceRange {
    SubresourceRange {
        first_mip: mip,
        mip_count: 1,
        ..SubresourceRange::ALL
    }
}

/// A texture of two mips with a render-target and a shader-resource view of each, an 8x8
/// target `out`, and the shaders.
struct Mips {
    texture: Texture,
    out: Texture,
    rtv0: RenderTargetView,
    rtv1: RenderTargetView,
    srv0: ShaderResourceView,
    srv1: ShaderResourceView,
    out_rtv: RenderTargetView,
    vs: Shader,
    colour_ps: Shader,
    sample_ps: Shader,
}

fn mips(gpu: &Gpu) -> Mips {
    let texture = gpu
        .device
        .create_texture(&TextureDesc {
            name: "mips",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            mip_levels: 2,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let out = gpu
        .device
        .create_texture(&TextureDesc {
            name: "out",
            format: Format::R8G8B8A8Unorm,
            width: 8,
            height: 8,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .unwrap();
    let view = |name, mip| ViewDesc {
        range: view_of_mip(mip),
        ..ViewDesc::new(name, texture)
    };
    let rtv0 = gpu
        .device
        .create_render_target_view(&view("mip0.rtv", 0))
        .unwrap();
    let rtv1 = gpu
        .device
        .create_render_target_view(&view("mip1.rtv", 1))
        .unwrap();
    let srv0 = gpu
        .device
        .create_shader_resource_view(&view("mip0.srv", 0))
        .unwrap();
    let srv1 = gpu
        .device
        .create_shader_resource_view(&view("mip1.srv", 1))
        .unwrap();
    let out_rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("out.rtv", out))
        .unwrap();
    let (vs, colour_ps) = (gpu.quad_vs(), gpu.colour_ps());
    let sample_ps = gpu.sample_ps();
    Mips {
        texture,
        out,
        rtv0,
        rtv1,
        srv0,
        srv1,
        out_rtv,
        vs,
        colour_ps,
        sample_ps,
    }
}

#[test]
fn r_gpu_3_a_barrier_of_one_mip_moves_that_mip_alone() {
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let Mips {
        texture,
        out,
        rtv0,
        rtv1,
        srv0,
        srv1,
        out_rtv,
        vs,
        colour_ps,
        sample_ps,
    } = mips(&gpu);
    let yellow = gpu.colour_buffer("yellow", Usage::Default, [1.0, 1.0, 0.0, 1.0]);

    // Mip 0: blue, a yellow square over texels 4..12.
    gpu.imm.clear_render_target_view(rtv0, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv0)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(colour_ps));
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(yellow)]);
    gpu.imm.draw(6, 0);
    let before = gpu.backend().barrier_counts();

    // Mip 0 to shader resource, mip 1 (never used) to render target: one barrier each.
    let common = (
        BarrierSync::NONE,
        BarrierAccess::NO_ACCESS,
        BarrierLayout::Common,
    );
    gpu.imm.barrier(&[BarrierGroup::Texture(&[
        mip_barrier(texture, 0, RENDER, SAMPLED),
        mip_barrier(texture, 1, common, RENDER),
    ])]);
    // Mip 1 = mip 0 downsampled, in one draw reading mip 0 and writing mip 1.
    gpu.imm.set_render_targets(&[Some(rtv1)], None);
    gpu.imm.set_viewports(&[Viewport::new(0.0, 0.0, 8.0, 8.0)]);
    gpu.imm.set_shader(Stage::Pixel, Some(sample_ps));
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv0)]);
    gpu.imm.draw(6, 6);
    let between = gpu.backend().barrier_counts();
    assert_eq!(
        between.explicit - before.explicit,
        2,
        "one Vulkan barrier per mip barrier"
    );
    assert_eq!(
        between.implicit, before.implicit,
        "the application's barriers did the work: no transition of the backend's own"
    );

    // Mip 1 to shader resource; sampled (through a view of mip 1) into `out`.
    gpu.imm.barrier(&[BarrierGroup::Texture(&[mip_barrier(
        texture, 1, RENDER, SAMPLED,
    )])]);
    gpu.imm.set_render_targets(&[Some(out_rtv)], None);
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv1)]);
    gpu.imm.draw(6, 6);
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().read_texture(out).unwrap();
    let (blue, yellow) = ([0, 0, 255, 255], [255, 255, 0, 255]);
    for (x, y, expected) in [(0, 0, blue), (1, 1, blue), (2, 2, yellow), (4, 4, yellow)] {
        assert_eq!(
            texel(&pixels, x, y),
            expected,
            "out ({x}, {y}) = mip 1's texel"
        );
    }
    assert_eq!(texel(&pixels, 6, 6), blue, "out (6, 6)");
    assert_eq!(gpu.backend().oracle_counts().draws, 3);
    gpu.assert_clean();
}

/// R-GPU-3, a discard of part of an image: mip 1 is drawn red, then discarded (a barrier of mip
/// 1 alone from `undefined`, `discard`: an `UNDEFINED` old layout) while mip 0 moves to shader
/// resource in the same call; a full clear gives mip 1 new contents (green) and a draw into its
/// middle samples all of mip 0 there, mip 0 staying a shader resource. Nothing relies on what
/// the discard dropped, and mip 0 keeps its square.
#[test]
fn r_gpu_3_a_discard_of_one_mip_drops_that_mip_alone() {
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let m = mips(&gpu);
    let yellow = gpu.colour_buffer("yellow", Usage::Default, [1.0, 1.0, 0.0, 1.0]);
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    gpu.imm
        .clear_render_target_view(m.rtv0, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(m.rtv0)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(m.vs));
    gpu.imm.set_shader(Stage::Pixel, Some(m.colour_ps));
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(yellow)]);
    gpu.imm.draw(6, 0);
    gpu.imm.set_render_targets(&[Some(m.rtv1)], None);
    gpu.imm.set_viewports(&[Viewport::new(0.0, 0.0, 8.0, 8.0)]);
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(red)]);
    gpu.imm.draw(6, 6);
    let before = gpu.backend().barrier_counts();

    let mut discard = mip_barrier(
        m.texture,
        1,
        (
            BarrierSync::NONE,
            BarrierAccess::NO_ACCESS,
            BarrierLayout::Undefined,
        ),
        RENDER,
    );
    discard.discard = true;
    gpu.imm.barrier(&[BarrierGroup::Texture(&[
        mip_barrier(m.texture, 0, RENDER, SAMPLED),
        discard,
    ])]);
    assert_eq!(
        gpu.backend().barrier_counts().explicit - before.explicit,
        2,
        "one Vulkan barrier per mip barrier"
    );
    gpu.imm
        .clear_render_target_view(m.rtv1, [0.0, 1.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(m.rtv1)], None);
    gpu.imm.set_shader(Stage::Pixel, Some(m.sample_ps));
    gpu.imm
        .set_shader_resources(Stage::Pixel, 0, &[Some(m.srv0)]);
    gpu.imm.draw(6, 0);
    gpu.imm.barrier(&[BarrierGroup::Texture(&[mip_barrier(
        m.texture, 1, RENDER, SAMPLED,
    )])]);

    let full = gpu
        .device
        .create_texture(&TextureDesc {
            name: "full",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .unwrap();
    let full_rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("full.rtv", full))
        .unwrap();
    gpu.imm.set_render_targets(&[Some(m.out_rtv)], None);
    gpu.imm
        .set_shader_resources(Stage::Pixel, 0, &[Some(m.srv1)]);
    gpu.imm.draw(6, 6);
    gpu.imm.set_render_targets(&[Some(full_rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_shader_resources(Stage::Pixel, 0, &[Some(m.srv0)]);
    gpu.imm.draw(6, 6);
    gpu.imm.flush().unwrap();
    let mip1 = gpu.backend().read_texture(m.out).unwrap();
    // Mip 0 (16 texels) drawn over mip 1's pixels 2..6: texels 1-2 blue, 5-6 and 9-10 yellow,
    // 13-14 blue; the clear's green around.
    let (green, blue, yellow) = ([0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]);
    let expected = [green, green, blue, yellow, yellow, blue, green, green];
    for (i, colour) in expected.into_iter().enumerate() {
        let i = i as u32;
        assert_eq!(texel(&mip1, i, i), colour, "mip 1 ({i}, {i})");
    }
    let mip0 = gpu.backend().read_texture(full).unwrap();
    assert_eq!(texel(&mip0, 1, 1), [0, 0, 255, 255], "mip 0 kept its blue");
    assert_eq!(texel(&mip0, 8, 8), [255, 255, 0, 255], "and its square");
    assert_eq!(gpu.backend().oracle_counts().draws, 5);
    gpu.assert_clean();
}
