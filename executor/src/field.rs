//! A draw record's fields by name (`vs`, `ib.format`, `vb.3`, `vb.3.stride`, `vb.3.offset`,
//! `ps.srv.2.min_lod`, `rtv.0`, `rtv.0.resource` (printed for a back buffer's view only, whose
//! buffer moves: R-EX-7), `viewport.0`, `args`, ...), and a record printed as `name=value` pairs. The names are the
//! record's own: one per slot and register the model keeps, so that a tool (a test, a trace
//! format's `expect draw`) can ask for one field without knowing the record's layout.
//!
//! A name the record does not have answers `None`: a slot the bound shader does not read, a
//! vertex-buffer slot the input layout does not read, a stage with no shader, a graphics field of
//! a dispatch, `cs` of a draw, a malformed name. A slot that is read but empty answers
//! [`FieldValue::Null`]. Values keep raw handles and instances: an [`ObjectNamer`] turns them into
//! names when they are printed ([`RawNames`] prints `KINDindex` forms, the [`recorder::Device`] the
//! debug names objects were created with, a tool its own names).

use std::fmt::{self, Write as _};

use recorder::command::{BoundBuffer, InstanceId, ViewFlags};
use recorder::limits::{RENDER_TARGET_SLOTS, VIEWPORT_SLOTS};
use recorder::{Format, ObjectKind, PrimitiveTopology, RawHandle, Rect, Stage, Viewport};

use crate::draw_record::{DrawArgs, DrawRecord, GraphicsRecord, StageRecord, ViewRecord};

/// The value of one field of a draw record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldValue {
    /// An empty slot, or no object bound.
    Null,
    /// An object: a shader, a state, a view (`instance`: its resource's), a buffer.
    Object {
        /// The object's kind.
        kind: ObjectKind,
        /// Its handle.
        handle: RawHandle,
        /// The dynamic instance read (`INITIAL` for other objects).
        instance: InstanceId,
    },
    /// An integer: a count, an index, a mask, a draw argument.
    Uint(u64),
    /// A float: a minimum LOD, a blend factor component.
    Float(f32),
    /// A flag.
    Bool(bool),
    /// A format.
    Format(Format),
    /// A primitive topology.
    Topology(PrimitiveTopology),
    /// A viewport.
    Viewport(Viewport),
    /// A scissor rectangle.
    Scissor(Rect),
    /// A draw's arguments.
    Args(DrawArgs),
}

/// Turns an object of a record into its name: `NAME`, or `NAME#K` where the buffer or the
/// view's resource is dynamic (only the namer knows: a buffer binding does not say whether its
/// buffer is dynamic).
pub trait ObjectNamer {
    /// Writes the name of the object `kind` `handle` reading `instance`.
    fn write_object(
        &self,
        f: &mut fmt::Formatter<'_>,
        kind: ObjectKind,
        handle: RawHandle,
        instance: InstanceId,
    ) -> fmt::Result;
}

/// Closures name objects too.
impl<F> ObjectNamer for F
where
    F: Fn(ObjectKind, RawHandle, InstanceId) -> String,
{
    fn write_object(
        &self,
        f: &mut fmt::Formatter<'_>,
        kind: ObjectKind,
        handle: RawHandle,
        instance: InstanceId,
    ) -> fmt::Result {
        f.write_str(&self(kind, handle, instance))
    }
}

/// Names objects by their kind and raw index: `buffer3`, and `buffer3#R:S` for an instance other
/// than the initial one (`R:S`: the recording context's serial and its map serial; `#?` for one
/// still to be resolved at execution; `@ADDRESS` for a placed binding): the instance notation
/// of the trace (`NAME#K`), with the engine's numbering.
#[derive(Clone, Copy, Debug, Default)]
pub struct RawNames;

impl ObjectNamer for RawNames {
    fn write_object(
        &self,
        f: &mut fmt::Formatter<'_>,
        kind: ObjectKind,
        handle: RawHandle,
        instance: InstanceId,
    ) -> fmt::Result {
        // `buffer3`, `shader_resource_view7`: the kind and the table index.
        for c in kind.name().chars() {
            f.write_char(if c == ' ' || c == '-' { '_' } else { c })?;
        }
        write!(f, "{}", handle.index())?;
        write_instance(f, instance)
    }
}

/// The instance suffix of a binding other than the initial one, in the trace's notation
/// (TRACE.md: `NAME#K`, `NAME@ADDRESS`): `#R:S` for the instance serial `S` of recorder `R` (the
/// engine's own numbering; a trace numbers them `#1`, `#2` in its order), `#?` for one resolved
/// at execution, `@ADDRESS` for a placed binding (R-FX-2).
fn write_instance(f: &mut fmt::Formatter<'_>, instance: InstanceId) -> fmt::Result {
    if instance == InstanceId::RESOLVE_AT_EXECUTION {
        f.write_str("#?")
    } else if let Some(address) = instance.placement() {
        // A placed binding (R-FX-2).
        write!(f, "@{address:#x}")
    } else if instance != InstanceId::INITIAL {
        write!(f, "#{}:{}", instance.recorder(), instance.serial())
    } else {
        Ok(())
    }
}

/// Names objects as they were created: the debug name given in their description (`per_draw`),
/// or [`RawNames`]' `KINDindex` for an object created without one or released since, with the
/// instance suffix of [`RawNames`]. `record.display_with(&device)` prints a record with the names an engine
/// programmer gave.
///
/// ```
/// use executor::prelude::*;
///
/// let device = Device::new(DeviceDesc::default());
/// let vs = device.create_shader(&ShaderDesc::new("sky_vs", Stage::Vertex))?;
/// let mut immediate = ImmediateContext::new(&device)?;
/// immediate.set_shader(Stage::Vertex, Some(vs));
/// immediate.draw(3, 0);
/// immediate.flush()?;
/// let line = immediate.records()[0].display_with(&device).to_string();
/// assert!(line.contains("vs=sky_vs"), "{line}");
/// # Ok::<(), recorder::Error>(())
/// ```
impl ObjectNamer for recorder::Device {
    fn write_object(
        &self,
        f: &mut fmt::Formatter<'_>,
        kind: ObjectKind,
        handle: RawHandle,
        instance: InstanceId,
    ) -> fmt::Result {
        match self.object_name(kind, handle).name {
            Some(name) if !name.is_empty() => {
                f.write_str(&name)?;
                write_instance(f, instance)
            }
            _ => RawNames.write_object(f, kind, handle, instance),
        }
    }
}

/// A value printed with a namer (see [`FieldValue::display_with`]).
pub struct Named<'a, N: ?Sized> {
    value: &'a FieldValue,
    namer: &'a N,
}

impl<N: ObjectNamer + ?Sized> fmt::Display for Named<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let namer = self.namer;
        match *self.value {
            FieldValue::Null => f.write_str("null"),
            FieldValue::Object {
                kind,
                handle,
                instance,
            } => namer.write_object(f, kind, handle, instance),
            FieldValue::Uint(n) => write!(f, "{n}"),
            FieldValue::Float(x) => write!(f, "{x}"),
            FieldValue::Bool(b) => f.write_str(if b { "yes" } else { "no" }),
            FieldValue::Format(format) => f.write_str(format.name()),
            FieldValue::Topology(topology) => f.write_str(topology.name()),
            FieldValue::Viewport(v) => write!(f, "{},{},{},{}", v.x, v.y, v.width, v.height),
            FieldValue::Scissor(r) => write!(f, "{},{},{},{}", r.left, r.top, r.right, r.bottom),
            FieldValue::Args(DrawArgs::Indirect(args)) => {
                namer.write_object(f, ObjectKind::Buffer, args.buffer, args.instance)?;
                write!(f, ",{}", args.offset)
            }
            FieldValue::Args(args) => {
                for (i, n) in args.values().enumerate() {
                    let separator = if i == 0 { "" } else { "," };
                    write!(f, "{separator}{n}")?;
                }
                Ok(())
            }
        }
    }
}

impl FieldValue {
    /// Prints the value (`null`, a name, a number, `yes`/`no`, a format, `x,y,w,h`), naming
    /// objects with `namer`.
    pub fn display_with<'a, N: ObjectNamer + ?Sized>(&'a self, namer: &'a N) -> Named<'a, N> {
        Named { value: self, namer }
    }

    fn object(kind: ObjectKind, handle: RawHandle) -> Self {
        Self::object_at(kind, handle, InstanceId::INITIAL)
    }

    fn object_at(kind: ObjectKind, handle: RawHandle, instance: InstanceId) -> Self {
        if handle.is_null() {
            Self::Null
        } else {
            Self::Object {
                kind,
                handle,
                instance,
            }
        }
    }

    fn buffer(bound: &BoundBuffer) -> Self {
        Self::object_at(ObjectKind::Buffer, bound.buffer, bound.instance)
    }

    fn view(kind: ObjectKind, view: &ViewRecord) -> Self {
        Self::object_at(kind, view.view, view.instance)
    }
}

/// Raw `KINDindex` forms ([`RawNames`]).
impl fmt::Display for FieldValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_with(&RawNames).fmt(f)
    }
}

/// A slot number: decimal digits only.
fn slot(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `Some(value)` for a bound view, `Some(Null)` for an empty slot.
fn view_property(
    view: &ViewRecord,
    property: impl FnOnce(&ViewRecord) -> FieldValue,
) -> FieldValue {
    if view.is_null() {
        FieldValue::Null
    } else {
        property(view)
    }
}

/// The resource a view record read (a swap-chain view's moves, R-EX-7).
fn view_resource(view: &ViewRecord) -> FieldValue {
    let kind = match view.flags.has(ViewFlags::BUFFER) {
        true => ObjectKind::Buffer,
        false => ObjectKind::Texture,
    };
    FieldValue::object_at(kind, view.resource, view.instance)
}

impl StageRecord {
    /// `cb.N`, `srv.N`, `srv.N.min_lod`, `srv.N.compressed`, `sampler.N`, `uav.N` of this stage.
    fn slot_field(&self, parts: &[&str]) -> Option<FieldValue> {
        let (kind, n, rest) = match parts {
            [kind, n, rest @ ..] => (*kind, slot(n)?, rest),
            _ => return None,
        };
        match (kind, rest) {
            ("cb", []) => self.constant_buffer(n).map(FieldValue::buffer),
            ("sampler", []) => self
                .sampler(n)
                .map(|s| FieldValue::object(ObjectKind::SamplerState, *s)),
            ("uav", []) => self
                .unordered_access_view(n)
                .map(|v| FieldValue::view(ObjectKind::UnorderedAccessView, v)),
            ("srv", []) => self
                .shader_resource(n)
                .map(|v| FieldValue::view(ObjectKind::ShaderResourceView, v)),
            ("srv", ["min_lod"]) => self
                .shader_resource(n)
                .map(|v| view_property(v, |v| FieldValue::Float(v.min_lod))),
            ("srv", ["compressed"]) => self
                .shader_resource(n)
                .map(|v| view_property(v, |v| FieldValue::Bool(v.compressed))),
            _ => None,
        }
    }

    /// Every slot field of this stage, in the order of `slot_field`'s kinds.
    fn push_fields(&self, out: &mut Vec<(String, FieldValue)>) {
        let stage = self.stage.name();
        for (n, b) in &self.constant_buffers {
            out.push((format!("{stage}.cb.{n}"), FieldValue::buffer(b)));
        }
        for (n, v) in &self.shader_resources {
            let view = FieldValue::view(ObjectKind::ShaderResourceView, v);
            out.push((format!("{stage}.srv.{n}"), view));
            let min_lod = view_property(v, |v| FieldValue::Float(v.min_lod));
            out.push((format!("{stage}.srv.{n}.min_lod"), min_lod));
            let compressed = view_property(v, |v| FieldValue::Bool(v.compressed));
            out.push((format!("{stage}.srv.{n}.compressed"), compressed));
        }
        for (n, s) in &self.samplers {
            let sampler = FieldValue::object(ObjectKind::SamplerState, *s);
            out.push((format!("{stage}.sampler.{n}"), sampler));
        }
        for (n, v) in &self.unordered_access_views {
            let view = FieldValue::view(ObjectKind::UnorderedAccessView, v);
            out.push((format!("{stage}.uav.{n}"), view));
        }
    }
}

impl GraphicsRecord {
    /// The input-assembler and output-merger fields.
    fn field(&self, parts: &[&str]) -> Option<FieldValue> {
        // A render-target slot past the bound count is empty, not missing.
        let rtv = |n: &str| {
            let n = slot(n).filter(|n| *n < RENDER_TARGET_SLOTS)?;
            Some(
                self.render_targets
                    .get(n as usize)
                    .copied()
                    .unwrap_or(ViewRecord::NULL),
            )
        };
        let viewport_slot = |n: &str| slot(n).filter(|n| *n < VIEWPORT_SLOTS);
        Some(match parts {
            ["input_layout"] => FieldValue::object(ObjectKind::InputLayout, self.input_layout),
            ["topology"] => FieldValue::Topology(self.topology),
            ["reset_index"] => FieldValue::Uint(self.reset_index as u64),
            ["ib"] => FieldValue::buffer(&self.index_buffer),
            ["ib", "format"] => self
                .index_format()
                .map_or(FieldValue::Null, FieldValue::Format),
            ["ib", "offset"] if self.index_buffer.buffer.is_null() => FieldValue::Null,
            ["ib", "offset"] => FieldValue::Uint(self.index_buffer.offset as u64),
            ["vb", n] => FieldValue::buffer(self.vertex_buffer(slot(n)?)?),
            ["vb", n, what @ ("stride" | "offset")] => {
                let bound = self.vertex_buffer(slot(n)?)?;
                match (bound.buffer.is_null(), *what) {
                    (true, _) => FieldValue::Null,
                    (false, "stride") => FieldValue::Uint(bound.stride_or_format as u64),
                    (false, _) => FieldValue::Uint(bound.offset as u64),
                }
            }
            ["rtv", n] => FieldValue::view(ObjectKind::RenderTargetView, &rtv(n)?),
            ["rtv", n, "format"] => view_property(&rtv(n)?, |v| FieldValue::Format(v.format)),
            ["rtv", n, "resource"] => view_property(&rtv(n)?, view_resource),
            ["dsv"] => FieldValue::view(ObjectKind::DepthStencilView, &self.depth_stencil),
            ["dsv", "format"] => {
                view_property(&self.depth_stencil, |v| FieldValue::Format(v.format))
            }
            ["blend"] => FieldValue::object(ObjectKind::BlendState, self.blend.state),
            ["depth_stencil"] => FieldValue::object(
                ObjectKind::DepthStencilState,
                self.depth_stencil_state.state,
            ),
            ["rasterizer"] => FieldValue::object(ObjectKind::RasterizerState, self.rasterizer),
            ["viewport", n] => self
                .viewports
                .get(viewport_slot(n)? as usize)
                .map_or(FieldValue::Null, |v| FieldValue::Viewport(*v)),
            ["scissor", n] => self
                .scissors
                .get(viewport_slot(n)? as usize)
                .map_or(FieldValue::Null, |r| FieldValue::Scissor(*r)),
            _ => return None,
        })
    }
}

impl DrawRecord {
    /// The field called `name` (`vs`, `ib.format`, `vb.3`, `ps.srv.2.min_lod`, ...);
    /// `None` where the record has no such field (see the module essay).
    ///
    /// ```
    /// # use executor::{DrawArgs, DrawKind, DrawRecord, FieldValue};
    /// let record = DrawRecord {
    ///     kind: DrawKind::Dispatch,
    ///     args: DrawArgs::direct(&[4, 2, 1]),
    ///     predicate: recorder::RawHandle::NULL,
    ///     predicate_value: false,
    ///     stages: Vec::new(),
    ///     graphics: None,
    /// };
    /// assert_eq!(record.field("predicated"), Some(FieldValue::Bool(false)));
    /// assert_eq!(record.field("args").map(|v| v.to_string()), Some("4,2,1".into()));
    /// assert_eq!(record.field("vs"), None); // a dispatch has no graphics stages
    /// ```
    pub fn field(&self, name: &str) -> Option<FieldValue> {
        let mut parts = [""; 4];
        let mut count = 0;
        for part in name.split('.') {
            *parts.get_mut(count)? = part;
            count += 1;
        }
        let parts = &parts[..count];
        match parts {
            ["predicated"] => Some(FieldValue::Bool(self.predicated())),
            ["args"] => Some(FieldValue::Args(self.args)),
            [stage, rest @ ..] if Stage::from_name(stage).is_some() => {
                let record = self.stage(Stage::from_name(stage)?)?;
                match rest {
                    [] => Some(FieldValue::object(ObjectKind::Shader, record.shader)),
                    _ => record.slot_field(rest),
                }
            }
            _ => self.graphics.as_ref()?.field(parts),
        }
    }

    /// Every field the record has, with its value, in a fixed order: shaders, input assembler,
    /// stage slots, output merger, rasterizer, predication, arguments. Render targets are listed
    /// up to the bound count, viewports and scissors up to the set count (`field` also answers
    /// the empty slots after them, with `Null`).
    pub fn fields(&self) -> Vec<(String, FieldValue)> {
        let mut out = Vec::new();
        for stage in &self.stages {
            let shader = FieldValue::object(ObjectKind::Shader, stage.shader);
            out.push((stage.stage.name().to_string(), shader));
        }
        if let Some(g) = &self.graphics {
            for name in ["input_layout", "topology", "reset_index", "ib"] {
                push_named(&mut out, g, name);
            }
            push_named(&mut out, g, "ib.format");
            push_named(&mut out, g, "ib.offset");
            for (n, b) in &g.vertex_buffers {
                out.push((format!("vb.{n}"), FieldValue::buffer(b)));
                push_named(&mut out, g, &format!("vb.{n}.stride"));
                push_named(&mut out, g, &format!("vb.{n}.offset"));
            }
        }
        for stage in &self.stages {
            stage.push_fields(&mut out);
        }
        if let Some(g) = &self.graphics {
            for (n, v) in g.render_targets.iter().enumerate() {
                let view = FieldValue::view(ObjectKind::RenderTargetView, v);
                out.push((format!("rtv.{n}"), view));
                let format = view_property(v, |v| FieldValue::Format(v.format));
                out.push((format!("rtv.{n}.format"), format));
                // The buffer a back buffer's view names moves (R-EX-7): printed for those only.
                if v.flags.has(ViewFlags::BACK_BUFFER) {
                    out.push((format!("rtv.{n}.resource"), view_resource(v)));
                }
            }
            for name in ["dsv", "dsv.format", "blend", "depth_stencil", "rasterizer"] {
                push_named(&mut out, g, name);
            }
            for (n, v) in g.viewports.iter().enumerate() {
                out.push((format!("viewport.{n}"), FieldValue::Viewport(*v)));
            }
            for (n, r) in g.scissors.iter().enumerate() {
                out.push((format!("scissor.{n}"), FieldValue::Scissor(*r)));
            }
        }
        out.push(("predicated".into(), FieldValue::Bool(self.predicated())));
        out.push(("args".into(), FieldValue::Args(self.args)));
        out
    }

    /// The record on one line, `KIND name=value ...`, naming objects with `namer`.
    pub fn display_with<'a, N: ObjectNamer + ?Sized>(&'a self, namer: &'a N) -> NamedRecord<'a, N> {
        NamedRecord {
            record: self,
            namer,
        }
    }
}

fn push_named(out: &mut Vec<(String, FieldValue)>, graphics: &GraphicsRecord, name: &str) {
    let parts: Vec<&str> = name.split('.').collect();
    if let Some(value) = graphics.field(&parts) {
        out.push((name.to_string(), value));
    }
}

/// A record printed with a namer (see [`DrawRecord::display_with`]).
pub struct NamedRecord<'a, N: ?Sized> {
    record: &'a DrawRecord,
    namer: &'a N,
}

impl<N: ObjectNamer + ?Sized> fmt::Display for NamedRecord<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.record.kind.name())?;
        for (name, value) in self.record.fields() {
            write!(f, " {name}={}", value.display_with(self.namer))?;
        }
        Ok(())
    }
}

/// Raw `KINDindex` forms ([`RawNames`]).
impl fmt::Display for DrawRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_with(&RawNames).fmt(f)
    }
}
