//! The typed syntax tree of a trace: what [`parse`](super::parse()) returns and what the printer
//! (`print/`) writes back as canonical trace text.
//!
//! **In:** nothing; these are plain data. **Out:** one [`Statement`] per non-blank line, each
//! a declaration, a call or an expectation, with every argument typed: object names as
//! [`Name`](super::Name)s (checked against the declarations by the parser), numbers as
//! `u64`/`i64`, the floats docs/TRACE.md states as `f32`, slot sets as ranges, every closed
//! vocabulary as an enum (`words.rs`).
//!
//! **One shape, two forms.** A call ([`Method`]) and an expectation ([`Expectation`]) are
//! generic over a [`Form`], which says what each kind of argument is: [`Written`], here, holds
//! them as the trace writes them; the replay's `Lowered` form holds the same variants and fields
//! in the engine's types. The shape is written once, in this folder, and this room names no form
//! but its own (it never imports the replay).
//!
//! **Invariant.** Every tree the parser returns prints to text that parses back to the same
//! tree (the line numbers aside: printing puts one statement a line). An optional option the
//! trace did not write is `None` here (the engine's default applies), so printing writes exactly
//! the options that were written, in docs/TRACE.md's order. A hand-built tree prints the same way,
//! and parses back equal if it is one the parser could have produced: objects declared before
//! use, names that are [`Name`](super::Name)s, finite floats, values of the class the field
//! takes.
//!
//! ## The layout
//! One file per part of the tree, leaves first (each file imports only the ones before it); this
//! file holds the [`Trace`] and its [`Statement`]s, and re-exports the rest, so every type is
//! `trace::syntax::ast::X`:
//! * `forms.rs`: the [`Form`] trait, the [`Written`] form, and the argument types it holds
//!   ([`SlotRange`], [`SlotSet`], [`Viewport`], [`Rect`], [`Flags`], [`BeforeAfter`]).
//! * `contents_tree.rs`: what a real GPU needs of a declared object (R-GPU-2): [`ShaderCode`],
//!   [`InputElementSpec`]s, the four states' fields ([`BlendFields`], ...), [`InitialData`].
//! * `declaration.rs`: [`Declaration`] and the [`Placement`] of a placed resource.
//! * `barriers.rs`: [`Barrier`] and [`LegacyBarrier`], the arguments of `barrier` and
//!   `resource_barrier`.
//! * `method.rs`: the [`CallContext`] of a call, and the parts calls share ([`FastEntry`],
//!   [`FastKind`], [`VertexBinding`], [`Remap`]). The call vocabulary itself, [`Call`] and [`Method`], is the call
//!   table's (`../call_table.rs`), one entry per call, re-exported here.
//! * `expectation.rs`: [`Expectation`], its [`Subject`], [`ExpectedLayout`] and
//!   [`ExpectedQuery`].

mod barriers;
mod contents_tree;
mod declaration;
mod expectation;
mod forms;
mod method;

pub use barriers::{Barrier, LegacyBarrier};
pub use contents_tree::{
    BlendFields, BlendTargetSpec, DepthStencilFields, InitialData, InputElementSpec,
    RasterizerFields, SamplerFields, ShaderCode, ShaderSource, StencilFaceSpec,
};
pub use declaration::{Declaration, Placement};
pub use expectation::{Expectation, ExpectedLayout, ExpectedQuery, Subject};
pub use forms::{BeforeAfter, Flags, Form, Rect, SlotRange, SlotSet, Viewport, Written};
pub use method::{CallContext, FastEntry, FastKind, Remap, VertexBinding};
// The calls are the call table's (`syntax/call_table.rs`), which is written with this tree.
pub use super::call_table::{Call, Method};

/// A parsed trace: its statements with their 1-based line numbers, in order. Blank and comment
/// lines have no statement. The first statement is the `device`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Each statement and the 1-based line it was on.
    pub statements: Vec<(usize, Statement)>,
}

/// One line of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// A declaration: `device`, an object, a context or recorder, or `release`.
    Declaration(Declaration),
    /// A call on `imm`, a deferred context or a bundle recorder.
    Call(Call),
    /// An `expect` line.
    Expectation(Expectation),
}
