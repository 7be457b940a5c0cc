//! The fast extensions.

pub(crate) mod context_state;
mod fast_resources;
pub(crate) mod gds;
