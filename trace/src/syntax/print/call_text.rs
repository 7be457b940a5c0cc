//! Calls as text: `Display` for [`Call`], its [`CallContext`], and the arguments only calls take
//! (remaps, viewports, rectangles), which the call table's kinds print with.
//!
//! **In:** a [`Call`] as written. **Out:** `CTX METHOD ARGS`. The method and its arguments print
//! as the call table says (`call_table.rs`: the method's word as docs/TRACE.md spells it, each
//! argument as its kind prints it, in the order the parser reads them); the barriers' arguments
//! are `barrier_text.rs`'s.

use std::fmt::{Display, Formatter};

use super::{Float, Result};
use crate::syntax::ast::{Call, CallContext, Rect, Remap, Viewport};

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

impl Display for Remap {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(
            f,
            "{} {} {} {}",
            self.stage, self.slot, self.inherit_stage, self.inherit_slot
        )
    }
}

impl Display for Viewport {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(
            f,
            "{},{},{},{}",
            Float(self.x),
            Float(self.y),
            Float(self.width),
            Float(self.height)
        )
    }
}

impl Display for Rect {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(
            f,
            "{},{},{},{}",
            self.left, self.top, self.right, self.bottom
        )
    }
}
