//! The barriers of the call vocabulary: one BARRIER of `barrier` (R-BAR-1) and the legacy
//! barrier of `resource_barrier` (R-BAR-6), in a [`Form`].
//!
//! **In:** nothing; these are plain data. **Out:** [`Barrier`] and [`LegacyBarrier`], which
//! [`Method::Barrier`](super::Method::Barrier) and
//! [`Method::ResourceBarrier`](super::Method::ResourceBarrier) hold.
//!
//! **Invariant.** One shape for both forms: as written, a flag side keeps its words in the order
//! written and a range not written is `None`; the replay holds the same variants lowered.

use super::forms::{BeforeAfter, Form, Written};

/// One BARRIER of `barrier BARRIER [| BARRIER ..]` (SPEC R-BAR-1), in the [`Form`] `F`.
#[derive(Clone, Debug, PartialEq)]
pub enum Barrier<F: Form = Written> {
    /// `global sync=BEFORE:AFTER access=BEFORE:AFTER`.
    Global {
        /// `sync=`.
        sync: BeforeAfter<F::Sync>,
        /// `access=`.
        access: BeforeAfter<F::Access>,
    },
    /// `buffer BUF sync=BEFORE:AFTER access=BEFORE:AFTER [size=BYTES]`.
    Buffer {
        /// BUF: any resource (a texture is the engine's `invalid_barrier`).
        resource: F::Object,
        /// `sync=`.
        sync: BeforeAfter<F::Sync>,
        /// `access=`.
        access: BeforeAfter<F::Access>,
        /// `size=`, in bytes from offset 0; `None`: not written (the whole buffer).
        size: Option<u64>,
    },
    /// `texture TEX sync=.. access=.. layout=BEFORE:AFTER [mips=A-B] [array=A-B] [planes=A-B]
    /// [discard]`.
    Texture {
        /// TEX: any resource (a buffer is the engine's `invalid_barrier`).
        resource: F::Object,
        /// `sync=`.
        sync: BeforeAfter<F::Sync>,
        /// `access=`.
        access: BeforeAfter<F::Access>,
        /// `layout=`.
        layout: BeforeAfter<F::Layout>,
        /// `mips=A-B`, inclusive.
        mips: F::Span,
        /// `array=A-B`, inclusive.
        array: F::Span,
        /// `planes=A-B`, inclusive: 0 depth (or colour), 1 stencil.
        planes: F::Span,
        /// `discard` was written: the contents are discarded (metadata initialised, R-BAR-3).
        discard: bool,
    },
}

/// The legacy barrier of `resource_barrier` (SPEC R-BAR-6), in the [`Form`] `F`.
#[derive(Clone, Debug, PartialEq)]
pub enum LegacyBarrier<F: Form = Written> {
    /// `transition RESOURCE STATE_BEFORE STATE_AFTER [subresource=N] [split=begin|end]`.
    Transition {
        /// The resource.
        resource: F::Object,
        /// STATE_BEFORE.
        before: F::States,
        /// STATE_AFTER.
        after: F::States,
        /// `subresource=N`; `None`: every subresource.
        subresource: Option<F::Count>,
        /// `split=begin|end` (R-BAR-4); `None`: not split.
        split: Option<F::Split>,
    },
    /// `uav RESOURCE|null`.
    Uav {
        /// The resource, or `null` for every UAV access.
        resource: Option<F::Object>,
    },
    /// `aliasing RESOURCE|null RESOURCE|null`.
    Aliasing {
        /// The resource aliased away from, or `null`.
        before: Option<F::Object>,
        /// The resource aliased to, or `null`.
        after: Option<F::Object>,
    },
}
