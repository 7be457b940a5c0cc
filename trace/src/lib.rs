#![deny(missing_docs)]
//! # trace: the plain-text trace format (docs/TRACE.md), the `replay` command, the advisor and capture
//!
//! A tool beside the engine, not inside it: everything here uses `recorder`, `bundles` and
//! `executor` through their public API, and the engine knows nothing of traces.
//!
//! docs/TRACE.md (`trace/docs/TRACE.md`, included below) is the format's reference in this
//! repository: the normative text, with a note on each construct not built yet and the error the
//! replay gives for it today, and examples that `tests/trace_reference.rs` runs. "TRACE.md" in
//! the comments of this crate means that file.
//!
//! Four rooms, and what flows between them:
//! * `syntax/`: the format itself. **In:** any bytes. **Out:** a typed [`Trace`] ([`parse`])
//!   or the first [`ParseError`]; a [`Trace`] prints back (`Display`) as canonical text. It
//!   never touches the engine.
//! * `replay/`: running a [`Trace`] on the engine, with the reference run and the comparison of
//!   `--compare` beside it (`replay/reference/`). **In:** the bytes of a trace and the command
//!   line. **Out:** what the `replay` command (`src/bin/replay.rs`) prints and its exit code
//!   ([`replay()`]).
//! * [`explain`]: the advisor of `replay --explain`. **In:** a trace. **Out:** the fixes that
//!   would remove its split points, each measured by replaying the edited trace.
//! * [`capture`]: a running application's frame written as a trace. **In:** the application's
//!   calls, through wrappers of the engine's device and contexts. **Out:** the frame's trace and
//!   the digest its replay prints.
//!
//! Beside them, [`event_output`]: the `tracing` subscriber every binary of the workspace
//! installs, so the engine's warnings reach the user.
//!
//! The replay depends on the syntax (it reads the tree), never the other way; the advisor on
//! both; the capture writes through the syntax's printer. A call has one shape, [`Method`],
//! generic over its [`Form`]: the syntax holds it [`Written`] (names, numbers and words as the
//! trace writes them), the replay in its own `Lowered` form (objects by number, the engine's
//! types, defaults applied), and lowering maps one form to the other; an [`Expectation`]
//! likewise. Each room's `mod.rs` essay says what flows in and out of it, its layout, and the
//! choices it makes where docs/TRACE.md is silent: `syntax/mod.rs` the format's (names, kinds,
//! options, numbers, `expect draw` values, text), `replay/mod.rs` the replay's (malformed versus
//! refused, instances, defaults, outcomes, fences, bundles, output, origins, JSON, the command
//! line).
//!
//! ---
//!
//! What follows is that reference, `trace/docs/TRACE.md`, included whole; the guide to what
//! the engine does with the calls is `recorder/docs/semantics.md`.
#![doc = include_str!("../docs/TRACE.md")]

pub mod capture;
pub mod event_output;
pub mod explain;
pub(crate) mod replay;
mod sync;
pub(crate) mod syntax;

pub use replay::{replay, Args, BackendFactory, Replay, ReplayOptions, TraceSource, USAGE};
pub use syntax::{
    parse, AccessWord, Barrier, BeforeAfter, BindFlags, Call, CallContext, Compression, CounterKey,
    Declaration, DrawField, Engine, ErrorKind, Expectation, ExpectedLayout, ExpectedValue,
    FastEntry, FastKind, Flags, Form, Format, LayoutWord, LegacyBarrier, MapType, Method, Name,
    Number, ObjectRef, ParseError, Placement, PrimitiveTopology, Rect, Remap, Semantics, SlotRange,
    SlotSet, SplitCategory, SplitHalf, Stage, StateWord, Statement, Subject, SyncWord, Trace,
    UavFlag, Usage, Validation, VertexBinding, Viewport, Written,
};
// Queries with results (R-FX-3).
pub use syntax::{ExpectedQuery, QueryKey, QueryKind, QueryMode};
// The options of decompress_resource (R-ST-9).
pub use syntax::Decompression;
// What a real GPU needs of a declared object (R-GPU-2, R-GPU-5).
pub use syntax::{
    AddressMode, BlendFactor, BlendFields, BlendOp, BlendTargetSpec, Comparison, CullMode,
    DepthStencilFields, Filter, InitialData, InputElementSpec, RasterizerFields, SamplerFields,
    ShaderCode, ShaderSource, StencilFaceSpec, StencilOp,
};
