//! The report, like PIX's split-point counters: per scenario and semantics a table of the split
//! points recorded (summed over the lists) and resolved (the GPU model's counters), by
//! category, with indirect-buffer executions, decompressions, context rolls, list bytes and
//! the record and execute times ([`table`]); a one-screen [`summary`]; the same numbers as JSON
//! ([`json`], written by hand, escaped as `executor`'s replay report escapes); and the picture
//! (`svg.rs`, [`svg`]).
//!
//! **In:** [`Measurement`]s and the [`Options`] they were made with. **Out:** text.

use std::fmt::Write as _;
use std::time::Duration;

use recorder::SplitCategory;

use super::drive::Measurement;
use super::scenario::find;
use super::Options;
use crate::cli::json_string as string;

pub use super::svg::svg;

/// Milliseconds with three decimals, no unit.
fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

fn description(scenario: &str) -> &'static str {
    find(scenario).map_or("", |s| s.description)
}

/// The table of one scenario under one semantics.
pub fn table(m: &Measurement, threads: u32) -> String {
    let c = &m.counts;
    let g = &c.gpu;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}): {}",
        m.scenario,
        m.semantics.name(),
        description(m.scenario)
    );
    let draws: u32 = c.lists.iter().map(|l| l.stats.draws).sum();
    let calls: u32 = c.lists.iter().map(|l| l.stats.calls).sum();
    let _ = writeln!(
        out,
        "  {} lists, {calls} calls, {draws} draws and dispatches, {} list bytes",
        c.lists.len(),
        crate::cli::grouped(c.bytes)
    );
    let resolved = &g.split_points_resolved;
    if c.recorded.total() == 0 && resolved.total() == 0 {
        let _ = writeln!(out, "  split points: none recorded, none resolved");
    } else {
        let _ = writeln!(
            out,
            "  {:<28}{:>10}{:>10}",
            "split points", "recorded", "resolved"
        );
        for category in SplitCategory::ALL {
            let (r, s) = (c.recorded[category], resolved[category]);
            if r + s > 0 {
                let _ = writeln!(out, "    {:<26}{r:>10}{s:>10}", category.name());
            }
        }
        let _ = writeln!(
            out,
            "    {:<26}{:>10}{:>10}",
            "total",
            c.recorded.total(),
            resolved.total()
        );
    }
    let _ = writeln!(
        out,
        "  indirect-buffer executions {}, decompressions {}, context rolls {}",
        g.ib_executions, g.decompressions, g.context_rolls
    );
    let _ = writeln!(
        out,
        "  record {} ms (slowest of {threads} threads; {} ms summed), execute {} ms \
         (GPU model inline); medians of {} frame(s)",
        ms(m.record_max),
        ms(m.record_sum),
        ms(m.execute),
        m.frames
    );
    out
}

/// The one-screen summary: per scenario, legacy and fast side by side.
pub fn summary(measurements: &[Measurement]) -> String {
    let mut out = String::new();
    let mut scenarios: Vec<&str> = Vec::new();
    for m in measurements {
        if !scenarios.contains(&m.scenario) {
            scenarios.push(m.scenario);
        }
    }
    let semantics = [recorder::Semantics::Legacy, recorder::Semantics::Fast];
    let mut heading = format!("{:<22}", "");
    for s in semantics {
        let _ = write!(heading, " | {:<28}", s.name());
    }
    let _ = writeln!(out, "{}", heading.trim_end());
    let _ = write!(out, "{:<22}", "scenario");
    for _ in semantics {
        let _ = write!(out, " | {:>8}{:>8}{:>12}", "splits", "ib", "execute ms");
    }
    out.push('\n');
    for scenario in scenarios {
        let _ = write!(out, "{scenario:<22}");
        for s in semantics {
            match measurements
                .iter()
                .find(|m| m.scenario == scenario && m.semantics == s)
            {
                Some(m) => {
                    let _ = write!(
                        out,
                        " | {:>8}{:>8}{:>12}",
                        m.counts.recorded.total(),
                        m.counts.gpu.ib_executions,
                        ms(m.execute)
                    );
                }
                None => {
                    let _ = write!(out, " | {:>28}", "-");
                }
            }
        }
        out.push('\n');
    }
    out
}

/// The run as one JSON object: the options, then per scenario and semantics every number of
/// its table, and its lists.
pub fn json(options: &Options, scenarios: &[&str], measurements: &[Measurement]) -> String {
    let names: Vec<String> = scenarios.iter().map(|s| string(s)).collect();
    let mut out = format!(
        "{{\"options\":{{\"objects\":{},\"dynamic\":{},\"passes\":{},\"threads\":{},\
         \"frames\":{},\"scenarios\":[{}]}},\"results\":[",
        options.objects,
        options.dynamic,
        options.passes,
        options.threads,
        options.frames,
        names.join(",")
    );
    for (k, m) in measurements.iter().enumerate() {
        let c = &m.counts;
        let g = &c.gpu;
        let lists: Vec<String> = c
            .lists
            .iter()
            .map(|l| {
                let s = &l.stats;
                format!(
                    "{{\"name\":{},\"calls\":{},\"commands\":{},\"bytes\":{},\"chunks\":{},\
                     \"draws\":{},\"split_points\":{}}}",
                    string(&l.name),
                    s.calls,
                    s.commands,
                    s.bytes,
                    s.chunks,
                    s.draws,
                    s.split_points.to_json()
                )
            })
            .collect();
        if k > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"scenario\":{},\"semantics\":{},\"description\":{},\
             \"split_points_recorded\":{},\"split_points_resolved\":{},\
             \"ib_executions\":{},\"decompressions\":{},\"context_rolls\":{},\"draws\":{},\
             \"dispatches\":{},\"barriers\":{},\"list_bytes\":{},\"record_max_ms\":{},\
             \"record_sum_ms\":{},\"execute_ms\":{},\"frames\":{},\"lists\":[{}]}}",
            string(m.scenario),
            string(m.semantics.name()),
            string(description(m.scenario)),
            c.recorded.to_json(),
            g.split_points_resolved.to_json(),
            g.ib_executions,
            g.decompressions,
            g.context_rolls,
            g.draws,
            g.dispatches,
            g.barriers,
            c.bytes,
            ms(m.record_max),
            ms(m.record_sum),
            ms(m.execute),
            m.frames,
            lists.join(",")
        );
    }
    out.push_str("]}\n");
    out
}
