//! The options that carry what a real GPU needs (R-GPU-2) as text: shader code, input elements,
//! the four states' fields, initial bytes; what `../parse_contents.rs` reads back.
//!
//! **In:** the tree's values (`ast/contents_tree.rs`). **Out:** ` key=value` for each option
//! present, in docs/TRACE.md's order; nothing for one not written. HEX in lowercase, two digits
//! a byte (SPIR-V words as their little-endian bytes); a blend target with its alpha factors
//! only where they differ from its colour's, its write mask only where it is not `rgba`; a
//! sampler's `address=` as one word where the three agree.

use std::fmt::{Display, Formatter, Write as _};

use super::{option, yes_no_option, Float, Result};
use crate::syntax::ast::{
    BlendFields, BlendTargetSpec, DepthStencilFields, InitialData, InputElementSpec,
    RasterizerFields, SamplerFields, ShaderCode, ShaderSource, StencilFaceSpec,
};

/// Bytes as HEX.
struct Hex<'a>(&'a [u8]);

impl Display for Hex<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        self.0.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

/// ` wgsl=FILE entry=NAME` (or `wgsl_hex=`, `spirv=`, `spirv_hex=`) where present.
pub(super) fn shader_code_option(f: &mut Formatter<'_>, code: &Option<ShaderCode>) -> Result {
    let Some(ShaderCode { source, entry }) = code else {
        return Ok(());
    };
    match source {
        ShaderSource::WgslFile(file) => write!(f, " wgsl={file}")?,
        ShaderSource::Wgsl(text) => write!(f, " wgsl_hex={}", Hex(text.as_bytes()))?,
        ShaderSource::SpirvFile(file) => write!(f, " spirv={file}")?,
        ShaderSource::SpirV(words) => {
            f.write_str(" spirv_hex=")?;
            for word in words {
                Hex(&word.to_le_bytes()).fmt(f)?;
            }
        }
    }
    write!(f, " entry={entry}")
}

/// ` data=HEX|none|@FILE` where present.
pub(super) fn data_option(f: &mut Formatter<'_>, data: &Option<InitialData>) -> Result {
    match data {
        None => Ok(()),
        Some(InitialData::Bytes(bytes)) if bytes.is_empty() => f.write_str(" data=none"),
        Some(InitialData::Bytes(bytes)) => write!(f, " data={}", Hex(bytes)),
        Some(InitialData::File(file)) => write!(f, " data=@{file}"),
    }
}

/// ` elements=E,..|none` where present.
pub(super) fn elements_option(
    f: &mut Formatter<'_>,
    elements: &Option<Vec<InputElementSpec>>,
) -> Result {
    let Some(elements) = elements else {
        return Ok(());
    };
    f.write_str(" elements=")?;
    if elements.is_empty() {
        return f.write_str("none");
    }
    for (i, element) in elements.iter().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        f.write_str(&element.semantic)?;
        if element.semantic_index != 0 {
            write!(f, "{}", element.semantic_index)?;
        }
        write!(
            f,
            ":{}:{}:{}",
            element.format, element.input_slot, element.byte_offset
        )?;
        if element.per_instance {
            f.write_str(":instance")?;
        }
    }
    Ok(())
}

impl Display for BlendTargetSpec {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        let off = BlendTargetSpec {
            enable: false,
            write_mask: self.write_mask,
            ..Default::default()
        };
        if !self.enable {
            f.write_str("off")?;
        }
        if *self != off {
            if !self.enable {
                f.write_char(',')?;
            }
            write!(f, "{},{},{}", self.src, self.dest, self.op)?;
            if (self.src_alpha, self.dest_alpha, self.op_alpha) != (self.src, self.dest, self.op) {
                write!(
                    f,
                    ",{},{},{}",
                    self.src_alpha, self.dest_alpha, self.op_alpha
                )?;
            }
        }
        match self.write_mask {
            0xf => Ok(()),
            0 => f.write_str(":none"),
            mask => {
                f.write_char(':')?;
                for (bit, channel) in [(1, 'r'), (2, 'g'), (4, 'b'), (8, 'a')] {
                    if mask & bit != 0 {
                        f.write_char(channel)?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl Display for BlendFields {
    /// The fields written, each with its leading space.
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        yes_no_option(f, "alpha_to_coverage", self.alpha_to_coverage)?;
        yes_no_option(f, "independent", self.independent)?;
        if let Some(targets) = &self.targets {
            f.write_str(" blend=")?;
            for (i, target) in targets.iter().enumerate() {
                if i > 0 {
                    f.write_char('/')?;
                }
                target.fmt(f)?;
            }
        }
        Ok(())
    }
}

impl Display for StencilFaceSpec {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(
            f,
            "{},{},{},{}",
            self.fail, self.depth_fail, self.pass, self.func
        )
    }
}

impl Display for DepthStencilFields {
    /// The fields written, each with its leading space.
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        yes_no_option(f, "depth", self.depth)?;
        yes_no_option(f, "depth_write", self.depth_write)?;
        option(f, "depth_func", &self.depth_func)?;
        yes_no_option(f, "stencil", self.stencil)?;
        option(f, "stencil_read_mask", &self.stencil_read_mask)?;
        option(f, "stencil_write_mask", &self.stencil_write_mask)?;
        option(f, "front", &self.front)?;
        option(f, "back", &self.back)
    }
}

impl Display for RasterizerFields {
    /// The fields written, each with its leading space.
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        yes_no_option(f, "wireframe", self.wireframe)?;
        option(f, "cull", &self.cull)?;
        yes_no_option(f, "front_ccw", self.front_ccw)?;
        option(f, "depth_bias", &self.depth_bias)?;
        option(f, "depth_bias_clamp", &self.depth_bias_clamp.map(Float))?;
        option(
            f,
            "slope_scaled_depth_bias",
            &self.slope_scaled_depth_bias.map(Float),
        )?;
        yes_no_option(f, "depth_clip", self.depth_clip)?;
        yes_no_option(f, "scissor", self.scissor)
    }
}

impl Display for SamplerFields {
    /// The fields written, each with its leading space.
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        option(f, "filter", &self.filter)?;
        match self.address {
            Some([u, v, w]) if u == v && v == w => write!(f, " address={u}")?,
            Some([u, v, w]) => write!(f, " address={u},{v},{w}")?,
            None => {}
        }
        option(f, "mip_lod_bias", &self.mip_lod_bias.map(Float))?;
        option(f, "min_lod", &self.min_lod.map(Float))?;
        option(f, "max_lod", &self.max_lod.map(Float))?;
        if let Some([r, g, b, a]) = self.border {
            write!(
                f,
                " border={},{},{},{}",
                Float(r),
                Float(g),
                Float(b),
                Float(a)
            )?;
        }
        Ok(())
    }
}
