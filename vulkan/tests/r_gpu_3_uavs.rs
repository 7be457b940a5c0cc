//! R-GPU-3, UAVs in draws and texture UAVs: a pixel shader writes a buffer through an
//! output-merger UAV (a storage buffer at binding 4 * 256 + 160 + slot) and a texture through
//! another (a storage image in `GENERAL`), the buffer then copied and read by a later draw's
//! SRV; a dispatch writes a texture UAV which a draw then samples; a texture's UAV where the
//! code writes a buffer is refused naming both. What the GPU wrote is known (read back), the
//! oracle and the validation layer (synchronization included) clean.

mod common;

use common::*;
use recorder::*;

/// Writes `x + 10 y` of its pixel into UAV 1 (a buffer) and `(x * 60, y * 60, 255, 255)` into
/// UAV 2 (a texture), and returns red.
const WRITE_PS: &str = r#"
@group(0) @binding(1185) var<storage, read_write> cells: array<u32>;
@group(0) @binding(1186) var picture: texture_storage_2d<rgba8unorm, write>;

@fragment
fn ps(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let x = u32(position.x);
    let y = u32(position.y);
    cells[y * 4u + x] = x + 10u * y;
    textureStore(picture, vec2<i32>(i32(x), i32(y)), vec4<f32>(f32(x) * 60.0 / 255.0, f32(y) * 60.0 / 255.0, 1.0, 1.0));
    return vec4<f32>(1.0, 0.0, 0.0, 1.0);
}
"#;

/// Green where the cell under the pixel in its buffer view (ps SRV 0) holds `x + 10 y`.
const CHECK_PS: &str = r#"
@group(0) @binding(1040) var<storage, read> cells: array<u32>;

@fragment
fn ps(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let x = u32(position.x);
    let y = u32(position.y);
    if (cells[y * 4u + x] == x + 10u * y) {
        return vec4<f32>(0.0, 1.0, 0.0, 1.0);
    }
    return vec4<f32>(1.0, 0.0, 1.0, 1.0);
}
"#;

fn shader(gpu: &Gpu, desc: ShaderDesc<'_>, source: &'static str, entry: &'static str) -> Shader {
    gpu.device
        .create_shader_with_code(&desc, ShaderCode::Wgsl { source, entry })
        .expect("the shader")
}

fn uav_texture(gpu: &Gpu, name: &str, size: u32) -> Texture {
    gpu.device
        .create_texture(&TextureDesc {
            name,
            format: Format::R8G8B8A8Unorm,
            width: size,
            height: size,
            bind: BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .expect("a texture")
}

fn uav_buffer(gpu: &Gpu, name: &str, size: u32) -> Buffer {
    gpu.device
        .create_buffer(&BufferDesc {
            name,
            size,
            bind: BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .expect("a buffer")
}

#[test]
fn r_gpu_3_a_pixel_shader_writes_a_buffer_and_a_texture_through_uavs() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(4, 4);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let cells = uav_buffer(&gpu, "cells", 64);
    let copy = uav_buffer(&gpu, "cells.copy", 64);
    let picture = uav_texture(&gpu, "picture", 4);
    let cells_uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("cells.uav", cells))
        .unwrap();
    let cells_srv = gpu
        .device
        .create_shader_resource_view(&ViewDesc::new("cells.srv", cells))
        .unwrap();
    let picture_uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("picture.uav", picture))
        .unwrap();
    let write_ps = shader(
        &gpu,
        ShaderDesc {
            unordered_access_views: Slots::of(&[1, 2]),
            ..ShaderDesc::new("write_ps", Stage::Pixel)
        },
        WRITE_PS,
        "ps",
    );
    let check_ps = shader(
        &gpu,
        ShaderDesc {
            shader_resources: Slots::of(&[0]),
            ..ShaderDesc::new("check_ps", Stage::Pixel)
        },
        CHECK_PS,
        "ps",
    );
    let vs = gpu.quad_vs();
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets_and_unordered_access_views(
        &[Some(rtv)],
        None,
        1,
        &[Some(cells_uav), Some(picture_uav)],
    );
    gpu.imm.set_viewports(&[Viewport::new(0.0, 0.0, 4.0, 4.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(write_ps));
    // Vertices 6..12: the whole target, every pixel once.
    gpu.imm.draw(6, 6);
    // The UAVs unbound, the cells read back by a later draw's SRV and by a copy.
    gpu.imm
        .set_render_targets_and_unordered_access_views(&[Some(rtv)], None, 1, &[None, None]);
    gpu.imm.set_shader(Stage::Pixel, Some(check_ps));
    gpu.imm
        .set_shader_resources(Stage::Pixel, 0, &[Some(cells_srv)]);
    gpu.imm.draw(6, 6);
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[None]);
    gpu.imm.copy_resource(copy, cells);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().expect("the draws are translated");
    let expected: Vec<u8> = (0..16u32)
        .flat_map(|i| ((i % 4) + 10 * (i / 4)).to_le_bytes())
        .collect();
    assert_eq!(
        gpu.backend().read_buffer(cells).unwrap(),
        expected,
        "the buffer UAV"
    );
    assert_eq!(
        gpu.backend().read_buffer(copy).unwrap(),
        expected,
        "its copy"
    );
    let written = gpu.backend().read_texture(picture).unwrap();
    for (x, y) in [(0, 0), (3, 0), (1, 2), (3, 3)] {
        let want = [(x * 60) as u8, (y * 60) as u8, 255, 255];
        assert_eq!(texel(&written, x, y), want, "the texture UAV at ({x}, {y})");
    }
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(0, 0), (3, 1), (2, 3)] {
        assert_eq!(
            texel(&pixels, x, y),
            [0, 255, 0, 255],
            "the second draw saw the cells at ({x}, {y})"
        );
    }
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}

/// Writes red into the left half of its texture UAV (cs UAV 0), green into the right.
const HALVES_CS: &str = r#"
@group(0) @binding(1440) var picture: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn cs(@builtin(global_invocation_id) id: vec3<u32>) {
    let colour = select(vec4<f32>(1.0, 0.0, 0.0, 1.0), vec4<f32>(0.0, 1.0, 0.0, 1.0), id.x >= 4u);
    textureStore(picture, vec2<i32>(id.xy), colour);
}
"#;

#[test]
fn r_gpu_3_a_dispatch_writes_a_texture_uav_a_draw_samples() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(8, 8);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let picture = uav_texture(&gpu, "halves", 8);
    let uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("halves.uav", picture))
        .unwrap();
    let srv = gpu
        .device
        .create_shader_resource_view(&ViewDesc::new("halves.srv", picture))
        .unwrap();
    let cs = shader(
        &gpu,
        ShaderDesc {
            unordered_access_views: Slots::of(&[0]),
            ..ShaderDesc::new("halves_cs", Stage::Compute)
        },
        HALVES_CS,
        "cs",
    );
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
    gpu.imm.set_shader(Stage::Compute, Some(cs));
    gpu.imm.set_compute_unordered_access_views(0, &[Some(uav)]);
    gpu.imm.dispatch(1, 1, 1);
    gpu.imm.set_compute_unordered_access_views(0, &[None]);
    let vs = gpu.quad_vs();
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm.set_viewports(&[Viewport::new(0.0, 0.0, 8.0, 8.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    gpu.imm.draw(6, 6);
    gpu.imm.present(chain).unwrap();
    gpu.imm
        .flush()
        .expect("the dispatch and the draw are translated");
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(0, 0), (3, 7), (2, 4)] {
        assert_eq!(texel(&pixels, x, y), [255, 0, 0, 255], "left, ({x}, {y})");
    }
    for (x, y) in [(4, 0), (7, 7), (5, 3)] {
        assert_eq!(texel(&pixels, x, y), [0, 255, 0, 255], "right, ({x}, {y})");
    }
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_a_texture_uav_where_the_code_writes_a_buffer_is_refused() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(4, 4);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let picture = uav_texture(&gpu, "picture", 4);
    let picture_uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("picture.uav", picture))
        .unwrap();
    let write_ps = shader(
        &gpu,
        ShaderDesc {
            unordered_access_views: Slots::of(&[1, 2]),
            ..ShaderDesc::new("write_ps", Stage::Pixel)
        },
        WRITE_PS,
        "ps",
    );
    let vs = gpu.quad_vs();
    // Slot 1 is the code's buffer: a texture's view there is refused.
    gpu.imm.set_render_targets_and_unordered_access_views(
        &[Some(rtv)],
        None,
        1,
        &[Some(picture_uav), Some(picture_uav)],
    );
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(write_ps));
    gpu.imm.draw(6, 6);
    let message = gpu.imm.flush().expect_err("the refusal").to_string();
    assert!(
        message.starts_with(
            "draw: unordered-access view 'picture.uav' views a texture, but shader 'write_ps' \
             accesses UAV slot 1 as a storage buffer"
        ),
        "{message}"
    );
}
