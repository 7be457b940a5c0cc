//! Indirect draws and dispatches (R-GPU-3): `draw_instanced_indirect`,
//! `draw_indexed_instanced_indirect` and `dispatch_indirect` read their arguments from a buffer
//! at an offset, as `vkCmdDrawIndirect`, `vkCmdDrawIndexedIndirect` and `vkCmdDispatchIndirect`
//! do; D3D11's argument layouts are Vulkan's (`VkDrawIndirectCommand`: vertex count, instance
//! count, first vertex, first instance; `VkDrawIndexedIndirectCommand`: index count, instance
//! count, first index, vertex offset, first instance; `VkDispatchIndirectCommand`: x, y, z).
//!
//! **In:** the record's [`DrawArgs::Indirect`] (the buffer, its instance, the offset). **Out:**
//! the argument buffer and the offset in it: the device-local buffer (made with
//! `INDIRECT_BUFFER` usage, `resources.rs`) or a dynamic instance's ring region (the ring has
//! that usage too). What wrote the arguments is visible to the indirect read: a transfer, a
//! dispatch or a draw writing a buffer through a UAV is followed by a global barrier to every
//! stage and read (`DRAW_INDIRECT` and `INDIRECT_COMMAND_READ` among them), and host writes
//! to the ring by the submission.
//!
//! **Invariant.** The offset is a multiple of 4 and the arguments lie inside the buffer, or the
//! draw is refused naming the buffer (Vulkan's rules; D3D11's too: the model refuses such a
//! call at recording, R-REC-5, so this is the backend's own guard). `draw_auto` is refused:
//! it draws what stream output wrote, which the engine does not translate (Vulkan needs
//! `VK_EXT_transform_feedback` and `vkCmdDrawIndirectByteCountEXT` for it).

use ash::vk;
use executor::{Draw, DrawKind};
use recorder::command::DrawArgs;
use recorder::{Error, ObjectKind};

use crate::resources::refuse;
use crate::VulkanBackend;

/// The bytes of each kind's arguments.
fn argument_bytes(kind: DrawKind) -> u64 {
    match kind {
        DrawKind::DrawIndexedInstancedIndirect => 20,
        DrawKind::DrawInstancedIndirect => 16,
        _ => 12,
    }
}

impl VulkanBackend {
    /// Where an indirect call's arguments lie (buffer, offset); `None` for a direct call.
    pub(crate) fn indirect_arguments(
        &mut self,
        draw: &Draw<'_>,
    ) -> Result<Option<(vk::Buffer, u64)>, Error> {
        let DrawArgs::Indirect(bound) = draw.args else {
            return Ok(None);
        };
        let call = draw.kind.name();
        if bound.buffer.is_null() {
            return Err(Error::GpuBackend {
                call,
                object: "the draw".to_string(),
                problem: "has no argument buffer (R-GPU-3)".to_string(),
            });
        }
        let bytes = argument_bytes(draw.kind);
        let offset = bound.offset as u64;
        let (buffer, base, size) = self.buffer_location(call, bound.buffer, bound.instance)?;
        if !offset.is_multiple_of(4) || offset + bytes > size {
            return Err(refuse(
                self,
                call,
                ObjectKind::Buffer,
                bound.buffer,
                format!(
                    "holds no {bytes} bytes of arguments at offset {offset} (a multiple of 4 \
                     inside its {size} bytes, R-GPU-3)"
                ),
            ));
        }
        Ok(Some((buffer, base + offset)))
    }

    /// The refusal of `draw_auto` (see the module invariant).
    pub(crate) fn refuse_draw_auto(&self) -> Error {
        Error::GpuBackend {
            call: DrawKind::DrawAuto.name(),
            object: "the draw".to_string(),
            problem: "draws the vertices stream output wrote: stream output and draw_auto are \
                      not translated (Vulkan needs VK_EXT_transform_feedback for them, R-GPU-3)"
                .to_string(),
        }
    }

    /// Records an indirect draw from `arguments` (inside the pass, everything bound).
    pub(crate) fn record_indirect_draw(&self, kind: DrawKind, (buffer, offset): (vk::Buffer, u64)) {
        let device = &self.gpu.device;
        let cb = self.frame.cb;
        let stride = argument_bytes(kind) as u32;
        // SAFETY: recording inside a pass with a pipeline, its set, vertex and index buffers
        // and dynamic state bound; the buffer is live with INDIRECT_BUFFER usage and holds the
        // arguments at `offset`, a multiple of 4 (`indirect_arguments`).
        unsafe {
            if kind == DrawKind::DrawIndexedInstancedIndirect {
                device.cmd_draw_indexed_indirect(cb, buffer, offset, 1, stride);
            } else {
                device.cmd_draw_indirect(cb, buffer, offset, 1, stride);
            }
        }
    }
}
