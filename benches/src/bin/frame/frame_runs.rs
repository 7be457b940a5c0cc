//! The frame demo's runs: one frame recorded on the worker threads and executed in order, a
//! run of frames under one semantics (warm-up, timed frames, the capture's frame), and the
//! bundle run (bundles recorded once, called by every frame's fast lists).
//!
//! **In:** the [`Engine`](crate::recording_engine::Engine), the scene and the [`Options`](crate::frame_options::Options).
//! **Out:** per run, a [`RunReport`](crate::run_report::RunReport) of the median frame by wall
//! time, with the GPU model's counters per frame and what the capture wrote.
//!
//! **Invariant.** The lists of a frame are kept until every worker is done, executed in order,
//! then dropped (their chunks go back to the pool); progress is counted once per job of work,
//! never per call.

use std::thread;
use std::time::{Duration, Instant};

use std::ops::Range;

use crate::bundle_report::{BundlePart, BundleSet};
use crate::frame_options::Options;
use crate::frame_report::{fail, say, Machine};
use crate::recording_engine::{Engine, Immediate};
use crate::run_report::{ListReport, RunReport};
use benches::capture::{capture_path, CaptureReport, PendingCapture, ATTEMPTS};
use benches::cli::PhaseProgress;
use benches::object_bundles::{
    bundle_desc, objects, record_bundle_calls, record_object_bundles_on, recorder_refused,
};
use benches::{record_draws, split_range, timing, Scene};
use bundles::DrawBundle;
use executor::{Counters, RecordingContext};
use recorder::*;

/// One frame: its lists in order, the wall time from spawning the workers to joining them, and
/// the time the immediate context took to execute the lists in order, in wall time and in the
/// immediate thread's CPU time (where the system tells it: without the waits on the GPU).
pub(crate) struct FrameReport {
    lists: Vec<ListReport>,
    wall: Duration,
    execute: Duration,
    execute_cpu: Option<Duration>,
}

/// What a worker records into its list, given its range (of draws, or of objects).
pub(crate) type Recording<'a, C> = &'a (dyn Fn(&mut C, Range<u32>) + Sync);

/// The progress of a run's two phases, over its warm-up and timed frames.
pub(crate) struct FrameProgress {
    recording: PhaseProgress,
    executing: PhaseProgress,
}

/// Records one frame: worker `k` records range `k` on context `k` into one list. The lists are
/// kept until every worker is done (as a renderer keeps them for submission), executed in order
/// on the immediate context, then dropped, which returns their chunks to the pool.
pub(crate) fn record_frame<C: RecordingContext, I: Immediate>(
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
    let cpu_begin = timing::thread_cpu_time();
    let begin = Instant::now();
    progress.executing.resume();
    for ((list, _), range) in finished.iter().zip(ranges) {
        immediate.execute_command_list(list, RestoreState::ClearState)?;
        progress.executing.advance(range.len() as u64);
    }
    immediate.flush()?;
    let execute = begin.elapsed();
    let execute_cpu = timing::thread_cpu_time()
        .zip(cpu_begin)
        .map(|(end, begin)| end.saturating_sub(begin));
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
        execute_cpu,
    })
}

/// How a run draws the frame.
#[derive(Clone, Copy)]
pub(crate) enum Mode<'a> {
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
pub(crate) fn run<E: Engine>(
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
            .end_frame(immediate, scene)
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

    #[cfg(feature = "vulkan")]
    if options.vulkan {
        let context = immediate.context();
        if let Err(message) = crate::vulkan_run::write_run_png(context, scene, options, mode.key())
        {
            fail(&message);
        }
    }

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
        execute_cpu: report.execute_cpu,
        counters: gpu,
        chunks_allocated: pool_after.allocated_chunks - pool_before.allocated_chunks,
        chunks_reused: pool_after.reused_chunks - pool_before.reused_chunks,
        contended: machine.contended(),
    };
    (report, capture)
}

/// The GPU model's counters of one frame, averaged over the timed frames.
pub(crate) fn gpu_delta(after: &Counters, before: &Counters, frames: u32) -> Counters {
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
pub(crate) fn run_bundles<E: Engine>(
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
