//! R-GPU-4, a barrier-driven decompression: on a fast-semantics context a depth buffer is
//! cleared (compressed, in the model) and drawn (a quad at depth 0.6 over the clear's 1.0); an
//! enhanced barrier from `depth_stencil_write` to `shader_resource` decompresses it (the model
//! counts the decompression; on Vulkan it is the layout change from depth attachment to shader
//! read) and a post pass loads the depth through an `r32_float` view, as D3D11 reads a depth
//! buffer. The pixels are the depths.

mod common;

use common::*;
use recorder::*;

/// The quad vertex shader at depth 0.6.
const DEPTH_QUAD_VS: &str = r#"
@vertex
fn vs(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0),
    );
    return vec4<f32>(corners[index % 6u] * 0.5, 0.6, 1.0);
}
"#;

/// The depth under the pixel, loaded (`Load`, as D3D11 shaders read depth: the device's depth
/// formats need not filter), as grey.
const DEPTH_PS: &str = r#"
@group(0) @binding(1040) var depth: texture_2d<f32>;

@fragment
fn ps(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let d = textureLoad(depth, vec2<i32>(position.xy), 0).r;
    return vec4<f32>(d, d, d, 1.0);
}
"#;

fn texture(gpu: &Gpu, name: &str, format: Format, bind: BindFlags) -> Texture {
    gpu.device
        .create_texture(&TextureDesc {
            name,
            format,
            width: 16,
            height: 16,
            bind,
            ..Default::default()
        })
        .unwrap()
}

#[test]
fn r_gpu_4_a_depth_barrier_decompresses_and_the_depth_is_sampled() {
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let depth = texture(
        &gpu,
        "depth",
        Format::D32Float,
        BindFlags::DEPTH_STENCIL | BindFlags::SHADER_RESOURCE,
    );
    let dsv = gpu
        .device
        .create_depth_stencil_view(&ViewDesc::new("depth.dsv", depth))
        .unwrap();
    let srv = gpu
        .device
        .create_shader_resource_view(&ViewDesc {
            format: Format::R32Float,
            ..ViewDesc::new("depth.srv", depth)
        })
        .unwrap();
    let scratch = texture(
        &gpu,
        "scratch",
        Format::R8G8B8A8Unorm,
        BindFlags::RENDER_TARGET,
    );
    let post = texture(
        &gpu,
        "post",
        Format::R8G8B8A8Unorm,
        BindFlags::RENDER_TARGET,
    );
    let scratch_rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("scratch.rtv", scratch))
        .unwrap();
    let post_rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("post.rtv", post))
        .unwrap();
    let depth_vs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc::new("depth_quad_vs", Stage::Vertex),
            ShaderCode::Wgsl {
                source: DEPTH_QUAD_VS,
                entry: "vs",
            },
        )
        .unwrap();
    let depth_ps = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc {
                shader_resources: Slots::of(&[0]),
                ..ShaderDesc::new("depth_ps", Stage::Pixel)
            },
            ShaderCode::Wgsl {
                source: DEPTH_PS,
                entry: "ps",
            },
        )
        .unwrap();
    let (quad_vs, colour_ps) = (gpu.quad_vs(), gpu.colour_ps());
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);

    gpu.imm.clear_render_target_view(scratch_rtv, [0.0; 4]);
    gpu.imm
        .clear_depth_stencil_view(dsv, ClearFlags::DEPTH, 1.0, 0);
    gpu.imm.set_render_targets(&[Some(scratch_rtv)], Some(dsv));
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(depth_vs));
    gpu.imm.set_shader(Stage::Pixel, Some(colour_ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(red)]);
    gpu.imm.draw(6, 0);
    let decompressions = gpu.imm.counters().decompressions;
    let explicit = gpu.backend().barrier_counts().explicit;

    gpu.imm.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
        sync_before: BarrierSync::DEPTH_STENCIL,
        sync_after: BarrierSync::PIXEL_SHADING,
        access_before: BarrierAccess::DEPTH_STENCIL_WRITE,
        access_after: BarrierAccess::SHADER_RESOURCE,
        layout_before: BarrierLayout::DepthStencilWrite,
        layout_after: BarrierLayout::ShaderResource,
        resource: depth.into(),
        subresources: BarrierSubresources::ALL,
        discard: false,
    }])]);
    assert_eq!(
        gpu.imm.counters().decompressions - decompressions,
        1,
        "the model decompresses the depth buffer at the barrier"
    );
    gpu.imm.set_render_targets(&[Some(post_rtv)], None);
    gpu.imm.set_shader(Stage::Vertex, Some(quad_vs));
    gpu.imm.set_shader(Stage::Pixel, Some(depth_ps));
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    gpu.imm.draw(6, 6);
    gpu.imm.flush().unwrap();
    assert_eq!(
        gpu.backend().barrier_counts().explicit - explicit,
        1,
        "the barrier, one Vulkan barrier (depth attachment to shader read)"
    );
    let pixels = gpu.backend().read_texture(post).unwrap();
    assert_eq!(
        texel(&pixels, 8, 8),
        [153, 153, 153, 255],
        "the quad's depth, 0.6"
    );
    assert_eq!(texel(&pixels, 1, 1), [255; 4], "the clear's depth, 1.0");
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}
