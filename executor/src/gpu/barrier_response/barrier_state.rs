//! What the barrier model keeps between calls ([`Barriers`], only for resources a barrier named,
//! so draws pay nothing): each texture's layouts and plane compression, the legacy states that
//! are not `common`, the split barriers begun and not ended, the kinds of barrier the device has
//! used, how deep in lists the model is, and the textures left in a `common` layout; and what
//! the model tells of a texture from it ([`GpuModel::texture_state`]).
//!
//! **In:** the changes the barrier calls, checks and effects make. **Out:** a texture's
//! [`TextureState`].
//!
//! **Invariant:** a texture the model holds nothing for is in `common`, with the compression the
//! model's `compressed` set says for both planes; a resource absent from the legacy states is in
//! `common`.

use std::collections::HashMap;

use recorder::{BarrierLayout, RawHandle, ResourceStates, Semantics};

use super::enhanced_barrier::Barrier;
use super::texture_layouts::{Facts, TextureLayouts, TextureState};

use crate::gpu::GpuModel;

/// The barrier state of the model (`gpu/barrier_response.rs`'s essay: **What it keeps**).
#[derive(Debug, Default)]
pub(in crate::gpu) struct Barriers {
    pub(super) textures: HashMap<RawHandle, TextureLayouts>,
    /// Legacy states other than `common`, by resource (handle, is a texture).
    pub(super) legacy: HashMap<(RawHandle, bool), ResourceStates>,
    pub(super) used_enhanced: bool,
    pub(super) used_legacy: bool,
    /// The semantics of the call being run (a decompression is seen by bound views as R-ST-9
    /// says for it).
    pub(super) semantics: Semantics,
    /// Under validation, texture barriers into a `common` layout since the last list end: one
    /// still in it at the end of a list is a warning (R-BAR-8).
    pub(super) to_common: Vec<Barrier>,
    /// How deep in command lists the commands being run are (`GpuModel::list_begin`): 0 for
    /// direct calls.
    pub(in crate::gpu) list_depth: u32,
    /// Split begins not ended yet, in order, and whether a list boundary was reported for it.
    pub(super) open_splits: Vec<(Barrier, bool)>,
}

impl Barriers {
    /// A clear or `set_resource_compression(true)` compressed `texture` whole: its planes agree
    /// again.
    #[inline]
    pub(in crate::gpu) fn planes_joined(&mut self, texture: RawHandle) {
        if !self.textures.is_empty() {
            if let Some(t) = self.textures.get_mut(&texture) {
                t.planes = None;
            }
        }
    }
}

impl GpuModel {
    /// The legacy state legacy transitions left `resource` in (R-BAR-6; `texture` says which
    /// kind the handle names): `common` when none did. A capture writes it as the transition
    /// that gives it (`trace/src/capture/immediate.rs`).
    pub fn legacy_state(&self, resource: RawHandle, texture: bool) -> ResourceStates {
        self.barriers
            .legacy
            .get(&(resource, texture))
            .copied()
            .unwrap_or(ResourceStates::COMMON)
    }

    /// `decompress_resource` of the depth or stencil kind of a compressed depth texture
    /// (R-ST-9): the planes named decompress, the others keep their compression (R-BAR-3's
    /// independent planes); the texture leaves the `compressed` set once no plane is. Returns
    /// whether a plane changed.
    pub(in crate::gpu) fn decompress_planes(
        &mut self,
        texture: RawHandle,
        depth: bool,
        stencil: bool,
    ) -> bool {
        if !self.compressed.contains(&texture) {
            return false;
        }
        if !self.barriers.textures.contains_key(&texture) {
            let facts = self.facts(texture).unwrap_or(Facts::UNKNOWN);
            self.barriers
                .textures
                .insert(texture, TextureLayouts::new(facts));
        }
        let Some(t) = self.barriers.textures.get_mut(&texture) else {
            return false;
        };
        let before = t.planes.unwrap_or([true; 2]);
        let mut after = [before[0] && !depth, before[1] && !stencil];
        if t.facts.planes < 2 {
            after[1] = after[0];
        }
        t.planes = (after[0] != after[1]).then_some(after);
        if !(after[0] || after[1]) {
            self.compressed.remove(&texture);
        }
        after != before
    }

    /// What the model knows of `texture` now (every texture starts in `common`, R-BAR-3).
    pub fn texture_state(&self, texture: RawHandle) -> TextureState {
        let compressed = self.is_compressed(texture);
        let known = self.barriers.textures.get(&texture);
        let facts = known
            .map(|t| t.facts)
            .or_else(|| self.facts(texture))
            .unwrap_or(Facts::UNKNOWN);
        let planes = match known.and_then(|t| t.planes) {
            Some(p) if compressed => p,
            _ => [compressed; 2],
        };
        TextureState {
            layout: known.map_or(Some(BarrierLayout::Common), TextureLayouts::layout),
            compressed,
            depth_compressed: facts.depth.then_some(planes[0]),
            stencil_compressed: (facts.planes > 1).then_some(planes[1]),
        }
    }
}
