//! # trace::syntax: the trace format itself, its parser and its printer
//!
//! docs/TRACE.md is the format's reference; "TRACE.md" in the comments of this room means that
//! file. Nothing here touches the engine: no file of this room imports `recorder`, `bundles` or
//! the replay.
//!
//! **In:** the bytes of a trace file, as a user attached it to a bug report: any bytes at all.
//! **Out:** from [`parse()`], a typed [`Trace`], one [`Statement`] per line that has one, with its
//! line number; or the first [`ParseError`], `trace:LINE: message`, the message naming the
//! offending token and what was expected there. Printing a [`Trace`] or a [`Statement`]
//! (`Display`) gives canonical trace text that parses back to the same statements. The replay
//! (`../replay/`) reads the tree (`ast/`, `value.rs`, `words.rs`, `name.rs`) and nothing else of
//! this room but [`split_derived`], which turns a swap chain's derived name back into its parts,
//! and the call table's `Convert`, through which it lowers a call (as the capture writes one).
//!
//! What the parser refuses is what docs/TRACE.md calls a malformed trace: a line that cannot be
//! parsed, an unknown object or method, wrong arguments. Replaying the statements, and every
//! error the engine reports (a call it rejects, a released object used, a shader bound to the
//! wrong stage, an unknown format name), belongs to the replay.
//!
//! **Invariants.** No input panics or hangs: the parser is one pass over the bytes, linear in
//! their length whatever the line lengths, list lengths or number sizes; messages quote tokens
//! cut to 40 characters. The first statement is `device`, and it comes once. Every object a
//! statement names is declared on an earlier line, as the kind the grammar names there.
//!
//! ## The layout
//! The tree, leaves first (each file imports only the ones before it):
//! * `words.rs`: the closed vocabularies, one enum each. `name.rs`: object names and format
//!   names. `value.rs`: the fields and values of `expect draw`. `ast/`: the statements, and
//!   the `Form` a call and an expectation are held in (`Written` here; the replay has its own),
//!   one file per part: the forms and argument types, declarations, barriers, the context and
//!   shared parts of a call (`method.rs`), expectations.
//!
//! The call vocabulary, one entry per call:
//! * `call_table.rs`: the table, each call's variant, word and fields with their kinds of
//!   argument; `call_table_macro.rs` makes from it the `Method` enum, the word's dispatch, the
//!   printer and the form-to-form traversal the replay's lowering and the capture use.
//! * `call_args.rs`: the kinds of argument (how each is read, printed, converted), the ones of
//!   one number or word; `call_arg_objects.rs` those naming objects; `call_arg_groups.rs` lists,
//!   entries and barriers. `text_pieces.rs`: what every printer writes (floats, options, `null`).
//!
//! The parser and the printer over it:
//! * `lex.rs`: lines, comments, tokens, numbers. `cursor.rs`: reading a statement's arguments.
//! * `parse.rs`: statements and declarations (`parse_contents.rs`: their options that carry
//!   what a real GPU needs, R-GPU-2); `call.rs`: calls (the table reads the arguments;
//!   `call.rs` declares what a call makes); `barrier.rs`: the arguments
//!   of `barrier` and `resource_barrier`; `expect.rs`: expectations.
//! * `symbols.rs`: the symbol table (declared names, their kinds, the reserved words).
//! * `print/`: the tree back to text, one file per statement kind. `error.rs`: [`ParseError`].
//!
//! ## Choices where docs/TRACE.md is silent
//! * **Names.** A name is declared once: declaring it again (another buffer, a second
//!   `finish` into the same list name) is an error, `'x' is already declared (buffer on line
//!   3)`. A released name stays declared. TRACE.md's reserved words name no object, wherever a
//!   name is made (a declaration, `finish LIST`, a fence's first use): `imm null expect
//!   release` and the declaration keywords, `device` and `heap` among them (`'heap' is a
//!   reserved word (…) and cannot name an object`). A placed resource's `heap=` and `offset=`
//!   come together, and `heap=` names a declared heap (R-BAR-7).
//!   Method names, vocabulary words (`fast`, `ia`) and `accepted` are not reserved (a context
//!   may be called `draw`).
//! * **Swap chains.** `swapchain S buffers=N` declares `S.0 .. S.(N-1)` (textures) and
//!   `S.K.rtv` (RTVs) without storing them, so any N costs nothing; a swap chain whose derived
//!   names were already declared is refused.
//! * **Fences** are declared by their first `insert_fence` or `insert_wait_on_fence` (a list
//!   may wait on a fence another list, recorded later, signals). **QUERY** (`begin`, `end`,
//!   `write_query`, ...) and PREDICATE name any query, `predicate NAME` or `query NAME KIND`
//!   (R-FX-3): one symbol kind, the engine refusing what a kind cannot do.
//! * **Kinds.** A RESOURCE is any buffer or texture; a SHADER is any shader, whatever its
//!   stage; a BUNDLE must be finished (`B finish` on an earlier line). `finish LIST` declares
//!   the list, on `imm` too (where the replay refuses the call, TRACE.md: LIST is then a list
//!   whose finish failed, so `expect error LIST invalid_argument` holds and `execute LIST` is
//!   refused); `finish` on a bundle recorder takes no arguments. `expect error` and `expect
//!   accepted` take `imm` or any declared name.
//! * **Options** (`key=value`) come after the positional arguments, in any order, each once;
//!   an option not written is `None` in the tree (the engine's default). `bind=none` is the
//!   empty flag set (a staging buffer), as `rt=none` is for a bundle.
//! * **Barriers** (`barrier.rs`). `|` between BARRIERs is a token of its own; a BARRIER's
//!   options follow its kind and resource in any order, each once, `discard` among them;
//!   `sync=`/`access=` are required, `layout=` on `texture`. Flags keep the words as written
//!   (`predication` stays `predication`, though the engine's bit is `execute_indirect`'s), so
//!   the printer gives back the trace's words. A range is `A-B` or `A`; the printer writes
//!   `A-B`. The words are this room's own lists (`words.rs`), which a test ties one to one to
//!   the engine's. `expect resource` takes any buffer or texture and its keys in any order.
//! * **Numbers.** Unsigned arguments are `u64`, BASE_VERTEX and scissor rectangles `i64`; a
//!   number that does not fit is an error, not wrapped. Floats take `1`, `0.5`, `.5`, `1e-3`,
//!   `0x10`; not `inf` or `nan`. `expect draw` values keep integer versus float as written.
//! * **`write RESOURCE OFFSET HEX`** takes any RESOURCE (whether it is mapped, and for writing,
//!   is the replay's question) and HEX as an even number of hex digits, either case, no `0x`,
//!   at least one byte (`lex.rs`); it prints lowercase. Any line length is parsed: the replay
//!   limits nothing beyond OFFSET fitting a `u32` and the bytes fitting the map.
//! * **GPU contents** (R-GPU-2, R-GPU-5; `parse_contents.rs`). Tokens have no quotes, so inline
//!   shader code is HEX (`wgsl_hex=` the source's UTF-8 bytes, `spirv_hex=` the words'
//!   little-endian bytes) and a file path has no blanks; files are named, never read, here. A
//!   semantic's trailing digits are its index (`TEXCOORD1`), the printer writing none for 0. A
//!   state's fields are each `None` unless written, so a state prints back as written; a blend
//!   target prints its alpha factors only where they differ from its colour's, and `off` alone
//!   where it is D3D11's default but for its mask. `data=none` is zero bytes (HEX has one at
//!   least), `elements=none` no element.
//! * **`expect draw`** values are read by the field's class (`value.rs`): an object field
//!   takes a declared object of its kind (`NAME#K` only for buffers and views), `topology` a
//!   topology word (`undefined` too, which `set_primitive_topology` also takes), `viewport.N`
//!   four numbers, and so on. Every field also takes `null`.
//! * **Text.** Each line must be UTF-8 (comments too); a `\r` before the `\n` is dropped. An
//!   empty trace, or one of comments only, has no `device`: an error at its last line.

pub(crate) mod ast;
mod barrier;
mod call;
mod call_arg_groups;
mod call_arg_objects;
mod call_args;
mod call_table;
mod call_table_macro;
mod cursor;
mod error;
mod expect;
mod lex;
pub(super) mod name;
mod parse;
mod parse_contents;
mod print;
pub(crate) mod symbols;
mod text_pieces;
pub(super) mod value;
pub(crate) mod words;

pub use ast::{
    Barrier, BeforeAfter, Call, CallContext, Declaration, Expectation, ExpectedLayout, FastEntry,
    FastKind, Flags, Form, LegacyBarrier, Method, Placement, Rect, Remap, SlotRange, SlotSet,
    Statement, Subject, Trace, VertexBinding, Viewport, Written,
};
// Queries with results (R-FX-3).
pub use ast::ExpectedQuery;
pub use call_arg_objects::Decompression;
pub use error::ParseError;
pub use name::{Format, Name};
pub(super) use symbols::{split_derived, ObjKind};
// How the lowering and the capture take a call from one form to another (`call_table.rs`).
pub(crate) use call_args::Convert;
pub use value::{DrawField, ExpectedValue, Number, ObjectRef};
pub use words::{
    AccessWord, BindFlags, Compression, CounterKey, Engine, ErrorKind, LayoutWord, MapType,
    PrimitiveTopology, Semantics, SplitCategory, SplitHalf, Stage, StateWord, SyncWord, UavFlag,
    Usage, Validation,
};
// Queries with results (R-FX-3).
pub use words::{QueryKey, QueryKind, QueryMode};
// What a real GPU needs of an object (R-GPU-2, R-GPU-5).
pub use ast::{
    BlendFields, BlendTargetSpec, DepthStencilFields, InitialData, InputElementSpec,
    RasterizerFields, SamplerFields, ShaderCode, ShaderSource, StencilFaceSpec,
};
pub use words::{AddressMode, BlendFactor, BlendOp, Comparison, CullMode, Filter, StencilOp};

/// Parses a trace.
///
/// ```
/// use trace::{parse, Statement};
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
