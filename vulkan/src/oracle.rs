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
//! it was about to bind: so a wrong skip of a set, a buffer or a pass shows. Cheap: both states
//! are filled in place in lists kept on the backend (no allocation per draw once warm), on only
//! when `VulkanOptions::oracle` is.

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
        let mut state = Self::default();
        state.fill_from_record(draw);
        state
    }

    /// [`Self::of_record`] into `self`, its lists keeping their room (no allocation once
    /// they have grown: the oracle's check per draw, R-GPU-6).
    fn fill_from_record(&mut self, draw: &Draw<'_>) {
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
        self.fill_parts(stages, graphics.as_ref());
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
        let mut state = Self::default();
        state.fill_parts(stages, graphics.as_ref());
        state
    }

    fn fill_parts<'a>(
        &mut self,
        stages: impl Iterator<Item = StageParts<'a>>,
        graphics: Option<&GraphicsParts<'a>>,
    ) {
        self.shaders = [RawHandle::NULL; 2];
        self.topology = PrimitiveTopology::default();
        self.targets.clear();
        self.depth = RawHandle::NULL;
        self.descriptors.clear();
        self.vertex_buffers.clear();
        self.index_buffer = None;
        for stage in stages {
            let index = match stage.stage {
                Stage::Vertex => 0,
                Stage::Pixel => 1,
                _ => continue,
            };
            self.shaders[index] = stage.shader;
            for (slot, b) in stage.constant_buffers {
                let binding = shaders::binding(stage.stage, SlotKind::ConstantBuffer, *slot);
                self.descriptors
                    .push((binding, Origin::Buffer(b.buffer, b.instance)));
            }
            for (slot, v) in stage.shader_resources {
                let binding = shaders::binding(stage.stage, SlotKind::ShaderResource, *slot);
                self.descriptors.push((binding, Origin::View(v.view)));
            }
            for (slot, s) in stage.samplers {
                let binding = shaders::binding(stage.stage, SlotKind::Sampler, *slot);
                self.descriptors.push((binding, Origin::Sampler(*s)));
            }
            for (slot, v) in stage.unordered_access_views {
                let binding = shaders::binding(stage.stage, SlotKind::UnorderedAccess, *slot);
                self.descriptors.push((binding, Origin::View(v.view)));
            }
        }
        if !self.descriptors.is_sorted() {
            self.descriptors.sort_unstable();
        }
        if let Some(g) = graphics {
            self.topology = g.topology;
            self.targets.extend(
                g.render_targets
                    .iter()
                    .filter(|t| !t.view.is_null())
                    .map(|t| t.view),
            );
            self.depth = g.depth;
            self.vertex_buffers.extend(
                g.vertex_buffers
                    .iter()
                    .filter(|(_, b)| !b.buffer.is_null())
                    .map(|(slot, b)| (*slot, Origin::Buffer(b.buffer, b.instance))),
            );
            if !g.index_buffer.buffer.is_null() {
                let b = g.index_buffer;
                self.index_buffer = Some(Origin::Buffer(b.buffer, b.instance));
            }
        }
    }

    /// What the backend has bound now, into `self` (its lists keeping their room).
    fn fill_from_backend(
        &mut self,
        bound: &crate::descriptors::Bound,
        pass: Option<&crate::passes::OpenPass>,
    ) {
        self.shaders = [RawHandle::NULL; 2];
        self.topology = PrimitiveTopology::default();
        if let Some(key) = &bound.key {
            self.shaders = key.shaders;
            self.topology = key.topology;
        }
        self.targets.clear();
        self.depth = RawHandle::NULL;
        if let Some(pass) = pass {
            self.targets.extend(pass.colors.iter().map(|c| c.0));
            self.depth = pass.depth;
        }
        self.descriptors.clone_from(&bound.set_origins);
        self.vertex_buffers.clear();
        self.vertex_buffers
            .extend(bound.vertex_buffers.iter().map(|v| (v.0, v.1)));
        self.index_buffer = bound.index_buffer.map(|i| i.0);
    }

    /// Whether `self` (bound) is what `expected` says, where the backend binds: the vertex-buffer
    /// slots in `read` only (the record lists every slot bound; the backend binds those the
    /// input layout reads), the index buffer of an indexed draw only.
    fn matches(&self, expected: &Self, indexed: bool, read: impl Fn(u32) -> bool + Copy) -> bool {
        let mut wanted = expected
            .vertex_buffers
            .iter()
            .filter(|(slot, _)| read(*slot));
        self.shaders == expected.shaders
            && self.topology == expected.topology
            && self.targets == expected.targets
            && self.depth == expected.depth
            && self.descriptors == expected.descriptors
            && self.vertex_buffers.len() == wanted.clone().count()
            && self.vertex_buffers.iter().all(|v| wanted.next() == Some(v))
            && (!indexed || self.index_buffer == expected.index_buffer)
    }

    /// `self` as the comparison saw it: the vertex buffers in `read`, no index buffer unless
    /// `indexed` (for the refusal's text).
    fn as_compared(&self, indexed: bool, read: impl Fn(u32) -> bool) -> Self {
        let mut state = self.clone();
        state.vertex_buffers.retain(|(slot, _)| read(*slot));
        if !indexed {
            state.index_buffer = None;
        }
        state
    }
}

impl VulkanBackend {
    /// Compares the bound state with the model's record of `draw` (see the module essay). In
    /// place: the two states are kept on the backend and refilled, so a check allocates
    /// nothing once warm.
    pub(crate) fn check_draw(&mut self, draw: &Draw<'_>) -> Result<(), Error> {
        let mut expected = std::mem::take(&mut self.oracle_expected);
        expected.fill_from_record(draw);
        let mut bound = self.oracle_last.take().unwrap_or_default();
        bound.fill_from_backend(&self.bound, self.pass.as_ref());
        let strides = self
            .bound
            .key
            .as_ref()
            .map(|k| &k.strides[..])
            .unwrap_or(&[]);
        let read = |slot: u32| strides.iter().any(|s| s.0 == slot);
        let indexed = indexed(draw.kind);
        let result = match bound.matches(&expected, indexed, read) {
            true => Ok(()),
            false => Err((
                bound.as_compared(indexed, |_| true),
                expected.as_compared(indexed, read),
            )),
        };
        self.oracle_last = Some(bound);
        self.oracle_expected = expected;
        self.counted(result)
    }

    /// The oracle's comparison (R-GPU-4) of what the backend bound for its last draw with an
    /// owned record (`ImmediateContext::records`): `Err` names both states where they differ.
    pub fn check_record(&mut self, record: &DrawRecord) -> Result<(), Error> {
        let bound = self.oracle_last.clone().unwrap_or_default();
        // The backend binds exactly the slots its pipeline reads (or refuses the draw).
        let read = |slot: u32| bound.vertex_buffers.iter().any(|v| v.0 == slot);
        let expected = BoundState::of_draw_record(record);
        let indexed = indexed(record.kind);
        let result = match bound.matches(&expected, indexed, read) {
            true => Ok(()),
            false => Err((
                bound.as_compared(indexed, |_| true),
                expected.as_compared(indexed, read),
            )),
        };
        self.counted(result)
    }

    /// What the backend bound for its last draw, in the engine's terms (kept past the flush
    /// that submitted it); `None` before the first draw or with the oracle off.
    pub fn last_bound_state(&self) -> Option<&BoundState> {
        self.oracle_last.as_ref()
    }

    /// Counts a comparison; a difference is a refusal naming both states.
    fn counted(&mut self, result: Result<(), (BoundState, BoundState)>) -> Result<(), Error> {
        self.oracle.draws += 1;
        let Err((bound, expected)) = result else {
            return Ok(());
        };
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
