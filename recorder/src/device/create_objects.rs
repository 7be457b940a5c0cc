//! Object creation (R-OBJ-1, R-OBJ-2, R-OBJ-5): descriptions in, checked and packed into the
//! device's object tables (`device/object_info.rs` says how each kind's descriptor words are laid out); handles
//! out. Views take a reference on their resource for their whole life (R-OBJ-4); a swap chain
//! creates its back buffers and their render-target views.

use crate::command::ViewFlags;
use crate::desc::*;
use crate::device::handle::*;
use crate::device::object_info::*;
use crate::device::Device;
use crate::errors::{DescProblem, Error};
use crate::limits::{self, MAX_BACK_BUFFERS};
use crate::sync::Ordering;

/// The refusal of `call` when `kind`'s table is full; it names the call that was made.
fn full(call: &'static str, kind: ObjectKind) -> Error {
    Error::TableFull {
        call,
        kind,
        limit: limits::MAX_OBJECTS_PER_KIND,
    }
}

/// The refusal of `create_buffer`'s description of buffer `name`.
#[cold]
fn buffer_desc(name: &str, problem: DescProblem) -> Error {
    Error::InvalidDesc {
        call: "create_buffer",
        object: format!("buffer '{name}'"),
        problem,
    }
}

/// The refusal of `call`'s description of texture `name` (`create_texture`, or
/// `create_swap_chain` for a back buffer).
#[cold]
fn texture_desc(call: &'static str, name: &str, problem: DescProblem) -> Error {
    Error::InvalidDesc {
        call,
        object: format!("texture '{name}'"),
        problem,
    }
}

impl Device {
    /// Creates a buffer. Refused (`invalid_argument`, R-OBJ-2): size 0, append/counter flags without
    /// `UNORDERED_ACCESS`, texture-only bind flags, a full table.
    pub fn create_buffer(&self, desc: &BufferDesc<'_>) -> Result<Buffer, Error> {
        if desc.size == 0 {
            return Err(buffer_desc(desc.name, DescProblem::ZeroSize));
        }
        if desc.uav_flag != UavFlag::None && !desc.bind.contains(BindFlags::UNORDERED_ACCESS) {
            return Err(buffer_desc(
                desc.name,
                DescProblem::CounterWithoutUnorderedAccess,
            ));
        }
        if desc
            .bind
            .intersects(BindFlags::RENDER_TARGET | BindFlags::DEPTH_STENCIL)
        {
            return Err(buffer_desc(desc.name, DescProblem::TextureBindFlags));
        }
        if !self.shared.buffers.has_room() {
            return Err(full("create_buffer", ObjectKind::Buffer));
        }
        if let Some(placement) = desc.placement {
            let object = || format!("buffer '{}'", desc.name);
            self.place("create_buffer", object, placement, desc.size as u64)?;
        }
        let info = BufferInfo {
            size: desc.size,
            usage: desc.usage,
            bind: desc.bind,
            uav_flag: desc.uav_flag,
        };
        let buffer = self.shared.buffers.insert(info.pack(), 0, 0, desc.name);
        if let Some(placement) = desc.placement {
            let key = (ObjectKind::Buffer, buffer);
            self.shared.placements.lock().insert(key, placement);
        }
        Ok(Buffer(buffer))
    }

    /// Creates a 2D texture (render targets and depth stencils are textures with those bind flags).
    /// Refused (`invalid_argument`, R-OBJ-2) when its dimensions (1 to 16384 texels, D3D11's
    /// limit), mips, samples or flags are inconsistent, when a placed texture does not fit its
    /// heap (R-BAR-7), or when the table is full.
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
            dcc: desc.dcc,
            back_buffer: None,
        };
        self.insert_texture("create_texture", info, desc.name, desc.placement)
    }

    /// Creates a heap of `size` bytes that placed buffers and textures share (R-BAR-7; D3D12's
    /// `CreateHeap`). Refused (`invalid_argument`): size 0, a full table. Released like any
    /// object; a placed resource keeps its heap alive (R-OBJ-4), but once the application has
    /// released the heap no resource can be placed in it (`released_object`).
    pub fn create_heap(&self, desc: &HeapDesc<'_>) -> Result<Heap, Error> {
        if desc.size == 0 {
            return Err(Error::InvalidDesc {
                call: "create_heap",
                object: format!("heap '{}'", desc.name),
                problem: DescProblem::ZeroSize,
            });
        }
        if !self.shared.heaps.has_room() {
            return Err(full("create_heap", ObjectKind::Heap));
        }
        Ok(Heap(self.shared.heaps.insert([desc.size], 0, 0, desc.name)))
    }

    /// Checks that `size` bytes at `placement` fit a live heap and takes the resource's
    /// reference on the heap (dropped when the resource is destroyed, `device/mod.rs`). Called last
    /// before the resource's insertion, which cannot fail.
    fn place(
        &self,
        call: &'static str,
        object: impl Fn() -> String,
        placement: Placement,
        size: u64,
    ) -> Result<(), Error> {
        let heap = placement.heap.0;
        let heap_size = match self.shared.heaps.get(heap, false) {
            Ok(live) => live.words[0],
            Err(_) => return Err(self.shared.stale_error(call, ObjectKind::Heap, heap)),
        };
        let fits = placement
            .offset
            .checked_add(size)
            .is_some_and(|end| end <= heap_size);
        if !fits {
            return Err(Error::InvalidDesc {
                call,
                object: object(),
                problem: DescProblem::DoesNotFitHeap {
                    offset: placement.offset,
                    size,
                    heap_size,
                },
            });
        }
        self.shared
            .retain(ObjectKind::Heap, heap, 1)
            .map_err(|_| self.shared.stale_error(call, ObjectKind::Heap, heap))
    }

    /// Checks a texture's description and inserts it; `call` is the application's call that
    /// makes it (`create_texture`, or `create_swap_chain` for a back buffer), named by a refusal.
    fn insert_texture(
        &self,
        call: &'static str,
        info: TextureInfo,
        name: &str,
        placement: Option<Placement>,
    ) -> Result<Texture, Error> {
        if info.width == 0 || info.height == 0 {
            return Err(texture_desc(call, name, DescProblem::ZeroDimension));
        }
        if info.width.max(info.height) > limits::MAX_TEXTURE_DIMENSION {
            let problem = DescProblem::DimensionTooLarge {
                width: info.width,
                height: info.height,
                limit: limits::MAX_TEXTURE_DIMENSION,
            };
            return Err(texture_desc(call, name, problem));
        }
        if !(1..=16).contains(&info.mip_levels) || !(1..=2048).contains(&info.array_size) {
            let problem = DescProblem::MipsOrArraySize {
                mip_levels: info.mip_levels,
                array_size: info.array_size,
            };
            return Err(texture_desc(call, name, problem));
        }
        if !matches!(info.sample_count, 1 | 2 | 4 | 8 | 16) {
            let problem = DescProblem::SampleCount {
                count: info.sample_count,
            };
            return Err(texture_desc(call, name, problem));
        }
        if info.bind.intersects(
            BindFlags::VERTEX | BindFlags::INDEX | BindFlags::CONSTANT | BindFlags::STREAM_OUTPUT,
        ) {
            return Err(texture_desc(call, name, DescProblem::BufferBindFlags));
        }
        if !self.shared.textures.has_room() {
            return Err(full(call, ObjectKind::Texture));
        }
        if let Some(placement) = placement {
            let object = || format!("texture '{name}'");
            self.place(call, object, placement, info.byte_size())?;
        }
        let texture = self
            .shared
            .textures
            .insert(info.pack(), 0f32.to_bits(), 0, name);
        if let Some(placement) = placement {
            let key = (ObjectKind::Texture, texture);
            self.shared.placements.lock().insert(key, placement);
        }
        Ok(Texture(texture))
    }

    fn create_view(
        &self,
        call: &'static str,
        kind: ObjectKind,
        desc: &ViewDesc<'_>,
        needs: BindFlags,
        min_lod_rule: ViewMinLod,
    ) -> Result<RawHandle, Error> {
        let shared = &*self.shared;
        let resource = desc.resource;
        if let Some(min_lod) = desc.min_lod {
            if !(min_lod.is_finite() && min_lod >= 0.0) {
                return Err(Error::OutOfRange {
                    call,
                    argument: "minimum LOD",
                    value: min_lod.to_string(),
                    allowed: "a finite non-negative number (R-ST-6)".into(),
                });
            }
        }
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
                // A texture-compatible target is read by shaders in its compressed form: its
                // SRVs need no decompression (R-ST-9); its UAVs still do.
                let read_compressed =
                    info.texture_compatible && kind == ObjectKind::ShaderResourceView;
                if info.is_compressible_target() && !read_compressed {
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
                let min_lod = f32::from_bits(live.entry.aux.load(Ordering::Acquire));
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
            return Err(Error::MissingBindFlag {
                call,
                object: shared.object_name(resource.kind(), resource.raw()),
                flag: needs,
            });
        }
        let range = desc.range;
        let within = |first: u32, count: u32, total: u32| {
            first < total
                && (count == u32::MAX || (count > 0 && first as u64 + count as u64 <= total as u64))
        };
        if !within(range.first_mip, range.mip_count, mips)
            || !within(range.first_slice, range.slice_count, slices)
        {
            return Err(Error::InvalidDesc {
                call,
                object: shared
                    .object_name(resource.kind(), resource.raw())
                    .to_string(),
                problem: DescProblem::ViewRange {
                    first_mip: range.first_mip,
                    mip_count: range.mip_count,
                    first_slice: range.first_slice,
                    slice_count: range.slice_count,
                    mips,
                    slices,
                },
            });
        }
        let info = ViewInfo {
            resource,
            format,
            flags: ViewFlags(flags),
            first_mip: desc.range.first_mip,
            mip_count: desc.range.mip_count,
            first_slice: desc.range.first_slice,
            slice_count: desc.range.slice_count,
            min_lod: min_lod_rule,
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
            return Err(full(call, kind));
        }
        let view = table.insert(info.pack(), min_lod.to_bits(), 0, desc.name);
        if info.flags.has(ViewFlags::BACK_BUFFER) {
            // Its identity follows the chain's rotation under legacy (`swap_chain_views.rs`).
            shared.swap_chain_views.lock().push((kind, view));
            shared.any_swap_chain_view.store(true, Ordering::Release);
        }
        Ok(view)
    }

    /// Creates a shader-resource view; its resource needs `SHADER_RESOURCE` (R-OBJ-2).
    pub fn create_shader_resource_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<ShaderResourceView, Error> {
        self.create_view(
            "create_shader_resource_view",
            ObjectKind::ShaderResourceView,
            desc,
            BindFlags::SHADER_RESOURCE,
            ViewMinLod::BySemantics,
        )
        .map(ShaderResourceView)
    }

    /// `ComposeShaderResourceView` (seed 000): a shader-resource view descriptor composed from
    /// `desc`, its resource needing `SHADER_RESOURCE` (R-OBJ-2). A descriptor has fast affinity:
    /// with a minimum LOD (`desc.min_lod`, the description's MinLevelOfDetail) every bind of it
    /// reads that value, on legacy contexts too, and ignores the resource's; with `None` (the
    /// default MinLevelOfDetail) every bind reads the resource's minimum LOD as it is then
    /// (R-ST-6). [`set_shader_resource_view_min_lod`](crate::FastBindCalls::set_shader_resource_view_min_lod)
    /// changes its value as a view object's. Otherwise it is a view as any other: it holds a
    /// reference on its resource and is released with `release_shader_resource_view`.
    pub fn compose_shader_resource_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<ShaderResourceView, Error> {
        let rule = match desc.min_lod {
            Some(_) => ViewMinLod::Composed,
            None => ViewMinLod::ComposedDefault,
        };
        self.create_view(
            "compose_shader_resource_view",
            ObjectKind::ShaderResourceView,
            desc,
            BindFlags::SHADER_RESOURCE,
            rule,
        )
        .map(ShaderResourceView)
    }

    /// Creates an unordered-access view; its resource needs `UNORDERED_ACCESS` (R-OBJ-2).
    pub fn create_unordered_access_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<UnorderedAccessView, Error> {
        self.create_view(
            "create_unordered_access_view",
            ObjectKind::UnorderedAccessView,
            desc,
            BindFlags::UNORDERED_ACCESS,
            ViewMinLod::BySemantics,
        )
        .map(UnorderedAccessView)
    }

    /// Creates a render-target view; its resource needs `RENDER_TARGET` (R-OBJ-2).
    pub fn create_render_target_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<RenderTargetView, Error> {
        if matches!(desc.resource, Resource::Buffer(_)) {
            return Err(Error::InvalidDesc {
                call: "create_render_target_view",
                object: self
                    .shared
                    .object_name(desc.resource.kind(), desc.resource.raw())
                    .to_string(),
                problem: DescProblem::ViewNeedsTexture {
                    view: "render-target",
                },
            });
        }
        self.create_view(
            "create_render_target_view",
            ObjectKind::RenderTargetView,
            desc,
            BindFlags::RENDER_TARGET,
            ViewMinLod::BySemantics,
        )
        .map(RenderTargetView)
    }

    /// Creates a depth-stencil view; its resource needs `DEPTH_STENCIL` (R-OBJ-2).
    pub fn create_depth_stencil_view(
        &self,
        desc: &ViewDesc<'_>,
    ) -> Result<DepthStencilView, Error> {
        if matches!(desc.resource, Resource::Buffer(_)) {
            return Err(Error::InvalidDesc {
                call: "create_depth_stencil_view",
                object: self
                    .shared
                    .object_name(desc.resource.kind(), desc.resource.raw())
                    .to_string(),
                problem: DescProblem::ViewNeedsTexture {
                    view: "depth-stencil",
                },
            });
        }
        self.create_view(
            "create_depth_stencil_view",
            ObjectKind::DepthStencilView,
            desc,
            BindFlags::DEPTH_STENCIL,
            ViewMinLod::BySemantics,
        )
        .map(DepthStencilView)
    }

    /// Creates a shader of `desc.stage` reading the slots `desc` names; slots past the stage's limits
    /// are refused (R-OBJ-5).
    pub fn create_shader(&self, desc: &ShaderDesc<'_>) -> Result<Shader, Error> {
        let stage = desc.stage;
        let uav_limit = if stage == Stage::Compute {
            limits::COMPUTE_UAV_SLOTS
        } else {
            limits::GRAPHICS_UAV_SLOTS
        };
        check_slot_sets(desc)?;
        if !desc.unordered_access_views.below(uav_limit) {
            return Err(Error::InvalidDesc {
                call: "create_shader",
                object: format!("shader '{}'", desc.name),
                problem: DescProblem::UavSlots {
                    stage,
                    limit: uav_limit,
                },
            });
        }
        if desc.stream_output && !matches!(stage, Stage::Vertex | Stage::Geometry | Stage::Domain) {
            return Err(Error::InvalidDesc {
                call: "create_shader",
                object: format!("shader '{}'", desc.name),
                problem: DescProblem::StreamOutputStage { stage },
            });
        }
        if !self.shared.shaders.has_room() {
            return Err(full("create_shader", ObjectKind::Shader));
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

    /// Creates an input layout reading the vertex-buffer slots `desc` names.
    pub fn create_input_layout(&self, desc: &InputLayoutDesc<'_>) -> Result<InputLayout, Error> {
        if !desc.vertex_buffers.below(limits::VERTEX_BUFFER_SLOTS) {
            return Err(slots_past_limit(
                "create_input_layout",
                "input layout",
                desc.name,
                "vertex-buffer",
                limits::VERTEX_BUFFER_SLOTS,
            ));
        }
        if !self.shared.input_layouts.has_room() {
            return Err(full("create_input_layout", ObjectKind::InputLayout));
        }
        Ok(InputLayout(self.shared.input_layouts.insert(
            [desc.vertex_buffers.bits() as u64],
            0,
            0,
            desc.name,
        )))
    }

    /// Creates a blend state (the model keeps only its identity).
    pub fn create_blend_state(&self, name: &str) -> Result<BlendState, Error> {
        self.shared
            .blend_states
            .has_room()
            .then(|| BlendState(self.shared.blend_states.insert([], 0, 0, name)))
            .ok_or_else(|| full("create_blend_state", ObjectKind::BlendState))
    }

    /// Creates a rasterizer state (the model keeps only its identity).
    pub fn create_rasterizer_state(&self, name: &str) -> Result<RasterizerState, Error> {
        self.shared
            .rasterizer_states
            .has_room()
            .then(|| RasterizerState(self.shared.rasterizer_states.insert([], 0, 0, name)))
            .ok_or_else(|| full("create_rasterizer_state", ObjectKind::RasterizerState))
    }

    /// Creates a depth-stencil state (the model keeps only its identity).
    pub fn create_depth_stencil_state(&self, name: &str) -> Result<DepthStencilState, Error> {
        self.shared
            .depth_stencil_states
            .has_room()
            .then(|| DepthStencilState(self.shared.depth_stencil_states.insert([], 0, 0, name)))
            .ok_or_else(|| full("create_depth_stencil_state", ObjectKind::DepthStencilState))
    }

    /// Creates a sampler state (the model keeps only its identity).
    pub fn create_sampler_state(&self, name: &str) -> Result<SamplerState, Error> {
        self.shared
            .sampler_states
            .has_room()
            .then(|| SamplerState(self.shared.sampler_states.insert([], 0, 0, name)))
            .ok_or_else(|| full("create_sampler_state", ObjectKind::SamplerState))
    }

    /// Creates a query of `kind`; a predicate drives `set_predication`.
    pub fn create_query(&self, name: &str, kind: QueryKind) -> Result<Query, Error> {
        self.shared
            .queries
            .has_room()
            .then(|| Query(self.shared.queries.insert([kind as u64], 0, 0, name)))
            .ok_or_else(|| full("create_query", ObjectKind::Query))
    }

    /// Creates a swap chain and its back buffers: textures `NAME.0 ..` with render-target views
    /// `NAME.0.rtv ..` (as TRACE.md's `swapchain` declaration names them).
    pub fn create_swap_chain(&self, desc: &SwapChainDesc<'_>) -> Result<SwapChain, Error> {
        const CALL: &str = "create_swap_chain";
        if !(1..=MAX_BACK_BUFFERS).contains(&desc.buffers) {
            return Err(Error::InvalidDesc {
                call: CALL,
                object: format!("swap chain '{}'", desc.name),
                problem: DescProblem::BackBufferCount {
                    given: desc.buffers,
                    limit: MAX_BACK_BUFFERS,
                },
            });
        }
        if !self.shared.swap_chains.has_room() {
            return Err(full("create_swap_chain", ObjectKind::SwapChain));
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
                dcc: false,
                back_buffer: Some((chain, i)),
            };
            let texture_name = format!("{}.{i}", desc.name);
            let built = self
                .insert_texture(CALL, info, &texture_name, None)
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
}

/// A shader's constant-buffer and sampler sets fit their kinds' slots (R-OBJ-5); its UAVs are
/// checked against its stage's limit by `create_shader`, its shader resources fit any set.
fn check_slot_sets(desc: &ShaderDesc<'_>) -> Result<(), Error> {
    let sets = [
        (
            desc.constant_buffers,
            "constant-buffer",
            limits::CONSTANT_BUFFER_SLOTS,
        ),
        (desc.samplers, "sampler", limits::SAMPLER_SLOTS),
    ];
    for (set, what, limit) in sets {
        if !set.below(limit) {
            return Err(slots_past_limit(
                "create_shader",
                "shader",
                desc.name,
                what,
                limit,
            ));
        }
    }
    Ok(())
}

#[cold]
fn slots_past_limit(
    call: &'static str,
    object: &str,
    name: &str,
    what: &'static str,
    limit: u32,
) -> Error {
    Error::InvalidDesc {
        call,
        object: format!("{object} '{name}'"),
        problem: DescProblem::SlotsPastLimit { what, limit },
    }
}
