//! What the device knows of each object, packed into the descriptor words of its table slot
//! (`table.rs`): immutable properties read on every bind. `*Info` are also what the device hands
//! out to the executor and to tests.

use crate::command::ViewFlags;
use crate::desc::*;
use crate::device::handle::*;
use crate::limits::MAX_BACK_BUFFERS;

// Descriptor words per kind (see `table.rs`).
pub(crate) const BUFFER_WORDS: usize = 1;
pub(crate) const TEXTURE_WORDS: usize = 4;
/// A heap's one word: its size in bytes (R-BAR-7). Where a placed resource is lives beside the
/// tables (`DeviceShared::placements`), not in its descriptor words: binds read those, and a
/// placement is read only by the GPU model and the application.
pub(crate) const HEAP_WORDS: usize = 1;
pub(crate) const VIEW_WORDS: usize = 3;
pub(crate) const SHADER_WORDS: usize = 4;
pub(crate) const SWAP_CHAIN_WORDS: usize = 2 + 2 * MAX_BACK_BUFFERS as usize;

/// A registered bundle as the device's entry holds it: the address of its commands (a list
/// header on which the entry holds one reference), then its declaration and footprint
/// (`bundle.rs` reads and writes them).
pub(crate) const BUNDLE_WORDS: usize = 4;

/// A buffer's immutable properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferInfo {
    /// Size in bytes.
    pub size: u32,
    /// How the buffer is used.
    pub usage: Usage,
    /// Where it may be bound.
    pub bind: BindFlags,
    /// The hidden-counter flavour of its UAVs.
    pub uav_flag: UavFlag,
}

impl BufferInfo {
    pub(crate) fn pack(self) -> [u64; BUFFER_WORDS] {
        [self.size as u64
            | (self.usage as u64) << 32
            | (self.bind.bits() as u64) << 40
            | (self.uav_flag as u64) << 48]
    }
    /// Whether the packed descriptor `w` has every bind flag of `need` and a usage other than
    /// dynamic, read from the word as it is (the hot path of a one-slot bind).
    #[inline(always)]
    pub(crate) fn is_static_with(w: [u64; BUFFER_WORDS], need: BindFlags) -> bool {
        let bind = (w[0] >> 40) as u8;
        bind & need.bits() == need.bits() && (w[0] >> 32) as u8 != Usage::Dynamic as u8
    }
    pub(crate) fn unpack(w: [u64; BUFFER_WORDS]) -> Self {
        Self {
            size: w[0] as u32,
            usage: Usage::from_u8((w[0] >> 32) as u8),
            bind: BindFlags::from_bits((w[0] >> 40) as u8),
            uav_flag: match (w[0] >> 48) as u8 {
                1 => UavFlag::Append,
                2 => UavFlag::Counter,
                _ => UavFlag::None,
            },
        }
    }
}

/// A texture's immutable properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureInfo {
    /// Texel format.
    pub format: Format,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Number of mip levels (at most 255 kept).
    pub mip_levels: u32,
    /// Number of array slices.
    pub array_size: u32,
    /// Samples per texel.
    pub sample_count: u32,
    /// Where it may be bound.
    pub bind: BindFlags,
    /// Whether the GPU keeps it compressed while it is a render target or depth stencil.
    pub compressible: bool,
    /// Texture compatible: shader reads need no decompression (R-SP-2).
    pub texture_compatible: bool,
    /// Delta colour compression allowed (R-BAR-3).
    pub dcc: bool,
    /// The swap chain and index, for a back buffer.
    pub back_buffer: Option<(SwapChain, u32)>,
}

impl TextureInfo {
    pub(crate) fn pack(self) -> [u64; TEXTURE_WORDS] {
        let flags = self.compressible as u64
            | (self.texture_compatible as u64) << 1
            | (self.dcc as u64) << 2;
        let (chain, index) = self
            .back_buffer
            .map_or((RawHandle::NULL, 0), |(c, i)| (c.0, i));
        [
            self.format as u64
                | (self.bind.bits() as u64) << 16
                | flags << 24
                | (self.sample_count.min(255) as u64) << 32
                | (self.mip_levels.min(255) as u64) << 40
                | (self.array_size.min(u16::MAX as u32) as u64) << 48,
            self.width as u64 | (self.height as u64) << 32,
            chain.to_bits(),
            index as u64,
        ]
    }
    pub(crate) fn unpack(w: [u64; TEXTURE_WORDS]) -> Self {
        let index = w[3] as u32;
        let chain = RawHandle::from_bits(w[2]);
        Self {
            format: Format::from_u16(w[0] as u16),
            bind: BindFlags::from_bits((w[0] >> 16) as u8),
            compressible: (w[0] >> 24) & 1 != 0,
            texture_compatible: (w[0] >> 25) & 1 != 0,
            dcc: (w[0] >> 26) & 1 != 0,
            sample_count: (w[0] >> 32) as u8 as u32,
            mip_levels: (w[0] >> 40) as u8 as u32,
            array_size: (w[0] >> 48) as u16 as u32,
            width: w[1] as u32,
            height: (w[1] >> 32) as u32,
            back_buffer: (!chain.is_null()).then_some((SwapChain(chain), index)),
        }
    }
    /// The bytes the texture takes in a heap (R-BAR-7), as this model defines them: for every
    /// mip level `m`, `max(1, width >> m) x max(1, height >> m)` texels (for the block-compressed
    /// `bc*` formats, 4x4 blocks, rounded up) of the format's bytes per element, times the sample
    /// count and the array size. No row pitch, tiling or alignment padding: the model has no
    /// memory layout to follow; sizes only decide whether a placed texture fits its heap and
    /// which placed resources overlap.
    ///
    /// A texture the device creates is at most 16384 x 16384 texels of 16 bytes, 16 mips, 16
    /// samples and 2048 slices (R-OBJ-2): under 2^48 bytes. The fields are public, so any shape
    /// can ask: past `u64` the size saturates at `u64::MAX`, which no heap holds (checked
    /// arithmetic throughout, so a debug and a release build agree).
    pub fn byte_size(&self) -> u64 {
        let block = if self.format.name().starts_with("bc") {
            4
        } else {
            1
        };
        let element = self.format.bytes_per_element().max(1) as u64;
        // At most 32 levels: `>> m` of a `u32` is defined for `m < 32`.
        let per_slice = (0..self.mip_levels.min(32)).try_fold(0u64, |sum, m| {
            let w = ((self.width >> m).max(1) as u64).div_ceil(block);
            let h = ((self.height >> m).max(1) as u64).div_ceil(block);
            // `w * h < 2^64` (both below 2^32); the element size may take it past.
            (w * h).checked_mul(element)?.checked_add(sum)
        });
        per_slice.map_or(u64::MAX, |bytes| {
            bytes
                .saturating_mul(self.sample_count.max(1) as u64)
                .saturating_mul(self.array_size.max(1) as u64)
        })
    }
    /// The first subresource (mip 0, slice 0) as a map of the texture on the immediate context
    /// lays it out (R-EX-6, R-GPU-2): `(row pitch, rows)`, rows packed, so `row pitch x rows`
    /// bytes; a row of a block-compressed `bc*` format is a row of 4x4 blocks.
    pub fn mapped_layout(&self) -> (u64, u64) {
        packed_rows(self.format, self.width, self.height)
    }
    /// A compressible render target or depth stencil: reading it needs decompression (R-SP-2).
    pub fn is_compressible_target(&self) -> bool {
        self.compressible
            && self
                .bind
                .intersects(BindFlags::RENDER_TARGET | BindFlags::DEPTH_STENCIL)
    }
}

/// Where a bind of a shader-resource view reads its minimum LOD from (R-ST-6; seed 000's
/// paragraph on `ComposeShaderResourceView`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ViewMinLod {
    /// A view object (`create_shader_resource_view`): a fast bind reads the view's minimum LOD,
    /// a legacy bind the resource's, as they are at the bind.
    #[default]
    BySemantics,
    /// A composed descriptor given a MinLevelOfDetail: every bind reads the view's own (a
    /// descriptor has fast affinity, and ignores the resource's minimum LOD).
    Composed,
    /// A composed descriptor that asked for the default MinLevelOfDetail: every bind reads the
    /// resource's minimum LOD as it is at the bind.
    ComposedDefault,
}

impl ViewMinLod {
    // Packed as two bits, whether a bind reads the resource's minimum LOD on a legacy context
    // (bit 0) and on a fast one (bit 1), so that a bind tests one bit (`ViewInfo::reads_resource_min_lod`).
    fn from_bits(bits: u64) -> Self {
        match bits & 3 {
            0b00 => Self::Composed,
            0b11 => Self::ComposedDefault,
            _ => Self::BySemantics,
        }
    }
    fn bits(self) -> u64 {
        match self {
            Self::BySemantics => 0b01,
            Self::Composed => 0b00,
            Self::ComposedDefault => 0b11,
        }
    }
    /// Whether a bind on a context of legacy semantics (`legacy`) reads the resource's minimum
    /// LOD rather than the view's.
    #[inline(always)]
    pub fn reads_resource(self, legacy: bool) -> bool {
        match self {
            Self::BySemantics => legacy,
            Self::Composed => false,
            Self::ComposedDefault => true,
        }
    }
    /// Whether the view is a composed descriptor.
    pub fn is_composed(self) -> bool {
        self != Self::BySemantics
    }
}

/// Where [`ViewMinLod`]'s two bits lie in a packed view's second word.
const MIN_LOD_SHIFT: u64 = 25;

/// A view's immutable properties, with the properties of its resource it was created over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewInfo {
    /// The buffer or texture viewed.
    pub resource: Resource,
    /// The view's format (the resource's when created with `Unknown`).
    pub format: Format,
    /// Properties of the resource the view reads, copied in at creation.
    pub flags: ViewFlags,
    /// First mip level seen.
    pub first_mip: u32,
    /// Mip levels seen.
    pub mip_count: u32,
    /// First array slice seen.
    pub first_slice: u32,
    /// Array slices seen.
    pub slice_count: u32,
    /// Where a bind reads a shader-resource view's minimum LOD from: a view object's rule, or
    /// a composed descriptor's.
    pub min_lod: ViewMinLod,
}

impl ViewInfo {
    pub(crate) fn pack(self) -> [u64; VIEW_WORDS] {
        let is_texture = matches!(self.resource, Resource::Texture(_)) as u64;
        [
            self.resource.raw().to_bits(),
            self.format as u64
                | (self.flags.0 as u64) << 16
                | is_texture << 24
                | self.min_lod.bits() << MIN_LOD_SHIFT
                | (self.first_mip.min(255) as u64) << 32
                | (self.mip_count.min(255) as u64) << 40,
            self.first_slice.min(u16::MAX as u32) as u64
                | (self.slice_count.min(u16::MAX as u32) as u64) << 32,
        ]
    }
    /// Whether a bind of the shader-resource view packed in `w` reads its resource's minimum
    /// LOD rather than its own, on a context of legacy semantics (`legacy`) or not: one bit of
    /// the packed [`ViewMinLod`], for the bind's hot path.
    #[inline(always)]
    pub(crate) fn reads_resource_min_lod(w: &[u64; VIEW_WORDS], legacy: bool) -> bool {
        let bit = match legacy {
            true => 1 << MIN_LOD_SHIFT,
            false => 2 << MIN_LOD_SHIFT,
        };
        w[1] & bit != 0
    }

    pub(crate) fn unpack(w: [u64; VIEW_WORDS]) -> Self {
        let raw = RawHandle::from_bits(w[0]);
        let resource = if (w[1] >> 24) & 1 != 0 {
            Resource::Texture(Texture(raw))
        } else {
            Resource::Buffer(Buffer(raw))
        };
        Self {
            resource,
            format: Format::from_u16(w[1] as u16),
            flags: ViewFlags((w[1] >> 16) as u8),
            first_mip: (w[1] >> 32) as u8 as u32,
            mip_count: (w[1] >> 40) as u8 as u32,
            first_slice: w[2] as u32,
            slice_count: (w[2] >> 32) as u32,
            min_lod: ViewMinLod::from_bits(w[1] >> MIN_LOD_SHIFT),
        }
    }
}

/// A shader's stage and the slots it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderInfo {
    /// The stage it runs in.
    pub stage: Stage,
    /// The constant-buffer slots it reads.
    pub constant_buffers: Slots,
    /// The shader-resource slots it reads.
    pub shader_resources: Slots,
    /// The sampler slots it reads.
    pub samplers: Slots,
    /// The UAV slots it accesses.
    pub unordered_access_views: Slots,
    /// Writes stream output.
    pub stream_output: bool,
}

impl ShaderInfo {
    pub(crate) fn pack(self) -> [u64; SHADER_WORDS] {
        [
            self.stage as u64
                | (self.stream_output as u64) << 8
                | (self.constant_buffers.bits() as u16 as u64) << 16
                | (self.samplers.bits() as u16 as u64) << 32,
            self.shader_resources.bits() as u64,
            (self.shader_resources.bits() >> 64) as u64,
            self.unordered_access_views.bits() as u64,
        ]
    }
    /// The `stream_output` of [`unpack`](Self::unpack), read alone.
    #[inline]
    pub(crate) fn streams_output(w: &[u64; SHADER_WORDS]) -> bool {
        (w[0] >> 8) & 1 != 0
    }
    pub(crate) fn unpack(w: [u64; SHADER_WORDS]) -> Self {
        Self {
            stage: Stage::from_u8(w[0] as u8).unwrap_or(Stage::Vertex),
            stream_output: Self::streams_output(&w),
            constant_buffers: Slots::from_bits((w[0] >> 16) as u16 as u128),
            samplers: Slots::from_bits((w[0] >> 32) as u16 as u128),
            shader_resources: Slots::from_bits(w[1] as u128 | (w[2] as u128) << 64),
            unordered_access_views: Slots::from_bits(w[3] as u128),
        }
    }
}

/// A swap chain's properties and back buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapChainInfo {
    /// Back-buffer format.
    pub format: Format,
    /// Back-buffer width.
    pub width: u32,
    /// Back-buffer height.
    pub height: u32,
    /// Back buffers and their render-target views, in rotation order.
    pub buffers: Vec<(Texture, RenderTargetView)>,
}

/// A `width` x `height` subresource of `format`, rows packed: `(row pitch, rows)`; a row of a
/// block-compressed `bc*` format is a row of 4x4 blocks (the format's bytes are a block's).
pub(crate) fn packed_rows(format: Format, width: u32, height: u32) -> (u64, u64) {
    let block = if format.name().starts_with("bc") {
        4
    } else {
        1
    };
    let element = format.bytes_per_element() as u64;
    let columns = (width.max(1) as u64).div_ceil(block);
    let rows = (height.max(1) as u64).div_ceil(block);
    (columns * element, rows)
}
