//! What changed in the binding state between two draws handed to a backend (R-GPU-6):
//! [`DrawChanges`], a small `Copy` summary the GPU model keeps while it feeds a backend and puts
//! on each [`Draw`](super::Draw) it hands over, so that the backend translates again only what
//! a bind touched (the Vulkan backend re-resolves one stage's descriptors when one of its
//! constant buffers changed, and looks its pipeline up only when a pipeline register did).
//!
//! **In:** each command the model applied and hands to its backend ([`DrawChanges::note`]: a
//! bind of a stage's shader or slots, of vertex buffers, of the index buffer, of a register),
//! and every way the bindings change with no such command (a list begun or ended, a state
//! cleared or restored, a bundle call and its remaps, a decompression, a backend installed).
//! **Out:** per stage, whether its shader was set and which constant-buffer, shader-resource and
//! sampler slots were; which vertex-buffer slots were; flags for the index buffer, input layout,
//! topology, blend, depth-stencil and rasterizer states, viewports and scissors; and
//! [`DrawChanges::everything`] where the model cannot say (any other command: targets, UAVs,
//! predicates, copies, clears, queries...). A map (`MapWriteDiscard`, `MapWriteNoOverwrite`)
//! changes nothing: it changes no binding (a bound descriptor names its instance, R-ST-8; a
//! legacy recorder binds a renamed buffer again itself, which is a bind), so a backend that
//! moves anything of its own at a map (a transfer, a flush) says so itself.
//!
//! **Invariant.** Conservative: a binding a draw reads differs from the previous handed draw's
//! only where its bit is set (or `everything` is). A bit may be set for a bind that changed
//! nothing (D3D does not filter redundant binds, nor does this). The masks fold slots past their
//! width into their last bit (a shader-resource slot 70 sets bit 63). Kept only while a backend
//! is installed: the model without one pays nothing for it.

use recorder::command::Command;
use recorder::Stage;

/// The stages a summary tells apart: the five graphics stages and compute, by `Stage as usize`.
const STAGES: usize = 6;

/// What changed in the binding state since the previous draw or dispatch handed to the backend
/// (see the module essay). A draw read out of [`Records`](super::Records) rather than handed
/// over carries [`DrawChanges::ALL`].
///
/// ```
/// use executor::DrawChanges;
/// use recorder::command::{BoundBuffer, BoundBuffers, Command};
/// use recorder::Stage;
///
/// let mut changes = DrawChanges::NONE;
/// changes.note(&Command::SetConstantBuffers {
///     stage: Stage::Vertex,
///     start: 2,
///     buffers: BoundBuffers::Array(&[BoundBuffer::NULL]),
/// });
/// assert!(!changes.everything() && changes.stage(Stage::Vertex) && !changes.stage(Stage::Pixel));
/// assert_eq!(changes.constant_buffers[Stage::Vertex as usize], 1 << 2);
/// changes.note(&Command::ClearState);
/// assert!(changes.everything());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawChanges {
    /// [`DrawChanges::EVERYTHING`] and the register flags.
    pub flags: u16,
    /// Bit `Stage as usize`: that stage's shader was set.
    pub shaders: u8,
    /// Per stage (`Stage as usize`), the constant-buffer slots set.
    pub constant_buffers: [u16; STAGES],
    /// Per stage, the sampler slots set.
    pub samplers: [u16; STAGES],
    /// Per stage, the shader-resource slots set (slots from 63 on fold into bit 63).
    pub shader_resources: [u64; STAGES],
    /// The vertex-buffer slots set (slots from 31 on fold into bit 31).
    pub vertex_buffers: u32,
}

impl DrawChanges {
    /// Anything may have changed: read the record whole.
    pub const EVERYTHING: u16 = 1;
    /// The index buffer or the primitive reset index.
    pub const INDEX_BUFFER: u16 = 1 << 1;
    /// The input layout.
    pub const INPUT_LAYOUT: u16 = 1 << 2;
    /// The primitive topology.
    pub const TOPOLOGY: u16 = 1 << 3;
    /// The blend state, blend factor or sample mask.
    pub const BLEND: u16 = 1 << 4;
    /// The depth-stencil state or stencil reference.
    pub const DEPTH_STENCIL: u16 = 1 << 5;
    /// The rasterizer state.
    pub const RASTERIZER: u16 = 1 << 6;
    /// The viewports.
    pub const VIEWPORTS: u16 = 1 << 7;
    /// The scissor rectangles.
    pub const SCISSORS: u16 = 1 << 8;

    /// Nothing changed.
    pub const NONE: Self = Self {
        flags: 0,
        shaders: 0,
        constant_buffers: [0; STAGES],
        samplers: [0; STAGES],
        shader_resources: [0; STAGES],
        vertex_buffers: 0,
    };

    /// Everything may have changed.
    pub const ALL: Self = Self {
        flags: u16::MAX,
        shaders: u8::MAX,
        constant_buffers: [u16::MAX; STAGES],
        samplers: [u16::MAX; STAGES],
        shader_resources: [u64::MAX; STAGES],
        vertex_buffers: u32::MAX,
    };

    /// Whether anything may have changed ([`EVERYTHING`](Self::EVERYTHING)): the masks say
    /// nothing then.
    #[inline]
    pub fn everything(&self) -> bool {
        self.flags & Self::EVERYTHING != 0
    }

    /// Whether any of `flags` is set, or everything may have changed.
    #[inline]
    pub fn any(&self, flags: u16) -> bool {
        self.flags & (flags | Self::EVERYTHING) != 0
    }

    /// Whether `stage`'s shader or any of its constant-buffer, shader-resource or sampler slots
    /// may have changed.
    #[inline]
    pub fn stage(&self, stage: Stage) -> bool {
        let s = stage as usize;
        self.everything()
            || self.shaders & (1 << s) != 0
            || self.constant_buffers.get(s).is_some_and(|m| *m != 0)
            || self.samplers.get(s).is_some_and(|m| *m != 0)
            || self.shader_resources.get(s).is_some_and(|m| *m != 0)
    }

    /// Adds `other`'s changes (a backend that skipped a draw keeps what it was told).
    #[inline]
    pub fn merge(&mut self, other: &DrawChanges) {
        self.flags |= other.flags;
        self.shaders |= other.shaders;
        self.vertex_buffers |= other.vertex_buffers;
        for s in 0..STAGES {
            self.constant_buffers[s] |= other.constant_buffers[s];
            self.samplers[s] |= other.samplers[s];
            self.shader_resources[s] |= other.shader_resources[s];
        }
    }

    /// Everything may have changed from here on (a change the model does not attribute, or a
    /// backend's own: a flush, a barrier).
    #[inline]
    pub fn set_everything(&mut self) {
        self.flags |= Self::EVERYTHING;
    }

    /// Adds what `command` changes: a bind sets its bits; a map nothing; any other command
    /// sets [`EVERYTHING`](Self::EVERYTHING).
    #[inline]
    pub fn note(&mut self, command: &Command<'_>) {
        match *command {
            Command::SetShader { stage, .. } => self.shaders |= 1 << (stage as usize % STAGES),
            Command::SetConstantBuffers {
                stage,
                start,
                ref buffers,
            } => {
                let at = stage as usize % STAGES;
                self.constant_buffers[at] |= fold(slots(start, buffers.len()), 16) as u16;
            }
            Command::SetShaderResources {
                stage,
                start,
                views,
            } => {
                self.shader_resources[stage as usize % STAGES] |= slots(start, views.len());
            }
            Command::SetSamplers {
                stage,
                start,
                samplers,
            } => {
                let mask = fold(slots(start, samplers.len()), 16) as u16;
                self.samplers[stage as usize % STAGES] |= mask;
            }
            Command::SetVertexBuffers { start, ref buffers } => {
                self.vertex_buffers |= fold(slots(start, buffers.len()), 32) as u32;
            }
            Command::SetIndexBuffer(_) | Command::SetPrimitiveResetIndex(_) => {
                self.flags |= Self::INDEX_BUFFER
            }
            Command::SetInputLayout { .. } => self.flags |= Self::INPUT_LAYOUT,
            Command::SetPrimitiveTopology(_) => self.flags |= Self::TOPOLOGY,
            Command::SetBlendState { .. } => self.flags |= Self::BLEND,
            Command::SetDepthStencilState { .. } => self.flags |= Self::DEPTH_STENCIL,
            Command::SetRasterizerState(_) => self.flags |= Self::RASTERIZER,
            Command::SetViewports(_) => self.flags |= Self::VIEWPORTS,
            Command::SetScissorRects(_) => self.flags |= Self::SCISSORS,
            // No binding changes at a map (see the module essay).
            Command::MapWriteDiscard { .. } | Command::MapWriteNoOverwrite { .. } => {}
            _ => self.flags |= Self::EVERYTHING,
        }
    }
}

impl Default for DrawChanges {
    /// [`ALL`](Self::ALL): nothing is known before a first draw.
    fn default() -> Self {
        Self::ALL
    }
}

/// The mask of slots `start..start + count`, slots from 63 on folded into bit 63.
#[inline]
fn slots(start: u32, count: usize) -> u64 {
    if count == 0 {
        return 0;
    }
    let end = (start as u64).saturating_add(count as u64).min(64);
    let start = (start as u64).min(63);
    let high = if end == 64 {
        u64::MAX
    } else {
        (1u64 << end) - 1
    };
    // `start` < `end` (count > 0): bit `start` at least.
    high & !((1u64 << start) - 1)
}

/// `mask` in `bits` bits: the bits from `bits - 1` on folded into bit `bits - 1`.
#[inline]
fn fold(mask: u64, bits: u32) -> u64 {
    let low = mask & ((1u64 << (bits - 1)) - 1);
    if mask >> (bits - 1) != 0 {
        low | 1 << (bits - 1)
    } else {
        low
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_gpu_6_a_map_changes_no_binding() {
        use recorder::command::{BoundResource, InstanceId};
        use recorder::RawHandle;
        let resource = BoundResource {
            resource: RawHandle::NULL,
            instance: InstanceId::INITIAL,
            is_texture: 0,
            data_len: 4,
        };
        let mut changes = DrawChanges::NONE;
        changes.note(&Command::MapWriteDiscard {
            resource,
            data: &[0; 4],
        });
        changes.note(&Command::MapWriteNoOverwrite {
            resource,
            data: &[0; 4],
        });
        assert_eq!(changes, DrawChanges::NONE);
        changes.note(&Command::ClearState);
        assert!(changes.everything());
    }

    #[test]
    fn r_gpu_6_slot_masks_cover_the_slots_set() {
        assert_eq!(slots(0, 1), 1);
        assert_eq!(slots(2, 3), 0b11100);
        assert_eq!(slots(0, 0), 0);
        assert_eq!(slots(60, 10), 0xF << 60);
        assert_eq!(slots(100, 1), 1 << 63);
        assert_eq!(slots(0, 64), u64::MAX);
        assert_eq!(fold(slots(14, 1), 16), 1 << 14);
        assert_eq!(fold(slots(20, 1), 16), 1 << 15);
        assert_eq!(fold(slots(0, 3), 32), 0b111);
    }
}
