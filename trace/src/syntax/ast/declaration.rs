//! The declarations of a trace (docs/TRACE.md "Declarations"): `device`, the objects, the
//! contexts and recorders, `heap`, and `release`.
//!
//! **In:** nothing; these are plain data. **Out:** [`Declaration`], one per declaring line, and
//! the name each declares with its kind (`Declaration::declares`, what the symbol table keeps).
//!
//! **Invariant.** An option the trace did not write is `None` (the engine's default applies);
//! a placed resource's `heap=` and `offset=` come together, as one [`Placement`].

use crate::syntax::name::{Format, Name};
use crate::syntax::symbols::ObjKind;
use crate::syntax::words::{BindFlags, QueryKind, Semantics, Stage, UavFlag, Usage, Validation};

use super::contents_tree::{
    BlendFields, DepthStencilFields, InitialData, InputElementSpec, RasterizerFields,
    SamplerFields, ShaderCode,
};
use super::forms::SlotSet;

/// `heap=HEAP offset=BYTES` of a placed `buffer` or `texture` (R-BAR-7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// `heap=`, a declared heap.
    pub heap: Name,
    /// `offset=`, in bytes.
    pub offset: u64,
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
    /// `buffer NAME usage=.. bind=.. size=.. [uav_flag=..] [heap=.. offset=..] [data=..]`.
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
        /// `data=HEX|@FILE`, its initial bytes (R-GPU-2); `None`: not written (none).
        data: Option<InitialData>,
    },
    /// `texture NAME format=.. width=.. height=.. [mips=..] [array=..] [samples=..] bind=..
    /// [compressible=..] [tc=..] [dcc=..] [heap=.. offset=..] [data=..]`.
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
        /// `data=HEX|@FILE`, the initial bytes of its first subresource, rows packed
        /// (R-GPU-2); `None`: not written (none).
        data: Option<InitialData>,
    },
    /// `srv NAME RESOURCE [min_lod=F] [composed=yes|no]`.
    ShaderResourceView {
        /// The declared name.
        name: Name,
        /// The resource viewed.
        resource: Name,
        /// `min_lod=`, the view's initial minimum LOD (R-ST-6); `None`: not written (the
        /// resource's; for a composed descriptor, the default MinLevelOfDetail).
        min_lod: Option<f32>,
        /// `composed=`: a descriptor made by `compose_shader_resource_view` (seed 000), whose
        /// binds read its own minimum LOD on every context (or the resource's, when `min_lod=`
        /// is not written); `None`: not written (a view object).
        composed: Option<bool>,
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
    /// `shader NAME stage=.. [cb=..] [srv=..] [sampler=..] [uav=..] [stream_output=yes]
    /// [wgsl=FILE|wgsl_hex=HEX|spirv=FILE|spirv_hex=HEX entry=NAME]`.
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
        /// The code and its entry point (R-GPU-2); `None`: not written (no code).
        code: Option<ShaderCode>,
    },
    /// `input_layout NAME [vb=..] [elements=..]`.
    InputLayout {
        /// The declared name.
        name: Name,
        /// `vb=`, the vertex-buffer slots read; `None`: not written (none).
        vertex_buffers: Option<SlotSet>,
        /// `elements=E,..|none` (R-GPU-2); `None`: not written (no elements).
        elements: Option<Vec<InputElementSpec>>,
    },
    /// `blend_state NAME [FIELD=..]..`.
    BlendState {
        /// The declared name.
        name: Name,
        /// Its D3D11 fields (R-GPU-2); none written: no contents.
        fields: BlendFields,
    },
    /// `rasterizer_state NAME [FIELD=..]..`.
    RasterizerState {
        /// The declared name.
        name: Name,
        /// Its D3D11 fields (R-GPU-2); none written: no contents.
        fields: RasterizerFields,
    },
    /// `depth_stencil_state NAME [FIELD=..]..`.
    DepthStencilState {
        /// The declared name.
        name: Name,
        /// Its D3D11 fields (R-GPU-2); none written: no contents.
        fields: DepthStencilFields,
    },
    /// `sampler_state NAME [FIELD=..]..`.
    SamplerState {
        /// The declared name.
        name: Name,
        /// Its D3D11 fields (R-GPU-2); none written: no contents.
        fields: SamplerFields,
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
            Self::BlendState { name, .. } => (name, ObjKind::BlendState),
            Self::RasterizerState { name, .. } => (name, ObjKind::RasterizerState),
            Self::DepthStencilState { name, .. } => (name, ObjKind::DepthStencilState),
            Self::SamplerState { name, .. } => (name, ObjKind::SamplerState),
            Self::Predicate { name } => (name, ObjKind::Predicate),
            Self::Query { name, .. } => (name, ObjKind::Predicate),
            Self::Swapchain { name, .. } => (name, ObjKind::SwapChain),
            Self::Context { name, .. } => (name, ObjKind::Context),
            Self::Bundle { name, .. } => (name, ObjKind::BundleRecorder),
            Self::Heap { name, .. } => (name, ObjKind::Heap),
        })
    }
}
