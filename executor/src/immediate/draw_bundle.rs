//! The immediate context's share of draw bundles: calling one (R-B-10), recording one between
//! `start_bundle` and `finish_bundle` (R-B-1), and the bundle calls refused at execution.
//!
//! **Cost.** A bundle call hands the GPU model a counted reference to the bundle's commands,
//! its declaration and its footprint: O(1) on the CPU whatever the bundle's draw count, and no
//! allocation once the submission queue has its capacity. The model expands it, as the constant
//! engine would (`gpu/bundle_call.rs`).
//!
//! **Format check** (R-B-10), against the targets bound when the bundle runs:
//! - `draw_bundle` here, under `GpuTiming::Inline` (the default, tests and traces): the model has
//!   consumed everything before the call, so the check is made at once and a mismatch is
//!   returned (`format_mismatch`), the call submitting nothing;
//! - under `GpuTiming::Deferred` and `Threaded`, and for bundle calls recorded in fast lists
//!   (whose targets are inherited, unknown when they were recorded), the model checks when it
//!   reaches the call; a refused call counts nothing and is reported by
//!   [`ImmediateContext::take_execution_errors`];
//! - under `GpuTiming::Detached` (a null driver: nothing is consumed, nothing is bound) nothing
//!   is checked.
//!
//! **Validation** (R-V-1): a bundle holds no reference on the objects it names, so under
//! validation a call of a bundle naming a released object is refused (`released_object`), as an
//! execution of a list calling it is.
//!
//! **Only here.** A bundle call on the immediate context is `ImmediateContext::draw_bundle`;
//! `bundles::DrawBundleExt` (a deferred context's bundle call) is not implemented for it, so a
//! call that would put the bundle in a batch cannot be written
//! (`r_b_10_the_immediate_recorder_refuses_a_bundle_call_recorded_through_it`):
//!
//! ```compile_fail
//! use bundles::*;
//! use executor::prelude::*;
//! let device = Device::new(DeviceDesc::default());
//! let mut imm = ImmediateContext::new(&device)?;
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! let bundle = recorder.finish().map_err(|e| e.error)?;
//! DrawBundleExt::draw_bundle(&mut imm, &bundle); // not a deferred context
//! # Ok::<(), Error>(())
//! ```

use std::marker::PhantomData;

use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use recorder::{Error, RecordError};

use super::gpu_submission::{sample_count, Submission};
use super::{GpuTiming, ImmediateContext};

impl ImmediateContext {
    /// Calls `bundle` (R-B-10): its draws run with its encapsulated slots and remaps over this
    /// context's state, which is exactly as before afterwards. The first bundle call after other
    /// work and the first draw after it each roll the context. See the module essay for when the
    /// formats are checked.
    ///
    /// ```
    /// use bundles::{BundleDesc, BundleRecorder};
    /// use executor::ImmediateContext;
    /// use recorder::*;
    ///
    /// let device = Device::new(DeviceDesc::default());
    /// let mut immediate = ImmediateContext::new(&device)?;
    /// let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("empty target", &[]))?;
    /// recorder.set_input_layout(None);
    /// for stage in Stage::GRAPHICS {
    ///     recorder.set_shader(stage, None);
    /// }
    /// recorder.draw(3, 0);
    /// let bundle = recorder.finish().map_err(|e| e.error)?;
    /// for _ in 0..3 {
    ///     immediate.draw_bundle(&bundle)?;
    /// }
    /// assert_eq!(immediate.counters().bundle_calls, 3);
    /// assert_eq!(immediate.counters().draws, 3);
    /// # Ok::<(), recorder::Error>(())
    /// ```
    pub fn draw_bundle(&mut self, bundle: &DrawBundle) -> Result<(), Error> {
        const CALL: &str = "draw_bundle";
        if !bundle.is_from(&self.device) {
            return Err(Error::WrongDevice {
                call: CALL,
                object: "bundle",
                device: bundle.body().device_serial(),
                expected: self.device.serial(),
                uses: "calls",
            });
        }
        if self.validating {
            // A bundle holds no reference on what it names (fast semantics, R-OBJ-4, R-V-1).
            if let Some(object) = bundle.body().first_released_object() {
                return Err(Error::ReleasedObject { call: CALL, object });
            }
        }
        // Violations of direct calls not reported yet come first (R-V-1).
        let direct = self.submit_direct();
        if self.timing == GpuTiming::Inline {
            let device = &self.device;
            let bound = self
                .side
                .gpu
                .bound_output_formats(|texture| sample_count(device, texture));
            if !bound.satisfies(bundle.declaration()) {
                direct?;
                return Err(bound.mismatch(CALL, bundle.declaration()));
            }
        }
        self.queue.push(Submission::Bundle(
            bundle.body().clone(),
            *bundle.declaration(),
            bundle.footprint_bytes(),
        ));
        self.queue.push(Submission::Kickoff);
        direct.and(self.submitted())
    }

    /// Starts recording a bundle on the immediate context (the seeds' `StartBundle`): the
    /// recording borrows the context until [`ImmediateBundle::finish_bundle`], so no direct call
    /// can slip in between.
    pub fn start_bundle(&mut self, desc: &BundleDesc<'_>) -> Result<ImmediateBundle<'_>, Error> {
        Ok(ImmediateBundle {
            recorder: BundleRecorder::new(&self.device, desc)?,
            _immediate: PhantomData,
        })
    }

    /// The bundle calls skipped since the last call of this, after letting the model catch up:
    /// formats that did not match the bundle's declaration when it ran, and bundles a fast list
    /// called that were released before it executed (`released_object`).
    pub fn take_execution_errors(&mut self) -> Vec<Error> {
        self.sync_gpu();
        let mut errors = std::mem::take(&mut self.execution_errors);
        errors.extend(self.side.gpu.take_bundle_refusals());
        errors
    }
}

/// A bundle being recorded on the immediate context (see [`ImmediateContext::start_bundle`]):
/// a [`BundleRecorder`] that borrows the context until [`finish_bundle`](Self::finish_bundle).
/// Its calls are the bundle recorder's (binds, fast binds, draws, remaps, all checked against
/// the bundle rules), reached through `Deref`.
pub struct ImmediateBundle<'a> {
    recorder: BundleRecorder,
    _immediate: PhantomData<&'a mut ImmediateContext>,
}

impl ImmediateBundle<'_> {
    /// Ends the recording (the seeds' `FinishBundle`): the bundle, or its first error.
    pub fn finish_bundle(mut self) -> Result<DrawBundle, RecordError> {
        self.recorder.finish()
    }
}

/// An immediate bundle is the bundle recorder it borrows from the immediate context: its calls
/// (binds, fast binds, draws), its checks (SPEC §7), its remaps.
impl std::ops::Deref for ImmediateBundle<'_> {
    type Target = BundleRecorder;

    fn deref(&self) -> &BundleRecorder {
        &self.recorder
    }
}

impl std::ops::DerefMut for ImmediateBundle<'_> {
    fn deref_mut(&mut self) -> &mut BundleRecorder {
        &mut self.recorder
    }
}
