//! Barriers (SPEC §9, seed 001).

mod barrier_calls;
mod barrier_values;

pub use barrier_values::*;
