//! Does the `execute` bench's work a given number of times, for instruction counts that do not
//! depend on the machine's noise: run it under cachegrind for N = 1 and N = 11 and divide the
//! difference by 10 executions. `detached SPLIT_POINTS N`: executes the bench's legacy
//! split-point list on a detached immediate context (the CPU side of execution alone, as
//! `execute_split_points` times it); `consume N`: the GPU model consumes a fast 10,000-draw
//! list (`gpu_model/consume_10000_draws`: executed, then `sync_gpu`, then the records cleared);
//! `throughput N`: executes the render-bundle workload's 100,000-draw fast list inline, GPU model
//! attached (`gpu_model/throughput_100000_draws`), the records cleared after each execution;
//! `bundles N`: executes the frame demo's bundle frame of 2,000 draws (one fast list calling
//! 1,000 object bundles) inline, GPU model attached (`gpu_model/bundle_frame_2000_draws`), the
//! records cleared after each execution.
//!
//! ```sh
//! cargo build --release -p benches --example count_execute
//! for n in 1 11; do
//!     valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//!         target/release/examples/count_execute detached 1000 $n 2>&1 | grep 'I *refs'
//! done
//! ```
//!
//! Arguments: the mode, the split points in the 1,000-draw list (`detached`; 0, 10, 100 or 1,000
//! in the bench) and the executions after the first.

use benches::{BundleFrameScene, ExecuteScene, ThroughputScene};
use executor::{GpuTiming, ImmediateContext};
use recorder::{Device, DeviceDesc, RestoreState, Semantics};

const USAGE: &str = "usage: count_execute detached SPLIT_POINTS ITERATIONS | consume ITERATIONS \
                     | throughput ITERATIONS | bundles ITERATIONS";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (consume, split_points, iterations) = match args.as_slice() {
        ["detached", split_points, iterations] => (false, *split_points, *iterations),
        ["consume", iterations] => (true, "0", *iterations),
        ["throughput", iterations] => return throughput(iterations),
        ["bundles", iterations] => return bundle_frame(iterations),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    let (Ok(split_points), Ok(iterations)) =
        (split_points.parse::<u32>(), iterations.parse::<u32>())
    else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..Default::default()
    });
    let scene = ExecuteScene::new(&device).unwrap_or_else(|error| panic!("the scene: {error}"));
    let list = match consume {
        true => scene.list(&device, Semantics::Fast, 10_000, 0),
        false => scene.list(&device, Semantics::Legacy, 1_000, split_points),
    }
    .unwrap_or_else(|error| panic!("the list: {error}"));
    let mut immediate =
        ImmediateContext::new(&device).unwrap_or_else(|error| panic!("the immediate: {error}"));
    immediate.set_gpu_timing(match consume {
        true => GpuTiming::Deferred,
        false => GpuTiming::Detached,
    });
    for _ in 0..=iterations {
        immediate
            .execute_command_list(std::hint::black_box(&list), RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("the execution: {error}"));
        if consume {
            immediate.sync_gpu();
            std::hint::black_box(immediate.draws().len());
            immediate.clear_records();
        }
    }
    println!("split points {}", list.stats().split_points);
}

/// `throughput N`: the workload list executed inline N + 1 times.
fn throughput(iterations: &str) {
    let Ok(iterations) = iterations.parse::<u32>() else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..Default::default()
    });
    let scene = ThroughputScene::new(&device).unwrap_or_else(|error| panic!("the scene: {error}"));
    let list = scene
        .list(&device, 100_000)
        .unwrap_or_else(|error| panic!("the list: {error}"));
    let mut immediate =
        ImmediateContext::new(&device).unwrap_or_else(|error| panic!("the immediate: {error}"));
    for _ in 0..=iterations {
        immediate
            .execute_command_list(std::hint::black_box(&list), RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("the execution: {error}"));
        std::hint::black_box(immediate.draws().len());
        immediate.clear_records();
    }
    println!("draws {}", list.stats().draws);
}

/// `bundles N`: the bundle frame executed inline N + 1 times.
fn bundle_frame(iterations: &str) {
    let Ok(iterations) = iterations.parse::<u32>() else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..Default::default()
    });
    let scene =
        BundleFrameScene::new(&device, 2_000).unwrap_or_else(|error| panic!("the scene: {error}"));
    let list = scene
        .list(&device)
        .unwrap_or_else(|error| panic!("the list: {error}"));
    let mut immediate =
        ImmediateContext::new(&device).unwrap_or_else(|error| panic!("the immediate: {error}"));
    for _ in 0..=iterations {
        immediate
            .execute_command_list(std::hint::black_box(&list), RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("the execution: {error}"));
        std::hint::black_box(immediate.draws().len());
        immediate.clear_records();
    }
    println!("draws {}", immediate.counters().draws);
}
