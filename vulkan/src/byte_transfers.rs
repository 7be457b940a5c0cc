//! The model's non-draw commands that move bytes (R-GPU-2, R-GPU-3): clears (to `passes.rs`),
//! copies, `update_subresource`, and the maps a list carries; with the uploads every one of
//! them and the lazily made objects use (bytes placed in the ring, copied with
//! `vkCmdCopyBuffer`/`vkCmdCopyBufferToImage`).
//!
//! **In:** [`Command`]s after the model applied them, with their resolved resources and
//! instances. **Out:** transfer commands outside any pass (each closes the open pass), global
//! memory barriers around buffer writes and image transitions before image copies (a region
//! copy within one texture: `GENERAL` for both ends, the recorder having refused overlap); a dynamic
//! buffer's write-discard map becomes a new ring region for `(buffer, instance)`, with no
//! command at all; query commands go to `query_pools.rs`, barriers and legacy resource
//! barriers to `barrier_translation.rs`. Commands that bind (the draw's record has what they
//! bound), fences and the other commands are not translated; of those that move bytes,
//! `copy_structure_count` is counted in `untranslated`. A region copy the backend cannot
//! translate (formats of different size classes, block-compressed texels off block edges) is
//! refused naming the destination.
//!
//! **Invariant.** The bytes of each dynamic buffer's latest instance are kept (`latest`), in a
//! vector reused map after map, so that a draw in a later frame, after the ring was reset,
//! reads them again.

use ash::vk;
use recorder::command::{BoundResource, Command};
use recorder::{Buffer, CopyBox, Error, Handle, ObjectKind, RawHandle, Texture, Usage};

use crate::resources::refuse;
use crate::VulkanBackend;

/// A region copy's destination: texture, subresource (`mip + slice * mips`), left, top.
type RegionTarget = (RawHandle, u32, u32, u32);

impl VulkanBackend {
    /// One command the model applied (see the module essay).
    pub(crate) fn translate_command(&mut self, command: &Command<'_>) -> Result<(), Error> {
        match *command {
            Command::ClearRenderTargetView { view, color } => self.clear_render_target(view, color),
            Command::ClearDepthStencilView {
                view,
                flags,
                depth,
                stencil,
            } => self.clear_depth_stencil(&view, flags, depth, stencil),
            Command::UpdateSubresource { resource, data } => {
                self.write_resource("update_subresource", &resource, data)
            }
            Command::MapWriteDiscard { .. } | Command::MapWriteNoOverwrite { .. } => {
                self.translate_map(command).map(|_| ())
            }
            Command::Barrier { barriers } => self.translate_barriers(barriers),
            Command::BeginQuery(_)
            | Command::EndQuery(_)
            | Command::WriteQuery(_)
            | Command::ResetQuery(_)
            | Command::ConfigureQuery { .. } => self.translate_query(command),
            Command::ResourceBarrier { barriers } => self.translate_resource_barriers(barriers),
            Command::CopyResource {
                destination,
                source,
            } => self.copy("copy_resource", destination, 0, source, 0, None),
            Command::CopyBufferRegion {
                destination,
                destination_offset,
                source,
                source_offset,
                bytes,
            } => self.copy(
                "copy_buffer_region",
                destination,
                destination_offset,
                source,
                source_offset,
                Some(bytes),
            ),
            Command::CopyTextureRegion {
                destination,
                destination_subresource,
                x,
                y,
                source,
                source_subresource,
                source_box,
            } => self.copy_texture_region(
                (destination.resource, destination_subresource, x, y),
                (source.resource, source_subresource),
                *source_box,
            ),
            _ => {
                if !command.is_draw_or_dispatch() && command_moves_bytes(command) {
                    self.untranslated += 1;
                }
                Ok(())
            }
        }
    }

    /// Places `data` in the ring, flushing the frame first when it is full.
    pub(crate) fn ring_place(&mut self, call: &'static str, data: &[u8]) -> Result<u64, Error> {
        if let Some(offset) = self.ring.place(data) {
            return Ok(offset);
        }
        if !self.ring.fits(data.len()) {
            return Err(Error::GpuBackend {
                call,
                object: "the upload ring".to_string(),
                problem: format!(
                    "cannot hold {} bytes: make the ring larger (VulkanOptions::ring_bytes, R-GPU-3)",
                    data.len()
                ),
            });
        }
        self.flush().map_err(|e| e.to_engine(call))?;
        self.ring.place(data).ok_or_else(|| Error::GpuBackend {
            call,
            object: "the upload ring".to_string(),
            problem: "is full after a flush (R-GPU-3)".to_string(),
        })
    }

    /// `data` written into `buffer` at `offset` through the ring.
    pub(crate) fn upload_buffer(
        &mut self,
        call: &'static str,
        buffer: RawHandle,
        offset: u64,
        data: &[u8],
    ) -> Result<(), Error> {
        let target = self.gpu_buffer(call, buffer)?;
        let size = self.resources.buffers.get(&buffer).map_or(0, |b| b.size);
        let bytes = (data.len() as u64).min(size.saturating_sub(offset));
        if bytes == 0 {
            return Ok(());
        }
        let source = self.ring_place(call, &data[..bytes as usize])?;
        self.before_buffer_write();
        let region = vk::BufferCopy {
            src_offset: source,
            dst_offset: offset,
            size: bytes,
        };
        // SAFETY: outside a pass (the barrier closed it); both buffers are live with the
        // transfer usages; the regions lie inside them (clamped above).
        unsafe {
            self.gpu
                .device
                .cmd_copy_buffer(self.frame.cb, self.ring.buffer, target, &[region])
        };
        self.buffer_written();
        self.frame.dirty = true;
        Ok(())
    }

    /// `data` (the first subresource, rows packed) written into `texture` through the ring.
    pub(crate) fn upload_texture(
        &mut self,
        call: &'static str,
        texture: RawHandle,
        data: &[u8],
    ) -> Result<(), Error> {
        self.image(call, texture)?;
        let info = self.device.texture_info(Texture::from_raw(texture));
        let (width, height) = info.map_or((1, 1), |i| (i.width.max(1), i.height.max(1)));
        let element = info.map_or(0, |i| i.format.bytes_per_element()) as u64;
        let block = info.is_some_and(|i| i.format.name().starts_with("bc"));
        let needed = if block {
            (width as u64).div_ceil(4) * (height as u64).div_ceil(4) * element
        } else {
            width as u64 * height as u64 * element
        };
        if (data.len() as u64) < needed || needed == 0 {
            return Err(refuse(
                self,
                call,
                ObjectKind::Texture,
                texture,
                format!(
                    "is given {} bytes for its first subresource, which takes {needed} (R-GPU-2)",
                    data.len()
                ),
            ));
        }
        let source = self.ring_place(call, &data[..needed as usize])?;
        self.use_range(
            texture,
            crate::image_layouts::Subrange::FIRST,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::PipelineStageFlags2::COPY,
            vk::AccessFlags2::TRANSFER_WRITE,
        );
        let Some(image) = self.resources.images.get(&texture) else {
            return Ok(());
        };
        let region = vk::BufferImageCopy {
            buffer_offset: source,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: crate::translate::aspects(image.format)
                    & !vk::ImageAspectFlags::STENCIL,
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
        // SAFETY: outside a pass (use_range closed it, the ring was written before); the
        // image is in TRANSFER_DST_OPTIMAL; the region is inside both.
        unsafe {
            self.gpu.device.cmd_copy_buffer_to_image(
                self.frame.cb,
                self.ring.buffer,
                image.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[region],
            )
        };
        self.frame.dirty = true;
        Ok(())
    }

    fn write_resource(
        &mut self,
        call: &'static str,
        resource: &BoundResource,
        data: &[u8],
    ) -> Result<(), Error> {
        if resource.kind() == ObjectKind::Texture {
            self.upload_texture(call, resource.resource, data)
        } else {
            self.upload_buffer(call, resource.resource, 0, data)
        }
    }

    /// A map (`MapWriteDiscard`, `MapWriteNoOverwrite`); `true` where only the ring took it
    /// (a dynamic buffer's new region, or bytes written in place): nothing recorded, nothing a
    /// draw's resolution found moved (R-GPU-6); `false` where it was a transfer.
    pub(crate) fn translate_map(&mut self, command: &Command<'_>) -> Result<bool, Error> {
        match *command {
            Command::MapWriteDiscard { resource, data } => self.map_discard(&resource, data),
            Command::MapWriteNoOverwrite { resource, data } => {
                self.map_no_overwrite(&resource, data)
            }
            _ => Ok(false),
        }
    }

    /// A write-discard map: a dynamic buffer's new instance is a new ring region, and its
    /// location is kept for the draws that bind it (`Locations`): no lookup at the draw. A
    /// buffer mapped before is known dynamic by its kept bytes (no look in the device's table).
    fn map_discard(&mut self, resource: &BoundResource, data: &[u8]) -> Result<bool, Error> {
        const CALL: &str = "map_write_discard";
        let buffer = resource.resource;
        if resource.kind() != ObjectKind::Buffer {
            return self.write_resource(CALL, resource, data).map(|()| false);
        }
        let size = match self.latest.get(&buffer) {
            Some(kept) => kept.1,
            None => match self.device.buffer_info(Buffer::from_raw(buffer)) {
                Some(info) if info.usage == Usage::Dynamic => info.size as u64,
                _ => return self.write_resource(CALL, resource, data).map(|()| false),
            },
        };
        let offset = self.ring_place(CALL, data)?;
        let entry = self
            .latest
            .entry(buffer)
            .or_insert_with(|| (resource.instance, size, Vec::new()));
        entry.0 = resource.instance;
        entry.2.clear();
        entry.2.extend_from_slice(data);
        self.ring.keep_region(buffer, resource.instance, offset);
        self.locations
            .put(buffer, resource.instance, (self.ring.buffer, offset, size));
        Ok(true)
    }

    /// A write-no-overwrite map: the bytes written in place (the application promises the GPU
    /// reads none of them).
    fn map_no_overwrite(&mut self, resource: &BoundResource, data: &[u8]) -> Result<bool, Error> {
        const CALL: &str = "map_write_no_overwrite";
        let buffer = resource.resource;
        // The instance's region this frame: where its map put it (`Locations`, a location in
        // the ring), else the ring's index.
        let region = match self.locations.get(buffer, resource.instance) {
            Some((vk_buffer, offset, _)) if vk_buffer == self.ring.buffer => Some(offset),
            _ => self.ring.region(buffer, resource.instance),
        };
        if let Some(offset) = region {
            self.ring.write(offset, data);
            if let Some(kept) = self
                .latest
                .get_mut(&buffer)
                .filter(|k| k.0 == resource.instance)
            {
                let n = data.len().min(kept.2.len());
                kept.2[..n].copy_from_slice(&data[..n]);
            }
            return Ok(true);
        }
        if let Some(kept) = self
            .latest
            .get_mut(&buffer)
            .filter(|k| k.0 == resource.instance)
        {
            let n = data.len().min(kept.2.len());
            kept.2[..n].copy_from_slice(&data[..n]);
            return Ok(true);
        }
        self.write_resource(CALL, resource, data).map(|()| false)
    }

    /// A copy between two buffers or two textures.
    fn copy(
        &mut self,
        call: &'static str,
        destination: &BoundResource,
        destination_offset: u64,
        source: &BoundResource,
        source_offset: u64,
        bytes: Option<u64>,
    ) -> Result<(), Error> {
        if destination.kind() == ObjectKind::Texture && source.kind() == ObjectKind::Texture {
            return self.copy_texture(call, destination.resource, source.resource);
        }
        if destination.kind() != source.kind() {
            return Err(refuse(
                self,
                call,
                destination.kind(),
                destination.resource,
                "is copied from a resource of another kind: not translated (R-GPU-3)",
            ));
        }
        let (src, src_base, src_size) =
            self.buffer_location(call, source.resource, source.instance)?;
        let dst = self.gpu_buffer(call, destination.resource)?;
        let dst_size = self
            .resources
            .buffers
            .get(&destination.resource)
            .map_or(0, |b| b.size);
        let size = bytes
            .unwrap_or(src_size)
            .min(src_size.saturating_sub(source_offset))
            .min(dst_size.saturating_sub(destination_offset));
        if size == 0 {
            return Ok(());
        }
        self.before_buffer_write();
        let region = vk::BufferCopy {
            src_offset: src_base + source_offset,
            dst_offset: destination_offset,
            size,
        };
        // SAFETY: outside a pass (the barrier closed it); both buffers are live with the
        // transfer usages; the regions lie inside them (clamped above).
        unsafe {
            self.gpu
                .device
                .cmd_copy_buffer(self.frame.cb, src, dst, &[region])
        };
        self.buffer_written();
        self.frame.dirty = true;
        Ok(())
    }

    fn copy_texture(
        &mut self,
        call: &'static str,
        destination: RawHandle,
        source: RawHandle,
    ) -> Result<(), Error> {
        self.image(call, source)?;
        self.image(call, destination)?;
        self.use_image(
            source,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            vk::PipelineStageFlags2::COPY,
            vk::AccessFlags2::TRANSFER_READ,
        );
        self.use_image(
            destination,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::PipelineStageFlags2::COPY,
            vk::AccessFlags2::TRANSFER_WRITE,
        );
        let (Some(src), Some(dst)) = (
            self.resources.images.get(&source),
            self.resources.images.get(&destination),
        ) else {
            return Ok(());
        };
        let aspects = crate::translate::aspects(src.format);
        let regions: Vec<_> = (0..src.mips.min(dst.mips))
            .map(|mip| vk::ImageCopy {
                src_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspects,
                    mip_level: mip,
                    base_array_layer: 0,
                    layer_count: src.layers.min(dst.layers),
                },
                src_offset: vk::Offset3D::default(),
                dst_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspects,
                    mip_level: mip,
                    base_array_layer: 0,
                    layer_count: src.layers.min(dst.layers),
                },
                dst_offset: vk::Offset3D::default(),
                extent: vk::Extent3D {
                    width: (src.extent.width.min(dst.extent.width) >> mip).max(1),
                    height: (src.extent.height.min(dst.extent.height) >> mip).max(1),
                    depth: 1,
                },
            })
            .collect();
        // SAFETY: outside a pass; the images are in the transfer layouts named (transitioned
        // above) and the regions lie inside both.
        unsafe {
            self.gpu.device.cmd_copy_image(
                self.frame.cb,
                src.image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                dst.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &regions,
            )
        };
        self.frame.dirty = true;
        Ok(())
    }

    /// `copy_texture_region` (R-GPU-3): a box of a source subresource to a point of a
    /// destination subresource, one `vkCmdCopyImage` region; a copy within one texture (the
    /// recorder refused overlapping regions) uses the `GENERAL` layout for both ends.
    fn copy_texture_region(
        &mut self,
        (destination, dst_sub, x, y): RegionTarget,
        (source, src_sub): (RawHandle, u32),
        b: CopyBox,
    ) -> Result<(), Error> {
        const CALL: &str = "copy_texture_region";
        self.image(CALL, source)?;
        self.image(CALL, destination)?;
        let (Some(src), Some(dst)) = (
            self.resources.images.get(&source),
            self.resources.images.get(&destination),
        ) else {
            return Ok(());
        };
        let info = |t| self.device.texture_info(Texture::from_raw(t));
        let (Some(src_info), Some(dst_info)) = (info(source), info(destination)) else {
            return Ok(());
        };
        let compressed = |i: recorder::TextureInfo| i.format.name().starts_with("bc");
        let same_class = src.format == dst.format
            || (!crate::translate::is_depth(src.format)
                && !crate::translate::is_depth(dst.format)
                && !compressed(src_info)
                && !compressed(dst_info)
                && src_info.format.bytes_per_element() == dst_info.format.bytes_per_element());
        let problem = if !same_class {
            Some(format!(
                "({:?}) is copied a region of a texture of format {:?}: Vulkan copies only between formats of one size class (R-GPU-3)",
                dst.format, src.format
            ))
        } else if compressed(src_info)
            && !on_blocks(
                b,
                (x, y),
                mip_size(src_info, src_sub),
                mip_size(dst_info, dst_sub),
            )
        {
            Some("is copied a region of block-compressed texels not on 4x4 block edges: not translated (R-GPU-3)".to_string())
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(refuse(
                self,
                CALL,
                ObjectKind::Texture,
                destination,
                problem,
            ));
        }
        let layers = |sub: u32, mips: u32| (sub % mips.max(1), sub / mips.max(1));
        let ((src_mip, src_layer), (dst_mip, dst_layer)) =
            (layers(src_sub, src.mips), layers(dst_sub, dst.mips));
        let aspects = crate::translate::aspects(src.format);
        let region = vk::ImageCopy {
            src_subresource: vk::ImageSubresourceLayers {
                aspect_mask: aspects,
                mip_level: src_mip,
                base_array_layer: src_layer,
                layer_count: 1,
            },
            src_offset: vk::Offset3D {
                x: b.left as i32,
                y: b.top as i32,
                z: 0,
            },
            dst_subresource: vk::ImageSubresourceLayers {
                aspect_mask: aspects,
                mip_level: dst_mip,
                base_array_layer: dst_layer,
                layer_count: 1,
            },
            dst_offset: vk::Offset3D {
                x: x as i32,
                y: y as i32,
                z: 0,
            },
            extent: vk::Extent3D {
                width: b.right.saturating_sub(b.left),
                height: b.bottom.saturating_sub(b.top),
                depth: 1,
            },
        };
        if region.extent.width == 0 || region.extent.height == 0 {
            return Ok(());
        }
        let (src_layout, dst_layout) = if source == destination {
            let access = vk::AccessFlags2::TRANSFER_READ | vk::AccessFlags2::TRANSFER_WRITE;
            let general = vk::ImageLayout::GENERAL;
            self.use_image(source, general, vk::PipelineStageFlags2::COPY, access);
            (general, general)
        } else {
            self.use_image(
                source,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                vk::PipelineStageFlags2::COPY,
                vk::AccessFlags2::TRANSFER_READ,
            );
            self.use_image(
                destination,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::PipelineStageFlags2::COPY,
                vk::AccessFlags2::TRANSFER_WRITE,
            );
            (
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            )
        };
        let (Some(src), Some(dst)) = (
            self.resources.images.get(&source),
            self.resources.images.get(&destination),
        ) else {
            return Ok(());
        };
        // SAFETY: outside a pass (use_image closed it); the images are in the layouts named
        // (transitioned above, the whole image); the recorder checked that the subresources
        // exist and that the box and the region lie inside them, and refused overlap within one
        // texture; the formats are of one size class (checked above).
        unsafe {
            self.gpu.device.cmd_copy_image(
                self.frame.cb,
                src.image,
                src_layout,
                dst.image,
                dst_layout,
                &[region],
            )
        };
        self.frame.dirty = true;
        Ok(())
    }
}

/// The texels of mip level `subresource % mips` of `info`.
fn mip_size(info: recorder::TextureInfo, subresource: u32) -> (u32, u32) {
    let mip = (subresource % info.mip_levels.max(1)).min(31);
    ((info.width >> mip).max(1), (info.height >> mip).max(1))
}

/// Whether a region copy of block-compressed texels lies on 4x4 block edges: offsets on
/// blocks, and each end on a block or at its subresource's edge (Vulkan's rule).
fn on_blocks(b: CopyBox, (x, y): (u32, u32), src: (u32, u32), dst: (u32, u32)) -> bool {
    let (w, h) = (
        b.right.saturating_sub(b.left),
        b.bottom.saturating_sub(b.top),
    );
    let end = |start: u32, size: u32, edge: u32| {
        let end = start.saturating_add(size);
        end.is_multiple_of(4) || end == edge
    };
    [b.left, b.top, x, y].iter().all(|v| v.is_multiple_of(4))
        && end(b.left, w, src.0)
        && end(b.top, h, src.1)
        && end(x, w, dst.0)
        && end(y, h, dst.1)
}

/// Whether a command the backend ignores changes GPU memory (a structure count: the backend's
/// UAVs have no hidden counter, no WGSL shader appends, so the count would be invented):
/// counted as untranslated. Binds, barriers and fences move no bytes (the draw's record has
/// what they bound; transitions are the backend's own).
fn command_moves_bytes(command: &Command<'_>) -> bool {
    matches!(command, Command::CopyStructureCount { .. })
}
