//! The recorder's share of draw bundles (SPEC §7). The bundle rules themselves (what may be
//! recorded, encapsulation, the constant-engine budget) live in the `bundles` crate, which wraps
//! a deferred context in the **bundle role** made here and checks every call before forwarding
//! it. This file holds only what needs the recorder's insides:
//!
//! - the bundle role: a fast-semantics context that starts from nothing (no ClearState, no
//!   inherited shadow), makes no split points, does not count against the 48 deferred contexts,
//!   and records in small chunks (bundles are small and live long);
//! - two commands: `RemapInheritance` (R-B-9), recorded into a bundle, and `DrawBundle`
//!   (R-B-10), recorded into a list: the bundle's handle, so the list's execution expands it in
//!   O(1) on the CPU;
//! - the device's bundle entries ([`Device::register_bundle`], [`Device::bundle_body`]): a
//!   finished bundle's commands, declaration and footprint, under a handle like any object's;
//! - [`OutputFormats`]: the render-target formats, depth format and sample count a bundle is
//!   declared with, and the check of the bound targets against them.

use std::fmt;

use crate::chunk::{ChunkPolicy, GrowthPolicy, SideKind};
use crate::command::*;
use crate::context::role::{DeferredRole, Role};
use crate::context::Recorder;
use crate::desc::{Format, Semantics};
use crate::device::handle::{BundleHandle, Handle, ObjectKind, RawHandle};
use crate::device::object_info::BUNDLE_WORDS;
use crate::device::{Device, DeviceShared};
use crate::errors::{DescProblem, Error};
use crate::limits::*;
use crate::list::CommandList;

/// The render-target formats, depth format and sample count a bundle is recorded for (R-B-1),
/// and, read from a context, the ones bound there (R-B-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C)]
pub struct OutputFormats {
    /// Formats of render-target slots 0..8; [`Format::Unknown`] where no target is bound.
    pub render_targets: [Format; RENDER_TARGET_SLOTS as usize],
    /// [`Format::Unknown`]: no depth stencil.
    pub depth: Format,
    /// Samples per pixel of the targets. On the bound side, 0 when no target is bound.
    pub sample_count: u16,
}

const _: () = assert!(std::mem::size_of::<OutputFormats>() == 20);

impl OutputFormats {
    /// A declaration: `render_targets` in slot order (at most 8, the rest are none), a depth
    /// format or none, and the sample count (0 is taken as 1).
    pub fn new(
        render_targets: &[Format],
        depth: Option<Format>,
        sample_count: u32,
    ) -> Result<Self, Error> {
        if render_targets.len() > RENDER_TARGET_SLOTS as usize {
            return Err(Error::SlotOutOfRange {
                call: "bundle declaration",
                what: "render-target format",
                start: 0,
                count: render_targets.len() as u64,
                limit: RENDER_TARGET_SLOTS,
            });
        }
        if sample_count > u16::MAX as u32 {
            return Err(Error::InvalidDesc {
                call: "bundle declaration",
                object: "the bundle's output formats".into(),
                problem: DescProblem::BundleSampleCount {
                    count: sample_count,
                    limit: u16::MAX as u32,
                },
            });
        }
        let mut formats = Self {
            depth: depth.unwrap_or(Format::Unknown),
            sample_count: sample_count.max(1) as u16,
            ..Self::default()
        };
        formats.render_targets[..render_targets.len()].copy_from_slice(render_targets);
        Ok(formats)
    }

    /// The formats of bound targets: `render_targets` and `depth` as encoded bindings (null
    /// views have no format), `sample_count_of` the sample count of a texture. The sample count
    /// is that of the first bound target; 0 when none is bound.
    pub fn of_bound(
        render_targets: &[BoundView],
        depth: &BoundView,
        sample_count_of: impl Fn(RawHandle) -> Option<u32>,
    ) -> Self {
        let mut formats = Self {
            depth: if depth.view.is_null() {
                Format::Unknown
            } else {
                depth.format
            },
            ..Self::default()
        };
        for (slot, view) in formats.render_targets.iter_mut().zip(render_targets) {
            if !view.view.is_null() {
                *slot = view.format;
            }
        }
        let first = render_targets
            .iter()
            .chain(std::iter::once(depth))
            .find(|view| !view.view.is_null() && !view.resource.is_null());
        formats.sample_count = first
            .and_then(|view| sample_count_of(view.resource))
            .map_or(0, |count| count.min(u16::MAX as u32) as u16);
        formats
    }

    /// Whether targets bound with these formats satisfy `declaration` (R-B-10): the same format
    /// in every render-target slot (none where none is declared), the same depth format (none
    /// where none is declared), and, where any target is bound, the declared sample count.
    pub fn satisfies(&self, declaration: &OutputFormats) -> bool {
        self.render_targets == declaration.render_targets
            && self.depth == declaration.depth
            && (self.sample_count == 0 || self.sample_count == declaration.sample_count)
    }

    /// The `format_mismatch` error of binding `self` where `declaration` was declared.
    #[cold]
    pub fn mismatch(&self, call: &'static str, declaration: &OutputFormats) -> Error {
        Error::FormatMismatch {
            call,
            expected: declaration.to_string(),
            found: self.to_string(),
        }
    }
}

impl fmt::Display for OutputFormats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self
            .render_targets
            .iter()
            .rposition(|format| *format != Format::Unknown)
            .map_or(0, |last| last + 1);
        f.write_str("render targets [")?;
        if count == 0 {
            f.write_str("none")?;
        }
        for (i, format) in self.render_targets[..count].iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match format {
                Format::Unknown => f.write_str("none")?,
                format => write!(f, "{format}")?,
            }
        }
        f.write_str("], depth ")?;
        match self.depth {
            Format::Unknown => f.write_str("none")?,
            format => write!(f, "{format}")?,
        }
        match self.sample_count {
            0 => Ok(()),
            1 => f.write_str(", 1 sample"),
            n => write!(f, ", {n} samples"),
        }
    }
}

/// The entry's words after the first: the declaration's 20 bytes and the footprint's 4.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct BundleTail {
    pub(crate) declaration: OutputFormats,
    pub(crate) footprint: u32,
}

const _: () = assert!(std::mem::size_of::<BundleTail>() == 8 * (BUNDLE_WORDS - 1));

/// What execution needs of a registered bundle ([`Device::bundle_body`]).
pub struct BundleBody {
    /// Its commands (a reference the caller holds until the GPU model has run them).
    pub commands: CommandList,
    /// The output formats it was declared for (R-B-1, R-B-10).
    pub declaration: OutputFormats,
    /// Its constant-engine footprint (R-B-5).
    pub footprint: u32,
}

/// Bundles hold few commands and live long: small chunks, doubling as they grow.
pub(crate) fn bundle_chunk_policy(device: &Device) -> ChunkPolicy {
    ChunkPolicy {
        chunk_size: MIN_CHUNK_SIZE,
        growth: GrowthPolicy::Doubling {
            max: DEFAULT_CHUNK_SIZE,
        },
        pool_limit: device.desc().chunk_policy.pool_limit,
    }
}

/// The declaration and footprint in a bundle entry's words.
pub(crate) fn bundle_tail(words: &[u64; BUNDLE_WORDS]) -> BundleTail {
    // SAFETY: `register_bundle` wrote a valid `BundleTail` there (the words of an entry never
    // change); the read is unaligned-tolerant.
    unsafe { (words[1..].as_ptr() as *const BundleTail).read_unaligned() }
}

impl DeviceShared {
    /// See [`Device::bundle_body`].
    pub(crate) fn bundle_body(&self, bundle: RawHandle) -> Option<BundleBody> {
        // A reference for the length of the read, so that no release destroys the entry (and
        // drops its reference on the commands) between the lookup and the clone.
        self.bundles.retain(bundle, 1, true).ok()?;
        let body = self.bundles.get(bundle, true).ok().map(|live| {
            let tail = bundle_tail(&live.words);
            BundleBody {
                // SAFETY: the entry holds the reference `register_bundle` gave up as this
                // address, and the reference taken above keeps the entry (and so that
                // reference) alive.
                commands: unsafe { CommandList::share_header(live.words[0] as usize) },
                declaration: tail.declaration,
                footprint: tail.footprint,
            }
        });
        self.unretain(ObjectKind::Bundle, bundle);
        body
    }
}

/// A bundle call, made by a deferred context only: a bundle does not call another (R-B-8), and
/// the immediate context runs bundles itself (the executor's `ImmediateContext::draw_bundle`).
impl Recorder<DeferredRole> {
    /// Records a call of the registered bundle `bundle` of the device `device` (`Device::serial`)
    /// (R-B-10): its handle, so it costs O(1) here and at execution on the CPU. A legacy context
    /// takes a reference on it and checks its bound targets now (`format_mismatch`); a fast
    /// context inherits them, so the check happens when the list executes. For the `bundles`
    /// crate's `DrawBundleExt::draw_bundle`, which an application calls.
    pub fn record_draw_bundle(&mut self, bundle: BundleHandle, device: u64) {
        self.begin_call();
        const CALL: &str = "draw_bundle";
        if device != self.device.identity.serial() {
            return self.fail(Error::WrongDevice {
                call: CALL,
                object: "bundle",
                device,
                expected: self.device.identity.serial(),
                uses: "calls",
            });
        }
        if self.semantics == Semantics::Legacy {
            // A legacy list holds a reference on the bundle, dropped with the list, and checks
            // its bound targets now. A fast one touches nothing of the bundle's (no lookup, no
            // atomic read-modify-write): a bundle released before the list runs is found then
            // (R-OBJ-3, R-OBJ-4), and the formats are checked then (its targets are inherited).
            if let Err(error) = self.retain(ObjectKind::Bundle, bundle.raw(), 1, CALL) {
                return self.fail(error);
            }
            let declaration = match self.device.bundles.get(bundle.raw(), true) {
                Ok(live) => bundle_tail(&live.words).declaration,
                Err(_) => OutputFormats::default(),
            };
            if let Some(bound) = self.bound_output_formats() {
                if !bound.satisfies(&declaration) {
                    self.release_retained(ObjectKind::Bundle, bundle.raw());
                    return self.fail(bound.mismatch(CALL, &declaration));
                }
            }
        }
        let size = CommandBytes::fixed::<DrawBundlePayload>();
        let at = self.reserve(size, Some(SideKind::Bundle));
        let payload: DrawBundlePayload = bundle.raw();
        // SAFETY: `at` has room for the header and the payload.
        unsafe { write_command(at, Opcode::DrawBundle, 0, None, size, payload) };
    }
}

impl<R: Role> Recorder<R> {
    /// The formats of the targets bound now, where this context knows them: a legacy context
    /// (its shadow); `None` under fast semantics, which inherits them from the executing context.
    pub fn bound_output_formats(&self) -> Option<OutputFormats> {
        let bindings = &self.shadow.as_ref()?.bindings;
        let device = &self.device;
        Some(OutputFormats::of_bound(
            bindings.render_targets(),
            &bindings.depth_stencil,
            |texture| {
                device.textures.get(texture, true).ok().map(|live| {
                    crate::device::object_info::TextureInfo::unpack(live.words).sample_count
                })
            },
        ))
    }
}
