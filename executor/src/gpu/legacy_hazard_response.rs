//! The driver's hazard response under legacy semantics (R-ST-10), as the GPU model counts it.
//!
//! The recorder keeps a legacy context's input and output bindings apart (`recorder`'s
//! `hazard.rs`); what is left for the hardware is the transition itself: a resource a legacy
//! draw or dispatch wrote (render target, depth stencil, UAV) and a later one reads through a
//! shader-resource view, or the reverse, needs the pipeline drained and the caches flushed
//! between the two. The model counts one cache flush per resource per such transition
//! (`cache_flushes`); the drain that goes with it has no counter of its own yet.
//!
//! **What counts as a use.** What the draw's record holds: the shader-resource views at the
//! slots the bound shaders read (input), the UAVs at the slots they read, the bound render
//! targets and the depth stencil (output; the engine has no read-only depth-stencil views). A
//! view bound at a slot no shader reads is not used, and a bind alone is no use: the response is
//! owed between draws, so rebinding without drawing costs nothing. A resource both read and
//! written by one draw (which legacy binding rules prevent; only a fast bundle's binds inside a
//! legacy list could do it, and bundle draws are fast) counts as written.
//!
//! **Which draws.** Legacy ones only, in the order the model consumes them: across command lists
//! and direct calls alike, as the driver responds across lists too (R-V-2), and unaffected by
//! ClearState, a state restore (R-ST-2) or a list boundary, since the transition belongs to the
//! resource, not to the bindings. Fast draws, bundle draws included, neither count nor change
//! what the last legacy use was: the driver does not see them (seed 000), the application's
//! barriers synchronise (§9).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use recorder::command::ViewFlags;
use recorder::RawHandle;

use crate::draw_record::{Draw, ViewRecord};
use crate::progress::HandleHasher;

/// How a legacy draw last used a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

/// The last legacy use of every resource a legacy draw used, keyed by handle and whether it is
/// a buffer (buffers and textures have separate index spaces).
#[derive(Debug, Default)]
pub(super) struct LastUses {
    last: HashMap<(RawHandle, bool), Access, BuildHasherDefault<HandleHasher>>,
    /// The resources the draw being noted writes (kept, so that noting allocates nothing once
    /// warm).
    writes: Vec<(RawHandle, bool)>,
}

impl LastUses {
    /// Notes the uses of a legacy draw or dispatch; returns the transitions it makes, each a
    /// drain and a cache flush.
    pub(super) fn legacy_draw(&mut self, record: &Draw<'_>) -> u64 {
        let mut writes = std::mem::take(&mut self.writes);
        writes.clear();
        if let Some(g) = record.graphics() {
            let targets = g
                .render_targets
                .iter()
                .chain(std::iter::once(&g.depth_stencil));
            writes.extend(targets.filter(|v| !v.resource.is_null()).map(key));
        }
        for stage in record.stages() {
            let uavs = stage.unordered_access_views.iter().map(|(_, v)| v);
            writes.extend(uavs.filter(|v| !v.resource.is_null()).map(key));
        }
        let mut transitions = 0;
        for &write in &writes {
            transitions += self.used(write, Access::Write) as u64;
        }
        for stage in record.stages() {
            let reads = stage.shader_resources.iter().map(|(_, v)| v);
            for view in reads.filter(|v| !v.resource.is_null()) {
                if !writes.contains(&key(view)) {
                    transitions += self.used(key(view), Access::Read) as u64;
                }
            }
        }
        self.writes = writes;
        transitions
    }

    /// Notes one use; whether it is a transition from the last one.
    fn used(&mut self, key: (RawHandle, bool), access: Access) -> bool {
        let before = self.last.insert(key, access);
        before.is_some_and(|before| before != access)
    }
}
fn key(view: &ViewRecord) -> (RawHandle, bool) {
    (view.resource, view.flags.has(ViewFlags::BUFFER))
}
