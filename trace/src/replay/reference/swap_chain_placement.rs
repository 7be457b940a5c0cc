//! Views of a swap chain's back buffers in the reference (R-EX-7): a `place_swap_chain_view`
//! moves its view at once, on every device; a legacy present moves every view of the chain's
//! back buffers by one (the engine's `Device::shift_swap_chain_views`) and has the immediate
//! recorder re-bind what it holds bound to them, as the engine's present does; a bind copies the
//! buffer its view names then.
//!
//! **In:** the placements and the legacy presents at their line; a list's bind as it is issued.
//! **Out:** every reference device's views moved at the line (and the move logged for the
//! devices made later); before a list's bind, the views it names put back on the buffer they
//! named at the bind's line (the list device's, which is no other run's), as `lods.rs` does for
//! the minimum LOD.
//!
//! **Invariant:** a move is applied once, at its line, never again when a list that was recorded
//! after it runs: a list's bind sees what was placed at its own line, whatever moved since.

use recorder::{
    DepthStencilView, Device, Handle, RenderTargetView, ShaderResourceView, SwapChain,
    UnorderedAccessView,
};

use super::super::apply::place_swap_chain_view;
use super::super::handles::Resolver;
use super::super::program::{Call, ObjId, ObjKind};
use super::{Logged, Reference};

/// The back-buffer index the view `id` names on `device`, if it is a view of one.
fn view_buffer(device: &Device, objects: &Resolver<'_>, id: ObjId) -> Option<u32> {
    let raw = objects.handles.get(id)?;
    let placed = match objects.program.objects[id].kind {
        ObjKind::ShaderResourceView => {
            device.swap_chain_view_buffer(ShaderResourceView::from_raw(raw))
        }
        ObjKind::UnorderedAccessView => {
            device.swap_chain_view_buffer(UnorderedAccessView::from_raw(raw))
        }
        ObjKind::RenderTargetView => device.swap_chain_view_buffer(RenderTargetView::from_raw(raw)),
        ObjKind::DepthStencilView => device.swap_chain_view_buffer(DepthStencilView::from_raw(raw)),
        _ => None,
    };
    placed.map(|(_, index)| index)
}

/// A move a device replays: one placement, or a legacy present's shift of a chain.
#[derive(Clone, Copy, Debug)]
pub(super) enum Move {
    Place(ObjId, u32),
    Shift(ObjId),
}

impl Move {
    /// Makes the move on `device`.
    pub(super) fn apply(self, device: &Device, objects: &Resolver<'_>) {
        match self {
            // A refused placement was refused by the real run too: it changes nothing.
            Self::Place(view, index) => {
                let _ = place_swap_chain_view(device, objects, view, index);
            }
            Self::Shift(chain) => {
                if let Some(raw) = objects.handles.get(chain) {
                    device.shift_swap_chain_views(SwapChain::from_raw(raw));
                }
            }
        }
    }
}

impl Reference {
    /// A move at step `index`: made on every reference device now, logged, and each view's
    /// buffer before and after kept (module essay). A shift also re-binds on `imm`.
    pub(super) fn move_views(&mut self, index: usize, moved: Move) {
        let program = self.program.clone();
        let objects = Resolver {
            program: &program,
            handles: &self.handles,
        };
        let views: Vec<ObjId> = match moved {
            Move::Place(view, _) => vec![view],
            Move::Shift(_) => (0..program.objects.len())
                .filter(|id| view_buffer(&self.device, &objects, *id).is_some())
                .collect(),
        };
        let before: Vec<Option<u32>> = views
            .iter()
            .map(|id| view_buffer(&self.device, &objects, *id))
            .collect();
        moved.apply(&self.device, &objects);
        for (_, list_device) in &self.list_devices.devices {
            moved.apply(list_device, &objects);
        }
        self.log.push(Logged::Move(moved));
        for (view, before) in views.into_iter().zip(before) {
            let after = view_buffer(&self.device, &objects, view);
            if let (Some(before), Some(after)) = (before, after) {
                if before != after {
                    self.placements
                        .entry(view)
                        .or_default()
                        .push((index, before, after));
                }
            }
        }
        if let Move::Shift(chain) = moved {
            if let Some(raw) = self.handles.get(chain) {
                let chain = SwapChain::from_raw(raw);
                self.imm.recorder.rebind_swap_chain_views(chain);
                self.flush_imm(None);
            }
        }
    }

    /// Before the bind `call` of step `op` (a list's, on list device `device`): each view it
    /// names that ever moved is put back on the buffer it named at `op`'s line (R-EX-7).
    pub(super) fn bind_placements_as_of(&self, device: usize, op: usize, call: &Call) {
        if self.placements.is_empty() {
            return;
        }
        let Some((_, device)) = self.list_devices.devices.get(device) else {
            return;
        };
        let program = self.program.clone();
        let objects = Resolver {
            program: &program,
            handles: &self.handles,
        };
        let mut views = Vec::new();
        call.for_each_object(&mut |id| views.push(*id));
        for view in views {
            let Some(changes) = self.placements.get(&view) else {
                continue;
            };
            let index = match changes.iter().rev().find(|(at, _, _)| *at < op) {
                Some((_, _, after)) => *after,
                None => changes[0].1,
            };
            let _ = place_swap_chain_view(device, &objects, view, index);
        }
    }
}
