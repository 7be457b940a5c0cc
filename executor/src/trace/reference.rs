//! The reference of `--compare` (TRACE.md, R-O-1): every call of the trace issued directly on
//! an immediate context, none on a deferred context; a list's calls issued when the list is
//! executed, from the list's starting state, with the list's own semantics, then the
//! executing context's after-rule.
//!
//! **How.** The reference has its own devices, with the same objects made in the same order
//! (so the same handles): one whose immediate recorder takes the trace's `imm` calls, with the
//! trace's semantics, and, for the lists, one device per (semantics, nesting depth) whose
//! immediate recorder is made afresh for each execution of a list and dropped after it. So a
//! legacy list's calls are legacy calls (reset index from the index format, minimum LOD from
//! the resource, a map re-binding the buffer, binds of compressed targets decompressing) and a
//! fast list's fast calls, whatever the immediate context's semantics, and a list's maps make
//! instances local to the list (R-ST-8). Every recorder feeds one GPU model in order
//! (`feed.rs`), which keeps the register state, compression and the records.
//!
//! **Starting state (R-ST-1).** A legacy list starts from a `clear_state`, then re-issues the
//! state calls its context carried from its earlier lists (`finish restore=yes`): the state
//! setters since the context's state was last reset, maps left out (a carried dynamic binding
//! reads the immediate instance, R-SP-1). A fast list starts from whatever is bound.
//! **After (R-ST-2).** A legacy executing context with `restore=yes` gets its state back
//! exactly (a snapshot of the GPU model's registers); with `restore=no`, a `clear_state`. A
//! fast one keeps what the list left. A nested list is executed the same way, its executing
//! context being the outer list's recorder.
//!
//! **Left out**, as they make no draw record: fences, queries' results, read/write maps,
//! `release` (the reference never releases: every call it issues was accepted by the real
//! run, which is where use after release shows). The minimum-LOD calls change their object
//! at once on whatever context they are called (R-ST-6): the reference applies them at their
//! line, to every reference device, and not again when a list that recorded one runs.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use recorder::{DeferredContext, Device, DeviceDesc, Error, MapType, Semantics};

use super::apply::{record, Handles, Recorded, Resolver};
use super::create::{create, Created};
use super::engine::Effect;
use super::feed::{Feed, Scope};
use super::names::{record_lines, Names};
use super::program::{Call, Create, ObjId, ObjKind, On, Op, Program};

/// A statement that changes the reference's objects, replayed on a device made later.
#[derive(Clone, Debug)]
enum Logged {
    Create(ObjId, Create),
    MinLod(Call),
}

/// A deferred context's calls, as the reference keeps them.
#[derive(Debug)]
struct ContextBook {
    semantics: Semantics,
    /// The steps of the list being recorded.
    ops: Vec<usize>,
    /// The state calls its next list starts from (legacy, after `finish restore=yes`).
    carried: Vec<usize>,
}

/// A finished command list.
#[derive(Clone, Debug)]
struct ListBook {
    semantics: Semantics,
    carried: Vec<usize>,
    ops: Vec<usize>,
}

/// An immediate recorder of the reference and its instance scope.
struct Frame {
    recorder: DeferredContext,
    semantics: Semantics,
    scope: Scope,
}

pub(crate) struct Reference {
    program: Arc<Program>,
    handles: Handles,
    /// The `imm` calls' device and recorder.
    device: Device,
    imm: Frame,
    /// The lists' devices, by (semantics, depth), made when first needed.
    list_devices: HashMap<(Semantics, usize), Device>,
    log: Vec<Logged>,
    feed: Feed,
    names: Names,
    contexts: HashMap<ObjId, ContextBook>,
    lists: HashMap<ObjId, ListBook>,
    cpu_mapped: HashSet<ObjId>,
}

fn device(semantics: Semantics) -> Device {
    Device::new(DeviceDesc {
        immediate_semantics: semantics,
        ..Default::default()
    })
}

impl Reference {
    pub(crate) fn new(program: Arc<Program>) -> Result<Self, Error> {
        let device = device(program.semantics);
        let recorder = device.immediate_recorder()?;
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
            feed: Feed::default(),
            names: Names::default(),
            contexts: HashMap::new(),
            lists: HashMap::new(),
            cpu_mapped: HashSet::new(),
        })
    }

    /// Follows step `index`, which the real run did with `effect`.
    pub(crate) fn step(&mut self, index: usize, effect: Effect) {
        let program = self.program.clone();
        let step = &program.steps[index];
        match &step.op {
            Op::Create { object, create } => self.create(*object, create),
            Op::Release(_) | Op::Expect(_) => {}
            Op::Call {
                on: On::Immediate,
                call,
            } => {
                if effect != Effect::Refused {
                    self.immediate(call);
                }
            }
            Op::Call {
                on: On::Context(id),
                call,
            } => self.deferred(index, *id, call, effect),
            Op::Call {
                on: On::Bundle(_), ..
            } => {}
        }
    }

    fn create(&mut self, id: ObjId, what: &Create) {
        if let Create::Context { semantics } = what {
            self.contexts.insert(
                id,
                ContextBook {
                    semantics: *semantics,
                    ops: Vec::new(),
                    carried: Vec::new(),
                },
            );
            return;
        }
        if matches!(what, Create::Bundle { .. }) {
            return;
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

    /// A minimum-LOD call: applied now to every reference device (see the module essay).
    fn min_lod(&mut self, call: &Call) {
        let program = self.program.clone();
        let objects = Resolver {
            program: &program,
            handles: &self.handles,
        };
        record(&mut self.imm.recorder, call, &objects, |_| 0);
        for list_device in self.list_devices.values() {
            if let Ok(mut recorder) = list_device.immediate_recorder() {
                record(&mut recorder, call, &objects, |_| 0);
            }
        }
        self.log.push(Logged::MinLod(call.clone()));
        self.flush_imm(None);
    }

    fn immediate(&mut self, call: &Call) {
        match call {
            Call::SetResourceMinLod { .. } | Call::SetShaderResourceViewMinLod { .. } => {
                self.min_lod(call)
            }
            Call::InsertFence { .. }
            | Call::InsertWaitOnFence { .. }
            | Call::BeginCommandListExecution
            | Call::EndCommandListExecution
            | Call::DrawBundle(_) => {}
            Call::Map {
                resource, map_type, ..
            } if !matches!(map_type, MapType::WriteDiscard | MapType::WriteNoOverwrite) => {
                self.cpu_mapped.insert(*resource);
            }
            Call::Unmap(resource) if self.cpu_mapped.remove(resource) => {}
            Call::Execute { list, restore } => {
                let semantics = self.program.semantics;
                self.execute(*list, *restore, semantics, 0);
            }
            Call::Present(_) | Call::Resume => {
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
        let batch = self.imm.recorder.take_batch();
        self.feed
            .consume(&batch, self.imm.semantics, &mut self.imm.scope, k);
    }

    fn deferred(&mut self, index: usize, id: ObjId, call: &Call, effect: Effect) {
        match call {
            Call::SetResourceMinLod { .. } | Call::SetShaderResourceViewMinLod { .. } => {
                self.min_lod(call);
                return;
            }
            Call::InsertFence { .. } | Call::InsertWaitOnFence { .. } => return,
            _ => {}
        }
        let Some(book) = self.contexts.get_mut(&id) else {
            return;
        };
        let Call::FinishCommandList { list, .. } = call else {
            book.ops.push(index);
            return;
        };
        let Effect::Finished { kept, carried } = effect else {
            return; // refused, the list still open
        };
        let ops = std::mem::take(&mut book.ops);
        if kept {
            self.lists.insert(
                *list,
                ListBook {
                    semantics: book.semantics,
                    carried: book.carried.clone(),
                    ops: ops.clone(),
                },
            );
        }
        if carried {
            let mut state = std::mem::take(&mut book.carried);
            for op in ops {
                match call_of(&self.program, op) {
                    Some(Call::ClearState) | Some(Call::Execute { restore: false, .. }) => {
                        state.clear()
                    }
                    Some(call) if call.is_state() => state.push(op),
                    _ => {}
                }
            }
            book.carried = state;
        } else {
            book.carried.clear();
        }
    }

    /// The recorder of a list at `depth` (0: executed by `imm`), made afresh.
    fn open(&mut self, semantics: Semantics, depth: usize) -> Option<Frame> {
        if !self.list_devices.contains_key(&(semantics, depth)) {
            let made = device(semantics);
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
                                handles: &self.handles,
                            };
                            record(&mut recorder, call, &objects, |_| 0);
                        }
                    }
                }
            }
            self.list_devices.insert((semantics, depth), made);
        }
        let recorder = self.list_devices[&(semantics, depth)]
            .immediate_recorder()
            .ok()?;
        Some(Frame {
            recorder,
            semantics,
            scope: Scope::list(),
        })
    }

    /// Executes list `id` from `imm` (of the trace's semantics) with `restore`.
    fn execute(&mut self, id: ObjId, restore: bool, executing: Semantics, depth: usize) {
        let mut stack = Vec::new();
        self.run_list(id, restore, executing, depth, &mut stack);
    }

    /// Executes list `id` as a context of `executing` semantics with `restore` would, at
    /// nesting `depth`; the executing recorder is the top of `stack` (empty: `imm`).
    fn run_list(
        &mut self,
        id: ObjId,
        restore: bool,
        executing: Semantics,
        depth: usize,
        stack: &mut Vec<Frame>,
    ) {
        let Some(book) = self.lists.get(&id).cloned() else {
            return;
        };
        let saved = (executing == Semantics::Legacy && restore).then(|| self.feed.gpu.snapshot());
        let Some(frame) = self.open(book.semantics, depth) else {
            return;
        };
        stack.push(frame);
        let program = self.program.clone();
        if book.semantics == Semantics::Legacy {
            self.issue_on_top(stack, &Call::ClearState);
            for op in &book.carried {
                if let Some(call) = call_of(&program, *op) {
                    self.issue_on_top(stack, call);
                }
            }
        }
        for op in &book.ops {
            match call_of(&program, *op) {
                Some(Call::Execute { list, restore }) => {
                    self.run_list(*list, *restore, book.semantics, depth + 1, stack)
                }
                Some(call) => self.issue_on_top(stack, call),
                None => {}
            }
        }
        stack.pop();
        match (executing, saved) {
            (Semantics::Legacy, Some(state)) => self.feed.gpu.restore(&state),
            (Semantics::Legacy, None) => match stack.last_mut() {
                Some(_) => self.issue_on_top(stack, &Call::ClearState),
                None => {
                    self.imm.recorder.clear_state();
                    self.flush_imm(None);
                }
            },
            (Semantics::Fast, _) => {}
        }
    }

    /// Issues a list's call on the innermost list recorder.
    fn issue_on_top(&mut self, stack: &mut [Frame], call: &Call) {
        let Some(frame) = stack.last_mut() else {
            return;
        };
        if matches!(
            call,
            Call::SetResourceMinLod { .. }
                | Call::SetShaderResourceViewMinLod { .. }
                | Call::InsertFence { .. }
                | Call::InsertWaitOnFence { .. }
                | Call::DrawBundle(_)
        ) {
            return;
        }
        let k = issue(&self.program, &self.handles, &mut frame.recorder, call);
        let batch = frame.recorder.take_batch();
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

/// The call of step `index`.
fn call_of(program: &Program, index: usize) -> Option<&Call> {
    match &program.steps.get(index)?.op {
        Op::Call { call, .. } => Some(call),
        _ => None,
    }
}

/// Issues `call` on an immediate recorder of the reference; returns the K of the instance a
/// write_discard map made.
fn issue(
    program: &Program,
    handles: &Handles,
    recorder: &mut DeferredContext,
    call: &Call,
) -> Option<u32> {
    let objects = Resolver { program, handles };
    match record(recorder, call, &objects, |_| 0) {
        Recorded::Mapped(_) => match call {
            Call::Map { instance, .. } => *instance,
            _ => None,
        },
        _ => None,
    }
}
