//! The Vulkan backend's draw translation (R-GPU-6) as criterion medians: the workload's fast
//! list (`benches::render_workload`: per draw a constant-buffer bind among 16, a vertex-buffer
//! bind among 8, `draw(3, 0)`, the pipeline changed every 100 draws) executed on the immediate
//! context with the GPU model alone, and with the model and the Vulkan backend (oracle off),
//! submission included; the difference is the backend's. Throughput is in draws. On software
//! Vulkan (lavapipe) the driver's own `vkCmd*` work dominates the second; the backend's own
//! instructions are counted with cachegrind (`docs/performance.md`). Skipped (a line printed)
//! where the machine has no Vulkan device.
//!
//! ```text
//! cargo bench -p criterion-benches --features vulkan --bench vulkan_draws
//! ```

use std::time::Duration;

use benches::render_workload::Workload;
use benches::workload_contents::workload_target;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use executor::ImmediateContext;
use recorder::*;
use vulkan_backend::{VulkanBackend, VulkanOptions};

/// Draws per iteration.
const DRAWS: u32 = 1_000;

/// A device, its immediate context (with the backend when `vulkan`), the workload's fast list
/// and its target; `None` without a Vulkan device.
fn side(vulkan: bool) -> Option<(ImmediateContext, CommandList, RenderTargetView, Viewport)> {
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
    let (_, view, viewport) = workload_target(&device).expect("the target");
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
    Some((imm, list, view, viewport))
}

fn bench_vulkan_draws(c: &mut Criterion) {
    let mut group = c.benchmark_group("vulkan_draws");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .throughput(Throughput::Elements(DRAWS as u64));
    for (name, vulkan) in [("model_alone", false), ("model_and_backend", true)] {
        let Some((mut imm, list, view, viewport)) = side(vulkan) else {
            continue;
        };
        group.bench_function(BenchmarkId::new(name, DRAWS), |b| {
            b.iter(|| {
                imm.set_render_targets(&[Some(view)], None);
                imm.set_viewports(&[viewport]);
                imm.execute_command_list(&list, RestoreState::ClearState)
                    .expect("the list executes");
                imm.flush().expect("the frame is submitted");
                imm.clear_records();
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_vulkan_draws);
criterion_main!(benches);
