//! Read-backs (R-GPU-3's headless present): a texture copied into a host-visible buffer,
//! the frame flushed, the texels read as RGBA8 rows; a present keeps its chain's pixels, which
//! [`VulkanBackend::write_png`] writes with the png crate.
//!
//! **In:** a texture (a back buffer at a present); a buffer or staging texture the immediate
//! context maps (R-GPU-2). **Out:** `(width, height, rgba)`, rows top first, 4 bytes per
//! texel; a map's GPU bytes (a buffer's; a texture's first subresource, rows packed, in its own
//! format), and at a write map's unmap the CPU's bytes uploaded through the ring.
//!
//! **Invariant.** Only 4-byte colour formats are read back (`r8g8b8a8*`, `b8g8r8a8*`, the
//! latter swizzled to RGBA); another format is refused naming the texture. The copy's write is
//! made visible to the host with a buffer barrier before the flush waits for the fence.

use ash::vk;
use gpu_allocator::vulkan::{AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;
use recorder::{Error, Handle, ObjectKind, RawHandle, Resource};

use crate::resources::refuse;
use crate::VulkanBackend;

/// Pixels read back: width, height, RGBA8 rows.
pub type Pixels = (u32, u32, Vec<u8>);

impl VulkanBackend {
    /// Reads `texture`'s first mip back (see the module essay); flushes the frame.
    pub(crate) fn read_back(
        &mut self,
        call: &'static str,
        texture: RawHandle,
    ) -> Result<Pixels, Error> {
        self.image(call, texture)?;
        let Some(image) = self.resources.images.get(&texture) else {
            return Err(refuse(
                self,
                call,
                ObjectKind::Texture,
                texture,
                "has no image (R-GPU-3)",
            ));
        };
        let swizzle = match image.format {
            vk::Format::R8G8B8A8_UNORM | vk::Format::R8G8B8A8_SRGB => false,
            vk::Format::B8G8R8A8_UNORM | vk::Format::B8G8R8A8_SRGB => true,
            other => {
                return Err(refuse(
                    self,
                    call,
                    ObjectKind::Texture,
                    texture,
                    format!("has format {other:?}: only 4-byte RGBA or BGRA textures are read back (R-GPU-3)"),
                ))
            }
        };
        let (width, height) = (image.extent.width, image.extent.height);
        let size = width as u64 * height as u64 * 4;
        let (buffer, allocation) = self.host_buffer(call, size)?;
        let result = self.copy_to_host(call, texture, buffer, width, height);
        let pixels = result.map(|()| {
            let mut bytes = allocation
                .mapped_slice()
                .and_then(|s| s.get(..size as usize))
                .map(<[u8]>::to_vec)
                .unwrap_or_default();
            if swizzle {
                for texel in bytes.chunks_exact_mut(4) {
                    texel.swap(0, 2);
                }
            }
            (width, height, bytes)
        });
        // SAFETY: the flush waited for the copy; the buffer is used no more.
        unsafe { self.gpu.device.destroy_buffer(buffer, None) };
        let _ = self.gpu.allocator.free(allocation);
        pixels
    }

    /// Records the copy of `texture` into `buffer` and the barrier to the host, and flushes.
    fn copy_to_host(
        &mut self,
        call: &'static str,
        texture: RawHandle,
        buffer: vk::Buffer,
        width: u32,
        height: u32,
    ) -> Result<(), Error> {
        self.use_range(
            texture,
            crate::image_layouts::Subrange::FIRST,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            vk::PipelineStageFlags2::COPY,
            vk::AccessFlags2::TRANSFER_READ,
        );
        let Some(image) = self.resources.images.get(&texture) else {
            return Ok(());
        };
        let region = vk::BufferImageCopy {
            buffer_offset: 0,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            },
            image_offset: vk::Offset3D::default(),
            image_extent: vk::Extent3D {
                width,
                height,
                depth: 1,
            },
        };
        // SAFETY: outside a pass (use_range closed it); the image is in
        // TRANSFER_SRC_OPTIMAL; the buffer is live, bound, and large enough for the region.
        unsafe {
            let device = &self.gpu.device;
            device.cmd_copy_image_to_buffer(
                self.frame.cb,
                image.image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                buffer,
                &[region],
            );
        }
        self.to_host(buffer);
        self.flush_and_wait().map_err(|e| e.to_engine(call))
    }

    /// A host-visible buffer of `size` bytes for a read-back, bound to its memory.
    fn host_buffer(
        &mut self,
        call: &'static str,
        size: u64,
    ) -> Result<(vk::Buffer, gpu_allocator::vulkan::Allocation), Error> {
        let device = self.gpu.device.clone();
        let info = vk::BufferCreateInfo::default()
            .size(size.max(4))
            .usage(vk::BufferUsageFlags::TRANSFER_DST)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: `info` is a valid buffer description living across the call.
        let buffer = unsafe { device.create_buffer(&info, None) }
            .map_err(|r| self.vk_error(call, "vkCreateBuffer (read-back)", r))?;
        // SAFETY: `buffer` was just made from `device`.
        let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
        let allocation = self.gpu.allocator.allocate(&AllocationCreateDesc {
            name: "read-back",
            requirements,
            location: MemoryLocation::GpuToCpu,
            linear: true,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        });
        let allocation = match allocation {
            Ok(allocation) => allocation,
            Err(error) => {
                // SAFETY: the buffer is unused and bound to nothing.
                unsafe { device.destroy_buffer(buffer, None) };
                return Err(Error::GpuBackend {
                    call,
                    object: "a read-back buffer".to_string(),
                    problem: format!("could not get memory: {error} (R-GPU-3)"),
                });
            }
        };
        // SAFETY: the allocation satisfies the buffer's requirements; bound once.
        let bound =
            unsafe { device.bind_buffer_memory(buffer, allocation.memory(), allocation.offset()) };
        if let Err(r) = bound {
            // SAFETY: the buffer is unused.
            unsafe { device.destroy_buffer(buffer, None) };
            let _ = self.gpu.allocator.free(allocation);
            return Err(self.vk_error(call, "vkBindBufferMemory (read-back)", r));
        }
        Ok((buffer, allocation))
    }

    /// Records the barrier that makes a copy into `buffer` visible to the host.
    fn to_host(&self, buffer: vk::Buffer) {
        let to_host = [vk::BufferMemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::COPY)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::HOST)
            .dst_access_mask(vk::AccessFlags2::HOST_READ)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .buffer(buffer)
            .offset(0)
            .size(vk::WHOLE_SIZE)];
        let dependency = vk::DependencyInfo::default().buffer_memory_barriers(&to_host);
        // SAFETY: the frame's command buffer is recording outside a pass (the copy before
        // this barrier needed that); the buffer is live.
        unsafe {
            self.gpu
                .device
                .cmd_pipeline_barrier2(self.frame.cb, &dependency)
        };
    }

    /// Reads a buffer's device-local contents back (what the GPU wrote: copies, updates,
    /// dispatches); flushes the frame.
    pub(crate) fn read_buffer_back(
        &mut self,
        call: &'static str,
        buffer: RawHandle,
    ) -> Result<Vec<u8>, Error> {
        let source = self.gpu_buffer(call, buffer)?;
        let size = self.resources.buffers.get(&buffer).map_or(0, |b| b.size);
        let (host, allocation) = self.host_buffer(call, size)?;
        self.memory_barrier(
            vk::PipelineStageFlags2::COPY,
            vk::AccessFlags2::TRANSFER_READ,
        );
        let region = vk::BufferCopy {
            src_offset: 0,
            dst_offset: 0,
            size,
        };
        // SAFETY: outside a pass (the barrier closed it); both buffers are live, with the
        // transfer usages, and hold `size` bytes.
        unsafe {
            self.gpu
                .device
                .cmd_copy_buffer(self.frame.cb, source, host, &[region])
        };
        self.to_host(host);
        let flushed = self.flush_and_wait().map_err(|e| e.to_engine(call));
        let bytes = flushed.map(|()| {
            allocation
                .mapped_slice()
                .and_then(|s| s.get(..size as usize))
                .map(<[u8]>::to_vec)
                .unwrap_or_default()
        });
        // SAFETY: the flush waited for the copy; the buffer is used no more.
        unsafe { self.gpu.device.destroy_buffer(host, None) };
        let _ = self.gpu.allocator.free(allocation);
        bytes
    }

    /// The GPU's bytes of a read, write or read_write map on the immediate context (R-GPU-2):
    /// a buffer's, or a staging texture's first subresource, rows packed; flushes the frame
    /// and waits. `None` for a resource the GPU never held (no object made, no initial data):
    /// the model's bytes stand.
    pub(crate) fn read_mapped_bytes(
        &mut self,
        resource: Resource,
        bytes: &mut [u8],
    ) -> Option<Result<(), Error>> {
        const CALL: &str = "map";
        let raw = resource.raw();
        let made = match resource {
            Resource::Buffer(_) => self.resources.buffers.contains_key(&raw),
            Resource::Texture(_) => self.resources.images.contains_key(&raw),
        };
        if !made && self.initial_data(resource.kind(), raw).is_none() {
            return None;
        }
        let read = match resource {
            Resource::Buffer(_) => self.read_buffer_back(CALL, raw),
            Resource::Texture(_) => self.read_subresource(CALL, raw, bytes.len() as u64),
        };
        Some(read.map(|gpu| {
            let n = gpu.len().min(bytes.len());
            bytes[..n].copy_from_slice(&gpu[..n]);
        }))
    }

    /// The bytes of a write or read_write map, at its unmap, written into GPU memory through
    /// the ring (R-GPU-2), before any command handed over later.
    pub(crate) fn write_mapped_bytes(
        &mut self,
        resource: Resource,
        bytes: &[u8],
    ) -> Result<(), Error> {
        const CALL: &str = "unmap";
        match resource {
            Resource::Buffer(buffer) => self.upload_buffer(CALL, buffer.raw(), 0, bytes),
            Resource::Texture(texture) => self.upload_texture(CALL, texture.raw(), bytes),
        }
    }

    /// A colour texture's first subresource as `size` packed bytes, in its own format (no
    /// swizzle); flushes the frame.
    fn read_subresource(
        &mut self,
        call: &'static str,
        texture: RawHandle,
        size: u64,
    ) -> Result<Vec<u8>, Error> {
        self.image(call, texture)?;
        let Some(image) = self.resources.images.get(&texture) else {
            return Err(refuse(
                self,
                call,
                ObjectKind::Texture,
                texture,
                "has no image (R-GPU-3)",
            ));
        };
        if crate::translate::is_depth(image.format) {
            return Err(refuse(
                self,
                call,
                ObjectKind::Texture,
                texture,
                format!(
                    "has the depth format {:?}: maps of depth textures are not translated (R-GPU-2)",
                    image.format
                ),
            ));
        }
        let (width, height) = (image.extent.width, image.extent.height);
        let (buffer, allocation) = self.host_buffer(call, size)?;
        let result = self.copy_to_host(call, texture, buffer, width, height);
        let bytes = result.map(|()| {
            allocation
                .mapped_slice()
                .and_then(|s| s.get(..size as usize))
                .map(<[u8]>::to_vec)
                .unwrap_or_default()
        });
        // SAFETY: the flush waited for the copy; the buffer is used no more.
        unsafe { self.gpu.device.destroy_buffer(buffer, None) };
        let _ = self.gpu.allocator.free(allocation);
        bytes
    }

    /// A present: the back buffer read back and kept as the chain's last presented pixels.
    pub(crate) fn present_chain(
        &mut self,
        chain: RawHandle,
        back_buffer: RawHandle,
    ) -> Result<(), Error> {
        let pixels = self.read_back("present", back_buffer)?;
        let count = self.presents.entry(chain).or_insert(0);
        let n = *count;
        *count += 1;
        if let Some(dir) = &self.options.png_dir {
            let name = self
                .device
                .object_name(recorder::ObjectKind::SwapChain, chain);
            let file = match &name.name {
                Some(text) => format!("{text}.{n}.png"),
                None => format!("chain{:x}.{n}.png", chain.to_bits()),
            };
            let path = dir.join(file);
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: {e}", dir.display()))
                .and_then(|()| write_png(&path, &pixels))
                .map_err(|problem| recorder::Error::GpuBackend {
                    call: "present",
                    object: name.to_string(),
                    problem,
                })?;
        }
        self.presented.insert(chain, pixels);
        Ok(())
    }
}

/// Writes RGBA8 pixels as a PNG file.
pub(crate) fn write_png(path: &std::path::Path, pixels: &Pixels) -> Result<(), String> {
    let (width, height, bytes) = pixels;
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), *width, *height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    writer
        .write_image_data(bytes)
        .map_err(|e| format!("{}: {e}", path.display()))
}
