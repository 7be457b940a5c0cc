//! The shader-stage binds (R-REC-5): `set_shader`, and the slots of each stage: constant buffers,
//! shader resources, samplers, and the compute stage's UAVs (`set_compute_unordered_access_views`).
//!
//! **In:** a stage, a first slot and the objects to bind there. **Out:** one slot-array command
//! (a one-slot constant-buffer bind in its compact form), through `resolve.rs`'s `bind_slots`;
//! on a legacy context the shadow's slots with their references.
//!
//! **Invariant.** A slot range past the stage's slots, a released object or a missing bind flag
//! refuses the whole call before anything is encoded or kept; a legacy shader-resource view of a
//! resource bound for output is bound null (R-ST-10, `bind_hazards.rs`).

use crate::binds::input_assembler::BufferSlot;
use crate::binds::resolve::{check_range, in_place, rebind_one, set_bit, slots_payload, SlotCall};
use crate::command::*;
use crate::context::role::Role;
use crate::context::shadow::forget_fast;
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::device::object_info::ShaderInfo;
use crate::errors::Error;
use crate::limits::*;

impl<R: Role> Recorder<R> {
    /// The legacy one-slot constant-buffer bind, as
    /// [`bind_one_vertex_buffer_legacy`](Self::bind_one_vertex_buffer_legacy): the compact
    /// [`Opcode::SetConstantBuffer`] for a buffer read at its creation instance.
    #[inline(never)]
    fn bind_one_constant_buffer_legacy(&mut self, stage: Stage, slot: u32, buffer: Option<Buffer>) {
        const CALL: &str = "set_constant_buffers";
        let handle = match buffer {
            None => RawHandle::NULL,
            Some(b) if self.is_static_buffer(b, BindFlags::CONSTANT) => b.0,
            Some(_) => return self.set_constant_buffers_general(stage, slot, &[buffer]),
        };
        let bound = BoundBuffer {
            buffer: handle,
            ..BoundBuffer::NULL
        };
        let (st, s) = (stage as usize, slot as usize);
        // The shadow and the references are borrowed once, apart: the shadow is tested once
        // (the caller tested it too), and no closure stands between them.
        let Some(shadow) = self.shadow.as_deref_mut() else {
            return self.set_constant_buffers_general(stage, slot, &[buffer]);
        };
        let target = &mut shadow.bindings.constant_buffers[st][s];
        forget_fast(
            std::slice::from_mut(target),
            &mut shadow.fast.constant_buffers[st],
            s,
        );
        let rebound = rebind_one(
            self.refs.as_mut(),
            &self.device,
            CALL,
            ObjectKind::Buffer,
            target,
            bound,
        );
        if let Err(error) = rebound {
            return self.fail(error);
        }
        set_bit(&mut shadow.dynamic_constant_buffers[st], s, false);
        self.emit(
            Opcode::SetConstantBuffer,
            compact_slot(stage, slot),
            None,
            handle,
        );
    }

    /// Binds `stage`'s shader (`None` unbinds it), with the slots it reads (which a draw record
    /// holds). Refused when the shader was created for another stage (`invalid_argument`,
    /// R-OBJ-2) or is released (`released_object`).
    // R-FX-7: the fast-only build makes it a direct inline write (the seeds' promise).
    /// [`BindCalls::set_shader`](crate::BindCalls::set_shader): its semantics.
    #[cfg_attr(feature = "fast-only", inline(always))]
    pub(crate) fn set_shader(&mut self, stage: Stage, shader: Option<Shader>) {
        self.begin_call();
        if let Err(error) = self.try_set_shader(stage, shader) {
            self.fail(error);
        }
    }

    // R-FX-7: the fast-only build makes it a direct inline write (the seeds' promise).
    #[cfg_attr(feature = "fast-only", inline(always))]
    fn try_set_shader(&mut self, stage: Stage, shader: Option<Shader>) -> Result<(), Error> {
        const CALL: &str = "set_shader";
        let bound = match shader {
            None => BoundShader::NULL,
            Some(shader) => {
                let live = self
                    .device
                    .shaders
                    .get(shader.0, false)
                    .map_err(|_| self.stale(CALL, ObjectKind::Shader, shader.0))?;
                let info = ShaderInfo::unpack(live.words);
                if info.stage != stage {
                    return Err(Error::WrongStage {
                        call: CALL,
                        shader: self.device.object_name(ObjectKind::Shader, shader.0),
                        stage: info.stage,
                        bound_to: stage,
                    });
                }
                BoundShader::new(
                    shader.0,
                    info.constant_buffers.bits() as u16,
                    info.shader_resources.bits(),
                    info.samplers.bits() as u16,
                    info.unordered_access_views.bits() as u64,
                    info.stream_output,
                )
            }
        };
        if let Some(mut shadow) = self.shadow.take() {
            let old = shadow.bindings.shaders[stage as usize].shader;
            let result = self.retain_slots(CALL, ObjectKind::Shader, &[bound.shader], &[old]);
            if result.is_ok() {
                Self::replace_slots(
                    self.refs.as_deref_mut(),
                    &self.device,
                    ObjectKind::Shader,
                    &mut [old],
                    &[bound.shader],
                );
                shadow.bindings.shaders[stage as usize] = bound;
            }
            self.shadow.put(shadow);
            result?;
        }
        self.emit(Opcode::SetShader, stage as u8, None, bound);
        Ok(())
    }

    /// [`BindCalls::set_constant_buffers`](crate::BindCalls::set_constant_buffers): its semantics.
    #[inline(always)]
    pub(crate) fn set_constant_buffers(
        &mut self,
        stage: Stage,
        start: u32,
        buffers: &[Option<Buffer>],
    ) {
        self.bind_constant_buffers(stage, start, buffers);
    }

    /// [`set_constant_buffers`](Self::set_constant_buffers), saying whether the call was
    /// accepted: `true` as a constant on the hot path (one slot of a static buffer on a fast
    /// context), so a caller that asks (a bundle recorder, `accepted_constant_buffers`) tests
    /// nothing there; the paths that may refuse compare the refusals around themselves.
    #[inline(always)]
    pub(crate) fn bind_constant_buffers(
        &mut self,
        stage: Stage,
        start: u32,
        buffers: &[Option<Buffer>],
    ) -> bool {
        self.begin_call();
        if let ([buffer], true) = (buffers, start < CONSTANT_BUFFER_SLOTS) {
            return match self.shadow.is_none() {
                true => self.bind_one_constant_buffer(stage, start, *buffer),
                false => self
                    .accepted(|this| this.bind_one_constant_buffer_legacy(stage, start, *buffer)),
            };
        }
        self.accepted(|this| this.set_constant_buffers_general(stage, start, buffers))
    }

    /// Every constant-buffer bind but the hot path's (several slots, a legacy shadow).
    #[inline(never)]
    fn set_constant_buffers_general(
        &mut self,
        stage: Stage,
        start: u32,
        buffers: &[Option<Buffer>],
    ) {
        if let Err(error) = self.try_set_constant_buffers(stage, start, buffers) {
            self.fail(error);
        }
    }

    /// The hot path of [`set_constant_buffers`](Self::set_constant_buffers), as
    /// `bind_one_vertex_buffer` is of vertex buffers: the compact 16-byte
    /// [`Opcode::SetConstantBuffer`].
    /// Whether the call was accepted: `true` as a constant on the hot path.
    #[inline(always)]
    fn bind_one_constant_buffer(
        &mut self,
        stage: Stage,
        slot: u32,
        buffer: Option<Buffer>,
    ) -> bool {
        let handle = match buffer {
            None => RawHandle::NULL,
            Some(b) if self.is_static_buffer(b, BindFlags::CONSTANT) => b.0,
            Some(_) => {
                return self.accepted(|this| {
                    this.bind_one_buffer_slow(BufferSlot::Constant(stage, slot, buffer))
                })
            }
        };
        self.emit(
            Opcode::SetConstantBuffer,
            compact_slot(stage, slot),
            None,
            handle,
        );
        true
    }

    fn try_set_constant_buffers(
        &mut self,
        stage: Stage,
        start: u32,
        buffers: &[Option<Buffer>],
    ) -> Result<(), Error> {
        const CALL: &str = "set_constant_buffers";
        check_range(
            CALL,
            "constant-buffer",
            start,
            buffers.len(),
            CONSTANT_BUFFER_SLOTS,
        )?;
        let call = SlotCall {
            name: CALL,
            opcode: Opcode::SetConstantBuffers,
            operand: stage as u8,
            start,
            count: buffers.len(),
            call_split: None,
            dynamic_split: SplitCategory::DynamicConstantBuffer,
        };
        let (s, range) = (
            stage as usize,
            start as usize..start as usize + buffers.len(),
        );
        self.bind_slots(
            call,
            slots_payload,
            |this, i, out| {
                let category = SplitCategory::DynamicConstantBuffer;
                this.resolve_buffer_into(CALL, buffers[i], BindFlags::CONSTANT, category, 0, 0, out)
            },
            |this, items| {
                this.shadow_slots(CALL, ObjectKind::Buffer, items, |sh| {
                    let slots = &mut sh.bindings.constant_buffers[s][range.clone()];
                    forget_fast(slots, &mut sh.fast.constant_buffers[s], range.start);
                    slots
                })?;
                for (i, b) in items.iter().enumerate() {
                    let dynamic = this.is_dynamic_binding(b);
                    if let Some(shadow) = this.shadow.as_mut() {
                        set_bit(
                            &mut shadow.dynamic_constant_buffers[s],
                            start as usize + i,
                            dynamic,
                        );
                    }
                }
                Ok(())
            },
        )
    }

    /// [`BindCalls::set_shader_resources`](crate::BindCalls::set_shader_resources): its semantics.
    pub(crate) fn set_shader_resources(
        &mut self,
        stage: Stage,
        start: u32,
        views: &[Option<ShaderResourceView>],
    ) {
        self.begin_call();
        if let Err(error) = self.try_set_shader_resources(stage, start, views) {
            self.fail(error);
        }
    }

    fn try_set_shader_resources(
        &mut self,
        stage: Stage,
        start: u32,
        views: &[Option<ShaderResourceView>],
    ) -> Result<(), Error> {
        const CALL: &str = "set_shader_resources";
        check_range(
            CALL,
            "shader-resource",
            start,
            views.len(),
            SHADER_RESOURCE_SLOTS,
        )?;
        let call = SlotCall {
            name: CALL,
            opcode: Opcode::SetShaderResources,
            operand: stage as u8,
            start,
            count: views.len(),
            call_split: None,
            dynamic_split: SplitCategory::DynamicShaderResource,
        };
        let (s, range) = (stage as usize, start as usize..start as usize + views.len());
        self.bind_slots(
            call,
            slots_payload,
            |this, i, out| {
                let handle = views[i].map_or(RawHandle::NULL, |v| v.0);
                let split = this.resolve_view_into(
                    CALL,
                    ObjectKind::ShaderResourceView,
                    handle,
                    true,
                    out,
                )?;
                // SAFETY: `resolve_view_into` returned `Ok`, which it does only after writing
                // every field of `out`.
                let view = unsafe { out.assume_init_ref() };
                if this.input_bound_for_output(view) {
                    // Legacy: a view of a resource bound for output is left null, with no split
                    // point (R-ST-10).
                    out.write(BoundView::NULL);
                    return Ok(None);
                }
                Ok(split)
            },
            |this, items| {
                this.shadow_slots(CALL, ObjectKind::ShaderResourceView, items, |sh| {
                    let slots = &mut sh.bindings.shader_resources[s][range.clone()];
                    forget_fast(slots, &mut sh.fast.shader_resources[s], range.start);
                    slots
                })?;
                if let Some(shadow) = this.shadow.as_mut() {
                    for (i, v) in items.iter().enumerate() {
                        set_bit(
                            &mut shadow.dynamic_shader_resources[s],
                            start as usize + i,
                            v.flags.has(ViewFlags::DYNAMIC),
                        );
                        set_bit(
                            &mut shadow.bound_shader_resources[s],
                            start as usize + i,
                            !v.view.is_null(),
                        );
                    }
                }
                Ok(())
            },
        )
    }

    /// [`BindCalls::set_samplers`](crate::BindCalls::set_samplers): its semantics.
    pub(crate) fn set_samplers(
        &mut self,
        stage: Stage,
        start: u32,
        samplers: &[Option<SamplerState>],
    ) {
        self.begin_call();
        if let Err(error) = self.try_set_samplers(stage, start, samplers) {
            self.fail(error);
        }
    }

    fn try_set_samplers(
        &mut self,
        stage: Stage,
        start: u32,
        samplers: &[Option<SamplerState>],
    ) -> Result<(), Error> {
        const CALL: &str = "set_samplers";
        check_range(CALL, "sampler", start, samplers.len(), SAMPLER_SLOTS)?;
        let call = SlotCall {
            name: CALL,
            opcode: Opcode::SetSamplers,
            operand: stage as u8,
            start,
            count: samplers.len(),
            call_split: None,
            dynamic_split: SplitCategory::DynamicShaderResource,
        };
        let (s, range) = (
            stage as usize,
            start as usize..start as usize + samplers.len(),
        );
        self.bind_slots(
            call,
            slots_payload,
            in_place(|this: &mut Self, i| {
                let handle = samplers[i].map_or(RawHandle::NULL, |s| s.0);
                if !handle.is_null() && this.device.sampler_states.get(handle, false).is_err() {
                    return Err(this.stale(CALL, ObjectKind::SamplerState, handle));
                }
                Ok((handle, None))
            }),
            |this, items| {
                this.shadow_slots(CALL, ObjectKind::SamplerState, items, |sh| {
                    let slots = &mut sh.bindings.samplers[s][range.clone()];
                    forget_fast(slots, &mut sh.fast.samplers[s], range.start);
                    slots
                })
            },
        )
    }

    /// [`InheritedStateCalls::set_compute_unordered_access_views`](crate::InheritedStateCalls::set_compute_unordered_access_views): its semantics.
    pub(crate) fn set_compute_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    ) {
        self.begin_call();
        if let Err(error) = self.try_set_compute_unordered_access_views(start, views) {
            self.fail(error);
        }
    }

    fn try_set_compute_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    ) -> Result<(), Error> {
        const CALL: &str = "set_compute_unordered_access_views";
        check_range(
            CALL,
            "compute unordered-access",
            start,
            views.len(),
            COMPUTE_UAV_SLOTS,
        )?;
        let call = SlotCall {
            name: CALL,
            opcode: Opcode::SetComputeUnorderedAccessViews,
            operand: 0,
            start,
            count: views.len(),
            call_split: self.legacy_split(SplitCategory::SetUnorderedAccessViews),
            dynamic_split: SplitCategory::DynamicShaderResource,
        };
        let range = start as usize..start as usize + views.len();
        self.bind_slots(
            call,
            slots_payload,
            in_place(|this: &mut Self, i| this.resolve_uav(CALL, Stage::Compute, views[i])),
            |this, items| {
                this.shadow_slots(CALL, ObjectKind::UnorderedAccessView, items, |sh| {
                    &mut sh.bindings.compute_uavs[range.clone()]
                })
            },
        )?;
        // Legacy: the views' resources are bound for output now (R-ST-10).
        self.unbind_inputs_bound_for_output();
        Ok(())
    }

    /// A UAV bound for `stage`: the compute stage's, or the output merger's (the pixel stage's,
    /// whose GDS range counts for its append and counter UAVs, R-FX-4).
    pub(crate) fn resolve_uav(
        &mut self,
        call: &'static str,
        stage: Stage,
        view: Option<UnorderedAccessView>,
    ) -> Result<(BoundView, Option<SplitCategory>), Error> {
        let handle = view.map_or(RawHandle::NULL, |v| v.0);
        let (bound, split) =
            self.resolve_view(call, ObjectKind::UnorderedAccessView, handle, true)?;
        if !self.is_legacy() && bound.flags.has(ViewFlags::HIDDEN_COUNTER) {
            // Allowed with a GDS range of the stage set on this context (R-FX-4, `gds.rs`).
            let ranged = crate::fast::gds::gds_stage_index(stage)
                .and_then(|index| self.gds_ranges.get(index))
                .is_some_and(|&size| size != 0);
            if !ranged {
                return Err(Error::ForbiddenInFast {
                    call,
                    rule: "append and counter UAVs need legacy semantics, or a GDS range of \
                           the stage set on this context first (R-ST-7, R-FX-4)",
                });
            }
        }
        Ok((bound, split))
    }

    #[inline]
    pub(crate) fn legacy_split(&self, category: SplitCategory) -> Option<SplitCategory> {
        self.is_legacy().then_some(category)
    }
}
