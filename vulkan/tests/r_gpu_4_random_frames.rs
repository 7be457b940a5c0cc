//! R-GPU-4: random legal frames of both semantics, recorded on deferred contexts into lists and
//! executed, the lists calling draw bundles (each encapsulating shaders and topology, some a
//! pixel shader's constant buffer, the rest inherited from the list), draw on the backend what
//! the model records: at every draw the oracle compares the
//! backend's bound state with the model's record (none may differ), every draw the model
//! recorded is one the backend drew, and the validation layer (synchronization validation on)
//! reports nothing; queries begun and ended at random, predication set at random (decided by
//! conditional rendering), the GPU's predicate answers the model's. The frames are drawn from a fixed seed per case, so every run draws the same
//! ones (CI is never flaky); `RANDOM_FRAMES=N` runs more cases.

mod common;

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use common::*;
use recorder::*;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// The objects a frame picks from.
struct Objects {
    vs: Shader,
    colour_ps: Shader,
    sample_ps: Shader,
    constants: Vec<Buffer>,
    dynamic: Buffer,
    view: ShaderResourceView,
    sampler: SamplerState,
    targets: Vec<RenderTargetView>,
    blends: Vec<BlendState>,
    rasterizer: RasterizerState,
    /// Two predicates (occlusion queries that can predicate) and a statistics query.
    queries: Vec<Query>,
}

/// A random bundle: the mandatory state (R-B-3), a pixel shader, at times its constant buffer
/// (else inherited from the calling list), one to three draws of the middle or both quads.
fn bundle(gpu: &Gpu, o: &Objects, rng: &mut Rng, k: u64) -> DrawBundle {
    let name = format!("bundle{k}");
    let mut recording = BundleRecorder::new(
        &gpu.device,
        &BundleDesc::new(&name, &[Format::R8G8B8A8Unorm]),
    )
    .expect("a bundle recorder");
    recording.set_input_layout(None);
    recording.set_shader(Stage::Vertex, Some(o.vs));
    for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
        recording.set_shader(stage, None);
    }
    let ps = [o.colour_ps, o.sample_ps][rng.below(2) as usize];
    recording.set_shader(Stage::Pixel, Some(ps));
    recording.set_primitive_topology(PrimitiveTopology::TriangleList);
    if rng.below(2) == 0 {
        let cb = o.constants[rng.below(3) as usize];
        recording.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
    }
    for _ in 0..1 + rng.below(3) {
        recording.draw(6 * (1 + rng.below(2) as u32), 0);
    }
    recording.finish().expect("a legal bundle")
}

fn objects(gpu: &Gpu) -> Objects {
    let device = &gpu.device;
    let sample_ps = gpu.sample_ps();
    let texels: Vec<u8> = (0..16u8)
        .flat_map(|i| [i * 16, 255 - i * 16, i * 8, 255])
        .collect();
    let source = device
        .create_texture_with_data(
            &TextureDesc {
                name: "source",
                format: Format::R8G8B8A8Unorm,
                width: 4,
                height: 4,
                bind: BindFlags::SHADER_RESOURCE,
                ..Default::default()
            },
            &texels,
        )
        .expect("the source texture");
    let targets = (0..2)
        .map(|k| {
            let texture = device
                .create_texture(&TextureDesc {
                    name: &format!("target{k}"),
                    format: Format::R8G8B8A8Unorm,
                    width: 32,
                    height: 32,
                    bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
                    ..Default::default()
                })
                .expect("a target");
            device
                .create_render_target_view(&ViewDesc::new(&format!("target{k}.rtv"), texture))
                .expect("a target view")
        })
        .collect();
    let additive = BlendDesc {
        targets: [TargetBlend {
            enable: true,
            src: BlendFactor::One,
            dest: BlendFactor::One,
            ..TargetBlend::default()
        }; 8],
        ..BlendDesc::default()
    };
    Objects {
        vs: gpu.quad_vs(),
        colour_ps: gpu.colour_ps(),
        sample_ps,
        constants: (0..3)
            .map(|k| {
                let c = k as f32 / 3.0;
                gpu.colour_buffer(&format!("cb{k}"), Usage::Default, [c, 0.5, 1.0 - c, 1.0])
            })
            .collect(),
        dynamic: gpu.colour_buffer("dynamic", Usage::Dynamic, [0.0; 4]),
        view: device
            .create_shader_resource_view(&ViewDesc::new("source.srv", source))
            .expect("the source view"),
        sampler: device
            .create_sampler_state_with("sampler", &SamplerDesc::default())
            .expect("a sampler"),
        targets,
        blends: vec![
            device
                .create_blend_state_with("opaque", &BlendDesc::default())
                .expect("a blend state"),
            device
                .create_blend_state_with("additive", &additive)
                .expect("a blend state"),
        ],
        queries: vec![
            device.create_query("p0", QueryKind::Predicate).unwrap(),
            device.create_query("p1", QueryKind::Predicate).unwrap(),
            device
                .create_query("stats", QueryKind::PipelineStatistics)
                .unwrap(),
        ],
        rasterizer: device
            .create_rasterizer_state_with(
                "two_sided",
                &RasterizerDesc {
                    cull: CullMode::None,
                    ..RasterizerDesc::default()
                },
            )
            .expect("a rasterizer state"),
    }
}

/// Records one random list on `context`.
fn record(context: &mut DeferredContext, o: &Objects, bundles: &[DrawBundle], rng: &mut Rng) {
    // Every list binds a target first: a fast list inherits the rest, a legacy one starts from
    // ClearState, and both are legal from there.
    let target = o.targets[rng.below(2) as usize];
    context.set_render_targets(&[Some(target)], None);
    context.set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    context.set_rasterizer_state(Some(o.rasterizer));
    context.set_primitive_topology(PrimitiveTopology::TriangleList);
    context.set_shader(Stage::Vertex, Some(o.vs));
    context.set_shader(Stage::Pixel, Some(o.colour_ps));
    for _ in 0..4 + rng.below(16) {
        match rng.below(12) {
            0 => {
                let target = o.targets[rng.below(2) as usize];
                context.set_render_targets(&[Some(target)], None);
            }
            1 => {
                let ps = [o.colour_ps, o.sample_ps][rng.below(2) as usize];
                context.set_shader(Stage::Pixel, Some(ps));
            }
            2 => {
                let cb = o.constants[rng.below(3) as usize];
                context.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
            }
            3 => {
                let colour = [rng.below(256) as f32 / 255.0, 0.25, 0.75, 1.0];
                if let Ok(mut mapped) =
                    context.map(o.dynamic, MapType::WriteDiscard, MapFlags::None)
                {
                    mapped[..16].copy_from_slice(&colour_bytes(colour));
                }
                context.set_constant_buffers(Stage::Pixel, 0, &[Some(o.dynamic)]);
            }
            4 => {
                context.set_shader_resources(Stage::Pixel, 0, &[Some(o.view)]);
                context.set_samplers(Stage::Pixel, 0, &[Some(o.sampler)]);
            }
            5 => {
                let blend = o.blends[rng.below(2) as usize];
                context.set_blend_state(Some(blend), [0.0; 4], u32::MAX);
            }
            6 => {
                let target = o.targets[rng.below(2) as usize];
                context.clear_render_target_view(target, [0.1, 0.2, 0.3, 1.0]);
            }
            9 => {
                // The bundle's pixel shader may sample: the list binds what it would read
                // (a bundle inherits views and samplers, R-B-4).
                context.set_shader_resources(Stage::Pixel, 0, &[Some(o.view)]);
                context.set_samplers(Stage::Pixel, 0, &[Some(o.sampler)]);
                context.draw_bundle(&bundles[rng.below(bundles.len() as u64) as usize]);
            }
            7 => {
                let query = o.queries[rng.below(3) as usize];
                match rng.below(3) {
                    0 => context.begin_query(query),
                    1 => context.end_query(query),
                    _ => {
                        // A whole scope: the occlusion test a predicate is made for.
                        context.begin_query(query);
                        context.draw(6, 0);
                        context.end_query(query);
                    }
                }
            }
            8 => {
                let predicate = [None, Some(o.queries[0]), Some(o.queries[1])];
                let value = [PredicateValue::False, PredicateValue::True][rng.below(2) as usize];
                context.set_predication(predicate[rng.below(3) as usize], value);
            }
            _ => {
                // The middle quad (6 vertices) or both quads (12: the full one too).
                context.draw(6 * (1 + rng.below(2) as u32), 0);
            }
        }
    }
}

/// One frame of `seed`: lists of the device's semantics, executed in order, then checked.
fn frame(seed: u64) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let semantics = [Semantics::Legacy, Semantics::Fast][rng.below(2) as usize];
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: semantics,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let o = objects(&gpu);
    let bundles: Vec<DrawBundle> = (0..1 + rng.below(3))
        .map(|k| bundle(&gpu, &o, &mut rng, k))
        .collect();
    let mut context = gpu
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "random",
            semantics,
            ..Default::default()
        })
        .expect("a deferred context");
    for _ in 0..1 + rng.below(3) {
        record(&mut context, &o, &bundles, &mut rng);
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .expect("a legal list");
        // Once or twice: a list executed again draws the same on both.
        for _ in 0..1 + rng.below(2) {
            gpu.imm
                .execute_command_list(&list, RestoreState::ClearState)
                .expect("the list executes");
        }
    }
    gpu.imm.flush().expect("no refusal, no violation");
    let model_draws = gpu.imm.counters().draws;
    let oracle = gpu.backend().oracle_counts();
    let skipped = gpu.backend().predication_counts().skipped;
    assert_eq!(
        oracle.draws + skipped,
        model_draws,
        "seed {seed}: the backend compared {} draws and skipped {skipped}, the model recorded \
         {model_draws}",
        oracle.draws
    );
    // Every draw covers pixels with a target bound: the GPU's answers are the model's.
    for &query in &o.queries[..2] {
        let model = gpu.imm.gpu_now().and_then(|m| m.query_result(query.raw()));
        let answer = gpu.backend().query_result(query).expect("a result");
        match (model, answer) {
            (Some(model), Some(executor::QueryData::Predicate { passed, .. })) => {
                assert_eq!(passed, model.answer(), "seed {seed}: {query:?}")
            }
            (None, None) => {}
            (model, answer) => panic!("seed {seed}: the model has {model:?}, the GPU {answer:?}"),
        }
    }
    gpu.assert_clean();
}

#[test]
fn r_gpu_4_random_legal_frames_draw_what_the_model_records() {
    let cases: u64 = std::env::var("RANDOM_FRAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12);
    for seed in 0..cases {
        frame(seed);
    }
}
