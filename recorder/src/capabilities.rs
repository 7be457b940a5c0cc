//! What a context can do, as small traits (blade's way): one trait per capability, each call a
//! method of exactly one of them. A context type implements the capabilities its role allows and
//! no other, so a call a role may not make does not compile on it:
//!
//! | capability | calls | deferred, immediate | bundle recorder |
//! |---|---|:-:|:-:|
//! | [`BindCalls`] | input layout, topology, vertex and index buffers, shaders, constant buffers, views, samplers | ✓ | ✓ |
//! | [`FastBindCalls`] | fast resources and batches, placement binds, minimum LOD (R-FX-1, R-FX-2, R-ST-6) | ✓ | ✓ |
//! | [`DrawCalls`] | draws, indirect draws, dispatch | ✓ | ✓ |
//! | [`InheritedStateCalls`] | render targets, blend, depth-stencil, rasterizer, viewports, scissors, reset index, compute UAVs, predication | ✓ | inherited (R-B-7) |
//! | [`ClearStateCalls`] | `clear_state` | ✓ | — (R-B-8) |
//! | [`IndirectDispatchCalls`] | `dispatch_indirect` | ✓ | — (R-B-2, R-B-8) |
//! | [`TransferCalls`] | clears, copies, `update_subresource`, `copy_structure_count` | ✓ | — (R-B-8) |
//! | [`MapCalls`] | `map`, `unmap` | ✓ | — (R-B-8) |
//! | [`QueryCalls`] | begin, end, write, reset, configure a query | ✓ | — (R-B-8) |
//! | [`FenceCalls`] | waits on fences, memory and presents; bottom-of-pipe writes | ✓ | — (R-B-8) |
//! | [`BarrierCalls`] | enhanced and legacy barriers, decompression, compression state | ✓ | — (R-B-8) |
//! | [`EngineMemoryCalls`] | GDS and constant RAM (R-FX-4, R-FX-5) | ✓ | — (R-B-8) |
//!
//! [`DeviceContext`] is all of them: code generic over any context (a renderer's draw loop, the
//! trace replay) asks for it; code that records into a list or a bundle alike asks for the three
//! a bundle has. [`Capability`] names each trait at run time, for an interpreter that replays
//! calls by name (the trace replay refuses a call a bundle lacks with
//! [`Capability::bundle_refusal`]'s kind).
//!
//! **In:** the application's calls. **Out:** the same call on the context's recording core
//! ([`Recorder`]), where each call's meaning is written once: every method here has a default
//! body that hands its arguments to the core, so a context type implements a capability with an
//! empty `impl` block, and overrides only what it does differently (the bundle recorder checks
//! SPEC §7 first; the immediate context runs a barrier at once). The core is reached through
//! [`Context::recorder`], which takes a [`CoreAccess`] that only this crate can make: code outside
//! it calls the capabilities, never the core directly.
//!
//! **Invariant.** Static dispatch only: every default method is `#[inline]` and costs what
//! calling the core directly costs (the record bench's instruction counts check it).

pub use crate::barriers::BarrierCalls;
pub use crate::binds::bind_calls::BindCalls;
pub use crate::binds::state_calls::{ClearStateCalls, InheritedStateCalls};
pub use crate::draws::{DrawCalls, IndirectDispatchCalls};
pub use crate::fast::engine_memory_calls::EngineMemoryCalls;
pub use crate::fast::fast_bind_calls::FastBindCalls;
pub use crate::fences::FenceCalls;
pub use crate::maps::map_calls::MapCalls;
pub use crate::queries::QueryCalls;
pub use crate::transfers::TransferCalls;

pub use crate::context::core_access::{Context, CoreAccess};
use crate::context::role::{ContextRole, Role};
use crate::context::Recorder;
use crate::errors::{Error, ErrorKind};

/// Every call a context can make: deferred contexts and the immediate context are
/// `DeviceContext`s; a bundle recorder is not (it has [`BindCalls`], [`FastBindCalls`] and
/// [`DrawCalls`]). Implemented for every type with all the capabilities.
///
/// ```
/// use recorder::*;
///
/// fn draw_triangle(context: &mut impl DeviceContext) {
///     context.set_primitive_topology(PrimitiveTopology::TriangleList);
///     context.draw(3, 0);
/// }
///
/// let device = Device::new(DeviceDesc::default());
/// let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
/// draw_triangle(&mut context);
/// let list = context.finish_command_list(RestoreState::ClearState).map_err(|e| e.error)?;
/// assert_eq!(list.stats().draws, 1);
/// # Ok::<(), recorder::Error>(())
/// ```
pub trait DeviceContext:
    BindCalls
    + FastBindCalls
    + DrawCalls
    + IndirectDispatchCalls
    + InheritedStateCalls
    + ClearStateCalls
    + TransferCalls
    + MapCalls
    + QueryCalls
    + FenceCalls
    + BarrierCalls
    + EngineMemoryCalls
{
}

impl<C> DeviceContext for C where
    C: BindCalls
        + FastBindCalls
        + DrawCalls
        + IndirectDispatchCalls
        + InheritedStateCalls
        + ClearStateCalls
        + TransferCalls
        + MapCalls
        + QueryCalls
        + FenceCalls
        + BarrierCalls
        + EngineMemoryCalls
{
}

/// The capability traits by name, for code that meets calls at run time (the trace replay).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capability {
    /// [`BindCalls`].
    Bind,
    /// [`FastBindCalls`].
    FastBind,
    /// [`DrawCalls`].
    Draw,
    /// [`IndirectDispatchCalls`].
    IndirectDispatch,
    /// [`InheritedStateCalls`].
    InheritedState,
    /// [`ClearStateCalls`].
    ClearState,
    /// [`TransferCalls`].
    Transfer,
    /// [`MapCalls`].
    Map,
    /// [`QueryCalls`].
    Query,
    /// [`FenceCalls`].
    Fence,
    /// [`BarrierCalls`].
    Barrier,
    /// [`EngineMemoryCalls`].
    EngineMemory,
}

impl Capability {
    /// The error a bundle recorder answers a call of this capability with, or `None` if it
    /// has the capability: `inherited_state_in_bundle` for the state a bundle always inherits
    /// (R-B-7), `unsupported_in_bundle` for the rest (R-B-8).
    pub fn bundle_refusal(self) -> Option<ErrorKind> {
        match self {
            Self::Bind | Self::FastBind | Self::Draw => None,
            Self::InheritedState => Some(ErrorKind::InheritedStateInBundle),
            Self::IndirectDispatch
            | Self::ClearState
            | Self::Transfer
            | Self::Map
            | Self::Query
            | Self::Fence
            | Self::Barrier
            | Self::EngineMemory => Some(ErrorKind::UnsupportedInBundle),
        }
    }
}

// Every role binds and draws; a bundle's core is reached only through the bundle recorder,
// which checks SPEC §7 first.
impl<R: Role> BindCalls for Recorder<R> {}
impl<R: Role> FastBindCalls for Recorder<R> {}
impl<R: Role> DrawCalls for Recorder<R> {}

// The rest is a context's, not a bundle's (R-B-7, R-B-8).
impl<R: ContextRole> IndirectDispatchCalls for Recorder<R> {}
impl<R: ContextRole> InheritedStateCalls for Recorder<R> {}
impl<R: ContextRole> ClearStateCalls for Recorder<R> {}
impl<R: ContextRole> TransferCalls for Recorder<R> {}
impl<R: ContextRole> QueryCalls for Recorder<R> {}
impl<R: ContextRole> FenceCalls for Recorder<R> {}
impl<R: ContextRole> BarrierCalls for Recorder<R> {}
impl<R: ContextRole> EngineMemoryCalls for Recorder<R> {}

impl<R: ContextRole> MapCalls for Recorder<R> {
    #[inline]
    fn map(
        &mut self,
        resource: impl Into<crate::Resource>,
        map_type: crate::MapType,
        flags: crate::MapFlags,
    ) -> Result<crate::Mapped<'_, Self>, Error> {
        Recorder::map(self, resource, map_type, flags)
    }
}
