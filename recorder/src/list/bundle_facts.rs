//! The list header's room for a registered bundle's shared part
//! ([`RegisteredBundle`](crate::context::registered_bundle::RegisteredBundle)): the count of the
//! bundle's clones, the device entry's handle, the declaration and footprint as the entry's words
//! hold them, and the name. In the header, which lives in the list's first chunk, the part is
//! recycled with the chunks: finishing a bundle allocates nothing for it.
//!
//! **In:** the facts, written once by the bundle's recorder while no other thread reads the
//! header. **Out:** shared reads of them; the name dropped with the list.

use super::*;
use crate::device::handle::{BundleHandle, Handle};

/// Words of a bundle's declaration and footprint (`BundleTail`, as the device entry's words
/// after the first hold them).
pub(crate) const TAIL_WORDS: usize = 3;

/// What a registered bundle's clones share, in its list's header (`ListHeader::bundle`): for a
/// list that is no registered bundle's, [`BundleFacts::none`] (no holders, no name).
pub(crate) struct BundleFacts {
    /// `RegisteredBundle` values alive that point at this header; together they hold one
    /// reference on the list.
    pub(crate) holders: AtomicUsize,
    pub(crate) handle: BundleHandle,
    /// The declaration and the footprint, packed as the entry's words.
    pub(crate) tail: [u64; TAIL_WORDS],
    /// The recorder's name, shared (a clone of its `Arc`, no copy); `None` for an unnamed one.
    pub(crate) name: Option<std::sync::Arc<str>>,
}

impl BundleFacts {
    /// A list no bundle was registered from: what `CommandList::from_parts` writes.
    pub(crate) fn none() -> Self {
        Self {
            holders: AtomicUsize::new(0),
            handle: BundleHandle::from_raw(RawHandle::NULL),
            tail: [0; TAIL_WORDS],
            name: None,
        }
    }

    /// Takes the name the header kept (the list is being discarded).
    pub(crate) fn forget_name(&mut self) -> Option<std::sync::Arc<str>> {
        self.name.take()
    }
}

impl CommandList {
    /// Writes `facts` into the list's header, whose field held [`BundleFacts::none`] (which owns
    /// nothing: it is overwritten, not dropped).
    ///
    /// # Safety
    /// No other thread reads the header while this runs: the list's references are the
    /// caller's, or held where no other thread reaches them yet.
    pub(crate) unsafe fn write_bundle_facts(&self, facts: BundleFacts) {
        // SAFETY: the header is alive (this reference), and no other thread reads it (the
        // caller's contract); the field is read only through `&` afterwards.
        unsafe { std::ptr::addr_of_mut!((*self.header.as_ptr()).bundle).write(facts) };
    }

    /// The header's bundle facts ([`BundleFacts::none`] for a list that is not a registered
    /// bundle's body).
    pub(crate) fn bundle_facts(&self) -> &BundleFacts {
        &self.header().bundle
    }

    /// References on the list now (for assertions).
    pub(crate) fn references_now(&self) -> usize {
        self.header().references.load(Ordering::Relaxed)
    }
}
