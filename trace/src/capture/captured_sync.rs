//! The captured queries, fences, barriers and engine memory: [`QueryCalls`], [`FenceCalls`],
//! [`BarrierCalls`] and [`EngineMemoryCalls`] on a [`CapturedContext`] whose context has them:
//! ask the tap, keep the call, make it on the wrapped context.
//!
//! **In:** the application's calls. **Out:** the same calls on the wrapped context, and the tap's
//! entries.
//!
//! **Invariant.** A barrier is kept as the trace's barriers, group by group, in order.

use recorder::*;

use super::captured::{CaptureTarget, CapturedContext};
use super::captured_args::{barriers, fit, legacy_barrier};
use super::form::Obj;
use crate::syntax::ast::Method;
use crate::syntax::Decompression;

impl<C: CaptureTarget + QueryCalls> QueryCalls for CapturedContext<C> {
    #[inline]
    fn begin_query(&mut self, query: recorder::Query) {
        if !self.tap_idle() {
            self.keep(move |_| Method::Begin {
                query: Obj::of(ObjectKind::Query, query),
            });
        }
        self.context.begin_query(query)
    }
    #[inline]
    fn end_query(&mut self, query: recorder::Query) {
        if !self.tap_idle() {
            self.keep(move |_| Method::End {
                query: Obj::of(ObjectKind::Query, query),
            });
        }
        self.context.end_query(query)
    }
    #[inline]
    fn write_query(&mut self, query: recorder::Query) {
        if !self.tap_idle() {
            self.keep(move |_| Method::WriteQuery {
                query: Obj::of(ObjectKind::Query, query),
            });
        }
        self.context.write_query(query)
    }
    #[inline]
    fn reset_query(&mut self, query: recorder::Query) {
        if !self.tap_idle() {
            self.keep(move |_| Method::ResetQuery {
                query: Obj::of(ObjectKind::Query, query),
            });
        }
        self.context.reset_query(query)
    }
    #[inline]
    fn configure_query(&mut self, query: recorder::Query, mode: recorder::QueryMode) {
        if !self.tap_idle() {
            self.keep(move |_| Method::ConfigureQuery {
                query: Obj::of(ObjectKind::Query, query),
                mode,
            });
        }
        self.context.configure_query(query, mode)
    }
}

impl<C: CaptureTarget + FenceCalls> FenceCalls for CapturedContext<C> {
    #[inline]
    fn insert_wait_on_present(&mut self, chain: recorder::SwapChain) {
        if !self.tap_idle() {
            self.keep(move |_| Method::InsertWaitOnPresent {
                swapchain: Obj::of(ObjectKind::SwapChain, chain),
            });
        }
        self.context.insert_wait_on_present(chain)
    }
    #[inline]
    fn insert_wait_on_fence(&mut self, engine: recorder::Engine, value: u64) {
        if !self.tap_idle() {
            self.keep(move |_| Method::InsertWaitOnFence {
                fence: Obj::Fence(value),
                engine,
            });
        }
        self.context.insert_wait_on_fence(engine, value)
    }
    #[inline]
    fn write_value_bottom_of_pipe(&mut self, buffer: recorder::Buffer, offset: u64, value: u64) {
        if self.tap_active() {
            self.tap.not_written("write_value_bottom_of_pipe");
        }
        self.context
            .write_value_bottom_of_pipe(buffer, offset, value)
    }
    #[inline]
    fn insert_wait_on_memory(&mut self, buffer: recorder::Buffer, offset: u64, value: u64) {
        if self.tap_active() {
            self.tap.not_written("insert_wait_on_memory");
        }
        self.context.insert_wait_on_memory(buffer, offset, value)
    }
}

impl<C: CaptureTarget + BarrierCalls> BarrierCalls for CapturedContext<C> {
    #[inline]
    fn barrier(&mut self, groups: &[BarrierGroup<'_>]) {
        if !self.tap_idle() {
            self.keep(move |lists| Method::Barrier(barriers(lists, groups)));
        }
        self.context.barrier(groups)
    }
    #[inline]
    fn resource_barrier(&mut self, list: &[ResourceBarrier]) {
        if self.tap_active() {
            for barrier in list {
                self.tap
                    .call(Method::ResourceBarrier(legacy_barrier(barrier)));
            }
        }
        self.context.resource_barrier(list)
    }
    #[inline]
    fn decompress_resource(&mut self, texture: recorder::Texture, into: Option<recorder::Texture>) {
        self.decompress_resource_x(texture, into, DecompressKinds::ALL, None)
    }
    #[inline]
    fn decompress_resource_x(
        &mut self,
        texture: recorder::Texture,
        into: Option<recorder::Texture>,
        kinds: DecompressKinds,
        region: Option<DecompressRegion>,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::DecompressResource {
                resource: Obj::of(ObjectKind::Texture, texture),
                options: Decompression {
                    into: into.map(|t| Obj::of(ObjectKind::Texture, t)),
                    kinds,
                    region: region.map(|r| {
                        let b = r.rect;
                        (r.subresource, [b.left, b.top, b.right, b.bottom])
                    }),
                },
            });
        }
        self.context
            .decompress_resource_x(texture, into, kinds, region)
    }
    #[inline]
    fn set_resource_compression(
        &mut self,
        texture: recorder::Texture,
        compressed: recorder::Compression,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::SetResourceCompression {
                resource: Obj::of(ObjectKind::Texture, texture),
                compression: compressed,
            });
        }
        self.context.set_resource_compression(texture, compressed)
    }
}

impl<C: CaptureTarget + EngineMemoryCalls> EngineMemoryCalls for CapturedContext<C> {
    #[inline]
    fn set_gds_range(&mut self, stage: recorder::Stage, offset: u32, size: u32) {
        if !self.tap_idle() {
            self.keep(move |_| Method::SetGdsRange {
                stage,
                offset,
                size,
            });
        }
        self.context.set_gds_range(stage, offset, size)
    }
    #[inline]
    fn write_gds(&mut self, offset: u32, values: &[u32]) {
        if !self.tap_idle() {
            self.keep(move |lists| Method::WriteGds {
                offset,
                values: lists.list(values.iter().copied()),
            });
        }
        self.context.write_gds(offset, values)
    }
    #[inline]
    fn read_gds(
        &mut self,
        offset: u32,
        count: u32,
        destination: recorder::Buffer,
        destination_offset: u64,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::ReadGds {
                offset,
                count,
                destination: Obj::of(ObjectKind::Buffer, destination),
                destination_offset: fit(destination_offset),
            });
        }
        self.context
            .read_gds(offset, count, destination, destination_offset)
    }
    #[inline]
    fn load_constant_ram(
        &mut self,
        buffer: recorder::Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::LoadConstantRam {
                buffer: Obj::of(ObjectKind::Buffer, buffer),
                buffer_offset: fit(buffer_offset),
                ram_offset,
                bytes,
            });
        }
        self.context
            .load_constant_ram(buffer, buffer_offset, ram_offset, bytes)
    }
    #[inline]
    fn store_constant_ram(
        &mut self,
        buffer: recorder::Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        if !self.tap_idle() {
            self.keep(move |_| Method::StoreConstantRam {
                buffer: Obj::of(ObjectKind::Buffer, buffer),
                buffer_offset: fit(buffer_offset),
                ram_offset,
                bytes,
            });
        }
        self.context
            .store_constant_ram(buffer, buffer_offset, ram_offset, bytes)
    }
}
