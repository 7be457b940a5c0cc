//! What the frame demo records on ([`Engine`]): the engine's own types, or the capture's
//! wrappers of them (`--capture`), chosen at compile time so that a run without `--capture` runs
//! the code it always ran.
//!
//! **In:** a device (and, captured, its capture and a swap chain). **Out:** deferred contexts,
//! bundle recorders and an immediate context of the chosen kind, the end of each frame (a
//! present under capture, R-CAP-2), and what the capture made of the frames.
//!
//! **Invariant.** Each implementation forwards to the type's method of the same name, nothing
//! more: the demo measures the engine, or the engine under capture, never a wrapper of ours.

use benches::object_bundles::{BundleCaller, BundleSink};
use benches::Scene;
use bundles::{BundleDesc, BundleRecorder};
use executor::{Counters, ImmediateContext, RecordingContext};
use recorder::*;
use trace::capture::{
    Capture, CaptureDevice, CapturedBundleRecorder, CapturedDeferred, CapturedImmediate,
    FrameOutcome,
};

/// What the demo records on: the engine's own types ([`Device`], without `--capture`: the code
/// the demo always ran), or the capture's wrappers of them ([`Captured`], with it). Chosen at
/// compile time: each is its own instance of the demo's functions.
pub(crate) trait Engine: Sync {
    type Deferred: BundleCaller + RecordingContext;
    type Immediate: Immediate;
    type Bundles: BundleSink;
    /// The engine's device (the scene's objects, the chunk pool).
    fn device(&self) -> &Device;
    fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<Self::Deferred, Error>;
    fn create_bundle_recorder(&self, desc: &BundleDesc<'_>) -> Result<Self::Bundles, Error>;
    /// The end of a frame, after its lists have executed: a scene with GPU contents gets its
    /// post pass onto its swap chain, presented (a backend run, R-GPU-5); the captured engine
    /// presents its swap chain, which bookends frames (R-CAP-2); the bare one, without a post
    /// pass, has nothing to do.
    fn end_frame(&self, immediate: &mut Self::Immediate, scene: &Scene) -> Result<(), Error>;
    /// Asks for the frame after the next [`end_frame`](Self::end_frame) to be captured.
    fn trigger(&self);
    /// What the capture made of the frames since the last call.
    fn take_outcomes(&self) -> Vec<FrameOutcome>;
}

/// What the demo asks of the immediate context (the engine's, or the capture's wrapper of it):
/// each is its method of the same name.
pub(crate) trait Immediate: BindCalls + InheritedStateCalls + DrawCalls {
    /// The engine's immediate context (the capture's wraps one).
    #[cfg_attr(not(feature = "vulkan"), allow(dead_code))]
    fn context(&mut self) -> &mut ImmediateContext;
    fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error>;
    fn flush(&mut self) -> Result<(), Error>;
    fn clear_records(&mut self);
    fn take_execution_errors(&mut self) -> Vec<Error>;
    fn counters(&mut self) -> Counters;
}

macro_rules! immediate {
    ($type:ty, |$c:ident| $inner:expr) => {
        impl Immediate for $type {
            fn context(&mut self) -> &mut ImmediateContext {
                let $c = self;
                $inner
            }
            fn execute_command_list(
                &mut self,
                list: &CommandList,
                restore: RestoreState,
            ) -> Result<(), Error> {
                <$type>::execute_command_list(self, list, restore)
            }
            fn flush(&mut self) -> Result<(), Error> {
                <$type>::flush(self)
            }
            fn clear_records(&mut self) {
                <$type>::clear_records(self)
            }
            fn take_execution_errors(&mut self) -> Vec<Error> {
                <$type>::take_execution_errors(self)
            }
            fn counters(&mut self) -> Counters {
                *<$type>::counters(self)
            }
        }
    };
}

immediate!(ImmediateContext, |c| c);
immediate!(CapturedImmediate, |c| c.inner_mut());

impl Engine for Device {
    type Deferred = DeferredContext;
    type Immediate = ImmediateContext;
    type Bundles = BundleRecorder;
    fn device(&self) -> &Device {
        self
    }
    fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<DeferredContext, Error> {
        Device::create_deferred_context(self, desc)
    }
    fn create_bundle_recorder(&self, desc: &BundleDesc<'_>) -> Result<BundleRecorder, Error> {
        BundleRecorder::new(self, desc)
    }
    fn end_frame(&self, immediate: &mut ImmediateContext, scene: &Scene) -> Result<(), Error> {
        match &scene.post {
            Some(post) => {
                post.record(immediate, scene)?;
                immediate.present(post.chain)
            }
            None => Ok(()),
        }
    }
    fn trigger(&self) {}
    fn take_outcomes(&self) -> Vec<FrameOutcome> {
        Vec::new()
    }
}

/// `--capture`: the device and every context wrapped by the capture, and the swap chain whose
/// presents end the frames (the scene renders to its own targets; the chain is there to be
/// presented, as an application's is).
pub(crate) struct Captured {
    pub(crate) device: CaptureDevice,
    pub(crate) capture: Capture,
    pub(crate) chain: SwapChain,
}

impl Engine for Captured {
    type Deferred = CapturedDeferred;
    type Immediate = CapturedImmediate;
    type Bundles = CapturedBundleRecorder;
    fn device(&self) -> &Device {
        self.device.device()
    }
    fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<CapturedDeferred, Error> {
        self.device.create_deferred_context(desc)
    }
    fn create_bundle_recorder(
        &self,
        desc: &BundleDesc<'_>,
    ) -> Result<CapturedBundleRecorder, Error> {
        self.device.create_bundle_recorder(desc)
    }
    fn end_frame(&self, immediate: &mut CapturedImmediate, scene: &Scene) -> Result<(), Error> {
        match &scene.post {
            Some(post) => {
                post.record(immediate, scene)?;
                immediate.present(post.chain)
            }
            None => immediate.present(self.chain),
        }
    }
    fn trigger(&self) {
        self.capture.trigger()
    }
    fn take_outcomes(&self) -> Vec<FrameOutcome> {
        self.capture.take_outcomes()
    }
}
