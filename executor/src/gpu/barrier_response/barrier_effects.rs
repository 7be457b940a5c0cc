//! The effects of a barrier the checks accepted (R-BAR-2, R-BAR-3): the layouts and compression
//! of a texture barrier's subresources, and the costs of a group, merged.
//!
//! **In:** a checked barrier, and the [`GroupCost`] of its group so far.
//! **Out:** layouts and compression changed (a decompression seen by bound views as R-ST-9 says),
//! the counters `barriers`, `metadata_inits`, `decompressions`, and at the end of a group
//! `drains`, `stalls`, `cache_flushes`, `cache_invalidations`.
//!
//! **Invariant:** each of the group's wait, hold and end-of-pipe event counts at most once per
//! group, and each cache at most once per group; a barrier without work (read to read in the
//! same layout) costs nothing.

use recorder::{BarrierAccess, BarrierKind, BarrierLayout, BarrierSync, RawHandle};

use super::barrier_tables::{
    caches, compressed_layout, layout_accesses, ALL_ACCESSES, BUFFER_ACCESSES, WRITES,
};
use super::enhanced_barrier::Barrier;
use super::texture_layouts::{clamp, Facts, TextureLayouts};

use crate::gpu::GpuModel;

/// What one group's barriers cost together (R-BAR-2).
#[derive(Default)]
pub(super) struct GroupCost {
    drain: bool,
    stall: bool,
    split: bool,
    flush: u8,
    invalidate: u8,
}

impl GpuModel {
    /// Counts one group's merged costs and starts the next (R-BAR-2).
    pub(super) fn finish_group(&mut self, cost: &mut GroupCost) {
        let c = std::mem::take(cost);
        let counters = &mut self.counters;
        counters.drains += c.drain as u64;
        counters.stalls += c.stall as u64 + 2 * c.split as u64;
        counters.cache_flushes += c.flush.count_ones() as u64;
        counters.cache_invalidations += c.invalidate.count_ones() as u64;
    }

    /// The effects of a checked barrier: layouts, compression, costs.
    pub(super) fn apply_barrier(&mut self, b: &Barrier, cost: &mut GroupCost) {
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
            self.kinds_left.remove(&texture);
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
