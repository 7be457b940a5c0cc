//! Passes (R-GPU-3): dynamic rendering (`vkCmdBeginRendering`), a pass opened lazily at the
//! first draw on a set of targets and closed at a target change, a copy, an update, a
//! dispatch, a present or a submission; and the clears.
//!
//! **In:** the render-target and depth-stencil views of a draw; the clears the model applied.
//! **Out:** `vkCmdBeginRendering`/`vkCmdEndRendering`, with the attachments moved to their
//! attachment layouts before; `vkCmdClearAttachments` for a clear of a target of the open pass,
//! `vkCmdClearColorImage`/`vkCmdClearDepthStencilImage` (in `TRANSFER_DST_OPTIMAL`) for one
//! when no pass on it is open.
//!
//! **Invariant.** At most one pass is open; while it is, nothing records a barrier or a
//! transfer (they close it first: `end_pass`). Attachments load and store (`LOAD`/`STORE`):
//! D3D11 keeps a target's contents between draws. Folding a clear into the next pass's
//! `LOAD_OP_CLEAR` is not done yet: a clear outside a pass is a transfer clear.

use ash::vk;
use recorder::command::BoundView;
use recorder::{ClearFlags, Error, ObjectKind, RawHandle};

use crate::VulkanBackend;

/// The open pass: its targets (view handles) and size.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct OpenPass {
    pub(crate) colors: Vec<RawHandle>,
    pub(crate) depth: RawHandle,
    pub(crate) extent: vk::Extent2D,
}

impl VulkanBackend {
    /// Closes the open pass, if any.
    pub(crate) fn end_pass(&mut self) {
        if self.pass.take().is_some() {
            // SAFETY: a pass is open on the frame's recording command buffer.
            unsafe { self.gpu.device.cmd_end_rendering(self.frame.cb) };
        }
    }

    /// Makes sure a pass on exactly these targets is open: `colors` render-target views with
    /// their textures, `depth` a depth-stencil view and texture (null for none).
    pub(crate) fn open_pass(
        &mut self,
        call: &'static str,
        colors: &[(RawHandle, RawHandle)],
        depth: (RawHandle, RawHandle),
    ) -> Result<(), Error> {
        if let Some(pass) = &self.pass {
            if pass.depth == depth.0
                && pass.colors.len() == colors.len()
                && pass.colors.iter().zip(colors).all(|(a, b)| *a == b.0)
            {
                return Ok(());
            }
        }
        self.end_pass();
        let mut extent = vk::Extent2D {
            width: u32::MAX,
            height: u32::MAX,
        };
        let mut color_attachments = Vec::with_capacity(colors.len());
        for &(view, texture) in colors {
            let (image_view, _) = self.image_view(call, ObjectKind::RenderTargetView, view)?;
            self.use_image(
                texture,
                vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT,
                vk::AccessFlags2::COLOR_ATTACHMENT_READ | vk::AccessFlags2::COLOR_ATTACHMENT_WRITE,
            );
            if let Some(image) = self.resources.images.get(&texture) {
                extent.width = extent.width.min(image.extent.width);
                extent.height = extent.height.min(image.extent.height);
            }
            color_attachments.push(
                vk::RenderingAttachmentInfo::default()
                    .image_view(image_view)
                    .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .load_op(vk::AttachmentLoadOp::LOAD)
                    .store_op(vk::AttachmentStoreOp::STORE),
            );
        }
        let mut depth_attachment = None;
        if !depth.0.is_null() {
            let (image_view, _) = self.image_view(call, ObjectKind::DepthStencilView, depth.0)?;
            self.use_image(
                depth.1,
                vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS
                    | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS,
                vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ
                    | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
            );
            if let Some(image) = self.resources.images.get(&depth.1) {
                extent.width = extent.width.min(image.extent.width);
                extent.height = extent.height.min(image.extent.height);
            }
            depth_attachment = Some(
                vk::RenderingAttachmentInfo::default()
                    .image_view(image_view)
                    .image_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
                    .load_op(vk::AttachmentLoadOp::LOAD)
                    .store_op(vk::AttachmentStoreOp::STORE),
            );
        }
        if extent.width == u32::MAX {
            // No target: D3D11 rasterizes with nothing bound; a 1x1 area stands for it.
            extent = vk::Extent2D {
                width: 1,
                height: 1,
            };
        }
        let stencil = self
            .resources
            .images
            .get(&depth.1)
            .filter(|i| crate::translate::aspects(i.format).contains(vk::ImageAspectFlags::STENCIL))
            .and(depth_attachment.as_ref());
        let mut info = vk::RenderingInfo::default()
            .render_area(vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent,
            })
            .layer_count(1)
            .color_attachments(&color_attachments);
        if let Some(depth) = depth_attachment.as_ref() {
            info = info.depth_attachment(depth);
        }
        if let Some(stencil) = stencil {
            info = info.stencil_attachment(stencil);
        }
        // SAFETY: the command buffer is recording outside a pass (closed above); the
        // attachments are live views in the layouts named (transitioned above).
        unsafe { self.gpu.device.cmd_begin_rendering(self.frame.cb, &info) };
        self.pass = Some(super::passes::OpenPass {
            colors: colors.iter().map(|c| c.0).collect(),
            depth: depth.0,
            extent,
        });
        self.frame.dirty = true;
        Ok(())
    }

    /// `clear_render_target_view`.
    pub(crate) fn clear_render_target(
        &mut self,
        view: &BoundView,
        color: [f32; 4],
    ) -> Result<(), Error> {
        const CALL: &str = "clear_render_target_view";
        let in_pass = self.pass.as_ref().and_then(|p| {
            p.colors
                .iter()
                .position(|c| *c == view.view)
                .map(|i| (i, p.extent))
        });
        let value = vk::ClearValue {
            color: vk::ClearColorValue { float32: color },
        };
        if let Some((index, extent)) = in_pass {
            let attachments = [vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: index as u32,
                clear_value: value,
            }];
            let rects = [full_rect(extent)];
            // SAFETY: a pass is open with this view as colour attachment `index`; the rect
            // is the pass's render area.
            unsafe {
                self.gpu
                    .device
                    .cmd_clear_attachments(self.frame.cb, &attachments, &rects)
            };
            return Ok(());
        }
        self.image_view(CALL, ObjectKind::RenderTargetView, view.view)?;
        self.use_image(
            view.resource,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::PipelineStageFlags2::CLEAR,
            vk::AccessFlags2::TRANSFER_WRITE,
        );
        let Some(image) = self.resources.images.get(&view.resource) else {
            return Ok(());
        };
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: (view.first_mip as u32).min(image.mips - 1),
            level_count: 1,
            base_array_layer: 0,
            layer_count: vk::REMAINING_ARRAY_LAYERS,
        };
        // SAFETY: recording outside a pass (use_image closed it); the image is in
        // TRANSFER_DST_OPTIMAL (transitioned above) and was made with TRANSFER_DST usage.
        unsafe {
            self.gpu.device.cmd_clear_color_image(
                self.frame.cb,
                image.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &vk::ClearColorValue { float32: color },
                &[range],
            )
        };
        self.frame.dirty = true;
        Ok(())
    }

    /// `clear_depth_stencil_view`.
    pub(crate) fn clear_depth_stencil(
        &mut self,
        view: &BoundView,
        flags: ClearFlags,
        depth: f32,
        stencil: u8,
    ) -> Result<(), Error> {
        const CALL: &str = "clear_depth_stencil_view";
        self.image_view(CALL, ObjectKind::DepthStencilView, view.view)?;
        let Some(format) = self.resources.images.get(&view.resource).map(|i| i.format) else {
            return Ok(());
        };
        let has_stencil = crate::translate::aspects(format).contains(vk::ImageAspectFlags::STENCIL);
        let mut aspects = vk::ImageAspectFlags::empty();
        if flags.depth {
            aspects |= vk::ImageAspectFlags::DEPTH;
        }
        if flags.stencil && has_stencil {
            aspects |= vk::ImageAspectFlags::STENCIL;
        }
        if aspects.is_empty() {
            return Ok(());
        }
        let value = vk::ClearDepthStencilValue {
            depth,
            stencil: stencil as u32,
        };
        if let Some(extent) = self
            .pass
            .as_ref()
            .filter(|p| p.depth == view.view)
            .map(|p| p.extent)
        {
            let attachments = [vk::ClearAttachment {
                aspect_mask: aspects,
                color_attachment: 0,
                clear_value: vk::ClearValue {
                    depth_stencil: value,
                },
            }];
            // SAFETY: a pass is open with this view as its depth attachment.
            unsafe {
                self.gpu.device.cmd_clear_attachments(
                    self.frame.cb,
                    &attachments,
                    &[full_rect(extent)],
                )
            };
            return Ok(());
        }
        self.use_image(
            view.resource,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::PipelineStageFlags2::CLEAR,
            vk::AccessFlags2::TRANSFER_WRITE,
        );
        let Some(image) = self.resources.images.get(&view.resource) else {
            return Ok(());
        };
        let range = vk::ImageSubresourceRange {
            aspect_mask: aspects,
            base_mip_level: (view.first_mip as u32).min(image.mips - 1),
            level_count: 1,
            base_array_layer: 0,
            layer_count: vk::REMAINING_ARRAY_LAYERS,
        };
        // SAFETY: recording outside a pass; the image is in TRANSFER_DST_OPTIMAL and was
        // made with TRANSFER_DST usage; the aspects are the format's.
        unsafe {
            self.gpu.device.cmd_clear_depth_stencil_image(
                self.frame.cb,
                image.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &value,
                &[range],
            )
        };
        self.frame.dirty = true;
        Ok(())
    }
}

fn full_rect(extent: vk::Extent2D) -> vk::ClearRect {
    vk::ClearRect {
        rect: vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent,
        },
        base_array_layer: 0,
        layer_count: 1,
    }
}
