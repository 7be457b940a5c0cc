//! The advice as text and as JSON (written by hand: no serde).
//!
//! **Text.** A line of what the trace counted; then each fix that applies, in order of
//! preference: what it asks, which documentation recommends it, what its edit of the trace did, what the
//! re-run counted against the trace as given ("removes N"), and the split points listed under
//! it, one a line (`line L: CONTEXT LIST call K: STATEMENT -> CATEGORY RESOURCE (also: ..)`);
//! last, every recommended fix at once.

use std::fmt::Write as _;

use recorder::{SplitCategory, SplitCounts};

use super::{Advice, Fix, FixOutcome, Measure, SplitPointNote};
use crate::replay::json_string as string;

fn counts(counts: &SplitCounts) -> String {
    let parts: Vec<String> = counts.nonzero().map(|(c, n)| format!("{c}={n}")).collect();
    match parts.is_empty() {
        true => "none".into(),
        false => parts.join(" "),
    }
}

/// `before - after` by category, the categories that changed only.
fn removed(before: &SplitCounts, after: &SplitCounts) -> String {
    let parts: Vec<String> = SplitCategory::ALL
        .into_iter()
        .filter(|c| before[*c] != after[*c])
        .map(|c| format!("{c}={}", i64::from(before[c]) - i64::from(after[c])))
        .collect();
    parts.join(" ")
}

fn measure_line(measure: &Measure) -> String {
    format!(
        "{} split points recorded ({}), {} resolved, {} indirect-buffer executions, {} \
         decompressions, {} context rolls",
        measure.recorded.total(),
        counts(&measure.recorded),
        measure.resolved.total(),
        measure.ib_executions,
        measure.decompressions,
        measure.context_rolls
    )
}

/// What the re-run counted against the baseline.
fn rerun_line(baseline: &Measure, after: &Measure) -> String {
    let (before, now) = (baseline.recorded.total(), after.recorded.total());
    let mut line = format!(
        "re-run: {before} -> {now} split points recorded (removes {}",
        i64::from(before) - i64::from(now)
    );
    let by = removed(&baseline.recorded, &after.recorded);
    if !by.is_empty() {
        let _ = write!(line, ": {by}");
    }
    let _ = write!(
        line,
        "), resolved {} -> {}, indirect-buffer executions {} -> {}, decompressions {} -> {}, \
         context rolls {} -> {}",
        baseline.resolved.total(),
        after.resolved.total(),
        baseline.ib_executions,
        after.ib_executions,
        baseline.decompressions,
        after.decompressions,
        baseline.context_rolls,
        after.context_rolls
    );
    let _ = match after.records_changed(baseline) {
        0 => write!(
            line,
            "; the {} draw records are the same",
            after.records.len()
        ),
        n => write!(
            line,
            "; {n} of {} draw records differ from the trace's",
            baseline.records.len().max(after.records.len())
        ),
    };
    let new: Vec<&String> = after.new_refusals(baseline).collect();
    if let Some(first) = new.first() {
        let _ = write!(
            line,
            "; the engine refused (or reported) {} call(s) the trace as given did not (first: {first})",
            new.len()
        );
    }
    line
}

fn point_line(point: &SplitPointNote) -> String {
    let call = match point.call {
        Some(k) => format!("call {k}"),
        None => "start".to_string(),
    };
    let mut line = format!(
        "line {}: {} {} {call}: {} -> {}",
        point.line, point.context, point.list, point.statement, point.category
    );
    if let Some(resource) = &point.resource {
        let _ = write!(line, " {resource}");
    }
    if !point.also.is_empty() {
        let also: Vec<&str> = point.also.iter().map(|f| f.name()).collect();
        let _ = write!(line, " (also: {})", also.join(", "));
    }
    line
}

pub(super) fn text(advice: &Advice, limit: Option<usize>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "explain: {} lists; {}",
        advice.lists,
        measure_line(&advice.baseline)
    );
    if advice.points.is_empty() {
        let _ = writeln!(out, "explain: no split points: nothing to fix");
        return out;
    }
    for outcome in &advice.fixes {
        let listed: Vec<&SplitPointNote> = advice
            .points
            .iter()
            .filter(|p| p.fix == outcome.fix)
            .collect();
        let _ = writeln!(
            out,
            "\nfix {}: {} ({})",
            outcome.fix,
            outcome.fix.advice(),
            outcome.fix.source()
        );
        let applies = outcome.applies_to.total() as usize;
        let where_listed = match applies - listed.len().min(applies) {
            0 => "all listed here".to_string(),
            earlier => format!(
                "{} listed here, {earlier} under an earlier fix",
                listed.len()
            ),
        };
        let _ = writeln!(
            out,
            "  applies to {applies} split points ({}): {where_listed}",
            counts(&outcome.applies_to),
        );
        let _ = writeln!(out, "  edit: {}", outcome.edit);
        let _ = writeln!(out, "  {}", rerun_line(&advice.baseline, &outcome.after));
        let shown = limit.unwrap_or(usize::MAX).min(listed.len());
        for point in &listed[..shown] {
            let _ = writeln!(out, "    {}", point_line(point));
        }
        if shown < listed.len() {
            let _ = writeln!(
                out,
                "    … and {} more (`replay --explain` of the trace lists every one)",
                listed.len() - shown
            );
        }
    }
    if let Some(all) = &advice.recommended {
        let _ = writeln!(
            out,
            "\nevery recommended fix but fast semantics, at once ({} split points): {}",
            all.applies_to.total(),
            all.edit
        );
        let _ = writeln!(out, "  {}", rerun_line(&advice.baseline, &all.after));
        let _ = writeln!(
            out,
            "  left: {} ({}): only fast semantics removes them",
            all.after.recorded.total(),
            counts(&all.after.recorded)
        );
    }
    out
}

fn measure_json(m: &Measure) -> String {
    format!(
        "{{\"recorded\":{},\"resolved\":{},\"ib_executions\":{},\"decompressions\":{},\
         \"context_rolls\":{},\"refusals\":[{}],\"records\":{}}}",
        m.recorded.to_json(),
        m.resolved.to_json(),
        m.ib_executions,
        m.decompressions,
        m.context_rolls,
        m.refusals
            .iter()
            .map(|r| string(r))
            .collect::<Vec<_>>()
            .join(","),
        m.records.len()
    )
}

fn fix_json(advice: &Advice, outcome: &FixOutcome) -> String {
    let removes =
        i64::from(advice.baseline.recorded.total()) - i64::from(outcome.after.recorded.total());
    format!(
        "{{\"fix\":{},\"advice\":{},\"source\":{},\"applies_to\":{},\"edit\":{},\
         \"after\":{},\"removes\":{removes},\"records_changed\":{}}}",
        string(outcome.fix.name()),
        string(outcome.fix.advice()),
        string(outcome.fix.source()),
        outcome.applies_to.to_json(),
        string(&outcome.edit),
        measure_json(&outcome.after),
        outcome.after.records_changed(&advice.baseline)
    )
}

fn point_json(p: &SplitPointNote) -> String {
    let also: Vec<String> = p.also.iter().map(|f: &Fix| string(f.name())).collect();
    format!(
        "{{\"line\":{},\"context\":{},\"list\":{},\"call\":{},\"statement\":{},\
         \"category\":{},\"resource\":{},\"fix\":{},\"also\":[{}]}}",
        p.line,
        string(&p.context),
        string(&p.list),
        p.call.map_or("null".into(), |k| k.to_string()),
        string(&p.statement),
        string(p.category.name()),
        p.resource.as_deref().map_or("null".into(), string),
        string(p.fix.name()),
        also.join(",")
    )
}

pub(super) fn json(advice: &Advice) -> String {
    let points: Vec<String> = advice.points.iter().map(point_json).collect();
    let fixes: Vec<String> = advice.fixes.iter().map(|o| fix_json(advice, o)).collect();
    let recommended = advice.recommended.as_ref().map_or("null".into(), |all| {
        format!(
            "{{\"applies_to\":{},\"edit\":{},\"after\":{}}}",
            all.applies_to.to_json(),
            string(&all.edit),
            measure_json(&all.after)
        )
    });
    format!(
        "{{\"lists\":{},\"baseline\":{},\"split_points\":[{}],\"fixes\":[{}],\
         \"recommended\":{recommended}}}",
        advice.lists,
        measure_json(&advice.baseline),
        points.join(","),
        fixes.join(",")
    )
}
