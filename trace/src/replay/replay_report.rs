//! What `replay` prints: the summary line, the digest, the records, the comparison with the
//! reference, and the same as JSON (written by hand: no serde).
//!
//! **In:** a [`Summary`] of the run. **Out:** text. Nothing here depends on the thread count,
//! so `--threads` prints what the single-threaded run prints.

use std::fmt::Write as _;

use recorder::{SplitCategory, SplitCounts};

use executor::Counters;

/// What a finished run hands the report.
#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    pub counters: Counters,
    pub recorded: SplitCounts,
    pub records: Vec<String>,
    pub digest: u64,
    pub checked: usize,
    pub failures: Vec<Failure>,
    /// `--records`: every record's kind, fields and origin, in the records' order.
    pub details: Vec<RecordDetail>,
    /// `--compare`: records compared, and the first difference as text.
    pub compare: Option<(usize, Option<String>)>,
}

/// An expectation that failed: `trace:LINE: expected …, found …`.
#[derive(Clone, Debug)]
pub(crate) struct Failure {
    pub line: usize,
    pub expected: String,
    pub found: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "trace:{}: expected {}, found {}",
            self.line, self.expected, self.found
        )
    }
}

/// A draw record as `--records` shows it: its kind, its fields (objects by trace name) and
/// where it came from (`origin.rs`).
#[derive(Clone, Debug)]
pub(crate) struct RecordDetail {
    pub kind: &'static str,
    pub fields: Vec<(String, String)>,
    pub origin_text: String,
    pub origin_json: String,
}

/// The summary line: draws, dispatches, context rolls, indirect-buffer executions, split points
/// recorded / resolved (by category, those that occurred), the barrier counters (when barriers
/// ran), expectations held.
pub(crate) fn summary_line(summary: &Summary) -> String {
    let c = &summary.counters;
    let resolved = &c.split_points_resolved;
    let mut line = format!(
        "draws={} dispatches={} context_rolls={} ib_executions={} split_points={}/{}",
        c.draws,
        c.dispatches,
        c.context_rolls,
        c.ib_executions,
        summary.recorded.total(),
        resolved.total()
    );
    let categories: Vec<String> = SplitCategory::ALL
        .iter()
        .filter(|k| summary.recorded[**k] != 0 || resolved[**k] != 0)
        .map(|k| format!("{}={}/{}", k.name(), summary.recorded[*k], resolved[*k]))
        .collect();
    if !categories.is_empty() {
        let _ = write!(line, " ({})", categories.join(" "));
    }
    if c.barriers != 0 {
        // What the barriers cost (R-BAR-2, R-BAR-3); a trace with none prints nothing more.
        let _ = write!(
            line,
            " barriers={} drains={} stalls={} cache_flushes={} cache_invalidations={} \
             metadata_inits={} decompressions={}",
            c.barriers,
            c.drains,
            c.stalls,
            c.cache_flushes,
            c.cache_invalidations,
            c.metadata_inits,
            c.decompressions
        );
    }
    let held = summary.checked - summary.failures.len();
    let _ = write!(line, " expectations={held}/{}", summary.checked);
    line
}

/// The digest line.
pub(crate) fn digest_line(summary: &Summary) -> String {
    format!(
        "digest={:016x} records={}",
        summary.digest,
        summary.records.len()
    )
}

/// The plain-text report after the failures: records (`--records`), the comparison, the
/// summary and the digest.
pub(crate) fn text(summary: &Summary, records: bool) -> String {
    let mut out = String::new();
    if records {
        for (i, record) in summary.records.iter().enumerate() {
            match summary.details.get(i) {
                Some(detail) if !detail.origin_text.is_empty() => {
                    let _ = writeln!(out, "{i}: {record}  # {}", detail.origin_text);
                }
                _ => {
                    let _ = writeln!(out, "{i}: {record}");
                }
            }
        }
    }
    if let Some((count, difference)) = &summary.compare {
        match difference {
            None => {
                let _ = writeln!(out, "compare: {count} records identical to the reference");
            }
            Some(text) => out.push_str(text),
        }
    }
    let _ = writeln!(out, "{}", summary_line(summary));
    let _ = writeln!(out, "{}", digest_line(summary));
    out
}

/// A JSON string.
pub(crate) fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `{"line":L,"expected":"…","found":"…"}` each.
fn failures(failures: &[Failure]) -> String {
    let items: Vec<String> = failures
        .iter()
        .map(|f| {
            format!(
                "{{\"line\":{},\"expected\":{},\"found\":{}}}",
                f.line,
                string(&f.expected),
                string(&f.found)
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// `{"index":I,"kind":"draw","fields":{"vs":"vs0",…},"from":ORIGIN}` each (`origin.rs` for
/// ORIGIN); field values are strings, as `--records` prints them.
fn record_objects(details: &[RecordDetail]) -> String {
    let items: Vec<String> = details
        .iter()
        .enumerate()
        .map(|(index, detail)| {
            let fields: Vec<String> = detail
                .fields
                .iter()
                .map(|(name, value)| format!("{}:{}", string(name), string(value)))
                .collect();
            format!(
                "{{\"index\":{index},\"kind\":{},\"fields\":{{{}}},\"from\":{}}}",
                string(detail.kind),
                fields.join(","),
                detail.origin_json
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// The report as one JSON object.
pub(crate) fn json(summary: &Summary, exit_code: i32, records: bool) -> String {
    let c = &summary.counters;
    let mut out = format!(
        "{{\"exit\":{exit_code},\"draws\":{},\"dispatches\":{},\"context_rolls\":{},\"ib_executions\":{}",
        c.draws, c.dispatches, c.context_rolls, c.ib_executions
    );
    let _ = write!(
        out,
        ",\"split_points\":{{\"recorded\":{},\"resolved\":{}}}",
        summary.recorded.to_json(),
        c.split_points_resolved.to_json()
    );
    out.push_str(",\"counters\":{");
    for (i, key) in Counters::KEYS.iter().enumerate() {
        let separator = if i == 0 { "" } else { "," };
        let _ = write!(out, "{separator}\"{key}\":{}", c.get(key).unwrap_or(0));
    }
    out.push('}');
    let _ = write!(
        out,
        ",\"records\":{},\"digest\":\"{:016x}\"",
        summary.records.len(),
        summary.digest
    );
    let _ = write!(
        out,
        ",\"expectations\":{{\"checked\":{},\"failed\":{}}},\"failures\":{}",
        summary.checked,
        summary.failures.len(),
        failures(&summary.failures)
    );
    if let Some((count, difference)) = &summary.compare {
        let _ = write!(
            out,
            ",\"compare\":{{\"records\":{count},\"identical\":{},\"difference\":{}}}",
            difference.is_none(),
            difference.as_deref().map_or("null".to_string(), string)
        );
    }
    if records {
        let _ = write!(
            out,
            ",\"draw_records\":{}",
            record_objects(&summary.details)
        );
    }
    out.push_str("}\n");
    out
}
