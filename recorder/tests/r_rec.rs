//! Requirement tests for SPEC §3, deferred contexts and recording (R-REC-1 .. R-REC-11), and the
//! fast-semantics prohibitions the recording path enforces (R-ST-7).

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use common::*;
use recorder::command::{Command, DirectArgs, InstanceId};
use recorder::limits::*;
use recorder::*;

fn assert_send<T: Send>() {}
fn assert_send_sync<T: Send + Sync>() {}

/// Compiles only if `T` is not `Sync`: with a `Sync` type the two impls make `check` ambiguous.
trait AmbiguousIfSync<A> {
    fn check() {}
}
impl<T: ?Sized> AmbiguousIfSync<()> for T {}
struct IsSync;
impl<T: ?Sized + Sync> AmbiguousIfSync<IsSync> for T {}

/// Drops `list` and returns the chunks and bytes the device's pool gained.
fn returned_to_pool(device: &Device, list: CommandList) -> (u64, u64) {
    let before = device.pool_stats();
    drop(list);
    let after = device.pool_stats();
    (
        after.free_chunks - before.free_chunks,
        after.free_bytes - before.free_bytes,
    )
}

/// Records draws until the list being recorded spans `chunks` chunks.
fn fill_to_chunks(context: &mut DeferredContext, chunks: u32) {
    let mut guard = 0;
    while context.stats().chunks < chunks {
        context.draw(3, guard);
        guard += 1;
        assert!(guard < 10_000_000, "the list never grew to {chunks} chunks");
    }
}

fn small_chunks(chunk_size: usize, growth: GrowthPolicy) -> ChunkPolicy {
    ChunkPolicy {
        chunk_size,
        growth,
        ..ChunkPolicy::default()
    }
}

// ----- R-REC-1 ---------------------------------------------------------------------------------

#[test]
fn r_rec_1_forty_ninth_context_is_refused_with_too_many_contexts() {
    assert_eq!(MAX_DEFERRED_CONTEXTS, 48);
    let device = Device::new(DeviceDesc::default());
    let mut contexts: Vec<DeferredContext> = (0..48)
        .map(|i| {
            let semantics = if i % 2 == 0 {
                Semantics::Legacy
            } else {
                Semantics::Fast
            };
            context(&device, semantics)
        })
        .collect();
    assert_eq!(device.live_deferred_contexts(), 48);
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let error = device
            .create_deferred_context(&DeferredContextDesc {
                name: "49th",
                semantics,
                chunk_policy: None,
                ..Default::default()
            })
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::TooManyContexts);
        assert!(
            matches!(error, Error::TooManyContexts { limit: 48 }),
            "{error:?}"
        );
    }
    assert_eq!(device.live_deferred_contexts(), 48);
    // The live ones still work.
    contexts[0].draw(3, 0);
    assert_eq!(finish(&mut contexts[0]).stats().draws, 1);
    // Dropping one makes room for exactly one.
    contexts.pop();
    assert_eq!(device.live_deferred_contexts(), 47);
    contexts.push(context(&device, Semantics::Fast));
    assert_eq!(
        device
            .create_deferred_context(&DeferredContextDesc::default())
            .map_err(|e| e.kind())
            .err(),
        Some(ErrorKind::TooManyContexts)
    );
    drop(contexts);
    assert_eq!(device.live_deferred_contexts(), 0);
    // The limit is per device.
    let other = Device::new(DeviceDesc::default());
    let _others: Vec<_> = (0..48)
        .map(|_| context(&other, Semantics::Legacy))
        .collect();
    let _mine: Vec<_> = (0..48)
        .map(|_| context(&device, Semantics::Legacy))
        .collect();
}

#[test]
fn r_rec_1_the_limit_holds_when_contexts_are_created_from_many_threads() {
    let device = Device::new(DeviceDesc::default());
    let results: Vec<Vec<Result<DeferredContext, ErrorKind>>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|_| {
                let device = device.clone();
                scope.spawn(move || {
                    (0..10)
                        .map(|_| {
                            device
                                .create_deferred_context(&DeferredContextDesc::default())
                                .map_err(|e| e.kind())
                        })
                        .collect()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let created = results.iter().flatten().filter(|r| r.is_ok()).count();
    let refused: Vec<_> = results
        .iter()
        .flatten()
        .filter_map(|r| r.as_ref().err())
        .collect();
    assert_eq!(created, 48);
    assert_eq!(refused.len(), 80 - 48);
    assert!(refused.iter().all(|k| **k == ErrorKind::TooManyContexts));
    assert_eq!(device.live_deferred_contexts(), 48);
}

// ----- R-REC-2 ---------------------------------------------------------------------------------

#[test]
fn r_rec_2_deferred_context_is_send_and_not_sync() {
    assert_send::<DeferredContext>();
    // Compiles only while `DeferredContext: !Sync`.
    let _ = <DeferredContext as AmbiguousIfSync<_>>::check;
}

#[test]
fn r_rec_2_a_context_records_on_a_spawned_thread_and_comes_back() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut context = f.context(semantics);
        context.set_vertex_buffers(0, &[vertex(f.vb)]);
        let (vb, ps) = (f.vb, f.ps);
        let (mut context, list) = std::thread::spawn(move || {
            context.set_shader(Stage::Pixel, Some(ps));
            for i in 0..100 {
                context.draw(3, i);
            }
            let list = context
                .finish_command_list(RestoreState::ClearState)
                .unwrap();
            (context, list)
        })
        .join()
        .unwrap();
        assert_eq!(list.stats().draws, 100);
        assert_eq!(list.stats().calls, 102);
        let first = list.commands().next().unwrap().command;
        assert!(
            matches!(first, Command::SetVertexBuffers { buffers, .. } if buffers[0].buffer == vb.raw())
        );
        // Back on this thread, the context records on.
        context.draw(3, 0);
        assert_eq!(finish(&mut context).stats().draws, 1);
    }
}

#[test]
fn r_rec_2_many_contexts_record_in_parallel() {
    let f = Fixture::new();
    let baseline = f.references();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let contexts: Vec<DeferredContext> = (0..8).map(|_| f.context(semantics)).collect();
        let lists: Vec<CommandList> = std::thread::scope(|scope| {
            let workers: Vec<_> = contexts
                .into_iter()
                .enumerate()
                .map(|(t, mut context)| {
                    let f = &f;
                    scope.spawn(move || {
                        for i in 0..2000u32 {
                            // Every thread binds the same objects (legacy: reference counts
                            // from many threads at once).
                            context.set_vertex_buffers(0, &[vertex(f.vb)]);
                            context.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv)]);
                            context.draw(t as u32 + 1, i);
                        }
                        context
                            .finish_command_list(RestoreState::ClearState)
                            .unwrap()
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        for (t, list) in lists.iter().enumerate() {
            assert_eq!(list.stats().draws, 2000);
            let mut starts = Vec::new();
            for decoded in list.commands() {
                if let Command::Draw(args) = decoded.command {
                    let (vertex_count, start_vertex) = (args.get(0), args.get(1));
                    assert_eq!(vertex_count, t as i64 + 1, "list {t} holds only its draws");
                    starts.push(start_vertex as u32);
                }
            }
            assert_eq!(starts, (0..2000).collect::<Vec<_>>());
        }
        if semantics == Semantics::Legacy {
            assert_eq!(f.device.references(f.vb), Some(8 * 2000));
            assert_eq!(f.device.references(f.tex_srv), Some(8 * 2000));
        }
        drop(lists);
        assert_eq!(f.references(), baseline);
    }
}

// ----- R-REC-3 ---------------------------------------------------------------------------------

#[test]
fn r_rec_3_commands_carry_descriptors_copied_in_at_record_time() {
    let f = Fixture::new();
    // Legacy: a shader-resource bind copies the resource's minimum LOD in force at the bind.
    let mut legacy = f.legacy();
    legacy.set_resource_min_lod(f.tex, 2.0);
    legacy.set_shader_resources(Stage::Pixel, 3, &[Some(f.tex_srv)]);
    legacy.set_resource_min_lod(f.tex, 5.0);
    legacy.set_vertex_buffers(
        2,
        &[VertexBuffer {
            buffer: Some(f.vb),
            stride: 24,
            offset: 48,
        }],
    );
    legacy.set_index_buffer(Some(f.ib), Format::R16Uint, 12);
    legacy.set_shader(Stage::Pixel, Some(f.ps));
    let list = finish(&mut legacy);
    // Fast: the view's minimum LOD.
    let mut fast = f.fast();
    fast.set_shader_resource_view_min_lod(f.tex_srv, 1.25);
    fast.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv)]);
    fast.set_shader_resource_view_min_lod(f.tex_srv, 4.0);
    let fast_list = finish(&mut fast);

    let mut saw = 0;
    for decoded in list.commands() {
        match decoded.command {
            Command::SetShaderResources {
                stage,
                start,
                views,
            } => {
                assert_eq!((stage, start, views.len()), (Stage::Pixel, 3, 1));
                let v = views[0];
                assert_eq!(v.view, f.tex_srv.raw());
                assert_eq!(v.resource, f.tex.raw());
                assert_eq!(v.format, Format::R8G8B8A8Unorm);
                assert_eq!(v.min_lod, 2.0, "the value at the bind, not the later one");
                assert_eq!(v.instance, InstanceId::INITIAL);
                saw += 1;
            }
            Command::SetVertexBuffers { start, buffers } => {
                assert_eq!(start, 2);
                assert_eq!(buffers[0].buffer, f.vb.raw());
                assert_eq!((buffers[0].stride_or_format, buffers[0].offset), (24, 48));
                saw += 1;
            }
            Command::SetIndexBuffer(b) => {
                assert_eq!(b.buffer, f.ib.raw());
                assert_eq!(b.index_format(), Format::R16Uint);
                assert_eq!(b.offset, 12);
                saw += 1;
            }
            Command::SetShader { stage, shader } => {
                let info = f.device.shader_info(f.ps).unwrap();
                assert_eq!(stage, Stage::Pixel);
                assert_eq!(shader.shader, f.ps.raw());
                assert_eq!(
                    shader.constant_buffers as u128,
                    info.constant_buffers.bits()
                );
                assert_eq!(shader.shader_resources(), info.shader_resources.bits());
                assert_eq!(shader.samplers as u128, info.samplers.bits());
                assert_eq!(
                    shader.unordered_access_views as u128,
                    info.unordered_access_views.bits()
                );
                saw += 1;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(saw, 4);
    let views: Vec<_> = fast_list
        .commands()
        .filter_map(|d| match d.command {
            Command::SetShaderResources { views, .. } => Some(views[0]),
            _ => None,
        })
        .collect();
    assert_eq!(views.len(), 1);
    assert_eq!(
        views[0].min_lod, 1.25,
        "fast binds copy the view's minimum LOD"
    );
}

#[test]
fn r_rec_3_lists_are_recorded_into_64_kb_chunks_by_default() {
    assert_eq!(DEFAULT_CHUNK_SIZE, 64 * 1024);
    assert_eq!(ChunkPolicy::default().chunk_size, DEFAULT_CHUNK_SIZE);
    let device = Device::new(DeviceDesc::default());
    let mut context = context(&device, Semantics::Fast);
    context.draw(3, 0);
    let small = finish(&mut context);
    assert_eq!(small.stats().chunks, 1);
    assert_eq!(
        returned_to_pool(&device, small),
        (1, DEFAULT_CHUNK_SIZE as u64)
    );
    fill_to_chunks(&mut context, 2);
    let large = finish(&mut context);
    assert_eq!(large.stats().chunks, 2);
    assert_eq!(chunks_walked(&large), 2, "the commands lie in two chunks");
    assert!(large.stats().bytes > DEFAULT_CHUNK_SIZE as u64 / 2);
    assert_eq!(
        large.commands().count() as u32,
        large.stats().commands,
        "every command decodes, none straddles a chunk"
    );
    assert_eq!(
        returned_to_pool(&device, large),
        (2, 2 * DEFAULT_CHUNK_SIZE as u64)
    );
}

#[test]
fn r_rec_3_dropping_a_list_returns_its_chunks_to_the_pool_for_reuse() {
    let f = Fixture::with_policy(small_chunks(4096, GrowthPolicy::Fixed));
    let mut context = f.legacy();
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    fill_to_chunks(&mut context, 5);
    let first = finish(&mut context);
    let chunks = first.stats().chunks as u64;
    assert_eq!(chunks, 5);
    let warm = f.device.pool_stats();
    assert_eq!(warm.free_chunks, 0, "every chunk is in use");
    assert_eq!(returned_to_pool(&f.device, first), (chunks, chunks * 4096));
    // The next list of the same size takes every chunk from the pool.
    let allocated = f.device.pool_stats().allocated_chunks;
    let reused = f.device.pool_stats().reused_chunks;
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    fill_to_chunks(&mut context, 5);
    let second = finish(&mut context);
    assert_eq!(second.stats().chunks, 5);
    let after = f.device.pool_stats();
    assert_eq!(
        after.allocated_chunks, allocated,
        "no new chunk was allocated"
    );
    assert!(after.reused_chunks >= reused + 4, "{after:?}");
    drop(second);
}

#[test]
fn r_rec_3_chunks_reserved_ahead_of_the_first_frame_are_all_it_takes() {
    let device = Device::new(DeviceDesc::default());
    device.reserve_chunks(4);
    let reserved = device.pool_stats();
    assert_eq!(reserved.free_chunks, 4);
    assert_eq!(reserved.free_bytes, 4 * DEFAULT_CHUNK_SIZE as u64);
    let mut c = context(&device, Semantics::Fast);
    fill_to_chunks(&mut c, 3);
    let list = finish(&mut c);
    let after = device.pool_stats();
    assert_eq!(
        after.allocated_chunks, reserved.allocated_chunks,
        "the first frame took every chunk from the pool"
    );
    assert_eq!(after.free_chunks, 0);
    assert_eq!(
        returned_to_pool(&device, list),
        (3, 3 * DEFAULT_CHUNK_SIZE as u64)
    );
}

#[test]
fn r_rec_3_a_command_larger_than_a_chunk_gets_a_chunk_of_its_own() {
    let f = Fixture::with_policy(small_chunks(4096, GrowthPolicy::Fixed));
    let big = f
        .device
        .create_buffer(&BufferDesc {
            name: "big",
            size: 40_000,
            usage: Usage::Dynamic,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut context = f.context(semantics);
        context.draw(3, 0);
        let data = context
            .map(big, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap();
        assert_eq!(data.len(), 40_000);
        data.iter_mut().enumerate().for_each(|(i, b)| *b = i as u8);
        context.unmap(big);
        context.draw(3, 1);
        let list = finish(&mut context);
        let maps = write_discards(&list);
        assert_eq!(maps.len(), 1);
        assert!(maps[0].2.iter().enumerate().all(|(i, b)| *b == i as u8));
        assert_eq!(list.commands().count(), 3);
        let chunks = list.stats().chunks;
        assert!(
            chunks >= 2,
            "the map needed a chunk larger than the policy's"
        );
        assert_eq!(chunks, chunks_walked(&list));
        let (returned, bytes) = returned_to_pool(&f.device, list);
        assert_eq!(returned, chunks as u64);
        assert!(bytes >= 40_000 + 4096, "{bytes}");
    }
}

// ----- R-REC-4 ---------------------------------------------------------------------------------

#[test]
fn r_rec_4_chunk_size_is_configurable_per_device() {
    let f = Fixture::with_policy(small_chunks(8192, GrowthPolicy::Fixed));
    let mut context = f.fast();
    fill_to_chunks(&mut context, 3);
    let list = finish(&mut context);
    assert_eq!(list.stats().chunks, 3);
    assert_eq!(chunks_walked(&list), 3);
    assert_eq!(returned_to_pool(&f.device, list), (3, 3 * 8192));
}

#[test]
fn r_rec_4_a_contexts_chunk_policy_overrides_the_devices() {
    let device = Device::new(DeviceDesc::default());
    let mut small = named_context(
        &device,
        "small",
        Semantics::Legacy,
        Some(small_chunks(4096, GrowthPolicy::Fixed)),
    );
    let mut default = named_context(&device, "default", Semantics::Legacy, None);
    fill_to_chunks(&mut small, 2);
    default.draw(3, 0);
    let small_list = finish(&mut small);
    let default_list = finish(&mut default);
    assert_eq!(returned_to_pool(&device, small_list), (2, 2 * 4096));
    assert_eq!(
        returned_to_pool(&device, default_list),
        (1, DEFAULT_CHUNK_SIZE as u64)
    );
}

#[test]
fn r_rec_4_doubling_growth_doubles_each_chunk_up_to_its_max() {
    let max = 16 * 1024;
    let f = Fixture::with_policy(small_chunks(4096, GrowthPolicy::Doubling { max }));
    let mut context = f.fast();
    fill_to_chunks(&mut context, 6);
    let list = finish(&mut context);
    assert_eq!(list.stats().chunks, 6);
    assert_eq!(chunks_walked(&list), 6);
    let mut expected = 0u64;
    let mut size = 4096usize;
    for _ in 0..6 {
        expected += size as u64;
        size = (size * 2).min(max);
    }
    assert_eq!(returned_to_pool(&f.device, list), (6, expected));
    // The next list starts again at the first size.
    context.draw(3, 0);
    let next = finish(&mut context);
    assert_eq!(returned_to_pool(&f.device, next), (1, 4096));
}

#[test]
fn r_rec_4_custom_growth_is_asked_for_every_chunk_after_the_first() {
    let asked: Arc<Mutex<Vec<(u32, usize)>>> = Arc::default();
    let log = asked.clone();
    let growth = GrowthPolicy::Custom(Arc::new(move |index, previous| {
        log.lock().unwrap().push((index, previous));
        4096 * (index as usize + 1)
    }));
    let device = Device::new(DeviceDesc::default());
    let mut context = named_context(
        &device,
        "custom",
        Semantics::Legacy,
        Some(small_chunks(4096, growth)),
    );
    fill_to_chunks(&mut context, 4);
    let list = finish(&mut context);
    assert_eq!(list.stats().chunks, 4);
    assert_eq!(
        *asked.lock().unwrap(),
        vec![(1, 4096), (2, 8192), (3, 12288)]
    );
    assert_eq!(
        returned_to_pool(&device, list),
        (4, 4096 + 8192 + 12288 + 16384)
    );
}

#[test]
fn r_rec_4_pool_limit_caps_what_the_pool_keeps() {
    let f = Fixture::with_policy(ChunkPolicy {
        chunk_size: 4096,
        growth: GrowthPolicy::Fixed,
        pool_limit: 3 * 4096,
    });
    let mut context = f.legacy();
    fill_to_chunks(&mut context, 6);
    let list = finish(&mut context);
    assert_eq!(f.device.pool_stats().free_chunks, 0);
    drop(list);
    let stats = f.device.pool_stats();
    assert_eq!((stats.free_chunks, stats.free_bytes), (3, 3 * 4096));
    // The context's open list returns its chunk to a full pool, which frees it.
    drop(context);
    let stats = f.device.pool_stats();
    assert_eq!((stats.free_chunks, stats.free_bytes), (3, 3 * 4096));
}

#[test]
fn r_rec_4_a_contexts_pool_limit_caps_what_its_lists_return_to_the_pool() {
    // The device keeps up to its default 256 MB; this context's policy keeps one chunk.
    let device = Device::new(DeviceDesc::default());
    let mut limited = named_context(
        &device,
        "limited",
        Semantics::Fast,
        Some(ChunkPolicy {
            chunk_size: 4096,
            growth: GrowthPolicy::Fixed,
            pool_limit: 4096,
        }),
    );
    fill_to_chunks(&mut limited, 4);
    let list = finish(&mut limited);
    assert_eq!(list.stats().chunks, 4);
    let (chunks, bytes) = returned_to_pool(&device, list);
    assert!(
        bytes <= 4096,
        "the context's pool_limit of 4096 bytes was ignored: its list returned {chunks} chunks \
         ({bytes} bytes) to the pool"
    );
}

#[test]
fn r_rec_4_list_statistics_count_calls_commands_bytes_chunks_draws_and_split_points() {
    let f = Fixture::new();
    let mut context = f.legacy();
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    context.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    context.clear_render_target_view(f.rt_rtv, [1.0; 4]);
    context.set_depth_stencil_state(Some(f.dss), 0);
    context.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn), Some(f.cb_dyn2)]);
    context.set_constant_buffers(Stage::Pixel, CONSTANT_BUFFER_SLOTS, &[Some(f.cb)]); // refused
    context.dispatch(1, 1, 1);
    for i in 0..4 {
        context.draw(3, i);
    }
    let live = context.stats();
    assert_eq!(live.calls, 10, "refused calls are not counted");
    // Two dynamic constant buffers: the bind and one split-point command per slot.
    assert_eq!(live.commands, 12);
    assert_eq!(live.draws, 5, "draws and dispatches");
    assert_eq!(live.chunks, 1);
    assert_eq!(
        live.split_points,
        counts(&[
            (SplitCategory::ClearRenderTarget, 2),
            (SplitCategory::SetDepthStencilState, 1),
            (SplitCategory::DynamicConstantBuffer, 2),
        ])
    );
    let mut context_without_error = f.legacy();
    context_without_error.set_vertex_buffers(0, &[vertex(f.vb)]);
    context_without_error.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    context_without_error.clear_render_target_view(f.rt_rtv, [1.0; 4]);
    for i in 0..4 {
        context_without_error.draw(3, i);
    }
    let expected = context_without_error.stats();
    let list = finish(&mut context_without_error);
    let stats = *list.stats();
    assert_eq!(
        stats, expected,
        "the list keeps the counters seen while recording"
    );
    assert_eq!(stats.calls, 7);
    assert_eq!(stats.commands, 7);
    assert_eq!(stats.commands as usize, list.commands().count());
    // Bytes: the list header, every command and one side record per split point. Sizes come
    // from the offsets of consecutive commands; the last command is a draw like the one before.
    let offsets: Vec<u32> = list.commands().map(|d| d.offset).collect();
    let draw_size = offsets[6] - offsets[5];
    let end = offsets[6] + draw_size;
    // Where commands start in a chunk (after its header): the offset of the first command of a
    // list's second chunk.
    let data_start = {
        let mut probe = named_context(
            &f.device,
            "probe",
            Semantics::Fast,
            Some(small_chunks(4096, GrowthPolicy::Fixed)),
        );
        fill_to_chunks(&mut probe, 2);
        let probe = finish(&mut probe);
        let offsets: Vec<u32> = probe.commands().map(|d| d.offset).collect();
        let top = offsets
            .windows(2)
            .find(|w| w[1] < w[0])
            .expect("a second chunk")[1];
        assert!(
            top > 0 && top < offsets[0],
            "the list header comes first in a list"
        );
        top
    };
    assert_eq!(
        stats.bytes,
        (end - data_start) as u64 + 8 * stats.split_points.total() as u64
    );
    // A list with more draws grows by exactly one draw each.
    context_without_error.draw(3, 0);
    context_without_error.draw(3, 0);
    let two = finish(&mut context_without_error);
    context_without_error.draw(3, 0);
    let one = finish(&mut context_without_error);
    assert_eq!(two.stats().bytes - one.stats().bytes, draw_size as u64);
}

// ----- R-REC-5 ---------------------------------------------------------------------------------

#[test]
fn r_rec_5_every_recording_call_encodes_its_command() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let mut c = f.context(semantics);
        let viewport = Viewport::new(1.0, 2.0, 30.0, 40.0);
        let rects = [
            Rect {
                left: 1,
                top: 2,
                right: 3,
                bottom: 4,
            },
            Rect {
                left: 5,
                top: 6,
                right: 7,
                bottom: 8,
            },
        ];
        c.set_input_layout(Some(f.layout));
        c.set_primitive_topology(PrimitiveTopology::TriangleStrip);
        c.set_vertex_buffers(
            1,
            &[VertexBuffer {
                buffer: Some(f.vb),
                stride: 20,
                offset: 4,
            }],
        );
        c.set_index_buffer(Some(f.ib), Format::R32Uint, 8);
        c.set_primitive_reset_index(0xFFFF);
        c.set_shader(Stage::Vertex, Some(f.vs));
        c.set_constant_buffers(Stage::Pixel, 2, &[Some(f.cb), None]);
        c.set_shader_resources(Stage::Geometry, 5, &[Some(f.tex_srv)]);
        c.set_samplers(Stage::Hull, 3, &[Some(f.sampler)]);
        c.set_compute_unordered_access_views(4, &[Some(f.sb_uav)]);
        c.set_render_targets(&[Some(f.rt_plain_rtv)], Some(f.ds_dsv));
        c.set_render_targets_and_unordered_access_views(
            &[Some(f.rt_plain_rtv)],
            None,
            1,
            &[Some(f.sb_uav)],
        );
        c.set_rasterizer_state(Some(f.raster));
        c.set_viewports(&[viewport]);
        c.set_scissor_rects(&rects);
        c.set_blend_state(Some(f.blend), [0.5; 4], 0xF);
        c.set_depth_stencil_state(Some(f.dss), 7);
        c.draw(3, 1);
        c.draw_indexed(6, 2, -3);
        c.draw_instanced(3, 4, 5, 6);
        c.draw_indexed_instanced(6, 2, 1, -1, 9);
        c.draw_auto();
        c.draw_instanced_indirect(f.args, 16);
        c.draw_indexed_instanced_indirect(f.args, 32);
        c.dispatch(2, 3, 4);
        c.dispatch_indirect(f.args, 0);
        c.clear_render_target_view(f.rt_plain_rtv, [1.0, 0.0, 0.0, 1.0]);
        c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH_STENCIL, 0.5, 3);
        c.copy_resource(f.copy_a, f.copy_b);
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .unwrap()[..3]
            .copy_from_slice(&[9, 8, 7]); // unmapped on drop
        c.map(f.cb, MapType::WriteNoOverwrite, MapFlags::AllowUsageDefault)
            .unwrap()[..2]
            .copy_from_slice(&[5, 6]); // unmapped on drop
        c.set_predication(Some(f.predicate), PredicateValue::True);
        c.begin_query(f.occlusion);
        c.end_query(f.occlusion);
        c.clear_state();
        c.decompress_resource(f.rt, Some(f.rt_plain));
        c.set_resource_compression(f.ds, Compression::Decompressed);
        c.set_resource_min_lod(f.tex, 2.0);
        c.set_shader_resource_view_min_lod(f.tex_srv, 3.0);
        c.insert_wait_on_present(f.chain);
        let fence = c.insert_fence(Engine::Compute);
        c.insert_wait_on_fence(Engine::Dma, fence);
        c.write_value_bottom_of_pipe(f.args, 8, 77);
        c.insert_wait_on_memory(f.args, 16, 5);
        let mut calls = 46;
        if semantics == Semantics::Legacy {
            c.update_subresource(f.cb, &[1, 2, 3, 4, 5]);
            c.copy_structure_count(f.copy_a, 4, f.append_uav);
            calls += 2;
        }
        assert!(c.error().is_none(), "{semantics:?}: {:?}", c.error());
        let list = finish(&mut c);
        assert_eq!(list.stats().calls, calls, "{semantics:?}");
        assert_eq!(f.device.resource_min_lod(f.tex), Some(2.0));
        assert_eq!(f.device.shader_resource_view_min_lod(f.tex_srv), Some(3.0));

        let commands: Vec<Command> = list.commands().map(|d| d.command).collect();
        let mut it = commands.iter();
        let mut next = || *it.next().expect("fewer commands than calls");
        use Command as C;
        assert!(
            matches!(next(), C::SetInputLayout { layout, vertex_buffers: 0b11 } if layout == f.layout.raw())
        );
        assert!(matches!(
            next(),
            C::SetPrimitiveTopology(PrimitiveTopology::TriangleStrip)
        ));
        assert!(matches!(next(), C::SetVertexBuffers { start: 1, buffers }
            if buffers.len() == 1 && buffers[0].buffer == f.vb.raw()
                && buffers[0].stride_or_format == 20 && buffers[0].offset == 4));
        assert!(
            matches!(next(), C::SetIndexBuffer(b) if b.buffer == f.ib.raw()
            && b.index_format() == Format::R32Uint && b.offset == 8)
        );
        assert!(matches!(next(), C::SetPrimitiveResetIndex(0xFFFF)));
        assert!(
            matches!(next(), C::SetShader { stage: Stage::Vertex, shader } if shader.shader == f.vs.raw())
        );
        assert!(
            matches!(next(), C::SetConstantBuffers { stage: Stage::Pixel, start: 2, buffers }
            if buffers.len() == 2 && buffers[0].buffer == f.cb.raw() && buffers[1].buffer.is_null())
        );
        assert!(
            matches!(next(), C::SetShaderResources { stage: Stage::Geometry, start: 5, views }
            if views.len() == 1 && views[0].view == f.tex_srv.raw() && views[0].resource == f.tex.raw())
        );
        assert!(
            matches!(next(), C::SetSamplers { stage: Stage::Hull, start: 3, samplers }
            if samplers == [f.sampler.raw()])
        );
        assert!(
            matches!(next(), C::SetComputeUnorderedAccessViews { start: 4, views }
            if views.len() == 1 && views[0].view == f.sb_uav.raw())
        );
        assert!(
            matches!(next(), C::SetRenderTargets { targets: Some((rtvs, dsv)), uavs: None, .. }
            if rtvs.len() == 1 && rtvs[0].view == f.rt_plain_rtv.raw() && dsv.view == f.ds_dsv.raw())
        );
        assert!(
            matches!(next(), C::SetRenderTargets { targets: Some((rtvs, dsv)), uavs: None, .. }
            if rtvs.len() == 1 && rtvs[0].view == f.rt_plain_rtv.raw() && dsv.view.is_null())
        );
        assert!(
            matches!(next(), C::SetRenderTargets { targets: None, uavs: Some(uavs), uav_start: 1, uav_patch: false }
            if uavs.len() == 1 && uavs[0].view == f.sb_uav.raw())
        );
        assert!(matches!(next(), C::SetRasterizerState(s) if s == f.raster.raw()));
        assert!(matches!(next(), C::SetViewports(v) if v == [viewport]));
        assert!(matches!(next(), C::SetScissorRects(v) if v == rects));
        assert!(
            matches!(next(), C::SetBlendState { state, factor, sample_mask: 0xF }
            if state == f.blend.raw() && factor == [0.5; 4])
        );
        assert!(
            matches!(next(), C::SetDepthStencilState { state, stencil_ref: 7 } if state == f.dss.raw())
        );
        assert!(matches!(
            next(),
            C::Draw(a) if a == DirectArgs::draw(3, 1)
        ));
        assert!(matches!(
            next(),
            C::DrawIndexed(a) if a == DirectArgs::draw_indexed(6, 2, -3)
        ));
        assert!(matches!(
            next(),
            C::DrawInstanced(a) if a == DirectArgs::draw_instanced(3, 4, 5, 6)
        ));
        assert!(matches!(
            next(),
            C::DrawIndexedInstanced(a) if a == DirectArgs::draw_indexed_instanced(6, 2, 1, -1, 9)
        ));
        assert!(matches!(next(), C::DrawAuto));
        assert!(
            matches!(next(), C::DrawInstancedIndirect(b) if b.buffer == f.args.raw() && b.offset == 16)
        );
        assert!(
            matches!(next(), C::DrawIndexedInstancedIndirect(b) if b.buffer == f.args.raw() && b.offset == 32)
        );
        assert!(matches!(next(), C::Dispatch(a) if a == DirectArgs::dispatch(2, 3, 4)));
        assert!(
            matches!(next(), C::DispatchIndirect(b) if b.buffer == f.args.raw() && b.offset == 0)
        );
        assert!(matches!(next(), C::ClearRenderTargetView { view, color }
            if view.view == f.rt_plain_rtv.raw() && color == [1.0, 0.0, 0.0, 1.0]));
        assert!(
            matches!(next(), C::ClearDepthStencilView { view, flags, depth, stencil: 3 }
            if view.view == f.ds_dsv.raw() && flags == ClearFlags::DEPTH_STENCIL && depth == 0.5)
        );
        assert!(matches!(next(), C::CopyResource { destination, source }
            if destination.resource == f.copy_a.raw() && source.resource == f.copy_b.raw()));
        assert!(matches!(next(), C::MapWriteDiscard { resource, data }
            if resource.resource == f.cb_dyn.raw() && data.len() == 256 && data[..3] == [9, 8, 7]));
        assert!(matches!(next(), C::MapWriteNoOverwrite { resource, data }
            if resource.resource == f.cb.raw() && data.len() == 256 && data[..2] == [5, 6]));
        assert!(
            matches!(next(), C::SetPredication { predicate, value: true } if predicate == f.predicate.raw())
        );
        assert!(matches!(next(), C::BeginQuery(q) if q == f.occlusion.raw()));
        assert!(matches!(next(), C::EndQuery(q) if q == f.occlusion.raw()));
        assert!(matches!(next(), C::ClearState));
        assert!(
            matches!(next(), C::DecompressResource { resource, into, .. }
            if resource == f.rt.raw() && into == f.rt_plain.raw())
        );
        assert!(
            matches!(next(), C::SetResourceCompression { resource, compressed: false }
            if resource == f.ds.raw())
        );
        assert!(matches!(next(), C::InsertWaitOnPresent(s) if s == f.chain.raw()));
        let fence = match next() {
            C::InsertFence {
                engine: Engine::Compute,
                value,
                ..
            } => value,
            other => panic!("expected a compute fence, found {other:?}"),
        };
        assert!(matches!(
            next(),
            C::InsertWaitOnFence { engine: Engine::Dma, value } if value == fence
        ));
        assert!(
            matches!(next(), C::WriteValueBottomOfPipe { buffer, offset: 8, value: 77 }
            if buffer == f.args.raw())
        );
        assert!(
            matches!(next(), C::InsertWaitOnMemory { buffer, offset: 16, value: 5 }
            if buffer == f.args.raw())
        );
        if semantics == Semantics::Legacy {
            assert!(matches!(next(), C::UpdateSubresource { resource, data }
                if resource.resource == f.cb.raw() && data == [1, 2, 3, 4, 5]));
            assert!(matches!(next(), C::CopyStructureCount { destination, view }
                if destination.buffer == f.copy_a.raw() && destination.offset == 4
                    && view.view == f.append_uav.raw()));
        }
        assert!(
            it.next().is_none(),
            "{semantics:?}: more commands than calls"
        );
    }
}

// ----- R-REC-6 ---------------------------------------------------------------------------------

#[test]
fn r_rec_6_a_new_legacy_context_and_restore_false_start_from_clear_state() {
    let f = Fixture::new();
    let mut context = f.legacy();
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    context.set_render_targets(&[Some(f.rt_plain_rtv)], None);
    context.set_shader(Stage::Pixel, Some(f.ps));
    let first = finish(&mut context);
    assert_eq!(first.start_state(), StartState::ClearState);
    assert_eq!(first.semantics(), Semantics::Legacy);
    let second = finish(&mut context);
    assert_eq!(second.start_state(), StartState::ClearState);
    assert_eq!(second.commands().count(), 0, "nothing is re-bound");
    assert_eq!(second.stats().commands, 0);
    // The bindings were dropped with the state: only the first list holds references.
    assert_eq!(f.device.references(f.vb), Some(1));
    assert_eq!(f.device.references(f.ps), Some(1));
}

#[test]
fn r_rec_6_legacy_restore_true_carries_the_state_into_the_next_list() {
    let f = Fixture::new();
    let mut c = f.legacy();
    let viewport = Viewport::new(0.0, 0.0, 64.0, 64.0);
    let scissor = Rect {
        left: 0,
        top: 0,
        right: 32,
        bottom: 32,
    };
    c.set_input_layout(Some(f.layout));
    c.set_primitive_topology(PrimitiveTopology::LineList);
    c.set_vertex_buffers(1, &[vertex(f.vb2)]);
    c.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
    c.set_primitive_reset_index(7);
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_shader(Stage::Pixel, Some(f.ps));
    c.set_constant_buffers(Stage::Pixel, 1, &[Some(f.cb_imm)]);
    c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .unwrap(); // unmapped on drop
    c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
    c.set_shader_resources(Stage::Pixel, 2, &[Some(f.tex_srv)]);
    c.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
    c.set_compute_unordered_access_views(1, &[Some(f.sb_uav)]);
    c.set_render_targets(&[Some(f.rt_plain_rtv)], Some(f.ds_plain_dsv));
    c.set_blend_state(Some(f.blend), [0.25; 4], 3);
    c.set_depth_stencil_state(Some(f.dss), 5);
    c.set_rasterizer_state(Some(f.raster));
    c.set_viewports(&[viewport]);
    c.set_scissor_rects(&[scissor]);
    c.set_predication(Some(f.predicate), PredicateValue::True);
    c.draw(3, 0);
    let first = c.finish_command_list(RestoreState::Restore).unwrap();
    assert_eq!(first.start_state(), StartState::ClearState);

    c.draw(4, 0);
    let second = finish(&mut c);
    assert_eq!(second.start_state(), StartState::Carried);
    assert_eq!(second.stats().calls, 1, "re-binds are not calls");
    let commands: Vec<_> = second.commands().collect();
    assert!(
        matches!(
            commands.last().unwrap().command,
            Command::Draw(a) if a.get(0) == 4
        ),
        "the carried state comes before the list's own calls"
    );
    let carried = &commands[..commands.len() - 1];
    let has = |pred: &dyn Fn(&Command) -> bool| carried.iter().any(|d| pred(&d.command));
    assert!(has(
        &|c| matches!(c, Command::SetInputLayout { layout, .. } if *layout == f.layout.raw())
    ));
    assert!(has(&|c| matches!(
        c,
        Command::SetPrimitiveTopology(PrimitiveTopology::LineList)
    )));
    assert!(has(
        &|c| matches!(c, Command::SetVertexBuffers { buffers, start }
        if buffers.get(1usize.saturating_sub(*start as usize)).is_some_and(|b| b.buffer == f.vb2.raw()))
    ));
    assert!(has(&|c| matches!(c, Command::SetIndexBuffer(b)
        if b.buffer == f.ib.raw() && b.index_format() == Format::R16Uint)));
    assert!(has(&|c| matches!(c, Command::SetPrimitiveResetIndex(7))));
    assert!(has(
        &|c| matches!(c, Command::SetShader { stage: Stage::Vertex, shader } if shader.shader == f.vs.raw())
    ));
    assert!(has(
        &|c| matches!(c, Command::SetShader { stage: Stage::Pixel, shader } if shader.shader == f.ps.raw())
    ));
    assert!(has(
        &|c| matches!(c, Command::SetConstantBuffers { stage: Stage::Pixel, start, buffers }
        if buffers.get(1usize.saturating_sub(*start as usize)).is_some_and(|b| b.buffer == f.cb_imm.raw()))
    ));
    assert!(has(
        &|c| matches!(c, Command::SetShaderResources { stage: Stage::Pixel, start, views }
        if views.get(2usize.saturating_sub(*start as usize)).is_some_and(|v| v.view == f.tex_srv.raw()))
    ));
    assert!(has(
        &|c| matches!(c, Command::SetSamplers { stage: Stage::Pixel, samplers, .. }
        if samplers.first() == Some(&f.sampler.raw()))
    ));
    assert!(has(
        &|c| matches!(c, Command::SetComputeUnorderedAccessViews { start, views }
        if views.get(1usize.saturating_sub(*start as usize)).is_some_and(|v| v.view == f.sb_uav.raw()))
    ));
    assert!(has(
        &|c| matches!(c, Command::SetRenderTargets { targets: Some((rtvs, dsv)), .. }
        if rtvs.first().is_some_and(|v| v.view == f.rt_plain_rtv.raw()) && dsv.view == f.ds_plain_dsv.raw())
    ));
    assert!(has(
        &|c| matches!(c, Command::SetBlendState { state, factor, sample_mask: 3 }
        if *state == f.blend.raw() && *factor == [0.25; 4])
    ));
    assert!(has(
        &|c| matches!(c, Command::SetDepthStencilState { state, stencil_ref: 5 } if *state == f.dss.raw())
    ));
    assert!(has(
        &|c| matches!(c, Command::SetRasterizerState(s) if *s == f.raster.raw())
    ));
    assert!(has(
        &|c| matches!(c, Command::SetViewports(v) if *v == [viewport])
    ));
    assert!(has(
        &|c| matches!(c, Command::SetScissorRects(v) if *v == [scissor])
    ));
    assert!(has(
        &|c| matches!(c, Command::SetPredication { predicate, value: true } if *predicate == f.predicate.raw())
    ));
    // The dynamic constant buffer's data stayed with the first list: in this one it is a split
    // point resolved at execution.
    let dynamic: Vec<_> = carried
        .iter()
        .filter_map(|d| match d.command {
            Command::SetConstantBuffers {
                stage: Stage::Vertex,
                start,
                buffers,
            } if buffers.len() == 1 && buffers[0].buffer == f.cb_dyn.raw() => {
                Some((start, buffers[0].instance, d.split))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        dynamic,
        vec![(
            0,
            InstanceId::RESOLVE_AT_EXECUTION,
            Some(SplitCategory::DynamicConstantBuffer)
        )]
    );
    // The list after a restore=false finish starts from ClearState again.
    let third = finish(&mut c);
    assert_eq!(third.start_state(), StartState::ClearState);
    assert_eq!(third.commands().count(), 0);
}

#[test]
fn r_rec_6_fast_restore_true_is_refused_and_the_list_stays_usable() {
    let f = Fixture::new();
    let mut c = f.fast();
    c.set_vertex_buffers(0, &[vertex(f.vb)]);
    c.draw(3, 0);
    let error = c.finish_command_list(RestoreState::Restore).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::RestoreNotSupported);
    assert_eq!(error.call_index, 2, "the finish is the third call");
    assert!(
        c.error().is_none(),
        "the refusal is not the list's sticky error"
    );
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::RestoreNotSupported)
    );
    // Twice refused is still fine.
    assert_eq!(
        c.finish_command_list(RestoreState::Restore)
            .map_err(|e| e.kind())
            .err(),
        Some(ErrorKind::RestoreNotSupported)
    );
    c.draw(6, 0);
    let list = c.finish_command_list(RestoreState::ClearState).unwrap();
    assert_eq!(list.start_state(), StartState::Inherited);
    assert_eq!(list.semantics(), Semantics::Fast);
    assert_eq!(
        list.stats().calls,
        3,
        "the refused finishes are not calls of the list"
    );
    let commands: Vec<_> = list.commands().map(|d| d.command).collect();
    assert_eq!(commands.len(), 3);
    assert!(matches!(commands[0], Command::SetVertexBuffers { .. }));
    assert!(matches!(
        commands[1],
        Command::Draw(a) if a.get(0) == 3
    ));
    assert!(matches!(
        commands[2],
        Command::Draw(a) if a.get(0) == 6
    ));
    // The next fast list inherits again, with no implicit ClearState.
    c.draw(1, 0);
    let next = finish(&mut c);
    assert_eq!(next.start_state(), StartState::Inherited);
    assert_eq!(next.commands().count(), 1);
}

// ----- R-REC-7 ---------------------------------------------------------------------------------

#[test]
fn r_rec_7_command_list_is_send_sync_and_clones_share_one_list() {
    assert_send_sync::<CommandList>();
    let f = Fixture::new();
    let mut c = f.legacy();
    c.draw(3, 0);
    let list = finish(&mut c);
    let clone = list.clone();
    assert_eq!(clone.header_ptr(), list.header_ptr());
    assert_eq!(rendered(&clone), rendered(&list));
    assert_eq!(clone.stats(), list.stats());
}

#[test]
fn r_rec_7_a_list_is_read_from_many_threads_with_identical_results() {
    let f = Fixture::new();
    let mut c = f.legacy();
    c.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb_dyn)]);
    c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .unwrap()[..4]
        .copy_from_slice(&[1, 2, 3, 4]); // unmapped on drop
    for i in 0..500 {
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
        c.draw(3, i);
    }
    let list = finish(&mut c);
    let expected = rendered(&list);
    let expected_splits = segment_split_points(&list);
    // Borrowed by scoped threads (Sync)...
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                for _ in 0..5 {
                    assert_eq!(rendered(&list), expected);
                    assert_eq!(segment_split_points(&list), expected_splits);
                }
            });
        }
    });
    // ...and moved, as clones, into threads of their own (Send), which drop them.
    let workers: Vec<_> = (0..8)
        .map(|_| {
            let clone = list.clone();
            let expected = expected.clone();
            std::thread::spawn(move || assert_eq!(rendered(&clone), expected))
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    assert_eq!(
        rendered(&list),
        expected,
        "still intact after the clones dropped"
    );
}

#[test]
fn r_rec_7_the_list_lives_until_its_last_clone_drops() {
    let f = Fixture::new();
    let baseline = f.references();
    let mut c = f.legacy();
    c.set_vertex_buffers(0, &[vertex(f.vb)]);
    c.draw(3, 0);
    let list = finish(&mut c);
    let clones: Vec<CommandList> = (0..4).map(|_| list.clone()).collect();
    let pool = f.device.pool_stats().free_chunks;
    drop(list);
    assert_eq!(f.device.references(f.vb), Some(1));
    assert_eq!(f.device.pool_stats().free_chunks, pool);
    let mut clones = clones;
    let last = clones.pop().unwrap();
    drop(clones);
    assert_eq!(f.device.references(f.vb), Some(1));
    assert_eq!(rendered(&last).len(), 2);
    drop(last);
    assert_eq!(f.device.pool_stats().free_chunks, pool + 1);
    drop(c);
    assert_eq!(f.references(), baseline);
}

// ----- R-REC-8 ---------------------------------------------------------------------------------

#[test]
fn r_rec_8_the_first_error_and_its_call_index_are_kept() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut c = f.context(semantics);
        c.draw(3, 0); // 0
        c.set_constant_buffers(Stage::Pixel, CONSTANT_BUFFER_SLOTS, &[Some(f.cb)]); // 1: refused
        c.draw(3, 1); // 2
        let stale = f
            .device
            .create_buffer(&BufferDesc {
                name: "stale",
                size: 16,
                bind: BindFlags::VERTEX,
                ..Default::default()
            })
            .unwrap();
        f.device.release(stale);
        c.set_vertex_buffers(0, &[vertex(stale)]); // 3: refused
        c.draw(3, 2); // 4
        let error = c.error().expect("a sticky error");
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert_eq!(error.call_index, 1);
        assert_eq!(
            c.last_refusal().map(Error::kind),
            Some(ErrorKind::ReleasedObject)
        );
        let stats = c.stats();
        assert_eq!(stats.calls, 3, "the refused calls were ignored");
        assert_eq!(stats.commands, 3, "and encoded nothing");
        let error = c.finish_command_list(RestoreState::ClearState).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert_eq!(error.call_index, 1);
        assert!(error.to_string().contains("call 1"), "{error}");
        // The next list starts clean.
        assert!(c.error().is_none());
        c.draw(3, 3);
        let list = finish(&mut c);
        assert_eq!(list.stats().calls, 1);
        assert_eq!(list.commands().count(), 1);
    }
}

#[test]
fn r_rec_8_a_list_discarded_for_its_error_leaves_no_references_behind() {
    let f = Fixture::new();
    let baseline = f.references();
    let mut c = f.legacy();
    c.set_vertex_buffers(0, &[vertex(f.vb)]);
    c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .unwrap(); // unmapped on drop
    c.set_samplers(Stage::Pixel, SAMPLER_SLOTS, &[Some(f.sampler)]);
    c.copy_resource(f.copy_a, f.copy_b);
    assert_ne!(f.references(), baseline);
    let pool = f.device.pool_stats().free_chunks;
    expect_error(&mut c, ErrorKind::InvalidArgument, 5);
    assert_eq!(f.references(), baseline);
    assert_eq!(
        f.device.pool_stats().free_chunks,
        pool,
        "the discarded list's chunk went back to the pool and the new list took one"
    );
}

#[test]
fn r_rec_8_last_refusal_names_the_latest_refused_call_until_the_next_list_begins() {
    let f = Fixture::new();
    let mut c = f.fast();
    assert!(c.last_refusal().is_none());
    c.update_subresource(f.cb, &[1]);
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::ForbiddenInFast)
    );
    c.set_constant_buffers(Stage::Pixel, 99, &[Some(f.cb)]);
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::InvalidArgument),
        "the latest, while error() keeps the first"
    );
    assert_eq!(
        c.error().map(RecordError::kind),
        Some(ErrorKind::ForbiddenInFast)
    );
    expect_error(&mut c, ErrorKind::ForbiddenInFast, 0);
    assert!(
        c.last_refusal().is_none(),
        "a new list began: last_refusal still reports {:?}",
        c.last_refusal()
    );
    // A refused finish is reported until the next list begins too.
    c.draw(3, 0);
    assert!(c.finish_command_list(RestoreState::Restore).is_err());
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::RestoreNotSupported)
    );
    let _list = finish(&mut c);
    assert!(c.last_refusal().is_none(), "{:?}", c.last_refusal());
}

#[test]
fn r_rec_8_finishing_while_a_buffer_is_mapped_is_refused_and_the_list_stays_open() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut c = f.context(semantics);
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap()[0] = 42;
        let error = c.finish_command_list(RestoreState::ClearState).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert_eq!(error.call_index, 1);
        c.unmap(f.cb_dyn);
        let list = finish(&mut c);
        assert_eq!(write_discards(&list)[0].2[0], 42);
    }
}

type BadCall = (&'static str, u32, fn(&Fixture, &mut DeferredContext));

fn bad_calls() -> Vec<BadCall> {
    vec![
        ("index buffer of a non-index format", 0, |f, c| {
            c.set_index_buffer(Some(f.ib), Format::R8Unorm, 0)
        }),
        ("index buffer without the index flag", 0, |f, c| {
            c.set_index_buffer(Some(f.vb), Format::R16Uint, 0)
        }),
        ("vertex buffer without the vertex flag", 0, |f, c| {
            c.set_vertex_buffers(0, &[vertex(f.cb)])
        }),
        ("constant buffer without the constant flag", 0, |f, c| {
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.vb)])
        }),
        ("shader bound to another stage", 0, |f, c| {
            c.set_shader(Stage::Pixel, Some(f.vs))
        }),
        ("predication on an occlusion query", 0, |f, c| {
            c.set_predication(Some(f.occlusion), PredicateValue::True)
        }),
        ("depth clear outside 0..=1", 0, |f, c| {
            c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.5, 0)
        }),
        ("depth clear of NaN", 0, |f, c| {
            c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, f32::NAN, 0)
        }),
        ("unaligned indirect arguments", 0, |f, c| {
            c.draw_instanced_indirect(f.args, 2)
        }),
        ("indirect arguments past the buffer", 0, |f, c| {
            c.draw_indexed_instanced_indirect(f.args, 256)
        }),
        ("indirect arguments at u32::MAX", 0, |f, c| {
            c.dispatch_indirect(f.args, u32::MAX - 3)
        }),
        ("copy onto itself", 0, |f, c| {
            c.copy_resource(f.copy_a, f.copy_a)
        }),
        ("copy between a buffer and a texture", 0, |f, c| {
            c.copy_resource(f.copy_a, f.tex)
        }),
        ("copy into an immutable buffer", 0, |f, c| {
            c.copy_resource(f.cb_imm, f.cb)
        }),
        ("copy between buffers of different sizes", 0, |f, c| {
            let big = f
                .device
                .create_buffer(&BufferDesc {
                    name: "big",
                    size: 512,
                    ..Default::default()
                })
                .unwrap();
            c.copy_resource(f.copy_a, big)
        }),
        ("copy between textures of different sizes", 0, |f, c| {
            let big = f
                .device
                .create_texture(&TextureDesc {
                    name: "big",
                    width: 128,
                    height: 64,
                    ..Default::default()
                })
                .unwrap();
            c.copy_resource(f.tex, big)
        }),
        ("unmap of a buffer not mapped", 0, |f, c| c.unmap(f.cb_dyn)),
        ("decompress into itself", 0, |f, c| {
            c.decompress_resource(f.rt, Some(f.rt))
        }),
        ("decompress into a texture of another size", 0, |f, c| {
            let small = f
                .device
                .create_texture(&TextureDesc {
                    name: "small",
                    width: 8,
                    height: 8,
                    bind: BindFlags::RENDER_TARGET,
                    ..Default::default()
                })
                .unwrap();
            c.decompress_resource(f.rt, Some(small))
        }),
        ("negative resource min LOD", 0, |f, c| {
            c.set_resource_min_lod(f.tex, -1.0)
        }),
        ("NaN resource min LOD", 0, |f, c| {
            c.set_resource_min_lod(f.tex, f32::NAN)
        }),
        ("infinite view min LOD", 0, |f, c| {
            c.set_shader_resource_view_min_lod(f.tex_srv, f32::INFINITY)
        }),
        ("unaligned memory write", 0, |f, c| {
            c.write_value_bottom_of_pipe(f.args, 3, 1)
        }),
        ("memory write past the buffer", 0, |f, c| {
            c.write_value_bottom_of_pipe(f.args, 256, 1)
        }),
        ("memory wait past the buffer", 0, |f, c| {
            c.insert_wait_on_memory(f.args, 1 << 40, 1)
        }),
        ("execute a list of another device", 0, |_, c| {
            let other = Device::new(DeviceDesc::default());
            let mut foreign = context(&other, c.semantics());
            foreign.draw(3, 0);
            let list = finish(&mut foreign);
            c.execute_command_list(&list, RestoreState::ClearState)
        }),
    ]
}

#[test]
fn r_rec_8_bad_input_is_refused_as_invalid_argument_without_panic() {
    let mut panicked = Vec::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for (name, index, call) in bad_calls() {
            let f = Fixture::new();
            let baseline = f.references();
            let mut c = f.context(semantics);
            if catch_unwind(AssertUnwindSafe(|| call(&f, &mut c))).is_err() {
                panicked.push(format!("{semantics:?}: {name}"));
                continue;
            }
            match c.finish_command_list(RestoreState::ClearState) {
                Ok(_) => panic!("{semantics:?} {name}: accepted"),
                Err(error) => {
                    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{name}: {error}");
                    assert_eq!(error.call_index, index, "{name}");
                }
            }
            assert_eq!(f.references(), baseline, "{semantics:?} {name}");
        }
    }
    assert!(panicked.is_empty(), "panicked: {panicked:?}");
}

#[test]
fn r_rec_8_legacy_only_bad_input_is_refused_as_invalid_argument() {
    let f = Fixture::new();
    let mut c = f.legacy();
    c.update_subresource(f.cb_dyn, &[1]);
    expect_error(&mut c, ErrorKind::InvalidArgument, 0);
    c.update_subresource(f.cb, &[0; 257]);
    expect_error(&mut c, ErrorKind::InvalidArgument, 0);
    c.copy_structure_count(f.copy_a, 0, f.sb_uav);
    expect_error(&mut c, ErrorKind::InvalidArgument, 0);
}

#[test]
fn r_rec_8_memory_operations_at_offsets_near_u64_max_are_refused_without_panic() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for offset in [u64::MAX - 7, u64::MAX - 15, 1 << 63] {
            let mut c = f.context(semantics);
            let write = catch_unwind(AssertUnwindSafe(|| {
                c.write_value_bottom_of_pipe(f.args, offset, 1)
            }));
            assert!(
                write.is_ok(),
                "write_value_bottom_of_pipe at {offset:#x} panicked"
            );
            expect_error(&mut c, ErrorKind::InvalidArgument, 0);
            let mut c = f.context(semantics);
            let wait = catch_unwind(AssertUnwindSafe(|| {
                c.insert_wait_on_memory(f.args, offset, 1)
            }));
            assert!(
                wait.is_ok(),
                "insert_wait_on_memory at {offset:#x} panicked"
            );
            expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        }
    }
}

// ----- R-REC-9 ---------------------------------------------------------------------------------

fn nested_pair(f: &Fixture, outer: Semantics, inner_draws: u32) -> (CommandList, CommandList) {
    let mut inner = f.legacy();
    inner.set_vertex_buffers(0, &[vertex(f.vb)]);
    inner.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    for i in 0..inner_draws {
        inner.draw(3, i);
    }
    let inner = finish(&mut inner);
    let mut c = f.context(outer);
    c.draw(1, 0);
    c.execute_command_list(&inner, RestoreState::ClearState);
    c.draw(2, 0);
    let outer = finish(&mut c);
    (inner, outer)
}

#[test]
fn r_rec_9_nested_execute_appends_one_command_and_copies_none() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let (inner, outer) = nested_pair(&f, semantics, 10);
        let commands: Vec<_> = outer.commands().map(|d| d.command).collect();
        assert_eq!(commands.len(), 3, "{commands:?}");
        assert_eq!(outer.stats().commands, 3);
        assert!(matches!(
            commands[0],
            Command::Draw(a) if a.get(0) == 1
        ));
        assert!(
            matches!(commands[1], Command::ExecuteCommandList { list, restore: false } if list.header_ptr() == inner.header_ptr())
        );
        assert!(matches!(
            commands[2],
            Command::Draw(a) if a.get(0) == 2
        ));
        assert_eq!(
            outer.stats().draws,
            2,
            "the inner draws are not the outer list's"
        );
        assert_eq!(
            outer.stats().split_points.total(),
            0,
            "nor its split points"
        );
        let nested: Vec<_> = outer
            .segments()
            .filter_map(|s| match s {
                Segment::Nested(d) => Some(d.command),
                _ => None,
            })
            .collect();
        assert_eq!(nested.len(), 1);
        assert!(
            matches!(nested[0], Command::ExecuteCommandList { list, .. } if list.header_ptr() == inner.header_ptr())
        );
        // The outer list's size does not depend on the inner list's.
        let (big_inner, big_outer) = nested_pair(&f, semantics, 5000);
        assert!(big_inner.stats().chunks > 1);
        assert_eq!(big_outer.stats().bytes, outer.stats().bytes);
        assert_eq!(big_outer.stats().chunks, 1);
    }
}

#[test]
fn r_rec_9_the_outer_list_keeps_the_inner_list_alive() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let baseline = f.references();
        let (inner, outer) = nested_pair(&f, semantics, 6000);
        let inner_chunks = inner.stats().chunks as u64;
        assert!(inner_chunks > 1);
        let outer_chunks = outer.stats().chunks as u64;
        // A second level of nesting.
        let mut again = f.context(semantics);
        again.execute_command_list(&outer, RestoreState::ClearState);
        let wrapper = finish(&mut again);
        let wrapper_chunks = wrapper.stats().chunks as u64;
        assert_eq!(
            f.device.references(f.vb),
            Some(1),
            "the inner list's reference"
        );
        let pool = f.device.pool_stats().free_chunks;
        drop(inner);
        assert_eq!(
            f.device.pool_stats().free_chunks,
            pool,
            "the inner list's chunks were not returned"
        );
        assert_eq!(f.device.references(f.vb), Some(1), "nor its references");
        assert_eq!(f.device.references(f.rt_rtv), Some(1));
        drop(outer);
        assert_eq!(f.device.pool_stats().free_chunks, pool);
        assert_eq!(f.device.references(f.vb), Some(1));
        let (chunks, _) = returned_to_pool(&f.device, wrapper);
        assert_eq!(chunks, inner_chunks + outer_chunks + wrapper_chunks);
        drop(again);
        assert_eq!(f.references(), baseline);
    }
}

#[test]
fn r_rec_9_restore_flag_is_recorded_and_refused_on_fast_contexts() {
    let f = Fixture::new();
    let mut inner = f.fast();
    inner.draw(3, 0);
    let inner = finish(&mut inner);
    let mut legacy = f.legacy();
    legacy.execute_command_list(&inner, RestoreState::Restore);
    legacy.execute_command_list(&inner, RestoreState::ClearState);
    let list = finish(&mut legacy);
    let restores: Vec<bool> = list
        .commands()
        .filter_map(|d| match d.command {
            Command::ExecuteCommandList { restore, .. } => Some(restore),
            _ => None,
        })
        .collect();
    assert_eq!(restores, vec![true, false]);

    let mut fast = f.fast();
    fast.draw(3, 0);
    fast.execute_command_list(&inner, RestoreState::Restore);
    expect_error(&mut fast, ErrorKind::RestoreNotSupported, 1);
    fast.execute_command_list(&inner, RestoreState::ClearState);
    let list = finish(&mut fast);
    assert_eq!(list.commands().count(), 1);
}

#[test]
fn r_rec_9_legacy_nested_execute_without_restore_resets_the_context_bindings() {
    let f = Fixture::new();
    let mut inner = f.legacy();
    inner.draw(3, 0);
    let inner = finish(&mut inner);
    let mut c = f.legacy();
    c.set_vertex_buffers(0, &[vertex(f.vb)]);
    assert_eq!(f.device.references(f.vb), Some(2));
    c.execute_command_list(&inner, RestoreState::Restore);
    assert_eq!(
        f.device.references(f.vb),
        Some(2),
        "restore=true keeps the binding"
    );
    c.execute_command_list(&inner, RestoreState::ClearState);
    assert_eq!(
        f.device.references(f.vb),
        Some(1),
        "restore=false resets to ClearState: the binding is gone"
    );
    let outer = c.finish_command_list(RestoreState::Restore).unwrap();
    let next = finish(&mut c);
    assert_eq!(next.commands().count(), 0, "nothing left to carry");
    drop((outer, next));
    assert_eq!(f.device.references(f.vb), Some(0));
}

/// Nesting levels of the deep-chain tests (R-REC-9 names 100,000).
const DEEP: usize = 100_000;

/// Room in the pool for every chunk of a deep chain, to count them back.
const DEEP_POOL_LIMIT: usize = 1 << 30;

/// Runs `body` on a thread with a 256 KB stack: room for any one call of the engine, far too
/// little for a walk that takes a stack frame per nesting level (100,000 of them).
fn on_small_stack<T: Send>(body: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("small-stack".into())
            .stack_size(256 << 10)
            .spawn_scoped(scope, body)
            .expect("spawn a small-stack thread")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A chain of `depth` lists of `semantics`, each executing the one before; the first records
/// `innermost`. Every list is one 4 KB chunk (100,000 of them: 400 MB).
fn nested_chain(
    f: &Fixture,
    semantics: Semantics,
    depth: usize,
    innermost: impl FnOnce(&mut DeferredContext),
) -> CommandList {
    let mut context = f
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "chain",
            semantics,
            chunk_policy: Some(ChunkPolicy {
                pool_limit: DEEP_POOL_LIMIT,
                ..small_chunks(MIN_CHUNK_SIZE, GrowthPolicy::Fixed)
            }),
            ..Default::default()
        })
        .expect("create the chain's context");
    innermost(&mut context);
    let mut list = finish(&mut context);
    for _ in 1..depth {
        context.execute_command_list(&list, RestoreState::ClearState);
        // The list before lives on in the new one.
        list = finish(&mut context);
    }
    list
}

#[test]
fn r_rec_9_a_chain_of_100000_nested_lists_drops_without_executing_and_without_recursion() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        on_small_stack(|| {
            let f = Fixture::with_policy(ChunkPolicy {
                pool_limit: DEEP_POOL_LIMIT,
                ..ChunkPolicy::default()
            });
            let baseline = f.references();
            let list = nested_chain(&f, semantics, DEEP, |c| {
                c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
                c.draw(3, 0);
            });
            let pool = f.device.pool_stats().free_chunks;
            if semantics == Semantics::Legacy {
                assert_eq!(f.device.references(f.cb), Some(1), "the innermost list's");
            }
            // Every list's one chunk goes back, and (legacy) the reference the innermost list
            // took.
            drop(list);
            let returned = f.device.pool_stats().free_chunks - pool;
            assert_eq!(returned, DEEP as u64, "{semantics:?}: chunks returned");
            assert_eq!(f.references(), baseline, "{semantics:?}");

            // The same chain held only by a list still being recorded, and discarded with it.
            let list = nested_chain(&f, semantics, DEEP, |c| c.draw(3, 0));
            let mut holder = f.context(semantics);
            holder.execute_command_list(&list, RestoreState::ClearState);
            drop(list);
            let pool = f.device.pool_stats().free_chunks;
            drop(holder);
            let returned = f.device.pool_stats().free_chunks - pool;
            assert_eq!(
                returned,
                DEEP as u64 + 1,
                "{semantics:?}: and the holder's chunk"
            );
        });
    }
}

#[test]
fn r_rec_9_validation_walks_a_chain_of_100000_nested_lists_without_recursion() {
    // Each list is held to its own semantics' rule (R-V-1): the fast chain may not name the
    // released buffer 100,000 levels down; the legacy chain keeps it alive.
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        on_small_stack(|| {
            let f = Fixture::new();
            let list = nested_chain(&f, semantics, DEEP, |c| {
                c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
                c.draw(3, 0);
            });
            assert!(list.first_released_object().is_none(), "{semantics:?}");
            f.device.release(f.cb);
            let found = list.first_released_object();
            match semantics {
                Semantics::Fast => {
                    let found = found.expect("the innermost list's buffer");
                    assert_eq!((found.kind, found.handle), (ObjectKind::Buffer, f.cb.raw()));
                }
                Semantics::Legacy => assert!(found.is_none(), "kept alive: {found:?}"),
            }
        });
    }
}

// ----- R-REC-10 --------------------------------------------------------------------------------

#[test]
fn r_rec_10_write_discard_data_travels_with_the_list_and_reads_the_same_every_time() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let pattern: Vec<u8> = (0..256u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut c = f.context(semantics);
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap()
            .copy_from_slice(&pattern);
        c.unmap(f.cb_dyn);
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
        c.draw(3, 0);
        let list = finish(&mut c);
        let first = write_discards(&list);
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].0, f.cb_dyn.raw());
        assert_eq!(first[0].2, pattern);
        // The same context maps the same buffer again with other data in its next list.
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap()
            .fill(0xEE);
        c.unmap(f.cb_dyn);
        let later = finish(&mut c);
        assert_eq!(write_discards(&later)[0].2, vec![0xEE; 256]);
        drop(c);
        for _ in 0..3 {
            assert_eq!(write_discards(&list), first, "{semantics:?}");
        }
        let clone = list.clone();
        drop(list);
        let from_thread = std::thread::spawn(move || write_discards(&clone))
            .join()
            .unwrap();
        assert_eq!(from_thread, first);
    }
}

#[test]
fn r_rec_10_later_binds_carry_the_instance_of_the_write_discard_map() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let mut c = f.context(semantics);
        for buffer in [f.cb_dyn, f.vb_dyn, f.ib_dyn, f.sb_dyn] {
            c.map(buffer, MapType::WriteDiscard, MapFlags::None)
                .unwrap()[0] = 1; // unmapped on drop
        }
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
        c.set_vertex_buffers(0, &[vertex(f.vb_dyn)]);
        c.set_index_buffer(Some(f.ib_dyn), Format::R16Uint, 0);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.sb_dyn_srv)]);
        let list = finish(&mut c);
        assert_eq!(list.recorder(), c.serial());
        let instances: Vec<(RawHandle, InstanceId)> = write_discards(&list)
            .into_iter()
            .map(|(buffer, instance, _)| (buffer, instance))
            .collect();
        assert_eq!(instances.len(), 4);
        let mut seen = std::collections::HashSet::new();
        for (_, instance) in &instances {
            assert_eq!(
                instance.recorder(),
                c.serial(),
                "named by the recording context"
            );
            assert_ne!(*instance, InstanceId::INITIAL);
            assert_ne!(*instance, InstanceId::RESOLVE_AT_EXECUTION);
            assert!(seen.insert(*instance), "instances are distinct");
        }
        let instance_of = |buffer: Buffer| {
            instances
                .iter()
                .find(|(b, _)| *b == buffer.raw())
                .unwrap()
                .1
        };
        let mut binds = 0;
        for decoded in list.commands() {
            assert_eq!(decoded.split, None, "no split point for mapped buffers");
            match decoded.command {
                Command::SetConstantBuffers { buffers, .. } => {
                    assert_eq!(buffers[0].instance, instance_of(f.cb_dyn));
                    binds += 1;
                }
                Command::SetVertexBuffers { buffers, .. } => {
                    assert_eq!(buffers[0].instance, instance_of(f.vb_dyn));
                    binds += 1;
                }
                Command::SetIndexBuffer(b) => {
                    assert_eq!(b.instance, instance_of(f.ib_dyn));
                    binds += 1;
                }
                Command::SetShaderResources { views, .. } => {
                    assert_eq!(views[0].resource, f.sb_dyn.raw());
                    assert_eq!(views[0].instance, instance_of(f.sb_dyn));
                    binds += 1;
                }
                _ => {}
            }
        }
        assert_eq!(binds, 4);
    }
}

#[test]
fn r_rec_10_each_write_discard_map_makes_a_new_instance() {
    let f = Fixture::new();
    let mut other = f.fast();
    other
        .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .unwrap(); // unmapped on drop
    let other_list = finish(&mut other);
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut c = f.context(semantics);
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .unwrap()[0] = 1; // unmapped on drop
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .unwrap()[0] = 2; // unmapped on drop
        c.set_constant_buffers(Stage::Vertex, 1, &[Some(f.cb_dyn)]);
        let list = finish(&mut c);
        let maps = write_discards(&list);
        assert_eq!(maps.len(), 2);
        assert_ne!(maps[0].1, maps[1].1);
        assert_eq!((maps[0].2[0], maps[1].2[0]), (1, 2));
        assert_ne!(
            maps[0].1,
            write_discards(&other_list)[0].1,
            "another context's instance"
        );
        let by_slot: Vec<(u32, InstanceId)> = list
            .commands()
            .filter_map(|d| match d.command {
                Command::SetConstantBuffers { start, buffers, .. } => {
                    Some((start, buffers[0].instance))
                }
                _ => None,
            })
            .collect();
        // Slot 0 was bound to the first instance; slot 1 (and, under legacy semantics, slot 0
        // re-bound by the runtime, R-ST-8) to the second.
        assert_eq!(by_slot.first(), Some(&(0, maps[0].1)));
        assert_eq!(by_slot.last(), Some(&(1, maps[1].1)));
    }
}

#[test]
fn r_rec_10_objects_a_legacy_list_references_are_not_freed_while_it_lives() {
    let f = Fixture::new();
    let d = &f.device;
    let mut c = f.legacy();
    c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .unwrap()[0] = 5; // unmapped on drop
    c.set_shader_resources(Stage::Pixel, 0, &[Some(f.sb_dyn_srv)]);
    c.set_shader_resources(Stage::Pixel, 0, &[None]);
    let list = finish(&mut c);
    let clone = list.clone();
    d.release(f.cb_dyn);
    d.release(f.sb_dyn_srv);
    d.release(f.sb_dyn);
    assert_eq!(d.process_deferred_releases(), 0);
    drop(list);
    assert_eq!(
        d.process_deferred_releases(),
        0,
        "a clone still references them"
    );
    assert_eq!(write_discards(&clone)[0].2[0], 5);
    drop(clone);
    assert_eq!(
        d.process_deferred_releases(),
        3,
        "buffer, view, then the view's buffer"
    );
    assert_eq!(d.references(f.cb_dyn), None);
    assert_eq!(d.references(f.sb_dyn), None);
}

// ----- R-REC-11 --------------------------------------------------------------------------------

#[test]
fn r_rec_11_write_no_overwrite_before_write_discard_is_dynamic_before_map() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let mut c = f.context(semantics);
        c.draw(3, 0);
        let error = c
            .map(f.cb_dyn, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::DynamicBeforeMap);
        assert_eq!(
            c.last_refusal().map(Error::kind),
            Some(ErrorKind::DynamicBeforeMap)
        );
        // Mapping another buffer write_discard does not help.
        c.map(f.vb_dyn, MapType::WriteDiscard, MapFlags::None)
            .unwrap(); // unmapped on drop
        let error = c
            .map(f.cb_dyn, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::DynamicBeforeMap);
        // A refused map does not poison the list (R-REC-8).
        assert_eq!(finish(&mut c).stats().draws, 1);
    }
}

#[test]
fn r_rec_11_write_discard_in_an_earlier_list_or_on_another_context_does_not_count() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let mut c = f.context(semantics);
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .unwrap(); // unmapped on drop
        let _first = finish(&mut c);
        let refused = c
            .map(f.cb_dyn, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped);
        assert_eq!(refused.unwrap_err().kind(), ErrorKind::DynamicBeforeMap);
        let mut other = f.context(semantics);
        other
            .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .unwrap(); // unmapped on drop
        let refused = c
            .map(f.cb_dyn, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped);
        assert_eq!(refused.unwrap_err().kind(), ErrorKind::DynamicBeforeMap);
    }
}

#[test]
fn r_rec_11_write_no_overwrite_after_write_discard_writes_into_the_lists_instance() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let mut c = f.context(semantics);
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .unwrap()[..4]
            .copy_from_slice(&[1, 2, 3, 4]); // unmapped on drop
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
        c.draw(3, 0);
        let commands_before = c.stats().commands;
        let data = c
            .map(f.cb_dyn, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap();
        assert_eq!(data.len(), 256);
        assert_eq!(
            data[..4],
            [1, 2, 3, 4],
            "the same memory the write_discard filled"
        );
        data[128..132].copy_from_slice(&[9, 9, 9, 9]);
        c.unmap(f.cb_dyn);
        assert_eq!(
            c.stats().commands,
            commands_before,
            "no command, no new instance"
        );
        let list = finish(&mut c);
        let maps = write_discards(&list);
        assert_eq!(maps.len(), 1);
        assert_eq!(maps[0].2[..4], [1, 2, 3, 4]);
        assert_eq!(maps[0].2[128..132], [9, 9, 9, 9]);
    }
}

#[test]
fn r_rec_11_default_buffers_take_write_no_overwrite_only_with_allow_usage_default() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let mut c = f.context(semantics);
        let refused = c
            .map(f.cb, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped);
        assert_eq!(refused.unwrap_err().kind(), ErrorKind::InvalidArgument);
        c.map(f.cb, MapType::WriteNoOverwrite, MapFlags::AllowUsageDefault)
            .unwrap()[0] = 3; // unmapped on drop
        let list = finish(&mut c);
        let written: Vec<u8> = list
            .commands()
            .filter_map(|d| match d.command {
                Command::MapWriteNoOverwrite { resource, data }
                    if resource.resource == f.cb.raw() =>
                {
                    Some(data[0])
                }
                _ => None,
            })
            .collect();
        assert_eq!(written, vec![3]);
    }
}

// ----- R-ST-7 (enforced while recording) -------------------------------------------------------

#[test]
fn r_st_7_fast_update_subresource_is_forbidden_in_fast() {
    let f = Fixture::new();
    let mut fast = f.fast();
    fast.draw(3, 0);
    fast.update_subresource(f.cb, &[1, 2, 3]);
    assert_eq!(
        fast.last_refusal().map(Error::kind),
        Some(ErrorKind::ForbiddenInFast)
    );
    expect_error(&mut fast, ErrorKind::ForbiddenInFast, 1);
    let mut legacy = f.legacy();
    legacy.update_subresource(f.cb, &[1, 2, 3]);
    finish(&mut legacy);
}

#[test]
fn r_st_7_fast_copy_structure_count_is_forbidden_in_fast() {
    let f = Fixture::new();
    for view in [f.append_uav, f.counter_uav] {
        let mut fast = f.fast();
        fast.copy_structure_count(f.copy_a, 0, view);
        expect_error(&mut fast, ErrorKind::ForbiddenInFast, 0);
        let mut legacy = f.legacy();
        legacy.copy_structure_count(f.copy_a, 0, view);
        finish(&mut legacy);
    }
}

#[test]
fn r_st_7_fast_append_and_counter_uav_binds_are_forbidden_in_fast() {
    let f = Fixture::new();
    for view in [f.append_uav, f.counter_uav] {
        let mut fast = f.fast();
        fast.set_compute_unordered_access_views(0, &[Some(f.sb_uav), Some(view)]);
        assert_eq!(fast.stats().commands, 0, "nothing encoded");
        expect_error(&mut fast, ErrorKind::ForbiddenInFast, 0);
        fast.draw(3, 0);
        fast.set_render_targets_and_unordered_access_views(
            &[Some(f.rt_plain_rtv)],
            None,
            1,
            &[Some(view)],
        );
        expect_error(&mut fast, ErrorKind::ForbiddenInFast, 1);
        // A plain UAV binds fine.
        fast.set_compute_unordered_access_views(0, &[Some(f.sb_uav)]);
        finish(&mut fast);

        let mut legacy = f.legacy();
        legacy.set_compute_unordered_access_views(0, &[Some(view)]);
        legacy.set_render_targets_and_unordered_access_views(
            &[Some(f.rt_plain_rtv)],
            None,
            1,
            &[Some(view)],
        );
        finish(&mut legacy);
    }
}

#[test]
fn r_rec_9_the_nested_list_is_reachable_from_its_command() {
    let f = Fixture::new();
    let (inner, outer) = nested_pair(&f, Semantics::Fast, 10);
    let nested: Vec<CommandList> = outer
        .commands()
        .filter_map(|d| match d.command {
            Command::ExecuteCommandList { list, .. } => Some(list.to_list()),
            _ => None,
        })
        .collect();
    assert_eq!(nested.len(), 1);
    assert_eq!(nested[0].header_ptr(), inner.header_ptr());
    assert_eq!(nested[0].stats(), inner.stats());
    // The reference `to_list` took keeps the inner list alive after both others drop.
    let stats = *inner.stats();
    drop(inner);
    drop(outer);
    assert_eq!(*nested[0].stats(), stats);
    assert_eq!(nested[0].commands().count() as u32, stats.commands);
}
