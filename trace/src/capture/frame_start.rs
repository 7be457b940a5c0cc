//! The state a captured frame starts from, as the calls that give it (R-CAP-3): what the GPU
//! model keeps of a texture (minimum LOD, layout or legacy state, compression: a texture partly
//! compressed, a plane or some colour kinds decompressed, is written as `set_resource_compression
//! compressed` and then the `decompress_resource … kinds=` of what it no longer holds, which the
//! replay counts as one decompression before the frame), of a buffer (its
//! legacy state), of a placed resource (whether it is a deactivated alias), of a query
//! (R-FX-3), the back buffer each view of a swap chain names (R-EX-7), of a resource's lone
//! pending copy under hazard validation (R-V-2), and the bindings with the objects the device no
//! longer has made null. Read by
//! `immediate.rs` when a frame opens.
//!
//! **In:** the immediate context (its GPU model, its device) and an object. **Out:** calls on
//! the immediate context that give a fresh replay of the trace the same state; `Err` where no
//! call can (a query that passed samples).

use recorder::command::BoundView;
use recorder::state::Bindings;
use recorder::{
    BarrierAccess, BarrierLayout, BarrierSync, DecompressKinds, Handle, ObjectKind, RawHandle,
    ResourceStates, Texture,
};

use super::arena::List;
use super::form::{Call, Obj};
use crate::syntax::ast::{Barrier, BeforeAfter, LegacyBarrier, Method};
use crate::syntax::Decompression;
use executor::ImmediateContext;

/// The legacy transition from `common` that gives a resource the legacy state `state` (R-BAR-6:
/// a texture's layout follows the state, as it did live, where one transition of the whole
/// texture left it; an enhanced barrier of a resource whose legacy state is not `common` is
/// refused, so no enhanced barrier moved it since).
fn legacy_transition(obj: Obj, state: ResourceStates) -> Call {
    Method::ResourceBarrier(LegacyBarrier::Transition {
        resource: obj,
        before: ResourceStates::COMMON,
        after: state,
        subresource: None,
        split: None,
    })
}

/// The call that gives buffer `raw` (`obj`) the legacy state it has at the frame's start, if a
/// legacy transition left it in one.
pub(super) fn buffer_setup(
    context: &mut ImmediateContext,
    obj: Obj,
    raw: RawHandle,
) -> Option<Call> {
    let state = context.gpu().legacy_state(raw, false);
    (state != ResourceStates::COMMON).then(|| legacy_transition(obj, state))
}

/// The call that starts placed resource `resource` (`obj`) deactivated when it is a
/// deactivated alias at the frame's start (R-BAR-7): a legacy aliasing barrier naming it as the
/// one aliased away from (`resource_barrier aliasing R null`), which deactivates it and
/// activates nothing. An active one needs no call: a fresh replay's placed resources are active
/// until something overlapping is activated, and an activation in the frame deactivates what it
/// overlaps in the replay as it did live. Not written on a device with `legacy_barriers=off`,
/// where the legacy barrier could be refused or refuse the frame's enhanced ones (R-BAR-6).
pub(super) fn placed_setup(
    context: &mut ImmediateContext,
    obj: Obj,
    resource: recorder::Resource,
) -> Option<Call> {
    let device = context.device();
    if device.placement(resource).is_none() || !device.desc().legacy_barriers {
        return None;
    }
    context.gpu().deactivated_by(resource).map(|_| {
        Method::ResourceBarrier(LegacyBarrier::Aliasing {
            before: Some(obj),
            after: None,
        })
    })
}

/// The calls that give texture `raw` (`obj`) the state it has at the frame's start: its
/// minimum LOD, its legacy state or its enhanced-barrier layout, its compression.
pub(super) fn texture_setup(context: &mut ImmediateContext, obj: Obj, raw: RawHandle) -> Vec<Call> {
    let device = context.device().clone();
    let mut calls = Vec::new();
    let texture = Texture::from_raw(raw);
    if let Some(lod) = device.resource_min_lod(texture).filter(|l| *l != 0.0) {
        calls.push(Method::SetResourceMinLod {
            resource: obj,
            min_lod: lod,
        });
    }
    // A legacy state (a legacy transition left it, and its layout with it): the transition
    // from `common`. Else the enhanced-barrier layout (every texture starts in `common`): a
    // barrier from `common` to it. Then the compression it had.
    let legacy = context.gpu().legacy_state(raw, true);
    let state = context.gpu().texture_state(raw);
    let moved = state.layout.is_some_and(|l| l != BarrierLayout::Common);
    if legacy != ResourceStates::COMMON {
        calls.push(legacy_transition(obj, legacy));
    } else if let Some(layout) = state.layout.filter(|_| moved) {
        calls.push(Method::Barrier(List::from(vec![Barrier::Texture {
            resource: obj,
            sync: BeforeAfter {
                before: BarrierSync::NONE,
                after: BarrierSync::NONE,
            },
            access: BeforeAfter {
                before: BarrierAccess::NO_ACCESS,
                after: BarrierAccess::NO_ACCESS,
            },
            layout: BeforeAfter {
                before: BarrierLayout::Common,
                after: layout,
            },
            mips: recorder::Span::ALL,
            array: recorder::Span::ALL,
            planes: recorder::Span::ALL,
            discard: false,
        }])));
    }
    let info = device.texture_info(texture);
    let compressible = info.is_some_and(|i| i.compressible || i.dcc);
    let compressed = context.resource_compression(texture);
    if compressible {
        calls.push(Method::SetResourceCompression {
            resource: obj,
            compression: match compressed {
                true => recorder::Compression::Compressed,
                false => recorder::Compression::Decompressed,
            },
        });
    }
    // Partly compressed (R-ST-9): the kinds already decompressed, decompressed again after the
    // override compressed every kind.
    let gone = match (compressed, info) {
        (true, Some(info)) => decompressed_kinds(context, raw, &info),
        _ => DecompressKinds::NONE,
    };
    if compressible && !gone.is_empty() {
        calls.push(Method::DecompressResource {
            resource: obj,
            options: Decompression {
                into: None,
                kinds: gone,
                region: None,
            },
        });
    }
    calls
}

/// The kinds of compression compressed texture `raw` has and no longer holds: a plane of a depth
/// format, or the colour kinds a decompression limited to some kinds removed (R-ST-9).
fn decompressed_kinds(
    context: &mut ImmediateContext,
    raw: RawHandle,
    info: &recorder::TextureInfo,
) -> DecompressKinds {
    let state = context.gpu().texture_state(raw);
    if let Some(depth) = state.depth_compressed {
        let mut gone = DecompressKinds::NONE;
        if !depth {
            gone = gone.union(DecompressKinds::DEPTH);
        }
        if state.stencil_compressed == Some(false) {
            gone = gone.union(DecompressKinds::STENCIL);
        }
        return gone;
    }
    let mut had = DecompressKinds::CLEAR;
    if info.sample_count > 1 {
        had = had.union(DecompressKinds::FMASK);
    }
    if info.dcc {
        had = had.union(DecompressKinds::DCC);
    }
    let left = context
        .gpu()
        .compressed_kinds(raw)
        .unwrap_or(DecompressKinds::ALL);
    had.without(left)
}

/// Under hazard validation (R-V-2), the call that gives resource `raw` (`obj`) the write the
/// hazard tracker has pending on it at the frame's start, where one call can: the lone pending
/// write is a copy of the whole resource made under the immediate context's semantics, given
/// by an `update_subresource` (a copy destination of the whole resource, no record). Only on a
/// legacy immediate context (a fast one refuses `update_subresource`, R-ST-7; and a legacy
/// write is reported only against a fast use, in a fast list); not for a placed resource (its
/// update could meet a deactivated alias) nor a buffer that is not `default` (refused). The replay's report of a later use then names the
/// update, not the live copy; every other pending write is not written (`mod.rs`).
pub(super) fn pending_copy_setup(
    context: &mut ImmediateContext,
    obj: Obj,
    resource: recorder::Resource,
) -> Option<Call> {
    let device = context.device().clone();
    if device.desc().validation != recorder::Validation::Hazards
        || device.desc().immediate_semantics != recorder::Semantics::Legacy
        || device.placement(resource).is_some()
    {
        return None;
    }
    let (raw, buffer) = match resource {
        recorder::Resource::Buffer(b) => {
            let default = device
                .buffer_info(b)
                .is_some_and(|i| i.usage == recorder::Usage::Default);
            if !default {
                return None;
            }
            (b.raw(), true)
        }
        recorder::Resource::Texture(t) => (t.raw(), false),
    };
    context
        .gpu()
        .pending_whole_copy_write(raw, buffer, recorder::Semantics::Legacy)
        .then_some(Method::UpdateSubresource { resource: obj })
}

/// Whether the device still has the object (alive, or released and still referenced).
pub(super) fn known(device: &recorder::Device, kind: ObjectKind, raw: recorder::RawHandle) -> bool {
    use recorder::*;
    fn has<H: Handle>(device: &Device, handle: H) -> bool {
        device.is_alive(handle) || device.references(handle).is_some()
    }
    match kind {
        ObjectKind::Buffer => has(device, Buffer::from_raw(raw)),
        ObjectKind::Texture => has(device, Texture::from_raw(raw)),
        ObjectKind::ShaderResourceView => has(device, ShaderResourceView::from_raw(raw)),
        ObjectKind::UnorderedAccessView => has(device, UnorderedAccessView::from_raw(raw)),
        ObjectKind::RenderTargetView => has(device, RenderTargetView::from_raw(raw)),
        ObjectKind::DepthStencilView => has(device, DepthStencilView::from_raw(raw)),
        ObjectKind::Shader => has(device, Shader::from_raw(raw)),
        ObjectKind::InputLayout => has(device, InputLayout::from_raw(raw)),
        ObjectKind::BlendState => has(device, BlendState::from_raw(raw)),
        ObjectKind::RasterizerState => has(device, RasterizerState::from_raw(raw)),
        ObjectKind::DepthStencilState => has(device, DepthStencilState::from_raw(raw)),
        ObjectKind::SamplerState => has(device, SamplerState::from_raw(raw)),
        ObjectKind::Query => has(device, Query::from_raw(raw)),
        ObjectKind::SwapChain => has(device, SwapChain::from_raw(raw)),
        ObjectKind::Bundle => has(device, BundleHandle::from_raw(raw)),
        ObjectKind::Heap => has(device, Heap::from_raw(raw)),
    }
}

/// Makes null every slot of a set call that names an object the device no longer has.
pub(super) fn forget_dead(device: &recorder::Device, call: &mut Call) {
    let dead = |o: &Option<Obj>| match o {
        Some(Obj::Engine(kind, raw)) => !known(device, *kind, *raw),
        _ => false,
    };
    let clear = |slots: &mut List<Option<Obj>>| {
        for slot in slots.to_mut() {
            if dead(slot) {
                *slot = None;
            }
        }
    };
    match call {
        Method::SetInputLayout(o)
        | Method::SetShader { shader: o, .. }
        | Method::OmSetBlendState(o)
        | Method::OmSetDepthStencilState(o)
        | Method::RsSetState(o)
        | Method::SetPredication { predicate: o, .. }
        | Method::SetIndexBuffer { buffer: o, .. }
            if dead(o) =>
        {
            *o = None
        }
        Method::SetVertexBuffers { buffers, .. } => {
            for binding in buffers.to_mut() {
                if dead(&binding.buffer) {
                    binding.buffer = None;
                }
            }
        }
        Method::SetConstantBuffers { buffers: s, .. }
        | Method::SetShaderResources { views: s, .. }
        | Method::SetSamplers { samplers: s, .. }
        | Method::CsSetUnorderedAccessViews { views: s, .. } => clear(s),
        Method::OmSetRenderTargets {
            render_targets,
            depth_stencil,
        } => {
            clear(render_targets);
            if dead(depth_stencil) {
                *depth_stencil = None;
            }
        }
        Method::OmSetRenderTargetsAndUavs {
            render_targets,
            depth_stencil,
            views,
            ..
        } => {
            clear(render_targets);
            clear(views);
            if dead(depth_stencil) {
                *depth_stencil = None;
            }
        }
        _ => {}
    }
}

/// The calls that give a query, at a frame's start, the state the GPU model keeps of it
/// (R-FX-3): `configure_query` for a binary mode, `begin` for an open scope, `end` for a result
/// (with no scope open, an end writes zero counts), `begin` then `write_query` for an open scope
/// with a result. What passed samples cannot be given without
/// a draw, which would add a record: `Err` says so. Other counts (pipeline statistics, the
/// clock) are not given: draw records read only whether samples passed.
pub(super) fn query_setup(
    query: Obj,
    snapshot: Option<executor::QuerySnapshot>,
) -> Result<Vec<Call>, &'static str> {
    let Some(snapshot) = snapshot else {
        return Ok(Vec::new());
    };
    let mut calls = Vec::new();
    if snapshot.mode == recorder::QueryMode::Binary {
        calls.push(Method::ConfigureQuery {
            query,
            mode: snapshot.mode,
        });
    }
    match (snapshot.open, snapshot.result) {
        (Some(counts), None) if counts.samples == 0 => calls.push(Method::Begin { query }),
        // A scope begun and written while open (`write_query`): the begin clears the result,
        // the write gives it back with the scope's counts, none yet.
        (Some(counts), Some(result)) if counts.samples == 0 && result.counts.samples == 0 => {
            calls.push(Method::Begin { query });
            calls.push(Method::WriteQuery { query });
        }
        (None, Some(result)) if result.counts.samples == 0 => calls.push(Method::End { query }),
        (None, None) => {}
        _ => {
            return Err(
                "passed samples before the frame (a result or an open scope): no call gives a \
                 query samples without a draw, so a trace cannot start from it (R-FX-3)",
            )
        }
    }
    Ok(calls)
}

/// The placement that puts view `raw` (`obj`) of a swap chain's back buffer on the buffer it
/// names at the frame's start (R-EX-7): written for every such view the frame uses, whatever
/// moved it (placements, legacy presents), as the declarations are written at the frame's end
/// and the opening presents of a legacy replay move it again. Placed before the bindings, which
/// read it.
pub(super) fn swap_chain_view_setup(
    device: &recorder::Device,
    obj: Obj,
    kind: ObjectKind,
    raw: RawHandle,
) -> Option<Call> {
    let placed = view_buffer(device, kind, raw)?;
    Some(Method::PlaceSwapChainView {
        view: obj,
        index: placed,
    })
}

/// The back buffer (its index in its chain) that live view `raw` of `kind` names now, if it is
/// a view of one.
fn view_buffer(device: &recorder::Device, kind: ObjectKind, raw: RawHandle) -> Option<u32> {
    let placed = match kind {
        ObjectKind::ShaderResourceView => {
            device.swap_chain_view_buffer(recorder::ShaderResourceView::from_raw(raw))
        }
        ObjectKind::UnorderedAccessView => {
            device.swap_chain_view_buffer(recorder::UnorderedAccessView::from_raw(raw))
        }
        ObjectKind::RenderTargetView => {
            device.swap_chain_view_buffer(recorder::RenderTargetView::from_raw(raw))
        }
        ObjectKind::DepthStencilView => {
            device.swap_chain_view_buffer(recorder::DepthStencilView::from_raw(raw))
        }
        _ => None,
    }?;
    Some(placed.1)
}

/// `calls` (the calls that set `state`, `log::state_calls`) with each bind of a swap-chain view
/// pinned to the back buffer the bind encoded (R-EX-7): a binding made before a present or a
/// placement moved its view keeps its old buffer (a carried state, the immediate context's
/// state at the frame's start), where the text, written in order, has the view where it is now.
/// So before such a bind, `place_swap_chain_view VIEW ENCODED`, and after the block the view
/// back where it is now, for the statements after it. The writer puts these placements on `imm`
/// (`Out::state_block`): a device call, which waits for every worker in a threaded replay, so
/// its line orders it. Read where the state is taken, as the views move after.
pub(crate) fn pin_swap_chain_views(
    device: &recorder::Device,
    state: &Bindings,
    calls: Vec<Call>,
) -> Vec<Call> {
    let mut out = Vec::with_capacity(calls.len());
    // Each view pinned: where the block has put it, and where it is now (put back after).
    let mut pinned: Vec<(RawHandle, ObjectKind, u32, u32)> = Vec::new();
    for call in calls {
        let mut bound: Vec<(ObjectKind, BoundView)> = Vec::new();
        let mut add = |kind: ObjectKind, views: &[BoundView]| {
            bound.extend(views.iter().map(|v| (kind, *v)));
        };
        match &call {
            Method::SetShaderResources { stage, .. } => {
                add(
                    ObjectKind::ShaderResourceView,
                    state.shader_resources(*stage),
                );
            }
            Method::CsSetUnorderedAccessViews { .. } => {
                add(ObjectKind::UnorderedAccessView, state.compute_uavs());
            }
            Method::OmSetRenderTargets { .. } | Method::OmSetRenderTargetsAndUavs { .. } => {
                add(ObjectKind::RenderTargetView, state.render_targets());
                add(ObjectKind::DepthStencilView, &[state.depth_stencil()]);
                add(ObjectKind::UnorderedAccessView, state.om_uavs());
            }
            _ => {}
        }
        for (kind, view) in bound {
            if view.view.is_null() || view.resource.is_null() {
                continue;
            }
            let encoded = device
                .texture_info(Texture::from_raw(view.resource))
                .and_then(|info| info.back_buffer);
            let (Some((_, encoded)), Some(now)) = (encoded, view_buffer(device, kind, view.view))
            else {
                continue;
            };
            let k = match pinned.iter().position(|p| p.0 == view.view) {
                Some(k) => k,
                None => {
                    pinned.push((view.view, kind, now, now));
                    pinned.len() - 1
                }
            };
            if pinned[k].2 != encoded {
                pinned[k].2 = encoded;
                out.push(Method::PlaceSwapChainView {
                    view: Obj::Engine(kind, view.view),
                    index: encoded,
                });
            }
        }
        out.push(call);
    }
    for (raw, kind, at, now) in pinned {
        if at != now {
            out.push(Method::PlaceSwapChainView {
                view: Obj::Engine(kind, raw),
                index: now,
            });
        }
    }
    out
}
