//! The recording pool's errors: [`PoolError`] when it is created, [`JobError`] in the place of
//! a job's command list.

use recorder::{Error, RecordError};

/// Why a recording pool could not be created.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PoolError {
    #[error("recording pool '{pool}': {workers} workers asked for; a pool has 1 to {limit}, one deferred context each, and a device allows {limit} deferred contexts at once (R-REC-1)")]
    WorkerCount {
        pool: String,
        workers: u32,
        limit: u32,
    },

    #[error("recording pool '{pool}': creating the deferred context of worker {worker}: {error}")]
    Context {
        pool: String,
        worker: u32,
        #[source]
        error: Error,
    },

    #[error("recording pool '{pool}': starting the thread of worker {worker}: {error} (R-J-1: each worker owns a thread and a deferred context)")]
    Spawn {
        pool: String,
        worker: u32,
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
        job: usize,
        #[source]
        error: RecordError,
    },

    /// The job panicked. The panic stopped at the worker: the list was discarded and the worker
    /// records the next job on a fresh list.
    #[error("job {job} panicked on {context}: {message}; its list was discarded (R-J-1)")]
    Panicked {
        job: usize,
        context: String,
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
