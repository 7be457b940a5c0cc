//! # loom-tests
//!
//! Loom models of every concurrent structure in the workspace. The models live in `tests/*.rs`,
//! each file `#![cfg(loom)]`, so a normal build compiles them out; they drive the real `recorder`
//! code, whose sync facade (`recorder/src/sync.rs`) swaps every atomic, `Arc` and mutex for loom's
//! under `--cfg loom`. Internals the public API does not reach (object tables, the chunk pool) come
//! through `recorder::loom_exports`, which exists only under `--cfg loom`.
//!
//! ```text
//! cd /work/main && RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 \
//!     CARGO_TARGET_DIR=/tmp/target-loom cargo test -p loom-tests --release
//! ```
//!
//! **In:** the recorder's concurrent structures. **Out:** pass or a failing interleaving.
//! **Invariant:** every model is tiny (two or three threads, a few operations each) and finishes
//! in seconds with `LOOM_MAX_PREEMPTIONS=2`: the whole run takes about 30 s on two cores, build
//! included. The largest models are `deferred_context::creation_racing_a_drop_at_the_limit`
//! (about 870 executions, each dropping a `Device`) and the recording pool's
//! (`recording_pool::a_second_run_reuses_the_workers`: about 97,000 small executions, 11 s).
//!
//! ## The concurrent structures, and the model that covers each
//!
//! | Structure (file) | Protocol | Model |
//! |---|---|---|
//! | `ObjectTable` slot `state` + `words` (`recorder/src/table.rs`) | lock-free lookup: generation check, Acquire word loads, second generation check (a seqlock whose writers only write behind a generation bump); the generation's high bits are the device's tag, so the same check refuses another device's handle (R-OBJ-3) | `object_table::lookup_racing_destroy_and_reuse`, `object_table::foreign_handle_racing_destroy_and_reuse` |
//! | `ObjectTable` segment directory (`segments: [AtomicPtr<Entry>]`) | a segment is allocated under the allocation mutex and published with a Release store; lookups load it with Acquire, null meaning "never created" | `object_table::lookup_racing_segment_growth` |
//! | `ObjectTable` reference counts (`state`'s low bits, `RELEASED`, `FREE`) | `retain` = one `fetch_add`, checked on the value it returned, undone by `fetch_sub` if stale; `release` = CAS setting `RELEASED`; `try_destroy` = CAS from exactly "released, 0 references" to the next generation + `FREE` | `object_table::retain_racing_release`, `object_table::retain_without_released_racing_release`, `object_table::stale_retain_racing_slot_reuse` |
//! | A legacy recorder's own reference counts (`LocalReferences`, `recorder/src/refs.rs`) against the shared counts | the recording thread alone writes its table (plain stores of atomics); its first reference on an object pins the shared count (`retain`, checked), its last drops the pin; `finish_command_list` publishes each distinct object's count with one CAS (`ObjectTable::retain_many`, bounded), and a list's drop, on any thread, subtracts it (`unretain_many`); `Device::references` reads the registered tables under the registry's lock, which a table's growth takes to swap it | `local_references::legacy_binds_on_two_threads_racing_a_release`, `local_references::list_dropped_on_another_thread_racing_a_rebind_and_a_reader` |
//! | `ObjectTable` allocation: the free stack (`free_top`, a Treiber stack of destroyed slots linked through their `aux2`, its top tagged against ABA), the high-water mark (`Mutex<Allocation>`, only when the stack is empty) and each slot's name (a mutex per slot) | `try_destroy` pushes with a Release CAS after writing the link; `insert` pops with an AcqRel CAS (a stale link read from a slot popped and pushed back meanwhile fails on the tag), then writes the slot (its alone: only stale handles reach it, which the generation turns away) and its name under the slot's own lock | `object_table::free_stack_pop_racing_pops_and_a_push_of_the_same_top` (the ABA case), `object_table::inserts_racing_on_a_freed_slot_publish_their_own_words_and_names`, and every `object_table` model (insert / try_destroy) |
//! | `ObjectTable` slot `aux` / `aux2` (minimum LOD, compression, current back buffer) | independent Release stores / Acquire loads of one word each; no cross-word invariant | not modelled: a single atomic word has no interleaving to find |
//! | `ChunkPool` (`recorder/src/chunk.rs`): `Mutex<FreeChunks>` (one intrusive stack per size, and the allocated / reused counters) | take / give_back under the mutex; the counters are counted under it too (no atomics of their own) and only read after the fact | `chunk_pool::take_and_give_back_concurrently`, `chunk_pool::give_back_over_the_limit_frees_once`, `chunk_pool::reserved_chunk_taken_and_given_back_concurrently` (pool filled by `reserve`) |
//! | `CommandList` reference count (`ListHeader::references`, in chunk memory, `recorder/src/list.rs`) | `Arc`-style: Relaxed increment, Release decrement, Acquire fence before the last owner returns the chain to the pool; a nested list's count, dropped by its outer list's discard (which chains it through its header instead of recursing), the same way | `command_list::clones_dropped_on_two_threads_return_chunks_once`, `command_list::nested_list_dropped_with_its_outer_list_on_two_threads_returns_chunks_once` |
//! | `Device` shared state (`Arc<DeviceShared>`, held by contexts and lists) | loom `Arc`; loom checks it is dropped exactly once and never leaked | `command_list::*`, `deferred_context::*` (every model that builds a `Device`) |
//! | `DeviceShared::live_contexts` (`recorder/src/device.rs`) | CAS loop bounding live deferred contexts to `MAX_DEFERRED_CONTEXTS` (48); `DeferredContext::drop` decrements | `deferred_context::creation_near_the_limit`, `deferred_context::creation_racing_a_drop_at_the_limit` |
//! | `DeviceShared::next_recorder` | Relaxed `fetch_add` handing out recorder serials (uniqueness only) | `deferred_context::creation_racing_a_drop_at_the_limit` (asserts distinct serials) |
//! | `DeviceShared::immediate_taken` (`AtomicBool`) | one `swap(true)` hands out the immediate context's recorder; its drop stores `false` | not modelled: a single swap has no interleaving to find |
//! | `DeviceShared::any_swap_chain_view` (`AtomicBool`, `recorder/src/device/swap_chain_views.rs`) | set once (Release) when the first view of a back buffer is made, before its creation returns; `Device::has_swap_chain_views` loads it (Acquire), and while it is false `swap_chain_view_buffer` answers `None` for any view. A thread asking about a view holds its handle, which reached it after the creation returned (through whatever handed it over), so it sees the store | not modelled: one flag that only goes from false to true, read by threads that already synchronised with the store's thread through the handle's handover |
//! | `QueuedRun` (`recorder/src/list.rs`) | one more reference on the list's count, dropped as a `CommandList` | the list reference-count model above |
//! | `DeviceShared::deferred_releases` (`Mutex<Vec<_>>`) | plain mutex; `process_deferred_releases` retries `try_destroy` | the `try_destroy` retry is what `object_table::retain_racing_release` performs after the join; the mutex itself is not modelled (no protocol beyond mutual exclusion) |
//! | Bundle entries (`DeviceShared::bundles`, `recorder/src/bundle.rs`): an object-table entry holding a reference on the bundle's commands | `bundle_body` = retain the entry (checked), clone the commands' list, unretain (destroying a released entry with its last reference); `release` destroys it or defers | `command_list::bundle_body_racing_release_returns_chunks_once` (without the retain it aborts on a use after free) |
//! | `Handoff` (`executor/src/gpu_thread.rs`): the GPU model on its own thread | ownership passed through two channels: `Adopt(model)`, `Work(batch)`…, `Return` → the model back after every batch before it, `Stop` on drop | `gpu_thread::work_sent_before_a_take_is_applied_in_order`, `gpu_thread::take_without_adopt_and_drop_while_working` |
//! | `WorkerPool` (`executor/src/jobs/pool.rs`), under `RecordingPool` (R-J-1): persistent workers, each owning its state (a deferred context) | `run` pushes one task per job (pointing at a batch on its stack) into the injector, bumps the epoch under the signal lock and wakes the workers; a worker pops its own deque, takes a batch from the injector, or steals from a sibling, runs the job, stores the result in the job's slot (a mutex) and decrements the batch's count, the last one waking the caller under the signal lock; idle workers sleep until the epoch moves; drop sets `shutdown` and joins. crossbeam-deque has no loom support: under `--cfg loom` the deques are a `Mutex<VecDeque>` stand-in with its interface (`executor/src/sync/deque.rs`) | `recording_pool::three_jobs_on_two_workers_come_back_in_job_order`, `recording_pool::a_second_run_reuses_the_workers`, `recording_pool::shutdown_before_any_run` (about 17,000 and 97,000 executions; notifying without the lock, or bumping the epoch before pushing the tasks, deadlocks them) |
//! | The capture's list decision (`trace/src/capture/log.rs`, `immediate.rs`): `Shared::capturing` (`AtomicBool`) and the records behind `crate::sync::Mutex` | the immediate context stores `capturing` (Release) when a frame capture begins; a deferred context loads it (Acquire) at the first call of each list and keeps the whole list or none of it; the calls travel with the list (`CommandList::attach`), whose handoff orders them | `capture::a_list_racing_the_capture_start_is_written_whole_or_fails_the_frame` (both endings reached: written whole, or the frame fails naming the list) |
//! | A capture tap's `Spares` (`trace/src/capture/log.rs`): `Arc<crate::sync::Mutex<Vec<(Entries, Vec<u64>)>>>`, shared by a deferred context's tap and its finished lists' logs | a log's drop (on any thread) clears its entries and clock and pushes them under the lock, within 2 pairs and 64 MiB; the tap's `take_kept` (its context's thread) pops one under the lock at a list's finish. Once per finished and per dropped list, never per call | not modelled: a plain mutex around a bounded stack, no protocol beyond mutual exclusion (a spare holds no entry, so no pointer into an arena crosses it; the `Arc` is std's, whose last owner frees the slot) |
//! | The replay's `--threads` pool (`trace/src/replay/workers.rs`, a tool, not the engine) | one std channel per worker: jobs run in queue order; a wait is a message answered after the jobs before it | not modelled: the protocol is `Handoff`'s (FIFO channel, reply after the work queued before), which is; its std channels end on hang-up, which loom's cannot model |
//!
//! Single-threaded by construction, hence not modelled: `DeferredContext` and its `ChunkWriter`
//! (`Send`, `!Sync`; one recording thread at a time), `MapTracker`, and the executor's
//! `ImmediateContext` with its submission queue (owned by one thread; the GPU thread gets the
//! queue's batches by value through `Handoff`). `bundles` adds no concurrent structure of its
//! own: a `BundleRecorder` is a deferred context (single-threaded), and a `DrawBundle` is a
//! `std::sync::Arc` around the bundle's device entry (modelled above: lists call the bundle by
//! handle; a legacy list retains the entry, execution's `bundle_body` clones the commands'
//! `CommandList`, whose count is modelled above too). A `RecordingPool`'s deferred contexts
//! never cross threads after creation (each is moved into its worker thread, which keeps it
//! until the pool is dropped); only `WorkerPool`'s protocol, modelled above, is shared.
//!
//! ## Bugs these models found (fixed)
//!
//! - `object_table::stale_retain_racing_slot_reuse`: `retain` used to add to `state` before
//!   checking the generation and subtract again when the handle was stale, while `insert`
//!   overwrites `state` with a plain store; a stale add before the store and subtract after it
//!   lost the new object. `insert` now publishes the generation with a compare-and-swap that
//!   keeps the count bits, so a stale add and its undo cancel out on the new object.
//! - `chunk_pool::reserved_chunk_taken_and_given_back_concurrently`: `ChunkPool::reserve` did not
//!   write the headers of the chunks it allocated (their `size` was uninitialised memory).
//!
//! ## Cost notes
//!
//! Loom turns every atomic access into a branch point. An `ObjectTable` has 24 segment pointers
//! that its `Drop` loads one by one, and a `Device` has 14 tables, so a model that drops a device
//! passes about a thousand branch points per execution in its single-threaded tail (no choices there,
//! so they do not multiply the executions, only lengthen each). `check` (below, under `cfg(loom)`) raises loom's branch
//! limit to fit.

/// Runs `model` under loom with room for `max_branches` branch points per execution and, when
/// `LOOM_MAX_PREEMPTIONS` is not set, a preemption bound of 2 (the bound the models are sized for).
#[cfg(loom)]
pub fn check<F>(max_branches: usize, model: F)
where
    F: Fn() + Sync + Send + 'static,
{
    let mut builder = loom::model::Builder::new();
    builder.max_branches = builder.max_branches.max(max_branches);
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(2);
    }
    // An `ObjectTable` is built on the stack before it moves into its `Arc` (a loom atomic per
    // segment), and a `Device` holds 14 of them: more than the 32 KB stack of loom's model thread. So the
    // model body runs on a thread with a larger stack; the threads it spawns do small work.
    let model = std::sync::Arc::new(model);
    let executions = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = executions.clone();
    builder.check(move || {
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let model = model.clone();
        loom::thread::Builder::new()
            .stack_size(MODEL_STACK_WORDS)
            .spawn(move || model())
            .expect("spawning the model thread")
            .join()
            .expect("the model thread panicked");
    });
    // Shown with `--nocapture`: how big the model is.
    eprintln!(
        "loom explored {} executions",
        executions.load(std::sync::atomic::Ordering::Relaxed)
    );
}

/// Spawns a model thread with a stack of [`THREAD_STACK_WORDS`]: creating a deferred context
/// needs more than loom's default 32 KB.
#[cfg(loom)]
pub fn spawn<F, T>(f: F) -> loom::thread::JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    loom::thread::Builder::new()
        .stack_size(THREAD_STACK_WORDS)
        .spawn(f)
        .expect("spawning a model thread")
}

/// Stack of the threads a model spawns, in words: 1 MB.
#[cfg(loom)]
const THREAD_STACK_WORDS: usize = 128 << 10;

/// Stack of the thread that runs a model's body, in words (the unit loom's coroutines use): 16 MB.
#[cfg(loom)]
const MODEL_STACK_WORDS: usize = 2 << 20;

/// Branch points a model that builds one object table needs: the table's `Drop` loads its
/// segment pointers (a schedule and a load branch each), plus the model's own steps.
pub const TABLE_BRANCHES: usize = 2 * recorder::limits::MAX_SEGMENTS as usize + 4096;

/// Branch points a model that builds a `Device` (14 object tables) needs.
pub const DEVICE_BRANCHES: usize = 14 * 2 * recorder::limits::MAX_SEGMENTS as usize + 16 * 1024;
