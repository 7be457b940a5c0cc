//! The three roles of the recording core ([`Recorder`](crate::Recorder)): a deferred context, the
//! immediate context's recorder, a bundle recorder. A role is a type, not a flag: the calls only
//! one role makes are implemented for `Recorder<ThatRole>` alone (`finish_command_list` for
//! [`DeferredRole`], `take_batch` for [`ImmediateRole`], `remap_inheritance` for [`BundleRole`]),
//! and the few shared rules that differ by role read the role's constants, which the compiler
//! folds: no role is checked at run time.
//!
//! The trait is sealed: the engine's three roles are the only ones.
//!
//! What used to be refused at run time, because one type played every role, cannot be written
//! now. These doctests keep the old tests' names:
//!
//! `r_rec_6_take_batch_is_refused_on_a_deferred_context`: a deferred context has no batches
//! (`take_batch` would skip every check of `finish_command_list`).
//!
//! ```compile_fail
//! use recorder::*;
//! let device = Device::new(DeviceDesc::default());
//! let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
//! let _ = context.take_batch(); // no such call on a deferred context
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! The immediate context's recorder finishes no list (R-EX-1: its calls run at once):
//!
//! ```compile_fail
//! use recorder::*;
//! let device = Device::new(DeviceDesc::default());
//! let mut immediate = device.immediate_recorder()?;
//! let _ = immediate.finish_command_list(RestoreState::ClearState); // no such call
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! `r_b_9_remapping_applies_to_bundles_only`: a deferred context records no remap (R-B-9).
//!
//! ```compile_fail
//! use recorder::*;
//! let device = Device::new(DeviceDesc::default());
//! let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
//! context.remap_inheritance(Remap {
//!     kind: RemapKind::ConstantBuffer,
//!     stage: Stage::Vertex,
//!     slot: 0,
//!     inherit_stage: Stage::Vertex,
//!     inherit_slot: 1,
//! }); // no such call on a deferred context
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! And the one that compiles, for contrast (so the three above fail for the reason they say):
//!
//! ```
//! use recorder::*;
//! let device = Device::new(DeviceDesc::default());
//! let mut immediate = device.immediate_recorder()?;
//! immediate.draw(3, 0);
//! assert_eq!(immediate.take_batch()?.stats().draws, 1);
//! let mut bundle = device.bundle_recorder("b", None);
//! bundle.remap_inheritance(Remap {
//!     kind: RemapKind::ConstantBuffer,
//!     stage: Stage::Vertex,
//!     slot: 0,
//!     inherit_stage: Stage::Vertex,
//!     inherit_slot: 1,
//! });
//! assert!(bundle.error().is_none());
//! # Ok::<(), recorder::Error>(())
//! ```

use crate::desc::Semantics;

mod sealed {
    pub trait Sealed {}
}

/// A role of the recording core. Sealed: [`DeferredRole`], [`ImmediateRole`], [`BundleRole`].
pub trait Role: sealed::Sealed + 'static {
    /// The recorder's calls run at once, batch by batch (the immediate context's): its maps,
    /// state and current dynamic instances persist from batch to batch, and it knows the current
    /// instance of every dynamic buffer (a binding never needs a split point).
    const RUNS_AT_ONCE: bool;
    /// The recorder counts against the 48 deferred contexts (R-REC-1).
    const COUNTED: bool;
    /// The recorder sizes each list's first chunk from the list it finished last, within a
    /// doubling policy's sizes (`ChunkPolicy::first_size_for`): a bundle recorder's, whose
    /// steady stream of like bundles then takes one chunk each instead of a small one that it
    /// outgrows (one pool lock per bundle, not two).
    const SIZES_FIRST_CHUNK: bool;
    /// The name of the context type, for `Debug`.
    const TYPE_NAME: &'static str;
    /// How errors name the recorder: "fast deferred context 'name' (#3)".
    fn label(name: &str, serial: u32, semantics: Semantics) -> String;
}

/// The role of a [`DeferredContext`](crate::DeferredContext): records lists that end with
/// `finish_command_list`.
#[derive(Debug)]
pub enum DeferredRole {}

/// The role of the immediate context's recorder (the executor's `ImmediateContext` owns it):
/// its calls run at once, in batches it hands out with `take_batch`.
#[derive(Debug)]
pub enum ImmediateRole {}

/// The role of a bundle recorder (the `bundles` crate's `BundleRecorder` owns it): fast
/// semantics, starting from nothing, outside the 48 deferred contexts; its calls are checked
/// against the bundle rules by the owner before they reach it (SPEC §7).
#[derive(Debug)]
pub enum BundleRole {}

impl sealed::Sealed for DeferredRole {}
impl sealed::Sealed for ImmediateRole {}
impl sealed::Sealed for BundleRole {}

/// A role that records every call a context can make: a deferred context's and the immediate
/// context's, not a bundle's (whose capabilities are binds and draws alone, SPEC §7).
pub trait ContextRole: Role {}

impl ContextRole for DeferredRole {}
impl ContextRole for ImmediateRole {}

impl Role for DeferredRole {
    const RUNS_AT_ONCE: bool = false;
    const COUNTED: bool = true;
    const SIZES_FIRST_CHUNK: bool = false;
    const TYPE_NAME: &'static str = "DeferredContext";
    fn label(name: &str, serial: u32, semantics: Semantics) -> String {
        format!("{} deferred context '{name}' (#{serial})", semantics.name())
    }
}

impl Role for ImmediateRole {
    const RUNS_AT_ONCE: bool = true;
    const COUNTED: bool = false;
    const SIZES_FIRST_CHUNK: bool = false;
    const TYPE_NAME: &'static str = "ImmediateRecorder";
    fn label(name: &str, serial: u32, semantics: Semantics) -> String {
        // As before the roles were types: errors name the immediate recorder like a context.
        format!("{} deferred context '{name}' (#{serial})", semantics.name())
    }
}

impl Role for BundleRole {
    const RUNS_AT_ONCE: bool = false;
    const COUNTED: bool = false;
    const SIZES_FIRST_CHUNK: bool = true;
    const TYPE_NAME: &'static str = "BundleRecorder";
    fn label(name: &str, serial: u32, _semantics: Semantics) -> String {
        format!("bundle recorder '{name}' (#{serial})")
    }
}
