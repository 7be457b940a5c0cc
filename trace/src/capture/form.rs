//! What a captured call is while the frame runs, and how it becomes trace text.
//!
//! **In:** the calls the capture's wrappers see, in the engine's types. **Out:** [`Entry`]s, kept
//! per context as the application makes them (no name looked up, no lock taken: a handle is
//! copied as it is), and, when the frame is written, each entry as the trace statement
//! docs/TRACE.md gives it ([`written`]), objects named by the capture's records.
//!
//! **One shape.** A call is the trace syntax tree's own [`Method`], in a form of its own
//! ([`Captured`]): the arguments as the engine took them, an object as [`Obj`]. So the call
//! vocabulary is written once (`trace/syntax/ast/method.rs`), and what the capture can hold is
//! exactly what a trace can say. What the API takes that the format has no word for (a vertex
//! buffer's stride and offset, a blend factor, a stencil reference, the bytes of
//! `update_subresource`, which clears of a depth-stencil view) is dropped here: no draw record
//! shows it (the GPU model keeps no contents), so the round trip of the draw records holds
//! without it.

use recorder::command::InstanceId;
use recorder::{
    BarrierAccess, BarrierLayout, BarrierSync, ObjectKind, RawHandle, ResourceStates, Span,
    SplitHalf,
};

use crate::syntax::ast::{
    Barrier, BeforeAfter, FastEntry, Flags, Form, LegacyBarrier, Method, Rect, Remap, SlotRange,
    Viewport,
};
use crate::syntax::words::{AccessWord, LayoutWord, StateWord, SyncWord, Word, WordTable};
use crate::{Format as TraceFormat, Name};

/// An object a captured call names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Obj {
    /// An engine object: a resource, a view, a shader, a state, a query, a swap chain, a bundle.
    Engine(ObjectKind, RawHandle),
    /// A fence, by the value `insert_fence` handed out.
    Fence(u64),
    /// A command list, by the capture's number for it (`ListLog::id`).
    List(u64),
}

impl Obj {
    /// The engine object `handle` of `kind`.
    pub(crate) fn of<H: recorder::Handle>(kind: ObjectKind, handle: H) -> Self {
        Self::Engine(kind, handle.raw())
    }
}

/// The capture's form of a call: the engine's types, objects as [`Obj`], a write_discard map
/// with the instance it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Captured;

impl Form for Captured {
    type Object = Obj;
    type Count = u32;
    type Signed = i32;
    type Stencil = u8;
    type Topology = recorder::PrimitiveTopology;
    type Format = recorder::Format;
    type Stage = recorder::Stage;
    type Viewport = recorder::Viewport;
    type Rect = recorder::Rect;
    type MapType = recorder::MapType;
    type Compression = recorder::Compression;
    type Engine = recorder::Engine;
    type Defaulted<T: Clone + std::fmt::Debug> = T;
    /// The instance a write_discard map made (named `NAME#K` by the order the trace writes it).
    type Instance = Option<InstanceId>;
    /// A capture keeps a map's written bytes as `write` entries of their own ([`Entry::Write`]).
    type MapWrites = ();
    type ErrorKind = recorder::ErrorKind;
    type SplitCategory = recorder::SplitCategory;
    type CounterKey = &'static str;
    type Sync = BarrierSync;
    type Access = BarrierAccess;
    type Layout = BarrierLayout;
    type States = ResourceStates;
    type Span = Span;
    type Split = SplitHalf;
}

/// A captured call.
pub(crate) type Call = Method<Captured>;

/// One thing a context did while it was captured.
#[derive(Clone, Debug)]
pub(crate) enum Entry {
    /// A call, as the trace writes it.
    Call(Call),
    /// Bytes the application changed in a write map, between the map and its unmap (R-CAP-4).
    Write {
        /// The mapped resource.
        resource: Obj,
        /// The first byte changed.
        offset: u32,
        /// The changed range's bytes.
        bytes: Vec<u8>,
    },
    /// A call the trace format has no statement for, written as a comment.
    NotWritten(&'static str),
}

/// The names the capture gave the objects.
pub(crate) trait Namer {
    /// The trace name of `object`.
    fn name(&self, object: Obj) -> Name;
}

pub(crate) fn format(format: recorder::Format) -> TraceFormat {
    // Every engine format's name has the trace's name grammar (`r8g8b8a8_unorm`).
    TraceFormat::new(format.name()).unwrap_or_else(|| {
        TraceFormat::new("unknown").unwrap_or_else(|| unreachable!("'unknown' is a name"))
    })
}

/// `engine=` is written only when not the default, graphics.
fn engine(engine: recorder::Engine) -> Option<recorder::Engine> {
    (engine != recorder::Engine::Graphics).then_some(engine)
}

/// The words of a flag set: every named flag whose bits are all in `value`, largest first, each
/// bit written once (a bit named twice, an alias, by its first word); the table's zero entry
/// (`none`, `common`) for no bit.
fn flags<T: WordTable>(value: T, bits_of: impl Fn(T) -> u32) -> Flags<Word<T>> {
    let bits = bits_of(value);
    let mut left = bits;
    let mut named: Vec<(&str, u32)> = T::WORDS.iter().map(|(n, v)| (*n, bits_of(*v))).collect();
    named.sort_by_key(|(_, v)| std::cmp::Reverse(v.count_ones()));
    let mut out = Vec::new();
    if bits == 0 {
        if let Some(zero) = named
            .iter()
            .find(|(_, v)| *v == 0)
            .and_then(|(n, _)| Word::from_name(n))
        {
            out.push(zero);
        }
        return Flags(out);
    }
    for (name, v) in named {
        if v != 0 && v & bits == v && v & left != 0 {
            if let Some(w) = Word::from_name(name) {
                out.push(w);
                left &= !v;
            }
        }
    }
    Flags(out)
}

fn sync(value: BarrierSync) -> Flags<SyncWord> {
    flags(value, |v| v.0)
}

fn access(value: BarrierAccess) -> Flags<AccessWord> {
    flags(value, |v| v.0)
}

fn states(value: ResourceStates) -> Flags<StateWord> {
    flags(value, |v| v.0)
}

/// A layout by its canonical word (`common`, never `present`).
fn layout(value: BarrierLayout) -> LayoutWord {
    Word::of(value).unwrap_or_else(|| unreachable!("every layout has a word"))
}

fn span(span: Span) -> Option<SlotRange> {
    (!span.is_all()).then_some(SlotRange {
        first: span.first as u64,
        last: span.last as u64,
    })
}

fn both<T, U>(side: &BeforeAfter<T>, f: impl Fn(&T) -> U) -> BeforeAfter<U> {
    BeforeAfter {
        before: f(&side.before),
        after: f(&side.after),
    }
}

fn remap(remap: &Remap<Captured>) -> Remap {
    Remap {
        stage: remap.stage,
        slot: remap.slot as u64,
        inherit_stage: remap.inherit_stage,
        inherit_slot: remap.inherit_slot as u64,
    }
}

fn restore(restore: bool) -> Option<bool> {
    restore.then_some(true)
}

/// `call` as the trace writes it, objects named by `names`.
pub(crate) fn written(call: &Call, names: &dyn Namer) -> Method {
    // Over 150 lines, and stays whole: a table, one arm per method of the call vocabulary
    // (`syntax/ast/method.rs`), each converting its own fields. The compiler checks the match is
    // exhaustive, so a method added to the vocabulary cannot go uncaptured; what is not one arm
    // per method (the barriers, the fast-resource entries) is in the functions below. The next
    // step generates these arms, with the parser's and the printer's, from one call table.
    let one = |o: &Obj| names.name(*o);
    let opt = |o: &Option<Obj>| o.map(|o| names.name(o));
    let all = |os: &[Option<Obj>]| os.iter().map(opt).collect::<Vec<_>>();
    let n = |v: &u32| *v as u64;
    match call {
        Method::SetInputLayout(o) => Method::SetInputLayout(opt(o)),
        Method::SetPrimitiveTopology(t) => Method::SetPrimitiveTopology(*t),
        Method::SetVertexBuffers { start, buffers } => Method::SetVertexBuffers {
            start: n(start),
            buffers: all(buffers),
        },
        Method::SetIndexBuffer {
            buffer,
            format: f,
            offset,
        } => Method::SetIndexBuffer {
            buffer: opt(buffer),
            format: format(*f),
            offset: (*offset != 0).then_some(*offset as u64),
        },
        Method::SetPrimitiveResetIndex(v) => Method::SetPrimitiveResetIndex(n(v)),
        Method::SetShader { stage: s, shader } => Method::SetShader {
            stage: *s,
            shader: opt(shader),
        },
        Method::SetConstantBuffers {
            stage: s,
            start,
            buffers,
        } => Method::SetConstantBuffers {
            stage: *s,
            start: n(start),
            buffers: all(buffers),
        },
        Method::SetShaderResources {
            stage: s,
            start,
            views,
        } => Method::SetShaderResources {
            stage: *s,
            start: n(start),
            views: all(views),
        },
        Method::SetSamplers {
            stage: s,
            start,
            samplers,
        } => Method::SetSamplers {
            stage: *s,
            start: n(start),
            samplers: all(samplers),
        },
        Method::SetFastResources(entries) => Method::SetFastResources(fast_entries(entries, names)),
        Method::SetFastResourcesIntoBatch { batch, entries } => Method::SetFastResourcesIntoBatch {
            batch: batch.clone(),
            entries: fast_entries(entries, names),
        },
        Method::SetFastResourcesFromBatch { batch, .. } => Method::SetFastResourcesFromBatch {
            batch: batch.clone(),
            entries: Vec::new(),
        },
        Method::SetFastShaderResource {
            stage: s,
            slot,
            view,
        } => Method::SetFastShaderResource {
            stage: *s,
            slot: n(slot),
            view: opt(view),
        },
        Method::SetPlacementShaderResource {
            stage: s,
            slot,
            view,
            address,
        } => Method::SetPlacementShaderResource {
            stage: *s,
            slot: n(slot),
            view: one(view),
            address: *address,
        },
        Method::SetPlacementConstantBuffer {
            stage: s,
            slot,
            buffer,
            address,
        } => Method::SetPlacementConstantBuffer {
            stage: *s,
            slot: n(slot),
            buffer: one(buffer),
            address: *address,
        },
        Method::SetPlacementVertexBuffer {
            slot,
            buffer,
            address,
        } => Method::SetPlacementVertexBuffer {
            slot: n(slot),
            buffer: one(buffer),
            address: *address,
        },
        Method::IaSetPlacementIndexBuffer {
            buffer,
            address,
            format: f,
        } => Method::IaSetPlacementIndexBuffer {
            buffer: one(buffer),
            address: *address,
            format: format(*f),
        },
        Method::CsSetUnorderedAccessViews { start, views } => Method::CsSetUnorderedAccessViews {
            start: n(start),
            views: all(views),
        },
        Method::OmSetRenderTargets {
            render_targets,
            depth_stencil,
        } => Method::OmSetRenderTargets {
            render_targets: all(render_targets),
            depth_stencil: opt(depth_stencil),
        },
        Method::OmSetRenderTargetsAndUavs {
            render_targets,
            depth_stencil,
            start,
            views,
        } => Method::OmSetRenderTargetsAndUavs {
            render_targets: all(render_targets),
            depth_stencil: opt(depth_stencil),
            start: n(start),
            views: all(views),
        },
        Method::OmSetBlendState(o) => Method::OmSetBlendState(opt(o)),
        Method::OmSetDepthStencilState(o) => Method::OmSetDepthStencilState(opt(o)),
        Method::RsSetState(o) => Method::RsSetState(opt(o)),
        Method::RsSetViewports(vs) => Method::RsSetViewports(
            vs.iter()
                .map(|v| Viewport {
                    x: v.x,
                    y: v.y,
                    width: v.width,
                    height: v.height,
                })
                .collect(),
        ),
        Method::RsSetScissorRects(rs) => Method::RsSetScissorRects(
            rs.iter()
                .map(|r| Rect {
                    left: r.left as i64,
                    top: r.top as i64,
                    right: r.right as i64,
                    bottom: r.bottom as i64,
                })
                .collect(),
        ),
        Method::Draw {
            vertex_count,
            start_vertex,
        } => Method::Draw {
            vertex_count: n(vertex_count),
            start_vertex: n(start_vertex),
        },
        Method::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        } => Method::DrawIndexed {
            index_count: n(index_count),
            start_index: n(start_index),
            base_vertex: *base_vertex as i64,
        },
        Method::DrawInstanced {
            vertex_count,
            instance_count,
            start_vertex,
            start_instance,
        } => Method::DrawInstanced {
            vertex_count: n(vertex_count),
            instance_count: n(instance_count),
            start_vertex: n(start_vertex),
            start_instance: n(start_instance),
        },
        Method::DrawIndexedInstanced {
            index_count,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        } => Method::DrawIndexedInstanced {
            index_count: n(index_count),
            instance_count: n(instance_count),
            start_index: n(start_index),
            base_vertex: *base_vertex as i64,
            start_instance: n(start_instance),
        },
        Method::DrawAuto => Method::DrawAuto,
        Method::DrawInstancedIndirect { buffer, offset } => Method::DrawInstancedIndirect {
            buffer: one(buffer),
            offset: n(offset),
        },
        Method::DrawIndexedInstancedIndirect { buffer, offset } => {
            Method::DrawIndexedInstancedIndirect {
                buffer: one(buffer),
                offset: n(offset),
            }
        }
        Method::Dispatch { x, y, z } => Method::Dispatch {
            x: n(x),
            y: n(y),
            z: n(z),
        },
        Method::DispatchIndirect { buffer, offset } => Method::DispatchIndirect {
            buffer: one(buffer),
            offset: n(offset),
        },
        Method::ClearRenderTargetView { view, color } => Method::ClearRenderTargetView {
            view: one(view),
            color: *color,
        },
        Method::ClearDepthStencilView {
            view,
            depth,
            stencil,
        } => Method::ClearDepthStencilView {
            view: one(view),
            depth: *depth,
            stencil: *stencil as u64,
        },
        Method::CopyResource {
            destination,
            source,
        } => Method::CopyResource {
            destination: one(destination),
            source: one(source),
        },
        Method::CopyBufferRegion {
            destination,
            destination_offset,
            source,
            source_offset,
            bytes,
        } => Method::CopyBufferRegion {
            destination: one(destination),
            destination_offset: n(destination_offset),
            source: one(source),
            source_offset: n(source_offset),
            bytes: n(bytes),
        },
        Method::CopyTextureRegion {
            destination,
            destination_subresource,
            at,
            source,
            source_subresource,
            source_box,
        } => Method::CopyTextureRegion {
            destination: one(destination),
            destination_subresource: n(destination_subresource),
            at: at.map(|v| v as u64),
            source: one(source),
            source_subresource: n(source_subresource),
            source_box: source_box.map(|v| v as u64),
        },
        Method::UpdateSubresource { resource } => Method::UpdateSubresource {
            resource: one(resource),
        },
        Method::CopyStructureCount {
            destination,
            offset,
            view,
        } => Method::CopyStructureCount {
            destination: one(destination),
            offset: n(offset),
            view: one(view),
        },
        Method::Map {
            resource,
            map_type: m,
            allow_usage_default,
            instance: _,
            writes: (),
        } => Method::Map {
            resource: one(resource),
            map_type: *m,
            allow_usage_default: *allow_usage_default,
            instance: (),
            writes: (),
        },
        Method::Write {
            resource,
            offset,
            bytes,
        } => Method::Write {
            resource: one(resource),
            offset: n(offset),
            bytes: bytes.clone(),
        },
        Method::Unmap { resource } => Method::Unmap {
            resource: one(resource),
        },
        Method::SetPredication { predicate, value } => Method::SetPredication {
            predicate: opt(predicate),
            value: *value,
        },
        Method::Begin { query } => Method::Begin { query: one(query) },
        Method::End { query } => Method::End { query: one(query) },
        Method::WriteQuery { query } => Method::WriteQuery { query: one(query) },
        Method::ResetQuery { query } => Method::ResetQuery { query: one(query) },
        Method::ConfigureQuery { query, mode } => Method::ConfigureQuery {
            query: one(query),
            mode: *mode,
        },
        Method::SetPredicationFromQuery { query, value } => Method::SetPredicationFromQuery {
            query: opt(query),
            value: *value,
        },
        Method::ClearState => Method::ClearState,
        Method::CreateDeviceContextState { state } => {
            Method::CreateDeviceContextState { state: one(state) }
        }
        Method::SwapDeviceContextState { state } => {
            Method::SwapDeviceContextState { state: one(state) }
        }
        Method::DecompressResource { resource, into } => Method::DecompressResource {
            resource: one(resource),
            into: opt(into),
        },
        Method::SetResourceCompression {
            resource,
            compression: c,
        } => Method::SetResourceCompression {
            resource: one(resource),
            compression: *c,
        },
        Method::SetResourceMinLod { resource, min_lod } => Method::SetResourceMinLod {
            resource: one(resource),
            min_lod: *min_lod,
        },
        Method::SetShaderResourceViewMinLod { view, min_lod } => {
            Method::SetShaderResourceViewMinLod {
                view: one(view),
                min_lod: *min_lod,
            }
        }
        Method::InsertWaitOnPresent { swapchain } => Method::InsertWaitOnPresent {
            swapchain: one(swapchain),
        },
        Method::InsertFence {
            fence,
            engine: e,
            kick_off,
        } => Method::InsertFence {
            fence: one(fence),
            engine: engine(*e),
            kick_off: *kick_off,
        },
        Method::InsertWaitOnFence { fence, engine: e } => Method::InsertWaitOnFence {
            fence: one(fence),
            engine: engine(*e),
        },
        Method::SetGdsRange {
            stage: s,
            offset,
            size,
        } => Method::SetGdsRange {
            stage: *s,
            offset: n(offset),
            size: n(size),
        },
        Method::WriteGds { offset, values } => Method::WriteGds {
            offset: n(offset),
            values: values.iter().map(n).collect(),
        },
        Method::ReadGds {
            offset,
            count,
            destination,
            destination_offset,
        } => Method::ReadGds {
            offset: n(offset),
            count: n(count),
            destination: one(destination),
            destination_offset: n(destination_offset),
        },
        Method::LoadConstantRam {
            buffer,
            buffer_offset,
            ram_offset,
            bytes,
        } => Method::LoadConstantRam {
            buffer: one(buffer),
            buffer_offset: n(buffer_offset),
            ram_offset: n(ram_offset),
            bytes: n(bytes),
        },
        Method::StoreConstantRam {
            buffer,
            buffer_offset,
            ram_offset,
            bytes,
        } => Method::StoreConstantRam {
            buffer: one(buffer),
            buffer_offset: n(buffer_offset),
            ram_offset: n(ram_offset),
            bytes: n(bytes),
        },
        Method::DrawBundle { bundle } => Method::DrawBundle {
            bundle: one(bundle),
        },
        Method::RemapConstantBufferInheritance(r) => {
            Method::RemapConstantBufferInheritance(remap(r))
        }
        Method::RemapShaderResourceInheritance(r) => {
            Method::RemapShaderResourceInheritance(remap(r))
        }
        Method::RemapSamplerInheritance(r) => Method::RemapSamplerInheritance(remap(r)),
        Method::RemapVertexBufferInheritance { slot, inherit_slot } => {
            Method::RemapVertexBufferInheritance {
                slot: n(slot),
                inherit_slot: n(inherit_slot),
            }
        }
        Method::FinishCommandList { list, restore: r } => Method::FinishCommandList {
            list: one(list),
            restore: restore(*r),
        },
        Method::FinishBundle => Method::FinishBundle,
        Method::Execute { list, restore: r } => Method::Execute {
            list: one(list),
            restore: restore(*r),
        },
        Method::BeginCommandListExecution => Method::BeginCommandListExecution,
        Method::EndCommandListExecution => Method::EndCommandListExecution,
        Method::Present { swapchain } => Method::Present {
            swapchain: one(swapchain),
        },
        Method::Resume => Method::Resume,
        Method::Barrier(barriers) => {
            Method::Barrier(barriers.iter().map(|b| barrier(b, names)).collect())
        }
        Method::ResourceBarrier(b) => Method::ResourceBarrier(legacy_barrier(b, names)),
    }
}

/// The entries of `set_fast_resources` and `set_fast_resources_into_batch` as written.
fn fast_entries(entries: &[FastEntry<Captured>], names: &dyn Namer) -> Vec<FastEntry> {
    entries
        .iter()
        .map(|e| FastEntry {
            kind: e.kind,
            stage: e.stage,
            slot: e.slot as u64,
            object: e.object.map(|o| names.name(o)),
        })
        .collect()
}

/// One BARRIER of `barrier` as written.
fn barrier(barrier: &Barrier<Captured>, names: &dyn Namer) -> Barrier {
    let one = |o: &Obj| names.name(*o);
    match barrier {
        Barrier::Global { sync: s, access: a } => Barrier::Global {
            sync: both(s, |v| sync(*v)),
            access: both(a, |v| access(*v)),
        },
        Barrier::Buffer {
            resource,
            sync: s,
            access: a,
            size,
        } => Barrier::Buffer {
            resource: one(resource),
            sync: both(s, |v| sync(*v)),
            access: both(a, |v| access(*v)),
            size: *size,
        },
        Barrier::Texture {
            resource,
            sync: s,
            access: a,
            layout: l,
            mips,
            array,
            planes,
            discard,
        } => Barrier::Texture {
            resource: one(resource),
            sync: both(s, |v| sync(*v)),
            access: both(a, |v| access(*v)),
            layout: both(l, |v| layout(*v)),
            mips: span(*mips),
            array: span(*array),
            planes: span(*planes),
            discard: *discard,
        },
    }
}

/// The legacy barrier of `resource_barrier` as written.
fn legacy_barrier(barrier: &LegacyBarrier<Captured>, names: &dyn Namer) -> LegacyBarrier {
    let opt = |o: &Option<Obj>| o.map(|o| names.name(o));
    match barrier {
        LegacyBarrier::Transition {
            resource,
            before,
            after,
            subresource,
            split,
        } => LegacyBarrier::Transition {
            resource: names.name(*resource),
            before: states(*before),
            after: states(*after),
            subresource: subresource.map(|s| s as u64),
            split: split.filter(|half| *half != SplitHalf::None),
        },
        LegacyBarrier::Uav { resource } => LegacyBarrier::Uav {
            resource: opt(resource),
        },
        LegacyBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
            before: opt(before),
            after: opt(after),
        },
    }
}
