//! Executing command lists on the immediate context (R-EX-2): the CPU cost of an execution
//! alone, with the submissions dropped instead of consumed (`GpuTiming::Detached`, a null
//! driver: a GPU model catching up between executions would evict the list from the caches and
//! time that instead). Two groups:
//! - `execute_commands`: fast lists of 1,000, 10,000 and 100,000 draws, no split points: the
//!   cost follows the list's command runs (one per 64 KB chunk), not its commands;
//! - `execute_split_points`: legacy lists of 1,000 draws with 0, 10, 100 and 1,000 dynamic
//!   split points: the cost grows with them (each is decoded, resolved and submitted).
//!
//! A third, `gpu_model`, times the GPU model consuming a 10,000-draw list: its throughput in
//! commands per second; a list of 1,000 texture barriers (the model's cost per barrier,
//! SPEC §9); and `throughput_100000_draws`, the render-bundle workload (`ThroughputScene`: per draw
//! a constant-buffer and a vertex-buffer bind, shaders and blend changing every 100 draws)
//! executed inline, GPU model attached (`GpuTiming::Inline`): draws per second, the records
//! cleared between executions (outside the timing) as a long run does; and
//! `bundle_frame_2000_draws`, the frame demo's bundle frame (`BundleFrameScene`: a fast list
//! calling 1,000 object bundles of two draws) executed inline the same way: the bundle calls'
//! expansion by the model.
//!
//! ```text
//! cargo bench -p criterion-benches --bench execute
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use benches::{BundleFrameScene, ExecuteScene, ThroughputScene};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

struct Bench {
    device: Device,
    immediate: ImmediateContext,
    scene: ExecuteScene,
}

fn setup() -> Bench {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..Default::default()
    });
    let mut immediate = ImmediateContext::new(&device).expect("immediate context");
    immediate.set_gpu_timing(GpuTiming::Detached);
    let scene = ExecuteScene::new(&device).expect("the scene");
    Bench {
        device,
        immediate,
        scene,
    }
}

fn list(bench: &Bench, semantics: Semantics, draws: u32, split_points: u32) -> CommandList {
    bench
        .scene
        .list(&bench.device, semantics, draws, split_points)
        .expect("records")
}

/// Times executions only (the submissions are dropped: `GpuTiming::Detached`).
fn time_executions(
    immediate: &mut ImmediateContext,
    list: &CommandList,
    iterations: u64,
) -> Duration {
    let start = Instant::now();
    for _ in 0..iterations {
        immediate
            .execute_command_list(black_box(list), RestoreState::ClearState)
            .expect("executes");
    }
    start.elapsed()
}

fn bench(criterion: &mut Criterion) {
    let mut bench = setup();
    let mut group = criterion.benchmark_group("execute_commands");
    for draws in [1_000u32, 10_000, 100_000] {
        let list = list(&bench, Semantics::Fast, draws, 0);
        group.throughput(Throughput::Elements(list.stats().commands as u64));
        group.bench_function(BenchmarkId::from_parameter(draws), |b| {
            b.iter_custom(|iterations| time_executions(&mut bench.immediate, &list, iterations))
        });
    }
    group.finish();

    let mut group = criterion.benchmark_group("execute_split_points");
    for split_points in [0u32, 10, 100, 1_000] {
        let list = list(&bench, Semantics::Legacy, 1_000, split_points);
        group.bench_function(BenchmarkId::from_parameter(split_points), |b| {
            b.iter_custom(|iterations| time_executions(&mut bench.immediate, &list, iterations))
        });
    }
    group.finish();

    let mut group = criterion.benchmark_group("gpu_model");
    let list = list(&bench, Semantics::Fast, 10_000, 0);
    group.throughput(Throughput::Elements(list.stats().commands as u64));
    bench.immediate.set_gpu_timing(GpuTiming::Deferred);
    group.bench_function("consume_10000_draws", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                bench
                    .immediate
                    .execute_command_list(&list, RestoreState::ClearState)
                    .expect("executes");
                let start = Instant::now();
                bench.immediate.sync_gpu();
                total += start.elapsed();
                bench.immediate.clear_records();
            }
            total
        })
    });
    let barriers = bench
        .scene
        .barrier_list(&bench.device, 1_000)
        .expect("records");
    group.throughput(Throughput::Elements(1_000));
    group.bench_function("consume_1000_barriers", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                bench
                    .immediate
                    .execute_command_list(&barriers, RestoreState::ClearState)
                    .expect("executes");
                let start = Instant::now();
                bench.immediate.sync_gpu();
                total += start.elapsed();
            }
            total
        })
    });

    let workload = ThroughputScene::new(&bench.device).expect("the workload's objects");
    let list = workload.list(&bench.device, 100_000).expect("records");
    bench.immediate.set_gpu_timing(GpuTiming::Inline);
    group.throughput(Throughput::Elements(100_000));
    group.bench_function("throughput_100000_draws", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let start = Instant::now();
                bench
                    .immediate
                    .execute_command_list(&list, RestoreState::ClearState)
                    .expect("executes");
                total += start.elapsed();
                bench.immediate.clear_records();
            }
            total
        })
    });

    // The frame demo's bundle frame: a fast list calling 1,000 object bundles of two draws.
    let frame = BundleFrameScene::new(&bench.device, 2_000).expect("the bundles");
    let list = frame.list(&bench.device).expect("records");
    group.throughput(Throughput::Elements(2_000));
    group.bench_function("bundle_frame_2000_draws", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let start = Instant::now();
                bench
                    .immediate
                    .execute_command_list(&list, RestoreState::ClearState)
                    .expect("executes");
                total += start.elapsed();
                bench.immediate.clear_records();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
