//! Calls lowered: each call line of the trace (`CTX METHOD ARGS`) to an [`Op::Call`] step, the
//! context it is made on and the call in the engine's types ([`Call`], the syntax room's
//! `Method` in the replay's `Lowered` form).
//!
//! **In:** one [`crate::syntax::ast::Call`] of the parsed trace, at the lowering's line.
//! **Out:** the step, or the first problem as the message of `trace:LINE: message`: a format
//! the engine does not know, a number that does not fit the engine's argument (a 32-bit count,
//! an 8-bit stencil value, a 16-bit subresource index), a context, command list or bundle named
//! after its `release`.
//!
//! **Per kind, not per call.** The call table (`syntax/call_table.rs`) walks a call's fields;
//! this file says, once for each kind of argument, what it becomes in the engine's types (the
//! `Convert<Written, Lowered>` of [`Lowering`]): an object its number, a count a `u32` that fits
//! (the error names the argument's label, `VERTEX_COUNT 4294967296 does not fit the engine's
//! 32-bit argument`), an option left out its default. A new call needs nothing here unless it
//! brings a new kind of argument.
//!
//! **Invariant:** the numbering the calls make happens here, in trace order: a command list is
//! numbered by the `finish` that declares it, a fence and a device context state object by
//! their first use, every write_discard `map` gets the next instance number K of its resource
//! (docs/TRACE.md "Instances"); a `set_fast_resources_into_batch` line whose slots fit adds its
//! entries to its batch, which a later `set_fast_resources_from_batch` carries (R-FX-1). The
//! last three depend on the lines before, which no kind of argument sees: `Lowering::method`
//! matches those calls, and only those, after the traversal.

use recorder::{Compression, Engine, MapType, PrimitiveTopology, Rect, Stage, Viewport};

use super::super::convert::*;
use super::super::program::*;
use super::Lowering;
use crate::syntax::ast::{Barrier, CallContext, FastEntry, Flags, LegacyBarrier, Method, Written};
use crate::syntax::name::Name;
use crate::syntax::Convert;

impl Lowering {
    /// A call line: its context and its method lowered, one step.
    pub(super) fn call(&mut self, call: &crate::syntax::ast::Call) -> Converted<()> {
        let on = match &call.context {
            CallContext::Immediate => On::Immediate,
            CallContext::Deferred(name) => On::Deferred(self.id(name)?),
            CallContext::BundleRecorder(name) => On::BundleRecorder(self.id(name)?),
        };
        let call = self.method(&call.method)?;
        self.push(Op::Call { on, call });
        Ok(())
    }

    /// One call's method in the engine's types: the call table's traversal, each argument
    /// converted as its kind says (the `Convert` below), then what a few calls carry from the
    /// lines before them.
    fn method(&mut self, method: &Method) -> Converted<Call> {
        let mut call = method.convert(self)?;
        // The calls whose lowering depends on the trace before the line, and only those.
        match &mut call {
            Call::Map {
                resource,
                map_type,
                instance,
                ..
            } if *map_type == recorder::MapType::WriteDiscard => {
                let k = self.instances.entry(*resource).or_insert(0);
                *k += 1;
                *instance = Some(*k);
            }
            // A line with a slot past its kind's slots is refused and adds nothing; any other
            // refusal shows when the batch is applied (TRACE.md).
            Call::SetFastResourcesIntoBatch { batch, entries }
                if entries.iter().all(fast_slot_in_range) =>
            {
                self.batches
                    .entry(batch.as_str().to_owned())
                    .or_default()
                    .extend(entries.iter().cloned());
            }
            Call::SetFastResourcesFromBatch { batch, entries } => {
                *entries = self
                    .batches
                    .get(batch.as_str())
                    .cloned()
                    .unwrap_or_default();
            }
            _ => {}
        }
        Ok(call)
    }

    /// One BARRIER of `barrier`.
    fn barrier(&mut self, barrier: &Barrier) -> Converted<Barrier<Lowered>> {
        Ok(match barrier {
            Barrier::Global { sync: s, access: a } => Barrier::Global {
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
            },
            Barrier::Buffer {
                resource,
                sync: s,
                access: a,
                size,
            } => Barrier::Buffer {
                resource: self.id(resource)?,
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
                size: *size,
            },
            Barrier::Texture {
                resource,
                sync: s,
                access: a,
                layout,
                mips,
                array,
                planes,
                discard,
            } => Barrier::Texture {
                resource: self.id(resource)?,
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
                layout: layout.map(|word| word.value()),
                mips: span(mips, "mips=")?,
                array: span(array, "array=")?,
                planes: span(planes, "planes=")?,
                discard: *discard,
            },
        })
    }
}

/// Each kind of argument of a call as the engine takes it (see the module essay).
impl Convert<Written, Lowered> for Lowering {
    type Error = String;
    fn object(&mut self, object: &Name) -> Converted<ObjId> {
        self.id(object)
    }
    fn declared(&mut self, object: &Name, kind: ObjKind) -> Converted<ObjId> {
        Ok(match self.ids.get(object.as_str()) {
            Some(&id) => id,
            None => self.add(object.as_str(), kind, false),
        })
    }
    fn fence(&mut self, fence: &Name) -> Converted<ObjId> {
        Ok(match self.ids.get(fence.as_str()) {
            Some(&id) => id,
            None => self.add(fence.as_str(), ObjKind::Fence, false),
        })
    }
    fn count(&mut self, value: &u64, label: &'static str) -> Converted<u32> {
        fit_u32(*value, label)
    }
    fn defaulted_count(&mut self, value: &Option<u64>, label: &'static str) -> Converted<u32> {
        fit_u32(value.unwrap_or(0), label)
    }
    fn signed(&mut self, value: &i64, label: &'static str) -> Converted<i32> {
        fit_i32(*value, label)
    }
    fn stencil(&mut self, value: &u64, label: &'static str) -> Converted<u8> {
        u8::try_from(*value)
            .map_err(|_| format!("{label} {value} does not fit the engine's 8-bit argument"))
    }
    fn format(&mut self, f: &crate::Format) -> Converted<recorder::Format> {
        format(f)
    }
    fn stage(&mut self, stage: &Stage) -> Converted<Stage> {
        Ok(*stage)
    }
    fn topology(&mut self, value: &PrimitiveTopology) -> Converted<PrimitiveTopology> {
        Ok(*value)
    }
    fn viewport(&mut self, v: &crate::syntax::ast::Viewport) -> Converted<Viewport> {
        Ok(Viewport::new(v.x, v.y, v.width, v.height))
    }
    fn rect(&mut self, r: &crate::syntax::ast::Rect) -> Converted<Rect> {
        Ok(Rect {
            left: fit_i32(r.left, "L")?,
            top: fit_i32(r.top, "T")?,
            right: fit_i32(r.right, "R")?,
            bottom: fit_i32(r.bottom, "B")?,
        })
    }
    fn map_type(&mut self, value: &MapType) -> Converted<MapType> {
        Ok(*value)
    }
    fn compression(&mut self, value: &Compression) -> Converted<Compression> {
        Ok(*value)
    }
    fn engine(&mut self, value: &Option<Engine>) -> Converted<Engine> {
        Ok(value.unwrap_or_default())
    }
    fn restore(&mut self, value: &Option<bool>) -> Converted<bool> {
        Ok(value.unwrap_or(false))
    }
    /// Numbered once the call is lowered (`method`).
    fn instance(&mut self, (): &()) -> Converted<Option<u32>> {
        Ok(None)
    }
    /// Attached once every step is lowered (`writes.rs`).
    fn map_writes(&mut self, (): &()) -> Converted<MapWrites> {
        Ok(MapWrites::default())
    }
    fn barriers(&mut self, barriers: &[Barrier]) -> Converted<Vec<Barrier<Lowered>>> {
        barriers
            .iter()
            .map(|barrier| self.barrier(barrier))
            .collect()
    }
    fn legacy_barrier(&mut self, barrier: &LegacyBarrier) -> Converted<LegacyBarrier<Lowered>> {
        Ok(match barrier {
            LegacyBarrier::Transition {
                resource,
                before,
                after,
                subresource,
                split,
            } => LegacyBarrier::Transition {
                resource: self.id(resource)?,
                before: before.value(),
                after: after.value(),
                subresource: subresource
                    .map(|n| fit_u32(n, "subresource="))
                    .transpose()?,
                split: *split,
            },
            LegacyBarrier::Uav { resource } => LegacyBarrier::Uav {
                resource: self.opt(resource)?,
            },
            LegacyBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
                before: self.opt(before)?,
                after: self.opt(after)?,
            },
        })
    }
}

/// Whether an entry's slot is within its kind's slots (R-FX-1).
fn fast_slot_in_range(entry: &FastEntry<Lowered>) -> bool {
    use crate::syntax::ast::FastKind;
    use recorder::limits::*;
    let limit = match entry.kind {
        FastKind::ConstantBuffer => CONSTANT_BUFFER_SLOTS,
        FastKind::ShaderResource => SHADER_RESOURCE_SLOTS,
        FastKind::Sampler => SAMPLER_SLOTS,
        FastKind::VertexBuffer => VERTEX_BUFFER_SLOTS,
    };
    entry.slot < limit
}
