//! What the application asks for: semantics, stages, formats, usages, bind flags and the `*Desc`
//! structures the device creates objects from (R-OBJ-2).

use std::fmt;

/// Legacy (D3D11 contract: the runtime tracks, shadows and patches) or fast (the application does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Semantics {
    #[default]
    Legacy,
    Fast,
}

impl Semantics {
    pub const fn name(self) -> &'static str {
        match self {
            Self::Legacy => "legacy",
            Self::Fast => "fast",
        }
    }
}

/// A shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Stage {
    Vertex = 0,
    Hull,
    Domain,
    Geometry,
    Pixel,
    Compute,
}

impl Stage {
    pub const ALL: [Stage; 6] = [
        Self::Vertex,
        Self::Hull,
        Self::Domain,
        Self::Geometry,
        Self::Pixel,
        Self::Compute,
    ];
    /// The five graphics stages.
    pub const GRAPHICS: [Stage; 5] = [
        Self::Vertex,
        Self::Hull,
        Self::Domain,
        Self::Geometry,
        Self::Pixel,
    ];

    /// The stage's short name in traces: `vs hs ds gs ps cs`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Vertex => "vs",
            Self::Hull => "hs",
            Self::Domain => "ds",
            Self::Geometry => "gs",
            Self::Pixel => "ps",
            Self::Compute => "cs",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|stage| stage.name() == name)
    }

    #[inline]
    pub(crate) fn from_u8(value: u8) -> Option<Self> {
        Self::ALL.get(value as usize).copied()
    }
}

macro_rules! formats {
    ($($variant:ident => $name:literal, $bytes:literal;)*) => {
        /// A resource or view format. Formats compare by identity; no format is refused for any
        /// bind flag (TRACE.md), only index buffers insist on `R16Uint` or `R32Uint`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[repr(u16)]
        pub enum Format {
            #[default]
            Unknown = 0,
            $($variant,)*
        }

        impl Format {
            pub const ALL: &'static [Format] = &[Format::Unknown, $(Format::$variant,)*];

            /// The format's name in traces (`r8g8b8a8_unorm`).
            pub const fn name(self) -> &'static str {
                match self {
                    Self::Unknown => "unknown",
                    $(Self::$variant => $name,)*
                }
            }

            /// Bytes per element (per texel or index); 0 for `Unknown`.
            pub const fn bytes_per_element(self) -> u32 {
                match self {
                    Self::Unknown => 0,
                    $(Self::$variant => $bytes,)*
                }
            }
        }
    };
}

formats! {
    R32G32B32A32Float => "r32g32b32a32_float", 16;
    R32G32B32A32Uint => "r32g32b32a32_uint", 16;
    R32G32B32Float => "r32g32b32_float", 12;
    R16G16B16A16Float => "r16g16b16a16_float", 8;
    R16G16B16A16Unorm => "r16g16b16a16_unorm", 8;
    R32G32Float => "r32g32_float", 8;
    R10G10B10A2Unorm => "r10g10b10a2_unorm", 4;
    R11G11B10Float => "r11g11b10_float", 4;
    R8G8B8A8Unorm => "r8g8b8a8_unorm", 4;
    R8G8B8A8UnormSrgb => "r8g8b8a8_unorm_srgb", 4;
    B8G8R8A8Unorm => "b8g8r8a8_unorm", 4;
    B8G8R8A8UnormSrgb => "b8g8r8a8_unorm_srgb", 4;
    R16G16Float => "r16g16_float", 4;
    R32Float => "r32_float", 4;
    R32Uint => "r32_uint", 4;
    R32Typeless => "r32_typeless", 4;
    R24G8Typeless => "r24g8_typeless", 4;
    D32Float => "d32_float", 4;
    D24UnormS8Uint => "d24_unorm_s8_uint", 4;
    D32FloatS8X24Uint => "d32_float_s8x24_uint", 8;
    R16Float => "r16_float", 2;
    R16Uint => "r16_uint", 2;
    R16Unorm => "r16_unorm", 2;
    D16Unorm => "d16_unorm", 2;
    R8Unorm => "r8_unorm", 1;
    R8Uint => "r8_uint", 1;
    Bc1Unorm => "bc1_unorm", 8;
    Bc3Unorm => "bc3_unorm", 16;
    Bc5Unorm => "bc5_unorm", 16;
    Bc7Unorm => "bc7_unorm", 16;
}

impl Format {
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|format| format.name() == name)
    }

    #[inline]
    pub(crate) fn from_u16(value: u16) -> Format {
        Self::ALL
            .get(value as usize)
            .copied()
            .unwrap_or(Format::Unknown)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a resource is used (R-OBJ-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Usage {
    #[default]
    Default = 0,
    Immutable,
    Dynamic,
    Staging,
}

impl Usage {
    #[inline]
    pub(crate) fn from_u8(value: u8) -> Usage {
        match value {
            1 => Self::Immutable,
            2 => Self::Dynamic,
            3 => Self::Staging,
            _ => Self::Default,
        }
    }
}

/// Where a resource may be bound (R-OBJ-2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BindFlags(u8);

impl BindFlags {
    pub const NONE: Self = Self(0);
    pub const VERTEX: Self = Self(1 << 0);
    pub const INDEX: Self = Self(1 << 1);
    pub const CONSTANT: Self = Self(1 << 2);
    pub const SHADER_RESOURCE: Self = Self(1 << 3);
    pub const UNORDERED_ACCESS: Self = Self(1 << 4);
    pub const STREAM_OUTPUT: Self = Self(1 << 5);
    pub const RENDER_TARGET: Self = Self(1 << 6);
    pub const DEPTH_STENCIL: Self = Self(1 << 7);

    const NAMES: [(&'static str, BindFlags); 8] = [
        ("vertex", Self::VERTEX),
        ("index", Self::INDEX),
        ("constant", Self::CONSTANT),
        ("shader_resource", Self::SHADER_RESOURCE),
        ("unordered_access", Self::UNORDERED_ACCESS),
        ("stream_output", Self::STREAM_OUTPUT),
        ("render_target", Self::RENDER_TARGET),
        ("depth_stencil", Self::DEPTH_STENCIL),
    ];

    #[inline]
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
    #[inline]
    pub const fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }
    pub const fn bits(self) -> u8 {
        self.0
    }
    pub(crate) const fn from_bits(bits: u8) -> Self {
        Self(bits)
    }
    /// The flag called `name` in traces (`vertex`, `render_target`, ...).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, flag)| *flag)
    }
}

impl std::ops::BitOr for BindFlags {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl fmt::Debug for BindFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Self::NAMES
            .iter()
            .filter(|(_, flag)| self.contains(*flag))
            .map(|(n, _)| *n)
            .collect();
        if names.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&names.join(","))
        }
    }
}

/// Hidden-counter flavour of a buffer's UAVs (legacy only under fast semantics, R-ST-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum UavFlag {
    #[default]
    None = 0,
    Append,
    Counter,
}

/// A buffer (R-OBJ-2).
#[derive(Clone, Copy, Debug, Default)]
pub struct BufferDesc<'a> {
    pub name: &'a str,
    pub size: u32,
    pub usage: Usage,
    pub bind: BindFlags,
    pub uav_flag: UavFlag,
}

/// A 2D texture, render target or depth stencil (R-OBJ-2).
#[derive(Clone, Copy, Debug)]
pub struct TextureDesc<'a> {
    pub name: &'a str,
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub mip_levels: u32,
    pub array_size: u32,
    pub sample_count: u32,
    pub bind: BindFlags,
    /// `None` takes the default: compressible when bound as render target or depth stencil.
    pub compressible: Option<bool>,
    /// Texture compatible (TC): shader reads need no decompression.
    pub texture_compatible: bool,
}

impl Default for TextureDesc<'_> {
    fn default() -> Self {
        Self {
            name: "",
            format: Format::R8G8B8A8Unorm,
            width: 1,
            height: 1,
            mip_levels: 1,
            array_size: 1,
            sample_count: 1,
            bind: BindFlags::SHADER_RESOURCE,
            compressible: None,
            texture_compatible: false,
        }
    }
}

/// A range of mips and array slices a view sees. `u32::MAX` counts mean "all remaining".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubresourceRange {
    pub first_mip: u32,
    pub mip_count: u32,
    pub first_slice: u32,
    pub slice_count: u32,
}

impl SubresourceRange {
    pub const ALL: Self = Self {
        first_mip: 0,
        mip_count: u32::MAX,
        first_slice: 0,
        slice_count: u32::MAX,
    };
}

impl Default for SubresourceRange {
    fn default() -> Self {
        Self::ALL
    }
}

/// A view of any of the four kinds (R-OBJ-2). `format: Unknown` takes the resource's format.
#[derive(Clone, Copy, Debug)]
pub struct ViewDesc<'a> {
    pub name: &'a str,
    pub resource: crate::Resource,
    pub format: Format,
    pub range: SubresourceRange,
    /// Initial minimum LOD of a shader-resource view; `None` copies the resource's (R-ST-6).
    pub min_lod: Option<f32>,
}

impl<'a> ViewDesc<'a> {
    pub fn new(name: &'a str, resource: impl Into<crate::Resource>) -> Self {
        Self {
            name,
            resource: resource.into(),
            format: Format::Unknown,
            range: SubresourceRange::ALL,
            min_lod: None,
        }
    }
}

/// A shader: its stage, the slots it reads, and whether it writes stream output (R-OBJ-2).
#[derive(Clone, Copy, Debug)]
pub struct ShaderDesc<'a> {
    pub name: &'a str,
    pub stage: Stage,
    /// Bit `i` set: the shader reads constant buffer slot `i`.
    pub constant_buffers: u16,
    pub shader_resources: u128,
    pub samplers: u16,
    pub unordered_access_views: u64,
    pub stream_output: bool,
}

impl<'a> ShaderDesc<'a> {
    pub fn new(name: &'a str, stage: Stage) -> Self {
        Self {
            name,
            stage,
            constant_buffers: 0,
            shader_resources: 0,
            samplers: 0,
            unordered_access_views: 0,
            stream_output: false,
        }
    }
}

/// An input layout and the vertex-buffer slots it reads (bit `i`: slot `i`).
#[derive(Clone, Copy, Debug, Default)]
pub struct InputLayoutDesc<'a> {
    pub name: &'a str,
    pub vertex_buffers: u32,
}

/// The kind of a query. Predicates drive predication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum QueryKind {
    #[default]
    Occlusion = 0,
    Predicate,
    Timestamp,
    PipelineStatistics,
}

/// A swap chain with `buffers` back buffers (R-OBJ-2, R-EX-7).
#[derive(Clone, Copy, Debug)]
pub struct SwapChainDesc<'a> {
    pub name: &'a str,
    pub buffers: u32,
    pub format: Format,
    pub width: u32,
    pub height: u32,
}

/// The primitive topology of the input assembler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum PrimitiveTopology {
    #[default]
    Undefined = 0,
    TriangleList,
    TriangleStrip,
    LineList,
    LineStrip,
    PointList,
}

impl PrimitiveTopology {
    pub const fn name(self) -> &'static str {
        match self {
            Self::Undefined => "undefined",
            Self::TriangleList => "triangle_list",
            Self::TriangleStrip => "triangle_strip",
            Self::LineList => "line_list",
            Self::LineStrip => "line_strip",
            Self::PointList => "point_list",
        }
    }
    pub(crate) fn from_u8(value: u8) -> Self {
        match value {
            1 => Self::TriangleList,
            2 => Self::TriangleStrip,
            3 => Self::LineList,
            4 => Self::LineStrip,
            5 => Self::PointList,
            _ => Self::Undefined,
        }
    }
}

/// How a resource is mapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MapType {
    Read,
    Write,
    ReadWrite,
    WriteDiscard,
    WriteNoOverwrite,
}

/// The three engines fences order (R-EX-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Engine {
    #[default]
    Graphics = 0,
    Compute,
    Dma,
}

impl Engine {
    pub const fn name(self) -> &'static str {
        match self {
            Self::Graphics => "graphics",
            Self::Compute => "compute",
            Self::Dma => "dma",
        }
    }
    pub(crate) fn from_u8(value: u8) -> Self {
        match value {
            1 => Self::Compute,
            2 => Self::Dma,
            _ => Self::Graphics,
        }
    }
}

/// A viewport. Depth range defaults to 0..1.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[repr(C)]
pub struct Viewport {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    pub min_depth: f32,
    pub max_depth: f32,
}

impl Viewport {
    pub fn new(x: f32, y: f32, width: f32, height: f32) -> Self {
        Self {
            x,
            y,
            width,
            height,
            min_depth: 0.0,
            max_depth: 1.0,
        }
    }
}

/// A scissor rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub struct Rect {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

/// Which parts of a depth-stencil view a clear touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClearFlags {
    pub depth: bool,
    pub stencil: bool,
}

impl ClearFlags {
    pub const DEPTH: Self = Self {
        depth: true,
        stencil: false,
    };
    pub const DEPTH_STENCIL: Self = Self {
        depth: true,
        stencil: true,
    };
    pub(crate) fn bits(self) -> u32 {
        self.depth as u32 | (self.stencil as u32) << 1
    }
    pub(crate) fn from_bits(bits: u32) -> Self {
        Self {
            depth: bits & 1 != 0,
            stencil: bits & 2 != 0,
        }
    }
}

/// The primitive reset (cut) index after ClearState, and under fast semantics until one is set
/// (R-ST-5).
pub const DEFAULT_RESET_INDEX: u32 = 0xFFFF_FFFF;
/// The reset index legacy semantics derives from an `r16_uint` index buffer (R-ST-5).
pub const R16_RESET_INDEX: u32 = 0xFFFF;

impl Format {
    /// The reset index legacy semantics derives from an index buffer of this format, bound
    /// after one of another format (R-ST-5): `r16_uint` and `r32_uint` only.
    pub const fn legacy_reset_index(self) -> Option<u32> {
        match self {
            Format::R16Uint => Some(R16_RESET_INDEX),
            Format::R32Uint => Some(DEFAULT_RESET_INDEX),
            _ => None,
        }
    }
}
