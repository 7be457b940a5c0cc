//! The table's entries for the binds (R-REC-3): the input assembler, the shader stages' slots,
//! the output merger, the fixed-function states, and `clear_state`. `vocabulary/mod.rs` says
//! what an entry holds and how the areas' entries come together.

/// Adds these entries to the table it is handed and hands the table on to the next macro of the
/// list (`vocabulary/mod.rs`).
macro_rules! bind_commands {
    ([$next:ident $(, $rest:ident)*] $($table:tt)*) => {
        $next! { [$($rest),*] $($table)* commands {

    /// `set_input_layout`: the input layout and the vertex-buffer slots it reads.
    SetInputLayout = 1 {
        /// The input layout; null unbinds it.
        layout: RawHandle,
        /// Bit `i` set: the layout reads vertex-buffer slot `i` (from its `InputLayoutDesc`); 0
        /// when null.
        vertex_buffers: u32,
    }
    objects(one) { one(ObjectKind::InputLayout, layout) }
    decode(at) {
        let p: InputLayoutPayload = at.read();
        Command::SetInputLayout { layout: p.layout, vertex_buffers: p.vertex_buffers }
    }

    /// `set_primitive_topology`: the topology, in the operand.
    SetPrimitiveTopology = 2 (topology: PrimitiveTopology)
    decode(at) { Command::SetPrimitiveTopology(PrimitiveTopology::from_u8(at.operand())) }

    /// `set_vertex_buffers`: slots `start..start + buffers.len()`.
    SetVertexBuffers = 3 {
        /// The first vertex-buffer slot bound.
        start: u32,
        /// One per slot from `start`: buffer, instance, offset and stride; [`BoundBuffer::NULL`]
        /// unbinds.
        buffers: BoundBuffers<'a>,
    }
    objects(one) { buffers.iter().for_each(|b| one(ObjectKind::Buffer, b.buffer)) }
    decode(at) {
        let (start, buffers) = at.slots();
        Command::SetVertexBuffers { start, buffers: BoundBuffers::Array(buffers) }
    }

    /// `set_index_buffer`: buffer, instance, offset and index format (in `stride_or_format`);
    /// null unbinds.
    SetIndexBuffer = 4 (buffer: BoundBuffer)
    objects(one) { one(ObjectKind::Buffer, buffer.buffer) }
    decode(at) { Command::SetIndexBuffer(at.read()) }

    /// `set_primitive_reset_index`: the cut index (R-ST-5).
    SetPrimitiveResetIndex = 5 (index: u32)
    decode(at) { Command::SetPrimitiveResetIndex(at.read()) }

    /// `set_shader`: a shader bound to the stage in the operand, with the slots it reads.
    SetShader = 6 {
        /// The stage bound.
        stage: Stage,
        /// The shader and the slots it reads; [`BoundShader::NULL`] unbinds the stage.
        shader: BoundShader,
    }
    objects(one) { one(ObjectKind::Shader, shader.shader) }
    decode(at) { Command::SetShader { stage: at.stage(), shader: at.read() } }

    /// `set_constant_buffers`: slots `start..start + buffers.len()` of the stage in the operand.
    SetConstantBuffers = 7 {
        /// The stage bound.
        stage: Stage,
        /// The first constant-buffer slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundBuffer::NULL`] unbinds.
        buffers: BoundBuffers<'a>,
    }
    objects(one) { buffers.iter().for_each(|b| one(ObjectKind::Buffer, b.buffer)) }
    decode(at) {
        let (start, buffers) = at.slots();
        let buffers = BoundBuffers::Array(buffers);
        Command::SetConstantBuffers { stage: at.stage(), start, buffers }
    }

    /// `set_shader_resources`: slots `start..start + views.len()` of the stage in the operand.
    SetShaderResources = 8 {
        /// The stage bound.
        stage: Stage,
        /// The first shader-resource slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundView::NULL`] unbinds.
        views: &'a [BoundView],
    }
    objects(one) { views.iter().for_each(|v| one(ObjectKind::ShaderResourceView, v.view)) }
    decode(at) {
        let (start, views) = at.slots();
        Command::SetShaderResources { stage: at.stage(), start, views }
    }

    /// `set_samplers`: slots `start..start + samplers.len()` of the stage in the operand.
    SetSamplers = 9 {
        /// The stage bound.
        stage: Stage,
        /// The first sampler slot bound.
        start: u32,
        /// One sampler state per slot from `start`; null unbinds.
        samplers: &'a [RawHandle],
    }
    objects(one) { samplers.iter().for_each(|s| one(ObjectKind::SamplerState, *s)) }
    decode(at) {
        let (start, samplers) = at.slots();
        Command::SetSamplers { stage: at.stage(), start, samplers }
    }

    /// `set_compute_unordered_access_views`: the compute stage's UAV slots
    /// `start..start + views.len()`.
    SetComputeUnorderedAccessViews = 10 {
        /// The first UAV slot bound.
        start: u32,
        /// One per slot from `start`; [`BoundView::NULL`] unbinds.
        views: &'a [BoundView],
    }
    objects(one) { views.iter().for_each(|v| one(ObjectKind::UnorderedAccessView, v.view)) }
    decode(at) {
        let (start, views) = at.slots();
        Command::SetComputeUnorderedAccessViews { start, views }
    }

    /// `set_render_targets` and `set_render_targets_and_unordered_access_views`: the output
    /// merger's render targets, depth stencil and UAVs. `targets: None` keeps the bound render
    /// targets and depth stencil; `uavs: None` keeps the bound OM UAVs. (The first UAV slot is
    /// a field of its own, not a pair with the UAVs, so that the command fits 48 bytes.)
    SetRenderTargets = 11 {
        /// The render-target views (slot 0 on; the other slots are unbound) and the
        /// depth-stencil view ([`BoundView::NULL`]: none); `None` keeps what is bound.
        targets: Option<(&'a [BoundView], &'a BoundView)>,
        /// The UAVs from slot `uav_start`; `None` keeps what is bound.
        uavs: Option<&'a [BoundView]>,
        /// The first OM UAV slot `uavs` binds (0 when `uavs` is `None`).
        uav_start: u32,
        /// The UAVs re-bind their own slots only: a split point cut out of a call, which left
        /// the call's other slots as they are. Otherwise the other OM UAV slots are unbound.
        uav_patch: bool,
    }
    objects(one) {
        if let Some((render_targets, depth_stencil)) = targets {
            render_targets.iter().for_each(|v| one(ObjectKind::RenderTargetView, v.view));
            one(ObjectKind::DepthStencilView, depth_stencil.view);
        }
        if let Some(uavs) = uavs {
            uavs.iter().for_each(|v| one(ObjectKind::UnorderedAccessView, v.view));
        }
    }
    decode(at) {
        let (targets, (uav_start, uavs), uav_patch) = at.render_targets();
        Command::SetRenderTargets { targets, uavs, uav_start, uav_patch }
    }

    /// `set_blend_state`: the state object, blend factor and sample mask.
    SetBlendState = 12 {
        /// The blend state; null restores the default.
        state: RawHandle,
        /// The blend factor, RGBA.
        factor: [f32; 4],
        /// Which samples are written (bit `i`: sample `i`); default `u32::MAX`.
        sample_mask: u32,
    }
    objects(one) { one(ObjectKind::BlendState, state) }
    decode(at) {
        let p: StatePayload = at.read();
        Command::SetBlendState { state: p.state, factor: p.factor, sample_mask: p.reference }
    }

    /// `set_depth_stencil_state`: the state object and stencil reference.
    SetDepthStencilState = 13 {
        /// The depth-stencil state; null restores the default.
        state: RawHandle,
        /// The stencil reference value.
        stencil_ref: u32,
    }
    objects(one) { one(ObjectKind::DepthStencilState, state) }
    decode(at) {
        let p: StatePayload = at.read();
        Command::SetDepthStencilState { state: p.state, stencil_ref: p.reference }
    }

    /// `set_rasterizer_state`: the rasterizer state; null restores the default.
    SetRasterizerState = 14 (state: RawHandle)
    objects(one) { one(ObjectKind::RasterizerState, state) }
    decode(at) { Command::SetRasterizerState(at.read()) }

    /// `set_viewports`: the viewports from slot 0; the slots past them go back to the default.
    SetViewports = 15 (viewports: &'a [Viewport])
    decode(at) { Command::SetViewports(at.all_items(0)) }

    /// `set_scissor_rects`: the rectangles from slot 0; the slots past them go back to the
    /// default.
    SetScissorRects = 16 (rects: &'a [Rect])
    decode(at) { Command::SetScissorRects(at.all_items(0)) }

    /// `clear_state`: every binding back to its default. Also what a release build's decoder
    /// yields for a byte that is not a command's opcode (a debug build asserts it never meets
    /// one).
    ClearState = 40
    decode(_at) { Command::ClearState }

        } }
    };
}

pub(super) use bind_commands;
