//! Recording cost per call: the realistic mix of the synthetic scene (`benches::record_draws`,
//! 10,000 draws and their state sets per iteration) recorded on a fast and on a legacy deferred
//! context, against a naive baseline that pushes the same call sequence into a reused
//! `Vec<enum Command>`. Two more groups split the mix into its draws alone and its state sets
//! alone, and `record_excluding_drop` times the full mix without dropping the list (the drop
//! walks the list's commands, so it is a visible share of the per-call cost).
//!
//! **The capture's cost** (SPEC §13, R-CAP-1): each mix is also recorded, per semantics, on the
//! capture's `CapturedDeferred` (`trace::capture`) idle (`SEMANTICS_capture_idle`: a capture
//! attached, no frame being captured, so each call costs the wrapper's one branch) and capturing
//! (`SEMANTICS_capturing`: a frame is being captured, `begin_capture` on the capture's immediate
//! context, so every list keeps its calls and each write map its bytes' shadow), beside the
//! bare `DeferredContext` (`SEMANTICS`), as ids of the same group: their medians compare in one
//! run. The capturing lists are finished and dropped like the others (their kept calls with
//! them); nothing executes them.
//!
//! **The `fast-only` build** (R-FX-7): `record_fast_calls` records one kind of call alone
//! (`benches::OneCall`: `set_shader`, `set_input_layout`, `binds`, `draw`, 10,000 steps a list) on
//! a fast deferred context. Run the bench with and without `--features fast-only` and compare
//! those ids: same calls, same semantics, the legacy branches compiled out in the second run. In
//! that build the legacy ids (and the capture's, whose immediate context is then fast) are the
//! only difference: legacy contexts cannot be created, so their ids are left out.
//!
//! ```text
//! cargo bench -p criterion-benches --bench record -- record_fast_calls --warm-up-time 1 --measurement-time 3
//! cargo bench -p criterion-benches --bench record --features fast-only -- record_fast_calls --warm-up-time 1 --measurement-time 3
//! ```
//!
//! Throughput is in calls, so criterion's elements/s is calls/s and its time divided by the
//! element count is nanoseconds per call. Everything is set up outside the timed closure: the
//! device, the scene and one context per semantics are created once; each iteration records,
//! finishes and drops one list, which hands its chunks back to the pool, so the pool stays warm
//! and recording allocates nothing.
//!
//! ```text
//! CARGO_TARGET_DIR=/tmp/target-bench cargo bench -p criterion-benches --bench record -- --quick
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use benches::WithoutDraws;
use benches::{
    record_draws, record_draws_only, record_one_call, CallSink, NaiveRecorder, OneCall, Scene,
    SceneDesc,
};
use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use executor::RecordingContext;
use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate};

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

/// The semantics the build can record: both, or fast alone in the `fast-only` build (R-FX-7).
fn semantics_built() -> impl Iterator<Item = Semantics> {
    [Semantics::Fast, Semantics::Legacy]
        .into_iter()
        .filter(|&semantics| LEGACY_BUILT || semantics == Semantics::Fast)
}

fn setup() -> (Device, Scene) {
    // The capture's immediate context is legacy by default; the `fast-only` build has none.
    let immediate_semantics = match LEGACY_BUILT {
        true => Semantics::default(),
        false => Semantics::Fast,
    };
    let device = Device::new(DeviceDesc {
        immediate_semantics,
        ..DeviceDesc::default()
    });
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

/// The devices a mix is recorded on: the bare device, and two captures of it, one idle and one
/// capturing a frame (its immediate context kept for as long as the frame is open).
struct Devices<'a> {
    bare: &'a Device,
    idle: CaptureDevice,
    capturing: CaptureDevice,
    _capturing_immediate: CapturedImmediate,
}

impl<'a> Devices<'a> {
    fn new(device: &'a Device) -> Self {
        let idle = CaptureDevice::new(device.clone(), CaptureOptions::default());
        let capturing = CaptureDevice::new(device.clone(), CaptureOptions::default());
        let mut immediate = CapturedImmediate::new(&capturing).expect("an immediate context");
        // From here every list a context of `capturing` starts keeps its calls.
        immediate.begin_capture();
        assert!(capturing.capture().is_capturing());
        Self {
            bare: device,
            idle,
            capturing,
            _capturing_immediate: immediate,
        }
    }
}

/// One benchmark of `group`: the mix recorded, finished and dropped on `context`, id
/// `name/DRAWS`, after one untimed list that counts the calls, warms the pool and checks that
/// the list carries its calls (`kept`: a capturing context's) or not.
fn bench_context<C: CallSink + RecordingContext + DeviceContext>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    context: &mut C,
    scene: &Scene,
    mix: Mix,
    kept: bool,
) {
    mix.record(context, scene);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap_or_else(|error| panic!("{name} recording failed: {error}"));
    assert_eq!(
        list.attachment().is_some(),
        kept,
        "{name}: the list's captured calls"
    );
    let stats = *list.stats();
    drop(list);
    eprintln!(
        "{}/{name}: {} calls, {} commands, {} bytes ({:.1} B/draw), {} chunks, {} split points",
        mix.group(),
        stats.calls,
        stats.commands,
        stats.bytes,
        stats.bytes as f64 / DRAWS as f64,
        stats.chunks,
        stats.split_points.total()
    );
    group.throughput(Throughput::Elements(stats.calls as u64));
    group.bench_function(BenchmarkId::new(name, DRAWS), |b| {
        b.iter(|| {
            mix.record(context, scene);
            let list = context.finish_command_list(RestoreState::ClearState);
            black_box(list.map(|l| l.stats().bytes).ok());
        })
    });
}

fn bench_mix(c: &mut Criterion, devices: &Devices<'_>, scene: &Scene, mix: Mix) {
    let mut group = c.benchmark_group(mix.group());
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);

    for semantics in semantics_built() {
        let desc = DeferredContextDesc {
            name: semantics.name(),
            semantics,
            chunk_policy: None,
            ..Default::default()
        };
        let mut context = devices
            .bare
            .create_deferred_context(&desc)
            .expect("a deferred context");
        bench_context(
            &mut group,
            semantics.name(),
            &mut context,
            scene,
            mix,
            false,
        );
        drop(context);
        let mut idle = devices
            .idle
            .create_deferred_context(&desc)
            .expect("a captured deferred context");
        let name = format!("{}_capture_idle", semantics.name());
        bench_context(&mut group, &name, &mut idle, scene, mix, false);
        drop(idle);
        let mut capturing = devices
            .capturing
            .create_deferred_context(&desc)
            .expect("a captured deferred context");
        let name = format!("{}_capturing", semantics.name());
        bench_context(&mut group, &name, &mut capturing, scene, mix, true);
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
    for semantics in semantics_built() {
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

/// Each kind of call alone on a fast deferred context (`OneCall`), 10,000 steps a list: the ids
/// to compare between the default and the `fast-only` build (R-FX-7).
fn bench_fast_calls(c: &mut Criterion, device: &Device, scene: &Scene) {
    let mut group = c.benchmark_group("record_fast_calls");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "fast_calls",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("a fast deferred context");
    for call in OneCall::ALL {
        record_one_call(&mut context, scene, call, DRAWS);
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("{} recording failed: {error}", call.name()));
        let calls = list.stats().calls;
        drop(list);
        eprintln!(
            "record_fast_calls/{}: {calls} calls (fast-only build: {})",
            call.name(),
            !LEGACY_BUILT
        );
        group.throughput(Throughput::Elements(calls as u64));
        group.bench_function(BenchmarkId::new(call.name(), DRAWS), |b| {
            b.iter(|| {
                record_one_call(&mut context, scene, call, DRAWS);
                let list = context.finish_command_list(RestoreState::ClearState);
                black_box(list.map(|l| l.stats().bytes).ok());
            })
        });
    }
    group.finish();
}

/// The capture's cost while capturing on calls with slice arguments (the capture's cost per call, R-CAP-1): `OneCall`'s
/// `binds` (three one-slot binds a step, each a list the capture keeps, in the context's arena:
/// `trace/src/capture/arena.rs`) and `draw` on a fast `CapturedDeferred` idle and capturing, ids
/// `CALL_capture_idle` and `CALL_capturing` of one group. A capturing list is finished and
/// dropped each iteration, so its arena is reset at the next list's start.
fn bench_capture_calls(c: &mut Criterion, devices: &Devices<'_>, scene: &Scene) {
    let mut group = c.benchmark_group("record_capture_calls");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    let desc = DeferredContextDesc {
        name: "capture_calls",
        semantics: Semantics::Fast,
        ..Default::default()
    };
    for (device, mode, kept) in [
        (&devices.idle, "capture_idle", false),
        (&devices.capturing, "capturing", true),
    ] {
        let mut context = device
            .create_deferred_context(&desc)
            .expect("a captured deferred context");
        for call in OneCall::ALL
            .into_iter()
            .filter(|call| matches!(call.name(), "binds" | "draw"))
        {
            record_one_call(&mut context, scene, call, DRAWS);
            let list = context
                .finish_command_list(RestoreState::ClearState)
                .unwrap_or_else(|error| panic!("{} recording failed: {error}", call.name()));
            assert_eq!(list.attachment().is_some(), kept, "{mode}: the kept calls");
            let calls = list.stats().calls;
            drop(list);
            group.throughput(Throughput::Elements(calls as u64));
            let id = format!("{}_{mode}", call.name());
            group.bench_function(BenchmarkId::new(id, DRAWS), |b| {
                b.iter(|| {
                    record_one_call(&mut context, scene, call, DRAWS);
                    let list = context.finish_command_list(RestoreState::ClearState);
                    black_box(list.map(|l| l.stats().bytes).ok());
                })
            });
        }
    }
    group.finish();
}

fn record(c: &mut Criterion) {
    let (device, scene) = setup();
    let devices = Devices::new(&device);
    for mix in [Mix::Full, Mix::DrawsOnly, Mix::StateOnly] {
        bench_mix(c, &devices, &scene, mix);
    }
    bench_excluding_drop(c, &device, &scene);
    bench_fast_calls(c, &device, &scene);
    bench_capture_calls(c, &devices, &scene);
}

criterion_group!(benches, record);
criterion_main!(benches);
