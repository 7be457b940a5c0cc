//! Handles: `Copy` values of an index and a generation (R-OBJ-3). A handle never owns anything;
//! the device's object tables say whether the object it names is still alive, so any use of a
//! released object is detected, never undefined behaviour.
//!
//! The generation's high [`DEVICE_TAG_BITS`](crate::limits::DEVICE_TAG_BITS) bits are the tag of
//! the device that made the handle (`device/device_identity.rs`: no two live devices share one), the low bits
//! count the reuses of the slot. Every slot of a device's tables carries its device's tag, so
//! the one generation comparison a lookup makes refuses a stale handle and another device's
//! handle alike, at no extra cost; only the cold error path tells the two apart.

use std::fmt;

use crate::limits::GENERATION_COUNT_BITS;

/// The kinds of objects a device creates. Each kind has its own table and index space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ObjectKind {
    /// A buffer.
    Buffer = 0,
    /// A 2D texture.
    Texture,
    /// A shader-resource view.
    ShaderResourceView,
    /// An unordered-access view.
    UnorderedAccessView,
    /// A render-target view.
    RenderTargetView,
    /// A depth-stencil view.
    DepthStencilView,
    /// A shader.
    Shader,
    /// An input layout.
    InputLayout,
    /// A blend state.
    BlendState,
    /// A rasterizer state.
    RasterizerState,
    /// A depth-stencil state.
    DepthStencilState,
    /// A sampler state.
    SamplerState,
    /// A query or predicate.
    Query,
    /// A swap chain.
    SwapChain,
    /// A finished draw bundle (R-B-10), registered so that lists call it by handle.
    Bundle,
    /// A heap that placed resources share (R-BAR-7).
    Heap,
}

impl ObjectKind {
    /// The number of kinds (one object table each).
    pub const COUNT: usize = 16;

    /// The name used in messages and traces.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Buffer => "buffer",
            Self::Texture => "texture",
            Self::ShaderResourceView => "shader-resource view",
            Self::UnorderedAccessView => "unordered-access view",
            Self::RenderTargetView => "render-target view",
            Self::DepthStencilView => "depth-stencil view",
            Self::Shader => "shader",
            Self::InputLayout => "input layout",
            Self::BlendState => "blend state",
            Self::RasterizerState => "rasterizer state",
            Self::DepthStencilState => "depth-stencil state",
            Self::SamplerState => "sampler state",
            Self::Query => "query",
            Self::SwapChain => "swap chain",
            Self::Bundle => "draw bundle",
            Self::Heap => "heap",
        }
    }
}

/// Index and generation of an object in its kind's table. The generation changes when the object
/// is destroyed, so a stale handle never names the object that later reuses the slot.
// `PartialEq` is written out below (one compare of the packed word, the same equality as the
// fields'), so the derived `Hash`, which hashes the fields, agrees with it.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Clone, Copy, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct RawHandle {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

/// Field-wise equality as one compare of the packed word: the derived form compared the two
/// fields apart, two compares and a branch on every bind's "same object as the slot holds?".
impl PartialEq for RawHandle {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl RawHandle {
    /// The null handle: encoded where a slot is bound to nothing.
    pub const NULL: RawHandle = RawHandle {
        index: u32::MAX,
        generation: 0,
    };

    #[inline]
    /// Whether this is [`RawHandle::NULL`].
    pub const fn is_null(self) -> bool {
        self.index == u32::MAX
    }
    #[inline]
    /// The object's index in its kind's table.
    pub const fn index(self) -> u32 {
        self.index
    }
    /// The whole generation: the device's tag and the slot's reuse count.
    #[inline]
    pub const fn generation(self) -> u32 {
        self.generation
    }
    /// The tag of the device the handle belongs to (0 for the null handle).
    #[inline]
    pub const fn device_tag(self) -> u8 {
        (self.generation >> GENERATION_COUNT_BITS) as u8
    }
    /// The generation without the device's tag: how often the slot was reused.
    #[inline]
    pub const fn reuse_count(self) -> u32 {
        self.generation & ((1 << GENERATION_COUNT_BITS) - 1)
    }
    /// Packs the handle into one word, as encoded commands carry it.
    #[inline]
    pub const fn to_bits(self) -> u64 {
        (self.generation as u64) << 32 | self.index as u64
    }
    #[inline]
    /// The handle packed by [`to_bits`](Self::to_bits).
    pub const fn from_bits(bits: u64) -> Self {
        Self {
            index: bits as u32,
            generation: (bits >> 32) as u32,
        }
    }
}

impl fmt::Debug for RawHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            f.write_str("null")
        } else {
            write!(
                f,
                "#{}g{}d{}",
                self.index,
                self.reuse_count(),
                self.device_tag()
            )
        }
    }
}

/// A handle of one kind. Implemented by every typed handle.
pub trait Handle: Copy + fmt::Debug + Eq + std::hash::Hash + Send + Sync + 'static {
    /// The kind of object the handle names.
    const KIND: ObjectKind;
    /// The untyped handle.
    fn raw(self) -> RawHandle;
    /// The typed handle of `raw` (not checked: a wrong kind is refused at its first use).
    fn from_raw(raw: RawHandle) -> Self;
}

macro_rules! handles {
    ($($(#[$doc:meta])* $name:ident => $kind:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(transparent)]
        pub struct $name(pub(crate) RawHandle);

        impl Handle for $name {
            const KIND: ObjectKind = ObjectKind::$kind;
            #[inline]
            fn raw(self) -> RawHandle { self.0 }
            #[inline]
            fn from_raw(raw: RawHandle) -> Self { Self(raw) }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($name), "({:?})"), self.0)
            }
        }
    )*};
}

handles! {
    /// A buffer (vertex, index, constant, structured, ...).
    Buffer => Buffer;
    /// A 2D texture, render target or depth stencil.
    Texture => Texture;
    /// A shader-resource view (SRV).
    ShaderResourceView => ShaderResourceView;
    /// An unordered-access view (UAV).
    UnorderedAccessView => UnorderedAccessView;
    /// A render-target view (RTV).
    RenderTargetView => RenderTargetView;
    /// A depth-stencil view (DSV).
    DepthStencilView => DepthStencilView;
    /// A shader of one stage, with the slots it reads.
    Shader => Shader;
    /// An input layout, with the vertex-buffer slots it reads.
    InputLayout => InputLayout;
    /// A blend state object.
    BlendState => BlendState;
    /// A rasterizer state object.
    RasterizerState => RasterizerState;
    /// A depth-stencil state object.
    DepthStencilState => DepthStencilState;
    /// A sampler state object.
    SamplerState => SamplerState;
    /// A query; predicates are queries of kind [`crate::QueryKind::Predicate`].
    Query => Query;
    /// A swap chain with its back buffers.
    SwapChain => SwapChain;
    /// A finished draw bundle as lists call it (`bundles::DrawBundle` owns it).
    BundleHandle => Bundle;
    /// A heap of memory that placed buffers and textures share (R-BAR-7).
    Heap => Heap;
}

/// A resource: what copies, maps and compression calls take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resource {
    /// A buffer.
    Buffer(Buffer),
    /// A texture.
    Texture(Texture),
}

impl Resource {
    /// `Buffer` or `Texture`.
    pub fn kind(self) -> ObjectKind {
        match self {
            Self::Buffer(_) => ObjectKind::Buffer,
            Self::Texture(_) => ObjectKind::Texture,
        }
    }
    /// The untyped handle.
    pub fn raw(self) -> RawHandle {
        match self {
            Self::Buffer(b) => b.0,
            Self::Texture(t) => t.0,
        }
    }
}

impl From<Buffer> for Resource {
    fn from(b: Buffer) -> Self {
        Self::Buffer(b)
    }
}
impl From<Texture> for Resource {
    fn from(t: Texture) -> Self {
        Self::Texture(t)
    }
}
