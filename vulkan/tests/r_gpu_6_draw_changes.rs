//! R-GPU-6: the backend resolves again only what the model says changed since the last draw
//! (`executor::DrawChanges`), so a draw after a change of one binding or one register, with
//! nothing else between, must draw with the new one. Each test draws a full-target quad, then
//! changes one thing and draws the middle quad (or the other way round, where the change is
//! what makes the second draw cover more): a change the backend missed leaves the middle as the
//! first draw left it. Under the validation layer, with the oracle comparing every draw with the
//! model's record (R-GPU-4).

mod common;

use common::*;
use recorder::*;

/// A pixel shader returning yellow, whatever is bound.
const YELLOW_PS: &str = r#"
@fragment
fn ps() -> @location(0) vec4<f32> {
    return vec4<f32>(1.0, 1.0, 0.0, 1.0);
}
"#;

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const YELLOW: [u8; 4] = [255, 255, 0, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];

/// A 32 x 32 back buffer cleared black and bound with its viewport, the quad vertex shader,
/// the colour pixel shader reading `cb` at slot 0 of the pixel stage.
fn setup(gpu: &mut Gpu, cb: Buffer) -> (SwapChain, RenderTargetView) {
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
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

/// Presents `chain` and checks the texels: `middle` inside the middle quad, `edge` outside it.
fn check(gpu: &mut Gpu, chain: SwapChain, middle: [u8; 4], edge: [u8; 4], draws: u64) {
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(8, 8), (16, 16), (23, 23)] {
        assert_eq!(texel(&pixels, x, y), middle, "the middle, ({x}, {y})");
    }
    for (x, y) in [(0, 0), (4, 16), (31, 31)] {
        assert_eq!(texel(&pixels, x, y), edge, "the edge, ({x}, {y})");
    }
    assert_eq!(gpu.backend().oracle_counts().draws, draws);
    gpu.assert_clean();
}

#[test]
fn r_gpu_6_a_draw_after_only_a_constant_buffer_changed_reads_the_new_one() {
    let Some(mut gpu) = gpu() else { return };
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    let (chain, _) = setup(&mut gpu, red);
    // Twice: the first draw opens the pass (its target's layout moves, which makes the
    // backend resolve everything again); the second is the steady state.
    gpu.imm.draw(6, 6);
    gpu.imm.draw(6, 6);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(green)]);
    gpu.imm.draw(6, 0);
    check(&mut gpu, chain, GREEN, RED, 3);
}

#[test]
fn r_gpu_6_a_draw_after_only_the_pixel_shader_changed_runs_it() {
    let Some(mut gpu) = gpu() else { return };
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let (chain, _) = setup(&mut gpu, red);
    let yellow = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc::new("yellow_ps", Stage::Pixel),
            ShaderCode::Wgsl {
                source: YELLOW_PS,
                entry: "ps",
            },
        )
        .expect("the yellow pixel shader");
    gpu.imm.draw(6, 6);
    gpu.imm.draw(6, 6);
    gpu.imm.set_shader(Stage::Pixel, Some(yellow));
    gpu.imm.draw(6, 0);
    check(&mut gpu, chain, YELLOW, RED, 3);
}

#[test]
fn r_gpu_6_a_draw_after_only_the_viewport_changed_lands_in_it() {
    let Some(mut gpu) = gpu() else { return };
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let (chain, _) = setup(&mut gpu, red);
    // The middle quad of a viewport of the middle: texels 12..20; then the whole target's.
    gpu.imm
        .set_viewports(&[Viewport::new(8.0, 8.0, 16.0, 16.0)]);
    gpu.imm.draw(6, 0);
    gpu.imm.draw(6, 0);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm.draw(6, 0);
    check(&mut gpu, chain, RED, BLACK, 3);
}

#[test]
fn r_gpu_6_a_draw_after_only_the_index_buffer_changed_reads_it() {
    let Some(mut gpu) = gpu() else { return };
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let (chain, _) = setup(&mut gpu, red);
    let indices = |name: &str, first: u16| {
        let data: Vec<u8> = (first..first + 6).flat_map(|i| i.to_le_bytes()).collect();
        gpu.device
            .create_buffer_with_data(
                &BufferDesc {
                    name,
                    size: 12,
                    bind: BindFlags::INDEX,
                    ..Default::default()
                },
                &data,
            )
            .expect("an index buffer")
    };
    // Indices 0..6: the middle quad; 6..12: the whole target.
    let (middle, full) = (indices("middle", 0), indices("full", 6));
    gpu.imm.set_index_buffer(Some(middle), Format::R16Uint, 0);
    gpu.imm.draw_indexed(6, 0, 0);
    gpu.imm.draw_indexed(6, 0, 0);
    gpu.imm.set_index_buffer(Some(full), Format::R16Uint, 0);
    gpu.imm.draw_indexed(6, 0, 0);
    check(&mut gpu, chain, RED, RED, 3);
}

#[test]
fn r_gpu_6_a_draw_with_nothing_changed_after_a_submission_draws() {
    let Some(mut gpu) = gpu() else { return };
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    let (chain, _) = setup(&mut gpu, red);
    gpu.imm.draw(6, 6);
    gpu.imm.draw(6, 6);
    // A new command buffer binds nothing: the draw after it binds everything again, though
    // the model saw no change (reaching the backend submits what it recorded).
    let submissions = gpu.backend().submissions();
    assert!(submissions >= 1, "the first draws were submitted");
    gpu.imm.draw(6, 6);
    gpu.imm.draw(6, 6);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(green)]);
    gpu.imm.draw(6, 0);
    check(&mut gpu, chain, GREEN, RED, 5);
}

#[test]
fn r_gpu_6_a_fast_list_changing_one_slot_a_draw_draws_each_binding() {
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    let (chain, rtv) = setup(&mut gpu, red);
    // The same as a list: its draws reach the backend with the model's changes, the list's
    // start telling everything.
    let mut context = gpu
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "changes",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("a deferred context");
    context.set_render_targets(&[Some(rtv)], None);
    context.set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    context.set_primitive_topology(PrimitiveTopology::TriangleList);
    context.set_shader(Stage::Vertex, Some(gpu.quad_vs()));
    context.set_shader(Stage::Pixel, Some(gpu.colour_ps()));
    context.set_constant_buffers(Stage::Pixel, 0, &[Some(red)]);
    context.draw(6, 6);
    context.draw(6, 6);
    context.set_constant_buffers(Stage::Pixel, 0, &[Some(green)]);
    context.draw(6, 0);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .expect("the list records");
    gpu.imm
        .execute_command_list(&list, RestoreState::ClearState)
        .expect("the list executes");
    check(&mut gpu, chain, GREEN, RED, 3);
}

/// A vertex shader drawing the full quad (vertex index 0..6) in the colour of its constant
/// buffer 0.
fn colour_vs_source() -> String {
    let binding =
        vulkan_backend::binding(Stage::Vertex, vulkan_backend::SlotKind::ConstantBuffer, 0);
    format!(
        "struct Constants {{ color: vec4<f32> }};
@group(0) @binding({binding}) var<uniform> constants: Constants;
struct Out {{ @builtin(position) position: vec4<f32>, @location(0) color: vec4<f32> }};
@vertex
fn vs(@builtin(vertex_index) index: u32) -> Out {{
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0),
    );
    var out: Out;
    out.position = vec4<f32>(corners[index % 6u], 0.0, 1.0);
    out.color = constants.color;
    return out;
}}"
    )
}

/// A pixel shader returning the vertex stage's colour with its own constant buffer 0's alpha.
const ALPHA_PS: &str = r#"
struct Constants { color: vec4<f32> };
@group(0) @binding(1024) var<uniform> constants: Constants;
@fragment
fn ps(@location(0) color: vec4<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(color.rgb, constants.color.a);
}
"#;

#[test]
fn r_gpu_6_a_ring_flush_while_resolving_one_stage_places_the_others_again() {
    // Three regions in the upload ring: placing the pixel stage's next instance flushes the
    // frame every few draws, in the middle of a draw whose only change is that stage's; the
    // vertex stage's instance must be placed again in the new frame, not read where the old
    // frame had it (a later instance lies there by then).
    let options = vulkan_backend::VulkanOptions {
        ring_bytes: 768,
        ..Default::default()
    };
    let Some(mut gpu) = gpu_with_options(DeviceDesc::default(), options) else {
        return;
    };
    let chain = gpu.swap_chain(64, 8);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let vs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc {
                constant_buffers: Slots::of(&[0]),
                ..ShaderDesc::new("colour_vs", Stage::Vertex)
            },
            ShaderCode::Wgsl {
                source: &colour_vs_source(),
                entry: "vs",
            },
        )
        .expect("the colour vertex shader");
    let ps = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc {
                constant_buffers: Slots::of(&[0]),
                ..ShaderDesc::new("alpha_ps", Stage::Pixel)
            },
            ShaderCode::Wgsl {
                source: ALPHA_PS,
                entry: "ps",
            },
        )
        .expect("the alpha pixel shader");
    let dynamic = |gpu: &mut Gpu, name: &str, colour: [f32; 4]| {
        let buffer = gpu
            .device
            .create_buffer(&BufferDesc {
                name,
                size: 16,
                usage: Usage::Dynamic,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            })
            .expect("a dynamic constant buffer");
        let data = gpu
            .imm
            .map(buffer, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
            .expect("a write-discard map");
        data[..16].copy_from_slice(&colour_bytes(colour));
        gpu.imm.unmap(buffer);
        buffer
    };
    let red = dynamic(&mut gpu, "vertex colour", [1.0, 0.0, 0.0, 1.0]);
    // The pixel stage's buffers: colours the vertex stage would read were its region stale.
    let others: Vec<Buffer> = (0..8)
        .map(|k| {
            dynamic(
                &mut gpu,
                &format!("alpha{k}"),
                [0.0, 1.0, k as f32 / 8.0, 1.0],
            )
        })
        .collect();
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_constant_buffers(Stage::Vertex, 0, &[Some(red)]);
    // One 8 x 8 cell a draw, the pixel stage's buffer the only other change.
    for (k, buffer) in others.iter().enumerate() {
        gpu.imm
            .set_viewports(&[Viewport::new(8.0 * k as f32, 0.0, 8.0, 8.0)]);
        gpu.imm
            .set_constant_buffers(Stage::Pixel, 0, &[Some(*buffer)]);
        gpu.imm.draw(6, 0);
    }
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for k in 0..8 {
        assert_eq!(texel(&pixels, 8 * k + 4, 4), RED, "cell {k}");
    }
    assert!(
        gpu.backend().submissions() >= 3,
        "the ring flushed the frame"
    );
    gpu.assert_clean();
}
