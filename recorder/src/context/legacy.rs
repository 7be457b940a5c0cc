//! What only legacy semantics keeps on a context (its shadow of the bound state, its local
//! references), in a box that the `fast-only` build (R-FX-7) empties at compile time.
//!
//! **In:** the legacy state a context creates at its creation, when it is a legacy context.
//! **Out:** `Option`s of it for the recording calls' legacy branches.
//!
//! **Invariant.** With the `fast-only` cargo feature (the seeds'
//! `D3DCOMPILE_NO_DEBUG_AND_ALL_FAST_SEMANTICS`) a [`LegacyBox`] is a zero-sized type whose every
//! accessor returns `None` as a constant: the compiler folds each `if let Some(shadow) = ..` of a
//! recording call to nothing, so `set_shader`, `set_input_layout` and the binds become the fast
//! path's direct writes, with no test of the semantics left in them. Creating a legacy context is
//! refused in that build (`Error::FastOnlyBuild`), so no legacy state is ever wanted.
//! Without the feature it is an `Option<Box<T>>`, as before.

/// Whether this build keeps the legacy paths: `false` with the `fast-only` feature (R-FX-7).
/// The recording calls read it as a constant.
pub const LEGACY_BUILT: bool = !cfg!(feature = "fast-only");

/// A legacy context's own state (`Some`), or none (fast semantics, and always in the
/// `fast-only` build). See the module essay.
pub(crate) struct LegacyBox<T> {
    #[cfg(not(feature = "fast-only"))]
    inner: Option<Box<T>>,
    #[cfg(feature = "fast-only")]
    inner: std::marker::PhantomData<Box<T>>,
}

#[cfg(not(feature = "fast-only"))]
impl<T> LegacyBox<T> {
    /// `make()` when `legacy`, else nothing.
    #[inline]
    pub(crate) fn new_if(legacy: bool, make: impl FnOnce() -> Box<T>) -> Self {
        Self {
            inner: legacy.then(make),
        }
    }
    /// The state, if the context has it.
    #[inline(always)]
    pub(crate) fn as_ref(&self) -> Option<&T> {
        self.inner.as_deref()
    }
    /// The state, if the context has it.
    #[inline(always)]
    pub(crate) fn as_mut(&mut self) -> Option<&mut T> {
        self.inner.as_deref_mut()
    }
    /// Takes the state out (to be put back with [`put`](Self::put)).
    #[inline(always)]
    pub(crate) fn take(&mut self) -> Option<Box<T>> {
        self.inner.take()
    }
    /// Puts back what [`take`](Self::take) took.
    #[inline(always)]
    pub(crate) fn put(&mut self, value: Box<T>) {
        self.inner = Some(value);
    }
}

#[cfg(feature = "fast-only")]
impl<T> LegacyBox<T> {
    /// Nothing: the `fast-only` build keeps no legacy state (creation refuses legacy contexts
    /// before this is reached).
    #[inline(always)]
    pub(crate) fn new_if(_legacy: bool, _make: impl FnOnce() -> Box<T>) -> Self {
        Self {
            inner: std::marker::PhantomData,
        }
    }
    /// `None`, as a constant.
    #[inline(always)]
    pub(crate) fn as_ref(&self) -> Option<&T> {
        None
    }
    /// `None`, as a constant.
    #[inline(always)]
    pub(crate) fn as_mut(&mut self) -> Option<&mut T> {
        None
    }
    /// `None`, as a constant.
    #[inline(always)]
    pub(crate) fn take(&mut self) -> Option<Box<T>> {
        None
    }
    /// Drops `value` (never reached: nothing is ever taken out).
    #[inline(always)]
    pub(crate) fn put(&mut self, value: Box<T>) {
        drop(value);
    }
}

impl<T> LegacyBox<T> {
    /// The state, if the context has it (`as_mut` under the name `Option::as_deref_mut` has).
    #[inline(always)]
    pub(crate) fn as_deref_mut(&mut self) -> Option<&mut T> {
        self.as_mut()
    }
    /// The state, if the context has it.
    #[inline(always)]
    pub(crate) fn as_deref(&self) -> Option<&T> {
        self.as_ref()
    }
    /// Whether the context has none (fast; always in the `fast-only` build).
    #[inline(always)]
    pub(crate) fn is_none(&self) -> bool {
        self.as_ref().is_none()
    }
    /// Whether the context has it (legacy).
    #[inline(always)]
    pub(crate) fn is_some(&self) -> bool {
        self.as_ref().is_some()
    }
}
