//! What a legacy deferred context remembers of its own state (the "shadow"): every binding, with
//! the descriptor it encoded, in the binding-state type the GPU model keeps too
//! ([`Bindings`](crate::state::Bindings), `state.rs`), plus what only a legacy recorder needs.
//! Legacy semantics needs it to drop the reference a binding holds when the slot is rebound
//! (R-OBJ-4), to carry state into the next list after `finish_command_list(true)` (R-ST-1), to
//! re-bind a dynamic resource that a write_discard map renamed while bound (R-ST-8, `map.rs`),
//! and to keep what it binds for input and for output apart (R-ST-10, `hazard.rs`). Fast
//! contexts keep none of it.
//!
//! **Shared and own.** The bindings are updated by the binds in `bind.rs` as they encode: the
//! slot arrays through `shadow_slots` (`resolve.rs`), which moves the references with the
//! bindings, and the registers through the setters of `Bindings::apply` (one function per rule:
//! the reset index a legacy index-buffer bind derives, R-ST-5, is `Bindings::derive_reset_index`
//! on both sides). Nothing is decoded back from the list. The masks below are the shadow's own,
//! beside the shared type: they say which slots hold a dynamic resource or a view, which the GPU
//! model does not need.

use crate::desc::Stage;
use crate::encode::{BoundBuffer, BoundView, InstanceId};
use crate::handle::RawHandle;
use crate::state::{Bindings, STAGES};

/// The state of a legacy context; `Default` is the ClearState defaults.
#[derive(Clone, Default)]
pub(crate) struct LegacyShadow {
    /// Every binding and binding register, as encoded.
    pub(crate) bindings: Bindings,
    /// Slots holding a dynamic resource, for R-ST-8's re-bind after a write_discard map.
    pub(crate) dynamic_vertex_buffers: u32,
    pub(crate) dynamic_index_buffer: bool,
    pub(crate) dynamic_constant_buffers: [u16; STAGES],
    pub(crate) dynamic_shader_resources: [u128; STAGES],
    /// Shader-resource slots holding a view, per stage (R-ST-10 scans these, `hazard.rs`).
    pub(crate) bound_shader_resources: [u128; STAGES],
    /// A filter of the resources bound for output (a bit per resource index, modulo 64),
    /// refreshed at every output bind: an SRV bind whose bit is clear needs no search.
    pub(crate) output_filter: u64,
}

/// A slot that R-ST-8's re-bind moved to a buffer's new instance, with its binding now.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Rebound {
    VertexBuffer {
        slot: u32,
        bound: BoundBuffer,
    },
    IndexBuffer(BoundBuffer),
    ConstantBuffer {
        stage: Stage,
        slot: u32,
        bound: BoundBuffer,
    },
    ShaderResource {
        stage: Stage,
        slot: u32,
        bound: BoundView,
    },
}

impl LegacyShadow {
    /// R-ST-8, the one place a legacy binding follows a rename: a write_discard map gave the
    /// dynamic `buffer` a new `instance`; every slot holding it (vertex buffers, index buffer,
    /// then per stage constant buffers and shader-resource views of it) now reads the new
    /// instance, and `rebound` is told of each, in that order, to encode the re-bind (`map.rs`).
    /// Only slots marked dynamic are searched.
    pub(crate) fn rename(
        &mut self,
        buffer: RawHandle,
        instance: InstanceId,
        mut rebound: impl FnMut(Rebound),
    ) {
        let bindings = &mut self.bindings;
        for slot in bits(self.dynamic_vertex_buffers.into()) {
            if let Some(bound) = bindings.vertex_buffers.get_mut(slot as usize) {
                if bound.buffer == buffer {
                    bound.instance = instance;
                    rebound(Rebound::VertexBuffer {
                        slot,
                        bound: *bound,
                    });
                }
            }
        }
        if self.dynamic_index_buffer && bindings.index_buffer.buffer == buffer {
            bindings.index_buffer.instance = instance;
            rebound(Rebound::IndexBuffer(bindings.index_buffer));
        }
        for stage in Stage::ALL {
            let s = stage as usize;
            for slot in bits(self.dynamic_constant_buffers[s].into()) {
                if let Some(bound) = bindings.constant_buffers[s].get_mut(slot as usize) {
                    if bound.buffer == buffer {
                        bound.instance = instance;
                        let bound = *bound;
                        rebound(Rebound::ConstantBuffer { stage, slot, bound });
                    }
                }
            }
            for slot in bits(self.dynamic_shader_resources[s]) {
                if let Some(bound) = bindings.shader_resources[s].get_mut(slot as usize) {
                    if bound.resource == buffer {
                        bound.instance = instance;
                        let bound = *bound;
                        rebound(Rebound::ShaderResource { stage, slot, bound });
                    }
                }
            }
        }
    }
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let bit = mask.trailing_zeros();
        mask &= mask - 1;
        Some(bit)
    })
}
