//! The payload layouts of the command vocabulary (`mod.rs` has the opcodes): what a deferred
//! context writes at record time and execution consumes (R-REC-3). Every command is an 8-byte
//! `CommandHeader` followed by a `repr(C)` payload and, for slot-array commands, an array of
//! bound descriptors; sizes are multiples of 8.
//!
//! **In:** the resolved arguments of a recording call. **Out:** the bytes of one command in a
//! reservation of exactly its [`CommandBytes`].
//!
//! **Sizes (R-REC-12).** A header's size is a `u32`; the decoder trusts it to find the next
//! command. Every size is therefore made as a `CommandBytes`, in one place: fixed payloads are
//! checked at compile time, trailing arrays and data at run time, before anything is reserved,
//! against [`MAX_COMMAND_BYTES`] (and data against [`MAX_MAP_BYTES`]). A refusal leaves no
//! half-written command; the chunk sizes and offsets that follow from a checked size fit the
//! chunk header's `u32`s (`chunk::LARGEST_CHUNK`).
//!
//! Descriptors are copied in at record time: a bound view carries its resource, the dynamic
//! instance it reads, its format and its minimum LOD, so execution chases no object tables except
//! to resolve split points. A command whose header has a split category is a split point (R-SP-1):
//! its descriptor holds what is unknown until execution, and a side record in the chunk points at
//! it so execution can find it without walking the commands around it.

use crate::context::split::SplitCategory;
use crate::desc::{CopyBox, Format, Stage};
use crate::device::handle::RawHandle;
use crate::limits::{
    CONSTANT_BUFFER_SLOTS, MAX_COMMAND_BYTES, MAX_MAP_BYTES, SAMPLER_SLOTS, SHADER_RESOURCE_SLOTS,
    VERTEX_BUFFER_SLOTS,
};

use super::{CommandHeader, Opcode, HEADER};

/// Which write of a dynamic resource a binding reads (R-ST-8, R-REC-10).
///
/// `INITIAL` is the contents at creation (and the only instance of a non-dynamic resource);
/// `RESOLVE_AT_EXECUTION` marks a dynamic binding of a split point, patched at execution with the
/// immediate context's current instance (R-SP-4). Any other value names the `serial`-th
/// write_discard map recorded by the context with serial `recorder`; its data travels with the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct InstanceId(pub u64);

impl InstanceId {
    /// The contents at creation; the only instance of a non-dynamic resource.
    pub const INITIAL: Self = Self(0);
    /// A dynamic binding of a split point, patched at execution with the executing context's
    /// current
    /// instance (R-SP-4).
    pub const RESOLVE_AT_EXECUTION: Self = Self(u64::MAX);

    /// The `serial`-th write_discard map recorded by the context with serial `recorder`.
    pub const fn new(recorder: u32, serial: u32) -> Self {
        Self((recorder as u64) << 32 | serial as u64)
    }
    /// The serial of the context that recorded the map.
    pub const fn recorder(self) -> u32 {
        (self.0 >> 32) as u32
    }
    /// Which of that context's maps, counted from 1.
    pub const fn serial(self) -> u32 {
        self.0 as u32
    }

    /// The largest address a placement may give (R-FX-2): the two top bits of an instance tell
    /// a placed instance from a map's and from [`RESOLVE_AT_EXECUTION`](Self::RESOLVE_AT_EXECUTION).
    pub const MAX_PLACEMENT_ADDRESS: u64 = (1 << 62) - 1;
    /// The tag bits of a placed instance.
    const PLACED: u64 = 1 << 63;

    /// The instance a placement call gives a default resource: its bytes at `address`, which
    /// the application manages (R-FX-2). `address` is at most
    /// [`MAX_PLACEMENT_ADDRESS`](Self::MAX_PLACEMENT_ADDRESS) (the placement calls refuse more).
    pub const fn placed(address: u64) -> Self {
        Self(Self::PLACED | (address & Self::MAX_PLACEMENT_ADDRESS))
    }

    /// The address of a placed instance (R-FX-2), or `None` for any other.
    pub const fn placement(self) -> Option<u64> {
        if self.0 >> 62 == 0b10 {
            Some(self.0 & Self::MAX_PLACEMENT_ADDRESS)
        } else {
            None
        }
    }
}

/// A buffer bound as vertex, index or constant buffer, or read by an indirect draw or a copy.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BoundBuffer {
    /// The buffer; null for an empty slot.
    pub buffer: RawHandle,
    /// The instance of it that is read (R-ST-8).
    pub instance: InstanceId,
    /// Byte offset of the first element read.
    pub offset: u32,
    /// Vertex stride, or the index format (as `Format as u32`).
    pub stride_or_format: u32,
}

impl BoundBuffer {
    /// An empty slot: what binding `None` writes.
    pub const NULL: Self = Self {
        buffer: RawHandle::NULL,
        instance: InstanceId::INITIAL,
        offset: 0,
        stride_or_format: 0,
    };
    /// The index format of an index buffer (from `stride_or_format`).
    pub fn index_format(&self) -> Format {
        Format::from_u16(self.stride_or_format as u16)
    }
}

/// Properties of a bound view, copied from the view and its resource at bind time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(transparent)]
pub struct ViewFlags(pub u8);

impl ViewFlags {
    /// The view's resource is a buffer (else a texture).
    pub const BUFFER: u8 = 1 << 0;
    /// The resource has dynamic usage.
    pub const DYNAMIC: u8 = 1 << 1;
    /// The resource is a compressible render target or depth stencil, and this view's access
    /// needs it decompressed (R-SP-2): every view but an SRV of a texture-compatible target,
    /// which shaders read compressed (R-ST-9).
    pub const COMPRESSIBLE_TARGET: u8 = 1 << 2;
    /// The resource is texture compatible (TC).
    pub const TEXTURE_COMPATIBLE: u8 = 1 << 3;
    /// The resource is a back buffer of a swap chain (R-EX-7).
    pub const BACK_BUFFER: u8 = 1 << 4;
    /// A buffer UAV with an append or counter flag (R-ST-7).
    pub const HIDDEN_COUNTER: u8 = 1 << 5;

    /// Whether `flag` (one of the constants above) is set.
    #[inline]
    pub const fn has(self, flag: u8) -> bool {
        self.0 & flag != 0
    }
}

/// A view bound to a slot (SRV, UAV, RTV or DSV), or cleared.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BoundView {
    /// The view; null for an empty slot.
    pub view: RawHandle,
    /// The view's resource.
    pub resource: RawHandle,
    /// The instance of the resource that is read (R-ST-8).
    pub instance: InstanceId,
    /// Minimum LOD in force at bind time: the resource's under legacy, the view's under fast (R-ST-6).
    pub min_lod: f32,
    /// The view's format.
    pub format: Format,
    /// Properties of the view and its resource.
    pub flags: ViewFlags,
    /// The view's first (most detailed) mip level, clamped to 255.
    pub first_mip: u8,
}

impl BoundView {
    /// An empty slot: what binding `None` writes.
    pub const NULL: Self = Self {
        view: RawHandle::NULL,
        resource: RawHandle::NULL,
        instance: InstanceId::INITIAL,
        min_lod: 0.0,
        format: Format::Unknown,
        flags: ViewFlags(0),
        first_mip: 0,
    };
}

const _: () = assert!(std::mem::size_of::<BoundBuffer>() == 24);
const _: () = assert!(std::mem::size_of::<BoundView>() == 32);

/// A shader bound to a stage, with the slots it reads copied in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct BoundShader {
    /// The shader; null for an unbound stage.
    pub shader: RawHandle,
    /// Shader-resource slots read, as two words (a `u128` would need 16-byte alignment).
    pub shader_resource_words: [u64; 2],
    /// Bit `i`: the shader accesses UAV slot `i`.
    pub unordered_access_views: u64,
    /// Bit `i`: the shader reads constant-buffer slot `i`.
    pub constant_buffers: u16,
    /// Bit `i`: the shader reads sampler slot `i`.
    pub samplers: u16,
    /// The shader writes stream output.
    pub stream_output: bool,
    _reserved: [u8; 3],
}

impl BoundShader {
    /// Bit `i`: the shader reads shader-resource slot `i`.
    pub fn shader_resources(&self) -> u128 {
        self.shader_resource_words[0] as u128 | (self.shader_resource_words[1] as u128) << 64
    }

    /// An unbound stage: what binding `None` writes.
    pub const NULL: Self = Self {
        shader: RawHandle::NULL,
        shader_resource_words: [0; 2],
        unordered_access_views: 0,
        constant_buffers: 0,
        samplers: 0,
        stream_output: false,
        _reserved: [0; 3],
    };

    pub(crate) fn new(
        shader: RawHandle,
        constant_buffers: u16,
        shader_resources: u128,
        samplers: u16,
        unordered_access_views: u64,
        stream_output: bool,
    ) -> Self {
        Self {
            shader,
            shader_resource_words: [shader_resources as u64, (shader_resources >> 64) as u64],
            unordered_access_views,
            constant_buffers,
            samplers,
            stream_output,
            _reserved: [0; 3],
        }
    }
}

/// A resource named by a copy, a map or a compression call.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BoundResource {
    /// The resource.
    pub resource: RawHandle,
    /// The instance read (a copy's source), or the one a write_discard map makes.
    pub instance: InstanceId,
    /// 0 for a buffer, 1 for a texture.
    pub is_texture: u32,
    /// Payload bytes that follow (maps and updates), else 0.
    pub data_len: u32,
}

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

/// The payload of the commands that name one object and a value: predication, compression.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct ObjectPayload {
    /// The predicate, or the texture.
    pub object: RawHandle,
    /// The predicate value, the compression state, or the second resource of a decompression.
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

/// A direct draw's or dispatch's numbers, in the call's argument order: the payload the direct
/// draws and dispatches encode, what their decoded [`Command`](super::Command)s carry, and what
/// a draw record holds ([`DrawArgs::Direct`]). One type from the call to the record (R-EX-3).
///
/// A base vertex is an `i32`, kept as its bits and marked signed, so that
/// [`values`](Self::values) gives it back. The marks are constants of each call (recording
/// computes nothing for them); two `DirectArgs` are equal when their values are.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct DirectArgs {
    numbers: [u32; 5],
    /// How many of `numbers` the call has.
    count: u8,
    /// Bit `i`: number `i` is an `i32` (a base vertex).
    signed: u8,
    _reserved: [u8; 2],
}

impl PartialEq for DirectArgs {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

impl Eq for DirectArgs {}

// The size the draws' payload always had: a list's bytes do not change.
const _: () = assert!(std::mem::size_of::<DirectArgs>() == 24);

impl DirectArgs {
    /// No numbers (`draw_auto`, and an indirect draw's direct part).
    pub const NONE: Self = Self::of([0; 5], 0, 0);

    #[inline(always)]
    const fn of(numbers: [u32; 5], count: u8, signed: u8) -> Self {
        Self {
            numbers,
            count,
            signed,
            _reserved: [0; 2],
        }
    }

    /// `draw(vertex_count, start_vertex)`.
    #[inline(always)]
    pub const fn draw(vertex_count: u32, start_vertex: u32) -> Self {
        Self::of([vertex_count, start_vertex, 0, 0, 0], 2, 0)
    }

    /// `draw_indexed(index_count, start_index, base_vertex)`.
    #[inline(always)]
    pub const fn draw_indexed(index_count: u32, start_index: u32, base_vertex: i32) -> Self {
        Self::of(
            [index_count, start_index, base_vertex as u32, 0, 0],
            3,
            1 << 2,
        )
    }

    /// `draw_instanced(vertex_count, instance_count, start_vertex, start_instance)`.
    #[inline(always)]
    pub const fn draw_instanced(
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    ) -> Self {
        Self::of(
            [
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
                0,
            ],
            4,
            0,
        )
    }

    /// `draw_indexed_instanced(index_count, instance_count, start_index, base_vertex,
    /// start_instance)`.
    #[inline(always)]
    pub const fn draw_indexed_instanced(
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    ) -> Self {
        Self::of(
            [
                index_count,
                instance_count,
                start_index,
                base_vertex as u32,
                start_instance,
            ],
            5,
            1 << 3,
        )
    }

    /// `dispatch(x, y, z)`.
    #[inline(always)]
    pub const fn dispatch(x: u32, y: u32, z: u32) -> Self {
        Self::of([x, y, z, 0, 0], 3, 0)
    }

    /// Numbers given as they are written (a trace, a test): more than five are cut to five (no
    /// call has more); each is taken as a `u32`, or as an `i32` if negative.
    pub fn from_values(values: &[i64]) -> Self {
        let mut args = Self::NONE;
        for (i, value) in values.iter().take(5).enumerate() {
            args.numbers[i] = *value as u32;
            args.signed |= ((*value < 0) as u8) << i;
            args.count += 1;
        }
        args
    }

    /// How many numbers the call has.
    pub const fn len(self) -> usize {
        let count = self.count as usize;
        if count < 5 {
            count
        } else {
            5
        }
    }

    /// Whether the call has no numbers (`draw_auto`).
    pub const fn is_empty(self) -> bool {
        self.count == 0
    }

    /// Number `i` as the call had it (a base vertex may be negative); 0 past the last.
    pub const fn get(self, i: usize) -> i64 {
        if i >= self.len() {
            return 0;
        }
        match self.signed >> i & 1 {
            1 => self.numbers[i] as i32 as i64,
            _ => self.numbers[i] as i64,
        }
    }

    /// The numbers in argument order.
    pub fn values(self) -> impl ExactSizeIterator<Item = i64> {
        (0..self.len()).map(move |i| self.get(i))
    }
}

/// A draw's or dispatch's arguments as the GPU reads them: the numbers of a direct call, or the
/// buffer (and its instance and offset) an indirect one reads them from. Direct draws encode the
/// [`DirectArgs`], indirect ones the [`BoundBuffer`]; their commands carry them, and a draw
/// record holds this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DrawArgs {
    /// The call's numbers in argument order.
    Direct(DirectArgs),
    /// An indirect draw or dispatch: the buffer, instance and offset its arguments are read from.
    Indirect(BoundBuffer),
}

impl DrawArgs {
    /// Direct arguments written as numbers (see [`DirectArgs::from_values`]).
    pub fn direct(values: &[i64]) -> Self {
        Self::Direct(DirectArgs::from_values(values))
    }

    /// The numbers of a direct call; none for an indirect one.
    pub fn values(&self) -> impl ExactSizeIterator<Item = i64> {
        match self {
            Self::Direct(args) => *args,
            Self::Indirect(_) => DirectArgs::NONE,
        }
        .values()
    }
}

/// The bytes of one encoded command, header included: a multiple of 8 no larger than
/// [`MAX_COMMAND_BYTES`], so it fits the header's `u32` and the chunk it is reserved in.
///
/// This is the one place a size of the encoding is converted (R-REC-12): a `CommandBytes` is made
/// only by the constructors below, fixed sizes checked at compile time, variable ones at run time
/// before anything is reserved, and [`ChunkWriter::reserve`](crate::chunk::ChunkWriter::reserve)
/// and [`write_command`] take nothing else. A size that does not fit is refused with
/// [`TooLarge`]: no later missing check (a new map path, a new payload) can hand the decoder a
/// wrapped size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CommandBytes(u32);

/// A command would not fit the encoding: `bytes` (header, payload and data) against the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooLarge {
    pub(crate) bytes: usize,
}

const _: () =
    assert!(MAX_COMMAND_BYTES <= u32::MAX as usize && MAX_COMMAND_BYTES.is_multiple_of(8));
const _: () = assert!(MAX_MAP_BYTES + 256 <= MAX_COMMAND_BYTES);

impl CommandBytes {
    /// A command with a fixed payload `P` and nothing after it.
    #[inline(always)]
    pub(crate) const fn fixed<P>() -> Self {
        let size = HEADER + std::mem::size_of::<P>();
        const { assert!((HEADER + std::mem::size_of::<P>()).is_multiple_of(8)) };
        const { assert!(HEADER + std::mem::size_of::<P>() <= 256) };
        Self(size as u32)
    }

    /// A command with a fixed payload `P` and `count` trailing `T`s.
    #[inline(always)]
    pub(crate) fn with_items<P, T>(count: usize) -> Result<Self, TooLarge> {
        const { assert!(std::mem::size_of::<T>().is_multiple_of(8)) };
        let fixed = const { Self::fixed::<P>().get() };
        // One comparison with a constant: at most this many items fit, and below it the
        // product cannot overflow.
        let most =
            const { (MAX_COMMAND_BYTES - Self::fixed::<P>().get()) / std::mem::size_of::<T>() };
        match count <= most {
            // `fixed + count * size_of::<T>() <= MAX_COMMAND_BYTES <= u32::MAX`.
            true => Ok(Self((fixed + count * std::mem::size_of::<T>()) as u32)),
            false => Err(TooLarge {
                bytes: fixed.saturating_add(count.saturating_mul(std::mem::size_of::<T>())),
            }),
        }
    }

    /// A command with a fixed payload `P` and `len` bytes of data, padded to 8.
    #[inline(always)]
    pub(crate) fn with_data<P>(len: usize) -> Result<Self, TooLarge> {
        let fixed = const { Self::fixed::<P>().get() };
        // A multiple of 8 (both terms are): a `len` up to it stays within it once padded.
        let most = const { MAX_COMMAND_BYTES - Self::fixed::<P>().get() };
        match len <= most {
            // `fixed + padded len <= MAX_COMMAND_BYTES <= u32::MAX`.
            true => Ok(Self((fixed + len.next_multiple_of(8)) as u32)),
            false => Err(TooLarge {
                bytes: fixed.saturating_add(len),
            }),
        }
    }

    /// The size in bytes.
    #[inline(always)]
    pub(crate) const fn get(self) -> usize {
        self.0 as usize
    }
}

impl TooLarge {
    /// The refusal of `call`, whose `what` did not fit.
    #[cold]
    #[inline(never)]
    pub(crate) fn error(self, call: &'static str, what: impl std::fmt::Display) -> crate::Error {
        crate::Error::TooLarge {
            call,
            what: what.to_string(),
            bytes: match self.bytes {
                usize::MAX => u64::MAX,
                bytes => bytes as u64,
            },
            holder: "a command of the encoding",
            limit: MAX_COMMAND_BYTES as u64,
        }
    }
}

/// The refusal of a map or an update whose data is larger than a list carries
/// ([`MAX_MAP_BYTES`], R-REC-12).
#[cold]
#[inline(never)]
pub(crate) fn data_too_large(
    call: &'static str,
    what: impl std::fmt::Display,
    len: u64,
) -> crate::Error {
    crate::Error::TooLarge {
        call,
        what: what.to_string(),
        bytes: len,
        holder: "a map or update",
        limit: MAX_MAP_BYTES as u64,
    }
}

/// Writes a header and a payload at `at`, returns where the trailing array goes.
///
/// # Safety
/// `at` must be 8-aligned with `size` writable bytes, `size >= 8 + size_of::<P>()`, and `P` must be
/// a `repr(C)` type of alignment at most 8.
#[inline(always)]
pub(crate) unsafe fn write_command<P: Copy>(
    at: *mut u8,
    opcode: Opcode,
    operand: u8,
    split: Option<SplitCategory>,
    size: CommandBytes,
    payload: P,
) -> *mut u8 {
    const { assert!(std::mem::align_of::<P>() <= 8) };
    let header = CommandHeader {
        opcode,
        operand,
        split: split.map_or(0, |c| c as u8 + 1),
        _reserved: 0,
        size: size.0,
    };
    // SAFETY: the caller promises (1) `at` is 8-aligned and has `size` writable bytes and (2)
    // `size >= HEADER + size_of::<P>()`, so the header's 8 bytes and `P` (alignment at most 8,
    // asserted above; `HEADER` is a multiple of 8) are in bounds and aligned, and the returned
    // pointer is at most one past the end of the reservation.
    unsafe {
        (at as *mut CommandHeader).write(header);
        let payload_at = at.add(HEADER);
        (payload_at as *mut P).write(payload);
        payload_at.add(std::mem::size_of::<P>())
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Opcode;

    /// A 16-byte trailing item, as the list's index entries are.
    #[allow(dead_code)]
    struct IndexEntry([u64; 2]);
    use crate::{Device, DeviceDesc, ErrorKind};

    /// R-REC-12: a size past the header's `u32` is refused where it is converted, never wrapped.
    #[test]
    fn r_rec_12_command_bytes_refuse_rather_than_wrap() {
        for len in [
            MAX_MAP_BYTES * 2 + 1,
            u32::MAX as usize,
            u32::MAX as usize + 1,
            usize::MAX,
        ] {
            assert!(
                CommandBytes::with_data::<BoundResource>(len).is_err(),
                "{len}"
            );
        }
        for count in [u32::MAX as usize / 16, usize::MAX / 16, usize::MAX] {
            assert!(
                CommandBytes::with_items::<Empty, IndexEntry>(count).is_err(),
                "{count}"
            );
        }
        let at_limit = MAX_COMMAND_BYTES - HEADER - std::mem::size_of::<BoundResource>();
        let size = CommandBytes::with_data::<BoundResource>(at_limit).unwrap();
        assert_eq!(size.get(), MAX_COMMAND_BYTES);
        assert_eq!(
            CommandBytes::with_data::<BoundResource>(5).unwrap().get(),
            HEADER + std::mem::size_of::<BoundResource>() + 8
        );
    }

    /// R-REC-12: the encoder refuses data past the limit before it reserves anything: no
    /// half-written command is left in the list, and the list still finishes.
    #[test]
    fn r_rec_12_encoder_refusal_leaves_no_half_written_command() {
        let device = Device::new(DeviceDesc::default());
        let mut context = device.create_deferred_context(&Default::default()).unwrap();
        context.draw(3, 0);
        let before = context.stats();
        let resource = BoundResource {
            resource: RawHandle::NULL,
            instance: InstanceId::INITIAL,
            is_texture: 0,
            data_len: 0,
        };
        for len in [MAX_MAP_BYTES + 1, u32::MAX as usize, u32::MAX as usize + 9] {
            let error = context
                .emit_data("map", Opcode::MapWriteNoOverwrite, resource, len)
                .unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidArgument);
            assert!(
                error.to_string().contains(&MAX_MAP_BYTES.to_string()),
                "{error}"
            );
            assert_eq!(context.stats().commands, before.commands);
            assert_eq!(context.stats().bytes, before.bytes);
        }
        // Zeroed and never touched: the allocator hands out untouched pages.
        let items = vec![0u64; MAX_COMMAND_BYTES / 8 + 1];
        let error = context
            .emit_with(
                "set_viewports",
                Opcode::SetViewports,
                0,
                None,
                Empty,
                &items,
            )
            .unwrap_err();
        assert!(error.to_string().contains("R-REC-12"), "{error}");
        assert_eq!(context.stats().bytes, before.bytes);
        context.draw(3, 1);
        let list = context
            .finish_command_list(crate::RestoreState::ClearState)
            .unwrap();
        assert_eq!(list.commands().count(), 2);
    }

    /// One draw-arguments type: the numbers come back as the call gave them, a negative base
    /// vertex included, and numbers written out (a trace) make the same value.
    #[test]
    fn direct_args_give_back_the_call_numbers() {
        let indexed = DirectArgs::draw_indexed_instanced(6, 2, 1, -1, 9);
        assert_eq!(indexed.values().collect::<Vec<_>>(), [6, 2, 1, -1, 9]);
        assert_eq!(indexed, DirectArgs::from_values(&[6, 2, 1, -1, 9]));
        assert_eq!(DirectArgs::draw(3, 1).values().collect::<Vec<_>>(), [3, 1]);
        assert_eq!(DirectArgs::draw_indexed(6, 2, 5).get(2), 5);
        assert_eq!(DirectArgs::dispatch(2, 3, 4).len(), 3);
        assert!(DirectArgs::NONE.is_empty());
        assert_eq!(
            DrawArgs::Indirect(BoundBuffer::NULL).values().count(),
            0,
            "an indirect draw has no direct numbers"
        );
        assert_eq!(
            DrawArgs::direct(&[4, 2, 1]).values().collect::<Vec<_>>(),
            [4, 2, 1]
        );
    }
}
