//! # Parallel recording (R-J-1)
//!
//! A job-system renderer cuts its frame into jobs (a pass, a range of objects, a shadow
//! cascade) and wants them recorded at once on all cores, then executed in a fixed order.
//! [`RecordingPool`] does that: W persistent worker threads, each owning one deferred context
//! it keeps across frames, take the frame's N jobs by work stealing (crossbeam-deque) and the
//! caller gets one command list per job back, in job order, to execute on the immediate
//! context in that order.
//!
//! **In:** a job count and one function `Fn(job, &mut DeferredContext)`, borrowed for the call
//! (jobs may borrow the frame's data, no `'static` needed, no boxing). The pool is generic over
//! the context ([`RecordingContext`], the engine's `DeferredContext` by default): a pool made
//! with [`RecordingPool::with_contexts`] hands its jobs a wrapper of the deferred context
//! instead (one that watches the calls, say), and the engine's own contexts run the same code,
//! no wrapper compiled into it. **Out:** a
//! `Vec<Result<CommandList, JobError>>` in job order, and per job the worker that ran it,
//! whether it was stolen and how long it took ([`RecordingPool::reports`]).
//!
//! **Invariants.**
//! - Element `k` is job `k`'s list, whatever worker recorded it and in whatever order the
//!   jobs ran. Every list is finished with `restore = false`, so its starting state is the
//!   same on every worker (R-ST-1) and executing the lists in job order gives the same draw
//!   records as recording the jobs in order on one context (tested against that).
//! - Nothing panics across the API: a job's sticky error (R-REC-8), a finish refused (a buffer
//!   left mapped) or a panic comes back in the job's place, and the worker discards what the
//!   job recorded (`DeferredContext::discard_command_list`) before its next job.
//! - At most 48 workers (R-REC-1): creating a pool with more, or with more than the device has
//!   room for, is an error, before any thread starts.
//! - Steady state: no thread is started, no context created, and nothing allocated per job.
//!   The result slots and the caller's vector (with [`RecordingPool::record_into`]) are reused;
//!   crossbeam's injector allocates one block per 63 jobs pushed.
//!
//! **Choices.** Persistent threads rather than scoped threads per frame: the contexts stay on
//! their threads (their chunk writers and caches warm), and a frame costs a wake-up, not W
//! thread spawns. Borrowing the frame's data then needs the `scope` argument (see `pool.rs`):
//! `record` returns only after every job has finished. One list per job rather than per
//! worker: the job is the unit the engine orders and the unit a failure is reported in, and
//! lists are cheap (a header in the first chunk). One job function indexed by job rather than
//! a slice of boxed closures: nothing to allocate, and `|job, context| passes[job].record(context)`
//! is what an engine writes anyway.
//!
//! **Files.** `pool.rs`: the protocol (injector, per-worker deques, stealing, result slots,
//! waking, shutdown), generic over what a worker owns, with a loom model in
//! `loom-tests/tests/recording_pool.rs`. `recording.rs`: the deferred contexts (either kind) and lists.
//! `job_errors.rs`: [`PoolError`], [`JobError`].

mod job_errors;
pub(crate) mod pool;
mod recording;

pub use job_errors::{JobError, PoolError};
pub use recording::{JobReport, JobResult, RecordingContext, RecordingPool, RecordingPoolDesc};
