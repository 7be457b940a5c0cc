//! Reading one statement's arguments, left to right, with messages that say where it went wrong.
//!
//! **In:** a line's tokens, its number, and a label (the method or keyword, `expect draw`).
//! **Out:** typed arguments: numbers, words of a vocabulary, declared objects of the kind the
//! grammar names, comma lists, slot sets, `key=value` options; or a [`ParseError`] of the form
//! `LABEL: expected WHAT, found TOKEN` (`set_vertex_buffers: expected a buffer or null, found
//! texture 'albedo'`). Tokens are quoted cut short (`lex::quote`), so a message stays short
//! whatever the line.
//!
//! Every reader consumes what it reads and costs O(length of the token).

use std::fmt::Display;

use super::ast::{SlotRange, SlotSet, VertexBinding};
use super::error::ParseError;
use super::lex::{self, quote, NumberError};
use super::name::{is_name, Format, Name};
use super::symbols::{Symbols, Want};
use super::words::{BindFlags, WordTable};

pub(crate) type Result<T> = std::result::Result<T, ParseError>;

pub(crate) struct Cursor<'a> {
    tokens: Vec<&'a str>,
    position: usize,
    line: usize,
    label: &'a str,
}

/// A token described for "found ...": an object with its kind, or the token itself.
pub(crate) fn found(symbols: &Symbols, token: &str) -> String {
    if token == "null" || !is_name(token) {
        return quote(token);
    }
    if super::symbols::RESERVED.contains(&token) {
        let since = super::symbols::LATER_KEYWORDS
            .iter()
            .find(|(word, ..)| *word == token)
            .map(|(_, version, _)| format!(" since version {version} of the trace format"))
            .unwrap_or_default();
        return format!(
            "{}, which is a reserved word{since}: it names no object",
            quote(token)
        );
    }
    match symbols.lookup(token) {
        Some(entry) => format!("{} {}", entry.describe(), quote(token)),
        None => format!("unknown name {}", quote(token)),
    }
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(line: usize, tokens: Vec<&'a str>, label: &'a str) -> Self {
        Self {
            tokens,
            position: 0,
            line,
            label,
        }
    }

    pub(crate) fn line(&self) -> usize {
        self.line
    }

    pub(crate) fn set_label(&mut self, label: &'a str) {
        self.label = label;
    }

    /// An error of this statement: `LABEL: message`.
    pub(crate) fn error(&self, message: impl Display) -> ParseError {
        ParseError::new(self.line, format!("{}: {message}", self.label))
    }

    fn expected(&self, what: &str, found: impl Display) -> ParseError {
        self.error(format_args!("expected {what}, found {found}"))
    }

    /// The next token; `what` names it in the error if there is none.
    pub(crate) fn next(&mut self, what: &str) -> Result<&'a str> {
        let token = self
            .tokens
            .get(self.position)
            .copied()
            .ok_or_else(|| self.expected(what, "end of line"))?;
        self.position += 1;
        Ok(token)
    }

    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.position).copied()
    }

    /// The tokens not read yet, all of them read now.
    pub(crate) fn rest(&mut self) -> Vec<&'a str> {
        let rest = self.tokens[self.position..].to_vec();
        self.position = self.tokens.len();
        rest
    }

    /// Checks that every token has been read.
    pub(crate) fn end(&self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(token) => Err(self.error(format_args!(
                "unexpected {} after the last argument",
                quote(token)
            ))),
        }
    }

    // Numbers.

    fn number_error(&self, error: NumberError, token: &str, what: &str, kind: &str) -> ParseError {
        match error {
            NumberError::Malformed => self.expected(&format!("{what} ({kind})"), quote(token)),
            NumberError::TooLarge => self.error(format_args!(
                "number {} is too large for {what}",
                quote(token)
            )),
        }
    }

    pub(crate) fn unsigned_token(&self, token: &str, what: &str) -> Result<u64> {
        lex::unsigned(token).map_err(|e| self.number_error(e, token, what, "an unsigned integer"))
    }

    pub(crate) fn signed_token(&self, token: &str, what: &str) -> Result<i64> {
        lex::signed(token).map_err(|e| self.number_error(e, token, what, "an integer"))
    }

    pub(crate) fn float_token(&self, token: &str, what: &str) -> Result<f32> {
        lex::float(token).map_err(|e| self.number_error(e, token, what, "a number"))
    }

    pub(crate) fn unsigned(&mut self, what: &str) -> Result<u64> {
        let token = self.next(what)?;
        self.unsigned_token(token, what)
    }

    pub(crate) fn signed(&mut self, what: &str) -> Result<i64> {
        let token = self.next(what)?;
        self.signed_token(token, what)
    }

    pub(crate) fn float(&mut self, what: &str) -> Result<f32> {
        let token = self.next(what)?;
        self.float_token(token, what)
    }

    // Words.

    /// A word of a vocabulary: `from_name` reads it, `choices` lists the words for the error.
    pub(crate) fn word_token<T>(
        &self,
        token: &str,
        what: &str,
        from_name: fn(&str) -> Option<T>,
        choices: String,
    ) -> Result<T> {
        from_name(token).ok_or_else(|| self.expected(&format!("{what} ({choices})"), quote(token)))
    }

    pub(crate) fn word<T>(
        &mut self,
        what: &str,
        from_name: fn(&str) -> Option<T>,
        choices: String,
    ) -> Result<T> {
        let token = self.next(&format!("{what} ({choices})"))?;
        self.word_token(token, what, from_name, choices)
    }

    pub(crate) fn yes_no_token(&self, token: &str, what: &str) -> Result<bool> {
        self.word_token(token, what, super::words::parse_yes_no, "yes|no".into())
    }

    pub(crate) fn format_token(&self, token: &str, what: &str) -> Result<Format> {
        Format::new(token).ok_or_else(|| self.expected(&format!("{what} (a format)"), quote(token)))
    }

    /// A name for a new object (its declaration is the caller's, once the line has parsed).
    pub(crate) fn new_name(&mut self, what: &str) -> Result<Name> {
        let token = self.next(what)?;
        Name::new(token).ok_or_else(|| self.expected(what, quote(token)))
    }

    // Objects.

    /// A declared object of the kind `want` names, or `null` (`None`) where `nullable`.
    pub(crate) fn object_token(
        &self,
        symbols: &Symbols,
        token: &str,
        want: Want,
        nullable: bool,
    ) -> Result<Option<Name>> {
        if nullable && token == "null" {
            return Ok(None);
        }
        let entry = if is_name(token) {
            symbols.lookup(token)
        } else {
            None
        };
        if let (Some(entry), Some(name)) = (entry, Name::new(token)) {
            if want.accepts(entry) {
                return Ok(Some(name));
            }
        }
        let or_null = if nullable { " or null" } else { "" };
        let mut found = found(symbols, token);
        if want == Want::Bundle && entry.is_some_and(|e| e.is_unfinished_bundle()) {
            found.push_str(&format!(" (no '{token} finish' before this line)"));
        }
        Err(self.expected(&format!("{}{or_null}", want.describe()), found))
    }

    /// A declared object of the kind `want` names (not `null`).
    pub(crate) fn object(&mut self, symbols: &Symbols, want: Want) -> Result<Name> {
        let token = self.next(want.describe())?;
        match self.object_token(symbols, token, want, false)? {
            Some(name) => Ok(name),
            None => Err(self.expected(want.describe(), quote(token))),
        }
    }

    pub(crate) fn object_or_null(&mut self, symbols: &Symbols, want: Want) -> Result<Option<Name>> {
        let token = self.next(&format!("{} or null", want.describe()))?;
        self.object_token(symbols, token, want, true)
    }

    /// `OBJ|null [OBJ|null ..]`: the rest of the line, at least one.
    pub(crate) fn objects_to_end(
        &mut self,
        symbols: &Symbols,
        want: Want,
    ) -> Result<Vec<Option<Name>>> {
        let first = self.object_or_null(symbols, want)?;
        let mut objects = vec![first];
        while let Some(token) = self.peek() {
            self.position += 1;
            objects.push(self.object_token(symbols, token, want, true)?);
        }
        Ok(objects)
    }

    /// `BUF|null[:STRIDE[:OFFSET]]` in one token (R-GPU-2): a vertex buffer (or `null` where
    /// `nullable`), its stride and its byte offset, each 0 when left out. The `:`s cannot clash
    /// with the buffer's name, whose grammar has none.
    pub(crate) fn vertex_binding_token(
        &self,
        symbols: &Symbols,
        token: &str,
        nullable: bool,
    ) -> Result<VertexBinding> {
        let mut parts = token.splitn(3, ':');
        let object = parts.next().unwrap_or_default();
        let buffer = self.object_token(symbols, object, Want::Buffer, nullable)?;
        let mut number = |what: &str| -> Result<u32> {
            let Some(text) = parts.next() else {
                return Ok(0);
            };
            let n = self.unsigned_token(text, what)?;
            u32::try_from(n).map_err(|_| {
                self.error(format_args!(
                    "{what} {n} of vertex buffer {} does not fit in 32 bits",
                    quote(token)
                ))
            })
        };
        let stride = number("STRIDE")?;
        let offset = number("OFFSET")?;
        Ok(VertexBinding {
            buffer,
            stride,
            offset,
        })
    }

    /// `BUF|null[:STRIDE[:OFFSET]] ..`: the rest of the line, at least one.
    pub(crate) fn vertex_bindings_to_end(
        &mut self,
        symbols: &Symbols,
    ) -> Result<Vec<VertexBinding>> {
        let first = self.next("a buffer or null")?;
        let mut bindings = vec![self.vertex_binding_token(symbols, first, true)?];
        while let Some(token) = self.peek() {
            self.position += 1;
            bindings.push(self.vertex_binding_token(symbols, token, true)?);
        }
        Ok(bindings)
    }

    /// `OBJ|null[,OBJ|null..]` in one token.
    pub(crate) fn object_list(
        &mut self,
        symbols: &Symbols,
        want: Want,
    ) -> Result<Vec<Option<Name>>> {
        let token = self.next(&format!("{} or null, comma-separated", want.describe()))?;
        self.list_items(token)?
            .map(|item| self.object_token(symbols, item, want, true))
            .collect()
    }

    /// The render targets of `om_set_render_targets*`: a list of RTVs or `null`s, or `-` for
    /// none at all (zero views bound, as `OMSetRenderTargets(0, ...)`; `null` binds one null
    /// slot).
    pub(crate) fn render_targets(&mut self, symbols: &Symbols) -> Result<Vec<Option<Name>>> {
        if self.peek() == Some("-") {
            let _ = self.next("-");
            return Ok(Vec::new());
        }
        self.object_list(symbols, Want::RenderTargetView)
    }

    // Lists.

    /// The comma-separated items of a token; an empty item (`a,,b`, `a,`) is an error.
    pub(crate) fn list_items<'t>(
        &self,
        token: &'t str,
    ) -> Result<impl Iterator<Item = &'t str> + 't> {
        if token.is_empty()
            || token.starts_with(',')
            || token.ends_with(',')
            || token.contains(",,")
        {
            return Err(self.error(format_args!(
                "empty item in the comma-separated list {}",
                quote(token)
            )));
        }
        Ok(token.split(','))
    }

    /// `0,2-5`.
    pub(crate) fn slot_set_token(&self, token: &str, what: &str) -> Result<SlotSet> {
        let mut ranges = Vec::new();
        for item in self.list_items(token)? {
            let range = match item.split_once('-') {
                None => {
                    let slot = self.unsigned_token(item, what)?;
                    SlotRange {
                        first: slot,
                        last: slot,
                    }
                }
                Some((first, last)) => {
                    let first = self.unsigned_token(first, what)?;
                    let last = self.unsigned_token(last, what)?;
                    if first > last {
                        return Err(self.error(format_args!(
                            "{what}: the range {} is backwards",
                            quote(item)
                        )));
                    }
                    SlotRange { first, last }
                }
            };
            ranges.push(range);
        }
        Ok(SlotSet(ranges))
    }

    /// `vertex,index,..`, or `none`.
    pub(crate) fn bind_flags_token(&self, token: &str) -> Result<BindFlags> {
        if token == "none" {
            return Ok(BindFlags::NONE);
        }
        let mut flags = BindFlags::NONE;
        for item in self.list_items(token)? {
            let flag = self.word_token(
                item,
                "a bind flag",
                BindFlags::from_name,
                format!("{}, or none", BindFlags::choices()),
            )?;
            flags = flags | flag;
        }
        Ok(flags)
    }

    // Options.

    /// Whether the line's last unread token is the word `word` (a flag after the options,
    /// `insert_fence F engine=compute kick_off`); read if so.
    pub(crate) fn last_word(&mut self, word: &str) -> bool {
        let found = self.tokens.len() > self.position && self.tokens.last() == Some(&word);
        if found {
            self.tokens.pop();
        }
        found
    }

    /// The rest of the line as `key=value` options, each key one of `keys` and given once.
    pub(crate) fn options(&mut self, keys: &[&'static str]) -> Result<Options<'a>> {
        let mut entries: Vec<(&'static str, &'a str)> = Vec::new();
        while let Some(token) = self.peek() {
            let Some((key, value)) = token.split_once('=') else {
                return Err(self.error(format_args!(
                    "unexpected {} (expected an option: {})",
                    quote(token),
                    option_list(keys)
                )));
            };
            let Some(key) = keys.iter().copied().find(|k| *k == key) else {
                return Err(self.error(format_args!(
                    "unknown option {} (expected {})",
                    quote(key),
                    option_list(keys)
                )));
            };
            if entries.iter().any(|(k, _)| *k == key) {
                return Err(self.error(format_args!("option '{key}=' given twice")));
            }
            if value.is_empty() {
                return Err(self.error(format_args!("option '{key}=' has no value")));
            }
            entries.push((key, value));
            self.position += 1;
        }
        Ok(Options { entries })
    }
}

fn option_list(keys: &[&str]) -> String {
    let keys: Vec<String> = keys.iter().map(|k| format!("{k}=")).collect();
    keys.join(", ")
}

/// The options of one statement, by key.
pub(crate) struct Options<'a> {
    entries: Vec<(&'static str, &'a str)>,
}

impl<'a> Options<'a> {
    pub(crate) fn get(&self, key: &str) -> Option<&'a str> {
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    pub(crate) fn require(&self, cursor: &Cursor<'_>, key: &str) -> Result<&'a str> {
        self.get(key)
            .ok_or_else(|| cursor.error(format_args!("missing option '{key}='")))
    }
}
