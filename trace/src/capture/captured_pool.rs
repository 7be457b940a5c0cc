//! The recording pool on captured contexts: [`CapturedDeferred`] is a
//! [`RecordingContext`](executor::RecordingContext), and [`CapturedPool::captured`] makes a
//! [`RecordingPool`] whose workers each own one, so that a frame the pool records can be captured
//! (SPEC §13). The pool is the engine's, unchanged; only its contexts are the capture's.

use executor::{PoolError, RecordingContext, RecordingPool, RecordingPoolDesc};
use recorder::{CommandList, RecordError, RestoreState};

use super::{CaptureDevice, CapturedDeferred};

impl RecordingContext for CapturedDeferred {
    #[inline(always)]
    fn finish_command_list(&mut self, restore: RestoreState) -> Result<CommandList, RecordError> {
        CapturedDeferred::finish_command_list(self, restore)
    }
    #[inline(always)]
    fn discard_command_list(&mut self) {
        CapturedDeferred::discard_command_list(self)
    }
    #[inline(always)]
    fn name(&self) -> &str {
        self.inner().name()
    }
}

/// [`RecordingPool::captured`](CapturedPool::captured): a recording pool on the capture's
/// deferred contexts.
pub trait CapturedPool: Sized {
    /// [`RecordingPool::new`] with the capture's deferred contexts
    /// ([`CaptureDevice::create_deferred_context`]): the jobs record on [`CapturedDeferred`]s, so
    /// that a frame the pool records can be captured (SPEC §13). Idle, a job's calls cost what
    /// the capture's wrapper costs (one branch each); the pool itself is the same.
    ///
    /// ```
    /// use executor::{RecordingPool, RecordingPoolDesc};
    /// use recorder::*;
    /// use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, CapturedPool};
    /// use trace::capture::FrameOutcome;
    ///
    /// let device = CaptureDevice::new(Device::new(DeviceDesc::default()), CaptureOptions::default());
    /// let mut immediate = CapturedImmediate::new(&device)?;
    /// let mut pool = RecordingPool::captured(&device, &RecordingPoolDesc {
    ///     workers: 2,
    ///     ..Default::default()
    /// })?;
    /// immediate.begin_capture();
    /// for list in pool.record(3, |job, context| context.draw(3, job as u32)) {
    ///     immediate.execute_command_list(&list?, RestoreState::ClearState)?;
    /// }
    /// let Some(FrameOutcome::Captured(frame)) = immediate.end_capture() else {
    ///     panic!("captured")
    /// };
    /// assert_eq!(frame.records, 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn captured(device: &CaptureDevice, desc: &RecordingPoolDesc<'_>) -> Result<Self, PoolError>;
}

impl CapturedPool for RecordingPool<CapturedDeferred> {
    fn captured(device: &CaptureDevice, desc: &RecordingPoolDesc<'_>) -> Result<Self, PoolError> {
        RecordingPool::with_contexts(desc, |context| device.create_deferred_context(context))
    }
}
