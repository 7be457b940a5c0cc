//! The device (R-OBJ-1): object tables, the chunk pool, the deferred-context count, and the
//! deferred-release list of legacy semantics (R-OBJ-4). `Device` is a cheap `Clone` handle to the
//! shared state; every context and list keeps the state alive.

use std::sync::Arc as StdArc;

use crate::chunk::{ChunkPolicy, ChunkPool, PoolStats};
use crate::context::{DeferredContext, DeferredContextDesc};
use crate::desc::*;
use crate::encode::ViewFlags;
use crate::error::{Error, ObjectName};
use crate::handle::*;
use crate::info::*;
use crate::limits::{self, MAX_BACK_BUFFERS, MAX_DEFERRED_CONTEXTS};
use crate::sync::{Arc, AtomicBool, AtomicU32, AtomicU64, Mutex, Ordering};
use crate::table::{ObjectTable, ReleaseOutcome, Stale};

/// Opt-in validation of the fast-semantics contract (R-V-1, R-V-2), as the seeds' VALIDATED driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Validation {
    #[default]
    Off,
    On,
    /// `On`, plus deterministic hazard detection.
    Hazards,
}

/// How to create a device.
#[derive(Clone, Debug, Default)]
pub struct DeviceDesc {
    /// Semantics of the immediate context.
    pub immediate_semantics: Semantics,
    pub validation: Validation,
    /// Chunk size, growth and pool limit for every deferred context that does not bring its own.
    pub chunk_policy: ChunkPolicy,
}

/// Everything the device shares with its contexts and lists.
pub(crate) struct DeviceShared {
    pub(crate) desc: DeviceDesc,
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
    pub(crate) bundles: ObjectTable<{ crate::bundle::BUNDLE_WORDS }>,
    pub(crate) pool: ChunkPool,
    pub(crate) live_contexts: AtomicU32,
    /// Whether the immediate context's recorder was handed out (one per device, R-OBJ-1).
    immediate_taken: AtomicBool,
    /// Serial of the next recorder (deferred context or bundle recorder); 0 is the immediate
    /// context. Dynamic instances are named by it (`InstanceId`).
    pub(crate) next_recorder: AtomicU32,
    /// The next fence value `insert_fence` hands out, on any context (R-EX-5); 0 is never one.
    pub(crate) next_fence: AtomicU64,
    /// Released objects still referenced, destroyed by `process_deferred_releases` (R-OBJ-4).
    deferred_releases: Mutex<Vec<(ObjectKind, RawHandle)>>,
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

    /// The error for a handle that failed a lookup.
    #[cold]
    pub(crate) fn stale_error(
        &self,
        call: &'static str,
        kind: ObjectKind,
        handle: RawHandle,
    ) -> Error {
        Error::ReleasedObject {
            call,
            object: self.object_name(kind, handle),
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

    pub(crate) fn unretain(&self, kind: ObjectKind, handle: RawHandle) {
        with_table!(self, kind, |table| table.unretain(handle));
        if kind == ObjectKind::Bundle {
            // A released bundle goes with its last reference, not at the next present: its
            // entry holds the bundle's chunks, and through them the device.
            if let Some(words) = self.bundles.try_destroy(handle) {
                self.destroyed(kind, &words);
            }
        }
    }

    fn release(&self, kind: ObjectKind, handle: RawHandle) {
        let outcome = with_table!(self, kind, |table| {
            let (outcome, words) = table.release(handle);
            if let Some(words) = words {
                self.destroyed(kind, &words);
            }
            outcome
        });
        if outcome == ReleaseOutcome::Deferred {
            self.deferred_releases.lock().push((kind, handle));
        }
    }

    /// Drops what a destroyed object held: a view's reference on its resource, a swap chain's
    /// back buffers.
    fn destroyed(&self, kind: ObjectKind, words: &[u64]) {
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
            ObjectKind::Bundle => {
                // SAFETY: `register_bundle` gave the entry one reference as this address, and
                // an entry is destroyed once.
                drop(unsafe { crate::list::CommandList::from_header(words[0] as usize) });
            }
            _ => {}
        }
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
                        self.destroyed(kind, &words);
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

/// A device: creates resources, views, shaders, state objects, queries, swap chains and deferred
/// contexts (R-OBJ-1). `Send + Sync`; clones share the device.
#[derive(Clone)]
pub struct Device {
    pub(crate) shared: Arc<DeviceShared>,
}

fn full(kind: ObjectKind) -> Error {
    Error::InvalidArgument {
        call: "create",
        message: format!(
            "no room for another {} ({} alive at once at most)",
            kind.name(),
            limits::MAX_OBJECTS_PER_KIND
        ),
    }
}

impl Device {
    pub fn new(desc: DeviceDesc) -> Self {
        let pool = ChunkPool::new(desc.chunk_policy.pool_limit);
        Self {
            shared: Arc::new(DeviceShared {
                desc,
                buffers: ObjectTable::new(),
                textures: ObjectTable::new(),
                shader_resource_views: ObjectTable::new(),
                unordered_access_views: ObjectTable::new(),
                render_target_views: ObjectTable::new(),
                depth_stencil_views: ObjectTable::new(),
                shaders: ObjectTable::new(),
                input_layouts: ObjectTable::new(),
                blend_states: ObjectTable::new(),
                rasterizer_states: ObjectTable::new(),
                depth_stencil_states: ObjectTable::new(),
                sampler_states: ObjectTable::new(),
                queries: ObjectTable::new(),
                swap_chains: ObjectTable::new(),
                bundles: ObjectTable::new(),
                pool,
                live_contexts: AtomicU32::new(0),
                immediate_taken: AtomicBool::new(false),
                next_recorder: AtomicU32::new(1),
                next_fence: AtomicU64::new(1),
                deferred_releases: Mutex::new(Vec::new()),
            }),
        }
    }

    pub fn desc(&self) -> &DeviceDesc {
        &self.shared.desc
    }

    pub fn create_buffer(&self, desc: &BufferDesc<'_>) -> Result<Buffer, Error> {
        const CALL: &str = "create_buffer";
        if desc.size == 0 {
            return Err(Error::invalid(
                CALL,
                format!("buffer '{}' has size 0", desc.name),
            ));
        }
        if desc.uav_flag != UavFlag::None && !desc.bind.contains(BindFlags::UNORDERED_ACCESS) {
            return Err(Error::invalid(
                CALL,
                format!(
                    "buffer '{}': append/counter flags need the unordered_access bind flag",
                    desc.name
                ),
            ));
        }
        if desc
            .bind
            .intersects(BindFlags::RENDER_TARGET | BindFlags::DEPTH_STENCIL)
        {
            return Err(Error::invalid(
                CALL,
                format!(
                    "buffer '{}': render_target and depth_stencil are texture bind flags",
                    desc.name
                ),
            ));
        }
        if !self.shared.buffers.has_room() {
            return Err(full(ObjectKind::Buffer));
        }
        let info = BufferInfo {
            size: desc.size,
            usage: desc.usage,
            bind: desc.bind,
            uav_flag: desc.uav_flag,
        };
        Ok(Buffer(self.shared.buffers.insert(
            info.pack(),
            0,
            0,
            desc.name,
        )))
    }

    pub fn create_texture(&self, desc: &TextureDesc<'_>) -> Result<Texture, Error> {
        let info = TextureInfo {
            format: desc.format,
            width: desc.width,
            height: desc.height,
            mip_levels: desc.mip_levels,
            array_size: desc.array_size,
            sample_count: desc.sample_count,
            bind: desc.bind,
            compressible: desc.compressible.unwrap_or(
                desc.bind
                    .intersects(BindFlags::RENDER_TARGET | BindFlags::DEPTH_STENCIL),
            ),
            texture_compatible: desc.texture_compatible,
            back_buffer: None,
        };
        self.insert_texture(info, desc.name)
    }

    fn insert_texture(&self, info: TextureInfo, name: &str) -> Result<Texture, Error> {
        const CALL: &str = "create_texture";
        if info.width == 0 || info.height == 0 {
            return Err(Error::invalid(
                CALL,
                format!("texture '{name}' has a zero dimension"),
            ));
        }
        if !(1..=16).contains(&info.mip_levels) || !(1..=2048).contains(&info.array_size) {
            return Err(Error::invalid(
                CALL,
                format!("texture '{name}': mips must be 1..=16 and array size 1..=2048"),
            ));
        }
        if !matches!(info.sample_count, 1 | 2 | 4 | 8 | 16) {
            return Err(Error::invalid(
                CALL,
                format!(
                    "texture '{name}': sample count {} is not 1, 2, 4, 8 or 16",
                    info.sample_count
                ),
            ));
        }
        if info.bind.intersects(
            BindFlags::VERTEX | BindFlags::INDEX | BindFlags::CONSTANT | BindFlags::STREAM_OUTPUT,
        ) {
            return Err(Error::invalid(
                CALL,
                format!("texture '{name}': vertex, index, constant and stream_output are buffer bind flags"),
            ));
        }
        if !self.shared.textures.has_room() {
            return Err(full(ObjectKind::Texture));
        }
        Ok(Texture(self.shared.textures.insert(
            info.pack(),
            0f32.to_bits(),
            0,
            name,
        )))
    }

    fn create_view(
        &self,
        call: &'static str,
        kind: ObjectKind,
        desc: &ViewDesc<'_>,
        needs: BindFlags,
    ) -> Result<RawHandle, Error> {
        let shared = &*self.shared;
        let resource = desc.resource;
        let stale = || shared.stale_error(call, resource.kind(), resource.raw());
        let (bind, format, flags, (mips, slices), resource_min_lod) = match resource {
            Resource::Buffer(buffer) => {
                let live = shared.buffers.get(buffer.0, false).map_err(|_| stale())?;
                let info = BufferInfo::unpack(live.words);
                let mut flags = ViewFlags::BUFFER;
                if info.usage == Usage::Dynamic {
                    flags |= ViewFlags::DYNAMIC;
                }
                if info.uav_flag != UavFlag::None && kind == ObjectKind::UnorderedAccessView {
                    flags |= ViewFlags::HIDDEN_COUNTER;
                }
                (info.bind, desc.format, flags, (1, 1), 0.0)
            }
            Resource::Texture(texture) => {
                let live = shared.textures.get(texture.0, false).map_err(|_| stale())?;
                let info = TextureInfo::unpack(live.words);
                let mut flags = 0;
                if info.is_compressible_target() {
                    flags |= ViewFlags::COMPRESSIBLE_TARGET;
                }
                if info.texture_compatible {
                    flags |= ViewFlags::TEXTURE_COMPATIBLE;
                }
                if info.back_buffer.is_some() {
                    flags |= ViewFlags::BACK_BUFFER;
                }
                let format = if desc.format == Format::Unknown {
                    info.format
                } else {
                    desc.format
                };
                let min_lod = f32::from_bits(live.slot.aux.load(Ordering::Acquire));
                (
                    info.bind,
                    format,
                    flags,
                    (info.mip_levels, info.array_size),
                    min_lod,
                )
            }
        };
        if !bind.contains(needs) {
            return Err(Error::invalid(
                call,
                format!(
                    "{} was not created with the {:?} bind flag this view needs",
                    shared.object_name(resource.kind(), resource.raw()),
                    needs
                ),
            ));
        }
        let range = desc.range;
        let within = |first: u32, count: u32, total: u32| {
            first < total
                && (count == u32::MAX || (count > 0 && first as u64 + count as u64 <= total as u64))
        };
        if !within(range.first_mip, range.mip_count, mips)
            || !within(range.first_slice, range.slice_count, slices)
        {
            return Err(Error::invalid(
                call,
                format!(
                    "mips {}+{} and slices {}+{} are not within the resource's {mips} mips and {slices} slices",
                    range.first_mip, range.mip_count, range.first_slice, range.slice_count
                ),
            ));
        }
        let info = ViewInfo {
            resource,
            format,
            flags: ViewFlags(flags),
            first_mip: desc.range.first_mip,
            mip_count: desc.range.mip_count,
            first_slice: desc.range.first_slice,
            slice_count: desc.range.slice_count,
        };
        // The view holds a reference on its resource for its whole life (R-OBJ-4).
        shared
            .retain(resource.kind(), resource.raw(), 1)
            .map_err(|_| stale())?;
        let min_lod = desc.min_lod.unwrap_or(resource_min_lod);
        let table = match kind {
            ObjectKind::ShaderResourceView => &shared.shader_resource_views,
            ObjectKind::UnorderedAccessView => &shared.unordered_access_views,
            ObjectKind::RenderTargetView => &shared.render_target_views,
            _ => &shared.depth_stencil_views,
        };
        if !table.has_room() {
            shared.unretain(resource.kind(), resource.raw());
            return Err(full(kind));
        }
        Ok(table.insert(info.pack(), min_lod.to_bits(), 0, desc.name))
    }

    pub fn create_shader_resource_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<ShaderResourceView, Error> {
        self.create_view(
            "create_shader_resource_view",
            ObjectKind::ShaderResourceView,
            desc,
            BindFlags::SHADER_RESOURCE,
        )
        .map(ShaderResourceView)
    }

    pub fn create_unordered_access_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<UnorderedAccessView, Error> {
        self.create_view(
            "create_unordered_access_view",
            ObjectKind::UnorderedAccessView,
            desc,
            BindFlags::UNORDERED_ACCESS,
        )
        .map(UnorderedAccessView)
    }

    pub fn create_render_target_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<RenderTargetView, Error> {
        if matches!(desc.resource, Resource::Buffer(_)) {
            return Err(Error::invalid(
                "create_render_target_view",
                "render-target views need a texture",
            ));
        }
        self.create_view(
            "create_render_target_view",
            ObjectKind::RenderTargetView,
            desc,
            BindFlags::RENDER_TARGET,
        )
        .map(RenderTargetView)
    }

    pub fn create_depth_stencil_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<DepthStencilView, Error> {
        if matches!(desc.resource, Resource::Buffer(_)) {
            return Err(Error::invalid(
                "create_depth_stencil_view",
                "depth-stencil views need a texture",
            ));
        }
        self.create_view(
            "create_depth_stencil_view",
            ObjectKind::DepthStencilView,
            desc,
            BindFlags::DEPTH_STENCIL,
        )
        .map(DepthStencilView)
    }

    pub fn create_shader(&self, desc: &ShaderDesc<'_>) -> Result<Shader, Error> {
        let stage = desc.stage;
        let uav_limit = if stage == Stage::Compute {
            limits::COMPUTE_UAV_SLOTS
        } else {
            limits::GRAPHICS_UAV_SLOTS
        };
        if uav_limit < 64 && desc.unordered_access_views >> uav_limit != 0 {
            return Err(Error::invalid(
                "create_shader",
                format!(
                    "shader '{}' reads UAV slots past {} ({} stage)",
                    desc.name,
                    uav_limit - 1,
                    stage.name()
                ),
            ));
        }
        if desc.stream_output && !matches!(stage, Stage::Vertex | Stage::Geometry | Stage::Domain) {
            return Err(Error::invalid(
                "create_shader",
                format!(
                    "shader '{}': only vs, ds and gs shaders can write stream output",
                    desc.name
                ),
            ));
        }
        if !self.shared.shaders.has_room() {
            return Err(full(ObjectKind::Shader));
        }
        let info = ShaderInfo {
            stage,
            constant_buffers: desc.constant_buffers,
            shader_resources: desc.shader_resources,
            samplers: desc.samplers,
            unordered_access_views: desc.unordered_access_views,
            stream_output: desc.stream_output,
        };
        Ok(Shader(self.shared.shaders.insert(
            info.pack(),
            0,
            0,
            desc.name,
        )))
    }

    pub fn create_input_layout(&self, desc: &InputLayoutDesc<'_>) -> Result<InputLayout, Error> {
        if !self.shared.input_layouts.has_room() {
            return Err(full(ObjectKind::InputLayout));
        }
        Ok(InputLayout(self.shared.input_layouts.insert(
            [desc.vertex_buffers as u64],
            0,
            0,
            desc.name,
        )))
    }

    pub fn create_blend_state(&self, name: &str) -> Result<BlendState, Error> {
        self.shared
            .blend_states
            .has_room()
            .then(|| BlendState(self.shared.blend_states.insert([], 0, 0, name)))
            .ok_or_else(|| full(ObjectKind::BlendState))
    }

    pub fn create_rasterizer_state(&self, name: &str) -> Result<RasterizerState, Error> {
        self.shared
            .rasterizer_states
            .has_room()
            .then(|| RasterizerState(self.shared.rasterizer_states.insert([], 0, 0, name)))
            .ok_or_else(|| full(ObjectKind::RasterizerState))
    }

    pub fn create_depth_stencil_state(&self, name: &str) -> Result<DepthStencilState, Error> {
        self.shared
            .depth_stencil_states
            .has_room()
            .then(|| DepthStencilState(self.shared.depth_stencil_states.insert([], 0, 0, name)))
            .ok_or_else(|| full(ObjectKind::DepthStencilState))
    }

    pub fn create_sampler_state(&self, name: &str) -> Result<SamplerState, Error> {
        self.shared
            .sampler_states
            .has_room()
            .then(|| SamplerState(self.shared.sampler_states.insert([], 0, 0, name)))
            .ok_or_else(|| full(ObjectKind::SamplerState))
    }

    pub fn create_query(&self, name: &str, kind: QueryKind) -> Result<Query, Error> {
        self.shared
            .queries
            .has_room()
            .then(|| Query(self.shared.queries.insert([kind as u64], 0, 0, name)))
            .ok_or_else(|| full(ObjectKind::Query))
    }

    /// Creates a swap chain and its back buffers: textures `NAME.0 ..` with render-target views
    /// `NAME.0.rtv ..` (as TRACE.md's `swapchain` declaration names them).
    pub fn create_swap_chain(&self, desc: &SwapChainDesc<'_>) -> Result<SwapChain, Error> {
        const CALL: &str = "create_swap_chain";
        if !(1..=MAX_BACK_BUFFERS).contains(&desc.buffers) {
            return Err(Error::invalid(
                CALL,
                format!(
                    "a swap chain has 1 to {MAX_BACK_BUFFERS} back buffers, not {}",
                    desc.buffers
                ),
            ));
        }
        if !self.shared.swap_chains.has_room() {
            return Err(full(ObjectKind::SwapChain));
        }
        // Reserve the handle first so the back buffers can name their swap chain.
        let mut words = [0u64; SWAP_CHAIN_WORDS];
        words[0] = desc.buffers as u64 | (desc.format as u64) << 32;
        words[1] = desc.width as u64 | (desc.height as u64) << 32;
        let chain = SwapChain(self.shared.swap_chains.insert(words, 0, 0, desc.name));
        let mut made = Vec::new();
        for i in 0..desc.buffers {
            let info = TextureInfo {
                format: desc.format,
                width: desc.width,
                height: desc.height,
                mip_levels: 1,
                array_size: 1,
                sample_count: 1,
                bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
                compressible: true,
                texture_compatible: false,
                back_buffer: Some((chain, i)),
            };
            let texture_name = format!("{}.{i}", desc.name);
            let built = self
                .insert_texture(info, &texture_name)
                .and_then(|texture| {
                    let rtv_name = format!("{texture_name}.rtv");
                    let rtv = self.create_render_target_view(&ViewDesc::new(&rtv_name, texture));
                    if rtv.is_err() {
                        self.release(texture);
                    }
                    rtv.map(|rtv| (texture, rtv))
                });
            match built {
                Ok(pair) => made.push(pair),
                Err(error) => {
                    for (texture, rtv) in made {
                        self.release(rtv);
                        self.release(texture);
                    }
                    self.release(chain);
                    return Err(error);
                }
            }
        }
        // The back buffers name their swap chain, so the chain was created first; its handle has
        // not left this function yet, so its words can still be completed in place.
        let mut full_words = words;
        for (i, (texture, rtv)) in made.iter().enumerate() {
            full_words[2 + 2 * i] = texture.0.to_bits();
            full_words[2 + 2 * i + 1] = rtv.0.to_bits();
        }
        self.shared.swap_chains.rewrite(chain.0, full_words);
        Ok(chain)
    }

    /// Creates a deferred context (R-REC-1: at most 48 alive).
    pub fn create_deferred_context(
        &self,
        desc: &DeferredContextDesc<'_>,
    ) -> Result<DeferredContext, Error> {
        if desc.engine != Engine::Graphics && desc.semantics == Semantics::Legacy {
            return Err(Error::invalid(
                "create_deferred_context",
                format!(
                    "'{}': {} contexts are always fast semantics (R-EX-5); create it with Semantics::Fast",
                    desc.name,
                    desc.engine.name()
                ),
            ));
        }
        let mut live = self.shared.live_contexts.load(Ordering::Relaxed);
        loop {
            if live >= MAX_DEFERRED_CONTEXTS {
                return Err(Error::TooManyContexts {
                    limit: MAX_DEFERRED_CONTEXTS,
                });
            }
            match self.shared.live_contexts.compare_exchange_weak(
                live,
                live + 1,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(actual) => live = actual,
            }
        }
        let serial = self.shared.next_recorder.fetch_add(1, Ordering::Relaxed);
        Ok(DeferredContext::new(self.shared.clone(), desc, serial))
    }

    /// The recorder of the device's one immediate context, for the executor's `ImmediateContext`
    /// (R-OBJ-1): it records the immediate context's direct calls, with the immediate
    /// semantics of the device, in batches the executor runs at once. Refused the second time.
    #[doc(hidden)]
    pub fn immediate_recorder(&self) -> Result<DeferredContext, Error> {
        if self.shared.immediate_taken.swap(true, Ordering::AcqRel) {
            return Err(Error::invalid(
                "immediate_context",
                "the device's immediate context exists already (one per device, R-OBJ-1)",
            ));
        }
        Ok(DeferredContext::new_immediate(self.shared.clone()))
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

    /// Internal references held on the object (bindings, legacy lists, views), if it exists.
    pub fn references<H: Handle>(&self, handle: H) -> Option<u32> {
        with_table!(self.shared, H::KIND, |table| table.references(handle.raw()))
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

    pub fn buffer_info(&self, buffer: Buffer) -> Option<BufferInfo> {
        self.shared
            .buffers
            .get(buffer.0, true)
            .ok()
            .map(|live| BufferInfo::unpack(live.words))
    }

    pub fn texture_info(&self, texture: Texture) -> Option<TextureInfo> {
        self.shared
            .textures
            .get(texture.0, true)
            .ok()
            .map(|live| TextureInfo::unpack(live.words))
    }

    pub fn shader_info(&self, shader: Shader) -> Option<ShaderInfo> {
        self.shared
            .shaders
            .get(shader.0, true)
            .ok()
            .map(|live| ShaderInfo::unpack(live.words))
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
        Some(live.slot.aux.load(Ordering::Acquire))
    }

    /// Rotates `chain` to its next back buffer; returns the new index. For the immediate
    /// context's `present` (R-EX-7).
    #[doc(hidden)]
    pub fn rotate_back_buffer(&self, chain: SwapChain) -> Result<u32, Error> {
        let live = self.shared.swap_chains.get(chain.0, false).map_err(|_| {
            self.shared
                .stale_error("present", ObjectKind::SwapChain, chain.0)
        })?;
        let count = (live.words[0] as u32).max(1);
        let next = (live.slot.aux.load(Ordering::Acquire) + 1) % count;
        live.slot.aux.store(next, Ordering::Release);
        Ok(next)
    }

    pub fn query_kind(&self, query: Query) -> Option<QueryKind> {
        let live = self.shared.queries.get(query.0, true).ok()?;
        Some(match live.words[0] {
            1 => QueryKind::Predicate,
            2 => QueryKind::Timestamp,
            3 => QueryKind::PipelineStatistics,
            _ => QueryKind::Occlusion,
        })
    }

    /// The resource's minimum LOD (legacy semantics reads it at bind, R-ST-6).
    pub fn resource_min_lod(&self, texture: Texture) -> Option<f32> {
        let live = self.shared.textures.get(texture.0, true).ok()?;
        Some(f32::from_bits(live.slot.aux.load(Ordering::Acquire)))
    }

    /// The view's minimum LOD (fast semantics reads it at bind, R-ST-6).
    pub fn shader_resource_view_min_lod(&self, view: ShaderResourceView) -> Option<f32> {
        let live = self.shared.shader_resource_views.get(view.0, true).ok()?;
        Some(f32::from_bits(live.slot.aux.load(Ordering::Acquire)))
    }

    /// Counters of the device's chunk pool.
    pub fn pool_stats(&self) -> PoolStats {
        self.shared.pool.stats()
    }

    /// Puts `count` chunks of the default size in the pool ahead of the first frame.
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
