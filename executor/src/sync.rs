//! The one place this crate takes its threads, channels, atomics, locks and work-stealing deques
//! from. Under `--cfg loom` they are loom's, so the models in `loom-tests/` see every step: the
//! GPU thread's (`gpu_thread.rs`) and the recording pool's (`jobs/`).
//!
//! crossbeam-deque has no loom support (loom cannot look inside its atomics), so under
//! `--cfg loom` the deques are a stand-in with the same interface built on loom's mutex
//! (`sync/deque.rs`): the models check the pool's own protocol around the queue, not the
//! queue, which crossbeam's own tests cover.

#[cfg(not(loom))]
pub(crate) use std::sync::mpsc::{channel, Receiver, Sender};
#[cfg(not(loom))]
pub(crate) use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Arc,
};
#[cfg(not(loom))]
pub(crate) use std::thread::{spawn, JoinHandle};

#[cfg(loom)]
pub(crate) use loom::sync::mpsc::{channel, Receiver, Sender};
#[cfg(loom)]
pub(crate) use loom::sync::{
    atomic::{AtomicUsize, Ordering},
    Arc,
};
#[cfg(loom)]
pub(crate) use loom::thread::{spawn, JoinHandle};

#[cfg(not(loom))]
pub(crate) use crossbeam_deque::{Injector, Steal, Stealer, Worker};

#[cfg(loom)]
mod deque;
#[cfg(loom)]
pub(crate) use deque::{Injector, Steal, Stealer, Worker};

/// Starts a named thread (the name shows in debuggers and profilers). Under loom the thread
/// gets a 1 MB stack: recording on a deferred context needs more than loom's default 32 KB.
pub(crate) fn spawn_named<F, T>(name: String, f: F) -> std::io::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    #[cfg(not(loom))]
    {
        std::thread::Builder::new().name(name).spawn(f)
    }
    #[cfg(loom)]
    {
        // loom's stack sizes count words.
        loom::thread::Builder::new()
            .name(name)
            .stack_size(128 << 10)
            .spawn(f)
    }
}

/// A mutex without poisoning: nothing in this crate panics while holding one (jobs run outside
/// every lock), so a poisoned lock is taken as it is.
pub(crate) struct Mutex<T> {
    #[cfg(not(loom))]
    inner: std::sync::Mutex<T>,
    #[cfg(loom)]
    inner: loom::sync::Mutex<T>,
}

#[cfg(not(loom))]
pub(crate) type MutexGuard<'a, T> = std::sync::MutexGuard<'a, T>;
#[cfg(loom)]
pub(crate) type MutexGuard<'a, T> = loom::sync::MutexGuard<'a, T>;

impl<T> Mutex<T> {
    pub(crate) fn new(value: T) -> Self {
        Self {
            #[cfg(not(loom))]
            inner: std::sync::Mutex::new(value),
            #[cfg(loom)]
            inner: loom::sync::Mutex::new(value),
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A condition variable for [`Mutex`], without poisoning.
#[derive(Default)]
pub(crate) struct Condvar {
    #[cfg(not(loom))]
    inner: std::sync::Condvar,
    #[cfg(loom)]
    inner: loom::sync::Condvar,
}

impl Condvar {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Releases the lock, waits for a notification (or a spurious wake-up) and takes it again.
    pub(crate) fn wait<'a, T>(&self, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        self.inner
            .wait(guard)
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn notify_one(&self) {
        self.inner.notify_one();
    }

    pub(crate) fn notify_all(&self) {
        self.inner.notify_all();
    }
}
