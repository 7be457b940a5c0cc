//! Deterministic hazard detection (R-V-2), under `validation=hazards` only: the GPU model keeps
//! every write that no barrier has covered yet, with the call that made it, and reports a later
//! access of the same subresources through another path as `hazard`, naming both calls.
//!
//! **What is a write.** A draw's bound render targets and depth stencil (written through the
//! output merger), the UAVs at the slots a draw's or a dispatch's shaders read (read and
//! written), a copy's destination (`copy_resource`, `copy_buffer_region`,
//! `copy_texture_region`, `update_subresource`, `copy_structure_count`'s buffer), a clear (`clear_render_target_view`,
//! `clear_depth_stencil_view`). **What is a read.** The shader-resource views at the slots the
//! bound shaders read, the constant, vertex and index buffers a draw reads, indirect arguments,
//! a copy's source, the hidden counter `copy_structure_count` reads. Each use covers the
//! subresources it reaches: a view's mips and slices (`ViewInfo`); a region copy's bytes of a
//! buffer, or texels of one subresource (its mip and slice, `mip + slice * mips`) of a texture
//! (R-BAR-7); the whole resource for the other copies and for buffers. A bind alone is no use
//! (the model sees uses at draws, copies and clears). So a self-copy of non-overlapping
//! regions (`copy_buffer_region` / `copy_texture_region` with one resource as source and
//! destination, R-BAR-7) is no hazard (its read and write are one call), and a later copy of
//! a region it did not write is none either; a copy reading, or writing, a region an earlier
//! call wrote is one.
//!
//! **When a use is a hazard.** A use of subresources that an earlier call wrote and no barrier
//! has covered since, unless: the earlier call is this one (a draw's own uses are not checked
//! against each other); the use goes through the same path as the write (the same render-target
//! or depth-stencil view again, by a draw or a clear: the output merger orders its own writes);
//! or both calls were made under legacy semantics (the driver responds itself, R-ST-10, across
//! lists too: the write is then taken as flushed). A UAV is never the same path twice: a later
//! draw or dispatch using a written UAV needs a UAV barrier (or any barrier covering it). Two
//! copies writing one resource are not ordered either. Once reported, the write is forgotten
//! (one report per missing barrier); the call still runs.
//!
//! **What covers a write.** Only a barrier the model accepted (R-BAR-8: a refused barrier has
//! no effect; `gpu/barrier_response.rs` hands each accepted barrier over as it runs it). An enhanced
//! barrier whose `sync_before` includes the stage that
//! wrote (render target, depth stencil, vertex / pixel / compute shading, copy; `all`, `draw`,
//! `all_shading`, `non_pixel_shading` as D3D12 groups them) and whose `access_before` includes
//! the access (`common` includes every one): a global barrier for every resource, a buffer
//! barrier for its buffer, a texture barrier for the mips and slices it names (planes are not
//! told apart). A legacy transition of the resource (all of it, or the one subresource it
//! names), a legacy UAV barrier of the resource (or of every resource) for UAV writes, an
//! aliasing barrier for both resources it names (every resource for `None`). The end of a split
//! barrier covers nothing: the begin did the work (R-BAR-4). No flush happens at an
//! `execute_command_list` boundary (R-BAR-5): writes stay pending across lists.
//!
//! **Deactivated aliases** (R-BAR-7). Every use above (read or write, through any view, as a
//! copy's source or destination, by a draw, dispatch, copy or clear) of a placed resource that
//! is not active (`GpuModel::deactivated_by`, `gpu/placed.rs`: another resource was activated
//! over its bytes since its own activation, or a legacy aliasing barrier named it `before`) is a
//! `hazard` naming the use and the call that activated the alias over its bytes (or deactivated
//! it by name): the tracker is told, with the current call, of each activation the model runs.
//! Whatever the semantics (no driver response re-activates an alias). Reported once per
//! deactivation (uses after the first report are not reported again until the resource is
//! activated and deactivated again); the pending writes are checked as for any use. The calls
//! kept are those of the activations the placed model still keeps (pruned as they pile up).
//!
//! **Call identity.** The model counts the commands it applies: a command of a list is named by
//! the list (the serial of the context that recorded it, the number of the top-level
//! `execute_command_list` that ran it, whether it is nested) and its index among the list's
//! commands (0-based, in the order `CommandList::commands` yields them; the immediate context
//! tells the model where each list begins and ends, `Submission::ListBegin` / `ListEnd`, at
//! every list execution); a direct call of the immediate context by its index among every
//! direct command the context ran. A draw of a bundle is named by the `draw_bundle` command that
//! called it. The index is the call's index when each call recorded one command, which is the
//! rule; a legacy list starting from carried state begins with the re-bind commands its
//! recorder added, and a legacy output bind that unbinds shader-resource views (R-ST-10) adds
//! one: the index counts those too. Nothing of this runs unless the device validates hazards:
//! the recording path is untouched, and the model without hazards pays one test of an `Option`
//! per command.
//!
//! **Not built yet.** Write-after-read (a write while an earlier read may still run) is not
//! reported; nor are the writes of one alias and the later uses of another over the same bytes
//! (the tracker keys writes by resource, not by heap bytes: the activation's own rule covers
//! them).
//!
//! **Files.** This one: the tracker ([`Tracker`]), which counts the calls, checks each use and
//! notes each write, and takes out what barriers cover. `hazard_tracking/hazard_uses.rs`: what
//! it compares (uses, calls, pending writes) and which barrier covers which write.
//! `hazard_tracking/subresource_ranges.rs`: the ranges they reach, with their proptest.
//! `hazard_tracking/hazard_reports.rs`: the `hazard` messages.

use std::collections::HashMap;

use recorder::command::{BoundView, Command, ViewFlags};
use recorder::{
    BarrierKind, BarrierRecord, BarrierSync, DepthStencilView, Device, Error, Handle, ObjectKind,
    RawHandle, RenderTargetView, Resource, ResourceBarrierKind, ResourceBarrierRecord, Semantics,
    ShaderResourceView, SplitHalf, Stage, Texture, UnorderedAccessView,
};

use super::placed::Placed;

use crate::draw_record::{Draw, DrawArgs, ViewRecord};

mod hazard_reports;
mod hazard_uses;
mod subresource_ranges;

use hazard_reports::{report, report_alias};
use hazard_uses::{access_covers, key_of, method, resource_of, sync_covers};
use hazard_uses::{Key, Origin, Path, Site, Use, Write};
use subresource_ranges::Range;

/// A list being executed: its origin, its semantics and the index of its next command.
#[derive(Debug)]
struct Frame {
    origin: Origin,
    semantics: Semantics,
    next: u64,
}

/// The hazard tracker of a model whose device validates hazards.
#[derive(Debug)]
pub(super) struct Tracker {
    device: Device,
    writes: HashMap<Key, Vec<Write>>,
    /// The lists being executed, outermost first; empty for direct calls.
    lists: Vec<Frame>,
    /// Direct commands applied so far.
    direct: u64,
    /// The semantics of the last direct command (the immediate context's).
    direct_semantics: Semantics,
    /// Top-level `execute_command_list`s begun so far.
    executions: u32,
    /// Inside a bundle call: its draws are named by the `draw_bundle` command.
    in_bundle: bool,
    /// The command being applied.
    site: Site,
    /// Scratch, kept for its capacity.
    uses: Vec<Use>,
    pieces: Vec<Range>,
    /// The call that last activated each placed resource (R-BAR-7), for the reports of uses of
    /// the aliases it deactivated.
    activated_by: HashMap<Key, Site>,
    /// The call (a legacy aliasing barrier) that deactivated a placed resource by name.
    deactivated_at: HashMap<Key, Site>,
    /// Deactivated aliases already reported, with the alias and the call the report named: one
    /// report per deactivation, not one per use.
    alias_reported: HashMap<Key, (Key, Option<Site>)>,
}

impl Tracker {
    /// Whether the one write pending on `(resource, buffer)` is a copy of the whole resource
    /// made under `semantics` by a call of that semantics (`GpuModel::pending_whole_copy_write`).
    pub(super) fn lone_whole_copy_write(
        &self,
        resource: RawHandle,
        buffer: bool,
        semantics: Semantics,
    ) -> bool {
        match self.writes.get(&(resource, buffer)).map(Vec::as_slice) {
            Some([write]) => {
                write.path == Path::CopyDest
                    && write.range == Range::ALL
                    && write.site.semantics == semantics
                    && write.site.context == semantics
            }
            _ => false,
        }
    }

    pub(super) fn new(device: Device) -> Self {
        Self {
            device,
            writes: HashMap::new(),
            lists: Vec::new(),
            direct: 0,
            direct_semantics: Semantics::Fast,
            executions: 0,
            in_bundle: false,
            site: Site {
                origin: Origin::Direct,
                command: 0,
                method: "",
                semantics: Semantics::Fast,
                context: Semantics::Fast,
                inner: 0,
            },
            uses: Vec::new(),
            pieces: Vec::new(),
            activated_by: HashMap::new(),
            deactivated_at: HashMap::new(),
            alias_reported: HashMap::new(),
        }
    }

    /// The barrier being applied activated placed `resource` (`true`), or deactivated it by
    /// name (a legacy aliasing barrier's before).
    pub(super) fn activation(&mut self, resource: Resource, activated: bool) {
        let key = key_of(resource);
        if activated {
            self.activated_by.insert(key, self.site);
            self.deactivated_at.remove(&key);
            self.alias_reported.remove(&key);
        } else {
            self.deactivated_at.insert(key, self.site);
        }
    }

    /// Forgets the calls of activations the placed model no longer keeps (they can no longer
    /// name a deactivated alias), once they are many: the maps stay as large as the model's.
    pub(super) fn prune(&mut self, placed: &Placed) {
        let kept = self.activated_by.len() + self.deactivated_at.len();
        if kept <= 64 || kept <= 2 * placed.remembered() {
            return;
        }
        let remembered = |key: &Key| placed.remembers(resource_of(*key));
        self.activated_by.retain(|key, _| remembered(key));
        self.deactivated_at.retain(|key, _| remembered(key));
        self.alias_reported.retain(|_, (by, _)| remembered(by));
    }

    /// A list of `semantics` recorded by the context with serial `recorder` begins (nested in
    /// the current one, if any).
    pub(super) fn list_begin(&mut self, recorder: u32, semantics: Semantics) {
        if let Some(outer) = self.lists.last_mut() {
            // The outer list's execute_command_list command.
            outer.next += 1;
        }
        let (execution, depth) = match self.lists.last() {
            Some(Frame {
                origin: Origin::List {
                    execution, depth, ..
                },
                ..
            }) => (*execution, depth + 1),
            _ => {
                self.executions += 1;
                (self.executions, 0)
            }
        };
        self.lists.push(Frame {
            origin: Origin::List {
                recorder,
                execution,
                depth,
            },
            semantics,
            next: 0,
        });
    }

    /// The current list ends.
    pub(super) fn list_end(&mut self) {
        self.lists.pop();
    }

    /// A bundle call begins (`true`: the `draw_bundle` command is the next command) or ends.
    pub(super) fn bundle(&mut self, begins: bool) {
        if begins {
            let semantics = match self.lists.last() {
                Some(frame) => frame.semantics,
                None => self.direct_semantics,
            };
            self.next_command("draw_bundle", semantics);
        }
        self.in_bundle = begins;
    }

    fn next_command(&mut self, method: &'static str, semantics: Semantics) {
        let (origin, command) = match self.lists.last_mut() {
            Some(frame) => {
                frame.next += 1;
                (frame.origin, frame.next - 1)
            }
            None => {
                self.direct += 1;
                self.direct_semantics = semantics;
                (Origin::Direct, self.direct - 1)
            }
        };
        self.site = Site {
            origin,
            command,
            method,
            semantics,
            context: semantics,
            inner: 0,
        };
    }

    /// A command is applied: counts it, and checks the uses of a copy or a clear.
    pub(super) fn command(
        &mut self,
        command: &Command<'_>,
        semantics: Semantics,
        placed: &Placed,
        violations: &mut Vec<Error>,
    ) {
        if self.in_bundle {
            // A bundle's commands are named by the draw_bundle call and their index in it.
            self.site.semantics = semantics;
            self.site.method = method(command);
            self.site.inner += 1;
        } else {
            self.next_command(method(command), semantics);
        }
        let mut uses = std::mem::take(&mut self.uses);
        uses.clear();
        match *command {
            Command::ClearRenderTargetView { view, .. } => self.view_use(
                &mut uses,
                view,
                Path::RenderTarget,
                BarrierSync::RENDER_TARGET,
            ),
            Command::ClearDepthStencilView { view, .. } => self.view_use(
                &mut uses,
                &view,
                Path::DepthStencil,
                BarrierSync::DEPTH_STENCIL,
            ),
            Command::CopyResource {
                destination,
                source,
            } => {
                let whole = |r: recorder::command::BoundResource, path| Use {
                    key: (r.resource, r.is_texture == 0),
                    range: Range::ALL,
                    path,
                    view: RawHandle::NULL,
                    sync: BarrierSync::COPY,
                };
                uses.push(whole(*source, Path::CopySource));
                uses.push(whole(*destination, Path::CopyDest));
            }
            Command::UpdateSubresource { resource, .. } => uses.push(Use {
                key: (resource.resource, resource.is_texture == 0),
                range: Range::ALL,
                path: Path::CopyDest,
                view: RawHandle::NULL,
                sync: BarrierSync::COPY,
            }),
            Command::CopyStructureCount {
                destination, view, ..
            } => {
                self.view_use(&mut uses, view, Path::HiddenCounter, BarrierSync::COPY);
                uses.push(Use {
                    key: (destination.buffer, true),
                    range: Range::ALL,
                    path: Path::CopyDest,
                    view: RawHandle::NULL,
                    sync: BarrierSync::COPY,
                });
            }
            Command::CopyBufferRegion { .. } | Command::CopyTextureRegion { .. } => {
                self.region_uses(&mut uses, command)
            }
            _ => {}
        }
        if !uses.is_empty() {
            self.check(&uses, placed, violations);
        }
        self.uses = uses;
    }

    /// A draw or dispatch ran: checks and notes its uses.
    pub(super) fn draw(&mut self, record: &Draw<'_>, placed: &Placed, violations: &mut Vec<Error>) {
        let mut uses = std::mem::take(&mut self.uses);
        uses.clear();
        let buffer = |buffer: RawHandle, path| Use {
            key: (buffer, true),
            range: Range::ALL,
            path,
            view: RawHandle::NULL,
            sync: BarrierSync::NONE,
        };
        if let DrawArgs::Indirect(args) = record.args {
            uses.push(buffer(args.buffer, Path::IndirectArguments));
        }
        for stage in record.stages() {
            let sync = match stage.stage {
                Stage::Pixel => BarrierSync::PIXEL_SHADING,
                Stage::Compute => BarrierSync::COMPUTE_SHADING,
                _ => BarrierSync::VERTEX_SHADING,
            };
            for (_, b) in stage.constant_buffers {
                uses.push(buffer(b.buffer, Path::ConstantBuffer));
            }
            for (_, v) in stage.shader_resources {
                self.record_use(&mut uses, v, Path::ShaderResource, sync);
            }
            for (_, v) in stage.unordered_access_views {
                self.record_use(&mut uses, v, Path::Uav, sync);
            }
        }
        if let Some(graphics) = record.graphics() {
            uses.push(buffer(graphics.index_buffer.buffer, Path::IndexBuffer));
            for (_, b) in graphics.vertex_buffers {
                uses.push(buffer(b.buffer, Path::VertexBuffer));
            }
            for v in graphics.render_targets {
                self.record_use(&mut uses, v, Path::RenderTarget, BarrierSync::RENDER_TARGET);
            }
            let ds = &graphics.depth_stencil;
            self.record_use(
                &mut uses,
                ds,
                Path::DepthStencil,
                BarrierSync::DEPTH_STENCIL,
            );
        }
        uses.retain(|u| !u.key.0.is_null());
        self.check(&uses, placed, violations);
        self.uses = uses;
    }

    fn record_use(&self, uses: &mut Vec<Use>, view: &ViewRecord, path: Path, sync: BarrierSync) {
        let bound = BoundView {
            view: view.view,
            resource: view.resource,
            instance: view.instance,
            min_lod: view.min_lod,
            format: view.format,
            flags: view.flags,
            first_mip: 0,
        };
        self.view_use(uses, &bound, path, sync);
    }

    fn view_use(&self, uses: &mut Vec<Use>, view: &BoundView, path: Path, sync: BarrierSync) {
        if view.resource.is_null() {
            return;
        }
        let buffer = view.flags.has(ViewFlags::BUFFER);
        let range = if buffer {
            Range::ALL
        } else {
            self.view_range(path, view.view, view.resource)
        };
        uses.push(Use {
            key: (view.resource, buffer),
            range,
            path,
            view: view.view,
            sync,
        });
    }

    /// The mips and slices a texture view reaches (all, when the view is not known).
    fn view_range(&self, path: Path, view: RawHandle, texture: RawHandle) -> Range {
        let device = &self.device;
        let info = match path.view_kind() {
            Some(ObjectKind::RenderTargetView) => {
                device.view_info(RenderTargetView::from_raw(view))
            }
            Some(ObjectKind::DepthStencilView) => {
                device.view_info(DepthStencilView::from_raw(view))
            }
            Some(ObjectKind::UnorderedAccessView) => {
                device.view_info(UnorderedAccessView::from_raw(view))
            }
            Some(ObjectKind::ShaderResourceView) => {
                device.view_info(ShaderResourceView::from_raw(view))
            }
            _ => None,
        };
        let Some(info) = info else {
            return Range::ALL;
        };
        // Clamped to the texture's own mips and slices, so that reports read as the user wrote.
        let (mips, slices) = match self.device.texture_info(Texture::from_raw(texture)) {
            Some(t) => (t.mip_levels.max(1), t.array_size.max(1)),
            None => (u32::MAX, u32::MAX),
        };
        let span = |first: u32, count: u32, has: u32| {
            let last = first.saturating_add(count.max(1) - 1).min(has - 1);
            let first = first.min(last).min(u16::MAX as u32);
            (first as u16, last.min(u16::MAX as u32) as u16)
        };
        Range::subresources(
            span(info.first_mip, info.mip_count, mips),
            span(info.first_slice, info.slice_count, slices),
        )
    }

    /// A use of a placed resource that is not active is a use of a deactivated alias (R-BAR-7):
    /// reported once per deactivation, naming the call that activated the alias over its bytes
    /// (or deactivated it by name).
    fn check_alias(&mut self, u: &Use, placed: &Placed, violations: &mut Vec<Error>) {
        let resource = resource_of(u.key);
        let Some(by) = placed.deactivated_by(resource) else {
            return;
        };
        let by_key = key_of(by);
        let at = if by == resource {
            self.deactivated_at.get(&u.key)
        } else {
            self.activated_by.get(&by_key)
        }
        .copied();
        if self.alias_reported.get(&u.key) == Some(&(by_key, at)) {
            return;
        }
        self.alias_reported.insert(u.key, (by_key, at));
        violations.push(report_alias(&self.device, u, by, at, self.site));
    }

    /// Checks `uses`, all by the current call, for deactivated aliases and against the pending
    /// writes, then notes its writes.
    fn check(&mut self, uses: &[Use], placed: &Placed, violations: &mut Vec<Error>) {
        let site = self.site;
        for u in uses {
            self.check_alias(u, placed, violations);
            let Some(writes) = self.writes.get_mut(&u.key) else {
                continue;
            };
            let mut i = 0;
            while i < writes.len() {
                let w = writes[i];
                let same_path = w.view == u.view
                    && matches!(w.path, Path::RenderTarget | Path::DepthStencil)
                    && w.path == u.path;
                if w.site == site || !w.range.overlaps(&u.range) || same_path {
                    i += 1;
                    continue;
                }
                writes.swap_remove(i);
                let legacy = Semantics::Legacy;
                if w.site.semantics == legacy && site.semantics == legacy {
                    // The driver's own response (R-ST-10): the write is flushed.
                    continue;
                }
                violations.push(report(&self.device, u, &w, site));
            }
        }
        for u in uses.iter().filter(|u| u.path.writes()) {
            let writes = self.writes.entry(u.key).or_default();
            // The new write supersedes what it overlaps (anything else was reported above).
            let mut pieces = std::mem::take(&mut self.pieces);
            let mut i = 0;
            while i < writes.len() {
                if writes[i].site != site && writes[i].range.overlaps(&u.range) {
                    let old = writes.swap_remove(i);
                    pieces.clear();
                    old.range.minus(&u.range, &mut pieces);
                    writes.extend(pieces.iter().map(|&range| Write { range, ..old }));
                } else {
                    i += 1;
                }
            }
            self.pieces = pieces;
            writes.push(Write {
                range: u.range,
                path: u.path,
                view: u.view,
                sync: u.sync,
                site,
            });
        }
    }

    /// Takes out of the pending writes of `key` (every resource for `None`) what `covers`
    /// says, in `range`.
    fn cover(&mut self, key: Option<Key>, range: Range, covers: impl Fn(&Write) -> bool) {
        let mut pieces = std::mem::take(&mut self.pieces);
        let mut one = |writes: &mut Vec<Write>| {
            let mut i = 0;
            while i < writes.len() {
                let w = writes[i];
                if covers(&w) && w.range.overlaps(&range) {
                    // What is left lies outside `range`: looked at again at the end, and kept.
                    writes.swap_remove(i);
                    pieces.clear();
                    w.range.minus(&range, &mut pieces);
                    writes.extend(pieces.iter().map(|&range| Write { range, ..w }));
                } else {
                    i += 1;
                }
            }
        };
        match key {
            Some(key) => {
                if let Some(writes) = self.writes.get_mut(&key) {
                    one(writes);
                }
            }
            None => self.writes.values_mut().for_each(&mut one),
        }
        self.writes.retain(|_, w| !w.is_empty());
        self.pieces = pieces;
    }

    /// An enhanced barrier ran.
    pub(super) fn barrier(&mut self, barrier: &BarrierRecord) {
        let (sync, access) = (barrier.sync_before, barrier.access_before);
        let covers = move |w: &Write| sync_covers(sync, w.sync) && access_covers(access, w.path);
        match barrier.kind() {
            BarrierKind::Global => self.cover(None, Range::ALL, covers),
            BarrierKind::Buffer | BarrierKind::Texture => {
                let Some(resource) = barrier.resource() else {
                    return;
                };
                let key = (resource.handle, resource.kind == ObjectKind::Buffer);
                let range = if key.1 {
                    Range::ALL
                } else {
                    let s = barrier.subresources;
                    Range::subresources((s.mips.first, s.mips.last), (s.array.first, s.array.last))
                };
                self.cover(Some(key), range, covers);
            }
        }
    }

    /// A legacy resource barrier ran.
    pub(super) fn resource_barrier(&mut self, barrier: &ResourceBarrierRecord) {
        let key = |r: recorder::NamedResource| (r.handle, r.kind == ObjectKind::Buffer);
        match barrier.kind() {
            ResourceBarrierKind::Transition => {
                let Some(resource) = barrier.resource() else {
                    return;
                };
                if barrier.split() == SplitHalf::End {
                    return;
                }
                let key = key(resource);
                let range = match barrier.subresource() {
                    Some(index) if !key.1 => self.subresource_range(key.0, index),
                    _ => Range::ALL,
                };
                self.cover(Some(key), range, |_| true);
            }
            ResourceBarrierKind::Uav => {
                let uav = |w: &Write| w.path == Path::Uav;
                self.cover(barrier.resource().map(key), Range::ALL, uav);
            }
            ResourceBarrierKind::Aliasing => match (barrier.resource(), barrier.other()) {
                (None, _) | (_, None) => self.cover(None, Range::ALL, |_| true),
                (Some(before), Some(after)) => {
                    self.cover(Some(key(before)), Range::ALL, |_| true);
                    self.cover(Some(key(after)), Range::ALL, |_| true);
                }
            },
        }
    }

    /// The mip and slice of subresource `index` of `texture` (`D3D12CalcSubresource` order).
    fn subresource_range(&self, texture: RawHandle, index: u32) -> Range {
        let Some(info) = self.device.texture_info(Texture::from_raw(texture)) else {
            return Range::ALL;
        };
        let mips = info.mip_levels.max(1);
        let slices = info.array_size.max(1);
        let mip = (index % mips).min(u16::MAX as u32) as u16;
        let slice = ((index / mips) % slices).min(u16::MAX as u32) as u16;
        Range::subresources((mip, mip), (slice, slice))
    }

    /// The uses of a region copy (R-BAR-7): the bytes of each buffer, or the texels of one
    /// subresource of each texture, it reads and writes. An empty region uses nothing. A
    /// self-copy's two uses are of one call, so they are not checked against each other (the
    /// recorder refused overlapping regions).
    fn region_uses(&self, uses: &mut Vec<Use>, command: &Command<'_>) {
        let inclusive = |first: u64, count: u64| (first, first.saturating_add(count - 1));
        let mut push = |resource: recorder::command::BoundResource, range, path| {
            uses.push(Use {
                key: (resource.resource, resource.is_texture == 0),
                range,
                path,
                view: RawHandle::NULL,
                sync: BarrierSync::COPY,
            })
        };
        match *command {
            Command::CopyBufferRegion {
                destination,
                destination_offset,
                source,
                source_offset,
                bytes,
            } if bytes > 0 => {
                let bytes_at = |offset| Range {
                    x: inclusive(offset, bytes),
                    ..Range::ALL
                };
                push(*source, bytes_at(source_offset), Path::CopySource);
                push(*destination, bytes_at(destination_offset), Path::CopyDest);
            }
            Command::CopyTextureRegion {
                destination,
                destination_subresource,
                x,
                y,
                source,
                source_subresource,
                source_box: b,
            } if b.right > b.left && b.bottom > b.top => {
                let (w, h) = ((b.right - b.left) as u64, (b.bottom - b.top) as u64);
                let texels = |texture, index, x: u64, y: u64| Range {
                    x: inclusive(x, w),
                    y: inclusive(y, h),
                    ..self.subresource_range(texture, index)
                };
                let from = texels(
                    source.resource,
                    source_subresource,
                    b.left as u64,
                    b.top as u64,
                );
                push(*source, from, Path::CopySource);
                let to = texels(
                    destination.resource,
                    destination_subresource,
                    x as u64,
                    y as u64,
                );
                push(*destination, to, Path::CopyDest);
            }
            _ => {}
        }
    }
}

impl super::GpuModel {
    /// Under hazard validation, an enhanced barrier ran: what it covers is no longer pending.
    /// Called by `GpuModel::barrier` for each barrier it accepts (a refused one covers nothing,
    /// R-BAR-8).
    pub(super) fn hazards_barrier(&mut self, barrier: &BarrierRecord) {
        if let Some(hazards) = self.hazards.as_deref_mut() {
            hazards.barrier(barrier);
        }
    }

    /// Under hazard validation, the barrier being applied activated placed `resource` (`true`)
    /// or deactivated it by name (R-BAR-7): the tracker remembers the call, for its reports.
    pub(super) fn hazards_activated(&mut self, resource: Resource, activated: bool) {
        if let Some(hazards) = self.hazards.as_deref_mut() {
            hazards.activation(resource, activated);
            hazards.prune(&self.placed);
        }
    }

    /// Under hazard validation, a legacy barrier ran (accepted, as for `hazards_barrier`).
    pub(super) fn hazards_resource_barrier(&mut self, barrier: &ResourceBarrierRecord) {
        if let Some(hazards) = self.hazards.as_deref_mut() {
            hazards.resource_barrier(barrier);
        }
    }
}
