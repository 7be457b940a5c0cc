//! A deferred context (or bundle recorder) of the trace as the replay holds it: the engine's
//! recorder, what `expect error`, `expect accepted` and `expect ok` will ask about it, and what
//! the list or bundle being recorded will draw (`origin.rs`): a [`HeldRecorder`]. One is
//! touched by one thread at a time: the worker it is assigned to under `--threads`, or the main
//! thread once it has waited for that worker's queue (a `Mutex` makes the hand-over safe; it is
//! never contended).
//!
//! **Which calls a held recorder refuses itself.** The engine's API cannot be called with an
//! object whose declaration it refused, a command list whose `finish` failed, or an
//! immediate-context call on a deferred context (`present`, `resume`,
//! `begin_command_list_execution`, ...): the replay refuses those calls with `invalid_argument` and a message saying why, and, since a
//! refused call poisons the list being recorded (R-REC-8), the next `finish` fails with the
//! first refusal of the list, whoever made it.
//!
//! **`write`** is no call of the engine: the held recorder answers it from its open maps
//! (`writes.rs`: the maps it accepted and has not unmapped, forgotten when the list ends), or,
//! on a bundle recorder, refuses it with `unsupported_in_bundle`; a refused write, like a
//! refused map, does not poison the list (R-REC-8).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use bundles::BundleRecorder;
use recorder::command::InstanceId;
use recorder::{DeferredContext, Error};

use super::apply::{record, Named, Recorded};
use super::handles::{Handles, Resolver};
use super::origin::Piece;
use super::program::{Call, ObjId, Program};
use super::recording_targets::Recording;
use super::sites::OpenSites;
use super::writes::OpenMaps;

/// A call the engine (or the replay) refused: where, on what, and the error.
#[derive(Clone, Debug)]
pub(crate) struct Refusal {
    /// The trace line of the refused statement.
    pub line: usize,
    /// `imm`, or the trace name of the context or object.
    pub on: String,
    /// The error the engine (or the replay) refused it with.
    pub error: Error,
}

/// What every thread of a replay shares: the program, the handles its declarations made, and
/// the dynamic instances the engine made for each write_discard map statement.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The lowered trace every thread runs.
    pub program: Arc<Program>,
    /// The engine handle of every object the trace declared.
    pub handles: Handles,
    /// Engine instance → (resource, K) (docs/TRACE.md "Instances").
    pub instances: Mutex<HashMap<InstanceId, (ObjId, u32)>>,
}

impl Shared {
    pub(crate) fn resolver(&self) -> Resolver<'_> {
        Resolver {
            program: &self.program,
            handles: &self.handles,
        }
    }

    pub(crate) fn name_instance(&self, instance: InstanceId, resource: ObjId, k: u32) {
        self.instances
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(instance, (resource, k));
    }

    /// The refusal of a call that names an object the engine never made, if it does.
    /// The trace's objects a device context state object binds (R-FX-6), for the split points
    /// a swap makes (`sites.rs`).
    pub(crate) fn state_objects(&self, state: ObjId) -> Vec<ObjId> {
        let mut raws = Vec::new();
        self.handles.with_state(state, |held| {
            held.bindings().for_each_object(|_, raw| raws.push(raw))
        });
        (0..self.program.objects.len())
            .filter(|id| self.handles.get(*id).is_some_and(|raw| raws.contains(&raw)))
            .collect()
    }

    pub(crate) fn missing_object(&self, call: &Call) -> Option<Error> {
        let mut named = Vec::new();
        call.objects(&mut named);
        let object = named.into_iter().find(|&id| {
            let object = &self.program.objects[id];
            object.kind.is_engine_object() && self.handles.get(id).is_none()
        })?;
        let object = &self.program.objects[object];
        Some(Error::RefusedDeclaration {
            call: "replay",
            what: "object",
            object: object.name.to_string(),
            line: object.line,
        })
    }
}

/// The engine recorder behind a [`HeldRecorder`]: the deferred context or bundle recorder a
/// `context` or `bundle` declaration made, or why there is none.
pub(crate) enum EngineRecorder {
    Context(Box<DeferredContext>),
    Bundle(Box<BundleRecorder>),
    /// The engine refused the declaration: calls on it are refused by the replay.
    Missing {
        line: usize,
    },
    /// Released by the trace (no later statement names it: `lower/mod.rs` checks).
    Gone,
}

/// A deferred context or bundle recorder of the trace as the run holds it (see the module
/// essay). Not a binding slot: the run keeps one per `context` and `bundle` declaration.
pub(crate) struct HeldRecorder {
    /// The context's or bundle's name in the trace.
    pub name: String,
    /// The engine's recorder, or why there is none.
    pub recorder: EngineRecorder,
    /// The outcome of the last call on it (or its declaration, finish or execute).
    pub last: Result<(), Error>,
    /// Every refusal on it, in order.
    pub refusals: Vec<Refusal>,
    /// The first refusal since the list being recorded began, the engine's or the replay's.
    pub list_error: Option<Error>,
    /// The replay refused a call of a bundle being recorded (the engine does not know: the
    /// replay fails the bundle's `finish` itself). A deferred context is told instead
    /// (`Recorder::refuse`, in `recorder::engine`), so its list fails as for any refused call and carries no
    /// state.
    pub poisoned: bool,
    /// The accepted calls of the list or bundle being recorded that make draw records
    /// (`origin.rs`): its layout once finished. Kept only where `tracks` (`--records`).
    pub pieces: Vec<Piece>,
    /// Whether the run keeps `pieces`: it tracks where draw records come from (`--records`).
    pub tracks: bool,
    /// The calls of the list being recorded that made split points (`sites.rs`): kept only
    /// where the run explains them (`--explain`).
    pub sites: Option<OpenSites>,
    /// The maps accepted and not yet unmapped, which a `write` goes into (`writes.rs`).
    pub open_maps: OpenMaps,
}

pub(crate) type SharedRecorder = Arc<Mutex<HeldRecorder>>;

impl HeldRecorder {
    pub(crate) fn new(name: &str, recorder: EngineRecorder) -> Self {
        Self {
            name: name.to_owned(),
            recorder,
            last: Ok(()),
            refusals: Vec::new(),
            list_error: None,
            poisoned: false,
            pieces: Vec::new(),
            tracks: false,
            sites: None,
            open_maps: OpenMaps::default(),
        }
    }

    /// Notes the outcome of a call of `line` (a finish too).
    pub(crate) fn note(&mut self, line: usize, outcome: Result<(), Error>) {
        if let Err(error) = &outcome {
            self.refusals.push(Refusal {
                line,
                on: self.name.clone(),
                error: error.clone(),
            });
        }
        self.last = outcome;
    }

    /// Notes the outcome of a recording call of `line`: a refusal is also the list's, but for
    /// a call that reports its own result (`map`), which does not poison the list (R-REC-8).
    pub(crate) fn outcome(&mut self, line: usize, outcome: Result<(), Error>, by_replay: bool) {
        self.outcome_of(line, outcome, by_replay, true)
    }

    fn outcome_of(
        &mut self,
        line: usize,
        outcome: Result<(), Error>,
        by_replay: bool,
        sticky: bool,
    ) {
        if !sticky {
            return self.note(line, outcome);
        }
        if let Err(error) = &outcome {
            if by_replay {
                match &mut self.recorder {
                    EngineRecorder::Context(context) => context.refuse(error.clone()),
                    _ => self.poisoned = true,
                }
            }
            if self.list_error.is_none() {
                self.list_error = Some(error.clone());
            }
        }
        self.note(line, outcome);
    }

    /// The list being recorded ended (finished, or discarded by a failed finish).
    pub(crate) fn list_ended(&mut self) {
        self.list_error = None;
        self.poisoned = false;
        self.pieces.clear();
        // Its maps end with it (a failed finish discards a poisoned list, maps and all).
        self.open_maps.clear();
    }

    /// An accepted call of `line`: what it will draw when the list or bundle runs.
    fn note_piece(&mut self, line: usize, call: &Call, named: &Named<'_>) {
        if !self.tracks {
            return;
        }
        let piece = match (call, named.layout) {
            (Call::DrawBundle { bundle }, Some(body)) => Piece::Bundle {
                bundle: *bundle,
                line,
                body: body.clone(),
            },
            (Call::Execute { list, .. }, Some(body)) => Piece::List {
                list: *list,
                line,
                body: body.clone(),
            },
            (call, _) if call.makes_record() => Piece::Draw { line },
            _ => return,
        };
        self.pieces.push(piece);
    }

    /// Runs a call of `line` on the held recorder; `named`: the list, bundle and fences it
    /// names. Returns the value of a fence the call inserted.
    pub(crate) fn call(
        &mut self,
        shared: &Shared,
        line: usize,
        call: &Call,
        named: &Named<'_>,
    ) -> Option<u64> {
        match &self.recorder {
            EngineRecorder::Context(_) | EngineRecorder::Bundle(_) => {}
            EngineRecorder::Missing { line: declared } => {
                let error = missing_recorder(&self.name, *declared);
                self.outcome(line, Err(error), true);
                return None;
            }
            EngineRecorder::Gone => return None,
        }
        // A refused map or write does not poison the list (R-REC-8; `writes.rs`).
        let sticky = !matches!(call, Call::Map { .. } | Call::Write { .. });
        if let Some(error) = shared.missing_object(call) {
            self.outcome_of(line, Err(error), true, sticky);
            return None;
        }
        if let Call::Write { .. } = call {
            let outcome = match self.recorder {
                // A bundle maps nothing (R-B-8): refused as its `map` is.
                EngineRecorder::Bundle(_) => Err(Error::UnsupportedInBundle { call: "write" }),
                _ => self.open_maps.check(&shared.resolver(), call),
            };
            self.note(line, outcome);
            return None;
        }
        if let Call::Unmap { resource } = call {
            self.open_maps.closed(*resource);
        }
        let (recorded, refused) = match &mut self.recorder {
            EngineRecorder::Context(context) => {
                let before = self.sites.is_some().then(|| context.stats());
                // What a swap binds (R-FX-6): the objects the state holds before it.
                let swapped_in = match (&before, call) {
                    (Some(_), Call::SwapDeviceContextState { state }) => {
                        shared.state_objects(*state)
                    }
                    _ => Vec::new(),
                };
                let done = apply(&mut **context, shared, call, named);
                if let (Some(before), Some(open)) = (before, self.sites.as_mut()) {
                    let mut objects = Vec::new();
                    call.objects(&mut objects);
                    objects.extend(swapped_in);
                    let after = context.stats().split_points;
                    open.note(line, before.calls, &before.split_points, &after, objects);
                }
                done
            }
            EngineRecorder::Bundle(bundle) => apply(&mut **bundle, shared, call, named),
            EngineRecorder::Missing { .. } | EngineRecorder::Gone => return None,
        };
        let mut inserted = None;
        match recorded {
            Recorded::Done | Recorded::Fence(_) => {
                if let (None, Recorded::Fence(value)) = (&refused, &recorded) {
                    inserted = Some(*value);
                }
                if refused.is_none() {
                    self.note_piece(line, call, named);
                }
                self.outcome_of(line, refused.map_or(Ok(()), Err), false, sticky)
            }
            Recorded::Mapped { instance, bytes } => {
                if let Call::Map {
                    resource,
                    map_type,
                    instance: k,
                    ..
                } = call
                {
                    if let Some(k) = k {
                        shared.name_instance(instance, *resource, *k);
                    }
                    self.open_maps.opened(*resource, *map_type, bytes);
                }
                self.outcome(line, Ok(()), false)
            }
            Recorded::Refused(error) => self.outcome(line, Err(error), true),
            // Reports its own result, and a refusal poisons nothing (R-FX-6).
            Recorded::Made(refused) => {
                self.outcome_of(line, refused.map_or(Ok(()), Err), false, false)
            }
            Recorded::Elsewhere => {
                let error = not_here(call, matches!(self.recorder, EngineRecorder::Bundle(_)));
                self.outcome(line, Err(error), true)
            }
        }
        inserted
    }
}

/// Runs `call` on `recorder`: what it did, and the refusal if the recorder refused it.
fn apply<R: Recording>(
    recorder: &mut R,
    shared: &Shared,
    call: &Call,
    named: &Named<'_>,
) -> (Recorded, Option<Error>) {
    let before = recorder.accepted();
    let recorded = record(recorder, call, &shared.resolver(), named);
    let refused = (recorder.accepted() == before).then(|| {
        recorder
            .refusal()
            .unwrap_or(Error::RefusedWithoutReason { call: "replay" })
    });
    (recorded, refused)
}

/// The refusal of a call on a context or bundle recorder the engine did not make.
pub(crate) fn missing_recorder(name: &str, line: usize) -> Error {
    Error::RefusedDeclaration {
        call: "replay",
        what: "context",
        object: name.to_string(),
        line,
    }
}

/// The refusal of a call a deferred context (or a bundle recorder) does not have. A bundle
/// recorder refuses the immediate context's calls as R-B-8 says of `present`:
/// `unsupported_in_bundle`.
fn not_here(call: &Call, bundle: bool) -> Error {
    let (name, owner, rule) = match call {
        Call::Present { .. } => ("present", "the immediate context", "R-EX-1, R-EX-7"),
        Call::Resume => ("resume", "the immediate context", "R-ST-4"),
        Call::PlaceSwapChainView { .. } => (
            "place_swap_chain_view",
            "the immediate context (the device's call is written on imm)",
            "R-EX-7",
        ),
        Call::BeginCommandListExecution => (
            "begin_command_list_execution",
            "the immediate context",
            "R-ST-3",
        ),
        Call::EndCommandListExecution => (
            "end_command_list_execution",
            "the immediate context",
            "R-ST-3",
        ),
        Call::RemapConstantBufferInheritance(_)
        | Call::RemapShaderResourceInheritance(_)
        | Call::RemapSamplerInheritance(_)
        | Call::RemapVertexBufferInheritance { .. } => {
            ("remap_*_inheritance", "a bundle recorder", "R-B-9")
        }
        Call::FinishCommandList { .. } => ("finish LIST", "a deferred context", "R-REC-6"),
        _ => ("this call", "another kind of context", "R-REC-5"),
    };
    match bundle {
        true => Error::UnsupportedInBundle { call: name },
        false => Error::WrongContext {
            call: name,
            context: "a deferred context",
            owner,
            rule,
        },
    }
}
