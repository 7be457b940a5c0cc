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
//! ```text
//! cargo run --release --bin frame -- --draws 50000 --threads 4 --semantics both
//! ```

use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use std::ops::Range;

use benches::bundle::{objects, record_bundle_calls, record_object_bundles};
use benches::cli::{count, fraction, gpu_timing, ms, PhaseProgress};
use benches::{out, outln, record_draws, split_range, Scene, SceneDesc};
use bundles::DrawBundle;
use executor::{Counters, GpuTiming, ImmediateContext};
use recorder::*;

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
    };
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        if arg == "-h" || arg == "--help" {
            return Ok(None);
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(value.to_string())),
            None => (arg.clone(), None),
        };
        if !name.starts_with("--") {
            return Err(format!("unexpected argument '{arg}'"));
        }
        let mut value = || -> Result<String, String> {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let scene = &mut options.scene;
        match name.as_str() {
            "--draws" => scene.draws = count(&name, &value()?, 1, 10_000_000)?,
            "--threads" => {
                // One context per worker, and a device allows 48 at once (R-REC-1); the legacy
                // run's contexts are gone before the fast run creates its own.
                options.threads = count(&name, &value()?, 1, limits::MAX_DEFERRED_CONTEXTS)?
            }
            "--frames" => options.frames = count(&name, &value()?, 1, 10_000)?,
            "--dynamic-fraction" => scene.dynamic_fraction = fraction(&name, &value()?)?,
            "--unmapped-fraction" => scene.unmapped_dynamic_fraction = fraction(&name, &value()?)?,
            "--passes" => scene.passes = count(&name, &value()?, 1, 64)?,
            "--materials" => scene.materials = count(&name, &value()?, 1, 100_000)?,
            "--meshes" => scene.meshes = count(&name, &value()?, 1, 100_000)?,
            "--textures" => scene.textures_per_material = count(&name, &value()?, 1, 8)?,
            "--seed" => {
                let text = value()?;
                let parsed = match text.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => text.parse(),
                };
                scene.seed = parsed.map_err(|_| format!("--seed: '{text}' is not a number"))?;
            }
            "--semantics" => {
                options.semantics = match value()?.as_str() {
                    "legacy" => vec![Semantics::Legacy],
                    "fast" => vec![Semantics::Fast],
                    "both" => vec![Semantics::Legacy, Semantics::Fast],
                    other => {
                        return Err(format!(
                            "--semantics: '{other}' is not legacy, fast or both"
                        ))
                    }
                }
            }
            "--bundles" => {
                options.bundles = match value()?.as_str() {
                    "on" => true,
                    "off" => false,
                    other => return Err(format!("--bundles: '{other}' is not on or off")),
                }
            }
            "--gpu" => options.gpu = gpu_timing(&value()?)?,
            "--barriers" | "--hazards" if inline.is_some() => {
                return Err(format!("{name} takes no value"))
            }
            "--barriers" => scene.barriers = true,
            "--hazards" => options.validation = Validation::Hazards,
            "--validation" => {
                options.validation = match value()?.as_str() {
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
    if options.threads > options.scene.draws {
        return Err(format!(
            "--threads {} is more than the {} draws to share",
            options.threads, options.scene.draws
        ));
    }
    Ok(Some(options))
}

/// One worker's list in one frame.
#[derive(Clone, Copy)]
struct ListReport {
    stats: ListStats,
    /// Recording and finishing, on the worker.
    record: Duration,
    /// Dropping the list after the frame, which hands its chunks back to the pool.
    drop: Duration,
}

/// One frame: its lists in order, the wall time from spawning the workers to joining them, and
/// the time the immediate context took to execute the lists in order.
struct FrameReport {
    lists: Vec<ListReport>,
    wall: Duration,
    execute: Duration,
}

/// What a worker records into its list, given its range (of draws, or of objects).
type Recording<'a> = &'a (dyn Fn(&mut DeferredContext, Range<u32>) + Sync);

/// The progress of a run's two phases, over its warm-up and timed frames.
struct FrameProgress {
    recording: PhaseProgress,
    executing: PhaseProgress,
}

/// Records one frame: worker `k` records range `k` on context `k` into one list. The lists are
/// kept until every worker is done (as a renderer keeps them for submission), executed in order
/// on the immediate context, then dropped, which returns their chunks to the pool.
fn record_frame(
    contexts: &mut [DeferredContext],
    immediate: &mut ImmediateContext,
    ranges: &[Range<u32>],
    record: Recording<'_>,
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
}

/// What one run measured, for the comparison at the end.
struct Summary {
    semantics: Semantics,
    /// Recording time per frame, summed over the threads.
    record: Duration,
    /// Dropping the frame's lists, summed.
    drop: Duration,
    ns_per_call: f64,
    bytes_per_draw: f64,
    split_points: u32,
    calls: u64,
}

fn run(
    device: &Device,
    immediate: &mut ImmediateContext,
    scene: &Scene,
    mode: Mode<'_>,
    options: &Options,
) -> Summary {
    let semantics = mode.semantics();
    let ranges = match mode {
        Mode::Lists(_) => split_range(scene.desc.draws, options.threads),
        Mode::Bundles(_) => split_range(objects(scene), options.threads),
    };
    let record_lists =
        |context: &mut DeferredContext, range: Range<u32>| record_draws(context, scene, range);
    let call_bundles = |context: &mut DeferredContext, range: Range<u32>| {
        if let Mode::Bundles(bundles) = mode {
            record_bundle_calls(context, scene, bundles, range)
        }
    };
    let record: Recording<'_> = match mode {
        Mode::Lists(_) => &record_lists,
        Mode::Bundles(_) => &call_bundles,
    };
    let mut contexts: Vec<DeferredContext> = (0..options.threads)
        .map(|k| {
            let name = format!("{}.worker{k}", semantics.name());
            device
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
    let mut frame = |immediate: &mut ImmediateContext| {
        record_frame(&mut contexts, immediate, &ranges, record, &progress).unwrap_or_else(|error| {
            fail(&format!("recording or executing the frame failed: {error}"))
        })
    };
    frame(immediate); // warm-up: fills the chunk pool
    let pool_before = device.pool_stats();
    let gpu_before = *immediate.counters();
    let mut frames: Vec<FrameReport> = (0..options.frames).map(|_| frame(immediate)).collect();
    let pool_after = device.pool_stats();
    let gpu = gpu_delta(immediate.counters(), &gpu_before, options.frames);

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

    outln!();
    outln!(
        "{}: frame {} of {} (median by wall time): wall {}, min {}, max {}",
        mode.name(),
        median + 1,
        options.frames,
        ms(report.wall),
        ms(fastest),
        ms(slowest)
    );
    outln!(
        "{:>5} {:>8} {:>9} {:>9} {:>11} {:>6} {:>10} {:>8} {:>8} {:>8} {:>7}",
        "list",
        "draws",
        "calls",
        "commands",
        "bytes",
        "chunks",
        "record µs",
        "B/draw",
        "ns/call",
        "drop µs",
        "splits"
    );
    let mut total = ListStats::default();
    let mut record_sum = Duration::ZERO;
    let mut record_max = Duration::ZERO;
    let mut drop_sum = Duration::ZERO;
    for (k, list) in report.lists.iter().enumerate() {
        print_row(&k.to_string(), &list.stats, list.record, list.drop);
        drop_sum += list.drop;
        let s = &list.stats;
        total.calls += s.calls;
        total.commands += s.commands;
        total.bytes += s.bytes;
        total.chunks += s.chunks;
        total.draws += s.draws;
        total.split_points.add(&s.split_points);
        record_sum += list.record;
        record_max = record_max.max(list.record);
    }
    print_row("total", &total, record_sum, drop_sum);
    outln!(
        "record time: {} summed over threads, {} for the slowest thread; {} calls/s per thread",
        ms(record_sum),
        ms(record_max),
        rate(total.calls as f64 / record_sum.as_secs_f64())
    );

    if total.split_points.total() == 0 {
        outln!("split points: none");
    } else {
        out!("split points by category  ");
        for k in 0..report.lists.len() {
            out!("{:>8}", format!("list {k}"));
        }
        outln!("{:>8}", "total");
        for (category, count) in total.split_points.nonzero() {
            out!("  {:<24}", category.name());
            for list in &report.lists {
                out!("{:>8}", list.stats.split_points[category]);
            }
            outln!("{count:>8}");
        }
    }
    outln!(
        "execute on the {} immediate context, GPU model {}: {} for the {} lists ({} per list)",
        device.desc().immediate_semantics.name(),
        match options.gpu {
            GpuTiming::Inline | GpuTiming::Deferred => "inline",
            GpuTiming::Threaded => "on its own thread",
            GpuTiming::Detached => "detached",
        },
        ms(report.execute),
        report.lists.len(),
        ms(report.execute / report.lists.len().max(1) as u32)
    );
    outln!(
        "GPU model per frame: {} draws, {} context rolls, {} indirect-buffer executions, \
         {} split points resolved, {} decompressions",
        gpu.draws,
        gpu.context_rolls,
        gpu.ib_executions,
        gpu.split_points_resolved.total(),
        gpu.decompressions
    );
    for (category, count) in gpu.split_points_resolved.nonzero() {
        outln!("  resolved {:<24}{count:>8}", category.name());
    }
    if gpu.barriers > 0 {
        outln!(
            "  {} barriers: {} drains, {} stalls, {} cache flushes, {} cache invalidations, \
             {} metadata inits",
            gpu.barriers,
            gpu.drains,
            gpu.stalls,
            gpu.cache_flushes,
            gpu.cache_invalidations,
            gpu.metadata_inits
        );
    }
    if gpu.bundle_calls > 0 {
        outln!(
            "  {} bundle calls, {} constant-engine bytes loaded ({:.1} per call)",
            gpu.bundle_calls,
            gpu.ce_bytes,
            gpu.ce_bytes as f64 / gpu.bundle_calls as f64
        );
    }
    let allocated = pool_after.allocated_chunks - pool_before.allocated_chunks;
    let reused = pool_after.reused_chunks - pool_before.reused_chunks;
    outln!(
        "chunk pool over the {} timed frames: {allocated} chunks allocated, {reused} reused",
        options.frames
    );
    Summary {
        semantics,
        record: record_sum,
        drop: drop_sum,
        ns_per_call: record_sum.as_nanos() as f64 / total.calls.max(1) as f64,
        bytes_per_draw: total.bytes as f64 / total.draws.max(1) as f64,
        split_points: total.split_points.total(),
        calls: total.calls as u64,
    }
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

/// Bundle mode: records one bundle per object on the worker threads (once), reports them, draws
/// the frame with them, and compares the recording time per frame with the fast run's.
fn run_bundles(
    device: &Device,
    immediate: &mut ImmediateContext,
    scene: &Scene,
    options: &Options,
    fast: Option<&Summary>,
) {
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
                        bundles.extend(record_object_bundles(device, scene, batch)?);
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
    let count = bundles.len().max(1) as u64;
    let bytes: u64 = bundles.iter().map(|b| b.size_bytes()).sum();
    let footprint: u64 = bundles.iter().map(|b| b.footprint_bytes() as u64).sum();
    let max_footprint = bundles
        .iter()
        .map(|b| b.footprint_bytes())
        .max()
        .unwrap_or(0);
    let draws: u64 = bundles.iter().map(|b| b.draws() as u64).sum();
    outln!();
    outln!(
        "bundles: {} (one per object of up to 2 draws, {} draws), recorded once in {} on {} thread(s)",
        bundles.len(),
        draws,
        ms(elapsed),
        options.threads
    );
    outln!(
        "  size {} bytes in all ({:.1} per bundle); constant-engine footprint {:.1} bytes per \
         bundle on average, {} at most (budget {})",
        bytes,
        bytes as f64 / count as f64,
        footprint as f64 / count as f64,
        max_footprint,
        limits::BUNDLE_BUDGET_BYTES
    );
    let summary = run(device, immediate, scene, Mode::Bundles(&bundles), options);
    if let Some(fast) = fast {
        let (with_lists, with_bundles) = (fast.record + fast.drop, summary.record + summary.drop);
        let saved = with_lists.saturating_sub(with_bundles);
        outln!();
        outln!(
            "CPU time per frame against recording the same draws on fast lists (summed over \
             threads): recording {} -> {} ({:.1}x); recording and dropping the lists {} -> {}, \
             {} saved",
            ms(fast.record),
            ms(summary.record),
            fast.record.as_secs_f64() / summary.record.as_secs_f64().max(1e-12),
            ms(with_lists),
            ms(with_bundles),
            ms(saved),
        );
        if saved.is_zero() {
            outln!("recording the bundles once cost {}", ms(elapsed));
        } else {
            outln!(
                "recording the bundles once cost {}: {:.1} frames' saving",
                ms(elapsed),
                elapsed.as_secs_f64() / saved.as_secs_f64()
            );
        }
    }
}

fn print_row(label: &str, s: &ListStats, record: Duration, drop: Duration) {
    let ns = record.as_nanos() as f64;
    outln!(
        "{:>5} {:>8} {:>9} {:>9} {:>11} {:>6} {:>10.1} {:>8.1} {:>8.1} {:>8.1} {:>7}",
        label,
        s.draws,
        s.calls,
        s.commands,
        s.bytes,
        s.chunks,
        ns / 1e3,
        s.bytes as f64 / s.draws.max(1) as f64,
        ns / s.calls.max(1) as f64,
        drop.as_nanos() as f64 / 1e3,
        s.split_points.total()
    );
}

fn rate(per_second: f64) -> String {
    format!("{:.1} M", per_second / 1e6)
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
    let mut immediate =
        ImmediateContext::new(&device).unwrap_or_else(|e| fail(&format!("immediate context: {e}")));
    immediate.set_gpu_timing(options.gpu);
    let scene = Scene::new(&device, &options.scene).unwrap_or_else(|e| fail(&e.to_string()));
    let d = &options.scene;
    outln!(
        "scene: {} draws, {} materials ({} textures each), {} meshes, {} passes, \
         dynamic fraction {}, unmapped dynamic fraction {}, seed {:#x}",
        d.draws,
        d.materials,
        d.textures_per_material,
        d.meshes,
        d.passes,
        d.dynamic_fraction,
        d.unmapped_dynamic_fraction,
        d.seed
    );
    outln!(
        "run: {} worker thread(s), one deferred context and one list each; 1 warm-up frame, \
         {} timed frame(s)",
        options.threads,
        options.frames
    );
    let summaries: Vec<Summary> = options
        .semantics
        .iter()
        .map(|&semantics| {
            run(
                &device,
                &mut immediate,
                &scene,
                Mode::Lists(semantics),
                &options,
            )
        })
        .collect();

    if let [legacy, fast] = &summaries[..] {
        outln!();
        outln!(
            "{:<8} {:>10} {:>9} {:>8} {:>13}",
            "",
            "calls",
            "ns/call",
            "B/draw",
            "split points"
        );
        for s in &summaries {
            outln!(
                "{:<8} {:>10} {:>9.1} {:>8.1} {:>13}",
                s.semantics.name(),
                s.calls,
                s.ns_per_call,
                s.bytes_per_draw,
                s.split_points
            );
        }
        outln!(
            "fast records a call in {:.2}x the time legacy takes",
            fast.ns_per_call / legacy.ns_per_call
        );
    }
    if options.bundles {
        let fast = summaries.iter().find(|s| s.semantics == Semantics::Fast);
        run_bundles(&device, &mut immediate, &scene, &options, fast);
    }
    ExitCode::SUCCESS
}
