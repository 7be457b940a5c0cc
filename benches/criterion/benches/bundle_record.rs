//! Recording draw bundles against recording the same calls on a fast deferred context (the
//! aim: bundle recording within 1.5x of a fast list), in the workload of wgpu's render-bundle
//! benchmark (`benches::render_workload`): 100,000 draws, per draw one constant-buffer bind rotating
//! among 16 buffers, one vertex-buffer bind rotating among 8 and `draw(3, 0)`; the vertex and
//! pixel shaders (and, on the list, the blend state) change every 100 draws.
//!
//! - `bundles`: 1,000 bundles of 100 draws, each finished (`BundleRecorder::finish`), then
//!   dropped. A bundle sets what R-B-3 makes mandatory (the input layout, the five graphics
//!   stages: vs and ps change from bundle to bundle, hs/ds/gs null) and cannot set a blend state
//!   (it is inherited, R-B-7): the caller's list would (`Workload::record_bundle`);
//! - `long_bundle`: one bundle of all 100,000 draws (the per-draw cost of a bundle against a
//!   list's, without the per-bundle cost), finished and dropped;
//! - `fast_list`: the same 100,000 draws on one fast deferred context, finished and dropped.
//!
//! Both are timed with the drop, setup outside the timing; throughput is in draws.
//!
//! ```text
//! cargo bench -p criterion-benches --bench bundle_record -- --warm-up-time 1 --measurement-time 2
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use benches::render_workload::{Workload, PIPELINE_EVERY};
use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use recorder::*;

/// Draws per iteration.
const DRAWS: u32 = 100_000;
/// Bundles per iteration, one per pipeline change.
const BUNDLES: u32 = DRAWS / PIPELINE_EVERY;

fn bench(criterion: &mut Criterion) {
    let device = Device::new(DeviceDesc::default());
    let w = Workload::new(&device).expect("the workload's objects");
    let desc = BundleDesc::new("object", &[Format::R8G8B8A8Unorm]);
    let mut recorder = BundleRecorder::new(&device, &desc).expect("recorder");
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "bench",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("context");
    let mut bundles: Vec<DrawBundle> = Vec::with_capacity(BUNDLES as usize);

    let mut group = criterion.benchmark_group("bundle_record");
    group.throughput(Throughput::Elements(DRAWS as u64));
    group.bench_function("bundles", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let start = Instant::now();
                for k in 0..BUNDLES {
                    let draws = k * PIPELINE_EVERY..(k + 1) * PIPELINE_EVERY;
                    black_box(&w).record_bundle(&mut recorder, draws);
                    bundles.push(recorder.finish().expect("bundle"));
                }
                bundles.clear();
                total += start.elapsed();
            }
            total
        })
    });
    group.bench_function("long_bundle", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let start = Instant::now();
                black_box(&w).record_bundle(&mut recorder, 0..DRAWS);
                drop(recorder.finish().expect("bundle"));
                total += start.elapsed();
            }
            total
        })
    });
    group.bench_function("fast_list", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let start = Instant::now();
                black_box(&w).record(&mut context, 0..DRAWS);
                let list = context.finish_command_list(RestoreState::ClearState);
                drop(list.expect("list"));
                total += start.elapsed();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
