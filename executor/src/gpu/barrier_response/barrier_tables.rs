//! The tables of the barrier model (`gpu/barrier_response.rs` explains them): caches by access
//! (R-BAR-2), the D3D12 layout-access and access-sync compatibility tables (R-BAR-8), the layouts
//! that keep a texture compressed (R-BAR-3), and the legacy-state equivalences (R-BAR-6, the
//! D3D12 Enhanced Barriers spec's tables).

use recorder::{BarrierAccess, BarrierLayout, BarrierSync, ResourceStates};

/// Cache bits of R-BAR-2.
pub(super) const CB: u8 = 1;
pub(super) const DB: u8 = 2;
pub(super) const SHADER: u8 = 4;
pub(super) const L2: u8 = 8;

/// The accesses that write (what a barrier writes back).
pub(super) const WRITES: BarrierAccess = BarrierAccess(
    BarrierAccess::RENDER_TARGET.0
        | BarrierAccess::UNORDERED_ACCESS.0
        | BarrierAccess::DEPTH_STENCIL_WRITE.0
        | BarrierAccess::STREAM_OUTPUT.0
        | BarrierAccess::COPY_DEST.0
        | BarrierAccess::RESOLVE_DEST.0,
);

/// Every access but `no_access`: what `common` stands for on a global barrier.
pub(super) const ALL_ACCESSES: BarrierAccess = BarrierAccess(0x3fff);

/// What `common` stands for on a buffer: every access but depth (D3D12).
pub(super) const BUFFER_ACCESSES: BarrierAccess = BarrierAccess(0x3fff & !0x60);

/// The caches `access` uses.
pub(super) fn caches(access: BarrierAccess) -> u8 {
    let mut c = 0;
    let a = |bits: BarrierAccess| access.intersects(bits);
    if a(BarrierAccess::RENDER_TARGET | BarrierAccess::RESOLVE_DEST | BarrierAccess::RESOLVE_SOURCE)
    {
        c |= CB;
    }
    if a(BarrierAccess::DEPTH_STENCIL_WRITE | BarrierAccess::DEPTH_STENCIL_READ) {
        c |= DB;
    }
    if a(BarrierAccess::SHADER_RESOURCE
        | BarrierAccess::CONSTANT_BUFFER
        | BarrierAccess::UNORDERED_ACCESS)
    {
        c |= SHADER | L2;
    }
    if a(BarrierAccess::COPY_DEST
        | BarrierAccess::COPY_SOURCE
        | BarrierAccess::INDEX_BUFFER
        | BarrierAccess::VERTEX_BUFFER
        | BarrierAccess::INDIRECT_ARGUMENT
        | BarrierAccess::STREAM_OUTPUT)
    {
        c |= L2;
    }
    c
}

/// The accesses compatible with `layout` (D3D12's layout-access table).
pub(super) fn layout_accesses(layout: BarrierLayout) -> BarrierAccess {
    use BarrierAccess as A;
    use BarrierLayout as L;
    match layout {
        L::Undefined => A::NO_ACCESS,
        L::Common => A::SHADER_RESOURCE | A::COPY_DEST | A::COPY_SOURCE,
        L::GenericRead | L::ComputeQueueGenericRead => A::SHADER_RESOURCE | A::COPY_SOURCE,
        L::DirectQueueGenericRead => {
            A::SHADER_RESOURCE | A::COPY_SOURCE | A::DEPTH_STENCIL_READ | A::RESOLVE_SOURCE
        }
        L::RenderTarget => A::RENDER_TARGET,
        L::UnorderedAccess | L::DirectQueueUnorderedAccess | L::ComputeQueueUnorderedAccess => {
            A::UNORDERED_ACCESS
        }
        L::DepthStencilWrite => A::DEPTH_STENCIL_READ | A::DEPTH_STENCIL_WRITE,
        L::DepthStencilRead => A::DEPTH_STENCIL_READ,
        L::ShaderResource | L::DirectQueueShaderResource | L::ComputeQueueShaderResource => {
            A::SHADER_RESOURCE
        }
        L::CopySource | L::DirectQueueCopySource | L::ComputeQueueCopySource => A::COPY_SOURCE,
        L::CopyDest | L::DirectQueueCopyDest | L::ComputeQueueCopyDest => A::COPY_DEST,
        L::ResolveSource => A::RESOLVE_SOURCE,
        L::ResolveDest => A::RESOLVE_DEST,
        L::DirectQueueCommon | L::ComputeQueueCommon => {
            A::COPY_SOURCE | A::COPY_DEST | A::SHADER_RESOURCE | A::UNORDERED_ACCESS
        }
    }
}

/// The syncs compatible with one access bit (D3D12's access-sync table; `all` always is).
pub(super) fn access_syncs(access: BarrierAccess) -> BarrierSync {
    use BarrierAccess as A;
    use BarrierSync as S;
    let shading = S::VERTEX_SHADING | S::PIXEL_SHADING | S::COMPUTE_SHADING | S::DRAW;
    let sync = match access {
        A::VERTEX_BUFFER => S::VERTEX_SHADING | S::DRAW | S::ALL_SHADING,
        A::CONSTANT_BUFFER | A::SHADER_RESOURCE => shading | S::ALL_SHADING | S::NON_PIXEL_SHADING,
        A::INDEX_BUFFER => S::INDEX_INPUT | S::DRAW,
        A::RENDER_TARGET => S::DRAW | S::RENDER_TARGET,
        A::UNORDERED_ACCESS => {
            shading | S::ALL_SHADING | S::NON_PIXEL_SHADING | S::CLEAR_UNORDERED_ACCESS_VIEW
        }
        A::DEPTH_STENCIL_WRITE | A::DEPTH_STENCIL_READ => S::DRAW | S::DEPTH_STENCIL,
        A::STREAM_OUTPUT => S::VERTEX_SHADING | S::DRAW | S::ALL_SHADING,
        A::INDIRECT_ARGUMENT => S::EXECUTE_INDIRECT,
        A::COPY_DEST | A::COPY_SOURCE => S::COPY,
        A::RESOLVE_DEST | A::RESOLVE_SOURCE => S::RESOLVE,
        _ => S(!0),
    };
    sync | S::ALL
}

/// Whether `layout` keeps a texture compressed (non-TC table, plus the read layouts for TC).
pub(super) fn compressed_layout(layout: BarrierLayout, tc: bool) -> bool {
    use BarrierLayout as L;
    match layout {
        L::RenderTarget | L::DepthStencilWrite | L::DepthStencilRead => true,
        L::ShaderResource
        | L::GenericRead
        | L::DirectQueueShaderResource
        | L::DirectQueueGenericRead
        | L::ComputeQueueShaderResource
        | L::ComputeQueueGenericRead => tc,
        _ => false,
    }
}

/// The layout a legacy state stands for (D3D12's equivalence table; several read states are
/// `generic_read`, with depth read `direct_queue_generic_read`).
pub(super) fn legacy_layout(state: ResourceStates) -> BarrierLayout {
    use BarrierLayout as L;
    use ResourceStates as R;
    match state {
        R::COMMON => L::Common,
        R::RENDER_TARGET => L::RenderTarget,
        R::UNORDERED_ACCESS => L::UnorderedAccess,
        R::DEPTH_WRITE => L::DepthStencilWrite,
        R::DEPTH_READ => L::DepthStencilRead,
        R::NON_PIXEL_SHADER_RESOURCE | R::PIXEL_SHADER_RESOURCE => L::ShaderResource,
        s if s.0 == R::NON_PIXEL_SHADER_RESOURCE.0 | R::PIXEL_SHADER_RESOURCE.0 => {
            L::ShaderResource
        }
        R::COPY_DEST => L::CopyDest,
        R::COPY_SOURCE => L::CopySource,
        R::RESOLVE_DEST => L::ResolveDest,
        R::RESOLVE_SOURCE => L::ResolveSource,
        s if s.contains(R::DEPTH_READ) => L::DirectQueueGenericRead,
        _ => L::GenericRead,
    }
}

/// The accesses a legacy state stands for.
pub(super) fn legacy_access(state: ResourceStates) -> BarrierAccess {
    use BarrierAccess as A;
    use ResourceStates as R;
    if state == R::COMMON {
        return A::COMMON;
    }
    let table: [(R, A); 14] = [
        (
            R::VERTEX_AND_CONSTANT_BUFFER,
            A(A::VERTEX_BUFFER.0 | A::CONSTANT_BUFFER.0),
        ),
        (R::INDEX_BUFFER, A::INDEX_BUFFER),
        (R::RENDER_TARGET, A::RENDER_TARGET),
        (R::UNORDERED_ACCESS, A::UNORDERED_ACCESS),
        (R::DEPTH_WRITE, A::DEPTH_STENCIL_WRITE),
        (R::DEPTH_READ, A::DEPTH_STENCIL_READ),
        (R::NON_PIXEL_SHADER_RESOURCE, A::SHADER_RESOURCE),
        (R::PIXEL_SHADER_RESOURCE, A::SHADER_RESOURCE),
        (R::STREAM_OUT, A::STREAM_OUTPUT),
        (R::INDIRECT_ARGUMENT, A::INDIRECT_ARGUMENT),
        (R::COPY_DEST, A::COPY_DEST),
        (R::COPY_SOURCE, A::COPY_SOURCE),
        (R::RESOLVE_DEST, A::RESOLVE_DEST),
        (R::RESOLVE_SOURCE, A::RESOLVE_SOURCE),
    ];
    table
        .iter()
        .filter(|(s, _)| state.contains(*s))
        .fold(A::COMMON, |acc, (_, a)| acc | *a)
}

/// The syncs a legacy state stands for.
pub(super) fn legacy_sync(state: ResourceStates) -> BarrierSync {
    use BarrierSync as S;
    use ResourceStates as R;
    if state == R::COMMON {
        return S::ALL;
    }
    let table: [(R, S); 14] = [
        (R::VERTEX_AND_CONSTANT_BUFFER, S::ALL_SHADING),
        (R::INDEX_BUFFER, S::INDEX_INPUT),
        (R::RENDER_TARGET, S::RENDER_TARGET),
        (R::UNORDERED_ACCESS, S::ALL_SHADING),
        (R::DEPTH_WRITE, S::DEPTH_STENCIL),
        (R::DEPTH_READ, S::DEPTH_STENCIL),
        (R::NON_PIXEL_SHADER_RESOURCE, S::NON_PIXEL_SHADING),
        (R::PIXEL_SHADER_RESOURCE, S::PIXEL_SHADING),
        (R::STREAM_OUT, S::VERTEX_SHADING),
        (R::INDIRECT_ARGUMENT, S::EXECUTE_INDIRECT),
        (R::COPY_DEST, S::COPY),
        (R::COPY_SOURCE, S::COPY),
        (R::RESOLVE_DEST, S::RESOLVE),
        (R::RESOLVE_SOURCE, S::RESOLVE),
    ];
    table
        .iter()
        .filter(|(s, _)| state.contains(*s))
        .fold(S::NONE, |acc, (_, a)| acc | *a)
}
