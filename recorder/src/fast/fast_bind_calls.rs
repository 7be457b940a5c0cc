//! [`FastBindCalls`]: the engine's fast binds (R-FX-1), placement binds (R-FX-2) and the
//! minimum-LOD calls (R-ST-6), the capability every context has, a bundle recorder too.
//!
//! **In:** the application's calls. **Out:** the same calls on the context's recording core
//! (`fast_resources.rs`, `compression_min_lod.rs`).
//!
//! **Invariant.** Each method is the core's call, inlined.

use crate::call_arguments::{FastResource, FastResourceBatch};
use crate::context::core_access::{Context, CoreAccess};
use crate::desc::*;
use crate::device::handle::*;

/// Fast and placement binds and minimum LOD (R-FX-1, R-FX-2, R-ST-6): every context, bundle
/// recorders too.
pub trait FastBindCalls: Context {
    /// Binds many slots of several kinds in one call, always under the fast contract
    /// (`SetFastResources`, R-FX-1): no reference, no split point, the view's minimum LOD.
    ///
    /// Binds every entry under the fast contract, whatever the context's semantics (R-FX-1; see
    /// the module essay): no reference, no split point, the view's minimum LOD. Refused as a
    /// whole (nothing bound) when an entry's slot passes its kind's slots, an object is
    /// released, lacks its bind flag, or is a dynamic buffer this list has not mapped.
    #[inline]
    fn set_fast_resources(&mut self, entries: &[FastResource]) {
        self.recorder(CoreAccess(())).set_fast_resources(entries)
    }

    /// Checks `entries` and appends them to `batch` (`SetFastResourcesIntoBatch`, R-FX-1).
    ///
    /// Checks `entries` against the device (slots, bind flags, liveness) and appends them to
    /// `batch` (R-FX-1). Refused as a whole (the batch unchanged) as
    /// [`set_fast_resources`](Self::set_fast_resources) refuses (a dynamic buffer is checked
    /// when the batch is applied, against the list that applies it). Records nothing.
    #[inline]
    fn set_fast_resources_into_batch(
        &mut self,
        batch: &mut FastResourceBatch,
        entries: &[FastResource],
    ) {
        self.recorder(CoreAccess(()))
            .set_fast_resources_into_batch(batch, entries)
    }

    /// Applies a batch in one call, as `set_fast_resources` of its entries (R-FX-1).
    ///
    /// Applies `batch` in one call (R-FX-1): as [`set_fast_resources`](Self::set_fast_resources)
    /// of its entries. A batch naming an object released since is refused (`released_object`
    /// naming it), nothing bound. Allocates nothing.
    #[inline]
    fn set_fast_resources_from_batch(&mut self, batch: &FastResourceBatch) {
        self.recorder(CoreAccess(()))
            .set_fast_resources_from_batch(batch)
    }

    /// Binds one shader-resource view under the fast contract (`XXSetFastShaderResource`, R-FX-1).
    ///
    /// Binds one shader-resource view under the fast contract (R-FX-1,
    /// `XXSetFastShaderResource`): [`set_fast_resources`](Self::set_fast_resources) of one entry.
    #[inline]
    fn set_fast_shader_resource(
        &mut self,
        stage: Stage,
        slot: u32,
        view: Option<ShaderResourceView>,
    ) {
        self.recorder(CoreAccess(()))
            .set_fast_shader_resource(stage, slot, view)
    }

    /// Binds a view of a default resource placed at `address` (`XXSetPlacementShaderResource`,
    /// R-FX-2).
    ///
    /// Binds `view` to `stage`'s slot with its resource placed at `address` (R-FX-2,
    /// `XXSetPlacementShaderResource`): the fast contract, the binding reads
    /// [`InstanceId::placed`](crate::command::InstanceId::placed)`(address)`. Refused when the view's resource is a buffer of other
    /// than default usage (`invalid_argument`, R-FX-2), and as `set_fast_shader_resource`.
    #[inline]
    fn set_placement_shader_resource(
        &mut self,
        stage: Stage,
        slot: u32,
        view: ShaderResourceView,
        address: u64,
    ) {
        self.recorder(CoreAccess(()))
            .set_placement_shader_resource(stage, slot, view, address)
    }

    /// Binds a default-usage constant buffer placed at `address` (`SetPlacement`, R-FX-2).
    ///
    /// Binds a default-usage constant buffer placed at `address` (R-FX-2, `SetPlacement` as the
    /// buffer is set): as [`set_placement_shader_resource`](Self::set_placement_shader_resource).
    #[inline]
    fn set_placement_constant_buffer(
        &mut self,
        stage: Stage,
        slot: u32,
        buffer: Buffer,
        address: u64,
    ) {
        self.recorder(CoreAccess(()))
            .set_placement_constant_buffer(stage, slot, buffer, address)
    }

    /// Binds a default-usage vertex buffer placed at `address` (R-FX-2).
    ///
    /// Binds a default-usage vertex buffer placed at `address` (R-FX-2): as
    /// [`set_placement_shader_resource`](Self::set_placement_shader_resource).
    #[inline]
    fn set_placement_vertex_buffer(
        &mut self,
        slot: u32,
        buffer: Buffer,
        stride: u32,
        offset: u32,
        address: u64,
    ) {
        self.recorder(CoreAccess(()))
            .set_placement_vertex_buffer(slot, buffer, stride, offset, address)
    }

    /// Binds a default-usage index buffer placed at `address` (`IASetPlacementIndexBuffer`,
    /// R-FX-2).
    ///
    /// Binds a default-usage index buffer placed at `address`, with indices of `format`
    /// (R-FX-2, `IASetPlacementIndexBuffer`): as
    /// [`set_placement_shader_resource`](Self::set_placement_shader_resource); the reset index
    /// follows the context's index-buffer rule (R-ST-5).
    #[inline]
    fn set_placement_index_buffer(&mut self, buffer: Buffer, address: u64, format: Format) {
        self.recorder(CoreAccess(()))
            .set_placement_index_buffer(buffer, address, format)
    }

    /// Clamps a texture's mip levels (`SetResourceMinLOD`).
    ///
    /// Sets a texture's minimum LOD, at once, for every context (legacy binds read it, R-ST-6).
    #[inline]
    fn set_resource_min_lod(&mut self, texture: Texture, min_lod: f32) {
        self.recorder(CoreAccess(()))
            .set_resource_min_lod(texture, min_lod)
    }

    /// Clamps a view's mip levels (`SetShaderResourceViewMinLOD`).
    ///
    /// Sets a view's minimum LOD, at once, for every context (fast binds read it, R-ST-6).
    #[inline]
    fn set_shader_resource_view_min_lod(&mut self, view: ShaderResourceView, min_lod: f32) {
        self.recorder(CoreAccess(()))
            .set_shader_resource_view_min_lod(view, min_lod)
    }
}
