//! Fences, waits and presents (R-EX-5, R-EX-7, R-FX-6): `insert_fence` and its kick-off form,
//! `insert_wait_on_fence`, `insert_wait_on_present`, and the memory operations
//! `write_value_bottom_of_pipe` and `insert_wait_on_memory`, on every context that records.
//!
//! **In:** an engine and a fence value, a swap chain, or a buffer offset and a value. **Out:**
//! one command each; a fence's value is device-wide and larger than every value handed out
//! before. A released swap chain or buffer refuses the call (`released_object`).
//!
//! **The kick-off** (seed 000: "The InsertFence method will place a monotonically increasing
//! fence into a command stream and advance the fence, while optionally kicking off the current
//! segment into which the fence has been placed"). **In:** `insert_fence_with(engine, FenceFlags::KickOff)` on a deferred context or the
//! immediate context's recorder. **Out:** the fence command with its kick-off bit (operand bit
//! `command::KICK_OFF_BIT`) and, in a list, a side record of kind `KickOff`: the list's segments
//! ([`Segments`](crate::Segments)) end a run of commands right after the fence, so the list runs
//! as one more indirect-buffer execution. On the immediate context the executor also submits the
//! batch so far, as a flush does.
//!
//! **Invariant.** A kicked-off fence is the last command of its run: the run that holds it ends
//! there, and nothing else changes (the fence passes when its run executes, as any fence).

use crate::chunk::SideKind;
use crate::command::*;
use crate::context::core_access::{Context, CoreAccess};
use crate::context::role::Role;
use crate::desc::Engine;
use crate::device::handle::*;
use crate::device::object_info::BufferInfo;
use crate::errors::Error;
use crate::sync::Ordering;
use crate::Recorder;

/// How [`insert_fence_with`](Recorder::insert_fence_with) places its fence (R-FX-6). The
/// default leaves the segment open, as [`insert_fence`](Recorder::insert_fence) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FenceFlags {
    /// The fence goes into the current segment, which stays open.
    #[default]
    NoKickOff,
    /// The fence ends the current segment: on the immediate context the batch so far is
    /// submitted (as a flush does); in a list the run of commands ends after the fence, so the
    /// list runs as one more indirect-buffer execution.
    KickOff,
}

impl FenceFlags {
    /// Whether the fence kicks off its segment.
    #[inline]
    pub fn kicks_off(self) -> bool {
        self == Self::KickOff
    }
}

impl<R: Role> Recorder<R> {
    /// [`insert_fence`](Self::insert_fence) with `flags`: with [`FenceFlags::KickOff`] the fence
    /// also ends the current segment (R-FX-6, see [`FenceFlags`]). Returns the fence's value.
    pub fn insert_fence_with(&mut self, engine: Engine, flags: FenceFlags) -> u64 {
        if !flags.kicks_off() {
            return self.insert_fence(engine);
        }
        self.begin_call();
        let value = self.device.next_fence.fetch_add(1, Ordering::Relaxed);
        let size = CommandBytes::fixed::<u64>();
        let at = self.reserve(size, Some(SideKind::KickOff));
        // SAFETY: `at` has `size` bytes for the header and the `u64` value.
        unsafe {
            write_command(
                at,
                Opcode::InsertFence,
                engine as u8 | KICK_OFF_BIT,
                None,
                size,
                value,
            )
        };
        value
    }
}

impl<R: Role> Recorder<R> {
    /// [`FenceCalls::insert_wait_on_present`](crate::FenceCalls::insert_wait_on_present): its semantics.
    pub(crate) fn insert_wait_on_present(&mut self, chain: SwapChain) {
        self.begin_call();
        const CALL: &str = "insert_wait_on_present";
        if self.device.swap_chains.get(chain.0, false).is_err() {
            return self.fail(
                self.device
                    .stale_error(CALL, ObjectKind::SwapChain, chain.0),
            );
        }
        if let Err(error) = self.retain(ObjectKind::SwapChain, chain.0, 1, CALL) {
            return self.fail(error);
        }
        self.emit(Opcode::InsertWaitOnPresent, 0, None, chain.0);
    }

    /// Inserts a fence on `engine` and returns its value (R-EX-5): device-wide, larger than
    /// every value handed out before, on any context. The fence passes when the GPU has
    /// finished everything before it, in the order the work executes (a list's fence, when the
    /// list runs); `ImmediateContext::is_fence_pending` tells. Not a hot-path call: it takes
    /// one atomic add on the device's counter, under either semantics.
    pub fn insert_fence(&mut self, engine: Engine) -> u64 {
        self.begin_call();
        let value = self.device.next_fence.fetch_add(1, Ordering::Relaxed);
        self.emit(Opcode::InsertFence, engine as u8, None, value);
        value
    }

    /// [`FenceCalls::insert_wait_on_fence`](crate::FenceCalls::insert_wait_on_fence): its semantics.
    pub(crate) fn insert_wait_on_fence(&mut self, engine: Engine, value: u64) {
        self.begin_call();
        let next = self.device.next_fence.load(Ordering::Relaxed);
        if value == 0 || value >= next {
            return self.fail(Error::OutOfRange {
                call: "insert_wait_on_fence",
                argument: "fence",
                value: format!("{value:#x}"),
                allowed: format!(
                    "a fence inserted already (the last is {:#x}); the {} engine would wait forever (R-EX-5)",
                    next - 1,
                    engine.name()
                )
                .into(),
            });
        }
        self.emit(Opcode::InsertWaitOnFence, engine as u8, None, value);
    }

    /// [`FenceCalls::write_value_bottom_of_pipe`](crate::FenceCalls::write_value_bottom_of_pipe): its semantics.
    pub(crate) fn write_value_bottom_of_pipe(&mut self, buffer: Buffer, offset: u64, value: u64) {
        self.memory_op(
            Opcode::WriteValueBottomOfPipe,
            "write_value_bottom_of_pipe",
            buffer,
            offset,
            value,
        );
    }

    /// [`FenceCalls::insert_wait_on_memory`](crate::FenceCalls::insert_wait_on_memory): its semantics.
    pub(crate) fn insert_wait_on_memory(&mut self, buffer: Buffer, offset: u64, value: u64) {
        self.memory_op(
            Opcode::InsertWaitOnMemory,
            "insert_wait_on_memory",
            buffer,
            offset,
            value,
        );
    }

    fn memory_op(
        &mut self,
        opcode: Opcode,
        call: &'static str,
        buffer: Buffer,
        offset: u64,
        value: u64,
    ) {
        self.begin_call();
        let size = match self.device.buffers.get(buffer.0, false) {
            Ok(live) => BufferInfo::unpack(live.words).size as u64,
            Err(_) => {
                return self.fail(self.device.stale_error(call, ObjectKind::Buffer, buffer.0))
            }
        };
        if !offset.is_multiple_of(8) || offset.checked_add(8).is_none_or(|end| end > size) {
            return self.fail(Error::OutOfRange {
                call,
                argument: "offset",
                value: offset.to_string(),
                allowed: format!(
                    "a multiple of 8 with 8 bytes within the buffer's {size} bytes (R-EX-5)"
                )
                .into(),
            });
        }
        if let Err(error) = self.retain(ObjectKind::Buffer, buffer.0, 1, call) {
            return self.fail(error);
        }
        self.emit(
            opcode,
            0,
            None,
            MemoryPayload {
                buffer: buffer.0,
                offset,
                value,
            },
        );
    }
}

/// Waits and bottom-of-pipe writes (R-EX-5, R-EX-7): deferred and immediate contexts (R-B-8).
pub trait FenceCalls: Context {
    /// Waits until the swap chain's back buffer may be written (`InsertWaitOnPresent`).
    ///
    /// Waits for the current back buffer of `chain` to leave the display before writing it
    /// (fast semantics needs it once a frame, R-EX-7).
    #[inline]
    fn insert_wait_on_present(&mut self, chain: SwapChain) {
        self.recorder(CoreAccess(())).insert_wait_on_present(chain)
    }

    /// Waits for another engine's fence (`InsertWaitOnFence`).
    ///
    /// Makes `engine` wait until the fence `value` has passed. A value no `insert_fence` has
    /// handed out yet is refused: nothing could ever signal it.
    #[inline]
    fn insert_wait_on_fence(&mut self, engine: Engine, value: u64) {
        self.recorder(CoreAccess(()))
            .insert_wait_on_fence(engine, value)
    }

    /// Writes a value to memory when the work before it is done (`WriteValueBottomOfPipe`).
    ///
    /// Writes `value` at `offset` of `buffer` when the pipeline drains past this point.
    #[inline]
    fn write_value_bottom_of_pipe(&mut self, buffer: Buffer, offset: u64, value: u64) {
        self.recorder(CoreAccess(()))
            .write_value_bottom_of_pipe(buffer, offset, value)
    }

    /// Waits until memory holds a value (`InsertWaitOnMemory`).
    ///
    /// Waits until `offset` of `buffer` holds `value`.
    #[inline]
    fn insert_wait_on_memory(&mut self, buffer: Buffer, offset: u64, value: u64) {
        self.recorder(CoreAccess(()))
            .insert_wait_on_memory(buffer, offset, value)
    }
}
