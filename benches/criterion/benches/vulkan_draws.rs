//! The Vulkan backend's draw translation (R-GPU-6) as criterion medians: the workload's fast
//! list (`benches::render_workload`: per draw a constant-buffer bind among 16, a vertex-buffer
//! bind among 8, `draw(3, 0)`, the pipeline changed every 100 draws) executed on the immediate
//! context with the GPU model alone, and with the model and the Vulkan backend (oracle off),
//! submission included; the difference is the backend's. Beside them, `raw_vulkan`: the same
//! frame recorded with ash as a hand-written renderer would (`VulkanBackend::record_raw`, the
//! baseline `workload --backend vulkan` reports the ratio to), submitted each iteration.
//! Throughput is in draws. On software
//! Vulkan (lavapipe) the driver's own `vkCmd*` work dominates the second; the backend's own
//! instructions are counted with cachegrind (`docs/performance.md`). Skipped (a line printed)
//! where the machine has no Vulkan device.
//!
//! ```text
//! cargo bench -p criterion-benches --features vulkan --bench vulkan_draws
//! ```

use std::time::Duration;

use benches::render_workload::{
    Workload, CONSTANT_BUFFERS, PIPELINE_EVERY, STRIDE, VERTEX_BUFFERS,
};
use benches::workload_contents::workload_target;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use executor::{GpuBackend, ImmediateContext};
use recorder::*;
use vulkan_backend::{RawDraw, RawFrame, RawPipeline, VulkanBackend, VulkanOptions};

/// Draws per iteration.
const DRAWS: u32 = 1_000;

/// What one side runs: its immediate context (with the backend when `vulkan`), the workload's
/// fast list, its objects and its target.
struct Side {
    imm: ImmediateContext,
    list: CommandList,
    workload: Workload,
    target: (Texture, RenderTargetView, Viewport),
}

/// A device and its side; `None` without a Vulkan device.
fn side(vulkan: bool) -> Option<Side> {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    });
    let mut imm = ImmediateContext::new(&device).expect("an immediate context");
    if vulkan {
        let options = VulkanOptions {
            oracle: false,
            ..VulkanOptions::default()
        };
        match VulkanBackend::new(&device, options) {
            Ok(backend) => {
                imm.set_gpu_backend(Some(Box::new(backend)));
            }
            Err(e) => {
                eprintln!("vulkan_draws skipped: {e}");
                return None;
            }
        }
    }
    let workload = Workload::with_gpu_contents(&device).expect("the workload's objects");
    let target = workload_target(&device).expect("the target");
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "workload",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("a deferred context");
    workload.record(&mut context, 0..DRAWS);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .expect("the workload records");
    Some(Side {
        imm,
        list,
        workload,
        target,
    })
}

/// The backend of `imm`.
fn backend(imm: &mut ImmediateContext) -> &mut VulkanBackend {
    imm.gpu_backend_mut()
        .and_then(|b| b.as_any_mut())
        .and_then(|b| b.downcast_mut::<VulkanBackend>())
        .expect("the Vulkan backend is installed")
}

/// The raw frame of `side`'s workload on its backend, and its draws (as `Workload::record`
/// makes them).
fn raw_frame(side: &mut Side) -> (RawFrame, Vec<RawDraw>) {
    let w = &side.workload;
    let pipelines = [0, 1].map(|k| RawPipeline {
        vertex_shader: w.vertex_shaders[k],
        pixel_shader: w.pixel_shaders[k],
        blend: w.blends[k],
        input_layout: w.input_layout,
        stride: STRIDE,
        topology: PrimitiveTopology::default(),
    });
    let target = (side.target.0, side.target.1);
    let frame = backend(&mut side.imm)
        .raw_frame(&pipelines, &w.constants, &w.vertices, target)
        .expect("the raw frame's objects");
    let draws = (0..DRAWS)
        .map(|i| RawDraw {
            pipeline: ((i / PIPELINE_EVERY) % 2) as usize,
            constant_buffer: i as usize % CONSTANT_BUFFERS,
            vertex_buffer: i as usize % VERTEX_BUFFERS,
            vertices: 3,
        })
        .collect();
    (frame, draws)
}

fn bench_vulkan_draws(c: &mut Criterion) {
    let mut group = c.benchmark_group("vulkan_draws");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .throughput(Throughput::Elements(DRAWS as u64));
    for (name, vulkan) in [("model_alone", false), ("model_and_backend", true)] {
        let Some(mut side) = side(vulkan) else {
            continue;
        };
        let (_, view, viewport) = side.target;
        let (imm, list) = (&mut side.imm, &side.list);
        group.bench_function(BenchmarkId::new(name, DRAWS), |b| {
            b.iter(|| {
                imm.set_render_targets(&[Some(view)], None);
                imm.set_viewports(&[viewport]);
                imm.execute_command_list(list, RestoreState::ClearState)
                    .expect("the list executes");
                imm.flush().expect("the frame is submitted");
                imm.clear_records();
            })
        });
        if vulkan {
            let (frame, draws) = raw_frame(&mut side);
            let backend = backend(&mut side.imm);
            group.bench_function(BenchmarkId::new("raw_vulkan", DRAWS), |b| {
                b.iter(|| {
                    backend.record_raw(&frame, &draws).expect("the raw frame");
                    backend.submit().expect("the raw frame is submitted");
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_vulkan_draws);
criterion_main!(benches);
