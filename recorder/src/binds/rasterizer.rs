//! The rasterizer binds (R-REC-5): `set_rasterizer_state`, `set_viewports`, `set_scissor_rects`.
//!
//! **In:** a rasterizer state, viewports or rectangles. **Out:** one binding command each, and on
//! a legacy context the shadow's copy of the registers.
//!
//! **Invariant.** More viewports or rectangles than [`VIEWPORT_SLOTS`] refuse the call as a whole
//! (`invalid_argument`, R-OBJ-5); a released state refuses it (`released_object`).

use crate::binds::resolve::slot_range;
use crate::command::*;
use crate::context::role::Role;
use crate::context::shadow::LegacyShadow;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::errors::Error;
use crate::limits::*;

impl<R: Role> Recorder<R> {
    /// [`InheritedStateCalls::set_rasterizer_state`](crate::InheritedStateCalls::set_rasterizer_state): its semantics.
    pub(crate) fn set_rasterizer_state(&mut self, state: Option<RasterizerState>) {
        self.begin_call();
        let handle = state.map_or(RawHandle::NULL, |s| s.0);
        if let Err(error) = self.try_set_state(
            ObjectKind::RasterizerState,
            "set_rasterizer_state",
            handle,
            |s| &mut s.bindings.rasterizer,
        ) {
            return self.fail(error);
        }
        self.emit(Opcode::SetRasterizerState, 0, None, handle);
    }

    /// Validates a state object and moves the legacy binding to it.
    pub(crate) fn try_set_state(
        &mut self,
        kind: ObjectKind,
        call: &'static str,
        handle: RawHandle,
        slot: impl FnOnce(&mut LegacyShadow) -> &mut RawHandle,
    ) -> Result<(), Error> {
        if !handle.is_null() {
            let table = match kind {
                ObjectKind::BlendState => &self.device.blend_states,
                ObjectKind::DepthStencilState => &self.device.depth_stencil_states,
                _ => &self.device.rasterizer_states,
            };
            table
                .get(handle, false)
                .map_err(|_| self.stale(call, kind, handle))?;
        }
        self.shadow_slots(call, kind, &[handle], |s| std::slice::from_mut(slot(s)))
    }

    /// [`InheritedStateCalls::set_viewports`](crate::InheritedStateCalls::set_viewports): its semantics.
    pub(crate) fn set_viewports(&mut self, viewports: &[Viewport]) {
        self.begin_call();
        if viewports.len() > VIEWPORT_SLOTS as usize {
            return self.fail(slot_range(
                "set_viewports",
                "viewport",
                0,
                viewports.len(),
                VIEWPORT_SLOTS,
            ));
        }
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_viewports(viewports);
        }
        if let Err(error) = self.emit_with(
            "set_viewports",
            Opcode::SetViewports,
            0,
            None,
            Empty,
            viewports,
        ) {
            self.fail(error);
        }
    }

    /// [`InheritedStateCalls::set_scissor_rects`](crate::InheritedStateCalls::set_scissor_rects): its semantics.
    pub(crate) fn set_scissor_rects(&mut self, rects: &[Rect]) {
        self.begin_call();
        if rects.len() > VIEWPORT_SLOTS as usize {
            return self.fail(slot_range(
                "set_scissor_rects",
                "scissor",
                0,
                rects.len(),
                VIEWPORT_SLOTS,
            ));
        }
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_scissor_rects(rects);
        }
        if let Err(error) = self.emit_with(
            "set_scissor_rects",
            Opcode::SetScissorRects,
            0,
            None,
            Empty,
            rects,
        ) {
            self.fail(error);
        }
    }
}
