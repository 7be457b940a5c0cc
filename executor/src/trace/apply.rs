//! One call of a [`Program`](super::program::Program) applied to the engine's recording API
//! (`recorder::DeferredContext`, which the immediate context also derefs to): the trace's
//! objects turned into handles, the arguments TRACE.md leaves out given their defaults.
//!
//! **In:** a [`Call`], the context to record it on, the handles the declarations made
//! ([`Handles`]) and the fence values inserted so far. **Out:** what happened
//! ([`Recorded`]): done, a fence value, a write_discard map's new instance, a refusal the
//! replay makes itself because the engine's API cannot even be called (`decompress_resource`
//! of a buffer), or "not a recording call" for the calls only the immediate context, a
//! `finish` or the bundle code handle.
//!
//! **Defaults** (TRACE.md gives no syntax for them): vertex buffers bind with stride 0 and
//! offset 0; blend states with factor 1,1,1,1 and every sample; depth-stencil states with
//! stencil reference 0; `clear_depth_stencil_view` clears depth and stencil;
//! `update_subresource` writes no bytes (the model keeps no contents).

use std::sync::OnceLock;

use recorder::encode::InstanceId;
use recorder::{
    BlendState, Buffer, ClearFlags, DeferredContext, DepthStencilState, DepthStencilView, Error,
    Handle, InputLayout, MapType, Query, RasterizerState, RawHandle, RenderTargetView, Resource,
    SamplerState, Shader, ShaderResourceView, SwapChain, Texture, UnorderedAccessView,
    VertexBuffer,
};

use super::program::{Call, ObjId, ObjKind, Program};

/// The handle of every engine object the trace declared, set once by its declaration (on the
/// thread that runs declarations; workers read them after).
#[derive(Debug)]
pub(crate) struct Handles {
    raw: Vec<OnceLock<RawHandle>>,
}

/// A handle that names no object: what an object whose declaration the engine refused would
/// be, were the replay not to refuse its uses itself (it does; see `engine.rs`).
const NOWHERE: RawHandle = RawHandle::from_bits(u64::MAX - 1);

impl Handles {
    pub(crate) fn new(objects: usize) -> Self {
        Self {
            raw: (0..objects).map(|_| OnceLock::new()).collect(),
        }
    }

    pub(crate) fn set(&self, id: ObjId, raw: RawHandle) {
        if let Some(slot) = self.raw.get(id) {
            let _ = slot.set(raw);
        }
    }

    /// The object's handle, if its declaration made it.
    pub(crate) fn get(&self, id: ObjId) -> Option<RawHandle> {
        self.raw.get(id).and_then(|slot| slot.get().copied())
    }

    fn handle<H: Handle>(&self, id: ObjId) -> H {
        H::from_raw(self.get(id).unwrap_or(NOWHERE))
    }
}

/// Turns a call's objects into handles.
pub(crate) struct Resolver<'a> {
    pub program: &'a Program,
    pub handles: &'a Handles,
}

impl Resolver<'_> {
    pub(crate) fn one<H: Handle>(&self, id: ObjId) -> H {
        self.handles.handle(id)
    }

    pub(crate) fn opt<H: Handle>(&self, id: Option<ObjId>) -> Option<H> {
        id.map(|id| self.one(id))
    }

    pub(crate) fn all<H: Handle>(&self, ids: &[Option<ObjId>]) -> Vec<Option<H>> {
        ids.iter().map(|id| self.opt(*id)).collect()
    }

    pub(crate) fn resource(&self, id: ObjId) -> Resource {
        match self.program.objects[id].kind {
            ObjKind::Buffer => Resource::Buffer(self.one(id)),
            _ => Resource::Texture(self.one(id)),
        }
    }

    /// The texture `id` names, or the refusal of a call that takes one.
    fn texture(&self, call: &'static str, id: ObjId) -> Result<Texture, Error> {
        match self.program.objects[id].kind {
            ObjKind::Texture => Ok(self.one(id)),
            _ => Err(Error::InvalidArgument {
                call,
                message: format!(
                    "'{}' is a buffer: the call takes a texture",
                    self.program.objects[id].name
                ),
            }),
        }
    }
}

/// What applying a call did.
#[derive(Debug)]
pub(crate) enum Recorded {
    /// Handed to the engine (which may have refused it: the caller asks the context).
    Done,
    /// `insert_fence`: the value the engine handed out.
    Fence(u64),
    /// A write_discard map the engine accepted, and the instance it made.
    Mapped(InstanceId),
    /// The engine's API cannot take the call as written; the replay refuses it.
    Refused(Error),
    /// Not a call of the recording API (finish, execute, present, bundles, ...).
    Elsewhere,
}

/// Applies `call` to `context` (see the module essay). `fence` gives the value of a fence
/// inserted earlier in the trace (0 for one not inserted yet, which the engine refuses).
pub(crate) fn record(
    context: &mut DeferredContext,
    call: &Call,
    objects: &Resolver<'_>,
    fence: impl Fn(ObjId) -> u64,
) -> Recorded {
    match call {
        Call::SetInputLayout(layout) => {
            context.set_input_layout(objects.opt::<InputLayout>(*layout))
        }
        Call::SetPrimitiveTopology(topology) => context.set_primitive_topology(*topology),
        Call::SetVertexBuffers { start, buffers } => {
            let buffers: Vec<VertexBuffer> = objects
                .all::<Buffer>(buffers)
                .into_iter()
                .map(|buffer| VertexBuffer {
                    buffer,
                    stride: 0,
                    offset: 0,
                })
                .collect();
            context.set_vertex_buffers(*start, &buffers)
        }
        Call::SetIndexBuffer {
            buffer,
            format,
            offset,
        } => context.set_index_buffer(objects.opt(*buffer), *format, *offset),
        Call::SetPrimitiveResetIndex(value) => context.set_primitive_reset_index(*value),
        Call::SetShader { stage, shader } => {
            context.set_shader(*stage, objects.opt::<Shader>(*shader))
        }
        Call::SetConstantBuffers {
            stage,
            start,
            buffers,
        } => context.set_constant_buffers(*stage, *start, &objects.all::<Buffer>(buffers)),
        Call::SetShaderResources {
            stage,
            start,
            views,
        } => {
            context.set_shader_resources(*stage, *start, &objects.all::<ShaderResourceView>(views))
        }
        Call::SetSamplers {
            stage,
            start,
            samplers,
        } => context.set_samplers(*stage, *start, &objects.all::<SamplerState>(samplers)),
        Call::CsSetUnorderedAccessViews { start, views } => context
            .cs_set_unordered_access_views(*start, &objects.all::<UnorderedAccessView>(views)),
        Call::OmSetRenderTargets {
            targets,
            depth,
            uavs,
        } => {
            let targets = objects.all::<RenderTargetView>(targets);
            let depth = objects.opt::<DepthStencilView>(*depth);
            match uavs {
                None => context.om_set_render_targets(&targets, depth),
                Some((start, views)) => context.om_set_render_targets_and_unordered_access_views(
                    &targets,
                    depth,
                    *start,
                    &objects.all::<UnorderedAccessView>(views),
                ),
            }
        }
        Call::OmSetBlendState(state) => {
            context.om_set_blend_state(objects.opt::<BlendState>(*state), [1.0; 4], u32::MAX)
        }
        Call::OmSetDepthStencilState(state) => {
            context.om_set_depth_stencil_state(objects.opt::<DepthStencilState>(*state), 0)
        }
        Call::RsSetState(state) => context.rs_set_state(objects.opt::<RasterizerState>(*state)),
        Call::RsSetViewports(viewports) => context.rs_set_viewports(viewports),
        Call::RsSetScissorRects(rects) => context.rs_set_scissor_rects(rects),
        Call::Draw {
            vertex_count,
            start_vertex,
        } => context.draw(*vertex_count, *start_vertex),
        Call::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        } => context.draw_indexed(*index_count, *start_index, *base_vertex),
        Call::DrawInstanced {
            vertex_count,
            instance_count,
            start_vertex,
            start_instance,
        } => context.draw_instanced(
            *vertex_count,
            *instance_count,
            *start_vertex,
            *start_instance,
        ),
        Call::DrawIndexedInstanced {
            index_count,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        } => context.draw_indexed_instanced(
            *index_count,
            *instance_count,
            *start_index,
            *base_vertex,
            *start_instance,
        ),
        Call::DrawAuto => context.draw_auto(),
        Call::DrawInstancedIndirect { buffer, offset } => {
            context.draw_instanced_indirect(objects.one(*buffer), *offset)
        }
        Call::DrawIndexedInstancedIndirect { buffer, offset } => {
            context.draw_indexed_instanced_indirect(objects.one(*buffer), *offset)
        }
        Call::Dispatch { x, y, z } => context.dispatch(*x, *y, *z),
        Call::DispatchIndirect { buffer, offset } => {
            context.dispatch_indirect(objects.one(*buffer), *offset)
        }
        Call::ClearRenderTargetView { view, color } => {
            context.clear_render_target_view(objects.one(*view), *color)
        }
        Call::ClearDepthStencilView {
            view,
            depth,
            stencil,
        } => context.clear_depth_stencil_view(
            objects.one(*view),
            ClearFlags::DEPTH_STENCIL,
            *depth,
            *stencil,
        ),
        Call::CopyResource {
            destination,
            source,
        } => context.copy_resource(objects.resource(*destination), objects.resource(*source)),
        Call::UpdateSubresource(resource) => {
            context.update_subresource(objects.resource(*resource), &[])
        }
        Call::CopyStructureCount {
            destination,
            offset,
            view,
        } => context.copy_structure_count(objects.one(*destination), *offset, objects.one(*view)),
        Call::Map {
            resource,
            map_type,
            allow_usage_default,
            ..
        } => {
            let resource = objects.resource(*resource);
            let mapped = context
                .map(resource, *map_type, *allow_usage_default)
                .is_some();
            if mapped && *map_type == MapType::WriteDiscard {
                return Recorded::Mapped(context.current_instance(resource.raw()));
            }
        }
        Call::Unmap(resource) => context.unmap(objects.resource(*resource)),
        Call::SetPredication { predicate, value } => {
            context.set_predication(objects.opt::<Query>(*predicate), *value)
        }
        Call::BeginQuery(query) => context.begin_query(objects.one(*query)),
        Call::EndQuery(query) => context.end_query(objects.one(*query)),
        Call::ClearState => context.clear_state(),
        Call::DecompressResource { resource, into } => {
            const CALL: &str = "decompress_resource";
            let textures = objects.texture(CALL, *resource).and_then(|texture| {
                let into = into.map(|into| objects.texture(CALL, into)).transpose()?;
                Ok((texture, into))
            });
            match textures {
                Ok((texture, into)) => context.decompress_resource(texture, into),
                Err(error) => return Recorded::Refused(error),
            }
        }
        Call::SetResourceCompression {
            resource,
            compressed,
        } => match objects.texture("set_resource_compression", *resource) {
            Ok(texture) => context.set_resource_compression(texture, *compressed),
            Err(error) => return Recorded::Refused(error),
        },
        Call::SetResourceMinLod { resource, min_lod } => {
            match objects.texture("set_resource_min_lod", *resource) {
                Ok(texture) => context.set_resource_min_lod(texture, *min_lod),
                Err(error) => return Recorded::Refused(error),
            }
        }
        Call::SetShaderResourceViewMinLod { view, min_lod } => {
            context.set_shader_resource_view_min_lod(objects.one(*view), *min_lod)
        }
        Call::InsertWaitOnPresent(chain) => {
            context.insert_wait_on_present(objects.one::<SwapChain>(*chain))
        }
        Call::InsertFence { engine, .. } => return Recorded::Fence(context.insert_fence(*engine)),
        Call::InsertWaitOnFence {
            fence: name,
            engine,
        } => context.insert_wait_on_fence(*engine, fence(*name)),
        Call::DrawBundle(_)
        | Call::Remap { .. }
        | Call::FinishCommandList { .. }
        | Call::FinishBundle
        | Call::Execute { .. }
        | Call::BeginCommandListExecution
        | Call::EndCommandListExecution
        | Call::Present(_)
        | Call::Resume => return Recorded::Elsewhere,
    }
    Recorded::Done
}
