//! [`SplitPointQueue`]: split points queued for a GPU model that runs later or on another thread
//! (R-EX-3).
//!
//! **In:** the split points of the lists an execution walks, with the instances their dynamic
//! bindings read. **Out:** each stored decoded, as its typed command, for the model to apply.
//!
//! **Invariant.** One reference per run of split points from the same list keeps the chunks they
//! point into alive; clearing keeps the memory for the next frame.

use super::*;
use crate::command::{Decoded, InstanceId, SplitPoint};
use crate::device::handle::RawHandle;
use crate::sync::Ordering;

/// Split points queued for a GPU model that runs later or on another thread (R-EX-3): each
/// decoded once, with the instance its dynamic binding reads, and stored as its typed command,
/// with one reference per run of split points from the same list instead of one per split point
/// (a split point is about 90 bytes; the queue takes 1,000 of them per execution of a list of
/// 1,000 dynamic binds). Cleared, not freed, between frames.
#[derive(Default)]
pub struct SplitPointQueue {
    /// Borrow the chunks of lists in `lists`, for as long as they are queued (never handed out
    /// as `'static`).
    points: Vec<SplitPoint<'static>>,
    /// The lists the split points come from, each once per run of its split points.
    lists: Vec<CommandList>,
}

// SAFETY: the split points point into chunks of the lists the queue keeps alive, which nobody
// writes any more (a finished list is immutable and `Send + Sync`).
unsafe impl Send for SplitPointQueue {}
// SAFETY: shared access only reads the split points and the immutable chunks they point into.
unsafe impl Sync for SplitPointQueue {}

impl SplitPointQueue {
    /// Queues the split point `decoded` is, its waiting binding reading what `instance` gives
    /// for the resource it names (the executing context's current instance, R-SP-4, R-ST-8);
    /// keeps its list alive. Nothing happens unless `decoded` is a split point that came from
    /// [`CommandList::segments`]. No second decode, no copy of the list.
    #[inline]
    pub fn push(
        &mut self,
        decoded: Decoded<'_>,
        instance: impl FnOnce(RawHandle) -> InstanceId,
    ) -> bool {
        let (Some(site), Some(mut split)) = (decoded.site, SplitPoint::new(decoded)) else {
            return false;
        };
        if let Some(resource) = split.dynamic_resource() {
            split.set_instance(instance(resource));
        }
        let header = site.list.cast::<ListHeader>();
        if self.lists.last().is_none_or(|list| list.header != header) {
            // SAFETY: `header` is the header of the live list the segments borrow; one more
            // reference, which `lists` holds.
            unsafe { header.as_ref() }
                .references
                .fetch_add(1, Ordering::Relaxed);
            self.lists.push(CommandList { header });
        }
        // SAFETY: only the lifetime changes: the split point borrows the chunks of the list whose
        // reference `lists` now holds, alive until `clear`, and `iter` lends split points out
        // only for a borrow of the queue.
        self.points
            .push(unsafe { std::mem::transmute::<SplitPoint<'_>, SplitPoint<'static>>(split) });
        true
    }

    /// The split points queued, in order.
    pub fn iter(&self) -> impl Iterator<Item = &SplitPoint<'_>> {
        self.points.iter()
    }

    /// How many are queued.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Drops the split points and then the lists' references, keeping the capacity.
    pub fn clear(&mut self) {
        self.points.clear();
        self.lists.clear();
    }
}

impl std::fmt::Debug for SplitPointQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SplitPointQueue")
            .field("points", &self.points)
            .finish_non_exhaustive()
    }
}
