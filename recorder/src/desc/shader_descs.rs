//! The descriptions of shaders and input layouts (R-OBJ-2, R-OBJ-5): [`ShaderDesc`],
//! [`InputLayoutDesc`], and [`Slots`], the set of slots of one kind each of them reads.
//!
//! **In:** what the application asks for. **Out:** what `Device::create_shader` and
//! `Device::create_input_layout` check and pack.
//!
//! **Invariant.** A [`Slots`] holds slot numbers below 128; the limits of each kind are checked at
//! creation.

use super::*;

use std::fmt;

/// A set of slots of one kind: the constant buffers, shader resources, samplers or UAVs a shader
/// reads, the vertex buffers an input layout reads. Slot `i` is in the set or not; a set holds
/// slots 0 to 127 (the most any kind has, `limits::SHADER_RESOURCE_SLOTS`), and creation refuses
/// one that names a slot past its kind's limit (R-OBJ-5).
///
/// ```
/// use recorder::Slots;
///
/// let set = Slots::first(2).with(5);
/// assert_eq!(set, Slots::of(&[0, 1, 5]));
/// assert!(set.contains(5) && !set.contains(2));
/// assert_eq!(set.iter().collect::<Vec<_>>(), [0, 1, 5]);
/// assert_eq!(format!("{set:?}"), "{0, 1, 5}");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Slots(u128);

impl Slots {
    /// No slot.
    pub const EMPTY: Self = Self(0);

    /// Slots `0..count` (`count` at most 128).
    pub const fn first(count: u32) -> Self {
        if count >= 128 {
            Self(u128::MAX)
        } else {
            Self((1u128 << count) - 1)
        }
    }

    /// The slots listed (each below 128; others are ignored).
    pub const fn of(slots: &[u32]) -> Self {
        let mut bits = 0u128;
        let mut i = 0;
        while i < slots.len() {
            if slots[i] < 128 {
                bits |= 1u128 << slots[i];
            }
            i += 1;
        }
        Self(bits)
    }

    /// The set whose bit `i` says whether slot `i` is in it.
    pub const fn from_bits(bits: u128) -> Self {
        Self(bits)
    }

    /// The set as bits: bit `i` set for slot `i`.
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// This set and `slot` (below 128; another is ignored).
    pub const fn with(self, slot: u32) -> Self {
        if slot < 128 {
            Self(self.0 | 1u128 << slot)
        } else {
            self
        }
    }

    /// Whether `slot` is in the set.
    pub const fn contains(self, slot: u32) -> bool {
        slot < 128 && self.0 >> slot & 1 != 0
    }

    /// How many slots the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds no slot.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The slots, lowest first.
    pub fn iter(self) -> impl Iterator<Item = u32> {
        (0..128).filter(move |&slot| self.contains(slot))
    }

    /// Whether every slot is below `limit`.
    pub(crate) const fn below(self, limit: u32) -> bool {
        limit >= 128 || self.0 >> limit == 0
    }
}

impl fmt::Debug for Slots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl std::ops::BitOr for Slots {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl FromIterator<u32> for Slots {
    fn from_iter<I: IntoIterator<Item = u32>>(slots: I) -> Self {
        slots.into_iter().fold(Self::EMPTY, Self::with)
    }
}

/// A shader: its stage, the slots it reads, and whether it writes stream output (R-OBJ-2).
#[derive(Clone, Copy, Debug)]
pub struct ShaderDesc<'a> {
    /// The debug name, used in messages, records and traces.
    pub name: &'a str,
    /// The stage the shader runs in.
    pub stage: Stage,
    /// The constant-buffer slots the shader reads (below `limits::CONSTANT_BUFFER_SLOTS`).
    pub constant_buffers: Slots,
    /// The shader-resource slots the shader reads (below `limits::SHADER_RESOURCE_SLOTS`).
    pub shader_resources: Slots,
    /// The sampler slots the shader reads (below `limits::SAMPLER_SLOTS`).
    pub samplers: Slots,
    /// The UAV slots the shader accesses (below `limits::COMPUTE_UAV_SLOTS` for a compute
    /// shader, `limits::GRAPHICS_UAV_SLOTS` for the others).
    pub unordered_access_views: Slots,
    /// The shader writes stream output (a geometry shader; never in a bundle, R-B-6).
    pub stream_output: bool,
}

impl<'a> ShaderDesc<'a> {
    /// A shader of `stage` that reads no slot.
    pub fn new(name: &'a str, stage: Stage) -> Self {
        Self {
            name,
            stage,
            constant_buffers: Slots::EMPTY,
            shader_resources: Slots::EMPTY,
            samplers: Slots::EMPTY,
            unordered_access_views: Slots::EMPTY,
            stream_output: false,
        }
    }
}

/// An input layout and the vertex-buffer slots it reads (bit `i`: slot `i`).
#[derive(Clone, Copy, Debug, Default)]
pub struct InputLayoutDesc<'a> {
    /// The debug name, used in messages, records and traces.
    pub name: &'a str,
    /// The vertex-buffer slots the layout reads (below `limits::VERTEX_BUFFER_SLOTS`).
    pub vertex_buffers: Slots,
}
