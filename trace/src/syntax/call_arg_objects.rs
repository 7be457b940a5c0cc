//! The kinds of argument that name objects: one object, one or `null`, a list of them to the
//! end of the line, the vertex buffers with their strides and offsets, a render-target list, `decompress_resource`'s options (which name one
//! beside its kinds and region), a name the call itself makes, a fence's name. Each is read, printed, converted and listed here, once, as the kinds of
//! `call_args.rs` are (its essay says how).
//!
//! **In:** a line's tokens, or a field's value. **Out:** the value (each object declared before
//! the line, of the kind the grammar wants there), its text, the value in another form, or the
//! objects it names for the call to use ([`CallArg::objects`]: not a name the call makes, nor a
//! fence, which is a value).
//!
//! **Invariant.** A list read to the end of the line holds at least one item; `-` is an empty
//! render-target list, and `null` alone one null render target.

use std::fmt::{self, Formatter};

use super::words::DecompressKinds;

use super::ast::{Form, VertexBinding};
use super::call_args::{ArgKind, CallArg, CallParser, Convert};
use super::cursor::Result;
use super::name::Name;
use super::symbols::{ObjKind, Want};
use super::text_pieces::{joined, option, VertexBindingText};

/// An object of the kind the grammar wants: `Object(Buffer)`.
pub struct Object;

impl ArgKind for Object {
    type Of<F: Form> = F::Object;
}

impl CallArg for Object {
    type Param = Want;
    fn parse(p: &mut CallParser<'_, '_>, want: Want) -> Result<Name> {
        p.cursor.object(p.symbols, want)
    }
    fn print(f: &mut Formatter<'_>, value: &Name, _: Want) -> fmt::Result {
        write!(f, " {value}")
    }
    fn objects<F: Form>(value: &F::Object, _: Want, visit: &mut dyn FnMut(&F::Object)) {
        visit(value)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::Object,
        _: Want,
    ) -> std::result::Result<G::Object, C::Error> {
        c.object(value)
    }
}

/// An object of the kind the grammar wants, or `null`: `Nullable(Shader)`.
pub struct Nullable;

impl ArgKind for Nullable {
    type Of<F: Form> = Option<F::Object>;
}

impl CallArg for Nullable {
    type Param = Want;
    fn parse(p: &mut CallParser<'_, '_>, want: Want) -> Result<Option<Name>> {
        p.cursor.object_or_null(p.symbols, want)
    }
    fn print(f: &mut Formatter<'_>, value: &Option<Name>, _: Want) -> fmt::Result {
        write!(f, " {}", super::text_pieces::Nullable(value))
    }
    fn objects<F: Form>(value: &Option<F::Object>, _: Want, visit: &mut dyn FnMut(&F::Object)) {
        value.iter().for_each(visit)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &Option<F::Object>,
        _: Want,
    ) -> std::result::Result<Option<G::Object>, C::Error> {
        value.as_ref().map(|o| c.object(o)).transpose()
    }
}

/// A name for an object the call makes: `Declared("a name for the command list",
/// CommandList)`. The parser declares it once the line has parsed (`call.rs`).
pub struct Declared;

impl ArgKind for Declared {
    type Of<F: Form> = F::Object;
}

impl CallArg for Declared {
    type Param = (&'static str, ObjKind);
    fn parse(p: &mut CallParser<'_, '_>, (what, _): Self::Param) -> Result<Name> {
        p.cursor.new_name(what)
    }
    fn print(f: &mut Formatter<'_>, value: &Name, _: Self::Param) -> fmt::Result {
        write!(f, " {value}")
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::Object,
        (_, kind): Self::Param,
    ) -> std::result::Result<G::Object, C::Error> {
        c.declared(value, kind)
    }
}

/// FENCE_NAME: the name the trace gives a fence value; the first use declares it (`call.rs`).
pub struct FenceName;

impl ArgKind for FenceName {
    type Of<F: Form> = F::Object;
}

impl CallArg for FenceName {
    type Param = &'static str;
    fn parse(p: &mut CallParser<'_, '_>, label: &'static str) -> Result<Name> {
        p.cursor.new_name(label)
    }
    fn print(f: &mut Formatter<'_>, value: &Name, _: &'static str) -> fmt::Result {
        write!(f, " {value}")
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::Object,
        _: &'static str,
    ) -> std::result::Result<G::Object, C::Error> {
        c.fence(value)
    }
}

/// `OBJ|null [OBJ|null ..]` to the end of the line, at least one: `Objects(Buffer)`.
pub struct Objects;

impl ArgKind for Objects {
    type Of<F: Form> = F::List<Option<F::Object>>;
}

impl CallArg for Objects {
    type Param = Want;
    fn parse(p: &mut CallParser<'_, '_>, want: Want) -> Result<Vec<Option<Name>>> {
        p.cursor.objects_to_end(p.symbols, want)
    }
    fn print(f: &mut Formatter<'_>, value: &Vec<Option<Name>>, _: Want) -> fmt::Result {
        f.write_str(" ")?;
        joined(f, value, ' ')
    }
    fn objects<F: Form>(
        value: &F::List<Option<F::Object>>,
        _: Want,
        visit: &mut dyn FnMut(&F::Object),
    ) {
        value.iter().flatten().for_each(visit)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<Option<F::Object>>,
        _: Want,
    ) -> std::result::Result<G::List<Option<G::Object>>, C::Error> {
        objects(c, value)
    }
}

/// `BUF|null[:STRIDE[:OFFSET]] ..` to the end of the line, at least one: the vertex buffers of
/// `set_vertex_buffers` (R-GPU-2), each with its stride and byte offset (0 when left out; the
/// printer writes them only where not 0, so `BUF` alone prints as it was written).
pub struct VertexBuffers;

impl ArgKind for VertexBuffers {
    type Of<F: Form> = F::List<VertexBinding<Option<F::Object>>>;
}

impl CallArg for VertexBuffers {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Vec<VertexBinding>> {
        p.cursor.vertex_bindings_to_end(p.symbols)
    }
    fn print(f: &mut Formatter<'_>, value: &Vec<VertexBinding>, (): ()) -> fmt::Result {
        value
            .iter()
            .try_for_each(|binding| write!(f, " {}", VertexBindingText(binding)))
    }
    fn objects<F: Form>(
        value: &F::List<VertexBinding<Option<F::Object>>>,
        (): (),
        visit: &mut dyn FnMut(&F::Object),
    ) {
        value
            .iter()
            .filter_map(|b| b.buffer.as_ref())
            .for_each(visit)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<VertexBinding<Option<F::Object>>>,
        (): (),
    ) -> std::result::Result<G::List<VertexBinding<Option<G::Object>>>, C::Error> {
        value
            .iter()
            .map(|b| {
                Ok(VertexBinding {
                    buffer: b.buffer.as_ref().map(|o| c.object(o)).transpose()?,
                    stride: b.stride,
                    offset: b.offset,
                })
            })
            .collect()
    }
}

/// `BUF[:STRIDE[:OFFSET]]` in one token, a buffer (not `null`): the vertex buffer of
/// `set_placement_vertex_buffer` (R-FX-2, R-GPU-2), printed as [`VertexBuffers`] prints one.
pub struct PlacedVertexBuffer;

impl ArgKind for PlacedVertexBuffer {
    type Of<F: Form> = VertexBinding<F::Object>;
}

impl CallArg for PlacedVertexBuffer {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<VertexBinding<Name>> {
        let token = p.cursor.next("a buffer")?;
        let binding = p.cursor.vertex_binding_token(p.symbols, token, false)?;
        let buffer = binding
            .buffer
            .ok_or_else(|| p.cursor.error("expected a buffer, found null"))?;
        Ok(VertexBinding {
            buffer,
            stride: binding.stride,
            offset: binding.offset,
        })
    }
    fn print(f: &mut Formatter<'_>, value: &VertexBinding<Name>, (): ()) -> fmt::Result {
        let binding = VertexBinding {
            buffer: Some(value.buffer.clone()),
            stride: value.stride,
            offset: value.offset,
        };
        write!(f, " {}", VertexBindingText(&binding))
    }
    fn objects<F: Form>(
        value: &VertexBinding<F::Object>,
        (): (),
        visit: &mut dyn FnMut(&F::Object),
    ) {
        visit(&value.buffer)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &VertexBinding<F::Object>,
        (): (),
    ) -> std::result::Result<VertexBinding<G::Object>, C::Error> {
        Ok(VertexBinding {
            buffer: c.object(&value.buffer)?,
            stride: value.stride,
            offset: value.offset,
        })
    }
}

fn objects<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
    c: &mut C,
    value: &[Option<F::Object>],
) -> std::result::Result<G::List<Option<G::Object>>, C::Error> {
    value
        .iter()
        .map(|o| o.as_ref().map(|o| c.object(o)).transpose())
        .collect()
}

/// The render targets of `om_set_render_targets*`: `RTV|null[,RTV|null..]` in one token, or `-`
/// for none (`null` alone is one null target).
pub struct Targets;

impl ArgKind for Targets {
    type Of<F: Form> = F::List<Option<F::Object>>;
}

impl CallArg for Targets {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Vec<Option<Name>>> {
        p.cursor.render_targets(p.symbols)
    }
    fn print(f: &mut Formatter<'_>, value: &Vec<Option<Name>>, (): ()) -> fmt::Result {
        match value.is_empty() {
            true => f.write_str(" -"),
            false => {
                f.write_str(" ")?;
                joined(f, value, ',')
            }
        }
    }
    fn objects<F: Form>(
        value: &F::List<Option<F::Object>>,
        (): (),
        visit: &mut dyn FnMut(&F::Object),
    ) {
        value.iter().flatten().for_each(visit)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<Option<F::Object>>,
        (): (),
    ) -> std::result::Result<G::List<Option<G::Object>>, C::Error> {
        objects(c, value)
    }
}

/// The options of `decompress_resource` (R-ST-9): `[into=RESOURCE] [kinds=KIND,..|all]
/// [region=SUB:L,T,R,B]`, the rest of the line. `kinds` left out (or `all`) is every kind the
/// texture has, and prints nothing; a region is one subresource and its texels `L..R` by
/// `T..B`.
pub struct DecompressOptions;

/// A `decompress_resource`'s options in a form: the second texture, the kinds, the region.
#[derive(Clone, Debug, PartialEq)]
pub struct Decompression<O> {
    /// `into=`: the texture the decompressed contents go to; `None`: in place.
    pub into: Option<O>,
    /// `kinds=`: the kinds decompressed ([`DecompressKinds::ALL`] when left out).
    pub kinds: DecompressKinds,
    /// `region=SUB:L,T,R,B`: the subresource and its texels `[L, T, R, B]` decompressed
    /// (right and bottom excluded); `None`: the whole resource.
    pub region: Option<(u32, [u32; 4])>,
}

impl<O> Decompression<O> {
    /// In place or into `into`, every kind, the whole resource: what `decompress_resource RESOURCE
    /// [into=RESOURCE]` says.
    pub fn whole(into: Option<O>) -> Self {
        Self {
            into,
            kinds: DecompressKinds::ALL,
            region: None,
        }
    }
}

impl ArgKind for DecompressOptions {
    type Of<F: Form> = Decompression<F::Object>;
}

impl CallArg for DecompressOptions {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Decompression<Name>> {
        let options = p.cursor.options(&["into", "kinds", "region"])?;
        let into = match options.get("into") {
            Some(value) => p
                .cursor
                .object_token(p.symbols, value, Want::Resource, false)?,
            None => None,
        };
        let cursor = &*p.cursor;
        let kinds = match options.get("kinds") {
            None => DecompressKinds::ALL,
            Some(list) => {
                let mut kinds = DecompressKinds::NONE;
                for item in cursor.list_items(list)? {
                    let kind = DecompressKinds::from_name(item).ok_or_else(|| {
                        cursor.error(format_args!(
                            "unknown kind of decompression '{item}' in kinds= (expected clear, fmask, dcc, depth, stencil, or all)"
                        ))
                    })?;
                    kinds = kinds.union(kind);
                }
                kinds
            }
        };
        let region = match options.get("region") {
            None => None,
            Some(value) => {
                let expected = || {
                    cursor.error(format_args!(
                        "region={value}: expected region=SUB:L,T,R,B (a subresource, then its texels L..R by T..B)"
                    ))
                };
                let (sub, rect) = value.split_once(':').ok_or_else(expected)?;
                let number = |token: &str| -> Result<u32> {
                    let n = cursor.unsigned_token(token, "region=")?;
                    u32::try_from(n).map_err(|_| {
                        cursor.error(format_args!(
                            "region=: {n} does not fit in 32 bits (a subresource or a texel coordinate)"
                        ))
                    })
                };
                let items: Vec<&str> = cursor.list_items(rect)?.collect();
                let [l, t, r, b] = items[..] else {
                    return Err(expected());
                };
                Some((
                    number(sub)?,
                    [number(l)?, number(t)?, number(r)?, number(b)?],
                ))
            }
        };
        Ok(Decompression {
            into,
            kinds,
            region,
        })
    }
    fn print(f: &mut Formatter<'_>, value: &Decompression<Name>, (): ()) -> fmt::Result {
        option(f, "into", &value.into)?;
        if value.kinds != DecompressKinds::ALL {
            write!(f, " kinds={}", value.kinds)?;
        }
        if let Some((sub, [l, t, r, b])) = value.region {
            write!(f, " region={sub}:{l},{t},{r},{b}")?;
        }
        Ok(())
    }
    fn objects<F: Form>(
        value: &Decompression<F::Object>,
        (): (),
        visit: &mut dyn FnMut(&F::Object),
    ) {
        value.into.iter().for_each(visit)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &Decompression<F::Object>,
        (): (),
    ) -> std::result::Result<Decompression<G::Object>, C::Error> {
        Ok(Decompression {
            into: value.into.as_ref().map(|o| c.object(o)).transpose()?,
            kinds: value.kinds,
            region: value.region,
        })
    }
}
