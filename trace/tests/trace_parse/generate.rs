//! A random generator of well-formed trace syntax trees, for the printer's round trip
//! (`parse(print(tree)) == tree`).
//!
//! **In:** a seed and a statement count. **Out:** statements that the parser could have
//! produced: `device` first, every object declared before it is named and used as its kind,
//! fresh names only, values of the class each draw-record field takes. Numbers are drawn from
//! the whole of their range with a bias to the edges (0, 1, the maximum, the minimum); floats
//! are any finite `f32`, subnormals included. Swap chains get any number of buffers and their
//! derived names (`sc1.18446744073709551614.rtv`) are used.

use super::generate_contents as contents;
use trace::*;

/// splitmix64: small, seedable, good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }

    pub fn pick<T: Clone>(&mut self, items: impl AsRef<[T]>) -> T {
        let items = items.as_ref();
        items[self.below(items.len())].clone()
    }

    /// Any u64, often an edge or a small number.
    pub fn u64(&mut self) -> u64 {
        match self.below(6) {
            0 => 0,
            1 => u64::MAX,
            2 | 3 => self.next() % 64,
            _ => self.next() >> self.below(64),
        }
    }

    pub fn i64(&mut self) -> i64 {
        match self.below(6) {
            0 => i64::MIN,
            1 => i64::MAX,
            2 | 3 => (self.next() % 64) as i64 - 32,
            _ => (self.next() as i64) >> self.below(64),
        }
    }

    /// Any finite f32.
    pub fn f32(&mut self) -> f32 {
        match self.below(6) {
            0 => self.pick([
                0.0,
                -0.0,
                1.0,
                0.5,
                f32::MAX,
                f32::MIN,
                1e-45,
                f32::MIN_POSITIVE,
            ]),
            1 | 2 => (self.next() % 2048) as f32 / 8.0 - 64.0,
            _ => loop {
                let x = f32::from_bits(self.next() as u32);
                if x.is_finite() {
                    break x;
                }
            },
        }
    }

    fn option<T>(&mut self, make: impl FnOnce(&mut Self) -> T) -> Option<T> {
        if self.coin() {
            Some(make(self))
        } else {
            None
        }
    }
}

fn name(text: &str) -> Name {
    Name::new(text).unwrap_or_else(|| panic!("'{text}' is not a name"))
}

const FORMATS: &[&str] = &[
    "r8g8b8a8_unorm",
    "r16g16b16a16_float",
    "d32_float",
    "r16_uint",
    "r32_uint",
    "b8g8r8a8_unorm",
    "some_future_format",
];

/// The objects declared so far, by kind.
#[derive(Default)]
struct Pools {
    buffers: Vec<Name>,
    textures: Vec<Name>,
    srvs: Vec<Name>,
    uavs: Vec<Name>,
    rtvs: Vec<Name>,
    dsvs: Vec<Name>,
    shaders: Vec<Name>,
    layouts: Vec<Name>,
    blends: Vec<Name>,
    rasterizers: Vec<Name>,
    depth_stencils: Vec<Name>,
    samplers: Vec<Name>,
    predicates: Vec<Name>,
    swapchains: Vec<Name>,
    contexts: Vec<Name>,
    recorders: Vec<Name>,
    bundles: Vec<Name>,
    lists: Vec<Name>,
    fences: Vec<Name>,
    /// The batches `set_fast_resources_into_batch` made (R-FX-1): the trace's own names, not
    /// objects (never released nor asked about).
    batches: Vec<Name>,
    /// Every name, for `release`, `expect error` and `expect accepted`.
    all: Vec<Name>,
    // R-FX-6 context state
    context_states: Vec<Name>,
}

struct Generator {
    rng: Rng,
    pools: Pools,
    counter: u64,
}

impl Generator {
    fn fresh(&mut self, prefix: &str) -> Name {
        self.counter += 1;
        let suffix = match self.rng.below(4) {
            0 => ".a_1",
            1 => "_x.y",
            _ => "",
        };
        let fresh = name(&format!("{prefix}{}{suffix}", self.counter));
        self.pools.all.push(fresh.clone());
        fresh
    }

    fn format(&mut self) -> Format {
        Format::new(self.rng.pick(FORMATS)).unwrap()
    }

    fn bind(&mut self) -> BindFlags {
        let mut flags = BindFlags::NONE;
        for (_, flag) in BindFlags::NAMED {
            if self.rng.below(3) == 0 {
                flags = flags | *flag;
            }
        }
        flags
    }

    fn slots(&mut self) -> SlotSet {
        let count = 1 + self.rng.below(4);
        SlotSet(
            (0..count)
                .map(|_| {
                    let (a, b) = (self.rng.u64(), self.rng.u64());
                    SlotRange {
                        first: a.min(b),
                        last: a.max(b),
                    }
                })
                .collect(),
        )
    }

    fn resource(&mut self) -> Name {
        if self.rng.coin() {
            self.rng.pick(&self.pools.buffers)
        } else {
            self.rng.pick(&self.pools.textures)
        }
    }

    fn nullable(&mut self, pool: fn(&Pools) -> &Vec<Name>) -> Option<Name> {
        let pool = pool(&self.pools);
        if pool.is_empty() || self.rng.below(4) == 0 {
            None
        } else {
            Some(self.rng.pick(pool))
        }
    }

    /// One to four `set_fast_resources` entries (R-FX-1).
    fn fast_entries(&mut self) -> Vec<FastEntry> {
        let count = 1 + self.rng.below(4);
        (0..count)
            .map(|_| {
                let kind = self.rng.pick([
                    FastKind::ConstantBuffer,
                    FastKind::ShaderResource,
                    FastKind::Sampler,
                    FastKind::VertexBuffer,
                ]);
                let object = match kind {
                    FastKind::ConstantBuffer | FastKind::VertexBuffer => {
                        self.nullable(|p| &p.buffers)
                    }
                    FastKind::ShaderResource => self.nullable(|p| &p.srvs),
                    FastKind::Sampler => self.nullable(|p| &p.samplers),
                };
                FastEntry {
                    kind,
                    stage: (kind != FastKind::VertexBuffer).then(|| self.rng.pick(Stage::ALL)),
                    slot: self.rng.u64(),
                    object,
                }
            })
            .collect()
    }

    fn nullables(&mut self, pool: fn(&Pools) -> &Vec<Name>) -> Vec<Option<Name>> {
        let count = 1 + self.rng.below(4);
        (0..count).map(|_| self.nullable(pool)).collect()
    }

    /// One declaration of each kind, so that every call has objects to name.
    fn prelude(&mut self) -> Vec<Statement> {
        let mut out = vec![Statement::Declaration(Declaration::Device {
            semantics: self.rng.pick(Semantics::ALL),
            validation: self.rng.option(|r| r.pick(Validation::ALL)),
            legacy_barriers: self.rng.option(Rng::coin),
        })];
        for kind in 0..DECLARATION_KINDS {
            out.push(self.declaration(kind));
        }
        out
    }

    /// A declaration of kind `kind` (0..DECLARATION_KINDS), entered into the pools.
    fn declaration(&mut self, kind: usize) -> Statement {
        let d = match kind {
            0 => {
                let name = self.fresh("buf");
                self.pools.buffers.push(name.clone());
                Declaration::Buffer {
                    name,
                    usage: self.rng.pick(Usage::ALL),
                    bind: self.bind(),
                    size: self.rng.u64(),
                    uav_flag: self
                        .rng
                        .option(|r| r.pick([UavFlag::Append, UavFlag::Counter])),
                    placement: None,
                    data: contents::initial_data(&mut self.rng),
                }
            }
            1 => {
                let name = self.fresh("tex");
                self.pools.textures.push(name.clone());
                Declaration::Texture {
                    name,
                    format: self.format(),
                    width: self.rng.u64(),
                    height: self.rng.u64(),
                    mips: self.rng.option(Rng::u64),
                    array: self.rng.option(Rng::u64),
                    samples: self.rng.option(Rng::u64),
                    bind: self.bind(),
                    compressible: self.rng.option(Rng::coin),
                    tc: self.rng.option(Rng::coin),
                    dcc: self.rng.option(Rng::coin),
                    placement: None,
                    data: contents::initial_data(&mut self.rng),
                }
            }
            2 => {
                let resource = self.resource();
                let name = self.fresh("srv");
                self.pools.srvs.push(name.clone());
                Declaration::ShaderResourceView {
                    name,
                    resource,
                    min_lod: self.rng.option(Rng::f32),
                    composed: self.rng.option(Rng::coin),
                }
            }
            3 => {
                let resource = self.resource();
                let name = self.fresh("uav");
                self.pools.uavs.push(name.clone());
                Declaration::UnorderedAccessView { name, resource }
            }
            4 => {
                let resource = self.resource();
                let name = self.fresh("rtv");
                self.pools.rtvs.push(name.clone());
                Declaration::RenderTargetView { name, resource }
            }
            5 => {
                let resource = self.resource();
                let name = self.fresh("dsv");
                self.pools.dsvs.push(name.clone());
                Declaration::DepthStencilView { name, resource }
            }
            6 => {
                let name = self.fresh("sh");
                self.pools.shaders.push(name.clone());
                Declaration::Shader {
                    name,
                    stage: self.rng.pick(Stage::ALL),
                    constant_buffers: self.rng.coin().then(|| self.slots()),
                    shader_resources: self.rng.coin().then(|| self.slots()),
                    samplers: self.rng.coin().then(|| self.slots()),
                    unordered_access_views: self.rng.coin().then(|| self.slots()),
                    stream_output: self.rng.option(Rng::coin),
                    code: contents::shader_code(&mut self.rng),
                }
            }
            7 => {
                let name = self.fresh("layout");
                self.pools.layouts.push(name.clone());
                Declaration::InputLayout {
                    name,
                    vertex_buffers: self.rng.coin().then(|| self.slots()),
                    elements: contents::elements(&mut self.rng),
                }
            }
            8 => {
                let name = self.fresh("blend");
                self.pools.blends.push(name.clone());
                let fields = contents::blend_fields(&mut self.rng);
                Declaration::BlendState { name, fields }
            }
            9 => {
                let name = self.fresh("raster");
                self.pools.rasterizers.push(name.clone());
                let fields = contents::rasterizer_fields(&mut self.rng);
                Declaration::RasterizerState { name, fields }
            }
            10 => {
                let name = self.fresh("dss");
                self.pools.depth_stencils.push(name.clone());
                let fields = contents::depth_stencil_fields(&mut self.rng);
                Declaration::DepthStencilState { name, fields }
            }
            11 => {
                let name = self.fresh("sampler");
                self.pools.samplers.push(name.clone());
                let fields = contents::sampler_fields(&mut self.rng);
                Declaration::SamplerState { name, fields }
            }
            12 => {
                let name = self.fresh("pred");
                self.pools.predicates.push(name.clone());
                match self.rng.coin() {
                    true => Declaration::Predicate { name },
                    false => Declaration::Query {
                        name,
                        kind: self.rng.pick(QueryKind::ALL),
                    },
                }
            }
            13 => {
                self.counter += 1;
                let name = name(&format!("sc{}", self.counter));
                self.pools.all.push(name.clone());
                let buffers = self.rng.u64();
                if buffers > 0 {
                    let k = if self.rng.coin() { 0 } else { buffers - 1 };
                    let texture = self::name(&format!("{}.{k}", name.as_str()));
                    let rtv = self::name(&format!("{}.{k}.rtv", name.as_str()));
                    self.pools.textures.push(texture.clone());
                    self.pools.rtvs.push(rtv.clone());
                    self.pools.all.extend([texture, rtv]);
                }
                self.pools.swapchains.push(name.clone());
                Declaration::Swapchain {
                    name,
                    buffers,
                    format: self.format(),
                    width: self.rng.u64(),
                    height: self.rng.u64(),
                }
            }
            14 => {
                let name = self.fresh("ctx");
                self.pools.contexts.push(name.clone());
                Declaration::Context {
                    name,
                    semantics: self.rng.pick(Semantics::ALL),
                    title_managed_lifetimes: self.rng.coin(),
                }
            }
            15 => {
                let name = self.fresh("rec");
                self.pools.recorders.push(name.clone());
                let count = self.rng.below(4);
                Declaration::Bundle {
                    name,
                    render_targets: (0..count).map(|_| self.format()).collect(),
                    depth: self.rng.coin().then(|| self.format()),
                    samples: self.rng.option(Rng::u64),
                }
            }
            _ => Declaration::Release {
                name: self.rng.pick(&self.pools.all),
            },
        };
        Statement::Declaration(d)
    }
}

const DECLARATION_KINDS: usize = 16;

impl Generator {
    fn call(&mut self) -> Statement {
        let context = match self.rng.below(3) {
            0 => CallContext::Immediate,
            1 => CallContext::Deferred(self.rng.pick(&self.pools.contexts)),
            _ => CallContext::BundleRecorder(self.rng.pick(&self.pools.recorders)),
        };
        let method = loop {
            if let Some(method) = self.method(&context) {
                break method;
            }
        };
        Statement::Call(Call { context, method })
    }

    fn remap(&mut self) -> Remap {
        Remap {
            stage: self.rng.pick(Stage::ALL),
            slot: self.rng.u64(),
            inherit_stage: self.rng.pick(Stage::ALL),
            inherit_slot: self.rng.u64(),
        }
    }

    /// A random method, or `None` where this context cannot have the one drawn.
    fn method(&mut self, context: &CallContext) -> Option<Method> {
        let stage = self.rng.pick(Stage::ALL);
        let p = &self.pools;
        let (buffers, rtvs, dsvs) = (p.buffers.clone(), p.rtvs.clone(), p.dsvs.clone());
        Some(match self.rng.below(61) {
            0 => Method::SetInputLayout(self.nullable(|p| &p.layouts)),
            1 => Method::SetPrimitiveTopology(self.rng.pick(PrimitiveTopology::ALL)),
            2 => Method::SetVertexBuffers {
                start: self.rng.u64(),
                buffers: self.nullables(|p| &p.buffers),
            },
            3 => Method::SetIndexBuffer {
                buffer: self.nullable(|p| &p.buffers),
                format: self.format(),
                offset: self.rng.option(Rng::u64),
            },
            4 => Method::SetPrimitiveResetIndex(self.rng.u64()),
            5 => Method::SetShader {
                stage,
                shader: self.nullable(|p| &p.shaders),
            },
            6 => Method::SetConstantBuffers {
                stage,
                start: self.rng.u64(),
                buffers: self.nullables(|p| &p.buffers),
            },
            7 => Method::SetShaderResources {
                stage,
                start: self.rng.u64(),
                views: self.nullables(|p| &p.srvs),
            },
            // The sampler binds, and the fast calls beside them (R-FX-1, R-FX-2).
            8 => match self.rng.below(10) {
                0 => Method::SetFastResources(self.fast_entries()),
                // A batch is made by its first into_batch line, and grown by later ones.
                6 => {
                    let batch = if self.pools.batches.is_empty() || self.rng.coin() {
                        self.counter += 1;
                        let batch = name(&format!("batch{}", self.counter));
                        self.pools.batches.push(batch.clone());
                        batch
                    } else {
                        self.rng.pick(&self.pools.batches)
                    };
                    Method::SetFastResourcesIntoBatch {
                        batch,
                        entries: self.fast_entries(),
                    }
                }
                7 if !self.pools.batches.is_empty() => Method::SetFastResourcesFromBatch {
                    batch: self.rng.pick(&self.pools.batches),
                    entries: Vec::new(),
                },
                1 => Method::SetFastShaderResource {
                    stage,
                    slot: self.rng.u64(),
                    view: self.nullable(|p| &p.srvs),
                },
                2 => Method::SetPlacementShaderResource {
                    stage,
                    slot: self.rng.u64(),
                    view: self.rng.pick(&p.srvs),
                    address: self.rng.u64(),
                },
                3 => Method::SetPlacementConstantBuffer {
                    stage,
                    slot: self.rng.u64(),
                    buffer: self.rng.pick(&buffers),
                    address: self.rng.u64(),
                },
                4 => Method::SetPlacementVertexBuffer {
                    slot: self.rng.u64(),
                    buffer: self.rng.pick(&buffers),
                    address: self.rng.u64(),
                },
                5 => Method::IaSetPlacementIndexBuffer {
                    buffer: self.rng.pick(&buffers),
                    address: self.rng.u64(),
                    format: self.format(),
                },
                _ => Method::SetSamplers {
                    stage,
                    start: self.rng.u64(),
                    samplers: self.nullables(|p| &p.samplers),
                },
            },
            9 => Method::CsSetUnorderedAccessViews {
                start: self.rng.u64(),
                views: self.nullables(|p| &p.uavs),
            },
            10 => Method::OmSetRenderTargets {
                render_targets: self.nullables(|p| &p.rtvs),
                depth_stencil: self.nullable(|p| &p.dsvs),
            },
            11 => Method::OmSetRenderTargetsAndUavs {
                render_targets: self.nullables(|p| &p.rtvs),
                depth_stencil: self.nullable(|p| &p.dsvs),
                start: self.rng.u64(),
                views: self.nullables(|p| &p.uavs),
            },
            12 => Method::OmSetBlendState(self.nullable(|p| &p.blends)),
            13 => Method::OmSetDepthStencilState(self.nullable(|p| &p.depth_stencils)),
            14 => Method::RsSetState(self.nullable(|p| &p.rasterizers)),
            15 => Method::RsSetViewports(
                (0..1 + self.rng.below(3))
                    .map(|_| Viewport {
                        x: self.rng.f32(),
                        y: self.rng.f32(),
                        width: self.rng.f32(),
                        height: self.rng.f32(),
                    })
                    .collect(),
            ),
            16 => Method::RsSetScissorRects(
                (0..1 + self.rng.below(3))
                    .map(|_| Rect {
                        left: self.rng.i64(),
                        top: self.rng.i64(),
                        right: self.rng.i64(),
                        bottom: self.rng.i64(),
                    })
                    .collect(),
            ),
            17 => Method::Draw {
                vertex_count: self.rng.u64(),
                start_vertex: self.rng.u64(),
            },
            18 => Method::DrawIndexed {
                index_count: self.rng.u64(),
                start_index: self.rng.u64(),
                base_vertex: self.rng.i64(),
            },
            19 => Method::DrawInstanced {
                vertex_count: self.rng.u64(),
                instance_count: self.rng.u64(),
                start_vertex: self.rng.u64(),
                start_instance: self.rng.u64(),
            },
            20 => Method::DrawIndexedInstanced {
                index_count: self.rng.u64(),
                instance_count: self.rng.u64(),
                start_index: self.rng.u64(),
                base_vertex: self.rng.i64(),
                start_instance: self.rng.u64(),
            },
            21 => Method::DrawAuto,
            22 => Method::DrawInstancedIndirect {
                buffer: self.rng.pick(&buffers),
                offset: self.rng.u64(),
            },
            23 => Method::DrawIndexedInstancedIndirect {
                buffer: self.rng.pick(&buffers),
                offset: self.rng.u64(),
            },
            24 => Method::Dispatch {
                x: self.rng.u64(),
                y: self.rng.u64(),
                z: self.rng.u64(),
            },
            25 => Method::DispatchIndirect {
                buffer: self.rng.pick(&buffers),
                offset: self.rng.u64(),
            },
            26 => Method::ClearRenderTargetView {
                view: self.rng.pick(&rtvs),
                color: [
                    self.rng.f32(),
                    self.rng.f32(),
                    self.rng.f32(),
                    self.rng.f32(),
                ],
            },
            27 => Method::ClearDepthStencilView {
                view: self.rng.pick(&dsvs),
                depth: self.rng.f32(),
                stencil: self.rng.u64(),
            },
            28 => Method::CopyResource {
                destination: self.resource(),
                source: self.resource(),
            },
            29 => Method::UpdateSubresource {
                resource: self.resource(),
            },
            30 => Method::CopyStructureCount {
                destination: self.rng.pick(&buffers),
                offset: self.rng.u64(),
                view: self.rng.pick(&self.pools.uavs),
            },
            31 => Method::Map {
                resource: self.resource(),
                map_type: self.rng.pick(MapType::ALL),
                allow_usage_default: self.rng.coin(),
                instance: (),
                writes: (),
            },
            32 => Method::Unmap {
                resource: self.resource(),
            },
            33 => Method::SetPredication {
                predicate: self.nullable(|p| &p.predicates),
                value: self.rng.coin(),
            },
            34 => Method::Begin {
                query: self.rng.pick(&self.pools.predicates),
            },
            35 => {
                let query = self.rng.pick(&self.pools.predicates);
                match self.rng.below(5) {
                    0 => Method::End { query },
                    1 => Method::WriteQuery { query },
                    2 => Method::ResetQuery { query },
                    3 => Method::ConfigureQuery {
                        query,
                        mode: self.rng.pick(QueryMode::ALL),
                    },
                    _ => Method::SetPredicationFromQuery {
                        query: self.rng.coin().then_some(query),
                        value: self.rng.coin(),
                    },
                }
            }
            36 => Method::ClearState,
            37 => Method::DecompressResource {
                resource: self.resource(),
                options: Decompression {
                    into: self.rng.coin().then(|| self.resource()),
                    // Any non-empty set of kinds, `all` included (which prints nothing).
                    kinds: recorder::DecompressKinds::from_bits(1 + self.rng.below(31) as u8),
                    region: self.rng.coin().then(|| {
                        let sub = self.rng.below(8) as u32;
                        let (l, t) = (self.rng.below(4) as u32, self.rng.below(4) as u32);
                        let r = self.rng.below(64) as u32;
                        (sub, [l, t, r, u32::MAX - self.rng.below(2) as u32])
                    }),
                },
            },
            38 => Method::SetResourceCompression {
                resource: self.resource(),
                compression: self.rng.pick(Compression::ALL),
            },
            39 => Method::SetResourceMinLod {
                resource: self.resource(),
                min_lod: self.rng.f32(),
            },
            40 => Method::SetShaderResourceViewMinLod {
                view: self.rng.pick(&self.pools.srvs),
                min_lod: self.rng.f32(),
            },
            // The present wait, and GDS (R-FX-4) and constant RAM (R-FX-5) beside it.
            41 => match self.rng.below(6) {
                0 => Method::SetGdsRange {
                    stage,
                    offset: self.rng.u64(),
                    size: self.rng.u64(),
                },
                1 => Method::WriteGds {
                    offset: self.rng.u64(),
                    values: (0..1 + self.rng.below(4)).map(|_| self.rng.u64()).collect(),
                },
                2 => Method::ReadGds {
                    offset: self.rng.u64(),
                    count: self.rng.u64(),
                    destination: self.rng.pick(&buffers),
                    destination_offset: self.rng.u64(),
                },
                3 => Method::LoadConstantRam {
                    buffer: self.rng.pick(&buffers),
                    buffer_offset: self.rng.u64(),
                    ram_offset: self.rng.u64(),
                    bytes: self.rng.u64(),
                },
                4 => Method::StoreConstantRam {
                    buffer: self.rng.pick(&buffers),
                    buffer_offset: self.rng.u64(),
                    ram_offset: self.rng.u64(),
                    bytes: self.rng.u64(),
                },
                _ => Method::InsertWaitOnPresent {
                    swapchain: self.rng.pick(&self.pools.swapchains),
                },
            },
            42 | 43 => {
                let fence = if self.pools.fences.is_empty() || self.rng.coin() {
                    let fence = self.fresh("fence");
                    self.pools.fences.push(fence.clone());
                    fence
                } else {
                    self.rng.pick(&self.pools.fences)
                };
                let engine = self.rng.option(|r| r.pick(Engine::ALL));
                if self.rng.coin() {
                    Method::InsertFence {
                        fence,
                        engine,
                        kick_off: self.rng.coin(),
                    }
                } else {
                    Method::InsertWaitOnFence { fence, engine }
                }
            }
            44 if !self.pools.bundles.is_empty() => Method::DrawBundle {
                bundle: self.rng.pick(&self.pools.bundles),
            },
            45 => Method::RemapConstantBufferInheritance(self.remap()),
            46 => Method::RemapShaderResourceInheritance(self.remap()),
            47 => Method::RemapSamplerInheritance(self.remap()),
            48 => Method::RemapVertexBufferInheritance {
                slot: self.rng.u64(),
                inherit_slot: self.rng.u64(),
            },
            49 | 50 => match context {
                CallContext::BundleRecorder(recorder) => {
                    if !self.pools.bundles.contains(recorder) {
                        self.pools.bundles.push(recorder.clone());
                    }
                    Method::FinishBundle
                }
                // On `imm` too: it parses, and the replay refuses it.
                CallContext::Deferred(_) | CallContext::Immediate => {
                    let list = self.fresh("list");
                    self.pools.lists.push(list.clone());
                    Method::FinishCommandList {
                        list,
                        restore: self.rng.option(Rng::coin),
                    }
                }
            },
            51 if !self.pools.lists.is_empty() => Method::Execute {
                list: self.rng.pick(&self.pools.lists),
                restore: self.rng.option(Rng::coin),
            },
            52 => Method::BeginCommandListExecution,
            53 => Method::EndCommandListExecution,
            54 => Method::Present {
                swapchain: self.rng.pick(&self.pools.swapchains),
            },
            55 => Method::Resume,
            56 => Method::Barrier((0..1 + self.rng.below(4)).map(|_| self.barrier()).collect()),
            57 => Method::ResourceBarrier(self.legacy_barrier()),
            58 => Method::Write {
                resource: self.resource(),
                offset: self.rng.u64(),
                bytes: (0..1 + self.rng.below(9))
                    .map(|_| self.rng.next() as u8)
                    .collect(),
            },
            // R-FX-6 context state
            59 => match self.pools.context_states.is_empty() || self.rng.coin() {
                true => {
                    let state = self.fresh("state");
                    self.pools.context_states.push(state.clone());
                    Method::CreateDeviceContextState { state }
                }
                false => Method::SwapDeviceContextState {
                    state: self.rng.pick(&self.pools.context_states),
                },
            },
            // R-EX-7: any view parses (the engine refuses one of no back buffer).
            60 if !rtvs.is_empty() || !self.pools.srvs.is_empty() => Method::PlaceSwapChainView {
                view: match rtvs.is_empty() || (!self.pools.srvs.is_empty() && self.rng.coin()) {
                    true => self.rng.pick(&self.pools.srvs),
                    false => self.rng.pick(&rtvs),
                },
                index: self.rng.u64(),
            },
            _ => return None,
        })
    }
}

impl Generator {
    /// One to three words of `all`, joined by `+`.
    fn flags<W: Copy>(&mut self, all: &[W]) -> Flags<W> {
        Flags(
            (0..1 + self.rng.below(3))
                .map(|_| self.rng.pick(all))
                .collect(),
        )
    }

    fn before_after<T>(&mut self, mut side: impl FnMut(&mut Self) -> T) -> BeforeAfter<T> {
        BeforeAfter {
            before: side(self),
            after: side(self),
        }
    }

    /// `A-B` with `A <= B`, or not written.
    fn range(&mut self) -> Option<SlotRange> {
        self.rng.option(|r| {
            let (a, b) = (r.u64(), r.u64());
            SlotRange {
                first: a.min(b),
                last: a.max(b),
            }
        })
    }

    /// A BARRIER of `barrier`: any resource for `buffer` and `texture` (the engine checks the
    /// type).
    fn barrier(&mut self) -> Barrier {
        let sync = self.before_after(|g| g.flags(&SyncWord::all()));
        let access = self.before_after(|g| g.flags(&AccessWord::all()));
        match self.rng.below(3) {
            0 => Barrier::Global { sync, access },
            1 => Barrier::Buffer {
                resource: self.resource(),
                sync,
                access,
                size: self.rng.option(Rng::u64),
            },
            _ => Barrier::Texture {
                resource: self.resource(),
                sync,
                access,
                layout: self.before_after(|g| g.rng.pick(LayoutWord::all())),
                mips: self.range(),
                array: self.range(),
                planes: self.range(),
                discard: self.rng.coin(),
            },
        }
    }

    fn legacy_barrier(&mut self) -> LegacyBarrier {
        let resource = |g: &mut Self| {
            if g.rng.below(4) == 0 {
                None
            } else {
                Some(g.resource())
            }
        };
        match self.rng.below(3) {
            0 => LegacyBarrier::Transition {
                resource: self.resource(),
                before: self.flags(&StateWord::all()),
                after: self.flags(&StateWord::all()),
                subresource: self.rng.option(Rng::u64),
                split: self
                    .rng
                    .option(|r| r.pick([SplitHalf::Begin, SplitHalf::End])),
            },
            1 => LegacyBarrier::Uav {
                resource: resource(self),
            },
            _ => LegacyBarrier::Aliasing {
                before: resource(self),
                after: resource(self),
            },
        }
    }

    fn number(&mut self) -> Number {
        if self.rng.coin() {
            Number::Integer(self.rng.i64())
        } else {
            Number::Float(self.rng.f32())
        }
    }

    /// A name, with `#K`, `@ADDRESS` (R-FX-2) or both (`NAME#K@ADDRESS`) where the field holds
    /// instances.
    fn object_ref(&mut self, pool: Vec<Name>, instances: bool) -> ObjectRef {
        let name = self.rng.pick(&pool);
        if !instances {
            return ObjectRef {
                name,
                instance: None,
                placement: None,
            };
        }
        let instance = self.rng.option(Rng::u64);
        let placement = match self.rng.coin() {
            true => Some(self.rng.u64()),
            false => None,
        };
        ObjectRef {
            name,
            instance,
            placement,
        }
    }

    fn expectation(&mut self) -> Statement {
        let e = match self.rng.below(9) {
            0 => Expectation::Ok,
            // Pending (R-FX-6), and the GPU model's GDS, constant RAM and memory words beside it
            // (R-FX-4, R-FX-5).
            8 => {
                let words = |g: &mut Self| (0..1 + g.rng.below(4)).map(|_| g.rng.u64()).collect();
                match self.rng.below(4) {
                    0 => Expectation::Gds {
                        offset: self.rng.u64(),
                        values: words(self),
                    },
                    1 => Expectation::ConstantRam {
                        offset: self.rng.u64(),
                        values: words(self),
                    },
                    2 => Expectation::Memory {
                        buffer: self.rng.pick(&self.pools.buffers),
                        offset: self.rng.u64(),
                        values: words(self),
                    },
                    _ => Expectation::Pending {
                        resource: self.resource(),
                        pending: self.rng.coin(),
                    },
                }
            }
            7 => Expectation::Resource {
                resource: self.resource(),
                layout: self.rng.option(|r| match r.below(4) {
                    0 => ExpectedLayout::Mixed,
                    _ => ExpectedLayout::Is(r.pick(LayoutWord::all())),
                }),
                compressed: self.rng.option(Rng::coin),
                depth: self.rng.option(|r| r.pick(Compression::ALL)),
                stencil: self.rng.option(|r| r.pick(Compression::ALL)),
            },
            6 => Expectation::Accepted {
                subject: if self.rng.coin() {
                    Subject::Immediate
                } else {
                    Subject::Named(self.rng.pick(&self.pools.all))
                },
            },
            1 => Expectation::Error {
                subject: if self.rng.coin() {
                    Subject::Immediate
                } else {
                    Subject::Named(self.rng.pick(&self.pools.all))
                },
                kind: self.rng.pick(ErrorKind::ALL),
            },
            2 if !self.pools.lists.is_empty() => {
                let mut categories: Vec<SplitCategory> = SplitCategory::ALL.to_vec();
                let keep = self.rng.below(categories.len() + 1);
                for i in 0..categories.len() {
                    let j = i + self.rng.below(categories.len() - i);
                    categories.swap(i, j);
                }
                Expectation::SplitPoints {
                    list: self.rng.pick(&self.pools.lists),
                    total: self.rng.option(Rng::u64),
                    categories: categories[..keep]
                        .iter()
                        .map(|c| (*c, self.rng.u64()))
                        .collect(),
                }
            }
            3 => {
                let mut keys: Vec<CounterKey> = CounterKey::ALL.to_vec();
                for i in 0..keys.len() {
                    let j = i + self.rng.below(keys.len() - i);
                    keys.swap(i, j);
                }
                let keep = 1 + self.rng.below(keys.len());
                Expectation::Counters(keys[..keep].iter().map(|k| (*k, self.rng.u64())).collect())
            }
            4 if !self.pools.bundles.is_empty() => Expectation::BundleFootprint {
                bundle: self.rng.pick(&self.pools.bundles),
                bytes: self.rng.u64(),
            },
            5 if !self.pools.predicates.is_empty() && self.rng.coin() => Expectation::Query {
                query: self.rng.pick(&self.pools.predicates),
                expected: match self.rng.below(3) {
                    0 => ExpectedQuery::NotReady,
                    _ => {
                        let mut keys: Vec<QueryKey> = QueryKey::ALL.to_vec();
                        for i in 0..keys.len() {
                            let j = i + self.rng.below(keys.len() - i);
                            keys.swap(i, j);
                        }
                        let keep = 1 + self.rng.below(keys.len());
                        ExpectedQuery::Data(
                            keys[..keep].iter().map(|k| (*k, self.rng.u64())).collect(),
                        )
                    }
                },
            },
            _ => {
                let (field, value) = self.draw_field();
                Expectation::Draw {
                    index: self.rng.u64(),
                    field,
                    value,
                }
            }
        };
        Statement::Expectation(e)
    }

    /// A field and a value of the class it takes (`null` a fifth of the time).
    fn draw_field(&mut self) -> (DrawField, ExpectedValue) {
        let stage = self.rng.pick(Stage::ALL);
        let slot = self.rng.u64();
        let p = &self.pools;
        let (buffers, srvs, uavs, rtvs, dsvs) = (
            p.buffers.clone(),
            p.srvs.clone(),
            p.uavs.clone(),
            p.rtvs.clone(),
            p.dsvs.clone(),
        );
        let (shaders, layouts, samplers) =
            (p.shaders.clone(), p.layouts.clone(), p.samplers.clone());
        let (blends, depth_stencils, rasterizers) = (
            p.blends.clone(),
            p.depth_stencils.clone(),
            p.rasterizers.clone(),
        );
        let object = |g: &mut Self, pool: Vec<Name>, instances: bool| {
            ExpectedValue::Object(g.object_ref(pool, instances))
        };
        let quad = |g: &mut Self| ExpectedValue::Numbers((0..4).map(|_| g.number()).collect());
        let (field, value) = match self.rng.below(25) {
            0 => (DrawField::Shader(stage), object(self, shaders, false)),
            1 => (DrawField::InputLayout, object(self, layouts, false)),
            2 => (
                DrawField::Topology,
                ExpectedValue::Topology(self.rng.pick(PrimitiveTopology::ALL)),
            ),
            3 => (DrawField::ResetIndex, ExpectedValue::Number(self.number())),
            4 => (DrawField::IndexBuffer, object(self, buffers, true)),
            5 => (
                DrawField::IndexBufferFormat,
                ExpectedValue::Format(self.format()),
            ),
            6 => (
                DrawField::IndexBufferOffset,
                ExpectedValue::Number(self.number()),
            ),
            7 => (DrawField::VertexBuffer(slot), object(self, buffers, true)),
            8 => (
                DrawField::ConstantBuffer(stage, slot),
                object(self, buffers, true),
            ),
            9 => (
                DrawField::ShaderResource(stage, slot),
                object(self, srvs, true),
            ),
            10 => (
                DrawField::ShaderResourceMinLod(stage, slot),
                ExpectedValue::Number(self.number()),
            ),
            11 => (
                DrawField::ShaderResourceCompressed(stage, slot),
                ExpectedValue::Bool(self.rng.coin()),
            ),
            12 => (
                DrawField::Sampler(stage, slot),
                object(self, samplers, false),
            ),
            13 => (
                DrawField::UnorderedAccessView(stage, slot),
                object(self, uavs, true),
            ),
            14 => (DrawField::RenderTarget(slot), object(self, rtvs, true)),
            15 => (
                DrawField::RenderTargetFormat(slot),
                ExpectedValue::Format(self.format()),
            ),
            16 => (DrawField::DepthStencilView, object(self, dsvs, true)),
            17 => (
                DrawField::DepthStencilFormat,
                ExpectedValue::Format(self.format()),
            ),
            18 => (DrawField::Blend, object(self, blends, false)),
            19 => (
                DrawField::DepthStencilState,
                object(self, depth_stencils, false),
            ),
            20 => (DrawField::Rasterizer, object(self, rasterizers, false)),
            21 => (DrawField::Viewport(slot), quad(self)),
            22 => (DrawField::Scissor(slot), quad(self)),
            23 => (DrawField::Predicated, ExpectedValue::Bool(self.rng.coin())),
            _ => {
                let value = if self.rng.coin() {
                    ExpectedValue::IndirectArgs {
                        buffer: self.object_ref(buffers, true),
                        offset: self.rng.u64(),
                    }
                } else {
                    let count = 1 + self.rng.below(5);
                    ExpectedValue::Numbers((0..count).map(|_| self.number()).collect())
                };
                (DrawField::Args, value)
            }
        };
        if self.rng.below(5) == 0 {
            (field, ExpectedValue::Null)
        } else {
            (field, value)
        }
    }
}

/// A well-formed trace of about `count` statements after the prelude.
pub fn trace(seed: u64, count: usize) -> Vec<Statement> {
    let mut generator = Generator {
        rng: Rng::new(seed),
        pools: Pools::default(),
        counter: 0,
    };
    let mut out = generator.prelude();
    for _ in 0..count {
        let statement = match generator.rng.below(10) {
            0..=2 => {
                let kind = generator.rng.below(DECLARATION_KINDS + 1);
                generator.declaration(kind)
            }
            3..=7 => generator.call(),
            _ => generator.expectation(),
        };
        out.push(statement);
    }
    out
}
