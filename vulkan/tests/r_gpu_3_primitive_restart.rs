//! R-GPU-3 with R-ST-5, the primitive reset (cut) index: an indexed strip cut at the reset
//! index draws as separate strips (Vulkan's primitive restart, set per draw from the record's
//! reset index); a reset index Vulkan cannot express is refused at the draw, naming it.

mod common;

use common::*;
use recorder::*;

const POSITION_VS: &str = r#"
@vertex
fn vs(@location(0) position: vec2<f32>) -> @builtin(position) vec4<f32> {
    return vec4<f32>(position, 0.0, 1.0);
}
"#;

/// A strip's objects: the shaders, a position layout, six vertices (a triangle on the left
/// edge, a triangle on the right edge) and the indices `0 1 2 CUT 3 4 5` in 16 bits.
struct Strip {
    vs: Shader,
    ps: Shader,
    white: Buffer,
    layout: InputLayout,
    vb: Buffer,
    ib: Buffer,
}

fn strip(gpu: &Gpu) -> Strip {
    let device = &gpu.device;
    let vs = device
        .create_shader_with_code(
            &ShaderDesc::new("position_vs", Stage::Vertex),
            ShaderCode::Wgsl {
                source: POSITION_VS,
                entry: "vs",
            },
        )
        .unwrap();
    let layout = device
        .create_input_layout_with_elements(
            &InputLayoutDesc {
                name: "position",
                vertex_buffers: Slots::of(&[0]),
            },
            &[InputElement {
                semantic: "POSITION".to_string(),
                semantic_index: 0,
                format: Format::R32G32Float,
                input_slot: 0,
                byte_offset: 0,
                per_instance: false,
            }],
        )
        .unwrap();
    let positions: [f32; 12] = [
        -1.0, -1.0, -1.0, 1.0, -0.5, -1.0, // the left triangle
        0.5, -1.0, 1.0, 1.0, 1.0, -1.0, // the right triangle
    ];
    let vb = device
        .create_buffer_with_data(
            &BufferDesc {
                name: "strip vertices",
                size: 48,
                bind: BindFlags::VERTEX,
                ..Default::default()
            },
            &positions
                .iter()
                .flat_map(|f| f.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
        .unwrap();
    let ib = device
        .create_buffer_with_data(
            &BufferDesc {
                name: "strip indices",
                size: 14,
                bind: BindFlags::INDEX,
                ..Default::default()
            },
            &[0u16, 1, 2, 0xFFFF, 3, 4, 5]
                .iter()
                .flat_map(|i| i.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
        .unwrap();
    Strip {
        vs,
        ps: gpu.colour_ps(),
        white: gpu.colour_buffer("white", Usage::Default, [1.0; 4]),
        layout,
        vb,
        ib,
    }
}

/// Binds the strip on the immediate context, onto `rtv` of 32 x 32.
fn bind(gpu: &mut Gpu, s: &Strip, rtv: RenderTargetView) {
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleStrip);
    gpu.imm.set_input_layout(Some(s.layout));
    gpu.imm.set_vertex_buffers(
        0,
        &[VertexBuffer {
            buffer: Some(s.vb),
            stride: 8,
            offset: 0,
        }],
    );
    gpu.imm.set_index_buffer(Some(s.ib), Format::R16Uint, 0);
    gpu.imm.set_shader(Stage::Vertex, Some(s.vs));
    gpu.imm.set_shader(Stage::Pixel, Some(s.ps));
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(s.white)]);
}

#[test]
fn r_gpu_3_a_strip_cut_at_the_reset_index_draws_two_strips() {
    // Legacy semantics: a 16-bit index buffer's reset index is 0xFFFF (R-ST-5).
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let s = strip(&gpu);
    bind(&mut gpu, &s, rtv);
    gpu.imm.draw_indexed(7, 0, 0);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    // Each triangle's corner near the bottom edge is drawn.
    assert_eq!(
        texel(&pixels, 1, 28),
        [255, 255, 255, 255],
        "the left strip"
    );
    assert_eq!(
        texel(&pixels, 30, 28),
        [255, 255, 255, 255],
        "the right strip"
    );
    // Between them nothing: without the cut the strip would join them through the cut
    // index's vertex.
    for (x, y) in [(16, 28), (16, 20), (14, 30), (18, 30)] {
        assert_eq!(
            texel(&pixels, x, y),
            [0, 0, 0, 255],
            "between the strips at ({x}, {y})"
        );
    }
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_a_reset_index_vulkan_cannot_express_is_refused_naming_it() {
    // Fast semantics: the reset index is the application's (R-ST-5); Vulkan cuts at 0xFFFF
    // or 0xFFFFFFFF only.
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let s = strip(&gpu);
    bind(&mut gpu, &s, rtv);
    gpu.imm.set_primitive_reset_index(7);
    gpu.imm.draw_indexed(7, 0, 0);
    let error = gpu.imm.flush().expect_err("the backend refuses the draw");
    let message = error.to_string();
    assert!(
        message.contains("reset index 0x7") && message.contains("R-ST-5"),
        "{message}"
    );
    assert_eq!(
        gpu.imm.records().len(),
        1,
        "the model still records the draw"
    );
}
