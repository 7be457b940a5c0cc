//! A list as execution walks it: its [`Segments`] (runs of commands, split points, nested lists,
//! found through the list's index without walking the commands between them), the owning
//! [`SegmentWalk`], [`CommandRun`] and the [`QueuedRun`] that keeps its list alive, and the index
//! itself (`write_index`, one [`IndexEntry`] per side record).
//!
//! **In:** a sealed list and its side records. **Out:** segments in recording order.
//!
//! **Invariant.** A run only ever lies in live, sealed chunks of its list: only a list makes one,
//! and an owning walk or queued run holds a reference on the list. Walking allocates nothing.

use super::*;
use crate::chunk::{ChunkHeader, ChunkView, SideKind, DATA_START};
use crate::command::{decode, next_offset, Decoded, Site};
use crate::sync::Ordering;
use std::ptr::NonNull;

/// The segments of a list ([`CommandList::segments`]): runs of commands, split points and
/// nested lists, in order, found through the list's index without walking the commands between
/// them. Allocates nothing.
pub struct Segments<'a> {
    pub(crate) list: NonNull<ListHeader>,
    pub(crate) index: std::slice::Iter<'a, IndexEntry>,
    /// Where the next run of commands starts; `None` once the last run was yielded.
    pub(crate) cursor: Option<Position>,
    /// The split point or nested list that ends the run just yielded.
    pub(crate) pending: Option<&'a IndexEntry>,
    pub(crate) _list: std::marker::PhantomData<&'a CommandList>,
}

impl<'a> Segments<'a> {
    /// The split point or nested list an index entry points at, decoded.
    fn at(&self, entry: &IndexEntry) -> Segment<'a> {
        // SAFETY: index entries point at commands of this list's sealed chunks.
        let (mut decoded, _) = unsafe { decode(entry.chunk as *const u8, entry.offset as usize) };
        decoded.site = Some(Site {
            list: self.list.cast(),
        });
        match entry.kind == SideKind::Split as u32 {
            true => Segment::SplitPoint(decoded),
            false => Segment::Nested(decoded),
        }
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = Segment<'a>;

    fn next(&mut self) -> Option<Segment<'a>> {
        // The entry is kept, not the decoded command: a segment is about a hundred bytes.
        if let Some(pending) = self.pending.take() {
            return Some(self.at(pending));
        }
        let cursor = self.cursor?;
        let Some(entry) = self.index.next() else {
            // SAFETY: the list is alive for 'a; its last chunk is sealed.
            let header = unsafe { self.list.as_ref() };
            let end = Position {
                chunk: header.last_chunk,
                // SAFETY: `last_chunk` is a chunk of this list, alive for 'a with it and sealed,
                // so its header is initialised and no longer written.
                offset: unsafe { (*header.last_chunk).command_end } as usize,
            };
            self.cursor = None;
            return (!is_empty(cursor, end))
                .then(|| Segment::Commands(CommandRun::new(self.list, cursor, end)));
        };
        let at = Position {
            chunk: entry.chunk,
            offset: entry.offset as usize,
        };
        let after = Position {
            chunk: entry.chunk,
            // SAFETY: index entries point at commands of this list's sealed chunks.
            offset: unsafe { next_offset(entry.chunk as *const u8, at.offset) },
        };
        self.cursor = Some(after);
        if entry.kind == SideKind::KickOff as u32 {
            // A kicked-off fence (R-FX-6) is the last command of its run.
            return Some(Segment::Commands(CommandRun::new(self.list, cursor, after)));
        }
        if is_empty(cursor, at) {
            return Some(self.at(entry));
        }
        self.pending = Some(entry);
        Some(Segment::Commands(CommandRun::new(self.list, cursor, at)))
    }
}

/// The segments of a list that this value keeps alive ([`CommandList::into_segment_walk`]):
/// what [`Segments`] yields, with no borrow to tie it to a stack frame.
pub struct SegmentWalk {
    /// Borrows `list`'s memory, for as long as the walk lives (never handed out as `'static`).
    pub(crate) segments: Segments<'static>,
    pub(crate) list: CommandList,
}

// SAFETY: the segments point into chunks of `list`, which the walk keeps alive and which nobody
// writes any more (a finished list is immutable and `Send + Sync`).
unsafe impl Send for SegmentWalk {}
// SAFETY: shared access reads nothing: `next` needs `&mut self`, `list` is `Sync`.
unsafe impl Sync for SegmentWalk {}

impl SegmentWalk {
    /// The list walked.
    pub fn list(&self) -> &CommandList {
        &self.list
    }

    /// The next segment, borrowed from the walk (see [`Segments`]).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Segment<'_>> {
        self.segments.next()
    }
}

impl std::fmt::Debug for SegmentWalk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SegmentWalk")
            .field("list", &self.list)
            .finish_non_exhaustive()
    }
}

/// Whether no command lies between `from` and `to` (same chain, `from` not after `to`).
fn is_empty(mut from: Position, to: Position) -> bool {
    // SAFETY: both positions are in the same sealed chain, `from` first.
    unsafe {
        while from.chunk != to.chunk && from.offset >= (*from.chunk).command_end as usize {
            from = Position {
                chunk: (*from.chunk).next,
                offset: DATA_START,
            };
        }
    }
    from.chunk == to.chunk && from.offset >= to.offset
}

/// One split point or nested list of a list, as its index holds it.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct IndexEntry {
    pub(crate) chunk: *mut ChunkHeader,
    pub(crate) offset: u32,
    pub(crate) kind: u32,
}

const _: () = assert!(std::mem::size_of::<IndexEntry>() == 16);

/// Writes the index of a sealed chain's side records into `entries` (room for all of them).
///
/// # Safety
/// `first` must head a sealed chain whose side records number `entries.len()` at most.
pub(crate) unsafe fn write_index(
    first: *mut ChunkHeader,
    entries: &mut [std::mem::MaybeUninit<IndexEntry>],
) -> usize {
    let mut written = 0;
    let mut chunk = first;
    while !chunk.is_null() {
        // SAFETY: `chunk` is a non-null chunk of the chain the caller guarantees sealed, and
        // the chain is not freed during this call.
        let view = unsafe { ChunkView::new(chunk) };
        for (kind, offset) in view.side_records() {
            if let Some(slot) = entries.get_mut(written) {
                slot.write(IndexEntry {
                    chunk,
                    offset,
                    kind: kind as u32,
                });
                written += 1;
            }
        }
        // SAFETY: `chunk` is non-null (loop condition) and a chunk of the sealed chain, whose
        // headers are initialised and no longer written.
        chunk = unsafe { (*chunk).next };
    }
    written
}

/// A piece of a list as execution sees it.
#[derive(Clone, Copy, Debug)]
pub enum Segment<'a> {
    /// A run of commands, handed to the GPU by reference.
    Commands(CommandRun<'a>),
    /// A split point to resolve against the immediate context (R-SP-4).
    SplitPoint(Decoded<'a>),
    /// A nested list to execute (R-REC-9).
    Nested(Decoded<'a>),
}

/// A run of whole commands of a list, from one place to another (across chunks, following
/// their links): only a list makes one, so it always lies in live, sealed chunks.
#[derive(Clone, Copy, Debug)]
pub struct CommandRun<'a> {
    list: NonNull<ListHeader>,
    start: Position,
    stop: Position,
    _list: std::marker::PhantomData<&'a CommandList>,
}

impl CommandRun<'_> {
    pub(crate) fn new(list: NonNull<ListHeader>, start: Position, stop: Position) -> Self {
        Self {
            list,
            start,
            stop,
            _list: std::marker::PhantomData,
        }
    }

    /// The run, keeping its list alive: for a GPU model that runs later or on another thread
    /// (R-EX-3). One reference count, no copy of the commands.
    pub fn to_queued(&self) -> QueuedRun {
        QueuedRun::new(self.list, self.start, self.stop)
    }

    /// The run's commands, decoded one at a time.
    pub fn commands(&self) -> Commands<'_> {
        Commands::run(self.start, self.stop)
    }
}

/// A run of commands that keeps its list alive (see [`CommandRun::to_queued`]).
pub struct QueuedRun {
    list: CommandList,
    start: Position,
    stop: Position,
}

// SAFETY: the run points into chunks of `list`, which it keeps alive and which nobody writes
// any more (a finished list is immutable and `Send + Sync`).
unsafe impl Send for QueuedRun {}
// SAFETY: a shared `QueuedRun` only reads its positions and the immutable chunks they point
// into; its reference on the list changes only in `Drop`, which needs ownership.
unsafe impl Sync for QueuedRun {}

impl QueuedRun {
    pub(crate) fn new(list: NonNull<ListHeader>, start: Position, stop: Position) -> Self {
        // SAFETY: `list` is the header of a live list the caller borrows; one more reference.
        unsafe { list.as_ref() }
            .references
            .fetch_add(1, Ordering::Relaxed);
        Self {
            list: CommandList { header: list },
            start,
            stop,
        }
    }

    /// The list the run belongs to.
    pub fn list(&self) -> &CommandList {
        &self.list
    }

    /// The run's commands, decoded one at a time.
    pub fn commands(&self) -> Commands<'_> {
        Commands::run(self.start, self.stop)
    }
}

impl std::fmt::Debug for QueuedRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueuedRun")
            .field("start", &self.start)
            .field("stop", &self.stop)
            .finish()
    }
}

impl Segment<'_> {
    /// The commands of a `Commands` segment (none for the others).
    pub fn commands(&self) -> Commands<'_> {
        match self {
            Segment::Commands(run) => run.commands(),
            _ => Commands::empty(),
        }
    }
}
