//! Where the GPU model keeps its records: [`Records`], a few flat pools reused from one batch of
//! draws to the next, and the borrowed views ([`Draw`], [`StageView`], [`GraphicsView`]) that
//! read one record out of them.
//!
//! **Why pools.** An owned [`DrawRecord`] is a tree: a `Vec` of stages, four `Vec`s per stage, a
//! boxed graphics part with three more `Vec`s. Building one per draw costs a dozen heap
//! allocations and touches fresh memory each time. Here one draw appends a fixed-size entry
//! (its kind, arguments, predicate, index buffer and reset index, shaders, and how many
//! bindings each stage has) and its bindings, the slots the shaders and the input layout read,
//! to flat pools that hold every draw's. The other output-merger and input-assembler registers
//! (input layout, topology, render targets and depth stencil with their compression, viewports,
//! scissors, blend, depth-stencil and rasterizer state) change far less often than draws happen:
//! the model appends a new graphics part only when one of them may have changed since the last
//! draw, and draws that follow share it (`GpuModel::draw` says when).
//! [`Records::clear`] empties the pools and keeps their memory, so a batch that fits what an
//! earlier one grew them to allocates nothing (wgpu-core's layout: a compact entry, variable-size
//! payloads out of line in side arrays, the entry holding offsets and counts).
//!
//! **Layout.** An entry names each of its stages by its index in the `stages` pool (a stage with
//! no shader has none); a stage entry holds the stage's shader and where its bindings start in
//! each pool: its constant buffers (the `buffers` pool), its shader resources, then its UAVs
//! (`views`), its samplers (`samplers`). The entry holds where the vertex buffers the input
//! layout reads start (`buffers`). A stage whose shader and slots did not change since the last
//! draw's record is that record's stage entry (a writer starts from the last record's stages,
//! [`Records::writer`]): two entries may share a stage entry, as they may share a graphics part,
//! and a draw that re-binds one stage's slots appends one stage entry, not five. A graphics
//! part's render targets, viewports and scissors lie in their own pools.
//!
//! **Invariant.** Every entry's ranges lie inside the pools (appended together by
//! [`DrawWriter`], cleared together), so the views slice without a bound that can fail; they
//! still use `get`, and an impossible range reads as empty rather than panicking.

use recorder::command::{BoundBuffer, BoundShader, BoundView};
use recorder::{PrimitiveTopology, RawHandle, Rect, Stage, Viewport};

use super::{
    BlendRecord, DepthStencilRecord, DrawArgs, DrawChanges, DrawKind, DrawRecord, GraphicsRecord,
    StageRecord, ViewRecord,
};

/// One stage of an entry: its shader, where its bindings start in the pools and how many of
/// each kind it has. Which stage it is follows from its place: [`Stage::GRAPHICS`]'s order for a
/// draw, the compute stage for a dispatch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StageEntry {
    shader: RawHandle,
    /// The first constant buffer in `buffers`, shader resource (then UAVs) in `views`, and
    /// sampler in `samplers`.
    buffers: u32,
    views: u32,
    samplers: u32,
    constant_buffer_count: u8,
    shader_resource_count: u8,
    sampler_count: u8,
    unordered_access_view_count: u8,
}

impl StageEntry {
    const NONE: Self = Self {
        shader: RawHandle::NULL,
        buffers: 0,
        views: 0,
        samplers: 0,
        constant_buffer_count: 0,
        shader_resource_count: 0,
        sampler_count: 0,
        unordered_access_view_count: 0,
    };
}

/// The most stages a record has: the five graphics stages.
const STAGES: usize = Stage::GRAPHICS.len();

/// [`Entry::stages`] of a stage with no shader: it reads nothing, and has no stage entry.
const NO_STAGE: u32 = u32::MAX;

/// One draw or dispatch: what it is, and where its bindings start in the pools.
#[derive(Clone, Copy, Debug)]
struct Entry {
    kind: DrawKind,
    predicate_value: bool,
    stage_count: u8,
    vertex_buffers: u8,
    args: DrawArgs,
    predicate: RawHandle,
    /// The index buffer and reset index (a draw's own: index buffers change with meshes, far
    /// more often than the graphics part's registers).
    index_buffer: BoundBuffer,
    reset_index: u32,
    /// The graphics part's index; [`NO_GRAPHICS`] for a dispatch.
    graphics: u32,
    /// The first vertex buffer in `buffers`.
    vertex_start: u32,
    /// Each stage's entry in the `stages` pool ([`NO_STAGE`] for a stage with no shader): a
    /// stage that did not change since the last record is that record's entry, shared.
    stages: [u32; STAGES],
}

const NO_GRAPHICS: u32 = u32::MAX;

/// [`Stages::place`] of a dispatch's compute stage: past the graphics stages.
const COMPUTE_PLACE: usize = STAGES;

/// The output-merger and input-assembler registers a draw read, shared by the draws that follow
/// until one of them may have changed.
#[derive(Clone, Copy, Debug)]
struct GraphicsEntry {
    input_layout: RawHandle,
    topology: PrimitiveTopology,
    depth_stencil: ViewRecord,
    blend: BlendRecord,
    depth_stencil_state: DepthStencilRecord,
    rasterizer: RawHandle,
    targets: u32,
    target_count: u8,
    viewport_count: u8,
    scissor_count: u8,
    viewports: u32,
    scissors: u32,
}

/// The records of the draws and dispatches the GPU model consumed, in order, kept compactly in
/// pools that [`clear`](Self::clear) empties and keeps for the next batch (see the module
/// essay). Read one with [`get`](Self::get) or [`iter`](Self::iter), as a borrowed [`Draw`];
/// [`Draw::to_record`] and [`to_vec`](Self::to_vec) build owned [`DrawRecord`]s.
///
/// ```
/// use executor::GpuModel;
/// use recorder::command::{Command, DirectArgs};
/// use recorder::Semantics;
///
/// let mut gpu = GpuModel::new();
/// gpu.execute(&Command::Draw(DirectArgs::draw(3, 0)), Semantics::Fast);
/// let draw = gpu.draws().get(0).expect("one draw");
/// assert_eq!(draw.kind.name(), "draw");
/// assert_eq!(draw.to_record(), gpu.records()[0]);
/// gpu.clear_records(); // the pools stay, for the next frame's draws
/// assert!(gpu.draws().is_empty());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Records {
    entries: Vec<Entry>,
    stages: Vec<StageEntry>,
    graphics: Vec<GraphicsEntry>,
    buffers: Vec<(u32, BoundBuffer)>,
    views: Vec<(u32, ViewRecord)>,
    samplers: Vec<(u32, RawHandle)>,
    targets: Vec<ViewRecord>,
    viewports: Vec<Viewport>,
    scissors: Vec<Rect>,
}

impl Records {
    /// How many records there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Record `index`, in consumption order.
    pub fn get(&self, index: usize) -> Option<Draw<'_>> {
        self.entries.get(index).map(|entry| self.draw(entry))
    }

    /// The last record.
    pub fn last(&self) -> Option<Draw<'_>> {
        self.entries.last().map(|entry| self.draw(entry))
    }

    /// Every record, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Draw<'_>> + '_ {
        self.entries.iter().map(|entry| self.draw(entry))
    }

    /// Owned copies of every record, in order.
    pub fn to_vec(&self) -> Vec<DrawRecord> {
        self.iter().map(|draw| draw.to_record()).collect()
    }

    /// Forgets every record and keeps the pools' memory for the next ones.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.stages.clear();
        self.graphics.clear();
        self.buffers.clear();
        self.views.clear();
        self.samplers.clear();
        self.targets.clear();
        self.viewports.clear();
        self.scissors.clear();
    }

    fn draw<'a>(&'a self, entry: &'a Entry) -> Draw<'a> {
        Draw {
            kind: entry.kind,
            args: entry.args,
            predicate: entry.predicate,
            predicate_value: entry.predicate_value,
            changes: DrawChanges::ALL,
            records: self,
            entry,
        }
    }

    /// Appends a copy of the last entry, a draw (not a dispatch), as a record of `kind` with
    /// `args` and the predicate given: its stages, input assembler and graphics part read the
    /// same ranges of the pools (each entry reads its own ranges from its own starts, so two
    /// entries may share them). `false`, appending nothing, when there is no such entry.
    #[inline]
    pub(crate) fn repeat_last(
        &mut self,
        kind: DrawKind,
        args: DrawArgs,
        (predicate, predicate_value): (RawHandle, bool),
    ) -> bool {
        let Some(last) = self.entries.last() else {
            return false;
        };
        if last.kind.is_dispatch() {
            return false;
        }
        // Copied within the pool (no copy on the stack first), then its own call and predicate
        // written in.
        let n = self.entries.len();
        self.entries.extend_from_within(n - 1..);
        if let Some(entry) = self.entries.last_mut() {
            entry.kind = kind;
            entry.args = args;
            entry.predicate = predicate;
            entry.predicate_value = predicate_value;
        }
        true
    }

    /// Starts a record of `kind`; the writer writes its stages and graphics part, and
    /// [`DrawWriter::finish`] appends the entry. With `same_stages` (a draw after a draw:
    /// [`last_is_draw`](Self::last_is_draw)), every stage starts as the last record's, to be
    /// written over where it changed; else as a stage with no shader.
    #[inline]
    pub(crate) fn writer(
        &mut self,
        kind: DrawKind,
        args: DrawArgs,
        (predicate, predicate_value): (RawHandle, bool),
        same_stages: bool,
    ) -> DrawWriter<'_> {
        let stages = match (same_stages, self.entries.last()) {
            (true, Some(last)) => last.stages,
            _ => [NO_STAGE; STAGES],
        };
        let entry = Entry {
            kind,
            predicate_value,
            stage_count: match kind.is_dispatch() {
                true => 1,
                false => STAGES as u8,
            },
            vertex_buffers: 0,
            args,
            predicate,
            index_buffer: BoundBuffer::NULL,
            reset_index: 0,
            graphics: NO_GRAPHICS,
            vertex_start: 0,
            stages,
        };
        DrawWriter {
            records: self,
            entry,
        }
    }

    /// Whether the last record is a draw's (not a dispatch's): a draw's record may start from
    /// its stages ([`writer`](Self::writer)).
    #[inline]
    pub(crate) fn last_is_draw(&self) -> bool {
        self.entries
            .last()
            .is_some_and(|last| !last.kind.is_dispatch())
    }
}

/// A pool index as entries keep it. A pool past `u32::MAX` items (hundreds of gigabytes of
/// records) is beyond any run the model serves; the index saturates there (reading such a
/// record's bindings gives empty slices, never a panic).
#[inline]
fn pool_index(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

/// A count as entries keep it: every slot count is under 256 (`recorder::limits`).
#[inline]
fn count(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// `pool[start..start + len]`, or empty where that is outside the pool.
#[inline]
fn slice<T>(pool: &[T], start: u32, len: usize) -> &[T] {
    let start = start as usize;
    pool.get(start..start.saturating_add(len)).unwrap_or(&[])
}

/// `(slot, map(binding))` appended to `pool` for every slot `base + i` with bit `i` set in
/// `mask` that exists in `slots`, in slot order; returns how many. (64-bit words: the baseline
/// target has no `tzcnt`/`popcnt`, and a `u128`'s cost twice a word's.)
#[inline(always)]
fn push_read<T, U>(
    pool: &mut Vec<(u32, U)>,
    mask: u64,
    base: u32,
    slots: &[T],
    map: impl Fn(&T) -> U,
) -> usize {
    let before = pool.len();
    let mut bits = mask;
    while bits != 0 {
        let slot = base + bits.trailing_zeros();
        bits &= bits - 1;
        // Slots come in ascending order: past the end of `slots`, so are the rest.
        let Some(item) = slots.get(slot as usize) else {
            break;
        };
        pool.push((slot, map(item)));
    }
    pool.len() - before
}

/// Whether `shader` (bound) reads no shader resource, UAV or sampler: its stage's record is
/// written by [`DrawWriter::constant_buffer_stage`].
#[inline(always)]
pub(crate) fn reads_constant_buffers_only(shader: &BoundShader) -> bool {
    let [low, high] = shader.shader_resource_words;
    low | high | shader.unordered_access_views | u64::from(shader.samplers) == 0
}

/// The bound slots of one stage, for [`DrawWriter::stage`].
#[derive(Clone, Copy)]
pub(crate) struct StageSlots<'a> {
    pub(crate) constant_buffers: &'a [BoundBuffer],
    pub(crate) shader_resources: &'a [BoundView],
    pub(crate) samplers: &'a [RawHandle],
    pub(crate) unordered_access_views: &'a [BoundView],
}

/// Appends one record (see [`Records::writer`]).
pub(crate) struct DrawWriter<'a> {
    records: &'a mut Records,
    entry: Entry,
}

impl DrawWriter<'_> {
    /// Writes the stage at `place` (its index in [`Stage::GRAPHICS`]; 0 for a dispatch's compute
    /// stage): `shader` and, of the bound slots given, those it reads (`view` makes a bound view
    /// the record of it). A stage with no shader reads nothing.
    #[inline(never)]
    pub(crate) fn stage(
        &mut self,
        place: usize,
        shader: &BoundShader,
        bound: StageSlots<'_>,
        view: impl Fn(&BoundView) -> ViewRecord,
    ) {
        if shader.shader.is_null() {
            self.no_shader(place);
            return;
        }
        let r = &mut *self.records;
        let (buffers, views, samplers) = (r.buffers.len(), r.views.len(), r.samplers.len());
        let cbs = shader.constant_buffers.into();
        let cbs = push_read(&mut r.buffers, cbs, 0, bound.constant_buffers, |b| *b);
        let [low, high] = shader.shader_resource_words;
        let srvs = push_read(&mut r.views, low, 0, bound.shader_resources, &view)
            + push_read(&mut r.views, high, 64, bound.shader_resources, &view);
        let uavs = shader.unordered_access_views;
        let uavs = push_read(&mut r.views, uavs, 0, bound.unordered_access_views, &view);
        let sampler_mask = shader.samplers.into();
        let sampler_count = push_read(&mut r.samplers, sampler_mask, 0, bound.samplers, |h| *h);
        let entry = StageEntry {
            shader: shader.shader,
            buffers: pool_index(buffers),
            views: pool_index(views),
            samplers: pool_index(samplers),
            constant_buffer_count: count(cbs),
            shader_resource_count: count(srvs),
            sampler_count: count(sampler_count),
            unordered_access_view_count: count(uavs),
        };
        let index = pool_index(r.stages.len());
        r.stages.push(entry);
        self.set_stage(place, index);
    }

    /// Writes the stage at `place` whose `shader` reads constant buffers only (no shader
    /// resource, UAV or sampler: [`reads_constant_buffers_only`]), of the bound `slots`: what
    /// [`stage`](Self::stage) writes for it, inline and without the other pools' walks (a
    /// vertex shader that reads its constants, re-bound draw by draw).
    #[inline(always)]
    pub(crate) fn constant_buffer_stage(
        &mut self,
        place: usize,
        shader: &BoundShader,
        slots: &[BoundBuffer],
    ) {
        let r = &mut *self.records;
        let (buffers, views, samplers) = (r.buffers.len(), r.views.len(), r.samplers.len());
        let cbs = push_read(
            &mut r.buffers,
            shader.constant_buffers.into(),
            0,
            slots,
            |b| *b,
        );
        let index = pool_index(r.stages.len());
        r.stages.push(StageEntry {
            shader: shader.shader,
            buffers: pool_index(buffers),
            views: pool_index(views),
            samplers: pool_index(samplers),
            constant_buffer_count: count(cbs),
            ..StageEntry::NONE
        });
        self.set_stage(place, index);
    }

    /// Writes the stage at `place`, which has no shader (it reads nothing).
    #[inline(always)]
    pub(crate) fn no_shader(&mut self, place: usize) {
        self.set_stage(place, NO_STAGE);
    }

    #[inline(always)]
    fn set_stage(&mut self, place: usize, stage: u32) {
        if let Some(slot) = self.entry.stages.get_mut(place) {
            *slot = stage;
        }
    }

    /// Appends the vertex buffers the input layout reads (`mask`, of the bound `slots`), after
    /// every stage.
    #[inline]
    pub(crate) fn vertex_buffers(&mut self, mask: u32, slots: &[BoundBuffer]) {
        self.entry.vertex_start = pool_index(self.records.buffers.len());
        self.entry.vertex_buffers = count(push_read(
            &mut self.records.buffers,
            mask.into(),
            0,
            slots,
            |b| *b,
        ));
    }

    /// The draw's index buffer and the reset index in force.
    #[inline]
    pub(crate) fn index_buffer(&mut self, index_buffer: BoundBuffer, reset_index: u32) {
        self.entry.index_buffer = index_buffer;
        self.entry.reset_index = reset_index;
    }

    /// The draw reads the graphics part appended last (the registers have not changed since);
    /// `false` if there is none in this batch.
    #[inline]
    pub(crate) fn same_graphics(&mut self) -> bool {
        match self.records.graphics.len() {
            0 => false,
            n => {
                self.entry.graphics = pool_index(n - 1);
                true
            }
        }
    }

    /// Appends a new graphics part for the draw: `graphics`' registers, with the render targets,
    /// viewports and scissors given.
    #[inline]
    pub(crate) fn graphics(
        &mut self,
        registers: GraphicsRegisters,
        render_targets: impl Iterator<Item = ViewRecord>,
        viewports: &[Viewport],
        scissors: &[Rect],
    ) {
        let r = &mut *self.records;
        let targets = r.targets.len();
        r.targets.extend(render_targets);
        let (viewport_start, scissor_start) = (r.viewports.len(), r.scissors.len());
        r.viewports.extend_from_slice(viewports);
        r.scissors.extend_from_slice(scissors);
        self.entry.graphics = pool_index(r.graphics.len());
        r.graphics.push(GraphicsEntry {
            input_layout: registers.input_layout,
            topology: registers.topology,
            depth_stencil: registers.depth_stencil,
            blend: registers.blend,
            depth_stencil_state: registers.depth_stencil_state,
            rasterizer: registers.rasterizer,
            targets: pool_index(targets),
            target_count: count(r.targets.len() - targets),
            viewport_count: count(viewports.len()),
            scissor_count: count(scissors.len()),
            viewports: pool_index(viewport_start),
            scissors: pool_index(scissor_start),
        });
    }

    /// Appends the entry; the record is complete. The entry is copied once, from the writer into
    /// the pool, by reference: a writer moved into `finish` (or an entry moved into `push`) is
    /// copied to the stack first, the whole entry a draw (`count_execute consume` counts it).
    #[inline]
    pub(crate) fn finish(&mut self) {
        self.records
            .entries
            .extend_from_slice(std::slice::from_ref(&self.entry));
    }
}

/// The fixed-size registers of a graphics part, for [`DrawWriter::graphics`].
pub(crate) struct GraphicsRegisters {
    pub(crate) input_layout: RawHandle,
    pub(crate) topology: PrimitiveTopology,
    pub(crate) depth_stencil: ViewRecord,
    pub(crate) blend: BlendRecord,
    pub(crate) depth_stencil_state: DepthStencilRecord,
    pub(crate) rasterizer: RawHandle,
}

/// One record, read in place out of [`Records`]: the same facts as a [`DrawRecord`], borrowed.
#[derive(Clone, Copy, Debug)]
pub struct Draw<'a> {
    /// The call the record comes from.
    pub kind: DrawKind,
    /// The call's numbers, or the buffer an indirect call reads them from.
    pub args: DrawArgs,
    /// The predicate in force (null: none).
    pub predicate: RawHandle,
    /// The value the predicate is compared with (meaningful when `predicate` is not null).
    pub predicate_value: bool,
    /// What changed in the bindings since the previous draw or dispatch the model handed its
    /// backend (R-GPU-6): set on a draw handed to a backend, [`DrawChanges::ALL`] on one read
    /// out of the records.
    pub changes: DrawChanges,
    records: &'a Records,
    entry: &'a Entry,
}

impl<'a> Draw<'a> {
    /// Whether the draw ran under a predicate (it may have been skipped).
    pub fn predicated(&self) -> bool {
        !self.predicate.is_null()
    }

    /// The stages, as [`DrawRecord::stages`]: vs hs ds gs ps for a draw, cs for a dispatch.
    pub fn stages(&self) -> Stages<'a> {
        Stages {
            records: self.records,
            stages: self
                .entry
                .stages
                .get(..self.entry.stage_count as usize)
                .unwrap_or(&[]),
            place: match self.kind.is_dispatch() {
                true => COMPUTE_PLACE,
                false => 0,
            },
        }
    }

    /// The record of `stage`, if this record has it: a draw's stage is found at its place
    /// (no other stage's view is put together: a backend's steady state, R-GPU-6).
    pub fn stage(&self, stage: Stage) -> Option<StageView<'a>> {
        if self.kind.is_dispatch() {
            return self.stages().find(|s| s.stage == stage);
        }
        let place = Stage::GRAPHICS.iter().position(|s| *s == stage)?;
        self.stages().nth(place)
    }

    /// The topology, index buffer and reset index of a draw (not a dispatch), without putting
    /// the rest of [`GraphicsView`] together (a backend's steady state, R-GPU-6).
    pub fn index_state(&self) -> Option<(PrimitiveTopology, BoundBuffer, u32)> {
        let g = self.records.graphics.get(self.entry.graphics as usize)?;
        Some((g.topology, self.entry.index_buffer, self.entry.reset_index))
    }

    /// The vertex buffers the input layout reads, as [`GraphicsView::vertex_buffers`] has them,
    /// without putting the rest of the view together (a backend's steady state, R-GPU-6).
    pub fn vertex_buffers(&self) -> &'a [(u32, BoundBuffer)] {
        slice(
            &self.records.buffers,
            self.entry.vertex_start,
            self.entry.vertex_buffers as usize,
        )
    }

    /// What a draw (not a dispatch) reads besides its shader stages.
    pub fn graphics(&self) -> Option<GraphicsView<'a>> {
        let r = self.records;
        let g = r.graphics.get(self.entry.graphics as usize)?;
        Some(GraphicsView {
            input_layout: g.input_layout,
            topology: g.topology,
            reset_index: self.entry.reset_index,
            index_buffer: self.entry.index_buffer,
            vertex_buffers: slice(
                &r.buffers,
                self.entry.vertex_start,
                self.entry.vertex_buffers as usize,
            ),
            render_targets: slice(&r.targets, g.targets, g.target_count as usize),
            depth_stencil: g.depth_stencil,
            blend: g.blend,
            depth_stencil_state: g.depth_stencil_state,
            rasterizer: g.rasterizer,
            viewports: slice(&r.viewports, g.viewports, g.viewport_count as usize),
            scissors: slice(&r.scissors, g.scissors, g.scissor_count as usize),
        })
    }

    /// An owned copy.
    pub fn to_record(&self) -> DrawRecord {
        DrawRecord {
            kind: self.kind,
            args: self.args,
            predicate: self.predicate,
            predicate_value: self.predicate_value,
            stages: self.stages().map(|s| s.to_record()).collect(),
            graphics: self.graphics().map(|g| Box::new(g.to_record())),
        }
    }
}

/// The stages of a [`Draw`], in order.
#[derive(Clone, Debug)]
pub struct Stages<'a> {
    records: &'a Records,
    stages: &'a [u32],
    /// The place of `stages[0]`: its index in [`Stage::GRAPHICS`], or [`COMPUTE_PLACE`] for a
    /// dispatch's.
    place: usize,
}

impl<'a> Iterator for Stages<'a> {
    type Item = StageView<'a>;

    fn next(&mut self) -> Option<StageView<'a>> {
        let (&index, rest) = self.stages.split_first()?;
        self.stages = rest;
        let entry = match self.records.stages.get(index as usize) {
            Some(entry) => entry,
            None => &StageEntry::NONE,
        };
        let stage = Stage::GRAPHICS
            .get(self.place)
            .copied()
            .unwrap_or(Stage::Compute);
        self.place += 1;
        let r = self.records;
        let (cbs, srvs) = (entry.constant_buffer_count, entry.shader_resource_count);
        let (samplers, uavs) = (entry.sampler_count, entry.unordered_access_view_count);
        Some(StageView {
            stage,
            shader: entry.shader,
            constant_buffers: slice(&r.buffers, entry.buffers, cbs as usize),
            shader_resources: slice(&r.views, entry.views, srvs as usize),
            samplers: slice(&r.samplers, entry.samplers, samplers as usize),
            unordered_access_views: slice(
                &r.views,
                entry.views.saturating_add(srvs as u32),
                uavs as usize,
            ),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.stages.len(), Some(self.stages.len()))
    }

    /// Skips `n` stages without putting their views together.
    fn nth(&mut self, n: usize) -> Option<StageView<'a>> {
        let skipped = n.min(self.stages.len());
        self.stages = &self.stages[skipped..];
        self.place += skipped;
        if skipped < n {
            return None;
        }
        self.next()
    }
}

impl ExactSizeIterator for Stages<'_> {}

/// One shader stage of a [`Draw`], borrowed: as [`StageRecord`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageView<'a> {
    /// The stage.
    pub stage: Stage,
    /// The bound shader; null when the stage has none.
    pub shader: RawHandle,
    /// `(slot, binding)` for each constant-buffer slot the shader reads.
    pub constant_buffers: &'a [(u32, BoundBuffer)],
    /// `(slot, view)` for each shader-resource slot the shader reads.
    pub shader_resources: &'a [(u32, ViewRecord)],
    /// `(slot, sampler state)` for each sampler slot the shader reads.
    pub samplers: &'a [(u32, RawHandle)],
    /// Compute UAVs for the compute stage; the output merger's UAVs for a graphics stage.
    pub unordered_access_views: &'a [(u32, ViewRecord)],
}

impl StageView<'_> {
    /// An owned copy.
    pub fn to_record(&self) -> StageRecord {
        StageRecord {
            stage: self.stage,
            shader: self.shader,
            constant_buffers: self.constant_buffers.to_vec(),
            shader_resources: self.shader_resources.to_vec(),
            samplers: self.samplers.to_vec(),
            unordered_access_views: self.unordered_access_views.to_vec(),
        }
    }
}

/// What a [`Draw`] (not a dispatch) reads besides its shader stages, borrowed: as
/// [`GraphicsRecord`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphicsView<'a> {
    /// The bound input layout; null for none.
    pub input_layout: RawHandle,
    /// The bound primitive topology.
    pub topology: PrimitiveTopology,
    /// The primitive reset (cut) index in force (R-ST-5).
    pub reset_index: u32,
    /// Buffer, instance, offset, and the index format in `stride_or_format`.
    pub index_buffer: BoundBuffer,
    /// The bindings at the slots the input layout reads, in slot order.
    pub vertex_buffers: &'a [(u32, BoundBuffer)],
    /// The bound render targets, slots `0..count` of the last bind.
    pub render_targets: &'a [ViewRecord],
    /// The bound depth-stencil view; [`ViewRecord::NULL`] for none.
    pub depth_stencil: ViewRecord,
    /// The blend state, blend factor and sample mask in force.
    pub blend: BlendRecord,
    /// The depth-stencil state and stencil reference in force.
    pub depth_stencil_state: DepthStencilRecord,
    /// The bound rasterizer state; null for the default.
    pub rasterizer: RawHandle,
    /// The viewports set, from slot 0.
    pub viewports: &'a [Viewport],
    /// The scissor rectangles set, from slot 0.
    pub scissors: &'a [Rect],
}

impl GraphicsView<'_> {
    /// An owned copy.
    pub fn to_record(&self) -> GraphicsRecord {
        GraphicsRecord {
            input_layout: self.input_layout,
            topology: self.topology,
            reset_index: self.reset_index,
            index_buffer: self.index_buffer,
            vertex_buffers: self.vertex_buffers.to_vec(),
            render_targets: self.render_targets.to_vec(),
            depth_stencil: self.depth_stencil,
            blend: self.blend,
            depth_stencil_state: self.depth_stencil_state,
            rasterizer: self.rasterizer,
            viewports: self.viewports.to_vec(),
            scissors: self.scissors.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder::command::{DirectArgs, InstanceId};

    fn handle(bits: u64) -> RawHandle {
        RawHandle::from_bits(bits)
    }

    fn buffer(bits: u64) -> BoundBuffer {
        BoundBuffer {
            buffer: handle(bits),
            instance: InstanceId::INITIAL,
            offset: 16,
            stride_or_format: 0,
        }
    }

    /// A shader of `bits` that reads constant-buffer slots `constant_buffers` and nothing else.
    fn constants_shader(bits: u64, constant_buffers: u16) -> BoundShader {
        let mut shader = BoundShader::NULL;
        shader.shader = handle(bits);
        shader.constant_buffers = constant_buffers;
        shader
    }

    const DRAW: DrawArgs = DrawArgs::Direct(DirectArgs::NONE);
    const NO_PREDICATE: (RawHandle, bool) = (RawHandle::NULL, false);

    /// R-EX-3: a draw whose only change is one stage's slots appends one stage entry and shares
    /// the other stages' entries with the draw before; both records read what they bound.
    #[test]
    fn r_ex_3_a_draw_rebinding_one_stage_appends_one_stage_entry() {
        let mut records = Records::default();
        let vs = constants_shader(1, 0b1);
        let ps = constants_shader(2, 0b11);
        let (cbs, other) = ([buffer(10), buffer(11)], [buffer(12)]);
        let mut first = records.writer(DrawKind::Draw, DRAW, NO_PREDICATE, false);
        first.constant_buffer_stage(0, &vs, &cbs);
        for place in 1..4 {
            first.no_shader(place);
        }
        first.constant_buffer_stage(4, &ps, &cbs);
        first.finish();
        assert_eq!(records.stages.len(), 2, "two shaders, two stage entries");
        let mut second = records.writer(DrawKind::Draw, DRAW, NO_PREDICATE, true);
        second.constant_buffer_stage(0, &vs, &other);
        second.finish();
        assert_eq!(
            records.stages.len(),
            3,
            "one stage re-bound, one entry more"
        );
        let [a, b] = [0, 1].map(|i| records.get(i).expect("two records").to_record());
        assert_eq!(a.stages[0].constant_buffers, vec![(0, buffer(10))]);
        assert_eq!(b.stages[0].constant_buffers, vec![(0, buffer(12))]);
        assert_eq!(a.stages[4], b.stages[4], "the pixel stage is shared");
        assert_eq!(
            b.stages[4].constant_buffers,
            vec![(0, buffer(10)), (1, buffer(11))]
        );
        assert!(b.stages[1..4].iter().all(|s| s.shader.is_null()));
    }

    /// R-EX-3: the constant-buffer stage writer records exactly what the general one does for
    /// a shader that reads constant buffers only, past the bound slots included.
    #[test]
    fn r_ex_3_the_constant_buffer_stage_writer_records_what_the_general_one_does() {
        let slots = [buffer(20), BoundBuffer::NULL, buffer(22)];
        for mask in [0u16, 0b1, 0b101, 0b110, 0b1000_0000_0000_0101] {
            let shader = constants_shader(3, mask);
            let (mut general, mut short) = (Records::default(), Records::default());
            let mut writer = general.writer(DrawKind::Dispatch, DRAW, NO_PREDICATE, false);
            let bound = StageSlots {
                constant_buffers: &slots,
                shader_resources: &[],
                samplers: &[],
                unordered_access_views: &[],
            };
            writer.stage(0, &shader, bound, |v| ViewRecord::new(v, false));
            writer.finish();
            let mut writer = short.writer(DrawKind::Dispatch, DRAW, NO_PREDICATE, false);
            writer.constant_buffer_stage(0, &shader, &slots);
            writer.finish();
            assert!(reads_constant_buffers_only(&shader));
            assert_eq!(general.to_vec(), short.to_vec(), "mask {mask:#b}");
        }
    }
}
