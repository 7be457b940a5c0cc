//! The engine's objects as Vulkan objects, made lazily the first time a command or a draw uses
//! them, from what the device says of them (`texture_info`, `buffer_info`, `view_info`,
//! `gpu_contents`): textures → `VkImage` (one `VkImageView` per D3D11 view, by view handle),
//! buffers → device-local `VkBuffer` (initial data uploaded through the ring), sampler states →
//! `VkSampler`; and the legacy implicit transitions: each image's current layouts and last
//! accesses are tracked (whole, or per mip and slice once part of it moved: `image_layouts.rs`)
//! and a `vkCmdPipelineBarrier2` of exactly the subresources a use names (a view's mips and
//! slices, a clear's mip) is recorded before a use that needs one. A depth texture's shader
//! resource view is made in the depth format (Vulkan reads the depth aspect; D3D11 names a
//! colour format such as `r32_float`).
//!
//! **In:** raw handles from commands and draw records. **Out:** the Vulkan handles, and the
//! barriers recorded into the frame's command buffer.
//!
//! **Invariant.** Barriers and copies are recorded only outside a pass: every function here that
//! records one first closes the open pass (`end_pass`). An image's tracked layouts are the
//! layouts its subresources are in once the commands recorded so far have run. Buffers are synchronised with global
//! memory barriers around every transfer that writes one (`buffer_written`, `before_buffer_write`).

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;
use recorder::{
    BindFlags, Buffer, Error, GpuContents, Handle, ObjectKind, RawHandle, Resource, SamplerDesc,
    Texture,
};

use crate::handle_hash::HandleMap;
use crate::image_layouts::{Layouts, Subrange, Want};
use crate::translate;
use crate::VulkanBackend;

/// An image and what the backend tracks of it.
pub(crate) struct Image {
    pub(crate) image: vk::Image,
    allocation: Option<Allocation>,
    pub(crate) format: vk::Format,
    pub(crate) extent: vk::Extent2D,
    pub(crate) mips: u32,
    pub(crate) layers: u32,
    /// Its layouts, whole or per subresource (`image_layouts.rs`).
    pub(crate) layouts: Layouts,
}

/// A device-local buffer.
pub(crate) struct GpuBuffer {
    pub(crate) buffer: vk::Buffer,
    allocation: Option<Allocation>,
    pub(crate) size: u64,
    /// The engine buffer's own size (`size` is it rounded up to 4 bytes): what a draw binds.
    pub(crate) bytes: u64,
}

/// Every Vulkan object made for an engine object.
#[derive(Default)]
pub(crate) struct Resources {
    pub(crate) images: HandleMap<RawHandle, Image>,
    /// Image views by D3D11 view (kind and handle: each kind numbers its own handles) and the
    /// texture it viewed when the command was recorded (a legacy swap-chain view moves to
    /// another back buffer at each present, R-EX-7: the record says which one), with that
    /// texture and the mips and layers the view sees.
    pub(crate) views:
        HandleMap<(ObjectKind, RawHandle, RawHandle), (vk::ImageView, RawHandle, Subrange)>,
    /// Shader-resource views read with a minimum LOD above 0 (R-ST-6), by view, texture (as
    /// `views` keys them) and the LOD's bits: the view's own image view with
    /// `VkImageViewMinLodCreateInfoEXT`.
    pub(crate) lod_views: HandleMap<(RawHandle, RawHandle, u32), vk::ImageView>,
    pub(crate) buffers: HandleMap<RawHandle, GpuBuffer>,
    pub(crate) samplers: HandleMap<RawHandle, vk::Sampler>,
}

/// The engine's error for an object the backend cannot make.
pub(crate) fn refuse(
    backend: &VulkanBackend,
    call: &'static str,
    kind: ObjectKind,
    handle: RawHandle,
    problem: impl Into<String>,
) -> Error {
    Error::GpuBackend {
        call,
        object: backend.device.object_name(kind, handle).to_string(),
        problem: problem.into(),
    }
}

impl VulkanBackend {
    /// The image of `texture`, made (and its initial data uploaded) on first use.
    pub(crate) fn image(&mut self, call: &'static str, texture: RawHandle) -> Result<(), Error> {
        if self.resources.images.contains_key(&texture) {
            return Ok(());
        }
        let info = self
            .device
            .texture_info(Texture::from_raw(texture))
            .ok_or_else(|| {
                refuse(
                    self,
                    call,
                    ObjectKind::Texture,
                    texture,
                    "is not alive (R-GPU-3)",
                )
            })?;
        let format = translate::format(info.format).ok_or_else(|| {
            refuse(
                self,
                call,
                ObjectKind::Texture,
                texture,
                "has no format (R-GPU-3)",
            )
        })?;
        if info.sample_count > 1 {
            // Refused rather than drawn single-sampled: a multisampled image, its pipelines'
            // sample count and a resolve are not translated yet.
            return Err(refuse(
                self,
                call,
                ObjectKind::Texture,
                texture,
                format!(
                    "has {} samples: multisampled textures are not translated yet (R-GPU-3)",
                    info.sample_count
                ),
            ));
        }
        let mut usage = vk::ImageUsageFlags::TRANSFER_SRC
            | vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::SAMPLED;
        if translate::is_depth(format) {
            usage |= vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
        } else if info.bind.contains(BindFlags::RENDER_TARGET) || info.back_buffer.is_some() {
            usage |= vk::ImageUsageFlags::COLOR_ATTACHMENT;
        }
        if info.bind.contains(BindFlags::UNORDERED_ACCESS) && !translate::is_depth(format) {
            usage |= vk::ImageUsageFlags::STORAGE;
        }
        let extent = vk::Extent2D {
            width: info.width.max(1),
            height: info.height.max(1),
        };
        let (mips, layers) = (info.mip_levels.max(1), info.array_size.max(1));
        self.make_image(call, texture, format, extent, (mips, layers), usage)?;
        if let Some(data) = self.initial_data(ObjectKind::Texture, texture) {
            self.upload_texture(call, texture, &data)?;
        }
        Ok(())
    }

    /// Makes an image (in `UNDEFINED` layout) and keeps it as `texture`'s.
    pub(crate) fn make_image(
        &mut self,
        call: &'static str,
        texture: RawHandle,
        format: vk::Format,
        extent: vk::Extent2D,
        (mips, layers): (u32, u32),
        usage: vk::ImageUsageFlags,
    ) -> Result<(), Error> {
        let create = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D {
                width: extent.width,
                height: extent.height,
                depth: 1,
            })
            .mip_levels(mips)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let device = &self.gpu.device;
        // SAFETY: `create` is a valid 2D image description living across the call.
        let image = unsafe { device.create_image(&create, None) }
            .map_err(|r| self.vk_error(call, "vkCreateImage", r))?;
        // SAFETY: `image` was just made from `device`.
        let requirements = unsafe { device.get_image_memory_requirements(image) };
        let allocation = self.gpu.allocator.allocate(&AllocationCreateDesc {
            name: "texture",
            requirements,
            location: MemoryLocation::GpuOnly,
            linear: false,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        });
        let allocation = match allocation {
            Ok(allocation) => allocation,
            Err(error) => {
                // SAFETY: the image is unused and bound to nothing.
                unsafe { self.gpu.device.destroy_image(image, None) };
                return Err(refuse(
                    self,
                    call,
                    ObjectKind::Texture,
                    texture,
                    format!("could not get memory: {error} (R-GPU-3)"),
                ));
            }
        };
        // SAFETY: the allocation satisfies the image's requirements; bound once.
        let bound = unsafe {
            self.gpu
                .device
                .bind_image_memory(image, allocation.memory(), allocation.offset())
        };
        self.resources.images.insert(
            texture,
            Image {
                image,
                allocation: Some(allocation),
                format,
                extent,
                mips,
                layers,
                layouts: Layouts::new(mips, layers),
            },
        );
        bound.map_err(|r| self.vk_error(call, "vkBindImageMemory", r))
    }

    /// The initial bytes of a buffer or texture, if it was created with some.
    pub(crate) fn initial_data(
        &self,
        kind: ObjectKind,
        handle: RawHandle,
    ) -> Option<std::sync::Arc<[u8]>> {
        match self.device.gpu_contents(kind, handle).as_deref() {
            Some(GpuContents::InitialData(data)) => Some(data.clone()),
            _ => None,
        }
    }

    /// The image view of a D3D11 view (SRV, UAV, RTV or DSV) of `texture` (the resource the
    /// command's record names; null: the view's own), made on first use, and the texture.
    pub(crate) fn image_view(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        view: RawHandle,
        texture: RawHandle,
    ) -> Result<(vk::ImageView, RawHandle), Error> {
        self.image_view_range(call, kind, view, texture)
            .map(|(image_view, texture, _)| (image_view, texture))
    }

    /// [`Self::image_view`] and the mips and layers the view sees (one lookup: per draw).
    pub(crate) fn image_view_range(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        view: RawHandle,
        texture: RawHandle,
    ) -> Result<(vk::ImageView, RawHandle, Subrange), Error> {
        if let Some(&known) = self.resources.views.get(&(kind, view, texture)) {
            return Ok(known);
        }
        let info = match kind {
            ObjectKind::ShaderResourceView => self
                .device
                .view_info(recorder::ShaderResourceView::from_raw(view)),
            ObjectKind::RenderTargetView => self
                .device
                .view_info(recorder::RenderTargetView::from_raw(view)),
            ObjectKind::DepthStencilView => self
                .device
                .view_info(recorder::DepthStencilView::from_raw(view)),
            ObjectKind::UnorderedAccessView => self
                .device
                .view_info(recorder::UnorderedAccessView::from_raw(view)),
            _ => None,
        }
        .ok_or_else(|| refuse(self, call, kind, view, "is not alive (R-GPU-3)"))?;
        let key_texture = texture;
        let texture = match info.resource {
            Resource::Texture(_) if !texture.is_null() => Texture::from_raw(texture),
            Resource::Texture(own) => own,
            Resource::Buffer(_) => {
                return Err(refuse(
                    self,
                    call,
                    kind,
                    view,
                    "views a buffer: buffer views are not translated yet (R-GPU-3)",
                ))
            }
        };
        self.image(call, texture.raw())?;
        let Some(image) = self.resources.images.get(&texture.raw()) else {
            return Err(refuse(self, call, kind, view, "has no image (R-GPU-3)"));
        };
        // A depth image is read in its own format (an `r32_float` view of a `d32_float`
        // texture is D3D11's way to sample depth; Vulkan reads the depth aspect), as DXVK does.
        let format = match translate::format(info.format) {
            Some(_) if translate::is_depth(image.format) => image.format,
            Some(format) => format,
            None => image.format,
        };
        let first_mip = info.first_mip.min(image.mips - 1);
        let mip_count = info.mip_count.clamp(1, image.mips - first_mip);
        let first_slice = info.first_slice.min(image.layers - 1);
        let slice_count = info.slice_count.clamp(1, image.layers - first_slice);
        let (mip_count, slice_count) = match kind {
            ObjectKind::ShaderResourceView => (mip_count, slice_count),
            _ => (1, 1),
        };
        let view_type = if slice_count > 1 {
            vk::ImageViewType::TYPE_2D_ARRAY
        } else {
            vk::ImageViewType::TYPE_2D
        };
        let mut aspects = translate::aspects(format);
        if kind == ObjectKind::ShaderResourceView && translate::is_depth(format) {
            aspects = vk::ImageAspectFlags::DEPTH;
        }
        let range = Subrange {
            first_mip,
            mips: mip_count,
            first_layer: first_slice,
            layers: slice_count,
        };
        let image = image.image;
        let image_view =
            self.make_image_view(call, (image, format, aspects, view_type), range, None)?;
        self.resources.views.insert(
            (kind, view, key_texture),
            (image_view, texture.raw(), range),
        );
        Ok((image_view, texture.raw(), range))
    }

    /// An image view of `image` over `range`, with a minimum LOD where one is given.
    fn make_image_view(
        &self,
        call: &'static str,
        (image, format, aspects, view_type): (
            vk::Image,
            vk::Format,
            vk::ImageAspectFlags,
            vk::ImageViewType,
        ),
        range: Subrange,
        min_lod: Option<f32>,
    ) -> Result<vk::ImageView, Error> {
        let mut lod = vk::ImageViewMinLodCreateInfoEXT::default().min_lod(min_lod.unwrap_or(0.0));
        let mut create = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(view_type)
            .format(format)
            .subresource_range(vk::ImageSubresourceRange {
                aspect_mask: aspects,
                base_mip_level: range.first_mip,
                level_count: range.mips,
                base_array_layer: range.first_layer,
                layer_count: range.layers,
            });
        if min_lod.is_some() {
            create = create.push_next(&mut lod);
        }
        // SAFETY: `create` names a live image of this device with a range inside it; a minimum
        // LOD is chained only where the device enabled `VK_EXT_image_view_min_lod`
        // (`image_view_lod`).
        unsafe { self.gpu.device.create_image_view(&create, None) }
            .map_err(|r| self.vk_error(call, "vkCreateImageView", r))
    }

    /// The image view a draw reads shader-resource view `view` through with minimum LOD
    /// `min_lod` (R-ST-6): [`Self::image_view_range`]'s for 0, else a view of the same range
    /// whose sampling starts at that LOD (`VK_EXT_image_view_min_lod`, as DXVK maps D3D11's
    /// `ResourceMinLOD`), made once per LOD; refused on a device without the extension.
    pub(crate) fn image_view_lod(
        &mut self,
        call: &'static str,
        view: RawHandle,
        texture: RawHandle,
        min_lod: f32,
    ) -> Result<(vk::ImageView, RawHandle, Subrange), Error> {
        let kind = ObjectKind::ShaderResourceView;
        let (base, own, range) = self.image_view_range(call, kind, view, texture)?;
        if min_lod <= 0.0 {
            return Ok((base, own, range));
        }
        let key = (view, texture, min_lod.to_bits());
        if let Some(&known) = self.resources.lod_views.get(&key) {
            return Ok((known, own, range));
        }
        if !self.gpu.features.view_min_lod {
            return Err(refuse(
                self,
                call,
                kind,
                view,
                format!(
                    "is read with minimum LOD {min_lod}, which needs VK_EXT_image_view_min_lod: \
                     the device lacks it (R-ST-6, R-GPU-3)"
                ),
            ));
        }
        let Some(image) = self.resources.images.get(&own) else {
            return Err(refuse(self, call, kind, view, "has no image (R-GPU-3)"));
        };
        let info = self
            .device
            .view_info(recorder::ShaderResourceView::from_raw(view))
            .ok_or_else(|| refuse(self, call, kind, view, "is not alive (R-GPU-3)"))?;
        let format = match translate::format(info.format) {
            Some(_) if translate::is_depth(image.format) => image.format,
            Some(format) => format,
            None => image.format,
        };
        let aspects = if translate::is_depth(format) {
            vk::ImageAspectFlags::DEPTH
        } else {
            translate::aspects(format)
        };
        let view_type = if range.layers > 1 {
            vk::ImageViewType::TYPE_2D_ARRAY
        } else {
            vk::ImageViewType::TYPE_2D
        };
        // D3D11 clamps the LOD to the view's mips; Vulkan requires it inside them.
        let lod = min_lod.min((range.mips - 1) as f32);
        let image = image.image;
        let made =
            self.make_image_view(call, (image, format, aspects, view_type), range, Some(lod))?;
        self.resources.lod_views.insert(key, made);
        Ok((made, own, range))
    }

    /// The device-local buffer of `buffer`, made (and its initial data uploaded) on first use.
    pub(crate) fn gpu_buffer(
        &mut self,
        call: &'static str,
        buffer: RawHandle,
    ) -> Result<vk::Buffer, Error> {
        if let Some(b) = self.resources.buffers.get(&buffer) {
            return Ok(b.buffer);
        }
        let info = self
            .device
            .buffer_info(Buffer::from_raw(buffer))
            .ok_or_else(|| {
                refuse(
                    self,
                    call,
                    ObjectKind::Buffer,
                    buffer,
                    "is not alive (R-GPU-3)",
                )
            })?;
        let size = (info.size as u64).max(4).next_multiple_of(4);
        let vk_buffer = self.make_buffer(call, buffer, size)?;
        if let Some(made) = self.resources.buffers.get_mut(&buffer) {
            made.bytes = info.size as u64;
        }
        if let Some(data) = self.initial_data(ObjectKind::Buffer, buffer) {
            self.upload_buffer(call, buffer, 0, &data)?;
        }
        Ok(vk_buffer)
    }

    /// Makes a device-local buffer of `size` bytes and keeps it as `buffer`'s.
    pub(crate) fn make_buffer(
        &mut self,
        call: &'static str,
        buffer: RawHandle,
        size: u64,
    ) -> Result<vk::Buffer, Error> {
        let create = vk::BufferCreateInfo::default()
            .size(size)
            .usage(
                vk::BufferUsageFlags::TRANSFER_SRC
                    | vk::BufferUsageFlags::TRANSFER_DST
                    | vk::BufferUsageFlags::VERTEX_BUFFER
                    | vk::BufferUsageFlags::INDEX_BUFFER
                    | vk::BufferUsageFlags::UNIFORM_BUFFER
                    | vk::BufferUsageFlags::STORAGE_BUFFER
                    | vk::BufferUsageFlags::INDIRECT_BUFFER,
            )
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let device = &self.gpu.device;
        // SAFETY: `create` is a valid buffer description living across the call.
        let vk_buffer = unsafe { device.create_buffer(&create, None) }
            .map_err(|r| self.vk_error(call, "vkCreateBuffer", r))?;
        // SAFETY: `vk_buffer` was just made from `device`.
        let requirements = unsafe { device.get_buffer_memory_requirements(vk_buffer) };
        let allocation = self.gpu.allocator.allocate(&AllocationCreateDesc {
            name: "buffer",
            requirements,
            location: MemoryLocation::GpuOnly,
            linear: true,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        });
        let allocation = match allocation {
            Ok(allocation) => allocation,
            Err(error) => {
                // SAFETY: the buffer is unused and bound to nothing.
                unsafe { self.gpu.device.destroy_buffer(vk_buffer, None) };
                return Err(refuse(
                    self,
                    call,
                    ObjectKind::Buffer,
                    buffer,
                    format!("could not get memory: {error} (R-GPU-3)"),
                ));
            }
        };
        // SAFETY: the allocation satisfies the buffer's requirements; bound once.
        let bound = unsafe {
            self.gpu
                .device
                .bind_buffer_memory(vk_buffer, allocation.memory(), allocation.offset())
        };
        self.resources.buffers.insert(
            buffer,
            GpuBuffer {
                buffer: vk_buffer,
                allocation: Some(allocation),
                size,
                bytes: size,
            },
        );
        bound.map_err(|r| self.vk_error(call, "vkBindBufferMemory", r))?;
        Ok(vk_buffer)
    }

    /// The sampler of a sampler state (its D3D11 fields, or D3D11's defaults for a state
    /// made without them or for no state), made on first use.
    pub(crate) fn sampler(
        &mut self,
        call: &'static str,
        state: RawHandle,
    ) -> Result<vk::Sampler, Error> {
        if let Some(sampler) = self.resources.samplers.get(&state) {
            return Ok(*sampler);
        }
        let desc = match self
            .device
            .gpu_contents(ObjectKind::SamplerState, state)
            .as_deref()
        {
            Some(GpuContents::Sampler(desc)) => *desc,
            _ => SamplerDesc::default(),
        };
        let filter = if desc.linear {
            vk::Filter::LINEAR
        } else {
            vk::Filter::NEAREST
        };
        let mip = if desc.linear {
            vk::SamplerMipmapMode::LINEAR
        } else {
            vk::SamplerMipmapMode::NEAREST
        };
        let limit = 1000.0f32;
        let create = vk::SamplerCreateInfo::default()
            .mag_filter(filter)
            .min_filter(filter)
            .mipmap_mode(mip)
            .address_mode_u(translate::address(desc.address[0]))
            .address_mode_v(translate::address(desc.address[1]))
            .address_mode_w(translate::address(desc.address[2]))
            .mip_lod_bias(desc.mip_lod_bias.clamp(-15.0, 15.0))
            .min_lod(desc.min_lod.clamp(0.0, limit))
            .max_lod(desc.max_lod.clamp(desc.min_lod.clamp(0.0, limit), limit))
            .border_color(if desc.border_color[3] > 0.5 {
                vk::BorderColor::FLOAT_OPAQUE_WHITE
            } else {
                vk::BorderColor::FLOAT_TRANSPARENT_BLACK
            });
        // SAFETY: `create` is a valid sampler description living across the call.
        let sampler = unsafe { self.gpu.device.create_sampler(&create, None) }
            .map_err(|r| self.vk_error(call, "vkCreateSampler", r))?;
        self.resources.samplers.insert(state, sampler);
        Ok(sampler)
    }

    /// Records the barrier `texture`'s image needs before a use in `layout` by `stages` with
    /// `access` (the legacy implicit transitions), of the whole image.
    pub(crate) fn use_image(
        &mut self,
        texture: RawHandle,
        layout: vk::ImageLayout,
        stages: vk::PipelineStageFlags2,
        access: vk::AccessFlags2,
    ) {
        self.use_range(texture, Subrange::ALL, layout, stages, access);
    }

    /// [`Self::use_image`] of `range` alone: only its subresources move (`image_layouts.rs`);
    /// closes the pass first if a barrier is needed, or if a transfer follows.
    pub(crate) fn use_range(
        &mut self,
        texture: RawHandle,
        range: Subrange,
        layout: vk::ImageLayout,
        stages: vk::PipelineStageFlags2,
        access: vk::AccessFlags2,
    ) {
        if self.has_pending_clears(texture) {
            self.flush_pending_clears(texture);
        }
        if matches!(
            layout,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL | vk::ImageLayout::TRANSFER_DST_OPTIMAL
        ) {
            // A transfer follows: never inside a pass, barrier or not.
            self.end_pass();
        }
        let Some(image) = self.resources.images.get_mut(&texture) else {
            return;
        };
        let want = Want {
            layout,
            stages,
            access,
            explicit: None,
        };
        let mut barriers = std::mem::take(&mut self.image_barriers);
        let aspects = translate::aspects(image.format);
        image
            .layouts
            .transition(image.image, aspects, range, &want, &mut barriers);
        if !barriers.is_empty() {
            // A layout moved: a draw resolved before reads it again (R-GPU-6).
            self.changes.set_everything();
            self.end_pass();
            self.barrier_counts.implicit += barriers.len() as u64;
            let dependency = vk::DependencyInfo::default().image_memory_barriers(&barriers);
            // SAFETY: the frame's command buffer is recording, outside a pass (closed above);
            // the barriers name a live image of this device, each old layout the one its
            // subresources are in (tracked), each range inside the image.
            unsafe {
                self.gpu
                    .device
                    .cmd_pipeline_barrier2(self.frame.cb, &dependency)
            };
            barriers.clear();
        }
        self.image_barriers = barriers;
    }

    /// A global barrier: what earlier commands did (every stage, every access) completes and is
    /// visible before `stages` do `access`. Used around buffer transfers (module invariant).
    pub(crate) fn memory_barrier(
        &mut self,
        stages: vk::PipelineStageFlags2,
        access: vk::AccessFlags2,
    ) {
        self.changes.set_everything();
        self.end_pass();
        let barriers = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
            .src_access_mask(vk::AccessFlags2::MEMORY_WRITE)
            .dst_stage_mask(stages)
            .dst_access_mask(access)];
        let dependency = vk::DependencyInfo::default().memory_barriers(&barriers);
        // SAFETY: the frame's command buffer is recording, outside a pass (closed above).
        unsafe {
            self.gpu
                .device
                .cmd_pipeline_barrier2(self.frame.cb, &dependency)
        };
    }

    /// Before a transfer writes a buffer: earlier reads and writes of it are done.
    pub(crate) fn before_buffer_write(&mut self) {
        self.memory_barrier(
            vk::PipelineStageFlags2::TRANSFER,
            vk::AccessFlags2::TRANSFER_WRITE | vk::AccessFlags2::TRANSFER_READ,
        );
    }

    /// After a transfer wrote a buffer: every later stage reads what it wrote.
    pub(crate) fn buffer_written(&mut self) {
        self.memory_barrier(
            vk::PipelineStageFlags2::ALL_COMMANDS,
            vk::AccessFlags2::MEMORY_READ | vk::AccessFlags2::MEMORY_WRITE,
        );
    }

    /// Destroys every object (the device is idle).
    pub(crate) fn destroy_resources(&mut self) {
        let device = &self.gpu.device;
        let allocator = &mut self.gpu.allocator;
        // SAFETY: the device is idle (the backend's `Drop` waited); each object is destroyed
        // once, views before their images, and memory freed after its object.
        unsafe {
            for (_, view) in self.resources.lod_views.drain() {
                device.destroy_image_view(view, None);
            }
            for (_, (view, _, _)) in self.resources.views.drain() {
                device.destroy_image_view(view, None);
            }
            for (_, mut image) in self.resources.images.drain() {
                device.destroy_image(image.image, None);
                if let Some(allocation) = image.allocation.take() {
                    let _ = allocator.free(allocation);
                }
            }
            for (_, mut buffer) in self.resources.buffers.drain() {
                device.destroy_buffer(buffer.buffer, None);
                if let Some(allocation) = buffer.allocation.take() {
                    let _ = allocator.free(allocation);
                }
            }
            for (_, sampler) in self.resources.samplers.drain() {
                device.destroy_sampler(sampler, None);
            }
        }
    }
}
