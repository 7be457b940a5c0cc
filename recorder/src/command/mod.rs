//! The command vocabulary (R-REC-3): every command a list, a batch or a bundle can hold, in the
//! one place that knows its opcode, its payload, how it is encoded and decoded, and which objects
//! it names. Everything else that reads commands goes through this module.
//!
//! **In:** a recording call's resolved arguments (descriptors, payloads) from the contexts, which
//! write them with `write_command` into a reserved `CommandBytes`. **Out:** the typed
//! [`Command`] a chunk's bytes decode to ([`Decoded`], one decode per command at execution), the
//! objects a command names ([`Command::for_each_object`]: legacy references, release on drop,
//! validation), and a split point's binding patched at execution ([`SplitPoint`], R-SP-4).
//!
//! **The files.**
//! - this file: the [`Opcode`]s and the 8-byte [`CommandHeader`] in front of every command;
//! - `bound.rs`: the bound descriptors, what a command carries of each object it names
//!   ([`BoundBuffer`], [`BoundView`], [`BoundShader`], [`BoundResource`]) and the dynamic
//!   instance they read ([`InstanceId`]);
//! - `payload.rs`: the payload layouts (`repr(C)`, multiples of 8), one per shape of command,
//!   and the remaps of a bundle's inherited slots ([`Remap`]);
//! - `draw_args.rs`: the draw arguments ([`DirectArgs`], [`DrawArgs`]), one type from the call
//!   to the record;
//! - `encode.rs`: the sizes (`CommandBytes`, R-REC-12) and `write_command`, the one writer of a
//!   command;
//! - `decoded.rs`: [`Command<'a>`], the typed form, borrowing its payload from the chunk, with
//!   [`Decoded`] (its split category and offset) and [`NestedList`];
//! - `decode.rs`: `decode`, one arm per opcode (kept whole on purpose), and the walks' step
//!   over what is not a command (`next_offset`);
//! - `objects.rs`: the walk of the objects a command names, the one list of which argument is
//!   which kind of object;
//! - `patch.rs`: [`SplitPoint`], the one place that knows which binding of a split point reads
//!   the executing context's current instance, and patches it.
//!
//! **Adding a command** is one entry in each of the exhaustive matches here (an [`Opcode`], its
//! payload in `payload.rs` if it needs a new one, its [`Command`] variant and decode arm, its
//! arm in `objects.rs`); the compiler lists every one that is missing. Its meaning lives
//! outside: the recording call that encodes it, and the GPU model's `apply` (and the legacy
//! shadow, for a bind). The vocabulary is written out as plain enums and matches rather than
//! generated from a `macro_rules!` table: each arm is code of its own (a trailing array, an
//! operand, a kind per argument), so a table would move that code into a macro's DSL, out of
//! reach of rustfmt and of the reader's tools, without making it shorter.
//!
//! **Invariant.** A command's size is checked where it is made (`CommandBytes`) and trusted where
//! it is read: a count stored in a payload never reaches past its command.

mod bound;
mod decode;
mod decoded;
mod draw_args;
mod encode;
mod objects;
mod patch;
mod payload;

pub use bound::*;
#[cfg(debug_assertions)]
pub use decode::decodes_on_this_thread;
pub(crate) use decode::*;
pub use decoded::*;
pub use draw_args::*;
pub(crate) use encode::*;
pub use patch::*;
pub use payload::*;

/// Which command an encoded header starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Opcode {
    /// The list's own header, first in its first chunk; not a command.
    ListStart = 0,
    /// `set_input_layout`: the input layout and the vertex-buffer slots it reads.
    SetInputLayout,
    /// `set_primitive_topology`: the topology, in the operand.
    SetPrimitiveTopology,
    /// `set_vertex_buffers`: a start slot and the buffers bound from it.
    SetVertexBuffers,
    /// `set_index_buffer`: the index buffer, its offset and format.
    SetIndexBuffer,
    /// `set_primitive_reset_index`: the cut index (R-ST-5).
    SetPrimitiveResetIndex,
    /// `set_shader`: a shader bound to the stage in the operand, with the slots it reads.
    SetShader,
    /// `set_constant_buffers` on the stage in the operand.
    SetConstantBuffers,
    /// `set_shader_resources` on the stage in the operand.
    SetShaderResources,
    /// `set_samplers` on the stage in the operand.
    SetSamplers,
    /// `set_compute_unordered_access_views`: the compute stage's UAVs.
    SetComputeUnorderedAccessViews,
    /// `set_render_targets` and `set_render_targets_and_unordered_access_views`: the output
    /// merger's render targets, depth stencil and UAVs.
    SetRenderTargets,
    /// `set_blend_state`: the state object, blend factor and sample mask.
    SetBlendState,
    /// `set_depth_stencil_state`: the state object and stencil reference.
    SetDepthStencilState,
    /// `set_rasterizer_state`: the rasterizer state object.
    SetRasterizerState,
    /// `set_viewports`.
    SetViewports,
    /// `set_scissor_rects`.
    SetScissorRects,
    /// `draw`.
    Draw,
    /// `draw_indexed`.
    DrawIndexed,
    /// `draw_instanced`.
    DrawInstanced,
    /// `draw_indexed_instanced`.
    DrawIndexedInstanced,
    /// `draw_auto`: a draw whose vertex count the stream output wrote.
    DrawAuto,
    /// `draw_instanced_indirect`: the arguments are read from a buffer.
    DrawInstancedIndirect,
    /// `draw_indexed_instanced_indirect`: the arguments are read from a buffer.
    DrawIndexedInstancedIndirect,
    /// `dispatch`.
    Dispatch,
    /// `dispatch_indirect`: the group counts are read from a buffer.
    DispatchIndirect,
    /// `clear_render_target_view`.
    ClearRenderTargetView,
    /// `clear_depth_stencil_view`.
    ClearDepthStencilView,
    /// `copy_resource`.
    CopyResource,
    /// `update_subresource`: the data travels with the command.
    UpdateSubresource,
    /// `copy_structure_count`: a UAV's hidden counter written into a buffer.
    CopyStructureCount,
    /// A write_discard map recorded in a list: a new instance of a dynamic resource, its data
    /// carried with the command (R-REC-10, R-ST-8).
    MapWriteDiscard,
    /// A write_no_overwrite map of a default-usage resource: data written in place (R-REC-11).
    MapWriteNoOverwrite,
    /// `set_predication`: the predicate and the value that skips work.
    SetPredication,
    /// `begin_query`.
    BeginQuery,
    /// `end_query`.
    EndQuery,
    /// `write_query`: the query's result written at this point of the stream (R-FX-3).
    WriteQuery,
    /// `reset_query`: the query's result and counts cleared (R-FX-3).
    ResetQuery,
    /// `configure_query`: the operand is the [`QueryMode`](crate::QueryMode) (R-FX-3).
    ConfigureQuery,
    /// `set_predication_from_query`: predication on any query's answer, no reference taken
    /// (R-FX-3).
    SetPredicationFromQuery,
    /// `clear_state`: every binding back to its default.
    ClearState,
    /// `decompress_resource`: a compressible target decompressed in place or into a second texture
    /// (R-ST-9).
    DecompressResource,
    /// `set_resource_compression`: a target's compression state overridden (R-ST-9).
    SetResourceCompression,
    /// `insert_wait_on_present`: wait for a swap chain's present (R-EX-7).
    InsertWaitOnPresent,
    /// `insert_fence`: a fence on the engine in the operand (R-EX-5), with
    /// [`KICK_OFF_BIT`] set when it kicks off its segment (R-FX-6).
    InsertFence,
    /// `insert_wait_on_fence`: the engine in the operand waits for a fence value (R-EX-5).
    InsertWaitOnFence,
    /// `write_value_bottom_of_pipe`: a 64-bit value written to a buffer when the pipeline drains.
    WriteValueBottomOfPipe,
    /// `insert_wait_on_memory`: wait until a buffer holds a 64-bit value.
    InsertWaitOnMemory,
    /// `set_gds_range`: the GDS range of the stage in the operand (R-FX-4), a
    /// [`GdsRangePayload`].
    SetGdsRange,
    /// `write_gds`: words written into GDS, carried by the command (R-FX-4).
    WriteGds,
    /// `read_gds`: GDS words copied into a buffer (R-FX-4).
    ReadGds,
    /// `load_constant_ram`: buffer bytes into constant RAM (R-FX-5).
    LoadConstantRam,
    /// `store_constant_ram`: constant-RAM bytes into a buffer (R-FX-5).
    StoreConstantRam,
    /// `execute_command_list`: a nested list by reference (R-REC-9); the operand is the restore
    /// flag.
    ExecuteCommandList,
    /// A remap of a bundle's inherited slot (R-B-9); the operand is the `RemapKind`.
    RemapInheritance,
    /// A call of a draw bundle, recorded in a list (R-B-10).
    DrawBundle,
    /// `barrier`: enhanced barriers in groups (R-BAR-1), as `BarrierRecord`s.
    Barrier,
    /// `resource_barrier`: legacy resource barriers (R-BAR-6), as `ResourceBarrierRecord`s.
    ResourceBarrier,
    /// `copy_buffer_region`: bytes of one buffer into another or itself (R-BAR-7).
    CopyBufferRegion,
    /// `copy_texture_region`: texels of one texture subresource into another or itself
    /// (R-BAR-7).
    CopyTextureRegion,
    /// `set_constant_buffers` of one buffer read at its creation instance, compact (16 bytes):
    /// the stage in the operand's low 3 bits and the slot above them, the buffer as the payload.
    /// Decoded as a one-slot [`Command::SetConstantBuffers`].
    SetConstantBuffer,
    /// `set_vertex_buffers` of one buffer read at its creation instance, compact (24 bytes): the
    /// slot in the operand, a [`VertexBufferPayload`]. Decoded as a one-slot
    /// [`Command::SetVertexBuffers`].
    SetVertexBuffer,
    /// The list's index of split points and nested lists, last in its last chunk; not a command.
    ListIndex,
}

impl Opcode {
    const LAST: u8 = Opcode::ListIndex as u8;

    #[inline]
    pub(crate) fn from_u8(value: u8) -> Option<Self> {
        // SAFETY: `Opcode` is `repr(u8)` with dense discriminants 0..=LAST.
        (value <= Self::LAST).then(|| unsafe { std::mem::transmute::<u8, Opcode>(value) })
    }
}

/// The 8 bytes in front of every command.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(8))]
pub struct CommandHeader {
    /// Which command follows.
    pub opcode: Opcode,
    /// A small operand: the stage, the topology, the engine, the restore flag.
    pub operand: u8,
    /// 0, or 1 + the [`SplitCategory`](crate::SplitCategory) when the command is a split point.
    pub split: u8,
    _reserved: u8,
    /// Bytes of the whole command, header included.
    pub size: u32,
}

pub(crate) const HEADER: usize = std::mem::size_of::<CommandHeader>();

/// The operand bit of [`Opcode::InsertFence`] that marks a kick-off (R-FX-6, `fences.rs`); the
/// engine is in the bits below it.
pub const KICK_OFF_BIT: u8 = 0x80;

/// The operand of a compact [`Opcode::SetConstantBuffer`]: the stage in the low 3 bits, the slot
/// (below 16, R-OBJ-5) above them.
#[inline(always)]
pub(crate) const fn compact_slot(stage: crate::desc::Stage, slot: u32) -> u8 {
    stage as u8 | (slot as u8) << 3
}
const _: () = assert!(HEADER == 8);
