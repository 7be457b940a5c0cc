//! The internal API between the recorder and its two sibling crates: what the executor's
//! `ImmediateContext` and the `bundles` crate's `BundleRecorder` need of the recording core and
//! the device, and an application does not. It is public because those crates are separate
//! crates, documented because it is an API; an application never needs it (the executor's and
//! the bundles' types are its way in).
//!
//! - **The immediate context's recorder** ([`Device::immediate_recorder`], a
//!   `Recorder<ImmediateRole>`): records the direct calls, which the executor takes as batches
//!   ([`Recorder::take_batch`]) and runs at once; the executor tells it when an execution left
//!   the ClearState defaults ([`Recorder::state_cleared_by_execution`]) or made a list's dynamic
//!   instance current ([`Recorder::adopt_instance`], R-ST-8), and asks it the instance a split
//!   point resolves to ([`Recorder::current_instance`], R-SP-4).
//! - **A bundle recorder's core** ([`Device::bundle_recorder`], a `Recorder<BundleRole>`): the
//!   bundle rules are checked by its owner, which refuses a call through
//!   [`Recorder::refuse`] / [`Recorder::refuse_reported`] (any role: the trace replay refuses
//!   a call it cannot make the same way), records remaps ([`Recorder::remap_inheritance`],
//!   R-B-9) and ends the bundle ([`Recorder::finish_registered_bundle`], registered with the
//!   device at once, its shared part in its list's header: no allocation; or
//!   [`Recorder::finish_bundle`] and [`Device::register_bundle`]); registered bundles are found
//!   again at execution ([`Device::bundle_body`]); a deferred context records a call of one with
//!   [`Recorder::record_draw_bundle`] (behind `bundles::DrawBundleExt`).
//! - **The capabilities of a type that owns a core**: implement [`Context`](crate::Context)
//!   (its core, for the capabilities' default methods) and, with empty `impl` blocks, the
//!   capability traits its role allows ([`capabilities`](crate::capabilities)); override a
//!   call only where the type does more (the bundle recorder checks SPEC §7 first).
//! - **Device services for the executor**: [`Device::lookup_error`] (the error of a stale or
//!   foreign handle), [`Device::rotate_back_buffer`] (present), [`Device::twin`] (the reference
//!   device of `replay --compare` and the oracle tests).
//!
//! Nothing here is on the recording hot path.

use crate::call_arguments::VertexBuffer;
use crate::chunk::ChunkPolicy;
use crate::command::*;
use crate::context::bundle_entry::{bundle_chunk_policy, BundleBody, BundleTail, OutputFormats};
use crate::context::registered_bundle::RegisteredBundle;
use crate::context::role::{BundleRole, ImmediateRole, Role};
use crate::context::{DeferredContextDesc, Recorder};
use crate::desc::{Engine, Semantics, Stage};
use crate::device::handle::{Buffer, BundleHandle, Handle, ObjectKind, RawHandle, SwapChain};
use crate::device::object_info::BUNDLE_WORDS;
use crate::device::DeviceShared;
use crate::device::{Device, DeviceDesc};
use crate::errors::{Error, RecordError};
use crate::list::{CommandList, StartState};
use crate::sync::Ordering;

/// The immediate context's recorder: batches instead of lists.
impl Recorder<ImmediateRole> {
    /// The immediate context's calls since the last batch, as a list to run now (see
    /// `Device::immediate_recorder`). Its state stays as the calls left it; refused calls were
    /// ignored one by one (see [`last_refusal`](Self::last_refusal)), they discard nothing.
    ///
    /// Only the immediate context's recorder has batches (a deferred context's list ends
    /// through `finish_command_list`, which checks what a batch need not).
    ///
    /// **A buffer still mapped** when the batch is taken is harmless. Its map command, and its
    /// data, are in this batch: the slice the map returned borrowed this recorder mutably, so
    /// the application's last write through it happened before this call (it cannot write
    /// after the seal without a new map), and the batch holds every byte written. The map stays
    /// open with no memory: the recorder forgets the data of the sealed batch, a second map is
    /// refused as "already mapped" until the unmap, and the unmap closes it and writes nothing.
    /// A map after the unmap records a new command in the next batch. (D3D11's pointer from
    /// `Map` lives until `Unmap`; here it lives while the slice is borrowed, which the borrow
    /// checker ends before anything can seal.)
    pub fn take_batch(&mut self) -> Result<CommandList, Error> {
        let stats = self.stats();
        let batch = self.seal_list(stats, StartState::Inherited);
        if batch.is_err() {
            // Too many split points for one index: the batch cannot be encoded; its calls are
            // dropped with what they hold, as a refused call's are.
            self.discard_list();
        }
        let last_refusal = self.last_refusal.take();
        self.start_list(false);
        self.last_refusal = last_refusal;
        batch
    }

    /// Takes the first direct call refused since the batch began (or since the last take), as
    /// [`error`](Self::error) had it: the immediate context keeps it for its next `flush`, which
    /// reports it (a batch carries no error, and the next batch starts without it).
    pub fn take_error(&mut self) -> Option<RecordError> {
        self.take_sticky_error()
    }

    /// Calls recorded since the last batch (the immediate context's).
    pub fn batch_is_empty(&self) -> bool {
        self.stats.commands == 0
    }

    /// The immediate context executed a legacy-semantics after-rule that leaves the ClearState
    /// defaults (R-ST-2, `restore = false`): its recorder's own state goes back to the defaults
    /// too, dropping the bindings' references, without recording anything (the GPU side was
    /// cleared by the execution).
    pub fn state_cleared_by_execution(&mut self) {
        self.reset_shadow();
    }
}

/// What the immediate context asks of any recorder's dynamic instances (a deferred context's
/// too: the trace replay reads the instance a map made current).
impl<R: Role> Recorder<R> {
    /// Counts a call and refuses it with `error` (the list keeps its first error, R-REC-8): for
    /// a wrapper that checks a call before forwarding it (the bundle rules), or an interpreter
    /// that refuses a call it cannot even make (the trace replay, for an object whose
    /// declaration failed).
    pub fn refuse(&mut self, error: Error) {
        self.begin_call();
        self.fail(error);
    }

    /// Counts a call that reports its own result (`map`) and refuses it with `error`, which is
    /// returned for the caller and kept as the last refusal; the list is not poisoned (R-REC-8).
    pub fn refuse_reported(&mut self, error: Error) -> Error {
        self.begin_call();
        self.refuse_reported_call(error)
    }

    /// The instance of dynamic buffer `buffer` this context's maps made current: what the
    /// immediate context resolves a list's dynamic split point to (R-SP-4, R-ST-8).
    pub fn current_instance(&self, buffer: RawHandle) -> InstanceId {
        self.maps
            .get(buffer)
            .and_then(|entry| entry.instance)
            .unwrap_or(InstanceId::INITIAL)
    }

    /// The context adopts `instance` of dynamic buffer `buffer` as its current one: a legacy
    /// list that made it its last executed on it (R-ST-8; the immediate context's recorder, or
    /// a context nesting the list). With `rebind`, the slots where the buffer is bound (legacy
    /// state) are re-bound to it, as the runtime patches the binding. The instance's data stays
    /// with the list that made it: a write_no_overwrite on a deferred context needs a
    /// write_discard of its own first (R-REC-11).
    #[cold]
    pub fn adopt_instance(&mut self, buffer: RawHandle, instance: InstanceId, rebind: bool) {
        let entry = self.maps.entry(buffer);
        entry.instance = Some(instance);
        entry.last = Some(instance);
        // Its data lives in the list: a write_no_overwrite here writes it anew.
        entry.data = std::ptr::null_mut();
        entry.len = 0;
        if rebind {
            self.rebind_renamed(buffer, instance);
        }
    }
}

/// A bundle recorder's core, driven by the `bundles` crate's `BundleRecorder`.
impl Recorder<BundleRole> {
    /// Ends the bundle's commands as a list (R-B-1), as `finish_command_list` with
    /// `RestoreState::ClearState` ends a deferred context's: the list with a sticky error is
    /// discarded and its first error returned; the recorder starts the next bundle from nothing.
    pub fn finish_bundle(&mut self) -> Result<CommandList, RecordError> {
        self.finish_list(false)
    }

    /// [`finish_bundle`](Self::finish_bundle), registered with the device at once
    /// ([`Device::register_bundle`]) under `declaration`, `footprint` and `name`: the bundle's
    /// shared part lives in its list's header ([`RegisteredBundle`]), so that a warm recorder's
    /// finish allocates nothing (R-B-1, R-REC-3). The body is this recorder's own, of its
    /// device: the registration cannot be refused.
    pub fn finish_registered_bundle(
        &mut self,
        declaration: OutputFormats,
        footprint: u32,
        name: &std::sync::Arc<str>,
    ) -> Result<RegisteredBundle, RecordError> {
        let body = self.finish_list(false)?;
        let handle = self
            .device
            .register_bundle_body(body.clone(), declaration, footprint, name);
        let tail = BundleTail {
            declaration,
            footprint,
        };
        Ok(RegisteredBundle::new(body, handle, tail, name))
    }

    /// [`BindCalls::set_constant_buffers`](crate::BindCalls::set_constant_buffers), saying
    /// whether the recorder accepted the call: for a wrapper that checks its own rules only once
    /// the recorder refused a call (the bundle rules' `not_encapsulable`, R-B-6). The answer is
    /// `true` as a constant on the one-slot hot path, so the wrapper's test folds away there,
    /// where comparing [`refused_calls`](Self::refused_calls) around the call cannot.
    #[inline(always)]
    pub fn accepted_constant_buffers(
        &mut self,
        stage: Stage,
        start: u32,
        buffers: &[Option<Buffer>],
    ) -> bool {
        self.bind_constant_buffers(stage, start, buffers)
    }

    /// [`BindCalls::set_vertex_buffers`](crate::BindCalls::set_vertex_buffers), saying whether
    /// the recorder accepted the call, as
    /// [`accepted_constant_buffers`](Self::accepted_constant_buffers).
    #[inline(always)]
    pub fn accepted_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]) -> bool {
        self.bind_vertex_buffers(start, buffers)
    }

    /// Calls refused since the list began (a wrapper compares it around a forwarded call).
    pub fn refused_calls(&self) -> u32 {
        self.refused
    }

    /// The call just refused gets `error` instead of the error the recorder gave it (as its last
    /// refusal, and as the bundle's first error if it was that): for a wrapper whose rule takes
    /// precedence over the recorder's checks but is checked only once the recorder has refused
    /// the call (the bundle rules' `not_encapsulable`, R-B-6, off the path of accepted binds).
    /// The call stays counted once. Only for right after a refused call.
    #[cold]
    pub fn replace_refusal(&mut self, error: Error) {
        self.refusal_replaced_by(error);
    }

    /// Records a remap (R-B-9): later draws of the bundle read (stage, slot) of `kind` from the
    /// executing context's (inherit_stage, inherit_slot), as bound when the bundle executes.
    /// Slots must be in range (R-OBJ-5).
    pub fn remap_inheritance(&mut self, remap: Remap) {
        self.begin_call();
        let call = remap.kind.call();
        let limit = remap.kind.slots();
        if let Some(bad) = [remap.slot, remap.inherit_slot]
            .into_iter()
            .find(|slot| *slot >= limit)
        {
            return self.fail(Error::SlotOutOfRange {
                call,
                what: "remapped",
                start: bad,
                count: 1,
                limit,
            });
        }
        let (stage, inherit_stage) = match remap.kind {
            RemapKind::VertexBuffer => (Stage::Vertex, Stage::Vertex),
            _ => (remap.stage, remap.inherit_stage),
        };
        let payload = RemapPayload {
            slot: remap.slot,
            inherit_slot: remap.inherit_slot,
            stage: stage as u8,
            inherit_stage: inherit_stage as u8,
            _reserved: [0; 6],
        };
        self.emit(Opcode::RemapInheritance, remap.kind as u8, None, payload);
    }
}

/// A finished bundle's own release, for `bundles::DrawBundle`.
impl CommandList {
    /// Releases the registered bundle `bundle` (see [`Device::release`]) on the device this list
    /// was recorded on: for a bundle whose commands this list is, so that the bundle reaches its
    /// device through them and keeps no `Device` of its own (whose clone, per bundle, would be a
    /// read-modify-write on the device's reference count, one cache line that every recording
    /// thread shares). The list's header holds the device as long as the list lives.
    pub fn release_registered_bundle(&self, bundle: BundleHandle) {
        self.device_shared()
            .release(ObjectKind::Bundle, bundle.raw());
    }
}

impl DeviceShared {
    /// The entry [`Device::register_bundle`] makes for `body`, a list of this device: the entry
    /// holds that reference on the list until it is destroyed.
    fn register_bundle_body(
        &self,
        body: CommandList,
        declaration: OutputFormats,
        footprint: u32,
        name: &std::sync::Arc<str>,
    ) -> BundleHandle {
        let mut words = [0u64; BUNDLE_WORDS];
        words[0] = body.into_header() as u64;
        let tail = BundleTail {
            declaration,
            footprint,
        };
        // SAFETY: `BundleTail` is plain data exactly as long as `words[1..]` (asserted where it
        // is defined); the write is unaligned-tolerant.
        unsafe { (words[1..].as_mut_ptr() as *mut BundleTail).write_unaligned(tail) };
        BundleHandle::from_raw(self.bundles.insert_shared(words, 0, 0, name))
    }
}

/// The device's side of the sibling crates' calls: bundle entries, the immediate recorder,
/// lookups and presents.
impl Device {
    /// A recorder in the bundle role, for `bundles::BundleRecorder` (R-B-1): fast semantics,
    /// starting from nothing, outside the 48 deferred contexts (R-REC-1), recording into small
    /// chunks unless `chunk_policy` says otherwise. On its own it records whatever it is told:
    /// the bundle rules are the owner's.
    pub fn bundle_recorder(
        &self,
        name: &str,
        chunk_policy: Option<ChunkPolicy>,
    ) -> Recorder<BundleRole> {
        let serial = self.shared.next_recorder.fetch_add(1, Ordering::Relaxed);
        let desc = DeferredContextDesc {
            name,
            semantics: Semantics::Fast,
            chunk_policy: Some(chunk_policy.unwrap_or_else(|| bundle_chunk_policy(self))),
            engine: Engine::Graphics,
            title_managed_lifetimes: false,
        };
        Recorder::new(self.shared.clone(), &desc, serial)
    }

    /// Registers a finished bundle's commands under a handle, which lists record when they call
    /// the bundle (R-B-10): the entry holds one reference on `body` until it is destroyed. Like
    /// any object, it is released with [`Device::release`] (`bundles::DrawBundle` does so when
    /// dropped); a legacy list that calls it keeps it until the list is dropped, a fast list
    /// does not (R-OBJ-4), and executing a fast list that calls a destroyed bundle finds the
    /// handle stale (`released_object`, R-OBJ-3). A body recorded on another device is refused
    /// (`invalid_argument`, naming both devices, R-OBJ-3): a list calling it would run another
    /// device's commands.
    pub fn register_bundle(
        &self,
        body: CommandList,
        declaration: OutputFormats,
        footprint: u32,
        name: impl Into<std::sync::Arc<str>>,
    ) -> Result<BundleHandle, Error> {
        if !body.is_from(self) {
            return Err(Error::WrongDevice {
                call: "register_bundle",
                object: "bundle body (command list)",
                device: body.device_serial(),
                expected: self.serial(),
                uses: "registers",
            });
        }
        Ok(self
            .shared
            .register_bundle_body(body, declaration, footprint, &name.into()))
    }

    /// The commands of the registered bundle `bundle` (one more reference on them), if it
    /// exists: alive, or released but still called by a legacy list. For execution, which keeps
    /// them until the GPU model has run them.
    pub fn bundle_body(&self, bundle: RawHandle) -> Option<BundleBody> {
        self.shared.bundle_body(bundle)
    }

    /// A device whose handles are this device's: the same tag and generations, so that making
    /// the same objects in the same order gives the same handles, and each device accepts the
    /// other's. For a reference run that replays this device's creations and compares handles
    /// (`replay --compare`, the oracle tests); anywhere else it is the defect R-OBJ-3 forbids.
    pub fn twin(&self, desc: DeviceDesc) -> Self {
        Self::with_identity(desc, self.shared.identity.twin())
    }
    /// The error a call named `call` reports for a handle that names no live object of this
    /// device: `invalid_argument` for another device's handle, `released_object` for one of
    /// this device's (R-OBJ-3). For the executor's calls that look objects up themselves.
    pub fn lookup_error(&self, call: &'static str, kind: ObjectKind, handle: RawHandle) -> Error {
        self.shared.stale_error(call, kind, handle)
    }
    /// The recorder of the device's one immediate context, for the executor's `ImmediateContext`
    /// (R-OBJ-1): it records the immediate context's direct calls, with the immediate
    /// semantics of the device, in batches the executor runs at once. Refused the second time.
    pub fn immediate_recorder(&self) -> Result<Recorder<ImmediateRole>, Error> {
        if !crate::context::legacy::LEGACY_BUILT
            && self.shared.desc.immediate_semantics == Semantics::Legacy
        {
            return Err(Error::InvalidDesc {
                call: "immediate_context",
                object: "the immediate context (DeviceDesc::immediate_semantics)".to_string(),
                problem: crate::errors::DescProblem::FastOnlyBuild,
            });
        }
        if !self.shared.take_immediate() {
            return Err(Error::ImmediateContextExists {
                call: "immediate_context",
            });
        }
        let desc = DeferredContextDesc {
            name: "immediate",
            semantics: self.shared.desc.immediate_semantics,
            chunk_policy: None,
            engine: Engine::Graphics,
            title_managed_lifetimes: false,
        };
        // Serial 0, outside the 48 deferred contexts.
        Ok(Recorder::new(self.shared.clone(), &desc, 0))
    }
    /// Rotates `chain` to its next back buffer; returns the new index. For the immediate
    /// context's `present` (R-EX-7).
    pub fn rotate_back_buffer(&self, chain: SwapChain) -> Result<u32, Error> {
        let live = self.shared.swap_chains.get(chain.0, false).map_err(|_| {
            self.shared
                .stale_error("present", ObjectKind::SwapChain, chain.0)
        })?;
        let count = (live.words[0] as u32).max(1);
        let next = (live.entry.aux.load(Ordering::Acquire) + 1) % count;
        live.entry.aux.store(next, Ordering::Release);
        Ok(next)
    }
}
