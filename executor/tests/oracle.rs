//! R-O-1, the equivalence oracle for command lists: recording a random call sequence on a
//! deferred context and executing the list gives the same draw records as issuing the same calls
//! directly on an immediate context from the list's starting state (R-ST-1), with the list's own
//! semantics for what the calls do, then the executing context's after-rule (R-ST-2), as
//! TRACE.md's `--compare` spells it out.
//!
//! Two identical fixtures, on twin devices (`Device::twin`), give the two runs the same handles: device X records the list on a
//! deferred context and executes it, after a fast list that left random state on the immediate
//! context; device Y issues the same calls on its immediate context, whose semantics are the
//! list's, from the state the list starts from. Dynamic instances are named differently on the two sides (the
//! list's own versus the immediate context's), so records are compared with every instance
//! renamed to the order in which it first appears. `check`'s devices also have a swap chain,
//! whose views a list binds and the device places between the calls (R-EX-7): a bind copies the
//! buffer its view names at its call, so the list keeps what it encoded.

mod common;

use std::collections::HashMap;

use common::*;
use executor::{DrawRecord, FieldValue, ImmediateContext};
use proptest::prelude::*;
use recorder::command::InstanceId;
use recorder::*;

#[derive(Clone, Debug)]
enum Op {
    InputLayout(bool),
    Shader(u8, bool),
    VertexBuffer(u32, u8),
    IndexBuffer(bool, bool),
    ConstantBuffer(u8, u32, u8),
    ShaderResource(u8, u32, u8),
    /// R-FX-1: `set_fast_resources` of a constant buffer (slot, which) and a view (slot, which)
    /// of a stage; the fast contract on any context.
    FastResources(u8, u32, u8, u32, u8),
    /// R-FX-2: a default constant buffer (which) placed at one of a few addresses.
    PlacedConstantBuffer(u8, u32, u8, u8),
    RenderTarget(u8, bool),
    /// The output-merger UAV at slot 1 (which the pixel shader reads): rt's or none.
    OutputUav(bool),
    /// The compute shader, and rt's UAV at compute slot 0 (which it reads).
    ComputeShader(bool),
    ComputeUav(bool),
    Dispatch,
    /// GDS (R-FX-4): 0 `write_gds` of two words at word W, 1 `read_gds` of two words from word
    /// W into `args`, 2 `set_gds_range` of the compute (W even) or pixel stage.
    Gds(u8, u8),
    /// Constant RAM (R-FX-5): `load_constant_ram` (`true`) or `store_constant_ram` of 16 bytes
    /// between `args` at 16 * K and constant RAM at 8 * K.
    ConstantRam(bool, u8),
    /// R-FX-3 on the predicate: 0 `begin_query`, 1 `end_query`, 2 `write_query`, 3
    /// `reset_query`, 4 `configure_query` binary, 5 and 6 `set_predication_from_query` yes and
    /// no, 7 `set_predication` yes (the fixture's predicate), 8 no predication.
    Query(u8),
    Clear,
    /// Decompresses the render target (`false`) or the depth stencil (R-ST-9): 0 whole, 1 one
    /// kind (rt's fast-clear eliminate, ds's depth plane), 2 a quarter region, 3 a region
    /// covering the whole texture.
    Decompress(bool, u8),
    MapDynamic,
    Blend(bool),
    Viewport(u8),
    ResetIndex(u32),
    Draw(u32),
    DrawIndexed(u32),
    ClearState,
    /// R-FX-6: a fence that kicks off its segment (a list's run ends there; the records stay).
    FenceKickOff,
    /// A barrier (§9): 0 a texture barrier of rt from `undefined` into the layout chosen, 1 the
    /// same with `discard`, 2 a global UAV barrier, 3 a legacy UAV barrier of rt, 4 a legacy
    /// null aliasing barrier, 5 two texture barriers (rt, ds) in one group.
    Barrier(u8, u8),
    /// Region copies (R-BAR-7): 0 a self-copy of `args`' bytes, 1 a self-copy of `tex`'s
    /// top-left quarter into its bottom-right one, 2 a copy of `rt`'s quarter into `tex`.
    CopyRegion(u8),
    /// R-EX-7, in `check` only (its devices have a swap chain of 3 buffers; elsewhere nothing):
    /// the render target is the chain's view K.
    SwapChainTarget(u8),
    /// R-EX-7, likewise: `Device::place_swap_chain_view` of the chain's view K on buffer B, a
    /// device call made at once, between the context's calls.
    PlaceSwapChainView(u8, u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => any::<bool>().prop_map(Op::InputLayout),
        2 => (0u8..2, any::<bool>()).prop_map(|(s, b)| Op::Shader(s, b)),
        2 => (prop_oneof![Just(0u32), Just(2u32)], 0u8..3).prop_map(|(s, w)| Op::VertexBuffer(s, w)),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(b, r16)| Op::IndexBuffer(b, r16)),
        3 => (0u8..2, 0u32..2, 0u8..4).prop_map(|(st, s, w)| Op::ConstantBuffer(st, s, w)),
        2 => (0u8..2, prop_oneof![Just(0u32), Just(2u32)], 0u8..7).prop_map(|(st, s, w)| Op::ShaderResource(st, s, w)),
        2 => (0u8..2, 0u32..2, 0u8..3, prop_oneof![Just(0u32), Just(2u32)], 0u8..7)
            .prop_map(|(st, c, wc, v, wv)| Op::FastResources(st, c, wc, v, wv)),
        1 => (0u8..2, 0u32..2, 0u8..2, 0u8..3).prop_map(|(st, s, w, a)| Op::PlacedConstantBuffer(st, s, w, a)),
        1 => (0u8..3, any::<bool>()).prop_map(|(t, d)| Op::RenderTarget(t, d)),
        // R-ST-10: rt and ds are bound for output (above) and for input (`ShaderResource`),
        // and rt through UAVs too, so legacy lists unbind and leave slots null.
        1 => any::<bool>().prop_map(Op::OutputUav),
        1 => any::<bool>().prop_map(Op::ComputeShader),
        1 => any::<bool>().prop_map(Op::ComputeUav),
        1 => Just(Op::Dispatch),
        1 => (0u8..3, 0u8..8).prop_map(|(k, w)| Op::Gds(k, w)),
        1 => (any::<bool>(), 0u8..8).prop_map(|(load, k)| Op::ConstantRam(load, k)),
        2 => (0u8..9).prop_map(Op::Query),
        1 => Just(Op::Clear),
        1 => (any::<bool>(), 0u8..4).prop_map(|(d, k)| Op::Decompress(d, k)),
        2 => Just(Op::MapDynamic),
        1 => any::<bool>().prop_map(Op::Blend),
        1 => (0u8..3).prop_map(Op::Viewport),
        1 => prop_oneof![Just(0xFFFFu32), Just(7u32)].prop_map(Op::ResetIndex),
        4 => (1u32..9).prop_map(Op::Draw),
        2 => (1u32..9).prop_map(Op::DrawIndexed),
        1 => Just(Op::ClearState),
        1 => Just(Op::FenceKickOff),
        2 => (0u8..6, 0u8..4).prop_map(|(k, l)| Op::Barrier(k, l)),
        1 => (0u8..3).prop_map(Op::CopyRegion),
        1 => (0u8..3).prop_map(Op::SwapChainTarget),
        1 => (0u8..3, 0u8..3).prop_map(|(k, b)| Op::PlaceSwapChainView(k, b)),
    ]
}

/// The texture barrier of `Op::Barrier`: from `undefined` (any layout) into `layouts[which]`.
fn texture_barrier(texture: Texture, which: u8, discard: bool) -> TextureBarrier {
    let (layout, access, sync) = [
        (
            BarrierLayout::RenderTarget,
            BarrierAccess::RENDER_TARGET,
            BarrierSync::RENDER_TARGET,
        ),
        (
            BarrierLayout::ShaderResource,
            BarrierAccess::SHADER_RESOURCE,
            BarrierSync::PIXEL_SHADING,
        ),
        (
            BarrierLayout::UnorderedAccess,
            BarrierAccess::UNORDERED_ACCESS,
            BarrierSync::COMPUTE_SHADING,
        ),
        (
            BarrierLayout::Common,
            BarrierAccess::COPY_SOURCE,
            BarrierSync::COPY,
        ),
    ][which as usize % 4];
    TextureBarrier {
        sync_before: BarrierSync::ALL,
        sync_after: sync,
        access_before: BarrierAccess::COMMON,
        access_after: access,
        layout_before: BarrierLayout::Undefined,
        layout_after: layout,
        resource: texture.into(),
        subresources: BarrierSubresources::ALL,
        discard,
    }
}

/// Applies one call to a deferred or an immediate context (both deref to the recording API).
/// The R-FX-6 call the oracle makes that is not [`DeviceContext`]'s (a device context state
/// swap is the immediate context's alone, so no list holds one: `r_fx_6_context_state.rs`).
trait EngineFeatures: DeviceContext {
    fn kick_off_fence(&mut self);
}

impl EngineFeatures for DeferredContext {
    fn kick_off_fence(&mut self) {
        self.insert_fence_with(Engine::Graphics, FenceFlags::KickOff);
    }
}

impl EngineFeatures for ImmediateContext {
    fn kick_off_fence(&mut self) {
        self.insert_fence_with(Engine::Graphics, FenceFlags::KickOff);
    }
}

fn apply(f: &Fixture, c: &mut impl EngineFeatures, op: &Op) {
    let stages = [Stage::Vertex, Stage::Pixel];
    match *op {
        Op::InputLayout(bound) => c.set_input_layout(bound.then_some(f.layout)),
        Op::Shader(stage, bound) => {
            let shader = if stage == 0 { f.vs } else { f.ps };
            c.set_shader(stages[stage as usize], bound.then_some(shader))
        }
        Op::VertexBuffer(slot, which) => {
            let buffer = [None, Some(f.vb), Some(f.vb2)][which as usize];
            c.set_vertex_buffers(
                slot,
                &[VertexBuffer {
                    buffer,
                    stride: 16,
                    offset: 0,
                }],
            )
        }
        Op::IndexBuffer(bound, r16) => {
            let format = if r16 {
                Format::R16Uint
            } else {
                Format::R32Uint
            };
            c.set_index_buffer(bound.then_some(f.ib), format, 0)
        }
        Op::ConstantBuffer(stage, slot, which) => {
            let buffer = [None, Some(f.cb), Some(f.cb2), Some(f.cb_dyn)][which as usize];
            c.set_constant_buffers(stages[stage as usize], slot, &[buffer])
        }
        Op::ShaderResource(stage, slot, which) => {
            let view = [
                None,
                Some(f.tex_srv),
                Some(f.tex2_srv),
                Some(f.rt_srv),
                Some(f.ds_srv),
                Some(f.tex_composed_srv),
                Some(f.tex2_composed_srv),
            ];
            c.set_shader_resources(stages[stage as usize], slot, &[view[which as usize]])
        }
        Op::FastResources(stage, cb_slot, cb, srv_slot, srv) => {
            let stage = stages[stage as usize];
            let buffer = [None, Some(f.cb), Some(f.cb2)][cb as usize];
            let view = [
                None,
                Some(f.tex_srv),
                Some(f.tex2_srv),
                Some(f.rt_srv),
                Some(f.ds_srv),
                Some(f.tex_composed_srv),
                Some(f.tex2_composed_srv),
            ][srv as usize];
            c.set_fast_resources(&[
                FastResource::ConstantBuffer {
                    stage,
                    slot: cb_slot,
                    buffer,
                },
                FastResource::ShaderResource {
                    stage,
                    slot: srv_slot,
                    view,
                },
            ])
        }
        Op::PlacedConstantBuffer(stage, slot, which, address) => {
            let buffer = [f.cb, f.cb2][which as usize];
            let address = [0x1000u64, 0x2000, 0x1000_0000][address as usize];
            c.set_placement_constant_buffer(stages[stage as usize], slot, buffer, address)
        }
        Op::RenderTarget(which, depth) => {
            let target = [None, Some(f.rt_rtv), Some(f.rt_plain_rtv)][which as usize];
            c.set_render_targets(&[target], depth.then_some(f.ds_dsv))
        }
        Op::OutputUav(bound) => c.set_render_targets_and_unordered_access_views(
            &[None],
            None,
            1,
            &[bound.then_some(f.rt_uav)],
        ),
        Op::ComputeShader(bound) => c.set_shader(Stage::Compute, bound.then_some(f.cs)),
        Op::ComputeUav(bound) => {
            c.set_compute_unordered_access_views(0, &[bound.then_some(f.rt_uav)])
        }
        Op::Dispatch => c.dispatch(1, 1, 1),
        Op::Gds(kind, word) => {
            let offset = word as u32 * 4;
            match kind {
                0 => c.write_gds(offset, &[word as u32 + 1, 0x7000 + offset]),
                1 => c.read_gds(offset, 2, f.args, 8 * word as u64),
                _ => {
                    let stage = [Stage::Compute, Stage::Pixel][word as usize % 2];
                    c.set_gds_range(stage, offset, 64)
                }
            }
        }
        Op::ConstantRam(load, k) => {
            let (buffer_offset, ram_offset) = (16 * k as u64, 8 * k as u32);
            match load {
                true => c.load_constant_ram(f.args, buffer_offset, ram_offset, 16),
                false => c.store_constant_ram(f.args, buffer_offset, ram_offset, 16),
            }
        }
        Op::Query(k) => {
            let value = |yes: bool| match yes {
                true => PredicateValue::True,
                false => PredicateValue::False,
            };
            match k {
                0 => c.begin_query(f.predicate),
                1 => c.end_query(f.predicate),
                2 => c.write_query(f.predicate),
                3 => c.reset_query(f.predicate),
                4 => c.configure_query(f.predicate, QueryMode::Binary),
                5 | 6 => c.set_predication_from_query(Some(f.predicate), value(k == 5)),
                7 => c.set_predication(Some(f.predicate), value(true)),
                _ => c.set_predication_from_query(None, value(false)),
            }
        }
        Op::Clear => {
            c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
            c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0);
        }
        Op::Decompress(depth, how) => {
            let texture = if depth { f.ds } else { f.rt };
            let (kind, size) = match depth {
                true => (DecompressKinds::DEPTH, f.device.texture_info(f.ds)),
                false => (DecompressKinds::CLEAR, f.device.texture_info(f.rt)),
            };
            let (width, height) = size.map_or((1, 1), |i| (i.width, i.height));
            let region = |right, bottom| {
                Some(DecompressRegion {
                    subresource: 0,
                    rect: CopyBox {
                        left: 0,
                        top: 0,
                        right,
                        bottom,
                    },
                })
            };
            match how {
                0 => c.decompress_resource(texture, None),
                1 => c.decompress_resource_x(texture, None, kind, None),
                2 => c.decompress_resource_x(
                    texture,
                    None,
                    DecompressKinds::ALL,
                    region(width / 2, height / 2),
                ),
                _ => c.decompress_resource_x(
                    texture,
                    None,
                    DecompressKinds::ALL,
                    region(width, height),
                ),
            }
        }
        Op::MapDynamic => {
            if let Ok(data) = c
                .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)
            {
                data[0] = 1;
            }
            c.unmap(f.cb_dyn);
        }
        Op::Blend(bound) => c.set_blend_state(bound.then_some(f.blend), [1.0; 4], u32::MAX),
        Op::Viewport(n) => {
            let viewports: Vec<Viewport> = (0..n)
                .map(|i| Viewport::new(i as f32, 0.0, 64.0, 64.0))
                .collect();
            c.set_viewports(&viewports)
        }
        Op::ResetIndex(value) => c.set_primitive_reset_index(value),
        Op::Draw(n) => c.draw(n, 0),
        Op::DrawIndexed(n) => c.draw_indexed(n, 0, 0),
        Op::ClearState => c.clear_state(),
        Op::FenceKickOff => c.kick_off_fence(),
        Op::Barrier(kind, layout) => match kind {
            0 | 1 => c.barrier(&[BarrierGroup::Texture(&[texture_barrier(
                f.rt,
                layout,
                kind == 1,
            )])]),
            2 => c.barrier(&[BarrierGroup::Global(&[GlobalBarrier {
                sync_before: BarrierSync::ALL_SHADING,
                sync_after: BarrierSync::ALL_SHADING,
                access_before: BarrierAccess::UNORDERED_ACCESS,
                access_after: BarrierAccess::UNORDERED_ACCESS,
            }])]),
            3 => c.resource_barrier(&[ResourceBarrier::Uav {
                resource: Some(f.rt.into()),
            }]),
            4 => c.resource_barrier(&[ResourceBarrier::Aliasing {
                before: None,
                after: None,
            }]),
            _ => c.barrier(&[BarrierGroup::Texture(&[
                texture_barrier(f.rt, layout, false),
                texture_barrier(f.ds, layout.wrapping_add(1), false),
            ])]),
        },
        Op::CopyRegion(which) => {
            let quarter = CopyBox {
                left: 0,
                top: 0,
                right: 32,
                bottom: 32,
            };
            match which {
                0 => c.copy_buffer_region(f.args, 128, f.args, 0, 64),
                1 => c.copy_texture_region(f.tex, 0, 32, 32, f.tex, 0, quarter),
                _ => c.copy_texture_region(f.tex, 0, 0, 0, f.rt, 0, quarter),
            }
        }
        // Only `check`'s devices have a swap chain (`apply_chained`).
        Op::SwapChainTarget(_) | Op::PlaceSwapChainView(..) => {}
    }
}

/// `apply`, with the swap chain `chain` of `f`'s device for the R-EX-7 ops: a bind copies the
/// buffer its view names then, whatever the list's or the direct calls' semantics.
fn apply_chained(f: &Fixture, chain: SwapChain, c: &mut impl EngineFeatures, op: &Op) {
    let view = |k: u8| back_buffer_rtv(f, chain, k as usize);
    match *op {
        Op::SwapChainTarget(k) => c.set_render_targets(&[Some(view(k))], None),
        Op::PlaceSwapChainView(k, b) => f
            .device
            .place_swap_chain_view(view(k), b as u32)
            .expect("a view of the chain, a buffer of it"),
        _ => apply(f, c, op),
    }
}

/// Calls that leave state on the immediate context before the list runs, and mean the same
/// under either semantics: bindings of non-dynamic objects, no index buffer, no draw.
fn setup_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        any::<bool>().prop_map(Op::InputLayout),
        (0u8..2, any::<bool>()).prop_map(|(s, b)| Op::Shader(s, b)),
        (prop_oneof![Just(0u32), Just(2u32)], 0u8..3).prop_map(|(s, w)| Op::VertexBuffer(s, w)),
        (0u8..2, 0u32..2, 0u8..3).prop_map(|(st, s, w)| Op::ConstantBuffer(st, s, w)),
        (0u8..2, prop_oneof![Just(0u32), Just(2u32)], 0u8..3)
            .prop_map(|(st, s, w)| Op::ShaderResource(st, s, w)),
        any::<bool>().prop_map(Op::Blend),
        (0u8..3).prop_map(Op::Viewport),
    ]
}

/// A fast list may not bind a dynamic buffer before mapping it (R-SP-3): map it first.
fn valid_for(semantics: Semantics, mut ops: Vec<Op>) -> Vec<Op> {
    if semantics == Semantics::Fast {
        ops.insert(0, Op::MapDynamic);
    }
    ops
}

/// The records with every dynamic instance renamed to the order it first appears in.
fn normalized(records: &[DrawRecord]) -> Vec<Vec<(String, String)>> {
    let mut names: HashMap<InstanceId, u64> = HashMap::new();
    records
        .iter()
        .map(|record| {
            record
                .fields()
                .into_iter()
                .map(|(name, value)| {
                    let value = match value {
                        FieldValue::Object {
                            kind,
                            handle,
                            instance,
                        } => {
                            let next = names.len() as u64;
                            let k = if instance == InstanceId::INITIAL {
                                0
                            } else {
                                *names.entry(instance).or_insert(next + 1)
                            };
                            format!("{kind:?}{handle:?}#{k}")
                        }
                        other => format!("{other:?}"),
                    };
                    (name, value)
                })
                .collect()
        })
        .collect()
}

/// The executed side's records (X) against the direct side's (Y), instances renamed.
fn same_records(
    x: &mut ImmediateContext,
    y: &mut ImmediateContext,
    list_semantics: Semantics,
    immediate: Semantics,
) -> Result<(), TestCaseError> {
    let (expected, found) = (normalized(y.records()), normalized(x.records()));
    prop_assert_eq!(found.len(), expected.len(), "record counts");
    for (i, (found, expected)) in found.iter().zip(&expected).enumerate() {
        prop_assert_eq!(
            found,
            expected,
            "record {} differs (lists {:?} on {:?} immediate)",
            i,
            list_semantics,
            immediate
        );
    }
    Ok(())
}

/// The GPU model's memory (R-FX-4, R-FX-5: GDS, constant RAM, buffer words) and `ce_bytes` of
/// the executed side (X) and the direct side (Y); the twin devices' handles differ, so the one
/// buffer written (`args`) is named.
fn same_memory(
    (x, imm_x): (&Fixture, &mut ImmediateContext),
    (y, imm_y): (&Fixture, &mut ImmediateContext),
) -> Result<(), TestCaseError> {
    let lines = |f: &Fixture, imm: &mut ImmediateContext| {
        let args = f.args.raw();
        let lines = imm.gpu().memory().lines(|handle| match handle == args {
            true => "args".to_string(),
            false => format!("{handle:?}"),
        });
        (lines, imm.counters().ce_bytes)
    };
    let (found, expected) = (lines(x, imm_x), lines(y, imm_y));
    prop_assert_eq!(found, expected, "GPU memory and ce_bytes (R-FX-4, R-FX-5)");
    Ok(())
}

/// The barrier counters (R-BAR-2..4) of the executed side (X) and the direct side (Y).
fn same_barrier_costs(
    x: &mut ImmediateContext,
    y: &mut ImmediateContext,
) -> Result<(), TestCaseError> {
    let costs = |c: &executor::Counters| {
        (
            c.barriers,
            c.drains,
            c.stalls,
            c.cache_invalidations,
            c.metadata_inits,
        )
    };
    let (found, expected) = (costs(x.counters()), costs(y.counters()));
    prop_assert_eq!(
        found,
        expected,
        "barriers, drains, stalls, cache invalidations, metadata inits"
    );
    Ok(())
}

fn check(
    list_semantics: Semantics,
    immediate: Semantics,
    setup: &[Op],
    ops: &[Op],
) -> Result<(), TestCaseError> {
    // X: a fast list leaves state on X's immediate context (which keeps it if fast, R-ST-2);
    // then the list under test is recorded on a deferred context and executed; then a probe.
    let x = Fixture::with_immediate(immediate);
    let mut imm_x = ImmediateContext::new(&x.device).expect("immediate context");
    let chain_x = swap_chain(&x);
    let setup_list = x.fast(|c| setup.iter().for_each(|op| apply(&x, c, op)));
    imm_x
        .execute_command_list(&setup_list, RestoreState::ClearState)
        .expect("executes");
    let mut context = x.context(list_semantics);
    for op in ops {
        apply_chained(&x, chain_x, &mut context, op);
    }
    let list = match context.finish_command_list(RestoreState::ClearState) {
        Ok(list) => list,
        Err(error) => return Err(TestCaseError::reject(format!("refused: {error}"))),
    };
    imm_x
        .execute_command_list(&list, RestoreState::ClearState)
        .expect("executes");
    // The legacy hazard responses (R-ST-10), before the probes (which differ in semantics).
    let flushes_x = imm_x.counters().cache_flushes;
    let probe = x.fast(|c| c.draw(1, 0));
    imm_x
        .execute_command_list(&probe, RestoreState::ClearState)
        .expect("executes");

    // Y: the same calls directly, from the list's starting state, with the list's semantics.
    let y = Fixture::twin_of(&x, list_semantics);
    let mut imm_y = ImmediateContext::new(&y.device).expect("immediate context");
    let chain_y = swap_chain(&y);
    if immediate == Semantics::Fast {
        setup.iter().for_each(|op| apply(&y, &mut imm_y, op));
    }
    if list_semantics == Semantics::Legacy {
        imm_y.clear_state();
    }
    for op in ops {
        apply_chained(&y, chain_y, &mut imm_y, op);
    }
    // The executing context's after-rule (R-ST-2): legacy without restore clears.
    if immediate == Semantics::Legacy {
        imm_y.clear_state();
    }
    let flushes_y = imm_y.counters().cache_flushes;
    imm_y.draw(1, 0);

    same_records(&mut imm_x, &mut imm_y, list_semantics, immediate)?;
    prop_assert_eq!(
        imm_x.gpu().query_result(x.predicate.raw()),
        imm_y.gpu().query_result(y.predicate.raw()),
        "the query's result (R-FX-3)"
    );
    prop_assert_eq!(flushes_x, flushes_y, "cache flushes (R-ST-10)");
    same_barrier_costs(&mut imm_x, &mut imm_y)?;
    same_memory((&x, &mut imm_x), (&y, &mut imm_y))?;
    Ok(())
}

proptest! {
    // 96 cases in CI; `ORACLE_CASES=100000` for a long run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("ORACLE_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    #[test]
    fn r_o_1_a_list_executes_like_its_calls_issued_directly(
        list_fast in any::<bool>(),
        immediate_fast in any::<bool>(),
        setup in proptest::collection::vec(setup_op(), 0..8),
        ops in proptest::collection::vec(op(), 1..40),
    ) {
        let semantics = |fast: bool| if fast { Semantics::Fast } else { Semantics::Legacy };
        let list_semantics = semantics(list_fast);
        check(list_semantics, semantics(immediate_fast), &setup, &valid_for(list_semantics, ops))?;
    }
}

/// A step of a frame: direct calls on the immediate context, or a list executed with `restore`.
#[derive(Clone, Debug)]
enum Step {
    Direct(Vec<Op>),
    List(Vec<Op>, bool),
}

/// Whether a list of a frame may hold `op`. A fast list's map makes an instance local to the
/// list on one side and a lasting one of the immediate context on the other, which only a
/// single list keeps comparable; a legacy list's last instance becomes the immediate context's
/// (R-ST-8), as a direct map's does: legacy lists of a frame map too. A legacy list may bind
/// the dynamic buffer without mapping it (a split point reading the immediate context's
/// instance, R-SP-4); a fast one may not (R-SP-3).
fn in_frame_list(semantics: Semantics, op: &Op) -> bool {
    match op {
        Op::MapDynamic => semantics == Semantics::Legacy,
        Op::ConstantBuffer(_, _, 3) => semantics == Semantics::Legacy,
        _ => true,
    }
}

/// Several lists recorded on several threads, with direct calls between them, executed in order
/// with random restore flags, against the same calls issued directly (R-O-1, R-ST-1, R-ST-2).
fn check_frame(
    list_semantics: Semantics,
    immediate: Semantics,
    steps: &[Step],
) -> Result<(), TestCaseError> {
    let restore_allowed = immediate == Semantics::Legacy;
    // X: every list recorded on its own deferred context, on its own thread.
    let x = Fixture::with_immediate(immediate);
    let lists: Vec<Option<CommandList>> = std::thread::scope(|scope| {
        let workers: Vec<_> = steps
            .iter()
            .map(|step| {
                let x = &x;
                scope.spawn(move || match step {
                    Step::List(ops, _) => {
                        let mut context = x.context(list_semantics);
                        ops.iter()
                            .filter(|op| in_frame_list(list_semantics, op))
                            .for_each(|op| apply(x, &mut context, op));
                        context.finish_command_list(RestoreState::ClearState).ok()
                    }
                    Step::Direct(_) => None,
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("recording thread"))
            .collect()
    });
    let mut imm_x = ImmediateContext::new(&x.device).expect("immediate context");
    for (step, list) in steps.iter().zip(&lists) {
        match (step, list) {
            (Step::Direct(ops), _) => ops
                .iter()
                .filter(|op| direct_in_frame(list_semantics, immediate, op))
                .for_each(|op| apply(&x, &mut imm_x, op)),
            (Step::List(_, restore), Some(list)) => {
                imm_x
                    .execute_command_list(
                        list,
                        if *restore && restore_allowed {
                            RestoreState::Restore
                        } else {
                            RestoreState::ClearState
                        },
                    )
                    .expect("executes");
            }
            (Step::List(..), None) => return Err(TestCaseError::reject("a list was refused")),
        }
        imm_x.draw(1, 0); // a probe of the state the step left
    }

    // Y: the same calls directly, each list from its starting state, with the after-rules.
    let y = Fixture::twin_of(&x, list_semantics);
    let mut imm_y = ImmediateContext::new(&y.device).expect("immediate context");
    // What the immediate context's state is made of since it was last cleared (legacy restores
    // it by replaying: these calls mean the same under both semantics).
    let mut since_clear: Vec<Op> = Vec::new();
    for step in steps {
        match step {
            Step::Direct(ops) => {
                let ops = ops
                    .iter()
                    .filter(|op| direct_in_frame(list_semantics, immediate, op));
                ops.clone().for_each(|op| apply(&y, &mut imm_y, op));
                since_clear.extend(ops.cloned());
            }
            Step::List(ops, restore) => {
                if list_semantics == Semantics::Legacy {
                    imm_y.clear_state();
                }
                ops.iter()
                    .filter(|op| in_frame_list(list_semantics, op))
                    .for_each(|op| apply(&y, &mut imm_y, op));
                if immediate == Semantics::Legacy {
                    imm_y.clear_state();
                    if *restore {
                        // State only: a map is not state, and replaying it would rename.
                        since_clear
                            .iter()
                            .filter(|op| !matches!(op, Op::MapDynamic))
                            .for_each(|op| apply(&y, &mut imm_y, op));
                    } else {
                        since_clear.clear();
                    }
                }
            }
        }
        imm_y.draw(1, 0);
    }

    same_records(&mut imm_x, &mut imm_y, list_semantics, immediate)?;
    same_barrier_costs(&mut imm_x, &mut imm_y)?;
    same_memory((&x, &mut imm_x), (&y, &mut imm_y))?;
    if list_semantics == immediate {
        // The probes have the same semantics on both sides only then.
        let (x, y) = (
            imm_x.counters().cache_flushes,
            imm_y.counters().cache_flushes,
        );
        prop_assert_eq!(x, y, "cache flushes (R-ST-10)");
    }
    Ok(())
}

/// Whether a frame's direct calls may hold `op`. A map renames a bound buffer under legacy
/// semantics and not under fast (R-ST-8), and a list may leave the dynamic buffer bound: the
/// reference issues direct calls with the lists' semantics, so maps stay out where the
/// immediate context's differ. Direct binds of the dynamic buffer only where everything is
/// legacy: a binding that a legacy list's restore = true puts back reads the list's last
/// instance without a re-bind (R-ST-8), as the replayed bind does on the direct side.
fn direct_in_frame(lists: Semantics, immediate: Semantics, op: &Op) -> bool {
    match op {
        Op::MapDynamic => lists == immediate,
        Op::ConstantBuffer(_, _, 3) => lists == Semantics::Legacy && immediate == Semantics::Legacy,
        _ => true,
    }
}

/// Direct calls of a frame: state that means the same under either semantics, maps of the
/// dynamic buffer, whose instance later legacy lists' split points read, and binds of it.
fn direct_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => setup_op(),
        2 => Just(Op::MapDynamic),
        1 => (0u8..2, 0u32..2).prop_map(|(st, s)| Op::ConstantBuffer(st, s, 3)),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => proptest::collection::vec(direct_op(), 0..4).prop_map(Step::Direct),
        2 => (proptest::collection::vec(op(), 1..16), any::<bool>())
            .prop_map(|(ops, restore)| Step::List(ops, restore)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("ORACLE_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(128),
        ..ProptestConfig::default()
    })]

    #[test]
    fn r_o_1_lists_recorded_on_several_threads_execute_like_their_calls_in_order(
        list_fast in any::<bool>(),
        immediate_fast in any::<bool>(),
        steps in proptest::collection::vec(step(), 1..5),
    ) {
        let semantics = |fast: bool| if fast { Semantics::Fast } else { Semantics::Legacy };
        check_frame(semantics(list_fast), semantics(immediate_fast), &steps)?;
    }
}
