//! R-GPU-4, predication: a draw predicated on an occlusion query of a zero-pixel draw is not
//! drawn, one predicated on a visible draw is, with conditional rendering deciding on the GPU
//! (where the device has `VK_EXT_conditional_rendering`) and with the model's decision forced:
//! the same pixels; and a draw whose primitives cover no pixel, where the GPU's decision (none
//! passed) and the model's estimate (one sample per primitive) differ.

mod common;

use common::*;
use recorder::*;
use vulkan_backend::{VulkanBackend, VulkanOptions};

const BLUE: [u8; 4] = [0, 0, 255, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const RED: [u8; 4] = [255, 0, 0, 255];

/// [`gpu`] with conditional rendering on or off.
fn gpu_with_conditional(conditional_rendering: bool) -> Option<Gpu> {
    let mut gpu = gpu()?;
    let options = VulkanOptions {
        validation: true,
        conditional_rendering,
        ..VulkanOptions::default()
    };
    let backend = VulkanBackend::new(&gpu.device, options).expect("the backend");
    gpu.imm.set_gpu_backend(Some(Box::new(backend)));
    Some(gpu)
}

struct Scene {
    chain: SwapChain,
    green: Buffer,
    red: Buffer,
}

fn scene(gpu: &mut Gpu) -> Scene {
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    Scene { chain, green, red }
}

/// Draws a zero-pixel draw under predicate `none` and the green middle quad under `visible`;
/// then the full red quad on the left half predicated on `none`, on the right half on
/// `visible` (each skipped when its predicate answers `false`: nothing passed).
fn predicated_frame(gpu: &mut Gpu) -> (Scene, Pixels) {
    let scene = scene(gpu);
    let none = gpu
        .device
        .create_query("none", QueryKind::Predicate)
        .unwrap();
    let visible = gpu
        .device
        .create_query("visible", QueryKind::Predicate)
        .unwrap();
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(scene.green)]);
    gpu.imm.begin_query(none);
    // Two vertices of a triangle list: no primitive (no pixel, and no sample in the model).
    gpu.imm.draw(2, 0);
    gpu.imm.end_query(none);
    gpu.imm.begin_query(visible);
    gpu.imm.draw(6, 0);
    gpu.imm.end_query(visible);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(scene.red)]);
    gpu.imm.set_predication(Some(none), PredicateValue::False);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 32.0)]);
    gpu.imm.draw(6, 6);
    gpu.imm
        .set_predication(Some(visible), PredicateValue::False);
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 32.0)]);
    gpu.imm.draw(6, 6);
    gpu.imm.set_predication(None, PredicateValue::False);
    gpu.imm.present(scene.chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu
        .backend()
        .presented_pixels(scene.chain)
        .expect("a present");
    (scene, pixels)
}

type Pixels = vulkan_backend::Pixels;

fn assert_predicated_picture(pixels: &Pixels) {
    for (x, y) in [(0, 0), (4, 16), (15, 31)] {
        assert_eq!(texel(pixels, x, y), BLUE, "skipped: ({x}, {y})");
    }
    for (x, y) in [(8, 8), (12, 20)] {
        assert_eq!(texel(pixels, x, y), GREEN, "the visible quad: ({x}, {y})");
    }
    for (x, y) in [(16, 0), (20, 16), (31, 31)] {
        assert_eq!(texel(pixels, x, y), RED, "drawn: ({x}, {y})");
    }
}

#[test]
fn r_gpu_4_predication_by_conditional_rendering() {
    let Some(mut gpu) = gpu_with_conditional(true) else {
        return;
    };
    let (_, pixels) = predicated_frame(&mut gpu);
    assert_predicated_picture(&pixels);
    let counts = gpu.backend().predication_counts();
    if gpu.backend().has_conditional_rendering() {
        assert_eq!(counts.conditional, 2, "{counts:?}");
    } else {
        assert_eq!(counts.by_model, 2, "{counts:?}");
    }
    assert_eq!(gpu.backend().oracle_counts().draws, 4);
    gpu.assert_clean();
}

#[test]
fn r_gpu_4_predication_by_the_model() {
    let Some(mut gpu) = gpu_with_conditional(false) else {
        return;
    };
    let (_, pixels) = predicated_frame(&mut gpu);
    assert_predicated_picture(&pixels);
    let counts = gpu.backend().predication_counts();
    assert_eq!((counts.by_model, counts.conditional), (2, 0), "{counts:?}");
    assert_eq!(
        gpu.backend().oracle_counts().draws,
        3,
        "the skipped draw is not recorded"
    );
    gpu.assert_clean();
}

/// A predicate around a quad drawn outside its target: no pixel passes on the GPU, two
/// samples in the model (one per primitive). A draw skipped when nothing passed: the GPU skips
/// it; the model, deciding "passed", draws it.
fn off_target_frame(conditional_rendering: bool) -> Option<(Pixels, u64)> {
    let mut gpu = gpu_with_conditional(conditional_rendering)?;
    let scene = scene(&mut gpu);
    let hidden = gpu
        .device
        .create_query("hidden", QueryKind::Predicate)
        .unwrap();
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(scene.green)]);
    gpu.imm
        .set_viewports(&[Viewport::new(64.0, 64.0, 16.0, 16.0)]);
    gpu.imm.begin_query(hidden);
    gpu.imm.draw(6, 6);
    gpu.imm.end_query(hidden);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(scene.red)]);
    gpu.imm.set_predication(Some(hidden), PredicateValue::False);
    gpu.imm.draw(6, 6);
    gpu.imm.set_predication(None, PredicateValue::False);
    gpu.imm.present(scene.chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu
        .backend()
        .presented_pixels(scene.chain)
        .expect("a present");
    let samples = match gpu.backend().query_result(hidden).unwrap() {
        Some(executor::QueryData::Predicate { samples, .. }) => samples,
        other => panic!("not a predicate's result: {other:?}"),
    };
    gpu.assert_clean();
    Some((pixels, samples))
}

#[test]
fn r_gpu_4_predication_the_gpu_decides_where_the_model_estimates() {
    let Some((by_model, samples)) = off_target_frame(false) else {
        return;
    };
    assert_eq!(samples, 0, "no pixel passed on the GPU");
    assert_eq!(
        texel(&by_model, 16, 16),
        RED,
        "the model: two samples passed, drawn"
    );
    let Some((by_gpu, _)) = off_target_frame(true) else {
        return;
    };
    let gpu_has_it = {
        let mut gpu = gpu().expect("a GPU");
        gpu.backend().has_conditional_rendering()
    };
    if gpu_has_it {
        assert_eq!(
            texel(&by_gpu, 16, 16),
            BLUE,
            "the GPU: none passed, skipped"
        );
    }
}

/// A list executed with `RestoreState::ClearState` clears the immediate context's predicate
/// with no command the backend sees: the model's state says what is in force at each draw.
#[test]
fn r_gpu_4_predication_ends_where_the_model_state_clears_it() {
    let Some(mut gpu) = gpu_with_conditional(true) else {
        return;
    };
    let scene = scene(&mut gpu);
    let rtv = gpu.device.swap_chain_info(scene.chain).unwrap().buffers[0].1;
    let none = gpu
        .device
        .create_query("none", QueryKind::Predicate)
        .unwrap();
    gpu.imm.begin_query(none);
    gpu.imm.draw(2, 0);
    gpu.imm.end_query(none);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(scene.red)]);
    gpu.imm.set_predication(Some(none), PredicateValue::False);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 32.0)]);
    gpu.imm.draw(6, 6);
    let mut deferred = gpu
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "list",
            ..Default::default()
        })
        .unwrap();
    deferred.set_primitive_topology(PrimitiveTopology::TriangleList);
    let list = deferred
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    gpu.imm
        .execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    // Everything was cleared, the predicate too: bind again and draw the right half.
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 32.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(scene.red)]);
    gpu.imm.draw(6, 6);
    gpu.imm.present(scene.chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu
        .backend()
        .presented_pixels(scene.chain)
        .expect("a present");
    assert_eq!(texel(&pixels, 8, 16), BLUE, "predicated off");
    assert_eq!(texel(&pixels, 24, 16), RED, "no predicate after the list");
    gpu.assert_clean();
}
