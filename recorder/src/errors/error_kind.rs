//! The error kinds of `TRACE.md` ([`ErrorKind`]): the coarse class of every [`Error`](crate::Error) variant,
//! which the traces name and the conformance tests match.
//!
//! **In:** nothing (a closed list). **Out:** each kind's word (its word table) and its `Display`.
//!
//! **Invariant.** One kind per error word of TRACE.md; [`Error::kind`](crate::Error::kind) maps every variant onto
//! exactly one.

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

// `ALL` is in the order `TRACE.md` lists the kinds.
crate::desc::word_table! {
    ErrorKind {
        BudgetExceeded => "budget_exceeded",
        NotEncapsulable => "not_encapsulable",
        InheritedStateInBundle => "inherited_state_in_bundle",
        UnsupportedInBundle => "unsupported_in_bundle",
        MissingMandatoryState => "missing_mandatory_state",
        StreamOutputInBundle => "stream_output_in_bundle",
        FormatMismatch => "format_mismatch",
        DynamicBeforeMap => "dynamic_before_map",
        RestoreNotSupported => "restore_not_supported",
        MixedSemantics => "mixed_semantics",
        ForbiddenInFast => "forbidden_in_fast",
        TooManyContexts => "too_many_contexts",
        ReleasedObject => "released_object",
        ResourceInUse => "resource_in_use",
        CompressedRead => "compressed_read",
        MissingWaitOnPresent => "missing_wait_on_present",
        BackBufferAffinity => "back_buffer_affinity",
        Hazard => "hazard",
        InvalidBarrier => "invalid_barrier",
        LegacyStateNotCommon => "legacy_state_not_common",
        InvalidArgument => "invalid_argument",
    }
}
