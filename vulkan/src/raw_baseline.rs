//! The raw-Vulkan baseline (R-GPU-6): a frame recorded the way a hand-written renderer records
//! it, with ash on the backend's device, so that a harness times the backend's translation and
//! the Vulkan calls it stands for in one process. Not a path of the engine: `workload --backend
//! vulkan` records the workload's frame both ways, interleaved, and reports the ratio.
//!
//! **In:** the frame's objects, once ([`VulkanBackend::raw_frame`]: pipelines of vertex shader,
//! pixel shader, blend state and input layout, constant and vertex buffers, a render target),
//! resolved there to Vulkan handles (the backend's own pipelines, buffers and view: the same
//! objects its translation binds); then a list of [`RawDraw`]s
//! ([`VulkanBackend::record_raw`]). **Out:** per draw what a renderer holding those handles
//! records: the pipeline bound when it changes, the vertex stage's constant buffer pushed
//! (`vkCmdPushDescriptorSetKHR`, one write), the vertex buffer bound, the draw; the dynamic
//! state set once. Recorded on the backend's frame command buffer, inside a pass on the target,
//! submitted with the backend's next submission.
//!
//! **Invariant.** The backend's record of what its command buffer binds is forgotten after a
//! raw frame (`Bound::reset`, and every draw resolves again): its next draw binds everything.

use ash::vk;
use recorder::command::InstanceId;
use recorder::{
    BlendState, Buffer, Error, Handle, InputLayout, ObjectKind, PrimitiveTopology, RawHandle,
    RenderTargetView, Shader, Stage, Texture,
};

use crate::pipelines::{Built, PipelineKey};
use crate::shaders::{self, SlotKind};
use crate::VulkanBackend;

const CALL: &str = "raw_frame";

/// One pipeline of a raw frame: its shaders, blend state, input layout (one vertex buffer at
/// slot 0 of `stride` bytes) and topology; default depth-stencil and rasterizer states. As the
/// engine's draws bind them, it is the pipeline the backend built for them.
#[derive(Clone, Copy, Debug)]
pub struct RawPipeline {
    pub vertex_shader: Shader,
    pub pixel_shader: Shader,
    pub blend: BlendState,
    pub input_layout: InputLayout,
    pub stride: u32,
    pub topology: PrimitiveTopology,
}

/// One draw of a raw frame: indices into the frame's pipelines, constant buffers (read by the
/// vertex stage's slot 0) and vertex buffers (slot 0), and its vertex count.
#[derive(Clone, Copy, Debug)]
pub struct RawDraw {
    pub pipeline: usize,
    pub constant_buffer: usize,
    pub vertex_buffer: usize,
    pub vertices: u32,
}

/// A raw frame's objects as Vulkan handles (see the module essay).
#[derive(Debug)]
pub struct RawFrame {
    pipelines: Vec<Built>,
    constant_buffers: Vec<vk::DescriptorBufferInfo>,
    vertex_buffers: Vec<vk::Buffer>,
    /// The binding of the vertex stage's constant buffer 0.
    binding: u32,
    /// The target's view and texture.
    target: (RawHandle, RawHandle),
}

impl VulkanBackend {
    /// Resolves a raw frame's objects once: the pipelines (built by the backend, or its
    /// built ones), the buffers (made and uploaded on first use), the target's view. Refused
    /// without `VK_KHR_push_descriptor` (the baseline pushes its descriptors).
    pub fn raw_frame(
        &mut self,
        pipelines: &[RawPipeline],
        constant_buffers: &[Buffer],
        vertex_buffers: &[Buffer],
        target: (Texture, RenderTargetView),
    ) -> Result<RawFrame, Error> {
        let (texture, view) = (target.0.raw(), target.1.raw());
        let (_, texture) = self.image_view(CALL, ObjectKind::RenderTargetView, view, texture)?;
        let format = self
            .resources
            .images
            .get(&texture)
            .map_or(vk::Format::UNDEFINED, |i| i.format);
        let mut built = Vec::with_capacity(pipelines.len());
        for p in pipelines {
            let mut key = PipelineKey {
                shaders: [p.vertex_shader.raw(), p.pixel_shader.raw()],
                input_layout: p.input_layout.raw(),
                topology: p.topology,
                blend: p.blend.raw(),
                ..PipelineKey::default()
            };
            key.strides.push((0, p.stride, false));
            key.colors.push(format);
            let pipeline = self.pipeline(&key)?;
            if !pipeline.push || self.gpu.push_descriptor.is_none() {
                return Err(Error::GpuBackend {
                    call: CALL,
                    object: "the raw frame".to_string(),
                    problem: "needs VK_KHR_push_descriptor (R-GPU-6)".to_string(),
                });
            }
            built.push(pipeline);
        }
        let mut constants = Vec::with_capacity(constant_buffers.len());
        for buffer in constant_buffers {
            let (buffer, offset, size) =
                self.buffer_location(CALL, buffer.raw(), InstanceId::INITIAL)?;
            constants.push(vk::DescriptorBufferInfo {
                buffer,
                offset,
                range: size.clamp(4, 65536),
            });
        }
        let mut vertices = Vec::with_capacity(vertex_buffers.len());
        for buffer in vertex_buffers {
            vertices.push(
                self.buffer_location(CALL, buffer.raw(), InstanceId::INITIAL)?
                    .0,
            );
        }
        Ok(RawFrame {
            pipelines: built,
            constant_buffers: constants,
            vertex_buffers: vertices,
            binding: shaders::binding(Stage::Vertex, SlotKind::ConstantBuffer, 0),
            target: (view, texture),
        })
    }

    /// Records `draws` as a hand-written renderer does (see the module essay), on the target's
    /// pass, viewport and scissor covering it. A draw naming an index past the frame's lists is
    /// refused before anything is recorded.
    pub fn record_raw(&mut self, frame: &RawFrame, draws: &[RawDraw]) -> Result<(), Error> {
        let fits = draws.iter().all(|d| {
            d.pipeline < frame.pipelines.len()
                && d.constant_buffer < frame.constant_buffers.len()
                && d.vertex_buffer < frame.vertex_buffers.len()
        });
        let Some(push) = self.gpu.push_descriptor.clone().filter(|_| fits) else {
            return Err(Error::GpuBackend {
                call: CALL,
                object: "the raw frame".to_string(),
                problem: "names an object it does not have (R-GPU-6)".to_string(),
            });
        };
        self.open_pass(CALL, &[frame.target], (RawHandle::NULL, RawHandle::NULL))?;
        let extent = self.pass.as_ref().map_or(
            vk::Extent2D {
                width: 1,
                height: 1,
            },
            |p| p.extent,
        );
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        let mut bound = usize::MAX;
        for draw in draws {
            let built = &frame.pipelines[draw.pipeline];
            // SAFETY: recording on the frame's command buffer inside a pass on the target,
            // whose format the pipelines were built for; the pipelines, their push layouts and
            // the buffers are live objects of this device (resolved by `raw_frame`, kept by
            // the backend); the dynamic state every pipeline declares is set after the first
            // bind; the pushed binding is the vertex stage's constant buffer 0, which the
            // layouts hold as a uniform buffer.
            unsafe {
                if draw.pipeline != bound {
                    device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, built.pipeline);
                    if bound == usize::MAX {
                        let viewport = vk::Viewport {
                            x: 0.0,
                            y: 0.0,
                            width: extent.width as f32,
                            height: extent.height as f32,
                            min_depth: 0.0,
                            max_depth: 1.0,
                        };
                        device.cmd_set_viewport_with_count(cb, &[viewport]);
                        device.cmd_set_scissor_with_count(cb, &[extent.into()]);
                        device.cmd_set_blend_constants(cb, &[0.0; 4]);
                        device.cmd_set_stencil_reference(
                            cb,
                            vk::StencilFaceFlags::FRONT_AND_BACK,
                            0,
                        );
                        device.cmd_set_primitive_restart_enable(cb, false);
                    }
                    bound = draw.pipeline;
                }
                let info = [frame.constant_buffers[draw.constant_buffer]];
                let write = vk::WriteDescriptorSet::default()
                    .dst_binding(frame.binding)
                    .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                    .buffer_info(&info);
                push.cmd_push_descriptor_set(
                    cb,
                    vk::PipelineBindPoint::GRAPHICS,
                    built.layout,
                    0,
                    &[write],
                );
                let vertex_buffer = frame.vertex_buffers[draw.vertex_buffer];
                device.cmd_bind_vertex_buffers(cb, 0, &[vertex_buffer], &[0]);
                device.cmd_draw(cb, draw.vertices, 1, 0, 0);
            }
        }
        // The command buffer's bindings are the raw frame's now.
        self.bound.reset();
        self.changes.set_everything();
        self.frame.dirty = true;
        Ok(())
    }
}
