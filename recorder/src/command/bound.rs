//! The bound descriptors: what a command carries of each object it binds or names, copied in at
//! record time. A bound view carries its resource, the dynamic instance it reads, its format and
//! its minimum LOD; a bound shader the slots it reads; so execution chases no object tables except
//! to resolve split points. With them, what a decoded command holds in their place: the buffers
//! of a slot-array bind as an array or the one of a compact command ([`BoundBuffers`]), and a
//! nested list as the command names it ([`NestedList`]).
//!
//! **In:** a recording call's resolved objects (`binds/resolve.rs` makes most of them). **Out:**
//! `repr(C)` descriptors, multiples of 8 bytes, that the payloads (`payload.rs`) and the
//! slot-array commands' trailing arrays hold, and that the typed [`Command`](super::Command)s,
//! the binding state and the draw records read back unchanged.
//!
//! **Invariant.** A descriptor names which write of a dynamic resource it reads ([`InstanceId`]):
//! a command whose header has a split category is a split point (R-SP-1), whose descriptor holds
//! [`InstanceId::RESOLVE_AT_EXECUTION`] until execution patches it (`patch.rs`), found through a
//! side record in the chunk without walking the commands around it. The sizes are pinned here
//! (a list's bytes depend on them).

use std::marker::PhantomData;
use std::ptr::NonNull;

use crate::desc::Format;
use crate::device::handle::{ObjectKind, RawHandle};

/// Which write of a dynamic resource a binding reads (R-ST-8, R-REC-10).
///
/// `INITIAL` is the contents at creation (and the only instance of a non-dynamic resource);
/// `RESOLVE_AT_EXECUTION` marks a dynamic binding of a split point, patched at execution with the
/// immediate context's current instance (R-SP-4). Any other value names the `serial`-th
/// write_discard map recorded by the context with serial `recorder`; its data travels with the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct InstanceId(pub u64);

impl InstanceId {
    /// The contents at creation; the only instance of a non-dynamic resource.
    pub const INITIAL: Self = Self(0);
    /// A dynamic binding of a split point, patched at execution with the executing context's
    /// current
    /// instance (R-SP-4).
    pub const RESOLVE_AT_EXECUTION: Self = Self(u64::MAX);

    /// The `serial`-th write_discard map recorded by the context with serial `recorder`.
    pub const fn new(recorder: u32, serial: u32) -> Self {
        Self((recorder as u64) << 32 | serial as u64)
    }
    /// The serial of the context that recorded the map.
    pub const fn recorder(self) -> u32 {
        (self.0 >> 32) as u32
    }
    /// Which of that context's maps, counted from 1.
    pub const fn serial(self) -> u32 {
        self.0 as u32
    }

    /// The largest address a placement may give (R-FX-2): the two top bits of an instance tell
    /// a placed instance from a map's and from [`RESOLVE_AT_EXECUTION`](Self::RESOLVE_AT_EXECUTION).
    pub const MAX_PLACEMENT_ADDRESS: u64 = (1 << 62) - 1;
    /// The tag bits of a placed instance.
    const PLACED: u64 = 1 << 63;

    /// The instance a placement call gives a default resource: its bytes at `address`, which
    /// the application manages (R-FX-2). `address` is at most
    /// [`MAX_PLACEMENT_ADDRESS`](Self::MAX_PLACEMENT_ADDRESS) (the placement calls refuse more).
    pub const fn placed(address: u64) -> Self {
        Self(Self::PLACED | (address & Self::MAX_PLACEMENT_ADDRESS))
    }

    /// The address of a placed instance (R-FX-2), or `None` for any other.
    pub const fn placement(self) -> Option<u64> {
        if self.0 >> 62 == 0b10 {
            Some(self.0 & Self::MAX_PLACEMENT_ADDRESS)
        } else {
            None
        }
    }
}

/// A buffer bound as vertex, index or constant buffer, or read by an indirect draw or a copy.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BoundBuffer {
    /// The buffer; null for an empty slot.
    pub buffer: RawHandle,
    /// The instance of it that is read (R-ST-8).
    pub instance: InstanceId,
    /// Byte offset of the first element read.
    pub offset: u32,
    /// Vertex stride, or the index format (as `Format as u32`).
    pub stride_or_format: u32,
}

impl BoundBuffer {
    /// An empty slot: what binding `None` writes.
    pub const NULL: Self = Self {
        buffer: RawHandle::NULL,
        instance: InstanceId::INITIAL,
        offset: 0,
        stride_or_format: 0,
    };
    /// The index format of an index buffer (from `stride_or_format`).
    pub fn index_format(&self) -> Format {
        Format::from_u16(self.stride_or_format as u16)
    }
}

/// Properties of a bound view, copied from the view and its resource at bind time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(transparent)]
pub struct ViewFlags(pub u8);

impl ViewFlags {
    /// The view's resource is a buffer (else a texture).
    pub const BUFFER: u8 = 1 << 0;
    /// The resource has dynamic usage.
    pub const DYNAMIC: u8 = 1 << 1;
    /// The resource is a compressible render target or depth stencil, and this view's access
    /// needs it decompressed (R-SP-2): every view but an SRV of a texture-compatible target,
    /// which shaders read compressed (R-ST-9).
    pub const COMPRESSIBLE_TARGET: u8 = 1 << 2;
    /// The resource is texture compatible (TC).
    pub const TEXTURE_COMPATIBLE: u8 = 1 << 3;
    /// The resource is a back buffer of a swap chain (R-EX-7).
    pub const BACK_BUFFER: u8 = 1 << 4;
    /// A buffer UAV with an append or counter flag (R-ST-7).
    pub const HIDDEN_COUNTER: u8 = 1 << 5;

    /// Whether `flag` (one of the constants above) is set.
    #[inline]
    pub const fn has(self, flag: u8) -> bool {
        self.0 & flag != 0
    }
}

/// A view bound to a slot (SRV, UAV, RTV or DSV), or cleared.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BoundView {
    /// The view; null for an empty slot.
    pub view: RawHandle,
    /// The view's resource.
    pub resource: RawHandle,
    /// The instance of the resource that is read (R-ST-8).
    pub instance: InstanceId,
    /// Minimum LOD in force at bind time: the resource's under legacy, the view's under fast (R-ST-6).
    pub min_lod: f32,
    /// The view's format.
    pub format: Format,
    /// Properties of the view and its resource.
    pub flags: ViewFlags,
    /// The view's first (most detailed) mip level, clamped to 255.
    pub first_mip: u8,
}

impl BoundView {
    /// An empty slot: what binding `None` writes.
    pub const NULL: Self = Self {
        view: RawHandle::NULL,
        resource: RawHandle::NULL,
        instance: InstanceId::INITIAL,
        min_lod: 0.0,
        format: Format::Unknown,
        flags: ViewFlags(0),
        first_mip: 0,
    };
}

const _: () = assert!(std::mem::size_of::<BoundBuffer>() == 24);
const _: () = assert!(std::mem::size_of::<BoundView>() == 32);

/// A shader bound to a stage, with the slots it reads copied in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct BoundShader {
    /// The shader; null for an unbound stage.
    pub shader: RawHandle,
    /// Shader-resource slots read, as two words (a `u128` would need 16-byte alignment).
    pub shader_resource_words: [u64; 2],
    /// Bit `i`: the shader accesses UAV slot `i`.
    pub unordered_access_views: u64,
    /// Bit `i`: the shader reads constant-buffer slot `i`.
    pub constant_buffers: u16,
    /// Bit `i`: the shader reads sampler slot `i`.
    pub samplers: u16,
    /// The shader writes stream output.
    pub stream_output: bool,
    _reserved: [u8; 3],
}

impl BoundShader {
    /// Bit `i`: the shader reads shader-resource slot `i`.
    pub fn shader_resources(&self) -> u128 {
        self.shader_resource_words[0] as u128 | (self.shader_resource_words[1] as u128) << 64
    }

    /// An unbound stage: what binding `None` writes.
    pub const NULL: Self = Self {
        shader: RawHandle::NULL,
        shader_resource_words: [0; 2],
        unordered_access_views: 0,
        constant_buffers: 0,
        samplers: 0,
        stream_output: false,
        _reserved: [0; 3],
    };

    pub(crate) fn new(
        shader: RawHandle,
        constant_buffers: u16,
        shader_resources: u128,
        samplers: u16,
        unordered_access_views: u64,
        stream_output: bool,
    ) -> Self {
        Self {
            shader,
            shader_resource_words: [shader_resources as u64, (shader_resources >> 64) as u64],
            unordered_access_views,
            constant_buffers,
            samplers,
            stream_output,
            _reserved: [0; 3],
        }
    }
}

/// A resource named by a copy, a map or a compression call.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BoundResource {
    /// The resource.
    pub resource: RawHandle,
    /// The instance read (a copy's source), or the one a write_discard map makes.
    pub instance: InstanceId,
    /// 0 for a buffer, 1 for a texture.
    pub is_texture: u32,
    /// Payload bytes that follow (maps and updates), else 0.
    pub data_len: u32,
}

impl BoundResource {
    /// Which kind of object the resource is: a texture or a buffer.
    pub fn kind(&self) -> ObjectKind {
        match self.is_texture {
            0 => ObjectKind::Buffer,
            _ => ObjectKind::Texture,
        }
    }
}

/// The buffers of a slot-array buffer bind, one per slot: the command's own array in the chunk,
/// or the one buffer of a compact command
/// ([`Opcode::SetConstantBuffer`](super::Opcode::SetConstantBuffer),
/// [`Opcode::SetVertexBuffer`](super::Opcode::SetVertexBuffer)), decoded by value. Either way it
/// reads as a slice (`Deref`), and two are equal when their slices are.
#[derive(Clone, Copy)]
pub enum BoundBuffers<'a> {
    /// The buffers of a command that encodes them as an array.
    Array(&'a [BoundBuffer]),
    /// The one buffer of a compact command.
    One(BoundBuffer),
}

impl std::ops::Deref for BoundBuffers<'_> {
    type Target = [BoundBuffer];

    #[inline(always)]
    fn deref(&self) -> &[BoundBuffer] {
        match self {
            Self::Array(buffers) => buffers,
            Self::One(buffer) => std::slice::from_ref(buffer),
        }
    }
}

impl<'a> From<&'a [BoundBuffer]> for BoundBuffers<'a> {
    fn from(buffers: &'a [BoundBuffer]) -> Self {
        Self::Array(buffers)
    }
}

impl<'a, const N: usize> From<&'a [BoundBuffer; N]> for BoundBuffers<'a> {
    fn from(buffers: &'a [BoundBuffer; N]) -> Self {
        Self::Array(buffers)
    }
}

impl PartialEq for BoundBuffers<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for BoundBuffers<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// A nested list as the command that executes it names it (R-REC-9): the address of its header,
/// as the command encodes it. The outer list holds a reference on the inner one for its whole
/// life, so the inner list outlives this borrow; `list/` gives it its meaning
/// (`NestedList::to_list`, `NestedList::header_ptr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NestedList<'a> {
    pub(crate) header: NonNull<u8>,
    _outer: PhantomData<&'a ()>,
}

impl NestedList<'_> {
    /// # Safety
    /// `header` must be the non-null address of a list header that a reference held by the
    /// outer list keeps alive for `'a`.
    pub(super) unsafe fn from_address(header: usize) -> Self {
        Self {
            // SAFETY: the caller passes an address recorded from `CommandList::header_ptr`, which
            // is never null.
            header: unsafe { NonNull::new_unchecked(header as *mut u8) },
            _outer: PhantomData,
        }
    }
}
