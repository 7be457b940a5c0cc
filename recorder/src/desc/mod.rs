//! What the application asks for: semantics, stages, formats, usages, bind flags and the `*Desc`
//! structures the device creates objects from (R-OBJ-2).

mod gpu_contents;
mod resource_descs;
mod shader_descs;
mod word_tables;

pub use gpu_contents::*;
pub use resource_descs::*;
pub use shader_descs::*;
pub(crate) use word_tables::word_table;
pub use word_tables::{UnknownWord, Word, WordTable};

use std::fmt;

/// Legacy (D3D11 contract: the runtime tracks, shadows and patches) or fast (the application does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Semantics {
    #[default]
    /// The D3D11 contract: the runtime counts references, shadows state, patches split points and
    /// starts each command list from ClearState.
    Legacy,
    /// The Xbox One fast contract: no references, no shadow, lists inherit the executing context's
    /// state, and the application synchronises.
    Fast,
}

word_table! {
    Semantics {
        Legacy => "legacy",
        Fast => "fast",
    }
}

/// A shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Stage {
    /// The vertex shader (`vs`).
    Vertex = 0,
    /// The hull shader (`hs`).
    Hull,
    /// The domain shader (`ds`).
    Domain,
    /// The geometry shader (`gs`).
    Geometry,
    /// The pixel shader (`ps`).
    Pixel,
    /// The compute shader (`cs`); the compute stage has its own UAV slots.
    Compute,
}

// `ALL` is in the order of the discriminants (`from_u8` indexes it).
word_table! {
    Stage {
        Vertex => "vs",
        Hull => "hs",
        Domain => "ds",
        Geometry => "gs",
        Pixel => "ps",
        Compute => "cs",
    }
}

impl Stage {
    /// The five graphics stages.
    pub const GRAPHICS: [Stage; 5] = [
        Self::Vertex,
        Self::Hull,
        Self::Domain,
        Self::Geometry,
        Self::Pixel,
    ];

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
            /// No format: a view takes its resource's.
            #[default]
            Unknown = 0,
            $(
                #[doc = concat!("`", $name, "`: ", $bytes, " bytes per element.")]
                $variant,
            )*
        }

        // `ALL` is `Unknown` first, in the order of the discriminants (`from_u16` indexes it).
        word_table! {
            Format {
                Unknown => "unknown",
                $($variant => $name,)*
            }
        }

        impl Format {
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
    #[inline]
    pub(crate) fn from_u16(value: u16) -> Format {
        Self::ALL
            .get(value as usize)
            .copied()
            .unwrap_or(Format::Unknown)
    }
}

/// How a resource is used (R-OBJ-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Usage {
    #[default]
    /// GPU read and write; updated by copies, `update_subresource` or (allow_usage_default) maps.
    Default = 0,
    /// Contents fixed at creation.
    Immutable,
    /// CPU-written through write_discard and write_no_overwrite maps; each write_discard map makes a
    /// new instance (R-REC-10).
    Dynamic,
    /// CPU-readable and -writable copy source or destination; never bound.
    Staging,
}

word_table! {
    Usage {
        Default => "default",
        Immutable => "immutable",
        Dynamic => "dynamic",
        Staging => "staging",
    }
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
    /// No bind flag.
    pub const NONE: Self = Self(0);
    /// Bindable as a vertex buffer.
    pub const VERTEX: Self = Self(1 << 0);
    /// Bindable as an index buffer.
    pub const INDEX: Self = Self(1 << 1);
    /// Bindable as a constant buffer.
    pub const CONSTANT: Self = Self(1 << 2);
    /// Readable through shader-resource views.
    pub const SHADER_RESOURCE: Self = Self(1 << 3);
    /// Writable through unordered-access views.
    pub const UNORDERED_ACCESS: Self = Self(1 << 4);
    /// Writable as stream output.
    pub const STREAM_OUTPUT: Self = Self(1 << 5);
    /// Writable through render-target views.
    pub const RENDER_TARGET: Self = Self(1 << 6);
    /// Writable through depth-stencil views.
    pub const DEPTH_STENCIL: Self = Self(1 << 7);

    /// Every flag and its word, in docs/TRACE.md's order (`bind=`): the flag set's word table.
    pub const NAMED: &'static [(&'static str, BindFlags)] = &[
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
    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
    #[inline]
    /// Whether any flag of `other` is set.
    pub const fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }
    /// The flags as bits (bit 0 `VERTEX` ... bit 7 `DEPTH_STENCIL`).
    pub const fn bits(self) -> u8 {
        self.0
    }
    pub(crate) const fn from_bits(bits: u8) -> Self {
        Self(bits)
    }
    /// No flag set (`bind=none`).
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The flags set and their words, in the word table's order.
    pub fn iter(self) -> impl Iterator<Item = (&'static str, BindFlags)> {
        Self::NAMED
            .iter()
            .copied()
            .filter(move |(_, flag)| self.contains(*flag))
    }
    /// The flag called `name` in traces (`vertex`, `render_target`, ...).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, flag)| *flag)
    }
}

impl WordTable for BindFlags {
    const WORDS: &'static [(&'static str, Self)] = Self::NAMED;
}

impl std::ops::BitOr for BindFlags {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl fmt::Debug for BindFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The words of the flags set, in the word table's order, joined by `,` (a trace's `bind=`);
/// `none` when none is.
impl fmt::Display for BindFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        for (i, (word, _)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(word)?;
        }
        Ok(())
    }
}

/// Hidden-counter flavour of a buffer's UAVs (legacy only under fast semantics, R-ST-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum UavFlag {
    #[default]
    /// A plain UAV.
    None = 0,
    /// An append/consume UAV (hidden counter).
    Append,
    /// A UAV with a hidden counter.
    Counter,
}

// A trace writes no `uav_flag=` for a plain UAV: it never writes `none`.
word_table! {
    UavFlag {
        None => "none",
        Append => "append",
        Counter => "counter",
    }
}

/// The kind of a query. Predicates drive predication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum QueryKind {
    #[default]
    /// Counts samples that pass the depth and stencil tests.
    Occlusion = 0,
    /// An occlusion predicate: usable with `set_predication`.
    Predicate,
    /// A GPU timestamp.
    Timestamp,
    /// Pipeline statistics.
    PipelineStatistics,
}

word_table! {
    QueryKind {
        Occlusion => "occlusion",
        Timestamp => "timestamp",
        PipelineStatistics => "pipeline_statistics",
        Predicate => "predicate",
    }
}

impl QueryKind {
    /// The kind a query's table word holds (`create_query` stores `kind as u64`).
    pub(crate) fn from_word(word: u64) -> Self {
        match word {
            1 => Self::Predicate,
            2 => Self::Timestamp,
            3 => Self::PipelineStatistics,
            _ => Self::Occlusion,
        }
    }
}

/// How an occlusion or predicate query counts the samples that pass (`configure_query`,
/// R-FX-3): every sample, or only whether any did (its result is then 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum QueryMode {
    #[default]
    /// Every sample that passes is counted (a query's mode at creation).
    Counting = 0,
    /// Only whether any sample passed: the result is 0 or 1.
    Binary,
}

word_table! {
    QueryMode {
        Counting => "counting",
        Binary => "binary",
    }
}

impl QueryMode {
    pub(crate) fn from_u8(value: u8) -> Self {
        match value {
            1 => Self::Binary,
            _ => Self::Counting,
        }
    }
}

/// A swap chain with `buffers` back buffers (R-OBJ-2, R-EX-7).
#[derive(Clone, Copy, Debug)]
pub struct SwapChainDesc<'a> {
    /// The debug name, used in messages, records and traces.
    pub name: &'a str,
    /// Number of back buffers (the chain rotates through them at each present).
    pub buffers: u32,
    /// Back-buffer format.
    pub format: Format,
    /// Back-buffer width in texels.
    pub width: u32,
    /// Back-buffer height in texels.
    pub height: u32,
}

/// The primitive topology of the input assembler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum PrimitiveTopology {
    #[default]
    /// Nothing set (the ClearState default).
    Undefined = 0,
    /// A list of triangles.
    TriangleList,
    /// A strip of triangles.
    TriangleStrip,
    /// A list of lines.
    LineList,
    /// A strip of lines.
    LineStrip,
    /// A list of points.
    PointList,
}

word_table! {
    PrimitiveTopology {
        Undefined => "undefined",
        TriangleList => "triangle_list",
        TriangleStrip => "triangle_strip",
        LineList => "line_list",
        LineStrip => "line_strip",
        PointList => "point_list",
    }
}

impl PrimitiveTopology {
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
    /// CPU read of a staging resource (legacy: waits for the GPU).
    Read,
    /// CPU write of a staging resource.
    Write,
    /// CPU read and write of a staging resource.
    ReadWrite,
    /// A new instance of a dynamic resource; the previous contents are not kept (R-REC-10).
    WriteDiscard,
    /// A write into a dynamic (or, with allow_usage_default, default) resource the GPU may still
    /// read; the application promises not to overwrite what it uses.
    WriteNoOverwrite,
}

word_table! {
    MapType {
        WriteDiscard => "write_discard",
        WriteNoOverwrite => "write_no_overwrite",
        Read => "read",
        Write => "write",
        ReadWrite => "read_write",
    }
}

/// The three engines fences order (R-EX-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Engine {
    #[default]
    /// The graphics engine (draws, dispatches, everything by default).
    Graphics = 0,
    /// The asynchronous compute engine (always fast semantics).
    Compute,
    /// The DMA engine (copies; always fast semantics).
    Dma,
}

word_table! {
    Engine {
        Graphics => "graphics",
        Compute => "compute",
        Dma => "dma",
    }
}

impl Engine {
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
    /// Left edge in pixels.
    pub x: f32,
    /// Top edge in pixels.
    pub y: f32,
    /// Width in pixels.
    pub width: f32,
    /// Height in pixels.
    pub height: f32,
    /// Nearest depth.
    pub min_depth: f32,
    /// Farthest depth.
    pub max_depth: f32,
}

impl Viewport {
    /// A viewport at (`x`, `y`) of `width` by `height` pixels, depth 0..1.
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
    /// Left edge, inclusive.
    pub left: i32,
    /// Top edge, inclusive.
    pub top: i32,
    /// Right edge, exclusive.
    pub right: i32,
    /// Bottom edge, exclusive.
    pub bottom: i32,
}

/// The texels a texture-region copy reads (`D3D12_BOX` of a 2D texture): `left..right` by
/// `top..bottom`, in texels of the source subresource's mip level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
#[repr(C)]
pub struct CopyBox {
    /// Left edge, inclusive.
    pub left: u32,
    /// Top edge, inclusive.
    pub top: u32,
    /// Right edge, exclusive.
    pub right: u32,
    /// Bottom edge, exclusive.
    pub bottom: u32,
}

/// Which parts of a depth-stencil view a clear touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClearFlags {
    /// Clear the depth plane.
    pub depth: bool,
    /// Clear the stencil plane.
    pub stencil: bool,
}

impl ClearFlags {
    /// Depth only.
    pub const DEPTH: Self = Self {
        depth: true,
        stencil: false,
    };
    /// Depth and stencil.
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
