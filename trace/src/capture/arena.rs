//! The lists of captured calls (a bind's objects, a barrier's barriers, the viewports ..), kept
//! in one bump arena per context ([`Lists`], bumpalo's `Bump`) instead of a `Vec` each: keeping
//! a call's list is a bump of a pointer, and a context that captures frame after frame reuses
//! its arena's memory (reset, not freed) once nothing holds the lists of the frames before.
//!
//! **In:** a tap's lists, as it keeps calls (`Tap::keep`). **Out:** [`List`]s, the captured
//! form's list type (`Form::List`), and [`Keep`]s: what a list's or bundle's log, or a frame's
//! calls taken from the immediate context, hold so that their lists stay valid.
//!
//! **Why not bumpalo's lifetimes.** A kept list outlives the call that made it by far: it moves
//! with its entries into the finished list's log, which the `CommandList` carries to any thread
//! for as long as the application keeps it (a bundle's, for as long as the bundle lives), so
//! `&'bump [T]` would make every log borrow its context. A [`List`] is a pointer and a length
//! into the arena instead, and the arena is reference counted: the tap holds it, and every
//! log that holds lists from it holds a [`Keep`] of it. The tap resets the arena only when it
//! holds the only count (no log of it is alive) and no entry of its own is left.
//!
//! **Invariant.** A [`List::kept`] points into the arena of the tap that made it, and lives
//! only in that tap's entries or in entries carried with a [`Keep`] of that arena (the entries
//! leave a tap only through `Tap::take_kept`); cloning a list copies its items into a `Vec`, so
//! a clone carries no pointer. The arena holds only types with no drop glue (checked at
//! compile time), so a reset drops nothing.

use std::cell::Cell;
use std::fmt;
use std::ptr::NonNull;
use std::sync::Arc;

use bumpalo::Bump;

/// A context's arena. Reached only through the [`Lists`] of the tap that owns it (`&mut`);
/// a [`Keep`] only keeps it alive.
pub(crate) struct Arena {
    bump: Bump,
}

// SAFETY: `Bump` is `Send` but not `Sync` (its allocation pointer is a `Cell`). An `Arena` is
// shared only through `Arc`s: the one in its tap's `Lists`, the only one through which its
// `Bump` is ever used (every such use takes `&mut Lists`, so one thread at a time), and the
// `Keep`s, which never touch it (the field is private to this file) and only drop it: the
// last count to drop frees it, alone. So no two threads ever use the `Bump` at once.
unsafe impl Sync for Arena {}

/// What the entries taken from a tap carry: the arena their lists point into, kept alive.
#[derive(Clone)]
pub(crate) struct Keep(#[allow(dead_code)] Arc<Arena>);

impl fmt::Debug for Keep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Keep")
    }
}

/// Arenas larger than this, still held by old logs when the tap would reset them, are left to
/// those logs and the tap starts a new one (an application that keeps one captured list for
/// ever does not make its context's arena grow for ever).
const ABANDON_BYTES: usize = 64 << 20;

/// A tap's arena: where its kept calls' lists go.
pub(crate) struct Lists {
    arena: Arc<Arena>,
}

impl Lists {
    /// An empty arena (its first chunk comes with the first list).
    pub(crate) fn new() -> Self {
        Self {
            arena: Arc::new(Arena { bump: Bump::new() }),
        }
    }

    /// `items` as a kept list: in the arena, no allocation of its own.
    #[inline]
    pub(crate) fn list<T: Clone, I>(&mut self, items: I) -> List<T>
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: ExactSizeIterator,
    {
        const { assert!(!std::mem::needs_drop::<T>(), "an arena list drops nothing") };
        let slice: &[T] = self.arena.bump.alloc_slice_fill_iter(items);
        List::Kept {
            ptr: NonNull::from(slice).cast(),
            len: slice.len(),
        }
    }

    /// `items`, each as `f` makes it, as a kept list (a loop over the slice's indices: no
    /// iterator to ask for its length or its next item).
    #[inline]
    pub(crate) fn map<S, T: Clone>(&mut self, items: &[S], mut f: impl FnMut(&S) -> T) -> List<T> {
        const { assert!(!std::mem::needs_drop::<T>(), "an arena list drops nothing") };
        let slice: &[T] = self
            .arena
            .bump
            .alloc_slice_fill_with(items.len(), |i| f(&items[i]));
        List::Kept {
            ptr: NonNull::from(slice).cast(),
            len: slice.len(),
        }
    }

    /// A copy of `items` as a kept list (one bump and a `memcpy`).
    #[inline]
    pub(crate) fn copy<T: Copy>(&mut self, items: &[T]) -> List<T> {
        let slice: &[T] = self.arena.bump.alloc_slice_copy(items);
        List::Kept {
            ptr: NonNull::from(slice).cast(),
            len: slice.len(),
        }
    }

    /// The list `fill` pushes, in the arena (grown in place: it is the arena's last allocation).
    #[inline]
    pub(crate) fn list_with<T: Clone>(
        &mut self,
        fill: impl FnOnce(&mut bumpalo::collections::Vec<'_, T>),
    ) -> List<T> {
        const { assert!(!std::mem::needs_drop::<T>(), "an arena list drops nothing") };
        let mut items = bumpalo::collections::Vec::new_in(&self.arena.bump);
        fill(&mut items);
        let slice = items.into_bump_slice();
        List::Kept {
            ptr: NonNull::from(slice).cast(),
            len: slice.len(),
        }
    }

    /// A [`Keep`] of the arena, for entries leaving the tap.
    pub(crate) fn keep(&self) -> Keep {
        Keep(Arc::clone(&self.arena))
    }

    /// Reuses the arena's memory when nothing holds a list from it: a reset (bumpalo keeps its
    /// largest chunk, so a context that keeps as much each frame allocates nothing once warm).
    /// Held by a log and grown past [`ABANDON_BYTES`], the arena is left to its logs.
    ///
    /// # Safety
    /// The tap holds no entry with a list from this arena (its entries are empty).
    pub(crate) unsafe fn recycle(&mut self) {
        if let Some(arena) = Arc::get_mut(&mut self.arena) {
            arena.bump.reset();
        } else if self.arena.bump.allocated_bytes() > ABANDON_BYTES {
            *self = Self::new();
        }
    }

    /// The bytes of the arena's chunks (tests).
    #[cfg(test)]
    pub(crate) fn allocated_bytes(&mut self) -> usize {
        self.arena.bump.allocated_bytes()
    }
}

thread_local! {
    /// Lists made with items of their own on this thread (`List::Owned`), counted so that a tap
    /// can tell that the call it just built holds none ([`OwnedLists`], `entries.rs`).
    static OWNED_LISTS: Cell<u64> = const { Cell::new(0) };
}

/// Counts a list made with items of its own on this thread ([`List::owned`]).
#[inline]
fn count_owned_list() {
    OWNED_LISTS.with(|count| count.set(count.get() + 1));
}

/// What the thread had made of lists of their own when a tap started building a call: the
/// call holds none of them if the count has not moved since.
#[derive(Clone, Copy)]
pub(crate) struct OwnedLists(u64);

impl OwnedLists {
    /// The count now.
    #[inline]
    pub(crate) fn now() -> Self {
        Self(OWNED_LISTS.with(Cell::get))
    }

    /// Whether no list of its own was made on this thread since `self`.
    #[inline]
    pub(crate) fn none_since(self) -> bool {
        Self::now().0 == self.0
    }
}

/// A list argument of a captured call (`Form::List` of the captured form): kept in a context's
/// arena, or owned (a list made outside a tap: the state at a frame's start, a clone).
pub(crate) enum List<T> {
    /// Items in a tap's arena (see the module's invariant).
    Kept { ptr: NonNull<T>, len: usize },
    /// Items of its own.
    Owned(Vec<T>),
}

// SAFETY: a kept list is a shared slice of `T` in an arena that stays alive and unchanged while
// it lives (the module's invariant): as `&[T]`, it may go to another thread where `T: Sync`;
// owned, it is a `Vec<T>`. Sending a kept list shares its items (the arena keeps them), hence
// `T: Sync` for `Send` too.
unsafe impl<T: Send + Sync> Send for List<T> {}
// SAFETY: as above: `&List<T>` gives only `&[T]`.
unsafe impl<T: Sync> Sync for List<T> {}

impl<T> List<T> {
    /// A list of `items`, its own: every such list is made here, counted on its thread, so
    /// that a tap can tell the call it built holds none (`entries.rs`).
    fn owned(items: Vec<T>) -> Self {
        count_owned_list();
        Self::Owned(items)
    }

    /// Whether the list has items of its own (dropping it frees them).
    pub(crate) fn is_owned(&self) -> bool {
        matches!(self, Self::Owned(_))
    }
}

impl<T: Clone> List<T> {
    /// The items to change: a kept list is copied to items of its own first.
    pub(crate) fn to_mut(&mut self) -> &mut [T] {
        if let Self::Kept { .. } = self {
            *self = Self::owned(self.to_vec());
        }
        match self {
            Self::Owned(items) => items,
            Self::Kept { .. } => unreachable!("made owned above"),
        }
    }
}

impl<T> std::ops::Deref for List<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            // SAFETY: `ptr` and `len` are a slice the arena handed out, alive and unchanged
            // while this list lives (the module's invariant: its arena is reset only when no
            // entry with a list from it is left).
            Self::Kept { ptr, len } => unsafe { std::slice::from_raw_parts(ptr.as_ptr(), *len) },
            Self::Owned(items) => items,
        }
    }
}

/// A copy with items of its own: a clone may outlive the arena.
impl<T: Clone> Clone for List<T> {
    fn clone(&self) -> Self {
        Self::owned(self.to_vec())
    }
}

impl<T: fmt::Debug> fmt::Debug for List<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <[T] as fmt::Debug>::fmt(self, f)
    }
}

impl<T: PartialEq> PartialEq for List<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T> FromIterator<T> for List<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        Self::owned(items.into_iter().collect())
    }
}

impl<T> From<Vec<T>> for List<T> {
    fn from(items: Vec<T>) -> Self {
        Self::owned(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_lists_read_back_and_a_reset_reuses_the_chunk() {
        let mut lists = Lists::new();
        let a = lists.list([1u32, 2, 3]);
        let b = lists.list((0..100u32).map(|i| u64::from(i) * 2));
        assert_eq!(&*a, &[1, 2, 3]);
        assert_eq!(b.len(), 100);
        assert_eq!(b[99], 198);
        let c = b.clone();
        assert!(matches!(c, List::Owned(_)));
        let keep = lists.keep();
        drop((a, b));
        // SAFETY: no list from the arena is left but `c`, which owns its items.
        unsafe { lists.recycle() };
        let before = lists.allocated_bytes();
        drop(keep);
        // SAFETY: as above.
        unsafe { lists.recycle() };
        let d = lists.list([7u8; 16]);
        assert_eq!(&*d, &[7u8; 16]);
        assert!(lists.allocated_bytes() <= before);
        assert_eq!(c[0], 0);
    }
}
