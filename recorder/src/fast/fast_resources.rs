//! The calls that always follow the fast contract, on any context (R-FX-1, R-FX-2; seed 000:
//! "individual APIs ... that always operate as though fast semantics has been defined"):
//! `set_fast_resources` (many slots of several kinds in one call), its reusable batch
//! ([`FastResourceBatch`], recorded by `set_fast_resources_into_batch` and applied by
//! `set_fast_resources_from_batch`), `set_fast_shader_resource`, and the placement calls
//! (`set_placement_shader_resource`, `set_placement_constant_buffer`,
//! `set_placement_vertex_buffer`, `set_placement_index_buffer`), which give a default resource
//! the address the application chose as it is bound.
//!
//! **The fast contract, on a legacy context too.** Each entry is resolved as a fast context
//! resolves it, whatever the context's semantics: a dynamic resource reads the instance of this
//! list's own write_discard map, and one not mapped on this list is refused
//! (`dynamic_before_map`, R-SP-3), never a split point; the immediate context reads its current
//! instance. A view carries the view's own minimum LOD (`set_shader_resource_view_min_lod`), not
//! its texture's (R-ST-6), and a view of a compressible target is no decompression split point.
//! No reference is taken, by the list or by the binding (R-OBJ-4 is the application's, as under
//! fast semantics), and a view of a resource bound for output is bound as told (R-ST-10's
//! "bound null" is not applied: hazards are the application's). Each entry encodes as the
//! ordinary one-slot command of its kind (`SetConstantBuffers`, `SetShaderResources`,
//! `SetSamplers`, `SetVertexBuffers`, `SetIndexBuffer`), so execution, the GPU model, the draw
//! records, bundles and the list walkers see nothing new.
//!
//! **A legacy context's shadow.** The binding goes into the shadow like any other
//! (`shadow.rs`), so everything the shadow drives stays exact: the state carried into the next
//! list after `finish_command_list(restore)` re-binds it (R-ST-1; a dynamic one is resolved
//! again at execution, as a carried legacy dynamic binding is), a later output bind of its
//! resource unbinds the view (R-ST-10 applies to what the context knows is bound), a later
//! write_discard map of its dynamic buffer re-binds it (R-ST-8), and `clear_state` clears it.
//! What differs is the reference: the slot is marked in the shadow's `FastSlots` (its binding
//! holds none).
//! The old binding's reference, if it held one, is given back as a legacy replacement does;
//! whatever later replaces or drops a marked slot (a legacy bind, the hazard rule, a reset)
//! forgets it first (`forget_fast`), so no reference is given back for it. The counts stay
//! exact (`Device::references`: a fast bind moves none). The carried list takes its list
//! reference on what it re-binds, as it does for every carried binding (that is the carry's,
//! not the fast call's); an object the application released while fast-bound is its own
//! responsibility, as under fast semantics.
//!
//! **Refused as a whole.** Every entry is checked before anything is encoded: a slot past its
//! kind's slots (`invalid_argument`), a released object (`released_object`), a missing bind
//! flag (`invalid_argument`), a dynamic resource not mapped on this list (`dynamic_before_map`);
//! a refusal binds nothing.
//!
//! **Batches.** [`FastResourceBatch`] is the application's: `set_fast_resources_into_batch`
//! checks the entries against the device (slots, kinds, bind flags, liveness) and appends them;
//! `set_fast_resources_from_batch` applies them in one call on any context of the device, any
//! number of times: it checks every entry again (an object released since refuses the call with
//! `released_object` naming it, nothing bound) and encodes them. Applying allocates nothing.
//!
//! **Placement (R-FX-2).** The seeds' alternative to dynamic resources: the application keeps
//! its own memory (a ring) and gives a *default*-usage resource (a buffer of `Usage::Default`,
//! or a texture) a new address as it binds it. The binding reads
//! [`InstanceId::placed`]`(address)`: no rename, no map, no split point, and the draw records
//! show the placed instance (`NAME@0x1000`). A buffer of any other usage is refused
//! (`invalid_argument`, naming R-FX-2), as is an address above
//! [`InstanceId::MAX_PLACEMENT_ADDRESS`]. The placement index-buffer bind derives the reset index
//! as the context's index-buffer bind does (R-ST-5: legacy from the format; fast leaves it).

use std::mem::MaybeUninit;

use crate::binds::resolve::{check_range, set_bit};
use crate::call_arguments::{FastResource, FastResourceBatch, VertexBuffer};
use crate::command::*;
use crate::context::role::Role;
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::device::object_info::{BufferInfo, ViewInfo};
use crate::errors::Error;
use crate::limits::*;

/// What one fast bind encodes: an entry, or the placement index buffer.
#[derive(Clone, Copy)]
enum FastBind {
    Entry(FastResource),
    Index { buffer: Buffer, format: Format },
}

/// A resolved binding.
#[derive(Clone, Copy)]
enum Resolved {
    Buffer(BoundBuffer),
    View(BoundView),
    Sampler(RawHandle),
}

impl<R: Role> Recorder<R> {
    /// [`FastBindCalls::set_fast_resources`](crate::FastBindCalls::set_fast_resources): its semantics.
    pub(crate) fn set_fast_resources(&mut self, entries: &[FastResource]) {
        self.begin_call();
        if let Err(error) = self.try_fast_resources("set_fast_resources", entries) {
            self.fail(error);
        }
    }

    /// [`FastBindCalls::set_fast_shader_resource`](crate::FastBindCalls::set_fast_shader_resource): its semantics.
    pub(crate) fn set_fast_shader_resource(
        &mut self,
        stage: Stage,
        slot: u32,
        view: Option<ShaderResourceView>,
    ) {
        self.begin_call();
        let entry = FastResource::ShaderResource { stage, slot, view };
        if let Err(error) = self.try_fast_resources("set_fast_shader_resource", &[entry]) {
            self.fail(error);
        }
    }

    /// [`FastBindCalls::set_fast_resources_into_batch`](crate::FastBindCalls::set_fast_resources_into_batch): its semantics.
    pub(crate) fn set_fast_resources_into_batch(
        &mut self,
        batch: &mut FastResourceBatch,
        entries: &[FastResource],
    ) {
        self.begin_call();
        const CALL: &str = "set_fast_resources_into_batch";
        for entry in entries {
            if let Err(error) = self.check_entry(CALL, entry) {
                return self.fail(error);
            }
        }
        batch.entries.extend_from_slice(entries);
    }

    /// [`FastBindCalls::set_fast_resources_from_batch`](crate::FastBindCalls::set_fast_resources_from_batch): its semantics.
    pub(crate) fn set_fast_resources_from_batch(&mut self, batch: &FastResourceBatch) {
        self.begin_call();
        let call = "set_fast_resources_from_batch";
        if let Err(error) = self.try_fast_resources(call, &batch.entries) {
            self.fail(error);
        }
    }

    /// [`FastBindCalls::set_placement_shader_resource`](crate::FastBindCalls::set_placement_shader_resource): its semantics.
    pub(crate) fn set_placement_shader_resource(
        &mut self,
        stage: Stage,
        slot: u32,
        view: ShaderResourceView,
        address: u64,
    ) {
        self.begin_call();
        let entry = FastResource::ShaderResource {
            stage,
            slot,
            view: Some(view),
        };
        let call = "set_placement_shader_resource";
        if let Err(error) = self.try_placement(call, FastBind::Entry(entry), address) {
            self.fail(error);
        }
    }

    /// [`FastBindCalls::set_placement_constant_buffer`](crate::FastBindCalls::set_placement_constant_buffer): its semantics.
    pub(crate) fn set_placement_constant_buffer(
        &mut self,
        stage: Stage,
        slot: u32,
        buffer: Buffer,
        address: u64,
    ) {
        self.begin_call();
        let entry = FastResource::ConstantBuffer {
            stage,
            slot,
            buffer: Some(buffer),
        };
        let call = "set_placement_constant_buffer";
        if let Err(error) = self.try_placement(call, FastBind::Entry(entry), address) {
            self.fail(error);
        }
    }

    /// [`FastBindCalls::set_placement_vertex_buffer`](crate::FastBindCalls::set_placement_vertex_buffer): its semantics.
    pub(crate) fn set_placement_vertex_buffer(
        &mut self,
        slot: u32,
        buffer: Buffer,
        stride: u32,
        offset: u32,
        address: u64,
    ) {
        self.begin_call();
        let buffer = VertexBuffer {
            buffer: Some(buffer),
            stride,
            offset,
        };
        let entry = FastResource::VertexBuffer { slot, buffer };
        let call = "set_placement_vertex_buffer";
        if let Err(error) = self.try_placement(call, FastBind::Entry(entry), address) {
            self.fail(error);
        }
    }

    /// [`FastBindCalls::set_placement_index_buffer`](crate::FastBindCalls::set_placement_index_buffer): its semantics.
    pub(crate) fn set_placement_index_buffer(
        &mut self,
        buffer: Buffer,
        address: u64,
        format: Format,
    ) {
        self.begin_call();
        let call = "set_placement_index_buffer";
        if !matches!(format, Format::R16Uint | Format::R32Uint) {
            return self.fail(Error::OutOfRange {
                call,
                argument: "index format",
                value: format.to_string(),
                allowed: "r16_uint or r32_uint (R-REC-5, R-ST-5)".into(),
            });
        }
        if let Err(error) = self.try_placement(call, FastBind::Index { buffer, format }, address) {
            self.fail(error);
        }
    }

    // ----- the work ----------------------------------------------------------------------------

    fn try_fast_resources(
        &mut self,
        call: &'static str,
        entries: &[FastResource],
    ) -> Result<(), Error> {
        // Check every entry first: a refusal binds nothing.
        for entry in entries {
            self.resolve_fast(call, FastBind::Entry(*entry), None)?;
        }
        for entry in entries {
            let resolved = self.resolve_fast(call, FastBind::Entry(*entry), None)?;
            self.encode_fast(call, FastBind::Entry(*entry), resolved)?;
        }
        Ok(())
    }

    fn try_placement(
        &mut self,
        call: &'static str,
        bind: FastBind,
        address: u64,
    ) -> Result<(), Error> {
        if address > InstanceId::MAX_PLACEMENT_ADDRESS {
            return Err(Error::OutOfRange {
                call,
                argument: "placement address",
                value: format!("{address:#x}"),
                allowed: format!("at most {:#x} (R-FX-2)", InstanceId::MAX_PLACEMENT_ADDRESS)
                    .into(),
            });
        }
        let resolved = self.resolve_fast(call, bind, Some(address))?;
        self.encode_fast(call, bind, resolved)
    }

    /// The device-side checks of an entry (what a batch can check when it is recorded).
    fn check_entry(&self, call: &'static str, entry: &FastResource) -> Result<(), Error> {
        let (what, slot, limit) = entry_slot(entry);
        check_range(call, what, slot, 1, limit)?;
        let need = match entry {
            FastResource::ConstantBuffer { .. } => BindFlags::CONSTANT,
            FastResource::VertexBuffer { .. } => BindFlags::VERTEX,
            _ => BindFlags::NONE,
        };
        let Some((kind, handle)) = entry.object() else {
            return Ok(());
        };
        let device = &self.device;
        let live = match kind {
            ObjectKind::Buffer => device.buffers.get(handle, false).map(|l| l.words[0]),
            ObjectKind::ShaderResourceView => device
                .shader_resource_views
                .get(handle, false)
                .map(|l| l.words[0]),
            _ => device.sampler_states.get(handle, false).map(|_| 0),
        };
        if live.is_err() {
            return Err(self.stale(call, kind, handle));
        }
        if kind == ObjectKind::Buffer {
            if let Ok(live) = device.buffers.get(handle, false) {
                if !BufferInfo::unpack(live.words).bind.contains(need) {
                    return Err(Error::MissingBindFlag {
                        call,
                        object: device.object_name(kind, handle),
                        flag: need,
                    });
                }
            }
        }
        Ok(())
    }

    /// Resolves one fast bind as a fast context would (the view's minimum LOD, the list's own
    /// instance of a dynamic buffer or `dynamic_before_map`, no split point), or at the placed
    /// instance.
    fn resolve_fast(
        &mut self,
        call: &'static str,
        bind: FastBind,
        placed: Option<u64>,
    ) -> Result<Resolved, Error> {
        let semantics = std::mem::replace(&mut self.semantics, Semantics::Fast);
        let resolved = self.resolve_fast_as_fast(call, bind, placed);
        self.semantics = semantics;
        resolved
    }

    fn resolve_fast_as_fast(
        &mut self,
        call: &'static str,
        bind: FastBind,
        placed: Option<u64>,
    ) -> Result<Resolved, Error> {
        let category = SplitCategory::DynamicConstantBuffer;
        let buffer = |this: &Self, buffer: Option<Buffer>, need, offset, stride| {
            if let (Some(_), Some(buffer)) = (placed, buffer) {
                this.placeable_buffer(call, buffer.0)?;
            }
            let mut out = MaybeUninit::uninit();
            this.resolve_buffer_into(call, buffer, need, category, offset, stride, &mut out)?;
            // SAFETY: `resolve_buffer_into` returned `Ok`, which it does only after writing
            // every field.
            let mut bound = unsafe { out.assume_init() };
            if let (Some(address), Some(_)) = (placed, buffer) {
                bound.instance = InstanceId::placed(address);
            }
            Ok::<_, Error>(Resolved::Buffer(bound))
        };
        match bind {
            FastBind::Entry(entry) => {
                let (what, slot, limit) = entry_slot(&entry);
                check_range(call, what, slot, 1, limit)?;
                match entry {
                    FastResource::ConstantBuffer { buffer: b, .. } => {
                        buffer(self, b, BindFlags::CONSTANT, 0, 0)
                    }
                    FastResource::VertexBuffer { buffer: v, .. } => {
                        buffer(self, v.buffer, BindFlags::VERTEX, v.offset, v.stride)
                    }
                    FastResource::ShaderResource { view, .. } => {
                        let handle = view.map_or(RawHandle::NULL, |v| v.0);
                        let kind = ObjectKind::ShaderResourceView;
                        if placed.is_some() {
                            self.placeable_view(call, handle)?;
                        }
                        let (mut bound, _) = self.resolve_view(call, kind, handle, false)?;
                        if let Some(address) = placed {
                            bound.instance = InstanceId::placed(address);
                        }
                        Ok(Resolved::View(bound))
                    }
                    FastResource::Sampler { sampler, .. } => {
                        let handle = sampler.map_or(RawHandle::NULL, |s| s.0);
                        if !handle.is_null()
                            && self.device.sampler_states.get(handle, false).is_err()
                        {
                            return Err(self.stale(call, ObjectKind::SamplerState, handle));
                        }
                        Ok(Resolved::Sampler(handle))
                    }
                }
            }
            FastBind::Index { buffer: b, format } => {
                buffer(self, Some(b), BindFlags::INDEX, 0, format as u32)
            }
        }
    }

    /// R-FX-2: only a default-usage buffer may be placed.
    fn placeable_buffer(&self, call: &'static str, buffer: RawHandle) -> Result<(), Error> {
        let usage = self
            .device
            .buffers
            .get(buffer, false)
            .map(|live| BufferInfo::unpack(live.words).usage)
            .map_err(|_| self.stale(call, ObjectKind::Buffer, buffer))?;
        if usage == Usage::Default {
            return Ok(());
        }
        Err(Error::OutOfRange {
            call,
            argument: "usage",
            value: format!(
                "{} ({usage:?})",
                self.device.object_name(ObjectKind::Buffer, buffer)
            ),
            allowed: "a default-usage resource: placement gives a default resource a new \
                      address (R-FX-2)"
                .into(),
        })
    }

    /// R-FX-2 for a view: its resource is a texture, or a default-usage buffer.
    fn placeable_view(&self, call: &'static str, view: RawHandle) -> Result<(), Error> {
        let live = self
            .device
            .shader_resource_views
            .get(view, false)
            .map_err(|_| self.stale(call, ObjectKind::ShaderResourceView, view))?;
        match ViewInfo::unpack(live.words).resource {
            Resource::Buffer(buffer) => self.placeable_buffer(call, buffer.0),
            Resource::Texture(_) => Ok(()),
        }
    }

    /// Encodes a resolved fast bind as the one-slot command of its kind and, on a legacy
    /// context, puts it in the shadow without a reference (see the module essay).
    fn encode_fast(
        &mut self,
        call: &'static str,
        bind: FastBind,
        resolved: Resolved,
    ) -> Result<(), Error> {
        let one = |slot: u32| SlotsPayload {
            start: slot,
            count: 1,
        };
        // No reference on any context (R-FX-1): the list is checked at every execution.
        self.unreferenced();
        match (bind, resolved) {
            (
                FastBind::Entry(FastResource::ConstantBuffer { stage, slot, .. }),
                Resolved::Buffer(b),
            ) => {
                let op = Opcode::SetConstantBuffers;
                self.emit_with(call, op, stage as u8, None, one(slot), &[b])?;
                let dynamic = self.is_dynamic_binding(&b);
                if let Some(shadow) = self.shadow.as_deref_mut() {
                    let (st, s) = (stage as usize, slot as usize);
                    let refs = self.refs.as_deref_mut();
                    let slots = &mut shadow.bindings.constant_buffers[st];
                    fast_slot(
                        refs,
                        &self.device,
                        ObjectKind::Buffer,
                        slots,
                        &mut shadow.fast.constant_buffers[st],
                        s,
                        b,
                    );
                    set_bit(&mut shadow.dynamic_constant_buffers[st], s, dynamic);
                }
            }
            (FastBind::Entry(FastResource::VertexBuffer { slot, .. }), Resolved::Buffer(b)) => {
                let op = Opcode::SetVertexBuffers;
                self.emit_with(call, op, 0, None, one(slot), &[b])?;
                let dynamic = self.is_dynamic_binding(&b);
                if let Some(shadow) = self.shadow.as_deref_mut() {
                    let s = slot as usize;
                    let refs = self.refs.as_deref_mut();
                    let slots = &mut shadow.bindings.vertex_buffers;
                    fast_slot(
                        refs,
                        &self.device,
                        ObjectKind::Buffer,
                        slots,
                        &mut shadow.fast.vertex_buffers,
                        s,
                        b,
                    );
                    set_bit(&mut shadow.dynamic_vertex_buffers, s, dynamic);
                }
            }
            (
                FastBind::Entry(FastResource::ShaderResource { stage, slot, .. }),
                Resolved::View(v),
            ) => {
                let op = Opcode::SetShaderResources;
                self.emit_with(call, op, stage as u8, None, one(slot), &[v])?;
                if let Some(shadow) = self.shadow.as_deref_mut() {
                    let (st, s) = (stage as usize, slot as usize);
                    let refs = self.refs.as_deref_mut();
                    let slots = &mut shadow.bindings.shader_resources[st];
                    let kind = ObjectKind::ShaderResourceView;
                    fast_slot(
                        refs,
                        &self.device,
                        kind,
                        slots,
                        &mut shadow.fast.shader_resources[st],
                        s,
                        v,
                    );
                    set_bit(
                        &mut shadow.dynamic_shader_resources[st],
                        s,
                        v.flags.has(ViewFlags::DYNAMIC),
                    );
                    set_bit(&mut shadow.bound_shader_resources[st], s, !v.view.is_null());
                }
            }
            (FastBind::Entry(FastResource::Sampler { stage, slot, .. }), Resolved::Sampler(h)) => {
                let op = Opcode::SetSamplers;
                self.emit_with(call, op, stage as u8, None, one(slot), &[h])?;
                if let Some(shadow) = self.shadow.as_deref_mut() {
                    let (st, s) = (stage as usize, slot as usize);
                    let refs = self.refs.as_deref_mut();
                    let slots = &mut shadow.bindings.samplers[st];
                    let kind = ObjectKind::SamplerState;
                    fast_slot(
                        refs,
                        &self.device,
                        kind,
                        slots,
                        &mut shadow.fast.samplers[st],
                        s,
                        h,
                    );
                }
            }
            (FastBind::Index { format, .. }, Resolved::Buffer(b)) => {
                self.emit(Opcode::SetIndexBuffer, 0, None, b);
                if let Some(shadow) = self.shadow.as_deref_mut() {
                    let old = shadow.bindings.index_buffer;
                    let referenced = !std::mem::replace(&mut shadow.fast.index_buffer, true);
                    if let (true, false, Some(refs)) =
                        (referenced, old.buffer.is_null(), self.refs.as_deref_mut())
                    {
                        refs.sub(
                            &*self.device,
                            ObjectKind::Buffer,
                            old.buffer,
                            crate::context::refs::BOUND,
                        );
                    }
                    shadow.bindings.index_buffer = b;
                    shadow.dynamic_index_buffer = false;
                    shadow
                        .bindings
                        .derive_reset_index(&b, format, Semantics::Legacy);
                }
            }
            // `resolve_fast` resolves each kind of bind to its kind of binding.
            _ => {}
        }
        Ok(())
    }
}

/// The slot an entry binds, with its kind's name (for errors) and number of slots.
fn entry_slot(entry: &FastResource) -> (&'static str, u32, u32) {
    match *entry {
        FastResource::ConstantBuffer { slot, .. } => {
            ("constant-buffer", slot, CONSTANT_BUFFER_SLOTS)
        }
        FastResource::ShaderResource { slot, .. } => {
            ("shader-resource", slot, SHADER_RESOURCE_SLOTS)
        }
        FastResource::Sampler { slot, .. } => ("sampler", slot, SAMPLER_SLOTS),
        FastResource::VertexBuffer { slot, .. } => ("vertex-buffer", slot, VERTEX_BUFFER_SLOTS),
    }
}

/// Puts a fast binding in slot `s` of a legacy shadow's array: the old binding's reference is
/// given back if it held one (a legacy binding), the new one holds none (its bit in `mask`).
#[allow(clippy::too_many_arguments)]
fn fast_slot<T: crate::binds::resolve::Bound>(
    refs: Option<&mut crate::context::refs::LocalReferences>,
    device: &crate::device::DeviceShared,
    kind: ObjectKind,
    slots: &mut [T],
    mask: &mut u128,
    s: usize,
    new: T,
) {
    let Some(slot) = slots.get_mut(s) else {
        return;
    };
    let bit = 1u128 << (s & 127);
    let old = slot.handle();
    if *mask & bit == 0 && !old.is_null() {
        if let Some(refs) = refs {
            refs.sub(device, kind, old, crate::context::refs::BOUND);
        }
    }
    *slot = new;
    if new.handle().is_null() {
        *mask &= !bit;
    } else {
        *mask |= bit;
    }
}
