//! # recorder
//!
//! The recording half of the engine: a [`Device`] and its objects, and [`DeferredContext`]s that
//! worker threads record GPU work on, in the model of Direct3D 11.x on Xbox One.
//!
//! **In:** API calls on deferred contexts, one thread per context, many contexts at once.
//! **Out:** immutable [`CommandList`]s: chains of 64 KB chunks (by default) holding the commands
//! in the form execution consumes ([`encode`]), with the split points a legacy list needs resolved
//! at execution ([`SplitCategory`]) found through side records, and per-list statistics.
//!
//! **Invariants.**
//! - A handle never dangles: every use of a released object is reported (`released_object`),
//!   never undefined behaviour, through the generation check of the object tables.
//! - Recording a call allocates nothing once the chunk pool is warm, takes no lock, and under fast
//!   semantics performs no atomic read-modify-write. Legacy semantics pays for its reference
//!   counting with atomic adds, as the seeds describe.
//! - Bad input never panics: the call is refused, the list keeps its first error (R-REC-8).
//! - Nothing a list references (objects under legacy semantics, nested lists, the data of its
//!   write_discard maps) is freed while the list lives.
//!
//! Execution (the immediate context and the GPU model) lives in the `executor` crate; draw
//! bundles in `bundles`.

mod bind;
mod calls;
mod carry;
mod chunk;
mod context;
mod decode;
mod desc;
mod device;
mod dynamic;
pub mod encode;
mod error;
mod handle;
mod info;
pub mod limits;
mod list;
mod map;
mod resolve;
mod shadow;
mod split;
mod sync;
mod table;

pub use bind::VertexBuffer;
pub use chunk::{ChunkPolicy, GrowthPolicy, PoolStats};
pub use context::{DeferredContext, DeferredContextDesc};
pub use desc::*;
pub use device::{Device, DeviceDesc, Validation};
pub use error::{Error, ErrorKind, ObjectName, RecordError};
pub use handle::*;
pub use info::{BufferInfo, ShaderInfo, SwapChainInfo, TextureInfo, ViewInfo};
pub use list::{CommandList, Commands, ListHeader, ListStats, Segment, StartState};
pub use split::{SplitCategory, SplitCounts};

/// Internals the loom models in `loom-tests/` drive directly.
#[cfg(loom)]
#[doc(hidden)]
pub mod loom_exports {
    pub use crate::chunk::{ChunkHeader, ChunkPool};
    pub use crate::table::{ObjectTable, ReleaseOutcome, Stale};
}
