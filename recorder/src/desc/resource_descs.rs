//! The descriptions of resources and their views (R-OBJ-2): [`BufferDesc`], [`HeapDesc`] with a
//! [`Placement`] in it, [`TextureDesc`], [`SubresourceRange`] and [`ViewDesc`].
//!
//! **In:** what the application asks for. **Out:** what `Device::create_*` checks and packs.
//!
//! **Invariant.** Plain values with defaults a newcomer can read; every rule on them is checked
//! at creation (`device/create_objects.rs`), never here.

use super::*;

/// A buffer (R-OBJ-2).
#[derive(Clone, Copy, Debug, Default)]
pub struct BufferDesc<'a> {
    /// The debug name, used in messages, records and traces.
    pub name: &'a str,
    /// Size in bytes.
    pub size: u32,
    /// How the buffer is used.
    pub usage: Usage,
    /// Where it may be bound.
    pub bind: BindFlags,
    /// The hidden-counter flavour of its UAVs.
    pub uav_flag: UavFlag,
    /// Placed in a heap at an offset (R-BAR-7): `None` for a committed buffer of its own memory.
    pub placement: Option<Placement>,
}

/// A heap: memory that placed resources share, and alias where their byte ranges overlap
/// (R-BAR-7; D3D12's `CreateHeap`).
#[derive(Clone, Copy, Debug, Default)]
pub struct HeapDesc<'a> {
    /// The debug name, used in messages, records and traces.
    pub name: &'a str,
    /// Size in bytes (not 0).
    pub size: u64,
}

/// Where a placed resource lives (R-BAR-7; D3D12's `CreatePlacedResource`): a heap and a byte
/// offset in it. The resource takes the bytes `offset..offset + size` of the heap (a buffer its
/// size, a texture [`TextureInfo::byte_size`](crate::TextureInfo::byte_size)); placed resources
/// whose ranges overlap alias each other. The offset needs no alignment here (D3D12 asks 64 KiB):
/// the model has no memory to align.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The heap.
    pub heap: crate::Heap,
    /// Byte offset of the resource's first byte in the heap.
    pub offset: u64,
}

/// A 2D texture, render target or depth stencil (R-OBJ-2).
#[derive(Clone, Copy, Debug)]
pub struct TextureDesc<'a> {
    /// The debug name, used in messages, records and traces.
    pub name: &'a str,
    /// Texel format.
    pub format: Format,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Number of mip levels.
    pub mip_levels: u32,
    /// Number of array slices.
    pub array_size: u32,
    /// Samples per texel (1: not multisampled).
    pub sample_count: u32,
    /// Where it may be bound.
    pub bind: BindFlags,
    /// `None` takes the default: compressible when bound as render target or depth stencil.
    pub compressible: Option<bool>,
    /// Texture compatible (TC): shader reads need no decompression.
    pub texture_compatible: bool,
    /// Delta colour compression allowed (the seed's `ALLOW_DCC`, R-BAR-3): decompressed on a
    /// write-to-read layout change unless the texture is also TC.
    pub dcc: bool,
    /// Placed in a heap at an offset (R-BAR-7): `None` for a committed texture.
    pub placement: Option<Placement>,
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
            dcc: false,
            placement: None,
        }
    }
}

/// A range of mips and array slices a view sees. `u32::MAX` counts mean "all remaining".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubresourceRange {
    /// First mip level seen.
    pub first_mip: u32,
    /// Mip levels seen (`u32::MAX`: all from `first_mip`).
    pub mip_count: u32,
    /// First array slice seen.
    pub first_slice: u32,
    /// Array slices seen (`u32::MAX`: all from `first_slice`).
    pub slice_count: u32,
}

impl SubresourceRange {
    /// Every mip and every slice.
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
    /// The debug name, used in messages, records and traces.
    pub name: &'a str,
    /// The buffer or texture viewed.
    pub resource: crate::Resource,
    /// The view's format (`Unknown`: the resource's).
    pub format: Format,
    /// The mips and slices viewed.
    pub range: SubresourceRange,
    /// Initial minimum LOD of a shader-resource view; `None` copies the resource's (R-ST-6).
    pub min_lod: Option<f32>,
}

impl<'a> ViewDesc<'a> {
    /// A view of all of `resource` in its own format.
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
