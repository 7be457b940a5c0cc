//! What the GPU model does with barriers (SPEC §9): so far it counts them (`barriers`). The
//! response (drains, stalls, cache work, layouts and compression, R-BAR-2..4), the legacy
//! translation (R-BAR-6) and the validation (R-BAR-8) are issue 11's, in progress.

use recorder::{BarrierRecord, ResourceBarrierRecord, Semantics};

use super::GpuModel;

impl GpuModel {
    /// Executes one `barrier` call's barriers, in order.
    pub(super) fn barrier(&mut self, _semantics: Semantics, barriers: &[BarrierRecord]) {
        self.counters.barriers += barriers.len() as u64;
    }

    /// Executes one `resource_barrier` call's legacy barriers, in order.
    pub(super) fn resource_barrier(
        &mut self,
        _semantics: Semantics,
        barriers: &[ResourceBarrierRecord],
    ) {
        self.counters.barriers += barriers.len() as u64;
    }
}
