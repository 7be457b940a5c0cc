//! The lexical rules of docs/TRACE.md: lines, comments, tokens, numbers.
//!
//! **In:** the raw bytes of a trace. **Out:** for each line, its number (1-based) and its tokens
//! as `&str`s; and, for a token, its value as an unsigned or signed integer or an `f32`.
//!
//! * Lines end at `\n`; one `\r` before it is dropped, so traces saved with CRLF line ends read
//!   the same. Every line must be UTF-8, comments included; a line that is not is an error
//!   naming its line.
//! * A `#` at the start of a line or after a space or tab starts a comment to the end of the
//!   line; a `#` inside a token (`cb#2`) does not.
//! * Tokens are separated by runs of spaces and tabs; any other byte belongs to a token (and
//!   then fails the token's grammar, with a message quoting it).
//! * Integers are decimal digits or `0x` and hexadecimal digits, with a `-` in front where the
//!   argument is signed. Floats are `-`, digits with an optional `.` and fraction, and an
//!   optional exponent (`1`, `0.5`, `.5`, `-2.`, `1e-3`); `inf` and `nan` are not numbers, and a
//!   float too large for `f32` is an error. A float argument also takes a hexadecimal integer.
//! * HEX (`write`'s bytes) is an even number of hexadecimal digits, at least two, either case,
//!   with no `0x`: two digits a byte, the first the high nibble. The printer writes lowercase.
//!
//! All of it is one pass over the bytes: a 10 MB line costs a few milliseconds, and an integer
//! stops at its first overflowing digit.

use std::fmt::Write as _;

use super::error::ParseError;

/// Splits `text` into its lines, numbered from 1. Empty input is one empty line.
pub(crate) fn lines(text: &[u8]) -> Lines<'_> {
    Lines {
        rest: Some(text),
        number: 0,
    }
}

/// The lines of a trace (see [`lines`]); a plain loop, like [`split`].
pub(crate) struct Lines<'a> {
    rest: Option<&'a [u8]>,
    number: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.rest?;
        self.number += 1;
        let mut at = 0;
        while at < rest.len() && rest[at] != b'\n' {
            at += 1;
        }
        if at < rest.len() {
            self.rest = Some(&rest[at + 1..]);
        } else {
            self.rest = None;
        }
        Some((self.number, &rest[..at]))
    }
}

/// The tokens of line `number`, comments dropped; empty for a blank or comment line.
pub(crate) fn tokens(number: usize, line: &[u8]) -> Result<Vec<&str>, ParseError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = std::str::from_utf8(line).map_err(|error| {
        let at = error.valid_up_to();
        ParseError::new(
            number,
            format!(
                "the line is not UTF-8 text (byte 0x{:02x} at column {})",
                line[at],
                at + 1
            ),
        )
    })?;
    Ok(split(line))
}

/// The tokens of a UTF-8 line up to its comment. One plain loop over the bytes: this runs on
/// every byte of the trace, and iterator adapters cost tenfold in unoptimized builds.
fn split(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let mut tokens = Vec::new();
    let mut start = None;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte == b' ' || byte == b'\t' {
            if let Some(from) = start.take() {
                tokens.push(&line[from..at]);
            }
        } else if start.is_none() {
            if byte == b'#' {
                // First on the line or after a blank: a comment.
                return tokens;
            }
            start = Some(at);
        }
        at += 1;
    }
    if let Some(from) = start {
        tokens.push(&line[from..]);
    }
    tokens
}

/// Why a token is not the number asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// Not a number of the grammar asked for.
    Malformed,
    /// A number, but out of range.
    TooLarge,
}

/// The magnitude of an unsigned integer token (decimal or `0x` hex, no sign).
pub(crate) fn unsigned(token: &str) -> Result<u64, NumberError> {
    let (digits, radix): (&str, u64) = match token.strip_prefix("0x") {
        Some(hex) => (hex, 16),
        None => (token, 10),
    };
    if digits.is_empty() {
        return Err(NumberError::Malformed);
    }
    let digits = digits.as_bytes();
    let mut value: u64 = 0;
    let mut overflow = false;
    let mut at = 0;
    while at < digits.len() {
        let digit = match digits[at] {
            b @ b'0'..=b'9' => b - b'0',
            b @ b'a'..=b'f' if radix == 16 => b - b'a' + 10,
            b @ b'A'..=b'F' if radix == 16 => b - b'A' + 10,
            _ => return Err(NumberError::Malformed),
        };
        // Past an overflow, keep scanning: a malformed token is reported as such.
        if !overflow {
            match value
                .checked_mul(radix)
                .and_then(|v| v.checked_add(u64::from(digit)))
            {
                Some(v) => value = v,
                None => overflow = true,
            }
        }
        at += 1;
    }
    if overflow {
        Err(NumberError::TooLarge)
    } else {
        Ok(value)
    }
}

/// A signed integer token: an unsigned one with an optional `-`.
pub(crate) fn signed(token: &str) -> Result<i64, NumberError> {
    match token.strip_prefix('-') {
        Some(magnitude) => {
            let magnitude = unsigned(magnitude)?;
            0i64.checked_sub_unsigned(magnitude)
                .ok_or(NumberError::TooLarge)
        }
        None => i64::try_from(unsigned(token)?).map_err(|_| NumberError::TooLarge),
    }
}

/// Whether a token is written as a float rather than an integer: decimal with a `.` or an
/// exponent (a hexadecimal integer has `e` among its digits, so it never is).
pub(crate) fn looks_like_float(token: &str) -> bool {
    let magnitude = token.strip_prefix('-').unwrap_or(token);
    if magnitude.starts_with("0x") {
        return false;
    }
    let bytes = magnitude.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if matches!(bytes[at], b'.' | b'e' | b'E') {
            return true;
        }
        at += 1;
    }
    false
}

/// A float token, or an integer one, as an `f32`.
pub(crate) fn float(token: &str) -> Result<f32, NumberError> {
    if !looks_like_float(token) {
        return signed(token).map(|n| n as f32);
    }
    if !is_decimal_float(token) {
        return Err(NumberError::Malformed);
    }
    let value: f32 = token.parse().map_err(|_| NumberError::Malformed)?;
    if value.is_finite() {
        Ok(value)
    } else {
        Err(NumberError::TooLarge)
    }
}

/// `-? (D+ (. D*)? | . D+) ([eE] [+-]? D+)?`: what `f32::from_str` takes, less `+`, `inf`,
/// `nan` and `infinity`.
fn is_decimal_float(token: &str) -> bool {
    let bytes = token.strip_prefix('-').unwrap_or(token).as_bytes();
    let digits = |from: usize| {
        let mut end = from;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        end - from
    };
    let mut at = digits(0);
    let mut mantissa_digits = at;
    if bytes.get(at) == Some(&b'.') {
        let fraction = digits(at + 1);
        mantissa_digits += fraction;
        at += 1 + fraction;
    }
    if mantissa_digits == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent = digits(at);
        if exponent == 0 {
            return false;
        }
        at += exponent;
    }
    at == bytes.len()
}

/// HEX: the bytes of an even number of hexadecimal digits (either case, at least one byte);
/// the rule broken otherwise, in words.
pub(crate) fn hex_bytes(token: &str) -> Result<Vec<u8>, &'static str> {
    fn nibble(digit: u8) -> Option<u8> {
        (digit as char).to_digit(16).map(|value| value as u8)
    }
    let digits = token.as_bytes();
    if digits.is_empty() {
        return Err("HEX needs at least one byte (two hex digits)");
    }
    if !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err("HEX is hex digits only (0-9, a-f, A-F; no 0x)");
    }
    if !digits.len().is_multiple_of(2) {
        return Err("HEX needs an even number of hex digits (two a byte)");
    }
    Ok(digits
        .chunks_exact(2)
        .filter_map(|pair| match pair {
            [high, low] => Some(nibble(*high)? << 4 | nibble(*low)?),
            _ => None,
        })
        .collect())
}

/// A token quoted for a message: `'albedo'`, escaped, and cut to 40 characters with its full
/// length said where it is longer (a 10 MB token makes a short message).
pub(crate) fn quote(token: &str) -> String {
    const SHOWN: usize = 40;
    let mut out = String::from("'");
    let mut chars = token.chars();
    for c in chars.by_ref().take(SHOWN) {
        write!(out, "{}", c.escape_debug()).ok();
    }
    if chars.next().is_some() {
        write!(out, "...' ({} bytes)", token.len()).ok();
    } else {
        out.push('\'');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_cap_4_write_hex_is_pairs_of_hex_digits_in_either_case() {
        assert_eq!(hex_bytes("00ff7A").unwrap(), [0x00, 0xff, 0x7a]);
        assert_eq!(hex_bytes("DEADbeef").unwrap(), [0xde, 0xad, 0xbe, 0xef]);
        assert!(hex_bytes("").unwrap_err().contains("at least one byte"));
        assert!(hex_bytes("abc").unwrap_err().contains("even number"));
        assert!(hex_bytes("0x12").unwrap_err().contains("hex digits only"));
        assert!(hex_bytes("zz").unwrap_err().contains("hex digits only"));
        assert!(hex_bytes("é1").unwrap_err().contains("hex digits only"));
    }

    #[test]
    fn comments_start_at_line_start_or_after_blank() {
        assert_eq!(tokens(1, b"# all comment").unwrap(), Vec::<&str>::new());
        assert_eq!(tokens(1, b"a cb#2 b #c d").unwrap(), ["a", "cb#2", "b"]);
        assert_eq!(tokens(1, b"a\t#c").unwrap(), ["a"]);
        assert_eq!(tokens(1, b"a b\r").unwrap(), ["a", "b"]);
    }

    #[test]
    fn numbers() {
        assert_eq!(unsigned("0xffff"), Ok(65535));
        assert_eq!(unsigned("0x"), Err(NumberError::Malformed));
        assert_eq!(unsigned("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(unsigned("18446744073709551616"), Err(NumberError::TooLarge));
        assert_eq!(
            unsigned("99999999999999999999999x"),
            Err(NumberError::Malformed)
        );
        assert_eq!(signed("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(signed("9223372036854775808"), Err(NumberError::TooLarge));
        assert_eq!(float("0.5"), Ok(0.5));
        assert_eq!(float(".5"), Ok(0.5));
        assert_eq!(float("-2."), Ok(-2.0));
        assert_eq!(float("1e-3"), Ok(1e-3));
        assert_eq!(float("0x10"), Ok(16.0));
        assert_eq!(float("inf"), Err(NumberError::Malformed));
        assert_eq!(float("1e99"), Err(NumberError::TooLarge));
        assert_eq!(float("1e"), Err(NumberError::Malformed));
        assert_eq!(float("."), Err(NumberError::Malformed));
    }
}
