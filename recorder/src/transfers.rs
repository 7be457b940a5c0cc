//! Transfers (R-REC-5, R-BAR-7, R-ST-7): clears of render-target and depth-stencil views, copies
//! (`copy_resource`, `copy_buffer_region`, `copy_texture_region`, `copy_structure_count`) and
//! `update_subresource`, on every context that records (maps are `maps/`).
//!
//! **In:** the views, resources, regions and data of the call. **Out:** one command each; an
//! update's data travels in the list. A clear is a split point on a legacy context.
//!
//! **Invariant.** A copy is checked whole before anything is encoded (kinds, sizes, formats,
//! overlap: [`CopyProblem`]) and refused as a whole; a legacy list holds one reference on each
//! resource a transfer names (R-OBJ-4).

use crate::command::*;
use crate::context::core_access::{Context, CoreAccess};
use crate::context::role::Role;
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::device::object_info::TextureInfo;
use crate::errors::{CopyProblem, Error};

impl<R: Role> Recorder<R> {
    // ----- clears ------------------------------------------------------------------------------

    /// [`TransferCalls::clear_render_target_view`](crate::TransferCalls::clear_render_target_view): its semantics.
    pub(crate) fn clear_render_target_view(&mut self, view: RenderTargetView, color: [f32; 4]) {
        self.begin_call();
        const CALL: &str = "clear_render_target_view";
        let bound = match self.resolve_view(CALL, ObjectKind::RenderTargetView, view.0, false) {
            Ok((bound, _)) => bound,
            Err(error) => return self.fail(error),
        };
        if let Err(error) = self.retain(ObjectKind::RenderTargetView, view.0, 1, CALL) {
            return self.fail(error);
        }
        let split = self.is_legacy().then_some(SplitCategory::ClearRenderTarget);
        self.emit(
            Opcode::ClearRenderTargetView,
            0,
            split,
            ClearPayload {
                view: bound,
                values: color,
                stencil: 0,
                flags: 0,
            },
        );
    }

    /// [`TransferCalls::clear_depth_stencil_view`](crate::TransferCalls::clear_depth_stencil_view): its semantics.
    pub(crate) fn clear_depth_stencil_view(
        &mut self,
        view: DepthStencilView,
        flags: ClearFlags,
        depth: f32,
        stencil: u8,
    ) {
        self.begin_call();
        const CALL: &str = "clear_depth_stencil_view";
        let bound = match self.resolve_view(CALL, ObjectKind::DepthStencilView, view.0, false) {
            Ok((bound, _)) => bound,
            Err(error) => return self.fail(error),
        };
        if !(0.0..=1.0).contains(&depth) {
            return self.fail(Error::OutOfRange {
                call: CALL,
                argument: "depth",
                value: depth.to_string(),
                allowed: "0..=1 (R-REC-5)".into(),
            });
        }
        if let Err(error) = self.retain(ObjectKind::DepthStencilView, view.0, 1, CALL) {
            return self.fail(error);
        }
        let split = self.is_legacy().then_some(SplitCategory::ClearDepthStencil);
        let payload = ClearPayload {
            view: bound,
            values: [depth, 0.0, 0.0, 0.0],
            stencil: stencil as u32,
            flags: flags.bits(),
        };
        self.emit(Opcode::ClearDepthStencilView, 0, split, payload);
    }

    // ----- copies ------------------------------------------------------------------------------

    /// [`TransferCalls::copy_resource`](crate::TransferCalls::copy_resource): its semantics.
    pub(crate) fn copy_resource(
        &mut self,
        destination: impl Into<Resource>,
        source: impl Into<Resource>,
    ) {
        self.begin_call();
        if let Err(error) = self.try_copy_resource(destination.into(), source.into()) {
            self.fail(error);
        }
    }

    fn try_copy_resource(&mut self, destination: Resource, source: Resource) -> Result<(), Error> {
        const CALL: &str = "copy_resource";
        let (dst, dst_info) = self.resolve_resource(CALL, destination)?;
        let (src, src_info) = self.resolve_resource(CALL, source)?;
        if destination.kind() != source.kind() {
            return Err(Error::CopyMismatch {
                call: CALL,
                problem: CopyProblem::BufferAndTexture,
            });
        }
        if destination == source {
            return Err(Error::CopyMismatch {
                call: CALL,
                problem: CopyProblem::SameResource,
            });
        }
        if let (Some(d), Some(s)) = (dst_info, src_info) {
            if d.usage == Usage::Immutable {
                return Err(Error::WrongUsage {
                    call: CALL,
                    object: self.device.object_name(ObjectKind::Buffer, dst.resource),
                    usage: d.usage,
                    rule: "an immutable resource cannot be the destination of a copy (R-OBJ-2)",
                });
            }
            if d.size != s.size {
                return Err(Error::CopyMismatch {
                    call: CALL,
                    problem: CopyProblem::BufferSizes {
                        destination: d.size as u64,
                        source_size: s.size as u64,
                    },
                });
            }
        }
        if let (Resource::Texture(d), Resource::Texture(s)) = (destination, source) {
            let info = |t: Texture| {
                self.device
                    .textures
                    .get(t.0, true)
                    .ok()
                    .map(|l| TextureInfo::unpack(l.words))
            };
            if let (Some(d), Some(s)) = (info(d), info(s)) {
                if (
                    d.width,
                    d.height,
                    d.mip_levels,
                    d.array_size,
                    d.sample_count,
                ) != (
                    s.width,
                    s.height,
                    s.mip_levels,
                    s.array_size,
                    s.sample_count,
                ) {
                    return Err(Error::CopyMismatch {
                        call: CALL,
                        problem: CopyProblem::TextureShapes,
                    });
                }
            }
        }
        self.retain(destination.kind(), dst.resource, 1, CALL)?;
        if let Err(error) = self.retain(source.kind(), src.resource, 1, CALL) {
            self.release_retained(destination.kind(), dst.resource);
            return Err(error);
        }
        self.emit(
            Opcode::CopyResource,
            0,
            None,
            CopyPayload {
                destination: dst,
                source: src,
            },
        );
        Ok(())
    }

    /// [`TransferCalls::copy_buffer_region`](crate::TransferCalls::copy_buffer_region): its semantics.
    pub(crate) fn copy_buffer_region(
        &mut self,
        destination: Buffer,
        destination_offset: u64,
        source: Buffer,
        source_offset: u64,
        bytes: u64,
    ) {
        self.begin_call();
        let region = BufferRegion {
            destination,
            destination_offset,
            source,
            source_offset,
            bytes,
        };
        if let Err(error) = self.try_copy_buffer_region(region) {
            self.fail(error);
        }
    }

    fn try_copy_buffer_region(&mut self, r: BufferRegion) -> Result<(), Error> {
        const CALL: &str = "copy_buffer_region";
        let (dst, dst_info) = self.resolve_resource(CALL, r.destination.into())?;
        let (src, src_info) = self.resolve_resource(CALL, r.source.into())?;
        let (Some(d), Some(s)) = (dst_info, src_info) else {
            return Err(self
                .device
                .stale_error(CALL, ObjectKind::Buffer, r.source.0));
        };
        if d.usage == Usage::Immutable {
            return Err(Error::WrongUsage {
                call: CALL,
                object: self.device.object_name(ObjectKind::Buffer, dst.resource),
                usage: d.usage,
                rule: "an immutable resource cannot be the destination of a copy (R-OBJ-2)",
            });
        }
        let dst_range = byte_range(r.destination_offset, r.bytes);
        let src_range = byte_range(r.source_offset, r.bytes);
        for (which, buffer, range, size) in [
            ("destination", r.destination, dst_range, d.size),
            ("source", r.source, src_range, s.size),
        ] {
            if !matches!(range, Some((_, end)) if end <= size as u64) {
                let offset = if which == "source" {
                    r.source_offset
                } else {
                    r.destination_offset
                };
                return Err(Error::RegionOutOfBounds {
                    call: CALL,
                    object: self.device.object_name(ObjectKind::Buffer, buffer.0),
                    detail: format!(
                        "the {which} range, {} bytes at offset {offset}, is not within the buffer's {size} bytes (R-BAR-7)",
                        r.bytes
                    )
                    .into(),
                });
            }
        }
        if let (true, Some(dr), Some(sr)) = (r.destination == r.source, dst_range, src_range) {
            if dr.0 < sr.1 && sr.0 < dr.1 {
                return Err(Error::OverlappingSelfCopy {
                    call: CALL,
                    object: self.device.object_name(ObjectKind::Buffer, dst.resource),
                    ranges: Box::new([
                        format!("bytes {}..{}", dr.0, dr.1),
                        format!("bytes {}..{}", sr.0, sr.1),
                    ]),
                });
            }
        }
        self.retain_pair(CALL, ObjectKind::Buffer, dst.resource, src.resource)?;
        self.emit(
            Opcode::CopyBufferRegion,
            0,
            None,
            BufferRegionPayload {
                destination: dst,
                source: src,
                destination_offset: r.destination_offset,
                source_offset: r.source_offset,
                bytes: r.bytes,
            },
        );
        Ok(())
    }

    /// [`TransferCalls::copy_texture_region`](crate::TransferCalls::copy_texture_region): its semantics.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn copy_texture_region(
        &mut self,
        destination: Texture,
        destination_subresource: u32,
        x: u32,
        y: u32,
        source: Texture,
        source_subresource: u32,
        source_box: CopyBox,
    ) {
        self.begin_call();
        let region = TextureRegion {
            destination,
            destination_subresource,
            x,
            y,
            source,
            source_subresource,
            source_box,
        };
        if let Err(error) = self.try_copy_texture_region(region) {
            self.fail(error);
        }
    }

    fn try_copy_texture_region(&mut self, r: TextureRegion) -> Result<(), Error> {
        const CALL: &str = "copy_texture_region";
        let (dst, _) = self.resolve_resource(CALL, r.destination.into())?;
        let (src, _) = self.resolve_resource(CALL, r.source.into())?;
        let info = |t: Texture| {
            self.device
                .textures
                .get(t.0, false)
                .ok()
                .map(|l| TextureInfo::unpack(l.words))
                .ok_or_else(|| self.device.stale_error(CALL, ObjectKind::Texture, t.0))
        };
        let (d, s) = (info(r.destination)?, info(r.source)?);
        let b = r.source_box;
        let out_of_bounds = |texture: Texture, detail: String| Error::RegionOutOfBounds {
            call: CALL,
            object: self.device.object_name(ObjectKind::Texture, texture.0),
            detail: format!("{detail} (R-BAR-7)").into(),
        };
        let (Some(src_size), Some(dst_size)) = (
            subresource_size(&s, r.source_subresource),
            subresource_size(&d, r.destination_subresource),
        ) else {
            let (texture, info, which, index) = match subresource_size(&s, r.source_subresource) {
                None => (r.source, &s, "source", r.source_subresource),
                Some(_) => (r.destination, &d, "destination", r.destination_subresource),
            };
            // Unpacked from a descriptor: at most 255 mips and 65,535 slices, no overflow.
            let count = info.mip_levels * info.array_size;
            return Err(out_of_bounds(
                texture,
                format!("the {which} subresource {index} is not one of its {count}"),
            ));
        };
        if b.left > b.right || b.top > b.bottom || b.right > src_size.0 || b.bottom > src_size.1 {
            return Err(out_of_bounds(
                r.source,
                format!(
                    "the source box, texels {}..{} x {}..{} of subresource {}, is not within its {}x{} texels",
                    b.left, b.right, b.top, b.bottom, r.source_subresource, src_size.0, src_size.1
                ),
            ));
        }
        let (w, h) = (b.right - b.left, b.bottom - b.top);
        let (right, bottom) = (r.x as u64 + w as u64, r.y as u64 + h as u64);
        if right > dst_size.0 as u64 || bottom > dst_size.1 as u64 {
            return Err(out_of_bounds(
                r.destination,
                format!(
                    "the destination region, texels {}..{right} x {}..{bottom} of subresource {}, is not within its {}x{} texels",
                    r.x, r.y, r.destination_subresource, dst_size.0, dst_size.1
                ),
            ));
        }
        let overlaps = r.destination == r.source
            && r.destination_subresource == r.source_subresource
            && (r.x as u64) < b.right as u64
            && (b.left as u64) < right
            && (r.y as u64) < b.bottom as u64
            && (b.top as u64) < bottom
            && w > 0
            && h > 0;
        if overlaps {
            let sub = r.source_subresource;
            return Err(Error::OverlappingSelfCopy {
                call: CALL,
                object: self.device.object_name(ObjectKind::Texture, dst.resource),
                ranges: Box::new([
                    format!(
                        "subresource {sub}, texels {}..{right} x {}..{bottom}",
                        r.x, r.y
                    ),
                    format!(
                        "subresource {sub}, texels {}..{} x {}..{}",
                        b.left, b.right, b.top, b.bottom
                    ),
                ]),
            });
        }
        self.retain_pair(CALL, ObjectKind::Texture, dst.resource, src.resource)?;
        self.emit(
            Opcode::CopyTextureRegion,
            0,
            None,
            TextureRegionPayload {
                destination: dst,
                source: src,
                destination_subresource: r.destination_subresource,
                source_subresource: r.source_subresource,
                x: r.x,
                y: r.y,
                source_box: b,
            },
        );
        Ok(())
    }

    /// A legacy list's references on a copy's two resources (one each, also when they are one
    /// resource: the list's release walks the command's two handles).
    fn retain_pair(
        &mut self,
        call: &'static str,
        kind: ObjectKind,
        destination: RawHandle,
        source: RawHandle,
    ) -> Result<(), Error> {
        self.retain(kind, destination, 1, call)?;
        if let Err(error) = self.retain(kind, source, 1, call) {
            self.release_retained(kind, destination);
            return Err(error);
        }
        Ok(())
    }

    /// [`TransferCalls::update_subresource`](crate::TransferCalls::update_subresource): its semantics.
    pub(crate) fn update_subresource(&mut self, resource: impl Into<Resource>, data: &[u8]) {
        self.begin_call();
        if let Err(error) = self.try_update_subresource(resource.into(), data) {
            self.fail(error);
        }
    }

    fn try_update_subresource(&mut self, resource: Resource, data: &[u8]) -> Result<(), Error> {
        const CALL: &str = "update_subresource";
        if !self.is_legacy() {
            return Err(Error::ForbiddenInFast {
                call: CALL,
                rule: "use a staging resource and copy instead (R-ST-7)",
            });
        }
        let (bound, info) = self.resolve_resource(CALL, resource)?;
        if let Some(info) = info {
            if info.usage != Usage::Default {
                return Err(Error::WrongUsage {
                    call: CALL,
                    object: self.device.object_name(ObjectKind::Buffer, bound.resource),
                    usage: info.usage,
                    rule: "update_subresource writes default-usage resources only (R-OBJ-2)",
                });
            }
            if data.len() > info.size as usize {
                return Err(Error::DoesNotFit {
                    call: CALL,
                    object: self.device.object_name(ObjectKind::Buffer, bound.resource),
                    bytes: data.len() as u64,
                    size: info.size as u64,
                });
            }
        }
        if data.len() > crate::limits::MAX_MAP_BYTES {
            let object = self.device.object_name(resource.kind(), bound.resource);
            return Err(data_too_large(CALL, object, data.len() as u64));
        }
        self.retain(resource.kind(), bound.resource, 1, CALL)?;
        let at = match self.emit_data(CALL, Opcode::UpdateSubresource, bound, data.len()) {
            Ok(at) => at,
            Err(error) => {
                // Legacy only (fast returned above): the reference taken is given back.
                self.release_retained(resource.kind(), bound.resource);
                return Err(error);
            }
        };
        // SAFETY: `emit_data` reserved `data.len()` bytes (rounded up) at `at`.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), at, data.len()) };
        Ok(())
    }

    /// [`TransferCalls::copy_structure_count`](crate::TransferCalls::copy_structure_count): its semantics.
    pub(crate) fn copy_structure_count(
        &mut self,
        destination: Buffer,
        offset: u32,
        view: UnorderedAccessView,
    ) {
        self.begin_call();
        const CALL: &str = "copy_structure_count";
        if !self.is_legacy() {
            return self.fail(Error::ForbiddenInFast {
                call: CALL,
                rule: "UAV counters are managed by the application in GDS (R-ST-7)",
            });
        }
        let result = self
            .resolve_resource(CALL, destination.into())
            .and_then(|(dst, info)| {
                // The count is one 4-byte word at a 4-aligned offset inside the destination
                // (D3D11's `DstAlignedByteOffset`); widened, `offset + 4` cannot wrap.
                let size = info.map_or(0, |i| i.size);
                if !offset.is_multiple_of(4) || offset as u64 + 4 > size as u64 {
                    return Err(Error::OutOfRange {
                        call: CALL,
                        argument: "destination offset",
                        value: offset.to_string(),
                        allowed: format!(
                            "a multiple of 4 with the count's 4 bytes within the buffer's {size} \
                             bytes (R-REC-5)"
                        )
                        .into(),
                    });
                }
                let (bound, _) =
                    self.resolve_view(CALL, ObjectKind::UnorderedAccessView, view.0, false)?;
                if !bound.flags.has(ViewFlags::HIDDEN_COUNTER) {
                    return Err(Error::NoHiddenCounter {
                        call: CALL,
                        view: self
                            .device
                            .object_name(ObjectKind::UnorderedAccessView, view.0),
                    });
                }
                Ok((dst, bound))
            });
        let (dst, bound) = match result {
            Ok(pair) => pair,
            Err(error) => return self.fail(error),
        };
        if let Err(error) = self.retain(ObjectKind::Buffer, destination.0, 1, CALL) {
            return self.fail(error);
        }
        if let Err(error) = self.retain(ObjectKind::UnorderedAccessView, view.0, 1, CALL) {
            self.release_retained(ObjectKind::Buffer, destination.0);
            return self.fail(error);
        }
        let destination = BoundBuffer {
            buffer: destination.0,
            instance: dst.instance,
            offset,
            stride_or_format: 0,
        };
        self.emit(
            Opcode::CopyStructureCount,
            0,
            None,
            StructureCountPayload {
                destination,
                view: bound,
            },
        );
    }
}

/// The arguments of `copy_buffer_region`.
#[derive(Clone, Copy)]
struct BufferRegion {
    destination: Buffer,
    destination_offset: u64,
    source: Buffer,
    source_offset: u64,
    bytes: u64,
}

/// The arguments of `copy_texture_region`.
#[derive(Clone, Copy)]
struct TextureRegion {
    destination: Texture,
    destination_subresource: u32,
    x: u32,
    y: u32,
    source: Texture,
    source_subresource: u32,
    source_box: CopyBox,
}

/// `offset..offset + bytes`, `None` past an address space.
fn byte_range(offset: u64, bytes: u64) -> Option<(u64, u64)> {
    Some((offset, offset.checked_add(bytes)?))
}

/// The width and height of `texture`'s subresource `index` (`mip + slice * mips`), `None` past
/// its subresources.
fn subresource_size(texture: &TextureInfo, index: u32) -> Option<(u32, u32)> {
    let mips = texture.mip_levels.max(1);
    if index / mips >= texture.array_size.max(1) {
        return None;
    }
    // `mip < mips <= 16` for a texture the device created (R-OBJ-2); `checked_shr` keeps any
    // shape defined all the same.
    let mip = index % mips;
    let at_mip = |texels: u32| texels.checked_shr(mip).unwrap_or(0).max(1);
    Some((at_mip(texture.width), at_mip(texture.height)))
}

/// Clears, copies and updates: deferred and immediate contexts (R-B-8).
pub trait TransferCalls: Context {
    /// Clears a render target (`ClearRenderTargetView`).
    ///
    /// Clears a render-target view: a `clear_render_target` split point on legacy contexts.
    #[inline]
    fn clear_render_target_view(&mut self, view: RenderTargetView, color: [f32; 4]) {
        self.recorder(CoreAccess(()))
            .clear_render_target_view(view, color)
    }

    /// Clears a depth stencil (`ClearDepthStencilView`).
    ///
    /// Clears a depth-stencil view: a `clear_depth_stencil` split point on legacy contexts.
    #[inline]
    fn clear_depth_stencil_view(
        &mut self,
        view: DepthStencilView,
        flags: ClearFlags,
        depth: f32,
        stencil: u8,
    ) {
        self.recorder(CoreAccess(()))
            .clear_depth_stencil_view(view, flags, depth, stencil)
    }

    /// Copies a resource (`CopyResource`).
    ///
    /// Copies the whole of `source` into `destination` when the list executes. Refused
    /// (`invalid_argument`, R-REC-5) when one is a buffer and the other a texture, both are the
    /// same resource, the destination is immutable, buffer sizes differ, or textures differ in
    /// size, mips, array size or sample count; a released resource refuses it with
    /// `released_object`.
    #[inline]
    fn copy_resource(&mut self, destination: impl Into<Resource>, source: impl Into<Resource>)
    where
        Self: Sized,
    {
        self.recorder(CoreAccess(()))
            .copy_resource(destination, source)
    }

    /// Writes data into a resource (`UpdateSubresource`).
    ///
    /// Replaces a default resource's contents with `data`, carried by the list (legacy only,
    /// R-ST-7).
    #[inline]
    fn update_subresource(&mut self, resource: impl Into<Resource>, data: &[u8])
    where
        Self: Sized,
    {
        self.recorder(CoreAccess(()))
            .update_subresource(resource, data)
    }

    /// Copies bytes of a buffer into another or, without overlap, itself (`CopyBufferRegion`,
    /// R-BAR-7); refused on a bundle recorder.
    ///
    /// Copies `bytes` bytes of `source` from `source_offset` into `destination` at
    /// `destination_offset` when the list executes (`CopyBufferRegion`). `source` may be
    /// `destination` when the two ranges do not overlap (R-BAR-7). Refused (`invalid_argument`):
    /// a range past its buffer's end ([`Error::RegionOutOfBounds`]), overlapping ranges of one
    /// buffer ([`Error::OverlappingSelfCopy`]), an immutable destination; a released buffer
    /// with `released_object`. A legacy list holds both buffers, as `copy_resource`.
    #[inline]
    fn copy_buffer_region(
        &mut self,
        destination: Buffer,
        destination_offset: u64,
        source: Buffer,
        source_offset: u64,
        bytes: u64,
    ) {
        self.recorder(CoreAccess(())).copy_buffer_region(
            destination,
            destination_offset,
            source,
            source_offset,
            bytes,
        )
    }

    /// Copies texels of a texture subresource into another or, without overlap, itself
    /// (`CopyTextureRegion`, R-BAR-7); refused on a bundle recorder.
    ///
    /// Copies the texels `source_box` of `source`'s subresource `source_subresource` into
    /// `destination`'s subresource `destination_subresource` at `(x, y)` when the list executes
    /// (`CopyTextureRegion`; subresources are numbered `mip + slice * mips`, as
    /// `D3D12CalcSubresource`). `source` may be `destination` when the regions do not overlap
    /// (another subresource, or disjoint rectangles of one: R-BAR-7, the seed's self-copy of a
    /// quarter). Refused (`invalid_argument`): a subresource past the texture's, a box that is
    /// inverted or not within the source's mip level, a destination region not within the
    /// destination's ([`Error::RegionOutOfBounds`]); overlapping regions of one subresource
    /// ([`Error::OverlappingSelfCopy`]); a released texture with `released_object`. Formats are
    /// not compared (the model copies no texels). A legacy list holds both textures.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn copy_texture_region(
        &mut self,
        destination: Texture,
        destination_subresource: u32,
        x: u32,
        y: u32,
        source: Texture,
        source_subresource: u32,
        source_box: CopyBox,
    ) {
        self.recorder(CoreAccess(())).copy_texture_region(
            destination,
            destination_subresource,
            x,
            y,
            source,
            source_subresource,
            source_box,
        )
    }

    /// Copies a UAV's hidden counter into a buffer (`CopyStructureCount`).
    ///
    /// Copies the hidden counter of an append/counter UAV into a buffer (legacy only, R-ST-7).
    /// Refused (`invalid_argument`) when `offset` is not 4-aligned or the count's 4 bytes past
    /// it leave the buffer.
    #[inline]
    fn copy_structure_count(
        &mut self,
        destination: Buffer,
        offset: u32,
        view: UnorderedAccessView,
    ) {
        self.recorder(CoreAccess(()))
            .copy_structure_count(destination, offset, view)
    }
}
