//! The one place this crate takes its threads and channels from. Under `--cfg loom` they are
//! loom's, so the model of the GPU thread in `loom-tests/` sees every step.

#[cfg(not(loom))]
pub(crate) use std::sync::mpsc::{channel, Receiver, Sender};
#[cfg(not(loom))]
pub(crate) use std::thread::{spawn, JoinHandle};

#[cfg(loom)]
pub(crate) use loom::sync::mpsc::{channel, Receiver, Sender};
#[cfg(loom)]
pub(crate) use loom::thread::{spawn, JoinHandle};
