//! # executor
//!
//! The execution half of the engine (SPEC §5, §6, §8). What exists so far is the GPU model, the
//! stand-in for the hardware that everything else here feeds.
//!
//! **In:** the commands the immediate context submits, in order, as the recorder encoded them
//! (`recorder::encode::Command`), each with the semantics of the context that recorded it; a
//! command list's segments (`recorder::CommandList::segments`), each one indirect-buffer
//! execution; the split points the executor resolved, with their patched commands.
//! **Out:** one [`DrawRecord`] per draw or dispatch (R-EX-3), answering TRACE.md's field names
//! through [`DrawRecord::field`], and the cumulative [`Counters`] of TRACE.md's keys.
//!
//! **Invariants.** The model keeps exactly the register and binding state the commands set:
//! a record holds the slots the bound shaders read and nothing else; a context roll is counted
//! once per draw that follows a context-register write (R-EX-4); compression is tracked per
//! texture (R-ST-9); the reset index follows the recording context's semantics (R-ST-5).
//! Nothing panics, whatever the commands.
//!
//! **Not built yet** (they arrive with the rest of the executor issue): the immediate context
//! and its direct calls, command-list and bundle execution (expanding nested lists, resolving
//! split points against the immediate context's dynamic instances, the before/after state rules
//! of R-ST-1/2), fences and swap chains, validation mode. Until then the model is driven by hand:
//! see `tests/gpu_model.rs`.

mod field;
mod gpu;
mod record;

pub use field::{FieldValue, Named, NamedRecord, ObjectNamer, RawNames};
pub use gpu::{GpuModel, GpuState, DEFAULT_RESET_INDEX, R16_RESET_INDEX};
pub use record::{
    BlendRecord, Counters, DepthStencilRecord, DrawArgs, DrawKind, DrawRecord, GraphicsRecord,
    StageRecord, ViewRecord,
};
