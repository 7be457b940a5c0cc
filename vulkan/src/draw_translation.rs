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
//! **Cost (R-GPU-6).** Nothing is allocated per draw: the resolution fills one record kept on
//! the backend ([`Resolved`], fixed-size lists but the descriptors', which keep their room).
//! Only what changed since the last draw resolved is resolved again: the model's
//! [`DrawChanges`] on the draw say which stages, vertex-buffer slots, index buffer and registers
//! a bind touched, and the backend adds "everything" for its own events (`VulkanBackend::changes`:
//! a command other than a bind, a submission, a barrier, a dispatch, an error); a stage's
//! descriptors are kept per stage. The pipeline key is compared with the bound one only when
//! something it holds changed; the input layout's slots are read (under the device's lock) only
//! when the layout changes; buffer locations are kept for the frame ([`Locations`]); dynamic
//! state, vertex and index buffers and descriptors are recorded only where they differ from
//! what is bound. A changed constant buffer of a kept shader has its descriptor replaced in
//! place (the stage's other descriptors and the set's bindings kept), and a pushed set is
//! updated by that one descriptor (`descriptors.rs`); a changed vertex buffer is bound alone.
//! The steady state, a draw after which only constant buffers of the vertex and pixel stages,
//! vertex buffers of the same strides and the index buffer changed, in the pass and with the
//! pipeline the last draw left, takes `steady_draw`: those slots, the draw, nothing else read.
//! A map the upload ring takes changes nothing a draw resolved (its instance's region is kept
//! in [`Locations`] at the map), so a dynamic constant buffer mapped and bound again per draw
//! is a steady draw too.
//!
//! **Invariant.** The draw's resolution runs again when placing something in the ring flushed
//! the frame (its regions are forgotten then), so a draw never reads a region of a frame that
//! was reset.

use arrayvec::ArrayVec;
use ash::vk;
use executor::{Draw, DrawChanges, DrawKind, GraphicsView, StageView};
use recorder::command::{BoundBuffer, InstanceId, ViewFlags};
use recorder::{Buffer, Error, Format, Handle, ObjectKind, RawHandle, Stage, Usage};

use crate::descriptors::{Descriptor, Origin, VertexBinding};
use crate::pipelines::{PipelineKey, MAX_COLORS, MAX_VERTEX_BUFFERS};
use crate::predication::Decision;
use crate::resources::refuse;
use crate::shaders::{self, SlotKind};
use crate::VulkanBackend;

const CALL: &str = "draw";

/// What a draw's resolution gives the recording step. Kept on the backend between draws
/// (`VulkanBackend::resolved`) and filled again in place: no allocation per draw once the
/// descriptor list has grown to the largest draw's (R-GPU-6).
pub(crate) struct Resolved {
    key: PipelineKey,
    colors: ArrayVec<(RawHandle, RawHandle), MAX_COLORS>,
    depth: (RawHandle, RawHandle),
    set: Vec<(u32, Descriptor, Origin)>,
    vertex_buffers: ArrayVec<VertexBinding, MAX_VERTEX_BUFFERS>,
    index_buffer: Option<(Origin, vk::Buffer, u64, vk::IndexType)>,
    /// A stage writes a buffer through a UAV: global barriers before and after the draw.
    buffer_uavs: bool,
    /// An indirect draw's argument buffer and offset (`indirect_args.rs`).
    indirect: Option<(vk::Buffer, u64)>,
    /// The descriptors of the vertex and the pixel stage (the UAVs they see first), kept
    /// between draws: a draw re-resolves only the stage whose bindings changed, and `set` is
    /// put together again from these (R-GPU-6).
    stage_sets: [Vec<(u32, Descriptor, Origin)>; 2],
    /// A stage reads a UAV: the next draw resolves everything again (the UAVs' barriers are
    /// per draw).
    uavs: bool,
    /// The key may differ from the last draw's: the pipeline is looked up (compared with the
    /// bound one).
    key_changed: bool,
    /// Viewports, scissors, blend factor or stencil reference may differ from the last
    /// draw's, or the key does.
    dynamic_changed: bool,
    /// The topology, index buffer, reset index or whether the draw is indexed may differ from
    /// the last draw's.
    restart_changed: bool,
}

/// The vertex-buffer slots an input layout reads, `(slot, per_instance)` sorted by slot: the
/// last layout's, kept so that a draw with the previous draw's layout takes no lock
/// (`Device::gpu_contents`) to find them.
pub(crate) struct LayoutSlots {
    layout: RawHandle,
    slots: ArrayVec<(u32, bool), MAX_VERTEX_BUFFERS>,
}

impl Default for LayoutSlots {
    fn default() -> Self {
        Self {
            layout: RawHandle::NULL,
            slots: ArrayVec::new(),
        }
    }
}

impl Default for Resolved {
    fn default() -> Self {
        Self {
            key: PipelineKey::default(),
            colors: ArrayVec::new(),
            depth: (RawHandle::NULL, RawHandle::NULL),
            set: Vec::new(),
            vertex_buffers: ArrayVec::new(),
            index_buffer: None,
            buffer_uavs: false,
            indirect: None,
            stage_sets: [Vec::new(), Vec::new()],
            uavs: false,
            key_changed: true,
            dynamic_changed: true,
            restart_changed: true,
        }
    }
}

impl VulkanBackend {
    /// Translates one draw (see the module essay).
    pub(crate) fn translate_draw(&mut self, draw: &Draw<'_>, skipped: bool) -> Result<(), Error> {
        // What changed since the last draw resolved, until one is (a skipped draw resolves
        // nothing: its changes wait for the next).
        self.changes.merge(&draw.changes);
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
                self.changes.set_everything();
                return self.translate_dispatch(draw);
            }
            DrawKind::DrawAuto => return Err(self.refuse_draw_auto()),
        }
        self.query_room(CALL)?;
        let decision = self.decide(CALL, skipped)?;
        if decision == Decision::Skip {
            return Ok(());
        }
        // The record is filled in place (kept on the backend), and put back after the draw.
        let mut resolved = self.resolved.take().unwrap_or_default();
        if decision == Decision::Draw {
            let steady = self.steady_draw(draw, &mut resolved);
            if !matches!(steady, Ok(false)) {
                self.resolved = Some(resolved);
                if steady.is_err() {
                    self.changes.set_everything();
                }
                return steady.map(|_| ());
            }
        }
        let result = self.translate_resolved(draw, skipped, decision, &mut resolved);
        self.resolved = Some(resolved);
        if result.is_err() {
            // What was resolved or bound may be part of this draw's: all of the next draw's.
            self.changes.set_everything();
        }
        result
    }

    /// The steady state (R-GPU-6): a direct draw after which only constant buffers of the
    /// vertex and pixel stages, vertex buffers (of the strides bound) and, for an indexed draw,
    /// the index buffer or reset index changed (a mesh change, a dynamic buffer mapped and
    /// bound again: maps tell nothing, `lib.rs`), in the pass
    /// and with the pipeline the last draw left, updates those slots of `r` in place, writes
    /// the descriptors and binds the vertex buffers that differ, and draws; `false` (nothing
    /// recorded) where the draw needs [`Self::translate_resolved`].
    fn steady_draw(&mut self, draw: &Draw<'_>, r: &mut Resolved) -> Result<bool, Error> {
        let c = &self.changes;
        let (vertex, pixel) = (Stage::Vertex as usize, Stage::Pixel as usize);
        // An indexed draw may also take another index buffer (a mesh change).
        let indexed = matches!(
            draw.kind,
            DrawKind::DrawIndexed | DrawKind::DrawIndexedInstanced
        );
        let flags = match indexed {
            true => c.flags & !DrawChanges::INDEX_BUFFER,
            false => c.flags,
        };
        let steady = flags == 0
            && c.shaders == 0
            && c.samplers == [0; 6]
            && c.shader_resources == [0; 6]
            && c.constant_buffers
                .iter()
                .enumerate()
                .all(|(s, m)| *m == 0 || s == vertex || s == pixel)
            && !r.uavs
            && !r.buffer_uavs
            && r.indirect.is_none()
            && self.pass.is_some()
            && self.bound.built.is_some()
            && match draw.kind {
                DrawKind::Draw | DrawKind::DrawInstanced => r.index_buffer.is_none(),
                DrawKind::DrawIndexed | DrawKind::DrawIndexedInstanced => r.index_buffer.is_some(),
                _ => false,
            };
        if !steady {
            return Ok(false);
        }
        let changes = *c;
        let submissions = self.frame.submissions;
        if changes.vertex_buffers != 0 {
            let vertex_buffers = draw.vertex_buffers();
            for (i, &(slot, stride, _)) in r.key.strides.iter().enumerate() {
                if changes.vertex_buffers & (1 << slot.min(31)) == 0 {
                    continue;
                }
                let Some(bound) =
                    vertex_buffer(vertex_buffers, slot).filter(|b| !b.buffer.is_null())
                else {
                    return Ok(false);
                };
                if bound.stride_or_format != stride || i >= r.vertex_buffers.len() {
                    // A new stride is a new pipeline.
                    return Ok(false);
                }
                let (buffer, base, size) =
                    self.buffer_location(CALL, bound.buffer, bound.instance)?;
                let within = size.saturating_sub(bound.offset as u64).max(1);
                let origin = Origin::Buffer(bound.buffer, bound.instance);
                r.vertex_buffers[i] = (slot, origin, buffer, base + bound.offset as u64, within);
            }
        }
        if changes.constant_buffers[vertex] != 0 || changes.constant_buffers[pixel] != 0 {
            // The stages whose constant buffers changed (a stage's view is not free to build:
            // only theirs are).
            let bit_if = |stage: usize| match changes.constant_buffers[stage] {
                0 => 0,
                _ => 1u32 << stage,
            };
            for stage in [Stage::Vertex, Stage::Pixel] {
                if bit_if(stage as usize) == 0 {
                    continue;
                }
                // The stage's view alone (found at its place in the record).
                let Some(view) = draw.stage(stage) else {
                    return Ok(false);
                };
                if !self.replace_constant_buffers(&view, changes, r)? {
                    return Ok(false);
                }
            }
        }
        if changes.flags & DrawChanges::INDEX_BUFFER != 0 {
            let Some((_, index_buffer, _)) = draw.index_state() else {
                return Ok(false);
            };
            r.index_buffer = self.index_buffer(draw, &index_buffer)?;
        }
        if self.frame.submissions != submissions || self.pass.is_none() {
            // Placing an instance flushed the frame (nothing is bound), or a buffer made at
            // its first use was uploaded (the pass closed for the copy).
            return Ok(false);
        }
        let Some(built) = self.bound.built else {
            return Ok(false);
        };
        if changes.flags & DrawChanges::INDEX_BUFFER != 0 {
            // The index type or the reset index may have changed (R-ST-5).
            self.restart_state(draw, true)?;
        }
        self.bind_set(&built, &r.set)?;
        self.bind_buffers(r);
        self.record_draw(draw)?;
        self.frame.dirty = true;
        if self.options.oracle {
            self.check_draw(draw)?;
        }
        self.changes = DrawChanges::NONE;
        Ok(true)
    }

    /// [`Self::translate_draw`] after the draw was decided, with `resolved` to fill.
    fn translate_resolved(
        &mut self,
        draw: &Draw<'_>,
        skipped: bool,
        mut decision: Decision,
        resolved: &mut Resolved,
    ) -> Result<(), Error> {
        let submissions = self.frame.submissions;
        self.resolve(draw, resolved)?;
        if self.frame.submissions != submissions {
            // The ring was full and flushed while resolving: decide and resolve everything
            // again in the new frame (what was resolved before the flush is the old frame's).
            self.changes.set_everything();
            decision = self.decide(CALL, skipped)?;
            if decision == Decision::Skip {
                return Ok(());
            }
            self.resolve(draw, resolved)?;
        }
        // The pipeline is looked up only when the key differs from the bound one, compared
        // only when something it holds may have changed (R-GPU-6).
        let bound_built = self
            .bound
            .built
            .filter(|_| !resolved.key_changed || self.bound.key.as_ref() == Some(&resolved.key));
        let built = match bound_built {
            Some(built) => built,
            None => self.pipeline(&resolved.key)?,
        };
        if resolved.buffer_uavs {
            // What earlier commands did to the buffers is done before the draw writes them.
            self.memory_barrier(
                vk::PipelineStageFlags2::VERTEX_SHADER | vk::PipelineStageFlags2::FRAGMENT_SHADER,
                vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE,
            );
        }
        self.open_pass(CALL, &resolved.colors, resolved.depth)?;
        if self.bound.pipeline != built.pipeline {
            // SAFETY: recording inside a pass whose formats are the pipeline's (the key holds
            // them); the pipeline is live.
            unsafe {
                self.gpu.device.cmd_bind_pipeline(
                    self.frame.cb,
                    vk::PipelineBindPoint::GRAPHICS,
                    built.pipeline,
                )
            };
            self.bound.pipeline = built.pipeline;
        }
        if bound_built.is_none() {
            self.bound.key = Some(resolved.key.clone());
            self.bound.built = Some(built);
        }
        if resolved.dynamic_changed || self.bound.dynamic.is_none() {
            self.dynamic_state(draw, built.scissor)?;
        }
        if resolved.restart_changed || self.bound.restart.is_none() {
            self.restart_state(draw, resolved.index_buffer.is_some())?;
        }
        self.bind_set(&built, &resolved.set)?;
        self.bind_buffers(resolved);
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

    /// Everything that may record transfers and barriers (see the module essay), into `r`:
    /// only what the bindings changed since the last draw resolved (`self.changes`, the model's
    /// [`DrawChanges`] with the backend's own: a command between the draws, a flush, a
    /// barrier), the rest kept from that draw (R-GPU-6).
    fn resolve(&mut self, draw: &Draw<'_>, r: &mut Resolved) -> Result<(), Error> {
        let graphics = draw.graphics().ok_or_else(|| Error::GpuBackend {
            call: CALL,
            object: "the draw".to_string(),
            problem: "has no graphics record (R-GPU-1)".to_string(),
        })?;
        let changes = self.changes;
        let all = changes.everything() || r.uavs;
        if all {
            r.buffer_uavs = false;
            r.uavs = false;
            r.key.shaders = [RawHandle::NULL; 2];
            for set in &mut r.stage_sets {
                set.clear();
            }
        }
        let mut set_changed = all;
        // The stages after the last that changed are not walked.
        let last = Stage::GRAPHICS
            .iter()
            .rposition(|s| all || changes.stage(*s))
            .map_or(0, |p| p + 1);
        for stage in draw.stages().take(last) {
            if !(all || changes.stage(stage.stage)) {
                continue;
            }
            // Only constant buffers of a kept shader changed: those slots' descriptors are
            // replaced in place (R-GPU-6); else the stage is resolved whole.
            let s = stage.stage as usize;
            let only_constants = !all
                && changes.shaders & (1 << s) == 0
                && changes.samplers[s] == 0
                && changes.shader_resources[s] == 0;
            if !(only_constants && self.replace_constant_buffers(&stage, changes, r)?) {
                set_changed = true;
                self.resolve_stage(&stage, r)?;
            }
        }
        if r.key.shaders[0].is_null() {
            return Err(Error::GpuBackend {
                call: CALL,
                object: "the draw".to_string(),
                problem: "has no vertex shader bound (R-GPU-3)".to_string(),
            });
        }
        if set_changed {
            r.set.clear();
            for set in &r.stage_sets {
                r.set.extend_from_slice(set);
            }
            if !r.set.is_sorted_by_key(|s| s.0) {
                r.set.sort_unstable_by_key(|s| s.0);
            }
        }
        if all {
            self.resolve_targets(&graphics, r)?;
        }
        let mut key_changed = all || changes.shaders != 0;
        if all || changes.vertex_buffers != 0 || changes.any(DrawChanges::INPUT_LAYOUT) {
            key_changed |= self.resolve_vertex_buffers(&graphics, r)?;
        }
        let indexed = matches!(
            draw.kind,
            DrawKind::DrawIndexed
                | DrawKind::DrawIndexedInstanced
                | DrawKind::DrawIndexedInstancedIndirect
        );
        let restart_changed = all
            || changes.any(DrawChanges::TOPOLOGY | DrawChanges::INDEX_BUFFER)
            || indexed != r.index_buffer.is_some();
        if !indexed {
            r.index_buffer = None;
        } else if restart_changed || r.index_buffer.is_none() {
            r.index_buffer = self.index_buffer(draw, &graphics.index_buffer)?;
        }
        r.indirect = self.indirect_arguments(draw)?;
        let registers = DrawChanges::INPUT_LAYOUT
            | DrawChanges::TOPOLOGY
            | DrawChanges::BLEND
            | DrawChanges::DEPTH_STENCIL
            | DrawChanges::RASTERIZER;
        if changes.any(registers) || all {
            r.key.input_layout = graphics.input_layout;
            r.key.topology = graphics.topology;
            r.key.blend = graphics.blend.state;
            r.key.depth_stencil = graphics.depth_stencil_state.state;
            r.key.rasterizer = graphics.rasterizer;
            key_changed = true;
        }
        let dynamic = DrawChanges::VIEWPORTS
            | DrawChanges::SCISSORS
            | DrawChanges::BLEND
            | DrawChanges::DEPTH_STENCIL;
        r.key_changed = key_changed;
        r.dynamic_changed = key_changed || changes.any(dynamic);
        r.restart_changed = restart_changed;
        // Resolved: what changes from here on is the next draw's.
        self.changes = DrawChanges::NONE;
        Ok(())
    }

    /// The render targets and depth-stencil view, with their formats in the key.
    fn resolve_targets(
        &mut self,
        graphics: &GraphicsView<'_>,
        r: &mut Resolved,
    ) -> Result<(), Error> {
        r.colors.clear();
        r.key.colors.clear();
        for target in graphics.render_targets.iter().filter(|t| !t.view.is_null()) {
            let (_, texture) = self.image_view(
                CALL,
                ObjectKind::RenderTargetView,
                target.view,
                target.resource,
            )?;
            let format = self.view_format(target.format, texture);
            // At most MAX_COLORS targets are bound (D3D11's limit, checked at the call).
            if r.colors.try_push((target.view, texture)).is_err()
                || r.key.colors.try_push(format).is_err()
            {
                return Err(Error::GpuBackend {
                    call: CALL,
                    object: "the draw".to_string(),
                    problem: format!("binds more than {MAX_COLORS} render targets (R-GPU-3)"),
                });
            }
        }
        let ds = graphics.depth_stencil;
        (r.depth, r.key.depth) = if ds.view.is_null() {
            ((RawHandle::NULL, RawHandle::NULL), vk::Format::UNDEFINED)
        } else {
            let (_, texture) =
                self.image_view(CALL, ObjectKind::DepthStencilView, ds.view, ds.resource)?;
            ((ds.view, texture), self.view_format(ds.format, texture))
        };
        Ok(())
    }

    /// The vertex buffers the input layout reads, with their strides in the key; whether the
    /// strides changed.
    fn resolve_vertex_buffers(
        &mut self,
        graphics: &GraphicsView<'_>,
        r: &mut Resolved,
    ) -> Result<bool, Error> {
        let before = r.key.strides.clone();
        self.strides(
            graphics.input_layout,
            graphics.vertex_buffers,
            &mut r.key.strides,
        )?;
        r.vertex_buffers.clear();
        for &(slot, _, _) in &r.key.strides {
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
            // not the ring's next instance. As many as the strides (MAX_VERTEX_BUFFERS).
            let within = size.saturating_sub(bound.offset as u64).max(1);
            let binding = (slot, origin, buffer, base + bound.offset as u64, within);
            let _ = r.vertex_buffers.try_push(binding);
        }
        Ok(before != r.key.strides)
    }

    /// One stage's shader and the descriptors of the slots it reads, in place of what `r`
    /// held of that stage.
    fn resolve_stage(&mut self, stage: &StageView<'_>, r: &mut Resolved) -> Result<(), Error> {
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
        r.key.shaders[index] = stage.shader;
        let set = &mut r.stage_sets[index];
        set.clear();
        let readers =
            vk::PipelineStageFlags2::VERTEX_SHADER | vk::PipelineStageFlags2::FRAGMENT_SHADER;
        if !stage.unordered_access_views.is_empty() {
            self.uav_stage_supported(CALL, stage)?;
            r.uavs = true;
            r.buffer_uavs |= self.uav_descriptors(CALL, stage, readers, set)?;
        }
        self.stage_descriptors(stage, readers, set)
    }

    /// The descriptors of `stage`'s constant-buffer slots that `changes` names, replaced in
    /// place in the stage's descriptors and in the draw's set (the shader, its other slots and
    /// so the set's bindings unchanged); `false` where a slot's binding is not in them (the
    /// stage is resolved whole then).
    fn replace_constant_buffers(
        &mut self,
        stage: &StageView<'_>,
        changes: DrawChanges,
        r: &mut Resolved,
    ) -> Result<bool, Error> {
        let index = match stage.stage {
            Stage::Vertex => 0,
            Stage::Pixel => 1,
            _ => return Ok(false),
        };
        let mask = changes.constant_buffers[stage.stage as usize];
        for (slot, bound) in stage.constant_buffers {
            if mask & (1 << (*slot).min(15)) == 0 {
                continue;
            }
            let binding =
                self.binding(stage.stage, SlotKind::ConstantBuffer, *slot, stage.shader)?;
            let descriptor = self.constant_buffer(bound)?;
            let entry = (
                binding,
                descriptor,
                Origin::Buffer(bound.buffer, bound.instance),
            );
            let in_stage = r.stage_sets[index].iter().position(|e| e.0 == binding);
            let in_set = r.set.binary_search_by_key(&binding, |e| e.0).ok();
            let (Some(a), Some(b)) = (in_stage, in_set) else {
                return Ok(false);
            };
            r.stage_sets[index][a] = entry;
            r.set[b] = entry;
        }
        Ok(true)
    }

    /// The descriptor of a bound constant buffer (the null buffer for an empty slot).
    fn constant_buffer(&mut self, bound: &BoundBuffer) -> Result<Descriptor, Error> {
        Ok(if bound.buffer.is_null() {
            Descriptor::Buffer {
                buffer: self.null_buffer(CALL)?,
                offset: 0,
                range: crate::null_descriptors::NULL_BUFFER_BYTES,
            }
        } else {
            let (buffer, base, size) = self.buffer_location(CALL, bound.buffer, bound.instance)?;
            Descriptor::Buffer {
                buffer,
                offset: base + bound.offset as u64,
                range: size.saturating_sub(bound.offset as u64).clamp(4, 65536),
            }
        })
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
            let descriptor = self.constant_buffer(bound)?;
            set.push((
                binding,
                descriptor,
                Origin::Buffer(bound.buffer, bound.instance),
            ));
        }
        // Which shader-resource slots are buffers: looked up only where the stage reads one.
        let kinds = if stage.shader.is_null() || stage.shader_resources.is_empty() {
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

    /// `(slot, stride, per_instance)` of each vertex buffer the input layout reads, into `out`
    /// (the layout's slots found once per change of layout, [`LayoutSlots`]).
    fn strides(
        &mut self,
        layout: RawHandle,
        vertex_buffers: &[(u32, BoundBuffer)],
        out: &mut ArrayVec<(u32, u32, bool), MAX_VERTEX_BUFFERS>,
    ) -> Result<(), Error> {
        out.clear();
        if layout.is_null() {
            return Ok(());
        }
        if self.layout_slots.layout != layout {
            self.read_layout_slots(layout)?;
        }
        for &(slot, per_instance) in &self.layout_slots.slots {
            let stride = vertex_buffers
                .iter()
                .find(|(s, _)| *s == slot)
                .map_or(0, |(_, b)| b.stride_or_format);
            out.push((slot, stride, per_instance));
        }
        Ok(())
    }

    /// The slots `layout` reads, from its elements (R-GPU-2), kept as the last layout's.
    fn read_layout_slots(&mut self, layout: RawHandle) -> Result<(), Error> {
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
        let mut slots: ArrayVec<(u32, bool), MAX_VERTEX_BUFFERS> = ArrayVec::new();
        for element in elements {
            if slots.iter().any(|s| s.0 == element.input_slot) {
                continue;
            }
            if slots
                .try_push((element.input_slot, element.per_instance))
                .is_err()
            {
                return Err(refuse(
                    self,
                    CALL,
                    ObjectKind::InputLayout,
                    layout,
                    format!("reads more than {MAX_VERTEX_BUFFERS} vertex-buffer slots (R-GPU-3)"),
                ));
            }
        }
        slots.sort_unstable_by_key(|s| s.0);
        self.layout_slots = LayoutSlots { layout, slots };
        Ok(())
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
    /// from the kept bytes after a reset), else the device-local buffer; with its size. Found
    /// once per frame: kept in [`Locations`] until the frame's submission.
    pub(crate) fn buffer_location(
        &mut self,
        call: &'static str,
        buffer: RawHandle,
        instance: InstanceId,
    ) -> Result<(vk::Buffer, u64, u64), Error> {
        if let Some(found) = self.locations.get(buffer, instance) {
            return Ok(found);
        }
        if instance == InstanceId::INITIAL {
            // A buffer's own Vulkan buffer, made at its first use, is where its initial
            // instance lies in every frame: found in the backend's table, not the device's.
            if let Some(made) = self.resources.buffers.get(&buffer) {
                let found = (made.buffer, 0, made.bytes);
                self.locations.put(buffer, instance, found);
                return Ok(found);
            }
        }
        let found = self.find_buffer_location(call, buffer, instance)?;
        self.locations.put(buffer, instance, found);
        Ok(found)
    }

    /// [`Self::buffer_location`] past [`Locations`].
    fn find_buffer_location(
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
            if let Some(offset) = self.ring.region(buffer, instance) {
                return Ok((self.ring.buffer, offset, size));
            }
            // The kept bytes are lent to the ring and put back (no copy of them).
            let kept = self
                .latest
                .get_mut(&buffer)
                .filter(|(i, _, _)| *i == instance)
                .map(|(_, _, b)| std::mem::take(b));
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
            let placed = self.ring_place(call, &bytes);
            if let Some(kept) = self.latest.get_mut(&buffer) {
                kept.2 = bytes;
            }
            let offset = placed?;
            self.ring.keep_region(buffer, instance, offset);
            return Ok((self.ring.buffer, offset, size));
        }
        Ok((self.gpu_buffer(call, buffer)?, 0, size))
    }

    fn bind_buffers(&mut self, resolved: &Resolved) {
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        let bound = &mut self.bound.vertex_buffers;
        let same_slots = bound.len() == resolved.vertex_buffers.len()
            && bound
                .iter()
                .zip(&resolved.vertex_buffers)
                .all(|(a, b)| a.0 == b.0);
        if same_slots {
            // Only the slots whose buffer differs are bound again (R-GPU-6).
            for (bound, binding) in bound.iter_mut().zip(&resolved.vertex_buffers) {
                if bound != binding {
                    bind_vertex_buffer(device, cb, binding);
                    *bound = *binding;
                }
            }
        } else {
            for binding in &resolved.vertex_buffers {
                bind_vertex_buffer(device, cb, binding);
            }
            bound.clear();
            bound.extend_from_slice(&resolved.vertex_buffers);
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

/// The last buffer locations found ([`VulkanBackend::buffer_location`]), one entry per buffer
/// indexed by its handle's index (dense in the device's buffer table): a draw rebinding a buffer
/// an earlier draw of the frame bound, or a dynamic buffer's instance placed at its map, finds
/// it here without the device's table and the backend's maps, and two buffers never evict each
/// other (R-GPU-6). An entry holds one instance of its buffer (the last found). Forgotten at
/// each submission (the ring's regions are forgotten then) by moving to a new epoch, not by
/// writing the entries; a location does not change within a frame (a buffer's Vulkan object is
/// made once, an instance's region placed once).
pub(crate) struct Locations {
    slots: Vec<Location>,
    /// The frame's epoch: entries of another epoch are forgotten.
    epoch: u64,
}

/// One entry of [`Locations`]: the buffer and instance, the epoch it was found in, where it lies.
#[derive(Clone, Copy)]
struct Location {
    buffer: RawHandle,
    instance: InstanceId,
    epoch: u64,
    found: (vk::Buffer, u64, u64),
}

/// Buffers past this index are not kept (looked up each time): bounds the table at 3 MiB.
const MAX_LOCATIONS: usize = 1 << 16;

impl Default for Locations {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            epoch: 1,
        }
    }
}

impl Locations {
    #[inline]
    pub(crate) fn get(
        &self,
        buffer: RawHandle,
        instance: InstanceId,
    ) -> Option<(vk::Buffer, u64, u64)> {
        let slot = self.slots.get(buffer.index() as usize)?;
        (slot.buffer == buffer && slot.instance == instance && slot.epoch == self.epoch)
            .then_some(slot.found)
    }

    /// Keeps where `buffer`'s `instance` lies for the frame (the table grows to the largest
    /// buffer index seen, once).
    #[inline]
    pub(crate) fn put(
        &mut self,
        buffer: RawHandle,
        instance: InstanceId,
        found: (vk::Buffer, u64, u64),
    ) {
        let at = buffer.index() as usize;
        if buffer.is_null() || at >= MAX_LOCATIONS {
            return;
        }
        if at >= self.slots.len() {
            let empty = Location {
                buffer: RawHandle::NULL,
                instance: InstanceId::INITIAL,
                epoch: 0,
                found: (vk::Buffer::null(), 0, 0),
            };
            self.slots.resize((at + 1).next_power_of_two(), empty);
        }
        self.slots[at] = Location {
            buffer,
            instance,
            epoch: self.epoch,
            found,
        };
    }

    /// Forgets every location (the frame was submitted).
    pub(crate) fn clear(&mut self) {
        self.epoch += 1;
    }
}

/// Binds one vertex buffer on `cb`.
fn bind_vertex_buffer(device: &ash::Device, cb: vk::CommandBuffer, binding: &VertexBinding) {
    let &(slot, _, buffer, offset, size) = binding;
    // SAFETY: the buffer is live with VERTEX_BUFFER usage; the offset is in it and `size` bytes
    // from it are in it (`buffer_location`); no strides given, so the pipeline's static strides
    // apply; `cb` is recording.
    unsafe { device.cmd_bind_vertex_buffers2(cb, slot, &[buffer], &[offset], Some(&[size]), None) };
}

/// The buffer bound at vertex-buffer `slot`, if the record lists one.
pub(crate) fn vertex_buffer(slots: &[(u32, BoundBuffer)], slot: u32) -> Option<&BoundBuffer> {
    slots.iter().find(|(s, _)| *s == slot).map(|(_, b)| b)
}
