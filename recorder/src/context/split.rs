//! Split points (SPEC §4): places in a legacy command list where something about a resource is
//! unknown at record time, by category, and the counters PIX keeps for them (R-SP-5).

use std::fmt;
use std::ops::{Index, IndexMut};

/// The ten split-point categories, each with its own counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum SplitCategory {
    /// A clear of a render-target view (R-SP-1).
    ClearRenderTarget = 0,
    /// A clear of a depth-stencil view (R-SP-1).
    ClearDepthStencil,
    /// A bind of render targets or a depth stencil (R-SP-1).
    SetRenderTargets,
    /// A bind of unordered-access views, output-merger or compute (R-SP-1).
    SetUnorderedAccessViews,
    /// A depth-stencil state set (R-SP-1).
    SetDepthStencilState,
    /// A dynamic index buffer not mapped write_discard earlier in the list: it reads the instance
    /// current on the immediate context when the list executes (R-SP-4).
    DynamicIndexBuffer,
    /// A dynamic vertex buffer not mapped write_discard earlier in the list.
    DynamicVertexBuffer,
    /// A dynamic constant buffer not mapped write_discard earlier in the list.
    DynamicConstantBuffer,
    /// A shader-resource view of a dynamic resource not mapped write_discard earlier in the list.
    DynamicShaderResource,
    /// A bind of an SRV or UAV of a compressible render target or depth stencil: decompressed at
    /// execution if it is compressed then (R-SP-2).
    Decompression,
}

// `ALL` is in counter order (`from_u8` and the counters index it).
crate::desc::word_table! {
    SplitCategory {
        ClearRenderTarget => "clear_render_target",
        ClearDepthStencil => "clear_depth_stencil",
        SetRenderTargets => "set_render_targets",
        SetUnorderedAccessViews => "set_unordered_access_views",
        SetDepthStencilState => "set_depth_stencil_state",
        DynamicIndexBuffer => "dynamic_index_buffer",
        DynamicVertexBuffer => "dynamic_vertex_buffer",
        DynamicConstantBuffer => "dynamic_constant_buffer",
        DynamicShaderResource => "dynamic_shader_resource",
        Decompression => "decompression",
    }
}

impl SplitCategory {
    /// The number of categories.
    pub const COUNT: usize = 10;
    #[inline]
    pub(crate) fn from_u8(value: u8) -> Option<Self> {
        Self::ALL.get(value as usize).copied()
    }

    /// Whether resolving it means patching a dynamic resource's instance (R-SP-4).
    pub const fn is_dynamic(self) -> bool {
        matches!(
            self,
            Self::DynamicIndexBuffer
                | Self::DynamicVertexBuffer
                | Self::DynamicConstantBuffer
                | Self::DynamicShaderResource
        )
    }
}

/// A count per split-point category.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitCounts(pub [u32; SplitCategory::COUNT]);

// One counter per category of the word table.
const _: () = assert!(SplitCategory::ALL.len() == SplitCategory::COUNT);

impl SplitCounts {
    /// The sum over every category.
    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }

    /// `(category, count)` for every category with a non-zero count.
    pub fn nonzero(&self) -> impl Iterator<Item = (SplitCategory, u32)> + '_ {
        SplitCategory::ALL
            .into_iter()
            .map(|c| (c, self[c]))
            .filter(|(_, n)| *n > 0)
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &SplitCounts) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }

    /// The counts as the tools' JSON writes them: `{"total":N,"CATEGORY":N,..}`, every
    /// category, in counter order.
    ///
    /// ```
    /// use recorder::{SplitCategory, SplitCounts};
    ///
    /// let mut counts = SplitCounts::default();
    /// counts[SplitCategory::Decompression] = 2;
    /// assert!(counts.to_json().starts_with("{\"total\":2,\"clear_render_target\":0,"));
    /// assert!(counts.to_json().ends_with(",\"decompression\":2}"));
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = format!("{{\"total\":{}", self.total());
        for category in SplitCategory::ALL {
            out.push_str(&format!(",\"{}\":{}", category.name(), self[category]));
        }
        out.push('}');
        out
    }
}

impl Index<SplitCategory> for SplitCounts {
    type Output = u32;
    fn index(&self, category: SplitCategory) -> &u32 {
        &self.0[category as usize]
    }
}

impl IndexMut<SplitCategory> for SplitCounts {
    fn index_mut(&mut self, category: SplitCategory) -> &mut u32 {
        &mut self.0[category as usize]
    }
}

impl fmt::Display for SplitCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "total={}", self.total())?;
        for (category, count) in self.nonzero() {
            write!(f, " {category}={count}")?;
        }
        Ok(())
    }
}
