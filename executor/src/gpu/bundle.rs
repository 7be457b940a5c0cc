//! The GPU model's expansion of a bundle call (R-B-4, R-B-9, R-B-10), as the constant engine
//! does it: the CPU hands over a reference to the bundle; here its commands are applied over the
//! caller's state, its draws recorded, and the caller's state put back.
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
//!
//! **Checks and counters.** The bound render-target formats, depth format and sample count must
//! match the bundle's declaration, else the call is refused, counts nothing and is kept as a
//! refusal ([`GpuModel::take_bundle_refusals`]). An executed call counts one bundle call and its
//! constant-engine footprint in `ce_bytes` (the overrides are loaded at every call), and a
//! context roll when it is the first bundle call after other work (or a context register changed
//! since the last draw); the first draw or dispatch after the bundle rolls again (R-EX-4). The
//! bundle's own draws do not roll: nothing in it writes a context register.

use recorder::command::Command;
use recorder::limits::*;
use recorder::{CommandList, Error, OutputFormats, RawHandle, Remap, RemapKind, Semantics, Stage};

use super::{GpuModel, GpuState, STAGES};

/// What a bundle call has saved of the caller's state, and the refused calls.
#[derive(Debug, Default)]
pub(super) struct Expansion {
    /// The caller's bindings of the slots saved so far (allocated at the first bundle call).
    saved: Option<Box<GpuState>>,
    masks: Saved,
    refusals: Vec<Error>,
}

/// Which of the caller's bindings are saved: one bit per slot.
#[derive(Clone, Copy, Debug, Default)]
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

impl GpuModel {
    /// The formats of the targets bound now; `sample_count_of` gives a texture's sample count.
    pub fn bound_output_formats(
        &self,
        sample_count_of: impl Fn(RawHandle) -> Option<u32>,
    ) -> OutputFormats {
        let state = &*self.state;
        let count = state.render_target_count.min(state.render_targets.len());
        OutputFormats::of_bound(
            &state.render_targets[..count],
            &state.depth_stencil,
            sample_count_of,
        )
    }

    /// Executes a call of the bundle whose commands are `body` (see the module essay), declared
    /// for `declaration`, with constant-engine footprint `footprint`. Refused (`format_mismatch`,
    /// nothing applied or counted, the refusal kept) when the bound targets do not match.
    pub fn execute_bundle(
        &mut self,
        body: &CommandList,
        declaration: &OutputFormats,
        footprint: u32,
        sample_count_of: impl Fn(RawHandle) -> Option<u32>,
    ) -> Result<(), Error> {
        let bound = self.bound_output_formats(sample_count_of);
        if !bound.satisfies(declaration) {
            let error = bound.mismatch("draw_bundle", declaration);
            self.bundle.refusals.push(error.clone());
            return Err(error);
        }
        self.counters.bundle_calls += 1;
        self.counters.ce_bytes += footprint as u64;
        if !self.after_bundle || self.context_changed {
            self.counters.context_rolls += 1;
        }
        self.context_changed = false;
        self.after_bundle = false;

        let mut saved = self.bundle.saved.take().unwrap_or_default();
        self.bundle.masks = Saved::default();
        for decoded in body.commands() {
            self.apply_in_bundle(&decoded.command, &mut saved);
        }
        self.put_back(&saved);
        self.bundle.saved = Some(saved);
        self.after_bundle = true;
        Ok(())
    }

    /// Bundle calls refused since the last call of this, oldest first.
    pub fn take_bundle_refusals(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.bundle.refusals)
    }

    /// One command of a bundle: save what it overwrites, then apply it (fast semantics: an index
    /// buffer leaves the reset index alone).
    fn apply_in_bundle(&mut self, command: &Command<'_>, saved: &mut GpuState) {
        let masks = &mut self.bundle.masks;
        let state = &mut *self.state;
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
            Command::RemapInheritance(remap) => return self.remap(remap, saved),
            Command::Draw(_)
            | Command::DrawIndexed(_)
            | Command::DrawInstanced(_)
            | Command::DrawIndexedInstanced(_)
            | Command::DrawAuto
            | Command::DrawInstancedIndirect(_)
            | Command::DrawIndexedInstancedIndirect(_)
            | Command::Dispatch(_) => {}
            // A bundle recorder records nothing else (R-B-7, R-B-8).
            _ => return,
        }
        self.apply(command, Semantics::Fast);
    }

    /// (stage, slot) now reads the caller's (inherit_stage, inherit_slot), as it was when the
    /// bundle was called (R-B-9).
    fn remap(&mut self, remap: Remap, saved: &mut GpuState) {
        let masks = &mut self.bundle.masks;
        let state = &mut *self.state;
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

    /// Puts the caller's bindings back where the bundle wrote (R-B-10).
    fn put_back(&mut self, saved: &GpuState) {
        let masks = self.bundle.masks;
        let state = &mut *self.state;
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
