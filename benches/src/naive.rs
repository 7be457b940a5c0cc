//! The naive baseline the benches compare the recorder with: every call pushed, unvalidated, as
//! one value of a `Command` enum into a `Vec` that is cleared and reused between lists.
//!
//! It is the floor of "store the call for later": no handle lookup, no split-point or semantics
//! logic, no reference counting, no encoding. Slot arrays are owned inline (up to a few per kind,
//! as many as the scene binds at once; a longer bind becomes several commands) and mapped data
//! goes to a side byte vector reused like the command vector, so a warm recorder allocates
//! nothing, like the real one. It is the cheapest `Vec<enum>` recorder, not a strawman: one
//! that owned its slots in a `Vec` per command would allocate on most binds.

use std::ops::Range;

use recorder::*;

use crate::record_draws::CallSink;

/// Shader resources and render targets a command carries inline.
pub const INLINE_VIEWS: usize = 8;
/// Vertex buffers, constant buffers and samplers a command carries inline.
pub const INLINE_BUFFERS: usize = 4;

/// Up to `N` bindings from slot `start`, owned.
#[derive(Clone, Copy, Debug)]
pub struct Slots<T: Copy, const N: usize> {
    pub start: u32,
    pub len: u8,
    pub items: [T; N],
}

impl<T: Copy + Default, const N: usize> Slots<T, N> {
    #[inline(always)]
    fn new(start: u32, items: &[T]) -> Self {
        let mut slots = Self {
            start,
            len: items.len() as u8,
            items: [T::default(); N],
        };
        slots.items[..items.len()].copy_from_slice(items);
        slots
    }
}

/// One recorded call, with its data owned.
#[derive(Clone, Debug)]
pub enum Command {
    SetInputLayout(Option<InputLayout>),
    SetPrimitiveTopology(PrimitiveTopology),
    SetVertexBuffers(Slots<VertexBuffer, INLINE_BUFFERS>),
    SetIndexBuffer {
        buffer: Option<Buffer>,
        format: Format,
        offset: u32,
    },
    SetShader {
        stage: Stage,
        shader: Option<Shader>,
    },
    SetConstantBuffers {
        stage: Stage,
        buffers: Slots<Option<Buffer>, INLINE_BUFFERS>,
    },
    SetShaderResources {
        stage: Stage,
        views: Slots<Option<ShaderResourceView>, INLINE_VIEWS>,
    },
    SetSamplers {
        stage: Stage,
        samplers: Slots<Option<SamplerState>, INLINE_BUFFERS>,
    },
    SetRenderTargets {
        targets: Slots<Option<RenderTargetView>, INLINE_VIEWS>,
        depth_stencil: Option<DepthStencilView>,
    },
    SetBlendState {
        state: Option<BlendState>,
        factor: [f32; 4],
        mask: u32,
    },
    SetDepthStencilState {
        state: Option<DepthStencilState>,
        stencil_ref: u32,
    },
    SetRasterizerState(Option<RasterizerState>),
    SetViewports(Slots<Viewport, 1>),
    ClearRenderTargetView {
        view: RenderTargetView,
        color: [f32; 4],
    },
    ClearDepthStencilView {
        view: DepthStencilView,
        flags: ClearFlags,
        depth: f32,
        stencil: u8,
    },
    DecompressResource {
        texture: Texture,
        into: Option<Texture>,
    },
    SetComputeUnorderedAccessViews {
        views: Slots<Option<UnorderedAccessView>, INLINE_VIEWS>,
    },
    Dispatch([u32; 3]),
    /// A barrier call's groups, flattened: its global, buffer and texture barriers.
    Barrier {
        globals: Vec<GlobalBarrier>,
        buffers: Vec<BufferBarrier>,
        textures: Vec<TextureBarrier>,
    },
    /// The mapped bytes are `data` of the recorder's side vector.
    MapWriteDiscard {
        buffer: Buffer,
        data: Range<u32>,
    },
    Unmap(Buffer),
    DrawIndexed {
        index_count: u32,
        start_index: u32,
        base_vertex: i32,
    },
}

/// A `Vec<Command>` recorder. Create it once; [`clear`](Self::clear) between lists keeps the
/// capacity.
pub struct NaiveRecorder {
    semantics: Semantics,
    pub commands: Vec<Command>,
    pub data: Vec<u8>,
    /// Size of the buffers it may map, by buffer (the naive recorder knows no device).
    buffer_sizes: Vec<(Buffer, u32)>,
}

impl NaiveRecorder {
    /// A recorder that records the call sequence of `semantics`; `buffer_sizes` gives the size of
    /// every buffer the sequence maps.
    pub fn new(semantics: Semantics, buffer_sizes: Vec<(Buffer, u32)>) -> Self {
        Self {
            semantics,
            commands: Vec::new(),
            data: Vec::new(),
            buffer_sizes,
        }
    }

    /// A recorder for the scene's mapped buffers.
    pub fn for_scene(semantics: Semantics, scene: &crate::Scene) -> Self {
        let mut sizes = vec![
            (
                scene.per_draw_constants,
                crate::scene::OBJECT_CONSTANTS_BYTES,
            ),
            (scene.particles, crate::scene::PARTICLE_BYTES),
        ];
        sizes.extend(
            scene
                .palettes
                .iter()
                .map(|&p| (p, crate::scene::PALETTE_BYTES)),
        );
        Self::new(semantics, sizes)
    }

    /// Forgets the recorded commands and data, keeping the memory.
    pub fn clear(&mut self) {
        self.commands.clear();
        self.data.clear();
    }

    /// Calls recorded since the last clear.
    pub fn calls(&self) -> usize {
        self.commands.len()
    }

    /// Bytes the commands and their data occupy.
    pub fn bytes(&self) -> usize {
        self.commands.len() * std::mem::size_of::<Command>() + self.data.len()
    }

    #[inline(always)]
    fn push(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// Pushes one command per `N` slots of `items`.
    #[inline(always)]
    fn push_slots<T: Copy + Default, const N: usize>(
        &mut self,
        start: u32,
        items: &[T],
        make: impl Fn(Slots<T, N>) -> Command,
    ) {
        if items.len() <= N {
            self.push(make(Slots::new(start, items)));
        } else {
            for (k, part) in items.chunks(N).enumerate() {
                self.push(make(Slots::new(start + (k * N) as u32, part)));
            }
        }
    }
}

impl CallSink for NaiveRecorder {
    #[inline(always)]
    fn semantics(&self) -> Semantics {
        self.semantics
    }
    #[inline(always)]
    fn set_input_layout(&mut self, layout: Option<InputLayout>) {
        self.push(Command::SetInputLayout(layout));
    }
    #[inline(always)]
    fn set_primitive_topology(&mut self, topology: PrimitiveTopology) {
        self.push(Command::SetPrimitiveTopology(topology));
    }
    #[inline(always)]
    fn set_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]) {
        self.push_slots(start, buffers, Command::SetVertexBuffers);
    }
    #[inline(always)]
    fn set_index_buffer(&mut self, buffer: Option<Buffer>, format: Format, offset: u32) {
        self.push(Command::SetIndexBuffer {
            buffer,
            format,
            offset,
        });
    }
    #[inline(always)]
    fn set_shader(&mut self, stage: Stage, shader: Option<Shader>) {
        self.push(Command::SetShader { stage, shader });
    }
    #[inline(always)]
    fn set_constant_buffers(&mut self, stage: Stage, start: u32, buffers: &[Option<Buffer>]) {
        self.push_slots(start, buffers, |buffers| Command::SetConstantBuffers {
            stage,
            buffers,
        });
    }
    #[inline(always)]
    fn set_shader_resources(
        &mut self,
        stage: Stage,
        start: u32,
        views: &[Option<ShaderResourceView>],
    ) {
        self.push_slots(start, views, |views| Command::SetShaderResources {
            stage,
            views,
        });
    }
    #[inline(always)]
    fn set_samplers(&mut self, stage: Stage, start: u32, samplers: &[Option<SamplerState>]) {
        self.push_slots(start, samplers, |samplers| Command::SetSamplers {
            stage,
            samplers,
        });
    }
    #[inline(always)]
    fn set_render_targets(
        &mut self,
        targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
    ) {
        let n = targets.len().min(INLINE_VIEWS);
        self.push(Command::SetRenderTargets {
            targets: Slots::new(0, &targets[..n]),
            depth_stencil,
        });
    }
    #[inline(always)]
    fn set_blend_state(&mut self, state: Option<BlendState>, factor: [f32; 4], mask: u32) {
        self.push(Command::SetBlendState {
            state,
            factor,
            mask,
        });
    }
    #[inline(always)]
    fn set_depth_stencil_state(&mut self, state: Option<DepthStencilState>, stencil_ref: u32) {
        self.push(Command::SetDepthStencilState { state, stencil_ref });
    }
    #[inline(always)]
    fn set_rasterizer_state(&mut self, state: Option<RasterizerState>) {
        self.push(Command::SetRasterizerState(state));
    }
    #[inline(always)]
    fn set_viewports(&mut self, viewports: &[Viewport]) {
        self.push_slots(0, viewports, Command::SetViewports);
    }
    #[inline(always)]
    fn clear_render_target_view(&mut self, view: RenderTargetView, color: [f32; 4]) {
        self.push(Command::ClearRenderTargetView { view, color });
    }
    #[inline(always)]
    fn clear_depth_stencil_view(
        &mut self,
        view: DepthStencilView,
        flags: ClearFlags,
        depth: f32,
        stencil: u8,
    ) {
        self.push(Command::ClearDepthStencilView {
            view,
            flags,
            depth,
            stencil,
        });
    }
    #[inline(always)]
    fn decompress_resource(&mut self, texture: Texture, into: Option<Texture>) {
        self.push(Command::DecompressResource { texture, into });
    }
    #[inline(always)]
    fn set_compute_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    ) {
        self.push_slots(start, views, |views| {
            Command::SetComputeUnorderedAccessViews { views }
        });
    }
    #[inline(always)]
    fn dispatch(&mut self, x: u32, y: u32, z: u32) {
        self.push(Command::Dispatch([x, y, z]));
    }
    fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
        let (mut globals, mut buffers, mut textures) = (Vec::new(), Vec::new(), Vec::new());
        for group in groups {
            match *group {
                BarrierGroup::Global(b) => globals.extend_from_slice(b),
                BarrierGroup::Buffer(b) => buffers.extend_from_slice(b),
                BarrierGroup::Texture(b) => textures.extend_from_slice(b),
            }
        }
        self.push(Command::Barrier {
            globals,
            buffers,
            textures,
        });
    }
    #[inline(always)]
    fn map_write_discard(&mut self, buffer: Buffer) -> Option<&mut [u8]> {
        let size = self
            .buffer_sizes
            .iter()
            .find(|(b, _)| *b == buffer)
            .map_or(0, |(_, size)| *size) as usize;
        let start = self.data.len();
        self.data.resize(start + size, 0);
        self.push(Command::MapWriteDiscard {
            buffer,
            data: start as u32..(start + size) as u32,
        });
        Some(&mut self.data[start..])
    }
    #[inline(always)]
    fn unmap(&mut self, buffer: Buffer) {
        self.push(Command::Unmap(buffer));
    }
    #[inline(always)]
    fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) {
        self.push(Command::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        });
    }
}
