//! The details of the two `invalid_argument` errors that group many rules: [`DescProblem`] (what
//! is wrong with an object description, [`Error::InvalidDesc`](crate::Error::InvalidDesc)) and [`CopyProblem`] (how the
//! resources of a copy do not match, [`Error::CopyMismatch`](crate::Error::CopyMismatch)).
//!
//! **In:** the rule a description or a copy breaks, with its numbers. **Out:** a message naming
//! the field, the limit and the fix.
//!
//! **Invariant.** Every variant is a leaf with named fields, `#[non_exhaustive]` as a whole.

use crate::desc::{Engine, Stage};

/// What is wrong with an object description ([`Error::InvalidDesc`](crate::Error::InvalidDesc)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DescProblem {
    /// What a real GPU needs of the object is inconsistent (R-GPU-2): the reason.
    #[error("{0}")]
    Contents(String),
    /// A buffer of size 0 (R-OBJ-2).
    #[error("size 0 (R-OBJ-2)")]
    ZeroSize,
    /// A texture with a zero width or height (R-OBJ-2).
    #[error("a zero dimension (R-OBJ-2)")]
    ZeroDimension,
    /// A texture wider or higher than D3D11 describes (R-OBJ-2).
    #[error("{width}x{height} texels: a 2D texture is at most {limit} texels wide and high (R-OBJ-2, D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION)")]
    DimensionTooLarge {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
        /// `limits::MAX_TEXTURE_DIMENSION`.
        limit: u32,
    },
    /// Mip levels outside 1..=16 or an array size outside 1..=2048 (R-OBJ-2).
    #[error("{mip_levels} mips and array size {array_size}: mips must be 1..=16 and array size 1..=2048 (R-OBJ-2)")]
    MipsOrArraySize {
        /// The mip levels asked for.
        mip_levels: u32,
        /// The array size asked for.
        array_size: u32,
    },
    /// A texture sample count other than 1, 2, 4, 8 or 16 (R-OBJ-2).
    #[error("sample count {count} is not 1, 2, 4, 8 or 16 (R-OBJ-2)")]
    SampleCount {
        /// The sample count asked for.
        count: u32,
    },
    /// A placed resource past the end of its heap (R-BAR-7).
    #[error("{size} bytes at offset {offset} do not fit the heap's {heap_size} bytes (R-BAR-7)")]
    DoesNotFitHeap {
        /// The placement's offset.
        offset: u64,
        /// The resource's size in bytes (a texture's as `TextureInfo::byte_size` defines it).
        size: u64,
        /// The heap's size.
        heap_size: u64,
    },
    /// Append or counter flags on a buffer without `UNORDERED_ACCESS` (R-OBJ-2).
    #[error("append/counter flags need the unordered_access bind flag (R-OBJ-2)")]
    CounterWithoutUnorderedAccess,
    /// A buffer with texture-only bind flags (R-OBJ-2).
    #[error("render_target and depth_stencil are texture bind flags (R-OBJ-2)")]
    TextureBindFlags,
    /// A texture with buffer-only bind flags (R-OBJ-2).
    #[error("vertex, index, constant and stream_output are buffer bind flags (R-OBJ-2)")]
    BufferBindFlags,
    /// A render-target or depth-stencil view of a buffer (R-OBJ-2).
    #[error("{view} views need a texture (R-OBJ-2)")]
    ViewNeedsTexture {
        /// The view asked for: "render-target" or "depth-stencil".
        view: &'static str,
    },
    /// A view's mips or slices outside its resource's (R-OBJ-2).
    #[error("mips {first_mip}+{mip_count} and slices {first_slice}+{slice_count} are not within the resource's {mips} mips and {slices} slices (R-OBJ-2)")]
    ViewRange {
        /// The view's first mip.
        first_mip: u32,
        /// Its mip count (`u32::MAX`: all from `first_mip`).
        mip_count: u32,
        /// Its first array slice.
        first_slice: u32,
        /// Its slice count (`u32::MAX`: all from `first_slice`).
        slice_count: u32,
        /// The resource's mip levels.
        mips: u32,
        /// The resource's array slices.
        slices: u32,
    },
    /// A shader reading UAV slots past its stage's (R-OBJ-5).
    #[error("reads UAV slots past {} ({} stage; R-OBJ-5)", limit - 1, stage.name())]
    UavSlots {
        /// The shader's stage.
        stage: Stage,
        /// How many UAV slots the stage has.
        limit: u32,
    },
    /// A slot set naming a slot past its kind's (R-OBJ-5): a shader's constant buffers or
    /// samplers, an input layout's vertex buffers.
    #[error("reads {what} slots past {} (there are {limit}; R-OBJ-5)", limit - 1)]
    SlotsPastLimit {
        /// The kind of slot: `constant-buffer`, `sampler`, `vertex-buffer`.
        what: &'static str,
        /// How many slots of that kind there are.
        limit: u32,
    },
    /// A stream-output shader of a stage other than vs, ds or gs (R-OBJ-2).
    #[error("only vs, ds and gs shaders can write stream output, not {} (R-OBJ-2)", stage.name())]
    StreamOutputStage {
        /// The shader's stage.
        stage: Stage,
    },
    /// A swap chain with no back buffers or too many (R-OBJ-2).
    #[error("a swap chain has 1 to {limit} back buffers (R-OBJ-2, limits::MAX_BACK_BUFFERS), not {given}")]
    BackBufferCount {
        /// The count asked for.
        given: u32,
        /// `limits::MAX_BACK_BUFFERS`.
        limit: u32,
    },
    /// `place_swap_chain_view` of a view whose resource is no swap chain's back buffer (R-EX-7).
    #[error("the view is not of a swap chain's back buffer: only such a view is placed (R-EX-7)")]
    NotASwapChainView,
    /// A compute or DMA context asked for with legacy semantics (R-EX-5).
    #[error("{} contexts are always fast semantics (R-EX-5); create it with Semantics::Fast", engine.name())]
    EngineNeedsFast {
        /// The context's engine.
        engine: Engine,
    },
    /// A legacy context asked for in the `fast-only` build (R-FX-7).
    #[error("legacy semantics is compiled out: the `fast-only` cargo feature (the seeds' D3DCOMPILE_NO_DEBUG_AND_ALL_FAST_SEMANTICS, R-FX-7) allows only fast-semantics contexts; create it with Semantics::Fast or build without the feature")]
    FastOnlyBuild,
    /// A bundle declaration's sample count past what it holds (R-B-1).
    #[error("sample count {count} is out of range: the declaration holds at most {limit} (R-B-1)")]
    BundleSampleCount {
        /// The sample count declared.
        count: u32,
        /// The largest one a declaration holds.
        limit: u32,
    },
}

/// How the resources of a copy do not match ([`Error::CopyMismatch`](crate::Error::CopyMismatch)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CopyProblem {
    /// A buffer and a texture (R-REC-5).
    #[error("source and destination must both be buffers or both textures (R-REC-5)")]
    BufferAndTexture,
    /// `copy_resource` naming one resource twice (R-REC-5, R-BAR-7).
    #[error("source and destination are the same resource: copy_resource copies a whole resource into another (R-REC-5; only region copies may name one resource twice, R-BAR-7)")]
    SameResource,
    /// Whole-buffer copy between buffers of different sizes (R-REC-5).
    #[error("buffer sizes differ ({destination} and {source_size} bytes): copy_resource copies whole resources of one size (R-REC-5)")]
    BufferSizes {
        /// The destination's size in bytes.
        destination: u64,
        /// The source's size in bytes.
        source_size: u64,
    },
    /// Whole-texture copy between textures of different shapes (R-REC-5).
    #[error("textures differ in size, mips, array size or sample count: copy_resource copies whole resources of one shape (R-REC-5)")]
    TextureShapes,
    /// A decompression "into" the texture decompressed (R-ST-9).
    #[error("decompressing into the same texture: omit `into` instead (R-ST-9)")]
    DecompressIntoItself,
    /// A decompression into a texture of another size (R-ST-9).
    #[error("the destination's size differs from the source's: decompressing into a second resource needs one of the same size (R-ST-9)")]
    DecompressSizes,
    /// A decompression into a texture of other planes: colour into depth, depth into colour, or
    /// depth into a depth format without the source's stencil (or with one it lacks) (R-ST-9).
    #[error("the destination's format has other planes than the source's: decompressing into a second resource writes colour into a colour format and depth (and stencil) into a depth format with the same planes (R-ST-9)")]
    DecompressFormats,
    /// A decompression into a second resource limited to some kinds (R-ST-9).
    #[error("`kinds` limits an in-place decompression: a decompression into a second resource writes it fully decompressed; omit `kinds` or `into` (R-ST-9)")]
    DecompressKindsInto,
}
