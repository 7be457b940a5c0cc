//! Property tests of the GPU model over random call sequences recorded on real deferred
//! contexts: records hold exactly the slots the shaders and the input layout read, and answer
//! every field they list by its name (R-EX-3); resolving a legacy list's split points segment by
//! segment changes nothing a draw sees, and the counters match the list (R-SP-4, R-SP-5).

mod common;

use common::*;
use executor::{DrawRecord, GpuModel, ViewRecord};
use proptest::prelude::*;
use recorder::*;

#[derive(Clone, Debug)]
enum Op {
    Shader(usize, usize),
    ShaderResources(usize, u32, Vec<usize>),
    ConstantBuffers(usize, u32, Vec<usize>),
    Samplers(usize, u32, usize),
    VertexBuffers(u32, Vec<usize>),
    Layout(bool),
    IndexBuffer(bool, u32),
    ResetIndex(u32),
    Targets(Vec<usize>, bool),
    TargetsAndUavs(Vec<usize>, u32, Vec<usize>),
    ComputeUavs(u32, Vec<usize>),
    States(usize),
    Viewports(usize, usize),
    Predication(bool),
    Draw(usize),
    ClearTarget(usize),
    Decompress(usize, bool),
    ClearState,
    MapDynamic,
}

const STAGES: [Stage; 4] = [Stage::Vertex, Stage::Hull, Stage::Pixel, Stage::Compute];

fn op() -> impl Strategy<Value = Op> {
    let picks = |max: usize, len: std::ops::Range<usize>| prop::collection::vec(0..max, len);
    // Weighted so that most sequences draw with shaders and views bound.
    prop_oneof![
        4 => (0..4usize, 1..3usize).prop_map(|(s, p)| Op::Shader(s, p)),
        4 => (0..4usize, 0..3u32, picks(7, 1..4)).prop_map(|(s, a, v)| Op::ShaderResources(s, a, v)),
        2 => (0..4usize, 0..3u32, picks(4, 1..4)).prop_map(|(s, a, v)| Op::ConstantBuffers(s, a, v)),
        1 => (0..4usize, 0..3u32, 0..2usize).prop_map(|(s, a, n)| Op::Samplers(s, a, n)),
        1 => (0..3u32, picks(3, 1..4)).prop_map(|(a, v)| Op::VertexBuffers(a, v)),
        1 => any::<bool>().prop_map(Op::Layout),
        1 => (any::<bool>(), 0..4u32).prop_map(|(r32, o)| Op::IndexBuffer(r32, o * 4)),
        1 => (0..3u32).prop_map(Op::ResetIndex),
        1 => (picks(3, 0..3), any::<bool>()).prop_map(|(t, d)| Op::Targets(t, d)),
        2 => (picks(3, 0..3), 0..2u32, picks(3, 0..3)).prop_map(|(t, a, u)| Op::TargetsAndUavs(t, a, u)),
        2 => (0..3u32, picks(3, 1..4)).prop_map(|(a, v)| Op::ComputeUavs(a, v)),
        1 => (0..4usize).prop_map(Op::States),
        1 => (0..3usize, 0..3usize).prop_map(|(v, s)| Op::Viewports(v, s)),
        1 => any::<bool>().prop_map(Op::Predication),
        6 => (0..7usize).prop_map(Op::Draw),
        2 => (0..3usize).prop_map(Op::ClearTarget),
        1 => (0..2usize, any::<bool>()).prop_map(|(t, c)| Op::Decompress(t, c)),
        1 => Just(Op::ClearState),
        1 => Just(Op::MapDynamic),
    ]
}

/// 0 picks nothing (a null binding), `i` the `i`-th of `from`.
fn pick<T: Copy>(i: usize, from: &[T]) -> Option<T> {
    i.checked_sub(1).and_then(|i| from.get(i).copied())
}

/// Records `ops` on `context`; every call is valid on either semantics.
fn record_ops(f: &Fixture, context: &mut DeferredContext, ops: &[Op]) {
    let fast = context.semantics() == Semantics::Fast;
    let mut mapped = false;
    let srvs = [
        f.tex_srv,
        f.tex2_srv,
        f.sb_srv,
        f.rt_srv,
        f.rt_plain_srv,
        f.ds_srv,
    ];
    let rtvs = [f.rt_rtv, f.rt_plain_rtv];
    let uavs = [f.sb_uav, f.rt_uav];
    for op in ops {
        let c = &mut *context;
        match op {
            Op::Shader(s, p) => {
                let choices: &[Shader] = match STAGES[*s] {
                    Stage::Vertex => &[f.vs],
                    Stage::Hull => &[f.hs],
                    Stage::Pixel => &[f.ps, f.ps_uavs],
                    _ => &[f.cs],
                };
                c.set_shader(STAGES[*s], pick(*p, choices));
            }
            Op::ShaderResources(s, start, v) => {
                let views: Vec<_> = v.iter().map(|i| pick(*i, &srvs)).collect();
                c.set_shader_resources(STAGES[*s], *start, &views);
            }
            Op::ConstantBuffers(s, start, v) => {
                let dynamic = if fast && !mapped { f.cb2 } else { f.cb_dyn };
                let buffers: Vec<_> = v
                    .iter()
                    .map(|i| pick(*i, &[f.cb, f.cb2, dynamic]))
                    .collect();
                c.set_constant_buffers(STAGES[*s], *start, &buffers);
            }
            Op::Samplers(s, start, n) => {
                c.set_samplers(STAGES[*s], *start, &[pick(*n, &[f.sampler])]);
            }
            Op::VertexBuffers(start, v) => {
                let buffers: Vec<_> = v
                    .iter()
                    .map(|i| VertexBuffer {
                        buffer: pick(*i, &[f.vb, f.vb2]),
                        stride: 16,
                        offset: 0,
                    })
                    .collect();
                c.set_vertex_buffers(*start, &buffers);
            }
            Op::Layout(on) => c.set_input_layout(on.then_some(f.layout)),
            Op::IndexBuffer(r32, offset) => {
                let format = if *r32 {
                    Format::R32Uint
                } else {
                    Format::R16Uint
                };
                c.set_index_buffer(Some(f.ib), format, *offset);
            }
            Op::ResetIndex(value) => c.set_primitive_reset_index(*value),
            Op::Targets(t, depth) => {
                let targets: Vec<_> = t.iter().map(|i| pick(*i, &rtvs)).collect();
                c.set_render_targets(&targets, depth.then_some(f.ds_dsv));
            }
            Op::TargetsAndUavs(t, after, u) => {
                let targets: Vec<_> = t.iter().map(|i| pick(*i, &rtvs)).collect();
                let views: Vec<_> = u.iter().map(|i| pick(*i, &uavs)).collect();
                let start = targets.len() as u32 + after;
                c.set_render_targets_and_unordered_access_views(&targets, None, start, &views);
            }
            Op::ComputeUavs(start, v) => {
                let views: Vec<_> = v.iter().map(|i| pick(*i, &uavs)).collect();
                c.set_compute_unordered_access_views(*start, &views);
            }
            Op::States(which) => match which {
                0 => c.set_blend_state(Some(f.blend), [1.0; 4], u32::MAX),
                1 => c.set_depth_stencil_state(Some(f.dss), 1),
                2 => c.set_rasterizer_state(Some(f.raster)),
                _ => c.set_rasterizer_state(None),
            },
            Op::Viewports(v, s) => {
                c.set_viewports(&vec![Viewport::new(0.0, 0.0, 8.0, 8.0); *v]);
                c.set_scissor_rects(&vec![Rect::default(); *s]);
            }
            Op::Predication(on) => {
                c.set_predication(on.then_some(f.predicate), PredicateValue::True)
            }
            Op::Draw(kind) => match kind {
                0 => c.draw(3, 0),
                1 => c.draw_indexed(3, 1, -2),
                2 => c.draw_instanced(3, 2, 0, 1),
                3 => c.draw_indexed_instanced(6, 2, 0, 5, 1),
                4 => c.draw_instanced_indirect(f.args, 16),
                5 => c.dispatch(2, 1, 1),
                _ => c.dispatch_indirect(f.args, 0),
            },
            Op::ClearTarget(which) => match which {
                0 => c.clear_render_target_view(f.rt_rtv, [0.0; 4]),
                1 => c.clear_render_target_view(f.rt_plain_rtv, [0.0; 4]),
                _ => c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0),
            },
            Op::Decompress(which, compressed) => {
                let texture = [f.rt, f.ds][*which];
                if *compressed {
                    c.set_resource_compression(texture, Compression::Compressed);
                } else {
                    c.decompress_resource(texture, None);
                }
            }
            Op::ClearState => c.clear_state(),
            Op::MapDynamic => {
                write_discard(c, f.cb_dyn);
                mapped = true;
            }
        }
    }
}

fn bits(mask: u128, limit: u32) -> Vec<u32> {
    (0..limit).filter(|i| mask & 1 << i != 0).collect()
}

/// The record with every `compressed` cleared.
fn without_compression(record: &DrawRecord) -> DrawRecord {
    let clear = |view: &mut ViewRecord| view.compressed = false;
    let mut record = record.clone();
    for stage in &mut record.stages {
        stage
            .shader_resources
            .iter_mut()
            .for_each(|(_, v)| clear(v));
        stage
            .unordered_access_views
            .iter_mut()
            .for_each(|(_, v)| clear(v));
    }
    if let Some(graphics) = record.graphics.as_mut() {
        graphics.render_targets.iter_mut().for_each(clear);
        clear(&mut graphics.depth_stencil);
    }
    record
}

fn check_records(f: &Fixture, gpu: &GpuModel) -> Result<(), TestCaseError> {
    let counters = gpu.counters();
    prop_assert_eq!(
        gpu.records().len() as u64,
        counters.draws + counters.dispatches
    );
    prop_assert!(counters.context_rolls <= counters.draws + counters.dispatches);
    for record in gpu.records() {
        for (name, value) in record.fields() {
            prop_assert_eq!(record.field(&name), Some(value), "{}", name);
        }
        for stage in &record.stages {
            let slots = |list: &[u32]| list.to_vec();
            let Some(info) = f.device.shader_info(Shader::from_raw(stage.shader)) else {
                prop_assert!(
                    stage.constant_buffers.is_empty() && stage.shader_resources.is_empty()
                );
                prop_assert!(stage.samplers.is_empty() && stage.unordered_access_views.is_empty());
                continue;
            };
            let uav_limit = if stage.stage == Stage::Compute { 64 } else { 8 };
            let cbs: Vec<u32> = stage.constant_buffers.iter().map(|(s, _)| *s).collect();
            let srvs: Vec<u32> = stage.shader_resources.iter().map(|(s, _)| *s).collect();
            let samplers: Vec<u32> = stage.samplers.iter().map(|(s, _)| *s).collect();
            let uavs: Vec<u32> = stage
                .unordered_access_views
                .iter()
                .map(|(s, _)| *s)
                .collect();
            prop_assert_eq!(slots(&cbs), bits(info.constant_buffers.bits(), 16));
            prop_assert_eq!(slots(&srvs), bits(info.shader_resources.bits(), 128));
            prop_assert_eq!(slots(&samplers), bits(info.samplers.bits(), 16));
            prop_assert_eq!(
                slots(&uavs),
                bits(info.unordered_access_views.bits(), uav_limit)
            );
        }
        if let Some(graphics) = &record.graphics {
            let vbs: Vec<u32> = graphics.vertex_buffers.iter().map(|(s, _)| *s).collect();
            let expected = if graphics.input_layout.is_null() {
                vec![]
            } else {
                vec![0, 2]
            };
            prop_assert_eq!(vbs, expected);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn r_ex_3_records_list_exactly_the_read_slots_and_answer_them_by_name(
        ops in prop::collection::vec(op(), 1..60),
        fast in any::<bool>(),
    ) {
        let f = Fixture::new();
        let semantics = if fast { Semantics::Fast } else { Semantics::Legacy };
        let list = f.list(semantics, |c| record_ops(&f, c, &ops));
        let mut gpu = GpuModel::new();
        run(&mut gpu, &list);
        check_records(&f, &gpu)?;
    }

    #[test]
    fn r_sp_4_resolving_split_points_changes_nothing_a_draw_sees_but_compression(
        ops in prop::collection::vec(op(), 1..60),
    ) {
        let f = Fixture::new();
        let list = f.legacy(|c| record_ops(&f, c, &ops));
        let mut linear = GpuModel::new();
        run(&mut linear, &list);
        let mut segmented = GpuModel::new();
        run_segments(&mut segmented, &list);
        let strip = |gpu: &GpuModel| gpu.records().iter().map(without_compression).collect::<Vec<_>>();
        prop_assert_eq!(strip(&segmented), strip(&linear));
        let counters = segmented.counters();
        prop_assert_eq!(counters.split_points_resolved, list.stats().split_points);
        let command_segments = list
            .segments()
            .filter(|s| matches!(s, Segment::Commands(_)))
            .count() as u64;
        prop_assert_eq!(counters.ib_executions, command_segments);
        prop_assert!(counters.decompressions >= linear.counters().decompressions);
    }
}
