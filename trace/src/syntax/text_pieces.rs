//! The pieces of trace text every statement's printer writes: floats that read back as
//! themselves, `key=value` options written only where present, objects or `null`, a vertex
//! buffer's binding (`BUF:STRIDE:OFFSET`).
//!
//! **In:** a formatter and a value. **Out:** the value's text, as docs/TRACE.md writes it.
//! These sit apart from `print/` so that the call table's argument kinds (`call_args.rs`), which
//! `print/` does not import, can write with them too.

use std::fmt::{Display, Formatter, Result, Write as _};

use super::ast::VertexBinding;
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

/// A vertex-buffer binding (R-GPU-2): `BUF|null`, then `:STRIDE` where the stride or the offset
/// is not 0, then `:OFFSET` where the offset is not 0.
pub(crate) struct VertexBindingText<'a>(pub(crate) &'a VertexBinding);

impl Display for VertexBindingText<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        let VertexBinding {
            buffer,
            stride,
            offset,
        } = self.0;
        Nullable(buffer).fmt(f)?;
        if *stride != 0 || *offset != 0 {
            write!(f, ":{stride}")?;
        }
        if *offset != 0 {
            write!(f, ":{offset}")?;
        }
        Ok(())
    }
}
