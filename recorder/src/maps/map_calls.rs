//! [`MapCalls`]: `map` and `unmap`, the capability of deferred and immediate contexts (a bundle
//! recorder has none, R-B-8).
//!
//! **In:** a resource and the map type. **Out:** the resource's bytes as a [`Mapped`] guard, which
//! unmaps on drop; the semantics are `maps/mod.rs`'s.
//!
//! **Invariant.** `map` is the one call each context type writes itself (its answer borrows the
//! context it was called on); `unmap` hands the call to the core like every other.

use crate::capabilities::{Context, CoreAccess};
use crate::desc::*;
use crate::device::handle::*;
use crate::call_arguments::{MapFlags, Mapped};
use crate::errors::Error;

/// `Map` and `Unmap`: deferred and immediate contexts (R-B-8).
pub trait MapCalls: Context {
    /// Maps `resource` and returns its bytes, unmapped when the [`Mapped`] is dropped (or kept
    /// mapped with [`Mapped::keep_mapped`]); the refusal if the map was refused (R-REC-8: a
    /// refused map does not poison the list). The map types:
    ///
    /// Maps a buffer for writing and returns its memory, or the error if the call was refused.
    ///
    /// - `WriteDiscard` (dynamic buffers): a new instance whose data travels with the list; later
    ///   binds in this list read it without a split point (R-SP-1, R-REC-10). On a legacy context
    ///   the slots where the buffer is bound are re-bound to it (R-ST-8).
    /// - `WriteNoOverwrite`: on a dynamic buffer, writes into the instance this list mapped
    ///   write_discard, and is an error before one (R-REC-11); on a default buffer, only with
    ///   `MapFlags::AllowUsageDefault`, writes in place and never splits.
    ///
    /// Every map's data travels in the list (or, on the immediate context, in its batch), so a
    /// buffer larger than [`MAX_MAP_BYTES`] is refused on every
    /// path and for every map type (R-REC-12). Other map types are immediate-context calls.
    ///
    /// A refused map is reported here and does not poison the list (R-REC-8): the list still
    /// finishes, as D3D11's `FinishCommandList` does after a failed `Map`. The refusal is also
    /// [`last_refusal`](Self::last_refusal).
    ///
    /// ```
    /// use recorder::*;
    ///
    /// let device = Device::new(DeviceDesc::default());
    /// let buffer = device.create_buffer(&BufferDesc {
    ///     name: "per_draw",
    ///     size: 64,
    ///     usage: Usage::Dynamic,
    ///     bind: BindFlags::CONSTANT,
    ///     ..Default::default()
    /// })?;
    /// let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
    /// let refused = context.map(buffer, MapType::WriteNoOverwrite, MapFlags::None);
    /// assert_eq!(refused.unwrap_err().kind(), ErrorKind::DynamicBeforeMap);
    /// context.map(buffer, MapType::WriteDiscard, MapFlags::None)?[0] = 1; // unmapped on drop
    /// context.draw(3, 0);
    /// assert_eq!(context.finish_command_list(RestoreState::ClearState).map_err(|e| e.error)?.stats().draws, 1);
    /// # Ok::<(), recorder::Error>(())
    /// ```
    fn map(
        &mut self,
        resource: impl Into<Resource>,
        map_type: MapType,
        flags: MapFlags,
    ) -> Result<Mapped<'_, Self>, Error>
    where
        Self: Sized;

    /// Ends a map left open ([`Mapped::keep_mapped`]) (`Unmap`).
    ///
    /// Ends a map.
    #[inline]
    fn unmap(&mut self, resource: impl Into<Resource>) where Self: Sized {
        self.recorder(CoreAccess(())).unmap(resource)
    }
}
