//! The D3D11 enumerations in Vulkan's words, one function per kind: formats, topologies,
//! blend factors and operations, comparisons, stencil operations, cull modes, address modes.
//!
//! **In:** the engine's `recorder` enumerations and state descriptions. **Out:** the `vk`
//! values a pipeline or a sampler bakes.
//!
//! **Invariant.** Every format the engine names maps to a Vulkan format or to `None` (refused
//! by the caller, naming the object): typeless formats map to their natural typed view
//! (`r32_typeless` → `R32_UINT`, `r24g8_typeless` → `D24_UNORM_S8_UINT`), as DXVK picks a
//! compatible typed format for a typeless resource.

use ash::vk;
use recorder::{
    AddressMode, BlendFactor, BlendOp, Comparison, CullMode, Format, PrimitiveTopology, StencilOp,
};

/// The Vulkan format of an engine format; `None` for `Unknown`.
pub(crate) fn format(format: Format) -> Option<vk::Format> {
    use vk::Format as F;
    Some(match format {
        Format::Unknown => return None,
        Format::R32G32B32A32Float => F::R32G32B32A32_SFLOAT,
        Format::R32G32B32A32Uint => F::R32G32B32A32_UINT,
        Format::R32G32B32Float => F::R32G32B32_SFLOAT,
        Format::R16G16B16A16Float => F::R16G16B16A16_SFLOAT,
        Format::R16G16B16A16Unorm => F::R16G16B16A16_UNORM,
        Format::R32G32Float => F::R32G32_SFLOAT,
        Format::R10G10B10A2Unorm => F::A2B10G10R10_UNORM_PACK32,
        Format::R11G11B10Float => F::B10G11R11_UFLOAT_PACK32,
        Format::R8G8B8A8Unorm => F::R8G8B8A8_UNORM,
        Format::R8G8B8A8UnormSrgb => F::R8G8B8A8_SRGB,
        Format::B8G8R8A8Unorm => F::B8G8R8A8_UNORM,
        Format::B8G8R8A8UnormSrgb => F::B8G8R8A8_SRGB,
        Format::R16G16Float => F::R16G16_SFLOAT,
        Format::R32Float => F::R32_SFLOAT,
        Format::R32Uint | Format::R32Typeless => F::R32_UINT,
        Format::R24G8Typeless | Format::D24UnormS8Uint => F::D24_UNORM_S8_UINT,
        Format::D32Float => F::D32_SFLOAT,
        Format::D32FloatS8X24Uint => F::D32_SFLOAT_S8_UINT,
        Format::R16Float => F::R16_SFLOAT,
        Format::R16Uint => F::R16_UINT,
        Format::R16Unorm => F::R16_UNORM,
        Format::D16Unorm => F::D16_UNORM,
        Format::R8Unorm => F::R8_UNORM,
        Format::R8Uint => F::R8_UINT,
        Format::Bc1Unorm => F::BC1_RGBA_UNORM_BLOCK,
        Format::Bc3Unorm => F::BC3_UNORM_BLOCK,
        Format::Bc5Unorm => F::BC5_UNORM_BLOCK,
        Format::Bc7Unorm => F::BC7_UNORM_BLOCK,
    })
}

/// The aspects of an image of `format`.
pub(crate) fn aspects(format: vk::Format) -> vk::ImageAspectFlags {
    match format {
        vk::Format::D32_SFLOAT | vk::Format::D16_UNORM => vk::ImageAspectFlags::DEPTH,
        vk::Format::D24_UNORM_S8_UINT | vk::Format::D32_SFLOAT_S8_UINT => {
            vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
        }
        _ => vk::ImageAspectFlags::COLOR,
    }
}

/// Whether `format` is a depth (or depth-stencil) format.
pub(crate) fn is_depth(format: vk::Format) -> bool {
    aspects(format).contains(vk::ImageAspectFlags::DEPTH)
}

/// The Vulkan topology; `None` for `Undefined` (a draw without a topology).
pub(crate) fn topology(topology: PrimitiveTopology) -> Option<vk::PrimitiveTopology> {
    use vk::PrimitiveTopology as T;
    Some(match topology {
        PrimitiveTopology::Undefined => return None,
        PrimitiveTopology::TriangleList => T::TRIANGLE_LIST,
        PrimitiveTopology::TriangleStrip => T::TRIANGLE_STRIP,
        PrimitiveTopology::LineList => T::LINE_LIST,
        PrimitiveTopology::LineStrip => T::LINE_STRIP,
        PrimitiveTopology::PointList => T::POINT_LIST,
    })
}

/// A blend factor.
pub(crate) fn blend_factor(factor: BlendFactor) -> vk::BlendFactor {
    use vk::BlendFactor as B;
    match factor {
        BlendFactor::Zero => B::ZERO,
        BlendFactor::One => B::ONE,
        BlendFactor::SrcColor => B::SRC_COLOR,
        BlendFactor::InvSrcColor => B::ONE_MINUS_SRC_COLOR,
        BlendFactor::SrcAlpha => B::SRC_ALPHA,
        BlendFactor::InvSrcAlpha => B::ONE_MINUS_SRC_ALPHA,
        BlendFactor::DestAlpha => B::DST_ALPHA,
        BlendFactor::InvDestAlpha => B::ONE_MINUS_DST_ALPHA,
        BlendFactor::DestColor => B::DST_COLOR,
        BlendFactor::InvDestColor => B::ONE_MINUS_DST_COLOR,
        BlendFactor::SrcAlphaSat => B::SRC_ALPHA_SATURATE,
        BlendFactor::Factor => B::CONSTANT_COLOR,
        BlendFactor::InvFactor => B::ONE_MINUS_CONSTANT_COLOR,
    }
}

/// A blend operation.
pub(crate) fn blend_op(op: BlendOp) -> vk::BlendOp {
    match op {
        BlendOp::Add => vk::BlendOp::ADD,
        BlendOp::Subtract => vk::BlendOp::SUBTRACT,
        BlendOp::RevSubtract => vk::BlendOp::REVERSE_SUBTRACT,
        BlendOp::Min => vk::BlendOp::MIN,
        BlendOp::Max => vk::BlendOp::MAX,
    }
}

/// A comparison.
pub(crate) fn compare(comparison: Comparison) -> vk::CompareOp {
    use vk::CompareOp as C;
    match comparison {
        Comparison::Never => C::NEVER,
        Comparison::Less => C::LESS,
        Comparison::Equal => C::EQUAL,
        Comparison::LessEqual => C::LESS_OR_EQUAL,
        Comparison::Greater => C::GREATER,
        Comparison::NotEqual => C::NOT_EQUAL,
        Comparison::GreaterEqual => C::GREATER_OR_EQUAL,
        Comparison::Always => C::ALWAYS,
    }
}

/// A stencil operation.
pub(crate) fn stencil_op(op: StencilOp) -> vk::StencilOp {
    use vk::StencilOp as S;
    match op {
        StencilOp::Keep => S::KEEP,
        StencilOp::Zero => S::ZERO,
        StencilOp::Replace => S::REPLACE,
        StencilOp::IncrSat => S::INCREMENT_AND_CLAMP,
        StencilOp::DecrSat => S::DECREMENT_AND_CLAMP,
        StencilOp::Invert => S::INVERT,
        StencilOp::Incr => S::INCREMENT_AND_WRAP,
        StencilOp::Decr => S::DECREMENT_AND_WRAP,
    }
}

/// A cull mode.
pub(crate) fn cull(mode: CullMode) -> vk::CullModeFlags {
    match mode {
        CullMode::None => vk::CullModeFlags::NONE,
        CullMode::Front => vk::CullModeFlags::FRONT,
        CullMode::Back => vk::CullModeFlags::BACK,
    }
}

/// An address mode.
pub(crate) fn address(mode: AddressMode) -> vk::SamplerAddressMode {
    match mode {
        AddressMode::Wrap => vk::SamplerAddressMode::REPEAT,
        AddressMode::Mirror => vk::SamplerAddressMode::MIRRORED_REPEAT,
        AddressMode::Clamp => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        AddressMode::Border => vk::SamplerAddressMode::CLAMP_TO_BORDER,
    }
}
