//! The real run's calls on the immediate context: maps, executions, bundle calls and presents
//! with their results, every other call through `apply.rs`, each followed by the flush that
//! reports on it (validation, direct barriers).
//!
//! **In:** one call of the program on the immediate context, the run ([`LiveRun`]). **Out:**
//! whether its work happened; its outcome as the immediate context's last (and a refusal when
//! it failed). **Invariant:** a call whose effect other contexts' calls could see, or whose
//! result depends on their order, runs only once every worker is idle.

use recorder::{Context, Error, Handle, MapCalls, MapType, Mapped, RawHandle, SwapChain};

use super::apply::{
    map_flags, missing, place_swap_chain_view, record, restore_state, Named, Recorded,
};
use super::live::{fence_value, is_report, LiveRun};
use super::origin::{Layout, Origins, Via};
use super::program::{Call, ObjId};
use super::recorders::Refusal;
use super::writes::copy;

/// What a call did on the immediate context: its outcome (before the flush), and whether its
/// work happened.
type Outcome = (Result<(), Error>, bool);

impl LiveRun {
    /// A call on the immediate context. Returns whether its work happened.
    pub(super) fn immediate(&mut self, line: usize, call: &Call) -> bool {
        if let Some(error) = self.shared.missing_object(call) {
            self.imm_outcome(line, Err(error));
            return false;
        }
        if matches!(
            call,
            Call::SetResourceMinLod { .. }
                | Call::SetShaderResourceViewMinLod { .. }
                | Call::InsertFence { .. }
                | Call::InsertWaitOnFence { .. }
                | Call::Present { .. }
                | Call::PlaceSwapChainView { .. }
                | Call::CreateDeviceContextState { .. }
                | Call::SwapDeviceContextState { .. }
        ) {
            self.workers.wait_all();
        }
        let (mut outcome, ran) = self.immediate_call(line, call);
        // A refused direct call is reported here, at its line: the engine keeps it for the
        // next flush (ImmediateContext::flush), which must not report it again.
        if let Some(refusal) = self.imm.take_refusal() {
            if outcome.is_ok() {
                outcome = Err(refusal.error);
            }
        }
        // A direct call's result is the next flush's (ImmediateContext::flush): under
        // validation for every call; a direct barrier submitted itself and keeps what the GPU
        // model refused of it for that flush, with or without validation (R-BAR-6, R-BAR-8).
        let direct_barrier = matches!(call, Call::Barrier(_) | Call::ResourceBarrier(_));
        let outcome = match (outcome, self.validating || direct_barrier) {
            // A `write` is no call of the engine: nothing to flush.
            (Ok(()), true)
                if !matches!(
                    call,
                    Call::Execute { .. }
                        | Call::Present { .. }
                        | Call::PlaceSwapChainView { .. }
                        | Call::Write { .. }
                ) =>
            {
                self.imm.flush()
            }
            (outcome, _) => outcome,
        };
        self.imm_outcome(line, outcome);
        ran
    }

    /// Makes `call` on the immediate context, by what kind of call it is.
    fn immediate_call(&mut self, line: usize, call: &Call) -> Outcome {
        let shared = self.shared.clone();
        let objects = shared.resolver();
        match call {
            Call::Map { .. } => self.map_on_immediate(call),
            Call::Unmap { resource } if self.cpu_mapped.remove(resource) => {
                self.open_maps.closed(*resource);
                self.imm.unmap(objects.resource(*resource));
                (Ok(()), true)
            }
            Call::Write { .. } => {
                let outcome = self.open_maps.check(&objects, call);
                let ran = outcome.is_ok();
                (outcome, ran)
            }
            Call::Execute { list, restore } => self.execute_on_immediate(line, *list, *restore),
            Call::DrawBundle { bundle } => self.bundle_on_immediate(line, *bundle),
            Call::Present { swapchain: chain } => {
                let chain = shared.handles.get(*chain).unwrap_or(RawHandle::NULL);
                let result = self.imm.present(SwapChain::from_raw(chain));
                let ran = result.as_ref().map_or_else(is_report, |_| true);
                (result, ran)
            }
            Call::FinishCommandList { list, .. } => {
                // docs/TRACE.md: a call the engine refuses, not a malformed trace. LIST is then a
                // list whose finish failed, as on a deferred context.
                let error = Error::WrongContext {
                    call: "finish",
                    context: "the immediate context, which records no command list,",
                    owner: "a deferred context",
                    rule: "TRACE.md; R-EX-1, R-REC-6",
                };
                self.outcomes.insert(*list, Err(error.clone()));
                (Err(error), false)
            }
            Call::PlaceSwapChainView { view, index } => {
                let result = place_swap_chain_view(&self.device, &objects, *view, *index);
                let ran = result.is_ok();
                (result, ran)
            }
            Call::Resume => {
                self.imm.resume();
                (Ok(()), true)
            }
            Call::BeginCommandListExecution => {
                self.imm.begin_command_list_execution();
                (Ok(()), true)
            }
            Call::EndCommandListExecution => {
                self.imm.end_command_list_execution();
                (Ok(()), true)
            }
            _ => self.direct_call(line, call),
        }
    }

    /// `map` on the immediate context: the memory left mapped for the trace's `unmap` and
    /// `write` lines, a write_discard map's instance named, a CPU map kept open.
    fn map_on_immediate(&mut self, call: &Call) -> Outcome {
        let Call::Map {
            resource,
            map_type,
            allow_usage_default,
            instance,
            writes,
        } = call
        else {
            unreachable!("map_on_immediate is given a map")
        };
        let shared = self.shared.clone();
        let objects = shared.resolver();
        let target = objects.resource(*resource);
        match self
            .imm
            .map(target, *map_type, map_flags(*allow_usage_default))
            .map(Mapped::keep_mapped)
        {
            Ok(memory) => {
                copy(memory, *map_type, writes);
                self.open_maps.opened(*resource, *map_type, memory.len());
                match (map_type, instance) {
                    (MapType::WriteDiscard, Some(k)) => {
                        let made = self.imm.current_instance(target.raw());
                        shared.name_instance(made, *resource, *k);
                    }
                    (MapType::Read | MapType::Write | MapType::ReadWrite, _) => {
                        self.cpu_mapped.insert(*resource);
                    }
                    _ => {}
                }
                (Ok(()), true)
            }
            Err(error) => (Err(error), false),
        }
    }

    /// `execute` of `list` on the immediate context, counted as its next execution.
    fn execute_on_immediate(&mut self, line: usize, list: ObjId, restore: bool) -> Outcome {
        let Some(made) = self.lists.get(&list) else {
            return (Err(missing(&self.shared.program, list)), false);
        };
        let start = self.origins.as_ref().map_or(0, Origins::len);
        let mut result = self.imm.execute_command_list(made, restore_state(restore));
        let ran = result.as_ref().map_or_else(is_report, |_| true);
        if ran {
            let execution = self.executions.entry(list).or_insert(0);
            *execution += 1;
            let via = Via::Execution {
                list,
                execution: *execution,
                line,
            };
            self.ran(start, self.layouts.get(&list).cloned(), via);
        }
        // Bundle calls the model skipped (formats, released bundles) count as the
        // execution's refusal, as validation reports do.
        if let Some(skipped) = self.imm.take_execution_errors().into_iter().next() {
            result = result.and(Err(skipped));
        }
        self.outcomes.insert(list, result.clone());
        (result, ran)
    }

    /// `draw_bundle` of `bundle` on the immediate context.
    fn bundle_on_immediate(&mut self, line: usize, bundle: ObjId) -> Outcome {
        let Some(made) = self.bundles.get(&bundle) else {
            return (Err(missing(&self.shared.program, bundle)), false);
        };
        let start = self.origins.as_ref().map_or(0, Origins::len);
        let result = self.imm.draw_bundle(made);
        let ran = result.as_ref().map_or_else(is_report, |_| true);
        if ran {
            let via = Via::Bundle { bundle, line };
            self.ran(start, self.bundle_layouts.get(&bundle).cloned(), via);
        }
        (result, ran)
    }

    /// Any other call, through `apply.rs`: refused when the engine's recorder refused it (its
    /// call count did not move; a direct barrier's batch holds an error).
    fn direct_call(&mut self, line: usize, call: &Call) -> Outcome {
        let shared = self.shared.clone();
        let objects = shared.resolver();
        if let Call::Unmap { resource } = call {
            self.open_maps.closed(*resource);
        }
        let before = self.imm.stats().calls;
        let fences = &self.fences;
        let named = Named {
            list: None,
            bundle: None,
            layout: None,
            fence: &|f| fence_value(fences, f),
        };
        let recorded = record(&mut self.imm, call, &objects, &named);
        // A direct barrier the recorder accepts ends the batch (its counters start
        // again): it was refused when the new batch holds an error.
        let refused = match call {
            Call::Barrier(_) | Call::ResourceBarrier(_) => self.imm.error().is_some(),
            _ => self.imm.stats().calls == before,
        };
        let refused = refused.then(|| {
            self.imm
                .last_refusal()
                .cloned()
                .unwrap_or(Error::RefusedWithoutReason { call: "replay" })
        });
        match (recorded, refused) {
            (Recorded::Refused(error), _) | (Recorded::Made(Some(error)), _) => (Err(error), false),
            (Recorded::Made(None), _) => (Ok(()), true),
            (Recorded::Elsewhere, _) => (Err(not_on_immediate(call)), false),
            (_, Some(error)) => (Err(error), false),
            (Recorded::Fence(value), None) => {
                if let Call::InsertFence { fence, .. } = call {
                    self.fences.insert(*fence, value);
                }
                (Ok(()), true)
            }
            (_, None) => {
                if let (true, Some(origins)) = (call.makes_record(), &mut self.origins) {
                    origins.direct(line);
                }
                (Ok(()), true)
            }
        }
    }

    /// A list or bundle whose layout is `body` ran on `imm`, reached through `via`; the
    /// origins pushed from `start` on are its (and the direct calls' before it).
    pub(super) fn ran(&mut self, start: usize, body: Option<Layout>, via: Via) {
        let Some(origins) = self.origins.as_mut() else {
            return;
        };
        if let Some(body) = &body {
            origins.run(body, via.clone());
        }
        // Executions and bundle calls run inline: the model has consumed everything now.
        if let Some(records) = self.imm.gpu_now().map(|gpu| gpu.draws().len()) {
            origins.settle(start, records, Some(via));
        }
    }

    /// Keeps `outcome` as the immediate context's last, and a refusal when it failed.
    pub(super) fn imm_outcome(&mut self, line: usize, outcome: Result<(), Error>) {
        if let Err(error) = &outcome {
            self.refusals.push(Refusal {
                line,
                on: "imm".into(),
                error: error.clone(),
            });
        }
        self.imm_last = outcome;
    }
}

/// The refusal of a call the immediate context does not have.
fn not_on_immediate(call: &Call) -> Error {
    let (name, owner, rule) = match call {
        Call::RemapConstantBufferInheritance(_)
        | Call::RemapShaderResourceInheritance(_)
        | Call::RemapSamplerInheritance(_)
        | Call::RemapVertexBufferInheritance { .. } => {
            ("remap_*_inheritance", "a bundle recorder", "R-B-9")
        }
        Call::FinishBundle => ("finish", "a bundle recorder", "R-B-1"),
        _ => ("this call", "another kind of context", "R-EX-1"),
    };
    Error::WrongContext {
        call: name,
        context: "the immediate context",
        owner,
        rule,
    }
}
