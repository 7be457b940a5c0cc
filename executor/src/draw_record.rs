//! What the GPU model hands out (R-EX-3): one [`DrawRecord`] per draw or dispatch, and the
//! cumulative [`Counters`] whose keys TRACE.md fixes.
//!
//! A record is a snapshot of what the hardware would read for one draw, and nothing more: the
//! slots a stage's bound shader reads (a stage with no shader reads nothing), the vertex-buffer
//! slots the input layout reads, and the output-merger, rasterizer and input-assembler registers.
//! Bindings keep raw handles and the dynamic instance they read, not names: the replay tool maps
//! them to trace names later (see `field.rs`, which answers TRACE.md's field names).
//!
//! The model keeps its records compactly in reused pools ([`Records`],
//! `draw_record/record_pools.rs`) and reads them in place ([`Draw`]); a [`DrawRecord`] is the
//! owned copy a consumer that keeps records builds (`Records::to_vec`, `GpuModel::records`).

use std::fmt;

mod draw_changes;
mod record_pools;
pub use draw_changes::DrawChanges;
pub(crate) use record_pools::{
    reads_constant_buffers_only, DrawWriter, GraphicsRegisters, StageSlots,
};
pub use record_pools::{Draw, GraphicsView, Records, StageView, Stages};

use recorder::command::{BoundBuffer, BoundView, InstanceId, ViewFlags};
use recorder::Viewport;
use recorder::{Format, PrimitiveTopology, RawHandle, Rect, SplitCategory, SplitCounts, Stage};

/// Which call a record comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawKind {
    /// `draw`.
    Draw,
    /// `draw_indexed`.
    DrawIndexed,
    /// `draw_instanced`.
    DrawInstanced,
    /// `draw_indexed_instanced`.
    DrawIndexedInstanced,
    /// `draw_auto`.
    DrawAuto,
    /// `draw_instanced_indirect`.
    DrawInstancedIndirect,
    /// `draw_indexed_instanced_indirect`.
    DrawIndexedInstancedIndirect,
    /// `dispatch`.
    Dispatch,
    /// `dispatch_indirect`.
    DispatchIndirect,
}

impl DrawKind {
    /// The call's name in traces.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Draw => "draw",
            Self::DrawIndexed => "draw_indexed",
            Self::DrawInstanced => "draw_instanced",
            Self::DrawIndexedInstanced => "draw_indexed_instanced",
            Self::DrawAuto => "draw_auto",
            Self::DrawInstancedIndirect => "draw_instanced_indirect",
            Self::DrawIndexedInstancedIndirect => "draw_indexed_instanced_indirect",
            Self::Dispatch => "dispatch",
            Self::DispatchIndirect => "dispatch_indirect",
        }
    }

    /// A compute dispatch (its record holds the compute stage only).
    pub const fn is_dispatch(self) -> bool {
        matches!(self, Self::Dispatch | Self::DispatchIndirect)
    }
}

impl fmt::Display for DrawKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A draw's arguments: the command vocabulary's, from the call to the record.
pub use recorder::command::DrawArgs;

/// A view as a draw saw it: the view, its resource and dynamic instance, the properties copied
/// at bind time, and whether the resource was compressed when the draw ran (R-ST-9).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewRecord {
    /// The view; null for an empty slot (then every other field is the empty slot's).
    pub view: RawHandle,
    /// The view's resource.
    pub resource: RawHandle,
    /// The instance of the resource the draw read (R-ST-8): [`InstanceId::INITIAL`] unless the
    /// resource is dynamic.
    pub instance: InstanceId,
    /// The view's format.
    pub format: Format,
    /// The minimum LOD copied at bind time (R-ST-6).
    pub min_lod: f32,
    /// Properties of the view and its resource, copied at bind time.
    pub flags: ViewFlags,
    /// The resource was a compressed texture at the draw.
    pub compressed: bool,
}

impl ViewRecord {
    /// An empty slot.
    pub const NULL: Self = Self::new(&BoundView::NULL, false);

    /// The record of `bound` as a draw saw it; `compressed`: its resource was compressed then.
    pub const fn new(bound: &BoundView, compressed: bool) -> Self {
        Self {
            view: bound.view,
            resource: bound.resource,
            instance: bound.instance,
            format: bound.format,
            min_lod: bound.min_lod,
            flags: bound.flags,
            compressed,
        }
    }

    /// Whether the slot is empty.
    pub const fn is_null(&self) -> bool {
        self.view.is_null()
    }
}

/// One shader stage of a record: its shader and the bindings at the slots the shader reads, in
/// slot order. A stage with no shader has no bindings.
#[derive(Clone, Debug, PartialEq)]
pub struct StageRecord {
    /// The stage.
    pub stage: Stage,
    /// The bound shader; null when the stage has none.
    pub shader: RawHandle,
    /// `(slot, binding)` for each constant-buffer slot the shader reads.
    pub constant_buffers: Vec<(u32, BoundBuffer)>,
    /// `(slot, view)` for each shader-resource slot the shader reads.
    pub shader_resources: Vec<(u32, ViewRecord)>,
    /// `(slot, sampler state)` for each sampler slot the shader reads.
    pub samplers: Vec<(u32, RawHandle)>,
    /// Compute UAVs for the compute stage; the output merger's UAVs for a graphics stage.
    pub unordered_access_views: Vec<(u32, ViewRecord)>,
}

impl StageRecord {
    /// A stage with `shader` bound and no bindings yet.
    pub fn empty(stage: Stage, shader: RawHandle) -> Self {
        Self {
            stage,
            shader,
            constant_buffers: Vec::new(),
            shader_resources: Vec::new(),
            samplers: Vec::new(),
            unordered_access_views: Vec::new(),
        }
    }

    /// The constant buffer at `slot`, if the shader reads it.
    pub fn constant_buffer(&self, slot: u32) -> Option<&BoundBuffer> {
        find(&self.constant_buffers, slot)
    }
    /// The shader resource at `slot`, if the shader reads it.
    pub fn shader_resource(&self, slot: u32) -> Option<&ViewRecord> {
        find(&self.shader_resources, slot)
    }
    /// The sampler at `slot`, if the shader reads it.
    pub fn sampler(&self, slot: u32) -> Option<&RawHandle> {
        find(&self.samplers, slot)
    }
    /// The UAV at `slot`, if the shader reads it.
    pub fn unordered_access_view(&self, slot: u32) -> Option<&ViewRecord> {
        find(&self.unordered_access_views, slot)
    }
}

/// The value at `slot` of a slot-ordered list.
pub(crate) fn find<T>(slots: &[(u32, T)], slot: u32) -> Option<&T> {
    slots
        .binary_search_by_key(&slot, |(s, _)| *s)
        .ok()
        .and_then(|i| slots.get(i))
        .map(|(_, value)| value)
}

/// The blend and depth-stencil state registers, as the binding state keeps them
/// (`recorder::state`); records copy them.
pub use recorder::state::{BlendRecord, DepthStencilRecord};

/// What a draw (not a dispatch) reads besides its shader stages.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphicsRecord {
    /// The bound input layout; null for none.
    pub input_layout: RawHandle,
    /// The bound primitive topology.
    pub topology: PrimitiveTopology,
    /// The primitive reset (cut) index in force (R-ST-5).
    pub reset_index: u32,
    /// Buffer, instance, offset, and the index format in `stride_or_format`.
    pub index_buffer: BoundBuffer,
    /// The bindings at the slots the input layout reads, in slot order.
    pub vertex_buffers: Vec<(u32, BoundBuffer)>,
    /// The bound render targets, slots `0..count` of the last bind.
    pub render_targets: Vec<ViewRecord>,
    /// The bound depth-stencil view; [`ViewRecord::NULL`] for none.
    pub depth_stencil: ViewRecord,
    /// The blend state, blend factor and sample mask in force.
    pub blend: BlendRecord,
    /// The depth-stencil state and stencil reference in force.
    pub depth_stencil_state: DepthStencilRecord,
    /// The bound rasterizer state; null for the default.
    pub rasterizer: RawHandle,
    /// The viewports set, from slot 0.
    pub viewports: Vec<Viewport>,
    /// The scissor rectangles set, from slot 0.
    pub scissors: Vec<Rect>,
}

impl GraphicsRecord {
    /// The vertex buffer at `slot`, if the input layout reads it.
    pub fn vertex_buffer(&self, slot: u32) -> Option<&BoundBuffer> {
        find(&self.vertex_buffers, slot)
    }

    /// The index format, or `None` when no index buffer is bound.
    pub fn index_format(&self) -> Option<Format> {
        (!self.index_buffer.buffer.is_null()).then(|| self.index_buffer.index_format())
    }
}

/// One draw or dispatch as the GPU saw it (R-EX-3).
#[derive(Clone, Debug, PartialEq)]
pub struct DrawRecord {
    /// The call the record comes from.
    pub kind: DrawKind,
    /// The call's numbers, or the buffer an indirect call reads them from.
    pub args: DrawArgs,
    /// The predicate in force (null: none) and the value it predicates on.
    pub predicate: RawHandle,
    /// The value the predicate is compared with (meaningful when `predicate` is not null).
    pub predicate_value: bool,
    /// Draws: the five graphics stages, vs hs ds gs ps. Dispatches: the compute stage.
    pub stages: Vec<StageRecord>,
    /// Draws only.
    pub graphics: Option<Box<GraphicsRecord>>,
}

impl DrawRecord {
    /// Whether the draw ran under a predicate (it may have been skipped).
    pub fn predicated(&self) -> bool {
        !self.predicate.is_null()
    }

    /// The record of `stage`, if this record has it (graphics stages for draws, compute for
    /// dispatches).
    pub fn stage(&self, stage: Stage) -> Option<&StageRecord> {
        self.stages.iter().find(|s| s.stage == stage)
    }
}

/// Cumulative counters of the GPU model; the keys are TRACE.md's (`expect counters`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Draws executed: direct, indirect and auto, bundles' included, predicated ones too.
    pub draws: u64,
    /// Dispatches executed, direct and indirect, predicated ones too.
    pub dispatches: u64,
    /// Draws and dispatches that followed a change of a context register (R-EX-4), plus split
    /// points resolved inside a predication scope (R-SP-4).
    pub context_rolls: u64,
    /// Indirect-buffer executions: command segments handed to the GPU by reference (R-SP-4).
    pub ib_executions: u64,
    /// Split points resolved, by category (R-SP-5).
    pub split_points_resolved: SplitCounts,
    /// Decompressions performed: of split points, of legacy binds, of `decompress_resource`.
    pub decompressions: u64,
    /// Constant-engine bytes loaded: each executed bundle call adds its footprint, the overrides
    /// it loads at every call (R-B-5).
    pub ce_bytes: u64,
    /// Cache flushes: legacy semantics' hazard response (R-ST-10), one per resource whose use
    /// by a legacy draw or dispatch (read through a shader-resource view, or written as a render
    /// target, depth stencil or UAV) differs from its use by the last legacy draw or dispatch
    /// that used it. Each also costs a drain. Barriers add their write-backs (R-BAR-2).
    pub cache_flushes: u64,
    /// Waits on fences: `insert_wait_on_fence`, `insert_wait_on_memory` and
    /// `insert_wait_on_present` commands consumed, the wait on present legacy inserts at every
    /// bind of a back buffer, and a legacy map's wait for the GPU (R-EX-5..7).
    pub fence_waits: u64,
    /// Bundle calls executed (R-B-10); a call refused at execution (format mismatch) counts
    /// nothing.
    pub bundle_calls: u64,
    /// Barriers executed, enhanced and legacy, with or without work to do (R-BAR-2, R-BAR-8);
    /// a split barrier's end does not count (R-BAR-4).
    pub barriers: u64,
    /// Drains: waits for the work a barrier's SyncBefore names to finish (R-BAR-2).
    pub drains: u64,
    /// Stalls: work a barrier's SyncAfter holds until it is done; a split barrier holds the
    /// constant engine and the prefetch parser, one stall each (R-BAR-2, R-BAR-4).
    pub stalls: u64,
    /// Cache invalidations of what a barrier's AccessAfter reads (R-BAR-2).
    pub cache_invalidations: u64,
    /// Metadata initialisations by a texture barrier's `discard` (R-BAR-3).
    pub metadata_inits: u64,
}

impl Counters {
    /// TRACE.md's counter keys, in its order.
    pub const KEYS: [&'static str; 15] = [
        "draws",
        "dispatches",
        "context_rolls",
        "ib_executions",
        "split_points_resolved",
        "decompressions",
        "ce_bytes",
        "cache_flushes",
        "cache_invalidations",
        "fence_waits",
        "bundle_calls",
        "barriers",
        "drains",
        "stalls",
        "metadata_inits",
    ];

    /// The counter called `key` in traces. `split_points_resolved` is the total over the
    /// categories; `split_points_resolved.CATEGORY` (an extension) one category's count.
    pub fn get(&self, key: &str) -> Option<u64> {
        Some(match key {
            "draws" => self.draws,
            "dispatches" => self.dispatches,
            "context_rolls" => self.context_rolls,
            "ib_executions" => self.ib_executions,
            "split_points_resolved" => self.split_points_resolved.total() as u64,
            "decompressions" => self.decompressions,
            "ce_bytes" => self.ce_bytes,
            "cache_flushes" => self.cache_flushes,
            "fence_waits" => self.fence_waits,
            "bundle_calls" => self.bundle_calls,
            "cache_invalidations" => self.cache_invalidations,
            "barriers" => self.barriers,
            "drains" => self.drains,
            "stalls" => self.stalls,
            "metadata_inits" => self.metadata_inits,
            _ => {
                let category = key.strip_prefix("split_points_resolved.")?;
                self.split_points_resolved[SplitCategory::from_name(category)?] as u64
            }
        })
    }
}

impl fmt::Display for Counters {
    /// `key=value` for every key, then the resolved split points by category.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, key) in Self::KEYS.iter().enumerate() {
            let separator = if i == 0 { "" } else { " " };
            write!(f, "{separator}{key}={}", self.get(key).unwrap_or(0))?;
        }
        for (category, count) in self.split_points_resolved.nonzero() {
            write!(f, " split_points_resolved.{category}={count}")?;
        }
        Ok(())
    }
}
