//! A bundle recorder's first chunks, taken from the device's pool a batch at a time
//! ([`ChunkStash`]): the pool's lock once per [`FIRST_CHUNK_BATCH`] bundles, not once per bundle.

use std::ptr::NonNull;

use super::{init_header, ChunkHeader, ChunkPool};

/// How many first chunks a bundle recorder takes from the pool at once (see [`ChunkStash`]):
/// one pool lock per 8 bundles. A recorder keeps at most this many unused chunks (8 of 8 KB for
/// bundles of 100 draws), given back when its size changes or the recorder drops.
pub(crate) const FIRST_CHUNK_BATCH: u32 = 8;

/// Free chunks of one size, taken from the pool as a batch ([`ChunkPool::take_batch`]) and
/// linked by their headers' `next`, that a writer whose first chunks are sized
/// ([`size_next_first_chunk`](super::ChunkWriter::size_next_first_chunk)) takes its lists'
/// first chunks from: one pool lock per [`FIRST_CHUNK_BATCH`] lists instead of one each. Owned
/// by its writer, so `!Sync`; what it holds goes back to the pool with
/// [`give_back_stash`](super::ChunkWriter::give_back_stash).
pub(super) struct ChunkStash {
    top: *mut ChunkHeader,
    /// The size of every chunk in it.
    size: usize,
}

impl ChunkStash {
    pub(super) const EMPTY: Self = Self {
        top: std::ptr::null_mut(),
        size: 0,
    };

    /// A chunk of `size` bytes, header initialised: from the stash, refilled from `pool` when
    /// it is empty. A stash of another size goes back to the pool first.
    #[inline]
    pub(super) fn take(
        &mut self,
        size: usize,
        pool: &ChunkPool,
        pool_limit: usize,
    ) -> *mut ChunkHeader {
        if self.size != size || self.top.is_null() {
            self.refill(size, pool, pool_limit);
        }
        let chunk = self.top;
        // SAFETY: `refill` left at least one chunk: the top of a chain of chunks of `size`
        // bytes that this stash alone owns, each from `allocate_chunk(size)` with its `size`
        // field set; it leaves the stash here and gets a fresh header.
        unsafe {
            self.top = (*chunk).next;
            init_header(NonNull::new_unchecked(chunk), size);
        }
        chunk
    }

    #[cold]
    #[inline(never)]
    fn refill(&mut self, size: usize, pool: &ChunkPool, pool_limit: usize) {
        self.give_back(pool, pool_limit);
        let (chain, _taken) = pool.take_batch(size, FIRST_CHUNK_BATCH);
        *self = Self {
            top: chain.as_ptr(),
            size,
        };
    }

    /// Gives every chunk back to `pool` (keeping at most `pool_limit` bytes there, as a list's
    /// drop does).
    pub(super) fn give_back(&mut self, pool: &ChunkPool, pool_limit: usize) {
        if !self.top.is_null() {
            // SAFETY: the stash owns the chain (taken from the pool, linked by `next`, the
            // last one's null), and forgets it below: nothing references it after this.
            unsafe { pool.give_back(self.top, pool_limit) };
        }
        *self = Self::EMPTY;
    }
}
