//! Canonical trace text for the syntax tree: `Display` for [`Trace`], [`Statement`] and every
//! part of them.
//!
//! **In:** a tree (parsed, or built by a generator). **Out:** one statement a line, tokens
//! separated by one space, options in docs/TRACE.md's order and only those present, numbers in
//! decimal (`write`'s HEX in lowercase hex digits, two a byte), floats in Rust's shortest
//! round-trip form with a `.` or an exponent (`2.0`, `1e-7`), so that an integer and a float
//! value of `expect draw` stay what they were. Parsing the text gives back the same tree for any
//! tree the parser can produce (see `ast/mod.rs`).
//!
//! ## The layout
//! By statement kind, as the tree (`ast/`) is: this file holds the trace, the statement, names,
//! and the pieces every kind writes (options, floats, `null`s); `declaration_text.rs` the
//! declarations (`contents_text.rs` their options that carry what a real GPU needs, R-GPU-2);
//! `call_text.rs` the calls (a call's method prints as the call table says, `../call_table.rs`; the pieces every printer writes are `../text_pieces.rs`);
//! `barrier_text.rs` the arguments of `barrier` and `resource_barrier`; `expectation_text.rs` the
//! expectations and the values of `expect draw`.

mod barrier_text;
mod call_text;
mod contents_text;
mod declaration_text;
mod expectation_text;

use std::fmt::{self, Display, Formatter};

use super::ast::{Statement, Trace};
use super::name::{Format, Name};
// The pieces every printer writes, shared with the call table's argument kinds.
use super::text_pieces::{option, yes_no_option, Float, Nullable};

type Result = fmt::Result;

impl Display for Trace {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        for (_, statement) in &self.statements {
            writeln!(f, "{statement}")?;
        }
        Ok(())
    }
}

impl Display for Statement {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Declaration(declaration) => declaration.fmt(f),
            Self::Call(call) => call.fmt(f),
            Self::Expectation(expectation) => expectation.fmt(f),
        }
    }
}

impl Display for Name {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        f.write_str(self.as_str())
    }
}

impl Display for Format {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        f.write_str(self.as_str())
    }
}
