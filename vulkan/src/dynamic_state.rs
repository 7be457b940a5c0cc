//! A draw's dynamic state (R-GPU-3): every viewport and scissor rectangle bound (D3D11's
//! `RSSetViewports` and `RSSetScissorRects`) with `vkCmdSetViewportWithCount` and
//! `vkCmdSetScissorWithCount` (core in Vulkan 1.3; the pipelines declare both dynamic), the
//! blend factor and the stencil reference.
//!
//! **In:** the draw's graphics record and whether its rasterizer's scissor test is on. **Out:**
//! the commands; or a refusal when the draw binds more viewports than the device has
//! (`multiViewport` missing, or `maxViewports`), naming the counts.
//!
//! **Invariant.** As many scissors as viewports (Vulkan's rule): scissor `i` is the bound
//! rectangle `i` with the scissor test on, else (test off, or none bound there) the whole
//! target. No viewport bound, or an empty one first: the whole target (the engine's default).
//! Which viewport a primitive uses is D3D11's: viewport 0, unless a shader writes
//! `SV_ViewportArrayIndex` (`ViewportIndex`), which naga 30's WGSL has no builtin for, so no
//! shader the check accepts writes one.

use ash::vk;
use executor::Draw;
use recorder::{Error, Rect, Viewport};

use crate::VulkanBackend;

/// A viewport as Vulkan takes it (depths clamped to `0..=1`).
fn viewport(v: &Viewport) -> vk::Viewport {
    vk::Viewport {
        x: v.x,
        y: v.y,
        width: v.width,
        height: v.height,
        min_depth: v.min_depth.clamp(0.0, 1.0),
        max_depth: v.max_depth.clamp(0.0, 1.0),
    }
}

/// A scissor rectangle as Vulkan takes it (negative origins and inverted edges made empty).
fn scissor(r: &Rect) -> vk::Rect2D {
    let (left, top) = (r.left.max(0), r.top.max(0));
    vk::Rect2D {
        offset: vk::Offset2D { x: left, y: top },
        extent: vk::Extent2D {
            width: r.right.saturating_sub(left).max(0) as u32,
            height: r.bottom.saturating_sub(top).max(0) as u32,
        },
    }
}

impl VulkanBackend {
    /// Records the draw's dynamic state (see the module essay).
    pub(crate) fn dynamic_state(
        &mut self,
        draw: &Draw<'_>,
        scissor_test: bool,
    ) -> Result<(), Error> {
        let Some(graphics) = draw.graphics() else {
            return Ok(());
        };
        let extent = self.pass.as_ref().map_or(
            vk::Extent2D {
                width: 1,
                height: 1,
            },
            |p| p.extent,
        );
        let full = vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: extent.width as f32,
            height: extent.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        };
        let mut viewports: Vec<vk::Viewport> = graphics.viewports.iter().map(viewport).collect();
        match viewports.first() {
            Some(v) if v.width > 0.0 && v.height > 0.0 => {}
            Some(_) => viewports[0] = full,
            None => viewports.push(full),
        }
        let max = self.gpu.features.max_viewports;
        if viewports.len() as u32 > max {
            return Err(Error::GpuBackend {
                call: draw.kind.name(),
                object: "the draw".to_string(),
                problem: format!(
                    "binds {} viewports, and the device draws with at most {max} ({}; R-GPU-3)",
                    viewports.len(),
                    if self.gpu.features.multi_viewport {
                        "its maxViewports"
                    } else {
                        "it lacks multiViewport"
                    }
                ),
            });
        }
        let whole = vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent,
        };
        let scissors: Vec<vk::Rect2D> = (0..viewports.len())
            .map(|i| match graphics.scissors.get(i) {
                Some(r) if scissor_test => scissor(r),
                _ => whole,
            })
            .collect();
        // Empty viewports after the first (D3D11 allows them) as Vulkan accepts them.
        for v in viewports.iter_mut().skip(1) {
            if !(v.width > 0.0 && v.height > 0.0) {
                *v = full;
            }
        }
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        // SAFETY: the bound pipeline declares these states dynamic (viewport and scissor with
        // count); as many scissors as viewports, at most the device's maxViewports (1 without
        // multiViewport), each viewport of positive size.
        unsafe {
            device.cmd_set_viewport_with_count(cb, &viewports);
            device.cmd_set_scissor_with_count(cb, &scissors);
            device.cmd_set_blend_constants(cb, &graphics.blend.factor);
            device.cmd_set_stencil_reference(
                cb,
                vk::StencilFaceFlags::FRONT_AND_BACK,
                graphics.depth_stencil_state.stencil_ref,
            );
        }
        Ok(())
    }
}
