//! Reading encoded commands back (`encode.rs` writes them): the typed [`Command`] that
//! execution, nesting, validation and a legacy list's drop walk see.
//!
//! **In:** the address of a command the encoder wrote in a sealed chunk. **Out:** a
//! [`Decoded`] command borrowing its trailing arrays from the chunk (no copy), its split
//! category, and the offset of the next command. Execution decodes each command once and hands
//! the typed form on (a split point's patch included, `patch.rs`).

use std::marker::PhantomData;
use std::ptr::NonNull;

use crate::barriers::{BarrierCounts, BarrierRecord, ResourceBarrierRecord};
use crate::context::split::SplitCategory;
use crate::desc::{ClearFlags, CopyBox, Engine, PrimitiveTopology, Rect, Stage, Viewport};
use crate::device::handle::RawHandle;

use super::*;

/// The buffers of a slot-array buffer bind, one per slot: the command's own array in the chunk,
/// or the one buffer of a compact command ([`Opcode::SetConstantBuffer`],
/// [`Opcode::SetVertexBuffer`]), decoded by value. Either way it reads as a slice (`Deref`), and
/// two are equal when their slices are.
#[derive(Clone, Copy)]
pub enum BoundBuffers<'a> {
    /// The buffers of a command that encodes them as an array.
    Array(&'a [BoundBuffer]),
    /// The one buffer of a compact command.
    One(BoundBuffer),
}

impl std::ops::Deref for BoundBuffers<'_> {
    type Target = [BoundBuffer];

    #[inline(always)]
    fn deref(&self) -> &[BoundBuffer] {
        match self {
            Self::Array(buffers) => buffers,
            Self::One(buffer) => std::slice::from_ref(buffer),
        }
    }
}

impl<'a> From<&'a [BoundBuffer]> for BoundBuffers<'a> {
    fn from(buffers: &'a [BoundBuffer]) -> Self {
        Self::Array(buffers)
    }
}

impl<'a, const N: usize> From<&'a [BoundBuffer; N]> for BoundBuffers<'a> {
    fn from(buffers: &'a [BoundBuffer; N]) -> Self {
        Self::Array(buffers)
    }
}

impl PartialEq for BoundBuffers<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for BoundBuffers<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// A decoded command, borrowing its payload from the chunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command<'a> {
    /// `set_input_layout`.
    SetInputLayout {
        /// The input layout; null unbinds it.
        layout: RawHandle,
        /// Bit `i` set: the layout reads vertex-buffer slot `i` (from its `InputLayoutDesc`); 0
        /// when null.
        vertex_buffers: u32,
    },
    /// `set_primitive_topology`.
    SetPrimitiveTopology(PrimitiveTopology),
    /// `set_vertex_buffers`: slots `start..start + buffers.len()`.
    SetVertexBuffers {
        /// The first vertex-buffer slot bound.
        start: u32,
        /// One per slot from `start`: buffer, instance, offset and stride; [`BoundBuffer::NULL`]
        /// unbinds.
        buffers: BoundBuffers<'a>,
    },
    /// `set_index_buffer`: buffer, instance, offset and index format (in `stride_or_format`); null
    /// unbinds.
    SetIndexBuffer(BoundBuffer),
    /// `set_primitive_reset_index`: the cut index (R-ST-5).
    SetPrimitiveResetIndex(u32),
    /// `set_shader` on one stage.
    SetShader {
        /// The stage bound.
        stage: Stage,
        /// The shader and the slots it reads; [`BoundShader::NULL`] unbinds the stage.
        shader: BoundShader,
    },
    /// `set_constant_buffers`: slots `start..start + buffers.len()` of one stage.
    SetConstantBuffers {
        /// The stage bound.
        stage: Stage,
        /// The first constant-buffer slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundBuffer::NULL`] unbinds.
        buffers: BoundBuffers<'a>,
    },
    /// `set_shader_resources`: slots `start..start + views.len()` of one stage.
    SetShaderResources {
        /// The stage bound.
        stage: Stage,
        /// The first shader-resource slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundView::NULL`] unbinds.
        views: &'a [BoundView],
    },
    /// `set_samplers`: slots `start..start + samplers.len()` of one stage.
    SetSamplers {
        /// The stage bound.
        stage: Stage,
        /// The first sampler slot bound.
        start: u32,
        /// One sampler state per slot from `start`; null unbinds.
        samplers: &'a [RawHandle],
    },
    /// `set_compute_unordered_access_views`: the compute stage's UAV slots `start..start + views.len()`.
    SetComputeUnorderedAccessViews {
        /// The first UAV slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundView::NULL`] unbinds.
        views: &'a [BoundView],
    },
    /// Output-merger bindings. `targets: None` keeps the bound render targets and depth
    /// stencil; `uavs: None` keeps the bound OM UAVs.
    SetRenderTargets {
        /// The render-target views (slot 0 on; the other slots are unbound) and the depth-stencil
        /// view
        /// ([`BoundView::NULL`]: none); `None` keeps what is bound.
        targets: Option<(&'a [BoundView], BoundView)>,
        /// The first OM UAV slot and the UAVs from it; `None` keeps what is bound.
        uavs: Option<(u32, &'a [BoundView])>,
        /// The UAVs re-bind their own slots only: a split point cut out of a call, which left
        /// the call's other slots as they are. Otherwise the other OM UAV slots are unbound.
        uav_patch: bool,
    },
    /// `set_blend_state`.
    SetBlendState {
        /// The blend state; null restores the default.
        state: RawHandle,
        /// The blend factor, RGBA.
        factor: [f32; 4],
        /// Which samples are written (bit `i`: sample `i`); default `u32::MAX`.
        sample_mask: u32,
    },
    /// `set_depth_stencil_state`.
    SetDepthStencilState {
        /// The depth-stencil state; null restores the default.
        state: RawHandle,
        /// The stencil reference value.
        stencil_ref: u32,
    },
    /// `set_rasterizer_state`: the rasterizer state; null restores the default.
    SetRasterizerState(RawHandle),
    /// `set_viewports`: the viewports from slot 0; the slots past them go back to the default.
    SetViewports(&'a [Viewport]),
    /// `set_scissor_rects`: the rectangles from slot 0; the slots past them go back to the
    /// default.
    SetScissorRects(&'a [Rect]),
    /// `draw(vertex_count, start_vertex)` ([`DirectArgs::draw`]).
    Draw(DirectArgs),
    /// `draw_indexed(index_count, start_index, base_vertex)`.
    DrawIndexed(DirectArgs),
    /// `draw_instanced(vertex_count, instance_count, start_vertex, start_instance)`.
    DrawInstanced(DirectArgs),
    /// `draw_indexed_instanced(index_count, instance_count, start_index, base_vertex,
    /// start_instance)`.
    DrawIndexedInstanced(DirectArgs),
    /// `draw_auto`: the vertex count is the one stream output wrote.
    DrawAuto,
    /// `draw_instanced_indirect`: the arguments buffer, its instance and byte offset.
    DrawInstancedIndirect(BoundBuffer),
    /// `draw_indexed_instanced_indirect`: the arguments buffer, its instance and byte offset.
    DrawIndexedInstancedIndirect(BoundBuffer),
    /// `dispatch(x, y, z)`.
    Dispatch(DirectArgs),
    /// `dispatch_indirect`: the arguments buffer, its instance and byte offset.
    DispatchIndirect(BoundBuffer),
    /// `clear_render_target_view`.
    ClearRenderTargetView {
        /// The render-target view cleared.
        view: BoundView,
        /// The colour, RGBA.
        color: [f32; 4],
    },
    /// `clear_depth_stencil_view`.
    ClearDepthStencilView {
        /// The depth-stencil view cleared.
        view: BoundView,
        /// Which planes are cleared.
        flags: ClearFlags,
        /// The depth value (when `flags.depth`).
        depth: f32,
        /// The stencil value (when `flags.stencil`).
        stencil: u8,
    },
    /// `copy_resource`: the whole of `source` copied into `destination`.
    CopyResource {
        /// The resource written.
        destination: BoundResource,
        /// The resource read, and the instance it is read at.
        source: BoundResource,
    },
    /// `copy_buffer_region`: `bytes` bytes of `source` from `source_offset` into `destination`
    /// at `destination_offset`; source and destination may be one buffer (R-BAR-7).
    CopyBufferRegion {
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
    },
    /// `copy_texture_region`: the texels of `source_box` of a source subresource into a
    /// destination subresource at `(x, y)`; source and destination may be one texture (R-BAR-7).
    CopyTextureRegion {
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
    },
    /// `update_subresource`: a default resource's contents replaced (legacy only, R-ST-7).
    UpdateSubresource {
        /// The resource written.
        resource: BoundResource,
        /// The bytes written, carried by the list.
        data: &'a [u8],
    },
    /// `copy_structure_count`: a UAV's hidden counter written into a buffer.
    CopyStructureCount {
        /// The buffer and byte offset written.
        destination: BoundBuffer,
        /// The UAV whose counter is read (R-ST-7).
        view: BoundView,
    },
    /// A write_discard map recorded in the list: a new instance whose data travels with it.
    MapWriteDiscard {
        /// The dynamic resource, and the instance the map makes (R-REC-10).
        resource: BoundResource,
        /// The bytes the map wrote, carried by the list.
        data: &'a [u8],
    },
    /// A write_no_overwrite map of a default resource (allow_usage_default): data written in place.
    MapWriteNoOverwrite {
        /// The resource written.
        resource: BoundResource,
        /// The bytes written, carried by the list.
        data: &'a [u8],
    },
    /// `set_predication`.
    SetPredication {
        /// The predicate query; null stops predication.
        predicate: RawHandle,
        /// The value the predicate is compared with: a draw is skipped when the predicate's result
        /// equals it.
        value: bool,
    },
    /// `begin_query`.
    BeginQuery(RawHandle),
    /// `end_query`.
    EndQuery(RawHandle),
    /// `write_query` (R-FX-3).
    WriteQuery(RawHandle),
    /// `reset_query` (R-FX-3).
    ResetQuery(RawHandle),
    /// `configure_query` (R-FX-3).
    ConfigureQuery {
        /// The query configured.
        query: RawHandle,
        /// How an occlusion query counts from now on.
        mode: crate::QueryMode,
    },
    /// `set_predication_from_query` (R-FX-3): as [`Command::SetPredication`], on any query.
    SetPredicationFromQuery {
        /// The query whose answer predicates; null stops predication.
        query: RawHandle,
        /// The answer that skips the draws.
        value: bool,
    },
    /// `clear_state`: every binding back to its default. Also what a release build's decoder
    /// yields for a byte that is not a command's opcode (a debug build asserts it never meets one).
    ClearState,
    /// `decompress_resource` (R-ST-9).
    DecompressResource {
        /// The compressible target decompressed.
        resource: RawHandle,
        /// The texture the decompressed contents go to, keeping `resource` compressed; null
        /// decompresses in place.
        into: RawHandle,
    },
    /// `set_resource_compression` (R-ST-9).
    SetResourceCompression {
        /// The target whose compression state is set.
        resource: RawHandle,
        /// Whether it is compressed once the command executes.
        compressed: bool,
    },
    /// `insert_wait_on_present`: waits for the present of this swap chain (R-EX-7).
    InsertWaitOnPresent(RawHandle),
    /// `insert_fence` (R-EX-5).
    InsertFence {
        /// The engine the fence is on.
        engine: Engine,
        /// The fence value, handed out by the device at record time.
        value: u64,
        /// Whether the fence kicks off its segment (`FenceFlags::KickOff`, R-FX-6): the run of
        /// commands that holds it ends after it.
        kick_off: bool,
    },
    /// `insert_wait_on_fence` (R-EX-5).
    InsertWaitOnFence {
        /// The engine that waits.
        engine: Engine,
        /// The fence value waited for.
        value: u64,
    },
    /// `write_value_bottom_of_pipe`.
    WriteValueBottomOfPipe {
        /// The buffer written.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        offset: u64,
        /// The value written when the pipeline drains past the command.
        value: u64,
    },
    /// `insert_wait_on_memory`.
    InsertWaitOnMemory {
        /// The buffer read.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        offset: u64,
        /// The value waited for.
        value: u64,
    },
    /// `set_gds_range` (R-FX-4): the GDS range of the pixel or compute stage.
    SetGdsRange {
        /// The stage (pixel or compute).
        stage: Stage,
        /// Byte offset of the range in GDS.
        offset: u32,
        /// Bytes of the range (0: none).
        size: u32,
    },
    /// `write_gds` (R-FX-4): words written into GDS, carried by the list.
    WriteGds {
        /// Byte offset in GDS of the first value.
        offset: u32,
        /// The values, one GDS word each.
        values: &'a [u32],
    },
    /// `read_gds` (R-FX-4): GDS words copied into a buffer.
    ReadGds {
        /// Byte offset in GDS of the first word.
        offset: u32,
        /// Words copied.
        count: u32,
        /// The buffer written.
        destination: RawHandle,
        /// Byte offset in the buffer.
        destination_offset: u64,
    },
    /// `load_constant_ram` (R-FX-5): buffer bytes into constant RAM.
    LoadConstantRam {
        /// The buffer read.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        buffer_offset: u64,
        /// Byte offset in constant RAM.
        ram_offset: u32,
        /// Bytes moved.
        bytes: u32,
    },
    /// `store_constant_ram` (R-FX-5): constant-RAM bytes into a buffer.
    StoreConstantRam {
        /// The buffer written.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        buffer_offset: u64,
        /// Byte offset in constant RAM.
        ram_offset: u32,
        /// Bytes moved.
        bytes: u32,
    },
    /// A nested command list (R-REC-9): the address of its header, and the restore flag.
    ExecuteCommandList {
        /// The nested list.
        list: NestedList<'a>,
        /// The restore flag of `execute_command_list`: a legacy context keeps its own state across
        /// the nested list (`true`) or has the ClearState defaults after it (`false`); fast refuses
        /// `true`.
        restore: bool,
    },
    /// In a bundle: later draws read a slot from another inherited slot (R-B-9).
    RemapInheritance(Remap),
    /// A draw bundle called from a list (R-B-10), by handle: `Device::bundle_body` has its
    /// commands, its declaration and its footprint.
    DrawBundle {
        /// The bundle called; `Device::bundle_body` has its commands.
        bundle: RawHandle,
    },
    /// `barrier`: the call's barriers in order, each with its group and index (R-BAR-1).
    Barrier {
        /// The barriers, read in place from the list.
        barriers: &'a [BarrierRecord],
    },
    /// `resource_barrier`: the call's legacy barriers in order (R-BAR-6).
    ResourceBarrier {
        /// The barriers, read in place from the list.
        barriers: &'a [ResourceBarrierRecord],
    },
}

/// A decoded command and, if it is a split point, its category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decoded<'a> {
    /// The command.
    pub command: Command<'a>,
    /// Its split category, if it is a split point (R-SP-2).
    pub split: Option<SplitCategory>,
    /// Offset of the command in its chunk.
    pub offset: u32,
    /// Where the command lives, when it came from `CommandList::segments` (for
    /// [`QueuedSplitPoint::new`](crate::QueuedSplitPoint::new)).
    pub(crate) site: Option<Site>,
}

/// The list a decoded command lives in: the address of its header (`list/` knows it as a
/// `ListHeader`), to keep the list alive for a command handed on (`QueuedSplitPoint::new`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Site {
    pub(crate) list: NonNull<u8>,
}

/// A nested list as the command that executes it names it (R-REC-9): the address of its header,
/// as the command encodes it. The outer list holds a reference on the inner one for its whole
/// life, so the inner list outlives this borrow; `list/` gives it its meaning
/// (`NestedList::to_list`, `NestedList::header_ptr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NestedList<'a> {
    pub(crate) header: NonNull<u8>,
    _outer: PhantomData<&'a ()>,
}

impl NestedList<'_> {
    /// # Safety
    /// `header` must be the non-null address of a list header that a reference held by the
    /// outer list keeps alive for `'a`.
    unsafe fn from_address(header: usize) -> Self {
        Self {
            // SAFETY: the caller passes an address recorded from `CommandList::header_ptr`, which
            // is never null.
            header: unsafe { NonNull::new_unchecked(header as *mut u8) },
            _outer: PhantomData,
        }
    }
}

impl<'a> Command<'a> {
    /// The views this command binds for shader access (shader resources, compute UAVs, the
    /// output merger's UAVs): what a bind decompresses when it binds a compressed target
    /// (a `decompression` split point, a legacy immediate bind; R-SP-4, R-ST-9).
    pub fn shader_views(&self) -> &'a [BoundView] {
        match *self {
            Command::SetShaderResources { views, .. }
            | Command::SetComputeUnorderedAccessViews { views, .. } => views,
            Command::SetRenderTargets {
                uavs: Some((_, views)),
                ..
            } => views,
            _ => &[],
        }
    }
}

/// Reads what `DeferredContext::remap_inheritance` wrote.
///
/// # Safety
/// `payload` must be the payload of a `RemapInheritance` command.
unsafe fn decode_remap(operand: u8, payload: *const u8) -> Remap {
    // SAFETY: the caller points at a `RemapInheritance` payload, which the encoder wrote as a
    // `RemapPayload` at an 8-aligned address (commands and payloads are multiples of 8).
    let p = unsafe { (payload as *const RemapPayload).read() };
    Remap {
        kind: RemapKind::from_u8(operand),
        stage: Stage::from_u8(p.stage).unwrap_or(Stage::Vertex),
        slot: p.slot,
        inherit_stage: Stage::from_u8(p.inherit_stage).unwrap_or(Stage::Vertex),
        inherit_slot: p.inherit_slot,
    }
}

/// Reads what `DeferredContext::record_draw_bundle` wrote: the bundle's handle.
///
/// # Safety
/// `payload` must be the payload of a `DrawBundle` command.
unsafe fn decode_draw_bundle(payload: *const u8) -> RawHandle {
    // SAFETY: the caller points at a `DrawBundle` payload, which the encoder wrote as a
    // `DrawBundlePayload` at an 8-aligned address (commands and payloads are multiples of 8).
    unsafe { (payload as *const DrawBundlePayload).read() }
}

/// Reads a `T` at `at`.
///
/// # Safety
/// `at` must hold a `T` written by the encoder.
#[inline(always)]
unsafe fn read<T: Copy>(at: *const u8) -> T {
    // SAFETY: the caller guarantees a `T` written by the encoder lies at `at`; the encoder
    // writes commands 8-aligned with payloads that are multiples of 8, and no `T` it writes is
    // aligned to more than 8 (const assertions in `encode.rs`), so the read is aligned.
    unsafe { (at as *const T).read() }
}

/// # Safety
/// `at` must hold `count` `T`s written by the encoder, alive for `'a`.
#[inline(always)]
unsafe fn slice<'a, T>(at: *const u8, count: usize) -> &'a [T] {
    // SAFETY: the caller guarantees `count` encoder-written `T`s at `at`, alive for `'a`; they
    // are 8-aligned (as in `read`) and never written again once sealed, so a shared slice of
    // them is sound.
    unsafe { std::slice::from_raw_parts(at as *const T, count) }
}

/// The offset after the command, list header or list index at `offset` of the chunk at `base`,
/// read from its header alone: how the walks step over what is not a command, never decoding it.
///
/// # Safety
/// `base + offset` must be the start of a header the encoder wrote into a chunk that is alive.
pub(crate) unsafe fn next_offset(base: *const u8, offset: usize) -> usize {
    // SAFETY: the caller points at a header the encoder wrote: aligned to 8 (every command and
    // both list records are) and initialised.
    let header: CommandHeader = unsafe { read(base.add(offset)) };
    offset + header.size as usize
}

#[cfg(debug_assertions)]
std::thread_local! {
    static DECODES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Commands decoded on this thread so far (debug builds only): what a test of "each command is
/// decoded once at execution" counts around an execution.
#[cfg(debug_assertions)]
pub fn decodes_on_this_thread() -> u64 {
    DECODES.with(std::cell::Cell::get)
}

/// Decodes the command at `offset` of the chunk at `base`; returns it and the next offset.
///
/// # Safety
/// `base + offset` must be the start of a command written by this module into a chunk that stays
/// alive and unchanged for `'a`.
// Over 150 lines on purpose: one arm per opcode, a table the compiler checks for exhaustiveness
// over `Opcode`. It stays whole so that every opcode's decoding reads in one place beside its
// siblings, and the hot execution path stays one `match` (splitting it would add calls).
#[inline]
pub(crate) unsafe fn decode<'a>(base: *const u8, offset: usize) -> (Decoded<'a>, usize) {
    #[cfg(debug_assertions)]
    DECODES.with(|decodes| decodes.set(decodes.get() + 1));
    // SAFETY: the caller points at a command the encoder wrote, alive and unchanged for 'a;
    // everything read below lies inside it: the header, then the payload and trailing array of
    // the sizes the encoder wrote for this opcode (counts bounded by the header's checked size).
    unsafe {
        let at = base.add(offset);
        let header: CommandHeader = read(at);
        let size = header.size as usize;
        let payload = at.add(HEADER);
        let opcode = Opcode::from_u8(header.opcode as u8).unwrap_or(Opcode::ClearState);
        // Only commands are decoded: the walks start after the list's header and stop before its
        // index, and the encoder writes no other opcode. The release build's fallback above keeps
        // a corrupted byte from being undefined behaviour; a debug build says where it went wrong.
        debug_assert!(
            Opcode::from_u8(header.opcode as u8)
                .is_some_and(|op| op != Opcode::ListStart && op != Opcode::ListIndex),
            "decode at offset {offset}: opcode byte {} is not a command",
            header.opcode as u8
        );
        let stage = Stage::from_u8(header.operand).unwrap_or(Stage::Vertex);
        let tail = |fixed: usize| payload.add(fixed);
        let tail_count =
            |fixed: usize, element: usize| size.saturating_sub(HEADER + fixed) / element.max(1);
        // A count stored in a payload never reaches past its command, whatever it says: the
        // header's size was checked where it was written (R-REC-12), the count is bounded by it.
        let within = |count: u32, fixed: usize, element: usize| {
            (count as usize).min(tail_count(fixed, element))
        };
        let command = match opcode {
            Opcode::ListStart | Opcode::ListIndex | Opcode::ClearState => Command::ClearState,
            Opcode::SetInputLayout => {
                let p: InputLayoutPayload = read(payload);
                Command::SetInputLayout {
                    layout: p.layout,
                    vertex_buffers: p.vertex_buffers,
                }
            }
            Opcode::SetPrimitiveTopology => {
                Command::SetPrimitiveTopology(PrimitiveTopology::from_u8(header.operand))
            }
            Opcode::SetVertexBuffers => {
                let p: SlotsPayload = read(payload);
                Command::SetVertexBuffers {
                    start: p.start,
                    buffers: BoundBuffers::Array(slice(
                        tail(8),
                        within(p.count, 8, std::mem::size_of::<BoundBuffer>()),
                    )),
                }
            }
            Opcode::SetVertexBuffer => {
                let p: VertexBufferPayload = read(payload);
                Command::SetVertexBuffers {
                    start: header.operand as u32,
                    buffers: BoundBuffers::One(BoundBuffer {
                        buffer: p.buffer,
                        instance: InstanceId::INITIAL,
                        offset: p.offset,
                        stride_or_format: p.stride,
                    }),
                }
            }
            Opcode::SetIndexBuffer => Command::SetIndexBuffer(read(payload)),
            Opcode::SetPrimitiveResetIndex => Command::SetPrimitiveResetIndex(read(payload)),
            Opcode::SetShader => Command::SetShader {
                stage,
                shader: read(payload),
            },
            Opcode::SetConstantBuffers => {
                let p: SlotsPayload = read(payload);
                Command::SetConstantBuffers {
                    stage,
                    start: p.start,
                    buffers: BoundBuffers::Array(slice(
                        tail(8),
                        within(p.count, 8, std::mem::size_of::<BoundBuffer>()),
                    )),
                }
            }
            Opcode::SetConstantBuffer => Command::SetConstantBuffers {
                stage: Stage::from_u8(header.operand & 7).unwrap_or(Stage::Vertex),
                start: (header.operand >> 3) as u32,
                buffers: BoundBuffers::One(BoundBuffer {
                    buffer: read(payload),
                    ..BoundBuffer::NULL
                }),
            },
            Opcode::SetShaderResources => {
                let p: SlotsPayload = read(payload);
                Command::SetShaderResources {
                    stage,
                    start: p.start,
                    views: slice(
                        tail(8),
                        within(p.count, 8, std::mem::size_of::<BoundView>()),
                    ),
                }
            }
            Opcode::SetSamplers => {
                let p: SlotsPayload = read(payload);
                Command::SetSamplers {
                    stage,
                    start: p.start,
                    samplers: slice(
                        tail(8),
                        within(p.count, 8, std::mem::size_of::<RawHandle>()),
                    ),
                }
            }
            Opcode::SetComputeUnorderedAccessViews => {
                let p: SlotsPayload = read(payload);
                Command::SetComputeUnorderedAccessViews {
                    start: p.start,
                    views: slice(
                        tail(8),
                        within(p.count, 8, std::mem::size_of::<BoundView>()),
                    ),
                }
            }
            Opcode::SetRenderTargets => {
                let p: RenderTargetsPayload = read(payload);
                let fixed = std::mem::size_of::<RenderTargetsPayload>();
                let view = std::mem::size_of::<BoundView>();
                let count = if p.render_targets == KEEP {
                    0
                } else {
                    within(p.render_targets, fixed, view)
                };
                let targets = (p.render_targets != KEEP)
                    .then(|| (slice(tail(fixed), count), p.depth_stencil));
                let uavs = (p.uav_start != KEEP).then(|| {
                    let at = tail(fixed + count * view);
                    (
                        p.uav_start,
                        slice(at, within(p.uavs, fixed + count * view, view)),
                    )
                });
                Command::SetRenderTargets {
                    targets,
                    uavs,
                    uav_patch: p.flags & RenderTargetsPayload::PATCH != 0,
                }
            }
            Opcode::SetBlendState => {
                let p: StatePayload = read(payload);
                Command::SetBlendState {
                    state: p.state,
                    factor: p.factor,
                    sample_mask: p.reference,
                }
            }
            Opcode::SetDepthStencilState => {
                let p: StatePayload = read(payload);
                Command::SetDepthStencilState {
                    state: p.state,
                    stencil_ref: p.reference,
                }
            }
            Opcode::SetRasterizerState => Command::SetRasterizerState(read(payload)),
            Opcode::SetViewports => Command::SetViewports(slice(
                payload,
                tail_count(0, std::mem::size_of::<Viewport>()),
            )),
            Opcode::SetScissorRects => {
                Command::SetScissorRects(slice(payload, tail_count(0, std::mem::size_of::<Rect>())))
            }
            Opcode::Draw => {
                let [vertex_count, start_vertex]: [u32; 2] = read(payload);
                Command::Draw(DirectArgs::draw(vertex_count, start_vertex))
            }
            Opcode::DrawIndexed => Command::DrawIndexed(read(payload)),
            Opcode::DrawInstanced => Command::DrawInstanced(read(payload)),
            Opcode::DrawIndexedInstanced => Command::DrawIndexedInstanced(read(payload)),
            Opcode::Dispatch => Command::Dispatch(read(payload)),
            Opcode::DrawAuto => Command::DrawAuto,
            Opcode::DrawInstancedIndirect => {
                Command::DrawInstancedIndirect(read::<IndirectPayload>(payload).args)
            }
            Opcode::DrawIndexedInstancedIndirect => {
                Command::DrawIndexedInstancedIndirect(read::<IndirectPayload>(payload).args)
            }
            Opcode::DispatchIndirect => {
                Command::DispatchIndirect(read::<IndirectPayload>(payload).args)
            }
            Opcode::ClearRenderTargetView => {
                let p: ClearPayload = read(payload);
                Command::ClearRenderTargetView {
                    view: p.view,
                    color: p.values,
                }
            }
            Opcode::ClearDepthStencilView => {
                let p: ClearPayload = read(payload);
                Command::ClearDepthStencilView {
                    view: p.view,
                    flags: ClearFlags::from_bits(p.flags),
                    depth: p.values[0],
                    stencil: p.stencil as u8,
                }
            }
            Opcode::CopyResource => {
                let p: CopyPayload = read(payload);
                Command::CopyResource {
                    destination: p.destination,
                    source: p.source,
                }
            }
            Opcode::CopyBufferRegion => {
                let p: BufferRegionPayload = read(payload);
                Command::CopyBufferRegion {
                    destination: p.destination,
                    destination_offset: p.destination_offset,
                    source: p.source,
                    source_offset: p.source_offset,
                    bytes: p.bytes,
                }
            }
            Opcode::CopyTextureRegion => {
                let p: TextureRegionPayload = read(payload);
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
            Opcode::UpdateSubresource | Opcode::MapWriteDiscard | Opcode::MapWriteNoOverwrite => {
                let resource: BoundResource = read(payload);
                let fixed = std::mem::size_of::<BoundResource>();
                let data = slice(tail(fixed), within(resource.data_len, fixed, 1));
                match opcode {
                    Opcode::UpdateSubresource => Command::UpdateSubresource { resource, data },
                    Opcode::MapWriteDiscard => Command::MapWriteDiscard { resource, data },
                    _ => Command::MapWriteNoOverwrite { resource, data },
                }
            }
            Opcode::CopyStructureCount => {
                let p: StructureCountPayload = read(payload);
                Command::CopyStructureCount {
                    destination: p.destination,
                    view: p.view,
                }
            }
            Opcode::SetPredication => {
                let p: ObjectPayload = read(payload);
                Command::SetPredication {
                    predicate: p.object,
                    value: p.value != 0,
                }
            }
            Opcode::BeginQuery => Command::BeginQuery(read(payload)),
            Opcode::EndQuery => Command::EndQuery(read(payload)),
            Opcode::WriteQuery => Command::WriteQuery(read(payload)),
            Opcode::ResetQuery => Command::ResetQuery(read(payload)),
            Opcode::ConfigureQuery => Command::ConfigureQuery {
                query: read(payload),
                mode: crate::QueryMode::from_u8(header.operand),
            },
            Opcode::SetPredicationFromQuery => {
                let p: ObjectPayload = read(payload);
                Command::SetPredicationFromQuery {
                    query: p.object,
                    value: p.value != 0,
                }
            }
            Opcode::DecompressResource => {
                let p: ObjectPayload = read(payload);
                Command::DecompressResource {
                    resource: p.object,
                    into: RawHandle::from_bits(p.value),
                }
            }
            Opcode::SetResourceCompression => {
                let p: ObjectPayload = read(payload);
                Command::SetResourceCompression {
                    resource: p.object,
                    compressed: p.value != 0,
                }
            }
            Opcode::InsertWaitOnPresent => Command::InsertWaitOnPresent(read(payload)),
            Opcode::InsertFence => Command::InsertFence {
                engine: Engine::from_u8(header.operand & !super::KICK_OFF_BIT),
                value: read(payload),
                kick_off: header.operand & super::KICK_OFF_BIT != 0,
            },
            Opcode::InsertWaitOnFence => Command::InsertWaitOnFence {
                engine: Engine::from_u8(header.operand),
                value: read(payload),
            },
            Opcode::WriteValueBottomOfPipe => {
                let p: MemoryPayload = read(payload);
                Command::WriteValueBottomOfPipe {
                    buffer: p.buffer,
                    offset: p.offset,
                    value: p.value,
                }
            }
            Opcode::InsertWaitOnMemory => {
                let p: MemoryPayload = read(payload);
                Command::InsertWaitOnMemory {
                    buffer: p.buffer,
                    offset: p.offset,
                    value: p.value,
                }
            }
            Opcode::SetGdsRange => {
                let p: GdsRangePayload = read(payload);
                Command::SetGdsRange {
                    stage,
                    offset: p.offset,
                    size: p.size,
                }
            }
            Opcode::WriteGds => {
                let p: GdsWritePayload = read(payload);
                let fixed = std::mem::size_of::<GdsWritePayload>();
                Command::WriteGds {
                    offset: p.offset,
                    values: slice(tail(fixed), within(p.count, fixed, 4)),
                }
            }
            Opcode::ReadGds => {
                let p: GdsReadPayload = read(payload);
                Command::ReadGds {
                    offset: p.offset,
                    count: p.count,
                    destination: p.destination,
                    destination_offset: p.destination_offset,
                }
            }
            Opcode::LoadConstantRam | Opcode::StoreConstantRam => {
                let p: ConstantRamPayload = read(payload);
                let (buffer, buffer_offset) = (p.buffer, p.buffer_offset);
                let (ram_offset, bytes) = (p.ram_offset, p.bytes);
                match opcode {
                    Opcode::LoadConstantRam => Command::LoadConstantRam {
                        buffer,
                        buffer_offset,
                        ram_offset,
                        bytes,
                    },
                    _ => Command::StoreConstantRam {
                        buffer,
                        buffer_offset,
                        ram_offset,
                        bytes,
                    },
                }
            }
            Opcode::ExecuteCommandList => Command::ExecuteCommandList {
                list: NestedList::from_address(read::<usize>(payload)),
                restore: header.operand != 0,
            },
            Opcode::RemapInheritance => {
                Command::RemapInheritance(decode_remap(header.operand, payload))
            }
            Opcode::DrawBundle => Command::DrawBundle {
                bundle: decode_draw_bundle(payload),
            },
            Opcode::Barrier | Opcode::ResourceBarrier => {
                let p: BarrierCounts = read(payload);
                let fixed = std::mem::size_of::<BarrierCounts>();
                match opcode {
                    Opcode::Barrier => Command::Barrier {
                        barriers: slice(
                            tail(fixed),
                            within(p.barriers, fixed, std::mem::size_of::<BarrierRecord>()),
                        ),
                    },
                    _ => Command::ResourceBarrier {
                        barriers: slice(
                            tail(fixed),
                            within(
                                p.barriers,
                                fixed,
                                std::mem::size_of::<ResourceBarrierRecord>(),
                            ),
                        ),
                    },
                }
            }
        };
        let split = header.split.checked_sub(1).and_then(SplitCategory::from_u8);
        (
            Decoded {
                command,
                split,
                offset: offset as u32,
                site: None,
            },
            offset + size,
        )
    }
}
