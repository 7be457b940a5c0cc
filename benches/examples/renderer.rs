//! An example renderer embedding the recording pool (R-J-1): the frame loop an engine writes
//! around [`RecordingPool`].
//!
//! At start-up the engine creates the device, the scene and a pool of W workers (W deferred
//! contexts, on threads kept for the program's life). Each frame it cuts the scene's draws into
//! N jobs, hands the pool one job function that borrows the frame's data (the scene and the
//! cut), gets one command list per job back in job order, executes them in that order on the
//! immediate context, and drops them (their chunks go back to the device's pool for the next
//! frame). It prints, per frame, the wall time of the recording, the jobs' own time summed,
//! how the jobs spread over the workers and how many were stolen, and the execution time; then
//! the median frame, the jobs' times, and the same frame recorded the naive way, with W scoped
//! threads spawned per frame and the jobs cut into W contiguous shares, for comparison.
//!
//! ```text
//! cargo run --release -p benches --example renderer -- --workers 4 --jobs 64 --draws 40000
//! ```

use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use benches::cli::{count, finish_main, gpu_timing, ms, Arg, Args};
use benches::{outln, record_draws, split_range, Scene, SceneDesc};
use executor::{GpuTiming, ImmediateContext, JobResult, RecordingPool, RecordingPoolDesc};
use recorder::*;

const HELP: &str = "\
renderer: an engine's frame loop recording N jobs on a pool of W workers (R-J-1)

USAGE:
    renderer [OPTIONS]

OPTIONS:
    --workers W        worker threads, one deferred context each, 1 to 48 (default 2)
    --jobs N           jobs per frame, each a contiguous range of the draws (default 32)
    --draws D          draws in the frame (default 20000)
    --frames F         timed frames after one warm-up frame (default 5)
    --semantics S      fast or legacy (default fast)
    --gpu G            inline, threaded or detached (default threaded)
    -h, --help         print this help";

struct Options {
    workers: u32,
    jobs: u32,
    draws: u32,
    frames: u32,
    semantics: Semantics,
    gpu: GpuTiming,
}

fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        workers: 2,
        jobs: 32,
        draws: 20_000,
        frames: 5,
        semantics: Semantics::Fast,
        gpu: GpuTiming::Threaded,
    };
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg() {
        let name = match arg? {
            Arg::Help => return Ok(None),
            Arg::Option(name) => name,
        };
        match name.as_str() {
            "--workers" => {
                options.workers =
                    count(&name, &args.value(&name)?, 1, limits::MAX_DEFERRED_CONTEXTS)?
            }
            "--jobs" => options.jobs = count(&name, &args.value(&name)?, 1, 100_000)?,
            "--draws" => options.draws = count(&name, &args.value(&name)?, 1, 10_000_000)?,
            "--frames" => options.frames = count(&name, &args.value(&name)?, 1, 10_000)?,
            "--semantics" => {
                options.semantics = match args.value(&name)?.as_str() {
                    "fast" => Semantics::Fast,
                    "legacy" => Semantics::Legacy,
                    other => return Err(format!("--semantics: '{other}' is not fast or legacy")),
                }
            }
            "--gpu" => options.gpu = gpu_timing(&args.value(&name)?)?,
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    Ok(Some(options))
}

/// What one frame measured.
struct Frame {
    /// From handing the jobs to the pool to having every list back.
    record: Duration,
    /// The jobs' own recording time, summed over the workers.
    busy: Duration,
    /// Executing the lists in job order and flushing.
    execute: Duration,
    /// Jobs run per worker, and jobs stolen.
    per_worker: Vec<u32>,
    stolen: usize,
    /// Each job's own time.
    job_times: Vec<Duration>,
    draws: u32,
    bytes: u64,
}

/// One frame of the engine: record the jobs on the pool, execute the lists in job order.
fn frame(
    pool: &mut RecordingPool,
    immediate: &mut ImmediateContext,
    scene: &Scene,
    jobs: &[std::ops::Range<u32>],
    lists: &mut Vec<JobResult>,
) -> Result<Frame, String> {
    let begin = Instant::now();
    pool.record_into(
        jobs.len(),
        |job, context| record_draws(context, scene, jobs[job].clone()),
        lists,
    );
    let record = begin.elapsed();

    let begin = Instant::now();
    let (mut draws, mut bytes) = (0, 0);
    for list in lists.iter() {
        let list = list.as_ref().map_err(|error| error.to_string())?;
        draws += list.stats().draws;
        bytes += list.stats().bytes;
        immediate
            .execute_command_list(list, RestoreState::ClearState)
            .map_err(|error| error.to_string())?;
    }
    immediate.flush().map_err(|error| error.to_string())?;
    let execute = begin.elapsed();
    immediate.clear_records();
    lists.clear(); // the lists' chunks go back to the device's pool

    let reports = pool.reports();
    let mut per_worker = vec![0; pool.workers() as usize];
    for report in reports {
        per_worker[report.worker as usize] += 1;
    }
    Ok(Frame {
        record,
        busy: reports.iter().map(|r| r.elapsed).sum(),
        execute,
        per_worker,
        stolen: reports.iter().filter(|r| r.stolen_from.is_some()).count(),
        job_times: reports.iter().map(|r| r.elapsed).collect(),
        draws,
        bytes,
    })
}

/// The same jobs the naive way, for comparison: W scoped threads spawned for the frame, each
/// creating nothing (the contexts are kept) but taking a fixed contiguous share of the jobs.
fn scoped_frame(
    contexts: &mut [DeferredContext],
    scene: &Scene,
    jobs: &[std::ops::Range<u32>],
) -> Duration {
    let shares = split_range(jobs.len() as u32, contexts.len() as u32);
    let begin = Instant::now();
    let lists: Vec<Vec<CommandList>> = thread::scope(|s| {
        let workers: Vec<_> = contexts
            .iter_mut()
            .zip(shares)
            .map(|(context, share)| {
                s.spawn(move || {
                    share
                        .map(|job| {
                            record_draws(context, scene, jobs[job as usize].clone());
                            context
                                .finish_command_list(RestoreState::ClearState)
                                .expect("recorded")
                        })
                        .collect()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    let elapsed = begin.elapsed();
    drop(lists);
    elapsed
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn main() -> ExitCode {
    finish_main("renderer", HELP, parse(std::env::args().skip(1)), run)
}

fn run(options: &Options) -> Result<(), String> {
    // Start-up: device, scene, immediate context, the pool.
    let device = Device::new(DeviceDesc::default());
    let scene = Scene::new(
        &device,
        &SceneDesc {
            draws: options.draws,
            ..SceneDesc::default()
        },
    )
    .map_err(|error| error.to_string())?;
    let mut immediate = ImmediateContext::new(&device).map_err(|error| error.to_string())?;
    immediate.set_gpu_timing(options.gpu);
    let mut pool = RecordingPool::new(
        &device,
        &RecordingPoolDesc {
            name: "render",
            workers: options.workers,
            semantics: options.semantics,
            ..Default::default()
        },
    )
    .map_err(|error| error.to_string())?;
    // The frame's cut: job k draws a contiguous range (a real engine cuts by pass or object).
    let jobs = split_range(options.draws, options.jobs.min(options.draws));
    outln!(
        "renderer: {} draws in {} jobs on a pool of {} {} workers; 1 warm-up frame, {} timed",
        options.draws,
        jobs.len(),
        pool.workers(),
        options.semantics.name(),
        options.frames
    );
    outln!(
        "{:>5} {:>11} {:>11} {:>7} {:>12} {:>6} {:>8} {:>7}  jobs per worker",
        "frame",
        "record",
        "jobs' time",
        "speed",
        "execute",
        "lists",
        "KB",
        "stolen"
    );

    let mut lists = Vec::with_capacity(jobs.len());
    frame(&mut pool, &mut immediate, &scene, &jobs, &mut lists)?; // warm-up: fills the chunk pool
    let mut frames = Vec::new();
    for index in 0..options.frames {
        let f = frame(&mut pool, &mut immediate, &scene, &jobs, &mut lists)?;
        outln!(
            "{:>5} {:>11} {:>11} {:>6.1}x {:>12} {:>6} {:>8} {:>7}  {:?}",
            index + 1,
            ms(f.record),
            ms(f.busy),
            f.busy.as_secs_f64() / f.record.as_secs_f64().max(1e-12),
            ms(f.execute),
            jobs.len(),
            f.bytes / 1024,
            f.stolen,
            f.per_worker
        );
        if f.draws != options.draws {
            return Err(format!(
                "{} draws recorded, {} expected",
                f.draws, options.draws
            ));
        }
        frames.push(f);
    }

    let record = median(frames.iter().map(|f| f.record).collect());
    let busy = median(frames.iter().map(|f| f.busy).collect());
    let execute = median(frames.iter().map(|f| f.execute).collect());
    let job_times: Vec<Duration> = frames.iter().flat_map(|f| f.job_times.clone()).collect();
    let (shortest, longest) = (
        job_times.iter().min().copied().unwrap_or_default(),
        job_times.iter().max().copied().unwrap_or_default(),
    );
    outln!();
    outln!(
        "median frame: recording {} wall for {} of the jobs' own time ({:.1}x on {} workers); \
         executing the {} lists in job order {} ({} per list)",
        ms(record),
        ms(busy),
        busy.as_secs_f64() / record.as_secs_f64().max(1e-12),
        pool.workers(),
        jobs.len(),
        ms(execute),
        ms(execute / jobs.len() as u32)
    );
    outln!(
        "a job: {} to {}, median {} ({} draws)",
        ms(shortest),
        ms(longest),
        ms(median(job_times)),
        options.draws / jobs.len() as u32
    );

    // The same jobs on W scoped threads spawned per frame, each with a fixed share.
    drop(pool);
    let mut contexts: Vec<DeferredContext> = (0..options.workers)
        .map(|k| {
            device.create_deferred_context(&DeferredContextDesc {
                name: &format!("scoped.worker{k}"),
                semantics: options.semantics,
                ..Default::default()
            })
        })
        .collect::<Result<_, _>>()
        .map_err(|error| error.to_string())?;
    scoped_frame(&mut contexts, &scene, &jobs); // warm-up
    let scoped = median(
        (0..options.frames)
            .map(|_| scoped_frame(&mut contexts, &scene, &jobs))
            .collect(),
    );
    outln!(
        "the same jobs on {} scoped threads spawned per frame, fixed shares: {} per frame \
         (the pool: {})",
        options.workers,
        ms(scoped),
        ms(record)
    );
    Ok(())
}
