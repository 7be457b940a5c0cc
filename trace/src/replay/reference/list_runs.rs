//! A command list's execution in the reference (R-ST-1, R-ST-2, R-ST-8, R-REC-9): its calls
//! issued on a recorder made afresh, of the list's semantics, from the list's starting state,
//! then the executing context's after-rule; nested lists walked with a stack, not by recursion.
//!
//! **In:** an `execute` of a finished list ([`ListBook`]), the executing context's semantics
//! and restore flag, the recorders below it (`stack`, empty for `imm`). **Out:** the list's
//! calls issued in order on the innermost recorder and fed to the GPU model; its last
//! instances made current.
//!
//! **Invariant:** the stack of recorders and the stack of list walks grow and shrink together
//! (one frame per list being run), so any nesting depth runs, at the cost of one device per
//! level (`open`).

use recorder::{ClearStateCalls, DeviceDesc, Semantics};

use super::super::apply::{record, Named};
use super::super::create::create;
use super::super::handles::Resolver;
use super::super::program::{Call, ObjId};
use super::feed::Scope;
use super::setters::{call_of, setter_calls};
use super::{issue, Frame, ListBook, Logged, Reference};
use executor::GpuState;

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
    /// The registers saved for a legacy `restore=yes`, boxed: a `GpuState` is 32 KB, and a walk
    /// keeps one run per nesting level.
    saved: Option<Box<GpuState>>,
}

impl Reference {
    /// The recorder of a list or bundle at `depth`, made afresh.
    pub(super) fn open(&mut self, semantics: Semantics, depth: usize) -> Option<Frame> {
        if !self.list_devices.contains_key(&(semantics, depth)) {
            // A twin: the same creations give it the same handles, which it accepts (R-OBJ-3).
            let made = self.device.twin(DeviceDesc {
                immediate_semantics: semantics,
                ..self.device.desc().clone()
            });
            // The twin's creations give the handles the reference's own device gave, so its
            // handles resolve the twin's objects too: no table of its own per twin.
            let program = self.program.clone();
            for logged in &self.log {
                match logged {
                    Logged::Create(id, what) => {
                        let _ = create(&made, &program, &self.handles, *id, what);
                    }
                    Logged::MinLod(call) => {
                        if let Ok(mut recorder) = made.immediate_recorder() {
                            let objects = Resolver {
                                program: &program,
                                handles: &self.handles,
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
    pub(super) fn run_list(
        &mut self,
        id: ObjId,
        restore: bool,
        executing: Semantics,
        stack: &mut Vec<Frame>,
    ) {
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
        let saved =
            (executing == Semantics::Legacy && restore).then(|| Box::new(self.feed.gpu.snapshot()));
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
            // See `flush_imm` (`follow.rs`).
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

    /// Issues a list's (or bundle's) call of step `op` on the innermost recorder.
    pub(super) fn issue_on_top(&mut self, stack: &mut [Frame], op: Option<usize>, call: &Call) {
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
            self.bind_lods_as_of(&mut frame.recorder, op, call);
        }
        let k = issue(&self.program, &self.handles, &mut frame.recorder, call);
        // See `flush_imm` (`follow.rs`).
        let Ok(batch) = frame.recorder.take_batch() else {
            return;
        };
        self.feed
            .consume(&batch, frame.semantics, &mut frame.scope, k);
    }
}
