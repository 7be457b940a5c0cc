//! Barriers (SPEC §9, seed 001): the enhanced barriers of D3D12 as Xbox Series X|S runs them and
//! the legacy resource barriers beside them. `barrier_values.rs` holds what an application passes
//! (the D3D12 flags, layouts, groups), `barrier_records.rs` what a list stores, and
//! `barrier_calls.rs` the two calls, `barrier` and `resource_barrier`.
//!
//! **In:** barrier groups and resource barriers on any context that records. **Out:** one command
//! per call whose items are the records, read in place by the GPU model, which owns what a barrier
//! does (`executor/src/gpu/barrier.rs`).
//!
//! **Invariant.** Recording checks only what the recorder knows (the context may record one, the
//! resources are live, the groups and barriers are numbered in 16 bits, the call fits one
//! command); everything else is checked at execution, against the state the barrier meets
//! there.

mod barrier_calls;
mod barrier_records;
mod barrier_values;

pub use barrier_calls::BarrierCalls;
pub use barrier_records::*;
pub use barrier_values::*;
