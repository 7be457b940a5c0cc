//! The render-bundle workload (`benches::render_workload`: wgpu's render-bundle benchmark, per draw a
//! constant-buffer bind among 16, a vertex-buffer bind among 8 and `draw(3, 0)`, the pipeline
//! changed every 100 draws) as criterion medians, side by side: a fast and a legacy list
//! recorded, finished, executed with the GPU model detached and dropped; the fast list executed
//! with the GPU model inline (what every draw saw, computed); the same calls on the
//! immediate context of either semantics; the naive `Vec<enum>` recorder with an `Arc` per bind
//! (record + execute); and the append probe (one 32-byte append per command). Throughput is in
//! draws: criterion's time divided by 10,000 is nanoseconds per draw with its state.
//!
//! The `workload` binary prints the same paths as one table, with the bundles and the scaling
//! over threads (`cargo run --release -p benches --bin workload`).
//!
//! ```text
//! cargo bench -p criterion-benches --bench workload
//! ```

use std::hint::black_box;
use std::time::Duration;

use benches::render_workload::{AppendProbe, ArcRecorder, ArcState, Workload};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

/// Draws per iteration.
const DRAWS: u32 = 10_000;

fn detached(device: &Device) -> ImmediateContext {
    let mut immediate = ImmediateContext::new(device).expect("an immediate context");
    immediate.set_gpu_timing(GpuTiming::Detached);
    immediate
}

fn bench_workload(c: &mut Criterion) {
    let mut group = c.benchmark_group("workload");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
        .throughput(Throughput::Elements(DRAWS as u64));

    let device = Device::new(DeviceDesc::default());
    let workload = Workload::new(&device).expect("the workload's objects");
    let mut immediate = detached(&device);
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: semantics.name(),
                semantics,
                ..Default::default()
            })
            .expect("a deferred context");
        let id = BenchmarkId::new(format!("list_{}", semantics.name()), DRAWS);
        group.bench_function(id, |b| {
            b.iter(|| {
                workload.record(&mut context, 0..DRAWS);
                let list = context
                    .finish_command_list(RestoreState::ClearState)
                    .expect("the workload records without an error");
                immediate
                    .execute_command_list(&list, RestoreState::ClearState)
                    .expect("the list executes");
                black_box(list.stats().bytes)
            })
        });
    }

    // The fast list executed with the GPU model inline (the 10 M draws/s aim for the model): what
    // every draw saw computed as the list executes; the records cleared after each iteration.
    {
        let device = Device::new(DeviceDesc::default());
        let workload = Workload::new(&device).expect("the workload's objects");
        let mut immediate = ImmediateContext::new(&device).expect("an immediate context");
        immediate.set_gpu_timing(GpuTiming::Inline);
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "model",
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .expect("a deferred context");
        group.bench_function(BenchmarkId::new("list_fast_model_inline", DRAWS), |b| {
            b.iter(|| {
                workload.record(&mut context, 0..DRAWS);
                let list = context
                    .finish_command_list(RestoreState::ClearState)
                    .expect("the workload records without an error");
                immediate
                    .execute_command_list(&list, RestoreState::ClearState)
                    .expect("the list executes");
                immediate.flush().expect("the model runs the list");
                immediate.clear_records();
                black_box(list.stats().bytes)
            })
        });
    }

    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let device = Device::new(DeviceDesc {
            immediate_semantics: semantics,
            ..DeviceDesc::default()
        });
        let workload = Workload::new(&device).expect("the workload's objects");
        let mut immediate = detached(&device);
        let id = BenchmarkId::new(format!("immediate_{}", semantics.name()), DRAWS);
        group.bench_function(id, |b| {
            b.iter(|| {
                workload.record(&mut immediate, 0..DRAWS);
                immediate.flush().expect("the calls execute")
            })
        });
    }

    let mut naive = ArcRecorder::default();
    let mut state = ArcState::default();
    group.bench_function(BenchmarkId::new("naive_vec_enum_arc", DRAWS), |b| {
        b.iter(|| {
            naive.record(0..DRAWS);
            naive.execute(&mut state);
            black_box(state.seen)
        })
    });

    let mut probe = AppendProbe::default();
    group.bench_function(BenchmarkId::new("append_probe", DRAWS), |b| {
        b.iter(|| {
            probe.record(&workload, 0..DRAWS);
            black_box(probe.bytes())
        })
    });
    group.finish();
}

criterion_group!(benches, bench_workload);
criterion_main!(benches);
