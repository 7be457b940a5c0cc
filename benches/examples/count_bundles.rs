//! Records the `bundle_record` bench's workload (`benches::render_workload`, wgpu's render-bundle
//! benchmark) a given number of times, for instruction counts that do not depend on the
//! machine's noise: run it under cachegrind for N = 1 and N = 11 and divide the difference by 10
//! iterations and by the draws per iteration (100,000), as `benches/scripts/count_instructions.sh`
//! does.
//!
//! ```sh
//! cargo build --release -p benches --example count_bundles
//! for n in 1 11; do
//!     valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//!         target/release/examples/count_bundles bundles $n 2>&1 | grep 'I *refs'
//! done
//! ```
//!
//! Arguments: the mode, then the iterations after the first (which warms the chunk pool):
//! - `bundles`: 1,000 bundles of 100 draws, each encoded and finished, then all dropped;
//! - `long`: one bundle of all 100,000 draws, finished and dropped;
//! - `list`: the same 100,000 draws on a fast deferred context, finished and dropped (the
//!   yardstick both are compared with);
//! - `run fast`, `run legacy`: the workload harness's list rows (`workload`'s `list_row`): the
//!   100,000 draws recorded on a deferred context of those semantics, finished, executed on an
//!   immediate context with the GPU model detached (then flushed) and dropped. The legacy
//!   speed aim (within 2x of fast) is the ratio of the two.

use benches::render_workload::{Workload, PIPELINE_EVERY};
use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

/// Draws per iteration.
const DRAWS: u32 = 100_000;
const USAGE: &str =
    "usage: count_bundles bundles|long|list ITERATIONS | run fast|legacy ITERATIONS";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (mode, iterations) = match args.as_slice() {
        ["run", semantics, iterations] => return run(semantics, iterations),
        [mode @ ("bundles" | "long" | "list"), iterations] => (*mode, *iterations),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    let Ok(iterations) = iterations.parse::<u32>() else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let device = Device::new(DeviceDesc::default());
    let w = Workload::new(&device).unwrap_or_else(|error| panic!("the workload: {error}"));
    let desc = BundleDesc::new("object", &[Format::R8G8B8A8Unorm]);
    let mut recorder =
        BundleRecorder::new(&device, &desc).unwrap_or_else(|error| panic!("recorder: {error}"));
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "count",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .unwrap_or_else(|error| panic!("a deferred context: {error}"));
    let mut bundles: Vec<DrawBundle> = Vec::with_capacity((DRAWS / PIPELINE_EVERY) as usize);
    let mut draws = 0;
    for _ in 0..=iterations {
        match mode {
            "bundles" => {
                for k in 0..DRAWS / PIPELINE_EVERY {
                    w.record_bundle(&mut recorder, k * PIPELINE_EVERY..(k + 1) * PIPELINE_EVERY);
                    bundles.push(recorder.finish().unwrap_or_else(|e| panic!("{}", e.error)));
                }
                draws = bundles.iter().map(|b| b.draws()).sum::<u32>();
                bundles.clear();
            }
            "long" => {
                w.record_bundle(&mut recorder, 0..DRAWS);
                let bundle = recorder.finish().unwrap_or_else(|e| panic!("{}", e.error));
                draws = bundle.draws();
                std::hint::black_box(&bundle);
            }
            _ => {
                w.record(&mut context, 0..DRAWS);
                let list = context
                    .finish_command_list(RestoreState::ClearState)
                    .unwrap_or_else(|error| panic!("recording failed: {error}"));
                draws = list.stats().draws;
                std::hint::black_box(&list);
            }
        }
    }
    println!("draws {draws}");
}

/// `run fast|legacy N`: the workload list of those semantics recorded, finished, executed
/// (GPU model detached) and dropped N + 1 times.
fn run(semantics: &str, iterations: &str) {
    let (semantics, Ok(iterations)) = (
        match semantics {
            "fast" => Semantics::Fast,
            "legacy" => Semantics::Legacy,
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2);
            }
        },
        iterations.parse::<u32>(),
    ) else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let device = Device::new(DeviceDesc::default());
    let w = Workload::new(&device).unwrap_or_else(|error| panic!("the workload: {error}"));
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "count",
            semantics,
            ..Default::default()
        })
        .unwrap_or_else(|error| panic!("a deferred context: {error}"));
    let mut immediate =
        ImmediateContext::new(&device).unwrap_or_else(|error| panic!("the immediate: {error}"));
    immediate.set_gpu_timing(GpuTiming::Detached);
    let mut draws = 0;
    for _ in 0..=iterations {
        w.record(&mut context, 0..DRAWS);
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("recording failed: {error}"));
        immediate
            .execute_command_list(std::hint::black_box(&list), RestoreState::ClearState)
            .and_then(|()| immediate.flush())
            .unwrap_or_else(|error| panic!("the execution: {error}"));
        draws = list.stats().draws;
        drop(std::hint::black_box(list));
    }
    println!("draws {draws}");
}
