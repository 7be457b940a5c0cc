//! The pool's protocol, generic over what each worker owns (`S`: a deferred context, for the
//! recording pool) and what a job yields (`R`), so that the loom model can drive it with plain
//! values instead of a device.
//!
//! **In:** per run, a job count `n` and one job function `Fn(job, &mut S) -> R`, borrowed for
//! the run. **Out:** each job's result, in job order, with the worker that ran it, whether it was
//! stolen, and how long it took; a job that panicked yields its panic message instead.
//!
//! **Protocol.**
//! 1. `run` writes a [`Batch`] on its own stack (the job function, the result slots, a count
//!    of jobs not yet finished), pushes one [`Task`] per job into the global `Injector`, each
//!    pointing at the batch, bumps the epoch under the signal lock and wakes every worker.
//! 2. A worker looks for a task: its own deque first, then a batch from the injector (it keeps
//!    all but the first in its deque, where idle siblings can steal them), then one task from
//!    each sibling in turn. It runs the job (panics caught), stores the result in the job's slot,
//!    and decrements the batch's count: its last access to the batch. The worker that brings the
//!    count to zero wakes the caller, through the pool's shared state, not the batch.
//! 3. A worker that finds no task sleeps until the epoch moves on (a new run) or shutdown.
//! 4. `run` sleeps until the count is zero (a drop guard waits too if anything unwinds), then
//!    moves the results out of the slots in job order.
//! 5. Dropping the pool sets `shutdown` under the signal lock, wakes every worker and joins them;
//!    each drops its `S` on its own thread.
//!
//! **Why the job function may borrow the caller's frame.** A task holds a pointer to the batch
//! with its lifetime erased. The batch lives in `run`'s frame, and `run` returns (or unwinds)
//! only once the count is zero, after every task's holder has made its last access; a task is
//! handed out exactly once (the deque's contract), so no later run's worker can reach an old
//! batch. This is the argument of `std::thread::scope` and rayon's `scope`, with persistent
//! threads.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::sync::{
    spawn_named, Arc, AtomicUsize, Condvar, Injector, JoinHandle, Mutex, Ordering, Steal, Stealer,
    Worker,
};

/// How many tasks a worker takes from the injector at once, most: crossbeam's own cap.
const MAX_BATCH: usize = 32;

/// One job's result and where it ran.
pub struct Finished<R> {
    /// What the job returned, or its panic message.
    pub outcome: Result<R, String>,
    /// The worker that ran it.
    pub worker: u32,
    /// The worker whose deque it was stolen from, if it was.
    pub stolen_from: Option<u32>,
    /// The job's own time on its worker.
    pub elapsed: Duration,
}

type Slot<R> = Mutex<Option<Finished<R>>>;

/// What one run shares with the workers, on `run`'s stack.
struct Batch<'a, S, R> {
    job: &'a (dyn Fn(usize, &mut S) -> R + Sync),
    slots: &'a [Slot<R>],
    /// Jobs not finished yet; the caller waits for zero.
    remaining: AtomicUsize,
}

/// One job of one run.
struct Task<S: 'static, R: 'static> {
    job: usize,
    batch: *const Batch<'static, S, R>,
}

// SAFETY: a task is the right to run job `job` of its batch once, on any thread. What it points
// to may be used from any thread: the job function is `Sync`, the slots are mutexes over `R:
// Send`, the count is atomic; the worker's `S` is not reached through it. The batch outlives
// every task (see the module's essay and `run_task`).
unsafe impl<S: 'static, R: Send + 'static> Send for Task<S, R> {}

/// Where a worker woke up from: a new run, or the end.
struct Signal {
    epoch: u64,
    shutdown: bool,
}

/// What the pool and its workers share for their whole life.
struct Shared<S: 'static, R: 'static> {
    injector: Injector<Task<S, R>>,
    stealers: Vec<Stealer<Task<S, R>>>,
    /// The most tasks a worker takes from the injector at once, set per run (a hint: any value
    /// is correct, this one balances).
    batch_limit: AtomicUsize,
    signal: Mutex<Signal>,
    /// Workers wait here for a new epoch or shutdown.
    wake: Condvar,
    /// The caller waits here for its batch's last job.
    done: Condvar,
}

/// Persistent worker threads, each owning one `S`, that run jobs handed out by work stealing.
pub struct WorkerPool<S: Send + 'static, R: Send + 'static> {
    shared: Arc<Shared<S, R>>,
    threads: Vec<JoinHandle<()>>,
    /// One per job of the largest run so far, reused by every run.
    slots: Vec<Slot<R>>,
}

/// A worker thread could not be started.
#[derive(Debug)]
pub struct SpawnFailed {
    /// The index of the worker whose thread did not start (the workers before it were started and
    /// are stopped again).
    pub worker: u32,
    /// The operating system's error from [`std::thread::Builder::spawn`].
    pub error: std::io::Error,
}

impl<S: Send + 'static, R: Send + 'static> WorkerPool<S, R> {
    /// Starts one thread per state, named `{name}.worker{k}`, each owning its state. If a thread
    /// cannot start, the ones started are stopped and joined, and every state dropped.
    pub fn spawn(name: &str, states: Vec<S>) -> Result<Self, SpawnFailed> {
        let deques: Vec<Worker<Task<S, R>>> = states.iter().map(|_| Worker::new_fifo()).collect();
        let shared = Arc::new(Shared {
            injector: Injector::new(),
            stealers: deques.iter().map(Worker::stealer).collect(),
            batch_limit: AtomicUsize::new(1),
            signal: Mutex::new(Signal {
                epoch: 0,
                shutdown: false,
            }),
            wake: Condvar::new(),
            done: Condvar::new(),
        });
        let mut pool = Self {
            shared,
            threads: Vec::with_capacity(deques.len()),
            slots: Vec::new(),
        };
        for (index, (deque, state)) in deques.into_iter().zip(states).enumerate() {
            let shared = pool.shared.clone();
            let worker = index as u32;
            let thread = spawn_named(format!("{name}.worker{index}"), move || {
                work(&shared, &deque, worker, state)
            });
            match thread {
                Ok(thread) => pool.threads.push(thread),
                // Dropping `pool` stops and joins the workers started so far.
                Err(error) => return Err(SpawnFailed { worker, error }),
            }
        }
        Ok(pool)
    }

    /// Worker threads.
    pub fn workers(&self) -> usize {
        self.threads.len()
    }

    /// Runs jobs `0..jobs` on the workers and hands `collect` each job's result, in job order,
    /// once every job has finished. `job` may borrow anything that outlives this call.
    pub fn run<F>(&mut self, jobs: usize, job: &F, mut collect: impl FnMut(usize, Finished<R>))
    where
        F: Fn(usize, &mut S) -> R + Sync,
    {
        if jobs == 0 {
            return;
        }
        if self.slots.len() < jobs {
            self.slots.resize_with(jobs, || Mutex::new(None));
        }
        let batch = Batch {
            job,
            slots: &self.slots[..jobs],
            remaining: AtomicUsize::new(jobs),
        };
        // Each worker takes at most half its fair share at once: few trips to the injector, and
        // enough left there (or in its deque, to steal) for the others to balance.
        let limit = (jobs / (2 * self.threads.len().max(1))).clamp(1, MAX_BATCH);
        self.shared.batch_limit.store(limit, Ordering::Relaxed);
        {
            // From here until the count is zero the workers may use `batch`: the guard waits for
            // that even if something below unwinds.
            let _wait = WaitForBatch {
                shared: &self.shared,
                batch: &batch,
            };
            let erased: *const Batch<'static, S, R> = (&batch as *const Batch<'_, S, R>).cast();
            for job in 0..jobs {
                self.shared.injector.push(Task { job, batch: erased });
            }
            let mut signal = self.shared.signal.lock();
            signal.epoch += 1;
            self.shared.wake.notify_all();
        }
        for (index, slot) in batch.slots.iter().enumerate() {
            let finished = slot.lock().take().unwrap_or_else(|| Finished {
                // Unreachable: every job stores its result before the count reaches zero.
                outcome: Err("the job's result went missing".to_string()),
                worker: u32::MAX,
                stolen_from: None,
                elapsed: Duration::ZERO,
            });
            collect(index, finished);
        }
    }
}

impl<S: Send + 'static, R: Send + 'static> Drop for WorkerPool<S, R> {
    fn drop(&mut self) {
        {
            let mut signal = self.shared.signal.lock();
            signal.shutdown = true;
            self.shared.wake.notify_all();
        }
        for thread in self.threads.drain(..) {
            // A worker never panics (jobs run under `catch_unwind`); nothing to report if one did.
            let _ = thread.join();
        }
    }
}

/// Blocks, on drop, until every job of the batch has finished.
struct WaitForBatch<'p, 'b, S: 'static, R: 'static> {
    shared: &'p Shared<S, R>,
    batch: &'p Batch<'b, S, R>,
}

impl<S: 'static, R: 'static> Drop for WaitForBatch<'_, '_, S, R> {
    fn drop(&mut self) {
        let mut signal = self.shared.signal.lock();
        // Acquire: pairs with each worker's release decrement, so every result stored before it
        // is visible once the count reads zero.
        while self.batch.remaining.load(Ordering::Acquire) != 0 {
            signal = self.shared.done.wait(signal);
        }
    }
}

/// A worker's life: run every task it can find, sleep until the next run, end at shutdown.
fn work<S: 'static, R: Send + 'static>(
    shared: &Shared<S, R>,
    deque: &Worker<Task<S, R>>,
    worker: u32,
    mut state: S,
) {
    let mut seen = 0;
    loop {
        while let Some((task, stolen_from)) = find_task(shared, deque, worker) {
            run_task(shared, task, worker, stolen_from, &mut state);
        }
        let mut signal = shared.signal.lock();
        loop {
            if signal.shutdown {
                return;
            }
            if signal.epoch != seen {
                // Tasks are pushed before the epoch moves, so they are visible now (unless
                // another worker took them first).
                seen = signal.epoch;
                break;
            }
            signal = shared.wake.wait(signal);
        }
    }
}

/// The next task for `worker`: its own deque, then a batch from the injector, then one task
/// stolen from a sibling (which one, in the second value). `None` once all are empty.
fn find_task<S: 'static, R: 'static>(
    shared: &Shared<S, R>,
    deque: &Worker<Task<S, R>>,
    worker: u32,
) -> Option<(Task<S, R>, Option<u32>)> {
    if let Some(task) = deque.pop() {
        return Some((task, None));
    }
    loop {
        let limit = shared.batch_limit.load(Ordering::Relaxed);
        let mut retry = false;
        match shared.injector.steal_batch_with_limit_and_pop(deque, limit) {
            Steal::Success(task) => return Some((task, None)),
            Steal::Retry => retry = true,
            Steal::Empty => {}
        }
        // Siblings in turn, starting after this worker, so thieves spread over victims.
        let count = shared.stealers.len();
        for offset in 1..count {
            let victim = (worker as usize + offset) % count;
            match shared.stealers[victim].steal() {
                Steal::Success(task) => return Some((task, Some(victim as u32))),
                Steal::Retry => retry = true,
                Steal::Empty => {}
            }
        }
        if !retry {
            return None;
        }
    }
}

/// Runs one task and reports its end.
fn run_task<S: 'static, R: Send + 'static>(
    shared: &Shared<S, R>,
    task: Task<S, R>,
    worker: u32,
    stolen_from: Option<u32>,
    state: &mut S,
) {
    // SAFETY: (1) `run` keeps the batch alive until `remaining` is zero; (2) `remaining` counts
    // this task until the decrement at the end of this function, which is the last use of
    // `batch` here; (3) the deque hands each task out once, so no one else decrements for it.
    let batch = unsafe { &*task.batch };
    let begin = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| (batch.job)(task.job, state)))
        .map_err(|payload| panic_message(payload.as_ref()));
    let finished = Finished {
        outcome,
        worker,
        stolen_from,
        elapsed: begin.elapsed(),
    };
    *batch.slots[task.job].lock() = Some(finished);
    // Release: the result stored above happens before the caller's acquire load of zero.
    if batch.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
        // The batch may be gone from here on: wake the caller through the shared state. Under
        // the lock, so the wake cannot fall between the caller's check and its wait.
        let _signal = shared.signal.lock();
        shared.done.notify_one();
    }
}

/// The message a panic was raised with, when it is a string.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_string()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "a panic with a non-string payload".to_string()
    }
}
