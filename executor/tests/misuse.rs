//! Random API misuse, as an adversarial user would try it (R-OBJ-3, R-OBJ-5, R-REC-8,
//! R-REC-9, R-REC-12, R-V-1): released handles, handles of another device, slots and sizes out of
//! range, nesting, maps of every kind and size, copies and views across devices, bundles of
//! either device with declarations that match or not, on both semantics with validation off and
//! on. The fast extension calls of SPEC §15 too: fast resources and batches (R-FX-1; batches
//! made on one context and applied on another, naming objects released since, or built
//! unchecked), placement of resources of every usage at any address (R-FX-2), the query calls
//! and `get_data` on queries of every kind, released or foreign (R-FX-3), GDS and constant RAM
//! (R-FX-4, R-FX-5), fences that kick off, `is_resource_pending`, a title-managed legacy
//! context, and device context state objects swapped on fast and legacy contexts, across
//! devices (R-FX-6).
//!
//! What must hold, whatever the calls: nothing panics or aborts; every refusal names the call it
//! refuses (its message starts with, or contains, the call's name), says why and cites the
//! requirement it enforces by its SPEC.md id (`R-OBJ-2`, ...), and so do the errors of
//! `finish_command_list`, of a flush and of execution; a handle of the
//! other device never touches this device's object (every object the application did not release
//! on its own device is still alive at the end); the device stays usable (a clean list recorded
//! after the misuse executes and draws).
//!
//! `MISUSE_CASES=20000 cargo test --release -p executor --test misuse` is the long run.

use std::sync::atomic::{AtomicUsize, Ordering};

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use executor::ImmediateContext;
use proptest::prelude::*;
use recorder::*;

/// Sizes of the dynamic buffers: small, a typical constant buffer, one past the 32 MB a list
/// carries, 40 MB, and the largest a `u32` describes.
const DYNAMIC_SIZES: [u32; 5] = [16, 256, (32 << 20) + 1, 40 << 20, u32::MAX];

/// One device's objects, created in the same order on both devices so that their handles have
/// the same indices: a handle of the other device names an object of this one at its index.
struct Objects {
    buffers: Vec<Buffer>,
    textures: Vec<Texture>,
    srvs: Vec<ShaderResourceView>,
    uavs: Vec<UnorderedAccessView>,
    rtvs: Vec<RenderTargetView>,
    dsvs: Vec<DepthStencilView>,
    shaders: Vec<Shader>,
    samplers: Vec<SamplerState>,
    layout: InputLayout,
    blend: BlendState,
    dss: DepthStencilState,
    raster: RasterizerState,
    predicate: Query,
    /// One query of each kind (R-FX-3): occlusion, timestamp, pipeline statistics, predicate.
    queries: Vec<Query>,
    swap_chain: SwapChain,
}

fn created<T>(what: &str, result: Result<T, Error>) -> T {
    result.unwrap_or_else(|error| panic!("fixture: create {what}: {error}"))
}

impl Objects {
    fn new(device: &Device) -> Self {
        let buffer = |name: &str, size: u32, usage: Usage, bind: BindFlags| {
            let desc = BufferDesc {
                name,
                size,
                usage,
                bind,
                uav_flag: UavFlag::None,
                placement: None,
            };
            created(name, device.create_buffer(&desc))
        };
        let mut buffers = vec![
            buffer("vb", 256, Usage::Immutable, BindFlags::VERTEX),
            buffer("ib", 256, Usage::Default, BindFlags::INDEX),
            buffer("cb", 256, Usage::Default, BindFlags::CONSTANT),
            buffer("args", 256, Usage::Default, BindFlags::NONE),
            buffer("staging", 4096, Usage::Staging, BindFlags::NONE),
            buffer(
                "sb",
                1024,
                Usage::Default,
                BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS,
            ),
        ];
        for (i, size) in DYNAMIC_SIZES.into_iter().enumerate() {
            let name = format!("dyn{i}");
            buffers.push(buffer(
                &name,
                size,
                Usage::Dynamic,
                BindFlags::CONSTANT | BindFlags::VERTEX | BindFlags::SHADER_RESOURCE,
            ));
        }
        let texture = |name: &str, format, bind, texture_compatible| {
            let desc = TextureDesc {
                name,
                format,
                width: 32,
                height: 32,
                bind,
                texture_compatible,
                ..Default::default()
            };
            created(name, device.create_texture(&desc))
        };
        let target =
            BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS;
        let textures = vec![
            texture(
                "tex",
                Format::R8G8B8A8Unorm,
                BindFlags::SHADER_RESOURCE,
                false,
            ),
            texture("rt", Format::R8G8B8A8Unorm, target, false),
            texture("rt_tc", Format::R8G8B8A8Unorm, target, true),
            texture(
                "ds",
                Format::D32Float,
                BindFlags::DEPTH_STENCIL | BindFlags::SHADER_RESOURCE,
                false,
            ),
        ];
        let view = |name: &'static str, resource: Resource| ViewDesc::new(name, resource);
        let srvs = vec![
            created(
                "srv",
                device.create_shader_resource_view(&view("tex_srv", textures[0].into())),
            ),
            created(
                "srv",
                device.create_shader_resource_view(&view("rt_srv", textures[1].into())),
            ),
            created(
                "srv",
                device.create_shader_resource_view(&view("tc_srv", textures[2].into())),
            ),
            created(
                "srv",
                device.create_shader_resource_view(&view("ds_srv", textures[3].into())),
            ),
            created(
                "srv",
                device.create_shader_resource_view(&view("sb_srv", buffers[5].into())),
            ),
            created(
                "srv",
                device.create_shader_resource_view(&view("dyn_srv", buffers[7].into())),
            ),
        ];
        let uavs = vec![
            created(
                "uav",
                device.create_unordered_access_view(&view("sb_uav", buffers[5].into())),
            ),
            created(
                "uav",
                device.create_unordered_access_view(&view("rt_uav", textures[1].into())),
            ),
        ];
        let rtvs = vec![
            created(
                "rtv",
                device.create_render_target_view(&view("rt_rtv", textures[1].into())),
            ),
            created(
                "rtv",
                device.create_render_target_view(&view("tc_rtv", textures[2].into())),
            ),
        ];
        let dsvs = vec![created(
            "dsv",
            device.create_depth_stencil_view(&view("ds_dsv", textures[3].into())),
        )];
        let shader = |name: &str, stage| {
            let desc = ShaderDesc {
                constant_buffers: Slots::first(2),
                shader_resources: Slots::first(4),
                samplers: Slots::first(1),
                unordered_access_views: Slots::first(2),
                ..ShaderDesc::new(name, stage)
            };
            created(name, device.create_shader(&desc))
        };
        let shaders = vec![
            shader("vs", Stage::Vertex),
            shader("ps", Stage::Pixel),
            shader("cs", Stage::Compute),
            shader("hs", Stage::Hull),
        ];
        Self {
            buffers,
            textures,
            srvs,
            uavs,
            rtvs,
            dsvs,
            shaders,
            samplers: vec![created("sampler", device.create_sampler_state("sampler"))],
            layout: created(
                "layout",
                device.create_input_layout(&InputLayoutDesc {
                    name: "layout",
                    vertex_buffers: Slots::first(1),
                }),
            ),
            blend: created("blend", device.create_blend_state("blend")),
            dss: created("dss", device.create_depth_stencil_state("dss")),
            raster: created("raster", device.create_rasterizer_state("raster")),
            predicate: created(
                "predicate",
                device.create_query("predicate", QueryKind::Predicate),
            ),
            queries: [
                QueryKind::Occlusion,
                QueryKind::Timestamp,
                QueryKind::PipelineStatistics,
                QueryKind::Predicate,
            ]
            .into_iter()
            .map(|kind| created("query", device.create_query("query", kind)))
            .collect(),
            swap_chain: created(
                "swap chain",
                device.create_swap_chain(&SwapChainDesc {
                    name: "swap",
                    buffers: 2,
                    format: Format::R8G8B8A8Unorm,
                    width: 32,
                    height: 32,
                }),
            ),
        }
    }

    /// Every object, as (kind, raw handle), for the liveness check at the end.
    fn all(&self) -> Vec<(ObjectKind, RawHandle)> {
        let mut all = Vec::new();
        all.extend(self.buffers.iter().map(|h| (ObjectKind::Buffer, h.raw())));
        all.extend(self.textures.iter().map(|h| (ObjectKind::Texture, h.raw())));
        all.extend(
            self.srvs
                .iter()
                .map(|h| (ObjectKind::ShaderResourceView, h.raw())),
        );
        all.extend(
            self.uavs
                .iter()
                .map(|h| (ObjectKind::UnorderedAccessView, h.raw())),
        );
        all.extend(
            self.rtvs
                .iter()
                .map(|h| (ObjectKind::RenderTargetView, h.raw())),
        );
        all.extend(
            self.dsvs
                .iter()
                .map(|h| (ObjectKind::DepthStencilView, h.raw())),
        );
        all.extend(self.shaders.iter().map(|h| (ObjectKind::Shader, h.raw())));
        all.extend(
            self.samplers
                .iter()
                .map(|h| (ObjectKind::SamplerState, h.raw())),
        );
        all.extend(self.queries.iter().map(|h| (ObjectKind::Query, h.raw())));
        all
    }
}

/// A device under test, its immediate context and three deferred contexts (legacy, fast, and
/// legacy with title-managed lifetimes, R-FX-6), and the objects of the device and of a second
/// device.
struct World {
    device: Device,
    immediate: ImmediateContext,
    deferred: [DeferredContext; 3],
    own: Objects,
    /// The second device is kept alive so that its handles stay meaningful to it.
    _other_device: Device,
    other: Objects,
    lists: Vec<CommandList>,
    foreign_lists: Vec<CommandList>,
    /// Bundles of this device: one declared for an r8g8b8a8 render target and a d32 depth (a
    /// mismatch unless those are bound), one declared for no target at all.
    bundles: Vec<DrawBundle>,
    /// A bundle of the other device (refused, R-OBJ-3).
    foreign_bundles: Vec<DrawBundle>,
    /// Objects of `own` the test released on `device` (may be destroyed).
    released: Vec<(ObjectKind, RawHandle)>,
    /// Device context state objects (R-FX-6) this device's legacy contexts made.
    states: Vec<DeviceContextState>,
    /// One the other device made (a swap of it is refused).
    foreign_states: Vec<DeviceContextState>,
    /// Fast-resource batches (R-FX-1) made so far, on any context.
    batches: Vec<FastResourceBatch>,
}

impl World {
    fn new(semantics: Semantics, validation: Validation) -> Self {
        let desc = |_name: &'static str| DeviceDesc {
            immediate_semantics: semantics,
            validation,
            ..DeviceDesc::default()
        };
        let device = Device::new(desc("device_a"));
        let other_device = Device::new(desc("device_b"));
        let own = Objects::new(&device);
        let other = Objects::new(&other_device);
        let context = |name, semantics, title_managed_lifetimes| {
            created(
                name,
                device.create_deferred_context(&DeferredContextDesc {
                    name,
                    semantics,
                    title_managed_lifetimes,
                    ..Default::default()
                }),
            )
        };
        let mut foreign_context = created(
            "foreign context",
            other_device.create_deferred_context(&DeferredContextDesc {
                name: "foreign",
                semantics: Semantics::Fast,
                ..Default::default()
            }),
        );
        foreign_context.draw(3, 0);
        let mut foreign_legacy = created(
            "foreign legacy context",
            other_device.create_deferred_context(&DeferredContextDesc {
                name: "foreign_legacy",
                semantics: Semantics::Legacy,
                ..Default::default()
            }),
        );
        let foreign_states = vec![created(
            "foreign state",
            foreign_legacy.create_device_context_state(),
        )];
        let foreign_lists = vec![created_list(
            foreign_context.finish_command_list(RestoreState::ClearState),
        )];
        let bundles = vec![
            drawing_bundle(
                &device,
                &own,
                &[Format::R8G8B8A8Unorm],
                Some(Format::D32Float),
            ),
            drawing_bundle(&device, &own, &[], None),
        ];
        let foreign_bundles = vec![drawing_bundle(&other_device, &other, &[], None)];
        Self {
            immediate: created("immediate context", ImmediateContext::new(&device)),
            deferred: [
                context("legacy", Semantics::Legacy, false),
                context("fast", Semantics::Fast, false),
                context("title_managed", Semantics::Legacy, true),
            ],
            device,
            own,
            _other_device: other_device,
            other,
            lists: Vec::new(),
            foreign_lists,
            bundles,
            foreign_bundles,
            released: Vec::new(),
            states: Vec::new(),
            foreign_states,
            batches: Vec::new(),
        }
    }
}

/// A bundle of `device` that sets its mandatory state (R-B-3) and draws once.
fn drawing_bundle(
    device: &Device,
    objects: &Objects,
    render_targets: &[Format],
    depth: Option<Format>,
) -> DrawBundle {
    let desc = BundleDesc {
        depth,
        ..BundleDesc::new("bundle", render_targets)
    };
    let mut recorder = created("bundle recorder", BundleRecorder::new(device, &desc));
    recorder.set_input_layout(Some(objects.layout));
    recorder.set_shader(Stage::Vertex, Some(objects.shaders[0]));
    for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
        recorder.set_shader(stage, None);
    }
    recorder.set_shader(Stage::Pixel, Some(objects.shaders[1]));
    recorder.draw(3, 0);
    recorder
        .finish()
        .unwrap_or_else(|error| panic!("fixture: finish bundle: {error}"))
}

fn created_list(result: Result<CommandList, RecordError>) -> CommandList {
    result.unwrap_or_else(|error| panic!("fixture: finish: {error}"))
}

/// Which object a call names: one of this device's (maybe released) or the other device's.
#[derive(Clone, Copy, Debug)]
struct Pick {
    foreign: bool,
    index: u8,
}

fn pick() -> impl Strategy<Value = Pick> {
    (prop::bool::weighted(0.2), any::<u8>()).prop_map(|(foreign, index)| Pick { foreign, index })
}

impl Pick {
    fn of<T: Copy>(self, own: &[T], other: &[T]) -> T {
        let from = if self.foreign { other } else { own };
        from[self.index as usize % from.len()]
    }
}

/// Offsets, sizes and coordinates of region copies: small, at a typical edge, past it, huge.
fn region_number() -> impl Strategy<Value = u64> {
    prop_oneof![3 => 0u64..40, 1 => 60u64..70, 1 => 250u64..260, 1 => Just(u64::MAX)]
}

/// A decompression region's numbers: small, at a texture's edge, past it, `u32::MAX`.
fn extreme() -> impl Strategy<Value = u32> {
    prop_oneof![3 => 0u32..20, 1 => 60u32..70, 1 => Just(u32::MAX)]
}

/// Slots: mostly in range, sometimes past every stage's limit or at `u32::MAX`.
fn slot() -> impl Strategy<Value = u32> {
    prop_oneof![6 => 0u32..4, 1 => 14u32..18, 1 => 120u32..140, 1 => Just(u32::MAX)]
}

#[derive(Clone, Debug)]
enum Op {
    ConstantBuffer {
        context: u8,
        stage: u8,
        slot: u32,
        buffer: Option<Pick>,
    },
    ShaderResource {
        context: u8,
        stage: u8,
        slot: u32,
        view: Option<Pick>,
    },
    VertexBuffer {
        context: u8,
        slot: u32,
        buffer: Pick,
    },
    IndexBuffer {
        context: u8,
        buffer: Pick,
        offset: u32,
    },
    Sampler {
        context: u8,
        slot: u32,
        sampler: Pick,
    },
    Shader {
        context: u8,
        shader: Pick,
        stage: u8,
    },
    RenderTarget {
        context: u8,
        rtv: Option<Pick>,
        dsv: Option<Pick>,
    },
    ComputeUav {
        context: u8,
        slot: u32,
        uav: Pick,
    },
    States {
        context: u8,
        foreign: bool,
    },
    Map {
        context: u8,
        buffer: Pick,
        map_type: u8,
        allow_usage_default: bool,
        write: bool,
    },
    Unmap {
        context: u8,
        buffer: Pick,
    },
    UpdateSubresource {
        context: u8,
        resource: Pick,
        len: u16,
    },
    Copy {
        context: u8,
        destination: Pick,
        source: Pick,
    },
    /// `copy_buffer_region` or `copy_texture_region` (R-BAR-7): self-copies, overlaps, ranges
    /// past the resource and past an address space, released and foreign resources.
    RegionCopy {
        context: u8,
        texture: bool,
        destination: Pick,
        source: Pick,
        offsets: (u64, u64),
        bytes: u64,
    },
    Clear {
        context: u8,
        rtv: Pick,
        dsv: Pick,
    },
    Compression {
        context: u8,
        texture: Pick,
        /// 0: `set_resource_compression`; 1: `decompress_resource`; 2 and 3:
        /// `decompress_resource_x` with kinds and an extreme region (R-ST-9).
        mode: u8,
        kinds: u8,
        region: [u32; 5],
    },
    /// `place_swap_chain_view` of any render-target view, own or the other device's (R-EX-7).
    PlaceView {
        view: Pick,
        index: u32,
    },
    Draw {
        context: u8,
        kind: u8,
    },
    DrawIndirect {
        context: u8,
        args: Pick,
        offset: u32,
    },
    Predication {
        context: u8,
        foreign: bool,
    },
    CreateView {
        resource: Pick,
        kind: u8,
    },
    Release {
        object: Pick,
        kind: u8,
        on_other_device: bool,
    },
    Finish {
        context: u8,
        restore: bool,
    },
    Execute {
        context: u8,
        list: u8,
        restore: bool,
        foreign: bool,
    },
    Nest {
        depth: u16,
        semantics: bool,
    },
    Present {
        foreign: bool,
    },
    DrawBundle {
        context: u8,
        bundle: u8,
        foreign: bool,
    },
    WaitOnPresent {
        context: u8,
        foreign: bool,
    },
    /// GDS and constant RAM (R-FX-4, R-FX-5): 0 `set_gds_range` (any stage), 1 `write_gds`,
    /// 2 `read_gds`, 3 `load_constant_ram`, 4 `store_constant_ram`; offsets and sizes in and
    /// out of range, released and foreign buffers.
    GdsOrConstantRam {
        context: u8,
        kind: u8,
        buffer: Pick,
        offsets: (u64, u64),
        bytes: u64,
    },
    ClearState {
        context: u8,
    },
    /// R-FX-1: entries (kind 0 constant buffer, 1 view, 2 sampler, 3 vertex buffer; stage,
    /// slot, object), bound by `how`: 0 `set_fast_resources`, 1 into a new batch on `context`
    /// then (after `release`, if any) applied on `apply`, 2 applied from a batch built
    /// unchecked, 3 an earlier batch applied on `apply`.
    Fast {
        context: u8,
        entries: Vec<(u8, u8, u32, Option<Pick>)>,
        how: u8,
        apply: u8,
        release: Option<Pick>,
    },
    /// R-FX-1: `set_fast_shader_resource`.
    FastShaderResource {
        context: u8,
        stage: u8,
        slot: u32,
        view: Option<Pick>,
    },
    /// R-FX-2: kind 0 view, 1 constant buffer, 2 vertex buffer, 3 index buffer; any buffer (of
    /// every usage) or view, any address.
    Placement {
        context: u8,
        kind: u8,
        stage: u8,
        slot: u32,
        object: Pick,
        address: u64,
    },
    /// R-FX-3: 0 `begin_query`, 1 `end_query`, 2 `write_query`, 3 `reset_query`,
    /// 4 `configure_query`, 5 `set_predication_from_query`, 6 `get_data` (immediate context);
    /// a query of either device (foreign with `query.foreign`).
    Query {
        context: u8,
        kind: u8,
        query: Pick,
        binary: bool,
    },
    /// R-FX-6: `insert_fence_with` (kick-off or not, any engine).
    Fence {
        context: u8,
        engine: u8,
        kick_off: bool,
    },
    /// R-FX-6: `is_resource_pending` of any buffer or texture, released or foreign.
    Pending {
        resource: Pick,
        texture: bool,
    },
    /// R-FX-6: `create_device_context_state` (`state` None) on any context, fast ones included,
    /// or a swap of state `state` (of this device or, `foreign`, of the other) on the
    /// immediate context (the one context with the call).
    ContextState {
        context: u8,
        state: Option<u8>,
        foreign: bool,
    },
}

/// Placement addresses: small, aligned or not, the largest an instance holds, past it.
fn address() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => (0u64..16).prop_map(|k| k * 0x1000),
        1 => any::<u64>(),
        1 => Just((1u64 << 62) - 1),
        1 => Just(1u64 << 62),
        1 => Just(u64::MAX),
    ]
}

fn fast_entries() -> impl Strategy<Value = Vec<(u8, u8, u32, Option<Pick>)>> {
    let entry = (0u8..4, 0u8..6, slot(), prop::option::weighted(0.85, pick()));
    prop::collection::vec(entry, 0..5)
}

fn op() -> impl Strategy<Value = Op> {
    let context = 0u8..4;
    let stage = 0u8..6;
    prop_oneof![
        3 => (context.clone(), stage.clone(), slot(), prop::option::weighted(0.9, pick()))
            .prop_map(|(context, stage, slot, buffer)| Op::ConstantBuffer { context, stage, slot, buffer }),
        3 => (context.clone(), stage.clone(), slot(), prop::option::weighted(0.9, pick()))
            .prop_map(|(context, stage, slot, view)| Op::ShaderResource { context, stage, slot, view }),
        1 => (context.clone(), slot(), pick()).prop_map(|(context, slot, buffer)| Op::VertexBuffer { context, slot, buffer }),
        1 => (context.clone(), pick(), prop_oneof![Just(0u32), Just(u32::MAX)])
            .prop_map(|(context, buffer, offset)| Op::IndexBuffer { context, buffer, offset }),
        1 => (context.clone(), slot(), pick()).prop_map(|(context, slot, sampler)| Op::Sampler { context, slot, sampler }),
        2 => (context.clone(), pick(), stage.clone()).prop_map(|(context, shader, stage)| Op::Shader { context, shader, stage }),
        2 => (context.clone(), prop::option::weighted(0.8, pick()), prop::option::weighted(0.5, pick()))
            .prop_map(|(context, rtv, dsv)| Op::RenderTarget { context, rtv, dsv }),
        1 => (context.clone(), slot(), pick()).prop_map(|(context, slot, uav)| Op::ComputeUav { context, slot, uav }),
        1 => (context.clone(), any::<bool>()).prop_map(|(context, foreign)| Op::States { context, foreign }),
        4 => (context.clone(), pick(), 0u8..5, any::<bool>(), any::<bool>())
            .prop_map(|(context, buffer, map_type, allow_usage_default, write)| Op::Map { context, buffer, map_type, allow_usage_default, write }),
        2 => (context.clone(), pick()).prop_map(|(context, buffer)| Op::Unmap { context, buffer }),
        1 => (context.clone(), pick(), any::<u16>())
            .prop_map(|(context, resource, len)| Op::UpdateSubresource { context, resource, len }),
        1 => (context.clone(), pick(), pick())
            .prop_map(|(context, destination, source)| Op::Copy { context, destination, source }),
        1 => (context.clone(), any::<bool>(), pick(), pick(), (region_number(), region_number()), region_number())
            .prop_map(|(context, texture, destination, source, offsets, bytes)| Op::RegionCopy { context, texture, destination, source, offsets, bytes }),
        1 => (context.clone(), pick(), pick()).prop_map(|(context, rtv, dsv)| Op::Clear { context, rtv, dsv }),
        1 => (context.clone(), pick(), 0u8..4, 0u8..32, [extreme(), extreme(), extreme(), extreme(), extreme()])
            .prop_map(|(context, texture, mode, kinds, region)| Op::Compression { context, texture, mode, kinds, region }),
        1 => (pick(), prop_oneof![Just(0u32), Just(1u32), Just(2u32), Just(u32::MAX)])
            .prop_map(|(view, index)| Op::PlaceView { view, index }),
        4 => (context.clone(), 0u8..4).prop_map(|(context, kind)| Op::Draw { context, kind }),
        1 => (context.clone(), pick(), prop_oneof![Just(0u32), Just(252u32), Just(u32::MAX)])
            .prop_map(|(context, args, offset)| Op::DrawIndirect { context, args, offset }),
        1 => (context.clone(), any::<bool>()).prop_map(|(context, foreign)| Op::Predication { context, foreign }),
        1 => (pick(), 0u8..6).prop_map(|(resource, kind)| Op::CreateView { resource, kind }),
        2 => (pick(), 0u8..7, prop::bool::weighted(0.3))
            .prop_map(|(object, kind, on_other_device)| Op::Release { object, kind, on_other_device }),
        3 => (1u8..4, any::<bool>()).prop_map(|(context, restore)| Op::Finish { context, restore }),
        3 => (context.clone(), any::<u8>(), any::<bool>(), prop::bool::weighted(0.15))
            .prop_map(|(context, list, restore, foreign)| Op::Execute { context, list, restore, foreign }),
        1 => (1u16..400, any::<bool>()).prop_map(|(depth, semantics)| Op::Nest { depth, semantics }),
        1 => any::<bool>().prop_map(|foreign| Op::Present { foreign }),
        1 => (context.clone(), any::<u8>(), prop::bool::weighted(0.2))
            .prop_map(|(context, bundle, foreign)| Op::DrawBundle { context, bundle, foreign }),
        1 => (context.clone(), any::<bool>()).prop_map(|(context, foreign)| Op::WaitOnPresent { context, foreign }),
        1 => (context.clone(), 0u8..5, pick(), (region_number(), region_number()), region_number())
            .prop_map(|(context, kind, buffer, offsets, bytes)| Op::GdsOrConstantRam { context, kind, buffer, offsets, bytes }),
        1 => context.clone().prop_map(|context| Op::ClearState { context }),
        3 => (context.clone(), fast_entries(), 0u8..4, context.clone(), prop::option::weighted(0.3, pick()))
            .prop_map(|(context, entries, how, apply, release)| Op::Fast { context, entries, how, apply, release }),
        1 => (context.clone(), stage.clone(), slot(), prop::option::weighted(0.9, pick()))
            .prop_map(|(context, stage, slot, view)| Op::FastShaderResource { context, stage, slot, view }),
        2 => (context.clone(), 0u8..4, stage.clone(), slot(), pick(), address())
            .prop_map(|(context, kind, stage, slot, object, address)| Op::Placement { context, kind, stage, slot, object, address }),
        2 => (context.clone(), 0u8..7, pick(), any::<bool>())
            .prop_map(|(context, kind, query, binary)| Op::Query { context, kind, query, binary }),
        1 => (context.clone(), 0u8..3, any::<bool>())
            .prop_map(|(context, engine, kick_off)| Op::Fence { context, engine, kick_off }),
        1 => (pick(), any::<bool>()).prop_map(|(resource, texture)| Op::Pending { resource, texture }),
        1 => (context, prop::option::weighted(0.6, any::<u8>()), prop::bool::weighted(0.2))
            .prop_map(|(context, state, foreign)| Op::ContextState { context, state, foreign }),
    ]
}

const STAGES: [Stage; 6] = [
    Stage::Vertex,
    Stage::Hull,
    Stage::Domain,
    Stage::Geometry,
    Stage::Pixel,
    Stage::Compute,
];

const MAP_TYPES: [MapType; 5] = [
    MapType::WriteDiscard,
    MapType::WriteNoOverwrite,
    MapType::Read,
    MapType::Write,
    MapType::ReadWrite,
];

/// Refusals checked so far, over all cases (to show the test sees refusals at all).
static REFUSALS: AtomicUsize = AtomicUsize::new(0);

/// A refusal must name its call and say more than that. A call that submits work (execute,
/// present, flush) also reports, under validation, the violations found as that work ran
/// (R-V-1): those name the call inside the work that made them.
fn check_refusal(call: &str, error: &Error) {
    let message = error.to_string();
    let found_as_work_ran = matches!(
        error.kind(),
        ErrorKind::CompressedRead | ErrorKind::MissingWaitOnPresent | ErrorKind::Hazard
    );
    assert!(
        found_as_work_ran || message.contains(call),
        "a refusal of {call} does not name the call: {message}"
    );
    assert!(
        message.len() > call.len() + 20,
        "a refusal of {call} does not say why: {message}"
    );
    check_cites_requirement(&message);
    REFUSALS.fetch_add(1, Ordering::Relaxed);
}

/// Runs one call on a recording context and checks the refusal it made, if it made a new one.
/// `calls` are the names the refusal may carry (a bind reports the method it was called as).
/// Runs `call` on context `which` of `world` (0: the immediate context, 1 to 3: the deferred
/// ones) and checks the refusal it made, if any (see `check_call`).
macro_rules! on_context {
    ($world:expr, $which:expr, $calls:expr, |$c:ident| $body:expr $(,)?) => {
        match $which {
            0 => check_call(&mut $world.immediate, $calls, |$c| $body),
            1 => check_call(&mut $world.deferred[0], $calls, |$c| $body),
            2 => check_call(&mut $world.deferred[1], $calls, |$c| $body),
            _ => check_call(&mut $world.deferred[2], $calls, |$c| $body),
        }
    };
}

fn check_call<C: DeviceContext>(context: &mut C, calls: &[&str], call: impl FnOnce(&mut C)) {
    let before = context.last_refusal().cloned();
    call(context);
    let after = context.last_refusal().cloned();
    if let Some(error) = after.filter(|after| Some(after) != before.as_ref()) {
        let message = error.to_string();
        assert!(
            calls.iter().any(|call| message.contains(call)),
            "a refusal of {calls:?} does not name the call: {message}"
        );
        check_cites_requirement(&message);
        REFUSALS.fetch_add(1, Ordering::Relaxed);
    }
}

impl World {
    /// Deferred context `which` (1 to 3; the immediate context, 0, has no list of its own).
    fn deferred(&mut self, which: u8) -> &mut DeferredContext {
        match which {
            1 => &mut self.deferred[0],
            2 => &mut self.deferred[1],
            _ => &mut self.deferred[2],
        }
    }

    fn apply(&mut self, op: &Op) {
        let (own, other) = (&self.own, &self.other);
        match *op {
            Op::ConstantBuffer {
                context,
                stage,
                slot,
                buffer,
            } => {
                let buffer = buffer.map(|p| p.of(&own.buffers, &other.buffers));
                on_context!(self, context, &["set_constant_buffers"], |c| {
                    c.set_constant_buffers(STAGES[stage as usize], slot, &[buffer])
                });
            }
            Op::ShaderResource {
                context,
                stage,
                slot,
                view,
            } => {
                let view = view.map(|p| p.of(&own.srvs, &other.srvs));
                on_context!(self, context, &["set_shader_resources"], |c| {
                    c.set_shader_resources(STAGES[stage as usize], slot, &[view])
                });
            }
            Op::VertexBuffer {
                context,
                slot,
                buffer,
            } => {
                let buffer = Some(buffer.of(&own.buffers, &other.buffers));
                on_context!(self, context, &["set_vertex_buffers"], |c| {
                    c.set_vertex_buffers(
                        slot,
                        &[VertexBuffer {
                            buffer,
                            stride: 16,
                            offset: 0,
                        }],
                    )
                });
            }
            Op::IndexBuffer {
                context,
                buffer,
                offset,
            } => {
                let buffer = Some(buffer.of(&own.buffers, &other.buffers));
                on_context!(self, context, &["set_index_buffer"], |c| {
                    c.set_index_buffer(buffer, Format::R16Uint, offset)
                });
            }
            Op::Sampler {
                context,
                slot,
                sampler,
            } => {
                let sampler = Some(sampler.of(&own.samplers, &other.samplers));
                on_context!(self, context, &["set_samplers"], |c| {
                    c.set_samplers(Stage::Pixel, slot, &[sampler])
                });
            }
            Op::Shader {
                context,
                shader,
                stage,
            } => {
                let shader = Some(shader.of(&own.shaders, &other.shaders));
                on_context!(self, context, &["set_shader"], |c| {
                    c.set_shader(STAGES[stage as usize], shader)
                });
            }
            Op::RenderTarget { context, rtv, dsv } => {
                let rtv = rtv.map(|p| p.of(&own.rtvs, &other.rtvs));
                let dsv = dsv.map(|p| p.of(&own.dsvs, &other.dsvs));
                on_context!(self, context, &["set_render_targets"], |c| {
                    c.set_render_targets(&[rtv], dsv)
                });
            }
            Op::ComputeUav { context, slot, uav } => {
                let uav = Some(uav.of(&own.uavs, &other.uavs));
                on_context!(
                    self,
                    context,
                    &["set_compute_unordered_access_views"],
                    |c| c.set_compute_unordered_access_views(slot, &[uav]),
                );
            }
            Op::States { context, foreign } => {
                let states = if foreign { other } else { own };
                let (layout, blend, dss, raster) =
                    (states.layout, states.blend, states.dss, states.raster);
                let calls = [
                    "set_input_layout",
                    "set_blend_state",
                    "set_depth_stencil_state",
                    "set_rasterizer_state",
                ];
                on_context!(self, context, &calls, |c| {
                    c.set_input_layout(Some(layout));
                    c.set_blend_state(Some(blend), [1.0; 4], u32::MAX);
                    c.set_depth_stencil_state(Some(dss), 0);
                    c.set_rasterizer_state(Some(raster));
                });
            }
            Op::Map {
                context,
                buffer,
                map_type,
                allow_usage_default,
                write,
            } => {
                let buffer = buffer.of(&own.buffers, &other.buffers);
                let map_type = MAP_TYPES[map_type as usize];
                if context == 0 {
                    match self
                        .immediate
                        .map(
                            buffer,
                            map_type,
                            if allow_usage_default {
                                MapFlags::AllowUsageDefault
                            } else {
                                MapFlags::None
                            },
                        )
                        .map(Mapped::keep_mapped)
                    {
                        Ok(data) => {
                            if write {
                                if let Some(byte) = data.last_mut() {
                                    *byte = 0xAB;
                                }
                            }
                        }
                        Err(error) => check_refusal("map", &error),
                    }
                } else {
                    check_call(self.deferred(context), &["map"], |c| {
                        if let Ok(data) = c
                            .map(
                                buffer,
                                map_type,
                                if allow_usage_default {
                                    MapFlags::AllowUsageDefault
                                } else {
                                    MapFlags::None
                                },
                            )
                            .map(Mapped::keep_mapped)
                        {
                            if write {
                                if let Some(byte) = data.first_mut() {
                                    *byte = 0xCD;
                                }
                            }
                        }
                    });
                }
            }
            Op::Unmap { context, buffer } => {
                let buffer = buffer.of(&own.buffers, &other.buffers);
                if context == 0 {
                    self.immediate.unmap(buffer);
                } else {
                    check_call(self.deferred(context), &["unmap"], |c| c.unmap(buffer));
                }
            }
            Op::UpdateSubresource {
                context,
                resource,
                len,
            } => {
                let resource = resource.of(&own.buffers, &other.buffers);
                let data = vec![7u8; len as usize];
                on_context!(self, context, &["update_subresource"], |c| {
                    c.update_subresource(resource, &data)
                });
            }
            Op::Copy {
                context,
                destination,
                source,
            } => {
                let destination: Resource = destination.of(&own.textures, &other.textures).into();
                let source: Resource = if source.index % 2 == 0 {
                    source.of(&own.textures, &other.textures).into()
                } else {
                    source.of(&own.buffers, &other.buffers).into()
                };
                on_context!(self, context, &["copy_resource"], |c| {
                    c.copy_resource(destination, source)
                });
            }
            Op::RegionCopy {
                context,
                texture,
                destination,
                source,
                offsets: (a, b),
                bytes,
            } => {
                if texture {
                    let destination = destination.of(&own.textures, &other.textures);
                    let source = source.of(&own.textures, &other.textures);
                    let small = |n: u64| n.min(u32::MAX as u64) as u32;
                    let source_box = CopyBox {
                        left: small(b),
                        top: small(a),
                        right: small(b.saturating_add(bytes)),
                        bottom: small(a.saturating_add(bytes)),
                    };
                    on_context!(self, context, &["copy_texture_region"], |c| {
                        c.copy_texture_region(
                            destination,
                            0,
                            small(a),
                            small(b),
                            source,
                            (bytes % 3) as u32,
                            source_box,
                        )
                    });
                } else {
                    let destination = destination.of(&own.buffers, &other.buffers);
                    let source = source.of(&own.buffers, &other.buffers);
                    on_context!(self, context, &["copy_buffer_region"], |c| {
                        c.copy_buffer_region(destination, a, source, b, bytes)
                    });
                }
            }
            Op::Clear { context, rtv, dsv } => {
                let rtv = rtv.of(&own.rtvs, &other.rtvs);
                let dsv = dsv.of(&own.dsvs, &other.dsvs);
                let calls = ["clear_render_target_view", "clear_depth_stencil_view"];
                on_context!(self, context, &calls, |c| {
                    c.clear_render_target_view(rtv, [0.0; 4]);
                    c.clear_depth_stencil_view(dsv, ClearFlags::DEPTH, 1.0, 0);
                });
            }
            Op::Compression {
                context,
                texture,
                mode,
                kinds,
                region,
            } => {
                let texture = texture.of(&own.textures, &other.textures);
                let calls = ["decompress_resource", "set_resource_compression"];
                let [subresource, left, top, right, bottom] = region;
                let region = DecompressRegion {
                    subresource,
                    rect: CopyBox {
                        left,
                        top,
                        right,
                        bottom,
                    },
                };
                on_context!(self, context, &calls, |c| match mode {
                    0 => c.set_resource_compression(texture, Compression::Compressed),
                    1 => c.decompress_resource(texture, None),
                    _ => c.decompress_resource_x(
                        texture,
                        None,
                        DecompressKinds::from_bits(kinds),
                        (mode == 3).then_some(region),
                    ),
                });
            }
            Op::PlaceView { view, index } => {
                let foreign = view.foreign;
                let view = view.of(&own.rtvs, &other.rtvs);
                match self.device.place_swap_chain_view(view, index) {
                    Ok(()) if foreign => panic!("place_swap_chain_view took another device's view"),
                    Ok(()) => {}
                    Err(error) => check_refusal("place_swap_chain_view", &error),
                }
            }
            Op::Draw { context, kind } => {
                let calls = ["draw", "dispatch"];
                on_context!(self, context, &calls, |c| match kind {
                    0 => c.draw(3, 0),
                    1 => c.draw_indexed(3, 0, 0),
                    2 => c.draw_instanced(u32::MAX, u32::MAX, u32::MAX, u32::MAX),
                    _ => c.dispatch(1, 1, 1),
                });
            }
            Op::DrawIndirect {
                context,
                args,
                offset,
            } => {
                let args = args.of(&own.buffers, &other.buffers);
                let calls = ["draw_instanced_indirect", "dispatch_indirect"];
                on_context!(self, context, &calls, |c| {
                    c.draw_instanced_indirect(args, offset);
                    c.dispatch_indirect(args, offset);
                });
            }
            Op::Predication { context, foreign } => {
                let predicate = if foreign {
                    other.predicate
                } else {
                    own.predicate
                };
                on_context!(self, context, &["set_predication"], |c| {
                    c.set_predication(Some(predicate), PredicateValue::True)
                });
            }
            Op::CreateView { resource, kind } => {
                let resource: Resource = if resource.index % 3 == 0 {
                    resource.of(&own.buffers, &other.buffers).into()
                } else {
                    resource.of(&own.textures, &other.textures).into()
                };
                let desc = ViewDesc::new("view", resource);
                let (call, result) = match kind {
                    0 => (
                        "create_shader_resource_view",
                        self.device
                            .create_shader_resource_view(&desc)
                            .map(|h| h.raw()),
                    ),
                    1 => (
                        "create_unordered_access_view",
                        self.device
                            .create_unordered_access_view(&desc)
                            .map(|h| h.raw()),
                    ),
                    2 => (
                        "create_render_target_view",
                        self.device
                            .create_render_target_view(&desc)
                            .map(|h| h.raw()),
                    ),
                    // A composed descriptor (seed 000), with its own minimum LOD or an invalid one.
                    4 | 5 => (
                        "compose_shader_resource_view",
                        self.device
                            .compose_shader_resource_view(&ViewDesc {
                                min_lod: [Some(1.5), Some(f32::NAN)][(kind - 4) as usize],
                                ..desc
                            })
                            .map(|h| h.raw()),
                    ),
                    _ => (
                        "create_depth_stencil_view",
                        self.device
                            .create_depth_stencil_view(&desc)
                            .map(|h| h.raw()),
                    ),
                };
                match result {
                    Ok(_) if resource_is_foreign(resource, own) => {
                        panic!("{call} accepted a resource of the other device")
                    }
                    Ok(_) => {}
                    Err(error) => check_refusal(call, &error),
                }
            }
            Op::Release {
                object,
                kind,
                on_other_device,
            } => {
                let (kind, raw) = match kind {
                    0 => (
                        ObjectKind::Buffer,
                        object.of(&own.buffers, &other.buffers).raw(),
                    ),
                    1 => (
                        ObjectKind::Texture,
                        object.of(&own.textures, &other.textures).raw(),
                    ),
                    2 => (
                        ObjectKind::ShaderResourceView,
                        object.of(&own.srvs, &other.srvs).raw(),
                    ),
                    3 => (
                        ObjectKind::RenderTargetView,
                        object.of(&own.rtvs, &other.rtvs).raw(),
                    ),
                    4 => (
                        ObjectKind::Shader,
                        object.of(&own.shaders, &other.shaders).raw(),
                    ),
                    5 => (
                        ObjectKind::Query,
                        object.of(&own.queries, &other.queries).raw(),
                    ),
                    _ => (
                        ObjectKind::SamplerState,
                        object.of(&own.samplers, &other.samplers).raw(),
                    ),
                };
                // A handle of the other device released on this one, or one of this device's
                // released on the other (`on_other_device`): neither may touch an object of
                // this device.
                if object.foreign && !on_other_device {
                    release_raw(&self.device, kind, raw);
                } else if !object.foreign && on_other_device {
                    release_raw(&self._other_device, kind, raw);
                } else if !object.foreign {
                    release_raw(&self.device, kind, raw);
                    self.released.push((kind, raw));
                }
            }
            Op::Finish { context, restore } => {
                // The immediate context has no list to finish: no such call (R-EX-1).
                if context == 0 {
                    return;
                }
                let restore = if restore {
                    RestoreState::Restore
                } else {
                    RestoreState::ClearState
                };
                match self.deferred(context).finish_command_list(restore) {
                    Ok(list) => self.lists.push(list),
                    // The list's sticky error names the call it refused, a refusal of the
                    // finish itself names finish_command_list: either way, with its rule.
                    Err(error) => check_cites_requirement(&error.to_string()),
                }
            }
            Op::Execute {
                context,
                list,
                restore,
                foreign,
            } => {
                let lists = if foreign {
                    &self.foreign_lists
                } else {
                    &self.lists
                };
                let Some(list) = lists.get(list as usize % lists.len().max(1)).cloned() else {
                    return;
                };
                if context == 0 {
                    if let Err(error) = self.immediate.execute_command_list(
                        &list,
                        if restore {
                            RestoreState::Restore
                        } else {
                            RestoreState::ClearState
                        },
                    ) {
                        check_refusal("execute_command_list", &error);
                    }
                } else {
                    check_call(self.deferred(context), &["execute_command_list"], |c| {
                        c.execute_command_list(
                            &list,
                            if restore {
                                RestoreState::Restore
                            } else {
                                RestoreState::ClearState
                            },
                        )
                    });
                }
            }
            Op::Nest { depth, semantics } => {
                let semantics = if semantics {
                    Semantics::Legacy
                } else {
                    Semantics::Fast
                };
                let mut context = created(
                    "nesting context",
                    self.device.create_deferred_context(&DeferredContextDesc {
                        name: "nest",
                        semantics,
                        ..Default::default()
                    }),
                );
                context.draw(3, 0);
                let mut list = context.finish_command_list(RestoreState::ClearState);
                for _ in 1..depth {
                    let Ok(inner) = list else { break };
                    context.execute_command_list(&inner, RestoreState::ClearState);
                    list = context.finish_command_list(RestoreState::ClearState);
                }
                if let Ok(list) = list {
                    if let Err(error) = self
                        .immediate
                        .execute_command_list(&list, RestoreState::ClearState)
                    {
                        check_refusal("execute_command_list", &error);
                    }
                    self.lists.push(list);
                }
            }
            Op::Present { foreign } => {
                let chain = if foreign {
                    other.swap_chain
                } else {
                    own.swap_chain
                };
                match self.immediate.present(chain) {
                    Err(error) => check_refusal("present", &error),
                    Ok(()) if foreign => {
                        panic!("present accepted a swap chain of the other device")
                    }
                    Ok(()) => {}
                }
            }
            Op::WaitOnPresent { context, foreign } => {
                let chain = if foreign {
                    other.swap_chain
                } else {
                    own.swap_chain
                };
                on_context!(self, context, &["insert_wait_on_present"], |c| {
                    c.insert_wait_on_present(chain)
                });
            }
            Op::GdsOrConstantRam {
                context,
                kind,
                buffer,
                offsets: (a, b),
                bytes,
            } => {
                let buffer = buffer.of(&own.buffers, &other.buffers);
                let small = |n: u64| n.min(u32::MAX as u64) as u32;
                let (a, n) = (small(a), small(bytes));
                match kind {
                    0 => on_context!(self, context, &["set_gds_range"], |c| {
                        c.set_gds_range(STAGES[a as usize % STAGES.len()], a, n)
                    }),
                    1 => on_context!(self, context, &["write_gds"], |c| {
                        c.write_gds(a, &vec![7; (bytes % 64) as usize])
                    }),
                    2 => on_context!(self, context, &["read_gds"], |c| {
                        c.read_gds(a, n, buffer, b)
                    }),
                    3 => on_context!(self, context, &["load_constant_ram"], |c| {
                        c.load_constant_ram(buffer, b, a, n)
                    }),
                    _ => on_context!(self, context, &["store_constant_ram"], |c| {
                        c.store_constant_ram(buffer, b, a, n)
                    }),
                }
            }
            Op::DrawBundle {
                context,
                bundle,
                foreign,
            } => {
                let bundles = if foreign {
                    &self.foreign_bundles
                } else {
                    &self.bundles
                };
                let Some(bundle) = bundles.get(bundle as usize % bundles.len()).cloned() else {
                    return;
                };
                if context == 0 {
                    match self.immediate.draw_bundle(&bundle) {
                        Err(error) => check_refusal("draw_bundle", &error),
                        Ok(()) if foreign => {
                            panic!("draw_bundle accepted a bundle of the other device")
                        }
                        Ok(()) => {}
                    }
                } else {
                    check_call(self.deferred(context), &["draw_bundle"], |c| {
                        c.draw_bundle(&bundle)
                    });
                }
            }
            Op::ClearState { context } => {
                on_context!(self, context, &["clear_state"], |c| c.clear_state());
            }
            Op::Fast {
                context,
                ref entries,
                how,
                apply,
                release,
            } => {
                let entries: Vec<FastResource> = entries
                    .iter()
                    .map(|&(kind, stage, slot, object)| {
                        let stage = STAGES[stage as usize];
                        match kind {
                            0 => FastResource::ConstantBuffer {
                                stage,
                                slot,
                                buffer: object.map(|p| p.of(&own.buffers, &other.buffers)),
                            },
                            1 => FastResource::ShaderResource {
                                stage,
                                slot,
                                view: object.map(|p| p.of(&own.srvs, &other.srvs)),
                            },
                            2 => FastResource::Sampler {
                                stage,
                                slot,
                                sampler: object.map(|p| p.of(&own.samplers, &other.samplers)),
                            },
                            _ => FastResource::VertexBuffer {
                                slot,
                                buffer: VertexBuffer {
                                    buffer: object.map(|p| p.of(&own.buffers, &other.buffers)),
                                    stride: 16,
                                    offset: 0,
                                },
                            },
                        }
                    })
                    .collect();
                const FROM: &str = "set_fast_resources_from_batch";
                match how {
                    0 => on_context!(self, context, &["set_fast_resources"], |c| {
                        c.set_fast_resources(&entries)
                    }),
                    1 => {
                        let mut batch = FastResourceBatch::new();
                        on_context!(self, context, &["set_fast_resources_into_batch"], |c| {
                            c.set_fast_resources_into_batch(&mut batch, &entries)
                        });
                        // An object released between the batch and its use (R-FX-1: applying
                        // checks every entry again).
                        if let Some(object) = release.filter(|p| !p.foreign) {
                            let buffer = object.of(&own.buffers, &other.buffers);
                            self.device.release(buffer);
                            self.released.push((ObjectKind::Buffer, buffer.raw()));
                        }
                        on_context!(self, apply, &[FROM], |c| {
                            c.set_fast_resources_from_batch(&batch)
                        });
                        self.batches.push(batch);
                    }
                    // Unchecked (as the trace replay builds its batches): foreign handles and
                    // slots out of range reach the apply.
                    2 => {
                        let batch = FastResourceBatch::from(entries);
                        on_context!(self, apply, &[FROM], |c| {
                            c.set_fast_resources_from_batch(&batch)
                        });
                    }
                    _ => {
                        let index = entries.len() % self.batches.len().max(1);
                        if let Some(batch) = self.batches.get(index).cloned() {
                            on_context!(self, apply, &[FROM], |c| {
                                c.set_fast_resources_from_batch(&batch)
                            });
                        }
                    }
                }
            }
            Op::FastShaderResource {
                context,
                stage,
                slot,
                view,
            } => {
                let view = view.map(|p| p.of(&own.srvs, &other.srvs));
                on_context!(self, context, &["set_fast_shader_resource"], |c| {
                    c.set_fast_shader_resource(STAGES[stage as usize], slot, view)
                });
            }
            Op::Placement {
                context,
                kind,
                stage,
                slot,
                object,
                address,
            } => {
                let stage = STAGES[stage as usize];
                let buffer = object.of(&own.buffers, &other.buffers);
                match kind {
                    0 => {
                        let view = object.of(&own.srvs, &other.srvs);
                        on_context!(self, context, &["set_placement_shader_resource"], |c| {
                            c.set_placement_shader_resource(stage, slot, view, address)
                        })
                    }
                    1 => on_context!(self, context, &["set_placement_constant_buffer"], |c| {
                        c.set_placement_constant_buffer(stage, slot, buffer, address)
                    }),
                    2 => on_context!(self, context, &["set_placement_vertex_buffer"], |c| {
                        c.set_placement_vertex_buffer(slot, buffer, 16, slot, address)
                    }),
                    _ => on_context!(self, context, &["set_placement_index_buffer"], |c| {
                        let format = [Format::R16Uint, Format::R32Uint, Format::R8G8B8A8Unorm]
                            [slot as usize % 3];
                        c.set_placement_index_buffer(buffer, address, format)
                    }),
                }
            }
            Op::Query {
                context,
                kind,
                query,
                binary,
            } => {
                let query = query.of(&own.queries, &other.queries);
                let value = if binary {
                    PredicateValue::True
                } else {
                    PredicateValue::False
                };
                match kind {
                    0 => on_context!(self, context, &["begin_query"], |c| c.begin_query(query)),
                    1 => on_context!(self, context, &["end_query"], |c| c.end_query(query)),
                    2 => on_context!(self, context, &["write_query"], |c| c.write_query(query)),
                    3 => on_context!(self, context, &["reset_query"], |c| c.reset_query(query)),
                    4 => on_context!(self, context, &["configure_query"], |c| {
                        let mode = if binary {
                            QueryMode::Binary
                        } else {
                            QueryMode::Counting
                        };
                        c.configure_query(query, mode)
                    }),
                    5 => on_context!(self, context, &["set_predication_from_query"], |c| {
                        c.set_predication_from_query(Some(query), value)
                    }),
                    // Not-ready is an answer more than a misuse, but named like a refusal.
                    _ => {
                        if let Err(error) = self.immediate.get_data(query) {
                            check_refusal("get_data", &error)
                        }
                    }
                }
            }
            Op::Fence {
                context,
                engine,
                kick_off,
            } => {
                let engine = [Engine::Graphics, Engine::Compute, Engine::Dma][engine as usize % 3];
                let flags = if kick_off {
                    FenceFlags::KickOff
                } else {
                    FenceFlags::NoKickOff
                };
                if context == 0 {
                    self.immediate.insert_fence_with(engine, flags);
                } else {
                    check_call(self.deferred(context), &["insert_fence"], |c| {
                        c.insert_fence_with(engine, flags);
                    });
                }
            }
            Op::Pending { resource, texture } => {
                // A question with no refusal: it must answer, whatever the handle.
                if texture {
                    let texture = resource.of(&own.textures, &other.textures);
                    self.immediate.is_resource_pending(texture);
                } else {
                    let buffer = resource.of(&own.buffers, &other.buffers);
                    self.immediate.is_resource_pending(buffer);
                }
            }
            Op::ContextState {
                context,
                state,
                foreign,
            } => {
                let states = if foreign {
                    &mut self.foreign_states
                } else {
                    &mut self.states
                };
                match state {
                    None => {
                        let made = match context {
                            0 => self.immediate.create_device_context_state(),
                            _ => self.deferred(context).create_device_context_state(),
                        };
                        match made {
                            Ok(made) => self.states.push(made),
                            Err(error) => check_refusal("create_device_context_state", &error),
                        }
                    }
                    Some(index) => {
                        let count = states.len();
                        let Some(state) = states.get_mut(index as usize % count.max(1)) else {
                            return;
                        };
                        // The immediate context alone swaps (R-FX-6: a deferred context has
                        // no such call); the swap reports its own result.
                        const SWAP: &str = "swap_device_context_state";
                        if let Err(error) = self.immediate.swap_device_context_state(state) {
                            check_refusal(SWAP, &error);
                        }
                    }
                }
            }
        }
        for error in self.immediate.take_execution_errors() {
            let message = error.to_string();
            assert!(
                message.len() > 30,
                "an execution error says too little: {message}"
            );
            check_cites_requirement(&message);
        }
    }

    /// The checks at the end of a case: this device's objects are alive unless the test released
    /// them, and a clean list still records, executes and draws.
    fn check_intact(&mut self) {
        for (kind, raw) in self.own.all() {
            if self.released.contains(&(kind, raw)) {
                continue;
            }
            assert!(
                is_alive_raw(&self.device, kind, raw),
                "{} {raw:?} of this device was never released on it but is gone",
                kind.name()
            );
        }
        let mut context = created(
            "clean context",
            self.device.create_deferred_context(&DeferredContextDesc {
                name: "clean",
                // Legacy: the list starts from the ClearState defaults, so nothing the misuse
                // left bound on the immediate context is drawn with (R-ST-1).
                semantics: Semantics::Legacy,
                ..Default::default()
            }),
        );
        context.draw(3, 0);
        let list = created_list(context.finish_command_list(RestoreState::ClearState));
        // Violations the misuse left pending are reported by the next submission: take them
        // first, so that the clean list is judged on its own.
        if let Err(error) = self.immediate.flush() {
            assert!(
                error.to_string().len() > 30,
                "a violation says too little: {error}"
            );
            check_cites_requirement(&error.to_string());
        }
        let before = self.immediate.counters().draws;
        self.immediate
            .execute_command_list(&list, RestoreState::ClearState)
            .unwrap_or_else(|error| panic!("a clean list after the misuse was refused: {error}"));
        self.immediate
            .flush()
            .unwrap_or_else(|error| panic!("flush: {error}"));
        assert_eq!(
            self.immediate.counters().draws,
            before + 1,
            "the clean list did not draw"
        );
    }
}

fn resource_is_foreign(resource: Resource, own: &Objects) -> bool {
    match resource {
        Resource::Buffer(buffer) => !own.buffers.contains(&buffer),
        Resource::Texture(texture) => !own.textures.contains(&texture),
    }
}

/// Every refusal cites the requirement it enforces by its SPEC.md id (`R-OBJ-2`,
/// `R-REC-12`, ...): `R-` followed by an upper-case letter.
fn check_cites_requirement(message: &str) {
    let cites = message
        .match_indices("R-")
        .any(|(at, _)| message[at + 2..].starts_with(|c: char| c.is_ascii_uppercase()));
    assert!(
        cites,
        "a refusal cites no requirement id (R-...): {message}"
    );
}

fn release_raw(device: &Device, kind: ObjectKind, raw: RawHandle) {
    match kind {
        ObjectKind::Buffer => device.release(Buffer::from_raw(raw)),
        ObjectKind::Texture => device.release(Texture::from_raw(raw)),
        ObjectKind::ShaderResourceView => device.release(ShaderResourceView::from_raw(raw)),
        ObjectKind::RenderTargetView => device.release(RenderTargetView::from_raw(raw)),
        ObjectKind::Shader => device.release(Shader::from_raw(raw)),
        ObjectKind::Query => device.release(Query::from_raw(raw)),
        _ => device.release(SamplerState::from_raw(raw)),
    }
}

fn is_alive_raw(device: &Device, kind: ObjectKind, raw: RawHandle) -> bool {
    match kind {
        ObjectKind::Buffer => device.is_alive(Buffer::from_raw(raw)),
        ObjectKind::Texture => device.is_alive(Texture::from_raw(raw)),
        ObjectKind::ShaderResourceView => device.is_alive(ShaderResourceView::from_raw(raw)),
        ObjectKind::UnorderedAccessView => device.is_alive(UnorderedAccessView::from_raw(raw)),
        ObjectKind::RenderTargetView => device.is_alive(RenderTargetView::from_raw(raw)),
        ObjectKind::DepthStencilView => device.is_alive(DepthStencilView::from_raw(raw)),
        ObjectKind::Shader => device.is_alive(Shader::from_raw(raw)),
        ObjectKind::Query => device.is_alive(Query::from_raw(raw)),
        _ => device.is_alive(SamplerState::from_raw(raw)),
    }
}

fn cases() -> u32 {
    std::env::var("MISUSE_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Random misuse on both semantics, validation off and on: no panic, no abort,
    /// every refusal names its call, nothing of this device touched by the other's handles.
    #[test]
    fn r_obj_3_r_rec_8_r_rec_9_r_rec_12_random_misuse_never_panics_and_names_every_refusal(
        legacy in any::<bool>(),
        validation in prop_oneof![Just(Validation::Off), Just(Validation::On)],
        ops in prop::collection::vec(op(), 1..48),
    ) {
        let semantics = if legacy { Semantics::Legacy } else { Semantics::Fast };
        let mut world = World::new(semantics, validation);
        for op in &ops {
            world.apply(op);
        }
        world.check_intact();
    }
}

/// The property above is not vacuous: a fixed misuse sequence is refused, and the refusals
/// are counted by the checks it uses.
#[test]
fn misuse_checks_see_refusals() {
    let before = REFUSALS.load(Ordering::Relaxed);
    let mut world = World::new(Semantics::Fast, Validation::On);
    world.apply(&Op::ConstantBuffer {
        context: 1,
        stage: 0,
        slot: 99,
        buffer: None,
    });
    world.apply(&Op::Map {
        context: 0,
        buffer: Pick {
            foreign: false,
            index: 0,
        },
        map_type: 0,
        allow_usage_default: false,
        write: true,
    });
    assert!(REFUSALS.load(Ordering::Relaxed) >= before + 2);
}

/// The fast extension calls of SPEC §15 are refused through the same checks, each naming its
/// call and citing its rule: a fast entry past its slots (R-FX-1), an unchecked batch naming the
/// other device's buffer (R-FX-1), a placement of a dynamic buffer (R-FX-2), a query call with
/// the other device's query (R-FX-3), and a device context state created on a fast context and
/// swapped on the fast immediate context (R-FX-6).
#[test]
fn r_fx_misuse_checks_see_the_fast_extension_refusals() {
    let mut world = World::new(Semantics::Fast, Validation::Off);
    let own = |index| Pick {
        foreign: false,
        index,
    };
    let foreign = |index| Pick {
        foreign: true,
        index,
    };
    let refused = |world: &mut World, op: Op, context: usize| {
        let last = |world: &World| match context {
            0 => world.immediate.last_refusal().cloned(),
            n => world.deferred[n - 1].last_refusal().cloned(),
        };
        let before = last(world);
        world.apply(&op);
        let after = last(world);
        assert!(after.is_some() && after != before, "{op:?} was not refused");
    };
    let past = (0, 0, 99, Some(own(2)));
    let ops = [
        (
            Op::Fast {
                context: 1,
                entries: vec![past],
                how: 0,
                apply: 1,
                release: None,
            },
            1,
        ),
        (
            Op::Fast {
                context: 2,
                entries: vec![(0, 0, 0, Some(foreign(2)))],
                how: 2,
                apply: 2,
                release: None,
            },
            2,
        ),
        // Buffer 6 is `dyn0`, dynamic: not placeable.
        (
            Op::Placement {
                context: 1,
                kind: 1,
                stage: 4,
                slot: 0,
                object: own(6),
                address: 0x1000,
            },
            1,
        ),
        (
            Op::Query {
                context: 3,
                kind: 2,
                query: foreign(0),
                binary: false,
            },
            3,
        ),
        (
            Op::ContextState {
                context: 2,
                state: None,
                foreign: false,
            },
            2,
        ),
    ];
    for (op, context) in ops {
        refused(&mut world, op, context);
    }
    // A state of a legacy context, swapped on the fast immediate context.
    world.apply(&Op::ContextState {
        context: 1,
        state: None,
        foreign: false,
    });
    assert_eq!(world.states.len(), 1, "a legacy context makes a state");
    refused(
        &mut world,
        Op::ContextState {
            context: 0,
            state: Some(0),
            foreign: false,
        },
        0,
    );
    // The other device's state on a legacy immediate context: `r_fx_6_context_state.rs`.
    world.check_intact();
}
