//! R-GPU-3/R-GPU-4, the rasterizer's fields a real GPU draws with: wireframe fill (polygon
//! mode `LINE`, `fillModeNonSolid`) draws a quad's edges and not its inside; `depth_clip =
//! false` (`depthClampEnable`) draws what lies past the far plane, which clipping cuts; several
//! viewports and scissors bound at once (`multiViewport`) draw through the first, as D3D11 does
//! without `SV_ViewportArrayIndex`. Known pixels, the oracle and the validation layer clean.

mod common;

use common::*;
use recorder::*;

fn bind_colour(gpu: &mut Gpu, rtv: RenderTargetView, vs: Shader, colour: [f32; 4]) {
    let ps = gpu.colour_ps();
    let cb = gpu.colour_buffer("colour", Usage::Default, colour);
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
}

const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

#[test]
fn r_gpu_4_wireframe_draws_a_quads_edges_not_its_inside() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let wireframe = gpu
        .device
        .create_rasterizer_state_with(
            "wireframe",
            &RasterizerDesc {
                wireframe: true,
                ..Default::default()
            },
        )
        .unwrap();
    let vs = gpu.quad_vs();
    bind_colour(&mut gpu, rtv, vs, [0.0, 1.0, 0.0, 1.0]);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm.set_rasterizer_state(Some(wireframe));
    // The middle half: pixels 8..24, its diagonal where x + y = 32.
    gpu.imm.draw(6, 0);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().expect("wireframe is translated");
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(12, 12), (20, 20), (11, 18), (18, 11)] {
        assert_eq!(
            texel(&pixels, x, y),
            BLUE,
            "inside, off the edges, ({x}, {y})"
        );
    }
    for (x, y) in [(0, 0), (4, 16), (28, 16), (16, 30)] {
        assert_eq!(texel(&pixels, x, y), BLUE, "outside, ({x}, {y})");
    }
    let green_at = |x: u32, y: u32| texel(&pixels, x, y) == GREEN;
    assert!(green_at(16, 16) || green_at(15, 16), "the diagonal");
    assert!((7..=8).any(|x| green_at(x, 16)), "the left edge");
    assert!((23..=24).any(|x| green_at(x, 16)), "the right edge");
    assert!((7..=8).any(|y| green_at(16, y)), "the top edge");
    let green = (0..32)
        .flat_map(|y| (0..32).map(move |x| (x, y)))
        .filter(|&(x, y)| green_at(x, y))
        .count();
    assert!(
        (40..=140).contains(&green),
        "{green} edge pixels (a filled quad has 256)"
    );
    gpu.assert_clean();
}

/// A quad over the whole viewport at depth 1.5: past the far plane.
const FAR_VS: &str = r#"
@vertex
fn vs(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0),
    );
    return vec4<f32>(corners[index], 1.5, 1.0);
}
"#;

#[test]
fn r_gpu_4_depth_clip_off_draws_what_clipping_cuts() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let no_clip = gpu
        .device
        .create_rasterizer_state_with(
            "no depth clip",
            &RasterizerDesc {
                depth_clip: false,
                ..Default::default()
            },
        )
        .unwrap();
    let vs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc::new("far_vs", Stage::Vertex),
            ShaderCode::Wgsl {
                source: FAR_VS,
                entry: "vs",
            },
        )
        .unwrap();
    bind_colour(&mut gpu, rtv, vs, [0.0, 1.0, 0.0, 1.0]);
    // The left half with D3D11's default (depth clip on): clipped away.
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm.draw(6, 0);
    // The right half without depth clip: drawn, its depth clamped to the far plane.
    gpu.imm.set_rasterizer_state(Some(no_clip));
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 16.0)]);
    gpu.imm.draw(6, 0);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().expect("depth clip is translated");
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(0, 0), (8, 8), (15, 15)] {
        assert_eq!(texel(&pixels, x, y), BLUE, "clipped, ({x}, {y})");
    }
    for (x, y) in [(16, 0), (24, 8), (31, 15)] {
        assert_eq!(texel(&pixels, x, y), GREEN, "clamped, ({x}, {y})");
    }
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}

#[test]
fn r_gpu_4_several_viewports_and_scissors_draw_through_the_first() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
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
    let vs = gpu.quad_vs();
    bind_colour(&mut gpu, rtv, vs, [0.0, 1.0, 0.0, 1.0]);
    gpu.imm.set_rasterizer_state(Some(scissored));
    gpu.imm.set_viewports(&[
        Viewport::new(0.0, 0.0, 16.0, 32.0),
        Viewport::new(16.0, 0.0, 16.0, 32.0),
    ]);
    gpu.imm.set_scissor_rects(&[
        Rect {
            left: 0,
            top: 0,
            right: 32,
            bottom: 16,
        },
        Rect {
            left: 0,
            top: 16,
            right: 32,
            bottom: 32,
        },
    ]);
    // The whole viewport: viewport 0 (the left half) cut by scissor 0 (the top half).
    gpu.imm.draw(6, 6);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().expect("several viewports are translated");
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(0, 0), (15, 15), (8, 4)] {
        assert_eq!(
            texel(&pixels, x, y),
            GREEN,
            "viewport 0 in scissor 0, ({x}, {y})"
        );
    }
    for (x, y) in [(16, 0), (31, 15), (8, 16), (24, 24)] {
        assert_eq!(texel(&pixels, x, y), BLUE, "elsewhere, ({x}, {y})");
    }
    gpu.assert_clean();
}
