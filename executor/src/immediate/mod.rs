//! The immediate context (R-EX-1): the recording API applied directly, command-list execution
//! (R-EX-2, R-SP-4) under the state rules of R-ST-1..4, presents and swap chains (R-EX-7),
//! fences and maps (R-EX-5, R-EX-6), the state getters, and validation (R-V-1), on the GPU model
//! it owns.
//!
//! **Direct calls** ([`DeviceContext`], the calls every context shares) go through the same
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
//! calls through [`DeviceContext`], its own (`execute_command_list`, `draw_bundle`, `present`,
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

use std::collections::{HashMap, HashSet};

use recorder::command::{Command, Decoded, InstanceId, ViewFlags};
use recorder::Semantics;
use recorder::{BarrierGroup, ResourceBarrier};
use recorder::{Buffer, Handle, MapType, RawHandle, Resource, SwapChain, Texture, Usage};
use recorder::{CommandList, Device, Error, QueuedRun, SplitPointQueue};
use recorder::{
    DeviceContext, ImmediateRole, ListStats, MapFlags, Mapped, RecordError, Recorder, RestoreState,
};
use recorder::{ObjectKind, Shader, ShaderResourceView, SplitCategory, Stage, Validation};
use recorder::{Segment, SegmentWalk};

use crate::draw_record::{Counters, DrawRecord, Records};
use crate::gpu::{GpuModel, GpuState};
use crate::gpu_thread::Handoff;

mod draw_bundle;

pub use draw_bundle::ImmediateBundle;

/// The one immediate context of a device.
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

    /// What the CPU wrote or reads through read / write maps, per buffer: the model keeps no
    /// GPU contents, so a read map sees the last CPU write (zeros at first).
    cpu_data: HashMap<RawHandle, Vec<u8>>,
    /// Buffers mapped read / write now.
    cpu_mapped: HashSet<RawHandle>,
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

/// What the GPU model has yet to consume, in order (R-EX-3): the submissions, and the split
/// points they name, kept apart so that a submission stays small (a decoded split point is about
/// 128 bytes, every other submission at most 40; the queue is pushed and drained once per
/// segment of every list executed).
#[derive(Default)]
struct Queue {
    submissions: Vec<Submission>,
    /// One per [`Submission::Split`], in the same order.
    split_points: SplitPointQueue,
}

impl Queue {
    fn push(&mut self, submission: Submission) {
        self.submissions.push(submission);
    }

    fn is_empty(&mut self) -> bool {
        self.submissions.is_empty()
    }

    /// Drops everything queued, keeping the capacity.
    fn clear(&mut self) {
        self.submissions.clear();
        self.split_points.clear();
    }
}

/// What the immediate context hands the GPU model, in order. Command runs go by reference: a
/// submission keeps its list alive, it copies no commands (R-EX-2).
enum Submission {
    /// One indirect-buffer execution: a run of a list's commands.
    Run(QueuedRun, Semantics),
    /// A split point resolved against the immediate context at execution: the queue's next
    /// split point ([`SplitPointQueue`]), its command decoded once, with the instance a dynamic
    /// binding in it reads (R-SP-4).
    Split(Semantics),
    /// The immediate context's own calls since the last batch.
    Batch(CommandList, Semantics),
    /// A bundle call: the bundle's commands by reference, its declaration and footprint
    /// (R-B-10); the GPU model expands it.
    Bundle(CommandList, recorder::OutputFormats, u32),
    /// The end of a segment: a batch, a list execution (R-EX-5).
    Kickoff,
    /// A present of the swap chain: the next back buffer needs its wait (R-EX-7).
    Present(RawHandle),
    ClearState,
    Save,
    Restore,
    /// A list of these semantics, recorded by the context with this serial, begins (nested in
    /// the one begun before, if that one has not ended): its barriers' refusals are
    /// `execute_command_list`'s (R-BAR-8), and under hazard validation its commands are named by
    /// their index in it (R-V-2).
    ListBegin(u32, Semantics),
    /// The list begun last ends; the end of a top-level one checks what may not cross an
    /// execute boundary (R-BAR-4, R-BAR-8).
    ListEnd,
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
            cpu_mapped: HashSet::new(),
            execution_errors: Vec::new(),
            nesting: Vec::new(),
            direct_report: None,
        })
    }

    /// When the GPU model consumes submissions (inline by default). Under validation it stays
    /// inline: a violation is reported by the call whose work shows it.
    pub fn set_gpu_timing(&mut self, timing: GpuTiming) {
        if !self.validating {
            self.sync_gpu();
            self.timing = timing;
        }
    }

    /// When the GPU model consumes submissions ([`set_gpu_timing`](Self::set_gpu_timing)).
    pub fn gpu_timing(&self) -> GpuTiming {
        self.timing
    }

    /// Lets the GPU model consume everything submitted so far. Violations found on the way
    /// stay with the GPU model until the next call that reports.
    pub fn sync_gpu(&mut self) {
        self.queue_batch();
        match self.timing {
            GpuTiming::Detached => self.queue.clear(),
            GpuTiming::Threaded => {
                self.send_to_thread();
                self.home();
            }
            GpuTiming::Inline | GpuTiming::Deferred => self.drain(),
        }
    }

    /// Queues the direct calls made since the last batch, as one segment.
    fn queue_batch(&mut self) {
        if !self.recorder.batch_is_empty() {
            match self.recorder.take_batch() {
                Ok(batch) => {
                    self.queue.push(Submission::Batch(batch, self.semantics));
                    self.queue.push(Submission::Kickoff);
                }
                // More split points than one batch's index holds (R-REC-12): the recorder
                // dropped the batch; the error waits for `take_execution_errors`.
                Err(error) => self.execution_errors.push(error),
            }
        }
    }

    /// Lets the GPU model consume what was queued, as the timing says.
    fn consume(&mut self) {
        match self.timing {
            GpuTiming::Inline => self.drain(),
            GpuTiming::Deferred => {}
            GpuTiming::Threaded => self.send_to_thread(),
            GpuTiming::Detached => self.queue.clear(),
        }
    }

    /// [`consume`](Self::consume), then the first violation the work showed (under
    /// validation) or the first barrier the GPU model refused (always, R-BAR-4/6/8): the work
    /// ran, as on the hardware (a report, not a refusal).
    fn submitted(&mut self) -> Result<(), Error> {
        self.consume();
        match self.validating || !self.away {
            true => self
                .side
                .gpu
                .take_violations()
                .into_iter()
                .next()
                .map_or(Ok(()), Err),
            false => Ok(()),
        }
    }

    /// The GPU model consumes the queue here, in order.
    fn drain(&mut self) {
        self.home();
        // Keep the queue's capacity: a steady frame allocates no submissions.
        let mut queue = std::mem::take(&mut self.queue);
        self.side.consume(&mut queue);
        self.queue = queue;
    }

    /// Threaded: hands the queue (and the model, if it is here) to the GPU thread.
    fn send_to_thread(&mut self) {
        let thread = self
            .thread
            .get_or_insert_with(|| Handoff::spawn(GpuSide::consume_owned));
        if !self.away {
            thread.adopt(std::mem::take(&mut self.side));
            self.away = true;
        }
        if !self.queue.is_empty() {
            thread.work(std::mem::take(&mut self.queue));
        }
    }

    /// Brings the model back from the GPU thread, once it has consumed everything sent.
    fn home(&mut self) {
        if std::mem::take(&mut self.away) {
            if let Some(side) = self.thread.as_ref().and_then(Handoff::take_back) {
                self.side = side;
            }
        }
    }

    /// Submits the direct calls made since the last batch, and returns the first violation
    /// they showed (under validation, R-V-1) or the first barrier the GPU model refused
    /// (always, R-BAR-4/6/8). This is where a direct call's result comes back: a direct
    /// `barrier` or `resource_barrier` ends the batch and is submitted by its own call (under
    /// `GpuTiming::Inline`, the default, the model runs it then), and what the model refused
    /// of it waits here, for the next `flush`, not for the next `execute_command_list` or
    /// `present`: `imm.barrier(&groups); imm.flush()?;` reports that barrier call.
    pub fn flush(&mut self) -> Result<(), Error> {
        let reported = self.direct_report.take();
        let now = self.submit_direct();
        reported.map_or(now, Err)
    }

    /// Submits the direct calls made since the last batch: [`flush`](Self::flush) for the calls
    /// that submit them first (executions, presents), which report their own work, not what a
    /// direct barrier left for `flush`.
    fn submit_direct(&mut self) -> Result<(), Error> {
        self.queue_batch();
        self.submitted()
    }

    /// A direct barrier the recorder accepted (R-BAR-1, R-BAR-6) ends the batch: the direct
    /// calls so far are submitted with it at once (barriers are rare, so the batch this cuts
    /// short costs little), and the first thing the GPU model refused or reported of them is
    /// kept for the next [`flush`](Self::flush). So a barrier refused on the immediate context
    /// is reported by its own call, and `execute_command_list` reports only its list's
    /// (R-BAR-6, R-BAR-8). Under `GpuTiming::Inline` (the default, and forced under validation)
    /// the model has run the barrier when its call returns; under `Deferred` and `Threaded` it
    /// runs it later, and the refusal is reported by the next call that reports after that.
    fn direct_barrier(&mut self, calls_before: u32) {
        // A call the recorder refused is not counted: its refusal is `last_refusal`'s.
        if self.recorder.stats().calls == calls_before {
            return;
        }
        if let Err(error) = self.submit_direct() {
            self.direct_report.get_or_insert(error);
        }
    }

    /// The semantics of the context's direct calls and of the lists it accepts: the device's
    /// `immediate_semantics`, fixed at creation.
    pub fn semantics(&self) -> Semantics {
        self.semantics
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
    /// under fast semantics clears the state, as the runtime does (R-ST-4).
    ///
    /// Under validation, the first violation the frame's last calls showed is returned, after
    /// the present is done.
    pub fn present(&mut self, chain: SwapChain) -> Result<(), Error> {
        let mut reported = self.submit_direct();
        if self.validating && self.semantics == Semantics::Fast && reported.is_ok() {
            // The back buffer presented must be decompressed first (R-V-1).
            let presented = self.device.current_back_buffer(chain).and_then(|index| {
                let info = self.device.swap_chain_info(chain)?;
                info.buffers
                    .get(index as usize)
                    .map(|(texture, _)| *texture)
            });
            if let Some(error) =
                presented.and_then(|texture| self.side.gpu.validate_present(texture.raw()))
            {
                reported = Err(error);
            }
        }
        self.device.rotate_back_buffer(chain)?;
        self.queue.push(Submission::Present(chain.raw()));
        self.device.process_deferred_releases();
        if self.semantics == Semantics::Fast {
            self.recorder.clear_state();
        }
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

    // ----- fences and maps (R-EX-5, R-EX-6) ----------------------------------------------------

    /// Whether the fence `value` (from `insert_fence` on any context) has not passed yet: its
    /// command has not executed, or the GPU has not finished what came before it. Once it
    /// answers `false`, everything before the fence is finished for the CPU: resources used
    /// there may be mapped (see `progress.rs` for the model of time).
    pub fn is_fence_pending(&mut self, value: u64) -> bool {
        self.sync_gpu();
        match self.side.gpu.progress().fence_position(value) {
            Some(position) => {
                self.side.gpu.progress_mut().retire(position);
                false
            }
            None => true,
        }
    }

    /// The result of `query` (`GetData`, R-FX-3), shaped by its kind. It flushes nothing:
    /// direct calls not yet submitted (the batch runs at a [`flush`](Self::flush), an
    /// execution, a present, or an observation such as [`records`](Self::records)) have not
    /// run. Under `GpuTiming::Threaded` it waits for the GPU thread to consume what was
    /// submitted; under `Deferred` the model runs only when observed, and this is no
    /// observation.
    ///
    /// - **Legacy semantics** waits for the work: `Err(QueryNotReady)` until the GPU model has
    ///   run the query's end (or `write_query`), and again once it has run a `begin_query` or
    ///   `reset_query` of it after that.
    /// - **Fast semantics** aggregates and returns even if the GPU has not finished (seed 000):
    ///   what the model has counted so far, an open scope's counts included (zeros when
    ///   nothing of it has run); never `QueryNotReady`.
    ///
    /// A released query is refused with `released_object`; a query no end was ever recorded
    /// for, on any context, with `QueryNeverEnded` (nothing to wait for).
    pub fn get_data(&mut self, query: recorder::Query) -> Result<crate::gpu::QueryData, Error> {
        const CALL: &str = "get_data";
        let device = self.device.clone();
        let name = || device.object_name(ObjectKind::Query, query.raw());
        let (Some(kind), Some(ended)) = (
            self.device.query_kind(query),
            self.device.query_ever_ended(query),
        ) else {
            return Err(Error::ReleasedObject {
                call: CALL,
                object: name(),
            });
        };
        if !ended {
            return Err(Error::QueryNeverEnded {
                call: CALL,
                query: name(),
            });
        }
        // What was submitted to the GPU thread has run once the model is back.
        self.home();
        let gpu = &self.side.gpu;
        let result = match self.semantics {
            Semantics::Legacy => {
                gpu.query_result(query.raw())
                    .ok_or_else(|| Error::QueryNotReady {
                        call: CALL,
                        query: name(),
                    })?
            }
            Semantics::Fast => gpu.query_so_far(query.raw()),
        };
        Ok(crate::gpu::QueryData::of(kind, result))
    }

    /// The value `write_value_bottom_of_pipe` last wrote at `offset` of `buffer`, once the GPU
    /// has written it (the application's own fence scheme, R-EX-5); reading it tells the CPU
    /// that everything before the write is finished.
    pub fn memory_value(&mut self, buffer: Buffer, offset: u64) -> Option<u64> {
        self.sync_gpu();
        let (value, position) = self.side.gpu.progress().memory(buffer.raw(), offset)?;
        self.side.gpu.progress_mut().retire(position);
        Some(value)
    }

    /// `count` words of `buffer` from byte `offset`, as the GPU model holds them once everything
    /// submitted has run (R-FX-4, R-FX-5): what `read_gds`, `store_constant_ram` and
    /// `write_value_bottom_of_pipe` wrote there, zero elsewhere (`gpu/memory.rs` says what the
    /// model covers). Reading tells the CPU nothing about fences (use `memory_value` for that).
    pub fn buffer_words(&mut self, buffer: Buffer, offset: u64, count: u32) -> Vec<u32> {
        self.sync_gpu();
        self.side
            .gpu
            .memory()
            .buffer_words(buffer.raw(), offset, count)
    }

    /// `count` GDS words from byte `offset` once everything submitted has run (R-FX-4).
    pub fn gds_words(&mut self, offset: u32, count: u32) -> Vec<u32> {
        self.sync_gpu();
        self.side.gpu.memory().gds(offset, count)
    }

    /// `count` constant-RAM words from byte `offset` once everything submitted has run
    /// (R-FX-5).
    pub fn constant_ram_words(&mut self, offset: u32, count: u32) -> Vec<u32> {
        self.sync_gpu();
        self.side.gpu.memory().constant_ram(offset, count)
    }

    /// Maps `resource` on the immediate context and returns its memory (R-EX-6).
    ///
    /// - `WriteDiscard` and `WriteNoOverwrite`: as on a deferred context; they never wait.
    /// - `Read`, `Write`, `ReadWrite`: staging buffers, or default buffers with
    ///   `MapFlags::AllowUsageDefault`. If the GPU may still use the buffer (a use since the CPU last
    ///   saw the GPU finish it), legacy semantics waits for it (one `fence_waits`), except for
    ///   reads as the arguments of indirect draws and dispatches, which follow fast semantics
    ///   whatever the context (seed 000: the application synchronises them itself); fast
    ///   semantics never waits, and under validation the map is refused with
    ///   `resource_in_use`, naming the tracked fence: insert a fence after the last use and
    ///   wait until `is_fence_pending` answers `false` first.
    ///
    /// The model keeps no GPU contents: a read sees what the CPU last wrote through a map of
    /// the buffer, zeros at first. Textures are not mapped here (refused with a message).
    ///
    /// Every map type refuses a buffer larger than
    /// [`MAX_MAP_BYTES`](recorder::limits::MAX_MAP_BYTES) (R-REC-12). A refused map changes
    /// nothing (R-REC-8). A flush while a buffer is mapped write_discard or write_no_overwrite
    /// is harmless: see `Recorder::take_batch` (the immediate recorder's, in `recorder::engine`).
    pub fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error> {
        const CALL: &str = "map";
        let resource = resource.into();
        let allow_usage_default = flags.allows_usage_default();
        if matches!(map_type, MapType::WriteDiscard | MapType::WriteNoOverwrite) {
            let bytes = self.recorder.map(resource, map_type, flags)?.keep_mapped();
            let (data, len) = (bytes.as_mut_ptr(), bytes.len());
            // SAFETY: the bytes are in a chunk of the recorder's batch, memory it owns through
            // raw pointers (not through this borrow); they stay until the batch is taken, which
            // needs `&mut self`, borrowed by the guard; the guard's drop unmaps through
            // `unmap`, which finds no read / write map and ends the recorder's.
            return Ok(unsafe { Mapped::new(self, resource, data, len) });
        }
        let Resource::Buffer(buffer) = resource else {
            return Err(Error::MapNotAllowed {
                call: CALL,
                object: self.device.object_name(ObjectKind::Texture, resource.raw()),
                map_type,
                rule: "read and write maps of textures are not modelled (the GPU model keeps no texture contents); map a staging buffer (R-EX-6)",
            });
        };
        let device = self.device.clone();
        let object = || device.object_name(ObjectKind::Buffer, buffer.raw());
        let Some(info) = self.device.buffer_info(buffer) else {
            return Err(self
                .device
                .lookup_error(CALL, ObjectKind::Buffer, buffer.raw()));
        };
        match info.usage {
            Usage::Staging => {}
            Usage::Default if allow_usage_default => {}
            usage => {
                return Err(Error::WrongUsage {
                    call: CALL,
                    object: object(),
                    usage,
                    rule: "read, write and read_write maps need a staging buffer, or a default one with allow_usage_default (R-REC-5, R-EX-6)",
                })
            }
        }
        let size = info.size as usize;
        if size > recorder::limits::MAX_MAP_BYTES {
            // The same limit as maps whose data travels (R-REC-12): the model keeps the CPU's
            // copy of the buffer, and a read map of a 4 GiB buffer must not allocate one.
            return Err(Error::TooLarge {
                call: CALL,
                what: object().to_string(),
                bytes: size as u64,
                holder: "a map",
                limit: recorder::limits::MAX_MAP_BYTES as u64,
            });
        }
        if self.cpu_mapped.contains(&buffer.raw()) {
            return Err(Error::AlreadyMapped {
                call: CALL,
                object: object(),
                rule: "R-EX-6",
            });
        }
        self.sync_gpu();
        let progress = self.side.gpu.progress();
        // A legacy map does not wait for a use as indirect arguments (seed 000, R-EX-6).
        let in_use = match self.semantics {
            Semantics::Legacy => progress.in_use(buffer.raw()),
            Semantics::Fast => progress.in_use_by_any(buffer.raw()),
        };
        if let Some(fence) = in_use {
            match self.semantics {
                Semantics::Legacy => {
                    // Blocks until the GPU is done with it (R-EX-6).
                    self.side.gpu.progress_mut().retire(fence);
                    self.side.gpu.count_fence_wait();
                }
                Semantics::Fast if self.validating => {
                    return Err(Error::ResourceInUse {
                        call: CALL,
                        object: object(),
                        engine: "graphics",
                        fence,
                    })
                }
                Semantics::Fast => {}
            }
        }
        self.cpu_mapped.insert(buffer.raw());
        let bytes = self
            .cpu_data
            .entry(buffer.raw())
            .or_insert_with(|| vec![0; size]);
        let (data, len) = (bytes.as_mut_ptr(), bytes.len());
        // SAFETY: the bytes are the heap buffer of the buffer's entry in `cpu_data` (their
        // provenance is the allocation's, not this borrow's); nothing resizes, removes or reads
        // the entry while the buffer is in `cpu_mapped`, i.e. until `unmap`, which the guard's
        // drop calls, and the guard borrows `self` mutably until then.
        Ok(unsafe { Mapped::new(self, resource, data, len) })
    }

    /// Ends a map made by [`map`](Self::map), of any type.
    pub fn unmap(&mut self, resource: impl Into<Resource>) {
        let resource = resource.into();
        if !self.cpu_mapped.remove(&resource.raw()) {
            self.recorder.unmap(resource);
        }
    }

    /// Inserts a fence on `engine` after the direct calls so far and returns its device-wide
    /// value (R-EX-5): [`is_fence_pending`](Self::is_fence_pending) answers `false` once the GPU
    /// model has run the work before it.
    #[inline]
    pub fn insert_fence(&mut self, engine: recorder::Engine) -> u64 {
        self.recorder.insert_fence(engine)
    }

    /// [`insert_fence`](Self::insert_fence) with `flags` (R-FX-6): with
    /// [`FenceFlags::KickOff`](recorder::FenceFlags::KickOff) the direct calls so far, the fence
    /// last, are submitted at once, as [`flush`](Self::flush) does; what the GPU model reported
    /// of them waits for the next `flush`.
    pub fn insert_fence_with(
        &mut self,
        engine: recorder::Engine,
        flags: recorder::FenceFlags,
    ) -> u64 {
        let value = self.recorder.insert_fence_with(engine, flags);
        if flags.kicks_off() {
            if let Err(error) = self.submit_direct() {
                self.direct_report.get_or_insert(error);
            }
        }
        value
    }

    /// A device context state object holding the ClearState defaults (R-FX-6): see
    /// [`recorder::DeviceContextState`]. Refused on a fast immediate context
    /// (`forbidden_in_fast`).
    pub fn create_device_context_state(&mut self) -> Result<recorder::DeviceContextState, Error> {
        self.recorder.create_device_context_state()
    }

    /// Exchanges the immediate context's bindings with `state`'s (R-FX-6): the direct calls
    /// record a ClearState and the binds of `state`'s former bindings, as a deferred context's
    /// list does. Refused on a fast immediate context (`forbidden_in_fast`).
    pub fn swap_device_context_state(&mut self, state: &mut recorder::DeviceContextState) {
        self.recorder.swap_device_context_state(state)
    }

    /// Whether legacy-semantics work that uses `resource` has been submitted (the direct calls
    /// so far included) and the GPU has not finished it, as far as the CPU knows
    /// (ID3D11DeviceX::IsResourcePending, R-FX-6). Seed 000: it "will check only whether the
    /// given resource has pending work on legacy semantics contexts—a resource is never
    /// considered pending with fast semantics": work of fast lists, of a fast immediate context
    /// and of bundles never makes it pending.
    ///
    /// A use is what the GPU model tracks for legacy maps (`progress.rs`): the resources a draw
    /// or dispatch reads or writes through its bindings (vertex, index and constant buffers,
    /// shader-resource and unordered-access views, render targets, the depth-stencil view),
    /// clears of a view's resource, copies (both resources), `update_subresource`,
    /// `decompress_resource`, `copy_structure_count`. Reads as indirect arguments do not count
    /// (they follow fast semantics whatever the context, seed 000). The work is finished once
    /// the CPU has evidence of it (`progress.rs`'s model of time): a fence after it seen passed
    /// ([`is_fence_pending`](Self::is_fence_pending) answering `false`), a bottom-of-pipe value
    /// written after it read back, or a legacy map that waited for it.
    pub fn is_resource_pending<H: Handle>(&mut self, resource: H) -> bool {
        self.sync_gpu();
        self.side.gpu.progress().legacy_pending(resource.raw())
    }

    /// The instance of dynamic buffer `buffer` that the immediate context's maps and executed
    /// legacy lists made current (R-ST-8): what a dynamic split point resolves to (R-SP-4).
    pub fn current_instance(&self, buffer: RawHandle) -> InstanceId {
        self.recorder.current_instance(buffer)
    }

    /// Whether `texture` is compressed now, as the GPU model tracks it (R-ST-9).
    pub fn resource_compression(&mut self, texture: Texture) -> bool {
        self.sync_gpu();
        self.side.gpu.is_compressed(texture.raw())
    }

    /// Opens a scope in which executed lists must all have the same semantics (R-ST-3).
    pub fn begin_command_list_execution(&mut self) {
        self.scope = Some(None);
    }

    /// Closes the scope opened by [`begin_command_list_execution`](Self::begin_command_list_execution).
    pub fn end_command_list_execution(&mut self) {
        self.scope = None;
    }

    /// Executes `list` (R-EX-1, R-EX-2). `restore`: see the module essay (R-ST-2). A refused
    /// execution changes nothing and counts nothing. Refused with `invalid_argument` for a list
    /// of another device (R-OBJ-3); `restore_not_supported` for [`RestoreState::Restore`] on a
    /// fast immediate context; `mixed_semantics` for a list whose semantics differs from the
    /// others' inside a [`begin_command_list_execution`](Self::begin_command_list_execution)
    /// scope (R-ST-3). Under validation also `back_buffer_affinity` for a list recorded against
    /// another back buffer than the current one (without validation it is logged and the list
    /// draws into the buffer it names, R-EX-7), and `released_object` for a fast list naming a
    /// released object (R-V-1).
    pub fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error> {
        let restore = restore.is_restore();
        const CALL: &str = "execute_command_list";
        if !list.is_from(&self.device) {
            return Err(Error::WrongDevice {
                call: CALL,
                object: "command list",
                device: list.device_serial(),
                expected: self.device.serial(),
                uses: "executes",
            });
        }
        if restore && self.semantics == Semantics::Fast {
            return Err(Error::RestoreNotSupported { call: CALL });
        }
        if let Some(Some(scope)) = self.scope {
            if scope != list.semantics() {
                return Err(Error::MixedSemantics {
                    call: CALL,
                    list: list.semantics().name(),
                    scope: scope.name(),
                });
            }
        }
        if let Some((chain, recorded)) = list.back_buffer_affinity() {
            let current = self.device.current_back_buffer(chain).unwrap_or(recorded);
            if current != recorded {
                let error = Error::BackBufferAffinity {
                    call: CALL,
                    swap_chain: self.device.object_name(ObjectKind::SwapChain, chain.raw()),
                    recorded,
                    current,
                };
                if self.validating {
                    return Err(error);
                }
                // Without validation the list draws into the buffer it was recorded against,
                // as the hardware would (R-EX-7).
                tracing::warn!(%error);
            }
        }
        // A title-managed legacy list (R-FX-6) holds no reference either, and its title chose
        // legacy semantics' safety: it is checked always, not only under validation, so that
        // an object it names released before it runs is an error, never a stale handle.
        if self.validating || list.title_managed_lifetimes() {
            // A fast list holds no reference: what it names may be released (R-OBJ-4, R-V-1);
            // a legacy one holds them all, nested fast lists are held to the fast rule.
            if let Some(object) = list.first_released_object() {
                return Err(Error::ReleasedObject { call: CALL, object });
            }
        }
        if let Some(scope) = self.scope.as_mut() {
            *scope = Some(list.semantics());
        }
        let _span = tracing::debug_span!("execute_command_list", commands = list.stats().commands)
            .entered();
        // Violations of direct calls not reported yet come first.
        let direct = self.submit_direct();
        self.run(list, restore, self.semantics);
        if self.semantics == Semantics::Legacy && !restore {
            // The after-rule cleared the state: what the direct calls bound before is gone for
            // the recorder too (a later map must not re-bind it, its references go).
            self.recorder.state_cleared_by_execution();
        }
        // A legacy list's last instances are the immediate context's now (`run` made them
        // current); what the after-rule put back is re-bound to them (R-ST-8).
        for last in list.last_instances() {
            self.recorder
                .adopt_instance(last.resource, last.instance, true);
        }
        self.queue.push(Submission::Kickoff);
        direct.and(self.submitted())
    }

    /// Submits `list` as if executed by a context of `executing` semantics with `restore`:
    /// O(segments + split points + nested lists) on the CPU (R-EX-2). The list itself is walked
    /// in place; its nested lists, however deep, with a stack of their own ([`run_nested`]),
    /// not by recursion (R-REC-9).
    ///
    /// [`run_nested`]: Self::run_nested
    fn run(&mut self, list: &CommandList, restore: bool, executing: Semantics) {
        let saved = self.begin_list(list, restore, executing);
        let semantics = list.semantics();
        for segment in list.segments() {
            if let Some((nested, restore)) = self.submit(segment, semantics) {
                // The list's recording context plays the executing context's part.
                self.run_nested(nested, restore, semantics);
            }
        }
        self.end_list(list, executing, saved);
    }

    /// Runs a nested list and every list nested in it, depth first, with the `nesting` stack.
    fn run_nested(&mut self, list: CommandList, restore: bool, executing: Semantics) {
        let mut nesting = std::mem::take(&mut self.nesting);
        let saved = self.begin_list(&list, restore, executing);
        nesting.push(Nesting {
            walk: list.into_segment_walk(),
            executing,
            saved,
        });
        while let Some(top) = nesting.last_mut() {
            let semantics = top.walk.list().semantics();
            let Some(segment) = top.walk.next() else {
                if let Some(done) = nesting.pop() {
                    self.end_list(done.walk.list(), done.executing, done.saved);
                }
                continue;
            };
            if let Some((list, restore)) = self.submit(segment, semantics) {
                let saved = self.begin_list(&list, restore, semantics);
                nesting.push(Nesting {
                    walk: list.into_segment_walk(),
                    executing: semantics,
                    saved,
                });
            }
        }
        self.nesting = nesting;
    }

    /// Starts `list`'s execution by a context of `executing` semantics (R-ST-1); returns
    /// whether the executing state was saved, to restore afterwards (legacy, `restore`).
    fn begin_list(&mut self, list: &CommandList, restore: bool, executing: Semantics) -> bool {
        let saved = executing == Semantics::Legacy && restore;
        if saved {
            self.queue.push(Submission::Save);
        }
        self.queue
            .push(Submission::ListBegin(list.recorder(), list.semantics()));
        if list.semantics() == Semantics::Legacy {
            // A legacy list never sees the executing context's state (R-ST-1).
            self.queue.push(Submission::ClearState);
        }
        saved
    }

    /// Ends a list's execution: a legacy list's last instances become current, so that split
    /// points later in the outer list and binds after it read them (R-ST-8); then the executing
    /// context's after-rule (R-ST-2).
    fn end_list(&mut self, list: &CommandList, executing: Semantics, saved: bool) {
        for last in list.last_instances() {
            self.recorder
                .adopt_instance(last.resource, last.instance, false);
        }
        match executing {
            Semantics::Legacy if saved => self.queue.push(Submission::Restore),
            Semantics::Legacy => self.queue.push(Submission::ClearState),
            Semantics::Fast => {}
        }
        self.queue.push(Submission::ListEnd);
    }

    /// Submits one segment of a list of `semantics`; a nested list comes back, to be executed
    /// next with its restore flag. A run, the common segment, is pushed here; the rest out of
    /// line.
    #[inline]
    fn submit(
        &mut self,
        segment: Segment<'_>,
        semantics: Semantics,
    ) -> Option<(CommandList, bool)> {
        match segment {
            Segment::Commands(run) => self.queue.push(Submission::Run(run.to_queued(), semantics)),
            Segment::SplitPoint(decoded) => self.submit_split_point(decoded, semantics),
            Segment::Nested(decoded) => return self.submit_nested(decoded),
        }
        None
    }

    /// Queues a split point, its dynamic binding resolved: it reads the immediate context's
    /// current instance of the resource, now (R-SP-4, R-ST-8).
    #[inline(never)]
    fn submit_split_point(&mut self, decoded: Decoded<'_>, semantics: Semantics) {
        let recorder = &self.recorder;
        let queue = &mut self.queue;
        if queue
            .split_points
            .push(decoded, |resource| recorder.current_instance(resource))
        {
            queue.push(Submission::Split(semantics));
        }
    }

    /// Queues a bundle call, or hands back the nested list to execute.
    #[inline(never)]
    fn submit_nested(&mut self, decoded: Decoded<'_>) -> Option<(CommandList, bool)> {
        match decoded.command {
            Command::ExecuteCommandList { list, restore } => Some((list.to_list(), restore)),
            Command::DrawBundle { bundle } => {
                match self.device.bundle_body(bundle) {
                    Some(body) => self.queue.push(Submission::Bundle(
                        body.commands,
                        body.declaration,
                        body.footprint,
                    )),
                    // A fast list holds no reference on the bundles it calls: this one was
                    // released before the list ran (R-OBJ-3, R-OBJ-4). The call is skipped;
                    // validation refuses the execution up front instead.
                    None => self.execution_errors.push(Error::ReleasedObject {
                        call: "draw_bundle",
                        object: self.device.object_name(ObjectKind::Bundle, bundle),
                    }),
                }
                None
            }
            _ => None,
        }
    }
}

/// What consumes submissions: the GPU model and the states saved for legacy executions with
/// restore = true. It lives on the immediate context, or on the GPU thread while work is
/// outstanding there (`GpuTiming::Threaded`).
#[derive(Default)]
struct GpuSide {
    gpu: GpuModel,
    saved: Vec<GpuState>,
    /// The device, for the sample counts of bound targets a bundle call checks (R-B-10).
    device: Option<Device>,
}

impl GpuSide {
    /// Consumes `queue` in order, leaving it empty (its capacity kept).
    fn consume(&mut self, queue: &mut Queue) {
        let mut split_points = queue.split_points.iter();
        for submission in queue.submissions.drain(..) {
            match submission {
                Submission::Run(run, semantics) => {
                    self.gpu.count_ib_execution();
                    for decoded in run.commands() {
                        self.gpu.execute_decoded(&decoded, semantics);
                    }
                }
                Submission::Split(semantics) => {
                    if let Some(split) = split_points.next() {
                        split.apply(|command| {
                            self.gpu
                                .execute_split_point(split.category(), command, semantics)
                        });
                    }
                }
                Submission::Batch(batch, semantics) => {
                    for decoded in batch.commands() {
                        if decoded.split == Some(SplitCategory::Decompression) {
                            // Legacy: binding a view of a compressed target decompresses it.
                            decompress_bound(&mut self.gpu, &decoded.command);
                        }
                        self.gpu.execute(&decoded.command, semantics);
                    }
                }
                Submission::Bundle(body, declaration, footprint) => {
                    // A refusal (format mismatch) is kept by the model: see
                    // `take_execution_errors`.
                    let device = self.device.as_ref();
                    let hazards = self.gpu.validates_hazards();
                    if hazards {
                        self.gpu.hazard_bundle(true);
                    }
                    let _ = self
                        .gpu
                        .execute_bundle(&body, &declaration, footprint, |texture| {
                            device.and_then(|device| draw_bundle::sample_count(device, texture))
                        });
                    if hazards {
                        self.gpu.hazard_bundle(false);
                    }
                }
                Submission::Kickoff => self.gpu.progress_mut().kickoff(),
                Submission::Present(chain) => self.gpu.present(chain),
                Submission::ClearState => self.gpu.clear_state(),
                Submission::Save => self.saved.push(self.gpu.snapshot()),
                Submission::Restore => {
                    if let Some(state) = self.saved.pop() {
                        self.gpu.restore(&state);
                    }
                }
                Submission::ListBegin(recorder, semantics) => {
                    self.gpu.list_begin(recorder, semantics)
                }
                Submission::ListEnd => self.gpu.list_end(),
            }
        }
        drop(split_points);
        queue.split_points.clear();
    }

    /// [`consume`](Self::consume) for the GPU thread, which owns the batch.
    fn consume_owned(&mut self, mut queue: Queue) {
        self.consume(&mut queue);
    }
}

/// Decompresses every compressed texture a view bind names (counted by the GPU model).
fn decompress_bound(gpu: &mut GpuModel, command: &Command<'_>) {
    for view in command
        .shader_views()
        .iter()
        .filter(|v| !v.flags.has(ViewFlags::BUFFER))
    {
        gpu.decompress_if_compressed(view.resource);
    }
}

/// What [`DeviceContext`]'s shared calls on the immediate context forward to: its recorder
/// (through `DerefMut`, so binds and draws are the recorder's own calls, unchanged), except
/// `barrier` and `resource_barrier`, which end the batch
/// ([`direct_barrier`](ImmediateContext::direct_barrier)).
struct Direct<'a>(&'a mut ImmediateContext);

impl std::ops::Deref for Direct<'_> {
    type Target = Recorder<ImmediateRole>;
    #[inline]
    fn deref(&self) -> &Self::Target {
        &self.0.recorder
    }
}

impl std::ops::DerefMut for Direct<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0.recorder
    }
}

impl Direct<'_> {
    fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
        let calls = self.0.recorder.stats().calls;
        self.0.recorder.barrier(groups);
        self.0.direct_barrier(calls);
    }

    fn resource_barrier(&mut self, barriers: &[ResourceBarrier]) {
        let calls = self.0.recorder.stats().calls;
        self.0.recorder.resource_barrier(barriers);
        self.0.direct_barrier(calls);
    }
}

/// The recording API, applied directly (R-EX-1): every shared call, recorded by the immediate
/// context's own recorder and run at the next flush; a barrier submits the batch at once and
/// its result comes back at the next [`flush`](ImmediateContext::flush). `map` and `unmap` are
/// the immediate context's own (read and write maps), so are `execute_command_list`,
/// `draw_bundle`, `present` and the getters (they flush first).
impl DeviceContext for ImmediateContext {
    recorder::forward_device_context!(|this| Direct(this));

    #[inline]
    fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error> {
        ImmediateContext::map(self, resource, map_type, flags)
    }

    #[inline]
    fn unmap(&mut self, resource: impl Into<Resource>) {
        ImmediateContext::unmap(self, resource)
    }

    /// Counters of the direct calls since the last batch.
    fn stats(&self) -> ListStats {
        self.recorder.stats()
    }

    /// The first error of the current batch (refused direct calls are ignored one by one: see
    /// [`last_refusal`](DeviceContext::last_refusal)).
    fn error(&self) -> Option<&RecordError> {
        self.recorder.error()
    }

    fn last_refusal(&self) -> Option<&Error> {
        self.recorder.last_refusal()
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
