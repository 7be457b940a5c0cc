//! Expectations: `expect ok`, `expect accepted`, `expect error`, `expect split_points`, `expect
//! counters`, `expect draw`, `expect bundle_footprint`.
//!
//! **In:** a line that starts with `expect` (the caller has read it). **Out:** an
//! [`Expectation`], its objects checked against the symbol table: `expect error` and `expect
//! accepted` take `imm` or
//! any declared name (a rejected declaration is reported under its name), `split_points` a
//! command list, `bundle_footprint` a finished bundle, and an object in `expect draw`'s value
//! must be of the kind the field holds (`value.rs` says which values each field takes).
//! Keys of `split_points` and `counters` may come in any order, each at most once; `total=` is
//! printed first.

use super::ast::{Expectation, ExpectedLayout, ExpectedQuery, Subject};
use super::cursor::{Cursor, Result};
use super::lex::{self, quote};
use super::name::Name;
use super::parse::Parser;
use super::symbols::{Symbols, Want};
use super::value::{DrawField, ExpectedValue, FieldObject, Number, ObjectRef, ValueClass};
use super::words::PrimitiveTopology;
use super::words::{Compression, CounterKey, ErrorKind, LayoutWord, QueryKey, SplitCategory};

impl Parser {
    pub(crate) fn expectation(&mut self, mut cursor: Cursor<'_>) -> Result<Expectation> {
        let what = cursor.next(
            "what to expect (ok, accepted, error, resource, gds, constant_ram, memory, pending, \
             split_points, counters, draw, query, bundle_footprint)",
        )?;
        let symbols = &self.symbols;
        let expectation = match what {
            "ok" => {
                cursor.set_label("expect ok");
                Expectation::Ok
            }
            "accepted" => {
                cursor.set_label("expect accepted");
                Expectation::Accepted {
                    subject: subject(&mut cursor, symbols)?,
                }
            }
            "error" => {
                cursor.set_label("expect error");
                let subject = subject(&mut cursor, symbols)?;
                let kind =
                    cursor.word("an error kind", ErrorKind::from_name, ErrorKind::choices())?;
                Expectation::Error { subject, kind }
            }
            "resource" => expect_resource(&mut cursor, symbols)?,
            "gds" | "constant_ram" => {
                cursor.set_label(match what {
                    "gds" => "expect gds",
                    _ => "expect constant_ram",
                });
                let offset = cursor.unsigned("OFFSET")?;
                let values = words(&mut cursor)?;
                match what {
                    "gds" => Expectation::Gds { offset, values },
                    _ => Expectation::ConstantRam { offset, values },
                }
            }
            "memory" => {
                cursor.set_label("expect memory");
                let buffer = cursor.object(symbols, Want::Buffer)?;
                let offset = cursor.unsigned("OFFSET")?;
                let values = words(&mut cursor)?;
                Expectation::Memory {
                    buffer,
                    offset,
                    values,
                }
            }
            "split_points" => expect_split_points(&mut cursor, symbols)?,
            "counters" => expect_counters(&mut cursor)?,
            "draw" => {
                cursor.set_label("expect draw");
                let index = cursor.unsigned("INDEX")?;
                let token = cursor.next("a draw-record field")?;
                let field = DrawField::from_name(token).ok_or_else(|| {
                    cursor.error(format_args!(
                        "expected a draw-record field (vs, ps.cb.0, ps.srv.1.min_lod, vb.0, \
                         rtv.0, viewport.0, args, ...), found {}",
                        quote(token)
                    ))
                })?;
                let token = cursor.next("VALUE")?;
                let value = self.value(&cursor, field, token)?;
                Expectation::Draw {
                    index,
                    field,
                    value,
                }
            }
            "query" => expect_query(&mut cursor, symbols)?,
            "pending" => {
                cursor.set_label("expect pending");
                let resource = cursor.object(symbols, Want::Resource)?;
                let token = cursor.next("yes|no")?;
                Expectation::Pending {
                    resource,
                    pending: cursor.yes_no_token(token, "pending")?,
                }
            }
            "bundle_footprint" => {
                cursor.set_label("expect bundle_footprint");
                Expectation::BundleFootprint {
                    bundle: cursor.object(symbols, Want::Bundle)?,
                    bytes: cursor.unsigned("BYTES")?,
                }
            }
            other => {
                cursor.set_label("expect");
                return Err(cursor.error(format_args!(
                    "expected ok, accepted, error, resource, gds, constant_ram, memory, pending, \
                     split_points, counters, draw, query or bundle_footprint, found {}",
                    quote(other)
                )));
            }
        };
        cursor.end()?;
        Ok(expectation)
    }

    /// The VALUE of `expect draw` for `field`.
    fn value(&self, cursor: &Cursor<'_>, field: DrawField, token: &str) -> Result<ExpectedValue> {
        if token == "null" {
            return Ok(ExpectedValue::Null);
        }
        Ok(match field.value_class() {
            ValueClass::Object(object) => {
                ExpectedValue::Object(self.object_ref(cursor, token, object, field)?)
            }
            ValueClass::Topology => ExpectedValue::Topology(cursor.word_token(
                token,
                "a topology",
                PrimitiveTopology::from_name,
                PrimitiveTopology::choices(),
            )?),
            ValueClass::Format => ExpectedValue::Format(cursor.format_token(token, "VALUE")?),
            ValueClass::Number => ExpectedValue::Number(number(cursor, token)?),
            ValueClass::Bool => ExpectedValue::Bool(cursor.yes_no_token(token, "VALUE")?),
            ValueClass::Quad => {
                let numbers = numbers(cursor, token)?;
                if numbers.len() != 4 {
                    return Err(cursor.error(format_args!(
                        "expected four numbers for {}, found {}",
                        field,
                        quote(token)
                    )));
                }
                ExpectedValue::Numbers(numbers)
            }
            ValueClass::Args => {
                let indirect = token
                    .as_bytes()
                    .first()
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_');
                if indirect {
                    let items: Vec<&str> = cursor.list_items(token)?.collect();
                    let [buffer, offset] = items[..] else {
                        return Err(cursor.error(format_args!(
                            "expected the indirect arguments BUF,OFFSET, found {}",
                            quote(token)
                        )));
                    };
                    ExpectedValue::IndirectArgs {
                        buffer: self.object_ref(cursor, buffer, FieldObject::Buffer, field)?,
                        offset: cursor.unsigned_token(offset, "OFFSET")?,
                    }
                } else {
                    ExpectedValue::Numbers(numbers(cursor, token)?)
                }
            }
        })
    }

    /// `NAME` or `NAME#K`, NAME declared and of the kind `object`.
    fn object_ref(
        &self,
        cursor: &Cursor<'_>,
        token: &str,
        object: FieldObject,
        field: DrawField,
    ) -> Result<ObjectRef> {
        // `NAME@ADDRESS`: a placed binding (R-FX-2).
        let (token, placement) = match token.split_once('@') {
            Some((name, address)) => (
                name,
                Some(cursor.unsigned_token(address, "the ADDRESS of NAME@ADDRESS")?),
            ),
            None => (token, None),
        };
        let (name, instance) = match token.split_once('#') {
            Some((name, k)) => {
                if !object.has_instances() {
                    return Err(cursor.error(format_args!(
                        "{} names an instance, but {} holds no buffer or view",
                        quote(token),
                        field
                    )));
                }
                (
                    name,
                    Some(cursor.unsigned_token(k, "the instance K of NAME#K")?),
                )
            }
            None => (token, None),
        };
        let want = match object {
            FieldObject::Shader => Want::Shader,
            FieldObject::InputLayout => Want::InputLayout,
            FieldObject::Buffer => Want::Buffer,
            FieldObject::ShaderResourceView => Want::ShaderResourceView,
            FieldObject::UnorderedAccessView => Want::UnorderedAccessView,
            FieldObject::RenderTargetView => Want::RenderTargetView,
            FieldObject::DepthStencilView => Want::DepthStencilView,
            FieldObject::SamplerState => Want::SamplerState,
            FieldObject::BlendState => Want::BlendState,
            FieldObject::DepthStencilState => Want::DepthStencilState,
            FieldObject::RasterizerState => Want::RasterizerState,
            FieldObject::Resource => Want::Resource,
        };
        let name: Option<Name> = cursor.object_token(&self.symbols, name, want, false)?;
        match name {
            Some(name) => Ok(ObjectRef {
                name,
                instance,
                placement,
            }),
            None => Err(cursor.error(format_args!("expected a name, found {}", quote(token)))),
        }
    }
}

/// The CTX of `expect error` and `expect accepted`: `imm` or any declared name.
fn subject(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<Subject> {
    match cursor.peek() {
        Some("imm") => {
            cursor.next("CTX")?;
            Ok(Subject::Immediate)
        }
        _ => Ok(Subject::Named(cursor.object(symbols, Want::Any)?)),
    }
}

/// `key=value`; `expected` says what the token should have been.
fn key_value<'t>(
    cursor: &Cursor<'_>,
    token: &'t str,
    expected: impl FnOnce() -> String,
) -> Result<(&'t str, &'t str)> {
    token.split_once('=').ok_or_else(|| {
        cursor.error(format_args!(
            "expected {}, found {}",
            expected(),
            quote(token)
        ))
    })
}

/// A number of an expected value: an integer, or a float where written with `.` or exponent.
fn number(cursor: &Cursor<'_>, token: &str) -> Result<Number> {
    if lex::looks_like_float(token) {
        Ok(Number::Float(cursor.float_token(token, "a number")?))
    } else {
        Ok(Number::Integer(cursor.signed_token(token, "a number")?))
    }
}

/// Numbers joined by commas.
fn numbers(cursor: &Cursor<'_>, token: &str) -> Result<Vec<Number>> {
    cursor
        .list_items(token)?
        .map(|item| number(cursor, item))
        .collect()
}

/// `V [V ..]` of `expect gds`, `constant_ram` and `memory`: at least one word.
fn words(cursor: &mut Cursor<'_>) -> Result<Vec<u64>> {
    let mut values = vec![cursor.unsigned("V")?];
    while cursor.peek().is_some() {
        values.push(cursor.unsigned("V")?);
    }
    Ok(values)
}

/// `expect resource R [layout=..] [compressed=..] [depth=..] [stencil=..]`.
fn expect_resource(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<Expectation> {
    cursor.set_label("expect resource");
    let resource = cursor.object(symbols, Want::Resource)?;
    let options = cursor.options(&["layout", "compressed", "depth", "stencil"])?;
    let plane = |key: &'static str| {
        options
            .get(key)
            .map(|v| {
                cursor.word_token(
                    v,
                    &format!("{key}="),
                    Compression::from_name,
                    Compression::choices(),
                )
            })
            .transpose()
    };
    Ok(Expectation::Resource {
        resource,
        layout: options
            .get("layout")
            .map(|v| match v {
                "mixed" => Ok(ExpectedLayout::Mixed),
                _ => cursor
                    .word_token(
                        v,
                        "layout=",
                        LayoutWord::from_name,
                        format!("{}|mixed", LayoutWord::choices()),
                    )
                    .map(ExpectedLayout::Is),
            })
            .transpose()?,
        compressed: options
            .get("compressed")
            .map(|v| cursor.yes_no_token(v, "compressed="))
            .transpose()?,
        depth: plane("depth")?,
        stencil: plane("stencil")?,
    })
}

/// `expect split_points LIST [total=N] [CATEGORY=N]...`, each key at most once.
fn expect_split_points(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<Expectation> {
    cursor.set_label("expect split_points");
    let list = cursor.object(symbols, Want::CommandList)?;
    let mut total = None;
    let mut categories: Vec<(SplitCategory, u64)> = Vec::new();
    for token in cursor.rest() {
        let (key, value) = key_value(cursor, token, || {
            format!("total=N or CATEGORY=N ({})", SplitCategory::choices())
        })?;
        let count = cursor.unsigned_token(value, &format!("{key}="))?;
        if key == "total" {
            if total.replace(count).is_some() {
                return Err(cursor.error("total= given twice"));
            }
            continue;
        }
        let category = cursor.word_token(
            key,
            "a split-point category or total",
            SplitCategory::from_name,
            SplitCategory::choices(),
        )?;
        if categories.iter().any(|(c, _)| *c == category) {
            return Err(cursor.error(format_args!("{key}= given twice")));
        }
        categories.push((category, count));
    }
    Ok(Expectation::SplitPoints {
        list,
        total,
        categories,
    })
}

/// `expect counters KEY=N...`, each key at most once.
fn expect_counters(cursor: &mut Cursor<'_>) -> Result<Expectation> {
    cursor.set_label("expect counters");
    let mut counters: Vec<(CounterKey, u64)> = Vec::new();
    if cursor.peek().is_none() {
        return Err(cursor.error(format_args!(
            "expected KEY=N ({}), found end of line",
            CounterKey::choices()
        )));
    }
    for token in cursor.rest() {
        let (key, value) = key_value(cursor, token, || {
            format!("KEY=N ({})", CounterKey::choices())
        })?;
        let counter = cursor.word_token(
            key,
            "a counter key",
            CounterKey::from_name,
            CounterKey::choices(),
        )?;
        if counters.iter().any(|(c, _)| *c == counter) {
            return Err(cursor.error(format_args!("{key}= given twice")));
        }
        counters.push((counter, cursor.unsigned_token(value, &format!("{key}="))?));
    }
    Ok(Expectation::Counters(counters))
}

/// `expect query Q not_ready` or `expect query Q KEY=N...`.
fn expect_query(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<Expectation> {
    cursor.set_label("expect query");
    let query = cursor.object(symbols, Want::Predicate)?;
    let choices = || format!("not_ready or KEY=N ({})", QueryKey::choices());
    if cursor.peek().is_none() {
        return Err(cursor.error(format_args!("expected {}, found end of line", choices())));
    }
    if cursor.peek() == Some("not_ready") {
        cursor.next("not_ready")?;
        if let Some(extra) = cursor.peek() {
            return Err(cursor.error(format_args!(
                "not_ready stands alone, found {}",
                quote(extra)
            )));
        }
        return Ok(Expectation::Query {
            query,
            expected: ExpectedQuery::NotReady,
        });
    }
    let mut data: Vec<(QueryKey, u64)> = Vec::new();
    for token in cursor.rest() {
        let (key, value) = key_value(cursor, token, choices)?;
        let known =
            cursor.word_token(key, "a query key", QueryKey::from_name, QueryKey::choices())?;
        if data.iter().any(|(k, _)| *k == known) {
            return Err(cursor.error(format_args!("{key}= given twice")));
        }
        data.push((known, cursor.unsigned_token(value, &format!("{key}="))?));
    }
    Ok(Expectation::Query {
        query,
        expected: ExpectedQuery::Data(data),
    })
}
