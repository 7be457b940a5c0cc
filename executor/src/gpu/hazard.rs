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

use recorder::command::ViewFlags;
use recorder::RawHandle;

use crate::draw_record::{Draw, ViewRecord};

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
    last: HashMap<(RawHandle, bool), Access>,
}

impl LastUses {
    /// Notes the uses of a legacy draw or dispatch; returns the transitions it makes, each a
    /// drain and a cache flush.
    pub(super) fn legacy_draw(&mut self, record: &Draw<'_>) -> u64 {
        let writes = || {
            let graphics = record.graphics().into_iter().flat_map(|g| {
                g.render_targets
                    .iter()
                    .copied()
                    .chain(std::iter::once(g.depth_stencil))
            });
            let uavs = record
                .stages()
                .flat_map(|s| s.unordered_access_views.iter().map(|(_, v)| *v));
            graphics.chain(uavs).filter(|v| !v.resource.is_null())
        };
        let mut transitions = 0;
        for view in writes() {
            transitions += self.used(&view, Access::Write) as u64;
        }
        let reads = record
            .stages()
            .flat_map(|s| s.shader_resources.iter().map(|(_, v)| v))
            .filter(|v| !v.resource.is_null());
        for view in reads {
            let written = writes().any(|w| key(&w) == key(view));
            if !written {
                transitions += self.used(view, Access::Read) as u64;
            }
        }
        transitions
    }

    /// Notes one use; whether it is a transition from the last one.
    fn used(&mut self, view: &ViewRecord, access: Access) -> bool {
        let before = self.last.insert(key(view), access);
        before.is_some_and(|before| before != access)
    }
}

fn key(view: &ViewRecord) -> (RawHandle, bool) {
    (view.resource, view.flags.has(ViewFlags::BUFFER))
}
