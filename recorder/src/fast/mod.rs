//! The fast extensions.

mod compression_min_lod;
pub(crate) mod context_state;
mod fast_resources;
pub(crate) mod gds;
