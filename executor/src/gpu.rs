//! The GPU model (R-EX-3): what stands in for the hardware. It consumes, in order, the commands
//! the immediate context submits (decoded [`Command`]s, straight from a list's chunks or issued
//! on the immediate context), keeps the register and binding state they set, and produces one
//! [`DrawRecord`] per draw or dispatch, plus the [`Counters`] of TRACE.md.
//!
//! **In:** commands, each with the semantics of the context that recorded it (it decides what an
//! index-buffer bind does to the reset index, R-ST-5); command segments of a list, each one
//! indirect-buffer execution; split points the executor resolved, with their patched commands.
//! **Out:** draw records and counters. The records go to reused pools ([`Records`],
//! `draw_record/records.rs`): [`GpuModel::draws`] reads them in place, [`GpuModel::records`] and
//! [`GpuModel::take_records`] hand out owned copies (built on demand, allocating: for tests and
//! tools that keep records), and [`GpuModel::clear_records`], once a frame, keeps a long run
//! from allocating anything per draw.
//!
//! **What it keeps.** Bindings as encoded, in the binding-state type the legacy recorder keeps
//! too (`recorder::state::Bindings`, one `apply` for both; [`GpuState`] adds the model's own):
//! descriptors already carry the resource, the dynamic
//! instance and the minimum LOD chosen at bind time, so a map (`MapWriteDiscard`) or an update
//! changes no binding: the instance a draw reads is the one in the bound descriptor (R-ST-8; under
//! legacy semantics the recorder re-binds a renamed buffer itself). Per texture, whether it is
//! compressed now, and per bound render target and depth stencil, whether the output merger sees
//! it compressed (R-ST-9): taken at the bind; legacy commands that change a bound target's
//! compression update it, fast ones do not (the view must be bound again), and a draw writes its
//! targets as the output merger sees them; the colour kinds a partial decompression left
//! (`gpu/target_compression.rs`). Whether a context register changed since the last draw (R-EX-4).
//! Fences passed, bottom-of-pipe values, the last use of each resource and the frame's waits on
//! present ([`Progress`]). GDS, its ranges per stage, the constant engine's RAM and the buffer
//! words the GPU side wrote with `read_gds`, `store_constant_ram` and
//! `write_value_bottom_of_pipe` ([`Memory`], `gpu/memory.rs`, R-FX-4, R-FX-5; always fast
//! semantics: the buffers they name are used as fast work uses them, tracked under validation
//! only). The last legacy use of each resource, read or written, so that a
//! legacy draw that changes it costs a cache flush (R-ST-10, `gpu/legacy_hazard_response.rs`). Which of the
//! placed resources that alias each other is active (R-BAR-7, `gpu/placed.rs`). Under validation
//! (R-V-1), what fast-semantics work shows: the bind of a shader view of a still-compressed target
//! (at the bind, whether or not a shader reads the slot), a copy from or to one, a first write to
//! a back buffer without a wait on present; reported as errors naming the objects
//! ([`GpuModel::take_violations`]). A present of a still-compressed back buffer is checked by the
//! immediate context ([`GpuModel::validate_present`]). Barriers (SPEC §9, `gpu/barrier_response.rs`):
//! layouts per subresource, plane compression, legacy states and open split barriers, for the
//! resources a barrier named, with texture facts from the device ([`GpuModel::set_device`]);
//! refused barriers are reported through the same violations, with or without validation.
//! Queries (R-FX-3, `gpu/query_results.rs`): each query's open scope and last result, counted from the
//! draws' arguments, topology, shaders and targets by the rules that file states, timestamps
//! from the model's clock (draws and dispatches run so far); predication reads a query's answer
//! (any sample passed): a draw whose predicate's answer equals the predicate value is skipped
//! (its record stays, marked predicated, and it adds to no query), one whose predicate has no
//! result yet runs and is marked predicated, as the model has no answer to evaluate.
//!
//! **What it does not do.** It cannot follow a nested list (`ExecuteCommandList`): the commands
//! are in the other list, which the executor expands; `execute` ignores the command. It resolves
//! no dynamic instance (the immediate context owns those), runs no shader (a dispatch that uses
//! an append UAV leaves its GDS counter alone: the counters are the application's, R-FX-4),
//! and decompresses nothing on a bind by itself (a legacy immediate context calls
//! [`GpuModel::decompress_if_compressed`], R-ST-9); it does decompress what a legacy copy reads
//! or writes, and a legacy present's back buffer ([`GpuModel::back_buffer_presented`]).
//!
//! **Invariant.** Nothing panics, whatever the commands: slots past the hardware's counts are
//! ignored.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

mod apply_command;
mod barrier_response;
pub use barrier_response::{legacy_equivalent, TextureState};
mod bundle_body;
mod bundle_call;
mod draw_execution;
mod gpu_state;
mod hazard_tracking;
mod legacy_hazard_response;
mod memory;
pub use memory::Memory;
mod placed;
mod query_results;
mod target_compression;
mod validate;

pub use gpu_state::GpuState;
pub use query_results::{QueryCounts, QueryData, QueryResult, QuerySnapshot};
pub use recorder::{DEFAULT_RESET_INDEX, R16_RESET_INDEX};

use recorder::command::{Command, Decoded, ViewFlags};
use recorder::{Device, Error, RawHandle, Segment, Semantics, SplitCategory};

use crate::draw_record::*;
use crate::gpu_backend::GpuBackend;
use crate::progress::{HandleHasher, Progress};

/// A set of handles with [`HandleHasher`]: handles are not keys an adversary picks, and
/// SipHash would cost several times more at the lookups every draw makes (the compression of
/// each texture a shader reads, R-ST-9).
type HandleSet = HashSet<RawHandle, BuildHasherDefault<HandleHasher>>;

/// The GPU model. See the module essay.
///
/// ```
/// use executor::GpuModel;
/// use recorder::command::{Command, DirectArgs};
/// use recorder::Semantics;
///
/// let mut gpu = GpuModel::new();
/// gpu.execute(&Command::Draw(DirectArgs::draw(3, 0)), Semantics::Fast);
/// assert_eq!(gpu.records().len(), 1);
/// assert_eq!(gpu.counters().draws, 1);
/// ```
#[derive(Debug, Default)]
pub struct GpuModel {
    state: Box<GpuState>,
    /// Textures compressed now (R-ST-9).
    compressed: HandleSet,
    /// The colour kinds still compressed of compressed textures a decompression limited to
    /// some kinds left partly compressed (`gpu/target_compression.rs`); a compressed texture
    /// absent from it has every kind it has compressed.
    kinds_left: std::collections::HashMap<RawHandle, recorder::DecompressKinds>,
    /// A context register changed since the last draw or dispatch (R-EX-4).
    context_changed: bool,
    /// The last work was a bundle call: the next draw or dispatch rolls (R-EX-4, R-B-10).
    after_bundle: bool,
    /// Bundle expansion (`gpu/bundle_call.rs`).
    bundle: bundle_call::Expansion,
    /// The last legacy use of each resource, for the hazard response (`gpu/legacy_hazard_response.rs`, R-ST-10).
    last_uses: legacy_hazard_response::LastUses,
    /// The records, in reused pools (`draw_record/records.rs`).
    records: Records,
    /// Owned copies of the records, built by the first [`records`](GpuModel::records) call and
    /// kept up to date draw by draw from then on, until the records are cleared or taken. A
    /// `OnceLock` (std's, not the sync facade's: nothing contends for it, the model is handed
    /// between threads by value) so that `&GpuModel` stays `Sync`; the draw path reaches it
    /// through `&mut` only (`get_mut`, no atomic).
    owned: OnceLock<Vec<DrawRecord>>,
    /// The last graphics part in `records` holds the registers in force now, and the draw
    /// that appended it left the targets' compression as its next draw would (see
    /// [`GpuModel::draw`]): a draw may share it.
    graphics_valid: bool,
    /// No command has been applied since the last draw's record, and no binding or
    /// compression changed by any other way (a bundle call, a state cleared or restored, a
    /// list's end, a decompression): with `graphics_valid`, the next draw's stages, input
    /// assembler and graphics part are the last record's, and it repeats that entry with its
    /// own kind, arguments and predicate (`Records::repeat_last`).
    record_valid: bool,
    /// Bit `i`: stage `Stage::GRAPHICS[i]` of the last record, a draw's, is what a draw now
    /// reads of that stage (its shader and the slots it reads): no command since bound any of
    /// that stage's slots, and nothing else changed the bindings (what clears `record_valid`
    /// clears these). With `graphics_valid` (the views' compression unchanged), a draw's stage
    /// reads that record's (`gpu/draw_execution.rs`).
    stages_valid: u8,
    /// What changed in the bindings since the last draw handed to the backend (R-GPU-6,
    /// `DrawChanges`): noted only while a backend is installed.
    changes: DrawChanges,
    counters: Counters,
    /// Fences, memory writes, resource uses, waits on present (R-EX-5..7).
    progress: Progress,
    /// Validation mode (R-V-1): the device, to name objects and find back buffers, and the
    /// violations found so far, for the immediate context to report.
    validator: Option<Device>,
    violations: Vec<Error>,
    /// The device whose objects the model sees, for texture facts at barriers (R-BAR-3).
    device: Option<Device>,
    /// Layouts, plane compression, legacy states and open split barriers (`gpu/barrier_response.rs`).
    barriers: barrier_response::Barriers,
    /// Hazard validation (R-V-2, `gpu/hazard_tracking.rs`): only when the device validates hazards.
    hazards: Option<Box<hazard_tracking::Tracker>>,
    /// Which aliased placed resource is active (`gpu/placed.rs`, R-BAR-7).
    placed: placed::Placed,
    /// GDS, constant RAM and the buffer words the GPU side wrote (`gpu/memory.rs`, R-FX-4,
    /// R-FX-5).
    memory: Memory,
    /// Queries' scopes and results, and predication's answers (`gpu/query_results.rs`, R-FX-3).
    queries: query_results::Queries,
    /// The real GPU the model feeds, if any (R-GPU-1, `gpu_backend.rs`).
    backend: Option<Box<dyn GpuBackend>>,
}

impl GpuModel {
    /// A model in the ClearState defaults, with no texture compressed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies one command, recorded with `semantics`. `ExecuteCommandList` is ignored: the
    /// executor expands nested lists.
    pub fn execute(&mut self, command: &Command<'_>, semantics: Semantics) {
        self.apply(command, semantics);
    }

    /// Applies a command as read from a list. Resolves nothing and counts no split point: for
    /// walking a list's commands linearly (no resolution needed, or done by the caller).
    pub fn execute_decoded(&mut self, decoded: &Decoded<'_>, semantics: Semantics) {
        self.apply(&decoded.command, semantics);
    }

    /// Executes one segment of a list: a command segment is one indirect-buffer execution
    /// (counted) whose commands are applied in order; returns `true`. Split points and nested
    /// lists are not indirect buffers: the executor resolves them
    /// ([`execute_split_point`](Self::execute_split_point)) or expands them; they are ignored
    /// here and `false` is returned.
    pub fn execute_segment(&mut self, segment: &Segment<'_>, semantics: Semantics) -> bool {
        if !matches!(segment, Segment::Commands(_)) {
            return false;
        }
        self.counters.ib_executions += 1;
        for decoded in segment.commands() {
            self.execute_decoded(&decoded, semantics);
        }
        true
    }

    /// Counts one indirect-buffer execution (a run of a list's commands handed over by
    /// reference), for a caller that applies the run's commands itself.
    pub fn count_ib_execution(&mut self) {
        self.counters.ib_executions += 1;
    }

    /// Counts one split point resolved in `category`; inside a predication scope it also costs a
    /// context roll (R-SP-4).
    pub fn resolve_split(&mut self, category: SplitCategory) {
        self.counters.split_points_resolved[category] += 1;
        if self.state.predication_active() {
            self.counters.context_rolls += 1;
        }
    }

    /// Resolves a split point and applies its command, which the executor has patched (a
    /// dynamic binding carries the immediate context's current instance): counts it
    /// ([`resolve_split`](Self::resolve_split)); for a `decompression` split point, decompresses
    /// every texture the command binds that is compressed now (counted); then applies the
    /// command (a slot cut out of an output-merger UAV bind says so itself: `uav_patch`).
    pub fn execute_split_point(
        &mut self,
        category: SplitCategory,
        command: &Command<'_>,
        semantics: Semantics,
    ) {
        self.resolve_split(category);
        if category == SplitCategory::Decompression {
            for view in command.shader_views() {
                if !view.flags.has(ViewFlags::BUFFER) {
                    self.decompress_if_compressed(view.resource);
                }
            }
        }
        self.apply(command, semantics);
    }

    /// Back to the ClearState defaults: every binding and register; the reset index to
    /// 0xFFFFFFFF with no index format. Every context register is written: the next draw rolls.
    pub fn clear_state(&mut self) {
        self.graphics_valid = false;
        self.record_valid = false;
        self.stages_valid = 0;
        self.changes.set_everything();
        self.state.clear();
        self.context_changed = true;
    }

    /// The current register and binding state (compression is the resources', not taken).
    pub fn snapshot(&self) -> GpuState {
        (*self.state).clone()
    }

    /// Puts back a state taken by [`snapshot`](Self::snapshot). Every context register is
    /// written again: the next draw rolls.
    pub fn restore(&mut self, state: &GpuState) {
        self.graphics_valid = false;
        self.record_valid = false;
        self.stages_valid = 0;
        self.changes.set_everything();
        (*self.state).clone_from(state);
        self.context_changed = true;
        // Putting the targets back binds them again.
        self.targets_bound();
    }

    /// The current state, to read.
    pub fn state(&self) -> &GpuState {
        &self.state
    }

    /// Fences, memory writes, resource uses and waits on present, as consumed so far.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The progress, to change: the immediate context retires segments here when the CPU learns
    /// they finished (a fence it saw pass, a memory value it read), and ends a segment at a
    /// kickoff.
    pub fn progress_mut(&mut self) -> &mut Progress {
        &mut self.progress
    }

    /// Counts a wait on a fence that is not a command: a legacy map waiting for the GPU
    /// (R-EX-6).
    pub fn count_fence_wait(&mut self) {
        self.counters.fence_waits += 1;
    }

    /// Turns validation on (R-V-1) for `device`'s objects: fast-semantics draws that read a
    /// compressed target through a shader view, and first writes to a back buffer in a frame
    /// without a wait on present, are reported ([`take_violations`](Self::take_violations)).
    /// Resource uses are tracked from now on.
    /// A device validating hazards (`Validation::Hazards`) turns on hazard detection too (R-V-2).
    pub fn set_validation(&mut self, device: Option<Device>) {
        self.hazards = device
            .as_ref()
            .filter(|d| d.desc().validation == recorder::Validation::Hazards)
            .map(|d| Box::new(hazard_tracking::Tracker::new(d.clone())));
        self.validator = device;
    }

    /// A list of `semantics` recorded by the context with serial `recorder` begins (nested in
    /// the current one, if any): what the model runs until its [`list_end`](Self::list_end)
    /// comes from a command list (a refused barrier is reported by `execute_command_list`,
    /// R-BAR-8), and under hazard validation its commands are named by their index in it
    /// (R-V-2).
    pub fn list_begin(&mut self, recorder: u32, semantics: Semantics) {
        self.record_valid = false;
        self.stages_valid = 0;
        self.changes.set_everything();
        self.barriers.list_depth += 1;
        if let Some(hazards) = self.hazards.as_deref_mut() {
            hazards.list_begin(recorder, semantics);
        }
    }

    /// The list begun last ends. At the end of a top-level list, what may not cross an
    /// execute boundary is checked (R-BAR-4, R-BAR-8: `end_of_list`).
    pub fn list_end(&mut self) {
        self.graphics_valid = false;
        self.record_valid = false;
        self.stages_valid = 0;
        self.changes.set_everything();
        if let Some(hazards) = self.hazards.as_deref_mut() {
            hazards.list_end();
        }
        self.barriers.list_depth = self.barriers.list_depth.saturating_sub(1);
        if self.barriers.list_depth == 0 {
            self.end_of_list();
        }
    }

    /// Under hazard validation, a bundle call begins (`true`) or ends: its commands are named
    /// by the `draw_bundle` command.
    pub fn hazard_bundle(&mut self, begins: bool) {
        if let Some(hazards) = self.hazards.as_deref_mut() {
            hazards.bundle(begins);
        }
    }

    /// Under hazard validation (R-V-2), whether the one write pending on `resource` (a buffer
    /// when `buffer`) is a copy of the whole resource (`copy_resource`, `update_subresource`,
    /// `copy_structure_count`'s buffer) made under `semantics`, by a call of that semantics:
    /// what one `update_subresource` on a context of `semantics` gives a fresh model (a
    /// capture's frame start). `false` without hazard validation, with no write or several
    /// pending.
    pub fn pending_whole_copy_write(
        &self,
        resource: RawHandle,
        buffer: bool,
        semantics: Semantics,
    ) -> bool {
        self.hazards
            .as_ref()
            .is_some_and(|t| t.lone_whole_copy_write(resource, buffer, semantics))
    }

    /// Whether hazards are validated (R-V-2).
    pub fn validates_hazards(&self) -> bool {
        self.hazards.is_some()
    }

    /// Whether uses of resources by commands of `semantics` are tracked: legacy semantics
    /// updates the resources' fences, fast semantics only under validation (as the seeds'
    /// VALIDATED driver does); legacy maps wait on them, validation checks them (R-EX-6).
    #[inline]
    fn tracks(&self, semantics: Semantics) -> bool {
        semantics == Semantics::Legacy || self.validator.is_some()
    }

    /// Whether work of `semantics` is checked against the fast-semantics rules (R-V-1).
    #[inline]
    fn validates(&self, semantics: Semantics) -> bool {
        semantics == Semantics::Fast && self.validator.is_some()
    }

    #[inline]
    fn use_resource(&mut self, semantics: Semantics, resource: RawHandle) {
        if self.tracks(semantics) {
            self.progress
                .use_resource(resource, semantics == Semantics::Legacy);
        }
    }

    /// The validation reports since the last call, in order.
    pub fn take_violations(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.violations)
    }

    /// `chain` presented (R-EX-7): its next back buffer needs a wait on present before it is
    /// written. Ends the segment.
    pub fn present(&mut self, chain: RawHandle) {
        self.progress.presented(chain);
        self.progress.kickoff();
    }

    /// Feeds `backend` (R-GPU-1, [`GpuBackend`]) from the next command on, or none; returns
    /// the one it replaces.
    pub fn set_backend(
        &mut self,
        backend: Option<Box<dyn GpuBackend>>,
    ) -> Option<Box<dyn GpuBackend>> {
        self.changes = DrawChanges::ALL;
        std::mem::replace(&mut self.backend, backend)
    }

    /// The backend the model feeds, if any.
    pub fn backend(&self) -> Option<&dyn GpuBackend> {
        self.backend.as_deref()
    }

    /// The backend the model feeds, if any, mutably.
    pub fn backend_mut(&mut self) -> Option<&mut (dyn GpuBackend + 'static)> {
        self.backend.as_deref_mut()
    }

    /// A present of `chain`'s back buffer `back_buffer` handed to the backend, if any
    /// (R-GPU-1); a refusal is a violation.
    pub fn backend_present(&mut self, chain: RawHandle, back_buffer: RawHandle) {
        if let Some(backend) = self.backend.as_deref_mut() {
            let result = backend.present(chain, back_buffer);
            self.backend_answered(result);
        }
    }

    /// The end of a submission handed to the backend, if any (R-GPU-1): what it recorded goes
    /// to the GPU. A refusal is a violation.
    pub fn backend_submit(&mut self) {
        if let Some(backend) = self.backend.as_deref_mut() {
            let result = backend.submit();
            self.backend_answered(result);
        }
    }

    /// The backend's answer: a refusal joins the violations the immediate context reports.
    #[cold]
    fn backend_answered(&mut self, result: Result<(), Error>) {
        if let Err(error) = result {
            self.violations.push(error);
        }
    }

    /// A command handed to the backend (not a draw: those come with their record).
    #[inline(never)]
    fn backend_command(&mut self, command: &Command<'_>, semantics: Semantics) {
        if let Some(backend) = self.backend.as_deref_mut() {
            self.changes.note(command);
            let result = backend.command(command, semantics);
            if result.is_err() {
                self.backend_answered(result);
            }
        }
    }

    /// The last record handed to the backend: `skipped` when predication skipped its draw.
    #[inline(never)]
    fn backend_draw(&mut self, skipped: bool) {
        if let (Some(backend), Some(mut draw)) = (self.backend.as_deref_mut(), self.records.last())
        {
            let (predicate, value) = self.state.bindings.predication();
            backend.predicate(predicate, value);
            draw.changes = self.changes;
            // After a dispatch the next draw is told everything (a draw follows a draw).
            self.changes = match draw.kind.is_dispatch() {
                true => DrawChanges::ALL,
                false => DrawChanges::NONE,
            };
            if let Err(error) = backend.draw(&draw, skipped) {
                self.violations.push(error);
            }
        }
    }

    /// The records of every draw and dispatch so far, in order, read in place: the model's own
    /// pools, which [`clear_records`](Self::clear_records) empties for the next batch (the
    /// steady-state way: a frame whose draws fit what an earlier one grew the pools to
    /// allocates nothing).
    pub fn draws(&self) -> &Records {
        &self.records
    }

    /// The records of every draw and dispatch so far, in order, as owned copies: built on the
    /// first call, then kept up to date draw by draw (allocating) until the records are cleared
    /// or taken. For tests and tools that keep records; [`draws`](Self::draws) reads the same
    /// facts without copying.
    pub fn records(&self) -> &[DrawRecord] {
        self.owned.get_or_init(|| self.records.to_vec())
    }

    /// Hands the records over as owned copies and starts a new list of them (counters keep
    /// counting). The pools stay for the next records.
    pub fn take_records(&mut self) -> Vec<DrawRecord> {
        let owned = match self.owned.take() {
            Some(owned) => owned,
            None => self.records.to_vec(),
        };
        self.records.clear();
        owned
    }

    /// Forgets the records so far, keeping the pools' memory for the next ones (counters keep
    /// counting): what a long run that keeps no history calls once a frame.
    pub fn clear_records(&mut self) {
        self.records.clear();
        self.owned.take();
    }

    /// GDS, its ranges, constant RAM and the buffer words the GPU side wrote (R-FX-4, R-FX-5;
    /// what it covers: `gpu/memory.rs`).
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// The counters so far, cumulative over every execution (`expect counters`).
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The model's clock (R-FX-3): the draws and dispatches it has run so far, skipped ones
    /// included; what a timestamp query's end writes.
    pub fn clock(&self) -> u64 {
        self.counters.draws.saturating_add(self.counters.dispatches)
    }

    /// The result `query`'s last end or `write_query` wrote, as far as the model has run
    /// (R-FX-3); `None` when it has none: no end run yet, reset since, or begun again since.
    pub fn query_result(&self, query: RawHandle) -> Option<QueryResult> {
        self.queries.result(query)
    }

    /// What the model keeps of `query` (R-FX-3): mode, open scope, result; `None` when it has
    /// seen no command of it.
    pub fn query_snapshot(&self, query: RawHandle) -> Option<QuerySnapshot> {
        self.queries.snapshot(query)
    }

    /// What the model has counted for `query` so far (R-FX-3, fast `get_data`): an open
    /// scope's counts now, else its last result, else zeros.
    pub fn query_so_far(&self, query: RawHandle) -> QueryResult {
        self.queries.so_far(query, self.clock())
    }
}
