//! Giving a list's chunks back: what a finished or unfinished chain holds (a legacy list's
//! references on objects, its references on nested lists) is dropped and the chunks go back to
//! the device's pool (R-OBJ-4, R-REC-9).
//!
//! **In:** the head of a sealed chain whose last reference went. **Out:** the chunks in the pool,
//! the counts given back.
//!
//! **Invariant.** No depth of nesting recurses and nothing allocates: nested lists whose last
//! reference a dropped list held are discarded one after another, through a stack threaded
//! through their headers.

use super::*;
use crate::chunk::{ChunkHeader, ChunkView, SideKind};
use crate::command::{decode, Command};
use crate::device::DeviceShared;
use crate::sync::Ordering;
use std::mem::ManuallyDrop;

/// Drops what a chain of recorded chunks of an unfinished list holds and returns the chunks to
/// the pool: the references on nested lists; a nested list whose last reference that was is
/// discarded too, and so on down, without recursion (R-REC-9). (A legacy recording's references
/// on objects are still its recorder's, which drops them itself: `refs.rs`.)
///
/// # Safety
/// `first` must head a sealed chain recorded by a context of `device`, referenced nowhere else.
pub(crate) unsafe fn discard_chain(
    first: *mut ChunkHeader,
    pool_limit: usize,
    device: &DeviceShared,
) {
    let mut orphans = std::ptr::null_mut();
    // SAFETY: `first` heads a sealed chain recorded on `device` and referenced nowhere else
    // (this function's contract), which is what `release_chain` needs.
    unsafe { release_chain(first, &[], device, &mut orphans) };
    // SAFETY: the caller hands over the chain (referenced nowhere else), `release_chain` is done
    // with it, and its chunks came from this device's pool.
    unsafe { device.pool.give_back(first, pool_limit) };
    if !orphans.is_null() {
        // SAFETY: `release_chain` chained there the lists whose last reference it dropped.
        unsafe { discard_lists(orphans) };
    }
}

/// Discards the list `first` and the lists chained after it through `next_discarded`, and
/// every nested list whose last reference one of them held, one after another: a stack threaded
/// through the headers, so that no depth of nesting recurses and nothing allocates (R-REC-9).
///
/// # Safety
/// `first` heads a chain of list headers whose last references went (nobody reads them any
/// more); the last header's `next_discarded` is null.
pub(crate) unsafe fn discard_lists(first: *mut ListHeader) {
    let mut pending = first;
    while !pending.is_null() {
        let header = pending;
        // SAFETY: `header` is on the chain: its last reference went, it is ours (caller, and
        // `release_chain` for the headers it chains). Everything is read out of the header
        // before its chunk (which holds it) goes back to the pool.
        unsafe {
            pending = (*header).next_discarded;
            let device = ManuallyDrop::take(&mut (*header).device);
            drop((*header).attachment.take());
            drop((*header).bundle.forget_name());
            drop((*header).derived.take());
            let first_chunk = (*header).first_chunk;
            let pool_limit = (*header).pool_limit;
            // The table lies in the chain's chunks, which go back to the pool only below.
            let objects = (*header).objects();
            release_chain(first_chunk, objects, &device, &mut pending);
            device.pool.give_back(first_chunk, pool_limit);
        }
    }
}

/// Drops what a sealed chain holds: a finished legacy list's references on objects (`objects`,
/// its table: one count per distinct object), and the references on nested lists, found
/// through the side records; a nested list whose last reference that was is pushed on
/// `orphans` (through its `next_discarded`) for the caller to discard. O(distinct objects +
/// nested lists + chunks), whatever the number of commands.
///
/// # Safety
/// `first` must head a sealed chain recorded by a context of `device`, referenced nowhere else;
/// `objects` are references the chain's list holds; `orphans` is null or heads a chain as
/// [`discard_lists`] takes it.
unsafe fn release_chain(
    first: *mut ChunkHeader,
    objects: &[ListReference],
    device: &DeviceShared,
    orphans: &mut *mut ListHeader,
) {
    for object in objects {
        device.release_many(object.kind, object.handle, object.count);
    }
    let mut chunk = first;
    while !chunk.is_null() {
        // SAFETY: `chunk` is a non-null chunk of the sealed chain this function was handed,
        // freed only after this walk.
        let view = unsafe { ChunkView::new(chunk) };
        for (kind, offset) in view.side_records() {
            if kind != SideKind::Nested {
                continue;
            }
            // SAFETY: side records point at commands of this sealed chunk.
            let decoded = unsafe { decode(view.base, offset as usize) }.0;
            if let Command::ExecuteCommandList { list, .. } = decoded.command {
                // Recording a nested list took one reference on it, owned by this chain.
                let header = list.header_non_null().as_ptr();
                // SAFETY: that reference keeps the header alive until this decrement.
                if unsafe { &*header }
                    .references
                    .fetch_sub(1, Ordering::Release)
                    == 1
                {
                    crate::sync::fence(Ordering::Acquire);
                    // SAFETY: that was the last reference: the header is ours to chain.
                    unsafe { (*header).next_discarded = *orphans };
                    *orphans = header;
                }
            }
        }
        // SAFETY: `chunk` is non-null (loop condition) and a chunk of the sealed chain this
        // function owns, whose headers are initialised.
        chunk = unsafe { (*chunk).next };
    }
}
