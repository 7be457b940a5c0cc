//! What a legacy deferred context remembers of its own state (the "shadow"): every binding, with
//! the descriptor it encoded. Legacy semantics needs it to drop the reference a binding holds when
//! the slot is rebound (R-OBJ-4), to carry state into the next list after
//! `finish_command_list(true)` (R-ST-1), and to re-bind a dynamic resource that a write_discard
//! map renamed while bound (R-ST-8), and to keep what it binds for input and for output apart
//! (R-ST-10, `hazard.rs`). Fast contexts keep none of it.

use crate::command::{BoundBuffer, BoundShader, BoundView};
use crate::desc::{Format, PrimitiveTopology, Rect, Viewport, DEFAULT_RESET_INDEX};
use crate::handle::RawHandle;
use crate::limits::*;

pub(crate) const STAGES: usize = 6;

/// The state of a legacy context; `Default` is the ClearState defaults.
#[derive(Clone)]
pub(crate) struct LegacyShadow {
    pub(crate) input_layout: (RawHandle, u32),
    pub(crate) topology: PrimitiveTopology,
    pub(crate) vertex_buffers: [BoundBuffer; VERTEX_BUFFER_SLOTS as usize],
    pub(crate) index_buffer: BoundBuffer,
    /// The primitive reset index register as legacy semantics leaves it (R-ST-5): set by
    /// `set_primitive_reset_index`, or derived from the format of an index buffer bound after
    /// one of another format (`reset_format`), as the GPU model does.
    pub(crate) reset_index: u32,
    pub(crate) reset_format: Option<Format>,
    pub(crate) shaders: [BoundShader; STAGES],
    pub(crate) constant_buffers: [[BoundBuffer; CONSTANT_BUFFER_SLOTS as usize]; STAGES],
    pub(crate) shader_resources: [[BoundView; SHADER_RESOURCE_SLOTS as usize]; STAGES],
    pub(crate) samplers: [[RawHandle; SAMPLER_SLOTS as usize]; STAGES],
    pub(crate) compute_uavs: [BoundView; COMPUTE_UAV_SLOTS as usize],
    pub(crate) render_targets: [BoundView; RENDER_TARGET_SLOTS as usize],
    pub(crate) render_target_count: u32,
    pub(crate) depth_stencil: BoundView,
    pub(crate) om_uavs: [BoundView; GRAPHICS_UAV_SLOTS as usize],
    pub(crate) blend: (RawHandle, [f32; 4], u32),
    pub(crate) depth_stencil_state: (RawHandle, u32),
    pub(crate) rasterizer: RawHandle,
    pub(crate) viewports: ([Viewport; VIEWPORT_SLOTS as usize], u32),
    pub(crate) scissors: ([Rect; VIEWPORT_SLOTS as usize], u32),
    pub(crate) predication: (RawHandle, bool),
    /// Slots holding a dynamic resource, for R-ST-8's re-bind after a write_discard map.
    pub(crate) dynamic_vertex_buffers: u32,
    pub(crate) dynamic_index_buffer: bool,
    pub(crate) dynamic_constant_buffers: [u16; STAGES],
    pub(crate) dynamic_shader_resources: [u128; STAGES],
    /// Shader-resource slots holding a view, per stage (R-ST-10 scans these, `hazard.rs`).
    pub(crate) bound_shader_resources: [u128; STAGES],
    /// A filter of the resources bound for output (a bit per resource index, modulo 64),
    /// refreshed at every output bind: an SRV bind whose bit is clear needs no search.
    pub(crate) output_filter: u64,
}

pub(crate) const DEFAULT_BLEND_FACTOR: [f32; 4] = [1.0; 4];

impl LegacyShadow {
    /// A legacy bind of `buffer` in `format`: an index buffer of a format other than the last
    /// one derives the reset index from it (a null buffer changes nothing).
    pub(crate) fn index_buffer_bound(&mut self, buffer: &BoundBuffer, format: Format) {
        if buffer.buffer.is_null() || self.reset_format == Some(format) {
            return;
        }
        if let Some(value) = format.legacy_reset_index() {
            self.reset_format = Some(format);
            self.reset_index = value;
        }
    }
}
pub(crate) const DEFAULT_SAMPLE_MASK: u32 = u32::MAX;

impl Default for LegacyShadow {
    fn default() -> Self {
        Self {
            input_layout: (RawHandle::NULL, 0),
            topology: PrimitiveTopology::Undefined,
            vertex_buffers: [BoundBuffer::NULL; VERTEX_BUFFER_SLOTS as usize],
            index_buffer: BoundBuffer::NULL,
            reset_index: DEFAULT_RESET_INDEX,
            reset_format: None,
            shaders: [BoundShader::NULL; STAGES],
            constant_buffers: [[BoundBuffer::NULL; CONSTANT_BUFFER_SLOTS as usize]; STAGES],
            shader_resources: [[BoundView::NULL; SHADER_RESOURCE_SLOTS as usize]; STAGES],
            samplers: [[RawHandle::NULL; SAMPLER_SLOTS as usize]; STAGES],
            compute_uavs: [BoundView::NULL; COMPUTE_UAV_SLOTS as usize],
            render_targets: [BoundView::NULL; RENDER_TARGET_SLOTS as usize],
            render_target_count: 0,
            depth_stencil: BoundView::NULL,
            om_uavs: [BoundView::NULL; GRAPHICS_UAV_SLOTS as usize],
            blend: (RawHandle::NULL, DEFAULT_BLEND_FACTOR, DEFAULT_SAMPLE_MASK),
            depth_stencil_state: (RawHandle::NULL, 0),
            rasterizer: RawHandle::NULL,
            viewports: ([Viewport::default(); VIEWPORT_SLOTS as usize], 0),
            scissors: ([Rect::default(); VIEWPORT_SLOTS as usize], 0),
            predication: (RawHandle::NULL, false),
            dynamic_vertex_buffers: 0,
            dynamic_index_buffer: false,
            dynamic_constant_buffers: [0; STAGES],
            dynamic_shader_resources: [0; STAGES],
            bound_shader_resources: [0; STAGES],
            output_filter: 0,
        }
    }
}

impl LegacyShadow {
    /// Every object a binding holds a reference on, with its kind.
    pub(crate) fn for_each_bound(&self, mut f: impl FnMut(crate::handle::ObjectKind, RawHandle)) {
        use crate::handle::ObjectKind as K;
        let mut one = |kind, handle: RawHandle| {
            if !handle.is_null() {
                f(kind, handle)
            }
        };
        one(K::InputLayout, self.input_layout.0);
        self.vertex_buffers
            .iter()
            .for_each(|b| one(K::Buffer, b.buffer));
        one(K::Buffer, self.index_buffer.buffer);
        for stage in 0..STAGES {
            one(K::Shader, self.shaders[stage].shader);
            self.constant_buffers[stage]
                .iter()
                .for_each(|b| one(K::Buffer, b.buffer));
            self.shader_resources[stage]
                .iter()
                .for_each(|v| one(K::ShaderResourceView, v.view));
            self.samplers[stage]
                .iter()
                .for_each(|s| one(K::SamplerState, *s));
        }
        self.compute_uavs
            .iter()
            .for_each(|v| one(K::UnorderedAccessView, v.view));
        self.render_targets
            .iter()
            .for_each(|v| one(K::RenderTargetView, v.view));
        one(K::DepthStencilView, self.depth_stencil.view);
        self.om_uavs
            .iter()
            .for_each(|v| one(K::UnorderedAccessView, v.view));
        one(K::BlendState, self.blend.0);
        one(K::DepthStencilState, self.depth_stencil_state.0);
        one(K::RasterizerState, self.rasterizer);
        one(K::Query, self.predication.0);
    }
}
