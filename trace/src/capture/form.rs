//! What a captured call is while the frame runs, and how it becomes trace text.
//!
//! **In:** the calls the capture's wrappers see, in the engine's types. **Out:** [`Entry`]s, kept
//! per context as the application makes them (no name looked up, no lock taken: a handle is
//! copied as it is), and, when the frame is written, each entry as the trace statement
//! docs/TRACE.md gives it ([`written`]), objects named by the capture's records.
//!
//! **One shape.** A call is the trace syntax tree's own [`Method`], in a form of its own
//! ([`Captured`]): the arguments as the engine took them, an object as [`Obj`]. So the call
//! vocabulary is written once (the call table, `trace/src/syntax/call_table.rs`), and what the
//! capture can hold is exactly what a trace can say. [`written`] is the table's traversal with
//! one conversion per kind of argument ([`Naming`]: an object named, a `u32` widened, an
//! argument equal to its default left out, as the trace leaves it out), none per call.
//!
//! What the API takes that the format has no word for (a vertex buffer's stride and offset, a
//! blend factor, a stencil reference, the bytes of `update_subresource`, which clears of a
//! depth-stencil view) is dropped here: no draw record shows it (the GPU model keeps no
//! contents), so the round trip of the draw records holds without it.

use recorder::command::InstanceId;
use recorder::{
    BarrierAccess, BarrierLayout, BarrierSync, ObjectKind, RawHandle, ResourceStates, Span,
    SplitHalf,
};

use std::convert::Infallible;

use crate::syntax::ast::{
    Barrier, BeforeAfter, Flags, Form, LegacyBarrier, Method, Rect, SlotRange, Viewport, Written,
};
use crate::syntax::words::{AccessWord, LayoutWord, StateWord, SyncWord, Word, WordTable};
use crate::syntax::{Convert, ObjKind};
use crate::{Format as TraceFormat, Name};

/// An object a captured call names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Obj {
    /// An engine object: a resource, a view, a shader, a state, a query, a swap chain, a bundle.
    Engine(ObjectKind, RawHandle),
    /// A fence, by the value `insert_fence` handed out.
    Fence(u64),
    /// A command list, by the capture's number for it (`ListLog::id`).
    List(u64),
    /// A device context state object (R-FX-6), by its serial
    /// ([`recorder::DeviceContextState::serial`]); 0 is the implicit default object that was
    /// active at the frame's start (`immediate_states.rs`).
    ContextState(u64),
}

impl Obj {
    /// The engine object `handle` of `kind`.
    pub(crate) fn of<H: recorder::Handle>(kind: ObjectKind, handle: H) -> Self {
        Self::Engine(kind, handle.raw())
    }
}

/// The capture's form of a call: the engine's types, objects as [`Obj`], a write_discard map
/// with the instance it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Captured;

impl Form for Captured {
    type Object = Obj;
    type Count = u32;
    type Signed = i32;
    type Stencil = u8;
    type Topology = recorder::PrimitiveTopology;
    type Format = recorder::Format;
    type Stage = recorder::Stage;
    type Viewport = recorder::Viewport;
    type Rect = recorder::Rect;
    type MapType = recorder::MapType;
    type Compression = recorder::Compression;
    type Engine = recorder::Engine;
    type Defaulted<T: Clone + std::fmt::Debug + PartialEq> = T;
    /// The instance a write_discard map made (named `NAME#K` by the order the trace writes it).
    type Instance = Option<InstanceId>;
    /// A capture keeps a map's written bytes as `write` entries of their own ([`Entry::Write`]).
    type MapWrites = ();
    type ErrorKind = recorder::ErrorKind;
    type SplitCategory = recorder::SplitCategory;
    type CounterKey = &'static str;
    type Sync = BarrierSync;
    type Access = BarrierAccess;
    type Layout = BarrierLayout;
    type States = ResourceStates;
    type Span = Span;
    type Split = SplitHalf;
    /// In the capturing context's arena (`arena.rs`): no allocation per list.
    type List<T: Clone + std::fmt::Debug + PartialEq> = super::arena::List<T>;
}

/// A captured call.
pub(crate) type Call = Method<Captured>;

/// One thing a context did while it was captured.
#[derive(Clone, Debug)]
pub(crate) enum Entry {
    /// A call, as the trace writes it.
    Call(Call),
    /// Bytes the application changed in a write map, between the map and its unmap (R-CAP-4).
    Write {
        /// The mapped resource.
        resource: Obj,
        /// The first byte changed.
        offset: u32,
        /// The changed range's bytes (in the tap's arena, as a call's lists).
        bytes: super::arena::List<u8>,
    },
    /// A call the trace format has no statement for, written as a comment.
    NotWritten(&'static str),
    /// A call is about to read the back buffer swap-chain view `view` names: buffer `index`
    /// (R-EX-7, `Tap::pin_views`). Written as `imm place_swap_chain_view` where the text has
    /// the view elsewhere (`Out::entry`).
    Pin {
        /// The view.
        view: Obj,
        /// The back buffer it names, its index in its chain.
        index: u32,
    },
    /// The application's placement just written (`CapturedImmediate::place_swap_chain_view`)
    /// put `view` on buffer `index`: where the text has it now. Writes nothing.
    Placed {
        /// The view.
        view: Obj,
        /// The back buffer it names now.
        index: u32,
    },
}

/// The names the capture gave the objects.
pub(crate) trait Namer {
    /// The trace name of `object`.
    fn name(&self, object: Obj) -> Name;
}

pub(crate) fn format(format: recorder::Format) -> TraceFormat {
    // Every engine format's name has the trace's name grammar (`r8g8b8a8_unorm`).
    TraceFormat::new(format.name()).unwrap_or_else(|| {
        TraceFormat::new("unknown").unwrap_or_else(|| unreachable!("'unknown' is a name"))
    })
}

/// The words of a flag set: every named flag whose bits are all in `value`, largest first, each
/// bit written once (a bit named twice, an alias, by its first word); the table's zero entry
/// (`none`, `common`) for no bit.
fn flags<T: WordTable>(value: T, bits_of: impl Fn(T) -> u32) -> Flags<Word<T>> {
    let bits = bits_of(value);
    let mut left = bits;
    let mut named: Vec<(&str, u32)> = T::WORDS.iter().map(|(n, v)| (*n, bits_of(*v))).collect();
    named.sort_by_key(|(_, v)| std::cmp::Reverse(v.count_ones()));
    let mut out = Vec::new();
    if bits == 0 {
        if let Some(zero) = named
            .iter()
            .find(|(_, v)| *v == 0)
            .and_then(|(n, _)| Word::from_name(n))
        {
            out.push(zero);
        }
        return Flags(out);
    }
    for (name, v) in named {
        if v != 0 && v & bits == v && v & left != 0 {
            if let Some(w) = Word::from_name(name) {
                out.push(w);
                left &= !v;
            }
        }
    }
    Flags(out)
}

fn sync(value: BarrierSync) -> Flags<SyncWord> {
    flags(value, |v| v.0)
}

fn access(value: BarrierAccess) -> Flags<AccessWord> {
    flags(value, |v| v.0)
}

fn states(value: ResourceStates) -> Flags<StateWord> {
    flags(value, |v| v.0)
}

/// A layout by its canonical word (`common`, never `present`).
fn layout(value: BarrierLayout) -> LayoutWord {
    Word::of(value).unwrap_or_else(|| unreachable!("every layout has a word"))
}

fn span(span: Span) -> Option<SlotRange> {
    (!span.is_all()).then_some(SlotRange {
        first: span.first as u64,
        last: span.last as u64,
    })
}

fn both<T, U>(side: &BeforeAfter<T>, f: impl Fn(&T) -> U) -> BeforeAfter<U> {
    BeforeAfter {
        before: f(&side.before),
        after: f(&side.after),
    }
}

/// `call` as the trace writes it, objects named by `names`: the call table's traversal, each
/// argument converted as its kind says ([`Naming`]).
pub(crate) fn written(call: &Call, names: &dyn Namer) -> Method {
    match call.convert(&mut Naming(names)) {
        Ok(method) => method,
        Err(never) => match never {},
    }
}

/// Each kind of argument of a captured call as the trace writes it: objects named, numbers
/// widened, an argument equal to its default left out.
struct Naming<'a>(&'a dyn Namer);

impl Convert<Captured, Written> for Naming<'_> {
    type Error = Infallible;
    fn object(&mut self, object: &Obj) -> Result<Name, Infallible> {
        Ok(self.0.name(*object))
    }
    fn declared(&mut self, object: &Obj, _: ObjKind) -> Result<Name, Infallible> {
        Ok(self.0.name(*object))
    }
    fn fence(&mut self, fence: &Obj) -> Result<Name, Infallible> {
        Ok(self.0.name(*fence))
    }
    fn count(&mut self, value: &u32, _: &'static str) -> Result<u64, Infallible> {
        Ok(*value as u64)
    }
    /// Written only when not the default, 0.
    fn defaulted_count(&mut self, value: &u32, _: &'static str) -> Result<Option<u64>, Infallible> {
        Ok((*value != 0).then_some(*value as u64))
    }
    fn signed(&mut self, value: &i32, _: &'static str) -> Result<i64, Infallible> {
        Ok(*value as i64)
    }
    fn stencil(&mut self, value: &u8, _: &'static str) -> Result<u64, Infallible> {
        Ok(*value as u64)
    }
    fn format(&mut self, value: &recorder::Format) -> Result<TraceFormat, Infallible> {
        Ok(format(*value))
    }
    fn stage(&mut self, value: &recorder::Stage) -> Result<recorder::Stage, Infallible> {
        Ok(*value)
    }
    fn topology(
        &mut self,
        value: &recorder::PrimitiveTopology,
    ) -> Result<recorder::PrimitiveTopology, Infallible> {
        Ok(*value)
    }
    fn viewport(&mut self, v: &recorder::Viewport) -> Result<Viewport, Infallible> {
        Ok(Viewport {
            x: v.x,
            y: v.y,
            width: v.width,
            height: v.height,
        })
    }
    fn rect(&mut self, r: &recorder::Rect) -> Result<Rect, Infallible> {
        Ok(Rect {
            left: r.left as i64,
            top: r.top as i64,
            right: r.right as i64,
            bottom: r.bottom as i64,
        })
    }
    fn map_type(&mut self, value: &recorder::MapType) -> Result<recorder::MapType, Infallible> {
        Ok(*value)
    }
    fn compression(
        &mut self,
        value: &recorder::Compression,
    ) -> Result<recorder::Compression, Infallible> {
        Ok(*value)
    }
    /// `engine=` is written only when not the default, graphics.
    fn engine(&mut self, value: &recorder::Engine) -> Result<Option<recorder::Engine>, Infallible> {
        Ok((*value != recorder::Engine::Graphics).then_some(*value))
    }
    /// `restore=` is written only when yes.
    fn restore(&mut self, value: &bool) -> Result<Option<bool>, Infallible> {
        Ok(value.then_some(true))
    }
    /// The trace names an instance by the order of its maps, not by a field.
    fn instance(&mut self, _: &Option<InstanceId>) -> Result<(), Infallible> {
        Ok(())
    }
    fn map_writes(&mut self, (): &()) -> Result<(), Infallible> {
        Ok(())
    }
    fn barriers(&mut self, barriers: &[Barrier<Captured>]) -> Result<Vec<Barrier>, Infallible> {
        Ok(barriers.iter().map(|b| barrier(b, self.0)).collect())
    }
    fn legacy_barrier(
        &mut self,
        barrier: &LegacyBarrier<Captured>,
    ) -> Result<LegacyBarrier, Infallible> {
        Ok(legacy_barrier(barrier, self.0))
    }
}

/// One BARRIER of `barrier` as written.
fn barrier(barrier: &Barrier<Captured>, names: &dyn Namer) -> Barrier {
    let one = |o: &Obj| names.name(*o);
    match barrier {
        Barrier::Global { sync: s, access: a } => Barrier::Global {
            sync: both(s, |v| sync(*v)),
            access: both(a, |v| access(*v)),
        },
        Barrier::Buffer {
            resource,
            sync: s,
            access: a,
            size,
        } => Barrier::Buffer {
            resource: one(resource),
            sync: both(s, |v| sync(*v)),
            access: both(a, |v| access(*v)),
            size: *size,
        },
        Barrier::Texture {
            resource,
            sync: s,
            access: a,
            layout: l,
            mips,
            array,
            planes,
            discard,
        } => Barrier::Texture {
            resource: one(resource),
            sync: both(s, |v| sync(*v)),
            access: both(a, |v| access(*v)),
            layout: both(l, |v| layout(*v)),
            mips: span(*mips),
            array: span(*array),
            planes: span(*planes),
            discard: *discard,
        },
    }
}

/// The legacy barrier of `resource_barrier` as written.
fn legacy_barrier(barrier: &LegacyBarrier<Captured>, names: &dyn Namer) -> LegacyBarrier {
    let opt = |o: &Option<Obj>| o.map(|o| names.name(o));
    match barrier {
        LegacyBarrier::Transition {
            resource,
            before,
            after,
            subresource,
            split,
        } => LegacyBarrier::Transition {
            resource: names.name(*resource),
            before: states(*before),
            after: states(*after),
            subresource: subresource.map(|s| s as u64),
            split: split.filter(|half| *half != SplitHalf::None),
        },
        LegacyBarrier::Uav { resource } => LegacyBarrier::Uav {
            resource: opt(resource),
        },
        LegacyBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
            before: opt(before),
            after: opt(after),
        },
    }
}
