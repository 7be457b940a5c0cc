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

use std::ptr::NonNull;
use std::sync::Arc;

use crate::limits::{DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MAX_COMMAND_BYTES, MIN_CHUNK_SIZE};

mod chunk_writer;
mod device_pool;
mod stash;

pub(crate) use chunk_writer::*;
pub use device_pool::*;

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
    /// A fence that kicks off its segment (R-FX-6, `fences.rs`): the run of commands ends after
    /// it. Nothing to do for it when the list is dropped.
    KickOff = 4,
}

#[inline]
pub(crate) const fn side_record(kind: SideKind, offset: u32) -> u64 {
    (kind as u64) << 32 | offset as u64
}

#[cfg(test)]
mod tests {
    use super::device_pool::{small_class, SMALL_CLASSES};
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
