//! The captured draws and transfers: [`DrawCalls`], [`IndirectDispatchCalls`] and
//! [`TransferCalls`] on a [`CapturedContext`] whose context has them: ask the tap, keep the call,
//! make it on the wrapped context.
//!
//! **In:** the application's draws, dispatches, clears and copies. **Out:** the same calls on the
//! wrapped context, and the tap's entries.
//!
//! **Invariant.** The bytes of `update_subresource` are not kept (the GPU model keeps no
//! contents; `form.rs`).

use recorder::*;

use super::captured::{CaptureTarget, CapturedContext};
use super::captured_args::fit;
use super::form::Obj;
use super::kept_calls::{Hot, Word};
use super::log::resource_obj;
use crate::syntax::ast::Method;

impl<C: CaptureTarget + DrawCalls> DrawCalls for CapturedContext<C> {
    #[inline]
    fn draw(&mut self, vertex_count: u32, start_vertex: u32) {
        if !self.tap_idle() {
            self.keep_word(Word::draw(vertex_count, start_vertex));
        }
        self.context.draw(vertex_count, start_vertex)
    }
    #[inline]
    fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) {
        if !self.tap_idle() {
            match Word::draw_indexed(index_count, start_index, base_vertex) {
                Some(word) => self.keep_word(word),
                None => self.keep_hot(Hot::DrawIndexed {
                    index_count,
                    start_index,
                    base_vertex,
                }),
            }
        }
        self.context
            .draw_indexed(index_count, start_index, base_vertex)
    }
    #[inline]
    fn draw_instanced(
        &mut self,
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    ) {
        if !self.tap_idle() {
            self.keep_hot(Hot::DrawInstanced {
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
            });
        }
        self.context
            .draw_instanced(vertex_count, instance_count, start_vertex, start_instance)
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
        if !self.tap_idle() {
            self.keep_hot(Hot::DrawIndexedInstanced {
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            });
        }
        self.context.draw_indexed_instanced(
            index_count,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        )
    }
    #[inline]
    fn draw_auto(&mut self) {
        if !self.tap_idle() {
            self.keep(move |_| Method::DrawAuto);
        }
        self.context.draw_auto()
    }
    #[inline]
    fn draw_instanced_indirect(&mut self, args: recorder::Buffer, offset: u32) {
        if !self.tap_idle() {
            self.keep(move |_| Method::DrawInstancedIndirect {
                buffer: Obj::of(ObjectKind::Buffer, args),
                offset,
            });
        }
        self.context.draw_instanced_indirect(args, offset)
    }
    #[inline]
    fn draw_indexed_instanced_indirect(&mut self, args: recorder::Buffer, offset: u32) {
        if !self.tap_idle() {
            self.keep(move |_| Method::DrawIndexedInstancedIndirect {
                buffer: Obj::of(ObjectKind::Buffer, args),
                offset,
            });
        }
        self.context.draw_indexed_instanced_indirect(args, offset)
    }
    #[inline]
    fn dispatch(&mut self, x: u32, y: u32, z: u32) {
        if !self.tap_idle() {
            self.keep(move |_| Method::Dispatch { x, y, z });
        }
        self.context.dispatch(x, y, z)
    }
}

impl<C: CaptureTarget + IndirectDispatchCalls> IndirectDispatchCalls for CapturedContext<C> {
    #[inline]
    fn dispatch_indirect(&mut self, args: recorder::Buffer, offset: u32) {
        if !self.tap_idle() {
            self.keep(move |_| Method::DispatchIndirect {
                buffer: Obj::of(ObjectKind::Buffer, args),
                offset,
            });
        }
        self.context.dispatch_indirect(args, offset)
    }
}

impl<C: CaptureTarget + TransferCalls> TransferCalls for CapturedContext<C> {
    #[inline]
    fn clear_render_target_view(&mut self, view: recorder::RenderTargetView, color: [f32; 4]) {
        if self.tap_active() {
            self.tap.pin_views(&[Some(view)]);
            self.tap.keep(move |_| Method::ClearRenderTargetView {
                view: Obj::of(ObjectKind::RenderTargetView, view),
                color,
            });
        }
        self.context.clear_render_target_view(view, color)
    }
    #[inline]
    fn clear_depth_stencil_view(
        &mut self,
        view: recorder::DepthStencilView,
        flags: recorder::ClearFlags,
        depth: f32,
        stencil: u8,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::ClearDepthStencilView {
                view: Obj::of(ObjectKind::DepthStencilView, view),
                depth,
                stencil,
            });
        }
        self.context
            .clear_depth_stencil_view(view, flags, depth, stencil)
    }
    #[inline]
    fn copy_resource(&mut self, destination: impl Into<Resource>, source: impl Into<Resource>) {
        let (destination, source) = (destination.into(), source.into());
        if !self.tap_idle() {
            self.keep(move |_| Method::CopyResource {
                destination: resource_obj(destination),
                source: resource_obj(source),
            });
        }
        self.context.copy_resource(destination, source)
    }
    #[inline]
    fn update_subresource(&mut self, resource: impl Into<Resource>, data: &[u8]) {
        let resource = resource.into();
        if !self.tap_idle() {
            self.keep(move |_| Method::UpdateSubresource {
                resource: resource_obj(resource),
            });
        }
        self.context.update_subresource(resource, data)
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
        if !self.tap_idle() {
            self.keep(move |_| Method::CopyBufferRegion {
                destination: Obj::of(ObjectKind::Buffer, destination),
                destination_offset: fit(destination_offset),
                source: Obj::of(ObjectKind::Buffer, source),
                source_offset: fit(source_offset),
                bytes: fit(bytes),
            });
        }
        self.context.copy_buffer_region(
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
        if !self.tap_idle() {
            self.keep(move |_| Method::CopyTextureRegion {
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
        self.context.copy_texture_region(
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
        if !self.tap_idle() {
            self.keep(move |_| Method::CopyStructureCount {
                destination: Obj::of(ObjectKind::Buffer, destination),
                offset,
                view: Obj::of(ObjectKind::UnorderedAccessView, view),
            });
        }
        self.context.copy_structure_count(destination, offset, view)
    }
}
