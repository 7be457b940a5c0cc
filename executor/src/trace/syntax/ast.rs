//! The typed syntax tree of a trace: what [`parse`](super::parse()) returns and what the printer
//! (`print.rs`) writes back as canonical trace text.
//!
//! **In:** nothing; these are plain data. **Out:** one [`Statement`] per non-blank line, each
//! a declaration, a call or an expectation, with every argument typed: object names as
//! [`Name`]s (checked against the declarations by the parser), numbers as `u64`/`i64`, the
//! floats docs/TRACE.md states as `f32`, slot sets as ranges, every closed vocabulary as an enum
//! (`words.rs`).
//!
//! **Invariant.** Every tree the parser returns prints to text that parses back to the same
//! tree (the line numbers aside: printing puts one statement a line). An optional option the
//! trace did not write is `None` here (the engine's default applies), so printing writes exactly
//! the options that were written, in docs/TRACE.md's order. A hand-built tree prints the same way,
//! and parses back equal if it is one the parser could have produced: objects declared before
//! use, names that are [`Name`]s, finite floats, values of the class the field takes.

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

/// The context a call is issued on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CallContext {
    /// `imm`.
    Immediate,
    /// A context declared with `context`.
    Deferred(Name),
    /// A recorder declared with `bundle`.
    BundleRecorder(Name),
}

/// `CTX METHOD ARGS`.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub context: CallContext,
    pub method: Method,
}

/// A method and its arguments (docs/TRACE.md "Calls"). `Option<Name>` is an argument that may be
/// `null`; the lists of bindings are never empty.
#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    SetInputLayout(Option<Name>),
    SetPrimitiveTopology(Topology),
    SetVertexBuffers {
        start: u64,
        buffers: Vec<Option<Name>>,
    },
    SetIndexBuffer {
        buffer: Option<Name>,
        format: Format,
        offset: Option<u64>,
    },
    SetPrimitiveResetIndex(u64),
    SetShader {
        stage: Stage,
        shader: Option<Name>,
    },
    SetConstantBuffers {
        stage: Stage,
        start: u64,
        buffers: Vec<Option<Name>>,
    },
    SetShaderResources {
        stage: Stage,
        start: u64,
        views: Vec<Option<Name>>,
    },
    SetSamplers {
        stage: Stage,
        start: u64,
        samplers: Vec<Option<Name>>,
    },
    CsSetUnorderedAccessViews {
        start: u64,
        views: Vec<Option<Name>>,
    },
    /// `null` alone is one null render target, as written (`vec![None]`).
    OmSetRenderTargets {
        render_targets: Vec<Option<Name>>,
        depth_stencil: Option<Name>,
    },
    OmSetRenderTargetsAndUavs {
        render_targets: Vec<Option<Name>>,
        depth_stencil: Option<Name>,
        start: u64,
        views: Vec<Option<Name>>,
    },
    OmSetBlendState(Option<Name>),
    OmSetDepthStencilState(Option<Name>),
    RsSetState(Option<Name>),
    RsSetViewports(Vec<Viewport>),
    RsSetScissorRects(Vec<Rect>),
    Draw {
        vertex_count: u64,
        start_vertex: u64,
    },
    DrawIndexed {
        index_count: u64,
        start_index: u64,
        base_vertex: i64,
    },
    DrawInstanced {
        vertex_count: u64,
        instance_count: u64,
        start_vertex: u64,
        start_instance: u64,
    },
    DrawIndexedInstanced {
        index_count: u64,
        instance_count: u64,
        start_index: u64,
        base_vertex: i64,
        start_instance: u64,
    },
    DrawAuto,
    DrawInstancedIndirect {
        buffer: Name,
        offset: u64,
    },
    DrawIndexedInstancedIndirect {
        buffer: Name,
        offset: u64,
    },
    Dispatch {
        x: u64,
        y: u64,
        z: u64,
    },
    DispatchIndirect {
        buffer: Name,
        offset: u64,
    },
    ClearRenderTargetView {
        view: Name,
        color: [f32; 4],
    },
    ClearDepthStencilView {
        view: Name,
        depth: f32,
        stencil: u64,
    },
    CopyResource {
        destination: Name,
        source: Name,
    },
    UpdateSubresource {
        resource: Name,
    },
    CopyStructureCount {
        destination: Name,
        offset: u64,
        view: Name,
    },
    Map {
        resource: Name,
        map_type: MapType,
        allow_usage_default: bool,
    },
    Unmap {
        resource: Name,
    },
    SetPredication {
        predicate: Option<Name>,
        value: bool,
    },
    Begin {
        query: Name,
    },
    End {
        query: Name,
    },
    ClearState,
    DecompressResource {
        resource: Name,
        into: Option<Name>,
    },
    SetResourceCompression {
        resource: Name,
        compression: Compression,
    },
    SetResourceMinLod {
        resource: Name,
        min_lod: f32,
    },
    SetShaderResourceViewMinLod {
        view: Name,
        min_lod: f32,
    },
    InsertWaitOnPresent {
        swapchain: Name,
    },
    InsertFence {
        fence: Name,
        engine: Option<Engine>,
    },
    InsertWaitOnFence {
        fence: Name,
        engine: Option<Engine>,
    },
    DrawBundle {
        bundle: Name,
    },
    RemapConstantBufferInheritance(Remap),
    RemapShaderResourceInheritance(Remap),
    RemapSamplerInheritance(Remap),
    /// `remap_vertex_buffer_inheritance ia SLOT ia INHERIT_SLOT`.
    RemapVertexBufferInheritance {
        slot: u64,
        inherit_slot: u64,
    },
    /// `finish LIST` on a deferred context: declares the command list.
    FinishCommandList {
        list: Name,
        restore: Option<bool>,
    },
    /// `finish` on a bundle recorder: the bundle takes the recorder's name.
    FinishBundle,
    Execute {
        list: Name,
        restore: Option<bool>,
    },
    BeginCommandListExecution,
    EndCommandListExecution,
    Present {
        swapchain: Name,
    },
    Resume,
}

/// `STAGE SLOT INHERIT_STAGE INHERIT_SLOT` of the remap calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remap {
    pub stage: Stage,
    pub slot: u64,
    pub inherit_stage: Stage,
    pub inherit_slot: u64,
}

/// Whom `expect error` and `expect accepted` ask about: `imm`, a deferred context or bundle
/// recorder, or any other declared object (a declaration the engine rejected is reported under the
/// declared name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    Immediate,
    Named(Name),
}

/// An expectation (docs/TRACE.md "Expectations").
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    /// `expect ok`.
    Ok,
    /// `expect accepted CTX`: the last call on CTX (or its finish, execute, declaration) was
    /// accepted.
    Accepted { subject: Subject },
    /// `expect error CTX KIND`.
    Error { subject: Subject, kind: ErrorKind },
    /// `expect split_points LIST [total=N] [CATEGORY=N ..]`: only the keys named are checked;
    /// the categories in the order written, each at most once.
    SplitPoints {
        list: Name,
        total: Option<u64>,
        categories: Vec<(SplitCategory, u64)>,
    },
    /// `expect counters KEY=N ..`: at least one key, each at most once, in the order written.
    Counters(Vec<(CounterKey, u64)>),
    /// `expect draw INDEX FIELD VALUE`.
    Draw {
        index: u64,
        field: DrawField,
        value: ExpectedValue,
    },
    /// `expect bundle_footprint BUNDLE BYTES`.
    BundleFootprint { bundle: Name, bytes: u64 },
}
