//! Queries (R-GPU-3): the engine's occlusion, predicate, pipeline-statistics and timestamp
//! queries as Vulkan queries in pools the backend owns, their GPU results read back at each
//! flush.
//!
//! **In:** the model's `begin_query`, `end_query`, `write_query`, `reset_query` and
//! `configure_query` commands; the pass boundaries (`passes.rs`) and flushes
//! (`command_frame.rs`). **Out:** `vkCmdBeginQuery`/`vkCmdEndQuery` (occlusion, `PRECISE`
//! when an open occlusion or predicate query counts samples, as the `counting` mode asks, and
//! the device has `occlusionQueryPrecise`; pipeline statistics with the eleven D3D11 counters,
//! hull-shader invocations being Vulkan's tessellation-control patches as in DXVK, the
//! geometry and tessellation counters only where the device has those stages),
//! `vkCmdWriteTimestamp2` (a timestamp's end or `write_query`); and each query's GPU result
//! ([`VulkanBackend::query_result`]) as the model shapes it ([`QueryData`]), a timestamp in
//! nanoseconds (the device's `timestampPeriod` converts its ticks: the engine has no
//! `disjoint` query, so its frequency is fixed at 1 GHz).
//!
//! **Pieces (as DXVK's query manager).** Vulkan allows one active query per type in a command
//! buffer, a query begun in a pass must end in it, and none may outlive its command buffer; the
//! engine's scopes nest, span passes and submissions. So one Vulkan query per type is active
//! at a time, for every engine query of that type whose scope is open: it ends and a new one
//! begins at every begin or end of such a scope, at every pass boundary and at every flush, and
//! each engine query keeps the slots active during its scope (its *pieces*), summed when read
//! back (earlier submissions' sums are carried). An occlusion piece is active only inside a
//! pass (nothing outside one draws); a statistics piece inside and outside passes (dispatches
//! run outside), never across a boundary.
//!
//! **How the GPU's values compare with the model's** (`executor/src/gpu/query_results.rs`):
//! the model has no rasteriser and counts one sample per primitive; the GPU counts the samples
//! that passed the depth and stencil tests (a 16x16 quad: 256). Input-assembly, vertex-shader
//! and clipping counts match the model's for what lavapipe reports exactly (clipping counts
//! may differ where primitives are culled or clipped); pixel-shader invocations are the GPU's
//! fragment-shader invocations, helpers included (lavapipe: 320 for a 16x16 quad, its 2x2
//! quads along the diagonal); compute invocations are threads (the model counts groups); a
//! timestamp is time, not the model's draw count. A binary query reports `min(samples, 1)` on
//! both. So an occlusion answer (any sample passed) agrees wherever a draw with primitives
//! covers a pixel, or has no primitive or no target; it differs for primitives that cover no
//! pixel or fail the depth test (`predication.rs` says what decides then).
//!
//! **Invariant.** Every slot used in a submission is begun and ended (or written) in it, and
//! the pools are reset at the start of each; results are read after the frame's fence. A draw
//! or query command finding a pool with fewer than eight free slots submits first.

use std::collections::HashMap;

use ash::vk;
use executor::{QueryCounts, QueryData, QueryResult};
use recorder::command::Command;
use recorder::{Error, Handle, Query, QueryKind, QueryMode, RawHandle};

use crate::instance::{vk_failed, BackendError, Gpu};
use crate::VulkanBackend;

const OCCLUSION_SLOTS: u32 = 1024;
const STATISTICS_SLOTS: u32 = 256;
const TIMESTAMP_SLOTS: u32 = 1024;
/// Free slots each pool keeps before a draw or query command (a command uses at most three).
const ROOM: u32 = 8;

/// The Vulkan pipeline statistics in their bit order (the order of the values read back),
/// with the [`QueryCounts`] field each fills (`field`'s index) and the feature it needs.
const STATISTICS: [(vk::QueryPipelineStatisticFlags, usize, Needs); 11] = {
    use vk::QueryPipelineStatisticFlags as S;
    [
        (S::INPUT_ASSEMBLY_VERTICES, 1, Needs::Nothing),
        (S::INPUT_ASSEMBLY_PRIMITIVES, 2, Needs::Nothing),
        (S::VERTEX_SHADER_INVOCATIONS, 3, Needs::Nothing),
        (S::GEOMETRY_SHADER_INVOCATIONS, 4, Needs::Geometry),
        (S::GEOMETRY_SHADER_PRIMITIVES, 5, Needs::Geometry),
        (S::CLIPPING_INVOCATIONS, 6, Needs::Nothing),
        (S::CLIPPING_PRIMITIVES, 7, Needs::Nothing),
        (S::FRAGMENT_SHADER_INVOCATIONS, 8, Needs::Nothing),
        (
            S::TESSELLATION_CONTROL_SHADER_PATCHES,
            9,
            Needs::Tessellation,
        ),
        (
            S::TESSELLATION_EVALUATION_SHADER_INVOCATIONS,
            10,
            Needs::Tessellation,
        ),
        (S::COMPUTE_SHADER_INVOCATIONS, 11, Needs::Nothing),
    ]
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Needs {
    Nothing,
    Geometry,
    Tessellation,
}

/// The [`QueryCounts`] field of index `i` (0 samples, then the statistics in D3D11's order).
fn field(counts: &mut QueryCounts, i: usize) -> &mut u64 {
    match i {
        0 => &mut counts.samples,
        1 => &mut counts.ia_vertices,
        2 => &mut counts.ia_primitives,
        3 => &mut counts.vs_invocations,
        4 => &mut counts.gs_invocations,
        5 => &mut counts.gs_primitives,
        6 => &mut counts.c_invocations,
        7 => &mut counts.c_primitives,
        8 => &mut counts.ps_invocations,
        9 => &mut counts.hs_invocations,
        10 => &mut counts.ds_invocations,
        _ => &mut counts.cs_invocations,
    }
}

fn add(total: &mut QueryCounts, more: &QueryCounts) {
    let mut more = *more;
    for i in 0..12 {
        let sum = field(total, i).saturating_add(*field(&mut more, i));
        *field(total, i) = sum;
    }
}

/// The two query types that have scopes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scoped {
    Occlusion = 0,
    Statistics = 1,
}

pub(crate) fn scoped_kind(kind: QueryKind) -> Option<Scoped> {
    match kind {
        QueryKind::Occlusion | QueryKind::Predicate => Some(Scoped::Occlusion),
        QueryKind::PipelineStatistics => Some(Scoped::Statistics),
        QueryKind::Timestamp => None,
    }
}

/// A query pool and the slots this submission used.
struct Pool {
    pool: vk::QueryPool,
    capacity: u32,
    used: u32,
    /// 64-bit values per slot.
    values: usize,
}

/// An end translated in this submission, read back at the flush.
#[derive(Clone, Debug)]
pub(crate) enum Pending {
    /// The scope's pieces in this submission and the sum of earlier ones.
    Scoped(Vec<u32>, QueryCounts),
    /// The slot of the timestamp.
    Timestamp(u32),
}

/// One engine query as the backend translated it.
#[derive(Clone, Debug)]
pub(crate) struct QueryState {
    pub(crate) kind: QueryKind,
    mode: QueryMode,
    open: bool,
    /// The open scope's slots in this submission.
    pieces: Vec<u32>,
    /// The open scope's sum in earlier submissions.
    carried: QueryCounts,
    /// An end (or write) translated in this submission.
    pub(crate) pending: Option<Pending>,
    /// The GPU's result of the last end read back.
    pub(crate) result: Option<QueryResult>,
}

/// The backend's query pools and queries (see the module essay).
pub(crate) struct Queries {
    occlusion: Pool,
    statistics: Option<Pool>,
    timestamps: Option<Pool>,
    /// The [`QueryCounts`] field of each statistic value read back, in order.
    statistic_fields: Vec<usize>,
    precise: bool,
    period_ns: f64,
    pub(crate) states: HashMap<RawHandle, QueryState>,
    /// The active slot of each scoped type.
    current: [Option<u32>; 2],
}

fn make_pool(
    device: &ash::Device,
    kind: vk::QueryType,
    capacity: u32,
    flags: vk::QueryPipelineStatisticFlags,
    values: usize,
) -> Result<Pool, BackendError> {
    let info = vk::QueryPoolCreateInfo::default()
        .query_type(kind)
        .query_count(capacity)
        .pipeline_statistics(flags);
    // SAFETY: `info` lives across the call; the pipeline-statistics flags are only set for a
    // statistics pool on a device with `pipelineStatisticsQuery` and the stages they name.
    let pool =
        unsafe { device.create_query_pool(&info, None) }.map_err(vk_failed("vkCreateQueryPool"))?;
    Ok(Pool {
        pool,
        capacity,
        used: 0,
        values,
    })
}

impl Queries {
    pub(crate) fn new(gpu: &Gpu) -> Result<Self, BackendError> {
        let features = gpu.query_features;
        let device = &gpu.device;
        let mut statistic_flags = vk::QueryPipelineStatisticFlags::empty();
        let mut statistic_fields = Vec::new();
        for (flag, index, needs) in STATISTICS {
            let has = match needs {
                Needs::Nothing => true,
                Needs::Geometry => features.geometry,
                Needs::Tessellation => features.tessellation,
            };
            if has {
                statistic_flags |= flag;
                statistic_fields.push(index);
            }
        }
        let occlusion = make_pool(
            device,
            vk::QueryType::OCCLUSION,
            OCCLUSION_SLOTS,
            vk::QueryPipelineStatisticFlags::empty(),
            1,
        )?;
        let mut queries = Self {
            occlusion,
            statistics: None,
            timestamps: None,
            precise: features.precise,
            period_ns: gpu.properties.limits.timestamp_period as f64,
            statistic_fields,
            states: HashMap::new(),
            current: [None; 2],
        };
        let more = (|| {
            if features.statistics {
                let values = queries.statistic_fields.len();
                queries.statistics = Some(make_pool(
                    device,
                    vk::QueryType::PIPELINE_STATISTICS,
                    STATISTICS_SLOTS,
                    statistic_flags,
                    values,
                )?);
            }
            if gpu.timestamp_bits > 0 {
                queries.timestamps = Some(make_pool(
                    device,
                    vk::QueryType::TIMESTAMP,
                    TIMESTAMP_SLOTS,
                    vk::QueryPipelineStatisticFlags::empty(),
                    1,
                )?);
            }
            Ok(())
        })();
        match more {
            Ok(()) => Ok(queries),
            Err(error) => {
                queries.destroy(device);
                Err(error)
            }
        }
    }

    /// The occlusion pool (predication copies from it).
    pub(crate) fn occlusion_pool(&self) -> vk::QueryPool {
        self.occlusion.pool
    }

    /// Whether the submission being recorded used a query slot (its results are read after
    /// it: `command_frame.rs` waits for it).
    pub(crate) fn used_any(&self) -> bool {
        self.pools().any(|p| p.used > 0)
    }

    fn pools(&self) -> impl Iterator<Item = &Pool> {
        std::iter::once(&self.occlusion)
            .chain(self.statistics.as_ref())
            .chain(self.timestamps.as_ref())
    }

    fn pool(&mut self, scoped: Scoped) -> Option<&mut Pool> {
        match scoped {
            Scoped::Occlusion => Some(&mut self.occlusion),
            Scoped::Statistics => self.statistics.as_mut(),
        }
    }

    /// Records the reset of every pool (outside a pass, at the start of a submission).
    pub(crate) fn reset(&mut self, device: &ash::Device, cb: vk::CommandBuffer) {
        for pool in self.pools() {
            // SAFETY: `cb` is recording outside a pass; the range is the pool's.
            unsafe { device.cmd_reset_query_pool(cb, pool.pool, 0, pool.capacity) };
        }
        self.occlusion.used = 0;
        for pool in [self.statistics.as_mut(), self.timestamps.as_mut()]
            .into_iter()
            .flatten()
        {
            pool.used = 0;
        }
    }

    /// Whether every pool has room for a command's slots.
    fn roomy(&self) -> bool {
        self.pools().all(|p| p.capacity - p.used >= ROOM)
    }

    pub(crate) fn destroy(&mut self, device: &ash::Device) {
        let pools: Vec<vk::QueryPool> = self.pools().map(|p| p.pool).collect();
        for pool in pools {
            // SAFETY: the device is idle (the backend's `Drop` waited) or the pool was never
            // used; it is destroyed once.
            unsafe { device.destroy_query_pool(pool, None) };
        }
        self.statistics = None;
        self.timestamps = None;
        self.occlusion.pool = vk::QueryPool::null();
    }

    /// Reads the slots this submission used (its fence waited for), into per-slot counts.
    fn read(&self, device: &ash::Device, scoped: Option<Scoped>) -> Vec<QueryCounts> {
        let pool = match scoped {
            Some(Scoped::Occlusion) => Some(&self.occlusion),
            Some(Scoped::Statistics) => self.statistics.as_ref(),
            None => self.timestamps.as_ref(),
        };
        let Some(pool) = pool.filter(|p| p.used > 0) else {
            return Vec::new();
        };
        let mut values = vec![0u64; pool.used as usize * pool.values];
        let stride = (pool.values * std::mem::size_of::<u64>()) as u64;
        // SAFETY: every slot below `used` was begun and ended (or written) by the submission
        // whose fence was waited for; `values` holds `used` slots of `stride` bytes (the
        // pool's values per slot, 64 bits each, as `TYPE_64` writes them). The raw call: ash's
        // wrapper takes one element per query, and a statistics query has several values.
        let read = unsafe {
            (device.fp_v1_0().get_query_pool_results)(
                device.handle(),
                pool.pool,
                0,
                pool.used,
                values.len() * std::mem::size_of::<u64>(),
                values.as_mut_ptr().cast(),
                stride,
                vk::QueryResultFlags::TYPE_64,
            )
        };
        if read != vk::Result::SUCCESS {
            return vec![QueryCounts::default(); pool.used as usize];
        }
        values
            .chunks(pool.values)
            .map(|slot| {
                let mut counts = QueryCounts::default();
                match scoped {
                    Some(Scoped::Statistics) => {
                        for (value, &i) in slot.iter().zip(&self.statistic_fields) {
                            *field(&mut counts, i) = *value;
                        }
                    }
                    // Occlusion: samples; a timestamp's ticks kept in `samples` here.
                    _ => counts.samples = slot.first().copied().unwrap_or(0),
                }
                counts
            })
            .collect()
    }

    /// After a submission's fence: each pending end's result, each open scope's sum carried.
    pub(crate) fn after_submission(&mut self, device: &ash::Device) {
        let occlusion = self.read(device, Some(Scoped::Occlusion));
        let statistics = self.read(device, Some(Scoped::Statistics));
        let timestamps = self.read(device, None);
        let period = self.period_ns;
        let sum = |kind: QueryKind, pieces: &[u32], carried: &QueryCounts| {
            let slots = if kind == QueryKind::PipelineStatistics {
                &statistics
            } else {
                &occlusion
            };
            let mut total = *carried;
            for &piece in pieces {
                if let Some(counts) = slots.get(piece as usize) {
                    add(&mut total, counts);
                }
            }
            total
        };
        for state in self.states.values_mut() {
            match state.pending.take() {
                Some(Pending::Scoped(pieces, carried)) => {
                    let mut counts = sum(state.kind, &pieces, &carried);
                    if state.mode == QueryMode::Binary {
                        counts.samples = counts.samples.min(1);
                    }
                    state.result = Some(QueryResult {
                        counts,
                        timestamp: 0,
                    });
                }
                Some(Pending::Timestamp(slot)) => {
                    let ticks = timestamps.get(slot as usize).map_or(0, |c| c.samples);
                    state.result = Some(QueryResult {
                        counts: QueryCounts::default(),
                        timestamp: (ticks as f64 * period) as u64,
                    });
                }
                None => {}
            }
            if state.open {
                let pieces = std::mem::take(&mut state.pieces);
                state.carried = sum(state.kind, &pieces, &state.carried);
            }
        }
        self.current = [None; 2];
    }
}

impl VulkanBackend {
    /// A query command the model applied (see the module essay).
    pub(crate) fn translate_query(&mut self, command: &Command<'_>) -> Result<(), Error> {
        let (call, query) = match *command {
            Command::BeginQuery(q) => ("begin_query", q),
            Command::EndQuery(q) => ("end_query", q),
            Command::WriteQuery(q) => ("write_query", q),
            Command::ResetQuery(q) => ("reset_query", q),
            Command::ConfigureQuery { query, .. } => ("configure_query", query),
            _ => return Ok(()),
        };
        // A query released since the command was recorded (the fast calls hold no reference):
        // the model applied it; the GPU has nothing to count for it.
        let Some(kind) = self.device.query_kind(Query::from_raw(query)) else {
            return Ok(());
        };
        self.query_room(call)?;
        let state = self
            .queries
            .states
            .entry(query)
            .or_insert_with(|| QueryState {
                kind,
                mode: QueryMode::Counting,
                open: false,
                pieces: Vec::new(),
                carried: QueryCounts::default(),
                pending: None,
                result: None,
            });
        let was_open = state.open;
        match *command {
            Command::ConfigureQuery { mode, .. } => state.mode = mode,
            Command::BeginQuery(_) => {
                state.open = true;
                state.pieces.clear();
                state.carried = QueryCounts::default();
                state.pending = None;
                state.result = None;
            }
            Command::ResetQuery(_) => {
                state.open = false;
                state.pieces.clear();
                state.pending = None;
                state.result = None;
            }
            Command::EndQuery(_) => state.open = false,
            _ => {}
        }
        let Some(scoped) = scoped_kind(kind) else {
            if matches!(command, Command::EndQuery(_) | Command::WriteQuery(_)) {
                self.write_timestamp(query)?;
            }
            self.predicate_query_changed(query);
            return Ok(());
        };
        let restart = match command {
            Command::BeginQuery(_) | Command::WriteQuery(_) => true,
            Command::EndQuery(_) | Command::ResetQuery(_) => was_open,
            _ => false,
        };
        if restart {
            self.suspend_queries(scoped);
        }
        if let Some(state) = self.queries.states.get_mut(&query) {
            let ended = match command {
                Command::EndQuery(_) if was_open => Some((
                    std::mem::take(&mut state.pieces),
                    std::mem::take(&mut state.carried),
                )),
                // The scope's pieces so far, all ended (suspended above); it stays open.
                Command::WriteQuery(_) if state.open => Some((state.pieces.clone(), state.carried)),
                Command::EndQuery(_) | Command::WriteQuery(_) => {
                    Some((Vec::new(), QueryCounts::default()))
                }
                _ => None,
            };
            if let Some((pieces, carried)) = ended {
                state.pending = Some(Pending::Scoped(pieces, carried));
            }
        }
        if restart {
            self.resume_queries(scoped);
        }
        self.predicate_query_changed(query);
        self.frame.dirty = true;
        Ok(())
    }

    /// Flushes first when a pool lacks room for a command's slots.
    pub(crate) fn query_room(&mut self, call: &'static str) -> Result<(), Error> {
        if self.queries.roomy() {
            return Ok(());
        }
        self.flush().map_err(|e| e.to_engine(call))
    }

    fn write_timestamp(&mut self, query: RawHandle) -> Result<(), Error> {
        let Some(pool) = self.queries.timestamps.as_mut() else {
            return Err(Error::GpuBackend {
                call: "end_query",
                object: self
                    .device
                    .object_name(recorder::ObjectKind::Query, query)
                    .to_string(),
                problem: "the device's queue has no timestamps (R-GPU-3)".to_string(),
            });
        };
        let slot = pool.used;
        pool.used += 1;
        // SAFETY: `cb` is recording; the slot was reset at the submission's start and is
        // written once in it (`used` only grows until the next reset).
        unsafe {
            self.gpu.device.cmd_write_timestamp2(
                self.frame.cb,
                vk::PipelineStageFlags2::ALL_COMMANDS,
                pool.pool,
                slot,
            )
        };
        if let Some(state) = self.queries.states.get_mut(&query) {
            state.pending = Some(Pending::Timestamp(slot));
        }
        self.frame.dirty = true;
        Ok(())
    }

    /// Ends the active Vulkan query of `scoped`, if any (before a pass boundary or a flush).
    pub(crate) fn suspend_queries(&mut self, scoped: Scoped) {
        let Some(slot) = self.queries.current[scoped as usize].take() else {
            return;
        };
        if let Some(pool) = self.queries.pool(scoped) {
            // SAFETY: `slot` is active in `cb`, begun in the same pass (or outside any, as now).
            unsafe {
                self.gpu
                    .device
                    .cmd_end_query(self.frame.cb, pool.pool, slot)
            };
        }
    }

    /// Begins a Vulkan query of `scoped` for the engine queries of that type with an open scope
    /// (an occlusion one only inside a pass).
    pub(crate) fn resume_queries(&mut self, scoped: Scoped) {
        if scoped == Scoped::Occlusion && self.pass.is_none() {
            return;
        }
        let queries = &mut self.queries;
        let mut precise = false;
        let mut any = false;
        for state in queries.states.values() {
            if state.open && scoped_kind(state.kind) == Some(scoped) {
                any = true;
                precise |= state.mode == QueryMode::Counting;
            }
        }
        let precise = precise && queries.precise && scoped == Scoped::Occlusion;
        let Some(pool) = queries.pool(scoped).filter(|p| any && p.used < p.capacity) else {
            return;
        };
        let slot = pool.used;
        pool.used += 1;
        let flags = if precise {
            vk::QueryControlFlags::PRECISE
        } else {
            vk::QueryControlFlags::empty()
        };
        // SAFETY: `cb` is recording; no query of this type is active (`current` is empty:
        // suspended before); the slot was reset at the submission's start; `PRECISE` only with
        // `occlusionQueryPrecise` enabled.
        unsafe {
            self.gpu
                .device
                .cmd_begin_query(self.frame.cb, pool.pool, slot, flags)
        };
        queries.current[scoped as usize] = Some(slot);
        for state in queries.states.values_mut() {
            if state.open && scoped_kind(state.kind) == Some(scoped) {
                state.pieces.push(slot);
            }
        }
    }

    /// The GPU's result of `query`'s last end, as `get_data` shapes it (a timestamp in
    /// nanoseconds); submits first when that end is not read back yet. `None`: the backend
    /// translated no end of it (never ended, reset or begun again since).
    pub fn query_result(&mut self, query: Query) -> Result<Option<QueryData>, Error> {
        let Some(state) = self.queries.states.get(&query.raw()) else {
            return Ok(None);
        };
        if state.pending.is_some() {
            self.flush_and_wait()
                .map_err(|e| e.to_engine("query_result"))?;
        }
        Ok(self
            .queries
            .states
            .get(&query.raw())
            .and_then(|s| Some(QueryData::of(s.kind, s.result?))))
    }

    /// Nanoseconds per timestamp tick of the device (`timestampPeriod`).
    pub fn timestamp_period_ns(&self) -> f64 {
        self.queries.period_ns
    }
}
