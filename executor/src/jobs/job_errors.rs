//! The recording pool's errors: [`PoolError`] when it is created, [`JobError`] in the place of
//! a job's command list.

use recorder::{Error, RecordError};

/// Why a recording pool could not be created.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PoolError {
    /// The worker count is 0 or over the device's deferred-context limit.
    #[error("recording pool '{pool}': {workers} workers asked for; a pool has 1 to {limit}, one deferred context each, and a device allows {limit} deferred contexts at once (R-REC-1)")]
    WorkerCount {
        /// The pool's name.
        pool: String,
        /// The workers asked for.
        workers: u32,
        /// The most a pool may have.
        limit: u32,
    },

    /// A worker's deferred context could not be created.
    #[error("recording pool '{pool}': creating the deferred context of worker {worker}: {error}")]
    Context {
        /// The pool's name.
        pool: String,
        /// The worker whose context was refused.
        worker: u32,
        /// Why the device refused it.
        #[source]
        error: Error,
    },

    /// A worker's thread could not be started.
    #[error("recording pool '{pool}': starting the thread of worker {worker}: {error} (R-J-1: each worker owns a thread and a deferred context)")]
    Spawn {
        /// The pool's name.
        pool: String,
        /// The worker whose thread did not start.
        worker: u32,
        /// The operating system's error.
        #[source]
        error: std::io::Error,
    },
}

/// Why a job has no command list: returned in its place, the other jobs' lists unaffected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
    /// The list's sticky error (R-REC-8), or its finish refused (a buffer left mapped).
    #[error("job {job}: {error}")]
    Record {
        /// The job's index in the frame.
        job: usize,
        /// The error, with the context and call index.
        #[source]
        error: RecordError,
    },

    /// The job panicked. The panic stopped at the worker: the list was discarded and the worker
    /// records the next job on a fresh list.
    #[error("job {job} panicked on {context}: {message}; its list was discarded (R-J-1)")]
    Panicked {
        /// The job's index in the frame.
        job: usize,
        /// The worker's deferred context.
        context: String,
        /// The panic's message.
        message: String,
    },
}

impl JobError {
    /// The job the error belongs to.
    pub fn job(&self) -> usize {
        match self {
            Self::Record { job, .. } | Self::Panicked { job, .. } => *job,
        }
    }
}
