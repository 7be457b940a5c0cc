//! R-GPU-4, a frame with a depth buffer: quads at three depths, drawn far, near, then farthest,
//! under D3D11's default depth-stencil state (test `less`, write): the nearest wins where they
//! overlap, the farthest is rejected everywhere; the depth clear runs before the pass.

mod common;

use common::*;
use recorder::*;

/// The quad vertex shader, at the depth its constant buffer 0 (binding 0) holds in `.x`.
const DEPTH_QUAD_VS: &str = r#"
struct Depth { value: vec4<f32> };
@group(0) @binding(0) var<uniform> depth: Depth;

@vertex
fn vs(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0),
    );
    let scale = select(0.5, 1.0, index >= 6u);
    return vec4<f32>(corners[index % 6u] * scale, depth.value.x, 1.0);
}
"#;

#[test]
fn r_gpu_4_the_nearest_quad_wins_the_depth_test() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let depth_texture = gpu
        .device
        .create_texture(&TextureDesc {
            name: "depth",
            format: Format::D32Float,
            width: 32,
            height: 32,
            bind: BindFlags::DEPTH_STENCIL,
            ..Default::default()
        })
        .unwrap();
    let dsv = gpu
        .device
        .create_depth_stencil_view(&ViewDesc::new("depth.dsv", depth_texture))
        .unwrap();
    let vs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc {
                constant_buffers: Slots::of(&[0]),
                ..ShaderDesc::new("depth_quad_vs", Stage::Vertex)
            },
            ShaderCode::Wgsl {
                source: DEPTH_QUAD_VS,
                entry: "vs",
            },
        )
        .unwrap();
    let ps = gpu.colour_ps();
    let depth_of =
        |gpu: &Gpu, z: f32| gpu.colour_buffer("depth", Usage::Default, [z, 0.0, 0.0, 0.0]);
    let quads = [
        (depth_of(&gpu, 0.5), [1.0, 0.0, 0.0, 1.0], 6), // far, full screen: red
        (depth_of(&gpu, 0.2), [0.0, 1.0, 0.0, 1.0], 0), // near, middle half: green
        (depth_of(&gpu, 0.8), [0.0, 0.0, 1.0, 1.0], 6), // farthest, full screen: rejected
    ];
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm
        .clear_depth_stencil_view(dsv, ClearFlags::DEPTH, 1.0, 0);
    gpu.imm.set_render_targets(&[Some(rtv)], Some(dsv));
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    for (depth, colour, first) in quads {
        let colour = gpu.colour_buffer("colour", Usage::Default, colour);
        gpu.imm
            .set_constant_buffers(Stage::Vertex, 0, &[Some(depth)]);
        gpu.imm
            .set_constant_buffers(Stage::Pixel, 0, &[Some(colour)]);
        gpu.imm.draw(6, first);
    }
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    assert_eq!(texel(&pixels, 16, 16), [0, 255, 0, 255], "the near quad");
    assert_eq!(
        texel(&pixels, 2, 2),
        [255, 0, 0, 255],
        "the far quad, not the farthest"
    );
    assert_eq!(gpu.backend().oracle_counts().draws, 3);
    gpu.assert_clean();
}
