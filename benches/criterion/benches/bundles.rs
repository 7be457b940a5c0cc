//! Draw bundles (R-B-10): the CPU cost of calling a bundle of 1, 10 and 100 draws, against
//! recording the same draws with their state every time. Each draw binds two textures and a
//! constant buffer of its own, after the object's pipeline, streams and index buffer.
//!
//! - `draw_bundle`: `ImmediateContext::draw_bundle`, the submission alone (`GpuTiming::Detached`,
//!   a null driver: the GPU model's expansion is the constant engine's work, not the CPU's);
//!   flat in the bundle's draw count;
//! - `draw_bundle_in_list`: `draw_bundle` recorded on a fast deferred context;
//! - `record_list`: the same calls recorded on a fast deferred context and finished (the list's
//!   drop is not timed): what a frame pays per object without bundles;
//! - `immediate_direct`: the same calls issued on the immediate context and flushed.
//!
//! ```text
//! cargo bench -p criterion-benches --bench bundles
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

const DRAWS: [u32; 3] = [1, 10, 100];

struct Objects {
    device: Device,
    vs: Shader,
    ps: Shader,
    layout: InputLayout,
    vertices: Buffer,
    indices: Buffer,
    textures: Vec<ShaderResourceView>,
    constants: Vec<Buffer>,
    sampler: SamplerState,
    target: RenderTargetView,
}

fn objects() -> Objects {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..Default::default()
    });
    let buffer = |name: &str, bind| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 4096,
                usage: Usage::Immutable,
                bind,
                ..Default::default()
            })
            .expect("buffer")
    };
    let textures = (0..16)
        .map(|_| {
            let texture = device
                .create_texture(&TextureDesc {
                    name: "texture",
                    format: Format::Bc1Unorm,
                    width: 256,
                    height: 256,
                    ..Default::default()
                })
                .expect("texture");
            device
                .create_shader_resource_view(&ViewDesc::new("texture", texture))
                .expect("srv")
        })
        .collect();
    let target = device
        .create_texture(&TextureDesc {
            name: "target",
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .expect("target");
    Objects {
        vs: device
            .create_shader(&ShaderDesc {
                constant_buffers: Slots::first(2),
                ..ShaderDesc::new("vs", Stage::Vertex)
            })
            .expect("vs"),
        ps: device
            .create_shader(&ShaderDesc {
                shader_resources: Slots::first(2),
                samplers: Slots::first(1),
                ..ShaderDesc::new("ps", Stage::Pixel)
            })
            .expect("ps"),
        layout: device
            .create_input_layout(&InputLayoutDesc {
                name: "layout",
                vertex_buffers: Slots::first(1),
            })
            .expect("layout"),
        vertices: buffer("vertices", BindFlags::VERTEX),
        indices: buffer("indices", BindFlags::INDEX),
        textures,
        constants: (0..16)
            .map(|_| buffer("constants", BindFlags::CONSTANT))
            .collect(),
        sampler: device.create_sampler_state("sampler").expect("sampler"),
        target: device
            .create_render_target_view(&ViewDesc::new("target", target))
            .expect("rtv"),
        device,
    }
}

/// The object's calls: its pipeline, streams and index buffer, then `draws` draws with their
/// own textures and constants. A macro, so that the bundle recorder, a deferred context and
/// the immediate context (each with the calls of the same names) make exactly the same calls.
macro_rules! object_calls {
    ($c:expr, $o:expr, $draws:expr) => {{
        let o = $o;
        $c.set_input_layout(Some(o.layout));
        $c.set_primitive_topology(PrimitiveTopology::TriangleList);
        $c.set_shader(Stage::Vertex, Some(o.vs));
        for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
            $c.set_shader(stage, None);
        }
        $c.set_shader(Stage::Pixel, Some(o.ps));
        $c.set_samplers(Stage::Pixel, 0, &[Some(o.sampler)]);
        $c.set_vertex_buffers(
            0,
            &[VertexBuffer {
                buffer: Some(o.vertices),
                stride: 32,
                offset: 0,
            }],
        );
        $c.set_index_buffer(Some(o.indices), Format::R16Uint, 0);
        for draw in 0..$draws as usize {
            let (a, b) = (o.textures[draw % 16], o.textures[(draw + 5) % 16]);
            $c.set_shader_resources(Stage::Pixel, 0, &[Some(a), Some(b)]);
            $c.set_constant_buffers(Stage::Vertex, 1, &[Some(o.constants[draw % 16])]);
            $c.draw_indexed(36, 0, 0);
        }
    }};
}

fn bundle(o: &Objects, draws: u32) -> DrawBundle {
    let desc = BundleDesc::new("object", &[Format::R8G8B8A8Unorm]);
    let mut recorder = BundleRecorder::new(&o.device, &desc).expect("recorder");
    object_calls!(recorder, o, draws);
    recorder.finish().expect("bundle")
}

fn context(o: &Objects) -> DeferredContext {
    o.device
        .create_deferred_context(&DeferredContextDesc {
            name: "bench",
            semantics: Semantics::Fast,
            chunk_policy: None,
            engine: Engine::Graphics,
            ..Default::default()
        })
        .expect("context")
}

fn bench(criterion: &mut Criterion) {
    let o = objects();
    let mut immediate = ImmediateContext::new(&o.device).expect("immediate");
    immediate.set_render_targets(&[Some(o.target)], None);
    immediate.flush().expect("flush");
    immediate.set_gpu_timing(GpuTiming::Detached);

    let mut group = criterion.benchmark_group("draw_bundle");
    for draws in DRAWS {
        let bundle = bundle(&o, draws);
        group.throughput(Throughput::Elements(draws as u64));
        group.bench_function(BenchmarkId::from_parameter(draws), |b| {
            b.iter(|| {
                immediate
                    .draw_bundle(black_box(&bundle))
                    .expect("draw_bundle")
            })
        });
    }
    group.finish();

    let mut group = criterion.benchmark_group("draw_bundle_in_list");
    let mut list_context = context(&o);
    for draws in DRAWS {
        let bundle = bundle(&o, draws);
        group.throughput(Throughput::Elements(draws as u64));
        group.bench_function(BenchmarkId::from_parameter(draws), |b| {
            b.iter_custom(|iterations| {
                // Lists of at most 10,000 calls, finished and dropped outside the timing.
                let mut total = Duration::ZERO;
                let mut left = iterations;
                while left > 0 {
                    let batch = left.min(10_000);
                    let start = Instant::now();
                    for _ in 0..batch {
                        list_context.draw_bundle(black_box(&bundle));
                    }
                    total += start.elapsed();
                    drop(
                        list_context
                            .finish_command_list(RestoreState::ClearState)
                            .expect("list"),
                    );
                    left -= batch;
                }
                total
            })
        });
    }
    group.finish();

    let mut group = criterion.benchmark_group("record_list");
    let mut record_context = context(&o);
    for draws in DRAWS {
        group.throughput(Throughput::Elements(draws as u64));
        group.bench_function(BenchmarkId::from_parameter(draws), |b| {
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    let start = Instant::now();
                    object_calls!(record_context, &o, black_box(draws));
                    let list = record_context
                        .finish_command_list(RestoreState::ClearState)
                        .expect("list");
                    total += start.elapsed();
                    drop(list);
                }
                total
            })
        });
    }
    group.finish();

    let mut group = criterion.benchmark_group("immediate_direct");
    for draws in DRAWS {
        group.throughput(Throughput::Elements(draws as u64));
        group.bench_function(BenchmarkId::from_parameter(draws), |b| {
            b.iter(|| {
                object_calls!(immediate, &o, black_box(draws));
                immediate.flush().expect("flush");
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
