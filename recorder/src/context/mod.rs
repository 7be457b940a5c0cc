//! Deferred contexts (R-REC-1..11): one thread records on one at a time (`Send`, not `Sync`), into
//! chunks of its own, taking no lock and, under fast semantics, no atomic read-modify-write. Bad
//! input never panics: the call is ignored and the first error is kept with its call index, for
//! `finish_command_list` to return (R-REC-8). A call that returns its own result (`map`)
//! reports its refusal to the caller instead and does not poison the list.
//!
//! Only the immediate context's recorder hands out batches (`take_batch`); a deferred context's
//! list ends through `finish_command_list`, which refuses a list with a buffer still mapped.
//!
//! **The files.** This file holds the recording core: the [`Recorder`] and its creation, what
//! it reports (statistics, errors, the legacy state), its refusals (the sticky error, R-REC-8)
//! and its drop. Beside it:
//! - `emit.rs`: the hot path's helpers every call uses: counting the call, reserving and writing
//!   its command, the legacy references on what it names;
//! - `list_life.rs`: a list begun, finished, discarded and nested (the deferred context's own
//!   calls);
//! - `seal.rs`: the tables written after a list's last command, and the list made;
//! - `carry.rs`: a legacy state carried into the next list (R-ST-1);
//! - `role.rs` (the three roles), `legacy.rs`, `shadow.rs` and `refs.rs` (what only legacy
//!   semantics keeps), `split.rs` (the split categories) and `bundle_entry.rs` (the recorder's
//!   share of bundles).
//!
//! The calls themselves are in the area files beside `context/` (`binds/`, `draws.rs`,
//! `transfers.rs`, `maps/`, `queries.rs`, `fences.rs`, `barriers/`, `fast/`: the crate's essay
//! in `lib.rs` lists them).

pub(crate) mod bundle_entry;
mod carry;
pub(crate) mod core_access;
mod emit;
pub(crate) mod legacy;
mod list_life;
pub(crate) mod refs;
pub(crate) mod registered_bundle;
pub(crate) mod role;
mod seal;
pub(crate) mod shadow;
pub(crate) mod split;

use std::sync::Arc as StdArc;

use crate::chunk::{ChunkPolicy, ChunkWriter};
use crate::command::*;
use crate::context::legacy::LegacyBox;
use crate::context::refs::{LocalReferences, BOUND};
use crate::context::role::{DeferredRole, Role};
use crate::context::shadow::LegacyShadow;
use crate::desc::{Engine, Semantics};
use crate::device::handle::SwapChain;
use crate::device::{Device, DeviceShared};
use crate::errors::{DescProblem, Error, RecordError};
use crate::limits::MAX_DEFERRED_CONTEXTS;
use crate::list::{ListHeader, ListStats, StartState};
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
    /// The list being recorded holds a call that keeps the fast contract on any context
    /// (R-FX-1), or nests a list checked at every execution: it is checked before every
    /// execution too (`list/lifetime_check.rs`). Set by [`unreferenced`](Self::unreferenced).
    pub(crate) unreferenced: bool,
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
            unreferenced: false,
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

    /// Takes the first error of the list being recorded, leaving none (for the immediate
    /// recorder, whose batches carry no error: the immediate context reports it, `engine/`).
    pub(crate) fn take_sticky_error(&mut self) -> Option<RecordError> {
        self.error.take()
    }

    /// What a legacy context holds bound now (its shadow, R-ST-1): at the start of a list the
    /// state the previous `finish_command_list(Restore)` carried in, or the ClearState
    /// defaults. `None` under fast semantics, which shadows nothing. The capture writes a
    /// carried state as the calls that set it (`trace::capture`).
    pub fn legacy_state(&self) -> Option<&crate::state::Bindings> {
        self.shadow.as_ref().map(|shadow| &shadow.bindings)
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

    /// The call just recorded names an object without taking a reference on it on any context
    /// (it keeps the fast contract, R-FX-1): the list is checked before every execution
    /// (R-OBJ-3, `list/lifetime_check.rs`). One store; nothing on the calls that take
    /// references.
    #[inline(always)]
    pub(crate) fn unreferenced(&mut self) {
        self.unreferenced = true;
    }

    /// The next dynamic instance this context creates (R-REC-10).
    pub(crate) fn next_instance(&mut self) -> InstanceId {
        self.map_serial += 1;
        InstanceId::new(self.serial, self.map_serial)
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
