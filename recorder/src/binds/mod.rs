//! The state-setting calls of every context that records (R-REC-5): one file per part of the
//! pipeline (`input_assembler.rs`, `shader_slots.rs`, `output_merger.rs`, `rasterizer.rs`), and
//! ClearState here. Predication is with the queries (`queries.rs`). The legacy immediate
//! context's re-bind of swap-chain views after a present (R-EX-7) is `swap_chain_rebind.rs`.
//!
//! **In:** the objects and values an application binds. **Out:** binding commands in the list,
//! each through `resolve.rs`, which turns handles into the descriptors a command encodes and is
//! where split points come from (R-SP-1..3); on a legacy context, what the bind remembers goes to
//! its shadow's `Bindings` (`state/mod.rs`), the type the GPU model applies the same commands to:
//! slot arrays with their references (`shadow_slots`), registers through the setters its `apply`
//! uses (the reset index a legacy index buffer derives, R-ST-5, included), from the values just
//! encoded, never decoded back.
//!
//! **Invariants.** A bad handle refuses the whole call before anything is kept, and a legacy bind
//! takes the references its list and its binding hold (R-OBJ-4). A legacy bind keeps inputs and
//! outputs apart (R-ST-10, `bind_hazards.rs`): an output bind unbinds the shader-resource views
//! of its resources, and a shader-resource view of a resource bound for output is bound null.

use crate::command::{Empty, Opcode};
use crate::context::role::Role;
use crate::context::Recorder;

pub(crate) mod bind_calls;
mod bind_hazards;
pub(crate) mod input_assembler;
mod output_merger;
mod rasterizer;
pub(crate) mod resolve;
mod shader_slots;
pub(crate) mod state_calls;
mod swap_chain_rebind;

impl<R: Role> Recorder<R> {
    /// [`ClearStateCalls::clear_state`](crate::ClearStateCalls::clear_state): its semantics.
    pub(crate) fn clear_state(&mut self) {
        self.begin_call();
        self.reset_shadow();
        self.emit(Opcode::ClearState, 0, None, Empty);
    }
}
