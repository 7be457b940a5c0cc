//! What expectations and reports read of the real run: each context's last outcome, every
//! refusal, the lists and bundles, the draw records and their origins, the GPU model's memory,
//! textures and queries.
//!
//! **In:** the run ([`LiveRun`]) after some steps. **Out:** answers in the trace's names.
//! **Invariant:** an answer that depends on work queued to workers waits for them first, so it
//! is the same on every thread count.

use std::sync::PoisonError;

use recorder::{CommandList, Error, Handle};

use executor::TextureState;
use executor::{Counters, DrawRecord};

use super::live::{lock, LiveRun};
use super::names::Namer;
use super::origin::Origins;
use super::program::{ObjId, ObjKind, Subject};
use super::recorders::Refusal;

impl LiveRun {
    /// The outcome of the last call on `subject` (or its declaration, finish, execution).
    pub(crate) fn last_outcome(&mut self, subject: Subject) -> Result<(), Error> {
        match subject {
            Subject::Immediate => self.imm_last.clone(),
            Subject::Named(id) => match self.slots.get(&id) {
                Some((slot, worker)) => {
                    self.workers.wait(*worker);
                    lock(slot).last.clone()
                }
                None => self.outcomes.get(&id).cloned().unwrap_or(Ok(())),
            },
        }
    }

    /// Every refusal so far, by line (waits for every worker).
    pub(crate) fn refusals(&mut self) -> Vec<Refusal> {
        self.workers.wait_all();
        let mut all = self.refusals.clone();
        for (slot, _) in self.slots.values() {
            all.extend(lock(slot).refusals.iter().cloned());
        }
        all.sort_by_key(|r| r.line);
        all
    }

    pub(crate) fn list(&self, id: ObjId) -> Option<&CommandList> {
        self.lists.get(&id)
    }

    /// Why list `id` does not exist, if it does not.
    pub(crate) fn list_outcome(&self, id: ObjId) -> Option<&Result<(), Error>> {
        self.outcomes.get(&id)
    }

    pub(crate) fn counters(&mut self) -> Counters {
        *self.imm.counters()
    }

    /// Takes in every instance the maps so far made (waits for every worker).
    fn refresh_names(&mut self) {
        self.workers.wait_all();
        let instances = self
            .shared
            .instances
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for (instance, (_, k)) in instances.iter() {
            self.names.instance(*instance, *k);
        }
    }

    /// Where each draw record came from (under [`track_origins`](Self::track_origins)), in the
    /// records' order.
    pub(crate) fn origins(&mut self) -> Option<&Origins> {
        let records = self.imm.draws().len();
        let origins = self.origins.as_mut()?;
        let start = origins.len();
        origins.settle(start, records, None);
        Some(origins)
    }

    /// Calls `f` with the draw records so far and their namer.
    pub(crate) fn with_records<R>(&mut self, f: impl FnOnce(&[DrawRecord], &Namer<'_>) -> R) -> R {
        self.refresh_names();
        let records = self.imm.records();
        let namer = self.names.namer(&self.shared.program);
        f(records, &namer)
    }

    /// `expect resource`: the texture's state as the GPU model reports it now (after a flush of
    /// the direct calls), `None` for a buffer (no layout, never compressed); `Err` when the
    /// declaration made no resource.
    pub(crate) fn texture_state(
        &mut self,
        resource: ObjId,
    ) -> Result<Option<TextureState>, String> {
        let Some(raw) = self.shared.handles.get(resource) else {
            return Err(match self.last_outcome(Subject::Named(resource)) {
                Err(error) => format!("no resource: its declaration was refused ({error})"),
                Ok(()) => "no resource".into(),
            });
        };
        match self.shared.program.objects[resource].kind {
            ObjKind::Texture => Ok(Some(self.imm.gpu().texture_state(raw))),
            _ => Ok(None),
        }
    }

    /// The GPU model's memory after the direct calls so far (`expect gds|constant_ram`,
    /// R-FX-4, R-FX-5).
    pub(crate) fn memory(&mut self) -> executor::Memory {
        self.workers.wait_all();
        self.imm.gpu().memory().clone()
    }

    /// The GPU model's memory as lines (`Memory::lines`, buffers by trace name), for
    /// `--compare`.
    pub(crate) fn memory_lines(&mut self) -> Vec<String> {
        self.workers.wait_all();
        let program = &self.shared.program;
        let names = &self.names;
        self.imm
            .gpu()
            .memory()
            .lines(|handle| names.buffer(program, handle))
    }

    /// `expect memory`: words of buffer `buffer` as the GPU model holds them.
    pub(crate) fn buffer_words(
        &mut self,
        buffer: ObjId,
        offset: u64,
        count: u32,
    ) -> Result<Vec<u32>, String> {
        let Some(raw) = self.shared.handles.get(buffer) else {
            return Err(match self.last_outcome(Subject::Named(buffer)) {
                Err(error) => format!("no buffer: its declaration was refused ({error})"),
                Ok(()) => "no buffer".into(),
            });
        };
        self.workers.wait_all();
        Ok(self.imm.gpu().memory().buffer_words(raw, offset, count))
    }

    /// `expect query`: what the immediate context's `get_data` returns now, its direct calls
    /// not flushed (R-FX-3); the outer `Err` when the declaration made no query. Waits for every
    /// worker first: a query's begin or end recorded on any deferred context changes the answer
    /// (an end recorded counts once recorded), so under `--threads` the answer is the plain
    /// run's.
    pub(crate) fn get_data(
        &mut self,
        query: ObjId,
    ) -> Result<Result<executor::QueryData, Error>, String> {
        let Some(raw) = self.shared.handles.get(query) else {
            return Err(match self.last_outcome(Subject::Named(query)) {
                Err(error) => format!("no query: its declaration was refused ({error})"),
                Ok(()) => "no query".into(),
            });
        };
        self.workers.wait_all();
        Ok(self.imm.get_data(recorder::Query::from_raw(raw)))
    }

    /// `expect pending` (R-FX-6): whether legacy work using resource `id` is pending (waits for
    /// every worker, as every observation of what other contexts may have recorded does).
    pub(crate) fn resource_pending(&mut self, resource: ObjId) -> Result<bool, String> {
        let Some(raw) = self.shared.handles.get(resource) else {
            return Err(match self.last_outcome(Subject::Named(resource)) {
                Err(error) => format!("no resource: its declaration was refused ({error})"),
                Ok(()) => "no resource".into(),
            });
        };
        self.workers.wait_all();
        Ok(match self.shared.program.objects[resource].kind {
            ObjKind::Texture => self
                .imm
                .is_resource_pending(recorder::Texture::from_raw(raw)),
            _ => self
                .imm
                .is_resource_pending(recorder::Buffer::from_raw(raw)),
        })
    }

    /// The name the trace gave object `id`.
    pub(crate) fn object_name(&self, id: ObjId) -> String {
        self.shared.program.objects[id].name.clone()
    }

    /// `expect bundle_footprint`.
    pub(crate) fn bundle_footprint(&mut self, bundle: ObjId, bytes: u64) -> Result<(), String> {
        let Some(made) = self.bundles.get(&bundle) else {
            return Err(match self.last_outcome(Subject::Named(bundle)) {
                Err(error) => format!("no bundle: its finish was refused ({error})"),
                Ok(()) => "no bundle".into(),
            });
        };
        match made.footprint_bytes() as u64 == bytes {
            true => Ok(()),
            false => Err(made.footprint_bytes().to_string()),
        }
    }

    /// Waits for every worker.
    pub(crate) fn settle(&mut self) {
        self.workers.wait_all();
    }
}
