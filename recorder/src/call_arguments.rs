//! What the calls take besides objects and numbers: a vertex-buffer binding
//! ([`VertexBuffer`]), the entries of a fast bind and a reusable batch of them
//! ([`FastResource`], [`FastResourceBatch`]), a predicate value, a compression state, the kinds
//! and sub-region of a decompression ([`DecompressKinds`], [`DecompressRegion`]) and map flags.
//!
//! **In:** the application's arguments. **Out:** the same values, read by the calls of the
//! capability traits (`capabilities.rs`).
//!
//! **Invariant.** Plain values: checked where a call takes them, never here.

use crate::desc::*;
use crate::device::handle::*;

/// Whether a map may write a default-usage buffer in place: Xbox One's
/// `D3D11_MAP_FLAG_ALLOW_USAGE_DEFAULT`, named (R-REC-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MapFlags {
    /// No flag: dynamic buffers (and, on the immediate context, staging buffers) only.
    #[default]
    None,
    /// `D3D11_MAP_FLAG_ALLOW_USAGE_DEFAULT`: `WriteNoOverwrite` (and, on the immediate context,
    /// read and write maps) of a default-usage buffer.
    AllowUsageDefault,
}

impl MapFlags {
    /// Whether default-usage buffers may be mapped.
    #[inline]
    pub fn allows_usage_default(self) -> bool {
        self == Self::AllowUsageDefault
    }
}

/// A vertex-buffer binding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VertexBuffer {
    /// The buffer bound at the slot; `None` unbinds it. It needs the vertex-buffer bind flag.
    pub buffer: Option<Buffer>,
    /// The distance in bytes from one vertex to the next.
    pub stride: u32,
    /// The byte offset of the first vertex in the buffer.
    pub offset: u32,
}

/// One binding of [`set_fast_resources`](crate::FastBindCalls::set_fast_resources)
/// (R-FX-1): a kind, its stage where it has one, a slot and what to bind (`None` unbinds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastResource {
    /// A constant buffer of a stage (`STAGE.cb.SLOT` in traces).
    ConstantBuffer {
        /// The stage.
        stage: Stage,
        /// The constant-buffer slot.
        slot: u32,
        /// The buffer; it needs the constant-buffer bind flag.
        buffer: Option<Buffer>,
    },
    /// A shader-resource view of a stage (`STAGE.srv.SLOT`).
    ShaderResource {
        /// The stage.
        stage: Stage,
        /// The shader-resource slot.
        slot: u32,
        /// The view.
        view: Option<ShaderResourceView>,
    },
    /// A sampler of a stage (`STAGE.sampler.SLOT`).
    Sampler {
        /// The stage.
        stage: Stage,
        /// The sampler slot.
        slot: u32,
        /// The sampler.
        sampler: Option<SamplerState>,
    },
    /// A vertex buffer (`vb.SLOT`).
    VertexBuffer {
        /// The vertex-buffer slot.
        slot: u32,
        /// The buffer, its stride and offset.
        buffer: VertexBuffer,
    },
}

impl FastResource {
    /// The objects the entry names.
    pub(crate) fn object(&self) -> Option<(ObjectKind, RawHandle)> {
        match *self {
            Self::ConstantBuffer { buffer, .. } => buffer.map(|b| (ObjectKind::Buffer, b.0)),
            Self::ShaderResource { view, .. } => {
                view.map(|v| (ObjectKind::ShaderResourceView, v.0))
            }
            Self::Sampler { sampler, .. } => sampler.map(|s| (ObjectKind::SamplerState, s.0)),
            Self::VertexBuffer { buffer, .. } => buffer.buffer.map(|b| (ObjectKind::Buffer, b.0)),
        }
    }
}

/// A reusable list of fast bindings (R-FX-1, `SetFastResourcesIntoBatch`): recorded by
/// [`FastBindCalls::set_fast_resources_into_batch`](crate::FastBindCalls::set_fast_resources_into_batch),
/// applied by [`FastBindCalls::set_fast_resources_from_batch`](crate::FastBindCalls::set_fast_resources_from_batch)
/// on any context of the device, as often as wanted. The application owns it; it holds no
/// reference on what it names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FastResourceBatch {
    pub(crate) entries: Vec<FastResource>,
}

impl FastResourceBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }
    /// The entries recorded so far, in order.
    pub fn entries(&self) -> &[FastResource] {
        &self.entries
    }
    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Forgets the entries, keeping the memory.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// A batch of `entries` as they are, unchecked (the replay of a trace's batches builds them so):
/// applying it checks every entry, as applying any batch does.
impl From<Vec<FastResource>> for FastResourceBatch {
    fn from(entries: Vec<FastResource>) -> Self {
        Self { entries }
    }
}

/// The predicate value of `set_predication` (D3D11's `PredicateValue`): rendering is skipped
/// while the predicate query's answer equals it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PredicateValue {
    /// Skip while the predicate answers `TRUE` (D3D11's `TRUE`).
    #[default]
    True,
    /// Skip while the predicate answers `FALSE` (D3D11's `FALSE`).
    False,
}

impl PredicateValue {
    /// The value as D3D11's `BOOL`.
    #[inline]
    pub fn as_bool(self) -> bool {
        self == Self::True
    }
}

/// What `set_resource_compression` declares of a texture's contents (R-ST-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// The texture holds compressed data (color or depth compression in force).
    Compressed,
    /// The texture holds no compressed data.
    Decompressed,
}

crate::desc::word_table! {
    Compression {
        Compressed => "compressed",
        Decompressed => "decompressed",
    }
}

impl Compression {
    /// Whether the texture is compressed.
    #[inline]
    pub fn is_compressed(self) -> bool {
        self == Self::Compressed
    }
}

/// The kinds of decompression a `decompress_resource_x` performs (R-ST-9; seed 000: "limit the
/// types of decompression performed (for instance, only gather the FMask in a compressed render
/// target)"). A set of bits; [`DecompressKinds::ALL`] is every kind the texture has.
///
/// Colour targets: [`CLEAR`](Self::CLEAR) (the fast-clear eliminate: the clear colour written
/// into the blocks a fast clear left in CMask, what a present needs "to propagate its initial
/// clear color"), [`FMASK`](Self::FMASK) (an MSAA target's FMask gathered into its samples) and
/// [`DCC`](Self::DCC) (delta colour compression, for a texture created with `dcc`). Depth
/// targets: [`DEPTH`](Self::DEPTH) and [`STENCIL`](Self::STENCIL), the HTile compression of each
/// plane (R-BAR-3 tracks the planes independently).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecompressKinds(u8);

impl DecompressKinds {
    /// The fast-clear eliminate of a colour target.
    pub const CLEAR: Self = Self(1);
    /// The FMask of a multisampled colour target.
    pub const FMASK: Self = Self(2);
    /// The delta colour compression of a `dcc` colour target.
    pub const DCC: Self = Self(4);
    /// The depth plane's compression.
    pub const DEPTH: Self = Self(8);
    /// The stencil plane's compression.
    pub const STENCIL: Self = Self(16);
    /// The colour kinds.
    pub const COLOR: Self = Self(1 | 2 | 4);
    /// The depth kinds.
    pub const DEPTH_STENCIL: Self = Self(8 | 16);
    /// Every kind the texture has: a full decompression.
    pub const ALL: Self = Self(31);
    /// No kind (refused by the call; the empty set of a mask).
    pub const NONE: Self = Self(0);

    /// The kinds in trace order, with their trace words.
    pub const NAMED: [(Self, &'static str); 5] = [
        (Self::CLEAR, "clear"),
        (Self::FMASK, "fmask"),
        (Self::DCC, "dcc"),
        (Self::DEPTH, "depth"),
        (Self::STENCIL, "stencil"),
    ];

    /// The bits, for a command payload.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The kinds of `bits` (bits past [`ALL`](Self::ALL) dropped).
    #[inline]
    pub const fn from_bits(bits: u8) -> Self {
        Self(bits & Self::ALL.0)
    }

    /// Whether every kind of `other` is in `self`.
    #[inline]
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether `self` and `other` share a kind.
    #[inline]
    pub const fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }

    /// The kinds of `self` not in `other`.
    #[inline]
    pub const fn without(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// The kinds of both.
    #[inline]
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The kinds in both.
    #[inline]
    pub const fn intersection(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// Whether no kind is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kind named `word` (`clear`, `fmask`, `dcc`, `depth`, `stencil`), or `all`.
    pub fn from_name(word: &str) -> Option<Self> {
        if word == "all" {
            return Some(Self::ALL);
        }
        Self::NAMED
            .iter()
            .find(|(_, n)| *n == word)
            .map(|(k, _)| *k)
    }
}

impl Default for DecompressKinds {
    fn default() -> Self {
        Self::ALL
    }
}

impl std::fmt::Display for DecompressKinds {
    /// `all`, or the kinds' words joined by commas (`fmask,clear`), in [`NAMED`](Self::NAMED)'s
    /// order; `none` for the empty set.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Self::ALL {
            return f.write_str("all");
        }
        if self.is_empty() {
            return f.write_str("none");
        }
        let mut first = true;
        for (kind, name) in Self::NAMED {
            if self.contains(kind) {
                if !first {
                    f.write_str(",")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

/// The sub-region a `decompress_resource_x` decompresses (R-ST-9): one subresource
/// (`mip + slice * mips`) and a rectangle of its texels (right and bottom excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecompressRegion {
    /// The subresource.
    pub subresource: u32,
    /// The texels; its `left <= right` and `top <= bottom`, within the subresource.
    pub rect: CopyBox,
}
