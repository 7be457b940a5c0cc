//! Compression and minimum-LOD calls (R-ST-6, R-ST-9): `decompress_resource`,
//! `set_resource_compression`, `set_resource_min_lod`, `set_shader_resource_view_min_lod`.
//!
//! **In:** a compressible target and what to do with its compression (the kinds, a region, a
//! second texture), or a texture or view and a minimum LOD. **Out:** a decompression or compression-override command in the list; a minimum
//! LOD is no command: it is stored at once in the object's mutable descriptor word, for every
//! context, and the next bind copies it into the descriptor it encodes.
//!
//! **Decompression's rules** (R-ST-9, `decompress_resource_x`): each kind named is one the
//! texture has (`clear` any colour target, `fmask` a multisampled one, `dcc` one created with
//! DCC, `depth` and `stencil` a depth format with that plane), and at least one; a region is a
//! subresource the texture has and a rectangle within that subresource's mip (no sum or shift of
//! the caller's numbers can wrap: the bounds are compared, never added); a second texture is
//! another one of the source's size and planes (colour into colour, which the colour block may
//! convert as it writes; depth into depth with the same planes), with every kind (a partial
//! decompression is an in-place one). Refusals name the texture and cite R-ST-9. What the kinds and a region do is
//! the GPU model's (`executor/src/gpu/target_compression.rs`).
//!
//! **Invariant.** A released object refuses the call (`released_object`); nothing here takes a
//! split point: a decompression is explicit, as fast semantics needs it (R-SP-3).

use crate::call_arguments::{Compression, DecompressKinds, DecompressRegion};
use crate::command::*;
use crate::context::role::Role;
use crate::context::Recorder;
use crate::desc::{CopyBox, Format};
use crate::device::handle::*;
use crate::device::object_info::TextureInfo;
use crate::errors::{CopyProblem, Error};
use crate::sync::Ordering;

const DECOMPRESS: &str = "decompress_resource";

/// Whether `format` has a depth plane, and a stencil plane.
fn depth_planes(format: Format) -> (bool, bool) {
    match format {
        Format::D24UnormS8Uint | Format::D32FloatS8X24Uint => (true, true),
        Format::D32Float | Format::D16Unorm => (true, false),
        _ => (false, false),
    }
}

/// Why `kinds` names a kind `texture` does not have, if it does (R-ST-9).
fn kinds_not_had(texture: &TextureInfo, kinds: DecompressKinds) -> Option<String> {
    let (depth, stencil) = depth_planes(texture.format);
    let mut had = DecompressKinds::NONE;
    if depth {
        had = had.union(DecompressKinds::DEPTH);
    }
    if stencil {
        had = had.union(DecompressKinds::STENCIL);
    }
    if !depth {
        had = had.union(DecompressKinds::CLEAR);
        if texture.sample_count > 1 {
            had = had.union(DecompressKinds::FMASK);
        }
        if texture.dcc {
            had = had.union(DecompressKinds::DCC);
        }
    }
    if kinds.is_empty() {
        return Some("no kind of decompression named: name at least one, or all".into());
    }
    let missing = kinds.without(had);
    (!missing.is_empty()).then(|| {
        format!(
            "it has no {missing} compression to decompress (a {}-sample {} texture{} has {had})",
            texture.sample_count,
            texture.format.name(),
            if texture.dcc { " with DCC" } else { "" },
        )
    })
}

/// Why `region` is not within a subresource of `texture`, if it is not (R-ST-9).
fn region_outside(texture: &TextureInfo, region: DecompressRegion) -> Option<String> {
    let mips = texture.mip_levels.max(1);
    // Unpacked from a descriptor: at most 255 mips and 65,535 slices, no overflow.
    let count = mips * texture.array_size.max(1);
    let index = region.subresource;
    if index >= count {
        return Some(format!(
            "the region's subresource {index} is not one of its {count}"
        ));
    }
    let mip = index % mips;
    let at_mip = |texels: u32| texels.checked_shr(mip).unwrap_or(0).max(1);
    let (width, height) = (at_mip(texture.width), at_mip(texture.height));
    let r = region.rect;
    (r.left > r.right || r.top > r.bottom || r.right > width || r.bottom > height).then(|| {
        format!(
            "the region, texels {}..{} x {}..{} of subresource {index}, is not within its {width}x{height} texels",
            r.left, r.right, r.top, r.bottom
        )
    })
}

impl<R: Role> Recorder<R> {
    /// [`BarrierCalls::decompress_resource`](crate::BarrierCalls::decompress_resource) and
    /// [`decompress_resource_x`](crate::BarrierCalls::decompress_resource_x): their semantics.
    pub(crate) fn decompress_resource(
        &mut self,
        texture: Texture,
        into: Option<Texture>,
        kinds: DecompressKinds,
        region: Option<DecompressRegion>,
    ) {
        self.begin_call();
        if let Err(error) = self.check_decompression(texture, into, kinds, region) {
            return self.fail(error);
        }
        let into = into.map_or(RawHandle::NULL, |t| t.0);
        if let Err(error) = self.retain(ObjectKind::Texture, texture.0, 1, DECOMPRESS) {
            return self.fail(error);
        }
        if let Err(error) = self.retain(ObjectKind::Texture, into, 1, DECOMPRESS) {
            self.release_retained(ObjectKind::Texture, texture.0);
            return self.fail(error);
        }
        let (subresource, rect) = region.map_or((WHOLE_RESOURCE, CopyBox::default()), |r| {
            (r.subresource, r.rect)
        });
        self.emit(
            Opcode::DecompressResource,
            0,
            None,
            DecompressPayload {
                resource: texture.0,
                into,
                subresource,
                kinds: kinds.bits() as u32,
                rect,
            },
        );
    }

    /// The rules of a decompression (R-ST-9): live textures; `into` another texture of the
    /// source's size and planes, without `kinds`; each kind named one the texture has; the
    /// region within a subresource of the texture (and of `into`).
    fn check_decompression(
        &self,
        texture: Texture,
        into: Option<Texture>,
        kinds: DecompressKinds,
        region: Option<DecompressRegion>,
    ) -> Result<(), Error> {
        let info = |t: Texture| {
            self.device
                .textures
                .get(t.0, false)
                .map(|l| TextureInfo::unpack(l.words))
                .map_err(|_| {
                    self.device
                        .stale_error(DECOMPRESS, ObjectKind::Texture, t.0)
                })
        };
        let source = info(texture)?;
        let mismatch = |problem| Error::CopyMismatch {
            call: DECOMPRESS,
            problem,
        };
        if let Some(target) = into {
            if target == texture {
                return Err(mismatch(CopyProblem::DecompressIntoItself));
            }
            let target = info(target)?;
            if (target.width, target.height) != (source.width, source.height) {
                return Err(mismatch(CopyProblem::DecompressSizes));
            }
            if depth_planes(target.format) != depth_planes(source.format) {
                return Err(mismatch(CopyProblem::DecompressFormats));
            }
            if kinds != DecompressKinds::ALL {
                return Err(mismatch(CopyProblem::DecompressKindsInto));
            }
        }
        let object = || self.device.object_name(ObjectKind::Texture, texture.0);
        if kinds != DecompressKinds::ALL {
            if let Some(detail) = kinds_not_had(&source, kinds) {
                return Err(Error::DecompressKindsNotHad {
                    call: DECOMPRESS,
                    object: object(),
                    detail: detail.into(),
                });
            }
        }
        if let Some(region) = region {
            let outside = |t: Texture, detail: String| Error::RegionOutOfBounds {
                call: DECOMPRESS,
                object: self.device.object_name(ObjectKind::Texture, t.0),
                detail: format!("{detail} (R-ST-9)").into(),
            };
            let textures = std::iter::once((texture, source));
            let targets = into.map(|t| info(t).map(|i| (t, i))).transpose()?;
            for (t, i) in textures.chain(targets) {
                if let Some(detail) = region_outside(&i, region) {
                    return Err(outside(t, detail));
                }
            }
        }
        Ok(())
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
