//! Chunks: the memory command lists are recorded into (R-REC-3, R-REC-4).
//!
//! A chunk is one block from the global allocator, 64 KB by default. Its header links it to the
//! next chunk of the same list; commands grow up from the header, side records (the offsets of
//! split points and nested lists, which execution needs without walking every command) grow down
//! from the end. A command never straddles two chunks.
//!
//! ```text
//! [ChunkHeader][commands -->            <-- side records]
//!              ^data_start  ^cursor     ^side           ^size
//! ```
//!
//! Chunks come from the device-wide [`ChunkPool`] and go back to it when the list that owns them
//! drops; the pool keeps up to its limit and frees the rest. After a warm-up frame, recording takes
//! every chunk from the pool: no heap allocation in steady state.
//!
//! The pool keeps one stack of free chunks per size, linked through the chunks' own headers, so
//! taking and giving back a chunk is O(1) whatever the pool holds (R-REC-3, R-REC-4): thousands of
//! 64 KB chunks left by big lists cost nothing to a bundle taking a 4 KB one.

use std::alloc::{alloc, dealloc, Layout};
use std::collections::BTreeMap;
use std::ptr::NonNull;
use std::sync::Arc;

use crate::command::CommandBytes;
use crate::limits::{DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MAX_COMMAND_BYTES, MIN_CHUNK_SIZE};
use crate::sync::Mutex;

mod stash;

use stash::ChunkStash;

/// Alignment of chunks and of every command in them.
pub(crate) const COMMAND_ALIGN: usize = 8;
const CHUNK_ALIGN: usize = 64;

/// The start of every chunk.
#[repr(C, align(8))]
pub struct ChunkHeader {
    /// Next chunk of the same list, or null.
    pub(crate) next: *mut ChunkHeader,
    /// Bytes in the chunk, header included.
    pub(crate) size: u32,
    /// Offset one past the last command (set when the chunk is sealed).
    pub(crate) command_end: u32,
    /// Offset of the lowest side record (set when the chunk is sealed); they run to `size`.
    pub(crate) side_start: u32,
    _reserved: u32,
}

#[cfg(loom)]
impl ChunkHeader {
    /// Bytes in the chunk, header included: for the pool's loom models.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The next chunk of the chain (a batch from `ChunkPool::take_batch`), or null.
    pub fn next(&self) -> *mut ChunkHeader {
        self.next
    }
}

/// The largest chunk a writer ever takes: a policy's largest, or one made for the largest
/// command and its side record. Its size and every offset in it fit the header's `u32`s.
pub(crate) const LARGEST_CHUNK: usize = {
    let for_command = (DATA_START + MAX_COMMAND_BYTES + 8).next_multiple_of(MIN_CHUNK_SIZE);
    if for_command > MAX_CHUNK_SIZE {
        for_command
    } else {
        MAX_CHUNK_SIZE
    }
};
const _: () = assert!(LARGEST_CHUNK <= u32::MAX as usize);

/// Offset of the first command in a chunk.
pub(crate) const DATA_START: usize = std::mem::size_of::<ChunkHeader>();
const _: () = assert!(DATA_START.is_multiple_of(COMMAND_ALIGN) && DATA_START == 24);

/// How the next chunk of a list is sized (the seeds' XMemSetAllocationHooks, R-REC-4).
#[derive(Clone)]
pub enum GrowthPolicy {
    /// Every chunk has the policy's chunk size.
    Fixed,
    /// Each chunk of a list is twice the previous, up to `max` bytes.
    Doubling {
        /// The largest chunk size, in bytes.
        max: usize,
    },
    /// `f(chunk index within the list, previous size)` gives the next size.
    Custom(Arc<dyn Fn(u32, usize) -> usize + Send + Sync>),
}

impl std::fmt::Debug for GrowthPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Fixed => f.write_str("Fixed"),
            Self::Doubling { max } => write!(f, "Doubling {{ max: {max} }}"),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

/// Allocation hooks: chunk size, growth and how much the pool keeps (R-REC-4).
#[derive(Clone, Debug)]
pub struct ChunkPolicy {
    /// Size of a list's first chunk, 64 KB by default.
    pub chunk_size: usize,
    /// How the chunks after the first are sized.
    pub growth: GrowthPolicy,
    /// Bytes of free chunks the device's pool keeps for reuse; the rest go back to the allocator.
    /// A context's own policy caps what its lists return, within the device's limit.
    pub pool_limit: usize,
}

impl Default for ChunkPolicy {
    fn default() -> Self {
        Self {
            chunk_size: DEFAULT_CHUNK_SIZE,
            growth: GrowthPolicy::Fixed,
            pool_limit: 256 << 20,
        }
    }
}

impl ChunkPolicy {
    /// Size of chunk `index` of a list (0 is the first), given the previous one's size.
    pub(crate) fn size_of(&self, index: u32, previous: usize) -> usize {
        let wanted = match &self.growth {
            _ if index == 0 => self.chunk_size,
            GrowthPolicy::Fixed => self.chunk_size,
            GrowthPolicy::Doubling { max } => previous.saturating_mul(2).min(*max),
            GrowthPolicy::Custom(next) => next(index, previous),
        };
        clamp_chunk_size(wanted)
    }
}

impl ChunkPolicy {
    /// The size of a list's first chunk that holds `used` bytes (header included) in one chunk,
    /// when the policy doubles: the smallest of the sizes it makes (`chunk_size`, twice that,
    /// and so on) that holds them, at most its largest. `None` for the other growths, whose first
    /// chunk is always `chunk_size`. A recorder that finishes a list of `used` bytes sizes its
    /// next first chunk so (a bundle recorder, `Role::SIZES_FIRST_CHUNK`): like lists then take
    /// one chunk each, and every chunk size is still one the policy makes, so the pool sees no
    /// new size.
    pub(crate) fn first_size_for(&self, used: usize) -> Option<usize> {
        let GrowthPolicy::Doubling { max } = self.growth else {
            return None;
        };
        let largest = clamp_chunk_size(max).max(clamp_chunk_size(self.chunk_size));
        let mut size = clamp_chunk_size(self.chunk_size);
        while size < used && size < largest {
            size = clamp_chunk_size(size.saturating_mul(2).min(largest));
        }
        Some(size)
    }
}

/// Rounds a requested size to a multiple of 4 KB within the allowed range.
pub(crate) fn clamp_chunk_size(size: usize) -> usize {
    size.clamp(MIN_CHUNK_SIZE, MAX_CHUNK_SIZE)
        .next_multiple_of(MIN_CHUNK_SIZE)
}

/// A chunk owned by whoever holds this (a pool, a writer or a finished list).
#[derive(Debug)]
pub(crate) struct ChunkPtr(pub(crate) NonNull<ChunkHeader>);

// SAFETY: a chunk is plain memory reached only through its one owner.
unsafe impl Send for ChunkPtr {}

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
const SMALL_CLASSES: usize = (1 << 20) / MIN_CHUNK_SIZE;

/// The size class of a chunk of `size` bytes: its index in [`FreeChunks::small`], or `None` for
/// a size kept in [`FreeChunks::large`].
#[inline]
fn small_class(size: usize) -> Option<usize> {
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
    pub fn reserve(&self, count: usize, size: usize) {
        let size = clamp_chunk_size(size);
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
unsafe fn init_header(chunk: NonNull<ChunkHeader>, size: usize) {
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

/// A side record: where in its chunk a command that execution must stop at lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum SideKind {
    /// A split point (R-SP-4).
    Split = 1,
    /// A nested command list (R-REC-9).
    Nested = 2,
    /// A bundle call (R-B-10): execution stops at it like at a nested list; dropping a fast
    /// list has nothing to do for it (the call holds no reference), so it need not be decoded.
    Bundle = 3,
    /// A fence that kicks off its segment (R-FX-6, `fence.rs`): the run of commands ends after
    /// it. Nothing to do for it when the list is dropped.
    KickOff = 4,
}

#[inline]
pub(crate) const fn side_record(kind: SideKind, offset: u32) -> u64 {
    (kind as u64) << 32 | offset as u64
}

/// Bump-allocates commands into a chain of chunks. Owned by one deferred context: `!Sync`.
pub(crate) struct ChunkWriter {
    /// Next free command byte in the current chunk.
    cursor: *mut u8,
    /// Lowest side-record byte in the current chunk; commands must stay below it.
    side: *mut u8,
    current: *mut ChunkHeader,
    first: *mut ChunkHeader,
    /// Chunks in the chain.
    pub(crate) chunks: u32,
    /// Side records in the chain (split points and nested lists).
    pub(crate) side_records: u32,
    /// Bytes of commands and side records written in sealed chunks.
    sealed_bytes: u64,
    /// The size of the next chain's first chunk, 0 for the policy's (`ChunkPolicy::size_of`):
    /// set by [`size_next_first_chunk`](Self::size_next_first_chunk), kept from chain to chain.
    first_size: usize,
    /// Where first chunks of `first_size` come from, once it is set; kept from chain to chain.
    stash: ChunkStash,
}

impl ChunkWriter {
    pub(crate) const fn new() -> Self {
        Self {
            cursor: std::ptr::null_mut(),
            side: std::ptr::null_mut(),
            current: std::ptr::null_mut(),
            first: std::ptr::null_mut(),
            chunks: 0,
            side_records: 0,
            sealed_bytes: 0,
            first_size: 0,
            stash: ChunkStash::EMPTY,
        }
    }

    /// Gives the chunks taken ahead for later first chunks back to `pool` (the recorder's
    /// drop).
    pub(crate) fn give_back_stash(&mut self, pool: &ChunkPool, pool_limit: usize) {
        self.stash.give_back(pool, pool_limit);
    }

    /// Sizes the next chain's first chunk to hold the chain written so far in one chunk, as
    /// `policy` allows ([`ChunkPolicy::first_size_for`]; nothing changes for a policy that does
    /// not double). Called before the chain is handed over, with everything written.
    pub(crate) fn size_next_first_chunk(&mut self, policy: &ChunkPolicy) {
        let used = DATA_START as u64 + self.bytes();
        if let Some(size) = policy.first_size_for(usize::try_from(used).unwrap_or(usize::MAX)) {
            self.first_size = size;
        }
    }

    /// The first chunk of the chain, or null before anything was written.
    pub(crate) fn first(&self) -> *mut ChunkHeader {
        self.first
    }

    /// Reserves `size` bytes for a command, plus one side record when `side` is given, in the
    /// current chunk. Returns the command's address. `size` was checked where it was made (a
    /// multiple of 8, at most `MAX_COMMAND_BYTES`), so every chunk size and offset below fits
    /// the `u32`s of the chunk header (see [`LARGEST_CHUNK`]).
    #[inline(always)]
    pub(crate) fn reserve(
        &mut self,
        size: CommandBytes,
        side: Option<SideKind>,
        pool: &ChunkPool,
        policy: &ChunkPolicy,
    ) -> *mut u8 {
        let size = size.get();
        debug_assert!(size.is_multiple_of(COMMAND_ALIGN));
        let needed = size + if side.is_some() { 8 } else { 0 };
        // Before the first chunk both pointers are null: the difference is 0 and we refill.
        if (self.side as usize).wrapping_sub(self.cursor as usize) < needed {
            self.refill(needed, pool, policy);
        }
        let command = self.cursor;
        // SAFETY: `needed` bytes lie between cursor and side in the current chunk (checked or
        // made so by `refill`).
        unsafe {
            self.cursor = self.cursor.add(size);
            if let Some(kind) = side {
                self.side_records += 1;
                self.side = self.side.sub(8);
                let offset = command as usize - self.current as usize;
                (self.side as *mut u64).write(side_record(kind, offset as u32));
            }
        }
        command
    }

    /// Takes back the most recent reservation, made at `command` (with its side record if
    /// `side`). Nothing may have been reserved since.
    #[inline]
    pub(crate) fn unreserve(&mut self, command: *mut u8, side: bool) {
        self.cursor = command;
        if side {
            self.side_records -= 1;
            // SAFETY: the reservation pushed one side record; this pops it.
            self.side = unsafe { self.side.add(8) };
        }
    }

    /// Seals the current chunk and links in a new one that holds at least `needed` bytes.
    #[cold]
    #[inline(never)]
    fn refill(&mut self, needed: usize, pool: &ChunkPool, policy: &ChunkPolicy) {
        let previous = if self.current.is_null() {
            0
        } else {
            // SAFETY: `current` is non-null (checked above): the open chunk this writer took from
            // the pool, which no one else references and whose header is initialised.
            unsafe { (*self.current).size as usize }
        };
        let mut size = match self.first_size {
            hinted if hinted != 0 && self.chunks == 0 => hinted,
            _ => policy.size_of(self.chunks, previous),
        };
        if size < DATA_START + needed {
            size = clamp_chunk_size(DATA_START + needed).max(DATA_START + needed);
            size = size.next_multiple_of(crate::limits::MIN_CHUNK_SIZE);
        }
        let chunk = if self.chunks == 0 && self.first_size == size {
            self.stash.take(size, pool, policy.pool_limit)
        } else {
            pool.take(size).as_ptr()
        };
        self.seal();
        if self.current.is_null() {
            self.first = chunk;
        } else {
            // SAFETY: `current` is ours and sealed; linking keeps the chain owned by this writer.
            unsafe { (*self.current).next = chunk };
        }
        self.current = chunk;
        self.chunks += 1;
        // SAFETY: the pool handed out `chunk` with `size` bytes and its header initialised, so
        // `DATA_START` and `size` are offsets within (or one past the end of) one allocation.
        unsafe {
            self.cursor = (chunk as *mut u8).add(DATA_START);
            self.side = (chunk as *mut u8).add(size);
        }
    }

    /// Writes the current chunk's command end and side start into its header, so the chain can
    /// be walked as it stands; recording may go on afterwards.
    pub(crate) fn seal_in_place(&mut self) {
        if let Some(current) = NonNull::new(self.current) {
            let base = current.as_ptr() as usize;
            // SAFETY: `current` is the open chunk this writer took from the pool and alone
            // references until it hands the chain over, so a unique borrow of its header is sound.
            let header = unsafe { &mut *current.as_ptr() };
            // Both offsets lie within the chunk, at most LARGEST_CHUNK bytes: they fit.
            header.command_end = (self.cursor as usize - base) as u32;
            header.side_start = (self.side as usize - base) as u32;
        }
    }

    /// Seals the current chunk for good before the writer moves on from it.
    fn seal(&mut self) {
        self.seal_in_place();
        if let Some(current) = NonNull::new(self.current) {
            // SAFETY: `current` is the chunk this writer alone references, sealed just above; its
            // header is initialised and not written while this borrow lives.
            let header = unsafe { &*current.as_ptr() };
            self.sealed_bytes += (header.command_end as usize - DATA_START
                + (header.size - header.side_start) as usize)
                as u64;
        }
    }

    /// Bytes written so far: commands, payloads and side records.
    pub(crate) fn bytes(&self) -> u64 {
        let open = if self.current.is_null() {
            0
        } else {
            let base = self.current as usize;
            // SAFETY: `current` is non-null (checked above) and is the open chunk this writer took
            // from the pool and alone writes; its header is initialised.
            let size = unsafe { (*self.current).size } as usize;
            (self.cursor as usize - base - DATA_START) + (base + size - self.side as usize)
        };
        self.sealed_bytes + open as u64
    }

    /// Seals the chain and hands it over; the writer starts empty again.
    pub(crate) fn take_chain(&mut self) -> *mut ChunkHeader {
        self.take_chain_ends().0
    }

    /// Seals the chain and hands over its first and last chunks.
    pub(crate) fn take_chain_ends(&mut self) -> (*mut ChunkHeader, *mut ChunkHeader) {
        self.seal();
        let ends = (self.first, self.current);
        *self = Self {
            first_size: self.first_size,
            stash: std::mem::replace(&mut self.stash, ChunkStash::EMPTY),
            ..Self::new()
        };
        ends
    }
}

// SAFETY: the writer exclusively owns the chunks it points to (its chain, and the free chunks of
// its stash); moving it to another thread moves that ownership. It is not `Sync` (raw pointers),
// so one thread writes at a time.
unsafe impl Send for ChunkWriter {}

/// Walks the commands of one sealed chunk, and its side records.
pub(crate) struct ChunkView {
    pub(crate) base: *const u8,
    pub(crate) command_end: usize,
    pub(crate) side_start: usize,
    pub(crate) size: usize,
}

impl ChunkView {
    /// # Safety
    /// `chunk` must be a sealed chunk that stays alive while the view is used.
    pub(crate) unsafe fn new(chunk: *const ChunkHeader) -> Self {
        // SAFETY: the caller guarantees `chunk` is a sealed chunk alive for the view's use;
        // sealed chunks are never written again, so a shared reference to the header is sound.
        let header = unsafe { &*chunk };
        Self {
            base: chunk as *const u8,
            command_end: header.command_end as usize,
            side_start: header.side_start as usize,
            size: header.size as usize,
        }
    }

    /// Side records in recording order (they were pushed downwards from the end).
    pub(crate) fn side_records(&self) -> impl Iterator<Item = (SideKind, u32)> + '_ {
        let count = (self.size - self.side_start) / 8;
        (0..count).map(move |i| {
            let at = self.size - 8 * (i + 1);
            // SAFETY: side records occupy [side_start, size) of a sealed chunk, 8-aligned.
            let record = unsafe { (self.base.add(at) as *const u64).read() };
            let kind = match record >> 32 {
                k if k == SideKind::Nested as u64 => SideKind::Nested,
                k if k == SideKind::Bundle as u64 => SideKind::Bundle,
                k if k == SideKind::KickOff as u64 => SideKind::KickOff,
                _ => SideKind::Split,
            };
            (kind, record as u32)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes a chunk of `size` bytes and gives it straight back.
    fn cycle(pool: &ChunkPool, size: usize) {
        let chunk = pool.take(size);
        // SAFETY: a chain of one chunk from `take`, referenced nowhere else.
        unsafe { pool.give_back(chunk.as_ptr(), usize::MAX) };
    }

    /// R-REC-3, R-REC-4: a pool full of chunks of one size hands out chunks of another size in
    /// O(1), reusing what it has of that size and allocating only when it has none. (Before the
    /// per-size stacks, each of these takes scanned every free chunk: 16,384 here.)
    #[test]
    fn r_rec_3_r_rec_4_a_full_pool_takes_and_gives_back_by_size_class() {
        const FULL: usize = 16_384;
        const TAKES: u64 = 100_000;
        let pool = ChunkPool::new(usize::MAX);
        pool.reserve(FULL, MIN_CHUNK_SIZE);
        let full = pool.stats();
        assert_eq!(
            full,
            PoolStats {
                allocated_chunks: FULL as u64,
                reused_chunks: 0,
                free_chunks: FULL as u64,
                free_bytes: (FULL * MIN_CHUNK_SIZE) as u64,
            }
        );

        // A small class (8 KB) and a large one (2 MB, past the direct classes): the first take
        // of each allocates, every later one reuses the chunk just given back.
        for size in [2 * MIN_CHUNK_SIZE, 2 << 20] {
            let before = pool.stats();
            for _ in 0..TAKES {
                cycle(&pool, size);
            }
            let after = pool.stats();
            assert_eq!(
                after.allocated_chunks,
                before.allocated_chunks + 1,
                "{size}"
            );
            assert_eq!(
                after.reused_chunks,
                before.reused_chunks + TAKES - 1,
                "{size}"
            );
            assert_eq!(after.free_chunks, before.free_chunks + 1, "{size}");
            assert_eq!(after.free_bytes, before.free_bytes + size as u64, "{size}");
        }

        // The chunks of the first size are all still there, and come out one by one.
        let before = pool.stats();
        let taken: Vec<_> = (0..FULL).map(|_| pool.take(MIN_CHUNK_SIZE)).collect();
        let after = pool.stats();
        assert_eq!(after.allocated_chunks, before.allocated_chunks);
        assert_eq!(after.reused_chunks, before.reused_chunks + FULL as u64);
        assert_eq!(after.free_chunks, 2);
        let mut addresses: Vec<usize> = taken.iter().map(|c| c.as_ptr() as usize).collect();
        addresses.sort_unstable();
        addresses.dedup();
        assert_eq!(addresses.len(), FULL, "a chunk was handed out twice");
        for chunk in &taken {
            // SAFETY: the pool initialised every header it handed out.
            let header = unsafe { chunk.as_ref() };
            assert_eq!(header.size as usize, MIN_CHUNK_SIZE);
            assert!(header.next.is_null());
        }
        // One more of that size: none left, so it is allocated.
        cycle(&pool, MIN_CHUNK_SIZE);
        assert_eq!(pool.stats().allocated_chunks, after.allocated_chunks + 1);

        // Giving them back as one chain keeps the limit: a pool allowed 10 more chunks keeps 10.
        for pair in taken.windows(2) {
            // SAFETY: the chunks are ours; linking them makes one chain of them all.
            unsafe { (*pair[0].as_ptr()).next = pair[1].as_ptr() };
        }
        let before = pool.stats();
        let limit = before.free_bytes as usize + 10 * MIN_CHUNK_SIZE;
        // SAFETY: the chain of every chunk taken above, referenced nowhere else.
        unsafe { pool.give_back(taken[0].as_ptr(), limit) };
        let after = pool.stats();
        assert_eq!(after.free_chunks, before.free_chunks + 10);
        assert_eq!(after.free_bytes as usize, limit);
    }

    /// R-REC-4: a first chunk sized for a finished list is one of the sizes the doubling policy
    /// makes (the smallest that holds it, at most the largest); other policies keep theirs.
    #[test]
    fn r_rec_4_a_first_chunk_is_sized_within_the_doubling_policy() {
        let doubling = ChunkPolicy {
            chunk_size: MIN_CHUNK_SIZE,
            growth: GrowthPolicy::Doubling { max: 64 << 10 },
            pool_limit: usize::MAX,
        };
        for (used, size) in [
            (0, 4 << 10),
            (DATA_START + 100, 4 << 10),
            (4 << 10, 4 << 10),
            ((4 << 10) + 1, 8 << 10),
            (5_800, 8 << 10),
            (20 << 10, 32 << 10),
            (64 << 10, 64 << 10),
            (1 << 20, 64 << 10),
            (usize::MAX, 64 << 10),
        ] {
            assert_eq!(doubling.first_size_for(used), Some(size), "{used} bytes");
        }
        let odd = ChunkPolicy {
            chunk_size: 12 << 10,
            growth: GrowthPolicy::Doubling { max: 40 << 10 },
            pool_limit: usize::MAX,
        };
        assert_eq!(odd.first_size_for(1), Some(12 << 10));
        assert_eq!(odd.first_size_for(13 << 10), Some(24 << 10));
        assert_eq!(odd.first_size_for(30 << 10), Some(40 << 10));
        let fixed = ChunkPolicy {
            chunk_size: MIN_CHUNK_SIZE,
            ..ChunkPolicy::default()
        };
        assert_eq!(fixed.first_size_for(50 << 10), None);
        let custom = ChunkPolicy {
            growth: GrowthPolicy::Custom(Arc::new(|_, previous| previous * 3)),
            ..fixed
        };
        assert_eq!(custom.first_size_for(50 << 10), None);
    }

    /// R-REC-3: a bundle recorder's steady stream of like bundles takes the pool's lock once per
    /// [`FIRST_CHUNK_BATCH`] bundles (each bundle one first chunk, sized from the last, taken from
    /// the recorder's stash), where it took it twice per bundle (a 4 KB chunk outgrown into an
    /// 8 KB one); dropping the recorder gives the stash back.
    #[test]
    fn r_rec_3_like_bundles_take_the_pool_lock_once_per_batch() {
        let device = crate::Device::new(crate::DeviceDesc::default());
        let pool = &device.shared.pool;
        let mut recorder = device.bundle_recorder("b", None);
        let mut record = || {
            for _ in 0..300 {
                recorder.draw(3, 0);
            }
            recorder.finish_bundle().expect("bundle")
        };
        let first = record();
        assert!(first.stats().bytes > 4096, "{:?}", first.stats());
        assert_eq!(first.stats().chunks, 2, "the first bundle outgrows 4 KB");
        let warm: Vec<_> = (0..70).map(|_| record()).collect();
        drop(warm);

        let before = pool.locks();
        let bundles: Vec<_> = (0..64).map(|_| record()).collect();
        let locks = pool.locks() - before;
        assert!(
            (8..=9).contains(&locks),
            "64 bundles took the pool's lock {locks} times"
        );
        assert!(bundles.iter().all(|bundle| bundle.stats().chunks == 1));
        let allocated = pool.stats().allocated_chunks;
        drop((first, bundles, record));
        drop(recorder);
        let stats = pool.stats();
        assert_eq!(stats.allocated_chunks, allocated);
        assert_eq!(stats.free_chunks, allocated, "a chunk was kept: {stats:?}");
    }

    /// Sizes outside the direct classes (not a multiple of 4 KB, or under it) still pair up
    /// exactly: a chunk is only ever handed out for the size it has.
    #[test]
    fn odd_sizes_get_their_own_stack() {
        assert_eq!(small_class(MIN_CHUNK_SIZE), Some(0));
        assert_eq!(small_class(1 << 20), Some(SMALL_CLASSES - 1));
        assert_eq!(small_class((1 << 20) + MIN_CHUNK_SIZE), None);
        assert_eq!(small_class(MIN_CHUNK_SIZE + 8), None);
        assert_eq!(small_class(64), None);
        let pool = ChunkPool::new(usize::MAX);
        for size in [MIN_CHUNK_SIZE + 64, 2 << 20, MIN_CHUNK_SIZE] {
            cycle(&pool, size);
        }
        for size in [MIN_CHUNK_SIZE, 2 << 20, MIN_CHUNK_SIZE + 64] {
            let chunk = pool.take(size);
            // SAFETY: the pool initialised the header of the chunk it handed out.
            assert_eq!(unsafe { chunk.as_ref() }.size as usize, size);
            // SAFETY: a chain of one chunk from `take`, referenced nowhere else.
            unsafe { pool.give_back(chunk.as_ptr(), usize::MAX) };
        }
        let stats = pool.stats();
        assert_eq!((stats.allocated_chunks, stats.reused_chunks), (3, 3));
    }
}
