//! What a trace lowers to before it runs: every object it names numbered ([`ObjId`]), every
//! argument in the engine's own types, every step with its line.
//!
//! **In:** nothing; plain data, built by `lower/` from a parsed [`Trace`](crate::Trace).
//! **Out:** a [`Program`] that the replay (`command.rs` and its siblings) executes against the
//! real engine, on one thread or several, and against the reference of `--compare`.
//!
//! **One shape.** A call here is the syntax room's [`Method`] in the [`Lowered`] form: the same
//! enum the parser returns and the printer writes, its arguments held as the engine takes them.
//! The variants and fields are written once, in the call table (`syntax/call_table.rs`); this
//! file says only what each form's type is once lowered, and what the replay asks of a call
//! ([`Call::objects`], the table's; [`Call::remap`], ...).
//!
//! **Invariant.** A program needs no further checking: every format is one the engine knows,
//! every number fits the engine's argument, every object is declared before a step names it,
//! and no step names a context, command list or bundle the trace released before. Whether the
//! engine accepts a step is the run's business, not the program's.

use std::sync::Arc;

use recorder::{
    BindFlags, Engine, Format, MapType, PrimitiveTopology, Rect, Remap, RemapKind, Semantics,
    SplitCategory, Stage, UavFlag, Usage, Validation, Viewport,
};

use crate::syntax::ast::{CallContext, Expectation as AstExpectation, Form, Method};

/// An object of the trace, by its number: an index into [`Program::objects`].
pub(crate) type ObjId = usize;

pub(super) use crate::syntax::ObjKind;

/// One object of the trace.
#[derive(Clone, Debug)]
pub(crate) struct Object {
    /// The trace name (`cb`, `sc.0.rtv`).
    pub name: String,
    pub kind: ObjKind,
    /// The line that declared it.
    pub line: usize,
    /// A dynamic-usage buffer, or a view of one: records name its instances (`NAME#K`).
    pub dynamic: bool,
    /// A back buffer or its view: `(swap chain, index)`; created with the swap chain.
    pub back_buffer: Option<(ObjId, u32)>,
}

/// A parsed trace, lowered.
#[derive(Debug)]
pub(crate) struct Program {
    pub semantics: Semantics,
    pub validation: Validation,
    /// `device legacy_barriers=`: whether legacy `resource_barrier` calls run (R-BAR-6; on
    /// when not written).
    pub legacy_barriers: bool,
    pub objects: Vec<Object>,
    pub steps: Vec<Step>,
    /// The deferred contexts and bundle recorders, in declaration order (`--threads`
    /// assigns them to workers round robin in this order).
    pub recorders: Vec<ObjId>,
}

/// One statement.
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub line: usize,
    pub op: Op,
}

#[derive(Clone, Debug)]
pub(crate) enum Op {
    /// A declaration that makes an engine object, a context or a bundle recorder.
    Create {
        object: ObjId,
        create: Create,
    },
    Release(ObjId),
    Call {
        on: On,
        call: Call,
    },
    Expect(Expect),
}

/// How an object is made.
#[derive(Clone, Debug)]
pub(crate) enum Create {
    Buffer {
        size: u32,
        usage: Usage,
        bind: BindFlags,
        uav_flag: UavFlag,
        /// The heap and offset of a placed buffer (R-BAR-7).
        placement: Option<(ObjId, u64)>,
        /// `data=`: its initial bytes (R-GPU-2), read from the trace or its file.
        data: Option<Arc<[u8]>>,
    },
    Texture {
        format: Format,
        width: u32,
        height: u32,
        mips: u32,
        array: u32,
        samples: u32,
        bind: BindFlags,
        compressible: Option<bool>,
        texture_compatible: bool,
        /// `dcc=`: delta colour compression allowed (no when not written).
        dcc: bool,
        /// The heap and offset of a placed texture (R-BAR-7).
        placement: Option<(ObjId, u64)>,
        /// `data=`: its first subresource's initial bytes (R-GPU-2).
        data: Option<Arc<[u8]>>,
    },
    /// `heap NAME size=BYTES` (R-BAR-7).
    Heap {
        size: u64,
    },
    View {
        resource: ObjId,
        min_lod: Option<f32>,
        /// A shader-resource view composed as a descriptor (`composed=yes`, seed 000).
        composed: bool,
    },
    Shader {
        stage: Stage,
        constant_buffers: recorder::Slots,
        shader_resources: recorder::Slots,
        samplers: recorder::Slots,
        unordered_access_views: recorder::Slots,
        stream_output: bool,
        /// Its code (R-GPU-2), a file's read at lowering.
        code: Option<recorder::OwnedShaderCode>,
    },
    InputLayout {
        vertex_buffers: recorder::Slots,
        /// `elements=` (R-GPU-2).
        elements: Option<Vec<recorder::InputElement>>,
    },
    /// The D3D11 fields where the declaration wrote any (R-GPU-2), the rest D3D11's defaults.
    BlendState(Option<recorder::BlendDesc>),
    RasterizerState(Option<recorder::RasterizerDesc>),
    DepthStencilState(Option<recorder::DepthStencilDesc>),
    SamplerState(Option<recorder::SamplerDesc>),
    /// A query of this kind (`predicate NAME`, `query NAME KIND`, R-FX-3).
    Predicate(recorder::QueryKind),
    /// `back_buffers[K]` are the objects `NAME.K` and `NAME.K.rtv`.
    SwapChain {
        buffers: u32,
        format: Format,
        width: u32,
        height: u32,
        back_buffers: Vec<(ObjId, ObjId)>,
    },
    Context {
        semantics: Semantics,
        /// R-FX-6: `title_managed_lifetimes=yes`.
        title_managed_lifetimes: bool,
    },
    Bundle {
        render_targets: Vec<Format>,
        depth: Option<Format>,
        samples: u32,
    },
}

/// The form of a call once lowered: objects are [`ObjId`]s, every number fits the engine's
/// argument, every word is the engine's, every default is applied; a write_discard `map`
/// carries the instance K it makes. The call's shape is the syntax room's [`Method`], written
/// once; this says only what each kind of argument is here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lowered;

impl Form for Lowered {
    type Object = ObjId;
    type Count = u32;
    type Signed = i32;
    type Stencil = u8;
    type Topology = PrimitiveTopology;
    type Format = Format;
    type Stage = Stage;
    type Viewport = Viewport;
    type Rect = Rect;
    type MapType = MapType;
    /// `true`: compressed.
    type Compression = recorder::Compression;
    type Engine = Engine;
    type Defaulted<T: Clone + std::fmt::Debug + PartialEq> = T;
    /// For a write_discard map, the K of the instance it makes (docs/TRACE.md "Instances").
    type Instance = Option<u32>;
    /// The `write` statements after a map, up to its `unmap` (`writes.rs`).
    type MapWrites = MapWrites;
    type ErrorKind = recorder::ErrorKind;
    type SplitCategory = SplitCategory;
    /// As `Counters::get` takes them.
    type CounterKey = &'static str;
    type Sync = recorder::BarrierSync;
    type Access = recorder::BarrierAccess;
    type Layout = recorder::BarrierLayout;
    type States = recorder::ResourceStates;
    type Span = recorder::Span;
    type Split = recorder::SplitHalf;
    type List<T: Clone + std::fmt::Debug + PartialEq> = Vec<T>;
}

/// One `write` statement as the maps before it carry it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MapWrite {
    /// The index of the `write` step in the program.
    pub step: usize,
    /// OFFSET.
    pub offset: u32,
    /// HEX.
    pub bytes: Arc<[u8]>,
}

/// What a lowered `map` carries: the `write` statements after it on its context and resource,
/// up to the `unmap` there (shared by the maps of one such stretch: `writes.rs` attaches them
/// and copies them into the map's memory).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MapWrites {
    /// The index of the `map` step.
    map: usize,
    /// Every `write` of the stretch the map is in, in trace order.
    run: Arc<[MapWrite]>,
}

impl MapWrites {
    /// The map of step `map` in a stretch whose writes are `run`.
    pub(crate) fn new(map: usize, run: Arc<[MapWrite]>) -> Self {
        Self { map, run }
    }

    /// The same stretch, seen from the map of step `map`.
    #[cfg(test)]
    pub(crate) fn after(self, map: usize) -> Self {
        Self { map, ..self }
    }

    /// The writes after this map.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &MapWrite> {
        self.run.iter().filter(move |write| write.step > self.map)
    }
}

/// A call, its arguments in the engine's types (see [`Lowered`]). `None` is `null`.
pub(crate) type Call = Method<Lowered>;

/// Where a call is issued: `imm`, or the deferred context or bundle recorder by number.
pub(crate) type On = CallContext<ObjId>;

impl Method<Lowered> {
    /// Every object the call names, null slots left out (lists, bundles and swap chains
    /// included; fences, which are values, and the list a `finish` makes, not): the call
    /// table's, each argument's objects as its kind lists them.
    pub(crate) fn objects(&self, out: &mut Vec<ObjId>) {
        self.for_each_object(&mut |object| out.push(*object));
    }

    /// The remap a `remap_*_inheritance` call records, its kind from the method (the vertex
    /// buffers' stages are the input assembler's); `None` for any other call.
    pub(crate) fn remap(&self) -> Option<Remap> {
        let staged = |kind, remap: &crate::syntax::ast::Remap<Lowered>| Remap {
            kind,
            stage: remap.stage,
            slot: remap.slot,
            inherit_stage: remap.inherit_stage,
            inherit_slot: remap.inherit_slot,
        };
        Some(match self {
            Self::RemapConstantBufferInheritance(remap) => staged(RemapKind::ConstantBuffer, remap),
            Self::RemapShaderResourceInheritance(remap) => staged(RemapKind::ShaderResource, remap),
            Self::RemapSamplerInheritance(remap) => staged(RemapKind::Sampler, remap),
            Self::RemapVertexBufferInheritance { slot, inherit_slot } => Remap {
                kind: RemapKind::VertexBuffer,
                stage: Stage::Vertex,
                slot: *slot,
                inherit_stage: Stage::Vertex,
                inherit_slot: *inherit_slot,
            },
            _ => return None,
        })
    }

    /// Whether the call draws or dispatches: the GPU model makes one draw record of it.
    pub(crate) fn makes_record(&self) -> bool {
        matches!(
            self,
            Self::Draw { .. }
                | Self::DrawIndexed { .. }
                | Self::DrawInstanced { .. }
                | Self::DrawIndexedInstanced { .. }
                | Self::DrawAuto
                | Self::DrawInstancedIndirect { .. }
                | Self::DrawIndexedInstancedIndirect { .. }
                | Self::Dispatch { .. }
                | Self::DispatchIndirect { .. }
        )
    }

    /// Whether the call sets state a legacy context carries into its next list after a
    /// `finish restore=yes` (R-ST-1): the state setters, and `clear_state`.
    pub(crate) fn is_state(&self) -> bool {
        matches!(
            self,
            Self::SetInputLayout(_)
                | Self::SetPrimitiveTopology(_)
                | Self::SetVertexBuffers { .. }
                | Self::SetIndexBuffer { .. }
                | Self::SetPrimitiveResetIndex(_)
                | Self::SetShader { .. }
                | Self::SetConstantBuffers { .. }
                | Self::SetShaderResources { .. }
                | Self::SetSamplers { .. }
                | Self::SetFastResources(_)
                | Self::SetFastResourcesFromBatch { .. }
                | Self::SetFastShaderResource { .. }
                | Self::SetPlacementShaderResource { .. }
                | Self::SetPlacementConstantBuffer { .. }
                | Self::SetPlacementVertexBuffer { .. }
                | Self::IaSetPlacementIndexBuffer { .. }
                | Self::CsSetUnorderedAccessViews { .. }
                | Self::OmSetRenderTargets { .. }
                | Self::OmSetRenderTargetsAndUavs { .. }
                | Self::OmSetBlendState(_)
                | Self::OmSetDepthStencilState(_)
                | Self::RsSetState(_)
                | Self::RsSetViewports(_)
                | Self::RsSetScissorRects(_)
                | Self::SetPredication { .. }
                | Self::ClearState
        )
    }
}

/// Whom `expect error` asks about: `imm` or an object by number.
pub(crate) type Subject = crate::syntax::ast::Subject<ObjId>;

/// An expectation, with the statement as written (for messages).
#[derive(Clone, Debug)]
pub(crate) struct Expect {
    pub written: AstExpectation,
    pub check: Check,
}

/// An expectation lowered: the syntax room's [`Expectation`](AstExpectation) in the
/// [`Lowered`] form.
pub(crate) type Check = AstExpectation<Lowered>;
