//! The binding state of a context ([`Bindings`]): every binding slot with the descriptor it was
//! encoded with, and the registers the binding commands set. One type, kept by three owners:
//!
//! - the legacy shadow of a deferred context (`shadow.rs`), which remembers what it has bound;
//! - the GPU model's state (`executor`'s `GpuState`), what draws read and what a legacy
//!   `execute_command_list(list, restore = true)` saves and puts back;
//! - the constant engine's bundle overlay ([`BundleOverlay`], `state/overlay.rs`), which applies a
//!   bundle's bindings over its caller's and puts the caller's back.
//!
//! **In:** the binding commands ([`Bindings::apply`], or the one setter per register that
//! `apply` dispatches to, which the legacy shadow calls directly with what it just encoded).
//! **Out:** read access for the owners ([`Bindings`]'s getters; the GPU model's R-ST-4 getters
//! and records read through them).
//!
//! **One rule, one function.** R-ST-5, the primitive reset index: derived from the index format
//! by a legacy bind (`ResetIndex::derive`, through `Bindings::derive_reset_index` for the GPU
//! model and the legacy shadow, and for the state a legacy list carries, `carry.rs`), set explicitly
//! (`Bindings::set_reset_index`), back to 0xFFFFFFFF with no format at ClearState
//! (`Bindings::clear`). R-SP-4, what a resolved split point binds: the patched command, applied
//! by [`Bindings::apply`] like any other (an output-merger UAV slot cut out of a call re-binds its
//! own slot only, `uav_patch`). R-B-4 and R-B-9, what a bundle overrides and what it inherits:
//! [`BundleOverlay::step`].
//!
//! **What stays with the owners.** Each owner's extras live beside the shared type, not in it:
//! the legacy shadow's dynamic-slot masks (R-ST-8's re-bind after a write_discard map), its
//! bound-view masks and output filter (R-ST-10) and the references its bindings hold (R-OBJ-4);
//! the GPU model's view of its targets' compression (R-ST-9), its context-roll counting (R-EX-4)
//! and hazard tracking (R-ST-10), and validation (R-V-1). They differ between the owners, and
//! keeping them out keeps the shared type what both owners agree on: a snapshot of one is the
//! state of the other.
//!
//! **Representation.** Fixed arrays, no allocation: viewports and scissor rectangles are a slot
//! array and a count (slots past the count are the default, so equal states compare equal); the
//! render targets of the last bind are the first `render_target_count` slots, the others null.
//!
//! **Invariant.** Nothing panics, whatever the commands: slots past the hardware's counts are
//! ignored (the recorder refuses such binds; the GPU model only makes sure it never panics).

mod overlay;

pub use overlay::{BundleOverlay, OverlayFootprint, OverlayStep};

use crate::command::{BoundBuffer, BoundShader, BoundView, Command};
use crate::desc::{
    Format, PrimitiveTopology, Rect, Semantics, Stage, Viewport, DEFAULT_RESET_INDEX,
};
use crate::device::handle::{ObjectKind, RawHandle};
use crate::limits::*;

/// The shader stages, as binding-array indices.
pub(crate) const STAGES: usize = Stage::ALL.len();

/// The blend state register: the state object, the blend factor and the sample mask.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlendRecord {
    /// The blend state object (null: the defaults).
    pub state: RawHandle,
    /// The blend factor.
    pub factor: [f32; 4],
    /// The sample mask.
    pub sample_mask: u32,
}

impl BlendRecord {
    /// The ClearState default: no state object, factor 1, every sample.
    pub const DEFAULT: Self = Self {
        state: RawHandle::NULL,
        factor: [1.0; 4],
        sample_mask: u32::MAX,
    };
}

/// The depth-stencil state register: the state object and the stencil reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthStencilRecord {
    /// The depth-stencil state object (null: the defaults).
    pub state: RawHandle,
    /// The stencil reference value.
    pub stencil_ref: u32,
}

impl DepthStencilRecord {
    /// The ClearState default: no state object, stencil reference 0.
    pub const DEFAULT: Self = Self {
        state: RawHandle::NULL,
        stencil_ref: 0,
    };
}

/// Every binding slot and binding register of a context, as encoded; `Default` is the
/// ClearState defaults. See the module essay.
#[derive(Clone, Debug, PartialEq)]
pub struct Bindings {
    pub(crate) input_layout: RawHandle,
    /// The vertex-buffer slots the input layout reads.
    pub(crate) input_layout_slots: u32,
    pub(crate) topology: PrimitiveTopology,
    pub(crate) vertex_buffers: [BoundBuffer; VERTEX_BUFFER_SLOTS as usize],
    pub(crate) index_buffer: BoundBuffer,
    /// The primitive reset index register and where it came from (R-ST-5).
    pub(crate) reset: ResetIndex,
    pub(crate) shaders: [BoundShader; STAGES],
    pub(crate) constant_buffers: [[BoundBuffer; CONSTANT_BUFFER_SLOTS as usize]; STAGES],
    pub(crate) shader_resources: [[BoundView; SHADER_RESOURCE_SLOTS as usize]; STAGES],
    pub(crate) samplers: [[RawHandle; SAMPLER_SLOTS as usize]; STAGES],
    pub(crate) compute_uavs: [BoundView; COMPUTE_UAV_SLOTS as usize],
    pub(crate) render_targets: [BoundView; RENDER_TARGET_SLOTS as usize],
    /// How many render targets the last bind set (at most `RENDER_TARGET_SLOTS`).
    pub(crate) render_target_count: u32,
    pub(crate) depth_stencil: BoundView,
    /// The output merger's UAVs, which the graphics stages' UAV slots read.
    pub(crate) om_uavs: [BoundView; GRAPHICS_UAV_SLOTS as usize],
    pub(crate) blend: BlendRecord,
    pub(crate) depth_stencil_state: DepthStencilRecord,
    pub(crate) rasterizer: RawHandle,
    pub(crate) viewports: [Viewport; VIEWPORT_SLOTS as usize],
    pub(crate) viewport_count: u32,
    pub(crate) scissors: [Rect; VIEWPORT_SLOTS as usize],
    pub(crate) scissor_count: u32,
    pub(crate) predicate: RawHandle,
    pub(crate) predicate_value: bool,
}

impl Bindings {
    /// The ClearState defaults, as a constant (nothing is built to compare against them).
    pub(crate) const DEFAULT: Self = Self {
        input_layout: RawHandle::NULL,
        input_layout_slots: 0,
        topology: PrimitiveTopology::Undefined,
        vertex_buffers: [BoundBuffer::NULL; VERTEX_BUFFER_SLOTS as usize],
        index_buffer: BoundBuffer::NULL,
        reset: ResetIndex::DEFAULT,
        shaders: [BoundShader::NULL; STAGES],
        constant_buffers: [[BoundBuffer::NULL; CONSTANT_BUFFER_SLOTS as usize]; STAGES],
        shader_resources: [[BoundView::NULL; SHADER_RESOURCE_SLOTS as usize]; STAGES],
        samplers: [[RawHandle::NULL; SAMPLER_SLOTS as usize]; STAGES],
        compute_uavs: [BoundView::NULL; COMPUTE_UAV_SLOTS as usize],
        render_targets: [BoundView::NULL; RENDER_TARGET_SLOTS as usize],
        render_target_count: 0,
        depth_stencil: BoundView::NULL,
        om_uavs: [BoundView::NULL; GRAPHICS_UAV_SLOTS as usize],
        blend: BlendRecord::DEFAULT,
        depth_stencil_state: DepthStencilRecord::DEFAULT,
        rasterizer: RawHandle::NULL,
        viewports: [NO_VIEWPORT; VIEWPORT_SLOTS as usize],
        viewport_count: 0,
        scissors: [NO_RECT; VIEWPORT_SLOTS as usize],
        scissor_count: 0,
        predicate: RawHandle::NULL,
        predicate_value: false,
    };
}

impl Default for Bindings {
    #[inline]
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A viewport slot past the count, and a scissor slot past the count (`Default`'s values).
const NO_VIEWPORT: Viewport = Viewport {
    x: 0.0,
    y: 0.0,
    width: 0.0,
    height: 0.0,
    min_depth: 0.0,
    max_depth: 0.0,
};
const NO_RECT: Rect = Rect {
    left: 0,
    top: 0,
    right: 0,
    bottom: 0,
};

/// The primitive reset index register and the index format it was derived from (R-ST-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ResetIndex {
    pub(crate) value: u32,
    /// The format of the last index buffer a legacy context bound, from which the value was
    /// derived; `None` after ClearState and after an explicit reset index.
    pub(crate) format: Option<Format>,
}

impl ResetIndex {
    /// The ClearState default: 0xFFFFFFFF, derived from no format.
    pub(crate) const DEFAULT: Self = Self {
        value: DEFAULT_RESET_INDEX,
        format: None,
    };

    /// R-ST-5: a legacy bind of a (non-null) index buffer of `format`. A format other than the
    /// one the value was last derived from sets it from the format (0xFFFF for r16_uint,
    /// 0xFFFFFFFF for r32_uint); returns whether it did (a register write).
    #[inline]
    pub(crate) fn derive(&mut self, format: Format) -> bool {
        let Some(value) = format.legacy_reset_index() else {
            return false;
        };
        if self.format == Some(format) {
            return false;
        }
        *self = Self {
            value,
            format: Some(format),
        };
        true
    }
}

/// Writes `items` to `slots[start..]`; what falls past the end is dropped.
#[inline]
pub(crate) fn set_slots<T: Copy>(slots: &mut [T], start: u32, items: &[T]) {
    // One slot, the common bind (a mesh's vertex buffer, a draw's constants): a store, without
    // the zip's two bounds.
    if let [item] = items {
        if let Some(slot) = slots.get_mut(start as usize) {
            *slot = *item;
        }
        return;
    }
    let start = (start as usize).min(slots.len());
    for (slot, item) in slots[start..].iter_mut().zip(items) {
        *slot = *item;
    }
}

impl Bindings {
    // ----- applying commands -------------------------------------------------------------------

    /// Applies a binding command recorded with `semantics` (any other command changes nothing);
    /// returns whether it wrote a context register (R-EX-4: the next draw rolls). D3D does not
    /// filter redundant sets, and neither does the hardware: setting a register to the value it
    /// already has is still a write.
    #[inline]
    pub fn apply(&mut self, command: &Command<'_>, semantics: Semantics) -> bool {
        match *command {
            Command::SetInputLayout {
                layout,
                vertex_buffers,
            } => {
                self.set_input_layout(layout, vertex_buffers);
                false
            }
            Command::SetPrimitiveTopology(topology) => {
                self.set_topology(topology);
                false
            }
            Command::SetVertexBuffers { start, buffers } => {
                set_slots(&mut self.vertex_buffers, start, &buffers);
                false
            }
            Command::SetIndexBuffer(buffer) => {
                self.index_buffer = buffer;
                self.derive_reset_index(&buffer, buffer.index_format(), semantics)
            }
            Command::SetPrimitiveResetIndex(value) => {
                self.set_reset_index(value);
                true
            }
            Command::SetShader { stage, shader } => {
                if let Some(slot) = self.shaders.get_mut(stage as usize) {
                    *slot = shader;
                }
                false
            }
            Command::SetConstantBuffers {
                stage,
                start,
                buffers,
            } => {
                if let Some(slots) = self.constant_buffers.get_mut(stage as usize) {
                    set_slots(slots, start, &buffers);
                }
                false
            }
            Command::SetShaderResources {
                stage,
                start,
                views,
            } => {
                if let Some(slots) = self.shader_resources.get_mut(stage as usize) {
                    set_slots(slots, start, views);
                }
                false
            }
            Command::SetSamplers {
                stage,
                start,
                samplers,
            } => {
                if let Some(slots) = self.samplers.get_mut(stage as usize) {
                    set_slots(slots, start, samplers);
                }
                false
            }
            Command::SetComputeUnorderedAccessViews { start, views } => {
                set_slots(&mut self.compute_uavs, start, views);
                false
            }
            Command::SetRenderTargets {
                targets,
                uavs,
                uav_start: start,
                uav_patch,
            } => {
                if let Some(views) = uavs {
                    // A split point cut out of a call re-binds its own slot only (R-SP-4); a
                    // whole call unbinds the other OM UAV slots.
                    if !uav_patch {
                        self.om_uavs = [BoundView::NULL; GRAPHICS_UAV_SLOTS as usize];
                    }
                    set_slots(&mut self.om_uavs, start, views);
                }
                match targets {
                    Some((render_targets, depth_stencil)) => {
                        self.set_render_targets(render_targets, *depth_stencil);
                        true
                    }
                    None => false,
                }
            }
            Command::SetBlendState {
                state,
                factor,
                sample_mask,
            } => {
                self.set_blend(BlendRecord {
                    state,
                    factor,
                    sample_mask,
                });
                true
            }
            Command::SetDepthStencilState { state, stencil_ref } => {
                self.set_depth_stencil_state(DepthStencilRecord { state, stencil_ref });
                true
            }
            Command::SetRasterizerState(rasterizer) => {
                self.rasterizer = rasterizer;
                true
            }
            Command::SetViewports(viewports) => {
                self.set_viewports(viewports);
                true
            }
            Command::SetScissorRects(rects) => {
                self.set_scissor_rects(rects);
                true
            }
            Command::SetPredication { predicate, value }
            | Command::SetPredicationFromQuery {
                query: predicate,
                value,
            } => {
                self.set_predication(predicate, value);
                false
            }
            Command::ClearState => {
                self.clear();
                true
            }
            _ => false,
        }
    }

    /// R-ST-5, the one place the reset index follows the index format. Legacy: an index buffer
    /// whose format differs from the last one a legacy context bound sets the reset index from
    /// the format (0xFFFF for r16_uint, 0xFFFFFFFF for r32_uint); returns whether it did (a
    /// register write). Fast, or a null buffer: the reset index is left alone. `buffer` is the
    /// binding just made, `format` its index format (encoded in its `stride_or_format`).
    #[inline]
    pub(crate) fn derive_reset_index(
        &mut self,
        buffer: &BoundBuffer,
        format: Format,
        semantics: Semantics,
    ) -> bool {
        if semantics != Semantics::Legacy || buffer.buffer.is_null() {
            return false;
        }
        self.reset.derive(format)
    }

    /// R-ST-5: an explicit reset index. The register no longer holds what a legacy format gave
    /// it: the next legacy index-buffer bind derives it again, whatever its format.
    #[inline]
    pub(crate) fn set_reset_index(&mut self, value: u32) {
        self.reset = ResetIndex {
            value,
            format: None,
        };
    }

    /// ClearState: every binding and register back to its default, the reset index to
    /// 0xFFFFFFFF with no index format (R-ST-5).
    pub fn clear(&mut self) {
        // Field by field, in place: each slot array is a run of zeros to write, where copying
        // the whole constant would move tens of kilobytes through a temporary. The pattern lists
        // every field, so a new one cannot be forgotten here.
        // A reference: the constant is promoted to a static, read field by field (no copy of
        // the whole of it on the stack, even unoptimised).
        const DEFAULT: &Bindings = &Bindings::DEFAULT;
        let Self {
            input_layout,
            input_layout_slots,
            topology,
            vertex_buffers,
            index_buffer,
            reset,
            shaders,
            constant_buffers,
            shader_resources,
            samplers,
            compute_uavs,
            render_targets,
            render_target_count,
            depth_stencil,
            om_uavs,
            blend,
            depth_stencil_state,
            rasterizer,
            viewports,
            viewport_count,
            scissors,
            scissor_count,
            predicate,
            predicate_value,
        } = self;
        *input_layout = DEFAULT.input_layout;
        *input_layout_slots = DEFAULT.input_layout_slots;
        *topology = DEFAULT.topology;
        *vertex_buffers = DEFAULT.vertex_buffers;
        *index_buffer = DEFAULT.index_buffer;
        *reset = DEFAULT.reset;
        *shaders = DEFAULT.shaders;
        *constant_buffers = DEFAULT.constant_buffers;
        *shader_resources = DEFAULT.shader_resources;
        *samplers = DEFAULT.samplers;
        *compute_uavs = DEFAULT.compute_uavs;
        *render_targets = DEFAULT.render_targets;
        *render_target_count = DEFAULT.render_target_count;
        *depth_stencil = DEFAULT.depth_stencil;
        *om_uavs = DEFAULT.om_uavs;
        *blend = DEFAULT.blend;
        *depth_stencil_state = DEFAULT.depth_stencil_state;
        *rasterizer = DEFAULT.rasterizer;
        *viewports = DEFAULT.viewports;
        *viewport_count = DEFAULT.viewport_count;
        *scissors = DEFAULT.scissors;
        *scissor_count = DEFAULT.scissor_count;
        *predicate = DEFAULT.predicate;
        *predicate_value = DEFAULT.predicate_value;
    }

    /// Binds the input layout, which reads the vertex-buffer slots in `slots` (a bit per slot).
    #[inline]
    pub(crate) fn set_input_layout(&mut self, layout: RawHandle, slots: u32) {
        self.input_layout = layout;
        self.input_layout_slots = slots;
    }

    /// Sets the primitive topology.
    #[inline]
    pub(crate) fn set_topology(&mut self, topology: PrimitiveTopology) {
        self.topology = topology;
    }

    /// Sets the blend state register.
    #[inline]
    pub(crate) fn set_blend(&mut self, blend: BlendRecord) {
        self.blend = blend;
    }

    /// Sets the depth-stencil state register.
    #[inline]
    pub(crate) fn set_depth_stencil_state(&mut self, depth_stencil: DepthStencilRecord) {
        self.depth_stencil_state = depth_stencil;
    }

    /// Predicates the following draws on `predicate` (null: none) with `value`.
    #[inline]
    pub(crate) fn set_predication(&mut self, predicate: RawHandle, value: bool) {
        self.predicate = predicate;
        self.predicate_value = value;
    }

    /// Binds `render_targets` (at most the slot count; the other slots are unbound) and the
    /// depth stencil.
    #[inline]
    pub(crate) fn set_render_targets(
        &mut self,
        render_targets: &[BoundView],
        depth_stencil: BoundView,
    ) {
        let count = render_targets.len().min(RENDER_TARGET_SLOTS as usize);
        self.render_targets = [BoundView::NULL; RENDER_TARGET_SLOTS as usize];
        self.render_targets[..count].copy_from_slice(&render_targets[..count]);
        self.render_target_count = count as u32;
        self.depth_stencil = depth_stencil;
    }

    /// Sets the viewports (at most the slot count); the slots past them are the default.
    #[inline]
    pub(crate) fn set_viewports(&mut self, viewports: &[Viewport]) {
        self.viewport_count = set_prefix(&mut self.viewports, viewports);
    }

    /// Sets the scissor rectangles (at most the slot count); the slots past them are the default.
    #[inline]
    pub(crate) fn set_scissor_rects(&mut self, rects: &[Rect]) {
        self.scissor_count = set_prefix(&mut self.scissors, rects);
    }

    // ----- reading -----------------------------------------------------------------------------

    /// The bound input layout.
    pub fn input_layout(&self) -> RawHandle {
        self.input_layout
    }

    /// The vertex-buffer slots the bound input layout reads, a bit per slot.
    pub fn input_layout_slots(&self) -> u32 {
        self.input_layout_slots
    }

    /// The primitive topology.
    pub fn topology(&self) -> PrimitiveTopology {
        self.topology
    }

    /// Every vertex-buffer slot.
    pub fn vertex_buffers(&self) -> &[BoundBuffer] {
        &self.vertex_buffers
    }

    /// The bound index buffer (its format in `stride_or_format`).
    pub fn index_buffer(&self) -> BoundBuffer {
        self.index_buffer
    }

    /// The primitive reset index in force (R-ST-5).
    pub fn reset_index(&self) -> u32 {
        self.reset.value
    }

    /// The index format the reset index was last derived from, if it was (R-ST-5).
    pub fn reset_format(&self) -> Option<Format> {
        self.reset.format
    }

    /// The shader bound to `stage`.
    pub fn shader(&self, stage: Stage) -> BoundShader {
        self.shaders[stage as usize]
    }

    /// The shader bound to `stage`, by reference: for a reader that passes it on (the GPU
    /// model's draw record), which a copy of its 48 bytes would cost at every draw's stage.
    #[inline]
    pub fn shader_ref(&self, stage: Stage) -> &BoundShader {
        &self.shaders[stage as usize]
    }

    /// Every constant-buffer slot of `stage`.
    pub fn constant_buffers(&self, stage: Stage) -> &[BoundBuffer] {
        &self.constant_buffers[stage as usize]
    }

    /// Every shader-resource slot of `stage`.
    pub fn shader_resources(&self, stage: Stage) -> &[BoundView] {
        &self.shader_resources[stage as usize]
    }

    /// Every sampler slot of `stage`.
    pub fn samplers(&self, stage: Stage) -> &[RawHandle] {
        &self.samplers[stage as usize]
    }

    /// Every compute UAV slot.
    pub fn compute_uavs(&self) -> &[BoundView] {
        &self.compute_uavs
    }

    /// The render targets of the last bind.
    pub fn render_targets(&self) -> &[BoundView] {
        let count = (self.render_target_count as usize).min(self.render_targets.len());
        &self.render_targets[..count]
    }

    /// The bound depth-stencil view.
    pub fn depth_stencil(&self) -> BoundView {
        self.depth_stencil
    }

    /// Every output-merger UAV slot.
    pub fn om_uavs(&self) -> &[BoundView] {
        &self.om_uavs
    }

    /// The blend state register.
    pub fn blend(&self) -> BlendRecord {
        self.blend
    }

    /// The depth-stencil state register.
    pub fn depth_stencil_state(&self) -> DepthStencilRecord {
        self.depth_stencil_state
    }

    /// The bound rasterizer state.
    pub fn rasterizer(&self) -> RawHandle {
        self.rasterizer
    }

    /// The viewports of the last set.
    pub fn viewports(&self) -> &[Viewport] {
        let count = (self.viewport_count as usize).min(self.viewports.len());
        &self.viewports[..count]
    }

    /// The scissor rectangles of the last set.
    pub fn scissor_rects(&self) -> &[Rect] {
        let count = (self.scissor_count as usize).min(self.scissors.len());
        &self.scissors[..count]
    }

    /// The predicate and the value it predicates on.
    pub fn predication(&self) -> (RawHandle, bool) {
        (self.predicate, self.predicate_value)
    }

    /// Whether a predicate is set.
    pub fn predication_active(&self) -> bool {
        !self.predicate.is_null()
    }

    /// Every object a binding names, with its kind (null bindings left out): what a legacy
    /// context's bindings hold references on (R-OBJ-4).
    pub fn for_each_object(&self, mut f: impl FnMut(ObjectKind, RawHandle)) {
        use ObjectKind as K;
        let mut one = |kind, handle: RawHandle| {
            if !handle.is_null() {
                f(kind, handle)
            }
        };
        one(K::InputLayout, self.input_layout);
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
        one(K::BlendState, self.blend.state);
        one(K::DepthStencilState, self.depth_stencil_state.state);
        one(K::RasterizerState, self.rasterizer);
        one(K::Query, self.predicate);
    }
}

/// Writes `items` (at most the slots there are) to the front of `slots` and the default past
/// them; returns how many were written.
#[inline]
fn set_prefix<T: Copy + Default>(slots: &mut [T], items: &[T]) -> u32 {
    let count = items.len().min(slots.len());
    slots[..count].copy_from_slice(&items[..count]);
    slots[count..].fill(T::default());
    count as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::InstanceId;
    use crate::desc::R16_RESET_INDEX;

    fn index_buffer(format: Format) -> BoundBuffer {
        BoundBuffer {
            buffer: RawHandle::from_bits(1 << 32 | 7),
            instance: InstanceId::INITIAL,
            offset: 0,
            stride_or_format: format as u32,
        }
    }

    #[test]
    fn r_st_5_the_reset_index_follows_the_legacy_index_format_only() {
        let mut bindings = Bindings::default();
        let r16 = Command::SetIndexBuffer(index_buffer(Format::R16Uint));
        let r32 = Command::SetIndexBuffer(index_buffer(Format::R32Uint));
        // Fast: left alone, no register write.
        assert!(!bindings.apply(&r16, Semantics::Fast));
        assert_eq!(bindings.reset_index(), DEFAULT_RESET_INDEX);
        // Legacy: derived from a new format (a write), not again from the same one.
        assert!(bindings.apply(&r16, Semantics::Legacy));
        assert_eq!(bindings.reset_index(), R16_RESET_INDEX);
        assert!(!bindings.apply(&r16, Semantics::Legacy));
        // Set explicitly: the next legacy bind derives again, whatever its format.
        assert!(bindings.apply(&Command::SetPrimitiveResetIndex(5), Semantics::Legacy));
        assert_eq!(bindings.reset_index(), 5);
        assert!(bindings.apply(&r16, Semantics::Legacy));
        assert_eq!(bindings.reset_index(), R16_RESET_INDEX);
        // ClearState: back to 0xFFFFFFFF with no format.
        assert!(bindings.apply(&Command::ClearState, Semantics::Legacy));
        assert_eq!(bindings, Bindings::default());
        assert!(bindings.apply(&r32, Semantics::Legacy));
        assert_eq!(bindings.reset_format(), Some(Format::R32Uint));
    }

    #[test]
    fn viewports_past_the_count_compare_equal() {
        let (mut a, mut b) = (Bindings::default(), Bindings::default());
        let two = [Viewport::new(0.0, 0.0, 8.0, 8.0); 2];
        a.apply(&Command::SetViewports(&two), Semantics::Fast);
        a.apply(&Command::SetViewports(&two[..1]), Semantics::Fast);
        b.apply(&Command::SetViewports(&two[..1]), Semantics::Fast);
        assert_eq!(a.viewports().len(), 1);
        assert_eq!(a, b);
    }

    #[test]
    fn r_b_4_a_bundle_overrides_what_it_sets_and_the_caller_gets_it_back() {
        let mut caller = Bindings::default();
        caller.apply(
            &Command::SetPrimitiveTopology(PrimitiveTopology::TriangleList),
            Semantics::Fast,
        );
        let before = caller.clone();
        let mut overlay = BundleOverlay::default();
        overlay.begin();
        let set = Command::SetPrimitiveTopology(PrimitiveTopology::PointList);
        assert_eq!(overlay.step(&mut caller, &set), OverlayStep::Apply);
        caller.apply(&set, Semantics::Fast);
        assert_eq!(caller.topology(), PrimitiveTopology::PointList);
        // Not a bundle's command: ignored.
        assert_eq!(
            overlay.step(&mut caller, &Command::ClearState),
            OverlayStep::Ignore
        );
        overlay.end(&mut caller);
        assert_eq!(caller, before);
    }

    /// A buffer binding named `n`.
    fn buffer(n: u64) -> BoundBuffer {
        BoundBuffer {
            buffer: RawHandle::from_bits(1 << 32 | n),
            ..BoundBuffer::NULL
        }
    }

    /// A view binding named `n`.
    fn view(n: u64) -> BoundView {
        BoundView {
            view: RawHandle::from_bits(2 << 32 | n),
            resource: RawHandle::from_bits(3 << 32 | n),
            ..BoundView::NULL
        }
    }

    #[test]
    fn r_b_10_a_footprint_taken_once_gives_every_call_what_steps_give_it() {
        use crate::command::{Remap, RemapKind};
        let remap = |kind, stage, slot, inherit_stage, inherit_slot| {
            Command::RemapInheritance(Remap {
                kind,
                stage,
                slot,
                inherit_stage,
                inherit_slot,
            })
        };
        let (b, v) = ([buffer(20), buffer(21)], [view(30), view(31), view(32)]);
        let samplers = [RawHandle::from_bits(4 << 32 | 40)];
        // Overrides, remaps across stages and kinds (one to a slot the body set before, one
        // to itself, one past the slots), and a command a bundle does not hold.
        let body = [
            Command::SetPrimitiveTopology(PrimitiveTopology::PointList),
            Command::SetConstantBuffers {
                stage: Stage::Vertex,
                start: 1,
                buffers: (&b).into(),
            },
            remap(RemapKind::ConstantBuffer, Stage::Pixel, 0, Stage::Vertex, 1),
            Command::SetShaderResources {
                stage: Stage::Pixel,
                start: 2,
                views: &v,
            },
            remap(RemapKind::ShaderResource, Stage::Pixel, 3, Stage::Pixel, 3),
            remap(RemapKind::VertexBuffer, Stage::Vertex, 2, Stage::Vertex, 5),
            Command::SetSamplers {
                stage: Stage::Hull,
                start: 15,
                samplers: &samplers,
            },
            remap(RemapKind::Sampler, Stage::Hull, 15, Stage::Pixel, 200),
            Command::SetVertexBuffers {
                start: 1,
                buffers: (&b).into(),
            },
            Command::ClearState,
        ];
        let footprint = OverlayFootprint::of(body, |_, _| {});
        // Two callers with different bindings: the footprint is the body's alone.
        for n in [0, 100] {
            let mut caller = Bindings::default();
            caller.apply(
                &Command::SetConstantBuffers {
                    stage: Stage::Vertex,
                    start: 0,
                    buffers: (&[buffer(n + 1), buffer(n + 2), buffer(n + 3)]).into(),
                },
                Semantics::Fast,
            );
            caller.apply(
                &Command::SetShaderResources {
                    stage: Stage::Pixel,
                    start: 0,
                    views: &[view(n + 4), view(n + 5), view(n + 6), view(n + 7)],
                },
                Semantics::Fast,
            );
            caller.apply(
                &Command::SetVertexBuffers {
                    start: 4,
                    buffers: (&[buffer(n + 8), buffer(n + 9)]).into(),
                },
                Semantics::Fast,
            );
            let before = caller.clone();
            let (mut stepped, mut saved) = (caller.clone(), caller);
            let (mut by_step, mut by_footprint) =
                (BundleOverlay::default(), BundleOverlay::default());
            by_step.begin();
            by_footprint.begin_saving(&saved, &footprint);
            let mut steps = Vec::new();
            OverlayFootprint::of(body, |_, step| steps.push(step));
            for (command, answer) in body.iter().zip(steps) {
                let step = by_step.step(&mut stepped, command);
                assert_eq!(step, answer, "{command:?}");
                match step {
                    OverlayStep::Apply => {
                        stepped.apply(command, Semantics::Fast);
                        saved.apply(command, Semantics::Fast);
                    }
                    OverlayStep::Done => {
                        let Command::RemapInheritance(remap) = *command else {
                            panic!("a remap: {command:?}");
                        };
                        by_footprint.remap(&mut saved, &footprint, remap);
                    }
                    OverlayStep::Ignore => {}
                }
                assert_eq!(saved, stepped, "after {command:?}");
            }
            by_step.end(&mut stepped);
            by_footprint.end_saving(&mut saved, &footprint);
            assert_eq!(stepped, before);
            assert_eq!(saved, before);
        }
    }
}
