//! The fast extensions: the calls the seeds add beside D3D11's, which always follow the fast
//! contract whatever the context's semantics. `fast_resources.rs`: `set_fast_resources`, its
//! reusable [`FastResourceBatch`](crate::FastResourceBatch), `set_fast_shader_resource` and the
//! placement binds (R-FX-1, R-FX-2); `gds.rs`: the global data store and the constant engine's
//! RAM (R-FX-4, R-FX-5); `compression_min_lod.rs`: decompression, compression overrides and
//! minimum LODs (R-ST-6, R-ST-9); `context_state.rs`: device context state objects (R-FX-6).
//!
//! **In:** the extension calls on any context that records (a bundle refuses most of them, in
//! the `bundles` crate). **Out:** the ordinary commands of their kind, or their own (GDS,
//! constant RAM, compression), so execution sees nothing new where a command already exists.
//!
//! **Invariant.** No reference is taken and no split point is made by a fast call (the
//! application owns lifetimes and hazards, as under fast semantics); a call is checked whole and
//! refused as a whole.

mod compression_min_lod;
pub(crate) mod context_state;
pub(crate) mod engine_memory_calls;
pub(crate) mod fast_bind_calls;
mod fast_resources;
pub(crate) mod gds;
