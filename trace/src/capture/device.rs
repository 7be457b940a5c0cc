//! The capture's device: the engine's [`Device`] with every creation and release recorded
//! (R-CAP-1, R-CAP-3).
//!
//! **In:** the application's creations and releases, from any thread. **Out:** the engine's
//! objects, unchanged (the same handles), and their records: a trace name and the creation
//! order (`records.rs`). What an object is (its size, format, slots) is read back from the device
//! when a frame is written, so an object created on the bare device before it was wrapped is
//! declared too (named by its creation name, ordered after the recorded ones). The creations
//! with what a real GPU needs (R-GPU-2) are `device_contents.rs`'s.

use std::sync::Arc;

use bundles::BundleDesc;
use recorder::{
    BlendState, Buffer, BufferDesc, DeferredContextDesc, DepthStencilState, DepthStencilView,
    Device, Error, Handle, Heap, HeapDesc, InputLayout, InputLayoutDesc, ObjectKind, Query,
    QueryKind, RasterizerState, RenderTargetView, SamplerState, Shader, ShaderDesc,
    ShaderResourceView, SwapChain, SwapChainDesc, Texture, TextureDesc, UnorderedAccessView,
    ViewDesc,
};

use super::captured_bundle::CapturedBundleRecorder;
use super::captured_deferred::CapturedDeferred;
use super::form::Obj;
use super::records::kind_prefix;
use super::{Capture, CaptureOptions, Shared};

/// A [`Device`] whose objects a capture can declare. Clone it for each thread (clones share the
/// device and the capture).
#[derive(Clone)]
pub struct CaptureDevice {
    device: Device,
    shared: Arc<Shared>,
}

impl CaptureDevice {
    /// Wraps `device`; nothing is captured until a trigger.
    pub fn new(device: Device, options: CaptureOptions) -> Self {
        Self {
            shared: Arc::new(Shared::new(options, device.clone())),
            device,
        }
    }

    /// The handle that triggers captures and hands out their results.
    pub fn capture(&self) -> Capture {
        Capture {
            shared: self.shared.clone(),
        }
    }

    /// The engine's device, for what the capture need not see (queries of objects, the chunk
    /// pool). An object created on it directly is still declared by a capture that needs it.
    pub fn device(&self) -> &Device {
        &self.device
    }

    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Records a creation that succeeded under `name` (also for `device_contents.rs`).
    pub(super) fn note<H: Handle>(&self, made: Result<H, Error>, name: &str) -> Result<H, Error> {
        if let Ok(handle) = &made {
            register(&self.shared, H::KIND, handle.raw(), name);
        }
        made
    }

    /// [`Device::create_buffer`].
    pub fn create_buffer(&self, desc: &BufferDesc<'_>) -> Result<Buffer, Error> {
        self.note(self.device.create_buffer(desc), desc.name)
    }

    /// [`Device::create_texture`].
    pub fn create_texture(&self, desc: &TextureDesc<'_>) -> Result<Texture, Error> {
        self.note(self.device.create_texture(desc), desc.name)
    }

    /// [`Device::create_heap`].
    pub fn create_heap(&self, desc: &HeapDesc<'_>) -> Result<Heap, Error> {
        self.note(self.device.create_heap(desc), desc.name)
    }

    /// [`Device::create_shader_resource_view`].
    pub fn create_shader_resource_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<ShaderResourceView, Error> {
        self.note(self.device.create_shader_resource_view(desc), desc.name)
    }

    /// [`Device::compose_shader_resource_view`] (a descriptor, declared `composed=yes`).
    pub fn compose_shader_resource_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<ShaderResourceView, Error> {
        self.note(self.device.compose_shader_resource_view(desc), desc.name)
    }

    /// [`Device::create_unordered_access_view`].
    pub fn create_unordered_access_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<UnorderedAccessView, Error> {
        self.note(self.device.create_unordered_access_view(desc), desc.name)
    }

    /// [`Device::create_render_target_view`].
    pub fn create_render_target_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<RenderTargetView, Error> {
        self.note(self.device.create_render_target_view(desc), desc.name)
    }

    /// [`Device::create_depth_stencil_view`].
    pub fn create_depth_stencil_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<DepthStencilView, Error> {
        self.note(self.device.create_depth_stencil_view(desc), desc.name)
    }

    /// [`Device::create_shader`].
    pub fn create_shader(&self, desc: &ShaderDesc<'_>) -> Result<Shader, Error> {
        self.note(self.device.create_shader(desc), desc.name)
    }

    /// [`Device::create_input_layout`].
    pub fn create_input_layout(&self, desc: &InputLayoutDesc<'_>) -> Result<InputLayout, Error> {
        self.note(self.device.create_input_layout(desc), desc.name)
    }

    /// [`Device::create_blend_state`].
    pub fn create_blend_state(&self, name: &str) -> Result<BlendState, Error> {
        self.note(self.device.create_blend_state(name), name)
    }

    /// [`Device::create_rasterizer_state`].
    pub fn create_rasterizer_state(&self, name: &str) -> Result<RasterizerState, Error> {
        self.note(self.device.create_rasterizer_state(name), name)
    }

    /// [`Device::create_depth_stencil_state`].
    pub fn create_depth_stencil_state(&self, name: &str) -> Result<DepthStencilState, Error> {
        self.note(self.device.create_depth_stencil_state(name), name)
    }

    /// [`Device::create_sampler_state`].
    pub fn create_sampler_state(&self, name: &str) -> Result<SamplerState, Error> {
        self.note(self.device.create_sampler_state(name), name)
    }

    /// [`Device::create_query`] (the trace declares a predicate as `predicate NAME`, any other
    /// kind as `query NAME KIND`, R-FX-3).
    pub fn create_query(&self, name: &str, kind: QueryKind) -> Result<Query, Error> {
        self.note(self.device.create_query(name, kind), name)
    }

    /// [`Device::create_swap_chain`]; its back buffers are `NAME.K`, their views `NAME.K.rtv`.
    pub fn create_swap_chain(&self, desc: &SwapChainDesc<'_>) -> Result<SwapChain, Error> {
        let chain = self.note(self.device.create_swap_chain(desc), desc.name)?;
        register_chain(&self.shared, &self.device, chain);
        Ok(chain)
    }

    /// [`Device::create_deferred_context`], captured.
    pub fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<CapturedDeferred, Error> {
        let context = self.device.create_deferred_context(desc)?;
        Ok(CapturedDeferred::new(context, self.shared.clone()))
    }

    /// A bundle recorder ([`bundles::BundleRecorder::new`]), captured: every bundle it
    /// finishes keeps its recording, so a frame that calls it can write it.
    pub fn create_bundle_recorder(
        &self,
        desc: &BundleDesc<'_>,
    ) -> Result<CapturedBundleRecorder, Error> {
        let recorder = bundles::BundleRecorder::new(&self.device, desc)?;
        Ok(CapturedBundleRecorder::new(
            recorder,
            desc,
            self.shared.clone(),
        ))
    }

    /// [`Device::release`], recorded: a frame being captured writes `release NAME` where it
    /// happened; a later frame whose lists or bundles still name the object declares it and
    /// releases it before the frame.
    pub fn release<H: Handle>(&self, handle: H) {
        let obj = Obj::Engine(H::KIND, handle.raw());
        let seq = self.shared.stamp();
        let mut registry = self.shared.registry.lock();
        let snapshot = super::object_declaration::declaration(&self.device, &*registry, obj, true)
            .ok()
            .flatten();
        registry.release(H::KIND, handle.raw(), seq, snapshot);
        drop(registry);
        if self.shared.capturing.load(crate::sync::Ordering::Acquire) {
            self.shared.frame_releases.lock().push((obj, seq));
        }
        self.device.release(handle);
    }
}

/// Records an object made (a name from its creation name).
pub(crate) fn register(shared: &Shared, kind: ObjectKind, raw: recorder::RawHandle, name: &str) {
    let mut registry = shared.registry.lock();
    if registry.get(kind, raw).is_some() {
        return;
    }
    let name = registry.unique_name(name, kind_prefix(kind));
    registry.insert(kind, raw, name, Vec::new(), shared.stamp());
}

/// Records a swap chain's back buffers and their views under the names its declaration makes.
pub(crate) fn register_chain(shared: &Shared, device: &Device, chain: SwapChain) {
    let Some(info) = device.swap_chain_info(chain) else {
        return;
    };
    let mut registry = shared.registry.lock();
    let Some(base) = registry
        .get(ObjectKind::SwapChain, chain.raw())
        .map(|r| r.name.to_string())
    else {
        return;
    };
    let obj = Obj::Engine(ObjectKind::SwapChain, chain.raw());
    for (k, (texture, view)) in info.buffers.iter().enumerate() {
        let name = registry.taken_name(format!("{base}.{k}"));
        registry.insert(
            ObjectKind::Texture,
            texture.raw(),
            name,
            vec![obj],
            shared.stamp(),
        );
        let name = registry.taken_name(format!("{base}.{k}.rtv"));
        registry.insert(
            ObjectKind::RenderTargetView,
            view.raw(),
            name,
            vec![obj],
            shared.stamp(),
        );
    }
}
