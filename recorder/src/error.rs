//! Errors. [`Error`] has one variant per error kind of `TRACE.md` ([`ErrorKind`]), each with named
//! fields and a message that names the call, the objects and the rule broken. [`RecordError`] adds
//! the scope: which context recorded the call and the index of the call in its list (R-REC-8).

use std::fmt;
use std::sync::Arc;

use crate::handle::{ObjectKind, RawHandle};

/// The error kinds of `TRACE.md`, one to one with the variants of [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    BudgetExceeded,
    NotEncapsulable,
    InheritedStateInBundle,
    UnsupportedInBundle,
    MissingMandatoryState,
    StreamOutputInBundle,
    FormatMismatch,
    DynamicBeforeMap,
    RestoreNotSupported,
    MixedSemantics,
    ForbiddenInFast,
    TooManyContexts,
    ReleasedObject,
    ResourceInUse,
    CompressedRead,
    MissingWaitOnPresent,
    BackBufferAffinity,
    Hazard,
    InvalidArgument,
}

impl ErrorKind {
    /// Every kind, in the order `TRACE.md` lists them.
    pub const ALL: [ErrorKind; 19] = [
        Self::BudgetExceeded,
        Self::NotEncapsulable,
        Self::InheritedStateInBundle,
        Self::UnsupportedInBundle,
        Self::MissingMandatoryState,
        Self::StreamOutputInBundle,
        Self::FormatMismatch,
        Self::DynamicBeforeMap,
        Self::RestoreNotSupported,
        Self::MixedSemantics,
        Self::ForbiddenInFast,
        Self::TooManyContexts,
        Self::ReleasedObject,
        Self::ResourceInUse,
        Self::CompressedRead,
        Self::MissingWaitOnPresent,
        Self::BackBufferAffinity,
        Self::Hazard,
        Self::InvalidArgument,
    ];

    /// The kind's name in traces (`expect error CTX KIND`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::BudgetExceeded => "budget_exceeded",
            Self::NotEncapsulable => "not_encapsulable",
            Self::InheritedStateInBundle => "inherited_state_in_bundle",
            Self::UnsupportedInBundle => "unsupported_in_bundle",
            Self::MissingMandatoryState => "missing_mandatory_state",
            Self::StreamOutputInBundle => "stream_output_in_bundle",
            Self::FormatMismatch => "format_mismatch",
            Self::DynamicBeforeMap => "dynamic_before_map",
            Self::RestoreNotSupported => "restore_not_supported",
            Self::MixedSemantics => "mixed_semantics",
            Self::ForbiddenInFast => "forbidden_in_fast",
            Self::TooManyContexts => "too_many_contexts",
            Self::ReleasedObject => "released_object",
            Self::ResourceInUse => "resource_in_use",
            Self::CompressedRead => "compressed_read",
            Self::MissingWaitOnPresent => "missing_wait_on_present",
            Self::BackBufferAffinity => "back_buffer_affinity",
            Self::Hazard => "hazard",
            Self::InvalidArgument => "invalid_argument",
        }
    }

    /// The kind named `name` in a trace, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An object as messages name it: its kind, its debug name if it has one, and its handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectName {
    pub kind: ObjectKind,
    pub handle: RawHandle,
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

/// What went wrong, one variant per error kind of `TRACE.md`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("{call}: overriding {slot} would bring the bundle's constant-engine footprint to {total} bytes, over its budget of {budget} bytes (R-B-5); inherit the slot or split the bundle")]
    BudgetExceeded {
        call: &'static str,
        slot: String,
        total: u32,
        budget: u32,
    },

    #[error("{call}: {object} cannot be encapsulated in a bundle ({reason}); bind it on the executing context and let the bundle inherit it (R-B-6)")]
    NotEncapsulable {
        call: &'static str,
        object: ObjectName,
        reason: &'static str,
    },

    #[error("{call}: this state is always inherited by a bundle and cannot be recorded into one; set it on the executing context (R-B-7)")]
    InheritedStateInBundle { call: &'static str },

    #[error("{call} cannot be recorded into a bundle (R-B-8); record it on a deferred or the immediate context")]
    UnsupportedInBundle { call: &'static str },

    #[error("{call}: {missing} must be set in the bundle before its first {what} (R-B-3); null is allowed")]
    MissingMandatoryState {
        call: &'static str,
        missing: String,
        what: &'static str,
    },

    #[error("{call}: {shader} uses stream output, which is forbidden in bundles (R-B-6)")]
    StreamOutputInBundle {
        call: &'static str,
        shader: ObjectName,
    },

    #[error(
        "{call}: the bundle was recorded for {expected} but the context has {found} bound (R-B-10)"
    )]
    FormatMismatch {
        call: &'static str,
        expected: String,
        found: String,
    },

    #[error("{call}: {object} is dynamic and {rule}; map it write_discard in this list first")]
    DynamicBeforeMap {
        call: &'static str,
        object: ObjectName,
        rule: &'static str,
    },

    #[error("{call}: restore=true is not supported with fast semantics, which shadows no state (R-REC-6, R-ST-2); pass restore=false and set the state the next work needs")]
    RestoreNotSupported { call: &'static str },

    #[error("{call}: a {list} command list cannot run in an execution scope already running {scope} lists (R-ST-3); end the scope first")]
    MixedSemantics {
        call: &'static str,
        list: &'static str,
        scope: &'static str,
    },

    #[error("{call} is forbidden on a fast-semantics context ({rule})")]
    ForbiddenInFast {
        call: &'static str,
        rule: &'static str,
    },

    #[error("create_deferred_context: {limit} deferred contexts are already alive on this device (R-REC-1); drop one first")]
    TooManyContexts { limit: u32 },

    #[error(
        "{call}: {object} was released by the application and cannot be used any more (R-OBJ-3)"
    )]
    ReleasedObject {
        call: &'static str,
        object: ObjectName,
    },

    #[error("{call}: context or command list created with fast semantics attempting CPU access of {object} still in use by the {engine} engine (fence {fence:#x}). Explicit synchronization is required (R-V-1)")]
    ResourceInUse {
        call: &'static str,
        object: ObjectName,
        engine: &'static str,
        fence: u64,
    },

    #[error("{call}: {object} {access} while its resource is still compressed; call decompress_resource on it first, or set_resource_compression if its compressed form is what you mean to read (R-V-1)")]
    CompressedRead {
        call: &'static str,
        /// The view bound, or the texture copied or presented.
        object: ObjectName,
        /// How the call reaches it outside the colour and depth blocks: "is bound for shader
        /// access", "is the source of the copy", "is presented", ...
        access: &'static str,
    },

    #[error("{call}: first write this frame to back buffer {buffer} of {swap_chain} without insert_wait_on_present (R-EX-7)")]
    MissingWaitOnPresent {
        call: &'static str,
        swap_chain: ObjectName,
        buffer: u32,
    },

    #[error("{call}: the command list was recorded against back buffer {recorded} of {swap_chain}, but back buffer {current} is current; record one list per back buffer (R-EX-7)")]
    BackBufferAffinity {
        call: &'static str,
        swap_chain: ObjectName,
        recorded: u32,
        current: u32,
    },

    #[error("{second_call}: {object} was written by {first_call} and is accessed again through another path without a barrier or flush between (R-V-2)")]
    Hazard {
        first_call: String,
        second_call: String,
        object: ObjectName,
    },

    #[error("{call}: {message}")]
    InvalidArgument { call: &'static str, message: String },
}

impl Error {
    /// The trace kind of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::BudgetExceeded { .. } => ErrorKind::BudgetExceeded,
            Self::NotEncapsulable { .. } => ErrorKind::NotEncapsulable,
            Self::InheritedStateInBundle { .. } => ErrorKind::InheritedStateInBundle,
            Self::UnsupportedInBundle { .. } => ErrorKind::UnsupportedInBundle,
            Self::MissingMandatoryState { .. } => ErrorKind::MissingMandatoryState,
            Self::StreamOutputInBundle { .. } => ErrorKind::StreamOutputInBundle,
            Self::FormatMismatch { .. } => ErrorKind::FormatMismatch,
            Self::DynamicBeforeMap { .. } => ErrorKind::DynamicBeforeMap,
            Self::RestoreNotSupported { .. } => ErrorKind::RestoreNotSupported,
            Self::MixedSemantics { .. } => ErrorKind::MixedSemantics,
            Self::ForbiddenInFast { .. } => ErrorKind::ForbiddenInFast,
            Self::TooManyContexts { .. } => ErrorKind::TooManyContexts,
            Self::ReleasedObject { .. } => ErrorKind::ReleasedObject,
            Self::ResourceInUse { .. } => ErrorKind::ResourceInUse,
            Self::CompressedRead { .. } => ErrorKind::CompressedRead,
            Self::MissingWaitOnPresent { .. } => ErrorKind::MissingWaitOnPresent,
            Self::BackBufferAffinity { .. } => ErrorKind::BackBufferAffinity,
            Self::Hazard { .. } => ErrorKind::Hazard,
            Self::InvalidArgument { .. } => ErrorKind::InvalidArgument,
        }
    }

    pub(crate) fn invalid(call: &'static str, message: impl Into<String>) -> Self {
        Self::InvalidArgument {
            call,
            message: message.into(),
        }
    }
}

/// An error with its scope: the context that recorded the call and the call's index in the list
/// being recorded (0-based, counting every call made since the list began).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{context}, call {call_index}: {error}")]
pub struct RecordError {
    pub context: String,
    pub call_index: u32,
    #[source]
    pub error: Error,
}

impl RecordError {
    pub fn kind(&self) -> ErrorKind {
        self.error.kind()
    }
}
