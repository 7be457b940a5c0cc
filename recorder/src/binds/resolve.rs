//! How a deferred context turns a call's handles into the descriptors it encodes, and the one
//! path every slot-array bind takes into the list (`bind_slots`): resolve in place, record the
//! legacy bindings and their references, cut out the slots that are split points (R-SP-1..3).
//!
//! Resolution writes each descriptor field by field where it will stay, in the list's chunk:
//! building it elsewhere and copying it costs a store-forwarding stall per bind, which was the
//! largest single cost of recording.

use std::mem::MaybeUninit;
use std::ptr::addr_of_mut;

use crate::chunk::SideKind;

use crate::command::*;
use crate::context::refs::{LocalReferences, BOUND, LIST};
use crate::context::role::Role;
use crate::context::shadow::LegacyShadow;
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::device::object_info::{BufferInfo, TextureInfo, ViewInfo};
use crate::device::DeviceShared;
use crate::errors::Error;
use crate::sync::Ordering;

/// A slot-array call being encoded by [`DeferredContext::bind_slots`].
pub(crate) struct SlotCall {
    /// The call, for errors.
    pub(crate) name: &'static str,
    pub(crate) opcode: Opcode,
    pub(crate) operand: u8,
    pub(crate) start: u32,
    pub(crate) count: usize,
    /// A split point for the call as a whole (legacy UAV binds).
    pub(crate) call_split: Option<SplitCategory>,
    /// The category of a slot split for a dynamic resource (others are decompressions).
    pub(crate) dynamic_split: SplitCategory,
}

pub(crate) trait Bound: Copy {
    const NULL: Self;
    fn handle(&self) -> RawHandle;
}
impl Bound for BoundBuffer {
    const NULL: Self = BoundBuffer::NULL;
    fn handle(&self) -> RawHandle {
        self.buffer
    }
}
impl Bound for BoundView {
    const NULL: Self = BoundView::NULL;
    fn handle(&self) -> RawHandle {
        self.view
    }
}
impl Bound for RawHandle {
    const NULL: Self = RawHandle::NULL;
    fn handle(&self) -> RawHandle {
        *self
    }
}

#[cold]
pub(crate) fn slot_range(
    call: &'static str,
    what: &'static str,
    start: u32,
    count: usize,
    limit: u32,
) -> Error {
    Error::SlotOutOfRange {
        call,
        what,
        start,
        count: count as u64,
        limit,
    }
}

#[inline]
pub(crate) fn check_range(
    call: &'static str,
    what: &'static str,
    start: u32,
    count: usize,
    limit: u32,
) -> Result<(), Error> {
    if start as u64 + count as u64 > limit as u64 {
        return Err(slot_range(call, what, start, count, limit));
    }
    Ok(())
}

impl<R: Role> Recorder<R> {
    // ----- resolution: handles to descriptors ------------------------------------------------

    #[cold]
    pub(crate) fn stale(&self, call: &'static str, kind: ObjectKind, handle: RawHandle) -> Error {
        self.device.stale_error(call, kind, handle)
    }

    /// The instance a binding of dynamic resource `handle` reads, and the split point it needs.
    #[inline(always)]
    pub(crate) fn dynamic_instance(
        &self,
        call: &'static str,
        kind: ObjectKind,
        handle: RawHandle,
        category: SplitCategory,
    ) -> Result<(InstanceId, Option<SplitCategory>), Error> {
        if let Some(instance) = self.maps.get(handle).and_then(|entry| entry.instance) {
            return Ok((instance, None));
        }
        if R::RUNS_AT_ONCE {
            // The immediate context knows its own current instance: the contents at creation.
            return Ok((InstanceId::INITIAL, None));
        }
        // `is_legacy` is `false` at compile time in the `fast-only` build (R-FX-7).
        match self.is_legacy() {
            true => Ok((InstanceId::RESOLVE_AT_EXECUTION, Some(category))),
            false => Err(Error::DynamicBeforeMap {
                call,
                object: self.device.object_name(kind, handle),
                rule: "bound before this fast-semantics list mapped it write_discard (R-SP-3)",
            }),
        }
    }

    /// Resolves a buffer binding into `out` (field by field, in place: building it elsewhere
    /// and copying it costs a store-forwarding stall per bind). Returns its split point, if any.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn resolve_buffer_into(
        &self,
        call: &'static str,
        buffer: Option<Buffer>,
        need: BindFlags,
        category: SplitCategory,
        offset: u32,
        stride_or_format: u32,
        out: &mut MaybeUninit<BoundBuffer>,
    ) -> Result<Option<SplitCategory>, Error> {
        let (handle, instance, split) = match buffer {
            None => (RawHandle::NULL, InstanceId::INITIAL, None),
            Some(buffer) => {
                let live = self
                    .device
                    .buffers
                    .get(buffer.0, false)
                    .map_err(|_| self.stale(call, ObjectKind::Buffer, buffer.0))?;
                let info = BufferInfo::unpack(live.words);
                if !info.bind.contains(need) {
                    return Err(self.missing_bind_flag(call, ObjectKind::Buffer, buffer.0, need));
                }
                let (instance, split) = if info.usage == Usage::Dynamic {
                    self.dynamic_instance(call, ObjectKind::Buffer, buffer.0, category)?
                } else {
                    (InstanceId::INITIAL, None)
                };
                (buffer.0, instance, split)
            }
        };
        let at = out.as_mut_ptr();
        // SAFETY: `at` is valid for writes of a `BoundBuffer`; each field is written once.
        unsafe {
            addr_of_mut!((*at).buffer).write(handle);
            addr_of_mut!((*at).instance).write(instance);
            addr_of_mut!((*at).offset).write(offset);
            addr_of_mut!((*at).stride_or_format).write(stride_or_format);
        }
        Ok(split)
    }

    /// Whether `buffer` is live, has the bind flag `need` and is not dynamic: the one test the
    /// hot path of a one-slot bind makes (one table read, the checks on the descriptor's one
    /// word). `false` sends the bind out of line, where the reason is found and reported.
    #[inline(always)]
    pub(crate) fn is_static_buffer(&self, buffer: Buffer, need: BindFlags) -> bool {
        match self.device.buffers.live_words(buffer.0) {
            Some(words) => BufferInfo::is_static_with(words, need),
            None => false,
        }
    }

    /// The instance a shadow-less (fast) one-slot bind of `buffer` reads: the hot path's
    /// [`resolve_buffer_into`](Self::resolve_buffer_into), one table read and the checks on the
    /// descriptor's one word. Never a split point: only legacy semantics makes those.
    #[inline(always)]
    pub(crate) fn resolve_one_buffer(
        &self,
        call: &'static str,
        buffer: Buffer,
        need: BindFlags,
        category: SplitCategory,
    ) -> Result<InstanceId, Error> {
        let Ok(live) = self.device.buffers.get(buffer.0, false) else {
            return Err(self.stale(call, ObjectKind::Buffer, buffer.0));
        };
        let info = BufferInfo::unpack(live.words);
        if !info.bind.contains(need) {
            return Err(self.missing_bind_flag(call, ObjectKind::Buffer, buffer.0, need));
        }
        if info.usage != Usage::Dynamic {
            return Ok(InstanceId::INITIAL);
        }
        debug_assert!(self.shadow.is_none() && !self.is_legacy());
        self.dynamic_instance(call, ObjectKind::Buffer, buffer.0, category)
            .map(|(instance, _)| instance)
    }

    /// Whether a buffer binding reads a dynamic buffer (legacy R-ST-8 re-binds those after a
    /// write_discard map). On a deferred context a dynamic binding never reads the creation
    /// contents, so its instance says it; the immediate context's may, so it asks the table.
    #[inline]
    pub(crate) fn is_dynamic_binding(&self, binding: &BoundBuffer) -> bool {
        // A placed binding is of a default resource at the application's address (R-FX-2):
        // nothing renames it, and a carried one keeps its address.
        if binding.buffer.is_null() || binding.instance.placement().is_some() {
            return false;
        }
        if binding.instance != InstanceId::INITIAL {
            return true;
        }
        R::RUNS_AT_ONCE
            && self
                .device
                .buffers
                .get(binding.buffer, true)
                .is_ok_and(|live| BufferInfo::unpack(live.words).usage == Usage::Dynamic)
    }

    #[cold]
    fn missing_bind_flag(
        &self,
        call: &'static str,
        kind: ObjectKind,
        handle: RawHandle,
        need: BindFlags,
    ) -> Error {
        Error::MissingBindFlag {
            call,
            object: self.device.object_name(kind, handle),
            flag: need,
        }
    }

    /// Resolves a view of `kind`. `decompress`: a legacy bind of a view of a compressible target
    /// is a decompression split point (R-SP-2).
    #[inline]
    pub(crate) fn resolve_view(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        view: RawHandle,
        decompress: bool,
    ) -> Result<(BoundView, Option<SplitCategory>), Error> {
        let mut bound = MaybeUninit::uninit();
        let split = self.resolve_view_into(call, kind, view, decompress, &mut bound)?;
        // SAFETY: `resolve_view_into` initialised it, as it returned `Ok`.
        Ok((unsafe { bound.assume_init() }, split))
    }

    /// [`resolve_view`](Self::resolve_view) writing in place (see `resolve_buffer_into`).
    #[inline(always)]
    pub(crate) fn resolve_view_into(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        view: RawHandle,
        decompress: bool,
        out: &mut MaybeUninit<BoundView>,
    ) -> Result<Option<SplitCategory>, Error> {
        if view.is_null() {
            out.write(BoundView::NULL);
            return Ok(None);
        }
        let device = &self.device;
        let table = match kind {
            ObjectKind::ShaderResourceView => &device.shader_resource_views,
            ObjectKind::UnorderedAccessView => &device.unordered_access_views,
            ObjectKind::RenderTargetView => &device.render_target_views,
            _ => &device.depth_stencil_views,
        };
        let live = table
            .get(view, false)
            .map_err(|_| self.stale(call, kind, view))?;
        let info = ViewInfo::unpack(live.words);
        let resource = info.resource.raw();
        let mut min_lod = 0.0;
        if kind == ObjectKind::ShaderResourceView {
            // R-ST-6: fast reads the view's minimum LOD, legacy the resource's, as they are now;
            // a composed descriptor reads its own, or the resource's if it asked for the default.
            min_lod = f32::from_bits(live.entry.aux.load(Ordering::Acquire));
            if let Resource::Texture(texture) = info.resource {
                if ViewInfo::reads_resource_min_lod(&live.words, self.is_legacy()) {
                    if let Ok(texture) = device.textures.get(texture.0, true) {
                        min_lod = f32::from_bits(texture.entry.aux.load(Ordering::Acquire));
                    }
                }
            }
        }
        let flags = info.flags;
        let (instance, split) = if flags.has(ViewFlags::DYNAMIC) {
            self.dynamic_instance(
                call,
                ObjectKind::Buffer,
                resource,
                SplitCategory::DynamicShaderResource,
            )?
        } else if decompress && self.is_legacy() && flags.has(ViewFlags::COMPRESSIBLE_TARGET) {
            (InstanceId::INITIAL, Some(SplitCategory::Decompression))
        } else {
            (InstanceId::INITIAL, None)
        };
        if flags.has(ViewFlags::BACK_BUFFER) && self.back_buffer.is_none() {
            self.note_back_buffer(resource);
        }
        let at = out.as_mut_ptr();
        // SAFETY: `at` is valid for writes of a `BoundView`; each field is written once.
        unsafe {
            addr_of_mut!((*at).view).write(view);
            addr_of_mut!((*at).resource).write(resource);
            addr_of_mut!((*at).instance).write(instance);
            addr_of_mut!((*at).min_lod).write(min_lod);
            addr_of_mut!((*at).format).write(info.format);
            addr_of_mut!((*at).flags).write(flags);
            addr_of_mut!((*at).first_mip).write(info.first_mip as u8);
        }
        Ok(split)
    }

    /// The list now references a back buffer: it is bound to it (R-EX-7).
    #[cold]
    fn note_back_buffer(&mut self, texture: RawHandle) {
        if let Ok(live) = self.device.textures.get(texture, true) {
            self.back_buffer = TextureInfo::unpack(live.words).back_buffer;
        }
    }

    // ----- legacy bookkeeping ------------------------------------------------------------------

    /// Legacy: takes the list's reference on every new object, plus the binding's where the slot
    /// changes, in the recorder's own counts (`refs.rs`); undoes them all if one fails (an
    /// object destroyed under our feet).
    #[inline(always)]
    pub(crate) fn retain_slots<T: Bound>(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        new: &[T],
        old: &[T],
    ) -> Result<(), Error> {
        match self.refs.as_mut() {
            Some(refs) => retain_slots(refs, &self.device, call, kind, new, old),
            None => Ok(()),
        }
    }

    /// Legacy: the references are taken; store the new bindings, dropping the old ones'.
    #[inline(always)]
    pub(crate) fn replace_slots<T: Bound>(
        refs: Option<&mut LocalReferences>,
        device: &DeviceShared,
        kind: ObjectKind,
        slots: &mut [T],
        new: &[T],
    ) {
        let Some(refs) = refs else {
            slots.copy_from_slice(new);
            return;
        };
        for (slot, item) in slots.iter_mut().zip(new) {
            if slot.handle() != item.handle() && !slot.handle().is_null() {
                refs.sub(device, kind, slot.handle(), BOUND);
            }
            *slot = *item;
        }
    }

    /// Binds `new` to `slots` of the legacy shadow (references included), or does nothing on a
    /// fast context.
    #[inline]
    pub(crate) fn shadow_slots<T: Bound>(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        new: &[T],
        slots: impl FnOnce(&mut LegacyShadow) -> &mut [T],
    ) -> Result<(), Error> {
        let Some(shadow) = self.shadow.as_deref_mut() else {
            return Ok(());
        };
        let target = slots(shadow);
        match self.refs.as_mut() {
            Some(refs) => {
                retain_slots(refs, &self.device, call, kind, new, target)?;
                Self::replace_slots(Some(refs), &self.device, kind, target, new);
            }
            // A title-managed legacy context (R-FX-6): the shadow, without references.
            None => target.copy_from_slice(new),
        }
        Ok(())
    }

    // ----- encoding ----------------------------------------------------------------------------

    /// Encodes a slot-array bind straight into the list: reserves the command for `call.count`
    /// slots, resolves each slot into it (`resolve`), lets `shadow` record the new bindings
    /// (legacy), and takes the reservation back if either fails, so a refused call leaves no
    /// trace. Then each slot that must be resolved at execution is moved out of the command (left
    /// null there) into a split-point command of its own, right after (R-SP-1, R-SP-2).
    #[inline(always)]
    pub(crate) fn bind_slots<T: Bound, P: Copy>(
        &mut self,
        call: SlotCall,
        payload: impl Fn(u32, u32, bool) -> P,
        mut resolve: impl FnMut(
            &mut Self,
            usize,
            &mut MaybeUninit<T>,
        ) -> Result<Option<SplitCategory>, Error>,
        shadow: impl FnOnce(&mut Self, &[T]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let size = CommandBytes::with_items::<P, T>(call.count).map_err(|too_large| {
            too_large.error(call.name, format_args!("{} slots", call.count))
        })?;
        let side = call.call_split.map(|_| SideKind::Split);
        let at = self.reserve(size, side);
        // `count` fits a `u32`: `with_items` bounded it by the largest command.
        let whole = payload(call.start, call.count as u32, false);
        // SAFETY: `at` has `size` bytes: header, payload, then `count` slots of `T`.
        let items =
            unsafe { write_command(at, call.opcode, call.operand, call.call_split, size, whole) }
                as *mut T;
        let (mut splits, mut decompressions) = (0u128, 0u128);
        for i in 0..call.count {
            // SAFETY: slot `i` of the reserved array, aligned and writable.
            let slot = unsafe { &mut *(items.add(i) as *mut MaybeUninit<T>) };
            match resolve(self, i, slot) {
                Ok(None) => {}
                Ok(Some(category)) => {
                    splits |= 1 << i;
                    if category == SplitCategory::Decompression {
                        decompressions |= 1 << i;
                    }
                }
                Err(error) => {
                    self.unreserve(at, side.is_some());
                    return Err(error);
                }
            }
        }
        // SAFETY: all `count` slots were written above; the memory is the list's, not `self`'s
        // fields, so it stays valid while `shadow` borrows `self`.
        let written = unsafe { std::slice::from_raw_parts(items, call.count) };
        if let Err(error) = shadow(self, written) {
            self.unreserve(at, side.is_some());
            return Err(error);
        }
        if let Some(category) = call.call_split {
            self.stats.split_points[category] += 1;
        }
        while splits != 0 {
            let i = splits.trailing_zeros();
            splits &= splits - 1;
            // SAFETY: slot `i` of the command written above, which later reservations never move.
            let item = unsafe { items.add(i as usize).replace(T::NULL) };
            let category = if decompressions & 1 << i != 0 {
                SplitCategory::Decompression
            } else {
                call.dynamic_split
            };
            let single = payload(call.start + i, 1, true);
            // One slot: it fits the encoding.
            let _ = self.emit_with(
                call.name,
                call.opcode,
                call.operand,
                Some(category),
                single,
                std::slice::from_ref(&item),
            );
        }
        Ok(())
    }
}

/// [`Recorder::retain_slots`] on the recorder's table (`refs`), borrowed apart from its shadow.
#[inline(always)]
fn retain_slots<T: Bound>(
    refs: &mut LocalReferences,
    device: &DeviceShared,
    call: &'static str,
    kind: ObjectKind,
    new: &[T],
    old: &[T],
) -> Result<(), Error> {
    for (i, item) in new.iter().enumerate() {
        let handle = item.handle();
        if handle.is_null() {
            continue;
        }
        let delta = LIST + BOUND * (old[i].handle() != handle) as u64;
        // Every handle here was just looked up in its table by the call's resolver.
        if refs.add_own(device, kind, handle, delta).is_err() {
            for (j, done) in new[..i].iter().enumerate() {
                if !done.handle().is_null() {
                    let delta = LIST + BOUND * (old[j].handle() != done.handle()) as u64;
                    refs.sub(device, kind, done.handle(), delta);
                }
            }
            return Err(device.stale_error(call, kind, handle));
        }
    }
    Ok(())
}

/// One slot of the legacy shadow rebound to `new` (the legacy one-slot binds): the new binding's
/// references taken (the list's, and the binding's when the slot changes), then the old
/// binding's dropped and the slot written; what [`retain_slots`] and
/// [`Recorder::replace_slots`] do for a run of slots, with the handles compared once. Without
/// `refs` (a title-managed legacy context, R-FX-6) only the slot is written.
#[inline(always)]
pub(crate) fn rebind_one<T: Bound>(
    refs: Option<&mut LocalReferences>,
    device: &DeviceShared,
    call: &'static str,
    kind: ObjectKind,
    slot: &mut T,
    new: T,
) -> Result<(), Error> {
    let Some(refs) = refs else {
        *slot = new;
        return Ok(());
    };
    let (old, handle) = (slot.handle(), new.handle());
    let changed = old != handle;
    // The handle was just looked up in its table by the call's resolver.
    if !handle.is_null()
        && refs
            .add_own(device, kind, handle, LIST + BOUND * changed as u64)
            .is_err()
    {
        return Err(device.stale_error(call, kind, handle));
    }
    if changed && !old.is_null() {
        refs.sub(device, kind, old, BOUND);
    }
    *slot = new;
    Ok(())
}

/// Adapts a resolver that returns its slot into one that writes it in place (cold paths).
pub(crate) fn in_place<T, R: Role>(
    mut resolve: impl FnMut(&mut Recorder<R>, usize) -> Result<(T, Option<SplitCategory>), Error>,
) -> impl FnMut(&mut Recorder<R>, usize, &mut MaybeUninit<T>) -> Result<Option<SplitCategory>, Error>
{
    move |context, i, out| {
        let (item, split) = resolve(context, i)?;
        out.write(item);
        Ok(split)
    }
}

/// The payload of a plain slot-array command.
#[inline(always)]
pub(crate) fn slots_payload(start: u32, count: u32, _patch: bool) -> SlotsPayload {
    SlotsPayload { start, count }
}

/// Sets or clears bit `i` of a mask.
#[inline]
pub(crate) fn set_bit<M>(mask: &mut M, i: usize, on: bool)
where
    M: Copy
        + std::ops::BitOr<Output = M>
        + std::ops::BitAnd<Output = M>
        + std::ops::Not<Output = M>
        + std::ops::Shl<usize, Output = M>
        + From<u8>,
{
    let bit = M::from(1u8) << i;
    *mask = if on { *mask | bit } else { *mask & !bit };
}

impl<R: Role> Recorder<R> {
    /// A resource named by a copy, an indirect draw or a map: the instance it is read at is the
    /// list's own if the list mapped it write_discard, else whatever is current when the list
    /// executes (no split category covers these reads).
    pub(crate) fn resolve_resource(
        &self,
        call: &'static str,
        resource: Resource,
    ) -> Result<(BoundResource, Option<BufferInfo>), Error> {
        let raw = resource.raw();
        let stale = || self.device.stale_error(call, resource.kind(), raw);
        match resource {
            Resource::Buffer(buffer) => {
                let live = self
                    .device
                    .buffers
                    .get(buffer.0, false)
                    .map_err(|_| stale())?;
                let info = BufferInfo::unpack(live.words);
                let instance = if info.usage == Usage::Dynamic {
                    self.maps
                        .get(raw)
                        .and_then(|e| e.instance)
                        .unwrap_or(InstanceId::RESOLVE_AT_EXECUTION)
                } else {
                    InstanceId::INITIAL
                };
                Ok((
                    BoundResource {
                        resource: raw,
                        instance,
                        is_texture: 0,
                        data_len: 0,
                    },
                    Some(info),
                ))
            }
            Resource::Texture(texture) => {
                self.device
                    .textures
                    .get(texture.0, false)
                    .map_err(|_| stale())?;
                Ok((
                    BoundResource {
                        resource: raw,
                        instance: InstanceId::INITIAL,
                        is_texture: 1,
                        data_len: 0,
                    },
                    None,
                ))
            }
        }
    }
}
