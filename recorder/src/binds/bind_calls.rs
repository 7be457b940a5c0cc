//! [`BindCalls`]: binding the pipeline's inputs, the capability every context has, a bundle
//! recorder too (what a bundle binds it encapsulates, slot by slot, under its budget: SPEC §7).
//!
//! **In:** the application's bind calls. **Out:** the same calls on the context's recording core,
//! whose semantics are in this folder's files (`input_assembler.rs`, `shader_slots.rs`).
//!
//! **Invariant.** Each method is the core's call, inlined: a context implements the trait with
//! an empty `impl` block unless it checks more (the bundle recorder, SPEC §7).

use crate::call_arguments::VertexBuffer;
use crate::context::core_access::{Context, CoreAccess};
use crate::desc::*;
use crate::device::handle::*;

/// Binding the pipeline's inputs (`IASet*`, `*SetShader`, `*SetConstantBuffers`,
/// `*SetShaderResources`, `*SetSamplers`): every context, bundle recorders too.
pub trait BindCalls: Context {
    /// Binds the input layout (`IASetInputLayout`).
    #[inline]
    fn set_input_layout(&mut self, layout: Option<InputLayout>) {
        self.recorder(CoreAccess(())).set_input_layout(layout)
    }

    /// Sets the primitive topology (`IASetPrimitiveTopology`).
    ///
    /// Sets the primitive topology the following draws assemble. Never refused.
    #[inline]
    fn set_primitive_topology(&mut self, topology: PrimitiveTopology) {
        self.recorder(CoreAccess(()))
            .set_primitive_topology(topology)
    }

    /// Binds vertex buffers from slot `start` (`IASetVertexBuffers`).
    ///
    /// Binds `buffers` to the vertex-buffer slots `start..start + buffers.len()`. Refused as a
    /// whole, with nothing bound, when the range passes the slots there are (`invalid_argument`,
    /// R-OBJ-5), a buffer lacks the vertex-buffer bind flag (`invalid_argument`, R-OBJ-2) or is
    /// released (`released_object`), or, under fast semantics, a dynamic buffer was not mapped
    /// write_discard on this list first (`dynamic_before_map`, R-SP-3). Legacy: each slot of a
    /// dynamic buffer not mapped on this list is a `dynamic_vertex_buffer` split point (R-SP-1).
    #[inline]
    fn set_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]) {
        self.recorder(CoreAccess(()))
            .set_vertex_buffers(start, buffers)
    }

    /// Binds the index buffer (`IASetIndexBuffer`).
    ///
    /// Binds the index buffer at byte `offset`, with indices of `format` (`R16Uint` or `R32Uint`;
    /// any other format with a buffer is refused, `invalid_argument`); `None` unbinds it. Refused
    /// as [`set_vertex_buffers`](Self::set_vertex_buffers) refuses a buffer (bind flag, released,
    /// `dynamic_before_map`); legacy: a `dynamic_index_buffer` split point for a dynamic buffer not
    /// mapped on this list, and the primitive reset index follows the format (R-ST-5).
    #[inline]
    fn set_index_buffer(&mut self, buffer: Option<Buffer>, format: Format, offset: u32) {
        self.recorder(CoreAccess(()))
            .set_index_buffer(buffer, format, offset)
    }

    /// Binds a stage's shader (`VSSetShader` and the others).
    #[inline]
    fn set_shader(&mut self, stage: Stage, shader: Option<Shader>) {
        self.recorder(CoreAccess(())).set_shader(stage, shader)
    }

    /// Binds a stage's constant buffers from slot `start` (`*SetConstantBuffers`).
    ///
    /// Binds `buffers` to `stage`'s constant-buffer slots `start..start + buffers.len()` (`None`
    /// unbinds a slot). Refused as a whole when the range passes the slots (`invalid_argument`,
    /// R-OBJ-5), a buffer lacks the constant-buffer bind flag (`invalid_argument`) or is released
    /// (`released_object`), or, fast, a dynamic buffer was not mapped on this list first
    /// (`dynamic_before_map`). Legacy: each slot of a dynamic buffer not mapped on this list is a
    /// `dynamic_constant_buffer` split point (R-SP-1).
    #[inline]
    fn set_constant_buffers(&mut self, stage: Stage, start: u32, buffers: &[Option<Buffer>]) {
        self.recorder(CoreAccess(()))
            .set_constant_buffers(stage, start, buffers)
    }

    /// Binds a stage's shader-resource views from slot `start` (`*SetShaderResources`).
    ///
    /// Binds `views` to `stage`'s shader-resource slots `start..start + views.len()` (`None`
    /// unbinds a slot). Refused as a whole when the range passes the slots (`invalid_argument`,
    /// R-OBJ-5) or a view is released (`released_object`) or, fast, views a dynamic buffer not
    /// mapped on this list first (`dynamic_before_map`). Legacy: each slot of a view of a dynamic
    /// buffer not mapped on this list is a `dynamic_shader_resource` split point, and a view of a
    /// resource bound for output is bound null (R-ST-10).
    #[inline]
    fn set_shader_resources(
        &mut self,
        stage: Stage,
        start: u32,
        views: &[Option<ShaderResourceView>],
    ) {
        self.recorder(CoreAccess(()))
            .set_shader_resources(stage, start, views)
    }

    /// Binds a stage's samplers from slot `start` (`*SetSamplers`).
    ///
    /// Binds `samplers` to `stage`'s sampler slots `start..start + samplers.len()` (`None` unbinds
    /// a slot). Refused as a whole when the range passes the slots (`invalid_argument`, R-OBJ-5) or
    /// a sampler is released (`released_object`).
    #[inline]
    fn set_samplers(&mut self, stage: Stage, start: u32, samplers: &[Option<SamplerState>]) {
        self.recorder(CoreAccess(()))
            .set_samplers(stage, start, samplers)
    }
}
