//! R-GPU-4, the input assembler and the oracle: an indexed quad read from a vertex buffer
//! through an input layout's elements (position and colour per vertex, 16-bit indices); and
//! the oracle, which compares what the backend bound with the model's record of each draw,
//! naming the difference when they disagree.

mod common;

use common::*;
use recorder::*;

const VERTEX_COLOUR_VS: &str = r#"
struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) colour: vec4<f32>,
};

@vertex
fn vs(@location(0) position: vec2<f32>, @location(1) colour: vec4<f32>) -> Out {
    var out: Out;
    out.position = vec4<f32>(position, 0.0, 1.0);
    out.colour = colour;
    return out;
}
"#;

const VERTEX_COLOUR_PS: &str = r#"
@fragment
fn ps(@location(0) colour: vec4<f32>) -> @location(0) vec4<f32> {
    return colour;
}
"#;

fn bytes(floats: &[f32]) -> Vec<u8> {
    floats.iter().flat_map(|f| f.to_le_bytes()).collect()
}

#[test]
fn r_gpu_4_an_indexed_quad_from_vertex_buffers_and_the_oracle() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let code = |source, entry| ShaderCode::Wgsl { source, entry };
    let vs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc::new("vertex_colour_vs", Stage::Vertex),
            code(VERTEX_COLOUR_VS, "vs"),
        )
        .unwrap();
    let ps = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc::new("vertex_colour_ps", Stage::Pixel),
            code(VERTEX_COLOUR_PS, "ps"),
        )
        .unwrap();
    let element = |semantic: &str, format, byte_offset| InputElement {
        semantic: semantic.to_string(),
        semantic_index: 0,
        format,
        input_slot: 0,
        byte_offset,
        per_instance: false,
    };
    let layout = gpu
        .device
        .create_input_layout_with_elements(
            &InputLayoutDesc {
                name: "position_colour",
                vertex_buffers: Slots::of(&[0]),
            },
            &[
                element("POSITION", Format::R32G32Float, 0),
                element("COLOR", Format::R32G32B32A32Float, 8),
            ],
        )
        .unwrap();
    let magenta = [1.0, 0.0, 1.0, 1.0];
    let mut vertices = Vec::new();
    for corner in [[-1.0, -1.0], [-1.0, 1.0], [1.0, 1.0], [1.0, -1.0]] {
        vertices.extend_from_slice(&corner);
        vertices.extend_from_slice(&magenta);
    }
    let vb = gpu
        .device
        .create_buffer_with_data(
            &BufferDesc {
                name: "quad vertices",
                size: 96,
                bind: BindFlags::VERTEX,
                ..Default::default()
            },
            &bytes(&vertices),
        )
        .unwrap();
    let indices: Vec<u8> = [0u16, 1, 2, 0, 2, 3]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let ib = gpu
        .device
        .create_buffer_with_data(
            &BufferDesc {
                name: "quad indices",
                size: 12,
                bind: BindFlags::INDEX,
                ..Default::default()
            },
            &indices,
        )
        .unwrap();

    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    // The indexed quad on the left half.
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm.set_input_layout(Some(layout));
    gpu.imm.set_vertex_buffers(
        0,
        &[VertexBuffer {
            buffer: Some(vb),
            stride: 24,
            offset: 0,
        }],
    );
    gpu.imm.set_index_buffer(Some(ib), Format::R16Uint, 0);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.draw_indexed(6, 0, 0);
    // A constant-coloured quad on the right half, without vertex input.
    let (quad_vs, colour_ps) = (gpu.quad_vs(), gpu.colour_ps());
    let cyan = gpu.colour_buffer("cyan", Usage::Default, [0.0, 1.0, 1.0, 1.0]);
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 16.0)]);
    gpu.imm.set_input_layout(None);
    gpu.imm.set_shader(Stage::Vertex, Some(quad_vs));
    gpu.imm.set_shader(Stage::Pixel, Some(colour_ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cyan)]);
    gpu.imm.draw(6, 6);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();

    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(0, 0), (8, 8), (15, 15)] {
        assert_eq!(
            texel(&pixels, x, y),
            [255, 0, 255, 255],
            "the indexed quad, ({x}, {y})"
        );
    }
    for (x, y) in [(16, 0), (24, 8), (31, 15)] {
        assert_eq!(
            texel(&pixels, x, y),
            [0, 255, 255, 255],
            "the coloured quad, ({x}, {y})"
        );
    }
    gpu.assert_clean();

    // The oracle: the bound state is the last draw's record, not the first's.
    let records = gpu.imm.records().to_vec();
    let backend = gpu.backend();
    assert_eq!(backend.oracle_counts().draws, 2);
    backend
        .check_record(&records[1])
        .expect("the last draw's record");
    let error = backend
        .check_record(&records[0])
        .expect_err("the first draw's record differs");
    let message = error.to_string();
    assert!(
        message.contains("R-GPU-4") && message.contains("shaders"),
        "{message}"
    );
    assert_eq!(backend.oracle_counts().mismatches, 1);
}
