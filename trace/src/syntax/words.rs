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
        /// D3D11 legacy semantics: state shadowed, references counted, split points resolved at
        /// execution.
        Legacy => "legacy",
        /// Fast semantics: no shadow, no references, no split points (R-SP-3).
        Fast => "fast",
    }
}

words! {
    /// `device validation=..`.
    pub enum Validation {
        /// No validation (the default).
        Off => "off",
        /// The validated driver's checks (R-V-1).
        On => "on",
        /// R-V-1 and deterministic hazard reports (R-V-2).
        Hazards => "hazards",
    }
}

words! {
    /// `buffer usage=..`.
    pub enum Usage {
        /// GPU read and write; `update_subresource` writes it.
        Default => "default",
        /// Contents fixed at creation.
        Immutable => "immutable",
        /// CPU-written through write_discard and write_no_overwrite maps (R-ST-8).
        Dynamic => "dynamic",
        /// CPU read-back and upload; bound nowhere (`bind=none`).
        Staging => "staging",
    }
}

words! {
    /// One of the FLAGS of `bind=`.
    pub enum BindFlag {
        /// Bindable as a vertex buffer.
        Vertex => "vertex",
        /// Bindable as an index buffer.
        Index => "index",
        /// Bindable as a constant buffer.
        Constant => "constant",
        /// Viewable by an SRV.
        ShaderResource => "shader_resource",
        /// Viewable by a UAV.
        UnorderedAccess => "unordered_access",
        /// A stream-output target.
        StreamOutput => "stream_output",
        /// Viewable by an RTV.
        RenderTarget => "render_target",
        /// Viewable by a DSV.
        DepthStencil => "depth_stencil",
    }
}

words! {
    /// `buffer uav_flag=..`.
    pub enum UavFlag {
        /// An append buffer: its UAVs have a hidden counter (R-ST-7).
        Append => "append",
        /// A counter buffer: its UAVs have a hidden counter (R-ST-7).
        Counter => "counter",
    }
}

words! {
    /// A shader stage, STAGE in docs/TRACE.md.
    pub enum Stage {
        /// `vs`, the vertex shader.
        Vertex => "vs",
        /// `hs`, the hull shader.
        Hull => "hs",
        /// `ds`, the domain shader.
        Domain => "ds",
        /// `gs`, the geometry shader.
        Geometry => "gs",
        /// `ps`, the pixel shader.
        Pixel => "ps",
        /// `cs`, the compute shader.
        Compute => "cs",
    }
}

words! {
    /// `set_primitive_topology ..`, and the `topology` field of a draw record (which answers
    /// `undefined` before any topology is set; the call accepts it too, as D3D does).
    pub enum Topology {
        /// No topology set yet.
        Undefined => "undefined",
        /// A triangle list.
        TriangleList => "triangle_list",
        /// A triangle strip.
        TriangleStrip => "triangle_strip",
        /// A line list.
        LineList => "line_list",
        /// A line strip.
        LineStrip => "line_strip",
        /// A point list.
        PointList => "point_list",
    }
}

words! {
    /// `map RESOURCE ..`.
    pub enum MapType {
        /// A new instance of a dynamic resource (R-REC-10, R-ST-8).
        WriteDiscard => "write_discard",
        /// Write in place, promising not to touch data the GPU reads (R-REC-11).
        WriteNoOverwrite => "write_no_overwrite",
        /// CPU read (staging).
        Read => "read",
        /// CPU write (staging).
        Write => "write",
        /// CPU read and write (staging).
        ReadWrite => "read_write",
    }
}

words! {
    /// `set_resource_compression RESOURCE ..`.
    pub enum Compression {
        /// The target is compressed from then on (R-ST-9).
        Compressed => "compressed",
        /// The target is decompressed from then on (R-ST-9).
        Decompressed => "decompressed",
    }
}

words! {
    /// `insert_fence F engine=..`, `insert_wait_on_fence F engine=..`.
    pub enum Engine {
        /// The graphics engine (the default).
        Graphics => "graphics",
        /// The asynchronous compute engine.
        Compute => "compute",
        /// The DMA engine.
        Dma => "dma",
    }
}

words! {
    /// `expect error CTX KIND`: one to one with the engine's error kinds.
    pub enum ErrorKind {
        /// A bundle's constant-engine budget exceeded (R-B-5).
        BudgetExceeded => "budget_exceeded",
        /// An object a bundle cannot encapsulate: dynamic resources and the like (R-B-6).
        NotEncapsulable => "not_encapsulable",
        /// State that a bundle always inherits, recorded in one (R-B-7).
        InheritedStateInBundle => "inherited_state_in_bundle",
        /// A call a bundle does not support (R-B-8).
        UnsupportedInBundle => "unsupported_in_bundle",
        /// A bundle draw before the mandatory state is set (R-B-3).
        MissingMandatoryState => "missing_mandatory_state",
        /// A stream-output shader in a bundle (R-B-6).
        StreamOutputInBundle => "stream_output_in_bundle",
        /// A bundle called with other render-target formats bound than it was recorded for
        /// (R-B-10).
        FormatMismatch => "format_mismatch",
        /// A fast list uses a dynamic resource it has not mapped write_discard (R-ST-8, R-SP-3).
        DynamicBeforeMap => "dynamic_before_map",
        /// `restore=yes` on a fast context (R-REC-6, R-REC-9).
        RestoreNotSupported => "restore_not_supported",
        /// A list of one semantics in an execution scope already running the other's (R-ST-3).
        MixedSemantics => "mixed_semantics",
        /// A call fast semantics refuses: `update_subresource`, `copy_structure_count`, append and
        /// counter UAVs (R-ST-7).
        ForbiddenInFast => "forbidden_in_fast",
        /// The 49th deferred context (R-REC-1).
        TooManyContexts => "too_many_contexts",
        /// A use of a released object (R-OBJ-3).
        ReleasedObject => "released_object",
        /// Fast CPU access of a resource the GPU still uses, without synchronization (R-EX-6,
        /// R-V-1).
        ResourceInUse => "resource_in_use",
        /// A target read (bound for shader access, copied, presented) while still compressed
        /// (R-ST-9, R-V-1).
        CompressedRead => "compressed_read",
        /// A first write this frame to a back buffer without `insert_wait_on_present` (R-EX-7).
        MissingWaitOnPresent => "missing_wait_on_present",
        /// A list recorded against another back buffer than the current one (R-EX-7).
        BackBufferAffinity => "back_buffer_affinity",
        /// An object written and accessed again through another path with no barrier or flush
        /// between, found as the work runs (R-V-2).
        Hazard => "hazard",
        /// A barrier the rules refuse (R-BAR-4, R-BAR-6, R-BAR-8).
        InvalidBarrier => "invalid_barrier",
        /// An enhanced barrier of a resource whose legacy state is not common (R-BAR-6).
        LegacyStateNotCommon => "legacy_state_not_common",
        /// Any other bad argument.
        InvalidArgument => "invalid_argument",
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

words! {
    /// `expect split_points LIST CATEGORY=N ..`.
    pub enum SplitCategory {
        /// A clear of a render-target view (R-SP-1).
        ClearRenderTarget => "clear_render_target",
        /// A clear of a depth-stencil view (R-SP-1).
        ClearDepthStencil => "clear_depth_stencil",
        /// A bind of render targets or a depth stencil (R-SP-1).
        SetRenderTargets => "set_render_targets",
        /// A bind of unordered-access views, output-merger or compute (R-SP-1).
        SetUnorderedAccessViews => "set_unordered_access_views",
        /// A depth-stencil state set (R-SP-1).
        SetDepthStencilState => "set_depth_stencil_state",
        /// A dynamic index buffer not mapped write_discard earlier in the list (R-SP-4).
        DynamicIndexBuffer => "dynamic_index_buffer",
        /// A dynamic vertex buffer not mapped write_discard earlier in the list (R-SP-4).
        DynamicVertexBuffer => "dynamic_vertex_buffer",
        /// A dynamic constant buffer not mapped write_discard earlier in the list (R-SP-4).
        DynamicConstantBuffer => "dynamic_constant_buffer",
        /// An SRV of a dynamic resource not mapped write_discard earlier in the list (R-SP-4).
        DynamicShaderResource => "dynamic_shader_resource",
        /// An SRV or UAV of a compressible render target or depth stencil bound (R-SP-2).
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

words! {
    /// `query NAME KIND` (R-FX-3).
    pub enum QueryKindWord {
        /// Samples that pass.
        Occlusion => "occlusion",
        /// The GPU model's clock.
        Timestamp => "timestamp",
        /// Pipeline statistics.
        PipelineStatistics => "pipeline_statistics",
        /// Whether any sample passed (what `predicate NAME` declares).
        Predicate => "predicate",
    }
}

words! {
    /// `configure_query QUERY MODE` (R-FX-3).
    pub enum QueryModeWord {
        /// Every sample counts.
        Counting => "counting",
        /// Only whether any sample passed.
        Binary => "binary",
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

words! {
    /// A flag of `sync=BEFORE:AFTER` (SPEC R-BAR-1, `D3D12_BARRIER_SYNC` in snake case), one to
    /// one with the engine's `BarrierSync::NAMED`, in its order.
    pub enum SyncWord {
        /// No work.
        None => "none",
        /// All work.
        All => "all",
        /// Every stage of a draw.
        Draw => "draw",
        /// Index reads.
        IndexInput => "index_input",
        /// Vertex, hull, domain and geometry shading.
        VertexShading => "vertex_shading",
        /// Pixel shading.
        PixelShading => "pixel_shading",
        /// Depth-stencil reads and writes.
        DepthStencil => "depth_stencil",
        /// Render-target reads and writes.
        RenderTarget => "render_target",
        /// Compute shading.
        ComputeShading => "compute_shading",
        /// Ray tracing.
        Raytracing => "raytracing",
        /// Copies.
        Copy => "copy",
        /// Resolves.
        Resolve => "resolve",
        /// Indirect-argument reads.
        ExecuteIndirect => "execute_indirect",
        /// Predication reads: `execute_indirect` by another name (the same bit).
        Predication => "predication",
        /// Every shading stage.
        AllShading => "all_shading",
        /// Every shading stage but pixel shading.
        NonPixelShading => "non_pixel_shading",
        /// `ClearUnorderedAccessView*`.
        ClearUnorderedAccessView => "clear_unordered_access_view",
        /// The begin or the end of a split barrier (R-BAR-4).
        Split => "split",
    }
}

words! {
    /// A flag of `access=BEFORE:AFTER` (SPEC R-BAR-1, `D3D12_BARRIER_ACCESS` in snake case), one
    /// to one with the engine's `BarrierAccess::NAMED`, in its order.
    pub enum AccessWord {
        /// Any access the layout allows (zero).
        Common => "common",
        /// Vertex-buffer reads.
        VertexBuffer => "vertex_buffer",
        /// Constant-buffer reads.
        ConstantBuffer => "constant_buffer",
        /// Index-buffer reads.
        IndexBuffer => "index_buffer",
        /// Render-target writes.
        RenderTarget => "render_target",
        /// Unordered-access reads and writes.
        UnorderedAccess => "unordered_access",
        /// Depth-stencil writes.
        DepthStencilWrite => "depth_stencil_write",
        /// Depth-stencil reads.
        DepthStencilRead => "depth_stencil_read",
        /// Shader-resource reads.
        ShaderResource => "shader_resource",
        /// Stream-output writes.
        StreamOutput => "stream_output",
        /// Indirect-argument reads.
        IndirectArgument => "indirect_argument",
        /// Predication reads: `indirect_argument` by another name (the same bit).
        Predication => "predication",
        /// Copy destination.
        CopyDest => "copy_dest",
        /// Copy source.
        CopySource => "copy_source",
        /// Resolve destination.
        ResolveDest => "resolve_dest",
        /// Resolve source.
        ResolveSource => "resolve_source",
        /// No access at all.
        NoAccess => "no_access",
    }
}

words! {
    /// A layout of `layout=BEFORE:AFTER` and `expect resource … layout=` (SPEC R-BAR-1,
    /// `D3D12_BARRIER_LAYOUT` in snake case): the engine's `BarrierLayout::ALL` by `name()`, in
    /// its order, then `present`, which is `common` (the same value in D3D12).
    pub enum LayoutWord {
        /// The contents do not matter.
        Undefined => "undefined",
        /// Where a texture starts.
        Common => "common",
        /// Every read.
        GenericRead => "generic_read",
        /// Render target.
        RenderTarget => "render_target",
        /// Unordered access.
        UnorderedAccess => "unordered_access",
        /// Depth-stencil writes.
        DepthStencilWrite => "depth_stencil_write",
        /// Depth-stencil reads.
        DepthStencilRead => "depth_stencil_read",
        /// Shader resource.
        ShaderResource => "shader_resource",
        /// Copy source.
        CopySource => "copy_source",
        /// Copy destination.
        CopyDest => "copy_dest",
        /// Resolve source.
        ResolveSource => "resolve_source",
        /// Resolve destination.
        ResolveDest => "resolve_dest",
        /// Common, direct queue.
        DirectQueueCommon => "direct_queue_common",
        /// Generic read, direct queue.
        DirectQueueGenericRead => "direct_queue_generic_read",
        /// Unordered access, direct queue.
        DirectQueueUnorderedAccess => "direct_queue_unordered_access",
        /// Shader resource, direct queue.
        DirectQueueShaderResource => "direct_queue_shader_resource",
        /// Copy source, direct queue.
        DirectQueueCopySource => "direct_queue_copy_source",
        /// Copy destination, direct queue.
        DirectQueueCopyDest => "direct_queue_copy_dest",
        /// Common, compute queue.
        ComputeQueueCommon => "compute_queue_common",
        /// Generic read, compute queue.
        ComputeQueueGenericRead => "compute_queue_generic_read",
        /// Unordered access, compute queue.
        ComputeQueueUnorderedAccess => "compute_queue_unordered_access",
        /// Shader resource, compute queue.
        ComputeQueueShaderResource => "compute_queue_shader_resource",
        /// Copy source, compute queue.
        ComputeQueueCopySource => "compute_queue_copy_source",
        /// Copy destination, compute queue.
        ComputeQueueCopyDest => "compute_queue_copy_dest",
        /// `common` by another name.
        Present => "present",
    }
}

words! {
    /// A legacy STATE of `resource_barrier transition` (SPEC R-BAR-6, `D3D12_RESOURCE_STATES`
    /// in snake case), one to one with the engine's `ResourceStates::NAMED`, in its order.
    pub enum StateWord {
        /// Common (zero).
        Common => "common",
        /// Vertex and constant buffers.
        VertexAndConstantBuffer => "vertex_and_constant_buffer",
        /// Index buffer.
        IndexBuffer => "index_buffer",
        /// Render target.
        RenderTarget => "render_target",
        /// Unordered access.
        UnorderedAccess => "unordered_access",
        /// Depth writes.
        DepthWrite => "depth_write",
        /// Depth reads.
        DepthRead => "depth_read",
        /// Shader resource for every stage but pixel shading.
        NonPixelShaderResource => "non_pixel_shader_resource",
        /// Shader resource for pixel shading.
        PixelShaderResource => "pixel_shader_resource",
        /// Stream output.
        StreamOut => "stream_out",
        /// Indirect arguments (and predication).
        IndirectArgument => "indirect_argument",
        /// Copy destination.
        CopyDest => "copy_dest",
        /// Copy source.
        CopySource => "copy_source",
        /// Resolve destination.
        ResolveDest => "resolve_dest",
        /// Resolve source.
        ResolveSource => "resolve_source",
        /// Every read state.
        GenericRead => "generic_read",
        /// `common` by another name.
        Present => "present",
    }
}

words! {
    /// `resource_barrier transition … split=..` (R-BAR-4).
    pub enum SplitWord {
        /// The first half of a split barrier.
        Begin => "begin",
        /// The second half of a split barrier.
        End => "end",
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
