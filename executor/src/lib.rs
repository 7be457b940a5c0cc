#![deny(missing_docs)]
//! # executor
//!
//! The execution half of the engine (SPEC §5, §6, §8): the immediate context, which runs
//! direct calls and command lists, presents, fences, maps and validation, and the GPU model,
//! the stand-in for the hardware that everything here feeds, inline or on its own thread. The
//! guide to the semantics executed here (legacy and fast, split points, bundles, validation) is
//! [`recorder::semantics`].
//!
//! **In:** finished command lists ([`ImmediateContext::execute_command_list`]) and draw bundles
//! ([`ImmediateContext::draw_bundle`], or called from lists); underneath, the
//! commands the immediate context submits, in order, as the recorder encoded them
//! (`recorder::command::Command`), each with the semantics of the context that recorded it; a
//! command list's segments (`recorder::CommandList::segments`), each one indirect-buffer
//! execution; the split points resolved against the immediate context, with their patched
//! commands.
//! **Out:** one [`DrawRecord`] per draw or dispatch (R-EX-3), answering its fields by name
//! through [`DrawRecord::field`], and the cumulative [`Counters`], by key.
//!
//! **Invariants.** Executing a list costs O(segments + split points + nested lists and bundle
//! calls), not O(commands) (R-EX-2); calling a bundle costs O(1) on the CPU, the model expands
//! it and leaves the caller's state as it was (R-B-10). The model keeps exactly the register
//! and binding state the commands set: a record holds the slots the bound shaders read and
//! nothing else; a context roll is counted once per draw that follows a context-register write
//! (R-EX-4); compression is tracked per texture (R-ST-9); the reset index follows the recording
//! context's semantics (R-ST-5); a resource that legacy draws switch between written and read
//! costs a cache flush (R-ST-10: the recorder keeps legacy bindings apart, the model counts the
//! response). Nothing panics, whatever the commands.
//!
//! **Parallel recording** ([`jobs`], R-J-1): [`RecordingPool`], W persistent worker threads
//! each owning a deferred context, records a frame's N jobs by work stealing (crossbeam-deque)
//! and returns one command list per job, in job order, for the immediate context to execute in
//! that order; a job's error or panic comes back in its place.
//!
//! **An example** of the whole path: a device, two threads recording at once on deferred
//! contexts of their own (each `Send`, not `Sync`), the lists executed in order on the immediate
//! context, and what the GPU model recorded of them.
//!
//! ```
//! use executor::prelude::*;
//!
//! let device = Device::new(DeviceDesc::default());
//! let vs = device.create_shader(&ShaderDesc::new("vs", Stage::Vertex))?;
//! let contexts = [
//!     device.create_deferred_context(&DeferredContextDesc { name: "shadows", ..Default::default() })?,
//!     device.create_deferred_context(&DeferredContextDesc { name: "opaque", ..Default::default() })?,
//! ];
//!
//! // Thread 0 records one draw, thread 1 two; neither takes a lock.
//! let lists = std::thread::scope(|scope| {
//!     let threads: Vec<_> = (1..)
//!         .zip(contexts)
//!         .map(|(draws, mut context)| {
//!             scope.spawn(move || {
//!                 context.set_primitive_topology(PrimitiveTopology::TriangleList);
//!                 context.set_shader(Stage::Vertex, Some(vs));
//!                 for draw in 0..draws {
//!                     context.draw(3, 3 * draw);
//!                 }
//!                 context.finish_command_list(RestoreState::ClearState)
//!             })
//!         })
//!         .collect();
//!     threads
//!         .into_iter()
//!         .map(|thread| thread.join().expect("a recording thread panicked"))
//!         .collect::<Result<Vec<CommandList>, RecordError>>()
//! })
//! .map_err(|e| e.error)?;
//!
//! // The immediate context executes them in the order the frame needs them.
//! let mut immediate = ImmediateContext::new(&device)?;
//! for list in &lists {
//!     immediate.execute_command_list(list, RestoreState::ClearState)?;
//! }
//!
//! // One draw record per draw (R-EX-3), with the state it drew with, and the counters.
//! let records = immediate.records();
//! assert_eq!(records.len(), 3);
//! assert_eq!(records[2].kind, DrawKind::Draw);
//! assert_eq!(records[2].args.values().collect::<Vec<_>>(), [3, 3]); // vertex count, start
//! assert_eq!(records[2].stage(Stage::Vertex).map(|s| s.shader), Some(vs.raw()));
//! assert_eq!(immediate.counters().draws, 3);
//! # Ok::<(), Error>(())
//! ```
//!
//! **Barriers and hazards** (SPEC §8, §9) are the GPU model's: its response to enhanced and
//! legacy barriers, layouts, compression and the checks of R-BAR-8 (`gpu/barrier_response.rs`); heaps,
//! placed resources, which alias is active and region copies (R-BAR-7, `gpu/placed.rs`); and,
//! under `Validation::Hazards`, hazard tracking (R-V-2, `gpu/hazard_tracking.rs`): uncovered writes,
//! uses of deactivated aliases, region copies by region. **Not built yet:** write-after-read
//! hazards (a write while an earlier read may still run) and hazards between two aliases over
//! the same bytes (writes are tracked per resource), as `gpu/hazard_tracking.rs` says.

mod draw_record;
mod field;
mod gpu;
mod gpu_backend;
mod gpu_thread;
mod immediate;
pub mod jobs;
mod progress;
mod sync;

pub use field::{FieldValue, Named, NamedRecord, ObjectNamer, RawNames};
pub use gpu::{
    legacy_equivalent, GpuModel, GpuState, Memory, TextureState, DEFAULT_RESET_INDEX,
    R16_RESET_INDEX,
};
pub use gpu::{QueryCounts, QueryData, QueryResult, QuerySnapshot};
pub use gpu_backend::GpuBackend;
pub use immediate::{GpuTiming, ImmediateBundle, ImmediateContext};
pub use jobs::{
    JobError, JobReport, JobResult, PoolError, RecordingContext, RecordingPool, RecordingPoolDesc,
};
pub use progress::Progress;

/// One import for an embedder: `use executor::prelude::*;` brings the device and its
/// descriptors, the handles, the context types (deferred contexts, the [`ImmediateContext`],
/// bundle recorders) and their capability traits (all of them: [`DeviceContext`](recorder::DeviceContext)),
/// maps, lists, bundles, GPU timing, the parallel recording pool, draw records and counters,
/// and the errors.
pub mod prelude {
    pub use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
    pub use recorder::prelude::*;

    pub use crate::draw_record::{Counters, Draw, DrawKind, DrawRecord, Records};
    pub use crate::field::{FieldValue, Named, NamedRecord};
    pub use crate::gpu::{GpuModel, QueryCounts, QueryData};
    pub use crate::immediate::{GpuTiming, ImmediateBundle, ImmediateContext};
    pub use crate::jobs::{
        JobError, JobReport, JobResult, PoolError, RecordingPool, RecordingPoolDesc,
    };
}

/// Internals the loom models in `loom-tests/` drive directly.
#[cfg(loom)]
#[doc(hidden)]
pub mod loom_exports {
    pub use crate::gpu_thread::Handoff;
    pub use crate::jobs::pool::{Finished, WorkerPool};
}
pub use draw_record::{
    BlendRecord, Counters, DepthStencilRecord, Draw, DrawArgs, DrawChanges, DrawKind, DrawRecord,
    GraphicsRecord, GraphicsView, Records, StageRecord, StageView, Stages, ViewRecord,
};
