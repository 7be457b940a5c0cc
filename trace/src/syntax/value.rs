//! `expect draw INDEX FIELD VALUE`: the draw-record field a trace names, and the value it
//! expects there.
//!
//! **In:** a field token (`vs`, `ps.srv.2.min_lod`, `vb.0`, `viewport.1`, `args`, ...).
//! **Out:** a [`DrawField`], and through [`DrawField::value_class`] the kind of value the field
//! holds, which tells the parser how to read the VALUE token into an [`ExpectedValue`].
//!
//! The fields are docs/TRACE.md's list, every one `DrawRecord::field` answers (`ib.offset`,
//! `rtv.N.format` and `dsv.format` among them). Every field takes `null` (an empty slot, or a field
//! the record answers empty); otherwise object fields take a name of the right kind, with `#K`
//! where a dynamic instance can show (buffers and views), `topology` a topology word, the format
//! fields a format name, `predicated` and `.compressed` `yes`/`no`, `reset_index`, `ib.offset` and
//! `.min_lod` a number, `viewport.N` and `scissor.N` four numbers, and `args` the call's numbers
//! or, for an indirect call, `BUF[#K],OFFSET` (a `draw_auto` has no numbers, and docs/TRACE.md no
//! way to write none: its `args` cannot be expected). Numbers keep whether they were written as
//! integers or floats; the replay compares them by value (`2.0` equals `2`).

use super::name::{Format, Name};
use super::words::{PrimitiveTopology, Stage};

/// A field of a draw record, by its docs/TRACE.md name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawField {
    /// `vs` .. `cs`: the bound shader.
    Shader(Stage),
    /// `input_layout`.
    InputLayout,
    /// `topology`.
    Topology,
    /// `reset_index`: the primitive reset (cut) index (R-ST-5).
    ResetIndex,
    /// `ib`.
    IndexBuffer,
    /// `ib.format`.
    IndexBufferFormat,
    /// `ib.offset` (extension).
    IndexBufferOffset,
    /// `vb.N`.
    VertexBuffer(u64),
    /// `vb.N.stride` (R-GPU-2; null where the slot has no buffer).
    VertexBufferStride(u64),
    /// `vb.N.offset` (R-GPU-2; null where the slot has no buffer).
    VertexBufferOffset(u64),
    /// `STAGE.cb.N`.
    ConstantBuffer(Stage, u64),
    /// `STAGE.srv.N`.
    ShaderResource(Stage, u64),
    /// `STAGE.srv.N.min_lod`.
    ShaderResourceMinLod(Stage, u64),
    /// `STAGE.srv.N.compressed`.
    ShaderResourceCompressed(Stage, u64),
    /// `STAGE.sampler.N`.
    Sampler(Stage, u64),
    /// `STAGE.uav.N`.
    UnorderedAccessView(Stage, u64),
    /// `rtv.N`.
    RenderTarget(u64),
    /// `rtv.N.format` (extension).
    RenderTargetFormat(u64),
    /// `rtv.N.resource` (extension): the texture the view named at its bind, which moves for a
    /// view of a swap chain's back buffer (R-EX-7).
    RenderTargetResource(u64),
    /// `dsv`.
    DepthStencilView,
    /// `dsv.format` (extension).
    DepthStencilFormat,
    /// `blend`.
    Blend,
    /// `depth_stencil`: the depth-stencil state.
    DepthStencilState,
    /// `rasterizer`: the rasterizer state.
    Rasterizer,
    /// `viewport.N`.
    Viewport(u64),
    /// `scissor.N`.
    Scissor(u64),
    /// `predicated`: whether the draw ran under predication.
    Predicated,
    /// `args`: the call's numbers, or an indirect call's buffer and offset.
    Args,
}

/// The kind of object an object field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldObject {
    Shader,
    InputLayout,
    Buffer,
    ShaderResourceView,
    UnorderedAccessView,
    RenderTargetView,
    DepthStencilView,
    SamplerState,
    BlendState,
    DepthStencilState,
    RasterizerState,
    /// A buffer or texture (`rtv.N.resource`).
    Resource,
}

impl FieldObject {
    /// Whether a value may name a dynamic instance, `NAME#K`: buffers and views.
    pub(crate) fn has_instances(self) -> bool {
        matches!(
            self,
            Self::Buffer
                | Self::Resource
                | Self::ShaderResourceView
                | Self::UnorderedAccessView
                | Self::RenderTargetView
                | Self::DepthStencilView
        )
    }
}

/// How a field's VALUE token reads (besides `null`, which every field takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueClass {
    Object(FieldObject),
    Topology,
    Format,
    Number,
    Bool,
    /// Exactly four numbers joined by commas.
    Quad,
    /// The call's numbers, or `BUF[#K],OFFSET`.
    Args,
}

impl DrawField {
    /// The field a token names, if any.
    pub fn from_name(text: &str) -> Option<Self> {
        let mut parts = [""; 4];
        let mut count = 0;
        for part in text.split('.') {
            *parts.get_mut(count)? = part;
            count += 1;
        }
        let slot = |n: &str| -> Option<u64> {
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            n.parse().ok()
        };
        Some(match &parts[..count] {
            ["input_layout"] => Self::InputLayout,
            ["topology"] => Self::Topology,
            ["reset_index"] => Self::ResetIndex,
            ["ib"] => Self::IndexBuffer,
            ["ib", "format"] => Self::IndexBufferFormat,
            ["ib", "offset"] => Self::IndexBufferOffset,
            ["vb", n] => Self::VertexBuffer(slot(n)?),
            ["vb", n, "stride"] => Self::VertexBufferStride(slot(n)?),
            ["vb", n, "offset"] => Self::VertexBufferOffset(slot(n)?),
            ["rtv", n] => Self::RenderTarget(slot(n)?),
            ["rtv", n, "format"] => Self::RenderTargetFormat(slot(n)?),
            ["rtv", n, "resource"] => Self::RenderTargetResource(slot(n)?),
            ["dsv"] => Self::DepthStencilView,
            ["dsv", "format"] => Self::DepthStencilFormat,
            ["blend"] => Self::Blend,
            ["depth_stencil"] => Self::DepthStencilState,
            ["rasterizer"] => Self::Rasterizer,
            ["viewport", n] => Self::Viewport(slot(n)?),
            ["scissor", n] => Self::Scissor(slot(n)?),
            ["predicated"] => Self::Predicated,
            ["args"] => Self::Args,
            [stage, rest @ ..] => {
                let stage = Stage::from_name(stage)?;
                match rest {
                    [] => Self::Shader(stage),
                    ["cb", n] => Self::ConstantBuffer(stage, slot(n)?),
                    ["srv", n] => Self::ShaderResource(stage, slot(n)?),
                    ["srv", n, "min_lod"] => Self::ShaderResourceMinLod(stage, slot(n)?),
                    ["srv", n, "compressed"] => Self::ShaderResourceCompressed(stage, slot(n)?),
                    ["sampler", n] => Self::Sampler(stage, slot(n)?),
                    ["uav", n] => Self::UnorderedAccessView(stage, slot(n)?),
                    _ => return None,
                }
            }
            _ => return None,
        })
    }

    pub(crate) fn value_class(self) -> ValueClass {
        use FieldObject as O;
        match self {
            Self::Shader(_) => ValueClass::Object(O::Shader),
            Self::InputLayout => ValueClass::Object(O::InputLayout),
            Self::Topology => ValueClass::Topology,
            Self::ResetIndex
            | Self::IndexBufferOffset
            | Self::VertexBufferStride(_)
            | Self::VertexBufferOffset(_)
            | Self::ShaderResourceMinLod(..) => ValueClass::Number,
            Self::IndexBuffer | Self::VertexBuffer(_) | Self::ConstantBuffer(..) => {
                ValueClass::Object(O::Buffer)
            }
            Self::IndexBufferFormat | Self::RenderTargetFormat(_) | Self::DepthStencilFormat => {
                ValueClass::Format
            }
            Self::ShaderResource(..) => ValueClass::Object(O::ShaderResourceView),
            Self::ShaderResourceCompressed(..) | Self::Predicated => ValueClass::Bool,
            Self::Sampler(..) => ValueClass::Object(O::SamplerState),
            Self::UnorderedAccessView(..) => ValueClass::Object(O::UnorderedAccessView),
            Self::RenderTarget(_) => ValueClass::Object(O::RenderTargetView),
            Self::RenderTargetResource(_) => ValueClass::Object(O::Resource),
            Self::DepthStencilView => ValueClass::Object(O::DepthStencilView),
            Self::Blend => ValueClass::Object(O::BlendState),
            Self::DepthStencilState => ValueClass::Object(O::DepthStencilState),
            Self::Rasterizer => ValueClass::Object(O::RasterizerState),
            Self::Viewport(_) | Self::Scissor(_) => ValueClass::Quad,
            Self::Args => ValueClass::Args,
        }
    }
}

/// A number as written in an expected value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// Decimal or `0x` hexadecimal, possibly negative.
    Integer(i64),
    /// Written with a `.` or an exponent; always finite.
    Float(f32),
}

impl Number {
    /// The value as an `f64`, for comparing by value.
    pub fn as_f64(self) -> f64 {
        match self {
            Self::Integer(n) => n as f64,
            Self::Float(x) => f64::from(x),
        }
    }
}

/// An object in an expected value: `NAME`, or `NAME#K` for the K-th dynamic instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjectRef {
    /// The object's declared name.
    pub name: Name,
    /// `#K`: the K-th instance of a dynamic resource (0: the contents at creation); `None`: not
    /// written.
    pub instance: Option<u64>,
    /// `@ADDRESS`: the binding of a default resource placed at ADDRESS (R-FX-2); `None`: not
    /// written.
    pub placement: Option<u64>,
}

/// The VALUE of `expect draw`.
#[derive(Clone, Debug, PartialEq)]
pub enum ExpectedValue {
    /// `null`: an empty slot.
    Null,
    /// An object field's value.
    Object(ObjectRef),
    /// `topology`'s value.
    Topology(PrimitiveTopology),
    /// A format field's value.
    Format(Format),
    /// A number field's value.
    Number(Number),
    /// `yes` / `no`.
    Bool(bool),
    /// Numbers joined by commas: `viewport.N`, `scissor.N` (four), `args` of a direct call.
    Numbers(Vec<Number>),
    /// `args` of an indirect call: `BUF[#K],OFFSET`.
    IndirectArgs {
        /// The arguments buffer, and the instance read.
        buffer: ObjectRef,
        /// Byte offset of the arguments in it.
        offset: u64,
    },
}
