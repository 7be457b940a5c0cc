#![deny(missing_docs)]
//! # recorder
//!
//! The recording half of the engine: a [`Device`] and its objects, and [`DeferredContext`]s that
//! worker threads record GPU work on, in the model of Direct3D 11.x on Xbox One.
//!
//! **In:** API calls on deferred contexts, one thread per context, many contexts at once.
//! **Out:** immutable [`CommandList`]s: chains of 64 KB chunks (by default) holding the commands
//! in the form execution consumes ([`command`]), with the split points a legacy list needs resolved
//! at execution ([`SplitCategory`]) found through side records, and per-list statistics.
//!
//! **Invariants.**
//! - A handle never dangles: every use of a released object is reported (`released_object`),
//!   never undefined behaviour, through the generation check of the object tables.
//! - A handle never reaches another device's object: its generation carries its device's tag
//!   (`device/device_identity.rs`), so the same check refuses it, reported as `invalid_argument` naming both
//!   devices (R-OBJ-3); a release of it does nothing (and logs a warning).
//! - Recording a call allocates nothing once the chunk pool is warm, takes no lock, and under fast
//!   semantics performs no atomic read-modify-write. Legacy semantics pays for its reference
//!   counting with atomic adds, as the seeds describe.
//! - Bad input never panics: the call is refused, the list keeps its first error (R-REC-8).
//! - Nothing a list references (objects under legacy semantics, nested lists, the data of its
//!   write_discard maps) is freed while the list lives.
//! - Under legacy semantics no shader-resource slot holds a view of a resource the context has
//!   bound for output (R-ST-10, `binds/bind_hazards.rs`), in what it encodes and in what it carries.
//!
//! - A context's binding state is one type ([`state::Bindings`], one `apply` for the binding
//!   commands), kept by a legacy context's shadow and by the executor's GPU model and bundle
//!   overlay alike, so the two never drift (R-ST-5, R-SP-4, R-B-4).
//!
//! **Contexts.** Three context types share one recording core ([`Recorder`]): a
//! [`DeferredContext`] (`Recorder<DeferredRole>`), the immediate context's recorder (owned by
//! the executor's `ImmediateContext`) and a bundle recorder's core (owned by the `bundles`
//! crate's `BundleRecorder`). What each can do is a set of small traits, one per capability
//! ([`capabilities`]: binds, fast binds, draws, inherited state, transfers, maps, queries, fences,
//! barriers, engine memory), used through static dispatch: a deferred context and the immediate
//! context have them all ([`DeviceContext`]), a bundle recorder binds and draws alone, so a call
//! its role may not make does not compile on it. The calls only one of them makes exist on it
//! alone (no role flag, no `Deref`, no call that exists only to fail: see `context/role.rs`). What the sibling crates need of
//! the core and the device is the documented [`engine`] API.
//!
//! Execution (the immediate context and the GPU model) lives in the `executor` crate; draw
//! bundles in `bundles`. An embedder imports [`prelude`] (or the executor's, which adds the
//! immediate context, bundles and records).
//!
//! **Layout.** One folder or file per area, each opening with what flows in, what flows out and
//! its invariant:
//!
//! - the calls, by area: `binds/` (state setters, one file per part of the pipeline, with
//!   `resolve.rs`, where handles become descriptors and split points, and `bind_hazards.rs`),
//!   `draws.rs` (draws, dispatches), `transfers.rs` (clears, copies, update_subresource), `maps/`
//!   (maps and the per-list map tracker), `queries.rs` (queries, predication), `fences.rs`
//!   (fences, waits, presents), `barriers/` (values, records, calls), `fast/` (the extensions that
//!   always follow the fast contract: fast resources and placement, GDS and constant RAM,
//!   compression and minimum LOD, device context state objects); each area holds its
//!   capability trait (`binds/bind_calls.rs`, `binds/state_calls.rs`, `draws.rs`, ...), gathered
//!   by [`capabilities`] with [`DeviceContext`] (all of them); `call_arguments.rs` holds the
//!   values the calls take besides objects;
//! - the recording core: `context/` (the [`Recorder`]; its hot-path helpers, `emit.rs`; a
//!   list's start, finish and seal, `list_life.rs` and `seal.rs`; its roles; the legacy
//!   machinery: shadow, local references, carried state, split categories; and the recorder's
//!   share of bundles), [`command`] (the vocabulary: opcodes, bound descriptors, payloads, draw
//!   arguments, sizes, the typed `Command` and its decoding), `chunk/` (the memory), `list/`
//!   (finished lists and their walks), [`state`] (the binding state);
//! - the objects: `device/` (the device, object creation, handles, tables, identity, what each
//!   object's descriptor words hold), `desc/` (what an application asks for), `errors/`;
//! - the boundaries: [`engine`] (the sibling crates' API), [`limits`], `sync.rs` (the loom facade).
//!
//! # Example
//!
//! Two worker threads record one list each; a dynamic constant buffer mapped write_discard in the
//! list travels with it, so the legacy list has no split point for it.
//!
//! ```
//! use recorder::*;
//!
//! let device = Device::new(DeviceDesc::default());
//! let constants = device.create_buffer(&BufferDesc {
//!     name: "per_draw",
//!     size: 256,
//!     usage: Usage::Dynamic,
//!     bind: BindFlags::CONSTANT,
//!     ..Default::default()
//! })?;
//! let vs = device.create_shader(&ShaderDesc { constant_buffers: Slots::first(1), ..ShaderDesc::new("vs", Stage::Vertex) })?;
//!
//! let lists: Vec<CommandList> = std::thread::scope(|scope| {
//!     let workers: Vec<_> = [Semantics::Legacy, Semantics::Fast]
//!         .into_iter()
//!         .map(|semantics| {
//!             let device = &device;
//!             scope.spawn(move || {
//!                 let desc = DeferredContextDesc { name: "worker", semantics, ..Default::default() };
//!                 let mut context = device.create_deferred_context(&desc)?;
//!                 context.set_shader(Stage::Vertex, Some(vs));
//!                 for draw in 0..100u32 {
//!                     // The guard unmaps when it is dropped, at the end of the `if let`.
//!                     if let Ok(mut data) = context.map(constants, MapType::WriteDiscard, MapFlags::None) {
//!                         data[..4].copy_from_slice(&draw.to_le_bytes());
//!                     }
//!                     context.set_constant_buffers(Stage::Vertex, 0, &[Some(constants)]);
//!                     context.draw(3, 0);
//!                 }
//!                 context.finish_command_list(RestoreState::ClearState).map_err(|e| e.error)
//!             })
//!         })
//!         .collect();
//!     workers.into_iter().map(|w| w.join().expect("worker")).collect::<Result<_, Error>>()
//! })?;
//!
//! for list in &lists {
//!     assert_eq!(list.stats().draws, 100);
//!     assert_eq!(list.stats().split_points.total(), 0);
//! }
//! # Ok::<(), recorder::Error>(())
//! ```

mod barriers;
mod binds;
mod call_arguments;
pub mod capabilities;
mod chunk;
pub mod command;
mod context;
mod desc;
mod device;
mod draws;
pub mod engine;
mod errors;
mod fast;
mod fences;
pub mod limits;
mod list;
mod maps;
mod queries;
pub mod semantics {
    //! The guide to the semantics the engine implements: legacy and fast, split points, draw
    //! bundles, validation (`recorder/docs/semantics.md`, included whole).
    #![doc = include_str!("../docs/semantics.md")]
}
pub mod state;
mod sync;
mod transfers;

pub use barriers::{
    BarrierAccess, BarrierCounts, BarrierGroup, BarrierKind, BarrierLayout, BarrierRecord,
    BarrierSubresources, BarrierSync, BufferBarrier, GlobalBarrier, NamedResource, ResourceBarrier,
    ResourceBarrierKind, ResourceBarrierRecord, ResourceStates, Span, SplitHalf, TextureBarrier,
};
pub use call_arguments::{
    Compression, DecompressKinds, DecompressRegion, FastResource, FastResourceBatch, MapFlags,
    PredicateValue, VertexBuffer,
};
pub use capabilities::{
    BarrierCalls, BindCalls, Capability, ClearStateCalls, Context, CoreAccess, DeviceContext,
    DrawCalls, EngineMemoryCalls, FastBindCalls, FenceCalls, IndirectDispatchCalls,
    InheritedStateCalls, MapCalls, QueryCalls, TransferCalls,
};
pub use chunk::{ChunkPolicy, GrowthPolicy, PoolStats};
pub use command::{NestedList, Remap, RemapKind};
pub use context::bundle_entry::{BundleBody, OutputFormats};
pub use context::legacy::LEGACY_BUILT;
pub use context::registered_bundle::RegisteredBundle;
pub use context::role::{BundleRole, DeferredRole, ImmediateRole, Role};
pub use context::split::{SplitCategory, SplitCounts};
pub use context::{DeferredContext, DeferredContextDesc, Recorder, RestoreState};
pub use desc::*;
pub use device::handle::*;
pub use device::object_info::{
    BufferInfo, ShaderInfo, SwapChainInfo, TextureInfo, ViewInfo, ViewMinLod,
};
pub use device::{Device, DeviceDesc, Validation};
pub use errors::{CopyProblem, DescProblem, Error, ErrorKind, ObjectName, RecordError};
pub use fast::context_state::DeviceContextState;
pub use fences::FenceFlags;
pub use list::{
    Attachment, CommandList, CommandRun, Commands, LastInstance, ListHeader, ListStats, QueuedRun,
    Segment, SegmentWalk, Segments, SplitPointQueue, StartState,
};
pub use maps::map_calls::Mapped;

/// One import for an application that records: the device and its descriptors, the handles,
/// the deferred context and the calls of every capability ([`DeviceContext`] is all of them), maps, lists,
/// their statistics and the errors. `use recorder::prelude::*;`
pub mod prelude {
    pub use crate::call_arguments::{
        Compression, DecompressKinds, DecompressRegion, MapFlags, PredicateValue, VertexBuffer,
    };
    pub use crate::capabilities::{
        BarrierCalls, BindCalls, ClearStateCalls, Context, DeviceContext, DrawCalls,
        EngineMemoryCalls, FastBindCalls, FenceCalls, IndirectDispatchCalls, InheritedStateCalls,
        MapCalls, QueryCalls, TransferCalls,
    };
    pub use crate::context::split::{SplitCategory, SplitCounts};
    pub use crate::context::{DeferredContext, DeferredContextDesc, RestoreState};
    pub use crate::desc::*;
    pub use crate::device::handle::*;
    pub use crate::device::{Device, DeviceDesc, Validation};
    pub use crate::errors::{Error, ErrorKind, ObjectName, RecordError};
    pub use crate::list::{CommandList, ListStats};
    pub use crate::maps::map_calls::Mapped;
    pub use crate::ChunkPolicy;
}

/// Internals the loom models in `loom-tests/` drive directly.
#[cfg(loom)]
#[doc(hidden)]
pub mod loom_exports {
    pub use crate::chunk::{ChunkHeader, ChunkPool};
    pub use crate::device::table::{ObjectTable, ReleaseOutcome, Stale};
}
