//! Deferred contexts (R-REC-1..11): one thread records on one at a time (`Send`, not `Sync`), into
//! chunks of its own, taking no lock and, under fast semantics, no atomic read-modify-write. Bad
//! input never panics: the call is ignored and the first error is kept with its call index, for
//! `finish_command_list` to return (R-REC-8). A call that returns its own result (`map`)
//! reports its refusal to the caller instead and does not poison the list.
//!
//! Only the immediate context's recorder hands out batches (`take_batch`); a deferred context's
//! list ends through `finish_command_list`, which refuses a list with a buffer still mapped.
//!
//! This file holds the context's life cycle (creation, lists, finish, nesting, drop) and the
//! helpers every call uses; the calls themselves are in the area files beside `context/`
//! (`binds/`, `draws.rs`, `transfers.rs`, `maps/`, `queries.rs`, `fences.rs`, `barriers/`,
//! `fast/`: the crate's essay in `lib.rs` lists them).

pub(crate) mod bundle_entry;
mod carry;
pub(crate) mod core_access;
pub(crate) mod legacy;
pub(crate) mod refs;
pub(crate) mod role;
pub(crate) mod shadow;
pub(crate) mod split;

use std::sync::Arc as StdArc;

use crate::chunk::{ChunkPolicy, ChunkWriter, SideKind};
use crate::command::*;
use crate::context::legacy::LegacyBox;
use crate::context::refs::{LocalReferences, BOUND, LIST};
use crate::context::role::{DeferredRole, Role};
use crate::context::shadow::LegacyShadow;
use crate::context::split::SplitCategory;
use crate::desc::{Engine, Semantics};
use crate::device::handle::{ObjectKind, RawHandle, SwapChain};
use crate::device::{Device, DeviceShared};
use crate::errors::{DescProblem, Error, RecordError};
use crate::limits::MAX_DEFERRED_CONTEXTS;
use crate::list::{
    discard_chain, write_index, CommandList, IndexEntry, LastInstance, ListHeader, ListMemory,
    ListOrigin, ListReference, ListStats, StartState,
};
use crate::maps::map_tracker::MapTracker;
use crate::sync::{Arc, Ordering};
use std::marker::PhantomData;

/// How to create a deferred context.
#[derive(Clone, Debug, Default)]
pub struct DeferredContextDesc<'a> {
    /// The context's name, as errors and traces name it (`deferred context 'name' (#serial)`);
    /// empty by default.
    pub name: &'a str,
    /// Legacy (the default) or fast: whether the runtime tracks references, shadows state and
    /// patches split points for the context's lists, or the application does (SPEC §5).
    pub semantics: Semantics,
    /// Overrides the device's chunk policy for this context (R-REC-4).
    pub chunk_policy: Option<ChunkPolicy>,
    /// The engine the context's lists run on (R-EX-5). Compute and DMA contexts are always
    /// fast semantics. The model runs every engine's work in one in-order queue, so the engine
    /// is what fences and waits name, not a restriction on the calls.
    pub engine: Engine,
    /// D3D11_CREATE_DEFERRED_CONTEXT_TITLE_MANAGED_COMMAND_LIST_OBJECT_LIFETIMES (R-FX-6, seed
    /// 000): a legacy context with it takes no references for its lists, neither for what they
    /// record nor for what its bindings hold; the rest of legacy semantics (the shadow, split
    /// points, the ClearState start) stays. The application keeps every object a list names
    /// alive until the list has run: executing a list that names a released object is refused
    /// (`released_object`, checked before it runs). Fast contexts take no references already:
    /// on them it changes nothing. Default `false`.
    pub title_managed_lifetimes: bool,
}

/// What becomes of a context's state when a list ends or has run: D3D11's
/// `RestoreDeferredContextState` (of `FinishCommandList`) and `RestoreContextState` (of
/// `ExecuteCommandList`), named (R-ST-1, R-ST-2). Fast semantics refuses
/// [`Restore`](Self::Restore) (`restore_not_supported`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RestoreState {
    /// The state goes back to the ClearState defaults (D3D11's `FALSE`).
    #[default]
    ClearState,
    /// The state from before is kept, or put back (D3D11's `TRUE`; legacy semantics only).
    Restore,
}

impl RestoreState {
    /// Whether the state is kept or put back.
    #[inline]
    pub fn is_restore(self) -> bool {
        self == Self::Restore
    }
}

/// A deferred context: records commands into a command list, which
/// [`finish_command_list`](Recorder::finish_command_list) ends. The recording core in the
/// deferred role: the calls every context shares are the core's (and [`DeviceContext`]'s), the
/// list's life cycle (finish, discard, nesting, bundle calls) is this type's alone.
///
/// It is `Send` but not `Sync`: many contexts record in parallel, each on one thread at a time.
///
/// ```compile_fail
/// fn needs_sync<T: Sync>() {}
/// needs_sync::<recorder::DeferredContext>();
/// ```
///
/// [`DeviceContext`]: crate::DeviceContext
pub type DeferredContext = Recorder<DeferredRole>;

/// The recording core every context type owns: the chunk writer, the sticky error, the
/// statistics, the map tracker and (legacy) the shadow of the bound state. `R` is the context's
/// role ([`DeferredRole`], [`ImmediateRole`](crate::ImmediateRole), [`BundleRole`](crate::BundleRole)): the calls a role alone may make
/// are implemented for `Recorder<ThatRole>` only, so a context has no call that exists only to
/// fail, and the few rules that differ by role are constants of the role, decided at compile
/// time (no flag is read at run time).
pub struct Recorder<R: Role> {
    pub(crate) device: Arc<DeviceShared>,
    name: StdArc<str>,
    pub(crate) serial: u32,
    pub(crate) semantics: Semantics,
    pub(crate) engine: Engine,
    policy: ChunkPolicy,
    writer: ChunkWriter,
    /// The reserved header of the list being recorded, in its first chunk.
    list_header: *mut ListHeader,
    start: StartState,
    pub(crate) stats: ListStats,
    /// Calls made on the list being recorded, refused ones included.
    pub(crate) calls_made: u32,
    pub(crate) refused: u32,
    error: Option<RecordError>,
    /// The last call refused, kept after the sticky error is taken (for `expect error`).
    pub(crate) last_refusal: Option<Error>,
    pub(crate) maps: MapTracker,
    map_serial: u32,
    /// Legacy only: the context's own state.
    pub(crate) shadow: LegacyBox<LegacyShadow>,
    /// Legacy only: the references the open list and the bindings hold (`refs.rs`).
    pub(crate) refs: LegacyBox<LocalReferences>,
    pub(crate) back_buffer: Option<(SwapChain, u32)>,
    /// The GDS range sizes this context set for the pixel and compute stages (R-FX-4,
    /// `gds.rs`): a deferred context's since its list began, the immediate context's since it
    /// was made.
    pub(crate) gds_ranges: [u32; 2],
    /// A legacy context created with `title_managed_lifetimes` (R-FX-6): no `refs`.
    title_managed: bool,
    role: PhantomData<R>,
}

/// Where contexts come from: the device makes them, and this file, which knows what a context
/// is, says how (the device's file knows nothing of contexts).
impl Device {
    /// Creates a deferred context (R-REC-1: at most 48 alive).
    pub fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<DeferredContext, Error> {
        if !crate::context::legacy::LEGACY_BUILT && desc.semantics == Semantics::Legacy {
            return Err(Error::InvalidDesc {
                call: "create_deferred_context",
                object: format!("'{}'", desc.name),
                problem: DescProblem::FastOnlyBuild,
            });
        }
        if desc.engine != Engine::Graphics && desc.semantics == Semantics::Legacy {
            return Err(Error::InvalidDesc {
                call: "create_deferred_context",
                object: format!("'{}'", desc.name),
                problem: DescProblem::EngineNeedsFast {
                    engine: desc.engine,
                },
            });
        }
        let mut live = self.shared.live_contexts.load(Ordering::Relaxed);
        loop {
            if live >= MAX_DEFERRED_CONTEXTS {
                return Err(Error::TooManyContexts {
                    limit: MAX_DEFERRED_CONTEXTS,
                });
            }
            match self.shared.live_contexts.compare_exchange_weak(
                live,
                live + 1,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(actual) => live = actual,
            }
        }
        let serial = self.shared.next_recorder.fetch_add(1, Ordering::Relaxed);
        Ok(DeferredContext::new(self.shared.clone(), desc, serial))
    }
}

// SAFETY: the context exclusively owns its chunks (through `writer` and `list_header`) and its
// tracker; moving it to another thread moves that ownership. Raw pointers keep it `!Sync`.
unsafe impl<R: Role> Send for Recorder<R> {}

impl<R: Role> Recorder<R> {
    pub(crate) fn new(
        device: Arc<DeviceShared>,
        desc: &DeferredContextDesc<'_>,
        serial: u32,
    ) -> Self {
        let policy = desc
            .chunk_policy
            .clone()
            .unwrap_or_else(|| device.desc.chunk_policy.clone());
        let legacy = desc.semantics == Semantics::Legacy;
        // R-FX-6: a title-managed legacy context keeps its shadow but takes no references.
        let title_managed = legacy && desc.title_managed_lifetimes;
        let refs = LegacyBox::new_if(legacy && !title_managed, || {
            Box::new(LocalReferences::new(&*device, serial))
        });
        let mut context = Self {
            device,
            name: StdArc::from(desc.name),
            serial,
            semantics: desc.semantics,
            engine: desc.engine,
            policy,
            writer: ChunkWriter::new(),
            list_header: std::ptr::null_mut(),
            start: StartState::ClearState,
            stats: ListStats::default(),
            calls_made: 0,
            refused: 0,
            error: None,
            last_refusal: None,
            maps: MapTracker::new(),
            map_serial: 0,
            shadow: LegacyBox::new_if(legacy, Box::default),
            refs,
            back_buffer: None,
            gds_ranges: [0; 2],
            title_managed,
            role: PhantomData,
        };
        context.start_list(false);
        context
    }

    /// The semantics the context records under, fixed at creation.
    pub fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// Whether the context records under legacy semantics: `false` as a constant in the
    /// `fast-only` build (R-FX-7), so the recording calls' legacy branches compile out.
    #[inline(always)]
    pub(crate) fn is_legacy(&self) -> bool {
        crate::context::legacy::LEGACY_BUILT && self.semantics == Semantics::Legacy
    }

    /// The engine its lists run on (R-EX-5).
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Whether the context is a legacy context created with
    /// [`title_managed_lifetimes`](DeferredContextDesc::title_managed_lifetimes) (R-FX-6): it
    /// takes no references. `false` on fast contexts, which take none anyway.
    pub fn title_managed_lifetimes(&self) -> bool {
        self.title_managed
    }

    /// The name the context was created with.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The context's serial: the `recorder` of the dynamic instances its maps create.
    pub fn serial(&self) -> u32 {
        self.serial
    }

    /// Counters of the list being recorded so far.
    pub fn stats(&self) -> ListStats {
        ListStats {
            calls: self.calls_made - self.refused,
            bytes: self.writer.bytes(),
            chunks: self.writer.chunks,
            ..self.stats
        }
    }

    /// The first error of the list being recorded, if any (also returned by the finish).
    pub fn error(&self) -> Option<&RecordError> {
        self.error.as_ref()
    }

    /// The error of the most recent refused call, until the next list begins.
    pub fn last_refusal(&self) -> Option<&Error> {
        self.last_refusal.as_ref()
    }

    /// What a legacy context holds bound now (its shadow, R-ST-1): at the start of a list the
    /// state the previous `finish_command_list(Restore)` carried in, or the ClearState
    /// defaults. `None` under fast semantics, which shadows nothing. The capture writes a
    /// carried state as the calls that set it (`trace::capture`).
    pub fn legacy_state(&self) -> Option<&crate::state::Bindings> {
        self.shadow.as_ref().map(|shadow| &shadow.bindings)
    }

    /// Begins a list: reserves its header, forgets the previous list's maps, and under legacy
    /// semantics re-binds the carried state when the last finish had restore=true (R-ST-1).
    pub(crate) fn start_list(&mut self, carried: bool) {
        self.stats = ListStats::default();
        self.calls_made = 0;
        self.refused = 0;
        self.error = None;
        self.last_refusal = None;
        self.back_buffer = None;
        if !R::RUNS_AT_ONCE {
            // A list starts with no GDS range of its own (R-FX-4).
            self.gds_ranges = [0; 2];
        }
        if R::RUNS_AT_ONCE {
            // The immediate context's maps outlive its batches; their data does not.
            self.maps.forget_data();
        } else {
            self.maps.clear();
        }
        self.start = match (self.semantics, carried) {
            _ if R::RUNS_AT_ONCE => StartState::Inherited,
            (Semantics::Fast, _) => StartState::Inherited,
            (Semantics::Legacy, false) => StartState::ClearState,
            (Semantics::Legacy, true) => StartState::Carried,
        };
        let size = CommandBytes::fixed::<ListHeader>();
        let at = self
            .writer
            .reserve(size, None, &self.device.pool, &self.policy);
        // SAFETY: `at` has `size` bytes; the payload is written for real by `finish`.
        self.list_header = unsafe {
            let payload = write_command(at, Opcode::ListStart, 0, None, size, Empty);
            payload as *mut ListHeader
        };
        if carried {
            self.emit_carried_state();
        }
    }

    /// [`finish_command_list`](Recorder::finish_command_list)'s work, for the deferred
    /// context and for a bundle's core (`Recorder::finish_bundle`).
    pub(crate) fn finish_list(&mut self, restore: bool) -> Result<CommandList, RecordError> {
        self.calls_made += 1;
        if let Some(error) = self.error.take() {
            self.discard_list();
            self.after_finish(false);
            return Err(error);
        }
        if restore && self.semantics == Semantics::Fast {
            return Err(self.refuse_finish(Error::RestoreNotSupported {
                call: "finish_command_list",
            }));
        }
        let still_mapped = self.maps.still_mapped().next();
        if let Some(handle) = still_mapped {
            let object = self.device.object_name(ObjectKind::Buffer, handle);
            return Err(self.refuse_finish(Error::StillMapped {
                call: "finish_command_list",
                object,
            }));
        }
        self.calls_made -= 1;
        let stats = self.stats();
        let list = match self.seal_list(stats, self.start) {
            Ok(list) => list,
            Err(error) => {
                // The list cannot be encoded: nothing can shrink it, so it is dropped.
                self.calls_made += 1;
                let error = self.refuse_finish(error);
                self.discard_list();
                self.after_finish(false);
                return Err(error);
            }
        };
        tracing::debug!(
            context = &*self.name,
            calls = stats.calls,
            bytes = stats.bytes,
            chunks = stats.chunks,
            split_points = stats.split_points.total(),
            "finish_command_list"
        );
        self.after_finish(restore);
        Ok(list)
    }

    /// Ends the list being recorded: writes the index of its split points and nested lists
    /// after its last command (so execution never walks its chunks, R-EX-2), seals the chain and
    /// makes the list. Allocates nothing: the index lives in the list's own memory.
    ///
    /// Refused, with the list left open, when the index would not fit the encoding: more split
    /// points and nested lists than a command holds entries (R-REC-12).
    pub(crate) fn seal_list(
        &mut self,
        stats: ListStats,
        start: StartState,
    ) -> Result<CommandList, Error> {
        let entries = self.writer.side_records as usize;
        let size = CommandBytes::with_items::<Empty, IndexEntry>(entries).map_err(|too_large| {
            too_large.error(
                "finish_command_list",
                format_args!("the index of {entries} split points, bundle calls and nested lists"),
            )
        })?;
        let objects_size = self.list_references_size()?;
        let (instances, instances_len) = self.write_last_instances()?;
        let (objects, objects_len) = self.write_list_references(objects_size)?;
        let at = self
            .writer
            .reserve(size, None, &self.device.pool, &self.policy);
        // SAFETY: `at` has room for the header and `entries` index entries.
        let index = unsafe { write_command(at, Opcode::ListIndex, 0, None, size, Empty) }
            as *mut std::mem::MaybeUninit<IndexEntry>;
        if R::SIZES_FIRST_CHUNK {
            self.writer.size_next_first_chunk(&self.policy);
        }
        let (first, last) = self.writer.take_chain_ends();
        // SAFETY: the chain is sealed; it holds exactly `entries` side records, and `index` has
        // room for them in its last chunk.
        let written = unsafe { write_index(first, std::slice::from_raw_parts_mut(index, entries)) };
        let memory = ListMemory {
            first,
            last,
            index: index as *const IndexEntry,
            index_len: written as u32,
            instances,
            instances_len,
            objects,
            objects_len,
        };
        let origin = ListOrigin {
            semantics: self.semantics,
            start,
            recorder: self.serial,
            back_buffer: self.back_buffer,
            pool_limit: self.policy.pool_limit,
            title_managed: self.title_managed,
        };
        // SAFETY: `list_header` was reserved at the start of `first` by `start_list`, and the
        // chain is sealed and handed over here.
        Ok(unsafe {
            CommandList::from_parts(self.list_header, self.device.clone(), memory, stats, origin)
        })
    }

    /// Writes a legacy list's last instances (R-ST-8) after its last command, as a pseudo-command
    /// that decoding skips (like the index); nothing for the immediate context's batches, whose
    /// instances stay its own, nor for fast lists.
    ///
    /// Refused before anything is written when the table would not fit the encoding (R-REC-12).
    fn write_last_instances(&mut self) -> Result<(*const LastInstance, u32), Error> {
        if R::RUNS_AT_ONCE || self.semantics != Semantics::Legacy {
            return Ok((std::ptr::null(), 0));
        }
        let count = self.maps.last_instances().count();
        if count == 0 {
            return Ok((std::ptr::null(), 0));
        }
        let size = CommandBytes::with_items::<Empty, LastInstance>(count).map_err(|too_large| {
            too_large.error(
                "finish_command_list",
                format_args!("the table of the last instances of {count} dynamic buffers"),
            )
        })?;
        let at = self
            .writer
            .reserve(size, None, &self.device.pool, &self.policy);
        // SAFETY: `at` has room for the header and `count` entries (8-aligned: the header and
        // every payload are multiples of 8, and so is `LastInstance`).
        let table = unsafe { write_command(at, Opcode::ListIndex, 0, None, size, Empty) }
            as *mut LastInstance;
        let mut written = 0;
        for (resource, instance) in self.maps.last_instances().take(count) {
            // SAFETY: `written < count`: entry `written` of the reserved table.
            unsafe {
                table
                    .add(written)
                    .write(LastInstance { resource, instance })
            };
            written += 1;
        }
        Ok((table as *const LastInstance, written as u32))
    }

    /// The size of a legacy list's table of references (`None` without one). Refused when the
    /// table would not fit the encoding (R-REC-12).
    fn list_references_size(&self) -> Result<Option<CommandBytes>, Error> {
        let count = match self.refs.as_ref() {
            Some(refs) if refs.listed_len() != 0 => refs.listed_len(),
            _ => return Ok(None),
        };
        CommandBytes::with_items::<Empty, ListReference>(count)
            .map(Some)
            .map_err(|too_large| {
                too_large.error(
                    "finish_command_list",
                    format_args!("the table of the {count} objects the list references"),
                )
            })
    }

    /// Writes a legacy list's table of references after its last command, as a pseudo-command
    /// that decoding skips (like the index), and makes the open list's references the finished
    /// list's (`LocalReferences::publish_list`). Refused, with the references left to the open
    /// list, when a shared count would pass its bound.
    fn write_list_references(
        &mut self,
        size: Option<CommandBytes>,
    ) -> Result<(*const ListReference, u32), Error> {
        let (Some(size), Some(refs)) = (size, self.refs.as_mut()) else {
            return Ok((std::ptr::null(), 0));
        };
        let count = refs.listed_len();
        let at = self
            .writer
            .reserve(size, None, &self.device.pool, &self.policy);
        // SAFETY: `at` has room for the header and `count` entries (8-aligned: the header and
        // every payload are multiples of 8, and so is `ListReference`).
        let table = unsafe { write_command(at, Opcode::ListIndex, 0, None, size, Empty) }
            as *mut ListReference;
        let mut written = 0;
        let published = refs.publish_list(&*self.device, |kind, handle, count_of| {
            if written < count {
                // SAFETY: `written < count`: entry `written` of the reserved table.
                unsafe {
                    table.add(written).write(ListReference {
                        handle,
                        kind,
                        count: count_of,
                    })
                };
                written += 1;
            }
        });
        match published {
            Ok(()) => Ok((table as *const ListReference, written as u32)),
            Err((kind, handle)) => Err(Error::ReleasedObject {
                call: "finish_command_list",
                object: self.device.object_name(kind, handle),
            }),
        }
    }

    #[cold]
    fn refuse_finish(&mut self, error: Error) -> RecordError {
        self.refused += 1;
        self.last_refusal = Some(error.clone());
        RecordError {
            context: self.label(),
            call_index: self.calls_made - 1,
            error,
        }
    }

    fn after_finish(&mut self, restore: bool) {
        let carried = restore && self.semantics == Semantics::Legacy;
        if !carried {
            self.reset_shadow();
        }
        self.start_list(carried);
    }

    /// Drops the list being recorded and everything it holds.
    pub(crate) fn discard_list(&mut self) {
        if let Some(refs) = self.refs.as_mut() {
            refs.discard_list(&*self.device);
        }
        let first = self.writer.take_chain();
        if !first.is_null() {
            // SAFETY: the chain is ours, sealed, and referenced nowhere else.
            unsafe { discard_chain(first, self.policy.pool_limit, &self.device) };
        }
        self.list_header = std::ptr::null_mut();
    }

    /// Back to the ClearState defaults, dropping the references the bindings held (legacy).
    pub(crate) fn reset_shadow(&mut self) {
        let Some(shadow) = self.shadow.as_mut() else {
            return;
        };
        // A title-managed context's bindings hold no references (R-FX-6).
        if let Some(refs) = self.refs.as_mut() {
            let device = &self.device;
            // Fast-bound slots hold no reference (R-FX-1).
            shadow.forget_all_fast();
            shadow
                .bindings
                .for_each_object(|kind, handle| refs.sub(&**device, kind, handle, BOUND));
        }
        shadow.clear();
    }

    /// "deferred context 'name' (#serial)", as errors name the context.
    pub(crate) fn label(&self) -> String {
        R::label(&self.name, self.serial, self.semantics)
    }

    /// Records a refused call (R-REC-8): the first error of the list is kept.
    #[cold]
    #[inline(never)]
    pub(crate) fn fail(&mut self, error: Error) {
        self.refused += 1;
        tracing::trace!(context = &*self.name, %error, "call refused");
        self.last_refusal = Some(error.clone());
        if self.error.is_none() {
            self.error = Some(RecordError {
                context: self.label(),
                call_index: self.calls_made - 1,
                error,
            });
        }
    }

    /// Puts `error` in place of the error of the call just refused: as the last refusal, and as
    /// the list's first error where that call set it. For `Recorder::replace_refusal` (the
    /// bundle rules' precedence, R-B-6).
    #[cold]
    pub(crate) fn refusal_replaced_by(&mut self, error: Error) {
        let call_index = self.calls_made.wrapping_sub(1);
        if let Some(first) = self.error.as_mut() {
            if first.call_index == call_index {
                first.error = error.clone();
            }
        }
        self.last_refusal = Some(error);
    }

    /// A refused call that reports its own result (`map`, R-REC-8): counted and kept as the
    /// last refusal, but the list is not poisoned. Returns the error for the caller.
    #[cold]
    #[inline(never)]
    pub(crate) fn refuse_reported_call(&mut self, error: Error) -> Error {
        self.refused += 1;
        tracing::trace!(context = &*self.name, %error, "call refused, reported to the caller");
        self.last_refusal = Some(error.clone());
        error
    }

    /// Gives back a reference [`retain`](Self::retain) took, when the call that took it is
    /// refused afterwards (legacy; fast semantics took none).
    #[cold]
    pub(crate) fn release_retained(&mut self, kind: ObjectKind, handle: RawHandle) {
        if let (Some(refs), false) = (self.refs.as_mut(), handle.is_null()) {
            refs.sub(&*self.device, kind, handle, LIST);
        }
    }

    /// Counts a call; every public recording method starts with it.
    #[inline(always)]
    pub(crate) fn begin_call(&mut self) {
        self.calls_made += 1;
    }

    /// Reserves an encoded command of `size` bytes.
    #[inline(always)]
    pub(crate) fn reserve(&mut self, size: CommandBytes, side: Option<SideKind>) -> *mut u8 {
        self.stats.commands += 1;
        self.writer
            .reserve(size, side, &self.device.pool, &self.policy)
    }

    /// Takes back the most recent reservation (a call refused after it reserved its command).
    #[inline]
    pub(crate) fn unreserve(&mut self, at: *mut u8, side: bool) {
        self.stats.commands -= 1;
        self.writer.unreserve(at, side);
    }

    /// Encodes a command with a fixed payload.
    #[inline(always)]
    pub(crate) fn emit<P: Copy>(
        &mut self,
        opcode: Opcode,
        operand: u8,
        split: Option<SplitCategory>,
        payload: P,
    ) {
        let size = CommandBytes::fixed::<P>();
        let at = self.reserve(size, split.map(|_| SideKind::Split));
        // SAFETY: `at` has `size` bytes for the header and `P`.
        unsafe { write_command(at, opcode, operand, split, size, payload) };
        if let Some(category) = split {
            self.stats.split_points[category] += 1;
        }
    }

    /// Encodes a command with a fixed payload followed by `items`. Refused, with nothing
    /// written, when the command would not fit the encoding (R-REC-12).
    #[inline(always)]
    pub(crate) fn emit_with<P: Copy, T: Copy>(
        &mut self,
        call: &'static str,
        opcode: Opcode,
        operand: u8,
        split: Option<SplitCategory>,
        payload: P,
        items: &[T],
    ) -> Result<(), Error> {
        const { assert!(std::mem::size_of::<T>().is_multiple_of(8) && std::mem::align_of::<T>() <= 8) };
        let size = CommandBytes::with_items::<P, T>(items.len())
            .map_err(|too_large| too_large.error(call, format_args!("{} items", items.len())))?;
        let at = self.reserve(size, split.map(|_| SideKind::Split));
        // SAFETY: `at` has `size` bytes: the header, `P`, then `items.len()` `T`s (8-aligned,
        // since the header and every payload are multiples of 8).
        unsafe {
            let tail = write_command(at, opcode, operand, split, size, payload) as *mut T;
            std::ptr::copy_nonoverlapping(items.as_ptr(), tail, items.len());
        }
        if let Some(category) = split {
            self.stats.split_points[category] += 1;
        }
        Ok(())
    }

    /// Reserves a command for `resource` and `len` bytes of data (a map or an update) and
    /// returns the data, zeroed. The payload's `data_len` is set here, the one place the length
    /// is converted: data over [`MAX_MAP_BYTES`](crate::limits::MAX_MAP_BYTES) is refused with
    /// nothing written (R-REC-12).
    #[inline]
    pub(crate) fn emit_data(
        &mut self,
        call: &'static str,
        opcode: Opcode,
        mut resource: BoundResource,
        len: usize,
    ) -> Result<*mut u8, Error> {
        let object = || {
            let kind = match resource.is_texture {
                0 => ObjectKind::Buffer,
                _ => ObjectKind::Texture,
            };
            self.device.object_name(kind, resource.resource)
        };
        if len > crate::limits::MAX_MAP_BYTES {
            return Err(data_too_large(call, object(), len as u64));
        }
        let size = CommandBytes::with_data::<BoundResource>(len)
            .map_err(|too_large| too_large.error(call, object()))?;
        // `len <= MAX_MAP_BYTES < u32::MAX` (checked above).
        resource.data_len = len as u32;
        let at = self.reserve(size, None);
        let padded = size.get() - HEADER - std::mem::size_of::<BoundResource>();
        // SAFETY: `at` has `size` bytes: the header, the payload, then `padded >= len` bytes of
        // data, which are zeroed before they are handed out.
        unsafe {
            let data = write_command(at, opcode, 0, None, size, resource);
            std::ptr::write_bytes(data, 0, padded);
            Ok(data)
        }
    }

    /// Legacy: takes `count` references on an object the list records (R-OBJ-4). Fast semantics
    /// never touches reference counts outside creation: nothing to do.
    #[inline(always)]
    pub(crate) fn retain(
        &mut self,
        kind: ObjectKind,
        handle: RawHandle,
        count: u32,
        call: &'static str,
    ) -> Result<(), Error> {
        match self.refs.as_mut() {
            Some(refs) if !handle.is_null() && count != 0 => refs
                .add_checked(&*self.device, kind, handle, count as u64 * LIST)
                .map_err(|_| self.device.stale_error(call, kind, handle)),
            _ => Ok(()),
        }
    }

    /// The next dynamic instance this context creates (R-REC-10).
    pub(crate) fn next_instance(&mut self) -> InstanceId {
        self.map_serial += 1;
        InstanceId::new(self.serial, self.map_serial)
    }

    /// Re-binds the state carried over from the previous list (legacy, restore=true), through the
    /// same encoding as the calls that set it: dynamic bindings become split points again, since
    /// their data stayed with the previous list (R-SP-1), and the list takes its own references.
    fn emit_carried_state(&mut self) {
        let Some(shadow) = self.shadow.take() else {
            return;
        };
        self.encode_state(&shadow);
        self.shadow.put(shadow);
        // The list takes its references on what it re-bound: walk what was just encoded (the
        // list holds nothing else yet).
        self.writer.seal_in_place();
        let (device, Some(refs)) = (&self.device, self.refs.as_mut()) else {
            return;
        };
        for decoded in crate::list::Commands::over(self.writer.first()) {
            decoded.command.for_each_object(|kind, handle| {
                // Carried bindings keep their objects alive, so this cannot fail.
                let _ = refs.add(&**device, kind, handle, LIST);
            });
        }
    }
}

/// The calls only a deferred context makes: the list's end, its abandonment, nesting.
impl Recorder<DeferredRole> {
    /// Ends the list (R-REC-6). Legacy: [`RestoreState::Restore`] keeps the context's state for
    /// the next list, [`RestoreState::ClearState`] resets it to the defaults. Fast: `Restore` is
    /// refused with `restore_not_supported` and the list stays open. A list with a sticky error is discarded
    /// and its first error returned.
    #[inline]
    pub fn finish_command_list(
        &mut self,
        restore: RestoreState,
    ) -> Result<CommandList, RecordError> {
        self.finish_list(restore.is_restore())
    }

    /// Abandons the list being recorded, whatever state it is in (a sticky error, a buffer
    /// still mapped, calls cut short by a panic): its commands are dropped with everything they
    /// hold, and a new list begins as after `finish_command_list(RestoreState::ClearState)` (legacy: from the
    /// ClearState defaults). A job system calls it when a job failed before the context
    /// records the next job, so nothing of the failed job leaks into another list.
    ///
    /// ```
    /// use recorder::*;
    ///
    /// let device = Device::new(DeviceDesc::default());
    /// let buffer = device.create_buffer(&BufferDesc {
    ///     name: "per_frame",
    ///     size: 64,
    ///     usage: Usage::Dynamic,
    ///     bind: BindFlags::CONSTANT,
    ///     ..Default::default()
    /// })?;
    /// let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
    /// let _ = context.map(buffer, MapType::WriteDiscard, MapFlags::None)?.keep_mapped();
    /// assert!(context.finish_command_list(RestoreState::ClearState).is_err()); // still mapped: the list stays open
    /// context.discard_command_list();
    /// context.draw(3, 0);
    /// assert_eq!(context.finish_command_list(RestoreState::ClearState).map_err(|e| e.error)?.stats().draws, 1);
    /// # Ok::<(), recorder::Error>(())
    /// ```
    pub fn discard_command_list(&mut self) {
        self.discard_list();
        self.after_finish(false);
    }

    /// Executes a finished list inside this one (R-REC-9): records a reference to it, copying no
    /// commands. Fast contexts refuse [`RestoreState::Restore`]; a legacy context afterwards has
    /// the ClearState defaults (`ClearState`) or its own state from before (`Restore`). Nesting has no depth
    /// limit: execution, validation and dropping walk it with stacks of their own, never by
    /// recursion on the call stack.
    pub fn execute_command_list(&mut self, list: &CommandList, restore: RestoreState) {
        let restore = restore.is_restore();
        self.begin_call();
        const CALL: &str = "execute_command_list";
        if restore && self.semantics == Semantics::Fast {
            return self.fail(Error::RestoreNotSupported { call: CALL });
        }
        if !std::ptr::eq(list.device_ptr(), &*self.device) {
            return self.fail(Error::WrongDevice {
                call: CALL,
                object: "command list",
                device: list.device_serial(),
                expected: self.device.identity.serial(),
                uses: "executes",
            });
        }
        let keep = list.clone();
        let address = keep.header_ptr() as usize;
        // The reference `keep` holds now belongs to this list's chain (see `discard_chain`).
        std::mem::forget(keep);
        let size = CommandBytes::fixed::<usize>();
        let at = self.reserve(size, Some(SideKind::Nested));
        // SAFETY: `at` has room for the header and the address.
        unsafe {
            write_command(
                at,
                Opcode::ExecuteCommandList,
                restore as u8,
                None,
                size,
                address,
            )
        };
        if self.back_buffer.is_none() {
            self.back_buffer = list.back_buffer_affinity();
        }
        if !restore {
            self.reset_shadow();
        }
        // The nested legacy list's last instances become this context's current ones and this
        // list's last, as after an execution on the immediate context (R-ST-8): later binds
        // read them, the bindings `restore = true` keeps are re-bound to them.
        for last in list.last_instances() {
            self.adopt_instance(last.resource, last.instance, restore);
        }
    }
}

impl<R: Role> Drop for Recorder<R> {
    fn drop(&mut self) {
        self.discard_list();
        self.writer
            .give_back_stash(&self.device.pool, self.policy.pool_limit);
        self.reset_shadow();
        if let Some(refs) = self.refs.take() {
            refs.unregister(&*self.device);
        }
        if R::RUNS_AT_ONCE {
            self.device.release_immediate();
        } else if R::COUNTED {
            self.device.live_contexts.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

impl<R: Role> std::fmt::Debug for Recorder<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(R::TYPE_NAME)
            .field("name", &self.name)
            .field("serial", &self.serial)
            .field("semantics", &self.semantics)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}
