//! What the GPU model tracks for synchronisation and validation at a draw (R-EX-6, R-V-1): the
//! resources each draw uses (for fences and maps, `progress.rs`), and, under validation, the
//! violations fast-semantics work shows: a shader view of a still-compressed target bound, a
//! copy from or to one, a compressed back buffer presented (R-V-1), a first write to a back
//! buffer in a frame without a wait on present (R-EX-7).

use recorder::command::{BoundResource, BoundView, ViewFlags};
use recorder::{Error, Handle, ObjectKind, ObjectName, RawHandle, Texture};

use super::GpuModel;
use crate::draw_record::*;
use crate::progress::Progress;

impl GpuModel {
    /// Every resource `record` reads or writes is used by the current segment (by legacy work
    /// when `legacy`).
    pub(super) fn note_uses(progress: &mut Progress, record: &Draw<'_>, legacy: bool) {
        if let DrawArgs::Indirect(args) = record.args {
            // Fast-semantics synchronisation for the arguments, whatever the context (R-EX-6).
            progress.use_as_indirect_arguments(args.buffer);
        }
        for stage in record.stages() {
            stage
                .constant_buffers
                .iter()
                .for_each(|(_, b)| progress.use_resource(b.buffer, legacy));
            stage
                .shader_resources
                .iter()
                .for_each(|(_, v)| progress.use_resource(v.resource, legacy));
            stage
                .unordered_access_views
                .iter()
                .for_each(|(_, v)| progress.use_resource(v.resource, legacy));
        }
        if let Some(graphics) = record.graphics() {
            progress.use_resource(graphics.index_buffer.buffer, legacy);
            graphics
                .vertex_buffers
                .iter()
                .for_each(|(_, b)| progress.use_resource(b.buffer, legacy));
            graphics
                .render_targets
                .iter()
                .for_each(|v| progress.use_resource(v.resource, legacy));
            progress.use_resource(graphics.depth_stencil.resource, legacy);
        }
    }

    /// R-V-1 at a fast-semantics bind of shader views (`views`, of `kind`, by `call`): the
    /// first view of a target that is still compressed and that its access needs decompressed
    /// (not an SRV of a texture-compatible one, R-ST-9) is reported, once for the call, whether
    /// or not a shader reads the slot (seed 000: the VALIDATED driver reports the bind).
    #[cold]
    pub(super) fn validate_view_bind(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        views: &[BoundView],
    ) {
        let compressed = views.iter().find(|v| {
            v.flags.has(ViewFlags::COMPRESSIBLE_TARGET)
                && !v.flags.has(ViewFlags::BUFFER)
                && self.compressed.contains(&v.resource)
        });
        if let Some(view) = compressed {
            let object = self.name(kind, view.view);
            self.violations.push(Error::CompressedRead {
                call,
                object,
                access: "is bound for shader access",
            });
        }
    }

    /// R-V-1 at a fast-semantics copy: a still-compressed texture as its source or destination
    /// (the copy engine reads and writes outside the colour and depth blocks). One report.
    #[cold]
    pub(super) fn validate_copy(
        &mut self,
        call: &'static str,
        destination: BoundResource,
        source: BoundResource,
    ) {
        let found = [
            (destination, "is the destination of the copy"),
            (source, "is the source of the copy"),
        ]
        .into_iter()
        .find(|(r, _)| r.is_texture != 0 && self.compressed.contains(&r.resource));
        if let Some((resource, access)) = found {
            let object = self.name(ObjectKind::Texture, resource.resource);
            self.violations.push(Error::CompressedRead {
                call,
                object,
                access,
            });
        }
    }

    /// R-V-1 at a present under fast semantics: the back buffer presented is still compressed
    /// (seed 000: decompress it before `Present` to propagate its clear colour). Returns the
    /// report; the present still happens.
    pub fn validate_present(&self, back_buffer: RawHandle) -> Option<Error> {
        self.validator.as_ref()?;
        self.compressed
            .contains(&back_buffer)
            .then(|| Error::CompressedRead {
                call: "present",
                object: self.name(ObjectKind::Texture, back_buffer),
                access: "is presented",
            })
    }

    /// R-V-1 at a fast-semantics draw: writes to a back buffer not waited for this frame
    /// (still-compressed views were reported at their bind).
    pub(super) fn validate_draw(&mut self, record: &Draw<'_>) {
        let call = if record.kind.is_dispatch() {
            "dispatch"
        } else {
            "draw"
        };
        for stage in record.stages() {
            let views = stage
                .shader_resources
                .iter()
                .map(|(_, v)| (ObjectKind::ShaderResourceView, v));
            let uavs = stage
                .unordered_access_views
                .iter()
                .map(|(_, v)| (ObjectKind::UnorderedAccessView, v));
            for (kind, view) in views.chain(uavs) {
                if view.flags.has(ViewFlags::BACK_BUFFER) && kind == ObjectKind::UnorderedAccessView
                {
                    self.check_back_buffer_write(call, view.resource);
                }
            }
        }
        if let Some(graphics) = record.graphics() {
            for view in graphics.render_targets {
                if view.flags.has(ViewFlags::BACK_BUFFER) {
                    self.check_back_buffer_write(call, view.resource);
                }
            }
        }
    }

    /// R-EX-7 under validation: a first write to a back buffer this frame needs a wait on
    /// present before it. Reported once a frame per swap chain.
    pub(super) fn check_back_buffer_write(&mut self, call: &'static str, texture: RawHandle) {
        let Some(device) = &self.validator else {
            return;
        };
        let Some((chain, buffer)) = device
            .texture_info(Texture::from_raw(texture))
            .and_then(|info| info.back_buffer)
        else {
            return;
        };
        if !self.progress.waited_on_present(chain.raw()) {
            // One report a frame: the rest of the frame's writes follow from the first.
            self.progress.wait_on_present(chain.raw());
            let swap_chain = self.name(ObjectKind::SwapChain, chain.raw());
            self.violations.push(Error::MissingWaitOnPresent {
                call,
                swap_chain,
                buffer,
            });
        }
    }

    fn name(&self, kind: ObjectKind, handle: RawHandle) -> ObjectName {
        match &self.validator {
            Some(device) => device.object_name(kind, handle),
            None => ObjectName {
                kind,
                handle,
                name: None,
            },
        }
    }
}
