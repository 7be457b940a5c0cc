//! Carrying a legacy context's state into its next list (R-ST-1): after
//! `finish_command_list(RestoreState::Restore)`, the next list starts by re-binding everything the context had
//! bound, through the same encoding as the calls that set it. Dynamic bindings become split
//! points again (their data stayed with the previous list, R-SP-1), and so do render-target,
//! UAV and depth-stencil-state binds and views of compressible targets, as they would be if the
//! application re-issued the calls.

use crate::command::*;
use crate::context::Recorder;
use crate::desc::Stage;

use crate::binds::resolve::{in_place, slots_payload, Bound, SlotCall};
use crate::context::role::Role;
use crate::context::shadow::LegacyShadow;
use crate::context::split::SplitCategory;
use crate::errors::Error;
use crate::state::{Bindings, BlendRecord, DepthStencilRecord, ResetIndex};

/// A carried binding of a buffer: a dynamic one is resolved again at execution.
fn carried_buffer(
    buffer: &BoundBuffer,
    dynamic: bool,
    category: SplitCategory,
) -> (BoundBuffer, Option<SplitCategory>) {
    if dynamic {
        (
            BoundBuffer {
                instance: InstanceId::RESOLVE_AT_EXECUTION,
                ..*buffer
            },
            Some(category),
        )
    } else {
        (*buffer, None)
    }
}

/// A carried binding of a view: dynamic views are resolved again, views of compressible targets
/// are decompression split points again, unless a fast call bound it (`fast`: the fast contract
/// binds it as told, R-FX-1, and its carried bind keeps that contract).
fn carried_view(view: &BoundView, fast: bool) -> (BoundView, Option<SplitCategory>) {
    if view.flags.has(ViewFlags::DYNAMIC) {
        (
            BoundView {
                instance: InstanceId::RESOLVE_AT_EXECUTION,
                ..*view
            },
            Some(SplitCategory::DynamicShaderResource),
        )
    } else if view.flags.has(ViewFlags::COMPRESSIBLE_TARGET) && !fast {
        (*view, Some(SplitCategory::Decompression))
    } else {
        (*view, None)
    }
}

/// Carried bindings already hold their binding references: nothing to record in the shadow.
fn keep<T, R: Role>(_: &mut Recorder<R>, _: &[T]) -> Result<(), Error> {
    Ok(())
}

fn any_bound<T: Bound>(slots: &[T]) -> bool {
    slots.iter().any(|slot| !slot.handle().is_null())
}

impl<R: Role> Recorder<R> {
    /// Re-encodes a whole slot array, from slot 0, if anything is bound in it: `carried` gives
    /// each slot's binding and split point in the new list.
    fn carry_slots<T: Bound>(
        &mut self,
        opcode: Opcode,
        operand: u8,
        dynamic_split: SplitCategory,
        slots: &[T],
        carried: impl Fn(usize, &T) -> (T, Option<SplitCategory>),
    ) {
        if !any_bound(slots) {
            return;
        }
        // A compute UAV bind is a split point of its own besides its views' (R-SP-1).
        let call_split = (opcode == Opcode::SetComputeUnorderedAccessViews)
            .then_some(SplitCategory::SetUnorderedAccessViews);
        let call = SlotCall {
            name: "finish_command_list",
            opcode,
            operand,
            start: 0,
            count: slots.len(),
            call_split,
            dynamic_split,
        };
        let resolve = in_place(|_: &mut Self, i: usize| Ok(carried(i, &slots[i])));
        // Carried bindings were checked when first bound and keep their references: nothing
        // here can be refused.
        let _ = self.bind_slots(call, slots_payload, resolve, keep);
    }

    /// Re-encodes `shadow`'s bindings, in the order of the pipeline (the order the list has
    /// always carried them in). Binding references are already held; the caller takes the
    /// list's.
    pub(crate) fn encode_state(&mut self, shadow: &LegacyShadow) {
        self.carry_input_assembler(shadow);
        self.carry_shader_stages(shadow);
        self.carry_output_merger(shadow);
        self.carry_rasterizer(shadow);
        self.carry_predication(shadow);
    }

    /// The input assembler: the input layout, the topology, the vertex buffers, the index
    /// buffer and the primitive reset index.
    fn carry_input_assembler(&mut self, shadow: &LegacyShadow) {
        let defaults = &Bindings::DEFAULT;
        let bindings = &shadow.bindings;
        if !bindings.input_layout.is_null() {
            let (layout, vertex_buffers) = (bindings.input_layout, bindings.input_layout_slots);
            self.emit(
                Opcode::SetInputLayout,
                0,
                None,
                InputLayoutPayload::new(layout, vertex_buffers),
            );
        }
        if bindings.topology != defaults.topology {
            self.emit(
                Opcode::SetPrimitiveTopology,
                bindings.topology as u8,
                None,
                Empty,
            );
        }
        let vbs = &bindings.vertex_buffers;
        self.carry_slots(
            Opcode::SetVertexBuffers,
            0,
            SplitCategory::DynamicVertexBuffer,
            vbs,
            |i, b| {
                let dynamic = shadow.dynamic_vertex_buffers & 1 << i != 0;
                carried_buffer(b, dynamic, SplitCategory::DynamicVertexBuffer)
            },
        );
        // The reset index after the carried index buffer is what that bind derives from the
        // ClearState defaults; where the register held something else (set explicitly after
        // the bind, or derived from a buffer since unbound), it is set again after it.
        let mut carried = ResetIndex::DEFAULT;
        if !bindings.index_buffer.buffer.is_null() {
            let (buffer, split) = carried_buffer(
                &bindings.index_buffer,
                shadow.dynamic_index_buffer,
                SplitCategory::DynamicIndexBuffer,
            );
            self.emit(Opcode::SetIndexBuffer, 0, split, buffer);
            // R-ST-5, as the GPU model applies the carried bind.
            carried.derive(bindings.index_buffer.index_format());
        }
        if bindings.reset.value != carried.value {
            self.emit(
                Opcode::SetPrimitiveResetIndex,
                0,
                None,
                [bindings.reset.value, 0],
            );
        }
    }

    /// Each stage's shader, constant buffers, shader resources and samplers, then the compute
    /// stage's UAVs.
    fn carry_shader_stages(&mut self, shadow: &LegacyShadow) {
        let bindings = &shadow.bindings;
        for stage in Stage::ALL {
            let (s, operand) = (stage as usize, stage as u8);
            if !bindings.shaders[s].shader.is_null() {
                self.emit(Opcode::SetShader, operand, None, bindings.shaders[s]);
            }
            let category = SplitCategory::DynamicConstantBuffer;
            self.carry_slots(
                Opcode::SetConstantBuffers,
                operand,
                category,
                &bindings.constant_buffers[s],
                |i, b| {
                    carried_buffer(
                        b,
                        shadow.dynamic_constant_buffers[s] & 1 << i != 0,
                        category,
                    )
                },
            );
            let category = SplitCategory::DynamicShaderResource;
            self.carry_slots(
                Opcode::SetShaderResources,
                operand,
                category,
                &bindings.shader_resources[s],
                |i, v| carried_view(v, shadow.fast.shader_resources[s] & 1 << i != 0),
            );
            self.carry_slots(
                Opcode::SetSamplers,
                operand,
                category,
                &bindings.samplers[s],
                |_, h| (*h, None),
            );
        }
        let category = SplitCategory::DynamicShaderResource;
        self.carry_slots(
            Opcode::SetComputeUnorderedAccessViews,
            0,
            category,
            &bindings.compute_uavs,
            |_, v| carried_view(v, false),
        );
    }

    /// The output merger: the render targets and depth stencil, its UAVs, the blend and
    /// depth-stencil states.
    fn carry_output_merger(&mut self, shadow: &LegacyShadow) {
        let defaults = &Bindings::DEFAULT;
        let bindings = &shadow.bindings;
        let count = bindings.render_target_count as usize;
        if count > 0 || !bindings.depth_stencil.view.is_null() {
            let payload = RenderTargetsPayload::new(bindings.depth_stencil, count as u32, KEEP, 0);
            let split = Some(SplitCategory::SetRenderTargets);
            // The shadow holds at most a slot array: it fits the encoding.
            let _ = self.emit_with(
                "finish_command_list",
                Opcode::SetRenderTargets,
                0,
                split,
                payload,
                &bindings.render_targets[..count],
            );
        }
        if any_bound(&bindings.om_uavs) {
            let slots = &bindings.om_uavs;
            let _ = self.bind_om_uavs(
                "finish_command_list",
                0,
                slots.len(),
                in_place(|_: &mut Self, i| Ok(carried_view(&slots[i], false))),
                false,
            );
        }
        if bindings.blend != defaults.blend {
            let BlendRecord {
                state,
                factor,
                sample_mask: mask,
            } = bindings.blend;
            self.emit(
                Opcode::SetBlendState,
                0,
                None,
                StatePayload::new(state, factor, mask),
            );
        }
        if bindings.depth_stencil_state != defaults.depth_stencil_state {
            let DepthStencilRecord {
                state,
                stencil_ref: reference,
            } = bindings.depth_stencil_state;
            let split = Some(SplitCategory::SetDepthStencilState);
            self.emit(
                Opcode::SetDepthStencilState,
                0,
                split,
                StatePayload::new(state, [0.0; 4], reference),
            );
        }
    }

    /// The rasterizer: its state object, the viewports and the scissor rectangles.
    fn carry_rasterizer(&mut self, shadow: &LegacyShadow) {
        let bindings = &shadow.bindings;
        if !bindings.rasterizer.is_null() {
            self.emit(Opcode::SetRasterizerState, 0, None, bindings.rasterizer);
        }
        let viewports = bindings.viewports();
        if !viewports.is_empty() {
            // The shadow holds at most a slot array: it fits the encoding.
            let _ = self.emit_with(
                "finish_command_list",
                Opcode::SetViewports,
                0,
                None,
                Empty,
                viewports,
            );
        }
        let scissors = bindings.scissor_rects();
        if !scissors.is_empty() {
            // The shadow holds at most a slot array: it fits the encoding.
            let _ = self.emit_with(
                "finish_command_list",
                Opcode::SetScissorRects,
                0,
                None,
                Empty,
                scissors,
            );
        }
    }

    /// The predicate and the value that skips work.
    fn carry_predication(&mut self, shadow: &LegacyShadow) {
        let bindings = &shadow.bindings;
        if bindings.predication_active() {
            let (predicate, value) = bindings.predication();
            self.emit(
                Opcode::SetPredication,
                0,
                None,
                ObjectPayload {
                    object: predicate,
                    value: value as u64,
                },
            );
        }
    }
}
