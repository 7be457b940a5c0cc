//! The fence kick-off (R-FX-6, seed 000: "The InsertFence method will place a monotonically
//! increasing fence into a command stream and advance the fence, while optionally kicking off
//! the current segment into which the fence has been placed").
//!
//! **In:** `insert_fence_with(engine, FenceFlags::KickOff)` on a deferred context or the
//! immediate context's recorder. **Out:** the fence command with its kick-off bit (operand bit
//! `command::KICK_OFF_BIT`) and, in a list, a side record of kind `KickOff`: the list's segments
//! ([`Segments`](crate::Segments)) end a run of commands right after the fence, so the list runs
//! as one more indirect-buffer execution. On the immediate context the executor also submits the
//! batch so far, as a flush does.
//!
//! **Invariant.** A kicked-off fence is the last command of its run: the run that holds it ends
//! there, and nothing else changes (the fence passes when its run executes, as any fence).

use crate::chunk::SideKind;
use crate::command::{write_command, CommandBytes, Opcode, KICK_OFF_BIT};
use crate::context::role::Role;
use crate::desc::Engine;
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
