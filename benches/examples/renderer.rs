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
//! **`--capture FILE`** (SPEC §13): the pool's workers record on the capture's deferred contexts
//! (`RecordingPool::captured`), every frame ends with a present of a small swap chain (the
//! frames' bookend, R-CAP-2), the capture is triggered during the last timed frame, and the
//! frame after it, untimed, is written to FILE as a trace, with the line
//! `capture MODE: wrote FILE (BYTES bytes): digest=D records=N` on stderr (`D` as `replay FILE`
//! prints it; `benches::capture`). A frame that cannot be captured is reported and the next one
//! taken. Without `--capture` the pool's workers own the engine's own contexts: the [`FrameLoop`]
//! trait picks either at compile time.
//!
//! ```text
//! cargo run --release -p benches --example renderer -- --workers 4 --jobs 64 --draws 40000
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use benches::capture::{capture_path_option, CaptureReport, PendingCapture, ATTEMPTS};
use benches::cli::{count, finish_main, gpu_timing, ms, Arg, Args};
use benches::{outln, record_draws, split_range, CallSink, Scene, SceneDesc};
use executor::{
    GpuTiming, ImmediateContext, JobResult, RecordingContext, RecordingPool, RecordingPoolDesc,
};
use recorder::*;
use trace::capture::{
    Capture, CaptureDevice, CaptureOptions, CapturedImmediate, CapturedPool, FrameOutcome,
};

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
    --backend vulkan   the frames also draw on a GPU through Vulkan (R-GPU-5): the scene gets
                       shaders, meshes and constants, each frame ends with a post pass
                       presented to a swap chain (a build with --features vulkan; not with
                       --capture)
    --png FILE         with --backend vulkan: the last frame presented, as a PNG
    --capture FILE     capture the frame after the timed ones and write it to FILE as a
                       trace; prints its digest, the one `replay FILE` prints (not with
                       --gpu detached)
    -h, --help         print this help";

struct Options {
    workers: u32,
    jobs: u32,
    draws: u32,
    frames: u32,
    semantics: Semantics,
    gpu: GpuTiming,
    capture: Option<PathBuf>,
    /// `--backend vulkan`.
    vulkan: bool,
    /// `--png FILE`.
    png: Option<PathBuf>,
}

fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        workers: 2,
        jobs: 32,
        draws: 20_000,
        frames: 5,
        semantics: Semantics::Fast,
        gpu: GpuTiming::Threaded,
        capture: None,
        vulkan: false,
        png: None,
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
            "--capture" => options.capture = Some(capture_path_option(&name, &args.value(&name)?)?),
            "--backend" => {
                options.vulkan = match args.value(&name)?.as_str() {
                    "model" => false,
                    "vulkan" if cfg!(feature = "vulkan") => true,
                    "vulkan" => {
                        return Err("--backend vulkan: built without the Vulkan backend; cargo \
                                    run --release -p benches --features vulkan --example renderer"
                            .to_string())
                    }
                    other => return Err(format!("--backend: '{other}' is not model or vulkan")),
                }
            }
            "--png" => options.png = Some(benches::cli::output_file(&name, &args.value(&name)?)?),
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
    if options.vulkan && options.capture.is_some() {
        return Err(
            "--backend vulkan with --capture: use the frame demo (frame --backend \
                    vulkan --capture FILE)"
                .to_string(),
        );
    }
    if options.png.is_some() && !options.vulkan {
        return Err("--png: needs --backend vulkan (the GPU model draws no pixels)".to_string());
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

/// The immediate side of the frame loop: the engine's [`ImmediateContext`], or (`--capture`)
/// the capture's, with the swap chain whose presents end the frames.
trait FrameLoop {
    fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error>;
    fn flush(&mut self) -> Result<(), Error>;
    fn clear_records(&mut self);
    /// The end of a frame: the captured loop presents (the frames' bookend, R-CAP-2).
    fn end_frame(&mut self) -> Result<(), Error>;
    /// Asks for the frame after the next [`end_frame`](Self::end_frame) to be captured.
    fn trigger(&mut self);
    /// What the capture made of the frames since the last call.
    fn take_outcomes(&mut self) -> Vec<FrameOutcome>;
}

impl FrameLoop for ImmediateContext {
    fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error> {
        ImmediateContext::execute_command_list(self, list, restore)
    }
    fn flush(&mut self) -> Result<(), Error> {
        ImmediateContext::flush(self)
    }
    fn clear_records(&mut self) {
        ImmediateContext::clear_records(self)
    }
    fn end_frame(&mut self) -> Result<(), Error> {
        Ok(())
    }
    fn trigger(&mut self) {}
    fn take_outcomes(&mut self) -> Vec<FrameOutcome> {
        Vec::new()
    }
}

/// `--backend vulkan`: the engine's immediate context feeding the Vulkan backend, ending each
/// frame with the scene's post pass presented (R-GPU-5).
#[cfg(feature = "vulkan")]
struct Drawn<'a> {
    immediate: ImmediateContext,
    scene: &'a Scene,
}

#[cfg(feature = "vulkan")]
impl FrameLoop for Drawn<'_> {
    fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error> {
        self.immediate.execute_command_list(list, restore)
    }
    fn flush(&mut self) -> Result<(), Error> {
        self.immediate.flush()
    }
    fn clear_records(&mut self) {
        self.immediate.clear_records()
    }
    fn end_frame(&mut self) -> Result<(), Error> {
        let Some(post) = &self.scene.post else {
            return Ok(());
        };
        post.record(&mut self.immediate, self.scene)?;
        self.immediate.present(post.chain)
    }
    fn trigger(&mut self) {}
    fn take_outcomes(&mut self) -> Vec<FrameOutcome> {
        Vec::new()
    }
}

/// `--backend vulkan`: the renderer's frames on the backend, then the PNG and what the backend
/// did (the oracle's draws compared, which must all agree, R-GPU-4).
#[cfg(feature = "vulkan")]
fn drawn(
    options: &Options,
    device: &Device,
    scene: &Scene,
    desc: &RecordingPoolDesc<'_>,
) -> Result<Option<CaptureReport>, String> {
    use vulkan_backend::{VulkanBackend, VulkanOptions};
    let backend = VulkanBackend::new(device, VulkanOptions::default())
        .map_err(|error| format!("--backend vulkan: {error}"))?;
    outln!("backend: Vulkan on {}", backend.device_name());
    let mut immediate = ImmediateContext::new(device).map_err(|error| error.to_string())?;
    immediate.set_gpu_timing(options.gpu);
    immediate.set_gpu_backend(Some(Box::new(backend)));
    let pool = RecordingPool::new(device, desc).map_err(|error| error.to_string())?;
    let mut drawn = Drawn { immediate, scene };
    let report = frames(options, device, scene, pool, &mut drawn)?;
    let backend = drawn
        .immediate
        .gpu_backend_mut()
        .and_then(|b| b.as_any_mut())
        .and_then(|b| b.downcast_mut::<VulkanBackend>())
        .ok_or("the backend is gone")?;
    if let (Some(path), Some(post)) = (&options.png, &scene.post) {
        backend.write_png(post.chain, path)?;
        outln!("backend: wrote {}", path.display());
    }
    backend.wait_for_gpu().map_err(|e| e.to_string())?;
    let oracle = backend.oracle_counts();
    outln!(
        "backend: {} draws compared with the model's records, {} differed; GPU {:.3} ms the last frame",
        oracle.draws,
        oracle.mismatches,
        backend.gpu_time().last_ns / 1e6
    );
    if oracle.mismatches > 0 {
        return Err("the backend bound otherwise than the model recorded".to_string());
    }
    Ok(report)
}

/// `--capture`: the capture's immediate context and the swap chain it presents (the scene
/// renders to its own targets; the chain is there to be presented, as an application's is).
struct Captured {
    immediate: CapturedImmediate,
    capture: Capture,
    chain: SwapChain,
}

impl FrameLoop for Captured {
    fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error> {
        self.immediate.execute_command_list(list, restore)
    }
    fn flush(&mut self) -> Result<(), Error> {
        self.immediate.flush()
    }
    fn clear_records(&mut self) {
        self.immediate.clear_records()
    }
    fn end_frame(&mut self) -> Result<(), Error> {
        self.immediate.present(self.chain)
    }
    fn trigger(&mut self) {
        self.capture.trigger()
    }
    fn take_outcomes(&mut self) -> Vec<FrameOutcome> {
        self.capture.take_outcomes()
    }
}

/// One frame of the engine: record the jobs on the pool, execute the lists in job order.
fn frame<C: RecordingContext + CallSink, I: FrameLoop>(
    pool: &mut RecordingPool<C>,
    immediate: &mut I,
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
    finish_main(
        "renderer",
        HELP,
        parse(std::env::args().skip(1)),
        |options| run(options).map(|_| ()),
    )
}

/// The renderer; under `--capture`, the frame it wrote.
fn run(options: &Options) -> Result<Option<CaptureReport>, String> {
    // Start-up: device, scene, immediate context, the pool.
    let device = Device::new(DeviceDesc::default());
    let scene = Scene::new(
        &device,
        &SceneDesc {
            draws: options.draws,
            gpu_contents: options.vulkan,
            ..SceneDesc::default()
        },
    )
    .map_err(|error| error.to_string())?;
    let desc = RecordingPoolDesc {
        name: "render",
        workers: options.workers,
        semantics: options.semantics,
        ..Default::default()
    };
    #[cfg(feature = "vulkan")]
    if options.vulkan {
        return drawn(options, &device, &scene, &desc);
    }
    if options.capture.is_none() {
        let mut immediate = ImmediateContext::new(&device).map_err(|error| error.to_string())?;
        immediate.set_gpu_timing(options.gpu);
        let pool = RecordingPool::new(&device, &desc).map_err(|error| error.to_string())?;
        return frames(options, &device, &scene, pool, &mut immediate);
    }
    let captured = CaptureDevice::new(device.clone(), CaptureOptions::default());
    let chain = captured
        .create_swap_chain(&SwapChainDesc {
            name: "renderer",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
        })
        .map_err(|error| error.to_string())?;
    let mut immediate = CapturedImmediate::new(&captured).map_err(|error| error.to_string())?;
    immediate.inner_mut().set_gpu_timing(options.gpu);
    let pool = RecordingPool::captured(&captured, &desc).map_err(|error| error.to_string())?;
    let mut immediate = Captured {
        immediate,
        capture: captured.capture(),
        chain,
    };
    frames(options, &device, &scene, pool, &mut immediate)
}

/// The frame loop on `pool` and `immediate`, then the same jobs on scoped threads.
fn frames<C: RecordingContext + CallSink, I: FrameLoop>(
    options: &Options,
    device: &Device,
    scene: &Scene,
    mut pool: RecordingPool<C>,
    immediate: &mut I,
) -> Result<Option<CaptureReport>, String> {
    let end_frame = |immediate: &mut I| {
        immediate
            .end_frame()
            .map_err(|error| format!("presenting the frame: {error}"))
    };
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
    frame(&mut pool, immediate, scene, &jobs, &mut lists)?; // warm-up: fills the chunk pool
    end_frame(immediate)?;
    let mut frames = Vec::new();
    for index in 0..options.frames {
        let f = frame(&mut pool, immediate, scene, &jobs, &mut lists)?;
        if options.capture.is_some() && index + 1 == options.frames {
            // The capture begins at this frame's present and ends at the next one's.
            immediate.trigger();
        }
        end_frame(immediate)?;
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

    let mut captured = None;
    if let Some(file) = &options.capture {
        let mut pending = PendingCapture::new(options.semantics.name(), file.clone());
        for _ in 0..ATTEMPTS {
            frame(&mut pool, immediate, scene, &jobs, &mut lists)?;
            end_frame(immediate)?;
            captured = pending.take(immediate.take_outcomes())?;
            if captured.is_some() {
                break;
            }
        }
        if captured.is_none() {
            return Err(format!(
                "capture {}: no frame captured in {ATTEMPTS} frames",
                options.semantics.name()
            ));
        }
    }

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
    scoped_frame(&mut contexts, scene, &jobs); // warm-up
    let scoped = median(
        (0..options.frames)
            .map(|_| scoped_frame(&mut contexts, scene, &jobs))
            .collect(),
    );
    outln!(
        "the same jobs on {} scoped threads spawned per frame, fixed shares: {} per frame \
         (the pool: {})",
        options.workers,
        ms(scoped),
        ms(record)
    );
    Ok(captured)
}

#[cfg(test)]
mod tests {
    //! `renderer --capture` (R-CAP-6): the frame recorded on the pool's captured workers,
    //! written, replays with the digest the renderer printed, on the main thread, with
    //! `--compare` and with `--threads 2`. Run with `cargo test -p benches --example renderer`.

    use super::*;
    use trace::{replay, ReplayOptions};

    fn digest_of(stdout: &str) -> Option<u64> {
        let at = stdout.find("digest=")? + "digest=".len();
        u64::from_str_radix(stdout.get(at..at + 16)?, 16).ok()
    }

    #[test]
    fn r_cap_6_renderer_capture_replays() {
        let dir = std::env::temp_dir().join(format!("renderer_capture_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        for semantics in [Semantics::Fast, Semantics::Legacy] {
            let file = dir.join(format!("{}.trace", semantics.name()));
            let options = Options {
                workers: 2,
                jobs: 6,
                draws: 300,
                frames: 1,
                semantics,
                gpu: GpuTiming::Inline,
                capture: Some(file.clone()),
                vulkan: false,
                png: None,
            };
            let report = run(&options)
                .expect("the renderer runs")
                .expect("a frame captured");
            assert_eq!(report.path, file);
            assert_eq!(report.records, 300, "every draw of the frame");
            assert!(report.failed.is_empty(), "{:?}", report.failed);
            let line = report.line();
            assert!(
                line.starts_with(&format!("capture {}: wrote ", semantics.name())),
                "{line}"
            );
            assert!(
                line.contains(&format!("digest={:016x}", report.digest)),
                "{line}"
            );
            let trace = std::fs::read(&file).expect("written");
            assert_eq!(trace.len() as u64, report.bytes);
            for (name, replay_options) in [
                ("default", ReplayOptions::default()),
                (
                    "--compare",
                    ReplayOptions {
                        compare: true,
                        ..Default::default()
                    },
                ),
                (
                    "--threads 2",
                    ReplayOptions {
                        threads: 2,
                        ..Default::default()
                    },
                ),
            ] {
                let replayed = replay(&trace, &replay_options);
                assert_eq!(
                    replayed.exit_code, 0,
                    "{name}: {}{}",
                    replayed.stdout, replayed.stderr
                );
                assert_eq!(
                    digest_of(&replayed.stdout),
                    Some(report.digest),
                    "{name}: {}",
                    replayed.stdout
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn capture_needs_the_gpu_model() {
        let args = ["--capture", "r.trace", "--gpu", "detached"].map(String::from);
        let refused = parse(args.into_iter()).err().unwrap_or_default();
        assert!(refused.starts_with("--capture:"), "{refused}");
        assert!(refused.contains("--gpu detached"), "{refused}");
        let args = ["--capture", "no/such/folder/r.trace"].map(String::from);
        let refused = parse(args.into_iter()).err().unwrap_or_default();
        assert!(refused.contains("does not exist"), "{refused}");
    }
}
