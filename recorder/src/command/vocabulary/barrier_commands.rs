//! The table's entries for the barriers (R-REC-3, R-BAR-1, R-BAR-6): enhanced and legacy
//! resource barriers. `vocabulary/mod.rs` says what an entry holds and how the areas' entries
//! come together.

/// Adds these entries to the table it is handed and hands the table on to the next macro of the
/// list (`vocabulary/mod.rs`).
macro_rules! barrier_commands {
    ([$next:ident $(, $rest:ident)*] $($table:tt)*) => {
        $next! { [$($rest),*] $($table)* commands {

    /// `barrier`: the call's enhanced barriers in order, each with its group and index
    /// (R-BAR-1), as `BarrierRecord`s.
    Barrier = 56 {
        /// The barriers, read in place from the list.
        barriers: &'a [BarrierRecord],
    }
    objects(one) {
        barriers.iter().filter_map(|b| b.resource()).for_each(|r| one(r.kind, r.handle))
    }
    decode(at) {
        let p: BarrierCounts = at.read();
        Command::Barrier { barriers: at.items(size_of::<BarrierCounts>(), p.barriers) }
    }

    /// `resource_barrier`: the call's legacy resource barriers in order (R-BAR-6), as
    /// `ResourceBarrierRecord`s.
    ResourceBarrier = 57 {
        /// The barriers, read in place from the list.
        barriers: &'a [ResourceBarrierRecord],
    }
    objects(one) {
        barriers
            .iter()
            .flat_map(|b| [b.resource(), b.other()])
            .flatten()
            .for_each(|r| one(r.kind, r.handle))
    }
    decode(at) {
        let p: BarrierCounts = at.read();
        Command::ResourceBarrier { barriers: at.items(size_of::<BarrierCounts>(), p.barriers) }
    }

        } }
    };
}

pub(super) use barrier_commands;
