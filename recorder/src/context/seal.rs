//! Sealing a list (R-EX-2, R-ST-8, R-REC-12): after its last command, the tables execution and
//! the list's drop read without walking its chunks (the index of its split points, bundle calls
//! and nested lists; a legacy list's last instances and its references), then the chain sealed
//! and handed to the [`CommandList`].
//!
//! **In:** the open list of a context (its chunk chain, side records, map tracker and local
//! references) and its statistics. **Out:** the finished list, or a refusal with the list left
//! open when a table would not fit the encoding or a shared count would pass its bound.
//!
//! **Invariant.** Every size is checked before anything is reserved, and sealing allocates
//! nothing: the tables live in the list's own memory, written as pseudo-commands that decoding
//! steps over.

use crate::command::*;
use crate::context::role::Role;
use crate::context::Recorder;
use crate::desc::Semantics;
use crate::errors::Error;
use crate::list::{
    write_index, CommandList, IndexEntry, LastInstance, ListMemory, ListOrigin, ListReference,
    ListStats, StartState,
};

impl<R: Role> Recorder<R> {
    /// Ends the list being recorded: writes the index of its split points and nested lists
    /// after its last command (so execution never walks its chunks, R-EX-2), seals the chain and
    /// makes the list. Allocates nothing: the index lives in the list's own memory.
    ///
    /// Refused, with the list left open, when the index would not fit the encoding: more split
    /// points and nested lists than a command holds entries (R-REC-12).
    pub(crate) fn seal_list(
        &mut self,
        stats: ListStats,
        start: StartState,
    ) -> Result<CommandList, Error> {
        let entries = self.writer.side_records as usize;
        let size = CommandBytes::with_items::<Empty, IndexEntry>(entries).map_err(|too_large| {
            too_large.error(
                "finish_command_list",
                format_args!("the index of {entries} split points, bundle calls and nested lists"),
            )
        })?;
        let objects_size = self.list_references_size()?;
        let (instances, instances_len) = self.write_last_instances()?;
        let (objects, objects_len) = self.write_list_references(objects_size)?;
        let at = self
            .writer
            .reserve(size, None, &self.device.pool, &self.policy);
        // SAFETY: `at` has room for the header and `entries` index entries.
        let index = unsafe { write_command(at, Opcode::ListIndex, 0, None, size, Empty) }
            as *mut std::mem::MaybeUninit<IndexEntry>;
        if R::SIZES_FIRST_CHUNK {
            self.writer.size_next_first_chunk(&self.policy);
        }
        let (first, last) = self.writer.take_chain_ends();
        // SAFETY: the chain is sealed; it holds exactly `entries` side records, and `index` has
        // room for them in its last chunk.
        let written = unsafe { write_index(first, std::slice::from_raw_parts_mut(index, entries)) };
        let memory = ListMemory {
            first,
            last,
            index: index as *const IndexEntry,
            index_len: written as u32,
            instances,
            instances_len,
            objects,
            objects_len,
        };
        let origin = ListOrigin {
            semantics: self.semantics,
            start,
            recorder: self.serial,
            back_buffer: self.back_buffer,
            pool_limit: self.policy.pool_limit,
            title_managed: self.title_managed,
            unreferenced: self.unreferenced,
        };
        // SAFETY: `list_header` was reserved at the start of `first` by `start_list`, and the
        // chain is sealed and handed over here.
        Ok(unsafe {
            CommandList::from_parts(self.list_header, self.device.clone(), memory, stats, origin)
        })
    }

    /// Writes a legacy list's last instances (R-ST-8) after its last command, as a pseudo-command
    /// that decoding skips (like the index); nothing for the immediate context's batches, whose
    /// instances stay its own, nor for fast lists.
    ///
    /// Refused before anything is written when the table would not fit the encoding (R-REC-12).
    fn write_last_instances(&mut self) -> Result<(*const LastInstance, u32), Error> {
        if R::RUNS_AT_ONCE || self.semantics != Semantics::Legacy {
            return Ok((std::ptr::null(), 0));
        }
        let count = self.maps.last_instances().count();
        if count == 0 {
            return Ok((std::ptr::null(), 0));
        }
        let size = CommandBytes::with_items::<Empty, LastInstance>(count).map_err(|too_large| {
            too_large.error(
                "finish_command_list",
                format_args!("the table of the last instances of {count} dynamic buffers"),
            )
        })?;
        let at = self
            .writer
            .reserve(size, None, &self.device.pool, &self.policy);
        // SAFETY: `at` has room for the header and `count` entries (8-aligned: the header and
        // every payload are multiples of 8, and so is `LastInstance`).
        let table = unsafe { write_command(at, Opcode::ListIndex, 0, None, size, Empty) }
            as *mut LastInstance;
        let mut written = 0;
        for (resource, instance) in self.maps.last_instances().take(count) {
            // SAFETY: `written < count`: entry `written` of the reserved table.
            unsafe {
                table
                    .add(written)
                    .write(LastInstance { resource, instance })
            };
            written += 1;
        }
        Ok((table as *const LastInstance, written as u32))
    }

    /// The size of a legacy list's table of references (`None` without one). Refused when the
    /// table would not fit the encoding (R-REC-12).
    fn list_references_size(&self) -> Result<Option<CommandBytes>, Error> {
        let count = match self.refs.as_ref() {
            Some(refs) if refs.listed_len() != 0 => refs.listed_len(),
            _ => return Ok(None),
        };
        CommandBytes::with_items::<Empty, ListReference>(count)
            .map(Some)
            .map_err(|too_large| {
                too_large.error(
                    "finish_command_list",
                    format_args!("the table of the {count} objects the list references"),
                )
            })
    }

    /// Writes a legacy list's table of references after its last command, as a pseudo-command
    /// that decoding skips (like the index), and makes the open list's references the finished
    /// list's (`LocalReferences::publish_list`). Refused, with the references left to the open
    /// list, when a shared count would pass its bound.
    fn write_list_references(
        &mut self,
        size: Option<CommandBytes>,
    ) -> Result<(*const ListReference, u32), Error> {
        let (Some(size), Some(refs)) = (size, self.refs.as_mut()) else {
            return Ok((std::ptr::null(), 0));
        };
        let count = refs.listed_len();
        let at = self
            .writer
            .reserve(size, None, &self.device.pool, &self.policy);
        // SAFETY: `at` has room for the header and `count` entries (8-aligned: the header and
        // every payload are multiples of 8, and so is `ListReference`).
        let table = unsafe { write_command(at, Opcode::ListIndex, 0, None, size, Empty) }
            as *mut ListReference;
        let mut written = 0;
        let published = refs.publish_list(&*self.device, |kind, handle, count_of| {
            if written < count {
                // SAFETY: `written < count`: entry `written` of the reserved table.
                unsafe {
                    table.add(written).write(ListReference {
                        handle,
                        kind,
                        count: count_of,
                    })
                };
                written += 1;
            }
        });
        match published {
            Ok(()) => Ok((table as *const ListReference, written as u32)),
            Err((kind, handle)) => Err(Error::ReleasedObject {
                call: "finish_command_list",
                object: self.device.object_name(kind, handle),
            }),
        }
    }
}
