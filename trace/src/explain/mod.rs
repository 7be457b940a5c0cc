//! # trace::explain: the split-point advisor (`replay --explain`, `splitpoints --explain`; SPEC
//! R-TOOL-2)
//!
//! **In:** a trace (any: a conformance trace, a user's bug report, the trace the split-point
//! harness prints for one of its scenarios). **Out:** an [`Advice`]: every split point the
//! trace's lists recorded with the call that made it (context, list, call index, line,
//! resource), the fix the platform documentation recommends for it (`fixes.rs` names the
//! pages), and, for each fix, what a re-run of the trace
//! with that fix applied counts: the split points it removes are measured, never estimated.
//!
//! **The flow.** The trace runs once on the engine with every deferred context's split-point
//! counters read around each call (`replay/sites.rs`): a call that moved them made those split
//! points. Each split point gets its fixes (`fixes.rs`, in the documentation's order of
//! preference: the tips of the Xbox One D3D11.x command-list documentation, then the
//! fast semantics of its fast-semantics documentation); the first that applies is the one it is
//! listed under. Each fix is then applied to the whole trace as an edit of its statements (`fix_edits.rs`: a
//! declaration changed, a map inserted, a redundant call removed) and the edited trace runs
//! again; so does the trace with every split point's recommended fix but fast semantics at
//! once, which leaves the split points no tip of the command-list documentation removes.
//!
//! **Choices where SPEC R-TOOL-2 and the documentation are silent.**
//! * *Immutable* is offered for a dynamic buffer only when the trace's contents of it could be
//!   creation data: mapped at most once, write_discard, on the immediate context, never copied
//!   into, and bound as nothing an immutable buffer cannot be (a UAV, a render target, stream
//!   output). A one-frame trace cannot tell per-frame data from constant data, so the advice
//!   says "if its contents do not change". The re-run drops the buffer's `map`, `write` and
//!   `unmap` statements (the format has no creation data; the GPU model keeps no contents).
//! * *Map in the list* inserts `map R write_discard` / `unmap R` on the list's context before
//!   the list's first bind that made a split point for R (the data then travels with the list,
//!   R-SP-1). *Default usage* declares the buffer `usage=default` and turns its write_discard
//!   maps into `write_no_overwrite allow_usage_default` ones (the application then
//!   multi-buffers by hand, the command-list documentation says).
//! * *Texture compatible* declares the target `tc=yes`: its SRVs make no decompression split
//!   point (R-ST-9); a UAV of one still does, so a UAV's decompression is fast semantics' only.
//! * *Fewer state changes* removes the render-target, depth-stencil-state and UAV binds of a
//!   list that bind what the list has bound already (from the list's start: ClearState, or the
//!   carried state after `finish restore=yes`). A change that binds something else is needed by
//!   the draws after it: no edit of the trace removes it without changing what is drawn, so it
//!   is listed under fast semantics, the one fix that removes every split point (R-SP-3).
//! * *Fast semantics* declares each context that recorded split points `semantics=fast`, maps
//!   each dynamic resource in the list before its first bind there (the fast contract), inserts
//!   `decompress_resource` before each bind of a compressible target's view and before each copy
//!   from or to a compressible target (explicit decompression: a legacy copy decompressed it
//!   itself, a fast one does not, R-ST-9), and drops `restore=yes` from its finishes and nested executes (fast
//!   contexts refuse it). What the engine refuses of an edited trace is reported with the fix.
//! * Clears are split points under every fix but fast semantics.
//! * Each re-run also says whether the draw records are the trace's (position by position, as
//!   `replay --records` prints them): a fix that only drops re-binds keeps them; one that changes
//!   the data (an instance becomes the creation contents or the list's own), the compression a
//!   shader reads, or a list's starting state (fast semantics inherits it) changes them, and the
//!   report says how many.

mod advice_report;
mod fix_edits;
mod fixes;

use std::collections::HashMap;
use std::fmt;

use recorder::{SplitCategory, SplitCounts};

use crate::replay::{counted_run, CountedRun};
use crate::syntax::{Statement, Trace};

pub use fixes::Fix;

/// What a run counted, for the advice: the baseline and each fix's re-run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    /// Split points recorded by the lists finished, by category (R-SP-5).
    pub recorded: SplitCounts,
    /// Split points resolved by the executions, by category (R-SP-5).
    pub resolved: SplitCounts,
    /// Indirect-buffer executions (R-SP-4).
    pub ib_executions: u64,
    /// Decompressions performed.
    pub decompressions: u64,
    /// Context rolls (R-EX-4; split points resolved in a predication scope add theirs).
    pub context_rolls: u64,
    /// Every call, declaration and execution the engine refused (or reported), as `line L:
    /// ON: error`, by line.
    pub refusals: Vec<String>,
    /// The draw records, one line each as `replay --records` prints them.
    pub records: Vec<String>,
}

impl Measure {
    /// The refusals of `self` that `baseline` does not have.
    pub fn new_refusals<'a>(&'a self, baseline: &'a Measure) -> impl Iterator<Item = &'a String> {
        self.refusals
            .iter()
            .filter(move |r| !baseline.refusals.contains(r))
    }
}

impl Measure {
    fn of(run: &CountedRun) -> Self {
        Self {
            recorded: run.recorded,
            resolved: run.counters.split_points_resolved,
            ib_executions: run.counters.ib_executions,
            decompressions: run.counters.decompressions,
            context_rolls: run.counters.context_rolls,
            refusals: run
                .refusals
                .iter()
                .map(|r| format!("line {}: {}: {}", r.line, r.on, r.error))
                .collect(),
            records: run.records.clone(),
        }
    }

    /// How many of `self`'s draw records differ from `baseline`'s (position by position; a
    /// record one of them lacks counts as one), and whether they are all the same.
    pub fn records_changed(&self, baseline: &Measure) -> usize {
        let common = self
            .records
            .iter()
            .zip(&baseline.records)
            .filter(|(a, b)| a != b)
            .count();
        common + self.records.len().abs_diff(baseline.records.len())
    }
}

/// One split point, with the call that made it and its fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitPointNote {
    /// The trace line of the call (for a list's carried start, of the `finish restore=yes`
    /// that carried it).
    pub line: usize,
    /// The deferred context that recorded it.
    pub context: String,
    /// The command list it is in (the name its `finish` gave).
    pub list: String,
    /// The call's index in the list (0-based, accepted calls); `None`: the list's start,
    /// re-binding the state a `finish restore=yes` carried (R-ST-1).
    pub call: Option<u32>,
    /// The call as the trace writes it, without its context.
    pub statement: String,
    /// Its category.
    pub category: SplitCategory,
    /// The resource (or view) it is about, where the category has one: the dynamic buffer or
    /// view bound, the compressible target's view.
    pub resource: Option<String>,
    /// The fix it is listed under: the first of [`Fix::ALL`] that applies.
    pub fix: Fix,
    /// The other fixes that apply.
    pub also: Vec<Fix>,
}

/// A fix applied to the whole trace, and what the re-run counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixOutcome {
    /// The fix.
    pub fix: Fix,
    /// The split points it applies to (listed under it or not), by category.
    pub applies_to: SplitCounts,
    /// What the edit did to the trace, in words.
    pub edit: String,
    /// The re-run of the edited trace.
    pub after: Measure,
}

/// The advisor's report on a trace (see the module essay).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    /// The trace as given.
    pub baseline: Measure,
    /// Lists finished.
    pub lists: usize,
    /// Every split point, in list order and call order within a list.
    pub points: Vec<SplitPointNote>,
    /// Each fix that applies to a split point, in [`Fix::ALL`]'s order.
    pub fixes: Vec<FixOutcome>,
    /// The re-run with every split point's recommended fix but fast semantics applied at once:
    /// what no tip of the command-list documentation removes. `None` when no split point has such a fix.
    pub recommended: Option<Recommended>,
}

/// Every split point's recommended fix applied at once (fast semantics left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recommended {
    /// The split points with a recommended fix other than fast semantics, by category.
    pub applies_to: SplitCounts,
    /// What the edits did, fix by fix.
    pub edit: String,
    /// The re-run of the edited trace.
    pub after: Measure,
}

/// Explains the split points of `trace` (see the module essay); `Err` for a trace that does
/// not parse or lower, with the replay's `trace:LINE: message`.
///
/// ```
/// use trace::explain::{explain, Fix};
///
/// let trace = b"device semantics=legacy\n\
///               buffer cb usage=dynamic bind=constant size=256\n\
///               context ctx semantics=legacy\n\
///               imm map cb write_discard\n\
///               imm unmap cb\n\
///               ctx vs_set_constant_buffers 0 cb\n\
///               ctx draw 3 0\n\
///               ctx finish list\n\
///               imm execute list\n";
/// let advice = explain(trace).unwrap();
/// assert_eq!(advice.points.len(), 1);
/// assert_eq!(advice.points[0].line, 6);
/// assert_eq!(advice.points[0].fix, Fix::Immutable);
/// let immutable = &advice.fixes[0];
/// assert_eq!((immutable.fix, immutable.after.recorded.total()), (Fix::Immutable, 0));
/// ```
pub fn explain(trace: &[u8]) -> Result<Advice, String> {
    let parsed = crate::parse(trace).map_err(|error| error.to_string())?;
    explain_parsed(&parsed)
}

/// [`explain`] of a parsed trace.
pub fn explain_parsed(trace: &Trace) -> Result<Advice, String> {
    explain_parsed_in(trace, None)
}

/// [`explain_parsed`], the files the trace's declarations name (R-GPU-2: `wgsl=`, `spirv=`,
/// `data=@`) relative to `dir`, the trace file's folder (`None`: the current directory).
pub fn explain_parsed_in(trace: &Trace, dir: Option<&std::path::Path>) -> Result<Advice, String> {
    let run = counted_run(trace, dir)?;
    let facts = fixes::Facts::new(trace);
    let lines: HashMap<usize, usize> = trace
        .statements
        .iter()
        .enumerate()
        .map(|(index, (line, _))| (*line, index))
        .collect();
    let mut points = Vec::new();
    let mut sites = Vec::new();
    for list in &run.lists {
        let context = run.program.objects[list.context].name.clone();
        let list_name = run.program.objects[list.list].name.clone();
        for site in &list.sites {
            let statement = site.call.and_then(|_| lines.get(&site.line).copied());
            let objects: Vec<String> = site
                .objects
                .iter()
                .map(|&id| run.program.objects[id].name.clone())
                .collect();
            let text = match statement.map(|index| &trace.statements[index].1) {
                Some(Statement::Call(call)) => call.method.to_string(),
                _ => format!("(the state carried into {list_name})"),
            };
            for category in SplitCategory::ALL {
                let candidates = facts.candidates(category, &objects);
                for k in 0..site.counts[category] as usize {
                    let resource = candidates
                        .get(k)
                        .or(candidates.last())
                        .map(|n| n.to_string());
                    let at = fixes::Site {
                        statement,
                        context: context.clone(),
                        finish: list.finish,
                        category,
                        resource: resource.clone(),
                    };
                    let mut also = facts.fixes(&at);
                    let fix = also.remove(0);
                    points.push(SplitPointNote {
                        line: site.line,
                        context: context.clone(),
                        list: list_name.clone(),
                        call: site.call,
                        statement: text.clone(),
                        category,
                        resource,
                        fix,
                        also,
                    });
                    sites.push(at);
                }
            }
        }
    }
    // An edit only changes declarations, inserts calls naming objects declared before, and
    // removes calls: the edited trace always lowers. If it did not, that is the advisor's bug,
    // and the error says so rather than blaming the trace.
    let measured = |edits: &fix_edits::Edits, what: &str| -> Result<Measure, String> {
        let run = counted_run(&edits.applied(trace), dir).map_err(|error| {
            format!("the trace edited by {what} did not run (a bug of the advisor): {error}")
        })?;
        Ok(Measure::of(&run))
    };
    let mut outcomes = Vec::new();
    for fix in Fix::ALL {
        let chosen: Vec<&fixes::Site> = sites
            .iter()
            .zip(&points)
            .filter(|(_, point)| point.fix == fix || point.also.contains(&fix))
            .map(|(site, _)| site)
            .collect();
        if chosen.is_empty() {
            continue;
        }
        let mut edits = fix_edits::Edits::default();
        let edit = facts.apply(fix, &chosen, trace, &mut edits);
        outcomes.push(FixOutcome {
            fix,
            applies_to: count(chosen.iter().map(|site| site.category)),
            edit,
            after: measured(&edits, fix.name())?,
        });
    }
    let mut recommended = None;
    let tips = points
        .iter()
        .filter(|p| p.fix != Fix::FastSemantics)
        .count();
    if tips > 0 {
        let mut edits = fix_edits::Edits::default();
        let mut said = Vec::new();
        let mut applies_to = SplitCounts::default();
        for fix in Fix::ALL.into_iter().filter(|f| *f != Fix::FastSemantics) {
            let chosen: Vec<&fixes::Site> = sites
                .iter()
                .zip(&points)
                .filter(|(_, point)| point.fix == fix)
                .map(|(site, _)| site)
                .collect();
            if !chosen.is_empty() {
                applies_to.add(&count(chosen.iter().map(|site| site.category)));
                said.push(format!(
                    "{fix}: {}",
                    facts.apply(fix, &chosen, trace, &mut edits)
                ));
            }
        }
        recommended = Some(Recommended {
            applies_to,
            edit: said.join("; "),
            after: measured(&edits, "every recommended fix")?,
        });
    }
    Ok(Advice {
        baseline: Measure::of(&run),
        lists: run.lists.len(),
        points,
        fixes: outcomes,
        recommended,
    })
}

fn count(categories: impl Iterator<Item = SplitCategory>) -> SplitCounts {
    let mut counts = SplitCounts::default();
    for category in categories {
        counts[category] += 1;
    }
    counts
}

impl Advice {
    /// The report as text (what `replay --explain` prints): every split point.
    pub fn text(&self) -> String {
        advice_report::text(self, None)
    }

    /// The report as text with at most `per_fix` split points listed under each fix (and how
    /// many more there are).
    pub fn text_with_limit(&self, per_fix: usize) -> String {
        advice_report::text(self, Some(per_fix))
    }

    /// The report as one JSON object.
    pub fn json(&self) -> String {
        advice_report::json(self)
    }
}

impl fmt::Display for Advice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}
