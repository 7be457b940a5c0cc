//! Where each split point of a run came from (`replay --explain`, SPEC R-TOOL-2): the call of
//! a deferred context that made it, kept per list once the list is finished.
//!
//! **In:** from a held recorder (`recorders.rs`), around each call it runs on a deferred
//! context: the context's split-point counters before and after (`DeferredContext::stats`),
//! the call's line and index in the list, the objects it names. From the run (`live.rs`), at
//! each `finish`: the list made and its own counters. **Out:** [`ListSites`], one per finished
//! list, read by the advisor (`../explain/`) through the counted run (`counted.rs`).
//!
//! **Invariant.** A list's sites add up to its recorded split points: what no call of the list
//! made (the state a `finish restore=yes` carried into the list, re-bound at its start,
//! R-ST-1) is one more site, at the line of the finish that carried it, with no call index.

use recorder::SplitCounts;

use super::program::ObjId;

/// One call that made split points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SplitSite {
    /// The trace line of the call (of the carrying `finish` for a list's start).
    pub line: usize,
    /// The call's index in its list (the accepted calls before it); `None` for the list's
    /// start.
    pub call: Option<u32>,
    /// The split points it made, by category.
    pub counts: SplitCounts,
    /// The objects it names, in slot order.
    pub objects: Vec<ObjId>,
}

/// The split points of one finished list, by the call that made them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListSites {
    /// The list (the name its `finish` gave).
    pub list: ObjId,
    /// The deferred context that recorded it.
    pub context: ObjId,
    /// The line of its `finish`.
    pub finish: usize,
    /// Every call that made split points, in recording order.
    pub sites: Vec<SplitSite>,
}

/// What a recorder keeps while a list is recorded: the sites so far, and the line of the
/// `finish` that began the list (where its carried start is attributed).
#[derive(Clone, Debug, Default)]
pub(crate) struct OpenSites {
    pub sites: Vec<SplitSite>,
    pub began: usize,
}

impl OpenSites {
    /// Notes a call of `line`, the `call`-th of its list, that took the context's counters
    /// from `before` to `after`.
    pub(crate) fn note(
        &mut self,
        line: usize,
        call: u32,
        before: &SplitCounts,
        after: &SplitCounts,
        objects: Vec<ObjId>,
    ) {
        let counts = difference(after, before);
        if counts.total() > 0 {
            self.sites.push(SplitSite {
                line,
                call: Some(call),
                counts,
                objects,
            });
        }
    }

    /// Ends the list finished by the `finish` of `line` (with `recorded`, its counters, when it
    /// was kept): its sites, the carried start first; the next list begins here.
    pub(crate) fn end(
        &mut self,
        line: usize,
        kept: Option<(ObjId, ObjId, &SplitCounts)>,
    ) -> Option<ListSites> {
        let sites = std::mem::take(&mut self.sites);
        let began = std::mem::replace(&mut self.began, line);
        let (list, context, recorded) = kept?;
        let mut made = SplitCounts::default();
        for site in &sites {
            made.add(&site.counts);
        }
        let start = difference(recorded, &made);
        let mut all = Vec::with_capacity(sites.len() + 1);
        if start.total() > 0 {
            all.push(SplitSite {
                line: began,
                call: None,
                counts: start,
                objects: Vec::new(),
            });
        }
        all.extend(sites);
        Some(ListSites {
            list,
            context,
            finish: line,
            sites: all,
        })
    }
}

/// `after - before`, by category (counters only grow while a list is recorded).
fn difference(after: &SplitCounts, before: &SplitCounts) -> SplitCounts {
    let mut out = SplitCounts::default();
    for (i, (a, b)) in after.0.iter().zip(before.0).enumerate() {
        out.0[i] = a.saturating_sub(b);
    }
    out
}
