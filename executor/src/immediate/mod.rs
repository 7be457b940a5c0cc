//! The immediate context (R-EX-1): the recording API applied directly, command-list execution
//! (R-EX-2, R-SP-4) under the state rules of R-ST-1..4, presents and swap chains (R-EX-7),
//! fences and maps (R-EX-5, R-EX-6), the state getters, and validation (R-V-1), on the GPU model
//! it owns.
//!
//! **Direct calls** (every capability: [`DeviceContext`]) go through the same
//! recording core as deferred contexts (the device's immediate recorder, a
//! `Recorder<ImmediateRole>` this context owns and forwards to), so they are checked and encoded
//! exactly alike; the
//! immediate context runs them in batches, at once, before anything that observes or depends on
//! them (an execution, the records, an explicit [`flush`](ImmediateContext::flush)). Its state,
//! its references (legacy) and its current dynamic instances persist from batch to batch.
//! A direct `barrier` or `resource_barrier` ends the batch: it is submitted by its own call, and
//! what the GPU model refused of it (R-BAR-4/6/8) is the next `flush`'s result, not the next
//! execution's, with or without validation (binds and draws are batched as before).
//!
//! **Refused direct calls** (R-REC-8 on the immediate context: the call is ignored, the rest of
//! the batch runs) are reported in one place, with or without validation: the first refused
//! since the last `flush` is [`error`](Context::error) until then, and that `flush`'s result
//! (before anything the GPU model reported); [`last_refusal`](Context::last_refusal) is the most
//! recent one. Executions, presents and the getters submit the batch but report only their own
//! work, so the refusal waits for the `flush`. A caller that reports each call as it makes it
//! takes the refusal instead ([`take_refusal`](ImmediateContext::take_refusal)).
//!
//! **In:** direct calls and finished [`CommandList`]s, in order. **Out:** what the GPU model
//! saw: draw records and counters; answers about fences, maps and state; the GPU model's GDS,
//! constant RAM and buffer words (`gds_words`, `constant_ram_words`, `buffer_words`, R-FX-4,
//! R-FX-5).
//!
//! **Execution cost** is O(segments + split points + nested lists), not O(commands): command
//! segments go to the GPU model by reference, one indirect-buffer execution each; only split
//! points are looked at here, each decoded once: the list's index yields it decoded,
//! [`SplitPoint`] names the binding that waits for the current instance, this context looks the
//! instance up, and the patched split point travels to the GPU model as it is
//! ([`SplitPointQueue`]), never decoded again. Validation mode adds a walk per execution over the
//! commands of its fast lists (a fast list names objects it holds no reference on: did the
//! application release any?); a legacy list keeps what it names alive, so only its nested lists
//! and bundle calls are looked into (R-V-1). Nested lists of any depth are walked with an
//! explicit stack, never by recursion (R-REC-9). Hazard validation (R-V-2) adds two submissions
//! per list executed, where it begins and ends, so that the GPU model names a list's commands
//! by their index in it (`gpu/hazard_tracking.rs`); nothing otherwise.
//!
//! **State rules.** A legacy list starts from the ClearState defaults (it re-binds any state it
//! carried itself); a fast list inherits what is bound (R-ST-1). Afterwards the executing
//! context decides (R-ST-2): legacy with `restore = true` puts its state back, with `false` clears
//! it; fast keeps what the list left and refuses `restore = true`. A nested list follows the same
//! rules, with the context that recorded the outer list in the executing context's place.
//! After a legacy list, its last instance of each dynamic resource it mapped is the immediate
//! context's current one (R-ST-8; from the list's table, O(resources), not a walk): split points
//! after it resolve to it, and the bindings `restore = true` put back are re-bound to it.
//!
//! **Where the GPU model runs** ([`GpuTiming`]): inline at every submission (deterministic; the
//! default, and forced under validation so that a violation is reported by the call whose work
//! shows it), when observed, on its own thread, or nowhere (CPU cost alone). Records and
//! counters are the same in every mode but the last.
//!
//! **Synchronisation** (`progress.rs` has the model of time): fences get device-wide values at
//! `insert_fence` and pass when their segment runs; a legacy read/write map of a buffer the GPU
//! may still use waits (counted in `fence_waits`), a fast one never does, and under validation
//! is refused with `resource_in_use`. Legacy waits on present at every bind of a back buffer;
//! fast only where `insert_wait_on_present` says, and validation reports a first write to a
//! back buffer in a frame without one. A list recorded against one back buffer executed while
//! another is current is refused under validation (`back_buffer_affinity`) and draws into the
//! buffer it names otherwise.
//!
//! **Queries** (R-FX-3): the GPU model counts them (`gpu/query_results.rs`);
//! [`get_data`](ImmediateContext::get_data) reads them without flushing: legacy semantics
//! reports not-ready until the model has run the query's end, fast semantics what has run so
//! far.
//!
//! **No call that exists only to fail.** The immediate context is its own type: the shared
//! calls through the capability traits (all of them: [`DeviceContext`]), its own (`execute_command_list`, `draw_bundle`, `present`,
//! `flush`, the getters) as methods; no `Deref` to a deferred context, so a deferred context's
//! calls cannot be written on it (`r_ex_1_a_device_has_one_immediate_context_and_it_finishes_no_list`):
//!
//! ```compile_fail
//! use executor::prelude::*;
//! let device = Device::new(DeviceDesc::default());
//! let mut imm = ImmediateContext::new(&device)?;
//! let _ = imm.finish_command_list(RestoreState::ClearState); // no such call (R-EX-1)
//! # Ok::<(), Error>(())
//! ```

use std::collections::HashMap;

use recorder::{
    BarrierCalls, BarrierGroup, BindCalls, Buffer, ClearStateCalls, Context, CoreAccess, Device,
    DrawCalls, EngineMemoryCalls, Error, FastBindCalls, FenceCalls, Handle, ImmediateRole,
    IndirectDispatchCalls, InheritedStateCalls, QueryCalls, RawHandle, RecordError, Recorder,
    ResourceBarrier, SegmentWalk, Semantics, Shader, ShaderResourceView, Stage, SwapChain,
    TransferCalls, Validation,
};

use crate::draw_record::{Counters, DrawRecord, Records};
use crate::gpu::{GpuModel, GpuState};
use crate::gpu_thread::Handoff;

mod draw_bundle;
mod fences_and_maps;
mod gpu_submission;
mod list_execution;

use gpu_submission::{GpuSide, Queue, Submission};

pub use draw_bundle::ImmediateBundle;

/// The one immediate context of a device.
///
/// A direct call it refuses (bad input, a released object: R-REC-8, R-OBJ-3) is ignored, and
/// reported by [`error`](Context::error) until the next [`flush`](Self::flush), which returns
/// it: `imm.set_shader(Stage::Vertex, Some(released)); imm.draw(3, 0); imm.flush()` is
/// `Err(released_object)` (the draw ran, with no vertex shader). See the module essay.
pub struct ImmediateContext {
    device: Device,
    semantics: Semantics,
    /// The GPU model and its saved states, when they are here (see `away`).
    side: GpuSide,
    /// `GpuTiming::Threaded`: the GPU thread, started at the first submission.
    thread: Option<Handoff<GpuSide, Queue>>,
    /// The GPU thread holds the model (`side` is a placeholder until it comes back).
    away: bool,
    /// Records the direct calls; it also knows the current instance of every dynamic resource
    /// mapped here, which is what a list's dynamic split point resolves to (R-SP-4, R-ST-8).
    recorder: Recorder<ImmediateRole>,
    /// Inside `begin/end_command_list_execution`: the semantics of the lists run so far (R-ST-3).
    scope: Option<Option<Semantics>>,
    /// What the GPU model has yet to consume, in order (R-EX-3).
    queue: Queue,
    timing: GpuTiming,
    /// Validation mode (R-V-1): the GPU model consumes inline and reports violations.
    validating: bool,

    /// What the CPU wrote or reads through read / write maps, per buffer or staging texture:
    /// the model keeps no GPU contents, so without a backend a read map sees the last CPU write
    /// (zeros at first); with one, the GPU's bytes (R-GPU-2).
    cpu_data: HashMap<RawHandle, Vec<u8>>,
    /// Resources mapped read / write now, and whether the map writes (write, read_write).
    cpu_mapped: HashMap<RawHandle, bool>,
    /// Whether a backend is installed (`set_gpu_backend`): the unmap of a write map hands it
    /// the bytes (R-GPU-2).
    backend_installed: bool,
    /// Calls skipped while a list ran: bundles released before a fast list that calls them
    /// executed, or a batch of direct calls too large to encode
    /// ([`take_execution_errors`](Self::take_execution_errors)).
    execution_errors: Vec<Error>,
    /// The nested lists being walked by [`run_nested`](Self::run_nested), outermost first: its
    /// stack, kept here so that executing nested lists again allocates nothing (R-EX-2). Empty
    /// between calls.
    nesting: Vec<Nesting>,
    /// What the GPU model refused or reported of the direct calls a direct barrier submitted,
    /// for the next [`flush`](Self::flush) (R-BAR-6, R-BAR-8).
    direct_report: Option<Error>,
    /// The first direct call the recorder refused since the last [`flush`](Self::flush), taken
    /// from the recorder when a batch is (`queue_batch`): that flush's result.
    refusal: Option<RecordError>,
    /// The device context state object the last accepted swap activated (R-FX-6); `None`
    /// before the first (the implicit default object, made by that swap).
    active_state: Option<recorder::DeviceContextState>,
}

/// A nested list being executed by [`ImmediateContext::run_nested`], nested in the one below
/// it on the stack.
struct Nesting {
    walk: SegmentWalk,
    /// The semantics of the context that executes it: the recording context's of the list it is
    /// nested in (R-ST-2).
    executing: Semantics,
    /// Whether its execution saved the executing state, to restore afterwards (legacy, restore).
    saved: bool,
}

/// When the GPU model consumes what the immediate context submits (R-EX-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GpuTiming {
    /// At the end of every execution, flush and present: deterministic, for tests and traces.
    #[default]
    Inline,
    /// Only when something observes it (the records, the counters, a compression query,
    /// [`ImmediateContext::sync_gpu`]), as with a GPU that runs behind the CPU.
    Deferred,
    /// On its own thread, concurrently with the CPU side; observing it waits until it has
    /// consumed everything submitted. Records and counters are those of `Inline`.
    Threaded,
    /// Never: submissions are dropped once made. No records, no counters; for measuring the
    /// CPU side of execution alone (the `execute` bench), as with a null driver.
    Detached,
}

impl ImmediateContext {
    /// The immediate context of `device`, with the semantics the device was created with
    /// ([`DeviceDesc::immediate_semantics`](recorder::DeviceDesc::immediate_semantics)). A
    /// device has one: a second is refused with `invalid_argument` while the first lives
    /// (R-OBJ-1).
    pub fn new(device: &Device) -> Result<Self, Error> {
        let validating = device.desc().validation != Validation::Off;
        let mut gpu = GpuModel::new();
        gpu.set_device(Some(device.clone()));
        gpu.track_placed_resources(Some(device.clone()));
        if validating {
            gpu.set_validation(Some(device.clone()));
        }
        Ok(Self {
            device: device.clone(),
            semantics: device.desc().immediate_semantics,
            side: GpuSide {
                gpu,
                saved: Vec::new(),
                device: Some(device.clone()),
            },
            thread: None,
            away: false,
            recorder: device.immediate_recorder()?,
            scope: None,
            queue: Queue::default(),
            timing: GpuTiming::Inline,
            validating,
            cpu_data: HashMap::new(),
            cpu_mapped: HashMap::new(),
            backend_installed: false,
            execution_errors: Vec::new(),
            nesting: Vec::new(),
            direct_report: None,
            refusal: None,
            active_state: None,
        })
    }

    /// The semantics of the context's direct calls and of the lists it accepts: the device's
    /// `immediate_semantics`, fixed at creation.
    pub fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// The legacy context's shadow of its bindings, as its calls left them (`None` under fast
    /// semantics, which shadows nothing): what a state swap saves (R-FX-6) and
    /// `get_state` does not show apart from the GPU's. A predicate set from a query
    /// (`set_predication_from_query`, R-FX-3) is the GPU's alone: the shadow has none. What a
    /// capture reads at a frame's start.
    pub fn legacy_state(&self) -> Option<&recorder::state::Bindings> {
        self.recorder.legacy_state()
    }

    /// The device the context belongs to.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The GPU model this context feeds, once it has consumed everything submitted.
    pub fn gpu(&mut self) -> &GpuModel {
        self.sync_gpu();
        &self.side.gpu
    }

    /// Feeds `backend` (a real GPU, R-GPU-1) from the next command the model applies, or none;
    /// returns the one it replaces. Waits for the model first (under `Threaded` its thread
    /// then runs the backend: the submission thread).
    pub fn set_gpu_backend(
        &mut self,
        backend: Option<Box<dyn crate::GpuBackend>>,
    ) -> Option<Box<dyn crate::GpuBackend>> {
        self.sync_gpu();
        self.backend_installed = backend.is_some();
        self.side.gpu.set_backend(backend)
    }

    /// The backend the model feeds, once the model has consumed everything submitted and the
    /// backend has submitted what it recorded (its refusals are reported by the next
    /// [`flush`](Self::flush)); `None` without one. Downcast it through
    /// [`GpuBackend::as_any_mut`](crate::GpuBackend::as_any_mut).
    pub fn gpu_backend_mut(&mut self) -> Option<&mut (dyn crate::GpuBackend + 'static)> {
        self.sync_gpu();
        self.side.gpu.backend_submit();
        self.side.gpu.backend_mut()
    }

    /// The GPU model as it has consumed so far, without submitting or waiting: direct calls
    /// not flushed yet, and (`Deferred`) work not observed yet, are not in it. `None` while it
    /// is on the GPU thread (`Threaded`).
    pub fn gpu_now(&self) -> Option<&GpuModel> {
        (!self.away).then_some(&self.side.gpu)
    }

    /// Every draw and dispatch the GPU model has recorded, in order (after a flush).
    pub fn records(&mut self) -> &[DrawRecord] {
        self.sync_gpu();
        self.side.gpu.records()
    }

    /// Every draw and dispatch the GPU model has recorded, in order (after a flush), read in
    /// place out of the model's pools ([`GpuModel::draws`]): no copy.
    pub fn draws(&mut self) -> &Records {
        self.sync_gpu();
        self.side.gpu.draws()
    }

    /// Hands over the draw records so far (after a flush), as owned copies.
    pub fn take_records(&mut self) -> Vec<DrawRecord> {
        self.sync_gpu();
        self.side.gpu.take_records()
    }

    /// Forgets the draw records so far (after a flush), keeping the model's pools for the next
    /// ones ([`GpuModel::clear_records`]): how a long run keeps no history without allocating.
    pub fn clear_records(&mut self) {
        self.sync_gpu();
        self.side.gpu.clear_records();
    }

    /// The GPU model's counters (after a flush).
    pub fn counters(&mut self) -> &Counters {
        self.sync_gpu();
        self.side.gpu.counters()
    }

    /// Presents `chain` (R-EX-7): runs the calls so far, rotates the back buffers, destroys the
    /// released objects nothing references any more (legacy deferred release, R-OBJ-4), and
    /// under fast semantics clears the state, as the runtime does (R-ST-4). Under legacy the
    /// views of the back buffers follow the rotation (a view of buffer `k` names `k + 1`) and
    /// the slots bound to them are re-bound; under fast the application rotates its views
    /// (`Device::place_swap_chain_view`). Under legacy semantics a compressed back buffer is
    /// decompressed first, counted (R-ST-9).
    ///
    /// Under validation, the first violation the frame's last calls showed is returned, after
    /// the present is done.
    pub fn present(&mut self, chain: SwapChain) -> Result<(), Error> {
        let mut reported = self.submit_direct();
        // The back buffer presented (R-EX-7).
        let presented = self.device.current_back_buffer(chain).and_then(|index| {
            let info = self.device.swap_chain_info(chain)?;
            info.buffers
                .get(index as usize)
                .map(|(texture, _)| *texture)
        });
        if self.validating && self.semantics == Semantics::Fast && reported.is_ok() {
            // The back buffer presented must be decompressed first (R-V-1).
            if let Some(error) =
                presented.and_then(|texture| self.side.gpu.validate_present(texture.raw()))
            {
                reported = Err(error);
            }
        }
        self.device.rotate_back_buffer(chain)?;
        // Legacy semantics decompresses a compressed back buffer before the present (R-ST-9).
        let back_buffer = presented.map_or(RawHandle::NULL, |t| t.raw());
        self.queue.push(Submission::Present(
            chain.raw(),
            back_buffer,
            self.semantics,
        ));
        if self.semantics == Semantics::Fast {
            self.recorder.clear_state();
        } else {
            // Legacy: the views of the back buffers follow the rotation, and the slots bound
            // to them are re-bound (R-EX-7, `recorder::device::swap_chain_views`).
            self.device.shift_swap_chain_views(chain);
            self.recorder.rebind_swap_chain_views(chain);
        }
        self.device.process_deferred_releases();
        let after = self.submit_direct();
        reported.and(after)
    }

    /// Resumes after a suspend: under fast semantics nothing was shadowed to restore, so the
    /// state is cleared (R-ST-4); legacy keeps it.
    pub fn resume(&mut self) {
        if self.semantics == Semantics::Fast {
            self.recorder.clear_state();
            self.queue_batch();
            self.consume();
        }
    }

    /// The state the `get_*` calls read (R-ST-4). Legacy: the context's state as its calls
    /// and executions left it (what the GPU model holds, after it has consumed everything).
    /// Fast semantics shadows nothing: a warning is logged and `None` returned; track what
    /// you bound yourself.
    pub fn get_state(&mut self) -> Option<&GpuState> {
        if self.semantics == Semantics::Fast {
            tracing::warn!(
                "get_state: a fast-semantics immediate context shadows no state (R-ST-4); track what you bind"
            );
            return None;
        }
        self.sync_gpu();
        Some(self.side.gpu.state())
    }

    /// The shader bound to `stage` ([`get_state`](Self::get_state): `None` under fast semantics).
    pub fn get_shader(&mut self, stage: Stage) -> Option<Shader> {
        let shader = self.get_state()?.shader(stage).shader;
        Some(Shader::from_raw(shader))
    }

    /// The constant buffer at `slot` of `stage` (`None` under fast semantics or out of range).
    pub fn get_constant_buffer(&mut self, stage: Stage, slot: u32) -> Option<Buffer> {
        let bound = self.get_state()?.constant_buffer(stage, slot)?;
        Some(Buffer::from_raw(bound.buffer))
    }

    /// The shader-resource view at `slot` of `stage` (`None` under fast semantics or out of
    /// range).
    pub fn get_shader_resource(&mut self, stage: Stage, slot: u32) -> Option<ShaderResourceView> {
        let bound = self.get_state()?.shader_resource(stage, slot)?;
        Some(ShaderResourceView::from_raw(bound.view))
    }
}

/// The immediate context's recording core: every direct call is recorded by it and run at the
/// next flush (R-EX-1). The stats are the current batch's; the error is the first direct call
/// refused since the last [`flush`](ImmediateContext::flush), which reports it (a refused direct
/// call is also [`last_refusal`](Context::last_refusal), until the next refusal).
impl Context for ImmediateContext {
    type Role = ImmediateRole;

    #[inline(always)]
    fn recorder(&mut self, _access: CoreAccess) -> &mut Recorder<ImmediateRole> {
        &mut self.recorder
    }

    #[inline(always)]
    fn recorder_ref(&self, _access: CoreAccess) -> &Recorder<ImmediateRole> {
        &self.recorder
    }

    /// The first direct call refused since the last [`flush`](ImmediateContext::flush) (whose
    /// result it will be), batches submitted since included.
    fn error(&self) -> Option<&RecordError> {
        self.refusal.as_ref().or_else(|| self.recorder.error())
    }
}

// Every capability, each call recorded by the core as on a deferred context; `map` and `unmap`
// are the immediate context's own (`fences_and_maps.rs`), and so are `execute_command_list`,
// `draw_bundle`, `present` and the getters (they flush first).
impl BindCalls for ImmediateContext {}
impl FastBindCalls for ImmediateContext {}
impl DrawCalls for ImmediateContext {}
impl IndirectDispatchCalls for ImmediateContext {}
impl InheritedStateCalls for ImmediateContext {}
impl ClearStateCalls for ImmediateContext {}
impl TransferCalls for ImmediateContext {}
impl QueryCalls for ImmediateContext {}
impl FenceCalls for ImmediateContext {}
impl EngineMemoryCalls for ImmediateContext {}

/// A barrier submits the batch at once (`direct_barrier`); its
/// result comes back at the next [`flush`](ImmediateContext::flush).
impl BarrierCalls for ImmediateContext {
    fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
        let calls = self.recorder.stats().calls;
        self.recorder.barrier(groups);
        self.direct_barrier(calls);
    }

    fn resource_barrier(&mut self, barriers: &[ResourceBarrier]) {
        let calls = self.recorder.stats().calls;
        self.recorder.resource_barrier(barriers);
        self.direct_barrier(calls);
    }
}

impl std::fmt::Debug for ImmediateContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImmediateContext")
            .field("semantics", &self.semantics)
            .field("counters", self.side.gpu.counters())
            .finish_non_exhaustive()
    }
}
