//! What a legacy deferred context remembers of its own state (the "shadow"): every binding, with
//! the descriptor it encoded, in the binding-state type the GPU model keeps too
//! ([`Bindings`](crate::state::Bindings), `state/mod.rs`), plus what only a legacy recorder needs.
//! Legacy semantics needs it to drop the reference a binding holds when the slot is rebound
//! (R-OBJ-4), to carry state into the next list after `finish_command_list(true)` (R-ST-1), to
//! re-bind a dynamic resource that a write_discard map renamed while bound (R-ST-8,
//! `DeferredContext::rebind_renamed` in `maps/mod.rs`, the one place it is done),
//! and to keep what it binds for input and for output apart (R-ST-10, `binds/bind_hazards.rs`). Fast
//! contexts keep none of it.
//!
//! **Shared and own.** The bindings are updated by the binds in `binds/` as they encode: the
//! slot arrays through `shadow_slots` (`resolve.rs`), which moves the references with the
//! bindings (one binding reference per slot, counted in the recorder's own table, `refs.rs`),
//! and the registers through the setters of `Bindings::apply` (one function per rule: the reset
//! index a legacy index-buffer bind derives, R-ST-5, is `Bindings::derive_reset_index`
//! on both sides). Nothing is decoded back from the list. The masks below are the shadow's own,
//! beside the shared type: they say which slots hold a dynamic resource or a view, which the GPU
//! model does not need.

use crate::state::{Bindings, STAGES};

/// The state of a legacy context; `Default` is the ClearState defaults.
#[derive(Clone)]
pub(crate) struct LegacyShadow {
    /// Every binding and binding register, as encoded.
    pub(crate) bindings: Bindings,
    /// Slots holding a dynamic resource, for R-ST-8's re-bind after a write_discard map.
    pub(crate) dynamic_vertex_buffers: u32,
    pub(crate) dynamic_index_buffer: bool,
    pub(crate) dynamic_constant_buffers: [u16; STAGES],
    pub(crate) dynamic_shader_resources: [u128; STAGES],
    /// Shader-resource slots holding a view, per stage (R-ST-10 scans these, `binds/bind_hazards.rs`).
    pub(crate) bound_shader_resources: [u128; STAGES],
    /// A filter of the resources bound for output (a bit per resource index, modulo 64),
    /// refreshed at every output bind: an SRV bind whose bit is clear needs no search.
    pub(crate) output_filter: u64,
    /// Slots bound under the fast contract (R-FX-1, R-FX-2, `fast/fast_resources.rs`): their bindings hold no
    /// reference.
    pub(crate) fast: FastSlots,
}

/// The slots of a legacy shadow whose binding was made by a fast-contract call (R-FX-1,
/// R-FX-2): the binding is in [`LegacyShadow::bindings`] like any other (the hazard rule, the
/// carry into the next list and the re-bind after a map see it), but it holds no reference.
/// Whatever replaces or drops such a binding first forgets it here and in the bindings (so no
/// reference is given back for it): [`forget_fast`] on the slots it is about to change.
#[derive(Clone, Copy, Default)]
pub(crate) struct FastSlots {
    pub(crate) vertex_buffers: u128,
    pub(crate) index_buffer: bool,
    pub(crate) constant_buffers: [u128; STAGES],
    pub(crate) shader_resources: [u128; STAGES],
    pub(crate) samplers: [u128; STAGES],
}

impl FastSlots {
    /// None: what a ClearState leaves.
    pub(crate) const NONE: Self = Self {
        vertex_buffers: 0,
        index_buffer: false,
        constant_buffers: [0; STAGES],
        shader_resources: [0; STAGES],
        samplers: [0; STAGES],
    };
}

/// Forgets the fast-bound slots among `slots` (slot `first` onwards of an array whose fast-bound
/// slots are the bits of `mask`): each is set null without giving a reference back, and its bit
/// cleared. Called before a legacy bind, the hazard rule or a reset changes those slots.
#[inline]
pub(crate) fn forget_fast<T: Copy + Nullable>(slots: &mut [T], mask: &mut u128, first: usize) {
    if *mask == 0 {
        return;
    }
    for (i, slot) in slots.iter_mut().enumerate() {
        let bit = 1u128 << ((first + i) & 127);
        if *mask & bit != 0 {
            *slot = T::EMPTY;
            *mask &= !bit;
        }
    }
}

/// What an empty slot of a binding array holds (for [`forget_fast`]).
pub(crate) trait Nullable {
    const EMPTY: Self;
}
impl Nullable for crate::command::BoundBuffer {
    const EMPTY: Self = Self::NULL;
}
impl Nullable for crate::command::BoundView {
    const EMPTY: Self = Self::NULL;
}
impl Nullable for crate::device::handle::RawHandle {
    const EMPTY: Self = Self::NULL;
}

impl LegacyShadow {
    /// The ClearState defaults, as a constant.
    pub(crate) const DEFAULT: Self = Self {
        bindings: Bindings::DEFAULT,
        dynamic_vertex_buffers: 0,
        dynamic_index_buffer: false,
        dynamic_constant_buffers: [0; STAGES],
        dynamic_shader_resources: [0; STAGES],
        bound_shader_resources: [0; STAGES],
        output_filter: 0,
        fast: FastSlots::NONE,
    };
}

impl LegacyShadow {
    /// Back to the ClearState defaults, in place (see `Bindings::clear`). The caller drops the
    /// references the bindings held first.
    #[inline]
    pub(crate) fn clear(&mut self) {
        let Self {
            bindings,
            dynamic_vertex_buffers,
            dynamic_index_buffer,
            dynamic_constant_buffers,
            dynamic_shader_resources,
            bound_shader_resources,
            output_filter,
            fast,
        } = self;
        bindings.clear();
        *dynamic_vertex_buffers = 0;
        *dynamic_index_buffer = false;
        *dynamic_constant_buffers = [0; STAGES];
        *dynamic_shader_resources = [0; STAGES];
        *bound_shader_resources = [0; STAGES];
        *output_filter = 0;
        *fast = FastSlots::NONE;
    }
}

impl LegacyShadow {
    /// Forgets every fast-bound slot (see [`FastSlots`]): before the references of all the
    /// bindings are given back (a reset).
    pub(crate) fn forget_all_fast(&mut self) {
        let (bindings, fast) = (&mut self.bindings, &mut self.fast);
        forget_fast(&mut bindings.vertex_buffers, &mut fast.vertex_buffers, 0);
        if std::mem::take(&mut fast.index_buffer) {
            bindings.index_buffer = crate::command::BoundBuffer::NULL;
        }
        for s in 0..STAGES {
            forget_fast(
                &mut bindings.constant_buffers[s],
                &mut fast.constant_buffers[s],
                0,
            );
            forget_fast(
                &mut bindings.shader_resources[s],
                &mut fast.shader_resources[s],
                0,
            );
            forget_fast(&mut bindings.samplers[s], &mut fast.samplers[s], 0);
        }
    }
}

impl Default for LegacyShadow {
    #[inline]
    fn default() -> Self {
        Self::DEFAULT
    }
}
