//! Recording cost of each kind of call alone: 1,000 calls of one kind per iteration on a fast and
//! on a legacy deferred context (the list is finished and dropped outside the timing of nothing
//! else: each iteration records, finishes and drops, so the pool stays warm). It shows where the
//! realistic mix of `record` spends its time.
//!
//! ```text
//! cargo bench -p criterion-benches --bench calls
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use recorder::*;

const CALLS: u32 = 1_000;

struct Objects {
    constants: Buffer,
    dynamic_constants: Buffer,
    vertices: Buffer,
    view: ShaderResourceView,
    vertex_shader: Shader,
    target: Texture,
}

fn objects(device: &Device) -> Objects {
    let buffer = |name, usage, bind| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 256,
                usage,
                bind,
                ..Default::default()
            })
            .expect("buffer")
    };
    let texture = device
        .create_texture(&TextureDesc {
            width: 64,
            height: 64,
            ..Default::default()
        })
        .expect("texture");
    Objects {
        constants: buffer("constants", Usage::Immutable, BindFlags::CONSTANT),
        dynamic_constants: buffer("dynamic_constants", Usage::Dynamic, BindFlags::CONSTANT),
        vertices: buffer("vertices", Usage::Immutable, BindFlags::VERTEX),
        view: device
            .create_shader_resource_view(&ViewDesc::new("view", texture))
            .expect("view"),
        vertex_shader: device
            .create_shader(&ShaderDesc {
                constant_buffers: Slots::first(1),
                ..ShaderDesc::new("vs", Stage::Vertex)
            })
            .expect("shader"),
        target: device
            .create_texture(&TextureDesc {
                name: "target",
                width: 64,
                height: 64,
                bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
                ..Default::default()
            })
            .expect("target"),
    }
}

type Call = fn(&mut DeferredContext, &Objects, u32);

fn calls() -> Vec<(&'static str, Call)> {
    vec![
        ("draw_indexed", |c, _, i| c.draw_indexed(36, i, 0)),
        ("set_constant_buffers", |c, o, _| {
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(o.constants)])
        }),
        ("set_vertex_buffers", |c, o, _| {
            c.set_vertex_buffers(
                0,
                &[VertexBuffer {
                    buffer: Some(o.vertices),
                    stride: 32,
                    offset: 0,
                }],
            )
        }),
        ("set_shader_resources", |c, o, _| {
            c.set_shader_resources(Stage::Pixel, 0, &[Some(o.view)])
        }),
        ("set_shader", |c, o, _| {
            c.set_shader(Stage::Vertex, Some(o.vertex_shader))
        }),
        ("map_discard_unmap", |c, o, i| {
            if let Ok(data) = c
                .map(o.dynamic_constants, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)
            {
                data[0] = i as u8;
            }
            c.unmap(o.dynamic_constants);
        }),
        ("set_dynamic_constant_buffer", |c, o, _| {
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(o.dynamic_constants)])
        }),
        // One texture barrier, render target to shader resource (SPEC §9, the seed's example).
        ("texture_barrier", |c, o, _| {
            c.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
                sync_before: BarrierSync::RENDER_TARGET,
                sync_after: BarrierSync::PIXEL_SHADING,
                access_before: BarrierAccess::RENDER_TARGET,
                access_after: BarrierAccess::SHADER_RESOURCE,
                layout_before: BarrierLayout::RenderTarget,
                layout_after: BarrierLayout::ShaderResource,
                resource: o.target.into(),
                subresources: BarrierSubresources::ALL,
                discard: false,
            }])])
        }),
    ]
}

fn bench(criterion: &mut Criterion) {
    let device = Device::new(DeviceDesc::default());
    let objects = objects(&device);
    let mut group = criterion.benchmark_group("calls");
    group.throughput(Throughput::Elements(CALLS as u64));
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "bench",
                semantics,
                chunk_policy: None,
                ..Default::default()
            })
            .expect("context");
        for (name, call) in calls() {
            group.bench_function(BenchmarkId::new(name, semantics.name()), |b| {
                b.iter(|| {
                    // Dynamic binds need the buffer mapped in the list first (fast semantics).
                    if let Ok(data) = context
                        .map(
                            objects.dynamic_constants,
                            MapType::WriteDiscard,
                            MapFlags::None,
                        )
                        .map(Mapped::keep_mapped)
                    {
                        data[0] = 0;
                    }
                    context.unmap(objects.dynamic_constants);
                    for i in 0..CALLS {
                        call(&mut context, &objects, i);
                    }
                    black_box(
                        context
                            .finish_command_list(RestoreState::ClearState)
                            .expect("no errors"),
                    )
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
