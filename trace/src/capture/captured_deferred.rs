//! [`CapturedDeferred`]: a deferred context whose lists a capture can write (R-CAP-1, R-CAP-5):
//! its own calls (fences, nesting, bundles, finish), captured; the shared calls are
//! [`CapturedContext`]'s.
//!
//! **In:** the application's calls. **Out:** the engine's behaviour, unchanged, and at
//! `finish_command_list` a list carrying its calls ([`CommandList::attach`]).
//!
//! **Invariant.** A list decides at its first call whether it is kept; a list not kept costs one
//! branch a call.

use std::sync::Arc;

use bundles::{DrawBundle, DrawBundleExt};
use recorder::command::InstanceId;
use recorder::{
    CommandList, DeferredContext, Handle, ObjectKind, RawHandle, RecordError, RestoreState,
};

use super::captured::{CaptureTarget, CapturedContext};
use super::form::Obj;
use super::frame_start::pin_swap_chain_views;
use super::log::{legacy_state_calls, ContextInfo, ListLog, Tap};
use super::Shared;
use crate::syntax::ast::Method;

/// A [`DeferredContext`] whose lists a capture can write (R-CAP-5). Made by
/// [`CaptureDevice::create_deferred_context`](super::CaptureDevice::create_deferred_context).
pub type CapturedDeferred = CapturedContext<DeferredContext>;

/// What the capture keeps of a deferred context besides its tap.
pub struct DeferredExtra {
    info: ContextInfo,
    /// Lists finished or discarded so far.
    lists: u64,
}

impl CaptureTarget for DeferredContext {
    type Extra = DeferredExtra;

    #[inline(always)]
    fn tap_active(captured: &mut CapturedDeferred) -> bool {
        !captured.tap.is_idle() && captured.tap_slow()
    }

    #[inline(always)]
    fn tap_awake(captured: &mut CapturedDeferred) -> bool {
        captured.tap.is_on() || captured.decide()
    }

    fn map_instance(&self, buffer: RawHandle) -> InstanceId {
        self.current_instance(buffer)
    }
}

impl CapturedDeferred {
    pub(crate) fn new(context: DeferredContext, shared: Arc<Shared>) -> Self {
        let info = ContextInfo {
            serial: shared.next_serial(),
            name: context.name().to_string(),
            semantics: context.semantics(),
            title_managed_lifetimes: context.title_managed_lifetimes(),
        };
        shared
            .context_names
            .lock()
            .insert(context.serial(), info.name.clone());
        Self {
            context,
            tap: Tap::per_list(shared),
            extra: DeferredExtra { info, lists: 0 },
        }
    }

    /// A kept call, or the first call of a list: decide, and note the state a restore carried
    /// in.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_slow(&mut self) -> bool {
        // A kept list's later call: nothing to decide (a test and a return: the decision,
        // with the registers it needs saved, is a call of its own).
        self.tap.is_on() || self.decide()
    }

    /// The first call of a list: whether the list is kept, and the state a restore carried in.
    #[cold]
    #[inline(never)]
    fn decide(&mut self) -> bool {
        let fresh = self.tap.is_fresh();
        if !self.tap.active() {
            return false;
        }
        if fresh {
            // A carried binding of a swap-chain view keeps the buffer its bind encoded, which
            // a present or a placement since may have moved the view off (R-EX-7).
            let device = &self.tap.shared().device;
            let carried = self
                .context
                .legacy_state()
                .map(|state| pin_swap_chain_views(device, state, legacy_state_calls(state)));
            self.tap.carried = carried.filter(|calls| !calls.is_empty());
        }
        true
    }

    /// The wrapped context, for what the capture need not see (its name, its counters).
    pub fn inner(&self) -> &DeferredContext {
        &self.context
    }

    /// [`DeferredContext::name`].
    pub fn name(&self) -> &str {
        self.context.name()
    }

    /// [`DeferredContext::semantics`].
    pub fn semantics(&self) -> recorder::Semantics {
        self.context.semantics()
    }

    /// [`DeferredContext::current_instance`].
    pub fn current_instance(&self, buffer: recorder::RawHandle) -> recorder::command::InstanceId {
        self.context.current_instance(buffer)
    }

    /// [`DeferredContext::insert_fence`].
    pub fn insert_fence(&mut self, engine: recorder::Engine) -> u64 {
        self.insert_fence_with(engine, recorder::FenceFlags::NoKickOff)
    }

    /// [`DeferredContext::insert_fence_with`] (R-FX-6): written `insert_fence F [kick_off]`.
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

    /// [`DeferredContext::create_device_context_state`] (R-FX-6): not a recorded call.
    pub fn create_device_context_state(
        &mut self,
    ) -> Result<recorder::DeviceContextState, recorder::Error> {
        self.context.create_device_context_state()
    }

    /// [`DeferredContext::execute_command_list`] (nesting, R-REC-9): a captured list brings in
    /// the nested list's calls; a nested list without them breaks the list's capture.
    #[inline]
    pub fn execute_command_list(&mut self, list: &CommandList, restore: RestoreState) {
        if self.tap_active() {
            match list_log(list) {
                Some(log) => {
                    self.tap.call(Method::Execute {
                        list: Obj::List(log.id),
                        restore: restore.is_restore(),
                    });
                    self.tap.nested.push(log);
                }
                None => {
                    self.tap.broken.get_or_insert_with(|| {
                        "it executes a nested list recorded before the capture began".to_string()
                    });
                }
            }
        }
        self.context.execute_command_list(list, restore)
    }

    /// [`DrawBundleExt::draw_bundle`], captured.
    #[inline]
    pub fn draw_bundle(&mut self, bundle: &DrawBundle) {
        if self.tap_active() {
            let obj = Obj::Engine(ObjectKind::Bundle, bundle.handle().raw());
            self.tap.call(Method::DrawBundle { bundle: obj });
            self.tap.bundles.push(obj);
        }
        DrawBundleExt::draw_bundle(&mut self.context, bundle)
    }

    /// [`DeferredContext::finish_command_list`]: a captured list carries its calls.
    pub fn finish_command_list(
        &mut self,
        restore: RestoreState,
    ) -> Result<CommandList, RecordError> {
        // A list with no kept call yet decides now (an empty list is captured too).
        let kept = if self.tap.is_fresh() {
            self.tap_slow()
        } else {
            self.tap.is_on()
        };
        self.tap.settle();
        let finished = self.context.finish_command_list(restore);
        match finished {
            Ok(mut list) => {
                let ordinal = self.extra.lists;
                self.extra.lists += 1;
                if kept {
                    let id = self.tap.shared().next_serial();
                    let info = self.extra.info.clone();
                    let log = self.tap.take_list(id, ordinal, info, restore.is_restore());
                    let _ = list.attach(Arc::new(log));
                } else {
                    self.tap.end_list();
                }
                Ok(list)
            }
            Err(error) => {
                // A refused finish that keeps the list open (a map still open, a fast restore)
                // leaves the tap as it is; a discarded list starts afresh.
                if self.context.stats().calls == 0 {
                    self.extra.lists += 1;
                    self.tap.end_list();
                }
                Err(error)
            }
        }
    }

    /// [`DeferredContext::discard_command_list`].
    pub fn discard_command_list(&mut self) {
        self.extra.lists += 1;
        self.tap.end_list();
        self.context.discard_command_list()
    }
}

/// The calls a captured list carries, if it was captured.
pub(crate) fn list_log(list: &CommandList) -> Option<Arc<ListLog>> {
    list.attachment()
        .and_then(|a| a.clone().downcast::<ListLog>().ok())
}
