//! The output-merger binds (R-REC-5, R-ST-10): render targets and the depth-stencil view, with or
//! without the output-merger UAVs, and the blend and depth-stencil states.
//!
//! **In:** views and states. **Out:** one binding command each; on a legacy context a
//! `set_render_targets` split point, and the null binds of the shader-resource views of every
//! resource now bound for output (`bind_hazards.rs`).
//!
//! **Invariant.** Under legacy semantics no shader-resource slot holds a view of a resource the
//! context has bound for output, in what it encodes and in what its shadow keeps.

use crate::binds::resolve::{check_range, in_place, SlotCall};
use crate::command::*;
use crate::context::role::Role;
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::errors::Error;
use crate::limits::*;
use crate::state::{BlendRecord, DepthStencilRecord};
use std::mem::MaybeUninit;

impl<R: Role> Recorder<R> {
    /// [`InheritedStateCalls::set_render_targets`](crate::InheritedStateCalls::set_render_targets): its semantics.
    pub(crate) fn set_render_targets(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
    ) {
        self.begin_call();
        if let Err(error) = self.try_set_render_targets(render_targets, depth_stencil, None) {
            self.fail(error);
        }
    }

    /// [`InheritedStateCalls::set_render_targets_and_unordered_access_views`](crate::InheritedStateCalls::set_render_targets_and_unordered_access_views): its semantics.
    pub(crate) fn set_render_targets_and_unordered_access_views(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
        uav_start: u32,
        uavs: &[Option<UnorderedAccessView>],
    ) {
        self.begin_call();
        if let Err(error) =
            self.try_set_render_targets(render_targets, depth_stencil, Some((uav_start, uavs)))
        {
            self.fail(error);
        }
    }

    fn try_set_render_targets(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
        uavs: Option<(u32, &[Option<UnorderedAccessView>])>,
    ) -> Result<(), Error> {
        // A refusal names the method the application called.
        let call = match uavs {
            None => "set_render_targets",
            Some(_) => "set_render_targets_and_unordered_access_views",
        };
        check_range(
            call,
            "render-target",
            0,
            render_targets.len(),
            RENDER_TARGET_SLOTS,
        )?;
        if let Some((start, views)) = uavs {
            check_range(
                call,
                "output-merger unordered-access",
                start,
                views.len(),
                GRAPHICS_UAV_SLOTS,
            )?;
            if !views.is_empty() && start < render_targets.len() as u32 {
                return Err(Error::UavOverlapsRenderTargets {
                    call,
                    start,
                    render_targets: render_targets.len(),
                });
            }
        }
        let mut targets = [BoundView::NULL; RENDER_TARGET_SLOTS as usize];
        for (target, rtv) in targets.iter_mut().zip(render_targets) {
            let handle = rtv.map_or(RawHandle::NULL, |v| v.0);
            *target = self
                .resolve_view(call, ObjectKind::RenderTargetView, handle, false)?
                .0;
        }
        let dsv_handle = depth_stencil.map_or(RawHandle::NULL, |v| v.0);
        let dsv = self
            .resolve_view(call, ObjectKind::DepthStencilView, dsv_handle, false)?
            .0;
        if let Some((_, views)) = uavs {
            // Check the UAVs before anything is recorded: the call is refused as a whole.
            for view in views {
                self.resolve_uav(call, Stage::Pixel, *view)?;
            }
        }
        self.shadow_slots(call, ObjectKind::RenderTargetView, &targets, |s| {
            &mut s.bindings.render_targets[..]
        })?;
        self.shadow_slots(call, ObjectKind::DepthStencilView, &[dsv], |s| {
            std::slice::from_mut(&mut s.bindings.depth_stencil)
        })?;
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.render_target_count = render_targets.len() as u32;
        }
        let split = self.legacy_split(SplitCategory::SetRenderTargets);
        let payload = RenderTargetsPayload::new(dsv, render_targets.len() as u32, KEEP, 0);
        self.emit_with(
            call,
            Opcode::SetRenderTargets,
            0,
            split,
            payload,
            &targets[..render_targets.len()],
        )?;
        let mut bound = Ok(());
        if let Some((start, views)) = uavs {
            bound = self.bind_om_uavs(
                call,
                start,
                views.len(),
                in_place(|this: &mut Self, i| this.resolve_uav(call, Stage::Pixel, views[i])),
                true,
            );
        }
        // Legacy: the targets' and UAVs' resources are bound for output now (R-ST-10), the
        // targets even if the UAVs were refused after them.
        self.unbind_inputs_bound_for_output();
        bound
    }

    /// The UAV half of an output-merger bind: the other OM UAV slots are unbound.
    pub(crate) fn bind_om_uavs(
        &mut self,
        call: &'static str,
        start: u32,
        count: usize,
        resolve: impl FnMut(
            &mut Self,
            usize,
            &mut MaybeUninit<BoundView>,
        ) -> Result<Option<SplitCategory>, Error>,
        update_shadow: bool,
    ) -> Result<(), Error> {
        let slots = SlotCall {
            name: call,
            opcode: Opcode::SetRenderTargets,
            operand: 0,
            start,
            count,
            call_split: self.legacy_split(SplitCategory::SetUnorderedAccessViews),
            dynamic_split: SplitCategory::DynamicShaderResource,
        };
        let payload = |start, count, patch| RenderTargetsPayload {
            flags: if patch {
                RenderTargetsPayload::PATCH
            } else {
                0
            },
            ..RenderTargetsPayload::new(BoundView::NULL, KEEP, start, count)
        };
        self.bind_slots(slots, payload, resolve, |this, items| {
            if !update_shadow {
                return Ok(());
            }
            // The other output-merger UAV slots are unbound.
            let mut all = [BoundView::NULL; GRAPHICS_UAV_SLOTS as usize];
            all[start as usize..start as usize + items.len()].copy_from_slice(items);
            this.shadow_slots(call, ObjectKind::UnorderedAccessView, &all, |s| {
                &mut s.bindings.om_uavs[..]
            })
        })
    }

    /// [`InheritedStateCalls::set_blend_state`](crate::InheritedStateCalls::set_blend_state): its semantics.
    pub(crate) fn set_blend_state(
        &mut self,
        state: Option<BlendState>,
        factor: [f32; 4],
        sample_mask: u32,
    ) {
        self.begin_call();
        let handle = state.map_or(RawHandle::NULL, |s| s.0);
        if let Err(error) =
            self.try_set_state(ObjectKind::BlendState, "set_blend_state", handle, |s| {
                &mut s.bindings.blend.state
            })
        {
            return self.fail(error);
        }
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_blend(BlendRecord {
                state: handle,
                factor,
                sample_mask,
            });
        }
        self.emit(
            Opcode::SetBlendState,
            0,
            None,
            StatePayload::new(handle, factor, sample_mask),
        );
    }

    /// [`InheritedStateCalls::set_depth_stencil_state`](crate::InheritedStateCalls::set_depth_stencil_state): its semantics.
    pub(crate) fn set_depth_stencil_state(
        &mut self,
        state: Option<DepthStencilState>,
        stencil_ref: u32,
    ) {
        self.begin_call();
        let handle = state.map_or(RawHandle::NULL, |s| s.0);
        if let Err(error) = self.try_set_state(
            ObjectKind::DepthStencilState,
            "set_depth_stencil_state",
            handle,
            |s| &mut s.bindings.depth_stencil_state.state,
        ) {
            return self.fail(error);
        }
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_depth_stencil_state(DepthStencilRecord {
                state: handle,
                stencil_ref,
            });
        }
        let split = self.legacy_split(SplitCategory::SetDepthStencilState);
        self.emit(
            Opcode::SetDepthStencilState,
            0,
            split,
            StatePayload::new(handle, [0.0; 4], stencil_ref),
        );
    }
}
