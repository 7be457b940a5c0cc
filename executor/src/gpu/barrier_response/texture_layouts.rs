//! What the barrier model knows of each texture (R-BAR-3): its facts, read from the device at its
//! first barrier ([`Facts`]: mips, array slices, planes, depth, TC, DCC, metadata), its layout per
//! subresource and the compression of each plane when the planes differ ([`TextureLayouts`]), and
//! what the model tells of a texture ([`TextureState`], read by TRACE.md's `expect resource`).
//!
//! **In:** a texture's handle, and the device given by [`GpuModel::set_device`].
//! **Out:** the facts, a texture's layouts, and the one layout a range of subresources is in.
//!
//! **Invariant:** one layout per subresource, at index `mip + mips * (slice + slices * plane)`
//! (`D3D12CalcSubresource` order), every texture starting in `common`; a texture the model knows
//! nothing of (no device) is one colour subresource without metadata ([`Facts::UNKNOWN`]).

use recorder::{BarrierLayout, BarrierSubresources, Format, Handle, RawHandle, Span, Texture};

use crate::gpu::GpuModel;

/// What the GPU model knows of a texture now: TRACE.md's `expect resource` reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureState {
    /// The layout every subresource is in; `None` when they differ (`mixed`).
    pub layout: Option<BarrierLayout>,
    /// Whether any plane is compressed.
    pub compressed: bool,
    /// The depth plane's compression, for a format with depth (`None` otherwise).
    pub depth_compressed: Option<bool>,
    /// The stencil plane's compression, for a format with stencil (`None` otherwise).
    pub stencil_compressed: Option<bool>,
}

/// The facts of a texture a barrier needs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Facts {
    pub(super) mips: u16,
    pub(super) slices: u16,
    pub(super) planes: u8,
    pub(super) depth: bool,
    pub(super) tc: bool,
    pub(super) dcc: bool,
    /// Compressible or DCC: it has metadata to compress with.
    pub(super) metadata: bool,
}

impl Facts {
    /// A texture the model knows nothing of (no device): one colour subresource, no metadata.
    pub(super) const UNKNOWN: Self = Self {
        mips: 1,
        slices: 1,
        planes: 1,
        depth: false,
        tc: false,
        dcc: false,
        metadata: false,
    };

    fn of_format(format: Format) -> (bool, u8) {
        match format {
            Format::D24UnormS8Uint | Format::D32FloatS8X24Uint => (true, 2),
            Format::D32Float | Format::D16Unorm => (true, 1),
            _ => (false, 1),
        }
    }
}

/// One texture's barrier state.
#[derive(Clone, Debug)]
pub(super) struct TextureLayouts {
    pub(super) facts: Facts,
    /// Index `mip + mips * (slice + slices * plane)`.
    pub(super) layouts: Vec<BarrierLayout>,
    /// Each plane's compression when the planes differ (a barrier left them so); `None` when
    /// the model's `compressed` set says it for both.
    pub(super) planes: Option<[bool; 2]>,
}

impl TextureLayouts {
    pub(super) fn new(facts: Facts) -> Self {
        let count = facts.mips as usize * facts.slices as usize * facts.planes as usize;
        Self {
            facts,
            layouts: vec![BarrierLayout::Common; count.max(1)],
            planes: None,
        }
    }

    pub(super) fn layout(&self) -> Option<BarrierLayout> {
        let first = *self.layouts.first()?;
        self.layouts.iter().all(|l| *l == first).then_some(first)
    }

    pub(super) fn index(&self, mip: u16, slice: u16, plane: u16) -> usize {
        let f = &self.facts;
        mip as usize + f.mips as usize * (slice as usize + f.slices as usize * plane as usize)
    }
}

/// The inclusive range `span` of a dimension of `count`, clamped; `None` when it is empty.
pub(super) fn clamp(span: Span, count: u16) -> Option<(u16, u16)> {
    let last = span.last.min(count.saturating_sub(1));
    (span.first <= last && count > 0).then_some((span.first, last))
}

impl GpuModel {
    /// Gives the model the device whose objects it sees: the barrier model reads texture facts
    /// (planes, mips, slices, TC, DCC) from it at a texture's first barrier (R-BAR-3).
    pub fn set_device(&mut self, device: Option<recorder::Device>) {
        self.device = device;
    }

    pub(super) fn facts(&self, texture: RawHandle) -> Option<Facts> {
        let device = self.device.as_ref().or(self.validator.as_ref());
        let Some(device) = device else {
            return Some(Facts::UNKNOWN);
        };
        let info = device.texture_info(Texture::from_raw(texture))?;
        let (depth, planes) = Facts::of_format(info.format);
        Some(Facts {
            mips: info.mip_levels.clamp(1, u16::MAX as u32) as u16,
            slices: info.array_size.clamp(1, u16::MAX as u32) as u16,
            planes,
            depth,
            tc: info.texture_compatible,
            dcc: info.dcc,
            metadata: info.compressible || info.dcc,
        })
    }

    /// The one layout every subresource of `range` is in, if they agree.
    pub(super) fn known_layout(
        &self,
        t: &TextureLayouts,
        range: &BarrierSubresources,
    ) -> Option<BarrierLayout> {
        let f = &t.facts;
        let mips = clamp(range.mips, f.mips)?;
        let slices = clamp(range.array, f.slices)?;
        let planes = clamp(range.planes, f.planes as u16)?;
        let mut found = None;
        for plane in planes.0..=planes.1 {
            for slice in slices.0..=slices.1 {
                for mip in mips.0..=mips.1 {
                    let l = *t.layouts.get(t.index(mip, slice, plane))?;
                    if found.is_some_and(|f| f != l) {
                        return None;
                    }
                    found = Some(l);
                }
            }
        }
        found
    }
}
