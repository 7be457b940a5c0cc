//! [`BundleRecorder`]: a deferred context in the bundle role, wrapped so that every call meets
//! the bundle rules before it is forwarded (R-B-1..9). A call the rules refuse is counted and
//! kept as the bundle's first error, exactly as the recorder keeps its own refusals (R-REC-8);
//! a call they let through is checked, encoded and counted by the recorder as on any context.
//!
//! What a bundle may not record at all does not exist on it (the crate's essay shows it:
//! "What a bundle recorder cannot call").
//!
//! The checks of the calls it has come in a fixed order, so that each call has one answer:
//! 1. objects that cannot be encapsulated (R-B-6 `not_encapsulable`, which takes precedence over
//!    any other error a bind could raise) and stream-output shaders (`stream_output_in_bundle`);
//! 2. mandatory state before the first draw or dispatch (R-B-3, `missing_mandatory_state`);
//! 3. the constant-engine budget (R-B-5, `budget_exceeded`);
//! 4. the recorder's own checks (released objects, slot ranges, bind flags...).
//!
//! The answer is that order's, but not every check is made in it: a buffer bind is checked for
//! R-B-6 only once the budget or the recorder has refused it (the recorder refuses every dynamic
//! buffer in the bundle role, so an accepted bind never needs the check; a refused one gets
//! `not_encapsulable` in place of the recorder's error). An accepted bind costs the budget's mask
//! test and the recorder's own work, with no lookup of its own.

use std::sync::Arc;

use recorder::limits::BUNDLE_BUDGET_BYTES;
use recorder::*;

use crate::budget::{Overrides, SlotKind};
use crate::finished_bundle::DrawBundle;

/// How to create a bundle recorder (R-B-1): the output formats the bundle will be executed with.
#[derive(Clone, Debug)]
pub struct BundleDesc<'a> {
    /// The bundle's name, as errors and the finished [`DrawBundle`] name it; empty by default.
    pub name: &'a str,
    /// Render-target formats in slot order; empty for no colour target (TRACE.md `rt=none`).
    pub render_targets: &'a [Format],
    /// The depth-stencil format, or none.
    pub depth: Option<Format>,
    /// Samples per pixel of the targets (0 is taken as 1).
    pub sample_count: u32,
    /// Overrides the recorder's small chunks (4 KB, doubling up to 64 KB).
    pub chunk_policy: Option<ChunkPolicy>,
}

impl Default for BundleDesc<'_> {
    fn default() -> Self {
        Self {
            name: "",
            render_targets: &[],
            depth: None,
            sample_count: 1,
            chunk_policy: None,
        }
    }
}

impl<'a> BundleDesc<'a> {
    /// A bundle for one render target of `format`, no depth, one sample.
    pub fn new(name: &'a str, render_targets: &'a [Format]) -> Self {
        Self {
            name,
            render_targets,
            ..Self::default()
        }
    }
}

/// What R-B-3 asks before the first draw (the five graphics stages and the input layout) or the
/// first dispatch (the compute stage): one bit each, set by a successful set call (null counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mandatory(u8);

impl Mandatory {
    pub(crate) const INPUT_LAYOUT: u8 = 1 << 6;
    pub(crate) const GRAPHICS: u8 = 0b1_1111 | Self::INPUT_LAYOUT;
    pub(crate) const COMPUTE: u8 = 1 << Stage::Compute as u8;

    pub(crate) fn set_stage(&mut self, stage: Stage) {
        self.0 |= 1 << stage as u8;
    }

    pub(crate) fn set_input_layout(&mut self) {
        self.0 |= Self::INPUT_LAYOUT;
    }

    /// Whether all of `need` is set: the check every draw makes, a mask test.
    #[inline]
    pub(crate) fn has(self, need: u8) -> bool {
        self.0 & need == need
    }

    /// What is missing of `need`, named for the message; `None` when all is set.
    pub(crate) fn missing(self, need: u8) -> Option<String> {
        let absent = need & !self.0;
        if absent == 0 {
            return None;
        }
        let mut names: Vec<&str> = Stage::ALL
            .iter()
            .filter(|stage| absent & 1 << **stage as u8 != 0)
            .map(|stage| stage.name())
            .collect();
        if absent & Self::INPUT_LAYOUT != 0 {
            names.push("the input layout");
        }
        Some(names.join(", "))
    }
}

/// Records a draw bundle, from any thread (R-B-1): `Send`, not `Sync`, like a deferred context.
///
/// ```
/// use bundles::{BundleDesc, BundleRecorder};
/// use recorder::*;
///
/// let device = Device::new(DeviceDesc::default());
/// let vs = device.create_shader(&ShaderDesc::new("vs", Stage::Vertex))?;
/// let ps = device.create_shader(&ShaderDesc::new("ps", Stage::Pixel))?;
/// let layout = device.create_input_layout(&InputLayoutDesc { name: "layout", vertex_buffers: Slots::first(1) })?;
///
/// let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("tree", &[Format::R8G8B8A8Unorm]))?;
/// recorder.set_input_layout(Some(layout));
/// for (stage, shader) in [(Stage::Vertex, Some(vs)), (Stage::Hull, None), (Stage::Domain, None),
///                         (Stage::Geometry, None), (Stage::Pixel, Some(ps))] {
///     recorder.set_shader(stage, shader);
/// }
/// recorder.draw(36, 0);
/// let bundle = recorder.finish().map_err(|e| e.error)?;
/// assert_eq!(bundle.draws(), 1);
/// assert_eq!(bundle.footprint_bytes(), 0); // shaders and layout only: no slot overridden
/// # Ok::<(), recorder::Error>(())
/// ```
pub struct BundleRecorder {
    pub(crate) context: Recorder<BundleRole>,
    pub(crate) device: Device,
    pub(crate) name: Arc<str>,
    pub(crate) declaration: OutputFormats,
    pub(crate) mandatory: Mandatory,
    pub(crate) overrides: Overrides,
}

impl BundleRecorder {
    /// A recorder for bundles declared with `desc`'s output formats. Refused when the
    /// declaration is malformed (more than 8 render targets).
    pub fn new(device: &Device, desc: &BundleDesc<'_>) -> Result<Self, Error> {
        let declaration = OutputFormats::new(desc.render_targets, desc.depth, desc.sample_count)?;
        Ok(Self {
            context: device.bundle_recorder(desc.name, desc.chunk_policy.clone()),
            device: device.clone(),
            name: Arc::from(desc.name),
            declaration,
            mandatory: Mandatory::default(),
            overrides: Overrides::default(),
        })
    }

    /// The name the recorder was created with, which every bundle it finishes carries.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The output formats the bundle is recorded for (R-B-1).
    pub fn declaration(&self) -> &OutputFormats {
        &self.declaration
    }

    /// The constant-engine footprint of the bundle so far, in bytes (R-B-5).
    pub fn footprint_bytes(&self) -> u32 {
        self.overrides.footprint()
    }

    /// The slots the bundle overrides so far.
    pub fn overrides(&self) -> &Overrides {
        &self.overrides
    }

    /// Refuses a call a bundle cannot make at all, named `call`, with `unsupported_in_bundle`
    /// (R-B-8), counted and kept like any refused call (R-REC-8). The recorder has no method for
    /// such a call (`execute_command_list`, `draw_bundle`, `insert_fence`, `present`): this is
    /// for an interpreter that replays calls by name, such as the executor's trace replay, so
    /// that a trace calling one on a bundle gets the error a bundle raises.
    #[cold]
    pub fn refuse_unsupported(&mut self, call: &'static str) {
        self.context.refuse(Error::UnsupportedInBundle { call });
    }

    /// Refuses a call of a capability a bundle recorder has not (it has [`BindCalls`],
    /// [`FastBindCalls`] and [`DrawCalls`]), named `call`, with the capability's bundle refusal:
    /// `inherited_state_in_bundle` for the state a bundle always inherits (R-B-7),
    /// `unsupported_in_bundle` for the rest (R-B-8); counted and kept like any refused call
    /// (R-REC-8). The recorder has no method for such a call: this is for an interpreter that
    /// replays calls by name (the trace replay). A capability the recorder has refuses nothing:
    /// make the call itself.
    #[cold]
    pub fn refuse_missing_capability(&mut self, call: &'static str, capability: Capability) {
        match capability.bundle_refusal() {
            Some(ErrorKind::InheritedStateInBundle) => {
                self.context.refuse(Error::InheritedStateInBundle { call })
            }
            Some(_) => self.context.refuse(Error::UnsupportedInBundle { call }),
            None => {}
        }
    }

    /// Ends the bundle: the [`DrawBundle`], or its first error with the index of the call that
    /// raised it (R-REC-8; a bundle with an error is discarded). The recorder then starts a new
    /// bundle with the same declaration.
    pub fn finish(&mut self) -> Result<DrawBundle, RecordError> {
        let footprint = self.overrides.footprint();
        self.mandatory = Mandatory::default();
        self.overrides = Overrides::default();
        let shared =
            self.context
                .finish_registered_bundle(self.declaration, footprint, &self.name)?;
        tracing::debug!(
            bundle = &*self.name,
            draws = shared.body().stats().draws,
            bytes = shared.body().stats().bytes,
            footprint,
            "finish bundle"
        );
        Ok(DrawBundle::new(&self.device, shared))
    }

    // ----- helpers -----------------------------------------------------------------------------

    /// Forwards a call to the recorder; whether it accepted it.
    #[inline(always)]
    pub(crate) fn forward(&mut self, call: impl FnOnce(&mut Recorder<BundleRole>)) -> bool {
        let before = self.context.refused_calls();
        call(&mut self.context);
        self.context.refused_calls() == before
    }

    /// Whether a bind of `count` slots of `kind` from `start` overrides only slots the bundle
    /// overrides already (R-B-4), which cost the budget nothing (R-B-5): the usual bind, which a
    /// hot call forwards itself (`bundle_binds.rs`: the recorder's call written in the method,
    /// where it inlines as on a deferred context), then checks with
    /// [`forwarded_accepted`](Self::forwarded_accepted) where the recorder's call says whether
    /// it accepted (constant and vertex buffers), else with [`forwarded`](Self::forwarded).
    /// Anything else takes [`bind`](Self::bind) (through the cold `set_*_growing` methods).
    #[inline(always)]
    pub(crate) fn covered(&self, kind: SlotKind, stage: Stage, start: u32, count: usize) -> bool {
        u32::try_from(count).is_ok_and(|n| self.overrides.covers(kind, stage, start, n))
    }

    /// After a [`covered`](Self::covered) bind was forwarded (`before`: the recorder's refused
    /// calls before it): a refusal gets R-B-6's precedence (see [`refused_bind`](Self::refused_bind)).
    #[inline(always)]
    pub(crate) fn forwarded(
        &mut self,
        before: u32,
        encapsulable: impl Fn(&Self) -> Result<(), Error>,
    ) {
        if self.context.refused_calls() != before {
            return self.refused_bind(encapsulable);
        }
        debug_assert!(
            encapsulable(self).is_ok(),
            "the recorder accepted a bind of an object a bundle cannot encapsulate"
        );
    }

    /// [`forwarded`](Self::forwarded) for a call that said whether the recorder accepted it
    /// (`Recorder::accepted_constant_buffers`): nothing to test on the hot path, where the
    /// answer is a constant.
    #[inline(always)]
    pub(crate) fn forwarded_accepted(
        &mut self,
        accepted: bool,
        encapsulable: impl Fn(&Self) -> Result<(), Error>,
    ) {
        if !accepted {
            return self.refused_bind(encapsulable);
        }
        debug_assert!(
            encapsulable(self).is_ok(),
            "the recorder accepted a bind of an object a bundle cannot encapsulate"
        );
    }

    /// A bind that overrides `count` slots of `kind` from `start` (R-B-4, R-B-5): refused if it
    /// would take the footprint over the budget; otherwise forwarded, and the slots counted if
    /// the recorder accepted it. A range out of bounds goes to the recorder, which refuses it.
    ///
    /// `encapsulable` is the bind's R-B-6 check, whose `not_encapsulable` takes precedence over
    /// every other error (see [`refused_bind`](Self::refused_bind)); it is run only when the bind
    /// is refused, never on the way of an accepted one.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn bind(
        &mut self,
        call: &'static str,
        kind: SlotKind,
        stage: Stage,
        start: u32,
        count: usize,
        encapsulable: impl Fn(&Self) -> Result<(), Error>,
        forward: impl FnOnce(&mut Recorder<BundleRole>),
    ) {
        let growth = u32::try_from(count)
            .ok()
            .and_then(|count| self.overrides.grow(kind, stage, start, count));
        if let Some(growth) = growth {
            if growth.footprint() > BUNDLE_BUDGET_BYTES {
                let total = growth.footprint();
                return self.over_budget(call, kind, stage, start, count, total, encapsulable);
            }
        }
        if self.forward(forward) {
            debug_assert!(
                encapsulable(self).is_ok(),
                "the recorder accepted a bind of an object a bundle cannot encapsulate"
            );
            if let Some(growth) = growth {
                self.overrides.apply(growth);
            }
        } else {
            self.refused_bind(encapsulable);
        }
    }

    /// A bind the recorder refused: if it names an object a bundle cannot encapsulate, the
    /// refusal is `not_encapsulable` (R-B-6), whatever the recorder found first.
    ///
    /// Checking R-B-6 only here is exact: the only buffers a bundle cannot encapsulate are
    /// dynamic ones, and the recorder refuses every bind of a dynamic buffer in the bundle role
    /// (fast semantics, and a bundle cannot map, so no dynamic buffer is ever mapped write_discard
    /// on it: `dynamic_before_map`, R-SP-3). So a bind the recorder accepts never needs the
    /// check, and a refused one gets the error the check-first order gave it. The recorder
    /// resolved each buffer already; the bind itself looks nothing up twice.
    #[cold]
    #[inline(never)]
    pub(crate) fn refused_bind(&mut self, encapsulable: impl Fn(&Self) -> Result<(), Error>) {
        if let Err(error) = encapsulable(self) {
            self.context.replace_refusal(error);
        }
    }

    /// Refuses a bind that would take the footprint to `total`, over the budget (R-B-5), unless
    /// it names an object a bundle cannot encapsulate, which takes precedence (R-B-6).
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn over_budget(
        &mut self,
        call: &'static str,
        kind: SlotKind,
        stage: Stage,
        start: u32,
        count: usize,
        total: u32,
        encapsulable: impl Fn(&Self) -> Result<(), Error>,
    ) {
        if let Err(error) = encapsulable(self) {
            return self.context.refuse(error);
        }
        let slots = match kind {
            SlotKind::IndexBuffer => "the index buffer".to_string(),
            SlotKind::VertexBuffer => {
                format!("vertex-buffer slots {start}..{}", start as usize + count)
            }
            _ => format!(
                "{} {} slots {start}..{}",
                stage.name(),
                kind.name(),
                start as usize + count
            ),
        };
        self.context.refuse(Error::BudgetExceeded {
            call,
            slot: slots,
            total,
            budget: BUNDLE_BUDGET_BYTES,
        });
    }

    /// R-B-6 for a buffer: dynamic usage cannot be encapsulated. A handle the device no longer
    /// knows passes here; the recorder reports it.
    pub(crate) fn buffer_encapsulable(
        &self,
        call: &'static str,
        buffer: Buffer,
    ) -> Result<(), Error> {
        match self.device.buffer_info(buffer) {
            Some(info) if info.usage == Usage::Dynamic => Err(Error::NotEncapsulable {
                call,
                object: self.object_name(buffer),
                reason: "dynamic usage",
            }),
            _ => Ok(()),
        }
    }

    /// [`buffer_encapsulable`](Self::buffer_encapsulable) for each buffer, in order: the first
    /// that cannot be encapsulated.
    pub(crate) fn buffers_encapsulable(
        &self,
        call: &'static str,
        buffers: impl IntoIterator<Item = Buffer>,
    ) -> Result<(), Error> {
        buffers
            .into_iter()
            .try_for_each(|buffer| self.buffer_encapsulable(call, buffer))
    }

    /// R-B-6 for a shader-resource view: not on a dynamic buffer, nor on a render target or a
    /// depth stencil.
    pub(crate) fn view_encapsulable(
        &self,
        call: &'static str,
        view: ShaderResourceView,
    ) -> Result<(), Error> {
        let Some(info) = self.device.view_info(view) else {
            return Ok(());
        };
        let reason = match info.resource {
            Resource::Buffer(buffer) => self
                .device
                .buffer_info(buffer)
                .is_some_and(|b| b.usage == Usage::Dynamic)
                .then_some("a view on a dynamic buffer"),
            Resource::Texture(texture) => self
                .device
                .texture_info(texture)
                .is_some_and(|t| {
                    t.bind
                        .intersects(BindFlags::RENDER_TARGET | BindFlags::DEPTH_STENCIL)
                })
                .then_some("a view on a render target or depth stencil"),
        };
        match reason {
            Some(reason) => Err(Error::NotEncapsulable {
                call,
                object: self.object_name(view),
                reason,
            }),
            None => Ok(()),
        }
    }

    pub(crate) fn object_name<H: Handle>(&self, handle: H) -> ObjectName {
        ObjectName {
            kind: H::KIND,
            handle: handle.raw(),
            name: self.device.name_of(handle),
        }
    }

    /// R-B-3 before a draw (`need` = graphics) or a dispatch (compute).
    #[cold]
    #[inline(never)]
    pub(crate) fn mandatory(&self, call: &'static str, need: u8) -> Result<(), Error> {
        match self.mandatory.missing(need) {
            None => Ok(()),
            Some(missing) => Err(Error::MissingMandatoryState {
                call,
                missing,
                what: if need == Mandatory::COMPUTE {
                    "dispatch"
                } else {
                    "draw"
                },
            }),
        }
    }

    /// A draw or dispatch: mandatory state first, then the recorder.
    #[inline]
    pub(crate) fn draw_call(
        &mut self,
        call: &'static str,
        need: u8,
        forward: impl FnOnce(&mut Recorder<BundleRole>),
    ) {
        if self.mandatory.has(need) {
            return forward(&mut self.context);
        }
        match self.mandatory(call, need) {
            Ok(()) => forward(&mut self.context),
            Err(error) => self.context.refuse(error),
        }
    }

    // ----- encapsulated state (R-B-4) ----------------------------------------------------------

    /// The slot of a fast entry in the budget's terms: kind, stage, slot.
    pub(crate) fn fast_slot(entry: &FastResource) -> (SlotKind, Stage, u32) {
        match *entry {
            FastResource::ConstantBuffer { stage, slot, .. } => {
                (SlotKind::ConstantBuffer, stage, slot)
            }
            FastResource::ShaderResource { stage, slot, .. } => {
                (SlotKind::ShaderResource, stage, slot)
            }
            FastResource::Sampler { stage, slot, .. } => (SlotKind::Sampler, stage, slot),
            FastResource::VertexBuffer { slot, .. } => {
                (SlotKind::VertexBuffer, Stage::Vertex, slot)
            }
        }
    }

    /// The buffers of fast entries (R-B-6's check of them).
    pub(crate) fn fast_buffers(entries: &[FastResource]) -> impl Iterator<Item = Buffer> + '_ {
        entries.iter().filter_map(|entry| match *entry {
            FastResource::ConstantBuffer { buffer, .. } => buffer,
            FastResource::VertexBuffer { buffer, .. } => buffer.buffer,
            _ => None,
        })
    }

    /// A call of many fast entries as one call (R-FX-1): the views' R-B-6 check first (the
    /// recorder accepts a view of a target), then the budget with every entry's slot added
    /// (R-B-5, refused at the first entry past it), then `forward`, the recorder's one call,
    /// which refuses as a whole; its refusal becomes `not_encapsulable` for a dynamic buffer.
    pub(crate) fn fast_entries(
        &mut self,
        call: &'static str,
        entries: &[FastResource],
        forward: impl FnOnce(&mut Recorder<BundleRole>),
    ) {
        for entry in entries {
            if let FastResource::ShaderResource {
                view: Some(view), ..
            } = *entry
            {
                if let Err(error) = self.view_encapsulable(call, view) {
                    return self.context.refuse(error);
                }
            }
        }
        let encapsulable =
            |this: &Self| this.buffers_encapsulable(call, Self::fast_buffers(entries));
        // A slot out of range leaves the overrides as they are: the recorder refuses the call.
        let mut next = Some(self.overrides);
        for entry in entries {
            let (kind, stage, slot) = Self::fast_slot(entry);
            next = next.and_then(|overrides| overrides.with(kind, stage, slot, 1));
            if let Some(total) = next.map(|o| o.footprint()) {
                if total > BUNDLE_BUDGET_BYTES {
                    return self.over_budget(call, kind, stage, slot, 1, total, encapsulable);
                }
            }
        }
        if self.forward(forward) {
            if let Some(next) = next {
                self.overrides = next;
            }
        } else {
            self.refused_bind(encapsulable);
        }
    }

    /// One fast entry (placed at `address` if given) as the bind of its slot (see
    /// [`set_fast_resources`](Self::set_fast_resources)).
    pub(crate) fn fast_entry(
        &mut self,
        call: &'static str,
        entry: FastResource,
        address: Option<u64>,
    ) {
        let forward = move |c: &mut Recorder<BundleRole>| match (address, entry) {
            (None, _) => c.set_fast_resources(std::slice::from_ref(&entry)),
            (
                Some(a),
                FastResource::ShaderResource {
                    stage,
                    slot,
                    view: Some(v),
                },
            ) => c.set_placement_shader_resource(stage, slot, v, a),
            (
                Some(a),
                FastResource::ConstantBuffer {
                    stage,
                    slot,
                    buffer: Some(b),
                },
            ) => c.set_placement_constant_buffer(stage, slot, b, a),
            (Some(a), FastResource::VertexBuffer { slot, buffer: v }) => match v.buffer {
                Some(b) => c.set_placement_vertex_buffer(slot, b, v.stride, v.offset, a),
                None => c.set_fast_resources(std::slice::from_ref(&entry)),
            },
            (Some(_), _) => c.set_fast_resources(std::slice::from_ref(&entry)),
        };
        match entry {
            FastResource::ConstantBuffer {
                stage,
                slot,
                buffer,
            } => self.bind(
                call,
                SlotKind::ConstantBuffer,
                stage,
                slot,
                1,
                |this| this.buffers_encapsulable(call, buffer),
                forward,
            ),
            FastResource::VertexBuffer { slot, buffer } => self.bind(
                call,
                SlotKind::VertexBuffer,
                Stage::Vertex,
                slot,
                1,
                |this| this.buffers_encapsulable(call, buffer.buffer),
                forward,
            ),
            FastResource::Sampler { stage, slot, .. } => {
                self.bind(call, SlotKind::Sampler, stage, slot, 1, |_| Ok(()), forward)
            }
            FastResource::ShaderResource { stage, slot, view } => {
                if let Some(view) = view {
                    if let Err(error) = self.view_encapsulable(call, view) {
                        return self.context.refuse(error);
                    }
                }
                let kind = SlotKind::ShaderResource;
                self.bind(call, kind, stage, slot, 1, |_| Ok(()), forward)
            }
        }
    }

    // ----- remapping (R-B-9) -------------------------------------------------------------------

    /// Later draws read constant-buffer slot (`stage`, `slot`) from the executing context's
    /// (`inherit_stage`, `inherit_slot`), as bound when the bundle executes: never from another
    /// remap or an encapsulated override (no chains). Remapping a slot to itself cancels an
    /// override. Costs no budget.
    pub fn remap_constant_buffer_inheritance(
        &mut self,
        stage: Stage,
        slot: u32,
        inherit_stage: Stage,
        inherit_slot: u32,
    ) {
        self.remap(
            RemapKind::ConstantBuffer,
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        );
    }

    /// As [`remap_constant_buffer_inheritance`](Self::remap_constant_buffer_inheritance), for a
    /// shader-resource slot.
    pub fn remap_shader_resource_inheritance(
        &mut self,
        stage: Stage,
        slot: u32,
        inherit_stage: Stage,
        inherit_slot: u32,
    ) {
        self.remap(
            RemapKind::ShaderResource,
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        );
    }

    /// As [`remap_constant_buffer_inheritance`](Self::remap_constant_buffer_inheritance), for a
    /// sampler slot.
    pub fn remap_sampler_inheritance(
        &mut self,
        stage: Stage,
        slot: u32,
        inherit_stage: Stage,
        inherit_slot: u32,
    ) {
        self.remap(RemapKind::Sampler, stage, slot, inherit_stage, inherit_slot);
    }

    /// As [`remap_constant_buffer_inheritance`](Self::remap_constant_buffer_inheritance), for a
    /// vertex-buffer slot of the input assembler.
    pub fn remap_vertex_buffer_inheritance(&mut self, slot: u32, inherit_slot: u32) {
        self.remap(
            RemapKind::VertexBuffer,
            Stage::Vertex,
            slot,
            Stage::Vertex,
            inherit_slot,
        );
    }

    pub(crate) fn remap(
        &mut self,
        kind: RemapKind,
        stage: Stage,
        slot: u32,
        inherit_stage: Stage,
        inherit_slot: u32,
    ) {
        self.context.remap_inheritance(Remap {
            kind,
            stage,
            slot,
            inherit_stage,
            inherit_slot,
        });
    }

    // ----- draws (R-B-2) -----------------------------------------------------------------------
}

impl std::fmt::Debug for BundleRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BundleRecorder")
            .field("name", &self.name)
            .field("declaration", &self.declaration)
            .field("footprint", &self.overrides.footprint())
            .field("stats", &self.context.stats())
            .finish_non_exhaustive()
    }
}

/// The bundle's recording core, for the capabilities' default methods; the bundle recorder
/// overrides every call it has, to check SPEC §7 first (`bundle_binds.rs`,
/// `bundle_fast_binds.rs`, `bundle_draws.rs`).
impl Context for BundleRecorder {
    type Role = BundleRole;

    #[inline(always)]
    fn recorder(&mut self, _access: CoreAccess) -> &mut Recorder<BundleRole> {
        &mut self.context
    }

    #[inline(always)]
    fn recorder_ref(&self, _access: CoreAccess) -> &Recorder<BundleRole> {
        &self.context
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mandatory_names_what_is_missing() {
        let mut mandatory = Mandatory::default();
        assert_eq!(
            mandatory.missing(Mandatory::GRAPHICS).as_deref(),
            Some("vs, hs, ds, gs, ps, the input layout")
        );
        mandatory.set_stage(Stage::Vertex);
        mandatory.set_stage(Stage::Pixel);
        mandatory.set_input_layout();
        assert_eq!(
            mandatory.missing(Mandatory::GRAPHICS).as_deref(),
            Some("hs, ds, gs")
        );
        assert_eq!(mandatory.missing(Mandatory::COMPUTE).as_deref(), Some("cs"));
        mandatory.set_stage(Stage::Compute);
        assert_eq!(mandatory.missing(Mandatory::COMPUTE), None);
    }
}
