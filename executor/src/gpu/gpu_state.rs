//! The GPU model's register and binding state ([`GpuState`]), what a legacy `execute_command_list(list,
//! restore = true)` saves and puts back (R-ST-2) and what the legacy getters read (R-ST-4).
//!
//! The bindings are the shared binding-state type ([`recorder::state::Bindings`]), the one the
//! legacy shadow of a deferred context and the bundle overlay use too, updated by its one
//! `apply`. Beside it, in a field of its own, the model's extra: how the output merger sees its
//! targets' compression (R-ST-9), which only the model knows (it depends on the resources'
//! compression at execution). It is saved and put back with the bindings, as the hardware's
//! output-merger state is.

use recorder::command::{BoundBuffer, BoundShader, BoundView};
use recorder::limits::*;
use recorder::state::Bindings;
use recorder::{PrimitiveTopology, RawHandle, Rect, Stage, Viewport};

use crate::draw_record::*;

/// The register and binding state of the model; `Default` is the ClearState defaults. Opaque:
/// taken by [`GpuModel::snapshot`](super::GpuModel::snapshot) and put back by [`GpuModel::restore`](super::GpuModel::restore) (a legacy
/// `execute_command_list(list, restore = true)`, R-ST-2).
#[derive(Clone, Debug, PartialEq)]
pub struct GpuState {
    /// Every binding and binding register, as encoded.
    pub(super) bindings: Bindings,
    /// Whether each bound render target (then the depth stencil, last) was compressed as the
    /// output merger sees it: taken when it was bound, kept up to date by legacy semantics only
    /// (R-ST-9: under fast, a bound target's change of compression is seen after a re-bind).
    pub(super) target_compression: [bool; RENDER_TARGET_SLOTS as usize + 1],
}

impl Default for GpuState {
    fn default() -> Self {
        Self {
            bindings: Bindings::default(),
            target_compression: [false; RENDER_TARGET_SLOTS as usize + 1],
        }
    }
}

impl GpuState {
    /// Back to the ClearState defaults, in place: the bindings (`Bindings::clear`) and the
    /// output merger's view of the targets.
    pub(super) fn clear(&mut self) {
        self.bindings.clear();
        self.clear_target_compression();
    }

    /// No target is seen compressed (none is bound after ClearState).
    pub(super) fn clear_target_compression(&mut self) {
        self.target_compression = [false; RENDER_TARGET_SLOTS as usize + 1];
    }

    /// Every binding and binding register, to read.
    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }

    /// The primitive reset index in force.
    pub fn reset_index(&self) -> u32 {
        self.bindings.reset_index()
    }

    /// Whether a predicate is set (draws are predicated, split points roll the context).
    pub fn predication_active(&self) -> bool {
        self.bindings.predication_active()
    }

    // What the legacy `get_*` calls read (R-ST-4). Slots out of range read `None`.

    /// The shader bound to `stage` and the slots it reads; [`BoundShader::NULL`] for none.
    pub fn shader(&self, stage: Stage) -> BoundShader {
        self.bindings.shader(stage)
    }

    /// The constant buffer at `slot` of `stage`.
    pub fn constant_buffer(&self, stage: Stage, slot: u32) -> Option<BoundBuffer> {
        self.bindings
            .constant_buffers(stage)
            .get(slot as usize)
            .copied()
    }

    /// The shader resource at `slot` of `stage`.
    pub fn shader_resource(&self, stage: Stage, slot: u32) -> Option<BoundView> {
        self.bindings
            .shader_resources(stage)
            .get(slot as usize)
            .copied()
    }

    /// The sampler state at `slot` of `stage`; null for none.
    pub fn sampler(&self, stage: Stage, slot: u32) -> Option<RawHandle> {
        self.bindings.samplers(stage).get(slot as usize).copied()
    }

    /// The compute stage's UAV at `slot`.
    pub fn compute_unordered_access_view(&self, slot: u32) -> Option<BoundView> {
        self.bindings.compute_uavs().get(slot as usize).copied()
    }

    /// The vertex buffer at `slot`.
    pub fn vertex_buffer(&self, slot: u32) -> Option<BoundBuffer> {
        self.bindings.vertex_buffers().get(slot as usize).copied()
    }

    /// The bound index buffer, its offset and format; [`BoundBuffer::NULL`] for none.
    pub fn index_buffer(&self) -> BoundBuffer {
        self.bindings.index_buffer()
    }

    /// The bound input layout; null for none.
    pub fn input_layout(&self) -> RawHandle {
        self.bindings.input_layout()
    }

    /// The bound primitive topology.
    pub fn topology(&self) -> PrimitiveTopology {
        self.bindings.topology()
    }

    /// The render targets of the last bind, and the depth-stencil view.
    pub fn render_targets(&self) -> (&[BoundView], BoundView) {
        (
            self.bindings.render_targets(),
            self.bindings.depth_stencil(),
        )
    }

    /// The blend state, blend factor and sample mask in force.
    pub fn blend_state(&self) -> BlendRecord {
        self.bindings.blend()
    }

    /// The depth-stencil state and stencil reference in force.
    pub fn depth_stencil_state(&self) -> DepthStencilRecord {
        self.bindings.depth_stencil_state()
    }

    /// The bound rasterizer state; null for the default.
    pub fn rasterizer_state(&self) -> RawHandle {
        self.bindings.rasterizer()
    }

    /// The viewports set, from slot 0.
    pub fn viewports(&self) -> &[Viewport] {
        self.bindings.viewports()
    }

    /// The scissor rectangles set, from slot 0.
    pub fn scissor_rects(&self) -> &[Rect] {
        self.bindings.scissor_rects()
    }

    /// The predicate and the value it predicates on.
    pub fn predication(&self) -> (RawHandle, bool) {
        self.bindings.predication()
    }
}
