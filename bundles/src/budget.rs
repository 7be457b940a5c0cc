//! The constant-engine budget (R-B-5): which (stage, kind, slot) a bundle overrides, and what
//! that costs.
//!
//! The cost is that of the accumulated set of overridden slots over the whole bundle, not of the
//! calls: re-setting a slot that is already overridden is free, and a slot set to null is still
//! overridden (R-B-4). So the seeds' examples come out as they say: shader-resource slot 0
//! re-set before each of 10 draws costs 64 bytes; slots 0-9 set once cost 640 bytes. Remaps
//! cost nothing (R-B-9), and cancelling an override by remapping a slot to itself gives nothing
//! back: the slot was loaded into the constant engine all the same.

use recorder::limits::*;
use recorder::Stage;

/// Footprint of an overridden shader-resource slot (the seeds' table).
pub const SHADER_RESOURCE_FOOTPRINT: u32 = 64;
/// Footprint of an overridden constant-buffer slot.
pub const CONSTANT_BUFFER_FOOTPRINT: u32 = 16;
/// Footprint of an overridden sampler slot.
pub const SAMPLER_FOOTPRINT: u32 = 16;
/// Footprint of an overridden vertex-buffer slot.
pub const VERTEX_BUFFER_FOOTPRINT: u32 = 16;
/// Footprint of an overridden index buffer.
pub const INDEX_BUFFER_FOOTPRINT: u32 = 16;

/// The kinds of slot a bundle can override, with a footprint each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlotKind {
    /// A constant-buffer slot of a stage: 16 bytes.
    ConstantBuffer,
    /// A shader-resource slot of a stage: 64 bytes.
    ShaderResource,
    /// A sampler slot of a stage: 16 bytes.
    Sampler,
    /// A vertex-buffer slot of the input assembler: 16 bytes.
    VertexBuffer,
    /// The index buffer (one slot): 16 bytes.
    IndexBuffer,
}

impl SlotKind {
    /// Bytes of the constant engine one overridden slot of this kind takes (R-B-5).
    pub const fn footprint(self) -> u32 {
        match self {
            Self::ConstantBuffer => CONSTANT_BUFFER_FOOTPRINT,
            Self::ShaderResource => SHADER_RESOURCE_FOOTPRINT,
            Self::Sampler => SAMPLER_FOOTPRINT,
            Self::VertexBuffer => VERTEX_BUFFER_FOOTPRINT,
            Self::IndexBuffer => INDEX_BUFFER_FOOTPRINT,
        }
    }

    /// Slots of this kind per stage (R-OBJ-5).
    pub const fn slots(self) -> u32 {
        match self {
            Self::ConstantBuffer => CONSTANT_BUFFER_SLOTS,
            Self::ShaderResource => SHADER_RESOURCE_SLOTS,
            Self::Sampler => SAMPLER_SLOTS,
            Self::VertexBuffer => VERTEX_BUFFER_SLOTS,
            Self::IndexBuffer => 1,
        }
    }

    /// How messages name the kind.
    pub const fn name(self) -> &'static str {
        match self {
            Self::ConstantBuffer => "constant-buffer",
            Self::ShaderResource => "shader-resource",
            Self::Sampler => "sampler",
            Self::VertexBuffer => "vertex-buffer",
            Self::IndexBuffer => "index-buffer",
        }
    }
}

const STAGES: usize = Stage::ALL.len();

/// The set of overridden (stage, kind, slot) of a bundle so far, and its footprint. Vertex
/// buffers and the index buffer belong to the input assembler: their stage is ignored.
///
/// The footprint is kept as slots are added, not recounted: a bind costs the bytes of the slots
/// it makes overridden for the first time ([`grow`](Self::grow) finds them with one mask
/// operation), nothing when they already were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    constant_buffers: [u16; STAGES],
    shader_resources: [u128; STAGES],
    samplers: [u16; STAGES],
    vertex_buffers: u32,
    index_buffer: bool,
    /// The footprint of the slots above, in bytes (R-B-5).
    footprint: u32,
}

/// What a bind would add to a bundle's [`Overrides`]: the slots it overrides for the first time
/// and the footprint after it. Made by [`Overrides::grow`], applied by [`Overrides::apply`] once
/// the bind is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Growth {
    kind: SlotKind,
    stage: usize,
    /// The slots not overridden before (a mask of the kind's slots).
    added: u128,
    footprint: u32,
}

impl Growth {
    /// The footprint of the overrides with this growth applied, in bytes (R-B-5).
    #[inline]
    pub fn footprint(&self) -> u32 {
        self.footprint
    }
}

const _: () = assert!(CONSTANT_BUFFER_SLOTS <= 16 && SAMPLER_SLOTS <= 16);
const _: () = assert!(SHADER_RESOURCE_SLOTS <= 128 && VERTEX_BUFFER_SLOTS <= 32);

/// Bits `start..start + count` of a mask (`count` within the mask's width).
fn bits(start: u32, count: u32) -> u128 {
    if count == 0 {
        return 0;
    }
    let ones = if count >= 128 {
        u128::MAX
    } else {
        (1u128 << count) - 1
    };
    ones << start
}

/// [`bits`] for a kind of at most 32 slots, the range checked against them (`start + count <=
/// 32`): cheaper than the 128-bit shifts.
#[inline]
fn narrow_bits(start: u32, count: u32) -> u32 {
    debug_assert!(start + count <= 32);
    (((1u64 << count) - 1) << start) as u32
}

impl Overrides {
    /// What binding slots `start..start + count` of `kind` at `stage` would add: the slots not
    /// overridden yet, and the footprint after. `None` when the range falls outside the kind's
    /// slots (the recorder refuses such a call itself). O(1): one mask, and a count of the new
    /// slots only when there are any.
    #[inline]
    pub fn grow(&self, kind: SlotKind, stage: Stage, start: u32, count: u32) -> Option<Growth> {
        if start.checked_add(count)? > kind.slots() {
            return None;
        }
        let s = stage as usize;
        let narrow = |current: u32| (narrow_bits(start, count) & !current) as u128;
        let added = match kind {
            SlotKind::ConstantBuffer => narrow(self.constant_buffers[s] as u32),
            SlotKind::ShaderResource => bits(start, count) & !self.shader_resources[s],
            SlotKind::Sampler => narrow(self.samplers[s] as u32),
            SlotKind::VertexBuffer => narrow(self.vertex_buffers),
            SlotKind::IndexBuffer => narrow(self.index_buffer as u32),
        };
        let footprint = if added == 0 {
            self.footprint
        } else {
            self.footprint + added.count_ones() * kind.footprint()
        };
        Some(Growth {
            kind,
            stage: s,
            added,
            footprint,
        })
    }

    /// Whether slots `start..start + count` of `kind` at `stage` are all overridden already (a
    /// bind of them adds nothing to the footprint): the usual bind of a bundle, which rebinds
    /// the slots its first draw set. `false` for a range outside the kind's slots. One mask
    /// test; [`grow`](Self::grow) is for the rest.
    #[inline(always)]
    pub fn covers(&self, kind: SlotKind, stage: Stage, start: u32, count: u32) -> bool {
        match start.checked_add(count) {
            Some(end) if end <= kind.slots() => {}
            _ => return false,
        }
        let s = stage as usize;
        let narrow = |current: u32| narrow_bits(start, count) & !current == 0;
        match kind {
            SlotKind::ConstantBuffer => narrow(self.constant_buffers[s] as u32),
            SlotKind::ShaderResource => bits(start, count) & !self.shader_resources[s] == 0,
            SlotKind::Sampler => narrow(self.samplers[s] as u32),
            SlotKind::VertexBuffer => narrow(self.vertex_buffers),
            SlotKind::IndexBuffer => narrow(self.index_buffer as u32),
        }
    }

    /// Adds the slots of `growth`, which [`grow`](Self::grow) made from these overrides as they
    /// are now.
    #[inline]
    pub fn apply(&mut self, growth: Growth) {
        let (s, added) = (growth.stage, growth.added);
        match growth.kind {
            SlotKind::ConstantBuffer => self.constant_buffers[s] |= added as u16,
            SlotKind::ShaderResource => self.shader_resources[s] |= added,
            SlotKind::Sampler => self.samplers[s] |= added as u16,
            SlotKind::VertexBuffer => self.vertex_buffers |= added as u32,
            SlotKind::IndexBuffer => self.index_buffer |= added != 0,
        }
        self.footprint = growth.footprint;
        debug_assert_eq!(self.footprint, self.recount(), "footprint kept out of step");
    }

    /// The overrides with slots `start..start + count` of `kind` at `stage` added. `None` when
    /// the range falls outside the kind's slots (the recorder refuses such a call itself).
    pub fn with(&self, kind: SlotKind, stage: Stage, start: u32, count: u32) -> Option<Self> {
        let growth = self.grow(kind, stage, start, count)?;
        let mut next = *self;
        next.apply(growth);
        Some(next)
    }

    /// Whether (stage, slot) of `kind` is overridden.
    pub fn contains(&self, kind: SlotKind, stage: Stage, slot: u32) -> bool {
        if slot >= kind.slots() {
            return false;
        }
        let s = stage as usize;
        match kind {
            SlotKind::ConstantBuffer => self.constant_buffers[s] >> slot & 1 != 0,
            SlotKind::ShaderResource => self.shader_resources[s] >> slot & 1 != 0,
            SlotKind::Sampler => self.samplers[s] >> slot & 1 != 0,
            SlotKind::VertexBuffer => self.vertex_buffers >> slot & 1 != 0,
            SlotKind::IndexBuffer => self.index_buffer,
        }
    }

    /// Overridden slots of `kind`, over every stage.
    pub fn count(&self, kind: SlotKind) -> u32 {
        match kind {
            SlotKind::ConstantBuffer => self.constant_buffers.iter().map(|m| m.count_ones()).sum(),
            SlotKind::ShaderResource => self.shader_resources.iter().map(|m| m.count_ones()).sum(),
            SlotKind::Sampler => self.samplers.iter().map(|m| m.count_ones()).sum(),
            SlotKind::VertexBuffer => self.vertex_buffers.count_ones(),
            SlotKind::IndexBuffer => self.index_buffer as u32,
        }
    }

    /// The constant-engine footprint of these overrides, in bytes (R-B-5), as kept.
    #[inline]
    pub fn footprint(&self) -> u32 {
        self.footprint
    }

    /// The footprint counted from the slots: what [`footprint`](Self::footprint) keeps.
    fn recount(&self) -> u32 {
        [
            SlotKind::ConstantBuffer,
            SlotKind::ShaderResource,
            SlotKind::Sampler,
            SlotKind::VertexBuffer,
            SlotKind::IndexBuffer,
        ]
        .into_iter()
        .map(|kind| self.count(kind) * kind.footprint())
        .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_examples() {
        // Slot 0 re-set before each of 10 draws: one slot.
        let mut overrides = Overrides::default();
        for _ in 0..10 {
            overrides = overrides
                .with(SlotKind::ShaderResource, Stage::Pixel, 0, 1)
                .expect("in range");
        }
        assert_eq!(overrides.footprint(), 64);
        // Slots 0-9 in one call.
        let overrides = Overrides::default()
            .with(SlotKind::ShaderResource, Stage::Pixel, 0, 10)
            .expect("in range");
        assert_eq!(overrides.footprint(), 640);
    }

    /// The kept footprint is the recounted one after any sequence of binds, and a bind that
    /// adds nothing costs nothing.
    #[test]
    fn the_kept_footprint_is_the_counted_one() {
        let kinds = [
            SlotKind::ConstantBuffer,
            SlotKind::ShaderResource,
            SlotKind::Sampler,
            SlotKind::VertexBuffer,
            SlotKind::IndexBuffer,
        ];
        let mut overrides = Overrides::default();
        let mut seed = 0x5eed_u64;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let kind = kinds[(seed >> 33) as usize % kinds.len()];
            let stage = Stage::ALL[(seed >> 40) as usize % Stage::ALL.len()];
            let start = (seed >> 45) as u32 % kind.slots();
            let count = ((seed >> 52) as u32 % 4).min(kind.slots() - start);
            let growth = overrides.grow(kind, stage, start, count).expect("in range");
            let mut next = overrides;
            next.apply(growth);
            assert_eq!(next.footprint(), next.recount());
            assert_eq!(growth.footprint(), next.footprint());
            // The same bind again adds nothing.
            let again = next.grow(kind, stage, start, count).expect("in range");
            assert_eq!(again.footprint(), next.footprint());
            assert_eq!(next.with(kind, stage, start, count), Some(next));
            overrides = next;
        }
        assert_eq!(overrides.footprint(), overrides.recount());
    }

    #[test]
    fn covers_is_grow_adding_nothing() {
        let mut overrides = Overrides::default();
        let cases = [
            (SlotKind::ConstantBuffer, Stage::Vertex, 0, 1),
            (SlotKind::ConstantBuffer, Stage::Pixel, 3, 4),
            (SlotKind::ShaderResource, Stage::Pixel, 100, 28),
            (SlotKind::Sampler, Stage::Compute, 15, 1),
            (SlotKind::VertexBuffer, Stage::Vertex, 0, 2),
            (SlotKind::IndexBuffer, Stage::Vertex, 0, 1),
            (SlotKind::VertexBuffer, Stage::Vertex, 31, 2),
            (SlotKind::ConstantBuffer, Stage::Vertex, 2, 0),
        ];
        for round in 0..2 {
            for &(kind, stage, start, count) in &cases {
                let grow = overrides.grow(kind, stage, start, count);
                let adds_nothing = grow.is_some_and(|g| g.footprint() == overrides.footprint());
                assert_eq!(
                    overrides.covers(kind, stage, start, count),
                    adds_nothing,
                    "{kind:?} {stage:?} {start}+{count}, round {round}"
                );
                if let Some(growth) = grow {
                    overrides.apply(growth);
                }
            }
        }
    }

    #[test]
    fn out_of_range_and_full_ranges() {
        let none = Overrides::default();
        assert!(none
            .with(SlotKind::ConstantBuffer, Stage::Vertex, 15, 2)
            .is_none());
        assert!(none
            .with(SlotKind::ShaderResource, Stage::Vertex, u32::MAX, 2)
            .is_none());
        let all = none
            .with(SlotKind::ShaderResource, Stage::Compute, 0, 128)
            .expect("in range");
        assert_eq!(all.footprint(), 128 * 64);
        let vbs = none
            .with(SlotKind::VertexBuffer, Stage::Pixel, 0, 32)
            .expect("in range");
        assert_eq!(vbs.count(SlotKind::VertexBuffer), 32);
        assert!(vbs.contains(SlotKind::VertexBuffer, Stage::Vertex, 31));
        let ib = none
            .with(SlotKind::IndexBuffer, Stage::Vertex, 0, 1)
            .expect("in range");
        assert_eq!(ib.footprint(), 16);
    }
}
