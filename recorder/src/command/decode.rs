//! Reading encoded commands back (`encode.rs` writes them) into the typed [`Command`]
//! (`decoded.rs`) that execution, nesting, validation and a legacy list's drop walk see.
//!
//! **In:** the address of a command the encoder wrote in a sealed chunk. **Out:** a
//! [`Decoded`] command borrowing its trailing arrays from the chunk (no copy), its split
//! category, and the offset of the next command. Execution decodes each command once and hands
//! the typed form on (a split point's patch included, `patch.rs`).
//!
//! **Invariant.** Only what the encoder wrote is read, within the size its header holds: a count
//! stored in a payload never reaches past its command.

use crate::barriers::{BarrierCounts, BarrierRecord, ResourceBarrierRecord};
use crate::context::split::SplitCategory;
use crate::desc::{ClearFlags, Engine, PrimitiveTopology, Rect, Stage, Viewport};
use crate::device::handle::RawHandle;

use super::*;

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
