//! What the GPU model does with barriers (SPEC §9, seed 001): the response of Xbox Series X|S to
//! enhanced barriers (R-BAR-2..4) and to legacy resource barriers translated into them
//! (R-BAR-6), with the checks of R-BAR-8.
//!
//! **In:** one `barrier` call's [`BarrierRecord`]s or one `resource_barrier` call's
//! [`ResourceBarrierRecord`]s, in order, with the semantics of the context that recorded them.
//! **Out:** counters (`barriers drains stalls cache_flushes cache_invalidations metadata_inits
//! decompressions`), the layouts and compression of textures ([`GpuModel::texture_state`]), and
//! refusals reported through the model's violations (`invalid_barrier`,
//! `legacy_state_not_common`). A refused barrier has no effect and counts nothing; the other
//! barriers of its call still run. Each accepted barrier, as it runs, goes on to the aliasing
//! model (`GpuModel::placed_barrier`, R-BAR-7) and the hazard tracker
//! (`GpuModel::hazards_barrier`, R-V-2); a refused one reaches neither.
//!
//! **What it keeps** (`Barriers`), only for resources a barrier named, so draws pay nothing:
//! per texture, a layout per subresource (mip × array slice × plane, `D3D12CalcSubresource`
//! order; every texture starts in `common`), and the compression of each plane (colour or depth
//! is plane 0, stencil plane 1 for formats with stencil); per resource, its legacy state when it
//! is not `common`; the split barriers begun and not ended; which kinds of barrier the device
//! has used (for `legacy_barriers=off`). The texture facts (planes, mips, slices, TC, DCC,
//! compressible) come from the device the immediate context hands the model
//! ([`GpuModel::set_device`]), read at a texture's first barrier.
//!
//! **Compression.** The model's per-texture `compressed` set (R-ST-9: clears and draws of a
//! compressible target, `decompress_resource`, `set_resource_compression`, legacy SRV binds) is
//! still the truth for "compressed at all" = any plane compressed. A barrier that leaves the
//! planes of a depth-stencil texture different records which plane is compressed beside it; a
//! clear or `set_resource_compression(true)` joins the planes again (both compressed), a
//! decompression takes the texture out of the set (both uncompressed).
//!
//! | layout after, from a compressed plane       | non-TC          | TC                      |
//! |---------------------------------------------|-----------------|-------------------------|
//! | `render_target`, `depth_stencil_write/read` | stays           | stays                   |
//! | `shader_resource`, `generic_read` (+queues) | decompresses    | stays (superset flags)  |
//! | `unordered_access`, `copy_*`, `resolve_*`   | decompresses    | decompresses            |
//! | `common` and the queue commons              | decompresses    | decompresses            |
//!
//! DCC (`dcc=yes`) adds: a write → read access change of a compressed plane decompresses unless
//! the texture is also TC, whatever the layouts. A texture with no metadata (neither compressible
//! nor DCC) never compresses. A whole-plane transition of an uncompressed plane into a layout that
//! is compressed for the texture compresses it. `discard` (LayoutBefore `undefined` only)
//! initialises the metadata (`metadata_inits` + 1 per barrier): no decompression, and the planes
//! named are compressed afterwards if the new layout is a compressed one. Xbox keeps metadata per
//! resource, not per subresource: a partial transition (not every mip and slice of the plane) of a
//! compressed plane to an uncompressed layout decompresses the whole plane; a partial transition
//! of an uncompressed plane to a compressed layout leaves it uncompressed. A barrier naming one
//! plane of every mip and slice is whole for that plane. One decompression is counted per barrier
//! that decompresses anything.
//!
//! **Costs** (R-BAR-2), per barrier group: the group's barriers are merged into one wait, one
//! hold and one end-of-pipe event, so each of these counts at most once per group, and each
//! cache at most once per group:
//!
//! | counter               | per group                                                       |
//! |-----------------------|-----------------------------------------------------------------|
//! | `drains`              | 1 if a barrier with work has a SyncBefore other than `none`     |
//! | `stalls`              | 1 if a barrier with work has a SyncAfter other than `none`; + 2 (the constant engine and the prefetch parser) if it holds a split begin (R-BAR-4) |
//! | `cache_flushes`       | one per cache written by an AccessBefore (write-back)           |
//! | `cache_invalidations` | one per cache an AccessAfter uses, when the barrier made something visible (a write before, a decompression or a discard) |
//!
//! | access                                                   | cache                 |
//! |----------------------------------------------------------|-----------------------|
//! | `render_target`, `resolve_*`                             | CB                    |
//! | `depth_stencil_write`, `depth_stencil_read`              | DB                    |
//! | `shader_resource`, `constant_buffer`, `unordered_access` | shader caches and L2  |
//! | `copy_*`, `index_buffer`, `vertex_buffer`, `indirect_argument`, `stream_output` | L2 |
//!
//! Writes are `render_target`, `unordered_access`, `depth_stencil_write`, `stream_output`,
//! `copy_dest`, `resolve_dest`. `common` stands for every access its layout allows (the D3D12
//! layout-access table; for buffers every access but depth, for global barriers every access), `no_access` for
//! none. A barrier has work when it writes back, when its AccessAfter writes (a write after a
//! read needs the wait, not the caches), when it changes a layout, or discards; a barrier
//! without work (read → read in the same layout) costs nothing. `barriers` counts every barrier
//! executed, with or without work; a split end does not count.
//!
//! **Split barriers** (R-BAR-4): a begin (SyncAfter `split`) runs as an immediate barrier at the
//! begin; its end (SyncBefore `split`) must name the same resource, range, layouts and accesses
//! and does nothing more; an end with no begin is `invalid_barrier`.
//!
//! **Legacy barriers** (R-BAR-6) translate through the D3D12 spec's equivalence tables: a
//! transition's states give the layouts (textures), accesses and syncs; a UAV barrier is
//! `all_shading` → `all_shading`, `unordered_access` → `unordered_access` (no layout change), a
//! null one global; an aliasing barrier is a global `all` → `all`, `common` → `common` (every
//! write flushed, every cache invalidated). The legacy state is kept per resource (set by legacy
//! transitions only; a texture whose legacy state is `common` is also taken to be in the state
//! its current layout stands for, when a legacy StateBefore is checked). An enhanced
//! barrier of a resource whose legacy state is not `common` is `legacy_state_not_common`; with
//! `legacy_barriers=off`, once one kind has been used on the device, the other is
//! `invalid_barrier`. [`legacy_equivalent`] gives the table to a backend (R-GPU-3), which
//! records a legacy transition as the barrier the model runs.
//!
//! **Validation** (R-BAR-8, under `validation=on|hazards`): an empty call or an empty group
//! before a non-empty one is a warning (a list stores barriers, not groups: empty groups after
//! the last barrier leave no trace); a texture range must lie inside the texture; a barrier's
//! type must match its resource (always checked: the model needs it); LayoutBefore (unless
//! `undefined`) must be each subresource's known layout; SyncBefore/AccessBefore/LayoutBefore and
//! SyncAfter/AccessAfter/LayoutAfter must each be compatible (D3D12's layout-access and
//! access-sync tables; sync `none` goes with access `no_access`); a legacy StateBefore must be the
//! known state. At the end of a top-level list's execution (`GpuModel::list_end`), a split
//! begin still unmatched (a buffer's: a buffer split across the boundary) and a texture a
//! barrier of the list (or of direct calls since the last list) left in a `common` layout are
//! warnings: Xbox flushes nothing at the boundary (R-BAR-5). A buffer barrier's Offset must be 0
//! and its Size inside the buffer (or whole). A refusal of a list's barrier names
//! `execute_command_list` as its call (the seed's ExecuteCommandLists message), a direct one
//! `barrier` or `resource_barrier`. Messages print the group and
//! barrier index and every field (`describe`).
//! Refusals the model cannot run past (type mismatch, a split end with no begin, discard not from
//! `undefined`, legacy state not common, mixing kinds) are reported without validation too.
//!
//! **Files.** This one: the calls (`barrier`, `resource_barrier` and its translations, the end
//! of a list). In `barrier_response/`: `enhanced_barrier.rs`, the barrier as the model runs it
//! and its description; `texture_layouts.rs`, a texture's facts and layouts; `barrier_state.rs`,
//! what the model keeps (`Barriers`); `barrier_checks.rs`, the refusals; `barrier_effects.rs`,
//! layouts, compression and costs; `barrier_tables.rs`, the tables.

use recorder::{
    BarrierAccess, BarrierKind, BarrierLayout, BarrierRecord, BarrierSubresources, BarrierSync,
    ObjectKind, ResourceBarrierKind, ResourceBarrierRecord, ResourceStates, Semantics, Span,
    SplitHalf,
};

use super::GpuModel;

mod barrier_checks;
mod barrier_effects;
mod barrier_state;
mod barrier_tables;
mod enhanced_barrier;
mod texture_layouts;

pub(super) use barrier_state::Barriers;
pub use texture_layouts::TextureState;

use barrier_checks::Refusal;
use barrier_effects::GroupCost;
use barrier_tables::{legacy_access, legacy_layout, legacy_sync};
use enhanced_barrier::Barrier;
use texture_layouts::Facts;

/// The enhanced sync, access and layout a legacy state stands for (R-BAR-6: the D3D12 spec's
/// equivalence table), exactly as the model translates a `resource_barrier` transition: for a
/// backend that records legacy barriers as the model runs them (R-GPU-3).
pub fn legacy_equivalent(state: ResourceStates) -> (BarrierSync, BarrierAccess, BarrierLayout) {
    (
        legacy_sync(state),
        legacy_access(state),
        legacy_layout(state),
    )
}

impl GpuModel {
    /// The end of a top-level list's execution (R-BAR-4, R-BAR-8): under validation, each split
    /// barrier begun and not ended is a warning (once), a buffer's saying that a buffer split
    /// across `execute_command_list` serves no purpose; texture splits stay open (D3D12 allows
    /// them across lists: layout-only there).
    pub(super) fn end_of_list(&mut self) {
        if self.validator.is_none() {
            return;
        }
        for b in std::mem::take(&mut self.barriers.to_common) {
            let still = b.resource.and_then(|r| {
                let t = self.barriers.textures.get(&r.handle)?;
                self.known_layout(t, &b.subresources)
            });
            if still == Some(b.layout_after) {
                self.warn_barrier(
                    &b,
                    "the common layout crosses an execute_command_list boundary: Xbox flushes \
                     nothing there, the next list's access needs a barrier (R-BAR-5)",
                );
            }
        }
        if self.barriers.open_splits.is_empty() {
            return;
        }
        let mut open = std::mem::take(&mut self.barriers.open_splits);
        for (b, reported) in open.iter_mut().filter(|(_, r)| !*r) {
            *reported = true;
            let what = if b.kind == BarrierKind::Buffer {
                "a buffer split barrier crosses an execute_command_list boundary (unmatched at the end of its list)"
            } else {
                "a split barrier begun in this list is unmatched at the end of its list"
            };
            self.warn_barrier(b, what);
        }
        self.barriers.open_splits = open;
    }

    /// Executes one `barrier` call's barriers, in order.
    pub(super) fn barrier(&mut self, semantics: Semantics, barriers: &[BarrierRecord]) {
        self.barriers.semantics = semantics;
        let validating = self.validator.is_some();
        if validating && barriers.is_empty() {
            tracing::warn!("barrier: a call with no barrier (R-BAR-8)");
        }
        if !barriers.is_empty() && !self.kind_allowed(false) {
            for r in barriers {
                let rule = "an enhanced barrier on a device that used legacy barriers, with \
                            legacy_barriers=off (R-BAR-6)";
                self.refuse(
                    "barrier",
                    &Barrier::from_record(r),
                    Refusal::Invalid(rule.into()),
                );
            }
            return;
        }
        let mut cost = GroupCost::default();
        let mut group = None;
        for record in barriers {
            let b = Barrier::from_record(record);
            if group != Some(b.group) {
                // Widened: the recorder refuses a call past 65,536 groups (R-BAR-1), and
                // `u32` keeps the comparison exact whatever a record holds.
                if validating && u32::from(b.group) > group.map_or(0, |g: u16| u32::from(g) + 1) {
                    self.warn_barrier(&b, "an empty barrier group before this one");
                }
                self.finish_group(&mut cost);
                group = Some(b.group);
            }
            if self.run_barrier("barrier", &b, true, &mut cost) {
                // Only an accepted barrier has effects (R-BAR-8): which aliased placed
                // resource is active (R-BAR-7), then, under hazard validation, what it covers
                // (R-V-2).
                self.placed_barrier(record);
                self.hazards_barrier(record);
            }
        }
        self.finish_group(&mut cost);
    }

    /// Executes one `resource_barrier` call's legacy barriers, in order, translated (R-BAR-6).
    pub(super) fn resource_barrier(
        &mut self,
        semantics: Semantics,
        barriers: &[ResourceBarrierRecord],
    ) {
        self.barriers.semantics = semantics;
        if !barriers.is_empty() && !self.kind_allowed(true) {
            for (i, r) in barriers.iter().enumerate() {
                let rule = "a legacy resource barrier on a device that used enhanced barriers, \
                            with legacy_barriers=off (R-BAR-6)";
                let b = Barrier {
                    resource: r.resource(),
                    ..Barrier::global(
                        BarrierSync::NONE,
                        legacy_access(r.before),
                        legacy_access(r.after),
                        // Exact: at most 65,536 barriers a call (R-BAR-1, the recorder).
                        i as u16,
                    )
                };
                self.refuse("resource_barrier", &b, Refusal::Invalid(rule.into()));
            }
            return;
        }
        // Each legacy barrier is a group of its own: the driver runs them one by one.
        for (i, r) in barriers.iter().enumerate() {
            let mut cost = GroupCost::default();
            // Exact: the recorder refuses a call of more than 65,536 barriers (R-BAR-1).
            let index = i as u16;
            let accepted = match r.kind() {
                ResourceBarrierKind::Uav => {
                    let uav = BarrierAccess::UNORDERED_ACCESS;
                    let mut b = Barrier::global(BarrierSync::ALL_SHADING, uav, uav, index);
                    if let Some(resource) = r.resource() {
                        // No layout change: a buffer-like barrier of the resource.
                        b.kind = BarrierKind::Buffer;
                        b.resource = Some(resource);
                    }
                    self.run_barrier("resource_barrier", &b, false, &mut cost)
                }
                ResourceBarrierKind::Aliasing => {
                    let common = BarrierAccess::COMMON;
                    let b = Barrier::global(BarrierSync::ALL, common, common, index);
                    self.run_barrier("resource_barrier", &b, false, &mut cost)
                }
                ResourceBarrierKind::Transition => self.transition(r, index, &mut cost),
            };
            if accepted {
                // As for enhanced barriers: aliasing (R-BAR-7), then coverage (R-V-2).
                self.placed_resource_barrier(r);
                self.hazards_resource_barrier(r);
            }
            self.finish_group(&mut cost);
        }
    }

    /// A legacy transition, translated and run. Returns whether it ran (not refused).
    fn transition(&mut self, r: &ResourceBarrierRecord, index: u16, cost: &mut GroupCost) -> bool {
        let Some(resource) = r.resource() else {
            return false;
        };
        let texture = resource.kind == ObjectKind::Texture;
        let mut b = Barrier {
            kind: if texture {
                BarrierKind::Texture
            } else {
                BarrierKind::Buffer
            },
            resource: Some(resource),
            sync_before: legacy_sync(r.before),
            sync_after: legacy_sync(r.after),
            access_before: legacy_access(r.before),
            access_after: legacy_access(r.after),
            layout_before: legacy_layout(r.before),
            layout_after: legacy_layout(r.after),
            subresources: BarrierSubresources::ALL,
            ..Barrier::global(
                BarrierSync::NONE,
                BarrierAccess::COMMON,
                BarrierAccess::COMMON,
                index,
            )
        };
        match r.split() {
            SplitHalf::None => {}
            SplitHalf::Begin => b.sync_after = BarrierSync::SPLIT,
            SplitHalf::End => b.sync_before = BarrierSync::SPLIT,
        }
        if let (Some(sub), true) = (r.subresource(), texture) {
            let facts = self.facts(resource.handle).unwrap_or(Facts::UNKNOWN);
            let (mips, slices) = (facts.mips as u32, facts.slices as u32);
            let (mip, slice, plane) = (sub % mips, (sub / mips) % slices, sub / (mips * slices));
            let one = |i: u32| {
                Span::new(
                    i.min(u16::MAX as u32 - 1) as u16,
                    i.min(u16::MAX as u32 - 1) as u16,
                )
            };
            b.subresources = BarrierSubresources {
                mips: one(mip),
                array: one(slice),
                planes: one(plane),
            };
        }
        let key = (resource.handle, texture);
        let known = self.barriers.legacy.get(&key).copied().unwrap_or_default();
        // A texture that enhanced barriers moved (its legacy state still common) is in the state
        // its layout stands for.
        let by_layout = texture
            && known == ResourceStates::COMMON
            && self
                .barriers
                .textures
                .get(&resource.handle)
                .and_then(|t| self.known_layout(t, &b.subresources))
                == Some(b.layout_before);
        if self.validator.is_some()
            && r.split() != SplitHalf::End
            && known != r.before
            && !by_layout
        {
            let rule = format!(
                "StateBefore {} is not the resource's state {} (R-BAR-6)",
                r.before, known
            );
            self.refuse("resource_barrier", &b, Refusal::Invalid(rule));
            return false;
        }
        let ran = self.run_barrier("resource_barrier", &b, false, cost);
        if ran && r.split() != SplitHalf::End {
            if r.after == ResourceStates::COMMON {
                self.barriers.legacy.remove(&key);
            } else {
                self.barriers.legacy.insert(key, r.after);
            }
        }
        ran
    }

    /// Checks and runs one barrier; `enhanced` says it came from a `barrier` call (the legacy
    /// state must then be `common`). Returns whether it ran.
    fn run_barrier(
        &mut self,
        call: &'static str,
        b: &Barrier,
        enhanced: bool,
        cost: &mut GroupCost,
    ) -> bool {
        match self.check(b, enhanced) {
            Err(refusal) => {
                self.refuse(call, b, refusal);
                false
            }
            Ok(()) => {
                if b.is_split_end() {
                    // Checked against its begin, which did the work (R-BAR-4).
                    if let Some(at) = self
                        .barriers
                        .open_splits
                        .iter()
                        .position(|(s, _)| s.matches_end(b))
                    {
                        self.barriers.open_splits.remove(at);
                    }
                    return true;
                }
                self.apply_barrier(b, cost);
                true
            }
        }
    }
}
