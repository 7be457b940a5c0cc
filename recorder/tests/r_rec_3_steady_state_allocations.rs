//! R-REC-3: once the chunk pool is warm, recording a list performs no heap allocation. A counting
//! global allocator counts every allocation made by this test binary's thread while it records.

mod counting_alloc;

use counting_alloc::allocations_during;
use recorder::*;

struct Scene {
    vertex_buffers: Vec<Buffer>,
    index_buffer: Buffer,
    per_draw: Buffer,
    textures: Vec<ShaderResourceView>,
    sampler: SamplerState,
    shaders: Vec<(Shader, Shader)>,
    layout: InputLayout,
    target: RenderTargetView,
    depth: DepthStencilView,
    blend: BlendState,
    depth_state: DepthStencilState,
    raster: RasterizerState,
}

fn build_scene(device: &Device) -> Scene {
    let buffer = |name: &str, usage, bind| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 4096,
                usage,
                bind,
                ..Default::default()
            })
            .unwrap()
    };
    let texture = |i: usize| {
        let t = device
            .create_texture(&TextureDesc {
                width: 256,
                height: 256,
                ..Default::default()
            })
            .unwrap();
        device
            .create_shader_resource_view(&ViewDesc::new(&format!("tex{i}"), t))
            .unwrap()
    };
    let target = device
        .create_texture(&TextureDesc {
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            width: 1920,
            height: 1080,
            ..Default::default()
        })
        .unwrap();
    let depth = device
        .create_texture(&TextureDesc {
            format: Format::D32Float,
            bind: BindFlags::DEPTH_STENCIL,
            width: 1920,
            height: 1080,
            ..Default::default()
        })
        .unwrap();
    Scene {
        vertex_buffers: (0..8)
            .map(|_| buffer("vb", Usage::Immutable, BindFlags::VERTEX))
            .collect(),
        index_buffer: buffer("ib", Usage::Immutable, BindFlags::INDEX),
        per_draw: buffer("per_draw", Usage::Dynamic, BindFlags::CONSTANT),
        textures: (0..16).map(texture).collect(),
        sampler: device.create_sampler_state("linear").unwrap(),
        shaders: (0..4)
            .map(|_| {
                let vs = device
                    .create_shader(&ShaderDesc {
                        constant_buffers: Slots::first(2),
                        ..ShaderDesc::new("vs", Stage::Vertex)
                    })
                    .unwrap();
                let ps = device
                    .create_shader(&ShaderDesc {
                        constant_buffers: Slots::first(1),
                        shader_resources: Slots::first(2),
                        samplers: Slots::first(1),
                        ..ShaderDesc::new("ps", Stage::Pixel)
                    })
                    .unwrap();
                (vs, ps)
            })
            .collect(),
        layout: device
            .create_input_layout(&InputLayoutDesc {
                name: "layout",
                vertex_buffers: Slots::first(1),
            })
            .unwrap(),
        target: device
            .create_render_target_view(&ViewDesc::new("target", target))
            .unwrap(),
        depth: device
            .create_depth_stencil_view(&ViewDesc::new("depth", depth))
            .unwrap(),
        blend: device.create_blend_state("opaque").unwrap(),
        depth_state: device.create_depth_stencil_state("less").unwrap(),
        raster: device.create_rasterizer_state("cull_back").unwrap(),
    }
}

/// 10,000 draws with their state: per-draw constants mapped write_discard, material changes
/// every 16 draws, mesh changes every 4.
fn record(context: &mut DeferredContext, scene: &Scene) -> CommandList {
    context.set_render_targets(&[Some(scene.target)], Some(scene.depth));
    context.set_viewports(&[Viewport::new(0.0, 0.0, 1920.0, 1080.0)]);
    context.set_rasterizer_state(Some(scene.raster));
    context.set_blend_state(Some(scene.blend), [1.0; 4], u32::MAX);
    context.set_depth_stencil_state(Some(scene.depth_state), 0);
    context.set_input_layout(Some(scene.layout));
    context.set_primitive_topology(PrimitiveTopology::TriangleList);
    context.set_index_buffer(Some(scene.index_buffer), Format::R16Uint, 0);
    context.set_samplers(Stage::Pixel, 0, &[Some(scene.sampler)]);
    for draw in 0..10_000u32 {
        let i = draw as usize;
        if draw % 16 == 0 {
            let (vs, ps) = scene.shaders[i / 16 % scene.shaders.len()];
            context.set_shader(Stage::Vertex, Some(vs));
            context.set_shader(Stage::Pixel, Some(ps));
            let t = i / 16 % (scene.textures.len() - 1);
            context.set_shader_resources(
                Stage::Pixel,
                0,
                &[Some(scene.textures[t]), Some(scene.textures[t + 1])],
            );
        }
        if draw % 4 == 0 {
            let vb = scene.vertex_buffers[i / 4 % scene.vertex_buffers.len()];
            context.set_vertex_buffers(
                0,
                &[VertexBuffer {
                    buffer: Some(vb),
                    stride: 32,
                    offset: 0,
                }],
            );
        }
        if let Ok(data) = context
            .map(scene.per_draw, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
        {
            data[..4].copy_from_slice(&draw.to_le_bytes());
        }
        context.unmap(scene.per_draw);
        context.set_constant_buffers(Stage::Vertex, 0, &[Some(scene.per_draw)]);
        context.draw_indexed(36, 0, 0);
    }
    context
        .finish_command_list(RestoreState::ClearState)
        .expect("the frame records without errors")
}

#[test]
fn r_rec_3_recording_again_after_a_warm_up_frame_allocates_nothing() {
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let device = Device::new(DeviceDesc::default());
        let scene = build_scene(&device);
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "worker",
                semantics,
                chunk_policy: None,
                ..Default::default()
            })
            .unwrap();
        // Warm-up frame: the pool and the context's tables reach their steady-state sizes.
        let warm_up = record(&mut context, &scene);
        assert_eq!(warm_up.stats().draws, 10_000);
        drop(warm_up);

        let (list, allocations) = allocations_during(|| record(&mut context, &scene));
        assert_eq!(list.stats().draws, 10_000);
        assert!(list.stats().chunks > 1, "the frame spans several chunks");
        assert_eq!(
            allocations, 0,
            "{semantics:?}: recording allocated {allocations} times after warm-up"
        );

        // The check itself works: a first frame on a cold device does allocate (chunks).
        let cold = Device::new(DeviceDesc::default());
        let cold_scene = build_scene(&cold);
        let mut cold_context = cold
            .create_deferred_context(&DeferredContextDesc {
                name: "cold",
                semantics,
                chunk_policy: None,
                ..Default::default()
            })
            .unwrap();
        let (_, cold_allocations) = allocations_during(|| record(&mut cold_context, &cold_scene));
        assert!(cold_allocations > 0, "a cold pool must allocate chunks");
    }
}

/// R-REC-3 with R-REC-4: the pool keeps a free stack per chunk size, so recording in chunks of
/// any size (a small class, a doubling policy that passes 1 MB into the pool's map of large
/// sizes, a fixed large size) allocates nothing once warm, with the pool full of chunks of other
/// sizes.
#[test]
fn r_rec_3_r_rec_4_every_chunk_size_records_without_allocating_beside_a_full_pool() {
    let policies = [
        ChunkPolicy {
            chunk_size: 4096,
            ..ChunkPolicy::default()
        },
        ChunkPolicy {
            chunk_size: 4096,
            growth: GrowthPolicy::Doubling { max: 4 << 20 },
            ..ChunkPolicy::default()
        },
        ChunkPolicy {
            chunk_size: 2 << 20,
            ..ChunkPolicy::default()
        },
    ];
    let device = Device::new(DeviceDesc::default());
    device.reserve_chunks(256);
    let scene = build_scene(&device);
    for policy in policies {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "worker",
                semantics: Semantics::Fast,
                chunk_policy: Some(policy.clone()),
                ..Default::default()
            })
            .unwrap();
        drop(record(&mut context, &scene));
        let before = device.pool_stats();
        let (list, allocations) = allocations_during(|| record(&mut context, &scene));
        assert_eq!(list.stats().draws, 10_000);
        assert_eq!(
            allocations, 0,
            "{policy:?}: recording allocated after warm-up"
        );
        let after = device.pool_stats();
        assert_eq!(
            after.allocated_chunks, before.allocated_chunks,
            "{policy:?}"
        );
        assert!(
            after.free_chunks >= 256,
            "the reserved chunks are still there"
        );
    }
}

/// Dropping a legacy list gives back its references from the table of distinct objects its
/// finish wrote (R-OBJ-4), allocating nothing, and leaves the counts where they were before it
/// was recorded.
#[test]
fn r_rec_3_dropping_a_legacy_list_allocates_nothing() {
    let device = Device::new(DeviceDesc::default());
    let scene = build_scene(&device);
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "worker",
            semantics: Semantics::Legacy,
            chunk_policy: None,
            ..Default::default()
        })
        .unwrap();
    drop(record(&mut context, &scene));
    let list = record(&mut context, &scene);
    // At least one per draw (its map and its bind each take one).
    assert!(device.references(scene.per_draw) >= Some(2 * 10_000));
    let ((), allocations) = allocations_during(|| drop(list));
    assert_eq!(allocations, 0, "the drop allocated {allocations} times");
    assert_eq!(device.references(scene.per_draw), Some(0));
    assert_eq!(device.references(scene.index_buffer), Some(0));
}

/// R-FX-1: applying a batch (and `set_fast_resources`) in a warm steady state allocates nothing,
/// on either semantics.
#[test]
fn r_fx_1_applying_a_batch_allocates_nothing() {
    let device = Device::new(DeviceDesc::default());
    let scene = build_scene(&device);
    let mut batch = FastResourceBatch::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "batches",
                semantics,
                ..Default::default()
            })
            .unwrap();
        batch.clear();
        context.set_fast_resources_into_batch(
            &mut batch,
            &[
                FastResource::ShaderResource {
                    stage: Stage::Pixel,
                    slot: 0,
                    view: Some(scene.textures[0]),
                },
                FastResource::ShaderResource {
                    stage: Stage::Pixel,
                    slot: 1,
                    view: Some(scene.textures[1]),
                },
                FastResource::Sampler {
                    stage: Stage::Pixel,
                    slot: 0,
                    sampler: Some(scene.sampler),
                },
            ],
        );
        assert_eq!(batch.len(), 3);
        let per_draw = [FastResource::ConstantBuffer {
            stage: Stage::Vertex,
            slot: 0,
            buffer: Some(scene.per_draw),
        }];
        let frame = |context: &mut DeferredContext| {
            let (vs, ps) = scene.shaders[0];
            context.set_shader(Stage::Vertex, Some(vs));
            context.set_shader(Stage::Pixel, Some(ps));
            for _ in 0..2_000 {
                context.set_fast_resources_from_batch(&batch);
                if let Ok(data) = context
                    .map(scene.per_draw, MapType::WriteDiscard, MapFlags::None)
                    .map(Mapped::keep_mapped)
                {
                    data[0] = 1;
                }
                context.unmap(scene.per_draw);
                context.set_fast_resources(&per_draw);
                context.draw(3, 0);
            }
            context
                .finish_command_list(RestoreState::ClearState)
                .unwrap()
        };
        let warm_up = frame(&mut context);
        assert_eq!(warm_up.stats().split_points.total(), 0, "{semantics:?}");
        drop(warm_up);
        let (list, allocations) = allocations_during(|| frame(&mut context));
        assert_eq!(list.stats().draws, 2_000);
        assert_eq!(allocations, 0, "{semantics:?}: {allocations} allocations");
    }
}
