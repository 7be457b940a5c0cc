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

use crate::command_frame::FRAMES_IN_FLIGHT;
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
    /// The target's view and texture, and its format.
    target: (RawHandle, RawHandle),
    format: vk::Format,
}

/// The threaded raw frame's secondary command buffers: for each frame in flight, a command pool
/// and a secondary command buffer per thread, made at the first frame that needs them and
/// destroyed with the backend. A frame slot's are reset only while that slot is current (its
/// last submission waited for: `command_frame.rs`).
#[derive(Default)]
pub(crate) struct RawSecondaries {
    /// `[frame slot][thread]`.
    slots: Vec<Vec<(vk::CommandPool, vk::CommandBuffer)>>,
}

impl RawSecondaries {
    /// Makes sure every frame slot has `threads` pools and buffers.
    fn reserve(&mut self, device: &ash::Device, family: u32, threads: usize) -> Result<(), Error> {
        self.slots.resize_with(FRAMES_IN_FLIGHT, Vec::new);
        for slot in &mut self.slots {
            while slot.len() < threads {
                let info = vk::CommandPoolCreateInfo::default()
                    .queue_family_index(family)
                    .flags(vk::CommandPoolCreateFlags::TRANSIENT);
                // SAFETY: `info` lives across the call and names the device's queue family.
                let pool = unsafe { device.create_command_pool(&info, None) }
                    .map_err(|e| raw_failed("vkCreateCommandPool", e))?;
                let allocate = vk::CommandBufferAllocateInfo::default()
                    .command_pool(pool)
                    .level(vk::CommandBufferLevel::SECONDARY)
                    .command_buffer_count(1);
                // SAFETY: `pool` is a live pool of this device.
                match unsafe { device.allocate_command_buffers(&allocate) } {
                    Ok(buffers) if !buffers.is_empty() => slot.push((pool, buffers[0])),
                    result => {
                        // SAFETY: the pool is new and unused.
                        unsafe { device.destroy_command_pool(pool, None) };
                        let error = result.err().unwrap_or(vk::Result::ERROR_UNKNOWN);
                        return Err(raw_failed("vkAllocateCommandBuffers", error));
                    }
                }
            }
        }
        Ok(())
    }

    /// Destroys the pools (their buffers with them).
    pub(crate) fn destroy(&mut self, device: &ash::Device) {
        for (pool, _) in self.slots.drain(..).flatten() {
            // SAFETY: the device is idle (the backend's drop waited for it).
            unsafe { device.destroy_command_pool(pool, None) };
        }
    }
}

fn raw_failed(what: &str, result: vk::Result) -> Error {
    Error::GpuBackend {
        call: CALL,
        object: "the raw frame".to_string(),
        problem: format!("{what} failed: {result}"),
    }
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
            format,
        })
    }

    /// The push-descriptor commands the raw frame records with, once every index of `draws` is
    /// checked to be within `frame`'s lists.
    fn raw_push(
        &self,
        frame: &RawFrame,
        draws: &[RawDraw],
    ) -> Result<ash::khr::push_descriptor::Device, Error> {
        let fits = draws.iter().all(|d| {
            d.pipeline < frame.pipelines.len()
                && d.constant_buffer < frame.constant_buffers.len()
                && d.vertex_buffer < frame.vertex_buffers.len()
        });
        match self.gpu.push_descriptor.clone().filter(|_| fits) {
            Some(push) => Ok(push),
            None => Err(Error::GpuBackend {
                call: CALL,
                object: "the raw frame".to_string(),
                problem: "names an object it does not have (R-GPU-6)".to_string(),
            }),
        }
    }

    /// The open pass's size (1 x 1 with none).
    fn pass_extent(&self) -> vk::Extent2D {
        self.pass.as_ref().map_or(
            vk::Extent2D {
                width: 1,
                height: 1,
            },
            |p| p.extent,
        )
    }

    /// Records `draws` as a hand-written renderer does (see the module essay), on the target's
    /// pass, viewport and scissor covering it. A draw naming an index past the frame's lists is
    /// refused before anything is recorded.
    pub fn record_raw(&mut self, frame: &RawFrame, draws: &[RawDraw]) -> Result<(), Error> {
        let push = self.raw_push(frame, draws)?;
        self.open_pass(CALL, &[frame.target], (RawHandle::NULL, RawHandle::NULL))?;
        let extent = self.pass_extent();
        // SAFETY: the frame's command buffer is recording, inside the pass just opened on the
        // frame's target.
        unsafe { record_draws(&self.gpu.device, &push, self.frame.cb, frame, draws, extent) };
        // The command buffer's bindings are the raw frame's now.
        self.bound.reset();
        self.changes.set_everything();
        self.frame.dirty = true;
        Ok(())
    }

    /// [`record_raw`](Self::record_raw) on `threads` threads: the draws cut into `threads`
    /// runs, each recorded on its own thread into a secondary command buffer that continues the
    /// target's pass (`VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT`), and the
    /// secondaries executed in order on the frame's command buffer. What it
    /// measures: whether recording Vulkan commands on several threads pays, at the cost of a
    /// hand-written renderer's commands. The threads are scoped threads started per frame
    /// (their start is part of the cost measured). `threads` is 1 to 64.
    pub fn record_raw_threaded(
        &mut self,
        frame: &RawFrame,
        draws: &[RawDraw],
        threads: usize,
    ) -> Result<(), Error> {
        if !(1..=64).contains(&threads) {
            return Err(Error::GpuBackend {
                call: CALL,
                object: "the raw frame".to_string(),
                problem: format!("{threads} threads: 1 to 64 (R-GPU-6)"),
            });
        }
        let push = self.raw_push(frame, draws)?;
        let device = self.gpu.device.clone();
        self.raw_secondaries
            .reserve(&device, self.gpu.queue_family, threads)?;
        self.open_pass_as(
            CALL,
            &[frame.target],
            (RawHandle::NULL, RawHandle::NULL),
            vk::RenderingFlags::CONTENTS_SECONDARY_COMMAND_BUFFERS,
        )?;
        let extent = self.pass_extent();
        let secondaries = &self.raw_secondaries.slots[self.frame.current][..threads];
        let per = draws.len().div_ceil(threads).max(1);
        let recorded = std::thread::scope(|scope| {
            let workers: Vec<_> = secondaries
                .iter()
                .zip(draws.chunks(per).chain(std::iter::repeat(&[][..])))
                .map(|(&(pool, cb), run)| {
                    let (device, push) = (&device, &push);
                    scope.spawn(move || {
                        record_secondary(device, push, (pool, cb), frame, run, extent)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or(Err(vk::Result::ERROR_UNKNOWN)))
                .collect::<Result<Vec<()>, vk::Result>>()
        });
        if let Err(error) = recorded {
            self.end_pass();
            return Err(raw_failed("recording a secondary command buffer", error));
        }
        let buffers: Vec<vk::CommandBuffer> = secondaries.iter().map(|&(_, cb)| cb).collect();
        // SAFETY: the frame's command buffer is recording inside a pass begun for secondary
        // command buffers; each secondary was recorded above (ended without error) for this
        // pass's single colour format, and none is pending elsewhere (the slot's previous
        // submission was waited for when the slot became current).
        unsafe { device.cmd_execute_commands(self.frame.cb, &buffers) };
        // Nothing else records inline in this pass.
        self.end_pass();
        self.bound.reset();
        self.changes.set_everything();
        self.frame.dirty = true;
        Ok(())
    }
}

/// Records `draws` on `cb` as a hand-written renderer does (see the module essay): the pipeline
/// bound when it changes (the dynamic state set after the first), the constant buffer pushed,
/// the vertex buffer bound, the draw.
///
/// # Safety
/// `cb` is a command buffer of `device` recording inside a pass (or a secondary one continuing
/// it) on `frame`'s target of `extent`; every index of `draws` is within `frame`'s lists.
unsafe fn record_draws(
    device: &ash::Device,
    push: &ash::khr::push_descriptor::Device,
    cb: vk::CommandBuffer,
    frame: &RawFrame,
    draws: &[RawDraw],
    extent: vk::Extent2D,
) {
    let mut bound = usize::MAX;
    for draw in draws {
        let built = &frame.pipelines[draw.pipeline];
        // SAFETY: `cb` records inside a pass on the target (the caller's contract), whose
        // format the pipelines were built for; the indices are in range (the caller's
        // contract); the pipelines, their push layouts and
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
                    device.cmd_set_stencil_reference(cb, vk::StencilFaceFlags::FRONT_AND_BACK, 0);
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
}

/// One thread's run of [`VulkanBackend::record_raw_threaded`]: `pool` reset, `cb` begun as a
/// secondary continuing the pass on `frame`'s target, the draws recorded, `cb` ended.
fn record_secondary(
    device: &ash::Device,
    push: &ash::khr::push_descriptor::Device,
    (pool, cb): (vk::CommandPool, vk::CommandBuffer),
    frame: &RawFrame,
    draws: &[RawDraw],
    extent: vk::Extent2D,
) -> Result<(), vk::Result> {
    let formats = [frame.format];
    let mut rendering = vk::CommandBufferInheritanceRenderingInfo::default()
        .color_attachment_formats(&formats)
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let inheritance = vk::CommandBufferInheritanceInfo::default().push_next(&mut rendering);
    let begin = vk::CommandBufferBeginInfo::default()
        .flags(
            vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT
                | vk::CommandBufferUsageFlags::RENDER_PASS_CONTINUE,
        )
        .inheritance_info(&inheritance);
    // SAFETY: `pool` and `cb` are this thread's alone (one pair per thread and frame slot), and
    // no submission in flight uses them (the caller's frame slot is current); `cb` continues a
    // pass of one colour attachment of `frame.format`, as `rendering` says; the indices of
    // `draws` were checked by the caller.
    unsafe {
        device.reset_command_pool(pool, vk::CommandPoolResetFlags::empty())?;
        device.begin_command_buffer(cb, &begin)?;
        record_draws(device, push, cb, frame, draws, extent);
        device.end_command_buffer(cb)
    }
}
