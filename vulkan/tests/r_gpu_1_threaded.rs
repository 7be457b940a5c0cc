//! R-GPU-1, the seam inline and under `GpuTiming::Threaded` (the GPU model on its own thread,
//! which is then the backend's submission thread): frames of a legacy swap chain, whose
//! render-target view moves to the next back buffer at each present (R-EX-7), each present
//! showing the frame drawn for it.

mod common;

use common::*;
use executor::GpuTiming;
use recorder::*;

fn frames_show_what_was_drawn(timing: GpuTiming) {
    let Some(mut gpu) = gpu() else { return };
    gpu.imm.set_gpu_timing(timing);
    assert_eq!(gpu.imm.gpu_timing(), timing);
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let colours = [
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 255],
    ];
    let buffers: Vec<Buffer> = colours
        .iter()
        .map(|c| gpu.colour_buffer("colour", Usage::Default, c.map(|v| v as f32 / 255.0)))
        .collect();
    for (frame, cb) in buffers.iter().enumerate() {
        gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
        gpu.imm.set_render_targets(&[Some(rtv)], None);
        gpu.imm
            .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
        gpu.imm
            .set_primitive_topology(PrimitiveTopology::TriangleList);
        gpu.imm.set_shader(Stage::Vertex, Some(vs));
        gpu.imm.set_shader(Stage::Pixel, Some(ps));
        gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(*cb)]);
        gpu.imm.draw(6, 0);
        gpu.imm.present(chain).unwrap();
        let pixels = gpu.backend().presented_pixels(chain).expect("a present");
        assert_eq!(
            texel(&pixels, 16, 16),
            colours[frame],
            "{timing:?}: frame {frame}'s quad"
        );
        assert_eq!(
            texel(&pixels, 1, 1),
            [0, 0, 0, 255],
            "{timing:?}: frame {frame}'s clear"
        );
    }
    gpu.imm.flush().unwrap();
    assert_eq!(gpu.backend().oracle_counts().draws, 4);
    gpu.assert_clean();
}

#[test]
fn r_gpu_1_the_model_thread_is_the_backends_submission_thread() {
    frames_show_what_was_drawn(GpuTiming::Inline);
    frames_show_what_was_drawn(GpuTiming::Threaded);
}
