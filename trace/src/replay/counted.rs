//! The advisor's run of a trace (`replay --explain`, SPEC R-TOOL-2): the trace lowered and run
//! once, single-threaded, with every deferred context noting where its split points came from
//! (`sites.rs`).
//!
//! **In:** a parsed trace. **Out:** a [`CountedRun`]: what it recorded and resolved, what was
//! refused, the split points by the call that made them, and the draw records as lines.

use std::sync::Arc;

use recorder::SplitCounts;

use super::live::LiveRun;
use super::lower::lower_in;
use super::names::record_lines;
use super::program::{Op, Program};
use super::recorders::Refusal;
use super::sites::ListSites;
use crate::syntax::Trace;
use executor::Counters;

/// A run of a trace for the advisor: what it recorded and resolved, what was refused, and
/// where every split point came from. Expectations are not checked (a fix may change what
/// they ask about); the run is single-threaded.
pub(crate) struct CountedRun {
    /// The trace, lowered: the objects' names and kinds.
    pub program: Arc<Program>,
    /// Split points recorded by every list finished, by category.
    pub recorded: SplitCounts,
    /// The GPU model's counters at the end.
    pub counters: Counters,
    /// Every refusal (declarations, calls, finishes, executions, validation reports), by line.
    pub refusals: Vec<Refusal>,
    /// Every finished list's split points by the call that made them, in finish order.
    pub lists: Vec<ListSites>,
    /// The draw records, one line each as `--records` prints them (objects by trace name).
    pub records: Vec<String>,
}

/// Runs `trace` once (see [`CountedRun`]), its files (R-GPU-2) relative to `dir`; `Err` for a
/// trace that does not lower.
pub(crate) fn counted_run(
    trace: &Trace,
    dir: Option<&std::path::Path>,
) -> Result<CountedRun, String> {
    let program = Arc::new(lower_in(trace, dir).map_err(|error| error.to_string())?);
    let mut live = LiveRun::new(program.clone(), 0).map_err(|error| format!("replay: {error}"))?;
    live.explain_sites();
    for (index, step) in program.steps.iter().enumerate() {
        if !matches!(step.op, Op::Expect(_)) {
            live.step(index);
        }
    }
    live.settle();
    Ok(CountedRun {
        recorded: live.split_recorded,
        counters: live.counters(),
        refusals: live.refusals(),
        lists: live.sites().to_vec(),
        records: live.with_records(record_lines),
        program,
    })
}
