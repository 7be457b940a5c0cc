//! Writing and reading chunks: [`ChunkWriter`] bump-allocates commands up from a chunk's header
//! and side records down from its end, chaining a new chunk when one is full; [`ChunkView`]
//! walks a sealed chunk's commands and side records.
//!
//! **In:** commands of a known size from one recording thread. **Out:** a sealed chain of chunks.
//!
//! **Invariant.** A command never straddles two chunks, and commands stay below the side records;
//! writing into the current chunk is the hot path (`#[inline]`), refilling it is `#[cold]`.

use super::*;
use crate::command::CommandBytes;
use stash::ChunkStash;
use std::ptr::NonNull;

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
