//! [`RecordingPool`]: the pool of `pool.rs` with a deferred context per worker, the jobs
//! recording on it, one command list per job (R-J-1). The context is the engine's
//! [`DeferredContext`] (the default), or any other type that records like one and implements
//! [`RecordingContext`] (a wrapper of the deferred context, made by
//! [`RecordingPool::with_contexts`]); [`RecordingContext`] is what the pool needs of it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use recorder::{
    limits, ChunkPolicy, CommandList, DeferredContext, DeferredContextDesc, Device, Engine, Error,
    RecordError, RestoreState, Semantics,
};

use super::job_errors::{JobError, PoolError};
use super::pool::{panic_message, SpawnFailed, WorkerPool};

/// What a [`RecordingPool`]'s worker owns and hands its jobs: a deferred context that finishes
/// and discards lists. Implemented by [`DeferredContext`], and by wrappers of it that a pool made
/// with [`RecordingPool::with_contexts`] hands its jobs; each call is the deferred context's
/// method of the same name.
pub trait RecordingContext: Send + 'static {
    /// [`DeferredContext::finish_command_list`].
    fn finish_command_list(&mut self, restore: RestoreState) -> Result<CommandList, RecordError>;
    /// [`DeferredContext::discard_command_list`].
    fn discard_command_list(&mut self);
    /// [`DeferredContext::name`].
    fn name(&self) -> &str;
}

impl RecordingContext for DeferredContext {
    #[inline(always)]
    fn finish_command_list(&mut self, restore: RestoreState) -> Result<CommandList, RecordError> {
        DeferredContext::finish_command_list(self, restore)
    }
    #[inline(always)]
    fn discard_command_list(&mut self) {
        DeferredContext::discard_command_list(self)
    }
    #[inline(always)]
    fn name(&self) -> &str {
        DeferredContext::name(self)
    }
}

/// A job's command list, or why it has none.
pub type JobResult = Result<CommandList, JobError>;

/// How to create a [`RecordingPool`].
#[derive(Clone, Debug)]
pub struct RecordingPoolDesc<'a> {
    /// Names the worker threads and their contexts: `{name}.worker{k}`.
    pub name: &'a str,
    /// Worker threads, one deferred context each: 1 to 48 (R-REC-1), fewer if the device has
    /// other deferred contexts alive. Default 4; an engine typically gives the pool its cores
    /// but the one submitting on the immediate context.
    pub workers: u32,
    /// The semantics of every worker's context, hence of every list. Default legacy, as for the
    /// device's immediate context and a deferred context ([`Semantics::default`]): fast
    /// semantics is the contract an engine opts into (R-ST-1).
    pub semantics: Semantics,
    /// The engine the lists run on (compute and DMA contexts are always fast semantics).
    pub engine: Engine,
    /// Overrides the device's chunk policy for the workers' contexts (R-REC-4).
    pub chunk_policy: Option<ChunkPolicy>,
}

impl Default for RecordingPoolDesc<'_> {
    fn default() -> Self {
        Self {
            name: "jobs",
            workers: 4,
            semantics: Semantics::default(),
            engine: Engine::Graphics,
            chunk_policy: None,
        }
    }
}

/// Where and how long one job of the last run recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobReport {
    /// The worker that ran the job.
    pub worker: u32,
    /// The worker whose deque the job was stolen from, if it was.
    pub stolen_from: Option<u32>,
    /// Recording and finishing the list, on the worker.
    pub elapsed: Duration,
}

/// Records jobs on persistent worker threads, each owning a deferred context, and returns one
/// command list per job, in job order (R-J-1). See the [module essay](crate::jobs).
///
/// ```
/// use executor::{ImmediateContext, RecordingPool, RecordingPoolDesc};
/// use recorder::*;
///
/// let device = Device::new(DeviceDesc::default());
/// let mut immediate = ImmediateContext::new(&device)?;
/// let mut pool = RecordingPool::new(&device, &RecordingPoolDesc {
///     workers: 2,
///     ..Default::default()
/// })?;
/// // Jobs borrow the frame's data: here, how many draws each job records.
/// let draws_per_job = vec![3u32, 1, 4, 1, 5];
/// for _frame in 0..2 {
///     let lists = pool.record(draws_per_job.len(), |job, context| {
///         for draw in 0..draws_per_job[job] {
///             context.draw(3, draw);
///         }
///     });
///     for (job, list) in lists.iter().enumerate() {
///         let list = list.as_ref().expect("recorded");
///         assert_eq!(list.stats().draws, draws_per_job[job]);
///         immediate.execute_command_list(list, RestoreState::ClearState)?;
///     }
/// }
/// immediate.flush()?;
/// assert_eq!(immediate.counters().draws, 2 * 14);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RecordingPool<C: RecordingContext = DeferredContext> {
    name: String,
    semantics: Semantics,
    pool: WorkerPool<C, JobResult>,
    /// The last run's reports, one per job.
    reports: Vec<JobReport>,
}

impl RecordingPool {
    /// Creates `desc.workers` deferred contexts on `device` (on this thread, so a failure is
    /// reported before any thread starts) and starts a thread for each, which keeps it until the
    /// pool is dropped.
    pub fn new(device: &Device, desc: &RecordingPoolDesc<'_>) -> Result<Self, PoolError> {
        Self::spawn(desc, |context| device.create_deferred_context(context))
    }
}

impl<C: RecordingContext> RecordingPool<C> {
    /// [`new`](RecordingPool::new) with contexts of another type: `create` makes each worker's
    /// context from its description (`{name}.worker{k}`, the pool's semantics, engine and chunk
    /// policy), on this thread, so a failure is reported before any thread starts. A wrapper of
    /// the deferred context makes its pool this way; the pool itself is the same.
    ///
    /// ```
    /// use executor::{RecordingPool, RecordingPoolDesc};
    /// use recorder::*;
    ///
    /// let device = Device::new(DeviceDesc::default());
    /// let mut pool = RecordingPool::with_contexts(&RecordingPoolDesc::default(), |desc| {
    ///     device.create_deferred_context(desc)
    /// })?;
    /// let lists = pool.record(2, |job, context| context.draw(3, job as u32));
    /// assert_eq!(lists.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_contexts(
        desc: &RecordingPoolDesc<'_>,
        create: impl Fn(&DeferredContextDesc<'_>) -> Result<C, Error>,
    ) -> Result<Self, PoolError> {
        Self::spawn(desc, create)
    }

    /// Creates the workers' contexts with `create` (on this thread) and starts their threads.
    fn spawn(
        desc: &RecordingPoolDesc<'_>,
        create: impl Fn(&DeferredContextDesc<'_>) -> Result<C, Error>,
    ) -> Result<Self, PoolError> {
        let limit = limits::MAX_DEFERRED_CONTEXTS;
        if desc.workers == 0 || desc.workers > limit {
            return Err(PoolError::WorkerCount {
                pool: desc.name.to_string(),
                workers: desc.workers,
                limit,
            });
        }
        let contexts = (0..desc.workers)
            .map(|worker| {
                let name = format!("{}.worker{worker}", desc.name);
                create(&DeferredContextDesc {
                    name: &name,
                    semantics: desc.semantics,
                    chunk_policy: desc.chunk_policy.clone(),
                    engine: desc.engine,
                    ..Default::default()
                })
                .map_err(|error| PoolError::Context {
                    pool: desc.name.to_string(),
                    worker,
                    error,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let pool =
            WorkerPool::spawn(desc.name, contexts).map_err(|SpawnFailed { worker, error }| {
                PoolError::Spawn {
                    pool: desc.name.to_string(),
                    worker,
                    error,
                }
            })?;
        Ok(Self {
            name: desc.name.to_string(),
            semantics: desc.semantics,
            pool,
            reports: Vec::new(),
        })
    }

    /// Records jobs `0..jobs`, each on whichever worker takes it, and returns their lists in
    /// job order: element `k` is job `k`'s list, or its error.
    ///
    /// `job(k, context)` records job `k` on a worker's context; the pool then finishes the list
    /// with `restore = false`, so every list starts from the same state whichever worker
    /// recorded it, and the order of execution alone decides the result: a legacy list starts
    /// from the ClearState defaults, a fast one from the immediate context's state when it runs
    /// (R-ST-1). A job must leave the finish to the pool. `job` may borrow the frame's data:
    /// the call returns only after every job has finished.
    ///
    /// A job's sticky error, a finish refused, or a panic is returned in the job's place
    /// ([`JobError`]); the worker discards what the job recorded and goes on.
    pub fn record<F>(&mut self, jobs: usize, job: F) -> Vec<JobResult>
    where
        F: Fn(usize, &mut C) + Sync,
    {
        let mut lists = Vec::with_capacity(jobs);
        self.record_into(jobs, job, &mut lists);
        lists
    }

    /// [`record`](Self::record) into `lists`, which is cleared first: with the same vector
    /// every frame, a frame's run allocates nothing for its results.
    ///
    /// ```
    /// # use executor::{RecordingPool, RecordingPoolDesc};
    /// # use recorder::*;
    /// # let device = Device::new(DeviceDesc::default());
    /// let mut pool = RecordingPool::new(&device, &RecordingPoolDesc::default())?;
    /// let mut lists = Vec::new();
    /// for frame in 0..3 {
    ///     pool.record_into(8, |_, context| context.draw(3, 0), &mut lists);
    ///     assert_eq!(lists.len(), 8);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn record_into<F>(&mut self, jobs: usize, job: F, lists: &mut Vec<JobResult>)
    where
        F: Fn(usize, &mut C) + Sync,
    {
        lists.clear();
        lists.reserve(jobs);
        self.reports.clear();
        let record =
            |index: usize, context: &mut C| -> JobResult { record_one(index, context, &job) };
        let reports = &mut self.reports;
        self.pool.run(jobs, &record, |index, finished| {
            reports.push(JobReport {
                worker: finished.worker,
                stolen_from: finished.stolen_from,
                elapsed: finished.elapsed,
            });
            lists.push(finished.outcome.unwrap_or_else(|message| {
                // Only a panic outside the job (in the finish) lands here.
                Err(JobError::Panicked {
                    job: index,
                    context: format!("worker {}", finished.worker),
                    message,
                })
            }));
        });
        tracing::debug!(
            pool = &*self.name,
            jobs,
            workers = self.pool.workers(),
            failed = lists.iter().filter(|list| list.is_err()).count(),
            stolen = self
                .reports
                .iter()
                .filter(|r| r.stolen_from.is_some())
                .count(),
            "recorded jobs"
        );
    }

    /// Where and how long each job of the last run recorded, in job order.
    pub fn reports(&self) -> &[JobReport] {
        &self.reports
    }

    /// Worker threads (and deferred contexts).
    pub fn workers(&self) -> u32 {
        self.pool.workers() as u32
    }

    /// The semantics of the workers' contexts.
    pub fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// The pool's name, as its messages give it.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl<C: RecordingContext> std::fmt::Debug for RecordingPool<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordingPool")
            .field("name", &self.name)
            .field("workers", &self.pool.workers())
            .field("semantics", &self.semantics)
            .finish_non_exhaustive()
    }
}

/// Runs one job on a worker's context and finishes its list. Whatever went wrong, the context
/// is left on a fresh list for the worker's next job.
fn record_one<C, F>(job: usize, context: &mut C, record: &F) -> JobResult
where
    C: RecordingContext,
    F: Fn(usize, &mut C),
{
    match catch_unwind(AssertUnwindSafe(|| record(job, context))) {
        Ok(()) => match context.finish_command_list(RestoreState::ClearState) {
            Ok(list) => Ok(list),
            Err(error) => {
                // A sticky error discarded the list already; a refused finish (a buffer still
                // mapped) left it open.
                context.discard_command_list();
                Err(JobError::Record { job, error })
            }
        },
        Err(payload) => {
            context.discard_command_list();
            Err(JobError::Panicked {
                job,
                context: context.name().to_string(),
                message: panic_message(payload.as_ref()),
            })
        }
    }
}
