//! The hazard tracker's reports (R-V-2, R-BAR-7): a [`Use`] that met a pending [`Write`], or a
//! use of a deactivated alias, as `Error::Hazard`.
//!
//! **In:** the two uses (or the use and the activation), the calls that made them ([`Site`]) and
//! the device, for names. **Out:** the error, whose `first_call` and `second_call` name each
//! call, where it came from (direct call or list command, which context, which execution) and
//! how it used the object, with the range both reach when it is not the whole resource.
//!
//! **Invariant:** only reports are built here, cold: nothing runs unless a hazard was found.

use std::fmt::Write as _;

use recorder::{Device, Error, ObjectKind, RawHandle, Resource};

use super::hazard_uses::{resource_of, Origin, Path, Site, Use, Write};
use super::subresource_ranges::Range;

/// The report of `u`, by the call at `site`, of what `w` wrote.
#[cold]
pub(super) fn report(device: &Device, u: &Use, w: &Write, site: Site) -> Error {
    let kind = if u.key.1 {
        ObjectKind::Buffer
    } else {
        ObjectKind::Texture
    };
    let both = u.range.meet(&w.range);
    let range = match (u.key.1, both.x == Range::ALL.x) {
        (true, true) => String::new(),
        (true, false) => format!(" (bytes {})", half_open(both.x)),
        (false, _) => format!(" ({})", range_words(both)),
    };
    let mut second_call = describe(device, &site, u.path, u.view);
    second_call.push_str(&range);
    Error::Hazard {
        first_call: describe(device, &w.site, w.path, w.view),
        second_call,
        object: device.object_name(kind, u.key.0),
    }
}

fn range_words(r: Range) -> String {
    let span = |(a, b): (u16, u16)| match (a, b) {
        (0, u16::MAX) => "all".to_string(),
        (a, u16::MAX) => format!("{a} and up"),
        (a, b) if a == b => a.to_string(),
        (a, b) => format!("{a}..={b}"),
    };
    let mut text = format!("mips {}, slices {}", span(r.mips), span(r.slices));
    if r.x != Range::ALL.x || r.y != Range::ALL.y {
        let _ = write!(text, ", texels {} x {}", half_open(r.x), half_open(r.y));
    }
    text
}

/// An inclusive span as the recorder's region messages write it: `first..end`, end exclusive.
fn half_open((a, b): (u64, u64)) -> String {
    match b.checked_add(1) {
        Some(end) => format!("{a}..{end}"),
        None => format!("{a} and up"),
    }
}

/// The report of `u`, by the call at `site`, of a placed resource that is not active: `by` was
/// activated over its bytes by the call at `at` (or, `by` being the resource itself, a legacy
/// aliasing barrier at `at` deactivated it).
#[cold]
pub(super) fn report_alias(
    device: &Device,
    u: &Use,
    by: Resource,
    at: Option<Site>,
    site: Site,
) -> Error {
    let resource = resource_of(u.key);
    let object = device.object_name(resource.kind(), u.key.0);
    let mut first_call = match at {
        Some(at) => describe_site(&at),
        None => String::from("a barrier"),
    };
    let _ = if by == resource {
        write!(
            first_call,
            ", deactivating it as the before resource of an aliasing barrier"
        )
    } else {
        write!(
            first_call,
            ", activating {} over its bytes",
            device.object_name(by.kind(), by.raw())
        )
    };
    let how = match resource {
        Resource::Texture(_) => "a texture barrier from layout undefined with access no_access",
        Resource::Buffer(_) => "a buffer barrier from access no_access",
    };
    let _ = write!(
        first_call,
        " (a deactivated alias: activate {object} again before using it, {how}, R-BAR-7)"
    );
    let mut second_call = describe(device, &site, u.path, u.view);
    second_call.push_str(", a deactivated alias");
    Error::Hazard {
        first_call,
        second_call,
        object,
    }
}

/// "draw (command 3 of the fast command list recorded by context #2, run by
/// execute_command_list #1), writing it through render-target view 'rt_rtv'".
fn describe(device: &Device, site: &Site, path: Path, view: RawHandle) -> String {
    let mut text = describe_site(site);
    let _ = write!(text, ", {}", path.words());
    if let Some(kind) = path.view_kind() {
        if !view.is_null() {
            let _ = write!(text, " {}", device.object_name(kind, view));
        }
    }
    text
}

/// "draw (command 3 of the fast command list recorded by context #2, run by
/// execute_command_list #1)".
fn describe_site(site: &Site) -> String {
    let mut text = String::from(site.method);
    if site.inner > 0 {
        let _ = write!(
            text,
            " (command {} of the bundle called by draw_bundle",
            site.inner - 1
        );
    }
    let semantics = site.context.name();
    let _ = match site.origin {
        Origin::Direct => write!(
            text,
            " (direct call {} of the {semantics} immediate context)",
            site.command
        ),
        Origin::List {
            recorder,
            execution,
            depth,
        } => {
            let nested = if depth > 0 { ", nested" } else { "" };
            write!(
                text,
                " (command {} of the {semantics} command list recorded by context #{recorder}{nested}, run by execute_command_list #{execution})",
                site.command
            )
        }
    };
    if site.inner > 0 {
        text.push(')');
    }
    text
}
