//! The legacy immediate context's re-bind after a present (R-EX-7, seed 000): the present shifted
//! the identity of every view of the chain's back buffers (`device/swap_chain_views.rs`), and the
//! driver re-binds the slots bound to such views, so the next draw reads the buffer the view names
//! now. A fast immediate context has nothing to re-bind: its present cleared the state.
//!
//! **In:** the swap chain presented; the shadow's bindings. **Out:** the ordinary binds again,
//! through the same calls an application makes (so references, the wait a legacy bind of a back
//! buffer inserts and the input/output rule of R-ST-10 are theirs): the render targets and depth
//! stencil as one `set_render_targets` when any of them is such a view, and each shader-resource
//! slot holding one. UAVs of back buffers are not re-bound (left: the model's back buffers have
//! no UNORDERED_ACCESS bind flag, so no such UAV exists).

use crate::command::{BoundView, ViewFlags};
use crate::context::role::ImmediateRole;
use crate::context::Recorder;
use crate::device::handle::{
    DepthStencilView, Handle, ObjectKind, RenderTargetView, ShaderResourceView, SwapChain,
};
use crate::state::STAGES;
use crate::Stage;

impl Recorder<ImmediateRole> {
    /// Re-binds the slots holding a view of `chain`'s back buffers whose buffer moved since the
    /// bind (module essay). Nothing under fast semantics (no shadow).
    pub fn rebind_swap_chain_views(&mut self, chain: SwapChain) {
        let Some(bindings) = self.legacy_state() else {
            return;
        };
        let device = &self.device;
        // A slot whose view now names another buffer of `chain` than the one it encoded.
        let moved = |kind: ObjectKind, bound: &BoundView| {
            bound.flags.has(ViewFlags::BACK_BUFFER)
                && device
                    .view_back_buffer(kind, bound.view)
                    .is_some_and(|(texture, c, _)| c == chain && texture != bound.resource)
        };
        let count = (bindings.render_target_count as usize).min(bindings.render_targets.len());
        let targets = &bindings.render_targets[..count];
        let rebind_targets = targets
            .iter()
            .any(|b| moved(ObjectKind::RenderTargetView, b))
            || moved(ObjectKind::DepthStencilView, &bindings.depth_stencil);
        let render_targets: Vec<Option<RenderTargetView>> = targets
            .iter()
            .map(|b| (!b.view.is_null()).then(|| RenderTargetView::from_raw(b.view)))
            .collect();
        let depth = bindings.depth_stencil.view;
        let depth = (!depth.is_null()).then(|| DepthStencilView::from_raw(depth));
        let mut views = Vec::new();
        for (s, slots) in bindings.shader_resources.iter().enumerate().take(STAGES) {
            for (slot, bound) in slots.iter().enumerate() {
                if moved(ObjectKind::ShaderResourceView, bound) {
                    views.push((Stage::ALL[s], slot as u32, bound.view));
                }
            }
        }
        if rebind_targets {
            self.set_render_targets(&render_targets, depth);
        }
        for (stage, slot, view) in views {
            let view = ShaderResourceView::from_raw(view);
            self.set_shader_resources(stage, slot, &[Some(view)]);
        }
    }
}
