//! Recording cost per call: the realistic mix of the synthetic scene (`benches::record_draws`,
//! 10,000 draws and their state sets per iteration) recorded on a fast and on a legacy deferred
//! context, against a naive baseline that pushes the same call sequence into a reused
//! `Vec<enum Command>`. Two more groups split the mix into its draws alone and its state sets
//! alone, and `record_excluding_drop` times the full mix without dropping the list (the drop
//! walks the list's commands, so it is a visible share of the per-call cost).
//!
//! Throughput is in calls, so criterion's elements/s is calls/s and its time divided by the
//! element count is nanoseconds per call. Everything is set up outside the timed closure: the
//! device, the scene and one context per semantics are created once; each iteration records,
//! finishes and drops one list, which hands its chunks back to the pool, so the pool stays warm
//! and recording allocates nothing.
//!
//! ```text
//! CARGO_TARGET_DIR=/tmp/target-bench cargo bench -p benches --bench record -- --quick
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use benches::WithoutDraws;
use benches::{record_draws, record_draws_only, CallSink, NaiveRecorder, Scene, SceneDesc};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use recorder::*;

/// Draws recorded per iteration.
const DRAWS: u32 = 10_000;

/// A part of the mix, recorded on any sink.
#[derive(Clone, Copy)]
enum Mix {
    /// State sets and draws.
    Full,
    /// The draws alone, with nothing bound.
    DrawsOnly,
    /// The state sets (maps included) without the draws.
    StateOnly,
}

impl Mix {
    fn group(self) -> &'static str {
        match self {
            Self::Full => "record",
            Self::DrawsOnly => "record_draws_only",
            Self::StateOnly => "record_state_only",
        }
    }

    #[inline(always)]
    fn record<R: CallSink>(self, sink: &mut R, scene: &Scene) {
        match self {
            Self::Full => record_draws(sink, scene, 0..DRAWS),
            Self::DrawsOnly => record_draws_only(sink, scene, 0..DRAWS),
            Self::StateOnly => record_draws(&mut WithoutDraws(sink), scene, 0..DRAWS),
        }
    }
}

fn setup() -> (Device, Scene) {
    let device = Device::new(DeviceDesc::default());
    let scene = Scene::new(
        &device,
        &SceneDesc {
            draws: DRAWS,
            ..SceneDesc::default()
        },
    )
    .expect("the scene is valid");
    (device, scene)
}

fn bench_mix(c: &mut Criterion, device: &Device, scene: &Scene, mix: Mix) {
    let mut group = c.benchmark_group(mix.group());
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);

    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: semantics.name(),
                semantics,
                chunk_policy: None,
                ..Default::default()
            })
            .expect("a deferred context");
        // One untimed list: counts the calls and warms the pool.
        mix.record(&mut context, scene);
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("{} recording failed: {error}", semantics.name()));
        let stats = *list.stats();
        drop(list);
        eprintln!(
            "{}/{}: {} calls, {} commands, {} bytes ({:.1} B/draw), {} chunks, {} split points",
            mix.group(),
            semantics.name(),
            stats.calls,
            stats.commands,
            stats.bytes,
            stats.bytes as f64 / DRAWS as f64,
            stats.chunks,
            stats.split_points.total()
        );
        group.throughput(Throughput::Elements(stats.calls as u64));
        group.bench_function(BenchmarkId::new(semantics.name(), DRAWS), |b| {
            b.iter(|| {
                mix.record(&mut context, scene);
                let list = context.finish_command_list(RestoreState::ClearState);
                black_box(list.map(|l| l.stats().bytes).ok());
            })
        });
    }

    // The same call sequence as the fast context's, into a reused Vec<enum Command>.
    let mut naive = NaiveRecorder::for_scene(Semantics::Fast, scene);
    mix.record(&mut naive, scene);
    eprintln!(
        "{}/naive_vec_enum: {} calls, {} bytes ({:.1} B/draw, {} B per command)",
        mix.group(),
        naive.calls(),
        naive.bytes(),
        naive.bytes() as f64 / DRAWS as f64,
        std::mem::size_of::<benches::Command>()
    );
    group.throughput(Throughput::Elements(naive.calls() as u64));
    group.bench_function(BenchmarkId::new("naive_vec_enum", DRAWS), |b| {
        b.iter(|| {
            naive.clear();
            mix.record(&mut naive, scene);
            black_box(naive.commands.len());
        })
    });
    group.finish();
}

/// The full mix recorded and finished, the list dropped outside the timed region (one list at a
/// time, so the pool stays warm).
fn bench_excluding_drop(c: &mut Criterion, device: &Device, scene: &Scene) {
    let mut group = c.benchmark_group("record_excluding_drop");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: semantics.name(),
                semantics,
                chunk_policy: None,
                ..Default::default()
            })
            .expect("a deferred context");
        record_draws(&mut context, scene, 0..DRAWS);
        let calls = context.stats().calls;
        drop(context.finish_command_list(RestoreState::ClearState));
        group.throughput(Throughput::Elements(calls as u64));
        group.bench_function(BenchmarkId::new(semantics.name(), DRAWS), |b| {
            b.iter_custom(|iterations| {
                let mut timed = Duration::ZERO;
                for _ in 0..iterations {
                    let begin = Instant::now();
                    record_draws(&mut context, scene, 0..DRAWS);
                    let list = context.finish_command_list(RestoreState::ClearState);
                    timed += begin.elapsed();
                    drop(black_box(list));
                }
                timed
            })
        });
    }
    group.finish();
}

fn record(c: &mut Criterion) {
    let (device, scene) = setup();
    for mix in [Mix::Full, Mix::DrawsOnly, Mix::StateOnly] {
        bench_mix(c, &device, &scene, mix);
    }
    bench_excluding_drop(c, &device, &scene);
}

criterion_group!(benches, record);
criterion_main!(benches);
