//! R-J-1 with R-REC-3: a frame recorded on a warm `RecordingPool` allocates nothing per job on
//! the calling thread. What is left is crossbeam's injector, which allocates a block of 63
//! task slots each time the pushes fill one: at most one allocation per 63 jobs. (The workers'
//! own recording is the deferred contexts' and allocates nothing once the chunk pool is warm,
//! R-REC-3; the counting allocator counts the calling thread only.)

#[path = "../../recorder/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use counting_alloc::allocations_during;
use executor::{RecordingPool, RecordingPoolDesc};
use recorder::*;

#[test]
fn r_j_1_a_warm_pool_allocates_nothing_per_job() {
    let device = Device::new(DeviceDesc::default());
    let mut pool = RecordingPool::new(
        &device,
        &RecordingPoolDesc {
            workers: 2,
            semantics: Semantics::Fast,
            ..Default::default()
        },
    )
    .expect("pool");
    let draws: Vec<u32> = (0..16).map(|job| 10 + job).collect();
    let mut lists = Vec::new();
    let mut frame = |lists: &mut Vec<_>| {
        pool.record_into(
            draws.len(),
            |job, context| {
                for draw in 0..draws[job] {
                    context.draw(3, draw);
                }
            },
            lists,
        )
    };
    for _ in 0..4 {
        frame(&mut lists); // warm-up: slots, the caller's vector, the chunk pool
    }
    let frames = 40u64;
    let ((), allocations) = allocations_during(|| {
        for _ in 0..frames {
            frame(&mut lists);
            assert!(lists.iter().all(Result::is_ok));
        }
    });
    let jobs = frames * draws.len() as u64;
    // Shown with `--nocapture`.
    eprintln!("{allocations} allocations on the calling thread for {jobs} jobs");
    assert!(
        allocations <= jobs.div_ceil(63) + 1,
        "{allocations} allocations on the calling thread for {jobs} jobs in {frames} frames"
    );
}
