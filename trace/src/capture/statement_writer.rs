//! The statement writer of a captured frame's trace: statements in text order, each dynamic
//! instance numbered as its write_discard map appears.
//!
//! **In:** calls and entries in the order the text takes them, with the context each is made on;
//! declarations; blocks of state calls (a carried state, the frame's start), whose minimum-LOD
//! pins it writes only where the text's value differs, putting that value back after; pins of
//! swap-chain views (R-EX-7), which it writes on `imm` (a device call): a block's always, a
//! call's ([`Entry::Pin`]) only where the text has the view on another buffer or does not know
//! (`places`).
//! **Out:** the numbered statements, what had no statement (`not_written`).
//! **Invariant:** an instance's number is the count of write_discard maps of its resource up to
//! and including the one that made it, as `replay` counts them.

use std::collections::HashMap;

use super::form::{self, Call, Entry, Obj};
use super::object_names::Names;
use crate::syntax::ast::{Call as WrittenCall, CallContext, Declaration, Method, Statement};

/// Writes statements in order, naming instances as their maps appear.
pub(super) struct Out<'a> {
    pub(super) statements: Vec<(usize, Statement)>,
    pub(super) names: &'a mut Names,
    pub(super) counts: HashMap<Obj, u32>,
    pub(super) not_written: Vec<&'static str>,
    pub(super) broken: Option<String>,
    /// Each texture's minimum LOD as the text has set it so far (0 until a call sets it).
    pub(super) lods: HashMap<Obj, f32>,
    /// The back buffer each swap-chain view is on in the text, where the setup, a pin or an
    /// accepted placement put it since the last legacy present (unknown otherwise). Never a
    /// wrong place: a pin is left out only where this says the view is there already.
    pub(super) places: HashMap<Obj, u32>,
    /// The immediate context's presents move the views (legacy semantics, R-EX-7).
    pub(super) legacy_presents: bool,
}

impl Out<'_> {
    pub(super) fn call(&mut self, context: &CallContext, call: &Call) {
        if let Method::Map {
            resource,
            map_type: recorder::MapType::WriteDiscard,
            instance,
            ..
        } = call
        {
            let k = self.counts.entry(*resource).or_insert(0);
            *k += 1;
            if let Some(instance) = instance {
                self.names.instances.insert(*instance, *k);
            }
        }
        match call {
            // The application's own may be refused: the view's place is unknown after it, until
            // the capture says where it went (`Entry::Placed`).
            Method::PlaceSwapChainView { view, .. } => {
                self.places.remove(view);
            }
            // A legacy present moves the views; a fast one leaves them.
            Method::Present { .. } if self.legacy_presents => self.places.clear(),
            _ => {}
        }
        if let Method::SetResourceMinLod { resource, min_lod } = call {
            // A value the engine refuses changes nothing.
            if min_lod.is_finite() && *min_lod >= 0.0 {
                self.lods.insert(*resource, *min_lod);
            }
        }
        let method = form::written(call, &*self.names);
        self.push(context, method);
    }

    /// Writes calls that set a context's state from a snapshot (a carried state, the immediate
    /// context's start). Its `set_resource_min_lod` calls pin the LOD the next binds copy
    /// (`log::legacy_state_calls`): each is written only where the text's value differs, and
    /// the text's value is put back after the block, so that the rest of the text reads the
    /// LODs it set itself.
    pub(super) fn state_block<'c>(
        &mut self,
        context: &CallContext,
        calls: impl IntoIterator<Item = &'c Call>,
    ) {
        let mut restore: Vec<(Obj, f32)> = Vec::new();
        for call in calls {
            if let Method::SetResourceMinLod { resource, min_lod } = call {
                let now = self.lods.get(resource).copied().unwrap_or(0.0);
                if now.to_bits() == min_lod.to_bits() {
                    continue;
                }
                if !restore.iter().any(|(r, _)| r == resource) {
                    restore.push((*resource, now));
                }
            }
            if let Method::PlaceSwapChainView { view, index } = call {
                // A device call, on `imm` (`frame_start::pin_swap_chain_views`), always written
                // (it puts the view back after the block too).
                self.places.insert(*view, *index);
                let method = form::written(call, &*self.names);
                self.push(&CallContext::Immediate, method);
                continue;
            }
            self.call(context, call);
        }
        for (resource, min_lod) in restore {
            self.call(context, &Method::SetResourceMinLod { resource, min_lod });
        }
    }

    pub(super) fn push(&mut self, context: &CallContext, method: Method) {
        let line = self.statements.len() + 1;
        self.statements.push((
            line,
            Statement::Call(WrittenCall {
                context: context.clone(),
                method,
            }),
        ));
    }

    pub(super) fn entry(&mut self, context: &CallContext, entry: &Entry) {
        match entry {
            Entry::Call(call) => self.call(context, call),
            Entry::Write {
                resource,
                offset,
                bytes,
            } => {
                let resource = self.names.name(*resource);
                self.push(
                    context,
                    Method::Write {
                        resource,
                        offset: *offset as u64,
                        bytes: bytes.to_vec(),
                    },
                );
            }
            Entry::NotWritten(what) => self.not_written.push(what),
            // A pin (`Tap::pin_views`): a device call, on `imm`, where the text has the view
            // elsewhere; the immediate context's line orders it (a threaded replay waits for
            // every worker there).
            Entry::Pin { view, index } => {
                if self.places.insert(*view, *index) != Some(*index) {
                    let call = Method::PlaceSwapChainView {
                        view: *view,
                        index: *index,
                    };
                    let method = form::written(&call, &*self.names);
                    self.push(&CallContext::Immediate, method);
                }
            }
            Entry::Placed { view, index } => {
                self.places.insert(*view, *index);
            }
        }
    }

    pub(super) fn declare(&mut self, declaration: Declaration) {
        let line = self.statements.len() + 1;
        self.statements
            .push((line, Statement::Declaration(declaration)));
    }
}
