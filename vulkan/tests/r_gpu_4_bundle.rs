//! R-GPU-4, a bundle with inherited state: the bundle sets the shaders and draws; the
//! constant buffer its pixel shader reads, the targets and the viewport are the executing
//! context's (R-B-4, R-B-7), so the same bundle drawn twice draws two quads, each in the colour
//! and place the context gave it. The model expands the bundle (R-GPU-1); the backend draws
//! what the records say.

mod common;

use bundles::{BundleDesc, BundleRecorder};
use common::*;
use recorder::*;

#[test]
fn r_gpu_4_a_bundle_with_inherited_state() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    let mut recording = BundleRecorder::new(
        &gpu.device,
        &BundleDesc::new("quad", &[Format::R8G8B8A8Unorm]),
    )
    .unwrap();
    recording.set_input_layout(None);
    recording.set_shader(Stage::Vertex, Some(vs));
    for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
        recording.set_shader(stage, None);
    }
    recording.set_shader(Stage::Pixel, Some(ps));
    recording.set_primitive_topology(PrimitiveTopology::TriangleList);
    // Vertices 6..12: the whole viewport.
    recording.draw(6, 6);
    let bundle = recording.finish().unwrap();

    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(red)]);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm.draw_bundle(&bundle).unwrap();
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(green)]);
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 16.0)]);
    gpu.imm.draw_bundle(&bundle).unwrap();
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();

    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    assert_eq!(
        texel(&pixels, 8, 8),
        [255, 0, 0, 255],
        "the first call's inherited buffer"
    );
    assert_eq!(
        texel(&pixels, 24, 8),
        [0, 255, 0, 255],
        "the second call's inherited buffer"
    );
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}
