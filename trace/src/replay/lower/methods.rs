//! Calls lowered: each call line of the trace (`CTX METHOD ARGS`) to an [`Op::Call`] step, the
//! context it is made on and the call in the engine's types ([`Call`], the syntax room's
//! `Method` in the replay's `Lowered` form).
//!
//! **In:** one [`crate::syntax::ast::Call`] of the parsed trace, at the lowering's line.
//! **Out:** the step, or the first problem as the message of `trace:LINE: message`: a format
//! the engine does not know, a number that does not fit the engine's argument (a 32-bit count,
//! an 8-bit stencil value, a 16-bit subresource index), a context, command list or bundle named
//! after its `release`.
//!
//! **Invariant:** the numbering the calls make happens here, in trace order: a command list is
//! numbered by the `finish` that declares it, a fence and a device context state object by
//! their first use, every write_discard `map` gets the next instance number K of its resource
//! (docs/TRACE.md "Instances"); a `set_fast_resources_into_batch` line whose slots fit adds its
//! entries to its batch, which a later `set_fast_resources_from_batch` carries (R-FX-1).

use recorder::{Rect, Viewport};

use super::super::convert::*;
use super::super::program::*;
use super::Lowering;
use crate::syntax::ast::{Barrier, CallContext, FastEntry, Flags, LegacyBarrier, Method, Remap};
use crate::syntax::name::Name;

impl Lowering {
    /// A call line: its context and its method lowered, one step.
    pub(super) fn call(&mut self, call: &crate::syntax::ast::Call) -> Converted<()> {
        let on = match &call.context {
            CallContext::Immediate => On::Immediate,
            CallContext::Deferred(name) => On::Deferred(self.id(name)?),
            CallContext::BundleRecorder(name) => On::BundleRecorder(self.id(name)?),
        };
        let call = self.method(&call.method)?;
        self.push(Op::Call { on, call });
        Ok(())
    }

    /// One call's method in the engine's types.
    ///
    /// This match stays whole: it is one arm per call of the trace vocabulary, checked
    /// exhaustive by the compiler, each arm only the call's arguments converted; the next step
    /// generates these pieces from one call table.
    fn method(&mut self, method: &Method) -> Converted<Call> {
        let slot = |n: u64| fit_u32(n, "START");
        Ok(match method {
            Method::SetInputLayout(layout) => Call::SetInputLayout(self.opt(layout)?),
            Method::SetPrimitiveTopology(t) => Call::SetPrimitiveTopology(*t),
            Method::SetVertexBuffers { start, buffers } => Call::SetVertexBuffers {
                start: slot(*start)?,
                buffers: self.ids(buffers)?,
            },
            Method::SetIndexBuffer {
                buffer,
                format: f,
                offset,
            } => Call::SetIndexBuffer {
                buffer: self.opt(buffer)?,
                format: format(f)?,
                offset: fit_u32(offset.unwrap_or(0), "OFFSET")?,
            },
            Method::SetPrimitiveResetIndex(value) => {
                Call::SetPrimitiveResetIndex(fit_u32(*value, "VALUE")?)
            }
            Method::SetShader { stage: s, shader } => Call::SetShader {
                stage: *s,
                shader: self.opt(shader)?,
            },
            Method::SetConstantBuffers {
                stage: s,
                start,
                buffers,
            } => Call::SetConstantBuffers {
                stage: *s,
                start: slot(*start)?,
                buffers: self.ids(buffers)?,
            },
            Method::SetShaderResources {
                stage: s,
                start,
                views,
            } => Call::SetShaderResources {
                stage: *s,
                start: slot(*start)?,
                views: self.ids(views)?,
            },
            Method::SetSamplers {
                stage: s,
                start,
                samplers,
            } => Call::SetSamplers {
                stage: *s,
                start: slot(*start)?,
                samplers: self.ids(samplers)?,
            },
            Method::SetFastResources(entries) => {
                Call::SetFastResources(self.fast_entries(entries)?)
            }
            Method::SetFastResourcesIntoBatch { batch, entries } => {
                let entries = self.fast_entries(entries)?;
                // A line with a slot past its kind's slots is refused and adds nothing; any
                // other refusal shows when the batch is applied (TRACE.md).
                if entries.iter().all(fast_slot_in_range) {
                    self.batches
                        .entry(batch.as_str().to_owned())
                        .or_default()
                        .extend(entries.iter().cloned());
                }
                Call::SetFastResourcesIntoBatch {
                    batch: batch.clone(),
                    entries,
                }
            }
            Method::SetFastResourcesFromBatch { batch, .. } => Call::SetFastResourcesFromBatch {
                batch: batch.clone(),
                entries: self
                    .batches
                    .get(batch.as_str())
                    .cloned()
                    .unwrap_or_default(),
            },
            Method::SetFastShaderResource {
                stage: s,
                slot: n,
                view,
            } => Call::SetFastShaderResource {
                stage: *s,
                slot: fit_u32(*n, "SLOT")?,
                view: self.opt(view)?,
            },
            Method::SetPlacementShaderResource {
                stage: s,
                slot: n,
                view,
                address,
            } => Call::SetPlacementShaderResource {
                stage: *s,
                slot: fit_u32(*n, "SLOT")?,
                view: self.id(view)?,
                address: *address,
            },
            Method::SetPlacementConstantBuffer {
                stage: s,
                slot: n,
                buffer,
                address,
            } => Call::SetPlacementConstantBuffer {
                stage: *s,
                slot: fit_u32(*n, "SLOT")?,
                buffer: self.id(buffer)?,
                address: *address,
            },
            Method::SetPlacementVertexBuffer {
                slot: n,
                buffer,
                address,
            } => Call::SetPlacementVertexBuffer {
                slot: fit_u32(*n, "SLOT")?,
                buffer: self.id(buffer)?,
                address: *address,
            },
            Method::IaSetPlacementIndexBuffer {
                buffer,
                address,
                format: f,
            } => Call::IaSetPlacementIndexBuffer {
                buffer: self.id(buffer)?,
                address: *address,
                format: format(f)?,
            },
            Method::CsSetUnorderedAccessViews { start, views } => Call::CsSetUnorderedAccessViews {
                start: slot(*start)?,
                views: self.ids(views)?,
            },
            Method::OmSetRenderTargets {
                render_targets,
                depth_stencil,
            } => Call::OmSetRenderTargets {
                render_targets: self.ids(render_targets)?,
                depth_stencil: self.opt(depth_stencil)?,
            },
            Method::OmSetRenderTargetsAndUavs {
                render_targets,
                depth_stencil,
                start,
                views,
            } => Call::OmSetRenderTargetsAndUavs {
                render_targets: self.ids(render_targets)?,
                depth_stencil: self.opt(depth_stencil)?,
                start: slot(*start)?,
                views: self.ids(views)?,
            },
            Method::OmSetBlendState(state) => Call::OmSetBlendState(self.opt(state)?),
            Method::OmSetDepthStencilState(state) => Call::OmSetDepthStencilState(self.opt(state)?),
            Method::RsSetState(state) => Call::RsSetState(self.opt(state)?),
            Method::RsSetViewports(viewports) => Call::RsSetViewports(
                viewports
                    .iter()
                    .map(|v| Viewport::new(v.x, v.y, v.width, v.height))
                    .collect(),
            ),
            Method::RsSetScissorRects(rects) => Call::RsSetScissorRects(
                rects
                    .iter()
                    .map(|r| {
                        Ok(Rect {
                            left: fit_i32(r.left, "L")?,
                            top: fit_i32(r.top, "T")?,
                            right: fit_i32(r.right, "R")?,
                            bottom: fit_i32(r.bottom, "B")?,
                        })
                    })
                    .collect::<Converted<_>>()?,
            ),
            Method::Draw {
                vertex_count,
                start_vertex,
            } => Call::Draw {
                vertex_count: fit_u32(*vertex_count, "VERTEX_COUNT")?,
                start_vertex: fit_u32(*start_vertex, "START_VERTEX")?,
            },
            Method::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            } => Call::DrawIndexed {
                index_count: fit_u32(*index_count, "INDEX_COUNT")?,
                start_index: fit_u32(*start_index, "START_INDEX")?,
                base_vertex: fit_i32(*base_vertex, "BASE_VERTEX")?,
            },
            Method::DrawInstanced {
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
            } => Call::DrawInstanced {
                vertex_count: fit_u32(*vertex_count, "VERTEX_COUNT")?,
                instance_count: fit_u32(*instance_count, "INSTANCE_COUNT")?,
                start_vertex: fit_u32(*start_vertex, "START_VERTEX")?,
                start_instance: fit_u32(*start_instance, "START_INSTANCE")?,
            },
            Method::DrawIndexedInstanced {
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            } => Call::DrawIndexedInstanced {
                index_count: fit_u32(*index_count, "INDEX_COUNT")?,
                instance_count: fit_u32(*instance_count, "INSTANCE_COUNT")?,
                start_index: fit_u32(*start_index, "START_INDEX")?,
                base_vertex: fit_i32(*base_vertex, "BASE_VERTEX")?,
                start_instance: fit_u32(*start_instance, "START_INSTANCE")?,
            },
            Method::DrawAuto => Call::DrawAuto,
            Method::DrawInstancedIndirect { buffer, offset } => Call::DrawInstancedIndirect {
                buffer: self.id(buffer)?,
                offset: fit_u32(*offset, "OFFSET")?,
            },
            Method::DrawIndexedInstancedIndirect { buffer, offset } => {
                Call::DrawIndexedInstancedIndirect {
                    buffer: self.id(buffer)?,
                    offset: fit_u32(*offset, "OFFSET")?,
                }
            }
            Method::Dispatch { x, y, z } => Call::Dispatch {
                x: fit_u32(*x, "X")?,
                y: fit_u32(*y, "Y")?,
                z: fit_u32(*z, "Z")?,
            },
            Method::DispatchIndirect { buffer, offset } => Call::DispatchIndirect {
                buffer: self.id(buffer)?,
                offset: fit_u32(*offset, "OFFSET")?,
            },
            Method::ClearRenderTargetView { view, color } => Call::ClearRenderTargetView {
                view: self.id(view)?,
                color: *color,
            },
            Method::ClearDepthStencilView {
                view,
                depth,
                stencil,
            } => Call::ClearDepthStencilView {
                view: self.id(view)?,
                depth: *depth,
                stencil: u8::try_from(*stencil).map_err(|_| {
                    format!("STENCIL {stencil} does not fit the engine's 8-bit argument")
                })?,
            },
            Method::CopyResource {
                destination,
                source,
            } => Call::CopyResource {
                destination: self.id(destination)?,
                source: self.id(source)?,
            },
            Method::CopyBufferRegion {
                destination,
                destination_offset,
                source,
                source_offset,
                bytes,
            } => Call::CopyBufferRegion {
                destination: self.id(destination)?,
                destination_offset: fit_u32(*destination_offset, "DST_OFFSET")?,
                source: self.id(source)?,
                source_offset: fit_u32(*source_offset, "SRC_OFFSET")?,
                bytes: fit_u32(*bytes, "BYTES")?,
            },
            Method::CopyTextureRegion {
                destination,
                destination_subresource,
                at: [x, y],
                source,
                source_subresource,
                source_box: [l, t, r, b],
            } => Call::CopyTextureRegion {
                destination: self.id(destination)?,
                destination_subresource: fit_u32(*destination_subresource, "DST_SUBRESOURCE")?,
                at: [fit_u32(*x, "X")?, fit_u32(*y, "Y")?],
                source: self.id(source)?,
                source_subresource: fit_u32(*source_subresource, "SRC_SUBRESOURCE")?,
                source_box: [
                    fit_u32(*l, "L")?,
                    fit_u32(*t, "T")?,
                    fit_u32(*r, "R")?,
                    fit_u32(*b, "B")?,
                ],
            },
            Method::UpdateSubresource { resource } => Call::UpdateSubresource {
                resource: self.id(resource)?,
            },
            Method::CopyStructureCount {
                destination,
                offset,
                view,
            } => Call::CopyStructureCount {
                destination: self.id(destination)?,
                offset: fit_u32(*offset, "OFFSET")?,
                view: self.id(view)?,
            },
            Method::Map {
                resource,
                map_type: m,
                allow_usage_default,
                instance: (),
                writes: (),
            } => {
                let resource = self.id(resource)?;
                let instance = (*m == recorder::MapType::WriteDiscard).then(|| {
                    let k = self.instances.entry(resource).or_insert(0);
                    *k += 1;
                    *k
                });
                Call::Map {
                    resource,
                    map_type: *m,
                    allow_usage_default: *allow_usage_default,
                    instance,
                    writes: Default::default(),
                }
            }
            Method::Write {
                resource,
                offset,
                bytes,
            } => Call::Write {
                resource: self.id(resource)?,
                offset: fit_u32(*offset, "OFFSET")?,
                bytes: bytes.clone(),
            },
            Method::Unmap { resource } => Call::Unmap {
                resource: self.id(resource)?,
            },
            Method::SetPredication { predicate, value } => Call::SetPredication {
                predicate: self.opt(predicate)?,
                value: *value,
            },
            Method::Begin { query } => Call::Begin {
                query: self.id(query)?,
            },
            Method::End { query } => Call::End {
                query: self.id(query)?,
            },
            Method::WriteQuery { query } => Call::WriteQuery {
                query: self.id(query)?,
            },
            Method::ResetQuery { query } => Call::ResetQuery {
                query: self.id(query)?,
            },
            Method::ConfigureQuery { query, mode } => Call::ConfigureQuery {
                query: self.id(query)?,
                mode: *mode,
            },
            Method::SetPredicationFromQuery { query, value } => Call::SetPredicationFromQuery {
                query: self.opt(query)?,
                value: *value,
            },
            Method::ClearState => Call::ClearState,
            Method::CreateDeviceContextState { state } => Call::CreateDeviceContextState {
                state: match self.ids.get(state.as_str()) {
                    Some(&id) => id,
                    None => self.add(state.as_str(), ObjKind::ContextState, false),
                },
            },
            Method::SwapDeviceContextState { state } => Call::SwapDeviceContextState {
                state: self.id(state)?,
            },
            Method::DecompressResource { resource, into } => Call::DecompressResource {
                resource: self.id(resource)?,
                into: self.opt(into)?,
            },
            Method::SetResourceCompression {
                resource,
                compression,
            } => Call::SetResourceCompression {
                resource: self.id(resource)?,
                compression: *compression,
            },
            Method::SetResourceMinLod { resource, min_lod } => Call::SetResourceMinLod {
                resource: self.id(resource)?,
                min_lod: *min_lod,
            },
            Method::SetShaderResourceViewMinLod { view, min_lod } => {
                Call::SetShaderResourceViewMinLod {
                    view: self.id(view)?,
                    min_lod: *min_lod,
                }
            }
            Method::InsertWaitOnPresent { swapchain } => Call::InsertWaitOnPresent {
                swapchain: self.id(swapchain)?,
            },
            Method::InsertFence {
                fence,
                engine: e,
                kick_off,
            } => Call::InsertFence {
                fence: self.fence(fence),
                engine: e.unwrap_or_default(),
                kick_off: *kick_off,
            },
            Method::InsertWaitOnFence { fence, engine: e } => Call::InsertWaitOnFence {
                fence: self.fence(fence),
                engine: e.unwrap_or_default(),
            },
            Method::SetGdsRange {
                stage: s,
                offset,
                size,
            } => Call::SetGdsRange {
                stage: *s,
                offset: fit_u32(*offset, "OFFSET")?,
                size: fit_u32(*size, "SIZE")?,
            },
            Method::WriteGds { offset, values } => Call::WriteGds {
                offset: fit_u32(*offset, "OFFSET")?,
                values: words(values)?,
            },
            Method::ReadGds {
                offset,
                count,
                destination,
                destination_offset,
            } => Call::ReadGds {
                offset: fit_u32(*offset, "OFFSET")?,
                count: fit_u32(*count, "COUNT")?,
                destination: self.id(destination)?,
                destination_offset: fit_u32(*destination_offset, "BUF_OFFSET")?,
            },
            Method::LoadConstantRam {
                buffer,
                buffer_offset,
                ram_offset,
                bytes,
            } => Call::LoadConstantRam {
                buffer: self.id(buffer)?,
                buffer_offset: fit_u32(*buffer_offset, "BUF_OFFSET")?,
                ram_offset: fit_u32(*ram_offset, "RAM_OFFSET")?,
                bytes: fit_u32(*bytes, "BYTES")?,
            },
            Method::StoreConstantRam {
                buffer,
                buffer_offset,
                ram_offset,
                bytes,
            } => Call::StoreConstantRam {
                buffer: self.id(buffer)?,
                buffer_offset: fit_u32(*buffer_offset, "BUF_OFFSET")?,
                ram_offset: fit_u32(*ram_offset, "RAM_OFFSET")?,
                bytes: fit_u32(*bytes, "BYTES")?,
            },
            Method::DrawBundle { bundle } => Call::DrawBundle {
                bundle: self.id(bundle)?,
            },
            Method::RemapConstantBufferInheritance(r) => {
                Call::RemapConstantBufferInheritance(remap(r)?)
            }
            Method::RemapShaderResourceInheritance(r) => {
                Call::RemapShaderResourceInheritance(remap(r)?)
            }
            Method::RemapSamplerInheritance(r) => Call::RemapSamplerInheritance(remap(r)?),
            Method::RemapVertexBufferInheritance { slot, inherit_slot } => {
                Call::RemapVertexBufferInheritance {
                    slot: fit_u32(*slot, "SLOT")?,
                    inherit_slot: fit_u32(*inherit_slot, "INHERIT_SLOT")?,
                }
            }
            Method::FinishCommandList { list, restore } => Call::FinishCommandList {
                list: self.add(list.as_str(), ObjKind::CommandList, false),
                restore: restore.unwrap_or(false),
            },
            Method::FinishBundle => Call::FinishBundle,
            Method::Execute { list, restore } => Call::Execute {
                list: self.id(list)?,
                restore: restore.unwrap_or(false),
            },
            Method::BeginCommandListExecution => Call::BeginCommandListExecution,
            Method::EndCommandListExecution => Call::EndCommandListExecution,
            Method::Present { swapchain } => Call::Present {
                swapchain: self.id(swapchain)?,
            },
            Method::Resume => Call::Resume,
            Method::Barrier(barriers) => Call::Barrier(
                barriers
                    .iter()
                    .map(|barrier| self.barrier(barrier))
                    .collect::<Converted<_>>()?,
            ),
            Method::ResourceBarrier(barrier) => Call::ResourceBarrier(match barrier {
                LegacyBarrier::Transition {
                    resource,
                    before,
                    after,
                    subresource,
                    split,
                } => LegacyBarrier::Transition {
                    resource: self.id(resource)?,
                    before: before.value(),
                    after: after.value(),
                    subresource: subresource
                        .map(|n| fit_u32(n, "subresource="))
                        .transpose()?,
                    split: *split,
                },
                LegacyBarrier::Uav { resource } => LegacyBarrier::Uav {
                    resource: self.opt(resource)?,
                },
                LegacyBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
                    before: self.opt(before)?,
                    after: self.opt(after)?,
                },
            }),
        })
    }

    /// One BARRIER of `barrier`.
    fn barrier(&mut self, barrier: &Barrier) -> Converted<Barrier<Lowered>> {
        Ok(match barrier {
            Barrier::Global { sync: s, access: a } => Barrier::Global {
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
            },
            Barrier::Buffer {
                resource,
                sync: s,
                access: a,
                size,
            } => Barrier::Buffer {
                resource: self.id(resource)?,
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
                size: *size,
            },
            Barrier::Texture {
                resource,
                sync: s,
                access: a,
                layout,
                mips,
                array,
                planes,
                discard,
            } => Barrier::Texture {
                resource: self.id(resource)?,
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
                layout: layout.map(|word| word.value()),
                mips: span(mips, "mips=")?,
                array: span(array, "array=")?,
                planes: span(planes, "planes=")?,
                discard: *discard,
            },
        })
    }

    /// A fence, numbered by its first use.
    fn fence(&mut self, name: &Name) -> ObjId {
        match self.ids.get(name.as_str()) {
            Some(&id) => id,
            None => self.add(name.as_str(), ObjKind::Fence, false),
        }
    }

    /// `set_fast_resources` entries, lowered (R-FX-1).
    fn fast_entries(&mut self, entries: &[FastEntry]) -> Converted<Vec<FastEntry<Lowered>>> {
        let mut lowered = Vec::with_capacity(entries.len());
        for e in entries {
            lowered.push(FastEntry {
                kind: e.kind,
                stage: e.stage,
                slot: fit_u32(e.slot, "SLOT")?,
                object: self.opt(&e.object)?,
            });
        }
        Ok(lowered)
    }
}

/// The arguments of a staged `remap_*_inheritance` call.
fn remap(remap: &Remap) -> Converted<Remap<Lowered>> {
    Ok(Remap {
        stage: remap.stage,
        slot: fit_u32(remap.slot, "SLOT")?,
        inherit_stage: remap.inherit_stage,
        inherit_slot: fit_u32(remap.inherit_slot, "INHERIT_SLOT")?,
    })
}

/// Whether an entry's slot is within its kind's slots (R-FX-1).
fn fast_slot_in_range(entry: &FastEntry<Lowered>) -> bool {
    use crate::syntax::ast::FastKind;
    use recorder::limits::*;
    let limit = match entry.kind {
        FastKind::ConstantBuffer => CONSTANT_BUFFER_SLOTS,
        FastKind::ShaderResource => SHADER_RESOURCE_SLOTS,
        FastKind::Sampler => SAMPLER_SLOTS,
        FastKind::VertexBuffer => VERTEX_BUFFER_SLOTS,
    };
    entry.slot < limit
}
