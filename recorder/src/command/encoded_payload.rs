//! What a command's decode block in the table (`vocabulary/`) reads: [`EncodedPayload`], the
//! payload of one encoded command with the operand of its header, and the two raw reads under
//! it (`read`, `slice`), which `decode.rs` uses for the header too.
//!
//! **In:** the address of a payload the encoder wrote (`encode.rs`), and the size its header
//! holds. **Out:** its fixed part as the payload type the entry names, and its trailing arrays
//! as slices borrowed from the chunk (no copy).
//!
//! **Invariant.** Nothing past the command's size is read: a count stored in a payload is bounded
//! by the size its header holds, which was checked where it was written (R-REC-12).

use std::marker::PhantomData;

use crate::desc::Stage;

use super::{BoundResource, BoundView, RenderTargetsPayload, SlotsPayload, HEADER, KEEP};

/// Reads a `T` at `at`.
///
/// # Safety
/// `at` must hold a `T` written by the encoder.
#[inline(always)]
pub(super) unsafe fn read<T: Copy>(at: *const u8) -> T {
    // SAFETY: the caller guarantees a `T` written by the encoder lies at `at`; the encoder
    // writes commands 8-aligned with payloads that are multiples of 8, and no `T` it writes is
    // aligned to more than 8 (const assertions in `encode.rs`), so the read is aligned.
    unsafe { (at as *const T).read() }
}

/// # Safety
/// `at` must hold `count` `T`s written by the encoder, alive for `'a`.
#[inline(always)]
unsafe fn slice<'a, T>(at: *const u8, count: usize) -> &'a [T] {
    // SAFETY: the caller guarantees `count` encoder-written `T`s at `at`, alive for `'a`; they
    // are 8-aligned (as in `read`) and never written again once sealed, so a shared slice of
    // them is sound.
    unsafe { std::slice::from_raw_parts(at as *const T, count) }
}

/// The payload of one encoded command, as a command's decode block in the table
/// (`vocabulary/`) reads it: the payload, the trailing items after it (bounded by the command's
/// size), the header's operand. Passed by value and inlined away: it is the three values the
/// decode arms read, named.
#[derive(Clone, Copy)]
pub(crate) struct EncodedPayload<'a> {
    /// The first byte after the header.
    payload: *const u8,
    /// Bytes of the whole command, header included, as its header says.
    size: usize,
    /// The header's operand.
    operand: u8,
    _chunk: PhantomData<&'a [u8]>,
}

impl<'a> EncodedPayload<'a> {
    /// The payload at `payload` of a command of `size` bytes, header included, whose header
    /// holds `operand`.
    ///
    /// # Safety
    /// `payload` must be the first byte after a command's header in a chunk alive and unchanged
    /// for `'a`, and `size` the size its header holds: the methods below read within it.
    #[inline(always)]
    pub(crate) unsafe fn new(payload: *const u8, size: usize, operand: u8) -> Self {
        Self {
            payload,
            size,
            operand,
            _chunk: PhantomData,
        }
    }

    /// The header's operand: the stage, the topology, the engine, the restore flag.
    #[inline(always)]
    pub(crate) fn operand(self) -> u8 {
        self.operand
    }

    /// The operand as a stage (a release build reads a byte that is none as the vertex stage).
    #[inline(always)]
    pub(crate) fn stage(self) -> Stage {
        Stage::from_u8(self.operand).unwrap_or(Stage::Vertex)
    }

    /// The payload, a `T`.
    ///
    /// # Safety
    /// The encoder wrote a `T` at the start of this command's payload.
    #[inline(always)]
    pub(crate) unsafe fn read<T: Copy>(self) -> T {
        // SAFETY: the caller guarantees the encoder wrote a `T` at the payload's start (8-aligned,
        // as `read` requires).
        unsafe { read(self.payload) }
    }

    /// The payload, a `T`, borrowed from the chunk: what a command whose fields are larger than
    /// [`Command`](super::Command) should hold (48 bytes) lends its variant, by reference.
    ///
    /// # Safety
    /// The encoder wrote a `T` at the start of this command's payload.
    #[inline(always)]
    pub(crate) unsafe fn get<T>(self) -> &'a T {
        // SAFETY: the caller guarantees the encoder wrote a `T` at the payload's start: it is
        // 8-aligned and no `T` the encoder writes is aligned to more (as `read` requires), it is
        // initialised, and it lies in a chunk alive and never written again for 'a (`new`'s
        // requirement), so a shared reference to it for 'a is sound.
        unsafe { &*(self.payload as *const T) }
    }

    /// The `count` `T`s from `from` bytes after the payload's start, as many of them as lie
    /// inside the command: a count stored in a payload never reaches past its command, whatever
    /// it says, since the header's size was checked where it was written (R-REC-12).
    ///
    /// # Safety
    /// `from` is a multiple of 8 no further than the command's end, and the encoder wrote `T`s
    /// from there on (as many as `count` says, or to the command's end).
    #[inline(always)]
    pub(crate) unsafe fn items<T>(self, from: usize, count: u32) -> &'a [T] {
        let count = (count as usize).min(self.item_room::<T>(from));
        // SAFETY: (1) the caller guarantees encoder-written `T`s from `from` on, 8-aligned since
        // `from` is a multiple of 8; (2) `count` is at most the whole items that fit between
        // `from` and the command's end, so the slice stays inside the command, alive for 'a.
        unsafe { slice(self.payload.add(from), count) }
    }

    /// Every `T` from `from` bytes after the payload's start to the command's end: the trailing
    /// array of a command that stores no count.
    ///
    /// # Safety
    /// As for [`items`](Self::items).
    #[inline(always)]
    pub(crate) unsafe fn all_items<T>(self, from: usize) -> &'a [T] {
        // SAFETY: the caller's guarantee is `items`'s, and `item_room` counts exactly the items
        // inside the command.
        unsafe { slice(self.payload.add(from), self.item_room::<T>(from)) }
    }

    /// How many whole `T`s fit between `from` bytes after the payload's start and the command's
    /// end.
    #[inline(always)]
    fn item_room<T>(self, from: usize) -> usize {
        self.size.saturating_sub(HEADER + from) / std::mem::size_of::<T>().max(1)
    }

    /// The start slot and the bound items of a slot-array bind: a [`SlotsPayload`], then its
    /// `count` items.
    ///
    /// # Safety
    /// The encoder wrote this command as a `SlotsPayload` followed by its `T`s.
    #[inline(always)]
    pub(crate) unsafe fn slots<T>(self) -> (u32, &'a [T]) {
        // SAFETY: the caller guarantees the layout: a `SlotsPayload` (8 bytes) first, then its
        // `T`s, as many as the command's size holds (`items` bounds the count by it).
        unsafe {
            let p: SlotsPayload = self.read();
            (p.start, self.items(size_of::<SlotsPayload>(), p.count))
        }
    }

    /// The resource and the data of an update or a map recorded in a list: a
    /// [`BoundResource`] whose `data_len` counts the bytes after it.
    ///
    /// # Safety
    /// The encoder wrote this command as a `BoundResource` followed by its data.
    #[inline(always)]
    pub(crate) unsafe fn with_data(self) -> (BoundResource, &'a [u8]) {
        // SAFETY: the caller guarantees the layout: a `BoundResource` (a multiple of 8 bytes),
        // then `data_len` bytes of data, bounded by the command's size (`items`).
        unsafe {
            let resource: BoundResource = self.read();
            (
                resource,
                self.items(size_of::<BoundResource>(), resource.data_len),
            )
        }
    }

    /// The output merger's bindings, as `Command::SetRenderTargets` holds them: a
    /// [`RenderTargetsPayload`], then its render-target views, then its UAVs; a count of
    /// [`KEEP`] keeps what is bound.
    ///
    /// # Safety
    /// The encoder wrote this command as a `RenderTargetsPayload` followed by its views.
    #[inline(always)]
    pub(crate) unsafe fn render_targets(self) -> OutputMergerViews<'a> {
        let fixed = size_of::<RenderTargetsPayload>();
        // SAFETY: the caller guarantees the layout: the payload (a multiple of 8 bytes), then
        // the render targets (`BoundView`s, a multiple of 8 each), then the UAVs; each array is
        // bounded by the command's size (`items`), so the UAVs' start is inside the command.
        unsafe {
            let p: &'a RenderTargetsPayload = self.get();
            let targets = (p.render_targets != KEEP).then(|| {
                (
                    self.items::<BoundView>(fixed, p.render_targets),
                    &p.depth_stencil,
                )
            });
            let after_targets = fixed + targets.map_or(0, |(views, _)| size_of_val(views));
            let uavs = match p.uav_start {
                KEEP => (0, None),
                start => (start, Some(self.items(after_targets, p.uavs))),
            };
            (targets, uavs, p.flags & RenderTargetsPayload::PATCH != 0)
        }
    }
}

/// The render targets and depth stencil, the first UAV slot and the UAVs from it, and the patch
/// flag of an output-merger bind (`Command::SetRenderTargets`'s fields).
pub(crate) type OutputMergerViews<'a> = (
    Option<(&'a [BoundView], &'a BoundView)>,
    (u32, Option<&'a [BoundView]>),
    bool,
);
