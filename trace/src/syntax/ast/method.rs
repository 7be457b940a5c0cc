//! The parts of a call that are not its arguments' kinds: the [`CallContext`] a call is issued
//! on, and the argument types some calls share ([`FastEntry`] of `set_fast_resources`,
//! [`VertexBinding`] of `set_vertex_buffers`, [`Remap`] of the remap calls; the barriers are
//! `barriers.rs`). The calls themselves, the
//! [`Method`](super::Method) enum, are the call table's (`syntax/call_table.rs`).
//!
//! **In:** nothing; these are plain data. **Out:** the types the call table's fields hold, in
//! any [`Form`].

use super::forms::{Form, Written};
use crate::syntax::name::Name;

/// The context a call is issued on, its recorder named by `O`: a [`Name`] as written, the
/// replay's object number once lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallContext<O = Name> {
    /// `imm`.
    Immediate,
    /// A context declared with `context`.
    Deferred(O),
    /// A recorder declared with `bundle`.
    BundleRecorder(O),
}

impl<O> CallContext<O> {
    /// A bundle recorder: `finish` there makes the bundle (a guard of the call table).
    pub fn is_bundle_recorder(&self) -> bool {
        matches!(self, Self::BundleRecorder(_))
    }

    /// A device context, `imm` or deferred (not a bundle recorder): `finish LIST` there declares
    /// a command list (a guard of the call table).
    pub fn is_device_context(&self) -> bool {
        !self.is_bundle_recorder()
    }
}

/// What a `set_fast_resources` ENTRY binds (R-FX-1): the field name of the draw records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastKind {
    /// `STAGE.cb.SLOT`.
    ConstantBuffer,
    /// `STAGE.srv.SLOT`.
    ShaderResource,
    /// `STAGE.sampler.SLOT`.
    Sampler,
    /// `vb.SLOT`.
    VertexBuffer,
}

impl FastKind {
    /// The word between the stage and the slot (`cb`, `srv`, `sampler`), or `vb`.
    pub fn word(self) -> &'static str {
        match self {
            Self::ConstantBuffer => "cb",
            Self::ShaderResource => "srv",
            Self::Sampler => "sampler",
            Self::VertexBuffer => "vb",
        }
    }
}

/// One ENTRY of `set_fast_resources` (R-FX-1): `STAGE.KIND.SLOT=OBJ|null` or `vb.SLOT=BUF|null`.
#[derive(Clone, Debug, PartialEq)]
pub struct FastEntry<F: Form = Written> {
    /// What the entry binds.
    pub kind: FastKind,
    /// The stage (`None` for a vertex buffer).
    pub stage: Option<F::Stage>,
    /// The slot.
    pub slot: F::Count,
    /// The object, or `null`.
    pub object: Option<F::Object>,
    /// A vertex buffer's stride and byte offset (`vb.SLOT=BUF:STRIDE:OFFSET`); `[0, 0]` for
    /// the other kinds, which write none.
    pub vertex: [u32; 2],
}

/// One slot of `set_vertex_buffers` (R-GPU-2): `BUF|null[:STRIDE[:OFFSET]]`, the buffer (or
/// `null`) bound with the distance in bytes from one vertex to the next and the byte offset of
/// the first. Left out, each is 0: `BUF` alone is stride 0, offset 0. `B` is what names the
/// buffer: `Option<O>` where `null` may stand (`set_vertex_buffers`), `O` where a buffer must
/// (`set_placement_vertex_buffer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexBinding<B = Option<Name>> {
    /// The buffer; `None` for `null` (which unbinds the slot, keeping its stride and offset as
    /// the engine's binding state does).
    pub buffer: B,
    /// The vertex stride in bytes.
    pub stride: u32,
    /// The byte offset of the first vertex.
    pub offset: u32,
}

impl<B> VertexBinding<B> {
    /// `buffer` with stride 0 and offset 0: what `BUF` alone says.
    pub fn plain(buffer: B) -> Self {
        Self {
            buffer,
            stride: 0,
            offset: 0,
        }
    }
}

/// `STAGE SLOT INHERIT_STAGE INHERIT_SLOT` of the remap calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remap<F: Form = Written> {
    /// The stage of the slot the bundle's draws read.
    pub stage: F::Stage,
    /// The slot the bundle's draws read.
    pub slot: F::Count,
    /// The stage of the caller's slot it reads instead.
    pub inherit_stage: F::Stage,
    /// The caller's slot it reads instead.
    pub inherit_slot: F::Count,
}
