//! Pipelines (R-GPU-3): built once per [`PipelineKey`], the key of what a Vulkan graphics
//! pipeline bakes (shaders, input layout and strides, topology, blend, depth-stencil and
//! rasterizer states, target formats), kept in a `HashMap` over a `VkPipelineCache`; with the
//! shader modules (one per shader handle), descriptor-set layouts and pipeline layouts they use.
//!
//! **In:** a draw's resolved shaders, states and target formats. **Out:** the `VkPipeline` and
//! its layout. Viewports and scissors (with their count), the blend factor and the stencil
//! reference are dynamic state, so they never make a new pipeline. The rasterizer's wireframe
//! fill is `VK_POLYGON_MODE_LINE` (`fillModeNonSolid`), its `depth_clip = false`
//! `depthClampEnable` (`depthClamp`): a state asking for a feature the device lacks is refused.
//!
//! **Invariant.** A state object's contents never change after creation (R-GPU-2), so its handle
//! stands for its contents in the key; a state made without contents, or none bound, is D3D11's
//! default. The set layout of a pipeline holds exactly the bindings its shaders declare (the
//! declared slots, which the shader check made equal to the code's), by the fixed mapping
//! (`shaders.rs`).

use std::collections::HashMap;
use std::ffi::CString;

use arrayvec::ArrayVec;
use ash::vk;
use recorder::{
    BlendDesc, DepthStencilDesc, Error, GpuContents, Handle, InputElement, ObjectKind,
    PrimitiveTopology, RasterizerDesc, RawHandle, Shader, Stage,
};

use crate::handle_hash::HandleMap;
use crate::resources::refuse;
use crate::shaders::{self, SlotKind};
use crate::translate;
use crate::VulkanBackend;

/// Most vertex-buffer slots a draw binds (D3D11's input-assembler slots).
pub(crate) const MAX_VERTEX_BUFFERS: usize = 32;
/// Most render targets a draw writes (D3D11's output-merger slots).
pub(crate) const MAX_COLORS: usize = 8;

/// What a pipeline bakes (no allocation in it: a draw's key is filled in place, R-GPU-6).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    /// Vertex and pixel shaders (pixel may be null).
    pub(crate) shaders: [RawHandle; 2],
    pub(crate) input_layout: RawHandle,
    /// `(slot, stride, per_instance)` of each vertex buffer the layout reads.
    pub(crate) strides: ArrayVec<(u32, u32, bool), MAX_VERTEX_BUFFERS>,
    pub(crate) topology: PrimitiveTopology,
    pub(crate) blend: RawHandle,
    pub(crate) depth_stencil: RawHandle,
    pub(crate) rasterizer: RawHandle,
    pub(crate) colors: ArrayVec<vk::Format, MAX_COLORS>,
    pub(crate) depth: vk::Format,
}

impl Default for PipelineKey {
    fn default() -> Self {
        Self {
            shaders: [RawHandle::NULL; 2],
            input_layout: RawHandle::NULL,
            strides: ArrayVec::new(),
            topology: PrimitiveTopology::default(),
            blend: RawHandle::NULL,
            depth_stencil: RawHandle::NULL,
            rasterizer: RawHandle::NULL,
            colors: ArrayVec::new(),
            depth: vk::Format::UNDEFINED,
        }
    }
}

/// A binding of a set layout: binding number, type, stages.
pub(crate) type LayoutBinding = (u32, vk::DescriptorType, vk::ShaderStageFlags);

/// The pipeline objects (see the module essay).
#[derive(Default)]
pub(crate) struct Pipelines {
    pub(crate) cache: vk::PipelineCache,
    pub(crate) modules: HashMap<RawHandle, (vk::ShaderModule, CString)>,
    /// Set layout and pipeline layout by the bindings they hold and whether the set is pushed.
    #[allow(clippy::type_complexity)]
    pub(crate) layouts:
        HashMap<(Vec<LayoutBinding>, bool), (vk::DescriptorSetLayout, vk::PipelineLayout)>,
    pub(crate) pipelines: HandleMap<PipelineKey, Built>,
    /// The descriptor types of each shader's bindings, by shader (reflected once).
    pub(crate) kinds: HandleMap<RawHandle, shaders::Kinds>,
    /// Compute pipelines by compute shader, with their layouts.
    pub(crate) compute: HashMap<RawHandle, Built>,
    /// Pipelines built so far (a cache miss each).
    pub(crate) built: u64,
}

/// A built pipeline with its layouts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Built {
    pub(crate) pipeline: vk::Pipeline,
    pub(crate) layout: vk::PipelineLayout,
    pub(crate) set_layout: vk::DescriptorSetLayout,
    /// The rasterizer's scissor test is on.
    pub(crate) scissor: bool,
    /// The set layout is a push-descriptor layout (`descriptors.rs`).
    pub(crate) push: bool,
}

const CALL: &str = "draw";

impl VulkanBackend {
    /// The shader module of `shader`, compiled on first use; refused when it has no code.
    pub(crate) fn shader_module(
        &mut self,
        shader: RawHandle,
        stage: Stage,
    ) -> Result<vk::ShaderModule, Error> {
        if let Some((module, _)) = self.pipelines.modules.get(&shader) {
            return Ok(*module);
        }
        let contents = self.device.gpu_contents(ObjectKind::Shader, shader);
        let Some(GpuContents::Shader(code)) = contents.as_deref() else {
            return Err(refuse(
                self,
                CALL,
                ObjectKind::Shader,
                shader,
                "has no code: the Vulkan backend needs its WGSL or SPIR-V to draw with it (create it with create_shader_with_code, R-GPU-2)",
            ));
        };
        let words = shaders::spirv(code, stage)
            .map_err(|why| refuse(self, CALL, ObjectKind::Shader, shader, why))?;
        let entry = CString::new(code.entry()).map_err(|_| {
            refuse(
                self,
                CALL,
                ObjectKind::Shader,
                shader,
                "has an entry point with a NUL (R-GPU-2)",
            )
        })?;
        let info = vk::ShaderModuleCreateInfo::default().code(&words);
        // SAFETY: `words` is SPIR-V naga wrote (or the application gave, R-GPU-2) and lives
        // across the call.
        let module = unsafe { self.gpu.device.create_shader_module(&info, None) }
            .map_err(|r| self.vk_error(CALL, "vkCreateShaderModule", r))?;
        self.pipelines.modules.insert(shader, (module, entry));
        Ok(module)
    }

    /// The descriptor types of `shader`'s bindings (which shader resources are buffers, which
    /// UAVs images), reflected from its code on first use; none for a shader without code
    /// (refused at its module).
    pub(crate) fn shader_kinds(
        &mut self,
        shader: RawHandle,
        stage: Stage,
    ) -> Result<shaders::Kinds, Error> {
        if let Some(kinds) = self.pipelines.kinds.get(&shader) {
            return Ok(*kinds);
        }
        let contents = self.device.gpu_contents(ObjectKind::Shader, shader);
        let kinds = match contents.as_deref() {
            Some(GpuContents::Shader(code)) => shaders::kinds(code, stage)
                .map_err(|why| refuse(self, CALL, ObjectKind::Shader, shader, why))?,
            _ => shaders::Kinds::default(),
        };
        self.pipelines.kinds.insert(shader, kinds);
        Ok(kinds)
    }

    /// The bindings `shader`'s declared slots take: a shader resource the code reads as a
    /// storage buffer is a `STORAGE_BUFFER` (a buffer's view), else a `SAMPLED_IMAGE`; a UAV
    /// the code reads as a storage texture is a `STORAGE_IMAGE`, else a `STORAGE_BUFFER`.
    pub(crate) fn shader_bindings(
        &mut self,
        shader: RawHandle,
        out: &mut Vec<LayoutBinding>,
    ) -> Result<(), Error> {
        if shader.is_null() {
            return Ok(());
        }
        let info = self
            .device
            .shader_info(Shader::from_raw(shader))
            .ok_or_else(|| {
                refuse(
                    self,
                    CALL,
                    ObjectKind::Shader,
                    shader,
                    "is not alive (R-GPU-3)",
                )
            })?;
        let kinds = self.shader_kinds(shader, info.stage)?;
        let flags = match info.stage {
            Stage::Vertex => vk::ShaderStageFlags::VERTEX,
            Stage::Pixel => vk::ShaderStageFlags::FRAGMENT,
            _ => vk::ShaderStageFlags::COMPUTE,
        };
        for (kind, slots) in [
            (SlotKind::ConstantBuffer, info.constant_buffers),
            (SlotKind::ShaderResource, info.shader_resources),
            (SlotKind::Sampler, info.samplers),
            (SlotKind::UnorderedAccess, info.unordered_access_views),
        ] {
            for slot in slots.iter() {
                if !shaders::slot_mapped(kind, slot) {
                    return Err(refuse(
                        self,
                        CALL,
                        ObjectKind::Shader,
                        shader,
                        format!("reads {kind:?} slot {slot}, past the backend's mapping (R-GPU-3)"),
                    ));
                }
                let ty = match kind {
                    SlotKind::ConstantBuffer => vk::DescriptorType::UNIFORM_BUFFER,
                    SlotKind::ShaderResource if kinds.buffer_resources.contains(slot) => {
                        vk::DescriptorType::STORAGE_BUFFER
                    }
                    SlotKind::ShaderResource => vk::DescriptorType::SAMPLED_IMAGE,
                    SlotKind::Sampler => vk::DescriptorType::SAMPLER,
                    SlotKind::UnorderedAccess if kinds.image_uavs.contains(slot) => {
                        vk::DescriptorType::STORAGE_IMAGE
                    }
                    SlotKind::UnorderedAccess => vk::DescriptorType::STORAGE_BUFFER,
                };
                out.push((shaders::binding(info.stage, kind, slot), ty, flags));
            }
        }
        Ok(())
    }

    /// The set layout and pipeline layout for `bindings`, made on first use.
    pub(crate) fn layouts(
        &mut self,
        bindings: Vec<LayoutBinding>,
        push: bool,
    ) -> Result<(vk::DescriptorSetLayout, vk::PipelineLayout), Error> {
        let bindings = (bindings, push);
        if let Some(layouts) = self.pipelines.layouts.get(&bindings) {
            return Ok(*layouts);
        }
        let vk_bindings: Vec<_> = bindings
            .0
            .iter()
            .map(|&(binding, ty, stages)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(ty)
                    .descriptor_count(1)
                    .stage_flags(stages)
            })
            .collect();
        let flags = if push {
            vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR
        } else {
            vk::DescriptorSetLayoutCreateFlags::empty()
        };
        let info = vk::DescriptorSetLayoutCreateInfo::default()
            .flags(flags)
            .bindings(&vk_bindings);
        let device = &self.gpu.device;
        // SAFETY: `info` lists distinct bindings and lives across the call; a push layout only
        // where the device has VK_KHR_push_descriptor (enabled) and at most its
        // maxPushDescriptors bindings (`features.push_descriptors`).
        let set_layout = unsafe { device.create_descriptor_set_layout(&info, None) }
            .map_err(|r| self.vk_error(CALL, "vkCreateDescriptorSetLayout", r))?;
        let set_layouts = [set_layout];
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
        // SAFETY: `set_layout` is live; `info` lives across the call.
        let layout = match unsafe { device.create_pipeline_layout(&info, None) } {
            Ok(layout) => layout,
            Err(r) => {
                // SAFETY: the set layout is used by nothing yet.
                unsafe { device.destroy_descriptor_set_layout(set_layout, None) };
                return Err(self.vk_error(CALL, "vkCreatePipelineLayout", r));
            }
        };
        self.pipelines
            .layouts
            .insert(bindings, (set_layout, layout));
        Ok((set_layout, layout))
    }

    /// The pipeline of `key`, built on first use.
    pub(crate) fn pipeline(&mut self, key: &PipelineKey) -> Result<Built, Error> {
        if let Some(built) = self.pipelines.pipelines.get(key) {
            return Ok(*built);
        }
        let [vs, ps] = key.shaders;
        let vs_module = self.shader_module(vs, Stage::Vertex)?;
        let ps_module = if ps.is_null() {
            None
        } else {
            Some(self.shader_module(ps, Stage::Pixel)?)
        };
        let mut bindings = Vec::new();
        self.shader_bindings(vs, &mut bindings)?;
        self.shader_bindings(ps, &mut bindings)?;
        bindings.sort_by_key(|b| b.0);
        // Pushed descriptors where the device has them and the draw binds few enough.
        let most = self.gpu.features.push_descriptors;
        let push = most > 0 && bindings.len() as u32 <= most;
        let (set_layout, layout) = self.layouts(bindings.clone(), push)?;
        let elements = self.input_elements(key.input_layout)?;
        let states = States::of(self, key);
        self.rasterizer_supported(key.rasterizer, &states.rasterizer)?;
        let pipeline = self.build(key, vs_module, ps_module, layout, &elements, &states)?;
        let built = Built {
            pipeline,
            layout,
            set_layout,
            scissor: states.rasterizer.scissor,
            push,
        };
        self.pipelines.built += 1;
        self.pipelines.pipelines.insert(key.clone(), built);
        Ok(built)
    }

    /// Refuses a rasterizer state asking for a feature the device lacks (wireframe:
    /// `fillModeNonSolid`; no depth clip: `depthClamp`).
    fn rasterizer_supported(&self, state: RawHandle, r: &RasterizerDesc) -> Result<(), Error> {
        let features = self.gpu.features;
        let missing = if r.wireframe && !features.wireframe {
            "wireframe fill, and the device lacks fillModeNonSolid"
        } else if !r.depth_clip && !features.depth_clamp {
            "no depth clip, and the device lacks depthClamp"
        } else {
            return Ok(());
        };
        Err(refuse(
            self,
            CALL,
            ObjectKind::RasterizerState,
            state,
            format!("asks for {missing} (R-GPU-3)"),
        ))
    }

    /// The elements of an input layout (none for no layout); refused when it has none.
    fn input_elements(&self, layout: RawHandle) -> Result<Vec<InputElement>, Error> {
        if layout.is_null() {
            return Ok(Vec::new());
        }
        match self.device.gpu_contents(ObjectKind::InputLayout, layout).as_deref() {
            Some(GpuContents::InputLayout(elements)) => Ok(elements.clone()),
            _ => Err(refuse(
                self,
                CALL,
                ObjectKind::InputLayout,
                layout,
                "has no elements: the Vulkan backend needs them to read vertices (create it with create_input_layout_with_elements, R-GPU-2)",
            )),
        }
    }

    fn build(
        &mut self,
        key: &PipelineKey,
        vs: vk::ShaderModule,
        ps: Option<vk::ShaderModule>,
        layout: vk::PipelineLayout,
        elements: &[InputElement],
        states: &States,
    ) -> Result<vk::Pipeline, Error> {
        let entry = |shader: RawHandle| {
            self.pipelines
                .modules
                .get(&shader)
                .map(|(_, entry)| entry.clone())
                .unwrap_or_default()
        };
        let (vs_entry, ps_entry) = (entry(key.shaders[0]), entry(key.shaders[1]));
        let mut stages = vec![vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vs)
            .name(&vs_entry)];
        if let Some(ps) = ps {
            stages.push(
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::FRAGMENT)
                    .module(ps)
                    .name(&ps_entry),
            );
        }
        let (vertex_bindings, attributes) = self.vertex_input(key, elements)?;
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&vertex_bindings)
            .vertex_attribute_descriptions(&attributes);
        let topology =
            translate::topology(key.topology).unwrap_or(vk::PrimitiveTopology::TRIANGLE_LIST);
        let input_assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(topology);
        // Counts set with the viewports (`vkCmdSetViewportWithCount`, core in Vulkan 1.3).
        let viewport = vk::PipelineViewportStateCreateInfo::default();
        let r = &states.rasterizer;
        let rasterization = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(if r.wireframe {
                vk::PolygonMode::LINE
            } else {
                vk::PolygonMode::FILL
            })
            // D3D11's DepthClipEnable = FALSE: not clipped at the depth range, depth clamped.
            .depth_clamp_enable(!r.depth_clip)
            .cull_mode(translate::cull(r.cull))
            .front_face(if r.front_counter_clockwise {
                vk::FrontFace::COUNTER_CLOCKWISE
            } else {
                vk::FrontFace::CLOCKWISE
            })
            .depth_bias_enable(r.depth_bias != 0 || r.slope_scaled_depth_bias != 0.0)
            .depth_bias_constant_factor(r.depth_bias as f32)
            .depth_bias_clamp(r.depth_bias_clamp)
            .depth_bias_slope_factor(r.slope_scaled_depth_bias)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1)
            .alpha_to_coverage_enable(states.blend.alpha_to_coverage);
        let d = &states.depth_stencil;
        let has_depth = key.depth != vk::Format::UNDEFINED;
        let face = |f: &recorder::StencilFace| vk::StencilOpState {
            fail_op: translate::stencil_op(f.fail),
            pass_op: translate::stencil_op(f.pass),
            depth_fail_op: translate::stencil_op(f.depth_fail),
            compare_op: translate::compare(f.func),
            compare_mask: d.stencil_read_mask as u32,
            write_mask: d.stencil_write_mask as u32,
            reference: 0,
        };
        let depth_stencil = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(has_depth && d.depth_enable)
            .depth_write_enable(has_depth && d.depth_enable && d.depth_write)
            .depth_compare_op(translate::compare(d.depth_func))
            .stencil_test_enable(has_depth && d.stencil_enable)
            .front(face(&d.front))
            .back(face(&d.back));
        let blend_attachments = blend_attachments(&states.blend, key.colors.len());
        let blend =
            vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
        let dynamic_states = [
            vk::DynamicState::VIEWPORT_WITH_COUNT,
            vk::DynamicState::SCISSOR_WITH_COUNT,
            vk::DynamicState::BLEND_CONSTANTS,
            vk::DynamicState::STENCIL_REFERENCE,
            vk::DynamicState::PRIMITIVE_RESTART_ENABLE,
        ];
        let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
        let stencil_format =
            if translate::aspects(key.depth).contains(vk::ImageAspectFlags::STENCIL) {
                key.depth
            } else {
                vk::Format::UNDEFINED
            };
        let mut rendering = vk::PipelineRenderingCreateInfo::default()
            .color_attachment_formats(&key.colors)
            .depth_attachment_format(key.depth)
            .stencil_attachment_format(stencil_format);
        let info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&input_assembly)
            .viewport_state(&viewport)
            .rasterization_state(&rasterization)
            .multisample_state(&multisample)
            .depth_stencil_state(&depth_stencil)
            .color_blend_state(&blend)
            .dynamic_state(&dynamic)
            .layout(layout)
            .push_next(&mut rendering);
        // SAFETY: every structure `info` points to lives across the call; the modules,
        // layout and cache are live objects of this device; dynamic rendering is enabled.
        let pipelines = unsafe {
            self.gpu
                .device
                .create_graphics_pipelines(self.pipelines.cache, &[info], None)
        };
        match pipelines {
            Ok(pipelines) => pipelines.first().copied().ok_or_else(|| {
                self.vk_error(CALL, "vkCreateGraphicsPipelines", vk::Result::ERROR_UNKNOWN)
            }),
            Err((_, r)) => Err(self.vk_error(CALL, "vkCreateGraphicsPipelines", r)),
        }
    }

    /// The vertex-buffer bindings (by slot, with the draw's strides) and the attributes (the
    /// layout's elements, location = element index) of a pipeline.
    #[allow(clippy::type_complexity)]
    fn vertex_input(
        &self,
        key: &PipelineKey,
        elements: &[InputElement],
    ) -> Result<
        (
            Vec<vk::VertexInputBindingDescription>,
            Vec<vk::VertexInputAttributeDescription>,
        ),
        Error,
    > {
        let bindings = key
            .strides
            .iter()
            .map(
                |&(slot, stride, per_instance)| vk::VertexInputBindingDescription {
                    binding: slot,
                    stride,
                    input_rate: if per_instance {
                        vk::VertexInputRate::INSTANCE
                    } else {
                        vk::VertexInputRate::VERTEX
                    },
                },
            )
            .collect();
        let mut attributes = Vec::with_capacity(elements.len());
        for (location, element) in elements.iter().enumerate() {
            let format = translate::format(element.format).ok_or_else(|| {
                refuse(
                    self,
                    CALL,
                    ObjectKind::InputLayout,
                    key.input_layout,
                    "has an element of no format (R-GPU-2)",
                )
            })?;
            attributes.push(vk::VertexInputAttributeDescription {
                location: location as u32,
                binding: element.input_slot,
                format,
                offset: element.byte_offset,
            });
        }
        Ok((bindings, attributes))
    }

    /// Destroys every pipeline object (the device is idle).
    pub(crate) fn destroy_pipelines(&mut self) {
        let device = &self.gpu.device;
        // SAFETY: the device is idle; each object is destroyed once, pipelines before their
        // layouts, pipeline layouts before their set layouts.
        unsafe {
            for (_, built) in self.pipelines.pipelines.drain() {
                device.destroy_pipeline(built.pipeline, None);
            }
            for (_, built) in self.pipelines.compute.drain() {
                device.destroy_pipeline(built.pipeline, None);
            }
            for (_, (set_layout, layout)) in self.pipelines.layouts.drain() {
                device.destroy_pipeline_layout(layout, None);
                device.destroy_descriptor_set_layout(set_layout, None);
            }
            for (_, (module, _)) in self.pipelines.modules.drain() {
                device.destroy_shader_module(module, None);
            }
            device.destroy_pipeline_cache(self.pipelines.cache, None);
        }
    }
}

/// The blend of each of `targets` colour targets (`targets[0]`'s for all without independent
/// blend).
fn blend_attachments(
    blend: &BlendDesc,
    targets: usize,
) -> Vec<vk::PipelineColorBlendAttachmentState> {
    (0..targets)
        .map(|i| {
            let t = if blend.independent_blend {
                blend.targets[i.min(7)]
            } else {
                blend.targets[0]
            };
            vk::PipelineColorBlendAttachmentState {
                blend_enable: t.enable.into(),
                src_color_blend_factor: translate::blend_factor(t.src),
                dst_color_blend_factor: translate::blend_factor(t.dest),
                color_blend_op: translate::blend_op(t.op),
                src_alpha_blend_factor: translate::blend_factor(t.src_alpha),
                dst_alpha_blend_factor: translate::blend_factor(t.dest_alpha),
                alpha_blend_op: translate::blend_op(t.op_alpha),
                color_write_mask: vk::ColorComponentFlags::from_raw(t.write_mask as u32 & 0xf),
            }
        })
        .collect()
}

/// The state objects' contents a pipeline bakes (D3D11's defaults where none).
struct States {
    blend: BlendDesc,
    depth_stencil: DepthStencilDesc,
    rasterizer: RasterizerDesc,
}

impl States {
    fn of(backend: &VulkanBackend, key: &PipelineKey) -> Self {
        let contents = |kind, handle: RawHandle| {
            if handle.is_null() {
                None
            } else {
                backend.device.gpu_contents(kind, handle)
            }
        };
        let blend = match contents(ObjectKind::BlendState, key.blend).as_deref() {
            Some(GpuContents::Blend(desc)) => *desc,
            _ => BlendDesc::default(),
        };
        let depth_stencil =
            match contents(ObjectKind::DepthStencilState, key.depth_stencil).as_deref() {
                Some(GpuContents::DepthStencil(desc)) => *desc,
                _ => DepthStencilDesc::default(),
            };
        let rasterizer = match contents(ObjectKind::RasterizerState, key.rasterizer).as_deref() {
            Some(GpuContents::Rasterizer(desc)) => *desc,
            _ => RasterizerDesc::default(),
        };
        Self {
            blend,
            depth_stencil,
            rasterizer,
        }
    }
}
