//! What each kind of argument is: the [`Form`] a call and an expectation are held in, the form
//! [`Written`] the parser returns and the printer writes, and the argument types it holds (slot
//! ranges and sets, viewports, rectangles, flags joined by `+`, `BEFORE:AFTER` pairs).
//!
//! **In:** nothing; these are plain data. **Out:** the types the rest of the tree
//! (`method.rs`, `barriers.rs`, `expectation.rs`, `declaration.rs`) and the call table
//! (`../call_table.rs`) are written in; the replay's `Lowered` form and the capture's `Captured`
//! implement [`Form`] too, in their rooms. Every type a form names compares (`PartialEq`), so the
//! table's argument kinds may hold any of them.
//!
//! **Invariant.** A form only says what each kind of argument is: the variants and their
//! fields are written once, in [`Method`](super::Method), [`Barrier`](super::Barrier) and
//! [`Expectation`](super::Expectation). This room names no form but [`Written`].

use std::fmt;
use std::ops::BitOr;

use crate::syntax::name::{Format, Name};
use crate::syntax::words::{AccessWord, LayoutWord, SplitHalf, StateWord, SyncWord};
use crate::syntax::words::{
    Compression, CounterKey, Engine, ErrorKind, MapType, PrimitiveTopology, SplitCategory, Stage,
    Word, WordTable,
};

/// An inclusive range of slots, `2-5`, or one slot `3` (`first == last`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotRange {
    /// The first slot of the range.
    pub first: u64,
    /// The last slot of the range, included; `first` for one slot.
    pub last: u64,
}

/// A slot set `0,2-5`, its ranges as written (overlaps and order kept; the parser refuses only
/// a backwards range). Never empty when parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotSet(pub Vec<SlotRange>);

impl SlotSet {
    /// Whether `slot` is in the set.
    pub fn contains(&self, slot: u64) -> bool {
        self.0.iter().any(|r| r.first <= slot && slot <= r.last)
    }
}

/// `X,Y,W,H` of `rs_set_viewports`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Left edge, in pixels.
    pub x: f32,
    /// Top edge, in pixels.
    pub y: f32,
    /// Width, in pixels.
    pub width: f32,
    /// Height, in pixels.
    pub height: f32,
}

/// `L,T,R,B` of `rs_set_scissor_rects` (signed, as D3D's `RECT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left edge, in pixels.
    pub left: i64,
    /// Top edge, in pixels.
    pub top: i64,
    /// Right edge, in pixels (excluded, as D3D's `RECT`).
    pub right: i64,
    /// Bottom edge, in pixels (excluded, as D3D's `RECT`).
    pub bottom: i64,
}

/// How the arguments of a [`Method`](super::Method) (and an
/// [`Expectation`](super::Expectation)) are held: the one shape of a call, in two forms.
///
/// The syntax room holds a call as written ([`Written`]: objects by [`Name`], numbers as the
/// `u64`/`i64` the format allows, the format's own words, an option not written `None`); the
/// replay holds the same call lowered to the engine's types (objects by number, numbers that fit
/// the engine's argument, the engine's enums, defaults applied). The variants and their fields
/// are written once, in [`Method`](super::Method); a form says only what each kind of argument
/// is. This room names no other form: the replay's lives in the replay, which imports this one.
pub trait Form: Clone + fmt::Debug + PartialEq {
    /// An object argument.
    type Object: Clone + fmt::Debug + PartialEq;
    /// An unsigned count, slot, offset or value (`u64` as written).
    type Count: Clone + fmt::Debug + PartialEq;
    /// BASE_VERTEX (`i64` as written).
    type Signed: Clone + fmt::Debug + PartialEq;
    /// `clear_depth_stencil_view`'s STENCIL (`u64` as written).
    type Stencil: Clone + fmt::Debug + PartialEq;
    /// A primitive topology.
    type Topology: Clone + fmt::Debug + PartialEq;
    /// A format.
    type Format: Clone + fmt::Debug + PartialEq;
    /// A shader stage.
    type Stage: Clone + fmt::Debug + PartialEq;
    /// A viewport of `rs_set_viewports`.
    type Viewport: Clone + fmt::Debug + PartialEq;
    /// A rectangle of `rs_set_scissor_rects`.
    type Rect: Clone + fmt::Debug + PartialEq;
    /// A map type.
    type MapType: Clone + fmt::Debug + PartialEq;
    /// `set_resource_compression`'s argument.
    type Compression: Clone + fmt::Debug + PartialEq;
    /// A fence's engine.
    type Engine: Clone + fmt::Debug + PartialEq;
    /// An argument with a default: `Option<T>` as written (`None`: not written), `T` once the
    /// default is applied.
    type Defaulted<T: Clone + fmt::Debug + PartialEq>: Clone + fmt::Debug + PartialEq;
    /// What a `map` adds to its arguments: nothing as written, the instance once lowered.
    type Instance: Clone + fmt::Debug + PartialEq;
    /// What the `write` statements after a `map` add to it: nothing as written; once lowered,
    /// the bytes the map's memory takes (the replay copies them when the map returns it).
    type MapWrites: Clone + fmt::Debug + PartialEq;
    /// The KIND of `expect error`.
    type ErrorKind: Clone + fmt::Debug + PartialEq;
    /// A CATEGORY of `expect split_points`.
    type SplitCategory: Clone + fmt::Debug + PartialEq;
    /// A KEY of `expect counters`.
    type CounterKey: Clone + fmt::Debug + PartialEq;
    /// A barrier's `sync=` side: flags combined with `+`.
    type Sync: Clone + fmt::Debug + PartialEq;
    /// A barrier's `access=` side: flags combined with `+`.
    type Access: Clone + fmt::Debug + PartialEq;
    /// A texture barrier's `layout=` side, and the layout of `expect resource`.
    type Layout: Clone + fmt::Debug + PartialEq;
    /// A legacy STATE: flags combined with `+`.
    type States: Clone + fmt::Debug + PartialEq;
    /// A texture barrier's `mips=`, `array=`, `planes=` range: `Option<SlotRange>` as written
    /// (`None`: every one), the engine's span once lowered.
    type Span: Clone + fmt::Debug + PartialEq;
    /// `split=begin|end` of a legacy transition.
    type Split: Clone + fmt::Debug + PartialEq;
    /// A list argument (the objects of a bind, the barriers of `barrier`, the viewports ..):
    /// a `Vec` as written and lowered; the capture keeps its calls' lists in per-context arenas
    /// (`capture/arena.rs`), so a captured call's list is no allocation of its own.
    type List<T: Clone + fmt::Debug + PartialEq>: Clone
        + fmt::Debug
        + PartialEq
        + std::ops::Deref<Target = [T]>
        + FromIterator<T>;
}

/// The form of a call as the trace writes it: what the parser returns and the printer writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Written;

impl Form for Written {
    type Object = Name;
    type Count = u64;
    type Signed = i64;
    type Stencil = u64;
    type Topology = PrimitiveTopology;
    type Format = Format;
    type Stage = Stage;
    type Viewport = Viewport;
    type Rect = Rect;
    type MapType = MapType;
    type Compression = Compression;
    type Engine = Engine;
    type Defaulted<T: Clone + fmt::Debug + PartialEq> = Option<T>;
    type Instance = ();
    type MapWrites = ();
    type ErrorKind = ErrorKind;
    type SplitCategory = SplitCategory;
    type CounterKey = CounterKey;
    type Sync = Flags<SyncWord>;
    type Access = Flags<AccessWord>;
    type Layout = LayoutWord;
    type States = Flags<StateWord>;
    type Span = Option<SlotRange>;
    type Split = SplitHalf;
    type List<T: Clone + fmt::Debug + PartialEq> = Vec<T>;
}

/// Flags combined with `+` (`compute_shading+pixel_shading`), the words in the order written
/// (an alias such as `predication` kept as written). Never empty when parsed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Flags<W>(pub Vec<W>);

impl<T: WordTable + Default + BitOr<Output = T>> Flags<Word<T>> {
    /// The engine's value: every word's flags, ORed (the empty set for no word).
    pub fn value(&self) -> T {
        self.0
            .iter()
            .fold(T::default(), |all, word| all | word.value())
    }
}

/// `BEFORE:AFTER` of a barrier's `sync=`, `access=` and `layout=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BeforeAfter<T> {
    /// BEFORE: the work, access or layout before the barrier.
    pub before: T,
    /// AFTER: the work, access or layout after it.
    pub after: T,
}

impl<T> BeforeAfter<T> {
    /// Both sides through `f`.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> BeforeAfter<U> {
        BeforeAfter {
            before: f(&self.before),
            after: f(&self.after),
        }
    }
}
