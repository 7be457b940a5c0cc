//! The global data store and the constant engine's RAM (R-FX-4, R-FX-5): `set_gds_range`,
//! `write_gds`, `read_gds`, `load_constant_ram`, `store_constant_ram`, on every recording
//! context (a bundle recorder has no `EngineMemoryCalls`: the calls do not compile on it).
//!
//! **Always fast semantics** (seed 000: "ReadGDS, WriteGDS, ..., LoadConstantRam, and
//! StoreConstantRam ... always operate as though fast semantics has been defined"): the calls
//! take no reference on the buffer they name, even on a legacy context, and are never split
//! points. The application keeps the buffer alive until the work has run and orders the GPU's
//! accesses to it itself.
//!
//! **Units.** GDS and constant RAM are addressed in bytes, in 4-byte words: every offset and
//! size is a multiple of 4, and the ranges lie inside [`GDS_BYTES`] / [`CONSTANT_RAM_BYTES`] and
//! the buffer's size (else `invalid_argument`, [`Error::OutOfRange`] naming the argument). A
//! transfer moves at least one word. A buffer a transfer writes (`read_gds`,
//! `store_constant_ram`) must be GPU-writable memory: default or staging usage (immutable and
//! dynamic ones are refused with [`Error::WrongUsage`]); a buffer read (`load_constant_ram`) may
//! have any usage.
//!
//! **GDS ranges and append/counter UAVs.** `set_gds_range` partitions GDS counter memory for the
//! pixel stage (the output merger's UAVs) and the compute stage; on a compute context only the
//! compute stage has one, a DMA context has none. A size of 0 removes the stage's range. Under
//! fast semantics a UAV with a hidden counter (append or counter flag) may be bound once the
//! stage it binds to has a range of non-zero size set *by this context's own calls*: on a
//! deferred context since its current list began (a list starts with none: a fast list inherits
//! the executing context's range at run time, which the recorder cannot know), on the immediate
//! context since any earlier direct call (its recorder outlives its batches). R-ST-7's refusal
//! stands otherwise; legacy contexts bind them as before. A range is no pipeline state:
//! `clear_state` keeps it. The counters in GDS are the
//! application's (seed 000): the GPU model runs no shader and does not advance them.

use crate::command::*;
use crate::context::role::Role;
use crate::context::Recorder;
use crate::desc::{Engine, Stage, Usage};
use crate::device::handle::*;
use crate::device::object_info::BufferInfo;
use crate::errors::Error;
use crate::limits::{CONSTANT_RAM_BYTES, GDS_BYTES};

/// The index of `stage` in [`Recorder::gds_ranges`]: pixel 0, compute 1.
pub(crate) fn gds_stage_index(stage: Stage) -> Option<usize> {
    match stage {
        Stage::Pixel => Some(0),
        Stage::Compute => Some(1),
        _ => None,
    }
}

/// `[start, start + bytes)` of a space of `size` bytes in 4-byte words: both numbers multiples
/// of 4, the end within `size`.
fn check_words(
    call: &'static str,
    argument: &'static str,
    start: u64,
    bytes: u64,
    size: u64,
    space: &str,
) -> Result<(), Error> {
    let fits = start.is_multiple_of(4)
        && bytes.is_multiple_of(4)
        && start.checked_add(bytes).is_some_and(|end| end <= size);
    if fits {
        return Ok(());
    }
    Err(Error::OutOfRange {
        call,
        argument,
        value: format!("{start:#x} (+{bytes} bytes)"),
        allowed: format!(
            "4-byte words within the {size} bytes of {space}: offset and size multiples of 4 \
             (R-FX-4, R-FX-5)"
        )
        .into(),
    })
}

impl<R: Role> Recorder<R> {
    /// [`EngineMemoryCalls::set_gds_range`](crate::EngineMemoryCalls::set_gds_range): its semantics.
    pub(crate) fn set_gds_range(&mut self, stage: Stage, offset: u32, size: u32) {
        self.begin_call();
        const CALL: &str = "set_gds_range";
        let index = match (gds_stage_index(stage), self.engine) {
            (_, Engine::Dma) | (Some(0), Engine::Compute) | (None, _) => {
                return self.fail(Error::OutOfRange {
                    call: CALL,
                    argument: "stage",
                    value: stage.name().into(),
                    allowed: format!(
                        "the pixel or compute stage of a graphics context, the compute stage of \
                         a compute context (this is a {} context) (R-FX-4)",
                        self.engine.name()
                    )
                    .into(),
                })
            }
            (Some(index), _) => index,
        };
        let range = check_words(
            CALL,
            "range",
            offset as u64,
            size as u64,
            GDS_BYTES as u64,
            "GDS",
        );
        if let Err(error) = range {
            return self.fail(error);
        }
        self.gds_ranges[index] = size;
        self.emit(
            Opcode::SetGdsRange,
            stage as u8,
            None,
            GdsRangePayload { offset, size },
        );
    }

    /// [`EngineMemoryCalls::write_gds`](crate::EngineMemoryCalls::write_gds): its semantics.
    pub(crate) fn write_gds(&mut self, offset: u32, values: &[u32]) {
        self.begin_call();
        const CALL: &str = "write_gds";
        let bytes = (values.len() as u64).saturating_mul(4);
        let range = match values.is_empty() {
            true => Err(Error::OutOfRange {
                call: CALL,
                argument: "values",
                value: "none".into(),
                allowed: "at least one value (R-FX-4)".into(),
            }),
            false => check_words(
                CALL,
                "offset",
                offset as u64,
                bytes,
                GDS_BYTES as u64,
                "GDS",
            ),
        };
        if let Err(error) = range {
            return self.fail(error);
        }
        let payload = GdsWritePayload {
            offset,
            // At most GDS_BYTES / 4 values (checked above).
            count: values.len() as u32,
        };
        // Whole words, padded to 8 bytes: pairs of values, the last one's second half zero.
        let pairs: Vec<u64> = values
            .chunks(2)
            .map(|pair| {
                let low = pair.first().copied().unwrap_or(0) as u64;
                let high = pair.get(1).copied().unwrap_or(0) as u64;
                if cfg!(target_endian = "little") {
                    low | high << 32
                } else {
                    low << 32 | high
                }
            })
            .collect();
        if let Err(error) = self.emit_with(CALL, Opcode::WriteGds, 0, None, payload, &pairs) {
            self.fail(error);
        }
    }

    /// [`EngineMemoryCalls::read_gds`](crate::EngineMemoryCalls::read_gds): its semantics.
    pub(crate) fn read_gds(
        &mut self,
        offset: u32,
        count: u32,
        destination: Buffer,
        destination_offset: u64,
    ) {
        self.begin_call();
        const CALL: &str = "read_gds";
        let bytes = count as u64 * 4;
        let checked = self
            .written_buffer(
                CALL,
                "destination_offset",
                destination,
                destination_offset,
                bytes,
            )
            .and_then(|()| {
                if count == 0 {
                    return Err(Error::OutOfRange {
                        call: CALL,
                        argument: "count",
                        value: "0".into(),
                        allowed: "at least one word (R-FX-4)".into(),
                    });
                }
                check_words(
                    CALL,
                    "offset",
                    offset as u64,
                    bytes,
                    GDS_BYTES as u64,
                    "GDS",
                )
            });
        if let Err(error) = checked {
            return self.fail(error);
        }
        self.unreferenced();
        self.emit(
            Opcode::ReadGds,
            0,
            None,
            GdsReadPayload {
                destination: destination.0,
                destination_offset,
                offset,
                count,
            },
        );
    }

    /// [`EngineMemoryCalls::load_constant_ram`](crate::EngineMemoryCalls::load_constant_ram): its semantics.
    pub(crate) fn load_constant_ram(
        &mut self,
        buffer: Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        self.constant_ram(
            Opcode::LoadConstantRam,
            "load_constant_ram",
            buffer,
            buffer_offset,
            ram_offset,
            bytes,
        );
    }

    /// [`EngineMemoryCalls::store_constant_ram`](crate::EngineMemoryCalls::store_constant_ram): its semantics.
    pub(crate) fn store_constant_ram(
        &mut self,
        buffer: Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        self.constant_ram(
            Opcode::StoreConstantRam,
            "store_constant_ram",
            buffer,
            buffer_offset,
            ram_offset,
            bytes,
        );
    }

    fn constant_ram(
        &mut self,
        opcode: Opcode,
        call: &'static str,
        buffer: Buffer,
        buffer_offset: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        self.begin_call();
        let checked = match opcode {
            Opcode::StoreConstantRam => {
                self.written_buffer(call, "buffer_offset", buffer, buffer_offset, bytes as u64)
            }
            _ => self
                .buffer_words(call, "buffer_offset", buffer, buffer_offset, bytes as u64)
                .map(|_| ()),
        }
        .and_then(|()| {
            if bytes == 0 {
                return Err(Error::OutOfRange {
                    call,
                    argument: "bytes",
                    value: "0".into(),
                    allowed: "at least one 4-byte word (R-FX-5)".into(),
                });
            }
            check_words(
                call,
                "ram_offset",
                ram_offset as u64,
                bytes as u64,
                CONSTANT_RAM_BYTES as u64,
                "constant RAM",
            )
        });
        if let Err(error) = checked {
            return self.fail(error);
        }
        self.unreferenced();
        self.emit(
            opcode,
            0,
            None,
            ConstantRamPayload {
                buffer: buffer.0,
                buffer_offset,
                ram_offset,
                bytes,
            },
        );
    }

    /// `buffer` is live and `[offset, offset + bytes)` lies in it in 4-byte words: its usage.
    fn buffer_words(
        &self,
        call: &'static str,
        argument: &'static str,
        buffer: Buffer,
        offset: u64,
        bytes: u64,
    ) -> Result<Usage, Error> {
        let info = match self.device.buffers.get(buffer.0, false) {
            Ok(live) => BufferInfo::unpack(live.words),
            Err(_) => return Err(self.device.stale_error(call, ObjectKind::Buffer, buffer.0)),
        };
        let space = format!(
            "the buffer {}",
            self.device.object_name(ObjectKind::Buffer, buffer.0)
        );
        check_words(call, argument, offset, bytes, info.size as u64, &space)?;
        Ok(info.usage)
    }

    /// As [`buffer_words`](Self::buffer_words), for a buffer the GPU writes: default or staging.
    fn written_buffer(
        &self,
        call: &'static str,
        argument: &'static str,
        buffer: Buffer,
        offset: u64,
        bytes: u64,
    ) -> Result<(), Error> {
        match self.buffer_words(call, argument, buffer, offset, bytes)? {
            Usage::Default | Usage::Staging => Ok(()),
            usage => Err(Error::WrongUsage {
                call,
                object: self.device.object_name(ObjectKind::Buffer, buffer.0),
                usage,
                rule: "the GPU writes default or staging buffers only (R-FX-4, R-FX-5)",
            }),
        }
    }
}
