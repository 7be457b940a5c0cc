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

/// The set of overridden (stage, kind, slot) of a bundle so far. Vertex buffers and the index
/// buffer belong to the input assembler: their stage is ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    constant_buffers: [u16; STAGES],
    shader_resources: [u128; STAGES],
    samplers: [u16; STAGES],
    vertex_buffers: u32,
    index_buffer: bool,
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

impl Overrides {
    /// The overrides with slots `start..start + count` of `kind` at `stage` added. `None` when
    /// the range falls outside the kind's slots (the recorder refuses such a call itself).
    pub fn with(&self, kind: SlotKind, stage: Stage, start: u32, count: u32) -> Option<Self> {
        if start.checked_add(count)? > kind.slots() {
            return None;
        }
        let mask = bits(start, count);
        let s = stage as usize;
        let mut next = *self;
        match kind {
            SlotKind::ConstantBuffer => next.constant_buffers[s] |= mask as u16,
            SlotKind::ShaderResource => next.shader_resources[s] |= mask,
            SlotKind::Sampler => next.samplers[s] |= mask as u16,
            SlotKind::VertexBuffer => next.vertex_buffers |= mask as u32,
            SlotKind::IndexBuffer => next.index_buffer |= count > 0,
        }
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

    /// The constant-engine footprint of these overrides, in bytes (R-B-5).
    pub fn footprint(&self) -> u32 {
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
