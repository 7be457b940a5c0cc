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
//! `invalid_barrier`.
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

use std::collections::HashMap;

use recorder::{
    BarrierAccess, BarrierKind, BarrierLayout, BarrierRecord, BarrierSubresources, BarrierSync,
    Error, Format, Handle, NamedResource, ObjectKind, RawHandle, ResourceBarrierKind,
    ResourceBarrierRecord, ResourceStates, Semantics, Span, SplitHalf, Texture,
};

use super::GpuModel;

mod barrier_tables;
use barrier_tables::*;

/// What the GPU model knows of a texture now: TRACE.md's `expect resource` reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureState {
    /// The layout every subresource is in; `None` when they differ (`mixed`).
    pub layout: Option<BarrierLayout>,
    /// Whether any plane is compressed.
    pub compressed: bool,
    /// The depth plane's compression, for a format with depth (`None` otherwise).
    pub depth_compressed: Option<bool>,
    /// The stencil plane's compression, for a format with stencil (`None` otherwise).
    pub stencil_compressed: Option<bool>,
}

/// The facts of a texture a barrier needs.
#[derive(Clone, Copy, Debug)]
struct Facts {
    mips: u16,
    slices: u16,
    planes: u8,
    depth: bool,
    tc: bool,
    dcc: bool,
    /// Compressible or DCC: it has metadata to compress with.
    metadata: bool,
}

impl Facts {
    /// A texture the model knows nothing of (no device): one colour subresource, no metadata.
    const UNKNOWN: Self = Self {
        mips: 1,
        slices: 1,
        planes: 1,
        depth: false,
        tc: false,
        dcc: false,
        metadata: false,
    };

    fn of_format(format: Format) -> (bool, u8) {
        match format {
            Format::D24UnormS8Uint | Format::D32FloatS8X24Uint => (true, 2),
            Format::D32Float | Format::D16Unorm => (true, 1),
            _ => (false, 1),
        }
    }
}

/// One texture's barrier state.
#[derive(Clone, Debug)]
struct TextureLayouts {
    facts: Facts,
    /// Index `mip + mips * (slice + slices * plane)`.
    layouts: Vec<BarrierLayout>,
    /// Each plane's compression when the planes differ (a barrier left them so); `None` when
    /// the model's `compressed` set says it for both.
    planes: Option<[bool; 2]>,
}

impl TextureLayouts {
    fn new(facts: Facts) -> Self {
        let count = facts.mips as usize * facts.slices as usize * facts.planes as usize;
        Self {
            facts,
            layouts: vec![BarrierLayout::Common; count.max(1)],
            planes: None,
        }
    }

    fn layout(&self) -> Option<BarrierLayout> {
        let first = *self.layouts.first()?;
        self.layouts.iter().all(|l| *l == first).then_some(first)
    }

    fn index(&self, mip: u16, slice: u16, plane: u16) -> usize {
        let f = &self.facts;
        mip as usize + f.mips as usize * (slice as usize + f.slices as usize * plane as usize)
    }
}

/// An enhanced barrier as the model runs it: from a record, or translated from a legacy one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Barrier {
    kind: BarrierKind,
    resource: Option<NamedResource>,
    sync_before: BarrierSync,
    sync_after: BarrierSync,
    access_before: BarrierAccess,
    access_after: BarrierAccess,
    layout_before: BarrierLayout,
    layout_after: BarrierLayout,
    subresources: BarrierSubresources,
    discard: bool,
    offset: u64,
    size: u64,
    group: u16,
    index: u16,
}

impl Barrier {
    fn from_record(r: &BarrierRecord) -> Self {
        Self {
            kind: r.kind(),
            resource: r.resource(),
            sync_before: r.sync_before,
            sync_after: r.sync_after,
            access_before: r.access_before,
            access_after: r.access_after,
            layout_before: r.layout_before(),
            layout_after: r.layout_after(),
            subresources: r.subresources,
            discard: r.discard(),
            offset: r.offset,
            size: r.size,
            group: r.group,
            index: r.index,
        }
    }

    fn global(sync: BarrierSync, before: BarrierAccess, after: BarrierAccess, i: u16) -> Self {
        Self {
            kind: BarrierKind::Global,
            resource: None,
            sync_before: sync,
            sync_after: sync,
            access_before: before,
            access_after: after,
            layout_before: BarrierLayout::Common,
            layout_after: BarrierLayout::Common,
            subresources: BarrierSubresources::ALL,
            discard: false,
            offset: 0,
            size: u64::MAX,
            group: 0,
            index: i,
        }
    }

    fn is_split_begin(&self) -> bool {
        self.sync_after.contains(BarrierSync::SPLIT)
    }

    fn is_split_end(&self) -> bool {
        self.sync_before.contains(BarrierSync::SPLIT)
    }

    /// Whether `end` closes this begin: same resource, range, layouts and accesses.
    fn matches_end(&self, end: &Barrier) -> bool {
        self.kind == end.kind
            && self.resource == end.resource
            && self.subresources == end.subresources
            && self.layout_before == end.layout_before
            && self.layout_after == end.layout_after
            && self.access_before == end.access_before
            && self.access_after == end.access_after
    }
}

/// The barrier state of the model (see the module essay).
#[derive(Debug, Default)]
pub(super) struct Barriers {
    textures: HashMap<RawHandle, TextureLayouts>,
    /// Legacy states other than `common`, by resource (handle, is a texture).
    legacy: HashMap<(RawHandle, bool), ResourceStates>,
    used_enhanced: bool,
    used_legacy: bool,
    /// The semantics of the call being run (a decompression is seen by bound views as R-ST-9
    /// says for it).
    semantics: Semantics,
    /// Under validation, texture barriers into a `common` layout since the last list end: one
    /// still in it at the end of a list is a warning (R-BAR-8).
    to_common: Vec<Barrier>,
    /// How deep in command lists the commands being run are (`GpuModel::list_begin`): 0 for
    /// direct calls.
    pub(super) list_depth: u32,
    /// Split begins not ended yet, in order, and whether a list boundary was reported for it.
    open_splits: Vec<(Barrier, bool)>,
}

impl Barriers {
    /// A clear or `set_resource_compression(true)` compressed `texture` whole: its planes agree
    /// again.
    #[inline]
    pub(super) fn planes_joined(&mut self, texture: RawHandle) {
        if !self.textures.is_empty() {
            if let Some(t) = self.textures.get_mut(&texture) {
                t.planes = None;
            }
        }
    }
}

/// What one group's barriers cost together (R-BAR-2).
#[derive(Default)]
struct GroupCost {
    drain: bool,
    stall: bool,
    split: bool,
    flush: u8,
    invalidate: u8,
}

/// A refusal, before it is turned into an error with the barrier's description.
enum Refusal {
    Invalid(String),
    LegacyNotCommon(ResourceStates),
}

fn span_text(span: Span) -> String {
    if span.is_all() {
        "all".to_string()
    } else {
        format!("{}..={}", span.first, span.last)
    }
}

/// The barrier's group and index and every field, as the seed's debug-layer messages print them.
fn describe(b: &Barrier, resource: Option<String>) -> String {
    let mut s = format!(
        "|  -Group Index:   {}\n|  -Barrier Index: {}\n|  -Barrier ({})\n\
         |   |  -SyncBefore:   {}\n|   |  -SyncAfter:    {}\n\
         |   |  -AccessBefore: {}\n|   |  -AccessAfter:  {}\n",
        b.group,
        b.index,
        match b.kind {
            BarrierKind::Global => "global",
            BarrierKind::Buffer => "buffer",
            BarrierKind::Texture => "texture",
        },
        b.sync_before,
        b.sync_after,
        b.access_before,
        b.access_after,
    );
    match b.kind {
        BarrierKind::Global => {}
        BarrierKind::Buffer => {
            s += &format!(
                "|   |  -pResource:    {}\n|   |  -Offset:       {}\n|   |  -Size:         {}\n",
                resource.unwrap_or_else(|| "null".into()),
                b.offset,
                if b.size == u64::MAX {
                    "whole".to_string()
                } else {
                    b.size.to_string()
                }
            );
        }
        BarrierKind::Texture => {
            let r = &b.subresources;
            s += &format!(
                "|   |  -LayoutBefore: {}\n|   |  -LayoutAfter:  {}\n|   |  -pResource:    {}\n\
                 |   |  -Subresources\n|   |    |  -Mips:   {}\n|   |    |  -Array:  {}\n\
                 |   |    |  -Planes: {}\n|   |  -Flags: {}\n",
                b.layout_before.name(),
                b.layout_after.name(),
                resource.unwrap_or_else(|| "null".into()),
                span_text(r.mips),
                span_text(r.array),
                span_text(r.planes),
                if b.discard { "discard" } else { "none" },
            );
        }
    }
    s
}

/// The inclusive range `span` of a dimension of `count`, clamped; `None` when it is empty.
fn clamp(span: Span, count: u16) -> Option<(u16, u16)> {
    let last = span.last.min(count.saturating_sub(1));
    (span.first <= last && count > 0).then_some((span.first, last))
}

impl GpuModel {
    /// Gives the model the device whose objects it sees: the barrier model reads texture facts
    /// (planes, mips, slices, TC, DCC) from it at a texture's first barrier (R-BAR-3).
    pub fn set_device(&mut self, device: Option<recorder::Device>) {
        self.device = device;
    }

    fn facts(&self, texture: RawHandle) -> Option<Facts> {
        let device = self.device.as_ref().or(self.validator.as_ref());
        let Some(device) = device else {
            return Some(Facts::UNKNOWN);
        };
        let info = device.texture_info(Texture::from_raw(texture))?;
        let (depth, planes) = Facts::of_format(info.format);
        Some(Facts {
            mips: info.mip_levels.clamp(1, u16::MAX as u32) as u16,
            slices: info.array_size.clamp(1, u16::MAX as u32) as u16,
            planes,
            depth,
            tc: info.texture_compatible,
            dcc: info.dcc,
            metadata: info.compressible || info.dcc,
        })
    }

    /// What the model knows of `texture` now (every texture starts in `common`, R-BAR-3).
    pub fn texture_state(&self, texture: RawHandle) -> TextureState {
        let compressed = self.is_compressed(texture);
        let known = self.barriers.textures.get(&texture);
        let facts = known
            .map(|t| t.facts)
            .or_else(|| self.facts(texture))
            .unwrap_or(Facts::UNKNOWN);
        let planes = match known.and_then(|t| t.planes) {
            Some(p) if compressed => p,
            _ => [compressed; 2],
        };
        TextureState {
            layout: known.map_or(Some(BarrierLayout::Common), TextureLayouts::layout),
            compressed,
            depth_compressed: facts.depth.then_some(planes[0]),
            stencil_compressed: (facts.planes > 1).then_some(planes[1]),
        }
    }

    /// The resource as a refusal prints it: its name, and its slot and reuse count (not the
    /// device's tag, so that the same trace replayed on two devices prints the same message).
    fn object_text(&self, resource: Option<NamedResource>) -> Option<String> {
        let r = resource?;
        let device = self.device.as_ref().or(self.validator.as_ref());
        let slot = format!("#{}g{}", r.handle.index(), r.handle.reuse_count());
        Some(match device {
            Some(d) => format!("{} ({slot})", d.object_name(r.kind, r.handle)),
            None => format!("{} {slot}", r.kind.name()),
        })
    }

    fn refuse(&mut self, call: &'static str, b: &Barrier, refusal: Refusal) {
        let call = if self.barriers.list_depth > 0 {
            "execute_command_list"
        } else {
            call
        };
        let barrier = describe(b, self.object_text(b.resource)).into_boxed_str();
        let error = match refusal {
            Refusal::Invalid(rule) => Error::InvalidBarrier {
                call,
                rule: rule.into_boxed_str(),
                barrier,
            },
            Refusal::LegacyNotCommon(state) => Error::LegacyStateNotCommon {
                call,
                state,
                barrier,
            },
        };
        tracing::warn!("{error}");
        self.violations.push(error);
    }

    fn warn_barrier(&self, b: &Barrier, what: &str) {
        tracing::warn!(
            "barrier: {what} (R-BAR-8)\n{}",
            describe(b, self.object_text(b.resource))
        );
    }

    /// R-BAR-6: with `legacy_barriers=off`, once one kind of barrier was used on the device, the
    /// other is refused. Returns whether `legacy` (or enhanced) barriers may run.
    fn kind_allowed(&mut self, legacy: bool) -> bool {
        let mixing_refused = self
            .device
            .as_ref()
            .or(self.validator.as_ref())
            .is_some_and(|d| !d.desc().legacy_barriers);
        let other = if legacy {
            self.barriers.used_enhanced
        } else {
            self.barriers.used_legacy
        };
        if mixing_refused && other {
            return false;
        }
        if legacy {
            self.barriers.used_legacy = true;
        } else {
            self.barriers.used_enhanced = true;
        }
        true
    }

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
                if validating && b.group > group.map_or(0, |g| g + 1) {
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

    /// Counts one group's merged costs and starts the next (R-BAR-2).
    fn finish_group(&mut self, cost: &mut GroupCost) {
        let c = std::mem::take(cost);
        let counters = &mut self.counters;
        counters.drains += c.drain as u64;
        counters.stalls += c.stall as u64 + 2 * c.split as u64;
        counters.cache_flushes += c.flush.count_ones() as u64;
        counters.cache_invalidations += c.invalidate.count_ones() as u64;
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

    /// Every rule that refuses `b`, before it has any effect.
    fn check(&mut self, b: &Barrier, enhanced: bool) -> Result<(), Refusal> {
        let validating = self.validator.is_some();
        let invalid = |s: &str| Err(Refusal::Invalid(s.to_string()));
        match (b.kind, b.resource) {
            (BarrierKind::Global, _) => {}
            (_, None) => return invalid("a buffer or texture barrier names no resource (R-BAR-8)"),
            (BarrierKind::Texture, Some(r)) if r.kind != ObjectKind::Texture => {
                return invalid("a texture barrier names a buffer: the barrier type must match the resource (R-BAR-8)")
            }
            (BarrierKind::Buffer, Some(r)) if r.kind != ObjectKind::Buffer && enhanced => {
                return invalid("a buffer barrier names a texture: the barrier type must match the resource (R-BAR-8)")
            }
            _ => {}
        }
        if b.is_split_end() {
            if !self
                .barriers
                .open_splits
                .iter()
                .any(|(s, _)| s.matches_end(b))
            {
                return invalid("a split barrier's end matches no begin: same resource, range, layouts and accesses (R-BAR-4)");
            }
            return Ok(());
        }
        if enhanced {
            if let Some(r) = b.resource {
                let key = (r.handle, r.kind == ObjectKind::Texture);
                if let Some(state) = self.barriers.legacy.get(&key) {
                    return Err(Refusal::LegacyNotCommon(*state));
                }
            }
        }
        if validating && b.kind == BarrierKind::Buffer && enhanced {
            if b.offset != 0 {
                return invalid("a buffer barrier's Offset must be 0 (R-BAR-1)");
            }
            let device = self.device.as_ref().or(self.validator.as_ref());
            let size = b.resource.and_then(|r| {
                let info = device?.buffer_info(recorder::Buffer::from_raw(r.handle))?;
                Some(info.size as u64)
            });
            if b.size != u64::MAX && size.is_some_and(|size| b.size > size) {
                return Err(Refusal::Invalid(format!(
                    "a buffer barrier's Size is past the buffer's {} bytes (R-BAR-8)",
                    size.unwrap_or_default()
                )));
            }
        }
        if b.discard && b.layout_before != BarrierLayout::Undefined {
            return invalid("discard is allowed only with LayoutBefore undefined (R-BAR-3)");
        }
        if b.kind == BarrierKind::Texture {
            let Some(r) = b.resource else {
                return Ok(());
            };
            let facts = match self.barriers.textures.get(&r.handle) {
                Some(t) => t.facts,
                None => match self.facts(r.handle) {
                    Some(f) => f,
                    None => return invalid("the texture is not live on the device (R-BAR-8)"),
                },
            };
            if validating {
                let s = &b.subresources;
                let inside = |span: Span, count: u16| {
                    span.is_all() || (span.first <= span.last && span.last < count)
                };
                if !inside(s.mips, facts.mips)
                    || !inside(s.array, facts.slices)
                    || !inside(s.planes, facts.planes as u16)
                {
                    return Err(Refusal::Invalid(format!(
                        "the subresource range is outside the texture ({} mips, {} array slices, {} planes) (R-BAR-8)",
                        facts.mips, facts.slices, facts.planes
                    )));
                }
                if b.layout_before != BarrierLayout::Undefined {
                    if let Some(t) = self.barriers.textures.get(&r.handle) {
                        if let Some(known) = self.known_layout(t, s) {
                            if known != b.layout_before {
                                return Err(Refusal::Invalid(format!(
                                    "LayoutBefore {} is not the subresources' known layout {} (R-BAR-8)",
                                    b.layout_before.name(),
                                    known.name()
                                )));
                            }
                        } else {
                            return invalid(
                                "LayoutBefore: the subresources are in different layouts (R-BAR-8)",
                            );
                        }
                    } else if b.layout_before != BarrierLayout::Common {
                        return Err(Refusal::Invalid(format!(
                            "LayoutBefore {} is not the subresources' known layout common (R-BAR-8)",
                            b.layout_before.name()
                        )));
                    }
                }
            }
        }
        if validating {
            self.check_compatible(b)?;
        }
        Ok(())
    }

    /// The one layout every subresource of `range` is in, if they agree.
    fn known_layout(
        &self,
        t: &TextureLayouts,
        range: &BarrierSubresources,
    ) -> Option<BarrierLayout> {
        let f = &t.facts;
        let mips = clamp(range.mips, f.mips)?;
        let slices = clamp(range.array, f.slices)?;
        let planes = clamp(range.planes, f.planes as u16)?;
        let mut found = None;
        for plane in planes.0..=planes.1 {
            for slice in slices.0..=slices.1 {
                for mip in mips.0..=mips.1 {
                    let l = *t.layouts.get(t.index(mip, slice, plane))?;
                    if found.is_some_and(|f| f != l) {
                        return None;
                    }
                    found = Some(l);
                }
            }
        }
        found
    }

    /// R-BAR-8: sync, access and layout of each side compatible (D3D12's tables).
    fn check_compatible(&self, b: &Barrier) -> Result<(), Refusal> {
        let sides = [
            ("Before", b.sync_before, b.access_before, b.layout_before),
            ("After", b.sync_after, b.access_after, b.layout_after),
        ];
        for (side, sync, access, layout) in sides {
            let sync = BarrierSync(sync.0 & !BarrierSync::SPLIT.0);
            let split = sides.iter().any(|s| s.1.contains(BarrierSync::SPLIT));
            if sync.is_empty() && !split && access != BarrierAccess::NO_ACCESS {
                return Err(Refusal::Invalid(format!(
                    "Sync{side} none goes with Access{side} no_access only (R-BAR-8)"
                )));
            }
            if access == BarrierAccess::NO_ACCESS || access == BarrierAccess::COMMON {
                continue;
            }
            if access.contains(BarrierAccess::NO_ACCESS) {
                return Err(Refusal::Invalid(format!(
                    "Access{side} combines no_access with other accesses (R-BAR-8)"
                )));
            }
            if !sync.is_empty() {
                for bit in 0..31 {
                    let one = BarrierAccess(1 << bit);
                    if access.contains(one) && !access_syncs(one).intersects(sync) {
                        return Err(Refusal::Invalid(format!(
                            "Access{side} {one} is not compatible with Sync{side} {sync} (R-BAR-8)"
                        )));
                    }
                }
            }
            let both_undefined = b.layout_before == BarrierLayout::Undefined
                && b.layout_after == BarrierLayout::Undefined;
            if b.kind == BarrierKind::Texture
                && !both_undefined
                && !layout_accesses(layout).contains(access)
            {
                return Err(Refusal::Invalid(format!(
                    "Access{side} {access} is not compatible with Layout{side} {} (R-BAR-8)",
                    layout.name()
                )));
            }
        }
        Ok(())
    }

    /// The effects of a checked barrier: layouts, compression, costs.
    fn apply_barrier(&mut self, b: &Barrier, cost: &mut GroupCost) {
        self.counters.barriers += 1;
        let expand = |access: BarrierAccess, layout: BarrierLayout| {
            if access == BarrierAccess::NO_ACCESS {
                BarrierAccess::COMMON
            } else if access == BarrierAccess::COMMON {
                match b.kind {
                    BarrierKind::Texture => layout_accesses(layout),
                    BarrierKind::Buffer => BUFFER_ACCESSES,
                    BarrierKind::Global => ALL_ACCESSES,
                }
            } else {
                access
            }
        };
        let before = expand(b.access_before, b.layout_before);
        let after = expand(b.access_after, b.layout_after);
        let written = BarrierAccess(before.0 & WRITES.0);
        let mut made_visible = !written.is_empty();
        let mut layout_change = false;
        if b.kind == BarrierKind::Texture {
            if let Some(r) = b.resource {
                let (changed, decompressed) = self.apply_layouts(b, r.handle, written, after);
                layout_change = changed;
                made_visible |= decompressed || b.discard;
            }
        }
        let work = !written.is_empty() || after.intersects(WRITES) || layout_change || b.discard;
        if work {
            let sync_before = BarrierSync(b.sync_before.0 & !BarrierSync::SPLIT.0);
            let sync_after = BarrierSync(b.sync_after.0 & !BarrierSync::SPLIT.0);
            cost.drain |= !sync_before.is_empty();
            cost.stall |= !sync_after.is_empty();
            cost.flush |= caches(written);
            if made_visible {
                cost.invalidate |= caches(after);
            }
        }
        if b.is_split_begin() {
            cost.split = true;
            self.barriers.open_splits.push((*b, false));
        }
    }

    /// A texture barrier's layouts and compression (R-BAR-3). Returns whether a layout changed
    /// and whether it decompressed.
    fn apply_layouts(
        &mut self,
        b: &Barrier,
        texture: RawHandle,
        written: BarrierAccess,
        after: BarrierAccess,
    ) -> (bool, bool) {
        let validating = self.validator.is_some();
        if !self.barriers.textures.contains_key(&texture) {
            let facts = self.facts(texture).unwrap_or(Facts::UNKNOWN);
            self.barriers
                .textures
                .insert(texture, TextureLayouts::new(facts));
        }
        let compressed_now = self.compressed.contains(&texture);
        let Some(t) = self.barriers.textures.get_mut(&texture) else {
            return (false, false);
        };
        let f = t.facts;
        let mut planes = match t.planes {
            Some(p) if compressed_now => p,
            _ => [compressed_now; 2],
        };
        if f.planes < 2 {
            planes[1] = planes[0];
        }
        let range = &b.subresources;
        let (Some(mips), Some(slices), Some(plane_span)) = (
            clamp(range.mips, f.mips),
            clamp(range.array, f.slices),
            clamp(range.planes, f.planes as u16),
        ) else {
            return (false, false);
        };
        let whole = mips == (0, f.mips - 1) && slices == (0, f.slices - 1);
        if validating
            && matches!(
                b.layout_after,
                BarrierLayout::Common
                    | BarrierLayout::DirectQueueCommon
                    | BarrierLayout::ComputeQueueCommon
            )
        {
            self.barriers.to_common.push(*b);
        }
        let mut changed = false;
        let mut decompressed = false;
        let into_compressed = f.metadata && compressed_layout(b.layout_after, f.tc);
        let dcc_read = f.dcc && !f.tc && !written.is_empty() && !after.intersects(WRITES);
        for plane in plane_span.0..=plane_span.1 {
            for slice in slices.0..=slices.1 {
                for mip in mips.0..=mips.1 {
                    let i = t.index(mip, slice, plane);
                    if let Some(l) = t.layouts.get_mut(i) {
                        changed |= *l != b.layout_after;
                        *l = b.layout_after;
                    }
                }
            }
            let p = (plane as usize).min(1);
            if b.discard {
                // Metadata initialised: compressed if the new layout is (R-BAR-3).
                planes[p] = into_compressed && (whole || planes[p]);
            } else if planes[p] && (!into_compressed || dcc_read) {
                // Per-resource metadata: the whole plane decompresses.
                planes[p] = false;
                decompressed = true;
            } else if !planes[p] && into_compressed && whole && b.layout_before != b.layout_after {
                planes[p] = true;
            }
        }
        if f.planes < 2 {
            planes[1] = planes[0];
        }
        t.planes = (planes[0] != planes[1]).then_some(planes);
        if b.discard {
            self.counters.metadata_inits += 1;
        }
        if decompressed {
            self.counters.decompressions += 1;
        }
        let any = planes[0] || planes[1];
        if any != compressed_now {
            if any {
                self.compressed.insert(texture);
            } else {
                self.compressed.remove(&texture);
            }
            // As a decompression: legacy bound views follow, fast ones after a re-bind (R-ST-9).
            self.compression_changed(self.barriers.semantics, texture);
        }
        (changed, decompressed)
    }
}
