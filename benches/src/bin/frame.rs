//! The frame demo: records a synthetic frame (20,000 draws by default) on worker threads, each
//! owning a deferred context and recording its contiguous share of the draws into one command
//! list, under legacy and then fast semantics, and prints per list the commands, bytes, chunks,
//! record time, bytes per draw, nanoseconds per call and split points by category, then totals.
//!
//! A warm-up frame runs first so the device's chunk pool is warm; the timed frames then take every
//! chunk from the pool (the report says how many the allocator still had to give). With
//! `--frames N` the median frame by wall time is reported.
//!
//! **Bundle mode** (on unless `--bundles off`): the same frame drawn with draw bundles, one per
//! object (pair of draws), recorded once on the worker threads and re-used by every frame; each
//! frame, the workers record fast lists that set the pass state and the per-frame data the
//! bundles inherit and call the bundles (`benches::bundle`). It prints the bundles' count, sizes
//! and constant-engine footprints, and the CPU time saved per frame against recording the same
//! draws on fast lists.
//!
//! A phase that runs longer than 2 seconds (recording the frames, executing them, recording the
//! bundles) prints a progress line on stderr, at most once a second, counted once per job of work
//! (a worker's list, a list executed, a batch of bundles), never per call.
//!
//! **`--capture FILE`** (SPEC §13): each run (legacy lists, fast lists, bundles) captures one
//! frame, the one after its timed frames, and writes it as a trace (`benches::capture`: `FILE`,
//! or `FILE` with the run's name before the extension when several runs capture), printing on
//! stderr `capture MODE: wrote PATH (BYTES bytes): digest=D records=N`, `D` as `replay PATH`
//! prints it. The demo then records through the capture's wrappers (`trace::capture`): the
//! [`Engine`] trait below picks the engine's own types or those, at compile time, so a run
//! without `--capture` runs the code it always ran. A frame ends with a present of a small swap
//! chain, the frames' bookend (R-CAP-2): the capture is triggered during the last timed frame,
//! begins at its present and ends at the next, and the timed frames are the idle capture's.
//! `--capture-stale-list` records one list before the capture and executes it in the captured
//! frame: that frame fails (R-CAP-5: the list's calls were not kept), which the demo reports, and
//! the capture takes the next frame.
//!
//! **`--json`** prints the same report as one JSON object on stdout, the summary going to
//! stderr; both are printed from the structs of `report.rs`, which also decides which rates and
//! ratios mean nothing (threads competing for cores, times too short to divide by) and says so.
//!
//! ```text
//! cargo run --release --bin frame -- --draws 50000 --threads 4 --semantics both
//! ```

use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use std::ops::Range;

use benches::bundle::{
    bundle_desc, objects, record_bundle_calls, record_object_bundles_on, recorder_refused,
    BundleCaller, BundleSink,
};
use benches::capture::{
    capture_path, capture_path_option, CaptureReport, PendingCapture, ATTEMPTS,
};
use benches::cli::{count, fraction, gpu_timing, semantics_choice, Arg, Args, PhaseProgress};
use benches::{out, outln, record_draws, split_range, Scene, SceneDesc};
use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use executor::{Counters, GpuTiming, ImmediateContext, RecordingContext};
use recorder::*;
use trace::capture::{
    Capture, CaptureDevice, CaptureOptions, CapturedBundleRecorder, CapturedDeferred,
    CapturedImmediate, FrameOutcome,
};

// In a folder of its own: a file beside this one would be a binary of its own to Cargo.
#[path = "frame/report.rs"]
mod report;

use report::{BundlePart, BundleSet, Header, ListReport, Machine, Report, RunReport};

const HELP: &str = "\
frame: record a synthetic frame on worker threads with legacy and fast semantics

USAGE:
    frame [OPTIONS]

OPTIONS:
    --draws N                 draws in the frame (default 20000)
    --threads N               worker threads, one deferred context each, 1 to 48 (default 2)
    --frames N                timed frames after the warm-up; the median is reported (default 5)
    --dynamic-fraction F      fraction of draws mapping a dynamic constant buffer (default 0.25)
    --unmapped-fraction F     fraction of draws binding a dynamic buffer the list does not map:
                              legacy split points, mapped first under fast (default 0.02)
    --passes N                render-target passes (default 4)
    --materials N             materials (default 64)
    --meshes N                meshes (default 512)
    --textures N              textures per material, 1 to 8 (default 4)
    --seed N                  seed of the scene and the draw mix (default 0x5eedf00d)
    --semantics S             legacy, fast or both (default both)
    --bundles on|off          also draw the frame with per-object draw bundles (default on)
    --barriers                fast lists synchronise the passes with enhanced barriers (render
                              target -> shader resource, instead of decompress_resource) and
                              run a UAV pass per render pass (two dispatches, UAV barriers)
    --validation V            off, on or hazards (default off): under on or hazards a
                              violation (a missing barrier, under hazards) stops the demo
                              with what it found
    --hazards                 --validation hazards
    --gpu G                   where the GPU model runs: inline (in the execute calls),
                              threaded (its own thread, overlapping the next frame's
                              recording) or detached (nowhere: CPU cost alone, no counters)
                              (default inline)
    --json                    print the report as one JSON object on stdout, every number the
                              summary prints (times in ns); the summary goes to stderr
    --capture FILE            capture one frame of each run (legacy, fast, bundles) and write it
                              as a trace: FILE when one run captures, else FILE with the run's
                              name before the extension (f.trace -> f.legacy.trace, ...); each
                              prints its digest, the one `replay FILE` prints (not with
                              --gpu detached: no GPU model, no draw records to digest)
    --capture-stale-list      with --capture: execute in the captured frame a list recorded
                              before the capture began; that frame fails (reported) and the
                              capture takes the next one
    --cores N                 the cores the run may use (default: what the system reports);
                              when the recording threads and the GPU model's thread (--gpu
                              threaded) outnumber them, a warning says so, and the rates and
                              ratios made from recording times are not given (null in JSON)
    -h, --help                print this help

Options take their value as the next argument or after '=' (--draws=50000).";

/// What the command line asked for.
struct Options {
    scene: SceneDesc,
    threads: u32,
    frames: u32,
    semantics: Vec<Semantics>,
    bundles: bool,
    gpu: GpuTiming,
    validation: Validation,
    json: bool,
    /// `--cores`; `None`: what `available_parallelism` says.
    cores: Option<u32>,
    /// `--capture FILE`.
    capture: Option<PathBuf>,
    /// `--capture-stale-list`.
    stale_list: bool,
}

impl Options {
    /// Runs: one per semantics, and the bundles'.
    fn modes(&self) -> usize {
        self.semantics.len() + usize::from(self.bundles)
    }
}

/// Parses the arguments; `Ok(None)` asks for the help.
fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        scene: SceneDesc::default(),
        threads: 2,
        frames: 5,
        semantics: vec![Semantics::Legacy, Semantics::Fast],
        bundles: true,
        gpu: GpuTiming::Inline,
        validation: Validation::Off,
        json: false,
        cores: None,
        capture: None,
        stale_list: false,
    };
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg() {
        let name = match arg? {
            Arg::Help => return Ok(None),
            Arg::Option(name) => name,
        };
        let scene = &mut options.scene;
        match name.as_str() {
            "--draws" => scene.draws = count(&name, &args.value(&name)?, 1, 10_000_000)?,
            "--threads" => {
                // One context per worker, and a device allows 48 at once (R-REC-1); the legacy
                // run's contexts are gone before the fast run creates its own.
                options.threads =
                    count(&name, &args.value(&name)?, 1, limits::MAX_DEFERRED_CONTEXTS)?
            }
            "--frames" => options.frames = count(&name, &args.value(&name)?, 1, 10_000)?,
            "--dynamic-fraction" => scene.dynamic_fraction = fraction(&name, &args.value(&name)?)?,
            "--unmapped-fraction" => {
                scene.unmapped_dynamic_fraction = fraction(&name, &args.value(&name)?)?
            }
            "--passes" => scene.passes = count(&name, &args.value(&name)?, 1, 64)?,
            "--materials" => scene.materials = count(&name, &args.value(&name)?, 1, 100_000)?,
            "--meshes" => scene.meshes = count(&name, &args.value(&name)?, 1, 100_000)?,
            "--textures" => scene.textures_per_material = count(&name, &args.value(&name)?, 1, 8)?,
            "--seed" => {
                let text = args.value(&name)?;
                let parsed = match text.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => text.parse(),
                };
                scene.seed = parsed.map_err(|_| format!("--seed: '{text}' is not a number"))?;
            }
            "--semantics" => options.semantics = semantics_choice(&args.value(&name)?)?,
            "--bundles" => {
                options.bundles = match args.value(&name)?.as_str() {
                    "on" => true,
                    "off" => false,
                    other => return Err(format!("--bundles: '{other}' is not on or off")),
                }
            }
            "--gpu" => options.gpu = gpu_timing(&args.value(&name)?)?,
            "--barriers" => {
                args.no_value(&name)?;
                scene.barriers = true
            }
            "--json" => {
                args.no_value(&name)?;
                options.json = true
            }
            "--cores" => options.cores = Some(count(&name, &args.value(&name)?, 1, 4096)?),
            "--capture" => options.capture = Some(capture_path_option(&name, &args.value(&name)?)?),
            "--capture-stale-list" => {
                args.no_value(&name)?;
                options.stale_list = true
            }
            "--hazards" => {
                args.no_value(&name)?;
                options.validation = Validation::Hazards
            }
            "--validation" => {
                options.validation = match args.value(&name)?.as_str() {
                    "off" => Validation::Off,
                    "on" => Validation::On,
                    "hazards" => Validation::Hazards,
                    other => {
                        return Err(format!("--validation: '{other}' is not off, on or hazards"))
                    }
                }
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    if options.capture.is_some() && options.gpu == GpuTiming::Detached {
        return Err(
            "--capture: a captured frame's digest is of the GPU model's draw records, \
                    and --gpu detached runs no GPU model (use inline or threaded)"
                .to_string(),
        );
    }
    if options.stale_list && options.capture.is_none() {
        return Err(
            "--capture-stale-list: needs --capture FILE (it makes a captured frame \
                    fail)"
                .to_string(),
        );
    }
    if options.threads > options.scene.draws {
        return Err(format!(
            "--threads {} is more than the {} draws to share",
            options.threads, options.scene.draws
        ));
    }
    Ok(Some(options))
}

/// What the demo records on: the engine's own types ([`Device`], without `--capture`: the code
/// the demo always ran), or the capture's wrappers of them ([`Captured`], with it). Chosen at
/// compile time: each is its own instance of the demo's functions.
trait Engine: Sync {
    type Deferred: BundleCaller + RecordingContext;
    type Immediate: Immediate;
    type Bundles: BundleSink;
    /// The engine's device (the scene's objects, the chunk pool).
    fn device(&self) -> &Device;
    fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<Self::Deferred, Error>;
    fn create_bundle_recorder(&self, desc: &BundleDesc<'_>) -> Result<Self::Bundles, Error>;
    /// The end of a frame, after its lists have executed: the captured engine presents its swap
    /// chain, which bookends frames (R-CAP-2); the bare one has nothing to do.
    fn end_frame(&self, immediate: &mut Self::Immediate) -> Result<(), Error>;
    /// Asks for the frame after the next [`end_frame`](Self::end_frame) to be captured.
    fn trigger(&self);
    /// What the capture made of the frames since the last call.
    fn take_outcomes(&self) -> Vec<FrameOutcome>;
}

/// What the demo asks of the immediate context (the engine's, or the capture's wrapper of it):
/// each is its method of the same name.
trait Immediate {
    fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error>;
    fn flush(&mut self) -> Result<(), Error>;
    fn clear_records(&mut self);
    fn take_execution_errors(&mut self) -> Vec<Error>;
    fn counters(&mut self) -> Counters;
}

macro_rules! immediate {
    ($type:ty) => {
        impl Immediate for $type {
            fn execute_command_list(
                &mut self,
                list: &CommandList,
                restore: RestoreState,
            ) -> Result<(), Error> {
                <$type>::execute_command_list(self, list, restore)
            }
            fn flush(&mut self) -> Result<(), Error> {
                <$type>::flush(self)
            }
            fn clear_records(&mut self) {
                <$type>::clear_records(self)
            }
            fn take_execution_errors(&mut self) -> Vec<Error> {
                <$type>::take_execution_errors(self)
            }
            fn counters(&mut self) -> Counters {
                *<$type>::counters(self)
            }
        }
    };
}

immediate!(ImmediateContext);
immediate!(CapturedImmediate);

impl Engine for Device {
    type Deferred = DeferredContext;
    type Immediate = ImmediateContext;
    type Bundles = BundleRecorder;
    fn device(&self) -> &Device {
        self
    }
    fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<DeferredContext, Error> {
        Device::create_deferred_context(self, desc)
    }
    fn create_bundle_recorder(&self, desc: &BundleDesc<'_>) -> Result<BundleRecorder, Error> {
        BundleRecorder::new(self, desc)
    }
    fn end_frame(&self, _: &mut ImmediateContext) -> Result<(), Error> {
        Ok(())
    }
    fn trigger(&self) {}
    fn take_outcomes(&self) -> Vec<FrameOutcome> {
        Vec::new()
    }
}

/// `--capture`: the device and every context wrapped by the capture, and the swap chain whose
/// presents end the frames (the scene renders to its own targets; the chain is there to be
/// presented, as an application's is).
struct Captured {
    device: CaptureDevice,
    capture: Capture,
    chain: SwapChain,
}

impl Engine for Captured {
    type Deferred = CapturedDeferred;
    type Immediate = CapturedImmediate;
    type Bundles = CapturedBundleRecorder;
    fn device(&self) -> &Device {
        self.device.device()
    }
    fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<CapturedDeferred, Error> {
        self.device.create_deferred_context(desc)
    }
    fn create_bundle_recorder(
        &self,
        desc: &BundleDesc<'_>,
    ) -> Result<CapturedBundleRecorder, Error> {
        self.device.create_bundle_recorder(desc)
    }
    fn end_frame(&self, immediate: &mut CapturedImmediate) -> Result<(), Error> {
        immediate.present(self.chain)
    }
    fn trigger(&self) {
        self.capture.trigger()
    }
    fn take_outcomes(&self) -> Vec<FrameOutcome> {
        self.capture.take_outcomes()
    }
}

/// One frame: its lists in order, the wall time from spawning the workers to joining them, and
/// the time the immediate context took to execute the lists in order.
struct FrameReport {
    lists: Vec<ListReport>,
    wall: Duration,
    execute: Duration,
}

/// What a worker records into its list, given its range (of draws, or of objects).
type Recording<'a, C> = &'a (dyn Fn(&mut C, Range<u32>) + Sync);

/// The progress of a run's two phases, over its warm-up and timed frames.
struct FrameProgress {
    recording: PhaseProgress,
    executing: PhaseProgress,
}

/// Records one frame: worker `k` records range `k` on context `k` into one list. The lists are
/// kept until every worker is done (as a renderer keeps them for submission), executed in order
/// on the immediate context, then dropped, which returns their chunks to the pool.
fn record_frame<C: RecordingContext, I: Immediate>(
    contexts: &mut [C],
    immediate: &mut I,
    ranges: &[Range<u32>],
    record: Recording<'_, C>,
    progress: &FrameProgress,
) -> Result<FrameReport, Error> {
    let start = Instant::now();
    progress.recording.resume();
    let finished: Vec<Result<(CommandList, Duration), RecordError>> = thread::scope(|s| {
        let workers: Vec<_> = contexts
            .iter_mut()
            .zip(ranges.iter().cloned())
            .map(|(context, range)| {
                s.spawn(move || {
                    let units = range.len() as u64;
                    let begin = Instant::now();
                    record(context, range);
                    let list = context.finish_command_list(RestoreState::ClearState)?;
                    let elapsed = begin.elapsed();
                    progress.recording.advance(units);
                    Ok((list, elapsed))
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a recording worker panicked"))
            .collect()
    });
    let wall = start.elapsed();
    progress.recording.pause();
    let finished: Vec<(CommandList, Duration)> = finished
        .into_iter()
        .collect::<Result<_, RecordError>>()
        .map_err(|e| e.error)?;
    let begin = Instant::now();
    progress.executing.resume();
    for ((list, _), range) in finished.iter().zip(ranges) {
        immediate.execute_command_list(list, RestoreState::ClearState)?;
        progress.executing.advance(range.len() as u64);
    }
    immediate.flush()?;
    let execute = begin.elapsed();
    progress.executing.pause();
    immediate.clear_records(); // the demo keeps counters, not the records themselves
    if let Some(error) = immediate.take_execution_errors().into_iter().next() {
        return Err(error);
    }
    let mut lists = Vec::with_capacity(finished.len());
    for (list, record) in finished {
        let stats = *list.stats();
        let begin = Instant::now();
        drop(list);
        lists.push(ListReport {
            stats,
            record,
            drop: begin.elapsed(),
        });
    }
    Ok(FrameReport {
        lists,
        wall,
        execute,
    })
}

/// How a run draws the frame.
#[derive(Clone, Copy)]
enum Mode<'a> {
    /// Every draw and its state recorded on lists of these semantics.
    Lists(Semantics),
    /// Fast lists calling the per-object bundles (`bundles[k]` draws object `k`).
    Bundles(&'a [DrawBundle]),
}

impl Mode<'_> {
    fn semantics(&self) -> Semantics {
        match self {
            Mode::Lists(semantics) => *semantics,
            Mode::Bundles(_) => Semantics::Fast,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Mode::Lists(Semantics::Legacy) => "legacy semantics",
            Mode::Lists(Semantics::Fast) => "fast semantics",
            Mode::Bundles(_) => "bundles (fast lists calling per-object bundles)",
        }
    }

    /// The run's name in the JSON.
    fn key(&self) -> &'static str {
        match self {
            Mode::Lists(Semantics::Legacy) => "legacy",
            Mode::Lists(Semantics::Fast) => "fast",
            Mode::Bundles(_) => "bundles",
        }
    }
}

/// One run: a warm-up frame, the timed frames and, under `--capture`, the captured frame after
/// them (not timed), which `--capture-stale-list` makes fail once.
fn run<E: Engine>(
    engine: &E,
    immediate: &mut E::Immediate,
    scene: &Scene,
    mode: Mode<'_>,
    options: &Options,
    machine: &Machine,
) -> (RunReport, Option<CaptureReport>) {
    let device = engine.device();
    let semantics = mode.semantics();
    let ranges = match mode {
        Mode::Lists(_) => split_range(scene.desc.draws, options.threads),
        Mode::Bundles(_) => split_range(objects(scene), options.threads),
    };
    let record_lists =
        |context: &mut E::Deferred, range: Range<u32>| record_draws(context, scene, range);
    let call_bundles = |context: &mut E::Deferred, range: Range<u32>| {
        if let Mode::Bundles(bundles) = mode {
            record_bundle_calls(context, scene, bundles, range)
        }
    };
    let record: Recording<'_, E::Deferred> = match mode {
        Mode::Lists(_) => &record_lists,
        Mode::Bundles(_) => &call_bundles,
    };
    let mut contexts: Vec<E::Deferred> = (0..options.threads)
        .map(|k| {
            let name = format!("{}.worker{k}", semantics.name());
            engine
                .create_deferred_context(&DeferredContextDesc {
                    name: &name,
                    semantics,
                    chunk_policy: None,
                    ..Default::default()
                })
                .unwrap_or_else(|error| fail(&format!("creating a deferred context: {error}")))
        })
        .collect();
    let (unit, per_frame) = match mode {
        Mode::Lists(_) => ("draws", scene.desc.draws),
        Mode::Bundles(_) => ("objects", objects(scene)),
    };
    let total = per_frame as u64 * (options.frames as u64 + 1);
    let progress = FrameProgress {
        recording: PhaseProgress::new(format!("recording {}", mode.name()), unit, total),
        executing: PhaseProgress::new(format!("executing {}", mode.name()), unit, total),
    };
    // `--capture-stale-list`: a list recorded now, long before the capture begins.
    let mut stale = match (&options.capture, options.stale_list, contexts.first_mut()) {
        (Some(_), true, Some(context)) => {
            record(context, ranges.first().cloned().unwrap_or_default());
            let list = context
                .finish_command_list(RestoreState::ClearState)
                .unwrap_or_else(|error| fail(&format!("recording the stale list failed: {error}")));
            Some(list)
        }
        _ => None,
    };
    let mut frame = |immediate: &mut E::Immediate| {
        record_frame(&mut contexts, immediate, &ranges, record, &progress).unwrap_or_else(|error| {
            fail(&format!("recording or executing the frame failed: {error}"))
        })
    };
    let end_frame = |immediate: &mut E::Immediate| {
        engine
            .end_frame(immediate)
            .unwrap_or_else(|error| fail(&format!("presenting the frame failed: {error}")))
    };
    frame(immediate); // warm-up: fills the chunk pool
    end_frame(immediate);
    let pool_before = device.pool_stats();
    let gpu_before = immediate.counters();
    let mut frames: Vec<FrameReport> = Vec::with_capacity(options.frames as usize);
    for k in 0..options.frames {
        frames.push(frame(immediate));
        if options.capture.is_some() && k + 1 == options.frames {
            // The capture begins at this frame's present and ends at the next one's.
            engine.trigger();
        }
        end_frame(immediate);
    }
    let pool_after = device.pool_stats();
    let gpu = gpu_delta(&immediate.counters(), &gpu_before, options.frames);

    let capture = options.capture.as_ref().map(|file| {
        let path = capture_path(file, mode.key(), options.modes());
        let mut pending = PendingCapture::new(mode.key(), path);
        for _ in 0..ATTEMPTS {
            frame(immediate);
            if let Some(list) = stale.take() {
                immediate
                    .execute_command_list(&list, RestoreState::ClearState)
                    .unwrap_or_else(|error| {
                        fail(&format!("executing the stale list failed: {error}"))
                    });
            }
            end_frame(immediate);
            match pending.take(engine.take_outcomes()) {
                Ok(Some(report)) => return report,
                Ok(None) => {}
                Err(message) => fail(&message),
            }
        }
        fail(&format!(
            "capture {}: no frame captured in {ATTEMPTS} frames ({} reported failed)",
            mode.key(),
            pending.failures()
        ))
    });

    let mut order: Vec<usize> = (0..frames.len()).collect();
    order.sort_by_key(|&f| frames[f].wall);
    let median = order[order.len() / 2];
    let (fastest, slowest) = (frames[order[0]].wall, frames[order[order.len() - 1]].wall);
    let mut report = frames.swap_remove(median);
    if let Mode::Bundles(bundles) = mode {
        // A list's own stats count the draws it records; its bundles' draws are theirs.
        for (list, range) in report.lists.iter_mut().zip(&ranges) {
            let called: u32 = range
                .clone()
                .filter_map(|k| bundles.get(k as usize))
                .map(DrawBundle::draws)
                .sum();
            list.stats.draws += called;
        }
    }
    let report = RunReport {
        key: mode.key(),
        name: mode.name(),
        semantics,
        frames: options.frames,
        median: median + 1,
        wall: report.wall,
        fastest,
        slowest,
        lists: report.lists,
        immediate_semantics: device.desc().immediate_semantics,
        gpu: machine.gpu,
        execute: report.execute,
        counters: gpu,
        chunks_allocated: pool_after.allocated_chunks - pool_before.allocated_chunks,
        chunks_reused: pool_after.reused_chunks - pool_before.reused_chunks,
        contended: machine.contended(),
    };
    (report, capture)
}

/// The GPU model's counters of one frame, averaged over the timed frames.
fn gpu_delta(after: &Counters, before: &Counters, frames: u32) -> Counters {
    let frames = frames.max(1);
    let per_frame = |a: u64, b: u64| (a - b) / frames as u64;
    let mut split_points_resolved = SplitCounts::default();
    for category in SplitCategory::ALL {
        let n = after.split_points_resolved[category] - before.split_points_resolved[category];
        split_points_resolved[category] = n / frames;
    }
    Counters {
        draws: per_frame(after.draws, before.draws),
        dispatches: per_frame(after.dispatches, before.dispatches),
        context_rolls: per_frame(after.context_rolls, before.context_rolls),
        ib_executions: per_frame(after.ib_executions, before.ib_executions),
        decompressions: per_frame(after.decompressions, before.decompressions),
        bundle_calls: per_frame(after.bundle_calls, before.bundle_calls),
        ce_bytes: per_frame(after.ce_bytes, before.ce_bytes),
        cache_flushes: per_frame(after.cache_flushes, before.cache_flushes),
        cache_invalidations: per_frame(after.cache_invalidations, before.cache_invalidations),
        fence_waits: per_frame(after.fence_waits, before.fence_waits),
        barriers: per_frame(after.barriers, before.barriers),
        drains: per_frame(after.drains, before.drains),
        stalls: per_frame(after.stalls, before.stalls),
        metadata_inits: per_frame(after.metadata_inits, before.metadata_inits),
        split_points_resolved,
    }
}

/// Bundle mode: records one bundle per object on the worker threads (once), reports them, then
/// draws the frame with them.
fn run_bundles<E: Engine>(
    engine: &E,
    immediate: &mut E::Immediate,
    scene: &Scene,
    options: &Options,
    machine: &Machine,
) -> (BundlePart, Option<CaptureReport>) {
    let ranges = split_range(objects(scene), options.threads);
    let progress = PhaseProgress::new("recording bundles", "bundles", objects(scene) as u64);
    let progress = &progress;
    progress.resume();
    let begin = Instant::now();
    let recorded: Vec<Result<Vec<DrawBundle>, RecordError>> = thread::scope(|s| {
        let workers: Vec<_> = ranges
            .iter()
            .cloned()
            .map(|range| {
                s.spawn(move || {
                    // In batches, so that the progress line is counted once per batch.
                    const BATCH: u32 = 4096;
                    let mut bundles = Vec::with_capacity(range.len());
                    for start in range.clone().step_by(BATCH as usize) {
                        let batch = start..(start + BATCH).min(range.end);
                        let units = batch.len() as u64;
                        let desc = bundle_desc("object");
                        let mut recorder = engine
                            .create_bundle_recorder(&desc)
                            .map_err(|error| recorder_refused(desc.name, error))?;
                        bundles.extend(record_object_bundles_on(&mut recorder, scene, batch)?);
                        progress.advance(units);
                    }
                    Ok(bundles)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a bundle-recording worker panicked"))
            .collect()
    });
    let elapsed = begin.elapsed();
    let bundles: Vec<DrawBundle> = recorded
        .into_iter()
        .collect::<Result<Vec<_>, RecordError>>()
        .unwrap_or_else(|error| fail(&format!("recording the bundles failed: {error}")))
        .into_iter()
        .flatten()
        .collect();
    let set = BundleSet {
        count: bundles.len() as u64,
        draws: bundles.iter().map(|b| b.draws() as u64).sum(),
        record_once: elapsed,
        threads: options.threads,
        bytes: bundles.iter().map(|b| b.size_bytes()).sum(),
        footprint: bundles.iter().map(|b| b.footprint_bytes() as u64).sum(),
        max_footprint: bundles
            .iter()
            .map(|b| b.footprint_bytes())
            .max()
            .unwrap_or(0),
    };
    say(options, &set);
    let (run, capture) = run(
        engine,
        immediate,
        scene,
        Mode::Bundles(&bundles),
        options,
        machine,
    );
    say(options, &run);
    (BundlePart { set, run }, capture)
}

/// Prints a part of the summary: on stdout, or on stderr under `--json` (stdout then holds the
/// JSON alone).
fn say(options: &Options, part: &dyn fmt::Display) {
    if options.json {
        eprint!("{part}");
    } else {
        out!("{part}");
    }
}

fn fail(message: &str) -> ! {
    eprintln!("frame: {message}");
    std::process::exit(1);
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            outln!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("frame: {message}");
            eprintln!("Run `frame --help` for the options.");
            return ExitCode::from(2);
        }
    };
    let device = Device::new(DeviceDesc {
        validation: options.validation,
        ..DeviceDesc::default()
    });
    if options.capture.is_none() {
        let mut immediate = ImmediateContext::new(&device)
            .unwrap_or_else(|e| fail(&format!("immediate context: {e}")));
        immediate.set_gpu_timing(options.gpu);
        return demo(&device, &mut immediate, &options);
    }
    let device = CaptureDevice::new(device, CaptureOptions::default());
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "frame",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
        })
        .unwrap_or_else(|e| fail(&format!("swap chain: {e}")));
    let mut immediate = CapturedImmediate::new(&device)
        .unwrap_or_else(|e| fail(&format!("immediate context: {e}")));
    immediate.inner_mut().set_gpu_timing(options.gpu);
    let engine = Captured {
        capture: device.capture(),
        device,
        chain,
    };
    demo(&engine, &mut immediate, &options)
}

/// The demo on `engine`: the scene, the runs `options` asks for, the report.
fn demo<E: Engine>(engine: &E, immediate: &mut E::Immediate, options: &Options) -> ExitCode {
    let scene =
        Scene::new(engine.device(), &options.scene).unwrap_or_else(|e| fail(&e.to_string()));
    let machine = Machine {
        cores: options.cores.or_else(|| {
            thread::available_parallelism()
                .ok()
                .map(|n| u32::try_from(n.get()).unwrap_or(u32::MAX))
        }),
        cores_from_option: options.cores.is_some(),
        recording_threads: options.threads,
        // Under validation the GPU model stays inline (`set_gpu_timing`).
        gpu: match options.validation {
            Validation::Off => options.gpu,
            Validation::On | Validation::Hazards => GpuTiming::Inline,
        },
    };
    say(
        options,
        &Header {
            options,
            machine: &machine,
        },
    );
    let mut captures = Vec::new();
    let runs: Vec<RunReport> = options
        .semantics
        .iter()
        .map(|&semantics| {
            let (run, capture) = run(
                engine,
                immediate,
                &scene,
                Mode::Lists(semantics),
                options,
                &machine,
            );
            say(options, &run);
            captures.extend(capture);
            run
        })
        .collect();
    let mut report = Report {
        options,
        machine: &machine,
        runs: &runs,
        bundles: None,
        captures: None,
    };
    if let Some(comparison) = report.semantics_comparison() {
        say(options, &comparison);
    }
    let bundles = options.bundles.then(|| {
        let (part, capture) = run_bundles(engine, immediate, &scene, options, &machine);
        captures.extend(capture);
        part
    });
    report.bundles = bundles.as_ref();
    report.captures = options.capture.is_some().then_some(captures.as_slice());
    if let Some(comparison) = report.bundle_comparison() {
        say(options, &comparison);
    }
    if options.json {
        out!("{}", report::json(&report));
    }
    ExitCode::SUCCESS
}
