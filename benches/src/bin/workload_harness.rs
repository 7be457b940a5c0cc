//! `workload`: the render-bundle workload (after wgpu's render-bundle benchmark: per draw a constant-buffer
//! bind among 16, a vertex-buffer bind among 8 and `draw(3, 0)`, the pipeline changed every 100
//! draws; `benches::render_workload`) timed on every path a renderer would pick, side by side in one
//! run: this engine's fast and legacy deferred contexts (record, execute, drop), draw bundles
//! (encode + finish), the same calls made directly on the immediate context, a naive `Vec<enum>`
//! recorder with an `Arc` per bind, the append probe (one 32-byte append per command: the
//! limit), and the recording spread over T threads. The GPU model is detached, as wgpu's noop
//! backend does no backend work: execution is the CPU side alone.
//!
//! Every figure is the median of `--runs` runs after two warm-up runs; ratios are of medians
//! from the same run.
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
use benches::timing::{self, median, ns, Scaling};
use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

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
                         GPU's time per frame (timestamps) and a pixel check (a build with
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

/// One row of the table: per-draw record, execute and drop times, and bytes per draw.
struct Row {
    label: String,
    record: Duration,
    execute: Option<Duration>,
    drop: Option<Duration>,
    bytes: Option<u64>,
}

impl Row {
    fn total(&self) -> Duration {
        self.record + self.execute.unwrap_or_default() + self.drop.unwrap_or_default()
    }
}

/// Record, finish, execute (GPU model detached) and drop one list of `semantics`.
fn list_row(
    device: &Device,
    workload: &Workload,
    semantics: Semantics,
    o: &Options,
) -> Result<Row, Error> {
    let mut context = context(device, semantics, "workload")?;
    let mut immediate = detached(device)?;
    let mut bytes = 0;
    let mut failed = None;
    let [record, execute, dropped] = median(o.runs, || {
        let start = Instant::now();
        workload.record(&mut context, 0..o.draws);
        let list = context.finish_command_list(RestoreState::ClearState);
        let recorded = start.elapsed();
        let list = match list {
            Ok(list) => list,
            Err(error) => {
                failed = Some(error.error);
                return [Duration::ZERO; 3];
            }
        };
        bytes = list.stats().bytes;
        let start = Instant::now();
        let executed = immediate
            .execute_command_list(&list, RestoreState::ClearState)
            .and_then(|()| immediate.flush());
        let execute = start.elapsed();
        if let Err(error) = executed {
            failed = Some(error);
        }
        let start = Instant::now();
        drop(list);
        [recorded, execute, start.elapsed()]
    });
    if let Some(error) = failed {
        return Err(error);
    }
    Ok(Row {
        label: format!("{} list", semantics.name()),
        record,
        execute: Some(execute),
        drop: Some(dropped),
        bytes: Some(bytes),
    })
}

/// Record and finish `draws / bundle_draws` bundles (fast), then drop them.
fn bundle_row(device: &Device, workload: &Workload, o: &Options) -> Result<Row, Error> {
    let formats = [Format::R8G8B8A8Unorm];
    let mut recorder = BundleRecorder::new(device, &BundleDesc::new("workload", &formats))?;
    let ranges: Vec<_> = (0..o.draws)
        .step_by(o.bundle_draws as usize)
        .map(|start| start..(start + o.bundle_draws).min(o.draws))
        .collect();
    let mut bundles: Vec<DrawBundle> = Vec::with_capacity(ranges.len());
    let mut bytes = 0;
    let mut failed = None;
    let [record, dropped] = median(o.runs, || {
        let start = Instant::now();
        for range in &ranges {
            workload.record_bundle(&mut recorder, range.clone());
            match recorder.finish() {
                Ok(bundle) => bundles.push(bundle),
                Err(error) => failed = Some(error.error),
            }
        }
        let recorded = start.elapsed();
        bytes = bundles.iter().map(|b| b.size_bytes()).sum();
        let start = Instant::now();
        bundles.clear();
        [recorded, start.elapsed()]
    });
    if let Some(error) = failed {
        return Err(error);
    }
    Ok(Row {
        label: format!("bundles ({} x {})", ranges.len(), o.bundle_draws),
        record,
        execute: None,
        drop: Some(dropped),
        bytes: Some(bytes),
    })
}

/// The same calls made directly on the immediate context of a device of `semantics`.
fn immediate_row(semantics: Semantics, o: &Options) -> Result<Row, Error> {
    let device = Device::new(DeviceDesc {
        immediate_semantics: semantics,
        ..DeviceDesc::default()
    });
    let workload = Workload::new(&device)?;
    let mut immediate = detached(&device)?;
    let mut failed = None;
    let [record] = median(o.runs, || {
        let start = Instant::now();
        workload.record(&mut immediate, 0..o.draws);
        if let Err(error) = immediate.flush() {
            failed = Some(error);
        }
        [start.elapsed()]
    });
    if let Some(error) = failed {
        return Err(error);
    }
    Ok(Row {
        label: format!("immediate, {}", semantics.name()),
        record,
        execute: None,
        drop: None,
        bytes: None,
    })
}

fn naive_row(o: &Options) -> Row {
    let mut naive = ArcRecorder::default();
    let mut state = ArcState::default();
    let [record, execute, dropped] = median(o.runs, || {
        let start = Instant::now();
        naive.record(0..o.draws);
        let recorded = start.elapsed();
        let start = Instant::now();
        naive.execute(&mut state);
        let executed = start.elapsed();
        let start = Instant::now();
        naive.commands.clear();
        [recorded, executed, start.elapsed()]
    });
    std::hint::black_box(state.seen);
    Row {
        label: "naive Vec<enum> + Arc".into(),
        record,
        execute: Some(execute),
        drop: Some(dropped),
        bytes: Some(
            (std::mem::size_of::<benches::render_workload::ArcCommand>() * 3) as u64
                * o.draws as u64,
        ),
    }
}

fn probe_row(workload: &Workload, o: &Options) -> Row {
    let mut probe = AppendProbe::default();
    let [record] = median(o.runs, || {
        let start = Instant::now();
        probe.record(workload, 0..o.draws);
        [start.elapsed()]
    });
    Row {
        label: "append probe (32 B/command)".into(),
        record,
        execute: None,
        drop: None,
        bytes: Some(probe.bytes() as u64),
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
         draw(3, 0); shaders and blend state every 100 draws; GPU model detached; \
         median of {} runs; {cores} cores",
        o.draws,
        o.runs
    );
    let rows = [
        list_row(&device, &workload, Semantics::Fast, o)?,
        list_row(&device, &workload, Semantics::Legacy, o)?,
        bundle_row(&device, &workload, o)?,
        immediate_row(Semantics::Fast, o)?,
        immediate_row(Semantics::Legacy, o)?,
        naive_row(o),
        probe_row(&workload, o),
    ];
    outln!(
        "{:<30} {:>9} {:>9} {:>9} {:>9} {:>11}",
        "ns per draw",
        "record",
        "execute",
        "drop",
        "total",
        "bytes/draw"
    );
    for row in &rows {
        outln!(
            "{:<30} {:>9} {:>9} {:>9} {:>9.1} {:>11}",
            row.label,
            cell(Some(row.record), o.draws),
            cell(row.execute, o.draws),
            cell(row.drop, o.draws),
            ns(row.total(), o.draws),
            row.bytes.map_or_else(
                || "–".into(),
                |b| format!("{:.1}", b as f64 / o.draws as f64)
            ),
        );
    }
    let [fast, legacy, bundle, imm_fast, imm_legacy, naive, probe] = &rows;
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let fast_run = fast.record + fast.execute.unwrap_or_default();
    outln!(
        "ratios: naive / fast list (record + execute) {:.2}x; legacy / fast (record + execute + drop) {:.2}x; \
         bundle / fast list (record) {:.2}x; immediate / deferred (fast) {:.2}x, (legacy) {:.2}x; \
         fast list record / append probe {:.2}x",
        ratio(naive.record + naive.execute.unwrap_or_default(), fast_run),
        ratio(legacy.total(), fast.total()),
        ratio(bundle.record, fast.record),
        ratio(imm_fast.record, fast.record),
        ratio(imm_legacy.record, legacy.record),
        ratio(fast.record, probe.record),
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
