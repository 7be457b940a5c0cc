//! The table's entries for the fences and waits (R-REC-3, R-EX-5, R-EX-7): engine fences, waits
//! on a present or on memory, bottom-of-pipe writes. `vocabulary/mod.rs` says what an entry holds
//! and how the areas' entries come together.

/// Adds these entries to the table it is handed and hands the table on to the next macro of the
/// list (`vocabulary/mod.rs`).
macro_rules! fence_commands {
    ([$next:ident $(, $rest:ident)*] $($table:tt)*) => {
        $next! { [$($rest),*] $($table)* commands {

    /// `insert_wait_on_present`: wait for the present of this swap chain (R-EX-7).
    InsertWaitOnPresent = 43 (chain: RawHandle)
    objects(one) { one(ObjectKind::SwapChain, chain) }
    decode(at) { Command::InsertWaitOnPresent(at.read()) }

    /// `insert_fence`: a fence on the engine in the operand (R-EX-5), with [`KICK_OFF_BIT`] set
    /// when it kicks off its segment (R-FX-6).
    InsertFence = 44 {
        /// The engine the fence is on.
        engine: Engine,
        /// The fence value, handed out by the device at record time.
        value: u64,
        /// Whether the fence kicks off its segment (`FenceFlags::KickOff`, R-FX-6): the run of
        /// commands that holds it ends after it.
        kick_off: bool,
    }
    decode(at) {
        Command::InsertFence {
            engine: Engine::from_u8(at.operand() & !KICK_OFF_BIT),
            value: at.read(),
            kick_off: at.operand() & KICK_OFF_BIT != 0,
        }
    }

    /// `insert_wait_on_fence`: the engine in the operand waits for a fence value (R-EX-5).
    InsertWaitOnFence = 45 {
        /// The engine that waits.
        engine: Engine,
        /// The fence value waited for.
        value: u64,
    }
    decode(at) {
        Command::InsertWaitOnFence { engine: Engine::from_u8(at.operand()), value: at.read() }
    }

    /// `write_value_bottom_of_pipe`: a 64-bit value written to a buffer when the pipeline
    /// drains.
    WriteValueBottomOfPipe = 46 {
        /// The buffer written.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        offset: u64,
        /// The value written when the pipeline drains past the command.
        value: u64,
    }
    objects(one) { one(ObjectKind::Buffer, buffer) }
    decode(at) {
        let p: MemoryPayload = at.read();
        Command::WriteValueBottomOfPipe { buffer: p.buffer, offset: p.offset, value: p.value }
    }

    /// `insert_wait_on_memory`: wait until a buffer holds a 64-bit value.
    InsertWaitOnMemory = 47 {
        /// The buffer read.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        offset: u64,
        /// The value waited for.
        value: u64,
    }
    objects(one) { one(ObjectKind::Buffer, buffer) }
    decode(at) {
        let p: MemoryPayload = at.read();
        Command::InsertWaitOnMemory { buffer: p.buffer, offset: p.offset, value: p.value }
    }

        } }
    };
}

pub(super) use fence_commands;
