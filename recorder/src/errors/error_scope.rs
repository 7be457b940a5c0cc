//! What an error names and where it happened: [`ObjectName`] (an object as messages name it) and
//! [`RecordError`] (an error with its context and the index of the call in the list).
//!
//! **In:** an object's kind, debug name and handle; a context's label and a call index.
//! **Out:** the prefixes every message starts with.
//!
//! **Invariant.** The scope is the outer layer: the leaf [`Error`](crate::Error) is kept whole inside it.

use super::{Error, ErrorKind};
use crate::device::handle::{ObjectKind, RawHandle};
use std::fmt;
use std::sync::Arc;

/// An object as messages name it: its kind, its debug name if it has one, and its handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectName {
    /// What kind of object it is.
    pub kind: ObjectKind,
    /// Its handle.
    pub handle: RawHandle,
    /// The debug name it was created with, if any.
    pub name: Option<Arc<str>>,
}

impl fmt::Display for ObjectName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{} '{}'", self.kind.name(), name),
            None => write!(f, "{} {:?}", self.kind.name(), self.handle),
        }
    }
}
/// An error with its scope: the context that recorded the call and the call's index in the list
/// being recorded (0-based, counting every call made since the list began).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{context}, call {call_index}: {error}")]
pub struct RecordError {
    /// The debug name of the context that recorded the call.
    pub context: String,
    /// The call's index in the list being recorded (0-based).
    pub call_index: u32,
    /// What went wrong.
    #[source]
    pub error: Error,
}

impl RecordError {
    /// The trace kind of the error.
    pub fn kind(&self) -> ErrorKind {
        self.error.kind()
    }
}
