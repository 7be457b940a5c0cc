//! Calls as text: `Display` for [`Call`] and its [`CallContext`].
//!
//! **In:** a [`Call`] as written. **Out:** `CTX METHOD ARGS`. The method and its arguments print
//! as the call table says (`call_table.rs`: the method's word as docs/TRACE.md spells it, each
//! argument as its kind prints it, in the order the parser reads them); the barriers' arguments
//! are `barrier_text.rs`'s.

use std::fmt::{Display, Formatter};

use super::Result;
use crate::syntax::ast::{Call, CallContext};

impl Display for CallContext {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Immediate => f.write_str("imm"),
            Self::Deferred(name) | Self::BundleRecorder(name) => name.fmt(f),
        }
    }
}

impl Display for Call {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "{} ", self.context)?;
        self.method.fmt(f)
    }
}
