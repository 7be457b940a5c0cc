//! A draw (R-GPU-3): the model's resolved record ([`Draw`]) made into Vulkan commands. First
//! everything that may record a transfer or a barrier (objects made on first use, initial data
//! uploaded, dynamic instances placed in the ring, shader resources moved to
//! `SHADER_READ_ONLY_OPTIMAL`), then the pass on the draw's targets (opened if it is not),
//! the pipeline (by key), dynamic state, the descriptor set (when the bindings changed), the
//! vertex and index buffers, and the draw.
//!
//! **In:** [`Draw`] and whether the model's predication skipped it (`predication.rs` decides
//! what is recorded). **Out:** the commands, or a refusal
//! naming the object and what it lacks (a shader without code, an input layout without
//! elements: R-GPU-2) or the construct not translated yet (hull, domain and geometry shaders,
//! auto draws: R-GPU-3). Dispatches go to `dispatches.rs`, the arguments of indirect draws
//! to `indirect_args.rs`, UAVs and buffer views to `views.rs`.
//!
//! **Invariant.** The draw's resolution runs again when placing something in the ring flushed
//! the frame (its regions are forgotten then), so a draw never reads a region of a frame that
//! was reset.

use ash::vk;
use executor::{Draw, DrawKind, StageView};
use recorder::command::{BoundBuffer, InstanceId, ViewFlags};
use recorder::{Buffer, Error, Format, Handle, ObjectKind, RawHandle, Stage, Usage};

use crate::descriptors::{Descriptor, Origin};
use crate::pipelines::PipelineKey;
use crate::predication::Decision;
use crate::resources::refuse;
use crate::shaders::{self, SlotKind};
use crate::VulkanBackend;

const CALL: &str = "draw";

/// What a draw's resolution gives the recording step.
struct Resolved {
    key: PipelineKey,
    colors: Vec<(RawHandle, RawHandle)>,
    depth: (RawHandle, RawHandle),
    set: Vec<(u32, Descriptor, Origin)>,
    /// Slot, where the binding comes from, the buffer, the offset in it and the bytes bound.
    vertex_buffers: Vec<(u32, Origin, vk::Buffer, u64, u64)>,
    index_buffer: Option<(Origin, vk::Buffer, u64, vk::IndexType)>,
    /// A stage writes a buffer through a UAV: global barriers before and after the draw.
    buffer_uavs: bool,
    /// An indirect draw's argument buffer and offset (`indirect_args.rs`).
    indirect: Option<(vk::Buffer, u64)>,
}

impl VulkanBackend {
    /// Translates one draw (see the module essay).
    pub(crate) fn translate_draw(&mut self, draw: &Draw<'_>, skipped: bool) -> Result<(), Error> {
        match draw.kind {
            DrawKind::Draw
            | DrawKind::DrawIndexed
            | DrawKind::DrawInstanced
            | DrawKind::DrawIndexedInstanced
            | DrawKind::DrawInstancedIndirect
            | DrawKind::DrawIndexedInstancedIndirect => {}
            // A predicated dispatch follows the model's decision (`predication.rs`).
            _ if skipped => return Ok(()),
            DrawKind::Dispatch | DrawKind::DispatchIndirect => {
                return self.translate_dispatch(draw)
            }
            DrawKind::DrawAuto => return Err(self.refuse_draw_auto()),
        }
        self.query_room(CALL)?;
        let mut decision = self.decide(CALL, skipped)?;
        if decision == Decision::Skip {
            return Ok(());
        }
        let submissions = self.frame.submissions;
        let mut resolved = self.resolve(draw)?;
        if self.frame.submissions != submissions {
            // The ring was full and flushed while resolving: decide and resolve again in the
            // new frame.
            decision = self.decide(CALL, skipped)?;
            if decision == Decision::Skip {
                return Ok(());
            }
            resolved = self.resolve(draw)?;
        }
        let built = self.pipeline(&resolved.key)?;
        if resolved.buffer_uavs {
            // What earlier commands did to the buffers is done before the draw writes them.
            self.memory_barrier(
                vk::PipelineStageFlags2::VERTEX_SHADER | vk::PipelineStageFlags2::FRAGMENT_SHADER,
                vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE,
            );
        }
        self.open_pass(CALL, &resolved.colors, resolved.depth)?;
        let device = self.gpu.device.clone();
        let cb = self.frame.cb;
        if self.bound.pipeline != built.pipeline {
            // SAFETY: recording inside a pass whose formats are the pipeline's (the key holds
            // them); the pipeline is live.
            unsafe {
                device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, built.pipeline)
            };
            self.bound.pipeline = built.pipeline;
        }
        self.bound.key = Some(resolved.key.clone());
        self.dynamic_state(draw, built.scissor)?;
        self.restart_state(draw, resolved.index_buffer.is_some())?;
        self.bind_set(&built, &resolved.set)?;
        self.bind_buffers(&resolved);
        let indirect = resolved.indirect;
        self.conditionally(decision, |backend| match indirect {
            Some(arguments) => {
                backend.record_indirect_draw(draw.kind, arguments);
                Ok(())
            }
            None => backend.record_draw(draw),
        })?;
        self.frame.dirty = true;
        if self.options.oracle {
            self.check_draw(draw)?;
        }
        if resolved.buffer_uavs {
            // What the draw wrote is visible to every later command (closes the pass).
            self.memory_barrier(
                vk::PipelineStageFlags2::ALL_COMMANDS,
                vk::AccessFlags2::MEMORY_READ | vk::AccessFlags2::MEMORY_WRITE,
            );
        }
        Ok(())
    }

    /// Everything that may record transfers and barriers (see the module essay).
    fn resolve(&mut self, draw: &Draw<'_>) -> Result<Resolved, Error> {
        let graphics = draw.graphics().ok_or_else(|| Error::GpuBackend {
            call: CALL,
            object: "the draw".to_string(),
            problem: "has no graphics record (R-GPU-1)".to_string(),
        })?;
        let mut shaders = [RawHandle::NULL; 2];
        let mut set = Vec::new();
        let mut buffer_uavs = false;
        for stage in draw.stages() {
            self.resolve_stage(&stage, &mut shaders, &mut set, &mut buffer_uavs)?;
        }
        if shaders[0].is_null() {
            return Err(Error::GpuBackend {
                call: CALL,
                object: "the draw".to_string(),
                problem: "has no vertex shader bound (R-GPU-3)".to_string(),
            });
        }
        set.sort_by_key(|s| s.0);
        let mut colors = Vec::new();
        let mut formats = Vec::new();
        for target in graphics.render_targets.iter().filter(|t| !t.view.is_null()) {
            let (_, texture) = self.image_view(
                CALL,
                ObjectKind::RenderTargetView,
                target.view,
                target.resource,
            )?;
            colors.push((target.view, texture));
            formats.push(self.view_format(target.format, texture));
        }
        let ds = graphics.depth_stencil;
        let (depth, depth_format) = if ds.view.is_null() {
            ((RawHandle::NULL, RawHandle::NULL), vk::Format::UNDEFINED)
        } else {
            let (_, texture) =
                self.image_view(CALL, ObjectKind::DepthStencilView, ds.view, ds.resource)?;
            ((ds.view, texture), self.view_format(ds.format, texture))
        };
        let strides = self.strides(graphics.input_layout, graphics.vertex_buffers)?;
        let mut vertex_buffers = Vec::new();
        for &(slot, _, _) in &strides {
            let Some(bound) =
                vertex_buffer(graphics.vertex_buffers, slot).filter(|b| !b.buffer.is_null())
            else {
                return Err(Error::GpuBackend {
                    call: CALL,
                    object: self
                        .device
                        .object_name(ObjectKind::InputLayout, graphics.input_layout)
                        .to_string(),
                    problem: format!("reads vertex-buffer slot {slot}, which is empty (R-GPU-3)"),
                });
            };
            let (buffer, base, size) = self.buffer_location(CALL, bound.buffer, bound.instance)?;
            let origin = Origin::Buffer(bound.buffer, bound.instance);
            // Bound with its size: a fetch past it reads zeros (robust access, D3D11's rule),
            // not the ring's next instance.
            let within = size.saturating_sub(bound.offset as u64).max(1);
            vertex_buffers.push((slot, origin, buffer, base + bound.offset as u64, within));
        }
        let index_buffer = self.index_buffer(draw, &graphics.index_buffer)?;
        let indirect = self.indirect_arguments(draw)?;
        let key = PipelineKey {
            shaders,
            input_layout: graphics.input_layout,
            strides,
            topology: graphics.topology,
            blend: graphics.blend.state,
            depth_stencil: graphics.depth_stencil_state.state,
            rasterizer: graphics.rasterizer,
            colors: formats,
            depth: depth_format,
        };
        Ok(Resolved {
            key,
            colors,
            depth,
            set,
            vertex_buffers,
            index_buffer,
            buffer_uavs,
            indirect,
        })
    }

    /// One stage's shader and the descriptors of the slots it reads.
    fn resolve_stage(
        &mut self,
        stage: &StageView<'_>,
        shaders: &mut [RawHandle; 2],
        set: &mut Vec<(u32, Descriptor, Origin)>,
        buffer_uavs: &mut bool,
    ) -> Result<(), Error> {
        let index = match stage.stage {
            Stage::Vertex => 0,
            Stage::Pixel => 1,
            _ if stage.shader.is_null() => return Ok(()),
            other => {
                return Err(refuse(
                    self,
                    CALL,
                    ObjectKind::Shader,
                    stage.shader,
                    format!("is a {other:?} shader: only vertex and pixel shaders are translated yet (R-GPU-3)"),
                ))
            }
        };
        shaders[index] = stage.shader;
        let readers =
            vk::PipelineStageFlags2::VERTEX_SHADER | vk::PipelineStageFlags2::FRAGMENT_SHADER;
        if !stage.unordered_access_views.is_empty() {
            self.uav_stage_supported(CALL, stage)?;
            *buffer_uavs |= self.uav_descriptors(CALL, stage, readers, set)?;
        }
        self.stage_descriptors(stage, readers, set)
    }

    /// The descriptors of the constant buffers, shader resources and samplers `stage` reads
    /// (empty slots read zeros, `null_descriptors.rs`); the shader resources moved to
    /// `SHADER_READ_ONLY_OPTIMAL` for `readers`.
    pub(crate) fn stage_descriptors(
        &mut self,
        stage: &StageView<'_>,
        readers: vk::PipelineStageFlags2,
        set: &mut Vec<(u32, Descriptor, Origin)>,
    ) -> Result<(), Error> {
        for (slot, bound) in stage.constant_buffers {
            let binding =
                self.binding(stage.stage, SlotKind::ConstantBuffer, *slot, stage.shader)?;
            let descriptor = if bound.buffer.is_null() {
                Descriptor::Buffer {
                    buffer: self.null_buffer(CALL)?,
                    offset: 0,
                    range: crate::null_descriptors::NULL_BUFFER_BYTES,
                }
            } else {
                let (buffer, base, size) =
                    self.buffer_location(CALL, bound.buffer, bound.instance)?;
                Descriptor::Buffer {
                    buffer,
                    offset: base + bound.offset as u64,
                    range: size.saturating_sub(bound.offset as u64).clamp(4, 65536),
                }
            };
            set.push((
                binding,
                descriptor,
                Origin::Buffer(bound.buffer, bound.instance),
            ));
        }
        let kinds = if stage.shader.is_null() {
            shaders::Kinds::default()
        } else {
            self.shader_kinds(stage.shader, stage.stage)?
        };
        for (slot, view) in stage.shader_resources {
            let binding =
                self.binding(stage.stage, SlotKind::ShaderResource, *slot, stage.shader)?;
            if kinds.buffer_resources.contains(*slot) {
                let descriptor = self.buffer_resource(CALL, stage, *slot, view)?;
                set.push((binding, descriptor, Origin::View(view.view)));
                continue;
            }
            if view.flags.has(ViewFlags::BUFFER) {
                return Err(self.buffer_for_texture(CALL, stage, *slot, view.view));
            }
            let (image_view, texture, range) = if view.view.is_null() {
                let null = self.null_image_view(CALL)?;
                (null, RawHandle::NULL, crate::image_layouts::Subrange::ALL)
            } else {
                // The view's minimum LOD as the record has it (R-ST-6).
                self.image_view_lod(CALL, view.view, view.resource, view.min_lod)?
            };
            self.use_range(
                texture,
                range,
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                readers,
                vk::AccessFlags2::SHADER_SAMPLED_READ,
            );
            set.push((
                binding,
                Descriptor::Image(image_view),
                Origin::View(view.view),
            ));
        }
        for (slot, sampler) in stage.samplers {
            let binding = self.binding(stage.stage, SlotKind::Sampler, *slot, stage.shader)?;
            let vk_sampler = self.sampler(CALL, *sampler)?;
            set.push((
                binding,
                Descriptor::Sampler(vk_sampler),
                Origin::Sampler(*sampler),
            ));
        }
        Ok(())
    }

    /// The binding of `slot` of `kind` in `stage`, refused past the mapping.
    pub(crate) fn binding(
        &self,
        stage: Stage,
        kind: SlotKind,
        slot: u32,
        shader: RawHandle,
    ) -> Result<u32, Error> {
        if shaders::slot_mapped(kind, slot) {
            Ok(shaders::binding(stage, kind, slot))
        } else {
            Err(refuse(
                self,
                CALL,
                ObjectKind::Shader,
                shader,
                format!("reads {kind:?} slot {slot}, past the backend's mapping (R-GPU-3)"),
            ))
        }
    }

    /// The Vulkan format of a view: its own, else its texture's.
    fn view_format(&self, format: Format, texture: RawHandle) -> vk::Format {
        crate::translate::format(format)
            .or_else(|| self.resources.images.get(&texture).map(|i| i.format))
            .unwrap_or(vk::Format::UNDEFINED)
    }

    /// `(slot, stride, per_instance)` of each vertex buffer the input layout reads.
    fn strides(
        &self,
        layout: RawHandle,
        vertex_buffers: &[(u32, BoundBuffer)],
    ) -> Result<Vec<(u32, u32, bool)>, Error> {
        if layout.is_null() {
            return Ok(Vec::new());
        }
        let contents = self.device.gpu_contents(ObjectKind::InputLayout, layout);
        let Some(recorder::GpuContents::InputLayout(elements)) = contents.as_deref() else {
            return Err(refuse(
                self,
                CALL,
                ObjectKind::InputLayout,
                layout,
                "has no elements: the Vulkan backend needs them to read vertices (create it with create_input_layout_with_elements, R-GPU-2)",
            ));
        };
        let mut strides: Vec<(u32, u32, bool)> = Vec::new();
        for element in elements {
            if strides.iter().any(|s| s.0 == element.input_slot) {
                continue;
            }
            let stride = vertex_buffers
                .iter()
                .find(|(slot, _)| *slot == element.input_slot)
                .map_or(0, |(_, b)| b.stride_or_format);
            strides.push((element.input_slot, stride, element.per_instance));
        }
        strides.sort_by_key(|s| s.0);
        Ok(strides)
    }

    fn index_buffer(
        &mut self,
        draw: &Draw<'_>,
        bound: &BoundBuffer,
    ) -> Result<Option<(Origin, vk::Buffer, u64, vk::IndexType)>, Error> {
        if !matches!(
            draw.kind,
            DrawKind::DrawIndexed
                | DrawKind::DrawIndexedInstanced
                | DrawKind::DrawIndexedInstancedIndirect
        ) {
            return Ok(None);
        }
        if bound.buffer.is_null() {
            return Err(Error::GpuBackend {
                call: draw.kind.name(),
                object: "the draw".to_string(),
                problem: "is indexed with no index buffer bound (R-GPU-3)".to_string(),
            });
        }
        let (buffer, base, _) = self.buffer_location(CALL, bound.buffer, bound.instance)?;
        let ty = if bound.index_format() == Format::R16Uint {
            vk::IndexType::UINT16
        } else {
            vk::IndexType::UINT32
        };
        let origin = Origin::Buffer(bound.buffer, bound.instance);
        Ok(Some((origin, buffer, base + bound.offset as u64, ty)))
    }

    /// Where `buffer`'s `instance` lies: the ring region of a dynamic instance (placed again
    /// from the kept bytes after a reset), else the device-local buffer; with its size.
    pub(crate) fn buffer_location(
        &mut self,
        call: &'static str,
        buffer: RawHandle,
        instance: InstanceId,
    ) -> Result<(vk::Buffer, u64, u64), Error> {
        let info = self
            .device
            .buffer_info(Buffer::from_raw(buffer))
            .ok_or_else(|| {
                refuse(
                    self,
                    call,
                    ObjectKind::Buffer,
                    buffer,
                    "is not alive (R-GPU-3)",
                )
            })?;
        let size = info.size as u64;
        if info.usage == Usage::Dynamic && instance != InstanceId::INITIAL {
            if let Some(offset) = self.ring.regions.get(&(buffer, instance)) {
                return Ok((self.ring.buffer, *offset, size));
            }
            let kept = self
                .latest
                .get(&buffer)
                .filter(|(i, _)| *i == instance)
                .map(|(_, b)| b.clone());
            let Some(bytes) = kept else {
                return Err(refuse(
                    self,
                    call,
                    ObjectKind::Buffer,
                    buffer,
                    format!(
                        "instance {:#x} was never mapped while the backend was installed (R-GPU-2)",
                        instance.0
                    ),
                ));
            };
            let offset = self.ring_place(call, &bytes)?;
            self.ring.regions.insert((buffer, instance), offset);
            return Ok((self.ring.buffer, offset, size));
        }
        Ok((self.gpu_buffer(call, buffer)?, 0, size))
    }

    fn bind_buffers(&mut self, resolved: &Resolved) {
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        if self.bound.vertex_buffers != resolved.vertex_buffers {
            for &(slot, _, buffer, offset, size) in &resolved.vertex_buffers {
                // SAFETY: the buffer is live with VERTEX_BUFFER usage; the offset is in it and
                // `size` bytes from it are in it (`buffer_location`); no strides given, so the
                // pipeline's static strides apply.
                unsafe {
                    device.cmd_bind_vertex_buffers2(
                        cb,
                        slot,
                        &[buffer],
                        &[offset],
                        Some(&[size]),
                        None,
                    )
                };
            }
            self.bound
                .vertex_buffers
                .clone_from(&resolved.vertex_buffers);
        }
        if let Some((origin, buffer, offset, ty)) = resolved.index_buffer {
            if self.bound.index_buffer != resolved.index_buffer {
                // SAFETY: the buffer is live with INDEX_BUFFER usage; the offset is in it.
                unsafe { device.cmd_bind_index_buffer(cb, buffer, offset, ty) };
                self.bound.index_buffer = Some((origin, buffer, offset, ty));
            }
        }
    }

    fn record_draw(&mut self, draw: &Draw<'_>) -> Result<(), Error> {
        let recorder::command::DrawArgs::Direct(args) = draw.args else {
            return Err(Error::GpuBackend {
                call: draw.kind.name(),
                object: "the draw".to_string(),
                problem: "has indirect arguments: not translated yet (R-GPU-3)".to_string(),
            });
        };
        let n = |i: usize| args.get(i) as u32;
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        // SAFETY: recording inside a pass, with a pipeline, its descriptor set, vertex and
        // index buffers and dynamic state bound above.
        unsafe {
            match draw.kind {
                DrawKind::Draw => device.cmd_draw(cb, n(0), 1, n(1), 0),
                DrawKind::DrawInstanced => device.cmd_draw(cb, n(0), n(1), n(2), n(3)),
                DrawKind::DrawIndexed => {
                    device.cmd_draw_indexed(cb, n(0), 1, n(1), args.get(2) as i32, 0)
                }
                DrawKind::DrawIndexedInstanced => {
                    device.cmd_draw_indexed(cb, n(0), n(1), n(2), args.get(3) as i32, n(4))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The buffer bound at vertex-buffer `slot`, if the record lists one.
pub(crate) fn vertex_buffer(slots: &[(u32, BoundBuffer)], slot: u32) -> Option<&BoundBuffer> {
    slots.iter().find(|(s, _)| *s == slot).map(|(_, b)| b)
}
