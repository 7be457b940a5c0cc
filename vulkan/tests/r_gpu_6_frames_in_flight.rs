//! R-GPU-6: a submission does not wait for the GPU (frames in flight, `command_frame.rs`), and
//! a draw that changed one constant buffer of a pushed set writes that one descriptor
//! (`descriptors.rs`). A frame in flight keeps its upload regions until its fence signals: a
//! small ring, filled and flushed again and again while earlier frames may still be running,
//! still gives each draw the colour its write-discard map wrote. Under the validation layer
//! with synchronization validation, the oracle comparing every draw with the model's record.

mod common;

use common::*;
use recorder::*;
use vulkan_backend::VulkanOptions;

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

/// The colour of cell `i` of the 8 x 8 grid: distinct per cell, exact in 8 bits.
fn cell_colour(i: u32) -> [f32; 4] {
    [(i % 8) as f32 / 7.0, (i / 8) as f32 / 7.0, 1.0, 1.0]
}

/// `colour` as the RGBA8 texel the target stores.
fn texel_of(colour: [f32; 4]) -> [u8; 4] {
    colour.map(|c| (c * 255.0).round() as u8)
}

/// A 32 x 32 back buffer cleared black and bound, the quad shaders, `cb` the pixel stage's
/// constant buffer 0.
fn setup(gpu: &mut Gpu, cb: Buffer) -> SwapChain {
    let chain = gpu.swap_chain(32, 32);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
    chain
}

#[test]
fn r_gpu_6_a_submission_does_not_wait_for_the_gpu() {
    let Some(mut gpu) = gpu() else { return };
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let chain = setup(&mut gpu, red);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    for _ in 0..4 {
        gpu.imm.draw(6, 6);
        gpu.imm.flush().unwrap();
        // Reaching the backend submits what the model handed it (`gpu_backend_mut`).
        gpu.backend();
    }
    let backend = gpu.backend();
    let (submissions, waits) = (backend.submissions(), backend.fence_waits());
    assert!(submissions >= 4, "{submissions} submissions");
    // Only a frame made current again while in flight is waited for: the fourth submission
    // reuses the first's frame.
    assert!(
        waits < submissions,
        "{waits} fence waits for {submissions} submissions: every flush waited"
    );
    assert!(backend.frames_in_flight() >= 1, "nothing in flight");
    backend.wait_for_gpu().unwrap();
    assert_eq!(backend.frames_in_flight(), 0);
    // A read-back waits for what it reads: the present's pixels are the draws'.
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    assert_eq!(texel(&pixels, 16, 16), [255, 0, 0, 255]);
    gpu.assert_clean();
}

#[test]
fn r_gpu_6_a_frame_in_flight_keeps_its_upload_regions() {
    // A ring of 8 regions (256 bytes each) a frame: the 64 write-discard maps below fill it
    // every 8 draws, each time flushing without waiting for the frame submitted before.
    let options = VulkanOptions {
        ring_bytes: 8 * 256,
        ..VulkanOptions::default()
    };
    let Some(mut gpu) = gpu_with_options(DeviceDesc::default(), options) else {
        return;
    };
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
    let chain = setup(&mut gpu, cb);
    for i in 0..64u32 {
        write_colour(&mut gpu, cb, cell_colour(i));
        let (x, y) = ((i % 8) as f32 * 4.0, (i / 8) as f32 * 4.0);
        gpu.imm.set_viewports(&[Viewport::new(x, y, 4.0, 4.0)]);
        // Vertices 6..12 cover the whole viewport: the cell.
        gpu.imm.draw(6, 6);
    }
    let submissions = gpu.backend().submissions();
    let waits = gpu.backend().fence_waits();
    assert!(
        submissions >= 7,
        "{submissions} submissions: the ring never filled"
    );
    assert!(
        waits < submissions,
        "{waits} fence waits for {submissions} submissions"
    );
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    for i in 0..64u32 {
        let (x, y) = ((i % 8) * 4 + 2, (i / 8) * 4 + 2);
        assert_eq!(
            texel(&pixels, x, y),
            texel_of(cell_colour(i)),
            "cell {i} at ({x}, {y})"
        );
    }
    assert_eq!(gpu.backend().oracle_counts().draws, 64);
    gpu.assert_clean();
}

/// A pixel shader adding its constant buffers 0 and 1 (bindings 1024 and 1025).
const SUM_PS: &str = r#"
struct Constants { color: vec4<f32> };
@group(0) @binding(1024) var<uniform> a: Constants;
@group(0) @binding(1025) var<uniform> b: Constants;

@fragment
fn ps() -> @location(0) vec4<f32> {
    return a.color + b.color;
}
"#;

#[test]
fn r_gpu_6_a_changed_constant_buffer_writes_only_its_descriptor() {
    let Some(mut gpu) = gpu() else { return };
    let red = gpu.colour_buffer("red", Usage::Default, [1.0, 0.0, 0.0, 1.0]);
    let nothing = gpu.colour_buffer("nothing", Usage::Default, [0.0, 0.0, 0.0, 0.0]);
    let green = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 0.0]);
    let chain = setup(&mut gpu, red);
    let desc = ShaderDesc {
        constant_buffers: Slots::of(&[0, 1]),
        ..ShaderDesc::new("sum_ps", Stage::Pixel)
    };
    let ps = gpu
        .device
        .create_shader_with_code(
            &desc,
            ShaderCode::Wgsl {
                source: SUM_PS,
                entry: "ps",
            },
        )
        .unwrap();
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 0, &[Some(red), Some(nothing)]);
    // Twice: the first draw opens the pass (the target's layout moves: everything resolved
    // again); the second is the steady state, nothing written.
    gpu.imm.draw(6, 6);
    gpu.imm.draw(6, 6);
    gpu.imm
        .set_constant_buffers(Stage::Pixel, 1, &[Some(green)]);
    gpu.imm.draw(6, 0);
    gpu.imm.flush().unwrap();
    // Reaching the backend submits (and a submission forgets what was bound): read once.
    let backend = gpu.backend();
    assert_eq!(
        backend.descriptor_sets_written(),
        2,
        "the first draw's, the third's"
    );
    assert_eq!(
        backend.descriptors_written(),
        2 + 1,
        "the first draw's two, then the changed slot only"
    );
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    assert_eq!(texel(&pixels, 16, 16), [255, 255, 0, 255], "red + green");
    assert_eq!(texel(&pixels, 2, 2), [255, 0, 0, 255], "red");
    gpu.assert_clean();
}
