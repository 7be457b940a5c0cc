//! The calls a bundle may not record. They exist on [`BundleRecorder`] with the signatures of the
//! deferred context's, so that code (and a trace) calling them on a bundle gets the error a
//! bundle raises, counted and kept like any refused call (R-REC-8):
//!
//! - R-B-7, `inherited_state_in_bundle`: state a bundle always inherits from the executing
//!   context: render targets and output-merger UAVs, blend, depth-stencil and rasterizer state,
//!   viewports, scissors, predication, compute UAVs, and (our reading) the primitive reset index,
//!   a context register like the others. Stream-output targets have no recording call in this
//!   engine, so there is nothing to refuse for them.
//! - R-B-8, `unsupported_in_bundle`: clear_state, clears, map / unmap, copies,
//!   update_subresource, queries, fence and memory waits, waits on present, barriers (R-BAR-1),
//!   decompression and
//!   compression state; and `dispatch_indirect`, which R-B-2 does not list among the allowed
//!   draws (the indirect draws are allowed, a dispatch is, an indirect dispatch is not).
//!
//! These are calls of [`DeviceContext`], the trait every context implements, so a bundle
//! recorder has them and refuses them. The R-B-8 calls outside that trait (executing a command
//! list, calling a bundle, inserting a fence, present) do not exist on a bundle recorder at all:
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! let list = device.create_deferred_context(&DeferredContextDesc::default())?
//!     .finish_command_list(RestoreState::ClearState).map_err(|e| e.error)?;
//! recorder.execute_command_list(&list, RestoreState::ClearState); // no such call
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.insert_fence(Engine::Graphics); // no such call
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! Nor do device context state objects (R-FX-6: a bundle is fast, and fast semantics keeps no
//! state to swap; on a fast deferred context both calls are refused with `forbidden_in_fast`):
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut state = device.create_deferred_context(&DeferredContextDesc::default())?
//!     .create_device_context_state()?;
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.swap_device_context_state(&mut state); // no such call
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! A trace that makes one on a bundle gets `unsupported_in_bundle` through
//! [`BundleRecorder::refuse_unsupported`].
//!
//! `map` returns its refusal, which does not poison the bundle: as on a deferred context, a
//! call that reports its own result is no sticky error (R-REC-8).

use recorder::*;

use crate::recorder::BundleRecorder;

impl BundleRecorder {
    #[cold]
    fn inherited(&mut self, call: &'static str) {
        self.context.refuse(Error::InheritedStateInBundle { call });
    }

    #[cold]
    fn unsupported(&mut self, call: &'static str) {
        self.context.refuse(Error::UnsupportedInBundle { call });
    }

    // ----- R-B-7: always inherited -------------------------------------------------------------

    /// Always refused with `inherited_state_in_bundle` (R-B-7): a bundle draws to the executing
    /// context's render targets and depth stencil.
    pub fn set_render_targets(
        &mut self,
        _render_targets: &[Option<RenderTargetView>],
        _depth_stencil: Option<DepthStencilView>,
    ) {
        self.inherited("set_render_targets");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7): targets and output-merger UAVs are
    /// the executing context's.
    pub fn set_render_targets_and_unordered_access_views(
        &mut self,
        _render_targets: &[Option<RenderTargetView>],
        _depth_stencil: Option<DepthStencilView>,
        _uav_start: u32,
        _uavs: &[Option<UnorderedAccessView>],
    ) {
        self.inherited("set_render_targets_and_unordered_access_views");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7): the blend state is the executing
    /// context's.
    pub fn set_blend_state(
        &mut self,
        _state: Option<BlendState>,
        _factor: [f32; 4],
        _sample_mask: u32,
    ) {
        self.inherited("set_blend_state");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7): the depth-stencil state is the
    /// executing context's.
    pub fn set_depth_stencil_state(
        &mut self,
        _state: Option<DepthStencilState>,
        _stencil_ref: u32,
    ) {
        self.inherited("set_depth_stencil_state");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7): the rasterizer state is the
    /// executing context's.
    pub fn set_rasterizer_state(&mut self, _state: Option<RasterizerState>) {
        self.inherited("set_rasterizer_state");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7): the viewports are the executing
    /// context's.
    pub fn set_viewports(&mut self, _viewports: &[Viewport]) {
        self.inherited("set_viewports");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7): the scissor rectangles are the
    /// executing context's.
    pub fn set_scissor_rects(&mut self, _rects: &[Rect]) {
        self.inherited("set_scissor_rects");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7): predication is the executing
    /// context's.
    pub fn set_predication(&mut self, _predicate: Option<Query>, _value: PredicateValue) {
        self.inherited("set_predication");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7): the compute UAVs are the executing
    /// context's.
    pub fn set_compute_unordered_access_views(
        &mut self,
        _start: u32,
        _views: &[Option<UnorderedAccessView>],
    ) {
        self.inherited("set_compute_unordered_access_views");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7, our reading): the reset index is a
    /// context register like the others the bundle inherits.
    pub fn set_primitive_reset_index(&mut self, _value: u32) {
        self.inherited("set_primitive_reset_index");
    }

    // ----- R-B-8: unsupported ------------------------------------------------------------------

    /// Always refused with `unsupported_in_bundle` (R-B-8).
    pub fn clear_state(&mut self) {
        self.unsupported("clear_state");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): clears are recorded on contexts.
    pub fn clear_render_target_view(&mut self, _view: RenderTargetView, _color: [f32; 4]) {
        self.unsupported("clear_render_target_view");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): clears are recorded on contexts.
    pub fn clear_depth_stencil_view(
        &mut self,
        _view: DepthStencilView,
        _flags: ClearFlags,
        _depth: f32,
        _stencil: u8,
    ) {
        self.unsupported("clear_depth_stencil_view");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8). As on a deferred context, the
    /// refusal is returned and does not poison the bundle (R-REC-8).
    pub fn map(
        &mut self,
        _resource: impl Into<Resource>,
        _map_type: MapType,
        _flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error> {
        Err(self
            .context
            .refuse_reported(Error::UnsupportedInBundle { call: "map" }))
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): a bundle maps nothing.
    pub fn unmap(&mut self, _resource: impl Into<Resource>) {
        self.unsupported("unmap");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): copies are recorded on contexts.
    pub fn copy_resource(
        &mut self,
        _destination: impl Into<Resource>,
        _source: impl Into<Resource>,
    ) {
        self.unsupported("copy_resource");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): copies, region copies included
    /// (R-BAR-7), are recorded on contexts.
    pub fn copy_buffer_region(
        &mut self,
        _destination: Buffer,
        _destination_offset: u64,
        _source: Buffer,
        _source_offset: u64,
        _bytes: u64,
    ) {
        self.unsupported("copy_buffer_region");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-BAR-7).
    #[allow(clippy::too_many_arguments)]
    pub fn copy_texture_region(
        &mut self,
        _destination: Texture,
        _destination_subresource: u32,
        _x: u32,
        _y: u32,
        _source: Texture,
        _source_subresource: u32,
        _source_box: CopyBox,
    ) {
        self.unsupported("copy_texture_region");
    }

    /// Always refused with `unsupported_in_bundle` (R-BAR-1: barriers are recorded into lists,
    /// not bundles).
    pub fn barrier(&mut self, _groups: &[BarrierGroup<'_>]) {
        self.unsupported("barrier");
    }

    /// Always refused with `unsupported_in_bundle` (R-BAR-1, R-BAR-6).
    pub fn resource_barrier(&mut self, _barriers: &[ResourceBarrier]) {
        self.unsupported("resource_barrier");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8).
    pub fn copy_structure_count(
        &mut self,
        _destination: Buffer,
        _offset: u32,
        _view: UnorderedAccessView,
    ) {
        self.unsupported("copy_structure_count");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): a bundle carries no data.
    pub fn update_subresource(&mut self, _resource: impl Into<Resource>, _data: &[u8]) {
        self.unsupported("update_subresource");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): queries are recorded on contexts.
    pub fn begin_query(&mut self, _query: Query) {
        self.unsupported("begin_query");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): queries are recorded on contexts.
    pub fn end_query(&mut self, _query: Query) {
        self.unsupported("end_query");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-FX-3): queries are recorded on
    /// contexts.
    pub fn write_query(&mut self, _query: Query) {
        self.unsupported("write_query");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-FX-3): queries are recorded on
    /// contexts.
    pub fn reset_query(&mut self, _query: Query) {
        self.unsupported("reset_query");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-FX-3): queries are recorded on
    /// contexts.
    pub fn configure_query(&mut self, _query: Query, _mode: QueryMode) {
        self.unsupported("configure_query");
    }

    /// Always refused with `inherited_state_in_bundle` (R-B-7, R-FX-3): predication is the
    /// executing context's, as for `set_predication`.
    pub fn set_predication_from_query(&mut self, _query: Option<Query>, _value: PredicateValue) {
        self.inherited("set_predication_from_query");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): waits are recorded on contexts.
    pub fn insert_wait_on_fence(&mut self, _engine: Engine, _value: u64) {
        self.unsupported("insert_wait_on_fence");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8).
    pub fn write_value_bottom_of_pipe(&mut self, _buffer: Buffer, _offset: u64, _value: u64) {
        self.unsupported("write_value_bottom_of_pipe");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): waits are recorded on contexts.
    pub fn insert_wait_on_memory(&mut self, _buffer: Buffer, _offset: u64, _value: u64) {
        self.unsupported("insert_wait_on_memory");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-FX-4): GDS is the contexts'.
    pub fn set_gds_range(&mut self, _stage: Stage, _offset: u32, _size: u32) {
        self.unsupported("set_gds_range");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-FX-4): a bundle carries no data.
    pub fn write_gds(&mut self, _offset: u32, _values: &[u32]) {
        self.unsupported("write_gds");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-FX-4): memory writes are recorded
    /// on contexts.
    pub fn read_gds(
        &mut self,
        _offset: u32,
        _count: u32,
        _destination: Buffer,
        _destination_offset: u64,
    ) {
        self.unsupported("read_gds");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-FX-5): the constant engine's RAM
    /// holds the bundle's own overrides (R-B-5).
    pub fn load_constant_ram(
        &mut self,
        _buffer: Buffer,
        _buffer_offset: u64,
        _ram_offset: u32,
        _bytes: u32,
    ) {
        self.unsupported("load_constant_ram");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8, R-FX-5).
    pub fn store_constant_ram(
        &mut self,
        _buffer: Buffer,
        _buffer_offset: u64,
        _ram_offset: u32,
        _bytes: u32,
    ) {
        self.unsupported("store_constant_ram");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8): waits are recorded on contexts.
    pub fn insert_wait_on_present(&mut self, _chain: SwapChain) {
        self.unsupported("insert_wait_on_present");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8).
    pub fn decompress_resource(&mut self, _texture: Texture, _into: Option<Texture>) {
        self.unsupported("decompress_resource");
    }

    /// Always refused with `unsupported_in_bundle` (R-B-8).
    pub fn set_resource_compression(&mut self, _texture: Texture, _compressed: Compression) {
        self.unsupported("set_resource_compression");
    }

    /// Not among R-B-2's draws (see the module essay).
    pub fn dispatch_indirect(&mut self, _args: Buffer, _offset: u32) {
        self.unsupported("dispatch_indirect");
    }
}
