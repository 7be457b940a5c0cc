//! Per-list bookkeeping of mapped resources: which dynamic buffers this list mapped write_discard
//! (their instance and data travel with the list, R-REC-10, R-SP-1), and which resources are mapped
//! now (for `unmap`). An open-addressing table stamped with the list's serial, so starting the next
//! list clears it in O(1) and steady-state recording allocates nothing.

use crate::command::InstanceId;
use crate::device::handle::RawHandle;

#[derive(Clone, Copy)]
pub(crate) struct MapEntry {
    handle: RawHandle,
    /// The list serial the entry belongs to; entries of earlier lists are vacant.
    stamp: u32,
    /// The list's current instance of the resource, when it mapped it write_discard.
    pub(crate) instance: Option<InstanceId>,
    /// The last instance the list made current, by its own write_discard maps or by a legacy
    /// list it executed (R-ST-8): what a legacy list leaves as the executing context's.
    pub(crate) last: Option<InstanceId>,
    /// The instance's data in the list (valid while the list is being recorded).
    pub(crate) data: *mut u8,
    pub(crate) len: u32,
    /// Mapped and not yet unmapped.
    pub(crate) mapped: bool,
}

const VACANT: MapEntry = MapEntry {
    handle: RawHandle::NULL,
    stamp: 0,
    instance: None,
    last: None,
    data: std::ptr::null_mut(),
    len: 0,
    mapped: false,
};

pub(crate) struct MapTracker {
    entries: Vec<MapEntry>,
    stamp: u32,
    len: usize,
}

// SAFETY: the data pointers point into chunks owned by the same context as the tracker.
unsafe impl Send for MapTracker {}

impl MapTracker {
    pub(crate) fn new() -> Self {
        Self {
            entries: vec![VACANT; 64],
            stamp: 1,
            len: 0,
        }
    }

    /// Forgets every entry: a new list begins.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.entries.fill(VACANT);
            self.stamp = 1;
        }
    }

    #[inline(always)]
    fn home(&self, handle: RawHandle) -> usize {
        // Fibonacci hashing of the index; the table size is a power of two.
        (handle.index().wrapping_mul(0x9E37_79B9) as usize) & (self.entries.len() - 1)
    }

    #[inline(always)]
    pub(crate) fn get(&self, handle: RawHandle) -> Option<&MapEntry> {
        let mask = self.entries.len() - 1;
        let mut at = self.home(handle);
        loop {
            let entry = &self.entries[at];
            if entry.stamp != self.stamp {
                return None;
            }
            if entry.handle == handle {
                return Some(entry);
            }
            at = (at + 1) & mask;
        }
    }

    #[inline(always)]
    pub(crate) fn get_mut(&mut self, handle: RawHandle) -> Option<&mut MapEntry> {
        let mask = self.entries.len() - 1;
        let mut at = self.home(handle);
        loop {
            let stamp = self.stamp;
            let entry = &mut self.entries[at];
            if entry.stamp != stamp {
                return None;
            }
            if entry.handle == handle {
                return Some(&mut self.entries[at]);
            }
            at = (at + 1) & mask;
        }
    }

    /// The entry for `handle`, created vacant if missing.
    #[inline]
    pub(crate) fn entry(&mut self, handle: RawHandle) -> &mut MapEntry {
        if (self.len + 1) * 2 > self.entries.len() {
            self.grow();
        }
        let mask = self.entries.len() - 1;
        let mut at = self.home(handle);
        loop {
            let stamp = self.stamp;
            let entry = &mut self.entries[at];
            if entry.stamp != stamp {
                *entry = MapEntry {
                    handle,
                    stamp,
                    ..VACANT
                };
                self.len += 1;
                return &mut self.entries[at];
            }
            if entry.handle == handle {
                return &mut self.entries[at];
            }
            at = (at + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let doubled = vec![VACANT; self.entries.len() * 2];
        let old = std::mem::replace(&mut self.entries, doubled);
        let stamp = self.stamp;
        self.len = 0;
        for entry in old.into_iter().filter(|e| e.stamp == stamp) {
            *self.entry(entry.handle) = entry;
        }
    }

    /// Keeps every entry but drops the data pointers: the chunks they point into are gone (the
    /// immediate context's batches).
    pub(crate) fn forget_data(&mut self) {
        let stamp = self.stamp;
        let live = if self.len == 0 { 0 } else { self.entries.len() };
        for entry in self.entries[..live].iter_mut().filter(|e| e.stamp == stamp) {
            entry.data = std::ptr::null_mut();
            entry.len = 0;
        }
    }

    /// `(resource, last instance)` of every resource the list made an instance of current
    /// (R-ST-8).
    pub(crate) fn last_instances(&self) -> impl Iterator<Item = (RawHandle, InstanceId)> + '_ {
        self.current()
            .iter()
            .filter(move |e| e.stamp == self.stamp)
            .filter_map(|e| Some((e.handle, e.last?)))
    }

    /// The entries to scan for the current list's: none when it has none (a list that mapped
    /// nothing, every bundle: its finish scans no table), else the whole table.
    #[inline(always)]
    fn current(&self) -> &[MapEntry] {
        match self.len {
            0 => &[],
            _ => &self.entries,
        }
    }

    /// Resources mapped and not unmapped.
    pub(crate) fn still_mapped(&self) -> impl Iterator<Item = RawHandle> + '_ {
        self.current()
            .iter()
            .filter(move |e| e.stamp == self.stamp && e.mapped)
            .map(|e| e.handle)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_growth_and_vanish_on_clear() {
        let mut tracker = MapTracker::new();
        let handles: Vec<RawHandle> = (0..500)
            .map(|i| RawHandle {
                index: i * 7,
                generation: 1,
            })
            .collect();
        for (i, h) in handles.iter().enumerate() {
            tracker.entry(*h).len = i as u32;
        }
        for (i, h) in handles.iter().enumerate() {
            assert_eq!(tracker.get(*h).map(|e| e.len), Some(i as u32));
        }
        tracker.clear();
        assert!(handles.iter().all(|h| tracker.get(*h).is_none()));
    }
}
