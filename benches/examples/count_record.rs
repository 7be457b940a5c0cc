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
//! sets alone, maps included), the semantics (`fast` or `legacy`) and the iterations after the
//! first (which warms the chunk pool). Each iteration records 10,000 draws on one deferred
//! context, finishes the list and drops it, as the bench does.

use benches::{record_draws, record_draws_only, Scene, SceneDesc, WithoutDraws};
use recorder::{DeferredContextDesc, Device, DeviceDesc, RestoreState, Semantics};

const DRAWS: u32 = 10_000;
const USAGE: &str = "usage: count_record full|draws|state fast|legacy ITERATIONS";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mix, semantics, iterations] = args.as_slice() else {
        eprintln!("{USAGE}");
        std::process::exit(2);
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
        matches!(mix.as_str(), "full" | "draws" | "state"),
    ) else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let device = Device::new(DeviceDesc::default());
    let scene = Scene::new(
        &device,
        &SceneDesc {
            draws: DRAWS,
            ..SceneDesc::default()
        },
    )
    .unwrap_or_else(|error| panic!("the scene: {error}"));
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "count",
            semantics,
            chunk_policy: None,
            ..Default::default()
        })
        .unwrap_or_else(|error| panic!("a deferred context: {error}"));
    let mut calls = 0;
    for _ in 0..=iterations {
        match mix.as_str() {
            "full" => record_draws(&mut context, &scene, 0..DRAWS),
            "draws" => record_draws_only(&mut context, &scene, 0..DRAWS),
            _ => record_draws(&mut WithoutDraws(&mut context), &scene, 0..DRAWS),
        }
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("recording failed: {error}"));
        calls = list.stats().calls;
        std::hint::black_box(&list);
    }
    println!("calls {calls}");
}
