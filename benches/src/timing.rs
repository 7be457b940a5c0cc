//! The timing helpers of the workload harnesses (`src/bin/workload_harness.rs` and the peer comparison,
//! `peer/`): the median of repeated runs after warm-up, nanoseconds per unit, and T threads
//! recording a frame's draws together ([`scaling`]): each its share on its own recorder, the
//! threads started together at a barrier; the wall time of the parallel phase (the first
//! thread's start to the last one's end, by the threads' own clocks) and their own recording
//! times summed, each the
//! median of the timed runs after two warm-up runs. What a thread made is handed to `done`
//! after the closing barrier, untimed (dropped, or cleared where the recorder keeps it).

use std::ops::Range;
use std::sync::Barrier;
use std::thread;
use std::time::{Duration, Instant};

/// `runs` results of `run` (at least one), after two warm-up runs whose results are dropped.
pub fn timed_runs<T>(runs: u32, mut run: impl FnMut() -> T) -> Vec<T> {
    for _ in 0..2 {
        run();
    }
    (0..runs.max(1)).map(|_| run()).collect()
}

/// The middle value of `values` (the upper middle of an even count); `None` for none.
pub fn middle<T: PartialOrd + Copy>(values: impl IntoIterator<Item = T>) -> Option<T> {
    let mut values: Vec<T> = values.into_iter().collect();
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values.get(values.len() / 2).copied()
}

/// The median of `runs` timings of `run`, each of its `N` figures taken separately (two warm-up
/// runs first, not counted).
pub fn median<const N: usize>(runs: u32, run: impl FnMut() -> [Duration; N]) -> [Duration; N] {
    let samples = timed_runs(runs, run);
    std::array::from_fn(|k| middle(samples.iter().map(|s| s[k])).unwrap_or_default())
}

/// `d` in nanoseconds per one of `per` units (draws, calls).
pub fn ns(d: Duration, per: u32) -> f64 {
    d.as_secs_f64() * 1e9 / per.max(1) as f64
}

/// What one thread count measured.
#[derive(Clone, Copy)]
pub struct Scaling {
    /// The parallel phase: from the first thread's start to the last one's end.
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
    let ranges = crate::split_range(draws, threads);
    let total = runs as usize + 2;
    let start = Barrier::new(threads as usize + 1);
    let end = Barrier::new(threads as usize + 1);
    let mut summed = vec![Duration::ZERO; total];
    let mut spans: Vec<Option<(Instant, Instant)>> = vec![None; total];
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
                        own.push((begin, Instant::now()));
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
        // The main thread only opens and closes each run: its own clock would count from when it
        // was scheduled after the opening barrier, which on a machine with no core to spare can
        // be after the workers finished (a run "taking" microseconds). The wall time is the
        // workers' own: the first one's start to the last one's end.
        for _ in 0..total {
            start.wait();
            end.wait();
        }
        let mut failed = None;
        for worker in workers {
            match worker.join() {
                Ok((own, error)) => {
                    for ((sum, span), (begin, stop)) in summed.iter_mut().zip(&mut spans).zip(own) {
                        *sum += stop - begin;
                        *span = Some(match *span {
                            Some((first, last)) => (first.min(begin), last.max(stop)),
                            None => (begin, stop),
                        });
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
    let walls: Vec<Duration> = spans
        .into_iter()
        .map(|span| span.map_or(Duration::ZERO, |(first, last)| last - first))
        .collect();
    // The first two runs are the warm-up.
    let timed = |v: Vec<Duration>| middle(v.into_iter().skip(2)).unwrap_or_default();
    Ok(Scaling {
        wall: timed(walls),
        summed: timed(summed),
    })
}

/// The CPU time the calling thread has run so far (`CLOCK_THREAD_CPUTIME_ID`, nanoseconds);
/// `None` where the system has no such clock. Unlike a wall clock it leaves out the time the
/// thread slept, on a fence, say: what a phase cost the CPU.
#[cfg(unix)]
pub fn thread_cpu_time() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a live, writable `timespec` for the whole call, the only memory
    // `clock_gettime` writes; a clock the system lacks is an error return, not a write.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    (status == 0).then(|| Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// Elsewhere no thread clock is read: `None`.
#[cfg(not(unix))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_tool_3_median_takes_each_figure_apart_after_the_warm_up() {
        let mut k = 0u64;
        let [a, b] = median(3, || {
            k += 1;
            // Runs 1 and 2 are the warm-up; 3, 4, 5 are kept.
            [Duration::from_nanos(k * 10), Duration::from_nanos(100 - k)]
        });
        assert_eq!(a, Duration::from_nanos(40));
        assert_eq!(b, Duration::from_nanos(96));
        assert_eq!(ns(Duration::from_micros(1), 10), 100.0);
        assert_eq!(middle([2.5, 1.0, 4.0]), Some(2.5));
        assert_eq!(middle(Vec::<u32>::new()), None);
    }
}
