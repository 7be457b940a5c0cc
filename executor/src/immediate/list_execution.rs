//! Command-list execution on the immediate context (R-EX-1, R-EX-2, R-SP-4) under the state
//! rules of R-ST-1..4: the checks that refuse a list, the walk over its segments, split points
//! and nested lists, and the state saved, restored or cleared around it.
//!
//! **In:** a finished [`CommandList`](recorder::CommandList) and the `restore` choice.
//! **Out:** submissions for the GPU model (`immediate/gpu_submission.rs`), one per segment,
//! split point, nested-list boundary and bundle call, and the execution's result.
//!
//! **Invariant.** Executing a list costs O(segments + split points + nested lists), not
//! O(commands); nested lists of any depth are walked with an explicit stack, never by
//! recursion (R-REC-9).

use recorder::command::{Command, Decoded};
use recorder::{CommandList, Error, Handle, ObjectKind, RestoreState, Segment, Semantics};

use super::gpu_submission::Submission;
use super::{ImmediateContext, Nesting};

impl ImmediateContext {
    /// Opens a scope in which executed lists must all have the same semantics (R-ST-3).
    pub fn begin_command_list_execution(&mut self) {
        self.scope = Some(None);
    }

    /// Closes the scope opened by [`begin_command_list_execution`](Self::begin_command_list_execution).
    pub fn end_command_list_execution(&mut self) {
        self.scope = None;
    }

    /// Executes `list` (R-EX-1, R-EX-2). `restore`: see the module essay (R-ST-2). A refused
    /// execution changes nothing and counts nothing. Refused with `invalid_argument` for a list
    /// of another device (R-OBJ-3); `restore_not_supported` for [`RestoreState::Restore`] on a
    /// fast immediate context; `mixed_semantics` for a list whose semantics differs from the
    /// others' inside a [`begin_command_list_execution`](Self::begin_command_list_execution)
    /// scope (R-ST-3). Under validation also `back_buffer_affinity` for a list recorded against
    /// another back buffer than the current one (without validation it is logged and the list
    /// draws into the buffer it names, R-EX-7), and `released_object` for a fast list naming a
    /// released object (R-V-1). With or without validation, `released_object` for a list that
    /// names a released object it holds no reference on through a call keeping the fast
    /// contract (R-FX-1) or as a title-managed list (R-FX-6), nested lists included: it never
    /// runs.
    pub fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error> {
        let restore = restore.is_restore();
        const CALL: &str = "execute_command_list";
        if !list.is_from(&self.device) {
            return Err(Error::WrongDevice {
                call: CALL,
                object: "command list",
                device: list.device_serial(),
                expected: self.device.serial(),
                uses: "executes",
            });
        }
        if restore && self.semantics == Semantics::Fast {
            return Err(Error::RestoreNotSupported { call: CALL });
        }
        if let Some(Some(scope)) = self.scope {
            if scope != list.semantics() {
                return Err(Error::MixedSemantics {
                    call: CALL,
                    list: list.semantics().name(),
                    scope: scope.name(),
                });
            }
        }
        if let Some((chain, recorded)) = list.back_buffer_affinity() {
            let current = self.device.current_back_buffer(chain).unwrap_or(recorded);
            if current != recorded {
                let error = Error::BackBufferAffinity {
                    call: CALL,
                    swap_chain: self.device.object_name(ObjectKind::SwapChain, chain.raw()),
                    recorded,
                    current,
                };
                if self.validating {
                    return Err(error);
                }
                // Without validation the list draws into the buffer it was recorded against,
                // as the hardware would (R-EX-7).
                tracing::warn!(%error);
            }
        }
        // Under validation every list is held to its semantics' rule (R-V-1): a fast list holds
        // no reference, so what it names may be released (R-OBJ-4). Without it, the lists that
        // name objects they hold no reference on although legacy semantics promised safety
        // are checked all the same: title-managed ones (R-FX-6) and those holding a call that
        // keeps the fast contract on any context (R-FX-1), nested ones included; a flag set at
        // recording says which, so the others cost one branch (`list/lifetime_check.rs`).
        let released = match self.validating {
            true => list.first_released_object(),
            false => list.first_released_unreferenced(),
        };
        if let Some(object) = released {
            return Err(Error::ReleasedObject { call: CALL, object });
        }
        if let Some(scope) = self.scope.as_mut() {
            *scope = Some(list.semantics());
        }
        let _span = tracing::debug_span!("execute_command_list", commands = list.stats().commands)
            .entered();
        // Violations of direct calls not reported yet come first.
        let direct = self.submit_direct();
        self.run(list, restore, self.semantics);
        if self.semantics == Semantics::Legacy && !restore {
            // The after-rule cleared the state: what the direct calls bound before is gone for
            // the recorder too (a later map must not re-bind it, its references go).
            self.recorder.state_cleared_by_execution();
        }
        // A legacy list's last instances are the immediate context's now (`run` made them
        // current); what the after-rule put back is re-bound to them (R-ST-8).
        for last in list.last_instances() {
            self.recorder
                .adopt_instance(last.resource, last.instance, true);
        }
        self.queue.push(Submission::Kickoff);
        direct.and(self.submitted())
    }

    /// Submits `list` as if executed by a context of `executing` semantics with `restore`:
    /// O(segments + split points + nested lists) on the CPU (R-EX-2). The list itself is walked
    /// in place; its nested lists, however deep, with a stack of their own ([`run_nested`]),
    /// not by recursion (R-REC-9).
    ///
    /// [`run_nested`]: Self::run_nested
    pub(super) fn run(&mut self, list: &CommandList, restore: bool, executing: Semantics) {
        let saved = self.begin_list(list, restore, executing);
        let semantics = list.semantics();
        for segment in list.segments() {
            if let Some((nested, restore)) = self.submit(segment, semantics) {
                // The list's recording context plays the executing context's part.
                self.run_nested(nested, restore, semantics);
            }
        }
        self.end_list(list, executing, saved);
    }

    /// Runs a nested list and every list nested in it, depth first, with the `nesting` stack.
    pub(super) fn run_nested(&mut self, list: CommandList, restore: bool, executing: Semantics) {
        let mut nesting = std::mem::take(&mut self.nesting);
        let saved = self.begin_list(&list, restore, executing);
        nesting.push(Nesting {
            walk: list.into_segment_walk(),
            executing,
            saved,
        });
        while let Some(top) = nesting.last_mut() {
            let semantics = top.walk.list().semantics();
            let Some(segment) = top.walk.next() else {
                if let Some(done) = nesting.pop() {
                    self.end_list(done.walk.list(), done.executing, done.saved);
                }
                continue;
            };
            if let Some((list, restore)) = self.submit(segment, semantics) {
                let saved = self.begin_list(&list, restore, semantics);
                nesting.push(Nesting {
                    walk: list.into_segment_walk(),
                    executing: semantics,
                    saved,
                });
            }
        }
        self.nesting = nesting;
    }

    /// Starts `list`'s execution by a context of `executing` semantics (R-ST-1); returns
    /// whether the executing state was saved, to restore afterwards (legacy, `restore`).
    pub(super) fn begin_list(
        &mut self,
        list: &CommandList,
        restore: bool,
        executing: Semantics,
    ) -> bool {
        let saved = executing == Semantics::Legacy && restore;
        if saved {
            self.queue.push(Submission::Save);
        }
        self.queue
            .push(Submission::ListBegin(list.recorder(), list.semantics()));
        if list.semantics() == Semantics::Legacy {
            // A legacy list never sees the executing context's state (R-ST-1).
            self.queue.push(Submission::ClearState);
        }
        saved
    }

    /// Ends a list's execution: a legacy list's last instances become current, so that split
    /// points later in the outer list and binds after it read them (R-ST-8); then the executing
    /// context's after-rule (R-ST-2).
    pub(super) fn end_list(&mut self, list: &CommandList, executing: Semantics, saved: bool) {
        for last in list.last_instances() {
            self.recorder
                .adopt_instance(last.resource, last.instance, false);
        }
        match executing {
            Semantics::Legacy if saved => self.queue.push(Submission::Restore),
            Semantics::Legacy => self.queue.push(Submission::ClearState),
            Semantics::Fast => {}
        }
        self.queue.push(Submission::ListEnd);
    }

    /// Submits one segment of a list of `semantics`; a nested list comes back, to be executed
    /// next with its restore flag. A run, the common segment, is pushed here; the rest out of
    /// line.
    #[inline]
    pub(super) fn submit(
        &mut self,
        segment: Segment<'_>,
        semantics: Semantics,
    ) -> Option<(CommandList, bool)> {
        match segment {
            Segment::Commands(run) => self.queue.push(Submission::Run(run.to_queued(), semantics)),
            Segment::SplitPoint(decoded) => self.submit_split_point(decoded, semantics),
            Segment::Nested(decoded) => return self.submit_nested(decoded),
        }
        None
    }

    /// Queues a split point, its dynamic binding resolved: it reads the immediate context's
    /// current instance of the resource, now (R-SP-4, R-ST-8).
    #[inline(never)]
    pub(super) fn submit_split_point(&mut self, decoded: Decoded<'_>, semantics: Semantics) {
        let recorder = &self.recorder;
        let queue = &mut self.queue;
        if queue
            .split_points
            .push(decoded, |resource| recorder.current_instance(resource))
        {
            queue.push(Submission::Split(semantics));
        }
    }

    /// Queues a bundle call, or hands back the nested list to execute.
    #[inline(never)]
    pub(super) fn submit_nested(&mut self, decoded: Decoded<'_>) -> Option<(CommandList, bool)> {
        match decoded.command {
            Command::ExecuteCommandList { list, restore } => Some((list.to_list(), restore)),
            Command::DrawBundle { bundle } => {
                match self.device.bundle_body(bundle) {
                    Some(body) => self.queue.push(Submission::Bundle(
                        body.commands,
                        body.declaration,
                        body.footprint,
                    )),
                    // A fast list holds no reference on the bundles it calls: this one was
                    // released before the list ran (R-OBJ-3, R-OBJ-4). The call is skipped;
                    // validation refuses the execution up front instead.
                    None => self.execution_errors.push(Error::ReleasedObject {
                        call: "draw_bundle",
                        object: self.device.object_name(ObjectKind::Bundle, bundle),
                    }),
                }
                None
            }
            _ => None,
        }
    }
}
