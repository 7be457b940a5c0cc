//! The barrier records a list stores (R-BAR-1, R-BAR-6): [`BarrierRecord`] (64 bytes) for an
//! enhanced barrier, [`ResourceBarrierRecord`] (32 bytes) for a legacy one, each naming its
//! resource as a [`NamedResource`], and the per-list [`BarrierCounts`].
//!
//! **In:** the values of `barrier_values.rs`. **Out:** `repr(C)` records that the barrier commands
//! carry as their items and the GPU model reads in place (`executor/src/gpu/barrier.rs`).
//!
//! **Invariant.** The sizes are pinned by const assertions; a record round-trips every field of
//! the value it was made from.

use crate::barriers::barrier_values::*;
use crate::device::handle::{ObjectKind, RawHandle, Resource};

/// A resource as a barrier record names it: the handle and which table it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NamedResource {
    /// The handle ([`RawHandle::NULL`] for none).
    pub handle: RawHandle,
    /// `ObjectKind::Buffer` or `ObjectKind::Texture` (any, for a null handle).
    pub kind: ObjectKind,
}

/// Which table a recorded resource is in, as records store it.
const NO_RESOURCE: u8 = 0;
const BUFFER: u8 = 1;
const TEXTURE: u8 = 2;

fn resource_kind(resource: Option<Resource>) -> u8 {
    match resource {
        None => NO_RESOURCE,
        Some(Resource::Buffer(_)) => BUFFER,
        Some(Resource::Texture(_)) => TEXTURE,
    }
}

fn named(handle: RawHandle, kind: u8) -> Option<NamedResource> {
    let kind = match kind {
        BUFFER => ObjectKind::Buffer,
        TEXTURE => ObjectKind::Texture,
        _ => return None,
    };
    Some(NamedResource { handle, kind })
}

/// One enhanced barrier as a list stores it and the GPU model reads it, in place: 64 bytes, plain
/// integers (any bit pattern is a value; the accessors turn them into the types above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct BarrierRecord {
    resource: RawHandle,
    /// A buffer barrier's offset.
    pub offset: u64,
    /// A buffer barrier's size ([`BufferBarrier::WHOLE`]).
    pub size: u64,
    /// The work waited for.
    pub sync_before: BarrierSync,
    /// The work held.
    pub sync_after: BarrierSync,
    /// The access before.
    pub access_before: BarrierAccess,
    /// The access after.
    pub access_after: BarrierAccess,
    /// A texture barrier's subresources.
    pub subresources: BarrierSubresources,
    kind: u8,
    resource_kind: u8,
    layout_before: u8,
    layout_after: u8,
    /// The barrier's group in its call (0-based).
    pub group: u16,
    /// The barrier's index in its group (0-based).
    pub index: u16,
    discard: u8,
    _pad: [u8; 3],
}

const _: () = assert!(std::mem::size_of::<BarrierRecord>() == 64);

impl BarrierRecord {
    /// The record of barrier `index` of group `group`, both below 2^16: the call past them is
    /// refused before any record is made (`barrier_calls.rs`, `limits::MAX_BARRIER_GROUPS`).
    pub(crate) fn new(kind: BarrierKind, group: usize, index: usize) -> Self {
        Self {
            resource: RawHandle::NULL,
            offset: 0,
            size: BufferBarrier::WHOLE,
            sync_before: BarrierSync::NONE,
            sync_after: BarrierSync::NONE,
            access_before: BarrierAccess::COMMON,
            access_after: BarrierAccess::COMMON,
            subresources: BarrierSubresources::ALL,
            kind: kind as u8,
            resource_kind: NO_RESOURCE,
            layout_before: BarrierLayout::Common as u8,
            layout_after: BarrierLayout::Common as u8,
            group: group as u16,
            index: index as u16,
            discard: 0,
            _pad: [0; 3],
        }
    }

    /// The barrier's type.
    pub fn kind(&self) -> BarrierKind {
        match self.kind {
            0 => BarrierKind::Global,
            1 => BarrierKind::Buffer,
            _ => BarrierKind::Texture,
        }
    }

    /// The resource a buffer or texture barrier names (`None` for a global barrier).
    pub fn resource(&self) -> Option<NamedResource> {
        named(self.resource, self.resource_kind)
    }

    /// A texture barrier's layout before.
    pub fn layout_before(&self) -> BarrierLayout {
        BarrierLayout::from_u8(self.layout_before).unwrap_or_default()
    }

    /// A texture barrier's layout after.
    pub fn layout_after(&self) -> BarrierLayout {
        BarrierLayout::from_u8(self.layout_after).unwrap_or_default()
    }

    /// A texture barrier's discard flag.
    pub fn discard(&self) -> bool {
        self.discard != 0
    }
}

/// One legacy resource barrier as a list stores it and the GPU model reads it: 32 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct ResourceBarrierRecord {
    resource: RawHandle,
    /// An aliasing barrier's `after` resource.
    other: RawHandle,
    /// A transition's state before.
    pub before: ResourceStates,
    /// A transition's state after.
    pub after: ResourceStates,
    /// A transition's subresource (`u32::MAX`: all).
    pub subresource: u32,
    kind: u8,
    resource_kind: u8,
    other_kind: u8,
    split: u8,
}

const _: () = assert!(std::mem::size_of::<ResourceBarrierRecord>() == 32);

/// The three legacy barrier types, as [`ResourceBarrierRecord::kind`] holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceBarrierKind {
    /// `D3D12_RESOURCE_BARRIER_TYPE_TRANSITION`.
    Transition,
    /// `D3D12_RESOURCE_BARRIER_TYPE_UAV`.
    Uav,
    /// `D3D12_RESOURCE_BARRIER_TYPE_ALIASING`.
    Aliasing,
}

impl ResourceBarrierRecord {
    pub(crate) fn new(barrier: &ResourceBarrier) -> Self {
        let mut record = Self {
            resource: RawHandle::NULL,
            other: RawHandle::NULL,
            before: ResourceStates::COMMON,
            after: ResourceStates::COMMON,
            subresource: u32::MAX,
            kind: 0,
            resource_kind: NO_RESOURCE,
            other_kind: NO_RESOURCE,
            split: SplitHalf::None as u8,
        };
        let raw = |r: Option<Resource>| r.map_or(RawHandle::NULL, Resource::raw);
        match *barrier {
            ResourceBarrier::Transition {
                resource,
                before,
                after,
                subresource,
                split,
            } => {
                record.resource = resource.raw();
                record.resource_kind = resource_kind(Some(resource));
                record.before = before;
                record.after = after;
                record.subresource = subresource.unwrap_or(u32::MAX);
                record.split = split as u8;
            }
            ResourceBarrier::Uav { resource } => {
                record.kind = 1;
                record.resource = raw(resource);
                record.resource_kind = resource_kind(resource);
            }
            ResourceBarrier::Aliasing { before, after } => {
                record.kind = 2;
                record.resource = raw(before);
                record.resource_kind = resource_kind(before);
                record.other = raw(after);
                record.other_kind = resource_kind(after);
            }
        }
        record
    }

    /// The barrier's type.
    pub fn kind(&self) -> ResourceBarrierKind {
        match self.kind {
            0 => ResourceBarrierKind::Transition,
            1 => ResourceBarrierKind::Uav,
            _ => ResourceBarrierKind::Aliasing,
        }
    }

    /// The resource: a transition's, a UAV barrier's, an aliasing barrier's `before`.
    pub fn resource(&self) -> Option<NamedResource> {
        named(self.resource, self.resource_kind)
    }

    /// An aliasing barrier's `after`.
    pub fn other(&self) -> Option<NamedResource> {
        named(self.other, self.other_kind)
    }

    /// A transition's subresource (`None`: all).
    pub fn subresource(&self) -> Option<u32> {
        (self.subresource != u32::MAX).then_some(self.subresource)
    }

    /// Which half of a split transition it is.
    pub fn split(&self) -> SplitHalf {
        match self.split {
            1 => SplitHalf::Begin,
            2 => SplitHalf::End,
            _ => SplitHalf::None,
        }
    }
}

/// Calls `f` with each barrier of `groups` as its record, in order.
pub(crate) fn for_each_record(groups: &[BarrierGroup<'_>], mut f: impl FnMut(BarrierRecord)) {
    for (g, group) in groups.iter().enumerate() {
        match *group {
            BarrierGroup::Global(barriers) => {
                for (i, b) in barriers.iter().enumerate() {
                    f(BarrierRecord {
                        sync_before: b.sync_before,
                        sync_after: b.sync_after,
                        access_before: b.access_before,
                        access_after: b.access_after,
                        ..BarrierRecord::new(BarrierKind::Global, g, i)
                    })
                }
            }
            BarrierGroup::Buffer(barriers) => {
                for (i, b) in barriers.iter().enumerate() {
                    f(BarrierRecord {
                        sync_before: b.sync_before,
                        sync_after: b.sync_after,
                        access_before: b.access_before,
                        access_after: b.access_after,
                        resource: b.resource.raw(),
                        resource_kind: resource_kind(Some(b.resource)),
                        offset: b.offset,
                        size: b.size,
                        ..BarrierRecord::new(BarrierKind::Buffer, g, i)
                    })
                }
            }
            BarrierGroup::Texture(barriers) => {
                for (i, b) in barriers.iter().enumerate() {
                    f(BarrierRecord {
                        sync_before: b.sync_before,
                        sync_after: b.sync_after,
                        access_before: b.access_before,
                        access_after: b.access_after,
                        resource: b.resource.raw(),
                        resource_kind: resource_kind(Some(b.resource)),
                        layout_before: b.layout_before as u8,
                        layout_after: b.layout_after as u8,
                        subresources: b.subresources,
                        discard: b.discard as u8,
                        ..BarrierRecord::new(BarrierKind::Texture, g, i)
                    })
                }
            }
        }
    }
}

/// The payload of `Barrier` and `ResourceBarrier`: how many barriers follow, in how many groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct BarrierCounts {
    /// Barriers that follow.
    pub barriers: u32,
    /// Groups they form (0 for legacy barriers).
    pub groups: u32,
}
