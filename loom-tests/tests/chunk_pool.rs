//! Models of `ChunkPool` (`recorder/src/chunk.rs`): the device-wide free chunks behind a mutex, one
//! intrusive stack per size (linked through the chunks' headers), with the counters under the
//! same mutex, shared by every deferred context and every dropping list.
#![cfg(loom)]

use loom::sync::{Arc, Mutex};
use loom_tests::{check, spawn};
use recorder::loom_exports::ChunkPool;
use recorder::PoolStats;

/// The smallest chunk size (4 KB): models need no more.
const SIZE: usize = 4096;
/// Where in a chunk's body an owner writes its token (past the 24-byte header).
const TOKEN_OFFSET: usize = 64;
/// Branch points: the models' own steps (a few dozen) with room to spare.
const POOL_BRANCHES: usize = 4096;

/// One owner's turn: take a chunk, check nobody else holds it, stamp it, give it back.
fn borrow_a_chunk(pool: &ChunkPool, owners: &Mutex<Vec<usize>>, token: u64) {
    borrow_a_chunk_of(pool, owners, token, SIZE);
}

/// [`borrow_a_chunk`] for a chunk of `size` bytes, which must be the size the pool hands out.
fn borrow_a_chunk_of(pool: &ChunkPool, owners: &Mutex<Vec<usize>>, token: u64, size: usize) {
    let chunk = pool.take(size);
    // SAFETY: `take` initialised the header of the chunk it handed to this thread alone.
    let header_size = unsafe { chunk.as_ref() }.size();
    assert_eq!(header_size, size, "a chunk of another size was handed out");
    let address = chunk.as_ptr() as usize;
    {
        let mut owners = owners.lock().unwrap();
        assert!(
            !owners.contains(&address),
            "chunk {address:#x} handed to two owners at once"
        );
        owners.push(address);
    }
    // SAFETY: `take` hands out a chunk of SIZE bytes that this thread alone owns until it gives
    // it back; TOKEN_OFFSET + 8 lies inside it and is 8-aligned (chunks are 64-aligned).
    let stamp = unsafe { (chunk.as_ptr() as *mut u8).add(TOKEN_OFFSET) as *mut u64 };
    // SAFETY: `stamp` points 8-aligned inside the chunk this thread owns (computed above), and
    // no other thread writes a chunk it does not own, so the write races with nothing.
    unsafe { stamp.write(token) };
    {
        // The other thread may run here; if it held the same chunk it would overwrite the token.
        let mut owners = owners.lock().unwrap();
        // SAFETY: `stamp` is still inside the chunk this thread owns (it gives the chunk back only
        // below), 8-aligned and written by this thread just before.
        assert_eq!(
            unsafe { stamp.read() },
            token,
            "chunk {address:#x} written by another owner"
        );
        owners.retain(|&owned| owned != address);
    }
    // SAFETY: the chunk came from `take`, its `next` is null (a chain of one), and this thread
    // no longer references it.
    unsafe { pool.give_back(chunk.as_ptr(), usize::MAX) };
}

/// How a model's pool gets its one free chunk before the threads start.
#[derive(Clone, Copy)]
enum Prefill {
    /// A take and a give-back on the main thread: the path every finished list follows.
    Returned,
    /// `ChunkPool::reserve(1, SIZE)`: what `Device::reserve_chunks` does before the first frame.
    Reserved,
}

/// Two threads each take one chunk and give it back, on a pool that starts with one free chunk
/// (see [`Prefill`]) and is allowed to keep up to `limit` bytes. Returns the final statistics
/// after checking that every take was counted once and the free list's bytes add up.
fn two_borrowers(limit: usize, prefill: Prefill) -> PoolStats {
    let pool = Arc::new(ChunkPool::new(limit));
    match prefill {
        Prefill::Returned => {
            let chunk = pool.take(SIZE);
            // SAFETY: a chain of one chunk from `take`, referenced nowhere else.
            unsafe { pool.give_back(chunk.as_ptr(), usize::MAX) };
        }
        Prefill::Reserved => pool.reserve(1, SIZE),
    }
    let owners = Arc::new(Mutex::new(Vec::new()));

    let other = {
        let (pool, owners) = (pool.clone(), owners.clone());
        spawn(move || borrow_a_chunk(&pool, &owners, 0xB))
    };
    borrow_a_chunk(&pool, &owners, 0xA);
    other.join().unwrap();

    assert!(owners.lock().unwrap().is_empty());
    let stats = pool.stats();
    // One free chunk to start with, two takes: each take reused a free chunk or allocated one.
    assert_eq!(
        stats.allocated_chunks + stats.reused_chunks,
        1 + 2,
        "takes miscounted: {stats:?}"
    );
    assert!(
        (1..=2).contains(&stats.allocated_chunks),
        "the free chunk was never reused: {stats:?}"
    );
    assert_eq!(
        stats.free_bytes,
        stats.free_chunks * SIZE as u64,
        "the free list's sizes do not add up: {stats:?}"
    );
    stats
}

/// Two threads take and give back concurrently on a pool that keeps everything: each chunk has
/// one owner at a time, the counters add up, and every chunk ever allocated ends in the free list
/// (none lost, none freed).
#[test]
fn take_and_give_back_concurrently() {
    check(POOL_BRANCHES, || {
        let stats = two_borrowers(usize::MAX, Prefill::Returned);
        assert_eq!(
            stats.free_chunks, stats.allocated_chunks,
            "a chunk was lost or freed: {stats:?}"
        );
    });
}

/// As above on a pool that keeps one chunk: when both chunks come back, the second is freed (once:
/// a double free would abort the model) and exactly one stays in the free list.
#[test]
fn give_back_over_the_limit_frees_once() {
    check(POOL_BRANCHES, || {
        let stats = two_borrowers(SIZE, Prefill::Returned);
        assert_eq!(stats.free_chunks, 1, "{stats:?}");
        assert_eq!(stats.free_bytes, SIZE as u64, "{stats:?}");
    });
}

/// The first model on a pool filled by `reserve` instead: the reserved chunk must be handed out
/// like any returned one, and counted as such. (This once failed: `reserve` pushed chunks without
/// writing their headers, so their sizes were garbage; it now initialises them as `take` does.)
#[test]
fn reserved_chunk_taken_and_given_back_concurrently() {
    check(POOL_BRANCHES, || {
        let stats = two_borrowers(usize::MAX, Prefill::Reserved);
        assert_eq!(
            stats.free_chunks, stats.allocated_chunks,
            "a chunk was lost or freed: {stats:?}"
        );
    });
}

/// Two threads take and give back chunks of two sizes (4 KB and 8 KB) on a pool that holds one
/// of each: each size has its own stack, so each thread gets a chunk of its size (reused or
/// allocated, never the other size's), and every chunk ends on the stack of its size.
#[test]
fn two_sizes_keep_to_their_stacks() {
    check(POOL_BRANCHES, || {
        let pool = Arc::new(ChunkPool::new(usize::MAX));
        for size in [SIZE, 2 * SIZE] {
            let chunk = pool.take(size);
            // SAFETY: a chain of one chunk from `take`, referenced nowhere else.
            unsafe { pool.give_back(chunk.as_ptr(), usize::MAX) };
        }
        let owners = Arc::new(Mutex::new(Vec::new()));
        let other = {
            let (pool, owners) = (pool.clone(), owners.clone());
            spawn(move || borrow_a_chunk_of(&pool, &owners, 0xB, 2 * SIZE))
        };
        borrow_a_chunk_of(&pool, &owners, 0xA, SIZE);
        other.join().unwrap();

        let stats = pool.stats();
        // Each thread found the free chunk of its own size: nothing new was allocated.
        assert_eq!(stats.allocated_chunks, 2, "{stats:?}");
        assert_eq!(stats.reused_chunks, 2, "{stats:?}");
        assert_eq!(stats.free_chunks, 2, "{stats:?}");
        assert_eq!(stats.free_bytes, 3 * SIZE as u64, "{stats:?}");
        // And they are back on their own stacks: one take of each size reuses.
        for size in [2 * SIZE, SIZE] {
            let chunk = pool.take(size);
            // SAFETY: the header of a chunk `take` just handed out.
            assert_eq!(unsafe { chunk.as_ref() }.size(), size);
            // SAFETY: a chain of one chunk from `take`, referenced nowhere else.
            unsafe { pool.give_back(chunk.as_ptr(), usize::MAX) };
        }
        assert_eq!(pool.stats().allocated_chunks, 2);
    });
}

/// A bundle recorder's batch (`take_batch`: up to two chunks under one lock, as a chain) races
/// another owner's take and give-back on a pool that holds two free chunks. Every chunk of the
/// batch, and the other owner's, has one owner at a time; the batch never allocates while the
/// pool has a chunk of the size; and after both gave everything back, every chunk allocated is
/// in the free list (none lost, none freed, none counted twice).
#[test]
fn batch_taken_while_another_owner_takes_and_gives_back() {
    check(POOL_BRANCHES, || {
        let pool = Arc::new(ChunkPool::new(usize::MAX));
        let (a, b) = (pool.take(SIZE), pool.take(SIZE));
        // SAFETY: chains of one chunk from `take`, referenced nowhere else.
        unsafe {
            pool.give_back(a.as_ptr(), usize::MAX);
            pool.give_back(b.as_ptr(), usize::MAX);
        }
        let owners = Arc::new(Mutex::new(Vec::new()));
        let other = {
            let (pool, owners) = (pool.clone(), owners.clone());
            spawn(move || borrow_a_chunk(&pool, &owners, 0xB))
        };

        let (first, taken) = pool.take_batch(SIZE, 2);
        assert!((1..=2).contains(&taken), "a batch of {taken}");
        let mut batch = Vec::new();
        let mut next = first.as_ptr();
        while !next.is_null() {
            // SAFETY: the batch's chunks are this thread's alone; their headers are valid.
            let header = unsafe { &*next };
            assert_eq!(header.size(), SIZE, "a chunk of another size in the batch");
            batch.push(next as usize);
            next = header.next();
        }
        assert_eq!(
            batch.len(),
            taken as usize,
            "the chain does not hold the batch"
        );
        {
            let mut owners = owners.lock().unwrap();
            for address in &batch {
                assert!(
                    !owners.contains(address),
                    "chunk {address:#x} handed to two owners at once"
                );
                owners.push(*address);
            }
        }
        {
            let mut owners = owners.lock().unwrap();
            owners.retain(|owned| !batch.contains(owned));
        }
        // SAFETY: the batch's chain (linked by `next`, the last one's null), which this thread
        // alone owns and references no more.
        unsafe { pool.give_back(first.as_ptr(), usize::MAX) };
        other.join().unwrap();

        let stats = pool.stats();
        assert_eq!(
            stats.reused_chunks + stats.allocated_chunks,
            2 + taken as u64 + 1,
            "takes miscounted: {stats:?}"
        );
        assert!(
            (2..=3).contains(&stats.allocated_chunks),
            "allocated {stats:?}"
        );
        assert_eq!(
            stats.free_chunks, stats.allocated_chunks,
            "a chunk was lost or freed: {stats:?}"
        );
    });
}
