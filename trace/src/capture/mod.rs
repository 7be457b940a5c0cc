//! Capture (SPEC §13, after the D3D11 back end of a capture tool that SPEC cites): a frame of a running application written as a trace
//! (docs/TRACE.md) that `replay` runs, with the same draw records.
//!
//! **In:** every call of the application, through the capture's wrappers of the engine's types
//! (R-CAP-1): [`CaptureDevice`] (creations and releases), [`CapturedImmediate`],
//! [`CapturedDeferred`] and [`CapturedBundleRecorder`], each forwarding to the engine's own
//! object, on any thread. **Out:** [`FrameOutcome`]s: a captured frame's trace text and the
//! digest of its draw records (what `replay` prints for the trace), or why a frame could not be
//! captured.
//!
//! **Frames** (R-CAP-2). [`Capture::trigger`] (or [`Capture::trigger_at`] frame N) starts a
//! capture at the next present of the active swap chain (the first one presented, unless
//! [`Capture::set_active_swap_chain`] says another); it ends at the following one, which the
//! trace includes. [`CapturedImmediate::begin_capture`] and
//! [`end_capture`](CapturedImmediate::end_capture) do the same at any point the application
//! chooses.
//!
//! **What a trace holds** (R-CAP-3): the device line; the declarations of the objects the frame
//! uses and what they depend on, in creation order (every live object with
//! [`CaptureOptions::all_objects`]); presents that bring each swap chain to the back buffer the
//! frame starts on; the bundles the frame calls, as their recording; the lists it executes
//! (nested ones first), each as its context's calls and its `finish`; the releases of objects
//! gone before the frame that a list or bundle still names; the immediate context's state at the
//! frame's start as the calls that set it (bindings, each legacy texture view with the minimum
//! LOD it copied when bound; the dynamic instances it reads, as maps; minimum LODs; legacy
//! states, as transitions from `common`; layouts and compression; placed resources that are
//! deactivated aliases, as aliasing barriers naming them; the queries' state in the GPU model,
//! R-FX-3: `configure_query` for a binary mode, `begin` for an open scope, `end` for a result,
//! `begin` and `write_query` for an open scope with a result; the back buffer each swap-chain
//! view the frame uses names, as `place_swap_chain_view` before the bindings, R-EX-7:
//! `capture/frame_start.rs`; a predicate set from a query as `set_predication_from_query`, which
//! a state swap does not save, R-FX-3; when the frame swaps device context state objects, R-FX-6, the
//! objects it swaps in made and given their saved states, and the one active at its start
//! activated: `capture/immediate_states.rs`); then the frame's own calls, with the releases made
//! meanwhile, and the minimum-LOD calls of lists the text does not write (never executed,
//! discarded), on `imm` where they were made: they changed their object for every context
//! (R-ST-6). A bind of a swap-chain view encodes the buffer the view names then (R-EX-7); where
//! the text has the view elsewhere at the bind (a list recorded before a present or a
//! placement moved it, a binding carried in or bound at the frame's start), an `imm
//! place_swap_chain_view` to that buffer comes first (`Tap::pin_views`,
//! `frame_start::pin_swap_chain_views`, `Out::entry`). Every kept call that reads the buffer a
//! view names pins it so, on every context: the binds (fast ones and applied batches included,
//! R-FX-1), `clear_render_target_view`, and a legacy `present` that does not end the frame (it
//! re-binds the chain's views: each view of the chain is pinned before it).
//!
//! **Placements the capture does not see.** `place_swap_chain_view` made on the engine's device
//! directly (not through [`CapturedImmediate::place_swap_chain_view`]) during a frame is not a
//! statement of the trace, but it is captured all the same, in its effects: a view's buffer is
//! read only by the pinned calls above, so the text puts the view where it was live before each
//! of them, and the replay's records are the live ones. Chosen over failing the frame: the
//! capture cannot see the call (the device has no tap), only its effect, which the pins write
//! exactly (`tests/r_ex_7_r_cap_6_device_placement_capture.rs`). No call gives a query samples without a
//! draw: a frame that predicates on a query that passed samples before it fails, saying which
//! query.
//!
//! **The hazard tracker's state at the frame's start** (R-V-2, under `validation=hazards`):
//! its pending writes (subresources, path, writing call and its semantics) and the marks of
//! deactivated aliases already reported once (R-BAR-7). Written: a resource's lone pending
//! write when it is a copy of the whole resource made by a legacy immediate context, as an
//! `update_subresource` in the setup (a copy destination of the whole resource, no record:
//! `frame_start::pending_copy_setup`); a later fast use then reports in the replay as live,
//! naming the update as the first call (not the live copy), and the update counts as a use
//! (`is_resource_pending`). Not written, and why: a UAV's write can be given only by a draw or
//! dispatch, which adds a record (the digest would change); a render target's or depth
//! stencil's only by a clear of the same view, which also changes the texture's compression; a
//! region copy's only by a region copy from a source the trace would have to declare; any write
//! of a fast context by calls of a fast list of its own (a fast immediate context refuses
//! `update_subresource`, R-ST-7); several writes pending on one resource would report each
//! other in the setup (two copies are unordered). A mark can be given only by a use of the
//! alias, which reports in the replay. So a frame's replay may miss a hazard reported live
//! against such a write from before the frame, or report a deactivated alias's use that live
//! was not reported again; the calls run either way and records carry no report, so the
//! digest is the same (`tests/r_v_2_hazards_at_frame_start.rs`).
//!
//! **Misuse.** A list or object of another device in a frame fails it, saying so (R-OBJ-3);
//! dropping the captured immediate context while a frame is open abandons the frame, stops the
//! capture and says why in the frame's outcome.
//!
//! **Lists** (R-CAP-5). A deferred context decides at the first call of each list whether it
//! keeps the list's calls: when a frame is being captured, or always with
//! [`CaptureOptions::keep_all_lists`]. The calls move to the list at `finish`; a list executed in
//! the frame brings them (and its nested lists') into the trace. A list whose recording began
//! before the capture has no calls to bring: the frame fails ([`FrameOutcome::Failed`], saying
//! which list) and a triggered capture tries again at the next frame.
//!
//! **Cost.** Idle, each call on a wrapper costs one branch on a byte the wrapper owns
//! (`log.rs`); the `record` bench measures it beside the bare context.
//!
//! # Example
//!
//! A worker's list and a present per frame; the frame a trigger asks for is written, and its
//! replay prints the live frame's digest.
//!
//! ```
//! use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};
//! use recorder::*;
//!
//! let device = CaptureDevice::new(Device::new(DeviceDesc::default()), CaptureOptions::default());
//! let vs = device.create_shader(&ShaderDesc::new("vs", Stage::Vertex))?;
//! let chain = device.create_swap_chain(&SwapChainDesc {
//!     name: "main", buffers: 2, format: Format::R8G8B8A8Unorm, width: 64, height: 64,
//! })?;
//! let mut imm = CapturedImmediate::new(&device)?;
//! let mut worker = device.create_deferred_context(&DeferredContextDesc::default())?;
//! device.capture().trigger();
//! for frame in 0..3 {
//!     worker.set_shader(Stage::Vertex, Some(vs));
//!     worker.draw(3, frame);
//!     let list = worker.finish_command_list(RestoreState::ClearState).map_err(|e| e.error)?;
//!     imm.execute_command_list(&list, RestoreState::ClearState)?;
//!     imm.present(chain)?;
//! }
//! let outcomes = device.capture().take_outcomes();
//! let FrameOutcome::Captured(frame) = &outcomes[0] else { panic!("{outcomes:?}") };
//! assert!(frame.trace.contains("draw 3 1"));
//! let replayed = trace::replay(frame.trace.as_bytes(), &Default::default());
//! assert!(replayed.stdout.contains(&format!("digest={:016x}", frame.digest)));
//! # Ok::<(), recorder::Error>(())
//! ```

mod arena;
mod captured;
mod captured_args;
mod captured_binds;
mod captured_bundle;
mod captured_deferred;
mod captured_draws;
mod captured_pool;
mod captured_sync;
mod device;
mod device_contents;
mod entries;
mod form;
mod frame_start;
mod frame_timeline;
mod immediate;
mod immediate_states;
mod kept_calls;
mod log;
mod object_contents;
mod object_declaration;
mod object_names;
mod records;
mod statement_writer;
mod write;

use std::sync::Arc;

use crate::sync::{AtomicBool, AtomicU64, Mutex, Ordering};
use recorder::{RawHandle, SwapChain};

pub use captured::{CaptureTarget, CapturedContext};
pub use captured_bundle::{BundleExtra, CapturedBundleRecorder};
pub use captured_deferred::{CapturedDeferred, DeferredExtra};
pub use captured_pool::CapturedPool;
pub use device::CaptureDevice;
pub use immediate::CapturedImmediate;
pub use immediate::ImmediateExtra;

use log::BundleLog;
use records::Registry;

/// What a capture keeps beyond the frame itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureOptions {
    /// Declare every live object, not only those the frame uses (RenderDoc's "Ref All
    /// Resources").
    pub all_objects: bool,
    /// Keep every list's calls from the start, so that a list recorded before the capture began
    /// can be written too (RenderDoc's "Capture all cmd lists"); costs the recording of every
    /// list a copy of its calls.
    pub keep_all_lists: bool,
}

/// A frame written as a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapturedFrame {
    /// Which frame: presents of the active swap chain before it (0 for a capture begun before
    /// any present).
    pub frame: u64,
    /// The trace text.
    pub trace: String,
    /// The digest of the frame's draw records, as `replay` prints it for the trace
    /// (`digest=...`).
    pub digest: u64,
    /// The frame's draw records (draws and dispatches).
    pub records: usize,
    /// Each record as `replay --records` prints it for the trace (objects by their trace
    /// names), one a line: what to compare when a replay's digest differs.
    pub record_lines: Vec<String>,
    /// Calls the trace format has no statement for, written as comments (their names).
    pub not_written: Vec<&'static str>,
}

/// What became of a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameOutcome {
    /// The frame, written.
    Captured(CapturedFrame),
    /// The frame could not be captured; a triggered capture tries the next frame.
    Failed {
        /// Which frame.
        frame: u64,
        /// Why, naming the list, the bundle or the object.
        reason: String,
    },
}

/// When the next capture starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trigger {
    None,
    /// At the next present of the active swap chain.
    Next,
    /// At the present that ends frame N - 1 (so frame N is captured).
    At(u64),
}

/// What the wrappers share: the capture's state, its records, its results.
pub(crate) struct Shared {
    pub(crate) options: CaptureOptions,
    /// The device: where the swap-chain views a bind reads are (R-EX-7).
    pub(crate) device: recorder::Device,
    /// A frame is being captured: deferred contexts keep the lists they start.
    pub(crate) capturing: AtomicBool,
    /// Numbers lists and contexts.
    pub(crate) serials: AtomicU64,
    pub(crate) registry: Mutex<Registry>,
    pub(crate) bundles: Mutex<std::collections::HashMap<RawHandle, Arc<BundleLog>>>,
    /// Releases made during a frame capture: the object, and the clock when it went.
    pub(crate) frame_releases: Mutex<Vec<(form::Obj, u64)>>,
    /// The minimum-LOD calls deferred contexts made during a frame capture, and the clock at
    /// each: they change the object at once, for every context (R-ST-6), so a list the trace
    /// does not write (never executed, or discarded) still had them made (`Tap::device_call`).
    pub(crate) frame_min_lods: Mutex<Vec<(form::Call, u64)>>,
    /// The capture's clock: every creation and release takes the next tick, and every kept
    /// call one of its own unless the clock has not moved since its context's last (then it
    /// shares that one: `kept_calls.rs`), so the trace can put the calls of every context in
    /// the order they were made (one counter: a call that happened before another's, on any
    /// thread, has the smaller tick, or the same and comes first in its context's entries).
    pub(crate) clock: AtomicU64,
    /// The names of the captured deferred contexts, by the engine's serial (what a list
    /// says of its recorder), for the reason a frame fails.
    pub(crate) context_names: Mutex<std::collections::HashMap<u32, String>>,
    control: Mutex<Control>,
}

struct Control {
    trigger: Trigger,
    active_chain: Option<RawHandle>,
    outcomes: Vec<FrameOutcome>,
}

impl Shared {
    fn new(options: CaptureOptions, device: recorder::Device) -> Self {
        Self {
            options,
            device,
            capturing: AtomicBool::new(false),
            serials: AtomicU64::new(0),
            registry: Mutex::new(Registry::default()),
            bundles: Mutex::new(std::collections::HashMap::new()),
            frame_releases: Mutex::new(Vec::new()),
            frame_min_lods: Mutex::new(Vec::new()),
            context_names: Mutex::new(std::collections::HashMap::new()),
            clock: AtomicU64::new(0),
            control: Mutex::new(Control {
                trigger: Trigger::None,
                active_chain: None,
                outcomes: Vec::new(),
            }),
        }
    }

    /// The next tick of the capture's clock.
    #[inline]
    pub(crate) fn stamp(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed) + 1
    }

    pub(crate) fn next_serial(&self) -> u64 {
        self.serials.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// The application's handle on the capture: triggers and results. Cheap to clone; every
/// wrapper of one [`CaptureDevice`] shares it.
#[derive(Clone)]
pub struct Capture {
    shared: Arc<Shared>,
}

impl Capture {
    /// Captures the next frame: from the next present of the active swap chain to the one
    /// after (R-CAP-2).
    pub fn trigger(&self) {
        self.shared.control.lock().trigger = Trigger::Next;
    }

    /// Captures frame `frame`: the calls after the `frame`-th present of the active swap chain
    /// up to the next present (frame 0 is not reachable this way: use
    /// [`CapturedImmediate::begin_capture`]).
    pub fn trigger_at(&self, frame: u64) {
        self.shared.control.lock().trigger = Trigger::At(frame);
    }

    /// Makes `chain` the swap chain whose presents bookend frames (the first one presented,
    /// until this is called).
    pub fn set_active_swap_chain(&self, chain: SwapChain) {
        use recorder::Handle;
        self.shared.control.lock().active_chain = Some(chain.raw());
    }

    /// The frames captured or failed so far, oldest first, taken out.
    pub fn take_outcomes(&self) -> Vec<FrameOutcome> {
        std::mem::take(&mut self.shared.control.lock().outcomes)
    }

    /// Whether a frame is being captured now.
    pub fn is_capturing(&self) -> bool {
        self.shared.capturing.load(Ordering::Acquire)
    }

    /// The options the capture was made with.
    pub fn options(&self) -> CaptureOptions {
        self.shared.options
    }
}

// The wrappers move between threads as the engine's own types do (a job system hands
// contexts to workers; the device is shared).
const _: () = {
    const fn send<T: Send>() {}
    const fn sync<T: Send + Sync>() {}
    send::<CapturedDeferred>();
    send::<CapturedBundleRecorder>();
    send::<CapturedImmediate>();
    sync::<CaptureDevice>();
    sync::<Capture>();
};
