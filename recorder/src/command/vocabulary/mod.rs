//! The command vocabulary as one table (R-REC-3): each command is one entry that says everything
//! `command/` knows of it, written in its area's file. `command_table!` (`command_table.rs`)
//! makes the [`Opcode`] enum, the [`Command`] enum, the decode dispatch and
//! [`Command::for_each_object`] from the whole table; nothing else in `command/` lists the
//! commands.
//!
//! **An entry:**
//! ```text
//! /// The doc of the opcode and of the variant.
//! Name = BYTE  (binding: Type)  or  { field: Type, .. }  or nothing (a unit variant)
//! objects(one) { one(kind, handle) for each object it names; its fields are in scope }
//! decode(at) { the Command, read from its payload `at` (an `EncodedPayload`) }
//! ```
//! `objects` is left out by a command that names no object. `BYTE` is the opcode's byte in the
//! encoding: a new command takes the next free one (`Opcode::COUNT` today); the compiler refuses
//! a repeated byte and `command_table!` a gap. An entry's blocks are ordinary Rust, kept short:
//! a layout read in more than a line or two is a method of `EncodedPayload`.
//!
//! **The areas.** Each file holds one area's entries in a macro that adds them to the table it
//! is handed and hands the table on to the next macro of the list below; the last,
//! `command_table!`, makes the vocabulary from all of them. The areas follow the recorder's:
//! `bind_commands.rs`, `draw_commands.rs` (with nested lists and bundles), `transfer_commands.rs`
//! (clears, copies, maps), `query_commands.rs`, `fence_commands.rs`, `barrier_commands.rs`,
//! `fast_commands.rs`; `other_opcodes.rs` holds the opcodes with no variant of their own (the
//! compact one-slot binds, the list's records). A new area is a file and a name in the list.
//! The entries' names resolve here, where the table is made: the imports below cover the
//! command module, the descriptors and the barriers, so a new entry needs none of its own.
//!
//! **In:** nothing at run time. **Out:** the types and matches above; a decode block reads the
//! payload the recording call that writes its opcode writes (`payload.rs`'s layouts), and nothing
//! past the command's size (`EncodedPayload`, R-REC-12).

mod barrier_commands;
mod bind_commands;
mod draw_commands;
mod fast_commands;
mod fence_commands;
mod other_opcodes;
mod query_commands;
mod transfer_commands;

use {
    super::*,
    crate::barriers::*,
    crate::desc::*,
    crate::device::handle::{ObjectKind, RawHandle},
    std::mem::size_of,
};

use super::command_table::command_table;
use barrier_commands::barrier_commands;
use bind_commands::bind_commands;
use draw_commands::draw_commands;
use fast_commands::fast_commands;
use fence_commands::fence_commands;
use other_opcodes::other_opcodes;
use query_commands::query_commands;
use transfer_commands::transfer_commands;

bind_commands! {
    [
        draw_commands,
        transfer_commands,
        query_commands,
        fence_commands,
        barrier_commands,
        fast_commands,
        other_opcodes,
        command_table
    ]
}
