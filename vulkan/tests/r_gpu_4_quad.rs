//! R-GPU-4, frames whose pixels are known: a quad coloured by its constant buffer, and a
//! dynamic constant buffer renamed (write-discard map) between two draws, each quad its own
//! colour; under the validation layer, the oracle comparing every draw with the model's record.

mod common;

use common::*;
use recorder::*;

fn bind_target(gpu: &mut Gpu, rtv: RenderTargetView, width: f32, height: f32) {
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, width, height)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
}

#[test]
fn r_gpu_4_a_quad_coloured_by_its_constant_buffer() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let cb = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 1.0, 1.0]);
    bind_target(&mut gpu, rtv, 32.0, 32.0);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
    gpu.imm.draw(6, 0);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(8, 8), (16, 16), (23, 23), (8, 23)] {
        assert_eq!(texel(&pixels, x, y), [0, 255, 0, 255], "inside, ({x}, {y})");
    }
    for (x, y) in [(0, 0), (7, 16), (24, 16), (16, 31)] {
        assert_eq!(
            texel(&pixels, x, y),
            [0, 0, 255, 255],
            "outside, ({x}, {y})"
        );
    }
    assert_eq!(gpu.backend().oracle_counts().draws, 1);
    let clears = gpu.backend().clear_counts();
    assert_eq!(
        (clears.folded, clears.transfer),
        (1, 0),
        "the clear is the pass's load op"
    );
    let time = gpu.backend().gpu_time();
    assert!(
        time.submissions >= 1 && time.last_ns > 0.0,
        "timestamps: {time:?}"
    );
    eprintln!(
        "GPU time of the frame's submission: {:.3} ms",
        time.last_ns / 1e6
    );
    gpu.assert_clean();
}

/// Writes `colour` into a new instance of the dynamic buffer `cb` (a write-discard map).
fn write_colour(gpu: &mut Gpu, cb: Buffer, colour: [f32; 4]) {
    let data = gpu
        .imm
        .map(cb, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .expect("a write-discard map");
    data[..16].copy_from_slice(&colour_bytes(colour));
    gpu.imm.unmap(cb);
}

#[test]
fn r_gpu_4_a_dynamic_buffer_renamed_between_draws() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let cb = gpu
        .device
        .create_buffer(&BufferDesc {
            name: "dynamic colour",
            size: 16,
            usage: Usage::Dynamic,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    bind_target(&mut gpu, rtv, 32.0, 16.0);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
    // Vertices 6..12 cover the whole viewport: the left half, then the right half.
    write_colour(&mut gpu, cb, [1.0, 0.0, 0.0, 1.0]);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm.draw(6, 6);
    write_colour(&mut gpu, cb, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 16.0)]);
    gpu.imm.draw(6, 6);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for (x, y) in [(0, 0), (8, 8), (15, 15)] {
        assert_eq!(
            texel(&pixels, x, y),
            [255, 0, 0, 255],
            "the first instance, ({x}, {y})"
        );
    }
    for (x, y) in [(16, 0), (24, 8), (31, 15)] {
        assert_eq!(
            texel(&pixels, x, y),
            [0, 0, 255, 255],
            "the second instance, ({x}, {y})"
        );
    }
    let backend = gpu.backend();
    assert_eq!(backend.oracle_counts().draws, 2);
    assert_eq!(backend.descriptor_sets_written(), 2, "one set per instance");
    gpu.assert_clean();
}
