//! [`Commands`]: the commands of a chain of chunks in recording order, decoded one by one, up to
//! a stop.
//!
//! **In:** a place in a sealed chain and where to stop. **Out:** each command decoded once, with
//! its site.
//!
//! **Invariant.** The iterator only reads sealed chunks of a list that outlives it.

use super::*;
use crate::chunk::{ChunkHeader, ChunkView, DATA_START};
use crate::command::{decode, decode_inline, next_offset, Decoded, Opcode};

/// Iterates the commands of a chain of chunks in recording order, up to a stop.
pub struct Commands<'a> {
    /// The chunk being read (null: nothing more).
    chunk: *mut ChunkHeader,
    base: *const u8,
    offset: usize,
    /// Where reading stops in the current chunk.
    end: usize,
    /// Where the walk ends; a null chunk: at the end of the chain.
    stop: Position,
    _list: std::marker::PhantomData<&'a CommandList>,
}

impl Commands<'_> {
    /// Walks a chain the caller keeps alive and sealed (see `ChunkWriter::seal_in_place`).
    pub(crate) fn over(first: *mut ChunkHeader) -> Self {
        Self::new(first)
    }

    pub(crate) fn new(first: *mut ChunkHeader) -> Self {
        let stop = Position {
            chunk: std::ptr::null_mut(),
            offset: 0,
        };
        let mut commands = Self::at(first, DATA_START, stop);
        if first.is_null() {
            commands.end = 0;
        }
        commands
    }

    pub(crate) fn empty() -> Self {
        let nowhere = Position {
            chunk: std::ptr::null_mut(),
            offset: 0,
        };
        Self {
            chunk: std::ptr::null_mut(),
            base: std::ptr::null(),
            offset: 0,
            end: 0,
            stop: nowhere,
            _list: std::marker::PhantomData,
        }
    }

    pub(crate) fn run(start: Position, stop: Position) -> Self {
        Self::at(start.chunk, start.offset, stop)
    }

    fn at(chunk: *mut ChunkHeader, offset: usize, stop: Position) -> Self {
        let mut commands = Self::empty();
        commands.stop = stop;
        commands.enter(chunk, offset);
        commands
    }

    fn enter(&mut self, chunk: *mut ChunkHeader, offset: usize) {
        self.chunk = chunk;
        if chunk.is_null() {
            self.base = std::ptr::null();
            self.offset = 0;
            self.end = 0;
        } else {
            // SAFETY: chains handed to `Commands` are sealed and outlive the iterator.
            let view = unsafe { ChunkView::new(chunk) };
            self.base = view.base;
            self.offset = offset;
            self.end = if chunk == self.stop.chunk {
                self.stop.offset
            } else {
                view.command_end
            };
        }
    }
}

impl<'a> Commands<'a> {
    /// Calls `f` with each command in turn, by reference: the executing walks' form of the
    /// iterator. The decode is inlined into this loop and each command built once, where `f`
    /// reads it; `next` returns it by value (a copy of the [`Decoded`] out of the call, another
    /// into the caller's loop), and inlining `next` everywhere instead costs more than it saves
    /// (docs/performance.md).
    #[inline]
    pub fn walk(mut self, mut f: impl FnMut(&Decoded<'a>)) {
        loop {
            while self.offset < self.end {
                // SAFETY: as in `next`: `offset` is the start of a command, list header or list
                // index the encoder wrote below the sealed command end.
                let opcode = unsafe { *self.base.add(self.offset) };
                if opcode == Opcode::ListStart as u8 || opcode == Opcode::ListIndex as u8 {
                    // SAFETY: as above, a header the encoder wrote in a chunk alive for 'a.
                    self.offset = unsafe { next_offset(self.base, self.offset) };
                    continue;
                }
                // SAFETY: as in `next`: a command the encoder wrote below the sealed command
                // end of a chunk that stays alive and unchanged for 'a.
                let (decoded, next) = unsafe { decode_inline(self.base, self.offset) };
                self.offset = next;
                f(&decoded);
            }
            if self.chunk.is_null() || self.chunk == self.stop.chunk {
                return;
            }
            // SAFETY: as in `next`: a non-null chunk of the list, sealed and alive.
            let next = unsafe { (*self.chunk).next };
            self.enter(next, DATA_START);
        }
    }
}

impl<'a> Iterator for Commands<'a> {
    type Item = Decoded<'a>;

    #[inline]
    fn next(&mut self) -> Option<Decoded<'a>> {
        loop {
            if self.offset < self.end {
                // SAFETY: `offset` is the start of a command (or of the list's header or index,
                // which have the same 8-byte header) below the sealed command end.
                let opcode = unsafe { *self.base.add(self.offset) };
                if opcode == Opcode::ListStart as u8 || opcode == Opcode::ListIndex as u8 {
                    // Not a command: stepped over, never decoded.
                    // SAFETY: as above, a header the encoder wrote in a chunk alive for 'a.
                    self.offset = unsafe { next_offset(self.base, self.offset) };
                    continue;
                }
                // SAFETY: `offset` is the start of a command the encoder wrote below the sealed
                // command end of a chunk that stays alive and unchanged for 'a.
                let (decoded, next) = unsafe { decode(self.base, self.offset) };
                self.offset = next;
                return Some(decoded);
            }
            if self.chunk.is_null() || self.chunk == self.stop.chunk {
                return None;
            }
            // SAFETY: `chunk` is non-null (checked above) and a chunk of the list this iterator
            // borrows, sealed and alive for the borrow, so its header is initialised.
            let next = unsafe { (*self.chunk).next };
            self.enter(next, DATA_START);
        }
    }
}

/// A place in a list: a chunk and an offset in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) chunk: *mut ChunkHeader,
    pub(crate) offset: usize,
}
