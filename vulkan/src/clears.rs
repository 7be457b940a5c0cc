//! Clears (R-GPU-3): `clear_render_target_view` and `clear_depth_stencil_view` as the model
//! applied them, folded into the next pass's load operation where they can be.
//!
//! **In:** the cleared view (resolved: its texture, first mip) and the values. **Out:** for a
//! colour target, one of three: `vkCmdClearAttachments` when the view is a target of the open
//! pass and covers its render area; a *pending* clear otherwise, which the next pass on that
//! view folds into `VK_ATTACHMENT_LOAD_OP_CLEAR` (counted by `clears_folded`), or which any
//! other use of the texture (a sample, a copy, a read-back, a pass that cannot fold it) first
//! records as `vkCmdClearColorImage` in `TRANSFER_DST_OPTIMAL`. A depth-stencil clear is never
//! deferred: `vkCmdClearAttachments` in its pass, else `vkCmdClearDepthStencilImage`.
//!
//! **Invariant.** A pending clear is done before anything else touches its texture:
//! `use_range`, through which every use of an image goes, records the texture's pending clears
//! first (`flush_pending_clears`, each moving only its cleared mip). A clear that a texture of the open pass would see (another
//! view of an attachment's texture) is not deferred, since the pass would keep drawing into it.

use ash::vk;
use recorder::command::BoundView;
use recorder::{ClearFlags, Error, ObjectKind, RawHandle};

use crate::passes::full_rect;
use crate::VulkanBackend;

/// A colour clear not recorded yet (see the module essay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PendingClear {
    pub(crate) view: RawHandle,
    pub(crate) mip: u32,
    pub(crate) color: [f32; 4],
}

impl VulkanBackend {
    /// `clear_render_target_view`.
    pub(crate) fn clear_render_target(
        &mut self,
        view: &BoundView,
        color: [f32; 4],
    ) -> Result<(), Error> {
        const CALL: &str = "clear_render_target_view";
        let (_, texture) =
            self.image_view(CALL, ObjectKind::RenderTargetView, view.view, view.resource)?;
        let mip = view.first_mip as u32;
        let mip_extent = self.resources.images.get(&texture).map(|i| vk::Extent2D {
            width: (i.extent.width >> mip).max(1),
            height: (i.extent.height >> mip).max(1),
        });
        let in_pass = self.pass.as_ref().and_then(|p| {
            p.colors
                .iter()
                .position(|c| *c == (view.view, texture))
                .filter(|_| mip_extent == Some(p.extent))
                .map(|i| (i, p.extent))
        });
        if let Some((index, extent)) = in_pass {
            let attachments = [vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: index as u32,
                clear_value: vk::ClearValue {
                    color: vk::ClearColorValue { float32: color },
                },
            }];
            // SAFETY: a pass is open with this view as colour attachment `index`, whose
            // extent is the pass's render area, the rect cleared.
            unsafe {
                self.gpu.device.cmd_clear_attachments(
                    self.frame.cb,
                    &attachments,
                    &[full_rect(extent)],
                )
            };
            self.clears.in_pass += 1;
            return Ok(());
        }
        if self.pass_targets_texture(texture) {
            self.end_pass();
        }
        let pending = self.pending_clears.entry(texture).or_default();
        pending.retain(|p| p.mip != mip);
        pending.push(PendingClear {
            view: view.view,
            mip,
            color,
        });
        Ok(())
    }

    /// Whether a target of the open pass is a view of `texture`.
    fn pass_targets_texture(&self, texture: RawHandle) -> bool {
        let Some(pass) = &self.pass else {
            return false;
        };
        pass.colors.iter().any(|c| c.1 == texture)
    }

    /// The pending clear of `view` of `texture` that a pass whose render area is `extent` can
    /// fold into its load operation (taken out of the pending list), if any.
    pub(crate) fn take_foldable_clear(
        &mut self,
        texture: RawHandle,
        view: RawHandle,
        extent: vk::Extent2D,
    ) -> Option<[f32; 4]> {
        let image_extent = self.resources.images.get(&texture)?.extent;
        let pending = self.pending_clears.get_mut(&texture)?;
        let index = pending.iter().position(|p| p.view == view && p.mip == 0)?;
        if image_extent != extent {
            return None;
        }
        // The emptied list stays, keeping its room for the texture's next clear (R-GPU-6).
        let clear = pending.remove(index);
        self.clears.folded += 1;
        Some(clear.color)
    }

    /// Records `texture`'s pending clears as transfer clears (before another use of it).
    pub(crate) fn flush_pending_clears(&mut self, texture: RawHandle) {
        let Some(pending) = self.pending_clears.get_mut(&texture).map(std::mem::take) else {
            return;
        };
        self.record_clears(texture, &pending);
        // The list is put back empty, with its room (no allocation at the next clear).
        if let Some(kept) = self.pending_clears.get_mut(&texture) {
            *kept = pending;
            kept.clear();
        }
    }

    /// Whether `texture` has clears not recorded yet.
    pub(crate) fn has_pending_clears(&self, texture: RawHandle) -> bool {
        self.pending_clears
            .get(&texture)
            .is_some_and(|p| !p.is_empty())
    }

    /// Records `pending`, clears of `texture`, as transfer clears.
    fn record_clears(&mut self, texture: RawHandle, pending: &[PendingClear]) {
        for &clear in pending {
            self.use_range(
                texture,
                crate::image_layouts::Subrange::mip(clear.mip),
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::PipelineStageFlags2::CLEAR,
                vk::AccessFlags2::TRANSFER_WRITE,
            );
            let Some(image) = self.resources.images.get(&texture) else {
                return;
            };
            let range = vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: clear.mip.min(image.mips - 1),
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
                    &vk::ClearColorValue {
                        float32: clear.color,
                    },
                    &[range],
                )
            };
            self.clears.transfer += 1;
            self.frame.dirty = true;
        }
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
        self.image_view(CALL, ObjectKind::DepthStencilView, view.view, view.resource)?;
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
        self.use_range(
            view.resource,
            crate::image_layouts::Subrange::mip(view.first_mip as u32),
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

/// How the colour clears were recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearCounts {
    /// Folded into a pass's load operation.
    pub folded: u64,
    /// `vkCmdClearAttachments` in the open pass.
    pub in_pass: u64,
    /// `vkCmdClearColorImage` outside a pass.
    pub transfer: u64,
}
