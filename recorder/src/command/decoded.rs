//! The typed form of a command: the [`Command`] a chunk's bytes decode to (`decode.rs` reads
//! them), one variant per command, borrowing its trailing arrays from the chunk, and what comes
//! with it ([`Decoded`]: its split category and offset; [`NestedList`]: a nested list as the
//! command names it).
//!
//! **In:** nothing at run time: `decode` makes these from the encoded bytes. **Out:** the form
//! execution, nesting, validation, the object walk (`objects.rs`), the split point's patch
//! (`patch.rs`) and a legacy list's drop walk see; a test or a trace compares them by value.
//!
//! **Invariant.** A `Command<'a>` borrows from a sealed chunk that stays alive and unchanged for
//! `'a`: the slices it holds are never written again, and a nested list it names is kept alive by
//! the outer list's reference.

use std::marker::PhantomData;
use std::ptr::NonNull;

use crate::barriers::{BarrierRecord, ResourceBarrierRecord};
use crate::context::split::SplitCategory;
use crate::desc::{ClearFlags, CopyBox, Engine, PrimitiveTopology, Rect, Stage, Viewport};
use crate::device::handle::RawHandle;

use super::{BoundBuffer, BoundResource, BoundShader, BoundView, DirectArgs, Remap};

/// The buffers of a slot-array buffer bind, one per slot: the command's own array in the chunk,
/// or the one buffer of a compact command
/// ([`Opcode::SetConstantBuffer`](super::Opcode::SetConstantBuffer),
/// [`Opcode::SetVertexBuffer`](super::Opcode::SetVertexBuffer)), decoded by value. Either way it
/// reads as a slice (`Deref`), and two are equal when their slices are.
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
    pub(super) unsafe fn from_address(header: usize) -> Self {
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
