//! T threads recording a frame's draws together, each its share on its own recorder (a deferred
//! context, a bundle recorder, a command encoder, bundle encoders, a naive recorder), the
//! objects shared; the threads start together at a barrier.
//!
//! **Out:** per thread count, the wall time of the parallel phase (barrier to barrier, as seen by
//! the main thread) and the threads' own recording times summed, each the median of `--runs`
//! (after two warm-up runs). What a thread made is handed to `done` after the closing barrier,
//! untimed (dropped, or cleared where the recorder keeps it).

use std::ops::Range;
use std::sync::Barrier;
use std::thread;
use std::time::{Duration, Instant};

use benches::timing::middle;

/// What one thread count measured.
#[derive(Clone, Copy)]
pub struct Scaling {
    /// Barrier to barrier.
    pub wall: Duration,
    /// The threads' own recording times, summed.
    pub summed: Duration,
}

/// Runs `work` on `threads` threads, thread `k` on share `k` of `0..draws`, `runs` timed times
/// after two warm-up runs. `setup` makes each thread's recorder on that thread (it need not be
/// `Send`); `work` records a share and returns what it made (a list, a command buffer), which
/// `done` disposes of after the closing barrier.
pub fn scaling<S, R, E: Send>(
    threads: u32,
    draws: u32,
    runs: u32,
    setup: impl Fn(u32) -> Result<S, E> + Sync,
    work: impl Fn(&mut S, Range<u32>) -> Result<R, E> + Sync,
    done: impl Fn(&mut S, R) + Sync,
) -> Result<Scaling, E> {
    let ranges = benches::split_range(draws, threads);
    let total = runs as usize + 2;
    let start = Barrier::new(threads as usize + 1);
    let end = Barrier::new(threads as usize + 1);
    let mut walls = Vec::with_capacity(total);
    let mut summed = vec![Duration::ZERO; total];
    let failed = thread::scope(|s| {
        let workers: Vec<_> = (0u32..)
            .zip(ranges)
            .map(|(k, range)| {
                let (start, end, setup, work, done) = (&start, &end, &setup, &work, &done);
                s.spawn(move || {
                    let mut own = Vec::with_capacity(total);
                    let mut state = setup(k);
                    let mut failed = None;
                    for _ in 0..total {
                        start.wait();
                        let begin = Instant::now();
                        let made = match &mut state {
                            Ok(state) => Some(work(state, range.clone())),
                            Err(_) => None,
                        };
                        own.push(begin.elapsed());
                        end.wait();
                        match (made, &mut state) {
                            (Some(Ok(made)), Ok(state)) => done(state, made),
                            (Some(Err(error)), _) => failed = Some(error),
                            _ => {}
                        }
                    }
                    (own, state.err().or(failed))
                })
            })
            .collect();
        for _ in 0..total {
            start.wait();
            let begin = Instant::now();
            end.wait();
            walls.push(begin.elapsed());
        }
        let mut failed = None;
        for worker in workers {
            match worker.join() {
                Ok((own, error)) => {
                    for (sum, d) in summed.iter_mut().zip(own) {
                        *sum += d;
                    }
                    failed = failed.or(error);
                }
                // A recorder panicked: that is a bug, shown as one.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        failed
    });
    if let Some(error) = failed {
        return Err(error);
    }
    // The first two runs are the warm-up.
    let timed = |v: Vec<Duration>| middle(v.into_iter().skip(2)).unwrap_or_default();
    Ok(Scaling {
        wall: timed(walls),
        summed: timed(summed),
    })
}
