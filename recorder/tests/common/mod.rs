//! Fixtures shared by the requirement tests: a device with one object of every flavour the
//! requirements talk about, and small helpers to read lists back.

#![allow(dead_code)]

use recorder::command::Command;
use recorder::*;

/// A device and a small scene covering every usage, bind flag and view kind the tests need.
pub struct Fixture {
    pub device: Device,
    /// Immutable vertex buffer.
    pub vb: Buffer,
    /// Second immutable vertex buffer.
    pub vb2: Buffer,
    /// Dynamic vertex buffer.
    pub vb_dyn: Buffer,
    /// Second dynamic vertex buffer.
    pub vb_dyn2: Buffer,
    /// Default index buffer.
    pub ib: Buffer,
    /// Dynamic index buffer.
    pub ib_dyn: Buffer,
    /// Default constant buffer.
    pub cb: Buffer,
    /// Immutable constant buffer.
    pub cb_imm: Buffer,
    /// Dynamic constant buffer.
    pub cb_dyn: Buffer,
    /// Second dynamic constant buffer.
    pub cb_dyn2: Buffer,
    /// Dynamic structured buffer with an SRV.
    pub sb_dyn: Buffer,
    pub sb_dyn_srv: ShaderResourceView,
    /// Default structured buffer with an SRV and a plain UAV.
    pub sb: Buffer,
    pub sb_srv: ShaderResourceView,
    pub sb_uav: UnorderedAccessView,
    /// Buffers with append / counter UAVs.
    pub append_buffer: Buffer,
    pub append_uav: UnorderedAccessView,
    pub counter_buffer: Buffer,
    pub counter_uav: UnorderedAccessView,
    /// Default buffer for indirect arguments and memory operations (256 bytes).
    pub args: Buffer,
    /// Two default buffers of the same size, for copies.
    pub copy_a: Buffer,
    pub copy_b: Buffer,
    /// Compressible render target (compressible by default) with RTV, SRV and UAV.
    pub rt: Texture,
    pub rt_rtv: RenderTargetView,
    pub rt_srv: ShaderResourceView,
    pub rt_uav: UnorderedAccessView,
    /// Render target created with `compressible: Some(false)`, with RTV, SRV and UAV.
    pub rt_plain: Texture,
    pub rt_plain_rtv: RenderTargetView,
    pub rt_plain_srv: ShaderResourceView,
    pub rt_plain_uav: UnorderedAccessView,
    /// Compressible depth stencil (compressible by default) with DSV and SRV.
    pub ds: Texture,
    pub ds_dsv: DepthStencilView,
    pub ds_srv: ShaderResourceView,
    /// Depth stencil created with `compressible: Some(false)`, with DSV and SRV.
    pub ds_plain: Texture,
    pub ds_plain_dsv: DepthStencilView,
    pub ds_plain_srv: ShaderResourceView,
    /// Plain shader-resource texture and its SRV, and a second texture of the same shape.
    pub tex: Texture,
    pub tex_srv: ShaderResourceView,
    pub tex2: Texture,
    pub vs: Shader,
    pub ps: Shader,
    pub cs: Shader,
    pub layout: InputLayout,
    pub blend: BlendState,
    pub raster: RasterizerState,
    pub dss: DepthStencilState,
    pub sampler: SamplerState,
    pub predicate: Query,
    pub occlusion: Query,
    pub chain: SwapChain,
}

impl Fixture {
    pub fn new() -> Self {
        Self::with_device(Device::new(DeviceDesc::default()))
    }

    pub fn with_policy(policy: ChunkPolicy) -> Self {
        Self::with_device(Device::new(DeviceDesc {
            chunk_policy: policy,
            ..Default::default()
        }))
    }

    pub fn with_device(device: Device) -> Self {
        let buffer = |name: &str, size, usage, bind, uav_flag| {
            device
                .create_buffer(&BufferDesc {
                    name,
                    size,
                    usage,
                    bind,
                    uav_flag,
                    placement: None,
                })
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let plain = |name: &str, usage, bind| buffer(name, 256, usage, bind, UavFlag::None);
        let texture = |name: &str, format, bind, compressible| {
            device
                .create_texture(&TextureDesc {
                    name,
                    format,
                    width: 64,
                    height: 64,
                    bind,
                    compressible,
                    ..Default::default()
                })
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let srv = |name: &str, resource: Resource| {
            device
                .create_shader_resource_view(&ViewDesc::new(name, resource))
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let uav = |name: &str, resource: Resource| {
            device
                .create_unordered_access_view(&ViewDesc::new(name, resource))
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let rtv = |name: &str, texture: Texture| {
            device
                .create_render_target_view(&ViewDesc::new(name, texture))
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let dsv = |name: &str, texture: Texture| {
            device
                .create_depth_stencil_view(&ViewDesc::new(name, texture))
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };

        let sb_dyn = plain("sb_dyn", Usage::Dynamic, BindFlags::SHADER_RESOURCE);
        let sb = plain(
            "sb",
            Usage::Default,
            BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS,
        );
        let append_buffer = buffer(
            "append",
            256,
            Usage::Default,
            BindFlags::UNORDERED_ACCESS,
            UavFlag::Append,
        );
        let counter_buffer = buffer(
            "counter",
            256,
            Usage::Default,
            BindFlags::UNORDERED_ACCESS,
            UavFlag::Counter,
        );
        let target_bind =
            BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS;
        let depth_bind = BindFlags::DEPTH_STENCIL | BindFlags::SHADER_RESOURCE;
        let rt = texture("rt", Format::R8G8B8A8Unorm, target_bind, None);
        let rt_plain = texture("rt_plain", Format::R8G8B8A8Unorm, target_bind, Some(false));
        let ds = texture("ds", Format::D32Float, depth_bind, None);
        let ds_plain = texture("ds_plain", Format::D32Float, depth_bind, Some(false));
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
        // The slot sets as bits: bit i, slot i.
        let shader = |name: &str, stage, cbs: u128, srvs: u128, samplers: u128, uavs: u128| {
            device
                .create_shader(&ShaderDesc {
                    constant_buffers: Slots::from_bits(cbs),
                    shader_resources: Slots::from_bits(srvs),
                    samplers: Slots::from_bits(samplers),
                    unordered_access_views: Slots::from_bits(uavs),
                    ..ShaderDesc::new(name, stage)
                })
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };

        Self {
            vb: plain("vb", Usage::Immutable, BindFlags::VERTEX),
            vb2: plain("vb2", Usage::Immutable, BindFlags::VERTEX),
            vb_dyn: plain("vb_dyn", Usage::Dynamic, BindFlags::VERTEX),
            vb_dyn2: plain("vb_dyn2", Usage::Dynamic, BindFlags::VERTEX),
            ib: plain("ib", Usage::Default, BindFlags::INDEX),
            ib_dyn: plain("ib_dyn", Usage::Dynamic, BindFlags::INDEX),
            cb: plain("cb", Usage::Default, BindFlags::CONSTANT),
            cb_imm: plain("cb_imm", Usage::Immutable, BindFlags::CONSTANT),
            cb_dyn: plain("cb_dyn", Usage::Dynamic, BindFlags::CONSTANT),
            cb_dyn2: plain("cb_dyn2", Usage::Dynamic, BindFlags::CONSTANT),
            sb_dyn,
            sb_dyn_srv: srv("sb_dyn_srv", sb_dyn.into()),
            sb,
            sb_srv: srv("sb_srv", sb.into()),
            sb_uav: uav("sb_uav", sb.into()),
            append_buffer,
            append_uav: uav("append_uav", append_buffer.into()),
            counter_buffer,
            counter_uav: uav("counter_uav", counter_buffer.into()),
            args: plain("args", Usage::Default, BindFlags::NONE),
            copy_a: plain("copy_a", Usage::Default, BindFlags::NONE),
            copy_b: plain("copy_b", Usage::Default, BindFlags::NONE),
            rt,
            rt_rtv: rtv("rt_rtv", rt),
            rt_srv: srv("rt_srv", rt.into()),
            rt_uav: uav("rt_uav", rt.into()),
            rt_plain,
            rt_plain_rtv: rtv("rt_plain_rtv", rt_plain),
            rt_plain_srv: srv("rt_plain_srv", rt_plain.into()),
            rt_plain_uav: uav("rt_plain_uav", rt_plain.into()),
            ds,
            ds_dsv: dsv("ds_dsv", ds),
            ds_srv: srv("ds_srv", ds.into()),
            ds_plain,
            ds_plain_dsv: dsv("ds_plain_dsv", ds_plain),
            ds_plain_srv: srv("ds_plain_srv", ds_plain.into()),
            tex,
            tex_srv: srv("tex_srv", tex.into()),
            tex2,
            vs: shader("vs", Stage::Vertex, 0b11, 0b11, 0b1, 0),
            ps: shader("ps", Stage::Pixel, 0b11, 0b1111, 0b1, 0b1),
            cs: shader("cs", Stage::Compute, 0b1, 0b1, 0, 0b11),
            layout: device
                .create_input_layout(&InputLayoutDesc {
                    name: "layout",
                    vertex_buffers: Slots::first(2),
                })
                .unwrap(),
            blend: device.create_blend_state("blend").unwrap(),
            raster: device.create_rasterizer_state("raster").unwrap(),
            dss: device.create_depth_stencil_state("dss").unwrap(),
            sampler: device.create_sampler_state("sampler").unwrap(),
            predicate: device
                .create_query("predicate", QueryKind::Predicate)
                .unwrap(),
            occlusion: device
                .create_query("occlusion", QueryKind::Occlusion)
                .unwrap(),
            chain: device
                .create_swap_chain(&SwapChainDesc {
                    name: "chain",
                    buffers: 2,
                    format: Format::B8G8R8A8Unorm,
                    width: 64,
                    height: 64,
                })
                .unwrap(),
            device,
        }
    }

    pub fn context(&self, semantics: Semantics) -> DeferredContext {
        context(&self.device, semantics)
    }

    pub fn legacy(&self) -> DeferredContext {
        self.context(Semantics::Legacy)
    }

    pub fn fast(&self) -> DeferredContext {
        self.context(Semantics::Fast)
    }

    /// `(name, references)` of every object of the fixture, swap-chain back buffers included.
    pub fn references(&self) -> Vec<(String, Option<u32>)> {
        let d = &self.device;
        let mut out = Vec::new();
        macro_rules! refs {
            ($($field:ident),* $(,)?) => {
                $(out.push((stringify!($field).to_string(), d.references(self.$field)));)*
            };
        }
        refs!(
            vb,
            vb2,
            vb_dyn,
            vb_dyn2,
            ib,
            ib_dyn,
            cb,
            cb_imm,
            cb_dyn,
            cb_dyn2,
            sb_dyn,
            sb_dyn_srv,
            sb,
            sb_srv,
            sb_uav,
            append_buffer,
            append_uav,
            counter_buffer,
            counter_uav,
            args,
            copy_a,
            copy_b,
            rt,
            rt_rtv,
            rt_srv,
            rt_uav,
            rt_plain,
            rt_plain_rtv,
            rt_plain_srv,
            rt_plain_uav,
            ds,
            ds_dsv,
            ds_srv,
            ds_plain,
            ds_plain_dsv,
            ds_plain_srv,
            tex,
            tex_srv,
            tex2,
            vs,
            ps,
            cs,
            layout,
            blend,
            raster,
            dss,
            sampler,
            predicate,
            occlusion,
            chain,
        );
        if let Some(info) = d.swap_chain_info(self.chain) {
            for (i, (texture, rtv)) in info.buffers.iter().enumerate() {
                out.push((format!("chain.{i}"), d.references(*texture)));
                out.push((format!("chain.{i}.rtv"), d.references(*rtv)));
            }
        }
        out
    }

    /// The first back buffer of the swap chain and its RTV.
    pub fn back_buffer(&self) -> (Texture, RenderTargetView) {
        self.device.swap_chain_info(self.chain).unwrap().buffers[0]
    }
}

pub fn context(device: &Device, semantics: Semantics) -> DeferredContext {
    named_context(device, "dc", semantics, None)
}

pub fn named_context(
    device: &Device,
    name: &str,
    semantics: Semantics,
    chunk_policy: Option<ChunkPolicy>,
) -> DeferredContext {
    device
        .create_deferred_context(&DeferredContextDesc {
            name,
            semantics,
            chunk_policy,
            ..Default::default()
        })
        .expect("create deferred context")
}

/// A vertex-buffer binding with a 16-byte stride.
pub fn vertex(buffer: Buffer) -> VertexBuffer {
    VertexBuffer {
        buffer: Some(buffer),
        stride: 16,
        offset: 0,
    }
}

/// Finishes without restore and expects success.
pub fn finish(context: &mut DeferredContext) -> CommandList {
    context
        .finish_command_list(RestoreState::ClearState)
        .unwrap_or_else(|e| panic!("finish_command_list: {e}"))
}

/// Finishes and expects the sticky error of `kind` at `call_index`.
#[track_caller]
pub fn expect_error(context: &mut DeferredContext, kind: ErrorKind, call_index: u32) {
    match context.finish_command_list(RestoreState::ClearState) {
        Ok(list) => panic!(
            "expected {kind} at call {call_index}, the list finished with {:?}",
            list.stats()
        ),
        Err(error) => {
            assert_eq!(error.kind(), kind, "{error}");
            assert_eq!(error.call_index, call_index, "{error}");
        }
    }
}

/// The split-point categories of a list in recording order, as `segments()` yields them.
pub fn segment_split_points(list: &CommandList) -> Vec<SplitCategory> {
    list.segments()
        .filter_map(|segment| match segment {
            Segment::SplitPoint(decoded) => Some(
                decoded
                    .split
                    .expect("a split-point segment carries its category"),
            ),
            _ => None,
        })
        .collect()
}

/// The split-point categories of a list in recording order, as `commands()` marks them.
pub fn command_split_points(list: &CommandList) -> Vec<SplitCategory> {
    list.commands().filter_map(|d| d.split).collect()
}

/// Debug renderings of every command, for comparisons across threads and readings.
pub fn rendered(list: &CommandList) -> Vec<String> {
    list.commands().map(|d| format!("{d:?}")).collect()
}

/// The split counts with every category at zero except those given.
pub fn counts(pairs: &[(SplitCategory, u32)]) -> SplitCounts {
    let mut counts = SplitCounts::default();
    for (category, n) in pairs {
        counts[*category] += n;
    }
    counts
}

/// Number of chunks a list's commands lie in: a command's offset restarts at the top of a chunk.
pub fn chunks_walked(list: &CommandList) -> u32 {
    let mut chunks = 1;
    let mut last = 0;
    for decoded in list.commands() {
        if decoded.offset < last {
            chunks += 1;
        }
        last = decoded.offset;
    }
    chunks
}

/// The MapWriteDiscard commands of a list: (buffer, instance, data).
pub fn write_discards(
    list: &CommandList,
) -> Vec<(RawHandle, recorder::command::InstanceId, Vec<u8>)> {
    list.commands()
        .filter_map(|d| match d.command {
            Command::MapWriteDiscard { resource, data } => {
                Some((resource.resource, resource.instance, data.to_vec()))
            }
            _ => None,
        })
        .collect()
}
