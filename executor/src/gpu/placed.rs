//! Placed resources and aliasing in the GPU model (SPEC R-BAR-7, R-BAR-1): which of the placed
//! resources that share bytes of a heap is active now, and the region copies.
//!
//! **In:** the barriers the model accepts (`GpuModel::barrier` / `resource_barrier` in
//! `gpu/barrier_response.rs` call `GpuModel::placed_barrier` / `GpuModel::placed_resource_barrier` for
//! each barrier they run; a refused one has no effect, R-BAR-8), the region copies (`gpu.rs` calls `GpuModel::copy_region` for
//! `CopyBufferRegion` and `CopyTextureRegion`), and the device, for each resource's heap and byte
//! range (`recorder::Device::placed_range`). **Out:** `GpuModel::is_active` and
//! `GpuModel::deactivated_by`, which the hazard tracking (R-V-2: "using a deactivated alias is
//! a hazard", `gpu/hazard_tracking.rs`) reads at every use, and, under hazard validation, each
//! activation and deactivation handed to the tracker with the call that made it (so that its
//! report names that call); this file reports nothing itself.
//!
//! **Activation.** A placed resource is activated by
//! - an enhanced texture barrier with `layout_before = undefined` and `access_before = no_access`
//!   (R-BAR-7, the seed's `pTex1` example; with `discard` it also initialises the metadata, which
//!   the barrier model counts), whatever its subresource range;
//! - an enhanced buffer barrier with `access_before = no_access` (buffers have no layout: D3D12's
//!   enhanced-barrier spec activates an aliased buffer with `NO_ACCESS` before);
//! - a legacy `resource_barrier aliasing BEFORE AFTER`: AFTER is activated; BEFORE is deactivated
//!   (with AFTER null: only BEFORE is; both null: nothing, as D3D12 says "any" resource may be
//!   next, the model cannot tell which).
//!
//! Activating one deactivates every other placed resource whose byte range of the same heap
//! overlaps it (R-BAR-1), including resources the model has not seen yet and resources created
//! later over those bytes: a resource placed over bytes another resource was activated on needs
//! its own activation.
//!
//! **At creation** (the spec is silent; D3D12 says only that a new placed resource's contents are
//! undefined): a placed resource is active unless a resource overlapping it has been activated
//! since its own last activation (never, for a new one). So a heap nobody activates anything in
//! behaves as separate memory (every resource active, no report), and the first activation in a
//! heap is what starts the tracking. A committed resource (no heap) is always active.
//!
//! **What it keeps**, per resource the model saw activated, its heap, range and the sequence
//! number of its last activation, and per resource deactivated by name (a legacy BEFORE) the
//! sequence number of that deactivation. A resource is inactive when it was deactivated by name
//! after its last activation, or another resource overlapping it was activated after it. An
//! activation drops the entries of the resources entirely inside its range (they are inactive
//! for good, or until activated again, and cover nothing the new one does not): the map stays as
//! large as the set of resources that partition the heaps, however many activations run.
//!
//! **Without a device** (a `GpuModel` made alone, not by an immediate context) nothing is
//! placed and every resource is active.

use std::collections::HashMap;

use recorder::command::BoundResource;
use recorder::{
    BarrierAccess, BarrierKind, BarrierLayout, BarrierRecord, BarrierSync, Buffer, Device, Handle,
    NamedResource, ObjectKind, RawHandle, Resource, ResourceBarrierKind, ResourceBarrierRecord,
    Semantics, Texture,
};

use super::GpuModel;

/// One activation: the resource's heap and byte range when it was activated, and when.
#[derive(Clone, Copy, Debug)]
struct Activation {
    heap: RawHandle,
    start: u64,
    end: u64,
    sequence: u64,
}

/// The aliasing state of the GPU model. See the module essay.
#[derive(Debug, Default)]
pub(super) struct Placed {
    /// The device whose placed resources are tracked.
    device: Option<Device>,
    /// The sequence number of the last activation or deactivation (0: none yet).
    sequence: u64,
    activations: HashMap<Resource, Activation>,
    deactivations: HashMap<Resource, u64>,
}

impl Placed {
    fn range(&self, resource: Resource) -> Option<(RawHandle, u64, u64)> {
        let (heap, start, end) = self.device.as_ref()?.placed_range(resource)?;
        Some((heap.raw(), start, end))
    }

    /// Activates `resource`; `false` when it is not placed (nothing to do).
    fn activate(&mut self, resource: Resource) -> bool {
        let Some((heap, start, end)) = self.range(resource) else {
            return false;
        };
        self.sequence += 1;
        // Everything entirely inside the new range is deactivated by it for good (see the essay).
        self.activations.retain(|other, a| {
            *other == resource || a.heap != heap || a.start < start || a.end > end
        });
        self.activations.insert(
            resource,
            Activation {
                heap,
                start,
                end,
                sequence: self.sequence,
            },
        );
        self.deactivations.remove(&resource);
        true
    }

    /// Deactivates `resource` by name; `false` when it is not placed.
    fn deactivate(&mut self, resource: Resource) -> bool {
        if self.range(resource).is_none() {
            return false;
        }
        self.sequence += 1;
        self.deactivations.insert(resource, self.sequence);
        true
    }

    /// Whether the model keeps anything of `resource` (an activation or a deactivation by name
    /// that can still decide an answer of [`deactivated_by`](Self::deactivated_by)).
    pub(super) fn remembers(&self, resource: Resource) -> bool {
        self.activations.contains_key(&resource) || self.deactivations.contains_key(&resource)
    }

    /// How many resources the model keeps something of.
    pub(super) fn remembered(&self) -> usize {
        self.activations.len() + self.deactivations.len()
    }

    /// The latest resource whose activation deactivated `resource`, else `resource` itself when
    /// a legacy aliasing barrier deactivated it by name; `None` while it is active. The hazard
    /// tracker (`gpu/hazard_tracking.rs`) asks it of every resource a call uses.
    pub(super) fn deactivated_by(&self, resource: Resource) -> Option<Resource> {
        if self.activations.is_empty() && self.deactivations.is_empty() {
            // Nothing was ever activated: every resource is active, no device lookup.
            return None;
        }
        let (heap, start, end) = self.range(resource)?;
        let own = self.activations.get(&resource).map_or(0, |a| a.sequence);
        // The latest overlapping activation after its own names the alias active over its
        // bytes (deterministic whatever the map's order: sequence numbers are unique).
        let alias = self
            .activations
            .iter()
            .filter(|(other, a)| {
                **other != resource
                    && a.heap == heap
                    && a.start < end
                    && start < a.end
                    && a.sequence > own
            })
            .max_by_key(|(_, a)| a.sequence)
            .map(|(other, _)| *other);
        let by_name = self.deactivations.get(&resource).is_some_and(|&d| d > own);
        alias.or(by_name.then_some(resource))
    }
}

/// The resource a barrier record names, as a [`Resource`].
fn as_resource(named: Option<NamedResource>) -> Option<Resource> {
    let named = named?;
    if named.handle.is_null() {
        return None;
    }
    match named.kind {
        ObjectKind::Buffer => Some(Resource::Buffer(Buffer::from_raw(named.handle))),
        ObjectKind::Texture => Some(Resource::Texture(Texture::from_raw(named.handle))),
        _ => None,
    }
}

/// The resource a copy command names.
fn bound_resource(bound: BoundResource) -> Resource {
    if bound.is_texture != 0 {
        Resource::Texture(Texture::from_raw(bound.resource))
    } else {
        Resource::Buffer(Buffer::from_raw(bound.resource))
    }
}

/// Whether an enhanced barrier activates its resource (see the module essay).
fn activates(record: &BarrierRecord) -> bool {
    match record.kind() {
        BarrierKind::Texture => {
            record.layout_before() == BarrierLayout::Undefined
                && record.access_before == BarrierAccess::NO_ACCESS
        }
        BarrierKind::Buffer => record.access_before == BarrierAccess::NO_ACCESS,
        BarrierKind::Global => false,
    }
}

impl GpuModel {
    /// Tracks the placed resources of `device` (R-BAR-7): which aliased resource is active. The
    /// immediate context sets it when it makes its model; without it every resource is active.
    pub fn track_placed_resources(&mut self, device: Option<Device>) {
        self.placed.device = device;
    }

    /// Whether `resource` is active now (R-BAR-7, R-BAR-1): `true` for a committed resource and
    /// for a placed one no overlapping activation has deactivated since its own (see
    /// `gpu/placed.rs`). A use of a resource for which this is `false` is a use of a
    /// deactivated alias: the hazard tracking (R-V-2) reports it, naming
    /// [`deactivated_by`](Self::deactivated_by).
    pub fn is_active(&self, resource: Resource) -> bool {
        self.placed.deactivated_by(resource).is_none()
    }

    /// For a deactivated placed resource, the latest resource whose activation deactivated it
    /// (the alias active over its bytes), else the resource itself when a legacy aliasing
    /// barrier named it as its `before` and nothing overlapping was activated since; `None`
    /// while it is active (R-BAR-7).
    pub fn deactivated_by(&self, resource: Resource) -> Option<Resource> {
        self.placed.deactivated_by(resource)
    }

    /// The activation an accepted enhanced barrier makes (R-BAR-7): called by
    /// `GpuModel::barrier` for each barrier it runs, in order, and never for one it refused
    /// (R-BAR-8: a refused barrier has no effect). A split barrier's end activates nothing (its
    /// begin did, R-BAR-4).
    pub(super) fn placed_barrier(&mut self, record: &BarrierRecord) {
        if self.placed.device.is_none()
            || !activates(record)
            || record.sync_before.contains(BarrierSync::SPLIT)
        {
            return;
        }
        if let Some(resource) = as_resource(record.resource()) {
            if self.placed.activate(resource) {
                self.hazards_activated(resource, true);
            }
        }
    }

    /// What an accepted legacy aliasing barrier activates and deactivates (R-BAR-7): called by
    /// `GpuModel::resource_barrier` for each legacy barrier it runs, in order.
    pub(super) fn placed_resource_barrier(&mut self, record: &ResourceBarrierRecord) {
        if self.placed.device.is_none() || record.kind() != ResourceBarrierKind::Aliasing {
            return;
        }
        if let Some(after) = as_resource(record.other()) {
            if self.placed.activate(after) {
                self.hazards_activated(after, true);
            }
        }
        if let Some(before) = as_resource(record.resource()) {
            if Some(before) != as_resource(record.other()) && self.placed.deactivate(before) {
                self.hazards_activated(before, false);
            }
        }
    }

    /// A region copy (`copy_buffer_region`, `copy_texture_region`, R-BAR-7): what
    /// `copy_resource` gets, uses of both resources and, under validation, the checks of a copy
    /// from or to a compressed texture and of a first write to a back buffer. A self-copy uses
    /// its resource once.
    pub(super) fn copy_region(
        &mut self,
        call: &'static str,
        semantics: Semantics,
        destination: BoundResource,
        source: BoundResource,
    ) {
        self.use_resource(semantics, destination.resource);
        if bound_resource(source) != bound_resource(destination) {
            self.use_resource(semantics, source.resource);
        }
        if destination.is_texture != 0 && self.validates(semantics) {
            self.check_back_buffer_write(call, destination.resource);
            self.validate_copy(call, destination, source);
        }
        if semantics == Semantics::Legacy {
            // The driver decompresses a compressed texture it copies (R-ST-9).
            self.legacy_copy_decompresses(destination, source);
        }
    }
}
