//! A legacy recorder's own reference counts (R-OBJ-4): what its open list and its bindings hold,
//! counted where only its thread writes, so that a bind touches no shared cache line.
//!
//! **In:** every reference a legacy recorder (a deferred context or the immediate context's
//! recorder) takes or drops: one per object a command records (the list's), one per slot that
//! binds it (the binding's). **Out:** the same totals as the device's shared count would hold,
//! made of two parts:
//!
//! - the shared count in the object's table entry (`table.rs`) holds **one** reference for every
//!   recorder whose local count of the object is above zero (the *pin*, taken when the local
//!   count goes 0 → 1 and dropped when it goes back to 0), plus the exact counts of every
//!   finished list (published by [`LocalReferences::publish_list`] at finish: one
//!   compare-and-swap per distinct object, however often the list named it);
//! - the local count: `list` (references the open list took) and `bound` (slots of the shadow
//!   that bind the object), in an open-addressed table keyed by kind, index and reuse count.
//!
//! So the shared count is above zero whenever anything references the object, which is all that
//! destruction reads (a released object goes when its shared count reaches zero, at the next
//! `process_deferred_releases`, R-OBJ-4). A bind of an object the recorder already holds costs a
//! probe and a store; only the first reference and the last touch the shared count.
//!
//! **Observing the counts.** `Device::references` reports the shared count plus each registered
//! recorder's local count less its pin: the exact number of references R-OBJ-4 describes (one
//! per binding, one per recorded use), at any point where the reading thread is ordered after
//! the recording calls (the same thread, or after a join). A read racing a recording thread sees
//! each table cell at some recent value (the cells are atomics written with plain stores: no
//! read-modify-write, no lock on the recording path), so its sum may mix moments. For that read
//! each recorder registers its table with the device (`DeviceShared::local_references`); a
//! table that grows is swapped there under the registry's lock, which readers hold while they
//! look.
//!
//! **Finished lists** carry their distinct objects with their counts in their own chunk memory
//! (`ListReference`, written by `Recorder::seal_list` after the last command, like the index), so
//! dropping a list gives back one count per distinct object instead of decoding every command.
//!
//! Steady state allocates nothing: the table keeps its capacity from list to list, and the list
//! of the open list's objects (`listed`) keeps its own.

use std::sync::Arc as StdArc;

use crate::device::handle::{ObjectKind, RawHandle};
use crate::device::table::Stale;
use crate::limits::GENERATION_COUNT_BITS;
use crate::sync::{AtomicU64, Mutex, Ordering};

/// The registry of a device's legacy recorders' tables: recorder serial and table.
pub(crate) type Registry = Mutex<Vec<(u32, Slots)>>;

/// What a local table needs of its device (the device implements it, `device/mod.rs`): the shared
/// counts it pins and publishes to, and the registry it shows its table in.
pub(crate) trait SharedCounts {
    /// Takes one reference, checking the handle (`ObjectTable::retain`).
    fn pin(&self, kind: ObjectKind, handle: RawHandle) -> Result<(), Stale>;
    /// Drops one reference `pin` took.
    fn unpin(&self, kind: ObjectKind, handle: RawHandle);
    /// Takes `count` more references on an object the caller holds one on.
    fn publish(&self, kind: ObjectKind, handle: RawHandle, count: u32) -> Result<(), Stale>;
    /// Drops `count` references `publish` took.
    fn unpublish(&self, kind: ObjectKind, handle: RawHandle, count: u32);
    /// The registry of tables.
    fn registry(&self) -> &Registry;
    /// The device's tag bits (`generation & TAG_MASK` of each of its handles).
    fn tag(&self) -> u32;
}

/// The bits of a generation that are the device's tag.
pub(crate) const TAG_MASK: u32 = !((1 << GENERATION_COUNT_BITS) - 1);
/// A slot never used since the table was built or swept.
const EMPTY: u64 = 0;
/// A slot whose object left (kind 0xFF names no kind): probes pass over it.
const TOMBSTONE: u64 = u64::MAX;
/// One reference of the open list, in a slot's `counts`.
pub(crate) const LIST: u64 = 1;
/// One binding, in a slot's `counts`.
pub(crate) const BOUND: u64 = 1 << 32;
/// In a slot's `counts`: the object is in `listed` (the open list referenced it). A slot with
/// it never reaches a count of 0, so it stays (pinned) until the list ends, and `listed` names
/// each object once.
const LISTED: u64 = 1 << 31;
/// The open list's references, in a slot's `counts`.
const LIST_MASK: u64 = LISTED - 1;
/// The most references the open list takes on one object: beyond, a reference is refused as the
/// shared count refuses one far from any real count (the list could not publish it).
const LIST_LIMIT: u64 = 1 << 28;
/// The bits of the open list's count at or above [`LIST_LIMIT`].
const LIST_HIGH: u64 = LIST_MASK & !(LIST_LIMIT - 1);
/// The capacity a legacy recorder starts with (16 bytes a slot).
const INITIAL_CAPACITY: usize = 64;

/// Every kind, by its number (keys hold the number).
const KINDS: [ObjectKind; ObjectKind::COUNT] = [
    ObjectKind::Buffer,
    ObjectKind::Texture,
    ObjectKind::ShaderResourceView,
    ObjectKind::UnorderedAccessView,
    ObjectKind::RenderTargetView,
    ObjectKind::DepthStencilView,
    ObjectKind::Shader,
    ObjectKind::InputLayout,
    ObjectKind::BlendState,
    ObjectKind::RasterizerState,
    ObjectKind::DepthStencilState,
    ObjectKind::SamplerState,
    ObjectKind::Query,
    ObjectKind::SwapChain,
    ObjectKind::Bundle,
    ObjectKind::Heap,
];
const _: () = {
    let mut i = 0;
    while i < ObjectKind::COUNT {
        assert!(KINDS[i] as usize == i);
        i += 1;
    }
};

/// One object a recorder references: its key and its two counts.
#[repr(C, align(16))]
pub(crate) struct Slot {
    /// `key_of(kind, handle)`, [`EMPTY`] or [`TOMBSTONE`].
    key: AtomicU64,
    /// The open list's references (low 32 bits) and the bindings (high 32 bits).
    counts: AtomicU64,
}

impl Slot {
    fn vacant() -> Self {
        Self {
            key: AtomicU64::new(EMPTY),
            counts: AtomicU64::new(0),
        }
    }
}

/// A table of slots, shared with the device's registry for `Device::references`.
pub(crate) type Slots = StdArc<[Slot]>;

/// The bits of a key below its kind: the handle's reuse count and index.
const BELOW_KIND: u64 = (1 << 56) - 1;

/// The key of an object: its kind in the top byte, its reuse count, its index (the handle's bits
/// with the device's tag replaced by the kind). The tag is left out: every object of the
/// table's device has the same one, and `add` refuses another's handle before it gets here. A
/// live handle's reuse count is never 0, so no key is [`EMPTY`]; no kind is 0xFF, so none is
/// [`TOMBSTONE`].
#[inline(always)]
fn key_of(kind: ObjectKind, handle: RawHandle) -> u64 {
    handle.to_bits() & BELOW_KIND | (kind as u64) << 56
}

/// The handle a key was made from, with the device's tag bits `tag`.
fn handle_of(key: u64, tag: u32) -> RawHandle {
    RawHandle::from_bits(key & BELOW_KIND | (tag as u64) << 32)
}

/// The kind a key was made from.
fn kind_of(key: u64) -> ObjectKind {
    KINDS[(key >> 56) as usize % ObjectKind::COUNT]
}

/// Where `key` hashes to in a table of `1 << (64 - shift)` slots (Fibonacci hashing).
#[inline(always)]
fn home(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

/// Where a probe for a key ended.
enum Probe {
    /// The key's slot.
    Found(usize),
    /// Not in the table: the slot an insertion takes (the first tombstone passed, or the empty
    /// slot that ended the probe), and whether it is a tombstone.
    Vacant(usize, bool),
}

/// Probes `slots` (a power of two long, `shift` as `home` takes it) for `key`. The table is
/// never full (`used` stays under 3/4 of it), so the probe ends.
#[inline(always)]
fn probe(slots: &[Slot], shift: u32, key: u64) -> Probe {
    let mask = slots.len() - 1;
    let mut i = home(key, shift) & mask;
    let mut tombstone = None;
    loop {
        // SAFETY: `i <= mask = slots.len() - 1` (`home` of a table of `1 << (64 - shift)`
        // slots is below that, and every step masks), and `slots` is not empty (the capacity
        // is a power of two).
        let found = unsafe { slots.get_unchecked(i) }
            .key
            .load(Ordering::Relaxed);
        if found == key {
            return Probe::Found(i);
        }
        if found == EMPTY {
            return match tombstone {
                Some(at) => Probe::Vacant(at, true),
                None => Probe::Vacant(i, false),
            };
        }
        if found == TOMBSTONE && tombstone.is_none() {
            tombstone = Some(i);
        }
        i = (i + 1) & mask;
    }
}

/// The references a legacy recorder holds itself (see the module documentation).
pub(crate) struct LocalReferences {
    slots: Slots,
    /// `64 - log2(slots.len())`.
    shift: u32,
    /// Slots holding an object.
    live: usize,
    /// Slots holding an object or a tombstone (kept under 3/4 of the capacity, so every probe
    /// ends at an empty slot).
    used: usize,
    /// The keys of the objects the open list references, in the order of their first reference
    /// (a key may repeat after a refused call gave its only reference back; the finish skips
    /// what is no longer the list's).
    listed: Vec<u64>,
    /// The device's tag bits, as every handle of its generation carries them.
    tag: u32,
    /// The recorder's serial, its name in the device's registry.
    serial: u32,
}

impl LocalReferences {
    /// An empty table for recorder `serial` of `device`, registered with the device.
    pub(crate) fn new(device: &impl SharedCounts, serial: u32) -> Self {
        let slots = Self::allocate(INITIAL_CAPACITY);
        device.registry().lock().push((serial, slots.clone()));
        Self {
            slots,
            shift: 64 - INITIAL_CAPACITY.trailing_zeros(),
            live: 0,
            used: 0,
            listed: Vec::new(),
            tag: device.tag(),
            serial,
        }
    }

    fn allocate(capacity: usize) -> Slots {
        (0..capacity).map(|_| Slot::vacant()).collect()
    }

    /// Leaves the device's registry; the recorder holds nothing any more.
    pub(crate) fn unregister(&self, device: &impl SharedCounts) {
        debug_assert_eq!(
            self.live, 0,
            "a recorder dropped with references it still holds"
        );
        let mut registry = device.registry().lock();
        if let Some(at) = registry
            .iter()
            .position(|(serial, _)| *serial == self.serial)
        {
            registry.swap_remove(at);
        }
    }

    /// Takes `delta` (a multiple of [`LIST`] plus a multiple of [`BOUND`]) references on the
    /// object: a probe and a store when the recorder holds it already; the first one takes the
    /// recorder's pin on the shared count, which checks the handle (`Stale` if it names no live
    /// object of this device).
    #[inline(always)]
    pub(crate) fn add(
        &mut self,
        device: &impl SharedCounts,
        kind: ObjectKind,
        handle: RawHandle,
        delta: u64,
    ) -> Result<(), Stale> {
        if handle.generation & TAG_MASK != self.tag {
            return Err(Stale::Destroyed);
        }
        self.add_own(device, kind, handle, delta)
    }

    /// [`add`](Self::add), out of line: for the calls that reference an object once (copies,
    /// clears, maps, queries), so a fast recorder's call keeps only its test.
    #[inline(never)]
    pub(crate) fn add_checked(
        &mut self,
        device: &impl SharedCounts,
        kind: ObjectKind,
        handle: RawHandle,
        delta: u64,
    ) -> Result<(), Stale> {
        self.add(device, kind, handle, delta)
    }

    /// [`add`](Self::add) for a handle the caller found in this device's table just now (a
    /// lookup compares the whole generation, the device's tag included), so it is not another
    /// device's: the binds' path (`retain_slots`).
    #[inline(always)]
    pub(crate) fn add_own(
        &mut self,
        device: &impl SharedCounts,
        kind: ObjectKind,
        handle: RawHandle,
        delta: u64,
    ) -> Result<(), Stale> {
        debug_assert_eq!(
            handle.generation & TAG_MASK,
            self.tag,
            "another device's handle"
        );
        let key = key_of(kind, handle);
        match probe(&self.slots, self.shift, key) {
            Probe::Found(i) => {
                let counts = &self.slots[i].counts;
                let before = counts.load(Ordering::Relaxed);
                // One test for the usual case: listed already, and far from the limit.
                if before & (LISTED | LIST_HIGH) != LISTED || delta & LIST_MASK == 0 {
                    return self.add_unusual(key, i, before, delta);
                }
                counts.store(before + delta, Ordering::Relaxed);
                Ok(())
            }
            Probe::Vacant(..) => self.insert(device, kind, handle, key, delta),
        }
    }

    /// [`add`](Self::add) to slot `i` (counts `before`) for the first reference of the open list,
    /// a binding alone, or near the limit.
    #[cold]
    #[inline(never)]
    fn add_unusual(&mut self, key: u64, i: usize, before: u64, delta: u64) -> Result<(), Stale> {
        if before & LIST_MASK >= LIST_LIMIT {
            return Err(Stale::Destroyed);
        }
        let mut after = before + delta;
        if delta & LIST_MASK != 0 && before & LISTED == 0 {
            after |= LISTED;
            self.listed.push(key);
        }
        self.slots[i].counts.store(after, Ordering::Relaxed);
        Ok(())
    }

    /// The first reference on an object: the pin on the shared count, then the slot.
    #[cold]
    #[inline(never)]
    fn insert(
        &mut self,
        device: &impl SharedCounts,
        kind: ObjectKind,
        handle: RawHandle,
        key: u64,
        delta: u64,
    ) -> Result<(), Stale> {
        device.pin(kind, handle)?;
        if (self.used + 1) * 4 > self.slots.len() * 3 {
            self.rehash(device);
        }
        let Probe::Vacant(i, tombstone) = probe(&self.slots, self.shift, key) else {
            unreachable!("insert: the key was not in the table a moment ago");
        };
        let mut counts = delta;
        if delta & LIST_MASK != 0 {
            counts |= LISTED;
            self.listed.push(key);
        }
        let slot = &self.slots[i];
        slot.counts.store(counts, Ordering::Relaxed);
        slot.key.store(key, Ordering::Release);
        self.live += 1;
        if !tombstone {
            self.used += 1;
        }
        Ok(())
    }

    /// Drops `delta` references that [`add`](Self::add) took; the last one drops the
    /// recorder's pin on the shared count (for the open list's, once the list ends).
    #[inline(always)]
    pub(crate) fn sub(
        &mut self,
        device: &impl SharedCounts,
        kind: ObjectKind,
        handle: RawHandle,
        delta: u64,
    ) {
        let key = key_of(kind, handle);
        let Probe::Found(i) = probe(&self.slots, self.shift, key) else {
            debug_assert!(
                false,
                "dropping a reference the recorder does not hold: {kind:?}"
            );
            return;
        };
        let counts = &self.slots[i].counts;
        let after = counts.load(Ordering::Relaxed) - delta;
        counts.store(after, Ordering::Relaxed);
        if after == 0 {
            self.remove(device, i, true);
        }
    }

    /// Empties slot `i` (whose counts are 0); with `unpin`, drops the recorder's pin.
    #[cold]
    #[inline(never)]
    fn remove(&mut self, device: &impl SharedCounts, i: usize, unpin: bool) {
        let slot = &self.slots[i];
        let key = slot.key.load(Ordering::Relaxed);
        // A slot whose successor is empty ends every probe that reaches it: it can be empty
        // too, and so can the tombstones before it.
        let mask = self.slots.len() - 1;
        if self.slots[(i + 1) & mask].key.load(Ordering::Relaxed) == EMPTY {
            slot.key.store(EMPTY, Ordering::Release);
            self.used -= 1;
            let mut before = i.wrapping_sub(1) & mask;
            while self.slots[before].key.load(Ordering::Relaxed) == TOMBSTONE {
                self.slots[before].key.store(EMPTY, Ordering::Release);
                self.used -= 1;
                before = before.wrapping_sub(1) & mask;
            }
        } else {
            slot.key.store(TOMBSTONE, Ordering::Release);
        }
        self.live -= 1;
        if unpin {
            device.unpin(kind_of(key), handle_of(key, self.tag));
        }
    }

    /// Rebuilds the table without tombstones, twice as large when it is half full, and swaps it
    /// into the device's registry.
    #[cold]
    fn rehash(&mut self, device: &impl SharedCounts) {
        let capacity = match self.live * 2 >= self.slots.len() {
            true => self.slots.len() * 2,
            false => self.slots.len(),
        };
        let slots = Self::allocate(capacity);
        let shift = 64 - capacity.trailing_zeros();
        for old in self.slots.iter() {
            let key = old.key.load(Ordering::Relaxed);
            if key == EMPTY || key == TOMBSTONE {
                continue;
            }
            let Probe::Vacant(i, _) = probe(&slots, shift, key) else {
                unreachable!("rehash: a key twice in the table");
            };
            slots[i]
                .counts
                .store(old.counts.load(Ordering::Relaxed), Ordering::Relaxed);
            slots[i].key.store(key, Ordering::Relaxed);
        }
        let mut registry = device.registry().lock();
        if let Some(entry) = registry
            .iter_mut()
            .find(|(serial, _)| *serial == self.serial)
        {
            entry.1 = slots.clone();
        }
        drop(registry);
        self.slots = slots;
        self.shift = shift;
        self.used = self.live;
    }

    /// How many distinct objects the open list names.
    pub(crate) fn listed_len(&self) -> usize {
        self.listed.len()
    }

    /// The open list's count of the object in `listed[n]`, its slot and whether it is bound.
    fn listed_at(&self, key: u64) -> Option<(usize, u32, bool)> {
        match probe(&self.slots, self.shift, key) {
            Probe::Found(i) => {
                let counts = self.slots[i].counts.load(Ordering::Relaxed);
                Some((i, (counts & LIST_MASK) as u32, counts >> 32 != 0))
            }
            Probe::Vacant(..) => None,
        }
    }

    /// The open list ends as a finished list: its references become the list's, on the shared
    /// counts (one compare-and-swap per distinct object; where the recorder's pin was the
    /// object's only other reference, the pin becomes one of the list's). `write` is handed
    /// each distinct object with its count, at most [`listed_len`](Self::listed_len) of them,
    /// for the list's own table. Refused, with nothing changed, if a shared count would pass
    /// its bound (the object named).
    pub(crate) fn publish_list(
        &mut self,
        device: &impl SharedCounts,
        mut write: impl FnMut(ObjectKind, RawHandle, u32),
    ) -> Result<(), (ObjectKind, RawHandle)> {
        // The shared counts first, while the pins keep every object alive.
        let tag = self.tag;
        let shared_part = |list: u32, bound: bool| list.saturating_sub(!bound as u32);
        for (n, &key) in self.listed.iter().enumerate() {
            let Some((_, list, bound)) = self.listed_at(key) else {
                continue;
            };
            let add = shared_part(list, bound);
            let (kind, handle) = (kind_of(key), handle_of(key, tag));
            if add != 0 && device.publish(kind, handle, add).is_err() {
                for &done in &self.listed[..n] {
                    if let Some((_, list, bound)) = self.listed_at(done) {
                        let add = shared_part(list, bound);
                        if add != 0 {
                            device.unpublish(kind_of(done), handle_of(done, tag), add);
                        }
                    }
                }
                return Err((kind, handle));
            }
        }
        // Then the list's table, and the local counts without the list's part.
        let leaving = std::mem::take(&mut self.listed);
        for &key in &leaving {
            let Some((i, list, _)) = self.listed_at(key) else {
                continue;
            };
            if list != 0 {
                write(kind_of(key), handle_of(key, tag), list);
            }
            let after = self.slots[i].counts.load(Ordering::Relaxed) & !(LISTED | LIST_MASK);
            self.slots[i].counts.store(after, Ordering::Relaxed);
            if after == 0 {
                // A list's reference: the pin is the list's now. None (a refused call gave
                // its reference back): the pin goes.
                self.remove(device, i, list == 0);
            }
        }
        self.listed = leaving;
        self.listed.clear();
        Ok(())
    }

    /// The open list is dropped unfinished: its references go (the bindings' stay).
    pub(crate) fn discard_list(&mut self, device: &impl SharedCounts) {
        let leaving = std::mem::take(&mut self.listed);
        for &key in &leaving {
            let Some((i, _, _)) = self.listed_at(key) else {
                continue;
            };
            let after = self.slots[i].counts.load(Ordering::Relaxed) & !(LISTED | LIST_MASK);
            self.slots[i].counts.store(after, Ordering::Relaxed);
            if after == 0 {
                self.remove(device, i, true);
            }
        }
        self.listed = leaving;
        self.listed.clear();
    }
}

/// What a registered table adds to the shared count of an object: its local references less
/// its pin (0 if it holds none; -1 for a pinned object whose only reference a refused call gave
/// back, until the list ends). For `Device::references`.
pub(crate) fn excess(slots: &[Slot], tag: u32, kind: ObjectKind, handle: RawHandle) -> i64 {
    if slots.is_empty() || handle.generation & TAG_MASK != tag {
        return 0;
    }
    let shift = 64 - slots.len().trailing_zeros();
    if !slots.len().is_power_of_two() {
        return 0;
    }
    match probe(slots, shift, key_of(kind, handle)) {
        Probe::Found(i) => {
            let counts = slots[i].counts.load(Ordering::Acquire);
            (counts & LIST_MASK) as i64 + (counts >> 32) as i64 - 1
        }
        Probe::Vacant(..) => 0,
    }
}
