//! [`BindCalls`] on a bundle recorder: every bind is an override of the bundle's slot (R-B-4),
//! checked in the crate's order (`recorder.rs`): not encapsulable (R-B-6), stream output, the
//! budget (R-B-5), then the recorder's own checks.
//!
//! **In:** the application's binds. **Out:** the binds the bundle's core records, or the bundle's
//! refusal, kept as its first error (R-REC-8).
//!
//! **Invariant.** An accepted bind costs the budget's mask test and the recorder's own work.

use recorder::*;

use crate::budget::SlotKind;
use crate::recorder::BundleRecorder;

impl BindCalls for BundleRecorder {
    /// Sets the input layout (mandatory before the first draw, R-B-3; null allowed).
    fn set_input_layout(&mut self, layout: Option<InputLayout>) {
        if self.forward(|c| c.set_input_layout(layout)) {
            self.mandatory.set_input_layout();
        }
    }

    /// Sets the topology (encapsulated, no budget cost).
    fn set_primitive_topology(&mut self, topology: PrimitiveTopology) {
        self.context.set_primitive_topology(topology);
    }

    /// Sets a stage's shader (each graphics stage is mandatory before the first draw, the
    /// compute stage before the first dispatch, R-B-3; null allowed). Shaders that use stream
    /// output are forbidden (R-B-6).
    fn set_shader(&mut self, stage: Stage, shader: Option<Shader>) {
        const CALL: &str = "set_shader";
        if let Some(shader) = shader {
            if self.device.shader_streams_output(shader) {
                let shader = self.object_name(shader);
                return self
                    .context
                    .refuse(Error::StreamOutputInBundle { call: CALL, shader });
            }
        }
        if self.forward(|c| c.set_shader(stage, shader)) {
            self.mandatory.set_stage(stage);
        }
    }

    /// Binds vertex buffers from slot `start`, as on a deferred context, each slot an override of
    /// the bundle's (R-B-4). Refused with `not_encapsulable` when a buffer is dynamic (R-B-6), with
    /// `budget_exceeded` when the new slots would take the footprint past the budget (R-B-5), and
    /// then as a deferred context refuses it.
    #[inline(always)]
    fn set_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]) {
        const CALL: &str = "set_vertex_buffers";
        let (kind, stage) = (SlotKind::VertexBuffer, Stage::Vertex);
        let encapsulable =
            |this: &Self| this.buffers_encapsulable(CALL, buffers.iter().filter_map(|b| b.buffer));
        if self.covered(kind, stage, start, buffers.len()) {
            let accepted = self.context.accepted_vertex_buffers(start, buffers);
            return self.forwarded_accepted(accepted, encapsulable);
        }
        self.set_vertex_buffers_growing(start, buffers);
    }

    /// Binds the index buffer, an override of the bundle's (R-B-4). Refused with `not_encapsulable`
    /// for a dynamic buffer (R-B-6), with `budget_exceeded` past the budget (R-B-5), and then as a
    /// deferred context refuses it.
    #[inline(always)]
    fn set_index_buffer(&mut self, buffer: Option<Buffer>, format: Format, offset: u32) {
        const CALL: &str = "set_index_buffer";
        let (kind, stage) = (SlotKind::IndexBuffer, Stage::Vertex);
        let encapsulable = |this: &Self| this.buffers_encapsulable(CALL, buffer);
        if self.covered(kind, stage, 0, 1) {
            let before = self.context.refused_calls();
            self.context.set_index_buffer(buffer, format, offset);
            return self.forwarded(before, encapsulable);
        }
        self.set_index_buffer_growing(buffer, format, offset);
    }

    /// Binds `stage`'s constant buffers from slot `start`, each slot an override (R-B-4; a null
    /// slot is one too). Refused with `not_encapsulable` when a buffer is dynamic (R-B-6), with
    /// `budget_exceeded` past the budget (R-B-5), and then as a deferred context refuses it.
    #[inline(always)]
    fn set_constant_buffers(&mut self, stage: Stage, start: u32, buffers: &[Option<Buffer>]) {
        const CALL: &str = "set_constant_buffers";
        let kind = SlotKind::ConstantBuffer;
        let encapsulable =
            |this: &Self| this.buffers_encapsulable(CALL, buffers.iter().flatten().copied());
        if self.covered(kind, stage, start, buffers.len()) {
            let accepted = self
                .context
                .accepted_constant_buffers(stage, start, buffers);
            return self.forwarded_accepted(accepted, encapsulable);
        }
        self.set_constant_buffers_growing(stage, start, buffers);
    }

    /// Binds `stage`'s shader-resource views from slot `start`, each slot an override of 64 bytes
    /// (R-B-4, R-B-5). Refused with `not_encapsulable` for a view on a dynamic buffer or on a
    /// render target or depth stencil (R-B-6), with `budget_exceeded` past the budget, and then as
    /// a deferred context refuses it.
    fn set_shader_resources(
        &mut self,
        stage: Stage,
        start: u32,
        views: &[Option<ShaderResourceView>],
    ) {
        const CALL: &str = "set_shader_resources";
        // A view on a render target or depth stencil is accepted by the recorder (the resolved
        // view does not carry its resource's bind flags), so this check comes first.
        for view in views.iter().flatten() {
            if let Err(error) = self.view_encapsulable(CALL, *view) {
                return self.context.refuse(error);
            }
        }
        self.bind(
            CALL,
            SlotKind::ShaderResource,
            stage,
            start,
            views.len(),
            |_| Ok(()),
            |c| c.set_shader_resources(stage, start, views),
        );
    }

    /// Binds `stage`'s samplers from slot `start`, each slot an override (R-B-4). Refused with
    /// `budget_exceeded` past the budget (R-B-5), and then as a deferred context refuses it.
    #[inline]
    fn set_samplers(&mut self, stage: Stage, start: u32, samplers: &[Option<SamplerState>]) {
        self.bind(
            "set_samplers",
            SlotKind::Sampler,
            stage,
            start,
            samplers.len(),
            |_| Ok(()),
            |c| c.set_samplers(stage, start, samplers),
        );
    }
}

/// The buffer binds that may grow the bundle's overrides (R-B-4, R-B-5): the first bind of
/// their slots, out of line and cold, so that the hot path of a covered bind (above) builds
/// nothing for them (the closures' captures were stored on every bind before).
impl BundleRecorder {
    #[cold]
    #[inline(never)]
    fn set_vertex_buffers_growing(&mut self, start: u32, buffers: &[VertexBuffer]) {
        const CALL: &str = "set_vertex_buffers";
        let encapsulable =
            |this: &Self| this.buffers_encapsulable(CALL, buffers.iter().filter_map(|b| b.buffer));
        let (kind, stage) = (SlotKind::VertexBuffer, Stage::Vertex);
        self.bind(CALL, kind, stage, start, buffers.len(), encapsulable, |c| {
            c.set_vertex_buffers(start, buffers)
        });
    }

    #[cold]
    #[inline(never)]
    fn set_index_buffer_growing(&mut self, buffer: Option<Buffer>, format: Format, offset: u32) {
        const CALL: &str = "set_index_buffer";
        let encapsulable = |this: &Self| this.buffers_encapsulable(CALL, buffer);
        let (kind, stage) = (SlotKind::IndexBuffer, Stage::Vertex);
        self.bind(CALL, kind, stage, 0, 1, encapsulable, |c| {
            c.set_index_buffer(buffer, format, offset)
        });
    }

    #[cold]
    #[inline(never)]
    fn set_constant_buffers_growing(
        &mut self,
        stage: Stage,
        start: u32,
        buffers: &[Option<Buffer>],
    ) {
        const CALL: &str = "set_constant_buffers";
        let encapsulable =
            |this: &Self| this.buffers_encapsulable(CALL, buffers.iter().flatten().copied());
        let kind = SlotKind::ConstantBuffer;
        self.bind(CALL, kind, stage, start, buffers.len(), encapsulable, |c| {
            c.set_constant_buffers(stage, start, buffers)
        });
    }
}
