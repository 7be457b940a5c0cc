//! Maps on a deferred context (R-REC-10, R-REC-11, R-SP-1, R-ST-8): write_discard data that
//! travels with the list as a new instance, write_no_overwrite into that instance or into a
//! default buffer, and the legacy re-bind of a renamed buffer.
//!
//! **Refusals (R-REC-8).** `map` returns its own result: a refused map is reported to its
//! caller as `Err` (and as the context's last refusal) and does not poison the list, which
//! still finishes, as D3D11's `FinishCommandList` does after a failed `Map`. Nothing of a
//! refused map stays in the list: no command, no reference, no map entry.
//!
//! **Sizes (R-REC-12).** Every map's data travels in an encoded command (the list's, or the
//! immediate context's batch), so a buffer larger than
//! [`MAX_MAP_BYTES`] is refused on every path and for every map
//! type, before anything is retained or reserved. The encoder checks again where the size is
//! converted (`CommandBytes`, `DeferredContext::emit_data`): a path that forgot the check here
//! would still be refused there, never wrapped.

pub(crate) mod map_calls;
pub(crate) mod map_tracker;

use crate::call_arguments::MapFlags;
use crate::command::*;
use crate::context::role::{ContextRole, Role};
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::device::object_info::BufferInfo;
use crate::errors::{Error, ObjectName};
use crate::limits::MAX_MAP_BYTES;
use crate::maps::map_calls::Mapped;

impl<R: Role> Recorder<R> {
    fn try_map(
        &mut self,
        resource: Resource,
        map_type: MapType,
        allow_usage_default: bool,
    ) -> Result<(*mut u8, usize), Error> {
        const CALL: &str = "map";
        let Resource::Buffer(buffer) = resource else {
            return Err(Error::MapNotAllowed {
                call: CALL,
                object: self.device.object_name(resource.kind(), resource.raw()),
                map_type,
                rule: "only buffers can be mapped on a deferred context (R-REC-5, R-REC-11)",
            });
        };
        let info = match self.device.buffers.get(buffer.0, false) {
            Ok(live) => BufferInfo::unpack(live.words),
            Err(_) => return Err(self.device.stale_error(CALL, ObjectKind::Buffer, buffer.0)),
        };
        let name = || self.device.object_name(ObjectKind::Buffer, buffer.0);
        if self.maps.get(buffer.0).is_some_and(|e| e.mapped) {
            return Err(Error::AlreadyMapped {
                call: CALL,
                object: name(),
                rule: "R-REC-5",
            });
        }
        let len = info.size as usize;
        if len > MAX_MAP_BYTES {
            // Every path, every map type (R-REC-12); `emit_data` checks again.
            return Err(data_too_large(CALL, name(), len as u64));
        }
        match (map_type, info.usage) {
            (MapType::WriteDiscard, Usage::Dynamic) => {
                self.retain(ObjectKind::Buffer, buffer.0, 1, CALL)?;
                let instance = self.next_instance();
                let payload = BoundResource { resource: buffer.0, instance, is_texture: 0, data_len: 0 };
                let data = self.emit_map(Opcode::MapWriteDiscard, payload, len)?;
                let entry = self.maps.entry(buffer.0);
                entry.instance = Some(instance);
                entry.last = Some(instance);
                entry.data = data;
                // `len <= MAX_MAP_BYTES` (checked above).
                entry.len = len as u32;
                entry.mapped = true;
                self.rebind_renamed(buffer.0, instance);
                Ok((data, len))
            }
            (MapType::WriteDiscard, _) => Err(not_allowed(name(), map_type, "it is not dynamic: write_discard needs dynamic usage (R-REC-5)")),
            (MapType::WriteNoOverwrite, Usage::Dynamic) => match self.maps.get(buffer.0) {
                Some(entry) if entry.instance.is_some() && !entry.data.is_null() => {
                    let (data, len) = (entry.data, entry.len as usize);
                    self.maps.entry(buffer.0).mapped = true;
                    Ok((data, len))
                }
                current if R::RUNS_AT_ONCE => {
                    // The immediate context writes into its current instance in place; the
                    // data of a map from an earlier batch is gone, so the write travels anew.
                    let instance = current.and_then(|e| e.instance).unwrap_or(InstanceId::INITIAL);
                    self.retain(ObjectKind::Buffer, buffer.0, 1, CALL)?;
                    let payload = BoundResource { resource: buffer.0, instance, is_texture: 0, data_len: 0 };
                    let data = self.emit_map(Opcode::MapWriteNoOverwrite, payload, len)?;
                    self.maps.entry(buffer.0).mapped = true;
                    Ok((data, len))
                }
                _ => Err(Error::DynamicBeforeMap {
                    call: CALL,
                    object: name(),
                    rule: "mapped write_no_overwrite before this list mapped it write_discard (R-REC-11)",
                }),
            },
            (MapType::WriteNoOverwrite, Usage::Default) if allow_usage_default => {
                self.retain(ObjectKind::Buffer, buffer.0, 1, CALL)?;
                let payload = BoundResource { resource: buffer.0, instance: InstanceId::INITIAL, is_texture: 0, data_len: 0 };
                let data = self.emit_map(Opcode::MapWriteNoOverwrite, payload, len)?;
                self.maps.entry(buffer.0).mapped = true;
                Ok((data, len))
            }
            (MapType::WriteNoOverwrite, Usage::Default) => Err(not_allowed(name(), map_type, "it is of default usage: write_no_overwrite needs allow_usage_default (R-REC-5)")),
            (MapType::WriteNoOverwrite, _) => Err(not_allowed(name(), map_type, "it is immutable or staging (R-REC-5)")),
            (_, _) if R::RUNS_AT_ONCE => Err(not_allowed(name(), map_type, "read and write maps on the immediate context go through ImmediateContext::map (R-EX-6)")),
            (_, _) => Err(not_allowed(name(), map_type, "a deferred context maps only write_discard or write_no_overwrite: read, write and read_write maps need the immediate context (R-REC-11)")),
        }
    }

    /// Encodes a map's command and returns its data; a refusal gives back the reference the
    /// map took on the buffer (legacy), so nothing of the call remains.
    fn emit_map(
        &mut self,
        opcode: Opcode,
        payload: BoundResource,
        len: usize,
    ) -> Result<*mut u8, Error> {
        match self.emit_data("map", opcode, payload, len) {
            Ok(data) => Ok(data),
            Err(error) => {
                self.release_retained(ObjectKind::Buffer, payload.resource);
                Err(error)
            }
        }
    }

    /// [`MapCalls::unmap`](crate::MapCalls::unmap): its semantics.
    pub(crate) fn unmap(&mut self, resource: impl Into<Resource>) {
        self.begin_call();
        let resource = resource.into();
        match self.maps.get_mut(resource.raw()) {
            Some(entry) if entry.mapped => entry.mapped = false,
            _ if !self.device.is_own(resource.raw()) => {
                let error = self
                    .device
                    .foreign_error("unmap", resource.kind(), resource.raw());
                self.fail(error);
            }
            _ => {
                let object = self.device.object_name(resource.kind(), resource.raw());
                self.fail(Error::NotMapped {
                    call: "unmap",
                    object,
                });
            }
        }
    }

    /// Legacy R-ST-8: a write_discard map renames the buffer; the slots that hold it are re-bound
    /// to the new instance, as the runtime patches the binding.
    pub(crate) fn rebind_renamed(&mut self, buffer: RawHandle, instance: InstanceId) {
        let Some(mut shadow) = self.shadow.take() else {
            return;
        };
        let mut bits = shadow.dynamic_vertex_buffers;
        while bits != 0 {
            let slot = bits.trailing_zeros();
            bits &= bits - 1;
            let bound = &mut shadow.bindings.vertex_buffers[slot as usize];
            if bound.buffer == buffer {
                bound.instance = instance;
                let _ = self.retain(ObjectKind::Buffer, buffer, 1, "map");
                // One slot: it fits the encoding.
                let _ = self.emit_with(
                    "map",
                    Opcode::SetVertexBuffers,
                    0,
                    None,
                    SlotsPayload {
                        start: slot,
                        count: 1,
                    },
                    std::slice::from_ref(bound),
                );
            }
        }
        if shadow.dynamic_index_buffer && shadow.bindings.index_buffer.buffer == buffer {
            shadow.bindings.index_buffer.instance = instance;
            let _ = self.retain(ObjectKind::Buffer, buffer, 1, "map");
            self.emit(
                Opcode::SetIndexBuffer,
                0,
                None,
                shadow.bindings.index_buffer,
            );
        }
        for stage in Stage::ALL {
            let s = stage as usize;
            let mut bits = shadow.dynamic_constant_buffers[s];
            while bits != 0 {
                let slot = bits.trailing_zeros();
                bits &= bits - 1;
                let bound = &mut shadow.bindings.constant_buffers[s][slot as usize];
                if bound.buffer == buffer {
                    bound.instance = instance;
                    let _ = self.retain(ObjectKind::Buffer, buffer, 1, "map");
                    // One slot: it fits the encoding.
                    let _ = self.emit_with(
                        "map",
                        Opcode::SetConstantBuffers,
                        stage as u8,
                        None,
                        SlotsPayload {
                            start: slot,
                            count: 1,
                        },
                        std::slice::from_ref(bound),
                    );
                }
            }
            let mut bits = shadow.dynamic_shader_resources[s];
            while bits != 0 {
                let slot = bits.trailing_zeros();
                bits &= bits - 1;
                let bound = &mut shadow.bindings.shader_resources[s][slot as usize];
                if bound.resource == buffer {
                    bound.instance = instance;
                    let _ = self.retain(ObjectKind::ShaderResourceView, bound.view, 1, "map");
                    // One slot: it fits the encoding.
                    let _ = self.emit_with(
                        "map",
                        Opcode::SetShaderResources,
                        stage as u8,
                        None,
                        SlotsPayload {
                            start: slot,
                            count: 1,
                        },
                        std::slice::from_ref(bound),
                    );
                }
            }
        }
        self.shadow.put(shadow);
    }
}

/// The refusal of a map of `object` of a type its usage or the context does not allow.
#[cold]
fn not_allowed(object: ObjectName, map_type: MapType, rule: &'static str) -> Error {
    Error::MapNotAllowed {
        call: "map",
        object,
        map_type,
        rule,
    }
}

impl<R: ContextRole> Recorder<R> {
    /// [`MapCalls::map`](crate::MapCalls::map): its semantics.
    pub(crate) fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error> {
        self.begin_call();
        let resource = resource.into();
        match self.try_map(resource, map_type, flags.allows_usage_default()) {
            // SAFETY: `data` points at `len` zeroed bytes in the data area of a command that
            // `emit_data` reserved in a chunk of the list being recorded, memory the context
            // owns through the writer's raw pointers (not through the `&mut self` borrow); the
            // chunk stays until the list is finished or the batch taken, and both need
            // `&mut self`, which the guard borrows: nothing records, seals or frees the chunk
            // while it lives, and no other reference to those bytes exists.
            Ok((data, len)) => Ok(unsafe { Mapped::new(self, resource, data, len) }),
            Err(error) => Err(self.refuse_reported_call(error)),
        }
    }
}
