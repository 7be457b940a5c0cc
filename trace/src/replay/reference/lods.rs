//! Minimum LOD in the reference (R-ST-6): the LOD calls change their object at once, on
//! whatever context they are called, and a bind copies the value then in force.
//!
//! **In:** the LOD calls at their line; a list's or bundle's bind as it is issued. **Out:**
//! every reference device's objects changed at the call's line (and the change logged for the
//! devices made later); before a bind, the view's and its texture's LOD put back as they were
//! at the bind's line.
//!
//! **Invariant:** the LOD calls are applied once, at their line, never again when a list that
//! recorded one runs: a list's bind sees what was in force at its own line, whatever ran since.

use std::collections::HashMap;

use recorder::{Handle, ImmediateRole, Recorder, ShaderResourceView, Texture};

use super::super::apply::{record, Named};
use super::super::handles::Resolver;
use super::super::program::{Call, ObjId, ObjKind};
use super::{LodChange, Logged, Reference};

impl Reference {
    /// A minimum-LOD call of step `index`: applied now to every reference device, and kept
    /// (see the module essay).
    pub(super) fn min_lod(&mut self, index: usize, call: &Call) {
        let (object, after, before) = match *call {
            Call::SetResourceMinLod { resource, min_lod } => {
                let raw = self.handles.get(resource);
                let before =
                    raw.and_then(|raw| self.device.resource_min_lod(Texture::from_raw(raw)));
                (resource, min_lod, before)
            }
            Call::SetShaderResourceViewMinLod { view, min_lod } => {
                let raw = self.handles.get(view);
                let before = raw.and_then(|raw| {
                    self.device
                        .shader_resource_view_min_lod(ShaderResourceView::from_raw(raw))
                });
                (view, min_lod, before)
            }
            _ => return,
        };
        let program = self.program.clone();
        let objects = Resolver {
            program: &program,
            handles: &self.handles,
        };
        record(&mut self.imm.recorder, call, &objects, &Named::NONE);
        for (_, list_device) in &self.list_devices.devices {
            if let Ok(mut recorder) = list_device.immediate_recorder() {
                record(&mut recorder, call, &objects, &Named::NONE);
            }
        }
        self.log.push(Logged::MinLod(call.clone()));
        self.flush_imm(None);
        if let Some(before) = before {
            self.lods
                .entry(object)
                .or_default()
                .push((index, before, after));
        }
    }

    /// Before the bind `call` of step `op` (a list's or bundle's): each view it binds, and the
    /// view's texture, get the minimum LOD back as it was at `op`'s line (R-ST-6).
    pub(super) fn bind_lods_as_of(
        &self,
        recorder: &mut Recorder<ImmediateRole>,
        op: usize,
        call: &Call,
    ) {
        let program = self.program.clone();
        let objects = Resolver {
            program: &program,
            handles: &self.handles,
        };
        for view in &bound_views(call) {
            let texture = self
                .view_resources
                .get(view)
                .filter(|r| program.objects[**r].kind == ObjKind::Texture);
            if let Some(lod) = as_of(&self.lods, *view, op) {
                let set = Call::SetShaderResourceViewMinLod {
                    view: *view,
                    min_lod: lod,
                };
                record(recorder, &set, &objects, &Named::NONE);
            }
            if let Some((texture, lod)) =
                texture.and_then(|t| as_of(&self.lods, *t, op).map(|lod| (*t, lod)))
            {
                let set = Call::SetResourceMinLod {
                    resource: texture,
                    min_lod: lod,
                };
                record(recorder, &set, &objects, &Named::NONE);
            }
        }
    }
}

/// The shader-resource views `call` binds, whose minimum LOD a bind copies (R-ST-6): the
/// ordinary bind's and the fast calls' (R-FX-1, R-FX-2).
fn bound_views(call: &Call) -> Vec<ObjId> {
    use crate::syntax::ast::FastKind;
    let fast = |entries: &[crate::syntax::ast::FastEntry<_>]| {
        entries
            .iter()
            .filter(|entry| entry.kind == FastKind::ShaderResource)
            .filter_map(|entry| entry.object)
            .collect()
    };
    match call {
        Call::SetShaderResources { views, .. } => views.iter().flatten().copied().collect(),
        Call::SetFastResources(entries) | Call::SetFastResourcesFromBatch { entries, .. } => {
            fast(entries)
        }
        Call::SetFastShaderResource { view, .. } => view.iter().copied().collect(),
        Call::SetPlacementShaderResource { view, .. } => vec![*view],
        _ => Vec::new(),
    }
}

/// The minimum LOD of `object` at step `op`, if the trace ever changes it.
fn as_of(lods: &HashMap<ObjId, Vec<LodChange>>, object: ObjId, op: usize) -> Option<f32> {
    let changes = lods.get(&object)?;
    match changes.iter().rev().find(|(at, _, _)| *at < op) {
        Some((_, _, after)) => Some(*after),
        None => changes.first().map(|(_, before, _)| *before),
    }
}
