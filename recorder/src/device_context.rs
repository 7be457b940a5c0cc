//! [`DeviceContext`]: the calls every context shares, in one trait. A deferred context
//! ([`DeferredContext`](crate::DeferredContext)), the executor's `ImmediateContext` and the
//! `bundles` crate's `BundleRecorder` each implement it: the first two forward to the recording
//! core ([`Recorder`]), the bundle recorder checks the bundle rules of SPEC §7 first. Code
//! generic over `C: DeviceContext` (a renderer's draw loop, the trace replay) is compiled once
//! per context type: static dispatch, every forwarding method `#[inline]`, so the hot path is
//! what calling the core directly is.
//!
//! What only one context type can do is not here: `finish_command_list` and
//! `discard_command_list` (deferred contexts), `present`, `flush` and the getters (the
//! immediate context), `finish` and the remaps (bundle recorders).
//!
//! [`Mapped`] is what a map returns: the mapped bytes, unmapped when it is dropped, or kept
//! mapped with [`Mapped::keep_mapped`] for an [`unmap`](DeviceContext::unmap) later.
//!
//! [`forward_device_context!`](crate::forward_device_context) implements the trait for a type
//! that forwards each call to a value with methods of the same names (the core, or the type's
//! own inherent methods): the executor and the bundles crate use it, so the list of calls is
//! written here and in the trait, nowhere else.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use crate::barriers::{BarrierGroup, ResourceBarrier};
use crate::context::role::Role;
use crate::context::Recorder;
use crate::desc::*;
use crate::device::handle::*;
use crate::errors::{Error, RecordError};
use crate::list::ListStats;

/// Whether a map may write a default-usage buffer in place: Xbox One's
/// `D3D11_MAP_FLAG_ALLOW_USAGE_DEFAULT`, named (R-REC-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MapFlags {
    /// No flag: dynamic buffers (and, on the immediate context, staging buffers) only.
    #[default]
    None,
    /// `D3D11_MAP_FLAG_ALLOW_USAGE_DEFAULT`: `WriteNoOverwrite` (and, on the immediate context,
    /// read and write maps) of a default-usage buffer.
    AllowUsageDefault,
}

impl MapFlags {
    /// Whether default-usage buffers may be mapped.
    #[inline]
    pub fn allows_usage_default(self) -> bool {
        self == Self::AllowUsageDefault
    }
}

/// A vertex-buffer binding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VertexBuffer {
    /// The buffer bound at the slot; `None` unbinds it. It needs the vertex-buffer bind flag.
    pub buffer: Option<Buffer>,
    /// The distance in bytes from one vertex to the next.
    pub stride: u32,
    /// The byte offset of the first vertex in the buffer.
    pub offset: u32,
}

/// One binding of [`DeviceContext::set_fast_resources`](DeviceContext::set_fast_resources)
/// (R-FX-1): a kind, its stage where it has one, a slot and what to bind (`None` unbinds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastResource {
    /// A constant buffer of a stage (`STAGE.cb.SLOT` in traces).
    ConstantBuffer {
        /// The stage.
        stage: Stage,
        /// The constant-buffer slot.
        slot: u32,
        /// The buffer; it needs the constant-buffer bind flag.
        buffer: Option<Buffer>,
    },
    /// A shader-resource view of a stage (`STAGE.srv.SLOT`).
    ShaderResource {
        /// The stage.
        stage: Stage,
        /// The shader-resource slot.
        slot: u32,
        /// The view.
        view: Option<ShaderResourceView>,
    },
    /// A sampler of a stage (`STAGE.sampler.SLOT`).
    Sampler {
        /// The stage.
        stage: Stage,
        /// The sampler slot.
        slot: u32,
        /// The sampler.
        sampler: Option<SamplerState>,
    },
    /// A vertex buffer (`vb.SLOT`).
    VertexBuffer {
        /// The vertex-buffer slot.
        slot: u32,
        /// The buffer, its stride and offset.
        buffer: VertexBuffer,
    },
}

impl FastResource {
    /// The objects the entry names.
    pub(crate) fn object(&self) -> Option<(ObjectKind, RawHandle)> {
        match *self {
            Self::ConstantBuffer { buffer, .. } => buffer.map(|b| (ObjectKind::Buffer, b.0)),
            Self::ShaderResource { view, .. } => {
                view.map(|v| (ObjectKind::ShaderResourceView, v.0))
            }
            Self::Sampler { sampler, .. } => sampler.map(|s| (ObjectKind::SamplerState, s.0)),
            Self::VertexBuffer { buffer, .. } => buffer.buffer.map(|b| (ObjectKind::Buffer, b.0)),
        }
    }
}

/// A reusable list of fast bindings (R-FX-1, `SetFastResourcesIntoBatch`): recorded by
/// [`DeviceContext::set_fast_resources_into_batch`](DeviceContext::set_fast_resources_into_batch),
/// applied by [`DeviceContext::set_fast_resources_from_batch`](DeviceContext::set_fast_resources_from_batch)
/// on any context of the device, as often as wanted. The application owns it; it holds no
/// reference on what it names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FastResourceBatch {
    pub(crate) entries: Vec<FastResource>,
}

impl FastResourceBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }
    /// The entries recorded so far, in order.
    pub fn entries(&self) -> &[FastResource] {
        &self.entries
    }
    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Forgets the entries, keeping the memory.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// A batch of `entries` as they are, unchecked (the replay of a trace's batches builds them so):
/// applying it checks every entry, as applying any batch does.
impl From<Vec<FastResource>> for FastResourceBatch {
    fn from(entries: Vec<FastResource>) -> Self {
        Self { entries }
    }
}

/// The predicate value of `set_predication` (D3D11's `PredicateValue`): rendering is skipped
/// while the predicate query's answer equals it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PredicateValue {
    /// Skip while the predicate answers `TRUE` (D3D11's `TRUE`).
    #[default]
    True,
    /// Skip while the predicate answers `FALSE` (D3D11's `FALSE`).
    False,
}

impl PredicateValue {
    /// The value as D3D11's `BOOL`.
    #[inline]
    pub fn as_bool(self) -> bool {
        self == Self::True
    }
}

/// What `set_resource_compression` declares of a texture's contents (R-ST-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// The texture holds compressed data (color or depth compression in force).
    Compressed,
    /// The texture holds no compressed data.
    Decompressed,
}

impl Compression {
    /// Whether the texture is compressed.
    #[inline]
    pub fn is_compressed(self) -> bool {
        self == Self::Compressed
    }
}

/// The calls every context shares: binds, draws, dispatches, clears, copies, maps, queries,
/// waits. Implemented by [`DeferredContext`](crate::DeferredContext), the executor's
/// `ImmediateContext` and the `bundles` crate's `BundleRecorder` (which refuses what a bundle
/// may not record, SPEC §7). Bad input never panics: the call is refused and kept as the
/// context's error (R-REC-8); [`map`](Self::map) returns its refusal.
///
/// The methods below name the D3D11 call each one is. What a call records, its split points
/// and what refuses it (with which error kind) are documented on the deferred context's method
/// of the same name ([`DeferredContext`](crate::DeferredContext)); a bundle recorder refuses
/// more before it gets there (SPEC §7), and the immediate context runs what it records at once.
///
/// Use it through generics (`impl DeviceContext`, `C: DeviceContext`): static dispatch, the
/// cost of calling the context itself. It is also `dyn`-compatible for code that wants one
/// function for every context and does not count instructions (tests); the calls that take
/// `impl Into<Resource>` (`map`, `unmap`, `copy_resource`, `update_subresource`) need a sized
/// context.
///
/// ```
/// use recorder::*;
///
/// fn draw_triangle(context: &mut impl DeviceContext) {
///     context.set_primitive_topology(PrimitiveTopology::TriangleList);
///     context.draw(3, 0);
/// }
///
/// let device = Device::new(DeviceDesc::default());
/// let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
/// draw_triangle(&mut context);
/// let list = context.finish_command_list(RestoreState::ClearState).map_err(|e| e.error)?;
/// assert_eq!(list.stats().draws, 1);
/// # Ok::<(), recorder::Error>(())
/// ```
pub trait DeviceContext {
    /// Binds the input layout (`IASetInputLayout`).
    fn set_input_layout(&mut self, layout: Option<InputLayout>);
    /// Sets the primitive topology (`IASetPrimitiveTopology`).
    fn set_primitive_topology(&mut self, topology: PrimitiveTopology);
    /// Binds vertex buffers from slot `start` (`IASetVertexBuffers`).
    fn set_vertex_buffers(&mut self, start: u32, buffers: &[VertexBuffer]);
    /// Binds the index buffer (`IASetIndexBuffer`).
    fn set_index_buffer(&mut self, buffer: Option<Buffer>, format: Format, offset: u32);
    /// Sets the primitive reset index.
    fn set_primitive_reset_index(&mut self, value: u32);
    /// Binds a stage's shader (`VSSetShader` and the others).
    fn set_shader(&mut self, stage: Stage, shader: Option<Shader>);
    /// Binds a stage's constant buffers from slot `start` (`*SetConstantBuffers`).
    fn set_constant_buffers(&mut self, stage: Stage, start: u32, buffers: &[Option<Buffer>]);
    /// Binds a stage's shader-resource views from slot `start` (`*SetShaderResources`).
    fn set_shader_resources(
        &mut self,
        stage: Stage,
        start: u32,
        views: &[Option<ShaderResourceView>],
    );
    /// Binds a stage's samplers from slot `start` (`*SetSamplers`).
    fn set_samplers(&mut self, stage: Stage, start: u32, samplers: &[Option<SamplerState>]);
    /// Binds many slots of several kinds in one call, always under the fast contract
    /// (`SetFastResources`, R-FX-1): no reference, no split point, the view's minimum LOD.
    fn set_fast_resources(&mut self, entries: &[FastResource]);
    /// Checks `entries` and appends them to `batch` (`SetFastResourcesIntoBatch`, R-FX-1).
    fn set_fast_resources_into_batch(
        &mut self,
        batch: &mut FastResourceBatch,
        entries: &[FastResource],
    );
    /// Applies a batch in one call, as `set_fast_resources` of its entries (R-FX-1).
    fn set_fast_resources_from_batch(&mut self, batch: &FastResourceBatch);
    /// Binds one shader-resource view under the fast contract (`XXSetFastShaderResource`, R-FX-1).
    fn set_fast_shader_resource(
        &mut self,
        stage: Stage,
        slot: u32,
        view: Option<ShaderResourceView>,
    );
    /// Binds a view of a default resource placed at `address` (`XXSetPlacementShaderResource`,
    /// R-FX-2).
    fn set_placement_shader_resource(
        &mut self,
        stage: Stage,
        slot: u32,
        view: ShaderResourceView,
        address: u64,
    );
    /// Binds a default-usage constant buffer placed at `address` (`SetPlacement`, R-FX-2).
    fn set_placement_constant_buffer(
        &mut self,
        stage: Stage,
        slot: u32,
        buffer: Buffer,
        address: u64,
    );
    /// Binds a default-usage vertex buffer placed at `address` (R-FX-2).
    fn set_placement_vertex_buffer(
        &mut self,
        slot: u32,
        buffer: Buffer,
        stride: u32,
        offset: u32,
        address: u64,
    );
    /// Binds a default-usage index buffer placed at `address` (`IASetPlacementIndexBuffer`,
    /// R-FX-2).
    fn set_placement_index_buffer(&mut self, buffer: Buffer, address: u64, format: Format);
    /// Binds the compute stage's unordered-access views (`CSSetUnorderedAccessViews`).
    fn set_compute_unordered_access_views(
        &mut self,
        start: u32,
        views: &[Option<UnorderedAccessView>],
    );
    /// Binds the render targets and depth stencil (`OMSetRenderTargets`).
    fn set_render_targets(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
    );
    /// Binds the render targets, depth stencil and output-merger UAVs (`OMSetRenderTargetsAndUnorderedAccessViews`).
    fn set_render_targets_and_unordered_access_views(
        &mut self,
        render_targets: &[Option<RenderTargetView>],
        depth_stencil: Option<DepthStencilView>,
        uav_start: u32,
        uavs: &[Option<UnorderedAccessView>],
    );
    /// Binds the blend state (`OMSetBlendState`).
    fn set_blend_state(&mut self, state: Option<BlendState>, factor: [f32; 4], sample_mask: u32);
    /// Binds the depth-stencil state (`OMSetDepthStencilState`).
    fn set_depth_stencil_state(&mut self, state: Option<DepthStencilState>, stencil_ref: u32);
    /// Binds the rasterizer state (`RSSetState`).
    fn set_rasterizer_state(&mut self, state: Option<RasterizerState>);
    /// Sets the viewports (`RSSetViewports`).
    fn set_viewports(&mut self, viewports: &[Viewport]);
    /// Sets the scissor rectangles (`RSSetScissorRects`).
    fn set_scissor_rects(&mut self, rects: &[Rect]);
    /// Sets the predicate (`SetPredication`).
    fn set_predication(&mut self, predicate: Option<Query>, value: PredicateValue);
    /// Resets every binding to the ClearState defaults (`ClearState`).
    fn clear_state(&mut self);
    /// Draws (`Draw`).
    fn draw(&mut self, vertex_count: u32, start_vertex: u32);
    /// Draws indexed (`DrawIndexed`).
    fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32);
    /// Draws instanced (`DrawInstanced`).
    fn draw_instanced(
        &mut self,
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    );
    /// Draws indexed and instanced (`DrawIndexedInstanced`).
    fn draw_indexed_instanced(
        &mut self,
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    );
    /// Draws what the stream-output buffer holds (`DrawAuto`).
    fn draw_auto(&mut self);
    /// Draws instanced with arguments from a buffer (`DrawInstancedIndirect`).
    fn draw_instanced_indirect(&mut self, args: Buffer, offset: u32);
    /// Draws indexed and instanced with arguments from a buffer (`DrawIndexedInstancedIndirect`).
    fn draw_indexed_instanced_indirect(&mut self, args: Buffer, offset: u32);
    /// Dispatches compute work (`Dispatch`).
    fn dispatch(&mut self, x: u32, y: u32, z: u32);
    /// Dispatches with arguments from a buffer (`DispatchIndirect`).
    fn dispatch_indirect(&mut self, args: Buffer, offset: u32);
    /// Clears a render target (`ClearRenderTargetView`).
    fn clear_render_target_view(&mut self, view: RenderTargetView, color: [f32; 4]);
    /// Clears a depth stencil (`ClearDepthStencilView`).
    fn clear_depth_stencil_view(
        &mut self,
        view: DepthStencilView,
        flags: ClearFlags,
        depth: f32,
        stencil: u8,
    );
    /// Copies a resource (`CopyResource`).
    fn copy_resource(&mut self, destination: impl Into<Resource>, source: impl Into<Resource>)
    where
        Self: Sized;
    /// Writes data into a resource (`UpdateSubresource`).
    fn update_subresource(&mut self, resource: impl Into<Resource>, data: &[u8])
    where
        Self: Sized;
    /// Copies bytes of a buffer into another or, without overlap, itself (`CopyBufferRegion`,
    /// R-BAR-7); refused on a bundle recorder.
    fn copy_buffer_region(
        &mut self,
        destination: Buffer,
        destination_offset: u64,
        source: Buffer,
        source_offset: u64,
        bytes: u64,
    );
    /// Copies texels of a texture subresource into another or, without overlap, itself
    /// (`CopyTextureRegion`, R-BAR-7); refused on a bundle recorder.
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
    );
    /// Copies a UAV's hidden counter into a buffer (`CopyStructureCount`).
    fn copy_structure_count(&mut self, destination: Buffer, offset: u32, view: UnorderedAccessView);
    /// Enhanced barriers in groups (`Barrier`, R-BAR-1); refused on a bundle recorder.
    fn barrier(&mut self, groups: &[BarrierGroup<'_>]);
    /// Legacy resource barriers (`ResourceBarrier`, R-BAR-6); refused on a bundle recorder.
    fn resource_barrier(&mut self, barriers: &[ResourceBarrier]);
    /// Ends a map left open ([`Mapped::keep_mapped`]) (`Unmap`).
    fn unmap(&mut self, resource: impl Into<Resource>)
    where
        Self: Sized;
    /// Begins a query (`Begin`).
    fn begin_query(&mut self, query: Query);
    /// Ends a query (`End`).
    fn end_query(&mut self, query: Query);
    /// Writes a query's result at this point of the stream (`WriteQuery`, R-FX-3): a
    /// timestamp's tick now, a scoped query's counts so far. Fast semantics on every context.
    fn write_query(&mut self, query: Query);
    /// Clears a query's result and counts (`ResetQuery`, R-FX-3). Fast semantics on every
    /// context.
    fn reset_query(&mut self, query: Query);
    /// Sets how an occlusion or predicate query counts (`ConfigureQuery`, R-FX-3). Fast
    /// semantics on every context.
    fn configure_query(&mut self, query: Query, mode: QueryMode);
    /// Predicates the following draws on any query's answer (`SetPredicationFromQuery`,
    /// R-FX-3): no reference is taken on the query, even on a legacy context.
    fn set_predication_from_query(&mut self, query: Option<Query>, value: PredicateValue);
    /// Decompresses a texture's color or depth compression (`DecompressResource`).
    fn decompress_resource(&mut self, texture: Texture, into: Option<Texture>);
    /// Marks a texture compressed or not (`SetResourceCompression`).
    fn set_resource_compression(&mut self, texture: Texture, compressed: Compression);
    /// Clamps a texture's mip levels (`SetResourceMinLOD`).
    fn set_resource_min_lod(&mut self, texture: Texture, min_lod: f32);
    /// Clamps a view's mip levels (`SetShaderResourceViewMinLOD`).
    fn set_shader_resource_view_min_lod(&mut self, view: ShaderResourceView, min_lod: f32);
    /// Waits until the swap chain's back buffer may be written (`InsertWaitOnPresent`).
    fn insert_wait_on_present(&mut self, chain: SwapChain);
    /// Waits for another engine's fence (`InsertWaitOnFence`).
    fn insert_wait_on_fence(&mut self, engine: Engine, value: u64);
    /// Writes a value to memory when the work before it is done (`WriteValueBottomOfPipe`).
    fn write_value_bottom_of_pipe(&mut self, buffer: Buffer, offset: u64, value: u64);
    /// Waits until memory holds a value (`InsertWaitOnMemory`).
    fn insert_wait_on_memory(&mut self, buffer: Buffer, offset: u64, value: u64);
    /// Partitions GDS counter memory for the pixel or compute stage (`SetGDSRange`, R-FX-4).
    fn set_gds_range(&mut self, stage: Stage, offset: u32, size: u32);
    /// Writes words into GDS (`WriteGDS`, R-FX-4).
    fn write_gds(&mut self, offset: u32, values: &[u32]);
    /// Copies GDS words into a buffer (`ReadGDS`, R-FX-4).
    fn read_gds(&mut self, offset: u32, count: u32, destination: Buffer, destination_offset: u64);
    /// Moves buffer bytes into constant RAM (`LoadConstantRam`, R-FX-5).
    fn load_constant_ram(
        &mut self,
        buffer: Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    );
    /// Moves constant-RAM bytes into a buffer (`StoreConstantRam`, R-FX-5).
    fn store_constant_ram(
        &mut self,
        buffer: Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    );
    /// Maps `resource` and returns its bytes, unmapped when the [`Mapped`] is dropped (or kept
    /// mapped with [`Mapped::keep_mapped`]); the refusal if the map was refused (R-REC-8: a
    /// refused map does not poison the list). See [`Recorder::map`] for the map types.
    fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error>
    where
        Self: Sized;
    /// Counters of the list (or batch, or bundle) being recorded so far.
    fn stats(&self) -> ListStats;
    /// The first error of the list being recorded, if any.
    fn error(&self) -> Option<&RecordError>;
    /// The error of the most recent refused call, until the next list begins.
    fn last_refusal(&self) -> Option<&Error>;
}

/// The bytes of a map: [`DeviceContext::map`]'s answer. Derefs to `[u8]`; dropping it unmaps
/// the resource (`Unmap`), [`keep_mapped`](Self::keep_mapped) leaves it mapped for an explicit
/// [`unmap`](DeviceContext::unmap) later (other calls in between, as a trace does). It borrows
/// the context mutably: nothing can finish the list, or take the batch, while it lives.
///
/// ```
/// use recorder::*;
///
/// let device = Device::new(DeviceDesc::default());
/// let buffer = device.create_buffer(&BufferDesc {
///     name: "per_draw", size: 16, usage: Usage::Dynamic, bind: BindFlags::CONSTANT,
///     ..Default::default()
/// })?;
/// let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
/// context.map(buffer, MapType::WriteDiscard, MapFlags::None)?[0] = 7; // unmapped here
/// let bytes = context.map(buffer, MapType::WriteNoOverwrite, MapFlags::None)?.keep_mapped();
/// bytes[1] = 8;
/// context.draw(3, 0); // still mapped
/// context.unmap(buffer);
/// assert!(context.finish_command_list(RestoreState::ClearState).is_ok());
/// # Ok::<(), recorder::Error>(())
/// ```
pub struct Mapped<'a, C: DeviceContext> {
    context: *mut C,
    resource: Resource,
    data: *mut u8,
    len: usize,
    borrow: PhantomData<&'a mut C>,
}

impl<'a, C: DeviceContext> Mapped<'a, C> {
    /// The map of `resource` on `context`, whose bytes are `len` bytes at `data`.
    ///
    /// # Safety
    ///
    /// `data` must be valid for reads and writes of `len` bytes for as long as `context` stays
    /// borrowed (`'a`) and until `resource` is unmapped, and nothing else may access those bytes
    /// meanwhile; `data`'s provenance must not come from the `context` borrow itself (it points
    /// into memory the context owns through a raw pointer, a chunk or a heap buffer), so that
    /// the borrow may be used again to unmap.
    pub unsafe fn new(context: &'a mut C, resource: Resource, data: *mut u8, len: usize) -> Self {
        Self {
            context,
            resource,
            data,
            len,
            borrow: PhantomData,
        }
    }

    /// The resource mapped.
    pub fn resource(&self) -> Resource {
        self.resource
    }

    /// Leaves the resource mapped and hands out its bytes for as long as the context stays
    /// borrowed; end the map with [`DeviceContext::unmap`] (D3D11's `Map` ... `Unmap`).
    pub fn keep_mapped(self) -> &'a mut [u8] {
        let this = std::mem::ManuallyDrop::new(self);
        // SAFETY: `new`'s contract: `data` is valid for `len` bytes, accessed by nothing else,
        // while the context stays borrowed for `'a`, which the returned slice keeps borrowed.
        unsafe { std::slice::from_raw_parts_mut(this.data, this.len) }
    }
}

impl<C: DeviceContext> Deref for Mapped<'_, C> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `new`'s contract: `len` valid bytes at `data`, accessed only through `self`.
        unsafe { std::slice::from_raw_parts(self.data, self.len) }
    }
}

impl<C: DeviceContext> DerefMut for Mapped<'_, C> {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only access.
        unsafe { std::slice::from_raw_parts_mut(self.data, self.len) }
    }
}

impl<C: DeviceContext> Drop for Mapped<'_, C> {
    fn drop(&mut self) {
        // SAFETY: `context` came from the `&'a mut C` given to `new`, still borrowed by `self`;
        // no slice of the data outlives this call (`deref` ties them to `&self`).
        unsafe { (*self.context).unmap(self.resource) };
    }
}

impl<C: DeviceContext> std::fmt::Debug for Mapped<'_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapped")
            .field("resource", &self.resource)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

/// Implements [`DeviceContext`]'s shared calls (all but `map`, `unmap`, `stats`, `error` and
/// `last_refusal`, which each type writes itself) for a type, by forwarding each to a value
/// with a method of the same name: `forward_device_context!(|this| this.recorder)` inside an
/// `impl DeviceContext for T` block forwards to the field `recorder`,
/// `forward_device_context!(|this| this)` to `T`'s own inherent methods (which take precedence
/// over the trait's in method calls). Every forwarder is `#[inline]`. For the executor's
/// immediate context and the bundles crate's recorder (see the [`engine`](crate::engine) module).
#[macro_export]
macro_rules! forward_device_context {
    (|$this:ident| $core:expr) => {
        #[inline]
        fn set_input_layout(&mut self, layout: Option<$crate::InputLayout>) {
            let $this = self;
            $core.set_input_layout(layout)
        }
        #[inline]
        fn set_primitive_topology(&mut self, topology: $crate::PrimitiveTopology) {
            let $this = self;
            $core.set_primitive_topology(topology)
        }
        #[inline]
        fn set_vertex_buffers(&mut self, start: u32, buffers: &[$crate::VertexBuffer]) {
            let $this = self;
            $core.set_vertex_buffers(start, buffers)
        }
        #[inline]
        fn set_index_buffer(
            &mut self,
            buffer: Option<$crate::Buffer>,
            format: $crate::Format,
            offset: u32,
        ) {
            let $this = self;
            $core.set_index_buffer(buffer, format, offset)
        }
        #[inline]
        fn set_primitive_reset_index(&mut self, value: u32) {
            let $this = self;
            $core.set_primitive_reset_index(value)
        }
        #[inline]
        fn set_shader(&mut self, stage: $crate::Stage, shader: Option<$crate::Shader>) {
            let $this = self;
            $core.set_shader(stage, shader)
        }
        #[inline]
        fn set_constant_buffers(
            &mut self,
            stage: $crate::Stage,
            start: u32,
            buffers: &[Option<$crate::Buffer>],
        ) {
            let $this = self;
            $core.set_constant_buffers(stage, start, buffers)
        }
        #[inline]
        fn set_shader_resources(
            &mut self,
            stage: $crate::Stage,
            start: u32,
            views: &[Option<$crate::ShaderResourceView>],
        ) {
            let $this = self;
            $core.set_shader_resources(stage, start, views)
        }
        #[inline]
        fn set_samplers(
            &mut self,
            stage: $crate::Stage,
            start: u32,
            samplers: &[Option<$crate::SamplerState>],
        ) {
            let $this = self;
            $core.set_samplers(stage, start, samplers)
        }
        #[inline]
        fn set_fast_resources(&mut self, entries: &[$crate::FastResource]) {
            let $this = self;
            $core.set_fast_resources(entries)
        }
        #[inline]
        fn set_fast_resources_into_batch(
            &mut self,
            batch: &mut $crate::FastResourceBatch,
            entries: &[$crate::FastResource],
        ) {
            let $this = self;
            $core.set_fast_resources_into_batch(batch, entries)
        }
        #[inline]
        fn set_fast_resources_from_batch(&mut self, batch: &$crate::FastResourceBatch) {
            let $this = self;
            $core.set_fast_resources_from_batch(batch)
        }
        #[inline]
        fn set_fast_shader_resource(
            &mut self,
            stage: $crate::Stage,
            slot: u32,
            view: Option<$crate::ShaderResourceView>,
        ) {
            let $this = self;
            $core.set_fast_shader_resource(stage, slot, view)
        }
        #[inline]
        fn set_placement_shader_resource(
            &mut self,
            stage: $crate::Stage,
            slot: u32,
            view: $crate::ShaderResourceView,
            address: u64,
        ) {
            let $this = self;
            $core.set_placement_shader_resource(stage, slot, view, address)
        }
        #[inline]
        fn set_placement_constant_buffer(
            &mut self,
            stage: $crate::Stage,
            slot: u32,
            buffer: $crate::Buffer,
            address: u64,
        ) {
            let $this = self;
            $core.set_placement_constant_buffer(stage, slot, buffer, address)
        }
        #[inline]
        fn set_placement_vertex_buffer(
            &mut self,
            slot: u32,
            buffer: $crate::Buffer,
            stride: u32,
            offset: u32,
            address: u64,
        ) {
            let $this = self;
            $core.set_placement_vertex_buffer(slot, buffer, stride, offset, address)
        }
        #[inline]
        fn set_placement_index_buffer(
            &mut self,
            buffer: $crate::Buffer,
            address: u64,
            format: $crate::Format,
        ) {
            let $this = self;
            $core.set_placement_index_buffer(buffer, address, format)
        }
        #[inline]
        fn set_compute_unordered_access_views(
            &mut self,
            start: u32,
            views: &[Option<$crate::UnorderedAccessView>],
        ) {
            let $this = self;
            $core.set_compute_unordered_access_views(start, views)
        }
        #[inline]
        fn set_render_targets(
            &mut self,
            render_targets: &[Option<$crate::RenderTargetView>],
            depth_stencil: Option<$crate::DepthStencilView>,
        ) {
            let $this = self;
            $core.set_render_targets(render_targets, depth_stencil)
        }
        #[inline]
        fn set_render_targets_and_unordered_access_views(
            &mut self,
            render_targets: &[Option<$crate::RenderTargetView>],
            depth_stencil: Option<$crate::DepthStencilView>,
            uav_start: u32,
            uavs: &[Option<$crate::UnorderedAccessView>],
        ) {
            let $this = self;
            $core.set_render_targets_and_unordered_access_views(
                render_targets,
                depth_stencil,
                uav_start,
                uavs,
            )
        }
        #[inline]
        fn set_blend_state(
            &mut self,
            state: Option<$crate::BlendState>,
            factor: [f32; 4],
            sample_mask: u32,
        ) {
            let $this = self;
            $core.set_blend_state(state, factor, sample_mask)
        }
        #[inline]
        fn set_depth_stencil_state(
            &mut self,
            state: Option<$crate::DepthStencilState>,
            stencil_ref: u32,
        ) {
            let $this = self;
            $core.set_depth_stencil_state(state, stencil_ref)
        }
        #[inline]
        fn set_rasterizer_state(&mut self, state: Option<$crate::RasterizerState>) {
            let $this = self;
            $core.set_rasterizer_state(state)
        }
        #[inline]
        fn set_viewports(&mut self, viewports: &[$crate::Viewport]) {
            let $this = self;
            $core.set_viewports(viewports)
        }
        #[inline]
        fn set_scissor_rects(&mut self, rects: &[$crate::Rect]) {
            let $this = self;
            $core.set_scissor_rects(rects)
        }
        #[inline]
        fn set_predication(
            &mut self,
            predicate: Option<$crate::Query>,
            value: $crate::PredicateValue,
        ) {
            let $this = self;
            $core.set_predication(predicate, value)
        }
        #[inline]
        fn clear_state(&mut self) {
            let $this = self;
            $core.clear_state()
        }
        #[inline]
        fn draw(&mut self, vertex_count: u32, start_vertex: u32) {
            let $this = self;
            $core.draw(vertex_count, start_vertex)
        }
        #[inline]
        fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) {
            let $this = self;
            $core.draw_indexed(index_count, start_index, base_vertex)
        }
        #[inline]
        fn draw_instanced(
            &mut self,
            vertex_count: u32,
            instance_count: u32,
            start_vertex: u32,
            start_instance: u32,
        ) {
            let $this = self;
            $core.draw_instanced(vertex_count, instance_count, start_vertex, start_instance)
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
            let $this = self;
            $core.draw_indexed_instanced(
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            )
        }
        #[inline]
        fn draw_auto(&mut self) {
            let $this = self;
            $core.draw_auto()
        }
        #[inline]
        fn draw_instanced_indirect(&mut self, args: $crate::Buffer, offset: u32) {
            let $this = self;
            $core.draw_instanced_indirect(args, offset)
        }
        #[inline]
        fn draw_indexed_instanced_indirect(&mut self, args: $crate::Buffer, offset: u32) {
            let $this = self;
            $core.draw_indexed_instanced_indirect(args, offset)
        }
        #[inline]
        fn dispatch(&mut self, x: u32, y: u32, z: u32) {
            let $this = self;
            $core.dispatch(x, y, z)
        }
        #[inline]
        fn dispatch_indirect(&mut self, args: $crate::Buffer, offset: u32) {
            let $this = self;
            $core.dispatch_indirect(args, offset)
        }
        #[inline]
        fn clear_render_target_view(&mut self, view: $crate::RenderTargetView, color: [f32; 4]) {
            let $this = self;
            $core.clear_render_target_view(view, color)
        }
        #[inline]
        fn clear_depth_stencil_view(
            &mut self,
            view: $crate::DepthStencilView,
            flags: $crate::ClearFlags,
            depth: f32,
            stencil: u8,
        ) {
            let $this = self;
            $core.clear_depth_stencil_view(view, flags, depth, stencil)
        }
        #[inline]
        fn copy_resource(
            &mut self,
            destination: impl Into<$crate::Resource>,
            source: impl Into<$crate::Resource>,
        ) {
            let $this = self;
            $core.copy_resource(destination, source)
        }
        #[inline]
        fn update_subresource(&mut self, resource: impl Into<$crate::Resource>, data: &[u8]) {
            let $this = self;
            $core.update_subresource(resource, data)
        }
        #[inline]
        fn copy_buffer_region(
            &mut self,
            destination: $crate::Buffer,
            destination_offset: u64,
            source: $crate::Buffer,
            source_offset: u64,
            bytes: u64,
        ) {
            let $this = self;
            $core.copy_buffer_region(
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
            destination: $crate::Texture,
            destination_subresource: u32,
            x: u32,
            y: u32,
            source: $crate::Texture,
            source_subresource: u32,
            source_box: $crate::CopyBox,
        ) {
            let $this = self;
            $core.copy_texture_region(
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
            destination: $crate::Buffer,
            offset: u32,
            view: $crate::UnorderedAccessView,
        ) {
            let $this = self;
            $core.copy_structure_count(destination, offset, view)
        }
        #[inline]
        fn barrier(&mut self, groups: &[$crate::BarrierGroup<'_>]) {
            let $this = self;
            $core.barrier(groups)
        }
        #[inline]
        fn resource_barrier(&mut self, barriers: &[$crate::ResourceBarrier]) {
            let $this = self;
            $core.resource_barrier(barriers)
        }
        #[inline]
        fn begin_query(&mut self, query: $crate::Query) {
            let $this = self;
            $core.begin_query(query)
        }
        #[inline]
        fn end_query(&mut self, query: $crate::Query) {
            let $this = self;
            $core.end_query(query)
        }
        #[inline]
        fn write_query(&mut self, query: $crate::Query) {
            let $this = self;
            $core.write_query(query)
        }
        #[inline]
        fn reset_query(&mut self, query: $crate::Query) {
            let $this = self;
            $core.reset_query(query)
        }
        #[inline]
        fn configure_query(&mut self, query: $crate::Query, mode: $crate::QueryMode) {
            let $this = self;
            $core.configure_query(query, mode)
        }
        #[inline]
        fn set_predication_from_query(
            &mut self,
            query: Option<$crate::Query>,
            value: $crate::PredicateValue,
        ) {
            let $this = self;
            $core.set_predication_from_query(query, value)
        }
        #[inline]
        fn decompress_resource(&mut self, texture: $crate::Texture, into: Option<$crate::Texture>) {
            let $this = self;
            $core.decompress_resource(texture, into)
        }
        #[inline]
        fn set_resource_compression(
            &mut self,
            texture: $crate::Texture,
            compressed: $crate::Compression,
        ) {
            let $this = self;
            $core.set_resource_compression(texture, compressed)
        }
        #[inline]
        fn set_resource_min_lod(&mut self, texture: $crate::Texture, min_lod: f32) {
            let $this = self;
            $core.set_resource_min_lod(texture, min_lod)
        }
        #[inline]
        fn set_shader_resource_view_min_lod(
            &mut self,
            view: $crate::ShaderResourceView,
            min_lod: f32,
        ) {
            let $this = self;
            $core.set_shader_resource_view_min_lod(view, min_lod)
        }
        #[inline]
        fn insert_wait_on_present(&mut self, chain: $crate::SwapChain) {
            let $this = self;
            $core.insert_wait_on_present(chain)
        }
        #[inline]
        fn insert_wait_on_fence(&mut self, engine: $crate::Engine, value: u64) {
            let $this = self;
            $core.insert_wait_on_fence(engine, value)
        }
        #[inline]
        fn write_value_bottom_of_pipe(&mut self, buffer: $crate::Buffer, offset: u64, value: u64) {
            let $this = self;
            $core.write_value_bottom_of_pipe(buffer, offset, value)
        }
        #[inline]
        fn insert_wait_on_memory(&mut self, buffer: $crate::Buffer, offset: u64, value: u64) {
            let $this = self;
            $core.insert_wait_on_memory(buffer, offset, value)
        }
        #[inline]
        fn set_gds_range(&mut self, stage: $crate::Stage, offset: u32, size: u32) {
            let $this = self;
            $core.set_gds_range(stage, offset, size)
        }
        #[inline]
        fn write_gds(&mut self, offset: u32, values: &[u32]) {
            let $this = self;
            $core.write_gds(offset, values)
        }
        #[inline]
        fn read_gds(
            &mut self,
            offset: u32,
            count: u32,
            destination: $crate::Buffer,
            destination_offset: u64,
        ) {
            let $this = self;
            $core.read_gds(offset, count, destination, destination_offset)
        }
        #[inline]
        fn load_constant_ram(
            &mut self,
            buffer: $crate::Buffer,
            buffer_offset: u64,
            ram_offset: u32,
            bytes: u32,
        ) {
            let $this = self;
            $core.load_constant_ram(buffer, buffer_offset, ram_offset, bytes)
        }
        #[inline]
        fn store_constant_ram(
            &mut self,
            buffer: $crate::Buffer,
            buffer_offset: u64,
            ram_offset: u32,
            bytes: u32,
        ) {
            let $this = self;
            $core.store_constant_ram(buffer, buffer_offset, ram_offset, bytes)
        }
    };
}

impl<R: Role> DeviceContext for Recorder<R> {
    forward_device_context!(|this| this);

    #[inline]
    fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error> {
        Recorder::map(self, resource, map_type, flags)
    }

    #[inline]
    fn unmap(&mut self, resource: impl Into<Resource>) {
        Recorder::unmap(self, resource)
    }

    fn stats(&self) -> ListStats {
        Recorder::stats(self)
    }

    fn error(&self) -> Option<&RecordError> {
        Recorder::error(self)
    }

    fn last_refusal(&self) -> Option<&Error> {
        Recorder::last_refusal(self)
    }
}
