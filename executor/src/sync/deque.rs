//! The loom stand-in for crossbeam-deque (`--cfg loom` only): the subset of its interface the
//! recording pool uses, each deque a `VecDeque` behind loom's mutex, so loom sees every hand-over
//! of a task. Semantics kept: a FIFO worker pops and is stolen from at the front; a batch steal
//! from the injector takes half of what is there (at most `limit`) and pops the first; each task
//! is handed out once. Never returned here: `Steal::Retry` (crossbeam's lost race), which the
//! pool handles by trying again, a path loom need not explore.

use std::cell::Cell;
use std::collections::VecDeque;
use std::marker::PhantomData;

use super::{Arc, Mutex};

/// The outcome of a steal, as crossbeam's.
pub(crate) enum Steal<T> {
    Empty,
    Success(T),
    #[allow(dead_code)] // crossbeam's contention outcome; the stand-in never loses a race
    Retry,
}

/// The global queue: any thread pushes, any thread steals.
pub(crate) struct Injector<T> {
    queue: Mutex<VecDeque<T>>,
}

impl<T> Injector<T> {
    pub(crate) fn new() -> Self {
        Self {
            queue: Mutex::new(VecDeque::new()),
        }
    }

    pub(crate) fn push(&self, task: T) {
        self.queue.lock().push_back(task);
    }

    /// Takes half of the queued tasks (at most `limit`), moves all but the first into `dest`
    /// and returns the first.
    pub(crate) fn steal_batch_with_limit_and_pop(
        &self,
        dest: &Worker<T>,
        limit: usize,
    ) -> Steal<T> {
        let mut taken: VecDeque<T> = {
            let mut queue = self.queue.lock();
            let count = queue.len().div_ceil(2).min(limit);
            queue.drain(..count).collect()
        };
        let Some(first) = taken.pop_front() else {
            return Steal::Empty;
        };
        // Outside the injector's lock: a worker's lock is never taken while holding it.
        dest.queue.lock().extend(taken);
        Steal::Success(first)
    }
}

/// A worker's own deque (FIFO flavour): only its owner pushes and pops, so it is `Send` but not
/// `Sync`, as crossbeam's.
pub(crate) struct Worker<T> {
    queue: Arc<Mutex<VecDeque<T>>>,
    _not_sync: PhantomData<Cell<()>>,
}

impl<T> Worker<T> {
    pub(crate) fn new_fifo() -> Self {
        Self {
            queue: Arc::new(Mutex::new(VecDeque::new())),
            _not_sync: PhantomData,
        }
    }

    pub(crate) fn pop(&self) -> Option<T> {
        self.queue.lock().pop_front()
    }

    pub(crate) fn stealer(&self) -> Stealer<T> {
        Stealer {
            queue: self.queue.clone(),
        }
    }
}

/// Steals from another worker's deque, from the front.
pub(crate) struct Stealer<T> {
    queue: Arc<Mutex<VecDeque<T>>>,
}

impl<T> Stealer<T> {
    pub(crate) fn steal(&self) -> Steal<T> {
        match self.queue.lock().pop_front() {
            Some(task) => Steal::Success(task),
            None => Steal::Empty,
        }
    }
}

impl<T> Clone for Stealer<T> {
    fn clone(&self) -> Self {
        Self {
            queue: self.queue.clone(),
        }
    }
}
