//! The synthetic scene: the objects a frame draws with (materials, meshes, render-target passes,
//! dynamic buffers), created once on a [`Device`] from a [`SceneDesc`], and the pure function
//! [`Scene::draw`] that says what draw `i` of a frame needs.
//!
//! Every property of a draw is a function of its index and the seed, never of the draws before it,
//! so a frame cut into ranges on any number of threads records the same draws as one thread does;
//! only the redundant state sets at each range start differ (`record.rs` tracks state per range).

use recorder::*;

use crate::scene_contents as contents;
use crate::Xorshift64;

/// Shader-resource slot of a pass's input: the previous pass's render target (R-SP-2).
pub const PASS_INPUT_SLOT: u32 = 8;
/// Pixel-shader shader-resource slot of the simulation's output, in the barriers mode
/// ([`SceneDesc::barriers`]).
pub const SIMULATION_SLOT: u32 = 9;
/// Vertex-shader constant-buffer slots: frame constants, object constants, skinning palette.
pub const FRAME_CB_SLOT: u32 = 0;
pub const OBJECT_CB_SLOT: u32 = 1;
pub const PALETTE_CB_SLOT: u32 = 2;
/// Pixel-shader constant-buffer slot of the material constants (slot 0 holds the frame's).
pub const MATERIAL_CB_SLOT: u32 = 1;

/// Bytes of the per-draw object constants (a world matrix, its inverse transpose's 3x4 and a
/// colour, rounded up to what engines keep per object).
pub const OBJECT_CONSTANTS_BYTES: u32 = 128;
/// Bytes of a skinning palette (64 bones of 3x4 floats, kept small: 16 bones).
pub const PALETTE_BYTES: u32 = 768;
/// Bytes of the particle vertex stream (256 particles of 16 bytes).
pub const PARTICLE_BYTES: u32 = 4096;
/// The particle stream's vertex stride: 0, every vertex of a particle draw reads the stream's
/// first 16 bytes. The meshes it replaces a stream of have up to 60,000 vertices, far past
/// 4 KB: D3D11 reads zeros there, as Vulkan's robustBufferAccess2 does against the bound size,
/// but lavapipe (Mesa 22.3) bounds the fetch by the whole ring buffer, so a live frame and its
/// replay read different bytes (R-GPU-5's same pixels). With stride 0 no fetch leaves them.
pub const PARTICLE_STRIDE: u32 = 0;
/// Skinning palettes: dynamic constant buffers the immediate context updates each frame.
pub const PALETTES: u32 = 4;
/// Textures the materials pick theirs from.
const TEXTURE_POOL: u32 = 96;

/// What a scene holds and how its draws mix.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneDesc {
    /// Draws in a frame: the pass boundaries are placed in `0..draws` (larger indices wrap).
    pub draws: u32,
    /// Materials (shader pair, textures, sampler, constants). Draws are sorted by material
    /// within a pass, as renderers sort them.
    pub materials: u32,
    /// Meshes (two vertex streams, an index buffer, static object constants).
    pub meshes: u32,
    /// Render-target passes. Each clears its target and the depth buffer; pass `p > 0` reads
    /// pass `p - 1`'s target as a shader resource.
    pub passes: u32,
    /// Textures per material, 1 to 8.
    pub textures_per_material: u32,
    /// Fraction of draws whose object constants come from a dynamic constant buffer mapped
    /// write_discard in the list (no split point under either semantics).
    pub dynamic_fraction: f32,
    /// Fraction of draws that bind a dynamic buffer the list does not map: a skinning palette
    /// (constant buffer) or the particle stream (vertex buffer). Under legacy semantics each
    /// bind is a dynamic split point; under fast semantics, which forbids it (R-SP-3), the range
    /// maps each such buffer write_discard before its first bind instead.
    pub unmapped_dynamic_fraction: f32,
    pub seed: u64,
    /// Fast lists synchronise the passes with enhanced barriers (a target's move to render
    /// target at its pass, the previous target's move to shader resource) instead of an
    /// explicit `decompress_resource` (SPEC §9). Legacy lists are unchanged: the driver
    /// synchronises for them.
    pub barriers: bool,
    /// The objects carry what a real GPU needs to draw them (R-GPU-2, `scene_contents.rs`):
    /// shader code, elements, state fields, initial bytes; the material textures are then
    /// small RGBA8 checkers instead of block-compressed 1024² ones. The recorded calls are the
    /// same.
    pub gpu_contents: bool,
    /// The passes' target size in pixels, `(width, height)` (the depth buffer's; the passes
    /// after the first and every third halve it; the post pass's swap chain is half of it).
    /// A small size makes a frame cheap to draw on a software GPU (the frame demo's `--size`,
    /// for profiling the backend on lavapipe); the recorded calls are the same.
    pub size: (u32, u32),
}

impl Default for SceneDesc {
    fn default() -> Self {
        Self {
            draws: 20_000,
            materials: 64,
            meshes: 512,
            passes: 4,
            textures_per_material: 4,
            dynamic_fraction: 0.25,
            unmapped_dynamic_fraction: 0.02,
            seed: 0x5eed_f00d,
            barriers: false,
            gpu_contents: false,
            size: SceneDesc::SIZE,
        }
    }
}

impl SceneDesc {
    /// The default target size: 1920 x 1080.
    pub const SIZE: (u32, u32) = (1920, 1080);

    /// Checks the counts and fractions; the message names the field.
    pub fn validate(&self) -> Result<(), String> {
        let positive = [
            ("draws", self.draws),
            ("materials", self.materials),
            ("meshes", self.meshes),
            ("passes", self.passes),
            ("width", self.size.0),
            ("height", self.size.1),
        ];
        for (name, value) in positive {
            if value == 0 {
                return Err(format!("{name} must be at least 1"));
            }
        }
        if self.size.0 > 16384 || self.size.1 > 16384 {
            return Err(format!(
                "the target size must be at most 16384 x 16384, not {} x {}",
                self.size.0, self.size.1
            ));
        }
        if !(1..=8).contains(&self.textures_per_material) {
            return Err(format!(
                "textures per material must be 1 to 8, not {}",
                self.textures_per_material
            ));
        }
        for (name, value) in [
            ("dynamic fraction", self.dynamic_fraction),
            ("unmapped dynamic fraction", self.unmapped_dynamic_fraction),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(format!("{name} must be within 0..=1, not {value}"));
            }
        }
        Ok(())
    }
}

/// Why a scene could not be created.
#[derive(Debug)]
pub enum SceneError {
    /// A count or fraction of the [`SceneDesc`] is out of range.
    Desc(String),
    /// The device refused to create an object.
    Device(Error),
}

impl From<Error> for SceneError {
    fn from(error: Error) -> Self {
        Self::Device(error)
    }
}

impl std::fmt::Display for SceneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Desc(message) => write!(f, "bad scene description: {message}"),
            Self::Device(error) => write!(f, "creating the scene's objects: {error}"),
        }
    }
}

impl std::error::Error for SceneError {}

/// A shader pair and what it reads.
#[derive(Clone, Debug)]
pub struct Material {
    pub vertex_shader: Shader,
    pub pixel_shader: Shader,
    pub input_layout: InputLayout,
    pub textures: Vec<Option<ShaderResourceView>>,
    pub sampler: SamplerState,
    /// Immutable material constants.
    pub constants: Buffer,
}

/// Geometry of one mesh: two vertex streams and an index buffer cut into two submeshes.
#[derive(Clone, Copy, Debug)]
pub struct Mesh {
    pub streams: [VertexBuffer; 2],
    pub index_buffer: Buffer,
    pub index_format: Format,
    pub index_count: u32,
    pub vertex_count: u32,
    /// Immutable object constants, used by the draws that do not map their own.
    pub object_constants: Buffer,
}

/// One render-target pass.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    /// The pass's colour target: compressible, so reading it later needs decompression.
    pub color: Texture,
    pub color_target: RenderTargetView,
    pub color_view: ShaderResourceView,
    pub viewport: Viewport,
    pub clear_color: [f32; 4],
    pub blend: BlendState,
    pub depth_state: DepthStencilState,
}

/// Where a draw's vertex-shader object constants come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectConstants {
    /// The mesh's immutable buffer.
    Static,
    /// The scene's per-draw dynamic buffer, mapped write_discard just before the draw.
    PerDraw,
}

/// A dynamic buffer a draw binds without the list mapping it (legacy: a split point).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unmapped {
    None,
    /// Skinning palette `k` at the vertex shader's palette slot.
    Palette(u32),
    /// The particle stream replaces the mesh's second vertex stream.
    Particles,
}

/// Everything draw `i` of a frame needs; see [`Scene::draw`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawDesc {
    pub pass: u32,
    /// The frame's first draw of its pass: it clears the targets (and, under fast semantics,
    /// decompresses the pass input).
    pub first_in_pass: bool,
    pub material: u32,
    pub mesh: u32,
    /// 0 or 1: which half of the mesh's indices.
    pub submesh: u32,
    pub object: ObjectConstants,
    pub unmapped: Unmapped,
    /// `draw_indexed` arguments.
    pub index_count: u32,
    pub start_index: u32,
    pub base_vertex: i32,
}

/// The synthetic scene, shared read-only by every recording thread.
pub struct Scene {
    pub desc: SceneDesc,
    pub device: Device,
    pub materials: Vec<Material>,
    pub meshes: Vec<Mesh>,
    pub passes: Vec<Pass>,
    pub depth: Texture,
    pub depth_target: DepthStencilView,
    pub rasterizer: RasterizerState,
    /// Frame constants (default usage: updated by the immediate context, never a split point).
    pub frame_constants: Buffer,
    /// Per-draw object constants, mapped write_discard by each draw that uses them.
    pub per_draw_constants: Buffer,
    pub palettes: Vec<Buffer>,
    pub particles: Buffer,
    /// The UAV pass of the barriers mode ([`SceneDesc::barriers`]); `None` otherwise.
    pub simulation: Option<Simulation>,
    /// The post pass onto the back buffer ([`SceneDesc::gpu_contents`]); `None` otherwise.
    pub post: Option<PostPass>,
    /// What draws write into mapped buffers (filling one costs a copy).
    pub fill: Vec<u8>,
    /// The frame's draws, computed once so recording pays a load per draw, not the generator.
    frame: Vec<DrawDesc>,
}

/// A compute pass at the start of every render pass in the barriers mode: two dispatches write
/// `state` through `uav` (a UAV barrier between them), and the pass's pixel shaders read it
/// through `view` (a barrier from unordered access to shader resource first).
pub struct Simulation {
    pub shader: Shader,
    pub state: Buffer,
    pub uav: UnorderedAccessView,
    pub view: ShaderResourceView,
}

/// The post pass of a scene with GPU contents: a full-screen triangle sampling the last pass's
/// target onto the back buffer of the scene's swap chain (`scene_contents.rs`), which a frame
/// then presents.
pub struct PostPass {
    pub vertex_shader: Shader,
    pub pixel_shader: Shader,
    pub sampler: SamplerState,
    /// The swap chain the post pass draws into: two RGBA8 back buffers of half the passes' size.
    pub chain: SwapChain,
}

impl PostPass {
    /// Records the post pass on `context` (the immediate context, after the frame's lists): the
    /// last pass's target sampled onto the chain's current back buffer. The slots it binds are
    /// left bound (a legacy context's next list starts from ClearState anyway).
    pub fn record<C>(&self, context: &mut C, scene: &Scene) -> Result<(), Error>
    where
        C: BindCalls + InheritedStateCalls + DrawCalls,
    {
        let device = &scene.device;
        let info = device
            .swap_chain_info(self.chain)
            .ok_or_else(|| Error::ReleasedObject {
                call: "post pass",
                object: device.object_name(ObjectKind::SwapChain, self.chain.raw()),
            })?;
        let index = device.current_back_buffer(self.chain).unwrap_or(0);
        // The view that names the current back buffer now: a legacy present moves a chain's
        // views (R-EX-7), so after legacy frames `buffers[index]`'s own view may name another
        // buffer (a fast frame drawing through it would present a stale picture). Where none
        // does, that view is placed on it.
        let on_current = |view: RenderTargetView| {
            device.swap_chain_view_buffer(view) == Some((self.chain, index))
        };
        let target = match info
            .buffers
            .iter()
            .map(|(_, v)| *v)
            .find(|v| on_current(*v))
        {
            Some(view) => Some(view),
            None => match info.buffers.get(index as usize) {
                Some(&(_, view)) => {
                    device.place_swap_chain_view(view, index)?;
                    Some(view)
                }
                None => None,
            },
        };
        let Some(last) = scene.passes.last() else {
            return Ok(());
        };
        context.set_render_targets(&[target], None);
        let (width, height) = (info.width as f32, info.height as f32);
        context.set_viewports(&[Viewport::new(0.0, 0.0, width, height)]);
        context.set_blend_state(None, [0.0; 4], u32::MAX);
        context.set_depth_stencil_state(None, 0);
        context.set_rasterizer_state(Some(scene.rasterizer));
        context.set_input_layout(None);
        context.set_primitive_topology(PrimitiveTopology::TriangleList);
        for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
            context.set_shader(stage, None);
        }
        context.set_shader(Stage::Vertex, Some(self.vertex_shader));
        context.set_shader(Stage::Pixel, Some(self.pixel_shader));
        context.set_shader_resources(Stage::Pixel, 0, &[Some(last.color_view)]);
        context.set_samplers(Stage::Pixel, 0, &[Some(self.sampler)]);
        context.draw(3, 0);
        Ok(())
    }

    fn new(device: &Device, (width, height): (u32, u32)) -> Result<Self, Error> {
        let vs = ShaderDesc::new("post.vs", Stage::Vertex);
        let ps = ShaderDesc {
            shader_resources: Slots::first(1),
            samplers: Slots::first(1),
            ..ShaderDesc::new("post.ps", Stage::Pixel)
        };
        let source = contents::post_pixel_wgsl();
        Ok(Self {
            vertex_shader: device.create_shader_with_code(&vs, wgsl(contents::POST_VERTEX_WGSL))?,
            pixel_shader: device.create_shader_with_code(&ps, wgsl(&source))?,
            sampler: device.create_sampler_state_with("post.sampler", &SamplerDesc::default())?,
            chain: device.create_swap_chain(&SwapChainDesc {
                name: "frame.post",
                buffers: 2,
                format: Format::R8G8B8A8Unorm,
                width: (width / 2).max(1),
                height: (height / 2).max(1),
            })?,
        })
    }
}

/// WGSL code whose entry point is `main`.
fn wgsl(source: &str) -> ShaderCode<'_> {
    ShaderCode::Wgsl {
        source,
        entry: "main",
    }
}

/// The compute shader of the barriers mode's UAV pass, with code when `gpu` asks.
const SIMULATION_WGSL: &str = "
@group(0) @binding(1440) var<storage, read_write> state: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x % arrayLength(&state);
    state[i] = state[i] + 1u;
}
";

impl Simulation {
    fn new(device: &Device, gpu: bool) -> Result<Self, Error> {
        let state = device.create_buffer(&BufferDesc {
            name: "simulation.state",
            size: 64 * 1024,
            usage: Usage::Default,
            bind: BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })?;
        let shader = ShaderDesc {
            unordered_access_views: Slots::first(1),
            ..ShaderDesc::new("simulation.cs", Stage::Compute)
        };
        Ok(Self {
            shader: match gpu {
                true => device.create_shader_with_code(&shader, wgsl(SIMULATION_WGSL))?,
                false => device.create_shader(&shader)?,
            },
            state,
            uav: device.create_unordered_access_view(&ViewDesc::new("simulation.uav", state))?,
            view: device.create_shader_resource_view(&ViewDesc::new("simulation.srv", state))?,
        })
    }
}

impl Scene {
    /// Creates the scene's objects on `device`.
    pub fn new(device: &Device, desc: &SceneDesc) -> Result<Self, SceneError> {
        desc.validate().map_err(SceneError::Desc)?;
        Ok(Self::create(device, desc)?)
    }

    fn create(device: &Device, desc: &SceneDesc) -> Result<Self, Error> {
        let mut rng = Xorshift64::new(desc.seed);
        let buffer = |name: &str, size: u32, usage: Usage, bind: BindFlags| {
            create_buffer(device, name, size, usage, bind)
        };
        // In this order: the objects' creation order and the random stream are the scene's.
        let materials = create_materials(device, desc, &mut rng)?;
        let meshes = create_meshes(device, desc, &mut rng)?;
        let (depth, depth_target, passes) = create_passes(device, desc)?;

        let palettes = (0..PALETTES)
            .map(|k| {
                buffer(
                    &format!("palette.{k}"),
                    PALETTE_BYTES,
                    Usage::Dynamic,
                    BindFlags::CONSTANT,
                )
            })
            .collect::<Result<_, _>>()?;
        let fill = (0..PARTICLE_BYTES.max(PALETTE_BYTES))
            .map(|_| rng.next_u64() as u8)
            .collect();
        let mut scene = Self {
            desc: desc.clone(),
            device: device.clone(),
            materials,
            meshes,
            passes,
            depth,
            depth_target,
            rasterizer: match desc.gpu_contents {
                true => device
                    .create_rasterizer_state_with("raster.cull_back", &contents::no_culling())?,
                false => device.create_rasterizer_state("raster.cull_back")?,
            },
            frame_constants: create_buffer_with(
                device,
                desc.gpu_contents,
                "frame.cb",
                256,
                (Usage::Default, BindFlags::CONSTANT),
                || vec![0; 256],
            )?,
            per_draw_constants: buffer(
                "object.dynamic_cb",
                OBJECT_CONSTANTS_BYTES,
                Usage::Dynamic,
                BindFlags::CONSTANT,
            )?,
            palettes,
            particles: buffer(
                "particles.vb",
                PARTICLE_BYTES,
                Usage::Dynamic,
                BindFlags::VERTEX,
            )?,
            simulation: match desc.barriers {
                true => Some(Simulation::new(device, desc.gpu_contents)?),
                false => None,
            },
            post: match desc.gpu_contents {
                true => Some(PostPass::new(device, desc.size)?),
                false => None,
            },
            fill,
            frame: Vec::new(),
        };
        scene.frame = (0..desc.draws).map(|i| scene.compute_draw(i)).collect();
        Ok(scene)
    }

    /// The pass draw `i` belongs to: `i * passes / draws` (indices past `draws` wrap).
    #[inline]
    pub fn pass_of(&self, i: u32) -> u32 {
        let j = (i % self.desc.draws) as u64;
        (j * self.desc.passes as u64 / self.desc.draws as u64) as u32
    }

    /// What draw `i` of a frame needs (indices past `desc.draws` wrap).
    #[inline(always)]
    pub fn draw(&self, i: u32) -> DrawDesc {
        self.frame[(i % self.desc.draws) as usize]
    }

    /// The frame's draws in order.
    pub fn frame(&self) -> &[DrawDesc] {
        &self.frame
    }

    /// What draw `i` of a frame needs: a pure function of `i` and the seed.
    fn compute_draw(&self, i: u32) -> DrawDesc {
        let desc = &self.desc;
        let j = (i % desc.draws) as u64;
        let (draws, passes) = (desc.draws as u64, desc.passes as u64);
        let pass = (j * passes / draws) as u32;
        let first_in_pass = j == 0 || self.pass_of(i - 1) != pass;
        // Position within the pass, in [0, draws): draws are sorted by material in each pass,
        // and each pass starts its material walk somewhere else.
        let within = j * passes % draws;
        let material =
            ((within * desc.materials as u64 / draws) as u32 + pass * 17) % desc.materials;
        // Consecutive pairs draw the two halves of one mesh.
        let mesh = (hash(desc.seed, i as u64 >> 1) % desc.meshes as u64) as u32;
        let object = if unit(hash(desc.seed ^ 0xd1ce, i as u64)) < desc.dynamic_fraction {
            ObjectConstants::PerDraw
        } else {
            ObjectConstants::Static
        };
        let roll = hash(desc.seed ^ 0xbeef, i as u64);
        let unmapped = if unit(roll) >= desc.unmapped_dynamic_fraction {
            Unmapped::None
        } else if roll & 1 == 0 {
            Unmapped::Palette((roll >> 1) as u32 % PALETTES)
        } else {
            Unmapped::Particles
        };
        let submesh = i & 1;
        let indices = self.meshes[mesh as usize].index_count;
        let half = indices / 6 * 3;
        let (index_count, start_index) = if submesh == 0 {
            (half, 0)
        } else {
            (indices - half, half)
        };
        DrawDesc {
            pass,
            first_in_pass,
            material,
            mesh,
            submesh,
            object,
            unmapped,
            index_count,
            start_index,
            base_vertex: 0,
        }
    }
}

/// A stateless 64-bit mix of `seed` and `i` (one xorshift round over a splitmix seeding).
#[inline]
fn hash(seed: u64, i: u64) -> u64 {
    Xorshift64::new(seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

/// The top 24 bits of `x` as a fraction in [0, 1).
#[inline]
fn unit(x: u64) -> f32 {
    (x >> 40) as f32 / (1u64 << 24) as f32
}

/// An initialised buffer of the scene's.
fn create_buffer(
    device: &Device,
    name: &str,
    size: u32,
    usage: Usage,
    bind: BindFlags,
) -> Result<Buffer, Error> {
    device.create_buffer(&BufferDesc {
        name,
        size,
        usage,
        bind,
        ..Default::default()
    })
}

/// A buffer of the scene's with its initial bytes when the scene has GPU contents (`data` is
/// only called then).
fn create_buffer_with(
    device: &Device,
    gpu: bool,
    name: &str,
    size: u32,
    (usage, bind): (Usage, BindFlags),
    data: impl FnOnce() -> Vec<u8>,
) -> Result<Buffer, Error> {
    let desc = BufferDesc {
        name,
        size,
        usage,
        bind,
        ..Default::default()
    };
    match gpu {
        true => device.create_buffer_with_data(&desc, &data()),
        false => device.create_buffer(&desc),
    }
}

/// The materials: one vertex-shader layout per two materials, textures from a shared pool.
fn create_materials(
    device: &Device,
    desc: &SceneDesc,
    rng: &mut Xorshift64,
) -> Result<Vec<Material>, Error> {
    let gpu = desc.gpu_contents;
    let layout = |name: &str| {
        let layout = InputLayoutDesc {
            name,
            vertex_buffers: Slots::first(2),
        };
        match gpu {
            true => device.create_input_layout_with_elements(&layout, &contents::mesh_elements()),
            false => device.create_input_layout(&layout),
        }
    };
    let layouts = [layout("layout.static")?, layout("layout.skinned")?];
    let formats = [
        Format::Bc1Unorm,
        Format::Bc3Unorm,
        Format::Bc5Unorm,
        Format::Bc7Unorm,
    ];
    let mut pool = Vec::with_capacity(TEXTURE_POOL as usize);
    for t in 0..TEXTURE_POOL {
        let name = format!("texture.{t}");
        let texture = match gpu {
            true => device.create_texture_with_data(
                &TextureDesc {
                    name: &name,
                    format: Format::R8G8B8A8Unorm,
                    width: 64,
                    height: 64,
                    ..Default::default()
                },
                &contents::checker_texels(64, t),
            )?,
            false => device.create_texture(&TextureDesc {
                name: &name,
                format: formats[(t % 4) as usize],
                width: 1024,
                height: 1024,
                mip_levels: 11,
                ..Default::default()
            })?,
        };
        pool.push(device.create_shader_resource_view(&ViewDesc::new(&name, texture))?);
    }
    let sampler = |name: &str| match gpu {
        true => device.create_sampler_state_with(name, &contents::linear_wrap()),
        false => device.create_sampler_state(name),
    };
    let samplers = [
        sampler("sampler.linear_wrap")?,
        sampler("sampler.aniso_wrap")?,
    ];
    let mut materials = Vec::with_capacity(desc.materials as usize);
    for m in 0..desc.materials {
        let name = format!("material.{m}");
        let (vs_name, ps_name) = (format!("{name}.vs"), format!("{name}.ps"));
        let vertex = ShaderDesc {
            constant_buffers: Slots::of(&[FRAME_CB_SLOT, OBJECT_CB_SLOT, PALETTE_CB_SLOT]),
            ..ShaderDesc::new(&vs_name, Stage::Vertex)
        };
        let pixel = ShaderDesc {
            constant_buffers: Slots::of(&[FRAME_CB_SLOT, MATERIAL_CB_SLOT]),
            shader_resources: match desc.barriers {
                true => Slots::first(desc.textures_per_material)
                    .with(PASS_INPUT_SLOT)
                    .with(SIMULATION_SLOT),
                false => Slots::first(desc.textures_per_material).with(PASS_INPUT_SLOT),
            },
            samplers: Slots::first(1),
            ..ShaderDesc::new(&ps_name, Stage::Pixel)
        };
        let (vertex_shader, pixel_shader) = match gpu {
            true => {
                let vs =
                    contents::material_vertex_wgsl(FRAME_CB_SLOT, OBJECT_CB_SLOT, PALETTE_CB_SLOT);
                let simulation = desc.barriers.then_some(SIMULATION_SLOT);
                let ps = contents::material_pixel_wgsl(
                    FRAME_CB_SLOT,
                    MATERIAL_CB_SLOT,
                    desc.textures_per_material,
                    PASS_INPUT_SLOT,
                    simulation,
                );
                (
                    device.create_shader_with_code(&vertex, wgsl(&vs))?,
                    device.create_shader_with_code(&pixel, wgsl(&ps))?,
                )
            }
            false => (
                device.create_shader(&vertex)?,
                device.create_shader(&pixel)?,
            ),
        };
        let textures = (0..desc.textures_per_material)
            .map(|_| Some(pool[rng.below(TEXTURE_POOL) as usize]))
            .collect();
        materials.push(Material {
            vertex_shader,
            pixel_shader,
            input_layout: layouts[(m % 2) as usize],
            textures,
            sampler: samplers[(m % 2) as usize],
            constants: create_buffer_with(
                device,
                gpu,
                &format!("{name}.cb"),
                256,
                (Usage::Immutable, BindFlags::CONSTANT),
                || contents::color_constants(contents::material_color(m), 256),
            )?,
        });
    }
    Ok(materials)
}

/// The meshes: sizes from a few hundred to tens of thousands of triangles; big ones use
/// 32-bit indices.
fn create_meshes(
    device: &Device,
    desc: &SceneDesc,
    rng: &mut Xorshift64,
) -> Result<Vec<Mesh>, Error> {
    let gpu = desc.gpu_contents;
    let mut meshes = Vec::with_capacity(desc.meshes as usize);
    for m in 0..desc.meshes {
        let name = format!("mesh.{m}");
        let vertex_count = 256 + rng.below(65_000);
        let index_count = 3 * (vertex_count + rng.below(vertex_count));
        let index_format = if vertex_count > u16::MAX as u32 / 2 {
            Format::R32Uint
        } else {
            Format::R16Uint
        };
        let (positions, tints) = match gpu {
            true => contents::disc_vertices(vertex_count, 32),
            false => (Vec::new(), Vec::new()),
        };
        let stream = |s: u32, stride: u32, data: Vec<u8>| -> Result<VertexBuffer, Error> {
            Ok(VertexBuffer {
                buffer: Some(create_buffer_with(
                    device,
                    gpu,
                    &format!("{name}.vb{s}"),
                    vertex_count * stride,
                    (Usage::Immutable, BindFlags::VERTEX),
                    || data,
                )?),
                stride,
                offset: 0,
            })
        };
        meshes.push(Mesh {
            streams: [stream(0, 12, positions)?, stream(1, 32, tints)?],
            index_buffer: create_buffer_with(
                device,
                gpu,
                &format!("{name}.ib"),
                index_count * index_format.bytes_per_element(),
                (Usage::Immutable, BindFlags::INDEX),
                || contents::fan_indices(vertex_count, index_count, index_format),
            )?,
            index_format,
            index_count,
            vertex_count,
            object_constants: create_buffer_with(
                device,
                gpu,
                &format!("{name}.object_cb"),
                OBJECT_CONSTANTS_BYTES,
                (Usage::Immutable, BindFlags::CONSTANT),
                || contents::keyed_constants(m | 1 << 31, OBJECT_CONSTANTS_BYTES),
            )?,
        });
    }
    Ok(meshes)
}

/// The passes: compressible colour targets, and one shared depth buffer with its view.
fn create_passes(
    device: &Device,
    desc: &SceneDesc,
) -> Result<(Texture, DepthStencilView, Vec<Pass>), Error> {
    let (full_width, full_height) = desc.size;
    let depth = device.create_texture(&TextureDesc {
        name: "depth",
        format: Format::D24UnormS8Uint,
        width: full_width,
        height: full_height,
        bind: BindFlags::DEPTH_STENCIL,
        ..Default::default()
    })?;
    let depth_target = device.create_depth_stencil_view(&ViewDesc::new("depth.dsv", depth))?;
    let (blends, depth_states) = match desc.gpu_contents {
        true => (
            [
                device.create_blend_state_with("blend.opaque", &BlendDesc::default())?,
                device.create_blend_state_with("blend.additive", &contents::additive_blend())?,
            ],
            [
                device.create_depth_stencil_state_with(
                    "depth.less_write",
                    &contents::depth_state(true),
                )?,
                device.create_depth_stencil_state_with(
                    "depth.equal_no_write",
                    &contents::depth_state(false),
                )?,
            ],
        ),
        false => (
            [
                device.create_blend_state("blend.opaque")?,
                device.create_blend_state("blend.additive")?,
            ],
            [
                device.create_depth_stencil_state("depth.less_write")?,
                device.create_depth_stencil_state("depth.equal_no_write")?,
            ],
        ),
    };
    let mut passes = Vec::with_capacity(desc.passes as usize);
    for p in 0..desc.passes {
        let name = format!("pass.{p}");
        let half = (p % 3).min(1);
        let (width, height) = ((full_width >> half).max(1), (full_height >> half).max(1));
        let color = device.create_texture(&TextureDesc {
            name: &name,
            format: Format::R16G16B16A16Float,
            width,
            height,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })?;
        let shade = p as f32 / desc.passes as f32;
        passes.push(Pass {
            color,
            color_target: device
                .create_render_target_view(&ViewDesc::new(&format!("{name}.rtv"), color))?,
            color_view: device
                .create_shader_resource_view(&ViewDesc::new(&format!("{name}.srv"), color))?,
            viewport: Viewport::new(0.0, 0.0, width as f32, height as f32),
            clear_color: [shade, shade, shade, 1.0],
            blend: blends[(p > 0) as usize],
            depth_state: depth_states[(p > 0) as usize],
        });
    }
    Ok((depth, depth_target, passes))
}
