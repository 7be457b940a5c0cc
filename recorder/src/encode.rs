//! The encoded form of commands: what a deferred context writes at record time and what execution
//! consumes (R-REC-3). Every command is an 8-byte [`CommandHeader`] followed by a `repr(C)` payload
//! and, for slot-array commands, an array of bound descriptors; sizes are multiples of 8.
//!
//! Descriptors are copied in at record time: a bound view carries its resource, the dynamic
//! instance it reads, its format and its minimum LOD, so execution chases no object tables except
//! to resolve split points. A command whose header has a split category is a split point (R-SP-1):
//! its descriptor holds what is unknown until execution, and a side record in the chunk points at
//! it so execution can find it without walking the commands around it.

use crate::desc::{ClearFlags, Engine, Format, PrimitiveTopology, Rect, Stage, Viewport};
use crate::handle::RawHandle;
use crate::split::SplitCategory;

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
}

impl Opcode {
    const LAST: u8 = Opcode::ExecuteCommandList as u8;

    #[inline]
    fn from_u8(value: u8) -> Option<Self> {
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
    /// 0, or 1 + the [`SplitCategory`] when the command is a split point.
    pub split: u8,
    _reserved: u8,
    /// Bytes of the whole command, header included.
    pub size: u32,
}

const HEADER: usize = std::mem::size_of::<CommandHeader>();
const _: () = assert!(HEADER == 8);

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
    pub const INITIAL: Self = Self(0);
    pub const RESOLVE_AT_EXECUTION: Self = Self(u64::MAX);

    pub const fn new(recorder: u32, serial: u32) -> Self {
        Self((recorder as u64) << 32 | serial as u64)
    }
    pub const fn recorder(self) -> u32 {
        (self.0 >> 32) as u32
    }
    pub const fn serial(self) -> u32 {
        self.0 as u32
    }
}

/// A buffer bound as vertex, index or constant buffer, or read by an indirect draw or a copy.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BoundBuffer {
    pub buffer: RawHandle,
    pub instance: InstanceId,
    pub offset: u32,
    /// Vertex stride, or the index format (as `Format as u32`).
    pub stride_or_format: u32,
}

impl BoundBuffer {
    pub const NULL: Self = Self {
        buffer: RawHandle::NULL,
        instance: InstanceId::INITIAL,
        offset: 0,
        stride_or_format: 0,
    };
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
    /// The resource is a compressible render target or depth stencil (R-SP-2).
    pub const COMPRESSIBLE_TARGET: u8 = 1 << 2;
    /// The resource is texture compatible (TC).
    pub const TEXTURE_COMPATIBLE: u8 = 1 << 3;
    /// The resource is a back buffer of a swap chain (R-EX-7).
    pub const BACK_BUFFER: u8 = 1 << 4;
    /// A buffer UAV with an append or counter flag (R-ST-7).
    pub const HIDDEN_COUNTER: u8 = 1 << 5;

    #[inline]
    pub const fn has(self, flag: u8) -> bool {
        self.0 & flag != 0
    }
}

/// A view bound to a slot (SRV, UAV, RTV or DSV), or cleared.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BoundView {
    pub view: RawHandle,
    pub resource: RawHandle,
    pub instance: InstanceId,
    /// Minimum LOD in force at bind time: the resource's under legacy, the view's under fast (R-ST-6).
    pub min_lod: f32,
    pub format: Format,
    pub flags: ViewFlags,
    pub first_mip: u8,
}

impl BoundView {
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
    pub shader: RawHandle,
    /// Shader-resource slots read, as two words (a `u128` would need 16-byte alignment).
    pub shader_resource_words: [u64; 2],
    pub unordered_access_views: u64,
    pub constant_buffers: u16,
    pub samplers: u16,
    pub stream_output: bool,
    _reserved: [u8; 3],
}

impl BoundShader {
    /// Bit `i`: the shader reads shader-resource slot `i`.
    pub fn shader_resources(&self) -> u128 {
        self.shader_resource_words[0] as u128 | (self.shader_resource_words[1] as u128) << 64
    }

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
    pub resource: RawHandle,
    pub instance: InstanceId,
    /// 0 for a buffer, 1 for a texture.
    pub is_texture: u32,
    /// Payload bytes that follow (maps and updates), else 0.
    pub data_len: u32,
}

/// A count or start slot meaning "leave what is bound" in [`RenderTargetsPayload`].
pub const KEEP: u32 = u32::MAX;

/// Fixed payloads of the commands that have one.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct InputLayoutPayload {
    pub layout: RawHandle,
    pub vertex_buffers: u32,
    _reserved: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct SlotsPayload {
    pub start: u32,
    pub count: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct RenderTargetsPayload {
    pub depth_stencil: BoundView,
    /// Render-target views that follow; [`KEEP`] when the call keeps the bound targets.
    pub render_targets: u32,
    /// First OM UAV slot; [`KEEP`] when the call keeps the bound UAVs.
    pub uav_start: u32,
    pub uavs: u32,
    _reserved: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct StatePayload {
    pub state: RawHandle,
    pub factor: [f32; 4],
    /// Sample mask (blend) or stencil reference (depth-stencil).
    pub reference: u32,
    _reserved: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct ClearPayload {
    pub view: BoundView,
    /// RGBA for a render target; depth in `[0]` for a depth stencil.
    pub values: [f32; 4],
    /// Stencil value (depth stencil).
    pub stencil: u32,
    /// [`ClearFlags`] bits (depth stencil).
    pub flags: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct IndirectPayload {
    pub args: BoundBuffer,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct CopyPayload {
    pub destination: BoundResource,
    pub source: BoundResource,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct StructureCountPayload {
    pub destination: BoundBuffer,
    pub view: BoundView,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct ObjectPayload {
    pub object: RawHandle,
    /// The predicate value, the compression state, or the second resource of a decompression.
    pub value: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct MemoryPayload {
    pub buffer: RawHandle,
    pub offset: u64,
    pub value: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct DrawPayload {
    pub args: [u32; 5],
    _reserved: u32,
}

/// A decoded command, borrowing its payload from the chunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command<'a> {
    SetInputLayout {
        layout: RawHandle,
        vertex_buffers: u32,
    },
    SetPrimitiveTopology(PrimitiveTopology),
    SetVertexBuffers {
        start: u32,
        buffers: &'a [BoundBuffer],
    },
    SetIndexBuffer(BoundBuffer),
    SetPrimitiveResetIndex(u32),
    SetShader {
        stage: Stage,
        shader: BoundShader,
    },
    SetConstantBuffers {
        stage: Stage,
        start: u32,
        buffers: &'a [BoundBuffer],
    },
    SetShaderResources {
        stage: Stage,
        start: u32,
        views: &'a [BoundView],
    },
    SetSamplers {
        stage: Stage,
        start: u32,
        samplers: &'a [RawHandle],
    },
    SetComputeUnorderedAccessViews {
        start: u32,
        views: &'a [BoundView],
    },
    /// Output-merger bindings. `targets: None` keeps the bound render targets and depth
    /// stencil; `uavs: None` keeps the bound OM UAVs.
    SetRenderTargets {
        targets: Option<(&'a [BoundView], BoundView)>,
        uavs: Option<(u32, &'a [BoundView])>,
    },
    SetBlendState {
        state: RawHandle,
        factor: [f32; 4],
        sample_mask: u32,
    },
    SetDepthStencilState {
        state: RawHandle,
        stencil_ref: u32,
    },
    SetRasterizerState(RawHandle),
    SetViewports(&'a [Viewport]),
    SetScissorRects(&'a [Rect]),
    Draw {
        vertex_count: u32,
        start_vertex: u32,
    },
    DrawIndexed {
        index_count: u32,
        start_index: u32,
        base_vertex: i32,
    },
    DrawInstanced {
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    },
    DrawIndexedInstanced {
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    },
    DrawAuto,
    DrawInstancedIndirect(BoundBuffer),
    DrawIndexedInstancedIndirect(BoundBuffer),
    Dispatch {
        x: u32,
        y: u32,
        z: u32,
    },
    DispatchIndirect(BoundBuffer),
    ClearRenderTargetView {
        view: BoundView,
        color: [f32; 4],
    },
    ClearDepthStencilView {
        view: BoundView,
        flags: ClearFlags,
        depth: f32,
        stencil: u8,
    },
    CopyResource {
        destination: BoundResource,
        source: BoundResource,
    },
    UpdateSubresource {
        resource: BoundResource,
        data: &'a [u8],
    },
    CopyStructureCount {
        destination: BoundBuffer,
        view: BoundView,
    },
    /// A write_discard map recorded in the list: a new instance whose data travels with it.
    MapWriteDiscard {
        resource: BoundResource,
        data: &'a [u8],
    },
    /// A write_no_overwrite map of a default resource (allow_usage_default): data written in place.
    MapWriteNoOverwrite {
        resource: BoundResource,
        data: &'a [u8],
    },
    SetPredication {
        predicate: RawHandle,
        value: bool,
    },
    BeginQuery(RawHandle),
    EndQuery(RawHandle),
    ClearState,
    DecompressResource {
        resource: RawHandle,
        into: RawHandle,
    },
    SetResourceCompression {
        resource: RawHandle,
        compressed: bool,
    },
    InsertWaitOnPresent(RawHandle),
    InsertFence(Engine),
    InsertWaitOnFence {
        engine: Engine,
        value: u64,
    },
    WriteValueBottomOfPipe {
        buffer: RawHandle,
        offset: u64,
        value: u64,
    },
    InsertWaitOnMemory {
        buffer: RawHandle,
        offset: u64,
        value: u64,
    },
    /// A nested command list (R-REC-9): the address of its header, and the restore flag.
    ExecuteCommandList {
        list: *const crate::list::ListHeader,
        restore: bool,
    },
}

/// A decoded command and, if it is a split point, its category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decoded<'a> {
    pub command: Command<'a>,
    pub split: Option<SplitCategory>,
    /// Offset of the command in its chunk.
    pub offset: u32,
}

/// Size of a command with a fixed payload `P` and `count` trailing `T`s (or `data` bytes).
#[inline(always)]
pub(crate) const fn command_size<P, T>(count: usize) -> usize {
    HEADER + std::mem::size_of::<P>() + count * std::mem::size_of::<T>()
}

#[inline(always)]
pub(crate) const fn data_size(len: usize) -> usize {
    (len + 7) & !7
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
    size: usize,
    payload: P,
) -> *mut u8 {
    const { assert!(std::mem::align_of::<P>() <= 8) };
    let header = CommandHeader {
        opcode,
        operand,
        split: split.map_or(0, |c| c as u8 + 1),
        _reserved: 0,
        size: size as u32,
    };
    // SAFETY: guaranteed by the caller.
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
            _reserved: 0,
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
impl DrawPayload {
    pub(crate) fn new(args: [u32; 5]) -> Self {
        Self { args, _reserved: 0 }
    }
}

/// Reads a `T` at `at`.
///
/// # Safety
/// `at` must hold a `T` written by the encoder.
#[inline(always)]
unsafe fn read<T: Copy>(at: *const u8) -> T {
    // SAFETY: guaranteed by the caller; commands are 8-aligned and so are their payloads.
    unsafe { (at as *const T).read() }
}

/// # Safety
/// `at` must hold `count` `T`s written by the encoder, alive for `'a`.
#[inline(always)]
unsafe fn slice<'a, T>(at: *const u8, count: usize) -> &'a [T] {
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts(at as *const T, count) }
}

/// Decodes the command at `offset` of the chunk at `base`; returns it and the next offset.
///
/// # Safety
/// `base + offset` must be the start of a command written by this module into a chunk that stays
/// alive and unchanged for `'a`.
pub(crate) unsafe fn decode<'a>(base: *const u8, offset: usize) -> (Decoded<'a>, usize) {
    // SAFETY: guaranteed by the caller for everything read below: the header, then the payload
    // and trailing array of the sizes the encoder wrote for this opcode.
    unsafe {
        let at = base.add(offset);
        let header: CommandHeader = read(at);
        let size = header.size as usize;
        let payload = at.add(HEADER);
        let opcode = Opcode::from_u8(header.opcode as u8).unwrap_or(Opcode::ClearState);
        let stage = Stage::from_u8(header.operand).unwrap_or(Stage::Vertex);
        let tail = |fixed: usize| payload.add(fixed);
        let tail_count = |fixed: usize, element: usize| (size - HEADER - fixed) / element.max(1);
        let command = match opcode {
            Opcode::ListStart | Opcode::ClearState => Command::ClearState,
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
                    buffers: slice(tail(8), p.count as usize),
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
                    buffers: slice(tail(8), p.count as usize),
                }
            }
            Opcode::SetShaderResources => {
                let p: SlotsPayload = read(payload);
                Command::SetShaderResources {
                    stage,
                    start: p.start,
                    views: slice(tail(8), p.count as usize),
                }
            }
            Opcode::SetSamplers => {
                let p: SlotsPayload = read(payload);
                Command::SetSamplers {
                    stage,
                    start: p.start,
                    samplers: slice(tail(8), p.count as usize),
                }
            }
            Opcode::SetComputeUnorderedAccessViews => {
                let p: SlotsPayload = read(payload);
                Command::SetComputeUnorderedAccessViews {
                    start: p.start,
                    views: slice(tail(8), p.count as usize),
                }
            }
            Opcode::SetRenderTargets => {
                let p: RenderTargetsPayload = read(payload);
                let fixed = std::mem::size_of::<RenderTargetsPayload>();
                let count = if p.render_targets == KEEP {
                    0
                } else {
                    p.render_targets as usize
                };
                let targets = (p.render_targets != KEEP)
                    .then(|| (slice(tail(fixed), count), p.depth_stencil));
                let uavs = (p.uav_start != KEEP).then(|| {
                    let at = tail(fixed + count * std::mem::size_of::<BoundView>());
                    (p.uav_start, slice(at, p.uavs as usize))
                });
                Command::SetRenderTargets { targets, uavs }
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
            Opcode::Draw
            | Opcode::DrawIndexed
            | Opcode::DrawInstanced
            | Opcode::DrawIndexedInstanced
            | Opcode::Dispatch => {
                let a = read::<DrawPayload>(payload).args;
                match opcode {
                    Opcode::Draw => Command::Draw {
                        vertex_count: a[0],
                        start_vertex: a[1],
                    },
                    Opcode::DrawIndexed => Command::DrawIndexed {
                        index_count: a[0],
                        start_index: a[1],
                        base_vertex: a[2] as i32,
                    },
                    Opcode::DrawInstanced => Command::DrawInstanced {
                        vertex_count: a[0],
                        instance_count: a[1],
                        start_vertex: a[2],
                        start_instance: a[3],
                    },
                    Opcode::DrawIndexedInstanced => Command::DrawIndexedInstanced {
                        index_count: a[0],
                        instance_count: a[1],
                        start_index: a[2],
                        base_vertex: a[3] as i32,
                        start_instance: a[4],
                    },
                    _ => Command::Dispatch {
                        x: a[0],
                        y: a[1],
                        z: a[2],
                    },
                }
            }
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
            Opcode::UpdateSubresource | Opcode::MapWriteDiscard | Opcode::MapWriteNoOverwrite => {
                let resource: BoundResource = read(payload);
                let data = slice(
                    tail(std::mem::size_of::<BoundResource>()),
                    resource.data_len as usize,
                );
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
            Opcode::InsertFence => Command::InsertFence(Engine::from_u8(header.operand)),
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
            Opcode::ExecuteCommandList => Command::ExecuteCommandList {
                list: read::<usize>(payload) as *const crate::list::ListHeader,
                restore: header.operand != 0,
            },
        };
        let split = header.split.checked_sub(1).and_then(SplitCategory::from_u8);
        (
            Decoded {
                command,
                split,
                offset: offset as u32,
            },
            offset + size,
        )
    }
}
