//! A command list's execution in the reference (R-ST-1, R-ST-2, R-ST-8, R-REC-9): its calls
//! issued on a recorder made afresh, of the list's semantics, from the list's starting state,
//! then the executing context's after-rule; nested lists walked with a stack, not by recursion.
//!
//! **In:** an `execute` of a finished list ([`ListBook`]), the executing context's semantics
//! and restore flag, the recorders below it (`stack`, empty for `imm`). **Out:** the list's
//! calls issued in order on the innermost recorder and fed to the GPU model; its last
//! instances made current.
//!
//! **Lazy levels.** A level (a list being run) opens its recorder only when something is issued
//! on it or on a level above it, and gives its device back to the pool when it ends, so a chain
//! of lists that only execute the next one opens no recorder until a call is issued. What a level
//! owes before its first call (a legacy list's `clear_state` and carried state calls, R-ST-1)
//! waits in [`Level::start`] until it opens; a level opens every level below it first, so what
//! they owe reaches the GPU model before its own calls, in the engine's order (opened later, a
//! level's `clear_state` would wipe what the levels above had bound before a `restore=yes`
//! snapshot or a fast list read it). A list whose executing context is fast, which keeps what the
//! list left, opens before it ends. An after-rule's `clear_state` on a level not yet open
//! replaces what it owes by a `clear_state`.
//!
//! **Invariant:** the stack of levels and the stack of list walks grow and shrink together
//! (one level per list being run), so any nesting depth runs; the devices are twins in a pool
//! (`open`), as many per semantics as recorders are open at once.

use recorder::{ClearStateCalls, Device, DeviceDesc, Semantics};

use super::super::apply::{record, Named};
use super::super::create::create;
use super::super::handles::Resolver;
use super::super::program::{Call, ObjId};
use super::feed::Scope;
use super::setters::Setter;
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

/// A list (or bundle call) being run, and the recorder its calls are issued on, once opened.
pub(super) struct Level {
    semantics: Semantics,
    /// The recorder and its pool device, once something was issued on the level.
    frame: Option<(Frame, usize)>,
    /// What the level owes before its first call: `Some(setters)`, a `clear_state` and then
    /// these carried state calls (a legacy list, R-ST-1); `None`, nothing (a fast list, a bundle).
    start: Option<Vec<Setter>>,
}

/// The pool of twin devices the levels' recorders are made on.
#[derive(Default)]
pub(super) struct DevicePool {
    /// Every twin, with the semantics of its immediate recorder.
    pub(super) devices: Vec<(Semantics, Device)>,
    /// The twins whose recorder is not open, by semantics.
    free: Vec<usize>,
}

impl Reference {
    /// A recorder of `semantics` for a level, made afresh on a twin device of the pool that has
    /// none open (a new twin when every one of that semantics has). `None` if the engine refuses
    /// one (it cannot: each twin's immediate recorder is given back when its frame drops).
    fn open(&mut self, semantics: Semantics) -> Option<(Frame, usize)> {
        let pool = &mut self.list_devices;
        let free = pool
            .free
            .iter()
            .rposition(|&index| pool.devices[index].0 == semantics)
            .map(|at| pool.free.swap_remove(at));
        let index = match free {
            Some(index) => index,
            None => {
                let twin = self.twin(semantics);
                self.list_devices.devices.push((semantics, twin));
                self.list_devices.devices.len() - 1
            }
        };
        let recorder = self.list_devices.devices[index]
            .1
            .immediate_recorder()
            .ok()?;
        let frame = Frame {
            recorder,
            semantics,
            scope: Scope::list(),
        };
        Some((frame, index))
    }

    /// A twin of the reference's device with an immediate recorder of `semantics`, holding every
    /// object made so far and every minimum LOD set so far.
    fn twin(&self, semantics: Semantics) -> Device {
        // A twin: the same creations give it the same handles, which it accepts (R-OBJ-3); so
        // the reference's handles resolve the twin's objects too: no table of its own.
        let made = self.device.twin(DeviceDesc {
            immediate_semantics: semantics,
            ..self.device.desc().clone()
        });
        let program = &self.program;
        let objects = Resolver {
            program,
            handles: &self.handles,
        };
        for logged in &self.log {
            match logged {
                Logged::Create(id, what) => {
                    let _ = create(&made, program, &self.handles, *id, what);
                }
                Logged::MinLod(call) => {
                    if let Ok(mut recorder) = made.immediate_recorder() {
                        record(&mut recorder, call, &objects, &Named::NONE);
                    }
                }
                Logged::Move(moved) => moved.apply(&made, &objects),
            }
        }
        made
    }

    /// Opens level `index` of `stack` if it is not open, issuing what it owes (R-ST-1), and every
    /// level below it first: what a level owes came before anything issued above it, and feeds
    /// the GPU model in that order (a level below opened late would clear the state the levels
    /// above had bound: a snapshot for `restore=yes`, or a fast list inheriting it, would read
    /// the clear).
    fn open_level(&mut self, stack: &mut [Level], index: usize) {
        for below in 0..=index {
            self.open_one(stack, below);
        }
    }

    /// Opens level `index` alone (the levels below it are open).
    fn open_one(&mut self, stack: &mut [Level], index: usize) {
        let Some(level) = stack.get_mut(index) else {
            return;
        };
        if level.frame.is_some() {
            return;
        }
        let semantics = level.semantics;
        let start = level.start.take();
        let Some(opened) = self.open(semantics) else {
            return;
        };
        stack[index].frame = Some(opened);
        if let Some(setters) = start {
            self.issue_at(stack, index, None, &Call::ClearState);
            let program = self.program.clone();
            for setter in setters {
                for call in setter_calls(&program, setter) {
                    self.issue_at(stack, index, Some(setter.at), &call);
                }
            }
        }
    }

    /// Opens every level of `stack`, outermost first: before whatever reads the state the levels
    /// leave (a fast list, a bundle call, a snapshot).
    pub(super) fn open_all(&mut self, stack: &mut [Level]) {
        if let Some(top) = stack.len().checked_sub(1) {
            self.open_level(stack, top);
        }
    }

    /// Ends a level: its frame's scope, its recorder dropped and its device given back.
    fn close(&mut self, level: Level) -> Option<Scope> {
        let (frame, device) = level.frame?;
        let Frame {
            recorder, scope, ..
        } = frame;
        drop(recorder);
        self.list_devices.free.push(device);
        Some(scope)
    }

    /// Pushes a bundle call's level (fast, open) on `stack`, whose levels are open (the bundle
    /// draws over the state they leave: [`open_all`](Self::open_all) first).
    pub(super) fn enter_bundle(&mut self, stack: &mut Vec<Level>) -> bool {
        let Some(opened) = self.open(Semantics::Fast) else {
            return false;
        };
        stack.push(Level {
            semantics: Semantics::Fast,
            frame: Some(opened),
            start: None,
        });
        true
    }

    /// Ends the bundle call's level that [`enter_bundle`](Self::enter_bundle) pushed.
    pub(super) fn leave_bundle(&mut self, stack: &mut Vec<Level>) {
        if let Some(level) = stack.pop() {
            self.close(level);
        }
    }

    /// Executes list `id` as a context of `executing` semantics with `restore` would; the
    /// executing recorder is the top of `stack` (empty: `imm`), each list's level is pushed on
    /// it. Nested lists are walked with a stack of their own (`runs`, in step with the levels
    /// they pushed), not by recursion: any depth runs (R-REC-9).
    pub(super) fn run_list(
        &mut self,
        id: ObjId,
        restore: bool,
        executing: Semantics,
        stack: &mut Vec<Level>,
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

    /// Starts list `id`'s execution by a context of `executing` semantics: pushes its level on
    /// `stack` (not open yet) and its walk on `runs`.
    fn enter_list(
        &mut self,
        id: ObjId,
        restore: bool,
        executing: Semantics,
        stack: &mut Vec<Level>,
        runs: &mut Vec<ListRun>,
    ) {
        let Some(book) = self.lists.get(&id).cloned() else {
            return;
        };
        let saves = executing == Semantics::Legacy && restore;
        // A fast list starts from the state the levels below leave, and a snapshot is of it.
        if saves || book.semantics == Semantics::Fast {
            self.open_all(stack);
        }
        let saved = saves.then(|| Box::new(self.feed.gpu.snapshot()));
        let start = (book.semantics == Semantics::Legacy).then(|| book.carried.clone());
        stack.push(Level {
            semantics: book.semantics,
            frame: None,
            start,
        });
        runs.push(ListRun {
            book,
            next: 0,
            executing,
            restore,
            saved,
        });
    }

    /// Ends a list's execution: closes its level, makes a legacy list's last instances current
    /// (R-ST-8), and applies the executing context's after-rule (R-ST-2).
    fn leave_list(&mut self, done: ListRun, stack: &mut Vec<Level>) {
        // A fast executing context keeps the state the list left (R-ST-2), its starting state
        // included: a level that never opened pays what it owes now.
        if done.executing == Semantics::Fast {
            if let Some(top) = stack.len().checked_sub(1) {
                self.open_level(stack, top);
            }
        }
        let scope = stack.pop().and_then(|level| self.close(level));
        // A legacy list's last instances become current (R-ST-8): for the splits and binds
        // after it, and as the executing context's (merged into an outer list's, which leaves
        // them in turn if it is legacy).
        let last = match (scope, done.book.semantics) {
            (Some(scope), Semantics::Legacy) => {
                let mut last: Vec<_> = scope.last.iter().map(|(r, i)| (*r, *i)).collect();
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
            (Semantics::Legacy, None) => match stack.last_mut() {
                // Not open: nothing saw the state the list left, and nothing before the
                // clear_state matters any more.
                Some(level) if level.frame.is_none() => level.start = Some(Vec::new()),
                _ => self.issue_on_top(stack, None, &Call::ClearState),
            },
            (Semantics::Fast, _) => {}
        }
        if last.is_empty() {
            return;
        }
        let top = stack.len().checked_sub(1);
        if let Some(top) = top {
            // The outer list's recorder reads them from now on, re-binding what it kept.
            self.open_level(stack, top);
            let Some((outer, _)) = stack[top].frame.as_mut() else {
                return;
            };
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
        } else {
            // The immediate context's own recorder reads them from now on, and re-binds the
            // slots that the after-rule put back (the runtime patches the binding).
            for (resource, instance) in last {
                self.imm.recorder.adopt_instance(resource, instance, true);
            }
            self.flush_imm(None);
        }
    }

    /// Issues a list's (or bundle's) call of step `op` on the innermost level, opening it.
    pub(super) fn issue_on_top(&mut self, stack: &mut [Level], op: Option<usize>, call: &Call) {
        if let Some(top) = stack.len().checked_sub(1) {
            self.open_level(stack, top);
            self.issue_at(stack, top, op, call);
        }
    }

    /// Issues `call` (of step `op`) on level `index`, which is open.
    fn issue_at(&mut self, stack: &mut [Level], index: usize, op: Option<usize>, call: &Call) {
        let Some((frame, device)) = stack.get_mut(index).and_then(|level| level.frame.as_mut())
        else {
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
            // And the buffer its swap-chain views named then (R-EX-7).
            self.bind_placements_as_of(*device, op, call);
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
