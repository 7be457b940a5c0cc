//! Where each draw record came from (`--records`, docs/TRACE.md "The command"): the line of the
//! call that drew, and the bundle calls and list executions it was reached through.
//!
//! **In:** as the real run goes, the calls that make records: a direct draw or dispatch on
//! `imm`, and each accepted call of a list or bundle being recorded, kept as the list's or
//! bundle's [`Layout`] when it is finished; then the `imm` calls that run them (`execute`,
//! `draw_bundle`). **Out:** one [`Origin`] per draw record, in the records' order, as text
//! (`line 13, bundle b0 called on line 21, execution 2 of list outer on line 27`) and as JSON.
//!
//! **Why it is exact.** The GPU model makes exactly one record per draw or dispatch it runs, in
//! submission order, and the immediate context submits its direct calls before the list or
//! bundle a later call runs: so the origins, pushed in the order of the `imm` calls, line up
//! with the records. Where the model ran fewer draws than a layout says (a bundle call skipped
//! inside a list: formats that do not match, a released bundle), the run is re-aligned at the
//! execution that ran it ([`Origins::settle`]): its records then name the execution but no
//! call line. Nothing here depends on the thread count: layouts are built per recorder in
//! trace order.
//!
//! **Cost.** A piece per draw call recorded, shared by reference between the lists that
//! execute a list; the origins of a run are as many as its records. Expansion uses an explicit
//! stack, so a deeply nested list costs no recursion.

use std::fmt::Write as _;
use std::sync::Arc;

use super::program::{ObjId, Program};

/// What a finished list or bundle draws when it runs, in order.
pub(crate) type Layout = Arc<[Piece]>;

/// One call of a list or bundle that makes draw records.
#[derive(Clone, Debug)]
pub(crate) enum Piece {
    /// A draw or dispatch on `line`: one record.
    Draw { line: usize },
    /// `draw_bundle` on `line`: the bundle's draws.
    Bundle {
        bundle: ObjId,
        line: usize,
        body: Layout,
    },
    /// `execute` of a list inside a list (R-REC-9) on `line`.
    List {
        list: ObjId,
        line: usize,
        body: Layout,
    },
}

/// A step between a record and the `imm` call that made it run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Via {
    /// A bundle call, on `line`.
    Bundle { bundle: ObjId, line: usize },
    /// A nested list's `execute`, on `line` (inside another list).
    List { list: ObjId, line: usize },
    /// The `execution`-th `imm execute` of `list` (from 1), on `line`.
    Execution {
        list: ObjId,
        execution: u32,
        line: usize,
    },
}

/// Where one draw record came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    /// The line of the draw or dispatch call; `None` where the model skipped part of what ran
    /// and the record cannot be told apart (see the module essay).
    pub line: Option<usize>,
    /// Innermost first: the bundle call, the nested lists, the `imm` execution.
    pub via: Arc<[Via]>,
}

/// The origins of the records so far.
#[derive(Debug, Default)]
pub(crate) struct Origins {
    origins: Vec<Origin>,
}

impl Origins {
    /// An accepted direct draw or dispatch on `imm`, on `line`.
    pub(crate) fn direct(&mut self, line: usize) {
        self.origins.push(Origin {
            line: Some(line),
            via: Arc::new([]),
        });
    }

    /// How many records the origins so far account for.
    pub(crate) fn len(&self) -> usize {
        self.origins.len()
    }

    /// `body` ran, reached through `via` (innermost first).
    pub(crate) fn run(&mut self, body: &Layout, via: Via) {
        let mut stack: Vec<(Layout, usize, Arc<[Via]>)> = vec![(body.clone(), 0, Arc::new([via]))];
        while let Some((layout, index, via)) = stack.pop() {
            let Some(piece) = layout.get(index) else {
                continue;
            };
            stack.push((layout.clone(), index + 1, via.clone()));
            let (step, body) = match piece {
                Piece::Draw { line } => {
                    self.origins.push(Origin {
                        line: Some(*line),
                        via: via.clone(),
                    });
                    continue;
                }
                Piece::Bundle { bundle, line, body } => (
                    Via::Bundle {
                        bundle: *bundle,
                        line: *line,
                    },
                    body,
                ),
                Piece::List { list, line, body } => (
                    Via::List {
                        list: *list,
                        line: *line,
                    },
                    body,
                ),
            };
            let inner: Arc<[Via]> = std::iter::once(step).chain(via.iter().cloned()).collect();
            stack.push((body.clone(), 0, inner));
        }
    }

    /// The model has made `records` records, those from `start` on by what `via` ran: where
    /// the origins pushed since `start` are not as many, they become `records - start` origins
    /// that name `via` alone (or, were even the earlier ones too many, are cut).
    pub(crate) fn settle(&mut self, start: usize, records: usize, via: Option<Via>) {
        if self.origins.len() == records {
            return;
        }
        self.origins.truncate(start.min(records));
        let via: Arc<[Via]> = via.into_iter().collect();
        while self.origins.len() < records {
            self.origins.push(Origin {
                line: None,
                via: via.clone(),
            });
        }
    }

    pub(crate) fn get(&self, index: usize) -> Option<&Origin> {
        self.origins.get(index)
    }
}

impl Origin {
    /// `line 13, bundle b0 called on line 21, execution 2 of list outer on line 27`.
    pub(crate) fn text(&self, program: &Program) -> String {
        let mut out = match self.line {
            Some(line) => format!("line {line}"),
            None => "a call of".to_string(),
        };
        for (i, via) in self.via.iter().enumerate() {
            let separator = if i == 0 && self.line.is_none() {
                " "
            } else {
                ", "
            };
            out.push_str(separator);
            let name = |id: &ObjId| name(program, *id);
            let _ = match via {
                Via::Bundle { bundle, line } => {
                    write!(out, "bundle {} called on line {line}", name(bundle))
                }
                Via::List { list, line } => {
                    write!(out, "list {} executed on line {line}", name(list))
                }
                Via::Execution {
                    list,
                    execution,
                    line,
                } => write!(
                    out,
                    "execution {execution} of list {} on line {line}",
                    name(list)
                ),
            };
        }
        out
    }

    /// `{"line":13,"via":[{"bundle":"b0","line":21},{"list":"outer","execution":2,"line":27}]}`
    /// (`"line":null` where the call is not known; a nested list has no `execution`).
    pub(crate) fn json(&self, program: &Program) -> String {
        let mut out = match self.line {
            Some(line) => format!("{{\"line\":{line},\"via\":["),
            None => "{\"line\":null,\"via\":[".to_string(),
        };
        for (i, via) in self.via.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let name = |id: &ObjId| super::replay_report::string(name(program, *id));
            let _ = match via {
                Via::Bundle { bundle, line } => {
                    write!(out, "{{\"bundle\":{},\"line\":{line}}}", name(bundle))
                }
                Via::List { list, line } => {
                    write!(out, "{{\"list\":{},\"line\":{line}}}", name(list))
                }
                Via::Execution {
                    list,
                    execution,
                    line,
                } => write!(
                    out,
                    "{{\"list\":{},\"execution\":{execution},\"line\":{line}}}",
                    name(list)
                ),
            };
        }
        out.push_str("]}");
        out
    }
}

fn name(program: &Program, id: ObjId) -> &str {
    program.objects.get(id).map_or("?", |o| o.name.as_str())
}
