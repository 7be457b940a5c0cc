//! R-GPU-3, indirect draws and dispatches: a dispatch writes the arguments of a
//! `draw_instanced_indirect` (the GPU's write made visible to the indirect read); a
//! `draw_indexed_instanced_indirect` reads its arguments at an offset of a buffer's initial
//! bytes; a `dispatch_indirect` runs the groups its buffer says; `draw_auto` is refused, naming
//! what is missing (arguments past their buffer the model refuses first, R-REC-5). Known pixels and bytes, the oracle and the
//! validation layer clean.

mod common;

use common::*;
use recorder::*;

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn args_buffer(gpu: &Gpu, name: &str, size: u32, data: Option<&[u8]>) -> Buffer {
    let desc = BufferDesc {
        name,
        size,
        bind: BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
        ..Default::default()
    };
    match data {
        Some(data) => gpu.device.create_buffer_with_data(&desc, data),
        None => gpu.device.create_buffer(&desc),
    }
    .expect("an argument buffer")
}

/// A green quad over the middle half of a 32 x 32 back buffer cleared blue: the colour
/// shader bound, ready for an indirect draw.
fn bind_colour_quad(gpu: &mut Gpu) -> (SwapChain, RenderTargetView) {
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let cb = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
    (chain, rtv)
}

fn assert_middle_quad(gpu: &mut Gpu, chain: SwapChain) {
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(8, 8), (16, 16), (23, 23)] {
        assert_eq!(texel(&pixels, x, y), [0, 255, 0, 255], "inside, ({x}, {y})");
    }
    for (x, y) in [(0, 0), (7, 16), (24, 16)] {
        assert_eq!(
            texel(&pixels, x, y),
            [0, 0, 255, 255],
            "outside, ({x}, {y})"
        );
    }
}

/// Writes `draw_instanced_indirect` arguments: 6 vertices, 1 instance, from vertex 0.
const ARGS_CS: &str = r#"
@group(0) @binding(1440) var<storage, read_write> args: array<u32>;

@compute @workgroup_size(1)
fn cs() {
    args[0] = 6u;
    args[1] = 1u;
    args[2] = 0u;
    args[3] = 0u;
}
"#;

#[test]
fn r_gpu_3_draw_instanced_indirect_reads_arguments_a_dispatch_wrote() {
    let Some(mut gpu) = gpu() else { return };
    // Initial arguments draw nothing; the dispatch's draw the quad.
    let args = args_buffer(&gpu, "args", 16, Some(&words(&[0, 0, 0, 0])));
    let uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("args.uav", args))
        .unwrap();
    let cs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc {
                unordered_access_views: Slots::of(&[0]),
                ..ShaderDesc::new("args_cs", Stage::Compute)
            },
            ShaderCode::Wgsl {
                source: ARGS_CS,
                entry: "cs",
            },
        )
        .unwrap();
    let (chain, _) = bind_colour_quad(&mut gpu);
    gpu.imm.set_shader(Stage::Compute, Some(cs));
    gpu.imm.set_compute_unordered_access_views(0, &[Some(uav)]);
    gpu.imm.dispatch(1, 1, 1);
    gpu.imm.set_compute_unordered_access_views(0, &[None]);
    gpu.imm.draw_instanced_indirect(args, 0);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().expect("the indirect draw is translated");
    assert_middle_quad(&mut gpu, chain);
    assert_eq!(gpu.backend().oracle_counts().draws, 1);
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_draw_indexed_instanced_indirect_reads_arguments_at_an_offset() {
    let Some(mut gpu) = gpu() else { return };
    // A word of padding, then 6 indices, 1 instance, from index 0, vertex offset 0, instance 0.
    let args = args_buffer(&gpu, "args", 24, Some(&words(&[99, 6, 1, 0, 0, 0])));
    let indices: Vec<u8> = (0..6u16).flat_map(|i| i.to_le_bytes()).collect();
    let index_buffer = gpu
        .device
        .create_buffer_with_data(
            &BufferDesc {
                name: "indices",
                size: 12,
                bind: BindFlags::INDEX,
                ..Default::default()
            },
            &indices,
        )
        .unwrap();
    let (chain, _) = bind_colour_quad(&mut gpu);
    gpu.imm
        .set_index_buffer(Some(index_buffer), Format::R16Uint, 0);
    gpu.imm.draw_indexed_instanced_indirect(args, 4);
    gpu.imm.present(chain).unwrap();
    gpu.imm
        .flush()
        .expect("the indexed indirect draw is translated");
    assert_middle_quad(&mut gpu, chain);
    gpu.assert_clean();
}

/// `out[i] = i + 1` for each invocation (64 a group).
const COUNT_CS: &str = r#"
@group(0) @binding(1440) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn cs(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&out)) {
        out[id.x] = id.x + 1u;
    }
}
"#;

#[test]
fn r_gpu_3_dispatch_indirect_runs_the_groups_its_buffer_says() {
    let Some(mut gpu) = gpu() else { return };
    let args = args_buffer(&gpu, "groups", 12, Some(&words(&[2, 1, 1])));
    let out = args_buffer(&gpu, "out", 1024, None);
    let uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("out.uav", out))
        .unwrap();
    let cs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc {
                unordered_access_views: Slots::of(&[0]),
                ..ShaderDesc::new("count_cs", Stage::Compute)
            },
            ShaderCode::Wgsl {
                source: COUNT_CS,
                entry: "cs",
            },
        )
        .unwrap();
    gpu.imm.set_shader(Stage::Compute, Some(cs));
    gpu.imm.set_compute_unordered_access_views(0, &[Some(uav)]);
    gpu.imm.dispatch_indirect(args, 0);
    gpu.imm
        .flush()
        .expect("the indirect dispatch is translated");
    let expected: Vec<u8> = (0..256u32)
        .flat_map(|i| if i < 128 { i + 1 } else { 0 }.to_le_bytes())
        .collect();
    assert_eq!(
        gpu.backend().read_buffer(out).unwrap(),
        expected,
        "two groups of 64"
    );
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_draw_auto_is_refused_naming_what_is_missing() {
    let Some(mut gpu) = gpu() else { return };
    let _ = bind_colour_quad(&mut gpu);
    gpu.imm.draw_auto();
    let message = gpu.imm.flush().expect_err("draw_auto").to_string();
    assert!(
        message.starts_with("draw_auto: the draw draws the vertices stream output wrote")
            && message.contains("VK_EXT_transform_feedback"),
        "{message}"
    );
}
