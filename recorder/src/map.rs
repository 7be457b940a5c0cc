//! Maps on a deferred context (R-REC-10, R-REC-11, R-SP-1, R-ST-8): write_discard data that
//! travels with the list as a new instance, write_no_overwrite into that instance or into a
//! default buffer, and the legacy re-bind of a renamed buffer.

use crate::context::DeferredContext;
use crate::desc::*;
use crate::encode::*;
use crate::error::Error;
use crate::handle::*;
use crate::info::BufferInfo;

impl DeferredContext {
    /// Maps a buffer for writing and returns its memory, or `None` if the call was refused.
    ///
    /// - `WriteDiscard` (dynamic buffers): a new instance whose data travels with the list; later
    ///   binds in this list read it without a split point (R-SP-1, R-REC-10). On a legacy context
    ///   the slots where the buffer is bound are re-bound to it (R-ST-8).
    /// - `WriteNoOverwrite`: on a dynamic buffer, writes into the instance this list mapped
    ///   write_discard, and is an error before one (R-REC-11); on a default buffer, only with
    ///   `allow_usage_default`, writes in place and never splits.
    ///
    /// Other map types are immediate-context calls.
    pub fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        allow_usage_default: bool,
    ) -> Option<&mut [u8]> {
        self.begin_call();
        match self.try_map(resource.into(), map_type, allow_usage_default) {
            // SAFETY: the data lies in a chunk of the list being recorded, which this context owns
            // until the list is finished; the borrow of `self` ends before anything else is
            // recorded.
            Ok((data, len)) => Some(unsafe { std::slice::from_raw_parts_mut(data, len) }),
            Err(error) => {
                self.fail(error);
                None
            }
        }
    }

    fn try_map(
        &mut self,
        resource: Resource,
        map_type: MapType,
        allow_usage_default: bool,
    ) -> Result<(*mut u8, usize), Error> {
        const CALL: &str = "map";
        let Resource::Buffer(buffer) = resource else {
            return Err(Error::invalid(
                CALL,
                "only buffers can be mapped on a deferred context",
            ));
        };
        let info = match self.device.buffers.get(buffer.0, false) {
            Ok(live) => BufferInfo::unpack(live.words),
            Err(_) => return Err(self.device.stale_error(CALL, ObjectKind::Buffer, buffer.0)),
        };
        let name = || self.device.object_name(ObjectKind::Buffer, buffer.0);
        if self.maps.get(buffer.0).is_some_and(|e| e.mapped) {
            return Err(Error::invalid(
                CALL,
                format!("{} is already mapped; unmap it first", name()),
            ));
        }
        let len = info.size as usize;
        match (map_type, info.usage) {
            (MapType::WriteDiscard, Usage::Dynamic) => {
                if len > crate::limits::MAX_CHUNK_SIZE / 2 {
                    return Err(Error::invalid(CALL, format!("{} is too large ({len} bytes) to travel with a list", name())));
                }
                self.retain(ObjectKind::Buffer, buffer.0, 1, CALL)?;
                let instance = self.next_instance();
                let payload = BoundResource { resource: buffer.0, instance, is_texture: 0, data_len: len as u32 };
                let data = self.emit_data(Opcode::MapWriteDiscard, payload, len);
                let entry = self.maps.entry(buffer.0);
                entry.instance = Some(instance);
                entry.data = data;
                entry.len = len as u32;
                entry.mapped = true;
                self.rebind_renamed(buffer.0, instance);
                Ok((data, len))
            }
            (MapType::WriteDiscard, _) => Err(Error::invalid(CALL, format!("{} is not dynamic: write_discard needs dynamic usage", name()))),
            (MapType::WriteNoOverwrite, Usage::Dynamic) => match self.maps.get(buffer.0) {
                Some(entry) if entry.instance.is_some() && !entry.data.is_null() => {
                    let (data, len) = (entry.data, entry.len as usize);
                    self.maps.entry(buffer.0).mapped = true;
                    Ok((data, len))
                }
                current if self.immediate => {
                    // The immediate context writes into its current instance in place; the
                    // data of a map from an earlier batch is gone, so the write travels anew.
                    let instance = current.and_then(|e| e.instance).unwrap_or(InstanceId::INITIAL);
                    self.retain(ObjectKind::Buffer, buffer.0, 1, CALL)?;
                    let payload = BoundResource { resource: buffer.0, instance, is_texture: 0, data_len: len as u32 };
                    let data = self.emit_data(Opcode::MapWriteNoOverwrite, payload, len);
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
                if len > crate::limits::MAX_CHUNK_SIZE / 2 {
                    return Err(Error::invalid(CALL, format!("{} is too large ({len} bytes) to travel with a list", name())));
                }
                self.retain(ObjectKind::Buffer, buffer.0, 1, CALL)?;
                let payload = BoundResource { resource: buffer.0, instance: InstanceId::INITIAL, is_texture: 0, data_len: len as u32 };
                let data = self.emit_data(Opcode::MapWriteNoOverwrite, payload, len);
                self.maps.entry(buffer.0).mapped = true;
                Ok((data, len))
            }
            (MapType::WriteNoOverwrite, Usage::Default) => Err(Error::invalid(
                CALL,
                format!("{} is of default usage: write_no_overwrite needs allow_usage_default", name()),
            )),
            (MapType::WriteNoOverwrite, _) => Err(Error::invalid(CALL, format!("{} cannot be mapped write_no_overwrite (immutable or staging)", name()))),
            (_, _) if self.immediate => Err(Error::invalid(
                CALL,
                "read and write maps on the immediate context are not built yet (R-EX-6 arrives with the executor issue)",
            )),
            (_, _) => Err(Error::invalid(CALL, "a deferred context maps only write_discard or write_no_overwrite")),
        }
    }

    /// Ends a map.
    pub fn unmap(&mut self, resource: impl Into<Resource>) {
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
                self.fail(Error::invalid(
                    "unmap",
                    format!("{object} is not mapped on this context"),
                ));
            }
        }
    }

    /// Legacy R-ST-8: a write_discard map renames the buffer; the slots that hold it are re-bound
    /// to the new instance, as the runtime patches the binding.
    fn rebind_renamed(&mut self, buffer: RawHandle, instance: InstanceId) {
        let Some(mut shadow) = self.shadow.take() else {
            return;
        };
        let mut bits = shadow.dynamic_vertex_buffers;
        while bits != 0 {
            let slot = bits.trailing_zeros();
            bits &= bits - 1;
            let bound = &mut shadow.vertex_buffers[slot as usize];
            if bound.buffer == buffer {
                bound.instance = instance;
                let _ = self.retain(ObjectKind::Buffer, buffer, 1, "map");
                self.emit_with(
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
        if shadow.dynamic_index_buffer && shadow.index_buffer.buffer == buffer {
            shadow.index_buffer.instance = instance;
            let _ = self.retain(ObjectKind::Buffer, buffer, 1, "map");
            self.emit(Opcode::SetIndexBuffer, 0, None, shadow.index_buffer);
        }
        for stage in Stage::ALL {
            let s = stage as usize;
            let mut bits = shadow.dynamic_constant_buffers[s];
            while bits != 0 {
                let slot = bits.trailing_zeros();
                bits &= bits - 1;
                let bound = &mut shadow.constant_buffers[s][slot as usize];
                if bound.buffer == buffer {
                    bound.instance = instance;
                    let _ = self.retain(ObjectKind::Buffer, buffer, 1, "map");
                    self.emit_with(
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
                let bound = &mut shadow.shader_resources[s][slot as usize];
                if bound.resource == buffer {
                    bound.instance = instance;
                    let _ = self.retain(ObjectKind::ShaderResourceView, bound.view, 1, "map");
                    self.emit_with(
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
        self.shadow = Some(shadow);
    }
}
