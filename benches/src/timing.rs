//! The timing helpers of the workload harnesses (`src/bin/workload.rs` and the peer comparison,
//! `peer/`): the median of repeated runs after warm-up, and nanoseconds per unit.

use std::time::Duration;

/// The median of `runs` timings of `run`, each of its `N` figures taken separately (two warm-up
/// runs first, not counted).
pub fn median<const N: usize>(runs: u32, mut run: impl FnMut() -> [Duration; N]) -> [Duration; N] {
    for _ in 0..2 {
        run();
    }
    let mut samples: Vec<[Duration; N]> = (0..runs.max(1)).map(|_| run()).collect();
    std::array::from_fn(|k| {
        samples.sort_by_key(|s| s[k]);
        samples[samples.len() / 2][k]
    })
}

/// `d` in nanoseconds per one of `per` units (draws, calls).
pub fn ns(d: Duration, per: u32) -> f64 {
    d.as_secs_f64() * 1e9 / per.max(1) as f64
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
    }
}
