//! The kinds of argument that are more than one token or one value: values to the end of the
//! line, viewports and rectangles, the fast-resource entries, the remaps, the barriers (the
//! lists of objects are `call_arg_objects.rs`'s). Each is read, printed and converted here,
//! once, as the kinds of `call_args.rs` are (its essay says how).
//!
//! **In:** a line's tokens, or a field's value. **Out:** the value, its text, or the value in
//! another form.
//!
//! **Invariant.** A list read to the end of the line holds at least one item; `-` is an empty
//! viewport or rectangle list.

use std::fmt::{self, Formatter};

use super::ast::{
    Barrier, FastEntry, FastKind, Form, LegacyBarrier, Rect, Remap, VertexBinding, Viewport,
    Written,
};
use super::call_args::{ArgKind, CallArg, CallParser, Convert};
use super::cursor::{Cursor, Result};
use super::lex::quote;
use super::symbols::{Symbols, Want};
use super::text_pieces::VertexBindingText;
use super::words::Stage;

/// Unsigned values to the end of the line, at least one: `Values("V")` of `write_gds`.
pub struct Values;

impl ArgKind for Values {
    type Of<F: Form> = F::List<F::Count>;
}

impl CallArg for Values {
    type Param = &'static str;
    fn parse(p: &mut CallParser<'_, '_>, label: &'static str) -> Result<Vec<u64>> {
        let mut values = vec![p.cursor.unsigned(label)?];
        while p.cursor.peek().is_some() {
            values.push(p.cursor.unsigned(label)?);
        }
        Ok(values)
    }
    fn print(f: &mut Formatter<'_>, value: &Vec<u64>, _: &'static str) -> fmt::Result {
        value.iter().try_for_each(|v| write!(f, " {v}"))
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<F::Count>,
        label: &'static str,
    ) -> std::result::Result<G::List<G::Count>, C::Error> {
        value.iter().map(|v| c.count(v, label)).collect()
    }
}

/// The viewports of `rs_set_viewports`: `X,Y,W,H ..` to the end of the line, or `-` for none.
pub struct Viewports;

impl ArgKind for Viewports {
    type Of<F: Form> = F::List<F::Viewport>;
}

impl CallArg for Viewports {
    type Param = &'static str;
    fn parse(p: &mut CallParser<'_, '_>, what: &'static str) -> Result<Vec<Viewport>> {
        let quads = quads(p.cursor, what, Cursor::float_token)?;
        Ok(quads
            .into_iter()
            .map(|[x, y, width, height]| Viewport {
                x,
                y,
                width,
                height,
            })
            .collect())
    }
    fn print(f: &mut Formatter<'_>, value: &Vec<Viewport>, _: &'static str) -> fmt::Result {
        if value.is_empty() {
            return f.write_str(" -");
        }
        value.iter().try_for_each(|v| write!(f, " {v}"))
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<F::Viewport>,
        _: &'static str,
    ) -> std::result::Result<G::List<G::Viewport>, C::Error> {
        value.iter().map(|v| c.viewport(v)).collect()
    }
}

/// The rectangles of `rs_set_scissor_rects`: `L,T,R,B ..` to the end of the line, or `-` for
/// none.
pub struct Rects;

impl ArgKind for Rects {
    type Of<F: Form> = F::List<F::Rect>;
}

impl CallArg for Rects {
    type Param = &'static str;
    fn parse(p: &mut CallParser<'_, '_>, what: &'static str) -> Result<Vec<Rect>> {
        let quads = quads(p.cursor, what, Cursor::signed_token)?;
        Ok(quads
            .into_iter()
            .map(|[left, top, right, bottom]| Rect {
                left,
                top,
                right,
                bottom,
            })
            .collect())
    }
    fn print(f: &mut Formatter<'_>, value: &Vec<Rect>, _: &'static str) -> fmt::Result {
        if value.is_empty() {
            return f.write_str(" -");
        }
        value.iter().try_for_each(|r| write!(f, " {r}"))
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<F::Rect>,
        _: &'static str,
    ) -> std::result::Result<G::List<G::Rect>, C::Error> {
        value.iter().map(|r| c.rect(r)).collect()
    }
}

/// The rest of the line as groups of four comma-separated numbers, at least one group; `-`
/// alone is none at all (zero viewports or rectangles bound).
fn quads<'a, T>(
    cursor: &mut Cursor<'a>,
    what: &str,
    number: fn(&Cursor<'a>, &str, &str) -> Result<T>,
) -> Result<Vec<[T; 4]>> {
    let mut quads = Vec::new();
    if cursor.peek() == Some("-") {
        let _ = cursor.next("-");
        return Ok(quads);
    }
    loop {
        let group = cursor.next(what)?;
        let items: Vec<&str> = cursor.list_items(group)?.collect();
        let [a, b, c, d] = items[..] else {
            return Err(cursor.error(format_args!(
                "expected {what} (four numbers), found {}",
                quote(group)
            )));
        };
        quads.push([
            number(cursor, a, what)?,
            number(cursor, b, what)?,
            number(cursor, c, what)?,
            number(cursor, d, what)?,
        ]);
        if cursor.peek().is_none() {
            return Ok(quads);
        }
    }
}

/// `ENTRY [ENTRY ..]` of `set_fast_resources` (R-FX-1), to the end of the line, at least one.
pub struct FastEntries;

impl ArgKind for FastEntries {
    type Of<F: Form> = F::List<FastEntry<F>>;
}

impl CallArg for FastEntries {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Vec<FastEntry>> {
        let mut entries = vec![fast_entry(p.cursor, p.symbols)?];
        while p.cursor.peek().is_some() {
            entries.push(fast_entry(p.cursor, p.symbols)?);
        }
        Ok(entries)
    }
    fn print(f: &mut Formatter<'_>, value: &Vec<FastEntry>, (): ()) -> fmt::Result {
        for entry in value {
            f.write_str(" ")?;
            if let Some(stage) = &entry.stage {
                write!(f, "{stage}.")?;
            }
            write!(f, "{}.{}=", entry.kind.word(), entry.slot)?;
            let [stride, offset] = entry.vertex;
            let binding = VertexBinding {
                buffer: entry.object.clone(),
                stride,
                offset,
            };
            write!(f, "{}", VertexBindingText(&binding))?;
        }
        Ok(())
    }
    fn objects<F: Form>(value: &F::List<FastEntry<F>>, (): (), visit: &mut dyn FnMut(&F::Object)) {
        value
            .iter()
            .filter_map(|e| e.object.as_ref())
            .for_each(visit)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<FastEntry<F>>,
        (): (),
    ) -> std::result::Result<G::List<FastEntry<G>>, C::Error> {
        fast_entries(c, value)
    }
}

fn fast_entries<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
    c: &mut C,
    entries: &[FastEntry<F>],
) -> std::result::Result<G::List<FastEntry<G>>, C::Error> {
    entries
        .iter()
        .map(|e| {
            Ok(FastEntry {
                kind: e.kind,
                stage: e.stage.as_ref().map(|s| c.stage(s)).transpose()?,
                slot: c.count(&e.slot, "SLOT")?,
                object: e.object.as_ref().map(|o| c.object(o)).transpose()?,
                vertex: e.vertex,
            })
        })
        .collect()
}

/// One ENTRY of `set_fast_resources` (R-FX-1): `STAGE.cb|srv|sampler.SLOT=OBJ|null` or
/// `vb.SLOT=BUF|null[:STRIDE[:OFFSET]]` (R-GPU-2, as `set_vertex_buffers`'s).
fn fast_entry(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<FastEntry> {
    const WHAT: &str = "an ENTRY (STAGE.cb.SLOT=BUF, STAGE.srv.SLOT=SRV, STAGE.sampler.SLOT=SAMPLER or vb.SLOT=BUF[:STRIDE[:OFFSET]], each =null to unbind)";
    let token = cursor.next(WHAT)?;
    let bad =
        |cursor: &Cursor<'_>| cursor.error(format!("expected {WHAT}, found {}", quote(token)));
    let Some((key, object)) = token.split_once('=') else {
        return Err(bad(cursor));
    };
    let parts: Vec<&str> = key.split('.').collect();
    let (kind, stage, slot) = match parts.as_slice() {
        ["vb", slot] => (FastKind::VertexBuffer, None, *slot),
        [stage, kind, slot] => {
            let stage = Stage::from_name(stage).ok_or_else(|| bad(cursor))?;
            let kind = match *kind {
                "cb" => FastKind::ConstantBuffer,
                "srv" => FastKind::ShaderResource,
                "sampler" => FastKind::Sampler,
                _ => return Err(bad(cursor)),
            };
            (kind, Some(stage), *slot)
        }
        _ => return Err(bad(cursor)),
    };
    let slot = cursor.unsigned_token(slot, "SLOT")?;
    let want = match kind {
        FastKind::ConstantBuffer | FastKind::VertexBuffer => Want::Buffer,
        FastKind::ShaderResource => Want::ShaderResourceView,
        FastKind::Sampler => Want::SamplerState,
    };
    let (object, vertex) = match kind {
        FastKind::VertexBuffer => {
            let binding = cursor.vertex_binding_token(symbols, object, true)?;
            (binding.buffer, [binding.stride, binding.offset])
        }
        _ => (cursor.object_token(symbols, object, want, true)?, [0, 0]),
    };
    Ok(FastEntry {
        kind,
        stage,
        slot,
        object,
        vertex,
    })
}

/// The entries a `set_fast_resources_from_batch` applies: none as written (the line names only
/// its batch), nothing read or printed; the lowering fills them from the batch's lines.
pub struct BatchEntries;

impl ArgKind for BatchEntries {
    type Of<F: Form> = F::List<FastEntry<F>>;
}

impl CallArg for BatchEntries {
    type Param = ();
    fn parse(_: &mut CallParser<'_, '_>, (): ()) -> Result<Vec<FastEntry>> {
        Ok(Vec::new())
    }
    fn print(_: &mut Formatter<'_>, _: &Vec<FastEntry>, (): ()) -> fmt::Result {
        Ok(())
    }
    fn objects<F: Form>(value: &F::List<FastEntry<F>>, (): (), visit: &mut dyn FnMut(&F::Object)) {
        value
            .iter()
            .filter_map(|e| e.object.as_ref())
            .for_each(visit)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<FastEntry<F>>,
        (): (),
    ) -> std::result::Result<G::List<FastEntry<G>>, C::Error> {
        fast_entries(c, value)
    }
}

/// `STAGE SLOT INHERIT_STAGE INHERIT_SLOT` of the staged remap calls (R-B-9).
pub struct RemapArgs;

impl ArgKind for RemapArgs {
    type Of<F: Form> = Remap<F>;
}

impl CallArg for RemapArgs {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Remap> {
        let cursor = &mut *p.cursor;
        Ok(Remap {
            stage: cursor.word("STAGE", Stage::from_name, Stage::choices())?,
            slot: cursor.unsigned("SLOT")?,
            inherit_stage: cursor.word("INHERIT_STAGE", Stage::from_name, Stage::choices())?,
            inherit_slot: cursor.unsigned("INHERIT_SLOT")?,
        })
    }
    fn print(f: &mut Formatter<'_>, r: &Remap, (): ()) -> fmt::Result {
        write!(f, " {r}")
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        r: &Remap<F>,
        (): (),
    ) -> std::result::Result<Remap<G>, C::Error> {
        Ok(Remap {
            stage: c.stage(&r.stage)?,
            slot: c.count(&r.slot, "SLOT")?,
            inherit_stage: c.stage(&r.inherit_stage)?,
            inherit_slot: c.count(&r.inherit_slot, "INHERIT_SLOT")?,
        })
    }
}

/// `BARRIER [| BARRIER ..]` of `barrier` (R-BAR-1; `barrier.rs` reads one, `barrier_text.rs`
/// prints one).
pub struct Barriers;

impl ArgKind for Barriers {
    type Of<F: Form> = F::List<Barrier<F>>;
}

impl CallArg for Barriers {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Vec<Barrier>> {
        super::barrier::barriers(p.cursor, p.symbols)
    }
    fn print(f: &mut Formatter<'_>, value: &Vec<Barrier<Written>>, (): ()) -> fmt::Result {
        for (i, barrier) in value.iter().enumerate() {
            if i > 0 {
                f.write_str(" |")?;
            }
            write!(f, " {barrier}")?;
        }
        Ok(())
    }
    fn objects<F: Form>(value: &F::List<Barrier<F>>, (): (), visit: &mut dyn FnMut(&F::Object)) {
        for barrier in value.iter() {
            match barrier {
                Barrier::Global { .. } => {}
                Barrier::Buffer { resource, .. } | Barrier::Texture { resource, .. } => {
                    visit(resource)
                }
            }
        }
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::List<Barrier<F>>,
        (): (),
    ) -> std::result::Result<G::List<Barrier<G>>, C::Error> {
        c.barriers(value)
    }
}

/// `transition|uav|aliasing ..` of `resource_barrier` (R-BAR-6).
pub struct LegacyBarrierArgs;

impl ArgKind for LegacyBarrierArgs {
    type Of<F: Form> = LegacyBarrier<F>;
}

impl CallArg for LegacyBarrierArgs {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<LegacyBarrier> {
        super::barrier::legacy(p.cursor, p.symbols)
    }
    fn print(f: &mut Formatter<'_>, value: &LegacyBarrier, (): ()) -> fmt::Result {
        write!(f, " {value}")
    }
    fn objects<F: Form>(value: &LegacyBarrier<F>, (): (), visit: &mut dyn FnMut(&F::Object)) {
        match value {
            LegacyBarrier::Transition { resource, .. } => visit(resource),
            LegacyBarrier::Uav { resource } => resource.iter().for_each(visit),
            LegacyBarrier::Aliasing { before, after } => before.iter().chain(after).for_each(visit),
        }
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &LegacyBarrier<F>,
        (): (),
    ) -> std::result::Result<LegacyBarrier<G>, C::Error> {
        c.legacy_barrier(value)
    }
}
