//! The engine's barriers to `vkCmdPipelineBarrier2` (R-GPU-3): enhanced barriers (§9,
//! `barrier`) one for one (sync → pipeline stages, access → access flags, layout → image layout,
//! discard → an `UNDEFINED` old layout), and legacy `resource_barrier`s through the equivalence
//! table of legacy states to enhanced sync, access and layout that the model runs them by
//! (R-BAR-6, `executor::legacy_equivalent`).
//!
//! **In:** a `Barrier` or `ResourceBarrier` command's records, after the model applied them.
//! **Out:** one dependency per command, outside any pass: per texture barrier the
//! `VkImageMemoryBarrier2`s of exactly its mips and array slices (one, unless those
//! subresources were in different states before: `image_layouts.rs`), per buffer barrier one
//! `VkBufferMemoryBarrier2` of its bytes (offset and size), per global barrier one
//! `VkMemoryBarrier2`. Each subresource's tracked state becomes the barrier's after-state, so
//! the backend's own transitions (`use_range`) add nothing where the application's barrier did
//! the work. A legacy transition of one subresource (`D3D12CalcSubresource` order) is that
//! subresource's barrier; a UAV barrier is a global `all_shading` → `all_shading`
//! unordered-access barrier; an aliasing barrier a global `all` → `all` one; a split transition
//! is recorded at its begin (the model runs it there), its end adds nothing.
//!
//! **Invariant.** An image barrier's old layout is the layout the backend tracks for those
//! subresources (Vulkan needs the real one), or `UNDEFINED` for a discard or an `undefined`
//! layout before; it waits also for the uses the backend tracked since the last barrier. Planes
//! are not split: a barrier of a depth-stencil texture moves both aspects. An after-sync of
//! `none` becomes `ALL_COMMANDS`, so a layout change always happens before whatever comes next.

use ash::vk;
use recorder::{
    BarrierAccess, BarrierKind, BarrierLayout, BarrierRecord, BarrierSubresources, BarrierSync,
    NamedResource, ObjectKind, ResourceBarrierKind, ResourceBarrierRecord, Span, SplitHalf,
};

use crate::image_layouts::{Subrange, Want, WRITES};
use crate::translate;
use crate::VulkanBackend;

/// How many barriers the backend recorded: the application's (translated) and its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BarrierCounts {
    /// Image, buffer and memory barriers translated from the engine's `barrier` calls.
    pub explicit: u64,
    /// Image barriers the backend inserted itself (legacy implicit transitions).
    pub implicit: u64,
}

/// The pipeline stages of a barrier sync.
fn stages(sync: BarrierSync, after: bool) -> vk::PipelineStageFlags2 {
    use vk::PipelineStageFlags2 as S;
    let table = [
        (BarrierSync::ALL, S::ALL_COMMANDS),
        (BarrierSync::DRAW, S::ALL_GRAPHICS),
        (BarrierSync::INDEX_INPUT, S::INDEX_INPUT),
        (
            BarrierSync::VERTEX_SHADING,
            S::PRE_RASTERIZATION_SHADERS | S::VERTEX_ATTRIBUTE_INPUT,
        ),
        (BarrierSync::PIXEL_SHADING, S::FRAGMENT_SHADER),
        (
            BarrierSync::DEPTH_STENCIL,
            S::EARLY_FRAGMENT_TESTS | S::LATE_FRAGMENT_TESTS,
        ),
        (BarrierSync::RENDER_TARGET, S::COLOR_ATTACHMENT_OUTPUT),
        (BarrierSync::COMPUTE_SHADING, S::COMPUTE_SHADER),
        (BarrierSync::RAYTRACING, S::ALL_COMMANDS),
        (BarrierSync::COPY, S::COPY | S::CLEAR),
        (BarrierSync::RESOLVE, S::RESOLVE),
        (BarrierSync::EXECUTE_INDIRECT, S::DRAW_INDIRECT),
        (
            BarrierSync::ALL_SHADING,
            S::PRE_RASTERIZATION_SHADERS | S::FRAGMENT_SHADER | S::COMPUTE_SHADER,
        ),
        (
            BarrierSync::NON_PIXEL_SHADING,
            S::PRE_RASTERIZATION_SHADERS | S::COMPUTE_SHADER,
        ),
        (
            BarrierSync::CLEAR_UNORDERED_ACCESS_VIEW,
            S::CLEAR | S::COMPUTE_SHADER,
        ),
    ];
    let mut flags = table
        .iter()
        .filter(|(bit, _)| sync.intersects(*bit))
        .fold(S::NONE, |flags, (_, stage)| flags | *stage);
    if after && flags.is_empty() {
        flags = S::ALL_COMMANDS;
    }
    flags
}

/// The access flags of a barrier access.
fn access(access: BarrierAccess) -> vk::AccessFlags2 {
    use vk::AccessFlags2 as A;
    if access.contains(BarrierAccess::NO_ACCESS) {
        return A::NONE;
    }
    if access == BarrierAccess::COMMON {
        return A::MEMORY_READ | A::MEMORY_WRITE;
    }
    let table = [
        (BarrierAccess::VERTEX_BUFFER, A::VERTEX_ATTRIBUTE_READ),
        (BarrierAccess::CONSTANT_BUFFER, A::UNIFORM_READ),
        (BarrierAccess::INDEX_BUFFER, A::INDEX_READ),
        (
            BarrierAccess::RENDER_TARGET,
            A::COLOR_ATTACHMENT_READ | A::COLOR_ATTACHMENT_WRITE,
        ),
        (
            BarrierAccess::UNORDERED_ACCESS,
            A::SHADER_READ | A::SHADER_WRITE,
        ),
        (
            BarrierAccess::DEPTH_STENCIL_WRITE,
            A::DEPTH_STENCIL_ATTACHMENT_READ | A::DEPTH_STENCIL_ATTACHMENT_WRITE,
        ),
        (
            BarrierAccess::DEPTH_STENCIL_READ,
            A::DEPTH_STENCIL_ATTACHMENT_READ,
        ),
        (
            BarrierAccess::SHADER_RESOURCE,
            A::SHADER_SAMPLED_READ | A::SHADER_READ,
        ),
        (BarrierAccess::STREAM_OUTPUT, A::MEMORY_WRITE),
        (BarrierAccess::INDIRECT_ARGUMENT, A::INDIRECT_COMMAND_READ),
        (BarrierAccess::COPY_DEST, A::TRANSFER_WRITE),
        (BarrierAccess::COPY_SOURCE, A::TRANSFER_READ),
        (BarrierAccess::RESOLVE_DEST, A::TRANSFER_WRITE),
        (BarrierAccess::RESOLVE_SOURCE, A::TRANSFER_READ),
    ];
    table
        .iter()
        .filter(|(bit, _)| access.intersects(*bit))
        .fold(A::NONE, |flags, (_, a)| flags | *a)
}

/// The image layout of a barrier layout.
fn layout(layout: BarrierLayout) -> vk::ImageLayout {
    use vk::ImageLayout as L;
    use BarrierLayout as B;
    match layout {
        B::Undefined => L::UNDEFINED,
        B::RenderTarget => L::COLOR_ATTACHMENT_OPTIMAL,
        B::DepthStencilWrite => L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        B::DepthStencilRead => L::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
        B::ShaderResource | B::DirectQueueShaderResource | B::ComputeQueueShaderResource => {
            L::SHADER_READ_ONLY_OPTIMAL
        }
        B::CopySource | B::ResolveSource | B::DirectQueueCopySource | B::ComputeQueueCopySource => {
            L::TRANSFER_SRC_OPTIMAL
        }
        B::CopyDest | B::ResolveDest | B::DirectQueueCopyDest | B::ComputeQueueCopyDest => {
            L::TRANSFER_DST_OPTIMAL
        }
        _ => L::GENERAL,
    }
}

/// One barrier in the enhanced model's terms, from a `barrier` record or from a legacy
/// `resource_barrier` record through the equivalence table.
#[derive(Clone, Copy, Debug)]
struct Enhanced {
    kind: BarrierKind,
    resource: Option<NamedResource>,
    sync_before: BarrierSync,
    sync_after: BarrierSync,
    access_before: BarrierAccess,
    access_after: BarrierAccess,
    layout_before: BarrierLayout,
    layout_after: BarrierLayout,
    subresources: BarrierSubresources,
    discard: bool,
    /// A buffer barrier's bytes.
    offset: u64,
    size: u64,
}

impl Enhanced {
    fn of(record: &BarrierRecord) -> Self {
        Self {
            kind: record.kind(),
            resource: record.resource(),
            sync_before: record.sync_before,
            sync_after: record.sync_after,
            access_before: record.access_before,
            access_after: record.access_after,
            layout_before: record.layout_before(),
            layout_after: record.layout_after(),
            subresources: record.subresources,
            discard: record.discard(),
            offset: record.offset,
            size: record.size,
        }
    }

    /// A global barrier.
    fn global(sync: BarrierSync, before: BarrierAccess, after: BarrierAccess) -> Self {
        Self {
            kind: BarrierKind::Global,
            resource: None,
            sync_before: sync,
            sync_after: sync,
            access_before: before,
            access_after: after,
            layout_before: BarrierLayout::Common,
            layout_after: BarrierLayout::Common,
            subresources: BarrierSubresources::ALL,
            discard: false,
            offset: 0,
            size: u64::MAX,
        }
    }
}

/// The mips and layers of a barrier's subresources (inclusive spans; planes are not split:
/// depth and stencil move together, `image_layouts.rs`).
fn subrange(subresources: &BarrierSubresources) -> Subrange {
    let count = |span: Span| {
        if span.last == u16::MAX {
            u32::MAX
        } else {
            (span.last as u32 + 1).saturating_sub(span.first as u32)
        }
    };
    Subrange {
        first_mip: subresources.mips.first as u32,
        mips: count(subresources.mips),
        first_layer: subresources.array.first as u32,
        layers: count(subresources.array),
    }
}

/// The `(offset, size)` of a buffer barrier of `size` bytes from `offset` (`u64::MAX`: to the
/// end) in a buffer of `buffer_size` bytes: the bytes named, clamped inside the buffer (the
/// model checks them, R-BAR-8); the whole buffer for a range that starts past its end.
fn buffer_bytes(offset: u64, size: u64, buffer_size: u64) -> (u64, u64) {
    if offset >= buffer_size {
        (0, vk::WHOLE_SIZE)
    } else if size == u64::MAX || size >= buffer_size - offset {
        (offset, vk::WHOLE_SIZE)
    } else {
        (offset, size.max(1))
    }
}

impl VulkanBackend {
    /// Translates a `barrier` command's records (see the module essay).
    pub(crate) fn translate_barriers(
        &mut self,
        records: &[BarrierRecord],
    ) -> Result<(), recorder::Error> {
        let barriers: Vec<Enhanced> = records.iter().map(Enhanced::of).collect();
        self.record_barriers(&barriers)
    }

    /// Translates a `resource_barrier` command's legacy records through the equivalence table,
    /// as the model runs them (`executor::legacy_equivalent`; see the module essay).
    pub(crate) fn translate_resource_barriers(
        &mut self,
        records: &[ResourceBarrierRecord],
    ) -> Result<(), recorder::Error> {
        let mut barriers = Vec::with_capacity(records.len());
        for r in records {
            let resource = r.resource().filter(|r| !r.handle.is_null());
            match r.kind() {
                ResourceBarrierKind::Uav => {
                    let uav = BarrierAccess::UNORDERED_ACCESS;
                    barriers.push(Enhanced::global(BarrierSync::ALL_SHADING, uav, uav));
                }
                ResourceBarrierKind::Aliasing => {
                    let common = BarrierAccess::COMMON;
                    barriers.push(Enhanced::global(BarrierSync::ALL, common, common));
                }
                // The model runs a split transition at its begin; the end does nothing more.
                ResourceBarrierKind::Transition if r.split() == SplitHalf::End => {}
                ResourceBarrierKind::Transition => {
                    let Some(resource) = resource else { continue };
                    let (sync_before, access_before, layout_before) =
                        executor::legacy_equivalent(r.before);
                    let (sync_after, access_after, layout_after) =
                        executor::legacy_equivalent(r.after);
                    let texture = resource.kind == ObjectKind::Texture;
                    barriers.push(Enhanced {
                        kind: if texture {
                            BarrierKind::Texture
                        } else {
                            BarrierKind::Buffer
                        },
                        resource: Some(resource),
                        sync_before,
                        sync_after,
                        access_before,
                        access_after,
                        layout_before,
                        layout_after,
                        subresources: self.legacy_subresource(resource, r.subresource())?,
                        discard: false,
                        offset: 0,
                        size: u64::MAX,
                    });
                }
            }
        }
        self.record_barriers(&barriers)
    }

    /// The subresources of a legacy transition: all, or the one `D3D12CalcSubresource` index
    /// names (mip + slice × mips + plane × mips × slices), as the model decodes it.
    fn legacy_subresource(
        &mut self,
        resource: NamedResource,
        subresource: Option<u32>,
    ) -> Result<BarrierSubresources, recorder::Error> {
        let Some(sub) = subresource.filter(|_| resource.kind == ObjectKind::Texture) else {
            return Ok(BarrierSubresources::ALL);
        };
        self.image("resource_barrier", resource.handle)?;
        let (mips, layers) = self
            .resources
            .images
            .get(&resource.handle)
            .map_or((1, 1), |i| (i.mips, i.layers));
        let one = |i: u32| {
            let i = i.min(u16::MAX as u32 - 1) as u16;
            Span::new(i, i)
        };
        Ok(BarrierSubresources {
            mips: one(sub % mips),
            array: one((sub / mips) % layers),
            planes: one(sub / (mips * layers)),
        })
    }

    /// Records `barriers` as one `vkCmdPipelineBarrier2`, outside any pass.
    fn record_barriers(&mut self, barriers: &[Enhanced]) -> Result<(), recorder::Error> {
        let mut memory = Vec::new();
        let mut buffers = Vec::new();
        let mut images = std::mem::take(&mut self.image_barriers);
        images.clear();
        for b in barriers {
            let src_stage = stages(b.sync_before, false);
            let dst_stage = stages(b.sync_after, true);
            let src_access = access(b.access_before) & WRITES;
            let dst_access = access(b.access_after);
            match (b.kind, b.resource.filter(|r| !r.handle.is_null())) {
                (BarrierKind::Texture, Some(r)) if r.kind == ObjectKind::Texture => {
                    self.image("barrier", r.handle)?;
                    let Some(image) = self.resources.images.get_mut(&r.handle) else {
                        continue;
                    };
                    let discard = b.discard || b.layout_before == BarrierLayout::Undefined;
                    let mut new = layout(b.layout_after);
                    if new == vk::ImageLayout::UNDEFINED {
                        new = vk::ImageLayout::GENERAL;
                    }
                    let want = Want {
                        layout: new,
                        stages: dst_stage,
                        access: dst_access,
                        explicit: Some((src_stage, src_access, discard)),
                    };
                    let aspects = translate::aspects(image.format);
                    let range = subrange(&b.subresources);
                    image
                        .layouts
                        .transition(image.image, aspects, range, &want, &mut images);
                }
                (BarrierKind::Buffer, Some(r)) if r.kind == ObjectKind::Buffer => {
                    let buffer = self.gpu_buffer("barrier", r.handle)?;
                    let size = self.resources.buffers.get(&r.handle).map_or(0, |b| b.size);
                    let (offset, bytes) = buffer_bytes(b.offset, b.size, size);
                    buffers.push(
                        vk::BufferMemoryBarrier2::default()
                            .src_stage_mask(src_stage)
                            .src_access_mask(src_access)
                            .dst_stage_mask(dst_stage)
                            .dst_access_mask(dst_access)
                            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .buffer(buffer)
                            .offset(offset)
                            .size(bytes),
                    );
                }
                _ => memory.push(
                    vk::MemoryBarrier2::default()
                        .src_stage_mask(src_stage)
                        .src_access_mask(src_access)
                        .dst_stage_mask(dst_stage)
                        .dst_access_mask(dst_access),
                ),
            }
        }
        if !(memory.is_empty() && buffers.is_empty() && images.is_empty()) {
            self.end_pass();
            let dependency = vk::DependencyInfo::default()
                .memory_barriers(&memory)
                .buffer_memory_barriers(&buffers)
                .image_memory_barriers(&images);
            // SAFETY: recording outside a pass (closed above); every buffer and image named is
            // a live object of this device, each image's old layout the one its subresources
            // are in (tracked) or UNDEFINED, each range inside its image or buffer.
            unsafe {
                self.gpu
                    .device
                    .cmd_pipeline_barrier2(self.frame.cb, &dependency)
            };
            self.barrier_counts.explicit += (memory.len() + buffers.len() + images.len()) as u64;
            self.frame.dirty = true;
        }
        images.clear();
        self.image_barriers = images;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_gpu_3_a_buffer_barrier_covers_the_bytes_it_names() {
        assert_eq!(
            buffer_bytes(0, 64, 256),
            (0, 64),
            "the first 64 bytes alone"
        );
        assert_eq!(buffer_bytes(64, 64, 256), (64, 64));
        assert_eq!(buffer_bytes(0, u64::MAX, 256), (0, vk::WHOLE_SIZE), "whole");
        assert_eq!(
            buffer_bytes(128, 512, 256),
            (128, vk::WHOLE_SIZE),
            "to the end"
        );
        assert_eq!(
            buffer_bytes(300, 4, 256),
            (0, vk::WHOLE_SIZE),
            "past the end: all"
        );
    }

    #[test]
    fn r_gpu_3_a_barrier_range_is_its_mips_and_slices() {
        let range = subrange(&BarrierSubresources {
            mips: Span::new(1, 2),
            array: Span::new(3, 3),
            planes: Span::ALL,
        });
        assert_eq!(
            (range.first_mip, range.mips, range.first_layer, range.layers),
            (1, 2, 3, 1)
        );
        let all = subrange(&BarrierSubresources::ALL);
        assert_eq!((all.mips, all.layers), (u32::MAX, u32::MAX));
    }
}
