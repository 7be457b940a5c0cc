//! [`CapturedBundleRecorder`]: a bundle recorder whose bundles a capture can write (R-CAP-5: a
//! bundle recorded before the frame and called in it is written as its recording). Its own
//! calls (remaps, finish), captured; binds and draws are [`CapturedContext`]'s.
//!
//! **In:** the application's calls. **Out:** the engine's behaviour, unchanged, and at `finish`
//! the bundle's recording, kept by the capture under the bundle's handle.
//!
//! **Invariant.** Every call is kept, whether a frame is being captured or not: a bundle is
//! recorded once and called by many frames.

use std::sync::Arc;

use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use recorder::command::InstanceId;
use recorder::{Handle, RawHandle, RecordError};

use super::captured::{CaptureTarget, CapturedContext};
use super::form::Call;
use super::log::{BundleLog, Tap};
use super::Shared;
use crate::syntax::ast::{Method, Remap};

/// A [`BundleRecorder`] whose bundles a capture can write (R-CAP-5: a bundle recorded before the
/// frame and called in it is written as its recording). Every call is kept, whether a frame is
/// being captured or not: a bundle is recorded once and called by many frames.
pub type CapturedBundleRecorder = CapturedContext<BundleRecorder>;

/// What the capture keeps of a bundle recorder besides its tap: the declaration it writes.
pub struct BundleExtra {
    render_targets: Vec<recorder::Format>,
    depth: Option<recorder::Format>,
    samples: u32,
}

impl CaptureTarget for BundleRecorder {
    type Extra = BundleExtra;

    #[inline(always)]
    fn tap_active(captured: &mut CapturedBundleRecorder) -> bool {
        captured.tap.active()
    }

    #[inline(always)]
    fn tap_awake(captured: &mut CapturedBundleRecorder) -> bool {
        captured.tap.active()
    }

    fn map_instance(&self, _buffer: RawHandle) -> InstanceId {
        InstanceId::INITIAL
    }
}

impl CapturedBundleRecorder {
    pub(crate) fn new(
        recorder: BundleRecorder,
        desc: &BundleDesc<'_>,
        shared: Arc<Shared>,
    ) -> Self {
        Self {
            context: recorder,
            tap: Tap::switched(shared, true),
            extra: BundleExtra {
                render_targets: desc.render_targets.to_vec(),
                depth: desc.depth,
                samples: desc.sample_count,
            },
        }
    }

    /// The wrapped recorder.
    pub fn inner(&self) -> &BundleRecorder {
        &self.context
    }

    fn remapped(&mut self, call: Call) {
        if self.tap_active() {
            self.tap.call(call);
        }
    }

    /// [`BundleRecorder::remap_constant_buffer_inheritance`].
    pub fn remap_constant_buffer_inheritance(
        &mut self,
        stage: recorder::Stage,
        slot: u32,
        inherit_stage: recorder::Stage,
        inherit_slot: u32,
    ) {
        self.remapped(Method::RemapConstantBufferInheritance(Remap {
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        }));
        self.context
            .remap_constant_buffer_inheritance(stage, slot, inherit_stage, inherit_slot)
    }

    /// [`BundleRecorder::remap_shader_resource_inheritance`].
    pub fn remap_shader_resource_inheritance(
        &mut self,
        stage: recorder::Stage,
        slot: u32,
        inherit_stage: recorder::Stage,
        inherit_slot: u32,
    ) {
        self.remapped(Method::RemapShaderResourceInheritance(Remap {
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        }));
        self.context
            .remap_shader_resource_inheritance(stage, slot, inherit_stage, inherit_slot)
    }

    /// [`BundleRecorder::remap_sampler_inheritance`].
    pub fn remap_sampler_inheritance(
        &mut self,
        stage: recorder::Stage,
        slot: u32,
        inherit_stage: recorder::Stage,
        inherit_slot: u32,
    ) {
        self.remapped(Method::RemapSamplerInheritance(Remap {
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        }));
        self.context
            .remap_sampler_inheritance(stage, slot, inherit_stage, inherit_slot)
    }

    /// [`BundleRecorder::remap_vertex_buffer_inheritance`].
    pub fn remap_vertex_buffer_inheritance(&mut self, slot: u32, inherit_slot: u32) {
        self.remapped(Method::RemapVertexBufferInheritance { slot, inherit_slot });
        self.context
            .remap_vertex_buffer_inheritance(slot, inherit_slot)
    }

    /// [`BundleRecorder::finish`]: the capture keeps the bundle's recording under its handle.
    pub fn finish(&mut self) -> Result<DrawBundle, RecordError> {
        let kept = self.tap.take_kept();
        let broken = self.tap.broken.take();
        self.tap.clear();
        let bundle = self.context.finish()?;
        let log = BundleLog {
            name: self.context.name().to_string(),
            render_targets: self.extra.render_targets.clone(),
            depth: self.extra.depth,
            samples: self.extra.samples,
            calls: kept.calls,
            decoded: std::sync::OnceLock::new(),
            _keep: kept.keep,
            finish_seq: self.tap.shared().stamp(),
            broken,
        };
        let raw = bundle.handle().raw();
        let shared = self.tap.shared().clone();
        shared.bundles.lock().insert(raw, Arc::new(log));
        Ok(bundle)
    }
}
