//! The closed vocabularies of docs/TRACE.md: every word the grammar lists as a choice
//! (`legacy|fast`, `vs hs ds gs ps cs`, the map types, the error kinds, the counter keys, ...).
//!
//! **The engine's words.** A vocabulary that names an engine value is the engine's own type and
//! its word table (`recorder/src/desc/word_tables.rs`): the parser reads `Stage`, `MapType`,
//! `BarrierLayout`, ... with their `from_name`, the printer writes their `name`, and the replay
//! takes the value as it is. This file is the one place the syntax room imports them from (the
//! engine's value types and word tables only, never a device or a context: a test holds it).
//! The barriers' flags and layouts are kept as the words written ([`Word`]): `predication` and
//! `present` are aliases of `execute_indirect`/`indirect_argument` and `common`, and the printer
//! gives back the alias the trace wrote.
//!
//! **The trace's own words.** The vocabularies the engine has no enum for (the counter keys of
//! `expect counters`, the query keys of `expect query`, `yes|no`, `on|off`) are declared here,
//! one enum each.
//!
//! **In:** a token. **Out:** the value (`from_name`), and back the token (`name`, `Display`).
//! The two are inverse for every value: `from_name(v.name()) == Some(v)`, which the printer's
//! round trip relies on. Nothing here knows about lines or errors; the parser turns a `None`
//! into a message listing `choices()`.

pub use recorder::{
    AddressMode, BarrierAccess, BarrierLayout, BarrierSync, BindFlags, BlendFactor, BlendOp,
    Comparison, Compression, CullMode, DecompressKinds, Engine, ErrorKind, MapType,
    PrimitiveTopology, QueryKind, QueryMode, ResourceStates, Semantics, SplitCategory, SplitHalf,
    Stage, StencilOp, UavFlag, Usage, Validation, Word, WordTable,
};

/// A flag of `sync=BEFORE:AFTER`, as written (SPEC R-BAR-1).
pub type SyncWord = Word<BarrierSync>;
/// A flag of `access=BEFORE:AFTER`, as written (SPEC R-BAR-1).
pub type AccessWord = Word<BarrierAccess>;
/// A layout of `layout=BEFORE:AFTER` and `expect resource … layout=`, as written (R-BAR-1).
pub type LayoutWord = Word<BarrierLayout>;
/// A flag of a legacy STATE, as written (SPEC R-BAR-6).
pub type StateWord = Word<ResourceStates>;

/// `uav_flag=`'s words: the engine's [`UavFlag`]s but `none` (a plain UAV writes no
/// `uav_flag=`).
pub(crate) fn uav_flag(word: &str) -> Option<UavFlag> {
    UavFlag::from_name(word).filter(|flag| *flag != UavFlag::None)
}

/// `split=`'s words: the engine's [`SplitHalf`]s but `none` (an unsplit transition writes no
/// `split=`).
pub(crate) fn split_half(word: &str) -> Option<SplitHalf> {
    SplitHalf::from_name(word).filter(|half| *half != SplitHalf::None)
}

/// `a|b` of the words a `filter`ed table takes, for messages.
pub(crate) fn choices_but<T: WordTable>(left_out: T) -> String {
    let words: Vec<&str> = T::WORDS
        .iter()
        .filter(|(_, value)| *value != left_out)
        .map(|(word, _)| *word)
        .collect();
    words.join("|")
}

use std::fmt;

/// Declares an enum of words, with `ALL`, `name`, `from_name`, `choices` and `Display`.
macro_rules! words {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident => $text:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$variant_meta])* $variant,)*
        }

        impl $name {
            /// Every value, in docs/TRACE.md's order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The word as a trace writes it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)*
                }
            }

            /// The value a trace word names, if any.
            pub fn from_name(text: &str) -> Option<Self> {
                match text {
                    $($text => Some(Self::$variant),)*
                    _ => None,
                }
            }

            /// `a|b|c`, for error messages.
            pub(crate) fn choices() -> String {
                let names: Vec<&str> = Self::ALL.iter().map(|v| v.name()).collect();
                names.join("|")
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

words! {
    /// `sampler_state ... filter=` (R-GPU-2): linear or point minification, magnification and
    /// mip filtering (`D3D11_FILTER_MIN_MAG_MIP_LINEAR` or `_POINT`).
    pub enum Filter {
        /// `D3D11_FILTER_MIN_MAG_MIP_LINEAR`, D3D11's default.
        Linear => "linear",
        /// `D3D11_FILTER_MIN_MAG_MIP_POINT`.
        Point => "point",
    }
}

words! {
    /// `expect counters KEY=N ..`.
    pub enum CounterKey {
        /// Draws executed.
        Draws => "draws",
        /// Dispatches executed.
        Dispatches => "dispatches",
        /// Context rolls (R-EX-4).
        ContextRolls => "context_rolls",
        /// Indirect-buffer executions: segments run (R-SP-4).
        IbExecutions => "ib_executions",
        /// Split points resolved at execution (R-SP-5).
        SplitPointsResolved => "split_points_resolved",
        /// Decompressions of compressible targets (R-ST-9).
        Decompressions => "decompressions",
        /// Bytes the constant engine loaded for bundle calls (R-B-5).
        CeBytes => "ce_bytes",
        /// Cache write-backs: legacy hazard responses (R-ST-10) and barriers (R-BAR-2).
        CacheFlushes => "cache_flushes",
        /// Cache invalidations of barriers (R-BAR-2).
        CacheInvalidations => "cache_invalidations",
        /// Fence waits.
        FenceWaits => "fence_waits",
        /// Bundle calls executed (R-B-10).
        BundleCalls => "bundle_calls",
        /// Barriers executed (R-BAR-2, R-BAR-8).
        Barriers => "barriers",
        /// Drains: waits for the work a barrier's SyncBefore names (R-BAR-2).
        Drains => "drains",
        /// Stalls: work a barrier's SyncAfter holds, and the split barrier's CE and PFP holds
        /// (R-BAR-2, R-BAR-4).
        Stalls => "stalls",
        /// Metadata initialisations by `discard` (R-BAR-3).
        MetadataInits => "metadata_inits",
    }
}

/// `yes`/`no` as a trace writes it.
pub(crate) fn yes_no(value: bool) -> &'static str {
    if value {
        "yes"
    } else {
        "no"
    }
}

/// The value of a `yes`/`no` token.
pub(crate) fn parse_yes_no(text: &str) -> Option<bool> {
    match text {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

words! {
    /// `expect query QUERY KEY=N ..` (R-FX-3): each kind's data has its keys.
    pub enum QueryKey {
        /// Samples that passed (occlusion, predicate).
        Samples => "samples",
        /// Whether any sample passed, 0 or 1 (predicate).
        Passed => "passed",
        /// The clock when written (timestamp).
        Timestamp => "timestamp",
        /// Vertices read (pipeline statistics, as the keys below).
        IaVertices => "ia_vertices",
        /// Primitives read.
        IaPrimitives => "ia_primitives",
        /// Vertex-shader invocations.
        VsInvocations => "vs_invocations",
        /// Geometry-shader invocations.
        GsInvocations => "gs_invocations",
        /// Primitives the geometry shader output.
        GsPrimitives => "gs_primitives",
        /// Primitives sent to the rasteriser.
        CInvocations => "c_invocations",
        /// Primitives rendered.
        CPrimitives => "c_primitives",
        /// Pixel-shader invocations.
        PsInvocations => "ps_invocations",
        /// Hull-shader invocations.
        HsInvocations => "hs_invocations",
        /// Domain-shader invocations.
        DsInvocations => "ds_invocations",
        /// Compute-shader invocations.
        CsInvocations => "cs_invocations",
    }
}

/// `on`/`off` as a trace writes it (`device legacy_barriers=`).
pub(crate) fn on_off(value: bool) -> &'static str {
    if value {
        "on"
    } else {
        "off"
    }
}

/// The value of an `on`/`off` token.
pub(crate) fn parse_on_off(text: &str) -> Option<bool> {
    match text {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}
