//! `write RESOURCE OFFSET HEX`: the bytes an application wrote into the memory a `map` returned,
//! between the map and its `unmap` (docs/TRACE.md; what a capture records, SPEC §13).
//!
//! **In:** the lowered program's `write` steps, and each accepted map's memory. **Out:** the
//! bytes copied into that memory, and each `write` statement's outcome on its context.
//!
//! **When the bytes are copied.** The engine hands a map's memory out as a slice that borrows
//! the context mutably ([`recorder::Mapped`]); the replay must go on calling the context
//! between the `map` and the `unmap`, so it cannot hold the slice until a later `write` line
//! (and holding the raw pointer would need `unsafe`). Lowering therefore gives every `map`
//! statement the `write` statements that follow it on the same context and resource up to the
//! next `unmap` there ([`MapWrites`], built by [`attach`]), and the replay copies them when the
//! map returns its memory ([`copy`]), before anything else can run. Nothing can read the
//! memory in between (a deferred context's map data is read when its list executes, the
//! immediate context's when its batch is taken, a read map's by a later map), so the bytes are
//! where they would be had the application written them at their lines.
//!
//! **The rules** (choices; docs/TRACE.md is silent). At its line a `write` is checked against
//! the maps open on its context ([`OpenMaps`]: the accepted maps not yet unmapped), and one
//! that breaks a rule is refused as the engine refuses a call, `invalid_argument` recorded on
//! the context (so `expect error CTX invalid_argument` holds and the replay goes on), its
//! message naming the call (`write`), the resource and the rule:
//! * RESOURCE has no open map on the context ([`Error::NotMapped`]): never mapped, its map
//!   refused, already unmapped, or the map ended with a list that a failed `finish` discarded;
//! * its open map is a `read` map ([`Error::RegionOutOfBounds`], "its map is read"): a write
//!   needs `write_discard`, `write_no_overwrite`, `write` or `read_write`;
//! * OFFSET + the byte count is past the mapped bytes (the buffer's size:
//!   [`Error::RegionOutOfBounds`], naming the byte range and the mapped length).
//!
//! A bundle recorder maps nothing (R-B-8: its `map` is refused): a `write` on one is refused
//! with `unsupported_in_bundle`, as its `map` is. Structural misuse is a refusal, not a malformed
//! trace, as for `unmap` of a resource not mapped: whether a map is open depends on whether the
//! engine accepted it, which only the run knows. A refused `write` does not poison the list or
//! bundle being recorded (it is no call of the engine, and, like a refused `map`, leaves
//! nothing in the list: R-REC-8); only bytes that pass every rule are copied. An accepted
//! `write` makes no command and no draw record: the GPU model keeps no contents, so the
//! records, the digest and `--compare` are those of the trace without its `write` lines (the
//! reference leaves them out), and `--threads N` runs them on the context's worker in order.
//!
//! One corner: a deferred context's map that a failed `finish` discarded (a poisoned list is
//! dropped, its maps with it) was given, at map time, the writes up to the `unmap`; those past
//! the `finish` are refused at their lines but their bytes went into the discarded list's
//! memory, which nothing ever reads.

use std::collections::HashMap;
use std::sync::Arc;

use recorder::{Error, MapType, ObjectKind, ObjectName, RawHandle};

use super::handles::Resolver;
use super::program::{Call, MapWrite, MapWrites, ObjId, ObjKind, On, Op, Step};

/// Gives every `map` step its writes (see the module essay): for each context and resource,
/// the `write` steps between a `map` and the next `unmap`. Linear in the steps: the maps of
/// one stretch (a second map before the unmap, which the engine refuses unless the first was)
/// share one list.
pub(crate) fn attach(steps: &mut [Step]) {
    type Key = (On, ObjId);
    // Per context and resource: the maps of the open stretch and its writes.
    let mut open: HashMap<Key, (Vec<usize>, Vec<MapWrite>)> = HashMap::new();
    let mut done: Vec<(Vec<usize>, Vec<MapWrite>)> = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let Op::Call { on, call } = &step.op else {
            continue;
        };
        match call {
            Call::Map { resource, .. } => open.entry((*on, *resource)).or_default().0.push(index),
            Call::Write {
                resource,
                offset,
                bytes,
            } => {
                if let Some((_, writes)) = open.get_mut(&(*on, *resource)) {
                    writes.push(MapWrite {
                        step: index,
                        offset: *offset,
                        bytes: bytes.as_slice().into(),
                    });
                }
            }
            Call::Unmap { resource } => done.extend(open.remove(&(*on, *resource))),
            _ => {}
        }
    }
    for (maps, writes) in done.into_iter().chain(open.into_values()) {
        if writes.is_empty() {
            continue;
        }
        let run: Arc<[MapWrite]> = writes.into();
        for map in maps {
            if let Some(Step {
                op:
                    Op::Call {
                        call: Call::Map { writes, .. },
                        ..
                    },
                ..
            }) = steps.get_mut(map)
            {
                *writes = MapWrites::new(map, run.clone());
            }
        }
    }
}

/// Why a write of `len` bytes at `offset` does not go into a map of type `map_type` of
/// `mapped` bytes; `None` when it does.
fn broken(map_type: MapType, mapped: usize, offset: u32, len: usize) -> Option<String> {
    if map_type == MapType::Read {
        return Some(
            "its map is read: a write needs a map that writes (write_discard, \
             write_no_overwrite, write or read_write)"
                .into(),
        );
    }
    let end = (offset as usize).checked_add(len);
    match end {
        Some(end) if end <= mapped => None,
        _ => Some(format!(
            "bytes {offset}..{} are past the {mapped} bytes mapped (OFFSET + the bytes of HEX \
             must fit the map)",
            offset as u64 + len as u64
        )),
    }
}

/// Copies into `memory`, the memory a map of type `map_type` returned, every write of
/// `writes` that breaks no rule (the others are refused at their lines).
pub(crate) fn copy(memory: &mut [u8], map_type: MapType, writes: &MapWrites) {
    for write in writes.iter() {
        if broken(map_type, memory.len(), write.offset, write.bytes.len()).is_some() {
            continue;
        }
        let start = write.offset as usize;
        if let Some(target) = memory.get_mut(start..start + write.bytes.len()) {
            target.copy_from_slice(&write.bytes);
        }
    }
}

/// The maps open on one context: resource → (map type, mapped bytes).
#[derive(Debug, Default)]
pub(crate) struct OpenMaps(HashMap<ObjId, (MapType, usize)>);

impl OpenMaps {
    /// The engine accepted a map of `resource` and returned `len` bytes.
    pub(crate) fn opened(&mut self, resource: ObjId, map_type: MapType, len: usize) {
        self.0.insert(resource, (map_type, len));
    }

    /// An `unmap` of `resource` (accepted or not: no map of it is open after).
    pub(crate) fn closed(&mut self, resource: ObjId) {
        self.0.remove(&resource);
    }

    /// The list being recorded ended, and its maps with it.
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// The outcome of `write` (a [`Call::Write`]) on this context.
    pub(crate) fn check(&self, objects: &Resolver<'_>, call: &Call) -> Result<(), Error> {
        let Call::Write {
            resource,
            offset,
            bytes,
        } = call
        else {
            return Ok(());
        };
        let object = || {
            let declared = &objects.program.objects[*resource];
            ObjectName {
                kind: match declared.kind {
                    ObjKind::Buffer => ObjectKind::Buffer,
                    _ => ObjectKind::Texture,
                },
                handle: objects.handles.get(*resource).unwrap_or(RawHandle::NULL),
                name: Some(declared.name.as_str().into()),
            }
        };
        let Some(&(map_type, mapped)) = self.0.get(resource) else {
            return Err(Error::NotMapped {
                call: "write",
                object: object(),
            });
        };
        match broken(map_type, mapped, *offset, bytes.len()) {
            None => Ok(()),
            Some(detail) => Err(Error::RegionOutOfBounds {
                call: "write",
                object: object(),
                detail: detail.into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writes(list: &[(u32, &[u8])]) -> MapWrites {
        let run = list
            .iter()
            .enumerate()
            .map(|(i, (offset, bytes))| MapWrite {
                step: i + 1,
                offset: *offset,
                bytes: (*bytes).into(),
            })
            .collect();
        MapWrites::new(0, run)
    }

    #[test]
    fn r_cap_4_write_copies_the_bytes_that_fit_a_map_that_writes() {
        let mut memory = [0u8; 8];
        let list = writes(&[(0, &[1, 2]), (6, &[7, 8]), (7, &[9, 9]), (2, &[3])]);
        copy(&mut memory, MapType::WriteDiscard, &list);
        // The write at 7 runs past the 8 bytes mapped: refused, nothing of it copied.
        assert_eq!(memory, [1, 2, 3, 0, 0, 0, 7, 8]);
        let mut read = [0u8; 4];
        copy(&mut read, MapType::Read, &writes(&[(0, &[5])]));
        assert_eq!(read, [0; 4], "a read map takes no write");
    }

    #[test]
    fn r_cap_4_write_copies_only_the_writes_after_its_map() {
        let list = writes(&[(0, &[1]), (1, &[2]), (2, &[3])]).after(2);
        let mut memory = [0u8; 3];
        copy(&mut memory, MapType::WriteNoOverwrite, &list);
        assert_eq!(memory, [0, 0, 3]);
    }

    #[test]
    fn r_cap_4_write_rules_name_the_range_and_the_map() {
        assert_eq!(broken(MapType::Write, 4, 0, 4), None);
        assert_eq!(broken(MapType::ReadWrite, 4, 3, 1), None);
        let past = broken(MapType::WriteDiscard, 4, 3, 2).unwrap();
        assert!(
            past.contains("bytes 3..5 are past the 4 bytes mapped"),
            "{past}"
        );
        let far = broken(MapType::WriteDiscard, 4, u32::MAX, 2).unwrap();
        assert!(far.contains("past the 4 bytes"), "{far}");
        assert!(broken(MapType::Read, 4, 0, 1).unwrap().contains("read"));
    }
}
