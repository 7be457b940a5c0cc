//! The engine's enhanced barriers (§9, `barrier`) one for one to `vkCmdPipelineBarrier2`
//! (R-GPU-3): sync → pipeline stages, access → access flags, layout → image layout, discard →
//! an `UNDEFINED` old layout.
//!
//! **In:** a `Barrier` command's records, after the model applied (and accepted) them.
//! **Out:** one `VkMemoryBarrier2`, `VkBufferMemoryBarrier2` or `VkImageMemoryBarrier2` per
//! record, in one dependency, outside any pass; each image's tracked layout and last access
//! become the barrier's after-state, so the backend's own transitions (`use_image`) add
//! nothing where the application's barrier already did the work.
//!
//! **Invariant.** An image barrier's old layout is the layout the backend tracks (Vulkan needs
//! the real one), or `UNDEFINED` for a discard or an `undefined` layout before; it covers the
//! whole image (the records' subresource spans are not split yet). An after-sync of `none`
//! becomes `ALL_COMMANDS`, so a layout change always happens before whatever comes next. The
//! legacy `resource_barrier` (D3D12 states) is not translated: the backend's own transitions
//! cover it.

use ash::vk;
use recorder::{BarrierAccess, BarrierKind, BarrierLayout, BarrierRecord, BarrierSync, ObjectKind};

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

/// The write accesses: a barrier's before-access keeps only these (reads need no availability).
const WRITES: vk::AccessFlags2 = vk::AccessFlags2::from_raw(
    vk::AccessFlags2::SHADER_WRITE.as_raw()
        | vk::AccessFlags2::COLOR_ATTACHMENT_WRITE.as_raw()
        | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE.as_raw()
        | vk::AccessFlags2::TRANSFER_WRITE.as_raw()
        | vk::AccessFlags2::MEMORY_WRITE.as_raw(),
);

impl VulkanBackend {
    /// Translates a `barrier` command's records (see the module essay).
    pub(crate) fn translate_barriers(
        &mut self,
        records: &[BarrierRecord],
    ) -> Result<(), recorder::Error> {
        let mut memory = Vec::new();
        let mut buffers = Vec::new();
        let mut images = Vec::new();
        for record in records {
            let src_stage = stages(record.sync_before, false);
            let dst_stage = stages(record.sync_after, true);
            let src_access = access(record.access_before) & WRITES;
            let dst_access = access(record.access_after);
            let resource = record.resource().filter(|r| !r.handle.is_null());
            match (record.kind(), resource) {
                (BarrierKind::Texture, Some(r)) if r.kind == ObjectKind::Texture => {
                    self.image("barrier", r.handle)?;
                    let Some(image) = self.resources.images.get_mut(&r.handle) else {
                        continue;
                    };
                    let discard =
                        record.discard() || record.layout_before() == BarrierLayout::Undefined;
                    let old = if discard {
                        vk::ImageLayout::UNDEFINED
                    } else {
                        image.layout
                    };
                    let mut new = layout(record.layout_after());
                    if new == vk::ImageLayout::UNDEFINED {
                        new = vk::ImageLayout::GENERAL;
                    }
                    images.push(
                        vk::ImageMemoryBarrier2::default()
                            .src_stage_mask(src_stage | image.stages)
                            .src_access_mask(src_access | (image.access & WRITES))
                            .dst_stage_mask(dst_stage)
                            .dst_access_mask(dst_access)
                            .old_layout(old)
                            .new_layout(new)
                            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .image(image.image)
                            .subresource_range(vk::ImageSubresourceRange {
                                aspect_mask: translate::aspects(image.format),
                                base_mip_level: 0,
                                level_count: vk::REMAINING_MIP_LEVELS,
                                base_array_layer: 0,
                                layer_count: vk::REMAINING_ARRAY_LAYERS,
                            }),
                    );
                    image.layout = new;
                    image.stages = dst_stage;
                    image.access = dst_access;
                }
                (BarrierKind::Buffer, Some(r)) if r.kind == ObjectKind::Buffer => {
                    let buffer = self.gpu_buffer("barrier", r.handle)?;
                    buffers.push(
                        vk::BufferMemoryBarrier2::default()
                            .src_stage_mask(src_stage)
                            .src_access_mask(src_access)
                            .dst_stage_mask(dst_stage)
                            .dst_access_mask(dst_access)
                            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .buffer(buffer)
                            .offset(0)
                            .size(vk::WHOLE_SIZE),
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
        if memory.is_empty() && buffers.is_empty() && images.is_empty() {
            return Ok(());
        }
        self.end_pass();
        let dependency = vk::DependencyInfo::default()
            .memory_barriers(&memory)
            .buffer_memory_barriers(&buffers)
            .image_memory_barriers(&images);
        // SAFETY: recording outside a pass (closed above); every buffer and image named is a
        // live object of this device, each image's old layout the one it is in (tracked).
        unsafe {
            self.gpu
                .device
                .cmd_pipeline_barrier2(self.frame.cb, &dependency)
        };
        self.barrier_counts.explicit += (memory.len() + buffers.len() + images.len()) as u64;
        self.frame.dirty = true;
        Ok(())
    }
}
