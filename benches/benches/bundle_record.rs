//! Recording draw bundles against recording the same calls on a fast deferred context (issue
//! 12's aim: bundle recording within 1.5x of a fast list), in the workload of wgpu's render-bundle
//! benchmark: 100,000 draws, per draw one constant-buffer bind rotating among 16 buffers (default
//! usage), one vertex-buffer bind rotating among 8 and `draw(3, 0)`; the vertex and pixel shaders
//! (and, on the list, the blend state) change every 100 draws.
//!
//! - `bundles`: 1,000 bundles of 100 draws, each finished (`BundleRecorder::finish`), then
//!   dropped. A bundle sets what R-B-3 makes mandatory (the input layout, the five graphics
//!   stages: vs and ps change from bundle to bundle, hs/ds/gs null) and cannot set a blend state
//!   (it is inherited, R-B-7): the caller's list would;
//! - `fast_list`: the same 100,000 draws on one fast deferred context, the shaders and the blend
//!   state changing every 100 draws, finished and dropped.
//!
//! Both are timed with the drop, setup outside the timing; throughput is in draws.
//!
//! ```text
//! cargo bench -p benches --bench bundle_record -- --warm-up-time 1 --measurement-time 2
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use recorder::*;

/// Draws per iteration.
const DRAWS: u32 = 100_000;
/// Draws per bundle, and between two shader (and blend) changes on the list.
const DRAWS_PER_BUNDLE: u32 = 100;
/// Bundles per iteration.
const BUNDLES: u32 = DRAWS / DRAWS_PER_BUNDLE;

/// The workload's objects: 16 constant buffers, 8 vertex buffers, two vs/ps pairs and two blend
/// states to alternate between.
struct Workload {
    device: Device,
    constants: Vec<Buffer>,
    vertices: Vec<Buffer>,
    vertex_shaders: [Shader; 2],
    pixel_shaders: [Shader; 2],
    blends: [BlendState; 2],
    layout: InputLayout,
}

fn workload() -> Workload {
    let device = Device::new(DeviceDesc::default());
    let buffer = |name: &str, bind| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 256,
                usage: Usage::Default,
                bind,
                ..Default::default()
            })
            .expect("buffer")
    };
    let shader = |name: &str, stage| {
        device
            .create_shader(&ShaderDesc {
                constant_buffers: Slots::first(1),
                ..ShaderDesc::new(name, stage)
            })
            .expect("shader")
    };
    Workload {
        constants: (0..16)
            .map(|_| buffer("constants", BindFlags::CONSTANT))
            .collect(),
        vertices: (0..8)
            .map(|_| buffer("vertices", BindFlags::VERTEX))
            .collect(),
        vertex_shaders: [shader("vs0", Stage::Vertex), shader("vs1", Stage::Vertex)],
        pixel_shaders: [shader("ps0", Stage::Pixel), shader("ps1", Stage::Pixel)],
        blends: [
            device.create_blend_state("blend0").expect("blend"),
            device.create_blend_state("blend1").expect("blend"),
        ],
        layout: device
            .create_input_layout(&InputLayoutDesc {
                name: "layout",
                vertex_buffers: Slots::first(1),
            })
            .expect("layout"),
        device,
    }
}

/// The per-draw calls of draw `i`, on a bundle recorder or a deferred context (a macro: the two
/// have calls of the same names, not a common trait with these).
macro_rules! draw_calls {
    ($c:expr, $w:expr, $i:expr) => {{
        let (w, i) = ($w, $i as usize);
        $c.set_constant_buffers(Stage::Vertex, 0, &[Some(w.constants[i % 16])]);
        $c.set_vertex_buffers(
            0,
            &[VertexBuffer {
                buffer: Some(w.vertices[i % 8]),
                stride: 16,
                offset: 0,
            }],
        );
        $c.draw(3, 0);
    }};
}

/// Records bundle `k` of the workload (draws `100k..100k + 100`).
fn record_bundle(recorder: &mut BundleRecorder, w: &Workload, k: u32) -> DrawBundle {
    let pipeline = k as usize % 2;
    recorder.set_input_layout(Some(w.layout));
    recorder.set_shader(Stage::Vertex, Some(w.vertex_shaders[pipeline]));
    for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
        recorder.set_shader(stage, None);
    }
    recorder.set_shader(Stage::Pixel, Some(w.pixel_shaders[pipeline]));
    for i in k * DRAWS_PER_BUNDLE..(k + 1) * DRAWS_PER_BUNDLE {
        draw_calls!(recorder, w, i);
    }
    recorder.finish().expect("bundle")
}

/// Records the whole workload on a fast deferred context.
fn record_list(context: &mut DeferredContext, w: &Workload) -> CommandList {
    context.set_input_layout(Some(w.layout));
    context.set_primitive_topology(PrimitiveTopology::TriangleList);
    for i in 0..DRAWS {
        if i % DRAWS_PER_BUNDLE == 0 {
            let pipeline = (i / DRAWS_PER_BUNDLE) as usize % 2;
            context.set_shader(Stage::Vertex, Some(w.vertex_shaders[pipeline]));
            context.set_shader(Stage::Pixel, Some(w.pixel_shaders[pipeline]));
            context.om_set_blend_state(Some(w.blends[pipeline]), [1.0; 4], !0);
        }
        draw_calls!(context, w, i);
    }
    context
        .finish_command_list(RestoreState::ClearState)
        .expect("list")
}

fn bench(criterion: &mut Criterion) {
    let w = workload();
    let desc = BundleDesc::new("object", &[Format::R8G8B8A8Unorm]);
    let mut recorder = BundleRecorder::new(&w.device, &desc).expect("recorder");
    let mut context = w
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "bench",
            semantics: Semantics::Fast,
            chunk_policy: None,
            engine: Engine::Graphics,
        })
        .expect("context");
    let mut bundles: Vec<DrawBundle> = Vec::with_capacity(BUNDLES as usize);

    let mut group = criterion.benchmark_group("bundle_record");
    group.throughput(Throughput::Elements(DRAWS as u64));
    group.bench_function("bundles", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let start = Instant::now();
                for k in 0..BUNDLES {
                    bundles.push(record_bundle(&mut recorder, black_box(&w), k));
                }
                bundles.clear();
                total += start.elapsed();
            }
            total
        })
    });
    group.bench_function("fast_list", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let start = Instant::now();
                drop(record_list(&mut context, black_box(&w)));
                total += start.elapsed();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
