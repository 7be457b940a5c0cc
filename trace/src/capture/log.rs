//! What each context keeps of its calls while they are captured: the [`Tap`] every wrapper
//! holds, and the records a finished list or bundle carries ([`ListLog`], [`BundleLog`]).
//!
//! **The hot path.** A wrapper asks [`Tap::active`] before each call: idle, that is one load of
//! a byte the context owns and a branch that always goes the same way (R-CAP-1); no atomic, no
//! lock. Only the first call of each list takes the slow path, which reads the capture's state
//! (one atomic load) to decide whether the new list is captured: a list is captured whole or
//! not at all (R-CAP-5), so a deferred context decides once per list, at its first call.
//!
//! **Maps** (R-CAP-4). A write map on a captured context copies the mapped bytes as they were
//! (the context's own shadow of them: a buffer mapped on several contexts at once has one per
//! context, since each context keeps its own), and the unmap compares: the changed range is
//! written as `write RES OFFSET HEX`, not the whole buffer. A read map's bytes are not captured
//! (the map and unmap statements are: the engine's rules apply to them).

use crate::sync::Ordering;
use std::sync::{Arc, OnceLock};

use recorder::command::InstanceId;
use recorder::state::Bindings;
use recorder::{MapType, ObjectKind, PrimitiveTopology, Resource, Stage};

use super::arena::{Keep, Lists, OwnedLists};
use super::entries::Entries;
use super::form::{Call, Entry, Obj};
use super::kept_calls::{Decoded, Hot, KeptCalls, Word};
use super::Shared;
use crate::sync::Mutex;
use crate::syntax::ast::{Method, VertexBinding};

/// Whether a context's calls are being kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum TapState {
    /// Not captured; stays so until the list ends.
    Off = 0,
    /// A list starts at the next call: decide then.
    Fresh,
    /// Every call is kept.
    On,
}

/// A map the tap is watching: where its bytes are, and where the tap's copy of them as they
/// were when mapped starts (in `Tap::shadow`).
#[derive(Debug)]
struct OpenMap {
    resource: Resource,
    data: *mut u8,
    len: usize,
    before: usize,
}

/// One context's capture state and the calls it kept.
pub(crate) struct Tap {
    state: TapState,
    /// Decide at each list's start (deferred contexts); otherwise the capture switches the tap.
    per_list: bool,
    shared: Arc<Shared>,
    /// The calls kept since the list (or the frame) began, and the capture's clock at each.
    calls: KeptCalls,
    /// The tick this tap took last (`NO_TICK` when its next entry takes one anyway): the tick
    /// of its next entry too while the clock stays there ([`tick`](Self::tick)).
    tick: u64,
    /// The lists this context executed while kept (nested lists), by their log's number.
    pub(crate) nested: Vec<Arc<ListLog>>,
    /// The bundles this context called while kept.
    pub(crate) bundles: Vec<Obj>,
    /// A legacy context's state at the start of the kept list, when a restore carried it in.
    pub(crate) carried: Option<Vec<Call>>,
    /// Why the kept calls cannot make a trace, if something made them so.
    pub(crate) broken: Option<String>,
    open: Vec<OpenMap>,
    /// The bytes of the open maps as they were when mapped, one after the other (emptied as
    /// the maps settle: a map's copy costs no allocation once the tap has seen one as large).
    shadow: Vec<u8>,
    /// Where the kept calls' lists go (`arena.rs`).
    lists: Lists,
    /// Each log taken gets the arena for its own (a bundle recorder's: a bundle lives as long as
    /// the application keeps it, not a frame), and the tap starts another.
    arena_per_log: bool,
    /// The vectors its finished lists' logs hand back as they drop ([`Spares`]).
    spares: Spares,
}

// SAFETY: `OpenMap::data` points into memory the wrapped context owns; the tap is a field of
// that wrapper, moves with it, and reads the bytes only inside the wrapper's own `&mut self`
// calls (map and unmap), on the thread that owns the wrapper at that time.
unsafe impl Send for Tap {}

impl Tap {
    /// A tap that decides at each list's start (a deferred context).
    pub(crate) fn per_list(shared: Arc<Shared>) -> Self {
        Self::new(shared, TapState::Fresh, true)
    }

    /// A tap switched by the capture (the immediate context: off until a frame starts), or
    /// always on (a bundle recorder: a bundle is recorded once and called for many frames, so
    /// its recording is always kept, R-CAP-5, each bundle's lists in an arena of its own).
    pub(crate) fn switched(shared: Arc<Shared>, on: bool) -> Self {
        let state = if on { TapState::On } else { TapState::Off };
        let mut tap = Self::new(shared, state, false);
        tap.arena_per_log = on;
        tap
    }

    fn new(shared: Arc<Shared>, state: TapState, per_list: bool) -> Self {
        Self {
            state,
            per_list,
            shared,
            calls: KeptCalls::default(),
            tick: NO_TICK,
            nested: Vec::new(),
            bundles: Vec::new(),
            carried: None,
            broken: None,
            open: Vec::new(),
            shadow: Vec::new(),
            lists: Lists::new(),
            arena_per_log: false,
            spares: Spares::default(),
        }
    }

    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Whether this call is kept: idle, one predictable branch.
    #[inline(always)]
    pub(crate) fn active(&mut self) -> bool {
        self.state != TapState::Off && (self.state == TapState::On || self.wake())
    }

    /// The slow half of [`active`](Self::active): the first call of a list decides.
    #[cold]
    #[inline(never)]
    fn wake(&mut self) -> bool {
        if self.state == TapState::Fresh {
            let on =
                self.shared.options.keep_all_lists || self.shared.capturing.load(Ordering::Acquire);
            self.state = if on { TapState::On } else { TapState::Off };
            if on {
                // A list starts: its lists reuse the arena if no log of the lists before
                // holds it (the frame before is written and its lists dropped).
                self.recycle();
            }
        }
        self.state == TapState::On
    }

    /// Whether the tap keeps nothing now, not even a decision to make: the idle path's one
    /// branch.
    #[inline(always)]
    pub(crate) fn is_idle(&self) -> bool {
        self.state == TapState::Off
    }

    /// Whether the tap is about to decide (a list's first call comes next).
    pub(crate) fn is_fresh(&self) -> bool {
        self.state == TapState::Fresh
    }

    #[inline(always)]
    pub(crate) fn is_on(&self) -> bool {
        self.state == TapState::On
    }

    /// Switches a capture-switched tap (the immediate context's).
    pub(crate) fn switch(&mut self, on: bool) {
        self.state = if on { TapState::On } else { TapState::Off };
        self.tick = NO_TICK;
    }

    /// The capture's tick for the entry kept next: this tap's last one while no one has
    /// ticked since (a load and a compare), otherwise a new one (`kept_calls.rs`' essay).
    #[inline(always)]
    fn tick(&mut self) -> u64 {
        if self.shared.clock.load(Ordering::Relaxed) != self.tick {
            self.fresh_tick();
        }
        self.tick
    }

    /// The clock moved since this tap's last tick (or it starts its entries): a new tick, where
    /// a new run of entries starts.
    #[cold]
    #[inline(never)]
    fn fresh_tick(&mut self) {
        self.tick = self.shared.stamp();
        self.calls.start_run(self.tick);
    }

    /// Keeps `hot`, a call as it came (a draw, a one-slot bind: `kept_calls.rs`), for a caller
    /// out of the wrapper's line (`CapturedContext::keep_hot`).
    #[inline(always)]
    pub(crate) fn keep_hot_in_line(&mut self, hot: Hot) {
        self.settle();
        self.tick();
        self.calls.push_hot(hot);
    }

    /// Keeps `word`, a call packed by its wrapper (`kept_calls.rs`), for a caller out of the
    /// wrapper's line (`CapturedContext::keep_word`).
    #[inline(always)]
    pub(crate) fn keep_word_in_line(&mut self, word: Word) {
        self.settle();
        self.tick();
        self.calls.push_word(word);
    }

    /// Keeps a one-slot vertex-buffer bind packed by its wrapper, with its stride and offset
    /// (`CapturedContext::keep_vertex_buffer`).
    #[inline(always)]
    pub(crate) fn keep_vertex_buffer_in_line(&mut self, word: Word, stride: u32, offset: u32) {
        self.settle();
        self.tick();
        self.calls.push_vertex_buffer(word, stride, offset);
    }

    /// Keeps the call `make` builds (its lists in the tap's arena), out of the caller's line: a
    /// wrapper's idle path holds only the branch and this call, not the building of the call's
    /// record.
    #[cold]
    #[inline(never)]
    pub(crate) fn keep(&mut self, make: impl FnOnce(&mut Lists) -> Call) {
        self.keep_in_line(make)
    }

    /// [`keep`](Self::keep) in the caller's line: for a caller already out of the wrapper's
    /// (`CapturedContext::keep`).
    #[inline(always)]
    pub(crate) fn keep_in_line(&mut self, make: impl FnOnce(&mut Lists) -> Call) {
        let owned = OwnedLists::now();
        let call = make(&mut self.lists);
        self.settle();
        self.tick();
        // Its lists are the arena's unless `make` made one of its own; its kind holds no name
        // or bytes of its own (`make` is inlined here: the kind is known, the test folds).
        let owns_nothing = owned.none_since()
            && !matches!(
                call,
                Method::Write { .. }
                    | Method::SetFastResourcesIntoBatch { .. }
                    | Method::SetFastResourcesFromBatch { .. }
            );
        match owns_nothing {
            true => self.calls.push_plain(Entry::Call(call)),
            false => self.calls.push(Entry::Call(call)),
        }
    }

    /// The kept entries and their clock, taken from the tap with what keeps their lists valid
    /// (the only way entries leave a tap: `arena.rs`). The tap goes on with the vectors a
    /// dropped list's log handed back ([`Spares`]), or else new ones of the same capacity (one
    /// allocation each, none as the next list grows to the same length; cheaper than copying
    /// the entries out at their length, which walks each one).
    pub(crate) fn take_kept(&mut self) -> Kept {
        let calls =
            (self.spares.take()).unwrap_or_else(|| KeptCalls::with_capacity_of(&self.calls));
        self.tick = NO_TICK;
        let kept = Kept {
            calls: std::mem::replace(&mut self.calls, calls),
            keep: self.lists.keep(),
        };
        if self.arena_per_log {
            self.lists = Lists::new();
        }
        kept
    }

    /// Reuses the arena when nothing holds its lists; the tap's entries are empty.
    fn recycle(&mut self) {
        debug_assert!(self.calls.is_empty());
        // SAFETY: the callers (`end_list`, `clear`, `wake` at a list's start, after `end_list`
        // or with nothing kept yet) have emptied `calls`, the only place the tap keeps lists
        // from its arena (`carried` is made outside the tap: owned).
        unsafe { self.lists.recycle() }
    }

    /// Before a kept call that reads `views` (a bind, a clear): the back buffer each view of a
    /// swap chain names now, which the call encodes (R-EX-7), as an [`Entry::Pin`]. The writer
    /// writes it on `imm` where the text has the view elsewhere (`Out::entry`), so a list recorded
    /// before a present or a placement moved the view, or a call made after a placement the
    /// capture did not see (one made on the device directly), replays with its buffer.
    #[cold]
    #[inline(never)]
    pub(crate) fn pin_views<H: recorder::Handle>(&mut self, views: &[Option<H>]) {
        // Out of the wrapper's line, which stays as short as the idle path needs it.
        self.pin_views_in_line(views)
    }

    /// [`pin_views`](Self::pin_views) in the caller's line: for a caller already out of the
    /// wrapper's (`CapturedContext::keep_reading`).
    #[inline(always)]
    pub(crate) fn pin_views_in_line<H: recorder::Handle>(&mut self, views: &[Option<H>]) {
        // No view of a back buffer exists on the device: nothing to pin (one load).
        if self.shared.device.has_swap_chain_views() {
            self.pin_each(views);
        }
    }

    /// [`pin_views`](Self::pin_views) once a view of a back buffer exists: each view asked.
    #[cold]
    #[inline(never)]
    fn pin_each<H: recorder::Handle>(&mut self, views: &[Option<H>]) {
        for view in views.iter().flatten() {
            if let Some((_, index)) = self.shared.device.swap_chain_view_buffer(*view) {
                self.settle();
                self.push(Entry::Pin {
                    view: Obj::of(H::KIND, *view),
                    index,
                });
            }
        }
    }

    /// After a kept minimum-LOD call (the last entry): on a deferred context during a frame
    /// capture, noted in the capture's `frame_min_lods` too, as the call changes the object at
    /// once for every context (R-ST-6) whether or not the trace writes the list.
    #[cold]
    #[inline(never)]
    pub(crate) fn device_call(&mut self) {
        if !self.per_list || !self.shared.capturing.load(Ordering::Acquire) {
            return;
        }
        if let Some((Entry::Call(call), seq)) = self.calls.last_full() {
            self.shared.frame_min_lods.lock().push((call.clone(), seq));
        }
    }

    /// The application's placement of `view`, just kept, succeeded: the view is on `index` in
    /// the text too ([`Entry::Placed`]).
    pub(crate) fn placed(&mut self, view: Obj, index: u32) {
        self.push(Entry::Placed { view, index });
    }

    /// [`pin_views`](Self::pin_views) for the shader-resource views of fast entries (R-FX-1): a
    /// fast bind encodes the buffer a view names as any bind does.
    #[cold]
    #[inline(never)]
    pub(crate) fn pin_fast_views(&mut self, entries: &[recorder::FastResource]) {
        for entry in entries {
            if let recorder::FastResource::ShaderResource { view, .. } = entry {
                self.pin_views(&[*view]);
            }
        }
    }

    #[inline]
    pub(crate) fn call(&mut self, call: Call) {
        self.settle();
        self.push(Entry::Call(call));
    }

    /// An `insert_fence` (`insert` makes the value): kept at a tick taken before the value
    /// exists, since another thread may wait on it at once and its wait must come after this
    /// insert in the trace.
    pub(crate) fn fence(
        &mut self,
        kept: bool,
        engine: recorder::Engine,
        flags: recorder::FenceFlags,
        insert: impl FnOnce() -> u64,
    ) -> u64 {
        if !kept {
            return insert();
        }
        self.settle();
        self.tick();
        let value = insert();
        self.calls.push(Entry::Call(Method::InsertFence {
            fence: Obj::Fence(value),
            engine,
            kick_off: flags.kicks_off(),
        }));
        value
    }

    #[inline]
    fn push(&mut self, entry: Entry) {
        self.tick();
        self.calls.push(entry);
    }

    /// Keeps a call the trace format cannot say, as a comment (its name).
    pub(crate) fn not_written(&mut self, what: &'static str) {
        self.settle();
        self.push(Entry::NotWritten(what));
    }

    /// A map the context accepted: its statement, and for a write map a shadow of the bytes.
    #[cold]
    #[inline(never)]
    pub(crate) fn mapped(
        &mut self,
        resource: Resource,
        map_type: MapType,
        allow_usage_default: bool,
        instance: Option<InstanceId>,
        bytes: Option<(*mut u8, usize)>,
    ) {
        self.call(Method::Map {
            resource: resource_obj(resource),
            map_type,
            allow_usage_default,
            instance,
            writes: (),
        });
        if map_type == MapType::Read {
            return;
        }
        if let Some((data, len)) = bytes {
            let before = self.shadow.len();
            // SAFETY: the wrapper passes the bytes the engine just mapped: valid for `len`
            // bytes until the unmap, and nothing else touches them during this copy.
            self.shadow
                .extend_from_slice(unsafe { std::slice::from_raw_parts(data, len) });
            self.open.push(OpenMap {
                resource,
                data,
                len,
                before,
            });
        }
    }

    /// An unmap: the bytes changed since the map, then the statement.
    #[cold]
    #[inline(never)]
    pub(crate) fn unmapped(&mut self, resource: Resource) {
        self.call(Method::Unmap {
            resource: resource_obj(resource),
        });
    }

    /// Writes what the application changed in the maps it opened, and forgets their memory.
    ///
    /// The bytes of a map are written only while its slice borrows the context, so before the
    /// next call on it: every call on a wrapper (kept or not, before it reaches the wrapped
    /// context, which may then let the memory go: the immediate context's batch is taken by a
    /// flush or an execution even while a map stays open) settles first, and the changed range
    /// is written right after the `map`, where the application wrote it.
    #[inline]
    pub(crate) fn settle(&mut self) {
        if !self.open.is_empty() {
            self.settle_maps();
        }
    }

    #[cold]
    fn settle_maps(&mut self) {
        // Taken for the walk and put back empty: the vectors keep their capacity.
        let (mut maps, mut shadow) = (
            std::mem::take(&mut self.open),
            std::mem::take(&mut self.shadow),
        );
        for open in &maps {
            // SAFETY: `settle` runs before any call reaches the wrapped context after the map
            // that handed out these bytes (see above): they are still the map's, valid for `len`,
            // and the application's borrow of them has ended, so nothing else touches them.
            let after = unsafe { std::slice::from_raw_parts(open.data, open.len) };
            let before = &shadow[open.before..open.before + open.len];
            if let Some((first, last)) = changed(before, after) {
                let bytes = self.lists.copy(&after[first..=last]);
                self.push(Entry::Write {
                    resource: resource_obj(open.resource),
                    offset: first as u32,
                    bytes,
                });
            }
        }
        maps.clear();
        shadow.clear();
        (self.open, self.shadow) = (maps, shadow);
    }

    /// Ends a kept list: what it kept, for the list to carry; the tap decides again at the
    /// next call.
    pub(crate) fn take_list(
        &mut self,
        id: u64,
        ordinal: u64,
        context: ContextInfo,
        restore: bool,
    ) -> ListLog {
        let kept = self.take_kept();
        let log = ListLog {
            id,
            ordinal,
            context,
            restore,
            calls: kept.calls,
            decoded: OnceLock::new(),
            _keep: kept.keep,
            finish_seq: self.shared.stamp(),
            nested: std::mem::take(&mut self.nested),
            bundles: std::mem::take(&mut self.bundles),
            carried: self.carried.take(),
            broken: self.broken.take(),
            spares: self.spares.clone(),
        };
        self.end_list();
        log
    }

    /// Forgets the list being kept (discarded, or finished with an error).
    pub(crate) fn end_list(&mut self) {
        self.calls.clear();
        self.tick = NO_TICK;
        self.nested.clear();
        self.bundles.clear();
        self.carried = None;
        self.broken = None;
        self.open.clear();
        self.shadow.clear();
        self.recycle();
        if self.per_list {
            self.state = TapState::Fresh;
        }
    }

    /// Empties what the tap kept (the immediate context's, at a frame's start).
    pub(crate) fn clear(&mut self) {
        self.calls.clear();
        self.tick = NO_TICK;
        self.nested.clear();
        self.bundles.clear();
        self.broken = None;
        self.open.clear();
        self.shadow.clear();
        self.recycle();
    }
}

/// Entries taken from a tap ([`Tap::take_kept`]), with the [`Keep`] of the arena their lists
/// point into: dropped after them (field order).
pub(crate) struct Kept {
    pub calls: KeptCalls,
    pub keep: Keep,
}

/// No tick: the clock never reaches it, so a tap's next entry takes a new one.
const NO_TICK: u64 = u64::MAX;

/// Spare vectors of a tap's kept calls, which its finished lists' logs hand back as they
/// drop ([`ListLog`]'s `Drop`) and [`Tap::take_kept`] takes for the next list: a context that
/// captures list after list, each dropped before the next is finished, moves the same
/// vectors back and forth instead of allocating them per list (and, for a list of a hundred
/// thousand calls, mapping, faulting in and unmapping megabytes each time).
///
/// **Bounds.** At most [`SPARES`] sets, of [`SPARE_BYTES`] in all: an application that drops
/// many large lists at once leaves the rest to the allocator. The lock is taken once per
/// finished list and once per dropped list, never per call; the tap's idle path never sees it.
///
/// **Invariant.** A spare is empty (cleared while its log's arena is alive: no entry, so no
/// pointer into any arena, is left in it).
#[derive(Clone)]
pub(crate) struct Spares(Arc<Mutex<Vec<Spare>>>);

/// One spare set: a list's kept calls, empty.
type Spare = KeptCalls;

impl Default for Spares {
    fn default() -> Self {
        Self(Arc::new(Mutex::new(Vec::new())))
    }
}

impl std::fmt::Debug for Spares {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spares")
    }
}

/// How many sets of vectors [`Spares`] keeps.
const SPARES: usize = 2;

/// How many bytes of vectors [`Spares`] keeps in all.
const SPARE_BYTES: usize = 64 << 20;

impl Spares {
    /// A spare set, if one was handed back.
    fn take(&self) -> Option<Spare> {
        self.0.lock().pop()
    }

    /// Empties `calls` and keeps them, within the bounds; otherwise they are freed (after the
    /// lock is let go).
    fn give(&self, mut calls: KeptCalls) {
        calls.clear();
        let pair = calls;
        let mut spares = self.0.lock();
        let held: usize = spares.iter().map(KeptCalls::capacity_bytes).sum();
        let fits = spares.len() < SPARES && held + pair.capacity_bytes() <= SPARE_BYTES;
        let refused = match fits {
            true => {
                spares.push(pair);
                None
            }
            false => Some(pair),
        };
        drop(spares);
        drop(refused);
    }
}

/// The first and last index where two byte strings differ.
fn changed(before: &[u8], after: &[u8]) -> Option<(usize, usize)> {
    let first = before.iter().zip(after).position(|(a, b)| a != b)?;
    let last = before
        .iter()
        .zip(after)
        .rposition(|(a, b)| a != b)
        .unwrap_or(first);
    Some((first, last))
}

pub(crate) fn resource_obj(resource: Resource) -> Obj {
    match resource {
        Resource::Buffer(b) => Obj::of(ObjectKind::Buffer, b),
        Resource::Texture(t) => Obj::of(ObjectKind::Texture, t),
    }
}

/// The deferred context a list was recorded on.
#[derive(Clone, Debug)]
pub(crate) struct ContextInfo {
    /// The capture's number for the context (its creation order).
    pub serial: u64,
    pub name: String,
    pub semantics: recorder::Semantics,
    /// A legacy context created with `title_managed_lifetimes` (R-FX-6).
    pub title_managed_lifetimes: bool,
}

/// What a finished list carries of its recording (attached to the `CommandList`).
#[derive(Debug)]
pub(crate) struct ListLog {
    /// The capture's number for the list, in finish order.
    pub id: u64,
    /// Which list of its context it is (0 for the first the context finished or discarded).
    pub ordinal: u64,
    pub context: ContextInfo,
    /// `finish LIST restore=yes`.
    pub restore: bool,
    /// The calls kept, as they were kept ([`ListLog::entries`] reads them).
    pub(super) calls: KeptCalls,
    /// `calls` decoded, once the writer reads them.
    pub(super) decoded: OnceLock<Decoded>,
    /// Keeps the arena `calls`' lists point into (after them: field order); never read.
    pub _keep: Keep,
    /// The capture's clock at the finish.
    pub finish_seq: u64,
    pub nested: Vec<Arc<ListLog>>,
    pub bundles: Vec<Obj>,
    pub carried: Option<Vec<Call>>,
    pub broken: Option<String>,
    /// Where `calls` go when the log drops: back to the tap that kept them.
    spares: Spares,
}

impl ListLog {
    /// The kept entries, decoded the first time they are read (`kept_calls.rs`).
    pub(crate) fn entries(&self) -> &Entries {
        &self.decoded.get_or_init(|| self.calls.decode()).entries
    }

    /// The capture's clock at each of [`entries`](Self::entries).
    pub(crate) fn seqs(&self) -> &[u64] {
        &self.decoded.get_or_init(|| self.calls.decode()).seqs
    }
}

impl Drop for ListLog {
    fn drop(&mut self) {
        // Emptied here, while `_keep` still holds the arena their lists point into (entries
        // that own memory are dropped, the others forgotten: `entries.rs`).
        self.spares.give(std::mem::take(&mut self.calls));
    }
}

/// What a finished bundle carries of its recording (kept by the capture under the bundle's
/// handle).
#[derive(Debug)]
pub(crate) struct BundleLog {
    /// The recorder's name, which the bundle's trace name is made from.
    pub name: String,
    /// The bundle recorder's declaration, as the trace writes it (`rt=`, `depth=`, `samples=`).
    pub render_targets: Vec<recorder::Format>,
    pub depth: Option<recorder::Format>,
    pub samples: u32,
    /// The calls kept, as they were kept ([`BundleLog::entries`] reads them).
    pub(super) calls: KeptCalls,
    /// `calls` decoded, once the writer reads them.
    pub(super) decoded: OnceLock<Decoded>,
    /// Keeps the arena `calls`' lists point into (after them: field order); never read.
    pub _keep: Keep,
    /// The capture's clock at the finish.
    pub finish_seq: u64,
    pub broken: Option<String>,
}

impl BundleLog {
    /// The kept entries, decoded the first time they are read (`kept_calls.rs`).
    pub(crate) fn entries(&self) -> &Entries {
        &self.decoded.get_or_init(|| self.calls.decode()).entries
    }

    /// The capture's clock at each of [`entries`](Self::entries).
    pub(crate) fn seqs(&self) -> &[u64] {
        &self.decoded.get_or_init(|| self.calls.decode()).seqs
    }
}

/// The calls that set `state` from the ClearState defaults (a legacy context's carried state,
/// the immediate context's state at a frame's start, R-CAP-3). Vertex-buffer strides and
/// offsets, blend factors and stencil references are the trace's defaults (see `form.rs`).
pub(crate) fn state_calls(state: &Bindings) -> Vec<Call> {
    let mut calls = Vec::new();
    input_assembler_calls(state, &mut calls);
    for stage in Stage::ALL {
        stage_calls(state, stage, &mut calls);
    }
    output_calls(state, &mut calls);
    calls
}

/// [`state_calls`] for a legacy context's bindings: before each stage's shader-resource bind,
/// the minimum LOD each bound texture view encoded when it was bound (a legacy bind copies the
/// resource's, R-ST-6), as `set_resource_min_lod` calls. They pin the value the bind copies
/// where the text makes it, which may not be where the live bind was; the writer writes each
/// only where the text's value differs and puts the text's value back after the block
/// (`Out::state_block`).
pub(crate) fn legacy_state_calls(state: &Bindings) -> Vec<Call> {
    let calls = state_calls(state);
    let mut pinned = Vec::with_capacity(calls.len());
    for call in calls {
        if let Method::SetShaderResources { stage, .. } = &call {
            let mut seen: Vec<recorder::RawHandle> = Vec::new();
            for view in state.shader_resources(*stage) {
                let texture = !view.resource.is_null()
                    && !view.flags.has(recorder::command::ViewFlags::BUFFER);
                if texture && !seen.contains(&view.resource) {
                    seen.push(view.resource);
                    pinned.push(Method::SetResourceMinLod {
                        resource: Obj::Engine(ObjectKind::Texture, view.resource),
                        min_lod: view.min_lod,
                    });
                }
            }
        }
        pinned.push(call);
    }
    pinned
}

/// A bound buffer, `None` for a null handle.
fn buffer(raw: recorder::RawHandle) -> Option<Obj> {
    (!raw.is_null()).then_some(Obj::Engine(ObjectKind::Buffer, raw))
}

/// A bound object of `kind`, `None` for a null handle.
fn object(kind: ObjectKind, raw: recorder::RawHandle) -> Option<Obj> {
    (!raw.is_null()).then_some(Obj::Engine(kind, raw))
}

/// The input assembler's state: input layout, topology, vertex and index buffers, reset index.
fn input_assembler_calls(state: &Bindings, calls: &mut Vec<Call>) {
    if !state.input_layout().is_null() {
        calls.push(Method::SetInputLayout(object(
            ObjectKind::InputLayout,
            state.input_layout(),
        )));
    }
    if state.topology() != PrimitiveTopology::Undefined {
        calls.push(Method::SetPrimitiveTopology(state.topology()));
    }
    // A slot counts where its buffer, stride or offset is not the reset state's (a null buffer
    // keeps the stride and offset bound with it, and the records show them).
    let vbs: Vec<VertexBinding<Option<Obj>>> = state
        .vertex_buffers()
        .iter()
        .map(|b| VertexBinding {
            buffer: buffer(b.buffer),
            stride: b.stride_or_format,
            offset: b.offset,
        })
        .collect();
    if let Some(last) = vbs.iter().rposition(|b| *b != VertexBinding::plain(None)) {
        calls.push(Method::SetVertexBuffers {
            start: 0,
            buffers: vbs[..=last].to_vec().into(),
        });
    }
    let ib = state.index_buffer();
    let format = recorder::Format::ALL
        .get(ib.stride_or_format as usize)
        .copied()
        .unwrap_or_default();
    // A null index buffer still has a format and an offset the records show.
    if !ib.buffer.is_null() || format != recorder::Format::Unknown || ib.offset != 0 {
        calls.push(Method::SetIndexBuffer {
            buffer: buffer(ib.buffer),
            format,
            offset: ib.offset,
        });
    }
    // The reset index (R-ST-5) as an explicit value after the index buffer, whatever the bind
    // derived: a register holding V behaves as one derived to V for every later bind (the same
    // format derives V again, another its own value).
    if state.reset_index() != executor::DEFAULT_RESET_INDEX || !ib.buffer.is_null() {
        calls.push(Method::SetPrimitiveResetIndex(state.reset_index()));
    }
}

/// One stage's shader, constant buffers, shader resources and samplers.
fn stage_calls(state: &Bindings, stage: Stage, calls: &mut Vec<Call>) {
    let shader = state.shader(stage).shader;
    if !shader.is_null() {
        calls.push(Method::SetShader {
            stage,
            shader: object(ObjectKind::Shader, shader),
        });
    }
    let cbs: Vec<Option<Obj>> = state
        .constant_buffers(stage)
        .iter()
        .map(|b| buffer(b.buffer))
        .collect();
    if let Some(last) = cbs.iter().rposition(Option::is_some) {
        calls.push(Method::SetConstantBuffers {
            stage,
            start: 0,
            buffers: cbs[..=last].to_vec().into(),
        });
    }
    let srvs: Vec<Option<Obj>> = state
        .shader_resources(stage)
        .iter()
        .map(|v| object(ObjectKind::ShaderResourceView, v.view))
        .collect();
    if let Some(last) = srvs.iter().rposition(Option::is_some) {
        calls.push(Method::SetShaderResources {
            stage,
            start: 0,
            views: srvs[..=last].to_vec().into(),
        });
    }
    let samplers: Vec<Option<Obj>> = state
        .samplers(stage)
        .iter()
        .map(|s| object(ObjectKind::SamplerState, *s))
        .collect();
    if let Some(last) = samplers.iter().rposition(Option::is_some) {
        calls.push(Method::SetSamplers {
            stage,
            start: 0,
            samplers: samplers[..=last].to_vec().into(),
        });
    }
}

/// The compute UAVs, the output merger's targets, UAVs and states, the rasterizer's, the
/// predication.
fn output_calls(state: &Bindings, calls: &mut Vec<Call>) {
    let uavs: Vec<Option<Obj>> = state
        .compute_uavs()
        .iter()
        .map(|v| object(ObjectKind::UnorderedAccessView, v.view))
        .collect();
    if let Some(last) = uavs.iter().rposition(Option::is_some) {
        calls.push(Method::CsSetUnorderedAccessViews {
            start: 0,
            views: uavs[..=last].to_vec().into(),
        });
    }
    let targets: Vec<Option<Obj>> = state
        .render_targets()
        .iter()
        .map(|v| object(ObjectKind::RenderTargetView, v.view))
        .collect();
    let depth = object(ObjectKind::DepthStencilView, state.depth_stencil().view);
    let om_uavs: Vec<Option<Obj>> = state
        .om_uavs()
        .iter()
        .map(|v| object(ObjectKind::UnorderedAccessView, v.view))
        .collect();
    // As many targets as the last bind set, null ones included (records show each slot).
    let target_end = targets.len();
    match om_uavs.iter().rposition(Option::is_some) {
        Some(last) => {
            let first = om_uavs.iter().position(Option::is_some).unwrap_or(0);
            calls.push(Method::OmSetRenderTargetsAndUavs {
                render_targets: targets[..target_end].to_vec().into(),
                depth_stencil: depth,
                start: first as u32,
                views: om_uavs[first..=last].to_vec().into(),
            })
        }
        None if target_end > 0 || depth.is_some() => calls.push(Method::OmSetRenderTargets {
            render_targets: targets[..target_end].to_vec().into(),
            depth_stencil: depth,
        }),
        None => {}
    }
    if !state.blend().state.is_null() {
        calls.push(Method::OmSetBlendState(object(
            ObjectKind::BlendState,
            state.blend().state,
        )));
    }
    if !state.depth_stencil_state().state.is_null() {
        calls.push(Method::OmSetDepthStencilState(object(
            ObjectKind::DepthStencilState,
            state.depth_stencil_state().state,
        )));
    }
    if !state.rasterizer().is_null() {
        calls.push(Method::RsSetState(object(
            ObjectKind::RasterizerState,
            state.rasterizer(),
        )));
    }
    if !state.viewports().is_empty() {
        calls.push(Method::RsSetViewports(state.viewports().to_vec().into()));
    }
    if !state.scissor_rects().is_empty() {
        calls.push(Method::RsSetScissorRects(
            state.scissor_rects().to_vec().into(),
        ));
    }
    let (predicate, value) = state.predication();
    if !predicate.is_null() {
        calls.push(Method::SetPredication {
            predicate: object(ObjectKind::Query, predicate),
            value,
        });
    }
}
