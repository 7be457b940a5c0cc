//! The trace's barriers in the engine's types: `barrier`'s BARRIERs grouped as the engine takes
//! them (R-BAR-1) and `resource_barrier`'s legacy barrier.
//!
//! **In:** a lowered barrier list or legacy barrier, the handles the declarations made.
//! **Out:** one `barrier` call on the recorder, or a [`ResourceBarrier`]. **Invariant:**
//! consecutive barriers of one type form one group, in the trace's order.

use recorder::{
    BarrierCalls, BarrierGroup, BarrierKind, BarrierSubresources, BufferBarrier, GlobalBarrier,
    ResourceBarrier, SplitHalf, TextureBarrier,
};

use super::handles::Resolver;
use super::program::Lowered;
use crate::syntax::ast::{Barrier, LegacyBarrier};

/// `barrier`: the BARRIERs in the engine's types, consecutive ones of one type in one group
/// (docs/TRACE.md, R-BAR-1), issued as one call.
pub(super) fn barrier<C: BarrierCalls>(
    recorder: &mut C,
    barriers: &[Barrier<Lowered>],
    objects: &Resolver<'_>,
) {
    let mut globals = Vec::new();
    let mut buffers = Vec::new();
    let mut textures = Vec::new();
    // Each group as (kind, first index, end index) into its vector.
    let mut runs: Vec<(BarrierKind, usize, usize)> = Vec::new();
    for barrier in barriers {
        let (kind, at) = match barrier {
            Barrier::Global { sync, access } => {
                globals.push(GlobalBarrier {
                    sync_before: sync.before,
                    sync_after: sync.after,
                    access_before: access.before,
                    access_after: access.after,
                });
                (BarrierKind::Global, globals.len() - 1)
            }
            Barrier::Buffer {
                resource,
                sync,
                access,
                size,
            } => {
                buffers.push(BufferBarrier {
                    sync_before: sync.before,
                    sync_after: sync.after,
                    access_before: access.before,
                    access_after: access.after,
                    resource: objects.resource(*resource),
                    offset: 0,
                    size: size.unwrap_or(BufferBarrier::WHOLE),
                });
                (BarrierKind::Buffer, buffers.len() - 1)
            }
            Barrier::Texture {
                resource,
                sync,
                access,
                layout,
                mips,
                array,
                planes,
                discard,
            } => {
                textures.push(TextureBarrier {
                    sync_before: sync.before,
                    sync_after: sync.after,
                    access_before: access.before,
                    access_after: access.after,
                    layout_before: layout.before,
                    layout_after: layout.after,
                    resource: objects.resource(*resource),
                    subresources: BarrierSubresources {
                        mips: *mips,
                        array: *array,
                        planes: *planes,
                    },
                    discard: *discard,
                });
                (BarrierKind::Texture, textures.len() - 1)
            }
        };
        match runs.last_mut() {
            Some((last, _, end)) if *last == kind => *end = at + 1,
            _ => runs.push((kind, at, at + 1)),
        }
    }
    let groups: Vec<BarrierGroup<'_>> = runs
        .iter()
        .map(|&(kind, from, to)| match kind {
            BarrierKind::Global => BarrierGroup::Global(&globals[from..to]),
            BarrierKind::Buffer => BarrierGroup::Buffer(&buffers[from..to]),
            BarrierKind::Texture => BarrierGroup::Texture(&textures[from..to]),
        })
        .collect();
    recorder.barrier(&groups);
}

/// `resource_barrier`: the legacy barrier in the engine's type.
pub(super) fn legacy_barrier(
    barrier: &LegacyBarrier<Lowered>,
    objects: &Resolver<'_>,
) -> ResourceBarrier {
    match barrier {
        LegacyBarrier::Transition {
            resource,
            before,
            after,
            subresource,
            split,
        } => ResourceBarrier::Transition {
            resource: objects.resource(*resource),
            before: *before,
            after: *after,
            subresource: *subresource,
            split: split.unwrap_or(SplitHalf::None),
        },
        LegacyBarrier::Uav { resource } => ResourceBarrier::Uav {
            resource: resource.map(|id| objects.resource(id)),
        },
        LegacyBarrier::Aliasing { before, after } => ResourceBarrier::Aliasing {
            before: before.map(|id| objects.resource(id)),
            after: after.map(|id| objects.resource(id)),
        },
    }
}
