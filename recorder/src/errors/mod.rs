//! Errors. [`Error`] is a leaf enum in wgpu's style (`TooMany { given, limit }`): one variant per
//! rule broken, each with named fields and a message that names the call, the objects and the rule
//! with its requirement id (R-REC-8). Each error kind of `TRACE.md` ([`ErrorKind`]) but one is one
//! variant; `invalid_argument`, the kind of every call whose arguments break a rule of the API, is
//! many: [`Error::SlotOutOfRange`], [`Error::MissingBindFlag`], [`Error::AlreadyMapped`],
//! [`Error::InvalidDesc`] (with its [`DescProblem`]), [`Error::CopyMismatch`] (with its
//! [`CopyProblem`]), [`Error::OutOfRange`], ..., and the replay's own refusals
//! ([`Error::RefusedDeclaration`], [`Error::WrongContext`], ...). [`Error::kind`] maps each variant
//! to its kind, so traces and their expectations see the kinds of `TRACE.md` unchanged, and tests
//! match the variant (`matches!(error, Error::SlotOutOfRange { limit: 16, .. })`), not its text.
//! [`RecordError`] adds the scope: which context recorded the call and the index of the call in its
//! list (R-REC-8).

mod argument_problems;
mod error_kind;
mod error_scope;

pub use argument_problems::*;
pub use error_kind::*;
pub use error_scope::*;

use crate::desc::{BindFlags, MapType, QueryKind, Stage, Usage};
use crate::device::handle::{ObjectKind, RawHandle};

/// What went wrong: one variant per rule broken; [`Error::kind`] gives its kind in `TRACE.md`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A bundle override that brings the constant-engine footprint over its budget (R-B-5).
    #[error("{call}: overriding {slot} would bring the bundle's constant-engine footprint to {total} bytes, over its budget of {budget} bytes (R-B-5); inherit the slot or split the bundle")]
    BudgetExceeded {
        /// The call refused.
        call: &'static str,
        /// The slot overridden.
        slot: String,
        /// The footprint the override would bring, in bytes.
        total: u32,
        /// The budget in bytes (`limits`).
        budget: u32,
    },

    /// An object bound in a bundle that a bundle cannot hold (R-B-6).
    #[error("{call}: {object} cannot be encapsulated in a bundle ({reason}); bind it on the executing context and let the bundle inherit it (R-B-6)")]
    NotEncapsulable {
        /// The call refused.
        call: &'static str,
        /// The object bound.
        object: ObjectName,
        /// Why a bundle cannot hold it.
        reason: &'static str,
    },

    /// State a bundle always inherits, recorded into one (R-B-7).
    #[error("{call}: this state is always inherited by a bundle and cannot be recorded into one; set it on the executing context (R-B-7)")]
    InheritedStateInBundle {
        /// The call refused.
        call: &'static str,
    },

    /// A call a bundle recorder does not take (R-B-8).
    #[error("{call} cannot be recorded into a bundle (R-B-8); record it on a deferred or the immediate context")]
    UnsupportedInBundle {
        /// The call refused.
        call: &'static str,
    },

    /// A bundle's first draw or dispatch before its mandatory state was set (R-B-3).
    #[error("{call}: {missing} must be set in the bundle before its first {what} (R-B-3); null is allowed")]
    MissingMandatoryState {
        /// The call refused.
        call: &'static str,
        /// The state not set yet.
        missing: String,
        /// "draw" or "dispatch".
        what: &'static str,
    },

    /// A stream-output shader bound in a bundle (R-B-6).
    #[error("{call}: {shader} uses stream output, which is forbidden in bundles (R-B-6)")]
    StreamOutputInBundle {
        /// The call refused.
        call: &'static str,
        /// The shader bound.
        shader: ObjectName,
    },

    /// A bundle called with other output formats bound than it was recorded for (R-B-10).
    #[error(
        "{call}: the bundle was recorded for {expected} but the context has {found} bound (R-B-10)"
    )]
    FormatMismatch {
        /// The call refused.
        call: &'static str,
        /// The output formats the bundle was recorded for.
        expected: String,
        /// The output formats bound on the context.
        found: String,
    },

    /// A dynamic buffer used in a list before the list maps it.
    #[error("{call}: {object} is dynamic and {rule}; map it write_discard in this list first")]
    DynamicBeforeMap {
        /// The call refused.
        call: &'static str,
        /// The dynamic buffer used.
        object: ObjectName,
        /// The rule broken, with its requirement id.
        rule: &'static str,
    },

    /// `RestoreState::Restore` under fast semantics (R-REC-6, R-ST-2).
    #[error("{call}: restore=true is not supported with fast semantics, which shadows no state (R-REC-6, R-ST-2); pass restore=false and set the state the next work needs")]
    RestoreNotSupported {
        /// The call refused.
        call: &'static str,
    },

    /// A list of the other semantics in an execution scope (R-ST-3).
    #[error("{call}: a {list} command list cannot run in an execution scope already running {scope} lists (R-ST-3); end the scope first")]
    MixedSemantics {
        /// The call refused.
        call: &'static str,
        /// The semantics of the list executed.
        list: &'static str,
        /// The semantics of the lists the scope runs already.
        scope: &'static str,
    },

    /// A call a fast-semantics context does not take.
    #[error("{call} is forbidden on a fast-semantics context ({rule})")]
    ForbiddenInFast {
        /// The call refused.
        call: &'static str,
        /// What to do instead, with the requirement id.
        rule: &'static str,
    },

    /// A deferred context past the device's limit (R-REC-1).
    #[error("create_deferred_context: {limit} deferred contexts are already alive on this device (R-REC-1); drop one first")]
    TooManyContexts {
        /// How many deferred contexts may be alive at once (`limits`).
        limit: u32,
    },

    /// An object used after the application released it (R-OBJ-3).
    #[error(
        "{call}: {object} was released by the application and cannot be used any more (R-OBJ-3)"
    )]
    ReleasedObject {
        /// The call refused.
        call: &'static str,
        /// The object used.
        object: ObjectName,
    },

    /// CPU access under fast semantics to a resource the GPU still uses (R-V-1).
    #[error("{call}: context or command list created with fast semantics attempting CPU access of {object} still in use by the {engine} engine (fence {fence:#x}). Explicit synchronization is required (R-V-1)")]
    ResourceInUse {
        /// The call refused.
        call: &'static str,
        /// The resource accessed.
        object: ObjectName,
        /// The engine that still uses it.
        engine: &'static str,
        /// The fence that passes when the engine is done with it.
        fence: u64,
    },

    /// A compressed resource reached outside the colour and depth blocks (R-V-1).
    #[error("{call}: {object} {access} while its resource is still compressed; call decompress_resource on it first, or set_resource_compression if its compressed form is what you mean to read (R-V-1)")]
    CompressedRead {
        /// The call refused.
        call: &'static str,
        /// The view bound, or the texture copied or presented.
        object: ObjectName,
        /// How the call reaches it outside the colour and depth blocks: "is bound for shader
        /// access", "is the source of the copy", "is presented", ...
        access: &'static str,
    },

    /// A first write this frame to a back buffer without `insert_wait_on_present` (R-EX-7).
    #[error("{call}: first write this frame to back buffer {buffer} of {swap_chain} without insert_wait_on_present (R-EX-7)")]
    MissingWaitOnPresent {
        /// The call refused.
        call: &'static str,
        /// The swap chain written.
        swap_chain: ObjectName,
        /// The index of the back buffer written.
        buffer: u32,
    },

    /// A list recorded against another back buffer than the current one (R-EX-7).
    #[error("{call}: the command list was recorded against back buffer {recorded} of {swap_chain}, but back buffer {current} is current; record one list per back buffer (R-EX-7)")]
    BackBufferAffinity {
        /// The call refused.
        call: &'static str,
        /// The swap chain.
        swap_chain: ObjectName,
        /// The back buffer the list was recorded against.
        recorded: u32,
        /// The current back buffer.
        current: u32,
    },

    /// A write and a later access through another path without a barrier or flush between (R-V-2).
    #[error("{second_call}: {object} was written by {first_call}, and no barrier covering that write ran between the two (R-V-2)")]
    Hazard {
        /// The call that wrote the object: its method, where it was made (a direct call of the
        /// immediate context or a list's command, by index) and how it used the object.
        first_call: String,
        /// The call that accessed it again, as `first_call`, with the subresources both reach.
        second_call: String,
        /// The object written and accessed.
        object: ObjectName,
    },

    /// A barrier the rules of §9 refuse (R-BAR-4, R-BAR-6, R-BAR-8), with the barrier printed
    /// field by field as the seed's debug layer prints it.
    #[error("{call}: {rule}\n{barrier}")]
    InvalidBarrier {
        /// The call that made or executed the barrier (`barrier`, `resource_barrier`,
        /// `execute_command_list`).
        call: &'static str,
        /// The rule broken, in words, with its requirement.
        rule: Box<str>,
        /// The group and barrier index and every field of the barrier.
        barrier: Box<str>,
    },

    /// An enhanced barrier of a resource whose legacy state is not `COMMON` (R-BAR-6), worded as
    /// the seed's `0xA7900038`, the requirement cited after it.
    #[error("{call}: Resource is being transitioned from legacy to enhanced barriers but is not in the state COMMON as is required.\nCurrent State is: {state}\n{barrier}\n(R-BAR-6: a resource enters enhanced barriers from the legacy state COMMON)")]
    LegacyStateNotCommon {
        /// The call (`barrier`, or `execute_command_list` for a list's barrier).
        call: &'static str,
        /// The resource's legacy state.
        state: crate::barriers::ResourceStates,
        /// The group and barrier index and every field of the barrier.
        barrier: Box<str>,
    },

    /// Slots past the end of a slot range (R-OBJ-5).
    #[error("{call}: {what} {} out of range: there are {limit} (R-OBJ-5)", slots(*start, *count))]
    SlotOutOfRange {
        /// The call refused.
        call: &'static str,
        /// What the slots hold: "vertex buffer", "sampler", "render-target format", ...
        what: &'static str,
        /// The first slot named.
        start: u32,
        /// How many slots from `start` were named.
        count: u64,
        /// How many slots there are.
        limit: u32,
    },

    /// Output-merger UAVs whose first slot falls among the render targets bound with them
    /// (R-OBJ-5).
    #[error("{call}: UAV start slot {start} overlaps the {render_targets} render targets: output-merger UAVs follow the render targets (R-OBJ-5)")]
    UavOverlapsRenderTargets {
        /// The call refused.
        call: &'static str,
        /// The first UAV slot named.
        start: u32,
        /// How many render targets the call binds.
        render_targets: usize,
    },

    /// A resource bound or viewed where its bind flags do not allow (R-OBJ-2).
    #[error("{call}: {object} was not created with the {flag:?} bind flag (R-OBJ-2)")]
    MissingBindFlag {
        /// The call refused.
        call: &'static str,
        /// The resource (or the view whose resource lacks the flag).
        object: ObjectName,
        /// The bind flag the use needs.
        flag: BindFlags,
    },

    /// `copy_structure_count` from a UAV without a hidden counter (R-OBJ-2).
    #[error("{call}: {view} has no append or counter flag: copy_structure_count reads a hidden counter (R-OBJ-2)")]
    NoHiddenCounter {
        /// The call refused.
        call: &'static str,
        /// The view named as the counter's source.
        view: ObjectName,
    },

    /// A write into a resource whose usage does not allow it (R-OBJ-2).
    #[error("{call}: {object} has {usage:?} usage: {rule}")]
    WrongUsage {
        /// The call refused.
        call: &'static str,
        /// The resource written.
        object: ObjectName,
        /// Its usage.
        usage: Usage,
        /// The rule broken, with its requirement id.
        rule: &'static str,
    },

    /// A map of a resource mapped already on the context (R-REC-5, R-EX-6).
    #[error("{call}: {object} is already mapped; unmap it first ({rule})")]
    AlreadyMapped {
        /// The call refused.
        call: &'static str,
        /// The resource mapped.
        object: ObjectName,
        /// The requirement: R-REC-5 on a deferred context, R-EX-6 on the immediate one.
        rule: &'static str,
    },

    /// An unmap of a resource the context has not mapped (R-REC-5).
    #[error("{call}: {object} is not mapped on this context (R-REC-5)")]
    NotMapped {
        /// The call refused.
        call: &'static str,
        /// The resource named.
        object: ObjectName,
    },

    /// A list finished while a resource is still mapped on its context (R-REC-6).
    #[error("{call}: {object} is still mapped; unmap it before finishing the list (R-REC-6)")]
    StillMapped {
        /// The call refused.
        call: &'static str,
        /// The resource mapped.
        object: ObjectName,
    },

    /// A map of a type the resource or the context does not allow (R-REC-5, R-REC-11, R-EX-6).
    #[error("{call}: {object} cannot be mapped {map_type:?}: {rule}")]
    MapNotAllowed {
        /// The call refused.
        call: &'static str,
        /// The resource named.
        object: ObjectName,
        /// The map asked for.
        map_type: MapType,
        /// The rule broken, with its requirement id.
        rule: &'static str,
    },

    /// Data larger than a command, a map or an update carries (R-REC-12).
    #[error("{call}: {what} is too large ({}): {holder} holds at most {limit} bytes (R-REC-12)", byte_count(*bytes))]
    TooLarge {
        /// The call refused.
        call: &'static str,
        /// What did not fit: the object mapped, "the update's data", "the slot list", ...
        what: String,
        /// Its size in bytes (`u64::MAX`: more than an address space).
        bytes: u64,
        /// What has the limit: "a command", "a map or update", "a map".
        holder: &'static str,
        /// The limit in bytes.
        limit: u64,
    },

    /// An update whose data does not fit the resource it writes (R-REC-5).
    #[error("{call}: {bytes} bytes do not fit the {size} of {object} (R-REC-5)")]
    DoesNotFit {
        /// The call refused.
        call: &'static str,
        /// The resource written.
        object: ObjectName,
        /// The bytes given.
        bytes: u64,
        /// The resource's size in bytes.
        size: u64,
    },

    /// A creation refused because the object table of its kind is full (R-OBJ-1).
    #[error("{call}: no room for another {} ({limit} alive at once at most, limits::MAX_OBJECTS_PER_KIND; R-OBJ-1); release one first", kind.name())]
    TableFull {
        /// The call refused.
        call: &'static str,
        /// The kind of object asked for.
        kind: ObjectKind,
        /// How many of the kind may be alive at once.
        limit: u32,
    },

    /// A second immediate context asked of a device (R-OBJ-1).
    #[error("{call}: the device's immediate context exists already (one per device, R-OBJ-1)")]
    ImmediateContextExists {
        /// The call refused.
        call: &'static str,
    },

    /// A shader bound to a stage other than its own (R-OBJ-2).
    #[error("{call}: {shader} is a {} shader, bound to the {} stage (R-OBJ-2)", stage.name(), bound_to.name())]
    WrongStage {
        /// The call refused.
        call: &'static str,
        /// The shader bound.
        shader: ObjectName,
        /// The stage it was created for.
        stage: Stage,
        /// The stage it was bound to.
        bound_to: Stage,
    },

    /// `set_predication` with a query that is not a predicate (R-FX-3).
    #[error("{call}: {query} is not a predicate query (R-FX-3)")]
    NotAPredicate {
        /// The call refused.
        call: &'static str,
        /// The query named.
        query: ObjectName,
    },

    /// `get_data` of a query no `end_query` or `write_query` was ever recorded for (R-FX-3).
    #[error("{call}: {query} has never ended: no end_query or write_query was recorded for it on any context, so it has no result to wait for (R-FX-3); end it first")]
    QueryNeverEnded {
        /// The call refused.
        call: &'static str,
        /// The query named.
        query: ObjectName,
    },

    /// Legacy `get_data` of a query whose end the GPU model has not run yet (R-FX-3): not a
    /// failure, the answer D3D11 gives as `S_FALSE`.
    #[error("{call}: {query} is not ready: the GPU has not run its end yet (legacy semantics waits for the work; flush the immediate context, or execute the list that ends it, and ask again) (R-FX-3)")]
    QueryNotReady {
        /// The call.
        call: &'static str,
        /// The query named.
        query: ObjectName,
    },

    /// `configure_query` of a query that counts no samples (R-FX-3).
    #[error("{call}: {query} is a {} query; only occlusion and predicate queries have a counting mode (R-FX-3)", kind.name())]
    QueryModeMismatch {
        /// The call refused.
        call: &'static str,
        /// The query named.
        query: ObjectName,
        /// Its kind.
        kind: QueryKind,
    },

    /// A handle of another device (R-OBJ-3).
    #[error("{call}: {} {handle:?} belongs to {owner}, not to device #{expected} that this call was made on; a handle is valid only on the device that created it (R-OBJ-3)", kind.name())]
    ForeignHandle {
        /// The call refused.
        call: &'static str,
        /// The kind of object the handle names.
        kind: ObjectKind,
        /// The handle.
        handle: RawHandle,
        /// The device the handle belongs to, as far as the handle tells.
        owner: String,
        /// The serial of the device the call was made on.
        expected: u64,
    },

    /// A command list or bundle recorded on another device (R-OBJ-3).
    #[error("{call}: the {object} was recorded on device #{device}, not on device #{expected} that {uses} it (R-OBJ-3)")]
    WrongDevice {
        /// The call refused.
        call: &'static str,
        /// What was recorded: "command list" or "bundle".
        object: &'static str,
        /// The serial of the device it was recorded on.
        device: u64,
        /// The serial of the device the call was made on.
        expected: u64,
        /// What the call does with it: "executes" or "calls".
        uses: &'static str,
    },

    /// An object description the API refuses (R-OBJ-2, R-OBJ-5, R-EX-5, R-B-1).
    #[error("{call}: {object}: {problem}")]
    InvalidDesc {
        /// The call refused.
        call: &'static str,
        /// The object described, as far as it has a name: "buffer 'vb'", "texture 'rt'", ...
        object: String,
        /// What is wrong with the description.
        problem: DescProblem,
    },

    /// A copy (or a decompression into a second resource) between resources that do not match
    /// (R-REC-5, R-ST-9).
    #[error("{call}: {problem}")]
    CopyMismatch {
        /// The call refused.
        call: &'static str,
        /// How the resources do not match.
        problem: CopyProblem,
    },

    /// A region copy of a resource to itself whose regions overlap (R-BAR-7): only
    /// non-overlapping regions may be copied within one resource.
    #[error("{call}: {object}: the destination {} and the source {} overlap: a copy of a resource to itself needs non-overlapping regions (R-BAR-7)", ranges[0], ranges[1])]
    OverlappingSelfCopy {
        /// The call refused: `copy_buffer_region` or `copy_texture_region`.
        call: &'static str,
        /// The resource, source and destination at once.
        object: ObjectName,
        /// The destination's and the source's regions as messages write them ("bytes 0..64",
        /// "subresource 0, texels 32..64 x 32..64").
        ranges: Box<[String; 2]>,
    },

    /// A region copy naming bytes or texels outside its resource (R-BAR-7).
    #[error("{call}: {object}: {detail}")]
    RegionOutOfBounds {
        /// The call refused: `copy_buffer_region` or `copy_texture_region`.
        call: &'static str,
        /// The resource whose region is outside it.
        object: ObjectName,
        /// Which region, what it names and what the resource has.
        detail: Box<str>,
    },

    /// A decompression limited to kinds of compression the texture does not have (R-ST-9).
    #[error("{call}: {object}: {detail}: name only kinds it has, or all (R-ST-9)")]
    DecompressKindsNotHad {
        /// The call refused: `decompress_resource`.
        call: &'static str,
        /// The texture.
        object: ObjectName,
        /// Which kinds it lacks and which it has.
        detail: Box<str>,
    },

    /// An argument value outside what the call allows.
    #[error("{call}: {argument} {value} is out of range: {allowed}")]
    OutOfRange {
        /// The call refused.
        call: &'static str,
        /// The argument: "depth", "offset", "minimum LOD", "fence", "index format", ...
        argument: &'static str,
        /// Its value as given.
        value: String,
        /// What the call allows, and the requirement id.
        allowed: Box<str>,
    },

    /// A call made on a context that does not have it (the replay's refusal of a statement on
    /// the wrong context, or the immediate context's recorder asked for a call it routes
    /// elsewhere).
    #[error("{call}: {context} does not make this call; {owner} does ({rule})")]
    WrongContext {
        /// The call refused.
        call: &'static str,
        /// The context it was made on.
        context: &'static str,
        /// Where the call belongs.
        owner: &'static str,
        /// The requirement id.
        rule: &'static str,
    },

    /// An object of another kind than the call takes, named by a trace.
    #[error("{call}: '{object}' is a {is}: the call takes a {takes} (R-REC-5)")]
    WrongObjectKind {
        /// The call refused.
        call: &'static str,
        /// The trace's name of the object.
        object: String,
        /// Its kind.
        is: &'static str,
        /// The kind the call takes.
        takes: &'static str,
    },

    /// A trace's call naming an object whose declaration (or, for a command list or a bundle,
    /// whose finish) the engine refused (TRACE.md, Calls; R-REC-8).
    #[error("{call}: {what} '{object}' does not exist: {} (line {line}) was refused, and every call naming it is refused too (TRACE.md, Calls; R-REC-8)", made_by(what))]
    RefusedDeclaration {
        /// The call refused.
        call: &'static str,
        /// What the object is: "resource", "object", "context", "command list", "bundle".
        what: &'static str,
        /// The trace's name of the object.
        object: String,
        /// The trace line of the refused declaration or finish.
        line: usize,
    },

    /// A call the engine refused without recording a reason (R-REC-8): a replay-side guard that
    /// names the broken promise instead of inventing one.
    #[error("{call}: the engine refused the call without a reason (R-REC-8)")]
    RefusedWithoutReason {
        /// The call refused.
        call: &'static str,
    },

    /// A list named by a trace that was refused as a whole, with no refusal of its own left to
    /// report (R-REC-8).
    #[error("{call}: the list was refused: a list with a refused call is discarded (R-REC-8)")]
    DiscardedList {
        /// The call refused.
        call: &'static str,
    },

    /// What a real GPU backend cannot do for a command or a draw the model applied (R-GPU-1 ..
    /// R-GPU-4): an object lacking what the backend needs (shader code, input-layout elements,
    /// R-GPU-2), a construct it does not translate, its bound state differing from the model's
    /// record (R-GPU-4), or the GPU failing. The model still recorded the command.
    #[error("{call}: {object} {problem}")]
    GpuBackend {
        /// The command or call refused ("draw", "clear_render_target_view", "present", ...).
        call: &'static str,
        /// The object concerned as messages name it ("shader 'vs0'", "the Vulkan device").
        object: String,
        /// What it lacks or what went wrong, with the rule's id.
        problem: String,
    },
}

// Refusals travel in every `Result` of the recording calls: a new variant must not make them
// larger (80 bytes, the size before the leaf variants; box a large field instead).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Error>() <= 80);

impl Error {
    /// The trace kind of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::BudgetExceeded { .. } => ErrorKind::BudgetExceeded,
            Self::NotEncapsulable { .. } => ErrorKind::NotEncapsulable,
            Self::InheritedStateInBundle { .. } => ErrorKind::InheritedStateInBundle,
            Self::UnsupportedInBundle { .. } => ErrorKind::UnsupportedInBundle,
            Self::MissingMandatoryState { .. } => ErrorKind::MissingMandatoryState,
            Self::StreamOutputInBundle { .. } => ErrorKind::StreamOutputInBundle,
            Self::FormatMismatch { .. } => ErrorKind::FormatMismatch,
            Self::DynamicBeforeMap { .. } => ErrorKind::DynamicBeforeMap,
            Self::RestoreNotSupported { .. } => ErrorKind::RestoreNotSupported,
            Self::MixedSemantics { .. } => ErrorKind::MixedSemantics,
            Self::ForbiddenInFast { .. } => ErrorKind::ForbiddenInFast,
            Self::TooManyContexts { .. } => ErrorKind::TooManyContexts,
            Self::ReleasedObject { .. } => ErrorKind::ReleasedObject,
            Self::ResourceInUse { .. } => ErrorKind::ResourceInUse,
            Self::CompressedRead { .. } => ErrorKind::CompressedRead,
            Self::MissingWaitOnPresent { .. } => ErrorKind::MissingWaitOnPresent,
            Self::BackBufferAffinity { .. } => ErrorKind::BackBufferAffinity,
            Self::Hazard { .. } => ErrorKind::Hazard,
            Self::InvalidBarrier { .. } => ErrorKind::InvalidBarrier,
            Self::LegacyStateNotCommon { .. } => ErrorKind::LegacyStateNotCommon,
            Self::SlotOutOfRange { .. }
            | Self::UavOverlapsRenderTargets { .. }
            | Self::MissingBindFlag { .. }
            | Self::NoHiddenCounter { .. }
            | Self::WrongUsage { .. }
            | Self::AlreadyMapped { .. }
            | Self::NotMapped { .. }
            | Self::StillMapped { .. }
            | Self::MapNotAllowed { .. }
            | Self::TooLarge { .. }
            | Self::DoesNotFit { .. }
            | Self::TableFull { .. }
            | Self::ImmediateContextExists { .. }
            | Self::WrongStage { .. }
            | Self::NotAPredicate { .. }
            | Self::QueryNeverEnded { .. }
            | Self::QueryNotReady { .. }
            | Self::QueryModeMismatch { .. }
            | Self::ForeignHandle { .. }
            | Self::WrongDevice { .. }
            | Self::InvalidDesc { .. }
            | Self::CopyMismatch { .. }
            | Self::OverlappingSelfCopy { .. }
            | Self::RegionOutOfBounds { .. }
            | Self::DecompressKindsNotHad { .. }
            | Self::OutOfRange { .. }
            | Self::WrongContext { .. }
            | Self::WrongObjectKind { .. }
            | Self::RefusedDeclaration { .. }
            | Self::RefusedWithoutReason { .. }
            | Self::DiscardedList { .. }
            | Self::GpuBackend { .. } => ErrorKind::InvalidArgument,
        }
    }
}

/// `start..start+count` as messages write a slot range: "slot 3", "slots 14..18".
fn slots(start: u32, count: u64) -> String {
    match count {
        1 => format!("slot {start} is"),
        _ => format!("slots {start}..{} are", start as u64 + count),
    }
}

/// What makes an object of a trace: a finish for a command list or a bundle, else a declaration.
fn made_by(what: &str) -> &'static str {
    match what {
        "command list" | "bundle" => "its finish",
        _ => "its declaration",
    }
}

/// A byte count as messages write it; `u64::MAX` stands for more than an address space.
fn byte_count(bytes: u64) -> String {
    match bytes {
        u64::MAX => "more bytes than an address space".to_string(),
        bytes => format!("{bytes} bytes"),
    }
}
