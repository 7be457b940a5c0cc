//! The names a captured frame's objects and dynamic instances take in its trace, and the
//! digest of its draw records in those names (R-CAP-6).
//!
//! **In:** the objects the frame uses, the capture's registry (names taken in earlier frames),
//! the device's creation names. **Out:** [`Names`] (an engine object's trace name, a dynamic
//! instance's number: the order its map statement has in the text), the objects in declaration
//! order. **Invariant:** the same recording names its objects the same on every run: names are
//! taken in creation order, then kind and handle, never in an order threads decide.

use std::collections::{HashMap, HashSet};
use std::fmt;

use recorder::command::InstanceId;
use recorder::{Device, Handle, ObjectKind, RawHandle, RenderTargetView, SwapChain, Texture};

use super::form::{self, Call, Entry, Namer, Obj};
use super::object_declaration::{deps, is_dynamic, kind_rank};
use super::records::{kind_prefix, Registry};
use crate::Name;
use executor::DrawRecord;
use executor::ObjectNamer;

/// Trace names of engine objects and dynamic instances.
#[derive(Default)]
pub(crate) struct Names {
    pub(super) objects: HashMap<Obj, Name>,
    pub(super) dynamic: HashSet<Obj>,
    pub(super) instances: HashMap<InstanceId, u32>,
}

impl Names {
    pub(super) fn name(&self, object: Obj) -> Name {
        self.objects
            .get(&object)
            .cloned()
            .unwrap_or_else(|| fallback(object))
    }
}

pub(super) fn fallback(object: Obj) -> Name {
    let text = match object {
        Obj::Engine(kind, raw) => format!("{}{}", kind_prefix(kind), raw.to_bits()),
        Obj::Fence(value) => format!("fence_{value}"),
        Obj::List(id) => format!("list_{id}"),
        Obj::ContextState(serial) => format!("context_state_{serial}"),
    };
    Name::new(&text).unwrap_or_else(|| Name::new("object").unwrap_or_else(|| unreachable!()))
}

impl Namer for Names {
    fn name(&self, object: Obj) -> Name {
        Names::name(self, object)
    }
}

impl ObjectNamer for Names {
    fn write_object(
        &self,
        f: &mut fmt::Formatter<'_>,
        kind: ObjectKind,
        handle: RawHandle,
        instance: InstanceId,
    ) -> fmt::Result {
        let object = Obj::Engine(kind, handle);
        f.write_str(self.name(object).as_str())?;
        if let Some(address) = instance.placement() {
            // A placed binding (R-FX-2), as the replay names it.
            return write!(f, "@{address:#x}");
        }
        if !self.dynamic.contains(&object) {
            return Ok(());
        }
        match instance {
            InstanceId::INITIAL => f.write_str("#0"),
            instance => match self.instances.get(&instance) {
                Some(k) => write!(f, "#{k}"),
                None => f.write_str("#?"),
            },
        }
    }
}

/// The records as `replay --records` names them, and the digest `replay` prints for them.
pub(crate) fn digest(records: &[DrawRecord], names: &Names) -> (Vec<String>, u64) {
    let lines: Vec<String> = records
        .iter()
        .map(|r| r.display_with(names).to_string())
        .collect();
    let digest = crate::replay::digest_of(&lines);
    (lines, digest)
}

/// Every object a call names.
pub(super) fn objects_of(call: &Call, out: &mut Vec<Obj>) {
    struct Collect<'a>(std::cell::RefCell<&'a mut Vec<Obj>>);
    impl Namer for Collect<'_> {
        fn name(&self, object: Obj) -> Name {
            self.0.borrow_mut().push(object);
            fallback(object)
        }
    }
    let collect = Collect(std::cell::RefCell::new(out));
    let _ = form::written(call, &collect);
}

/// Every object an entry names.
pub(super) fn entry_objects(entry: &Entry, out: &mut Vec<Obj>) {
    match entry {
        Entry::Call(call) => objects_of(call, out),
        Entry::Write { resource, .. } => out.push(*resource),
        Entry::Pin { view, .. } | Entry::Placed { view, .. } => out.push(*view),
        Entry::NotWritten(_) => {}
    }
}

/// Where `object` was made by the capture's clock (`u64::MAX`: outside the capture).
pub(super) fn creation_seq(registry: &Registry, object: Obj) -> u64 {
    match object {
        Obj::Engine(kind, raw) => registry.get(kind, raw).map_or(u64::MAX, |r| r.seq),
        _ => u64::MAX,
    }
}

/// Names every used object: the registry's name, else the device's creation name for an object
/// made outside the capture (registered now, so a later frame keeps it). Returns the names and
/// the objects by creation (then kind and handle).
pub(super) fn name_objects(
    device: &Device,
    registry: &mut Registry,
    used: &HashSet<Obj>,
) -> (Names, Vec<Obj>) {
    let mut names = Names::default();
    let mut order: Vec<(u64, u8, RawHandle, Obj)> = Vec::new();
    // In a fixed order (creation order, then kind and handle for objects made outside the
    // capture), so that names taken for those are the same on every run.
    let mut by_creation: Vec<Obj> = used.iter().copied().collect();
    by_creation.sort_by_key(|o| match *o {
        Obj::Engine(kind, raw) => (creation_seq(registry, *o), kind_rank(kind), raw.to_bits()),
        _ => (u64::MAX, u8::MAX, 0),
    });
    // A swap chain made outside the capture, with its back buffers and their views, named as
    // its declaration names them (`NAME.K`, `NAME.K.rtv`), before any of them is named alone.
    for object in &by_creation {
        if let Obj::Engine(kind, raw) = *object {
            if registry.get(kind, raw).is_none() {
                if let Some(chain) = chain_of(device, kind, raw) {
                    name_chain(device, registry, chain);
                }
            }
        }
    }
    for object in &by_creation {
        let Obj::Engine(kind, raw) = *object else {
            continue;
        };
        let name = match registry.get(kind, raw) {
            Some(record) => record.name.clone(),
            None => {
                let wanted = device
                    .object_name(kind, raw)
                    .name
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                let name = registry.unique_name(&wanted, kind_prefix(kind));
                registry.insert(kind, raw, name.clone(), Vec::new(), u64::MAX);
                name
            }
        };
        names.objects.insert(*object, name);
        // A dynamic buffer the device destroyed since (a fast list's binding keeps no
        // reference) is declared as it was released, dynamic, and named so in the replay.
        let released_dynamic = matches!(
            registry.get(kind, raw).and_then(|r| r.snapshot.as_ref()),
            Some(crate::syntax::ast::Declaration::Buffer {
                usage: recorder::Usage::Dynamic,
                ..
            })
        );
        if released_dynamic || is_dynamic(device, *object) {
            names.dynamic.insert(*object);
        }
        order.push((
            creation_seq(registry, *object),
            kind_rank(kind),
            raw,
            *object,
        ));
    }
    order.sort_by_key(|(seq, kind, raw, _)| (*seq, *kind, raw.to_bits()));
    (
        names,
        order.into_iter().map(|(_, _, _, object)| object).collect(),
    )
}

/// The swap chain whose declaration makes object `raw` of `kind` (the chain, one of its back
/// buffers or their views), if any.
fn chain_of(device: &Device, kind: ObjectKind, raw: RawHandle) -> Option<SwapChain> {
    match kind {
        ObjectKind::SwapChain => Some(SwapChain::from_raw(raw)),
        ObjectKind::Texture => device
            .texture_info(Texture::from_raw(raw))
            .and_then(|info| info.back_buffer)
            .map(|(chain, _)| chain),
        ObjectKind::RenderTargetView => {
            let (chain, _) = device.swap_chain_view_buffer(RenderTargetView::from_raw(raw))?;
            let info = device.swap_chain_info(chain)?;
            info.buffers
                .iter()
                .any(|(_, view)| view.raw() == raw)
                .then_some(chain)
        }
        _ => None,
    }
}

/// Names a swap chain made outside the capture and, as its declaration does, its back buffers
/// `NAME.K` and their views `NAME.K.rtv` (`device::register_chain` for one made through it).
fn name_chain(device: &Device, registry: &mut Registry, chain: SwapChain) {
    let Some(info) = device.swap_chain_info(chain) else {
        return;
    };
    let base = match registry.get(ObjectKind::SwapChain, chain.raw()) {
        Some(record) => record.name.to_string(),
        None => {
            let wanted = device
                .object_name(ObjectKind::SwapChain, chain.raw())
                .name
                .map(|n| n.to_string())
                .unwrap_or_default();
            let name = registry.unique_name(&wanted, kind_prefix(ObjectKind::SwapChain));
            let base = name.to_string();
            registry.insert(
                ObjectKind::SwapChain,
                chain.raw(),
                name,
                Vec::new(),
                u64::MAX,
            );
            base
        }
    };
    let obj = Obj::Engine(ObjectKind::SwapChain, chain.raw());
    for (k, (texture, view)) in info.buffers.iter().enumerate() {
        for (kind, raw, name) in [
            (ObjectKind::Texture, texture.raw(), format!("{base}.{k}")),
            (
                ObjectKind::RenderTargetView,
                view.raw(),
                format!("{base}.{k}.rtv"),
            ),
        ] {
            if registry.get(kind, raw).is_none() {
                let name = registry.taken_name(name);
                registry.insert(kind, raw, name, vec![obj], u64::MAX);
            }
        }
    }
}

/// The order the declarations take: creation order puts what an object depends on first,
/// except for objects made outside the capture (ordered by kind): a walk puts each one's
/// dependencies before it.
pub(super) fn declaration_order(
    device: &Device,
    registry: &Registry,
    used: &HashSet<Obj>,
    order: &[Obj],
) -> Vec<Obj> {
    let mut declared: HashSet<Obj> = HashSet::new();
    let mut visiting: HashSet<Obj> = HashSet::new();
    let mut sorted = Vec::with_capacity(order.len());
    for object in order {
        let mut stack = vec![(*object, false)];
        while let Some((object, expanded)) = stack.pop() {
            if declared.contains(&object) {
                continue;
            }
            if expanded {
                declared.insert(object);
                sorted.push(object);
                continue;
            }
            if !visiting.insert(object) {
                continue; // a cycle (none is made by the engine): declared where it closes
            }
            stack.push((object, true));
            for dep in deps(device, registry, object) {
                if used.contains(&dep) && !declared.contains(&dep) {
                    stack.push((dep, false));
                }
            }
        }
    }
    sorted
}
