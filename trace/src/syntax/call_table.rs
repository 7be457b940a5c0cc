//! The call table: every call of docs/TRACE.md "Calls", written once. An entry is the call's
//! doc, its [`Method`] variant, its trace word and its fields in the order the trace writes
//! them, each with the kind of argument it is (`call_args.rs`, `call_arg_objects.rs`,
//! `call_arg_groups.rs`) and what that kind needs: the label the errors name (`"START"`), or the
//! kind of object the grammar wants (`Buffer`). A call whose first field is `StagePrefix()` is
//! named `STAGE_word` (`vs_set_shader`); `if GUARD` gives a word to one call on the contexts the
//! `CallContext` method GUARD accepts (`finish`). From the table `call_table_macro.rs` makes the
//! [`Method`] enum, the parser's dispatch from the word, the printer, the objects a call names
//! and the form-to-form traversal ([`Method::convert`]), which the replay's lowering and the
//! capture's `written` use. So a new call is one entry here, plus what it means: the engine call
//! it makes (`replay/apply.rs`, one arm a call) and the capture's tap of that engine call
//! (`capture/captured_*.rs`).
//!
//! Why the engine call is not an entry's too: it is the replay's, in the engine's types, and
//! this room never touches the engine; the table would also pass the 800 lines a file may have.
//!
//! **In:** nothing; the table is data. **Out:** [`Call`] (a context and a method as written)
//! and [`Method`] in any [`Form`]: as written, lowered by the replay, held by the capture.
//!
//! **What the table does not say.** A few calls do more than carry their arguments, and each of
//! those keeps one small match elsewhere, over those calls only: the parser declares what
//! `finish`, `create_device_context_state`, the fences' first use and
//! `set_fast_resources_into_batch` make, and checks that `set_fast_resources_from_batch` names a
//! batch (`call.rs`, after the arguments are read: an error in them comes first, as the
//! grammar reads left to right); the lowering numbers a write_discard map's instance and carries
//! a batch's entries to the line that applies it (`replay/lower/methods.rs`). They depend on the
//! trace before the line, which no kind of argument sees.
//!
//! **Invariant.** `Option<..>` of an object is an argument that may be `null`; the lists of
//! bindings are never empty as parsed. Every entry's fields parse back from what they print.

// The macro names these at its expansion here.
use std::fmt;

use super::ast::{CallContext, Form, Written};
use super::call_arg_groups::*;
use super::call_arg_objects::*;
use super::call_args::*;
use super::call_table_macro::call_table;
use super::cursor::Result;
use super::symbols::ObjKind;
use super::symbols::Want::*;

/// `CTX METHOD ARGS`.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The context the call is issued on.
    pub context: CallContext,
    /// The method and its arguments.
    pub method: Method,
}

call_table! {
    /// A method and its arguments (docs/TRACE.md "Calls"), held in the [`Form`] `F`: as written
    /// ([`Written`], what the parser returns and the printer writes), lowered to the engine's
    /// types by the replay, or as the capture holds it. Each field's type is what its kind of
    /// argument is in the form (`Arg<Kind, F>`, `syntax/call_args.rs`): `Arg<Count, Written>`
    /// is a `u64`.
    pub enum Method {
        /// `set_input_layout LAYOUT|null`.
        SetInputLayout = "set_input_layout" (layout: Nullable(InputLayout)),
        /// `set_primitive_topology TOPOLOGY`.
        SetPrimitiveTopology = "set_primitive_topology" (topology: Topology("a topology")),
        /// `set_vertex_buffers START BUF|null[:STRIDE[:OFFSET]] ..` (R-GPU-2).
        SetVertexBuffers = "set_vertex_buffers" {
            /// The first slot bound.
            start: Count("START"),
            /// One per slot from `start`, each with its stride and byte offset.
            buffers: VertexBuffers(),
        },
        /// `set_index_buffer BUF|null FORMAT [OFFSET]`.
        SetIndexBuffer = "set_index_buffer" {
            /// The index buffer, or `null`.
            buffer: Nullable(Buffer),
            /// The index format.
            format: FormatName("FORMAT"),
            /// Byte offset of the first index; default 0.
            offset: OptionalCount("OFFSET"),
        },
        /// `set_primitive_reset_index VALUE` (R-ST-5).
        SetPrimitiveResetIndex = "set_primitive_reset_index" (value: Count("VALUE")),
        /// `STAGE_set_shader SHADER|null`.
        SetShader = "set_shader" {
            /// The stage of the method's name.
            stage: StagePrefix(),
            /// The shader, or `null`.
            shader: Nullable(Shader),
        },
        /// `STAGE_set_constant_buffers START BUF|null ..`.
        SetConstantBuffers = "set_constant_buffers" {
            /// The stage of the method's name.
            stage: StagePrefix(),
            /// The first slot bound.
            start: Count("START"),
            /// One per slot from `start`.
            buffers: Objects(Buffer),
        },
        /// `STAGE_set_shader_resources START SRV|null ..`.
        SetShaderResources = "set_shader_resources" {
            /// The stage of the method's name.
            stage: StagePrefix(),
            /// The first slot bound.
            start: Count("START"),
            /// One per slot from `start`.
            views: Objects(ShaderResourceView),
        },
        /// `STAGE_set_samplers START SAMPLER|null ..`.
        SetSamplers = "set_samplers" {
            /// The stage of the method's name.
            stage: StagePrefix(),
            /// The first slot bound.
            start: Count("START"),
            /// One per slot from `start`.
            samplers: Objects(SamplerState),
        },
        /// `set_fast_resources ENTRY [ENTRY ..]` (R-FX-1): each ENTRY `STAGE.cb.SLOT=BUF|null`,
        /// `STAGE.srv.SLOT=SRV|null`, `STAGE.sampler.SLOT=SAMPLER|null` or
        /// `vb.SLOT=BUF|null[:STRIDE[:OFFSET]]`.
        SetFastResources = "set_fast_resources" (entries: FastEntries()),
        /// `set_fast_resources_into_batch BATCH ENTRY [ENTRY ..]` (R-FX-1): appends the entries
        /// to the batch BATCH (a name of the trace's own, made by its first such line), records
        /// nothing.
        SetFastResourcesIntoBatch = "set_fast_resources_into_batch" {
            /// The batch.
            batch: BatchName("BATCH"),
            /// As `set_fast_resources`'s.
            entries: FastEntries(),
        },
        /// `set_fast_resources_from_batch BATCH` (R-FX-1): applies the batch in one call.
        SetFastResourcesFromBatch = "set_fast_resources_from_batch" {
            /// The batch.
            batch: BatchName("BATCH"),
            /// Empty as written; once lowered, the batch's entries at this line (its
            /// `set_fast_resources_into_batch` lines before it, in order).
            entries: BatchEntries(),
        },
        /// `STAGE_set_fast_shader_resource SLOT SRV|null` (R-FX-1).
        SetFastShaderResource = "set_fast_shader_resource" {
            /// The stage of the method's name.
            stage: StagePrefix(),
            /// The slot.
            slot: Count("SLOT"),
            /// The view, or `null`.
            view: Nullable(ShaderResourceView),
        },
        /// `STAGE_set_placement_shader_resource SLOT SRV ADDRESS` (R-FX-2).
        SetPlacementShaderResource = "set_placement_shader_resource" {
            /// The stage of the method's name.
            stage: StagePrefix(),
            /// The slot.
            slot: Count("SLOT"),
            /// The view of a default resource.
            view: Object(ShaderResourceView),
            /// The address its resource is placed at.
            address: Address("ADDRESS"),
        },
        /// `STAGE_set_placement_constant_buffer SLOT BUF ADDRESS` (R-FX-2).
        SetPlacementConstantBuffer = "set_placement_constant_buffer" {
            /// The stage of the method's name.
            stage: StagePrefix(),
            /// The slot.
            slot: Count("SLOT"),
            /// A default-usage constant buffer.
            buffer: Object(Buffer),
            /// The address it is placed at.
            address: Address("ADDRESS"),
        },
        /// `set_placement_vertex_buffer SLOT BUF[:STRIDE[:OFFSET]] ADDRESS` (R-FX-2, R-GPU-2).
        SetPlacementVertexBuffer = "set_placement_vertex_buffer" {
            /// The slot.
            slot: Count("SLOT"),
            /// A default-usage vertex buffer, its stride and offset (R-GPU-2).
            buffer: PlacedVertexBuffer(),
            /// The address it is placed at.
            address: Address("ADDRESS"),
        },
        /// `ia_set_placement_index_buffer BUF ADDRESS FORMAT` (R-FX-2).
        IaSetPlacementIndexBuffer = "ia_set_placement_index_buffer" {
            /// A default-usage index buffer.
            buffer: Object(Buffer),
            /// The address it is placed at.
            address: Address("ADDRESS"),
            /// The index format.
            format: FormatName("FORMAT"),
        },
        /// `cs_set_unordered_access_views START UAV|null ..` (the compute stage's only).
        CsSetUnorderedAccessViews = "cs_set_unordered_access_views" {
            /// The first slot bound.
            start: Count("START"),
            /// One per slot from `start`.
            views: Objects(UnorderedAccessView),
        },
        /// `om_set_render_targets RTV|null[,RTV..] DSV|null`; `null` alone is one null render
        /// target, as written (`vec![None]`).
        OmSetRenderTargets = "om_set_render_targets" {
            /// From slot 0.
            render_targets: Targets(),
            /// The depth-stencil view, or `null`.
            depth_stencil: Nullable(DepthStencilView),
        },
        /// `om_set_render_targets_and_uavs RTV|null[,RTV..] DSV|null START UAV|null ..`.
        OmSetRenderTargetsAndUavs = "om_set_render_targets_and_uavs" {
            /// From slot 0; `null` alone is one null render target.
            render_targets: Targets(),
            /// The depth-stencil view, or `null`.
            depth_stencil: Nullable(DepthStencilView),
            /// The first OM UAV slot bound.
            start: Count("START"),
            /// One per OM UAV slot from `start`.
            views: Objects(UnorderedAccessView),
        },
        /// `om_set_blend_state STATE|null`.
        OmSetBlendState = "om_set_blend_state" (state: Nullable(BlendState)),
        /// `om_set_depth_stencil_state STATE|null`.
        OmSetDepthStencilState = "om_set_depth_stencil_state" (state: Nullable(DepthStencilState)),
        /// `rs_set_state STATE|null`.
        RsSetState = "rs_set_state" (state: Nullable(RasterizerState)),
        /// `rs_set_viewports X,Y,W,H ..`, from slot 0.
        RsSetViewports = "rs_set_viewports" (viewports: Viewports("X,Y,W,H")),
        /// `rs_set_scissor_rects L,T,R,B ..`, from slot 0.
        RsSetScissorRects = "rs_set_scissor_rects" (rects: Rects("L,T,R,B")),
        /// `draw VERTEX_COUNT START_VERTEX`.
        Draw = "draw" {
            /// VERTEX_COUNT.
            vertex_count: Count("VERTEX_COUNT"),
            /// START_VERTEX.
            start_vertex: Count("START_VERTEX"),
        },
        /// `draw_indexed INDEX_COUNT START_INDEX BASE_VERTEX`.
        DrawIndexed = "draw_indexed" {
            /// INDEX_COUNT.
            index_count: Count("INDEX_COUNT"),
            /// START_INDEX.
            start_index: Count("START_INDEX"),
            /// BASE_VERTEX, added to each index (may be negative).
            base_vertex: Signed("BASE_VERTEX"),
        },
        /// `draw_instanced VERTEX_COUNT INSTANCE_COUNT START_VERTEX START_INSTANCE`.
        DrawInstanced = "draw_instanced" {
            /// VERTEX_COUNT.
            vertex_count: Count("VERTEX_COUNT"),
            /// INSTANCE_COUNT.
            instance_count: Count("INSTANCE_COUNT"),
            /// START_VERTEX.
            start_vertex: Count("START_VERTEX"),
            /// START_INSTANCE.
            start_instance: Count("START_INSTANCE"),
        },
        /// `draw_indexed_instanced INDEX_COUNT INSTANCE_COUNT START_INDEX BASE_VERTEX
        /// START_INSTANCE`.
        DrawIndexedInstanced = "draw_indexed_instanced" {
            /// INDEX_COUNT.
            index_count: Count("INDEX_COUNT"),
            /// INSTANCE_COUNT.
            instance_count: Count("INSTANCE_COUNT"),
            /// START_INDEX.
            start_index: Count("START_INDEX"),
            /// BASE_VERTEX, added to each index (may be negative).
            base_vertex: Signed("BASE_VERTEX"),
            /// START_INSTANCE.
            start_instance: Count("START_INSTANCE"),
        },
        /// `draw_auto`.
        DrawAuto = "draw_auto",
        /// `draw_instanced_indirect BUF OFFSET`.
        DrawInstancedIndirect = "draw_instanced_indirect" {
            /// The buffer the arguments are read from.
            buffer: Object(Buffer),
            /// Byte offset of the arguments in it.
            offset: Count("OFFSET"),
        },
        /// `draw_indexed_instanced_indirect BUF OFFSET`.
        DrawIndexedInstancedIndirect = "draw_indexed_instanced_indirect" {
            /// The buffer the arguments are read from.
            buffer: Object(Buffer),
            /// Byte offset of the arguments in it.
            offset: Count("OFFSET"),
        },
        /// `dispatch X Y Z`.
        Dispatch = "dispatch" {
            /// Thread groups in x.
            x: Count("X"),
            /// Thread groups in y.
            y: Count("Y"),
            /// Thread groups in z.
            z: Count("Z"),
        },
        /// `dispatch_indirect BUF OFFSET`.
        DispatchIndirect = "dispatch_indirect" {
            /// The buffer the group counts are read from.
            buffer: Object(Buffer),
            /// Byte offset of the group counts in it.
            offset: Count("OFFSET"),
        },
        /// `clear_render_target_view RTV R G B A`.
        ClearRenderTargetView = "clear_render_target_view" {
            /// The render-target view cleared.
            view: Object(RenderTargetView),
            /// The colour, RGBA.
            color: Color("R,G,B,A"),
        },
        /// `clear_depth_stencil_view DSV DEPTH STENCIL`.
        ClearDepthStencilView = "clear_depth_stencil_view" {
            /// The depth-stencil view cleared.
            view: Object(DepthStencilView),
            /// DEPTH.
            depth: Float("DEPTH"),
            /// STENCIL.
            stencil: Stencil("STENCIL"),
        },
        /// `copy_resource DST SRC`.
        CopyResource = "copy_resource" {
            /// DST, the resource written.
            destination: Object(Resource),
            /// SRC, the resource read.
            source: Object(Resource),
        },
        /// `copy_buffer_region DST DST_OFFSET SRC SRC_OFFSET BYTES` (R-BAR-7: DST may be SRC).
        CopyBufferRegion = "copy_buffer_region" {
            /// DST, the buffer written.
            destination: Object(Buffer),
            /// DST_OFFSET, in bytes.
            destination_offset: Count("DST_OFFSET"),
            /// SRC, the buffer read.
            source: Object(Buffer),
            /// SRC_OFFSET, in bytes.
            source_offset: Count("SRC_OFFSET"),
            /// BYTES.
            bytes: Count("BYTES"),
        },
        /// `copy_texture_region DST DST_SUBRESOURCE X,Y SRC SRC_SUBRESOURCE L,T,R,B` (R-BAR-7:
        /// DST may be SRC).
        CopyTextureRegion = "copy_texture_region" {
            /// DST, the texture written.
            destination: Object(Resource),
            /// DST_SUBRESOURCE.
            destination_subresource: Count("DST_SUBRESOURCE"),
            /// X,Y: where the box lands in DST.
            at: Pair("X,Y"),
            /// SRC, the texture read.
            source: Object(Resource),
            /// SRC_SUBRESOURCE.
            source_subresource: Count("SRC_SUBRESOURCE"),
            /// L,T,R,B: the texels of SRC read (right and bottom excluded).
            source_box: Quad("L,T,R,B"),
        },
        /// `update_subresource RESOURCE`.
        UpdateSubresource = "update_subresource" {
            /// The resource updated.
            resource: Object(Resource),
        },
        /// `copy_structure_count DST_BUF OFFSET UAV`.
        CopyStructureCount = "copy_structure_count" {
            /// DST_BUF, the buffer the counter is written to.
            destination: Object(Buffer),
            /// Byte offset in DST_BUF.
            offset: Count("OFFSET"),
            /// The UAV whose hidden counter is read.
            view: Object(UnorderedAccessView),
        },
        /// `map RESOURCE TYPE [allow_usage_default]`.
        Map = "map" {
            /// The resource mapped.
            resource: Object(Resource),
            /// The map type.
            map_type: MapTypeWord("a map type"),
            /// `allow_usage_default` was written: a write_no_overwrite map of a default-usage
            /// resource.
            allow_usage_default: Flag("allow_usage_default"),
            /// Nothing as written; once lowered, for a write_discard map, the K of the instance
            /// it makes (docs/TRACE.md "Instances": every write_discard map statement of a
            /// resource, in trace order).
            instance: Instance(),
            /// Nothing as written; once lowered, the `write` statements that may land in this
            /// map's memory (the replay's `writes.rs` says which do).
            writes: MapWritesOf(),
        },
        /// `write RESOURCE OFFSET HEX`: bytes the application wrote into the memory of the open
        /// map of RESOURCE on the call's context, between `map` and `unmap` (what a capture
        /// records).
        Write = "write" {
            /// The resource mapped.
            resource: Object(Resource),
            /// OFFSET: the first byte written, from the start of the mapped memory.
            offset: Count("OFFSET"),
            /// HEX: the bytes written (at least one), two hex digits each.
            bytes: Hex("HEX"),
        },
        /// `unmap RESOURCE`.
        Unmap = "unmap" {
            /// The resource unmapped.
            resource: Object(Resource),
        },
        /// `set_predication PREDICATE|null yes|no`.
        SetPredication = "set_predication" {
            /// The predicate, or `null` to stop predicating.
            predicate: Nullable(Predicate),
            /// `yes|no`: the predicate value that skips the draws.
            value: YesNo("the predicate value"),
        },
        /// `begin QUERY`.
        Begin = "begin" {
            /// The query begun.
            query: Object(Predicate),
        },
        /// `end QUERY`.
        End = "end" {
            /// The query ended.
            query: Object(Predicate),
        },
        /// `write_query QUERY` (R-FX-3).
        WriteQuery = "write_query" {
            /// The query written.
            query: Object(Predicate),
        },
        /// `reset_query QUERY` (R-FX-3).
        ResetQuery = "reset_query" {
            /// The query reset.
            query: Object(Predicate),
        },
        /// `configure_query QUERY counting|binary` (R-FX-3).
        ConfigureQuery = "configure_query" {
            /// The query configured.
            query: Object(Predicate),
            /// How it counts samples.
            mode: QueryModeWord("the query mode"),
        },
        /// `set_predication_from_query QUERY|null yes|no` (R-FX-3).
        SetPredicationFromQuery = "set_predication_from_query" {
            /// The query, or `null` to stop predicating.
            query: Nullable(Predicate),
            /// `yes|no`: the answer that skips the draws.
            value: YesNo("the predicate value"),
        },
        /// `clear_state`.
        ClearState = "clear_state",
        /// `create_device_context_state STATE` (R-FX-6): the context makes a device context
        /// state object holding the ClearState defaults; the line declares STATE.
        CreateDeviceContextState = "create_device_context_state" {
            /// The state object the line makes.
            state: Declared("a name for the device context state", ObjKind::ContextState),
        },
        /// `swap_device_context_state STATE` (R-FX-6): the context's bindings and STATE's
        /// exchanged.
        SwapDeviceContextState = "swap_device_context_state" {
            /// The state object swapped in (it keeps the context's bindings).
            state: Object(ContextState),
        },
        /// `decompress_resource RESOURCE [into=RESOURCE] [kinds=KIND,..] [region=SUB:L,T,R,B]`
        /// (R-ST-9).
        DecompressResource = "decompress_resource" {
            /// The compressible target.
            resource: Object(Resource),
            /// `into=`, `kinds=`, `region=`: where the decompressed contents go, which kinds of
            /// compression and which texels are decompressed.
            options: DecompressOptions(()),
        },
        /// `set_resource_compression RESOURCE compressed|decompressed` (R-ST-9).
        SetResourceCompression = "set_resource_compression" {
            /// The target.
            resource: Object(Resource),
            /// `compressed|decompressed`.
            compression: CompressionWord("a compression"),
        },
        /// `set_resource_min_lod RESOURCE F` (R-ST-6).
        SetResourceMinLod = "set_resource_min_lod" {
            /// The resource.
            resource: Object(Resource),
            /// The minimum LOD.
            min_lod: Float("F"),
        },
        /// `set_shader_resource_view_min_lod SRV F` (R-ST-6).
        SetShaderResourceViewMinLod = "set_shader_resource_view_min_lod" {
            /// The view.
            view: Object(ShaderResourceView),
            /// The minimum LOD.
            min_lod: Float("F"),
        },
        /// `insert_wait_on_present SWAPCHAIN` (R-EX-7).
        InsertWaitOnPresent = "insert_wait_on_present" {
            /// The swap chain whose present is waited for.
            swapchain: Object(Swapchain),
        },
        /// `insert_fence FENCE_NAME [engine=..] [kick_off]` (R-EX-5, R-FX-6). `kick_off` comes
        /// before `engine` here: it is read from the line's end before the options.
        InsertFence = "insert_fence" {
            /// FENCE_NAME: the name the trace gives the fence value the call returns.
            fence: FenceName("FENCE_NAME"),
            /// `kick_off`: the fence kicks off its segment (`FenceFlags::KickOff`, R-FX-6).
            kick_off: FlagAfterOptions("kick_off"),
            /// `engine=`; default graphics.
            engine: EngineOption(),
        },
        /// `insert_wait_on_fence FENCE_NAME [engine=..]` (R-EX-5).
        InsertWaitOnFence = "insert_wait_on_fence" {
            /// The fence waited for, named by an earlier `insert_fence`.
            fence: FenceName("FENCE_NAME"),
            /// `engine=`, the engine that waits; default graphics.
            engine: EngineOption(),
        },
        /// `set_gds_range STAGE OFFSET SIZE` (R-FX-4).
        SetGdsRange = "set_gds_range" {
            /// The stage (`ps` or `cs`; others are the engine's `invalid_argument`).
            stage: StageWord("a stage"),
            /// Byte offset of the range in GDS.
            offset: Count("OFFSET"),
            /// Bytes of the range.
            size: Count("SIZE"),
        },
        /// `write_gds OFFSET V [V ..]` (R-FX-4).
        WriteGds = "write_gds" {
            /// Byte offset in GDS of the first value.
            offset: Count("OFFSET"),
            /// The words written (at least one).
            values: Values("V"),
        },
        /// `read_gds OFFSET COUNT BUF BUF_OFFSET` (R-FX-4).
        ReadGds = "read_gds" {
            /// Byte offset in GDS of the first word.
            offset: Count("OFFSET"),
            /// Words copied.
            count: Count("COUNT"),
            /// BUF, the buffer written.
            destination: Object(Buffer),
            /// Byte offset in BUF.
            destination_offset: Count("BUF_OFFSET"),
        },
        /// `load_constant_ram BUF BUF_OFFSET RAM_OFFSET BYTES` (R-FX-5).
        LoadConstantRam = "load_constant_ram" {
            /// BUF, the buffer read.
            buffer: Object(Buffer),
            /// Byte offset in BUF.
            buffer_offset: Count("BUF_OFFSET"),
            /// Byte offset in constant RAM.
            ram_offset: Count("RAM_OFFSET"),
            /// Bytes moved.
            bytes: Count("BYTES"),
        },
        /// `store_constant_ram BUF BUF_OFFSET RAM_OFFSET BYTES` (R-FX-5).
        StoreConstantRam = "store_constant_ram" {
            /// BUF, the buffer written.
            buffer: Object(Buffer),
            /// Byte offset in BUF.
            buffer_offset: Count("BUF_OFFSET"),
            /// Byte offset in constant RAM.
            ram_offset: Count("RAM_OFFSET"),
            /// Bytes moved.
            bytes: Count("BYTES"),
        },
        /// `draw_bundle BUNDLE` (R-B-10).
        DrawBundle = "draw_bundle" {
            /// The bundle called.
            bundle: Object(Bundle),
        },
        /// `remap_constant_buffer_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
        RemapConstantBufferInheritance = "remap_constant_buffer_inheritance" (remap: RemapArgs()),
        /// `remap_shader_resource_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
        RemapShaderResourceInheritance = "remap_shader_resource_inheritance" (remap: RemapArgs()),
        /// `remap_sampler_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
        RemapSamplerInheritance = "remap_sampler_inheritance" (remap: RemapArgs()),
        /// `remap_vertex_buffer_inheritance ia SLOT ia INHERIT_SLOT`.
        RemapVertexBufferInheritance = "remap_vertex_buffer_inheritance" {
            /// The vertex-buffer slot the bundle's draws read.
            slot: IaSlot("SLOT"),
            /// The caller's vertex-buffer slot it reads instead.
            inherit_slot: IaSlot("INHERIT_SLOT"),
        },
        /// `finish LIST` on a deferred context: declares the command list. On `imm` it parses
        /// alike, declaring LIST, and the replay refuses it (docs/TRACE.md).
        FinishCommandList = "finish" if is_device_context {
            /// The name the new command list takes.
            list: Declared("a name for the command list", ObjKind::CommandList),
            /// `restore=yes|no` (R-REC-6); default no.
            restore: RestoreOption(),
        },
        /// `finish` on a bundle recorder: the bundle takes the recorder's name.
        FinishBundle = "finish" if is_bundle_recorder,
        /// `execute LIST [restore=..]`, on `imm` or nested on a deferred context (R-REC-9).
        Execute = "execute" {
            /// The list executed.
            list: Object(CommandList),
            /// `restore=yes|no` (R-ST-2); default no.
            restore: RestoreOption(),
        },
        /// `begin_command_list_execution` (R-ST-3).
        BeginCommandListExecution = "begin_command_list_execution",
        /// `end_command_list_execution` (R-ST-3).
        EndCommandListExecution = "end_command_list_execution",
        /// `present SWAPCHAIN` (R-EX-7).
        Present = "present" {
            /// The swap chain presented.
            swapchain: Object(Swapchain),
        },
        /// `place_swap_chain_view VIEW INDEX` (R-EX-7): moves a view of a swap chain's back
        /// buffer to back buffer INDEX of its chain (a device call, written on `imm`).
        PlaceSwapChainView = "place_swap_chain_view" {
            /// The view of a back buffer.
            view: Object(View),
            /// The back buffer's index in its chain.
            index: Count("INDEX"),
        },
        /// `resume`: the immediate context resumes after a suspend (R-ST-4).
        Resume = "resume",
        /// `barrier BARRIER [| BARRIER ..]` (R-BAR-1): one call, its barriers in the order
        /// written (never empty); consecutive barriers of one type form one group.
        Barrier = "barrier" (barriers: Barriers()),
        /// `resource_barrier transition|uav|aliasing ..` (R-BAR-6): one legacy barrier.
        ResourceBarrier = "resource_barrier" (barrier: LegacyBarrierArgs()),
    }
}
