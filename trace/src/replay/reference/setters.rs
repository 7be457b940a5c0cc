//! The state calls the reference mirrors (R-ST-1, R-FX-6): a legacy context's state as the
//! steps that set it since it was last reset ([`Setter`]s), folded step by step, and the calls
//! that issue a setter again.
//!
//! **In:** the [`Program`] and a step index (or a setter). **Out:** the state calls after the
//! step ([`fold_state`]), the calls that issue a setter ([`setter_calls`]).
//!
//! **Invariant:** a setter names the step that made it, never a copy of its call: what it
//! issues is the program's call of that step, or, bound again by a swap, the legacy binds the
//! engine's swap makes of it. Plain functions of the program: no reference state here.

use std::collections::HashMap;

use super::super::program::{Call, Op, Program};
use crate::syntax::ast::VertexBinding;

/// One state call of a context's state, or of a device context state object's (R-ST-1,
/// R-FX-6): the step that made it, the step whose minimum LOD its bind copies (its own, or the
/// swap's that bound it again), and whether a swap bound it again, through the legacy binds
/// (`recorder/src/context_state.rs`: a fast or placement binding comes back as a plain one).
#[derive(Clone, Copy, Debug)]
pub(super) struct Setter {
    pub(super) op: usize,
    pub(super) at: usize,
    pub(super) rebound: bool,
}

/// The call of step `index`.
pub(super) fn call_of(program: &Program, index: usize) -> Option<&Call> {
    match &program.steps.get(index)?.op {
        Op::Call { call, .. } => Some(call),
        _ => None,
    }
}

/// Step `op` on a legacy context whose state calls since its last reset are `state`: a reset
/// empties them, a state setter adds itself, an accepted swap makes them what the object held
/// (`swaps`, R-FX-6). Any other call leaves them (a `restore=yes` execution puts the state back).
pub(super) fn fold_state(
    program: &Program,
    swaps: &HashMap<usize, Vec<Setter>>,
    state: &mut Vec<Setter>,
    op: usize,
) {
    match call_of(program, op) {
        Some(Call::ClearState) | Some(Call::Execute { restore: false, .. }) => state.clear(),
        Some(Call::SwapDeviceContextState { .. }) => {
            if let Some(incoming) = swaps.get(&op) {
                state.clone_from(incoming);
            }
        }
        Some(call) if call.is_state() => state.push(Setter {
            op,
            at: op,
            rebound: false,
        }),
        // A predicate set from a query holds no reference, and a legacy context carries
        // none: the slot is emptied (R-FX-3, recorder/src/queries.rs).
        Some(Call::SetPredicationFromQuery { .. }) => state.retain(|setter| {
            !matches!(
                call_of(program, setter.op),
                Some(Call::SetPredication { .. })
            )
        }),
        _ => {}
    }
}

/// The calls that issue `setter`: its own call, or, bound again by a swap, the legacy binds
/// `swap_device_context_state` makes of it (R-FX-6, `recorder/src/context_state.rs`: the fast
/// and placement calls' bindings come back as the plain binds of their slots).
pub(super) fn setter_calls(program: &Program, setter: Setter) -> Vec<Call> {
    let Some(call) = call_of(program, setter.op) else {
        return Vec::new();
    };
    if !setter.rebound {
        return vec![call.clone()];
    }
    let fast = |entries: &[crate::syntax::ast::FastEntry<super::super::program::Lowered>]| {
        use crate::syntax::ast::FastKind;
        entries
            .iter()
            .map(|entry| {
                let stage = entry.stage.unwrap_or(recorder::Stage::Vertex);
                let (start, one) = (entry.slot, vec![entry.object]);
                match entry.kind {
                    FastKind::ConstantBuffer => Call::SetConstantBuffers {
                        stage,
                        start,
                        buffers: one,
                    },
                    FastKind::ShaderResource => Call::SetShaderResources {
                        stage,
                        start,
                        views: one,
                    },
                    FastKind::Sampler => Call::SetSamplers {
                        stage,
                        start,
                        samplers: one,
                    },
                    FastKind::VertexBuffer => Call::SetVertexBuffers {
                        start,
                        buffers: vec![VertexBinding {
                            buffer: entry.object,
                            stride: entry.vertex[0],
                            offset: entry.vertex[1],
                        }],
                    },
                }
            })
            .collect()
    };
    match call {
        Call::SetFastResources(entries) | Call::SetFastResourcesFromBatch { entries, .. } => {
            fast(entries)
        }
        Call::SetFastShaderResource { stage, slot, view } => vec![Call::SetShaderResources {
            stage: *stage,
            start: *slot,
            views: vec![*view],
        }],
        Call::SetPlacementShaderResource {
            stage, slot, view, ..
        } => vec![Call::SetShaderResources {
            stage: *stage,
            start: *slot,
            views: vec![Some(*view)],
        }],
        Call::SetPlacementConstantBuffer {
            stage,
            slot,
            buffer,
            ..
        } => vec![Call::SetConstantBuffers {
            stage: *stage,
            start: *slot,
            buffers: vec![Some(*buffer)],
        }],
        Call::SetPlacementVertexBuffer { slot, buffer, .. } => vec![Call::SetVertexBuffers {
            start: *slot,
            buffers: vec![VertexBinding {
                buffer: Some(buffer.buffer),
                stride: buffer.stride,
                offset: buffer.offset,
            }],
        }],
        Call::IaSetPlacementIndexBuffer { buffer, format, .. } => vec![Call::SetIndexBuffer {
            buffer: Some(*buffer),
            format: *format,
            offset: 0,
        }],
        call => vec![call.clone()],
    }
}
