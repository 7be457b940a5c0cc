//! The expectations of a trace (docs/TRACE.md "Expectations"): `expect ok`, `accepted`,
//! `error`, `split_points`, `counters`, `draw`, `resource`, `gds`, `constant_ram`, `memory`,
//! `query`, `pending`, `bundle_footprint`.
//!
//! **In:** nothing; these are plain data. **Out:** [`Expectation`] in a [`Form`], as a
//! [`Method`](super::Method) is: as written, or lowered by the replay.
//!
//! **Invariant.** Only the keys written are checked: a key not written is `None` (or absent
//! from the list); what `expect draw` expects stays as written in both forms (the replay
//! compares it by trace name).

use crate::syntax::name::Name;
use crate::syntax::value::{DrawField, ExpectedValue};
use crate::syntax::words::QueryKey;

use super::forms::{Form, Written};

/// The `layout=` of `expect resource`: one layout, or `mixed` (the subresources differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpectedLayout<L> {
    /// Every subresource is in this layout.
    Is(L),
    /// `mixed`: the subresources are not all in one layout.
    Mixed,
}

/// Whom `expect error` and `expect accepted` ask about: `imm`, a deferred context or bundle
/// recorder, or any other declared object (a declaration the engine rejected is reported under the
/// declared name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject<O = Name> {
    /// `imm`.
    Immediate,
    /// Any other declared object.
    Named(O),
}

/// An expectation (docs/TRACE.md "Expectations"), in the [`Form`] `F` as a
/// [`Method`](super::Method) is: as written, or lowered by the replay (objects by number, the
/// engine's error kinds, split categories and counter keys). What `expect draw` expects stays as
/// written in both (the replay compares it by trace name).
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation<F: Form = Written> {
    /// `expect ok`.
    Ok,
    /// `expect accepted CTX`: the last call on CTX (or its finish, execute, declaration) was
    /// accepted.
    Accepted {
        /// Whom the acceptance is expected of.
        subject: Subject<F::Object>,
    },
    /// `expect error CTX KIND`.
    Error {
        /// Whom the error is expected of.
        subject: Subject<F::Object>,
        /// The error kind expected.
        kind: F::ErrorKind,
    },
    /// `expect split_points LIST [total=N] [CATEGORY=N ..]`: only the keys named are checked;
    /// the categories in the order written, each at most once.
    SplitPoints {
        /// The command list.
        list: F::Object,
        /// `total=`: the number of split points; `None`: not checked.
        total: Option<u64>,
        /// `CATEGORY=N`: the split points of each category named.
        categories: Vec<(F::SplitCategory, u64)>,
    },
    /// `expect counters KEY=N ..`: at least one key, each at most once, in the order written.
    Counters(Vec<(F::CounterKey, u64)>),
    /// `expect draw INDEX FIELD VALUE`.
    Draw {
        /// The 0-based index of the draw record, counting draws and dispatches so far.
        index: u64,
        /// The field checked.
        field: DrawField,
        /// The value expected.
        value: ExpectedValue,
    },
    /// `expect resource RES [layout=L] [compressed=yes|no] [depth=..] [stencil=..]`: its state
    /// now, as the GPU model reports it; only the keys written are checked.
    Resource {
        /// The resource.
        resource: F::Object,
        /// `layout=L|mixed`.
        layout: Option<ExpectedLayout<F::Layout>>,
        /// `compressed=yes|no`: whether any plane is compressed.
        compressed: Option<bool>,
        /// `depth=compressed|decompressed`: the depth plane's compression.
        depth: Option<F::Compression>,
        /// `stencil=compressed|decompressed`: the stencil plane's compression.
        stencil: Option<F::Compression>,
    },
    /// `expect gds OFFSET V [V ..]`: the GDS words from byte OFFSET, as the GPU model holds
    /// them now (R-FX-4).
    Gds {
        /// Byte offset in GDS (a multiple of 4).
        offset: F::Count,
        /// The words expected (at least one).
        values: Vec<F::Count>,
    },
    /// `expect constant_ram OFFSET V [V ..]`: constant-RAM words from byte OFFSET (R-FX-5).
    ConstantRam {
        /// Byte offset in constant RAM (a multiple of 4).
        offset: F::Count,
        /// The words expected (at least one).
        values: Vec<F::Count>,
    },
    /// `expect memory BUF OFFSET V [V ..]`: words of BUF from byte OFFSET as the GPU model holds
    /// them (what `read_gds`, `store_constant_ram`, ... wrote; R-FX-4, R-FX-5).
    Memory {
        /// The buffer.
        buffer: F::Object,
        /// Byte offset in BUF (a multiple of 4).
        offset: F::Count,
        /// The words expected (at least one).
        values: Vec<F::Count>,
    },
    /// `expect query QUERY KEY=N [KEY=N ..]` or `expect query QUERY not_ready` (R-FX-3): what
    /// the immediate context's `get_data` returns at this line.
    Query {
        /// The query.
        query: F::Object,
        /// What `get_data` is expected to return.
        expected: ExpectedQuery,
    },
    /// `expect pending RES yes|no` (R-FX-6): `ImmediateContext::is_resource_pending` now.
    Pending {
        /// The resource.
        resource: F::Object,
        /// Whether legacy work using it is expected pending.
        pending: bool,
    },
    /// `expect bundle_footprint BUNDLE BYTES`.
    BundleFootprint {
        /// The bundle.
        bundle: F::Object,
        /// Its constant-engine footprint expected, in bytes (R-B-11).
        bytes: u64,
    },
}

/// What `expect query` expects of `get_data` (R-FX-3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpectedQuery {
    /// `not_ready`: legacy semantics, the query's end has not run yet.
    NotReady,
    /// `KEY=N ..`: data, these keys with these values, in the order written, each at most
    /// once.
    Data(Vec<(QueryKey, u64)>),
}
