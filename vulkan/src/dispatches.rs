//! A dispatch (R-GPU-3): the model's record of a `dispatch` made into a compute pipeline (one
//! per compute shader), a descriptor set of the compute stage's constant buffers, shader
//! resources, samplers and UAVs (`var<storage, read_write>` or `texture_storage_2d` at binding
//! `256 * 5 + 160 + slot`, `views.rs`), and `vkCmdDispatch` outside any pass.
//!
//! **In:** the dispatch's [`Draw`] record. **Out:** the commands, between two global memory
//! barriers: what earlier commands wrote is visible to the dispatch, and what it writes to
//! every later command (D3D11's implicit ordering of a dispatch, the legacy driver's).
//!
//! **Invariant.** A dispatch never runs inside a pass (the first barrier closes it); its set is
//! written for it alone (the graphics set the command buffer has bound is not disturbed:
//! Vulkan keeps each bind point's sets). A texture UAV is moved to `GENERAL` before (the image
//! tracking orders it with the texture's other uses). An indirect dispatch reads its arguments
//! with `vkCmdDispatchIndirect` (`indirect_args.rs`).

use ash::vk;
use executor::Draw;
use recorder::{Error, RawHandle, Stage};

use crate::pipelines::Built;
use crate::VulkanBackend;

const CALL: &str = "dispatch";

impl VulkanBackend {
    /// Translates one dispatch (see the module essay).
    pub(crate) fn translate_dispatch(&mut self, draw: &Draw<'_>) -> Result<(), Error> {
        let no_shader = || Error::GpuBackend {
            call: CALL,
            object: "the dispatch".to_string(),
            problem: "has no compute shader bound (R-GPU-3)".to_string(),
        };
        let stage = draw.stage(Stage::Compute).ok_or_else(no_shader)?;
        if stage.shader.is_null() {
            return Err(no_shader());
        }
        let indirect = self.indirect_arguments(draw)?;
        let mut set = Vec::new();
        self.stage_descriptors(&stage, vk::PipelineStageFlags2::COMPUTE_SHADER, &mut set)?;
        self.uav_descriptors(
            CALL,
            &stage,
            vk::PipelineStageFlags2::COMPUTE_SHADER,
            &mut set,
        )?;
        set.sort_by_key(|s| s.0);
        let built = self.compute_pipeline(stage.shader)?;
        self.memory_barrier(
            vk::PipelineStageFlags2::COMPUTE_SHADER,
            vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE,
        );
        let vk_set = self.write_set(built.set_layout, &set)?;
        let n = |i: usize| match draw.args {
            recorder::command::DrawArgs::Direct(args) => args.get(i).max(0) as u32,
            recorder::command::DrawArgs::Indirect(_) => 0,
        };
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        // SAFETY: recording outside a pass (the barrier closed it); the pipeline is a live
        // compute pipeline whose layout's set 0 is `vk_set`'s layout.
        unsafe {
            device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, built.pipeline);
            if !set.is_empty() {
                device.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    built.layout,
                    0,
                    &[vk_set],
                    &[],
                );
            }
            match indirect {
                // The buffer is live with INDIRECT_BUFFER usage and holds the arguments at
                // `offset`, a multiple of 4 (`indirect_arguments`).
                Some((buffer, offset)) => device.cmd_dispatch_indirect(cb, buffer, offset),
                None => device.cmd_dispatch(cb, n(0), n(1), n(2)),
            }
        }
        self.memory_barrier(
            vk::PipelineStageFlags2::ALL_COMMANDS,
            vk::AccessFlags2::MEMORY_READ | vk::AccessFlags2::MEMORY_WRITE,
        );
        self.frame.dirty = true;
        Ok(())
    }

    /// The compute pipeline of `shader`, built on first use.
    fn compute_pipeline(&mut self, shader: RawHandle) -> Result<Built, Error> {
        if let Some(built) = self.pipelines.compute.get(&shader) {
            return Ok(*built);
        }
        let module = self.shader_module(shader, Stage::Compute)?;
        let mut bindings = Vec::new();
        self.shader_bindings(shader, &mut bindings)?;
        bindings.sort_by_key(|b| b.0);
        let (set_layout, layout) = self.layouts(bindings, false)?;
        let entry = self
            .pipelines
            .modules
            .get(&shader)
            .map(|(_, entry)| entry.clone())
            .unwrap_or_default();
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&entry);
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(layout);
        // SAFETY: `info` and what it points to live across the call; the module, layout and
        // cache are live objects of this device.
        let created = unsafe {
            self.gpu
                .device
                .create_compute_pipelines(self.pipelines.cache, &[info], None)
        };
        let pipeline = match created {
            Ok(pipelines) => pipelines.first().copied().unwrap_or_default(),
            Err((_, r)) => return Err(self.vk_error(CALL, "vkCreateComputePipelines", r)),
        };
        let built = Built {
            pipeline,
            layout,
            set_layout,
            scissor: false,
            push: false,
        };
        self.pipelines.built += 1;
        self.pipelines.compute.insert(shader, built);
        Ok(built)
    }
}
