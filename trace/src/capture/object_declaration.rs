//! The declaration that makes a captured object again, and the facts about an object that its
//! declaration and its place in the text depend on (what it needs declared first, whether its
//! records name dynamic instances).
//!
//! **In:** the device, the capture's registry, an object. **Out:** its [`Declaration`], with what
//! a real GPU needs of it where the device keeps that (R-GPU-2: `object_contents.rs`) (or why
//! the device no longer knows it), its dependencies, its kind's rank among objects made outside
//! the capture. **Invariant:** only reads the device: asking twice gives the same answer while
//! the object lives.

use recorder::{
    Buffer, Device, Handle, Heap, InputLayout, ObjectKind, Query, RawHandle, Resource, Shader,
    ShaderResourceView, SwapChain, Texture, Usage, ViewMinLod,
};

use super::form::{self, Namer, Obj};
use super::object_contents as contents;
use super::records::Registry;
use crate::syntax::ast::{Declaration, Placement, SlotRange, SlotSet};

/// Where an object made outside the capture goes among its kind's peers: what others depend on
/// first (heaps, resources, swap chains, then views, then the rest).
pub(super) fn kind_rank(kind: ObjectKind) -> u8 {
    match kind {
        ObjectKind::Heap => 0,
        ObjectKind::Buffer => 1,
        ObjectKind::Texture => 2,
        ObjectKind::SwapChain => 3,
        ObjectKind::ShaderResourceView => 4,
        ObjectKind::UnorderedAccessView => 5,
        ObjectKind::RenderTargetView => 6,
        ObjectKind::DepthStencilView => 7,
        other => 8 + other as u8,
    }
}

/// The objects an object needs declared before it.
pub(super) fn deps(device: &Device, registry: &Registry, object: Obj) -> Vec<Obj> {
    let Obj::Engine(kind, raw) = object else {
        return Vec::new();
    };
    let mut out: Vec<Obj> = registry
        .get(kind, raw)
        .map(|r| r.deps.clone())
        .unwrap_or_default();
    let resource_deps = |resource: Resource, out: &mut Vec<Obj>| {
        if let Some(placement) = device.placement(resource) {
            out.push(Obj::Engine(ObjectKind::Heap, placement.heap.raw()));
        }
    };
    match kind {
        ObjectKind::Buffer => resource_deps(Resource::Buffer(Buffer::from_raw(raw)), &mut out),
        ObjectKind::Texture => {
            let texture = Texture::from_raw(raw);
            resource_deps(Resource::Texture(texture), &mut out);
            if let Some((chain, _)) = device.texture_info(texture).and_then(|i| i.back_buffer) {
                out.push(Obj::Engine(ObjectKind::SwapChain, chain.raw()));
            }
        }
        ObjectKind::ShaderResourceView
        | ObjectKind::UnorderedAccessView
        | ObjectKind::RenderTargetView
        | ObjectKind::DepthStencilView => {
            if let Some(info) = view_info(device, kind, raw) {
                out.push(super::log::resource_obj(info.resource));
            }
        }
        // Every back buffer, which a view of the chain may name in a record (R-EX-7).
        ObjectKind::SwapChain => {
            if let Some(info) = device.swap_chain_info(SwapChain::from_raw(raw)) {
                out.extend(
                    info.buffers
                        .iter()
                        .map(|(t, _)| Obj::Engine(ObjectKind::Texture, t.raw())),
                );
            }
        }
        _ => {}
    }
    out
}

fn view_info(device: &Device, kind: ObjectKind, raw: RawHandle) -> Option<recorder::ViewInfo> {
    match kind {
        ObjectKind::ShaderResourceView => device.view_info(ShaderResourceView::from_raw(raw)),
        ObjectKind::UnorderedAccessView => {
            device.view_info(recorder::UnorderedAccessView::from_raw(raw))
        }
        ObjectKind::RenderTargetView => device.view_info(recorder::RenderTargetView::from_raw(raw)),
        ObjectKind::DepthStencilView => device.view_info(recorder::DepthStencilView::from_raw(raw)),
        _ => None,
    }
}

fn slot_set(bits: u128) -> Option<SlotSet> {
    let mut ranges = Vec::new();
    let mut slot = 0u64;
    while slot < 128 {
        if bits >> slot & 1 == 1 {
            let first = slot;
            while slot + 1 < 128 && bits >> (slot + 1) & 1 == 1 {
                slot += 1;
            }
            ranges.push(SlotRange { first, last: slot });
        }
        slot += 1;
    }
    (!ranges.is_empty()).then_some(SlotSet(ranges))
}

/// The declaration that makes `object` again (`Ok(None)`: another declaration makes it, or it
/// is declared elsewhere: bundles); `Err`: the device no longer knows it, or it belongs to
/// another device.
///
/// Over 150 lines, and stays whole: a table, one arm per kind of object the trace declares,
/// each reading that kind's description back from the device; the compiler checks it covers
/// every `ObjectKind`, and the longer readings (slot sets, placements) are functions above.
pub(crate) fn declaration(
    device: &Device,
    names: &dyn Namer,
    object: Obj,
    registered: bool,
) -> Result<Option<Declaration>, String> {
    let Obj::Engine(kind, raw) = object else {
        return Ok(None);
    };
    let name = names.name(object);
    let shown = name.to_string();
    let gone = || match device.lookup_error("capture", kind, raw) {
        // Another device's object (R-OBJ-3): the engine refused every call that named it.
        recorder::Error::ForeignHandle {
            owner, expected, ..
        } => format!(
            "{} {shown} belongs to another device ({owner}), not to device #{expected} that this \
             capture wraps: the engine refused the calls that name it, and a trace cannot name \
             another device's object (R-OBJ-3)",
            kind.name()
        ),
        _ => format!("{} {shown} is no longer known to the device", kind.name()),
    };
    let placement = |resource: Resource| {
        device.placement(resource).map(|p| Placement {
            heap: names.name(Obj::Engine(ObjectKind::Heap, p.heap.raw())),
            offset: p.offset,
        })
    };
    Ok(Some(match kind {
        ObjectKind::Buffer => {
            let buffer = Buffer::from_raw(raw);
            let info = device.buffer_info(buffer).ok_or_else(gone)?;
            Declaration::Buffer {
                name,
                usage: info.usage,
                bind: info.bind,
                size: info.size as u64,
                uav_flag: (info.uav_flag != recorder::UavFlag::None).then_some(info.uav_flag),
                placement: placement(Resource::Buffer(buffer)),
                data: contents::initial_data(device, kind, raw),
            }
        }
        ObjectKind::Texture => {
            let texture = Texture::from_raw(raw);
            let info = device.texture_info(texture).ok_or_else(gone)?;
            if info.back_buffer.is_some() {
                return Ok(None);
            }
            Declaration::Texture {
                name,
                format: form::format(info.format),
                width: info.width as u64,
                height: info.height as u64,
                mips: (info.mip_levels != 1).then_some(info.mip_levels as u64),
                array: (info.array_size != 1).then_some(info.array_size as u64),
                samples: (info.sample_count != 1).then_some(info.sample_count as u64),
                bind: info.bind,
                compressible: (!info.compressible).then_some(false),
                tc: info.texture_compatible.then_some(true),
                dcc: info.dcc.then_some(true),
                placement: placement(Resource::Texture(texture)),
                data: contents::initial_data(device, kind, raw),
            }
        }
        ObjectKind::Heap => Declaration::Heap {
            name,
            size: device.heap_size(Heap::from_raw(raw)).ok_or_else(gone)?,
        },
        ObjectKind::ShaderResourceView
        | ObjectKind::UnorderedAccessView
        | ObjectKind::RenderTargetView
        | ObjectKind::DepthStencilView => {
            let info = view_info(device, kind, raw).ok_or_else(gone)?;
            let resource = names.name(super::log::resource_obj(info.resource));
            match kind {
                ObjectKind::ShaderResourceView => {
                    let now =
                        || device.shader_resource_view_min_lod(ShaderResourceView::from_raw(raw));
                    Declaration::ShaderResourceView {
                        name,
                        resource,
                        min_lod: match info.min_lod {
                            // A descriptor's is part of its composition: written always (not
                            // writing it asks for the default).
                            ViewMinLod::Composed => now(),
                            ViewMinLod::ComposedDefault => None,
                            // A view the capture saw made gets its value at the frame's start
                            // from the setup (`set_shader_resource_view_min_lod`); one made
                            // outside, its value now.
                            ViewMinLod::BySemantics if registered => None,
                            ViewMinLod::BySemantics => now().filter(|lod| *lod != 0.0),
                        },
                        composed: info.min_lod.is_composed().then_some(true),
                    }
                }
                ObjectKind::UnorderedAccessView => {
                    Declaration::UnorderedAccessView { name, resource }
                }
                ObjectKind::RenderTargetView => {
                    // A swap chain's own views are its declaration's; another view of a back
                    // buffer is declared (R-EX-7).
                    if let Resource::Texture(t) = info.resource {
                        let chain = device.texture_info(t).and_then(|i| i.back_buffer);
                        let own = chain
                            .and_then(|(chain, _)| device.swap_chain_info(chain))
                            .is_some_and(|c| c.buffers.iter().any(|(_, v)| v.raw() == raw));
                        if own {
                            return Ok(None);
                        }
                    }
                    Declaration::RenderTargetView { name, resource }
                }
                _ => Declaration::DepthStencilView { name, resource },
            }
        }
        ObjectKind::Shader => {
            let info = device.shader_info(Shader::from_raw(raw)).ok_or_else(gone)?;
            Declaration::Shader {
                name,
                stage: info.stage,
                constant_buffers: slot_set(info.constant_buffers.bits()),
                shader_resources: slot_set(info.shader_resources.bits()),
                samplers: slot_set(info.samplers.bits()),
                unordered_access_views: slot_set(info.unordered_access_views.bits()),
                stream_output: info.stream_output.then_some(true),
                code: contents::shader_code(device, raw, &shown)?,
            }
        }
        ObjectKind::InputLayout => Declaration::InputLayout {
            name,
            vertex_buffers: slot_set(
                device
                    .input_layout_slots(InputLayout::from_raw(raw))
                    .ok_or_else(gone)?
                    .bits(),
            ),
            elements: contents::elements(device, raw),
        },
        ObjectKind::BlendState
        | ObjectKind::RasterizerState
        | ObjectKind::DepthStencilState
        | ObjectKind::SamplerState => contents::state(device, kind, raw, name, &shown)?,
        ObjectKind::Query => match device.query_kind(Query::from_raw(raw)).ok_or_else(gone)? {
            recorder::QueryKind::Predicate => Declaration::Predicate { name },
            kind => Declaration::Query { name, kind },
        },
        ObjectKind::SwapChain => {
            let info = device
                .swap_chain_info(SwapChain::from_raw(raw))
                .ok_or_else(gone)?;
            Declaration::Swapchain {
                name,
                buffers: info.buffers.len() as u64,
                format: form::format(info.format),
                width: info.width as u64,
                height: info.height as u64,
            }
        }
        ObjectKind::Bundle => return Ok(None),
    }))
}

/// Whether `object` is a dynamic resource (its records name instances).
pub(super) fn is_dynamic(device: &Device, object: Obj) -> bool {
    dynamic_buffer(device, object).is_some()
}

/// The dynamic buffer whose instances `object`'s records name: itself, or a view's buffer.
pub(super) fn dynamic_buffer(device: &Device, object: Obj) -> Option<Obj> {
    let Obj::Engine(kind, raw) = object else {
        return None;
    };
    let buffer = match kind {
        ObjectKind::Buffer => Buffer::from_raw(raw),
        _ => match view_info(device, kind, raw)?.resource {
            Resource::Buffer(buffer) => buffer,
            Resource::Texture(_) => return None,
        },
    };
    let dynamic = device
        .buffer_info(buffer)
        .is_some_and(|i| i.usage == Usage::Dynamic);
    dynamic.then_some(Obj::Engine(ObjectKind::Buffer, buffer.raw()))
}
