//! The payload layouts of the command vocabulary (`mod.rs` has the opcodes, `bound.rs` the
//! descriptors they hold): what a context writes after a command's 8-byte `CommandHeader`, one
//! `repr(C)` struct per shape of command, and for the slot-array commands the count of the bound
//! descriptors that follow it (R-REC-3).
//!
//! **In:** a recording call's resolved arguments. **Out:** the payload `write_command`
//! (`encode.rs`) writes, and that `decode.rs` reads back into a [`Command`](super::Command).
//!
//! **Invariant.** Every payload is `repr(C)`, aligned to at most 8 and a multiple of 8 bytes
//! (`CommandBytes::fixed` asserts it at compile time for each one used), so every command and
//! every trailing array starts 8-aligned.

use crate::desc::{CopyBox, Stage};
use crate::device::handle::RawHandle;
use crate::limits::{
    CONSTANT_BUFFER_SLOTS, SAMPLER_SLOTS, SHADER_RESOURCE_SLOTS, VERTEX_BUFFER_SLOTS,
};

use super::{BoundBuffer, BoundResource, BoundView};

/// The payload of a compact [`Opcode::SetVertexBuffer`](super::Opcode::SetVertexBuffer): one
/// buffer at its creation instance.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct VertexBufferPayload {
    /// The buffer; null unbinds the slot.
    pub buffer: RawHandle,
    /// Byte offset of the first vertex.
    pub offset: u32,
    /// Vertex stride.
    pub stride: u32,
}

const _: () = assert!(std::mem::size_of::<VertexBufferPayload>() == 16);

/// A count or start slot meaning "leave what is bound" in [`RenderTargetsPayload`].
pub const KEEP: u32 = u32::MAX;

/// The payload of `SetInputLayout`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct InputLayoutPayload {
    /// The input layout; null unbinds it.
    pub layout: RawHandle,
    /// Bit `i`: the layout reads vertex-buffer slot `i`.
    pub vertex_buffers: u32,
    _reserved: u32,
}

/// The payload of the slot-array binds: a start slot, and the count of descriptors that follow.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct SlotsPayload {
    /// The first slot bound.
    pub start: u32,
    /// How many descriptors follow the payload.
    pub count: u32,
}

/// The payload of `SetRenderTargets`: the render-target views and then the UAVs follow it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct RenderTargetsPayload {
    /// The depth-stencil view; [`BoundView::NULL`] for none.
    pub depth_stencil: BoundView,
    /// Render-target views that follow; [`KEEP`] when the call keeps the bound targets.
    pub render_targets: u32,
    /// First OM UAV slot; [`KEEP`] when the call keeps the bound UAVs.
    pub uav_start: u32,
    /// OM UAVs that follow the render targets.
    pub uavs: u32,
    /// [`RenderTargetsPayload::PATCH`]: the UAVs re-bind their slots only (a split point cut
    /// out of a call); otherwise the other OM UAV slots are unbound, as the call does.
    pub flags: u32,
}

/// The payload of the blend and depth-stencil state commands.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct StatePayload {
    /// The state object; null for the default.
    pub state: RawHandle,
    /// The blend factor, RGBA (blend only).
    pub factor: [f32; 4],
    /// Sample mask (blend) or stencil reference (depth-stencil).
    pub reference: u32,
    _reserved: u32,
}

/// The payload of the clears.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct ClearPayload {
    /// The view cleared.
    pub view: BoundView,
    /// RGBA for a render target; depth in `[0]` for a depth stencil.
    pub values: [f32; 4],
    /// Stencil value (depth stencil).
    pub stencil: u32,
    /// [`ClearFlags`](crate::ClearFlags) bits (depth stencil).
    pub flags: u32,
}

/// The payload of the indirect draws and dispatches.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct IndirectPayload {
    /// The buffer, instance and byte offset the arguments are read from.
    pub args: BoundBuffer,
}

/// The payload of `CopyResource`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct CopyPayload {
    /// The resource written.
    pub destination: BoundResource,
    /// The resource read.
    pub source: BoundResource,
}

/// The payload of `CopyBufferRegion` (R-BAR-7).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BufferRegionPayload {
    /// The buffer written.
    pub destination: BoundResource,
    /// The buffer read (may be the destination).
    pub source: BoundResource,
    /// The first byte written.
    pub destination_offset: u64,
    /// The first byte read.
    pub source_offset: u64,
    /// How many bytes.
    pub bytes: u64,
}

/// The payload of `CopyTextureRegion` (R-BAR-7).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct TextureRegionPayload {
    /// The texture written.
    pub destination: BoundResource,
    /// The texture read (may be the destination).
    pub source: BoundResource,
    /// The subresource written (`mip + slice * mips`).
    pub destination_subresource: u32,
    /// The subresource read.
    pub source_subresource: u32,
    /// Where the box lands in the destination: its left texel.
    pub x: u32,
    /// Its top texel.
    pub y: u32,
    /// The texels read.
    pub source_box: CopyBox,
}

/// The payload of `CopyStructureCount`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct StructureCountPayload {
    /// The buffer and byte offset the counter is written to.
    pub destination: BoundBuffer,
    /// The UAV whose hidden counter is read.
    pub view: BoundView,
}

/// The payload of `DecompressResource` (R-ST-9): the texture, the second texture or null, the
/// kinds and the sub-region.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct DecompressPayload {
    /// The texture decompressed.
    pub resource: RawHandle,
    /// The texture written decompressed, or null (in place).
    pub into: RawHandle,
    /// The region's subresource; [`WHOLE_RESOURCE`] for no region.
    pub subresource: u32,
    /// [`DecompressKinds`](crate::DecompressKinds)' bits.
    pub kinds: u32,
    /// The region's texels (zero without a region).
    pub rect: CopyBox,
}

/// The subresource of a [`DecompressPayload`] without a region: the whole resource.
pub const WHOLE_RESOURCE: u32 = u32::MAX;

/// The payload of the commands that name one object and a value: predication, compression.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct ObjectPayload {
    /// The predicate, or the texture.
    pub object: RawHandle,
    /// The predicate value or the compression state.
    pub value: u64,
}

/// The payload of `WriteValueBottomOfPipe` and `InsertWaitOnMemory`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct MemoryPayload {
    /// The buffer.
    pub buffer: RawHandle,
    /// Byte offset in the buffer.
    pub offset: u64,
    /// The 64-bit value written or waited for.
    pub value: u64,
}

/// The payload of `SetGdsRange` (R-FX-4): the stage is the operand.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct GdsRangePayload {
    /// Byte offset of the range in GDS.
    pub offset: u32,
    /// Bytes of the range (0: none).
    pub size: u32,
}

/// The payload of `WriteGds` (R-FX-4), followed by `count` `u32` values (padded to 8 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct GdsWritePayload {
    /// Byte offset in GDS of the first value.
    pub offset: u32,
    /// Values that follow.
    pub count: u32,
}

/// The payload of `ReadGds` (R-FX-4).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct GdsReadPayload {
    /// The buffer written.
    pub destination: RawHandle,
    /// Byte offset in the buffer.
    pub destination_offset: u64,
    /// Byte offset in GDS of the first word read.
    pub offset: u32,
    /// Words read.
    pub count: u32,
}

/// The payload of `LoadConstantRam` and `StoreConstantRam` (R-FX-5).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct ConstantRamPayload {
    /// The buffer read (load) or written (store).
    pub buffer: RawHandle,
    /// Byte offset in the buffer.
    pub buffer_offset: u64,
    /// Byte offset in constant RAM.
    pub ram_offset: u32,
    /// Bytes moved.
    pub bytes: u32,
}

/// No payload.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Empty;

impl InputLayoutPayload {
    pub(crate) fn new(layout: RawHandle, vertex_buffers: u32) -> Self {
        Self {
            layout,
            vertex_buffers,
            _reserved: 0,
        }
    }
}
impl RenderTargetsPayload {
    /// See [`flags`](Self::flags).
    pub const PATCH: u32 = 1;

    pub(crate) fn new(
        depth_stencil: BoundView,
        render_targets: u32,
        uav_start: u32,
        uavs: u32,
    ) -> Self {
        Self {
            depth_stencil,
            render_targets,
            uav_start,
            uavs,
            flags: 0,
        }
    }
}

impl StatePayload {
    pub(crate) fn new(state: RawHandle, factor: [f32; 4], reference: u32) -> Self {
        Self {
            state,
            factor,
            reference,
            _reserved: 0,
        }
    }
}

/// Which slots a remap names (R-B-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum RemapKind {
    /// Constant-buffer slots.
    ConstantBuffer = 0,
    /// Shader-resource slots.
    ShaderResource,
    /// Sampler slots.
    Sampler,
    /// The input assembler's vertex-buffer slots (the stages are ignored).
    VertexBuffer,
}

impl RemapKind {
    /// Every kind, in operand order.
    pub const ALL: [RemapKind; 4] = [
        Self::ConstantBuffer,
        Self::ShaderResource,
        Self::Sampler,
        Self::VertexBuffer,
    ];

    /// The call that records it.
    pub const fn call(self) -> &'static str {
        match self {
            Self::ConstantBuffer => "remap_constant_buffer_inheritance",
            Self::ShaderResource => "remap_shader_resource_inheritance",
            Self::Sampler => "remap_sampler_inheritance",
            Self::VertexBuffer => "remap_vertex_buffer_inheritance",
        }
    }

    /// The slots of this kind per stage (R-OBJ-5).
    pub const fn slots(self) -> u32 {
        match self {
            Self::ConstantBuffer => CONSTANT_BUFFER_SLOTS,
            Self::ShaderResource => SHADER_RESOURCE_SLOTS,
            Self::Sampler => SAMPLER_SLOTS,
            Self::VertexBuffer => VERTEX_BUFFER_SLOTS,
        }
    }

    pub(crate) fn from_u8(value: u8) -> Self {
        Self::ALL
            .get(value as usize)
            .copied()
            .unwrap_or(Self::ConstantBuffer)
    }
}

/// A remap as encoded: (stage, slot) reads the executing context's (inherit_stage,
/// inherit_slot). For vertex buffers both stages are [`Stage::Vertex`] and mean the input
/// assembler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remap {
    /// Which slots.
    pub kind: RemapKind,
    /// The stage of the slot the bundle's draws read.
    pub stage: Stage,
    /// The slot the bundle's draws read.
    pub slot: u32,
    /// The stage of the executing context's slot that `slot` reads instead.
    pub inherit_stage: Stage,
    /// The executing context's slot that `slot` reads instead.
    pub inherit_slot: u32,
}

#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct RemapPayload {
    pub(crate) slot: u32,
    pub(crate) inherit_slot: u32,
    pub(crate) stage: u8,
    pub(crate) inherit_stage: u8,
    pub(crate) _reserved: [u8; 6],
}

/// A bundle call as encoded in a list: the bundle's handle only (a legacy list holds a
/// reference on it, a fast one none). Its commands, declaration and footprint are the device
/// entry's, read at execution: recording the call touches nothing of the bundle's.
pub(crate) type DrawBundlePayload = RawHandle;
