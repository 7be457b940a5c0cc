//! The command vocabulary (R-REC-3): every command a list, a batch or a bundle can hold, in the
//! one place that knows its opcode, its payload, how it is encoded and decoded, and which objects
//! it names. Everything else that reads commands goes through this module.
//!
//! **In:** a recording call's resolved arguments (descriptors, payloads) from the contexts, which
//! write them with `write_command` into a reserved `CommandBytes`. **Out:** the typed
//! [`Command`] a chunk's bytes decode to ([`Decoded`], one decode per command at execution), the
//! objects a command names ([`Command::for_each_object`]: legacy references, release on drop,
//! validation), and a split point's binding patched at execution ([`SplitPoint`], R-SP-4).
//!
//! **The files.**
//! - `vocabulary/`: **the table**, one entry per command, in one file per area (binds, draws,
//!   transfers, queries, fences, barriers, fast extensions, and the opcodes that are no command
//!   of their own): its opcode byte, its [`Command`] variant with its fields, which objects it
//!   names and how it decodes from its payload;
//! - `command_table.rs`: `command_table!`, which makes [`Opcode`], [`Command`], the decode
//!   dispatch and [`Command::for_each_object`] from the table;
//! - this file: `Opcode::from_u8` and the 8-byte [`CommandHeader`] in front of every command;
//! - `bound.rs`: the bound descriptors, what a command carries of each object it names
//!   ([`BoundBuffer`], [`BoundView`], [`BoundShader`], [`BoundResource`]) and the dynamic
//!   instance they read ([`InstanceId`]), and what a decoded command holds in their place
//!   ([`BoundBuffers`], [`NestedList`]);
//! - `payload.rs`: the payload layouts (`repr(C)`, multiples of 8), one per shape of command,
//!   shared by the recording calls that write them and the entries that read them, and the
//!   remaps of a bundle's inherited slots ([`Remap`]);
//! - `draw_args.rs`: the draw arguments ([`DirectArgs`], [`DrawArgs`]), one type from the call
//!   to the record;
//! - `encode.rs`: the sizes (`CommandBytes`, R-REC-12) and `write_command`, the one writer of a
//!   command;
//! - `decoded.rs`: what comes with a decoded [`Command`]: [`Decoded`] (its split category and
//!   offset) and [`Command::shader_views`];
//! - `encoded_payload.rs`: `EncodedPayload`, what a decode block reads (the payload, its
//!   trailing arrays bounded by the command's size, the operand);
//! - `decode.rs`: `decode`, the header read and the table's dispatch, and the walks' step over
//!   what is not a command (`next_offset`);
//! - `patch.rs`: [`SplitPoint`], the one place that knows which binding of a split point reads
//!   the executing context's current instance, and patches it.
//!
//! **Adding a command** is one entry in its area's file of `vocabulary/` (and a layout in
//! `payload.rs` when no existing one fits). Outside this module the compiler then asks for its
//! arm in the one exhaustive match over [`Command`], the GPU model's `apply` (executor): what
//! the command means. The recording call that encodes it is written beside its area's calls.
//!
//! **Why a table, and why this one.** A command used to be written four times here (its opcode,
//! its variant, its decode arm, its arm of the object walk), each list in its own file and kept
//! in step by hand; the house style asks for one entry per call, checked by the compiler. Two
//! ways were open. Per-command payload types with `Decode`/`Objects` traits would still need the
//! one `Copy` enum that execution, validation and the bundles match on, and a dispatch that
//! lists every type: the lists again, each a line shorter. A `macro_rules!` table makes those
//! lists from one list instead. Its cost is that the entries sit inside macro calls, out of
//! rustfmt's reach; so the macro holds no command's code and the entries hold little: each
//! entry's blocks are ordinary Rust expressions (read the payload, build the variant; call `one`
//! per object), and a layout read in more than a line or two is a method of `EncodedPayload`
//! (`slots`, `with_data`, `render_targets`), which rustfmt formats and tools read. The table is
//! split by area (`vocabulary/`), each area's file handing its entries on to the next, so that
//! no file grows past reading as calls are added. The opcode bytes are written in the entries
//! because they are the encoding: a new entry takes the next byte, and none moves (the table
//! checks that they stay dense; `from_u8` relies on it).
//!
//! **The hot path** keeps its shape: `decode` reads the header and makes one `match` over the
//! opcode (`Command::decode_at`, `#[inline(always)]` into it), each arm its entry's block: no
//! call, no table of function pointers. `decode_at` builds `decode`'s whole result, so each arm
//! writes its variant where the caller reads it; the match's result is not copied into a
//! [`Decoded`] afterwards.
//!
//! **Invariant.** A command's size is checked where it is made (`CommandBytes`) and trusted where
//! it is read: a count stored in a payload never reaches past its command.

mod bound;
mod command_table;
mod decode;
mod decoded;
mod draw_args;
mod encode;
mod encoded_payload;
mod patch;
mod payload;
mod vocabulary;

pub use bound::*;
#[cfg(debug_assertions)]
pub use decode::decodes_on_this_thread;
pub(crate) use decode::*;
pub use decoded::*;
pub use draw_args::*;
pub(crate) use encode::*;
pub(crate) use encoded_payload::EncodedPayload;
pub use patch::*;
pub use payload::*;
pub use vocabulary::{Command, Opcode};

impl Opcode {
    /// The opcode whose byte is `value`, if any.
    #[inline]
    pub(crate) fn from_u8(value: u8) -> Option<Self> {
        // SAFETY: `Opcode` is `repr(u8)` with the dense discriminants `0..COUNT` (asserted at
        // compile time where the table makes it, `command_table.rs`), and `value` is below
        // `COUNT`, so it is the discriminant of a variant.
        ((value as usize) < Self::COUNT)
            .then(|| unsafe { std::mem::transmute::<u8, Opcode>(value) })
    }
}

/// The 8 bytes in front of every command.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(8))]
pub struct CommandHeader {
    /// Which command follows.
    pub opcode: Opcode,
    /// A small operand: the stage, the topology, the engine, the restore flag.
    pub operand: u8,
    /// 0, or 1 + the [`SplitCategory`](crate::SplitCategory) when the command is a split point.
    pub split: u8,
    _reserved: u8,
    /// Bytes of the whole command, header included.
    pub size: u32,
}

pub(crate) const HEADER: usize = std::mem::size_of::<CommandHeader>();

/// The operand bit of [`Opcode::InsertFence`] that marks a kick-off (R-FX-6, `fences.rs`); the
/// engine is in the bits below it.
pub const KICK_OFF_BIT: u8 = 0x80;

/// The operand of a compact [`Opcode::SetConstantBuffer`]: the stage in the low 3 bits, the slot
/// (below 16, R-OBJ-5) above them.
#[inline(always)]
pub(crate) const fn compact_slot(stage: crate::desc::Stage, slot: u32) -> u8 {
    stage as u8 | (slot as u8) << 3
}
const _: () = assert!(HEADER == 8);

// A decoded command is moved and matched on every command executed: its large payloads are
// borrowed from the chunk (`EncodedPayload::get`), so that no variant is larger than this.
const _: () = assert!(std::mem::size_of::<Command<'static>>() <= 48);

#[cfg(test)]
mod tests {
    use super::Opcode;

    /// R-REC-3: every byte of the table reads back as its opcode and no other byte reads as one,
    /// so `decode` falls back (release) or asserts (debug) on exactly the bytes that are none.
    #[test]
    fn r_rec_3_each_opcode_byte_reads_back_as_its_opcode_and_no_other_byte_does() {
        for &opcode in Opcode::ALL {
            assert_eq!(Opcode::from_u8(opcode as u8), Some(opcode));
        }
        let mut bytes: Vec<u8> = Opcode::ALL.iter().map(|&opcode| opcode as u8).collect();
        bytes.sort_unstable();
        bytes.dedup();
        assert_eq!(bytes.len(), Opcode::COUNT);
        for byte in 0..=u8::MAX {
            assert_eq!(
                Opcode::from_u8(byte).is_some(),
                bytes.contains(&byte),
                "{byte}"
            );
        }
    }
}
