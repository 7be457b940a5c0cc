//! The immediate context (R-EX-1), as far as it exists yet: the recording API applied directly,
//! and command-list execution (R-EX-2, R-SP-4) under the state rules of R-ST-1..3, on the GPU
//! model it owns. Read and write maps, presents and swap chains, fences and validation arrive
//! with the rest of the executor issue.
//!
//! **Direct calls** go through the same recorder as deferred contexts (the device's immediate
//! recorder, reached through `Deref`), so they are checked and encoded exactly alike; the
//! immediate context runs them in batches, at once, before anything that observes or depends on
//! them (an execution, the records, an explicit [`flush`](ImmediateContext::flush)). Its state,
//! its references (legacy) and its current dynamic instances persist from batch to batch.
//!
//! **In:** direct calls and finished [`CommandList`]s, in order. **Out:** what the GPU model
//! saw: draw records and counters.
//!
//! **Execution cost** is O(segments + split points + nested lists), not O(commands): command
//! segments go to the GPU model by reference, one indirect-buffer execution each; only split
//! points are decoded and patched here.
//!
//! **State rules.** A legacy list starts from the ClearState defaults (it re-binds any state it
//! carried itself); a fast list inherits what is bound (R-ST-1). Afterwards the executing
//! context decides (R-ST-2): legacy with `restore = true` puts its state back, with `false` clears
//! it; fast keeps what the list left and refuses `restore = true`. A nested list follows the same
//! rules, with the context that recorded the outer list in the executing context's place.

use std::ops::{Deref, DerefMut};

use recorder::encode::{BoundBuffer, BoundView, Command, InstanceId, ViewFlags};
use recorder::SplitCategory;
use recorder::{CommandList, DeferredContext, Device, Error, QueuedRun, Segment, Semantics};
use recorder::{Handle, SwapChain, Texture};

use crate::gpu::{GpuModel, GpuState};

mod bundle;

use crate::record::{Counters, DrawRecord};
pub use bundle::ImmediateBundle;

/// The one immediate context of a device.
pub struct ImmediateContext {
    device: Device,
    semantics: Semantics,
    gpu: GpuModel,
    /// Records the direct calls; it also knows the current instance of every dynamic resource
    /// mapped here, which is what a list's dynamic split point resolves to (R-SP-4, R-ST-8).
    recorder: DeferredContext,
    /// Inside `begin/end_command_list_execution`: the semantics of the lists run so far (R-ST-3).
    scope: Option<Option<Semantics>>,
    /// What the GPU model has yet to consume, in order (R-EX-3).
    queue: Vec<Submission>,
    timing: GpuTiming,
    /// The GPU model's saved states, for legacy executions with restore = true.
    saved: Vec<GpuState>,
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
    /// Never: submissions are dropped once made. No records, no counters; for measuring the
    /// CPU side of execution alone (the `execute` bench), as with a null driver.
    Detached,
}

/// What the immediate context hands the GPU model, in order. Command runs go by reference: a
/// submission keeps its list alive, it copies no commands (R-EX-2).
enum Submission {
    /// One indirect-buffer execution: a run of a list's commands.
    Run(QueuedRun, Semantics),
    /// A split point resolved against the immediate context at execution: its command, and the
    /// instance a dynamic binding in it reads (R-SP-4).
    Split(QueuedRun, SplitCategory, Semantics, InstanceId),
    /// The immediate context's own calls since the last batch.
    Batch(CommandList, Semantics),
    /// A bundle call: the bundle's commands by reference, its declaration and footprint
    /// (R-B-10); the GPU model expands it.
    Bundle(CommandList, recorder::OutputFormats, u32),
    ClearState,
    Save,
    Restore,
}

impl ImmediateContext {
    /// The immediate context of `device`, with the semantics the device was created with. A
    /// device has one: a second is refused while the first lives.
    pub fn new(device: &Device) -> Result<Self, Error> {
        Ok(Self {
            device: device.clone(),
            semantics: device.desc().immediate_semantics,
            gpu: GpuModel::new(),
            recorder: device.immediate_recorder()?,
            scope: None,
            queue: Vec::new(),
            timing: GpuTiming::Inline,
            saved: Vec::new(),
        })
    }

    /// When the GPU model consumes submissions (inline by default).
    pub fn set_gpu_timing(&mut self, timing: GpuTiming) {
        self.timing = timing;
    }

    /// Lets the GPU model consume everything submitted so far.
    pub fn sync_gpu(&mut self) {
        self.flush();
        self.drain();
    }

    fn submitted(&mut self) {
        match self.timing {
            GpuTiming::Inline => self.drain(),
            GpuTiming::Deferred => {}
            GpuTiming::Detached => self.queue.clear(),
        }
    }

    /// The GPU model's side: consumes the queue in order.
    fn drain(&mut self) {
        // Keep the queue's capacity: a steady frame allocates no submissions.
        let mut queue = std::mem::take(&mut self.queue);
        for submission in queue.drain(..) {
            match submission {
                Submission::Run(run, semantics) => {
                    self.gpu.count_ib_execution();
                    for decoded in run.commands() {
                        self.gpu.execute_decoded(&decoded, semantics);
                    }
                }
                Submission::Split(run, category, semantics, instance) => {
                    if let Some(decoded) = run.commands().next() {
                        patched(&decoded.command, instance, |command| {
                            self.gpu.execute_split_point(category, command, semantics)
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
                    // A refusal (format mismatch) is kept by the model: see `take_execution_errors`.
                    let device = &self.device;
                    let _ = self
                        .gpu
                        .execute_bundle(&body, &declaration, footprint, |texture| {
                            bundle::sample_count(device, texture)
                        });
                }
                Submission::ClearState => self.gpu.clear_state(),
                Submission::Save => self.saved.push(self.gpu.snapshot()),
                Submission::Restore => {
                    if let Some(state) = self.saved.pop() {
                        self.gpu.restore(&state);
                    }
                }
            }
        }
        self.queue = queue;
    }

    /// Submits the direct calls made since the last batch.
    pub fn flush(&mut self) {
        if !self.recorder.batch_is_empty() {
            let batch = self.recorder.take_batch();
            self.queue.push(Submission::Batch(batch, self.semantics));
        }
        self.submitted();
    }

    pub fn semantics(&self) -> Semantics {
        self.semantics
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The GPU model this context feeds.
    pub fn gpu(&self) -> &GpuModel {
        &self.gpu
    }

    /// Every draw and dispatch the GPU model has recorded, in order (after a flush).
    pub fn records(&mut self) -> &[DrawRecord] {
        self.sync_gpu();
        self.gpu.records()
    }

    /// Hands over the draw records so far (after a flush), so a long run keeps no history.
    pub fn take_records(&mut self) -> Vec<DrawRecord> {
        self.sync_gpu();
        self.gpu.take_records()
    }

    /// The GPU model's counters (after a flush).
    pub fn counters(&mut self) -> &Counters {
        self.sync_gpu();
        self.gpu.counters()
    }

    /// Presents `chain` (R-EX-7): runs the calls so far, rotates the back buffers, destroys the
    /// released objects nothing references any more (legacy deferred release, R-OBJ-4), and
    /// under fast semantics clears the state, as the runtime does (R-ST-4).
    pub fn present(&mut self, chain: SwapChain) -> Result<(), Error> {
        self.flush();
        self.device.rotate_back_buffer(chain)?;
        self.device.process_deferred_releases();
        if self.semantics == Semantics::Fast {
            self.recorder.clear_state();
            self.flush();
        }
        Ok(())
    }

    /// Resumes after a suspend: under fast semantics nothing was shadowed to restore, so the
    /// state is cleared (R-ST-4); legacy keeps it.
    pub fn resume(&mut self) {
        if self.semantics == Semantics::Fast {
            self.recorder.clear_state();
            self.flush();
        }
    }

    /// Whether `texture` is compressed now, as the GPU model tracks it (R-ST-9).
    pub fn resource_compression(&mut self, texture: Texture) -> bool {
        self.sync_gpu();
        self.gpu.is_compressed(texture.raw())
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
    /// execution changes nothing and counts nothing.
    pub fn execute_command_list(&mut self, list: &CommandList, restore: bool) -> Result<(), Error> {
        const CALL: &str = "execute_command_list";
        if !list.is_from(&self.device) {
            return Err(Error::InvalidArgument {
                call: CALL,
                message: "the command list was recorded on another device".into(),
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
        if let Some(scope) = self.scope.as_mut() {
            *scope = Some(list.semantics());
        }
        let _span = tracing::debug_span!("execute_command_list", commands = list.stats().commands)
            .entered();
        self.flush();
        self.run(list, restore, self.semantics);
        self.submitted();
        Ok(())
    }

    /// Submits `list` as if executed by a context of `executing` semantics with `restore`:
    /// O(segments + split points + nested lists) on the CPU (R-EX-2).
    fn run(&mut self, list: &CommandList, restore: bool, executing: Semantics) {
        let save = executing == Semantics::Legacy && restore;
        if save {
            self.queue.push(Submission::Save);
        }
        if list.semantics() == Semantics::Legacy {
            // A legacy list never sees the executing context's state (R-ST-1).
            self.queue.push(Submission::ClearState);
        }
        let semantics = list.semantics();
        for segment in list.segments() {
            match segment {
                Segment::Commands(run) => {
                    self.queue.push(Submission::Run(run.to_queued(), semantics))
                }
                Segment::SplitPoint(decoded) => {
                    let (Some(category), Some(run)) = (decoded.split, decoded.to_queued()) else {
                        continue;
                    };
                    let instance = self.resolved_instance(&decoded.command);
                    self.queue
                        .push(Submission::Split(run, category, semantics, instance));
                }
                Segment::Nested(decoded) => {
                    if let Command::ExecuteCommandList {
                        list: nested,
                        restore,
                    } = decoded.command
                    {
                        // The list's recording context plays the executing context's part.
                        self.run(&nested.to_list(), restore, semantics);
                    } else if let Command::DrawBundle {
                        bundle,
                        declaration,
                        footprint,
                    } = decoded.command
                    {
                        let body = bundle.to_list();
                        self.queue
                            .push(Submission::Bundle(body, declaration, footprint));
                    }
                }
            }
        }
        match executing {
            Semantics::Legacy if save => self.queue.push(Submission::Restore),
            Semantics::Legacy => self.queue.push(Submission::ClearState),
            Semantics::Fast => {}
        }
    }

    /// What a split point's dynamic binding reads: the immediate context's current instance of
    /// the resource, now (R-SP-4, R-ST-8).
    fn resolved_instance(&self, command: &Command<'_>) -> InstanceId {
        let resource = match *command {
            Command::SetVertexBuffers { buffers, .. }
            | Command::SetConstantBuffers { buffers, .. } => buffers.first().map(|b| b.buffer),
            Command::SetIndexBuffer(b) => Some(b.buffer),
            Command::SetShaderResources { views, .. } => views.first().map(|v| v.resource),
            _ => None,
        };
        resource.map_or(InstanceId::INITIAL, |r| self.recorder.current_instance(r))
    }
}

/// Calls `apply` with `command` whose dynamic binding waiting for execution
/// (`RESOLVE_AT_EXECUTION`) reads `instance`. Split points of slot binds hold one slot.
fn patched(command: &Command<'_>, instance: InstanceId, apply: impl FnOnce(&Command<'_>)) {
    let resolve = |current: InstanceId| {
        if current == InstanceId::RESOLVE_AT_EXECUTION {
            instance
        } else {
            current
        }
    };
    let buffer = |b: &BoundBuffer| {
        [BoundBuffer {
            instance: resolve(b.instance),
            ..*b
        }]
    };
    let view = |v: &BoundView| {
        [BoundView {
            instance: resolve(v.instance),
            ..*v
        }]
    };
    match *command {
        Command::SetVertexBuffers {
            start,
            buffers: [b],
        } => apply(&Command::SetVertexBuffers {
            start,
            buffers: &buffer(b),
        }),
        Command::SetConstantBuffers {
            stage,
            start,
            buffers: [b],
        } => apply(&Command::SetConstantBuffers {
            stage,
            start,
            buffers: &buffer(b),
        }),
        Command::SetIndexBuffer(b) => apply(&Command::SetIndexBuffer(buffer(&b)[0])),
        Command::SetShaderResources {
            stage,
            start,
            views: [v],
        } => apply(&Command::SetShaderResources {
            stage,
            start,
            views: &view(v),
        }),
        ref other => apply(other),
    }
}

/// Decompresses every compressed texture a view bind names (counted by the GPU model).
fn decompress_bound(gpu: &mut GpuModel, command: &Command<'_>) {
    let views: &[BoundView] = match *command {
        Command::SetShaderResources { views, .. }
        | Command::SetComputeUnorderedAccessViews { views, .. } => views,
        Command::SetRenderTargets {
            uavs: Some((_, views)),
            ..
        } => views,
        _ => &[],
    };
    for view in views.iter().filter(|v| !v.flags.has(ViewFlags::BUFFER)) {
        gpu.decompress_if_compressed(view.resource);
    }
}

/// The recording API, applied directly (R-EX-1): every call of a deferred context, recorded by
/// the immediate context's own recorder and run at the next flush. `execute_command_list` and
/// the counters are the immediate context's own (they flush first).
impl Deref for ImmediateContext {
    type Target = DeferredContext;
    fn deref(&self) -> &DeferredContext {
        &self.recorder
    }
}

impl DerefMut for ImmediateContext {
    fn deref_mut(&mut self) -> &mut DeferredContext {
        &mut self.recorder
    }
}

impl std::fmt::Debug for ImmediateContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImmediateContext")
            .field("semantics", &self.semantics)
            .field("counters", self.gpu.counters())
            .finish_non_exhaustive()
    }
}
