//! Device context state objects in a captured frame (R-FX-6, R-CAP-3): the swaps the frame
//! makes, and the objects' saved states at its start, as the calls that give them.
//!
//! **In:** the object the immediate context had active when the frame began; each
//! `create_device_context_state` on the captured immediate context during the frame; each
//! `swap_device_context_state`, before and after the engine's call. **Out:** the frame's
//! `create_device_context_state` and `swap_device_context_state` calls (the objects as
//! [`Obj::ContextState`]), and the setup that gives the replay the same objects at the frame's
//! start ([`FrameStates::setup`]).
//!
//! **Names.** An object has no handle in the device's tables: the capture names it by its
//! serial ([`recorder::DeviceContextState::serial`]). The implicit default object (the one the
//! first swap ever makes and returns) is named 0 when no swap had happened before the frame:
//! it does not exist live at the frame's start, and the first accepted swap of the frame
//! returns it, so its serial is learnt then and mapped to 0.
//!
//! **The setup** (written before the immediate context's bindings, at the frame's start, when
//! the frame swaps): each object the frame swaps in that it did not make is created, and each
//! whose saved state is not the defaults is filled the only way the trace can: swapped in and
//! given its saved bindings by the legacy binding calls; then the object active at the frame's
//! start (0, the implicit one, as a created object) is swapped in last, which saves the last
//! filled state into its object and leaves the immediate context on the defaults, from which the
//! frame's bindings are written. A saved state's bindings are read when the frame first swaps
//! the object in, before the swap: until then nothing changed it (only a swap does). An object
//! made during the frame on the immediate context is written where it was made; one made
//! during it on a deferred context is created in the setup (a fresh object holds the defaults,
//! as it did when made). An object its saved state names that the application released before
//! the frame is declared, bound by the fill and released after the setup, so a swap of it in
//! the frame is refused in the replay as it was live (R-OBJ-3).
//!
//! **Not written.** A swap on a fast immediate context: refused live (`forbidden_in_fast`),
//! changing nothing, and the setup could not create its object there. A swap of another
//! device's object (refused live, `invalid_argument`) fails the frame, saying so (R-OBJ-3: the
//! trace cannot name it). Objects the frame does
//! not swap in are not declared (a swap's returned object is the one active before it, which
//! the frame swapped in or which was active at its start).

use std::collections::HashSet;

use recorder::state::Bindings;
use recorder::DeviceContextState;

use super::form::{Call, Obj};
use super::frame_start::forget_dead;
use super::log::state_calls;
use crate::syntax::ast::Method;

/// The device context state objects of one captured frame.
pub(super) struct FrameStates {
    /// The object active at the frame's start (0: the implicit default one).
    start: u64,
    /// The object active now, by the capture's id.
    active: u64,
    /// The serial of the implicit default object, once a swap of the frame returned it.
    implicit: Option<u64>,
    /// Objects the frame swapped in that it did not make, in the order it first did, with the
    /// state each had saved at the frame's start.
    seen: Vec<(u64, Bindings)>,
    /// Objects made during the frame on the immediate context.
    made: HashSet<u64>,
    /// A swap was written.
    swapped: bool,
}

impl FrameStates {
    /// At the frame's start: `active` is the object the immediate context has active.
    pub(super) fn at_start(active: Option<&DeviceContextState>) -> Self {
        let start = active.map_or(0, DeviceContextState::serial);
        Self {
            start,
            active: start,
            implicit: None,
            seen: Vec::new(),
            made: HashSet::new(),
            swapped: false,
        }
    }

    /// The capture's id of `state`.
    fn id(&self, state: &DeviceContextState) -> u64 {
        match self.implicit {
            Some(serial) if serial == state.serial() => 0,
            _ => state.serial(),
        }
    }

    /// `state` was made on the immediate context during the frame: its call.
    pub(super) fn created(&mut self, state: &DeviceContextState) -> Call {
        let id = self.id(state);
        self.made.insert(id);
        Method::CreateDeviceContextState {
            state: Obj::ContextState(id),
        }
    }

    /// Before the engine swaps `state` in: its call (and, the first time the frame swaps it
    /// in, the state it saved, which is the one it had at the frame's start).
    pub(super) fn before_swap(&mut self, state: &DeviceContextState) -> Call {
        let id = self.id(state);
        let known = id == self.start
            || self.made.contains(&id)
            || self.seen.iter().any(|(seen, _)| *seen == id);
        if !known {
            self.seen.push((id, state.bindings()));
        }
        self.swapped = true;
        Method::SwapDeviceContextState {
            state: Obj::ContextState(id),
        }
    }

    /// After the engine's swap of `state`: `previous` is what it returned when it accepted it.
    pub(super) fn after_swap(
        &mut self,
        state: &DeviceContextState,
        previous: Option<&DeviceContextState>,
    ) {
        let Some(previous) = previous else {
            return;
        };
        if self.active == 0 && self.implicit.is_none() && !previous.same_object(state) {
            // The first swap ever: it made the implicit default object and returned it.
            self.implicit = Some(previous.serial());
        }
        self.active = self.id(state);
    }

    /// The calls that give a fresh replay the objects as they were at the frame's start (see
    /// the module essay); none when the frame swaps nothing. Bindings of objects the device no
    /// longer has are written null.
    pub(super) fn setup(&self, device: &recorder::Device) -> Vec<Call> {
        if !self.swapped {
            return Vec::new();
        }
        let create = |id| Method::CreateDeviceContextState {
            state: Obj::ContextState(id),
        };
        let swap = |id| Method::SwapDeviceContextState {
            state: Obj::ContextState(id),
        };
        let mut calls: Vec<Call> = self.seen.iter().map(|(id, _)| create(*id)).collect();
        calls.push(create(self.start));
        for (id, bindings) in &self.seen {
            let mut binds = state_calls(bindings);
            if binds.is_empty() {
                continue;
            }
            for call in &mut binds {
                forget_dead(device, call);
            }
            calls.push(swap(*id));
            calls.extend(binds);
        }
        calls.push(swap(self.start));
        calls
    }
}
