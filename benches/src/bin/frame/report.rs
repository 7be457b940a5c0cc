//! The frame demo's report: what each part of the run measured, held once and printed twice,
//! as the human summary ([`fmt::Display`] on each part, printed as the part finishes) and as
//! `--json` (one object at the end, [`json`]). Nothing is computed for one form alone: a rate
//! or ratio is a [`Derived`], made once, that the summary prints with its decimals and the JSON
//! as a number.
//!
//! **When a derived number means nothing.** Two cases, each decided once, in [`Derived`]:
//!
//! 1. *Threads competed for cores* ([`Machine::contended`]): the recording workers, plus the GPU
//!    model's thread under `--gpu threaded` (it consumes frame k while the workers record frame
//!    k+1), outnumber the cores. A worker's recording time is then wall time on a thread that
//!    was not always running, so every rate or ratio made from recording times (ns per call,
//!    calls per second, fast against legacy, bundles against lists, the frames that repay the
//!    bundles) is not given: the summary prints `-` or says why, the JSON gives `null`, and a
//!    warning with the numbers heads both. The times themselves are still printed: they are
//!    what was measured. (The main thread only waits for the workers while they record, and
//!    execution runs after them, so neither counts.)
//! 2. *Too small to divide by*: a count of zero, or a time under [`MIN_TIME`], where the
//!    clock's resolution is much of the measurement; the ratio would be noise, inf or NaN.
//!
//! Counts (draws, bytes, split points, the GPU model's counters) and the averages made of counts
//! alone (bytes per draw, bytes per bundle) are deterministic for a given scene and never
//! suppressed, except for a zero denominator.

use std::fmt::{self, Write as _};
use std::time::Duration;

use benches::capture::CaptureReport;
use benches::cli::{json_string as string, ms};
use executor::{Counters, GpuTiming};
use recorder::{limits, ListStats, Semantics, Validation};

use crate::Options;

/// The shortest time a rate or ratio is made from: under it, reading the clock is a large part
/// of what was read.
pub const MIN_TIME: Duration = Duration::from_micros(1);

/// A number derived from others (a rate, a ratio, an average), or why it is not given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Derived {
    Value(f64),
    /// Made from recording times measured while more threads ran than there are cores.
    Contended,
    /// Its denominator is zero, or a time it is made from is under [`MIN_TIME`].
    TooSmall,
}

impl Derived {
    /// `numerator / denominator`, of counts alone.
    pub fn per(numerator: u64, denominator: u64) -> Self {
        if denominator == 0 {
            Self::TooSmall
        } else {
            Self::Value(numerator as f64 / denominator as f64)
        }
    }

    /// A number that `value` makes from the recording times `times` (and counts).
    pub fn timed(contended: bool, times: &[Duration], value: impl FnOnce() -> f64) -> Self {
        if contended {
            return Self::Contended;
        }
        if times.iter().any(|&time| time < MIN_TIME) {
            return Self::TooSmall;
        }
        match value() {
            v if v.is_finite() => Self::Value(v),
            _ => Self::TooSmall,
        }
    }

    /// For a table: the value with `decimals` decimals, or `-`.
    fn cell(self, decimals: usize) -> String {
        match self {
            Self::Value(v) => format!("{v:.decimals$}"),
            Self::Contended | Self::TooSmall => "-".to_string(),
        }
    }

    /// For a sentence: the value as `format` writes it, or that `what` is not given and why.
    fn or_why(self, what: &str, format: impl FnOnce(f64) -> String) -> String {
        match self {
            Self::Value(v) => format(v),
            Self::Contended => format!("{what} not given: threads competed for cores"),
            Self::TooSmall => {
                format!("{what} not given: made from a time under {MIN_TIME:?} or a zero count")
            }
        }
    }

    fn json(self) -> String {
        match self {
            Self::Value(v) => format!("{v}"),
            Self::Contended | Self::TooSmall => "null".to_string(),
        }
    }
}

/// Where the GPU model ran, as the execute line says it.
fn gpu_placement(timing: GpuTiming) -> (&'static str, &'static str) {
    // (in the summary, in the JSON)
    match timing {
        GpuTiming::Inline | GpuTiming::Deferred => ("inline", "inline"),
        GpuTiming::Threaded => ("on its own thread", "threaded"),
        GpuTiming::Detached => ("detached", "detached"),
    }
}

/// The threads the run's timings share the machine with.
pub struct Machine {
    /// `None` when `available_parallelism` could not tell (no warning is possible then).
    pub cores: Option<u32>,
    /// Whether `--cores` gave `cores`.
    pub cores_from_option: bool,
    pub recording_threads: u32,
    /// Where the GPU model runs: the one asked for, except under validation (always inline).
    pub gpu: GpuTiming,
}

impl Machine {
    pub fn gpu_model_thread(&self) -> bool {
        self.gpu == GpuTiming::Threaded
    }

    /// The threads running at once while the workers record.
    pub fn competing_threads(&self) -> u32 {
        self.recording_threads + u32::from(self.gpu_model_thread())
    }

    pub fn contended(&self) -> bool {
        self.cores
            .is_some_and(|cores| self.competing_threads() > cores)
    }

    /// The warning that heads the summary (and the JSON's `"warning"`) when threads competed.
    pub fn warning(&self) -> Option<String> {
        let cores = self.cores.filter(|_| self.contended())?;
        Some(format!(
            "{} threads compete for {} core(s) ({} recording thread(s){}): a thread's recording \
             time includes time it waited for a core, so the rates and ratios made from recording \
             times (ns/call, calls/s, fast against legacy, bundles against lists) are not given",
            self.competing_threads(),
            cores,
            self.recording_threads,
            if self.gpu_model_thread() {
                " and the GPU model's thread"
            } else {
                ""
            }
        ))
    }
}

/// The summary's first lines: the scene, the run, the warning.
pub struct Header<'a> {
    pub options: &'a Options,
    pub machine: &'a Machine,
}

impl fmt::Display for Header<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.options.scene;
        writeln!(
            f,
            "scene: {} draws, {} materials ({} textures each), {} meshes, {} passes, \
             dynamic fraction {}, unmapped dynamic fraction {}, seed {:#x}",
            d.draws,
            d.materials,
            d.textures_per_material,
            d.meshes,
            d.passes,
            d.dynamic_fraction,
            d.unmapped_dynamic_fraction,
            d.seed
        )?;
        writeln!(
            f,
            "run: {} worker thread(s), one deferred context and one list each; 1 warm-up frame, \
             {} timed frame(s)",
            self.options.threads, self.options.frames
        )?;
        if let Some(file) = &self.options.capture {
            writeln!(
                f,
                "capture: each run captures the frame after its timed frames (a present of a \
                 swap chain ends every frame) into {}{}",
                file.display(),
                if self.options.modes() > 1 {
                    ", the run's name inserted before the extension"
                } else {
                    ""
                }
            )?;
        }
        if let Some(warning) = self.machine.warning() {
            writeln!(f, "warning: {warning}")?;
        }
        Ok(())
    }
}

/// One worker's list in one frame.
#[derive(Clone, Copy, Default)]
pub struct ListReport {
    pub stats: ListStats,
    /// Recording and finishing, on the worker.
    pub record: Duration,
    /// Dropping the list after the frame, which hands its chunks back to the pool.
    pub drop: Duration,
}

impl ListReport {
    fn bytes_per_draw(&self) -> Derived {
        Derived::per(self.stats.bytes, self.stats.draws.into())
    }

    fn ns_per_call(&self, contended: bool) -> Derived {
        Derived::timed(contended, &[self.record], || {
            self.record.as_nanos() as f64 / f64::from(self.stats.calls)
        })
    }

    fn row(&self, f: &mut fmt::Formatter<'_>, label: &str, contended: bool) -> fmt::Result {
        let s = &self.stats;
        writeln!(
            f,
            "{:>5} {:>8} {:>9} {:>9} {:>11} {:>6} {:>10.1} {:>8} {:>8} {:>8.1} {:>7}",
            label,
            s.draws,
            s.calls,
            s.commands,
            s.bytes,
            s.chunks,
            self.record.as_nanos() as f64 / 1e3,
            self.bytes_per_draw().cell(1),
            self.ns_per_call(contended).cell(1),
            self.drop.as_nanos() as f64 / 1e3,
            s.split_points.total()
        )
    }

    /// `{"draws":…,…}` without the closing brace, for the caller to add to.
    fn json_fields(&self, contended: bool) -> String {
        let s = &self.stats;
        format!(
            "\"draws\":{},\"calls\":{},\"commands\":{},\"bytes\":{},\"chunks\":{},\
             \"record_ns\":{},\"drop_ns\":{},\"bytes_per_draw\":{},\"ns_per_call\":{},\
             \"split_points\":{}",
            s.draws,
            s.calls,
            s.commands,
            s.bytes,
            s.chunks,
            self.record.as_nanos(),
            self.drop.as_nanos(),
            self.bytes_per_draw().json(),
            self.ns_per_call(contended).json(),
            s.split_points.to_json()
        )
    }
}

/// One run: its median frame's lists, the execution and the GPU model's counters.
pub struct RunReport {
    /// `legacy`, `fast` or `bundles`, for the JSON.
    pub key: &'static str,
    /// The run's heading in the summary.
    pub name: &'static str,
    pub semantics: Semantics,
    pub frames: u32,
    /// The median frame by wall time, counted from 1.
    pub median: usize,
    pub wall: Duration,
    pub fastest: Duration,
    pub slowest: Duration,
    pub lists: Vec<ListReport>,
    pub immediate_semantics: Semantics,
    pub gpu: GpuTiming,
    pub execute: Duration,
    /// The GPU model's counters of one frame, averaged over the timed frames.
    pub counters: Counters,
    pub chunks_allocated: u64,
    pub chunks_reused: u64,
    pub contended: bool,
}

impl RunReport {
    /// The lists summed: their stats, recording times and drop times.
    pub fn total(&self) -> ListReport {
        let mut total = ListReport::default();
        for list in &self.lists {
            let (t, s) = (&mut total.stats, &list.stats);
            t.calls += s.calls;
            t.commands += s.commands;
            t.bytes += s.bytes;
            t.chunks += s.chunks;
            t.draws += s.draws;
            t.split_points.add(&s.split_points);
            total.record += list.record;
            total.drop += list.drop;
        }
        total
    }

    /// The slowest worker's recording time.
    fn record_max(&self) -> Duration {
        self.lists
            .iter()
            .map(|l| l.record)
            .max()
            .unwrap_or_default()
    }

    fn calls_per_second(&self) -> Derived {
        let total = self.total();
        Derived::timed(self.contended, &[total.record], || {
            f64::from(total.stats.calls) / total.record.as_secs_f64()
        })
    }

    fn execute_per_list(&self) -> Duration {
        self.execute / self.lists.len().max(1) as u32
    }

    fn ce_bytes_per_call(&self) -> Derived {
        Derived::per(self.counters.ce_bytes, self.counters.bundle_calls)
    }

    fn json(&self) -> String {
        let total = self.total();
        let lists: Vec<String> = self
            .lists
            .iter()
            .enumerate()
            .map(|(k, list)| format!("{{\"list\":{k},{}}}", list.json_fields(self.contended)))
            .collect();
        let c = &self.counters;
        let mut counters = String::new();
        for key in Counters::KEYS {
            if key == "split_points_resolved" {
                let _ = write!(counters, "\"{key}\":{},", c.split_points_resolved.to_json());
            } else {
                let _ = write!(counters, "\"{key}\":{},", c.get(key).unwrap_or(0));
            }
        }
        let _ = write!(
            counters,
            "\"ce_bytes_per_bundle_call\":{}",
            self.ce_bytes_per_call().json()
        );
        format!(
            "{{\"mode\":{},\"semantics\":{},\"frames\":{},\"median_frame\":{},\"wall_ns\":{},\
             \"min_wall_ns\":{},\"max_wall_ns\":{},\"lists\":[{}],\"total\":{{{}}},\
             \"record_sum_ns\":{},\"record_max_ns\":{},\"calls_per_second_per_thread\":{},\
             \"execute\":{{\"immediate_semantics\":{},\"gpu_model\":{},\"ns\":{},\"lists\":{},\
             \"ns_per_list\":{}}},\"gpu_model_per_frame\":{{{counters}}},\
             \"chunk_pool\":{{\"allocated\":{},\"reused\":{}}}}}",
            string(self.key),
            string(self.semantics.name()),
            self.frames,
            self.median,
            self.wall.as_nanos(),
            self.fastest.as_nanos(),
            self.slowest.as_nanos(),
            lists.join(","),
            total.json_fields(self.contended),
            total.record.as_nanos(),
            self.record_max().as_nanos(),
            self.calls_per_second().json(),
            string(self.immediate_semantics.name()),
            string(gpu_placement(self.gpu).1),
            self.execute.as_nanos(),
            self.lists.len(),
            self.execute_per_list().as_nanos(),
            self.chunks_allocated,
            self.chunks_reused
        )
    }
}

impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        writeln!(
            f,
            "{}: frame {} of {} (median by wall time): wall {}, min {}, max {}",
            self.name,
            self.median,
            self.frames,
            ms(self.wall),
            ms(self.fastest),
            ms(self.slowest)
        )?;
        writeln!(
            f,
            "{:>5} {:>8} {:>9} {:>9} {:>11} {:>6} {:>10} {:>8} {:>8} {:>8} {:>7}",
            "list",
            "draws",
            "calls",
            "commands",
            "bytes",
            "chunks",
            "record µs",
            "B/draw",
            "ns/call",
            "drop µs",
            "splits"
        )?;
        for (k, list) in self.lists.iter().enumerate() {
            list.row(f, &k.to_string(), self.contended)?;
        }
        let total = self.total();
        total.row(f, "total", self.contended)?;
        writeln!(
            f,
            "record time: {} summed over threads, {} for the slowest thread; {}",
            ms(total.record),
            ms(self.record_max()),
            self.calls_per_second()
                .or_why("calls/s per thread", |per_second| format!(
                    "{:.1} M calls/s per thread",
                    per_second / 1e6
                ))
        )?;
        if total.stats.split_points.total() == 0 {
            writeln!(f, "split points: none")?;
        } else {
            write!(f, "split points by category  ")?;
            for k in 0..self.lists.len() {
                write!(f, "{:>8}", format!("list {k}"))?;
            }
            writeln!(f, "{:>8}", "total")?;
            for (category, count) in total.stats.split_points.nonzero() {
                write!(f, "  {:<24}", category.name())?;
                for list in &self.lists {
                    write!(f, "{:>8}", list.stats.split_points[category])?;
                }
                writeln!(f, "{count:>8}")?;
            }
        }
        writeln!(
            f,
            "execute on the {} immediate context, GPU model {}: {} for the {} lists ({} per list)",
            self.immediate_semantics.name(),
            gpu_placement(self.gpu).0,
            ms(self.execute),
            self.lists.len(),
            ms(self.execute_per_list())
        )?;
        let gpu = &self.counters;
        writeln!(
            f,
            "GPU model per frame: {} draws, {} context rolls, {} indirect-buffer executions, \
             {} split points resolved, {} decompressions",
            gpu.draws,
            gpu.context_rolls,
            gpu.ib_executions,
            gpu.split_points_resolved.total(),
            gpu.decompressions
        )?;
        for (category, count) in gpu.split_points_resolved.nonzero() {
            writeln!(f, "  resolved {:<24}{count:>8}", category.name())?;
        }
        if gpu.barriers > 0 {
            writeln!(
                f,
                "  {} barriers: {} drains, {} stalls, {} cache flushes, {} cache invalidations, \
                 {} metadata inits",
                gpu.barriers,
                gpu.drains,
                gpu.stalls,
                gpu.cache_flushes,
                gpu.cache_invalidations,
                gpu.metadata_inits
            )?;
        }
        if gpu.bundle_calls > 0 {
            writeln!(
                f,
                "  {} bundle calls, {} constant-engine bytes loaded ({} per call)",
                gpu.bundle_calls,
                gpu.ce_bytes,
                self.ce_bytes_per_call().cell(1)
            )?;
        }
        writeln!(
            f,
            "chunk pool over the {} timed frames: {} chunks allocated, {} reused",
            self.frames, self.chunks_allocated, self.chunks_reused
        )
    }
}

/// Legacy against fast, when both ran: the per-semantics table and the ratio of ns per call.
pub struct SemanticsComparison<'a> {
    pub legacy: &'a RunReport,
    pub fast: &'a RunReport,
}

impl SemanticsComparison<'_> {
    /// Fast's ns per call over legacy's.
    fn fast_over_legacy(&self) -> Derived {
        let (legacy, fast) = (self.legacy.total(), self.fast.total());
        let contended = self.legacy.contended || self.fast.contended;
        Derived::timed(contended, &[legacy.record, fast.record], || {
            let per_call = |t: &ListReport| t.record.as_nanos() as f64 / f64::from(t.stats.calls);
            per_call(&fast) / per_call(&legacy)
        })
    }

    fn json(&self) -> String {
        format!(
            "{{\"fast_ns_per_call_over_legacy\":{}}}",
            self.fast_over_legacy().json()
        )
    }
}

impl fmt::Display for SemanticsComparison<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        writeln!(
            f,
            "{:<8} {:>10} {:>9} {:>8} {:>13}",
            "", "calls", "ns/call", "B/draw", "split points"
        )?;
        for run in [self.legacy, self.fast] {
            let total = run.total();
            writeln!(
                f,
                "{:<8} {:>10} {:>9} {:>8} {:>13}",
                run.semantics.name(),
                total.stats.calls,
                total.ns_per_call(run.contended).cell(1),
                total.bytes_per_draw().cell(1),
                total.stats.split_points.total()
            )?;
        }
        let ratio = self
            .fast_over_legacy()
            .or_why("fast's time per call against legacy's", |ratio| {
                format!("fast records a call in {ratio:.2}x the time legacy takes")
            });
        writeln!(f, "{ratio}")
    }
}

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
    fn json(&self) -> String {
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
    fn contended(&self) -> bool {
        self.fast.contended || self.bundles.contended
    }

    /// (fast lists, bundles): recording, then recording and dropping.
    fn times(&self) -> ((Duration, Duration), (Duration, Duration)) {
        let (fast, bundles) = (self.fast.total(), self.bundles.total());
        (
            (fast.record, bundles.record),
            (fast.record + fast.drop, bundles.record + bundles.drop),
        )
    }

    /// Fast lists' recording time over the bundles'.
    fn speedup(&self) -> Derived {
        let ((fast, bundles), _) = self.times();
        Derived::timed(self.contended(), &[fast, bundles], || {
            fast.as_secs_f64() / bundles.as_secs_f64()
        })
    }

    /// Recording and dropping per frame, fast lists' less the bundles', in nanoseconds.
    fn saved_ns(&self) -> Derived {
        let (_, (with_lists, with_bundles)) = self.times();
        Derived::timed(self.contended(), &[with_lists, with_bundles], || {
            with_lists.saturating_sub(with_bundles).as_nanos() as f64
        })
    }

    /// How many frames' saving recording the bundles once costs.
    fn frames_to_repay(&self) -> Derived {
        let (_, (with_lists, with_bundles)) = self.times();
        let saved = with_lists.saturating_sub(with_bundles);
        Derived::timed(self.contended(), &[saved, self.set.record_once], || {
            self.set.record_once.as_secs_f64() / saved.as_secs_f64()
        })
    }

    fn json(&self) -> String {
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

/// Everything the demo measured, for `--json`.
pub struct Report<'a> {
    pub options: &'a Options,
    pub machine: &'a Machine,
    /// Legacy, then fast, as `--semantics` asked.
    pub runs: &'a [RunReport],
    pub bundles: Option<&'a BundlePart>,
    /// `--capture`: the frame each mode wrote, in the order the modes ran (`None` without it).
    pub captures: Option<&'a [CaptureReport]>,
}

impl Report<'_> {
    pub fn semantics_comparison(&self) -> Option<SemanticsComparison<'_>> {
        let legacy = self
            .runs
            .iter()
            .find(|r| r.semantics == Semantics::Legacy)?;
        let fast = self.runs.iter().find(|r| r.semantics == Semantics::Fast)?;
        Some(SemanticsComparison { legacy, fast })
    }

    pub fn bundle_comparison(&self) -> Option<BundleComparison<'_>> {
        let part = self.bundles?;
        let fast = self.runs.iter().find(|r| r.semantics == Semantics::Fast)?;
        Some(BundleComparison {
            fast,
            bundles: &part.run,
            set: &part.set,
        })
    }
}

/// The report as one JSON object (one line, and a newline).
pub fn json(report: &Report<'_>) -> String {
    let o = report.options;
    let d = &o.scene;
    let m = report.machine;
    let semantics: Vec<String> = o.semantics.iter().map(|s| string(s.name())).collect();
    let mut out = format!(
        "{{\"options\":{{\"draws\":{},\"threads\":{},\"frames\":{},\"dynamic_fraction\":{},\
         \"unmapped_fraction\":{},\"passes\":{},\"materials\":{},\"meshes\":{},\
         \"textures_per_material\":{},\"seed\":{},\"semantics\":[{}],\"bundles\":{},\
         \"barriers\":{},\"validation\":{},\"gpu\":{}}}",
        d.draws,
        o.threads,
        o.frames,
        d.dynamic_fraction,
        d.unmapped_dynamic_fraction,
        d.passes,
        d.materials,
        d.meshes,
        d.textures_per_material,
        string(&format!("{:#x}", d.seed)),
        semantics.join(","),
        o.bundles,
        d.barriers,
        string(match o.validation {
            Validation::Off => "off",
            Validation::On => "on",
            Validation::Hazards => "hazards",
        }),
        string(gpu_placement(o.gpu).1)
    );
    let _ = write!(
        out,
        ",\"machine\":{{\"cores\":{},\"cores_from\":{},\"recording_threads\":{},\
         \"gpu_model\":{},\"gpu_model_thread\":{},\"competing_threads\":{}}}",
        m.cores.map_or("null".to_string(), |c| c.to_string()),
        string(if m.cores_from_option {
            "--cores"
        } else {
            "available_parallelism"
        }),
        m.recording_threads,
        string(gpu_placement(m.gpu).1),
        m.gpu_model_thread(),
        m.competing_threads()
    );
    let _ = write!(
        out,
        ",\"warning\":{}",
        m.warning().as_deref().map_or("null".to_string(), string)
    );
    let runs: Vec<String> = report.runs.iter().map(RunReport::json).collect();
    let _ = write!(out, ",\"runs\":[{}]", runs.join(","));
    let _ = write!(
        out,
        ",\"semantics_comparison\":{}",
        report
            .semantics_comparison()
            .map_or("null".to_string(), |c| c.json())
    );
    match report.bundles {
        None => out.push_str(",\"bundles\":null"),
        Some(part) => {
            let _ = write!(
                out,
                ",\"bundles\":{{{},\"run\":{},\"against_fast_lists\":{}}}",
                part.set.json(),
                part.run.json(),
                report
                    .bundle_comparison()
                    .map_or("null".to_string(), |c| c.json())
            );
        }
    }
    match report.captures {
        None => out.push_str(",\"captures\":null"),
        Some(captures) => {
            let captures: Vec<String> = captures.iter().map(CaptureReport::json).collect();
            let _ = write!(out, ",\"captures\":[{}]", captures.join(","));
        }
    }
    out.push_str("}\n");
    out
}
