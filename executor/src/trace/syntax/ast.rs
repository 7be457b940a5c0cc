//! The typed syntax tree of a trace: what [`parse`](super::parse()) returns and what the printer
//! (`print.rs`) writes back as canonical trace text.
//!
//! **In:** nothing; these are plain data. **Out:** one [`Statement`] per non-blank line, each
//! a declaration, a call or an expectation, with every argument typed: object names as
//! [`Name`]s (checked against the declarations by the parser), numbers as `u64`/`i64`, the
//! floats docs/TRACE.md states as `f32`, slot sets as ranges, every closed vocabulary as an enum
//! (`words.rs`).
//!
//! **One shape, two forms.** A call ([`Method`]) and an expectation ([`Expectation`]) are
//! generic over a [`Form`], which says what each kind of argument is: [`Written`], here, holds
//! them as the trace writes them; the replay's `Lowered` form holds the same variants and fields
//! in the engine's types. The shape is written once, in this file, and this room names no form
//! but its own (it never imports the replay).
//!
//! **Invariant.** Every tree the parser returns prints to text that parses back to the same
//! tree (the line numbers aside: printing puts one statement a line). An optional option the
//! trace did not write is `None` here (the engine's default applies), so printing writes exactly
//! the options that were written, in docs/TRACE.md's order. A hand-built tree prints the same way,
//! and parses back equal if it is one the parser could have produced: objects declared before
//! use, names that are [`Name`]s, finite floats, values of the class the field takes.

use std::fmt;

use super::name::{Format, Name};
use super::value::{DrawField, ExpectedValue};
use super::words::{
    BindFlag, Compression, CounterKey, Engine, ErrorKind, MapType, Semantics, SplitCategory, Stage,
    Topology, UavFlag, Usage, Validation,
};

/// An inclusive range of slots, `2-5`, or one slot `3` (`first == last`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotRange {
    pub first: u64,
    pub last: u64,
}

/// A slot set `0,2-5`, its ranges as written (overlaps and order kept; the parser refuses only
/// a backwards range). Never empty when parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotSet(pub Vec<SlotRange>);

impl SlotSet {
    /// Whether `slot` is in the set.
    pub fn contains(&self, slot: u64) -> bool {
        self.0.iter().any(|r| r.first <= slot && slot <= r.last)
    }
}

/// `bind=FLAGS`: a set of [`BindFlag`]s. `bind=none` is the empty set (a staging buffer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BindFlags(u8);

impl BindFlags {
    pub const NONE: Self = Self(0);

    fn bit(flag: BindFlag) -> u8 {
        1 << (flag as u8)
    }

    pub fn with(self, flag: BindFlag) -> Self {
        Self(self.0 | Self::bit(flag))
    }

    pub fn contains(self, flag: BindFlag) -> bool {
        self.0 & Self::bit(flag) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The flags set, in docs/TRACE.md's order.
    pub fn iter(self) -> impl Iterator<Item = BindFlag> {
        BindFlag::ALL
            .iter()
            .copied()
            .filter(move |f| self.contains(*f))
    }
}

// Eight flags, one bit each.
const _: () = assert!(BindFlag::ALL.len() <= 8);

/// `X,Y,W,H` of `rs_set_viewports`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

/// `L,T,R,B` of `rs_set_scissor_rects` (signed, as D3D's `RECT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub left: i64,
    pub top: i64,
    pub right: i64,
    pub bottom: i64,
}

/// A parsed trace: its statements with their 1-based line numbers, in order. Blank and comment
/// lines have no statement. The first statement is the `device`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub statements: Vec<(usize, Statement)>,
}

/// One line of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    Declaration(Declaration),
    Call(Call),
    Expectation(Expectation),
}

/// A declaration (docs/TRACE.md "Declarations").
#[derive(Clone, Debug, PartialEq)]
pub enum Declaration {
    Device {
        semantics: Semantics,
        validation: Option<Validation>,
    },
    Buffer {
        name: Name,
        usage: Usage,
        bind: BindFlags,
        size: u64,
        uav_flag: Option<UavFlag>,
    },
    Texture {
        name: Name,
        format: Format,
        width: u64,
        height: u64,
        mips: Option<u64>,
        array: Option<u64>,
        samples: Option<u64>,
        bind: BindFlags,
        compressible: Option<bool>,
        tc: Option<bool>,
    },
    ShaderResourceView {
        name: Name,
        resource: Name,
        min_lod: Option<f32>,
    },
    UnorderedAccessView {
        name: Name,
        resource: Name,
    },
    RenderTargetView {
        name: Name,
        resource: Name,
    },
    DepthStencilView {
        name: Name,
        resource: Name,
    },
    Shader {
        name: Name,
        stage: Stage,
        constant_buffers: Option<SlotSet>,
        shader_resources: Option<SlotSet>,
        samplers: Option<SlotSet>,
        unordered_access_views: Option<SlotSet>,
        stream_output: Option<bool>,
    },
    InputLayout {
        name: Name,
        vertex_buffers: Option<SlotSet>,
    },
    BlendState {
        name: Name,
    },
    RasterizerState {
        name: Name,
    },
    DepthStencilState {
        name: Name,
    },
    SamplerState {
        name: Name,
    },
    Predicate {
        name: Name,
    },
    /// Also declares the textures `NAME.0 .. NAME.(buffers-1)` and the RTVs `NAME.K.rtv`.
    Swapchain {
        name: Name,
        buffers: u64,
        format: Format,
        width: u64,
        height: u64,
    },
    /// A deferred context.
    Context {
        name: Name,
        semantics: Semantics,
    },
    /// A bundle recorder; `render_targets` is empty for `rt=none`.
    Bundle {
        name: Name,
        render_targets: Vec<Format>,
        depth: Option<Format>,
        samples: Option<u64>,
    },
    Release {
        name: Name,
    },
}

/// How the arguments of a [`Method`] (and an [`Expectation`]) are held: the one shape of a
/// call, in two forms.
///
/// The syntax room holds a call as written ([`Written`]: objects by [`Name`], numbers as the
/// `u64`/`i64` the format allows, the format's own words, an option not written `None`); the
/// replay holds the same call lowered to the engine's types (objects by number, numbers that fit
/// the engine's argument, the engine's enums, defaults applied). The variants and their fields
/// are written once, in [`Method`]; a form says only what each kind of argument is. This room
/// names no other form: the replay's lives in the replay, which imports this one.
pub trait Form {
    /// An object argument.
    type Object: Clone + fmt::Debug;
    /// An unsigned count, slot, offset or value (`u64` as written).
    type Count: Clone + fmt::Debug;
    /// BASE_VERTEX (`i64` as written).
    type Signed: Clone + fmt::Debug;
    /// `clear_depth_stencil_view`'s STENCIL (`u64` as written).
    type Stencil: Clone + fmt::Debug;
    /// A primitive topology.
    type Topology: Clone + fmt::Debug;
    /// A format.
    type Format: Clone + fmt::Debug;
    /// A shader stage.
    type Stage: Clone + fmt::Debug;
    /// A viewport of `rs_set_viewports`.
    type Viewport: Clone + fmt::Debug;
    /// A rectangle of `rs_set_scissor_rects`.
    type Rect: Clone + fmt::Debug;
    /// A map type.
    type MapType: Clone + fmt::Debug;
    /// `set_resource_compression`'s argument.
    type Compression: Clone + fmt::Debug;
    /// A fence's engine.
    type Engine: Clone + fmt::Debug;
    /// An argument with a default: `Option<T>` as written (`None`: not written), `T` once the
    /// default is applied.
    type Defaulted<T: Clone + fmt::Debug>: Clone + fmt::Debug;
    /// What a `map` adds to its arguments: nothing as written, the instance once lowered.
    type Instance: Clone + fmt::Debug;
    /// The KIND of `expect error`.
    type ErrorKind: Clone + fmt::Debug;
    /// A CATEGORY of `expect split_points`.
    type SplitCategory: Clone + fmt::Debug;
    /// A KEY of `expect counters`.
    type CounterKey: Clone + fmt::Debug;
}

/// The form of a call as the trace writes it: what the parser returns and the printer writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Written;

impl Form for Written {
    type Object = Name;
    type Count = u64;
    type Signed = i64;
    type Stencil = u64;
    type Topology = Topology;
    type Format = Format;
    type Stage = Stage;
    type Viewport = Viewport;
    type Rect = Rect;
    type MapType = MapType;
    type Compression = Compression;
    type Engine = Engine;
    type Defaulted<T: Clone + fmt::Debug> = Option<T>;
    type Instance = ();
    type ErrorKind = ErrorKind;
    type SplitCategory = SplitCategory;
    type CounterKey = CounterKey;
}

/// The context a call is issued on, its recorder named by `O`: a [`Name`] as written, the
/// replay's object number once lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallContext<O = Name> {
    /// `imm`.
    Immediate,
    /// A context declared with `context`.
    Deferred(O),
    /// A recorder declared with `bundle`.
    BundleRecorder(O),
}

/// `CTX METHOD ARGS`.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub context: CallContext,
    pub method: Method,
}

/// A method and its arguments (docs/TRACE.md "Calls"), held in the [`Form`] `F`: as written
/// ([`Written`], what the parser returns and the printer writes) or lowered to the engine's
/// types by the replay. `Option<F::Object>` is an argument that may be `null`; the lists of
/// bindings are never empty.
#[derive(Clone, Debug, PartialEq)]
pub enum Method<F: Form = Written> {
    SetInputLayout(Option<F::Object>),
    SetPrimitiveTopology(F::Topology),
    SetVertexBuffers {
        start: F::Count,
        buffers: Vec<Option<F::Object>>,
    },
    SetIndexBuffer {
        buffer: Option<F::Object>,
        format: F::Format,
        offset: F::Defaulted<F::Count>,
    },
    SetPrimitiveResetIndex(F::Count),
    SetShader {
        stage: F::Stage,
        shader: Option<F::Object>,
    },
    SetConstantBuffers {
        stage: F::Stage,
        start: F::Count,
        buffers: Vec<Option<F::Object>>,
    },
    SetShaderResources {
        stage: F::Stage,
        start: F::Count,
        views: Vec<Option<F::Object>>,
    },
    SetSamplers {
        stage: F::Stage,
        start: F::Count,
        samplers: Vec<Option<F::Object>>,
    },
    CsSetUnorderedAccessViews {
        start: F::Count,
        views: Vec<Option<F::Object>>,
    },
    /// `null` alone is one null render target, as written (`vec![None]`).
    OmSetRenderTargets {
        render_targets: Vec<Option<F::Object>>,
        depth_stencil: Option<F::Object>,
    },
    OmSetRenderTargetsAndUavs {
        render_targets: Vec<Option<F::Object>>,
        depth_stencil: Option<F::Object>,
        start: F::Count,
        views: Vec<Option<F::Object>>,
    },
    OmSetBlendState(Option<F::Object>),
    OmSetDepthStencilState(Option<F::Object>),
    RsSetState(Option<F::Object>),
    RsSetViewports(Vec<F::Viewport>),
    RsSetScissorRects(Vec<F::Rect>),
    Draw {
        vertex_count: F::Count,
        start_vertex: F::Count,
    },
    DrawIndexed {
        index_count: F::Count,
        start_index: F::Count,
        base_vertex: F::Signed,
    },
    DrawInstanced {
        vertex_count: F::Count,
        instance_count: F::Count,
        start_vertex: F::Count,
        start_instance: F::Count,
    },
    DrawIndexedInstanced {
        index_count: F::Count,
        instance_count: F::Count,
        start_index: F::Count,
        base_vertex: F::Signed,
        start_instance: F::Count,
    },
    DrawAuto,
    DrawInstancedIndirect {
        buffer: F::Object,
        offset: F::Count,
    },
    DrawIndexedInstancedIndirect {
        buffer: F::Object,
        offset: F::Count,
    },
    Dispatch {
        x: F::Count,
        y: F::Count,
        z: F::Count,
    },
    DispatchIndirect {
        buffer: F::Object,
        offset: F::Count,
    },
    ClearRenderTargetView {
        view: F::Object,
        color: [f32; 4],
    },
    ClearDepthStencilView {
        view: F::Object,
        depth: f32,
        stencil: F::Stencil,
    },
    CopyResource {
        destination: F::Object,
        source: F::Object,
    },
    UpdateSubresource {
        resource: F::Object,
    },
    CopyStructureCount {
        destination: F::Object,
        offset: F::Count,
        view: F::Object,
    },
    Map {
        resource: F::Object,
        map_type: F::MapType,
        allow_usage_default: bool,
        /// Nothing as written; once lowered, for a write_discard map, the K of the instance it
        /// makes (docs/TRACE.md "Instances": every write_discard map statement of a resource,
        /// in trace order).
        instance: F::Instance,
    },
    Unmap {
        resource: F::Object,
    },
    SetPredication {
        predicate: Option<F::Object>,
        value: bool,
    },
    Begin {
        query: F::Object,
    },
    End {
        query: F::Object,
    },
    ClearState,
    DecompressResource {
        resource: F::Object,
        into: Option<F::Object>,
    },
    SetResourceCompression {
        resource: F::Object,
        compression: F::Compression,
    },
    SetResourceMinLod {
        resource: F::Object,
        min_lod: f32,
    },
    SetShaderResourceViewMinLod {
        view: F::Object,
        min_lod: f32,
    },
    InsertWaitOnPresent {
        swapchain: F::Object,
    },
    InsertFence {
        fence: F::Object,
        engine: F::Defaulted<F::Engine>,
    },
    InsertWaitOnFence {
        fence: F::Object,
        engine: F::Defaulted<F::Engine>,
    },
    DrawBundle {
        bundle: F::Object,
    },
    RemapConstantBufferInheritance(Remap<F>),
    RemapShaderResourceInheritance(Remap<F>),
    RemapSamplerInheritance(Remap<F>),
    /// `remap_vertex_buffer_inheritance ia SLOT ia INHERIT_SLOT`.
    RemapVertexBufferInheritance {
        slot: F::Count,
        inherit_slot: F::Count,
    },
    /// `finish LIST` on a deferred context: declares the command list.
    FinishCommandList {
        list: F::Object,
        restore: F::Defaulted<bool>,
    },
    /// `finish` on a bundle recorder: the bundle takes the recorder's name.
    FinishBundle,
    Execute {
        list: F::Object,
        restore: F::Defaulted<bool>,
    },
    BeginCommandListExecution,
    EndCommandListExecution,
    Present {
        swapchain: F::Object,
    },
    Resume,
}

/// `STAGE SLOT INHERIT_STAGE INHERIT_SLOT` of the remap calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remap<F: Form = Written> {
    pub stage: F::Stage,
    pub slot: F::Count,
    pub inherit_stage: F::Stage,
    pub inherit_slot: F::Count,
}

/// Whom `expect error` and `expect accepted` ask about: `imm`, a deferred context or bundle
/// recorder, or any other declared object (a declaration the engine rejected is reported under the
/// declared name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject<O = Name> {
    Immediate,
    Named(O),
}

/// An expectation (docs/TRACE.md "Expectations"), in the [`Form`] `F` as a [`Method`] is: as
/// written, or lowered by the replay (objects by number, the engine's error kinds, split
/// categories and counter keys). What `expect draw` expects stays as written in both (the
/// replay compares it by trace name).
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation<F: Form = Written> {
    /// `expect ok`.
    Ok,
    /// `expect accepted CTX`: the last call on CTX (or its finish, execute, declaration) was
    /// accepted.
    Accepted { subject: Subject<F::Object> },
    /// `expect error CTX KIND`.
    Error {
        subject: Subject<F::Object>,
        kind: F::ErrorKind,
    },
    /// `expect split_points LIST [total=N] [CATEGORY=N ..]`: only the keys named are checked;
    /// the categories in the order written, each at most once.
    SplitPoints {
        list: F::Object,
        total: Option<u64>,
        categories: Vec<(F::SplitCategory, u64)>,
    },
    /// `expect counters KEY=N ..`: at least one key, each at most once, in the order written.
    Counters(Vec<(F::CounterKey, u64)>),
    /// `expect draw INDEX FIELD VALUE`.
    Draw {
        index: u64,
        field: DrawField,
        value: ExpectedValue,
    },
    /// `expect bundle_footprint BUNDLE BYTES`.
    BundleFootprint { bundle: F::Object, bytes: u64 },
}
