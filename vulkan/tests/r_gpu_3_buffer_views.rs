//! R-GPU-3, buffer shader-resource views in draws: a vertex shader reads a typed view
//! (`R32Float`) and a pixel shader a structured view of a dynamic buffer (a write-discard
//! instance in the ring), both as read-only storage buffers at the fixed bindings (vs SRV 0 is
//! binding 16, ps SRV 0 binding 1040); a buffer a dispatch wrote through its UAV, read by the
//! next draw through its SRV; a buffer's view bound where the code reads a texture is refused
//! naming both. Known pixels, the oracle and the validation layer clean.

mod common;

use common::*;
use recorder::*;

/// A quad scaled by the first float of its vertex shader's buffer view (vs SRV 0).
const SCALED_VS: &str = r#"
@group(0) @binding(16) var<storage, read> scale: array<f32>;

@vertex
fn vs(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0),
    );
    return vec4<f32>(corners[index % 6u] * scale[0], 0.0, 1.0);
}
"#;

/// The colour at the index its constant buffer names in its structured view (ps SRV 0).
const PICK_PS: &str = r#"
struct Pick { index: vec4<u32> };
@group(0) @binding(1024) var<uniform> pick: Pick;
@group(0) @binding(1040) var<storage, read> colours: array<vec4<f32>>;

@fragment
fn ps() -> @location(0) vec4<f32> {
    return colours[pick.index.x];
}
"#;

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn shader(gpu: &Gpu, desc: ShaderDesc<'_>, source: &'static str, entry: &'static str) -> Shader {
    gpu.device
        .create_shader_with_code(&desc, ShaderCode::Wgsl { source, entry })
        .expect("the shader")
}

fn srv_buffer(gpu: &Gpu, name: &str, usage: Usage, data: Option<&[u8]>, size: u32) -> Buffer {
    let desc = BufferDesc {
        name,
        size,
        usage,
        bind: BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS,
        ..Default::default()
    };
    let desc = if usage == Usage::Dynamic {
        BufferDesc {
            bind: BindFlags::SHADER_RESOURCE,
            ..desc
        }
    } else {
        desc
    };
    match data {
        Some(data) => gpu.device.create_buffer_with_data(&desc, data),
        None => gpu.device.create_buffer(&desc),
    }
    .expect("a buffer")
}

/// The target bound, the scaled quad's vertex shader with its typed view, the picking pixel
/// shader with its constant buffer (picking colour `index`).
fn bind_scaled_quad(gpu: &mut Gpu, rtv: RenderTargetView, size: f32, index: u32) {
    let vs = shader(
        gpu,
        ShaderDesc {
            shader_resources: Slots::of(&[0]),
            ..ShaderDesc::new("scaled_vs", Stage::Vertex)
        },
        SCALED_VS,
        "vs",
    );
    let ps = shader(
        gpu,
        ShaderDesc {
            constant_buffers: Slots::of(&[0]),
            shader_resources: Slots::of(&[0]),
            ..ShaderDesc::new("pick_ps", Stage::Pixel)
        },
        PICK_PS,
        "ps",
    );
    let scale = srv_buffer(gpu, "scale", Usage::Default, Some(&floats(&[0.5, 9.0])), 8);
    let scale_view = gpu
        .device
        .create_shader_resource_view(&ViewDesc {
            format: Format::R32Float,
            ..ViewDesc::new("scale.srv", scale)
        })
        .unwrap();
    let pick = gpu
        .device
        .create_buffer_with_data(
            &BufferDesc {
                name: "pick",
                size: 16,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            },
            &[index as u8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        )
        .unwrap();
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, size, size)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm
        .set_shader_resources(Stage::Vertex, 0, &[Some(scale_view)]);
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(pick)]);
}

fn assert_quad(pixels: &Pixels, inside: [u8; 4], outside: [u8; 4]) {
    for (x, y) in [(8, 8), (16, 16), (23, 23), (8, 23)] {
        assert_eq!(texel(pixels, x, y), inside, "inside, ({x}, {y})");
    }
    for (x, y) in [(0, 0), (7, 16), (24, 16), (16, 31)] {
        assert_eq!(texel(pixels, x, y), outside, "outside, ({x}, {y})");
    }
}

use vulkan_backend::Pixels;

#[test]
fn r_gpu_3_vertex_and_pixel_shaders_read_typed_and_structured_buffer_views() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    bind_scaled_quad(&mut gpu, rtv, 32.0, 1);
    let colours = srv_buffer(&gpu, "colours", Usage::Dynamic, None, 48);
    let colours_view = gpu
        .device
        .create_shader_resource_view(&ViewDesc::new("colours.srv", colours))
        .unwrap();
    let data = gpu
        .imm
        .map(colours, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .expect("a write-discard map");
    data[..48].copy_from_slice(&floats(&[
        1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0,
    ]));
    gpu.imm.unmap(colours);
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm
        .set_shader_resources(Stage::Pixel, 0, &[Some(colours_view)]);
    gpu.imm.draw(6, 0);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().expect("the draw is translated");
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    assert_quad(&pixels, [0, 255, 0, 255], [0, 0, 0, 255]);
    assert_eq!(gpu.backend().oracle_counts().draws, 1);
    gpu.assert_clean();
}

/// Writes `colours[i] = (0, 0, 1, 1)` for every element (cs UAV 0, binding 1440).
const FILL_CS: &str = r#"
@group(0) @binding(1440) var<storage, read_write> colours: array<vec4<f32>>;

@compute @workgroup_size(4)
fn cs(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&colours)) {
        colours[id.x] = vec4<f32>(0.0, 0.0, 1.0, 1.0);
    }
}
"#;

#[test]
fn r_gpu_3_a_draw_reads_through_its_srv_what_a_dispatch_wrote_through_a_uav() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let red = floats(&[1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
    let colours = srv_buffer(&gpu, "colours", Usage::Default, Some(&red), 32);
    let uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("colours.uav", colours))
        .unwrap();
    let srv = gpu
        .device
        .create_shader_resource_view(&ViewDesc::new("colours.srv", colours))
        .unwrap();
    let cs = shader(
        &gpu,
        ShaderDesc {
            unordered_access_views: Slots::of(&[0]),
            ..ShaderDesc::new("fill_cs", Stage::Compute)
        },
        FILL_CS,
        "cs",
    );
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    // First a draw reading the initial (red) colours, then the dispatch overwrites them
    // (a write after a read), then a draw reads the blue ones (a read after a write).
    bind_scaled_quad(&mut gpu, rtv, 32.0, 1);
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    gpu.imm.draw(6, 0);
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[None]);
    gpu.imm.set_shader(Stage::Compute, Some(cs));
    gpu.imm.set_compute_unordered_access_views(0, &[Some(uav)]);
    gpu.imm.dispatch(1, 1, 1);
    gpu.imm.set_compute_unordered_access_views(0, &[None]);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 16.0, 32.0, 16.0)]);
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    gpu.imm.draw(6, 0);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().expect("the draws are translated");
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    // The first quad: rows 8..24, red; the second, in the bottom half's viewport: rows 20..28.
    assert_eq!(
        texel(&pixels, 16, 10),
        [255, 0, 0, 255],
        "before the dispatch"
    );
    assert_eq!(
        texel(&pixels, 16, 22),
        [0, 0, 255, 255],
        "after the dispatch"
    );
    assert_eq!(texel(&pixels, 16, 29), [0, 0, 0, 255], "below both");
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_a_buffer_view_where_the_code_reads_a_texture_is_refused() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(16, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let buffer = srv_buffer(&gpu, "not a texture", Usage::Default, None, 64);
    let view = gpu
        .device
        .create_shader_resource_view(&ViewDesc::new("buffer.srv", buffer))
        .unwrap();
    let ps = shader(
        &gpu,
        ShaderDesc {
            shader_resources: Slots::of(&[0]),
            samplers: Slots::of(&[0]),
            ..ShaderDesc::new("sample_ps", Stage::Pixel)
        },
        SAMPLE_PS,
        "ps",
    );
    let vs = gpu.quad_vs();
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(view)]);
    gpu.imm.draw(6, 0);
    let error = gpu.imm.flush().expect_err("the backend refuses the draw");
    let message = error.to_string();
    assert!(
        message.starts_with("draw: shader-resource view 'buffer.srv' views a buffer, but shader 'sample_ps' reads shader-resource slot 0 as a texture"),
        "{message}"
    );
}
