//! What the GPU model does with barriers (SPEC §9): so far it counts them (`barriers`). The
//! response (drains, stalls, cache work, layouts and compression, R-BAR-2..4), the legacy
//! translation (R-BAR-6) and the validation (R-BAR-8) are issue 11's, in progress.

use recorder::{BarrierLayout, BarrierRecord, RawHandle, ResourceBarrierRecord, Semantics};

use super::GpuModel;

/// What the GPU model knows of a texture now: TRACE.md's `expect resource` reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureState {
    /// The layout every subresource is in; `None` when they differ (`mixed`).
    pub layout: Option<BarrierLayout>,
    /// Whether any plane is compressed.
    pub compressed: bool,
    /// The depth plane's compression, for a format with depth (`None` otherwise).
    pub depth_compressed: Option<bool>,
    /// The stencil plane's compression, for a format with stencil (`None` otherwise).
    pub stencil_compressed: Option<bool>,
}

impl GpuModel {
    /// What the model knows of `texture` now (every texture starts in `common`, R-BAR-3).
    pub fn texture_state(&self, texture: RawHandle) -> TextureState {
        TextureState {
            layout: Some(BarrierLayout::Common),
            compressed: self.is_compressed(texture),
            depth_compressed: None,
            stencil_compressed: None,
        }
    }

    /// Executes one `barrier` call's barriers, in order.
    pub(super) fn barrier(&mut self, _semantics: Semantics, barriers: &[BarrierRecord]) {
        self.counters.barriers += barriers.len() as u64;
        self.placed_barriers(barriers);
    }

    /// Executes one `resource_barrier` call's legacy barriers, in order.
    pub(super) fn resource_barrier(
        &mut self,
        _semantics: Semantics,
        barriers: &[ResourceBarrierRecord],
    ) {
        self.counters.barriers += barriers.len() as u64;
        self.placed_resource_barriers(barriers);
    }
}
