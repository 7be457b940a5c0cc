//! The entries a tap keeps, and a finished list's, bundle's or frame's: [`Entries`], a vector of
//! [`Entry`] that knows whether any of them owns memory of its own.
//!
//! **Why.** A kept call's lists are in its context's arena (`arena.rs`), so an entry a tap made
//! owns nothing: dropping it frees nothing, yet dropping a vector of them walks every entry
//! (a match on the call's kind and on each list's) only to find that out. A list recorded while
//! a frame is captured drops as many entries as it made calls, so the walk cost as much as a
//! fifth of keeping the call. [`Entries`] remembers, as it is filled, whether an entry may own
//! memory; while none does, dropping or clearing it forgets the entries instead of walking
//! them.
//!
//! **In:** entries, each pushed with what the pusher knows of it: [`Entries::push_plain`] for
//! one that owns nothing (a call a tap built, its lists from the arena), [`Entries::push`] for
//! any other (asked of the entry: [`may_own`]). **Out:** the entries, as a slice.
//!
//! **Invariant.** `owning` is false only while every entry in `items` owns no memory (no
//! [`List::Owned`](super::arena::List), no byte string or name of its own). Getting it wrong
//! the other way (true with nothing owned) only costs the walk.

use std::fmt;

use super::form::{Call, Entry};
use crate::syntax::ast::Method;

/// Entries and whether any owns memory (see the module essay).
pub(crate) struct Entries {
    items: Vec<Entry>,
    owning: bool,
}

impl Entries {
    /// No entries, room for `capacity`.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            items: Vec::with_capacity(capacity),
            owning: false,
        }
    }

    /// Adds `entry`, which owns no memory (the caller knows: see the module's invariant).
    #[inline]
    pub(crate) fn push_plain(&mut self, entry: Entry) {
        self.items.push(entry);
    }

    /// Adds `entry`, whatever it holds.
    #[inline]
    pub(crate) fn push(&mut self, entry: Entry) {
        self.owning |= may_own(&entry);
        self.items.push(entry);
    }

    /// Empties it, keeping its capacity.
    pub(crate) fn clear(&mut self) {
        self.forget_plain();
        self.items.clear();
        self.owning = false;
    }

    /// How many entries it has room for.
    pub(crate) fn capacity(&self) -> usize {
        self.items.capacity()
    }

    /// Forgets the entries when none owns memory: then nothing is left to drop them one by one.
    #[inline]
    fn forget_plain(&mut self) {
        if !self.owning {
            // SAFETY: a length of 0 is within the capacity and leaves no element to be read;
            // the entries it leaves out own no memory (`owning` is false: the module's
            // invariant), so not dropping them frees nothing that dropping would have freed.
            unsafe { self.items.set_len(0) }
        }
    }
}

impl Default for Entries {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        // The vector then drops what is left: every entry where one may own memory, none
        // otherwise, and its buffer.
        self.forget_plain();
    }
}

impl std::ops::Deref for Entries {
    type Target = [Entry];
    #[inline]
    fn deref(&self) -> &[Entry] {
        &self.items
    }
}

impl<'a> IntoIterator for &'a Entries {
    type Item = &'a Entry;
    type IntoIter = std::slice::Iter<'a, Entry>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl fmt::Debug for Entries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <[Entry] as fmt::Debug>::fmt(&self.items, f)
    }
}

/// Whether `entry` may own memory: a call of a kind that names only objects and numbers does
/// not, nor a pin, a placement or a comment; a call with a list (which may be a list of its
/// own, `List::Owned`) or another kind may. A `write`'s bytes may be a list of their own too.
fn may_own(entry: &Entry) -> bool {
    match entry {
        Entry::Call(call) => call_may_own(call),
        Entry::Write { bytes, .. } => bytes.is_owned(),
        Entry::NotWritten(_) | Entry::Pin { .. } | Entry::Placed { .. } => false,
    }
}

/// [`may_own`] for a call: false only for the kinds listed, which hold no list, name or bytes.
fn call_may_own(call: &Call) -> bool {
    !matches!(
        call,
        Method::Map { .. }
            | Method::Unmap { .. }
            | Method::Execute { .. }
            | Method::DrawBundle { .. }
            | Method::InsertFence { .. }
            | Method::Present { .. }
            | Method::PlaceSwapChainView { .. }
            | Method::BeginCommandListExecution
            | Method::EndCommandListExecution
            | Method::Resume
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::arena::{List, Lists, OwnedLists};
    use crate::capture::form::Obj;

    fn lists_call(views: List<Option<Obj>>) -> Entry {
        Entry::Call(Method::SetShaderResources {
            stage: recorder::Stage::Pixel,
            start: 0,
            views,
        })
    }

    #[test]
    fn entries_know_whether_one_owns_memory() {
        let mut lists = Lists::new();
        let mut entries = Entries::with_capacity(4);
        let owned = OwnedLists::now();
        entries.push_plain(lists_call(lists.list([None])));
        assert!(owned.none_since(), "an arena list is not one of its own");
        assert!(!entries.owning);
        entries.push(Entry::NotWritten("x"));
        assert!(!entries.owning);
        let own: List<Option<Obj>> = vec![None, None].into();
        assert!(!owned.none_since(), "a list of its own is counted");
        entries.push(lists_call(own));
        assert!(entries.owning, "a call with a list may own it");
        assert_eq!(entries.len(), 3);
        entries.clear();
        assert!(!entries.owning && entries.is_empty());
        assert!(entries.capacity() >= 4);
        entries.push(Entry::Write {
            resource: Obj::Fence(1),
            offset: 0,
            bytes: lists.copy(&[1u8, 2]),
        });
        assert!(!entries.owning, "a write's bytes in the arena");
        entries.push(Entry::Write {
            resource: Obj::Fence(1),
            offset: 0,
            bytes: vec![3u8].into(),
        });
        assert!(entries.owning, "a write's bytes of their own");
    }
}
