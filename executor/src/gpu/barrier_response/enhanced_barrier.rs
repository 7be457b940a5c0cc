//! A barrier as the barrier model runs it ([`Barrier`]): an enhanced barrier from its record, or
//! a legacy resource barrier translated into one (R-BAR-6), with its group and its index in the
//! call; and how a refusal or a warning prints it ([`describe`], as the seed's debug-layer
//! messages do).
//!
//! **In:** a [`BarrierRecord`], or the fields a translation fills in over [`Barrier::global`].
//! **Out:** the barrier, and its text.
//!
//! **Invariant:** a split begin is a barrier whose SyncAfter holds `split`, a split end one whose
//! SyncBefore does; an end closes the begin with the same resource, range, layouts and accesses
//! (R-BAR-4).

use recorder::{
    BarrierAccess, BarrierKind, BarrierLayout, BarrierRecord, BarrierSubresources, BarrierSync,
    NamedResource, Span,
};

/// An enhanced barrier as the model runs it: from a record, or translated from a legacy one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Barrier {
    pub(super) kind: BarrierKind,
    pub(super) resource: Option<NamedResource>,
    pub(super) sync_before: BarrierSync,
    pub(super) sync_after: BarrierSync,
    pub(super) access_before: BarrierAccess,
    pub(super) access_after: BarrierAccess,
    pub(super) layout_before: BarrierLayout,
    pub(super) layout_after: BarrierLayout,
    pub(super) subresources: BarrierSubresources,
    pub(super) discard: bool,
    pub(super) offset: u64,
    pub(super) size: u64,
    pub(super) group: u16,
    pub(super) index: u16,
}

impl Barrier {
    pub(super) fn from_record(r: &BarrierRecord) -> Self {
        Self {
            kind: r.kind(),
            resource: r.resource(),
            sync_before: r.sync_before,
            sync_after: r.sync_after,
            access_before: r.access_before,
            access_after: r.access_after,
            layout_before: r.layout_before(),
            layout_after: r.layout_after(),
            subresources: r.subresources,
            discard: r.discard(),
            offset: r.offset,
            size: r.size,
            group: r.group,
            index: r.index,
        }
    }

    pub(super) fn global(
        sync: BarrierSync,
        before: BarrierAccess,
        after: BarrierAccess,
        i: u16,
    ) -> Self {
        Self {
            kind: BarrierKind::Global,
            resource: None,
            sync_before: sync,
            sync_after: sync,
            access_before: before,
            access_after: after,
            layout_before: BarrierLayout::Common,
            layout_after: BarrierLayout::Common,
            subresources: BarrierSubresources::ALL,
            discard: false,
            offset: 0,
            size: u64::MAX,
            group: 0,
            index: i,
        }
    }

    pub(super) fn is_split_begin(&self) -> bool {
        self.sync_after.contains(BarrierSync::SPLIT)
    }

    pub(super) fn is_split_end(&self) -> bool {
        self.sync_before.contains(BarrierSync::SPLIT)
    }

    /// Whether `end` closes this begin: same resource, range, layouts and accesses.
    pub(super) fn matches_end(&self, end: &Barrier) -> bool {
        self.kind == end.kind
            && self.resource == end.resource
            && self.subresources == end.subresources
            && self.layout_before == end.layout_before
            && self.layout_after == end.layout_after
            && self.access_before == end.access_before
            && self.access_after == end.access_after
    }
}

fn span_text(span: Span) -> String {
    if span.is_all() {
        "all".to_string()
    } else {
        format!("{}..={}", span.first, span.last)
    }
}

/// The barrier's group and index and every field, as the seed's debug-layer messages print them.
pub(super) fn describe(b: &Barrier, resource: Option<String>) -> String {
    let mut s = format!(
        "|  -Group Index:   {}\n|  -Barrier Index: {}\n|  -Barrier ({})\n\
         |   |  -SyncBefore:   {}\n|   |  -SyncAfter:    {}\n\
         |   |  -AccessBefore: {}\n|   |  -AccessAfter:  {}\n",
        b.group,
        b.index,
        match b.kind {
            BarrierKind::Global => "global",
            BarrierKind::Buffer => "buffer",
            BarrierKind::Texture => "texture",
        },
        b.sync_before,
        b.sync_after,
        b.access_before,
        b.access_after,
    );
    match b.kind {
        BarrierKind::Global => {}
        BarrierKind::Buffer => {
            s += &format!(
                "|   |  -pResource:    {}\n|   |  -Offset:       {}\n|   |  -Size:         {}\n",
                resource.unwrap_or_else(|| "null".into()),
                b.offset,
                if b.size == u64::MAX {
                    "whole".to_string()
                } else {
                    b.size.to_string()
                }
            );
        }
        BarrierKind::Texture => {
            let r = &b.subresources;
            s += &format!(
                "|   |  -LayoutBefore: {}\n|   |  -LayoutAfter:  {}\n|   |  -pResource:    {}\n\
                 |   |  -Subresources\n|   |    |  -Mips:   {}\n|   |    |  -Array:  {}\n\
                 |   |    |  -Planes: {}\n|   |  -Flags: {}\n",
                b.layout_before.name(),
                b.layout_after.name(),
                resource.unwrap_or_else(|| "null".into()),
                span_text(r.mips),
                span_text(r.array),
                span_text(r.planes),
                if b.discard { "discard" } else { "none" },
            );
        }
    }
    s
}
