//! Whether a list may still run: the objects it names that the application released, found
//! before it executes (R-OBJ-3, R-OBJ-4, R-V-1, R-FX-1, R-FX-6).
//!
//! **In:** a finished list, its nested lists and the bundles it calls. **Out:** the first object
//! it may not name any more, in recording order, or none. Two checks:
//!
//! - [`CommandList::first_released_object`], validation's (R-V-1): every list held to its own
//!   semantics' rule (below), nested lists and called bundles included;
//! - [`CommandList::first_released_unreferenced`], the one made at *every* execution, with or
//!   without validation: only the lists that name objects they hold no reference on although
//!   they are not fast lists under validation's eye: lists recorded with
//!   `title_managed_lifetimes` (R-FX-6) and lists that hold a call keeping the fast contract on
//!   any context (`set_fast_resources`, its batches, the fast and placement binds,
//!   `set_predication_from_query`, the query calls, `read_gds`, the constant-RAM calls: R-FX-1).
//!   A flag set at recording marks them ([`CommandList::checked_at_every_execution`]), and
//!   nesting such a list marks the outer one, so a list without it costs one branch.
//!
//! **The rules.** A **fast** list (and a bundle, which is fast) holds no reference on what it
//! names: an object the application released is an error, whether it was destroyed (its slot
//! perhaps reused) or something else still keeps it alive (a legacy binding or list); the
//! application must not release what a list still to execute names (R-OBJ-4). A legacy list
//! recorded with `title_managed_lifetimes` holds none either: the same rule. A **legacy** list
//! holds a reference on what its ordinary calls name, so nothing they name can be gone; what
//! its fast-contract calls name it holds no reference on: those commands' objects are checked
//! (an object it also holds a reference on, through another call, is alive for it).
//!
//! **Cost.** O(commands of the lists checked whole + nested lists and bundle calls of the
//! others), each list once however often it is nested; no recursion, whatever the depth
//! (R-REC-9); nothing allocated for a list without nested lists.

use std::collections::HashSet;

use super::{CommandList, Commands, IndexEntry, ListHeader};
use crate::chunk::SideKind;
use crate::command::{decode, Command, Decoded};
use crate::desc::Semantics;
use crate::device::handle::{ObjectKind, RawHandle};
use crate::device::DeviceShared;
use crate::errors::ObjectName;

impl CommandList {
    /// The first object, in recording order, that the list may not name any more when it
    /// executes, nested lists' and called bundles' included, each list held to its own
    /// semantics' rule: the validation mode's check before execution (R-OBJ-4, R-V-1). See
    /// `lifetime_check.rs`.
    pub fn first_released_object(&self) -> Option<ObjectName> {
        self.first_released(true)
    }

    /// The check made at every execution, with or without validation (R-FX-1, R-FX-6): the
    /// first object a title-managed list, or a fast-contract call of any list, names that the
    /// application released, nested lists included. `None` at once for a list that is not
    /// [`checked_at_every_execution`](Self::checked_at_every_execution).
    pub fn first_released_unreferenced(&self) -> Option<ObjectName> {
        if !self.checked_at_every_execution() {
            return None;
        }
        self.first_released(false)
    }

    /// Whether the list, or a list nested in it, names objects it holds no reference on other
    /// than as a fast list does: recorded with `title_managed_lifetimes` (R-FX-6), or holding
    /// a call that keeps the fast contract on any context (R-FX-1). Such a list is checked
    /// before every execution ([`first_released_unreferenced`](Self::first_released_unreferenced)).
    pub fn checked_at_every_execution(&self) -> bool {
        self.header().checked_always()
    }

    /// The walk of both checks: `strict` (validation) holds every list to its rule; otherwise
    /// only the lists checked at every execution are looked into.
    fn first_released(&self, strict: bool) -> Option<ObjectName> {
        let device = &**self.header().device;
        // No list nests itself (it is finished before it can be executed), so the root needs no
        // entry: a list without nested lists allocates no set.
        let mut seen = HashSet::new();
        let mut walks = vec![Walk::of(self.header(), strict)];
        while let Some(walk) = walks.last_mut() {
            let rule = walk.rule;
            let header = walk.header;
            let Some(decoded) = walk.next() else {
                walks.pop();
                continue;
            };
            match decoded.command {
                Command::ExecuteCommandList { list, .. } if seen.insert(list.header_ptr()) => {
                    walks.push(Walk::of(list.header(), strict))
                }
                // Checked already, where it was nested before.
                Command::ExecuteCommandList { .. } => {}
                Command::DrawBundle { bundle, .. } if strict => {
                    // A fast list holds no reference on the bundle; a legacy one keeps it alive.
                    let fast = rule == Rule::Whole;
                    match device.bundle_body(bundle) {
                        Some(body) if !fast || device.is_live(ObjectKind::Bundle, bundle) => {
                            if let Some(found) = body.commands.first_released_in_own_commands() {
                                return Some(found);
                            }
                        }
                        _ => return Some(device.object_name(ObjectKind::Bundle, bundle)),
                    }
                }
                command => {
                    if let Some(found) = rule.check(device, header, &command) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }

    /// The fast rule over this list's own commands, for a bundle's body (which calls no list
    /// and no bundle, R-B-8).
    fn first_released_in_own_commands(&self) -> Option<ObjectName> {
        let device = &**self.header().device;
        self.commands()
            .find_map(|decoded| first_released(device, &decoded.command))
    }
}

/// What a list's walk checks of each command.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Every object every command names (a fast or title-managed list).
    Whole,
    /// The objects of the fast-contract calls that the list holds no reference on (a legacy
    /// list that holds such calls).
    FastContract,
    /// Nothing: only the nested lists and bundle calls are looked into.
    Nested,
}

impl Rule {
    fn check(
        self,
        device: &DeviceShared,
        header: &ListHeader,
        command: &Command<'_>,
    ) -> Option<ObjectName> {
        match self {
            Rule::Whole => first_released(device, command),
            Rule::FastContract if may_keep_fast_contract(command) => {
                let mut found = None;
                command.for_each_object(|kind, handle| {
                    if found.is_none()
                        && !device.is_live(kind, handle)
                        && !holds_reference(header, kind, handle)
                    {
                        found = Some(device.object_name(kind, handle));
                    }
                });
                found
            }
            Rule::FastContract | Rule::Nested => None,
        }
    }
}

/// Whether `command` is of a kind a call keeping the fast contract records (R-FX-1): the
/// one-slot binds of `set_fast_resources`, its batches and the fast and placement binds, and
/// the query, GDS and constant-RAM calls, which take no reference on any context.
fn may_keep_fast_contract(command: &Command<'_>) -> bool {
    matches!(
        command,
        Command::SetVertexBuffers { .. }
            | Command::SetConstantBuffers { .. }
            | Command::SetIndexBuffer(_)
            | Command::SetShaderResources { .. }
            | Command::SetSamplers { .. }
            | Command::WriteQuery(_)
            | Command::ResetQuery(_)
            | Command::ConfigureQuery { .. }
            | Command::SetPredicationFromQuery { .. }
            | Command::ReadGds { .. }
            | Command::LoadConstantRam { .. }
            | Command::StoreConstantRam { .. }
    )
}

/// Whether the legacy list of `header` holds a reference on the object (its table of them).
fn holds_reference(header: &ListHeader, kind: ObjectKind, handle: RawHandle) -> bool {
    header
        .objects()
        .iter()
        .any(|held| held.kind == kind && held.handle == handle)
}

/// The fast rule's test of one command: the first object it names that the application
/// released (destroyed or not).
fn first_released(device: &DeviceShared, command: &Command<'_>) -> Option<ObjectName> {
    let mut found = None;
    command.for_each_object(|kind, handle| {
        if found.is_none() && !device.is_live(kind, handle) {
            found = Some(device.object_name(kind, handle));
        }
    });
    found
}

/// One list in a check's walk: its every command, or its nested lists and bundle calls only
/// (through its index, without walking its commands), or nothing.
struct Walk<'a> {
    header: &'a ListHeader,
    rule: Rule,
    commands: Commands<'a>,
    index: std::slice::Iter<'a, IndexEntry>,
}

impl<'a> Walk<'a> {
    fn of(header: &'a ListHeader, strict: bool) -> Self {
        let fast_rule = header.semantics == Semantics::Fast || header.title_managed;
        let always = header.checked_always();
        let (rule, commands, index) = match (fast_rule, header.unreferenced, strict || always) {
            // Neither validated nor checked always: nothing nested in it is either.
            (_, _, false) => (Rule::Nested, false, false),
            (true, _, true) => (Rule::Whole, true, false),
            (false, true, true) => (Rule::FastContract, true, false),
            (false, false, true) => (Rule::Nested, false, true),
        };
        Walk {
            header,
            rule,
            commands: if commands {
                Commands::new(header.first_chunk)
            } else {
                Commands::empty()
            },
            index: if index { header.index() } else { &[][..] }.iter(),
        }
    }

    fn next(&mut self) -> Option<Decoded<'a>> {
        if let Some(decoded) = self.commands.next() {
            return Some(decoded);
        }
        self.index
            .find(|entry| {
                entry.kind == SideKind::Nested as u32 || entry.kind == SideKind::Bundle as u32
            })
            .map(|entry| {
                // SAFETY: index entries point at commands of the list's sealed chunks, alive for 'a.
                unsafe { decode(entry.chunk as *const u8, entry.offset as usize) }.0
            })
    }
}
