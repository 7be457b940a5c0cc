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

use executor::Draw;
use recorder::{Error, Stage};

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

impl BoundState {
    /// What the model's record says the draw saw.
    pub fn of_record(draw: &Draw<'_>) -> Self {
        let mut state = Self::default();
        for stage in draw.stages() {
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
        }
        state.descriptors.sort();
        if let Some(g) = draw.graphics() {
            state.topology = g.topology;
            state.targets = g
                .render_targets
                .iter()
                .filter(|t| !t.view.is_null())
                .map(|t| t.view)
                .collect();
            state.depth = g.depth_stencil.view;
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
            state.targets.clone_from(&pass.colors);
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
        let bound = BoundState::of_backend(self);
        let mut expected = BoundState::of_record(draw);
        // The record lists every vertex-buffer slot; the backend binds those the input layout
        // reads (its key's strides), and the index buffer of an indexed draw.
        if let (Some(g), Some(key)) = (draw.graphics(), &self.bound.key) {
            expected.vertex_buffers = key
                .strides
                .iter()
                .filter_map(|&(slot, _, _)| {
                    crate::draws::vertex_buffer(g.vertex_buffers, slot)
                        .map(|b| (slot, Origin::Buffer(b.buffer, b.instance)))
                })
                .collect();
            if bound.index_buffer.is_some() {
                expected.index_buffer = Some(Origin::Buffer(
                    g.index_buffer.buffer,
                    g.index_buffer.instance,
                ));
            }
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

/// The oracle's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OracleCounts {
    /// Draws compared.
    pub draws: u64,
    /// Draws whose bound state differed from the record.
    pub mismatches: u64,
}
