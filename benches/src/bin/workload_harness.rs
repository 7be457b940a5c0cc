//! `workload`: the render-bundle workload (after wgpu's render-bundle benchmark: per draw a constant-buffer
//! bind among 16, a vertex-buffer bind among 8 and `draw(3, 0)`, the pipeline changed every 100
//! draws; `benches::render_workload`) timed on every path a renderer would pick, side by side in one
//! run: this engine's fast and legacy deferred contexts (record, execute, drop), draw bundles
//! (1,000 of 100 draws, and one of all the draws: encode + finish), the fast list executed with
//! the GPU model inline, a fast list recorded on the capture's context idle and while capturing,
//! the same calls made directly on the immediate context, a naive `Vec<enum>` recorder with an
//! `Arc` per bind, the append probe (one 32-byte append per command: the limit), and the
//! recording spread over T threads. Elsewhere the GPU model is detached, as wgpu's noop backend
//! does no backend work: execution is the CPU side alone.
//!
//! **Rounds.** The paths run interleaved: each round runs every path once, after two warm-up
//! rounds. A figure is the median over the rounds; a ratio is the median of the rounds' ratios,
//! so that what the machine does at a moment (a burst of load, a frequency step) falls on both
//! sides of it. The thread-scaling table runs each thread count's paths one after the other.
//!
//! ```text
//! cargo run --release -p benches --bin workload
//! cargo run --release -p benches --bin workload -- --threads 1,2,4,8,16 --runs 21
//! ```

#[cfg(feature = "vulkan")]
// In a folder of its own: a file beside this one would be a binary of its own to Cargo.
#[path = "workload/workload_backend.rs"]
mod workload_backend;

use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use benches::cli::{count, finish_main, Arg, Args};
use benches::outln;
use benches::render_workload::{AppendProbe, ArcRecorder, ArcState, Workload};
use benches::timing::{self, ns, Scaling};
use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use executor::{GpuTiming, ImmediateContext, RecordingContext};
use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate};

const HELP: &str = "\
workload: the render-bundle workload on every recording path, side by side

Usage: workload [options]
    --draws N            draws per list (default 100000)
    --runs N             timed runs per figure; the median is printed (default 11)
    --bundle-draws N     draws per bundle (default 100)
    --thread-draws N     draws shared among the threads (default 160000)
    --threads LIST       thread counts to scale over, e.g. 1,2,4,8,16
                         (default: 1, 2, 4, ... up to the cores there are)
    --backend vulkan     instead: the fast list executed with the GPU model alone and with
                         the Vulkan backend, interleaved; the backend's CPU per draw, the
                         GPU's time per frame (timestamps), a pixel check, and raw Vulkan
                         in secondary command buffers on each of --threads (a build with
                         `--features vulkan`)
    --no-oracle          with --backend vulkan: the backend's oracle (R-GPU-4) off, so
                         the translation is timed without the per-draw comparison
    -h, --help           print this help";

struct Options {
    /// `--backend vulkan`.
    vulkan: bool,
    /// `--no-oracle`: the backend's oracle off.
    no_oracle: bool,
    draws: u32,
    runs: u32,
    bundle_draws: u32,
    thread_draws: u32,
    threads: Vec<u32>,
}

fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let cores = thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let mut options = Options {
        vulkan: false,
        no_oracle: false,
        draws: 100_000,
        runs: 11,
        bundle_draws: 100,
        thread_draws: 160_000,
        threads: std::iter::successors(Some(1u32), |t| Some(t * 2))
            .take_while(|&t| t <= cores.max(2))
            .collect(),
    };
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg() {
        let name = match arg? {
            Arg::Help => return Ok(None),
            Arg::Option(name) => name,
        };
        match name.as_str() {
            "--backend" => {
                options.vulkan = match args.value(&name)?.as_str() {
                    "model" => false,
                    "vulkan" if cfg!(feature = "vulkan") => true,
                    "vulkan" => {
                        return Err("--backend vulkan: built without the Vulkan backend; \
                                    cargo run --release --features vulkan --bin workload"
                            .to_string())
                    }
                    other => return Err(format!("--backend: '{other}' is not model or vulkan")),
                }
            }
            "--no-oracle" => options.no_oracle = true,
            "--draws" => options.draws = count(&name, &args.value(&name)?, 1, 10_000_000)?,
            "--runs" => options.runs = count(&name, &args.value(&name)?, 1, 1_000)?,
            "--bundle-draws" => {
                options.bundle_draws = count(&name, &args.value(&name)?, 1, 100_000)?
            }
            "--thread-draws" => {
                options.thread_draws = count(&name, &args.value(&name)?, 1, 10_000_000)?
            }
            "--threads" => {
                options.threads = args
                    .value(&name)?
                    .split(',')
                    .map(|t| count(&name, t.trim(), 1, recorder::limits::MAX_DEFERRED_CONTEXTS))
                    .collect::<Result<_, _>>()?
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(Some(options))
}

fn cell(d: Option<Duration>, per: u32) -> String {
    d.map_or_else(|| "–".to_string(), |d| format!("{:.1}", ns(d, per)))
}

fn context(device: &Device, semantics: Semantics, name: &str) -> Result<DeferredContext, Error> {
    device.create_deferred_context(&DeferredContextDesc {
        name,
        semantics,
        ..Default::default()
    })
}

fn detached(device: &Device) -> Result<ImmediateContext, Error> {
    let mut immediate = ImmediateContext::new(device)?;
    immediate.set_gpu_timing(GpuTiming::Detached);
    Ok(immediate)
}

/// A device of its own for a path, with the workload's objects: each path has its immediate
/// context (one a device, R-OBJ-1) alive for the whole run.
fn own_device() -> Result<(Device, Workload), Error> {
    let device = Device::new(DeviceDesc::default());
    let workload = Workload::new(&device)?;
    Ok((device, workload))
}

/// One path of the table: what one run of it measured (record, execute and drop; a path without
/// an execute or drop phase leaves it zero and says so in `phases`), and the bytes it recorded.
struct Sample {
    times: [Duration; 3],
    bytes: Option<u64>,
}

impl Sample {
    fn total(&self) -> Duration {
        self.times.iter().sum()
    }
}

/// A path of the table, run once a round ([`interleave`]): its label, which of execute and drop
/// it has, and the run itself.
struct Path<'a> {
    label: String,
    phases: [bool; 2],
    run: Box<dyn FnMut() -> Result<Sample, Error> + 'a>,
}

/// One row of the table: a path's samples, one a round, in round order.
struct Row {
    label: String,
    phases: [bool; 2],
    samples: Vec<Sample>,
}

impl Row {
    /// The median of one phase (0 record, 1 execute, 2 drop), `None` for a phase the path lacks.
    fn phase(&self, k: usize) -> Option<Duration> {
        (k == 0 || self.phases[k - 1])
            .then(|| timing::middle(self.samples.iter().map(|s| s.times[k])).unwrap_or_default())
    }

    fn total(&self) -> Duration {
        timing::middle(self.samples.iter().map(Sample::total)).unwrap_or_default()
    }

    fn bytes(&self) -> Option<u64> {
        self.samples.last().and_then(|s| s.bytes)
    }
}

/// Runs the paths in rounds, one run of each a round (two warm-up rounds first, not kept), so
/// that the machine's state at a moment (a burst of load, a frequency change) falls on every
/// path of that round alike: a ratio is then the median of the rounds' ratios ([`round_ratio`]).
fn interleave<const N: usize>(mut paths: [Path<'_>; N], runs: u32) -> Result<[Row; N], Error> {
    let mut rows = paths.each_ref().map(|p| Row {
        label: p.label.clone(),
        phases: p.phases,
        samples: Vec::with_capacity(runs as usize),
    });
    for round in 0..runs.max(1) + 2 {
        for (path, row) in paths.iter_mut().zip(&mut rows) {
            let sample = (path.run)()?;
            if round >= 2 {
                row.samples.push(sample);
            }
        }
    }
    Ok(rows)
}

/// The median over the rounds of `of(a's sample, b's sample)`: a ratio of two paths measured
/// side by side in each round.
fn round_ratio(a: &Row, b: &Row, of: impl Fn(&Sample, &Sample) -> f64) -> f64 {
    timing::middle(a.samples.iter().zip(&b.samples).map(|(a, b)| of(a, b))).unwrap_or(f64::NAN)
}

fn seconds(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// Records the workload's `draws` on `context` and finishes the list: the list and the time.
fn record_list<C: DeviceContext + RecordingContext>(
    workload: &Workload,
    context: &mut C,
    draws: u32,
) -> Result<(CommandList, Duration), Error> {
    let start = Instant::now();
    workload.record(context, 0..draws);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .map_err(|e| e.error)?;
    Ok((list, start.elapsed()))
}

/// Record, finish, execute and drop one list of `semantics`, the GPU model detached (the CPU
/// side of execution alone, as wgpu's noop backend) or inline (`model`: what every draw saw
/// computed as it executes).
fn list_path(semantics: Semantics, model: bool, o: &Options) -> Result<Path<'_>, Error> {
    let (device, workload) = own_device()?;
    let mut context = context(&device, semantics, "workload")?;
    let mut immediate = ImmediateContext::new(&device)?;
    immediate.set_gpu_timing(if model {
        GpuTiming::Inline
    } else {
        GpuTiming::Detached
    });
    let label = match model {
        false => format!("{} list", semantics.name()),
        true => format!("{} list, GPU model inline", semantics.name()),
    };
    Ok(Path {
        label,
        phases: [true, true],
        run: Box::new(move || {
            let (list, recorded) = record_list(&workload, &mut context, o.draws)?;
            let bytes = list.stats().bytes;
            let start = Instant::now();
            immediate.execute_command_list(&list, RestoreState::ClearState)?;
            immediate.flush()?;
            let executed = start.elapsed();
            // The records of the run's draws are not kept from round to round (as a renderer
            // that reads them each frame would not): outside the time, as `--backend vulkan`.
            immediate.clear_records();
            let start = Instant::now();
            drop(list);
            Ok(Sample {
                times: [recorded, executed, start.elapsed()],
                bytes: Some(bytes),
            })
        }),
    })
}

/// Record and finish `draws / bundle_draws` bundles (fast), then drop them.
fn bundle_path(bundle_draws: u32, o: &Options) -> Result<Path<'_>, Error> {
    let (device, workload) = own_device()?;
    let formats = [Format::R8G8B8A8Unorm];
    let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("workload", &formats))?;
    let ranges: Vec<_> = (0..o.draws)
        .step_by(bundle_draws as usize)
        .map(|start| start..(start + bundle_draws).min(o.draws))
        .collect();
    let mut bundles: Vec<DrawBundle> = Vec::with_capacity(ranges.len());
    Ok(Path {
        label: format!("bundles ({} x {})", ranges.len(), bundle_draws),
        phases: [false, true],
        run: Box::new(move || {
            let start = Instant::now();
            for range in &ranges {
                workload.record_bundle(&mut recorder, range.clone());
                bundles.push(recorder.finish().map_err(|e| e.error)?);
            }
            let recorded = start.elapsed();
            let bytes = bundles.iter().map(|b| b.size_bytes()).sum();
            let start = Instant::now();
            bundles.clear();
            Ok(Sample {
                times: [recorded, Duration::ZERO, start.elapsed()],
                bytes: Some(bytes),
            })
        }),
    })
}

/// Record and finish one fast list on a deferred context of the capture (R-CAP-1), then drop
/// it: with no frame being captured (`capturing` false: the capture's idle cost, one branch a
/// call) or while one is (every call kept with its arguments).
fn capture_path(capturing: bool, o: &Options) -> Result<Path<'_>, Error> {
    let (device, workload) = own_device()?;
    let capture = CaptureDevice::new(device, CaptureOptions::default());
    let mut immediate = CapturedImmediate::new(&capture)?;
    if capturing {
        immediate.begin_capture();
    }
    let mut context = capture.create_deferred_context(&DeferredContextDesc {
        name: "workload",
        semantics: Semantics::Fast,
        ..Default::default()
    })?;
    Ok(Path {
        label: format!(
            "fast list, capture {}",
            ["idle", "capturing"][capturing as usize]
        ),
        phases: [false, true],
        run: Box::new(move || {
            // The immediate context stays alive (and capturing) as long as the path.
            let _ = &immediate;
            let (list, recorded) = record_list(&workload, &mut context, o.draws)?;
            let bytes = list.stats().bytes;
            let start = Instant::now();
            drop(list);
            Ok(Sample {
                times: [recorded, Duration::ZERO, start.elapsed()],
                bytes: Some(bytes),
            })
        }),
    })
}

/// The same calls made directly on the immediate context of a device of `semantics`.
fn immediate_path(semantics: Semantics, o: &Options) -> Result<Path<'_>, Error> {
    let device = Device::new(DeviceDesc {
        immediate_semantics: semantics,
        ..DeviceDesc::default()
    });
    let workload = Workload::new(&device)?;
    let mut immediate = detached(&device)?;
    Ok(Path {
        label: format!("immediate, {}", semantics.name()),
        phases: [false, false],
        run: Box::new(move || {
            let start = Instant::now();
            workload.record(&mut immediate, 0..o.draws);
            immediate.flush()?;
            Ok(Sample {
                times: [start.elapsed(), Duration::ZERO, Duration::ZERO],
                bytes: None,
            })
        }),
    })
}

fn naive_path(o: &Options) -> Path<'_> {
    let mut naive = ArcRecorder::default();
    let mut state = ArcState::default();
    let bytes =
        (std::mem::size_of::<benches::render_workload::ArcCommand>() * 3) as u64 * o.draws as u64;
    Path {
        label: "naive Vec<enum> + Arc".into(),
        phases: [true, true],
        run: Box::new(move || {
            let start = Instant::now();
            naive.record(0..o.draws);
            let recorded = start.elapsed();
            let start = Instant::now();
            naive.execute(&mut state);
            std::hint::black_box(state.seen);
            let executed = start.elapsed();
            let start = Instant::now();
            naive.commands.clear();
            Ok(Sample {
                times: [recorded, executed, start.elapsed()],
                bytes: Some(bytes),
            })
        }),
    }
}

fn probe_path<'a>(workload: &'a Workload, o: &'a Options) -> Path<'a> {
    let mut probe = AppendProbe::default();
    Path {
        label: "append probe (32 B/command)".into(),
        phases: [false, false],
        run: Box::new(move || {
            let start = Instant::now();
            probe.record(workload, 0..o.draws);
            Ok(Sample {
                times: [start.elapsed(), Duration::ZERO, Duration::ZERO],
                bytes: Some(probe.bytes() as u64),
            })
        }),
    }
}

/// What a thread of [`scaling`] records on: its own deferred context, or the append probe.
enum Recorder {
    Context(Box<DeferredContext>),
    Probe(AppendProbe),
}

/// Records `thread_draws` draws split among `threads` threads, each on its own context (or its
/// own probe: `semantics` `None`), the objects shared (`benches::timing::scaling`).
fn scaling(
    device: &Device,
    workload: &Workload,
    semantics: Option<Semantics>,
    threads: u32,
    o: &Options,
) -> Result<Scaling, Error> {
    timing::scaling(
        threads,
        o.thread_draws,
        o.runs,
        |k| match semantics {
            Some(semantics) => {
                let context = context(device, semantics, &format!("worker{k}"))?;
                Ok(Recorder::Context(Box::new(context)))
            }
            None => Ok(Recorder::Probe(AppendProbe::default())),
        },
        |recorder, range| match recorder {
            Recorder::Context(context) => {
                workload.record(&mut **context, range);
                let list = context.finish_command_list(RestoreState::ClearState);
                list.map(Some).map_err(|e| e.error)
            }
            Recorder::Probe(probe) => {
                probe.record(workload, range);
                Ok(None)
            }
        },
        |_, list| drop(list),
    )
}

fn run(o: &Options) -> Result<(), Error> {
    let device = Device::new(DeviceDesc::default());
    let workload = Workload::new(&device)?;
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    outln!(
        "workload: {} draws; per draw a constant-buffer bind among 16, a vertex-buffer bind among 8, \
         draw(3, 0); shaders and blend state every 100 draws; GPU model detached but for the \
         row that says inline; median of {} rounds, every path run once a round; {cores} cores",
        o.draws,
        o.runs
    );
    let paths = [
        list_path(Semantics::Fast, false, o)?,
        list_path(Semantics::Legacy, false, o)?,
        bundle_path(o.bundle_draws, o)?,
        bundle_path(o.draws, o)?,
        list_path(Semantics::Fast, true, o)?,
        capture_path(false, o)?,
        capture_path(true, o)?,
        immediate_path(Semantics::Fast, o)?,
        immediate_path(Semantics::Legacy, o)?,
        naive_path(o),
        probe_path(&workload, o),
    ];
    let rows = interleave(paths, o.runs)?;
    outln!(
        "{:<34} {:>9} {:>9} {:>9} {:>9} {:>11}",
        "ns per draw",
        "record",
        "execute",
        "drop",
        "total",
        "bytes/draw"
    );
    for row in &rows {
        outln!(
            "{:<34} {:>9} {:>9} {:>9} {:>9.1} {:>11}",
            row.label,
            cell(row.phase(0), o.draws),
            cell(row.phase(1), o.draws),
            cell(row.phase(2), o.draws),
            ns(row.total(), o.draws),
            row.bytes().map_or_else(
                || "–".into(),
                |b| format!("{:.1}", b as f64 / o.draws as f64)
            ),
        );
    }
    let [fast, legacy, bundles, long, model, idle, capturing, imm_fast, imm_legacy, naive, probe] =
        &rows;
    let record = |s: &Sample| seconds(s.times[0]);
    let record_execute = |s: &Sample| seconds(s.times[0] + s.times[1]);
    let total = |s: &Sample| seconds(s.total());
    let model_draws_per_s = o.draws as f64
        / timing::middle(model.samples.iter().map(|s| seconds(s.times[1]))).unwrap_or(f64::NAN);
    outln!(
        "ratios (medians of the {} rounds' ratios, every path run once a round): \
         fast list record / append probe {:.2}x; legacy / fast (record + execute + drop) {:.2}x; \
         bundles / fast list (record) {:.2}x; one bundle of {} / fast list (record) {:.2}x; \
         naive / fast list (record + execute) {:.2}x; immediate / deferred (fast) {:.2}x, \
         (legacy) {:.2}x; GPU model inline: {:.2} M draws/s (execute with the model / detached \
         {:.2}x); capturing / capture idle (record) {:.2}x, capture idle / fast list (record) \
         {:.2}x",
        o.runs,
        round_ratio(fast, probe, |a, b| record(a) / record(b)),
        round_ratio(legacy, fast, |a, b| total(a) / total(b)),
        round_ratio(bundles, fast, |a, b| record(a) / record(b)),
        o.draws,
        round_ratio(long, fast, |a, b| record(a) / record(b)),
        round_ratio(naive, fast, |a, b| record_execute(a) / record_execute(b)),
        round_ratio(imm_fast, fast, |a, b| record(a) / record(b)),
        round_ratio(imm_legacy, legacy, |a, b| record(a) / record(b)),
        model_draws_per_s / 1e6,
        round_ratio(model, fast, |a, b| seconds(a.times[1])
            / seconds(b.times[1])),
        round_ratio(capturing, idle, |a, b| record(a) / record(b)),
        round_ratio(idle, fast, |a, b| record(a) / record(b)),
    );
    outln!(
        "threads: {} draws recorded over T threads (one context each, the objects shared); \
         wall ns/draw, speedup over 1 thread, and the threads' recording times summed",
        o.thread_draws
    );
    outln!(
        "{:>3} {:>10} {:>8} {:>8} {:>10} {:>8} {:>8} {:>10} {:>8}",
        "T",
        "fast",
        "speedup",
        "summed",
        "legacy",
        "speedup",
        "summed",
        "probe",
        "speedup"
    );
    let ratio = |a: Duration, b: Duration| seconds(a) / seconds(b);
    let mut first: Option<[Duration; 3]> = None;
    for &t in &o.threads {
        let f = scaling(&device, &workload, Some(Semantics::Fast), t, o)?;
        let l = scaling(&device, &workload, Some(Semantics::Legacy), t, o)?;
        let p = scaling(&device, &workload, None, t, o)?;
        let base = *first.get_or_insert([f.wall, l.wall, p.wall]);
        let per = o.thread_draws;
        outln!(
            "{:>3} {:>10.2} {:>7.2}x {:>8.1} {:>10.2} {:>7.2}x {:>8.1} {:>10.2} {:>7.2}x",
            t,
            ns(f.wall, per),
            ratio(base[0], f.wall),
            ns(f.summed, per),
            ns(l.wall, per),
            ratio(base[1], l.wall),
            ns(l.summed, per),
            ns(p.wall, per),
            ratio(base[2], p.wall),
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    trace::event_output::install("workload");
    finish_main("workload", HELP, parse(std::env::args().skip(1)), |o| {
        #[cfg(feature = "vulkan")]
        if o.vulkan {
            return workload_backend::run(o);
        }
        run(o).map_err(|error| error.to_string())
    })
}
