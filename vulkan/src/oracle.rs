//! The oracle (R-GPU-4): after each draw, what the backend has bound on its command buffer,
//! in the engine's terms, compared with the model's record of that draw. A difference is a
//! refusal naming what differs; the draws checked and the mismatches are counted.
//!
//! **In:** the model's [`Draw`]; [`Bound`](crate::descriptors::Bound) and the open pass.
//! **Out:** `Ok` or [`Error::GpuBackend`] listing the differences.
//!
//! **Invariant.** The comparison reads what the backend *bound* (the pipeline key bound, the
//! origins of the descriptor set bound, which may be an earlier draw's set kept because the
//! bindings did not change, the vertex and index buffers bound, the pass's targets), never what
//! it was about to bind: so a wrong skip of a set, a buffer or a pass shows. Cheap: a few
//! vectors per draw, on only when `VulkanOptions::oracle` is.

use executor::{Draw, DrawKind, DrawRecord, ViewRecord};
use recorder::command::BoundBuffer;
use recorder::{Error, PrimitiveTopology, RawHandle, Stage};

use crate::descriptors::Origin;
use crate::shaders::{self, SlotKind};
use crate::VulkanBackend;

/// What one draw saw, in the engine's terms: the oracle's view of a bound state.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundState {
    /// Vertex and pixel shader handles.
    pub shaders: [recorder::RawHandle; 2],
    /// The topology.
    pub topology: recorder::PrimitiveTopology,
    /// Render-target view handles.
    pub targets: Vec<recorder::RawHandle>,
    /// Depth-stencil view handle (null for none).
    pub depth: recorder::RawHandle,
    /// `(binding, origin)` of the descriptor set, by binding.
    pub descriptors: Vec<(u32, Origin)>,
    /// `(slot, origin)` of the vertex buffers.
    pub vertex_buffers: Vec<(u32, Origin)>,
    /// The index buffer, if the draw is indexed.
    pub index_buffer: Option<Origin>,
}

impl Default for BoundState {
    fn default() -> Self {
        Self {
            shaders: [recorder::RawHandle::NULL; 2],
            topology: Default::default(),
            targets: Vec::new(),
            depth: recorder::RawHandle::NULL,
            descriptors: Vec::new(),
            vertex_buffers: Vec::new(),
            index_buffer: None,
        }
    }
}

/// One stage of a record, as the oracle reads it.
struct StageParts<'a> {
    stage: Stage,
    shader: RawHandle,
    constant_buffers: &'a [(u32, BoundBuffer)],
    shader_resources: &'a [(u32, ViewRecord)],
    samplers: &'a [(u32, RawHandle)],
    unordered_access_views: &'a [(u32, ViewRecord)],
}

/// The graphics part of a record, as the oracle reads it.
struct GraphicsParts<'a> {
    topology: PrimitiveTopology,
    render_targets: &'a [ViewRecord],
    depth: RawHandle,
    vertex_buffers: &'a [(u32, BoundBuffer)],
    index_buffer: BoundBuffer,
}

impl BoundState {
    /// What the model's record says the draw saw (read in place).
    pub fn of_record(draw: &Draw<'_>) -> Self {
        let stages = draw.stages().map(|s| StageParts {
            stage: s.stage,
            shader: s.shader,
            constant_buffers: s.constant_buffers,
            shader_resources: s.shader_resources,
            samplers: s.samplers,
            unordered_access_views: s.unordered_access_views,
        });
        let graphics = draw.graphics().map(|g| GraphicsParts {
            topology: g.topology,
            render_targets: g.render_targets,
            depth: g.depth_stencil.view,
            vertex_buffers: g.vertex_buffers,
            index_buffer: g.index_buffer,
        });
        Self::of_parts(stages, graphics.as_ref())
    }

    /// What an owned record ([`DrawRecord`], `ImmediateContext::records`) says the draw saw.
    pub fn of_draw_record(record: &DrawRecord) -> Self {
        let stages = record.stages.iter().map(|s| StageParts {
            stage: s.stage,
            shader: s.shader,
            constant_buffers: &s.constant_buffers,
            shader_resources: &s.shader_resources,
            samplers: &s.samplers,
            unordered_access_views: &s.unordered_access_views,
        });
        let graphics = record.graphics.as_ref().map(|g| GraphicsParts {
            topology: g.topology,
            render_targets: &g.render_targets,
            depth: g.depth_stencil.view,
            vertex_buffers: &g.vertex_buffers,
            index_buffer: g.index_buffer,
        });
        Self::of_parts(stages, graphics.as_ref())
    }

    fn of_parts<'a>(
        stages: impl Iterator<Item = StageParts<'a>>,
        graphics: Option<&GraphicsParts<'a>>,
    ) -> Self {
        let mut state = Self::default();
        for stage in stages {
            let index = match stage.stage {
                Stage::Vertex => 0,
                Stage::Pixel => 1,
                _ => continue,
            };
            state.shaders[index] = stage.shader;
            for (slot, b) in stage.constant_buffers {
                let binding = shaders::binding(stage.stage, SlotKind::ConstantBuffer, *slot);
                state
                    .descriptors
                    .push((binding, Origin::Buffer(b.buffer, b.instance)));
            }
            for (slot, v) in stage.shader_resources {
                let binding = shaders::binding(stage.stage, SlotKind::ShaderResource, *slot);
                state.descriptors.push((binding, Origin::View(v.view)));
            }
            for (slot, s) in stage.samplers {
                let binding = shaders::binding(stage.stage, SlotKind::Sampler, *slot);
                state.descriptors.push((binding, Origin::Sampler(*s)));
            }
            for (slot, v) in stage.unordered_access_views {
                let binding = shaders::binding(stage.stage, SlotKind::UnorderedAccess, *slot);
                state.descriptors.push((binding, Origin::View(v.view)));
            }
        }
        state.descriptors.sort();
        if let Some(g) = graphics {
            state.topology = g.topology;
            state.targets = g
                .render_targets
                .iter()
                .filter(|t| !t.view.is_null())
                .map(|t| t.view)
                .collect();
            state.depth = g.depth;
            state.vertex_buffers = g
                .vertex_buffers
                .iter()
                .filter(|(_, b)| !b.buffer.is_null())
                .map(|(slot, b)| (*slot, Origin::Buffer(b.buffer, b.instance)))
                .collect();
            if !g.index_buffer.buffer.is_null() {
                let b = g.index_buffer;
                state.index_buffer = Some(Origin::Buffer(b.buffer, b.instance));
            }
        }
        state
    }

    /// What the backend has bound now.
    fn of_backend(backend: &VulkanBackend) -> Self {
        let mut state = Self::default();
        if let Some(key) = &backend.bound.key {
            state.shaders = key.shaders;
            state.topology = key.topology;
        }
        if let Some(pass) = &backend.pass {
            state.targets = pass.colors.iter().map(|c| c.0).collect();
            state.depth = pass.depth;
        }
        state.descriptors.clone_from(&backend.bound.set_origins);
        state.vertex_buffers = backend
            .bound
            .vertex_buffers
            .iter()
            .map(|v| (v.0, v.1))
            .collect();
        state.index_buffer = backend.bound.index_buffer.map(|i| i.0);
        state
    }
}

impl VulkanBackend {
    /// Compares the bound state with the model's record of `draw` (see the module essay).
    pub(crate) fn check_draw(&mut self, draw: &Draw<'_>) -> Result<(), Error> {
        let expected = BoundState::of_record(draw);
        self.compare(expected, indexed(draw.kind))
    }

    /// The oracle's comparison (R-GPU-4) of what the backend bound for its last draw with an
    /// owned record (`ImmediateContext::records`): `Err` names both states where they differ.
    pub fn check_record(&mut self, record: &DrawRecord) -> Result<(), Error> {
        let bound = self.oracle_last.clone().unwrap_or_default();
        // The backend binds exactly the slots its pipeline reads (or refuses the draw).
        let read = bound.vertex_buffers.iter().map(|v| v.0).collect();
        let expected = BoundState::of_draw_record(record);
        self.compare_with(bound, expected, indexed(record.kind), read)
    }

    /// What the backend bound for its last draw, in the engine's terms (kept past the flush
    /// that submitted it); `None` before the first draw or with the oracle off.
    pub fn last_bound_state(&self) -> Option<&BoundState> {
        self.oracle_last.as_ref()
    }

    fn compare(&mut self, expected: BoundState, indexed: bool) -> Result<(), Error> {
        let bound = BoundState::of_backend(self);
        let read = self
            .bound
            .key
            .iter()
            .flat_map(|k| k.strides.iter().map(|s| s.0))
            .collect();
        let result = self.compare_with(bound.clone(), expected, indexed, read);
        self.oracle_last = Some(bound);
        result
    }

    fn compare_with(
        &mut self,
        mut bound: BoundState,
        mut expected: BoundState,
        indexed: bool,
        read: Vec<u32>,
    ) -> Result<(), Error> {
        // The record lists every vertex-buffer slot and the index buffer bound; the backend
        // binds those the input layout reads (its key's strides), and the index buffer of an
        // indexed draw only.
        expected
            .vertex_buffers
            .retain(|(slot, _)| read.contains(slot));
        if !indexed {
            expected.index_buffer = None;
            bound.index_buffer = None;
        }
        self.oracle.draws += 1;
        if bound == expected {
            return Ok(());
        }
        self.oracle.mismatches += 1;
        Err(Error::GpuBackend {
            call: "draw",
            object: format!("draw {} of the backend", self.oracle.draws),
            problem: format!(
                "bound {bound:?} where the model's record says {expected:?} (R-GPU-4)"
            ),
        })
    }
}

/// Whether a draw of `kind` reads the index buffer.
fn indexed(kind: DrawKind) -> bool {
    matches!(
        kind,
        DrawKind::DrawIndexed
            | DrawKind::DrawIndexedInstanced
            | DrawKind::DrawIndexedInstancedIndirect
    )
}

/// The oracle's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OracleCounts {
    /// Draws compared.
    pub draws: u64,
    /// Draws whose bound state differed from the record.
    pub mismatches: u64,
}
