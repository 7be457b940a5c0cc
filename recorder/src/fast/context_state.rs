//! Device context state objects (R-FX-6; D3D11.1's `ID3DDeviceContextState`:
//! `ID3D11Device1::CreateDeviceContextState`, `ID3D11DeviceContext1::SwapDeviceContextState`).
//!
//! **In:** a legacy context's `create_device_context_state` (an object holding the ClearState
//! defaults) and the legacy immediate context's `swap_device_context_state(&state)`. **Out:**
//! the swap *activates* `state`, as D3D11.1 defines it (Wine's `test_device_context_state`): the
//! context's current state is saved into the previously active object, the state saved in
//! `state` (its defaults, if it was never active) becomes current, and the previously active
//! object is returned (an implicit default object, made then, the first time). Swapping in the
//! active object changes nothing. The context records a ClearState followed by the binds that
//! set the incoming state, through the ordinary binding calls, so the GPU sees the new state
//! and the batch is exactly the same calls made directly (R-O-1): references, split points
//! (dynamic buffers) and hazards are those of legacy binds.
//!
//! **Where.** The swap is a call of the immediate context alone (D3D11 does not support it on
//! deferred contexts): it is implemented for `Recorder<ImmediateRole>` only, so a deferred
//! context and a bundle recorder have no such call. **Fast semantics** keeps no shadow, so
//! there is nothing to save: both calls are refused on a fast context (`forbidden_in_fast`,
//! seed 000: "ID3D11Device1::CreateDeviceContextState and
//! ID3D11DeviceContext1::SwapDeviceContextState will fail when called on a fast semantics
//! context").
//!
//! **Invariants.** An object holds one reference on every object its saved bindings name (as a
//! legacy binding does; taken when it receives them, given back when it hands them over or its
//! last handle drops), so nothing it names is destroyed while it lives; while it is active it
//! holds nothing (the context's bindings hold the state). The swap reports its own result, as
//! `map` does (R-REC-8): a refusal poisons nothing and changes nothing, and names the swap. It
//! is refused whole, before anything changes, when the incoming state names an object the
//! application released since it was saved (`released_object`, R-OBJ-3: its bind would be
//! refused), or when an object the context binds was destroyed since (`released_object`).

use std::sync::{Arc as StdArc, Mutex, MutexGuard, PoisonError};

use crate::call_arguments::{PredicateValue, VertexBuffer};
use crate::context::role::{ImmediateRole, Role};
use crate::desc::{Format, PrimitiveTopology, Stage};
use crate::device::handle::*;
use crate::device::DeviceShared;
use crate::errors::Error;
use crate::state::Bindings;
use crate::sync::Arc;
use crate::Recorder;

/// The rule both calls cite when a fast context refuses them (`forbidden_in_fast`).
const FAST_RULE: &str = "fast semantics keeps no state shadow, so device context state objects are unsupported (seed 000, R-FX-6); shadow the state in the application";

/// A device context state object (R-FX-6): a full binding state that
/// [`swap_device_context_state`](Recorder::swap_device_context_state) activates on the legacy
/// immediate context. Created holding the ClearState defaults
/// ([`create_device_context_state`](Recorder::create_device_context_state)). A handle: clones
/// name the same object (the swap hands back the previously active one so), which lives while a
/// handle does (the context keeps one on the active object); it holds a reference on every
/// object its saved bindings name, given back when it drops. See `context_state.rs`.
///
/// The swap is the immediate context's call alone (R-FX-6): a deferred context has none.
///
/// ```compile_fail
/// use recorder::*;
/// let device = Device::new(DeviceDesc::default());
/// let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
/// let state = context.create_device_context_state()?;
/// let _ = context.swap_device_context_state(&mut None, &state); // no such call (R-FX-6)
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone)]
pub struct DeviceContextState {
    inner: StdArc<StateObject>,
}

/// The object a [`DeviceContextState`] names.
struct StateObject {
    device: Arc<DeviceShared>,
    /// Its number in the process ([`DeviceContextState::serial`]).
    serial: u64,
    /// The state saved in it (the ClearState defaults while it is active).
    bindings: Mutex<Box<Bindings>>,
}

/// The next state object's serial. A process-wide `std` atomic, not the crate's sync facade:
/// a static, and a counter no other memory depends on (as `device_identity.rs`'s registry).
static NEXT_SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl DeviceContextState {
    fn new(device: Arc<DeviceShared>) -> Self {
        Self {
            inner: StdArc::new(StateObject {
                device,
                serial: NEXT_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                bindings: Mutex::new(Box::new(Bindings::DEFAULT)),
            }),
        }
    }

    /// The binding state saved in the object: what swapping it in binds (the ClearState
    /// defaults while it is the active one, whose state is the context's).
    pub fn bindings(&self) -> Bindings {
        (**self.saved()).clone()
    }

    /// The object's number: no other device context state object of the process has it (from
    /// 1, never reused), and clones share it. What a capture names the object by (it has no
    /// handle in the device's tables).
    pub fn serial(&self) -> u64 {
        self.inner.serial
    }

    /// Whether the object was made by `device` (a swap of another device's is refused,
    /// `invalid_argument`).
    pub fn is_from(&self, device: &crate::Device) -> bool {
        Arc::ptr_eq(&self.inner.device, &device.shared)
    }

    /// Whether `self` and `other` name the same object.
    pub fn same_object(&self, other: &DeviceContextState) -> bool {
        StdArc::ptr_eq(&self.inner, &other.inner)
    }

    fn saved(&self) -> MutexGuard<'_, Box<Bindings>> {
        self.inner
            .bindings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl std::fmt::Debug for DeviceContextState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceContextState")
            .field("device", &self.inner.device.identity.serial())
            .field("serial", &self.inner.serial)
            .finish_non_exhaustive()
    }
}

impl Drop for StateObject {
    fn drop(&mut self) {
        let bindings = self
            .bindings
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        give_back(&self.device, bindings);
    }
}

/// Drops the references a state object held on what `bindings` name.
fn give_back(device: &DeviceShared, bindings: &Bindings) {
    bindings.for_each_object(|kind, handle| device.unretain(kind, handle));
}

impl<R: Role> Recorder<R> {
    /// Creates a device context state object holding the ClearState defaults (R-FX-6,
    /// `ID3D11Device1::CreateDeviceContextState`), on any legacy context (the immediate
    /// context alone swaps it in). Refused on a fast context (`forbidden_in_fast`); the refusal
    /// is returned, the list is not poisoned.
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
        Ok(DeviceContextState::new(self.device.clone()))
    }
}

impl Recorder<ImmediateRole> {
    /// Activates `state` (R-FX-6, `ID3D11DeviceContext1::SwapDeviceContextState`): the
    /// context's state is saved into the previously active object, and the state saved in
    /// `state` (its defaults, if it was never active) becomes current, recorded as a
    /// ClearState and the binds of that state (one call in the statistics). Returns the
    /// previously active object (an implicit default one, holding the state from before, the
    /// first time). Swapping in the active object changes nothing and returns it.
    ///
    /// Reports its own result, poisoning nothing (as `map`, R-REC-8): refused on a fast
    /// context (`forbidden_in_fast`), with an object of another device (`invalid_argument`),
    /// and whole, changing nothing, when the incoming state names an object the application
    /// released since it was saved, or an object the context binds was destroyed since
    /// (`released_object`, naming the swap); see `context_state.rs`.
    ///
    /// `active` is the object the immediate context activated last (`None` before its first
    /// swap: the implicit default one), which the executor's `ImmediateContext` keeps beside
    /// this recorder and this call updates.
    pub fn swap_device_context_state(
        &mut self,
        active: &mut Option<DeviceContextState>,
        state: &DeviceContextState,
    ) -> Result<DeviceContextState, Error> {
        const CALL: &str = "swap_device_context_state";
        self.begin_call();
        if self.shadow.is_none() {
            return Err(self.refuse_reported_call(Error::ForbiddenInFast {
                call: CALL,
                rule: FAST_RULE,
            }));
        }
        let device = self.device.clone();
        if !Arc::ptr_eq(&state.inner.device, &device) {
            return Err(self.refuse_reported_call(Error::WrongDevice {
                call: CALL,
                object: "device context state",
                device: state.inner.device.identity.serial(),
                expected: device.identity.serial(),
                uses: "swaps in",
            }));
        }
        if let Some(active) = active.as_ref().filter(|a| a.same_object(state)) {
            // Swapping in the active object changes nothing (Wine's test_device_context_state).
            return Ok(active.clone());
        }
        // What comes in must still be bindable: an object released since it was saved is
        // refused here, naming the swap, before anything changes (R-OBJ-3).
        let mut released = None;
        state.saved().for_each_object(|kind, handle| {
            if released.is_none() && !device.is_live(kind, handle) {
                released = Some(device.object_name(kind, handle));
            }
        });
        if let Some(object) = released {
            return Err(self.refuse_reported_call(Error::ReleasedObject { call: CALL, object }));
        }
        let outgoing = match self.saved_state(CALL) {
            Ok(outgoing) => outgoing,
            Err(error) => return Err(self.refuse_reported_call(error)),
        };
        // The previously active object (the implicit default one, made now, the first time)
        // keeps the current state; `state` hands its state over and holds nothing while active.
        let previous = active
            .take()
            .unwrap_or_else(|| DeviceContextState::new(device.clone()));
        let stale = std::mem::replace(&mut *previous.saved(), outgoing);
        give_back(&device, &stale);
        let incoming = std::mem::replace(&mut *state.saved(), Box::new(Bindings::DEFAULT));
        *active = Some(state.clone());
        // The binds are this one call: the calls they go through count nothing more.
        let (calls, refused) = (self.calls_made, self.refused);
        self.clear_state();
        self.bind_all(&incoming);
        self.calls_made = calls;
        // What was checked above cannot be refused by the binds; were one, its refusal would
        // not be counted twice (the statistics are calls made minus refused).
        self.refused = refused;
        // The context's binds took their own references: the object's on them go.
        give_back(&device, &incoming);
        Ok(previous)
    }

    /// The context's bindings, with one reference taken on each object they name, for the
    /// object that saves them; refused (`released_object`) when one was destroyed since it
    /// was bound, with every reference taken given back.
    fn saved_state(&self, call: &'static str) -> Result<Box<Bindings>, Error> {
        let bindings = match self.shadow.as_ref() {
            Some(shadow) => Box::new(shadow.bindings.clone()),
            None => Box::new(Bindings::DEFAULT),
        };
        let device = &self.device;
        let mut taken: Vec<(ObjectKind, RawHandle)> = Vec::new();
        let mut stale = None;
        bindings.for_each_object(|kind, handle| {
            if stale.is_none() {
                match device.retain(kind, handle, 1) {
                    Ok(()) => taken.push((kind, handle)),
                    Err(_) => stale = Some((kind, handle)),
                }
            }
        });
        match stale {
            None => Ok(bindings),
            Some((kind, handle)) => {
                for (kind, handle) in taken {
                    device.unretain(kind, handle);
                }
                Err(device.stale_error(call, kind, handle))
            }
        }
    }
}

impl<R: Role> Recorder<R> {
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
