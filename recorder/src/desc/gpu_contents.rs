//! What a real GPU needs of an object besides what the model needs (R-GPU-2): shader code,
//! input-layout elements, the D3D11 fields of the blend, depth-stencil, rasterizer and sampler
//! states, and initial bytes. Each is optional: an object created without its contents stays
//! valid for the model, and a backend refuses a draw that uses it, naming what it lacks.
//!
//! **In:** what the application gives the `Device::create_*_with` calls. **Out:** the owned
//! [`GpuContents`] the device keeps by object (`Device::gpu_contents`), read by a backend when
//! it first meets the object, never on the recording path.
//!
//! **Invariant.** The defaults are D3D11's (`D3D11_*_DESC` defaults: `CD3D11_*_DESC(D3D11_DEFAULT)`),
//! so `Default::default()` is what a D3D11 programmer expects of a state made with no fields.

use std::sync::Arc;

use super::*;

/// Shader code (R-GPU-2): WGSL source or SPIR-V words, with the entry point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShaderCode<'a> {
    /// WGSL source text and the name of its entry point.
    Wgsl {
        /// The source.
        source: &'a str,
        /// The entry point's function name.
        entry: &'a str,
    },
    /// SPIR-V words and the name of the entry point.
    SpirV {
        /// The module's words.
        words: &'a [u32],
        /// The entry point's name.
        entry: &'a str,
    },
}

/// [`ShaderCode`], owned: what the device keeps.
#[derive(Clone, Debug, PartialEq)]
pub enum OwnedShaderCode {
    /// WGSL source and entry point.
    Wgsl {
        /// The source.
        source: String,
        /// The entry point's function name.
        entry: String,
    },
    /// SPIR-V words and entry point.
    SpirV {
        /// The module's words.
        words: Vec<u32>,
        /// The entry point's name.
        entry: String,
    },
}

impl ShaderCode<'_> {
    /// An owned copy.
    pub fn to_owned_code(&self) -> OwnedShaderCode {
        match *self {
            Self::Wgsl { source, entry } => OwnedShaderCode::Wgsl {
                source: source.to_string(),
                entry: entry.to_string(),
            },
            Self::SpirV { words, entry } => OwnedShaderCode::SpirV {
                words: words.to_vec(),
                entry: entry.to_string(),
            },
        }
    }
}

impl OwnedShaderCode {
    /// The entry point's name.
    pub fn entry(&self) -> &str {
        match self {
            Self::Wgsl { entry, .. } | Self::SpirV { entry, .. } => entry,
        }
    }
}

/// One element of an input layout (`D3D11_INPUT_ELEMENT_DESC`): where a vertex shader input
/// comes from. The shader's input `location` is the element's index in the layout.
#[derive(Clone, Debug, PartialEq)]
pub struct InputElement {
    /// The semantic name (`POSITION`, `TEXCOORD`, ...): for messages and traces.
    pub semantic: String,
    /// The semantic index.
    pub semantic_index: u32,
    /// The element's format.
    pub format: Format,
    /// The vertex-buffer slot it is read from.
    pub input_slot: u32,
    /// Its byte offset in a vertex.
    pub byte_offset: u32,
    /// Read per instance (`D3D11_INPUT_PER_INSTANCE_DATA`) rather than per vertex.
    pub per_instance: bool,
}

/// A blend factor (`D3D11_BLEND`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum BlendFactor {
    /// `D3D11_BLEND_ZERO`.
    #[default]
    Zero,
    /// `D3D11_BLEND_ONE`.
    One,
    /// `D3D11_BLEND_SRC_COLOR`.
    SrcColor,
    /// `D3D11_BLEND_INV_SRC_COLOR`.
    InvSrcColor,
    /// `D3D11_BLEND_SRC_ALPHA`.
    SrcAlpha,
    /// `D3D11_BLEND_INV_SRC_ALPHA`.
    InvSrcAlpha,
    /// `D3D11_BLEND_DEST_ALPHA`.
    DestAlpha,
    /// `D3D11_BLEND_INV_DEST_ALPHA`.
    InvDestAlpha,
    /// `D3D11_BLEND_DEST_COLOR`.
    DestColor,
    /// `D3D11_BLEND_INV_DEST_COLOR`.
    InvDestColor,
    /// `D3D11_BLEND_SRC_ALPHA_SAT`.
    SrcAlphaSat,
    /// `D3D11_BLEND_BLEND_FACTOR`.
    Factor,
    /// `D3D11_BLEND_INV_BLEND_FACTOR`.
    InvFactor,
}

word_table! {
    BlendFactor {
        Zero => "zero",
        One => "one",
        SrcColor => "src_color",
        InvSrcColor => "inv_src_color",
        SrcAlpha => "src_alpha",
        InvSrcAlpha => "inv_src_alpha",
        DestAlpha => "dest_alpha",
        InvDestAlpha => "inv_dest_alpha",
        DestColor => "dest_color",
        InvDestColor => "inv_dest_color",
        SrcAlphaSat => "src_alpha_sat",
        Factor => "blend_factor",
        InvFactor => "inv_blend_factor",
    }
}

/// A blend operation (`D3D11_BLEND_OP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum BlendOp {
    /// `D3D11_BLEND_OP_ADD`.
    #[default]
    Add,
    /// `D3D11_BLEND_OP_SUBTRACT`.
    Subtract,
    /// `D3D11_BLEND_OP_REV_SUBTRACT`.
    RevSubtract,
    /// `D3D11_BLEND_OP_MIN`.
    Min,
    /// `D3D11_BLEND_OP_MAX`.
    Max,
}

word_table! {
    BlendOp {
        Add => "add",
        Subtract => "subtract",
        RevSubtract => "rev_subtract",
        Min => "min",
        Max => "max",
    }
}

/// The blend of one render target (`D3D11_RENDER_TARGET_BLEND_DESC`); the default blends
/// nothing and writes every channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TargetBlend {
    /// Blending is on.
    pub enable: bool,
    /// Source colour factor.
    pub src: BlendFactor,
    /// Destination colour factor.
    pub dest: BlendFactor,
    /// Colour operation.
    pub op: BlendOp,
    /// Source alpha factor.
    pub src_alpha: BlendFactor,
    /// Destination alpha factor.
    pub dest_alpha: BlendFactor,
    /// Alpha operation.
    pub op_alpha: BlendOp,
    /// Channels written: bit 0 red, 1 green, 2 blue, 3 alpha.
    pub write_mask: u8,
}

impl Default for TargetBlend {
    fn default() -> Self {
        Self {
            enable: false,
            src: BlendFactor::One,
            dest: BlendFactor::Zero,
            op: BlendOp::Add,
            src_alpha: BlendFactor::One,
            dest_alpha: BlendFactor::Zero,
            op_alpha: BlendOp::Add,
            write_mask: 0xf,
        }
    }
}

/// A blend state's fields (`D3D11_BLEND_DESC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BlendDesc {
    /// Alpha to coverage.
    pub alpha_to_coverage: bool,
    /// Each target blends as its own entry; otherwise every target as `targets[0]`.
    pub independent_blend: bool,
    /// The eight targets' blends.
    pub targets: [TargetBlend; 8],
}

/// A comparison (`D3D11_COMPARISON_FUNC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Comparison {
    /// Never passes.
    Never,
    /// `<`.
    #[default]
    Less,
    /// `==`.
    Equal,
    /// `<=`.
    LessEqual,
    /// `>`.
    Greater,
    /// `!=`.
    NotEqual,
    /// `>=`.
    GreaterEqual,
    /// Always passes.
    Always,
}

word_table! {
    Comparison {
        Never => "never",
        Less => "less",
        Equal => "equal",
        LessEqual => "less_equal",
        Greater => "greater",
        NotEqual => "not_equal",
        GreaterEqual => "greater_equal",
        Always => "always",
    }
}

/// A stencil operation (`D3D11_STENCIL_OP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum StencilOp {
    /// Keep.
    #[default]
    Keep,
    /// Zero.
    Zero,
    /// Replace with the reference.
    Replace,
    /// Increment, clamped.
    IncrSat,
    /// Decrement, clamped.
    DecrSat,
    /// Invert.
    Invert,
    /// Increment, wrapping.
    Incr,
    /// Decrement, wrapping.
    Decr,
}

word_table! {
    StencilOp {
        Keep => "keep",
        Zero => "zero",
        Replace => "replace",
        IncrSat => "incr_sat",
        DecrSat => "decr_sat",
        Invert => "invert",
        Incr => "incr",
        Decr => "decr",
    }
}

/// One face's stencil operations (`D3D11_DEPTH_STENCILOP_DESC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StencilFace {
    /// When the stencil test fails.
    pub fail: StencilOp,
    /// When the stencil test passes and the depth test fails.
    pub depth_fail: StencilOp,
    /// When both pass.
    pub pass: StencilOp,
    /// The stencil test.
    pub func: Comparison,
}

impl Default for StencilFace {
    fn default() -> Self {
        Self {
            fail: StencilOp::Keep,
            depth_fail: StencilOp::Keep,
            pass: StencilOp::Keep,
            func: Comparison::Always,
        }
    }
}

/// A depth-stencil state's fields (`D3D11_DEPTH_STENCIL_DESC`): by default depth tested
/// `less` and written, no stencil.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthStencilDesc {
    /// The depth test is on.
    pub depth_enable: bool,
    /// Depth is written (`D3D11_DEPTH_WRITE_MASK_ALL`).
    pub depth_write: bool,
    /// The depth test.
    pub depth_func: Comparison,
    /// The stencil test is on.
    pub stencil_enable: bool,
    /// Stencil read mask.
    pub stencil_read_mask: u8,
    /// Stencil write mask.
    pub stencil_write_mask: u8,
    /// Front faces' stencil.
    pub front: StencilFace,
    /// Back faces' stencil.
    pub back: StencilFace,
}

impl Default for DepthStencilDesc {
    fn default() -> Self {
        Self {
            depth_enable: true,
            depth_write: true,
            depth_func: Comparison::Less,
            stencil_enable: false,
            stencil_read_mask: 0xff,
            stencil_write_mask: 0xff,
            front: StencilFace::default(),
            back: StencilFace::default(),
        }
    }
}

/// Which faces are culled (`D3D11_CULL_MODE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum CullMode {
    /// None.
    None,
    /// Front faces.
    Front,
    /// Back faces.
    #[default]
    Back,
}

word_table! {
    CullMode {
        None => "none",
        Front => "front",
        Back => "back",
    }
}

/// A rasterizer state's fields (`D3D11_RASTERIZER_DESC`): by default solid, back faces culled,
/// clockwise front faces, depth clip on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RasterizerDesc {
    /// Wireframe rather than solid fill.
    pub wireframe: bool,
    /// The faces culled.
    pub cull: CullMode,
    /// Counter-clockwise triangles face front.
    pub front_counter_clockwise: bool,
    /// Constant depth bias.
    pub depth_bias: i32,
    /// The bias's clamp.
    pub depth_bias_clamp: f32,
    /// Slope-scaled depth bias.
    pub slope_scaled_depth_bias: f32,
    /// Depth clipping is on.
    pub depth_clip: bool,
    /// The scissor test is on.
    pub scissor: bool,
}

impl Default for RasterizerDesc {
    fn default() -> Self {
        Self {
            wireframe: false,
            cull: CullMode::Back,
            front_counter_clockwise: false,
            depth_bias: 0,
            depth_bias_clamp: 0.0,
            slope_scaled_depth_bias: 0.0,
            depth_clip: true,
            scissor: false,
        }
    }
}

/// How texture coordinates outside `[0, 1]` are read (`D3D11_TEXTURE_ADDRESS_MODE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum AddressMode {
    /// Repeat.
    Wrap,
    /// Mirrored repeat.
    Mirror,
    /// Clamp to the edge.
    #[default]
    Clamp,
    /// The border colour.
    Border,
}

word_table! {
    AddressMode {
        Wrap => "wrap",
        Mirror => "mirror",
        Clamp => "clamp",
        Border => "border",
    }
}

/// A sampler state's fields (`D3D11_SAMPLER_DESC`): by default linear filtering, clamped
/// coordinates, every LOD.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerDesc {
    /// Linear (rather than point) minification, magnification and mip filtering.
    pub linear: bool,
    /// Address modes in u, v, w.
    pub address: [AddressMode; 3],
    /// LOD bias.
    pub mip_lod_bias: f32,
    /// The lowest LOD read.
    pub min_lod: f32,
    /// The highest LOD read.
    pub max_lod: f32,
    /// The border colour.
    pub border_color: [f32; 4],
}

impl Default for SamplerDesc {
    fn default() -> Self {
        Self {
            linear: true,
            address: [AddressMode::Clamp; 3],
            mip_lod_bias: 0.0,
            min_lod: f32::MIN,
            max_lod: f32::MAX,
            border_color: [1.0; 4],
        }
    }
}

/// What the device keeps of an object for a backend (R-GPU-2), by object.
#[derive(Clone, Debug, PartialEq)]
pub enum GpuContents {
    /// A shader's code.
    Shader(OwnedShaderCode),
    /// An input layout's elements.
    InputLayout(Vec<InputElement>),
    /// A blend state's fields.
    Blend(BlendDesc),
    /// A depth-stencil state's fields.
    DepthStencil(DepthStencilDesc),
    /// A rasterizer state's fields.
    Rasterizer(RasterizerDesc),
    /// A sampler state's fields.
    Sampler(SamplerDesc),
    /// A buffer's or texture's initial bytes (a texture's: its first subresource, rows packed).
    InitialData(Arc<[u8]>),
}

/// A check of shader code against its declared slots (R-GPU-2), installed on a device by a
/// backend that can reflect code (`Device::set_shader_check`): `Err` says what differs, naming
/// the slots the code reads and the ones declared.
pub trait ShaderCheck: Send + Sync + fmt::Debug {
    /// Checks `code` against `desc`'s stage and slot sets.
    fn check(&self, desc: &ShaderDesc<'_>, code: &ShaderCode<'_>) -> Result<(), String>;
}

/// The kinds of slot a shader reads, for [`shader_binding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlotKind {
    /// Constant-buffer slots (0..14).
    ConstantBuffer,
    /// Shader-resource slots (0..128).
    ShaderResource,
    /// Sampler slots (0..16).
    Sampler,
    /// UAV slots (0..64 for compute, 0..8 for the graphics stages).
    UnorderedAccess,
}

/// The fixed mapping of a stage's D3D11 slots to shader bindings (R-GPU-3, as DXVK maps them):
/// everything in descriptor set (WGSL `@group`) 0, binding `stage × 256 + base + slot` with
/// the kind's base 0 (constant buffers), 16 (shader resources), 144 (samplers) or 160 (UAVs),
/// the stage numbered vs 0, hs 1, ds 2, gs 3, ps 4, cs 5. Shader code for a backend declares
/// the slots it reads at these bindings; the reflection check (`ShaderCheck`) reads them back.
///
/// ```
/// use recorder::{shader_binding, SlotKind, Stage};
///
/// assert_eq!(shader_binding(Stage::Vertex, SlotKind::ConstantBuffer, 1), 1);
/// assert_eq!(shader_binding(Stage::Pixel, SlotKind::ShaderResource, 8), 4 * 256 + 16 + 8);
/// assert_eq!(shader_binding(Stage::Pixel, SlotKind::Sampler, 0), 4 * 256 + 144);
/// ```
pub const fn shader_binding(stage: Stage, kind: SlotKind, slot: u32) -> u32 {
    let base = match kind {
        SlotKind::ConstantBuffer => 0,
        SlotKind::ShaderResource => 16,
        SlotKind::Sampler => 144,
        SlotKind::UnorderedAccess => 160,
    };
    stage as u32 * 256 + base + slot
}

/// The stage, kind and slot of `binding` ([`shader_binding`]'s inverse); `None` for a binding
/// no slot maps to.
pub const fn binding_slot(binding: u32) -> Option<(Stage, SlotKind, u32)> {
    let stage = match binding / 256 {
        0 => Stage::Vertex,
        1 => Stage::Hull,
        2 => Stage::Domain,
        3 => Stage::Geometry,
        4 => Stage::Pixel,
        5 => Stage::Compute,
        _ => return None,
    };
    let within = binding % 256;
    let (kind, slot) = match within {
        0..=15 => (SlotKind::ConstantBuffer, within),
        16..=143 => (SlotKind::ShaderResource, within - 16),
        144..=159 => (SlotKind::Sampler, within - 144),
        160..=223 => (SlotKind::UnorderedAccess, within - 160),
        _ => return None,
    };
    Some((stage, kind, slot))
}
