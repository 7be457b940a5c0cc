//! The engine handles of a trace's objects: [`Handles`], set by the declarations as they run,
//! and [`Resolver`], which turns the object numbers a lowered call names into those handles
//! (for `apply.rs`, the recorders, the `write` rules and the reference of `--compare`).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use recorder::{DeviceContextState, Error, Handle, RawHandle, Resource, Texture};

use super::program::{ObjId, ObjKind, Program};

/// The handle of every engine object the trace declared, set once by its declaration (on the
/// thread that runs declarations; workers read them after), and the device context state
/// objects (R-FX-6) the trace's `create_device_context_state` lines made, which the
/// application owns (the replay keeps them by trace id; `swap_device_context_state` borrows
/// one, on the thread that runs it: `live.rs` runs both calls on the main thread).
#[derive(Debug)]
pub(crate) struct Handles {
    raw: Vec<OnceLock<RawHandle>>,
    states: Mutex<HashMap<ObjId, DeviceContextState>>,
}

/// A handle that names no object: what an object whose declaration the engine refused would
/// be, were the replay not to refuse its uses itself (it does; see `live.rs`).
const NOWHERE: RawHandle = RawHandle::from_bits(u64::MAX - 1);

impl Handles {
    pub(crate) fn new(objects: usize) -> Self {
        Self {
            raw: (0..objects).map(|_| OnceLock::new()).collect(),
            states: Mutex::new(HashMap::new()),
        }
    }

    /// Keeps the device context state object the trace names `id` (R-FX-6).
    pub(crate) fn keep_state(&self, id: ObjId, state: DeviceContextState) {
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        states.insert(id, state);
    }

    /// Drops the device context state object `id` (`release`: the application's object goes,
    /// and the references it held with it).
    pub(crate) fn drop_state(&self, id: ObjId) {
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        states.remove(&id);
    }

    /// Runs `f` on the device context state object `id`, if its creation made it.
    pub(crate) fn with_state<T>(
        &self,
        id: ObjId,
        f: impl FnOnce(&mut DeviceContextState) -> T,
    ) -> Option<T> {
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        states.get_mut(&id).map(f)
    }

    pub(crate) fn set(&self, id: ObjId, raw: RawHandle) {
        if let Some(slot) = self.raw.get(id) {
            let _ = slot.set(raw);
        }
    }

    /// The object's handle, if its declaration made it.
    pub(crate) fn get(&self, id: ObjId) -> Option<RawHandle> {
        self.raw.get(id).and_then(|slot| slot.get().copied())
    }

    fn handle<H: Handle>(&self, id: ObjId) -> H {
        H::from_raw(self.get(id).unwrap_or(NOWHERE))
    }
}

/// Turns a call's objects into handles.
pub(crate) struct Resolver<'a> {
    /// The lowered trace, whose object ids the call names.
    pub program: &'a Program,
    /// The engine handles the declarations made for those ids.
    pub handles: &'a Handles,
}

impl Resolver<'_> {
    pub(crate) fn one<H: Handle>(&self, id: ObjId) -> H {
        self.handles.handle(id)
    }

    pub(crate) fn opt<H: Handle>(&self, id: Option<ObjId>) -> Option<H> {
        id.map(|id| self.one(id))
    }

    pub(crate) fn all<H: Handle>(&self, ids: &[Option<ObjId>]) -> Vec<Option<H>> {
        ids.iter().map(|id| self.opt(*id)).collect()
    }

    pub(crate) fn resource(&self, id: ObjId) -> Resource {
        match self.program.objects[id].kind {
            ObjKind::Buffer => Resource::Buffer(self.one(id)),
            _ => Resource::Texture(self.one(id)),
        }
    }

    /// The texture `id` names, or the refusal of a call that takes one.
    pub(crate) fn texture(&self, call: &'static str, id: ObjId) -> Result<Texture, Error> {
        match self.program.objects[id].kind {
            ObjKind::Texture => Ok(self.one(id)),
            _ => Err(Error::WrongObjectKind {
                call,
                object: self.program.objects[id].name.to_string(),
                is: "buffer",
                takes: "texture",
            }),
        }
    }
}
