//! The draw path of the GPU model (R-EX-3): a draw or dispatch becomes one record in the pools.
//!
//! **In:** a draw or dispatch's kind and arguments, with the bindings, registers and texture
//! compression in force. **Out:** its record (the stages' shaders and the slots they read, the
//! vertex and index buffers, and a graphics part, shared with the previous record when nothing in
//! it can have changed), the draw and dispatch counters, context rolls (R-EX-4), queries' counts
//! (R-FX-3), and what legacy semantics, fence tracking, validation and hazard tracking see in the
//! record.
//!
//! **Invariant.** A record holds the slots the bound shaders read and nothing else; a record
//! shares the previous graphics part only when no command since could have changed it
//! ([`keeps_graphics`]) and the previous draw's target writes changed no compression; a draw
//! repeats the last record's entry whole (its own call and predicate put in) only when, besides,
//! nothing at all happened since that draw (`record_valid`: no command, no state cleared or
//! restored, no list begun or ended, no bundle call, no decompression). Short of that, a graphics
//! stage reads the last draw's record of it (its shader and its slots' ranges of the pools) when
//! the graphics part is shared and no command since bound anything of that stage
//! (`stages_valid`, [`stage_binding`]): a draw that re-binds one constant buffer of the vertex
//! shader records the vertex stage's slots and no other stage's.

use recorder::command::{BoundView, Command, ViewFlags};
use recorder::state::Bindings;
use recorder::{RawHandle, Semantics, Stage};

use super::{GpuModel, HandleSet};
use crate::draw_record::*;

impl GpuModel {
    /// A draw or dispatch: its record appended to the pools, then what legacy semantics,
    /// fence tracking, validation and hazard tracking see in it. The graphics part (the
    /// output-merger and input-assembler registers, with the targets' compression) is appended
    /// again only when it may have changed: any command but the few that cannot touch it
    /// (`keeps_graphics`), any change of a texture's compression, a state restored or cleared,
    /// a list's end or a bundle call makes it stale. A draw writes its targets as the output
    /// merger sees them (R-ST-9) after its record is taken; when that changes nothing, the next
    /// draw, if nothing else changed, would read the same part and write the same: it shares
    /// the part and skips the write.
    pub(super) fn draw(&mut self, semantics: Semantics, kind: DrawKind, args: DrawArgs) {
        // A context register changed, or this is the first draw after a bundle (R-EX-4).
        if std::mem::take(&mut self.context_changed) | std::mem::take(&mut self.after_bundle) {
            self.counters.context_rolls += 1;
        }
        let dispatch = kind.is_dispatch();
        // Predication by a query's answer (`gpu/query_results.rs`): a skipped draw keeps its record,
        // marked predicated; one whose predicate lets it run shows none.
        let predication = self.state.bindings.predication();
        let skipped = self.queries.skips(predication);
        let shown = match skipped {
            Some(false) => (RawHandle::NULL, false),
            _ => predication,
        };
        // Nothing changed since the last draw's record (`record_valid`, `graphics_valid`): this
        // draw reads what it read, and repeats its entry with its own call and predicate.
        let repeated = !dispatch
            && self.record_valid
            && self.graphics_valid
            && self.records.repeat_last(kind, args, shown);
        let shared = if repeated {
            self.counters.draws += 1;
            true
        } else {
            // A stage's record may be the last draw's only while the compression its views
            // record is unchanged: what `graphics_valid` says too.
            let same = match self.graphics_valid && !dispatch && self.records.last_is_draw() {
                true => self.stages_valid,
                false => 0,
            };
            let bindings = &self.state.bindings;
            let compressed = &self.compressed;
            let mut writer = self.records.writer(kind, args, shown, same != 0);
            let shared = if dispatch {
                self.counters.dispatches += 1;
                let uavs = bindings.compute_uavs();
                stage_record(&mut writer, bindings, compressed, 0, Stage::Compute, uavs);
                false
            } else {
                self.counters.draws += 1;
                // The stale stages only, lowest place first (a bit loop, not a walk over all
                // five: the steady draw re-binds one stage).
                let mut stale = !same & ALL_STAGES;
                while stale != 0 {
                    let place = stale.trailing_zeros() as usize;
                    stale &= stale - 1;
                    if let Some(&stage) = Stage::GRAPHICS.get(place) {
                        let uavs = bindings.om_uavs();
                        stage_record(&mut writer, bindings, compressed, place, stage, uavs);
                    }
                }
                writer.vertex_buffers(bindings.input_layout_slots(), bindings.vertex_buffers());
                writer.index_buffer(bindings.index_buffer(), bindings.reset_index());
                let shared = self.graphics_valid && writer.same_graphics();
                if !shared {
                    graphics_record(&mut writer, bindings, compressed);
                }
                shared
            };
            writer.finish();
            shared
        };
        if skipped != Some(true) && self.queries.any_open() {
            if let DrawArgs::Direct(direct) = args {
                self.queries.draw(kind, direct, &self.state.bindings);
            }
        }
        self.checks(semantics);
        if !dispatch && !shared {
            self.graphics_valid = !self.targets_written();
        }
        // The record just appended holds every graphics stage as a draw now reads it; a
        // dispatch's holds none.
        self.stages_valid = match dispatch {
            true => 0,
            false => ALL_STAGES,
        };
        if let Some(owned) = self.owned.get_mut() {
            owned.extend(self.records.last().map(|draw| draw.to_record()));
        }
        if self.backend.is_some() {
            self.backend_draw(skipped == Some(true));
        }
        self.record_valid = true;
    }

    /// What a draw's record shows legacy semantics' hazard response (R-ST-10), fence tracking
    /// (R-EX-6), validation (R-V-1) and hazard tracking (R-V-2); nothing to do for fast
    /// semantics without validation.
    #[inline]
    fn checks(&mut self, semantics: Semantics) {
        if !self.tracks(semantics) && self.hazards.is_none() {
            return;
        }
        self.checks_out_of_line(semantics);
    }

    #[inline(never)]
    fn checks_out_of_line(&mut self, semantics: Semantics) {
        let tracks = self.tracks(semantics);
        if let Some(record) = self.records.last() {
            if semantics == Semantics::Legacy {
                // The driver's response to a resource changing between output and input.
                self.counters.cache_flushes += self.last_uses.legacy_draw(&record);
            }
            if tracks {
                Self::note_uses(&mut self.progress, &record, semantics == Semantics::Legacy);
            }
        }
        if self.validator.is_some() && semantics == Semantics::Fast {
            // The record is read out of the pools while validation changes the rest of the
            // model.
            let records = std::mem::take(&mut self.records);
            if let Some(record) = records.last() {
                self.validate_draw(&record);
            }
            self.records = records;
        }
        if let Some(hazards) = self.hazards.as_deref_mut() {
            if let Some(record) = self.records.last() {
                hazards.draw(&record, &self.placed, &mut self.violations);
            }
        }
    }
}

/// Whether `command` leaves every register of a record's graphics part alone, and every
/// texture's compression: the bindings only shaders and the input assembler's vertex and index
/// fetch read, with the reset index (a record takes those at each draw), and the predicate
/// (each record's own); maps, queries, fences and waits, which bind nothing and compress
/// nothing. Every other command may change the graphics part (see [`GpuModel::draw`]).
#[inline]
pub(super) fn keeps_graphics(command: &Command<'_>) -> bool {
    matches!(
        command,
        Command::SetShader { .. }
            | Command::SetConstantBuffers { .. }
            | Command::SetShaderResources { .. }
            | Command::SetSamplers { .. }
            | Command::SetVertexBuffers { .. }
            | Command::SetIndexBuffer(_)
            | Command::SetPrimitiveResetIndex(_)
            | Command::SetComputeUnorderedAccessViews { .. }
            | Command::SetPredication { .. }
            | Command::MapWriteDiscard { .. }
            | Command::MapWriteNoOverwrite { .. }
            | Command::BeginQuery(_)
            | Command::EndQuery(_)
            | Command::WriteQuery(_)
            | Command::ResetQuery(_)
            | Command::ConfigureQuery { .. }
            | Command::SetPredicationFromQuery { .. }
            | Command::InsertFence { .. }
            | Command::WriteValueBottomOfPipe { .. }
            | Command::InsertWaitOnFence { .. }
            | Command::InsertWaitOnMemory { .. }
            | Command::SetGdsRange { .. }
            | Command::WriteGds { .. }
            | Command::ReadGds { .. }
            | Command::LoadConstantRam { .. }
            | Command::StoreConstantRam { .. }
            | Command::InsertWaitOnPresent(_)
            | Command::Draw(_)
            | Command::DrawIndexed(_)
            | Command::DrawInstanced(_)
            | Command::DrawIndexedInstanced(_)
            | Command::DrawAuto
            | Command::DrawInstancedIndirect(_)
            | Command::DrawIndexedInstancedIndirect(_)
            | Command::Dispatch(_)
            | Command::DispatchIndirect(_)
    )
}

/// Every graphics stage's bit in `GpuModel::stages_valid`.
pub(super) const ALL_STAGES: u8 = (1 << Stage::GRAPHICS.len()) - 1;

/// The graphics stage whose shader or slots `command` binds, as its bit in
/// `GpuModel::stages_valid` (its place in [`Stage::GRAPHICS`]); 0 for a command that binds no
/// stage's slots or binds the compute stage's. The output merger's UAVs, which every graphics
/// stage reads, are bound by a command that does not keep the graphics part
/// ([`keeps_graphics`]), which makes every stage stale.
#[inline]
pub(super) fn stage_binding(command: &Command<'_>) -> u8 {
    let stage = match *command {
        Command::SetShader { stage, .. }
        | Command::SetConstantBuffers { stage, .. }
        | Command::SetShaderResources { stage, .. }
        | Command::SetSamplers { stage, .. } => stage,
        _ => return 0,
    };
    // A graphics stage's place is its discriminant (checked below); the compute stage's bit
    // is past them.
    (1u8 << stage as u8) & ALL_STAGES
}

const _: () = {
    let mut place = 0;
    while place < Stage::GRAPHICS.len() {
        assert!(Stage::GRAPHICS[place] as usize == place);
        place += 1;
    }
};

/// A view as a draw sees it: with whether its texture is compressed now.
#[inline]
fn view_record(compressed: &HandleSet, bound: &BoundView) -> ViewRecord {
    let texture = !bound.flags.has(ViewFlags::BUFFER) && !bound.resource.is_null();
    let is_compressed = texture && !compressed.is_empty() && compressed.contains(&bound.resource);
    ViewRecord::new(bound, is_compressed)
}

/// Writes the stage at `place` of the record: its shader and the bindings at the slots it reads;
/// `uavs` are the UAV slots the stage sees (the compute UAVs, or the output merger's for a graphics stage).
#[inline(always)]
fn stage_record(
    writer: &mut DrawWriter<'_>,
    bindings: &Bindings,
    compressed: &HandleSet,
    place: usize,
    stage: Stage,
    uavs: &[BoundView],
) {
    let shader = bindings.shader_ref(stage);
    if shader.shader.is_null() {
        writer.no_shader(place);
        return;
    }
    if reads_constant_buffers_only(shader) {
        writer.constant_buffer_stage(place, shader, bindings.constant_buffers(stage));
        return;
    }
    let slots = StageSlots {
        constant_buffers: bindings.constant_buffers(stage),
        shader_resources: bindings.shader_resources(stage),
        samplers: bindings.samplers(stage),
        unordered_access_views: uavs,
    };
    writer.stage(place, shader, slots, |v| view_record(compressed, v));
}

/// Appends a new graphics part: the output-merger and input-assembler registers in force.
fn graphics_record(writer: &mut DrawWriter<'_>, bindings: &Bindings, compressed: &HandleSet) {
    let s = bindings;
    let registers = GraphicsRegisters {
        input_layout: s.input_layout(),
        topology: s.topology(),
        depth_stencil: view_record(compressed, &s.depth_stencil()),
        blend: s.blend(),
        depth_stencil_state: s.depth_stencil_state(),
        rasterizer: s.rasterizer(),
    };
    let targets = s
        .render_targets()
        .iter()
        .map(|v| view_record(compressed, v));
    writer.graphics(registers, targets, s.viewports(), s.scissor_rects());
}
