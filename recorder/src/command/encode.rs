//! The sizes of the encoding and the one writer of a command (R-REC-3, R-REC-12): every command
//! is an 8-byte `CommandHeader` followed by its `repr(C)` payload (`payload.rs`) and, for
//! slot-array commands, an array of bound descriptors (`bound.rs`); sizes are multiples of 8.
//!
//! **In:** the resolved arguments of a recording call, and the count of its trailing items or
//! bytes of data. **Out:** the bytes of one command in a reservation of exactly its
//! [`CommandBytes`], written by [`write_command`]; or, for a size that does not fit, the refusal
//! ([`TooLarge`], [`data_too_large`]) before anything is reserved.
//!
//! **Sizes (R-REC-12).** A header's size is a `u32`; the decoder trusts it to find the next
//! command. Every size is therefore made as a `CommandBytes`, in one place: fixed payloads are
//! checked at compile time, trailing arrays and data at run time, before anything is reserved,
//! against [`MAX_COMMAND_BYTES`] (and data against [`MAX_MAP_BYTES`]). A refusal leaves no
//! half-written command; the chunk sizes and offsets that follow from a checked size fit the
//! chunk header's `u32`s (`chunk::LARGEST_CHUNK`).
//!
//! A command whose header has a split category is a split point (R-SP-1): its descriptor holds
//! what is unknown until execution, and a side record in the chunk points at it so execution can
//! find it without walking the commands around it.

use crate::context::split::SplitCategory;
use crate::limits::{MAX_COMMAND_BYTES, MAX_MAP_BYTES};

use super::{CommandHeader, Opcode, HEADER};

/// The bytes of one encoded command, header included: a multiple of 8 no larger than
/// [`MAX_COMMAND_BYTES`], so it fits the header's `u32` and the chunk it is reserved in.
///
/// This is the one place a size of the encoding is converted (R-REC-12): a `CommandBytes` is made
/// only by the constructors below, fixed sizes checked at compile time, variable ones at run time
/// before anything is reserved, and [`ChunkWriter::reserve`](crate::chunk::ChunkWriter::reserve)
/// and [`write_command`] take nothing else. A size that does not fit is refused with
/// [`TooLarge`]: no later missing check (a new map path, a new payload) can hand the decoder a
/// wrapped size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CommandBytes(u32);

/// A command would not fit the encoding: `bytes` (header, payload and data) against the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooLarge {
    pub(crate) bytes: usize,
}

const _: () =
    assert!(MAX_COMMAND_BYTES <= u32::MAX as usize && MAX_COMMAND_BYTES.is_multiple_of(8));
/// The largest fixed payload's command ([`CommandBytes::fixed`]): the list's own header is the
/// largest (280 bytes, its bundle facts and derived slot included).
const MAX_FIXED_BYTES: usize = 320;
const _: () = assert!(MAX_MAP_BYTES + MAX_FIXED_BYTES <= MAX_COMMAND_BYTES);

impl CommandBytes {
    /// A command with a fixed payload `P` and nothing after it.
    #[inline(always)]
    pub(crate) const fn fixed<P>() -> Self {
        let size = HEADER + std::mem::size_of::<P>();
        const { assert!((HEADER + std::mem::size_of::<P>()).is_multiple_of(8)) };
        const { assert!(HEADER + std::mem::size_of::<P>() <= MAX_FIXED_BYTES) };
        Self(size as u32)
    }

    /// A command with a fixed payload `P` and `count` trailing `T`s.
    #[inline(always)]
    pub(crate) fn with_items<P, T>(count: usize) -> Result<Self, TooLarge> {
        const { assert!(std::mem::size_of::<T>().is_multiple_of(8)) };
        let fixed = const { Self::fixed::<P>().get() };
        // One comparison with a constant: at most this many items fit, and below it the
        // product cannot overflow.
        let most =
            const { (MAX_COMMAND_BYTES - Self::fixed::<P>().get()) / std::mem::size_of::<T>() };
        match count <= most {
            // `fixed + count * size_of::<T>() <= MAX_COMMAND_BYTES <= u32::MAX`.
            true => Ok(Self((fixed + count * std::mem::size_of::<T>()) as u32)),
            false => Err(TooLarge {
                bytes: fixed.saturating_add(count.saturating_mul(std::mem::size_of::<T>())),
            }),
        }
    }

    /// A command with a fixed payload `P` and `len` bytes of data, padded to 8.
    #[inline(always)]
    pub(crate) fn with_data<P>(len: usize) -> Result<Self, TooLarge> {
        let fixed = const { Self::fixed::<P>().get() };
        // A multiple of 8 (both terms are): a `len` up to it stays within it once padded.
        let most = const { MAX_COMMAND_BYTES - Self::fixed::<P>().get() };
        match len <= most {
            // `fixed + padded len <= MAX_COMMAND_BYTES <= u32::MAX`.
            true => Ok(Self((fixed + len.next_multiple_of(8)) as u32)),
            false => Err(TooLarge {
                bytes: fixed.saturating_add(len),
            }),
        }
    }

    /// The size in bytes.
    #[inline(always)]
    pub(crate) const fn get(self) -> usize {
        self.0 as usize
    }
}

impl TooLarge {
    /// The refusal of `call`, whose `what` did not fit.
    #[cold]
    #[inline(never)]
    pub(crate) fn error(self, call: &'static str, what: impl std::fmt::Display) -> crate::Error {
        crate::Error::TooLarge {
            call,
            what: what.to_string(),
            bytes: match self.bytes {
                usize::MAX => u64::MAX,
                bytes => bytes as u64,
            },
            holder: "a command of the encoding",
            limit: MAX_COMMAND_BYTES as u64,
        }
    }
}

/// The refusal of a map or an update whose data is larger than a list carries
/// ([`MAX_MAP_BYTES`], R-REC-12).
#[cold]
#[inline(never)]
pub(crate) fn data_too_large(
    call: &'static str,
    what: impl std::fmt::Display,
    len: u64,
) -> crate::Error {
    crate::Error::TooLarge {
        call,
        what: what.to_string(),
        bytes: len,
        holder: "a map or update",
        limit: MAX_MAP_BYTES as u64,
    }
}

/// Writes a header and a payload at `at`, returns where the trailing array goes.
///
/// # Safety
/// `at` must be 8-aligned with `size` writable bytes, `size >= 8 + size_of::<P>()`, and `P` must be
/// a `repr(C)` type of alignment at most 8.
#[inline(always)]
pub(crate) unsafe fn write_command<P: Copy>(
    at: *mut u8,
    opcode: Opcode,
    operand: u8,
    split: Option<SplitCategory>,
    size: CommandBytes,
    payload: P,
) -> *mut u8 {
    const { assert!(std::mem::align_of::<P>() <= 8) };
    let header = CommandHeader {
        opcode,
        operand,
        split: split.map_or(0, |c| c as u8 + 1),
        _reserved: 0,
        size: size.0,
    };
    // SAFETY: the caller promises (1) `at` is 8-aligned and has `size` writable bytes and (2)
    // `size >= HEADER + size_of::<P>()`, so the header's 8 bytes and `P` (alignment at most 8,
    // asserted above; `HEADER` is a multiple of 8) are in bounds and aligned, and the returned
    // pointer is at most one past the end of the reservation.
    unsafe {
        (at as *mut CommandHeader).write(header);
        let payload_at = at.add(HEADER);
        (payload_at as *mut P).write(payload);
        payload_at.add(std::mem::size_of::<P>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{BoundResource, Empty, InstanceId, Opcode};
    use crate::device::handle::RawHandle;

    /// A 16-byte trailing item, as the list's index entries are.
    #[allow(dead_code)]
    struct IndexEntry([u64; 2]);
    use crate::{Device, DeviceDesc, ErrorKind};

    /// R-REC-12: a size past the header's `u32` is refused where it is converted, never wrapped.
    #[test]
    fn r_rec_12_command_bytes_refuse_rather_than_wrap() {
        for len in [
            MAX_MAP_BYTES * 2 + 1,
            u32::MAX as usize,
            u32::MAX as usize + 1,
            usize::MAX,
        ] {
            assert!(
                CommandBytes::with_data::<BoundResource>(len).is_err(),
                "{len}"
            );
        }
        for count in [u32::MAX as usize / 16, usize::MAX / 16, usize::MAX] {
            assert!(
                CommandBytes::with_items::<Empty, IndexEntry>(count).is_err(),
                "{count}"
            );
        }
        let at_limit = MAX_COMMAND_BYTES - HEADER - std::mem::size_of::<BoundResource>();
        let size = CommandBytes::with_data::<BoundResource>(at_limit).unwrap();
        assert_eq!(size.get(), MAX_COMMAND_BYTES);
        assert_eq!(
            CommandBytes::with_data::<BoundResource>(5).unwrap().get(),
            HEADER + std::mem::size_of::<BoundResource>() + 8
        );
    }

    /// R-REC-12: the encoder refuses data past the limit before it reserves anything: no
    /// half-written command is left in the list, and the list still finishes.
    #[test]
    fn r_rec_12_encoder_refusal_leaves_no_half_written_command() {
        let device = Device::new(DeviceDesc::default());
        let mut context = device.create_deferred_context(&Default::default()).unwrap();
        context.draw(3, 0);
        let before = context.stats();
        let resource = BoundResource {
            resource: RawHandle::NULL,
            instance: InstanceId::INITIAL,
            is_texture: 0,
            data_len: 0,
        };
        for len in [MAX_MAP_BYTES + 1, u32::MAX as usize, u32::MAX as usize + 9] {
            let error = context
                .emit_data("map", Opcode::MapWriteNoOverwrite, resource, len)
                .unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidArgument);
            assert!(
                error.to_string().contains(&MAX_MAP_BYTES.to_string()),
                "{error}"
            );
            assert_eq!(context.stats().commands, before.commands);
            assert_eq!(context.stats().bytes, before.bytes);
        }
        // Zeroed and never touched: the allocator hands out untouched pages.
        let items = vec![0u64; MAX_COMMAND_BYTES / 8 + 1];
        let error = context
            .emit_with(
                "set_viewports",
                Opcode::SetViewports,
                0,
                None,
                Empty,
                &items,
            )
            .unwrap_err();
        assert!(error.to_string().contains("R-REC-12"), "{error}");
        assert_eq!(context.stats().bytes, before.bytes);
        context.draw(3, 1);
        let list = context
            .finish_command_list(crate::RestoreState::ClearState)
            .unwrap();
        assert_eq!(list.commands().count(), 2);
    }
}
