//! The reference of `--compare` (docs/TRACE.md, R-O-1): every call of the trace issued directly on
//! an immediate context, none on a deferred context; a list's calls issued when the list is
//! executed, from the list's starting state, with the list's own semantics, then the
//! executing context's after-rule.
//!
//! **In:** the [`Program`] (the same one the real run ran) and, step by step, the real run's
//! [`Effect`] of each statement (whether its work happened, what a `finish` left): the reference
//! issues only what the real run accepted. **Out:** the reference's draw records as record
//! lines (objects by trace name), which `compare.rs` sets beside the real run's: the first
//! record that differs, or nothing. `feed.rs` is the reference's GPU side (below).
//!
//! **How.** The reference has its own devices, twins (`Device::twin`) with the same objects
//! made in the same order (so the same handles, which each accepts): one whose immediate recorder takes the trace's `imm` calls, with the
//! trace's semantics, and, for the lists, one device per (semantics, nesting depth) whose
//! immediate recorder is made afresh for each execution of a list and dropped after it. So a
//! legacy list's calls are legacy calls (reset index from the index format, minimum LOD from
//! the resource, a map re-binding the buffer, binds of compressed targets decompressing) and a
//! fast list's fast calls, whatever the immediate context's semantics, and a list's maps make
//! instances local to the list (R-ST-8); after a legacy list, its last instance of each
//! resource (its own last map's, or a nested legacy list's if that came later) is current: the
//! executing recorder adopts it, re-binding what a `restore=yes` kept, and the lists after it
//! read it. Every recorder feeds one GPU model in order
//! (`feed.rs`), which keeps the register state, compression and the records.
//!
//! **Starting state (R-ST-1).** A legacy list starts from a `clear_state`, then re-issues the
//! state calls its context carried from its earlier lists (`finish restore=yes`): the state
//! setters since the context's state was last reset, maps left out (a carried dynamic binding
//! reads the immediate instance, R-SP-1). A fast list starts from whatever is bound.
//! **After (R-ST-2).** A legacy executing context with `restore=yes` gets its state back
//! exactly (a snapshot of the GPU model's registers); with `restore=no`, a `clear_state`. A
//! fast one keeps what the list left. A nested list is executed the same way, its executing
//! context being the outer list's recorder; nested lists are walked with a stack of their own,
//! not by recursion, so any depth runs (R-REC-9), at the cost of one device per level.
//!
//! **Device context state objects (R-FX-6).** A swap acts on its object when it is recorded,
//! while the reference issues a list's calls when the list executes, so the reference mirrors,
//! in trace order, each object and each legacy context's state as state calls ([`Setter`]s):
//! `imm`'s since its state was last reset, a deferred context's carried ones and its open
//! list's since then. An accepted swap's line gives the object the context's calls and keeps
//! what the object held as the swap's own calls, which the reference issues, after a
//! `clear_state`, wherever the swap is issued (at its line on `imm`; each time its list runs
//! otherwise), as the engine's swap binds them: through the legacy binds (a fast or placement
//! binding as the plain bind of its slot), at the swap's line (the minimum LOD then in force).
//! The real run makes swaps in trace order under `--threads` too (`live.rs`), so an object
//! shared by several contexts holds the same calls in both runs.
//!
//! **Bundles (R-B-4, R-B-9, R-B-10).** A bundle call snapshots the caller's registers, checks
//! the bound formats against the declaration (a mismatch skips the call, as the engine does),
//! issues the bundle's calls over the caller's state on a fresh fast recorder (its set calls
//! override their slots from then on, its draws draw), makes each remap bind the caller's
//! binding as it was at the call, and puts the snapshot back. A fast list does not keep a
//! bundle alive: a call of a bundle released before the list runs is skipped.
//!
//! **Minimum LOD (R-ST-6).** The LOD calls change their object at once, on whatever context
//! they are called, and a bind copies the value then in force: the reference applies them at
//! their line to every reference device (not again when a list that recorded one runs), and
//! before issuing a list's or bundle's bind of a view it puts back the view's and its
//! texture's LOD as they were at the bind's line.
//!
//! **Left out**, as they make no draw record: fences, queries' results, read/write maps,
//! `write` statements (a map issued here still copies them: `writes.rs`),
//! `release` (the reference never releases: every call it issues was accepted by the real
//! run, which is where use after release shows).

pub(super) mod compare;
mod feed;

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use recorder::command::Command;
use recorder::{
    ClearStateCalls, Device, DeviceDesc, Error, Handle, ImmediateRole, MapType, OutputFormats,
    Recorder, RemapKind, Semantics, ShaderResourceView, Texture,
};

use self::feed::{Feed, Scope};
use super::apply::{record, Named, Recorded};
use super::create::{create, Created};
use super::handles::{Handles, Resolver};
use super::live::Effect;
use super::names::{record_lines, Names};
use super::program::{Call, Create, ObjId, ObjKind, On, Op, Program};
use executor::GpuState;

/// A statement that changes the reference's objects, replayed on a device made later.
#[derive(Clone, Debug)]
enum Logged {
    Create(ObjId, Create),
    MinLod(Call),
}

/// One state call of a context's state, or of a device context state object's (R-ST-1,
/// R-FX-6): the step that made it, the step whose minimum LOD its bind copies (its own, or the
/// swap's that bound it again), and whether a swap bound it again, through the legacy binds
/// (`recorder/src/context_state.rs`: a fast or placement binding comes back as a plain one).
#[derive(Clone, Copy, Debug)]
struct Setter {
    op: usize,
    at: usize,
    rebound: bool,
}

/// A deferred context's or bundle recorder's calls, as the reference keeps them.
#[derive(Debug)]
struct RecorderBook {
    semantics: Semantics,
    /// The steps of the list or bundle being recorded.
    ops: Vec<usize>,
    /// The state calls its next list starts from (legacy, after `finish restore=yes`).
    carried: Vec<Setter>,
    /// A bundle recorder's declaration.
    declaration: Option<OutputFormats>,
}

/// A finished command list.
#[derive(Clone, Debug)]
struct ListBook {
    semantics: Semantics,
    carried: Vec<Setter>,
    ops: Vec<usize>,
}

/// A finished bundle: what a `draw_bundle` recorded while it was current calls.
#[derive(Debug)]
struct BundleBook {
    ops: Vec<usize>,
    declaration: OutputFormats,
    /// The trace released it (a fast list's call of it is then skipped).
    released: Cell<bool>,
}

/// An immediate recorder of the reference and its instance scope.
struct Frame {
    recorder: Recorder<ImmediateRole>,
    semantics: Semantics,
    scope: Scope,
}

/// A list being executed by [`Reference::run_list`], nested in the one below it.
struct ListRun {
    book: ListBook,
    /// The next of `book.ops` to issue.
    next: usize,
    /// The semantics of the context that executes it (R-ST-2).
    executing: Semantics,
    /// Its execution's restore flag: an outer list re-binds what it kept to the list's last
    /// instances (R-ST-8).
    restore: bool,
    /// The registers saved for a legacy `restore=yes`.
    saved: Option<GpuState>,
}

/// A minimum-LOD change: its line's step, the value before, the value after.
type LodChange = (usize, f32, f32);

pub(crate) struct Reference {
    program: Arc<Program>,
    handles: Handles,
    /// The `imm` calls' device and recorder.
    device: Device,
    imm: Frame,
    /// The lists' and bundles' devices, by (semantics, depth), made when first needed.
    list_devices: HashMap<(Semantics, usize), Device>,
    log: Vec<Logged>,
    feed: Feed,
    names: Names,
    recorders: HashMap<ObjId, RecorderBook>,
    lists: HashMap<ObjId, ListBook>,
    bundles: HashMap<ObjId, Rc<BundleBook>>,
    /// Every bundle each recorder made (a release releases them all).
    bundle_versions: HashMap<ObjId, Vec<Rc<BundleBook>>>,
    /// The bundle each recorded `draw_bundle` step calls (the one current at its line).
    bundle_calls: HashMap<usize, Rc<BundleBook>>,
    lods: HashMap<ObjId, Vec<LodChange>>,
    /// Each shader-resource view's resource.
    view_resources: HashMap<ObjId, ObjId>,
    cpu_mapped: HashSet<ObjId>,
    /// What each device context state object holds (R-FX-6), as state calls.
    states: HashMap<ObjId, Vec<Setter>>,
    /// The state calls of `imm`'s state, since it was last reset (legacy; R-FX-6).
    imm_state: Vec<Setter>,
    /// What each accepted `swap_device_context_state` step binds after its `clear_state`: the
    /// object's state calls at the swap's line (R-FX-6).
    swaps: HashMap<usize, Vec<Setter>>,
}

/// The reference's device: the trace's semantics, and its `legacy_barriers=` (which decides
/// what a legacy barrier does, R-BAR-6).
fn device(semantics: Semantics, legacy_barriers: bool) -> Device {
    Device::new(DeviceDesc {
        immediate_semantics: semantics,
        legacy_barriers,
        ..Default::default()
    })
}

/// The call of step `index`.
fn call_of(program: &Program, index: usize) -> Option<&Call> {
    match &program.steps.get(index)?.op {
        Op::Call { call, .. } => Some(call),
        _ => None,
    }
}

impl Reference {
    pub(crate) fn new(program: Arc<Program>) -> Result<Self, Error> {
        let device = device(program.semantics, program.legacy_barriers);
        let recorder = device.immediate_recorder()?;
        // The GPU model reads a texture's facts (compressible, TC, DCC, planes) from the device
        // at its first barrier, as the real run's reads them from its own (R-BAR-3): the
        // reference's device holds the same objects under the same handles.
        let mut feed = Feed::default();
        feed.gpu.set_device(Some(device.clone()));
        Ok(Self {
            handles: Handles::new(program.objects.len()),
            imm: Frame {
                recorder,
                semantics: program.semantics,
                scope: Scope::default(),
            },
            device,
            program,
            list_devices: HashMap::new(),
            log: Vec::new(),
            feed,
            names: Names::default(),
            recorders: HashMap::new(),
            lists: HashMap::new(),
            bundles: HashMap::new(),
            bundle_versions: HashMap::new(),
            bundle_calls: HashMap::new(),
            lods: HashMap::new(),
            view_resources: HashMap::new(),
            cpu_mapped: HashSet::new(),
            states: HashMap::new(),
            imm_state: Vec::new(),
            swaps: HashMap::new(),
        })
    }

    /// Follows step `index`, which the real run did with `effect`.
    pub(crate) fn step(&mut self, index: usize, effect: Effect) {
        let program = self.program.clone();
        let step = &program.steps[index];
        match &step.op {
            Op::Create { object, create } => self.create(*object, create),
            Op::Release(id) => {
                for bundle in self.bundle_versions.get(id).into_iter().flatten() {
                    bundle.released.set(true);
                }
            }
            // A `write` makes no command and no record (`writes.rs`); its map issued here
            // takes its bytes, as the real run's did.
            Op::Expect(_)
            | Op::Call {
                call: Call::Write { .. },
                ..
            } => {}
            Op::Call {
                on: On::Immediate,
                call,
            } => {
                if effect != Effect::Refused {
                    if let Call::SwapDeviceContextState { state } = call {
                        let outgoing = self.imm_state.clone();
                        self.swap(index, *state, outgoing);
                    }
                    fold_state(&program, &self.swaps, &mut self.imm_state, index);
                    self.immediate(index, call);
                }
            }
            Op::Call {
                on: On::Deferred(id) | On::BundleRecorder(id),
                call,
            } => self.deferred(index, *id, call, effect),
        }
    }

    fn create(&mut self, id: ObjId, what: &Create) {
        match what {
            // A title-managed context (R-FX-6) records as a legacy one; only references differ,
            // which the reference's direct calls do not take part in.
            Create::Context { semantics, .. } => {
                self.recorders
                    .insert(id, RecorderBook::new(*semantics, None));
                return;
            }
            Create::Bundle {
                render_targets,
                depth,
                samples,
            } => {
                let declaration = OutputFormats::new(render_targets, *depth, *samples).ok();
                self.recorders
                    .insert(id, RecorderBook::new(Semantics::Fast, declaration));
                return;
            }
            Create::View { resource, .. } => {
                self.view_resources.insert(id, *resource);
            }
            _ => {}
        }
        let made = create(&self.device, &self.program, &self.handles, id, what);
        for list_device in self.list_devices.values() {
            let _ = create(list_device, &self.program, &self.handles, id, what);
        }
        self.log.push(Logged::Create(id, what.clone()));
        if let Ok(made) = made {
            for (kind, raw, object) in installed(&made, id, what) {
                self.handles.set(object, raw);
                self.names.object(kind, raw, object);
                let object = &self.program.objects[object];
                if object.kind == ObjKind::Buffer && object.dynamic {
                    self.feed.dynamic_buffers.insert(raw);
                }
            }
        }
    }

    /// A minimum-LOD call of step `index`: applied now to every reference device, and kept
    /// (see the module essay).
    fn min_lod(&mut self, index: usize, call: &Call) {
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
        for list_device in self.list_devices.values() {
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

    fn immediate(&mut self, index: usize, call: &Call) {
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
                // The direct calls are made at the swap's line: the LOD in force is now's.
                self.imm.recorder.clear_state();
                let program = self.program.clone();
                for setter in self.swaps.get(&index).cloned().unwrap_or_default() {
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
            Call::Present { .. } | Call::Resume => {
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

    fn flush_imm(&mut self, k: Option<u32>) {
        // An immediate recorder's batch is refused only when too large to encode (R-REC-12):
        // the engine dropped the same calls.
        let Ok(batch) = self.imm.recorder.take_batch() else {
            return;
        };
        self.feed
            .consume(&batch, self.imm.semantics, &mut self.imm.scope, k);
    }

    fn deferred(&mut self, index: usize, id: ObjId, call: &Call, effect: Effect) {
        if matches!(call, Call::Map { .. }) && effect == Effect::Refused {
            // A refused map is left out of a list that still finishes (R-REC-8).
            return;
        }
        match call {
            Call::SetResourceMinLod { .. } | Call::SetShaderResourceViewMinLod { .. } => {
                return self.min_lod(index, call)
            }
            Call::InsertFence { .. }
            | Call::InsertWaitOnFence { .. }
            | Call::CreateDeviceContextState { .. } => return,
            Call::SwapDeviceContextState { state } if effect != Effect::Refused => {
                // The swap acts on the object when it is recorded (R-FX-6): the context's state
                // at this line goes into the object, and the list's execution binds what the
                // object held here.
                if let Some(book) = self.recorders.get(&id) {
                    let mut outgoing = book.carried.clone();
                    for op in &book.ops {
                        fold_state(&self.program, &self.swaps, &mut outgoing, *op);
                    }
                    self.swap(index, *state, outgoing);
                }
            }
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

    /// The recorder of a list or bundle at `depth`, made afresh.
    fn open(&mut self, semantics: Semantics, depth: usize) -> Option<Frame> {
        if !self.list_devices.contains_key(&(semantics, depth)) {
            // A twin: the same creations give it the same handles, which it accepts (R-OBJ-3).
            let made = self.device.twin(DeviceDesc {
                immediate_semantics: semantics,
                legacy_barriers: self.program.legacy_barriers,
                ..Default::default()
            });
            let program = self.program.clone();
            let handles = Handles::new(program.objects.len());
            for logged in &self.log {
                match logged {
                    Logged::Create(id, what) => {
                        if let Ok(created) = create(&made, &program, &handles, *id, what) {
                            for (_, raw, object) in installed(&created, *id, what) {
                                handles.set(object, raw);
                            }
                        }
                    }
                    Logged::MinLod(call) => {
                        if let Ok(mut recorder) = made.immediate_recorder() {
                            let objects = Resolver {
                                program: &program,
                                handles: &handles,
                            };
                            record(&mut recorder, call, &objects, &Named::NONE);
                        }
                    }
                }
            }
            self.list_devices.insert((semantics, depth), made);
        }
        let recorder = self
            .list_devices
            .get(&(semantics, depth))?
            .immediate_recorder()
            .ok()?;
        Some(Frame {
            recorder,
            semantics,
            scope: Scope::list(),
        })
    }

    /// Executes list `id` as a context of `executing` semantics with `restore` would; the
    /// executing recorder is the top of `stack` (empty: `imm`), each list's is pushed on it.
    /// Nested lists are walked with a stack of their own (`runs`, in step with the frames they
    /// pushed), not by recursion: any depth runs (R-REC-9).
    fn run_list(&mut self, id: ObjId, restore: bool, executing: Semantics, stack: &mut Vec<Frame>) {
        let program = self.program.clone();
        let mut runs = Vec::new();
        self.enter_list(id, restore, executing, stack, &mut runs);
        while let Some(run) = runs.last_mut() {
            let Some(op) = run.book.ops.get(run.next).copied() else {
                if let Some(done) = runs.pop() {
                    self.leave_list(done, stack);
                }
                continue;
            };
            run.next += 1;
            let semantics = run.book.semantics;
            match call_of(&program, op) {
                Some(Call::Execute { list, restore }) => {
                    self.enter_list(*list, *restore, semantics, stack, &mut runs)
                }
                Some(Call::DrawBundle { .. }) => {
                    if let Some(bundle) = self.bundle_calls.get(&op).cloned() {
                        // A fast list holds no reference on the bundle (R-OBJ-4).
                        if !(bundle.released.get() && semantics == Semantics::Fast) {
                            self.call_bundle(&bundle, stack);
                        }
                    }
                }
                Some(Call::SwapDeviceContextState { .. }) => {
                    // Only an accepted swap has its calls (a refused one poisoned its list).
                    let Some(setters) = self.swaps.get(&op).cloned() else {
                        continue;
                    };
                    self.issue_on_top(stack, None, &Call::ClearState);
                    for setter in setters {
                        for call in setter_calls(&program, setter) {
                            self.issue_on_top(stack, Some(setter.at), &call);
                        }
                    }
                }
                Some(call) => self.issue_on_top(stack, Some(op), call),
                None => {}
            }
        }
    }

    /// The accepted swap of step `index` exchanges `outgoing` (its context's state calls at
    /// this line) with what object `state` holds, which the swap binds again (R-FX-6).
    fn swap(&mut self, index: usize, state: ObjId, outgoing: Vec<Setter>) {
        let incoming = self.states.insert(state, outgoing).unwrap_or_default();
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

    /// Starts list `id`'s execution by a context of `executing` semantics: pushes its recorder
    /// on `stack` and its walk on `runs`, and issues its starting state (R-ST-1).
    fn enter_list(
        &mut self,
        id: ObjId,
        restore: bool,
        executing: Semantics,
        stack: &mut Vec<Frame>,
        runs: &mut Vec<ListRun>,
    ) {
        let Some(book) = self.lists.get(&id).cloned() else {
            return;
        };
        let saved = (executing == Semantics::Legacy && restore).then(|| self.feed.gpu.snapshot());
        let Some(frame) = self.open(book.semantics, stack.len()) else {
            return;
        };
        stack.push(frame);
        if book.semantics == Semantics::Legacy {
            self.issue_on_top(stack, None, &Call::ClearState);
            let program = self.program.clone();
            for setter in &book.carried {
                for call in setter_calls(&program, *setter) {
                    self.issue_on_top(stack, Some(setter.at), &call);
                }
            }
        }
        runs.push(ListRun {
            book,
            next: 0,
            executing,
            restore,
            saved,
        });
    }

    /// Ends a list's execution: pops its recorder, makes a legacy list's last instances current
    /// (R-ST-8), and applies the executing context's after-rule (R-ST-2).
    fn leave_list(&mut self, done: ListRun, stack: &mut Vec<Frame>) {
        let frame = stack.pop();
        // A legacy list's last instances become current (R-ST-8): for the splits and binds
        // after it, and as the executing context's (merged into an outer list's, which leaves
        // them in turn if it is legacy).
        let last = match (&frame, done.book.semantics) {
            (Some(frame), Semantics::Legacy) => {
                let mut last: Vec<_> = frame.scope.last.iter().map(|(r, i)| (*r, *i)).collect();
                last.sort();
                last
            }
            _ => Vec::new(),
        };
        for (resource, instance) in &last {
            self.feed.current.insert(*resource, *instance);
            self.imm
                .recorder
                .adopt_instance(*resource, *instance, false);
        }
        match (done.executing, done.saved) {
            (Semantics::Legacy, Some(state)) => self.feed.gpu.restore(&state),
            (Semantics::Legacy, None) if stack.is_empty() => {
                self.imm.recorder.clear_state();
                self.flush_imm(None);
            }
            (Semantics::Legacy, None) => self.issue_on_top(stack, None, &Call::ClearState),
            (Semantics::Fast, _) => {}
        }
        if let Some(outer) = stack.last_mut() {
            // The outer list's recorder reads them from now on, re-binding what it kept.
            for (resource, instance) in &last {
                outer.scope.last.insert(*resource, *instance);
                outer
                    .recorder
                    .adopt_instance(*resource, *instance, done.restore);
            }
            // See `flush_imm`.
            if let Ok(batch) = outer.recorder.take_batch() {
                self.feed
                    .consume(&batch, outer.semantics, &mut outer.scope, None);
            }
        } else if !last.is_empty() {
            // The immediate context's own recorder reads them from now on, and re-binds the
            // slots that the after-rule put back (the runtime patches the binding).
            for (resource, instance) in last {
                self.imm.recorder.adopt_instance(resource, instance, true);
            }
            self.flush_imm(None);
        }
    }

    /// Calls `bundle` over the current state (see the module essay).
    fn call_bundle(&mut self, bundle: &BundleBook, stack: &mut Vec<Frame>) {
        let device = &self.device;
        let bound = self.feed.gpu.bound_output_formats(|texture| {
            device
                .texture_info(Texture::from_raw(texture))
                .map(|info| info.sample_count)
        });
        if !bound.satisfies(&bundle.declaration) {
            return;
        }
        let caller = self.feed.gpu.snapshot();
        let Some(frame) = self.open(Semantics::Fast, stack.len()) else {
            return;
        };
        stack.push(frame);
        let program = self.program.clone();
        for op in &bundle.ops {
            match call_of(&program, *op).map(|call| (call, call.remap())) {
                Some((_, Some(remap))) => {
                    let (stage, slot) = (remap.stage, remap.slot);
                    let (from, inherit) = (remap.inherit_stage, remap.inherit_slot);
                    let gpu = &mut self.feed.gpu;
                    match remap.kind {
                        RemapKind::ConstantBuffer => {
                            if let Some(bound) = caller.constant_buffer(from, inherit) {
                                let buffers = [bound];
                                let command = Command::SetConstantBuffers {
                                    stage,
                                    start: slot,
                                    buffers: (&buffers).into(),
                                };
                                gpu.execute(&command, Semantics::Fast);
                            }
                        }
                        RemapKind::ShaderResource => {
                            if let Some(bound) = caller.shader_resource(from, inherit) {
                                let views = [bound];
                                let command = Command::SetShaderResources {
                                    stage,
                                    start: slot,
                                    views: &views,
                                };
                                gpu.execute(&command, Semantics::Fast);
                            }
                        }
                        RemapKind::Sampler => {
                            if let Some(bound) = caller.sampler(from, inherit) {
                                let samplers = [bound];
                                let command = Command::SetSamplers {
                                    stage,
                                    start: slot,
                                    samplers: &samplers,
                                };
                                gpu.execute(&command, Semantics::Fast);
                            }
                        }
                        RemapKind::VertexBuffer => {
                            if let Some(bound) = caller.vertex_buffer(inherit) {
                                let buffers = [bound];
                                let command = Command::SetVertexBuffers {
                                    start: slot,
                                    buffers: (&buffers).into(),
                                };
                                gpu.execute(&command, Semantics::Fast);
                            }
                        }
                    }
                }
                Some((call, None)) => self.issue_on_top(stack, Some(*op), call),
                None => {}
            }
        }
        stack.pop();
        self.feed.gpu.restore(&caller);
    }

    /// Issues a list's (or bundle's) call of step `op` on the innermost recorder.
    fn issue_on_top(&mut self, stack: &mut [Frame], op: Option<usize>, call: &Call) {
        let Some(frame) = stack.last_mut() else {
            return;
        };
        if matches!(
            call,
            Call::SetResourceMinLod { .. }
                | Call::SetShaderResourceViewMinLod { .. }
                | Call::InsertFence { .. }
                | Call::InsertWaitOnFence { .. }
        ) {
            return;
        }
        if let Some(op) = op {
            // A bind copies the minimum LOD in force at its line (R-ST-6), the fast calls' as
            // well (R-FX-1, R-FX-2).
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
                    record(&mut frame.recorder, &set, &objects, &Named::NONE);
                }
                if let Some((texture, lod)) =
                    texture.and_then(|t| as_of(&self.lods, *t, op).map(|lod| (*t, lod)))
                {
                    let set = Call::SetResourceMinLod {
                        resource: texture,
                        min_lod: lod,
                    };
                    record(&mut frame.recorder, &set, &objects, &Named::NONE);
                }
            }
        }
        let k = issue(&self.program, &self.handles, &mut frame.recorder, call);
        // See `flush_imm`.
        let Ok(batch) = frame.recorder.take_batch() else {
            return;
        };
        self.feed
            .consume(&batch, frame.semantics, &mut frame.scope, k);
    }

    /// The reference's draw records, named.
    pub(crate) fn record_lines(&mut self) -> Vec<String> {
        for (instance, k) in &self.feed.instances {
            self.names.instance(*instance, *k);
        }
        let namer = self.names.namer(&self.program);
        record_lines(self.feed.gpu.records(), &namer)
    }

    /// The reference's GPU memory as lines (`Memory::lines`, buffers by trace name; R-FX-4,
    /// R-FX-5).
    pub(crate) fn memory_lines(&self) -> Vec<String> {
        let program = &self.program;
        let names = &self.names;
        self.feed
            .gpu
            .memory()
            .lines(|handle| names.buffer(program, handle))
    }
}

impl RecorderBook {
    fn new(semantics: Semantics, declaration: Option<OutputFormats>) -> Self {
        Self {
            semantics,
            ops: Vec::new(),
            carried: Vec::new(),
            declaration,
        }
    }

    /// The list of `ops` ended: the next starts from the state its calls left (`carried`), or
    /// from the defaults.
    fn carry(
        &mut self,
        program: &Program,
        swaps: &HashMap<usize, Vec<Setter>>,
        ops: Vec<usize>,
        carried: bool,
    ) {
        if !carried {
            self.carried.clear();
            return;
        }
        for op in ops {
            fold_state(program, swaps, &mut self.carried, op);
        }
    }
}

/// Step `op` on a legacy context whose state calls since its last reset are `state`: a reset
/// empties them, a state setter adds itself, an accepted swap makes them what the object held
/// (`swaps`, R-FX-6). Any other call leaves them (a `restore=yes` execution puts the state back).
fn fold_state(
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
fn setter_calls(program: &Program, setter: Setter) -> Vec<Call> {
    let Some(call) = call_of(program, setter.op) else {
        return Vec::new();
    };
    if !setter.rebound {
        return vec![call.clone()];
    }
    let fast = |entries: &[crate::syntax::ast::FastEntry<super::program::Lowered>]| {
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
                        buffers: one,
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
            buffers: vec![Some(*buffer)],
        }],
        Call::IaSetPlacementIndexBuffer { buffer, format, .. } => vec![Call::SetIndexBuffer {
            buffer: Some(*buffer),
            format: *format,
            offset: 0,
        }],
        call => vec![call.clone()],
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

/// The handles a declaration made: `(kind, handle, object)`.
fn installed(
    made: &Created,
    id: ObjId,
    what: &Create,
) -> Vec<(recorder::ObjectKind, recorder::RawHandle, ObjId)> {
    use recorder::ObjectKind;
    match (made, what) {
        (Created::Object(kind, raw), _) => vec![(*kind, *raw, id)],
        (Created::SwapChain(raw, buffers), Create::SwapChain { back_buffers, .. }) => {
            let mut all = vec![(ObjectKind::SwapChain, *raw, id)];
            for ((texture, view), (texture_id, view_id)) in buffers.iter().zip(back_buffers) {
                all.push((ObjectKind::Texture, *texture, *texture_id));
                all.push((ObjectKind::RenderTargetView, *view, *view_id));
            }
            all
        }
        _ => Vec::new(),
    }
}

/// Issues `call` on an immediate recorder of the reference; returns the K of the instance a
/// write_discard map made.
fn issue(
    program: &Program,
    handles: &Handles,
    recorder: &mut Recorder<ImmediateRole>,
    call: &Call,
) -> Option<u32> {
    let objects = Resolver { program, handles };
    match record(recorder, call, &objects, &Named::NONE) {
        Recorded::Mapped { .. } => match call {
            Call::Map { instance, .. } => *instance,
            _ => None,
        },
        _ => None,
    }
}
