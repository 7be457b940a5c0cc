//! The kinds of argument a call takes, each written once: how it is read from a line, how it is
//! printed back, and how it goes from one [`Form`] to another. The call table (`call_table.rs`)
//! names a kind for every field of every call. This file holds the traits and the kinds of one
//! number or word; the kinds that name objects are `call_arg_objects.rs`'s, those of lists,
//! entries and barriers `call_arg_groups.rs`'s.
//!
//! **In:** a line's tokens (through [`CallParser`]), a field's value as written, or a field's
//! value in any form with a [`Convert`] that says how each kind of argument changes form.
//! **Out:** the field's value, its text, the field in the other form, or the objects it names.
//!
//! **The traits.** [`ArgKind`] says what a field of the kind is in a form (`Count`: the form's
//! `Count`, a `u64` as written and a `u32` once lowered); it is public because
//! [`Method`](super::Method)'s fields are written with it. [`CallArg`] reads, prints and
//! converts; its `Param` is what the table gives the kind for one field: the label the parse
//! errors and the lowering's "does not fit" errors name (`"START"`), or the object kind the
//! grammar wants. [`Convert`] is one method per kind of argument whose type changes between
//! forms; the lowering (`replay/lower/methods.rs`) and the capture (`capture/form.rs`) implement
//! it, so neither matches on calls.
//!
//! **Invariant.** `print` writes what `parse` reads, each argument after one space (nothing for
//! an argument not written: an option left out, a flag not set, what a form adds to a call), so
//! a printed call parses back to itself.

use std::fmt::{self, Display, Formatter};

use super::ast::{Form, Written};
use super::cursor::{Cursor, Result};
use super::lex::quote;
use super::name::{Format, Name};
use super::symbols::{ObjKind, Symbols};
use super::text_pieces::{option, yes_no_option, Float as FloatText};
use super::words::{
    parse_yes_no, yes_no, Compression, Engine, MapType, PrimitiveTopology, QueryMode, Stage,
};

/// What the call table's entries read their arguments with: the line's cursor, the symbol table
/// the objects are checked against, and the stage the method's word names (`vs_set_shader`).
pub(crate) struct CallParser<'c, 'a> {
    /// The line, at the method's first argument.
    pub(crate) cursor: &'c mut Cursor<'a>,
    /// The objects declared so far.
    pub(crate) symbols: &'c Symbols,
    /// The STAGE of a `STAGE_` word; `None` for any other word.
    pub(crate) stage: Option<Stage>,
}

/// A method's word split at its stage prefix: `vs_set_shader` is the vertex stage and
/// `set_shader`; a word that starts with no stage is `(None, word)`.
pub(crate) fn split_stage(word: &str) -> (Option<Stage>, &str) {
    match word.split_once('_') {
        Some((prefix, rest)) => match Stage::from_name(prefix) {
            Some(stage) => (Some(stage), rest),
            None => (None, word),
        },
        None => (None, word),
    }
}

/// A kind of argument: what a field of the kind is in the form `F`.
pub trait ArgKind {
    /// The field's type in the form `F`.
    type Of<F: Form>: Clone + fmt::Debug + PartialEq;
}

/// A field of a call, its type named by its kind: `Arg<Count, F>` is `F::Count`.
pub type Arg<K, F> = <K as ArgKind>::Of<F>;

/// How a kind of argument is read, printed and converted (see the module essay).
pub(crate) trait CallArg: ArgKind {
    /// What the table gives the kind for one field (a label, an object kind, nothing).
    type Param: Copy;
    /// Whether the argument is written in the method's word, not after it (the stage of
    /// `vs_set_shader`): a call with such a field is named by `STAGE_word`.
    const IN_WORD: bool = false;
    /// Reads the argument.
    fn parse(p: &mut CallParser<'_, '_>, param: Self::Param) -> Result<Self::Of<Written>>;
    /// Writes what goes before the method's word (`vs_` of `vs_set_shader`); nothing for most.
    fn print_prefix(_f: &mut Formatter<'_>, _value: &Self::Of<Written>) -> fmt::Result {
        Ok(())
    }
    /// Writes the argument, after one space (nothing where it is not written).
    fn print(f: &mut Formatter<'_>, value: &Self::Of<Written>, param: Self::Param) -> fmt::Result;
    /// Writes what goes after every other argument (a flag after the options); nothing for most.
    fn print_suffix(_f: &mut Formatter<'_>, _value: &Self::Of<Written>) -> fmt::Result {
        Ok(())
    }
    /// The objects the argument names for the call to use, in the order written, `null`s left
    /// out: none for most kinds, none for a name the call itself makes or a fence (a value).
    fn objects<F: Form>(
        _value: &Self::Of<F>,
        _param: Self::Param,
        _visit: &mut dyn FnMut(&F::Object),
    ) {
    }
    /// The argument in the form `G`.
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &Self::Of<F>,
        param: Self::Param,
    ) -> std::result::Result<Self::Of<G>, C::Error>;
}

/// How each kind of argument whose type differs between the forms `F` and `G` goes from one to
/// the other (see the module essay); `label` is the argument's name in the trace format, for
/// the error of a value that does not fit.
pub(crate) trait Convert<F: Form, G: Form> {
    /// Why an argument cannot be converted.
    type Error;
    /// An object the call names.
    fn object(&mut self, object: &F::Object) -> std::result::Result<G::Object, Self::Error>;
    /// An object the call itself makes (`finish LIST`, `create_device_context_state STATE`).
    fn declared(
        &mut self,
        object: &F::Object,
        kind: ObjKind,
    ) -> std::result::Result<G::Object, Self::Error>;
    /// A fence, named by its first `insert_fence` or `insert_wait_on_fence`.
    fn fence(&mut self, fence: &F::Object) -> std::result::Result<G::Object, Self::Error>;
    /// An unsigned count, slot, offset or value.
    fn count(
        &mut self,
        value: &F::Count,
        label: &'static str,
    ) -> std::result::Result<G::Count, Self::Error>;
    /// An unsigned argument that may be left out (its default, 0).
    fn defaulted_count(
        &mut self,
        value: &F::Defaulted<F::Count>,
        label: &'static str,
    ) -> std::result::Result<G::Defaulted<G::Count>, Self::Error>;
    /// A signed argument.
    fn signed(
        &mut self,
        value: &F::Signed,
        label: &'static str,
    ) -> std::result::Result<G::Signed, Self::Error>;
    /// A stencil value.
    fn stencil(
        &mut self,
        value: &F::Stencil,
        label: &'static str,
    ) -> std::result::Result<G::Stencil, Self::Error>;
    /// A format.
    fn format(&mut self, format: &F::Format) -> std::result::Result<G::Format, Self::Error>;
    /// A shader stage.
    fn stage(&mut self, stage: &F::Stage) -> std::result::Result<G::Stage, Self::Error>;
    /// A primitive topology.
    fn topology(&mut self, value: &F::Topology) -> std::result::Result<G::Topology, Self::Error>;
    /// A viewport.
    fn viewport(&mut self, value: &F::Viewport) -> std::result::Result<G::Viewport, Self::Error>;
    /// A scissor rectangle.
    fn rect(&mut self, value: &F::Rect) -> std::result::Result<G::Rect, Self::Error>;
    /// A map type.
    fn map_type(&mut self, value: &F::MapType) -> std::result::Result<G::MapType, Self::Error>;
    /// `compressed|decompressed`.
    fn compression(
        &mut self,
        value: &F::Compression,
    ) -> std::result::Result<G::Compression, Self::Error>;
    /// `engine=` (default graphics).
    fn engine(
        &mut self,
        value: &F::Defaulted<F::Engine>,
    ) -> std::result::Result<G::Defaulted<G::Engine>, Self::Error>;
    /// `restore=yes|no` (default no).
    fn restore(
        &mut self,
        value: &F::Defaulted<bool>,
    ) -> std::result::Result<G::Defaulted<bool>, Self::Error>;
    /// What a form adds to a `map`: the instance it makes.
    fn instance(&mut self, value: &F::Instance) -> std::result::Result<G::Instance, Self::Error>;
    /// What a form adds to a `map`: the `write` statements after it.
    fn map_writes(
        &mut self,
        value: &F::MapWrites,
    ) -> std::result::Result<G::MapWrites, Self::Error>;
    /// The BARRIERs of `barrier`.
    fn barriers(
        &mut self,
        barriers: &[super::ast::Barrier<F>],
    ) -> std::result::Result<G::List<super::ast::Barrier<G>>, Self::Error>;
    /// The legacy barrier of `resource_barrier`.
    fn legacy_barrier(
        &mut self,
        barrier: &super::ast::LegacyBarrier<F>,
    ) -> std::result::Result<super::ast::LegacyBarrier<G>, Self::Error>;
}

/// A kind whose field is the same type in every form (an address, a float, a flag): read by
/// `$parse`, printed by `$print`, converted by copying.
macro_rules! same_in_every_form {
    ($(#[$attr:meta])* $kind:ident: $type:ty, $param:ty,
     parse($p:ident, $pp:ident) $parse:block,
     print($f:ident, $v:ident, $vp:ident) $print:block) => {
        $(#[$attr])*
        pub struct $kind;

        impl ArgKind for $kind {
            type Of<F: Form> = $type;
        }

        impl CallArg for $kind {
            type Param = $param;
            fn parse($p: &mut CallParser<'_, '_>, $pp: $param) -> Result<$type> $parse
            fn print($f: &mut Formatter<'_>, $v: &$type, $vp: $param) -> fmt::Result $print
            fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
                _: &mut C,
                value: &$type,
                _: $param,
            ) -> std::result::Result<$type, C::Error> {
                Ok(value.clone())
            }
        }
    };
}

/// A kind whose field is one of the form's types (`$assoc`), read by `$parse`, printed as
/// ` VALUE`, converted by the [`Convert`] method `$convert` given the label.
macro_rules! one_of_the_form {
    ($(#[$attr:meta])* $kind:ident: $assoc:ident, $written:ty, $convert:ident(label),
     parse($p:ident, $pp:ident) $parse:block) => {
        one_of_the_form!(@kind $(#[$attr])* $kind: $assoc, $written, parse($p, $pp) $parse,
            convert(c, value, label) { c.$convert(value, label) });
    };
    ($(#[$attr:meta])* $kind:ident: $assoc:ident, $written:ty, $convert:ident(),
     parse($p:ident, $pp:ident) $parse:block) => {
        one_of_the_form!(@kind $(#[$attr])* $kind: $assoc, $written, parse($p, $pp) $parse,
            convert(c, value, _label) { c.$convert(value) });
    };
    (@kind $(#[$attr:meta])* $kind:ident: $assoc:ident, $written:ty,
     parse($p:ident, $pp:ident) $parse:block,
     convert($c:ident, $v:ident, $l:ident) $convert:block) => {
        $(#[$attr])*
        pub struct $kind;

        impl ArgKind for $kind {
            type Of<F: Form> = F::$assoc;
        }

        impl CallArg for $kind {
            type Param = &'static str;
            fn parse($p: &mut CallParser<'_, '_>, $pp: &'static str) -> Result<$written> $parse
            fn print(f: &mut Formatter<'_>, value: &$written, _: &'static str) -> fmt::Result {
                write!(f, " {value}")
            }
            fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
                $c: &mut C,
                $v: &F::$assoc,
                $l: &'static str,
            ) -> std::result::Result<G::$assoc, C::Error> $convert
        }
    };
}

one_of_the_form! {
    /// An unsigned count, slot, offset or value: `Count("START")`.
    Count: Count, u64, count(label),
    parse(p, label) { p.cursor.unsigned(label) }
}

one_of_the_form! {
    /// A signed number: `Signed("BASE_VERTEX")`.
    Signed: Signed, i64, signed(label),
    parse(p, label) { p.cursor.signed(label) }
}

one_of_the_form! {
    /// `clear_depth_stencil_view`'s STENCIL.
    Stencil: Stencil, u64, stencil(label),
    parse(p, label) { p.cursor.unsigned(label) }
}

one_of_the_form! {
    /// A format: `FormatName("FORMAT")`.
    FormatName: Format, Format, format(),
    parse(p, label) {
        let token = p.cursor.next(label)?;
        p.cursor.format_token(token, label)
    }
}

one_of_the_form! {
    /// A primitive topology word.
    Topology: Topology, PrimitiveTopology, topology(),
    parse(p, _what) {
        p.cursor.word("a topology", PrimitiveTopology::from_name, PrimitiveTopology::choices())
    }
}

one_of_the_form! {
    /// A stage word: `StageWord("a stage")`.
    StageWord: Stage, Stage, stage(),
    parse(p, what) { p.cursor.word(what, Stage::from_name, Stage::choices()) }
}

one_of_the_form! {
    /// A map type word.
    MapTypeWord: MapType, MapType, map_type(),
    parse(p, _what) { p.cursor.word("a map type", MapType::from_name, MapType::choices()) }
}

one_of_the_form! {
    /// `compressed|decompressed`.
    CompressionWord: Compression, Compression, compression(),
    parse(p, _what) {
        p.cursor.word("a compression", Compression::from_name, Compression::choices())
    }
}

same_in_every_form! {
    /// An address a resource is placed at, printed in hex: `Address("ADDRESS")`.
    Address: u64, &'static str,
    parse(p, label) { p.cursor.unsigned(label) },
    print(f, value, _label) { write!(f, " {value:#x}") }
}

same_in_every_form! {
    /// A float: `Float("DEPTH")`.
    Float: f32, &'static str,
    parse(p, label) { p.cursor.float(label) },
    print(f, value, _label) { write!(f, " {}", FloatText(*value)) }
}

same_in_every_form! {
    /// Four floats, one token each: `Color("R,G,B,A")`.
    Color: [f32; 4], &'static str,
    parse(p, labels) {
        let mut color = [0.0; 4];
        for (value, label) in color.iter_mut().zip(labels.split(',')) {
            *value = p.cursor.float(label)?;
        }
        Ok(color)
    },
    print(f, value, _labels) {
        value.iter().try_for_each(|v| write!(f, " {}", FloatText(*v)))
    }
}

same_in_every_form! {
    /// `yes|no`: `YesNo("the predicate value")`.
    YesNo: bool, &'static str,
    parse(p, what) { p.cursor.word(what, parse_yes_no, "yes|no".into()) },
    print(f, value, _what) { write!(f, " {}", yes_no(*value)) }
}

same_in_every_form! {
    /// `counting|binary` of `configure_query`.
    QueryModeWord: QueryMode, &'static str,
    parse(p, _what) {
        p.cursor.word("the query mode", QueryMode::from_name, QueryMode::choices())
    },
    print(f, value, _what) { write!(f, " {value}") }
}

same_in_every_form! {
    /// A word that may end the line: `Flag("allow_usage_default")`; anything else there is an
    /// error.
    Flag: bool, &'static str,
    parse(p, word) {
        match p.cursor.peek() {
            Some(found) if found == word => {
                p.cursor.next(word)?;
                Ok(true)
            }
            Some(other) => Err(p.cursor.error(format_args!(
                "expected {word} or end of line, found {}",
                quote(other)
            ))),
            None => Ok(false),
        }
    },
    print(f, value, word) {
        match value {
            true => write!(f, " {word}"),
            false => Ok(()),
        }
    }
}

same_in_every_form! {
    /// A name the trace gives a batch of `set_fast_resources_into_batch`: `BatchName("BATCH")`.
    BatchName: Name, &'static str,
    parse(p, what) { p.cursor.new_name(what) },
    print(f, value, _what) { write!(f, " {value}") }
}

same_in_every_form! {
    /// `write`'s HEX: bytes, two hex digits each.
    Hex: Vec<u8>, &'static str,
    parse(p, label) {
        let hex = p.cursor.next(label)?;
        super::lex::hex_bytes(hex)
            .map_err(|rule| p.cursor.error(format_args!("{rule}, found {}", quote(hex))))
    },
    print(f, value, _label) {
        f.write_str(" ")?;
        value.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

/// A word after the options, `kick_off` of `insert_fence`: read from the line's end before the
/// options are (so it is never taken for one), printed after every other argument. Its field
/// comes before the options' in the table, so that it is read first.
pub struct FlagAfterOptions;

impl ArgKind for FlagAfterOptions {
    type Of<F: Form> = bool;
}

impl CallArg for FlagAfterOptions {
    type Param = &'static str;
    fn parse(p: &mut CallParser<'_, '_>, word: &'static str) -> Result<bool> {
        Ok(p.cursor.last_word(word))
    }
    fn print(_: &mut Formatter<'_>, _: &bool, _: &'static str) -> fmt::Result {
        Ok(())
    }
    fn print_suffix(f: &mut Formatter<'_>, value: &bool) -> fmt::Result {
        // The one flag of the vocabulary after the options.
        match value {
            true => f.write_str(" kick_off"),
            false => Ok(()),
        }
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        _: &mut C,
        value: &bool,
        _: &'static str,
    ) -> std::result::Result<bool, C::Error> {
        Ok(*value)
    }
}

/// The STAGE of a `STAGE_` word (`vs_set_shader`): read from the word, printed before it.
pub struct StagePrefix;

impl ArgKind for StagePrefix {
    type Of<F: Form> = F::Stage;
}

impl CallArg for StagePrefix {
    type Param = ();
    const IN_WORD: bool = true;
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Stage> {
        p.stage
            .ok_or_else(|| p.cursor.error("the method's word names no stage"))
    }
    fn print_prefix(f: &mut Formatter<'_>, stage: &Stage) -> fmt::Result {
        write!(f, "{stage}_")
    }
    fn print(_: &mut Formatter<'_>, _: &Stage, (): ()) -> fmt::Result {
        Ok(())
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        stage: &F::Stage,
        (): (),
    ) -> std::result::Result<G::Stage, C::Error> {
        c.stage(stage)
    }
}

/// An unsigned argument that may end the line unwritten: `OptionalCount("OFFSET")`.
pub struct OptionalCount;

impl ArgKind for OptionalCount {
    type Of<F: Form> = F::Defaulted<F::Count>;
}

impl CallArg for OptionalCount {
    type Param = &'static str;
    fn parse(p: &mut CallParser<'_, '_>, label: &'static str) -> Result<Option<u64>> {
        match p.cursor.peek() {
            Some(_) => Ok(Some(p.cursor.unsigned(label)?)),
            None => Ok(None),
        }
    }
    fn print(f: &mut Formatter<'_>, value: &Option<u64>, _: &'static str) -> fmt::Result {
        match value {
            Some(value) => write!(f, " {value}"),
            None => Ok(()),
        }
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::Defaulted<F::Count>,
        label: &'static str,
    ) -> std::result::Result<G::Defaulted<G::Count>, C::Error> {
        c.defaulted_count(value, label)
    }
}

/// `engine=` (R-EX-5): the rest of the line as options, this one the only key.
pub struct EngineOption;

impl ArgKind for EngineOption {
    type Of<F: Form> = F::Defaulted<F::Engine>;
}

impl CallArg for EngineOption {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Option<Engine>> {
        let options = p.cursor.options(&["engine"])?;
        let cursor = &*p.cursor;
        options
            .get("engine")
            .map(|v| cursor.word_token(v, "engine=", Engine::from_name, Engine::choices()))
            .transpose()
    }
    fn print(f: &mut Formatter<'_>, value: &Option<Engine>, (): ()) -> fmt::Result {
        option(f, "engine", value)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::Defaulted<F::Engine>,
        (): (),
    ) -> std::result::Result<G::Defaulted<G::Engine>, C::Error> {
        c.engine(value)
    }
}

/// `restore=yes|no` (R-REC-6, R-ST-2): the rest of the line as options, this one the only key.
pub struct RestoreOption;

impl ArgKind for RestoreOption {
    type Of<F: Form> = F::Defaulted<bool>;
}

impl CallArg for RestoreOption {
    type Param = ();
    fn parse(p: &mut CallParser<'_, '_>, (): ()) -> Result<Option<bool>> {
        let options = p.cursor.options(&["restore"])?;
        let cursor = &*p.cursor;
        options
            .get("restore")
            .map(|v| cursor.yes_no_token(v, "restore="))
            .transpose()
    }
    fn print(f: &mut Formatter<'_>, value: &Option<bool>, (): ()) -> fmt::Result {
        yes_no_option(f, "restore", *value)
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::Defaulted<bool>,
        (): (),
    ) -> std::result::Result<G::Defaulted<bool>, C::Error> {
        c.restore(value)
    }
}

/// What a form adds to a `map` and the trace does not write: the instance it makes (`Instance`)
/// and the `write` statements after it (`MapWritesOf`). Nothing is read or printed.
macro_rules! added_by_the_form {
    ($(#[$attr:meta])* $kind:ident: $assoc:ident, $convert:ident) => {
        $(#[$attr])*
        pub struct $kind;

        impl ArgKind for $kind {
            type Of<F: Form> = F::$assoc;
        }

        impl CallArg for $kind {
            type Param = ();
            fn parse(_: &mut CallParser<'_, '_>, (): ()) -> Result<()> {
                Ok(())
            }
            fn print(_: &mut Formatter<'_>, (): &(), (): ()) -> fmt::Result {
                Ok(())
            }
            fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
                c: &mut C,
                value: &F::$assoc,
                (): (),
            ) -> std::result::Result<G::$assoc, C::Error> {
                c.$convert(value)
            }
        }
    };
}

added_by_the_form! {
    /// The instance a write_discard `map` makes (docs/TRACE.md "Instances").
    Instance: Instance, instance
}

added_by_the_form! {
    /// The `write` statements after a `map`, up to its `unmap`.
    MapWritesOf: MapWrites, map_writes
}

/// `ia SLOT` of `remap_vertex_buffer_inheritance`: the literal `ia`, then the slot.
pub struct IaSlot;

impl ArgKind for IaSlot {
    type Of<F: Form> = F::Count;
}

impl CallArg for IaSlot {
    type Param = &'static str;
    fn parse(p: &mut CallParser<'_, '_>, label: &'static str) -> Result<u64> {
        p.cursor
            .word("'ia'", |t| (t == "ia").then_some(()), "ia".into())?;
        p.cursor.unsigned(label)
    }
    fn print(f: &mut Formatter<'_>, value: &u64, _: &'static str) -> fmt::Result {
        write!(f, " ia {value}")
    }
    fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
        c: &mut C,
        value: &F::Count,
        label: &'static str,
    ) -> std::result::Result<G::Count, C::Error> {
        c.count(value, label)
    }
}

/// Numbers in one comma-separated token: `Pair("X,Y")`, `Quad("L,T,R,B")` of
/// `copy_texture_region`, each converted with its own label (`X`, `Y`).
macro_rules! numbers_in_one_token {
    ($(#[$attr:meta])* $kind:ident: $n:literal, [$($x:ident),*]) => {
        $(#[$attr])*
        pub struct $kind;

        impl ArgKind for $kind {
            type Of<F: Form> = [F::Count; $n];
        }

        impl CallArg for $kind {
            type Param = &'static str;
            fn parse(p: &mut CallParser<'_, '_>, what: &'static str) -> Result<[u64; $n]> {
                numbers(p.cursor, what)
            }
            fn print(f: &mut Formatter<'_>, value: &[u64; $n], _: &'static str) -> fmt::Result {
                for (i, v) in value.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { "," })?;
                    v.fmt(f)?;
                }
                Ok(())
            }
            fn convert<F: Form, G: Form, C: Convert<F, G> + ?Sized>(
                c: &mut C,
                [$($x),*]: &[F::Count; $n],
                labels: &'static str,
            ) -> std::result::Result<[G::Count; $n], C::Error> {
                let mut label = labels.split(',');
                Ok([$(c.count($x, label.next().unwrap_or(labels))?),*])
            }
        }
    };
}

numbers_in_one_token! {
    /// Two numbers in one token, `X,Y`.
    Pair: 2, [x, y]
}

numbers_in_one_token! {
    /// Four numbers in one token, `L,T,R,B`.
    Quad: 4, [l, t, r, b]
}

/// `N` unsigned numbers in one comma-separated token.
fn numbers<const N: usize>(cursor: &mut Cursor<'_>, what: &str) -> Result<[u64; N]> {
    let group = cursor.next(what)?;
    let items: Vec<&str> = cursor.list_items(group)?.collect();
    if items.len() != N {
        return Err(cursor.error(format_args!(
            "expected {what} ({N} numbers), found {}",
            quote(group)
        )));
    }
    let mut out = [0u64; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = cursor.unsigned_token(item, what)?;
    }
    Ok(out)
}
