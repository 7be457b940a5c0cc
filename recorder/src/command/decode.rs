//! Reading encoded commands back (`encode.rs` writes them) into the typed [`Command`] that
//! execution, nesting, validation and a legacy list's drop walk see: the header here, the
//! payload by the opcode's entry of the table (`vocabulary/`), through [`EncodedPayload`].
//!
//! **In:** the address of a command the encoder wrote in a sealed chunk. **Out:** a
//! [`Decoded`] command borrowing its trailing arrays from the chunk (no copy), its split
//! category, and the offset of the next command. Execution decodes each command once and hands
//! the typed form on (a split point's patch included, `patch.rs`).
//!
//! **Invariant.** Only what the encoder wrote is read, within the size its header holds: a count
//! stored in a payload never reaches past its command.

use crate::context::split::SplitCategory;

use super::encoded_payload::read;
use super::{Command, CommandHeader, Decoded, EncodedPayload, Opcode, HEADER};

/// The offset after the command, list header or list index at `offset` of the chunk at `base`,
/// read from its header alone: how the walks step over what is not a command, never decoding it.
///
/// # Safety
/// `base + offset` must be the start of a header the encoder wrote into a chunk that is alive.
pub(crate) unsafe fn next_offset(base: *const u8, offset: usize) -> usize {
    // SAFETY: the caller points at a header the encoder wrote: aligned to 8 (every command and
    // both list records are) and initialised.
    let header: CommandHeader = unsafe { read(base.add(offset)) };
    offset + header.size as usize
}

#[cfg(debug_assertions)]
std::thread_local! {
    static DECODES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Commands decoded on this thread so far (debug builds only): what a test of "each command is
/// decoded once at execution" counts around an execution.
#[cfg(debug_assertions)]
pub fn decodes_on_this_thread() -> u64 {
    DECODES.with(std::cell::Cell::get)
}

/// Decodes the command at `offset` of the chunk at `base`; returns it and the next offset.
///
/// # Safety
/// `base + offset` must be the start of a command written by this module into a chunk that stays
/// alive and unchanged for `'a`.
#[inline]
pub(crate) unsafe fn decode<'a>(base: *const u8, offset: usize) -> (Decoded<'a>, usize) {
    // SAFETY: the caller's guarantee is `decode_inline`'s.
    unsafe { decode_inline(base, offset) }
}

/// [`decode`], inlined into its caller: for the executing walk (`Commands::walk`), which builds
/// each command where its callback reads it. Everywhere else `decode` stays a call.
///
/// # Safety
/// As for [`decode`].
#[inline(always)]
pub(crate) unsafe fn decode_inline<'a>(base: *const u8, offset: usize) -> (Decoded<'a>, usize) {
    #[cfg(debug_assertions)]
    DECODES.with(|decodes| decodes.set(decodes.get() + 1));
    // SAFETY: the caller points at a command the encoder wrote, alive and unchanged for 'a: its
    // header is read from it, and its payload handed to its opcode's arm of the table, which
    // reads inside the command (`Command::decode_at`'s argument).
    unsafe {
        let at = base.add(offset);
        let header: CommandHeader = read(at);
        let size = header.size as usize;
        let opcode = Opcode::from_u8(header.opcode as u8).unwrap_or(Opcode::ClearState);
        // Only commands are decoded: the walks start after the list's header and stop before its
        // index, and the encoder writes no other opcode. The release build's fallback above keeps
        // a corrupted byte from being undefined behaviour; a debug build says where it went wrong.
        debug_assert!(
            Opcode::from_u8(header.opcode as u8)
                .is_some_and(|op| op != Opcode::ListStart && op != Opcode::ListIndex),
            "decode at offset {offset}: opcode byte {} is not a command",
            header.opcode as u8
        );
        let payload = EncodedPayload::new(at.add(HEADER), size, header.operand);
        let split = header.split.checked_sub(1).and_then(SplitCategory::from_u8);
        Command::decode_at(opcode, payload, split, offset, offset + size)
    }
}
