//! The reference's GPU side: one [`GpuModel`] that the reference's immediate recorders feed,
//! each batch with the semantics of the recorder that made it, every dynamic instance renamed
//! to one the whole reference agrees on.
//!
//! **Why renaming.** The reference issues a list's calls on a fresh immediate recorder of the
//! list's semantics each time the list runs (so the list's maps make instances local to the
//! list, R-ST-8), and the direct calls on the long-lived immediate recorder; every one of those
//! recorders numbers its instances from 1. Here each instance a batch's map makes gets a fresh
//! reference-wide id, named by the map statement's K, and every binding is rewritten to it.
//! A binding of a dynamic resource that a list did not map reads the immediate context's
//! current instance, as the list's split point would (R-SP-4): the fresh recorder reports the
//! creation contents, and this is where that becomes the immediate context's instance.
//!
//! **In:** batches (`Recorder::take_batch` of an immediate recorder), their semantics,
//! their scope. **Out:** the draw records and the names of their instances.

use std::collections::{HashMap, HashSet};

use recorder::command::{BoundBuffer, BoundView, Command, InstanceId, ViewFlags};
use recorder::{CommandList, RawHandle, Semantics, SplitCategory};

use executor::GpuModel;

/// The reference-wide ids: `recorder` never used by an engine recorder.
const REFERENCE: u32 = u32::MAX - 1;

/// Which recorder a batch comes from: its instances and whether it records a list.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    /// The recorder's instance ids → reference-wide ids.
    local: HashMap<InstanceId, InstanceId>,
    /// A list's recorder (its unmapped dynamic bindings read the immediate instance).
    list: bool,
    /// The last reference-wide instance of each resource the scope made current, by its own
    /// maps or a nested legacy list's (R-ST-8: what a legacy list leaves behind).
    pub(crate) last: HashMap<RawHandle, InstanceId>,
}

impl Scope {
    pub(crate) fn list() -> Self {
        Self {
            local: HashMap::new(),
            list: true,
            last: HashMap::new(),
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Feed {
    /// The GPU model the reference feeds, call by call.
    pub gpu: GpuModel,
    next: u32,
    /// Reference-wide instance → K.
    pub instances: HashMap<InstanceId, u32>,
    /// The immediate context's current instance of each dynamic buffer.
    pub(crate) current: HashMap<RawHandle, InstanceId>,
    /// The dynamic buffers the trace declared, by handle: a list's binding of one at its initial
    /// instance reads the immediate context's current instance (`current`).
    pub dynamic_buffers: HashSet<RawHandle>,
}

impl Feed {
    /// Consumes `batch` (recorded with `semantics`, in `scope`). `k`: the instance number of
    /// the write_discard map the batch holds, if it holds one.
    pub(crate) fn consume(
        &mut self,
        batch: &CommandList,
        semantics: Semantics,
        scope: &mut Scope,
        k: Option<u32>,
    ) {
        for decoded in batch.commands() {
            if let Command::MapWriteDiscard { resource, .. } = decoded.command {
                self.next += 1;
                let id = InstanceId::new(REFERENCE, self.next);
                scope.local.insert(resource.instance, id);
                scope.last.insert(resource.resource, id);
                if let Some(k) = k {
                    self.instances.insert(id, k);
                }
                if !scope.list {
                    self.current.insert(resource.resource, id);
                }
            }
            if decoded.split == Some(SplitCategory::Decompression) {
                // Legacy: binding a view of a compressed target decompresses it (R-ST-9).
                for view in decoded.command.shader_views() {
                    if !view.flags.has(ViewFlags::BUFFER) {
                        self.gpu.decompress_if_compressed(view.resource);
                    }
                }
            }
            let rename = |resource: RawHandle, instance: InstanceId, dynamic: bool| match scope
                .local
                .get(&instance)
            {
                Some(id) => *id,
                None if instance == InstanceId::INITIAL && dynamic && scope.list => self
                    .current
                    .get(&resource)
                    .copied()
                    .unwrap_or(InstanceId::INITIAL),
                None => instance,
            };
            let buffer = |b: &BoundBuffer| BoundBuffer {
                instance: rename(
                    b.buffer,
                    b.instance,
                    self.dynamic_buffers.contains(&b.buffer),
                ),
                ..*b
            };
            let view = |v: &BoundView| BoundView {
                instance: rename(v.resource, v.instance, v.flags.has(ViewFlags::DYNAMIC)),
                ..*v
            };
            let gpu = &mut self.gpu;
            decoded
                .command
                .with_bindings(buffer, view, |command| gpu.execute(command, semantics));
        }
        self.gpu.progress_mut().kickoff();
    }
}
