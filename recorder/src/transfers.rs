//! The rest of a deferred context's recording API (R-REC-5): draws and dispatches, clears,
//! copies, queries, compression, minimum LOD, presents and fences (maps are in `map.rs`).

use crate::barriers::{
    for_each_record, BarrierCounts, BarrierGroup, BarrierRecord, NamedResource, ResourceBarrier,
    ResourceBarrierRecord,
};
use crate::command::*;
use crate::context::role::Role;
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::device::object_info::{BufferInfo, TextureInfo};
use crate::device_context::Compression;
use crate::errors::{CopyProblem, Error};
use crate::sync::Ordering;

impl<R: Role> Recorder<R> {
    // ----- draws -------------------------------------------------------------------------------

    #[inline]
    fn emit_draw(&mut self, opcode: Opcode, args: DirectArgs) {
        self.begin_call();
        self.stats.draws += 1;
        self.emit(opcode, 0, None, args);
    }

    /// Draws `vertex_count` vertices from `start_vertex` with the bound state. Never refused;
    /// counts a draw in [`stats`](Self::stats).
    #[inline]
    pub fn draw(&mut self, vertex_count: u32, start_vertex: u32) {
        // Compact: the two numbers alone (16 bytes with the header); decoded as `DirectArgs`.
        self.begin_call();
        self.stats.draws += 1;
        self.emit(Opcode::Draw, 0, None, [vertex_count, start_vertex]);
    }

    /// Draws `index_count` indices of the bound index buffer from `start_index`, `base_vertex`
    /// added to each. Never refused; counts a draw.
    #[inline]
    pub fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) {
        self.emit_draw(
            Opcode::DrawIndexed,
            DirectArgs::draw_indexed(index_count, start_index, base_vertex),
        );
    }

    /// Draws `instance_count` instances of `vertex_count` vertices, from `start_vertex` and
    /// `start_instance`. Never refused; counts a draw.
    #[inline]
    pub fn draw_instanced(
        &mut self,
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    ) {
        self.emit_draw(
            Opcode::DrawInstanced,
            DirectArgs::draw_instanced(vertex_count, instance_count, start_vertex, start_instance),
        );
    }

    /// Draws `instance_count` instances of `index_count` indices, from `start_index` and
    /// `start_instance`, `base_vertex` added to each index. Never refused; counts a draw.
    #[inline]
    pub fn draw_indexed_instanced(
        &mut self,
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    ) {
        self.emit_draw(
            Opcode::DrawIndexedInstanced,
            DirectArgs::draw_indexed_instanced(
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            ),
        );
    }

    /// Draws what the bound stream-output buffer holds.
    pub fn draw_auto(&mut self) {
        self.begin_call();
        self.stats.draws += 1;
        self.emit(Opcode::DrawAuto, 0, None, Empty);
    }

    /// Dispatches `x * y * z` thread groups of the bound compute shader. Never refused; counted
    /// with the draws.
    #[inline]
    pub fn dispatch(&mut self, x: u32, y: u32, z: u32) {
        self.emit_draw(Opcode::Dispatch, DirectArgs::dispatch(x, y, z));
    }

    /// Draws instanced with the arguments at byte `offset` of `args`, read when the list executes.
    /// Refused when `offset` is not 4-aligned or the 12 bytes past it leave the buffer
    /// (`invalid_argument`, R-REC-5), or `args` is released (`released_object`).
    pub fn draw_instanced_indirect(&mut self, args: Buffer, offset: u32) {
        self.indirect(
            Opcode::DrawInstancedIndirect,
            "draw_instanced_indirect",
            args,
            offset,
        );
    }

    /// Draws indexed and instanced with the arguments at byte `offset` of `args`; refused as
    /// [`draw_instanced_indirect`](Self::draw_instanced_indirect).
    pub fn draw_indexed_instanced_indirect(&mut self, args: Buffer, offset: u32) {
        self.indirect(
            Opcode::DrawIndexedInstancedIndirect,
            "draw_indexed_instanced_indirect",
            args,
            offset,
        );
    }

    /// Dispatches with the thread-group counts at byte `offset` of `args`; refused as
    /// [`draw_instanced_indirect`](Self::draw_instanced_indirect).
    pub fn dispatch_indirect(&mut self, args: Buffer, offset: u32) {
        self.indirect(Opcode::DispatchIndirect, "dispatch_indirect", args, offset);
    }

    fn indirect(&mut self, opcode: Opcode, call: &'static str, args: Buffer, offset: u32) {
        self.begin_call();
        match self.resolve_resource(call, args.into()) {
            Ok((resource, info)) => {
                let size = info.map_or(0, |i| i.size);
                if !offset.is_multiple_of(4) || offset as u64 + 12 > size as u64 {
                    return self.fail(Error::OutOfRange {
                        call,
                        argument: "argument offset",
                        value: offset.to_string(),
                        allowed: format!("a multiple of 4 with 12 bytes of arguments within the buffer's {size} bytes (R-REC-5)").into(),
                    });
                }
                if let Err(error) = self.retain(ObjectKind::Buffer, args.0, 1, call) {
                    return self.fail(error);
                }
                self.stats.draws += 1;
                let args = BoundBuffer {
                    buffer: args.0,
                    instance: resource.instance,
                    offset,
                    stride_or_format: 0,
                };
                self.emit(opcode, 0, None, IndirectPayload { args });
            }
            Err(error) => self.fail(error),
        }
    }

    /// A resource named by a copy, an indirect draw or a map: the instance it is read at is the
    /// list's own if the list mapped it write_discard, else whatever is current when the list
    /// executes (no split category covers these reads).
    fn resolve_resource(
        &self,
        call: &'static str,
        resource: Resource,
    ) -> Result<(BoundResource, Option<BufferInfo>), Error> {
        let raw = resource.raw();
        let stale = || self.device.stale_error(call, resource.kind(), raw);
        match resource {
            Resource::Buffer(buffer) => {
                let live = self
                    .device
                    .buffers
                    .get(buffer.0, false)
                    .map_err(|_| stale())?;
                let info = BufferInfo::unpack(live.words);
                let instance = if info.usage == Usage::Dynamic {
                    self.maps
                        .get(raw)
                        .and_then(|e| e.instance)
                        .unwrap_or(InstanceId::RESOLVE_AT_EXECUTION)
                } else {
                    InstanceId::INITIAL
                };
                Ok((
                    BoundResource {
                        resource: raw,
                        instance,
                        is_texture: 0,
                        data_len: 0,
                    },
                    Some(info),
                ))
            }
            Resource::Texture(texture) => {
                self.device
                    .textures
                    .get(texture.0, false)
                    .map_err(|_| stale())?;
                Ok((
                    BoundResource {
                        resource: raw,
                        instance: InstanceId::INITIAL,
                        is_texture: 1,
                        data_len: 0,
                    },
                    None,
                ))
            }
        }
    }

    // ----- clears ------------------------------------------------------------------------------

    /// Clears a render-target view: a `clear_render_target` split point on legacy contexts.
    pub fn clear_render_target_view(&mut self, view: RenderTargetView, color: [f32; 4]) {
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

    /// Clears a depth-stencil view: a `clear_depth_stencil` split point on legacy contexts.
    pub fn clear_depth_stencil_view(
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

    /// Copies the whole of `source` into `destination` when the list executes. Refused
    /// (`invalid_argument`, R-REC-5) when one is a buffer and the other a texture, both are the
    /// same resource, the destination is immutable, buffer sizes differ, or textures differ in
    /// size, mips, array size or sample count; a released resource refuses it with
    /// `released_object`.
    pub fn copy_resource(&mut self, destination: impl Into<Resource>, source: impl Into<Resource>) {
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

    /// Copies `bytes` bytes of `source` from `source_offset` into `destination` at
    /// `destination_offset` when the list executes (`CopyBufferRegion`). `source` may be
    /// `destination` when the two ranges do not overlap (R-BAR-7). Refused (`invalid_argument`):
    /// a range past its buffer's end ([`Error::RegionOutOfBounds`]), overlapping ranges of one
    /// buffer ([`Error::OverlappingSelfCopy`]), an immutable destination; a released buffer
    /// with `released_object`. A legacy list holds both buffers, as `copy_resource`.
    pub fn copy_buffer_region(
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
    #[allow(clippy::too_many_arguments)]
    pub fn copy_texture_region(
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

    /// Replaces a default resource's contents with `data`, carried by the list (legacy only,
    /// R-ST-7).
    pub fn update_subresource(&mut self, resource: impl Into<Resource>, data: &[u8]) {
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

    /// Copies the hidden counter of an append/counter UAV into a buffer (legacy only, R-ST-7).
    pub fn copy_structure_count(
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
            .and_then(|(dst, _)| {
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

    // ----- queries, compression, LOD, presents, fences -----------------------------------------

    /// Begins `query` (`Begin`). A released query refuses the call (`released_object`).
    pub fn begin_query(&mut self, query: Query) {
        self.query(Opcode::BeginQuery, "begin_query", query);
    }

    /// Ends `query` (`End`); its answer is ready once the list has run. A released query refuses
    /// the call (`released_object`).
    pub fn end_query(&mut self, query: Query) {
        self.query(Opcode::EndQuery, "end_query", query);
    }

    fn query(&mut self, opcode: Opcode, call: &'static str, query: Query) {
        self.begin_call();
        if self.device.queries.get(query.0, false).is_err() {
            return self.fail(self.device.stale_error(call, ObjectKind::Query, query.0));
        }
        if let Err(error) = self.retain(ObjectKind::Query, query.0, 1, call) {
            return self.fail(error);
        }
        if opcode == Opcode::EndQuery {
            self.mark_query_ended(query.0);
        }
        self.emit(opcode, 0, None, query.0);
    }

    /// Decompresses a compressible target in place, or into `into` (keeping the original
    /// compressed). Explicit under fast semantics (R-SP-3, R-ST-9).
    pub fn decompress_resource(&mut self, texture: Texture, into: Option<Texture>) {
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

    /// Overrides a target's compression state when the list executes (R-ST-9).
    pub fn set_resource_compression(&mut self, texture: Texture, compressed: Compression) {
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

    /// Sets a texture's minimum LOD, at once, for every context (legacy binds read it, R-ST-6).
    pub fn set_resource_min_lod(&mut self, texture: Texture, min_lod: f32) {
        self.set_min_lod(
            "set_resource_min_lod",
            ObjectKind::Texture,
            texture.0,
            min_lod,
        );
    }

    /// Sets a view's minimum LOD, at once, for every context (fast binds read it, R-ST-6).
    pub fn set_shader_resource_view_min_lod(&mut self, view: ShaderResourceView, min_lod: f32) {
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

    /// Waits for the current back buffer of `chain` to leave the display before writing it
    /// (fast semantics needs it once a frame, R-EX-7).
    pub fn insert_wait_on_present(&mut self, chain: SwapChain) {
        self.begin_call();
        const CALL: &str = "insert_wait_on_present";
        if self.device.swap_chains.get(chain.0, false).is_err() {
            return self.fail(
                self.device
                    .stale_error(CALL, ObjectKind::SwapChain, chain.0),
            );
        }
        if let Err(error) = self.retain(ObjectKind::SwapChain, chain.0, 1, CALL) {
            return self.fail(error);
        }
        self.emit(Opcode::InsertWaitOnPresent, 0, None, chain.0);
    }

    /// Inserts a fence on `engine` and returns its value (R-EX-5): device-wide, larger than
    /// every value handed out before, on any context. The fence passes when the GPU has
    /// finished everything before it, in the order the work executes (a list's fence, when the
    /// list runs); `ImmediateContext::is_fence_pending` tells. Not a hot-path call: it takes
    /// one atomic add on the device's counter, under either semantics.
    pub fn insert_fence(&mut self, engine: Engine) -> u64 {
        self.begin_call();
        let value = self.device.next_fence.fetch_add(1, Ordering::Relaxed);
        self.emit(Opcode::InsertFence, engine as u8, None, value);
        value
    }

    /// Makes `engine` wait until the fence `value` has passed. A value no `insert_fence` has
    /// handed out yet is refused: nothing could ever signal it.
    pub fn insert_wait_on_fence(&mut self, engine: Engine, value: u64) {
        self.begin_call();
        let next = self.device.next_fence.load(Ordering::Relaxed);
        if value == 0 || value >= next {
            return self.fail(Error::OutOfRange {
                call: "insert_wait_on_fence",
                argument: "fence",
                value: format!("{value:#x}"),
                allowed: format!(
                    "a fence inserted already (the last is {:#x}); the {} engine would wait forever (R-EX-5)",
                    next - 1,
                    engine.name()
                )
                .into(),
            });
        }
        self.emit(Opcode::InsertWaitOnFence, engine as u8, None, value);
    }

    /// Writes `value` at `offset` of `buffer` when the pipeline drains past this point.
    pub fn write_value_bottom_of_pipe(&mut self, buffer: Buffer, offset: u64, value: u64) {
        self.memory_op(
            Opcode::WriteValueBottomOfPipe,
            "write_value_bottom_of_pipe",
            buffer,
            offset,
            value,
        );
    }

    /// Waits until `offset` of `buffer` holds `value`.
    pub fn insert_wait_on_memory(&mut self, buffer: Buffer, offset: u64, value: u64) {
        self.memory_op(
            Opcode::InsertWaitOnMemory,
            "insert_wait_on_memory",
            buffer,
            offset,
            value,
        );
    }

    fn memory_op(
        &mut self,
        opcode: Opcode,
        call: &'static str,
        buffer: Buffer,
        offset: u64,
        value: u64,
    ) {
        self.begin_call();
        let size = match self.device.buffers.get(buffer.0, false) {
            Ok(live) => BufferInfo::unpack(live.words).size as u64,
            Err(_) => {
                return self.fail(self.device.stale_error(call, ObjectKind::Buffer, buffer.0))
            }
        };
        if !offset.is_multiple_of(8) || offset.checked_add(8).is_none_or(|end| end > size) {
            return self.fail(Error::OutOfRange {
                call,
                argument: "offset",
                value: offset.to_string(),
                allowed: format!(
                    "a multiple of 8 with 8 bytes within the buffer's {size} bytes (R-EX-5)"
                )
                .into(),
            });
        }
        if let Err(error) = self.retain(ObjectKind::Buffer, buffer.0, 1, call) {
            return self.fail(error);
        }
        self.emit(
            opcode,
            0,
            None,
            MemoryPayload {
                buffer: buffer.0,
                offset,
                value,
            },
        );
    }
}

// ----- barriers (SPEC §9; the values and records are `barrier.rs`'s) --------------------------

impl<R: Role> Recorder<R> {
    /// `Barrier`: records the groups as one command (R-BAR-1); the GPU model carries them out
    /// and, under validation, checks them (R-BAR-8). Refused on a bundle recorder
    /// (`unsupported_in_bundle`, by the `bundles` crate), for a released resource
    /// (`released_object`) or past one command's size. Allocates nothing.
    pub fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
        self.begin_call();
        if let Err(error) = self.try_barrier(groups) {
            self.fail(error);
        }
    }

    fn try_barrier(&mut self, groups: &[BarrierGroup<'_>]) -> Result<(), Error> {
        const CALL: &str = "barrier";
        let count: usize = groups.iter().map(BarrierGroup::len).sum();
        let size = CommandBytes::with_items::<BarrierCounts, BarrierRecord>(count)
            .map_err(|too_large| too_large.error(CALL, format_args!("{count} barriers")))?;
        let mut refused = None;
        let mut retained = 0;
        for_each_record(groups, |record| {
            if refused.is_none() {
                match record.resource().map(|r| self.retain_live(CALL, r)) {
                    Some(Err(error)) => refused = Some(error),
                    Some(Ok(())) => retained += 1,
                    None => {}
                }
            }
        });
        if let Some(error) = refused {
            let mut left = retained;
            for_each_record(groups, |record| {
                if let (Some(r), true) = (record.resource(), left > 0) {
                    left -= 1;
                    self.unretain(r);
                }
            });
            return Err(error);
        }
        let at = self.reserve(size, None);
        let counts = BarrierCounts {
            barriers: count as u32,
            groups: groups.len() as u32,
        };
        // SAFETY: `at` has `size` bytes: the header, the counts, then `count` records (8-aligned,
        // as every payload is a multiple of 8 bytes).
        let items = unsafe { write_command(at, Opcode::Barrier, 0, None, size, counts) }
            as *mut BarrierRecord;
        let mut k = 0;
        for_each_record(groups, |record| {
            // SAFETY: record `k` of the `count` reserved; `for_each_record` yields `count`.
            unsafe { items.add(k).write(record) };
            k += 1;
        });
        Ok(())
    }

    /// `ResourceBarrier`: records legacy barriers as one command (R-BAR-6); the GPU model
    /// translates them to enhanced ones. Refused as [`barrier`](Self::barrier) is.
    pub fn resource_barrier(&mut self, barriers: &[ResourceBarrier]) {
        self.begin_call();
        if let Err(error) = self.try_resource_barrier(barriers) {
            self.fail(error);
        }
    }

    fn try_resource_barrier(&mut self, barriers: &[ResourceBarrier]) -> Result<(), Error> {
        const CALL: &str = "resource_barrier";
        let count = barriers.len();
        let size = CommandBytes::with_items::<BarrierCounts, ResourceBarrierRecord>(count)
            .map_err(|too_large| too_large.error(CALL, format_args!("{count} barriers")))?;
        let named = |record: &ResourceBarrierRecord| [record.resource(), record.other()];
        let records = barriers.iter().map(ResourceBarrierRecord::new);
        let mut retained = 0;
        for record in records.clone() {
            for resource in named(&record).into_iter().flatten() {
                if let Err(error) = self.retain_live(CALL, resource) {
                    for resource in records
                        .clone()
                        .flat_map(|r| named(&r))
                        .flatten()
                        .take(retained)
                    {
                        self.unretain(resource);
                    }
                    return Err(error);
                }
                retained += 1;
            }
        }
        let at = self.reserve(size, None);
        let counts = BarrierCounts {
            barriers: count as u32,
            groups: 0,
        };
        // SAFETY: `at` has `size` bytes: the header, the counts, then `count` records.
        let items = unsafe { write_command(at, Opcode::ResourceBarrier, 0, None, size, counts) }
            as *mut ResourceBarrierRecord;
        for (k, record) in records.enumerate() {
            // SAFETY: record `k` of the `count` reserved.
            unsafe { items.add(k).write(record) };
        }
        Ok(())
    }

    /// Refuses a released resource; in a legacy list, takes a reference on a live one
    /// (R-OBJ-4).
    fn retain_live(&mut self, call: &'static str, resource: NamedResource) -> Result<(), Error> {
        if !self.device.is_live(resource.kind, resource.handle) {
            return Err(self
                .device
                .stale_error(call, resource.kind, resource.handle));
        }
        self.retain(resource.kind, resource.handle, 1, call)
    }

    /// Gives back a reference [`retain_live`](Self::retain_live) took.
    fn unretain(&mut self, resource: NamedResource) {
        self.release_retained(resource.kind, resource.handle);
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
    let mip = index % mips;
    Some((
        (texture.width >> mip).max(1),
        (texture.height >> mip).max(1),
    ))
}
