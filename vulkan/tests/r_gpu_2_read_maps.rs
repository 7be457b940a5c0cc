//! R-GPU-2, "a read map of a staging resource after a copy returns what the GPU wrote": a
//! picture drawn into a texture and copied (whole, or a quadrant with `copy_texture_region`)
//! into a staging texture, a buffer written by a dispatch and copied into a staging buffer,
//! each mapped for reading on the immediate context; a read_write map's bytes reaching GPU
//! memory at its unmap. The model alone hands out zeros there (it keeps no GPU contents), so
//! each test fails without the backend's read-back. Under the validation layer.

mod common;

use common::*;
use recorder::*;

const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

/// A 16 x 16 RGBA8 render target holding a blue picture with a green quad over its middle
/// half (texels 4..12), drawn by the GPU.
fn drawn_picture(gpu: &mut Gpu) -> Texture {
    let picture = gpu
        .device
        .create_texture(&TextureDesc {
            name: "picture",
            width: 16,
            height: 16,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("picture.rtv", picture))
        .unwrap();
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(green)]);
    gpu.imm.draw(6, 0);
    gpu.imm.set_render_targets(&[], None);
    picture
}

/// A 16 x 16 RGBA8 staging texture (bound nowhere).
fn staging_texture(gpu: &Gpu) -> Texture {
    gpu.device
        .create_texture(&TextureDesc {
            name: "staging",
            width: 16,
            height: 16,
            bind: BindFlags::NONE,
            ..Default::default()
        })
        .unwrap()
}

/// The texel at (x, y) of a mapped RGBA8 subresource of `pitch` bytes a row.
fn mapped_texel(bytes: &[u8], pitch: usize, x: usize, y: usize) -> [u8; 4] {
    let i = y * pitch + x * 4;
    bytes[i..i + 4].try_into().unwrap()
}

#[test]
fn r_gpu_2_read_map_of_staging_returns_what_the_gpu_wrote() {
    let Some(mut gpu) = gpu() else { return };
    let picture = drawn_picture(&mut gpu);
    let staging = staging_texture(&gpu);
    gpu.imm.copy_resource(staging, picture);
    let (bytes, pitch) = {
        let mapped = gpu
            .imm
            .map(staging, MapType::Read, MapFlags::None)
            .expect("a read map of a staging texture");
        (mapped.to_vec(), mapped.row_pitch())
    };
    assert_eq!((pitch, bytes.len()), (64, 1024), "rows packed");
    for y in 0..16 {
        for x in 0..16 {
            let inside = (4..12).contains(&x) && (4..12).contains(&y);
            let want = if inside { GREEN } else { BLUE };
            assert_eq!(mapped_texel(&bytes, pitch, x, y), want, "({x}, {y})");
        }
    }
    gpu.imm.flush().unwrap();
    gpu.assert_clean();
}

#[test]
fn r_gpu_2_read_map_after_a_quadrant_copy_and_a_write_map() {
    let Some(mut gpu) = gpu() else { return };
    let picture = drawn_picture(&mut gpu);
    let staging = staging_texture(&gpu);
    // The staging texture filled by a write map (its bytes reach GPU memory at the unmap), then
    // the picture's bottom-right quadrant copied into its top-left one.
    gpu.imm
        .map(staging, MapType::Write, MapFlags::None)
        .expect("a write map")
        .fill(0x7f);
    let quadrant = CopyBox {
        left: 8,
        top: 8,
        right: 16,
        bottom: 16,
    };
    gpu.imm
        .copy_texture_region(staging, 0, 0, 0, picture, 0, quadrant);
    let mapped = gpu.imm.map(staging, MapType::Read, MapFlags::None).unwrap();
    let (bytes, pitch) = (mapped.to_vec(), mapped.row_pitch());
    drop(mapped);
    for y in 0..16 {
        for x in 0..16 {
            let want = match (x, y) {
                (0..4, 0..4) => GREEN,
                (0..8, 0..8) => BLUE,
                _ => [0x7f; 4],
            };
            assert_eq!(mapped_texel(&bytes, pitch, x, y), want, "({x}, {y})");
        }
    }
    gpu.imm.flush().unwrap();
    gpu.assert_clean();
}

const CS: &str = r#"
@group(0) @binding(1440) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn cs(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&out)) {
        out[id.x] = id.x * 7u + 1u;
    }
}
"#;

#[test]
fn r_gpu_2_read_map_of_a_staging_buffer_a_dispatch_wrote() {
    let Some(mut gpu) = gpu() else { return };
    let cs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc {
                unordered_access_views: Slots::of(&[0]),
                ..ShaderDesc::new("cs", Stage::Compute)
            },
            ShaderCode::Wgsl {
                source: CS,
                entry: "cs",
            },
        )
        .unwrap();
    let written = gpu
        .device
        .create_buffer(&BufferDesc {
            name: "written",
            size: 256,
            bind: BindFlags::UNORDERED_ACCESS,
            ..Default::default()
        })
        .unwrap();
    let staging = gpu
        .device
        .create_buffer(&BufferDesc {
            name: "staging",
            size: 256,
            usage: Usage::Staging,
            bind: BindFlags::NONE,
            ..Default::default()
        })
        .unwrap();
    let copy = gpu
        .device
        .create_buffer(&BufferDesc {
            name: "copy",
            size: 256,
            ..Default::default()
        })
        .unwrap();
    let uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("written.uav", written))
        .unwrap();
    gpu.imm.set_shader(Stage::Compute, Some(cs));
    gpu.imm.set_compute_unordered_access_views(0, &[Some(uav)]);
    gpu.imm.dispatch(1, 1, 1);
    gpu.imm.set_compute_unordered_access_views(0, &[None]);
    gpu.imm.copy_resource(staging, written);
    let expected: Vec<u8> = (0..64u32).flat_map(|i| (i * 7 + 1).to_le_bytes()).collect();
    {
        let mut mapped = gpu
            .imm
            .map(staging, MapType::ReadWrite, MapFlags::None)
            .expect("a read_write map of a staging buffer");
        assert_eq!(&mapped[..], &expected[..], "what the dispatch wrote");
        mapped[..4].copy_from_slice(&0xdead_beef_u32.to_le_bytes());
    }
    // The read_write map's bytes reached GPU memory at the unmap: a copy carries them.
    gpu.imm.copy_resource(copy, staging);
    gpu.imm.flush().unwrap();
    let mut changed = expected.clone();
    changed[..4].copy_from_slice(&0xdead_beef_u32.to_le_bytes());
    assert_eq!(gpu.backend().read_buffer(copy).unwrap(), changed);
    let again = gpu.imm.map(staging, MapType::Read, MapFlags::None).unwrap();
    assert_eq!(&again[..], &changed[..], "mapped again");
    drop(again);
    gpu.assert_clean();
}
