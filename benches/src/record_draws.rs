//! Recording a range of a frame's draws: [`record_draws`] walks the scene's draws and issues the
//! state sets each one needs (only what changed since the previous draw of the range) and the
//! draw itself, through [`CallSink`], the slice of the deferred-context API the mix uses. The
//! same sequence can thus go to a [`DeferredContext`], to the capture's [`CapturedDeferred`]
//! (the frame demo's `--capture`, the `record` bench's capture columns) or to the naive
//! baseline (`naive.rs`).
//!
//! Each range starts knowing nothing of what is bound (a worker's list inherits nothing useful:
//! a legacy list starts from the ClearState defaults, a fast list from whatever the immediate
//! context has), so its first draw sets everything.
//!
//! Semantics decide two things, as the seeds say a fast-semantics application must:
//! - a dynamic buffer bound without a write_discard map in the list (a skinning palette, the
//!   particle stream) is a split point under legacy semantics and an error under fast, so a fast
//!   range maps each such buffer write_discard before its first bind (R-SP-1, R-SP-3);
//! - reading an earlier pass's render target is a decompression split point under legacy
//!   semantics; a fast list records `decompress_resource` explicitly, once, in the list that
//!   switches to the pass (R-SP-2, R-ST-9).

use std::ops::Range;

use recorder::*;
use trace::capture::CapturedDeferred;

use crate::scene::*;

/// The calls the scene records: a subset of [`DeferredContext`]'s recording API, so the
/// recorder and the naive baseline record the same sequence. Every method is the deferred
/// context's method of the same name, except `map_write_discard` (a `map` with
/// `MapType::WriteDiscard`).
pub trait CallSink {
    fn semantics(&self) -> Semantics;
    fn set_input_layout(&mut self, layout: Option<InputLayout>);
    fn set_primitive_topology(&mut self, topology: PrimitiveTopology);
    fn set_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]);
    fn set_index_buffer(&mut self, buffer: Option<Buffer>, format: Format, offset: u32);
    fn set_shader(&mut self, stage: Stage, shader: Option<Shader>);
    fn set_constant_buffers(&mut self, stage: Stage, start: u32, buffers: &[Option<Buffer>]);
    fn set_shader_resources(
        &mut self,
        stage: Stage,
        start: u32,
        views: &[Option<ShaderResourceView>],
    );
    fn set_samplers(&mut self, stage: Stage, start: u32, samplers: &[Option<SamplerState>]);
    fn set_render_targets(
        &mut self,
        targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
    );
    fn set_blend_state(&mut self, state: Option<BlendState>, factor: [f32; 4], mask: u32);
    fn set_depth_stencil_state(&mut self, state: Option<DepthStencilState>, stencil_ref: u32);
    fn set_rasterizer_state(&mut self, state: Option<RasterizerState>);
    fn set_viewports(&mut self, viewports: &[Viewport]);
    fn clear_render_target_view(&mut self, view: RenderTargetView, color: [f32; 4]);
    fn clear_depth_stencil_view(
        &mut self,
        view: DepthStencilView,
        flags: ClearFlags,
        depth: f32,
        stencil: u8,
    );
    fn decompress_resource(&mut self, texture: Texture, into: Option<Texture>);
    fn barrier(&mut self, groups: &[BarrierGroup<'_>]);
    fn set_compute_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    );
    fn dispatch(&mut self, x: u32, y: u32, z: u32);
    /// Maps `buffer` write_discard; `None` if the call was refused.
    fn map_write_discard(&mut self, buffer: Buffer) -> Option<&mut [u8]>;
    fn unmap(&mut self, buffer: Buffer);
    fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32);
}

/// `CallSink` for a context of the engine: each method is the capability method of the same
/// name (the capture's deferred context asks the capture's tap first, `trace::capture`: the
/// frame demo's `--capture` and the `record` bench's idle and capturing columns).
macro_rules! call_sink {
    ($type:ty) => {
        impl CallSink for $type {
            #[inline(always)]
            fn semantics(&self) -> Semantics {
                <$type>::semantics(self)
            }
            call_sink!(@calls
                BindCalls::set_input_layout(layout: Option<InputLayout>);
                BindCalls::set_primitive_topology(topology: PrimitiveTopology);
                BindCalls::set_vertex_buffers(start: u32, buffers: &[VertexBuffer]);
                BindCalls::set_index_buffer(buffer: Option<Buffer>, format: Format, offset: u32);
                BindCalls::set_shader(stage: Stage, shader: Option<Shader>);
                BindCalls::set_constant_buffers(stage: Stage, start: u32, buffers: &[Option<Buffer>]);
                BindCalls::set_shader_resources(stage: Stage, start: u32, views: &[Option<ShaderResourceView>]);
                BindCalls::set_samplers(stage: Stage, start: u32, samplers: &[Option<SamplerState>]);
                InheritedStateCalls::set_render_targets(targets: &[Option<RenderTargetView>], depth_stencil: Option<DepthStencilView>);
                InheritedStateCalls::set_blend_state(state: Option<BlendState>, factor: [f32; 4], mask: u32);
                InheritedStateCalls::set_depth_stencil_state(state: Option<DepthStencilState>, stencil_ref: u32);
                InheritedStateCalls::set_rasterizer_state(state: Option<RasterizerState>);
                InheritedStateCalls::set_viewports(viewports: &[Viewport]);
                TransferCalls::clear_render_target_view(view: RenderTargetView, color: [f32; 4]);
                TransferCalls::clear_depth_stencil_view(view: DepthStencilView, flags: ClearFlags, depth: f32, stencil: u8);
                BarrierCalls::decompress_resource(texture: Texture, into: Option<Texture>);
                BarrierCalls::barrier(groups: &[BarrierGroup<'_>]);
                InheritedStateCalls::set_compute_unordered_access_views(start: u32, views: &[Option<UnorderedAccessView>]);
                DrawCalls::dispatch(x: u32, y: u32, z: u32);
                MapCalls::unmap(buffer: Buffer);
                DrawCalls::draw_indexed(index_count: u32, start_index: u32, base_vertex: i32);
            );
            #[inline(always)]
            fn map_write_discard(&mut self, buffer: Buffer) -> Option<&mut [u8]> {
                MapCalls::map(self, buffer, MapType::WriteDiscard, MapFlags::None)
                    .map(Mapped::keep_mapped)
                    .ok()
            }
        }
    };
    (@calls $($capability:ident::$name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[inline(always)]
        fn $name(&mut self, $($arg: $ty),*) {
            $capability::$name(self, $($arg),*)
        }
    )*};
}

call_sink!(DeferredContext);
call_sink!(CapturedDeferred);

/// What the range has bound so far (`None`: not yet, so the next draw sets it).
#[derive(Default)]
struct Bound {
    pass: Option<u32>,
    material: Option<u32>,
    input_layout: Option<InputLayout>,
    sampler: Option<SamplerState>,
    /// Mesh whose streams are bound, and whether the particle stream replaces the second.
    streams: Option<(u32, bool)>,
    index_buffer: Option<u32>,
    /// Mesh whose static object constants are bound; `u32::MAX` for the per-draw buffer.
    object: Option<u32>,
    palette: Option<u32>,
    /// Fast semantics: dynamic buffers this range mapped before binding them (palette `k` is
    /// bit `k`, the particle stream `PARTICLES_BIT`).
    mapped: u32,
}

const PARTICLES_BIT: u32 = 1 << 31;
const PER_DRAW: u32 = u32::MAX;
const _: () = assert!(
    PALETTES < 31,
    "palettes and the particle stream share a bit mask"
);

/// Records draws `draws` of the scene's frame on `sink` (a [`DeferredContext`] or the naive
/// baseline), with the state sets each needs. Deterministic: the same range gives the same
/// calls. Indices past `scene.desc.draws` wrap around the frame.
pub fn record_draws<R: CallSink + ?Sized>(sink: &mut R, scene: &Scene, draws: Range<u32>) {
    if draws.is_empty() {
        return;
    }
    let fast = sink.semantics() == Semantics::Fast;
    let mut bound = Bound::default();
    // Frame-wide state, once per range.
    sink.set_primitive_topology(PrimitiveTopology::TriangleList);
    sink.set_rasterizer_state(Some(scene.rasterizer));
    let frame = [Some(scene.frame_constants)];
    sink.set_constant_buffers(Stage::Vertex, FRAME_CB_SLOT, &frame);
    sink.set_constant_buffers(Stage::Pixel, FRAME_CB_SLOT, &frame);

    for i in draws {
        let draw = scene.draw(i);
        if bound.pass != Some(draw.pass) {
            begin_pass(sink, scene, draw, fast);
            bound.pass = Some(draw.pass);
        }
        if bound.material != Some(draw.material) {
            let material = &scene.materials[draw.material as usize];
            if bound.input_layout != Some(material.input_layout) {
                sink.set_input_layout(Some(material.input_layout));
                bound.input_layout = Some(material.input_layout);
            }
            sink.set_shader(Stage::Vertex, Some(material.vertex_shader));
            sink.set_shader(Stage::Pixel, Some(material.pixel_shader));
            sink.set_shader_resources(Stage::Pixel, 0, &material.textures);
            if bound.sampler != Some(material.sampler) {
                sink.set_samplers(Stage::Pixel, 0, &[Some(material.sampler)]);
                bound.sampler = Some(material.sampler);
            }
            sink.set_constant_buffers(Stage::Pixel, MATERIAL_CB_SLOT, &[Some(material.constants)]);
            bound.material = Some(draw.material);
        }

        let mesh = &scene.meshes[draw.mesh as usize];
        let particles = draw.unmapped == Unmapped::Particles;
        if bound.streams != Some((draw.mesh, particles)) {
            let mut streams = mesh.streams;
            if particles {
                if fast && bound.mapped & PARTICLES_BIT == 0 {
                    write_discard(sink, scene.particles, &scene.fill, i);
                    bound.mapped |= PARTICLES_BIT;
                }
                streams[1] = VertexBuffer {
                    buffer: Some(scene.particles),
                    stride: crate::scene::PARTICLE_STRIDE,
                    offset: 0,
                };
            }
            sink.set_vertex_buffers(0, &streams);
            bound.streams = Some((draw.mesh, particles));
        }
        if bound.index_buffer != Some(draw.mesh) {
            sink.set_index_buffer(Some(mesh.index_buffer), mesh.index_format, 0);
            bound.index_buffer = Some(draw.mesh);
        }

        match draw.object {
            ObjectConstants::PerDraw => {
                // Map, fill, unmap and bind: the bind after the map is what makes a fast draw see
                // the new instance (R-ST-8); a legacy list would re-bind it anyway.
                write_discard(sink, scene.per_draw_constants, &scene.fill, i);
                let buffer = [Some(scene.per_draw_constants)];
                sink.set_constant_buffers(Stage::Vertex, OBJECT_CB_SLOT, &buffer);
                bound.object = Some(PER_DRAW);
            }
            ObjectConstants::Static => {
                if bound.object != Some(draw.mesh) {
                    let buffer = [Some(mesh.object_constants)];
                    sink.set_constant_buffers(Stage::Vertex, OBJECT_CB_SLOT, &buffer);
                    bound.object = Some(draw.mesh);
                }
            }
        }
        if let Unmapped::Palette(k) = draw.unmapped {
            if bound.palette != Some(k) {
                let palette = scene.palettes[k as usize];
                if fast && bound.mapped & 1 << k == 0 {
                    write_discard(sink, palette, &scene.fill, i);
                    bound.mapped |= 1 << k;
                }
                sink.set_constant_buffers(Stage::Vertex, PALETTE_CB_SLOT, &[Some(palette)]);
                bound.palette = Some(k);
            }
        }

        sink.draw_indexed(draw.index_count, draw.start_index, draw.base_vertex);
    }
}

/// Switches to the draw's pass: targets, viewport, blend and depth state; the frame's first draw
/// of the pass clears the targets; passes after the first read the previous pass's target.
#[inline(never)]
pub(crate) fn begin_pass<R: CallSink + ?Sized>(
    sink: &mut R,
    scene: &Scene,
    draw: DrawDesc,
    fast: bool,
) {
    let p = draw.pass as usize;
    let pass = &scene.passes[p];
    let barriers = fast && scene.desc.barriers;
    if barriers && draw.first_in_pass {
        // Before the bind: the output merger takes a target's compression when it is bound.
        pass_barriers(sink, scene, p);
        if let Some(simulation) = &scene.simulation {
            simulate(sink, simulation);
        }
    }
    sink.set_render_targets(&[Some(pass.color_target)], Some(scene.depth_target));
    sink.set_viewports(&[pass.viewport]);
    sink.set_blend_state(Some(pass.blend), [0.0; 4], u32::MAX);
    sink.set_depth_stencil_state(Some(pass.depth_state), 0);
    if draw.first_in_pass {
        sink.clear_render_target_view(pass.color_target, pass.clear_color);
        if p == 0 {
            sink.clear_depth_stencil_view(scene.depth_target, ClearFlags::DEPTH_STENCIL, 1.0, 0);
        }
    }
    let input = if p > 0 {
        let previous = &scene.passes[p - 1];
        // Fast: the application decompresses what it is about to read, once, in the list that
        // moves to the pass; later lists of the pass execute after it.
        if fast && !barriers && draw.first_in_pass {
            sink.decompress_resource(previous.color, None);
        }
        Some(previous.color_view)
    } else {
        None
    };
    sink.set_shader_resources(Stage::Pixel, PASS_INPUT_SLOT, &[input]);
    if let (true, Some(simulation)) = (barriers, &scene.simulation) {
        sink.set_shader_resources(Stage::Pixel, SIMULATION_SLOT, &[Some(simulation.view)]);
    }
}

/// The barriers mode's UAV pass (`Simulation`): the state moves from the last pass's
/// shader-resource reads to unordered access, two dispatches write it with a UAV barrier
/// between them (the second reads what the first wrote), and it moves to shader resource for the
/// pass's pixel shaders. The UAV is unbound after, as an engine would before reading the state.
fn simulate<R: CallSink + ?Sized>(sink: &mut R, simulation: &Simulation) {
    let buffer = |sync_before, sync_after, access_before, access_after| BufferBarrier {
        sync_before,
        sync_after,
        access_before,
        access_after,
        resource: simulation.state.into(),
        offset: 0,
        size: BufferBarrier::WHOLE,
    };
    sink.barrier(&[BarrierGroup::Buffer(&[buffer(
        BarrierSync::PIXEL_SHADING,
        BarrierSync::COMPUTE_SHADING,
        BarrierAccess::SHADER_RESOURCE,
        BarrierAccess::UNORDERED_ACCESS,
    )])]);
    sink.set_shader(Stage::Compute, Some(simulation.shader));
    sink.set_compute_unordered_access_views(0, &[Some(simulation.uav)]);
    sink.dispatch(64, 1, 1);
    let uav = BarrierAccess::UNORDERED_ACCESS;
    let compute = BarrierSync::COMPUTE_SHADING;
    sink.barrier(&[BarrierGroup::Buffer(&[buffer(compute, compute, uav, uav)])]);
    sink.dispatch(64, 1, 1);
    sink.set_compute_unordered_access_views(0, &[None]);
    sink.barrier(&[BarrierGroup::Buffer(&[buffer(
        compute,
        BarrierSync::PIXEL_SHADING,
        uav,
        BarrierAccess::SHADER_RESOURCE,
    )])]);
}

/// The barriers a fast frame makes at the start of pass `p` (`SceneDesc::barriers`): its colour
/// target (and, for the first pass, the depth target) from `undefined` with `discard` into the
/// target layout, since the pass clears it; the previous pass's target from render target to
/// shader resource, which decompresses it (a non-TC target, R-BAR-3) instead of an explicit
/// `decompress_resource`.
fn pass_barriers<R: CallSink + ?Sized>(sink: &mut R, scene: &Scene, p: usize) {
    let fresh = |texture: Texture, sync: BarrierSync, access, layout| TextureBarrier {
        sync_before: BarrierSync::NONE,
        sync_after: sync,
        access_before: BarrierAccess::NO_ACCESS,
        access_after: access,
        layout_before: BarrierLayout::Undefined,
        layout_after: layout,
        resource: texture.into(),
        subresources: BarrierSubresources::ALL,
        discard: true,
    };
    let mut barriers = [fresh(
        scene.passes[p].color,
        BarrierSync::RENDER_TARGET,
        BarrierAccess::RENDER_TARGET,
        BarrierLayout::RenderTarget,
    ); 2];
    let second = match p {
        0 => fresh(
            scene.depth,
            BarrierSync::DEPTH_STENCIL,
            BarrierAccess::DEPTH_STENCIL_WRITE,
            BarrierLayout::DepthStencilWrite,
        ),
        _ => TextureBarrier {
            sync_before: BarrierSync::RENDER_TARGET,
            sync_after: BarrierSync::PIXEL_SHADING,
            access_before: BarrierAccess::RENDER_TARGET,
            access_after: BarrierAccess::SHADER_RESOURCE,
            layout_before: BarrierLayout::RenderTarget,
            layout_after: BarrierLayout::ShaderResource,
            resource: scene.passes[p - 1].color.into(),
            subresources: BarrierSubresources::ALL,
            discard: false,
        },
    };
    barriers[1] = second;
    sink.barrier(&[BarrierGroup::Texture(&barriers)]);
}

/// Maps `buffer` write_discard, fills it from `fill` (stamped with the draw index) and unmaps it.
#[inline(always)]
pub(crate) fn write_discard<R: CallSink + ?Sized>(
    sink: &mut R,
    buffer: Buffer,
    fill: &[u8],
    draw: u32,
) {
    if let Some(data) = sink.map_write_discard(buffer) {
        let n = data.len().min(fill.len());
        data[..n].copy_from_slice(&fill[..n]);
        if n >= 4 {
            data[..4].copy_from_slice(&draw.to_le_bytes());
        }
    }
    sink.unmap(buffer);
}

/// A sink that forwards every call but the draws: what the state sets alone cost.
pub struct WithoutDraws<'a, R: ?Sized>(pub &'a mut R);

macro_rules! forward {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[inline(always)]
        fn $name(&mut self, $($arg: $ty),*) {
            self.0.$name($($arg),*)
        }
    )*};
}

impl<R: CallSink + ?Sized> CallSink for WithoutDraws<'_, R> {
    #[inline(always)]
    fn semantics(&self) -> Semantics {
        self.0.semantics()
    }
    forward! {
        set_input_layout(layout: Option<InputLayout>);
        set_primitive_topology(topology: PrimitiveTopology);
        set_vertex_buffers(start: u32, buffers: &[VertexBuffer]);
        set_index_buffer(buffer: Option<Buffer>, format: Format, offset: u32);
        set_shader(stage: Stage, shader: Option<Shader>);
        set_constant_buffers(stage: Stage, start: u32, buffers: &[Option<Buffer>]);
        set_shader_resources(stage: Stage, start: u32, views: &[Option<ShaderResourceView>]);
        set_samplers(stage: Stage, start: u32, samplers: &[Option<SamplerState>]);
        set_render_targets(targets: &[Option<RenderTargetView>], depth_stencil: Option<DepthStencilView>);
        set_blend_state(state: Option<BlendState>, factor: [f32; 4], mask: u32);
        set_depth_stencil_state(state: Option<DepthStencilState>, stencil_ref: u32);
        set_rasterizer_state(state: Option<RasterizerState>);
        set_viewports(viewports: &[Viewport]);
        clear_render_target_view(view: RenderTargetView, color: [f32; 4]);
        clear_depth_stencil_view(view: DepthStencilView, flags: ClearFlags, depth: f32, stencil: u8);
        decompress_resource(texture: Texture, into: Option<Texture>);
        unmap(buffer: Buffer);
    }
    #[inline(always)]
    fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
        self.0.barrier(groups)
    }
    #[inline(always)]
    fn set_compute_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    ) {
        self.0.set_compute_unordered_access_views(start, views)
    }
    #[inline(always)]
    fn dispatch(&mut self, x: u32, y: u32, z: u32) {
        self.0.dispatch(x, y, z)
    }
    #[inline(always)]
    fn map_write_discard(&mut self, buffer: Buffer) -> Option<&mut [u8]> {
        self.0.map_write_discard(buffer)
    }
    #[inline(always)]
    fn draw_indexed(&mut self, _index_count: u32, _start_index: u32, _base_vertex: i32) {}
}

/// Records only the draws of `draws` (no state at all): what a draw alone costs.
pub fn record_draws_only<R: CallSink + ?Sized>(sink: &mut R, scene: &Scene, draws: Range<u32>) {
    for i in draws {
        let draw = scene.draw(i);
        sink.draw_indexed(draw.index_count, draw.start_index, draw.base_vertex);
    }
}

/// One kind of call recorded alone, for the per-call cost of the `fast-only` build (R-FX-7): the
/// `record` bench's `record_fast_calls` group and `count_record`'s mixes of the same names.
/// Each step changes what is bound (it walks the scene's materials and meshes), as a real
/// recording does, so no call repeats its predecessor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneCall {
    /// `set_shader`, vertex and pixel stages in turn.
    SetShader,
    /// `set_input_layout`.
    SetInputLayout,
    /// The one-slot binds of a draw: a constant buffer, a shader-resource view and a vertex
    /// buffer (three calls a step).
    Binds,
    /// `draw_indexed` with nothing bound.
    Draw,
}

impl OneCall {
    /// Every kind, in the order the bench reports them.
    pub const ALL: [OneCall; 4] = [
        OneCall::SetShader,
        OneCall::SetInputLayout,
        OneCall::Binds,
        OneCall::Draw,
    ];

    /// The bench id's and `count_record`'s name of the kind.
    pub fn name(self) -> &'static str {
        match self {
            Self::SetShader => "set_shader",
            Self::SetInputLayout => "set_input_layout",
            Self::Binds => "binds",
            Self::Draw => "draw",
        }
    }

    /// The kind named `name` (`set_shader`, `set_input_layout`, `binds`, `draw`).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|call| call.name() == name)
    }
}

/// Records `steps` steps of `call` alone on `sink` (see [`OneCall`]): `steps` calls, or three
/// times as many for [`OneCall::Binds`].
#[inline(always)]
pub fn record_one_call<R: CallSink + ?Sized>(
    sink: &mut R,
    scene: &Scene,
    call: OneCall,
    steps: u32,
) {
    let materials = scene.materials.len();
    let meshes = scene.meshes.len();
    for step in 0..steps as usize {
        let material = &scene.materials[step % materials];
        match call {
            OneCall::SetShader if step % 2 == 0 => {
                sink.set_shader(Stage::Vertex, Some(material.vertex_shader))
            }
            OneCall::SetShader => sink.set_shader(Stage::Pixel, Some(material.pixel_shader)),
            OneCall::SetInputLayout => sink.set_input_layout(Some(material.input_layout)),
            OneCall::Binds => {
                let mesh = &scene.meshes[step % meshes];
                sink.set_constant_buffers(
                    Stage::Pixel,
                    MATERIAL_CB_SLOT,
                    &[Some(material.constants)],
                );
                sink.set_shader_resources(Stage::Pixel, 0, &material.textures[..1]);
                sink.set_vertex_buffers(0, &mesh.streams[..1]);
            }
            OneCall::Draw => {
                let mesh = &scene.meshes[step % meshes];
                sink.draw_indexed(mesh.index_count / 2, 0, 0);
            }
        }
    }
}
