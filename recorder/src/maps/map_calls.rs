//! [`MapCalls`]: `map` and `unmap`, and [`Mapped`], the guard a map returns, the capability of deferred and immediate contexts (a bundle
//! recorder has none, R-B-8).
//!
//! **In:** a resource and the map type. **Out:** the resource's bytes as a [`Mapped`] guard, which
//! unmaps on drop; the semantics are `maps/mod.rs`'s.
//!
//! **Invariant.** `map` is the one call each context type writes itself (its answer borrows the
//! context it was called on); `unmap` hands the call to the core like every other.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use crate::call_arguments::MapFlags;
use crate::context::core_access::{Context, CoreAccess};
use crate::desc::*;
use crate::device::handle::*;
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
    /// buffer larger than [`MAX_MAP_BYTES`](crate::limits::MAX_MAP_BYTES) is refused on every
    /// path and for every map type (R-REC-12). Other map types are immediate-context calls.
    ///
    /// A refused map is reported here and does not poison the list (R-REC-8): the list still
    /// finishes, as D3D11's `FinishCommandList` does after a failed `Map`. The refusal is also
    /// [`last_refusal`](crate::Context::last_refusal).
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
    fn unmap(&mut self, resource: impl Into<Resource>)
    where
        Self: Sized,
    {
        self.recorder(CoreAccess(())).unmap(resource)
    }
}

/// The bytes of a map: [`MapCalls::map`]'s answer. Derefs to `[u8]`; dropping it unmaps
/// the resource (`Unmap`), [`keep_mapped`](Self::keep_mapped) leaves it mapped for an explicit
/// [`unmap`](crate::MapCalls::unmap) later (other calls in between, as a trace does). It borrows
/// the context mutably: nothing can finish the list, or take the batch, while it lives.
///
/// ```
/// use recorder::*;
///
/// let device = Device::new(DeviceDesc::default());
/// let buffer = device.create_buffer(&BufferDesc {
///     name: "per_draw", size: 16, usage: Usage::Dynamic, bind: BindFlags::CONSTANT,
///     ..Default::default()
/// })?;
/// let mut context = device.create_deferred_context(&DeferredContextDesc::default())?;
/// context.map(buffer, MapType::WriteDiscard, MapFlags::None)?[0] = 7; // unmapped here
/// let bytes = context.map(buffer, MapType::WriteNoOverwrite, MapFlags::None)?.keep_mapped();
/// bytes[1] = 8;
/// context.draw(3, 0); // still mapped
/// context.unmap(buffer);
/// assert!(context.finish_command_list(RestoreState::ClearState).is_ok());
/// # Ok::<(), recorder::Error>(())
/// ```
pub struct Mapped<'a, C: MapCalls> {
    context: *mut C,
    resource: Resource,
    data: *mut u8,
    len: usize,
    row_pitch: usize,
    borrow: PhantomData<&'a mut C>,
}

impl<'a, C: MapCalls> Mapped<'a, C> {
    /// The map of `resource` on `context`, whose bytes are `len` bytes at `data`.
    ///
    /// # Safety
    ///
    /// `data` must be valid for reads and writes of `len` bytes for as long as `context` stays
    /// borrowed (`'a`) and until `resource` is unmapped, and nothing else may access those bytes
    /// meanwhile; `data`'s provenance must not come from the `context` borrow itself (it points
    /// into memory the context owns through a raw pointer, a chunk or a heap buffer), so that
    /// the borrow may be used again to unmap.
    pub unsafe fn new(context: &'a mut C, resource: Resource, data: *mut u8, len: usize) -> Self {
        Self {
            context,
            resource,
            data,
            len,
            row_pitch: len,
            borrow: PhantomData,
        }
    }

    /// The map with the row pitch `row_pitch` (D3D11's `D3D11_MAPPED_SUBRESOURCE::RowPitch`):
    /// the bytes from one row of a mapped texture to the next.
    pub fn with_row_pitch(mut self, row_pitch: usize) -> Self {
        self.row_pitch = row_pitch;
        self
    }

    /// The bytes from one row of the mapped texture to the next (D3D11's `RowPitch`); a
    /// buffer's map is one row: its length.
    pub fn row_pitch(&self) -> usize {
        self.row_pitch
    }

    /// The resource mapped.
    pub fn resource(&self) -> Resource {
        self.resource
    }

    /// Leaves the resource mapped and hands out its bytes for as long as the context stays
    /// borrowed; end the map with [`MapCalls::unmap`] (D3D11's `Map` ... `Unmap`).
    pub fn keep_mapped(self) -> &'a mut [u8] {
        let this = std::mem::ManuallyDrop::new(self);
        // SAFETY: `new`'s contract: `data` is valid for `len` bytes, accessed by nothing else,
        // while the context stays borrowed for `'a`, which the returned slice keeps borrowed.
        unsafe { std::slice::from_raw_parts_mut(this.data, this.len) }
    }
}

impl<C: MapCalls> Deref for Mapped<'_, C> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `new`'s contract: `len` valid bytes at `data`, accessed only through `self`.
        unsafe { std::slice::from_raw_parts(self.data, self.len) }
    }
}

impl<C: MapCalls> DerefMut for Mapped<'_, C> {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only access.
        unsafe { std::slice::from_raw_parts_mut(self.data, self.len) }
    }
}

impl<C: MapCalls> Drop for Mapped<'_, C> {
    fn drop(&mut self) {
        // SAFETY: `context` came from the `&'a mut C` given to `new`, still borrowed by `self`;
        // no slice of the data outlives this call (`deref` ties them to `&self`).
        unsafe { (*self.context).unmap(self.resource) };
    }
}

impl<C: MapCalls> std::fmt::Debug for Mapped<'_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapped")
            .field("resource", &self.resource)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}
