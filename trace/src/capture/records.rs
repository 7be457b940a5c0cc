//! The capture's resource records (R-CAP-3): every object created through the capture's
//! device, with the declaration that makes it again, the objects it depends on, and when it was
//! created and released.
//!
//! **In:** the device wrapper's creations and releases (any thread, under one lock: creation is
//! not the recording hot path). **Out:** a trace name per object, and, when a frame is written,
//! the declarations of the objects it uses and what those depend on (a view's resource, a
//! placed resource's heap, a swap chain's buffers' chain), in creation order.
//!
//! **Names.** An object's trace name is its creation name made a trace name: characters
//! outside `[A-Za-z0-9_]` become `_` (so a `.` never appears: the dotted names are the swap
//! chains' `NAME.K` and `NAME.K.rtv`), a leading digit or an empty name gets the kind's prefix,
//! a reserved word gets a trailing `_`, and a name already taken gets `_2`, `_3`, …

use std::collections::{HashMap, HashSet};

use recorder::{ObjectKind, RawHandle};

use super::form::Obj;
use crate::Name;

/// The prefix of a generated name, by kind: what [`Registry::unique_name`] puts before a name
/// that is empty or starts with a digit, and the name of an object with no record.
pub(crate) fn kind_prefix(kind: ObjectKind) -> &'static str {
    match kind {
        ObjectKind::Buffer => "buffer_",
        ObjectKind::Texture => "texture_",
        ObjectKind::ShaderResourceView => "srv_",
        ObjectKind::UnorderedAccessView => "uav_",
        ObjectKind::RenderTargetView => "rtv_",
        ObjectKind::DepthStencilView => "dsv_",
        ObjectKind::Shader => "shader_",
        ObjectKind::InputLayout => "layout_",
        ObjectKind::BlendState => "blend_",
        ObjectKind::RasterizerState => "rasterizer_",
        ObjectKind::DepthStencilState => "depth_stencil_",
        ObjectKind::SamplerState => "sampler_",
        ObjectKind::Query => "query_",
        ObjectKind::SwapChain => "swapchain_",
        ObjectKind::Bundle => "bundle_",
        ObjectKind::Heap => "heap_",
    }
}

/// One object's record.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    /// Creation order: the capture's clock when it was made (`u64::MAX`: made outside the
    /// capture, first seen when a frame was written).
    pub seq: u64,
    pub name: Name,
    /// What the object needs declared first.
    pub deps: Vec<Obj>,
    /// The capture's clock when the application released it.
    pub released: Option<u64>,
    /// Its declaration when it was released, for a frame written after it is destroyed.
    pub snapshot: Option<crate::syntax::ast::Declaration>,
}

/// The records of one capture's device.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    objects: HashMap<(ObjectKind, RawHandle), Record>,
    taken: HashSet<String>,
}

impl Registry {
    /// A trace name for an object the application named `wanted`, unique in the capture.
    pub(crate) fn unique_name(&mut self, wanted: &str, prefix: &str) -> Name {
        let mut base: String = wanted
            .chars()
            .map(|c| match c {
                'A'..='Z' | 'a'..='z' | '0'..='9' | '_' => c,
                _ => '_',
            })
            .collect();
        if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            base = format!("{prefix}{base}");
        }
        if crate::syntax::symbols::RESERVED.contains(&base.as_str()) {
            base.push('_');
        }
        let mut name = base.clone();
        let mut k = 2;
        while self.taken.contains(&name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        self.taken_name(name)
    }

    /// Takes `name` exactly (a swap chain's `NAME.K`), which the caller made unique.
    pub(crate) fn taken_name(&mut self, name: String) -> Name {
        let made = Name::new(&name);
        self.taken.insert(name);
        // The sanitising above leaves only name characters after a letter or `_`.
        made.unwrap_or_else(|| Name::new("object").unwrap_or_else(|| unreachable!("a name")))
    }

    /// Records an object made.
    pub(crate) fn insert(
        &mut self,
        kind: ObjectKind,
        raw: RawHandle,
        name: Name,
        deps: Vec<Obj>,
        seq: u64,
    ) {
        self.objects.insert(
            (kind, raw),
            Record {
                seq,
                name,
                deps,
                released: None,
                snapshot: None,
            },
        );
    }

    /// Marks an object released (its record stays: a list or a bundle may still name it).
    pub(crate) fn release(
        &mut self,
        kind: ObjectKind,
        raw: RawHandle,
        seq: u64,
        snapshot: Option<crate::syntax::ast::Declaration>,
    ) -> Option<&Record> {
        let record = self.objects.get_mut(&(kind, raw))?;
        if record.snapshot.is_none() {
            record.snapshot = snapshot;
        }
        if record.released.is_none() {
            record.released = Some(seq);
        }
        Some(record)
    }

    pub(crate) fn get(&self, kind: ObjectKind, raw: RawHandle) -> Option<&Record> {
        self.objects.get(&(kind, raw))
    }

    /// Every live object (the "declare every live object" option).
    pub(crate) fn live(&self) -> impl Iterator<Item = Obj> + '_ {
        self.objects
            .iter()
            .filter(|(_, r)| r.released.is_none())
            .map(|((kind, raw), _)| Obj::Engine(*kind, *raw))
    }

    /// Forgets the records of objects released before `seq` that no capture can need any
    /// more: those nothing else depends on. (Called at the start of a frame capture: a list
    /// or bundle from before could still name a released object, so only objects released
    /// before the previous frame capture are dropped.)
    pub(crate) fn prune(&mut self, before: u64) {
        let needed: HashSet<Obj> = self
            .objects
            .values()
            .flat_map(|r| r.deps.iter().copied())
            .collect();
        self.objects.retain(|(kind, raw), r| {
            r.released.is_none_or(|at| at >= before) || needed.contains(&Obj::Engine(*kind, *raw))
        });
    }
}

/// The registry's names, for a declaration made outside a frame (a release's snapshot).
impl super::form::Namer for Registry {
    fn name(&self, object: Obj) -> Name {
        match object {
            Obj::Engine(kind, raw) => self.get(kind, raw).map(|r| r.name.clone()),
            _ => None,
        }
        .unwrap_or_else(|| Name::new("unknown").unwrap_or_else(|| unreachable!("a name")))
    }
}
