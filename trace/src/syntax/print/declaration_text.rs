//! Declarations as text: `Display` for [`Declaration`] and its slot sets and placements.
//!
//! **In:** a [`Declaration`]. **Out:** its line: the keyword, the name, the positional arguments,
//! then the options written, in docs/TRACE.md's order.
//!
//! **Invariant.** An option that is `None` is not written, so the text parses back to the same
//! declaration.

use std::fmt::{Display, Formatter, Write as _};

use super::contents_text::{data_option, elements_option, shader_code_option};
use super::{option, yes_no_option, Float, Result};
use crate::syntax::ast::{Declaration, Placement, SlotSet};
use crate::syntax::words::on_off;

impl Display for SlotSet {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        for (i, range) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_char(',')?;
            }
            if range.first == range.last {
                write!(f, "{}", range.first)?;
            } else {
                write!(f, "{}-{}", range.first, range.last)?;
            }
        }
        Ok(())
    }
}

/// ` heap=HEAP offset=BYTES` of a placed resource (R-BAR-7), where present.
fn placement_option(f: &mut Formatter<'_>, placement: &Option<Placement>) -> Result {
    match placement {
        Some(Placement { heap, offset }) => write!(f, " heap={heap} offset={offset}"),
        None => Ok(()),
    }
}

impl Display for Declaration {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Device {
                semantics,
                validation,
                legacy_barriers,
            } => {
                write!(f, "device semantics={semantics}")?;
                option(f, "validation", validation)?;
                option(f, "legacy_barriers", &legacy_barriers.map(on_off))
            }
            Self::Buffer {
                name,
                usage,
                bind,
                size,
                uav_flag,
                placement,
                data,
            } => {
                write!(f, "buffer {name} usage={usage} bind={bind} size={size}")?;
                option(f, "uav_flag", uav_flag)?;
                placement_option(f, placement)?;
                data_option(f, data)
            }
            Self::Texture {
                name,
                format,
                width,
                height,
                mips,
                array,
                samples,
                bind,
                compressible,
                tc,
                dcc,
                placement,
                data,
            } => {
                write!(
                    f,
                    "texture {name} format={format} width={width} height={height}"
                )?;
                option(f, "mips", mips)?;
                option(f, "array", array)?;
                option(f, "samples", samples)?;
                write!(f, " bind={bind}")?;
                yes_no_option(f, "compressible", *compressible)?;
                yes_no_option(f, "tc", *tc)?;
                yes_no_option(f, "dcc", *dcc)?;
                placement_option(f, placement)?;
                data_option(f, data)
            }
            Self::ShaderResourceView {
                name,
                resource,
                min_lod,
                composed,
            } => {
                write!(f, "srv {name} {resource}")?;
                option(f, "min_lod", &min_lod.map(Float))?;
                yes_no_option(f, "composed", *composed)
            }
            Self::UnorderedAccessView { name, resource } => write!(f, "uav {name} {resource}"),
            Self::RenderTargetView { name, resource } => write!(f, "rtv {name} {resource}"),
            Self::DepthStencilView { name, resource } => write!(f, "dsv {name} {resource}"),
            Self::Shader {
                name,
                stage,
                constant_buffers,
                shader_resources,
                samplers,
                unordered_access_views,
                stream_output,
                code,
            } => {
                write!(f, "shader {name} stage={stage}")?;
                option(f, "cb", constant_buffers)?;
                option(f, "srv", shader_resources)?;
                option(f, "sampler", samplers)?;
                option(f, "uav", unordered_access_views)?;
                yes_no_option(f, "stream_output", *stream_output)?;
                shader_code_option(f, code)
            }
            Self::InputLayout {
                name,
                vertex_buffers,
                elements,
            } => {
                write!(f, "input_layout {name}")?;
                option(f, "vb", vertex_buffers)?;
                elements_option(f, elements)
            }
            Self::BlendState { name, fields } => write!(f, "blend_state {name}{fields}"),
            Self::RasterizerState { name, fields } => {
                write!(f, "rasterizer_state {name}{fields}")
            }
            Self::DepthStencilState { name, fields } => {
                write!(f, "depth_stencil_state {name}{fields}")
            }
            Self::SamplerState { name, fields } => write!(f, "sampler_state {name}{fields}"),
            Self::Predicate { name } => write!(f, "predicate {name}"),
            Self::Query { name, kind } => write!(f, "query {name} {kind}"),
            Self::Swapchain {
                name,
                buffers,
                format,
                width,
                height,
            } => write!(
                f,
                "swapchain {name} buffers={buffers} format={format} width={width} height={height}"
            ),
            Self::Context {
                name,
                semantics,
                title_managed_lifetimes,
            } => {
                write!(f, "context {name} semantics={semantics}")?;
                match title_managed_lifetimes {
                    true => f.write_str(" title_managed_lifetimes=yes"),
                    false => Ok(()),
                }
            }
            Self::Bundle {
                name,
                render_targets,
                depth,
                samples,
            } => {
                write!(f, "bundle {name} rt=")?;
                if render_targets.is_empty() {
                    f.write_str("none")?;
                }
                for (i, format) in render_targets.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    format.fmt(f)?;
                }
                option(f, "depth", depth)?;
                option(f, "samples", samples)
            }
            Self::Heap { name, size } => write!(f, "heap {name} size={size}"),
            Self::Release { name } => write!(f, "release {name}"),
        }
    }
}
