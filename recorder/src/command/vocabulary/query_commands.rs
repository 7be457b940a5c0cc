//! The table's entries for the queries and predication (R-REC-3, R-FX-3). `vocabulary/mod.rs`
//! says what an entry holds and how the areas' entries come together.

/// Adds these entries to the table it is handed and hands the table on to the next macro of the
/// list (`vocabulary/mod.rs`).
macro_rules! query_commands {
    ([$next:ident $(, $rest:ident)*] $($table:tt)*) => {
        $next! { [$($rest),*] $($table)* commands {

    /// `set_predication`: the predicate and the value that skips work.
    SetPredication = 33 {
        /// The predicate query; null stops predication.
        predicate: RawHandle,
        /// The value the predicate is compared with: a draw is skipped when the predicate's
        /// result equals it.
        value: bool,
    }
    objects(one) { one(ObjectKind::Query, predicate) }
    decode(at) {
        let p: ObjectPayload = at.read();
        Command::SetPredication { predicate: p.object, value: p.value != 0 }
    }

    /// `begin_query`.
    BeginQuery = 34 (query: RawHandle)
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) { Command::BeginQuery(at.read()) }

    /// `end_query`.
    EndQuery = 35 (query: RawHandle)
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) { Command::EndQuery(at.read()) }

    /// `write_query`: the query's result written at this point of the stream (R-FX-3).
    WriteQuery = 36 (query: RawHandle)
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) { Command::WriteQuery(at.read()) }

    /// `reset_query`: the query's result and counts cleared (R-FX-3).
    ResetQuery = 37 (query: RawHandle)
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) { Command::ResetQuery(at.read()) }

    /// `configure_query`: the operand is the [`QueryMode`](crate::QueryMode) (R-FX-3).
    ConfigureQuery = 38 {
        /// The query configured.
        query: RawHandle,
        /// How an occlusion query counts from now on.
        mode: crate::QueryMode,
    }
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) {
        Command::ConfigureQuery { query: at.read(), mode: crate::QueryMode::from_u8(at.operand()) }
    }

    /// `set_predication_from_query`: predication on any query's answer, no reference taken
    /// (R-FX-3); as [`Command::SetPredication`], on any query.
    SetPredicationFromQuery = 39 {
        /// The query whose answer predicates; null stops predication.
        query: RawHandle,
        /// The answer that skips the draws.
        value: bool,
    }
    objects(one) { one(ObjectKind::Query, query) }
    decode(at) {
        let p: ObjectPayload = at.read();
        Command::SetPredicationFromQuery { query: p.object, value: p.value != 0 }
    }

        } }
    };
}

pub(super) use query_commands;
