//! The closed vocabularies of docs/TRACE.md: every word the grammar lists as a choice
//! (`legacy|fast`, `vs hs ds gs ps cs`, the map types, the error kinds, the counter keys, ...), one
//! enum each.
//!
//! **In:** a token. **Out:** the enum value (`from_name`), and back the token (`name`, `Display`).
//! The two are inverse for every value: `from_name(v.name()) == Some(v)`, which the printer's
//! round trip relies on. Nothing here knows about lines or errors; the parser turns a `None`
//! into a message listing `choices()`.

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
    /// A context's semantics: `device semantics=..`, `context NAME semantics=..`.
    pub enum Semantics {
        Legacy => "legacy",
        Fast => "fast",
    }
}

words! {
    /// `device validation=..`.
    pub enum Validation {
        Off => "off",
        On => "on",
        Hazards => "hazards",
    }
}

words! {
    /// `buffer usage=..`.
    pub enum Usage {
        Default => "default",
        Immutable => "immutable",
        Dynamic => "dynamic",
        Staging => "staging",
    }
}

words! {
    /// One of the FLAGS of `bind=`.
    pub enum BindFlag {
        Vertex => "vertex",
        Index => "index",
        Constant => "constant",
        ShaderResource => "shader_resource",
        UnorderedAccess => "unordered_access",
        StreamOutput => "stream_output",
        RenderTarget => "render_target",
        DepthStencil => "depth_stencil",
    }
}

words! {
    /// `buffer uav_flag=..`.
    pub enum UavFlag {
        Append => "append",
        Counter => "counter",
    }
}

words! {
    /// A shader stage, STAGE in docs/TRACE.md.
    pub enum Stage {
        Vertex => "vs",
        Hull => "hs",
        Domain => "ds",
        Geometry => "gs",
        Pixel => "ps",
        Compute => "cs",
    }
}

words! {
    /// `set_primitive_topology ..`, and the `topology` field of a draw record (which answers
    /// `undefined` before any topology is set; the call accepts it too, as D3D does).
    pub enum Topology {
        Undefined => "undefined",
        TriangleList => "triangle_list",
        TriangleStrip => "triangle_strip",
        LineList => "line_list",
        LineStrip => "line_strip",
        PointList => "point_list",
    }
}

words! {
    /// `map RESOURCE ..`.
    pub enum MapType {
        WriteDiscard => "write_discard",
        WriteNoOverwrite => "write_no_overwrite",
        Read => "read",
        Write => "write",
        ReadWrite => "read_write",
    }
}

words! {
    /// `set_resource_compression RESOURCE ..`.
    pub enum Compression {
        Compressed => "compressed",
        Decompressed => "decompressed",
    }
}

words! {
    /// `insert_fence F engine=..`, `insert_wait_on_fence F engine=..`.
    pub enum Engine {
        Graphics => "graphics",
        Compute => "compute",
        Dma => "dma",
    }
}

words! {
    /// `expect error CTX KIND`: one to one with the engine's error kinds.
    pub enum ErrorKind {
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
        InvalidArgument => "invalid_argument",
    }
}

words! {
    /// `expect counters KEY=N ..`.
    pub enum CounterKey {
        Draws => "draws",
        Dispatches => "dispatches",
        ContextRolls => "context_rolls",
        IbExecutions => "ib_executions",
        SplitPointsResolved => "split_points_resolved",
        Decompressions => "decompressions",
        CeBytes => "ce_bytes",
        CacheFlushes => "cache_flushes",
        FenceWaits => "fence_waits",
        BundleCalls => "bundle_calls",
    }
}

words! {
    /// `expect split_points LIST CATEGORY=N ..`.
    pub enum SplitCategory {
        ClearRenderTarget => "clear_render_target",
        ClearDepthStencil => "clear_depth_stencil",
        SetRenderTargets => "set_render_targets",
        SetUnorderedAccessViews => "set_unordered_access_views",
        SetDepthStencilState => "set_depth_stencil_state",
        DynamicIndexBuffer => "dynamic_index_buffer",
        DynamicVertexBuffer => "dynamic_vertex_buffer",
        DynamicConstantBuffer => "dynamic_constant_buffer",
        DynamicShaderResource => "dynamic_shader_resource",
        Decompression => "decompression",
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
