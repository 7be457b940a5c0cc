//! How the GPU model applies one command: the one table of every command the model knows.
//!
//! **In:** a decoded [`Command`] with the semantics of the context that recorded it.
//! **Out:** the model's state changed as the command says: bindings through the shared
//! binding state's `apply` (`recorder::state`: R-ST-5, and what a resolved split point binds,
//! R-SP-4), a context roll owed for a register write (R-EX-4), and each command family handed to
//! the file that owns it: draws (`gpu/draw_execution.rs`), compression (R-ST-9,
//! `gpu/target_compression.rs`), GDS and constant RAM (`gpu/memory.rs`), queries
//! (`gpu/query_results.rs`), barriers (`gpu/barrier_response.rs`), region copies
//! (`gpu/placed.rs`), validation (`gpu/validate.rs`), hazard tracking
//! (`gpu/hazard_tracking.rs`). Fences, waits and copies of whole resources, a line or two each,
//! are handled here.
//!
//! **Invariant.** `GpuModel::apply` is one `match` that names every command, grouped by family,
//! each arm a call or a few lines: it is kept whole as the table the compiler checks for
//! exhaustiveness (a new command cannot be forgotten by the model). The hot families (binds,
//! draws, compression, fences, queries) are handled in their arms, so a draw is matched once;
//! the rarer memory and copy families go, as a group, to a handler that matches within its
//! family.

use recorder::command::{BoundResource, BoundView, Command, DirectArgs, ViewFlags};
use recorder::{Engine, ObjectKind, RawHandle, Semantics};

use super::draw_execution::{keeps_graphics, stage_binding};
use super::GpuModel;
use crate::draw_record::{DrawArgs, DrawKind};

impl GpuModel {
    /// A context register was written. D3D does not filter redundant sets, and neither does the
    /// hardware: setting a register to the value it already has is still a change.
    #[inline]
    fn context_register_written(&mut self) {
        self.context_changed = true;
    }

    /// Applies one command: a binding command through the shared binding state's `apply`
    /// (`recorder::state`: R-ST-5, and what a resolved split point binds, R-SP-4), then the
    /// model's extras (a register write rolls the context, R-EX-4; the output merger's view of
    /// new targets, R-ST-9; a legacy back-buffer bind waits on present, R-EX-7; validation,
    /// R-V-1); every other command here. The match is kept whole: see the module essay.
    pub(super) fn apply(&mut self, command: &Command<'_>, semantics: Semantics) {
        if let Some(hazards) = self.hazards.as_deref_mut() {
            hazards.command(command, semantics, &self.placed, &mut self.violations);
        }
        // A draw or dispatch binds nothing, writes no register and keeps every record's
        // validity (`keeps_graphics`, no `stage_binding`): one test skips what every other
        // command goes through, here and for the backend below.
        let draw = command.is_draw_or_dispatch();
        if !draw {
            if self.state.bindings.apply(command, semantics) {
                self.context_register_written();
            }
            if !keeps_graphics(command) {
                self.graphics_valid = false;
                self.stages_valid = 0;
            } else {
                self.stages_valid &= !stage_binding(command);
            }
            self.record_valid = false;
        }
        match *command {
            // ----- bindings: `apply` above did the work; binds of views are validated (R-V-1).
            Command::SetInputLayout { .. }
            | Command::SetPrimitiveTopology(_)
            | Command::SetVertexBuffers { .. }
            | Command::SetIndexBuffer(_)
            | Command::SetPrimitiveResetIndex(_)
            | Command::SetShader { .. }
            | Command::SetConstantBuffers { .. }
            | Command::SetSamplers { .. }
            | Command::SetBlendState { .. }
            | Command::SetDepthStencilState { .. }
            | Command::SetRasterizerState(_)
            | Command::SetViewports(_)
            | Command::SetScissorRects(_)
            | Command::SetPredication { .. }
            | Command::SetPredicationFromQuery { .. } => {}
            Command::SetShaderResources { views, .. } => {
                if self.validates(semantics) {
                    let call = "set_shader_resources";
                    self.validate_view_bind(call, ObjectKind::ShaderResourceView, views);
                }
            }
            Command::SetComputeUnorderedAccessViews { views, .. } => {
                if self.validates(semantics) {
                    let call = "set_compute_unordered_access_views";
                    self.validate_view_bind(call, ObjectKind::UnorderedAccessView, views);
                }
            }
            Command::SetRenderTargets { targets, uavs, .. } => {
                self.render_targets_set(semantics, targets, uavs)
            }
            // ----- draws and dispatches (`gpu/draw_execution.rs`).
            Command::Draw(args) => self.draw(semantics, DrawKind::Draw, DrawArgs::Direct(args)),
            Command::DrawIndexed(args) => {
                self.draw(semantics, DrawKind::DrawIndexed, DrawArgs::Direct(args))
            }
            Command::DrawInstanced(args) => {
                self.draw(semantics, DrawKind::DrawInstanced, DrawArgs::Direct(args))
            }
            Command::DrawIndexedInstanced(args) => self.draw(
                semantics,
                DrawKind::DrawIndexedInstanced,
                DrawArgs::Direct(args),
            ),
            Command::DrawAuto => self.draw(
                semantics,
                DrawKind::DrawAuto,
                DrawArgs::Direct(DirectArgs::NONE),
            ),
            Command::DrawInstancedIndirect(args) => self.draw(
                semantics,
                DrawKind::DrawInstancedIndirect,
                DrawArgs::Indirect(args),
            ),
            Command::DrawIndexedInstancedIndirect(args) => self.draw(
                semantics,
                DrawKind::DrawIndexedInstancedIndirect,
                DrawArgs::Indirect(args),
            ),
            Command::Dispatch(args) => {
                self.draw(semantics, DrawKind::Dispatch, DrawArgs::Direct(args))
            }
            Command::DispatchIndirect(args) => self.draw(
                semantics,
                DrawKind::DispatchIndirect,
                DrawArgs::Indirect(args),
            ),
            // ----- compression (R-ST-9, `gpu/target_compression.rs`).
            Command::ClearRenderTargetView { view, .. } => self.clear_view(semantics, *view),
            Command::ClearDepthStencilView { view, .. } => self.clear_view(semantics, view),
            Command::DecompressResource {
                resource,
                into,
                kinds,
                region,
            } => self.decompress_resource(semantics, resource, into, kinds, region),
            Command::SetResourceCompression {
                resource,
                compressed,
            } => self.set_compression(semantics, resource, compressed),
            // The bindings were cleared by `apply` above (a register write); the model's own
            // state follows.
            Command::ClearState => self.state.clear_target_compression(),
            // ----- fences and waits (R-EX-5..7).
            Command::InsertWaitOnFence { engine, value } => self.wait_on_fence(engine, value),
            Command::InsertWaitOnMemory { .. } => self.counters.fence_waits += 1,
            Command::InsertWaitOnPresent(chain) => {
                self.counters.fence_waits += 1;
                self.progress.wait_on_present(chain);
            }
            Command::InsertFence { value, .. } => self.progress.pass_fence(value),
            // ----- the GPU's memory writes, GDS and constant RAM, and copies: rarer commands,
            // each family matched again by its own handler below.
            Command::WriteValueBottomOfPipe { .. }
            | Command::SetGdsRange { .. }
            | Command::WriteGds { .. }
            | Command::ReadGds { .. }
            | Command::LoadConstantRam { .. }
            | Command::StoreConstantRam { .. } => self.memory_command(command),
            Command::CopyResource { .. }
            | Command::CopyBufferRegion { .. }
            | Command::CopyTextureRegion { .. }
            | Command::UpdateSubresource { .. }
            | Command::CopyStructureCount { .. } => self.copy_command(command, semantics),
            // Maps change no binding (the bound descriptor names its instance); the CPU wrote
            // the data, the GPU has not used it.
            Command::MapWriteDiscard { .. } | Command::MapWriteNoOverwrite { .. } => {}
            // ----- queries count and write their results (`gpu/query_results.rs`, R-FX-3).
            Command::BeginQuery(query) => self.queries.begin(query),
            Command::EndQuery(query) => self.queries.end(query, self.clock()),
            Command::WriteQuery(query) => self.queries.write(query, self.clock()),
            Command::ResetQuery(query) => self.queries.reset(query),
            Command::ConfigureQuery { query, mode } => self.queries.configure(query, mode),
            // ----- the nested list's or the bundle's commands are elsewhere: the executor
            // expands them (a bundle through `execute_bundle`, which also applies its remaps).
            Command::ExecuteCommandList { .. }
            | Command::DrawBundle { .. }
            | Command::RemapInheritance(_) => {}
            // ----- barriers (SPEC §9, `gpu/barrier_response.rs`).
            Command::Barrier { barriers } => self.barrier(semantics, barriers),
            Command::ResourceBarrier { barriers } => self.resource_barrier(semantics, barriers),
        }
        // The real GPU, if any, after the model (R-GPU-1); draws went with their records.
        if !draw && self.backend.is_some() {
            self.backend_command(command, semantics);
        }
    }

    /// The memory family: a bottom-of-pipe write (R-EX-6), GDS and the constant engine's RAM
    /// (R-FX-4, R-FX-5, `gpu/memory.rs`). `apply` routes only these commands here.
    #[inline]
    fn memory_command(&mut self, command: &Command<'_>) {
        match *command {
            Command::WriteValueBottomOfPipe {
                buffer,
                offset,
                value,
            } => {
                self.progress.write_memory(buffer, offset, value);
                self.memory.write_value(buffer, offset, value);
            }
            Command::SetGdsRange {
                stage,
                offset,
                size,
            } => self.memory.set_range(stage, offset, size),
            Command::WriteGds { offset, values } => self.memory.write_gds(offset, values),
            // Always fast semantics (seed 000), whatever the context's: the buffer's use is
            // tracked as a fast command's (under validation only), so a legacy map does not
            // wait for it and a validated map before a fence shows it (R-EX-6).
            Command::ReadGds {
                offset,
                count,
                destination,
                destination_offset,
            } => {
                self.use_resource(Semantics::Fast, destination);
                self.memory
                    .read_gds(offset, count, destination, destination_offset)
            }
            // The constant engine moves the bytes (`ce_bytes`, as a bundle call's overrides).
            Command::LoadConstantRam {
                buffer,
                buffer_offset,
                ram_offset,
                bytes,
            } => {
                self.constant_engine_moved(buffer, bytes);
                self.memory
                    .load_constant_ram(buffer, buffer_offset, ram_offset, bytes);
            }
            Command::StoreConstantRam {
                buffer,
                buffer_offset,
                ram_offset,
                bytes,
            } => {
                self.constant_engine_moved(buffer, bytes);
                self.memory
                    .store_constant_ram(buffer, buffer_offset, ram_offset, bytes);
            }
            _ => {}
        }
    }

    /// The copy family: whole-resource and region copies (region copies: `gpu/placed.rs`,
    /// R-BAR-7), updates and structure-count copies. `apply` routes only these commands here.
    #[inline]
    fn copy_command(&mut self, command: &Command<'_>, semantics: Semantics) {
        match *command {
            Command::CopyResource {
                destination,
                source,
            } => self.copy_resource(semantics, *destination, *source),
            Command::CopyBufferRegion {
                destination,
                source,
                ..
            } => self.copy_region("copy_buffer_region", semantics, *destination, *source),
            Command::CopyTextureRegion {
                destination,
                source,
                ..
            } => self.copy_region("copy_texture_region", semantics, *destination, *source),
            Command::UpdateSubresource { resource, .. } => {
                self.use_resource(semantics, resource.resource)
            }
            Command::CopyStructureCount {
                destination, view, ..
            } => {
                self.use_resource(semantics, destination.buffer);
                self.use_resource(semantics, view.resource);
            }
            _ => {}
        }
    }

    /// Render targets and UAVs bound through the output merger: the output merger's view of
    /// the new targets' compression (R-ST-9), a legacy wait on present at a back buffer's bind
    /// (R-EX-7), and the UAVs validated (R-V-1).
    #[inline]
    fn render_targets_set(
        &mut self,
        semantics: Semantics,
        targets: Option<(&[BoundView], &BoundView)>,
        uavs: Option<&[BoundView]>,
    ) {
        if let Some((render_targets, _)) = targets {
            if semantics == Semantics::Legacy
                && render_targets
                    .iter()
                    .any(|v| v.flags.has(ViewFlags::BACK_BUFFER))
            {
                // Legacy waits on present at every bind of a back buffer (R-EX-7).
                self.counters.fence_waits += 1;
            }
            self.targets_bound();
        }
        if let Some(views) = uavs {
            if self.validates(semantics) {
                let call = "set_render_targets_and_unordered_access_views";
                self.validate_view_bind(call, ObjectKind::UnorderedAccessView, views);
            }
        }
    }

    /// `insert_wait_on_fence`: counted; a fence not passed yet is warned about.
    #[inline]
    fn wait_on_fence(&mut self, engine: Engine, value: u64) {
        self.counters.fence_waits += 1;
        if self.progress.fence_position(value).is_none() {
            // One in-order queue: a fence not passed yet never will be before this.
            tracing::warn!(
                fence = value,
                engine = engine.name(),
                "insert_wait_on_fence: the fence has not passed; the engine would wait forever"
            );
        }
    }

    /// The constant engine moved `bytes` between `buffer` and its RAM: always a fast use of the
    /// buffer (seed 000), counted in `ce_bytes`.
    #[inline]
    fn constant_engine_moved(&mut self, buffer: RawHandle, bytes: u32) {
        self.use_resource(Semantics::Fast, buffer);
        self.counters.ce_bytes += bytes as u64;
    }

    /// `copy_resource`: uses of both resources and, under validation, the checks of a first
    /// write to a back buffer and of a copy from or to a compressed texture (R-V-1); legacy
    /// semantics decompresses a compressed one (R-ST-9).
    #[inline]
    fn copy_resource(
        &mut self,
        semantics: Semantics,
        destination: BoundResource,
        source: BoundResource,
    ) {
        self.use_resource(semantics, destination.resource);
        self.use_resource(semantics, source.resource);
        if destination.is_texture != 0 && self.validates(semantics) {
            self.check_back_buffer_write("copy_resource", destination.resource);
            self.validate_copy("copy_resource", destination, source);
        }
        if semantics == Semantics::Legacy {
            self.legacy_copy_decompresses(destination, source);
        }
    }
}
