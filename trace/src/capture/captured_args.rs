//! The arguments of captured calls in the trace's form: objects as [`Obj`], slices as vectors,
//! barrier groups as the trace's barriers. Used by the capability files and the immediate
//! context's capture.
//!
//! **In:** the engine's argument types. **Out:** the values of [`Method`]'s captured form.
//!
//! **Invariant.** A conversion keeps every value the trace writes; what the format has no word
//! for is dropped (`form.rs` says which).

use recorder::{BarrierGroup, BufferBarrier, Handle, ObjectKind, ResourceBarrier};

use super::arena::{List, Lists};
use super::form::{Captured, Obj};
use super::log::resource_obj;
use crate::syntax::ast::{Barrier, BeforeAfter, FastEntry, FastKind, LegacyBarrier, VertexBinding};

pub(crate) fn fit(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

pub(crate) fn objs<H: Handle>(
    lists: &mut Lists,
    kind: ObjectKind,
    handles: &[Option<H>],
) -> List<Option<Obj>> {
    lists.map(handles, |h| h.map(|h| Obj::of(kind, h)))
}

/// A vertex-buffer binding as the trace's (R-GPU-2): the buffer, its stride and offset.
pub(crate) fn vertex_binding(binding: &recorder::VertexBuffer) -> VertexBinding<Option<Obj>> {
    VertexBinding {
        buffer: binding.buffer.map(|b| Obj::of(ObjectKind::Buffer, b)),
        stride: binding.stride,
        offset: binding.offset,
    }
}

/// `set_fast_resources` entries as the trace's (R-FX-1; a vertex buffer's with its stride and
/// offset, R-GPU-2).
pub(crate) fn fast_entries(
    lists: &mut Lists,
    entries: &[recorder::FastResource],
) -> List<FastEntry<Captured>> {
    use recorder::FastResource as F;
    lists.list(entries.iter().map(|entry| match *entry {
        F::ConstantBuffer {
            stage,
            slot,
            buffer,
        } => FastEntry {
            kind: FastKind::ConstantBuffer,
            stage: Some(stage),
            slot,
            object: buffer.map(|b| Obj::of(ObjectKind::Buffer, b)),
            vertex: [0, 0],
        },
        F::ShaderResource { stage, slot, view } => FastEntry {
            kind: FastKind::ShaderResource,
            stage: Some(stage),
            slot,
            object: view.map(|v| Obj::of(ObjectKind::ShaderResourceView, v)),
            vertex: [0, 0],
        },
        F::Sampler {
            stage,
            slot,
            sampler,
        } => FastEntry {
            kind: FastKind::Sampler,
            stage: Some(stage),
            slot,
            object: sampler.map(|s| Obj::of(ObjectKind::SamplerState, s)),
            vertex: [0, 0],
        },
        F::VertexBuffer { slot, buffer } => FastEntry {
            kind: FastKind::VertexBuffer,
            stage: None,
            slot,
            object: buffer.buffer.map(|b| Obj::of(ObjectKind::Buffer, b)),
            vertex: [buffer.stride, buffer.offset],
        },
    }))
}

/// A `barrier` call's groups as the trace's barriers.
pub(crate) fn barriers(lists: &mut Lists, groups: &[BarrierGroup<'_>]) -> List<Barrier<Captured>> {
    lists.list_with(|out| {
        for group in groups {
            barriers_of(group, out)
        }
    })
}

/// One group's barriers as the trace's, after `out`'s.
fn barriers_of(group: &BarrierGroup<'_>, out: &mut impl Extend<Barrier<Captured>>) {
    {
        match group {
            BarrierGroup::Global(all) => out.extend(all.iter().map(|b| Barrier::Global {
                sync: BeforeAfter {
                    before: b.sync_before,
                    after: b.sync_after,
                },
                access: BeforeAfter {
                    before: b.access_before,
                    after: b.access_after,
                },
            })),
            BarrierGroup::Buffer(all) => out.extend(all.iter().map(|b| Barrier::Buffer {
                resource: resource_obj(b.resource),
                sync: BeforeAfter {
                    before: b.sync_before,
                    after: b.sync_after,
                },
                access: BeforeAfter {
                    before: b.access_before,
                    after: b.access_after,
                },
                size: (b.size != BufferBarrier::WHOLE).then_some(b.size),
            })),
            BarrierGroup::Texture(all) => out.extend(all.iter().map(|b| Barrier::Texture {
                resource: resource_obj(b.resource),
                sync: BeforeAfter {
                    before: b.sync_before,
                    after: b.sync_after,
                },
                access: BeforeAfter {
                    before: b.access_before,
                    after: b.access_after,
                },
                layout: BeforeAfter {
                    before: b.layout_before,
                    after: b.layout_after,
                },
                mips: b.subresources.mips,
                array: b.subresources.array,
                planes: b.subresources.planes,
                discard: b.discard,
            })),
        }
    }
}

/// A legacy `resource_barrier` as the trace's statement.
pub(crate) fn legacy_barrier(barrier: &ResourceBarrier) -> LegacyBarrier<Captured> {
    match *barrier {
        ResourceBarrier::Transition {
            resource,
            before,
            after,
            subresource,
            split,
        } => LegacyBarrier::Transition {
            resource: resource_obj(resource),
            before,
            after,
            subresource,
            split: Some(split),
        },
        ResourceBarrier::Uav { resource } => LegacyBarrier::Uav {
            resource: resource.map(resource_obj),
        },
        ResourceBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
            before: before.map(resource_obj),
            after: after.map(resource_obj),
        },
    }
}
