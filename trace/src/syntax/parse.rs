//! The statement parser: lines in, [`Statement`]s out, declarations here, calls in `call.rs`,
//! expectations in `expect.rs`.
//!
//! **In:** the lexed lines of a trace (`lex.rs`). **Out:** a [`Trace`], or the first
//! [`ParseError`]. The first token of a line says what it is: a declaration keyword, `expect`,
//! or a context (`imm`, a deferred context, a bundle recorder) followed by a method. The parser
//! keeps the symbol table (`symbols.rs`) as it goes: a declaration is entered once its whole
//! line has parsed.
//!
//! **Invariants.** `device` is the first statement and comes once; everything else needs it
//! before. One pass, no backtracking: the cost is linear in the length of the trace.

use super::ast::{CallContext, Declaration, Placement, Statement, Trace};
use super::cursor::{Cursor, Options, Result};
use super::error::ParseError;
use super::lex::{self, quote};
use super::name::{Format, Name};
use super::parse_contents as contents;
use super::symbols::{ObjKind, Symbols, Want};
use super::words::{
    parse_on_off, uav_flag, QueryKind, Semantics, Stage, UavFlag, Usage, Validation,
};

/// The parser's state between lines.
#[derive(Default)]
pub(crate) struct Parser {
    pub(crate) symbols: Symbols,
    device_line: Option<usize>,
    /// The batches `set_fast_resources_into_batch` has made (R-FX-1).
    pub(crate) batches: std::collections::HashSet<String>,
}

/// Parses a whole trace (see the module essay of `trace`).
pub(crate) fn parse(text: &[u8]) -> std::result::Result<Trace, ParseError> {
    let mut parser = Parser::default();
    let mut statements = Vec::new();
    let mut last_line = 1;
    for (line, bytes) in lex::lines(text) {
        last_line = line;
        let tokens = lex::tokens(line, bytes)?;
        if tokens.is_empty() {
            continue;
        }
        statements.push((line, parser.statement(Cursor::new(line, tokens, ""))?));
    }
    if parser.device_line.is_none() {
        return Err(ParseError::new(
            last_line,
            "the trace has no 'device' statement (it must come first)",
        ));
    }
    Ok(Trace { statements })
}

impl Parser {
    fn statement(&mut self, mut cursor: Cursor<'_>) -> Result<Statement> {
        let first = cursor.next("a statement")?;
        cursor.set_label(first);
        if first == "device" {
            return self.device(cursor).map(Statement::Declaration);
        }
        if self.device_line.is_none() {
            return Err(ParseError::new(
                cursor.line(),
                format!(
                    "expected 'device' as the first statement, found {}",
                    quote(first)
                ),
            ));
        }
        if let Some(declaration) = self.declaration(first, &mut cursor)? {
            cursor.end()?;
            self.enter(&cursor, &declaration)?;
            return Ok(Statement::Declaration(declaration));
        }
        if first == "expect" {
            return self.expectation(cursor).map(Statement::Expectation);
        }
        let context = if first == "imm" {
            CallContext::Immediate
        } else {
            let name = Name::new(first);
            let kind = name
                .as_ref()
                .and_then(|name| self.symbols.lookup(name.as_str()))
                .map(|entry| entry.kind);
            let message = match (name, kind) {
                (Some(name), Some(ObjKind::Context)) => {
                    return self
                        .call(cursor, CallContext::Deferred(name))
                        .map(Statement::Call)
                }
                (Some(name), Some(ObjKind::BundleRecorder)) => {
                    return self
                        .call(cursor, CallContext::BundleRecorder(name))
                        .map(Statement::Call)
                }
                (_, Some(kind)) => format!(
                    "expected a declaration, 'expect' or a context, found {} {}",
                    kind.describe(),
                    quote(first)
                ),
                (Some(_), None) => format!("unknown statement or context {}", quote(first)),
                (None, None) => format!(
                    "expected a declaration, 'expect' or a context, found {}",
                    quote(first)
                ),
            };
            return Err(ParseError::new(cursor.line(), message));
        };
        self.call(cursor, context).map(Statement::Call)
    }

    /// `device semantics=.. [validation=..] [legacy_barriers=on|off]`.
    fn device(&mut self, mut cursor: Cursor<'_>) -> Result<Declaration> {
        if let Some(line) = self.device_line {
            return Err(cursor.error(format_args!(
                "the device is already declared on line {line}"
            )));
        }
        let options = cursor.options(&["semantics", "validation", "legacy_barriers"])?;
        let semantics = semantics(&cursor, &options)?;
        let validation = options
            .get("validation")
            .map(|v| {
                cursor.word_token(
                    v,
                    "validation=",
                    Validation::from_name,
                    Validation::choices(),
                )
            })
            .transpose()?;
        let legacy_barriers = options
            .get("legacy_barriers")
            .map(|v| cursor.word_token(v, "legacy_barriers=", parse_on_off, "on|off".into()))
            .transpose()?;
        self.device_line = Some(cursor.line());
        Ok(Declaration::Device {
            semantics,
            validation,
            legacy_barriers,
        })
    }

    /// The declaration a line starts with, or `None` when `keyword` is not a declaration.
    fn declaration(
        &mut self,
        keyword: &str,
        cursor: &mut Cursor<'_>,
    ) -> Result<Option<Declaration>> {
        // A table, one arm per declaration keyword (`ast/declaration.rs`), kept whole; the arms
        // with many options (`buffer`, `texture`, `bundle`) are functions of their own, below,
        // which keeps it under 150 lines. The next step generates these arms, with the
        // printer's, from one table.
        let symbols = &self.symbols;
        let declaration = match keyword {
            "buffer" => buffer(cursor, symbols)?,
            "texture" => texture(cursor, symbols)?,
            "srv" => {
                let name = cursor.new_name("a name for the view")?;
                let resource = cursor.object(symbols, Want::Resource)?;
                let options = cursor.options(&["min_lod", "composed"])?;
                let min_lod = options
                    .get("min_lod")
                    .map(|v| cursor.float_token(v, "min_lod="))
                    .transpose()?;
                let composed = options
                    .get("composed")
                    .map(|v| cursor.yes_no_token(v, "composed="))
                    .transpose()?;
                Declaration::ShaderResourceView {
                    name,
                    resource,
                    min_lod,
                    composed,
                }
            }
            "uav" | "rtv" | "dsv" => {
                let name = cursor.new_name("a name for the view")?;
                let resource = cursor.object(symbols, Want::Resource)?;
                match keyword {
                    "uav" => Declaration::UnorderedAccessView { name, resource },
                    "rtv" => Declaration::RenderTargetView { name, resource },
                    _ => Declaration::DepthStencilView { name, resource },
                }
            }
            "shader" => {
                let name = cursor.new_name("a name for the shader")?;
                let options = cursor.options(contents::SHADER_KEYS)?;
                let code =
                    contents::shader_code(cursor, &options).map_err(named("shader", &name))?;
                let slots = |key: &'static str| {
                    options
                        .get(key)
                        .map(|v| cursor.slot_set_token(v, &format!("{key}=")))
                        .transpose()
                };
                Declaration::Shader {
                    name,
                    stage: cursor.word_token(
                        options.require(cursor, "stage")?,
                        "stage=",
                        Stage::from_name,
                        Stage::choices(),
                    )?,
                    constant_buffers: slots("cb")?,
                    shader_resources: slots("srv")?,
                    samplers: slots("sampler")?,
                    unordered_access_views: slots("uav")?,
                    stream_output: options
                        .get("stream_output")
                        .map(|v| cursor.yes_no_token(v, "stream_output="))
                        .transpose()?,
                    code,
                }
            }
            "input_layout" => {
                let name = cursor.new_name("a name for the input layout")?;
                let options = cursor.options(&["vb", "elements"])?;
                let elements = options
                    .get("elements")
                    .map(|v| contents::elements(cursor, v))
                    .transpose()
                    .map_err(named("input_layout", &name))?;
                Declaration::InputLayout {
                    name,
                    vertex_buffers: options
                        .get("vb")
                        .map(|v| cursor.slot_set_token(v, "vb="))
                        .transpose()?,
                    elements,
                }
            }
            "blend_state" | "rasterizer_state" | "depth_stencil_state" | "sampler_state" => {
                state(keyword, cursor)?
            }
            "predicate" => Declaration::Predicate {
                name: cursor.new_name("a name for the object")?,
            },
            "query" => {
                let name = cursor.new_name("a name for the query")?;
                let kind =
                    cursor.word("the query kind", QueryKind::from_name, QueryKind::choices())?;
                Declaration::Query { name, kind }
            }
            "swapchain" => {
                let name = cursor.new_name("a name for the swap chain")?;
                let options = cursor.options(&["buffers", "format", "width", "height"])?;
                Declaration::Swapchain {
                    name,
                    buffers: cursor
                        .unsigned_token(options.require(cursor, "buffers")?, "buffers=")?,
                    format: cursor.format_token(options.require(cursor, "format")?, "format=")?,
                    width: cursor.unsigned_token(options.require(cursor, "width")?, "width=")?,
                    height: cursor.unsigned_token(options.require(cursor, "height")?, "height=")?,
                }
            }
            "context" => {
                let name = cursor.new_name("a name for the deferred context")?;
                let options = cursor.options(&["semantics", "title_managed_lifetimes"])?;
                let title_managed_lifetimes = options
                    .get("title_managed_lifetimes")
                    .map(|v| cursor.yes_no_token(v, "title_managed_lifetimes="))
                    .transpose()?
                    .unwrap_or(false);
                Declaration::Context {
                    name,
                    semantics: semantics(cursor, &options)?,
                    title_managed_lifetimes,
                }
            }
            "bundle" => bundle(cursor)?,
            "heap" => {
                let name = cursor.new_name("a name for the heap")?;
                let options = cursor.options(&["size"])?;
                Declaration::Heap {
                    name,
                    size: cursor.unsigned_token(options.require(cursor, "size")?, "size=")?,
                }
            }
            "release" => Declaration::Release {
                name: cursor.object(symbols, Want::Any)?,
            },
            _ => return Ok(None),
        };
        Ok(Some(declaration))
    }

    /// Enters a parsed declaration into the symbol table.
    fn enter(&mut self, cursor: &Cursor<'_>, declaration: &Declaration) -> Result<()> {
        let declared = match declaration {
            Declaration::Swapchain { name, buffers, .. } => {
                self.symbols
                    .declare_swap_chain(name.as_str(), *buffers, cursor.line())
            }
            _ => match declaration.declares() {
                Some((name, kind)) => self.symbols.declare(name.as_str(), kind, cursor.line()),
                None => Ok(()),
            },
        };
        declared.map_err(|message| cursor.error(message))
    }
}

/// `buffer NAME usage=.. bind=.. size=.. [uav_flag=..] [heap=HEAP offset=BYTES]
/// [data=HEX|none|@FILE]`.
fn buffer(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<Declaration> {
    let name = cursor.new_name("a name for the buffer")?;
    let options = cursor.options(&[
        "usage", "bind", "size", "uav_flag", "heap", "offset", "data",
    ])?;
    let data = contents::initial_data(cursor, &options).map_err(named("buffer", &name))?;
    Ok(Declaration::Buffer {
        name,
        usage: cursor.word_token(
            options.require(cursor, "usage")?,
            "usage=",
            Usage::from_name,
            Usage::choices(),
        )?,
        bind: cursor.bind_flags_token(options.require(cursor, "bind")?)?,
        size: cursor.unsigned_token(options.require(cursor, "size")?, "size=")?,
        uav_flag: options
            .get("uav_flag")
            .map(|v| {
                cursor.word_token(
                    v,
                    "uav_flag=",
                    uav_flag,
                    super::words::choices_but(UavFlag::None),
                )
            })
            .transpose()?,
        placement: placement(cursor, symbols, &options)?,
        data,
    })
}

/// `texture NAME format=.. width=.. height=.. [mips=..] [array=..] [samples=..] bind=..
/// [compressible=..] [tc=..] [dcc=..] [heap=HEAP offset=BYTES] [data=HEX|none|@FILE]`.
fn texture(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<Declaration> {
    let name = cursor.new_name("a name for the texture")?;
    let options = cursor.options(&[
        "format",
        "width",
        "height",
        "mips",
        "array",
        "samples",
        "bind",
        "compressible",
        "tc",
        "dcc",
        "heap",
        "offset",
        "data",
    ])?;
    let cursor = &*cursor;
    let data = contents::initial_data(cursor, &options).map_err(named("texture", &name))?;
    let number = |key: &'static str| {
        options
            .get(key)
            .map(|v| cursor.unsigned_token(v, &format!("{key}=")))
            .transpose()
    };
    let yes_no = |key: &'static str| {
        options
            .get(key)
            .map(|v| cursor.yes_no_token(v, &format!("{key}=")))
            .transpose()
    };
    Ok(Declaration::Texture {
        name,
        format: cursor.format_token(options.require(cursor, "format")?, "format=")?,
        width: cursor.unsigned_token(options.require(cursor, "width")?, "width=")?,
        height: cursor.unsigned_token(options.require(cursor, "height")?, "height=")?,
        mips: number("mips")?,
        array: number("array")?,
        samples: number("samples")?,
        bind: cursor.bind_flags_token(options.require(cursor, "bind")?)?,
        compressible: yes_no("compressible")?,
        tc: yes_no("tc")?,
        dcc: yes_no("dcc")?,
        placement: placement(cursor, symbols, &options)?,
        data,
    })
}

/// `blend_state`, `rasterizer_state`, `depth_stencil_state` or `sampler_state` `NAME
/// [FIELD=..]..`: the D3D11 fields written (R-GPU-2), none for a state without contents.
fn state(keyword: &str, cursor: &mut Cursor<'_>) -> Result<Declaration> {
    let name = cursor.new_name("a name for the object")?;
    let named = named(keyword, &name);
    Ok(match keyword {
        "blend_state" => {
            let options = cursor.options(contents::BLEND_KEYS)?;
            let fields = contents::blend_fields(cursor, &options).map_err(named)?;
            Declaration::BlendState { name, fields }
        }
        "rasterizer_state" => {
            let options = cursor.options(contents::RASTERIZER_KEYS)?;
            let fields = contents::rasterizer_fields(cursor, &options).map_err(named)?;
            Declaration::RasterizerState { name, fields }
        }
        "depth_stencil_state" => {
            let options = cursor.options(contents::DEPTH_STENCIL_KEYS)?;
            let fields = contents::depth_stencil_fields(cursor, &options).map_err(named)?;
            Declaration::DepthStencilState { name, fields }
        }
        _ => {
            let options = cursor.options(contents::SAMPLER_KEYS)?;
            let fields = contents::sampler_fields(cursor, &options).map_err(named)?;
            Declaration::SamplerState { name, fields }
        }
    })
}

/// An error of a declaration's GPU contents (R-GPU-5) naming the object too: `blend_state 'b':
/// blend=: ..` for `blend_state: blend=: ..`.
fn named<'n>(keyword: &'n str, name: &'n Name) -> impl Fn(ParseError) -> ParseError + 'n {
    move |mut error| {
        if let Some(rest) = error.message.strip_prefix(&format!("{keyword}: ")) {
            error.message = format!("{keyword} '{name}': {rest}");
        }
        error
    }
}

/// `bundle NAME rt=FORMAT,..|none [depth=FORMAT] [samples=N]`.
fn bundle(cursor: &mut Cursor<'_>) -> Result<Declaration> {
    let name = cursor.new_name("a name for the bundle recorder")?;
    let options = cursor.options(&["rt", "depth", "samples"])?;
    let rt = options.require(cursor, "rt")?;
    let render_targets = if rt == "none" {
        Vec::new()
    } else {
        cursor
            .list_items(rt)?
            .map(|item| match item {
                "none" => Err(cursor.error("rt=none stands alone, without formats")),
                _ => cursor.format_token(item, "rt="),
            })
            .collect::<Result<Vec<Format>>>()?
    };
    Ok(Declaration::Bundle {
        name,
        render_targets,
        depth: options
            .get("depth")
            .map(|v| cursor.format_token(v, "depth="))
            .transpose()?,
        samples: options
            .get("samples")
            .map(|v| cursor.unsigned_token(v, "samples="))
            .transpose()?,
    })
}

/// `heap=HEAP offset=BYTES` of a placed `buffer` or `texture` (R-BAR-7): both or neither; HEAP
/// a declared heap.
fn placement(
    cursor: &Cursor<'_>,
    symbols: &Symbols,
    options: &Options<'_>,
) -> Result<Option<Placement>> {
    let (heap, offset) = match (options.get("heap"), options.get("offset")) {
        (None, None) => return Ok(None),
        (Some(heap), Some(offset)) => (heap, offset),
        (Some(_), None) => {
            return Err(cursor.error(
                "missing option 'offset=' (a placed resource names its heap and its offset)",
            ))
        }
        (None, Some(_)) => {
            return Err(cursor
                .error("missing option 'heap=' (a placed resource names its heap and its offset)"))
        }
    };
    let offset = cursor.unsigned_token(offset, "offset=")?;
    match cursor.object_token(symbols, heap, Want::Heap, false)? {
        Some(heap) => Ok(Some(Placement { heap, offset })),
        None => Err(cursor.error(format_args!("expected a heap, found {}", quote(heap)))),
    }
}

/// The required `semantics=` option.
fn semantics(cursor: &Cursor<'_>, options: &Options<'_>) -> Result<Semantics> {
    cursor.word_token(
        options.require(cursor, "semantics")?,
        "semantics=",
        Semantics::from_name,
        Semantics::choices(),
    )
}
