//! The capture's immediate context: frames begin and end here (R-CAP-2), the state a frame
//! starts from is read here (R-CAP-3), and executed lists bring their calls in (R-CAP-5).
//!
//! **In:** the application's immediate calls, presents and executions. **Out:** the engine's
//! behaviour unchanged, and at each frame's end a [`FrameOutcome`] in the capture's results.
//!
//! **A frame's start.** The GPU model's bindings (what the next draw would see) as the calls
//! that set them; for each swap chain, as many presents as bring a fresh one to its current
//! back buffer; for each dynamic resource whose current instance is not its initial contents,
//! a write_discard map (so the records name that instance `#K` as the replay will); minimum
//! LODs, legacy states, layouts, compression, deactivated placed aliases and queries as their
//! calls (`frame_start.rs`). Those last are written only for the objects the frame uses. When
//! the frame swaps device context state objects (R-FX-6), their saved states, before the
//! bindings (`immediate_states.rs`). Under `validation=hazards`, a lone pending write of a whole
//! resource by a legacy copy, as an `update_subresource` (`frame_start.rs`, R-V-2).
//!
//! **A frame's records.** The draw records the immediate context produced from the frame's
//! start to its end; `clear_records` and `take_records` during a capture keep the frame's part
//! first, so an application that clears them every frame still gets its digest.

use crate::sync::Ordering;
use std::sync::Arc;

use bundles::DrawBundle;
use recorder::{
    Buffer, CommandList, Error, Handle, MapType, ObjectKind, Resource, RestoreState, Semantics,
    SwapChain, Usage,
};

use super::captured::{CaptureTarget, CapturedContext};
use super::captured_deferred::list_log;
use super::device::CaptureDevice;
use super::form::{Call, Obj};
use super::frame_start::{
    buffer_setup, forget_dead, known, pending_copy_setup, pin_swap_chain_views, placed_setup,
    query_setup, swap_chain_view_setup, texture_setup,
};
use super::frame_timeline::Frame;
use super::immediate_states::FrameStates;
use super::log::{legacy_state_calls, state_calls, Tap};
use super::object_names;
use super::write;
use super::{CapturedFrame, FrameOutcome, Shared, Trigger};
use crate::syntax::ast::Method;
use executor::ImmediateContext;
use executor::{Counters, DrawRecord};
use recorder::command::InstanceId;
use recorder::RawHandle;

/// A frame being captured.
struct Open {
    frame: u64,
    /// Begun by a trigger: bookended by presents, retried when it fails.
    triggered: bool,
    setup: Vec<Call>,
    setup_if_used: Vec<(Obj, Vec<Call>)>,
    lists: Vec<Arc<super::log::ListLog>>,
    bundles: Vec<Obj>,
    /// Where the frame's records start in the context's.
    records_from: usize,
    /// The frame's records the application cleared or took.
    kept: Vec<DrawRecord>,
    start_seq: u64,
    failed: Option<String>,
    /// Objects whose state at the frame's start no call can give (R-FX-3: a query that passed
    /// samples before the frame), and why: the frame fails if it predicates on one.
    unwritable: Vec<(Obj, String)>,
    /// The device context state objects the frame swaps (R-FX-6).
    states: FrameStates,
}

/// An [`ImmediateContext`] whose frames a capture can write.
pub type CapturedImmediate = CapturedContext<ImmediateContext>;

/// What the capture keeps of the immediate context besides its tap: the frames.
pub struct ImmediateExtra {
    shared: Arc<Shared>,
    /// Presents of the active swap chain so far.
    frame: u64,
    open: Option<Open>,
}

/// Dropping the captured immediate context while a frame is open abandons the frame: nothing
/// can end it any more (its records and state go with the context), so the capture stops
/// (`is_capturing` is false again, deferred contexts stop keeping new lists) and the frame's
/// outcome says why it was not written. A trigger not yet begun stays for the next immediate
/// context of the device.
impl Drop for ImmediateExtra {
    fn drop(&mut self) {
        let Some(open) = self.open.take() else {
            return;
        };
        self.shared.capturing.store(false, Ordering::Release);
        self.shared.frame_releases.lock().clear();
        let begun = match open.triggered {
            true => "begun by a trigger",
            false => "begun by begin_capture",
        };
        let reason = format!(
            "the captured immediate context was dropped while frame {} ({begun}) was being \
             captured: the frame is abandoned; end it first (end_capture, or the present that \
             ends a triggered frame) (R-CAP-2)",
            open.frame
        );
        let outcome = FrameOutcome::Failed {
            frame: open.frame,
            reason,
        };
        self.shared.control.lock().outcomes.push(outcome);
    }
}

impl CaptureTarget for ImmediateContext {
    type Extra = ImmediateExtra;

    /// Idle (no frame being captured): one branch on a byte.
    #[inline(always)]
    fn tap_active(captured: &mut CapturedImmediate) -> bool {
        !captured.tap.is_idle() && captured.kept()
    }

    #[inline(always)]
    fn tap_awake(captured: &mut CapturedImmediate) -> bool {
        captured.kept()
    }

    fn map_instance(&self, buffer: RawHandle) -> InstanceId {
        self.current_instance(buffer)
    }
}

impl CapturedImmediate {
    /// The immediate context of `device` ([`ImmediateContext::new`]), captured.
    pub fn new(device: &CaptureDevice) -> Result<Self, Error> {
        let context = ImmediateContext::new(device.device())?;
        Ok(Self {
            context,
            tap: Tap::switched(device.shared().clone(), false),
            extra: ImmediateExtra {
                shared: device.shared().clone(),
                frame: 0,
                open: None,
            },
        })
    }

    /// The wrapped context, for what the capture need not see (its counters, its device).
    pub fn inner(&self) -> &ImmediateContext {
        &self.context
    }

    /// The wrapped context, mutably: calls made on it directly are not captured.
    pub fn inner_mut(&mut self) -> &mut ImmediateContext {
        self.tap.settle();
        &mut self.context
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn kept(&mut self) -> bool {
        self.tap.active()
    }

    // ----- frames --------------------------------------------------------------------------

    /// Begins capturing here, whatever the point of the frame (R-CAP-2); ends at
    /// [`end_capture`](Self::end_capture). A capture already open is left as it is.
    pub fn begin_capture(&mut self) {
        if self.extra.open.is_none() {
            self.open_frame(false);
        }
    }

    /// Ends a capture begun here or by a trigger: the frame's outcome (also kept in the
    /// capture's results); `None` when no capture was open.
    pub fn end_capture(&mut self) -> Option<FrameOutcome> {
        self.tap.settle();
        let open = self.extra.open.take()?;
        self.extra.shared.capturing.store(false, Ordering::Release);
        self.tap.switch(false);
        let outcome = self.close_frame(open);
        self.extra
            .shared
            .control
            .lock()
            .outcomes
            .push(outcome.clone());
        Some(outcome)
    }

    fn open_frame(&mut self, triggered: bool) {
        self.tap.settle();
        // Deferred contexts that start a list from now on keep it.
        self.extra.shared.capturing.store(true, Ordering::Release);
        // Direct calls still in the batch reach the GPU model first: its state is the frame's.
        let _ = self.context.flush();
        let device = self.context.device().clone();
        let start_seq = self.extra.shared.stamp();
        let records_from = self.context.records().len();
        let mut setup: Vec<Call> = Vec::new();
        let mut setup_if_used = Vec::new();
        let mut unwritable = Vec::new();
        // Swap chains to their back buffers.
        let objects = self.registered();
        for (kind, raw) in &objects {
            if *kind == ObjectKind::SwapChain {
                let chain = SwapChain::from_raw(*raw);
                let index = device.current_back_buffer(chain).unwrap_or(0);
                for _ in 0..index {
                    setup.push(Method::Present {
                        swapchain: Obj::Engine(ObjectKind::SwapChain, *raw),
                    });
                }
            }
        }
        // The bindings the next draw would see.
        // A binding of an object the device has destroyed meanwhile (a fast list's binding
        // holds no reference, R-OBJ-4) reads as nothing: written as null, not as the object.
        // Under legacy semantics each bound texture view keeps the LOD it copied when bound.
        // A predicate set from a query is the GPU's, not the shadow's (R-FX-3): a state swap
        // does not save it, so the start sets it as it was set.
        let shadowed = self.context.legacy_state().map(|s| s.predication().0);
        let state = self.context.gpu().state().bindings();
        let mut bindings = match device.desc().immediate_semantics {
            recorder::Semantics::Legacy => legacy_state_calls(state),
            recorder::Semantics::Fast => state_calls(state),
        };
        if shadowed.is_some_and(|p| p.is_null()) {
            for call in &mut bindings {
                if let Method::SetPredication { predicate, value } = *call {
                    *call = Method::SetPredicationFromQuery {
                        query: predicate,
                        value,
                    };
                }
            }
        }
        // A bound swap-chain view keeps the buffer its bind encoded (R-EX-7).
        let mut bindings = pin_swap_chain_views(&device, state, bindings);
        for call in &mut bindings {
            forget_dead(&device, call);
        }
        bindings.retain(|call| match call {
            Method::SetResourceMinLod {
                resource: Obj::Engine(kind, raw),
                ..
            } => known(&device, *kind, *raw),
            _ => true,
        });
        setup.extend(bindings);
        for (kind, raw) in objects {
            let obj = Obj::Engine(kind, raw);
            let mut calls = Vec::new();
            match kind {
                ObjectKind::Buffer => {
                    calls.extend(buffer_setup(&mut self.context, obj, raw));
                    let placed = Resource::Buffer(Buffer::from_raw(raw));
                    calls.extend(pending_copy_setup(&mut self.context, obj, placed));
                    calls.extend(placed_setup(&mut self.context, obj, placed));
                    let dynamic = device
                        .buffer_info(Buffer::from_raw(raw))
                        .is_some_and(|i| i.usage == Usage::Dynamic);
                    let instance = self.context.current_instance(raw);
                    if dynamic && instance != recorder::command::InstanceId::INITIAL {
                        calls.push(Method::Map {
                            resource: obj,
                            map_type: MapType::WriteDiscard,
                            allow_usage_default: false,
                            instance: Some(instance),
                            writes: (),
                        });
                        calls.push(Method::Unmap { resource: obj });
                    }
                }
                ObjectKind::Texture => {
                    let placed = Resource::Texture(recorder::Texture::from_raw(raw));
                    let mut texture = texture_setup(&mut self.context, obj, raw);
                    // After the transition (which would cover it), before the compression (a
                    // copy's destination may change it).
                    let at = texture
                        .iter()
                        .position(|c| matches!(c, Method::SetResourceCompression { .. }))
                        .unwrap_or(texture.len());
                    if let Some(update) = pending_copy_setup(&mut self.context, obj, placed) {
                        texture.insert(at, update);
                    }
                    calls.extend(texture);
                    // Deactivated last: the calls before it use the texture.
                    calls.extend(placed_setup(&mut self.context, obj, placed));
                }
                ObjectKind::ShaderResourceView => {
                    calls.extend(swap_chain_view_setup(&device, obj, kind, raw));
                    let view = recorder::ShaderResourceView::from_raw(raw);
                    if let Some(lod) = device
                        .shader_resource_view_min_lod(view)
                        .filter(|l| *l != 0.0)
                    {
                        calls.push(Method::SetShaderResourceViewMinLod {
                            view: obj,
                            min_lod: lod,
                        });
                    }
                }
                ObjectKind::RenderTargetView
                | ObjectKind::UnorderedAccessView
                | ObjectKind::DepthStencilView => {
                    calls.extend(swap_chain_view_setup(&device, obj, kind, raw));
                }
                ObjectKind::Query => {
                    let snapshot = self.context.gpu().query_snapshot(raw);
                    match query_setup(obj, snapshot) {
                        Ok(setup) => calls.extend(setup),
                        Err(why) => {
                            let name = device.object_name(ObjectKind::Query, raw);
                            unwritable.push((obj, format!("{name} {why}")));
                        }
                    }
                }
                _ => {}
            }
            if !calls.is_empty() {
                setup_if_used.push((obj, calls));
            }
        }
        // Recordings of bundles that are gone (no clone, no list holds them) are not needed.
        self.extra.shared.bundles.lock().retain(|raw, _| {
            let bundle = recorder::BundleHandle::from_raw(*raw);
            device.is_alive(bundle) || device.references(bundle).is_some()
        });
        self.extra.shared.frame_releases.lock().clear();
        self.extra.shared.frame_min_lods.lock().clear();
        self.tap.clear();
        self.tap.switch(true);
        let failed = (self.context.gpu_timing() == executor::GpuTiming::Detached).then(|| {
            "the GPU model is detached (GpuTiming::Detached): the frame makes no draw records to \
             capture"
                .to_string()
        });
        self.extra.open = Some(Open {
            frame: self.extra.frame,
            triggered,
            setup,
            setup_if_used,
            unwritable,
            lists: Vec::new(),
            bundles: Vec::new(),
            records_from,
            kept: Vec::new(),
            start_seq,
            failed,
            states: FrameStates::at_start(self.context.active_device_context_state()),
        });
    }

    /// The objects the capture has records of, engine kinds only, in creation order.
    fn registered(&self) -> Vec<(ObjectKind, recorder::RawHandle)> {
        let registry = self.extra.shared.registry.lock();
        let mut objects: Vec<(u64, ObjectKind, recorder::RawHandle)> = registry
            .live()
            .filter_map(|o| match o {
                Obj::Engine(kind, raw) => registry.get(kind, raw).map(|r| (r.seq, kind, raw)),
                _ => None,
            })
            .collect();
        // By creation, then (objects the capture named only when it wrote a frame share the
        // seq `u64::MAX`) by kind and handle: not the registry's hash order, which differs from
        // run to run (the frame's setup, the same text for the same frame).
        objects.sort_by_key(|(seq, kind, raw)| (*seq, *kind, raw.to_bits()));
        objects
            .into_iter()
            .map(|(_, kind, raw)| (kind, raw))
            .collect()
    }

    fn close_frame(&mut self, mut open: Open) -> FrameOutcome {
        let frame = open.frame;
        // `_keep` keeps the arena the entries' lists point into while the frame is written (it
        // drops after `parts`, declared later).
        let super::log::Kept { calls, keep: _keep } = self.tap.take_kept();
        let super::kept_calls::Decoded { entries, seqs } = calls.decode();
        self.tap.clear();
        if let Some(reason) = open.failed.take() {
            return FrameOutcome::Failed { frame, reason };
        }
        let mut records = std::mem::take(&mut open.kept);
        let all = self.context.records();
        records.extend_from_slice(all.get(open.records_from..).unwrap_or(&[]));
        let releases = std::mem::take(&mut *self.extra.shared.frame_releases.lock());
        let min_lods = std::mem::take(&mut *self.extra.shared.frame_min_lods.lock());
        // The state objects' saved states first: their fill ends on the defaults, from which
        // the bindings are written (`immediate_states.rs`).
        let mut setup = open.states.setup(self.context.device());
        setup.extend(open.setup);
        let parts = Frame {
            setup,
            setup_if_used: open.setup_if_used,
            unwritable: open.unwritable,
            entries,
            seqs,
            releases,
            min_lods,
            lists: open.lists,
            bundles: open.bundles,
            start_seq: open.start_seq,
        };
        let device = self.context.device().clone();
        let bundles = self.extra.shared.bundles.lock().clone();
        let written = {
            let mut registry = self.extra.shared.registry.lock();
            let written = write::write(
                &device,
                &mut registry,
                &bundles,
                &parts,
                &records,
                self.extra.shared.options.all_objects,
            );
            registry.prune(open.start_seq);
            written
        };
        match written {
            Ok(written) => {
                let (lines, digest) = object_names::digest(&records, &written.names);
                FrameOutcome::Captured(CapturedFrame {
                    frame,
                    digest,
                    records: records.len(),
                    record_lines: lines,
                    trace: written.text,
                    not_written: written.not_written,
                })
            }
            Err(reason) => FrameOutcome::Failed { frame, reason },
        }
    }

    fn fail(&mut self, reason: String) {
        if let Some(open) = self.extra.open.as_mut() {
            open.failed.get_or_insert(reason);
        }
    }

    /// Whether `chain` bookends frames (the first chain presented becomes the active one).
    fn is_active(&self, chain: SwapChain) -> bool {
        let mut control = self.extra.shared.control.lock();
        *control.active_chain.get_or_insert(chain.raw()) == chain.raw()
    }

    /// [`Device::place_swap_chain_view`](recorder::Device::place_swap_chain_view), made through
    /// the immediate context so that a frame being captured writes it where it happened, as
    /// `imm place_swap_chain_view VIEW INDEX` (R-EX-7). A placement made on the device directly
    /// during a frame has no statement, but every call that reads the view after it notes where
    /// it is (`capture/mod.rs`).
    pub fn place_swap_chain_view<V: recorder::Handle>(
        &mut self,
        view: V,
        buffer_index: u32,
    ) -> Result<(), Error> {
        let kept = self.tap_active();
        let view_obj = Obj::of(V::KIND, view);
        if kept {
            self.tap.call(Method::PlaceSwapChainView {
                view: view_obj,
                index: buffer_index,
            });
        }
        let result = self
            .context
            .device()
            .place_swap_chain_view(view, buffer_index);
        if kept && result.is_ok() {
            self.tap.placed(view_obj, buffer_index);
        }
        result
    }

    /// Before a kept legacy present of `chain` that does not end the frame: where each view of
    /// the chain's back buffers is, as [`Entry::Pin`](super::form::Entry)s. The present moves
    /// every such view on by one and re-binds the slots holding one with the buffer it names
    /// then (R-EX-7), so the text must have each where it is live (a placement made on the
    /// device directly, which the capture does not see, may have moved it).
    #[cold]
    #[inline(never)]
    fn pin_before_present(&mut self, chain: SwapChain) {
        let device = self.context.device().clone();
        if device.desc().immediate_semantics != Semantics::Legacy {
            return;
        }
        let ends_frame = self.extra.open.as_ref().is_some_and(|o| o.triggered) && {
            let control = self.extra.shared.control.lock();
            control
                .active_chain
                .is_none_or(|active| active == chain.raw())
        };
        if ends_frame {
            return;
        }
        for (kind, raw) in self.registered() {
            let of_chain = |c: Option<(SwapChain, u32)>| c.is_some_and(|(c, _)| c == chain);
            match kind {
                ObjectKind::RenderTargetView => {
                    let view = recorder::RenderTargetView::from_raw(raw);
                    if of_chain(device.swap_chain_view_buffer(view)) {
                        self.tap.pin_views(&[Some(view)]);
                    }
                }
                ObjectKind::ShaderResourceView => {
                    let view = recorder::ShaderResourceView::from_raw(raw);
                    if of_chain(device.swap_chain_view_buffer(view)) {
                        self.tap.pin_views(&[Some(view)]);
                    }
                }
                _ => {}
            }
        }
    }

    /// [`ImmediateContext::present`]: a present of the active swap chain ends the frame being
    /// captured (the present is its last call) and starts the one a trigger asked for.
    pub fn present(&mut self, chain: SwapChain) -> Result<(), Error> {
        if self.tap_active() {
            self.pin_before_present(chain);
            self.tap.call(Method::Present {
                swapchain: Obj::of(ObjectKind::SwapChain, chain),
            });
        }
        let result = self.context.present(chain);
        if !self.is_active(chain) {
            return result;
        }
        self.extra.frame += 1;
        let mut retry = false;
        if self.extra.open.as_ref().is_some_and(|o| o.triggered) {
            if let Some(outcome) = self.end_capture() {
                retry = matches!(outcome, FrameOutcome::Failed { .. });
            }
        }
        let start = retry || {
            let mut control = self.extra.shared.control.lock();
            let start = match control.trigger {
                Trigger::None => false,
                Trigger::Next => true,
                Trigger::At(n) => n == self.extra.frame,
            };
            if start {
                control.trigger = Trigger::None;
            }
            start
        };
        if start && self.extra.open.is_none() {
            self.open_frame(true);
            // A capture that cannot succeed is reported now, not retried every frame.
            if self.context.gpu_timing() == executor::GpuTiming::Detached {
                self.end_capture();
            }
        }
        result
    }

    // ----- the immediate context's own calls ------------------------------------------------

    /// [`ImmediateContext::execute_command_list`]: a captured list brings its calls in; a list
    /// recorded before the capture began fails the frame (R-CAP-5).
    pub fn execute_command_list(
        &mut self,
        list: &CommandList,
        restore: RestoreState,
    ) -> Result<(), Error> {
        if self.tap_active() && !list.is_from(self.context.device()) {
            // The engine refuses it (R-OBJ-3); the trace has no way to name another device's
            // list, whether or not that device's capture kept its calls.
            let ours = self.context.device().serial();
            self.fail(format!(
                "a command list executed in the frame ({} draws) belongs to another device: it \
                 was recorded on device #{}, not on device #{ours} that this capture wraps; the \
                 engine refuses the execution and a trace cannot name another device's list \
                 (R-OBJ-3)",
                list.stats().draws,
                list.device_serial(),
            ));
        } else if self.tap_active() {
            match list_log(list) {
                Some(log) => {
                    self.tap.call(Method::Execute {
                        list: Obj::List(log.id),
                        restore: restore.is_restore(),
                    });
                    if let Some(open) = self.extra.open.as_mut() {
                        open.lists.push(log);
                    }
                }
                None => {
                    let context = match self.extra.shared.context_names.lock().get(&list.recorder())
                    {
                        Some(name) => format!("deferred context '{name}'"),
                        None => format!(
                            "the engine's context {} (not made by the capture's device)",
                            list.recorder()
                        ),
                    };
                    self.fail(format!(
                        "a command list executed in the frame ({} draws, recorded on {context}) \
                         was recorded before the capture began; the capture keeps a list's \
                         calls only from its first call (CaptureOptions::keep_all_lists keeps \
                         every list's)",
                        list.stats().draws,
                    ))
                }
            }
        }
        self.context.execute_command_list(list, restore)
    }

    /// [`ImmediateContext::draw_bundle`], captured.
    pub fn draw_bundle(&mut self, bundle: &DrawBundle) -> Result<(), Error> {
        if self.tap_active() {
            let obj = Obj::Engine(ObjectKind::Bundle, bundle.handle().raw());
            self.tap.call(Method::DrawBundle { bundle: obj });
            if let Some(open) = self.extra.open.as_mut() {
                open.bundles.push(obj);
            }
        }
        self.context.draw_bundle(bundle)
    }

    /// [`ImmediateContext::insert_fence`].
    pub fn insert_fence(&mut self, engine: recorder::Engine) -> u64 {
        self.insert_fence_with(engine, recorder::FenceFlags::NoKickOff)
    }

    /// [`ImmediateContext::insert_fence_with`] (R-FX-6): written `insert_fence F [kick_off]`.
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

    /// [`ImmediateContext::is_resource_pending`] (R-FX-6): a query, nothing to write.
    pub fn is_resource_pending<H: recorder::Handle>(&mut self, resource: H) -> bool {
        self.context.is_resource_pending(resource)
    }

    /// [`ImmediateContext::create_device_context_state`] (R-FX-6): written `imm
    /// create_device_context_state STATE` where it was made (`immediate_states.rs`).
    pub fn create_device_context_state(
        &mut self,
    ) -> Result<recorder::DeviceContextState, recorder::Error> {
        let made = self.context.create_device_context_state();
        if let (Ok(state), true) = (&made, self.tap_active()) {
            if let Some(open) = self.extra.open.as_mut() {
                let call = open.states.created(state);
                self.tap.call(call);
            }
        }
        made
    }

    /// [`ImmediateContext::swap_device_context_state`] (R-FX-6): written `imm
    /// swap_device_context_state STATE`, the objects the frame swaps in given their saved
    /// states at its start (`immediate_states.rs`). On a fast immediate context (refused, no
    /// change) nothing is written.
    pub fn swap_device_context_state(
        &mut self,
        state: &recorder::DeviceContextState,
    ) -> Result<recorder::DeviceContextState, recorder::Error> {
        let legacy = self.context.device().desc().immediate_semantics == Semantics::Legacy;
        let kept = legacy && self.tap_active();
        if kept && !state.is_from(self.context.device()) {
            // Refused live (`invalid_argument`, R-OBJ-3); the trace cannot name it.
            self.fail(
                "a device context state object of another device is swapped in the frame \
                 (swap_device_context_state, refused live: invalid_argument); a trace cannot \
                 name another device's object (R-OBJ-3)"
                    .to_string(),
            );
            return self.context.swap_device_context_state(state);
        }
        if kept {
            if let Some(open) = self.extra.open.as_mut() {
                let call = open.states.before_swap(state);
                self.tap.call(call);
            }
        }
        let swapped = self.context.swap_device_context_state(state);
        if kept {
            if let Some(open) = self.extra.open.as_mut() {
                open.states.after_swap(state, swapped.as_ref().ok());
            }
        }
        swapped
    }

    /// [`ImmediateContext::begin_command_list_execution`].
    pub fn begin_command_list_execution(&mut self) {
        if self.tap_active() {
            self.tap.call(Method::BeginCommandListExecution);
        }
        self.context.begin_command_list_execution()
    }

    /// [`ImmediateContext::end_command_list_execution`].
    pub fn end_command_list_execution(&mut self) {
        if self.tap_active() {
            self.tap.call(Method::EndCommandListExecution);
        }
        self.context.end_command_list_execution()
    }

    /// [`ImmediateContext::resume`].
    pub fn resume(&mut self) {
        if self.tap_active() {
            self.tap.call(Method::Resume);
        }
        self.context.resume()
    }

    /// [`ImmediateContext::get_data`] (R-FX-3).
    pub fn get_data(&mut self, query: recorder::Query) -> Result<executor::QueryData, Error> {
        // A read of the GPU model: nothing to write in the trace.
        self.context.get_data(query)
    }

    /// [`ImmediateContext::flush`].
    pub fn flush(&mut self) -> Result<(), Error> {
        self.tap.settle();
        self.context.flush()
    }

    /// [`ImmediateContext::current_instance`].
    pub fn current_instance(&self, buffer: recorder::RawHandle) -> recorder::command::InstanceId {
        self.context.current_instance(buffer)
    }

    /// [`ImmediateContext::records`].
    pub fn records(&mut self) -> &[DrawRecord] {
        self.tap.settle();
        self.context.records()
    }

    /// [`ImmediateContext::counters`].
    pub fn counters(&mut self) -> &Counters {
        self.tap.settle();
        self.context.counters()
    }

    /// [`ImmediateContext::take_execution_errors`].
    pub fn take_execution_errors(&mut self) -> Vec<Error> {
        self.tap.settle();
        self.context.take_execution_errors()
    }

    /// Keeps the open frame's records before the application drops them.
    fn keep_frame_records(&mut self) {
        self.tap.settle();
        if let Some(open) = self.extra.open.as_mut() {
            let all = self.context.records();
            open.kept
                .extend_from_slice(all.get(open.records_from..).unwrap_or(&[]));
            open.records_from = 0;
        }
    }

    /// [`ImmediateContext::clear_records`] (a frame being captured keeps its own first).
    pub fn clear_records(&mut self) {
        self.keep_frame_records();
        self.context.clear_records()
    }

    /// [`ImmediateContext::take_records`] (a frame being captured keeps its own first).
    pub fn take_records(&mut self) -> Vec<DrawRecord> {
        self.keep_frame_records();
        self.context.take_records()
    }
}
