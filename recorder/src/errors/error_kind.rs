//! The error kinds of `TRACE.md` ([`ErrorKind`]): the coarse class of every [`Error`](crate::Error) variant,
//! which the traces name and the conformance tests match.
//!
//! **In:** nothing (a closed list). **Out:** each kind's word and its `Display`.
//!
//! **Invariant.** One kind per error word of TRACE.md; [`Error::kind`](crate::Error::kind) maps every variant onto
//! exactly one.

use std::fmt;

/// The error kinds of `TRACE.md`: [`Error::kind`](crate::Error::kind) of each variant of [`Error`](crate::Error) (every leaf variant
/// of a call's bad arguments is [`ErrorKind::InvalidArgument`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A bundle's constant-engine footprint over its budget (R-B-5).
    BudgetExceeded,
    /// An object a bundle cannot hold (R-B-6).
    NotEncapsulable,
    /// State a bundle always inherits, recorded into one (R-B-7).
    InheritedStateInBundle,
    /// A call a bundle recorder does not take (R-B-8).
    UnsupportedInBundle,
    /// A bundle draw or dispatch before its mandatory state was set (R-B-3).
    MissingMandatoryState,
    /// A stream-output shader bound in a bundle (R-B-6).
    StreamOutputInBundle,
    /// A bundle executed with other output formats than it was recorded for (R-B-10).
    FormatMismatch,
    /// A dynamic buffer used before its first map in the list.
    DynamicBeforeMap,
    /// `RestoreState::Restore` on a fast-semantics list (R-REC-6, R-ST-2).
    RestoreNotSupported,
    /// Lists of both semantics in one execution scope (R-ST-3).
    MixedSemantics,
    /// A call a fast-semantics context does not take.
    ForbiddenInFast,
    /// More deferred contexts alive than the device allows (R-REC-1).
    TooManyContexts,
    /// An object used after the application released it (R-OBJ-3).
    ReleasedObject,
    /// CPU access under fast semantics to a resource the GPU still uses (R-V-1).
    ResourceInUse,
    /// A compressed resource read outside the colour and depth blocks (R-V-1).
    CompressedRead,
    /// A first write to a back buffer this frame without `insert_wait_on_present` (R-EX-7).
    MissingWaitOnPresent,
    /// A list recorded against another back buffer than the current one (R-EX-7).
    BackBufferAffinity,
    /// A write and a later access through another path without a barrier (R-V-2).
    Hazard,
    /// A barrier the rules of §9 refuse (R-BAR-4, R-BAR-6, R-BAR-8).
    InvalidBarrier,
    /// An enhanced barrier of a resource whose legacy state is not `COMMON` (R-BAR-6).
    LegacyStateNotCommon,
    /// A call whose arguments break a rule of the API: every leaf variant of [`Error`](crate::Error) from
    /// [`Error::SlotOutOfRange`](crate::Error::SlotOutOfRange) on.
    InvalidArgument,
}

impl ErrorKind {
    /// Every kind, in the order `TRACE.md` lists them.
    pub const ALL: [ErrorKind; 21] = [
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
        Self::InvalidBarrier,
        Self::LegacyStateNotCommon,
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
            Self::InvalidBarrier => "invalid_barrier",
            Self::LegacyStateNotCommon => "legacy_state_not_common",
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
