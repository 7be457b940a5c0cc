//! The two barrier calls (SPEC §9, R-BAR-1, R-BAR-6): `barrier(groups)` and
//! `resource_barrier(barriers)`, on any context that records (a bundle refuses them).
//!
//! **In:** the application's barrier groups or legacy resource barriers
//! (`barrier_values.rs`). **Out:** one command per call whose items are the records of
//! `barrier_records.rs`, and the barrier counts in the list's statistics.
//!
//! **Invariant.** A call is refused as a whole (nothing encoded, no reference kept) when a
//! resource it names is released, its groups or a group's barriers are more than the 65,536 a
//! record's 16-bit group and index number (R-BAR-1), or the call does not fit one command; a
//! legacy list holds one reference on each resource it names (R-OBJ-4).

use crate::barriers::{
    for_each_record, BarrierCounts, BarrierGroup, BarrierRecord, NamedResource, ResourceBarrier,
    ResourceBarrierRecord,
};
use crate::call_arguments::{Compression, DecompressKinds, DecompressRegion};
use crate::command::*;
use crate::context::core_access::{Context, CoreAccess};
use crate::context::role::Role;
use crate::context::Recorder;
use crate::device::handle::Texture;
use crate::errors::Error;
use crate::limits::{MAX_BARRIERS_PER_GROUP, MAX_BARRIER_GROUPS};

impl<R: Role> Recorder<R> {
    /// [`BarrierCalls::barrier`](crate::BarrierCalls::barrier): its semantics.
    pub(crate) fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
        self.begin_call();
        if let Err(error) = self.try_barrier(groups) {
            self.fail(error);
        }
    }

    fn try_barrier(&mut self, groups: &[BarrierGroup<'_>]) -> Result<(), Error> {
        const CALL: &str = "barrier";
        // Groups and the barriers of a group are numbered in 16 bits (`BarrierRecord::group`,
        // `index`): past them the call is refused, never wrapped. One comparison per group, on
        // the pass that counts the barriers anyway.
        if groups.len() > MAX_BARRIER_GROUPS {
            return Err(too_many(CALL, "groups", groups.len()));
        }
        let mut count: usize = 0;
        for group in groups {
            if group.len() > MAX_BARRIERS_PER_GROUP {
                return Err(too_many(CALL, "barriers in a group", group.len()));
            }
            // At most 2^16 groups of 2^16 barriers: 2^32, past `usize` only on 32-bit targets.
            count = count.saturating_add(group.len());
        }
        let size = CommandBytes::with_items::<BarrierCounts, BarrierRecord>(count)
            .map_err(|too_large| too_large.error(CALL, format_args!("{count} barriers")))?;
        let mut refused = None;
        let mut retained = 0;
        for_each_record(groups, |record| {
            if refused.is_none() {
                match record.resource().map(|r| self.retain_live(CALL, r)) {
                    Some(Err(error)) => refused = Some(error),
                    Some(Ok(())) => retained += 1,
                    None => {}
                }
            }
        });
        if let Some(error) = refused {
            let mut left = retained;
            for_each_record(groups, |record| {
                if let (Some(r), true) = (record.resource(), left > 0) {
                    left -= 1;
                    self.unretain(r);
                }
            });
            return Err(error);
        }
        let at = self.reserve(size, None);
        // Exact: `count` records fit one command (under 2^20 of them) and `groups` is at most
        // 2^16, both checked above.
        let counts = BarrierCounts {
            barriers: count as u32,
            groups: groups.len() as u32,
        };
        // SAFETY: `at` has `size` bytes: the header, the counts, then `count` records (8-aligned,
        // as every payload is a multiple of 8 bytes).
        let items = unsafe { write_command(at, Opcode::Barrier, 0, None, size, counts) }
            as *mut BarrierRecord;
        let mut k = 0;
        for_each_record(groups, |record| {
            // SAFETY: record `k` of the `count` reserved; `for_each_record` yields `count`.
            unsafe { items.add(k).write(record) };
            k += 1;
        });
        Ok(())
    }

    /// [`BarrierCalls::resource_barrier`](crate::BarrierCalls::resource_barrier): its semantics.
    pub(crate) fn resource_barrier(&mut self, barriers: &[ResourceBarrier]) {
        self.begin_call();
        if let Err(error) = self.try_resource_barrier(barriers) {
            self.fail(error);
        }
    }

    fn try_resource_barrier(&mut self, barriers: &[ResourceBarrier]) -> Result<(), Error> {
        const CALL: &str = "resource_barrier";
        let count = barriers.len();
        // Each legacy barrier runs as a group of its own, numbered in 16 bits by the GPU model's
        // messages, as `barrier`'s are.
        if count > MAX_BARRIERS_PER_GROUP {
            return Err(too_many(CALL, "barriers", count));
        }
        let size = CommandBytes::with_items::<BarrierCounts, ResourceBarrierRecord>(count)
            .map_err(|too_large| too_large.error(CALL, format_args!("{count} barriers")))?;
        let named = |record: &ResourceBarrierRecord| [record.resource(), record.other()];
        let records = barriers.iter().map(ResourceBarrierRecord::new);
        let mut retained = 0;
        for record in records.clone() {
            for resource in named(&record).into_iter().flatten() {
                if let Err(error) = self.retain_live(CALL, resource) {
                    for resource in records
                        .clone()
                        .flat_map(|r| named(&r))
                        .flatten()
                        .take(retained)
                    {
                        self.unretain(resource);
                    }
                    return Err(error);
                }
                retained += 1;
            }
        }
        let at = self.reserve(size, None);
        // Exact: at most 2^16 barriers, checked above.
        let counts = BarrierCounts {
            barriers: count as u32,
            groups: 0,
        };
        // SAFETY: `at` has `size` bytes: the header, the counts, then `count` records.
        let items = unsafe { write_command(at, Opcode::ResourceBarrier, 0, None, size, counts) }
            as *mut ResourceBarrierRecord;
        for (k, record) in records.enumerate() {
            // SAFETY: record `k` of the `count` reserved.
            unsafe { items.add(k).write(record) };
        }
        Ok(())
    }

    /// Refuses a released resource; in a legacy list, takes a reference on a live one
    /// (R-OBJ-4).
    fn retain_live(&mut self, call: &'static str, resource: NamedResource) -> Result<(), Error> {
        if !self.device.is_live(resource.kind, resource.handle) {
            return Err(self
                .device
                .stale_error(call, resource.kind, resource.handle));
        }
        self.retain(resource.kind, resource.handle, 1, call)
    }

    /// Gives back a reference [`retain_live`](Self::retain_live) took.
    fn unretain(&mut self, resource: NamedResource) {
        self.release_retained(resource.kind, resource.handle);
    }
}

/// The refusal of a barrier call with more `what` than 16 bits number (R-BAR-1).
#[cold]
#[inline(never)]
fn too_many(call: &'static str, what: &'static str, given: usize) -> Error {
    Error::OutOfRange {
        call,
        argument: what,
        value: given.to_string(),
        allowed: format!(
            "at most {MAX_BARRIER_GROUPS} groups of at most {MAX_BARRIERS_PER_GROUP} barriers \
             each: a barrier's group and index are 16-bit numbers (R-BAR-1)"
        )
        .into(),
    }
}

/// Barriers, decompression and compression state (R-BAR-1, R-BAR-6, R-ST-9): deferred and
/// immediate contexts (R-B-8).
pub trait BarrierCalls: Context {
    /// Enhanced barriers in groups (`Barrier`, R-BAR-1); refused on a bundle recorder.
    ///
    /// `Barrier`: records the groups as one command (R-BAR-1); the GPU model carries them out
    /// and, under validation, checks them (R-BAR-8). Refused on a bundle recorder
    /// (`unsupported_in_bundle`, by the `bundles` crate), for a released resource
    /// (`released_object`), past 65,536 groups or 65,536 barriers in a group
    /// (`invalid_argument`: they are numbered in 16 bits) or past one command's size. Allocates
    /// nothing.
    #[inline]
    fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
        self.recorder(CoreAccess(())).barrier(groups)
    }

    /// Legacy resource barriers (`ResourceBarrier`, R-BAR-6); refused on a bundle recorder.
    ///
    /// `ResourceBarrier`: records legacy barriers as one command (R-BAR-6); the GPU model
    /// translates them to enhanced ones. Refused as [`barrier`](Self::barrier) is (past 65,536
    /// barriers in the call: each is a group of its own).
    #[inline]
    fn resource_barrier(&mut self, barriers: &[ResourceBarrier]) {
        self.recorder(CoreAccess(())).resource_barrier(barriers)
    }

    /// Decompresses a texture's color or depth compression (`DecompressResource`).
    ///
    /// Decompresses a compressible target in place, or into `into` (keeping the original
    /// compressed). Explicit under fast semantics (R-SP-3, R-ST-9).
    #[inline]
    fn decompress_resource(&mut self, texture: Texture, into: Option<Texture>) {
        self.recorder(CoreAccess(()))
            .decompress_resource(texture, into, DecompressKinds::ALL, None)
    }

    /// Decompresses some kinds of a texture's compression, or a sub-region of it
    /// (`DecompressResourceX`, R-ST-9).
    ///
    /// `kinds` limits the decompression (seed 000: "only gather the FMask in a compressed render
    /// target"): each kind named must be one the texture has (`fmask` a multisampled colour
    /// target, `dcc` one created with DCC, `depth`/`stencil` a depth format with that plane);
    /// [`DecompressKinds::ALL`] is every kind it has. `region` limits it to one subresource's
    /// rectangle, within the subresource. The model tracks compression per resource: a region
    /// that leaves part of the resource out, or kinds that leave one compressed, leave the
    /// resource compressed. `into` writes the decompressed texels into a second texture of the
    /// same size and planes (colour into colour, depth into depth) and leaves `texture`
    /// compressed; it takes no `kinds`.
    #[inline]
    fn decompress_resource_x(
        &mut self,
        texture: Texture,
        into: Option<Texture>,
        kinds: DecompressKinds,
        region: Option<DecompressRegion>,
    ) {
        self.recorder(CoreAccess(()))
            .decompress_resource(texture, into, kinds, region)
    }

    /// Marks a texture compressed or not (`SetResourceCompression`).
    ///
    /// Overrides a target's compression state when the list executes (R-ST-9).
    #[inline]
    fn set_resource_compression(&mut self, texture: Texture, compressed: Compression) {
        self.recorder(CoreAccess(()))
            .set_resource_compression(texture, compressed)
    }
}
