//! The device (R-OBJ-1): object tables, the chunk pool, the deferred-context count, and the
//! deferred-release list of legacy semantics (R-OBJ-4). `Device` is a cheap `Clone` handle to the
//! shared state; every context and list keeps the state alive. Creating objects is in
//! `device/create_objects.rs`; this file holds their life after that (release, destruction, lookups).
//! The views of a swap chain's back buffers, whose buffer a placement or a legacy present moves
//! (R-EX-7), are `device/swap_chain_views.rs`'s.

mod create_objects;
pub(crate) mod device_identity;
mod gpu_contents_store;
pub(crate) mod handle;
pub(crate) mod object_info;
mod swap_chain_views;
pub(crate) mod table;

use std::collections::HashMap;
use std::sync::Arc as StdArc;

use crate::chunk::{ChunkPolicy, ChunkPool, PoolStats};
use crate::context::refs::{Registry, SharedCounts};
use crate::desc::*;
use crate::device::device_identity::DeviceIdentity;
use crate::device::handle::*;
use crate::device::object_info::*;
use crate::device::table::{ObjectTable, ReleaseOutcome, Stale};
use crate::errors::{Error, ObjectName};
use crate::sync::{Arc, AtomicBool, AtomicU32, AtomicU64, Mutex, Ordering};

/// Opt-in validation of the fast-semantics contract (R-V-1, R-V-2), as the seeds' VALIDATED driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Validation {
    /// No validation (the default): fast-semantics violations go unchecked, as on the retail
    /// driver.
    #[default]
    Off,
    /// The executor's immediate context validates fast-semantics lists as it runs them (R-V-1) and
    /// reports what it finds.
    On,
    /// `On`, plus deterministic hazard detection (SPEC §9, R-V-2): the executor's GPU model
    /// reports a write and a later access through another path without a covering barrier.
    Hazards,
}

crate::desc::word_table! {
    Validation {
        Off => "off",
        On => "on",
        Hazards => "hazards",
    }
}

/// How to create a device.
#[derive(Clone, Debug)]
pub struct DeviceDesc {
    /// Semantics of the immediate context.
    pub immediate_semantics: Semantics,
    /// Whether the executor validates the fast-semantics contract (R-V-1); off by default.
    pub validation: Validation,
    /// Chunk size, growth and pool limit for every deferred context that does not bring its own.
    pub chunk_policy: ChunkPolicy,
    /// Legacy resource barriers translated beside enhanced ones (the seed's
    /// `DisableLegacyResourceBarrierTranslation` is `false`; R-BAR-6): on by default. Off, once
    /// either kind of barrier has run on the device, a barrier of the other kind is
    /// `invalid_barrier`.
    pub legacy_barriers: bool,
}

impl Default for DeviceDesc {
    fn default() -> Self {
        Self {
            immediate_semantics: Semantics::default(),
            validation: Validation::default(),
            chunk_policy: ChunkPolicy::default(),
            legacy_barriers: true,
        }
    }
}

/// Everything the device shares with its contexts and lists.
///
/// Aligned to 128 bytes so that, behind its `Arc`, the reference counts (which every `Device`
/// clone and every finished list's header changes, from any thread) have their cache lines to
/// themselves: the fields after them (the tables' segments, which every bind reads) are never
/// taken from under a reader by a count's read-modify-write.
#[repr(align(128))]
pub(crate) struct DeviceShared {
    pub(crate) desc: DeviceDesc,
    /// The tag every handle of this device carries, and the device's number (R-OBJ-3).
    pub(crate) identity: DeviceIdentity,
    pub(crate) buffers: ObjectTable<BUFFER_WORDS>,
    pub(crate) textures: ObjectTable<TEXTURE_WORDS>,
    pub(crate) shader_resource_views: ObjectTable<VIEW_WORDS>,
    pub(crate) unordered_access_views: ObjectTable<VIEW_WORDS>,
    pub(crate) render_target_views: ObjectTable<VIEW_WORDS>,
    pub(crate) depth_stencil_views: ObjectTable<VIEW_WORDS>,
    pub(crate) shaders: ObjectTable<SHADER_WORDS>,
    pub(crate) input_layouts: ObjectTable<1>,
    pub(crate) blend_states: ObjectTable<0>,
    pub(crate) rasterizer_states: ObjectTable<0>,
    pub(crate) depth_stencil_states: ObjectTable<0>,
    pub(crate) sampler_states: ObjectTable<0>,
    pub(crate) queries: ObjectTable<1>,
    pub(crate) swap_chains: ObjectTable<SWAP_CHAIN_WORDS>,
    /// Registered draw bundles: the address of the bundle's commands (a list header on which
    /// the entry holds one reference). Lists call bundles by handle: a fast list takes no
    /// reference and a released bundle is found stale at execution (R-OBJ-3, R-OBJ-4).
    pub(crate) bundles: ObjectTable<BUNDLE_WORDS>,
    /// Heaps (R-BAR-7): their size. A placed resource holds one reference on its heap for its
    /// whole life, as a view on its resource (R-OBJ-4).
    pub(crate) heaps: ObjectTable<HEAP_WORDS>,
    /// Where each placed buffer and texture is (R-BAR-7), by kind and handle: written at its
    /// creation and destruction, read by [`Device::placement`] (the GPU model, the
    /// application); never on the recording path, whose descriptor words it leaves as they
    /// were.
    pub(crate) placements: Mutex<HashMap<(ObjectKind, RawHandle), Placement>>,
    /// The views made on a swap chain's back buffers, by kind and handle, pushed at their
    /// creation and pruned when found dead: what a legacy present shifts (R-EX-7,
    /// `swap_chain_views.rs`); never on the recording path.
    pub(crate) swap_chain_views: Mutex<Vec<(ObjectKind, RawHandle)>>,
    /// Whether a view of a back buffer was ever made (set, Release, before its creation
    /// returns): until then no view names a back buffer, which a capture asks of each view a
    /// kept bind reads (`Device::swap_chain_view_buffer`) and answers with one load.
    pub(crate) any_swap_chain_view: AtomicBool,
    /// What a real GPU needs of objects created with it (R-GPU-2, `device/gpu_contents_store.rs`),
    /// by kind and handle: written at creation, dropped at destruction, read by a backend;
    /// never on the recording path.
    pub(crate) gpu_contents: Mutex<HashMap<(ObjectKind, RawHandle), StdArc<GpuContents>>>,
    /// The check of shader code against declared slots a backend installed (R-GPU-2).
    pub(crate) shader_check: Mutex<Option<StdArc<dyn ShaderCheck>>>,
    pub(crate) pool: ChunkPool,
    pub(crate) live_contexts: AtomicU32,
    /// Whether the immediate context's recorder was handed out (one per device, R-OBJ-1).
    pub(crate) immediate_taken: AtomicBool,
    /// Serial of the next recorder (deferred context or bundle recorder); 0 is the immediate
    /// context. Dynamic instances are named by it (`InstanceId`).
    pub(crate) next_recorder: AtomicU32,
    /// The next fence value `insert_fence` hands out, on any context (R-EX-5); 0 is never one.
    pub(crate) next_fence: AtomicU64,
    /// Released objects still referenced, destroyed by `process_deferred_releases` (R-OBJ-4).
    deferred_releases: Mutex<Vec<(ObjectKind, RawHandle)>>,
    /// The reference tables of the legacy recorders alive now, by recorder serial (`refs.rs`):
    /// what [`Device::references`] adds to the shared counts. A recorder registers at creation,
    /// swaps its table in when it grows and leaves at drop; nothing on the recording path
    /// takes this lock.
    pub(crate) local_references: Registry,
}

/// Runs `$body` with `$table` bound to the table of `$kind`.
macro_rules! with_table {
    ($shared:expr, $kind:expr, |$table:ident| $body:expr) => {
        match $kind {
            ObjectKind::Buffer => {
                let $table = &$shared.buffers;
                $body
            }
            ObjectKind::Texture => {
                let $table = &$shared.textures;
                $body
            }
            ObjectKind::ShaderResourceView => {
                let $table = &$shared.shader_resource_views;
                $body
            }
            ObjectKind::UnorderedAccessView => {
                let $table = &$shared.unordered_access_views;
                $body
            }
            ObjectKind::RenderTargetView => {
                let $table = &$shared.render_target_views;
                $body
            }
            ObjectKind::DepthStencilView => {
                let $table = &$shared.depth_stencil_views;
                $body
            }
            ObjectKind::Shader => {
                let $table = &$shared.shaders;
                $body
            }
            ObjectKind::InputLayout => {
                let $table = &$shared.input_layouts;
                $body
            }
            ObjectKind::BlendState => {
                let $table = &$shared.blend_states;
                $body
            }
            ObjectKind::RasterizerState => {
                let $table = &$shared.rasterizer_states;
                $body
            }
            ObjectKind::DepthStencilState => {
                let $table = &$shared.depth_stencil_states;
                $body
            }
            ObjectKind::SamplerState => {
                let $table = &$shared.sampler_states;
                $body
            }
            ObjectKind::Query => {
                let $table = &$shared.queries;
                $body
            }
            ObjectKind::SwapChain => {
                let $table = &$shared.swap_chains;
                $body
            }
            ObjectKind::Bundle => {
                let $table = &$shared.bundles;
                $body
            }
            ObjectKind::Heap => {
                let $table = &$shared.heaps;
                $body
            }
        }
    };
}

impl DeviceShared {
    pub(crate) fn object_name(&self, kind: ObjectKind, handle: RawHandle) -> ObjectName {
        let name = with_table!(self, kind, |table| table.name(handle));
        ObjectName { kind, handle, name }
    }

    /// Whether `handle` names an object that exists now.
    pub(crate) fn is_live(&self, kind: ObjectKind, handle: RawHandle) -> bool {
        with_table!(self, kind, |table| table.get(handle, false).is_ok())
    }

    /// Whether `handle` carries this device's tag (it may still be stale). Lookups need no such
    /// test: the tag is part of the generation they compare.
    #[inline]
    pub(crate) fn is_own(&self, handle: RawHandle) -> bool {
        handle.device_tag() == self.identity.tag()
    }

    /// The error for a handle that failed a lookup: another device's (`invalid_argument`,
    /// naming both devices) or one of this device's objects that was released (R-OBJ-3).
    #[cold]
    pub(crate) fn stale_error(
        &self,
        call: &'static str,
        kind: ObjectKind,
        handle: RawHandle,
    ) -> Error {
        if !self.is_own(handle) && !handle.is_null() {
            return self.foreign_error(call, kind, handle);
        }
        Error::ReleasedObject {
            call,
            object: self.object_name(kind, handle),
        }
    }

    /// The error for a handle of another device.
    #[cold]
    pub(crate) fn foreign_error(
        &self,
        call: &'static str,
        kind: ObjectKind,
        handle: RawHandle,
    ) -> Error {
        Error::ForeignHandle {
            call,
            kind,
            handle,
            owner: DeviceIdentity::describe_tag(handle.device_tag()),
            expected: self.identity.serial(),
        }
    }

    pub(crate) fn retain(
        &self,
        kind: ObjectKind,
        handle: RawHandle,
        count: u32,
    ) -> Result<(), Stale> {
        with_table!(self, kind, |table| table.retain(handle, count, true))
    }

    /// Takes `count` more references on an object the caller holds one on (`retain_many`).
    pub(crate) fn retain_many(
        &self,
        kind: ObjectKind,
        handle: RawHandle,
        count: u32,
    ) -> Result<(), Stale> {
        with_table!(self, kind, |table| table.retain_many(handle, count))
    }

    /// Drops `count` references at once (a finished legacy list's on one object), as
    /// [`unretain`](Self::unretain) drops one.
    pub(crate) fn release_many(&self, kind: ObjectKind, handle: RawHandle, count: u32) {
        with_table!(self, kind, |table| table.unretain_many(handle, count));
        self.unreferenced(kind, handle);
    }

    pub(crate) fn unretain(&self, kind: ObjectKind, handle: RawHandle) {
        with_table!(self, kind, |table| table.unretain(handle));
        self.unreferenced(kind, handle);
    }

    /// After references on an object went: a released bundle goes at once.
    #[inline]
    fn unreferenced(&self, kind: ObjectKind, handle: RawHandle) {
        if kind == ObjectKind::Bundle {
            // A released bundle goes with its last reference, not at the next present: its
            // entry holds the bundle's chunks, and through them the device.
            if let Some(words) = self.bundles.try_destroy(handle) {
                self.destroyed(kind, handle, &words);
            }
        }
    }

    pub(crate) fn release(&self, kind: ObjectKind, handle: RawHandle) {
        if !self.is_own(handle) && !handle.is_null() {
            // Releasing never fails (R-OBJ-3); the table would find the handle stale anyway, but
            // say why nothing happened: the application releases on the wrong device.
            tracing::warn!(
                "{}; nothing was released",
                self.foreign_error("release", kind, handle)
            );
            return;
        }
        let outcome = with_table!(self, kind, |table| {
            let (outcome, words) = table.release(handle);
            if let Some(words) = words {
                self.destroyed(kind, handle, &words);
            }
            outcome
        });
        if outcome == ReleaseOutcome::Deferred {
            self.deferred_releases.lock().push((kind, handle));
        }
    }

    /// Drops what a destroyed object held: a view's reference on its resource, a swap chain's
    /// back buffers.
    fn destroyed(&self, kind: ObjectKind, handle: RawHandle, words: &[u64]) {
        self.forget_gpu_contents(kind, handle);
        match kind {
            ObjectKind::ShaderResourceView
            | ObjectKind::UnorderedAccessView
            | ObjectKind::RenderTargetView
            | ObjectKind::DepthStencilView => {
                let info = ViewInfo::unpack([words[0], words[1], words[2]]);
                self.unretain(info.resource.kind(), info.resource.raw());
            }
            ObjectKind::SwapChain => {
                let count = words[0] as u32;
                for i in 0..count as usize {
                    self.release(
                        ObjectKind::RenderTargetView,
                        RawHandle::from_bits(words[2 + 2 * i + 1]),
                    );
                    self.release(ObjectKind::Texture, RawHandle::from_bits(words[2 + 2 * i]));
                }
            }
            ObjectKind::Buffer | ObjectKind::Texture => {
                // A placed resource's reference on its heap (R-BAR-7).
                let placement = self.placements.lock().remove(&(kind, handle));
                if let Some(placement) = placement {
                    self.unretain(ObjectKind::Heap, placement.heap.0);
                }
            }
            ObjectKind::Bundle => {
                // SAFETY: `register_bundle` gave the entry one reference as this address, and
                // an entry is destroyed once.
                drop(unsafe { crate::list::CommandList::from_header(words[0] as usize) });
            }
            _ => {}
        }
    }

    /// Hands out the immediate context's recorder: `false` if it is out already (one per
    /// device, R-OBJ-1).
    pub(crate) fn take_immediate(&self) -> bool {
        !self.immediate_taken.swap(true, Ordering::AcqRel)
    }

    /// The immediate context went away: the device may hand out another.
    pub(crate) fn release_immediate(&self) {
        self.immediate_taken.store(false, Ordering::Release);
    }

    fn process_deferred_releases(&self) -> usize {
        let mut destroyed = 0;
        loop {
            let pending = std::mem::take(&mut *self.deferred_releases.lock());
            let mut still = Vec::with_capacity(pending.len());
            let before = destroyed;
            for (kind, handle) in pending {
                let words = with_table!(self, kind, |table| table
                    .try_destroy(handle)
                    .map(|w| w.to_vec()));
                match words {
                    Some(words) => {
                        self.destroyed(kind, handle, &words);
                        destroyed += 1;
                    }
                    None => {
                        let alive =
                            with_table!(self, kind, |table| table.references(handle).is_some());
                        if alive {
                            still.push((kind, handle));
                        }
                    }
                }
            }
            self.deferred_releases.lock().extend(still);
            if destroyed == before {
                return destroyed;
            }
        }
    }
}

/// The shared counts a legacy recorder's own table pins and publishes to (`refs.rs`).
impl SharedCounts for DeviceShared {
    #[inline]
    fn pin(&self, kind: ObjectKind, handle: RawHandle) -> Result<(), Stale> {
        self.retain(kind, handle, 1)
    }
    #[inline]
    fn unpin(&self, kind: ObjectKind, handle: RawHandle) {
        self.unretain(kind, handle)
    }
    fn publish(&self, kind: ObjectKind, handle: RawHandle, count: u32) -> Result<(), Stale> {
        self.retain_many(kind, handle, count)
    }
    fn unpublish(&self, kind: ObjectKind, handle: RawHandle, count: u32) {
        self.release_many(kind, handle, count)
    }
    fn registry(&self) -> &Registry {
        &self.local_references
    }
    fn tag(&self) -> u32 {
        self.identity.generation_base() & crate::context::refs::TAG_MASK
    }
}

/// A device: creates resources, views, shaders, state objects, queries, swap chains and deferred
/// contexts (R-OBJ-1). `Send + Sync`; clones share the device.
#[derive(Clone)]
pub struct Device {
    pub(crate) shared: Arc<DeviceShared>,
}

impl Device {
    /// Creates a device with no objects and no contexts, and a number of its own
    /// ([`serial`](Self::serial)) that tags every handle it makes (R-OBJ-3). Never fails.
    pub fn new(desc: DeviceDesc) -> Self {
        Self::with_identity(desc, DeviceIdentity::acquire())
    }

    pub(crate) fn with_identity(desc: DeviceDesc, identity: DeviceIdentity) -> Self {
        let pool = ChunkPool::new(desc.chunk_policy.pool_limit);
        let base = identity.generation_base();
        Self {
            shared: Arc::new(DeviceShared {
                desc,
                identity,
                buffers: ObjectTable::new(base),
                textures: ObjectTable::new(base),
                shader_resource_views: ObjectTable::new(base),
                unordered_access_views: ObjectTable::new(base),
                render_target_views: ObjectTable::new(base),
                depth_stencil_views: ObjectTable::new(base),
                shaders: ObjectTable::new(base),
                input_layouts: ObjectTable::new(base),
                blend_states: ObjectTable::new(base),
                rasterizer_states: ObjectTable::new(base),
                depth_stencil_states: ObjectTable::new(base),
                sampler_states: ObjectTable::new(base),
                queries: ObjectTable::new(base),
                swap_chains: ObjectTable::new(base),
                bundles: ObjectTable::new(base),
                heaps: ObjectTable::new(base),
                placements: Mutex::new(HashMap::new()),
                swap_chain_views: Mutex::new(Vec::new()),
                any_swap_chain_view: AtomicBool::new(false),
                gpu_contents: Mutex::new(HashMap::new()),
                shader_check: Mutex::new(None),
                pool,
                live_contexts: AtomicU32::new(0),
                immediate_taken: AtomicBool::new(false),
                next_recorder: AtomicU32::new(1),
                next_fence: AtomicU64::new(1),
                deferred_releases: Mutex::new(Vec::new()),
                local_references: Mutex::new(Vec::new()),
            }),
        }
    }

    /// The device's number in messages ("device #3"), unique in the process (R-OBJ-3).
    pub fn serial(&self) -> u64 {
        self.shared.identity.serial()
    }

    /// Whether `handle` was made by this device (whether or not its object is still alive).
    pub fn owns<H: Handle>(&self, handle: H) -> bool {
        self.shared.is_own(handle.raw())
    }

    /// The description the device was created with.
    pub fn desc(&self) -> &DeviceDesc {
        &self.shared.desc
    }

    /// The application drops its reference (R-OBJ-3). Never fails. Under legacy semantics an
    /// object still bound or recorded is destroyed once the last reference goes, when deferred
    /// releases are processed (at `present`, or by [`process_deferred_releases`](Self::process_deferred_releases)).
    pub fn release<H: Handle>(&self, handle: H) {
        self.shared.release(H::KIND, handle.raw());
    }

    /// Destroys released objects whose last reference has gone; returns how many (R-OBJ-4).
    pub fn process_deferred_releases(&self) -> usize {
        self.shared.process_deferred_releases()
    }

    /// Whether `handle` names an object the application may still use.
    pub fn is_alive<H: Handle>(&self, handle: H) -> bool {
        with_table!(self.shared, H::KIND, |table| table
            .get(handle.raw(), false)
            .is_ok())
    }

    /// Internal references held on the object (bindings, legacy lists, views), if it exists:
    /// the shared count and what each legacy recorder holds itself (`refs.rs`). Exact when
    /// read after the recording calls it should count (on their thread, or after a join); a
    /// read racing a recording thread may mix moments of its calls.
    pub fn references<H: Handle>(&self, handle: H) -> Option<u32> {
        let raw = handle.raw();
        let shared = with_table!(self.shared, H::KIND, |table| table.references(raw))?;
        let tag = self.shared.tag();
        let local: i64 = self
            .shared
            .local_references
            .lock()
            .iter()
            .map(|(_, slots)| crate::context::refs::excess(slots, tag, H::KIND, raw))
            .sum();
        Some((shared as i64 + local).clamp(0, u32::MAX as i64) as u32)
    }

    /// Objects of `kind` that exist now, released-but-referenced ones included.
    pub fn live_objects(&self, kind: ObjectKind) -> u32 {
        with_table!(self.shared, kind, |table| table.live_count())
    }

    /// The debug name given at creation.
    pub fn name_of<H: Handle>(&self, handle: H) -> Option<StdArc<str>> {
        with_table!(self.shared, H::KIND, |table| table.name(handle.raw()))
    }

    /// An object as error messages name it, from its kind and raw handle.
    pub fn object_name(&self, kind: ObjectKind, handle: RawHandle) -> ObjectName {
        self.shared.object_name(kind, handle)
    }

    /// A buffer's properties from its creation (size, usage, bind flags, ...); `None` once it is
    /// destroyed or for a handle of another device. A released buffer still referenced answers.
    pub fn buffer_info(&self, buffer: Buffer) -> Option<BufferInfo> {
        self.shared
            .buffers
            .get(buffer.0, true)
            .ok()
            .map(|live| BufferInfo::unpack(live.words))
    }

    /// A heap's size in bytes (R-BAR-7); `None` once it is destroyed. A released heap that
    /// placed resources still hold answers.
    pub fn heap_size(&self, heap: Heap) -> Option<u64> {
        self.shared
            .heaps
            .get(heap.0, true)
            .ok()
            .map(|live| live.words[0])
    }

    /// Where a placed buffer or texture is (R-BAR-7); `None` for a committed resource or one
    /// destroyed.
    pub fn placement(&self, resource: Resource) -> Option<Placement> {
        self.shared
            .placements
            .lock()
            .get(&(resource.kind(), resource.raw()))
            .copied()
    }

    /// The heap and the bytes `start..end` of it that `resource` takes, for a placed buffer or
    /// texture (R-BAR-7); `None` for a committed resource or one destroyed. Two placed
    /// resources alias each other when their heaps are the same and their ranges overlap.
    pub fn placed_range(&self, resource: Resource) -> Option<(Heap, u64, u64)> {
        let placement = self.placement(resource)?;
        let size = match resource {
            Resource::Buffer(b) => self.buffer_info(b)?.size as u64,
            Resource::Texture(t) => self.texture_info(t)?.byte_size(),
        };
        Some((
            placement.heap,
            placement.offset,
            placement.offset.saturating_add(size),
        ))
    }

    /// A texture's properties from its creation; `None` once it is destroyed. A released texture
    /// still referenced answers.
    pub fn texture_info(&self, texture: Texture) -> Option<TextureInfo> {
        self.shared
            .textures
            .get(texture.0, true)
            .ok()
            .map(|live| TextureInfo::unpack(live.words))
    }

    /// A shader's stage and the resource counts it was created with; `None` once it is destroyed.
    pub fn shader_info(&self, shader: Shader) -> Option<ShaderInfo> {
        self.shared
            .shaders
            .get(shader.0, true)
            .ok()
            .map(|live| ShaderInfo::unpack(live.words))
    }

    /// Whether a shader writes stream output ([`ShaderInfo::stream_output`] alone, without
    /// unpacking the rest); `false` once it is destroyed. A bundle recorder asks it of every
    /// shader it sets (R-B-6).
    #[inline]
    pub fn shader_streams_output(&self, shader: Shader) -> bool {
        self.shared
            .shaders
            .get(shader.0, true)
            .is_ok_and(|live| ShaderInfo::streams_output(&live.words))
    }

    /// The vertex-buffer slots an input layout reads; `None` once it is destroyed.
    pub fn input_layout_slots(&self, layout: InputLayout) -> Option<Slots> {
        self.shared
            .input_layouts
            .get(layout.0, true)
            .ok()
            .map(|live| Slots::from_bits(live.words[0] as u128))
    }

    /// A view's properties, whichever of the four kinds it is.
    pub fn view_info<H: Handle>(&self, view: H) -> Option<ViewInfo> {
        let table = match H::KIND {
            ObjectKind::ShaderResourceView => &self.shared.shader_resource_views,
            ObjectKind::UnorderedAccessView => &self.shared.unordered_access_views,
            ObjectKind::RenderTargetView => &self.shared.render_target_views,
            ObjectKind::DepthStencilView => &self.shared.depth_stencil_views,
            _ => return None,
        };
        table
            .get(view.raw(), true)
            .ok()
            .map(|live| ViewInfo::unpack(live.words))
    }

    /// A swap chain's format, size and back buffers (each texture with its render-target view, in
    /// index order); `None` once it is destroyed.
    pub fn swap_chain_info(&self, chain: SwapChain) -> Option<SwapChainInfo> {
        let live = self.shared.swap_chains.get(chain.0, true).ok()?;
        let w = live.words;
        let count = w[0] as u32 as usize;
        Some(SwapChainInfo {
            format: Format::from_u16((w[0] >> 32) as u16),
            width: w[1] as u32,
            height: (w[1] >> 32) as u32,
            buffers: (0..count)
                .map(|i| {
                    (
                        Texture(RawHandle::from_bits(w[2 + 2 * i])),
                        RenderTargetView(RawHandle::from_bits(w[2 + 2 * i + 1])),
                    )
                })
                .collect(),
        })
    }

    /// The index of the back buffer `chain` renders to now (R-EX-7).
    pub fn current_back_buffer(&self, chain: SwapChain) -> Option<u32> {
        let live = self.shared.swap_chains.get(chain.0, true).ok()?;
        Some(live.entry.aux.load(Ordering::Acquire))
    }

    /// The kind a query was created as; `None` once it is destroyed.
    pub fn query_kind(&self, query: Query) -> Option<QueryKind> {
        let live = self.shared.queries.get(query.0, true).ok()?;
        Some(QueryKind::from_word(live.words[0]))
    }

    /// Whether an end (`end_query`, `write_query`) was ever recorded for `query`, on any
    /// context (R-FX-3); `None` once it is destroyed or released.
    pub fn query_ever_ended(&self, query: Query) -> Option<bool> {
        let live = self.shared.queries.get(query.0, false).ok()?;
        Some(live.entry.aux.load(Ordering::Acquire) != 0)
    }

    /// The resource's minimum LOD (legacy semantics reads it at bind, R-ST-6).
    pub fn resource_min_lod(&self, texture: Texture) -> Option<f32> {
        let live = self.shared.textures.get(texture.0, true).ok()?;
        Some(f32::from_bits(live.entry.aux.load(Ordering::Acquire)))
    }

    /// The view's minimum LOD (fast semantics reads it at bind, R-ST-6).
    pub fn shader_resource_view_min_lod(&self, view: ShaderResourceView) -> Option<f32> {
        let live = self.shared.shader_resource_views.get(view.0, true).ok()?;
        Some(f32::from_bits(live.entry.aux.load(Ordering::Acquire)))
    }

    /// Counters of the device's chunk pool.
    pub fn pool_stats(&self) -> PoolStats {
        self.shared.pool.stats()
    }

    /// Puts `count` chunks of the default size in the pool ahead of the first frame, as many as
    /// the pool keeps (`ChunkPolicy::pool_limit` bytes) when `count` is more.
    pub fn reserve_chunks(&self, count: usize) {
        self.shared
            .pool
            .reserve(count, self.shared.desc.chunk_policy.chunk_size);
    }

    /// Deferred contexts alive now.
    pub fn live_deferred_contexts(&self) -> u32 {
        self.shared.live_contexts.load(Ordering::Acquire)
    }
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("desc", &self.shared.desc)
            .finish_non_exhaustive()
    }
}
