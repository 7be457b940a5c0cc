//! The GPU model on its own thread (R-EX-3, `GpuTiming::Threaded`): a worker that owns the model
//! while work is outstanding and hands it back when the CPU side wants to look at it.
//!
//! **In:** the model (`adopt`), then batches of work, in order (`work`). **Out:** the model,
//! with every batch sent before applied in order (`take_back`).
//!
//! **Why ownership moves instead of a lock.** The CPU side reads the model (records, counters,
//! state) only at observation points, after everything submitted has been consumed; between
//! them only the worker touches it. Passing the model by value through the channels makes that
//! the type system's business: no lock, no shared reference, and the immediate context hands
//! out plain `&GpuModel` borrows while the model is home.
//!
//! **Protocol**, on two channels: to the worker, `Adopt(model)`, `Work(batch)` …, `Return`,
//! `Stop`; back, after each `Return`, the model if the worker held one. Channels keep order, so
//! the model that comes back has applied every batch sent before the `Return`. Work sent while
//! the worker holds no model is dropped (the immediate context always adopts first). `Stop`
//! ends the thread on drop (loom's channels have no hang-up, so the end is explicit).

use crate::sync::{channel, spawn, JoinHandle, Receiver, Sender};

enum Message<S, W> {
    Adopt(S),
    Work(W),
    Return,
    Stop,
}

/// A worker thread that owns state `S` and applies work `W` to it in order.
pub struct Handoff<S: Send + 'static, W: Send + 'static> {
    to_worker: Sender<Message<S, W>>,
    from_worker: Receiver<Option<S>>,
    worker: Option<JoinHandle<()>>,
}

impl<S: Send + 'static, W: Send + 'static> Handoff<S, W> {
    /// Starts the worker; `apply` runs there, once per batch.
    pub fn spawn(apply: fn(&mut S, W)) -> Self {
        let (to_worker, inbox) = channel::<Message<S, W>>();
        let (outbox, from_worker) = channel::<Option<S>>();
        let worker = spawn(move || {
            let mut state = None;
            while let Ok(message) = inbox.recv() {
                match message {
                    Message::Adopt(adopted) => state = Some(adopted),
                    Message::Work(work) => {
                        if let Some(state) = state.as_mut() {
                            apply(state, work);
                        }
                    }
                    Message::Return => {
                        if outbox.send(state.take()).is_err() {
                            return;
                        }
                    }
                    Message::Stop => return,
                }
            }
        });
        Self {
            to_worker,
            from_worker,
            worker: Some(worker),
        }
    }

    /// Hands the state to the worker.
    pub fn adopt(&self, state: S) {
        // A send fails only if the worker is gone, which happens only in `drop`.
        let _ = self.to_worker.send(Message::Adopt(state));
    }

    /// Queues a batch of work; the worker applies it after every batch sent before.
    pub fn work(&self, work: W) {
        let _ = self.to_worker.send(Message::Work(work));
    }

    /// Waits until the worker has applied every batch sent so far and takes the state back.
    /// `None` if the worker holds none (nothing was adopted since the last take) or died.
    pub fn take_back(&self) -> Option<S> {
        self.to_worker.send(Message::Return).ok()?;
        self.from_worker.recv().ok().flatten()
    }
}

impl<S: Send + 'static, W: Send + 'static> Drop for Handoff<S, W> {
    fn drop(&mut self) {
        let _ = self.to_worker.send(Message::Stop);
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}
