//! The objects a command names: the one list of which argument of which command is which kind
//! of object.
//!
//! **In:** a decoded [`Command`]. **Out:** each object it names, with its kind. Its users: a
//! legacy recording's references on the state a list carries (taken when the carried state is
//! re-encoded, R-OBJ-4; a finished list drops its references through its own table of distinct
//! objects, `list/`, without decoding) and the validation of a fast list (did the application
//! release what it names? R-V-1).

use crate::device::handle::{ObjectKind, RawHandle};

use super::Command;

impl Command<'_> {
    /// Calls `f` for every object this command names as an argument of its call, null ones
    /// left out: legacy recording took one reference on each (counted per distinct object by
    /// the recorder, `refs.rs`), the validation of a fast list checks them (R-OBJ-4, R-V-1). Views are named, their resources
    /// are not (the view holds those); a nested list is not an object (the list holds it).
    #[inline]
    pub fn for_each_object(&self, mut f: impl FnMut(ObjectKind, RawHandle)) {
        use ObjectKind as K;
        let mut one = |kind, handle: RawHandle| {
            if !handle.is_null() {
                f(kind, handle)
            }
        };
        match *self {
            Command::SetInputLayout { layout, .. } => one(K::InputLayout, layout),
            Command::SetVertexBuffers { buffers, .. }
            | Command::SetConstantBuffers { buffers, .. } => {
                buffers.iter().for_each(|b| one(K::Buffer, b.buffer))
            }
            Command::SetIndexBuffer(b)
            | Command::DrawInstancedIndirect(b)
            | Command::DrawIndexedInstancedIndirect(b)
            | Command::DispatchIndirect(b) => one(K::Buffer, b.buffer),
            Command::SetShader { shader, .. } => one(K::Shader, shader.shader),
            Command::SetShaderResources { views, .. } => views
                .iter()
                .for_each(|v| one(K::ShaderResourceView, v.view)),
            Command::SetSamplers { samplers, .. } => {
                samplers.iter().for_each(|s| one(K::SamplerState, *s))
            }
            Command::SetComputeUnorderedAccessViews { views, .. } => views
                .iter()
                .for_each(|v| one(K::UnorderedAccessView, v.view)),
            Command::SetRenderTargets { targets, uavs, .. } => {
                if let Some((render_targets, depth_stencil)) = targets {
                    render_targets
                        .iter()
                        .for_each(|v| one(K::RenderTargetView, v.view));
                    one(K::DepthStencilView, depth_stencil.view);
                }
                if let Some((_, uavs)) = uavs {
                    uavs.iter()
                        .for_each(|v| one(K::UnorderedAccessView, v.view));
                }
            }
            Command::SetBlendState { state, .. } => one(K::BlendState, state),
            Command::SetDepthStencilState { state, .. } => one(K::DepthStencilState, state),
            Command::SetRasterizerState(state) => one(K::RasterizerState, state),
            Command::ClearRenderTargetView { view, .. } => one(K::RenderTargetView, view.view),
            Command::ClearDepthStencilView { view, .. } => one(K::DepthStencilView, view.view),
            Command::CopyResource {
                destination,
                source,
            }
            | Command::CopyBufferRegion {
                destination,
                source,
                ..
            }
            | Command::CopyTextureRegion {
                destination,
                source,
                ..
            } => {
                one(resource_kind(destination.is_texture), destination.resource);
                one(resource_kind(source.is_texture), source.resource);
            }
            Command::UpdateSubresource { resource, .. }
            | Command::MapWriteDiscard { resource, .. }
            | Command::MapWriteNoOverwrite { resource, .. } => {
                one(resource_kind(resource.is_texture), resource.resource)
            }
            Command::CopyStructureCount { destination, view } => {
                one(K::Buffer, destination.buffer);
                one(K::UnorderedAccessView, view.view);
            }
            Command::SetPredication { predicate, .. } => one(K::Query, predicate),
            Command::BeginQuery(query) | Command::EndQuery(query) => one(K::Query, query),
            Command::WriteQuery(query)
            | Command::ResetQuery(query)
            | Command::ConfigureQuery { query, .. }
            | Command::SetPredicationFromQuery { query, .. } => one(K::Query, query),
            Command::DecompressResource { resource, into } => {
                one(K::Texture, resource);
                one(K::Texture, into);
            }
            Command::SetResourceCompression { resource, .. } => one(K::Texture, resource),
            Command::InsertWaitOnPresent(chain) => one(K::SwapChain, chain),
            Command::Barrier { barriers } => barriers
                .iter()
                .filter_map(|b| b.resource())
                .for_each(|r| one(r.kind, r.handle)),
            Command::ResourceBarrier { barriers } => barriers
                .iter()
                .flat_map(|b| [b.resource(), b.other()])
                .flatten()
                .for_each(|r| one(r.kind, r.handle)),
            Command::WriteValueBottomOfPipe { buffer, .. }
            | Command::InsertWaitOnMemory { buffer, .. } => one(K::Buffer, buffer),
            Command::ReadGds { destination, .. } => one(K::Buffer, destination),
            Command::LoadConstantRam { buffer, .. } | Command::StoreConstantRam { buffer, .. } => {
                one(K::Buffer, buffer)
            }
            Command::SetGdsRange { .. } | Command::WriteGds { .. } => {}
            Command::SetPrimitiveTopology(_)
            | Command::SetPrimitiveResetIndex(_)
            | Command::SetViewports(_)
            | Command::SetScissorRects(_)
            | Command::Draw(_)
            | Command::DrawIndexed(_)
            | Command::DrawInstanced(_)
            | Command::DrawIndexedInstanced(_)
            | Command::DrawAuto
            | Command::Dispatch(_)
            | Command::ClearState
            | Command::InsertFence { .. }
            | Command::InsertWaitOnFence { .. }
            | Command::ExecuteCommandList { .. }
            | Command::RemapInheritance(_) => {}
            Command::DrawBundle { bundle, .. } => one(K::Bundle, bundle),
        }
    }
}

fn resource_kind(is_texture: u32) -> ObjectKind {
    if is_texture != 0 {
        ObjectKind::Texture
    } else {
        ObjectKind::Buffer
    }
}
