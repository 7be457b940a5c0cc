//! A captured frame written as a trace (R-CAP-3), and the digest of its draw records in the
//! trace's names (R-CAP-6).
//!
//! **In:** what the immediate context kept of the frame ([`Frame`]): its calls, the lists it
//! executed (each carrying its calls and its nested lists'), the state it started from; the
//! bundles' recordings; the device and the capture's records. **Out:** the trace text and the
//! names the draw records take in it (objects by their trace names, a dynamic instance by the
//! order its map statement has in the text), so the live frame's digest is computed exactly as
//! `replay` computes the trace's.
//!
//! **Order of the text.** `device`; the declarations (creation order; objects created outside
//! the capture after the recorded ones, dependencies first); the contexts and bundle recorders;
//! presents bringing each swap chain to the frame's back buffer; fences the frame waits on but
//! did not insert, inserted. Then every kept call of every context in the order it was made, by
//! the capture's clock (one counter that each kept call, finish, creation and release ticks, so
//! a call that happened before another on any thread comes first): bundles' recordings, each
//! list's calls and its `finish` (nested lists thus before the lists that execute them, a
//! context's lists in recording order), releases where they happened, the immediate context's
//! state at the frame's start (as calls) where the frame began, and the frame's own calls. So a
//! call that depends on what another context did first (a minimum LOD a list encodes, a fence a
//! list waits on, an object released meanwhile) sees it in the replay too. A list whose
//! context's previous list in the text is not its predecessor starts from a `clear_state` and
//! the state it carried, so nothing of another list leaks in.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use recorder::command::InstanceId;
use recorder::{
    Buffer, Device, Handle, Heap, InputLayout, ObjectKind, Query, RawHandle, Resource, Shader,
    ShaderResourceView, SwapChain, Texture, Usage,
};

use super::form::{self, Call, Entry, Namer, Obj};
use super::log::{BundleLog, ListLog};
use super::records::{kind_prefix, Registry};
use crate::syntax::ast::{
    Call as WrittenCall, CallContext, Declaration, Method, Placement, SlotRange, SlotSet,
    Statement, Trace,
};
use crate::Name;
use executor::DrawRecord;
use executor::ObjectNamer;

/// What the immediate context kept of one frame.
pub(crate) struct Frame {
    /// Calls that set the state the frame starts from, always written.
    pub setup: Vec<Call>,
    /// Calls written only when the frame uses their object (a dynamic instance current at the
    /// start, a minimum LOD, a compression state).
    pub setup_if_used: Vec<(Obj, Vec<Call>)>,
    /// Objects whose state at the frame's start no call gives, and why (R-FX-3): the frame
    /// cannot be written if it predicates on one.
    pub unwritable: Vec<(Obj, String)>,
    /// The frame's calls on the immediate context, and the capture's clock at each.
    pub entries: Vec<Entry>,
    pub seqs: Vec<u64>,
    /// Releases during the frame, with the capture's clock at each.
    pub releases: Vec<(Obj, u64)>,
    /// The lists executed on the immediate context.
    pub lists: Vec<Arc<ListLog>>,
    /// The bundles it called.
    pub bundles: Vec<Obj>,
    /// The capture's clock at the frame's start (where its setup goes).
    pub start_seq: u64,
}

/// The trace and how its objects and instances are named.
pub(crate) struct Written {
    pub text: String,
    pub names: Names,
    pub not_written: Vec<&'static str>,
}

/// Trace names of engine objects and dynamic instances.
#[derive(Default)]
pub(crate) struct Names {
    objects: HashMap<Obj, Name>,
    dynamic: HashSet<Obj>,
    instances: HashMap<InstanceId, u32>,
}

impl Names {
    fn name(&self, object: Obj) -> Name {
        self.objects
            .get(&object)
            .cloned()
            .unwrap_or_else(|| fallback(object))
    }
}

fn fallback(object: Obj) -> Name {
    let text = match object {
        Obj::Engine(kind, raw) => format!("{}{}", kind_prefix(kind), raw.to_bits()),
        Obj::Fence(value) => format!("fence_{value}"),
        Obj::List(id) => format!("list_{id}"),
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
fn objects_of(call: &Call, out: &mut Vec<Obj>) {
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

/// The queries the frame predicates on (`set_predication`, `set_predication_from_query`): the
/// only ones whose samples passed draw records read (R-FX-3).
fn predicates(frame: &Frame, lists: &[Arc<ListLog>]) -> HashSet<Obj> {
    let calls = frame
        .setup
        .iter()
        .chain(frame.entries.iter().filter_map(|e| match e {
            Entry::Call(call) => Some(call),
            _ => None,
        }));
    let list_calls = lists.iter().flat_map(|list| {
        list.carried
            .iter()
            .flatten()
            .chain(list.entries.iter().filter_map(|e| match e {
                Entry::Call(call) => Some(call),
                _ => None,
            }))
    });
    calls
        .chain(list_calls)
        .filter_map(|call| match call {
            Method::SetPredication { predicate, .. } => *predicate,
            Method::SetPredicationFromQuery { query, .. } => *query,
            _ => None,
        })
        .collect()
}

fn entry_objects(entry: &Entry, out: &mut Vec<Obj>) {
    match entry {
        Entry::Call(call) => objects_of(call, out),
        Entry::Write { resource, .. } => out.push(*resource),
        Entry::NotWritten(_) => {}
    }
}

/// The lists `lists` reach, nested ones included, each once: by context (in creation order) and
/// each context's lists in recording order, a nested list before the list that executes it.
/// Nothing here depends on which thread finished first, so the same recording writes the same
/// text (and names its instances the same) on every run.
fn all_lists(lists: &[Arc<ListLog>]) -> Vec<Arc<ListLog>> {
    let mut reached: BTreeMap<u64, Arc<ListLog>> = BTreeMap::new();
    let mut stack: Vec<Arc<ListLog>> = lists.to_vec();
    while let Some(list) = stack.pop() {
        if reached.contains_key(&list.id) {
            continue;
        }
        stack.extend(list.nested.iter().cloned());
        reached.insert(list.id, list);
    }
    let mut sorted: Vec<Arc<ListLog>> = reached.into_values().collect();
    sorted.sort_by_key(|l| (l.context.serial, l.ordinal));
    let mut written: HashSet<u64> = HashSet::new();
    let mut out = Vec::with_capacity(sorted.len());
    for list in &sorted {
        // Depth first, nested lists before their executor (no list nests itself: it is
        // finished before anything can execute it, so the walk ends).
        let mut walk = vec![(list.clone(), false)];
        while let Some((list, expanded)) = walk.pop() {
            if written.contains(&list.id) {
                continue;
            }
            if expanded {
                written.insert(list.id);
                out.push(list);
                continue;
            }
            walk.push((list.clone(), true));
            let mut nested: Vec<Arc<ListLog>> = list.nested.to_vec();
            nested.sort_by_key(|l| std::cmp::Reverse((l.context.serial, l.ordinal)));
            walk.extend(nested.into_iter().map(|l| (l, false)));
        }
    }
    out
}

/// Where an object made outside the capture goes among its kind's peers: what others depend on
/// first (heaps, resources, swap chains, then views, then the rest).
fn kind_rank(kind: ObjectKind) -> u8 {
    match kind {
        ObjectKind::Heap => 0,
        ObjectKind::Buffer => 1,
        ObjectKind::Texture => 2,
        ObjectKind::SwapChain => 3,
        ObjectKind::ShaderResourceView => 4,
        ObjectKind::UnorderedAccessView => 5,
        ObjectKind::RenderTargetView => 6,
        ObjectKind::DepthStencilView => 7,
        other => 8 + other as u8,
    }
}

/// The objects an object needs declared before it.
fn deps(device: &Device, registry: &Registry, object: Obj) -> Vec<Obj> {
    let Obj::Engine(kind, raw) = object else {
        return Vec::new();
    };
    let mut out: Vec<Obj> = registry
        .get(kind, raw)
        .map(|r| r.deps.clone())
        .unwrap_or_default();
    let resource_deps = |resource: Resource, out: &mut Vec<Obj>| {
        if let Some(placement) = device.placement(resource) {
            out.push(Obj::Engine(ObjectKind::Heap, placement.heap.raw()));
        }
    };
    match kind {
        ObjectKind::Buffer => resource_deps(Resource::Buffer(Buffer::from_raw(raw)), &mut out),
        ObjectKind::Texture => {
            let texture = Texture::from_raw(raw);
            resource_deps(Resource::Texture(texture), &mut out);
            if let Some((chain, _)) = device.texture_info(texture).and_then(|i| i.back_buffer) {
                out.push(Obj::Engine(ObjectKind::SwapChain, chain.raw()));
            }
        }
        ObjectKind::ShaderResourceView
        | ObjectKind::UnorderedAccessView
        | ObjectKind::RenderTargetView
        | ObjectKind::DepthStencilView => {
            if let Some(info) = view_info(device, kind, raw) {
                out.push(super::log::resource_obj(info.resource));
            }
        }
        _ => {}
    }
    out
}

fn view_info(device: &Device, kind: ObjectKind, raw: RawHandle) -> Option<recorder::ViewInfo> {
    match kind {
        ObjectKind::ShaderResourceView => device.view_info(ShaderResourceView::from_raw(raw)),
        ObjectKind::UnorderedAccessView => {
            device.view_info(recorder::UnorderedAccessView::from_raw(raw))
        }
        ObjectKind::RenderTargetView => device.view_info(recorder::RenderTargetView::from_raw(raw)),
        ObjectKind::DepthStencilView => device.view_info(recorder::DepthStencilView::from_raw(raw)),
        _ => None,
    }
}

fn slot_set(bits: u128) -> Option<SlotSet> {
    let mut ranges = Vec::new();
    let mut slot = 0u64;
    while slot < 128 {
        if bits >> slot & 1 == 1 {
            let first = slot;
            while slot + 1 < 128 && bits >> (slot + 1) & 1 == 1 {
                slot += 1;
            }
            ranges.push(SlotRange { first, last: slot });
        }
        slot += 1;
    }
    (!ranges.is_empty()).then_some(SlotSet(ranges))
}

/// The declaration that makes `object` again (`Ok(None)`: another declaration makes it, or it
/// is declared elsewhere: bundles); `Err`: the device no longer knows it.
pub(crate) fn declaration(
    device: &Device,
    names: &dyn Namer,
    object: Obj,
    registered: bool,
) -> Result<Option<Declaration>, String> {
    let Obj::Engine(kind, raw) = object else {
        return Ok(None);
    };
    let name = names.name(object);
    let shown = name.to_string();
    let gone = || format!("{} {shown} is no longer known to the device", kind.name());
    let placement = |resource: Resource| {
        device.placement(resource).map(|p| Placement {
            heap: names.name(Obj::Engine(ObjectKind::Heap, p.heap.raw())),
            offset: p.offset,
        })
    };
    Ok(Some(match kind {
        ObjectKind::Buffer => {
            let buffer = Buffer::from_raw(raw);
            let info = device.buffer_info(buffer).ok_or_else(gone)?;
            Declaration::Buffer {
                name,
                usage: info.usage,
                bind: info.bind,
                size: info.size as u64,
                uav_flag: (info.uav_flag != recorder::UavFlag::None).then_some(info.uav_flag),
                placement: placement(Resource::Buffer(buffer)),
            }
        }
        ObjectKind::Texture => {
            let texture = Texture::from_raw(raw);
            let info = device.texture_info(texture).ok_or_else(gone)?;
            if info.back_buffer.is_some() {
                return Ok(None);
            }
            Declaration::Texture {
                name,
                format: form::format(info.format),
                width: info.width as u64,
                height: info.height as u64,
                mips: (info.mip_levels != 1).then_some(info.mip_levels as u64),
                array: (info.array_size != 1).then_some(info.array_size as u64),
                samples: (info.sample_count != 1).then_some(info.sample_count as u64),
                bind: info.bind,
                compressible: (!info.compressible).then_some(false),
                tc: info.texture_compatible.then_some(true),
                dcc: info.dcc.then_some(true),
                placement: placement(Resource::Texture(texture)),
            }
        }
        ObjectKind::Heap => Declaration::Heap {
            name,
            size: device.heap_size(Heap::from_raw(raw)).ok_or_else(gone)?,
        },
        ObjectKind::ShaderResourceView
        | ObjectKind::UnorderedAccessView
        | ObjectKind::RenderTargetView
        | ObjectKind::DepthStencilView => {
            let info = view_info(device, kind, raw).ok_or_else(gone)?;
            let resource = names.name(super::log::resource_obj(info.resource));
            match kind {
                ObjectKind::ShaderResourceView => Declaration::ShaderResourceView {
                    name,
                    resource,
                    // A view the capture saw made gets its value at the frame's start from the
                    // setup (`set_shader_resource_view_min_lod`); one made outside, its value now.
                    min_lod: match registered {
                        true => None,
                        false => device
                            .shader_resource_view_min_lod(ShaderResourceView::from_raw(raw))
                            .filter(|lod| *lod != 0.0),
                    },
                },
                ObjectKind::UnorderedAccessView => {
                    Declaration::UnorderedAccessView { name, resource }
                }
                ObjectKind::RenderTargetView => {
                    if let Resource::Texture(t) = info.resource {
                        if device
                            .texture_info(t)
                            .is_some_and(|i| i.back_buffer.is_some())
                        {
                            return Ok(None);
                        }
                    }
                    Declaration::RenderTargetView { name, resource }
                }
                _ => Declaration::DepthStencilView { name, resource },
            }
        }
        ObjectKind::Shader => {
            let info = device.shader_info(Shader::from_raw(raw)).ok_or_else(gone)?;
            Declaration::Shader {
                name,
                stage: info.stage,
                constant_buffers: slot_set(info.constant_buffers.bits()),
                shader_resources: slot_set(info.shader_resources.bits()),
                samplers: slot_set(info.samplers.bits()),
                unordered_access_views: slot_set(info.unordered_access_views.bits()),
                stream_output: info.stream_output.then_some(true),
            }
        }
        ObjectKind::InputLayout => Declaration::InputLayout {
            name,
            vertex_buffers: slot_set(
                device
                    .input_layout_slots(InputLayout::from_raw(raw))
                    .ok_or_else(gone)?
                    .bits(),
            ),
        },
        ObjectKind::BlendState => Declaration::BlendState { name },
        ObjectKind::RasterizerState => Declaration::RasterizerState { name },
        ObjectKind::DepthStencilState => Declaration::DepthStencilState { name },
        ObjectKind::SamplerState => Declaration::SamplerState { name },
        ObjectKind::Query => match device.query_kind(Query::from_raw(raw)).ok_or_else(gone)? {
            recorder::QueryKind::Predicate => Declaration::Predicate { name },
            kind => Declaration::Query { name, kind },
        },
        ObjectKind::SwapChain => {
            let info = device
                .swap_chain_info(SwapChain::from_raw(raw))
                .ok_or_else(gone)?;
            Declaration::Swapchain {
                name,
                buffers: info.buffers.len() as u64,
                format: form::format(info.format),
                width: info.width as u64,
                height: info.height as u64,
            }
        }
        ObjectKind::Bundle => return Ok(None),
    }))
}

/// Whether `object` is a dynamic resource (its records name instances).
fn is_dynamic(device: &Device, object: Obj) -> bool {
    dynamic_buffer(device, object).is_some()
}

/// The dynamic buffer whose instances `object`'s records name: itself, or a view's buffer.
fn dynamic_buffer(device: &Device, object: Obj) -> Option<Obj> {
    let Obj::Engine(kind, raw) = object else {
        return None;
    };
    let buffer = match kind {
        ObjectKind::Buffer => Buffer::from_raw(raw),
        _ => match view_info(device, kind, raw)?.resource {
            Resource::Buffer(buffer) => buffer,
            Resource::Texture(_) => return None,
        },
    };
    let dynamic = device
        .buffer_info(buffer)
        .is_some_and(|i| i.usage == Usage::Dynamic);
    dynamic.then_some(Obj::Engine(ObjectKind::Buffer, buffer.raw()))
}

/// The instances a call's write_discard map made.
fn made_instance(call: &Call, out: &mut HashSet<InstanceId>) {
    if let Method::Map {
        instance: Some(instance),
        ..
    } = call
    {
        out.insert(*instance);
    }
}

/// The dynamic instances the records read that no map of the trace makes: each was current on
/// the immediate context when the frame began (made by a list or a map before it), so the
/// trace's setup makes one in its place, a write_discard map on the immediate context.
fn instances_from_before(
    device: &Device,
    records: &[DrawRecord],
    made: &HashSet<InstanceId>,
) -> Vec<(Obj, InstanceId)> {
    struct Seen<'a>(std::cell::RefCell<&'a mut Vec<(ObjectKind, RawHandle, InstanceId)>>);
    impl ObjectNamer for Seen<'_> {
        fn write_object(
            &self,
            _: &mut fmt::Formatter<'_>,
            kind: ObjectKind,
            handle: RawHandle,
            instance: InstanceId,
        ) -> fmt::Result {
            if instance != InstanceId::INITIAL && instance.placement().is_none() {
                self.0.borrow_mut().push((kind, handle, instance));
            }
            Ok(())
        }
    }
    let mut seen = Vec::new();
    {
        let namer = Seen(std::cell::RefCell::new(&mut seen));
        for record in records {
            let _ = record.display_with(&namer).to_string();
        }
    }
    let mut out: Vec<(Obj, InstanceId)> = Vec::new();
    for (kind, raw, instance) in seen {
        if made.contains(&instance) {
            continue;
        }
        let Some(buffer) = dynamic_buffer(device, Obj::Engine(kind, raw)) else {
            continue;
        };
        if !out.iter().any(|(b, _)| *b == buffer) {
            out.push((buffer, instance));
        }
    }
    out
}

/// Writes statements in order, naming instances as their maps appear.
struct Out<'a> {
    statements: Vec<(usize, Statement)>,
    names: &'a mut Names,
    counts: HashMap<Obj, u32>,
    not_written: Vec<&'static str>,
    broken: Option<String>,
}

impl Out<'_> {
    fn call(&mut self, context: &CallContext, call: &Call) {
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
        let method = form::written(call, &*self.names);
        self.push(context, method);
    }

    fn push(&mut self, context: &CallContext, method: Method) {
        let line = self.statements.len() + 1;
        self.statements.push((
            line,
            Statement::Call(WrittenCall {
                context: context.clone(),
                method,
            }),
        ));
    }

    fn entry(&mut self, context: &CallContext, entry: &Entry) {
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
                        bytes: bytes.clone(),
                    },
                );
            }
            Entry::NotWritten(what) => self.not_written.push(what),
        }
    }

    fn declare(&mut self, declaration: Declaration) {
        let line = self.statements.len() + 1;
        self.statements
            .push((line, Statement::Declaration(declaration)));
    }
}

/// Writes the frame (see the module essay); `Err` says why it cannot be written.
pub(crate) fn write(
    device: &Device,
    registry: &mut Registry,
    bundles: &HashMap<RawHandle, Arc<BundleLog>>,
    frame: &Frame,
    records: &[DrawRecord],
    all_objects: bool,
) -> Result<Written, String> {
    let lists = all_lists(&frame.lists);
    for list in &lists {
        if let Some(why) = &list.broken {
            return Err(format!(
                "list {} of context '{}': {why}",
                list.id, list.context.name
            ));
        }
    }
    // The bundles called, with their recordings.
    // In the order the text calls them (lists first, as they are written before the frame).
    let mut called: Vec<Obj> = Vec::new();
    for list in &lists {
        called.extend(list.bundles.iter().copied());
    }
    called.extend(frame.bundles.iter().copied());
    let mut bundle_logs: Vec<(Obj, Arc<BundleLog>)> = Vec::new();
    let mut seen_bundles = HashSet::new();
    for bundle in called {
        if !seen_bundles.insert(bundle) {
            continue;
        }
        let Obj::Engine(_, raw) = bundle else {
            continue;
        };
        match bundles.get(&raw) {
            Some(log) => {
                if let Some(why) = &log.broken {
                    return Err(format!("a bundle the frame calls: {why}"));
                }
                bundle_logs.push((bundle, log.clone()));
            }
            None => {
                return Err(
                    "the frame calls a bundle not recorded through the capture's bundle recorder"
                        .to_string(),
                )
            }
        }
    }
    let seq = |registry: &Registry, object: Obj| match object {
        Obj::Engine(kind, raw) => registry.get(kind, raw).map_or(u64::MAX, |r| r.seq),
        _ => u64::MAX,
    };
    // Bundles are named here, in that order (a name taken in an earlier frame stays).
    for (bundle, log) in &bundle_logs {
        if let Obj::Engine(kind, raw) = *bundle {
            if registry.get(kind, raw).is_none() {
                let name = registry.unique_name(&log.name, kind_prefix(kind));
                registry.insert(kind, raw, name, Vec::new(), u64::MAX);
            }
        }
    }

    // Every object named, closed under what each depends on.
    let mut named = Vec::new();
    for call in &frame.setup {
        objects_of(call, &mut named);
    }
    for entry in &frame.entries {
        entry_objects(entry, &mut named);
    }
    for list in &lists {
        for entry in &list.entries {
            entry_objects(entry, &mut named);
        }
        for call in list.carried.iter().flatten() {
            objects_of(call, &mut named);
        }
    }
    for (_, log) in &bundle_logs {
        for entry in &log.entries {
            entry_objects(entry, &mut named);
        }
    }
    if all_objects {
        named.extend(registry.live());
    }
    let mut used: HashSet<Obj> = HashSet::new();
    let mut stack: Vec<Obj> = named
        .into_iter()
        .filter(|o| matches!(o, Obj::Engine(..)))
        .collect();
    while let Some(object) = stack.pop() {
        if used.insert(object) {
            stack.extend(deps(device, registry, object));
        }
    }
    if !frame.unwritable.is_empty() {
        let predicates = predicates(frame, &lists);
        if let Some((_, why)) = frame
            .unwritable
            .iter()
            .find(|(o, _)| predicates.contains(o))
        {
            return Err(why.clone());
        }
    }

    // Names: the registry's, then the device's creation name for objects made outside.
    let mut names = Names::default();
    let mut order: Vec<(u64, u8, RawHandle, Obj)> = Vec::new();
    // In a fixed order (creation order, then kind and handle for objects made outside the
    // capture), so that names taken for those are the same on every run.
    let mut by_creation: Vec<Obj> = used.iter().copied().collect();
    by_creation.sort_by_key(|o| match *o {
        Obj::Engine(kind, raw) => (seq(registry, *o), kind_rank(kind), raw.to_bits()),
        _ => (u64::MAX, u8::MAX, 0),
    });
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
        if is_dynamic(device, *object) {
            names.dynamic.insert(*object);
        }
        order.push((seq(registry, *object), kind_rank(kind), raw, *object));
    }
    order.sort_by_key(|(seq, kind, raw, _)| (*seq, *kind, raw.to_bits()));
    // Creation order puts what an object depends on first, except for objects made outside
    // the capture (ordered by kind): a walk puts each one's dependencies before it.
    let mut declared: HashSet<Obj> = HashSet::new();
    let mut visiting: HashSet<Obj> = HashSet::new();
    let mut sorted = Vec::with_capacity(order.len());
    for (_, _, _, object) in &order {
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
    // Lists by their place in the text (not their finish order, which threads decide).
    for (k, list) in lists.iter().enumerate() {
        names
            .objects
            .insert(Obj::List(list.id), fallback(Obj::List(k as u64 + 1)));
    }

    let mut out = Out {
        statements: Vec::new(),
        names: &mut names,
        counts: HashMap::new(),
        not_written: Vec::new(),
        broken: None,
    };
    let desc = device.desc();
    out.declare(Declaration::Device {
        semantics: desc.immediate_semantics,
        validation: (desc.validation != recorder::Validation::Off).then_some(desc.validation),
        legacy_barriers: (!desc.legacy_barriers).then_some(false),
    });
    for object in &sorted {
        let registered = match *object {
            Obj::Engine(kind, raw) => registry.get(kind, raw).is_some_and(|r| r.seq != u64::MAX),
            _ => false,
        };
        // An object the device no longer knows (destroyed since the frame used it) is declared
        // as it was when the application released it.
        let made =
            declaration(device, &*out.names, *object, registered).or_else(|gone| match *object {
                Obj::Engine(kind, raw) => registry
                    .get(kind, raw)
                    .and_then(|r| r.snapshot.clone())
                    .map(Some)
                    .ok_or(gone),
                _ => Err(gone),
            });
        if let Some(declaration) = made? {
            out.declare(declaration);
        }
    }
    // Contexts, by the capture's number.
    let mut contexts: BTreeMap<u64, (Name, recorder::Semantics, bool)> = BTreeMap::new();
    for list in &lists {
        let info = &list.context;
        if let std::collections::btree_map::Entry::Vacant(slot) = contexts.entry(info.serial) {
            let name = registry.unique_name(&info.name, "context_");
            slot.insert((name, info.semantics, info.title_managed_lifetimes));
        }
    }
    for (name, semantics, title_managed_lifetimes) in contexts.values() {
        out.declare(Declaration::Context {
            name: name.clone(),
            semantics: *semantics,
            title_managed_lifetimes: *title_managed_lifetimes,
        });
    }
    for (bundle, log) in &bundle_logs {
        out.declare(Declaration::Bundle {
            name: out.names.name(*bundle),
            render_targets: log
                .render_targets
                .iter()
                .map(|f| form::format(*f))
                .collect(),
            depth: log.depth.map(form::format),
            samples: (log.samples > 1).then_some(log.samples as u64),
        });
    }

    let imm = CallContext::Immediate;
    // Before everything: swap chains to their back buffer, the fences waited on but not
    // inserted in the text.
    let mut inserted = HashSet::new();
    let mut waited = Vec::new();
    let mut fences = |entry: &Entry| {
        if let Entry::Call(call) = entry {
            match call {
                Method::InsertFence { fence, .. } => {
                    inserted.insert(*fence);
                }
                Method::InsertWaitOnFence { fence, .. } => waited.push(*fence),
                _ => {}
            }
        }
    };
    for list in &lists {
        list.entries.iter().for_each(&mut fences);
    }
    frame.entries.iter().for_each(&mut fences);
    let (presents, state): (Vec<&Call>, Vec<&Call>) = frame
        .setup
        .iter()
        .partition(|c| matches!(c, Method::Present { .. }));
    for call in presents {
        out.call(&imm, call);
    }
    let mut foreign = HashSet::new();
    for fence in waited {
        if !inserted.contains(&fence) && foreign.insert(fence) {
            out.call(
                &imm,
                &Method::InsertFence {
                    fence,
                    engine: recorder::Engine::Graphics,
                    kick_off: false,
                },
            );
        }
    }

    // Then every context's calls in the order they were made (the capture's clock): bundles'
    // recordings, lists' calls and finishes, the releases, the frame's setup at its start, the
    // immediate context's calls. `sub` orders what shares a tick: a list's carried state before
    // its first call.
    enum Item<'a> {
        Bundle(usize, &'a Entry),
        BundleFinish(usize),
        ListStart(usize),
        List(usize, &'a Entry),
        ListFinish(usize),
        Release(Obj),
        Setup,
        Immediate(&'a Entry),
    }
    let mut items: Vec<(u64, u8, Item<'_>)> = Vec::new();
    for (b, (_, log)) in bundle_logs.iter().enumerate() {
        for (entry, seq) in log.entries.iter().zip(&log.seqs) {
            items.push((*seq, 1, Item::Bundle(b, entry)));
        }
        items.push((log.finish_seq, 1, Item::BundleFinish(b)));
    }
    for (l, list) in lists.iter().enumerate() {
        let first = list.seqs.first().copied().unwrap_or(list.finish_seq);
        items.push((first, 0, Item::ListStart(l)));
        for (entry, seq) in list.entries.iter().zip(&list.seqs) {
            items.push((*seq, 1, Item::List(l, entry)));
        }
        items.push((list.finish_seq, 1, Item::ListFinish(l)));
    }
    // Objects gone before the frame that a list or bundle still names, where they went.
    for object in &used {
        if let Obj::Engine(kind, raw) = *object {
            if let Some(at) = registry
                .get(kind, raw)
                .and_then(|r| r.released)
                .filter(|at| *at < frame.start_seq)
            {
                items.push((at, 1, Item::Release(*object)));
            }
        }
    }
    for (object, at) in &frame.releases {
        if used.contains(object) {
            items.push((*at, 1, Item::Release(*object)));
        }
    }
    items.push((frame.start_seq, 1, Item::Setup));
    for (entry, seq) in frame.entries.iter().zip(&frame.seqs) {
        items.push((*seq, 1, Item::Immediate(entry)));
    }
    items.sort_by_key(|(seq, sub, _)| (*seq, *sub));

    let mut made = HashSet::new();
    let entries = lists
        .iter()
        .flat_map(|l| l.entries.iter())
        .chain(frame.entries.iter());
    for entry in entries {
        if let Entry::Call(call) = entry {
            made_instance(call, &mut made);
        }
    }
    for (_, calls) in &frame.setup_if_used {
        calls.iter().for_each(|c| made_instance(c, &mut made));
    }
    let before = instances_from_before(device, records, &made);
    // (ordinal, restore) of each context's last list written.
    let mut last_block: HashMap<u64, (u64, bool)> = HashMap::new();
    let mut carries = 0u32;
    let deferred = |list: &ListLog| {
        let (name, _, _) = &contexts[&list.context.serial];
        CallContext::Deferred(name.clone())
    };
    // A release waits until after the last statement that names the object (a legacy list's
    // carried state may bind it again after the application let it go: the list's reference
    // kept it alive; the replay's bind must come before the replay's release).
    let mut last_named: HashMap<Obj, usize> = HashMap::new();
    {
        let mut names = Vec::new();
        for (at, (_, _, item)) in items.iter().enumerate() {
            names.clear();
            match item {
                Item::Bundle(_, entry) | Item::List(_, entry) | Item::Immediate(entry) => {
                    entry_objects(entry, &mut names)
                }
                Item::ListStart(l) => {
                    for call in lists[*l].carried.iter().flatten() {
                        objects_of(call, &mut names);
                    }
                }
                Item::Setup => {
                    for call in state.iter().copied().chain(
                        frame
                            .setup_if_used
                            .iter()
                            .filter(|(o, _)| used.contains(o))
                            .flat_map(|(_, c)| c.iter()),
                    ) {
                        objects_of(call, &mut names);
                    }
                }
                _ => {}
            }
            for object in &names {
                last_named.insert(*object, at);
            }
        }
    }
    let mut pending: Vec<(usize, Obj)> = Vec::new();
    let count = items.len();
    for (at, (_, _, item)) in items.into_iter().enumerate() {
        if let Item::Release(object) = item {
            pending.push((
                last_named.get(&object).copied().unwrap_or(0).max(at),
                object,
            ));
        }
        match item {
            Item::Bundle(b, entry) => {
                let on = CallContext::BundleRecorder(out.names.name(bundle_logs[b].0));
                out.entry(&on, entry);
            }
            Item::BundleFinish(b) => {
                let on = CallContext::BundleRecorder(out.names.name(bundle_logs[b].0));
                out.push(&on, Method::FinishBundle);
            }
            Item::ListStart(l) => {
                let list = &lists[l];
                let on = deferred(list);
                let previous = last_block.get(&list.context.serial).copied();
                // The replay's context carries the previous list's state in when that one
                // restored; that is this list's own start only when it was its predecessor.
                let continuous = previous.is_some_and(|(ordinal, _)| ordinal + 1 == list.ordinal);
                let restored = previous.is_some_and(|(_, restored)| restored);
                if !continuous && (list.carried.is_some() || restored) {
                    // The state this list started from, carried in the engine's way: a list
                    // of its own, never executed, that sets it and finishes with restore (a
                    // carried binding is not a bind: R-EX-7 gives it no back-buffer affinity).
                    carries += 1;
                    if restored {
                        out.call(&on, &Method::ClearState);
                    }
                    for call in list.carried.iter().flatten() {
                        out.call(&on, call);
                    }
                    let name = Name::new(&format!("carry_{carries}"))
                        .unwrap_or_else(|| unreachable!("carry_N is a name"));
                    match list.carried.is_some() {
                        true => out.push(
                            &on,
                            Method::FinishCommandList {
                                list: name,
                                restore: Some(true),
                            },
                        ),
                        false => out.push(
                            &on,
                            Method::FinishCommandList {
                                list: name,
                                restore: None,
                            },
                        ),
                    }
                }
            }
            Item::List(l, entry) => {
                let on = deferred(&lists[l]);
                out.entry(&on, entry);
            }
            Item::ListFinish(l) => {
                let list = &lists[l];
                let on = deferred(list);
                out.call(
                    &on,
                    &Method::FinishCommandList {
                        list: Obj::List(list.id),
                        restore: list.restore,
                    },
                );
                last_block.insert(list.context.serial, (list.ordinal, list.restore));
            }
            Item::Release(_) => {}
            Item::Setup => {
                // Dynamic instances first: a fast context's slot bound before a map keeps the
                // instance it had (R-ST-8), so the maps come before the binds.
                let (maps, others): (Vec<_>, Vec<_>) = frame
                    .setup_if_used
                    .iter()
                    .filter(|(object, _)| used.contains(object))
                    .flat_map(|(_, calls)| calls.iter())
                    .partition(|c| matches!(c, Method::Map { .. } | Method::Unmap { .. }));
                for call in maps {
                    out.call(&imm, call);
                }
                for (buffer, instance) in &before {
                    for call in [
                        Method::Map {
                            resource: *buffer,
                            map_type: recorder::MapType::WriteDiscard,
                            allow_usage_default: false,
                            instance: Some(*instance),
                            writes: (),
                        },
                        Method::Unmap { resource: *buffer },
                    ] {
                        out.call(&imm, &call);
                    }
                }
                for call in &state {
                    out.call(&imm, call);
                }
                for call in others {
                    out.call(&imm, call);
                }
            }
            Item::Immediate(entry) => out.entry(&imm, entry),
        }
        let mut k = 0;
        while k < pending.len() {
            if pending[k].0 <= at || at + 1 == count {
                let (_, object) = pending.remove(k);
                let name = out.names.name(object);
                out.declare(Declaration::Release { name });
            } else {
                k += 1;
            }
        }
    }
    if let Some(why) = out.broken.take() {
        return Err(why);
    }
    let not_written = std::mem::take(&mut out.not_written);
    let trace = Trace {
        statements: out.statements,
    };
    let mut text = String::from("# captured by trace::capture (SPEC R-CAP-1..6)\n");
    for what in &not_written {
        text.push_str(&format!("# not written (no trace statement): {what}\n"));
    }
    text.push_str(&trace.to_string());
    Ok(Written {
        text,
        names,
        not_written,
    })
}
