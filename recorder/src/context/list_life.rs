//! A list's life on a context (R-REC-6, R-REC-9, R-ST-1): begun (its header reserved, legacy
//! state carried in), finished, discarded, and the calls only a deferred context makes on it
//! (`finish_command_list`, `discard_command_list`, `execute_command_list`).
//!
//! **In:** a context's recorded commands and its finish, discard or nesting call. **Out:** a
//! finished [`CommandList`] (sealed by `seal.rs`) or the list's first error, and a new list
//! begun in its place, from the ClearState defaults or (legacy, restore) the carried state.
//!
//! **Invariant.** A context always has a list open: every end (finished, refused for good,
//! discarded) begins the next one; a finish refused for a reason the application can fix
//! (`restore_not_supported`, a buffer still mapped) leaves the list open as it was.

use crate::chunk::SideKind;
use crate::command::*;
use crate::context::refs::LIST;
use crate::context::role::{DeferredRole, Role};
use crate::context::{Recorder, RestoreState};
use crate::desc::Semantics;
use crate::device::handle::ObjectKind;
use crate::errors::{Error, RecordError};
use crate::list::{discard_chain, CommandList, ListHeader, ListStats, StartState};

impl<R: Role> Recorder<R> {
    /// Begins a list: reserves its header, forgets the previous list's maps, and under legacy
    /// semantics re-binds the carried state when the last finish had restore=true (R-ST-1).
    pub(crate) fn start_list(&mut self, carried: bool) {
        self.stats = ListStats::default();
        self.calls_made = 0;
        self.refused = 0;
        self.error = None;
        self.last_refusal = None;
        self.unreferenced = false;
        self.back_buffer = None;
        if !R::RUNS_AT_ONCE {
            // A list starts with no GDS range of its own (R-FX-4).
            self.gds_ranges = [0; 2];
        }
        if R::RUNS_AT_ONCE {
            // The immediate context's maps outlive its batches; their data does not.
            self.maps.forget_data();
        } else {
            self.maps.clear();
        }
        self.start = match (self.semantics, carried) {
            _ if R::RUNS_AT_ONCE => StartState::Inherited,
            (Semantics::Fast, _) => StartState::Inherited,
            (Semantics::Legacy, false) => StartState::ClearState,
            (Semantics::Legacy, true) => StartState::Carried,
        };
        let size = CommandBytes::fixed::<ListHeader>();
        let at = self
            .writer
            .reserve(size, None, &self.device.pool, &self.policy);
        // SAFETY: `at` has `size` bytes; the payload is written for real by `finish`.
        self.list_header = unsafe {
            let payload = write_command(at, Opcode::ListStart, 0, None, size, Empty);
            payload as *mut ListHeader
        };
        if carried {
            self.emit_carried_state();
        }
    }

    /// [`finish_command_list`](Recorder::finish_command_list)'s work, for the deferred
    /// context and for a bundle's core (`Recorder::finish_bundle`).
    pub(crate) fn finish_list(&mut self, restore: bool) -> Result<CommandList, RecordError> {
        self.calls_made += 1;
        if let Some(error) = self.error.take() {
            self.discard_list();
            self.after_finish(false);
            return Err(error);
        }
        if restore && self.semantics == Semantics::Fast {
            return Err(self.refuse_finish(Error::RestoreNotSupported {
                call: "finish_command_list",
            }));
        }
        let still_mapped = self.maps.still_mapped().next();
        if let Some(handle) = still_mapped {
            let object = self.device.object_name(ObjectKind::Buffer, handle);
            return Err(self.refuse_finish(Error::StillMapped {
                call: "finish_command_list",
                object,
            }));
        }
        self.calls_made -= 1;
        let stats = self.stats();
        let list = match self.seal_list(stats, self.start) {
            Ok(list) => list,
            Err(error) => {
                // The list cannot be encoded: nothing can shrink it, so it is dropped.
                self.calls_made += 1;
                let error = self.refuse_finish(error);
                self.discard_list();
                self.after_finish(false);
                return Err(error);
            }
        };
        tracing::debug!(
            context = &*self.name,
            calls = stats.calls,
            bytes = stats.bytes,
            chunks = stats.chunks,
            split_points = stats.split_points.total(),
            "finish_command_list"
        );
        self.after_finish(restore);
        Ok(list)
    }

    #[cold]
    fn refuse_finish(&mut self, error: Error) -> RecordError {
        self.refused += 1;
        self.last_refusal = Some(error.clone());
        RecordError {
            context: self.label(),
            call_index: self.calls_made - 1,
            error,
        }
    }

    fn after_finish(&mut self, restore: bool) {
        let carried = restore && self.semantics == Semantics::Legacy;
        if !carried {
            self.reset_shadow();
        }
        self.start_list(carried);
    }

    /// Drops the list being recorded and everything it holds.
    pub(crate) fn discard_list(&mut self) {
        if let Some(refs) = self.refs.as_mut() {
            refs.discard_list(&*self.device);
        }
        let first = self.writer.take_chain();
        if !first.is_null() {
            // SAFETY: the chain is ours, sealed, and referenced nowhere else.
            unsafe { discard_chain(first, self.policy.pool_limit, &self.device) };
        }
        self.list_header = std::ptr::null_mut();
    }

    /// Re-binds the state carried over from the previous list (legacy, restore=true), through the
    /// same encoding as the calls that set it: dynamic bindings become split points again, since
    /// their data stayed with the previous list (R-SP-1), and the list takes its own references.
    fn emit_carried_state(&mut self) {
        let Some(shadow) = self.shadow.take() else {
            return;
        };
        self.encode_state(&shadow);
        self.shadow.put(shadow);
        // The list takes its references on what it re-bound: walk what was just encoded (the
        // list holds nothing else yet).
        self.writer.seal_in_place();
        let (device, Some(refs)) = (&self.device, self.refs.as_mut()) else {
            return;
        };
        for decoded in crate::list::Commands::over(self.writer.first()) {
            decoded.command.for_each_object(|kind, handle| {
                // Carried bindings keep their objects alive, so this cannot fail.
                let _ = refs.add(&**device, kind, handle, LIST);
            });
        }
    }
}

/// The calls only a deferred context makes: the list's end, its abandonment, nesting.
impl Recorder<DeferredRole> {
    /// Ends the list (R-REC-6). Legacy: [`RestoreState::Restore`] keeps the context's state for
    /// the next list, [`RestoreState::ClearState`] resets it to the defaults. Fast: `Restore` is
    /// refused with `restore_not_supported` and the list stays open. A list with a sticky error is discarded
    /// and its first error returned.
    #[inline]
    pub fn finish_command_list(
        &mut self,
        restore: RestoreState,
    ) -> Result<CommandList, RecordError> {
        self.finish_list(restore.is_restore())
    }

    /// Abandons the list being recorded, whatever state it is in (a sticky error, a buffer
    /// still mapped, calls cut short by a panic): its commands are dropped with everything they
    /// hold, and a new list begins as after `finish_command_list(RestoreState::ClearState)` (legacy: from the
    /// ClearState defaults). A job system calls it when a job failed before the context
    /// records the next job, so nothing of the failed job leaks into another list.
    ///
    /// ```
    /// use recorder::*;
    ///
    /// let device = Device::new(DeviceDesc::default());
    /// let buffer = device.create_buffer(&BufferDesc {
    ///     name: "per_frame",
    ///     size: 64,
    ///     usage: Usage::Dynamic,
    ///     bind: BindFlags::CONSTANT,
    ///     ..Default::default()
    /// })?;
    /// let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
    /// let _ = context.map(buffer, MapType::WriteDiscard, MapFlags::None)?.keep_mapped();
    /// assert!(context.finish_command_list(RestoreState::ClearState).is_err()); // still mapped: the list stays open
    /// context.discard_command_list();
    /// context.draw(3, 0);
    /// assert_eq!(context.finish_command_list(RestoreState::ClearState).map_err(|e| e.error)?.stats().draws, 1);
    /// # Ok::<(), recorder::Error>(())
    /// ```
    pub fn discard_command_list(&mut self) {
        self.discard_list();
        self.after_finish(false);
    }

    /// Executes a finished list inside this one (R-REC-9): records a reference to it, copying no
    /// commands. Fast contexts refuse [`RestoreState::Restore`]; a legacy context afterwards has
    /// the ClearState defaults (`ClearState`) or its own state from before (`Restore`). Nesting has no depth
    /// limit: execution, validation and dropping walk it with stacks of their own, never by
    /// recursion on the call stack.
    pub fn execute_command_list(&mut self, list: &CommandList, restore: RestoreState) {
        let restore = restore.is_restore();
        self.begin_call();
        const CALL: &str = "execute_command_list";
        if restore && self.semantics == Semantics::Fast {
            return self.fail(Error::RestoreNotSupported { call: CALL });
        }
        if !std::ptr::eq(list.device_ptr(), &*self.device) {
            return self.fail(Error::WrongDevice {
                call: CALL,
                object: "command list",
                device: list.device_serial(),
                expected: self.device.identity.serial(),
                uses: "executes",
            });
        }
        let keep = list.clone();
        let address = keep.header_ptr() as usize;
        // The reference `keep` holds now belongs to this list's chain (see `discard_chain`).
        std::mem::forget(keep);
        let size = CommandBytes::fixed::<usize>();
        let at = self.reserve(size, Some(SideKind::Nested));
        // SAFETY: `at` has room for the header and the address.
        unsafe {
            write_command(
                at,
                Opcode::ExecuteCommandList,
                restore as u8,
                None,
                size,
                address,
            )
        };
        if self.back_buffer.is_none() {
            self.back_buffer = list.back_buffer_affinity();
        }
        // A nested list checked at every execution makes this one checked too (R-FX-1, R-FX-6).
        if list.checked_at_every_execution() {
            self.unreferenced();
        }
        if !restore {
            self.reset_shadow();
        }
        // The nested legacy list's last instances become this context's current ones and this
        // list's last, as after an execution on the immediate context (R-ST-8): later binds
        // read them, the bindings `restore = true` keeps are re-bound to them.
        for last in list.last_instances() {
            self.adopt_instance(last.resource, last.instance, restore);
        }
    }
}
