//! `--threads N`: the worker threads that record the deferred contexts and bundle recorders of
//! a trace, each recorder on one worker (round robin by declaration), its calls queued to that
//! worker in trace order.
//!
//! **In:** jobs (closures over a held recorder, `recorders.rs`), and waits. **Out:** nothing but the jobs'
//! effects on the held recorders. Without workers (`--threads` absent or 0) a job runs at once on the
//! calling thread: the same code, in the same order, which is what makes the two runs' outputs
//! identical.
//!
//! **Invariant.** A worker runs its jobs in the order they were queued, and a wait on a worker
//! returns only once every job queued to it before the wait has run. The main thread waits on
//! the worker of a recorder before it observes the recorder (its `finish`, `expect error` or
//! `expect accepted` on it), and on every worker before a statement whose effect other
//! recorders' calls could see or whose result depends on their order (see `live.rs`).

use std::sync::mpsc::{channel, Sender};
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send>;

enum Message {
    Run(Job),
    Wait(Sender<()>),
}

struct Worker {
    queue: Sender<Message>,
    thread: Option<JoinHandle<()>>,
}

/// The workers, or none.
pub(crate) struct Workers {
    workers: Vec<Worker>,
}

impl Workers {
    /// `threads` workers (0: jobs run on the caller).
    pub(crate) fn new(threads: usize) -> Self {
        let workers = (0..threads)
            .map(|i| {
                let (queue, jobs) = channel::<Message>();
                let thread = std::thread::Builder::new()
                    .name(format!("replay-worker-{i}"))
                    .spawn(move || {
                        for message in jobs {
                            match message {
                                Message::Run(job) => job(),
                                Message::Wait(done) => {
                                    let _ = done.send(());
                                }
                            }
                        }
                    })
                    .ok();
                Worker { queue, thread }
            })
            .collect();
        Self { workers }
    }

    /// The worker of the `index`-th recorder declared, if there are workers.
    pub(crate) fn worker_of(&self, index: usize) -> Option<usize> {
        (!self.workers.is_empty()).then(|| index % self.workers.len())
    }

    /// Runs `job` on `worker` after the jobs queued there, or now without workers (or if the
    /// worker could not be started).
    pub(crate) fn run(&self, worker: Option<usize>, job: impl FnOnce() + Send + 'static) {
        let job: Job = Box::new(job);
        let job = match worker.and_then(|w| self.workers.get(w)) {
            Some(worker) if worker.thread.is_some() => match worker.queue.send(Message::Run(job)) {
                Ok(()) => return,
                Err(returned) => match returned.0 {
                    Message::Run(job) => job,
                    Message::Wait(_) => return,
                },
            },
            _ => job,
        };
        job()
    }

    /// Waits until `worker` has run every job queued to it so far.
    pub(crate) fn wait(&self, worker: Option<usize>) {
        let Some(worker) = worker.and_then(|w| self.workers.get(w)) else {
            return;
        };
        let (done, finished) = channel();
        if worker.queue.send(Message::Wait(done)).is_ok() {
            let _ = finished.recv();
        }
    }

    /// Waits for every worker.
    pub(crate) fn wait_all(&self) {
        for worker in 0..self.workers.len() {
            self.wait(Some(worker));
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        for worker in &mut self.workers {
            // Closing the queue ends the worker's loop once its jobs have run.
            let (closed, _) = channel();
            worker.queue = closed;
            if let Some(thread) = worker.thread.take() {
                let _ = thread.join();
            }
        }
    }
}
