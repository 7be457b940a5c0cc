//! The capture's deferred context and bundle recorder (R-CAP-1, R-CAP-5), and the one macro
//! that writes every shared call of the three captured contexts (the immediate one is in
//! `immediate.rs`): ask the tap, keep the call when it says so, forward it.
//!
//! **In:** the application's calls. **Out:** the engine's own behaviour, unchanged (every call
//! reaches the wrapped context exactly as made, refused calls included: the replay refuses
//! them the same way), and the tap's entries; at `finish`, a list carrying its calls
//! ([`CommandList::attach`]) or a bundle whose recording the capture keeps under its handle.

use std::sync::Arc;

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use recorder::{
    BarrierGroup, BufferBarrier, CommandList, DeferredContext, DeviceContext, Error, Handle,
    ListStats, MapFlags, MapType, Mapped, ObjectKind, RecordError, Resource, ResourceBarrier,
    RestoreState,
};

use super::form::{Call, Captured, Obj};
use super::log::{resource_obj, state_calls, BundleLog, ContextInfo, ListLog, Tap};
use super::Shared;
use crate::syntax::ast::{Barrier, BeforeAfter, FastEntry, FastKind, LegacyBarrier, Method, Remap};

pub(crate) fn fit(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

pub(crate) fn objs<H: Handle>(kind: ObjectKind, handles: &[Option<H>]) -> Vec<Option<Obj>> {
    handles
        .iter()
        .map(|h| h.map(|h| Obj::of(kind, h)))
        .collect()
}

/// `set_fast_resources` entries as the trace's (R-FX-1; a vertex buffer's stride and offset are
/// not written, as `set_vertex_buffers` writes none).
pub(crate) fn fast_entries(entries: &[recorder::FastResource]) -> Vec<FastEntry<Captured>> {
    use recorder::FastResource as F;
    entries
        .iter()
        .map(|entry| match *entry {
            F::ConstantBuffer {
                stage,
                slot,
                buffer,
            } => FastEntry {
                kind: FastKind::ConstantBuffer,
                stage: Some(stage),
                slot,
                object: buffer.map(|b| Obj::of(ObjectKind::Buffer, b)),
            },
            F::ShaderResource { stage, slot, view } => FastEntry {
                kind: FastKind::ShaderResource,
                stage: Some(stage),
                slot,
                object: view.map(|v| Obj::of(ObjectKind::ShaderResourceView, v)),
            },
            F::Sampler {
                stage,
                slot,
                sampler,
            } => FastEntry {
                kind: FastKind::Sampler,
                stage: Some(stage),
                slot,
                object: sampler.map(|s| Obj::of(ObjectKind::SamplerState, s)),
            },
            F::VertexBuffer { slot, buffer } => FastEntry {
                kind: FastKind::VertexBuffer,
                stage: None,
                slot,
                object: buffer.buffer.map(|b| Obj::of(ObjectKind::Buffer, b)),
            },
        })
        .collect()
}

/// A `barrier` call's groups as the trace's barriers.
pub(crate) fn barriers(groups: &[BarrierGroup<'_>]) -> Vec<Barrier<Captured>> {
    let mut out = Vec::new();
    for group in groups {
        match group {
            BarrierGroup::Global(all) => out.extend(all.iter().map(|b| Barrier::Global {
                sync: BeforeAfter {
                    before: b.sync_before,
                    after: b.sync_after,
                },
                access: BeforeAfter {
                    before: b.access_before,
                    after: b.access_after,
                },
            })),
            BarrierGroup::Buffer(all) => out.extend(all.iter().map(|b| Barrier::Buffer {
                resource: resource_obj(b.resource),
                sync: BeforeAfter {
                    before: b.sync_before,
                    after: b.sync_after,
                },
                access: BeforeAfter {
                    before: b.access_before,
                    after: b.access_after,
                },
                size: (b.size != BufferBarrier::WHOLE).then_some(b.size),
            })),
            BarrierGroup::Texture(all) => out.extend(all.iter().map(|b| Barrier::Texture {
                resource: resource_obj(b.resource),
                sync: BeforeAfter {
                    before: b.sync_before,
                    after: b.sync_after,
                },
                access: BeforeAfter {
                    before: b.access_before,
                    after: b.access_after,
                },
                layout: BeforeAfter {
                    before: b.layout_before,
                    after: b.layout_after,
                },
                mips: b.subresources.mips,
                array: b.subresources.array,
                planes: b.subresources.planes,
                discard: b.discard,
            })),
        }
    }
    out
}

/// A legacy `resource_barrier` as the trace's statement.
pub(crate) fn legacy_barrier(barrier: &ResourceBarrier) -> LegacyBarrier<Captured> {
    match *barrier {
        ResourceBarrier::Transition {
            resource,
            before,
            after,
            subresource,
            split,
        } => LegacyBarrier::Transition {
            resource: resource_obj(resource),
            before,
            after,
            subresource,
            split: Some(split),
        },
        ResourceBarrier::Uav { resource } => LegacyBarrier::Uav {
            resource: resource.map(resource_obj),
        },
        ResourceBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
            before: before.map(resource_obj),
            after: after.map(resource_obj),
        },
    }
}

/// Every [`DeviceContext`] call but `map`, `unmap`, `stats`, `error` and `last_refusal`, for a
/// wrapper with a `tap_active(&mut self) -> bool` method, a `tap: Tap` field and the wrapped
/// context at `$inner`: keep the call when the tap is on, then forward it.
macro_rules! captured_calls {
    (|$this:ident| $inner:expr) => {
        #[inline]
        fn set_input_layout(&mut self, layout: Option<recorder::InputLayout>) {
            if self.tap_active() {
                self.tap.keep(move || {
                    Method::SetInputLayout(layout.map(|l| Obj::of(ObjectKind::InputLayout, l)))
                });
            }
            let $this = self;
            DeviceContext::set_input_layout(&mut $inner, layout)
        }
        #[inline]
        fn set_primitive_topology(&mut self, topology: recorder::PrimitiveTopology) {
            if self.tap_active() {
                self.tap
                    .keep(move || Method::SetPrimitiveTopology(topology));
            }
            let $this = self;
            DeviceContext::set_primitive_topology(&mut $inner, topology)
        }
        #[inline]
        fn set_vertex_buffers(&mut self, start: u32, buffers: &[recorder::VertexBuffer]) {
            if !buffers.is_empty() && self.tap_active() {
                self.tap.keep(move || Method::SetVertexBuffers {
                    start,
                    buffers: buffers
                        .iter()
                        .map(|b| b.buffer.map(|b| Obj::of(ObjectKind::Buffer, b)))
                        .collect(),
                });
            }
            let $this = self;
            DeviceContext::set_vertex_buffers(&mut $inner, start, buffers)
        }
        #[inline]
        fn set_index_buffer(
            &mut self,
            buffer: Option<recorder::Buffer>,
            format: recorder::Format,
            offset: u32,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetIndexBuffer {
                    buffer: buffer.map(|b| Obj::of(ObjectKind::Buffer, b)),
                    format,
                    offset,
                });
            }
            let $this = self;
            DeviceContext::set_index_buffer(&mut $inner, buffer, format, offset)
        }
        #[inline]
        fn set_primitive_reset_index(&mut self, value: u32) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetPrimitiveResetIndex(value));
            }
            let $this = self;
            DeviceContext::set_primitive_reset_index(&mut $inner, value)
        }
        #[inline]
        fn set_shader(&mut self, stage: recorder::Stage, shader: Option<recorder::Shader>) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetShader {
                    stage,
                    shader: shader.map(|s| Obj::of(ObjectKind::Shader, s)),
                });
            }
            let $this = self;
            DeviceContext::set_shader(&mut $inner, stage, shader)
        }
        #[inline]
        fn set_constant_buffers(
            &mut self,
            stage: recorder::Stage,
            start: u32,
            buffers: &[Option<recorder::Buffer>],
        ) {
            if !buffers.is_empty() && self.tap_active() {
                self.tap.keep(move || Method::SetConstantBuffers {
                    stage,
                    start,
                    buffers: objs(ObjectKind::Buffer, buffers),
                });
            }
            let $this = self;
            DeviceContext::set_constant_buffers(&mut $inner, stage, start, buffers)
        }
        #[inline]
        fn set_shader_resources(
            &mut self,
            stage: recorder::Stage,
            start: u32,
            views: &[Option<recorder::ShaderResourceView>],
        ) {
            if !views.is_empty() && self.tap_active() {
                self.tap.keep(move || Method::SetShaderResources {
                    stage,
                    start,
                    views: objs(ObjectKind::ShaderResourceView, views),
                });
            }
            let $this = self;
            DeviceContext::set_shader_resources(&mut $inner, stage, start, views)
        }
        #[inline]
        fn set_samplers(
            &mut self,
            stage: recorder::Stage,
            start: u32,
            samplers: &[Option<recorder::SamplerState>],
        ) {
            if !samplers.is_empty() && self.tap_active() {
                self.tap.keep(move || Method::SetSamplers {
                    stage,
                    start,
                    samplers: objs(ObjectKind::SamplerState, samplers),
                });
            }
            let $this = self;
            DeviceContext::set_samplers(&mut $inner, stage, start, samplers)
        }
        #[inline]
        fn set_fast_resources(&mut self, entries: &[recorder::FastResource]) {
            if !entries.is_empty() && self.tap_active() {
                self.tap
                    .keep(move || Method::SetFastResources(fast_entries(entries)));
            }
            let $this = self;
            DeviceContext::set_fast_resources(&mut $inner, entries)
        }
        #[inline]
        fn set_fast_resources_into_batch(
            &mut self,
            batch: &mut recorder::FastResourceBatch,
            entries: &[recorder::FastResource],
        ) {
            // Records nothing: the batch's entries are written where it is applied.
            let $this = self;
            DeviceContext::set_fast_resources_into_batch(&mut $inner, batch, entries)
        }
        #[inline]
        fn set_fast_resources_from_batch(&mut self, batch: &recorder::FastResourceBatch) {
            // Written as the `set_fast_resources` of the batch's entries, which it is (R-FX-1).
            if !batch.is_empty() && self.tap_active() {
                self.tap
                    .keep(move || Method::SetFastResources(fast_entries(batch.entries())));
            }
            let $this = self;
            DeviceContext::set_fast_resources_from_batch(&mut $inner, batch)
        }
        #[inline]
        fn set_fast_shader_resource(
            &mut self,
            stage: recorder::Stage,
            slot: u32,
            view: Option<recorder::ShaderResourceView>,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetFastShaderResource {
                    stage,
                    slot,
                    view: view.map(|v| Obj::of(ObjectKind::ShaderResourceView, v)),
                });
            }
            let $this = self;
            DeviceContext::set_fast_shader_resource(&mut $inner, stage, slot, view)
        }
        #[inline]
        fn set_placement_shader_resource(
            &mut self,
            stage: recorder::Stage,
            slot: u32,
            view: recorder::ShaderResourceView,
            address: u64,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetPlacementShaderResource {
                    stage,
                    slot,
                    view: Obj::of(ObjectKind::ShaderResourceView, view),
                    address,
                });
            }
            let $this = self;
            DeviceContext::set_placement_shader_resource(&mut $inner, stage, slot, view, address)
        }
        #[inline]
        fn set_placement_constant_buffer(
            &mut self,
            stage: recorder::Stage,
            slot: u32,
            buffer: recorder::Buffer,
            address: u64,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetPlacementConstantBuffer {
                    stage,
                    slot,
                    buffer: Obj::of(ObjectKind::Buffer, buffer),
                    address,
                });
            }
            let $this = self;
            DeviceContext::set_placement_constant_buffer(&mut $inner, stage, slot, buffer, address)
        }
        #[inline]
        fn set_placement_vertex_buffer(
            &mut self,
            slot: u32,
            buffer: recorder::Buffer,
            stride: u32,
            offset: u32,
            address: u64,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetPlacementVertexBuffer {
                    slot,
                    buffer: Obj::of(ObjectKind::Buffer, buffer),
                    address,
                });
            }
            let $this = self;
            DeviceContext::set_placement_vertex_buffer(
                &mut $inner,
                slot,
                buffer,
                stride,
                offset,
                address,
            )
        }
        #[inline]
        fn set_placement_index_buffer(
            &mut self,
            buffer: recorder::Buffer,
            address: u64,
            format: recorder::Format,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::IaSetPlacementIndexBuffer {
                    buffer: Obj::of(ObjectKind::Buffer, buffer),
                    address,
                    format,
                });
            }
            let $this = self;
            DeviceContext::set_placement_index_buffer(&mut $inner, buffer, address, format)
        }
        #[inline]
        fn set_compute_unordered_access_views(
            &mut self,
            start: u32,
            views: &[Option<recorder::UnorderedAccessView>],
        ) {
            if !views.is_empty() && self.tap_active() {
                self.tap.keep(move || Method::CsSetUnorderedAccessViews {
                    start,
                    views: objs(ObjectKind::UnorderedAccessView, views),
                });
            }
            let $this = self;
            DeviceContext::set_compute_unordered_access_views(&mut $inner, start, views)
        }
        #[inline]
        fn set_render_targets(
            &mut self,
            targets: &[Option<recorder::RenderTargetView>],
            depth_stencil: Option<recorder::DepthStencilView>,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::OmSetRenderTargets {
                    render_targets: objs(ObjectKind::RenderTargetView, targets),
                    depth_stencil: depth_stencil.map(|d| Obj::of(ObjectKind::DepthStencilView, d)),
                });
            }
            let $this = self;
            DeviceContext::set_render_targets(&mut $inner, targets, depth_stencil)
        }
        #[inline]
        fn set_render_targets_and_unordered_access_views(
            &mut self,
            targets: &[Option<recorder::RenderTargetView>],
            depth_stencil: Option<recorder::DepthStencilView>,
            start: u32,
            views: &[Option<recorder::UnorderedAccessView>],
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::OmSetRenderTargetsAndUavs {
                    render_targets: objs(ObjectKind::RenderTargetView, targets),
                    depth_stencil: depth_stencil.map(|d| Obj::of(ObjectKind::DepthStencilView, d)),
                    start,
                    views: objs(ObjectKind::UnorderedAccessView, views),
                });
            }
            let $this = self;
            DeviceContext::set_render_targets_and_unordered_access_views(
                &mut $inner,
                targets,
                depth_stencil,
                start,
                views,
            )
        }
        #[inline]
        fn set_blend_state(
            &mut self,
            state: Option<recorder::BlendState>,
            factor: [f32; 4],
            sample_mask: u32,
        ) {
            if self.tap_active() {
                self.tap.keep(move || {
                    Method::OmSetBlendState(state.map(|s| Obj::of(ObjectKind::BlendState, s)))
                });
            }
            let $this = self;
            DeviceContext::set_blend_state(&mut $inner, state, factor, sample_mask)
        }
        #[inline]
        fn set_depth_stencil_state(
            &mut self,
            state: Option<recorder::DepthStencilState>,
            stencil_ref: u32,
        ) {
            if self.tap_active() {
                self.tap.keep(move || {
                    Method::OmSetDepthStencilState(
                        state.map(|s| Obj::of(ObjectKind::DepthStencilState, s)),
                    )
                });
            }
            let $this = self;
            DeviceContext::set_depth_stencil_state(&mut $inner, state, stencil_ref)
        }
        #[inline]
        fn set_rasterizer_state(&mut self, state: Option<recorder::RasterizerState>) {
            if self.tap_active() {
                self.tap.keep(move || {
                    Method::RsSetState(state.map(|s| Obj::of(ObjectKind::RasterizerState, s)))
                });
            }
            let $this = self;
            DeviceContext::set_rasterizer_state(&mut $inner, state)
        }
        #[inline]
        fn set_viewports(&mut self, viewports: &[recorder::Viewport]) {
            if self.tap_active() {
                self.tap
                    .keep(move || Method::RsSetViewports(viewports.to_vec()));
            }
            let $this = self;
            DeviceContext::set_viewports(&mut $inner, viewports)
        }
        #[inline]
        fn set_scissor_rects(&mut self, rects: &[recorder::Rect]) {
            if self.tap_active() {
                self.tap
                    .keep(move || Method::RsSetScissorRects(rects.to_vec()));
            }
            let $this = self;
            DeviceContext::set_scissor_rects(&mut $inner, rects)
        }
        #[inline]
        fn set_predication(
            &mut self,
            predicate: Option<recorder::Query>,
            value: recorder::PredicateValue,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetPredication {
                    predicate: predicate.map(|p| Obj::of(ObjectKind::Query, p)),
                    value: value.as_bool(),
                });
            }
            let $this = self;
            DeviceContext::set_predication(&mut $inner, predicate, value)
        }
        #[inline]
        fn clear_state(&mut self) {
            if self.tap_active() {
                self.tap.keep(move || Method::ClearState);
            }
            let $this = self;
            DeviceContext::clear_state(&mut $inner)
        }
        #[inline]
        fn draw(&mut self, vertex_count: u32, start_vertex: u32) {
            if self.tap_active() {
                self.tap.keep(move || Method::Draw {
                    vertex_count,
                    start_vertex,
                });
            }
            let $this = self;
            DeviceContext::draw(&mut $inner, vertex_count, start_vertex)
        }
        #[inline]
        fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) {
            if self.tap_active() {
                self.tap.keep(move || Method::DrawIndexed {
                    index_count,
                    start_index,
                    base_vertex,
                });
            }
            let $this = self;
            DeviceContext::draw_indexed(&mut $inner, index_count, start_index, base_vertex)
        }
        #[inline]
        fn draw_instanced(
            &mut self,
            vertex_count: u32,
            instance_count: u32,
            start_vertex: u32,
            start_instance: u32,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::DrawInstanced {
                    vertex_count,
                    instance_count,
                    start_vertex,
                    start_instance,
                });
            }
            let $this = self;
            DeviceContext::draw_instanced(
                &mut $inner,
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
            )
        }
        #[inline]
        fn draw_indexed_instanced(
            &mut self,
            index_count: u32,
            instance_count: u32,
            start_index: u32,
            base_vertex: i32,
            start_instance: u32,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::DrawIndexedInstanced {
                    index_count,
                    instance_count,
                    start_index,
                    base_vertex,
                    start_instance,
                });
            }
            let $this = self;
            DeviceContext::draw_indexed_instanced(
                &mut $inner,
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            )
        }
        #[inline]
        fn draw_auto(&mut self) {
            if self.tap_active() {
                self.tap.keep(move || Method::DrawAuto);
            }
            let $this = self;
            DeviceContext::draw_auto(&mut $inner)
        }
        #[inline]
        fn draw_instanced_indirect(&mut self, args: recorder::Buffer, offset: u32) {
            if self.tap_active() {
                self.tap.keep(move || Method::DrawInstancedIndirect {
                    buffer: Obj::of(ObjectKind::Buffer, args),
                    offset,
                });
            }
            let $this = self;
            DeviceContext::draw_instanced_indirect(&mut $inner, args, offset)
        }
        #[inline]
        fn draw_indexed_instanced_indirect(&mut self, args: recorder::Buffer, offset: u32) {
            if self.tap_active() {
                self.tap.keep(move || Method::DrawIndexedInstancedIndirect {
                    buffer: Obj::of(ObjectKind::Buffer, args),
                    offset,
                });
            }
            let $this = self;
            DeviceContext::draw_indexed_instanced_indirect(&mut $inner, args, offset)
        }
        #[inline]
        fn dispatch(&mut self, x: u32, y: u32, z: u32) {
            if self.tap_active() {
                self.tap.keep(move || Method::Dispatch { x, y, z });
            }
            let $this = self;
            DeviceContext::dispatch(&mut $inner, x, y, z)
        }
        #[inline]
        fn dispatch_indirect(&mut self, args: recorder::Buffer, offset: u32) {
            if self.tap_active() {
                self.tap.keep(move || Method::DispatchIndirect {
                    buffer: Obj::of(ObjectKind::Buffer, args),
                    offset,
                });
            }
            let $this = self;
            DeviceContext::dispatch_indirect(&mut $inner, args, offset)
        }
        #[inline]
        fn clear_render_target_view(&mut self, view: recorder::RenderTargetView, color: [f32; 4]) {
            if self.tap_active() {
                self.tap.keep(move || Method::ClearRenderTargetView {
                    view: Obj::of(ObjectKind::RenderTargetView, view),
                    color,
                });
            }
            let $this = self;
            DeviceContext::clear_render_target_view(&mut $inner, view, color)
        }
        #[inline]
        fn clear_depth_stencil_view(
            &mut self,
            view: recorder::DepthStencilView,
            flags: recorder::ClearFlags,
            depth: f32,
            stencil: u8,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::ClearDepthStencilView {
                    view: Obj::of(ObjectKind::DepthStencilView, view),
                    depth,
                    stencil,
                });
            }
            let $this = self;
            DeviceContext::clear_depth_stencil_view(&mut $inner, view, flags, depth, stencil)
        }
        #[inline]
        fn copy_resource(&mut self, destination: impl Into<Resource>, source: impl Into<Resource>) {
            let (destination, source) = (destination.into(), source.into());
            if self.tap_active() {
                self.tap.keep(move || Method::CopyResource {
                    destination: resource_obj(destination),
                    source: resource_obj(source),
                });
            }
            let $this = self;
            DeviceContext::copy_resource(&mut $inner, destination, source)
        }
        #[inline]
        fn update_subresource(&mut self, resource: impl Into<Resource>, data: &[u8]) {
            let resource = resource.into();
            if self.tap_active() {
                self.tap.keep(move || Method::UpdateSubresource {
                    resource: resource_obj(resource),
                });
            }
            let $this = self;
            DeviceContext::update_subresource(&mut $inner, resource, data)
        }
        #[inline]
        fn copy_buffer_region(
            &mut self,
            destination: recorder::Buffer,
            destination_offset: u64,
            source: recorder::Buffer,
            source_offset: u64,
            bytes: u64,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::CopyBufferRegion {
                    destination: Obj::of(ObjectKind::Buffer, destination),
                    destination_offset: fit(destination_offset),
                    source: Obj::of(ObjectKind::Buffer, source),
                    source_offset: fit(source_offset),
                    bytes: fit(bytes),
                });
            }
            let $this = self;
            DeviceContext::copy_buffer_region(
                &mut $inner,
                destination,
                destination_offset,
                source,
                source_offset,
                bytes,
            )
        }
        #[inline]
        fn copy_texture_region(
            &mut self,
            destination: recorder::Texture,
            destination_subresource: u32,
            x: u32,
            y: u32,
            source: recorder::Texture,
            source_subresource: u32,
            source_box: recorder::CopyBox,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::CopyTextureRegion {
                    destination: Obj::of(ObjectKind::Texture, destination),
                    destination_subresource,
                    at: [x, y],
                    source: Obj::of(ObjectKind::Texture, source),
                    source_subresource,
                    source_box: [
                        source_box.left,
                        source_box.top,
                        source_box.right,
                        source_box.bottom,
                    ],
                });
            }
            let $this = self;
            DeviceContext::copy_texture_region(
                &mut $inner,
                destination,
                destination_subresource,
                x,
                y,
                source,
                source_subresource,
                source_box,
            )
        }
        #[inline]
        fn copy_structure_count(
            &mut self,
            destination: recorder::Buffer,
            offset: u32,
            view: recorder::UnorderedAccessView,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::CopyStructureCount {
                    destination: Obj::of(ObjectKind::Buffer, destination),
                    offset,
                    view: Obj::of(ObjectKind::UnorderedAccessView, view),
                });
            }
            let $this = self;
            DeviceContext::copy_structure_count(&mut $inner, destination, offset, view)
        }
        #[inline]
        fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
            if self.tap_active() {
                self.tap.keep(move || Method::Barrier(barriers(groups)));
            }
            let $this = self;
            DeviceContext::barrier(&mut $inner, groups)
        }
        #[inline]
        fn resource_barrier(&mut self, list: &[ResourceBarrier]) {
            if self.tap_active() {
                for barrier in list {
                    self.tap
                        .call(Method::ResourceBarrier(legacy_barrier(barrier)));
                }
            }
            let $this = self;
            DeviceContext::resource_barrier(&mut $inner, list)
        }
        #[inline]
        fn begin_query(&mut self, query: recorder::Query) {
            if self.tap_active() {
                self.tap.keep(move || Method::Begin {
                    query: Obj::of(ObjectKind::Query, query),
                });
            }
            let $this = self;
            DeviceContext::begin_query(&mut $inner, query)
        }
        #[inline]
        fn end_query(&mut self, query: recorder::Query) {
            if self.tap_active() {
                self.tap.keep(move || Method::End {
                    query: Obj::of(ObjectKind::Query, query),
                });
            }
            let $this = self;
            DeviceContext::end_query(&mut $inner, query)
        }
        #[inline]
        fn write_query(&mut self, query: recorder::Query) {
            if self.tap_active() {
                self.tap.keep(move || Method::WriteQuery {
                    query: Obj::of(ObjectKind::Query, query),
                });
            }
            let $this = self;
            DeviceContext::write_query(&mut $inner, query)
        }
        #[inline]
        fn reset_query(&mut self, query: recorder::Query) {
            if self.tap_active() {
                self.tap.keep(move || Method::ResetQuery {
                    query: Obj::of(ObjectKind::Query, query),
                });
            }
            let $this = self;
            DeviceContext::reset_query(&mut $inner, query)
        }
        #[inline]
        fn configure_query(&mut self, query: recorder::Query, mode: recorder::QueryMode) {
            if self.tap_active() {
                self.tap.keep(move || Method::ConfigureQuery {
                    query: Obj::of(ObjectKind::Query, query),
                    mode: super::form::query_mode_word(mode),
                });
            }
            let $this = self;
            DeviceContext::configure_query(&mut $inner, query, mode)
        }
        #[inline]
        fn set_predication_from_query(
            &mut self,
            query: Option<recorder::Query>,
            value: recorder::PredicateValue,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetPredicationFromQuery {
                    query: query.map(|q| Obj::of(ObjectKind::Query, q)),
                    value: value.as_bool(),
                });
            }
            let $this = self;
            DeviceContext::set_predication_from_query(&mut $inner, query, value)
        }
        #[inline]
        fn decompress_resource(
            &mut self,
            texture: recorder::Texture,
            into: Option<recorder::Texture>,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::DecompressResource {
                    resource: Obj::of(ObjectKind::Texture, texture),
                    into: into.map(|t| Obj::of(ObjectKind::Texture, t)),
                });
            }
            let $this = self;
            DeviceContext::decompress_resource(&mut $inner, texture, into)
        }
        #[inline]
        fn set_resource_compression(
            &mut self,
            texture: recorder::Texture,
            compressed: recorder::Compression,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetResourceCompression {
                    resource: Obj::of(ObjectKind::Texture, texture),
                    compression: compressed,
                });
            }
            let $this = self;
            DeviceContext::set_resource_compression(&mut $inner, texture, compressed)
        }
        #[inline]
        fn set_resource_min_lod(&mut self, texture: recorder::Texture, min_lod: f32) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetResourceMinLod {
                    resource: Obj::of(ObjectKind::Texture, texture),
                    min_lod,
                });
            }
            let $this = self;
            DeviceContext::set_resource_min_lod(&mut $inner, texture, min_lod)
        }
        #[inline]
        fn set_shader_resource_view_min_lod(
            &mut self,
            view: recorder::ShaderResourceView,
            min_lod: f32,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetShaderResourceViewMinLod {
                    view: Obj::of(ObjectKind::ShaderResourceView, view),
                    min_lod,
                });
            }
            let $this = self;
            DeviceContext::set_shader_resource_view_min_lod(&mut $inner, view, min_lod)
        }
        #[inline]
        fn insert_wait_on_present(&mut self, chain: recorder::SwapChain) {
            if self.tap_active() {
                self.tap.keep(move || Method::InsertWaitOnPresent {
                    swapchain: Obj::of(ObjectKind::SwapChain, chain),
                });
            }
            let $this = self;
            DeviceContext::insert_wait_on_present(&mut $inner, chain)
        }
        #[inline]
        fn insert_wait_on_fence(&mut self, engine: recorder::Engine, value: u64) {
            if self.tap_active() {
                self.tap.keep(move || Method::InsertWaitOnFence {
                    fence: Obj::Fence(value),
                    engine,
                });
            }
            let $this = self;
            DeviceContext::insert_wait_on_fence(&mut $inner, engine, value)
        }
        #[inline]
        fn write_value_bottom_of_pipe(
            &mut self,
            buffer: recorder::Buffer,
            offset: u64,
            value: u64,
        ) {
            if self.tap_active() {
                self.tap.not_written("write_value_bottom_of_pipe");
            }
            let $this = self;
            DeviceContext::write_value_bottom_of_pipe(&mut $inner, buffer, offset, value)
        }
        #[inline]
        fn insert_wait_on_memory(&mut self, buffer: recorder::Buffer, offset: u64, value: u64) {
            if self.tap_active() {
                self.tap.not_written("insert_wait_on_memory");
            }
            let $this = self;
            DeviceContext::insert_wait_on_memory(&mut $inner, buffer, offset, value)
        }
        #[inline]
        fn set_gds_range(&mut self, stage: recorder::Stage, offset: u32, size: u32) {
            if self.tap_active() {
                self.tap.keep(move || Method::SetGdsRange {
                    stage,
                    offset,
                    size,
                });
            }
            let $this = self;
            DeviceContext::set_gds_range(&mut $inner, stage, offset, size)
        }
        #[inline]
        fn write_gds(&mut self, offset: u32, values: &[u32]) {
            if self.tap_active() {
                self.tap.keep(move || Method::WriteGds {
                    offset,
                    values: values.to_vec(),
                });
            }
            let $this = self;
            DeviceContext::write_gds(&mut $inner, offset, values)
        }
        #[inline]
        fn read_gds(
            &mut self,
            offset: u32,
            count: u32,
            destination: recorder::Buffer,
            destination_offset: u64,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::ReadGds {
                    offset,
                    count,
                    destination: Obj::of(ObjectKind::Buffer, destination),
                    destination_offset: fit(destination_offset),
                });
            }
            let $this = self;
            DeviceContext::read_gds(&mut $inner, offset, count, destination, destination_offset)
        }
        #[inline]
        fn load_constant_ram(
            &mut self,
            buffer: recorder::Buffer,
            buffer_offset: u64,
            ram_offset: u32,
            bytes: u32,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::LoadConstantRam {
                    buffer: Obj::of(ObjectKind::Buffer, buffer),
                    buffer_offset: fit(buffer_offset),
                    ram_offset,
                    bytes,
                });
            }
            let $this = self;
            DeviceContext::load_constant_ram(&mut $inner, buffer, buffer_offset, ram_offset, bytes)
        }
        #[inline]
        fn store_constant_ram(
            &mut self,
            buffer: recorder::Buffer,
            buffer_offset: u64,
            ram_offset: u32,
            bytes: u32,
        ) {
            if self.tap_active() {
                self.tap.keep(move || Method::StoreConstantRam {
                    buffer: Obj::of(ObjectKind::Buffer, buffer),
                    buffer_offset: fit(buffer_offset),
                    ram_offset,
                    bytes,
                });
            }
            let $this = self;
            DeviceContext::store_constant_ram(&mut $inner, buffer, buffer_offset, ram_offset, bytes)
        }
        #[inline]
        fn stats(&self) -> ListStats {
            let $this = self;
            DeviceContext::stats(&$inner)
        }
        #[inline]
        fn error(&self) -> Option<&RecordError> {
            let $this = self;
            DeviceContext::error(&$inner)
        }
        #[inline]
        fn last_refusal(&self) -> Option<&Error> {
            let $this = self;
            DeviceContext::last_refusal(&$inner)
        }
    };
}

pub(crate) use captured_calls;

/// Maps on a captured context: the engine's map, its statement and (write maps) the shadow of
/// its bytes; the guard's drop unmaps through the wrapper, which writes the changed bytes.
macro_rules! captured_maps {
    ($wrapper:ty, |$this:ident| $inner:expr, $instance:expr) => {
        #[inline]
        fn map(
            &mut self,
            resource: impl Into<Resource>,
            map_type: MapType,
            flags: MapFlags,
        ) -> Result<Mapped<'_, Self>, Error> {
            /// A kept map: the earlier maps' bytes first, then the map, its statement and (a
            /// write map) the shadow of its bytes; out of the idle path's line.
            #[cold]
            #[inline(never)]
            fn kept(
                wrapper: &mut $wrapper,
                resource: Resource,
                map_type: MapType,
                flags: MapFlags,
            ) -> Result<(*mut u8, usize), Error> {
                wrapper.tap.settle();
                let mapped = {
                    let $this = &mut *wrapper;
                    DeviceContext::map(&mut $inner, resource, map_type, flags)
                        .map(Mapped::keep_mapped)
                };
                let (data, len) = match mapped {
                    Ok(bytes) => (bytes.as_mut_ptr(), bytes.len()),
                    Err(error) => {
                        // Refused: the replay refuses it too.
                        wrapper.tap.call(Method::Map {
                            resource: resource_obj(resource),
                            map_type,
                            allow_usage_default: flags.allows_usage_default(),
                            instance: None,
                            writes: (),
                        });
                        return Err(error);
                    }
                };
                let instance = (map_type == MapType::WriteDiscard).then(|| {
                    let $this = &*wrapper;
                    $instance(&$inner, resource.raw())
                });
                wrapper.tap.mapped(
                    resource,
                    map_type,
                    flags.allows_usage_default(),
                    instance,
                    Some((data, len)),
                );
                Ok((data, len))
            }

            let resource = resource.into();
            let (data, len) = if self.tap_active() {
                kept(self, resource, map_type, flags)?
            } else {
                let $this = &mut *self;
                let bytes =
                    DeviceContext::map(&mut $inner, resource, map_type, flags)?.keep_mapped();
                (bytes.as_mut_ptr(), bytes.len())
            };
            // SAFETY: `data` is what the wrapped context's map handed out: valid for `len`
            // bytes until the resource is unmapped, its provenance the context's own memory
            // (a chunk or a heap buffer owned through raw pointers), not this borrow; the guard
            // borrows `self` (and so the wrapped context) mutably until it unmaps through
            // `Self::unmap`, which forwards to the wrapped context's.
            Ok(unsafe { Mapped::new(self, resource, data, len) })
        }

        #[inline]
        fn unmap(&mut self, resource: impl Into<Resource>) {
            let resource = resource.into();
            if self.tap_active() {
                self.tap.unmapped(resource);
            }
            let $this = self;
            DeviceContext::unmap(&mut $inner, resource)
        }
    };
}

pub(crate) use captured_maps;

/// A [`DeferredContext`] whose lists a capture can write (R-CAP-5). Made by
/// [`CaptureDevice::create_deferred_context`](super::CaptureDevice::create_deferred_context).
pub struct CapturedDeferred {
    context: DeferredContext,
    tap: Tap,
    info: ContextInfo,
    /// Lists finished or discarded so far.
    lists: u64,
}

impl CapturedDeferred {
    pub(crate) fn new(context: DeferredContext, shared: Arc<Shared>) -> Self {
        let info = ContextInfo {
            serial: shared.next_serial(),
            name: context.name().to_string(),
            semantics: context.semantics(),
            title_managed_lifetimes: context.title_managed_lifetimes(),
        };
        shared
            .context_names
            .lock()
            .insert(context.serial(), info.name.clone());
        Self {
            context,
            tap: Tap::per_list(shared),
            info,
            lists: 0,
        }
    }

    /// Whether this call is kept. Idle (the list is not captured): one branch on a byte.
    #[inline(always)]
    fn tap_active(&mut self) -> bool {
        !self.tap.is_idle() && self.tap_slow()
    }

    /// A kept call, or the first call of a list: decide, and note the state a restore carried
    /// in.
    #[cold]
    #[inline(never)]
    fn tap_slow(&mut self) -> bool {
        let fresh = self.tap.is_fresh();
        if !self.tap.active() {
            return false;
        }
        if fresh {
            let carried = self.context.legacy_state().map(state_calls);
            self.tap.carried = carried.filter(|calls| !calls.is_empty());
        }
        true
    }

    /// The wrapped context, for what the capture need not see (its name, its counters).
    pub fn inner(&self) -> &DeferredContext {
        &self.context
    }

    /// [`DeferredContext::name`].
    pub fn name(&self) -> &str {
        self.context.name()
    }

    /// [`DeferredContext::semantics`].
    pub fn semantics(&self) -> recorder::Semantics {
        self.context.semantics()
    }

    /// [`DeferredContext::current_instance`].
    pub fn current_instance(&self, buffer: recorder::RawHandle) -> recorder::command::InstanceId {
        self.context.current_instance(buffer)
    }

    /// [`DeferredContext::insert_fence`].
    pub fn insert_fence(&mut self, engine: recorder::Engine) -> u64 {
        self.insert_fence_with(engine, recorder::FenceFlags::NoKickOff)
    }

    /// [`DeferredContext::insert_fence_with`] (R-FX-6): written `insert_fence F [kick_off]`.
    pub fn insert_fence_with(
        &mut self,
        engine: recorder::Engine,
        flags: recorder::FenceFlags,
    ) -> u64 {
        let kept = self.tap_active();
        let context = &mut self.context;
        self.tap.fence(kept, engine, flags, || {
            context.insert_fence_with(engine, flags)
        })
    }

    /// [`DeferredContext::create_device_context_state`] (R-FX-6): not a recorded call.
    pub fn create_device_context_state(
        &mut self,
    ) -> Result<recorder::DeviceContextState, recorder::Error> {
        self.context.create_device_context_state()
    }

    /// [`DeferredContext::swap_device_context_state`] (R-FX-6). Not written: a list that swaps
    /// breaks its capture (the frame is reported not written, with the reason). The trace has
    /// the statement (`swap_device_context_state STATE`), but the capture cannot name the
    /// object (a [`recorder::DeviceContextState`] has no handle) nor write what it held at the
    /// frame's start.
    pub fn swap_device_context_state(&mut self, state: &mut recorder::DeviceContextState) {
        if self.tap_active() {
            self.tap
                .broken
                .get_or_insert_with(|| "it swaps a device context state object (swap_device_context_state, R-FX-6): the capture does not write context state objects (the object has no handle the trace could name, and its content at the frame's start would have to be written as calls)".to_string());
        }
        self.context.swap_device_context_state(state)
    }

    /// [`DeferredContext::execute_command_list`] (nesting, R-REC-9): a captured list brings in
    /// the nested list's calls; a nested list without them breaks the list's capture.
    #[inline]
    pub fn execute_command_list(&mut self, list: &CommandList, restore: RestoreState) {
        if self.tap_active() {
            match list_log(list) {
                Some(log) => {
                    self.tap.call(Method::Execute {
                        list: Obj::List(log.id),
                        restore: restore.is_restore(),
                    });
                    self.tap.nested.push(log);
                }
                None => {
                    self.tap.broken.get_or_insert_with(|| {
                        "it executes a nested list recorded before the capture began".to_string()
                    });
                }
            }
        }
        self.context.execute_command_list(list, restore)
    }

    /// [`DrawBundleExt::draw_bundle`], captured.
    #[inline]
    pub fn draw_bundle(&mut self, bundle: &DrawBundle) {
        if self.tap_active() {
            let obj = Obj::Engine(ObjectKind::Bundle, bundle.handle().raw());
            self.tap.call(Method::DrawBundle { bundle: obj });
            self.tap.bundles.push(obj);
        }
        DrawBundleExt::draw_bundle(&mut self.context, bundle)
    }

    /// [`DeferredContext::finish_command_list`]: a captured list carries its calls.
    pub fn finish_command_list(
        &mut self,
        restore: RestoreState,
    ) -> Result<CommandList, RecordError> {
        // A list with no kept call yet decides now (an empty list is captured too).
        let kept = if self.tap.is_fresh() {
            self.tap_slow()
        } else {
            self.tap.is_on()
        };
        self.tap.settle();
        let finished = self.context.finish_command_list(restore);
        match finished {
            Ok(mut list) => {
                let ordinal = self.lists;
                self.lists += 1;
                if kept {
                    let id = self.tap.shared().next_serial();
                    let info = self.info.clone();
                    let log = self.tap.take_list(id, ordinal, info, restore.is_restore());
                    let _ = list.attach(Arc::new(log));
                } else {
                    self.tap.end_list();
                }
                Ok(list)
            }
            Err(error) => {
                // A refused finish that keeps the list open (a map still open, a fast restore)
                // leaves the tap as it is; a discarded list starts afresh.
                if self.context.stats().calls == 0 {
                    self.lists += 1;
                    self.tap.end_list();
                }
                Err(error)
            }
        }
    }

    /// [`DeferredContext::discard_command_list`].
    pub fn discard_command_list(&mut self) {
        self.lists += 1;
        self.tap.end_list();
        self.context.discard_command_list()
    }
}

/// The calls a captured list carries, if it was captured.
pub(crate) fn list_log(list: &CommandList) -> Option<Arc<ListLog>> {
    list.attachment()
        .and_then(|a| a.clone().downcast::<ListLog>().ok())
}

impl DeviceContext for CapturedDeferred {
    captured_calls!(|this| this.context);
    captured_maps!(
        CapturedDeferred,
        |this| this.context,
        |c: &DeferredContext, raw| c.current_instance(raw)
    );
}

/// A [`BundleRecorder`] whose bundles a capture can write (R-CAP-5: a bundle recorded before the
/// frame and called in it is written as its recording). Every call is kept, whether a frame is
/// being captured or not: a bundle is recorded once and called by many frames.
pub struct CapturedBundleRecorder {
    recorder: BundleRecorder,
    tap: Tap,

    render_targets: Vec<recorder::Format>,
    depth: Option<recorder::Format>,
    samples: u32,
}

impl CapturedBundleRecorder {
    pub(crate) fn new(
        recorder: BundleRecorder,
        desc: &BundleDesc<'_>,
        shared: Arc<Shared>,
    ) -> Self {
        Self {
            recorder,
            tap: Tap::switched(shared, true),
            render_targets: desc.render_targets.to_vec(),
            depth: desc.depth,
            samples: desc.sample_count,
        }
    }

    #[inline(always)]
    fn tap_active(&mut self) -> bool {
        self.tap.active()
    }

    /// The wrapped recorder.
    pub fn inner(&self) -> &BundleRecorder {
        &self.recorder
    }

    fn remapped(&mut self, call: Call) {
        if self.tap_active() {
            self.tap.call(call);
        }
    }

    /// [`BundleRecorder::remap_constant_buffer_inheritance`].
    pub fn remap_constant_buffer_inheritance(
        &mut self,
        stage: recorder::Stage,
        slot: u32,
        inherit_stage: recorder::Stage,
        inherit_slot: u32,
    ) {
        self.remapped(Method::RemapConstantBufferInheritance(Remap {
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        }));
        self.recorder
            .remap_constant_buffer_inheritance(stage, slot, inherit_stage, inherit_slot)
    }

    /// [`BundleRecorder::remap_shader_resource_inheritance`].
    pub fn remap_shader_resource_inheritance(
        &mut self,
        stage: recorder::Stage,
        slot: u32,
        inherit_stage: recorder::Stage,
        inherit_slot: u32,
    ) {
        self.remapped(Method::RemapShaderResourceInheritance(Remap {
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        }));
        self.recorder
            .remap_shader_resource_inheritance(stage, slot, inherit_stage, inherit_slot)
    }

    /// [`BundleRecorder::remap_sampler_inheritance`].
    pub fn remap_sampler_inheritance(
        &mut self,
        stage: recorder::Stage,
        slot: u32,
        inherit_stage: recorder::Stage,
        inherit_slot: u32,
    ) {
        self.remapped(Method::RemapSamplerInheritance(Remap {
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        }));
        self.recorder
            .remap_sampler_inheritance(stage, slot, inherit_stage, inherit_slot)
    }

    /// [`BundleRecorder::remap_vertex_buffer_inheritance`].
    pub fn remap_vertex_buffer_inheritance(&mut self, slot: u32, inherit_slot: u32) {
        self.remapped(Method::RemapVertexBufferInheritance { slot, inherit_slot });
        self.recorder
            .remap_vertex_buffer_inheritance(slot, inherit_slot)
    }

    /// [`BundleRecorder::finish`]: the capture keeps the bundle's recording under its handle.
    pub fn finish(&mut self) -> Result<DrawBundle, RecordError> {
        let entries = std::mem::take(&mut self.tap.entries);
        let seqs = std::mem::take(&mut self.tap.seqs);
        let broken = self.tap.broken.take();
        self.tap.clear();
        let bundle = self.recorder.finish()?;
        let log = BundleLog {
            name: self.recorder.name().to_string(),
            render_targets: self.render_targets.clone(),
            depth: self.depth,
            samples: self.samples,
            entries,
            seqs,
            finish_seq: self.tap.shared().stamp(),
            broken,
        };
        let raw = bundle.handle().raw();
        let shared = self.tap.shared().clone();
        shared.bundles.lock().insert(raw, Arc::new(log));
        Ok(bundle)
    }
}

impl DeviceContext for CapturedBundleRecorder {
    captured_calls!(|this| this.recorder);
    captured_maps!(
        CapturedBundleRecorder,
        |this| this.recorder,
        |_: &BundleRecorder, _| { recorder::command::InstanceId::INITIAL }
    );
}
