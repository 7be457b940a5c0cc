//! What comes with a decoded command, the [`Command`] a chunk's bytes decode to (its variants are
//! the table's, `vocabulary/`; `decode.rs` reads them): [`Decoded`], its split category and
//! offset, and where it lives; and [`Command::shader_views`], the views a bind reads for shader
//! access.
//!
//! **In:** nothing at run time: `decode` makes these from the encoded bytes. **Out:** the form
//! execution, nesting, validation, the object walk, the split point's patch (`patch.rs`) and a
//! legacy list's drop walk see; a test or a trace compares them by value.
//!
//! **Invariant.** A `Command<'a>` borrows from a sealed chunk that stays alive and unchanged for
//! `'a`: the slices it holds are never written again, and a nested list it names is kept alive by
//! the outer list's reference.

use std::ptr::NonNull;

use crate::context::split::SplitCategory;

use super::{BoundView, Command};

/// A decoded command and, if it is a split point, its category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decoded<'a> {
    /// The command.
    pub command: Command<'a>,
    /// Its split category, if it is a split point (R-SP-2).
    pub split: Option<SplitCategory>,
    /// Offset of the command in its chunk.
    pub offset: u32,
    /// Where the command lives, when it came from `CommandList::segments` (for
    /// [`QueuedSplitPoint::new`](crate::QueuedSplitPoint::new)).
    pub(crate) site: Option<Site>,
}

/// The list a decoded command lives in: the address of its header (`list/` knows it as a
/// `ListHeader`), to keep the list alive for a command handed on (`QueuedSplitPoint::new`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Site {
    pub(crate) list: NonNull<u8>,
}

impl<'a> Command<'a> {
    /// Whether the command is a draw or a dispatch (direct, auto or indirect).
    #[inline]
    pub fn is_draw_or_dispatch(&self) -> bool {
        matches!(
            self,
            Command::Draw(_)
                | Command::DrawIndexed(_)
                | Command::DrawInstanced(_)
                | Command::DrawIndexedInstanced(_)
                | Command::DrawAuto
                | Command::DrawInstancedIndirect(_)
                | Command::DrawIndexedInstancedIndirect(_)
                | Command::Dispatch(_)
                | Command::DispatchIndirect(_)
        )
    }

    /// The views this command binds for shader access (shader resources, compute UAVs, the
    /// output merger's UAVs): what a bind decompresses when it binds a compressed target
    /// (a `decompression` split point, a legacy immediate bind; R-SP-4, R-ST-9).
    pub fn shader_views(&self) -> &'a [BoundView] {
        match *self {
            Command::SetShaderResources { views, .. }
            | Command::SetComputeUnorderedAccessViews { views, .. } => views,
            Command::SetRenderTargets {
                uavs: Some(views), ..
            } => views,
            _ => &[],
        }
    }
}
