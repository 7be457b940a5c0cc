//! The context's own state, as two capabilities a bundle recorder has not:
//! [`InheritedStateCalls`] (render targets and output-merger UAVs, blend, depth-stencil and
//! rasterizer state, viewports, scissors, the primitive reset index, compute UAVs, predication:
//! what a bundle always inherits from the context that calls it, R-B-7) and [`ClearStateCalls`]
//! (`clear_state`, R-B-8).
//!
//! **In:** the application's calls. **Out:** the same calls on the context's recording core
//! (`output_merger.rs`, `rasterizer.rs`, `input_assembler.rs`, `shader_slots.rs`, `queries.rs`).
//!
//! **Invariant.** Each method is the core's call, inlined.

use crate::call_arguments::PredicateValue;
use crate::context::core_access::{Context, CoreAccess};
use crate::desc::*;
use crate::device::handle::*;

/// The state a bundle always inherits (R-B-7): render targets and UAVs, blend, depth-stencil,
/// rasterizer, viewports, scissors, reset index, compute UAVs, predication. Deferred and immediate
/// contexts.
pub trait InheritedStateCalls: Context {
    /// Binds the render targets and depth stencil (`OMSetRenderTargets`).
    ///
    /// Binds `render_targets` to the first render-target slots (the rest are unbound) and the
    /// depth-stencil view (`None` unbinds it); the output-merger UAVs stay bound. Refused when
    /// there are more targets than slots (`invalid_argument`, R-OBJ-5) or a view is released
    /// (`released_object`). Legacy: a `set_render_targets` split point, and shader-resource views
    /// of the targets' resources are unbound (R-ST-10).
    #[inline]
    fn set_render_targets(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
    ) {
        self.recorder(CoreAccess(()))
            .set_render_targets(render_targets, depth_stencil)
    }

    /// Binds the render targets, depth stencil and output-merger UAVs (`OMSetRenderTargetsAndUnorderedAccessViews`).
    ///
    /// Binds render targets and output-merger UAVs at `uav_start..`; the other OM UAV slots are
    /// unbound. Legacy: a `set_render_targets` and a `set_unordered_access_views` split point.
    #[inline]
    fn set_render_targets_and_unordered_access_views(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
        uav_start: u32,
        uavs: &[Option<UnorderedAccessView>],
    ) {
        self.recorder(CoreAccess(()))
            .set_render_targets_and_unordered_access_views(
                render_targets,
                depth_stencil,
                uav_start,
                uavs,
            )
    }

    /// Binds the blend state (`OMSetBlendState`).
    ///
    /// Binds the blend state (`None`: the defaults) with its blend `factor` (RGBA) and
    /// `sample_mask`. A released state refuses the call (`released_object`).
    #[inline]
    fn set_blend_state(&mut self, state: Option<BlendState>, factor: [f32; 4], sample_mask: u32) {
        self.recorder(CoreAccess(()))
            .set_blend_state(state, factor, sample_mask)
    }

    /// Binds the depth-stencil state (`OMSetDepthStencilState`).
    ///
    /// Sets the depth-stencil state: a `set_depth_stencil_state` split point on legacy contexts.
    #[inline]
    fn set_depth_stencil_state(&mut self, state: Option<DepthStencilState>, stencil_ref: u32) {
        self.recorder(CoreAccess(()))
            .set_depth_stencil_state(state, stencil_ref)
    }

    /// Binds the rasterizer state (`RSSetState`).
    ///
    /// Binds the rasterizer state (`None`: the defaults). A released state refuses the call
    /// (`released_object`).
    #[inline]
    fn set_rasterizer_state(&mut self, state: Option<RasterizerState>) {
        self.recorder(CoreAccess(())).set_rasterizer_state(state)
    }

    /// Sets the viewports (`RSSetViewports`).
    ///
    /// Sets the viewports, replacing all of them: slot `i` takes `viewports[i]`, the slots past
    /// them go back to the default. More than the viewport slots is refused (`invalid_argument`,
    /// R-OBJ-5).
    #[inline]
    fn set_viewports(&mut self, viewports: &[Viewport]) {
        self.recorder(CoreAccess(())).set_viewports(viewports)
    }

    /// Sets the scissor rectangles (`RSSetScissorRects`).
    ///
    /// Sets the scissor rectangles, replacing all of them, as
    /// [`set_viewports`](Self::set_viewports) does the viewports. More than the viewport
    /// slots is refused (`invalid_argument`, R-OBJ-5).
    #[inline]
    fn set_scissor_rects(&mut self, rects: &[Rect]) {
        self.recorder(CoreAccess(())).set_scissor_rects(rects)
    }

    /// Sets the primitive reset index.
    ///
    /// Sets the primitive reset (cut) index (R-ST-5). Under legacy semantics the next index
    /// buffer of another format sets it again.
    #[inline]
    fn set_primitive_reset_index(&mut self, value: u32) {
        self.recorder(CoreAccess(()))
            .set_primitive_reset_index(value)
    }

    /// Binds the compute stage's unordered-access views (`CSSetUnorderedAccessViews`).
    ///
    /// Binds compute-shader UAVs: a `set_unordered_access_views` split point on legacy contexts,
    /// plus a decompression split point per view of a compressible target.
    #[inline]
    fn set_compute_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    ) {
        self.recorder(CoreAccess(()))
            .set_compute_unordered_access_views(start, views)
    }

    /// Sets the predicate (`SetPredication`).
    ///
    /// Predicates the following draws on `predicate` (a query of kind predicate), or stops.
    #[inline]
    fn set_predication(&mut self, predicate: Option<Query>, value: PredicateValue) {
        self.recorder(CoreAccess(()))
            .set_predication(predicate, value)
    }

    /// Predicates the following draws on any query's answer (`SetPredicationFromQuery`,
    /// R-FX-3): no reference is taken on the query, even on a legacy context.
    ///
    /// Predicates the following draws on `query`'s answer, of any kind (`None`: stops), as
    /// `set_predication` does with a predicate: a draw is skipped while the answer equals
    /// `value`. No reference is taken on the query, even on a legacy context (see the module
    /// essay).
    #[inline]
    fn set_predication_from_query(&mut self, query: Option<Query>, value: PredicateValue) {
        self.recorder(CoreAccess(()))
            .set_predication_from_query(query, value)
    }
}

/// `ClearState`: deferred and immediate contexts; not a bundle recorder (R-B-8).
pub trait ClearStateCalls: Context {
    /// Resets every binding to the ClearState defaults (`ClearState`).
    ///
    /// Records a ClearState (R-ST-1: explicit on fast contexts, which never do it implicitly).
    #[inline]
    fn clear_state(&mut self) {
        self.recorder(CoreAccess(())).clear_state()
    }
}
