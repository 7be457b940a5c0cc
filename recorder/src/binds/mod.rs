//! The state-setting calls.

mod bind_hazards;
pub(crate) mod resolve;
mod shader_slots;
