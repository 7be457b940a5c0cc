//! A captured frame's calls on every context in the order they were made, and their writing
//! (the second half of the text: see `write.rs`'s essay).
//!
//! **In:** what the immediate context kept of the frame ([`Frame`]), the lists it reaches, the
//! bundles it calls, the capture's registry (releases). **Out:** the calls, finishes, releases
//! and the frame's setup as statements, by the capture's clock, and on `imm` the minimum-LOD
//! calls of lists not written (they changed their object for every context, R-ST-6). **Invariant:** a call that
//! happened before another on any thread comes first; a release comes where it happened,
//! or after the last state block that names its object (a carried state, the setup); a list whose context's previous list in the text is not its
//! predecessor starts from a `clear_state` and the state it carried.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use recorder::command::InstanceId;
use recorder::{Device, ObjectKind, RawHandle};

use super::form::{Call, Entry, Obj};
use super::log::{BundleLog, ListLog};
use super::object_declaration::dynamic_buffer;
use super::object_names::objects_of;
use super::records::Registry;
use super::statement_writer::Out;
use crate::syntax::ast::{CallContext, Declaration, Method};
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
    pub entries: super::entries::Entries,
    pub seqs: Vec<u64>,
    /// Releases during the frame, with the capture's clock at each.
    pub releases: Vec<(Obj, u64)>,
    /// The minimum-LOD calls deferred contexts made during the frame, with the clock at each:
    /// those of a list the text does not write are written on `imm` where they were made.
    pub min_lods: Vec<(Call, u64)>,
    /// The lists executed on the immediate context.
    pub lists: Vec<Arc<ListLog>>,
    /// The bundles it called.
    pub bundles: Vec<Obj>,
    /// The capture's clock at the frame's start (where its setup goes).
    pub start_seq: u64,
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
pub(super) fn instances_from_before(
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

/// One thing the text writes after the declarations, placed by the capture's clock.
enum Item<'a> {
    Bundle(usize, &'a Entry),
    BundleFinish(usize),
    ListStart(usize),
    List(usize, &'a Entry),
    ListFinish(usize),
    Release(Obj),
    Setup,
    Immediate(&'a Entry),
    /// A minimum-LOD call of a list the text does not write: on `imm`.
    MinLod(&'a Call),
}

/// What writing the frame's calls reads: the frame, the lists it reaches, the bundles it calls,
/// the contexts' trace names.
pub(super) struct Timeline<'a> {
    pub(super) frame: &'a Frame,
    pub(super) lists: &'a [Arc<ListLog>],
    pub(super) bundle_logs: &'a [(Obj, Arc<BundleLog>)],
    /// Each context's name (and how it was made), by the capture's number.
    pub(super) contexts: &'a BTreeMap<u64, (Name, recorder::Semantics, bool)>,
    /// The objects the text declares.
    pub(super) used: &'a HashSet<Obj>,
    /// The immediate context's state at the frame's start (the setup less its presents).
    pub(super) state: &'a [&'a Call],
}

impl Timeline<'_> {
    /// Writes every context's calls in the order they were made (the capture's clock): bundles'
    /// recordings, lists' calls and finishes, the releases, the frame's setup at its start, the
    /// immediate context's calls.
    pub(super) fn write(
        &self,
        out: &mut Out<'_>,
        device: &Device,
        registry: &Registry,
        records: &[DrawRecord],
    ) {
        let items = self.items(registry);
        let before = instances_from_before(device, records, &self.made_instances());
        let last_named = self.last_named(&items);
        let imm = CallContext::Immediate;
        // (ordinal, restore) of each context's last list written.
        let mut last_block: HashMap<u64, (u64, bool)> = HashMap::new();
        let mut carries = 0u32;
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
                    let on = CallContext::BundleRecorder(out.names.name(self.bundle_logs[b].0));
                    out.entry(&on, entry);
                }
                Item::BundleFinish(b) => {
                    let on = CallContext::BundleRecorder(out.names.name(self.bundle_logs[b].0));
                    out.push(&on, Method::FinishBundle);
                }
                Item::ListStart(l) => {
                    let list = &self.lists[l];
                    let previous = last_block.get(&list.context.serial).copied();
                    self.write_carried(out, list, previous, &mut carries);
                }
                Item::List(l, entry) => {
                    let on = self.deferred(&self.lists[l]);
                    out.entry(&on, entry);
                }
                Item::ListFinish(l) => {
                    let list = &self.lists[l];
                    let on = self.deferred(list);
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
                Item::Setup => self.write_setup(out, &before),
                Item::Immediate(entry) => out.entry(&imm, entry),
                Item::MinLod(call) => out.call(&imm, call),
            }
            release_due(out, &mut pending, at, count);
        }
    }

    /// The context a list was recorded on, as the text names it.
    fn deferred(&self, list: &ListLog) -> CallContext {
        let (name, _, _) = &self.contexts[&list.context.serial];
        CallContext::Deferred(name.clone())
    }

    /// Everything after the declarations, by the capture's clock. `sub` orders what shares a
    /// tick: a list's carried state before its first call.
    fn items(&self, registry: &Registry) -> Vec<(u64, u8, Item<'_>)> {
        let frame = self.frame;
        let mut items: Vec<(u64, u8, Item<'_>)> = Vec::new();
        for (b, (_, log)) in self.bundle_logs.iter().enumerate() {
            for (entry, seq) in log.entries().iter().zip(log.seqs()) {
                items.push((*seq, 1, Item::Bundle(b, entry)));
            }
            items.push((log.finish_seq, 1, Item::BundleFinish(b)));
        }
        for (l, list) in self.lists.iter().enumerate() {
            let first = list.seqs().first().copied().unwrap_or(list.finish_seq);
            items.push((first, 0, Item::ListStart(l)));
            for (entry, seq) in list.entries().iter().zip(list.seqs()) {
                items.push((*seq, 1, Item::List(l, entry)));
            }
            items.push((list.finish_seq, 1, Item::ListFinish(l)));
        }
        // Objects gone before the frame that a list or bundle still names, where they went.
        for object in self.used {
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
            if self.used.contains(object) {
                items.push((*at, 1, Item::Release(*object)));
            }
        }
        items.push((frame.start_seq, 1, Item::Setup));
        // A list's minimum-LOD calls took effect for every context when made (R-ST-6): those of
        // lists the text does not write (never executed, discarded) go on `imm`, where the
        // threaded replay orders them as it orders every minimum-LOD call. One of an object the
        // text does not use is left out: no call of the text reads it.
        let written: HashSet<u64> = self
            .lists
            .iter()
            .flat_map(|l| l.seqs().iter().copied())
            .collect();
        let mut named = Vec::new();
        for (call, seq) in &frame.min_lods {
            named.clear();
            objects_of(call, &mut named);
            if !written.contains(seq) && named.iter().all(|o| self.used.contains(o)) {
                items.push((*seq, 1, Item::MinLod(call)));
            }
        }
        for (entry, seq) in frame.entries.iter().zip(&frame.seqs) {
            items.push((*seq, 1, Item::Immediate(entry)));
        }
        items.sort_by_key(|(seq, sub, _)| (*seq, *sub));
        items
    }

    /// The instances the text's own write_discard maps make.
    fn made_instances(&self) -> HashSet<InstanceId> {
        let mut made = HashSet::new();
        let entries = self
            .lists
            .iter()
            .flat_map(|l| l.entries().iter())
            .chain(self.frame.entries.iter());
        for entry in entries {
            if let Entry::Call(call) = entry {
                made_instance(call, &mut made);
            }
        }
        for (_, calls) in &self.frame.setup_if_used {
            calls.iter().for_each(|c| made_instance(c, &mut made));
        }
        made
    }

    /// The setup calls written only where the frame uses their object.
    fn setup_used(&self) -> impl Iterator<Item = &Call> {
        self.frame
            .setup_if_used
            .iter()
            .filter(|(object, _)| self.used.contains(object))
            .flat_map(|(_, calls)| calls.iter())
    }

    /// The last state block (a list's carried state, the frame's setup) that names each object.
    /// A release waits until after it (a legacy list's carried state may bind it again after
    /// the application let it go: the list's reference kept it alive; the replay's bind must
    /// come before the replay's release). Calls are not waited for: one made after the release
    /// saw the object released.
    fn last_named(&self, items: &[(u64, u8, Item<'_>)]) -> HashMap<Obj, usize> {
        let mut last_named: HashMap<Obj, usize> = HashMap::new();
        let mut names = Vec::new();
        for (at, (_, _, item)) in items.iter().enumerate() {
            names.clear();
            // A call made after the release saw the object released live: it comes after the
            // release in the text too (a list executed after it is refused, R-OBJ-3). Only the
            // state blocks, written where a list or the frame starts but set before, wait.
            match item {
                Item::ListStart(l) => {
                    for call in self.lists[*l].carried.iter().flatten() {
                        objects_of(call, &mut names);
                    }
                }
                Item::Setup => {
                    for call in self.state.iter().copied().chain(self.setup_used()) {
                        objects_of(call, &mut names);
                    }
                }
                _ => {}
            }
            for object in &names {
                last_named.insert(*object, at);
            }
        }
        last_named
    }

    /// The state `list` started from, when its context's previous list in the text (`previous`:
    /// its ordinal and whether it restored) does not bring it in: carried in the engine's way,
    /// a list of its own, never executed, that sets it and finishes with restore (a carried
    /// binding is not a bind: R-EX-7 gives it no back-buffer affinity).
    fn write_carried(
        &self,
        out: &mut Out<'_>,
        list: &ListLog,
        previous: Option<(u64, bool)>,
        carries: &mut u32,
    ) {
        let on = self.deferred(list);
        // The replay's context carries the previous list's state in when that one
        // restored; that is this list's own start only when it was its predecessor.
        let continuous = previous.is_some_and(|(ordinal, _)| ordinal + 1 == list.ordinal);
        let restored = previous.is_some_and(|(_, restored)| restored);
        if continuous || (list.carried.is_none() && !restored) {
            return;
        }
        *carries += 1;
        if restored {
            out.call(&on, &Method::ClearState);
        }
        out.state_block(&on, list.carried.iter().flatten());
        let name = Name::new(&format!("carry_{carries}"))
            .unwrap_or_else(|| unreachable!("carry_N is a name"));
        let restore = list.carried.is_some().then_some(true);
        out.push(
            &on,
            Method::FinishCommandList {
                list: name,
                restore,
            },
        );
    }

    /// The immediate context's state at the frame's start, where the frame began. Dynamic
    /// instances first: a fast context's slot bound before a map keeps the instance it had
    /// (R-ST-8), so the maps come before the binds.
    fn write_setup(&self, out: &mut Out<'_>, before: &[(Obj, InstanceId)]) {
        let imm = CallContext::Immediate;
        let (maps, others): (Vec<_>, Vec<_>) = self
            .setup_used()
            .partition(|c| matches!(c, Method::Map { .. } | Method::Unmap { .. }));
        // The swap-chain views' buffers before the binds that read them (R-EX-7).
        let (placements, others): (Vec<_>, Vec<_>) = others
            .into_iter()
            .partition(|c| matches!(c, Method::PlaceSwapChainView { .. }));
        for call in placements {
            out.call(&imm, call);
            // Each to where the view is: the text's place from here on (`Out::places`).
            if let Method::PlaceSwapChainView { view, index } = call {
                out.places.insert(*view, *index);
            }
        }
        for call in maps {
            out.call(&imm, call);
        }
        for (buffer, instance) in before {
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
        out.state_block(&imm, self.state.iter().copied());
        for call in others {
            out.call(&imm, call);
        }
    }
}

/// Declares the releases whose time has come after item `at` (all of them after the last).
fn release_due(out: &mut Out<'_>, pending: &mut Vec<(usize, Obj)>, at: usize, count: usize) {
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
