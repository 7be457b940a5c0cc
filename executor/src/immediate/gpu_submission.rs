//! How the immediate context hands its work to the GPU model ([`GpuTiming`]): the queue of
//! submissions, and the GPU side that consumes it, inline or on the GPU thread.
//!
//! **In:** submissions, in order: runs of a list's commands (by reference), split points
//! resolved at execution, batches of direct calls, bundle calls, kickoffs, presents, state
//! saves and restores, and the begin and end of each list executed. **Out:** the GPU model's
//! state after consuming them, and the first violation or refused barrier the work showed
//! ([`ImmediateContext::flush`]).
//!
//! **Invariants.** The GPU model consumes submissions in the order they were queued, whatever
//! the timing; a steady frame allocates no submissions (the queue keeps its capacity); a
//! submission copies no commands (R-EX-2): it keeps its list alive. The model lives either on
//! the immediate context or on the GPU thread, never both (`away`).

use recorder::command::{Command, ViewFlags};
use recorder::{
    CommandList, Device, Error, Handle, QueuedRun, RawHandle, RecordError, Semantics,
    SplitCategory, SplitPointQueue, Texture,
};

use super::{GpuTiming, ImmediateContext};
use crate::gpu::{GpuModel, GpuState};
use crate::gpu_thread::Handoff;

/// What the GPU model has yet to consume, in order (R-EX-3): the submissions, and the split
/// points they name, kept apart so that a submission stays small (a decoded split point is about
/// 128 bytes, every other submission at most 40; the queue is pushed and drained once per
/// segment of every list executed).
#[derive(Default)]
pub(super) struct Queue {
    pub(super) submissions: Vec<Submission>,
    /// One per [`Submission::Split`], in the same order.
    pub(super) split_points: SplitPointQueue,
}

impl Queue {
    pub(super) fn push(&mut self, submission: Submission) {
        self.submissions.push(submission);
    }

    pub(super) fn is_empty(&mut self) -> bool {
        self.submissions.is_empty()
    }

    /// Drops everything queued, keeping the capacity.
    pub(super) fn clear(&mut self) {
        self.submissions.clear();
        self.split_points.clear();
    }
}

/// What the immediate context hands the GPU model, in order. Command runs go by reference: a
/// submission keeps its list alive, it copies no commands (R-EX-2).
pub(super) enum Submission {
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
    /// A present of the swap chain (the first handle) and of its back buffer (the second), by
    /// a context of these semantics: the next back buffer needs its wait (R-EX-7); legacy
    /// semantics decompresses the one presented (R-ST-9).
    Present(RawHandle, RawHandle, Semantics),
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

    /// Queues the direct calls made since the last batch, as one segment; the first of them
    /// the recorder refused waits for the next [`flush`](Self::flush).
    pub(super) fn queue_batch(&mut self) {
        if let Some(refused) = self.recorder.take_error() {
            self.refusal.get_or_insert(refused);
        }
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
    pub(super) fn consume(&mut self) {
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
    pub(super) fn submitted(&mut self) -> Result<(), Error> {
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
    pub(super) fn drain(&mut self) {
        self.home();
        // Keep the queue's capacity: a steady frame allocates no submissions.
        let mut queue = std::mem::take(&mut self.queue);
        self.side.consume(&mut queue);
        self.queue = queue;
    }

    /// Threaded: hands the queue (and the model, if it is here) to the GPU thread.
    pub(super) fn send_to_thread(&mut self) {
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
    pub(super) fn home(&mut self) {
        if std::mem::take(&mut self.away) {
            if let Some(side) = self.thread.as_ref().and_then(Handoff::take_back) {
                self.side = side;
            }
        }
    }

    /// Submits the direct calls made since the last batch, and returns, in this order, the
    /// first direct call refused since the last flush (R-REC-8, with or without validation:
    /// [`error`](recorder::Context::error) until now), the first thing the GPU model refused or
    /// reported of a direct barrier since, and the first violation the calls submitted now
    /// showed (under validation, R-V-1) or barrier the model refused (always, R-BAR-4/6/8).
    /// This is where a direct call's result comes back: `imm.set_shader(Stage::Vertex,
    /// Some(released)); imm.draw(3, 0); imm.flush()` is `Err(released_object)`. A direct
    /// `barrier` or `resource_barrier` ends the batch and is submitted by its own call (under
    /// `GpuTiming::Inline`, the default, the model runs it then), and what the model refused
    /// of it waits here, for the next `flush`, not for the next `execute_command_list` or
    /// `present`: `imm.barrier(&groups); imm.flush()?;` reports that barrier call.
    pub fn flush(&mut self) -> Result<(), Error> {
        let now = self.submit_direct();
        let reported = self.direct_report.take();
        let refused = self.refusal.take().map(|refusal| refusal.error);
        refused.or(reported).map_or(now, Err)
    }

    /// Takes the first direct call refused since the last [`flush`](Self::flush), so that the
    /// next flush does not report it: for a caller that reports each call's refusal as it
    /// makes it (the trace replay, which reads [`last_refusal`](recorder::Context::last_refusal)).
    pub fn take_refusal(&mut self) -> Option<RecordError> {
        let earlier = self.refusal.take();
        let now = self.recorder.take_error();
        earlier.or(now)
    }

    /// Submits the direct calls made since the last batch: [`flush`](Self::flush) for the calls
    /// that submit them first (executions, presents), which report their own work, not what a
    /// direct barrier left for `flush`.
    pub(super) fn submit_direct(&mut self) -> Result<(), Error> {
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
    pub(super) fn direct_barrier(&mut self, calls_before: u32) {
        // A call the recorder refused is not counted: its refusal is the next flush's.
        if self.recorder.stats().calls == calls_before {
            return;
        }
        if let Err(error) = self.submit_direct() {
            self.direct_report.get_or_insert(error);
        }
    }
}

/// What consumes submissions: the GPU model and the states saved for legacy executions with
/// restore = true. It lives on the immediate context, or on the GPU thread while work is
/// outstanding there (`GpuTiming::Threaded`).
#[derive(Default)]
pub(super) struct GpuSide {
    pub(super) gpu: GpuModel,
    pub(super) saved: Vec<GpuState>,
    /// The device, for the sample counts of bound targets a bundle call checks (R-B-10).
    pub(super) device: Option<Device>,
}

impl GpuSide {
    /// Consumes `queue` in order, leaving it empty (its capacity kept).
    pub(super) fn consume(&mut self, queue: &mut Queue) {
        let mut split_points = queue.split_points.iter();
        for submission in queue.submissions.drain(..) {
            match submission {
                Submission::Run(run, semantics) => {
                    self.gpu.count_ib_execution();
                    let gpu = &mut self.gpu;
                    run.commands()
                        .walk(|decoded| gpu.execute_decoded(decoded, semantics));
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
                            device.and_then(|device| sample_count(device, texture))
                        });
                    if hazards {
                        self.gpu.hazard_bundle(false);
                    }
                }
                Submission::Kickoff => self.gpu.progress_mut().kickoff(),
                Submission::Present(chain, back_buffer, semantics) => {
                    self.gpu.back_buffer_presented(back_buffer, semantics);
                    self.gpu.present(chain);
                    self.gpu.backend_present(chain, back_buffer);
                }
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
    pub(super) fn consume_owned(&mut self, mut queue: Queue) {
        self.consume(&mut queue);
    }
}

/// Decompresses every compressed texture a view bind names (counted by the GPU model).
pub(super) fn decompress_bound(gpu: &mut GpuModel, command: &Command<'_>) {
    for view in command
        .shader_views()
        .iter()
        .filter(|v| !v.flags.has(ViewFlags::BUFFER))
    {
        gpu.decompress_if_compressed(view.resource);
    }
}

/// The sample count of `texture`, for the format check of a bundle call (R-B-10).
pub(super) fn sample_count(device: &Device, texture: RawHandle) -> Option<u32> {
    device
        .texture_info(Texture::from_raw(texture))
        .map(|info| info.sample_count)
}
