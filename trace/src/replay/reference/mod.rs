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
//! (`feed.rs`), which keeps the register state, compression and the records. A `present`
//! rotates the reference device's swap chain too, and under legacy semantics decompresses the
//! back buffer presented in the GPU model, as the engine's present does (R-ST-9).
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
//! **Device context state objects (R-FX-6).** The swap is a call of the legacy immediate
//! context alone (refused elsewhere, so it never reaches a list), and it activates its object:
//! the reference mirrors, in trace order, `imm`'s state since it was last reset and each
//! inactive object's saved state as state calls ([`Setter`]s), and which object is active
//! (none before the first swap: the engine's implicit default object, which the trace cannot
//! name). An accepted swap of another object than the active one saves `imm`'s calls into the
//! active object and keeps what the given object saved as the swap's own calls, which the
//! reference issues at the swap's line after a `clear_state`, as the engine's swap binds them:
//! through the legacy binds (a fast or placement binding as the plain bind of its slot), with
//! the minimum LOD then in force. A swap of the active object issues nothing, as it changes
//! nothing in the engine.
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
//! **Swap-chain views (R-EX-7).** A `place_swap_chain_view` and a legacy present move views of
//! back buffers on every reference device at their line; a list's bind first puts the views it
//! names back where they were at its line (`swap_chain_placement.rs`).
//!
//! **Left out**, as they make no draw record: fences, queries' results, read/write maps,
//! `write` statements (a map issued here still copies them: `writes.rs`),
//! `release` (the reference never releases: every call it issues was accepted by the real
//! run, which is where use after release shows).
//!
//! **The files.** This one holds the reference's state ([`Reference`]: its devices, the books of
//! the recorders, lists and bundles, the state calls mirrored), the step dispatch and the
//! declarations; each idea above has its file: `follow.rs` (a call at its line: `imm`'s issued,
//! a deferred context's booked, a swap's state calls), `list_runs.rs` (a list's execution, its
//! starting state and after-rule, nested lists), `bundle_runs.rs` (a bundle call),
//! `lods.rs` (minimum LOD), `setters.rs` (the state calls a legacy context carries, folded step
//! by step), `feed.rs` (the GPU side) and `compare.rs` (the comparison of the two runs).

mod bundle_runs;
pub(super) mod compare;
mod feed;
mod follow;
mod list_runs;
mod lods;
mod setters;
mod swap_chain_placement;

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use recorder::{
    Device, DeviceDesc, Error, ImmediateRole, OutputFormats, Recorder, Semantics, Validation,
};

use self::feed::{Feed, Scope};
use self::list_runs::DevicePool;
use self::setters::{fold_state, Setter};
use super::apply::{record, Named, Recorded};
use super::create::{create, Created};
use super::handles::{Handles, Resolver};
use super::live::Effect;
use super::names::{record_lines, Names};
use super::program::{Call, Create, ObjId, ObjKind, On, Op, Program};

/// A statement that changes the reference's objects, replayed on a device made later.
#[derive(Clone, Debug)]
enum Logged {
    Create(ObjId, Create),
    MinLod(Call),
    /// A swap-chain view's move (R-EX-7, `swap_chain_placement.rs`).
    Move(swap_chain_placement::Move),
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

/// A minimum-LOD change: its line's step, the value before, the value after.
type LodChange = (usize, f32, f32);

pub(crate) struct Reference {
    program: Arc<Program>,
    handles: Handles,
    /// The `imm` calls' device and recorder.
    device: Device,
    imm: Frame,
    /// The twin devices the lists' and bundles' recorders are made on (`list_runs.rs`).
    list_devices: DevicePool,
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
    /// Each moved swap-chain view's moves: (step, buffer before, buffer after) (R-EX-7).
    placements: HashMap<ObjId, Vec<(usize, u32, u32)>>,
    /// Each shader-resource view's resource.
    view_resources: HashMap<ObjId, ObjId>,
    cpu_mapped: HashSet<ObjId>,
    /// What each inactive device context state object saved (R-FX-6), as state calls.
    states: HashMap<ObjId, Vec<Setter>>,
    /// The object the last accepted swap activated; `None` before the first (the engine's
    /// implicit default object).
    active_state: Option<ObjId>,
    /// The state calls of `imm`'s state, since it was last reset (legacy; R-FX-6).
    imm_state: Vec<Setter>,
    /// What each accepted `swap_device_context_state` step binds after its `clear_state`: the
    /// object's state calls at the swap's line (R-FX-6); none for a swap of the active object.
    swaps: HashMap<usize, Vec<Setter>>,
}

/// The reference's device: the trace's semantics, its `legacy_barriers=` (which decides what a
/// legacy barrier does, R-BAR-6) and its `validation=` (under which the GPU model leaves out a
/// barrier it refuses, R-BAR-8: the reference's model refuses the same ones, so a refused
/// barrier changes nothing in the reference either).
fn device(program: &Program) -> Device {
    Device::new(DeviceDesc {
        immediate_semantics: program.semantics,
        legacy_barriers: program.legacy_barriers,
        validation: program.validation,
        chunk_policy: recorder::ChunkPolicy {
            chunk_size: recorder::limits::MIN_CHUNK_SIZE,
            growth: recorder::GrowthPolicy::Doubling { max: 64 << 10 },
            ..Default::default()
        },
    })
}

impl Reference {
    /// The `imm` calls' device and the handles of the objects made on it (for the tests of
    /// what the reference made, R-GPU-2).
    #[cfg(test)]
    pub(crate) fn made(&self) -> (&Device, &Handles) {
        (&self.device, &self.handles)
    }

    pub(crate) fn new(program: Arc<Program>) -> Result<Self, Error> {
        let device = device(&program);
        let recorder = device.immediate_recorder()?;
        // The GPU model reads a texture's facts (compressible, TC, DCC, planes) from the device
        // at its first barrier, as the real run's reads them from its own (R-BAR-3): the
        // reference's device holds the same objects under the same handles.
        let mut feed = Feed::default();
        feed.gpu.set_device(Some(device.clone()));
        if program.validation != Validation::Off {
            feed.gpu.set_validation(Some(device.clone()));
        }
        Ok(Self {
            handles: Handles::new(program.objects.len()),
            imm: Frame {
                recorder,
                semantics: program.semantics,
                scope: Scope::default(),
            },
            device,
            program,
            list_devices: DevicePool::default(),
            log: Vec::new(),
            feed,
            names: Names::default(),
            recorders: HashMap::new(),
            lists: HashMap::new(),
            bundles: HashMap::new(),
            bundle_versions: HashMap::new(),
            bundle_calls: HashMap::new(),
            lods: HashMap::new(),
            placements: HashMap::new(),
            view_resources: HashMap::new(),
            cpu_mapped: HashSet::new(),
            states: HashMap::new(),
            active_state: None,
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
        for (_, list_device) in &self.list_devices.devices {
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
