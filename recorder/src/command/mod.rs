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
//! - `encode.rs`: the descriptors and payload layouts (`repr(C)`, multiples of 8), the sizes
//!   (`CommandBytes`, R-REC-12), the draw arguments ([`DrawArgs`], from the call to the record)
//!   and `write_command`;
//! - `decode.rs`: [`Command<'a>`], borrowing its payload from the chunk, and `decode`;
//! - `objects.rs`: the walk of the objects a command names, the one list of which argument is
//!   which kind of object;
//! - `patch.rs`: [`SplitPoint`], the one place that knows which binding of a split point reads
//!   the executing context's current instance, and patches it.
//!
//! **Adding a command** is one entry in each of the exhaustive matches here (an [`Opcode`], its
//! payload in `encode.rs` if it needs a new one, its [`Command`] variant and decode arm, its
//! arm in `objects.rs`); the compiler lists every one that is missing. Its meaning lives
//! outside: the recording call that encodes it, and the GPU model's `apply` (and the legacy
//! shadow, for a bind). The vocabulary is written out as plain enums and matches rather than
//! generated from a `macro_rules!` table: each arm is code of its own (a trailing array, an
//! operand, a kind per argument), so a table would move that code into a macro's DSL, out of
//! reach of rustfmt and of the reader's tools, without making it shorter.
//!
//! **Invariant.** A command's size is checked where it is made (`CommandBytes`) and trusted where
//! it is read: a count stored in a payload never reaches past its command.

mod decode;
mod encode;
mod objects;
mod patch;

pub use decode::*;
pub use encode::*;
pub use patch::*;

/// Which command an encoded header starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Opcode {
    /// The list's own header, first in its first chunk; not a command.
    ListStart = 0,
    SetInputLayout,
    SetPrimitiveTopology,
    SetVertexBuffers,
    SetIndexBuffer,
    SetPrimitiveResetIndex,
    SetShader,
    SetConstantBuffers,
    SetShaderResources,
    SetSamplers,
    SetComputeUnorderedAccessViews,
    SetRenderTargets,
    SetBlendState,
    SetDepthStencilState,
    SetRasterizerState,
    SetViewports,
    SetScissorRects,
    Draw,
    DrawIndexed,
    DrawInstanced,
    DrawIndexedInstanced,
    DrawAuto,
    DrawInstancedIndirect,
    DrawIndexedInstancedIndirect,
    Dispatch,
    DispatchIndirect,
    ClearRenderTargetView,
    ClearDepthStencilView,
    CopyResource,
    UpdateSubresource,
    CopyStructureCount,
    MapWriteDiscard,
    MapWriteNoOverwrite,
    SetPredication,
    BeginQuery,
    EndQuery,
    ClearState,
    DecompressResource,
    SetResourceCompression,
    InsertWaitOnPresent,
    InsertFence,
    InsertWaitOnFence,
    WriteValueBottomOfPipe,
    InsertWaitOnMemory,
    ExecuteCommandList,
    /// A remap of a bundle's inherited slot (R-B-9); the operand is the `RemapKind`.
    RemapInheritance,
    /// A call of a draw bundle, recorded in a list (R-B-10).
    DrawBundle,
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
const _: () = assert!(HEADER == 8);
