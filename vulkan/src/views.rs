//! Buffer views and UAVs (R-GPU-3): a shader-resource view of a buffer (structured, raw or
//! typed) read by a shader as a read-only storage buffer, and the UAVs of a dispatch or of a
//! draw's stages (the output merger's) as storage buffers (a buffer's view) or storage images (a
//! texture's view, in `GENERAL`), at the fixed bindings of [`recorder::shader_binding`].
//!
//! **In:** a stage's record ([`StageView`]) and the descriptor types its code declares
//! (`Kinds`, reflected once per shader). **Out:** the descriptors; the legacy transitions of
//! each texture UAV (`use_image` to `GENERAL` for storage reads and writes). A buffer written
//! through a UAV is ordered with every other use by the global barriers around its dispatch or
//! draw (`dispatches.rs`, `draw_translation.rs`): D3D11's implicit ordering, as a legacy driver
//! gives it, on contexts of either semantics.
//!
//! **Invariant.** The descriptor type is the code's, never guessed from the view: a buffer's
//! view bound where the code reads a texture (or the reverse) is refused naming both, as is an
//! empty UAV slot (a UAV the code writes has nothing to write to). A typed buffer view is read
//! as a storage buffer of its elements: WGSL has no texel buffers, and naga reflects none, so
//! no code the shader check accepts reads a uniform texel buffer.

use ash::vk;
use executor::{StageView, ViewRecord};
use recorder::command::ViewFlags;
use recorder::{Error, ObjectKind, RawHandle, Stage};

use crate::descriptors::{Descriptor, Origin};
use crate::resources::refuse;
use crate::shaders::{self, SlotKind};
use crate::VulkanBackend;

impl VulkanBackend {
    /// The storage-buffer descriptor of shader-resource `slot`, which `stage`'s code reads as a
    /// buffer: the whole buffer the view sees (its dynamic instance from the ring), or the zero
    /// buffer for an empty slot.
    pub(crate) fn buffer_resource(
        &mut self,
        call: &'static str,
        stage: &StageView<'_>,
        slot: u32,
        view: &ViewRecord,
    ) -> Result<Descriptor, Error> {
        if view.view.is_null() {
            return Ok(Descriptor::Storage {
                buffer: self.null_buffer(call)?,
                offset: 0,
                range: crate::null_descriptors::NULL_BUFFER_BYTES,
            });
        }
        if !view.flags.has(ViewFlags::BUFFER) {
            return Err(refuse(
                self,
                call,
                ObjectKind::ShaderResourceView,
                view.view,
                format!(
                    "views a texture, but {} reads shader-resource slot {slot} as a buffer (R-GPU-3)",
                    self.device.object_name(ObjectKind::Shader, stage.shader)
                ),
            ));
        }
        let (buffer, offset, size) = self.buffer_location(call, view.resource, view.instance)?;
        Ok(Descriptor::Storage {
            buffer,
            offset,
            range: size.max(4),
        })
    }

    /// The refusal of a buffer's view bound where `stage`'s code reads a texture.
    pub(crate) fn buffer_for_texture(
        &self,
        call: &'static str,
        stage: &StageView<'_>,
        slot: u32,
        view: RawHandle,
    ) -> Error {
        refuse(
            self,
            call,
            ObjectKind::ShaderResourceView,
            view,
            format!(
                "views a buffer, but {} reads shader-resource slot {slot} as a texture (R-GPU-3)",
                self.device.object_name(ObjectKind::Shader, stage.shader)
            ),
        )
    }

    /// The descriptors of `stage`'s UAVs, used by `stages`: storage buffers and storage images
    /// (each texture moved to `GENERAL` first). Returns whether any is a buffer (the caller
    /// orders the use with global barriers).
    pub(crate) fn uav_descriptors(
        &mut self,
        call: &'static str,
        stage: &StageView<'_>,
        stages: vk::PipelineStageFlags2,
        set: &mut Vec<(u32, Descriptor, Origin)>,
    ) -> Result<bool, Error> {
        if stage.unordered_access_views.is_empty() {
            return Ok(false);
        }
        let kinds = self.shader_kinds(stage.shader, stage.stage)?;
        let mut buffers = false;
        for (slot, view) in stage.unordered_access_views {
            let slot = *slot;
            if !shaders::slot_mapped(SlotKind::UnorderedAccess, slot) {
                return Err(refuse(
                    self,
                    call,
                    ObjectKind::Shader,
                    stage.shader,
                    format!("accesses UAV slot {slot}, past the backend's mapping (R-GPU-3)"),
                ));
            }
            if view.view.is_null() {
                return Err(refuse(
                    self,
                    call,
                    ObjectKind::Shader,
                    stage.shader,
                    format!("accesses UAV slot {slot}, which is empty (R-GPU-3)"),
                ));
            }
            let is_buffer = view.flags.has(ViewFlags::BUFFER);
            let wants_image = kinds.image_uavs.contains(slot);
            if is_buffer == wants_image {
                let (theirs, code) = if is_buffer {
                    ("a buffer", "a storage texture")
                } else {
                    ("a texture", "a storage buffer")
                };
                return Err(refuse(
                    self,
                    call,
                    ObjectKind::UnorderedAccessView,
                    view.view,
                    format!(
                        "views {theirs}, but {} accesses UAV slot {slot} as {code} (R-GPU-3)",
                        self.device.object_name(ObjectKind::Shader, stage.shader)
                    ),
                ));
            }
            let descriptor = if is_buffer {
                buffers = true;
                let buffer = self.gpu_buffer(call, view.resource)?;
                let range = self
                    .resources
                    .buffers
                    .get(&view.resource)
                    .map_or(4, |b| b.size);
                Descriptor::Storage {
                    buffer,
                    offset: 0,
                    range,
                }
            } else {
                let (image_view, texture) = self.image_view(
                    call,
                    ObjectKind::UnorderedAccessView,
                    view.view,
                    view.resource,
                )?;
                self.use_image(
                    texture,
                    vk::ImageLayout::GENERAL,
                    stages,
                    vk::AccessFlags2::SHADER_STORAGE_READ | vk::AccessFlags2::SHADER_STORAGE_WRITE,
                );
                Descriptor::StorageImage(image_view)
            };
            set.push((
                shaders::binding(stage.stage, SlotKind::UnorderedAccess, slot),
                descriptor,
                Origin::View(view.view),
            ));
        }
        Ok(buffers)
    }

    /// Whether the device lets `stage`'s shaders write UAVs, else the refusal naming the
    /// feature it lacks.
    pub(crate) fn uav_stage_supported(
        &self,
        call: &'static str,
        stage: &StageView<'_>,
    ) -> Result<(), Error> {
        let features = self.gpu.features;
        let missing = match stage.stage {
            Stage::Vertex if !features.vertex_stores => "vertexPipelineStoresAndAtomics",
            Stage::Pixel if !features.fragment_stores => "fragmentStoresAndAtomics",
            _ => return Ok(()),
        };
        Err(refuse(
            self,
            call,
            ObjectKind::Shader,
            stage.shader,
            format!("accesses unordered-access views, and the device lacks {missing} (R-GPU-3)"),
        ))
    }
}
