//! [`CapturedContext`]: a context of the engine and the tap that keeps its calls, the one
//! wrapper behind the capture's deferred context, bundle recorder and immediate context
//! ([`CapturedDeferred`](super::CapturedDeferred), [`CapturedBundleRecorder`](super::CapturedBundleRecorder),
//! [`CapturedImmediate`](super::CapturedImmediate)). It has exactly the capabilities of the
//! context it wraps: each capability's calls are written once (`captured_binds.rs`,
//! `captured_draws.rs`, `captured_sync.rs`, the maps here), for every context that has it.
//!
//! **In:** the application's calls. **Out:** the engine's own behaviour, unchanged (every call
//! reaches the wrapped context exactly as made, refused calls included: the replay refuses them
//! the same way), and the tap's entries.
//!
//! **Invariant.** Idle (no frame being captured), a call costs the wrapped call and the tap's
//! one branch ([`CapturedContext::tap_idle`], or [`CaptureTarget::tap_active`] where a call
//! does more than keep itself). A kept call is one call out of the wrapper's line
//! ([`CapturedContext::keep`]): the rest of the test, the pins, the call built and kept.

use recorder::command::InstanceId;
use recorder::*;

use super::arena::Lists;
use super::form::Call;
use super::kept_calls::{Hot, Word};
use super::log::{resource_obj, Tap};
use crate::syntax::ast::Method;

/// A context of the engine whose calls a capture keeps: the context, its tap, and what the
/// capture knows of it besides (`C::Extra`).
pub struct CapturedContext<C: CaptureTarget> {
    pub(crate) context: C,
    pub(crate) tap: Tap,
    pub(crate) extra: C::Extra,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for recorder::DeferredContext {}
    impl Sealed for bundles::BundleRecorder {}
    impl Sealed for executor::ImmediateContext {}
}

/// A context the capture can wrap: a deferred context, a bundle recorder, the immediate context.
/// Sealed: the capture knows each one.
pub trait CaptureTarget: Context + sealed::Sealed + Sized {
    /// What the capture keeps of this context besides its tap.
    #[doc(hidden)]
    type Extra;

    /// Whether the call being made is kept: idle, one branch on a byte.
    #[doc(hidden)]
    fn tap_active(captured: &mut CapturedContext<Self>) -> bool;

    /// [`tap_active`](Self::tap_active) once the tap is known not idle: the rest of the test,
    /// out of the wrapper's line.
    #[doc(hidden)]
    fn tap_awake(captured: &mut CapturedContext<Self>) -> bool;

    /// The instance a write_discard map of `buffer` just made on this context.
    #[doc(hidden)]
    fn map_instance(&self, buffer: RawHandle) -> InstanceId;
}

impl<C: CaptureTarget> CapturedContext<C> {
    #[inline(always)]
    pub(crate) fn tap_active(&mut self) -> bool {
        C::tap_active(self)
    }

    /// Whether the tap keeps nothing now, not even a decision to make: the idle path's one
    /// branch, before [`keep`](Self::keep) or [`keep_reading`](Self::keep_reading). The call
    /// to keep is built inside the branch (the wrapper's line holds no store for it).
    #[inline(always)]
    pub(crate) fn tap_idle(&self) -> bool {
        self.tap.is_idle()
    }

    /// Keeps the call `make` builds when the tap, not idle, says so
    /// ([`CaptureTarget::tap_awake`]): one call out of the wrapper's line that asks and
    /// builds, not one to ask and another to build.
    #[cold]
    #[inline(never)]
    pub(crate) fn keep(&mut self, make: impl FnOnce(&mut Lists) -> Call) {
        if C::tap_awake(self) {
            self.tap.keep_in_line(make)
        }
    }

    /// [`keep`](Self::keep) for a call kept as it came (a draw, a one-slot bind: `kept_calls.rs`):
    /// no record built, no list.
    #[cold]
    #[inline(never)]
    pub(crate) fn keep_hot(&mut self, hot: Hot) {
        if C::tap_awake(self) {
            self.tap.keep_hot_in_line(hot)
        }
    }

    /// [`keep_hot`](Self::keep_hot) for a call its wrapper packed (a draw, a one-slot bind
    /// whose slot fits: `kept_calls.rs`): no match on the call's kind, a word to push.
    #[cold]
    #[inline(never)]
    pub(crate) fn keep_word(&mut self, word: Word) {
        if C::tap_awake(self) {
            self.tap.keep_word_in_line(word)
        }
    }

    /// [`keep_word`](Self::keep_word) for a one-slot vertex-buffer bind, with the stride and
    /// offset its word leaves to the kept calls' layout.
    #[cold]
    #[inline(never)]
    pub(crate) fn keep_vertex_buffer(&mut self, word: Word, stride: u32, offset: u32) {
        if C::tap_awake(self) {
            self.tap.keep_vertex_buffer_in_line(word, stride, offset)
        }
    }

    /// [`keep_word`](Self::keep_word) for a one-slot bind of a view, pinned first as in
    /// [`keep_reading`](Self::keep_reading).
    #[cold]
    #[inline(never)]
    pub(crate) fn keep_word_reading<H: Handle>(&mut self, view: Option<H>, word: Word) {
        if C::tap_awake(self) {
            self.tap.pin_views_in_line(&[view]);
            self.tap.keep_word_in_line(word)
        }
    }

    /// [`keep_hot`](Self::keep_hot) for a one-slot bind of a view, pinned first as in
    /// [`keep_reading`](Self::keep_reading).
    #[cold]
    #[inline(never)]
    pub(crate) fn keep_hot_reading<H: Handle>(&mut self, view: Option<H>, hot: Hot) {
        if C::tap_awake(self) {
            self.tap.pin_views_in_line(&[view]);
            self.tap.keep_hot_in_line(hot)
        }
    }

    /// [`keep`](Self::keep) for a call that reads `views` (a bind): the back buffer each view of
    /// a swap chain names is pinned first (`Tap::pin_views`, R-EX-7).
    #[cold]
    #[inline(never)]
    pub(crate) fn keep_reading<H: Handle>(
        &mut self,
        views: &[Option<H>],
        make: impl FnOnce(&mut Lists) -> Call,
    ) {
        if C::tap_awake(self) {
            self.tap.pin_views_in_line(views);
            self.tap.keep_in_line(make)
        }
    }
}

/// The wrapped context's recording core, for its counters and errors (every call is the
/// wrapper's own: see the capability files).
impl<C: CaptureTarget> Context for CapturedContext<C> {
    type Role = C::Role;

    #[inline(always)]
    fn recorder(&mut self, access: CoreAccess) -> &mut Recorder<C::Role> {
        self.context.recorder(access)
    }

    #[inline(always)]
    fn recorder_ref(&self, access: CoreAccess) -> &Recorder<C::Role> {
        self.context.recorder_ref(access)
    }

    /// The wrapped context's, which may keep more than its core (the immediate context keeps a
    /// refused direct call for its next flush).
    #[inline]
    fn error(&self) -> Option<&recorder::RecordError> {
        self.context.error()
    }
}

/// Maps on a captured context: the engine's map, its statement and (write maps) the shadow of
/// its bytes; the guard's drop unmaps through the wrapper, which writes the changed bytes.
impl<C: CaptureTarget + MapCalls> MapCalls for CapturedContext<C> {
    #[inline]
    fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error> {
        /// A kept map: the earlier maps' bytes first, then the map, its statement and (a
        /// write map) the shadow of its bytes; out of the idle path's line.
        #[cold]
        #[inline(never)]
        fn kept<C: CaptureTarget + MapCalls>(
            wrapper: &mut CapturedContext<C>,
            resource: Resource,
            map_type: MapType,
            flags: MapFlags,
        ) -> Result<(*mut u8, usize), Error> {
            wrapper.tap.settle();
            let mapped = wrapper
                .context
                .map(resource, map_type, flags)
                .map(Mapped::keep_mapped);
            let (data, len) = match mapped {
                Ok(bytes) => (bytes.as_mut_ptr(), bytes.len()),
                Err(error) => {
                    // Refused: the replay refuses it too.
                    wrapper.tap.call(Method::Map {
                        resource: resource_obj(resource),
                        map_type,
                        allow_usage_default: flags.allows_usage_default(),
                        instance: None,
                        writes: (),
                    });
                    return Err(error);
                }
            };
            let instance = (map_type == MapType::WriteDiscard)
                .then(|| wrapper.context.map_instance(resource.raw()));
            wrapper.tap.mapped(
                resource,
                map_type,
                flags.allows_usage_default(),
                instance,
                Some((data, len)),
            );
            Ok((data, len))
        }

        let resource = resource.into();
        let (data, len) = if self.tap_active() {
            kept(self, resource, map_type, flags)?
        } else {
            let bytes = self.context.map(resource, map_type, flags)?.keep_mapped();
            (bytes.as_mut_ptr(), bytes.len())
        };
        // SAFETY: `data` is what the wrapped context's map handed out: valid for `len`
        // bytes until the resource is unmapped, its provenance the context's own memory
        // (a chunk or a heap buffer owned through raw pointers), not this borrow; the guard
        // borrows `self` (and so the wrapped context) mutably until it unmaps through
        // `Self::unmap`, which forwards to the wrapped context's.
        Ok(unsafe { Mapped::new(self, resource, data, len) })
    }

    #[inline]
    fn unmap(&mut self, resource: impl Into<Resource>) {
        let resource = resource.into();
        if self.tap_active() {
            self.tap.unmapped(resource);
        }
        self.context.unmap(resource)
    }
}
