//! Queries with results (R-FX-3): what the GPU model counts for occlusion, predicate, timestamp
//! and pipeline-statistics queries, and the answer that predication reads.
//!
//! **In:** the query commands (`begin_query`, `end_query`, `write_query`, `reset_query`,
//! `configure_query`) and, at each draw or dispatch the model runs, the draw's kind, arguments
//! and the state it runs under. **Out:** per query, the counts of its open scope and the result
//! its last end wrote ([`QueryResult`]), which the immediate context's `get_data` shapes by the
//! query's kind ([`QueryData`]); and whether a predicated draw is skipped.
//!
//! **The rules** (the model has no rasteriser: each is a deterministic function of the commands).
//! A draw or dispatch adds to every query whose scope is open (begun, not ended), unless
//! predication skips it:
//! - `v` = the draw's vertex or index count, `n` = its instance count (1 unless instanced);
//!   `p` = primitives per instance from the topology: `v/3` triangle list, `v-2` triangle strip,
//!   `v/2` line list, `v-1` line strip, `v` point list, 0 undefined (saturating).
//! - `ia_vertices += v·n`, `ia_primitives += p·n`; `vs_invocations += v·n` with a vertex shader
//!   bound; `hs_invocations`, `ds_invocations`, `gs_invocations` and `gs_primitives += p·n` with
//!   that stage's shader bound (the model tessellates and amplifies nothing);
//!   `c_invocations = c_primitives += p·n` (the model clips nothing).
//! - **Occlusion:** `samples += p·n` when a render target or a depth stencil is bound (each
//!   primitive rasterised passes one sample), else nothing; `ps_invocations += samples` added
//!   with a pixel shader bound. A query configured `binary` reports `min(samples, 1)`.
//! - A direct dispatch adds `cs_invocations += x·y·z` (thread groups: the model keeps no group
//!   size) with a compute shader bound.
//! - Indirect draws and dispatches and `draw_auto` add nothing: their arguments are in a buffer
//!   (or the stream-output state) whose contents the model does not keep.
//! - **Clock:** a timestamp is the model's tick count when its end or `write_query` runs: the
//!   draws and dispatches the model has run so far (the `draws` + `dispatches` counters, skipped
//!   ones included), so lists and direct calls tick alike (R-O-1).
//!
//! **Commands.** `begin_query` opens the scope with zero counts (until it ends the query has no
//! result); `end_query` closes it and writes the result: the scope's counts and the clock (an
//! end with no scope open, as for a timestamp, writes zero counts and the clock);
//! `write_query` writes the result the same way and leaves an open scope open; `reset_query`
//! clears counts, scope and result (its mode stays); `configure_query` sets the mode.
//!
//! **Predication.** A query's *answer* is whether its result's samples are non-zero (any kind:
//! a timestamp's are always zero, so it answers `false`). A draw under a predicate (from
//! `set_predication` or `set_predication_from_query`) whose query has a result is skipped when
//! the answer equals the predicate value: its record stays (the draw indexes of a frame do not
//! move), marked `predicated yes`, and it counts in the `draws` / `dispatches` counters and the
//! clock, but adds nothing to any query; the rest of what the model does at a draw (a context
//! roll, the targets' compression, legacy hazards and resource uses) it does as for any draw,
//! the model keeping no contents for a skip to spare. When the answer differs the draw runs and
//! its record shows `predicated no`. A predicate with no result yet (never ended, reset, or
//! begun again) is not evaluated: the draw runs, counts, and its record shows `predicated yes`
//! (the hardware decides; the model cannot).
//!
//! **Invariant.** Nothing panics and nothing overflows (saturating arithmetic), whatever the
//! commands.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use recorder::command::DirectArgs;
use recorder::state::Bindings;
use recorder::{PrimitiveTopology, QueryKind, QueryMode, RawHandle, Stage};

use crate::draw_record::DrawKind;
use crate::progress::HandleHasher;

/// What a query counts over its scope: samples that passed, and the pipeline statistics of
/// D3D11's `D3D11_QUERY_DATA_PIPELINE_STATISTICS`. See the module essay for the rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct QueryCounts {
    /// Samples that passed the depth and stencil tests (occlusion).
    pub samples: u64,
    /// Vertices read by the input assembler.
    pub ia_vertices: u64,
    /// Primitives read by the input assembler.
    pub ia_primitives: u64,
    /// Vertex-shader invocations.
    pub vs_invocations: u64,
    /// Geometry-shader invocations.
    pub gs_invocations: u64,
    /// Primitives the geometry shader output.
    pub gs_primitives: u64,
    /// Primitives sent to the rasteriser.
    pub c_invocations: u64,
    /// Primitives rendered.
    pub c_primitives: u64,
    /// Pixel-shader invocations.
    pub ps_invocations: u64,
    /// Hull-shader invocations.
    pub hs_invocations: u64,
    /// Domain-shader invocations.
    pub ds_invocations: u64,
    /// Compute-shader invocations (thread groups, in the model).
    pub cs_invocations: u64,
}

impl QueryCounts {
    fn add(&mut self, other: &Self) {
        let pairs = [
            (&mut self.samples, other.samples),
            (&mut self.ia_vertices, other.ia_vertices),
            (&mut self.ia_primitives, other.ia_primitives),
            (&mut self.vs_invocations, other.vs_invocations),
            (&mut self.gs_invocations, other.gs_invocations),
            (&mut self.gs_primitives, other.gs_primitives),
            (&mut self.c_invocations, other.c_invocations),
            (&mut self.c_primitives, other.c_primitives),
            (&mut self.ps_invocations, other.ps_invocations),
            (&mut self.hs_invocations, other.hs_invocations),
            (&mut self.ds_invocations, other.ds_invocations),
            (&mut self.cs_invocations, other.cs_invocations),
        ];
        for (mine, theirs) in pairs {
            *mine = mine.saturating_add(theirs);
        }
    }

    /// What one draw or dispatch that runs adds (the module essay's rules).
    fn of_draw(kind: DrawKind, args: DirectArgs, bindings: &Bindings) -> Self {
        let arg = |i: usize| args.get(i).max(0) as u64;
        let bound = |stage: Stage| !bindings.shader(stage).shader.is_null();
        let (vertices, instances) = match kind {
            DrawKind::Draw | DrawKind::DrawIndexed => (arg(0), 1),
            DrawKind::DrawInstanced | DrawKind::DrawIndexedInstanced => (arg(0), arg(1)),
            DrawKind::Dispatch => {
                let groups = arg(0).saturating_mul(arg(1)).saturating_mul(arg(2));
                return Self {
                    cs_invocations: if bound(Stage::Compute) { groups } else { 0 },
                    ..Self::default()
                };
            }
            DrawKind::DrawAuto
            | DrawKind::DrawInstancedIndirect
            | DrawKind::DrawIndexedInstancedIndirect
            | DrawKind::DispatchIndirect => return Self::default(),
        };
        let per_instance = match bindings.topology() {
            PrimitiveTopology::TriangleList => vertices / 3,
            PrimitiveTopology::TriangleStrip => vertices.saturating_sub(2),
            PrimitiveTopology::LineList => vertices / 2,
            PrimitiveTopology::LineStrip => vertices.saturating_sub(1),
            PrimitiveTopology::PointList => vertices,
            PrimitiveTopology::Undefined => 0,
        };
        let v = vertices.saturating_mul(instances);
        let p = per_instance.saturating_mul(instances);
        let when = |stage: Stage, n: u64| if bound(stage) { n } else { 0 };
        let targets = bindings
            .render_targets()
            .iter()
            .any(|t| !t.resource.is_null())
            || !bindings.depth_stencil().resource.is_null();
        let samples = if targets { p } else { 0 };
        Self {
            samples,
            ia_vertices: v,
            ia_primitives: p,
            vs_invocations: when(Stage::Vertex, v),
            gs_invocations: when(Stage::Geometry, p),
            gs_primitives: when(Stage::Geometry, p),
            c_invocations: p,
            c_primitives: p,
            ps_invocations: when(Stage::Pixel, samples),
            hs_invocations: when(Stage::Hull, p),
            ds_invocations: when(Stage::Domain, p),
            cs_invocations: 0,
        }
    }
}

/// What a query's end (or `write_query`) wrote: its scope's counts and the clock then.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct QueryResult {
    /// The scope's counts (the mode applied: `binary` reports samples as 0 or 1).
    pub counts: QueryCounts,
    /// The model's clock when it was written (see the module essay).
    pub timestamp: u64,
}

impl QueryResult {
    /// The answer predication reads: whether any sample passed.
    pub fn answer(&self) -> bool {
        self.counts.samples != 0
    }
}

/// What the model keeps of one query (R-FX-3): its mode, its open scope's counts, its last
/// result. For a capture, which writes it as the calls that give it (`trace/src/capture/immediate.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuerySnapshot {
    /// How it counts samples.
    pub mode: QueryMode,
    /// The open scope's counts, if a scope is open.
    pub open: Option<QueryCounts>,
    /// What its last end or `write_query` wrote, if it has a result.
    pub result: Option<QueryResult>,
}

/// One query as the model sees it.
#[derive(Clone, Copy, Debug, Default)]
struct QueryState {
    mode: QueryMode,
    /// A scope is open (begun, not ended).
    open: bool,
    /// The open scope's counts (or the last one's, once ended).
    counts: QueryCounts,
    /// What the last end or write wrote; `None` before any, after a reset, and while a scope
    /// begun after it is open.
    result: Option<QueryResult>,
}

impl QueryState {
    fn written(&self, clock: u64) -> QueryResult {
        let mut counts = self.counts;
        if self.mode == QueryMode::Binary {
            counts.samples = counts.samples.min(1);
        }
        QueryResult {
            counts,
            timestamp: clock,
        }
    }
}

/// The queries the model has seen, by handle, and those with an open scope.
#[derive(Clone, Debug, Default)]
pub(crate) struct Queries {
    states: HashMap<RawHandle, QueryState, BuildHasherDefault<HandleHasher>>,
    /// The queries with an open scope, in the order they were begun.
    open: Vec<RawHandle>,
}

impl Queries {
    /// `begin_query`: a new scope with zero counts; no result until it ends.
    pub(crate) fn begin(&mut self, query: RawHandle) {
        let state = self.states.entry(query).or_default();
        state.counts = QueryCounts::default();
        state.result = None;
        if !state.open {
            state.open = true;
            self.open.push(query);
        }
    }

    /// `end_query`: the scope closes (if one is open) and the result is written at `clock`.
    pub(crate) fn end(&mut self, query: RawHandle, clock: u64) {
        let state = self.states.entry(query).or_default();
        if !state.open {
            state.counts = QueryCounts::default();
        }
        state.open = false;
        state.result = Some(state.written(clock));
        self.open.retain(|q| *q != query);
    }

    /// `write_query`: the result is written at `clock`; an open scope stays open.
    pub(crate) fn write(&mut self, query: RawHandle, clock: u64) {
        let state = self.states.entry(query).or_default();
        if !state.open {
            state.counts = QueryCounts::default();
        }
        state.result = Some(state.written(clock));
    }

    /// `reset_query`: no scope, no counts, no result; the mode stays.
    pub(crate) fn reset(&mut self, query: RawHandle) {
        let state = self.states.entry(query).or_default();
        *state = QueryState {
            mode: state.mode,
            ..QueryState::default()
        };
        self.open.retain(|q| *q != query);
    }

    /// `configure_query`.
    pub(crate) fn configure(&mut self, query: RawHandle, mode: QueryMode) {
        self.states.entry(query).or_default().mode = mode;
    }

    /// Whether a draw under `(predicate, value)` is skipped: `Some(true)` skipped,
    /// `Some(false)` runs, `None` no predicate or one with no result (the draw runs).
    #[inline]
    pub(crate) fn skips(&self, (predicate, value): (RawHandle, bool)) -> Option<bool> {
        if predicate.is_null() || self.states.is_empty() {
            return None;
        }
        let result = self.states.get(&predicate)?.result?;
        Some(result.answer() == value)
    }

    /// Whether any scope is open: a draw has something to add to.
    #[inline]
    pub(crate) fn any_open(&self) -> bool {
        !self.open.is_empty()
    }

    /// A draw or dispatch that ran (not skipped): its counts go to every open scope.
    pub(crate) fn draw(&mut self, kind: DrawKind, args: DirectArgs, bindings: &Bindings) {
        let counts = QueryCounts::of_draw(kind, args, bindings);
        for query in &self.open {
            if let Some(state) = self.states.get_mut(query) {
                state.counts.add(&counts);
            }
        }
    }

    /// The result the last end wrote; `None` when it has none (never ended as far as the model
    /// has run, reset, or begun again since).
    pub(crate) fn result(&self, query: RawHandle) -> Option<QueryResult> {
        self.states.get(&query)?.result
    }

    /// What the model keeps of `query`; `None` when it has seen no command of it.
    pub(crate) fn snapshot(&self, query: RawHandle) -> Option<QuerySnapshot> {
        let state = self.states.get(&query)?;
        Some(QuerySnapshot {
            mode: state.mode,
            open: state.open.then_some(state.counts),
            result: state.result,
        })
    }

    /// What has run so far, aggregated (fast `get_data`): an open scope's counts at `clock`,
    /// else the last result, else zeros.
    pub(crate) fn so_far(&self, query: RawHandle, clock: u64) -> QueryResult {
        match self.states.get(&query) {
            Some(state) if state.open => state.written(clock),
            Some(state) => state.result.unwrap_or_default(),
            None => QueryResult::default(),
        }
    }
}

/// A query's result as `get_data` returns it, shaped by the query's kind (R-FX-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryData {
    /// An occlusion query: samples that passed.
    Occlusion {
        /// Samples that passed (0 or 1 in `binary` mode).
        samples: u64,
    },
    /// A predicate: whether any sample passed (its answer), and the samples.
    Predicate {
        /// Whether any sample passed.
        passed: bool,
        /// Samples that passed (0 or 1 in `binary` mode).
        samples: u64,
    },
    /// A timestamp: the model's clock when it was written.
    Timestamp {
        /// Ticks: draws and dispatches run before it.
        ticks: u64,
    },
    /// Pipeline statistics.
    PipelineStatistics(QueryCounts),
}

impl QueryData {
    /// `result` as a query of `kind` reports it.
    pub fn of(kind: QueryKind, result: QueryResult) -> Self {
        match kind {
            QueryKind::Occlusion => Self::Occlusion {
                samples: result.counts.samples,
            },
            QueryKind::Predicate => Self::Predicate {
                passed: result.answer(),
                samples: result.counts.samples,
            },
            QueryKind::Timestamp => Self::Timestamp {
                ticks: result.timestamp,
            },
            QueryKind::PipelineStatistics => Self::PipelineStatistics(result.counts),
        }
    }

    /// The value of key `key` (the names of `expect query`'s keys: `samples`, `passed` as 0 or
    /// 1, `timestamp`, the pipeline statistics' field names); `None` for a key this kind's data
    /// does not have.
    pub fn get(&self, key: &str) -> Option<u64> {
        match (self, key) {
            (Self::Occlusion { samples }, "samples")
            | (Self::Predicate { samples, .. }, "samples") => Some(*samples),
            (Self::Predicate { passed, .. }, "passed") => Some(*passed as u64),
            (Self::Timestamp { ticks }, "timestamp") => Some(*ticks),
            (Self::PipelineStatistics(c), key) => Some(match key {
                "ia_vertices" => c.ia_vertices,
                "ia_primitives" => c.ia_primitives,
                "vs_invocations" => c.vs_invocations,
                "gs_invocations" => c.gs_invocations,
                "gs_primitives" => c.gs_primitives,
                "c_invocations" => c.c_invocations,
                "c_primitives" => c.c_primitives,
                "ps_invocations" => c.ps_invocations,
                "hs_invocations" => c.hs_invocations,
                "ds_invocations" => c.ds_invocations,
                "cs_invocations" => c.cs_invocations,
                _ => return None,
            }),
            _ => None,
        }
    }
}
