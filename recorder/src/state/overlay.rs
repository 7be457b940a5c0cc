//! The bundle overlay (R-B-4, R-B-9, R-B-10): a bundle's bindings applied over its caller's, as
//! the constant engine does it, and the caller's put back after. The GPU model drives it
//! (`executor/src/gpu/bundle_call.rs`: checks, counters, the draws); what a bundle overrides and
//! what it inherits is decided here, in [`BundleOverlay::step`].
//!
//! **Overlay.** Each slot the bundle sets (shaders, input layout, topology, index buffer, and the
//! constant-buffer, shader-resource, sampler and vertex-buffer slots) overrides the caller's
//! binding from that command on; a slot it does not set is the caller's (R-B-4).
//!
//! **Remaps.** `RemapInheritance` makes later draws read (stage, slot) from the caller's
//! (inherit stage, inherit slot) *as it was when the bundle was called*, whatever the bundle has
//! set or remapped since: a remap never reads another remap (no chains), a slot remapped to
//! itself is the caller's again (the override is cancelled), and stages may differ (R-B-9).
//!
//! **No leak.** Before a slot is first written, the caller's binding is saved; the saved
//! bindings are what remaps read and what is put back at the end, so the caller's state after
//! the call is exactly what it was before (R-B-10), at a cost in the slots the bundle touches,
//! not in the size of the state. Bundles write no context register (R-B-7), so putting the
//! state back writes none either.

use super::{Bindings, STAGES};
use crate::command::{Command, Remap, RemapKind};
use crate::desc::Stage;
use crate::limits::*;

/// What a bundle call has saved of its caller's bindings. Kept between calls so that the saved
/// copy is allocated once, at the first bundle call.
#[derive(Debug, Default)]
pub struct BundleOverlay {
    /// The caller's bindings of the slots saved so far.
    saved: Option<Box<Bindings>>,
    masks: Saved,
}

/// What the owner does with a bundle's command after [`BundleOverlay::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverlayStep {
    /// Apply it as a fast-semantics command (an index buffer leaves the reset index alone): a
    /// binding whose slots are saved now, or a draw or dispatch.
    Apply,
    /// Done: a remap, applied to the bindings by the step itself.
    Done,
    /// Not a command a bundle holds (R-B-7, R-B-8): ignored.
    Ignore,
}

/// Which of the caller's bindings are saved: one bit per slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Saved {
    input_layout: bool,
    topology: bool,
    index_buffer: bool,
    shaders: u8,
    vertex_buffers: u128,
    constant_buffers: [u128; STAGES],
    shader_resources: [u128; STAGES],
    samplers: [u128; STAGES],
}

/// Every slot a bundle's commands write, its remaps' included: what [`BundleOverlay::step`]
/// would have saved by the bundle's end ([`OverlayFootprint::of`]). It follows from the
/// commands alone, never from the caller's bindings (a step saves a slot because the command
/// writes it, whatever the slot holds), so a body's footprint, taken once, serves every call
/// of it ([`BundleOverlay::begin_saving`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OverlayFootprint {
    masks: Saved,
    /// The slots of `masks` as runs of neighbouring slots: what a call saves and puts back.
    runs: Vec<SavedRun>,
}

/// A run of neighbouring slots of one kind (of one stage: `stage`), `start..start + len`;
/// the three single registers are runs of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SavedRun {
    kind: RunKind,
    stage: u8,
    start: u8,
    len: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunKind {
    InputLayout,
    Topology,
    IndexBuffer,
    /// Shaders: `start..start + len` are stages.
    Shaders,
    VertexBuffers,
    ConstantBuffers,
    ShaderResources,
    Samplers,
}

impl OverlayFootprint {
    /// The footprint of a bundle whose commands are `commands`, in order; `each` is told what
    /// a call does with each command (what [`BundleOverlay::step`] answers for it).
    pub fn of<'a>(
        commands: impl IntoIterator<Item = Command<'a>>,
        mut each: impl FnMut(Command<'a>, OverlayStep),
    ) -> Self {
        let mut masks = Saved::default();
        for command in commands {
            let step = mark(&mut masks, &command);
            each(command, step);
        }
        let mut runs = Vec::new();
        let mut push = |kind, stage, mask: u128| {
            runs.extend(mask_runs(mask).map(|(start, len)| SavedRun {
                kind,
                stage,
                start,
                len,
            }))
        };
        push(RunKind::InputLayout, 0, masks.input_layout.into());
        push(RunKind::Topology, 0, masks.topology.into());
        push(RunKind::IndexBuffer, 0, masks.index_buffer.into());
        push(RunKind::Shaders, 0, masks.shaders.into());
        for s in 0..STAGES {
            let stage = s as u8;
            push(RunKind::ConstantBuffers, stage, masks.constant_buffers[s]);
            push(RunKind::ShaderResources, stage, masks.shader_resources[s]);
            push(RunKind::Samplers, stage, masks.samplers[s]);
        }
        push(RunKind::VertexBuffers, 0, masks.vertex_buffers);
        Self { masks, runs }
    }
}

/// The runs of set bits of `mask`, lowest first, as (first bit, length).
fn mask_runs(mask: u128) -> impl Iterator<Item = (u8, u8)> {
    let mut bits = mask;
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let start = bits.trailing_zeros();
            let len = (!(bits >> start)).trailing_zeros();
            // `len` bits from `start` are set: clear them (a run may reach bit 127).
            bits &= !(u128::MAX >> (128 - len) << start);
            (start as u8, len as u8)
        })
    })
}

/// What [`BundleOverlay::step`] does with `command`, on masks alone: the slots it would save
/// marked in `masks`, and its answer.
fn mark(masks: &mut Saved, command: &Command<'_>) -> OverlayStep {
    match *command {
        Command::SetInputLayout { .. } => masks.input_layout = true,
        Command::SetPrimitiveTopology(_) => masks.topology = true,
        Command::SetIndexBuffer(_) => masks.index_buffer = true,
        Command::SetShader { stage, .. } => masks.shaders |= 1 << stage as usize,
        Command::SetVertexBuffers { start, buffers } => mark_range(
            &mut masks.vertex_buffers,
            start,
            buffers.len(),
            VERTEX_BUFFER_SLOTS,
        ),
        Command::SetConstantBuffers {
            stage,
            start,
            buffers,
        } => mark_range(
            &mut masks.constant_buffers[stage as usize],
            start,
            buffers.len(),
            CONSTANT_BUFFER_SLOTS,
        ),
        Command::SetShaderResources {
            stage,
            start,
            views,
        } => mark_range(
            &mut masks.shader_resources[stage as usize],
            start,
            views.len(),
            SHADER_RESOURCE_SLOTS,
        ),
        Command::SetSamplers {
            stage,
            start,
            samplers,
        } => mark_range(
            &mut masks.samplers[stage as usize],
            start,
            samplers.len(),
            SAMPLER_SLOTS,
        ),
        Command::RemapInheritance(remap) => {
            // `remap_slot` writes (and so saves) the remapped slot alone.
            let (s, slot) = (remap.stage as usize, remap.slot);
            let (mask, slots) = match remap.kind {
                RemapKind::ConstantBuffer => {
                    (&mut masks.constant_buffers[s], CONSTANT_BUFFER_SLOTS)
                }
                RemapKind::ShaderResource => {
                    (&mut masks.shader_resources[s], SHADER_RESOURCE_SLOTS)
                }
                RemapKind::Sampler => (&mut masks.samplers[s], SAMPLER_SLOTS),
                RemapKind::VertexBuffer => (&mut masks.vertex_buffers, VERTEX_BUFFER_SLOTS),
            };
            mark_range(mask, slot, 1, slots);
            return OverlayStep::Done;
        }
        // (A bundle records no indirect dispatch, R-B-2.)
        c if c.is_draw_or_dispatch() => {}
        _ => return OverlayStep::Ignore,
    }
    OverlayStep::Apply
}

/// Marks slots `start..start + count` of the `slots` that exist, as `save_range` saves them.
fn mark_range(mask: &mut u128, start: u32, count: usize, slots: u32) {
    let end = (start as usize)
        .saturating_add(count)
        .min(slots.min(128) as usize);
    for slot in start as usize..end {
        *mask |= 1 << slot;
    }
}

impl BundleOverlay {
    /// Starts a bundle call over `bindings` whose slots written are `footprint`'s: the
    /// caller's bindings of all of them saved now. Equivalent to [`begin`](Self::begin) and a
    /// [`step`](Self::step) per command: a slot is saved before its first write either way, and
    /// nothing writes it between the call's start and that write (a command writes only the
    /// slots it steps over, a remap only the slot it saves first), so the value saved is the
    /// same; a remap reads the caller's binding from the saved copy or the slot, as after steps
    /// ([`remap`](Self::remap)), and [`end_saving`](Self::end_saving) puts back the same slots
    /// as [`end`](Self::end).
    pub fn begin_saving(&mut self, bindings: &Bindings, footprint: &OverlayFootprint) {
        let saved = self.saved.get_or_insert_with(Box::default);
        for &run in &footprint.runs {
            copy_run(run, bindings, saved);
        }
    }

    /// A remap (R-B-9) in a call begun with [`begin_saving`](Self::begin_saving): (stage,
    /// slot) reads the caller's (inherit stage, inherit slot), as [`step`](Self::step) does it.
    pub fn remap(&mut self, bindings: &mut Bindings, footprint: &OverlayFootprint, remap: Remap) {
        if let Some(saved) = self.saved.as_deref_mut() {
            // Every slot the body writes is saved already: the masks say so.
            let mut masks = footprint.masks;
            remap_slot(&mut masks, saved, bindings, remap);
        }
    }

    /// Ends a call begun with [`begin_saving`](Self::begin_saving): the caller's bindings put
    /// back where the bundle wrote (R-B-10).
    pub fn end_saving(&mut self, bindings: &mut Bindings, footprint: &OverlayFootprint) {
        if let Some(saved) = self.saved.as_deref() {
            for &run in &footprint.runs {
                copy_run(run, saved, bindings);
            }
        }
    }

    /// Starts a bundle call over `bindings`: nothing saved yet.
    pub fn begin(&mut self) {
        self.masks = Saved::default();
        if self.saved.is_none() {
            self.saved = Some(Box::default());
        }
    }

    /// One command of the bundle (R-B-4): saves the caller's bindings it is about to overwrite
    /// and says whether the owner applies it; a remap (R-B-9) is applied here.
    pub fn step(&mut self, bindings: &mut Bindings, command: &Command<'_>) -> OverlayStep {
        let Some(saved) = self.saved.as_deref_mut() else {
            // `begin` was not called: nothing can be put back, so nothing is applied.
            return OverlayStep::Ignore;
        };
        let masks = &mut self.masks;
        let state = &*bindings;
        match *command {
            Command::SetInputLayout { .. } => {
                if !masks.input_layout {
                    masks.input_layout = true;
                    saved.input_layout = state.input_layout;
                    saved.input_layout_slots = state.input_layout_slots;
                }
            }
            Command::SetPrimitiveTopology(_) => {
                if !masks.topology {
                    masks.topology = true;
                    saved.topology = state.topology;
                }
            }
            Command::SetIndexBuffer(_) => {
                if !masks.index_buffer {
                    masks.index_buffer = true;
                    saved.index_buffer = state.index_buffer;
                }
            }
            Command::SetShader { stage, .. } => {
                let s = stage as usize;
                if masks.shaders >> s & 1 == 0 {
                    masks.shaders |= 1 << s;
                    saved.shaders[s] = state.shaders[s];
                }
            }
            Command::SetVertexBuffers { start, buffers } => save_range(
                &mut masks.vertex_buffers,
                &mut saved.vertex_buffers,
                &state.vertex_buffers,
                start,
                buffers.len(),
            ),
            Command::SetConstantBuffers {
                stage,
                start,
                buffers,
            } => {
                let s = stage as usize;
                save_range(
                    &mut masks.constant_buffers[s],
                    &mut saved.constant_buffers[s],
                    &state.constant_buffers[s],
                    start,
                    buffers.len(),
                )
            }
            Command::SetShaderResources {
                stage,
                start,
                views,
            } => {
                let s = stage as usize;
                save_range(
                    &mut masks.shader_resources[s],
                    &mut saved.shader_resources[s],
                    &state.shader_resources[s],
                    start,
                    views.len(),
                )
            }
            Command::SetSamplers {
                stage,
                start,
                samplers,
            } => {
                let s = stage as usize;
                save_range(
                    &mut masks.samplers[s],
                    &mut saved.samplers[s],
                    &state.samplers[s],
                    start,
                    samplers.len(),
                )
            }
            Command::RemapInheritance(remap) => {
                remap_slot(masks, saved, bindings, remap);
                return OverlayStep::Done;
            }
            // (A bundle records no indirect dispatch, R-B-2.)
            c if c.is_draw_or_dispatch() => {}
            // A bundle recorder records nothing else (R-B-7, R-B-8).
            _ => return OverlayStep::Ignore,
        }
        OverlayStep::Apply
    }

    /// Ends the bundle call: puts the caller's bindings back where the bundle wrote (R-B-10).
    pub fn end(&mut self, bindings: &mut Bindings) {
        let Some(saved) = self.saved.as_deref() else {
            return;
        };
        let masks = std::mem::take(&mut self.masks);
        let state = bindings;
        if masks.input_layout {
            state.input_layout = saved.input_layout;
            state.input_layout_slots = saved.input_layout_slots;
        }
        if masks.topology {
            state.topology = saved.topology;
        }
        if masks.index_buffer {
            state.index_buffer = saved.index_buffer;
        }
        for stage in Stage::ALL {
            let s = stage as usize;
            if masks.shaders >> s & 1 != 0 {
                state.shaders[s] = saved.shaders[s];
            }
            put_back(
                masks.constant_buffers[s],
                &saved.constant_buffers[s],
                &mut state.constant_buffers[s],
            );
            put_back(
                masks.shader_resources[s],
                &saved.shader_resources[s],
                &mut state.shader_resources[s],
            );
            put_back(
                masks.samplers[s],
                &saved.samplers[s],
                &mut state.samplers[s],
            );
        }
        put_back(
            masks.vertex_buffers,
            &saved.vertex_buffers,
            &mut state.vertex_buffers,
        );
    }
}

/// Copies `run` of `from` into `to` (slots that do not exist are left alone).
#[inline]
fn copy_run(run: SavedRun, from: &Bindings, to: &mut Bindings) {
    #[inline(always)]
    fn slots<T: Copy>(from: &[T], to: &mut [T], run: SavedRun) {
        let range = run.start as usize..run.start as usize + run.len as usize;
        if let (Some(from), Some(to)) = (from.get(range.clone()), to.get_mut(range)) {
            to.copy_from_slice(from);
        }
    }
    #[inline(always)]
    fn staged<T: Copy, const N: usize>(from: &[[T; N]], to: &mut [[T; N]], run: SavedRun) {
        let s = run.stage as usize;
        if let (Some(from), Some(to)) = (from.get(s), to.get_mut(s)) {
            slots(from, to, run);
        }
    }
    match run.kind {
        RunKind::InputLayout => {
            to.input_layout = from.input_layout;
            to.input_layout_slots = from.input_layout_slots;
        }
        RunKind::Topology => to.topology = from.topology,
        RunKind::IndexBuffer => to.index_buffer = from.index_buffer,
        RunKind::Shaders => slots(&from.shaders, &mut to.shaders, run),
        RunKind::VertexBuffers => slots(&from.vertex_buffers, &mut to.vertex_buffers, run),
        RunKind::ConstantBuffers => staged(&from.constant_buffers, &mut to.constant_buffers, run),
        RunKind::ShaderResources => staged(&from.shader_resources, &mut to.shader_resources, run),
        RunKind::Samplers => staged(&from.samplers, &mut to.samplers, run),
    }
}

/// (stage, slot) now reads the caller's (inherit_stage, inherit_slot), as it was when the
/// bundle was called (R-B-9).
fn remap_slot(masks: &mut Saved, saved: &mut Bindings, state: &mut Bindings, remap: Remap) {
    let (s, from) = (remap.stage as usize, remap.inherit_stage as usize);
    let (slot, inherit) = (remap.slot as usize, remap.inherit_slot as usize);
    match remap.kind {
        RemapKind::ConstantBuffer => {
            let value = caller(
                masks.constant_buffers[from],
                &saved.constant_buffers[from],
                &state.constant_buffers[from],
                inherit,
            );
            write(
                &mut masks.constant_buffers[s],
                &mut saved.constant_buffers[s],
                &mut state.constant_buffers[s],
                slot,
                value,
            );
        }
        RemapKind::ShaderResource => {
            let value = caller(
                masks.shader_resources[from],
                &saved.shader_resources[from],
                &state.shader_resources[from],
                inherit,
            );
            write(
                &mut masks.shader_resources[s],
                &mut saved.shader_resources[s],
                &mut state.shader_resources[s],
                slot,
                value,
            );
        }
        RemapKind::Sampler => {
            let value = caller(
                masks.samplers[from],
                &saved.samplers[from],
                &state.samplers[from],
                inherit,
            );
            write(
                &mut masks.samplers[s],
                &mut saved.samplers[s],
                &mut state.samplers[s],
                slot,
                value,
            );
        }
        RemapKind::VertexBuffer => {
            let value = caller(
                masks.vertex_buffers,
                &saved.vertex_buffers,
                &state.vertex_buffers,
                inherit,
            );
            write(
                &mut masks.vertex_buffers,
                &mut saved.vertex_buffers,
                &mut state.vertex_buffers,
                slot,
                value,
            );
        }
    }
}

/// Saves `current[slot]` into `saved[slot]` unless it is saved already.
#[inline]
fn save<T: Copy>(mask: &mut u128, saved: &mut [T], current: &[T], slot: usize) {
    if slot < current.len() && slot < 128 && *mask >> slot & 1 == 0 {
        saved[slot] = current[slot];
        *mask |= 1 << slot;
    }
}

/// Saves `current[start..start + count]` (the slots that exist).
fn save_range<T: Copy>(mask: &mut u128, saved: &mut [T], current: &[T], start: u32, count: usize) {
    let start = start as usize;
    for slot in start..start.saturating_add(count).min(current.len()) {
        save(mask, saved, current, slot);
    }
}

/// Puts back every saved slot.
fn put_back<T: Copy>(mask: u128, saved: &[T], current: &mut [T]) {
    let mut bits = mask;
    while bits != 0 {
        let slot = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if let (Some(to), Some(from)) = (current.get_mut(slot), saved.get(slot)) {
            *to = *from;
        }
    }
}

/// The caller's binding of `slot`: saved if the bundle has written it, else still in place.
fn caller<T: Copy>(mask: u128, saved: &[T], current: &[T], slot: usize) -> Option<T> {
    if slot < 128 && mask >> slot & 1 != 0 {
        saved.get(slot).copied()
    } else {
        current.get(slot).copied()
    }
}

/// Saves `current[slot]` if needed, then writes `value` there (a slot out of range is ignored).
fn write<T: Copy>(
    mask: &mut u128,
    saved: &mut [T],
    current: &mut [T],
    slot: usize,
    value: Option<T>,
) {
    let Some(value) = value else { return };
    save(mask, saved, current, slot);
    if let Some(to) = current.get_mut(slot) {
        *to = value;
    }
}

// The saved arrays are the state's own: a slot of every kind fits a 128-bit mask.
const _: () = assert!(SHADER_RESOURCE_SLOTS <= 128 && VERTEX_BUFFER_SLOTS <= 128);
const _: () = assert!(CONSTANT_BUFFER_SLOTS <= 128 && SAMPLER_SLOTS <= 128);
