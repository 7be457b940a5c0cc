//! Fences, maps and what the CPU may ask the GPU model (R-EX-5, R-EX-6, R-FX-3..6): whether a
//! fence or a resource is pending, query data, the GPU's memory words, maps and unmaps of
//! buffers and textures, and device context states.
//!
//! **In:** the application's questions and maps, on the immediate context. **Out:** answers as
//! the GPU model has run so far (each call lets it consume what was submitted first, except
//! `get_data`, which reads without flushing), mapped memory, and the waits a legacy map costs
//! (`fence_waits`). A read, write or read_write map of a staging buffer or texture hands out
//! the model's bytes (the last CPU write), or, with a backend installed, the GPU's
//! (`GpuBackend::read_mapped`, R-GPU-2); a writing map's unmap hands its bytes to the backend
//! (`write_mapped`).
//!
//! **Invariant.** A legacy read or write map of a resource the GPU may still use waits; a fast
//! one never does, and under validation is refused with `resource_in_use` (`progress.rs` has
//! the model of time).

use recorder::command::InstanceId;
use recorder::{
    Buffer, Error, Handle, MapCalls, MapFlags, MapType, Mapped, ObjectKind, RawHandle, Resource,
    Semantics, Texture, Usage,
};

use super::ImmediateContext;

impl ImmediateContext {
    /// Whether the fence `value` (from `insert_fence` on any context) has not passed yet: its
    /// command has not executed, or the GPU has not finished what came before it. Once it
    /// answers `false`, everything before the fence is finished for the CPU: resources used
    /// there may be mapped (see `progress.rs` for the model of time).
    pub fn is_fence_pending(&mut self, value: u64) -> bool {
        self.sync_gpu();
        match self.side.gpu.progress().fence_position(value) {
            Some(position) => {
                self.side.gpu.progress_mut().retire(position);
                false
            }
            None => true,
        }
    }

    /// The result of `query` (`GetData`, R-FX-3), shaped by its kind. It flushes nothing:
    /// direct calls not yet submitted (the batch runs at a [`flush`](Self::flush), an
    /// execution, a present, or an observation such as [`records`](Self::records)) have not
    /// run. Under `GpuTiming::Threaded` it waits for the GPU thread to consume what was
    /// submitted; under `Deferred` the model runs only when observed, and this is no
    /// observation.
    ///
    /// - **Legacy semantics** waits for the work: `Err(QueryNotReady)` until the GPU model has
    ///   run the query's end (or `write_query`), and again once it has run a `begin_query` or
    ///   `reset_query` of it after that.
    /// - **Fast semantics** aggregates and returns even if the GPU has not finished (seed 000):
    ///   what the model has counted so far, an open scope's counts included (zeros when
    ///   nothing of it has run); never `QueryNotReady`.
    ///
    /// A released query is refused with `released_object`; a query no end was ever recorded
    /// for, on any context, with `QueryNeverEnded` (nothing to wait for).
    ///
    /// With a GPU backend installed that answers queries (`GpuBackend::query_result`), a query
    /// whose last end the model has run returns the GPU's result (the Vulkan backend's
    /// occlusion counts are pixels, the model's one sample per primitive); an open scope
    /// (fast semantics) returns the model's counts so far.
    pub fn get_data(&mut self, query: recorder::Query) -> Result<crate::gpu::QueryData, Error> {
        const CALL: &str = "get_data";
        let device = self.device.clone();
        let name = || device.object_name(ObjectKind::Query, query.raw());
        let (Some(kind), Some(ended)) = (
            self.device.query_kind(query),
            self.device.query_ever_ended(query),
        ) else {
            // Another device's query is `invalid_argument` naming both devices; one of this
            // device's that was released, `released_object` (R-OBJ-3).
            return Err(self
                .device
                .lookup_error(CALL, ObjectKind::Query, query.raw()));
        };
        if !ended {
            return Err(Error::QueryNeverEnded {
                call: CALL,
                query: name(),
            });
        }
        // What was submitted to the GPU thread has run once the model is back.
        self.home();
        // The model has the query's last end: a backend may answer with the GPU's result.
        if self.side.gpu.query_result(query.raw()).is_some() {
            if let Some(backend) = self.side.gpu.backend_mut() {
                if let Some(data) = backend.query_result(query.raw(), kind)? {
                    return Ok(data);
                }
            }
        }
        let gpu = &self.side.gpu;
        let result = match self.semantics {
            Semantics::Legacy => {
                gpu.query_result(query.raw())
                    .ok_or_else(|| Error::QueryNotReady {
                        call: CALL,
                        query: name(),
                    })?
            }
            Semantics::Fast => gpu.query_so_far(query.raw()),
        };
        Ok(crate::gpu::QueryData::of(kind, result))
    }

    /// The value `write_value_bottom_of_pipe` last wrote at `offset` of `buffer`, once the GPU
    /// has written it (the application's own fence scheme, R-EX-5); reading it tells the CPU
    /// that everything before the write is finished.
    pub fn memory_value(&mut self, buffer: Buffer, offset: u64) -> Option<u64> {
        self.sync_gpu();
        let (value, position) = self.side.gpu.progress().memory(buffer.raw(), offset)?;
        self.side.gpu.progress_mut().retire(position);
        Some(value)
    }

    /// `count` words of `buffer` from byte `offset`, as the GPU model holds them once everything
    /// submitted has run (R-FX-4, R-FX-5): what `read_gds`, `store_constant_ram` and
    /// `write_value_bottom_of_pipe` wrote there, zero elsewhere (`gpu/memory.rs` says what the
    /// model covers). Reading tells the CPU nothing about fences (use `memory_value` for that).
    /// Refused (`out_of_range`) unless `offset` is word-aligned and the words lie in the
    /// buffer; a buffer destroyed or of another device is `released_object` or
    /// `invalid_argument` (R-OBJ-3).
    pub fn buffer_words(
        &mut self,
        buffer: Buffer,
        offset: u64,
        count: u32,
    ) -> Result<Vec<u32>, Error> {
        const CALL: &str = "buffer_words";
        let size = self
            .device
            .buffer_info(buffer)
            .ok_or_else(|| {
                self.device
                    .lookup_error(CALL, ObjectKind::Buffer, buffer.raw())
            })?
            .size;
        words_in(
            CALL,
            "the buffer's",
            offset,
            count,
            size as u64,
            "R-FX-4, R-FX-5",
        )?;
        self.sync_gpu();
        Ok(self
            .side
            .gpu
            .memory()
            .buffer_words(buffer.raw(), offset, count))
    }

    /// `count` GDS words from byte `offset` once everything submitted has run (R-FX-4).
    /// Refused (`out_of_range`) unless `offset` is word-aligned and the words lie in the
    /// `GDS_BYTES` of GDS.
    pub fn gds_words(&mut self, offset: u32, count: u32) -> Result<Vec<u32>, Error> {
        let space = recorder::limits::GDS_BYTES as u64;
        words_in("gds_words", "GDS's", offset as u64, count, space, "R-FX-4")?;
        self.sync_gpu();
        Ok(self.side.gpu.memory().gds(offset, count))
    }

    /// `count` constant-RAM words from byte `offset` once everything submitted has run
    /// (R-FX-5). Refused (`out_of_range`) unless `offset` is word-aligned and the words lie in
    /// the `CONSTANT_RAM_BYTES` of constant RAM.
    pub fn constant_ram_words(&mut self, offset: u32, count: u32) -> Result<Vec<u32>, Error> {
        let space = recorder::limits::CONSTANT_RAM_BYTES as u64;
        words_in(
            "constant_ram_words",
            "constant RAM's",
            offset as u64,
            count,
            space,
            "R-FX-5",
        )?;
        self.sync_gpu();
        Ok(self.side.gpu.memory().constant_ram(offset, count))
    }

    /// Inserts a fence on `engine` after the direct calls so far and returns its device-wide
    /// value (R-EX-5): [`is_fence_pending`](Self::is_fence_pending) answers `false` once the GPU
    /// model has run the work before it.
    #[inline]
    pub fn insert_fence(&mut self, engine: recorder::Engine) -> u64 {
        self.recorder.insert_fence(engine)
    }

    /// [`insert_fence`](Self::insert_fence) with `flags` (R-FX-6): with
    /// [`FenceFlags::KickOff`](recorder::FenceFlags::KickOff) the direct calls so far, the fence
    /// last, are submitted at once, as [`flush`](Self::flush) does; what the GPU model reported
    /// of them waits for the next `flush`.
    pub fn insert_fence_with(
        &mut self,
        engine: recorder::Engine,
        flags: recorder::FenceFlags,
    ) -> u64 {
        let value = self.recorder.insert_fence_with(engine, flags);
        if flags.kicks_off() {
            if let Err(error) = self.submit_direct() {
                self.direct_report.get_or_insert(error);
            }
        }
        value
    }

    /// A device context state object holding the ClearState defaults (R-FX-6): see
    /// [`recorder::DeviceContextState`]. Refused on a fast immediate context
    /// (`forbidden_in_fast`).
    pub fn create_device_context_state(&mut self) -> Result<recorder::DeviceContextState, Error> {
        self.recorder.create_device_context_state()
    }

    /// The device context state object active now (R-FX-6): the one the last accepted
    /// [`swap_device_context_state`](Self::swap_device_context_state) activated; `None` before
    /// the first (the implicit default object, which the first swap makes and returns). What a
    /// capture reads at a frame's start.
    pub fn active_device_context_state(&self) -> Option<&recorder::DeviceContextState> {
        self.active_state.as_ref()
    }

    /// Activates `state` (R-FX-6, D3D11.1's `SwapDeviceContextState`): the context's state is
    /// saved into the previously active object, and `state`'s saved state (its defaults, if it
    /// was never active) becomes current, recorded among the direct calls as a ClearState and
    /// the binds of that state. Returns the previously active object (an implicit default one,
    /// holding the state from before, the first time); swapping in the active object changes
    /// nothing. Reports its own result, poisoning nothing: refused on a fast immediate context
    /// (`forbidden_in_fast`), with another device's object (`invalid_argument`), and whole
    /// when the incoming state names an object released since it was saved
    /// (`released_object`, naming the swap). See [`recorder::DeviceContextState`].
    pub fn swap_device_context_state(
        &mut self,
        state: &recorder::DeviceContextState,
    ) -> Result<recorder::DeviceContextState, Error> {
        self.recorder
            .swap_device_context_state(&mut self.active_state, state)
    }

    /// Whether legacy-semantics work that uses `resource` has been submitted (the direct calls
    /// so far included) and the GPU has not finished it, as far as the CPU knows
    /// (ID3D11DeviceX::IsResourcePending, R-FX-6). Seed 000: it "will check only whether the
    /// given resource has pending work on legacy semantics contexts—a resource is never
    /// considered pending with fast semantics": work of fast lists, of a fast immediate context
    /// and of bundles never makes it pending.
    ///
    /// A use is what the GPU model tracks for legacy maps (`progress.rs`): the resources a draw
    /// or dispatch reads or writes through its bindings (vertex, index and constant buffers,
    /// shader-resource and unordered-access views, render targets, the depth-stencil view),
    /// clears of a view's resource, copies (both resources), `update_subresource`,
    /// `decompress_resource`, `copy_structure_count`. Reads as indirect arguments do not count
    /// (they follow fast semantics whatever the context, seed 000). The work is finished once
    /// the CPU has evidence of it (`progress.rs`'s model of time): a fence after it seen passed
    /// ([`is_fence_pending`](Self::is_fence_pending) answering `false`), a bottom-of-pipe value
    /// written after it read back, or a legacy map that waited for it.
    pub fn is_resource_pending<H: Handle>(&mut self, resource: H) -> bool {
        self.sync_gpu();
        self.side.gpu.progress().legacy_pending(resource.raw())
    }

    /// The instance of dynamic buffer `buffer` that the immediate context's maps and executed
    /// legacy lists made current (R-ST-8): what a dynamic split point resolves to (R-SP-4).
    pub fn current_instance(&self, buffer: RawHandle) -> InstanceId {
        self.recorder.current_instance(buffer)
    }

    /// Whether `texture` is compressed now, as the GPU model tracks it (R-ST-9).
    pub fn resource_compression(&mut self, texture: Texture) -> bool {
        self.sync_gpu();
        self.side.gpu.is_compressed(texture.raw())
    }
}

/// The immediate context's maps: read and write maps of staging and default resources as well
/// as the deferred context's (R-EX-6).
impl MapCalls for ImmediateContext {
    /// Maps `resource` on the immediate context and returns its memory (R-EX-6).
    ///
    /// - `WriteDiscard` and `WriteNoOverwrite`: as on a deferred context; they never wait.
    /// - `Read`, `Write`, `ReadWrite`: staging buffers, or default buffers with
    ///   `MapFlags::AllowUsageDefault`. If the GPU may still use the buffer (a use since the CPU last
    ///   saw the GPU finish it), legacy semantics waits for it (one `fence_waits`), except for
    ///   reads as the arguments of indirect draws and dispatches, which follow fast semantics
    ///   whatever the context (seed 000: the application synchronises them itself); fast
    ///   semantics never waits, and under validation the map is refused with
    ///   `resource_in_use`, naming the tracked fence: insert a fence after the last use and
    ///   wait until `is_fence_pending` answers `false` first.
    ///
    /// - Textures: a staging texture (one with no bind flags, as D3D11's staging textures), its
    ///   first subresource (mip 0, slice 0), rows packed: [`Mapped::row_pitch`] is the row's
    ///   texels times the format's bytes (4x4 blocks for `bc*`); another texture is refused
    ///   with `map_not_allowed`.
    ///
    /// The model keeps no GPU contents: without a backend a read sees what the CPU last wrote
    /// through a map of the resource, zeros at first. With a backend (R-GPU-2) every read,
    /// write and read_write map hands out the GPU's bytes, which the backend reads back after
    /// running everything submitted (a copy into the staging resource, say); they win over the
    /// model's, as on hardware. A write or read_write map's bytes reach GPU memory at its
    /// unmap.
    ///
    /// Every map type refuses a buffer larger than
    /// [`MAX_MAP_BYTES`](recorder::limits::MAX_MAP_BYTES) (R-REC-12). A refused map changes
    /// nothing (R-REC-8). A flush while a buffer is mapped write_discard or write_no_overwrite
    /// is harmless: see `Recorder::take_batch` (the immediate recorder's, in `recorder::engine`).
    fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error> {
        const CALL: &str = "map";
        let resource = resource.into();
        let allow_usage_default = flags.allows_usage_default();
        if matches!(map_type, MapType::WriteDiscard | MapType::WriteNoOverwrite) {
            let bytes = self.recorder.map(resource, map_type, flags)?.keep_mapped();
            let (data, len) = (bytes.as_mut_ptr(), bytes.len());
            // SAFETY: the bytes are in a chunk of the recorder's batch, memory it owns through
            // raw pointers (not through this borrow); they stay until the batch is taken, which
            // needs `&mut self`, borrowed by the guard; the guard's drop unmaps through
            // `unmap`, which finds no read / write map and ends the recorder's.
            return Ok(unsafe { Mapped::new(self, resource, data, len) });
        }
        let (size, row_pitch) = self.cpu_mappable(CALL, resource, map_type, allow_usage_default)?;
        let raw = resource.raw();
        let device = self.device.clone();
        let object = || device.object_name(resource.kind(), raw);
        if self.cpu_mapped.contains_key(&raw) {
            return Err(Error::AlreadyMapped {
                call: CALL,
                object: object(),
                rule: "R-EX-6",
            });
        }
        self.sync_gpu();
        let progress = self.side.gpu.progress();
        // A legacy map does not wait for a use as indirect arguments (seed 000, R-EX-6).
        let in_use = match self.semantics {
            Semantics::Legacy => progress.in_use(raw),
            Semantics::Fast => progress.in_use_by_any(raw),
        };
        if let Some(fence) = in_use {
            match self.semantics {
                Semantics::Legacy => {
                    // Blocks until the GPU is done with it (R-EX-6).
                    self.side.gpu.progress_mut().retire(fence);
                    self.side.gpu.count_fence_wait();
                }
                Semantics::Fast if self.validating => {
                    return Err(Error::ResourceInUse {
                        call: CALL,
                        object: object(),
                        engine: "graphics",
                        fence,
                    })
                }
                Semantics::Fast => {}
            }
        }
        let bytes = self.cpu_data.entry(raw).or_insert_with(|| vec![0; size]);
        // A backend's GPU memory wins over the model's bytes, as on hardware (R-GPU-2): every
        // map type reads it, so that the bytes a write map leaves alone go back unchanged.
        if let Some(Err(error)) = self
            .side
            .gpu
            .backend_mut()
            .and_then(|backend| backend.read_mapped(resource, bytes))
        {
            return Err(error);
        }
        self.cpu_mapped.insert(raw, map_type != MapType::Read);
        let (data, len) = (bytes.as_mut_ptr(), bytes.len());
        // SAFETY: the bytes are the heap buffer of the resource's entry in `cpu_data` (their
        // provenance is the allocation's, not this borrow's); nothing resizes, removes or reads
        // the entry while the resource is in `cpu_mapped`, i.e. until `unmap`, which the
        // guard's drop calls, and the guard borrows `self` mutably until then.
        Ok(unsafe { Mapped::new(self, resource, data, len) }.with_row_pitch(row_pitch))
    }

    /// Ends a map made by [`map`](Self::map), of any type.
    /// The unmap of a write or read_write map hands the bytes to the backend, if one is
    /// installed, once the model has run what was submitted (R-GPU-2); what it refuses waits
    /// for the next [`flush`](ImmediateContext::flush).
    fn unmap(&mut self, resource: impl Into<Resource>) {
        let resource = resource.into();
        let Some(writes) = self.cpu_mapped.remove(&resource.raw()) else {
            self.recorder.unmap(resource);
            return;
        };
        if writes && self.backend_installed {
            self.sync_gpu();
            let bytes = self.cpu_data.get(&resource.raw());
            if let (Some(backend), Some(bytes)) = (self.side.gpu.backend_mut(), bytes) {
                if let Err(error) = backend.write_mapped(resource, bytes) {
                    self.direct_report.get_or_insert(error);
                }
            }
        }
    }
}

impl ImmediateContext {
    /// Whether `resource` may be mapped `map_type` on the CPU path (read, write, read_write):
    /// its mapped bytes and row pitch, or the refusal.
    fn cpu_mappable(
        &self,
        call: &'static str,
        resource: Resource,
        map_type: MapType,
        allow_usage_default: bool,
    ) -> Result<(usize, usize), Error> {
        let object = || self.device.object_name(resource.kind(), resource.raw());
        let (size, row_pitch) = match resource {
            Resource::Buffer(buffer) => {
                let Some(info) = self.device.buffer_info(buffer) else {
                    return Err(self
                        .device
                        .lookup_error(call, ObjectKind::Buffer, buffer.raw()));
                };
                match info.usage {
                    Usage::Staging => {}
                    Usage::Default if allow_usage_default => {}
                    usage => {
                        return Err(Error::WrongUsage {
                            call,
                            object: object(),
                            usage,
                            rule: "read, write and read_write maps need a staging buffer, or a default one with allow_usage_default (R-REC-5, R-EX-6)",
                        })
                    }
                }
                (info.size as u64, info.size as u64)
            }
            Resource::Texture(texture) => {
                let Some(info) = self.device.texture_info(texture) else {
                    return Err(self
                        .device
                        .lookup_error(call, ObjectKind::Texture, texture.raw()));
                };
                if !info.bind.is_empty() || info.back_buffer.is_some() {
                    return Err(Error::MapNotAllowed {
                        call,
                        object: object(),
                        map_type,
                        rule: "read, write and read_write maps of textures need a staging texture: one bound nowhere (no bind flags, as D3D11's staging textures); copy into one first (R-EX-6, R-GPU-2)",
                    });
                }
                let (row_pitch, rows) = info.mapped_layout();
                (row_pitch.saturating_mul(rows), row_pitch)
            }
        };
        if size > recorder::limits::MAX_MAP_BYTES as u64 {
            // The same limit as maps whose data travels (R-REC-12): the model keeps the CPU's
            // copy of the resource, and a read map of a 4 GiB buffer must not allocate one.
            return Err(Error::TooLarge {
                call,
                what: object().to_string(),
                bytes: size,
                holder: "a map",
                limit: recorder::limits::MAX_MAP_BYTES as u64,
            });
        }
        Ok((size as usize, row_pitch as usize))
    }
}

/// Whether `count` words from byte `offset` lie in a space of `size` bytes, `offset` word-aligned:
/// a getter's range check (computed in `u64`, so no input overflows it).
fn words_in(
    call: &'static str,
    space: &str,
    offset: u64,
    count: u32,
    size: u64,
    rule: &str,
) -> Result<(), Error> {
    let end = offset.checked_add(count as u64 * 4);
    if offset.is_multiple_of(4) && end.is_some_and(|end| end <= size) {
        return Ok(());
    }
    Err(Error::OutOfRange {
        call,
        argument: "offset and count",
        value: format!("{count} words from byte {offset}"),
        allowed: format!("a word-aligned offset and words within {space} {size} bytes ({rule})")
            .into(),
    })
}
