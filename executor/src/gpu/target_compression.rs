//! Texture compression as the GPU model tracks it (R-ST-9): which textures are compressed now,
//! and how the output merger sees its bound targets' compression.
//!
//! **In:** the commands that compress or decompress (clears of a compressible view,
//! `decompress_resource` with its kinds and region, `set_resource_compression`), binds of render
//! targets and depth stencils, the draws that write those targets, the decompressions a split
//! point or a legacy immediate bind asks for, and legacy copies and presents. **Out:** the model's `compressed` set, the output merger's view of
//! each bound target (`GpuState::target_compression`), and `decompressions` counted.
//!
//! **Kinds and regions** (`decompress_resource_x`, seed 000's `DecompressResourceX`). What the
//! model tracks: per texture, compressed or not (the `compressed` set); for a depth format, each
//! plane apart (the barrier model's planes, R-BAR-3); and, for a colour target a decompression
//! limited to some kinds left partly compressed, the colour kinds left (`kinds_left`: `clear`,
//! `fmask`, `dcc`; a compressed texture absent from it has every kind it has: `clear` always,
//! `fmask` when multisampled, `dcc` when created with DCC). Decompressing kinds removes them; the
//! texture stays compressed (for validation, binds and copies alike) while a kind it has is left,
//! and the last kind decompresses it. `depth` and `stencil` decompress their plane. Any full
//! compression (a clear, `set_resource_compression`, a draw through the output merger, a barrier
//! into a compressed layout) compresses every kind again. A region: the model tracks the whole
//! resource, so a region that leaves texels or subresources out is decompressed (counted) and
//! leaves the texture compressed with its kinds unchanged; one that covers a one-subresource
//! texture is the whole texture. Into a second texture: counted when the source is compressed,
//! the source unchanged, the second texture written decompressed (when the region is whole).
//!
//! **Copies and presents** (seed 000: a compressible resource used "as source or destination in a
//! CopySubresourceRegion call, or on a back buffer before a call to IDXGISwapChain::Present").
//! Legacy semantics: the driver decompresses a compressed texture a copy reads or writes, and a
//! compressed back buffer it presents, in place, counted, when the command runs (in a legacy
//! list too: the copy resolves it itself, with no split point). Fast semantics: nothing;
//! validation reports it (`validate.rs`, R-V-1).
//!
//! **Invariant.** A bound target's view of its compression is taken at the bind; afterwards a
//! legacy command that changes the texture's compression updates it (the driver tracks the
//! output merger's bindings), a fast one does not (the view must be bound again, seed 000). Any
//! change of a texture's compression makes the last graphics record stale (`graphics_valid`).

use recorder::command::{BoundResource, BoundView, ViewFlags};
use recorder::limits::RENDER_TARGET_SLOTS;
use recorder::{DecompressKinds, DecompressRegion, Format, Handle, RawHandle, Semantics, Texture};

use super::GpuModel;

impl GpuModel {
    /// Decompresses `texture` if it is compressed now, counting one decompression; returns
    /// whether it was (R-SP-4, and legacy immediate binds of R-ST-9). Legacy semantics: the
    /// output merger's view of it follows.
    pub fn decompress_if_compressed(&mut self, texture: RawHandle) -> bool {
        let was = self.decompress(texture);
        self.compression_changed(Semantics::Legacy, texture);
        was
    }

    pub(super) fn decompress(&mut self, texture: RawHandle) -> bool {
        self.graphics_valid = false;
        self.record_valid = false;
        self.stages_valid = 0;
        self.changes.set_everything();
        let was = self.compressed.remove(&texture);
        self.kinds_left.remove(&texture);
        if was {
            self.counters.decompressions += 1;
        }
        was
    }

    /// Render targets and depth stencil were bound: the output merger sees their compression
    /// as it is now (R-ST-9).
    pub(super) fn targets_bound(&mut self) {
        let state = &mut *self.state;
        let targets = state.bindings.render_targets().iter().enumerate();
        let depth_stencil = state.bindings.depth_stencil();
        let depth = std::iter::once((RENDER_TARGET_SLOTS as usize, &depth_stencil));
        for (slot, view) in targets.chain(depth) {
            state.target_compression[slot] = self.compressed.contains(&view.resource);
        }
    }

    /// `texture`'s compression changed by a command of `semantics`. Legacy: the driver tracks
    /// the output merger's bindings and updates the bound views of it. Fast: a bound view keeps
    /// what it had until it is bound again (R-ST-9, seed 000: "that view must be re-bound").
    pub(super) fn compression_changed(&mut self, semantics: Semantics, texture: RawHandle) {
        // A bound target's record reads its compression.
        self.graphics_valid = false;
        if semantics != Semantics::Legacy || texture.is_null() {
            return;
        }
        let compressed = self.compressed.contains(&texture);
        let state = &mut *self.state;
        let targets = state.bindings.render_targets().iter().enumerate();
        let depth_stencil = state.bindings.depth_stencil();
        let depth = std::iter::once((RENDER_TARGET_SLOTS as usize, &depth_stencil));
        for (slot, view) in targets.chain(depth) {
            if view.resource == texture {
                state.target_compression[slot] = compressed;
            }
        }
    }

    /// A draw wrote the bound compressible targets through the output merger, as it sees them:
    /// a target it sees compressed stays (or is again) compressed, one it sees decompressed is
    /// written decompressed (R-ST-9). Returns whether any texture's compression changed.
    pub(super) fn targets_written(&mut self) -> bool {
        let mut changed = false;
        let state = &*self.state;
        let targets = state.bindings.render_targets().iter().enumerate();
        let depth_stencil = state.bindings.depth_stencil();
        let depth = std::iter::once((RENDER_TARGET_SLOTS as usize, &depth_stencil));
        for (slot, view) in targets.chain(depth) {
            if view.resource.is_null() || !view.flags.has(ViewFlags::COMPRESSIBLE_TARGET) {
                continue;
            }
            changed |= if state.target_compression[slot] {
                self.compressed.insert(view.resource)
            } else {
                self.compressed.remove(&view.resource)
            };
            if !self.kinds_left.is_empty() {
                // The output merger writes every kind of compression it sees again.
                changed |= self.kinds_left.remove(&view.resource).is_some();
            }
        }
        changed
    }

    /// Whether `texture` is compressed now.
    pub fn is_compressed(&self, texture: RawHandle) -> bool {
        self.compressed.contains(&texture)
    }

    /// A clear of a render-target or depth-stencil view. Every clear is taken as covering the
    /// whole view (R-ST-9): a compressible target is compressed afterwards.
    #[inline]
    pub(super) fn clear_view(&mut self, semantics: Semantics, view: BoundView) {
        if view.flags.has(ViewFlags::COMPRESSIBLE_TARGET) && !view.resource.is_null() {
            self.compressed.insert(view.resource);
            self.kinds_left.remove(&view.resource);
            self.barriers.planes_joined(view.resource);
            self.compression_changed(semantics, view.resource);
        }
        self.use_resource(semantics, view.resource);
        if view.flags.has(ViewFlags::BACK_BUFFER)
            && semantics == Semantics::Fast
            && self.validator.is_some()
        {
            self.check_back_buffer_write("clear_render_target_view", view.resource);
        }
    }

    /// `decompress_resource`: in place (`into` null), or into a second texture, which is written
    /// decompressed while the source stays compressed; of the `kinds` named, whole or a
    /// `region` (the essay's **Kinds and regions**).
    #[inline]
    pub(super) fn decompress_resource(
        &mut self,
        semantics: Semantics,
        resource: RawHandle,
        into: RawHandle,
        kinds: DecompressKinds,
        region: Option<DecompressRegion>,
    ) {
        self.use_resource(semantics, resource);
        self.use_resource(semantics, into);
        let shape = self.shape(resource);
        let whole = match region {
            None => true,
            Some(r) => shape.is_some_and(|s| s.covers(r)),
        };
        let compressed = self.compressed.contains(&resource);
        if !into.is_null() {
            // The source stays compressed; the copy (or its region) is written decompressed.
            if compressed {
                self.counters.decompressions += 1;
            }
            if whole {
                self.uncompress(into);
                self.compression_changed(semantics, into);
            }
            return;
        }
        if !compressed {
            return;
        }
        if !whole {
            // The region is decompressed; the model tracks the whole resource, still compressed.
            self.counters.decompressions += 1;
            return;
        }
        let Some(shape) = shape.filter(|_| kinds != DecompressKinds::ALL) else {
            self.decompress(resource);
            self.compression_changed(semantics, resource);
            return;
        };
        let changed = if shape.depth {
            self.decompress_planes(
                resource,
                kinds.contains(DecompressKinds::DEPTH),
                kinds.contains(DecompressKinds::STENCIL),
            )
        } else {
            let left = self.kinds_left.get(&resource).copied().unwrap_or(shape.had);
            let now = left.without(kinds);
            if now.is_empty() {
                self.uncompress(resource);
            } else {
                self.kinds_left.insert(resource, now);
            }
            now != left
        };
        if changed {
            self.graphics_valid = false;
            self.counters.decompressions += 1;
            self.compression_changed(semantics, resource);
        }
    }

    /// The colour kinds of `texture` still compressed: `None` when it is not compressed (R-ST-9;
    /// depth planes are [`GpuModel::texture_state`]'s).
    pub fn compressed_kinds(&self, texture: RawHandle) -> Option<DecompressKinds> {
        if !self.compressed.contains(&texture) {
            return None;
        }
        let had = self.shape(texture).map_or(DecompressKinds::ALL, |s| s.had);
        Some(self.kinds_left.get(&texture).copied().unwrap_or(had))
    }

    /// `texture` no longer compressed, whatever kinds were left.
    fn uncompress(&mut self, texture: RawHandle) {
        self.record_valid = false;
        self.stages_valid = 0;
        self.changes.set_everything();
        self.compressed.remove(&texture);
        self.kinds_left.remove(&texture);
    }

    /// What a decompression reads of `texture` from the device: `None` without one.
    fn shape(&self, texture: RawHandle) -> Option<Shape> {
        let device = self.device.as_ref().or(self.validator.as_ref())?;
        let info = device.texture_info(Texture::from_raw(texture))?;
        let (depth, stencil) = match info.format {
            Format::D24UnormS8Uint | Format::D32FloatS8X24Uint => (true, true),
            Format::D32Float | Format::D16Unorm => (true, false),
            _ => (false, false),
        };
        let mut had = DecompressKinds::NONE;
        if depth {
            had = had.union(DecompressKinds::DEPTH);
            if stencil {
                had = had.union(DecompressKinds::STENCIL);
            }
        } else {
            had = had.union(DecompressKinds::CLEAR);
            if info.sample_count > 1 {
                had = had.union(DecompressKinds::FMASK);
            }
            if info.dcc {
                had = had.union(DecompressKinds::DCC);
            }
        }
        Some(Shape {
            width: info.width,
            height: info.height,
            subresources: info.mip_levels.max(1) as u64 * info.array_size.max(1) as u64,
            had,
            depth,
        })
    }

    /// Legacy semantics at a copy (R-ST-9, seed 000: a compressible resource used "as source or
    /// destination in a CopySubresourceRegion call"): the driver decompresses a compressed
    /// texture among them in place, counted, before the copy engine reads or writes it.
    pub(super) fn legacy_copy_decompresses(
        &mut self,
        destination: BoundResource,
        source: BoundResource,
    ) {
        for r in [destination, source] {
            if r.is_texture != 0 && self.compressed.contains(&r.resource) {
                self.decompress_if_compressed(r.resource);
            }
        }
    }

    /// `texture`, a back buffer, presented by a context of `semantics`: legacy semantics
    /// decompresses it if it is compressed, counted (seed 000: a back buffer "before a call to
    /// IDXGISwapChain::Present to propagate its initial clear color"); fast semantics leaves it
    /// (validation reports it, [`GpuModel::validate_present`]).
    pub fn back_buffer_presented(&mut self, texture: RawHandle, semantics: Semantics) {
        if semantics == Semantics::Legacy && !texture.is_null() {
            self.decompress_if_compressed(texture);
        }
    }

    /// `set_resource_compression`: the texture compressed (both planes joined) or not.
    #[inline]
    pub(super) fn set_compression(
        &mut self,
        semantics: Semantics,
        resource: RawHandle,
        compressed: bool,
    ) {
        if compressed {
            self.compressed.insert(resource);
            self.barriers.planes_joined(resource);
        } else {
            self.compressed.remove(&resource);
        }
        self.kinds_left.remove(&resource);
        self.compression_changed(semantics, resource);
    }
}

/// What a decompression reads of a texture (`GpuModel::shape`).
#[derive(Clone, Copy)]
struct Shape {
    width: u32,
    height: u32,
    subresources: u64,
    /// The kinds of compression it has.
    had: DecompressKinds,
    depth: bool,
}

impl Shape {
    /// Whether `region` is the whole resource: its only subresource, every texel.
    fn covers(&self, region: DecompressRegion) -> bool {
        let r = region.rect;
        self.subresources == 1
            && region.subresource == 0
            && (r.left, r.top) == (0, 0)
            && (r.right, r.bottom) == (self.width, self.height)
    }
}
