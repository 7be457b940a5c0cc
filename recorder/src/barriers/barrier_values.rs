//! Barriers (SPEC §9, seed 001): the enhanced barriers of D3D12 as Xbox Series X|S runs them, and
//! the legacy resource barriers beside them, as values and as the records a list stores.
//!
//! **In:** what `barrier(groups)` and `resource_barrier(barriers)` are given on any context
//! (R-BAR-1, R-BAR-6; the two calls are in `barrier_calls.rs`). **Out:** one command per call
//! (`Opcode::Barrier`, `Opcode::ResourceBarrier`) whose items are
//! the barriers as [`BarrierRecord`] / [`ResourceBarrierRecord`], read in place by the GPU model
//! (the executor's `gpu/barrier.rs`), which owns what a barrier does: drains, stalls, cache
//! work, layouts and compression (R-BAR-2..4), the legacy translation (R-BAR-6) and the
//! validation of R-BAR-8, where the layouts it checks against are known.
//!
//! **Invariants.** Recording a barrier checks only what the recorder knows: the context may
//! record one (a bundle may not, R-BAR-1), the resources it names are live (a legacy list holds a
//! reference on each, R-OBJ-4), and the call fits one command. Everything else is the model's
//! at execution, so a deferred list's barriers are checked against the state they meet there.
//!
//! The values are the D3D12 enumerators (`D3D12_BARRIER_SYNC`, `D3D12_BARRIER_ACCESS`,
//! `D3D12_BARRIER_LAYOUT`, `D3D12_RESOURCE_STATES`) with their bit values, names in snake case.

use crate::desc::word_table;
use crate::device::handle::Resource;

/// Declares a set of D3D12 flags: a `u32` newtype, its named values and their words.
macro_rules! flags {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $value:ident = $bits:expr, $word:literal;)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        #[repr(transparent)]
        pub struct $name(pub u32);

        impl $name {
            $($(#[$vmeta])* pub const $value: Self = Self($bits);)*

            /// Every named value and its word (the D3D12 enumerator in snake case), in the
            /// enumerator's order; a value named twice (an alias) appears under each name.
            pub const NAMED: &'static [(&'static str, Self)] = &[$(($word, Self::$value)),*];

            /// Whether every flag of `other` is set here.
            #[inline]
            pub const fn contains(self, other: Self) -> bool {
                self.0 & other.0 == other.0
            }

            /// Whether any flag of `other` is set here.
            #[inline]
            pub const fn intersects(self, other: Self) -> bool {
                self.0 & other.0 != 0
            }

            /// No flag set.
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }
        }

        impl crate::WordTable for $name {
            const WORDS: &'static [(&'static str, Self)] = Self::NAMED;
        }

        impl std::ops::BitOr for $name {
            type Output = Self;
            #[inline]
            fn bitor(self, other: Self) -> Self {
                Self(self.0 | other.0)
            }
        }

        impl std::ops::BitOrAssign for $name {
            #[inline]
            fn bitor_assign(&mut self, other: Self) {
                self.0 |= other.0;
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self)
            }
        }

        /// The words of the flags set, joined by `+` (the trace form); the zero value's word
        /// when none is; bits without a name in hexadecimal.
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                if self.0 == 0 {
                    let zero = Self::NAMED.iter().find(|(_, v)| v.0 == 0);
                    return f.write_str(zero.map_or("0", |(word, _)| *word));
                }
                let mut rest = self.0;
                let mut first = true;
                for (word, value) in Self::NAMED {
                    if value.0 != 0 && rest & value.0 == value.0 {
                        if !first {
                            f.write_str("+")?;
                        }
                        f.write_str(word)?;
                        first = false;
                        rest &= !value.0;
                    }
                }
                if rest != 0 {
                    if !first {
                        f.write_str("+")?;
                    }
                    write!(f, "{rest:#x}")?;
                }
                Ok(())
            }
        }
    };
}

flags! {
    /// `D3D12_BARRIER_SYNC`: the pipeline work a barrier waits for (before) or holds (after).
    BarrierSync {
        /// No work: nothing to wait for, or nothing to hold.
        NONE = 0, "none";
        /// All work.
        ALL = 0x1, "all";
        /// Every stage of a draw.
        DRAW = 0x2, "draw";
        /// Index (input assembler) reads.
        INDEX_INPUT = 0x4, "index_input";
        /// Vertex, hull, domain and geometry shading.
        VERTEX_SHADING = 0x8, "vertex_shading";
        /// Pixel shading.
        PIXEL_SHADING = 0x10, "pixel_shading";
        /// Depth-stencil reads and writes.
        DEPTH_STENCIL = 0x20, "depth_stencil";
        /// Render-target reads and writes.
        RENDER_TARGET = 0x40, "render_target";
        /// Compute shading.
        COMPUTE_SHADING = 0x80, "compute_shading";
        /// Ray tracing.
        RAYTRACING = 0x100, "raytracing";
        /// Copies.
        COPY = 0x200, "copy";
        /// Resolves.
        RESOLVE = 0x400, "resolve";
        /// Indirect-argument reads.
        EXECUTE_INDIRECT = 0x800, "execute_indirect";
        /// Predication reads (the same bit as `EXECUTE_INDIRECT`, as in D3D12).
        PREDICATION = 0x800, "predication";
        /// Every shading stage.
        ALL_SHADING = 0x1000, "all_shading";
        /// Every shading stage but pixel shading.
        NON_PIXEL_SHADING = 0x2000, "non_pixel_shading";
        /// `ClearUnorderedAccessView*`.
        CLEAR_UNORDERED_ACCESS_VIEW = 0x8000, "clear_unordered_access_view";
        /// The begin or the end of a split barrier (R-BAR-4).
        SPLIT = 0x8000_0000, "split";
    }
}

flags! {
    /// `D3D12_BARRIER_ACCESS`: how a resource was used before a barrier, and will be after.
    /// `COMMON` (zero) is any access the layout allows; `NO_ACCESS` is none at all.
    BarrierAccess {
        /// Any access compatible with the layout.
        COMMON = 0, "common";
        /// Vertex-buffer reads.
        VERTEX_BUFFER = 0x1, "vertex_buffer";
        /// Constant-buffer reads.
        CONSTANT_BUFFER = 0x2, "constant_buffer";
        /// Index-buffer reads.
        INDEX_BUFFER = 0x4, "index_buffer";
        /// Render-target writes.
        RENDER_TARGET = 0x8, "render_target";
        /// Unordered-access reads and writes.
        UNORDERED_ACCESS = 0x10, "unordered_access";
        /// Depth-stencil writes.
        DEPTH_STENCIL_WRITE = 0x20, "depth_stencil_write";
        /// Depth-stencil reads.
        DEPTH_STENCIL_READ = 0x40, "depth_stencil_read";
        /// Shader-resource reads.
        SHADER_RESOURCE = 0x80, "shader_resource";
        /// Stream-output writes.
        STREAM_OUTPUT = 0x100, "stream_output";
        /// Indirect-argument reads.
        INDIRECT_ARGUMENT = 0x200, "indirect_argument";
        /// Predication reads (the same bit as `INDIRECT_ARGUMENT`, as in D3D12).
        PREDICATION = 0x200, "predication";
        /// Copy destination.
        COPY_DEST = 0x400, "copy_dest";
        /// Copy source.
        COPY_SOURCE = 0x800, "copy_source";
        /// Resolve destination.
        RESOLVE_DEST = 0x1000, "resolve_dest";
        /// Resolve source.
        RESOLVE_SOURCE = 0x2000, "resolve_source";
        /// No access: the resource is not used (it may be discarded, or aliased away).
        NO_ACCESS = 0x8000_0000, "no_access";
    }
}

flags! {
    /// `D3D12_RESOURCE_STATES`: a legacy barrier's state before and after (R-BAR-6).
    ResourceStates {
        /// `COMMON` (and `PRESENT`, the same value).
        COMMON = 0, "common";
        /// Vertex and constant buffers.
        VERTEX_AND_CONSTANT_BUFFER = 0x1, "vertex_and_constant_buffer";
        /// Index buffer.
        INDEX_BUFFER = 0x2, "index_buffer";
        /// Render target.
        RENDER_TARGET = 0x4, "render_target";
        /// Unordered access.
        UNORDERED_ACCESS = 0x8, "unordered_access";
        /// Depth writes.
        DEPTH_WRITE = 0x10, "depth_write";
        /// Depth reads.
        DEPTH_READ = 0x20, "depth_read";
        /// Shader resource for every stage but pixel shading.
        NON_PIXEL_SHADER_RESOURCE = 0x40, "non_pixel_shader_resource";
        /// Shader resource for pixel shading.
        PIXEL_SHADER_RESOURCE = 0x80, "pixel_shader_resource";
        /// Stream output.
        STREAM_OUT = 0x100, "stream_out";
        /// Indirect arguments (and predication, the same value).
        INDIRECT_ARGUMENT = 0x200, "indirect_argument";
        /// Copy destination.
        COPY_DEST = 0x400, "copy_dest";
        /// Copy source.
        COPY_SOURCE = 0x800, "copy_source";
        /// Resolve destination.
        RESOLVE_DEST = 0x1000, "resolve_dest";
        /// Resolve source.
        RESOLVE_SOURCE = 0x2000, "resolve_source";
        /// Every read state: vertex and constant, index, both shader resources, indirect
        /// argument, copy source.
        GENERIC_READ = 0xAC3, "generic_read";
        /// `PRESENT`: `COMMON` by another name.
        PRESENT = 0, "present";
    }
}

/// `D3D12_BARRIER_LAYOUT`: how a texture's subresources are laid out for the work that uses
/// them, which sets their compression (R-BAR-3). `PRESENT` is `Common` (the same value in
/// D3D12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
#[allow(missing_docs)] // the D3D12 enumerators, one for one
pub enum BarrierLayout {
    /// The contents do not matter (any layout may be left from it; `discard` initialises).
    Undefined,
    /// Where a texture starts (and what a legacy `COMMON` state stands for).
    #[default]
    Common,
    GenericRead,
    RenderTarget,
    UnorderedAccess,
    DepthStencilWrite,
    DepthStencilRead,
    ShaderResource,
    CopySource,
    CopyDest,
    ResolveSource,
    ResolveDest,
    DirectQueueCommon,
    DirectQueueGenericRead,
    DirectQueueUnorderedAccess,
    DirectQueueShaderResource,
    DirectQueueCopySource,
    DirectQueueCopyDest,
    ComputeQueueCommon,
    ComputeQueueGenericRead,
    ComputeQueueUnorderedAccess,
    ComputeQueueShaderResource,
    ComputeQueueCopySource,
    ComputeQueueCopyDest,
}

impl BarrierLayout {
    /// `D3D12_BARRIER_LAYOUT_PRESENT`: the same value as `COMMON`.
    pub const PRESENT: Self = Self::Common;

    /// The layout encoded as `value` (`as u8`), if it is one.
    pub fn from_u8(value: u8) -> Option<Self> {
        Self::ALL.get(value as usize).copied()
    }
}

// `ALL` is in the order of the enumerators (`as u8` indexes it); `present` parses as `Common`.
word_table! {
    BarrierLayout {
        Undefined => "undefined",
        Common => "common" | "present",
        GenericRead => "generic_read",
        RenderTarget => "render_target",
        UnorderedAccess => "unordered_access",
        DepthStencilWrite => "depth_stencil_write",
        DepthStencilRead => "depth_stencil_read",
        ShaderResource => "shader_resource",
        CopySource => "copy_source",
        CopyDest => "copy_dest",
        ResolveSource => "resolve_source",
        ResolveDest => "resolve_dest",
        DirectQueueCommon => "direct_queue_common",
        DirectQueueGenericRead => "direct_queue_generic_read",
        DirectQueueUnorderedAccess => "direct_queue_unordered_access",
        DirectQueueShaderResource => "direct_queue_shader_resource",
        DirectQueueCopySource => "direct_queue_copy_source",
        DirectQueueCopyDest => "direct_queue_copy_dest",
        ComputeQueueCommon => "compute_queue_common",
        ComputeQueueGenericRead => "compute_queue_generic_read",
        ComputeQueueUnorderedAccess => "compute_queue_unordered_access",
        ComputeQueueShaderResource => "compute_queue_shader_resource",
        ComputeQueueCopySource => "compute_queue_copy_source",
        ComputeQueueCopyDest => "compute_queue_copy_dest",
    }
}

/// An inclusive range of one dimension of a texture's subresources (mips, array slices or
/// planes); [`Span::ALL`] is every one, whatever the texture has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first index.
    pub first: u16,
    /// The last index, included.
    pub last: u16,
}

impl Span {
    /// Every index of the dimension.
    pub const ALL: Self = Self {
        first: 0,
        last: u16::MAX,
    };

    /// `first..=last`.
    pub const fn new(first: u16, last: u16) -> Self {
        Self { first, last }
    }

    /// Whether this is [`Span::ALL`].
    pub const fn is_all(self) -> bool {
        self.first == 0 && self.last == u16::MAX
    }
}

impl Default for Span {
    fn default() -> Self {
        Self::ALL
    }
}

/// The subresources a texture barrier names: mips, array slices and planes (0: depth or colour,
/// 1: stencil), each inclusive (`D3D12_BARRIER_SUBRESOURCE_RANGE`). The default is all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BarrierSubresources {
    /// Mip levels.
    pub mips: Span,
    /// Array slices.
    pub array: Span,
    /// Planes.
    pub planes: Span,
}

impl BarrierSubresources {
    /// Every subresource.
    pub const ALL: Self = Self {
        mips: Span::ALL,
        array: Span::ALL,
        planes: Span::ALL,
    };
}

/// A global barrier (`D3D12_GLOBAL_BARRIER`): synchronisation and cache work for every
/// resource, no layout change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GlobalBarrier {
    /// The work to wait for.
    pub sync_before: BarrierSync,
    /// The work to hold until the barrier is done.
    pub sync_after: BarrierSync,
    /// How resources were used before.
    pub access_before: BarrierAccess,
    /// How they will be used after.
    pub access_after: BarrierAccess,
}

/// A buffer barrier (`D3D12_BUFFER_BARRIER`). `resource` is any resource: a texture is the
/// model's `invalid_barrier` under validation, not a type error (a trace can name one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferBarrier {
    /// The work to wait for.
    pub sync_before: BarrierSync,
    /// The work to hold.
    pub sync_after: BarrierSync,
    /// How the buffer was used before.
    pub access_before: BarrierAccess,
    /// How it will be used after.
    pub access_after: BarrierAccess,
    /// The buffer.
    pub resource: Resource,
    /// Always 0 in D3D12.
    pub offset: u64,
    /// Bytes from `offset`; [`BufferBarrier::WHOLE`] for the whole buffer.
    pub size: u64,
}

impl BufferBarrier {
    /// `size` for the whole buffer (`UINT64_MAX`, as in D3D12).
    pub const WHOLE: u64 = u64::MAX;
}

/// A texture barrier (`D3D12_TEXTURE_BARRIER`): synchronisation, cache work and a layout change
/// of some subresources. `resource` is any resource: a buffer is the model's `invalid_barrier`
/// under validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureBarrier {
    /// The work to wait for.
    pub sync_before: BarrierSync,
    /// The work to hold.
    pub sync_after: BarrierSync,
    /// How the subresources were used before.
    pub access_before: BarrierAccess,
    /// How they will be used after.
    pub access_after: BarrierAccess,
    /// Their layout before (`Undefined`: the contents are not kept).
    pub layout_before: BarrierLayout,
    /// Their layout after.
    pub layout_after: BarrierLayout,
    /// The texture.
    pub resource: Resource,
    /// The subresources changed.
    pub subresources: BarrierSubresources,
    /// `D3D12_TEXTURE_BARRIER_FLAG_DISCARD`: initialise the metadata instead of keeping the
    /// contents (only from `Undefined`, R-BAR-3).
    pub discard: bool,
}

/// One group of a `barrier` call: barriers of one type (`D3D12_BARRIER_GROUP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierGroup<'a> {
    /// Global barriers.
    Global(&'a [GlobalBarrier]),
    /// Buffer barriers.
    Buffer(&'a [BufferBarrier]),
    /// Texture barriers.
    Texture(&'a [TextureBarrier]),
}

impl BarrierGroup<'_> {
    /// How many barriers the group holds.
    pub fn len(&self) -> usize {
        match self {
            Self::Global(b) => b.len(),
            Self::Buffer(b) => b.len(),
            Self::Texture(b) => b.len(),
        }
    }

    /// Whether it holds none (a warning under validation, R-BAR-8).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Which half of a split legacy transition (`D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY` /
/// `END_ONLY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum SplitHalf {
    /// Not split.
    #[default]
    None,
    /// The begin.
    Begin,
    /// The end.
    End,
}

// A trace writes no `split=` for an unsplit transition: it never writes `none`.
word_table! {
    SplitHalf {
        None => "none",
        Begin => "begin",
        End => "end",
    }
}

/// A legacy resource barrier (`D3D12_RESOURCE_BARRIER`), translated to an enhanced one by the
/// model (R-BAR-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceBarrier {
    /// A state transition of one subresource (`Some(index)`) or all of them.
    Transition {
        /// The resource.
        resource: Resource,
        /// Its state before.
        before: ResourceStates,
        /// Its state after.
        after: ResourceStates,
        /// One subresource (`D3D12CalcSubresource` order), or all.
        subresource: Option<u32>,
        /// Which half of a split barrier, if split.
        split: SplitHalf,
    },
    /// UAV accesses of `resource` (any, for `None`) finish before later ones start.
    Uav {
        /// The resource.
        resource: Option<Resource>,
    },
    /// `before`'s memory becomes `after`'s (placed resources, R-BAR-7); `None` is any.
    Aliasing {
        /// The resource deactivated.
        before: Option<Resource>,
        /// The resource activated.
        after: Option<Resource>,
    },
}

/// The three types of enhanced barrier, as [`BarrierRecord::kind`](crate::BarrierRecord::kind) holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BarrierKind {
    /// `D3D12_BARRIER_TYPE_GLOBAL`.
    Global = 0,
    /// `D3D12_BARRIER_TYPE_BUFFER`.
    Buffer = 1,
    /// `D3D12_BARRIER_TYPE_TEXTURE`.
    Texture = 2,
}
