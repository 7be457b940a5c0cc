//! What the hazard tracker (R-V-2) sees of a call: each use it makes of a resource ([`Use`]:
//! which resource, which range, through which path and view, at which stage), the call itself
//! ([`Site`]: where it came from, its index, its method, its semantics), and the writes left
//! pending until a barrier covers them ([`Write`]).
//!
//! **In:** the commands and draws the tracker is handed. **Out:** the plain values it keeps and
//! compares, and whether a barrier's `sync_before` and `access_before` cover a write
//! ([`sync_covers`], [`access_covers`], D3D12's groups).
//!
//! **Invariant:** a resource is keyed by its handle and whether it is a buffer ([`Key`]): buffers
//! and textures have separate index spaces, so a key names one resource.

use recorder::command::Command;
use recorder::{
    BarrierAccess, BarrierSync, Buffer, Handle, ObjectKind, RawHandle, Resource, Semantics, Texture,
};

use super::subresource_ranges::Range;

/// A resource: its handle and whether it is a buffer (buffers and textures have separate index
/// spaces).
pub(super) type Key = (RawHandle, bool);

pub(super) fn key_of(resource: Resource) -> Key {
    (resource.raw(), resource.kind() == ObjectKind::Buffer)
}

pub(super) fn resource_of(key: Key) -> Resource {
    if key.1 {
        Resource::Buffer(Buffer::from_raw(key.0))
    } else {
        Resource::Texture(Texture::from_raw(key.0))
    }
}

/// How a call used a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Path {
    RenderTarget,
    DepthStencil,
    Uav,
    ShaderResource,
    ConstantBuffer,
    VertexBuffer,
    IndexBuffer,
    IndirectArguments,
    CopySource,
    CopyDest,
    /// `copy_structure_count` reading a UAV's hidden counter.
    HiddenCounter,
}

impl Path {
    pub(super) fn writes(self) -> bool {
        matches!(
            self,
            Self::RenderTarget | Self::DepthStencil | Self::Uav | Self::CopyDest
        )
    }

    /// The access a barrier's `access_before` must include to cover a write of this path.
    pub(super) fn access(self) -> BarrierAccess {
        match self {
            Self::RenderTarget => BarrierAccess::RENDER_TARGET,
            Self::DepthStencil => BarrierAccess::DEPTH_STENCIL_WRITE,
            Self::Uav => BarrierAccess::UNORDERED_ACCESS,
            _ => BarrierAccess::COPY_DEST,
        }
    }

    pub(super) fn view_kind(self) -> Option<ObjectKind> {
        match self {
            Self::RenderTarget => Some(ObjectKind::RenderTargetView),
            Self::DepthStencil => Some(ObjectKind::DepthStencilView),
            Self::Uav | Self::HiddenCounter => Some(ObjectKind::UnorderedAccessView),
            Self::ShaderResource => Some(ObjectKind::ShaderResourceView),
            _ => None,
        }
    }

    pub(super) fn words(self) -> &'static str {
        match self {
            Self::RenderTarget => "writing it through",
            Self::DepthStencil => "writing it through",
            Self::Uav => "reading and writing it through",
            Self::ShaderResource => "reading it through",
            Self::ConstantBuffer => "reading it as a constant buffer",
            Self::VertexBuffer => "reading it as a vertex buffer",
            Self::IndexBuffer => "reading it as the index buffer",
            Self::IndirectArguments => "reading it as indirect arguments",
            Self::CopySource => "reading it as the copy source",
            Self::CopyDest => "writing it as the copy destination",
            Self::HiddenCounter => "reading the hidden counter of",
        }
    }
}

/// Where a command came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// A direct call of the immediate context.
    Direct,
    /// A command of a list.
    List {
        /// The serial of the context that recorded it.
        recorder: u32,
        /// Which top-level `execute_command_list` ran it (1-based).
        execution: u32,
        /// 0 for the executed list, 1 for a list it nests, ...
        depth: u32,
    },
}

/// The call that made a use: where, which command, what method, under which semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Site {
    pub(super) origin: Origin,
    pub(super) command: u64,
    pub(super) method: &'static str,
    /// The semantics the command ran with (a bundle's commands: fast).
    pub(super) semantics: Semantics,
    /// The semantics of the list or context that made the call (the draw_bundle's, in a bundle).
    pub(super) context: Semantics,
    /// Inside a bundle call: 1 + the command's index in the bundle (0 outside one).
    pub(super) inner: u32,
}

/// One use of a resource by the call being applied.
#[derive(Clone, Copy, Debug)]
pub(super) struct Use {
    pub(super) key: Key,
    pub(super) range: Range,
    pub(super) path: Path,
    /// The view, for paths through one.
    pub(super) view: RawHandle,
    /// The pipeline stage, for what a barrier's `sync_before` must include.
    pub(super) sync: BarrierSync,
}

/// A write no barrier has covered yet.
#[derive(Clone, Copy, Debug)]
pub(super) struct Write {
    pub(super) range: Range,
    pub(super) path: Path,
    pub(super) view: RawHandle,
    pub(super) sync: BarrierSync,
    pub(super) site: Site,
}

/// The method of the call that recorded `command`.
pub(super) fn method(command: &Command<'_>) -> &'static str {
    match command {
        Command::Draw(_) => "draw",
        Command::DrawIndexed(_) => "draw_indexed",
        Command::DrawInstanced(_) => "draw_instanced",
        Command::DrawIndexedInstanced(_) => "draw_indexed_instanced",
        Command::DrawAuto => "draw_auto",
        Command::DrawInstancedIndirect(_) => "draw_instanced_indirect",
        Command::DrawIndexedInstancedIndirect(_) => "draw_indexed_instanced_indirect",
        Command::Dispatch(_) => "dispatch",
        Command::DispatchIndirect(_) => "dispatch_indirect",
        Command::ClearRenderTargetView { .. } => "clear_render_target_view",
        Command::ClearDepthStencilView { .. } => "clear_depth_stencil_view",
        Command::CopyResource { .. } => "copy_resource",
        Command::CopyBufferRegion { .. } => "copy_buffer_region",
        Command::CopyTextureRegion { .. } => "copy_texture_region",
        Command::UpdateSubresource { .. } => "update_subresource",
        Command::CopyStructureCount { .. } => "copy_structure_count",
        Command::Barrier { .. } => "barrier",
        Command::ResourceBarrier { .. } => "resource_barrier",
        Command::ExecuteCommandList { .. } => "execute_command_list",
        Command::DrawBundle { .. } => "draw_bundle",
        _ => "a binding call",
    }
}

/// Whether a barrier waiting for `before` waits for work of stage `stage` (D3D12's groups).
pub(super) fn sync_covers(before: BarrierSync, stage: BarrierSync) -> bool {
    if before.contains(BarrierSync::ALL) || (!stage.is_empty() && before.contains(stage)) {
        return true;
    }
    let draw = BarrierSync::INDEX_INPUT
        | BarrierSync::VERTEX_SHADING
        | BarrierSync::PIXEL_SHADING
        | BarrierSync::DEPTH_STENCIL
        | BarrierSync::RENDER_TARGET;
    let shading =
        BarrierSync::VERTEX_SHADING | BarrierSync::PIXEL_SHADING | BarrierSync::COMPUTE_SHADING;
    let non_pixel = BarrierSync::VERTEX_SHADING | BarrierSync::COMPUTE_SHADING;
    (before.contains(BarrierSync::DRAW) && draw.contains(stage))
        || (before.contains(BarrierSync::ALL_SHADING) && shading.contains(stage))
        || (before.contains(BarrierSync::NON_PIXEL_SHADING) && non_pixel.contains(stage))
}

/// Whether `before` includes the access of a write through `path` (`common`: any access).
pub(super) fn access_covers(before: BarrierAccess, path: Path) -> bool {
    before == BarrierAccess::COMMON || before.contains(path.access())
}
