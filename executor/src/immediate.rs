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

use recorder::encode::{BoundBuffer, BoundView, Command, Decoded, InstanceId, ViewFlags};
use recorder::SplitCategory;
use recorder::{CommandList, DeferredContext, Device, Error, RawHandle, Segment, Semantics};
use recorder::{Handle, SwapChain, Texture};

use crate::gpu::GpuModel;
use crate::record::{Counters, DrawRecord};

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
        })
    }

    /// Runs the direct calls made since the last batch.
    pub fn flush(&mut self) {
        if self.recorder.batch_is_empty() {
            return;
        }
        let batch = self.recorder.take_batch();
        let semantics = self.semantics;
        for decoded in batch.commands() {
            match decoded.command {
                Command::ExecuteCommandList { list, restore } => {
                    self.run(&list.to_list(), restore, semantics)
                }
                command => {
                    if decoded.split == Some(SplitCategory::Decompression) {
                        // Legacy: binding a view of a compressed target decompresses it (R-ST-9).
                        self.decompress_bound(&command);
                    }
                    self.gpu.execute(&command, semantics);
                }
            }
        }
    }

    /// Decompresses every compressed texture a view bind names (counted by the GPU model).
    fn decompress_bound(&mut self, command: &Command<'_>) {
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
            self.gpu.decompress_if_compressed(view.resource);
        }
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
        self.flush();
        self.gpu.records()
    }

    /// Hands over the draw records so far (after a flush), so a long run keeps no history.
    pub fn take_records(&mut self) -> Vec<DrawRecord> {
        self.flush();
        self.gpu.take_records()
    }

    /// The GPU model's counters (after a flush).
    pub fn counters(&mut self) -> &Counters {
        self.flush();
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
        self.flush();
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
        Ok(())
    }

    /// Runs `list` as if executed by a context of `executing` semantics with `restore`.
    fn run(&mut self, list: &CommandList, restore: bool, executing: Semantics) {
        let before = (executing == Semantics::Legacy && restore).then(|| self.gpu.snapshot());
        if list.semantics() == Semantics::Legacy {
            // A legacy list never sees the executing context's state (R-ST-1).
            self.gpu.clear_state();
        }
        let semantics = list.semantics();
        for segment in list.segments() {
            match segment {
                Segment::Commands(_) => {
                    self.gpu.execute_segment(&segment, semantics);
                }
                Segment::SplitPoint(decoded) => self.resolve(&decoded, semantics),
                Segment::Nested(decoded) => {
                    if let Command::ExecuteCommandList {
                        list: nested,
                        restore,
                    } = decoded.command
                    {
                        // The list's recording context plays the executing context's part.
                        self.run(&nested.to_list(), restore, semantics);
                    }
                }
            }
        }
        match (executing, before) {
            (Semantics::Legacy, Some(state)) => self.gpu.restore(&state),
            (Semantics::Legacy, None) => self.gpu.clear_state(),
            (Semantics::Fast, _) => {}
        }
    }

    /// Resolves one split point against this context now (R-SP-4): a dynamic binding reads the
    /// current instance; a decompression decompresses what is compressed (the GPU model decides
    /// and counts); the others re-issue their command.
    fn resolve(&mut self, decoded: &Decoded<'_>, semantics: Semantics) {
        let Some(category) = decoded.split else {
            return;
        };
        let current = |handle: RawHandle| self.recorder.current_instance(handle);
        let patch_buffer = |b: &BoundBuffer| BoundBuffer {
            instance: if b.instance == InstanceId::RESOLVE_AT_EXECUTION {
                current(b.buffer)
            } else {
                b.instance
            },
            ..*b
        };
        let patch_view = |v: &BoundView| BoundView {
            instance: if v.instance == InstanceId::RESOLVE_AT_EXECUTION {
                current(v.resource)
            } else {
                v.instance
            },
            ..*v
        };
        // Split points of slot binds hold one slot (the recorder cuts them out one by one).
        let (buffer, view) = match decoded.command {
            Command::SetVertexBuffers { buffers, .. }
            | Command::SetConstantBuffers { buffers, .. } => {
                (buffers.first().map(patch_buffer), None)
            }
            Command::SetIndexBuffer(b) => (Some(patch_buffer(&b)), None),
            Command::SetShaderResources { views, .. }
            | Command::SetComputeUnorderedAccessViews { views, .. } => {
                (None, views.first().map(patch_view))
            }
            Command::SetRenderTargets {
                uavs: Some((_, views)),
                ..
            } if category.is_dynamic() => (None, views.first().map(patch_view)),
            _ => (None, None),
        };
        let buffers = buffer.map(|b| [b]);
        let views = view.map(|v| [v]);
        let patched = match (decoded.command, &buffers, &views) {
            (Command::SetVertexBuffers { start, .. }, Some(b), _) => {
                Command::SetVertexBuffers { start, buffers: b }
            }
            (Command::SetConstantBuffers { stage, start, .. }, Some(b), _) => {
                Command::SetConstantBuffers {
                    stage,
                    start,
                    buffers: b,
                }
            }
            (Command::SetIndexBuffer(_), Some(b), _) => Command::SetIndexBuffer(b[0]),
            (Command::SetShaderResources { stage, start, .. }, _, Some(v)) => {
                Command::SetShaderResources {
                    stage,
                    start,
                    views: v,
                }
            }
            (Command::SetComputeUnorderedAccessViews { start, .. }, _, Some(v)) => {
                Command::SetComputeUnorderedAccessViews { start, views: v }
            }
            (
                Command::SetRenderTargets {
                    uavs: Some((start, _)),
                    uav_patch,
                    ..
                },
                _,
                Some(v),
            ) => Command::SetRenderTargets {
                targets: None,
                uavs: Some((start, v)),
                uav_patch,
            },
            (command, _, _) => command,
        };
        self.gpu.execute_split_point(category, &patched, semantics);
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
