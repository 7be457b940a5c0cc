//! The device's pool of chunks ([`ChunkPool`]): the free chunks of every size behind one mutex,
//! one intrusive stack per size class, with the counters of [`PoolStats`].
//!
//! **In:** chunks given back by dropped lists and finished recorders; requests for a chunk of a
//! size. **Out:** a chunk, reused when one is free, else fresh from the global allocator.
//!
//! **Invariant.** A chunk is in the pool or owned by one writer or list, never both; the pool
//! keeps at most its limit and frees the rest once. Taking a chunk is the cold path of recording.

use super::*;
use crate::limits::MIN_CHUNK_SIZE;
use crate::sync::Mutex;
use std::alloc::{alloc, dealloc, Layout};
use std::collections::BTreeMap;
use std::ptr::NonNull;

/// Counters of a pool, for statistics and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Chunks taken from the global allocator over the pool's life.
    pub allocated_chunks: u64,
    /// Chunks handed out from the pool's free list instead.
    pub reused_chunks: u64,
    /// Chunks sitting in the free list now.
    pub free_chunks: u64,
    /// Bytes in the free list now.
    pub free_bytes: u64,
}

/// Sizes with a stack of their own in [`FreeChunks::small`]: every multiple of 4 KB up to 1 MB,
/// which covers the default 64 KB chunks, the bundles' 4 KB to 64 KB and any doubling policy's
/// first steps. A larger size is rare (a big payload's own chunk, a policy of huge chunks) and
/// goes to [`FreeChunks::large`].
pub(super) const SMALL_CLASSES: usize = (1 << 20) / MIN_CHUNK_SIZE;

/// The size class of a chunk of `size` bytes: its index in [`FreeChunks::small`], or `None` for
/// a size kept in [`FreeChunks::large`].
#[inline]
pub(super) fn small_class(size: usize) -> Option<usize> {
    let class = (size / MIN_CHUNK_SIZE).checked_sub(1)?;
    (size.is_multiple_of(MIN_CHUNK_SIZE) && class < SMALL_CLASSES).then_some(class)
}

/// Free chunks, one stack per size, and their total size. A stack is intrusive: its chunks are
/// linked through their headers' `next` (a free chunk belongs to no list, so the field is free),
/// so pushing and popping touch only the chunk's first line and never allocate.
///
/// `take` and `give_back` are O(1) for the sizes of `small` and O(log sizes) for the others:
/// no operation looks at more than one stack, whatever the number of free chunks.
struct FreeChunks {
    /// The top of the stack of each small size class (see [`small_class`]).
    small: [Option<ChunkPtr>; SMALL_CLASSES],
    /// The top of the stack of each larger size seen so far. An emptied stack keeps its entry,
    /// so a steady state that cycles big chunks allocates no map node either; the entries are
    /// bounded by the sizes there are (multiples of 4 KB up to [`LARGEST_CHUNK`]).
    large: BTreeMap<usize, Option<ChunkPtr>>,
    /// Chunks in all the stacks.
    chunks: usize,
    /// Bytes in all the stacks: what the pool limit is checked against.
    bytes: usize,
    /// Chunks the pool took from the global allocator, and chunks it handed out from a stack:
    /// counted under the lock that `take` holds anyway, not in shared atomics of their own (one
    /// read-modify-write fewer on the pool's lines per chunk).
    allocated: u64,
    reused: u64,
    /// Times `take`, `take_batch` and `give_back` took the lock: for the tests that count the
    /// pool locks a bundle costs.
    #[cfg(test)]
    locks: u64,
}

impl Default for FreeChunks {
    fn default() -> Self {
        Self {
            small: [const { None }; SMALL_CLASSES],
            large: BTreeMap::new(),
            chunks: 0,
            bytes: 0,
            allocated: 0,
            reused: 0,
            #[cfg(test)]
            locks: 0,
        }
    }
}

impl FreeChunks {
    /// The stack of chunks of `size` bytes, made empty if there is none yet.
    #[inline]
    fn stack_mut(&mut self, size: usize) -> &mut Option<ChunkPtr> {
        match small_class(size) {
            Some(class) => &mut self.small[class],
            None => self.large.entry(size).or_insert(None),
        }
    }

    /// Pops a chunk of `size` bytes, if one is free.
    #[inline]
    fn pop(&mut self, size: usize) -> Option<ChunkPtr> {
        let stack = match small_class(size) {
            Some(class) => &mut self.small[class],
            None => self.large.get_mut(&size)?,
        };
        let top = stack.take()?;
        // SAFETY: a chunk on a stack is owned by the pool (the caller holds its lock) and its
        // header is valid; its `next` is the chunk below it, null at the bottom.
        *stack = NonNull::new(unsafe { top.0.as_ref() }.next).map(ChunkPtr);
        self.chunks -= 1;
        self.bytes -= size;
        Some(top)
    }

    /// Pushes a chunk whose header says it has `size` bytes.
    ///
    /// # Safety
    /// `chunk` must be a chunk of `size` bytes from `allocate_chunk` that nothing else
    /// references any more (its `next` is overwritten: the caller has read it already).
    #[inline]
    unsafe fn push(&mut self, chunk: NonNull<ChunkHeader>, size: usize) {
        let stack = self.stack_mut(size);
        let below = stack.take().map_or(std::ptr::null_mut(), |c| c.0.as_ptr());
        // SAFETY: the caller hands the chunk over: nothing else reads or writes its header.
        unsafe { (*chunk.as_ptr()).next = below };
        *stack = Some(ChunkPtr(chunk));
        self.chunks += 1;
        self.bytes += size;
    }

    /// Empties every stack, handing each chunk and its size to `free`.
    fn drain(&mut self, mut free: impl FnMut(NonNull<ChunkHeader>, usize)) {
        let large = self.large.iter_mut().map(|(size, top)| (top, *size));
        let small = self
            .small
            .iter_mut()
            .enumerate()
            .map(|(class, top)| (top, (class + 1) * MIN_CHUNK_SIZE));
        for (top, size) in small.chain(large) {
            let mut next = top.take();
            while let Some(chunk) = next {
                // SAFETY: stacked chunks are owned by the pool and their headers valid; the
                // link is read before the chunk is handed on.
                next = NonNull::new(unsafe { chunk.0.as_ref() }.next).map(ChunkPtr);
                free(chunk.0, size);
            }
        }
        self.chunks = 0;
        self.bytes = 0;
    }
}

/// The device-wide pool of free chunks. Every recorder's refills and every list's drop take its
/// lock, so it lies on cache lines of its own (`align(128)`), apart from the device's fields
/// that recording reads.
#[repr(align(128))]
pub struct ChunkPool {
    free: Mutex<FreeChunks>,
    limit: usize,
}

impl ChunkPool {
    /// An empty pool keeping at most `limit` bytes of free chunks for reuse.
    pub fn new(limit: usize) -> Self {
        Self {
            free: Mutex::new(FreeChunks::default()),
            limit,
        }
    }

    /// A chunk of exactly `size` bytes (a multiple of 4 KB), header initialised. O(1): it pops
    /// the stack of its size (see [`FreeChunks`]).
    #[cold]
    pub fn take(&self, size: usize) -> NonNull<ChunkHeader> {
        let pooled = {
            let mut free = self.free.lock();
            #[cfg(test)]
            {
                free.locks += 1;
            }
            let pooled = free.pop(size);
            match pooled {
                Some(_) => free.reused += 1,
                None => free.allocated += 1,
            }
            pooled
        };
        let chunk = match pooled {
            Some(chunk) => chunk.0,
            None => allocate_chunk(size),
        };
        // SAFETY: the chunk was just popped from the free list (under its lock) or allocated, so
        // no one else holds it, and it has `size` bytes, room for the header.
        unsafe { init_header(chunk, size) };
        chunk
    }

    /// Up to `count` free chunks of exactly `size` bytes under one lock, as a chain linked by
    /// `next` (headers not initialised: each is made fresh when it is used, see
    /// [`ChunkStash`]), and how many; one newly allocated chunk when the pool has none of the
    /// size. So a bundle recorder takes its bundles' first chunks `count` at a time: one lock
    /// per batch, not per bundle. O(count).
    #[cold]
    pub fn take_batch(&self, size: usize, count: u32) -> (NonNull<ChunkHeader>, u32) {
        let popped = {
            let mut free = self.free.lock();
            #[cfg(test)]
            {
                free.locks += 1;
            }
            let mut chain: *mut ChunkHeader = std::ptr::null_mut();
            let mut taken = 0;
            while taken < count {
                let Some(chunk) = free.pop(size) else { break };
                // SAFETY: popped under the lock, so the chunk is ours alone; linking it to the
                // chain taken so far writes only its own header.
                unsafe { (*chunk.0.as_ptr()).next = chain };
                chain = chunk.0.as_ptr();
                taken += 1;
            }
            match NonNull::new(chain) {
                Some(chain) => {
                    free.reused += taken as u64;
                    Some((chain, taken))
                }
                None => {
                    free.allocated += 1;
                    None
                }
            }
        };
        popped.unwrap_or_else(|| {
            let chunk = allocate_chunk(size);
            // SAFETY: just allocated with `size` bytes, referenced by nothing else.
            unsafe { init_header(chunk, size) };
            (chunk, 1)
        })
    }

    /// Takes back a chain of chunks linked by `next`, keeping at most `limit` bytes (and the
    /// pool's own limit) of free chunks; the rest go back to the allocator. O(1) per chunk.
    ///
    /// # Safety
    /// `first` must be the head of a chain of chunks from [`take`](Self::take) that nothing else
    /// references any more.
    pub unsafe fn give_back(&self, first: *mut ChunkHeader, limit: usize) {
        let limit = limit.min(self.limit);
        let mut free = self.free.lock();
        #[cfg(test)]
        {
            free.locks += 1;
        }
        let mut next = first;
        while let Some(chunk) = NonNull::new(next) {
            // SAFETY: the caller hands over the whole chain; each header is valid.
            let header = unsafe { chunk.as_ref() };
            next = header.next;
            let size = header.size as usize;
            if free.bytes + size <= limit {
                // SAFETY: the chunk came from `take` (so from `allocate_chunk(size)`, the size
                // its header records), the caller gave it up, and its link was read above.
                unsafe { free.push(chunk, size) };
            } else {
                // SAFETY: the chunk came from `allocate_chunk(size)` and is no longer referenced.
                unsafe { free_chunk(chunk, size) };
            }
        }
    }

    /// Chunks allocated, chunks reused, and what the pool holds now.
    pub fn stats(&self) -> PoolStats {
        let free = self.free.lock();
        PoolStats {
            allocated_chunks: free.allocated,
            reused_chunks: free.reused,
            free_chunks: free.chunks as u64,
            free_bytes: free.bytes as u64,
        }
    }

    /// Times the pool's lock was taken by `take`, `take_batch` and `give_back`.
    #[cfg(test)]
    pub(crate) fn locks(&self) -> u64 {
        self.free.lock().locks
    }

    /// Fills the free list with `count` chunks of `size` bytes, so the first frame allocates none.
    /// At most the pool's limit in bytes: the pool keeps no more free chunks than that, and a
    /// `count` from the application (`Device::reserve_chunks`) may be any number.
    pub fn reserve(&self, count: usize, size: usize) {
        let size = clamp_chunk_size(size);
        let count = count.min(self.limit / size);
        let chunks: Vec<ChunkPtr> = (0..count)
            .map(|_| {
                let chunk = allocate_chunk(size);
                // SAFETY: `allocate_chunk(size)` just returned it: `size` bytes, referenced by
                // nothing else until it goes on the free list below.
                unsafe { init_header(chunk, size) };
                ChunkPtr(chunk)
            })
            .collect();
        let mut free = self.free.lock();
        free.allocated += count as u64;
        for chunk in chunks {
            // SAFETY: allocated above with `size` bytes, referenced by nothing else.
            unsafe { free.push(chunk.0, size) };
        }
    }
}

impl Drop for ChunkPool {
    fn drop(&mut self) {
        self.free.lock().drain(|chunk, size| {
            // SAFETY: the chunk came from `allocate_chunk(size)` (its stack is that of its size),
            // it is owned by the pool alone, and it leaves the free list here, so nothing reads
            // it after it is freed.
            unsafe { free_chunk(chunk, size) };
        });
    }
}

/// Writes a fresh header: no next chunk, no commands, no side records.
///
/// # Safety
/// `chunk` must be a chunk of `size` bytes that nothing else uses.
pub(crate) unsafe fn init_header(chunk: NonNull<ChunkHeader>, size: usize) {
    // Policies clamp to MAX_CHUNK_SIZE and a refill sizes a chunk for one checked command:
    // at most LARGEST_CHUNK, which fits the `u32`s below.
    debug_assert!(size <= LARGEST_CHUNK);
    // SAFETY: the caller gives a chunk of `size` bytes that nothing else uses, so the write
    // races with nothing; every chunk is at least DATA_START bytes long, room for the header,
    // and chunks are allocated with the header's alignment.
    unsafe {
        chunk.as_ptr().write(ChunkHeader {
            next: std::ptr::null_mut(),
            size: size as u32,
            command_end: DATA_START as u32,
            side_start: size as u32,
            _reserved: 0,
        });
    }
}

fn chunk_layout(size: usize) -> Layout {
    Layout::from_size_align(size, CHUNK_ALIGN).expect("chunk sizes are clamped to MAX_CHUNK_SIZE")
}

#[cold]
fn allocate_chunk(size: usize) -> NonNull<ChunkHeader> {
    let layout = chunk_layout(size);
    // SAFETY: the layout has a non-zero size (at least MIN_CHUNK_SIZE).
    let memory = unsafe { alloc(layout) };
    match NonNull::new(memory as *mut ChunkHeader) {
        Some(chunk) => chunk,
        None => std::alloc::handle_alloc_error(layout),
    }
}

/// # Safety
/// `chunk` must come from `allocate_chunk(size)` and be referenced nowhere else.
unsafe fn free_chunk(chunk: NonNull<ChunkHeader>, size: usize) {
    // SAFETY: `chunk` came from `allocate_chunk(size)`, which allocates with
    // `chunk_layout(size)`, so this is the layout it was allocated with; no one else references
    // it (the caller's contract), so nothing uses it after the free.
    unsafe { dealloc(chunk.as_ptr() as *mut u8, chunk_layout(size)) };
}
