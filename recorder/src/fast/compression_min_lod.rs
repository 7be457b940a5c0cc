//! Compression and minimum-LOD calls (R-ST-6, R-ST-9): `decompress_resource`,
//! `set_resource_compression`, `set_resource_min_lod`, `set_shader_resource_view_min_lod`.
//!
//! **In:** a compressible target and what to do with its compression, or a texture or view and a
//! minimum LOD. **Out:** a decompression or compression-override command in the list; a minimum
//! LOD is no command: it is stored at once in the object's mutable descriptor word, for every
//! context, and the next bind copies it into the descriptor it encodes.
//!
//! **Invariant.** A released object refuses the call (`released_object`); nothing here takes a
//! split point: a decompression is explicit, as fast semantics needs it (R-SP-3).

use crate::call_arguments::Compression;
use crate::command::*;
use crate::context::role::Role;
use crate::context::Recorder;
use crate::device::handle::*;
use crate::device::object_info::TextureInfo;
use crate::errors::{CopyProblem, Error};
use crate::sync::Ordering;

impl<R: Role> Recorder<R> {
    /// [`BarrierCalls::decompress_resource`](crate::BarrierCalls::decompress_resource): its semantics.
    pub(crate) fn decompress_resource(&mut self, texture: Texture, into: Option<Texture>) {
        self.begin_call();
        const CALL: &str = "decompress_resource";
        let info = |t: Texture| {
            self.device
                .textures
                .get(t.0, false)
                .map(|l| TextureInfo::unpack(l.words))
                .map_err(|_| self.device.stale_error(CALL, ObjectKind::Texture, t.0))
        };
        let result = info(texture).and_then(|source| match into {
            None => Ok(()),
            Some(target) if target == texture => Err(Error::CopyMismatch {
                call: CALL,
                problem: CopyProblem::DecompressIntoItself,
            }),
            Some(target) => {
                let target = info(target)?;
                if (target.width, target.height) != (source.width, source.height) {
                    return Err(Error::CopyMismatch {
                        call: CALL,
                        problem: CopyProblem::DecompressSizes,
                    });
                }
                Ok(())
            }
        });
        if let Err(error) = result {
            return self.fail(error);
        }
        let into = into.map_or(RawHandle::NULL, |t| t.0);
        if let Err(error) = self.retain(ObjectKind::Texture, texture.0, 1, CALL) {
            return self.fail(error);
        }
        if let Err(error) = self.retain(ObjectKind::Texture, into, 1, CALL) {
            self.release_retained(ObjectKind::Texture, texture.0);
            return self.fail(error);
        }
        self.emit(
            Opcode::DecompressResource,
            0,
            None,
            ObjectPayload {
                object: texture.0,
                value: into.to_bits(),
            },
        );
    }

    /// [`BarrierCalls::set_resource_compression`](crate::BarrierCalls::set_resource_compression): its semantics.
    pub(crate) fn set_resource_compression(&mut self, texture: Texture, compressed: Compression) {
        let compressed = compressed.is_compressed();
        self.begin_call();
        const CALL: &str = "set_resource_compression";
        if self.device.textures.get(texture.0, false).is_err() {
            return self.fail(
                self.device
                    .stale_error(CALL, ObjectKind::Texture, texture.0),
            );
        }
        if let Err(error) = self.retain(ObjectKind::Texture, texture.0, 1, CALL) {
            return self.fail(error);
        }
        self.emit(
            Opcode::SetResourceCompression,
            0,
            None,
            ObjectPayload {
                object: texture.0,
                value: compressed as u64,
            },
        );
    }

    /// [`FastBindCalls::set_resource_min_lod`](crate::FastBindCalls::set_resource_min_lod): its semantics.
    pub(crate) fn set_resource_min_lod(&mut self, texture: Texture, min_lod: f32) {
        self.set_min_lod(
            "set_resource_min_lod",
            ObjectKind::Texture,
            texture.0,
            min_lod,
        );
    }

    /// [`FastBindCalls::set_shader_resource_view_min_lod`](crate::FastBindCalls::set_shader_resource_view_min_lod): its semantics.
    pub(crate) fn set_shader_resource_view_min_lod(
        &mut self,
        view: ShaderResourceView,
        min_lod: f32,
    ) {
        let call = "set_shader_resource_view_min_lod";
        self.set_min_lod(call, ObjectKind::ShaderResourceView, view.0, min_lod);
    }

    /// Stores a minimum LOD in the object's mutable word: the next bind copies it (R-ST-6).
    fn set_min_lod(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        handle: RawHandle,
        min_lod: f32,
    ) {
        self.begin_call();
        if !(min_lod.is_finite() && min_lod >= 0.0) {
            return self.fail(Error::OutOfRange {
                call,
                argument: "minimum LOD",
                value: min_lod.to_string(),
                allowed: "a finite non-negative number (R-ST-6)".into(),
            });
        }
        let slot = match kind {
            ObjectKind::Texture => self
                .device
                .textures
                .get(handle, false)
                .map(|live| &live.entry.aux),
            _ => self
                .device
                .shader_resource_views
                .get(handle, false)
                .map(|live| &live.entry.aux),
        };
        match slot {
            Ok(aux) => aux.store(min_lod.to_bits(), Ordering::Release),
            Err(_) => self.fail(self.device.stale_error(call, kind, handle)),
        }
    }
}
