//! The trace's calls followed at their line: an `imm` call issued on the reference's immediate
//! recorder (an `execute` or `draw_bundle` run there and then), a deferred context's or bundle
//! recorder's call booked for when its list runs or its bundle is called.
//!
//! **In:** a call step of the [`Program`](super::super::program::Program) and the real run's
//! [`Effect`] of it. **Out:** the GPU model fed (`feed.rs`) with what `imm` issued; the
//! recorder's book, a finished list or bundle, the swaps' state calls (R-FX-6).
//!
//! **Invariant:** the reference issues or books only what the real run accepted: a refused
//! map is left out of a list that still finishes (R-REC-8), a refused `finish` leaves the
//! list open, a refused swap has no state calls.

use std::cell::Cell;
use std::rc::Rc;

use recorder::{ClearStateCalls, Handle, MapType, Semantics, SwapChain};

use super::super::live::Effect;
use super::super::program::{Call, ObjId};
use super::setters::{setter_calls, Setter};
use super::swap_chain_placement::Move;
use super::{issue, BundleBook, ListBook, Reference};

impl Reference {
    pub(super) fn immediate(&mut self, index: usize, call: &Call) {
        match call {
            Call::SetResourceMinLod { .. } | Call::SetShaderResourceViewMinLod { .. } => {
                self.min_lod(index, call)
            }
            Call::InsertFence { .. }
            | Call::InsertWaitOnFence { .. }
            | Call::BeginCommandListExecution
            | Call::EndCommandListExecution
            | Call::CreateDeviceContextState { .. } => {}
            Call::SwapDeviceContextState { .. } => {
                // A swap of the active object changes nothing: it has no calls.
                let Some(setters) = self.swaps.get(&index).cloned() else {
                    return;
                };
                // The direct calls are made at the swap's line: the LOD in force is now's.
                self.imm.recorder.clear_state();
                let program = self.program.clone();
                for setter in setters {
                    for call in setter_calls(&program, setter) {
                        issue(&self.program, &self.handles, &mut self.imm.recorder, &call);
                    }
                }
                self.flush_imm(None);
            }
            Call::Map {
                resource, map_type, ..
            } if !matches!(map_type, MapType::WriteDiscard | MapType::WriteNoOverwrite) => {
                self.cpu_mapped.insert(*resource);
            }
            Call::Unmap { resource } if self.cpu_mapped.remove(resource) => {}
            Call::Execute { list, restore } => {
                let mut stack = Vec::new();
                self.run_list(*list, *restore, self.program.semantics, &mut stack);
            }
            Call::DrawBundle { bundle } => {
                if let Some(bundle) = self.bundles.get(bundle).cloned() {
                    self.call_bundle(&bundle, &mut Vec::new());
                }
            }
            Call::PlaceSwapChainView {
                view,
                index: buffer,
            } => self.move_views(index, Move::Place(*view, *buffer)),
            Call::Present { swapchain } => {
                // The back buffer presented, and the rotation (R-EX-7): legacy semantics
                // decompresses a compressed one (R-ST-9), as the engine's present does.
                let Some(chain) = self.handles.get(*swapchain).map(SwapChain::from_raw) else {
                    return;
                };
                let presented = self.device.current_back_buffer(chain).and_then(|index| {
                    let info = self.device.swap_chain_info(chain)?;
                    info.buffers.get(index as usize).map(|(t, _)| t.raw())
                });
                let _ = self.device.rotate_back_buffer(chain);
                if let Some(texture) = presented {
                    (self.feed.gpu).back_buffer_presented(texture, self.program.semantics);
                }
                if self.program.semantics == Semantics::Fast {
                    // A fast immediate context clears its state (R-ST-4).
                    self.imm.recorder.clear_state();
                    self.flush_imm(None);
                } else {
                    // A legacy present moves the views of the back buffers and re-binds them
                    // (R-EX-7).
                    self.move_views(index, Move::Shift(*swapchain));
                }
            }
            Call::Resume => {
                // A fast immediate context clears its state (R-ST-4).
                if self.program.semantics == Semantics::Fast {
                    self.imm.recorder.clear_state();
                    self.flush_imm(None);
                }
            }
            _ => {
                let k = issue(&self.program, &self.handles, &mut self.imm.recorder, call);
                self.flush_imm(k);
            }
        }
    }

    pub(super) fn flush_imm(&mut self, k: Option<u32>) {
        // An immediate recorder's batch is refused only when too large to encode (R-REC-12):
        // the engine dropped the same calls.
        let Ok(batch) = self.imm.recorder.take_batch() else {
            return;
        };
        self.feed
            .consume(&batch, self.imm.semantics, &mut self.imm.scope, k);
    }

    pub(super) fn deferred(&mut self, index: usize, id: ObjId, call: &Call, effect: Effect) {
        if matches!(call, Call::Map { .. }) && effect == Effect::Refused {
            // A refused map is left out of a list that still finishes (R-REC-8).
            return;
        }
        match call {
            Call::SetResourceMinLod { .. } | Call::SetShaderResourceViewMinLod { .. } => {
                return self.min_lod(index, call)
            }
            // A swap is the immediate context's alone (R-FX-6): refused here, it is no call of
            // the list.
            Call::InsertFence { .. }
            | Call::InsertWaitOnFence { .. }
            | Call::CreateDeviceContextState { .. }
            | Call::SwapDeviceContextState { .. }
            | Call::PlaceSwapChainView { .. } => return,
            Call::DrawBundle { bundle } => {
                if let Some(bundle) = self.bundles.get(bundle) {
                    self.bundle_calls.insert(index, bundle.clone());
                }
            }
            _ => {}
        }
        let Some(book) = self.recorders.get_mut(&id) else {
            return;
        };
        match call {
            Call::FinishCommandList { list, .. } => {
                let Effect::Finished { kept, carried } = effect else {
                    return; // refused, the list still open
                };
                let ops = std::mem::take(&mut book.ops);
                if kept {
                    let made = ListBook {
                        semantics: book.semantics,
                        carried: book.carried.clone(),
                        ops: ops.clone(),
                    };
                    self.lists.insert(*list, made);
                }
                book.carry(&self.program, &self.swaps, ops, carried);
            }
            Call::FinishBundle => {
                let ops = std::mem::take(&mut book.ops);
                if let (Effect::Finished { kept: true, .. }, Some(declaration)) =
                    (effect, book.declaration)
                {
                    let made = Rc::new(BundleBook {
                        ops,
                        declaration,
                        released: Cell::new(false),
                    });
                    self.bundle_versions
                        .entry(id)
                        .or_default()
                        .push(made.clone());
                    self.bundles.insert(id, made);
                }
            }
            _ => book.ops.push(index),
        }
    }

    /// The accepted swap of step `index` activates object `state` (R-FX-6): `outgoing` (`imm`'s
    /// state calls at this line) is saved into the active object, and what `state` saved (none:
    /// the defaults, if it never was active) is what the swap binds again. A swap of the
    /// active object changes nothing: no calls.
    pub(super) fn swap(&mut self, index: usize, state: ObjId, outgoing: Vec<Setter>) {
        if self.active_state == Some(state) {
            return;
        }
        // The implicit default object the first swap deactivates has no name: nothing can
        // swap it in again.
        if let Some(previous) = self.active_state.replace(state) {
            self.states.insert(previous, outgoing);
        }
        let incoming = self.states.remove(&state).unwrap_or_default();
        let incoming = incoming
            .into_iter()
            .map(|setter| Setter {
                at: index,
                rebound: true,
                ..setter
            })
            .collect();
        self.swaps.insert(index, incoming);
    }
}
