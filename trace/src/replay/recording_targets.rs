//! The recorders a trace's calls go to ([`Recording`]): a deferred context, the immediate
//! context, the reference's immediate recorder and a bundle recorder, each implementing the few
//! calls the replay needs beyond the capabilities they share.
//!
//! **In:** a recorder of the engine. **Out:** the calls `apply.rs` makes on it, each answered as
//! that recorder answers (a bundle recorder refusing what a bundle may not hold, R-B-7, R-B-8).
//! **Invariant:** a call a recorder lacks is refused the way the engine refuses it, never
//! dropped in silence.

use bundles::{BundleRecorder, DrawBundle, DrawBundleExt};
use executor::ImmediateContext;
use recorder::command::InstanceId;
use recorder::FenceFlags;
use recorder::{
    BindCalls, Capability, CommandList, Context, DeferredContext, DeviceContext,
    DeviceContextState, DrawCalls, Engine, Error, FastBindCalls, ImmediateRole, RawHandle,
    Recorder, Remap, RemapKind, RestoreState,
};

/// A recorder a trace's calls go to: a deferred context, the immediate context or a bundle
/// recorder. The calls every recorder has (binds, fast binds, draws) are reached as they are;
/// the rest through [`full`](Self::full), the recorder as a context with every capability,
/// which a bundle recorder is not (it refuses the call instead, with
/// [`Capability::bundle_refusal`]'s kind). These are the few calls the replay needs beyond the
/// capabilities, which differ by recorder.
pub(crate) trait Recording: Context + BindCalls + FastBindCalls + DrawCalls {
    /// The recorder as a context with every capability.
    type Full: DeviceContext;
    /// The recorder with every capability, to make `call` (of `capability`) on; `None` when it
    /// has not the capability, having refused the call as the engine does (a bundle recorder).
    fn full(&mut self, call: &'static str, capability: Capability) -> Option<&mut Self::Full>;
    /// Calls accepted so far in the list or bundle being recorded (a refused call does not move
    /// it).
    fn accepted(&self) -> u32 {
        self.stats().calls
    }
    /// The error of the most recent refused call.
    fn refusal(&self) -> Option<Error> {
        self.last_refusal().cloned()
    }
    /// The instance a write_discard map of `buffer` made current.
    fn instance_of(&self, buffer: RawHandle) -> InstanceId;
    /// Inserts a fence (kicking off its segment with `FenceFlags::KickOff`, R-FX-6); its
    /// value, where the recorder hands one out.
    fn fence(&mut self, engine: Engine, flags: FenceFlags) -> Option<u64>;
    fn execute(&mut self, list: &CommandList, restore: RestoreState);
    fn call_bundle(&mut self, bundle: &DrawBundle);
    /// Records a remap; `false` where the recorder has none (a deferred context).
    fn remap(&mut self, remap: Remap) -> bool;
    /// `create_device_context_state` (R-FX-6): the object, or the refusal (a fast context's
    /// `forbidden_in_fast`; a bundle's `unsupported_in_bundle`). Not a recorded call.
    fn create_state(&mut self) -> Result<DeviceContextState, Error>;
    /// `swap_device_context_state` (R-FX-6), a call of the legacy immediate context alone: the
    /// refusal it reports itself (poisoning nothing), or `None` when the recorder accepted it or
    /// refused it as a recorded call (a bundle recorder's `unsupported_in_bundle`). The object
    /// the swap hands back (the previously active one) the trace has no name for: dropped.
    fn swap_state(&mut self, state: &DeviceContextState) -> Option<Error>;
}

/// Makes `call` on the recorder as a context with every capability, or refuses it as a bundle
/// recorder does (the call's `capability`, R-B-7, R-B-8).
pub(super) fn in_context<R: Recording>(
    recorder: &mut R,
    call: &'static str,
    capability: Capability,
    make: impl FnOnce(&mut R::Full),
) {
    if let Some(context) = recorder.full(call, capability) {
        make(context)
    }
}

impl Recording for DeferredContext {
    type Full = Self;
    fn full(&mut self, _call: &'static str, _capability: Capability) -> Option<&mut Self> {
        Some(self)
    }
    fn instance_of(&self, buffer: RawHandle) -> InstanceId {
        self.current_instance(buffer)
    }
    fn fence(&mut self, engine: Engine, flags: FenceFlags) -> Option<u64> {
        Some(self.insert_fence_with(engine, flags))
    }
    fn execute(&mut self, list: &CommandList, restore: RestoreState) {
        self.execute_command_list(list, restore)
    }
    fn call_bundle(&mut self, bundle: &DrawBundle) {
        DrawBundleExt::draw_bundle(self, bundle)
    }
    fn remap(&mut self, _remap: Remap) -> bool {
        false
    }
    fn create_state(&mut self) -> Result<DeviceContextState, Error> {
        self.create_device_context_state()
    }
    fn swap_state(&mut self, _state: &DeviceContextState) -> Option<Error> {
        // D3D11 swaps state on the immediate context alone (R-FX-6): a deferred context has no
        // such call; the replay refuses it as a call that reports its own result.
        Some(self.refuse_reported(Error::WrongContext {
            call: "swap_device_context_state",
            context: "a deferred context",
            owner: "the legacy immediate context",
            rule: "R-FX-6",
        }))
    }
}

/// The immediate context's direct calls (its maps, executions, bundle calls and presents are
/// replayed by `live.rs` itself, with their results).
impl Recording for ImmediateContext {
    type Full = Self;
    fn full(&mut self, _call: &'static str, _capability: Capability) -> Option<&mut Self> {
        Some(self)
    }
    fn instance_of(&self, buffer: RawHandle) -> InstanceId {
        self.current_instance(buffer)
    }
    fn fence(&mut self, engine: Engine, flags: FenceFlags) -> Option<u64> {
        Some(self.insert_fence_with(engine, flags))
    }
    fn execute(&mut self, list: &CommandList, restore: RestoreState) {
        let _ = self.execute_command_list(list, restore);
    }
    fn call_bundle(&mut self, bundle: &DrawBundle) {
        let _ = self.draw_bundle(bundle);
    }
    fn remap(&mut self, _remap: Remap) -> bool {
        false
    }
    fn create_state(&mut self) -> Result<DeviceContextState, Error> {
        self.create_device_context_state()
    }
    fn swap_state(&mut self, state: &DeviceContextState) -> Option<Error> {
        self.swap_device_context_state(state).err()
    }
}

/// The reference's immediate recorders (`reference/`): the immediate context's direct calls,
/// recorded without the executor. Executions and bundle calls are the immediate context's, not
/// its recorder's: refused as before the roles were types.
impl Recording for Recorder<ImmediateRole> {
    type Full = Self;
    fn full(&mut self, _call: &'static str, _capability: Capability) -> Option<&mut Self> {
        Some(self)
    }
    fn instance_of(&self, buffer: RawHandle) -> InstanceId {
        self.current_instance(buffer)
    }
    fn fence(&mut self, engine: Engine, flags: FenceFlags) -> Option<u64> {
        Some(self.insert_fence_with(engine, flags))
    }
    fn execute(&mut self, _list: &CommandList, _restore: RestoreState) {
        self.refuse(Error::WrongContext {
            call: "execute_command_list",
            context: "the immediate context's recorder",
            owner: "ImmediateContext::execute_command_list",
            rule: "R-EX-1",
        })
    }
    fn call_bundle(&mut self, _bundle: &DrawBundle) {
        self.refuse(Error::WrongContext {
            call: "draw_bundle",
            context: "the immediate context's recorder",
            owner: "ImmediateContext::draw_bundle",
            rule: "R-B-10",
        })
    }
    fn remap(&mut self, _remap: Remap) -> bool {
        false
    }
    fn create_state(&mut self) -> Result<DeviceContextState, Error> {
        self.create_device_context_state()
    }
    fn swap_state(&mut self, _state: &DeviceContextState) -> Option<Error> {
        // The active object is the immediate context's, not its recorder's: the reference makes
        // its swaps itself (`reference/follow.rs`), never through here.
        Some(self.refuse_reported(Error::WrongContext {
            call: "swap_device_context_state",
            context: "the immediate context's recorder",
            owner: "ImmediateContext::swap_device_context_state",
            rule: "R-FX-6",
        }))
    }
}

/// A bundle recorder: the calls it has not (a fence, an execution, a bundle call) are refused
/// as a bundle refuses them (`unsupported_in_bundle`, R-B-8).
impl Recording for BundleRecorder {
    /// Never made: a bundle recorder has no capability beyond binds and draws.
    type Full = DeferredContext;
    fn full(&mut self, call: &'static str, capability: Capability) -> Option<&mut DeferredContext> {
        self.refuse_missing_capability(call, capability);
        None
    }
    fn instance_of(&self, _buffer: RawHandle) -> InstanceId {
        InstanceId::INITIAL
    }
    fn fence(&mut self, _engine: Engine, _flags: FenceFlags) -> Option<u64> {
        self.refuse_unsupported("insert_fence");
        None
    }
    fn execute(&mut self, _list: &CommandList, _restore: RestoreState) {
        self.refuse_unsupported("execute_command_list")
    }
    fn call_bundle(&mut self, _bundle: &DrawBundle) {
        self.refuse_unsupported("draw_bundle")
    }
    fn create_state(&mut self) -> Result<DeviceContextState, Error> {
        // A bundle is fast and has neither call (R-FX-6, R-B-8); not a recorded call.
        Err(Error::UnsupportedInBundle {
            call: "create_device_context_state",
        })
    }
    fn swap_state(&mut self, _state: &DeviceContextState) -> Option<Error> {
        self.refuse_unsupported("swap_device_context_state");
        None
    }
    fn remap(&mut self, remap: Remap) -> bool {
        let Remap {
            kind,
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        } = remap;
        match kind {
            RemapKind::ConstantBuffer => {
                self.remap_constant_buffer_inheritance(stage, slot, inherit_stage, inherit_slot)
            }
            RemapKind::ShaderResource => {
                self.remap_shader_resource_inheritance(stage, slot, inherit_stage, inherit_slot)
            }
            RemapKind::Sampler => {
                self.remap_sampler_inheritance(stage, slot, inherit_stage, inherit_slot)
            }
            RemapKind::VertexBuffer => self.remap_vertex_buffer_inheritance(slot, inherit_slot),
        }
        true
    }
}
