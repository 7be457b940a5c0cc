//! The recording hot path's helpers (R-REC-2, R-REC-12, R-OBJ-4): every recording call counts
//! itself, reserves its command in the current chunk and writes it (`emit`, `emit_with`,
//! `emit_data`), and under legacy semantics takes the list's references on what it names
//! (`retain`).
//!
//! **In:** a call's opcode, operand, split category, payload and trailing items or data.
//! **Out:** the command written in the context's chunk, counted in its statistics (commands,
//! split points), and the references the list holds.
//!
//! **Invariant.** The helpers are `#[inline(always)]` (or `#[inline]`): a recording call compiles
//! to its checks and a bump of the chunk's cursor, allocating nothing once the pool is warm and
//! taking no lock. A command that would not fit the encoding is refused before anything is
//! reserved (`CommandBytes`); the rare paths (`release_retained`) are `#[cold]`.

use crate::chunk::SideKind;
use crate::command::*;
use crate::context::refs::LIST;
use crate::context::role::Role;
use crate::context::split::SplitCategory;
use crate::context::Recorder;
use crate::device::handle::{ObjectKind, RawHandle};
use crate::errors::Error;

impl<R: Role> Recorder<R> {
    /// Gives back a reference [`retain`](Self::retain) took, when the call that took it is
    /// refused afterwards (legacy; fast semantics took none).
    #[cold]
    pub(crate) fn release_retained(&mut self, kind: ObjectKind, handle: RawHandle) {
        if let (Some(refs), false) = (self.refs.as_mut(), handle.is_null()) {
            refs.sub(&*self.device, kind, handle, LIST);
        }
    }

    /// Runs a path of a call that may refuse it: whether it did not (the refusals compared
    /// around it, R-REC-8).
    #[inline(always)]
    pub(crate) fn accepted(&mut self, path: impl FnOnce(&mut Self)) -> bool {
        let before = self.refused;
        path(self);
        self.refused == before
    }

    /// Counts a call; every public recording method starts with it.
    #[inline(always)]
    pub(crate) fn begin_call(&mut self) {
        self.calls_made += 1;
    }

    /// Reserves an encoded command of `size` bytes.
    #[inline(always)]
    pub(crate) fn reserve(&mut self, size: CommandBytes, side: Option<SideKind>) -> *mut u8 {
        self.stats.commands += 1;
        self.writer
            .reserve(size, side, &self.device.pool, &self.policy)
    }

    /// Takes back the most recent reservation (a call refused after it reserved its command).
    #[inline]
    pub(crate) fn unreserve(&mut self, at: *mut u8, side: bool) {
        self.stats.commands -= 1;
        self.writer.unreserve(at, side);
    }

    /// Encodes a command with a fixed payload.
    #[inline(always)]
    pub(crate) fn emit<P: Copy>(
        &mut self,
        opcode: Opcode,
        operand: u8,
        split: Option<SplitCategory>,
        payload: P,
    ) {
        let size = CommandBytes::fixed::<P>();
        let at = self.reserve(size, split.map(|_| SideKind::Split));
        // SAFETY: `at` has `size` bytes for the header and `P`.
        unsafe { write_command(at, opcode, operand, split, size, payload) };
        if let Some(category) = split {
            self.stats.split_points[category] += 1;
        }
    }

    /// Encodes a command with a fixed payload followed by `items`. Refused, with nothing
    /// written, when the command would not fit the encoding (R-REC-12).
    #[inline(always)]
    pub(crate) fn emit_with<P: Copy, T: Copy>(
        &mut self,
        call: &'static str,
        opcode: Opcode,
        operand: u8,
        split: Option<SplitCategory>,
        payload: P,
        items: &[T],
    ) -> Result<(), Error> {
        const { assert!(std::mem::size_of::<T>().is_multiple_of(8) && std::mem::align_of::<T>() <= 8) };
        let size = CommandBytes::with_items::<P, T>(items.len())
            .map_err(|too_large| too_large.error(call, format_args!("{} items", items.len())))?;
        let at = self.reserve(size, split.map(|_| SideKind::Split));
        // SAFETY: `at` has `size` bytes: the header, `P`, then `items.len()` `T`s (8-aligned,
        // since the header and every payload are multiples of 8).
        unsafe {
            let tail = write_command(at, opcode, operand, split, size, payload) as *mut T;
            std::ptr::copy_nonoverlapping(items.as_ptr(), tail, items.len());
        }
        if let Some(category) = split {
            self.stats.split_points[category] += 1;
        }
        Ok(())
    }

    /// Reserves a command for `resource` and `len` bytes of data (a map or an update) and
    /// returns the data, zeroed. The payload's `data_len` is set here, the one place the length
    /// is converted: data over [`MAX_MAP_BYTES`](crate::limits::MAX_MAP_BYTES) is refused with
    /// nothing written (R-REC-12).
    #[inline]
    pub(crate) fn emit_data(
        &mut self,
        call: &'static str,
        opcode: Opcode,
        mut resource: BoundResource,
        len: usize,
    ) -> Result<*mut u8, Error> {
        let object = || {
            let kind = match resource.is_texture {
                0 => ObjectKind::Buffer,
                _ => ObjectKind::Texture,
            };
            self.device.object_name(kind, resource.resource)
        };
        if len > crate::limits::MAX_MAP_BYTES {
            return Err(data_too_large(call, object(), len as u64));
        }
        let size = CommandBytes::with_data::<BoundResource>(len)
            .map_err(|too_large| too_large.error(call, object()))?;
        // `len <= MAX_MAP_BYTES < u32::MAX` (checked above).
        resource.data_len = len as u32;
        let at = self.reserve(size, None);
        let padded = size.get() - HEADER - std::mem::size_of::<BoundResource>();
        // SAFETY: `at` has `size` bytes: the header, the payload, then `padded >= len` bytes of
        // data, which are zeroed before they are handed out.
        unsafe {
            let data = write_command(at, opcode, 0, None, size, resource);
            std::ptr::write_bytes(data, 0, padded);
            Ok(data)
        }
    }

    /// Legacy: takes `count` references on an object the list records (R-OBJ-4). Fast semantics
    /// never touches reference counts outside creation: nothing to do.
    #[inline(always)]
    pub(crate) fn retain(
        &mut self,
        kind: ObjectKind,
        handle: RawHandle,
        count: u32,
        call: &'static str,
    ) -> Result<(), Error> {
        match self.refs.as_mut() {
            Some(refs) if !handle.is_null() && count != 0 => refs
                .add_checked(&*self.device, kind, handle, count as u64 * LIST)
                .map_err(|_| self.device.stale_error(call, kind, handle)),
            _ => Ok(()),
        }
    }
}
