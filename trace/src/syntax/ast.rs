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
use std::ops::BitOr;

use super::name::{Format, Name};
use super::symbols::ObjKind;
use super::value::{DrawField, ExpectedValue};
use super::words::{AccessWord, LayoutWord, SplitHalf, StateWord, SyncWord};
use super::words::{
    BindFlags, Compression, CounterKey, Engine, ErrorKind, MapType, PrimitiveTopology, QueryKind,
    QueryMode, Semantics, SplitCategory, Stage, UavFlag, Usage, Validation, Word, WordTable,
};

/// An inclusive range of slots, `2-5`, or one slot `3` (`first == last`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotRange {
    /// The first slot of the range.
    pub first: u64,
    /// The last slot of the range, included; `first` for one slot.
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

/// `X,Y,W,H` of `rs_set_viewports`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Left edge, in pixels.
    pub x: f32,
    /// Top edge, in pixels.
    pub y: f32,
    /// Width, in pixels.
    pub width: f32,
    /// Height, in pixels.
    pub height: f32,
}

/// `L,T,R,B` of `rs_set_scissor_rects` (signed, as D3D's `RECT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left edge, in pixels.
    pub left: i64,
    /// Top edge, in pixels.
    pub top: i64,
    /// Right edge, in pixels (excluded, as D3D's `RECT`).
    pub right: i64,
    /// Bottom edge, in pixels (excluded, as D3D's `RECT`).
    pub bottom: i64,
}

/// `heap=HEAP offset=BYTES` of a placed `buffer` or `texture` (R-BAR-7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// `heap=`, a declared heap.
    pub heap: Name,
    /// `offset=`, in bytes.
    pub offset: u64,
}

/// A parsed trace: its statements with their 1-based line numbers, in order. Blank and comment
/// lines have no statement. The first statement is the `device`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Each statement and the 1-based line it was on.
    pub statements: Vec<(usize, Statement)>,
}

/// One line of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// A declaration: `device`, an object, a context or recorder, or `release`.
    Declaration(Declaration),
    /// A call on `imm`, a deferred context or a bundle recorder.
    Call(Call),
    /// An `expect` line.
    Expectation(Expectation),
}

/// A declaration (docs/TRACE.md "Declarations").
#[derive(Clone, Debug, PartialEq)]
pub enum Declaration {
    /// `device semantics=.. [validation=..]`: the device and its immediate context; always the
    /// first statement.
    Device {
        /// The immediate context's semantics.
        semantics: Semantics,
        /// `validation=off|on|hazards` (R-V-1, R-V-2); `None`: not written (off).
        validation: Option<Validation>,
        /// `legacy_barriers=on|off` (R-BAR-6); `None`: not written (on).
        legacy_barriers: Option<bool>,
    },
    /// `buffer NAME usage=.. bind=.. size=.. [uav_flag=..]`.
    Buffer {
        /// The declared name.
        name: Name,
        /// `usage=`.
        usage: Usage,
        /// `bind=`.
        bind: BindFlags,
        /// `size=`, in bytes.
        size: u64,
        /// `uav_flag=append|counter` (R-ST-7); `None`: not written (neither).
        uav_flag: Option<UavFlag>,
        /// `heap=HEAP offset=BYTES` (R-BAR-7); `None`: not written (a committed buffer).
        placement: Option<Placement>,
    },
    /// `texture NAME format=.. width=.. height=.. [mips=..] [array=..] [samples=..] bind=..
    /// [compressible=..] [tc=..]`.
    Texture {
        /// The declared name.
        name: Name,
        /// `format=`.
        format: Format,
        /// `width=`, in texels.
        width: u64,
        /// `height=`, in texels.
        height: u64,
        /// `mips=`; `None`: not written (1).
        mips: Option<u64>,
        /// `array=`, the slice count; `None`: not written (1).
        array: Option<u64>,
        /// `samples=`; `None`: not written (1).
        samples: Option<u64>,
        /// `bind=`.
        bind: BindFlags,
        /// `compressible=yes|no`; `None`: not written (render targets and depth stencils are
        /// compressible).
        compressible: Option<bool>,
        /// `tc=yes|no`, texture compatible (R-ST-9); `None`: not written (no).
        tc: Option<bool>,
        /// `dcc=yes|no`, delta colour compression allowed (`ALLOW_DCC` of the enhanced-barriers
        /// documentation, R-BAR-3); `None`: not written (no).
        dcc: Option<bool>,
        /// `heap=HEAP offset=BYTES` (R-BAR-7); `None`: not written (a committed texture).
        placement: Option<Placement>,
    },
    /// `srv NAME RESOURCE [min_lod=F]`.
    ShaderResourceView {
        /// The declared name.
        name: Name,
        /// The resource viewed.
        resource: Name,
        /// `min_lod=`, the view's initial minimum LOD (R-ST-6); `None`: not written (the
        /// resource's).
        min_lod: Option<f32>,
    },
    /// `uav NAME RESOURCE`.
    UnorderedAccessView {
        /// The declared name.
        name: Name,
        /// The resource viewed.
        resource: Name,
    },
    /// `rtv NAME RESOURCE`.
    RenderTargetView {
        /// The declared name.
        name: Name,
        /// The resource viewed.
        resource: Name,
    },
    /// `dsv NAME RESOURCE`.
    DepthStencilView {
        /// The declared name.
        name: Name,
        /// The resource viewed.
        resource: Name,
    },
    /// `shader NAME stage=.. [cb=..] [srv=..] [sampler=..] [uav=..] [stream_output=yes]`.
    Shader {
        /// The declared name.
        name: Name,
        /// `stage=`.
        stage: Stage,
        /// `cb=`, the constant-buffer slots read; `None`: not written (none).
        constant_buffers: Option<SlotSet>,
        /// `srv=`, the shader-resource slots read; `None`: not written (none).
        shader_resources: Option<SlotSet>,
        /// `sampler=`, the sampler slots read; `None`: not written (none).
        samplers: Option<SlotSet>,
        /// `uav=`, the UAV slots accessed; `None`: not written (none).
        unordered_access_views: Option<SlotSet>,
        /// `stream_output=yes`; `None`: not written (no).
        stream_output: Option<bool>,
    },
    /// `input_layout NAME [vb=..]`.
    InputLayout {
        /// The declared name.
        name: Name,
        /// `vb=`, the vertex-buffer slots read; `None`: not written (none).
        vertex_buffers: Option<SlotSet>,
    },
    /// `blend_state NAME`.
    BlendState {
        /// The declared name.
        name: Name,
    },
    /// `rasterizer_state NAME`.
    RasterizerState {
        /// The declared name.
        name: Name,
    },
    /// `depth_stencil_state NAME`.
    DepthStencilState {
        /// The declared name.
        name: Name,
    },
    /// `sampler_state NAME`.
    SamplerState {
        /// The declared name.
        name: Name,
    },
    /// `predicate NAME`: a query of kind predicate, for `set_predication`.
    Predicate {
        /// The declared name.
        name: Name,
    },
    /// `query NAME occlusion|timestamp|pipeline_statistics|predicate` (R-FX-3).
    Query {
        /// The declared name.
        name: Name,
        /// The query's kind.
        kind: QueryKind,
    },
    /// Also declares the textures `NAME.0 .. NAME.(buffers-1)` and the RTVs `NAME.K.rtv`.
    Swapchain {
        /// The declared name, and the prefix of its textures' and RTVs' names.
        name: Name,
        /// `buffers=`, the back-buffer count.
        buffers: u64,
        /// `format=`.
        format: Format,
        /// `width=`, in pixels.
        width: u64,
        /// `height=`, in pixels.
        height: u64,
    },
    /// A deferred context.
    Context {
        /// The declared name.
        name: Name,
        /// `semantics=`.
        semantics: Semantics,
        /// `title_managed_lifetimes=yes` (R-FX-6): a legacy context that takes no references
        /// (`DeferredContextDesc::title_managed_lifetimes`); default no.
        title_managed_lifetimes: bool,
    },
    /// A bundle recorder; `render_targets` is empty for `rt=none`.
    Bundle {
        /// The declared name; the bundle `finish` makes takes it too.
        name: Name,
        /// `rt=`, the formats of the render targets the bundle's draws write.
        render_targets: Vec<Format>,
        /// `depth=`, the depth-stencil format; `None`: no depth stencil.
        depth: Option<Format>,
        /// `samples=`; `None`: not written (1).
        samples: Option<u64>,
    },
    /// `heap NAME size=BYTES`: memory placed resources share (R-BAR-7).
    Heap {
        /// The declared name.
        name: Name,
        /// `size=`, in bytes.
        size: u64,
    },
    /// `release NAME`: the application's last reference to the object goes away.
    Release {
        /// The object released.
        name: Name,
    },
}

impl Declaration {
    /// The name the declaration declares and what it is; `None` for `device` and `release`,
    /// which declare nothing. A swap chain declares its textures and RTVs with it.
    pub(crate) fn declares(&self) -> Option<(&Name, ObjKind)> {
        Some(match self {
            Self::Device { .. } | Self::Release { .. } => return None,
            Self::Buffer { name, .. } => (name, ObjKind::Buffer),
            Self::Texture { name, .. } => (name, ObjKind::Texture),
            Self::ShaderResourceView { name, .. } => (name, ObjKind::ShaderResourceView),
            Self::UnorderedAccessView { name, .. } => (name, ObjKind::UnorderedAccessView),
            Self::RenderTargetView { name, .. } => (name, ObjKind::RenderTargetView),
            Self::DepthStencilView { name, .. } => (name, ObjKind::DepthStencilView),
            Self::Shader { name, .. } => (name, ObjKind::Shader),
            Self::InputLayout { name, .. } => (name, ObjKind::InputLayout),
            Self::BlendState { name } => (name, ObjKind::BlendState),
            Self::RasterizerState { name } => (name, ObjKind::RasterizerState),
            Self::DepthStencilState { name } => (name, ObjKind::DepthStencilState),
            Self::SamplerState { name } => (name, ObjKind::SamplerState),
            Self::Predicate { name } => (name, ObjKind::Predicate),
            Self::Query { name, .. } => (name, ObjKind::Predicate),
            Self::Swapchain { name, .. } => (name, ObjKind::SwapChain),
            Self::Context { name, .. } => (name, ObjKind::Context),
            Self::Bundle { name, .. } => (name, ObjKind::BundleRecorder),
            Self::Heap { name, .. } => (name, ObjKind::Heap),
        })
    }
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
    /// What the `write` statements after a `map` add to it: nothing as written; once lowered,
    /// the bytes the map's memory takes (the replay copies them when the map returns it).
    type MapWrites: Clone + fmt::Debug;
    /// The KIND of `expect error`.
    type ErrorKind: Clone + fmt::Debug;
    /// A CATEGORY of `expect split_points`.
    type SplitCategory: Clone + fmt::Debug;
    /// A KEY of `expect counters`.
    type CounterKey: Clone + fmt::Debug;
    /// A barrier's `sync=` side: flags combined with `+`.
    type Sync: Clone + fmt::Debug + PartialEq;
    /// A barrier's `access=` side: flags combined with `+`.
    type Access: Clone + fmt::Debug + PartialEq;
    /// A texture barrier's `layout=` side, and the layout of `expect resource`.
    type Layout: Clone + fmt::Debug + PartialEq;
    /// A legacy STATE: flags combined with `+`.
    type States: Clone + fmt::Debug + PartialEq;
    /// A texture barrier's `mips=`, `array=`, `planes=` range: `Option<SlotRange>` as written
    /// (`None`: every one), the engine's span once lowered.
    type Span: Clone + fmt::Debug + PartialEq;
    /// `split=begin|end` of a legacy transition.
    type Split: Clone + fmt::Debug + PartialEq;
}

/// The form of a call as the trace writes it: what the parser returns and the printer writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Written;

impl Form for Written {
    type Object = Name;
    type Count = u64;
    type Signed = i64;
    type Stencil = u64;
    type Topology = PrimitiveTopology;
    type Format = Format;
    type Stage = Stage;
    type Viewport = Viewport;
    type Rect = Rect;
    type MapType = MapType;
    type Compression = Compression;
    type Engine = Engine;
    type Defaulted<T: Clone + fmt::Debug> = Option<T>;
    type Instance = ();
    type MapWrites = ();
    type ErrorKind = ErrorKind;
    type SplitCategory = SplitCategory;
    type CounterKey = CounterKey;
    type Sync = Flags<SyncWord>;
    type Access = Flags<AccessWord>;
    type Layout = LayoutWord;
    type States = Flags<StateWord>;
    type Span = Option<SlotRange>;
    type Split = SplitHalf;
}

/// Flags combined with `+` (`compute_shading+pixel_shading`), the words in the order written
/// (an alias such as `predication` kept as written). Never empty when parsed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Flags<W>(pub Vec<W>);

impl<T: WordTable + Default + BitOr<Output = T>> Flags<Word<T>> {
    /// The engine's value: every word's flags, ORed (the empty set for no word).
    pub fn value(&self) -> T {
        self.0
            .iter()
            .fold(T::default(), |all, word| all | word.value())
    }
}

/// `BEFORE:AFTER` of a barrier's `sync=`, `access=` and `layout=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BeforeAfter<T> {
    /// BEFORE: the work, access or layout before the barrier.
    pub before: T,
    /// AFTER: the work, access or layout after it.
    pub after: T,
}

impl<T> BeforeAfter<T> {
    /// Both sides through `f`.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> BeforeAfter<U> {
        BeforeAfter {
            before: f(&self.before),
            after: f(&self.after),
        }
    }
}

/// One BARRIER of `barrier BARRIER [| BARRIER ..]` (SPEC R-BAR-1), in the [`Form`] `F`.
#[derive(Clone, Debug, PartialEq)]
pub enum Barrier<F: Form = Written> {
    /// `global sync=BEFORE:AFTER access=BEFORE:AFTER`.
    Global {
        /// `sync=`.
        sync: BeforeAfter<F::Sync>,
        /// `access=`.
        access: BeforeAfter<F::Access>,
    },
    /// `buffer BUF sync=BEFORE:AFTER access=BEFORE:AFTER [size=BYTES]`.
    Buffer {
        /// BUF: any resource (a texture is the engine's `invalid_barrier`).
        resource: F::Object,
        /// `sync=`.
        sync: BeforeAfter<F::Sync>,
        /// `access=`.
        access: BeforeAfter<F::Access>,
        /// `size=`, in bytes from offset 0; `None`: not written (the whole buffer).
        size: Option<u64>,
    },
    /// `texture TEX sync=.. access=.. layout=BEFORE:AFTER [mips=A-B] [array=A-B] [planes=A-B]
    /// [discard]`.
    Texture {
        /// TEX: any resource (a buffer is the engine's `invalid_barrier`).
        resource: F::Object,
        /// `sync=`.
        sync: BeforeAfter<F::Sync>,
        /// `access=`.
        access: BeforeAfter<F::Access>,
        /// `layout=`.
        layout: BeforeAfter<F::Layout>,
        /// `mips=A-B`, inclusive.
        mips: F::Span,
        /// `array=A-B`, inclusive.
        array: F::Span,
        /// `planes=A-B`, inclusive: 0 depth (or colour), 1 stencil.
        planes: F::Span,
        /// `discard` was written: the contents are discarded (metadata initialised, R-BAR-3).
        discard: bool,
    },
}

/// The legacy barrier of `resource_barrier` (SPEC R-BAR-6), in the [`Form`] `F`.
#[derive(Clone, Debug, PartialEq)]
pub enum LegacyBarrier<F: Form = Written> {
    /// `transition RESOURCE STATE_BEFORE STATE_AFTER [subresource=N] [split=begin|end]`.
    Transition {
        /// The resource.
        resource: F::Object,
        /// STATE_BEFORE.
        before: F::States,
        /// STATE_AFTER.
        after: F::States,
        /// `subresource=N`; `None`: every subresource.
        subresource: Option<F::Count>,
        /// `split=begin|end` (R-BAR-4); `None`: not split.
        split: Option<F::Split>,
    },
    /// `uav RESOURCE|null`.
    Uav {
        /// The resource, or `null` for every UAV access.
        resource: Option<F::Object>,
    },
    /// `aliasing RESOURCE|null RESOURCE|null`.
    Aliasing {
        /// The resource aliased away from, or `null`.
        before: Option<F::Object>,
        /// The resource aliased to, or `null`.
        after: Option<F::Object>,
    },
}

/// The `layout=` of `expect resource`: one layout, or `mixed` (the subresources differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpectedLayout<L> {
    /// Every subresource is in this layout.
    Is(L),
    /// `mixed`: the subresources are not all in one layout.
    Mixed,
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
    /// The context the call is issued on.
    pub context: CallContext,
    /// The method and its arguments.
    pub method: Method,
}

/// A method and its arguments (docs/TRACE.md "Calls"), held in the [`Form`] `F`: as written
/// ([`Written`], what the parser returns and the printer writes) or lowered to the engine's
/// types by the replay. `Option<F::Object>` is an argument that may be `null`; the lists of
/// bindings are never empty.
#[derive(Clone, Debug, PartialEq)]
pub enum Method<F: Form = Written> {
    /// `set_input_layout LAYOUT|null`.
    SetInputLayout(Option<F::Object>),
    /// `set_primitive_topology TOPOLOGY`.
    SetPrimitiveTopology(F::Topology),
    /// `set_vertex_buffers START BUF|null ..`.
    SetVertexBuffers {
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        buffers: Vec<Option<F::Object>>,
    },
    /// `set_index_buffer BUF|null FORMAT [OFFSET]`.
    SetIndexBuffer {
        /// The index buffer, or `null`.
        buffer: Option<F::Object>,
        /// The index format.
        format: F::Format,
        /// Byte offset of the first index; default 0.
        offset: F::Defaulted<F::Count>,
    },
    /// `set_primitive_reset_index VALUE` (R-ST-5).
    SetPrimitiveResetIndex(F::Count),
    /// `STAGE_set_shader SHADER|null`.
    SetShader {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The shader, or `null`.
        shader: Option<F::Object>,
    },
    /// `STAGE_set_constant_buffers START BUF|null ..`.
    SetConstantBuffers {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        buffers: Vec<Option<F::Object>>,
    },
    /// `STAGE_set_shader_resources START SRV|null ..`.
    SetShaderResources {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        views: Vec<Option<F::Object>>,
    },
    /// `STAGE_set_samplers START SAMPLER|null ..`.
    SetSamplers {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        samplers: Vec<Option<F::Object>>,
    },
    /// `set_fast_resources ENTRY [ENTRY ..]` (R-FX-1): each ENTRY `STAGE.cb.SLOT=BUF|null`,
    /// `STAGE.srv.SLOT=SRV|null`, `STAGE.sampler.SLOT=SAMPLER|null` or `vb.SLOT=BUF|null`.
    SetFastResources(Vec<FastEntry<F>>),
    /// `set_fast_resources_into_batch BATCH ENTRY [ENTRY ..]` (R-FX-1): appends the entries to
    /// the batch BATCH (a name of the trace's own, made by its first such line), records nothing.
    SetFastResourcesIntoBatch {
        /// The batch.
        batch: Name,
        /// As `set_fast_resources`'s.
        entries: Vec<FastEntry<F>>,
    },
    /// `set_fast_resources_from_batch BATCH` (R-FX-1): applies the batch in one call.
    SetFastResourcesFromBatch {
        /// The batch.
        batch: Name,
        /// Empty as written; once lowered, the batch's entries at this line (its
        /// `set_fast_resources_into_batch` lines before it, in order).
        entries: Vec<FastEntry<F>>,
    },
    /// `STAGE_set_fast_shader_resource SLOT SRV|null` (R-FX-1).
    SetFastShaderResource {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The slot.
        slot: F::Count,
        /// The view, or `null`.
        view: Option<F::Object>,
    },
    /// `STAGE_set_placement_shader_resource SLOT SRV ADDRESS` (R-FX-2).
    SetPlacementShaderResource {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The slot.
        slot: F::Count,
        /// The view of a default resource.
        view: F::Object,
        /// The address its resource is placed at.
        address: u64,
    },
    /// `STAGE_set_placement_constant_buffer SLOT BUF ADDRESS` (R-FX-2).
    SetPlacementConstantBuffer {
        /// The stage of the method's name.
        stage: F::Stage,
        /// The slot.
        slot: F::Count,
        /// A default-usage constant buffer.
        buffer: F::Object,
        /// The address it is placed at.
        address: u64,
    },
    /// `set_placement_vertex_buffer SLOT BUF ADDRESS` (R-FX-2).
    SetPlacementVertexBuffer {
        /// The slot.
        slot: F::Count,
        /// A default-usage vertex buffer.
        buffer: F::Object,
        /// The address it is placed at.
        address: u64,
    },
    /// `ia_set_placement_index_buffer BUF ADDRESS FORMAT` (R-FX-2).
    IaSetPlacementIndexBuffer {
        /// A default-usage index buffer.
        buffer: F::Object,
        /// The address it is placed at.
        address: u64,
        /// The index format.
        format: F::Format,
    },
    /// `cs_set_unordered_access_views START UAV|null ..`.
    CsSetUnorderedAccessViews {
        /// The first slot bound.
        start: F::Count,
        /// One per slot from `start`.
        views: Vec<Option<F::Object>>,
    },
    /// `null` alone is one null render target, as written (`vec![None]`).
    OmSetRenderTargets {
        /// From slot 0.
        render_targets: Vec<Option<F::Object>>,
        /// The depth-stencil view, or `null`.
        depth_stencil: Option<F::Object>,
    },
    /// `om_set_render_targets_and_uavs RTV|null[,RTV..] DSV|null START UAV|null ..`.
    OmSetRenderTargetsAndUavs {
        /// From slot 0; `null` alone is one null render target.
        render_targets: Vec<Option<F::Object>>,
        /// The depth-stencil view, or `null`.
        depth_stencil: Option<F::Object>,
        /// The first OM UAV slot bound.
        start: F::Count,
        /// One per OM UAV slot from `start`.
        views: Vec<Option<F::Object>>,
    },
    /// `om_set_blend_state STATE|null`.
    OmSetBlendState(Option<F::Object>),
    /// `om_set_depth_stencil_state STATE|null`.
    OmSetDepthStencilState(Option<F::Object>),
    /// `rs_set_state STATE|null`.
    RsSetState(Option<F::Object>),
    /// `rs_set_viewports X,Y,W,H ..`, from slot 0.
    RsSetViewports(Vec<F::Viewport>),
    /// `rs_set_scissor_rects L,T,R,B ..`, from slot 0.
    RsSetScissorRects(Vec<F::Rect>),
    /// `draw VERTEX_COUNT START_VERTEX`.
    Draw {
        /// VERTEX_COUNT.
        vertex_count: F::Count,
        /// START_VERTEX.
        start_vertex: F::Count,
    },
    /// `draw_indexed INDEX_COUNT START_INDEX BASE_VERTEX`.
    DrawIndexed {
        /// INDEX_COUNT.
        index_count: F::Count,
        /// START_INDEX.
        start_index: F::Count,
        /// BASE_VERTEX, added to each index (may be negative).
        base_vertex: F::Signed,
    },
    /// `draw_instanced VERTEX_COUNT INSTANCE_COUNT START_VERTEX START_INSTANCE`.
    DrawInstanced {
        /// VERTEX_COUNT.
        vertex_count: F::Count,
        /// INSTANCE_COUNT.
        instance_count: F::Count,
        /// START_VERTEX.
        start_vertex: F::Count,
        /// START_INSTANCE.
        start_instance: F::Count,
    },
    /// `draw_indexed_instanced INDEX_COUNT INSTANCE_COUNT START_INDEX BASE_VERTEX START_INSTANCE`.
    DrawIndexedInstanced {
        /// INDEX_COUNT.
        index_count: F::Count,
        /// INSTANCE_COUNT.
        instance_count: F::Count,
        /// START_INDEX.
        start_index: F::Count,
        /// BASE_VERTEX, added to each index (may be negative).
        base_vertex: F::Signed,
        /// START_INSTANCE.
        start_instance: F::Count,
    },
    /// `draw_auto`.
    DrawAuto,
    /// `draw_instanced_indirect BUF OFFSET`.
    DrawInstancedIndirect {
        /// The buffer the arguments are read from.
        buffer: F::Object,
        /// Byte offset of the arguments in it.
        offset: F::Count,
    },
    /// `draw_indexed_instanced_indirect BUF OFFSET`.
    DrawIndexedInstancedIndirect {
        /// The buffer the arguments are read from.
        buffer: F::Object,
        /// Byte offset of the arguments in it.
        offset: F::Count,
    },
    /// `dispatch X Y Z`.
    Dispatch {
        /// Thread groups in x.
        x: F::Count,
        /// Thread groups in y.
        y: F::Count,
        /// Thread groups in z.
        z: F::Count,
    },
    /// `dispatch_indirect BUF OFFSET`.
    DispatchIndirect {
        /// The buffer the group counts are read from.
        buffer: F::Object,
        /// Byte offset of the group counts in it.
        offset: F::Count,
    },
    /// `clear_render_target_view RTV R G B A`.
    ClearRenderTargetView {
        /// The render-target view cleared.
        view: F::Object,
        /// The colour, RGBA.
        color: [f32; 4],
    },
    /// `clear_depth_stencil_view DSV DEPTH STENCIL`.
    ClearDepthStencilView {
        /// The depth-stencil view cleared.
        view: F::Object,
        /// DEPTH.
        depth: f32,
        /// STENCIL.
        stencil: F::Stencil,
    },
    /// `copy_resource DST SRC`.
    CopyResource {
        /// DST, the resource written.
        destination: F::Object,
        /// SRC, the resource read.
        source: F::Object,
    },
    /// `copy_buffer_region DST DST_OFFSET SRC SRC_OFFSET BYTES` (R-BAR-7: DST may be SRC).
    CopyBufferRegion {
        /// DST, the buffer written.
        destination: F::Object,
        /// DST_OFFSET, in bytes.
        destination_offset: F::Count,
        /// SRC, the buffer read.
        source: F::Object,
        /// SRC_OFFSET, in bytes.
        source_offset: F::Count,
        /// BYTES.
        bytes: F::Count,
    },
    /// `copy_texture_region DST DST_SUBRESOURCE X,Y SRC SRC_SUBRESOURCE L,T,R,B` (R-BAR-7: DST
    /// may be SRC).
    CopyTextureRegion {
        /// DST, the texture written.
        destination: F::Object,
        /// DST_SUBRESOURCE.
        destination_subresource: F::Count,
        /// X,Y: where the box lands in DST.
        at: [F::Count; 2],
        /// SRC, the texture read.
        source: F::Object,
        /// SRC_SUBRESOURCE.
        source_subresource: F::Count,
        /// L,T,R,B: the texels of SRC read (right and bottom excluded).
        source_box: [F::Count; 4],
    },
    /// `update_subresource RESOURCE`.
    UpdateSubresource {
        /// The resource updated.
        resource: F::Object,
    },
    /// `copy_structure_count DST_BUF OFFSET UAV`.
    CopyStructureCount {
        /// DST_BUF, the buffer the counter is written to.
        destination: F::Object,
        /// Byte offset in DST_BUF.
        offset: F::Count,
        /// The UAV whose hidden counter is read.
        view: F::Object,
    },
    /// `map RESOURCE TYPE [allow_usage_default]`.
    Map {
        /// The resource mapped.
        resource: F::Object,
        /// The map type.
        map_type: F::MapType,
        /// `allow_usage_default` was written: a write_no_overwrite map of a default-usage resource.
        allow_usage_default: bool,
        /// Nothing as written; once lowered, for a write_discard map, the K of the instance it
        /// makes (docs/TRACE.md "Instances": every write_discard map statement of a resource,
        /// in trace order).
        instance: F::Instance,
        /// Nothing as written; once lowered, the `write` statements that may land in this
        /// map's memory (the replay's `writes.rs` says which do).
        writes: F::MapWrites,
    },
    /// `write RESOURCE OFFSET HEX`: bytes the application wrote into the memory of the open
    /// map of RESOURCE on the call's context, between `map` and `unmap` (what a capture
    /// records).
    Write {
        /// The resource mapped.
        resource: F::Object,
        /// OFFSET: the first byte written, from the start of the mapped memory.
        offset: F::Count,
        /// HEX: the bytes written (at least one), two hex digits each.
        bytes: Vec<u8>,
    },
    /// `unmap RESOURCE`.
    Unmap {
        /// The resource unmapped.
        resource: F::Object,
    },
    /// `set_predication PREDICATE|null yes|no`.
    SetPredication {
        /// The predicate, or `null` to stop predicating.
        predicate: Option<F::Object>,
        /// `yes|no`: the predicate value that skips the draws.
        value: bool,
    },
    /// `begin QUERY`.
    Begin {
        /// The query begun.
        query: F::Object,
    },
    /// `end QUERY`.
    End {
        /// The query ended.
        query: F::Object,
    },
    /// `write_query QUERY` (R-FX-3).
    WriteQuery {
        /// The query written.
        query: F::Object,
    },
    /// `reset_query QUERY` (R-FX-3).
    ResetQuery {
        /// The query reset.
        query: F::Object,
    },
    /// `configure_query QUERY counting|binary` (R-FX-3).
    ConfigureQuery {
        /// The query configured.
        query: F::Object,
        /// How it counts samples.
        mode: QueryMode,
    },
    /// `set_predication_from_query QUERY|null yes|no` (R-FX-3).
    SetPredicationFromQuery {
        /// The query, or `null` to stop predicating.
        query: Option<F::Object>,
        /// `yes|no`: the answer that skips the draws.
        value: bool,
    },
    /// `clear_state`.
    ClearState,
    /// `create_device_context_state STATE` (R-FX-6): the context makes a device context state
    /// object holding the ClearState defaults; the line declares STATE.
    CreateDeviceContextState {
        /// The state object the line makes.
        state: F::Object,
    },
    /// `swap_device_context_state STATE` (R-FX-6): the context's bindings and STATE's exchanged.
    SwapDeviceContextState {
        /// The state object swapped in (it keeps the context's bindings).
        state: F::Object,
    },
    /// `decompress_resource RESOURCE [into=RESOURCE]` (R-ST-9).
    DecompressResource {
        /// The compressible target.
        resource: F::Object,
        /// `into=`: the texture the decompressed contents go to; `None`: in place.
        into: Option<F::Object>,
    },
    /// `set_resource_compression RESOURCE compressed|decompressed` (R-ST-9).
    SetResourceCompression {
        /// The target.
        resource: F::Object,
        /// `compressed|decompressed`.
        compression: F::Compression,
    },
    /// `set_resource_min_lod RESOURCE F` (R-ST-6).
    SetResourceMinLod {
        /// The resource.
        resource: F::Object,
        /// The minimum LOD.
        min_lod: f32,
    },
    /// `set_shader_resource_view_min_lod SRV F` (R-ST-6).
    SetShaderResourceViewMinLod {
        /// The view.
        view: F::Object,
        /// The minimum LOD.
        min_lod: f32,
    },
    /// `insert_wait_on_present SWAPCHAIN` (R-EX-7).
    InsertWaitOnPresent {
        /// The swap chain whose present is waited for.
        swapchain: F::Object,
    },
    /// `insert_fence FENCE_NAME [engine=..] [kick_off]` (R-EX-5, R-FX-6).
    InsertFence {
        /// FENCE_NAME: the name the trace gives the fence value the call returns.
        fence: F::Object,
        /// `engine=`; default graphics.
        engine: F::Defaulted<F::Engine>,
        /// `kick_off`: the fence kicks off its segment (`FenceFlags::KickOff`, R-FX-6).
        kick_off: bool,
    },
    /// `insert_wait_on_fence FENCE_NAME [engine=..]` (R-EX-5).
    InsertWaitOnFence {
        /// The fence waited for, named by an earlier `insert_fence`.
        fence: F::Object,
        /// `engine=`, the engine that waits; default graphics.
        engine: F::Defaulted<F::Engine>,
    },
    /// `set_gds_range STAGE OFFSET SIZE` (R-FX-4).
    SetGdsRange {
        /// The stage (`ps` or `cs`; others are the engine's `invalid_argument`).
        stage: F::Stage,
        /// Byte offset of the range in GDS.
        offset: F::Count,
        /// Bytes of the range.
        size: F::Count,
    },
    /// `write_gds OFFSET V [V ..]` (R-FX-4).
    WriteGds {
        /// Byte offset in GDS of the first value.
        offset: F::Count,
        /// The words written (at least one).
        values: Vec<F::Count>,
    },
    /// `read_gds OFFSET COUNT BUF BUF_OFFSET` (R-FX-4).
    ReadGds {
        /// Byte offset in GDS of the first word.
        offset: F::Count,
        /// Words copied.
        count: F::Count,
        /// BUF, the buffer written.
        destination: F::Object,
        /// Byte offset in BUF.
        destination_offset: F::Count,
    },
    /// `load_constant_ram BUF BUF_OFFSET RAM_OFFSET BYTES` (R-FX-5).
    LoadConstantRam {
        /// BUF, the buffer read.
        buffer: F::Object,
        /// Byte offset in BUF.
        buffer_offset: F::Count,
        /// Byte offset in constant RAM.
        ram_offset: F::Count,
        /// Bytes moved.
        bytes: F::Count,
    },
    /// `store_constant_ram BUF BUF_OFFSET RAM_OFFSET BYTES` (R-FX-5).
    StoreConstantRam {
        /// BUF, the buffer written.
        buffer: F::Object,
        /// Byte offset in BUF.
        buffer_offset: F::Count,
        /// Byte offset in constant RAM.
        ram_offset: F::Count,
        /// Bytes moved.
        bytes: F::Count,
    },
    /// `draw_bundle BUNDLE` (R-B-10).
    DrawBundle {
        /// The bundle called.
        bundle: F::Object,
    },
    /// `remap_constant_buffer_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
    RemapConstantBufferInheritance(Remap<F>),
    /// `remap_shader_resource_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
    RemapShaderResourceInheritance(Remap<F>),
    /// `remap_sampler_inheritance STAGE SLOT INHERIT_STAGE INHERIT_SLOT` (R-B-9).
    RemapSamplerInheritance(Remap<F>),
    /// `remap_vertex_buffer_inheritance ia SLOT ia INHERIT_SLOT`.
    RemapVertexBufferInheritance {
        /// The vertex-buffer slot the bundle's draws read.
        slot: F::Count,
        /// The caller's vertex-buffer slot it reads instead.
        inherit_slot: F::Count,
    },
    /// `finish LIST` on a deferred context: declares the command list.
    FinishCommandList {
        /// The name the new command list takes.
        list: F::Object,
        /// `restore=yes|no` (R-REC-6); default no.
        restore: F::Defaulted<bool>,
    },
    /// `finish` on a bundle recorder: the bundle takes the recorder's name.
    FinishBundle,
    /// `execute LIST [restore=..]`, on `imm` or nested on a deferred context (R-REC-9).
    Execute {
        /// The list executed.
        list: F::Object,
        /// `restore=yes|no` (R-ST-2); default no.
        restore: F::Defaulted<bool>,
    },
    /// `begin_command_list_execution` (R-ST-3).
    BeginCommandListExecution,
    /// `end_command_list_execution` (R-ST-3).
    EndCommandListExecution,
    /// `present SWAPCHAIN` (R-EX-7).
    Present {
        /// The swap chain presented.
        swapchain: F::Object,
    },
    /// `resume`: the immediate context resumes after a suspend (R-ST-4).
    Resume,
    /// `barrier BARRIER [| BARRIER ..]` (R-BAR-1): one call, its barriers in the order written
    /// (never empty); consecutive barriers of one type form one group.
    Barrier(Vec<Barrier<F>>),
    /// `resource_barrier transition|uav|aliasing ..` (R-BAR-6): one legacy barrier.
    ResourceBarrier(LegacyBarrier<F>),
}

/// What a `set_fast_resources` ENTRY binds (R-FX-1): the field name of the draw records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastKind {
    /// `STAGE.cb.SLOT`.
    ConstantBuffer,
    /// `STAGE.srv.SLOT`.
    ShaderResource,
    /// `STAGE.sampler.SLOT`.
    Sampler,
    /// `vb.SLOT`.
    VertexBuffer,
}

impl FastKind {
    /// The word between the stage and the slot (`cb`, `srv`, `sampler`), or `vb`.
    pub fn word(self) -> &'static str {
        match self {
            Self::ConstantBuffer => "cb",
            Self::ShaderResource => "srv",
            Self::Sampler => "sampler",
            Self::VertexBuffer => "vb",
        }
    }
}

/// One ENTRY of `set_fast_resources` (R-FX-1): `STAGE.KIND.SLOT=OBJ|null` or `vb.SLOT=BUF|null`.
#[derive(Clone, Debug, PartialEq)]
pub struct FastEntry<F: Form = Written> {
    /// What the entry binds.
    pub kind: FastKind,
    /// The stage (`None` for a vertex buffer).
    pub stage: Option<F::Stage>,
    /// The slot.
    pub slot: F::Count,
    /// The object, or `null`.
    pub object: Option<F::Object>,
}

/// `STAGE SLOT INHERIT_STAGE INHERIT_SLOT` of the remap calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remap<F: Form = Written> {
    /// The stage of the slot the bundle's draws read.
    pub stage: F::Stage,
    /// The slot the bundle's draws read.
    pub slot: F::Count,
    /// The stage of the caller's slot it reads instead.
    pub inherit_stage: F::Stage,
    /// The caller's slot it reads instead.
    pub inherit_slot: F::Count,
}

/// Whom `expect error` and `expect accepted` ask about: `imm`, a deferred context or bundle
/// recorder, or any other declared object (a declaration the engine rejected is reported under the
/// declared name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject<O = Name> {
    /// `imm`.
    Immediate,
    /// Any other declared object.
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
    Accepted {
        /// Whom the acceptance is expected of.
        subject: Subject<F::Object>,
    },
    /// `expect error CTX KIND`.
    Error {
        /// Whom the error is expected of.
        subject: Subject<F::Object>,
        /// The error kind expected.
        kind: F::ErrorKind,
    },
    /// `expect split_points LIST [total=N] [CATEGORY=N ..]`: only the keys named are checked;
    /// the categories in the order written, each at most once.
    SplitPoints {
        /// The command list.
        list: F::Object,
        /// `total=`: the number of split points; `None`: not checked.
        total: Option<u64>,
        /// `CATEGORY=N`: the split points of each category named.
        categories: Vec<(F::SplitCategory, u64)>,
    },
    /// `expect counters KEY=N ..`: at least one key, each at most once, in the order written.
    Counters(Vec<(F::CounterKey, u64)>),
    /// `expect draw INDEX FIELD VALUE`.
    Draw {
        /// The 0-based index of the draw record, counting draws and dispatches so far.
        index: u64,
        /// The field checked.
        field: DrawField,
        /// The value expected.
        value: ExpectedValue,
    },
    /// `expect resource RES [layout=L] [compressed=yes|no] [depth=..] [stencil=..]`: its state
    /// now, as the GPU model reports it; only the keys written are checked.
    Resource {
        /// The resource.
        resource: F::Object,
        /// `layout=L|mixed`.
        layout: Option<ExpectedLayout<F::Layout>>,
        /// `compressed=yes|no`: whether any plane is compressed.
        compressed: Option<bool>,
        /// `depth=compressed|decompressed`: the depth plane's compression.
        depth: Option<F::Compression>,
        /// `stencil=compressed|decompressed`: the stencil plane's compression.
        stencil: Option<F::Compression>,
    },
    /// `expect gds OFFSET V [V ..]`: the GDS words from byte OFFSET, as the GPU model holds
    /// them now (R-FX-4).
    Gds {
        /// Byte offset in GDS (a multiple of 4).
        offset: F::Count,
        /// The words expected (at least one).
        values: Vec<F::Count>,
    },
    /// `expect constant_ram OFFSET V [V ..]`: constant-RAM words from byte OFFSET (R-FX-5).
    ConstantRam {
        /// Byte offset in constant RAM (a multiple of 4).
        offset: F::Count,
        /// The words expected (at least one).
        values: Vec<F::Count>,
    },
    /// `expect memory BUF OFFSET V [V ..]`: words of BUF from byte OFFSET as the GPU model holds
    /// them (what `read_gds`, `store_constant_ram`, ... wrote; R-FX-4, R-FX-5).
    Memory {
        /// The buffer.
        buffer: F::Object,
        /// Byte offset in BUF (a multiple of 4).
        offset: F::Count,
        /// The words expected (at least one).
        values: Vec<F::Count>,
    },
    /// `expect query QUERY KEY=N [KEY=N ..]` or `expect query QUERY not_ready` (R-FX-3): what
    /// the immediate context's `get_data` returns at this line.
    Query {
        /// The query.
        query: F::Object,
        /// What `get_data` is expected to return.
        expected: ExpectedQuery,
    },
    /// `expect pending RES yes|no` (R-FX-6): `ImmediateContext::is_resource_pending` now.
    Pending {
        /// The resource.
        resource: F::Object,
        /// Whether legacy work using it is expected pending.
        pending: bool,
    },
    /// `expect bundle_footprint BUNDLE BYTES`.
    BundleFootprint {
        /// The bundle.
        bundle: F::Object,
        /// Its constant-engine footprint expected, in bytes (R-B-11).
        bytes: u64,
    },
}

/// What `expect query` expects of `get_data` (R-FX-3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpectedQuery {
    /// `not_ready`: legacy semantics, the query's end has not run yet.
    NotReady,
    /// `KEY=N ..`: data, these keys with these values, in the order written, each at most
    /// once.
    Data(Vec<(super::words::QueryKey, u64)>),
}
