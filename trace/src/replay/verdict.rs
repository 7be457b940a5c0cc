//! Expectations checked against the real run: `expect ok`, `accepted`, `error`, `split_points`,
//! `counters`, `draw`, `bundle_footprint` (docs/TRACE.md "Expectations").
//!
//! **In:** an [`Expect`] and the [`LiveRun`] as the trace left it at that line. **Out:** nothing
//! when it holds, or what was found instead, for `trace:LINE: expected …, found …`.
//!
//! **Comparing draw-record values.** Objects compare by trace name; `NAME` without `#K` matches
//! any instance of a dynamic resource, `NAME#K` only the K-th. Numbers compare by value
//! (`0xffff` equals `65535`, `2.0` equals `2`); `viewport.N` and `scissor.N` are the four
//! numbers X,Y,W,H and L,T,R,B; `args` the call's numbers, or `BUF[#K],OFFSET` for an indirect
//! call. A field the record does not have (a slot the bound shader does not read, a graphics
//! field of a dispatch) fails, as docs/TRACE.md says.

use recorder::{BarrierLayout, Compression, Error, ObjectKind};

use executor::FieldValue;
use executor::{DrawArgs, DrawRecord};

use super::live::LiveRun;
use super::names::Namer;
use super::program::{Check, Expect, ObjId};
use crate::syntax::ast::{ExpectedLayout, ExpectedQuery};
use crate::syntax::value::{ExpectedValue, Number, ObjectRef};

/// `expected …` of a failure: the expectation as written, without the `expect`.
pub(crate) fn expected(expect: &Expect) -> String {
    let written = expect.written.to_string();
    written
        .strip_prefix("expect ")
        .map(str::to_owned)
        .unwrap_or(written)
}

/// Checks `expect`; `Err(found)` when it fails.
pub(crate) fn check(live: &mut LiveRun, expect: &Expect) -> Result<(), String> {
    match &expect.check {
        Check::Ok => {
            let refusals = live.refusals();
            match refusals.first() {
                None => Ok(()),
                Some(first) => {
                    let more = match refusals.len() {
                        1 => String::new(),
                        n => format!(" (and {} more)", n - 1),
                    };
                    Err(format!(
                        "{} on {} at line {}: {}{more}",
                        first.error.kind(),
                        first.on,
                        first.line,
                        first.error
                    ))
                }
            }
        }
        Check::Accepted { subject } => match live.last_outcome(*subject) {
            Ok(()) => Ok(()),
            Err(error) => Err(format!("error {} ({error})", error.kind())),
        },
        Check::Error { subject, kind } => match live.last_outcome(*subject) {
            Err(error) if error.kind() == *kind => Ok(()),
            Err(error) => Err(format!("{} ({error})", error.kind())),
            Ok(()) => Err("ok (the last call on it was accepted)".into()),
        },
        Check::SplitPoints {
            list,
            total,
            categories,
        } => {
            let Some(made) = live.list(*list) else {
                return Err(match live.list_outcome(*list) {
                    Some(Err(error)) => format!("no list: its finish was refused ({error})"),
                    _ => "no list".into(),
                });
            };
            let counts = made.stats().split_points;
            let mut found = Vec::new();
            let mut held = true;
            if let Some(total) = total {
                held &= counts.total() as u64 == *total;
                found.push(format!("total={}", counts.total()));
            }
            for (category, n) in categories {
                held &= counts[*category] as u64 == *n;
                found.push(format!("{category}={}", counts[*category]));
            }
            held.then_some(()).ok_or_else(|| found.join(" "))
        }
        Check::Counters(keys) => {
            let counters = live.counters();
            let found: Vec<(&str, u64)> = keys
                .iter()
                .map(|(key, _)| (*key, counters.get(key).unwrap_or(0)))
                .collect();
            let held = keys.iter().zip(&found).all(|((_, n), (_, f))| n == f);
            held.then_some(()).ok_or_else(|| {
                found
                    .iter()
                    .map(|(key, n)| format!("{key}={n}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        }
        Check::Draw {
            index,
            field,
            value,
        } => live.with_records(|records, namer| {
            let count = records.len();
            let record = usize::try_from(*index)
                .ok()
                .and_then(|i| records.get(i))
                .ok_or_else(|| format!("{count} draw records"))?;
            let name = field.to_string();
            let found = record
                .field(&name)
                .ok_or_else(|| format!("no field {name} in {}", what(record)))?;
            match same(&found, value, namer) {
                true => Ok(()),
                false => Err(found.display_with(namer).to_string()),
            }
        }),
        Check::Resource {
            resource,
            layout,
            compressed,
            depth,
            stencil,
        } => resource_state(live, *resource, layout, *compressed, *depth, *stencil),
        Check::Query { query, expected } => query_data(live, *query, expected),
        Check::Pending { resource, pending } => {
            let found = live.resource_pending(*resource)?;
            match found == *pending {
                true => Ok(()),
                false => Err(format!("pending {}", if found { "yes" } else { "no" })),
            }
        }
        Check::BundleFootprint { bundle, bytes } => live.bundle_footprint(*bundle, *bytes),
        Check::Gds { offset, values } => {
            let found = live.memory().gds(*offset, values.len() as u32);
            same_words(&found, values)
        }
        Check::ConstantRam { offset, values } => {
            let found = live.memory().constant_ram(*offset, values.len() as u32);
            same_words(&found, values)
        }
        Check::Memory {
            buffer,
            offset,
            values,
        } => {
            let found = live.buffer_words(*buffer, *offset as u64, values.len() as u32)?;
            same_words(&found, values)
        }
    }
}

/// `expect query`: what the immediate context's `get_data` returns at this line, its direct
/// calls not flushed (R-FX-3).
fn query_data(live: &mut LiveRun, query: ObjId, expected: &ExpectedQuery) -> Result<(), String> {
    let found = live.get_data(query)?;
    match (expected, found) {
        (ExpectedQuery::NotReady, Err(Error::QueryNotReady { .. })) => Ok(()),
        (_, Err(Error::QueryNotReady { .. })) => Err("not_ready".into()),
        (_, Err(error)) => Err(format!("error {} ({error})", error.kind())),
        (ExpectedQuery::NotReady, Ok(data)) => Err(format!("ready ({data:?})")),
        (ExpectedQuery::Data(keys), Ok(data)) => {
            let mut held = true;
            let mut found = Vec::new();
            for (key, n) in keys {
                match data.get(key.name()) {
                    Some(value) => {
                        held &= value == *n;
                        found.push(format!("{key}={value}"));
                    }
                    None => {
                        held = false;
                        found.push(format!("no {key} in {data:?}"));
                    }
                }
            }
            held.then_some(()).ok_or_else(|| found.join(" "))
        }
    }
}

/// A record in words, for "no field … in …".
fn what(record: &DrawRecord) -> String {
    let shaders: Vec<String> = record
        .stages
        .iter()
        .filter(|s| !s.shader.is_null())
        .map(|s| s.stage.name().to_string())
        .collect();
    match shaders.is_empty() {
        true => format!("the {} record (no shader bound)", record.kind),
        false => format!(
            "the {} record (shaders bound: {}; only the slots they read are recorded)",
            record.kind,
            shaders.join(" ")
        ),
    }
}

fn number_is(found: f64, expected: &Number) -> bool {
    found == expected.as_f64()
}

fn numbers_are(found: &[f64], expected: &[Number]) -> bool {
    found.len() == expected.len() && found.iter().zip(expected).all(|(f, e)| number_is(*f, e))
}

/// Whether an object printed by the namer is `expected`.
fn object_is(printed: &str, expected: &ObjectRef) -> bool {
    // `NAME@ADDRESS` (R-FX-2): the address compares by value; `NAME` matches any binding.
    let (printed, placement) = match printed.split_once('@') {
        Some((name, address)) => (name, Some(address)),
        None => (printed, None),
    };
    let placement = placement.map(|a| {
        a.strip_prefix("0x")
            .and_then(|hex| u64::from_str_radix(hex, 16).ok())
    });
    if let Some(address) = expected.placement {
        if placement != Some(Some(address)) {
            return false;
        }
    }
    let (name, instance) = match printed.split_once('#') {
        Some((name, k)) => (name, Some(k)),
        None => (printed, None),
    };
    name == expected.name.as_str()
        && match expected.instance {
            None => true,
            Some(k) => instance == Some(k.to_string().as_str()),
        }
}

fn same(found: &FieldValue, expected: &ExpectedValue, namer: &Namer<'_>) -> bool {
    match (found, expected) {
        (FieldValue::Null, ExpectedValue::Null) => true,
        (FieldValue::Object { .. }, ExpectedValue::Object(object)) => {
            object_is(&found.display_with(namer).to_string(), object)
        }
        (FieldValue::Topology(t), ExpectedValue::Topology(e)) => t.name() == e.name(),
        (FieldValue::Format(f), ExpectedValue::Format(e)) => f.name() == e.as_str(),
        (FieldValue::Uint(n), ExpectedValue::Number(e)) => number_is(*n as f64, e),
        (FieldValue::Float(x), ExpectedValue::Number(e)) => number_is(f64::from(*x), e),
        (FieldValue::Bool(b), ExpectedValue::Bool(e)) => b == e,
        (FieldValue::Viewport(v), ExpectedValue::Numbers(e)) => {
            let found = [v.x, v.y, v.width, v.height].map(f64::from);
            numbers_are(&found, e)
        }
        (FieldValue::Scissor(r), ExpectedValue::Numbers(e)) => {
            let found = [r.left, r.top, r.right, r.bottom].map(f64::from);
            numbers_are(&found, e)
        }
        (FieldValue::Args(args @ DrawArgs::Direct(_)), ExpectedValue::Numbers(e)) => {
            let found: Vec<f64> = args.values().map(|n| n as f64).collect();
            numbers_are(&found, e)
        }
        (
            FieldValue::Args(DrawArgs::Indirect(bound)),
            ExpectedValue::IndirectArgs { buffer, offset },
        ) => {
            let object = FieldValue::Object {
                kind: ObjectKind::Buffer,
                handle: bound.buffer,
                instance: bound.instance,
            };
            object_is(&object.display_with(namer).to_string(), buffer)
                && u64::from(bound.offset) == *offset
        }
        _ => false,
    }
}

/// `expect resource`: each key written against the GPU model's state of the resource. A buffer
/// has no layout and is never compressed: only `compressed=no` holds for it; `layout=`,
/// `depth=`, `stencil=` and `compressed=yes` fail, saying so. `depth=`/`stencil=` of a texture
/// whose format has no such plane fail alike.
fn resource_state(
    live: &mut LiveRun,
    resource: ObjId,
    layout: &Option<ExpectedLayout<BarrierLayout>>,
    compressed: Option<bool>,
    depth: Option<Compression>,
    stencil: Option<Compression>,
) -> Result<(), String> {
    let name = live.object_name(resource);
    let Some(state) = live.texture_state(resource)? else {
        if layout.is_some() || depth.is_some() || stencil.is_some() || compressed == Some(true) {
            return Err(format!(
                "buffer '{name}', which has no layout and is never compressed (for a buffer \
                 only compressed=no holds)"
            ));
        }
        return Ok(());
    };
    let plane = |word: &str, value: Option<bool>| match value {
        Some(true) => format!("{word}=compressed"),
        Some(false) => format!("{word}=decompressed"),
        None => format!("no {word} plane"),
    };
    let mut found = Vec::new();
    let mut held = true;
    if let Some(layout) = layout {
        let now = match state.layout {
            Some(now) => ExpectedLayout::Is(now),
            None => ExpectedLayout::Mixed,
        };
        held &= now == *layout;
        found.push(match state.layout {
            Some(now) => format!("layout={}", now.name()),
            None => "layout=mixed".into(),
        });
    }
    if let Some(compressed) = compressed {
        held &= state.compressed == compressed;
        found.push(format!(
            "compressed={}",
            if state.compressed { "yes" } else { "no" }
        ));
    }
    for (word, want, now) in [
        ("depth", depth, state.depth_compressed),
        ("stencil", stencil, state.stencil_compressed),
    ] {
        if let Some(want) = want {
            held &= now == Some(want == Compression::Compressed);
            found.push(plane(word, now));
        }
    }
    held.then_some(()).ok_or_else(|| found.join(" "))
}

/// `expect gds|constant_ram|memory`: the words found, as the trace writes them, when they
/// differ.
fn same_words(found: &[u32], expected: &[u32]) -> Result<(), String> {
    match found == expected {
        true => Ok(()),
        false => Err(found
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")),
    }
}
