//! The arguments of a draw or a dispatch, one type from the call to the record (R-EX-3): the
//! numbers a direct call encodes as its payload ([`DirectArgs`]), and either those or the
//! buffer an indirect call reads them from ([`DrawArgs`]), as a draw record holds them.
//!
//! **In:** a draw or dispatch call's numbers (or a trace's). **Out:** the payload of the direct
//! draws and dispatches, the numbers their decoded [`Command`](super::Command)s carry, and a draw
//! record's arguments.
//!
//! **Invariant.** The numbers come back as the call gave them, a negative base vertex included;
//! the payload keeps the 24 bytes it always had, so a list's bytes do not change.

use super::BoundBuffer;

/// A direct draw's or dispatch's numbers, in the call's argument order: the payload the direct
/// draws and dispatches encode, what their decoded [`Command`](super::Command)s carry, and what
/// a draw record holds ([`DrawArgs::Direct`]). One type from the call to the record (R-EX-3).
///
/// A base vertex is an `i32`, kept as its bits and marked signed, so that
/// [`values`](Self::values) gives it back. The marks are constants of each call (recording
/// computes nothing for them); two `DirectArgs` are equal when their values are.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct DirectArgs {
    numbers: [u32; 5],
    /// How many of `numbers` the call has.
    count: u8,
    /// Bit `i`: number `i` is an `i32` (a base vertex).
    signed: u8,
    _reserved: [u8; 2],
}

impl PartialEq for DirectArgs {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

impl Eq for DirectArgs {}

// The size the draws' payload always had: a list's bytes do not change.
const _: () = assert!(std::mem::size_of::<DirectArgs>() == 24);

impl DirectArgs {
    /// No numbers (`draw_auto`, and an indirect draw's direct part).
    pub const NONE: Self = Self::of([0; 5], 0, 0);

    #[inline(always)]
    const fn of(numbers: [u32; 5], count: u8, signed: u8) -> Self {
        Self {
            numbers,
            count,
            signed,
            _reserved: [0; 2],
        }
    }

    /// `draw(vertex_count, start_vertex)`.
    #[inline(always)]
    pub const fn draw(vertex_count: u32, start_vertex: u32) -> Self {
        Self::of([vertex_count, start_vertex, 0, 0, 0], 2, 0)
    }

    /// `draw_indexed(index_count, start_index, base_vertex)`.
    #[inline(always)]
    pub const fn draw_indexed(index_count: u32, start_index: u32, base_vertex: i32) -> Self {
        Self::of(
            [index_count, start_index, base_vertex as u32, 0, 0],
            3,
            1 << 2,
        )
    }

    /// `draw_instanced(vertex_count, instance_count, start_vertex, start_instance)`.
    #[inline(always)]
    pub const fn draw_instanced(
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    ) -> Self {
        Self::of(
            [
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
                0,
            ],
            4,
            0,
        )
    }

    /// `draw_indexed_instanced(index_count, instance_count, start_index, base_vertex,
    /// start_instance)`.
    #[inline(always)]
    pub const fn draw_indexed_instanced(
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    ) -> Self {
        Self::of(
            [
                index_count,
                instance_count,
                start_index,
                base_vertex as u32,
                start_instance,
            ],
            5,
            1 << 3,
        )
    }

    /// `dispatch(x, y, z)`.
    #[inline(always)]
    pub const fn dispatch(x: u32, y: u32, z: u32) -> Self {
        Self::of([x, y, z, 0, 0], 3, 0)
    }

    /// Numbers given as they are written (a trace, a test): more than five are cut to five (no
    /// call has more); each is taken as a `u32`, or as an `i32` if negative.
    pub fn from_values(values: &[i64]) -> Self {
        let mut args = Self::NONE;
        for (i, value) in values.iter().take(5).enumerate() {
            args.numbers[i] = *value as u32;
            args.signed |= ((*value < 0) as u8) << i;
            args.count += 1;
        }
        args
    }

    /// How many numbers the call has.
    pub const fn len(self) -> usize {
        let count = self.count as usize;
        if count < 5 {
            count
        } else {
            5
        }
    }

    /// Whether the call has no numbers (`draw_auto`).
    pub const fn is_empty(self) -> bool {
        self.count == 0
    }

    /// Number `i` as the call had it (a base vertex may be negative); 0 past the last.
    pub const fn get(self, i: usize) -> i64 {
        if i >= self.len() {
            return 0;
        }
        match self.signed >> i & 1 {
            1 => self.numbers[i] as i32 as i64,
            _ => self.numbers[i] as i64,
        }
    }

    /// The numbers in argument order.
    pub fn values(self) -> impl ExactSizeIterator<Item = i64> {
        (0..self.len()).map(move |i| self.get(i))
    }
}

/// A draw's or dispatch's arguments as the GPU reads them: the numbers of a direct call, or the
/// buffer (and its instance and offset) an indirect one reads them from. Direct draws encode the
/// [`DirectArgs`], indirect ones the [`BoundBuffer`]; their commands carry them, and a draw
/// record holds this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DrawArgs {
    /// The call's numbers in argument order.
    Direct(DirectArgs),
    /// An indirect draw or dispatch: the buffer, instance and offset its arguments are read from.
    Indirect(BoundBuffer),
}

impl DrawArgs {
    /// Direct arguments written as numbers (see [`DirectArgs::from_values`]).
    pub fn direct(values: &[i64]) -> Self {
        Self::Direct(DirectArgs::from_values(values))
    }

    /// The numbers of a direct call; none for an indirect one.
    pub fn values(&self) -> impl ExactSizeIterator<Item = i64> {
        match self {
            Self::Direct(args) => *args,
            Self::Indirect(_) => DirectArgs::NONE,
        }
        .values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One draw-arguments type: the numbers come back as the call gave them, a negative base
    /// vertex included, and numbers written out (a trace) make the same value.
    #[test]
    fn direct_args_give_back_the_call_numbers() {
        let indexed = DirectArgs::draw_indexed_instanced(6, 2, 1, -1, 9);
        assert_eq!(indexed.values().collect::<Vec<_>>(), [6, 2, 1, -1, 9]);
        assert_eq!(indexed, DirectArgs::from_values(&[6, 2, 1, -1, 9]));
        assert_eq!(DirectArgs::draw(3, 1).values().collect::<Vec<_>>(), [3, 1]);
        assert_eq!(DirectArgs::draw_indexed(6, 2, 5).get(2), 5);
        assert_eq!(DirectArgs::dispatch(2, 3, 4).len(), 3);
        assert!(DirectArgs::NONE.is_empty());
        assert_eq!(
            DrawArgs::Indirect(BoundBuffer::NULL).values().count(),
            0,
            "an indirect draw has no direct numbers"
        );
        assert_eq!(
            DrawArgs::direct(&[4, 2, 1]).values().collect::<Vec<_>>(),
            [4, 2, 1]
        );
    }
}
