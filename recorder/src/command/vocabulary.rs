//! The command vocabulary as one table: each command is one entry, in opcode order, that says
//! everything `command/` knows of it (R-REC-3). `command_table!` (`command_table.rs`) makes the
//! [`Opcode`] enum, the [`Command`] enum, the decode dispatch and [`Command::for_each_object`]
//! from it; nothing else in `command/` lists the commands.
//!
//! **An entry**, in the `commands` part:
//! ```text
//! /// doc of the opcode and of the variant
//! Name = BYTE (binding: Type)      or  { field: Type, .. }  or nothing (a unit variant)
//!     decode(at) { the Command, read from the payload `at` (`EncodedPayload`) }
//!     objects(one) { one(kind, handle) for each object it names; the fields are in scope }
//! ```
//! `objects` is left out by a command that names no object. The `other_opcodes` part holds the
//! opcodes with no variant of their own: a compact encoding that decodes as another command's
//! variant, and the list's own records (which `decode` never meets). `BYTE` is the opcode's byte
//! in the encoding: a new command takes the next free one (`Opcode::COUNT` today); the compiler
//! refuses a repeated byte and `command_table!` a gap.
//!
//! **In:** nothing at run time. **Out:** the types and matches above; a decode block reads the
//! payload the recording call that writes its opcode writes (`payload.rs`'s layouts), and nothing
//! past the command's size (`EncodedPayload`, R-REC-12).

use std::mem::size_of;

use crate::barriers::{BarrierCounts, BarrierRecord, ResourceBarrierRecord};
use crate::desc::{ClearFlags, CopyBox, Engine, PrimitiveTopology, Rect, Stage, Viewport};
use crate::device::handle::{ObjectKind, RawHandle};

use super::command_table::command_table;
use super::{
    BoundBuffer, BoundBuffers, BoundResource, BoundShader, BoundView, BufferRegionPayload,
    ClearPayload, ConstantRamPayload, CopyPayload, DirectArgs, DrawBundlePayload, GdsRangePayload,
    GdsReadPayload, GdsWritePayload, IndirectPayload, InputLayoutPayload, InstanceId,
    MemoryPayload, NestedList, ObjectPayload, Remap, RemapKind, RemapPayload, StatePayload,
    StructureCountPayload, TextureRegionPayload, VertexBufferPayload, KICK_OFF_BIT,
};

command_table! {
commands {
    /// `set_input_layout`: the input layout and the vertex-buffer slots it reads.
    SetInputLayout = 1 {
        /// The input layout; null unbinds it.
        layout: RawHandle,
        /// Bit `i` set: the layout reads vertex-buffer slot `i` (from its `InputLayoutDesc`); 0
        /// when null.
        vertex_buffers: u32,
    }
    objects(one) { one(ObjectKind::InputLayout, layout) }
    decode(at) {
        let p: InputLayoutPayload = at.read();
        Command::SetInputLayout { layout: p.layout, vertex_buffers: p.vertex_buffers }
    }

    /// `set_primitive_topology`: the topology, in the operand.
    SetPrimitiveTopology = 2 (topology: PrimitiveTopology)
    decode(at) { Command::SetPrimitiveTopology(PrimitiveTopology::from_u8(at.operand())) }

    /// `set_vertex_buffers`: slots `start..start + buffers.len()`.
    SetVertexBuffers = 3 {
        /// The first vertex-buffer slot bound.
        start: u32,
        /// One per slot from `start`: buffer, instance, offset and stride; [`BoundBuffer::NULL`]
        /// unbinds.
        buffers: BoundBuffers<'a>,
    }
    objects(one) { buffers.iter().for_each(|b| one(ObjectKind::Buffer, b.buffer)) }
    decode(at) {
        let (start, buffers) = at.slots();
        Command::SetVertexBuffers { start, buffers: BoundBuffers::Array(buffers) }
    }

    /// `set_index_buffer`: buffer, instance, offset and index format (in `stride_or_format`);
    /// null unbinds.
    SetIndexBuffer = 4 (buffer: BoundBuffer)
    objects(one) { one(ObjectKind::Buffer, buffer.buffer) }
    decode(at) { Command::SetIndexBuffer(at.read()) }

    /// `set_primitive_reset_index`: the cut index (R-ST-5).
    SetPrimitiveResetIndex = 5 (index: u32)
    decode(at) { Command::SetPrimitiveResetIndex(at.read()) }

    /// `set_shader`: a shader bound to the stage in the operand, with the slots it reads.
    SetShader = 6 {
        /// The stage bound.
        stage: Stage,
        /// The shader and the slots it reads; [`BoundShader::NULL`] unbinds the stage.
        shader: BoundShader,
    }
    objects(one) { one(ObjectKind::Shader, shader.shader) }
    decode(at) { Command::SetShader { stage: at.stage(), shader: at.read() } }

    /// `set_constant_buffers`: slots `start..start + buffers.len()` of the stage in the operand.
    SetConstantBuffers = 7 {
        /// The stage bound.
        stage: Stage,
        /// The first constant-buffer slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundBuffer::NULL`] unbinds.
        buffers: BoundBuffers<'a>,
    }
    objects(one) { buffers.iter().for_each(|b| one(ObjectKind::Buffer, b.buffer)) }
    decode(at) {
        let (start, buffers) = at.slots();
        Command::SetConstantBuffers { stage: at.stage(), start, buffers: BoundBuffers::Array(buffers) }
    }

    /// `set_shader_resources`: slots `start..start + views.len()` of the stage in the operand.
    SetShaderResources = 8 {
        /// The stage bound.
        stage: Stage,
        /// The first shader-resource slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundView::NULL`] unbinds.
        views: &'a [BoundView],
    }
    objects(one) { views.iter().for_each(|v| one(ObjectKind::ShaderResourceView, v.view)) }
    decode(at) {
        let (start, views) = at.slots();
        Command::SetShaderResources { stage: at.stage(), start, views }
    }

    /// `set_samplers`: slots `start..start + samplers.len()` of the stage in the operand.
    SetSamplers = 9 {
        /// The stage bound.
        stage: Stage,
        /// The first sampler slot bound.
        start: u32,
        /// One sampler state per slot from `start`; null unbinds.
        samplers: &'a [RawHandle],
    }
    objects(one) { samplers.iter().for_each(|s| one(ObjectKind::SamplerState, *s)) }
    decode(at) {
        let (start, samplers) = at.slots();
        Command::SetSamplers { stage: at.stage(), start, samplers }
    }

    /// `set_compute_unordered_access_views`: the compute stage's UAV slots
    /// `start..start + views.len()`.
    SetComputeUnorderedAccessViews = 10 {
        /// The first UAV slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundView::NULL`] unbinds.
        views: &'a [BoundView],
    }
    objects(one) { views.iter().for_each(|v| one(ObjectKind::UnorderedAccessView, v.view)) }
    decode(at) {
        let (start, views) = at.slots();
        Command::SetComputeUnorderedAccessViews { start, views }
    }

    /// `set_render_targets` and `set_render_targets_and_unordered_access_views`: the output
    /// merger's render targets, depth stencil and UAVs. `targets: None` keeps the bound render
    /// targets and depth stencil; `uavs: None` keeps the bound OM UAVs.
    SetRenderTargets = 11 {
        /// The render-target views (slot 0 on; the other slots are unbound) and the
        /// depth-stencil view ([`BoundView::NULL`]: none); `None` keeps what is bound.
        targets: Option<(&'a [BoundView], BoundView)>,
        /// The first OM UAV slot and the UAVs from it; `None` keeps what is bound.
        uavs: Option<(u32, &'a [BoundView])>,
        /// The UAVs re-bind their own slots only: a split point cut out of a call, which left
        /// the call's other slots as they are. Otherwise the other OM UAV slots are unbound.
        uav_patch: bool,
    }
    objects(one) {
        if let Some((render_targets, depth_stencil)) = targets {
            render_targets.iter().for_each(|v| one(ObjectKind::RenderTargetView, v.view));
            one(ObjectKind::DepthStencilView, depth_stencil.view);
        }
        if let Some((_, uavs)) = uavs {
            uavs.iter().for_each(|v| one(ObjectKind::UnorderedAccessView, v.view));
        }
    }
    decode(at) {
        let (targets, uavs, uav_patch) = at.render_targets();
        Command::SetRenderTargets { targets, uavs, uav_patch }
    }

    /// `set_blend_state`: the state object, blend factor and sample mask.
    SetBlendState = 12 {
        /// The blend state; null restores the default.
        state: RawHandle,
        /// The blend factor, RGBA.
        factor: [f32; 4],
        /// Which samples are written (bit `i`: sample `i`); default `u32::MAX`.
        sample_mask: u32,
    }
    objects(one) { one(ObjectKind::BlendState, state) }
    decode(at) {
        let p: StatePayload = at.read();
        Command::SetBlendState { state: p.state, factor: p.factor, sample_mask: p.reference }
    }

    /// `set_depth_stencil_state`: the state object and stencil reference.
    SetDepthStencilState = 13 {
        /// The depth-stencil state; null restores the default.
        state: RawHandle,
        /// The stencil reference value.
        stencil_ref: u32,
    }
    objects(one) { one(ObjectKind::DepthStencilState, state) }
    decode(at) {
        let p: StatePayload = at.read();
        Command::SetDepthStencilState { state: p.state, stencil_ref: p.reference }
    }

    /// `set_rasterizer_state`: the rasterizer state; null restores the default.
    SetRasterizerState = 14 (state: RawHandle)
    objects(one) { one(ObjectKind::RasterizerState, state) }
    decode(at) { Command::SetRasterizerState(at.read()) }

    /// `set_viewports`: the viewports from slot 0; the slots past them go back to the default.
    SetViewports = 15 (viewports: &'a [Viewport])
    decode(at) { Command::SetViewports(at.all_items(0)) }

    /// `set_scissor_rects`: the rectangles from slot 0; the slots past them go back to the
    /// default.
    SetScissorRects = 16 (rects: &'a [Rect])
    decode(at) { Command::SetScissorRects(at.all_items(0)) }

    /// `draw(vertex_count, start_vertex)` ([`DirectArgs::draw`]).
    Draw = 17 (args: DirectArgs)
    decode(at) {
        let [vertex_count, start_vertex]: [u32; 2] = at.read();
        Command::Draw(DirectArgs::draw(vertex_count, start_vertex))
    }

    /// `draw_indexed(index_count, start_index, base_vertex)`.
    DrawIndexed = 18 (args: DirectArgs)
    decode(at) { Command::DrawIndexed(at.read()) }

    /// `draw_instanced(vertex_count, instance_count, start_vertex, start_instance)`.
    DrawInstanced = 19 (args: DirectArgs)
    decode(at) { Command::DrawInstanced(at.read()) }

    /// `draw_indexed_instanced(index_count, instance_count, start_index, base_vertex,
    /// start_instance)`.
    DrawIndexedInstanced = 20 (args: DirectArgs)
    decode(at) { Command::DrawIndexedInstanced(at.read()) }

    /// `draw_auto`: a draw whose vertex count the stream output wrote.
    DrawAuto = 21
    decode(_at) { Command::DrawAuto }

    /// `draw_instanced_indirect`: the arguments are read from a buffer: the buffer, its
    /// instance and byte offset.
    DrawInstancedIndirect = 22 (args: BoundBuffer)
    objects(one) { one(ObjectKind::Buffer, args.buffer) }
    decode(at) { Command::DrawInstancedIndirect(at.read::<IndirectPayload>().args) }

    /// `draw_indexed_instanced_indirect`: the arguments are read from a buffer: the buffer, its
    /// instance and byte offset.
    DrawIndexedInstancedIndirect = 23 (args: BoundBuffer)
    objects(one) { one(ObjectKind::Buffer, args.buffer) }
    decode(at) { Command::DrawIndexedInstancedIndirect(at.read::<IndirectPayload>().args) }

    /// `dispatch(x, y, z)`.
    Dispatch = 24 (args: DirectArgs)
    decode(at) { Command::Dispatch(at.read()) }

    /// `dispatch_indirect`: the group counts are read from a buffer: the buffer, its instance
    /// and byte offset.
    DispatchIndirect = 25 (args: BoundBuffer)
    objects(one) { one(ObjectKind::Buffer, args.buffer) }
    decode(at) { Command::DispatchIndirect(at.read::<IndirectPayload>().args) }

    /// `clear_render_target_view`.
    ClearRenderTargetView = 26 {
        /// The render-target view cleared.
        view: BoundView,
        /// The colour, RGBA.
        color: [f32; 4],
    }
    objects(one) { one(ObjectKind::RenderTargetView, view.view) }
    decode(at) {
        let p: ClearPayload = at.read();
        Command::ClearRenderTargetView { view: p.view, color: p.values }
    }

    /// `clear_depth_stencil_view`.
    ClearDepthStencilView = 27 {
        /// The depth-stencil view cleared.
        view: BoundView,
        /// Which planes are cleared.
        flags: ClearFlags,
        /// The depth value (when `flags.depth`).
        depth: f32,
        /// The stencil value (when `flags.stencil`).
        stencil: u8,
    }
    objects(one) { one(ObjectKind::DepthStencilView, view.view) }
    decode(at) {
        let p: ClearPayload = at.read();
        Command::ClearDepthStencilView {
            view: p.view,
            flags: ClearFlags::from_bits(p.flags),
            depth: p.values[0],
            stencil: p.stencil as u8,
        }
    }

    /// `copy_resource`: the whole of `source` copied into `destination`.
    CopyResource = 28 {
        /// The resource written.
        destination: BoundResource,
        /// The resource read, and the instance it is read at.
        source: BoundResource,
    }
    objects(one) {
        one(resource_kind(destination), destination.resource);
        one(resource_kind(source), source.resource);
    }
    decode(at) {
        let p: CopyPayload = at.read();
        Command::CopyResource { destination: p.destination, source: p.source }
    }

    /// `update_subresource`: a default resource's contents replaced (legacy only, R-ST-7); the
    /// data travels with the command.
    UpdateSubresource = 29 {
        /// The resource written.
        resource: BoundResource,
        /// The bytes written, carried by the list.
        data: &'a [u8],
    }
    objects(one) { one(resource_kind(resource), resource.resource) }
    decode(at) {
        let (resource, data) = at.with_data();
        Command::UpdateSubresource { resource, data }
    }

    /// `copy_structure_count`: a UAV's hidden counter written into a buffer.
    CopyStructureCount = 30 {
        /// The buffer and byte offset written.
        destination: BoundBuffer,
        /// The UAV whose counter is read (R-ST-7).
        view: BoundView,
    }
    objects(one) {
        one(ObjectKind::Buffer, destination.buffer);
        one(ObjectKind::UnorderedAccessView, view.view);
    }
    decode(at) {
        let p: StructureCountPayload = at.read();
        Command::CopyStructureCount { destination: p.destination, view: p.view }
    }

    /// A write_discard map recorded in a list: a new instance of a dynamic resource, its data
    /// carried with the command (R-REC-10, R-ST-8).
    MapWriteDiscard = 31 {
        /// The dynamic resource, and the instance the map makes (R-REC-10).
        resource: BoundResource,
        /// The bytes the map wrote, carried by the list.
        data: &'a [u8],
    }
    objects(one) { one(resource_kind(resource), resource.resource) }
    decode(at) {
        let (resource, data) = at.with_data();
        Command::MapWriteDiscard { resource, data }
    }

    /// A write_no_overwrite map of a default-usage resource (allow_usage_default): data written
    /// in place (R-REC-11).
    MapWriteNoOverwrite = 32 {
        /// The resource written.
        resource: BoundResource,
        /// The bytes written, carried by the list.
        data: &'a [u8],
    }
    objects(one) { one(resource_kind(resource), resource.resource) }
    decode(at) {
        let (resource, data) = at.with_data();
        Command::MapWriteNoOverwrite { resource, data }
    }

    /// `set_predication`: the predicate and the value that skips work.
    SetPredication = 33 {
        /// The predicate query; null stops predication.
        predicate: RawHandle,
        /// The value the predicate is compared with: a draw is skipped when the predicate's
        /// result equals it.
        value: bool,
    }
    objects(one) { one(ObjectKind::Query, predicate) }
    decode(at) {
        let p: ObjectPayload = at.read();
        Command::SetPredication { predicate: p.object, value: p.value != 0 }
    }

    /// `begin_query`.
    BeginQuery = 34 (query: RawHandle)
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) { Command::BeginQuery(at.read()) }

    /// `end_query`.
    EndQuery = 35 (query: RawHandle)
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) { Command::EndQuery(at.read()) }

    /// `write_query`: the query's result written at this point of the stream (R-FX-3).
    WriteQuery = 36 (query: RawHandle)
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) { Command::WriteQuery(at.read()) }

    /// `reset_query`: the query's result and counts cleared (R-FX-3).
    ResetQuery = 37 (query: RawHandle)
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) { Command::ResetQuery(at.read()) }

    /// `configure_query`: the operand is the [`QueryMode`](crate::QueryMode) (R-FX-3).
    ConfigureQuery = 38 {
        /// The query configured.
        query: RawHandle,
        /// How an occlusion query counts from now on.
        mode: crate::QueryMode,
    }
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) {
        Command::ConfigureQuery { query: at.read(), mode: crate::QueryMode::from_u8(at.operand()) }
    }

    /// `set_predication_from_query`: predication on any query's answer, no reference taken
    /// (R-FX-3); as [`Command::SetPredication`], on any query.
    SetPredicationFromQuery = 39 {
        /// The query whose answer predicates; null stops predication.
        query: RawHandle,
        /// The answer that skips the draws.
        value: bool,
    }
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) {
        let p: ObjectPayload = at.read();
        Command::SetPredicationFromQuery { query: p.object, value: p.value != 0 }
    }

    /// `clear_state`: every binding back to its default. Also what a release build's decoder
    /// yields for a byte that is not a command's opcode (a debug build asserts it never meets
    /// one).
    ClearState = 40
    decode(_at) { Command::ClearState }

    /// `decompress_resource`: a compressible target decompressed in place or into a second
    /// texture (R-ST-9).
    DecompressResource = 41 {
        /// The compressible target decompressed.
        resource: RawHandle,
        /// The texture the decompressed contents go to, keeping `resource` compressed; null
        /// decompresses in place.
        into: RawHandle,
    }
    objects(one) {
        one(ObjectKind::Texture, resource);
        one(ObjectKind::Texture, into);
    }
    decode(at) {
        let p: ObjectPayload = at.read();
        Command::DecompressResource { resource: p.object, into: RawHandle::from_bits(p.value) }
    }

    /// `set_resource_compression`: a target's compression state overridden (R-ST-9).
    SetResourceCompression = 42 {
        /// The target whose compression state is set.
        resource: RawHandle,
        /// Whether it is compressed once the command executes.
        compressed: bool,
    }
    objects(one) { one(ObjectKind::Texture, resource) }
    decode(at) {
        let p: ObjectPayload = at.read();
        Command::SetResourceCompression { resource: p.object, compressed: p.value != 0 }
    }

    /// `insert_wait_on_present`: wait for the present of this swap chain (R-EX-7).
    InsertWaitOnPresent = 43 (chain: RawHandle)
    objects(one) { one(ObjectKind::SwapChain, chain) }
    decode(at) { Command::InsertWaitOnPresent(at.read()) }

    /// `insert_fence`: a fence on the engine in the operand (R-EX-5), with [`KICK_OFF_BIT`] set
    /// when it kicks off its segment (R-FX-6).
    InsertFence = 44 {
        /// The engine the fence is on.
        engine: Engine,
        /// The fence value, handed out by the device at record time.
        value: u64,
        /// Whether the fence kicks off its segment (`FenceFlags::KickOff`, R-FX-6): the run of
        /// commands that holds it ends after it.
        kick_off: bool,
    }
    decode(at) {
        Command::InsertFence {
            engine: Engine::from_u8(at.operand() & !KICK_OFF_BIT),
            value: at.read(),
            kick_off: at.operand() & KICK_OFF_BIT != 0,
        }
    }

    /// `insert_wait_on_fence`: the engine in the operand waits for a fence value (R-EX-5).
    InsertWaitOnFence = 45 {
        /// The engine that waits.
        engine: Engine,
        /// The fence value waited for.
        value: u64,
    }
    decode(at) { Command::InsertWaitOnFence { engine: Engine::from_u8(at.operand()), value: at.read() } }

    /// `write_value_bottom_of_pipe`: a 64-bit value written to a buffer when the pipeline
    /// drains.
    WriteValueBottomOfPipe = 46 {
        /// The buffer written.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        offset: u64,
        /// The value written when the pipeline drains past the command.
        value: u64,
    }
    objects(one) { one(ObjectKind::Buffer, buffer) }
    decode(at) {
        let p: MemoryPayload = at.read();
        Command::WriteValueBottomOfPipe { buffer: p.buffer, offset: p.offset, value: p.value }
    }

    /// `insert_wait_on_memory`: wait until a buffer holds a 64-bit value.
    InsertWaitOnMemory = 47 {
        /// The buffer read.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        offset: u64,
        /// The value waited for.
        value: u64,
    }
    objects(one) { one(ObjectKind::Buffer, buffer) }
    decode(at) {
        let p: MemoryPayload = at.read();
        Command::InsertWaitOnMemory { buffer: p.buffer, offset: p.offset, value: p.value }
    }

    /// `set_gds_range`: the GDS range of the pixel or compute stage, in the operand (R-FX-4), a
    /// [`GdsRangePayload`].
    SetGdsRange = 48 {
        /// The stage (pixel or compute).
        stage: Stage,
        /// Byte offset of the range in GDS.
        offset: u32,
        /// Bytes of the range (0: none).
        size: u32,
    }
    decode(at) {
        let p: GdsRangePayload = at.read();
        Command::SetGdsRange { stage: at.stage(), offset: p.offset, size: p.size }
    }

    /// `write_gds`: words written into GDS, carried by the command (R-FX-4).
    WriteGds = 49 {
        /// Byte offset in GDS of the first value.
        offset: u32,
        /// The values, one GDS word each.
        values: &'a [u32],
    }
    decode(at) {
        let p: GdsWritePayload = at.read();
        Command::WriteGds { offset: p.offset, values: at.items(size_of::<GdsWritePayload>(), p.count) }
    }

    /// `read_gds`: GDS words copied into a buffer (R-FX-4).
    ReadGds = 50 {
        /// Byte offset in GDS of the first word.
        offset: u32,
        /// Words copied.
        count: u32,
        /// The buffer written.
        destination: RawHandle,
        /// Byte offset in the buffer.
        destination_offset: u64,
    }
    objects(one) { one(ObjectKind::Buffer, destination) }
    decode(at) {
        let p: GdsReadPayload = at.read();
        Command::ReadGds {
            offset: p.offset,
            count: p.count,
            destination: p.destination,
            destination_offset: p.destination_offset,
        }
    }

    /// `load_constant_ram`: buffer bytes into constant RAM (R-FX-5).
    LoadConstantRam = 51 {
        /// The buffer read.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        buffer_offset: u64,
        /// Byte offset in constant RAM.
        ram_offset: u32,
        /// Bytes moved.
        bytes: u32,
    }
    objects(one) { one(ObjectKind::Buffer, buffer) }
    decode(at) {
        let p: ConstantRamPayload = at.read();
        let (buffer, buffer_offset, ram_offset, bytes) =
            (p.buffer, p.buffer_offset, p.ram_offset, p.bytes);
        Command::LoadConstantRam { buffer, buffer_offset, ram_offset, bytes }
    }

    /// `store_constant_ram`: constant-RAM bytes into a buffer (R-FX-5).
    StoreConstantRam = 52 {
        /// The buffer written.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        buffer_offset: u64,
        /// Byte offset in constant RAM.
        ram_offset: u32,
        /// Bytes moved.
        bytes: u32,
    }
    objects(one) { one(ObjectKind::Buffer, buffer) }
    decode(at) {
        let p: ConstantRamPayload = at.read();
        let (buffer, buffer_offset, ram_offset, bytes) =
            (p.buffer, p.buffer_offset, p.ram_offset, p.bytes);
        Command::StoreConstantRam { buffer, buffer_offset, ram_offset, bytes }
    }

    /// `execute_command_list`: a nested list by reference (R-REC-9), the address of its header;
    /// the operand is the restore flag.
    ExecuteCommandList = 53 {
        /// The nested list.
        list: NestedList<'a>,
        /// The restore flag of `execute_command_list`: a legacy context keeps its own state
        /// across the nested list (`true`) or has the ClearState defaults after it (`false`);
        /// fast refuses `true`.
        restore: bool,
    }
    decode(at) {
        // The encoder wrote the address of the nested list's header, which the outer list's
        // reference keeps alive (`NestedList::from_address`'s requirement).
        Command::ExecuteCommandList {
            list: NestedList::from_address(at.read::<usize>()),
            restore: at.operand() != 0,
        }
    }

    /// In a bundle: later draws read a slot from another inherited slot (R-B-9); the operand is
    /// the `RemapKind`.
    RemapInheritance = 54 (remap: Remap)
    decode(at) {
        let p: RemapPayload = at.read();
        Command::RemapInheritance(Remap {
            kind: RemapKind::from_u8(at.operand()),
            stage: Stage::from_u8(p.stage).unwrap_or(Stage::Vertex),
            slot: p.slot,
            inherit_stage: Stage::from_u8(p.inherit_stage).unwrap_or(Stage::Vertex),
            inherit_slot: p.inherit_slot,
        })
    }

    /// A call of a draw bundle, recorded in a list (R-B-10), by handle: `Device::bundle_body`
    /// has its commands, its declaration and its footprint.
    DrawBundle = 55 {
        /// The bundle called; `Device::bundle_body` has its commands.
        bundle: RawHandle,
    }
    objects(one) { one(ObjectKind::Bundle, bundle) }
    decode(at) { Command::DrawBundle { bundle: at.read::<DrawBundlePayload>() } }

    /// `barrier`: the call's enhanced barriers in order, each with its group and index
    /// (R-BAR-1), as `BarrierRecord`s.
    Barrier = 56 {
        /// The barriers, read in place from the list.
        barriers: &'a [BarrierRecord],
    }
    objects(one) {
        barriers.iter().filter_map(|b| b.resource()).for_each(|r| one(r.kind, r.handle))
    }
    decode(at) {
        let p: BarrierCounts = at.read();
        Command::Barrier { barriers: at.items(size_of::<BarrierCounts>(), p.barriers) }
    }

    /// `resource_barrier`: the call's legacy resource barriers in order (R-BAR-6), as
    /// `ResourceBarrierRecord`s.
    ResourceBarrier = 57 {
        /// The barriers, read in place from the list.
        barriers: &'a [ResourceBarrierRecord],
    }
    objects(one) {
        barriers
            .iter()
            .flat_map(|b| [b.resource(), b.other()])
            .flatten()
            .for_each(|r| one(r.kind, r.handle))
    }
    decode(at) {
        let p: BarrierCounts = at.read();
        Command::ResourceBarrier { barriers: at.items(size_of::<BarrierCounts>(), p.barriers) }
    }

    /// `copy_buffer_region`: `bytes` bytes of `source` from `source_offset` into `destination`
    /// at `destination_offset`; source and destination may be one buffer (R-BAR-7).
    CopyBufferRegion = 58 {
        /// The buffer written.
        destination: BoundResource,
        /// The first byte written.
        destination_offset: u64,
        /// The buffer read.
        source: BoundResource,
        /// The first byte read.
        source_offset: u64,
        /// How many bytes.
        bytes: u64,
    }
    objects(one) {
        one(resource_kind(destination), destination.resource);
        one(resource_kind(source), source.resource);
    }
    decode(at) {
        let p: BufferRegionPayload = at.read();
        Command::CopyBufferRegion {
            destination: p.destination,
            destination_offset: p.destination_offset,
            source: p.source,
            source_offset: p.source_offset,
            bytes: p.bytes,
        }
    }

    /// `copy_texture_region`: the texels of `source_box` of a source subresource into a
    /// destination subresource at `(x, y)`; source and destination may be one texture
    /// (R-BAR-7).
    CopyTextureRegion = 59 {
        /// The texture written.
        destination: BoundResource,
        /// The subresource written.
        destination_subresource: u32,
        /// Where the box lands: left texel.
        x: u32,
        /// Top texel.
        y: u32,
        /// The texture read.
        source: BoundResource,
        /// The subresource read.
        source_subresource: u32,
        /// The texels read.
        source_box: CopyBox,
    }
    objects(one) {
        one(resource_kind(destination), destination.resource);
        one(resource_kind(source), source.resource);
    }
    decode(at) {
        let p: TextureRegionPayload = at.read();
        Command::CopyTextureRegion {
            destination: p.destination,
            destination_subresource: p.destination_subresource,
            x: p.x,
            y: p.y,
            source: p.source,
            source_subresource: p.source_subresource,
            source_box: p.source_box,
        }
    }
}
other_opcodes {
    /// The list's own header, first in its first chunk; not a command.
    ListStart = 0
    decode(_at) { Command::ClearState }

    /// `set_constant_buffers` of one buffer read at its creation instance, compact (16 bytes):
    /// the stage in the operand's low 3 bits and the slot above them, the buffer as the payload.
    /// Decoded as a one-slot [`Command::SetConstantBuffers`].
    SetConstantBuffer = 60
    decode(at) {
        Command::SetConstantBuffers {
            stage: Stage::from_u8(at.operand() & 7).unwrap_or(Stage::Vertex),
            start: (at.operand() >> 3) as u32,
            buffers: BoundBuffers::One(BoundBuffer { buffer: at.read(), ..BoundBuffer::NULL }),
        }
    }

    /// `set_vertex_buffers` of one buffer read at its creation instance, compact (24 bytes): the
    /// slot in the operand, a [`VertexBufferPayload`]. Decoded as a one-slot
    /// [`Command::SetVertexBuffers`].
    SetVertexBuffer = 61
    decode(at) {
        let p: VertexBufferPayload = at.read();
        Command::SetVertexBuffers {
            start: at.operand() as u32,
            buffers: BoundBuffers::One(BoundBuffer {
                buffer: p.buffer,
                instance: InstanceId::INITIAL,
                offset: p.offset,
                stride_or_format: p.stride,
            }),
        }
    }

    /// The list's index of split points and nested lists, last in its last chunk; not a
    /// command.
    ListIndex = 62
    decode(_at) { Command::ClearState }
}
}

/// Which kind of resource a [`BoundResource`] names.
fn resource_kind(resource: BoundResource) -> ObjectKind {
    if resource.is_texture != 0 {
        ObjectKind::Texture
    } else {
        ObjectKind::Buffer
    }
}
