//! A device with one object of every flavour the GPU-model tests need, and the two ways of
//! feeding a recorded list to the model by hand until the executor exists: linearly, command by
//! command, and segment by segment with split points resolved as R-SP-4 says.

#![allow(dead_code)]

use executor::{DrawRecord, FieldValue, GpuModel};
use recorder::command::InstanceId;
use recorder::*;

pub struct Fixture {
    pub device: Device,
    /// Immutable vertex buffers.
    pub vb: Buffer,
    pub vb2: Buffer,
    /// Default index buffer.
    pub ib: Buffer,
    /// Default and dynamic constant buffers.
    pub cb: Buffer,
    pub cb2: Buffer,
    pub cb_dyn: Buffer,
    /// Default buffer for indirect arguments and memory waits (256 bytes, no bind flags).
    pub args: Buffer,
    /// Default structured buffer with an SRV and a UAV.
    pub sb: Buffer,
    pub sb_srv: ShaderResourceView,
    pub sb_uav: UnorderedAccessView,
    /// Plain textures with SRVs.
    pub tex: Texture,
    pub tex_srv: ShaderResourceView,
    pub tex2_srv: ShaderResourceView,
    /// A descriptor composed over `tex` with its own minimum LOD, 1.5 (seed 000, R-ST-6).
    pub tex_composed_srv: ShaderResourceView,
    /// A descriptor composed over `tex2` with the default minimum LOD (the resource's).
    pub tex2_composed_srv: ShaderResourceView,
    /// Compressible render target with RTV, SRV, UAV.
    pub rt: Texture,
    pub rt_rtv: RenderTargetView,
    pub rt_srv: ShaderResourceView,
    pub rt_uav: UnorderedAccessView,
    /// Render target created not compressible, with RTV and SRV.
    pub rt_plain: Texture,
    pub rt_plain_rtv: RenderTargetView,
    pub rt_plain_srv: ShaderResourceView,
    /// Compressible depth stencil with DSV and SRV.
    pub ds: Texture,
    pub ds_dsv: DepthStencilView,
    pub ds_srv: ShaderResourceView,
    /// vs: cb 0, srv 0. ps: cb 0-1, srv 0 and 2, sampler 0, uav 1. ps_uavs: uav 1-2.
    /// cs: cb 0, srv 0, uav 0 and 2. hs: nothing.
    pub vs: Shader,
    pub hs: Shader,
    pub ps: Shader,
    pub ps_uavs: Shader,
    pub cs: Shader,
    /// Reads vertex-buffer slots 0 and 2.
    pub layout: InputLayout,
    pub blend: BlendState,
    pub raster: RasterizerState,
    pub dss: DepthStencilState,
    pub sampler: SamplerState,
    pub predicate: Query,
}

impl Fixture {
    pub fn new() -> Self {
        Self::with_immediate(Semantics::Legacy)
    }

    /// The fixture on a device whose immediate context has `semantics`.
    pub fn with_immediate(semantics: Semantics) -> Self {
        Self::on(DeviceDesc {
            immediate_semantics: semantics,
            ..DeviceDesc::default()
        })
    }

    /// The fixture on a device in validation mode (R-V-1).
    pub fn validated(semantics: Semantics) -> Self {
        Self::on(DeviceDesc {
            immediate_semantics: semantics,
            validation: Validation::On,
            ..DeviceDesc::default()
        })
    }

    /// The fixture on a device created with `desc`.
    pub fn on(desc: DeviceDesc) -> Self {
        Self::with_device(Device::new(desc))
    }

    /// The fixture on a twin of `x`'s device (`Device::twin`) whose immediate context has
    /// `semantics`: the same objects with the same handles, for an oracle that compares the
    /// records of two runs handle by handle.
    pub fn twin_of(x: &Fixture, semantics: Semantics) -> Self {
        let desc = DeviceDesc {
            immediate_semantics: semantics,
            ..x.device.desc().clone()
        };
        Self::with_device(x.device.twin(desc))
    }

    /// The fixture's objects, made on `device`.
    pub fn with_device(device: Device) -> Self {
        let buffer = |name: &str, usage, bind| {
            let desc = BufferDesc {
                name,
                size: 256,
                usage,
                bind,
                uav_flag: UavFlag::None,
                placement: None,
            };
            device
                .create_buffer(&desc)
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let texture = |name: &str, format, bind, compressible| {
            let desc = TextureDesc {
                name,
                format,
                width: 64,
                height: 64,
                bind,
                compressible,
                ..Default::default()
            };
            device
                .create_texture(&desc)
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        fn view(name: &str, resource: Resource) -> ViewDesc<'_> {
            ViewDesc::new(name, resource)
        }
        let srv = |name: &str, resource: Resource| {
            device
                .create_shader_resource_view(&view(name, resource))
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let composed = |name: &str, resource: Resource, min_lod| {
            device
                .compose_shader_resource_view(&ViewDesc {
                    min_lod,
                    ..view(name, resource)
                })
                .unwrap_or_else(|e| panic!("compose {name}: {e}"))
        };
        let uav = |name: &str, resource: Resource| {
            device
                .create_unordered_access_view(&view(name, resource))
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let rtv = |name: &str, texture: Texture| {
            device
                .create_render_target_view(&view(name, texture.into()))
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        // The slot sets as bits: bit i, slot i.
        let shader = |name: &str, stage, cbs: u128, srvs: u128, samplers: u128, uavs: u128| {
            let desc = ShaderDesc {
                constant_buffers: Slots::from_bits(cbs),
                shader_resources: Slots::from_bits(srvs),
                samplers: Slots::from_bits(samplers),
                unordered_access_views: Slots::from_bits(uavs),
                ..ShaderDesc::new(name, stage)
            };
            device
                .create_shader(&desc)
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let target =
            BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS;
        let depth = BindFlags::DEPTH_STENCIL | BindFlags::SHADER_RESOURCE;
        let sb = buffer(
            "sb",
            Usage::Default,
            BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS,
        );
        let tex = texture(
            "tex",
            Format::R8G8B8A8Unorm,
            BindFlags::SHADER_RESOURCE,
            None,
        );
        let tex2 = texture(
            "tex2",
            Format::R8G8B8A8Unorm,
            BindFlags::SHADER_RESOURCE,
            None,
        );
        let rt = texture("rt", Format::R8G8B8A8Unorm, target, None);
        let rt_plain = texture("rt_plain", Format::R16G16B16A16Float, target, Some(false));
        let ds = texture("ds", Format::D32Float, depth, None);
        let ds_dsv = device
            .create_depth_stencil_view(&view("ds_dsv", ds.into()))
            .unwrap_or_else(|e| panic!("create ds_dsv: {e}"));
        Self {
            vb: buffer("vb", Usage::Immutable, BindFlags::VERTEX),
            vb2: buffer("vb2", Usage::Immutable, BindFlags::VERTEX),
            ib: buffer("ib", Usage::Default, BindFlags::INDEX),
            cb: buffer("cb", Usage::Default, BindFlags::CONSTANT),
            cb2: buffer("cb2", Usage::Default, BindFlags::CONSTANT),
            cb_dyn: buffer("cb_dyn", Usage::Dynamic, BindFlags::CONSTANT),
            args: buffer("args", Usage::Default, BindFlags::NONE),
            sb,
            sb_srv: srv("sb_srv", sb.into()),
            sb_uav: uav("sb_uav", sb.into()),
            tex,
            tex_srv: srv("tex_srv", tex.into()),
            tex2_srv: srv("tex2_srv", tex2.into()),
            tex_composed_srv: composed("tex_composed_srv", tex.into(), Some(1.5)),
            tex2_composed_srv: composed("tex2_composed_srv", tex2.into(), None),
            rt,
            rt_rtv: rtv("rt_rtv", rt),
            rt_srv: srv("rt_srv", rt.into()),
            rt_uav: uav("rt_uav", rt.into()),
            rt_plain,
            rt_plain_rtv: rtv("rt_plain_rtv", rt_plain),
            rt_plain_srv: srv("rt_plain_srv", rt_plain.into()),
            ds,
            ds_dsv,
            ds_srv: srv("ds_srv", ds.into()),
            vs: shader("vs", Stage::Vertex, 0b1, 0b1, 0, 0),
            hs: shader("hs", Stage::Hull, 0, 0, 0, 0),
            ps: shader("ps", Stage::Pixel, 0b11, 0b101, 0b1, 0b10),
            ps_uavs: shader("ps_uavs", Stage::Pixel, 0, 0, 0, 0b110),
            cs: shader("cs", Stage::Compute, 0b1, 0b1, 0, 0b101),
            layout: device
                .create_input_layout(&InputLayoutDesc {
                    name: "layout",
                    vertex_buffers: Slots::of(&[0, 2]),
                })
                .expect("create layout"),
            blend: device.create_blend_state("blend").expect("create blend"),
            raster: device
                .create_rasterizer_state("raster")
                .expect("create raster"),
            dss: device
                .create_depth_stencil_state("dss")
                .expect("create dss"),
            sampler: device
                .create_sampler_state("sampler")
                .expect("create sampler"),
            predicate: device
                .create_query("predicate", QueryKind::Predicate)
                .expect("create predicate"),
            device,
        }
    }

    pub fn context(&self, semantics: Semantics) -> DeferredContext {
        self.device
            .create_deferred_context(&DeferredContextDesc {
                name: "dc",
                semantics,
                chunk_policy: None,
                ..Default::default()
            })
            .expect("create deferred context")
    }

    /// Records `calls` on a fresh context of `semantics` and finishes the list.
    pub fn list(
        &self,
        semantics: Semantics,
        calls: impl FnOnce(&mut DeferredContext),
    ) -> CommandList {
        let mut context = self.context(semantics);
        calls(&mut context);
        context
            .finish_command_list(RestoreState::ClearState)
            .unwrap_or_else(|e| panic!("finish_command_list: {e}"))
    }

    pub fn fast(&self, calls: impl FnOnce(&mut DeferredContext)) -> CommandList {
        self.list(Semantics::Fast, calls)
    }

    pub fn legacy(&self, calls: impl FnOnce(&mut DeferredContext)) -> CommandList {
        self.list(Semantics::Legacy, calls)
    }
}

/// Feeds a list's commands to the model one by one, resolving nothing.
pub fn run(gpu: &mut GpuModel, list: &CommandList) {
    for decoded in list.commands() {
        gpu.execute_decoded(&decoded, list.semantics());
    }
}

/// Feeds a list segment by segment, resolving each split point as R-SP-4 says (no dynamic
/// instance to patch: the tests leave `RESOLVE_AT_EXECUTION` in place).
pub fn run_segments(gpu: &mut GpuModel, list: &CommandList) {
    for segment in list.segments() {
        match segment {
            Segment::Commands(_) => {
                assert!(gpu.execute_segment(&segment, list.semantics()));
            }
            Segment::SplitPoint(decoded) => {
                let category = decoded.split.expect("a split point has a category");
                gpu.execute_split_point(category, &decoded.command, list.semantics());
            }
            Segment::Nested(_) => panic!("the tests record no nested lists through segments"),
        }
    }
}

/// The value of object `handle` bound at its initial instance.
pub fn object<H: Handle>(handle: H) -> FieldValue {
    at(handle, InstanceId::INITIAL)
}

/// The value of object `handle` bound at `instance`.
pub fn at<H: Handle>(handle: H, instance: InstanceId) -> FieldValue {
    FieldValue::Object {
        kind: H::KIND,
        handle: handle.raw(),
        instance,
    }
}

/// Field `name` of record `index`.
#[track_caller]
pub fn field(gpu: &GpuModel, index: usize, name: &str) -> Option<FieldValue> {
    record(gpu, index).field(name)
}

#[track_caller]
pub fn record(gpu: &GpuModel, index: usize) -> &DrawRecord {
    gpu.records()
        .get(index)
        .unwrap_or_else(|| panic!("no record {index}: {} records", gpu.records().len()))
}

/// Field `name` of record `index`, printed as TRACE.md prints values (raw object names).
#[track_caller]
pub fn shown(gpu: &GpuModel, index: usize, name: &str) -> String {
    field(gpu, index, name)
        .unwrap_or_else(|| panic!("record {index} has no field {name}"))
        .to_string()
}

/// The instances of the write_discard maps a list recorded, in order.
pub fn map_instances(list: &CommandList) -> Vec<InstanceId> {
    list.commands()
        .filter_map(|d| match d.command {
            recorder::command::Command::MapWriteDiscard { resource, .. } => Some(resource.instance),
            _ => None,
        })
        .collect()
}

/// Maps `buffer` write_discard and unmaps it.
pub fn write_discard(context: &mut impl DeviceContext, buffer: Buffer) {
    assert!(context
        .map(buffer, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok());
    context.unmap(buffer);
}

/// A swap chain of three 64 x 64 back buffers, `chain.0` .. `chain.2`.
pub fn swap_chain(f: &Fixture) -> SwapChain {
    let desc = SwapChainDesc {
        name: "chain",
        buffers: 3,
        format: Format::R8G8B8A8Unorm,
        width: 64,
        height: 64,
    };
    f.device.create_swap_chain(&desc).unwrap()
}

/// The render-target view of back buffer `index` of `chain`.
pub fn back_buffer_rtv(f: &Fixture, chain: SwapChain, index: usize) -> RenderTargetView {
    f.device.swap_chain_info(chain).unwrap().buffers[index].1
}

/// One viewport of 64 x 32.
pub const SCREEN: [Viewport; 1] = [Viewport {
    x: 0.0,
    y: 0.0,
    width: 64.0,
    height: 32.0,
    min_depth: 0.0,
    max_depth: 1.0,
}];
/// One scissor rectangle.
pub const RECT: [Rect; 1] = [Rect {
    left: 1,
    top: 2,
    right: 3,
    bottom: 4,
}];

/// A fresh model after running `lists` linearly.
pub fn gpu_after(lists: &[&CommandList]) -> GpuModel {
    let mut gpu = GpuModel::new();
    for list in lists {
        run(&mut gpu, list);
    }
    gpu
}

/// A vertex-buffer binding with a 16-byte stride.
pub fn vertex(buffer: Buffer) -> VertexBuffer {
    VertexBuffer {
        buffer: Some(buffer),
        stride: 16,
        offset: 0,
    }
}
