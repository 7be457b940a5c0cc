//! A real GPU for the engine (SPEC §16): the commands the GPU model applies, and the draws it
//! records, translated to Vulkan as DXVK translates D3D11, with the model as the oracle of what
//! every draw bound (R-GPU-1 .. R-GPU-4).
//!
//! **In:** what [`executor::GpuModel`] hands an [`executor::GpuBackend`] (install one with
//! `ImmediateContext::set_gpu_backend`): non-draw commands after the model applied them, each
//! draw's resolved record, presents and submissions; and what the `recorder::Device` keeps of
//! each object (its info, and its R-GPU-2 contents: shader code, input elements, state fields,
//! initial bytes); the read and write maps of staging resources on the immediate context
//! ([`executor::GpuBackend::read_mapped`], `write_mapped`). **Out:** Vulkan commands on one
//! graphics queue; the GPU's bytes of a mapped staging resource (R-GPU-2); the pixels of each present
//! ([`VulkanBackend::presented_pixels`], [`VulkanBackend::write_png`]); refusals (a shader
//! without code at a draw, a construct not translated yet, a bound state the record disagrees
//! with) returned as [`recorder::Error::GpuBackend`], which the model reports as violations;
//! the validation layer's messages ([`VulkanBackend::validation_messages`]); each query's GPU
//! result ([`VulkanBackend::query_result`], which the immediate context's `get_data` returns
//! unless [`VulkanOptions::gpu_query_results`] is off).
//!
//! **How each D3D11 construct maps (DXVK being the reference).**
//!
//! | D3D11 | Vulkan |
//! |---|---|
//! | texture (2D, mips, array) | `VkImage`, optimal tiling, made at first use; its layout tracked |
//! | SRV / UAV of a texture, RTV, DSV | one `VkImageView` per view and the texture its record names (a legacy swap-chain view moves at each present, R-EX-7) |
//! | buffer | device-local `VkBuffer`; initial data and `update_subresource` through the ring |
//! | dynamic buffer instance (write-discard map) | a region of the per-frame upload ring |
//! | sampler state | `VkSampler` per handle (D3D11 defaults without fields) |
//! | shader (WGSL / SPIR-V) | naga → SPIR-V → `VkShaderModule`, per handle |
//! | shaders + layout + strides + topology + states + formats | a `VkPipeline` per key, `VkPipelineCache` |
//! | viewports, scissors (all bound), blend factor, stencil ref | dynamic state (`vkCmdSetViewportWithCount`, `multiViewport` for several; more than `maxViewports` refused) |
//! | a view's minimum LOD (R-ST-6) | an image view with `VkImageViewMinLodCreateInfoEXT` (`VK_EXT_image_view_min_lod`), one per LOD read |
//! | primitive reset (cut) index (R-ST-5) | primitive restart, dynamic, on for an indexed strip whose reset index is the index type's all-ones value, off where no index can equal it; another value refused (`dynamic_state.rs`) |
//! | wireframe fill | `VK_POLYGON_MODE_LINE` (`fillModeNonSolid`, else refused) |
//! | `DepthClipEnable = FALSE` | `depthClampEnable = VK_TRUE` (`depthClamp`, else refused) |
//! | render targets | dynamic rendering, a pass opened lazily, closed at a target change, a transfer, a present, a flush |
//! | clear of a target in the open pass | `vkCmdClearAttachments` |
//! | clear of a colour target before a pass on it | `VK_ATTACHMENT_LOAD_OP_CLEAR` of that pass |
//! | clear of a target before another use | `vkCmdClearColorImage` / `vkCmdClearDepthStencilImage` |
//! | legacy implicit transitions | `vkCmdPipelineBarrier2` before each use that changes layout or follows a write, of exactly the mips and slices the use names (layouts tracked per subresource once part of an image moves, `image_layouts.rs`) |
//! | enhanced barriers (§9) | one `vkCmdPipelineBarrier2` entry each (sync → stages, access → access, layout → layout, discard → `UNDEFINED`), of the barrier's mips and slices, or of a buffer's offset and size |
//! | legacy `resource_barrier` (R-BAR-6) | the barrier of its enhanced equivalent (the model's equivalence table, `executor::legacy_equivalent`); a subresource index → that mip and slice; a split transition at its begin; UAV and aliasing barriers → memory barriers |
//! | SRV of a depth texture (`r32_float` of `d32_float`) | an image view in the depth format, depth aspect |
//! | present | the back buffer copied to host memory (headless), kept as RGBA8, PNG on request |
//! | dispatch, buffer UAVs | a compute pipeline per shader, storage buffers, between global barriers |
//! | `copy_resource` / `copy_buffer_region` | `vkCmdCopyImage` (every mip) / `vkCmdCopyBuffer` |
//! | `copy_texture_region` (a box of a subresource to a point of another) | one `vkCmdCopyImage` region, `TRANSFER_SRC`/`TRANSFER_DST` layouts, `GENERAL` for both ends within one texture |
//! | read, write, read_write map of a staging buffer or texture (immediate context) | flush, wait, the resource copied into a host-visible buffer and handed to the map (the GPU's bytes win over the model's); at a writing map's unmap, the bytes through the ring |
//! | occlusion / predicate query (`counting`, `binary`) | `VK_QUERY_TYPE_OCCLUSION` (`PRECISE` for `counting` where the device has `occlusionQueryPrecise`), ended and begun again at each pass boundary, flush and scope change, the pieces summed (`query_pools.rs`) |
//! | pipeline-statistics query | `VK_QUERY_TYPE_PIPELINE_STATISTICS` with the eleven D3D11 counters (hull invocations: tessellation-control patches), the same pieces |
//! | timestamp query (`end_query`, `write_query`) | `vkCmdWriteTimestamp2`, read in nanoseconds (`timestampPeriod`; the engine has no `disjoint` query) |
//! | `get_data` | the GPU's result after a submission ([`VulkanBackend::query_result`], `GpuBackend::query_result`) |
//! | predication on an occlusion or predicate query | `VK_EXT_conditional_rendering` around each predicated draw on the query's result copied by `vkCmdCopyQueryPoolResults` (`INVERTED` for the value `true`), or the GPU's result read back; the model's decision without the extension (`predication.rs`) |
//! | buffer SRV (structured, raw, typed) | a read-only storage buffer over the buffer (its ring instance if dynamic); typed views too: WGSL has no texel buffers |
//! | texture UAV (compute or draw) | a storage image view in `GENERAL`, the legacy transitions ordering it |
//! | a draw's buffer UAVs (output merger) | storage buffers (`fragmentStoresAndAtomics` / `vertexPipelineStoresAndAtomics`, else refused), global barriers before and after the draw (the pass closed) |
//! | `DrawInstancedIndirect`, `DrawIndexedInstancedIndirect`, `DispatchIndirect` | `vkCmdDrawIndirect`, `vkCmdDrawIndexedIndirect`, `vkCmdDispatchIndirect` from the argument buffer (`INDIRECT_BUFFER` usage; what wrote it is made visible by the global barrier after every buffer write) |
//!
//! **Descriptor mapping (fixed, like DXVK's).** One descriptor set, set 0, by the engine's
//! rule [`recorder::shader_binding`]: for the stage of index `k` (vs 0, hs 1, ds 2, gs 3,
//! ps 4, cs 5), constant buffer slot `s` is binding `256k + s` (a `uniform` buffer), shader
//! resource slot `s` is `256k + 16 + s` (a sampled texture, or a read-only storage buffer for
//! a buffer's view; all 128 D3D11 slots), sampler slot `s` is `256k + 144 + s`, UAV slot `s` is
//! `256k + 160 + s` (a storage buffer, or a storage image for a texture's view). Which type a
//! shader-resource or UAV binding takes is what the code declares (reflected once per shader,
//! `views.rs`); a view of the other kind bound there is refused naming both. WGSL written for
//! the backend declares `@group(0) @binding(N)` by that rule: a pixel shader's constant buffer
//! 0 is `@binding(1024)`, its texture 0 `@binding(1040)`, its sampler 0 `@binding(1168)`, its
//! UAV 1 `@binding(1185)`; a vertex shader's constant buffer 0 is `@binding(0)`. The device's
//! shader check ([`NagaShaderCheck`], installed by [`VulkanBackend::new`]) refuses at creation
//! code whose reflected slots are not the declared ones. Set 0 is pushed
//! (`VK_KHR_push_descriptor`) where the device has it and the set fits `maxPushDescriptors`,
//! else allocated from the frame's pools (`descriptors.rs`).
//!
//! **Cost (R-GPU-6).** A draw allocates nothing once the backend is warm
//! (`tests/r_gpu_6_no_allocation_per_draw.rs`), looks its pipeline up only when the key changes,
//! and records dynamic state, buffers and descriptors only where they differ from what is bound
//! (`draw_translation.rs`: a changed constant buffer is one pushed descriptor, a changed vertex
//! buffer one bind); the handle-keyed maps hash with Fx (`handle_hash.rs`). Three frames are in
//! flight (`command_frame.rs`): a submission waits only for the frame whose command buffer,
//! ring part and descriptor pools it reuses, or for what a read-back reads.
//!
//! **Not translated yet** (refused at the draw, or counted in
//! [`VulkanBackend::untranslated_commands`]): hull, domain and geometry shaders (so no shader
//! selects a viewport other than the first: WGSL has no `SV_ViewportArrayIndex` either), stream
//! output and auto draws (`VK_EXT_transform_feedback`), UAV counters (append / consume),
//! predication of a dispatch, or on a timestamp or statistics query (the model decides),
//! separate depth and stencil layouts (a barrier of one plane moves both),
//! `copy_structure_count` (the backend's UAVs have no hidden counter: no WGSL shader appends,
//! so a count would be invented), maps of depth textures, region copies between formats of
//! different size classes (refused), depth clears folded into load
//! operations, an empty vertex-buffer slot the layout reads (refused; empty constant-buffer
//! and shader-resource slots read zeros, `null_descriptors.rs`; an empty UAV slot the code
//! uses is refused), a view's minimum LOD above 0 on a device without `VK_EXT_image_view_min_lod` (refused at the draw, naming the view; lavapipe of Mesa 22.3 lacks it), UAV counters (append/consume), uniform texel buffers, multisampling (a texture of several samples is refused at its first use, naming it),
//! bundles as secondary command buffers (they arrive expanded, R-GPU-1). Clip space: WGSL's `y` is up,
//! as D3D11's, and naga's writer flips it for Vulkan; SPIR-V words are used as given, so their
//! positions are in Vulkan's clip space (`y` down).
//!
//! **Invariant.** The backend never changes what the model records; it only reads the records
//! and the device. Every Vulkan object is destroyed before the device ([`Drop`]).

mod barrier_translation;
mod byte_transfers;
mod clears;
mod command_frame;
mod descriptors;
mod dispatches;
mod draw_translation;
mod dynamic_state;
mod handle_hash;
mod image_layouts;
mod indirect_args;
mod instance;
mod null_descriptors;
mod oracle;
mod passes;
mod pipelines;
mod predication;
mod query_pools;
mod raw_baseline;
mod readback;
mod resources;
mod ring;
mod shaders;
mod translate;
mod views;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use ash::vk;
use executor::{Draw, GpuBackend};
use recorder::command::{Command, InstanceId};
use recorder::{Error, Handle, RawHandle, Semantics, SwapChain, Texture};

pub use barrier_translation::BarrierCounts;
pub use clears::ClearCounts;
pub use command_frame::GpuTime;
pub use descriptors::Origin;
pub use instance::BackendError;
pub use oracle::{BoundState, OracleCounts};
pub use predication::PredicationCounts;
pub use raw_baseline::{RawDraw, RawFrame, RawPipeline};
pub use readback::Pixels;
pub use shaders::{binding, reflect, NagaShaderCheck, Reflected, SlotKind};

/// How the backend is made.
#[derive(Clone, Debug)]
pub struct VulkanOptions {
    /// The Khronos validation layer with synchronization validation; its warnings and errors
    /// are kept ([`VulkanBackend::validation_messages`]).
    pub validation: bool,
    /// The oracle (R-GPU-4): each draw's bound state compared with the model's record.
    pub oracle: bool,
    /// The upload ring's size in bytes (per frame).
    pub ring_bytes: u64,
    /// Each present written as a PNG in this folder, `CHAIN.N.png` (N from 0 per chain), as
    /// `replay --backend vulkan --png DIR` asks (R-GPU-5); `None`: kept in memory only.
    pub png_dir: Option<std::path::PathBuf>,
    /// Predicated draws decided by the GPU, with `VK_EXT_conditional_rendering` where the
    /// device has it (`predication.rs`); `false`: by the model (a draw it skipped is not
    /// recorded), as on a device without the extension.
    pub conditional_rendering: bool,
    /// `get_data` on the immediate context returns the GPU's query results
    /// (`GpuBackend::query_result`); `false`: the model's (a trace's `expect query` lines
    /// are the model's values: `replay --backend vulkan` turns this off).
    pub gpu_query_results: bool,
}

impl Default for VulkanOptions {
    fn default() -> Self {
        Self {
            validation: false,
            oracle: true,
            ring_bytes: 32 << 20,
            png_dir: None,
            conditional_rendering: true,
            gpu_query_results: true,
        }
    }
}

/// The Vulkan backend (see the crate essay).
pub struct VulkanBackend {
    pub(crate) device: recorder::Device,
    pub(crate) options: VulkanOptions,
    pub(crate) resources: resources::Resources,
    pub(crate) ring: ring::Ring,
    pub(crate) pipelines: pipelines::Pipelines,
    pub(crate) descriptors: descriptors::Descriptors,
    pub(crate) frame: command_frame::Frame,
    pub(crate) pass: Option<passes::OpenPass>,
    pub(crate) bound: descriptors::Bound,
    /// The draw record filled in place by each draw (`draw_translation.rs`).
    pub(crate) resolved: Option<Box<draw_translation::Resolved>>,
    /// What changed since the last draw resolved (`draw_translation.rs`, R-GPU-6): the model's
    /// [`executor::DrawChanges`] of the draws handed since, with everything set by the backend's
    /// own events that may move what a resolution found (a command other than a bind, a flush,
    /// a barrier, a dispatch, an error).
    pub(crate) changes: executor::DrawChanges,
    /// The buffer locations found this frame (`draw_translation.rs`).
    pub(crate) locations: draw_translation::Locations,
    /// The last input layout's vertex-buffer slots (`draw_translation.rs`).
    pub(crate) layout_slots: draw_translation::LayoutSlots,
    /// Each dynamic buffer's latest instance, its size and its bytes (`byte_transfers.rs`).
    pub(crate) latest: handle_hash::HandleMap<RawHandle, (InstanceId, u64, Vec<u8>)>,
    pub(crate) presented: HashMap<RawHandle, Pixels>,
    /// Presents so far, per chain (the `N` of a written PNG's name).
    pub(crate) presents: HashMap<RawHandle, u64>,
    /// Colour clears not recorded yet, by texture (`clears.rs`).
    pub(crate) pending_clears: handle_hash::HandleMap<RawHandle, Vec<clears::PendingClear>>,
    pub(crate) clears: ClearCounts,
    pub(crate) barrier_counts: BarrierCounts,
    /// Scratch for the image barriers of one dependency (kept: no allocation per use).
    pub(crate) image_barriers: Vec<vk::ImageMemoryBarrier2<'static>>,
    pub(crate) oracle: OracleCounts,
    /// What the last draw bound, as the oracle compared it.
    pub(crate) oracle_last: Option<BoundState>,
    /// What the model's record of the last draw showed, as the oracle read it (kept: its lists
    /// are refilled draw after draw).
    pub(crate) oracle_expected: BoundState,
    pub(crate) untranslated: u64,
    pub(crate) queries: query_pools::Queries,
    pub(crate) predication: predication::Predication,
    /// The threaded raw frame's secondary command buffers (`raw_baseline.rs`).
    pub(crate) raw_secondaries: raw_baseline::RawSecondaries,
    /// Last: dropped after everything above was destroyed (`Drop`).
    pub(crate) gpu: instance::Gpu,
}

impl fmt::Debug for VulkanBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VulkanBackend")
            .field("gpu", &self.gpu)
            .field("options", &self.options)
            .field("pipelines", &self.pipelines.built)
            .field("submissions", &self.frame.submissions)
            .finish_non_exhaustive()
    }
}

impl VulkanBackend {
    /// A backend drawing `device`'s objects on the first Vulkan 1.3 device (discrete first;
    /// `VULKAN_BACKEND_DEVICE` a substring of the name to choose). Installs the naga shader
    /// check on `device` (R-GPU-2). Errs (no panic) without a loader or a usable device.
    pub fn new(device: &recorder::Device, options: VulkanOptions) -> Result<Self, BackendError> {
        let mut gpu = instance::Gpu::new(options.validation)?;
        let ring = ring::Ring::new(&gpu.device, &mut gpu.allocator, options.ring_bytes)?;
        let frame = command_frame::Frame::new(&gpu)?;
        // SAFETY: an empty pipeline cache description has no precondition.
        let cache = unsafe {
            gpu.device
                .create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None)
        }
        .map_err(instance::vk_failed("vkCreatePipelineCache"))?;
        let mut queries = query_pools::Queries::new(&gpu)?;
        queries.reset(&gpu.device, frame.cb);
        device.set_shader_check(Some(Arc::new(NagaShaderCheck)));
        Ok(Self {
            device: device.clone(),
            options,
            resources: Default::default(),
            ring,
            pipelines: pipelines::Pipelines {
                cache,
                ..Default::default()
            },
            descriptors: Default::default(),
            frame,
            pass: None,
            bound: Default::default(),
            resolved: None,
            changes: executor::DrawChanges::ALL,
            locations: Default::default(),
            layout_slots: Default::default(),
            latest: Default::default(),
            presented: HashMap::new(),
            presents: HashMap::new(),
            pending_clears: Default::default(),
            clears: ClearCounts::default(),
            barrier_counts: BarrierCounts::default(),
            image_barriers: Vec::new(),
            oracle: OracleCounts::default(),
            oracle_last: None,
            oracle_expected: BoundState::default(),
            untranslated: 0,
            queries,
            predication: Default::default(),
            raw_secondaries: Default::default(),
            gpu,
        })
    }

    /// The device's name (`llvmpipe (LLVM 15.0.6, 256 bits)` on lavapipe).
    pub fn device_name(&self) -> String {
        self.gpu.device_name()
    }

    /// The validation layer's warnings and errors so far (empty without validation).
    pub fn validation_messages(&self) -> Vec<String> {
        self.gpu.messages()
    }

    /// The pixels `chain` showed at its last present, RGBA8 rows top first.
    pub fn presented_pixels(&self, chain: SwapChain) -> Option<Pixels> {
        self.presented.get(&chain.raw()).cloned()
    }

    /// Writes the pixels of `chain`'s last present as a PNG file.
    pub fn write_png(&self, chain: SwapChain, path: &std::path::Path) -> Result<(), String> {
        let pixels = self
            .presented
            .get(&chain.raw())
            .ok_or_else(|| format!("swap chain {chain:?} was never presented"))?;
        readback::write_png(path, pixels)
    }

    /// Submits what was recorded and reads `texture` back as RGBA8 (for tests and tools).
    pub fn read_texture(&mut self, texture: Texture) -> Result<Pixels, Error> {
        self.read_back("read_texture", texture.raw())
    }

    /// Submits what was recorded and reads `buffer`'s contents back (what the GPU wrote).
    pub fn read_buffer(&mut self, buffer: recorder::Buffer) -> Result<Vec<u8>, Error> {
        self.read_buffer_back("read_buffer", buffer.raw())
    }

    /// The oracle's counts (R-GPU-4).
    pub fn oracle_counts(&self) -> OracleCounts {
        self.oracle
    }

    /// How the colour clears were recorded (folded into a load operation, in a pass, as a
    /// transfer).
    pub fn clear_counts(&self) -> ClearCounts {
        self.clears
    }

    /// The barriers recorded: the application's, translated, and the backend's own.
    pub fn barrier_counts(&self) -> BarrierCounts {
        self.barrier_counts
    }

    /// Pipelines built so far (a cache miss each).
    pub fn pipelines_built(&self) -> u64 {
        self.pipelines.built
    }

    /// Descriptor sets written or pushed so far (one per draw whose bindings changed).
    pub fn descriptor_sets_written(&self) -> u64 {
        self.descriptors.sets_written
    }

    /// Descriptors written or pushed so far: a draw that changed one constant buffer of a
    /// pushed set writes one (`descriptors.rs`, R-GPU-6).
    pub fn descriptors_written(&self) -> u64 {
        self.descriptors.descriptors_written
    }

    /// GPU time of the submissions waited for, from timestamp queries around each (zero where
    /// the queue has no timestamps): [`Self::wait_for_gpu`] first to count every submission.
    pub fn gpu_time(&self) -> GpuTime {
        self.frame.gpu_ns
    }

    /// Frames submitted so far.
    pub fn submissions(&self) -> u64 {
        self.frame.submissions
    }

    /// Submissions waited for so far (fence waits: a frame reused while in flight, a read-back,
    /// a submission whose query results are read). A flush waits for no submission of its own
    /// unless it is read back (`command_frame.rs`, R-GPU-6).
    pub fn fence_waits(&self) -> u64 {
        self.frame.waits
    }

    /// Submissions the GPU may still be running (at most the frames in flight).
    pub fn frames_in_flight(&self) -> usize {
        self.frame.in_flight()
    }

    /// Waits for every submission in flight, so that [`Self::gpu_time`] counts them all.
    pub fn wait_for_gpu(&mut self) -> Result<(), Error> {
        self.wait_frames().map_err(|e| e.to_engine("wait_for_gpu"))
    }

    /// Draws under predication, by what decided them (`predication.rs`).
    pub fn predication_counts(&self) -> PredicationCounts {
        self.predication.counts
    }

    /// Whether the device has `VK_EXT_image_view_min_lod`, which a view's minimum LOD above 0
    /// needs (R-ST-6); without it such a draw is refused.
    pub fn has_view_min_lod(&self) -> bool {
        self.gpu.features.view_min_lod
    }

    /// Whether the device has `VK_EXT_conditional_rendering` (enabled then).
    pub fn has_conditional_rendering(&self) -> bool {
        self.gpu.conditional_rendering.is_some()
    }

    /// Commands that change GPU memory which the backend does not translate yet.
    pub fn untranslated_commands(&self) -> u64 {
        self.untranslated
    }

    /// The engine's error for a Vulkan call that failed.
    pub(crate) fn vk_error(
        &self,
        call: &'static str,
        vk_call: &'static str,
        result: vk::Result,
    ) -> Error {
        BackendError::Vulkan {
            call: vk_call,
            result,
        }
        .to_engine(call)
    }
}

impl GpuBackend for VulkanBackend {
    fn command(&mut self, command: &Command<'_>, _semantics: Semantics) -> Result<(), Error> {
        // A bind changes only the bindings, which the model's changes tell; so does a map the
        // ring takes (a new region of a new instance, or bytes in place: nothing a draw's
        // resolution found moves, and the model tells nothing for it); anything else may move
        // what the last draw's resolution found (layouts, ring regions, the pass).
        if matches!(
            command,
            Command::MapWriteDiscard { .. } | Command::MapWriteNoOverwrite { .. }
        ) {
            let submissions = self.frame.submissions;
            let in_ring = self.translate_map(command);
            if !matches!(in_ring, Ok(true)) || self.frame.submissions != submissions {
                self.changes.set_everything();
            }
            return in_ring.map(|_| ());
        }
        if binds_only(command) {
            // Nothing to record: the draw reads the bindings from its record.
            return Ok(());
        }
        self.changes.set_everything();
        self.translate_command(command)
    }

    fn predicate(&mut self, predicate: RawHandle, value: bool) {
        self.set_predicate(predicate, value);
    }

    fn draw(&mut self, draw: &Draw<'_>, skipped: bool) -> Result<(), Error> {
        self.translate_draw(draw, skipped)
    }

    fn present(&mut self, chain: RawHandle, back_buffer: RawHandle) -> Result<(), Error> {
        self.changes.set_everything();
        self.present_chain(chain, back_buffer)
    }

    fn submit(&mut self) -> Result<(), Error> {
        if !self.frame.dirty {
            return Ok(());
        }
        self.flush().map_err(|e| e.to_engine("submit"))
    }

    fn query_result(
        &mut self,
        query: RawHandle,
        _kind: recorder::QueryKind,
    ) -> Result<Option<executor::QueryData>, Error> {
        self.changes.set_everything();
        if !self.options.gpu_query_results {
            return Ok(None);
        }
        self.query_result(recorder::Query::from_raw(query))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }

    fn read_mapped(
        &mut self,
        resource: recorder::Resource,
        bytes: &mut [u8],
    ) -> Option<Result<(), Error>> {
        self.changes.set_everything();
        self.read_mapped_bytes(resource, bytes)
    }

    fn write_mapped(&mut self, resource: recorder::Resource, bytes: &[u8]) -> Result<(), Error> {
        self.changes.set_everything();
        self.write_mapped_bytes(resource, bytes)
    }
}

/// Whether `command` only binds what a draw's record shows and the model's
/// [`executor::DrawChanges`] attribute (so it moves nothing the backend resolved itself).
fn binds_only(command: &Command<'_>) -> bool {
    matches!(
        command,
        Command::SetShader { .. }
            | Command::SetConstantBuffers { .. }
            | Command::SetShaderResources { .. }
            | Command::SetSamplers { .. }
            | Command::SetVertexBuffers { .. }
            | Command::SetIndexBuffer(_)
            | Command::SetPrimitiveResetIndex(_)
            | Command::SetInputLayout { .. }
            | Command::SetPrimitiveTopology(_)
            | Command::SetBlendState { .. }
            | Command::SetDepthStencilState { .. }
            | Command::SetRasterizerState(_)
            | Command::SetViewports(_)
            | Command::SetScissorRects(_)
    )
}

impl Drop for VulkanBackend {
    fn drop(&mut self) {
        self.end_pass();
        // SAFETY: waiting for the device has no precondition; after it nothing is in use.
        let _ = unsafe { self.gpu.device.device_wait_idle() };
        self.destroy_pipelines();
        self.destroy_resources();
        self.raw_secondaries.destroy(&self.gpu.device);
        self.descriptors.destroy(&self.gpu.device);
        self.frame.destroy(&self.gpu.device);
        self.queries.destroy(&self.gpu.device);
        self.predication
            .destroy(&self.gpu.device, &mut self.gpu.allocator);
        self.ring.destroy(&self.gpu.device, &mut self.gpu.allocator);
    }
}
