//! A device with the objects the bundle tests bind, and recorders declared for its targets.

#![allow(dead_code)]

use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use recorder::*;

pub struct Fixture {
    pub device: Device,
    /// vs reads cb 0-15, srv 0-9 and sampler 0; ps the same; cs cb 0; so_gs writes stream output.
    pub vs: Shader,
    pub ps: Shader,
    pub cs: Shader,
    pub gs: Shader,
    pub so_gs: Shader,
    pub layout: InputLayout,
    /// Default constant buffers and a dynamic one.
    pub cb: Buffer,
    pub cb2: Buffer,
    pub cb_dyn: Buffer,
    /// Immutable and dynamic vertex buffers.
    pub vb: Buffer,
    pub vb_dyn: Buffer,
    /// Default and dynamic index buffers.
    pub ib: Buffer,
    pub ib_dyn: Buffer,
    /// Indirect-argument buffers, default and dynamic.
    pub args: Buffer,
    pub args_dyn: Buffer,
    /// A plain texture's SRV, a default buffer's, a dynamic buffer's, a render target's
    /// (compressible and not) and a depth stencil's.
    pub tex_srv: ShaderResourceView,
    pub buf_srv: ShaderResourceView,
    pub buf_dyn_srv: ShaderResourceView,
    pub rt_srv: ShaderResourceView,
    pub rt_plain_srv: ShaderResourceView,
    pub ds_srv: ShaderResourceView,
    pub rt_rtv: RenderTargetView,
    pub ds_dsv: DepthStencilView,
    pub uav: UnorderedAccessView,
    pub sampler: SamplerState,
    pub blend: BlendState,
    pub raster: RasterizerState,
    pub dss: DepthStencilState,
    pub predicate: Query,
    pub chain: SwapChain,
}

impl Fixture {
    pub fn new() -> Self {
        let device = Device::new(DeviceDesc::default());
        let buffer = |name: &str, usage, bind| {
            device
                .create_buffer(&BufferDesc {
                    name,
                    size: 256,
                    usage,
                    bind,
                    uav_flag: UavFlag::None,
                    placement: None,
                })
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
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
        // The slot sets as bits: bit i, slot i.
        let shader = |name: &str, stage, cbs: u128, srvs: u128, samplers: u128, stream_output| {
            device
                .create_shader(&ShaderDesc {
                    constant_buffers: Slots::from_bits(cbs),
                    shader_resources: Slots::from_bits(srvs),
                    samplers: Slots::from_bits(samplers),
                    stream_output,
                    ..ShaderDesc::new(name, stage)
                })
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        };
        let target = BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE;
        let tex = texture("tex", Format::Bc1Unorm, BindFlags::SHADER_RESOURCE, None);
        let rt = texture("rt", Format::R8G8B8A8Unorm, target, None);
        let rt_plain = texture("rt_plain", Format::R8G8B8A8Unorm, target, Some(false));
        let ds = texture(
            "ds",
            Format::D32Float,
            BindFlags::DEPTH_STENCIL | BindFlags::SHADER_RESOURCE,
            None,
        );
        let sb = buffer(
            "sb",
            Usage::Default,
            BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS,
        );
        let sb_dyn = buffer("sb_dyn", Usage::Dynamic, BindFlags::SHADER_RESOURCE);
        Self {
            vs: shader("vs", Stage::Vertex, 0xFFFF, 0x3FF, 1, false),
            ps: shader("ps", Stage::Pixel, 0xFFFF, 0x3FF, 1, false),
            cs: shader("cs", Stage::Compute, 1, 0, 0, false),
            gs: shader("gs", Stage::Geometry, 0, 0, 0, false),
            so_gs: shader("so_gs", Stage::Geometry, 0, 0, 0, true),
            layout: device
                .create_input_layout(&InputLayoutDesc {
                    name: "layout",
                    vertex_buffers: Slots::of(&[0, 2]),
                })
                .expect("create layout"),
            cb: buffer("cb", Usage::Default, BindFlags::CONSTANT),
            cb2: buffer("cb2", Usage::Default, BindFlags::CONSTANT),
            cb_dyn: buffer("cb_dyn", Usage::Dynamic, BindFlags::CONSTANT),
            vb: buffer("vb", Usage::Immutable, BindFlags::VERTEX),
            vb_dyn: buffer("vb_dyn", Usage::Dynamic, BindFlags::VERTEX),
            ib: buffer("ib", Usage::Default, BindFlags::INDEX),
            ib_dyn: buffer("ib_dyn", Usage::Dynamic, BindFlags::INDEX),
            args: buffer("args", Usage::Default, BindFlags::NONE),
            args_dyn: buffer("args_dyn", Usage::Dynamic, BindFlags::NONE),
            tex_srv: srv("tex_srv", tex.into()),
            buf_srv: srv("buf_srv", sb.into()),
            buf_dyn_srv: srv("buf_dyn_srv", sb_dyn.into()),
            rt_srv: srv("rt_srv", rt.into()),
            rt_plain_srv: srv("rt_plain_srv", rt_plain.into()),
            ds_srv: srv("ds_srv", ds.into()),
            rt_rtv: device
                .create_render_target_view(&ViewDesc::new("rt_rtv", rt))
                .expect("create rtv"),
            ds_dsv: device
                .create_depth_stencil_view(&ViewDesc::new("ds_dsv", ds))
                .expect("create dsv"),
            uav: device
                .create_unordered_access_view(&ViewDesc::new("uav", sb))
                .expect("create uav"),
            sampler: device.create_sampler_state("sampler").expect("sampler"),
            blend: device.create_blend_state("blend").expect("blend"),
            raster: device.create_rasterizer_state("raster").expect("raster"),
            dss: device.create_depth_stencil_state("dss").expect("dss"),
            predicate: device
                .create_query("predicate", QueryKind::Predicate)
                .expect("predicate"),
            chain: device
                .create_swap_chain(&SwapChainDesc {
                    name: "chain",
                    buffers: 2,
                    format: Format::B8G8R8A8Unorm,
                    width: 64,
                    height: 64,
                })
                .expect("swap chain"),
            device,
        }
    }

    /// The declaration matching `rt_rtv` and `ds_dsv`.
    pub fn desc(&self) -> BundleDesc<'static> {
        BundleDesc {
            depth: Some(Format::D32Float),
            ..BundleDesc::new("bundle", &[Format::R8G8B8A8Unorm])
        }
    }

    /// A recorder with nothing recorded.
    pub fn recorder(&self) -> BundleRecorder {
        BundleRecorder::new(&self.device, &self.desc()).expect("bundle recorder")
    }

    /// A recorder with the mandatory state set: vs, null hs and ds, gs, ps, the layout, cs.
    pub fn ready(&self) -> BundleRecorder {
        let mut recorder = self.recorder();
        set_mandatory(self, &mut recorder);
        recorder
    }

    /// A legacy or fast deferred context.
    pub fn context(&self, semantics: Semantics) -> DeferredContext {
        self.device
            .create_deferred_context(&DeferredContextDesc {
                name: "dc",
                semantics,
                chunk_policy: None,
                engine: Engine::Graphics,
                ..Default::default()
            })
            .expect("deferred context")
    }
}

/// Sets the graphics stages, the input layout and the compute stage (R-B-3).
pub fn set_mandatory(f: &Fixture, recorder: &mut BundleRecorder) {
    recorder.set_shader(Stage::Vertex, Some(f.vs));
    recorder.set_shader(Stage::Hull, None);
    recorder.set_shader(Stage::Domain, None);
    recorder.set_shader(Stage::Geometry, Some(f.gs));
    recorder.set_shader(Stage::Pixel, Some(f.ps));
    recorder.set_input_layout(Some(f.layout));
    recorder.set_shader(Stage::Compute, Some(f.cs));
}

/// Finishes a bundle that must be accepted.
#[track_caller]
pub fn finish(recorder: &mut BundleRecorder) -> DrawBundle {
    recorder
        .finish()
        .unwrap_or_else(|e| panic!("finish bundle: {e}"))
}

/// The kind of the last refused call.
#[track_caller]
pub fn refused(recorder: &BundleRecorder) -> ErrorKind {
    recorder
        .last_refusal()
        .map(Error::kind)
        .unwrap_or_else(|| panic!("no call was refused"))
}
