//! Queries and predication, on every context that records: `begin_query` / `end_query`,
//! `set_predication`, and the query calls that always follow fast semantics (R-FX-3, seed 000:
//! "ReadGDS, WriteGDS, WriteQuery, ResetQuery, ConfigureQuery, SetPredicationFromQuery ...
//! always operate as though fast semantics has been defined"): `write_query`, `reset_query`,
//! `configure_query` and `set_predication_from_query`.
//!
//! **In:** a query and the call's argument. **Out:** one command each. The fast calls take no
//! reference on the query, on a legacy context too (a legacy context's `begin_query` /
//! `end_query` and `set_predication` take theirs). What the commands do is the GPU
//! model's (`executor/src/gpu/query.rs`).
//!
//! **Invariant.** A released query refuses every call (`released_object`), as `begin_query`
//! does; `configure_query` refuses a query that counts no samples (`QueryModeMismatch`). A
//! legacy context's predicate slot holds a reference: `set_predication_from_query` drops the one
//! it held and leaves the slot empty, so a predicate set from a query is not carried into the
//! context's later lists (it holds no reference to carry).

use crate::call_arguments::PredicateValue;
use crate::command::{ObjectPayload, Opcode};
use crate::context::core_access::{Context, CoreAccess};
use crate::context::role::Role;
use crate::context::Recorder;
use crate::desc::{QueryKind, QueryMode};
use crate::device::handle::{ObjectKind, Query, RawHandle};
use crate::errors::Error;
use crate::sync::Ordering;

impl<R: Role> Recorder<R> {
    /// [`QueryCalls::write_query`](crate::QueryCalls::write_query): its semantics.
    pub(crate) fn write_query(&mut self, query: Query) {
        self.begin_call();
        const CALL: &str = "write_query";
        if let Err(error) = self.live_query(CALL, query) {
            return self.fail(error);
        }
        self.mark_query_ended(query.0);
        self.unreferenced();
        self.emit(Opcode::WriteQuery, 0, None, query.0);
    }

    /// [`QueryCalls::reset_query`](crate::QueryCalls::reset_query): its semantics.
    pub(crate) fn reset_query(&mut self, query: Query) {
        self.begin_call();
        const CALL: &str = "reset_query";
        if let Err(error) = self.live_query(CALL, query) {
            return self.fail(error);
        }
        self.unreferenced();
        self.emit(Opcode::ResetQuery, 0, None, query.0);
    }

    /// [`QueryCalls::configure_query`](crate::QueryCalls::configure_query): its semantics.
    pub(crate) fn configure_query(&mut self, query: Query, mode: QueryMode) {
        self.begin_call();
        const CALL: &str = "configure_query";
        let kind = match self.live_query(CALL, query) {
            Ok(kind) => kind,
            Err(error) => return self.fail(error),
        };
        if !matches!(kind, QueryKind::Occlusion | QueryKind::Predicate) {
            let name = self.device.object_name(ObjectKind::Query, query.0);
            return self.fail(Error::QueryModeMismatch {
                call: CALL,
                query: name,
                kind,
            });
        }
        self.unreferenced();
        self.emit(Opcode::ConfigureQuery, mode as u8, None, query.0);
    }

    /// [`InheritedStateCalls::set_predication_from_query`](crate::InheritedStateCalls::set_predication_from_query): its semantics.
    pub(crate) fn set_predication_from_query(
        &mut self,
        query: Option<Query>,
        value: PredicateValue,
    ) {
        let value = value.as_bool();
        self.begin_call();
        const CALL: &str = "set_predication_from_query";
        let handle = query.map_or(RawHandle::NULL, |q| q.0);
        if let Some(query) = query {
            if let Err(error) = self.live_query(CALL, query) {
                return self.fail(error);
            }
        }
        // Legacy: the slot drops the reference it held and holds none.
        if let Err(error) = self.shadow_slots(CALL, ObjectKind::Query, &[RawHandle::NULL], |s| {
            std::slice::from_mut(&mut s.bindings.predicate)
        }) {
            return self.fail(error);
        }
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_predication(RawHandle::NULL, false);
        }
        if query.is_some() {
            self.unreferenced();
        }
        self.emit(
            Opcode::SetPredicationFromQuery,
            0,
            None,
            ObjectPayload {
                object: handle,
                value: value as u64,
            },
        );
    }

    /// The kind of `query` if it is live (not released), else the stale handle's error.
    fn live_query(&self, call: &'static str, query: Query) -> Result<QueryKind, Error> {
        match self.device.queries.get(query.0, false) {
            Ok(live) => Ok(QueryKind::from_word(live.words[0])),
            Err(_) => Err(self.device.stale_error(call, ObjectKind::Query, query.0)),
        }
    }

    /// Notes on the query's entry that an end (`end_query`, `write_query`) was recorded for
    /// it, on any context: `get_data` tells a query that never ended from one whose end has
    /// not run yet (R-FX-3).
    pub(crate) fn mark_query_ended(&self, query: RawHandle) {
        if let Ok(live) = self.device.queries.get(query, true) {
            live.entry.aux.store(1, Ordering::Release);
        }
    }
}

impl<R: Role> Recorder<R> {
    /// [`QueryCalls::begin_query`](crate::QueryCalls::begin_query): its semantics.
    pub(crate) fn begin_query(&mut self, query: Query) {
        self.query(Opcode::BeginQuery, "begin_query", query);
    }

    /// [`QueryCalls::end_query`](crate::QueryCalls::end_query): its semantics.
    pub(crate) fn end_query(&mut self, query: Query) {
        self.query(Opcode::EndQuery, "end_query", query);
    }

    fn query(&mut self, opcode: Opcode, call: &'static str, query: Query) {
        self.begin_call();
        if self.device.queries.get(query.0, false).is_err() {
            return self.fail(self.device.stale_error(call, ObjectKind::Query, query.0));
        }
        if let Err(error) = self.retain(ObjectKind::Query, query.0, 1, call) {
            return self.fail(error);
        }
        if opcode == Opcode::EndQuery {
            self.mark_query_ended(query.0);
        }
        self.emit(opcode, 0, None, query.0);
    }
}

impl<R: Role> Recorder<R> {
    /// [`InheritedStateCalls::set_predication`](crate::InheritedStateCalls::set_predication): its semantics.
    pub(crate) fn set_predication(&mut self, predicate: Option<Query>, value: PredicateValue) {
        let value = value.as_bool();
        self.begin_call();
        const CALL: &str = "set_predication";
        let handle = predicate.map_or(RawHandle::NULL, |q| q.0);
        if !handle.is_null() {
            match self.device.queries.get(handle, false) {
                Err(_) => return self.fail(self.stale(CALL, ObjectKind::Query, handle)),
                Ok(live) if live.words[0] != QueryKind::Predicate as u64 => {
                    let query = self.device.object_name(ObjectKind::Query, handle);
                    return self.fail(Error::NotAPredicate { call: CALL, query });
                }
                Ok(_) => {}
            }
        }
        if let Err(error) = self.shadow_slots(CALL, ObjectKind::Query, &[handle], |s| {
            std::slice::from_mut(&mut s.bindings.predicate)
        }) {
            return self.fail(error);
        }
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.bindings.set_predication(handle, value);
        }
        self.emit(
            Opcode::SetPredication,
            0,
            None,
            ObjectPayload {
                object: handle,
                value: value as u64,
            },
        );
    }
}

/// Queries (R-FX-3 for write, reset and configure): deferred and immediate contexts (R-B-8).
pub trait QueryCalls: Context {
    /// Begins a query (`Begin`).
    ///
    /// Begins `query` (`Begin`). A released query refuses the call (`released_object`).
    #[inline]
    fn begin_query(&mut self, query: Query) {
        self.recorder(CoreAccess(())).begin_query(query)
    }

    /// Ends a query (`End`).
    ///
    /// Ends `query` (`End`); its answer is ready once the list has run. A released query refuses
    /// the call (`released_object`).
    #[inline]
    fn end_query(&mut self, query: Query) {
        self.recorder(CoreAccess(())).end_query(query)
    }

    /// Writes a query's result at this point of the stream (`WriteQuery`, R-FX-3): a
    /// timestamp's tick now, a scoped query's counts so far. Fast semantics on every context.
    ///
    /// Writes `query`'s result at this point of the stream (`WriteQuery`): a timestamp takes
    /// the GPU model's clock now; a scoped query its counts so far. No reference is taken.
    #[inline]
    fn write_query(&mut self, query: Query) {
        self.recorder(CoreAccess(())).write_query(query)
    }

    /// Clears a query's result and counts (`ResetQuery`, R-FX-3). Fast semantics on every
    /// context.
    ///
    /// Clears `query`'s result and counts (`ResetQuery`): until it ends again it has no result.
    /// No reference is taken.
    #[inline]
    fn reset_query(&mut self, query: Query) {
        self.recorder(CoreAccess(())).reset_query(query)
    }

    /// Sets how an occlusion or predicate query counts (`ConfigureQuery`, R-FX-3). Fast
    /// semantics on every context.
    ///
    /// Sets how an occlusion or predicate query counts from its next scope on
    /// (`ConfigureQuery`): every sample, or whether any passed. Another kind refuses the call
    /// (`QueryModeMismatch`). No reference is taken.
    #[inline]
    fn configure_query(&mut self, query: Query, mode: QueryMode) {
        self.recorder(CoreAccess(())).configure_query(query, mode)
    }
}
