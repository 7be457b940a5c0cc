//! Draw records in the trace's words: every object by its trace name, a dynamic instance as
//! `NAME#K` (docs/TRACE.md "Instances": K counts the write_discard map statements of the resource
//! in trace order; 0 is the contents at creation).
//!
//! **In:** which engine handle each declaration made, and which engine instance each map
//! statement made. **Out:** an [`ObjectNamer`] for `DrawRecord::display_with` and
//! `FieldValue::display_with`, and the record lines and digest the replay prints.
//!
//! An engine object the trace never declared (none should be) prints as the raw handle
//! (`#3`); an instance no map statement made (none should be) as `NAME#?`.

use std::collections::HashMap;
use std::fmt;

use recorder::command::InstanceId;
use recorder::{ObjectKind, RawHandle};

use executor::DrawRecord;
use executor::{ObjectNamer, RawNames};

use super::program::{ObjId, Program};

/// Engine handles and instances → trace names.
#[derive(Debug, Default)]
pub(crate) struct Names {
    objects: HashMap<(ObjectKind, RawHandle), ObjId>,
    instances: HashMap<InstanceId, u32>,
}

impl Names {
    pub(crate) fn object(&mut self, kind: ObjectKind, handle: RawHandle, id: ObjId) {
        self.objects.insert((kind, handle), id);
    }

    pub(crate) fn instance(&mut self, instance: InstanceId, k: u32) {
        self.instances.insert(instance, k);
    }

    /// The trace name of buffer `handle` (the raw handle where the trace named none).
    pub(crate) fn buffer(&self, program: &Program, handle: RawHandle) -> String {
        self.objects
            .get(&(ObjectKind::Buffer, handle))
            .and_then(|id| program.objects.get(*id))
            .map_or_else(|| format!("{handle:?}"), |object| object.name.clone())
    }

    /// The namer of `program`'s objects.
    pub(crate) fn namer<'a>(&'a self, program: &'a Program) -> Namer<'a> {
        Namer {
            names: self,
            program,
        }
    }
}

pub(crate) struct Namer<'a> {
    names: &'a Names,
    program: &'a Program,
}

impl ObjectNamer for Namer<'_> {
    fn write_object(
        &self,
        f: &mut fmt::Formatter<'_>,
        kind: ObjectKind,
        handle: RawHandle,
        instance: InstanceId,
    ) -> fmt::Result {
        let Some(object) = self
            .names
            .objects
            .get(&(kind, handle))
            .and_then(|id| self.program.objects.get(*id))
        else {
            return RawNames.write_object(f, kind, handle, instance);
        };
        f.write_str(&object.name)?;
        if let Some(address) = instance.placement() {
            // A placed binding of a default resource (R-FX-2).
            return write!(f, "@{address:#x}");
        }
        if !object.dynamic {
            return Ok(());
        }
        match instance {
            InstanceId::INITIAL => f.write_str("#0"),
            instance => match self.names.instances.get(&instance) {
                Some(k) => write!(f, "#{k}"),
                None => f.write_str("#?"),
            },
        }
    }
}

/// Every record on its own line, objects named by `namer`.
pub(crate) fn record_lines(records: &[DrawRecord], namer: &Namer<'_>) -> Vec<String> {
    records
        .iter()
        .map(|record| record.display_with(namer).to_string())
        .collect()
}

/// The draw-record digest: FNV-1a (64 bits) over the record lines, each ended by a newline.
/// It depends only on what the trace names, so it is the same on every run and every thread
/// count.
pub(crate) fn digest(lines: &[String]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in lines
        .iter()
        .flat_map(|l| l.bytes().chain(std::iter::once(b'\n')))
    {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}
