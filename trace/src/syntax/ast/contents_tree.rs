//! What a real GPU needs of a declared object (SPEC R-GPU-2, R-GPU-5), as a trace writes it:
//! shader code, input-layout elements, the D3D11 fields of the four state objects, and the
//! initial bytes of a buffer or texture (docs/TRACE.md "Declarations", "GPU contents").
//!
//! **In:** nothing; plain data. **Out:** the options of `shader`, `input_layout`,
//! `blend_state`, `depth_stencil_state`, `rasterizer_state`, `sampler_state`, `buffer` and
//! `texture` that carry contents, each `None` (or all fields `None`) where the trace wrote none:
//! the object then has no contents, as before R-GPU-2.
//!
//! **Invariant.** A state's fields hold only what was written (`None`: D3D11's default), so
//! the printer writes them back as they were; a state with at least one field written has
//! contents, the others taking D3D11's defaults. Files are named here, never read: the replay
//! reads them where it lowers the declaration, relative to the trace's folder.

use crate::syntax::name::Format;
use crate::syntax::words::{
    AddressMode, BlendFactor, BlendOp, Comparison, CullMode, Filter, StencilOp,
};

/// Where a shader's code is (`wgsl=`, `wgsl_hex=`, `spirv=`, `spirv_hex=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShaderSource {
    /// `wgsl=FILE`: WGSL source in a file, relative to the trace's folder.
    WgslFile(String),
    /// `wgsl_hex=HEX`: WGSL source inline, its UTF-8 bytes as HEX.
    Wgsl(String),
    /// `spirv=FILE`: a SPIR-V binary (little-endian words), relative to the trace's folder.
    SpirvFile(String),
    /// `spirv_hex=HEX`: SPIR-V words inline, each as its four little-endian bytes.
    SpirV(Vec<u32>),
}

/// A shader's code and its entry point (`entry=NAME`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderCode {
    /// Where the code is.
    pub source: ShaderSource,
    /// `entry=`, the entry point's name.
    pub entry: String,
}

/// One element of `input_layout ... elements=`: `SEMANTIC[INDEX]:FORMAT:SLOT:OFFSET[:instance]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputElementSpec {
    /// The semantic's name (`POSITION`): a letter or `_`, then letters, digits and `_`, not
    /// ending in a digit (the digits after it are the index).
    pub semantic: String,
    /// The semantic index (`TEXCOORD1`: 1; not written: 0).
    pub semantic_index: u64,
    /// The element's format.
    pub format: Format,
    /// The vertex-buffer slot it reads.
    pub input_slot: u64,
    /// Its byte offset in a vertex.
    pub byte_offset: u64,
    /// `:instance`: read per instance.
    pub per_instance: bool,
}

/// `data=` of a `buffer` or `texture`: its initial bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InitialData {
    /// `data=HEX` (`data=none`: zero bytes, the object still has initial data: zeros).
    Bytes(Vec<u8>),
    /// `data=@FILE`: the bytes of a file, relative to the trace's folder.
    File(String),
}

/// One render target's blend in `blend=`: `[off,]SRC,DEST,OP[,SRC_A,DEST_A,OP_A][:MASK]`, or
/// `off[:MASK]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendTargetSpec {
    /// Blending is on (no `off`).
    pub enable: bool,
    /// Source colour factor.
    pub src: BlendFactor,
    /// Destination colour factor.
    pub dest: BlendFactor,
    /// Colour operation.
    pub op: BlendOp,
    /// Source alpha factor (the colour's when three factors are written).
    pub src_alpha: BlendFactor,
    /// Destination alpha factor.
    pub dest_alpha: BlendFactor,
    /// Alpha operation.
    pub op_alpha: BlendOp,
    /// `:MASK`, channels written, bit 0 red .. bit 3 alpha (`rgba` when not written).
    pub write_mask: u8,
}

impl Default for BlendTargetSpec {
    /// D3D11's: off, `one,zero,add` for colour and alpha, every channel written.
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

/// `blend_state`'s fields (`D3D11_BLEND_DESC`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlendFields {
    /// `alpha_to_coverage=yes|no`.
    pub alpha_to_coverage: Option<bool>,
    /// `independent=yes|no`: each target blends as its own entry.
    pub independent: Option<bool>,
    /// `blend=T0/T1/..`: the first targets' blends, at most eight (the rest D3D11's).
    pub targets: Option<Vec<BlendTargetSpec>>,
}

/// One face's stencil operations: `FAIL,DEPTH_FAIL,PASS,FUNC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilFaceSpec {
    /// When the stencil test fails.
    pub fail: StencilOp,
    /// When it passes and the depth test fails.
    pub depth_fail: StencilOp,
    /// When both pass.
    pub pass: StencilOp,
    /// The stencil test.
    pub func: Comparison,
}

/// `depth_stencil_state`'s fields (`D3D11_DEPTH_STENCIL_DESC`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepthStencilFields {
    /// `depth=yes|no`: the depth test.
    pub depth: Option<bool>,
    /// `depth_write=yes|no`.
    pub depth_write: Option<bool>,
    /// `depth_func=CMP`.
    pub depth_func: Option<Comparison>,
    /// `stencil=yes|no`: the stencil test.
    pub stencil: Option<bool>,
    /// `stencil_read_mask=N` (a byte).
    pub stencil_read_mask: Option<u64>,
    /// `stencil_write_mask=N` (a byte).
    pub stencil_write_mask: Option<u64>,
    /// `front=FAIL,DEPTH_FAIL,PASS,FUNC`.
    pub front: Option<StencilFaceSpec>,
    /// `back=FAIL,DEPTH_FAIL,PASS,FUNC`.
    pub back: Option<StencilFaceSpec>,
}

/// `rasterizer_state`'s fields (`D3D11_RASTERIZER_DESC`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RasterizerFields {
    /// `wireframe=yes|no`.
    pub wireframe: Option<bool>,
    /// `cull=none|front|back`.
    pub cull: Option<CullMode>,
    /// `front_ccw=yes|no`: counter-clockwise triangles face front.
    pub front_ccw: Option<bool>,
    /// `depth_bias=N` (signed).
    pub depth_bias: Option<i64>,
    /// `depth_bias_clamp=F`.
    pub depth_bias_clamp: Option<f32>,
    /// `slope_scaled_depth_bias=F`.
    pub slope_scaled_depth_bias: Option<f32>,
    /// `depth_clip=yes|no`.
    pub depth_clip: Option<bool>,
    /// `scissor=yes|no`.
    pub scissor: Option<bool>,
}

/// `sampler_state`'s fields (`D3D11_SAMPLER_DESC`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SamplerFields {
    /// `filter=linear|point`.
    pub filter: Option<Filter>,
    /// `address=U,V,W` (one word: all three).
    pub address: Option<[AddressMode; 3]>,
    /// `mip_lod_bias=F`.
    pub mip_lod_bias: Option<f32>,
    /// `min_lod=F`.
    pub min_lod: Option<f32>,
    /// `max_lod=F`.
    pub max_lod: Option<f32>,
    /// `border=R,G,B,A`.
    pub border: Option<[f32; 4]>,
}

impl BlendFields {
    /// Whether any field is written (the state has contents).
    pub fn any(&self) -> bool {
        *self != Self::default()
    }
}

impl DepthStencilFields {
    /// Whether any field is written (the state has contents).
    pub fn any(&self) -> bool {
        *self != Self::default()
    }
}

impl RasterizerFields {
    /// Whether any field is written (the state has contents).
    pub fn any(&self) -> bool {
        *self != Self::default()
    }
}

impl SamplerFields {
    /// Whether any field is written (the state has contents).
    pub fn any(&self) -> bool {
        *self != Self::default()
    }
}
