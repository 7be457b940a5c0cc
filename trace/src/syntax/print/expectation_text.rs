//! Expectations as text: `Display` for [`Expectation`], its [`Subject`], and the fields and
//! values of `expect draw` ([`DrawField`], [`Number`], [`ObjectRef`], [`ExpectedValue`]).
//!
//! **In:** an expectation as written. **Out:** its `expect` line, the keys in the order written.
//!
//! **Invariant.** An integer value prints without a `.`, a float with a `.` or an exponent, so a
//! value of `expect draw` keeps its class through printing and parsing.

use std::fmt::{Display, Formatter, Write as _};

use super::{option, yes_no_option, Float, Result};
use crate::syntax::ast::{Expectation, ExpectedLayout, ExpectedQuery, Subject};
use crate::syntax::value::{DrawField, ExpectedValue, Number, ObjectRef};
use crate::syntax::words::yes_no;

impl Display for Subject {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Immediate => f.write_str("imm"),
            Self::Named(name) => name.fmt(f),
        }
    }
}

impl Display for Expectation {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Ok => f.write_str("expect ok"),
            Self::Accepted { subject } => write!(f, "expect accepted {subject}"),
            Self::Error { subject, kind } => write!(f, "expect error {subject} {kind}"),
            Self::SplitPoints {
                list,
                total,
                categories,
            } => {
                write!(f, "expect split_points {list}")?;
                option(f, "total", total)?;
                categories
                    .iter()
                    .try_for_each(|(category, n)| write!(f, " {category}={n}"))
            }
            Self::Counters(counters) => {
                f.write_str("expect counters")?;
                counters
                    .iter()
                    .try_for_each(|(key, n)| write!(f, " {key}={n}"))
            }
            Self::Draw {
                index,
                field,
                value,
            } => write!(f, "expect draw {index} {field} {value}"),
            Self::Resource {
                resource,
                layout,
                compressed,
                depth,
                stencil,
            } => {
                write!(f, "expect resource {resource}")?;
                match layout {
                    Some(ExpectedLayout::Is(layout)) => write!(f, " layout={layout}")?,
                    Some(ExpectedLayout::Mixed) => f.write_str(" layout=mixed")?,
                    None => {}
                }
                yes_no_option(f, "compressed", *compressed)?;
                option(f, "depth", depth)?;
                option(f, "stencil", stencil)
            }
            Self::Query { query, expected } => {
                write!(f, "expect query {query}")?;
                match expected {
                    ExpectedQuery::NotReady => f.write_str(" not_ready"),
                    ExpectedQuery::Data(keys) => {
                        keys.iter().try_for_each(|(key, n)| write!(f, " {key}={n}"))
                    }
                }
            }
            Self::Pending { resource, pending } => write!(
                f,
                "expect pending {resource} {}",
                if *pending { "yes" } else { "no" }
            ),
            Self::BundleFootprint { bundle, bytes } => {
                write!(f, "expect bundle_footprint {bundle} {bytes}")
            }
            Self::Gds { offset, values } => {
                write!(f, "expect gds {offset}")?;
                values.iter().try_for_each(|v| write!(f, " {v}"))
            }
            Self::ConstantRam { offset, values } => {
                write!(f, "expect constant_ram {offset}")?;
                values.iter().try_for_each(|v| write!(f, " {v}"))
            }
            Self::Memory {
                buffer,
                offset,
                values,
            } => {
                write!(f, "expect memory {buffer} {offset}")?;
                values.iter().try_for_each(|v| write!(f, " {v}"))
            }
        }
    }
}

impl Display for DrawField {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Shader(stage) => write!(f, "{stage}"),
            Self::InputLayout => f.write_str("input_layout"),
            Self::Topology => f.write_str("topology"),
            Self::ResetIndex => f.write_str("reset_index"),
            Self::IndexBuffer => f.write_str("ib"),
            Self::IndexBufferFormat => f.write_str("ib.format"),
            Self::IndexBufferOffset => f.write_str("ib.offset"),
            Self::VertexBuffer(n) => write!(f, "vb.{n}"),
            Self::VertexBufferStride(n) => write!(f, "vb.{n}.stride"),
            Self::VertexBufferOffset(n) => write!(f, "vb.{n}.offset"),
            Self::ConstantBuffer(stage, n) => write!(f, "{stage}.cb.{n}"),
            Self::ShaderResource(stage, n) => write!(f, "{stage}.srv.{n}"),
            Self::ShaderResourceMinLod(stage, n) => write!(f, "{stage}.srv.{n}.min_lod"),
            Self::ShaderResourceCompressed(stage, n) => write!(f, "{stage}.srv.{n}.compressed"),
            Self::Sampler(stage, n) => write!(f, "{stage}.sampler.{n}"),
            Self::UnorderedAccessView(stage, n) => write!(f, "{stage}.uav.{n}"),
            Self::RenderTarget(n) => write!(f, "rtv.{n}"),
            Self::RenderTargetFormat(n) => write!(f, "rtv.{n}.format"),
            Self::RenderTargetResource(n) => write!(f, "rtv.{n}.resource"),
            Self::DepthStencilView => f.write_str("dsv"),
            Self::DepthStencilFormat => f.write_str("dsv.format"),
            Self::Blend => f.write_str("blend"),
            Self::DepthStencilState => f.write_str("depth_stencil"),
            Self::Rasterizer => f.write_str("rasterizer"),
            Self::Viewport(n) => write!(f, "viewport.{n}"),
            Self::Scissor(n) => write!(f, "scissor.{n}"),
            Self::Predicated => f.write_str("predicated"),
            Self::Args => f.write_str("args"),
        }
    }
}

impl Display for Number {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Integer(n) => write!(f, "{n}"),
            Self::Float(x) => Float(*x).fmt(f),
        }
    }
}

impl Display for ObjectRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        // `NAME#K@ADDRESS`, the order the parser reads.
        self.name.fmt(f)?;
        if let Some(k) = self.instance {
            write!(f, "#{k}")?;
        }
        match self.placement {
            Some(address) => write!(f, "@{address:#x}"),
            None => Ok(()),
        }
    }
}

impl Display for ExpectedValue {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Object(object) => object.fmt(f),
            Self::Topology(topology) => topology.fmt(f),
            Self::Format(format) => format.fmt(f),
            Self::Number(number) => number.fmt(f),
            Self::Bool(value) => f.write_str(yes_no(*value)),
            Self::Numbers(numbers) => {
                for (i, number) in numbers.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    number.fmt(f)?;
                }
                Ok(())
            }
            Self::IndirectArgs { buffer, offset } => write!(f, "{buffer},{offset}"),
        }
    }
}
