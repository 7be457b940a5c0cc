//! The call vocabulary: `CTX METHOD ARGS`, one [`Method`] variant per method of docs/TRACE.md
//! "Calls", and the parts some methods share ([`FastEntry`] of `set_fast_resources`, [`Remap`]
//! of the remap calls; the barriers are `barriers.rs`).
//!
//! **In:** nothing; these are plain data. **Out:** [`Call`] (a context and a method as written)
//! and [`Method`] in any [`Form`]: as written here, lowered by the replay, held by the capture.
//!
//! **Invariant.** The shape of a call is written once, here: the printer, the replay and the
//! capture match these variants, the compiler checking each match is exhaustive, and the
//! parser's `call.rs` makes them from the method's word. `Option<F::Object>` is an argument that
//! may be `null`; the lists of bindings are never empty.

use crate::syntax::name::Name;
use crate::syntax::words::QueryMode;

use super::barriers::{Barrier, LegacyBarrier};
use super::forms::{Form, Written};

/// The context a call is issued on, its recorder named by `O`: a [`Name`] as written, the
/// replay's object number once lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallContext<O = Name> {
    /// `imm`.
    Immediate,
    /// A context declared with `context`.
    Deferred(O),
    /// A recorder declared with `bundle`.
    BundleRecorder(O),
}

/// `CTX METHOD ARGS`.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The context the call is issued on.
    pub context: CallContext,
    /// The method and its arguments.
    pub method: Method,
}

/// A method and its arguments (docs/TRACE.md "Calls"), held in the [`Form`] `F`: as written
/// ([`Written`], what the parser returns and the printer writes) or lowered to the engine's
/// types by the replay. `Option<F::Object>` is an argument that may be `null`; the lists of
/// bindings are never empty.
#[derive(Clone, Debug, PartialEq)]
pub enum Method<F: Form = Written> {
    /// `set_input_layout LAYOUT|null`.
    SetInputLayout(Option<F::Object>),
    /// `set_primitive_topology TOPOLOGY`.
    SetPrimitiveTopology(F::Topology),
    /// `set_vertex_buffers START BUF|null ..`.
    SetVertexBuffers {
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        buffers: Vec<Option<F::Object>>,
    },
    /// `set_index_buffer BUF|null FORMAT [OFFSET]`.
    SetIndexBuffer {
        /// The index buffer, or `null`.
        buffer: Option<F::Object>,
        /// The index format.
        format: F::Format,
        /// Byte offset of the first index; default 0.
        offset: F::Defaulted<F::Count>,
    },
    /// `set_primitive_reset_index VALUE` (R-ST-5).
    SetPrimitiveResetIndex(F::Count),
    /// `STAGE_set_shader SHADER|null`.
    SetShader {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The shader, or `null`.
        shader: Option<F::Object>,
    },
    /// `STAGE_set_constant_buffers START BUF|null ..`.
    SetConstantBuffers {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        buffers: Vec<Option<F::Object>>,
    },
    /// `STAGE_set_shader_resources START SRV|null ..`.
    SetShaderResources {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        views: Vec<Option<F::Object>>,
    },
    /// `STAGE_set_samplers START SAMPLER|null ..`.
    SetSamplers {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        samplers: Vec<Option<F::Object>>,
    },
    /// `set_fast_resources ENTRY [ENTRY ..]` (R-FX-1): each ENTRY `STAGE.cb.SLOT=BUF|null`,
    /// `STAGE.srv.SLOT=SRV|null`, `STAGE.sampler.SLOT=SAMPLER|null` or `vb.SLOT=BUF|null`.
    SetFastResources(Vec<FastEntry<F>>),
    /// `set_fast_resources_into_batch BATCH ENTRY [ENTRY ..]` (R-FX-1): appends the entries to
    /// the batch BATCH (a name of the trace's own, made by its first such line), records nothing.
    SetFastResourcesIntoBatch {
        /// The batch.
        batch: Name,
        /// As `set_fast_resources`'s.
        entries: Vec<FastEntry<F>>,
    },
    /// `set_fast_resources_from_batch BATCH` (R-FX-1): applies the batch in one call.
    SetFastResourcesFromBatch {
        /// The batch.
        batch: Name,
        /// Empty as written; once lowered, the batch's entries at this line (its
        /// `set_fast_resources_into_batch` lines before it, in order).
        entries: Vec<FastEntry<F>>,
    },
    /// `STAGE_set_fast_shader_resource SLOT SRV|null` (R-FX-1).
    SetFastShaderResource {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The slot.
        slot: F::Count,
        /// The view, or `null`.
        view: Option<F::Object>,
    },
    /// `STAGE_set_placement_shader_resource SLOT SRV ADDRESS` (R-FX-2).
    SetPlacementShaderResource {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The slot.
        slot: F::Count,
        /// The view of a default resource.
        view: F::Object,
        /// The address its resource is placed at.
        address: u64,
    },
    /// `STAGE_set_placement_constant_buffer SLOT BUF ADDRESS` (R-FX-2).
    SetPlacementConstantBuffer {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The slot.
        slot: F::Count,
        /// A default-usage constant buffer.
        buffer: F::Object,
        /// The address it is placed at.
        address: u64,
    },
    /// `set_placement_vertex_buffer SLOT BUF ADDRESS` (R-FX-2).
    SetPlacementVertexBuffer {
        /// The slot.
        slot: F::Count,
        /// A default-usage vertex buffer.
        buffer: F::Object,
        /// The address it is placed at.
        address: u64,
    },
    /// `ia_set_placement_index_buffer BUF ADDRESS FORMAT` (R-FX-2).
    IaSetPlacementIndexBuffer {
        /// A default-usage index buffer.
        buffer: F::Object,
        /// The address it is placed at.
        address: u64,
        /// The index format.
        format: F::Format,
    },
    /// `cs_set_unordered_access_views START UAV|null ..`.
    CsSetUnorderedAccessViews {
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        views: Vec<Option<F::Object>>,
    },
    /// `null` alone is one null render target, as written (`vec![None]`).
    OmSetRenderTargets {
        /// From slot 0.
        render_targets: Vec<Option<F::Object>>,
        /// The depth-stencil view, or `null`.
        depth_stencil: Option<F::Object>,
    },
    /// `om_set_render_targets_and_uavs RTV|null[,RTV..] DSV|null START UAV|null ..`.
    OmSetRenderTargetsAndUavs {
        /// From slot 0; `null` alone is one null render target.
        render_targets: Vec<Option<F::Object>>,
        /// The depth-stencil view, or `null`.
        depth_stencil: Option<F::Object>,
        /// The first OM UAV slot bound.
        start: F::Count,
        /// One per OM UAV slot from `start`.
        views: Vec<Option<F::Object>>,
    },
    /// `om_set_blend_state STATE|null`.
    OmSetBlendState(Option<F::Object>),
    /// `om_set_depth_stencil_state STATE|null`.
    OmSetDepthStencilState(Option<F::Object>),
    /// `rs_set_state STATE|null`.
    RsSetState(Option<F::Object>),
    /// `rs_set_viewports X,Y,W,H ..`, from slot 0.
    RsSetViewports(Vec<F::Viewport>),
    /// `rs_set_scissor_rects L,T,R,B ..`, from slot 0.
    RsSetScissorRects(Vec<F::Rect>),
    /// `draw VERTEX_COUNT START_VERTEX`.
    Draw {
        /// VERTEX_COUNT.
        vertex_count: F::Count,
        /// START_VERTEX.
        start_vertex: F::Count,
    },
    /// `draw_indexed INDEX_COUNT START_INDEX BASE_VERTEX`.
    DrawIndexed {
        /// INDEX_COUNT.
        index_count: F::Count,
        /// START_INDEX.
        start_index: F::Count,
        /// BASE_VERTEX, added to each index (may be negative).
        base_vertex: F::Signed,
    },
    /// `draw_instanced VERTEX_COUNT INSTANCE_COUNT START_VERTEX START_INSTANCE`.
    DrawInstanced {
        /// VERTEX_COUNT.
        vertex_count: F::Count,
        /// INSTANCE_COUNT.
        instance_count: F::Count,
        /// START_VERTEX.
        start_vertex: F::Count,
        /// START_INSTANCE.
        start_instance: F::Count,
    },
    /// `draw_indexed_instanced INDEX_COUNT INSTANCE_COUNT START_INDEX BASE_VERTEX START_INSTANCE`.
    DrawIndexedInstanced {
        /// INDEX_COUNT.
        index_count: F::Count,
        /// INSTANCE_COUNT.
        instance_count: F::Count,
        /// START_INDEX.
        start_index: F::Count,
        /// BASE_VERTEX, added to each index (may be negative).
        base_vertex: F::Signed,
        /// START_INSTANCE.
        start_instance: F::Count,
    },
    /// `draw_auto`.
    DrawAuto,
    /// `draw_instanced_indirect BUF OFFSET`.
    DrawInstancedIndirect {
        /// The buffer the arguments are read from.
        buffer: F::Object,
        /// Byte offset of the arguments in it.
        offset: F::Count,
    },
    /// `draw_indexed_instanced_indirect BUF OFFSET`.
    DrawIndexedInstancedIndirect {
        /// The buffer the arguments are read from.
        buffer: F::Object,
        /// Byte offset of the arguments in it.
        offset: F::Count,
    },
    /// `dispatch X Y Z`.
    Dispatch {
        /// Thread groups in x.
        x: F::Count,
        /// Thread groups in y.
        y: F::Count,
        /// Thread groups in z.
        z: F::Count,
    },
    /// `dispatch_indirect BUF OFFSET`.
    DispatchIndirect {
        /// The buffer the group counts are read from.
        buffer: F::Object,
        /// Byte offset of the group counts in it.
        offset: F::Count,
    },
    /// `clear_render_target_view RTV R G B A`.
    ClearRenderTargetView {
        /// The render-target view cleared.
        view: F::Object,
        /// The colour, RGBA.
        color: [f32; 4],
    },
    /// `clear_depth_stencil_view DSV DEPTH STENCIL`.
    ClearDepthStencilView {
        /// The depth-stencil view cleared.
        view: F::Object,
        /// DEPTH.
        depth: f32,
        /// STENCIL.
        stencil: F::Stencil,
    },
    /// `copy_resource DST SRC`.
    CopyResource {
        /// DST, the resource written.
        destination: F::Object,
        /// SRC, the resource read.
        source: F::Object,
    },
    /// `copy_buffer_region DST DST_OFFSET SRC SRC_OFFSET BYTES` (R-BAR-7: DST may be SRC).
    CopyBufferRegion {
        /// DST, the buffer written.
        destination: F::Object,
        /// DST_OFFSET, in bytes.
        destination_offset: F::Count,
        /// SRC, the buffer read.
        source: F::Object,
        /// SRC_OFFSET, in bytes.
        source_offset: F::Count,
        /// BYTES.
        bytes: F::Count,
    },
    /// `copy_texture_region DST DST_SUBRESOURCE X,Y SRC SRC_SUBRESOURCE L,T,R,B` (R-BAR-7: DST
    /// may be SRC).
    CopyTextureRegion {
        /// DST, the texture written.
        destination: F::Object,
        /// DST_SUBRESOURCE.
        destination_subresource: F::Count,
        /// X,Y: where the box lands in DST.
        at: [F::Count; 2],
        /// SRC, the texture read.
        source: F::Object,
        /// SRC_SUBRESOURCE.
        source_subresource: F::Count,
        /// L,T,R,B: the texels of SRC read (right and bottom excluded).
        source_box: [F::Count; 4],
    },
    /// `update_subresource RESOURCE`.
    UpdateSubresource {
        /// The resource updated.
        resource: F::Object,
    },
    /// `copy_structure_count DST_BUF OFFSET UAV`.
    CopyStructureCount {
        /// DST_BUF, the buffer the counter is written to.
        destination: F::Object,
        /// Byte offset in DST_BUF.
        offset: F::Count,
        /// The UAV whose hidden counter is read.
        view: F::Object,
    },
    /// `map RESOURCE TYPE [allow_usage_default]`.
    Map {
        /// The resource mapped.
        resource: F::Object,
        /// The map type.
        map_type: F::MapType,
        /// `allow_usage_default` was written: a write_no_overwrite map of a default-usage resource.
        allow_usage_default: bool,
        /// Nothing as written; once lowered, for a write_discard map, the K of the instance it
        /// makes (docs/TRACE.md "Instances": every write_discard map statement of a resource,
        /// in trace order).
        instance: F::Instance,
        /// Nothing as written; once lowered, the `write` statements that may land in this
        /// map's memory (the replay's `writes.rs` says which do).
        writes: F::MapWrites,
    },
    /// `write RESOURCE OFFSET HEX`: bytes the application wrote into the memory of the open
    /// map of RESOURCE on the call's context, between `map` and `unmap` (what a capture
    /// records).
    Write {
        /// The resource mapped.
        resource: F::Object,
        /// OFFSET: the first byte written, from the start of the mapped memory.
        offset: F::Count,
        /// HEX: the bytes written (at least one), two hex digits each.
        bytes: Vec<u8>,
    },
    /// `unmap RESOURCE`.
    Unmap {
        /// The resource unmapped.
        resource: F::Object,
    },
    /// `set_predication PREDICATE|null yes|no`.
    SetPredication {
        /// The predicate, or `null` to stop predicating.
        predicate: Option<F::Object>,
        /// `yes|no`: the predicate value that skips the draws.
        value: bool,
    },
    /// `begin QUERY`.
    Begin {
        /// The query begun.
        query: F::Object,
    },
    /// `end QUERY`.
    End {
        /// The query ended.
        query: F::Object,
    },
    /// `write_query QUERY` (R-FX-3).
    WriteQuery {
        /// The query written.
        query: F::Object,
    },
    /// `reset_query QUERY` (R-FX-3).
    ResetQuery {
        /// The query reset.
        query: F::Object,
    },
    /// `configure_query QUERY counting|binary` (R-FX-3).
    ConfigureQuery {
        /// The query configured.
        query: F::Object,
        /// How it counts samples.
        mode: QueryMode,
    },
    /// `set_predication_from_query QUERY|null yes|no` (R-FX-3).
    SetPredicationFromQuery {
        /// The query, or `null` to stop predicating.
        query: Option<F::Object>,
        /// `yes|no`: the answer that skips the draws.
        value: bool,
    },
    /// `clear_state`.
    ClearState,
    /// `create_device_context_state STATE` (R-FX-6): the context makes a device context state
    /// object holding the ClearState defaults; the line declares STATE.
    CreateDeviceContextState {
        /// The state object the line makes.
        state: F::Object,
    },
    /// `swap_device_context_state STATE` (R-FX-6): the context's bindings and STATE's exchanged.
    SwapDeviceContextState {
        /// The state object swapped in (it keeps the context's bindings).
        state: F::Object,
    },
    /// `decompress_resource RESOURCE [into=RESOURCE]` (R-ST-9).
    DecompressResource {
        /// The compressible target.
        resource: F::Object,
        /// `into=`: the texture the decompressed contents go to; `None`: in place.
        into: Option<F::Object>,
    },
    /// `set_resource_compression RESOURCE compressed|decompressed` (R-ST-9).
    SetResourceCompression {
        /// The target.
        resource: F::Object,
        /// `compressed|decompressed`.
        compression: F::Compression,
    },
    /// `set_resource_min_lod RESOURCE F` (R-ST-6).
    SetResourceMinLod {
        /// The resource.
        resource: F::Object,
        /// The minimum LOD.
        min_lod: f32,
    },
    /// `set_shader_resource_view_min_lod SRV F` (R-ST-6).
    SetShaderResourceViewMinLod {
        /// The view.
        view: F::Object,
        /// The minimum LOD.
        min_lod: f32,
    },
    /// `insert_wait_on_present SWAPCHAIN` (R-EX-7).
    InsertWaitOnPresent {
        /// The swap chain whose present is waited for.
        swapchain: F::Object,
    },
    /// `insert_fence FENCE_NAME [engine=..] [kick_off]` (R-EX-5, R-FX-6).
    InsertFence {
        /// FENCE_NAME: the name the trace gives the fence value the call returns.
        fence: F::Object,
        /// `engine=`; default graphics.
        engine: F::Defaulted<F::Engine>,
        /// `kick_off`: the fence kicks off its segment (`FenceFlags::KickOff`, R-FX-6).
        kick_off: bool,
    },
    /// `insert_wait_on_fence FENCE_NAME [engine=..]` (R-EX-5).
    InsertWaitOnFence {
        /// The fence waited for, named by an earlier `insert_fence`.
        fence: F::Object,
        /// `engine=`, the engine that waits; default graphics.
        engine: F::Defaulted<F::Engine>,
    },
    /// `set_gds_range STAGE OFFSET SIZE` (R-FX-4).
    SetGdsRange {
        /// The stage (`ps` or `cs`; others are the engine's `invalid_argument`).
        stage: F::Stage,
        /// Byte offset of the range in GDS.
        offset: F::Count,
        /// Bytes of the range.
        size: F::Count,
    },
    /// `write_gds OFFSET V [V ..]` (R-FX-4).
    WriteGds {
        /// Byte offset in GDS of the first value.
        offset: F::Count,
        /// The words written (at least one).
        values: Vec<F::Count>,
    },
    /// `read_gds OFFSET COUNT BUF BUF_OFFSET` (R-FX-4).
    ReadGds {
        /// Byte offset in GDS of the first word.
        offset: F::Count,
        /// Words copied.
        count: F::Count,
        /// BUF, the buffer written.
        destination: F::Object,
        /// Byte offset in BUF.
        destination_offset: F::Count,
    },
    /// `load_constant_ram BUF BUF_OFFSET RAM_OFFSET BYTES` (R-FX-5).
    LoadConstantRam {
        /// BUF, the buffer read.
        buffer: F::Object,
        /// Byte offset in BUF.
        buffer_offset: F::Count,
        /// Byte offset in constant RAM.
        ram_offset: F::Count,
        /// Bytes moved.
        bytes: F::Count,
    },
    /// `store_constant_ram BUF BUF_OFFSET RAM_OFFSET BYTES` (R-FX-5).
    StoreConstantRam {
        /// BUF, the buffer written.
        buffer: F::Object,
        /// Byte offset in BUF.
        buffer_offset: F::Count,
        /// Byte offset in constant RAM.
        ram_offset: F::Count,
        /// Bytes moved.
        bytes: F::Count,
    },
    /// `draw_bundle BUNDLE` (R-B-10).
    DrawBundle {
        /// The bundle called.
        bundle: F::Object,
    },
    /// `remap_constant_buffer_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
    RemapConstantBufferInheritance(Remap<F>),
    /// `remap_shader_resource_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
    RemapShaderResourceInheritance(Remap<F>),
    /// `remap_sampler_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
    RemapSamplerInheritance(Remap<F>),
    /// `remap_vertex_buffer_inheritance ia SLOT ia INHERIT_SLOT`.
    RemapVertexBufferInheritance {
        /// The vertex-buffer slot the bundle's draws read.
        slot: F::Count,
        /// The caller's vertex-buffer slot it reads instead.
        inherit_slot: F::Count,
    },
    /// `finish LIST` on a deferred context: declares the command list.
    FinishCommandList {
        /// The name the new command list takes.
        list: F::Object,
        /// `restore=yes|no` (R-REC-6); default no.
        restore: F::Defaulted<bool>,
    },
    /// `finish` on a bundle recorder: the bundle takes the recorder's name.
    FinishBundle,
    /// `execute LIST [restore=..]`, on `imm` or nested on a deferred context (R-REC-9).
    Execute {
        /// The list executed.
        list: F::Object,
        /// `restore=yes|no` (R-ST-2); default no.
        restore: F::Defaulted<bool>,
    },
    /// `begin_command_list_execution` (R-ST-3).
    BeginCommandListExecution,
    /// `end_command_list_execution` (R-ST-3).
    EndCommandListExecution,
    /// `present SWAPCHAIN` (R-EX-7).
    Present {
        /// The swap chain presented.
        swapchain: F::Object,
    },
    /// `resume`: the immediate context resumes after a suspend (R-ST-4).
    Resume,
    /// `barrier BARRIER [| BARRIER ..]` (R-BAR-1): one call, its barriers in the order written
    /// (never empty); consecutive barriers of one type form one group.
    Barrier(Vec<Barrier<F>>),
    /// `resource_barrier transition|uav|aliasing ..` (R-BAR-6): one legacy barrier.
    ResourceBarrier(LegacyBarrier<F>),
}

/// What a `set_fast_resources` ENTRY binds (R-FX-1): the field name of the draw records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastKind {
    /// `STAGE.cb.SLOT`.
    ConstantBuffer,
    /// `STAGE.srv.SLOT`.
    ShaderResource,
    /// `STAGE.sampler.SLOT`.
    Sampler,
    /// `vb.SLOT`.
    VertexBuffer,
}

impl FastKind {
    /// The word between the stage and the slot (`cb`, `srv`, `sampler`), or `vb`.
    pub fn word(self) -> &'static str {
        match self {
            Self::ConstantBuffer => "cb",
            Self::ShaderResource => "srv",
            Self::Sampler => "sampler",
            Self::VertexBuffer => "vb",
        }
    }
}

/// One ENTRY of `set_fast_resources` (R-FX-1): `STAGE.KIND.SLOT=OBJ|null` or `vb.SLOT=BUF|null`.
#[derive(Clone, Debug, PartialEq)]
pub struct FastEntry<F: Form = Written> {
    /// What the entry binds.
    pub kind: FastKind,
    /// The stage (`None` for a vertex buffer).
    pub stage: Option<F::Stage>,
    /// The slot.
    pub slot: F::Count,
    /// The object, or `null`.
    pub object: Option<F::Object>,
}

/// `STAGE SLOT INHERIT_STAGE INHERIT_SLOT` of the remap calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remap<F: Form = Written> {
    /// The stage of the slot the bundle's draws read.
    pub stage: F::Stage,
    /// The slot the bundle's draws read.
    pub slot: F::Count,
    /// The stage of the caller's slot it reads instead.
    pub inherit_stage: F::Stage,
    /// The caller's slot it reads instead.
    pub inherit_slot: F::Count,
}
