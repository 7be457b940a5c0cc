//! Records the `record` bench's mixes a given number of times, for instruction counts that do not
//! depend on the machine's noise: run it under cachegrind for N = 1 and N = 11 and divide the
//! difference by 10 iterations and by the calls per iteration it prints.
//!
//! ```sh
//! cargo build --release -p benches --example count_record
//! for n in 1 11; do
//!     valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//!         target/release/examples/count_record full fast $n 2>&1 | grep 'I *refs'
//! done
//! ```
//!
//! Arguments: the mix (`full`: state sets and draws; `draws`: the draws alone; `state`: the state
//! sets alone, maps included; or one call alone, `set_shader`, `set_input_layout`, `binds` (three
//! one-slot binds a step) or `draw`: `benches::OneCall`, 10,000 steps a list), the semantics (`fast` or `legacy`), the iterations after the
//! first (which warms the chunk pool), and optionally the context: `bare` (the default, the
//! engine's `DeferredContext`), `capture_idle` (the capture's `CapturedDeferred` with a capture
//! attached and no frame captured: the difference per call is the capture's idle cost, R-CAP-1)
//! or `capturing` (a frame being captured: every list keeps its calls).
//! Each iteration records 10,000 draws on one deferred context, finishes the list and drops it,
//! as the bench does.
//!
//! **The `fast-only` build (R-FX-7).** The one-call mixes compare the build with and without the
//! feature, fast semantics both times (the feature refuses legacy contexts):
//!
//! ```sh
//! for features in "" "--features fast-only"; do
//!     cargo build --release -p benches --example count_record $features
//!     for n in 1 11; do
//!         valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//!             target/release/examples/count_record set_shader fast $n 2>&1 | grep 'I *refs'
//!     done
//! done
//! ```

use benches::{
    record_draws, record_draws_only, record_one_call, CallSink, OneCall, Scene, SceneDesc,
    WithoutDraws,
};
use executor::RecordingContext;
use recorder::{DeferredContextDesc, Device, DeviceDesc, RestoreState, Semantics};
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate};

const DRAWS: u32 = 10_000;
const USAGE: &str =
    "usage: count_record full|draws|state|set_shader|set_input_layout|binds|draw fast|legacy ITERATIONS [bare|capture_idle|capturing]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mix, semantics, iterations, context) = match args.as_slice() {
        [mix, semantics, iterations] => (mix, semantics, iterations, "bare"),
        [mix, semantics, iterations, context] => (mix, semantics, iterations, context.as_str()),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    let semantics = match semantics.as_str() {
        "fast" => Semantics::Fast,
        "legacy" => Semantics::Legacy,
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    let (Ok(iterations), true) = (
        iterations.parse::<u32>(),
        matches!(mix.as_str(), "full" | "draws" | "state") || OneCall::from_name(mix).is_some(),
    ) else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    // The capture's immediate context is legacy by default; the `fast-only` build has none.
    let immediate_semantics = match recorder::LEGACY_BUILT {
        true => Semantics::default(),
        false => Semantics::Fast,
    };
    let device = Device::new(DeviceDesc {
        immediate_semantics,
        ..DeviceDesc::default()
    });
    let scene = Scene::new(
        &device,
        &SceneDesc {
            draws: DRAWS,
            ..SceneDesc::default()
        },
    )
    .unwrap_or_else(|error| panic!("the scene: {error}"));
    let desc = DeferredContextDesc {
        name: "count",
        semantics,
        chunk_policy: None,
        ..Default::default()
    };
    let calls = match context {
        "bare" => {
            let mut context = device
                .create_deferred_context(&desc)
                .unwrap_or_else(|error| panic!("a deferred context: {error}"));
            record(&mut context, &scene, mix, iterations)
        }
        "capture_idle" | "capturing" => {
            let capture = CaptureDevice::new(device.clone(), CaptureOptions::default());
            let mut immediate = CapturedImmediate::new(&capture)
                .unwrap_or_else(|error| panic!("an immediate context: {error}"));
            if context == "capturing" {
                immediate.begin_capture();
            }
            let mut context = capture
                .create_deferred_context(&desc)
                .unwrap_or_else(|error| panic!("a deferred context: {error}"));
            record(&mut context, &scene, mix, iterations)
        }
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    println!("calls {calls}");
}

/// Records the mix `iterations + 1` times on `context`; the calls of one list.
fn record<C: CallSink + RecordingContext>(
    context: &mut C,
    scene: &Scene,
    mix: &str,
    iterations: u32,
) -> u32 {
    let mut calls = 0;
    for _ in 0..=iterations {
        match mix {
            "full" => record_draws(context, scene, 0..DRAWS),
            "draws" => record_draws_only(context, scene, 0..DRAWS),
            "state" => record_draws(&mut WithoutDraws(&mut *context), scene, 0..DRAWS),
            // `main` checked the name: one of the calls alone.
            _ => {
                if let Some(call) = OneCall::from_name(mix) {
                    record_one_call(context, scene, call, DRAWS);
                }
            }
        }
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("recording failed: {error}"));
        calls = list.stats().calls;
        std::hint::black_box(&list);
    }
    calls
}
