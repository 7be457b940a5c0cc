//! Passes (R-GPU-3): dynamic rendering (`vkCmdBeginRendering`), a pass opened lazily at the
//! first draw on a set of targets and closed at a target change, a copy, an update, a
//! dispatch, a present or a submission; and the clears.
//!
//! **In:** the render-target and depth-stencil views of a draw. **Out:**
//! `vkCmdBeginRendering`/`vkCmdEndRendering`, with the attachments moved to their attachment
//! layouts before; the active queries suspended before each boundary and resumed after it
//! (`query_pools.rs`).
//!
//! **Invariant.** At most one pass is open; while it is, nothing records a barrier or a
//! transfer (they close it first: `end_pass`). Attachments load and store (`LOAD`/`STORE`):
//! D3D11 keeps a target's contents between draws; a colour attachment with a pending clear
//! that covers the render area loads with `LOAD_OP_CLEAR` instead (`clears.rs`).

use arrayvec::ArrayVec;
use ash::vk;
use recorder::{Error, ObjectKind, RawHandle};

use crate::pipelines::MAX_COLORS;

use crate::query_pools::Scoped;
use crate::VulkanBackend;

/// The open pass: its targets (view handles) and size.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct OpenPass {
    /// `(render-target view, texture)` of each colour target (at most D3D11's eight: a
    /// pass switch allocates nothing, R-GPU-6).
    pub(crate) colors: ArrayVec<(RawHandle, RawHandle), MAX_COLORS>,
    /// The depth-stencil view (null for none).
    pub(crate) depth: RawHandle,
    pub(crate) extent: vk::Extent2D,
    /// How the pass was begun: empty (commands inline), or its contents in secondary command
    /// buffers (`raw_baseline.rs`'s threaded frame).
    pub(crate) flags: vk::RenderingFlags,
}

impl VulkanBackend {
    /// Closes the open pass, if any.
    pub(crate) fn end_pass(&mut self) {
        if self.pass.is_some() {
            // Queries never cross a pass boundary (`query_pools.rs`).
            self.suspend_queries(Scoped::Occlusion);
            self.suspend_queries(Scoped::Statistics);
            self.pass = None;
            // SAFETY: a pass is open on the frame's recording command buffer.
            unsafe { self.gpu.device.cmd_end_rendering(self.frame.cb) };
            self.resume_queries(Scoped::Statistics);
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
        self.open_pass_as(call, colors, depth, vk::RenderingFlags::empty())
    }

    /// [`open_pass`](Self::open_pass), begun with `flags` (a pass of another `flags` is closed
    /// and a new one begun).
    pub(crate) fn open_pass_as(
        &mut self,
        call: &'static str,
        colors: &[(RawHandle, RawHandle)],
        depth: (RawHandle, RawHandle),
        flags: vk::RenderingFlags,
    ) -> Result<(), Error> {
        if let Some(pass) = &self.pass {
            if pass.depth == depth.0
                && pass.flags == flags
                && pass.colors.len() == colors.len()
                && pass.colors.as_slice() == colors
            {
                return Ok(());
            }
        }
        self.end_pass();
        let mut extent = vk::Extent2D {
            width: u32::MAX,
            height: u32::MAX,
        };
        for &(view, texture) in colors {
            self.image_view(call, ObjectKind::RenderTargetView, view, texture)?;
            if let Some(image) = self.resources.images.get(&texture) {
                extent.width = extent.width.min(image.extent.width);
                extent.height = extent.height.min(image.extent.height);
            }
        }
        if !depth.0.is_null() {
            self.image_view(call, ObjectKind::DepthStencilView, depth.0, depth.1)?;
            if let Some(image) = self.resources.images.get(&depth.1) {
                extent.width = extent.width.min(image.extent.width);
                extent.height = extent.height.min(image.extent.height);
            }
        }
        let mut color_attachments: ArrayVec<vk::RenderingAttachmentInfo<'_>, MAX_COLORS> =
            ArrayVec::new();
        if colors.len() > MAX_COLORS {
            return Err(Error::GpuBackend {
                call,
                object: "the draw".to_string(),
                problem: format!("binds more than {MAX_COLORS} render targets (R-GPU-3)"),
            });
        }
        for &(view, texture) in colors {
            let (image_view, _, range) =
                self.image_view_range(call, ObjectKind::RenderTargetView, view, texture)?;
            let folded = self.take_foldable_clear(texture, view, extent);
            self.use_range(
                texture,
                range,
                vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT,
                vk::AccessFlags2::COLOR_ATTACHMENT_READ | vk::AccessFlags2::COLOR_ATTACHMENT_WRITE,
            );
            let attachment = vk::RenderingAttachmentInfo::default()
                .image_view(image_view)
                .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .store_op(vk::AttachmentStoreOp::STORE);
            color_attachments.push(match folded {
                Some(color) => {
                    attachment
                        .load_op(vk::AttachmentLoadOp::CLEAR)
                        .clear_value(vk::ClearValue {
                            color: vk::ClearColorValue { float32: color },
                        })
                }
                None => attachment.load_op(vk::AttachmentLoadOp::LOAD),
            });
        }
        let mut depth_attachment = None;
        if !depth.0.is_null() {
            let (image_view, _, range) =
                self.image_view_range(call, ObjectKind::DepthStencilView, depth.0, depth.1)?;
            self.use_range(
                depth.1,
                range,
                vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS
                    | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS,
                vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ
                    | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
            );
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
            .flags(flags)
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
        self.suspend_queries(Scoped::Statistics);
        // SAFETY: the command buffer is recording outside a pass (closed above); the
        // attachments are live views in the layouts named (transitioned above).
        unsafe { self.gpu.device.cmd_begin_rendering(self.frame.cb, &info) };
        self.pass = Some(super::passes::OpenPass {
            colors: colors.iter().copied().collect(),
            depth: depth.0,
            extent,
            flags,
        });
        self.resume_queries(Scoped::Occlusion);
        self.resume_queries(Scoped::Statistics);
        self.frame.dirty = true;
        Ok(())
    }
}

pub(crate) fn full_rect(extent: vk::Extent2D) -> vk::ClearRect {
    vk::ClearRect {
        rect: vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent,
        },
        base_array_layer: 0,
        layer_count: 1,
    }
}
