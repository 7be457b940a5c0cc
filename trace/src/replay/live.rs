//! The real run: a program's statements against the engine (device, immediate context with
//! the GPU model inline, deferred contexts, bundle recorders), in trace order, keeping what
//! the expectations ask about: each context's last outcome, every refusal, the command lists
//! and bundles, the fences, the dynamic instances and the names of the objects.
//!
//! **Threads.** Under `--threads N` the calls of each deferred context and bundle recorder are
//! queued to its worker ([`Workers`]), with the command list or bundle they name resolved here
//! first; everything else runs here, on the main thread, in trace order. A statement that
//! observes a context (its `finish`, `expect error` or `expect accepted` on it) first waits for
//! the context's worker; one whose effect other contexts' calls could see, or whose result
//! depends on their order, first waits for every worker: `release` (a queued bind of the object
//! must still find it), `present` (deferred destruction), the minimum-LOD calls (they change the object
//! at once, on whatever context), the fence calls (values are handed out in trace order, so
//! messages are the same on every run), the device context state calls (R-FX-6: a state
//! object is the application's, shared by every context that swaps it, so the swaps exchange
//! bindings in trace order on every run), and `expect ok`. Such calls on a deferred context then
//! run here too, once its worker is idle.
//!
//! **Outcomes.** A call is refused when the engine refuses it (the recorder counts it: its
//! `calls` statistic does not move, `last_refusal` says why), when it returns an error, or,
//! under `validation=on`, when the flush that follows every immediate call reports a violation
//! (R-V-1). The [`Effect`] of each step tells the reference of `--compare` whether its work
//! happened (a validation report leaves the work done) and what a `finish` left.
//!
//! **Files.** This one runs declarations, releases and the deferred contexts' calls;
//! `live_immediate.rs` the immediate context's calls; `live_queries.rs` what expectations and
//! reports read.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bundles::DrawBundle;
use recorder::{CommandList, Device, DeviceDesc, Error, ErrorKind, SplitCounts, Validation};

use executor::ImmediateContext;

use super::apply::{restore_state, Named};
use super::create::{create, release, Created};
use super::handles::Handles;
use super::names::Names;
use super::origin::{Layout, Origins, Piece};
use super::program::{Call, Create, ObjId, ObjKind, On, Op, Program};
use super::recorders::{
    missing_recorder, EngineRecorder, HeldRecorder, Refusal, Shared, SharedRecorder,
};
use super::sites::{ListSites, OpenSites};
use super::workers::Workers;
use super::writes::OpenMaps;

/// What a step did, for the reference of `--compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// The work happened (or was queued to a worker).
    Ran,
    /// Refused: nothing happened.
    Refused,
    /// A `finish` ended the list: `kept`, it exists; `carried`, the context carries its state
    /// into the next list (legacy, `restore=yes`), else starts the next from the defaults.
    Finished { kept: bool, carried: bool },
    /// A `finish` was refused and the list is still being recorded.
    Open,
}

pub(crate) struct LiveRun {
    /// What the run's threads share: the program, the handles and the instances the maps made.
    pub shared: Arc<Shared>,
    pub(super) device: Device,
    pub(super) imm: ImmediateContext,
    pub(super) names: Names,
    pub(super) slots: HashMap<ObjId, (SharedRecorder, Option<usize>)>,
    pub(super) workers: Workers,
    pub(super) lists: HashMap<ObjId, CommandList>,
    pub(super) bundles: HashMap<ObjId, DrawBundle>,
    /// Bundles a recorder made before its current one (kept until the trace releases it).
    pub(super) earlier_bundles: HashMap<ObjId, Vec<DrawBundle>>,
    pub(super) fences: HashMap<ObjId, u64>,
    pub(super) imm_last: Result<(), Error>,
    /// The outcome of declarations, and of a list's finish and executions on `imm`.
    pub(super) outcomes: HashMap<ObjId, Result<(), Error>>,
    /// Refusals on `imm` and of declarations (the slots keep their own).
    pub(super) refusals: Vec<Refusal>,
    /// Resources mapped read / write on `imm` now.
    pub(super) cpu_mapped: HashSet<ObjId>,
    /// Every map open on `imm` now, which a `write` goes into (`writes.rs`).
    pub(super) open_maps: OpenMaps,
    /// Split points recorded by every list finished, by category.
    pub split_recorded: SplitCounts,
    pub(super) validating: bool,
    /// What each finished list draws, and each recorder's current bundle (`origin.rs`).
    pub(super) layouts: HashMap<ObjId, Layout>,
    pub(super) bundle_layouts: HashMap<ObjId, Layout>,
    /// `imm` executions of each list that ran so far.
    pub(super) executions: HashMap<ObjId, u32>,
    /// Where each record came from: kept under `--records` only.
    pub(super) origins: Option<Origins>,
    /// Every finished list's split points by the call that made them: kept under `--explain`
    /// only (`sites.rs`).
    pub(super) sites: Option<Vec<ListSites>>,
}

pub(super) fn lock(slot: &SharedRecorder) -> MutexGuard<'_, HeldRecorder> {
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Validation reports (R-V-1), and the barrier rules' reports, which the GPU model makes as it
/// runs the barriers (R-BAR-6, R-BAR-8): the work they report on ran.
pub(crate) fn is_report(error: &Error) -> bool {
    matches!(
        error.kind(),
        ErrorKind::CompressedRead
            | ErrorKind::MissingWaitOnPresent
            | ErrorKind::Hazard
            | ErrorKind::InvalidBarrier
            | ErrorKind::LegacyStateNotCommon
    )
}

impl LiveRun {
    pub(crate) fn new(program: Arc<Program>, threads: usize) -> Result<Self, Error> {
        let device = Device::new(DeviceDesc {
            immediate_semantics: program.semantics,
            validation: program.validation,
            legacy_barriers: program.legacy_barriers,
            ..Default::default()
        });
        let imm = ImmediateContext::new(&device)?;
        let handles = Handles::new(program.objects.len());
        let validating = program.validation != Validation::Off;
        // More workers than recorders would idle (`--threads 100000` starts no more threads
        // than the trace has recorders); the output is the same for every count.
        let threads = threads.min(program.recorders.len());
        Ok(Self {
            shared: Arc::new(Shared {
                program,
                handles,
                instances: Mutex::new(HashMap::new()),
            }),
            device,
            imm,
            names: Names::default(),
            slots: HashMap::new(),
            workers: Workers::new(threads),
            lists: HashMap::new(),
            bundles: HashMap::new(),
            earlier_bundles: HashMap::new(),
            fences: HashMap::new(),
            imm_last: Ok(()),
            outcomes: HashMap::new(),
            refusals: Vec::new(),
            cpu_mapped: HashSet::new(),
            open_maps: OpenMaps::default(),
            split_recorded: SplitCounts::default(),
            validating,
            layouts: HashMap::new(),
            bundle_layouts: HashMap::new(),
            executions: HashMap::new(),
            origins: None,
            sites: None,
        })
    }

    fn program(&self) -> &Program {
        &self.shared.program
    }

    /// Keeps where each draw record came from (`--records`); before the first step.
    pub(crate) fn track_origins(&mut self) {
        self.origins.get_or_insert_with(Origins::default);
    }

    /// Keeps where each split point came from (`--explain`); before the first step.
    pub(crate) fn explain_sites(&mut self) {
        self.sites.get_or_insert_with(Vec::new);
    }

    /// Every finished list's split points by the call that made them, in finish order (under
    /// [`explain_sites`](Self::explain_sites); waits for every worker).
    pub(crate) fn sites(&mut self) -> &[ListSites] {
        self.workers.wait_all();
        self.sites.as_deref().unwrap_or(&[])
    }

    /// Runs step `index` (not an expectation: `verdict.rs` checks those), and says what
    /// happened as far as the main thread knows (a queued call counts as done).
    pub(crate) fn step(&mut self, index: usize) -> Effect {
        let shared = self.shared.clone();
        let step = &shared.program.steps[index];
        let ran = match &step.op {
            Op::Create { object, create } => self.create(step.line, *object, create),
            Op::Release(object) => {
                self.release(*object);
                true
            }
            Op::Call {
                on: On::Immediate,
                call,
            } => self.immediate(step.line, call),
            Op::Call {
                on: On::Deferred(id) | On::BundleRecorder(id),
                call,
            } => return self.deferred(index, step.line, *id, call),
            Op::Expect(_) => true,
        };
        match ran {
            true => Effect::Ran,
            false => Effect::Refused,
        }
    }

    fn refuse(&mut self, line: usize, object: ObjId, error: Error) {
        let on = self.program().objects[object].name.clone();
        self.refusals.push(Refusal {
            line,
            on,
            error: error.clone(),
        });
        self.outcomes.insert(object, Err(error));
    }

    fn create(&mut self, line: usize, id: ObjId, what: &Create) -> bool {
        let shared = self.shared.clone();
        let made = create(&self.device, &shared.program, &shared.handles, id, what);
        let object = &shared.program.objects[id];
        match made {
            Ok(Created::Object(kind, raw)) => {
                shared.handles.set(id, raw);
                self.names.object(kind, raw, id);
            }
            Ok(Created::SwapChain(raw, buffers)) => {
                shared.handles.set(id, raw);
                self.names.object(recorder::ObjectKind::SwapChain, raw, id);
                if let Create::SwapChain { back_buffers, .. } = what {
                    for ((texture, view), (texture_id, view_id)) in buffers.iter().zip(back_buffers)
                    {
                        shared.handles.set(*texture_id, *texture);
                        shared.handles.set(*view_id, *view);
                        self.names
                            .object(recorder::ObjectKind::Texture, *texture, *texture_id);
                        self.names
                            .object(recorder::ObjectKind::RenderTargetView, *view, *view_id);
                    }
                }
            }
            Ok(Created::Context(context)) => {
                self.add_slot(id, EngineRecorder::Context(context), Ok(()));
            }
            Ok(Created::Bundle(recorder)) => {
                self.add_slot(id, EngineRecorder::Bundle(recorder), Ok(()));
            }
            Err(error) => {
                if matches!(object.kind, ObjKind::Context | ObjKind::BundleRecorder) {
                    self.add_slot(id, EngineRecorder::Missing { line }, Err(error.clone()));
                }
                self.refuse(line, id, error);
                return false;
            }
        }
        self.outcomes.insert(id, Ok(()));
        true
    }

    fn add_slot(&mut self, id: ObjId, recorder: EngineRecorder, outcome: Result<(), Error>) {
        let program = self.program();
        let index = program.recorders.iter().position(|r| *r == id).unwrap_or(0);
        let worker = self.workers.worker_of(index);
        let mut slot = HeldRecorder::new(&program.objects[id].name, recorder);
        slot.last = outcome;
        slot.tracks = self.origins.is_some();
        if self.sites.is_some() {
            slot.sites = Some(OpenSites::default());
        }
        self.slots.insert(id, (Arc::new(Mutex::new(slot)), worker));
    }

    fn release(&mut self, id: ObjId) {
        self.workers.wait_all();
        let kind = self.program().objects[id].kind;
        match kind {
            ObjKind::Context | ObjKind::BundleRecorder => {
                if let Some((slot, _)) = self.slots.get(&id) {
                    lock(slot).recorder = EngineRecorder::Gone;
                }
                self.bundles.remove(&id);
                self.earlier_bundles.remove(&id);
            }
            ObjKind::CommandList => {
                self.lists.remove(&id);
            }
            ObjKind::Fence => {}
            ObjKind::ContextState => self.shared.handles.drop_state(id),
            _ => {
                if let Some(raw) = self.shared.handles.get(id) {
                    release(&self.device, kind, raw);
                }
            }
        }
    }

    /// A call on a deferred context (or bundle recorder).
    fn deferred(&mut self, index: usize, line: usize, id: ObjId, call: &Call) -> Effect {
        let Some((slot, worker)) = self.slots.get(&id).cloned() else {
            return Effect::Refused;
        };
        match call {
            Call::FinishCommandList { list, restore } => {
                self.workers.wait(worker);
                let (made, effect, pieces) = self.finish(&slot, line, *restore);
                if let (Some(all), Effect::Finished { .. }) = (self.sites.as_mut(), effect) {
                    let recorded = made.as_ref().ok().map(|made| made.stats().split_points);
                    let kept = recorded.as_ref().map(|counts| (*list, id, counts));
                    let mut held = lock(&slot);
                    if let Some(ended) = held.sites.as_mut().and_then(|open| open.end(line, kept)) {
                        all.push(ended);
                    }
                }
                match made {
                    Ok(made) => {
                        self.split_recorded.add(&made.stats().split_points);
                        self.lists.insert(*list, made);
                        self.layouts.insert(*list, pieces.into());
                        self.outcomes.insert(*list, Ok(()));
                    }
                    Err(error) => {
                        self.outcomes.insert(*list, Err(error));
                    }
                }
                effect
            }
            Call::InsertFence { .. }
            | Call::InsertWaitOnFence { .. }
            | Call::SetResourceMinLod { .. }
            | Call::SetShaderResourceViewMinLod { .. }
            | Call::CreateDeviceContextState { .. }
            | Call::SwapDeviceContextState { .. } => {
                self.workers.wait_all();
                let fences = &self.fences;
                let named = Named {
                    list: None,
                    bundle: None,
                    layout: None,
                    fence: &|f| fence_value(fences, f),
                };
                let mut held = lock(&slot);
                let inserted = held.call(&self.shared, line, call, &named);
                if let (Some(value), Call::InsertFence { fence, .. }) = (inserted, call) {
                    self.fences.insert(*fence, value);
                }
                // The reference follows an accepted swap only (R-FX-6: a fast context refuses it).
                match (call, &held.last) {
                    (Call::SwapDeviceContextState { .. }, Err(_)) => Effect::Refused,
                    _ => Effect::Ran,
                }
            }
            Call::FinishBundle => {
                self.workers.wait(worker);
                let (made, effect, pieces) = self.finish_bundle(&slot, line);
                if let Ok(bundle) = made {
                    self.bundle_layouts.insert(id, pieces.into());
                    // The trace keeps every bundle it made until it releases the name: a list
                    // that called the one before still finds it.
                    if let Some(before) = self.bundles.insert(id, bundle) {
                        self.earlier_bundles.entry(id).or_default().push(before);
                    }
                }
                effect
            }
            Call::Map { .. } => {
                // A refused map does not poison the list (R-REC-8), so the list may finish
                // without it: run it here, after the calls queued before it, so that its
                // effect tells the reference whether to issue it.
                self.workers.wait(worker);
                let named = Named {
                    list: None,
                    bundle: None,
                    layout: None,
                    fence: &|_| 0,
                };
                let mut slot = lock(&slot);
                slot.call(&self.shared, line, call, &named);
                match slot.last {
                    Ok(()) => Effect::Ran,
                    Err(_) => Effect::Refused,
                }
            }
            _ => {
                let list = match call {
                    Call::Execute { list, .. } => self.lists.get(list).cloned(),
                    _ => None,
                };
                let bundle = match call {
                    Call::DrawBundle { bundle } => self.bundles.get(bundle).cloned(),
                    _ => None,
                };
                let layout = match call {
                    Call::Execute { list, .. } => self.layouts.get(list).cloned(),
                    Call::DrawBundle { bundle } => self.bundle_layouts.get(bundle).cloned(),
                    _ => None,
                };
                let shared = self.shared.clone();
                self.workers.run(worker, move || {
                    let Op::Call { call, .. } = &shared.program.steps[index].op else {
                        return;
                    };
                    let named = Named {
                        list: list.as_ref(),
                        bundle: bundle.as_ref(),
                        layout: layout.as_ref(),
                        fence: &|_| 0,
                    };
                    lock(&slot).call(&shared, line, call, &named);
                });
                Effect::Ran
            }
        }
    }

    /// Finishes the list of `slot`'s context: the list, or the finish's error, and what
    /// became of the context. A finish refused for its own reason (`restore=yes` on a fast
    /// context, a resource still mapped) leaves the list open; a list with a refused call is
    /// discarded with its first error.
    fn finish(
        &mut self,
        slot: &SharedRecorder,
        line: usize,
        restore: bool,
    ) -> (Result<CommandList, Error>, Effect, Vec<Piece>) {
        let mut slot = lock(slot);
        let name = slot.name.clone();
        let context = match &mut slot.recorder {
            EngineRecorder::Context(context) => context,
            EngineRecorder::Missing { line: declared } => {
                let error = missing_recorder(&name, *declared);
                slot.note(line, Err(error.clone()));
                return (Err(error), Effect::Refused, Vec::new());
            }
            EngineRecorder::Gone | EngineRecorder::Bundle(_) => {
                return (
                    Err(Error::WrongContext {
                        call: "replay",
                        context: "the statement's context",
                        owner: "a deferred context",
                        rule: "TRACE.md, Calls; R-REC-5",
                    }),
                    Effect::Refused,
                    Vec::new(),
                )
            }
        };
        let sticky = context.error().is_some();
        let carried = restore && context.semantics() == recorder::Semantics::Legacy;
        let (result, effect) = match context.finish_command_list(restore_state(restore)) {
            Ok(list) if !slot.poisoned => (
                Ok(list),
                Effect::Finished {
                    kept: true,
                    carried,
                },
            ),
            Ok(_) => (
                Err(error_or_missing(slot.list_error.clone())),
                Effect::Finished {
                    kept: false,
                    carried,
                },
            ),
            Err(error) if sticky => (
                Err(slot.list_error.clone().unwrap_or(error.error)),
                Effect::Finished {
                    kept: false,
                    carried: false,
                },
            ),
            Err(error) => {
                slot.note(line, Err(error.error.clone()));
                return (Err(error.error), Effect::Open, Vec::new());
            }
        };
        let pieces = std::mem::take(&mut slot.pieces);
        slot.list_ended();
        slot.note(line, result.as_ref().map(|_| ()).map_err(Clone::clone));
        (result, effect, pieces)
    }

    /// Finishes the bundle of `slot`'s recorder: the bundle, or the finish's error (the
    /// recorder then starts a new bundle either way).
    fn finish_bundle(
        &mut self,
        slot: &SharedRecorder,
        line: usize,
    ) -> (Result<DrawBundle, Error>, Effect, Vec<Piece>) {
        let mut slot = lock(slot);
        let name = slot.name.clone();
        let recorder = match &mut slot.recorder {
            EngineRecorder::Bundle(recorder) => recorder,
            EngineRecorder::Missing { line: declared } => {
                let error = missing_recorder(&name, *declared);
                slot.note(line, Err(error.clone()));
                return (Err(error), Effect::Refused, Vec::new());
            }
            _ => {
                return (
                    Err(Error::WrongContext {
                        call: "finish",
                        context: "the statement's context",
                        owner: "a bundle recorder",
                        rule: "TRACE.md, Calls; R-B-1",
                    }),
                    Effect::Refused,
                    Vec::new(),
                )
            }
        };
        let result = match recorder.finish() {
            Ok(bundle) if !slot.poisoned => Ok(bundle),
            Ok(_) => Err(error_or_missing(slot.list_error.clone())),
            Err(error) => Err(slot.list_error.clone().unwrap_or(error.error)),
        };
        let pieces = std::mem::take(&mut slot.pieces);
        slot.list_ended();
        slot.note(line, result.as_ref().map(|_| ()).map_err(Clone::clone));
        let kept = result.is_ok();
        (
            result,
            Effect::Finished {
                kept,
                carried: false,
            },
            pieces,
        )
    }
}

/// The value a fence was given, or 0 (which the engine refuses) before it was inserted.
pub(super) fn fence_value(fences: &HashMap<ObjId, u64>, fence: ObjId) -> u64 {
    fences.get(&fence).copied().unwrap_or(0)
}

fn error_or_missing(error: Option<Error>) -> Error {
    error.unwrap_or(Error::DiscardedList { call: "replay" })
}

#[cfg(test)]
mod tests {
    use recorder::command::Command;
    use recorder::{Buffer, Handle, MapCalls, MapFlags, MapType};

    use super::*;

    /// Runs `text` (no expectations) on `threads` workers.
    fn ran(text: &str, threads: usize) -> LiveRun {
        let trace = crate::parse(text.as_bytes()).expect("the trace parses");
        let program = Arc::new(super::super::lower::lower(&trace).expect("the trace lowers"));
        let mut live = LiveRun::new(program.clone(), threads).expect("a run");
        for index in 0..program.steps.len() {
            live.step(index);
        }
        live.settle();
        live
    }

    fn id(live: &LiveRun, name: &str) -> ObjId {
        let objects = &live.program().objects;
        objects
            .iter()
            .position(|o| o.name == name)
            .expect("declared")
    }

    /// The bytes of every write_discard map a list carries, in order.
    fn discard_data(list: &CommandList) -> Vec<Vec<u8>> {
        list.commands()
            .filter_map(|decoded| match decoded.command {
                Command::MapWriteDiscard { data, .. } => Some(data.to_vec()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn r_cap_4_write_lands_in_a_deferred_lists_write_discard_data() {
        let text = "device semantics=legacy\n\
                    buffer cb usage=dynamic bind=constant size=8\n\
                    context dc semantics=legacy\n\
                    dc map cb write_discard\n\
                    dc write cb 0 0102\n\
                    dc draw 3 0\n\
                    dc write cb 6 A0b0\n\
                    dc write cb 7 ffff\n\
                    dc unmap cb\n\
                    dc write cb 2 ee\n\
                    dc map cb write_discard\n\
                    dc write cb 3 33\n\
                    dc unmap cb\n\
                    dc finish list\n";
        for threads in [0, 2] {
            let live = ran(text, threads);
            let list = live.list(id(&live, "list")).expect("the list finished");
            // The write past the 8 bytes and the one after the unmap are refused: not copied.
            assert_eq!(
                discard_data(list),
                [
                    vec![1, 2, 0, 0, 0, 0, 0xa0, 0xb0],
                    vec![0, 0, 0, 0x33, 0, 0, 0, 0]
                ],
                "threads {threads}"
            );
        }
    }

    #[test]
    fn r_cap_4_write_into_a_staging_map_reads_back() {
        let text = "device semantics=fast\n\
                    buffer st usage=staging bind=none size=4\n\
                    imm map st write\n\
                    imm write st 1 c0ffee\n\
                    imm unmap st\n\
                    imm map st read_write\n\
                    imm write st 0 11\n\
                    imm unmap st\n";
        let mut live = ran(text, 0);
        let st = Buffer::from_raw(live.shared.handles.get(id(&live, "st")).expect("made"));
        let back = live
            .imm
            .map(st, MapType::Read, MapFlags::None)
            .expect("a read map");
        assert_eq!(&back[..], [0x11, 0xc0, 0xff, 0xee]);
    }
}
