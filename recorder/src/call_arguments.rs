//! What the calls take besides objects and numbers: a vertex-buffer binding
//! ([`VertexBuffer`]), the entries of a fast bind and a reusable batch of them
//! ([`FastResource`], [`FastResourceBatch`]), a predicate value, a compression state and map
//! flags.
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
