//! The frames (R-GPU-6): [`FRAMES_IN_FLIGHT`] sets of what one submission uses (command pool
//! and buffer, fence, the timestamp pair; with the upload ring's part and the descriptor pools
//! of the same index, `ring.rs`, `descriptors.rs`), recorded and submitted in turn, so that a
//! flush does not wait for the GPU.
//!
//! **In:** the commands the other modules record into [`Frame::cb`]. **Out:** at a
//! [`flush`](crate::VulkanBackend::flush) (a present, the engine's `submit`, a read-back, a full
//! ring), the buffer submitted with its frame's fence, and the next frame made current: its
//! fence waited for only if that frame is still in flight (submitted `FRAMES_IN_FLIGHT`
//! submissions ago and not waited for since), then its command pool, ring part and descriptor
//! pools reset. A submission whose results the backend reads (a query's, a predicate's words)
//! is waited for at once, and so is one a read-back reads ([`VulkanBackend::flush_and_wait`]:
//! a present, a read map, `read_texture`). Each submission is bracketed by two timestamp queries
//! (when the queue has timestamps): its GPU time ([`GpuTime`]), read when its fence is waited
//! for ([`VulkanBackend::wait_for_gpu`] waits for every frame in flight).
//!
//! **Invariant.** `cb` is always recording between flushes. Nothing a frame's submission reads
//! (its command buffer, its ring part, its descriptor sets) is reset or rewritten before that
//! frame's fence signalled: a frame's resources are reset only when it is made current again,
//! after the wait. Query pools are shared by the frames: a submission that used one is waited
//! for before the next records its reset.

use ash::vk;

use crate::instance::{vk_failed, BackendError, Gpu};
use crate::VulkanBackend;

/// Frames recorded and submitted in turn: a flush waits only for the submission made this many
/// flushes before (R-GPU-6).
pub(crate) const FRAMES_IN_FLIGHT: usize = 3;

/// What one submission uses (see the module essay).
struct Slot {
    pool: vk::CommandPool,
    cb: vk::CommandBuffer,
    fence: vk::Fence,
    /// Two timestamps (the submission's start and end), when the queue has timestamps.
    timestamps: Option<vk::QueryPool>,
    /// Submitted, and its fence not waited for since.
    in_flight: bool,
}

/// The frames and the current one.
pub(crate) struct Frame {
    slots: Vec<Slot>,
    /// The index of the frame being recorded (its ring part and descriptor pools too).
    pub(crate) current: usize,
    /// The current frame's command buffer.
    pub(crate) cb: vk::CommandBuffer,
    /// Submissions so far.
    pub(crate) submissions: u64,
    /// Fence waits so far (a frame made current again while in flight, a read-back, a
    /// submission whose query results are read).
    pub(crate) waits: u64,
    /// Whether anything was recorded since the last flush.
    pub(crate) dirty: bool,
    /// Nanoseconds per timestamp tick.
    period_ns: f64,
    /// GPU time of the last submission waited for and of all of them, in nanoseconds.
    pub(crate) gpu_ns: GpuTime,
}

/// GPU time measured by timestamp queries around each submission.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuTime {
    /// The last submission's waited for, in nanoseconds.
    pub last_ns: f64,
    /// All submissions' waited for, in nanoseconds.
    pub total_ns: f64,
    /// Submissions measured.
    pub submissions: u64,
}

impl Slot {
    fn new(gpu: &Gpu) -> Result<Self, BackendError> {
        let device = &gpu.device;
        let info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(gpu.queue_family)
            .flags(vk::CommandPoolCreateFlags::TRANSIENT);
        // SAFETY: `info` names the device's queue family.
        let pool = unsafe { device.create_command_pool(&info, None) }
            .map_err(vk_failed("vkCreateCommandPool"))?;
        let allocate = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: `pool` is a live pool of this device.
        let buffers = unsafe { device.allocate_command_buffers(&allocate) };
        // SAFETY: a fence with no flags has no precondition.
        let fence = unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) };
        let (buffers, fence) = match (buffers, fence) {
            (Ok(buffers), Ok(fence)) => (buffers, fence),
            (buffers, fence) => {
                // SAFETY: nothing made here is in use.
                unsafe {
                    if let Ok(fence) = fence {
                        device.destroy_fence(fence, None);
                    }
                    device.destroy_command_pool(pool, None);
                }
                let result = buffers
                    .err()
                    .or(fence.err())
                    .unwrap_or(vk::Result::ERROR_UNKNOWN);
                return Err(vk_failed("vkAllocateCommandBuffers")(result));
            }
        };
        let timestamps = (gpu.timestamp_bits > 0)
            .then(|| {
                let info = vk::QueryPoolCreateInfo::default()
                    .query_type(vk::QueryType::TIMESTAMP)
                    .query_count(2);
                // SAFETY: `info` lives across the call.
                unsafe { device.create_query_pool(&info, None) }.ok()
            })
            .flatten();
        Ok(Self {
            pool,
            cb: buffers.first().copied().unwrap_or_default(),
            fence,
            timestamps,
            in_flight: false,
        })
    }

    fn destroy(&mut self, device: &ash::Device) {
        // SAFETY: the device is idle; the command buffer goes with its pool.
        unsafe {
            if let Some(queries) = self.timestamps.take() {
                device.destroy_query_pool(queries, None);
            }
            device.destroy_fence(self.fence, None);
            device.destroy_command_pool(self.pool, None);
        }
    }
}

impl Frame {
    pub(crate) fn new(gpu: &Gpu) -> Result<Self, BackendError> {
        let mut slots = Vec::with_capacity(FRAMES_IN_FLIGHT);
        for _ in 0..FRAMES_IN_FLIGHT {
            match Slot::new(gpu) {
                Ok(slot) => slots.push(slot),
                Err(error) => {
                    for slot in &mut slots {
                        slot.destroy(&gpu.device);
                    }
                    return Err(error);
                }
            }
        }
        let mut frame = Self {
            cb: slots[0].cb,
            slots,
            current: 0,
            submissions: 0,
            waits: 0,
            dirty: false,
            period_ns: gpu.properties.limits.timestamp_period as f64,
            gpu_ns: GpuTime::default(),
        };
        if let Err(error) = frame.begin(&gpu.device) {
            frame.destroy(&gpu.device);
            return Err(error);
        }
        Ok(frame)
    }

    /// Begins the current frame's command buffer (its pool reset) with its start timestamp.
    fn begin(&self, device: &ash::Device) -> Result<(), BackendError> {
        let slot = &self.slots[self.current];
        let info = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: `cb` is in the initial state (new or its pool reset).
        unsafe { device.begin_command_buffer(slot.cb, &info) }
            .map_err(vk_failed("vkBeginCommandBuffer"))?;
        if let Some(queries) = slot.timestamps {
            // SAFETY: `cb` is recording, outside a pass; the pool holds queries 0 and 1, which
            // no submission in flight uses (the frame's last one was waited for).
            unsafe {
                device.cmd_reset_query_pool(slot.cb, queries, 0, 2);
                device.cmd_write_timestamp2(
                    slot.cb,
                    vk::PipelineStageFlags2::TOP_OF_PIPE,
                    queries,
                    0,
                );
            }
        }
        Ok(())
    }

    /// The submission's end timestamp (before the command buffer ends).
    fn end_timestamp(&self, device: &ash::Device) {
        let slot = &self.slots[self.current];
        if let Some(queries) = slot.timestamps {
            // SAFETY: `cb` is recording, outside a pass; query 1 was reset at `begin`.
            unsafe {
                device.cmd_write_timestamp2(
                    slot.cb,
                    vk::PipelineStageFlags2::ALL_COMMANDS,
                    queries,
                    1,
                )
            };
        }
    }

    /// Waits for frame `index`'s submission if it is in flight, and reads its timestamps.
    fn wait(&mut self, device: &ash::Device, index: usize) -> Result<(), BackendError> {
        let slot = &mut self.slots[index];
        if !slot.in_flight {
            return Ok(());
        }
        // SAFETY: the fence was submitted with the frame's submission (`in_flight`); it is
        // reset once signalled, before it is submitted again.
        unsafe {
            device
                .wait_for_fences(&[slot.fence], true, u64::MAX)
                .map_err(vk_failed("vkWaitForFences"))?;
            device
                .reset_fences(&[slot.fence])
                .map_err(vk_failed("vkResetFences"))?;
        }
        slot.in_flight = false;
        self.waits += 1;
        let Some(queries) = slot.timestamps else {
            return Ok(());
        };
        let mut ticks = [0u64; 2];
        // SAFETY: both queries were written by the submission whose fence was waited for.
        let read = unsafe {
            device.get_query_pool_results(queries, 0, &mut ticks, vk::QueryResultFlags::TYPE_64)
        };
        if read.is_ok() {
            let ns = ticks[1].saturating_sub(ticks[0]) as f64 * self.period_ns;
            self.gpu_ns.last_ns = ns;
            self.gpu_ns.total_ns += ns;
            self.gpu_ns.submissions += 1;
        }
        Ok(())
    }

    /// Frames submitted and not waited for.
    pub(crate) fn in_flight(&self) -> usize {
        self.slots.iter().filter(|s| s.in_flight).count()
    }

    pub(crate) fn destroy(&mut self, device: &ash::Device) {
        for slot in &mut self.slots {
            slot.destroy(device);
        }
    }
}

impl VulkanBackend {
    /// Submits what was recorded and makes the next frame current, waiting only for what must
    /// be waited for (see the module essay).
    pub(crate) fn flush(&mut self) -> Result<(), BackendError> {
        // The ring's regions are forgotten and nothing is bound: draws resolve again.
        self.changes.set_everything();
        self.end_pass();
        self.suspend_queries(crate::query_pools::Scoped::Statistics);
        let device = &self.gpu.device;
        let current = self.frame.current;
        let cb = self.frame.cb;
        self.frame.end_timestamp(device);
        // SAFETY: `cb` is recording and outside a pass (closed above).
        unsafe { device.end_command_buffer(cb) }.map_err(vk_failed("vkEndCommandBuffer"))?;
        let buffers = [cb];
        let submit = vk::SubmitInfo::default().command_buffers(&buffers);
        let fence = self.frame.slots[current].fence;
        // SAFETY: `cb` is executable; the fence is unsignalled (reset after each wait, and the
        // frame's last submission was waited for before it was made current); the queue is
        // used from this thread only (the backend is `Send`, not shared).
        unsafe { device.queue_submit(self.gpu.queue, &[submit], fence) }
            .map_err(vk_failed("vkQueueSubmit"))?;
        self.frame.slots[current].in_flight = true;
        self.frame.submissions += 1;
        self.frame.dirty = false;
        if self.queries.used_any() || self.predication.used > 0 {
            // The backend reads this submission's query results (and the query pools are
            // reset by the next): wait for it now.
            self.frame.wait(&self.gpu.device, current)?;
        }
        self.queries.after_submission(&self.gpu.device);
        self.predication.reset();
        let next = (current + 1) % FRAMES_IN_FLIGHT;
        // The next frame's last submission is done before its resources are reset.
        self.frame.wait(&self.gpu.device, next)?;
        // SAFETY: the frame's submission completed (waited for above, or never made).
        unsafe {
            self.gpu.device.reset_command_pool(
                self.frame.slots[next].pool,
                vk::CommandPoolResetFlags::empty(),
            )
        }
        .map_err(vk_failed("vkResetCommandPool"))?;
        self.frame.current = next;
        self.frame.cb = self.frame.slots[next].cb;
        self.ring.reset(next);
        self.locations.clear();
        self.descriptors.reset(&self.gpu.device, next)?;
        self.bound.reset();
        self.frame.begin(&self.gpu.device)?;
        self.queries.reset(&self.gpu.device, self.frame.cb);
        self.resume_queries(crate::query_pools::Scoped::Statistics);
        Ok(())
    }

    /// [`Self::flush`], then waits for every frame in flight: what a read-back reads is on the
    /// host after it.
    pub(crate) fn flush_and_wait(&mut self) -> Result<(), BackendError> {
        self.flush()?;
        self.wait_frames()
    }

    /// Waits for every frame in flight (their timestamps read).
    pub(crate) fn wait_frames(&mut self) -> Result<(), BackendError> {
        // Oldest first: the GPU time's last submission is the newest.
        for k in 1..=FRAMES_IN_FLIGHT {
            let index = (self.frame.current + k) % FRAMES_IN_FLIGHT;
            self.frame.wait(&self.gpu.device, index)?;
        }
        Ok(())
    }
}
