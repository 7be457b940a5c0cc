//! Device context state objects (R-FX-6; D3D11.1's `ID3DDeviceContextState`:
//! `ID3D11Device1::CreateDeviceContextState`, `ID3D11DeviceContext1::SwapDeviceContextState`).
//!
//! **In:** a legacy context's `create_device_context_state` (an object holding the ClearState
//! defaults) and `swap_device_context_state(&mut state)`. **Out:** the context's bindings and
//! the object's exchanged: the object keeps what the context had bound, and the context records
//! a ClearState followed by the binds that set the object's state, through the ordinary binding
//! calls, so the GPU sees the new state and the list is exactly the same calls made directly
//! (R-O-1): references, split points (dynamic buffers) and hazards are those of legacy binds.
//!
//! **Fast semantics** keeps no shadow, so there is nothing to swap: both calls are refused on a
//! fast context (`forbidden_in_fast`, seed 000: "ID3D11Device1::CreateDeviceContextState and
//! ID3D11DeviceContext1::SwapDeviceContextState will fail when called on a fast semantics
//! context"). Bundles are fast and have neither call.
//!
//! **Invariants.** The object holds one reference on every object its bindings name (as a
//! legacy binding does; taken when it receives the bindings, given back when it hands them
//! over or drops), so nothing it names is destroyed while it lives. A swap that cannot take
//! them (an object the context bound has been destroyed since: a title-managed context's
//! binding, R-FX-6) is refused whole (`released_object`) and changes nothing. Swapping in
//! re-binds through the calls, so an object the application released since the state was
//! swapped out is refused as its bind would be (`released_object`, R-OBJ-4).

use crate::call_arguments::{PredicateValue, VertexBuffer};
use crate::context::role::Role;
use crate::desc::{Format, PrimitiveTopology, Stage};
use crate::device::handle::*;
use crate::device::DeviceShared;
use crate::errors::Error;
use crate::state::Bindings;
use crate::sync::Arc;
use crate::Recorder;

/// The rule both calls cite when a fast context refuses them (`forbidden_in_fast`).
const FAST_RULE: &str = "fast semantics keeps no state shadow, so device context state objects are unsupported (seed 000, R-FX-6); shadow the state in the application";

/// A device context state object (R-FX-6): a full binding state, owned by the application,
/// that [`swap_device_context_state`](Recorder::swap_device_context_state) exchanges with a
/// legacy context's. Created holding the ClearState defaults
/// ([`create_device_context_state`](Recorder::create_device_context_state)). It holds a
/// reference on every object its bindings name, given back when it drops. See `context_state.rs`.
pub struct DeviceContextState {
    device: Arc<DeviceShared>,
    bindings: Box<Bindings>,
}

impl DeviceContextState {
    /// The binding state the object holds (what the next swap binds).
    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }
}

impl std::fmt::Debug for DeviceContextState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceContextState")
            .field("device", &self.device.identity.serial())
            .finish_non_exhaustive()
    }
}

impl Drop for DeviceContextState {
    fn drop(&mut self) {
        let device = &self.device;
        self.bindings
            .for_each_object(|kind, handle| device.unretain(kind, handle));
    }
}

impl<R: Role> Recorder<R> {
    /// Creates a device context state object holding the ClearState defaults (R-FX-6,
    /// `ID3D11Device1::CreateDeviceContextState`). Refused on a fast context
    /// (`forbidden_in_fast`); the refusal is returned, the list is not poisoned.
    pub fn create_device_context_state(&mut self) -> Result<DeviceContextState, Error> {
        const CALL: &str = "create_device_context_state";
        if self.shadow.is_none() {
            let error = Error::ForbiddenInFast {
                call: CALL,
                rule: FAST_RULE,
            };
            // Counted as a call that reports its own result (as a refused `map`), so the
            // statistics stay consistent (calls made minus refused).
            return Err(self.refuse_reported(error));
        }
        Ok(DeviceContextState {
            device: self.device.clone(),
            bindings: Box::new(Bindings::DEFAULT),
        })
    }

    /// Exchanges the context's binding state with `state`'s (R-FX-6,
    /// `ID3D11DeviceContext1::SwapDeviceContextState`): `state` keeps what the context had
    /// bound, and the context records a ClearState and the binds of `state`'s former bindings
    /// (one call in the statistics). Refused on a fast context (`forbidden_in_fast`), with an
    /// object of another device (`invalid_argument`), and whole when an object the context
    /// binds was destroyed since (`released_object`); see `context_state.rs`.
    pub fn swap_device_context_state(&mut self, state: &mut DeviceContextState) {
        const CALL: &str = "swap_device_context_state";
        self.begin_call();
        let Some(shadow) = self.shadow.as_ref() else {
            return self.fail(Error::ForbiddenInFast {
                call: CALL,
                rule: FAST_RULE,
            });
        };
        if !Arc::ptr_eq(&state.device, &self.device) {
            return self.fail(Error::WrongDevice {
                call: CALL,
                object: "device context state",
                device: state.device.identity.serial(),
                expected: self.device.identity.serial(),
                uses: "swaps in",
            });
        }
        // The object takes its references on what it receives, before anything changes.
        let outgoing = Box::new(shadow.bindings.clone());
        let device = &self.device;
        let mut taken: Vec<(ObjectKind, RawHandle)> = Vec::new();
        let mut stale = None;
        outgoing.for_each_object(|kind, handle| {
            if stale.is_none() {
                match device.retain(kind, handle, 1) {
                    Ok(()) => taken.push((kind, handle)),
                    Err(_) => stale = Some((kind, handle)),
                }
            }
        });
        if let Some((kind, handle)) = stale {
            for (kind, handle) in taken {
                device.unretain(kind, handle);
            }
            return self.fail(self.device.stale_error(CALL, kind, handle));
        }
        let incoming = std::mem::replace(&mut state.bindings, outgoing);
        // The binds are this one call: the calls they go through count nothing more.
        let calls = self.calls_made;
        self.clear_state();
        self.bind_all(&incoming);
        self.calls_made = calls;
        // The context's binds took their own references: the object's on them go.
        let device = &self.device;
        incoming.for_each_object(|kind, handle| device.unretain(kind, handle));
    }

    /// Binds everything `state` holds, from the ClearState defaults, through the binding calls
    /// (their references, split points and hazard rules, R-O-1).
    fn bind_all(&mut self, state: &Bindings) {
        fn some<H: Handle>(raw: RawHandle) -> Option<H> {
            (!raw.is_null()).then(|| H::from_raw(raw))
        }
        fn last_bound<T>(slots: &[Option<T>]) -> Option<usize> {
            slots.iter().rposition(Option::is_some)
        }
        if !state.input_layout().is_null() {
            self.set_input_layout(some(state.input_layout()));
        }
        if state.topology() != PrimitiveTopology::Undefined {
            self.set_primitive_topology(state.topology());
        }
        let vertex_buffers: Vec<Option<VertexBuffer>> = state
            .vertex_buffers()
            .iter()
            .map(|b| {
                (!b.buffer.is_null()).then(|| VertexBuffer {
                    buffer: some(b.buffer),
                    stride: b.stride_or_format,
                    offset: b.offset,
                })
            })
            .collect();
        if let Some(last) = last_bound(&vertex_buffers) {
            let slots: Vec<VertexBuffer> = vertex_buffers[..=last]
                .iter()
                .map(|b| b.unwrap_or_default())
                .collect();
            self.set_vertex_buffers(0, &slots);
        }
        let index = state.index_buffer();
        let format = Format::ALL
            .get(index.stride_or_format as usize)
            .copied()
            .unwrap_or_default();
        if !index.buffer.is_null() || format != Format::Unknown || index.offset != 0 {
            self.set_index_buffer(some(index.buffer), format, index.offset);
        }
        // The register as a value: one holding V behaves as one derived to V for every later
        // bind (R-ST-5).
        if state.reset_index() != crate::desc::DEFAULT_RESET_INDEX || !index.buffer.is_null() {
            self.set_primitive_reset_index(state.reset_index());
        }
        for stage in Stage::ALL {
            let shader = state.shader(stage).shader;
            if !shader.is_null() {
                self.set_shader(stage, some(shader));
            }
            let buffers: Vec<Option<Buffer>> = state
                .constant_buffers(stage)
                .iter()
                .map(|b| some(b.buffer))
                .collect();
            if let Some(last) = last_bound(&buffers) {
                self.set_constant_buffers(stage, 0, &buffers[..=last]);
            }
            let views: Vec<Option<ShaderResourceView>> = state
                .shader_resources(stage)
                .iter()
                .map(|v| some(v.view))
                .collect();
            if let Some(last) = last_bound(&views) {
                self.set_shader_resources(stage, 0, &views[..=last]);
            }
            let samplers: Vec<Option<SamplerState>> =
                state.samplers(stage).iter().map(|&s| some(s)).collect();
            if let Some(last) = last_bound(&samplers) {
                self.set_samplers(stage, 0, &samplers[..=last]);
            }
        }
        let uavs: Vec<Option<UnorderedAccessView>> =
            state.compute_uavs().iter().map(|v| some(v.view)).collect();
        if let Some(last) = last_bound(&uavs) {
            self.set_compute_unordered_access_views(0, &uavs[..=last]);
        }
        let targets: Vec<Option<RenderTargetView>> = state
            .render_targets()
            .iter()
            .map(|v| some(v.view))
            .collect();
        let depth: Option<DepthStencilView> = some(state.depth_stencil().view);
        let om_uavs: Vec<Option<UnorderedAccessView>> =
            state.om_uavs().iter().map(|v| some(v.view)).collect();
        match last_bound(&om_uavs) {
            Some(last) => {
                let first = om_uavs.iter().position(Option::is_some).unwrap_or(0);
                self.set_render_targets_and_unordered_access_views(
                    &targets,
                    depth,
                    first as u32,
                    &om_uavs[first..=last],
                );
            }
            None if !targets.is_empty() || depth.is_some() => {
                self.set_render_targets(&targets, depth)
            }
            None => {}
        }
        let blend = state.blend();
        if blend != crate::state::BlendRecord::DEFAULT {
            self.set_blend_state(some(blend.state), blend.factor, blend.sample_mask);
        }
        let depth_state = state.depth_stencil_state();
        if depth_state != crate::state::DepthStencilRecord::DEFAULT {
            self.set_depth_stencil_state(some(depth_state.state), depth_state.stencil_ref);
        }
        if !state.rasterizer().is_null() {
            self.set_rasterizer_state(some(state.rasterizer()));
        }
        if !state.viewports().is_empty() {
            self.set_viewports(state.viewports());
        }
        if !state.scissor_rects().is_empty() {
            self.set_scissor_rects(state.scissor_rects());
        }
        let (predicate, value) = state.predication();
        if !predicate.is_null() {
            let value = match value {
                true => PredicateValue::True,
                false => PredicateValue::False,
            };
            self.set_predication(some(predicate), value);
        }
    }
}
