//! The frame: the command buffer the backend records into, and its submission.
//!
//! **In:** the commands the other modules record into [`Frame::cb`]. **Out:** at a
//! [`flush`](crate::VulkanBackend::flush) (a present, the engine's `submit`, a read-back, a full
//! ring), the buffer submitted with the frame's fence, waited for, and everything per frame
//! reset: the command pool, the upload ring, the descriptor pool, the query pools (their
//! results read back first, `query_pools.rs`). Each submission is bracketed
//! by two timestamp queries (when the queue has timestamps): its GPU time ([`GpuTime`]).
//!
//! **Invariant.** `cb` is always recording between flushes. A flush waits for the fence before
//! anything per frame is reset, so nothing the GPU reads is reused early. Waiting at every flush
//! is the simple choice (one frame in flight); overlapping frames is R-GPU-6's.

use ash::vk;

use crate::instance::{vk_failed, BackendError, Gpu};
use crate::VulkanBackend;

/// The command pool, command buffer and fence of the frame.
pub(crate) struct Frame {
    pool: vk::CommandPool,
    pub(crate) cb: vk::CommandBuffer,
    fence: vk::Fence,
    /// Submissions so far.
    pub(crate) submissions: u64,
    /// Whether anything was recorded since the last flush.
    pub(crate) dirty: bool,
    /// Two timestamps per submission (its start and end), when the queue has timestamps.
    timestamps: Option<vk::QueryPool>,
    /// Nanoseconds per timestamp tick.
    period_ns: f64,
    /// GPU time of the last submission and of all of them, in nanoseconds.
    pub(crate) gpu_ns: GpuTime,
}

/// GPU time measured by timestamp queries around each submission.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuTime {
    /// The last submission's, in nanoseconds.
    pub last_ns: f64,
    /// All submissions', in nanoseconds.
    pub total_ns: f64,
    /// Submissions measured.
    pub submissions: u64,
}

impl Frame {
    pub(crate) fn new(gpu: &Gpu) -> Result<Self, BackendError> {
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
        let frame = Self {
            pool,
            cb: buffers.first().copied().unwrap_or_default(),
            fence,
            submissions: 0,
            dirty: false,
            timestamps,
            period_ns: gpu.properties.limits.timestamp_period as f64,
            gpu_ns: GpuTime::default(),
        };
        frame.begin(device)?;
        Ok(frame)
    }

    fn begin(&self, device: &ash::Device) -> Result<(), BackendError> {
        let info = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: `cb` is in the initial state (new or its pool reset).
        unsafe { device.begin_command_buffer(self.cb, &info) }
            .map_err(vk_failed("vkBeginCommandBuffer"))?;
        if let Some(queries) = self.timestamps {
            // SAFETY: `cb` is recording, outside a pass; the pool holds queries 0 and 1.
            unsafe {
                device.cmd_reset_query_pool(self.cb, queries, 0, 2);
                device.cmd_write_timestamp2(
                    self.cb,
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
        if let Some(queries) = self.timestamps {
            // SAFETY: `cb` is recording, outside a pass; query 1 was reset at `begin`.
            unsafe {
                device.cmd_write_timestamp2(
                    self.cb,
                    vk::PipelineStageFlags2::ALL_COMMANDS,
                    queries,
                    1,
                )
            };
        }
    }

    /// Reads the two timestamps of the submission that completed (its fence signalled).
    fn read_timestamps(&mut self, device: &ash::Device) {
        let Some(queries) = self.timestamps else {
            return;
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
    }

    pub(crate) fn destroy(&mut self, device: &ash::Device) {
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

impl VulkanBackend {
    /// Submits what was recorded, waits for it, and resets the frame (see the module essay).
    pub(crate) fn flush(&mut self) -> Result<(), BackendError> {
        // The ring's regions are forgotten and nothing is bound: draws resolve again.
        self.changes.set_everything();
        self.end_pass();
        self.suspend_queries(crate::query_pools::Scoped::Statistics);
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        self.frame.end_timestamp(device);
        // SAFETY: `cb` is recording and outside a pass (closed above).
        unsafe { device.end_command_buffer(cb) }.map_err(vk_failed("vkEndCommandBuffer"))?;
        let buffers = [cb];
        let submit = vk::SubmitInfo::default().command_buffers(&buffers);
        // SAFETY: `cb` is executable; the fence is unsignalled (reset after each wait); the
        // queue is used from this thread only (the backend is `Send`, not shared).
        unsafe {
            device
                .queue_submit(self.gpu.queue, &[submit], self.frame.fence)
                .map_err(vk_failed("vkQueueSubmit"))?;
            device
                .wait_for_fences(&[self.frame.fence], true, u64::MAX)
                .map_err(vk_failed("vkWaitForFences"))?;
            device
                .reset_fences(&[self.frame.fence])
                .map_err(vk_failed("vkResetFences"))?;
            device
                .reset_command_pool(self.frame.pool, vk::CommandPoolResetFlags::empty())
                .map_err(vk_failed("vkResetCommandPool"))?;
        }
        self.frame.read_timestamps(&self.gpu.device);
        self.queries.after_submission(&self.gpu.device);
        self.predication.reset();
        self.frame.submissions += 1;
        self.frame.dirty = false;
        self.ring.reset();
        self.locations.clear();
        self.descriptors.reset(&self.gpu.device)?;
        self.bound.reset();
        self.frame.begin(&self.gpu.device)?;
        self.queries.reset(&self.gpu.device, self.frame.cb);
        self.resume_queries(crate::query_pools::Scoped::Statistics);
        Ok(())
    }
}
