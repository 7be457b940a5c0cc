//! A registered bundle's shared part ([`RegisteredBundle`]), kept in its own list's header
//! (`list/bundle_facts.rs`): what `bundles::DrawBundle` clones share (the device entry's handle,
//! the declaration, the footprint, the recorder's name) and the count of those clones, so that
//! finishing a bundle allocates nothing (R-B-1 with the hot-path rule: the header lives in the
//! list's first chunk, which comes from the device's pool and goes back to it).
//!
//! **In:** a bundle recorder's freshly finished and registered list, and the bundle's facts.
//! **Out:** a counted pointer to them; the last clone releases the device's entry (R-OBJ-3) and
//! then drops the list reference the clones shared.

use std::mem::ManuallyDrop;

use crate::context::bundle_entry::{BundleTail, OutputFormats};
use crate::device::handle::BundleHandle;
use crate::list::{BundleFacts, CommandList, TAIL_WORDS};
use crate::sync::{fence, AtomicUsize, Ordering};

const _: () = assert!(std::mem::size_of::<BundleTail>() == 8 * TAIL_WORDS);
const _: () = assert!(std::mem::align_of::<BundleTail>() <= 8);

/// A finished bundle's commands registered with the device, with what its clones share: made by
/// [`Recorder::finish_registered_bundle`](crate::Recorder::finish_registered_bundle) for
/// `bundles::DrawBundle`. Cloning counts one more holder (one atomic add, no allocation); the
/// last holder to drop releases the device's entry, as an application's last reference to an
/// object (R-OBJ-3), and the list goes once nothing else holds it (an execution, a legacy list
/// that calls the bundle).
pub struct RegisteredBundle {
    /// The one list reference all holders share (dropped by the last one).
    body: ManuallyDrop<CommandList>,
}

impl RegisteredBundle {
    /// Writes the facts into the header of `body`, a list its recorder just finished, and counts
    /// one holder. `handle` is the device's entry for it, just made by the caller
    /// (`Recorder::finish_registered_bundle`), which holds the list's one other reference.
    pub(crate) fn new(
        body: CommandList,
        handle: BundleHandle,
        tail: BundleTail,
        name: &std::sync::Arc<str>,
    ) -> Self {
        debug_assert_eq!(body.references_now(), 2);
        let mut words = [0u64; TAIL_WORDS];
        // SAFETY: `BundleTail` is plain data exactly as long as `words` (asserted above); the
        // write is unaligned-tolerant.
        unsafe { (words.as_mut_ptr() as *mut BundleTail).write_unaligned(tail) };
        let facts = BundleFacts {
            holders: AtomicUsize::new(1),
            handle,
            tail: words,
            name: (!name.is_empty()).then(|| name.clone()),
        };
        // SAFETY: the list has two references: `body`, handed here, and the device entry's,
        // which the caller made a moment ago under `handle`; the entry reaches the list only
        // through that handle (`bundle_body`, and the entry's destruction at its release), which
        // no other thread has yet: it is returned only with this value. So no other thread
        // reads the header while the facts are written.
        unsafe { body.write_bundle_facts(facts) };
        Self {
            body: ManuallyDrop::new(body),
        }
    }

    /// Written by `new` before the value existed; only the list's discard takes the name.
    fn facts(&self) -> &BundleFacts {
        self.body.bundle_facts()
    }

    fn tail(&self) -> &BundleTail {
        // SAFETY: `new` wrote a `BundleTail` into these words, which are 8-aligned (the
        // alignment `BundleTail` needs is at most 8, asserted above) and never written again
        // while the list lives.
        unsafe { &*(self.facts().tail.as_ptr() as *const BundleTail) }
    }

    /// The device's entry: the handle lists record when they call the bundle.
    pub fn handle(&self) -> BundleHandle {
        self.facts().handle
    }

    /// The bundle's commands.
    pub fn body(&self) -> &CommandList {
        &self.body
    }

    /// The output formats it must be executed with (R-B-1, R-B-10).
    pub fn declaration(&self) -> &OutputFormats {
        &self.tail().declaration
    }

    /// The constant-engine footprint of its overridden slots, in bytes (R-B-5).
    pub fn footprint(&self) -> u32 {
        self.tail().footprint
    }

    /// The name of the recorder that made it.
    pub fn name(&self) -> &str {
        self.facts().name.as_deref().unwrap_or("")
    }
}

impl Clone for RegisteredBundle {
    fn clone(&self) -> Self {
        self.facts().holders.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the shared list reference is not dropped while a holder lives, and this is one
        // more holder: a second `ManuallyDrop` over the same header is dropped only by the last.
        let body = unsafe { CommandList::from_header(self.body.header_ptr() as usize) };
        Self {
            body: ManuallyDrop::new(body),
        }
    }
}

impl Drop for RegisteredBundle {
    fn drop(&mut self) {
        let facts = self.facts();
        if facts.holders.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        fence(Ordering::Acquire);
        self.body.release_registered_bundle(facts.handle);
        // SAFETY: this was the last holder: the list reference the holders shared is dropped
        // once, here, and `self.body` is not used after.
        unsafe { ManuallyDrop::drop(&mut self.body) };
    }
}

impl std::fmt::Debug for RegisteredBundle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegisteredBundle")
            .field("handle", &self.handle())
            .field("name", &self.name())
            .field("footprint", &self.footprint())
            .finish()
    }
}
