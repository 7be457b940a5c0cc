//! The checks that refuse a barrier before it has any effect (R-BAR-8, with R-BAR-1, R-BAR-3,
//! R-BAR-4 and R-BAR-6), and how refusals and warnings are reported.
//!
//! **In:** one barrier, whether it came from an enhanced `barrier` call, the call's name.
//! **Out:** nothing, or a [`Refusal`], turned into `invalid_barrier` or
//! `legacy_state_not_common` in the model's violations with the barrier described (a list's
//! barrier naming `execute_command_list`); warnings through `tracing`.
//!
//! **Invariant:** a check changes nothing; a refused barrier counts nothing and reaches neither
//! the aliasing model nor the hazard tracker. The checks the model cannot run past (type
//! mismatch, a split end with no begin, discard not from `undefined`, legacy state not common,
//! mixing kinds) run without validation too; the others only under validation.

use recorder::{
    BarrierAccess, BarrierKind, BarrierLayout, BarrierSync, Error, Handle, NamedResource,
    ObjectKind, ResourceStates, Span,
};

use super::barrier_tables::{access_syncs, layout_accesses};
use super::enhanced_barrier::{describe, Barrier};

use crate::gpu::GpuModel;

/// A refusal, before it is turned into an error with the barrier's description.
pub(super) enum Refusal {
    Invalid(String),
    LegacyNotCommon(ResourceStates),
}

impl GpuModel {
    /// The resource as a refusal prints it: its name, and its slot and reuse count (not the
    /// device's tag, so that the same trace replayed on two devices prints the same message).
    fn object_text(&self, resource: Option<NamedResource>) -> Option<String> {
        let r = resource?;
        let device = self.device.as_ref().or(self.validator.as_ref());
        let slot = format!("#{}g{}", r.handle.index(), r.handle.reuse_count());
        Some(match device {
            Some(d) => format!("{} ({slot})", d.object_name(r.kind, r.handle)),
            None => format!("{} {slot}", r.kind.name()),
        })
    }

    pub(super) fn refuse(&mut self, call: &'static str, b: &Barrier, refusal: Refusal) {
        let call = if self.barriers.list_depth > 0 {
            "execute_command_list"
        } else {
            call
        };
        let barrier = describe(b, self.object_text(b.resource)).into_boxed_str();
        let error = match refusal {
            Refusal::Invalid(rule) => Error::InvalidBarrier {
                call,
                rule: rule.into_boxed_str(),
                barrier,
            },
            Refusal::LegacyNotCommon(state) => Error::LegacyStateNotCommon {
                call,
                state,
                barrier,
            },
        };
        tracing::warn!("{error}");
        self.violations.push(error);
    }

    pub(super) fn warn_barrier(&self, b: &Barrier, what: &str) {
        tracing::warn!(
            "barrier: {what} (R-BAR-8)\n{}",
            describe(b, self.object_text(b.resource))
        );
    }

    /// R-BAR-6: with `legacy_barriers=off`, once one kind of barrier was used on the device, the
    /// other is refused. Returns whether `legacy` (or enhanced) barriers may run.
    pub(super) fn kind_allowed(&mut self, legacy: bool) -> bool {
        let mixing_refused = self
            .device
            .as_ref()
            .or(self.validator.as_ref())
            .is_some_and(|d| !d.desc().legacy_barriers);
        let other = if legacy {
            self.barriers.used_enhanced
        } else {
            self.barriers.used_legacy
        };
        if mixing_refused && other {
            return false;
        }
        if legacy {
            self.barriers.used_legacy = true;
        } else {
            self.barriers.used_enhanced = true;
        }
        true
    }

    /// Every rule that refuses `b`, before it has any effect.
    pub(super) fn check(&mut self, b: &Barrier, enhanced: bool) -> Result<(), Refusal> {
        let validating = self.validator.is_some();
        let invalid = |s: &str| Err(Refusal::Invalid(s.to_string()));
        match (b.kind, b.resource) {
            (BarrierKind::Global, _) => {}
            (_, None) => return invalid("a buffer or texture barrier names no resource (R-BAR-8)"),
            (BarrierKind::Texture, Some(r)) if r.kind != ObjectKind::Texture => {
                return invalid("a texture barrier names a buffer: the barrier type must match the resource (R-BAR-8)")
            }
            (BarrierKind::Buffer, Some(r)) if r.kind != ObjectKind::Buffer && enhanced => {
                return invalid("a buffer barrier names a texture: the barrier type must match the resource (R-BAR-8)")
            }
            _ => {}
        }
        if b.is_split_end() {
            if !self
                .barriers
                .open_splits
                .iter()
                .any(|(s, _)| s.matches_end(b))
            {
                return invalid("a split barrier's end matches no begin: same resource, range, layouts and accesses (R-BAR-4)");
            }
            return Ok(());
        }
        if enhanced {
            if let Some(r) = b.resource {
                let key = (r.handle, r.kind == ObjectKind::Texture);
                if let Some(state) = self.barriers.legacy.get(&key) {
                    return Err(Refusal::LegacyNotCommon(*state));
                }
            }
        }
        if validating && b.kind == BarrierKind::Buffer && enhanced {
            if b.offset != 0 {
                return invalid("a buffer barrier's Offset must be 0 (R-BAR-1)");
            }
            let device = self.device.as_ref().or(self.validator.as_ref());
            let size = b.resource.and_then(|r| {
                let info = device?.buffer_info(recorder::Buffer::from_raw(r.handle))?;
                Some(info.size as u64)
            });
            if b.size != u64::MAX && size.is_some_and(|size| b.size > size) {
                return Err(Refusal::Invalid(format!(
                    "a buffer barrier's Size is past the buffer's {} bytes (R-BAR-8)",
                    size.unwrap_or_default()
                )));
            }
        }
        if b.discard && b.layout_before != BarrierLayout::Undefined {
            return invalid("discard is allowed only with LayoutBefore undefined (R-BAR-3)");
        }
        if b.kind == BarrierKind::Texture {
            let Some(r) = b.resource else {
                return Ok(());
            };
            let facts = match self.barriers.textures.get(&r.handle) {
                Some(t) => t.facts,
                None => match self.facts(r.handle) {
                    Some(f) => f,
                    None => return invalid("the texture is not live on the device (R-BAR-8)"),
                },
            };
            if validating {
                let s = &b.subresources;
                let inside = |span: Span, count: u16| {
                    span.is_all() || (span.first <= span.last && span.last < count)
                };
                if !inside(s.mips, facts.mips)
                    || !inside(s.array, facts.slices)
                    || !inside(s.planes, facts.planes as u16)
                {
                    return Err(Refusal::Invalid(format!(
                        "the subresource range is outside the texture ({} mips, {} array slices, {} planes) (R-BAR-8)",
                        facts.mips, facts.slices, facts.planes
                    )));
                }
                if b.layout_before != BarrierLayout::Undefined {
                    if let Some(t) = self.barriers.textures.get(&r.handle) {
                        if let Some(known) = self.known_layout(t, s) {
                            if known != b.layout_before {
                                return Err(Refusal::Invalid(format!(
                                    "LayoutBefore {} is not the subresources' known layout {} (R-BAR-8)",
                                    b.layout_before.name(),
                                    known.name()
                                )));
                            }
                        } else {
                            return invalid(
                                "LayoutBefore: the subresources are in different layouts (R-BAR-8)",
                            );
                        }
                    } else if b.layout_before != BarrierLayout::Common {
                        return Err(Refusal::Invalid(format!(
                            "LayoutBefore {} is not the subresources' known layout common (R-BAR-8)",
                            b.layout_before.name()
                        )));
                    }
                }
            }
        }
        if validating {
            self.check_compatible(b)?;
        }
        Ok(())
    }

    /// R-BAR-8: sync, access and layout of each side compatible (D3D12's tables).
    fn check_compatible(&self, b: &Barrier) -> Result<(), Refusal> {
        let sides = [
            ("Before", b.sync_before, b.access_before, b.layout_before),
            ("After", b.sync_after, b.access_after, b.layout_after),
        ];
        for (side, sync, access, layout) in sides {
            let sync = BarrierSync(sync.0 & !BarrierSync::SPLIT.0);
            let split = sides.iter().any(|s| s.1.contains(BarrierSync::SPLIT));
            if sync.is_empty() && !split && access != BarrierAccess::NO_ACCESS {
                return Err(Refusal::Invalid(format!(
                    "Sync{side} none goes with Access{side} no_access only (R-BAR-8)"
                )));
            }
            if access == BarrierAccess::NO_ACCESS || access == BarrierAccess::COMMON {
                continue;
            }
            if access.contains(BarrierAccess::NO_ACCESS) {
                return Err(Refusal::Invalid(format!(
                    "Access{side} combines no_access with other accesses (R-BAR-8)"
                )));
            }
            if !sync.is_empty() {
                for bit in 0..31 {
                    let one = BarrierAccess(1 << bit);
                    if access.contains(one) && !access_syncs(one).intersects(sync) {
                        return Err(Refusal::Invalid(format!(
                            "Access{side} {one} is not compatible with Sync{side} {sync} (R-BAR-8)"
                        )));
                    }
                }
            }
            let both_undefined = b.layout_before == BarrierLayout::Undefined
                && b.layout_after == BarrierLayout::Undefined;
            if b.kind == BarrierKind::Texture
                && !both_undefined
                && !layout_accesses(layout).contains(access)
            {
                return Err(Refusal::Invalid(format!(
                    "Access{side} {access} is not compatible with Layout{side} {} (R-BAR-8)",
                    layout.name()
                )));
            }
        }
        Ok(())
    }
}
