//! The table's opcodes that are no command of their own: the compact encodings of a one-slot
//! bind, which decode as their command's variant, and the list's own records, which `decode`
//! never meets. `vocabulary/mod.rs` says how they come together with the commands.

/// Adds these opcodes to the table it is handed and hands the table on to the next macro of the
/// list (`vocabulary/mod.rs`).
macro_rules! other_opcodes {
    ([$next:ident $(, $rest:ident)*] $($table:tt)*) => {
        $next! { [$($rest),*] $($table)* other_opcodes {

    /// The list's own header, first in its first chunk; not a command.
    ListStart = 0
    decode(_at) { Command::ClearState }

    /// `set_constant_buffers` of one buffer read at its creation instance, compact (16 bytes):
    /// the stage in the operand's low 3 bits and the slot above them, the buffer as the payload.
    /// Decoded as a one-slot [`Command::SetConstantBuffers`].
    SetConstantBuffer = 60
    decode(at) {
        Command::SetConstantBuffers {
            stage: Stage::from_u8(at.operand() & 7).unwrap_or(Stage::Vertex),
            start: (at.operand() >> 3) as u32,
            buffers: BoundBuffers::One(BoundBuffer { buffer: at.read(), ..BoundBuffer::NULL }),
        }
    }

    /// `set_vertex_buffers` of one buffer read at its creation instance, compact (24 bytes): the
    /// slot in the operand, a [`VertexBufferPayload`]. Decoded as a one-slot
    /// [`Command::SetVertexBuffers`].
    SetVertexBuffer = 61
    decode(at) {
        let p: VertexBufferPayload = at.read();
        Command::SetVertexBuffers {
            start: at.operand() as u32,
            buffers: BoundBuffers::One(BoundBuffer {
                buffer: p.buffer,
                instance: InstanceId::INITIAL,
                offset: p.offset,
                stride_or_format: p.stride,
            }),
        }
    }

    /// The list's index of split points and nested lists, last in its last chunk; not a
    /// command.
    ListIndex = 62
    decode(_at) { Command::ClearState }

        } }
    };
}

pub(super) use other_opcodes;
