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
use crate::context::{DeferredContext, DeferredContextDesc};
use crate::desc::{Engine, Format, Semantics, Stage};
use crate::device::{Device, DeviceShared};
use crate::error::Error;
use crate::handle::{BundleHandle, Handle, ObjectKind, RawHandle};
use crate::info::BUNDLE_WORDS;
use crate::limits::*;
use crate::list::CommandList;
use crate::sync::Ordering;

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
            return Err(Error::invalid(
                "bundle declaration",
                format!(
                    "{} render-target formats declared; there are {RENDER_TARGET_SLOTS} slots (R-OBJ-5)",
                    render_targets.len()
                ),
            ));
        }
        if sample_count > u16::MAX as u32 {
            return Err(Error::invalid(
                "bundle declaration",
                format!("sample count {sample_count} is out of range: the declaration holds at most 65535 (R-B-1)"),
            ));
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
struct BundleTail {
    declaration: OutputFormats,
    footprint: u32,
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
fn bundle_chunk_policy(device: &Device) -> ChunkPolicy {
    ChunkPolicy {
        chunk_size: MIN_CHUNK_SIZE,
        growth: GrowthPolicy::Doubling {
            max: DEFAULT_CHUNK_SIZE,
        },
        pool_limit: device.desc().chunk_policy.pool_limit,
    }
}

impl Device {
    /// A deferred context in the bundle role, for `bundles::BundleRecorder` (R-B-1): fast
    /// semantics, starting from nothing, outside the 48 deferred contexts (R-REC-1), recording
    /// into small chunks unless `chunk_policy` says otherwise. On its own it records whatever it
    /// is told: the bundle rules are the wrapper's.
    #[doc(hidden)]
    pub fn bundle_context(&self, name: &str, chunk_policy: Option<ChunkPolicy>) -> DeferredContext {
        let serial = self.shared.next_recorder.fetch_add(1, Ordering::Relaxed);
        let desc = DeferredContextDesc {
            name,
            semantics: Semantics::Fast,
            chunk_policy: Some(chunk_policy.unwrap_or_else(|| bundle_chunk_policy(self))),
            engine: Engine::Graphics,
        };
        let mut context = DeferredContext::new(self.shared.clone(), &desc, serial);
        context.bundle = true;
        context
    }

    /// Registers a finished bundle's commands under a handle, which lists record when they call
    /// the bundle (R-B-10): the entry holds one reference on `body` until it is destroyed. Like
    /// any object, it is released with [`Device::release`] (`bundles::DrawBundle` does so when
    /// dropped); a legacy list that calls it keeps it until the list is dropped, a fast list
    /// does not (R-OBJ-4), and executing a fast list that calls a destroyed bundle finds the
    /// handle stale (`released_object`, R-OBJ-3).
    #[doc(hidden)]
    pub fn register_bundle(
        &self,
        body: CommandList,
        declaration: OutputFormats,
        footprint: u32,
        name: &str,
    ) -> BundleHandle {
        let mut words = [0u64; BUNDLE_WORDS];
        words[0] = body.into_header() as u64;
        let tail = BundleTail {
            declaration,
            footprint,
        };
        // SAFETY: `BundleTail` is plain data exactly as long as `words[1..]` (asserted above);
        // the write is unaligned-tolerant.
        unsafe { (words[1..].as_mut_ptr() as *mut BundleTail).write_unaligned(tail) };
        BundleHandle::from_raw(self.shared.bundles.insert(words, 0, 0, name))
    }

    /// The commands of the registered bundle `bundle` (one more reference on them), if it
    /// exists: alive, or released but still called by a legacy list. For execution, which keeps
    /// them until the GPU model has run them.
    #[doc(hidden)]
    pub fn bundle_body(&self, bundle: RawHandle) -> Option<BundleBody> {
        self.shared.bundle_body(bundle)
    }
}

/// The declaration and footprint in a bundle entry's words.
fn bundle_tail(words: &[u64; BUNDLE_WORDS]) -> BundleTail {
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

impl DeferredContext {
    /// Whether this context records a bundle (see [`Device::bundle_context`]).
    pub fn is_bundle(&self) -> bool {
        self.bundle
    }

    /// Counts a call and refuses it with `error` (the list keeps its first error, R-REC-8): for
    /// a wrapper that checks a call before forwarding it (the bundle rules).
    #[doc(hidden)]
    pub fn refuse(&mut self, error: Error) {
        self.begin_call();
        self.fail(error);
    }

    /// Counts a call that reports its own result (`map`) and refuses it with `error`, which is
    /// returned for the caller and kept as the last refusal; the list is not poisoned (R-REC-8).
    #[doc(hidden)]
    pub fn refuse_reported(&mut self, error: Error) -> Error {
        self.begin_call();
        self.refuse_reported_call(error)
    }

    /// Calls refused since the list began (a wrapper compares it around a forwarded call).
    #[doc(hidden)]
    pub fn refused_calls(&self) -> u32 {
        self.refused
    }

    /// Records a remap (R-B-9): later draws of the bundle read (stage, slot) of `kind` from the
    /// executing context's (inherit_stage, inherit_slot), as bound when the bundle executes.
    /// Bundle role only; slots must be in range (R-OBJ-5).
    #[doc(hidden)]
    pub fn remap_inheritance(&mut self, remap: Remap) {
        self.begin_call();
        let call = remap.kind.call();
        if !self.bundle {
            return self.fail(Error::invalid(
                call,
                "remapping inheritance applies to bundles only (R-B-9): record it on a bundle recorder",
            ));
        }
        let limit = remap.kind.slots();
        if let Some(bad) = [remap.slot, remap.inherit_slot]
            .into_iter()
            .find(|slot| *slot >= limit)
        {
            return self.fail(Error::invalid(
                call,
                format!("slot {bad} is out of range: there are {limit} (R-OBJ-5)"),
            ));
        }
        let (stage, inherit_stage) = match remap.kind {
            RemapKind::VertexBuffer => (Stage::Vertex, Stage::Vertex),
            _ => (remap.stage, remap.inherit_stage),
        };
        let payload = RemapPayload {
            slot: remap.slot,
            inherit_slot: remap.inherit_slot,
            stage: stage as u8,
            inherit_stage: inherit_stage as u8,
            _reserved: [0; 6],
        };
        self.emit(Opcode::RemapInheritance, remap.kind as u8, None, payload);
    }

    /// Records a call of the registered bundle `bundle` of the device `device` (`Device::serial`)
    /// (R-B-10): its handle, so it costs O(1) here and at execution on the CPU. A legacy context
    /// takes a reference on it and checks its bound targets now (`format_mismatch`); a fast
    /// context inherits them, so the check happens when the list executes. Refused in a bundle
    /// (no nesting, R-B-8) and on the immediate context's recorder (the immediate context has
    /// its own).
    #[doc(hidden)]
    pub fn record_draw_bundle(&mut self, bundle: BundleHandle, device: u64) {
        self.begin_call();
        const CALL: &str = "draw_bundle";
        if self.bundle {
            return self.fail(Error::UnsupportedInBundle { call: CALL });
        }
        if self.immediate {
            return self.fail(Error::invalid(
                CALL,
                "the immediate context executes bundles through ImmediateContext::draw_bundle (R-B-10)",
            ));
        }
        if device != self.device.identity.serial() {
            return self.fail(Error::invalid(
                CALL,
                format!(
                    "the bundle was recorded on device #{device}, not on device #{} that calls it (R-OBJ-3)",
                    self.device.identity.serial()
                ),
            ));
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
                    self.device.unretain(ObjectKind::Bundle, bundle.raw());
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

    /// The formats of the targets bound now, where this context knows them: a legacy context
    /// (its shadow); `None` under fast semantics, which inherits them from the executing context.
    pub fn bound_output_formats(&self) -> Option<OutputFormats> {
        let bindings = &self.shadow.as_ref()?.bindings;
        let device = &self.device;
        Some(OutputFormats::of_bound(
            bindings.render_targets(),
            &bindings.depth_stencil,
            |texture| {
                device
                    .textures
                    .get(texture, true)
                    .ok()
                    .map(|live| crate::info::TextureInfo::unpack(live.words).sample_count)
            },
        ))
    }
}
