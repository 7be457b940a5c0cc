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

// The calls (`impl Generator { fn call, fn method, .. }`), in a file of their own.
#[path = "generate_calls.rs"]
mod calls;

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
                let vertex = match kind {
                    FastKind::VertexBuffer => self.stride_and_offset(),
                    _ => [0, 0],
                };
                FastEntry {
                    kind,
                    stage: (kind != FastKind::VertexBuffer).then(|| self.rng.pick(Stage::ALL)),
                    slot: self.rng.u64(),
                    object,
                    vertex,
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
        let (field, value) = match self.rng.below(27) {
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
            24 => (
                DrawField::VertexBufferStride(slot),
                ExpectedValue::Number(self.number()),
            ),
            25 => (
                DrawField::VertexBufferOffset(slot),
                ExpectedValue::Number(self.number()),
            ),
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
