//! The one error of the parser: a line that cannot be parsed, names an unknown object or method,
//! or has the wrong arguments (docs/TRACE.md: "stops the replay with exit code 2").
//!
//! **In:** the line and a message naming the offending token and what was expected there.
//! **Out:** `trace:LINE: message`, as the replay prints it.

use std::fmt;

/// A malformed trace: the 1-based line and what is wrong with it.
///
/// ```
/// let error = trace::parse(b"device semantics=fast\nimm drw 1 0\n").unwrap_err();
/// assert_eq!(error.line, 2);
/// assert_eq!(error.to_string(), "trace:2: unknown method 'drw' on 'imm'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line of the trace.
    pub line: usize,
    /// What is wrong, naming the offending token and what was expected there.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trace:{}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}
