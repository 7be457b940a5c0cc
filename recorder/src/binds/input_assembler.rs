//! The input-assembler binds (R-REC-5): `set_input_layout`, `set_primitive_topology`,
//! `set_vertex_buffers`, `set_index_buffer`, `set_primitive_reset_index`, and the out-of-line
//! one-slot path a shadow-less buffer bind shares with the constant buffers ([`BufferSlot`]).
//!
//! **In:** the layout, topology, buffers with their strides and offsets, the index format.
//! **Out:** one binding command each (a one-slot vertex-buffer bind in its compact form); on a
//! legacy context the shadow's bindings and references, and the reset index an index-buffer bind
//! derives from its format (R-ST-5).
//!
//! **Invariant.** A bad handle or slot range refuses the whole call before anything is encoded or
//! kept; a dynamic buffer not yet mapped in this list is a split point on a legacy context
//! (R-SP-1) and refused on a fast one (R-SP-3).

use crate::binds::resolve::{check_range, rebind_one, set_bit, slots_payload, SlotCall};
use crate::call_arguments::VertexBuffer;
use crate::command::*;
use crate::context::role::Role;
use crate::context::shadow::forget_fast;
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::errors::Error;
use crate::limits::*;
use std::mem::MaybeUninit;

impl<R: Role> Recorder<R> {
    /// Binds the input layout (`None` unbinds it), with the vertex-buffer slots it reads. A
    /// released layout refuses the call (`released_object`).
    // R-FX-7: the fast-only build makes it a direct inline write (the seeds' promise).
    /// [`BindCalls::set_input_layout`](crate::BindCalls::set_input_layout): its semantics.
    #[cfg_attr(feature = "fast-only", inline(always))]
    pub(crate) fn set_input_layout(&mut self, layout: Option<InputLayout>) {
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

    /// [`BindCalls::set_primitive_topology`](crate::BindCalls::set_primitive_topology): its semantics.
    pub(crate) fn set_primitive_topology(&mut self, topology: PrimitiveTopology) {
        self.begin_call();
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_topology(topology);
        }
        self.emit(Opcode::SetPrimitiveTopology, topology as u8, None, Empty);
    }

    /// [`BindCalls::set_vertex_buffers`](crate::BindCalls::set_vertex_buffers): its semantics.
    #[inline(always)]
    pub(crate) fn set_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]) {
        self.bind_vertex_buffers(start, buffers);
    }

    /// [`set_vertex_buffers`](Self::set_vertex_buffers), saying whether the call was accepted,
    /// as [`bind_constant_buffers`](Self::bind_constant_buffers) does: `true` as a constant on
    /// the hot path.
    #[inline(always)]
    pub(crate) fn bind_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]) -> bool {
        self.begin_call();
        if let ([vertex], true) = (buffers, start < VERTEX_BUFFER_SLOTS) {
            return match self.shadow.is_none() {
                true => self.bind_one_vertex_buffer(start, *vertex),
                false => self.accepted(|this| this.bind_one_vertex_buffer_legacy(start, *vertex)),
            };
        }
        self.accepted(|this| this.set_vertex_buffers_general(start, buffers))
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
    fn bind_one_vertex_buffer(&mut self, slot: u32, vertex: VertexBuffer) -> bool {
        let handle = match vertex.buffer {
            None => RawHandle::NULL,
            Some(buffer) if self.is_static_buffer(buffer, BindFlags::VERTEX) => buffer.0,
            Some(_) => {
                return self
                    .accepted(|this| this.bind_one_buffer_slow(BufferSlot::Vertex(slot, vertex)))
            }
        };
        let payload = VertexBufferPayload {
            buffer: handle,
            offset: vertex.offset,
            stride: vertex.stride,
        };
        self.emit(Opcode::SetVertexBuffer, slot as u8, None, payload);
        true
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
        // As the legacy constant-buffer bind: the shadow tested once, no closure.
        let Some(shadow) = self.shadow.as_deref_mut() else {
            return self.set_vertex_buffers_general(slot, &[vertex]);
        };
        let target = &mut shadow.bindings.vertex_buffers[s];
        forget_fast(
            std::slice::from_mut(target),
            &mut shadow.fast.vertex_buffers,
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
        set_bit(&mut shadow.dynamic_vertex_buffers, s, false);
        let payload = VertexBufferPayload {
            buffer: handle,
            offset: vertex.offset,
            stride: vertex.stride,
        };
        self.emit(Opcode::SetVertexBuffer, slot as u8, None, payload);
    }

    /// A one-slot bind off the hot path, on a shadow-less context: a dynamic buffer (read at
    /// the instance the list mapped, in the one-slot array form) or a refusal.
    #[inline(never)]
    pub(crate) fn bind_one_buffer_slow(&mut self, slot: BufferSlot) {
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

    /// [`BindCalls::set_index_buffer`](crate::BindCalls::set_index_buffer): its semantics.
    pub(crate) fn set_index_buffer(&mut self, buffer: Option<Buffer>, format: Format, offset: u32) {
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

    /// [`InheritedStateCalls::set_primitive_reset_index`](crate::InheritedStateCalls::set_primitive_reset_index): its semantics.
    pub(crate) fn set_primitive_reset_index(&mut self, value: u32) {
        self.begin_call();
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_reset_index(value);
        }
        self.emit(Opcode::SetPrimitiveResetIndex, 0, None, [value, 0]);
    }
}

/// The one slot a shadow-less bind names, for its out-of-line path.
#[derive(Clone, Copy)]
pub(crate) enum BufferSlot {
    /// A constant buffer: the stage, the slot and the buffer.
    Constant(Stage, u32, Option<Buffer>),
    /// A vertex buffer: the slot and the binding.
    Vertex(u32, VertexBuffer),
}
