//! [`EngineMemoryCalls`]: GDS (R-FX-4) and constant RAM (R-FX-5), the capability of deferred
//! and immediate contexts (a bundle recorder has neither, R-B-8).
//!
//! **In:** the application's calls. **Out:** the same calls on the context's recording core
//! (`gds.rs`).
//!
//! **Invariant.** Each method is the core's call, inlined.

use crate::context::core_access::{Context, CoreAccess};
use crate::desc::*;
use crate::device::handle::*;

/// GDS and constant RAM (R-FX-4, R-FX-5): deferred and immediate contexts (R-B-8).
pub trait EngineMemoryCalls: Context {
    /// Partitions GDS counter memory for the pixel or compute stage (`SetGDSRange`, R-FX-4).
    ///
    /// `SetGDSRange` (R-FX-4): the GDS range (`offset`, `size` bytes) of the pixel or compute
    /// stage's counters. Refused (`invalid_argument`): another stage, the pixel stage on a compute
    /// context, any stage on a DMA context, or a range outside GDS ([`GDS_BYTES`](crate::limits::GDS_BYTES)) or not in
    /// 4-byte words. Takes no reference, is never a split point (always fast semantics). A
    /// non-zero size lets this context bind append/counter UAVs of the stage under fast
    /// semantics (module essay).
    #[inline]
    fn set_gds_range(&mut self, stage: Stage, offset: u32, size: u32) {
        self.recorder(CoreAccess(()))
            .set_gds_range(stage, offset, size)
    }

    /// Writes words into GDS (`WriteGDS`, R-FX-4).
    ///
    /// `WriteGDS` (R-FX-4): `values` written into GDS from byte `offset`, one word each; the
    /// values travel with the command. Refused (`invalid_argument`): no value, or words outside
    /// GDS. No reference, no split point.
    #[inline]
    fn write_gds(&mut self, offset: u32, values: &[u32]) {
        self.recorder(CoreAccess(())).write_gds(offset, values)
    }

    /// Copies GDS words into a buffer (`ReadGDS`, R-FX-4).
    ///
    /// `ReadGDS` (R-FX-4): `count` GDS words from byte `offset` copied into `destination` at
    /// `destination_offset`, when the work before it has run (the GPU model keeps the words:
    /// `ImmediateContext::buffer_words`). Refused: a released buffer (`released_object`), words
    /// outside GDS or the buffer, a destination neither default nor staging
    /// (`invalid_argument`). No reference even on a legacy context, no split point.
    #[inline]
    fn read_gds(&mut self, offset: u32, count: u32, destination: Buffer, destination_offset: u64) {
        self.recorder(CoreAccess(()))
            .read_gds(offset, count, destination, destination_offset)
    }

    /// Moves buffer bytes into constant RAM (`LoadConstantRam`, R-FX-5).
    ///
    /// `LoadConstantRam` (R-FX-5): `bytes` of `buffer` from `buffer_offset` into constant RAM at
    /// `ram_offset`. Refused: a released buffer (`released_object`), words outside constant RAM
    /// ([`CONSTANT_RAM_BYTES`](crate::limits::CONSTANT_RAM_BYTES)) or the buffer (`invalid_argument`). No reference, no split point.
    #[inline]
    fn load_constant_ram(
        &mut self,
        buffer: Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        self.recorder(CoreAccess(()))
            .load_constant_ram(buffer, buffer_offset, ram_offset, bytes)
    }

    /// Moves constant-RAM bytes into a buffer (`StoreConstantRam`, R-FX-5).
    ///
    /// `StoreConstantRam` (R-FX-5): `bytes` of constant RAM from `ram_offset` into `buffer` at
    /// `buffer_offset`. Refused as `load_constant_ram` is, and for a buffer neither default nor
    /// staging (`invalid_argument`). No reference, no split point.
    #[inline]
    fn store_constant_ram(
        &mut self,
        buffer: Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        self.recorder(CoreAccess(()))
            .store_constant_ram(buffer, buffer_offset, ram_offset, bytes)
    }
}
