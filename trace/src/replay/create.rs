//! The declarations of a trace made on a device: resources, views, shaders, states,
//! predicates, swap chains; deferred contexts and bundle recorders (`context`, `bundle`). An
//! object declared with what a real GPU needs (R-GPU-2: code, elements, state fields, initial
//! bytes) is made by the device's `create_*_with` call, so `Device::gpu_contents` holds them.
//!
//! **In:** a [`Create`] and the device. **Out:** the engine's handles, or its error (a
//! declaration the engine refuses is reported under the declared name, docs/TRACE.md). The same
//! code makes the objects of the real run and of the reference run of `--compare`, so the
//! two make the same objects in the same order.

use bundles::{BundleDesc, BundleRecorder};
use recorder::{
    BufferDesc, DeferredContext, DeferredContextDesc, Device, Error, Handle, InputLayoutDesc,
    ObjectKind, OwnedShaderCode, RawHandle, ShaderCode, ShaderDesc, SwapChainDesc, TextureDesc,
    ViewDesc,
};

use super::handles::Handles;
use super::program::{Create, ObjId, ObjKind, Program};

/// What a declaration made.
pub(crate) enum Created {
    /// An engine object.
    Object(ObjectKind, RawHandle),
    /// A swap chain, and its back buffers with their views, in order.
    SwapChain(RawHandle, Vec<(RawHandle, RawHandle)>),
    Context(Box<DeferredContext>),
    Bundle(Box<BundleRecorder>),
}

/// Makes object `id` of `program` on `device`, as `create` says.
pub(crate) fn create(
    device: &Device,
    program: &Program,
    handles: &Handles,
    id: ObjId,
    create: &Create,
) -> Result<Created, Error> {
    let object = &program.objects[id];
    let name = object.name.as_str();
    let made =
        |kind: ObjectKind, raw: Result<RawHandle, Error>| raw.map(|r| Created::Object(kind, r));
    match create {
        Create::Buffer {
            size,
            usage,
            bind,
            uav_flag,
            placement,
            data,
        } => {
            let desc = BufferDesc {
                name,
                size: *size,
                usage: *usage,
                bind: *bind,
                uav_flag: *uav_flag,
                placement: placement_in("create_buffer", program, handles, placement)?,
            };
            let buffer = match data {
                Some(data) => device.create_buffer_with_data(&desc, data),
                None => device.create_buffer(&desc),
            };
            made(ObjectKind::Buffer, buffer.map(Handle::raw))
        }
        Create::Texture { .. } => make_texture(device, program, handles, name, create),
        Create::Heap { size } => made(
            ObjectKind::Heap,
            device
                .create_heap(&recorder::HeapDesc { name, size: *size })
                .map(Handle::raw),
        ),
        Create::View {
            resource,
            min_lod,
            composed,
        } => make_view(device, program, handles, id, *resource, *min_lod, *composed),
        Create::Shader {
            stage,
            constant_buffers,
            shader_resources,
            samplers,
            unordered_access_views,
            stream_output,
            code,
        } => {
            let desc = ShaderDesc {
                constant_buffers: *constant_buffers,
                shader_resources: *shader_resources,
                samplers: *samplers,
                unordered_access_views: *unordered_access_views,
                stream_output: *stream_output,
                ..ShaderDesc::new(name, *stage)
            };
            let shader = match code {
                Some(code) => device.create_shader_with_code(&desc, borrowed(code)),
                None => device.create_shader(&desc),
            };
            made(ObjectKind::Shader, shader.map(Handle::raw))
        }
        Create::InputLayout {
            vertex_buffers,
            elements,
        } => {
            let desc = InputLayoutDesc {
                name,
                vertex_buffers: *vertex_buffers,
            };
            let layout = match elements {
                Some(elements) => device.create_input_layout_with_elements(&desc, elements),
                None => device.create_input_layout(&desc),
            };
            made(ObjectKind::InputLayout, layout.map(Handle::raw))
        }
        Create::BlendState(_)
        | Create::RasterizerState(_)
        | Create::DepthStencilState(_)
        | Create::SamplerState(_) => make_state(device, name, create),
        Create::Predicate(kind) => made(
            ObjectKind::Query,
            device.create_query(name, *kind).map(Handle::raw),
        ),
        Create::SwapChain {
            buffers,
            format,
            width,
            height,
            ..
        } => make_swap_chain(
            device,
            &SwapChainDesc {
                name,
                buffers: *buffers,
                format: *format,
                width: *width,
                height: *height,
            },
        ),
        Create::Context {
            semantics,
            title_managed_lifetimes,
        } => device
            .create_deferred_context(&DeferredContextDesc {
                name,
                semantics: *semantics,
                title_managed_lifetimes: *title_managed_lifetimes,
                ..Default::default()
            })
            .map(|context| Created::Context(Box::new(context))),
        Create::Bundle {
            render_targets,
            depth,
            samples,
        } => BundleRecorder::new(
            device,
            &BundleDesc {
                name,
                render_targets,
                depth: *depth,
                sample_count: *samples,
                chunk_policy: None,
            },
        )
        .map(|recorder| Created::Bundle(Box::new(recorder))),
    }
}

/// A view of a declared resource (`srv`, `uav`, `rtv`, `dsv`, by the object's kind); refused
/// when the resource's own declaration was.
fn make_view(
    device: &Device,
    program: &Program,
    handles: &Handles,
    id: ObjId,
    resource: ObjId,
    min_lod: Option<f32>,
    composed: bool,
) -> Result<Created, Error> {
    let object = &program.objects[id];
    let name = object.name.as_str();
    let made =
        |kind: ObjectKind, raw: Result<RawHandle, Error>| raw.map(|r| Created::Object(kind, r));
    let Some(raw) = handles.get(resource) else {
        let resource = &program.objects[resource];
        return Err(Error::RefusedDeclaration {
            call: "create_view",
            what: "resource",
            object: resource.name.to_string(),
            line: resource.line,
        });
    };
    let resource = match program.objects[resource].kind {
        ObjKind::Buffer => recorder::Resource::Buffer(recorder::Buffer::from_raw(raw)),
        _ => recorder::Resource::Texture(recorder::Texture::from_raw(raw)),
    };
    let desc = ViewDesc {
        min_lod,
        ..ViewDesc::new(name, resource)
    };
    match object.kind {
        ObjKind::ShaderResourceView if composed => made(
            ObjectKind::ShaderResourceView,
            device.compose_shader_resource_view(&desc).map(Handle::raw),
        ),
        ObjKind::ShaderResourceView => made(
            ObjectKind::ShaderResourceView,
            device.create_shader_resource_view(&desc).map(Handle::raw),
        ),
        ObjKind::UnorderedAccessView => made(
            ObjectKind::UnorderedAccessView,
            device.create_unordered_access_view(&desc).map(Handle::raw),
        ),
        ObjKind::RenderTargetView => made(
            ObjectKind::RenderTargetView,
            device.create_render_target_view(&desc).map(Handle::raw),
        ),
        _ => made(
            ObjectKind::DepthStencilView,
            device.create_depth_stencil_view(&desc).map(Handle::raw),
        ),
    }
}

/// A swap chain, and its back buffers with their views, in order.
fn make_swap_chain(device: &Device, desc: &SwapChainDesc<'_>) -> Result<Created, Error> {
    let chain = device.create_swap_chain(desc)?;
    let back_buffers = device
        .swap_chain_info(chain)
        .map(|info| {
            info.buffers
                .iter()
                .map(|(texture, view)| (texture.raw(), view.raw()))
                .collect()
        })
        .unwrap_or_default();
    Ok(Created::SwapChain(chain.raw(), back_buffers))
}

/// A texture, from a [`Create::Texture`].
fn make_texture(
    device: &Device,
    program: &Program,
    handles: &Handles,
    name: &str,
    create: &Create,
) -> Result<Created, Error> {
    let Create::Texture {
        format,
        width,
        height,
        mips,
        array,
        samples,
        bind,
        compressible,
        texture_compatible,
        dcc,
        placement,
        data,
    } = create
    else {
        unreachable!("make_texture is given a texture")
    };
    let desc = TextureDesc {
        name,
        format: *format,
        width: *width,
        height: *height,
        mip_levels: *mips,
        array_size: *array,
        sample_count: *samples,
        bind: *bind,
        compressible: *compressible,
        texture_compatible: *texture_compatible,
        dcc: *dcc,
        placement: placement_in("create_texture", program, handles, placement)?,
    };
    let texture = match data {
        Some(data) => device.create_texture_with_data(&desc, data)?,
        None => device.create_texture(&desc)?,
    };
    Ok(Created::Object(ObjectKind::Texture, texture.raw()))
}

/// A blend, rasterizer, depth-stencil or sampler state, with its D3D11 fields where the
/// declaration wrote any (R-GPU-2).
fn make_state(device: &Device, name: &str, create: &Create) -> Result<Created, Error> {
    let (kind, raw) = match create {
        Create::BlendState(fields) => (
            ObjectKind::BlendState,
            match fields {
                Some(fields) => device.create_blend_state_with(name, fields),
                None => device.create_blend_state(name),
            }
            .map(Handle::raw),
        ),
        Create::RasterizerState(fields) => (
            ObjectKind::RasterizerState,
            match fields {
                Some(fields) => device.create_rasterizer_state_with(name, fields),
                None => device.create_rasterizer_state(name),
            }
            .map(Handle::raw),
        ),
        Create::DepthStencilState(fields) => (
            ObjectKind::DepthStencilState,
            match fields {
                Some(fields) => device.create_depth_stencil_state_with(name, fields),
                None => device.create_depth_stencil_state(name),
            }
            .map(Handle::raw),
        ),
        Create::SamplerState(fields) => (
            ObjectKind::SamplerState,
            match fields {
                Some(fields) => device.create_sampler_state_with(name, fields),
                None => device.create_sampler_state(name),
            }
            .map(Handle::raw),
        ),
        _ => unreachable!("make_state is given a state"),
    };
    raw.map(|raw| Created::Object(kind, raw))
}

/// Shader code as the device takes it (R-GPU-2).
fn borrowed(code: &OwnedShaderCode) -> ShaderCode<'_> {
    match code {
        OwnedShaderCode::Wgsl { source, entry } => ShaderCode::Wgsl { source, entry },
        OwnedShaderCode::SpirV { words, entry } => ShaderCode::SpirV { words, entry },
    }
}

/// The engine's placement of a placed resource (R-BAR-7): the heap's handle, or the refusal of
/// a declaration whose heap's own declaration was refused.
fn placement_in(
    call: &'static str,
    program: &Program,
    handles: &Handles,
    placement: &Option<(ObjId, u64)>,
) -> Result<Option<recorder::Placement>, Error> {
    let Some((heap, offset)) = *placement else {
        return Ok(None);
    };
    match handles.get(heap) {
        Some(raw) => Ok(Some(recorder::Placement {
            heap: recorder::Heap::from_raw(raw),
            offset,
        })),
        None => {
            let heap = &program.objects[heap];
            Err(Error::RefusedDeclaration {
                call,
                what: "heap",
                object: heap.name.to_string(),
                line: heap.line,
            })
        }
    }
}

/// Releases the engine object `id` made (the application's last reference, R-OBJ-3).
pub(crate) fn release(device: &Device, kind: ObjKind, raw: RawHandle) {
    use recorder::*;
    match kind {
        ObjKind::Buffer => device.release(Buffer::from_raw(raw)),
        ObjKind::Texture => device.release(Texture::from_raw(raw)),
        ObjKind::ShaderResourceView => device.release(ShaderResourceView::from_raw(raw)),
        ObjKind::UnorderedAccessView => device.release(UnorderedAccessView::from_raw(raw)),
        ObjKind::RenderTargetView => device.release(RenderTargetView::from_raw(raw)),
        ObjKind::DepthStencilView => device.release(DepthStencilView::from_raw(raw)),
        ObjKind::Shader => device.release(Shader::from_raw(raw)),
        ObjKind::InputLayout => device.release(InputLayout::from_raw(raw)),
        ObjKind::BlendState => device.release(BlendState::from_raw(raw)),
        ObjKind::RasterizerState => device.release(RasterizerState::from_raw(raw)),
        ObjKind::DepthStencilState => device.release(DepthStencilState::from_raw(raw)),
        ObjKind::SamplerState => device.release(SamplerState::from_raw(raw)),
        ObjKind::Predicate => device.release(Query::from_raw(raw)),
        ObjKind::SwapChain => device.release(SwapChain::from_raw(raw)),
        ObjKind::Heap => device.release(Heap::from_raw(raw)),
        ObjKind::Context
        | ObjKind::BundleRecorder
        | ObjKind::CommandList
        | ObjKind::Fence
        | ObjKind::ContextState => {}
    }
}
