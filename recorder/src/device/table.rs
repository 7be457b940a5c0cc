//! Object tables: where a device keeps the objects of one kind, and how any thread finds one from
//! its handle without a lock.
//!
//! A table is a list of segments of slots; segment `k` holds `256 << k` slots and is allocated on
//! first use, then never moved or freed until the table drops, so a `&Entry` stays valid for the
//! table's life. Each slot, an [`Entry`], holds:
//!
//! - `state`: the generation (high 32 bits: the device's tag, then the reuse count; see
//!   `device/device_identity.rs`), a `RELEASED` bit (the application dropped its last
//!   reference), a `FREE` bit (no object lives here) and the count of internal references
//!   (bindings of legacy contexts, legacy command lists, views on a resource; R-OBJ-4);
//! - `words`: the object's descriptor, packed into `W` atomic words, immutable but for a
//!   swap-chain view's resource word, which a placement or a legacy present moves to another
//!   back buffer of the same chain (`rewrite_word`, R-EX-7);
//! - `aux` and `aux2`: the object's mutable properties (minimum LOD, compression state, the current
//!   back buffer), which contexts change "at once" (R-ST-6).
//!
//! Readers follow a sequence-lock protocol: load `state` (Acquire) and compare the generation with
//! the handle's, load the words (Acquire), load `state` again and compare once more. Writers only
//! ever overwrite the words of a slot whose generation has already moved on (destruction bumps it
//! before the slot returns to the free list), and write them with Release stores, so a reader that
//! sees a new word also sees the new generation on its second load and reports the handle stale.
//! Every access is atomic, so a racing reader may see a torn descriptor but never undefined
//! behaviour, and the second check throws such a read away. The loom model in `loom-tests/` checks
//! this with a reader racing a destroy-and-reuse.
//!
//! Lookups and reference counting take no lock, and neither do creation and destruction in the
//! steady state: destroyed slots go on a lock-free stack (a tagged Treiber stack, linked through
//! the free slots' `aux2`), which a creation pops; only a creation that finds it empty takes the
//! table's mutex, to move the high-water mark (and grow a segment). A slot's debug name has a lock
//! of its own, which no two creations share. So the creations of one kind on many threads (every
//! bundle's finish registers it) contend on one compare-and-swap, never on a lock. The stack is
//! last in, first out, like the list it replaced: the same creations in the same order get the
//! same handles (the twin devices of `replay --compare` and the oracle rely on it).
//!
//! A table belongs to one device and starts every slot at that device's generation base; moving
//! a generation on ([`next_generation`]) counts in the low bits only and keeps the tag, also when
//! the count wraps. So no slot of this table ever holds another device's tag, and a handle of
//! another device fails the generation comparison like a stale one. `retain`, which changes the
//! count before it compares generations, checks the tag first; `unretain` drops a reference a
//! `retain` took, so its handle passed that check.

use crate::device::handle::RawHandle;
use crate::limits::{GENERATION_COUNT_BITS, MAX_SEGMENTS, SEGMENT_SLOTS};
use crate::sync::{AtomicPtr, AtomicU32, AtomicU64, Mutex, Ordering};
use std::sync::Arc;

const REFS_MASK: u64 = (1 << 30) - 1;
const FREE: u64 = 1 << 30;
const RELEASED: u64 = 1 << 31;

#[inline]
const fn generation_of(state: u64) -> u32 {
    (state >> 32) as u32
}

const COUNT_MASK: u32 = (1 << GENERATION_COUNT_BITS) - 1;

/// The generation after `generation`: the reuse count advances (wrapping, and skipping 0, which
/// under tag 0 would be the null handle's generation), the device's tag stays.
#[inline]
pub(crate) const fn next_generation(generation: u32) -> u32 {
    let count = match generation.wrapping_add(1) & COUNT_MASK {
        0 => 1,
        count => count,
    };
    (generation & !COUNT_MASK) | count
}

/// One object's entry in the table (its slot, in the module documentation's words). See the
/// module documentation for the protocol.
pub struct Entry<const W: usize> {
    state: AtomicU64,
    /// The object's one mutable property, read and written without the sequence lock: a texture's
    /// or shader-resource view's minimum LOD (`f32` bits, R-ST-6), a swap chain's current
    /// back-buffer index (R-EX-7).
    pub aux: AtomicU32,
    /// A second mutable property, set at creation (`insert`); nothing reads it yet. While the
    /// slot is free it is the free stack's link instead (see [`ObjectTable`]'s `free_top`).
    pub aux2: AtomicU32,
    words: [AtomicU64; W],
}

impl<const W: usize> Entry<W> {
    fn vacant(generation: u32) -> Self {
        Self {
            state: AtomicU64::new((generation as u64) << 32 | FREE),
            aux: AtomicU32::new(0),
            aux2: AtomicU32::new(0),
            words: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

/// What a lookup returns: the descriptor words, read consistently, and the entry for the object's
/// mutable properties.
pub struct Live<'t, const W: usize> {
    /// The object's descriptor words, as `insert` stored them, read under the sequence lock.
    pub words: [u64; W],
    /// The entry itself, for the object's mutable properties (`aux`).
    pub entry: &'t Entry<W>,
}

/// Why a handle does not name a live object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stale {
    /// Destroyed (its slot may hold another object now) or never created.
    Destroyed,
    /// Still alive for the references that hold it, but released by the application.
    Released,
}

/// Where a release left the object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReleaseOutcome {
    /// The object had no internal references and is gone.
    Destroyed,
    /// Bound or recorded somewhere: destroyed later, once unreferenced (R-OBJ-4).
    Deferred,
    /// The handle was already released or stale: nothing to do ("releasing never fails").
    AlreadyReleased,
}

struct Allocation {
    /// Slots handed out so far (the high-water mark).
    len: u32,
}

/// A slot's debug name, with the generation it belongs to (cold: messages only). Kept after
/// destruction until the slot is reused, so an error about a released object can still name
/// it. Each slot has its own lock: the inserter that owns the slot writes it, a message reads it;
/// no two creations ever meet on one.
type NameSlot = Mutex<Option<(u32, Arc<str>)>>;

/// The free stack's empty top.
const NO_FREE_SLOT: u64 = 0;

/// A value aligned to, and so alone on, two cache lines (128 bytes: the pair a prefetcher fetches
/// together): what many threads write apart from what they read.
#[repr(align(128))]
pub(crate) struct OwnLines<T>(pub(crate) T);

impl<T> std::ops::Deref for OwnLines<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The objects of one kind.
pub struct ObjectTable<const W: usize> {
    segments: [AtomicPtr<Entry<W>>; MAX_SEGMENTS as usize],
    /// The slots' names, segment by segment like `segments` (published with them).
    names: [AtomicPtr<NameSlot>; MAX_SEGMENTS as usize],
    /// The top of the stack of destroyed slots, ready for reuse (a Treiber stack): the low 32
    /// bits are the top slot's index + 1 (0: empty), the high 32 a tag that every push and pop
    /// moves on, so that a pop whose top was popped and pushed back meanwhile fails its
    /// compare-and-swap instead of installing a stale link (ABA). The link below a free slot is
    /// its `aux2` (the index + 1 below it, 0 at the bottom). Last in, first out, as the `Vec`
    /// it replaced: the same creations in the same order get the same handles. Every creation
    /// and destruction of the kind (a bundle's finish and drop among them) changes it with one
    /// compare-and-swap, no lock; on cache lines of its own, so that its writers do not take
    /// from under the lookups the lines of `segments`, which every bind reads.
    free_top: OwnLines<AtomicU64>,
    /// The high-water mark, taken only when no destroyed slot is free (the table grows).
    allocation: OwnLines<Mutex<Allocation>>,
    /// The generation of a never-used slot: the device's tag and a starting reuse count.
    generation_base: u32,
}

// SAFETY: the segments the raw pointers name (slots and names) are owned by the table alone
// (allocated by it, freed only in its `Drop`) and hold only atomics and mutexes of `Send` data,
// so moving the table to another thread moves sole ownership of them with it.
unsafe impl<const W: usize> Send for ObjectTable<W> {}
// SAFETY: through `&ObjectTable` every slot field is reached only by atomic loads and stores
// (the sequence-lock protocol of the module essay), a slot's name only under its own mutex, the
// free stack only by atomic compare-and-swaps, the high-water mark only under the mutex, and
// `generation_base` is never written after `new`; segments are freed only in `Drop`, which needs
// `&mut self`, so no shared reference outlives them.
unsafe impl<const W: usize> Sync for ObjectTable<W> {}

/// Segment and offset of slot `index`: segment `k` covers indices
/// `SEGMENT_SLOTS * (2^k - 1) .. SEGMENT_SLOTS * (2^(k+1) - 1)`.
#[inline]
const fn locate(index: u32) -> (usize, usize) {
    // Shift so that segment k starts at a power of two: biased = index + 256 lies in
    // [256 << k, 256 << (k+1)).
    let biased = index as u64 + SEGMENT_SLOTS as u64;
    let top_bit = 63 - biased.leading_zeros();
    let segment = top_bit - SEGMENT_SLOTS.trailing_zeros();
    let offset = biased - (1u64 << top_bit);
    (segment as usize, offset as usize)
}

#[inline]
const fn segment_len(segment: usize) -> usize {
    (SEGMENT_SLOTS as usize) << segment
}

impl<const W: usize> ObjectTable<W> {
    /// A table of the device whose generations start at `generation_base`
    /// (`DeviceIdentity::generation_base`; its high bits are the device's tag).
    pub fn new(generation_base: u32) -> Self {
        Self {
            segments: std::array::from_fn(|_| AtomicPtr::new(std::ptr::null_mut())),
            names: std::array::from_fn(|_| AtomicPtr::new(std::ptr::null_mut())),
            free_top: OwnLines(AtomicU64::new(NO_FREE_SLOT)),
            allocation: OwnLines(Mutex::new(Allocation { len: 0 })),
            generation_base,
        }
    }

    /// Whether `handle` carries this table's device tag (its generation may still be stale).
    #[inline(always)]
    pub fn is_own(&self, handle: RawHandle) -> bool {
        (handle.generation ^ self.generation_base) & !COUNT_MASK == 0
    }

    #[inline(always)]
    fn entry(&self, index: u32) -> Option<&Entry<W>> {
        let (segment, offset) = locate(index);
        let base = self.segments.get(segment)?.load(Ordering::Acquire);
        if base.is_null() {
            return None;
        }
        // SAFETY: a non-null segment pointer was published (Release) after the segment's
        // `segment_len(segment)` slots were initialised, `offset < segment_len(segment)` by
        // `locate`, and segments are freed only when the table drops.
        Some(unsafe { &*base.add(offset) })
    }

    /// The name slot of slot `index`, once its segment was published.
    #[inline]
    fn name_slot(&self, index: u32) -> Option<&NameSlot> {
        let (segment, offset) = locate(index);
        let base = self.names.get(segment)?.load(Ordering::Acquire);
        if base.is_null() {
            return None;
        }
        // SAFETY: as in `entry`: a non-null names pointer was published (Release) after its
        // `segment_len(segment)` slots were initialised, `offset` is within, and it is freed
        // only when the table drops.
        Some(unsafe { &*base.add(offset) })
    }

    /// Pops the top of the free stack: a destroyed slot, now this caller's alone.
    #[inline]
    fn pop_free(&self) -> Option<u32> {
        let mut top = self.free_top.load(Ordering::Acquire);
        loop {
            let index = (top as u32).checked_sub(1)?;
            // The slot's link, written before the push that put it on top (Release, seen by the
            // Acquire load above). If the slot was popped and reused meanwhile, this reads its
            // new object's `aux2` instead, and the compare-and-swap below fails on the tag.
            let below = self
                .entry(index)
                .map_or(0, |slot| slot.aux2.load(Ordering::Relaxed));
            let popped = (top >> 32).wrapping_add(1) << 32 | below as u64;
            match self.free_top.compare_exchange_weak(
                top,
                popped,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(index),
                Err(actual) => top = actual,
            }
        }
    }

    /// Pushes destroyed slot `index` on the free stack (its generation already moved on).
    fn push_free(&self, index: u32, slot: &Entry<W>) {
        let mut top = self.free_top.load(Ordering::Relaxed);
        loop {
            slot.aux2.store(top as u32, Ordering::Relaxed);
            let pushed = (top >> 32).wrapping_add(1) << 32 | (index as u64 + 1);
            match self.free_top.compare_exchange_weak(
                top,
                pushed,
                Ordering::Release,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(actual) => top = actual,
            }
        }
    }

    /// Reads the object `handle` names. Fails if it was destroyed or, unless `allow_released`,
    /// released by the application.
    #[inline(always)]
    pub fn get(&self, handle: RawHandle, allow_released: bool) -> Result<Live<'_, W>, Stale> {
        let slot = self.entry(handle.index).ok_or(Stale::Destroyed)?;
        let first = slot.state.load(Ordering::Acquire);
        if generation_of(first) != handle.generation || first & FREE != 0 {
            return Err(Stale::Destroyed);
        }
        let words = std::array::from_fn(|i| slot.words[i].load(Ordering::Acquire));
        let second = slot.state.load(Ordering::Acquire);
        if generation_of(second) != handle.generation || second & FREE != 0 {
            return Err(Stale::Destroyed);
        }
        let released = second & RELEASED != 0;
        if released && !allow_released {
            return Err(Stale::Released);
        }
        Ok(Live { words, entry: slot })
    }

    /// The descriptor words of the object `handle` names, if it is alive and not released: the
    /// hot path's [`get`](Self::get), the same sequence-lock read with each check one masked
    /// compare of the state word (generation, `FREE` and `RELEASED` together).
    #[inline(always)]
    pub fn live_words(&self, handle: RawHandle) -> Option<[u64; W]> {
        let slot = self.entry(handle.index)?;
        let expected = (handle.generation as u64) << 32;
        if slot.state.load(Ordering::Acquire) & !REFS_MASK != expected {
            return None;
        }
        let words = std::array::from_fn(|i| slot.words[i].load(Ordering::Acquire));
        if slot.state.load(Ordering::Acquire) & !REFS_MASK != expected {
            return None;
        }
        Some(words)
    }

    /// Takes `count` internal references on the object (R-OBJ-4): one atomic add, which never
    /// retries, however many threads bind the object at once. The generation is checked on the
    /// value the add returned; a stale or refused add is undone at once. Such a transient add can
    /// land on a slot being reused, so `insert` keeps the count bits when it publishes a new
    /// object (the loom model `stale_retain_racing_slot_reuse` checks the pair), and a release
    /// that meets it defers the destruction instead. A handle of another device is refused
    /// before the add (a compare of registers): its transient add would otherwise defer the
    /// release of this device's object in the slot (the loom model
    /// `foreign_handle_racing_destroy_and_reuse` found it).
    #[inline]
    pub fn retain(&self, handle: RawHandle, count: u32, allow_released: bool) -> Result<(), Stale> {
        if !self.is_own(handle) {
            return Err(Stale::Destroyed);
        }
        let slot = self.entry(handle.index).ok_or(Stale::Destroyed)?;
        let count = count as u64;
        let before = slot.state.fetch_add(count, Ordering::AcqRel);
        let refused = if generation_of(before) != handle.generation || before & FREE != 0 {
            Some(Stale::Destroyed)
        } else if before & RELEASED != 0 && !allow_released {
            Some(Stale::Released)
        } else if before & REFS_MASK >= REFS_MASK / 2 {
            // Far from any real count: refuse long before the count could reach the flag bits.
            Some(Stale::Destroyed)
        } else {
            None
        };
        match refused {
            None => Ok(()),
            Some(why) => {
                slot.state.fetch_sub(count, Ordering::AcqRel);
                Err(why)
            }
        }
    }

    /// Drops an internal reference taken by [`retain`](Self::retain). A released object whose
    /// last reference goes stays in its slot until the device processes its deferred releases.
    #[inline]
    pub fn unretain(&self, handle: RawHandle) {
        // A reference this table gave is on one of its own handles: every retain checks the tag
        // (and the generation) first, and no caller drops a reference it did not take.
        debug_assert!(
            self.is_own(handle),
            "unretain of another device's handle {handle:?}"
        );
        if let Some(slot) = self.entry(handle.index) {
            slot.state.fetch_sub(1, Ordering::Release);
        }
    }

    /// Takes `count` internal references at once on an object the caller already holds one on
    /// (a legacy list's references, published at finish, `refs.rs`): a compare-and-swap that
    /// refuses, with nothing changed, a count that would pass the bound `retain` keeps (far
    /// below the flag bits, whatever `count` is). Contended only by other finishes and binds
    /// of the same object's first references, never per call.
    pub fn retain_many(&self, handle: RawHandle, count: u32) -> Result<(), Stale> {
        let slot = self.entry(handle.index).ok_or(Stale::Destroyed)?;
        let mut state = slot.state.load(Ordering::Relaxed);
        loop {
            if generation_of(state) != handle.generation || state & FREE != 0 {
                return Err(Stale::Destroyed);
            }
            if (state & REFS_MASK) + count as u64 >= REFS_MASK / 2 {
                return Err(Stale::Destroyed);
            }
            match slot.state.compare_exchange_weak(
                state,
                state + count as u64,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(()),
                Err(actual) => state = actual,
            }
        }
    }

    /// Drops `count` internal references taken by [`retain`](Self::retain) or
    /// [`retain_many`](Self::retain_many): one atomic subtract, however many.
    #[inline]
    pub fn unretain_many(&self, handle: RawHandle, count: u32) {
        debug_assert!(
            self.is_own(handle),
            "unretain of another device's handle {handle:?}"
        );
        if let Some(slot) = self.entry(handle.index) {
            slot.state.fetch_sub(count as u64, Ordering::Release);
        }
    }

    /// Completes the descriptor of an object whose handle has not been handed out yet.
    pub fn rewrite(&self, handle: RawHandle, words: [u64; W]) {
        if let Some(slot) = self.entry(handle.index) {
            for (word, value) in slot.words.iter().zip(words) {
                word.store(value, Ordering::Release);
            }
        }
    }

    /// Overwrites word `index` of a live object's descriptor: a swap-chain view moved to another
    /// back buffer (R-EX-7), the one descriptor change after creation. The caller holds an
    /// internal reference on the object (so its slot cannot be reused under the store), and
    /// only changes a word whose every value leaves the other words consistent (one atomic
    /// store: a racing reader sees the old value or the new, never a torn word).
    pub fn rewrite_word(&self, handle: RawHandle, index: usize, value: u64) {
        if let Some(word) = self
            .entry(handle.index)
            .and_then(|slot| slot.words.get(index))
        {
            word.store(value, Ordering::Release);
        }
    }

    /// Internal references the object holds now (for tests and diagnostics).
    pub fn references(&self, handle: RawHandle) -> Option<u32> {
        let state = self.entry(handle.index)?.state.load(Ordering::Acquire);
        (generation_of(state) == handle.generation && state & FREE == 0)
            .then_some((state & REFS_MASK) as u32)
    }

    /// Creates an object from its descriptor words and mutable properties.
    pub fn insert(&self, words: [u64; W], aux: u32, aux2: u32, name: &str) -> RawHandle {
        self.insert_with(
            words,
            aux,
            aux2,
            (!name.is_empty()).then(|| Arc::from(name)),
        )
    }

    /// [`insert`](Self::insert) with a name the caller already shares: the table keeps a clone
    /// of it, allocating no copy (a bundle's finish, which the steady state repeats).
    pub fn insert_shared(
        &self,
        words: [u64; W],
        aux: u32,
        aux2: u32,
        name: &Arc<str>,
    ) -> RawHandle {
        self.insert_with(words, aux, aux2, (!name.is_empty()).then(|| name.clone()))
    }

    fn insert_with(
        &self,
        words: [u64; W],
        aux: u32,
        aux2: u32,
        name: Option<Arc<str>>,
    ) -> RawHandle {
        // A destroyed slot if there is one (no lock), else a new one under the lock.
        let index = self.pop_free().unwrap_or_else(|| self.new_slot());
        let slot = self
            .entry(index)
            .expect("insert: the slot's segment was allocated before the slot was handed out");
        // The slot is this insert's alone from here: it left the free stack (or was new), and
        // only a stale handle can reach it, which the generation turns away. Destruction
        // already moved the generation on (or the slot is new, generation 0), so no handle that
        // readers hold matches this slot while its words are rewritten.
        let generation = next_generation(generation_of(slot.state.load(Ordering::Relaxed)));
        let replaced = self.name_slot(index).map(|names| {
            std::mem::replace(&mut *names.lock(), name.map(|name| (generation, name)))
        });
        // The name of the slot's previous object (another recorder's, shared: a cache line
        // from elsewhere) is dropped outside the name's lock.
        drop(replaced);
        for (word, value) in slot.words.iter().zip(words) {
            word.store(value, Ordering::Release);
        }
        slot.aux.store(aux, Ordering::Release);
        slot.aux2.store(aux2, Ordering::Release);
        // Publish the generation, keeping the count bits: a stale `retain` may be between its
        // add and its undo on this slot right now.
        let mut state = slot.state.load(Ordering::Relaxed);
        loop {
            let published = (generation as u64) << 32 | (state & REFS_MASK);
            match slot.state.compare_exchange_weak(
                state,
                published,
                Ordering::Release,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(actual) => state = actual,
            }
        }
        RawHandle { index, generation }
    }

    /// A never-used slot: the high-water mark moves on, under the lock (the table grows a
    /// segment when the slot is its first).
    #[cold]
    fn new_slot(&self) -> u32 {
        let mut allocation = self.allocation.lock();
        let index = allocation.len;
        let (segment, offset) = locate(index);
        if offset == 0 {
            self.grow(segment);
        }
        allocation.len += 1;
        index
    }

    #[cold]
    fn grow(&self, segment: usize) {
        // The whole table is full at MAX_OBJECTS_PER_KIND; creation reports that before here.
        let slots: Box<[Entry<W>]> = (0..segment_len(segment))
            .map(|_| Entry::vacant(self.generation_base))
            .collect();
        let names: Box<[NameSlot]> = (0..segment_len(segment))
            .map(|_| Mutex::new(None))
            .collect();
        // The names first: a slot of the segment is reachable only once `segments` has it.
        let names = Box::into_raw(names) as *mut NameSlot;
        self.names[segment].store(names, Ordering::Release);
        let base = Box::into_raw(slots) as *mut Entry<W>;
        self.segments[segment].store(base, Ordering::Release);
    }

    /// Whether another object fits.
    pub fn has_room(&self) -> bool {
        self.free_top.load(Ordering::Acquire) as u32 != 0
            || locate(self.allocation.lock().len).0 < MAX_SEGMENTS as usize
    }

    /// The application releases its reference (R-OBJ-3, R-OBJ-4). Destroys the object at once if
    /// nothing references it; returns the descriptor words of a destroyed object so the device can
    /// drop the references it held (a view's on its resource).
    pub fn release(&self, handle: RawHandle) -> (ReleaseOutcome, Option<[u64; W]>) {
        let Some(slot) = self.entry(handle.index) else {
            return (ReleaseOutcome::AlreadyReleased, None);
        };
        let mut state = slot.state.load(Ordering::Acquire);
        loop {
            if generation_of(state) != handle.generation || state & (FREE | RELEASED) != 0 {
                return (ReleaseOutcome::AlreadyReleased, None);
            }
            match slot.state.compare_exchange_weak(
                state,
                state | RELEASED,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => break,
                Err(actual) => state = actual,
            }
        }
        match self.try_destroy(handle) {
            Some(words) => (ReleaseOutcome::Destroyed, Some(words)),
            None => (ReleaseOutcome::Deferred, None),
        }
    }

    /// Destroys a released object that has no internal references left; returns its words.
    pub fn try_destroy(&self, handle: RawHandle) -> Option<[u64; W]> {
        let slot = self.entry(handle.index)?;
        let expected = (handle.generation as u64) << 32 | RELEASED;
        let words = std::array::from_fn(|i| slot.words[i].load(Ordering::Acquire));
        let next = (next_generation(handle.generation) as u64) << 32 | FREE;
        slot.state
            .compare_exchange(expected, next, Ordering::AcqRel, Ordering::Acquire)
            .ok()?;
        self.push_free(handle.index, slot);
        Some(words)
    }

    /// The object's debug name, if it was given one, until its slot is reused.
    pub fn name(&self, handle: RawHandle) -> Option<Arc<str>> {
        match &*self.name_slot(handle.index)?.lock() {
            Some((generation, name)) if *generation == handle.generation => Some(name.clone()),
            _ => None,
        }
    }

    /// Objects alive now (released-but-referenced ones included): the slots handed out that are
    /// not free. O(slots): for statistics and tests, never on a recording path (it keeps no
    /// count of its own that every creation would have to change).
    pub fn live_count(&self) -> u32 {
        let len = self.allocation.lock().len;
        (0..len)
            .filter_map(|index| self.entry(index))
            .filter(|slot| slot.state.load(Ordering::Acquire) & FREE == 0)
            .count() as u32
    }
}

impl<const W: usize> Drop for ObjectTable<W> {
    fn drop(&mut self) {
        for (segment, pointer) in self.segments.iter_mut().enumerate() {
            let base = pointer.load(Ordering::Acquire);
            if !base.is_null() {
                let slice = std::ptr::slice_from_raw_parts_mut(base, segment_len(segment));
                // SAFETY: `base` came from `Box::into_raw` of a boxed slice of exactly
                // `segment_len(segment)` slots in `grow`, and is freed only here, once.
                drop(unsafe { Box::from_raw(slice) });
            }
        }
        for (segment, pointer) in self.names.iter_mut().enumerate() {
            let base = pointer.load(Ordering::Acquire);
            if !base.is_null() {
                let slice = std::ptr::slice_from_raw_parts_mut(base, segment_len(segment));
                // SAFETY: as the segments': a boxed slice of `segment_len(segment)` name slots
                // from `grow`, freed only here, once.
                drop(unsafe { Box::from_raw(slice) });
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn locate_covers_every_index_once() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(255), (0, 255));
        assert_eq!(locate(256), (1, 0));
        assert_eq!(locate(256 + 511), (1, 511));
        assert_eq!(locate(256 + 512), (2, 0));
    }

    #[test]
    fn stale_handles_are_detected_after_reuse() {
        let table = ObjectTable::<1>::new(0);
        let first = table.insert([7], 0, 0, "first");
        assert_eq!(table.get(first, false).map(|l| l.words), Ok([7]));
        assert_eq!(table.release(first).0, ReleaseOutcome::Destroyed);
        let second = table.insert([9], 0, 0, "second");
        assert_eq!(second.index, first.index);
        assert!(matches!(table.get(first, true), Err(Stale::Destroyed)));
        assert_eq!(table.get(second, false).map(|l| l.words), Ok([9]));
        assert_eq!(table.release(first).0, ReleaseOutcome::AlreadyReleased);
    }

    #[test]
    fn generations_wrap_within_the_reuse_count_and_keep_the_device_tag() {
        let tag = 0x5A << GENERATION_COUNT_BITS;
        assert_eq!(next_generation(tag | 7), tag | 8);
        assert_eq!(
            next_generation(tag | COUNT_MASK),
            tag | 1,
            "wraps, skipping 0"
        );
        assert_eq!(
            next_generation(COUNT_MASK),
            1,
            "tag 0 never reaches generation 0"
        );

        // A table whose slots start just before the wrap: every handle keeps the tag.
        let table = ObjectTable::<1>::new(tag | (COUNT_MASK - 2));
        let mut previous = table.insert([1], 0, 0, "");
        for round in 0..4u64 {
            assert_eq!(previous.generation & !COUNT_MASK, tag, "round {round}");
            assert!(table.is_own(previous));
            assert_eq!(table.release(previous).0, ReleaseOutcome::Destroyed);
            let next = table.insert([round], 0, 0, "");
            assert_eq!(next.index, previous.index);
            assert_ne!(next.generation, previous.generation);
            assert!(table.get(previous, true).is_err());
            previous = next;
        }
    }

    #[test]
    fn another_tables_handles_fail_the_generation_check() {
        let ours = ObjectTable::<1>::new(1 << GENERATION_COUNT_BITS);
        let theirs = ObjectTable::<1>::new(2 << GENERATION_COUNT_BITS);
        let mine = ours.insert([1], 0, 0, "");
        let foreign = theirs.insert([2], 0, 0, "");
        assert_eq!(
            (mine.index, mine.reuse_count()),
            (foreign.index, foreign.reuse_count())
        );
        assert!(!ours.is_own(foreign));
        assert_eq!(ours.get(foreign, true).err(), Some(Stale::Destroyed));
        assert_eq!(ours.retain(foreign, 1, true), Err(Stale::Destroyed));
        assert_eq!(ours.release(foreign).0, ReleaseOutcome::AlreadyReleased);
        assert_eq!(ours.references(mine), Some(0));
        assert_eq!(ours.get(mine, false).map(|l| l.words), Ok([1]));
    }

    #[test]
    fn referenced_objects_are_destroyed_only_when_unreferenced() {
        let table = ObjectTable::<0>::new(0);
        let handle = table.insert([], 0, 0, "");
        table.retain(handle, 1, false).unwrap();
        assert_eq!(table.release(handle).0, ReleaseOutcome::Deferred);
        assert_eq!(table.get(handle, false).err(), Some(Stale::Released));
        assert!(table.get(handle, true).is_ok());
        assert_eq!(table.retain(handle, 1, false), Err(Stale::Released));
        assert!(table.try_destroy(handle).is_none());
        table.unretain(handle);
        assert!(table.try_destroy(handle).is_some());
        assert_eq!(table.get(handle, true).err(), Some(Stale::Destroyed));
    }
}
