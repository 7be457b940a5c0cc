//! The pieces of trace text every statement's printer writes: floats that read back as
//! themselves, `key=value` options written only where present, objects or `null`.
//!
//! **In:** a formatter and a value. **Out:** the value's text, as docs/TRACE.md writes it.
//! These sit apart from `print/` so that the call table's argument kinds (`call_args.rs`), which
//! `print/` does not import, can write with them too.

use std::fmt::{Display, Formatter, Result, Write as _};

use super::name::Name;
use super::words::yes_no;

/// A float that reads back as the same `f32`, and as a float.
pub(crate) struct Float(pub(crate) f32);

impl Display for Float {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        // `Debug` of a finite f32 is its shortest round-trip form, always with `.` or `e`.
        write!(f, "{:?}", self.0)
    }
}

/// ` key=value` where present.
pub(crate) fn option<T: Display>(f: &mut Formatter<'_>, key: &str, value: &Option<T>) -> Result {
    match value {
        Some(value) => write!(f, " {key}={value}"),
        None => Ok(()),
    }
}

/// ` key=yes|no` where present.
pub(crate) fn yes_no_option(f: &mut Formatter<'_>, key: &str, value: Option<bool>) -> Result {
    option(f, key, &value.map(yes_no))
}

/// An object or `null`.
pub(crate) struct Nullable<'a>(pub(crate) &'a Option<Name>);

impl Display for Nullable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self.0 {
            Some(name) => f.write_str(name.as_str()),
            None => f.write_str("null"),
        }
    }
}

/// Objects or `null`s joined by `separator`.
pub(crate) fn joined(f: &mut Formatter<'_>, objects: &[Option<Name>], separator: char) -> Result {
    for (i, object) in objects.iter().enumerate() {
        if i > 0 {
            f.write_char(separator)?;
        }
        Nullable(object).fmt(f)?;
    }
    Ok(())
}
