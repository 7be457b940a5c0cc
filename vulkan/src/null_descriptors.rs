//! What an empty slot reads (D3D11: zeros): a constant-buffer slot a shader reads but nothing
//! is bound to reads a 256-byte buffer of zeros, a shader-resource slot a 1x1 transparent-black
//! texture (an empty sampler slot already reads the default sampler, `resources.rs`).
//!
//! **In:** a draw's empty slot. **Out:** the Vulkan buffer or image view the descriptor points
//! at, made (and zeroed on the GPU) the first time one is needed, kept under the null handle
//! in the resource maps, so the image's layout is tracked like any other.
//!
//! **Invariant.** Their contents never change: nothing the engine names can write them (no
//! engine object has the null handle).

use ash::vk;
use recorder::{Error, ObjectKind, RawHandle};

use crate::VulkanBackend;

/// The size of the zero buffer: enough for any constant buffer a shader reads through it up to
/// 16 `vec4`s (D3D11 reads zeros past a buffer anyway; robust access is not enabled).
pub(crate) const NULL_BUFFER_BYTES: u64 = 256;

impl VulkanBackend {
    /// The zero buffer an empty constant-buffer slot reads.
    pub(crate) fn null_buffer(&mut self, call: &'static str) -> Result<vk::Buffer, Error> {
        if let Some(buffer) = self.resources.buffers.get(&RawHandle::NULL) {
            return Ok(buffer.buffer);
        }
        let buffer = self.make_buffer(call, RawHandle::NULL, NULL_BUFFER_BYTES)?;
        self.before_buffer_write();
        // SAFETY: outside a pass (the barrier closed it); the buffer is live with
        // TRANSFER_DST usage; the whole of it is filled.
        unsafe {
            self.gpu
                .device
                .cmd_fill_buffer(self.frame.cb, buffer, 0, vk::WHOLE_SIZE, 0)
        };
        self.buffer_written();
        self.frame.dirty = true;
        Ok(buffer)
    }

    /// The transparent-black image view an empty shader-resource slot reads.
    pub(crate) fn null_image_view(&mut self, call: &'static str) -> Result<vk::ImageView, Error> {
        let key = (
            ObjectKind::ShaderResourceView,
            RawHandle::NULL,
            RawHandle::NULL,
        );
        if let Some((view, _, _)) = self.resources.views.get(&key) {
            return Ok(*view);
        }
        let format = vk::Format::R8G8B8A8_UNORM;
        let extent = vk::Extent2D {
            width: 1,
            height: 1,
        };
        let usage = vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST;
        self.make_image(call, RawHandle::NULL, format, extent, (1, 1), usage)?;
        self.use_image(
            RawHandle::NULL,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::PipelineStageFlags2::CLEAR,
            vk::AccessFlags2::TRANSFER_WRITE,
        );
        let Some(image) = self.resources.images.get(&RawHandle::NULL).map(|i| i.image) else {
            return Err(Error::GpuBackend {
                call,
                object: "the null texture".to_string(),
                problem: "was not made (R-GPU-3)".to_string(),
            });
        };
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        };
        // SAFETY: outside a pass (use_image closed it); the image is in TRANSFER_DST_OPTIMAL
        // and was made with TRANSFER_DST usage.
        unsafe {
            self.gpu.device.cmd_clear_color_image(
                self.frame.cb,
                image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &vk::ClearColorValue { float32: [0.0; 4] },
                &[range],
            )
        };
        self.frame.dirty = true;
        let create = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(format)
            .subresource_range(range);
        // SAFETY: `create` names a live image of this device with a range inside it.
        let view = unsafe { self.gpu.device.create_image_view(&create, None) }
            .map_err(|r| self.vk_error(call, "vkCreateImageView", r))?;
        self.resources.views.insert(
            key,
            (view, RawHandle::NULL, crate::image_layouts::Subrange::ALL),
        );
        Ok(view)
    }
}
