//! Models of `WorkerPool` (`executor/src/jobs/pool.rs`), the protocol under `RecordingPool`:
//! jobs handed out through the injector and the workers' deques (loom's stand-in for
//! crossbeam-deque, `executor/src/sync/deque.rs`), results collected in job order, the caller
//! woken by the last job, workers asleep between runs and joined at shutdown. Each worker owns
//! a plain `u32` (its number) where `RecordingPool`'s own a deferred context, so the models
//! build no device.
#![cfg(loom)]

use executor::loom_exports::WorkerPool;
use loom::sync::atomic::{AtomicUsize, Ordering};
use loom_tests::check;

/// Branch points: a few dozen lock and atomic operations per thread, three threads.
const BRANCHES: usize = 16 * 1024;

/// Runs `jobs` jobs, each counting its runs in `runs[job]`, and checks the results: in job
/// order, each job's own value, each job run exactly once, every result there when `run`
/// returns.
fn run_and_check(pool: &mut WorkerPool<u32, usize>, jobs: usize, runs: &[AtomicUsize]) {
    let mut results = Vec::new();
    pool.run(
        jobs,
        &|job, worker: &mut u32| {
            runs[job].fetch_add(1, Ordering::Relaxed);
            assert!(*worker < 2);
            job * 10
        },
        |job, finished| results.push((job, finished.outcome.expect("no job panics"))),
    );
    let expected: Vec<(usize, usize)> = (0..jobs).map(|job| (job, job * 10)).collect();
    assert_eq!(results, expected);
    for (job, count) in runs.iter().enumerate().take(jobs) {
        assert_eq!(count.swap(0, Ordering::Relaxed), 1, "job {job} ran once");
    }
}

/// Two workers, three jobs borrowed from the caller's frame: whatever the interleaving of the
/// hand-out (injector batches, deque pops, steals) with the results and the wake-up, every
/// job runs once and the results come back in job order; dropping the pool then joins both
/// workers, asleep or still looking for work.
#[test]
fn three_jobs_on_two_workers_come_back_in_job_order() {
    check(BRANCHES, || {
        let runs: [AtomicUsize; 3] = Default::default();
        let mut pool = WorkerPool::<u32, usize>::spawn("model", vec![0, 1]).expect("spawn");
        run_and_check(&mut pool, 3, &runs);
        drop(pool);
    });
}

/// A second run on the same workers: a worker may still be in the first run's search for work,
/// or asleep on its epoch, when the second run's tasks arrive; either way it sees them, and no
/// task of the second run reaches the first run's batch. A run of no jobs returns at once.
#[test]
fn a_second_run_reuses_the_workers() {
    check(BRANCHES, || {
        let runs: [AtomicUsize; 2] = Default::default();
        let mut pool = WorkerPool::<u32, usize>::spawn("model", vec![0, 1]).expect("spawn");
        run_and_check(&mut pool, 1, &runs);
        run_and_check(&mut pool, 0, &runs);
        run_and_check(&mut pool, 2, &runs);
    });
}

/// Shutdown with no run at all: the workers may not have reached their first wait when the
/// pool is dropped; both still end, and the states they own are dropped once.
#[test]
fn shutdown_before_any_run() {
    check(BRANCHES, || {
        let pool = WorkerPool::<u32, usize>::spawn("model", vec![0, 1]).expect("spawn");
        drop(pool);
    });
}
