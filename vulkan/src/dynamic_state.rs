//! A draw's dynamic state (R-GPU-3): every viewport and scissor rectangle bound (D3D11's
//! `RSSetViewports` and `RSSetScissorRects`) with `vkCmdSetViewportWithCount` and
//! `vkCmdSetScissorWithCount` (core in Vulkan 1.3; the pipelines declare both dynamic), the
//! blend factor and the stencil reference.
//!
//! **In:** the draw's graphics record and whether its rasterizer's scissor test is on. **Out:**
//! the commands; or a refusal when the draw binds more viewports than the device has
//! (`multiViewport` missing, or `maxViewports`), naming the counts.
//!
//! **Primitive restart.** D3D11 cuts a strip at the index equal to the reset index. Vulkan
//! cuts at the index type's all-ones value only: 0xFFFF for 16-bit indices, 0xFFFFFFFF for
//! 32-bit. So an indexed strip restarts where the reset index is that value; a 16-bit strip
//! with the reset index 0xFFFFFFFF (fast semantics' default, R-ST-5) has no index that equals
//! it and draws without restart; any other reset index has no Vulkan equivalent and the draw
//! is refused, naming the value. Lists and non-indexed draws never restart.
//!
//! **Invariant.** As many scissors as viewports (Vulkan's rule): scissor `i` is the bound
//! rectangle `i` with the scissor test on, else (test off, or none bound there) the whole
//! target. No viewport bound, or an empty one first: the whole target (the engine's default).
//! Which viewport a primitive uses is D3D11's: viewport 0, unless a shader writes
//! `SV_ViewportArrayIndex` (`ViewportIndex`), which naga 30's WGSL has no builtin for, so no
//! shader the check accepts writes one.

use arrayvec::ArrayVec;
use ash::vk;
use executor::Draw;
use recorder::{Error, Rect, Viewport};

use crate::VulkanBackend;

/// Most viewports a draw binds (D3D11's limit; `maxViewports` is clamped to it).
const MAX_VIEWPORTS: usize = 16;

/// The dynamic state a draw sets, kept as the command buffer's (`Bound::dynamic`) so that a
/// draw with the previous draw's state records none (R-GPU-6).
#[derive(Clone, Debug, Default)]
pub(crate) struct DynamicState {
    viewports: ArrayVec<vk::Viewport, MAX_VIEWPORTS>,
    scissors: ArrayVec<vk::Rect2D, MAX_VIEWPORTS>,
    blend: [f32; 4],
    stencil_ref: u32,
}

impl PartialEq for DynamicState {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &vk::Viewport, b: &vk::Viewport| {
            (a.x, a.y, a.width, a.height, a.min_depth, a.max_depth)
                == (b.x, b.y, b.width, b.height, b.min_depth, b.max_depth)
        };
        self.viewports.len() == other.viewports.len()
            && self
                .viewports
                .iter()
                .zip(&other.viewports)
                .all(|(a, b)| same(a, b))
            && self.scissors == other.scissors
            && self.blend == other.blend
            && self.stencil_ref == other.stencil_ref
    }
}

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
        let mut next = DynamicState::default();
        let viewports = &mut next.viewports;
        let max = self.gpu.features.max_viewports;
        if graphics.viewports.len() as u32 > max.max(1) || graphics.viewports.len() > MAX_VIEWPORTS
        {
            return Err(Error::GpuBackend {
                call: draw.kind.name(),
                object: "the draw".to_string(),
                problem: format!(
                    "binds {} viewports, and the device draws with at most {max} ({}; R-GPU-3)",
                    graphics.viewports.len(),
                    if self.gpu.features.multi_viewport {
                        "its maxViewports"
                    } else {
                        "it lacks multiViewport"
                    }
                ),
            });
        }
        viewports.extend(graphics.viewports.iter().map(viewport));
        match viewports.first() {
            Some(v) if v.width > 0.0 && v.height > 0.0 => {}
            Some(_) => viewports[0] = full,
            None => viewports.push(full),
        }
        let whole = vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent,
        };
        next.scissors.extend(
            (0..viewports.len()).map(|i| match graphics.scissors.get(i) {
                Some(r) if scissor_test => scissor(r),
                _ => whole,
            }),
        );
        // Empty viewports after the first (D3D11 allows them) as Vulkan accepts them.
        for v in viewports.iter_mut().skip(1) {
            if !(v.width > 0.0 && v.height > 0.0) {
                *v = full;
            }
        }
        next.blend = graphics.blend.factor;
        next.stencil_ref = graphics.depth_stencil_state.stencil_ref;
        // Unchanged since the last draw of this command buffer: nothing to record (every
        // pipeline declares these states dynamic, so binding one keeps them).
        if self.bound.dynamic.as_ref() == Some(&next) {
            return Ok(());
        }
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        // SAFETY: the bound pipeline declares these states dynamic (viewport and scissor with
        // count); as many scissors as viewports, at most the device's maxViewports (1 without
        // multiViewport), each viewport of positive size.
        unsafe {
            device.cmd_set_viewport_with_count(cb, &next.viewports);
            device.cmd_set_scissor_with_count(cb, &next.scissors);
            device.cmd_set_blend_constants(cb, &next.blend);
            device.cmd_set_stencil_reference(
                cb,
                vk::StencilFaceFlags::FRONT_AND_BACK,
                next.stencil_ref,
            );
        }
        self.bound.dynamic = Some(next);
        Ok(())
    }
}

/// Whether an indexed draw of `topology` with `format` indices cuts its strips at
/// `reset_index` in Vulkan's words (see the module essay): `Ok(restart)`, or the reset index
/// Vulkan cannot express.
pub(crate) fn primitive_restart(
    topology: recorder::PrimitiveTopology,
    format: Option<recorder::Format>,
    reset_index: u32,
) -> Result<bool, u32> {
    use recorder::{Format, PrimitiveTopology as T};
    let strip = matches!(topology, T::TriangleStrip | T::LineStrip);
    let Some(format) = format.filter(|_| strip) else {
        return Ok(false);
    };
    match (format, reset_index) {
        (Format::R16Uint, 0xFFFF) | (Format::R32Uint, 0xFFFF_FFFF) => Ok(true),
        (Format::R16Uint, 0xFFFF_FFFF) => Ok(false),
        (_, other) => Err(other),
    }
}

impl VulkanBackend {
    /// Sets primitive restart for `draw` where it differs from what the command buffer has
    /// (see the module essay); refuses a reset index Vulkan cannot express.
    pub(crate) fn restart_state(&mut self, draw: &Draw<'_>, indexed: bool) -> Result<(), Error> {
        let Some((topology, index_buffer, reset_index)) = draw.index_state() else {
            return Ok(());
        };
        let format = indexed.then(|| index_buffer.index_format());
        let restart = primitive_restart(topology, format, reset_index).map_err(|value| {
            Error::GpuBackend {
                call: draw.kind.name(),
                object: "the draw".to_string(),
                problem: format!(
                    "strips cut at reset index {value:#x}, which Vulkan cannot express \
                     (it cuts at the index type's all-ones value only; R-ST-5, R-GPU-3)"
                ),
            }
        })?;
        if self.bound.restart != Some(restart) {
            // SAFETY: recording on the frame's command buffer; the bound pipeline declares
            // primitive restart dynamic (`pipelines.rs`).
            unsafe {
                self.gpu
                    .device
                    .cmd_set_primitive_restart_enable(self.frame.cb, restart)
            };
            self.bound.restart = Some(restart);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::primitive_restart;
    use recorder::{Format, PrimitiveTopology as T};

    #[test]
    fn r_st_5_reset_indices_vulkan_can_express() {
        let strip = T::TriangleStrip;
        assert_eq!(
            primitive_restart(strip, Some(Format::R16Uint), 0xFFFF),
            Ok(true)
        );
        assert_eq!(
            primitive_restart(strip, Some(Format::R32Uint), 0xFFFF_FFFF),
            Ok(true)
        );
        assert_eq!(
            primitive_restart(strip, Some(Format::R16Uint), 0xFFFF_FFFF),
            Ok(false)
        );
        assert_eq!(
            primitive_restart(strip, Some(Format::R32Uint), 0xFFFF),
            Err(0xFFFF)
        );
        assert_eq!(
            primitive_restart(T::LineStrip, Some(Format::R16Uint), 7),
            Err(7)
        );
        assert_eq!(
            primitive_restart(T::TriangleList, Some(Format::R16Uint), 7),
            Ok(false)
        );
        assert_eq!(primitive_restart(strip, None, 7), Ok(false));
    }
}
