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
//! the capture's clock (one counter that each finish, creation and release ticks, and each kept
//! call but one that follows its context's last with no tick between, which shares it:
//! `kept_calls.rs`; so a call that happened before another on any thread comes first): bundles' recordings, each
//! list's calls and its `finish` (nested lists thus before the lists that execute them, a
//! context's lists in recording order), releases where they happened, the immediate context's
//! state at the frame's start (as calls) where the frame began, and the frame's own calls. So a
//! call that depends on what another context did first (a minimum LOD a list encodes, a fence a
//! list waits on, an object released meanwhile) sees it in the replay too. A list whose
//! context's previous list in the text is not its predecessor starts from a `clear_state` and
//! the state it carried, so nothing of another list leaks in.
//!
//! This file writes the first half (the declarations, the opening presents and fences); the
//! calls by the clock are `frame_timeline.rs`'s; the names, `object_names.rs`'s; each
//! declaration, `object_declaration.rs`'s.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use recorder::{Device, RawHandle};

use super::form::{self, Call, Entry, Obj};
use super::frame_timeline::{Frame, Timeline};
use super::log::{BundleLog, ListLog};
use super::object_declaration::{declaration, deps};
use super::object_names::{
    declaration_order, entry_objects, fallback, name_objects, objects_of, Names,
};
use super::records::{kind_prefix, Registry};
use super::statement_writer::Out;
use crate::syntax::ast::{CallContext, Declaration, Method, Trace};
use crate::Name;
use executor::DrawRecord;

/// The trace and how its objects and instances are named.
pub(crate) struct Written {
    pub text: String,
    pub names: Names,
    pub not_written: Vec<&'static str>,
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
            .chain(list.entries().iter().filter_map(|e| match e {
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

/// Each context's trace name and how it was made, by the capture's number.
type Contexts = BTreeMap<u64, (Name, recorder::Semantics, bool)>;

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
    let bundle_logs = called_bundles(bundles, frame, &lists)?;
    name_bundles(registry, &bundle_logs);
    let used = used_objects(device, registry, frame, &lists, &bundle_logs, all_objects);
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
    let (mut names, order) = name_objects(device, registry, &used);
    let sorted = declaration_order(device, registry, &used, &order);
    // Lists by their place in the text (not their finish order, which threads decide).
    for (k, list) in lists.iter().enumerate() {
        names
            .objects
            .insert(Obj::List(list.id), fallback(Obj::List(k as u64 + 1)));
    }

    name_context_states(&mut names, frame);

    let mut out = Out {
        statements: Vec::new(),
        names: &mut names,
        counts: HashMap::new(),
        not_written: Vec::new(),
        broken: None,
        lods: HashMap::new(),
        places: HashMap::new(),
        legacy_presents: device.desc().immediate_semantics == recorder::Semantics::Legacy,
    };
    declare_device(&mut out, device);
    declare_objects(&mut out, device, registry, &sorted)?;
    let contexts = declare_contexts(&mut out, registry, &lists);
    declare_bundles(&mut out, &bundle_logs);
    let (presents, state): (Vec<&Call>, Vec<&Call>) = frame
        .setup
        .iter()
        .partition(|c| matches!(c, Method::Present { .. }));
    write_opening(&mut out, frame, &lists, &presents);
    let timeline = Timeline {
        frame,
        lists: &lists,
        bundle_logs: &bundle_logs,
        contexts: &contexts,
        used: &used,
        state: &state,
    };
    timeline.write(&mut out, device, registry, records);

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

/// Names the device context state objects (R-FX-6) `context_state_K`, K by their first place in
/// the text (the setup's, then the frame's calls on the immediate context, the only context
/// that swaps them): their serials depend on what else the process made.
fn name_context_states(names: &mut Names, frame: &Frame) {
    let mut named = Vec::new();
    for call in &frame.setup {
        objects_of(call, &mut named);
    }
    for entry in &frame.entries {
        entry_objects(entry, &mut named);
    }
    let mut k = 0;
    for object in named {
        if matches!(object, Obj::ContextState(_)) && !names.objects.contains_key(&object) {
            k += 1;
            names.objects.insert(object, fallback(Obj::ContextState(k)));
        }
    }
}

/// The bundles called, with their recordings, in the order the text calls them (lists first,
/// as they are written before the frame); `Err`: one is broken or was not recorded through the
/// capture.
fn called_bundles(
    bundles: &HashMap<RawHandle, Arc<BundleLog>>,
    frame: &Frame,
    lists: &[Arc<ListLog>],
) -> Result<Vec<(Obj, Arc<BundleLog>)>, String> {
    let mut called: Vec<Obj> = Vec::new();
    for list in lists {
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
    Ok(bundle_logs)
}

/// Names the bundles, in the order the text calls them (a name taken in an earlier frame
/// stays).
fn name_bundles(registry: &mut Registry, bundle_logs: &[(Obj, Arc<BundleLog>)]) {
    for (bundle, log) in bundle_logs {
        if let Obj::Engine(kind, raw) = *bundle {
            if registry.get(kind, raw).is_none() {
                let name = registry.unique_name(&log.name, kind_prefix(kind));
                registry.insert(kind, raw, name, Vec::new(), u64::MAX);
            }
        }
    }
}

/// Every object the text names (every live one with `all_objects`), closed under what each
/// depends on.
fn used_objects(
    device: &Device,
    registry: &Registry,
    frame: &Frame,
    lists: &[Arc<ListLog>],
    bundle_logs: &[(Obj, Arc<BundleLog>)],
    all_objects: bool,
) -> HashSet<Obj> {
    let mut named = Vec::new();
    for call in &frame.setup {
        objects_of(call, &mut named);
    }
    for entry in &frame.entries {
        entry_objects(entry, &mut named);
    }
    for list in lists {
        for entry in list.entries() {
            entry_objects(entry, &mut named);
        }
        for call in list.carried.iter().flatten() {
            objects_of(call, &mut named);
        }
    }
    for (_, log) in bundle_logs {
        for entry in log.entries() {
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
    used
}

/// The `device` line.
fn declare_device(out: &mut Out<'_>, device: &Device) {
    let desc = device.desc();
    out.declare(Declaration::Device {
        semantics: desc.immediate_semantics,
        validation: (desc.validation != recorder::Validation::Off).then_some(desc.validation),
        legacy_barriers: (!desc.legacy_barriers).then_some(false),
    });
}

/// The objects' declarations, in `sorted` order. An object the device no longer knows
/// (destroyed since the frame used it) is declared as it was when the application released it.
fn declare_objects(
    out: &mut Out<'_>,
    device: &Device,
    registry: &Registry,
    sorted: &[Obj],
) -> Result<(), String> {
    for object in sorted {
        let registered = match *object {
            Obj::Engine(kind, raw) => registry.get(kind, raw).is_some_and(|r| r.seq != u64::MAX),
            _ => false,
        };
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
    Ok(())
}

/// The contexts the lists were recorded on, by the capture's number, declared and returned.
fn declare_contexts(
    out: &mut Out<'_>,
    registry: &mut Registry,
    lists: &[Arc<ListLog>],
) -> Contexts {
    let mut contexts: Contexts = BTreeMap::new();
    for list in lists {
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
    contexts
}

/// The bundle recorders, one per bundle called.
fn declare_bundles(out: &mut Out<'_>, bundle_logs: &[(Obj, Arc<BundleLog>)]) {
    for (bundle, log) in bundle_logs {
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
}

/// Before every call: swap chains to their back buffer (the setup's `presents`), the fences
/// waited on but not inserted in the text.
fn write_opening(out: &mut Out<'_>, frame: &Frame, lists: &[Arc<ListLog>], presents: &[&Call]) {
    let imm = CallContext::Immediate;
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
    for list in lists {
        list.entries().iter().for_each(&mut fences);
    }
    frame.entries.iter().for_each(&mut fences);
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
}
