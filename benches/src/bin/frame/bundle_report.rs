//! The frame demo's report of the bundles: the per-object bundles recorded once (count, sizes,
//! constant-engine footprints), and the CPU time they save per frame against recording the same
//! draws on fast lists.
//!
//! **In:** the bundle run's measurements (`frame_runs.rs`). **Out:** [`BundleSet`],
//! [`BundleComparison`] and [`BundlePart`], printed as the summary and in `--json`.
//!
//! **Invariant.** As in `frame_report.rs`: a rate or ratio that means nothing is not given.

use std::fmt;
use std::time::Duration;

use benches::cli::ms;
use recorder::limits;

use crate::frame_report::*;
use crate::run_report::*;

/// The per-object bundles, recorded once.
pub struct BundleSet {
    pub count: u64,
    pub draws: u64,
    pub record_once: Duration,
    pub threads: u32,
    pub bytes: u64,
    /// The constant-engine footprints summed.
    pub footprint: u64,
    pub max_footprint: u32,
}

impl BundleSet {
    pub(crate) fn json(&self) -> String {
        format!(
            "\"count\":{},\"draws\":{},\"record_once_ns\":{},\"threads\":{},\"bytes\":{},\
             \"bytes_per_bundle\":{},\"footprint_bytes_per_bundle\":{},\
             \"max_footprint_bytes\":{},\"budget_bytes\":{}",
            self.count,
            self.draws,
            self.record_once.as_nanos(),
            self.threads,
            self.bytes,
            Derived::per(self.bytes, self.count).json(),
            Derived::per(self.footprint, self.count).json(),
            self.max_footprint,
            limits::BUNDLE_BUDGET_BYTES
        )
    }
}

impl fmt::Display for BundleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        writeln!(
            f,
            "bundles: {} (one per object of up to 2 draws, {} draws), recorded once in {} on {} \
             thread(s)",
            self.count,
            self.draws,
            ms(self.record_once),
            self.threads
        )?;
        writeln!(
            f,
            "  size {} bytes in all ({} per bundle); constant-engine footprint {} bytes per \
             bundle on average, {} at most (budget {})",
            self.bytes,
            Derived::per(self.bytes, self.count).cell(1),
            Derived::per(self.footprint, self.count).cell(1),
            self.max_footprint,
            limits::BUNDLE_BUDGET_BYTES
        )
    }
}

/// The bundles' run against the fast lists' run: CPU time per frame, summed over the threads.
pub struct BundleComparison<'a> {
    pub fast: &'a RunReport,
    pub bundles: &'a RunReport,
    pub set: &'a BundleSet,
}

impl BundleComparison<'_> {
    pub(crate) fn contended(&self) -> bool {
        self.fast.contended || self.bundles.contended
    }

    /// (fast lists, bundles): recording, then recording and dropping.
    pub(crate) fn times(&self) -> ((Duration, Duration), (Duration, Duration)) {
        let (fast, bundles) = (self.fast.total(), self.bundles.total());
        (
            (fast.record, bundles.record),
            (fast.record + fast.drop, bundles.record + bundles.drop),
        )
    }

    /// Fast lists' recording time over the bundles'.
    pub(crate) fn speedup(&self) -> Derived {
        let ((fast, bundles), _) = self.times();
        Derived::timed(self.contended(), &[fast, bundles], || {
            fast.as_secs_f64() / bundles.as_secs_f64()
        })
    }

    /// Recording and dropping per frame, fast lists' less the bundles', in nanoseconds.
    pub(crate) fn saved_ns(&self) -> Derived {
        let (_, (with_lists, with_bundles)) = self.times();
        Derived::timed(self.contended(), &[with_lists, with_bundles], || {
            with_lists.saturating_sub(with_bundles).as_nanos() as f64
        })
    }

    /// How many frames' saving recording the bundles once costs.
    pub(crate) fn frames_to_repay(&self) -> Derived {
        let (_, (with_lists, with_bundles)) = self.times();
        let saved = with_lists.saturating_sub(with_bundles);
        Derived::timed(self.contended(), &[saved, self.set.record_once], || {
            self.set.record_once.as_secs_f64() / saved.as_secs_f64()
        })
    }

    pub(crate) fn json(&self) -> String {
        let ((fast, bundles), (with_lists, with_bundles)) = self.times();
        format!(
            "{{\"fast_record_ns\":{},\"bundles_record_ns\":{},\"record_speedup\":{},\
             \"fast_record_and_drop_ns\":{},\"bundles_record_and_drop_ns\":{},\
             \"saved_ns\":{},\"frames_to_repay\":{}}}",
            fast.as_nanos(),
            bundles.as_nanos(),
            self.speedup().json(),
            with_lists.as_nanos(),
            with_bundles.as_nanos(),
            self.saved_ns().json(),
            self.frames_to_repay().json()
        )
    }
}

impl fmt::Display for BundleComparison<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ((fast, bundles), (with_lists, with_bundles)) = self.times();
        writeln!(f)?;
        writeln!(
            f,
            "CPU time per frame against recording the same draws on fast lists (summed over \
             threads): recording {} -> {} ({}); recording and dropping the lists {} -> {}, {}",
            ms(fast),
            ms(bundles),
            self.speedup().or_why("ratio", |x| format!("{x:.1}x")),
            ms(with_lists),
            ms(with_bundles),
            self.saved_ns().or_why("saving", |ns| format!(
                "{} saved",
                ms(Duration::from_nanos(ns as u64))
            ))
        )?;
        let repay = self.frames_to_repay();
        match (repay, self.saved_ns()) {
            (Derived::Value(frames), _) => writeln!(
                f,
                "recording the bundles once cost {}: {frames:.1} frames' saving",
                ms(self.set.record_once)
            ),
            // Nothing (or next to nothing) saved: there is no saving to repay it with.
            (_, Derived::Value(_)) => writeln!(
                f,
                "recording the bundles once cost {}",
                ms(self.set.record_once)
            ),
            (other, _) => writeln!(
                f,
                "recording the bundles once cost {}; {}",
                ms(self.set.record_once),
                other.or_why("the frames' saving it takes", |_| String::new())
            ),
        }
    }
}

/// The bundle part of the report.
pub struct BundlePart {
    pub set: BundleSet,
    pub run: RunReport,
}
