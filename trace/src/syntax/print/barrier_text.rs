//! Barriers as text: `Display` for [`Barrier`], [`LegacyBarrier`] and their `+` flags and
//! `BEFORE:AFTER` pairs.
//!
//! **In:** a barrier as written. **Out:** its words after `barrier` (or `resource_barrier`): the
//! kind, the resource, then the options written.
//!
//! **Invariant.** Flags print the words as written (an alias stays an alias); a range prints
//! `A-B`, one slot too (`3-3`), which the parser reads back as the same range.

use std::fmt::{Display, Formatter, Write as _};

use super::{option, Nullable, Result};
use crate::syntax::ast::{Barrier, BeforeAfter, Flags, LegacyBarrier, SlotRange};

impl<W: Display> Display for Flags<W> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        for (i, word) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_char('+')?;
            }
            word.fmt(f)?;
        }
        Ok(())
    }
}

impl<T: Display> Display for BeforeAfter<T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "{}:{}", self.before, self.after)
    }
}

/// ` key=A-B` where present.
fn range_option(f: &mut Formatter<'_>, key: &str, range: &Option<SlotRange>) -> Result {
    match range {
        Some(range) => write!(f, " {key}={}-{}", range.first, range.last),
        None => Ok(()),
    }
}

impl Display for Barrier {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Global { sync, access } => write!(f, "global sync={sync} access={access}"),
            Self::Buffer {
                resource,
                sync,
                access,
                size,
            } => {
                write!(f, "buffer {resource} sync={sync} access={access}")?;
                option(f, "size", size)
            }
            Self::Texture {
                resource,
                sync,
                access,
                layout,
                mips,
                array,
                planes,
                discard,
            } => {
                write!(
                    f,
                    "texture {resource} sync={sync} access={access} layout={layout}"
                )?;
                range_option(f, "mips", mips)?;
                range_option(f, "array", array)?;
                range_option(f, "planes", planes)?;
                if *discard {
                    f.write_str(" discard")?;
                }
                Ok(())
            }
        }
    }
}

impl Display for LegacyBarrier {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Transition {
                resource,
                before,
                after,
                subresource,
                split,
            } => {
                write!(f, "transition {resource} {before} {after}")?;
                option(f, "subresource", subresource)?;
                option(f, "split", split)
            }
            Self::Uav { resource } => write!(f, "uav {}", Nullable(resource)),
            Self::Aliasing { before, after } => {
                write!(f, "aliasing {} {}", Nullable(before), Nullable(after))
            }
        }
    }
}
