//! The GPU model's register and binding state ([`GpuState`]), what a legacy `execute_command_list(list,
//! restore = true)` saves and puts back (R-ST-2) and what the legacy getters read (R-ST-4).

use recorder::command::{BoundBuffer, BoundShader, BoundView};
use recorder::limits::*;
use recorder::{Format, PrimitiveTopology, RawHandle, Rect, Stage, Viewport, DEFAULT_RESET_INDEX};

use crate::record::*;

pub(super) const STAGES: usize = Stage::ALL.len();

/// The register and binding state of the model; `Default` is the ClearState defaults. Opaque:
/// taken by [`GpuModel::snapshot`](super::GpuModel::snapshot) and put back by [`GpuModel::restore`](super::GpuModel::restore) (a legacy
/// `execute_command_list(list, restore = true)`, R-ST-2).
#[derive(Clone, Debug, PartialEq)]
pub struct GpuState {
    pub(super) input_layout: RawHandle,
    /// The vertex-buffer slots the input layout reads.
    pub(super) input_layout_slots: u32,
    pub(super) topology: PrimitiveTopology,
    pub(super) vertex_buffers: [BoundBuffer; VERTEX_BUFFER_SLOTS as usize],
    pub(super) index_buffer: BoundBuffer,
    pub(super) reset_index: u32,
    /// The format of the last index buffer a legacy context bound, from which the reset index
    /// was derived; `None` after ClearState and after an explicit reset index.
    pub(super) legacy_index_format: Option<Format>,
    pub(super) shaders: [BoundShader; STAGES],
    pub(super) constant_buffers: [[BoundBuffer; CONSTANT_BUFFER_SLOTS as usize]; STAGES],
    pub(super) shader_resources: [[BoundView; SHADER_RESOURCE_SLOTS as usize]; STAGES],
    pub(super) samplers: [[RawHandle; SAMPLER_SLOTS as usize]; STAGES],
    pub(super) compute_uavs: [BoundView; COMPUTE_UAV_SLOTS as usize],
    pub(super) render_targets: [BoundView; RENDER_TARGET_SLOTS as usize],
    pub(super) render_target_count: usize,
    pub(super) depth_stencil: BoundView,
    /// Whether each bound render target (then the depth stencil, last) was compressed as the
    /// output merger sees it: taken when it was bound, kept up to date by legacy semantics only
    /// (R-ST-9: under fast, a bound target's change of compression is seen after a re-bind).
    pub(super) target_compression: [bool; RENDER_TARGET_SLOTS as usize + 1],
    /// The output merger's UAVs, which the graphics stages' UAV slots read.
    pub(super) om_uavs: [BoundView; GRAPHICS_UAV_SLOTS as usize],
    pub(super) blend: BlendRecord,
    pub(super) depth_stencil_state: DepthStencilRecord,
    pub(super) rasterizer: RawHandle,
    pub(super) viewports: Vec<Viewport>,
    pub(super) scissors: Vec<Rect>,
    pub(super) predicate: RawHandle,
    pub(super) predicate_value: bool,
}

impl Default for GpuState {
    fn default() -> Self {
        Self {
            input_layout: RawHandle::NULL,
            input_layout_slots: 0,
            topology: PrimitiveTopology::Undefined,
            vertex_buffers: [BoundBuffer::NULL; VERTEX_BUFFER_SLOTS as usize],
            index_buffer: BoundBuffer::NULL,
            reset_index: DEFAULT_RESET_INDEX,
            legacy_index_format: None,
            shaders: [BoundShader::NULL; STAGES],
            constant_buffers: [[BoundBuffer::NULL; CONSTANT_BUFFER_SLOTS as usize]; STAGES],
            shader_resources: [[BoundView::NULL; SHADER_RESOURCE_SLOTS as usize]; STAGES],
            samplers: [[RawHandle::NULL; SAMPLER_SLOTS as usize]; STAGES],
            compute_uavs: [BoundView::NULL; COMPUTE_UAV_SLOTS as usize],
            render_targets: [BoundView::NULL; RENDER_TARGET_SLOTS as usize],
            render_target_count: 0,
            depth_stencil: BoundView::NULL,
            target_compression: [false; RENDER_TARGET_SLOTS as usize + 1],
            om_uavs: [BoundView::NULL; GRAPHICS_UAV_SLOTS as usize],
            blend: BlendRecord::DEFAULT,
            depth_stencil_state: DepthStencilRecord::DEFAULT,
            rasterizer: RawHandle::NULL,
            viewports: Vec::new(),
            scissors: Vec::new(),
            predicate: RawHandle::NULL,
            predicate_value: false,
        }
    }
}

impl GpuState {
    /// The primitive reset index in force.
    pub fn reset_index(&self) -> u32 {
        self.reset_index
    }

    /// Whether a predicate is set (draws are predicated, split points roll the context).
    pub fn predication_active(&self) -> bool {
        !self.predicate.is_null()
    }

    // What the legacy `get_*` calls read (R-ST-4). Slots out of range read `None`.

    pub fn shader(&self, stage: Stage) -> BoundShader {
        self.shaders[stage as usize]
    }

    pub fn constant_buffer(&self, stage: Stage, slot: u32) -> Option<BoundBuffer> {
        self.constant_buffers[stage as usize]
            .get(slot as usize)
            .copied()
    }

    pub fn shader_resource(&self, stage: Stage, slot: u32) -> Option<BoundView> {
        self.shader_resources[stage as usize]
            .get(slot as usize)
            .copied()
    }

    pub fn sampler(&self, stage: Stage, slot: u32) -> Option<RawHandle> {
        self.samplers[stage as usize].get(slot as usize).copied()
    }

    pub fn compute_unordered_access_view(&self, slot: u32) -> Option<BoundView> {
        self.compute_uavs.get(slot as usize).copied()
    }

    pub fn vertex_buffer(&self, slot: u32) -> Option<BoundBuffer> {
        self.vertex_buffers.get(slot as usize).copied()
    }

    pub fn index_buffer(&self) -> BoundBuffer {
        self.index_buffer
    }

    pub fn input_layout(&self) -> RawHandle {
        self.input_layout
    }

    pub fn topology(&self) -> PrimitiveTopology {
        self.topology
    }

    /// The render targets of the last bind, and the depth-stencil view.
    pub fn render_targets(&self) -> (&[BoundView], BoundView) {
        (
            &self.render_targets[..self.render_target_count],
            self.depth_stencil,
        )
    }

    pub fn blend_state(&self) -> BlendRecord {
        self.blend
    }

    pub fn depth_stencil_state(&self) -> DepthStencilRecord {
        self.depth_stencil_state
    }

    pub fn rasterizer_state(&self) -> RawHandle {
        self.rasterizer
    }

    pub fn viewports(&self) -> &[Viewport] {
        &self.viewports
    }

    pub fn scissor_rects(&self) -> &[Rect] {
        &self.scissors
    }

    /// The predicate and the value it predicates on.
    pub fn predication(&self) -> (RawHandle, bool) {
        (self.predicate, self.predicate_value)
    }
}
