//! [`Context`]: what every context is, a recording core with its counters and errors, the base
//! of every capability trait (`capabilities.rs`); and [`CoreAccess`], the key to the core that
//! only this crate can make.
//!
//! **In:** a context type's core. **Out:** the core, to the capabilities' default methods alone.
//!
//! **Invariant.** Code outside this crate calls the capabilities, never the core: it cannot make
//! a [`CoreAccess`].

use crate::context::role::Role;
use crate::context::Recorder;
use crate::errors::{Error, RecordError};
use crate::list::ListStats;

/// The key to a context's recording core: only this crate makes one, so only the capabilities'
/// default methods reach the core through [`Context::recorder`].
pub struct CoreAccess(pub(crate) ());

/// What every context is: a recording core, its counters and its errors. The base of every
/// capability trait.
pub trait Context {
    /// The role of the context's core (deferred, immediate, bundle).
    type Role: Role;

    /// The recording core the capabilities' default methods hand each call to. Implement it by
    /// returning the core the context owns; it cannot be called outside the `recorder` crate.
    fn recorder(&mut self, access: CoreAccess) -> &mut Recorder<Self::Role>;

    /// The core, read only (for [`stats`](Self::stats) and the errors).
    fn recorder_ref(&self, access: CoreAccess) -> &Recorder<Self::Role>;

    /// Counters of the list (or batch, or bundle) being recorded so far (R-REC-4, R-SP-5).
    #[inline]
    fn stats(&self) -> ListStats {
        self.recorder_ref(CoreAccess(())).stats()
    }

    /// The first error of the list being recorded, if any (also returned by the finish).
    #[inline]
    fn error(&self) -> Option<&RecordError> {
        self.recorder_ref(CoreAccess(())).error()
    }

    /// The error of the most recent refused call, until the next list begins.
    #[inline]
    fn last_refusal(&self) -> Option<&Error> {
        self.recorder_ref(CoreAccess(())).last_refusal()
    }
}

/// The recording core is a context of its role: a [`DeferredContext`](crate::DeferredContext) is
/// `Recorder<DeferredRole>`, and the executor's immediate context and the bundles crate's
/// recorder own one.
impl<R: Role> Context for Recorder<R> {
    type Role = R;

    #[inline(always)]
    fn recorder(&mut self, _access: CoreAccess) -> &mut Recorder<R> {
        self
    }

    #[inline(always)]
    fn recorder_ref(&self, _access: CoreAccess) -> &Recorder<R> {
        self
    }
}
