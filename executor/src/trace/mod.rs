//! # trace: the plain-text trace format (docs/TRACE.md), its parser and the `replay` command
//!
//! docs/TRACE.md is the format's reference in this repository: the normative text, with a note
//! on each construct not built yet and the error the replay gives for it today. "TRACE.md" in
//! the comments of this module means that file.
//!
//! **In:** the bytes of a trace file, as a user attached it to a bug report: any bytes at all.
//! **Out:** from the parser ([`parse`]), a typed [`Trace`], one [`Statement`] per line that has
//! one, with its line number; or the first [`ParseError`], `trace:LINE: message`, the message
//! naming the offending token and what was expected there. Printing a [`Trace`] or a
//! [`Statement`] (`Display`) gives canonical trace text that parses back to the same
//! statements. From the replay ([`replay`]), what the `replay` command prints and its exit code.
//!
//! The parser does not touch the engine: replaying the statements, and every error the engine
//! reports (a call it rejects, a released object used, a shader bound to the wrong stage, an
//! unknown format name), belongs to the replay. What the parser refuses is what docs/TRACE.md
//! calls a malformed trace: a line that cannot be parsed, an unknown object or method, wrong
//! arguments.
//!
//! **Invariants.** No input panics or hangs: the parser is one pass over the bytes, linear in
//! their length whatever the line lengths, list lengths or number sizes; messages quote tokens
//! cut to 40 characters. The first statement is `device`, and it comes once. Every object a
//! statement names is declared on an earlier line, as the kind the grammar names there.
//!
//! ## The layout
//! * `lex.rs`: lines, comments, tokens, numbers. `cursor.rs`: reading a statement's arguments.
//! * `parse.rs`: statements and declarations; `call.rs`: calls; `expect.rs`: expectations.
//! * `symbols.rs`: the symbol table. `ast.rs`, `value.rs`, `words.rs`: the tree.
//! * `print.rs`: the tree back to text. `error.rs`: [`ParseError`].
//! * The replay: `run.rs` (the command), `lower.rs`, `convert.rs` and `program.rs` (the trace in
//!   the engine's types), `engine.rs`, `slot.rs`, `apply.rs`, `create.rs` and `pool.rs` (the real
//!   run, on one thread or several), `verdict.rs` (expectations), `names.rs` (records in trace
//!   names), `origin.rs` (where each record came from), `reference.rs` and `feed.rs`
//!   (`--compare`), `compare.rs` and `report.rs` (the output).
//!
//! ## Choices where docs/TRACE.md is silent
//! * **Names.** A name is declared once: declaring it again (another buffer, a second
//!   `finish` into the same list name) is an error, `'x' is already declared (buffer on line
//!   3)`. A released name stays declared. TRACE.md's reserved words name no object, wherever a
//!   name is made (a declaration, `finish LIST`, a fence's first use): `imm null expect
//!   release` and the declaration keywords, `device` and `heap` among them (`'heap' is a
//!   reserved word (…) and cannot name an object`). A `heap` line is refused as not built yet.
//!   Method names, vocabulary words (`fast`, `ia`) and `accepted` are not reserved (a context
//!   may be called `draw`).
//! * **Swap chains.** `swapchain S buffers=N` declares `S.0 .. S.(N-1)` (textures) and
//!   `S.K.rtv` (RTVs) without storing them, so any N costs nothing; a swap chain whose derived
//!   names were already declared is refused.
//! * **Fences** are declared by their first `insert_fence` or `insert_wait_on_fence` (a list
//!   may wait on a fence another list, recorded later, signals). **QUERY** (`begin`, `end`) is a
//!   predicate, the only query a trace declares.
//! * **Kinds.** A RESOURCE is any buffer or texture; a SHADER is any shader, whatever its
//!   stage; a BUNDLE must be finished (`B finish` on an earlier line). `finish LIST` declares
//!   the list, on `imm` too (where the replay refuses the call, TRACE.md: LIST is then a list
//!   whose finish failed, so `expect error LIST invalid_argument` holds and `execute LIST` is
//!   refused); `finish` on a bundle recorder takes no arguments. `expect error` and `expect
//!   accepted` take `imm` or any declared name.
//! * **Options** (`key=value`) come after the positional arguments, in any order, each once;
//!   an option not written is `None` in the tree (the engine's default). `bind=none` is the
//!   empty flag set (a staging buffer), as `rt=none` is for a bundle.
//! * **Numbers.** Unsigned arguments are `u64`, BASE_VERTEX and scissor rectangles `i64`; a
//!   number that does not fit is an error, not wrapped. Floats take `1`, `0.5`, `.5`, `1e-3`,
//!   `0x10`; not `inf` or `nan`. `expect draw` values keep integer versus float as written.
//! * **`expect draw`** values are read by the field's class (`value.rs`): an object field
//!   takes a declared object of its kind (`NAME#K` only for buffers and views), `topology` a
//!   topology word (`undefined` too, which `set_primitive_topology` also takes), `viewport.N`
//!   four numbers, and so on. Every field also takes `null`.
//! * **Text.** Each line must be UTF-8 (comments too); a `\r` before the `\n` is dropped. An
//!   empty trace, or one of comments only, has no `device`: an error at its last line.
//!
//! ## Choices of the replay where docs/TRACE.md is silent
//! * **Malformed, exit 2** (besides the parser's): a format the engine does not know, a number
//!   that does not fit the engine's argument (a 32-bit count, an 8-bit stencil value, a slot
//!   beyond a shader's 128-bit, 16-bit... slot masks), a context, command list or bundle named
//!   after its `release`.
//! * **Refused by the replay** (`invalid_argument`, like an engine refusal, and it fails the
//!   list's `finish` with the list's first refusal, no state carried): a call naming an object
//!   whose declaration the engine refused, an `execute` of a list whose `finish` failed, a
//!   `draw_bundle` of a bundle that does not exist, an immediate-context call (`present`,
//!   `resume`, `begin_command_list_execution`, ...) on a deferred context, a texture call
//!   (`decompress_resource`, compression, `set_resource_min_lod`) given a buffer. A bundle
//!   recorder refuses the immediate-context calls with `unsupported_in_bundle`, as R-B-8 does
//!   `present`.
//! * **Instances.** K counts every write_discard `map` statement of the resource, accepted or
//!   not. In `expect draw`, `NAME` without `#K` matches any instance of a dynamic resource.
//! * **Defaults** of what docs/TRACE.md has no syntax for: vertex buffers with stride and offset 0,
//!   blend factor 1,1,1,1 and every sample, stencil reference 0, `clear_depth_stencil_view`
//!   clearing depth and stencil, `update_subresource` writing no bytes.
//! * **Outcomes.** `expect error CTX` asks about the last call on CTX, its `finish` included;
//!   on a command list's name, about its `finish` and then each `execute` of it on `imm`; on
//!   any other name, about its declaration. Under `validation=on` the immediate context flushes
//!   after every call, and a report is the refusal of the call whose work shows it (the work
//!   ran); a bundle call the GPU model skipped inside an executed list (`format_mismatch`, a
//!   released bundle) is the refusal of that `execute`. `expect ok` fails on any refusal so
//!   far, declarations and reports included, and names the first.
//! * **Fences** get their values in trace order; a wait on a fence no earlier line inserted
//!   passes 0, which the engine refuses (`invalid_argument`): it cannot wait on a value it has
//!   not handed out, so a list cannot wait on a fence a later line signals.
//! * **Bundles.** A second `finish` of a recorder makes a new bundle under its name; the
//!   earlier one stays alive (a list may have called it) until the name is released.
//! * **Output.** The summary line and `digest=` line (FNV-1a, 64 bits, over the records as
//!   `--records` prints them before their origin, objects by trace name: where a record came
//!   from is not part of it, so `--compare` and the digest ignore it), `--records` as `INDEX:
//!   KIND field=value ...  # ORIGIN` in `DrawRecord::fields` order, `--json` one object with the
//!   summary, every counter, the failures and (`--compare`) the difference.
//! * **Origins** (`--records`, `origin.rs`): ORIGIN is `line L` of the draw or dispatch call,
//!   then, innermost first, `bundle B called on line L`, `list M executed on line L` (a list
//!   executed inside a list) and `execution K of list M on line L`: K counts the `imm`
//!   executions of M whose work ran (a refused one does not count; one under a validation
//!   report does). Where the GPU model skipped a bundle call inside an execution (formats, a
//!   released bundle), that execution's records say `a call of execution K of list M on line
//!   L`, the call not being known.
//! * **JSON.** Records (`--json --records`) are `{"index","kind","fields":{NAME:VALUE,…},
//!   "from":{"line","via":[…]}}`, the values strings as `--records` prints them, each `via`
//!   `{"bundle","line"}`, `{"list","line"}` or `{"list","execution","line"}`; failures are
//!   `{"line","expected","found"}`, `expected` the expectation as written without `expect`.
//! * **The command line.** `--help` or `-h` anywhere wins over everything else (exit 0);
//!   `-` is standard input; `--threads N` and `--threads=N` are the same; an unknown option
//!   is exit 2 with the usage line. A closed standard output ends the output without a message
//!   and the exit code stays the verdict's (0 when every expectation held): a filter's reader
//!   going away is no failure of the trace.

mod ast;
mod call;
mod cursor;
mod error;
mod expect;
mod lex;
mod parse;
mod print;
mod symbols;
mod value;
mod words;

// The replay (docs/TRACE.md "The command"): `run.rs` and the files it names.
mod apply;
mod compare;
mod convert;
mod create;
mod engine;
mod feed;
mod lower;
mod names;
mod origin;
mod pool;
mod program;
mod reference;
mod report;
mod run;
mod slot;
mod verdict;

pub use ast::{
    BindFlags, Call, CallContext, Declaration, Expectation, Format, Method, Name, Rect, Remap,
    SlotRange, SlotSet, Statement, Subject, Trace, Viewport,
};
pub use error::ParseError;
pub use run::{replay, Args, Replay, ReplayOptions, TraceSource, USAGE};
pub use value::{DrawField, ExpectedValue, Number, ObjectRef};
pub use words::{
    BindFlag, Compression, CounterKey, Engine, ErrorKind, MapType, Semantics, SplitCategory, Stage,
    Topology, UavFlag, Usage, Validation,
};

/// Parses a trace.
///
/// ```
/// use executor::trace::{parse, Statement};
///
/// let trace = parse(b"device semantics=legacy\nbuffer vb usage=default bind=vertex size=64\n\
///                     imm set_vertex_buffers 0 vb null # two slots\n")
///     .unwrap();
/// assert_eq!(trace.statements.len(), 3);
/// assert_eq!(trace.statements[2].0, 3);
/// assert_eq!(trace.statements[2].1.to_string(), "imm set_vertex_buffers 0 vb null");
///
/// let error = parse(b"device semantics=fast\ntexture t format=r8_unorm width=4 height=4 \
///                     bind=shader_resource\nimm set_vertex_buffers 0 t\n").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "trace:3: set_vertex_buffers: expected a buffer or null, found texture 't'"
/// );
/// ```
pub fn parse(text: &[u8]) -> Result<Trace, ParseError> {
    parse::parse(text)
}

impl Trace {
    /// The statements without their line numbers.
    pub fn statements(&self) -> impl Iterator<Item = &Statement> {
        self.statements.iter().map(|(_, statement)| statement)
    }
}
