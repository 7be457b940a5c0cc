//! The backend's CPU per draw (R-GPU-6's measure, a first look): frames of `DRAWS` quads, each
//! draw with its own constant-buffer instance (a write-discard map), recorded on the immediate
//! context and applied by the GPU model inline, with the Vulkan backend installed and without
//! it; the difference per draw is the backend's translation. GPU time per frame comes from the
//! backend's timestamp queries. Run: `cargo run --release -p vulkan-backend --example vk_draws`
//! (`DRAWS=` and `FRAMES=` to change the sizes; `ORACLE=1` to keep the oracle on).

use std::time::Instant;

use executor::ImmediateContext;
use recorder::*;
use vulkan_backend::{VulkanBackend, VulkanOptions};

const VS: &str = r#"
@vertex
fn vs(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    var corners = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 3.0), vec2<f32>(3.0, -1.0));
    return vec4<f32>(corners[index % 3u], 0.0, 1.0);
}
"#;

const PS: &str = r#"
struct Constants { color: vec4<f32> };
@group(0) @binding(1024) var<uniform> constants: Constants;
@fragment
fn ps() -> @location(0) vec4<f32> { return constants.color; }
"#;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Seconds per frame of recording and applying `draws` draws (the last of `frames` frames,
/// after a warm-up), with or without the backend; and the backend's last GPU time.
fn run(with_backend: bool, draws: usize, frames: usize) -> Result<(f64, f64), String> {
    let device = Device::new(DeviceDesc::default());
    let mut imm = ImmediateContext::new(&device).map_err(|e| e.to_string())?;
    if with_backend {
        let options = VulkanOptions {
            oracle: std::env::var("ORACLE").is_ok(),
            ..VulkanOptions::default()
        };
        let backend = VulkanBackend::new(&device, options).map_err(|e| e.to_string())?;
        imm.set_gpu_backend(Some(Box::new(backend)));
    }
    let code = |source, entry| ShaderCode::Wgsl { source, entry };
    let vs = device
        .create_shader_with_code(&ShaderDesc::new("vs", Stage::Vertex), code(VS, "vs"))
        .map_err(|e| e.to_string())?;
    let ps_desc = ShaderDesc {
        constant_buffers: Slots::of(&[0]),
        ..ShaderDesc::new("ps", Stage::Pixel)
    };
    let ps = device
        .create_shader_with_code(&ps_desc, code(PS, "ps"))
        .map_err(|e| e.to_string())?;
    let cb = device
        .create_buffer(&BufferDesc {
            name: "per draw",
            size: 256,
            usage: Usage::Dynamic,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .map_err(|e| e.to_string())?;
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "chain",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 256,
            height: 256,
        })
        .map_err(|e| e.to_string())?;
    let mut seconds = 0.0;
    for _ in 0..frames {
        let rtv = device.swap_chain_info(chain).ok_or("no chain")?.buffers[0].1;
        let start = Instant::now();
        imm.clear_render_target_view(rtv, [0.0, 0.0, 0.0, 1.0]);
        imm.set_render_targets(&[Some(rtv)], None);
        imm.set_viewports(&[Viewport::new(0.0, 0.0, 256.0, 256.0)]);
        imm.set_primitive_topology(PrimitiveTopology::TriangleList);
        imm.set_shader(Stage::Vertex, Some(vs));
        imm.set_shader(Stage::Pixel, Some(ps));
        imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
        for i in 0..draws {
            if let Ok(data) = imm
                .map(cb, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)
            {
                data[..4].copy_from_slice(&(i as f32 / draws as f32).to_le_bytes());
            }
            imm.unmap(cb);
            imm.draw(3, 0);
        }
        imm.flush().map_err(|e| e.to_string())?;
        seconds = start.elapsed().as_secs_f64();
        imm.present(chain).map_err(|e| e.to_string())?;
    }
    let gpu_ms = imm
        .gpu_backend_mut()
        .and_then(|b| b.as_any_mut())
        .and_then(|b| b.downcast_mut::<VulkanBackend>())
        .map_or(0.0, |b| b.gpu_time().last_ns / 1e6);
    Ok((seconds, gpu_ms))
}

fn main() {
    let (draws, frames) = (env("DRAWS", 10_000), env("FRAMES", 5));
    let model = run(false, draws, frames);
    let backend = run(true, draws, frames);
    match (model, backend) {
        (Ok((model, _)), Ok((backend, gpu_ms))) => {
            let per_draw = |s: f64| s * 1e9 / draws as f64;
            println!(
                "{draws} draws a frame: model alone {:.0} ns/draw, with the Vulkan backend {:.0} ns/draw: the backend {:.0} ns/draw of CPU; GPU {gpu_ms:.2} ms for the last frame",
                per_draw(model),
                per_draw(backend),
                per_draw(backend - model)
            );
        }
        (model, backend) => println!("could not run: model {model:?}, backend {backend:?}"),
    }
}
