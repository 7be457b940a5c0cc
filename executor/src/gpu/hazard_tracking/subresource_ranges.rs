//! The ranges of the hazard tracker (R-V-2, R-BAR-7): what one use, one pending write or one
//! barrier reaches of a resource, as a box of inclusive mips, slices, texel columns and rows (of
//! a buffer: bytes).
//!
//! **In:** the spans of a view, of a region copy's subresource and box, of a barrier.
//! **Out:** whether two ranges overlap, what both reach, and what is left of one once another is
//! cut out of it.
//!
//! **Invariant:** [`Range::minus`] leaves exactly the points of the range outside the cut, in at
//! most eight disjoint boxes (the proptest below checks it on a small grid).

/// Inclusive mips and slices of a texture, and inclusive texel columns (`x`) and rows (`y`)
/// of each of them; of a buffer, inclusive bytes (`x`), the rest all. A region copy reaches
/// part of one subresource or of a buffer; every other use, all of what its view reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Range {
    pub(super) mips: (u16, u16),
    pub(super) slices: (u16, u16),
    pub(super) x: (u64, u64),
    pub(super) y: (u64, u64),
}

impl Range {
    pub(super) const ALL: Self = Self {
        mips: (0, u16::MAX),
        slices: (0, u16::MAX),
        x: (0, u64::MAX),
        y: (0, u64::MAX),
    };

    /// The mips and slices given, all of their texels.
    pub(super) fn subresources(mips: (u16, u16), slices: (u16, u16)) -> Self {
        Self {
            mips,
            slices,
            ..Self::ALL
        }
    }

    fn dims(&self) -> [(u64, u64); 4] {
        let wide = |(a, b): (u16, u16)| (a as u64, b as u64);
        [wide(self.mips), wide(self.slices), self.x, self.y]
    }

    fn from_dims(d: [(u64, u64); 4]) -> Self {
        let narrow =
            |(a, b): (u64, u64)| (a.min(u16::MAX as u64) as u16, b.min(u16::MAX as u64) as u16);
        Self {
            mips: narrow(d[0]),
            slices: narrow(d[1]),
            x: d[2],
            y: d[3],
        }
    }

    // `#[inline]`: the tracker's loops over pending writes call it from another module (and
    // codegen unit) since the split; inlined there as it was before.
    #[inline]
    pub(super) fn overlaps(&self, other: &Range) -> bool {
        let meet = |a: (u64, u64), b: (u64, u64)| a.0 <= b.1 && b.0 <= a.1;
        self.dims()
            .iter()
            .zip(other.dims().iter())
            .all(|(a, b)| meet(*a, *b))
    }

    /// What both reach (meaningful when they overlap).
    #[inline]
    pub(super) fn meet(&self, other: &Range) -> Range {
        let (a, b) = (self.dims(), other.dims());
        let mut d = a;
        for (i, one) in d.iter_mut().enumerate() {
            *one = (a[i].0.max(b[i].0), a[i].1.min(b[i].1));
        }
        Self::from_dims(d)
    }

    /// What is left of `self` once `cut` is taken out: up to eight boxes, peeled one dimension
    /// at a time.
    pub(super) fn minus(&self, cut: &Range, out: &mut Vec<Range>) {
        if !self.overlaps(cut) {
            out.push(*self);
            return;
        }
        let c = cut.dims();
        let mut rest = self.dims();
        for d in 0..4 {
            let (a, b) = rest[d];
            if a < c[d].0 {
                let mut piece = rest;
                piece[d] = (a, c[d].0 - 1);
                out.push(Self::from_dims(piece));
            }
            if b > c[d].1 {
                let mut piece = rest;
                piece[d] = (c[d].1 + 1, b);
                out.push(Self::from_dims(piece));
            }
            rest[d] = (a.max(c[d].0), b.min(c[d].1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Range;
    use proptest::prelude::*;

    /// An inclusive span inside `0..=5`, or all of the dimension.
    fn span() -> impl Strategy<Value = (u64, u64)> {
        prop_oneof![
            4 => (0u64..6, 0u64..6).prop_map(|(a, b)| (a.min(b), a.max(b))),
            1 => Just((0, u64::MAX)),
        ]
    }

    fn range() -> impl Strategy<Value = Range> {
        (span(), span(), span(), span()).prop_map(|(m, s, x, y)| {
            let mips = |(a, b): (u64, u64)| (a as u16, b.min(u16::MAX as u64) as u16);
            Range {
                mips: mips(m),
                slices: mips(s),
                x,
                y,
            }
        })
    }

    fn contains(r: &Range, p: [u64; 4]) -> bool {
        r.dims().iter().zip(p).all(|(&(a, b), v)| a <= v && v <= b)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// R-V-2's bookkeeping: what is left of a range once a cut is taken out is exactly the
        /// points of the range outside the cut, in disjoint pieces (every point of a small grid,
        /// plus one past it, checked).
        #[test]
        fn minus_leaves_exactly_the_points_outside_the_cut(r in range(), cut in range()) {
            let mut pieces = Vec::new();
            r.minus(&cut, &mut pieces);
            prop_assert!(pieces.len() <= 8);
            for m in 0..7u64 {
                for s in 0..7u64 {
                    for x in 0..7u64 {
                        for y in 0..7u64 {
                            let p = [m, s, x, y];
                            let want = contains(&r, p) && !contains(&cut, p);
                            let n = pieces.iter().filter(|q| contains(q, p)).count();
                            prop_assert_eq!(n, want as usize, "{:?} - {:?} at {:?}: {:?}", r, cut, p, pieces);
                        }
                    }
                }
            }
            prop_assert_eq!(r.overlaps(&cut), pieces.len() != 1 || pieces[0] != r);
        }
    }
}
