//! Image layouts per subresource (R-GPU-3), as DXVK tracks them: one state for the whole image
//! while every subresource is alike (the common case, as cheap as one comparison), one state per
//! subresource (mip × array layer) from the moment a barrier or a use names only part of the
//! image, and one again once they are all alike.
//!
//! **In:** a range of mips and layers and what is wanted of it: a use (the backend's own, legacy
//! implicit transitions: a layout, the stages and accesses of the use) or an application's
//! barrier (the same, plus its before-stages and before-accesses and whether it discards).
//! **Out:** the `VkImageMemoryBarrier2`s that bring exactly that range there, each over one mip
//! and a run of layers whose state was the same, and the new states.
//!
//! **Invariant.** A state's layout is the layout its subresources are in once the barriers
//! returned so far have run; its stages and accesses are those of the uses since the last
//! barrier, which the next barrier waits for. A use needs a barrier when it changes the layout,
//! when it or an earlier use since the barrier writes, or on the first use of an `UNDEFINED`
//! subresource, except a use that the application's barrier just before it already made visible
//! (`fresh`: no use since, the same layout, its stages and accesses inside the barrier's). An application's
//! barrier is always recorded. Depth and stencil move together (both aspects in every barrier):
//! the device's separate depth-stencil layouts are not used.

use ash::vk;

/// The write accesses: a barrier waits for these to be available (reads need no availability).
pub(crate) const WRITES: vk::AccessFlags2 = vk::AccessFlags2::from_raw(
    vk::AccessFlags2::SHADER_WRITE.as_raw()
        | vk::AccessFlags2::COLOR_ATTACHMENT_WRITE.as_raw()
        | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE.as_raw()
        | vk::AccessFlags2::TRANSFER_WRITE.as_raw()
        | vk::AccessFlags2::HOST_WRITE.as_raw()
        | vk::AccessFlags2::MEMORY_WRITE.as_raw()
        | vk::AccessFlags2::SHADER_STORAGE_WRITE.as_raw(),
);

/// What the backend knows of a subresource (or of all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SubState {
    pub(crate) layout: vk::ImageLayout,
    /// The stages and accesses of the uses since the last barrier (or that barrier's
    /// after-scope, while `fresh`).
    pub(crate) stages: vk::PipelineStageFlags2,
    pub(crate) access: vk::AccessFlags2,
    /// No use since the last barrier.
    pub(crate) fresh: bool,
}

impl SubState {
    /// A new image's.
    pub(crate) const UNDEFINED: Self = Self {
        layout: vk::ImageLayout::UNDEFINED,
        stages: vk::PipelineStageFlags2::NONE,
        access: vk::AccessFlags2::NONE,
        fresh: false,
    };
}

/// Mips and array layers of an image, `first..first + count` each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Subrange {
    pub(crate) first_mip: u32,
    pub(crate) mips: u32,
    pub(crate) first_layer: u32,
    pub(crate) layers: u32,
}

impl Subrange {
    /// Every mip and layer (clamped to the image's).
    pub(crate) const ALL: Self = Self {
        first_mip: 0,
        mips: u32::MAX,
        first_layer: 0,
        layers: u32::MAX,
    };

    /// Mip 0 of layer 0 (a texture's first subresource).
    pub(crate) const FIRST: Self = Self {
        first_mip: 0,
        mips: 1,
        first_layer: 0,
        layers: 1,
    };

    /// One mip, every layer.
    pub(crate) fn mip(mip: u32) -> Self {
        Self {
            first_mip: mip,
            mips: 1,
            ..Self::ALL
        }
    }

    /// This range inside an image of `mips` and `layers` (at least one of each).
    fn clamp(self, mips: u32, layers: u32) -> Self {
        let first_mip = self.first_mip.min(mips - 1);
        let first_layer = self.first_layer.min(layers - 1);
        Self {
            first_mip,
            mips: self.mips.clamp(1, mips - first_mip),
            first_layer,
            layers: self.layers.clamp(1, layers - first_layer),
        }
    }
}

/// What a use or a barrier wants of a range: its after-state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Want {
    pub(crate) layout: vk::ImageLayout,
    pub(crate) stages: vk::PipelineStageFlags2,
    pub(crate) access: vk::AccessFlags2,
    /// An application's barrier: always recorded, waiting also for these stages and (written)
    /// accesses, from `UNDEFINED` when it discards. `None`: the backend's own use.
    pub(crate) explicit: Option<(vk::PipelineStageFlags2, vk::AccessFlags2, bool)>,
}

/// The layouts of one image.
#[derive(Clone, Debug)]
pub(crate) struct Layouts {
    mips: u32,
    layers: u32,
    /// Every subresource's state while they are alike.
    whole: SubState,
    /// Each subresource's (index `mip + layer * mips`) while they are not; empty otherwise.
    parts: Vec<SubState>,
}

/// Whether `state` needs a barrier before `want`.
fn needs_barrier(state: &SubState, want: &Want) -> bool {
    if want.explicit.is_some() || state.layout != want.layout {
        return true;
    }
    if state.fresh && covers(state, want) {
        return false;
    }
    let first = state.access.is_empty() && state.layout == vk::ImageLayout::UNDEFINED;
    first || (state.access | want.access).intersects(WRITES)
}

/// Whether the barrier that left `state` made it visible to `want`'s stages and accesses.
fn covers(state: &SubState, want: &Want) -> bool {
    let stages = state.stages.contains(vk::PipelineStageFlags2::ALL_COMMANDS)
        || state.stages.contains(want.stages);
    let all = vk::AccessFlags2::MEMORY_READ | vk::AccessFlags2::MEMORY_WRITE;
    stages && (state.access.contains(all) || state.access.contains(want.access))
}

/// The state after `want`: a barrier's after-scope, or a use that needed none added to the
/// uses since the last barrier.
fn after(state: &SubState, want: &Want, barrier: bool) -> SubState {
    if barrier {
        // An application's barrier leaves its after-scope for the first use to find; the
        // backend's own barrier is followed by its use at once.
        return SubState {
            layout: want.layout,
            stages: want.stages,
            access: want.access,
            fresh: want.explicit.is_some(),
        };
    }
    // A use with no barrier: later barriers wait for it too (and for the last barrier's
    // after-scope, while it is in the state: the chain to its layout change).
    SubState {
        stages: state.stages | want.stages,
        access: state.access | want.access,
        fresh: false,
        ..*state
    }
}

impl Layouts {
    /// A new image's: every subresource `UNDEFINED`.
    pub(crate) fn new(mips: u32, layers: u32) -> Self {
        Self {
            mips: mips.max(1),
            layers: layers.max(1),
            whole: SubState::UNDEFINED,
            parts: Vec::new(),
        }
    }

    /// Whether the subresources are tracked one by one now.
    #[cfg(test)]
    pub(crate) fn split(&self) -> bool {
        !self.parts.is_empty()
    }

    /// Brings `range` of `image` (of `aspects`) to `want`: pushes the barriers needed onto
    /// `out` and records the new states (see the module essay).
    pub(crate) fn transition(
        &mut self,
        image: vk::Image,
        aspects: vk::ImageAspectFlags,
        range: Subrange,
        want: &Want,
        out: &mut Vec<vk::ImageMemoryBarrier2<'static>>,
    ) {
        let range = range.clamp(self.mips, self.layers);
        let whole = range.mips == self.mips && range.layers == self.layers;
        if self.parts.is_empty() {
            let barrier = needs_barrier(&self.whole, want);
            if whole || !barrier {
                // The common case, or reads after reads: one state stays enough (a later
                // barrier of the rest waits for these readers too, which is only cautious).
                if barrier {
                    let all = Subrange {
                        first_mip: 0,
                        mips: self.mips,
                        first_layer: 0,
                        layers: self.layers,
                    };
                    out.push(barrier_of(image, aspects, all, &self.whole, want));
                }
                self.whole = after(&self.whole, want, barrier);
                return;
            }
            self.parts = vec![self.whole; (self.mips * self.layers) as usize];
        }
        for mip in range.first_mip..range.first_mip + range.mips {
            let mut layer = range.first_layer;
            let end = range.first_layer + range.layers;
            while layer < end {
                let state = self.parts[(mip + layer * self.mips) as usize];
                let mut run = 1;
                while layer + run < end
                    && self.parts[(mip + (layer + run) * self.mips) as usize] == state
                {
                    run += 1;
                }
                let barrier = needs_barrier(&state, want);
                if barrier {
                    let part = Subrange {
                        first_mip: mip,
                        mips: 1,
                        first_layer: layer,
                        layers: run,
                    };
                    out.push(barrier_of(image, aspects, part, &state, want));
                }
                let new = after(&state, want, barrier);
                for l in layer..layer + run {
                    self.parts[(mip + l * self.mips) as usize] = new;
                }
                layer += run;
            }
        }
        let first = self.parts[0];
        let alike = |p: &SubState| {
            (p.layout, p.stages, p.access) == (first.layout, first.stages, first.access)
        };
        if self.parts.iter().all(alike) {
            // Fresh only where every part is: a barrier too many, never one too few.
            let fresh = self.parts.iter().all(|p| p.fresh);
            self.whole = SubState { fresh, ..first };
            self.parts = Vec::new();
        }
    }
}

/// The barrier bringing `range` from `state` to `want`.
fn barrier_of(
    image: vk::Image,
    aspects: vk::ImageAspectFlags,
    range: Subrange,
    state: &SubState,
    want: &Want,
) -> vk::ImageMemoryBarrier2<'static> {
    let (extra_stages, extra_access, discard) =
        want.explicit
            .unwrap_or((vk::PipelineStageFlags2::NONE, vk::AccessFlags2::NONE, false));
    let old = if discard {
        vk::ImageLayout::UNDEFINED
    } else {
        state.layout
    };
    vk::ImageMemoryBarrier2::default()
        .src_stage_mask(state.stages | extra_stages)
        .src_access_mask((state.access | extra_access) & WRITES)
        .dst_stage_mask(want.stages)
        .dst_access_mask(want.access)
        .old_layout(old)
        .new_layout(want.layout)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: aspects,
            base_mip_level: range.first_mip,
            level_count: range.mips,
            base_array_layer: range.first_layer,
            layer_count: range.layers,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn use_as(layout: vk::ImageLayout, access: vk::AccessFlags2) -> Want {
        Want {
            layout,
            stages: vk::PipelineStageFlags2::ALL_COMMANDS,
            access,
            explicit: None,
        }
    }

    fn run(layouts: &mut Layouts, range: Subrange, want: Want) -> Vec<vk::ImageSubresourceRange> {
        let mut out = Vec::new();
        layouts.transition(
            vk::Image::null(),
            vk::ImageAspectFlags::COLOR,
            range,
            &want,
            &mut out,
        );
        out.iter().map(|b| b.subresource_range).collect()
    }

    #[test]
    fn a_use_of_one_mip_splits_the_image_and_a_whole_use_joins_it_again() {
        let mut layouts = Layouts::new(3, 2);
        let read = use_as(
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            vk::AccessFlags2::SHADER_SAMPLED_READ,
        );
        let write = use_as(
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            vk::AccessFlags2::COLOR_ATTACHMENT_WRITE,
        );
        assert_eq!(run(&mut layouts, Subrange::ALL, read).len(), 1);
        assert!(!layouts.split());
        let one = Subrange {
            first_mip: 1,
            mips: 1,
            first_layer: 1,
            layers: 1,
        };
        let ranges = run(&mut layouts, one, write);
        assert_eq!(ranges.len(), 1);
        assert_eq!(
            (ranges[0].base_mip_level, ranges[0].level_count),
            (1, 1),
            "mip 1 alone"
        );
        assert_eq!(
            (ranges[0].base_array_layer, ranges[0].layer_count),
            (1, 1),
            "layer 1 alone"
        );
        assert!(layouts.split());
        // Back to shader reads everywhere: only the subresource that left needs a barrier.
        let ranges = run(&mut layouts, Subrange::ALL, read);
        assert_eq!(ranges.len(), 1, "{ranges:?}");
        assert_eq!(ranges[0].base_mip_level, 1);
        assert!(!layouts.split(), "alike again: one state");
    }

    #[test]
    fn a_use_right_after_a_barrier_that_covers_it_needs_none() {
        let mut layouts = Layouts::new(1, 1);
        let barrier = Want {
            explicit: Some((vk::PipelineStageFlags2::NONE, vk::AccessFlags2::NONE, false)),
            ..use_as(
                vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                vk::AccessFlags2::COLOR_ATTACHMENT_WRITE,
            )
        };
        assert_eq!(run(&mut layouts, Subrange::ALL, barrier).len(), 1);
        let write = use_as(
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            vk::AccessFlags2::COLOR_ATTACHMENT_WRITE,
        );
        assert!(run(&mut layouts, Subrange::ALL, write).is_empty());
        assert_eq!(
            run(&mut layouts, Subrange::ALL, write).len(),
            1,
            "a write after a write waits"
        );
    }

    #[test]
    fn a_use_after_the_backends_own_barrier_and_its_use_waits() {
        let mut layouts = Layouts::new(1, 1);
        let write = use_as(
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            vk::AccessFlags2::COLOR_ATTACHMENT_WRITE,
        );
        assert_eq!(
            run(&mut layouts, Subrange::ALL, write).len(),
            1,
            "first use"
        );
        assert_eq!(
            run(&mut layouts, Subrange::ALL, write).len(),
            1,
            "the pass reopened on the same target waits for the first one's writes"
        );
    }
}
