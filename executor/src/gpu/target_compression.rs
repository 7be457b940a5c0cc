//! Texture compression as the GPU model tracks it (R-ST-9): which textures are compressed now,
//! and how the output merger sees its bound targets' compression.
//!
//! **In:** the commands that compress or decompress (clears of a compressible view,
//! `decompress_resource`, `set_resource_compression`), binds of render targets and depth
//! stencils, the draws that write those targets, and the decompressions a split point or a legacy
//! immediate bind asks for. **Out:** the model's `compressed` set, the output merger's view of
//! each bound target (`GpuState::target_compression`), and `decompressions` counted.
//!
//! **Invariant.** A bound target's view of its compression is taken at the bind; afterwards a
//! legacy command that changes the texture's compression updates it (the driver tracks the
//! output merger's bindings), a fast one does not (the view must be bound again, seed 000). Any
//! change of a texture's compression makes the last graphics record stale (`graphics_valid`).

use recorder::command::{BoundView, ViewFlags};
use recorder::limits::RENDER_TARGET_SLOTS;
use recorder::{RawHandle, Semantics};

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
        let was = self.compressed.remove(&texture);
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
    /// decompressed while the source stays compressed.
    #[inline]
    pub(super) fn decompress_resource(
        &mut self,
        semantics: Semantics,
        resource: RawHandle,
        into: RawHandle,
    ) {
        self.use_resource(semantics, resource);
        self.use_resource(semantics, into);
        if into.is_null() {
            self.decompress(resource);
            self.compression_changed(semantics, resource);
        } else {
            // The source stays compressed; the copy is written decompressed.
            if self.compressed.contains(&resource) {
                self.counters.decompressions += 1;
            }
            self.compressed.remove(&into);
            self.compression_changed(semantics, into);
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
        self.compression_changed(semantics, resource);
    }
}
