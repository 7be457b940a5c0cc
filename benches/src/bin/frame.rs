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
//! bundles inherit and call the bundles (`benches::object_bundles`). It prints the bundles' count, sizes
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
//! stderr; both are printed from the structs of `frame/frame_report.rs` and its siblings, which
//! also decide which rates and ratios mean nothing (threads competing for cores, times too short
//! to divide by) and say so.
//!
//! ```text
//! cargo run --release --bin frame -- --draws 50000 --threads 4 --semantics both
//! ```

use std::process::ExitCode;
use std::thread;

use benches::{out, outln, Scene};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate};

// In a folder of its own: a file beside this one would be a binary of its own to Cargo.
#[path = "frame/bundle_report.rs"]
mod bundle_report;
#[path = "frame/frame_options.rs"]
mod frame_options;
#[path = "frame/frame_report.rs"]
mod frame_report;
#[path = "frame/frame_runs.rs"]
mod frame_runs;
#[path = "frame/recording_engine.rs"]
mod recording_engine;
#[path = "frame/report_json.rs"]
mod report_json;
#[path = "frame/run_report.rs"]
mod run_report;
#[cfg(feature = "vulkan")]
#[path = "frame/vulkan_run.rs"]
mod vulkan_run;

use frame_options::{parse, Options, HELP};
use frame_report::{fail, say, Header, Machine};
use frame_runs::{run, run_bundles, Mode};
#[cfg(feature = "vulkan")]
use recording_engine::Immediate as _;
use recording_engine::{Captured, Engine};
use report_json::Report;
use run_report::RunReport;

fn main() -> ExitCode {
    trace::event_output::install("frame");
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
        install_backend(&device, &mut immediate, &options);
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
    install_backend(device.device(), immediate.inner_mut(), &options);
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
        out!("{}", report_json::json(&report));
    }
    #[cfg(feature = "vulkan")]
    if options.vulkan {
        if let Err(message) = vulkan_run::finish(immediate.context(), options) {
            fail(&message);
        }
    }
    ExitCode::SUCCESS
}

/// `--backend vulkan`: the backend on the immediate context's model (`frame/vulkan_run.rs`).
fn install_backend(device: &Device, immediate: &mut ImmediateContext, options: &Options) {
    #[cfg(feature = "vulkan")]
    if options.vulkan {
        if let Err(message) = vulkan_run::install(device, immediate, options) {
            fail(&message);
        }
    }
    let _ = (device, immediate, options);
}
