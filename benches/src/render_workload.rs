//! The render-bundle workload (after wgpu's render-bundle benchmark), on every recording path this engine
//! has and on two references: per draw one constant-buffer bind rotating among 16 buffers, one
//! vertex-buffer bind rotating among 8, and `draw(3, 0)`; the vertex and pixel shaders and the
//! blend state change every 100 draws. Shared by the `workload` harness (`src/bin/workload_harness.rs`)
//! and the criterion benches, so both time the same calls.
//!
//! **In:** a [`Device`] (the objects are created on it once, [`Workload::new`]) and a range of
//! draws. **Out:** the calls of those draws made on any [`DeviceContext`] (a deferred context, a
//! bundle recorder, the immediate context), on the [`ArcRecorder`] (a naive `Vec<enum>` recorder
//! taking an `Arc` clone per bound object, what a renderer writes first) or into the
//! [`AppendProbe`] (32-byte records appended into recycled 64 KB chunks: the limit of "one append
//! per command").
//!
//! **Invariants.** Draw `i` makes the same calls whatever range it is recorded in (the state
//! changes every 100 draws are keyed on `i`, and the first draw of a range binds the pipeline), so
//! the frame can be cut among threads or bundles freely. Every buffer has default usage: no split
//! points, no maps, both semantics record it without an error.

use std::ops::Range;
use std::sync::Arc;

use recorder::*;

/// Constant buffers the draws rotate among.
pub const CONSTANT_BUFFERS: usize = 16;
/// Vertex buffers the draws rotate among.
pub const VERTEX_BUFFERS: usize = 8;
/// Draws between two pipeline changes (shaders and blend state).
pub const PIPELINE_EVERY: u32 = 100;
/// The vertex stride of every draw.
pub const STRIDE: u32 = 16;

/// The workload's objects.
pub struct Workload {
    pub constants: [Buffer; CONSTANT_BUFFERS],
    pub vertices: [Buffer; VERTEX_BUFFERS],
    pub vertex_shaders: [Shader; 2],
    pub pixel_shaders: [Shader; 2],
    pub blends: [BlendState; 2],
    pub input_layout: InputLayout,
}

impl Workload {
    /// Creates the objects on `device`.
    pub fn new(device: &Device) -> Result<Self, Error> {
        let buffer = |name: &str, bind: BindFlags| {
            device.create_buffer(&BufferDesc {
                name,
                size: 4096,
                usage: Usage::Default,
                bind,
                ..Default::default()
            })
        };
        let constants = array(|k| buffer(&format!("cb{k}"), BindFlags::CONSTANT))?;
        let vertices = array(|k| buffer(&format!("vb{k}"), BindFlags::VERTEX))?;
        let shader = |name: &str, stage: Stage| {
            device.create_shader(&ShaderDesc {
                constant_buffers: if stage == Stage::Vertex {
                    Slots::first(1)
                } else {
                    Slots::EMPTY
                },
                ..ShaderDesc::new(name, stage)
            })
        };
        Ok(Self {
            constants,
            vertices,
            vertex_shaders: array(|k| shader(&format!("vs{k}"), Stage::Vertex))?,
            pixel_shaders: array(|k| shader(&format!("ps{k}"), Stage::Pixel))?,
            blends: array(|k| device.create_blend_state(&format!("blend{k}")))?,
            input_layout: device.create_input_layout(&InputLayoutDesc {
                name: "layout",
                vertex_buffers: Slots::first(1),
            })?,
        })
    }

    /// Records draws `draws` on `context`.
    #[inline]
    pub fn record<C: DeviceContext + ?Sized>(&self, context: &mut C, draws: Range<u32>) {
        let blends = self.blends;
        let blend = |context: &mut C, k: usize| {
            context.set_blend_state(Some(blends[k]), [0.0; 4], u32::MAX)
        };
        self.record_calls(context, draws, Some(blend));
    }

    /// Records draws `draws` on a bundle recorder: the same calls without the blend state,
    /// which a bundle always inherits from the list that calls it (R-B-7).
    #[inline]
    pub fn record_bundle<C: BindCalls + DrawCalls + ?Sized>(
        &self,
        context: &mut C,
        draws: Range<u32>,
    ) {
        self.record_calls(context, draws, None::<fn(&mut C, usize)>);
    }

    #[inline(always)]
    fn record_calls<C: BindCalls + DrawCalls + ?Sized>(
        &self,
        context: &mut C,
        draws: Range<u32>,
        mut blend: Option<impl FnMut(&mut C, usize)>,
    ) {
        let first = draws.start;
        context.set_input_layout(Some(self.input_layout));
        if blend.is_none() {
            // A bundle sets every stage it draws with, null ones included (R-B-3).
            for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
                context.set_shader(stage, None);
            }
        }
        for i in draws {
            if i % PIPELINE_EVERY == 0 || i == first {
                let k = ((i / PIPELINE_EVERY) % 2) as usize;
                context.set_shader(Stage::Vertex, Some(self.vertex_shaders[k]));
                context.set_shader(Stage::Pixel, Some(self.pixel_shaders[k]));
                if let Some(blend) = blend.as_mut() {
                    blend(context, k);
                }
            }
            let cb = self.constants[i as usize % CONSTANT_BUFFERS];
            context.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
            let vb = VertexBuffer {
                buffer: Some(self.vertices[i as usize % VERTEX_BUFFERS]),
                stride: STRIDE,
                offset: 0,
            };
            context.set_vertex_buffers(0, &[vb]);
            context.draw(3, 0);
        }
    }
}

fn array<T, const N: usize>(
    mut make: impl FnMut(usize) -> Result<T, Error>,
) -> Result<[T; N], Error> {
    let made: Vec<T> = (0..N).map(&mut make).collect::<Result<_, _>>()?;
    made.try_into()
        .map_err(|_| unreachable!("N items were collected"))
}

// ----- the naive recorder: `Vec<enum>` with an `Arc` per bound object -------------------------

/// An object as a naive renderer holds it: shared and reference counted.
pub type ArcObject = Arc<u32>;

/// One call of the workload, as the naive recorder stores it.
#[derive(Clone, Debug)]
pub enum ArcCommand {
    SetInputLayout(ArcObject),
    SetShader(Stage, ArcObject),
    SetBlendState(ArcObject, [f32; 4], u32),
    SetConstantBuffer(Stage, u32, ArcObject),
    SetVertexBuffer(u32, ArcObject, u32, u32),
    Draw(u32, u32),
}

/// The state a naive execution applies its commands to; what each draw would hand a backend.
#[derive(Default)]
pub struct ArcState {
    layout: Option<ArcObject>,
    shaders: [Option<ArcObject>; 2],
    blend: Option<ArcObject>,
    constant_buffer: Option<ArcObject>,
    vertex_buffer: Option<(ArcObject, u32, u32)>,
    /// A checksum of what the draws saw, so that the execution cannot be optimised away.
    pub seen: u64,
    pub draws: u64,
}

/// The workload's objects as `Arc`s, and a reused `Vec` of commands. A clone shares the objects
/// (their `Arc`s), as recorders on several threads of one naive renderer do.
#[derive(Clone)]
pub struct ArcRecorder {
    constants: Vec<ArcObject>,
    vertices: Vec<ArcObject>,
    vertex_shaders: Vec<ArcObject>,
    pixel_shaders: Vec<ArcObject>,
    blends: Vec<ArcObject>,
    layout: ArcObject,
    pub commands: Vec<ArcCommand>,
}

impl Default for ArcRecorder {
    fn default() -> Self {
        let objects = |n: usize, base: u32| (0..n as u32).map(|k| Arc::new(base + k)).collect();
        Self {
            constants: objects(CONSTANT_BUFFERS, 0),
            vertices: objects(VERTEX_BUFFERS, 100),
            vertex_shaders: objects(2, 200),
            pixel_shaders: objects(2, 300),
            blends: objects(2, 400),
            layout: Arc::new(500),
            commands: Vec::new(),
        }
    }
}

impl ArcRecorder {
    /// Records draws `draws`, cloning an `Arc` per bound object, after clearing the commands
    /// (which drops the previous list's clones and keeps the capacity).
    #[inline]
    pub fn record(&mut self, draws: Range<u32>) {
        self.commands.clear();
        let first = draws.start;
        self.commands
            .push(ArcCommand::SetInputLayout(self.layout.clone()));
        for i in draws {
            if i % PIPELINE_EVERY == 0 || i == first {
                let k = ((i / PIPELINE_EVERY) % 2) as usize;
                let vs = self.vertex_shaders[k].clone();
                let ps = self.pixel_shaders[k].clone();
                let blend = self.blends[k].clone();
                self.commands.push(ArcCommand::SetShader(Stage::Vertex, vs));
                self.commands.push(ArcCommand::SetShader(Stage::Pixel, ps));
                self.commands
                    .push(ArcCommand::SetBlendState(blend, [0.0; 4], u32::MAX));
            }
            let cb = self.constants[i as usize % CONSTANT_BUFFERS].clone();
            self.commands
                .push(ArcCommand::SetConstantBuffer(Stage::Vertex, 0, cb));
            let vb = self.vertices[i as usize % VERTEX_BUFFERS].clone();
            self.commands
                .push(ArcCommand::SetVertexBuffer(0, vb, STRIDE, 0));
            self.commands.push(ArcCommand::Draw(3, 0));
        }
    }

    /// Executes the recorded commands into `state`: each bind replaces the held `Arc`, each
    /// draw folds what it sees into the checksum.
    #[inline]
    pub fn execute(&self, state: &mut ArcState) {
        for command in &self.commands {
            match command {
                ArcCommand::SetInputLayout(layout) => state.layout = Some(layout.clone()),
                ArcCommand::SetShader(stage, shader) => {
                    state.shaders[(*stage == Stage::Pixel) as usize] = Some(shader.clone())
                }
                ArcCommand::SetBlendState(blend, _, _) => state.blend = Some(blend.clone()),
                ArcCommand::SetConstantBuffer(_, _, buffer) => {
                    state.constant_buffer = Some(buffer.clone())
                }
                ArcCommand::SetVertexBuffer(_, buffer, stride, offset) => {
                    state.vertex_buffer = Some((buffer.clone(), *stride, *offset))
                }
                ArcCommand::Draw(count, start) => {
                    let cb = state.constant_buffer.as_deref().copied().unwrap_or(0);
                    let vb = state.vertex_buffer.as_ref().map_or(0, |(b, _, _)| **b);
                    state.seen = state
                        .seen
                        .wrapping_mul(31)
                        .wrapping_add((cb as u64) << 32 | vb as u64)
                        .wrapping_add((*count + *start) as u64);
                    state.draws += 1;
                }
            }
        }
    }
}

// ----- the limit probe: one 32-byte append per command -----------------------------------------

/// Bytes of one probe record.
const PROBE_RECORD: usize = 32;
/// Bytes of one probe chunk.
const PROBE_CHUNK: usize = 64 * 1024;

/// Appends 32-byte records into 64 KB chunks recycled between lists: the least work any
/// recorder that stores its commands can do, and what the engine's recording is measured against.
#[derive(Default)]
pub struct AppendProbe {
    chunks: Vec<Box<[u8]>>,
    /// Chunks of the list being appended (the rest are free for reuse).
    used: usize,
    at: usize,
}

impl AppendProbe {
    /// Starts a new list, keeping every chunk.
    pub fn clear(&mut self) {
        self.used = 0;
        self.at = PROBE_CHUNK;
    }

    #[inline(always)]
    fn append(&mut self, words: [u64; 4]) {
        if self.at + PROBE_RECORD > PROBE_CHUNK {
            self.next_chunk();
        }
        let chunk = &mut self.chunks[self.used - 1];
        let record = &mut chunk[self.at..self.at + PROBE_RECORD];
        for (k, word) in words.iter().enumerate() {
            record[8 * k..8 * k + 8].copy_from_slice(&word.to_le_bytes());
        }
        self.at += PROBE_RECORD;
    }

    #[cold]
    fn next_chunk(&mut self) {
        if self.used == self.chunks.len() {
            self.chunks.push(vec![0; PROBE_CHUNK].into_boxed_slice());
        }
        self.used += 1;
        self.at = 0;
    }

    /// Appends one record per call [`Workload::record`] makes for `draws`.
    #[inline]
    pub fn record(&mut self, workload: &Workload, draws: Range<u32>) {
        self.clear();
        let first = draws.start;
        self.append([1, workload.input_layout.raw().to_bits(), 0, 0]);
        for i in draws {
            if i % PIPELINE_EVERY == 0 || i == first {
                let k = ((i / PIPELINE_EVERY) % 2) as usize;
                self.append([2, workload.vertex_shaders[k].raw().to_bits(), 0, 0]);
                self.append([2, workload.pixel_shaders[k].raw().to_bits(), 1, 0]);
                self.append([3, workload.blends[k].raw().to_bits(), u32::MAX as u64, 0]);
            }
            let cb = workload.constants[i as usize % CONSTANT_BUFFERS];
            self.append([4, cb.raw().to_bits(), 0, 0]);
            let vb = workload.vertices[i as usize % VERTEX_BUFFERS];
            self.append([5, vb.raw().to_bits(), STRIDE as u64, 0]);
            self.append([6, 3, 0, 0]);
        }
    }

    /// Bytes appended to the current list.
    pub fn bytes(&self) -> usize {
        self.used.saturating_sub(1) * PROBE_CHUNK + self.at.min(PROBE_CHUNK)
    }
}
