//! The frame demo's report of one run (legacy lists, fast lists, or bundles): each worker's list
//! in each frame, the run's median frame and totals, and fast semantics against legacy.
//!
//! **In:** what the runs measured (`frame_runs.rs`). **Out:** [`RunReport`] and
//! [`SemanticsComparison`], printed as the summary ([`fmt::Display`]) and in `--json`
//! (`report_json.rs`).
//!
//! **Invariant.** Rates and ratios are [`Derived`](crate::frame_report::Derived), made once:
//! not given when threads competed for cores or a time is too small to divide by.

use std::fmt::{self, Write as _};
use std::time::Duration;

use benches::cli::{json_string as string, ms};
use executor::{Counters, GpuTiming};
use recorder::{ListStats, Semantics};

use crate::frame_report::*;

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
    pub(crate) fn bytes_per_draw(&self) -> Derived {
        Derived::per(self.stats.bytes, self.stats.draws.into())
    }

    pub(crate) fn ns_per_call(&self, contended: bool) -> Derived {
        Derived::timed(contended, &[self.record], || {
            self.record.as_nanos() as f64 / f64::from(self.stats.calls)
        })
    }

    pub(crate) fn row(
        &self,
        f: &mut fmt::Formatter<'_>,
        label: &str,
        contended: bool,
    ) -> fmt::Result {
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
    pub(crate) fn json_fields(&self, contended: bool) -> String {
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
    /// The same phase in the immediate thread's CPU time (`None` where the system does not tell
    /// it): with the Vulkan backend, the wall time less the waits on the GPU.
    pub execute_cpu: Option<Duration>,
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
    pub(crate) fn record_max(&self) -> Duration {
        self.lists
            .iter()
            .map(|l| l.record)
            .max()
            .unwrap_or_default()
    }

    pub(crate) fn calls_per_second(&self) -> Derived {
        let total = self.total();
        Derived::timed(self.contended, &[total.record], || {
            f64::from(total.stats.calls) / total.record.as_secs_f64()
        })
    }

    pub(crate) fn execute_per_list(&self) -> Duration {
        self.execute / self.lists.len().max(1) as u32
    }

    pub(crate) fn ce_bytes_per_call(&self) -> Derived {
        Derived::per(self.counters.ce_bytes, self.counters.bundle_calls)
    }

    pub(crate) fn json(&self) -> String {
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
            "execute on the {} immediate context, GPU model {}: {} for the {} lists ({} per list), \
             {:.2}x their recording summed over threads",
            self.immediate_semantics.name(),
            gpu_placement(self.gpu).0,
            ms(self.execute),
            self.lists.len(),
            ms(self.execute_per_list()),
            self.execute.as_secs_f64() / total.record.as_secs_f64().max(1e-9)
        )?;
        if let Some(cpu) = self.execute_cpu {
            writeln!(
                f,
                "execute CPU time (the immediate thread's): {}, {:.2}x the recording summed over \
                 threads",
                ms(cpu),
                cpu.as_secs_f64() / total.record.as_secs_f64().max(1e-9)
            )?;
        }
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
    pub(crate) fn fast_over_legacy(&self) -> Derived {
        let (legacy, fast) = (self.legacy.total(), self.fast.total());
        let contended = self.legacy.contended || self.fast.contended;
        Derived::timed(contended, &[legacy.record, fast.record], || {
            let per_call = |t: &ListReport| t.record.as_nanos() as f64 / f64::from(t.stats.calls);
            per_call(&fast) / per_call(&legacy)
        })
    }

    pub(crate) fn json(&self) -> String {
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
