//! Records the render-bundle workload (`benches::render_workload`) a given number of times, for instruction
//! counts that do not depend on the machine's noise: run it under cachegrind for N = 1 and
//! N = 11 and divide the difference by 10 iterations and by 10,000 draws.
//!
//! ```sh
//! cargo build --release -p benches --example count_workload
//! for n in 1 11; do
//!     valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//!         target/release/examples/count_workload fast $n 2>&1 | grep 'I *refs'
//! done
//! ```
//!
//! Arguments: the path (`fast` / `legacy`: a deferred context's list recorded, finished,
//! executed with the GPU model detached and dropped; `bundle`: 100 bundles of 100 draws recorded
//! and dropped; `immediate-fast` / `immediate-legacy`: the calls made on the immediate context,
//! GPU model detached; `consume`: a recorded fast list executed with the GPU model inline, its
//! records read in place and cleared (as the workload harness's model-alone frame does; owned
//! copies, `take_records`, would cost more than the model itself);
//! `probe`: the append probe, one 32-byte append per command; `capture-idle` / `capturing`: the
//! fast list recorded, finished and dropped on a deferred context of the capture, with no frame
//! being captured or while one is, as the `workload` harness's capture rows, R-CAP-1), the
//! iterations after the first (which warms the chunk pool), and optionally the draws a list
//! (10,000 unless given; the capture's memory traffic, `--cache-sim=yes`, shows at 100,000).

use benches::render_workload::Workload;
use bundles::{BundleDesc, BundleRecorder};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

/// The draws a list unless the command line says otherwise.
const DRAWS: u32 = 10_000;
const USAGE: &str =
    "usage: count_workload fast|legacy|bundle|immediate-fast|immediate-legacy|consume|probe|capture-idle|capturing ITERATIONS [DRAWS]";

fn usage() -> ! {
    eprintln!("{USAGE}");
    std::process::exit(2);
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, iterations, draws) = match args.as_slice() {
        [path, iterations] => (path, iterations, None),
        [path, iterations, draws] => (path, iterations, Some(draws)),
        _ => usage(),
    };
    let (Ok(iterations), Ok(draws)) = (
        iterations.parse::<u32>(),
        draws.map_or(Ok(DRAWS), |d| d.parse::<u32>()),
    ) else {
        usage()
    };
    let immediate_semantics = match path.as_str() {
        "immediate-legacy" => Semantics::Legacy,
        _ => Semantics::Fast,
    };
    let device = Device::new(DeviceDesc {
        immediate_semantics,
        ..DeviceDesc::default()
    });
    let workload = Workload::new(&device)?;
    let mut immediate = ImmediateContext::new(&device)?;
    if path != "consume" {
        immediate.set_gpu_timing(GpuTiming::Detached);
    }
    let list_of = |semantics| {
        device.create_deferred_context(&DeferredContextDesc {
            name: "count",
            semantics,
            ..Default::default()
        })
    };
    let mut context = match path.as_str() {
        "legacy" => list_of(Semantics::Legacy)?,
        _ => list_of(Semantics::Fast)?,
    };
    let mut probe = benches::render_workload::AppendProbe::default();
    let formats = [Format::R8G8B8A8Unorm];
    let mut bundles = BundleRecorder::new(&device, &BundleDesc::new("count", &formats))?;
    // The capture's paths on a device of their own (its immediate context is the capture's).
    let capture_device = Device::new(DeviceDesc::default());
    let capture_workload = Workload::new(&capture_device)?;
    let capture = trace::capture::CaptureDevice::new(capture_device, Default::default());
    let mut captured_immediate = trace::capture::CapturedImmediate::new(&capture)?;
    if path == "capturing" {
        captured_immediate.begin_capture();
    }
    let mut captured = capture.create_deferred_context(&DeferredContextDesc {
        name: "count",
        semantics: Semantics::Fast,
        ..Default::default()
    })?;
    let recorded = {
        workload.record(&mut context, 0..draws);
        context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|e| e.error)?
    };
    for _ in 0..=iterations {
        match path.as_str() {
            "fast" | "legacy" => {
                workload.record(&mut context, 0..draws);
                let list = context
                    .finish_command_list(RestoreState::ClearState)
                    .map_err(|e| e.error)?;
                immediate.execute_command_list(&list, RestoreState::ClearState)?;
                immediate.flush()?;
            }
            "bundle" => {
                let made: Vec<_> = (0..draws / 100)
                    .map(|k| {
                        workload.record_bundle(&mut bundles, k * 100..k * 100 + 100);
                        bundles.finish().map_err(|e| e.error)
                    })
                    .collect::<Result<_, _>>()?;
                drop(made);
            }
            "immediate-fast" | "immediate-legacy" => {
                workload.record(&mut immediate, 0..draws);
                immediate.flush()?;
            }
            "capture-idle" | "capturing" => {
                capture_workload.record(&mut captured, 0..draws);
                let list = captured
                    .finish_command_list(RestoreState::ClearState)
                    .map_err(|e| e.error)?;
                drop(list);
            }
            "probe" => {
                probe.record(&workload, 0..draws);
            }
            "consume" => {
                immediate.execute_command_list(&recorded, RestoreState::ClearState)?;
                immediate.flush()?;
                immediate.clear_records();
            }
            _ => usage(),
        }
    }
    Ok(())
}
