//! The GPU model's memory (R-FX-4, R-FX-5): the global data store (GDS), its ranges per stage,
//! the constant engine's RAM, and the words of buffers that the GPU side wrote.
//!
//! **What it covers.** The model keeps no resource contents in general. It keeps what these
//! calls move and what feeds them: GDS ([`GDS_BYTES`], zero at first; `write_gds` writes it,
//! `read_gds` reads it), constant RAM ([`CONSTANT_RAM_BYTES`], zero at first;
//! `load_constant_ram` writes it, `store_constant_ram` reads it), and per buffer the 4-byte
//! words the GPU side wrote with these calls: `read_gds`, `store_constant_ram` and
//! `write_value_bottom_of_pipe` (its 8 bytes, little-endian). A word none of these wrote reads
//! as zero: not the data a map or an `update_subresource` carried (the CPU's: a trace's
//! `update_subresource` carries no bytes, so a captured frame's would replay differently), not
//! what a copy, a draw or a dispatch wrote, not creation data. Words are kept per buffer, not
//! per dynamic instance.
//!
//! **Not pipeline state.** `clear_state`, a legacy list's ClearState start and a `restore`
//! leave all of it alone: GDS ranges are set by `set_gds_range` alone (a size of 0 removes one).
//!
//! **Deterministic.** Ordered maps (`BTreeMap`), nothing keyed by address or time: two models
//! fed the same commands compare equal ([`Memory`] is `PartialEq`), and [`Memory::lines`]
//! describes the contents with buffers named by the caller, which `--compare` sets beside the
//! reference's (whose devices give the buffers other handles).
//!
//! **Never panics.** Every access is bounds-checked (the recorder refused what does not fit;
//! a command that does not fit anyway, hand-built, moves only what fits).

use std::collections::BTreeMap;

use recorder::limits::{CONSTANT_RAM_BYTES, GDS_BYTES};
use recorder::{RawHandle, Stage};

/// GDS, constant RAM and the buffer words the GPU side wrote. See the module essay.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// GDS words, allocated at the first write (all zero before).
    gds: Vec<u32>,
    /// The GDS ranges `(offset, size)` of the pixel and compute stages.
    ranges: [(u32, u32); 2],
    /// Constant-RAM words, allocated at the first write (all zero before).
    constant_ram: Vec<u32>,
    /// Buffer words written, by buffer and word index (byte offset / 4).
    words: BTreeMap<(RawHandle, u64), u32>,
}

const GDS_WORDS: usize = (GDS_BYTES / 4) as usize;
const RAM_WORDS: usize = (CONSTANT_RAM_BYTES / 4) as usize;

impl Memory {
    /// `set_gds_range`: the stage's range (other stages are ignored).
    pub(crate) fn set_range(&mut self, stage: Stage, offset: u32, size: u32) {
        let index = match stage {
            Stage::Pixel => 0,
            Stage::Compute => 1,
            _ => return,
        };
        self.ranges[index] = (offset, size);
    }

    /// The GDS range `(offset, size)` in bytes of the pixel or compute stage, `(0, 0)` when none
    /// was set (or another stage).
    pub fn gds_range(&self, stage: Stage) -> (u32, u32) {
        match stage {
            Stage::Pixel => self.ranges[0],
            Stage::Compute => self.ranges[1],
            _ => (0, 0),
        }
    }

    /// `write_gds`: `values` from byte `offset` (what fits).
    pub(crate) fn write_gds(&mut self, offset: u32, values: &[u32]) {
        let gds = grown(&mut self.gds, GDS_WORDS);
        let start = (offset / 4) as usize;
        for (word, value) in gds.iter_mut().skip(start).zip(values) {
            *word = *value;
        }
    }

    /// `count` GDS words from byte `offset` (zeros past GDS), at most GDS's words: a count past
    /// them gives no more (`ImmediateContext::gds_words` refuses a range outside GDS).
    pub fn gds(&self, offset: u32, count: u32) -> Vec<u32> {
        let start = (offset / 4) as usize;
        (0..count.min(GDS_BYTES / 4) as usize)
            .map(|i| self.gds.get(start + i).copied().unwrap_or(0))
            .collect()
    }

    /// `read_gds`: GDS words into `buffer` at byte `offset`.
    pub(crate) fn read_gds(&mut self, offset: u32, count: u32, buffer: RawHandle, at: u64) {
        let count = count.min(GDS_BYTES / 4);
        for (i, value) in self.gds(offset, count).into_iter().enumerate() {
            self.set_word(buffer, at / 4 + i as u64, value);
        }
    }

    /// `load_constant_ram`: `bytes` of `buffer` from `at` into constant RAM at `ram_offset`.
    pub(crate) fn load_constant_ram(
        &mut self,
        buffer: RawHandle,
        at: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        let words: Vec<u32> = (0..(bytes / 4).min(CONSTANT_RAM_BYTES / 4) as u64)
            .map(|i| self.word(buffer, at / 4 + i))
            .collect();
        let ram = grown(&mut self.constant_ram, RAM_WORDS);
        for (word, value) in ram.iter_mut().skip((ram_offset / 4) as usize).zip(words) {
            *word = value;
        }
    }

    /// `store_constant_ram`: `bytes` of constant RAM from `ram_offset` into `buffer` at `at`.
    pub(crate) fn store_constant_ram(
        &mut self,
        buffer: RawHandle,
        at: u64,
        ram_offset: u32,
        bytes: u32,
    ) {
        let words = self.constant_ram(ram_offset, (bytes / 4).min(CONSTANT_RAM_BYTES / 4));
        for (i, value) in words.into_iter().enumerate() {
            self.set_word(buffer, at / 4 + i as u64, value);
        }
    }

    /// `count` constant-RAM words from byte `offset` (zeros past it), at most its words
    /// (`ImmediateContext::constant_ram_words` refuses a range outside it).
    pub fn constant_ram(&self, offset: u32, count: u32) -> Vec<u32> {
        let start = (offset / 4) as usize;
        (0..count.min(CONSTANT_RAM_BYTES / 4) as usize)
            .map(|i| self.constant_ram.get(start + i).copied().unwrap_or(0))
            .collect()
    }

    /// `write_value_bottom_of_pipe`: the 8 bytes of `value`, little-endian, at byte `offset`.
    pub(crate) fn write_value(&mut self, buffer: RawHandle, offset: u64, value: u64) {
        self.write_bytes(buffer, offset, &value.to_le_bytes());
    }

    /// `data` from byte `offset` of `buffer`.
    fn write_bytes(&mut self, buffer: RawHandle, offset: u64, data: &[u8]) {
        for (i, byte) in data.iter().enumerate() {
            let at = offset.saturating_add(i as u64);
            let shift = (at % 4) * 8;
            let word = self.word(buffer, at / 4) & !(0xff << shift) | (*byte as u32) << shift;
            self.set_word(buffer, at / 4, word);
        }
    }

    /// `count` words of `buffer` from byte `offset` (zero where nothing the model sees wrote).
    pub fn buffer_words(&self, buffer: RawHandle, offset: u64, count: u32) -> Vec<u32> {
        (0..count as u64)
            .map(|i| self.word(buffer, offset / 4 + i))
            .collect()
    }

    /// Whether nothing was written: no GDS, constant-RAM or buffer word, no range.
    pub fn is_empty(&self) -> bool {
        self.gds.is_empty()
            && self.constant_ram.is_empty()
            && self.words.is_empty()
            && self.ranges == [(0, 0); 2]
    }

    /// Every non-zero word and every range set, one line each, in a fixed order, buffers named
    /// by `name` (their handles differ between devices): `gds OFFSET VALUE`, `constant_ram
    /// OFFSET VALUE`, `gds_range STAGE OFFSET SIZE`, `memory BUFFER OFFSET VALUE`, numbers in
    /// hex. Two models hold the same contents when their lines are equal (`--compare`).
    pub fn lines(&self, name: impl Fn(RawHandle) -> String) -> Vec<String> {
        let mut out = Vec::new();
        for (space, words) in [("gds", &self.gds), ("constant_ram", &self.constant_ram)] {
            for (i, value) in words.iter().enumerate().filter(|(_, v)| **v != 0) {
                out.push(format!("{space} {:#x} {value:#x}", i * 4));
            }
        }
        for (stage, (offset, size)) in ["ps", "cs"].iter().zip(self.ranges) {
            if (offset, size) != (0, 0) {
                out.push(format!("gds_range {stage} {offset:#x} {size:#x}"));
            }
        }
        let mut words: Vec<String> = self
            .words
            .iter()
            .map(|(&(buffer, word), value)| {
                format!("memory {} {:#x} {value:#x}", name(buffer), word * 4)
            })
            .collect();
        words.sort();
        out.extend(words);
        out
    }

    fn word(&self, buffer: RawHandle, index: u64) -> u32 {
        self.words.get(&(buffer, index)).copied().unwrap_or(0)
    }

    fn set_word(&mut self, buffer: RawHandle, index: u64, value: u32) {
        if value == 0 {
            // A zero word is what an unknown word reads: kept out, so that equal contents
            // compare equal however they were written.
            self.words.remove(&(buffer, index));
        } else {
            self.words.insert((buffer, index), value);
        }
    }
}

/// Equal contents: the same words wherever they are kept (a GDS never written equals one
/// written with zeros), buffers by handle.
impl PartialEq for Memory {
    fn eq(&self, other: &Self) -> bool {
        let raw = |handle: RawHandle| format!("{handle:?}");
        self.lines(raw) == other.lines(raw)
    }
}

impl Eq for Memory {}

/// `words`, grown to `len` zeros at the first write.
fn grown(words: &mut Vec<u32>, len: usize) -> &mut Vec<u32> {
    if words.len() < len {
        words.resize(len, 0);
    }
    words
}
