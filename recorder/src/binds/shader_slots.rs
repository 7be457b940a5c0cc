//! The state-setting calls of a deferred context (R-REC-5): input assembler, shaders and their
//! slots, output merger, rasterizer, predication, ClearState. Each resolves and encodes through
//! `resolve.rs`, which is also where split points come from (R-SP-1..3): a bad handle refuses the
//! whole call before anything is kept, and a legacy bind takes the references its list and its
//! binding hold (R-OBJ-4). A legacy bind also keeps inputs and outputs apart (R-ST-10,
//! `hazard.rs`): an output bind unbinds the shader-resource views of its resources, and a
//! shader-resource view of a resource bound for output is bound null. What a legacy bind
//! remembers goes to its shadow's `Bindings` (`state.rs`), the type the GPU model applies the
//! same commands to: slot arrays with their references (`shadow_slots`), registers through the
//! setters its `apply` uses (the reset index a legacy index buffer derives, R-ST-5, included),
//! from the values just encoded, never decoded back.

use std::mem::MaybeUninit;

use crate::binds::resolve::{check_range, in_place, set_bit, slot_range, slots_payload, SlotCall};
use crate::command::*;
use crate::context::role::Role;
use crate::context::shadow::{forget_fast, LegacyShadow};
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::device::object_info::ShaderInfo;
use crate::device_context::{PredicateValue, VertexBuffer};
use crate::errors::Error;
use crate::limits::*;
use crate::state::{BlendRecord, DepthStencilRecord};

impl<R: Role> Recorder<R> {
    // ----- the calls ---------------------------------------------------------------------------

    /// Binds the input layout (`None` unbinds it), with the vertex-buffer slots it reads. A
    /// released layout refuses the call (`released_object`).
    // R-FX-7: the fast-only build makes it a direct inline write (the seeds' promise).
    #[cfg_attr(feature = "fast-only", inline(always))]
    pub fn set_input_layout(&mut self, layout: Option<InputLayout>) {
        self.begin_call();
        if let Err(error) = self.try_set_input_layout(layout) {
            self.fail(error);
        }
    }

    // R-FX-7: the fast-only build makes it a direct inline write (the seeds' promise).
    #[cfg_attr(feature = "fast-only", inline(always))]
    fn try_set_input_layout(&mut self, layout: Option<InputLayout>) -> Result<(), Error> {
        const CALL: &str = "set_input_layout";
        let handle = layout.map_or(RawHandle::NULL, |l| l.0);
        let mut vertex_buffers = 0;
        if !handle.is_null() {
            let live = self
                .device
                .input_layouts
                .get(handle, false)
                .map_err(|_| self.stale(CALL, ObjectKind::InputLayout, handle))?;
            vertex_buffers = live.words[0] as u32;
        }
        self.shadow_slots(CALL, ObjectKind::InputLayout, &[handle], |s| {
            std::slice::from_mut(&mut s.bindings.input_layout)
        })?;
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_input_layout(handle, vertex_buffers);
        }
        self.emit(
            Opcode::SetInputLayout,
            0,
            None,
            InputLayoutPayload::new(handle, vertex_buffers),
        );
        Ok(())
    }

    /// Sets the primitive topology the following draws assemble. Never refused.
    pub fn set_primitive_topology(&mut self, topology: PrimitiveTopology) {
        self.begin_call();
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_topology(topology);
        }
        self.emit(Opcode::SetPrimitiveTopology, topology as u8, None, Empty);
    }

    /// Binds `buffers` to the vertex-buffer slots `start..start + buffers.len()`. Refused as a
    /// whole, with nothing bound, when the range passes the slots there are (`invalid_argument`,
    /// R-OBJ-5), a buffer lacks the vertex-buffer bind flag (`invalid_argument`, R-OBJ-2) or is
    /// released (`released_object`), or, under fast semantics, a dynamic buffer was not mapped
    /// write_discard on this list first (`dynamic_before_map`, R-SP-3). Legacy: each slot of a
    /// dynamic buffer not mapped on this list is a `dynamic_vertex_buffer` split point (R-SP-1).
    #[inline]
    pub fn set_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]) {
        self.begin_call();
        if let ([vertex], true) = (buffers, start < VERTEX_BUFFER_SLOTS) {
            return match self.shadow.is_none() {
                true => self.bind_one_vertex_buffer(start, *vertex),
                false => self.bind_one_vertex_buffer_legacy(start, *vertex),
            };
        }
        self.set_vertex_buffers_general(start, buffers);
    }

    /// Every vertex-buffer bind but the hot path's (several slots, a legacy shadow).
    #[inline(never)]
    fn set_vertex_buffers_general(&mut self, start: u32, buffers: &[VertexBuffer]) {
        if let Err(error) = self.try_set_vertex_buffers(start, buffers) {
            self.fail(error);
        }
    }

    /// The hot path of [`set_vertex_buffers`](Self::set_vertex_buffers): one slot, no shadow
    /// (fast semantics), a buffer read at its creation instance: the compact 24-byte
    /// [`Opcode::SetVertexBuffer`]. Anything else (a dynamic buffer, a refusal) goes out of
    /// line to [`bind_one_buffer_slow`](Self::bind_one_buffer_slow).
    #[inline(always)]
    fn bind_one_vertex_buffer(&mut self, slot: u32, vertex: VertexBuffer) {
        let handle = match vertex.buffer {
            None => RawHandle::NULL,
            Some(buffer) if self.is_static_buffer(buffer, BindFlags::VERTEX) => buffer.0,
            Some(_) => return self.bind_one_buffer_slow(BufferSlot::Vertex(slot, vertex)),
        };
        let payload = VertexBufferPayload {
            buffer: handle,
            offset: vertex.offset,
            stride: vertex.stride,
        };
        self.emit(Opcode::SetVertexBuffer, slot as u8, None, payload);
    }

    /// The legacy one-slot vertex-buffer bind of a buffer read at its creation instance: what the
    /// general path does for it (the list's reference and the binding's, the old binding's
    /// given back, the slot not dynamic), encoded as the compact [`Opcode::SetVertexBuffer`].
    /// A dynamic buffer (a split point or the list's own instance) takes the general path.
    #[inline(never)]
    fn bind_one_vertex_buffer_legacy(&mut self, slot: u32, vertex: VertexBuffer) {
        const CALL: &str = "set_vertex_buffers";
        let handle = match vertex.buffer {
            None => RawHandle::NULL,
            Some(buffer) if self.is_static_buffer(buffer, BindFlags::VERTEX) => buffer.0,
            Some(_) => return self.set_vertex_buffers_general(slot, &[vertex]),
        };
        let bound = BoundBuffer {
            buffer: handle,
            instance: InstanceId::INITIAL,
            offset: vertex.offset,
            stride_or_format: vertex.stride,
        };
        let s = slot as usize;
        let shadowed = self.shadow_slots(CALL, ObjectKind::Buffer, &[bound], |shadow| {
            let slots = &mut shadow.bindings.vertex_buffers[s..s + 1];
            forget_fast(slots, &mut shadow.fast.vertex_buffers, s);
            slots
        });
        if let Err(error) = shadowed {
            return self.fail(error);
        }
        if let Some(shadow) = self.shadow.as_mut() {
            set_bit(&mut shadow.dynamic_vertex_buffers, s, false);
        }
        let payload = VertexBufferPayload {
            buffer: handle,
            offset: vertex.offset,
            stride: vertex.stride,
        };
        self.emit(Opcode::SetVertexBuffer, slot as u8, None, payload);
    }

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
        let shadowed = self.shadow_slots(CALL, ObjectKind::Buffer, &[bound], |shadow| {
            let slots = &mut shadow.bindings.constant_buffers[st][s..s + 1];
            forget_fast(slots, &mut shadow.fast.constant_buffers[st], s);
            slots
        });
        if let Err(error) = shadowed {
            return self.fail(error);
        }
        if let Some(shadow) = self.shadow.as_mut() {
            set_bit(&mut shadow.dynamic_constant_buffers[st], s, false);
        }
        self.emit(
            Opcode::SetConstantBuffer,
            compact_slot(stage, slot),
            None,
            handle,
        );
    }

    /// A one-slot bind off the hot path, on a shadow-less context: a dynamic buffer (read at
    /// the instance the list mapped, in the one-slot array form) or a refusal.
    #[inline(never)]
    fn bind_one_buffer_slow(&mut self, slot: BufferSlot) {
        let (call, opcode, operand, start, buffer, offset, stride, need, category) = match slot {
            BufferSlot::Constant(stage, start, buffer) => (
                "set_constant_buffers",
                Opcode::SetConstantBuffers,
                stage as u8,
                start,
                buffer,
                0,
                0,
                BindFlags::CONSTANT,
                SplitCategory::DynamicConstantBuffer,
            ),
            BufferSlot::Vertex(start, vertex) => (
                "set_vertex_buffers",
                Opcode::SetVertexBuffers,
                0,
                start,
                vertex.buffer,
                vertex.offset,
                vertex.stride,
                BindFlags::VERTEX,
                SplitCategory::DynamicVertexBuffer,
            ),
        };
        let Some(buffer) = buffer else {
            return;
        };
        match self.resolve_one_buffer(call, buffer, need, category) {
            Ok(instance) => {
                let bound = BoundBuffer {
                    buffer: buffer.0,
                    instance,
                    offset,
                    stride_or_format: stride,
                };
                let payload = slots_payload(start, 1, false);
                // One slot: it fits the encoding.
                let _ = self.emit_with(call, opcode, operand, None, payload, &[bound]);
            }
            Err(error) => self.fail(error),
        }
    }

    fn try_set_vertex_buffers(
        &mut self,
        start: u32,
        buffers: &[VertexBuffer],
    ) -> Result<(), Error> {
        const CALL: &str = "set_vertex_buffers";
        check_range(
            CALL,
            "vertex-buffer",
            start,
            buffers.len(),
            VERTEX_BUFFER_SLOTS,
        )?;
        let call = SlotCall {
            name: CALL,
            opcode: Opcode::SetVertexBuffers,
            operand: 0,
            start,
            count: buffers.len(),
            call_split: None,
            dynamic_split: SplitCategory::DynamicVertexBuffer,
        };
        let range = start as usize..start as usize + buffers.len();
        self.bind_slots(
            call,
            slots_payload,
            |this, i, out| {
                let b = buffers[i];
                let category = SplitCategory::DynamicVertexBuffer;
                this.resolve_buffer_into(
                    CALL,
                    b.buffer,
                    BindFlags::VERTEX,
                    category,
                    b.offset,
                    b.stride,
                    out,
                )
            },
            |this, items| {
                this.shadow_slots(CALL, ObjectKind::Buffer, items, |s| {
                    let slots = &mut s.bindings.vertex_buffers[range.clone()];
                    forget_fast(slots, &mut s.fast.vertex_buffers, range.start);
                    slots
                })?;
                for (i, b) in items.iter().enumerate() {
                    let dynamic = this.is_dynamic_binding(b);
                    if let Some(shadow) = this.shadow.as_mut() {
                        set_bit(
                            &mut shadow.dynamic_vertex_buffers,
                            start as usize + i,
                            dynamic,
                        );
                    }
                }
                Ok(())
            },
        )
    }

    /// Binds the index buffer at byte `offset`, with indices of `format` (`R16Uint` or `R32Uint`;
    /// any other format with a buffer is refused, `invalid_argument`); `None` unbinds it. Refused
    /// as [`set_vertex_buffers`](Self::set_vertex_buffers) refuses a buffer (bind flag, released,
    /// `dynamic_before_map`); legacy: a `dynamic_index_buffer` split point for a dynamic buffer not
    /// mapped on this list, and the primitive reset index follows the format (R-ST-5).
    pub fn set_index_buffer(&mut self, buffer: Option<Buffer>, format: Format, offset: u32) {
        self.begin_call();
        if let Err(error) = self.try_set_index_buffer(buffer, format, offset) {
            self.fail(error);
        }
    }

    fn try_set_index_buffer(
        &mut self,
        buffer: Option<Buffer>,
        format: Format,
        offset: u32,
    ) -> Result<(), Error> {
        const CALL: &str = "set_index_buffer";
        if buffer.is_some() && !matches!(format, Format::R16Uint | Format::R32Uint) {
            return Err(Error::OutOfRange {
                call: CALL,
                argument: "index format",
                value: format.to_string(),
                allowed: "r16_uint or r32_uint (R-REC-5, R-ST-5)".into(),
            });
        }
        // Resolve straight into the reserved command (see `resolve_buffer_into`).
        let size = CommandBytes::fixed::<BoundBuffer>();
        let at = self.reserve(size, None);
        // SAFETY: `at` has room for the header and a `BoundBuffer`.
        let payload = unsafe { write_command(at, Opcode::SetIndexBuffer, 0, None, size, Empty) };
        // SAFETY: the payload area is aligned and writable for a `BoundBuffer`.
        let slot = unsafe { &mut *(payload as *mut MaybeUninit<BoundBuffer>) };
        let category = SplitCategory::DynamicIndexBuffer;
        let resolved = self.resolve_buffer_into(
            CALL,
            buffer,
            BindFlags::INDEX,
            category,
            offset,
            format as u32,
            slot,
        );
        let split = match resolved {
            Ok(split) => split,
            Err(error) => {
                self.unreserve(at, false);
                return Err(error);
            }
        };
        if self.shadow.is_none() && split.is_none() {
            // Fast: nothing to remember. (Reading the binding back right after writing it field
            // by field would stall on store forwarding.)
            return Ok(());
        }
        // SAFETY: `resolve_buffer_into` returned `Ok` (the match above returns on `Err`), and it
        // returns `Ok` only after writing every field of `slot`.
        let bound = unsafe { slot.assume_init() };
        let shadowed = self.shadow_slots(CALL, ObjectKind::Buffer, &[bound], |s| {
            if std::mem::take(&mut s.fast.index_buffer) {
                s.bindings.index_buffer = BoundBuffer::NULL;
            }
            std::slice::from_mut(&mut s.bindings.index_buffer)
        });
        if let Err(error) = shadowed {
            self.unreserve(at, false);
            return Err(error);
        }
        let dynamic = self.is_dynamic_binding(&bound);
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.dynamic_index_buffer = dynamic;
            // R-ST-5, as the GPU model applies it.
            shadow
                .bindings
                .derive_reset_index(&bound, format, Semantics::Legacy);
        }
        if split.is_some() {
            // A split point needs its side record: encode it again with one (legacy, rare).
            self.unreserve(at, false);
            self.emit(Opcode::SetIndexBuffer, 0, split, bound);
        }
        Ok(())
    }

    /// Sets the primitive reset (cut) index (R-ST-5). Under legacy semantics the next index
    /// buffer of another format sets it again.
    pub fn set_primitive_reset_index(&mut self, value: u32) {
        self.begin_call();
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_reset_index(value);
        }
        self.emit(Opcode::SetPrimitiveResetIndex, 0, None, [value, 0]);
    }

    /// Binds `stage`'s shader (`None` unbinds it), with the slots it reads (which a draw record
    /// holds). Refused when the shader was created for another stage (`invalid_argument`,
    /// R-OBJ-2) or is released (`released_object`).
    // R-FX-7: the fast-only build makes it a direct inline write (the seeds' promise).
    #[cfg_attr(feature = "fast-only", inline(always))]
    pub fn set_shader(&mut self, stage: Stage, shader: Option<Shader>) {
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

    /// Binds `buffers` to `stage`'s constant-buffer slots `start..start + buffers.len()` (`None`
    /// unbinds a slot). Refused as a whole when the range passes the slots (`invalid_argument`,
    /// R-OBJ-5), a buffer lacks the constant-buffer bind flag (`invalid_argument`) or is released
    /// (`released_object`), or, fast, a dynamic buffer was not mapped on this list first
    /// (`dynamic_before_map`). Legacy: each slot of a dynamic buffer not mapped on this list is a
    /// `dynamic_constant_buffer` split point (R-SP-1).
    #[inline]
    pub fn set_constant_buffers(&mut self, stage: Stage, start: u32, buffers: &[Option<Buffer>]) {
        self.begin_call();
        if let ([buffer], true) = (buffers, start < CONSTANT_BUFFER_SLOTS) {
            return match self.shadow.is_none() {
                true => self.bind_one_constant_buffer(stage, start, *buffer),
                false => self.bind_one_constant_buffer_legacy(stage, start, *buffer),
            };
        }
        self.set_constant_buffers_general(stage, start, buffers);
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
    #[inline(always)]
    fn bind_one_constant_buffer(&mut self, stage: Stage, slot: u32, buffer: Option<Buffer>) {
        let handle = match buffer {
            None => RawHandle::NULL,
            Some(b) if self.is_static_buffer(b, BindFlags::CONSTANT) => b.0,
            Some(_) => return self.bind_one_buffer_slow(BufferSlot::Constant(stage, slot, buffer)),
        };
        self.emit(
            Opcode::SetConstantBuffer,
            compact_slot(stage, slot),
            None,
            handle,
        );
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

    /// Binds `views` to `stage`'s shader-resource slots `start..start + views.len()` (`None`
    /// unbinds a slot). Refused as a whole when the range passes the slots (`invalid_argument`,
    /// R-OBJ-5) or a view is released (`released_object`) or, fast, views a dynamic buffer not
    /// mapped on this list first (`dynamic_before_map`). Legacy: each slot of a view of a dynamic
    /// buffer not mapped on this list is a `dynamic_shader_resource` split point, and a view of a
    /// resource bound for output is bound null (R-ST-10).
    pub fn set_shader_resources(
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

    /// Binds `samplers` to `stage`'s sampler slots `start..start + samplers.len()` (`None` unbinds
    /// a slot). Refused as a whole when the range passes the slots (`invalid_argument`, R-OBJ-5) or
    /// a sampler is released (`released_object`).
    pub fn set_samplers(&mut self, stage: Stage, start: u32, samplers: &[Option<SamplerState>]) {
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

    /// Binds compute-shader UAVs: a `set_unordered_access_views` split point on legacy contexts,
    /// plus a decompression split point per view of a compressible target.
    pub fn cs_set_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    ) {
        self.begin_call();
        if let Err(error) = self.try_cs_set_unordered_access_views(start, views) {
            self.fail(error);
        }
    }

    fn try_cs_set_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    ) -> Result<(), Error> {
        const CALL: &str = "cs_set_unordered_access_views";
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
    fn resolve_uav(
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
    fn legacy_split(&self, category: SplitCategory) -> Option<SplitCategory> {
        self.is_legacy().then_some(category)
    }

    /// Binds `render_targets` to the first render-target slots (the rest are unbound) and the
    /// depth-stencil view (`None` unbinds it); the output-merger UAVs stay bound. Refused when
    /// there are more targets than slots (`invalid_argument`, R-OBJ-5) or a view is released
    /// (`released_object`). Legacy: a `set_render_targets` split point, and shader-resource views
    /// of the targets' resources are unbound (R-ST-10).
    pub fn om_set_render_targets(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
    ) {
        self.begin_call();
        if let Err(error) = self.try_om_set_render_targets(render_targets, depth_stencil, None) {
            self.fail(error);
        }
    }

    /// Binds render targets and output-merger UAVs at `uav_start..`; the other OM UAV slots are
    /// unbound. Legacy: a `set_render_targets` and a `set_unordered_access_views` split point.
    pub fn om_set_render_targets_and_unordered_access_views(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
        uav_start: u32,
        uavs: &[Option<UnorderedAccessView>],
    ) {
        self.begin_call();
        if let Err(error) =
            self.try_om_set_render_targets(render_targets, depth_stencil, Some((uav_start, uavs)))
        {
            self.fail(error);
        }
    }

    fn try_om_set_render_targets(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
        uavs: Option<(u32, &[Option<UnorderedAccessView>])>,
    ) -> Result<(), Error> {
        // A refusal names the method the application called.
        let call = match uavs {
            None => "om_set_render_targets",
            Some(_) => "om_set_render_targets_and_unordered_access_views",
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

    /// Binds the blend state (`None`: the defaults) with its blend `factor` (RGBA) and
    /// `sample_mask`. A released state refuses the call (`released_object`).
    pub fn om_set_blend_state(
        &mut self,
        state: Option<BlendState>,
        factor: [f32; 4],
        sample_mask: u32,
    ) {
        self.begin_call();
        let handle = state.map_or(RawHandle::NULL, |s| s.0);
        if let Err(error) =
            self.try_set_state(ObjectKind::BlendState, "om_set_blend_state", handle, |s| {
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

    /// Sets the depth-stencil state: a `set_depth_stencil_state` split point on legacy contexts.
    pub fn om_set_depth_stencil_state(
        &mut self,
        state: Option<DepthStencilState>,
        stencil_ref: u32,
    ) {
        self.begin_call();
        let handle = state.map_or(RawHandle::NULL, |s| s.0);
        if let Err(error) = self.try_set_state(
            ObjectKind::DepthStencilState,
            "om_set_depth_stencil_state",
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

    /// Binds the rasterizer state (`None`: the defaults). A released state refuses the call
    /// (`released_object`).
    pub fn rs_set_state(&mut self, state: Option<RasterizerState>) {
        self.begin_call();
        let handle = state.map_or(RawHandle::NULL, |s| s.0);
        if let Err(error) =
            self.try_set_state(ObjectKind::RasterizerState, "rs_set_state", handle, |s| {
                &mut s.bindings.rasterizer
            })
        {
            return self.fail(error);
        }
        self.emit(Opcode::SetRasterizerState, 0, None, handle);
    }

    /// Validates a state object and moves the legacy binding to it.
    fn try_set_state(
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

    /// Sets the viewports, replacing all of them: slot `i` takes `viewports[i]`, the slots past
    /// them go back to the default. More than the viewport slots is refused (`invalid_argument`,
    /// R-OBJ-5).
    pub fn rs_set_viewports(&mut self, viewports: &[Viewport]) {
        self.begin_call();
        if viewports.len() > VIEWPORT_SLOTS as usize {
            return self.fail(slot_range(
                "rs_set_viewports",
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
            "rs_set_viewports",
            Opcode::SetViewports,
            0,
            None,
            Empty,
            viewports,
        ) {
            self.fail(error);
        }
    }

    /// Sets the scissor rectangles, replacing all of them, as
    /// [`rs_set_viewports`](Self::rs_set_viewports) does the viewports. More than the viewport
    /// slots is refused (`invalid_argument`, R-OBJ-5).
    pub fn rs_set_scissor_rects(&mut self, rects: &[Rect]) {
        self.begin_call();
        if rects.len() > VIEWPORT_SLOTS as usize {
            return self.fail(slot_range(
                "rs_set_scissor_rects",
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
            "rs_set_scissor_rects",
            Opcode::SetScissorRects,
            0,
            None,
            Empty,
            rects,
        ) {
            self.fail(error);
        }
    }

    /// Predicates the following draws on `predicate` (a query of kind predicate), or stops.
    pub fn set_predication(&mut self, predicate: Option<Query>, value: PredicateValue) {
        let value = value.as_bool();
        self.begin_call();
        const CALL: &str = "set_predication";
        let handle = predicate.map_or(RawHandle::NULL, |q| q.0);
        if !handle.is_null() {
            match self.device.queries.get(handle, false) {
                Err(_) => return self.fail(self.stale(CALL, ObjectKind::Query, handle)),
                Ok(live) if live.words[0] != QueryKind::Predicate as u64 => {
                    let query = self.device.object_name(ObjectKind::Query, handle);
                    return self.fail(Error::NotAPredicate { call: CALL, query });
                }
                Ok(_) => {}
            }
        }
        if let Err(error) = self.shadow_slots(CALL, ObjectKind::Query, &[handle], |s| {
            std::slice::from_mut(&mut s.bindings.predicate)
        }) {
            return self.fail(error);
        }
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_predication(handle, value);
        }
        self.emit(
            Opcode::SetPredication,
            0,
            None,
            ObjectPayload {
                object: handle,
                value: value as u64,
            },
        );
    }

    /// Records a ClearState (R-ST-1: explicit on fast contexts, which never do it implicitly).
    pub fn clear_state(&mut self) {
        self.begin_call();
        self.reset_shadow();
        self.emit(Opcode::ClearState, 0, None, Empty);
    }
}

/// The one slot a shadow-less bind names, for its out-of-line path.
#[derive(Clone, Copy)]
enum BufferSlot {
    /// A constant buffer: the stage, the slot and the buffer.
    Constant(Stage, u32, Option<Buffer>),
    /// A vertex buffer: the slot and the binding.
    Vertex(u32, VertexBuffer),
}
