//! The timing helpers of the workload harnesses (`src/bin/workload.rs` and the peer comparison,
//! `peer/`): the median of repeated runs after warm-up, and nanoseconds per unit.

use std::time::Duration;

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
