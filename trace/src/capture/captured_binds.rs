//! The captured binds: [`BindCalls`], [`FastBindCalls`], [`InheritedStateCalls`] and
//! [`ClearStateCalls`] on a [`CapturedContext`] whose context has them. Each call asks the tap,
//! keeps the call (as [`Method`]) when it says so, and makes it on the wrapped context.
//!
//! **In:** the application's binds. **Out:** the same binds on the wrapped context, and the tap's
//! entries.
//!
//! **Invariant.** A bind of no slot is no entry; a batch is written as the fast binds it applies.
//! Every bind that can name a view of a swap chain's back buffer (the legacy binds, the fast
//! ones, a batch where it is applied, a placement bind) pins the buffer the view names first
//! (`Tap::pin_views`, R-EX-7).

use recorder::*;

use super::captured::{CaptureTarget, CapturedContext};
use super::captured_args::{fast_entries, objs, vertex_binding};
use super::form::Obj;
use super::kept_calls::{Hot, Word};
use crate::syntax::ast::{Method, VertexBinding};

impl<C: CaptureTarget + BindCalls> BindCalls for CapturedContext<C> {
    #[inline]
    fn set_input_layout(&mut self, layout: Option<recorder::InputLayout>) {
        if !self.tap_idle() {
            self.keep(move |_| {
                Method::SetInputLayout(layout.map(|l| Obj::of(ObjectKind::InputLayout, l)))
            });
        }
        self.context.set_input_layout(layout)
    }
    #[inline]
    fn set_primitive_topology(&mut self, topology: recorder::PrimitiveTopology) {
        if !self.tap_idle() {
            self.keep(move |_| Method::SetPrimitiveTopology(topology));
        }
        self.context.set_primitive_topology(topology)
    }
    #[inline]
    fn set_vertex_buffers(&mut self, start: u32, buffers: &[recorder::VertexBuffer]) {
        if !buffers.is_empty() && !self.tap_idle() {
            match buffers {
                [buffer] => match Word::vertex_buffer(start, buffer.buffer) {
                    Some(word) => self.keep_vertex_buffer(word, buffer.stride, buffer.offset),
                    None => self.keep_hot(Hot::VertexBuffer {
                        start,
                        buffer: *buffer,
                    }),
                },
                _ => self.keep(move |lists| Method::SetVertexBuffers {
                    start,
                    buffers: lists.map(buffers, vertex_binding),
                }),
            }
        }
        self.context.set_vertex_buffers(start, buffers)
    }
    #[inline]
    fn set_index_buffer(
        &mut self,
        buffer: Option<recorder::Buffer>,
        format: recorder::Format,
        offset: u32,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::SetIndexBuffer {
                buffer: buffer.map(|b| Obj::of(ObjectKind::Buffer, b)),
                format,
                offset,
            });
        }
        self.context.set_index_buffer(buffer, format, offset)
    }
    #[inline]
    fn set_shader(&mut self, stage: recorder::Stage, shader: Option<recorder::Shader>) {
        if !self.tap_idle() {
            self.keep_word(Word::shader(stage, shader));
        }
        self.context.set_shader(stage, shader)
    }
    #[inline]
    fn set_constant_buffers(
        &mut self,
        stage: recorder::Stage,
        start: u32,
        buffers: &[Option<recorder::Buffer>],
    ) {
        if !buffers.is_empty() && !self.tap_idle() {
            match buffers {
                [buffer] => match Word::bind(stage, start, *buffer) {
                    Some(word) => self.keep_word(word),
                    None => self.keep_hot(Hot::ConstantBuffer {
                        stage,
                        start,
                        buffer: *buffer,
                    }),
                },
                _ => self.keep(move |lists| Method::SetConstantBuffers {
                    stage,
                    start,
                    buffers: objs(lists, ObjectKind::Buffer, buffers),
                }),
            }
        }
        self.context.set_constant_buffers(stage, start, buffers)
    }
    #[inline]
    fn set_shader_resources(
        &mut self,
        stage: recorder::Stage,
        start: u32,
        views: &[Option<recorder::ShaderResourceView>],
    ) {
        if !views.is_empty() && !self.tap_idle() {
            match views {
                [view] => match Word::bind(stage, start, *view) {
                    Some(word) => self.keep_word_reading(*view, word),
                    None => self.keep_hot_reading(
                        *view,
                        Hot::ShaderResource {
                            stage,
                            start,
                            view: *view,
                        },
                    ),
                },
                _ => self.keep_reading(views, move |lists| Method::SetShaderResources {
                    stage,
                    start,
                    views: objs(lists, ObjectKind::ShaderResourceView, views),
                }),
            }
        }
        self.context.set_shader_resources(stage, start, views)
    }
    #[inline]
    fn set_samplers(
        &mut self,
        stage: recorder::Stage,
        start: u32,
        samplers: &[Option<recorder::SamplerState>],
    ) {
        if !samplers.is_empty() && !self.tap_idle() {
            match samplers {
                [sampler] => match Word::bind(stage, start, *sampler) {
                    Some(word) => self.keep_word(word),
                    None => self.keep_hot(Hot::Sampler {
                        stage,
                        start,
                        sampler: *sampler,
                    }),
                },
                _ => self.keep(move |lists| Method::SetSamplers {
                    stage,
                    start,
                    samplers: objs(lists, ObjectKind::SamplerState, samplers),
                }),
            }
        }
        self.context.set_samplers(stage, start, samplers)
    }
}

impl<C: CaptureTarget + FastBindCalls> FastBindCalls for CapturedContext<C> {
    #[inline]
    fn set_fast_resources(&mut self, entries: &[recorder::FastResource]) {
        if !entries.is_empty() && self.tap_active() {
            self.tap.pin_fast_views(entries);

            self.tap
                .keep(move |lists| Method::SetFastResources(fast_entries(lists, entries)));
        }
        self.context.set_fast_resources(entries)
    }
    #[inline]
    fn set_fast_resources_into_batch(
        &mut self,
        batch: &mut recorder::FastResourceBatch,
        entries: &[recorder::FastResource],
    ) {
        // Records nothing: the batch's entries are written where it is applied.
        self.context.set_fast_resources_into_batch(batch, entries)
    }
    #[inline]
    fn set_fast_resources_from_batch(&mut self, batch: &recorder::FastResourceBatch) {
        // Written as the `set_fast_resources` of the batch's entries, which it is (R-FX-1).
        if !batch.is_empty() && self.tap_active() {
            // The entries resolve here, not where the batch was filled.
            self.tap.pin_fast_views(batch.entries());

            self.tap
                .keep(move |lists| Method::SetFastResources(fast_entries(lists, batch.entries())));
        }
        self.context.set_fast_resources_from_batch(batch)
    }
    #[inline]
    fn set_fast_shader_resource(
        &mut self,
        stage: recorder::Stage,
        slot: u32,
        view: Option<recorder::ShaderResourceView>,
    ) {
        if self.tap_active() {
            self.tap.pin_views(&[view]);

            self.tap.keep(move |_| Method::SetFastShaderResource {
                stage,
                slot,
                view: view.map(|v| Obj::of(ObjectKind::ShaderResourceView, v)),
            });
        }
        self.context.set_fast_shader_resource(stage, slot, view)
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
            self.tap.pin_views(&[Some(view)]);

            self.tap.keep(move |_| Method::SetPlacementShaderResource {
                stage,
                slot,
                view: Obj::of(ObjectKind::ShaderResourceView, view),
                address,
            });
        }
        self.context
            .set_placement_shader_resource(stage, slot, view, address)
    }
    #[inline]
    fn set_placement_constant_buffer(
        &mut self,
        stage: recorder::Stage,
        slot: u32,
        buffer: recorder::Buffer,
        address: u64,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::SetPlacementConstantBuffer {
                stage,
                slot,
                buffer: Obj::of(ObjectKind::Buffer, buffer),
                address,
            });
        }
        self.context
            .set_placement_constant_buffer(stage, slot, buffer, address)
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
        if !self.tap_idle() {
            self.keep(move |_| Method::SetPlacementVertexBuffer {
                slot,
                buffer: VertexBinding {
                    buffer: Obj::of(ObjectKind::Buffer, buffer),
                    stride,
                    offset,
                },
                address,
            });
        }
        self.context
            .set_placement_vertex_buffer(slot, buffer, stride, offset, address)
    }
    #[inline]
    fn set_placement_index_buffer(
        &mut self,
        buffer: recorder::Buffer,
        address: u64,
        format: recorder::Format,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::IaSetPlacementIndexBuffer {
                buffer: Obj::of(ObjectKind::Buffer, buffer),
                address,
                format,
            });
        }
        self.context
            .set_placement_index_buffer(buffer, address, format)
    }
    #[inline]
    fn set_resource_min_lod(&mut self, texture: recorder::Texture, min_lod: f32) {
        if self.tap_active() {
            self.tap.keep(move |_| Method::SetResourceMinLod {
                resource: Obj::of(ObjectKind::Texture, texture),
                min_lod,
            });
            self.tap.device_call();
        }
        self.context.set_resource_min_lod(texture, min_lod)
    }
    #[inline]
    fn set_shader_resource_view_min_lod(
        &mut self,
        view: recorder::ShaderResourceView,
        min_lod: f32,
    ) {
        if self.tap_active() {
            self.tap.keep(move |_| Method::SetShaderResourceViewMinLod {
                view: Obj::of(ObjectKind::ShaderResourceView, view),
                min_lod,
            });
            self.tap.device_call();
        }
        self.context.set_shader_resource_view_min_lod(view, min_lod)
    }
}

impl<C: CaptureTarget + InheritedStateCalls> InheritedStateCalls for CapturedContext<C> {
    #[inline]
    fn set_primitive_reset_index(&mut self, value: u32) {
        if !self.tap_idle() {
            self.keep(move |_| Method::SetPrimitiveResetIndex(value));
        }
        self.context.set_primitive_reset_index(value)
    }
    #[inline]
    fn set_compute_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<recorder::UnorderedAccessView>],
    ) {
        if !views.is_empty() && !self.tap_idle() {
            self.keep_reading(views, move |lists| Method::CsSetUnorderedAccessViews {
                start,
                views: objs(lists, ObjectKind::UnorderedAccessView, views),
            });
        }
        self.context
            .set_compute_unordered_access_views(start, views)
    }
    #[inline]
    fn set_render_targets(
        &mut self,
        targets: &[Option<recorder::RenderTargetView>],
        depth_stencil: Option<recorder::DepthStencilView>,
    ) {
        if self.tap_active() {
            self.tap.pin_views(targets);
            self.tap.pin_views(&[depth_stencil]);

            self.tap.keep(move |lists| Method::OmSetRenderTargets {
                render_targets: objs(lists, ObjectKind::RenderTargetView, targets),
                depth_stencil: depth_stencil.map(|d| Obj::of(ObjectKind::DepthStencilView, d)),
            });
        }
        self.context.set_render_targets(targets, depth_stencil)
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
            self.tap.pin_views(targets);
            self.tap.pin_views(&[depth_stencil]);
            self.tap.pin_views(views);

            self.tap
                .keep(move |lists| Method::OmSetRenderTargetsAndUavs {
                    render_targets: objs(lists, ObjectKind::RenderTargetView, targets),
                    depth_stencil: depth_stencil.map(|d| Obj::of(ObjectKind::DepthStencilView, d)),
                    start,
                    views: objs(lists, ObjectKind::UnorderedAccessView, views),
                });
        }
        self.context.set_render_targets_and_unordered_access_views(
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
        if !self.tap_idle() {
            self.keep(move |_| {
                Method::OmSetBlendState(state.map(|s| Obj::of(ObjectKind::BlendState, s)))
            });
        }
        self.context.set_blend_state(state, factor, sample_mask)
    }
    #[inline]
    fn set_depth_stencil_state(
        &mut self,
        state: Option<recorder::DepthStencilState>,
        stencil_ref: u32,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| {
                Method::OmSetDepthStencilState(
                    state.map(|s| Obj::of(ObjectKind::DepthStencilState, s)),
                )
            });
        }
        self.context.set_depth_stencil_state(state, stencil_ref)
    }
    #[inline]
    fn set_rasterizer_state(&mut self, state: Option<recorder::RasterizerState>) {
        if !self.tap_idle() {
            self.keep(move |_| {
                Method::RsSetState(state.map(|s| Obj::of(ObjectKind::RasterizerState, s)))
            });
        }
        self.context.set_rasterizer_state(state)
    }
    #[inline]
    fn set_viewports(&mut self, viewports: &[recorder::Viewport]) {
        if !self.tap_idle() {
            self.keep(move |lists| Method::RsSetViewports(lists.list(viewports.iter().copied())));
        }
        self.context.set_viewports(viewports)
    }
    #[inline]
    fn set_scissor_rects(&mut self, rects: &[recorder::Rect]) {
        if !self.tap_idle() {
            self.keep(move |lists| Method::RsSetScissorRects(lists.list(rects.iter().copied())));
        }
        self.context.set_scissor_rects(rects)
    }
    #[inline]
    fn set_predication(
        &mut self,
        predicate: Option<recorder::Query>,
        value: recorder::PredicateValue,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::SetPredication {
                predicate: predicate.map(|p| Obj::of(ObjectKind::Query, p)),
                value: value.as_bool(),
            });
        }
        self.context.set_predication(predicate, value)
    }
    #[inline]
    fn set_predication_from_query(
        &mut self,
        query: Option<recorder::Query>,
        value: recorder::PredicateValue,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::SetPredicationFromQuery {
                query: query.map(|q| Obj::of(ObjectKind::Query, q)),
                value: value.as_bool(),
            });
        }
        self.context.set_predication_from_query(query, value)
    }
}

impl<C: CaptureTarget + ClearStateCalls> ClearStateCalls for CapturedContext<C> {
    #[inline]
    fn clear_state(&mut self) {
        if !self.tap_idle() {
            self.keep(move |_| Method::ClearState);
        }
        self.context.clear_state()
    }
}
