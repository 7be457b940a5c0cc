//! Enhanced and legacy barriers (SPEC §9): what recording and execution do with them.

mod common;

use bundles::{BundleDesc, BundleRecorder};
use common::*;
use executor::ImmediateContext;
use recorder::*;

fn to_shader_resource(texture: Texture) -> TextureBarrier {
    TextureBarrier {
        sync_before: BarrierSync::RENDER_TARGET,
        sync_after: BarrierSync::PIXEL_SHADING,
        access_before: BarrierAccess::RENDER_TARGET,
        access_after: BarrierAccess::SHADER_RESOURCE,
        layout_before: BarrierLayout::RenderTarget,
        layout_after: BarrierLayout::ShaderResource,
        resource: texture.into(),
        subresources: BarrierSubresources::ALL,
        discard: false,
    }
}

/// R-BAR-1: a barrier call is recorded into a list as one command, on either semantics, and
/// the list reads it back barrier by barrier with its group and index.
#[test]
fn r_bar_1_barriers_are_recorded_into_lists_in_groups() {
    let f = Fixture::with_immediate(Semantics::Fast);
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let global = [GlobalBarrier {
            sync_before: BarrierSync::ALL,
            sync_after: BarrierSync::ALL,
            access_before: BarrierAccess::UNORDERED_ACCESS,
            access_after: BarrierAccess::UNORDERED_ACCESS,
        }];
        let textures = [to_shader_resource(f.rt), to_shader_resource(f.rt)];
        let list = f.list(semantics, |c| {
            c.barrier(&[
                BarrierGroup::Global(&global),
                BarrierGroup::Texture(&textures),
            ]);
        });
        let barriers: Vec<BarrierRecord> = list
            .commands()
            .flat_map(|d| match d.command {
                command::Command::Barrier { barriers } => barriers.to_vec(),
                _ => Vec::new(),
            })
            .collect();
        assert_eq!(barriers.len(), 3, "{semantics:?}");
        assert_eq!(barriers[0].kind(), BarrierKind::Global);
        assert_eq!((barriers[2].group, barriers[2].index), (1, 1));
        assert_eq!(barriers[2].layout_after(), BarrierLayout::ShaderResource);
        assert_eq!(
            barriers[2].resource(),
            Some(NamedResource {
                handle: f.rt.raw(),
                kind: ObjectKind::Texture
            })
        );
    }
}

/// R-BAR-1: a bundle records no barrier (`unsupported_in_bundle`). A bundle recorder has no
/// [`BarrierCalls`] (its `barrier` does not compile: the `bundles` crate's doctests), so the
/// refusal is what an interpreter that replays calls by name gets for it.
#[test]
fn r_bar_1_a_bundle_refuses_barriers() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut bundle = BundleRecorder::new(&f.device, &BundleDesc::new("b", &[])).unwrap();
    assert_eq!(
        Capability::Barrier.bundle_refusal(),
        Some(ErrorKind::UnsupportedInBundle)
    );
    for call in ["barrier", "resource_barrier"] {
        bundle.refuse_missing_capability(call, Capability::Barrier);
        let error = bundle.finish().unwrap_err();
        assert_eq!(
            error.error.kind(),
            ErrorKind::UnsupportedInBundle,
            "{error}"
        );
        assert!(error.to_string().contains(call), "{error}");
    }
}

/// R-BAR-1, R-OBJ-4: a barrier naming a released resource is refused; a legacy list keeps the
/// resources its barriers name alive.
#[test]
fn r_bar_1_barriers_name_live_resources_and_legacy_lists_hold_them() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let texture = f
        .device
        .create_texture(&TextureDesc {
            name: "target",
            width: 4,
            height: 4,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let before = f.device.references(texture);
    let list = f.legacy(|c| c.barrier(&[BarrierGroup::Texture(&[to_shader_resource(texture)])]));
    assert_eq!(
        f.device.references(texture),
        before.map(|r| r + 1),
        "the legacy list holds it"
    );
    drop(list);
    assert_eq!(
        f.device.references(texture),
        before,
        "given back with the list"
    );
    f.device.release(texture);
    let mut context = f
        .device
        .create_deferred_context(&DeferredContextDesc::default())
        .unwrap();
    context.barrier(&[BarrierGroup::Texture(&[to_shader_resource(texture)])]);
    let error = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap_err();
    assert_eq!(error.error.kind(), ErrorKind::ReleasedObject, "{error}");
}

/// R-BAR-8: `barriers` counts every barrier executed, legacy ones too.
#[test]
fn r_bar_8_barriers_counts_every_barrier_executed() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[
            to_shader_resource(f.rt),
            to_shader_resource(f.rt),
        ])]);
        c.resource_barrier(&[ResourceBarrier::Uav { resource: None }]);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(imm.counters().barriers, 3);
}

// ----- the GPU model's response (R-BAR-2..8) ----------------------------------------------------

fn texture_barrier(
    texture: Texture,
    (sync_before, sync_after): (BarrierSync, BarrierSync),
    (access_before, access_after): (BarrierAccess, BarrierAccess),
    (layout_before, layout_after): (BarrierLayout, BarrierLayout),
) -> TextureBarrier {
    TextureBarrier {
        sync_before,
        sync_after,
        access_before,
        access_after,
        layout_before,
        layout_after,
        resource: texture.into(),
        subresources: BarrierSubresources::ALL,
        discard: false,
    }
}

fn to_render_target(texture: Texture, from: BarrierLayout) -> TextureBarrier {
    texture_barrier(
        texture,
        (BarrierSync::ALL, BarrierSync::RENDER_TARGET),
        (BarrierAccess::NO_ACCESS, BarrierAccess::RENDER_TARGET),
        (from, BarrierLayout::RenderTarget),
    )
}

fn validating(validation: Validation) -> (Fixture, ImmediateContext) {
    let f = Fixture::on(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        validation,
        ..DeviceDesc::default()
    });
    let imm = ImmediateContext::new(&f.device).unwrap();
    (f, imm)
}

fn target(f: &Fixture, name: &str, tc: bool, dcc: bool, mips: u32) -> (Texture, RenderTargetView) {
    let texture = f
        .device
        .create_texture(&TextureDesc {
            name,
            width: 16,
            height: 16,
            mip_levels: mips,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            texture_compatible: tc,
            dcc,
            ..Default::default()
        })
        .unwrap();
    let rtv = f
        .device
        .create_render_target_view(&ViewDesc::new("rtv", Resource::from(texture)))
        .unwrap();
    (texture, rtv)
}

fn one(barrier: TextureBarrier) -> [TextureBarrier; 1] {
    [barrier]
}

/// R-BAR-3: every texture starts in `common`; a transition sets the layout of the subresources
/// it names; a partial one leaves the texture mixed.
#[test]
fn r_bar_3_layouts_start_common_and_follow_transitions() {
    let (f, mut imm) = validating(Validation::On);
    let (texture, _) = target(&f, "mipped", false, false, 3);
    assert_eq!(
        imm.gpu().texture_state(texture.raw()).layout,
        Some(BarrierLayout::Common)
    );
    imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
        texture,
        BarrierLayout::Common,
    )))]);
    imm.flush().unwrap();
    assert_eq!(
        imm.gpu().texture_state(texture.raw()).layout,
        Some(BarrierLayout::RenderTarget)
    );
    let mut partial = to_shader_resource(texture);
    partial.subresources.mips = Span::new(1, 1);
    imm.barrier(&[BarrierGroup::Texture(&[partial])]);
    imm.flush().unwrap();
    assert_eq!(imm.gpu().texture_state(texture.raw()).layout, None, "mixed");
}

/// R-BAR-3 (the seed's transition): render target → shader resource decompresses a non-TC
/// texture, and leaves a TC one compressed; a TC texture still decompresses into UAV.
#[test]
fn r_bar_3_rt_to_sr_decompresses_non_tc_and_keeps_tc_compressed() {
    let (f, mut imm) = validating(Validation::Off);
    let (plain, plain_rtv) = target(&f, "plain", false, false, 1);
    let (tc, tc_rtv) = target(&f, "tc", true, false, 1);
    for texture in [plain, tc] {
        imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
            texture,
            BarrierLayout::Common,
        )))]);
    }
    imm.clear_render_target_view(plain_rtv, [0.0; 4]);
    imm.clear_render_target_view(tc_rtv, [0.0; 4]);
    imm.flush().unwrap();
    assert!(imm.gpu().texture_state(plain.raw()).compressed);
    let before = imm.counters().decompressions;
    imm.barrier(&[BarrierGroup::Texture(&[
        to_shader_resource(plain),
        to_shader_resource(tc),
    ])]);
    imm.flush().unwrap();
    assert_eq!(
        imm.counters().decompressions,
        before + 1,
        "the non-TC one only"
    );
    let gpu = imm.gpu();
    assert!(!gpu.texture_state(plain.raw()).compressed);
    assert!(
        gpu.texture_state(tc.raw()).compressed,
        "TC stays compressed"
    );
    assert_eq!(
        gpu.texture_state(tc.raw()).layout,
        Some(BarrierLayout::ShaderResource)
    );
    let to_uav = texture_barrier(
        tc,
        (BarrierSync::PIXEL_SHADING, BarrierSync::COMPUTE_SHADING),
        (
            BarrierAccess::SHADER_RESOURCE,
            BarrierAccess::UNORDERED_ACCESS,
        ),
        (
            BarrierLayout::ShaderResource,
            BarrierLayout::UnorderedAccess,
        ),
    );
    imm.barrier(&[BarrierGroup::Texture(&[to_uav])]);
    imm.flush().unwrap();
    assert_eq!(imm.counters().decompressions, before + 2);
    assert!(!imm.gpu().texture_state(tc.raw()).compressed);
}

/// R-BAR-3: DCC decompresses on a write → read transition unless the texture is also TC.
#[test]
fn r_bar_3_dcc_decompresses_on_write_to_read_unless_tc() {
    let (f, mut imm) = validating(Validation::Off);
    let (dcc, dcc_rtv) = target(&f, "dcc", true, true, 1);
    let (dcc_only, dcc_only_rtv) = target(&f, "dcc_only", false, true, 1);
    for (t, v) in [(dcc, dcc_rtv), (dcc_only, dcc_only_rtv)] {
        imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
            t,
            BarrierLayout::Common,
        )))]);
        imm.clear_render_target_view(v, [0.0; 4]);
    }
    imm.barrier(&[BarrierGroup::Texture(&[
        to_shader_resource(dcc),
        to_shader_resource(dcc_only),
    ])]);
    imm.flush().unwrap();
    assert!(imm.gpu().texture_state(dcc.raw()).compressed, "TC + DCC");
    assert!(
        !imm.gpu().texture_state(dcc_only.raw()).compressed,
        "DCC only"
    );
}

/// R-BAR-3: `discard` initialises metadata (counted, no decompression) and is refused unless
/// LayoutBefore is `undefined`; the new layout decides the compression.
#[test]
fn r_bar_3_discard_initialises_metadata() {
    let (f, mut imm) = validating(Validation::Off);
    let (texture, _) = target(&f, "aliased", false, false, 1);
    let mut discard = to_render_target(texture, BarrierLayout::Undefined);
    discard.discard = true;
    imm.barrier(&[BarrierGroup::Texture(&[discard])]);
    imm.flush().unwrap();
    let counters = *imm.counters();
    assert_eq!(counters.metadata_inits, 1);
    assert_eq!(counters.decompressions, 0);
    assert!(imm.gpu().texture_state(texture.raw()).compressed);
    let mut wrong = to_render_target(texture, BarrierLayout::RenderTarget);
    wrong.discard = true;
    imm.barrier(&[BarrierGroup::Texture(&[wrong])]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    assert_eq!(
        imm.counters().metadata_inits,
        1,
        "a refused barrier counts nothing"
    );
    assert_eq!(imm.counters().barriers, 1);
}

/// R-BAR-3, the Xbox per-resource metadata rule: a partial transition of a compressed texture to
/// an uncompressed layout decompresses all of it; a partial transition of an uncompressed one to
/// a compressed layout leaves it uncompressed.
#[test]
fn r_bar_3_partial_transitions_follow_the_per_resource_metadata_rule() {
    let (f, mut imm) = validating(Validation::Off);
    let (texture, rtv) = target(&f, "mipped", false, false, 2);
    let mut partial = to_render_target(texture, BarrierLayout::Common);
    partial.subresources.mips = Span::new(0, 0);
    imm.barrier(&[BarrierGroup::Texture(&[partial])]);
    imm.flush().unwrap();
    assert!(
        !imm.gpu().texture_state(texture.raw()).compressed,
        "stays uncompressed"
    );
    let mut rest = to_render_target(texture, BarrierLayout::Common);
    rest.subresources.mips = Span::new(1, 1);
    imm.barrier(&[BarrierGroup::Texture(&[rest])]);
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.flush().unwrap();
    assert!(imm.gpu().texture_state(texture.raw()).compressed);
    let mut partial_read = to_shader_resource(texture);
    partial_read.subresources.mips = Span::new(1, 1);
    imm.barrier(&[BarrierGroup::Texture(&[partial_read])]);
    imm.flush().unwrap();
    let state = imm.gpu().texture_state(texture.raw());
    assert!(!state.compressed, "the whole resource decompressed");
    assert_eq!(state.layout, None);
    assert_eq!(imm.counters().decompressions, 1);
}

/// R-BAR-3: depth and stencil compress independently; a barrier naming one plane of every mip
/// and slice is whole for that plane.
#[test]
fn r_bar_3_depth_and_stencil_planes_are_independent() {
    let (f, mut imm) = validating(Validation::Off);
    let ds = f
        .device
        .create_texture(&TextureDesc {
            name: "ds",
            format: Format::D24UnormS8Uint,
            width: 16,
            height: 16,
            bind: BindFlags::DEPTH_STENCIL | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let dsv = f
        .device
        .create_depth_stencil_view(&ViewDesc::new("dsv", Resource::from(ds)))
        .unwrap();
    let to_write = texture_barrier(
        ds,
        (BarrierSync::ALL, BarrierSync::DEPTH_STENCIL),
        (BarrierAccess::NO_ACCESS, BarrierAccess::DEPTH_STENCIL_WRITE),
        (BarrierLayout::Common, BarrierLayout::DepthStencilWrite),
    );
    imm.barrier(&[BarrierGroup::Texture(&[to_write])]);
    imm.clear_depth_stencil_view(dsv, ClearFlags::DEPTH_STENCIL, 1.0, 0);
    imm.flush().unwrap();
    let state = imm.gpu().texture_state(ds.raw());
    assert_eq!(
        (state.depth_compressed, state.stencil_compressed),
        (Some(true), Some(true))
    );
    let mut stencil_read = texture_barrier(
        ds,
        (BarrierSync::DEPTH_STENCIL, BarrierSync::PIXEL_SHADING),
        (
            BarrierAccess::DEPTH_STENCIL_WRITE,
            BarrierAccess::SHADER_RESOURCE,
        ),
        (
            BarrierLayout::DepthStencilWrite,
            BarrierLayout::ShaderResource,
        ),
    );
    stencil_read.subresources.planes = Span::new(1, 1);
    imm.barrier(&[BarrierGroup::Texture(&[stencil_read])]);
    imm.flush().unwrap();
    let state = imm.gpu().texture_state(ds.raw());
    assert_eq!(
        (
            state.compressed,
            state.depth_compressed,
            state.stencil_compressed
        ),
        (true, Some(true), Some(false))
    );
    assert_eq!(state.layout, None, "depth and stencil in different layouts");
}

/// R-BAR-3: global barriers change no layout.
#[test]
fn r_bar_3_global_barriers_change_no_layout() {
    let (f, mut imm) = validating(Validation::Off);
    imm.barrier(&[BarrierGroup::Global(&[GlobalBarrier {
        sync_before: BarrierSync::ALL,
        sync_after: BarrierSync::ALL,
        access_before: BarrierAccess::RENDER_TARGET,
        access_after: BarrierAccess::SHADER_RESOURCE,
    }])]);
    imm.flush().unwrap();
    assert_eq!(
        imm.gpu().texture_state(f.rt.raw()).layout,
        Some(BarrierLayout::Common)
    );
}

/// R-BAR-2 (the seed's transition): render target → shader resource drains the render-target
/// work, holds pixel shading, writes the CB cache back and invalidates the shader caches and L2;
/// a second barrier in the same group costs no second drain, stall or write-back.
#[test]
fn r_bar_2_a_group_costs_one_drain_one_stall_and_each_cache_once() {
    let (f, mut imm) = validating(Validation::Off);
    let (a, _) = target(&f, "a", false, false, 1);
    let (b, _) = target(&f, "b", false, false, 1);
    imm.barrier(&[BarrierGroup::Texture(&[
        to_render_target(a, BarrierLayout::Common),
        to_render_target(b, BarrierLayout::Common),
    ])]);
    imm.flush().unwrap();
    let start = *imm.counters();
    imm.barrier(&[BarrierGroup::Texture(&[
        to_shader_resource(a),
        to_shader_resource(b),
    ])]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!(c.barriers - start.barriers, 2);
    assert_eq!(c.drains - start.drains, 1);
    assert_eq!(c.stalls - start.stalls, 1);
    assert_eq!(c.cache_flushes - start.cache_flushes, 1, "CB");
    assert_eq!(
        c.cache_invalidations - start.cache_invalidations,
        2,
        "shader caches and L2"
    );
    // The same in two groups: twice the cost.
    let start = c;
    let (x, _) = target(&f, "x", false, false, 1);
    let (y, _) = target(&f, "y", false, false, 1);
    imm.barrier(&[
        BarrierGroup::Texture(&one(to_render_target(x, BarrierLayout::Common))),
        BarrierGroup::Texture(&one(to_render_target(y, BarrierLayout::Common))),
    ]);
    imm.barrier(&[
        BarrierGroup::Texture(&one(to_shader_resource(x))),
        BarrierGroup::Texture(&one(to_shader_resource(y))),
    ]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!(c.drains - start.drains, 4);
    assert_eq!(c.cache_flushes - start.cache_flushes, 2);
}

/// R-BAR-2 (the seed's UAV barrier): UAV writes by a clear → shader-resource reads by compute
/// write back and invalidate the shader caches and L2.
#[test]
fn r_bar_2_the_uav_barrier_writes_back_and_invalidates_shader_caches() {
    let (f, mut imm) = validating(Validation::Off);
    let to_uav = texture_barrier(
        f.rt,
        (BarrierSync::ALL, BarrierSync::CLEAR_UNORDERED_ACCESS_VIEW),
        (BarrierAccess::NO_ACCESS, BarrierAccess::UNORDERED_ACCESS),
        (BarrierLayout::Common, BarrierLayout::UnorderedAccess),
    );
    imm.barrier(&[BarrierGroup::Texture(&[to_uav])]);
    imm.flush().unwrap();
    let start = *imm.counters();
    let seed = texture_barrier(
        f.rt,
        (
            BarrierSync::CLEAR_UNORDERED_ACCESS_VIEW,
            BarrierSync::COMPUTE_SHADING,
        ),
        (
            BarrierAccess::UNORDERED_ACCESS,
            BarrierAccess::SHADER_RESOURCE,
        ),
        (
            BarrierLayout::UnorderedAccess,
            BarrierLayout::ShaderResource,
        ),
    );
    imm.barrier(&[BarrierGroup::Texture(&[seed])]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!(c.drains - start.drains, 1);
    assert_eq!(c.stalls - start.stalls, 1);
    assert_eq!(c.cache_flushes - start.cache_flushes, 2);
    assert_eq!(c.cache_invalidations - start.cache_invalidations, 2);
}

/// R-BAR-2: a barrier with nothing to do (read → read, same layout) costs nothing, but counts.
#[test]
fn r_bar_2_a_barrier_with_nothing_to_do_costs_nothing() {
    let (_f, mut imm) = validating(Validation::Off);
    let start = *imm.counters();
    imm.barrier(&[BarrierGroup::Global(&[GlobalBarrier {
        sync_before: BarrierSync::PIXEL_SHADING,
        sync_after: BarrierSync::COMPUTE_SHADING,
        access_before: BarrierAccess::SHADER_RESOURCE,
        access_after: BarrierAccess::SHADER_RESOURCE,
    }])]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!(c.barriers - start.barriers, 1);
    assert_eq!(
        (
            c.drains - start.drains,
            c.stalls - start.stalls,
            c.cache_flushes - start.cache_flushes,
            c.cache_invalidations - start.cache_invalidations
        ),
        (0, 0, 0, 0)
    );
}

fn split(mut barrier: TextureBarrier, begin: bool) -> TextureBarrier {
    if begin {
        barrier.sync_after = BarrierSync::SPLIT;
    } else {
        barrier.sync_before = BarrierSync::SPLIT;
    }
    barrier
}

/// R-BAR-4: a split barrier runs at its begin, holding the constant engine and the prefetch
/// parser; its end does nothing more and does not count; an end with no begin is refused.
#[test]
fn r_bar_4_split_barriers_run_at_the_begin() {
    let (f, mut imm) = validating(Validation::Off);
    let (texture, _) = target(&f, "split", false, false, 1);
    imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
        texture,
        BarrierLayout::Common,
    )))]);
    imm.flush().unwrap();
    let start = *imm.counters();
    imm.barrier(&[BarrierGroup::Texture(&[split(
        to_shader_resource(texture),
        true,
    )])]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!(c.barriers - start.barriers, 1);
    assert_eq!(c.stalls - start.stalls, 2, "CE and PFP");
    assert_eq!(
        imm.gpu().texture_state(texture.raw()).layout,
        Some(BarrierLayout::ShaderResource),
        "done at the begin"
    );
    imm.barrier(&[BarrierGroup::Texture(&[split(
        to_shader_resource(texture),
        false,
    )])]);
    imm.flush().unwrap();
    assert_eq!(imm.counters(), &c, "the end does nothing more");
    imm.barrier(&[BarrierGroup::Texture(&[split(
        to_shader_resource(texture),
        false,
    )])]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    assert!(error.to_string().contains("matches no begin"), "{error}");
}

/// R-BAR-6: a legacy transition is the enhanced barrier its states stand for: render target →
/// pixel shader resource changes the layout and decompresses like the enhanced one.
#[test]
fn r_bar_6_legacy_transitions_translate_to_enhanced_barriers() {
    let (f, mut imm) = validating(Validation::On);
    let (texture, rtv) = target(&f, "legacy", false, false, 1);
    let transition = |before, after| ResourceBarrier::Transition {
        resource: texture.into(),
        before,
        after,
        subresource: None,
        split: SplitHalf::None,
    };
    imm.resource_barrier(&[transition(
        ResourceStates::COMMON,
        ResourceStates::RENDER_TARGET,
    )]);
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.flush().unwrap();
    assert_eq!(
        imm.gpu().texture_state(texture.raw()).layout,
        Some(BarrierLayout::RenderTarget)
    );
    imm.resource_barrier(&[transition(
        ResourceStates::RENDER_TARGET,
        ResourceStates::PIXEL_SHADER_RESOURCE,
    )]);
    imm.flush().unwrap();
    let state = imm.gpu().texture_state(texture.raw());
    assert_eq!(state.layout, Some(BarrierLayout::ShaderResource));
    assert!(!state.compressed);
    assert_eq!(imm.counters().decompressions, 1);
    assert_eq!(imm.counters().barriers, 2);
    // StateBefore is checked against the known state.
    imm.resource_barrier(&[transition(
        ResourceStates::RENDER_TARGET,
        ResourceStates::COMMON,
    )]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
}

/// R-BAR-6 (the seed's 0xA7900038): an enhanced barrier of a resource whose legacy state is not
/// `common` is refused, with the group and barrier index and every field.
#[test]
fn r_bar_6_an_enhanced_barrier_needs_the_legacy_state_common() {
    let (f, mut imm) = validating(Validation::Off);
    let (texture, _) = target(&f, "legacy", false, false, 1);
    imm.resource_barrier(&[ResourceBarrier::Transition {
        resource: texture.into(),
        before: ResourceStates::COMMON,
        after: ResourceStates::RENDER_TARGET,
        subresource: None,
        split: SplitHalf::None,
    }]);
    imm.flush().unwrap();
    let seed = texture_barrier(
        texture,
        (BarrierSync::RENDER_TARGET, BarrierSync::COMPUTE_SHADING),
        (
            BarrierAccess::RENDER_TARGET,
            BarrierAccess::UNORDERED_ACCESS,
        ),
        (BarrierLayout::RenderTarget, BarrierLayout::UnorderedAccess),
    );
    let list = f.fast(|c| c.barrier(&[BarrierGroup::Texture(&[seed])]));
    let before = *imm.counters();
    let error = imm
        .execute_command_list(&list, RestoreState::ClearState)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::LegacyStateNotCommon, "{error}");
    let message = error.to_string();
    for expected in [
        "execute_command_list: Resource is being transitioned",
        "Resource is being transitioned from legacy to enhanced barriers but is not in the state COMMON as is required.",
        "Current State is: render_target",
        "-Group Index:   0",
        "-Barrier Index: 0",
        "-SyncBefore:   render_target",
        "-SyncAfter:    compute_shading",
        "-AccessBefore: render_target",
        "-AccessAfter:  unordered_access",
        "-LayoutBefore: render_target",
        "-LayoutAfter:  unordered_access",
        "-pResource:    texture 'legacy'",
        "-Mips:   all",
        "-Flags: none",
        "(R-BAR-6",
    ] {
        assert!(message.contains(expected), "{expected:?} in\n{message}");
    }
    assert_eq!(
        imm.counters().barriers,
        before.barriers,
        "refused: no effect"
    );
    assert_eq!(
        imm.gpu().texture_state(texture.raw()).layout,
        Some(BarrierLayout::RenderTarget)
    );
}

/// R-BAR-6: legacy UAV and aliasing barriers translate to barriers that synchronise and flush.
#[test]
fn r_bar_6_uav_and_aliasing_barriers_translate() {
    let (f, mut imm) = validating(Validation::Off);
    imm.resource_barrier(&[ResourceBarrier::Uav {
        resource: Some(f.sb.into()),
    }]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!((c.barriers, c.drains, c.stalls), (1, 1, 1));
    assert_eq!(c.cache_flushes, 2, "shader caches and L2");
    imm.resource_barrier(&[ResourceBarrier::Aliasing {
        before: None,
        after: None,
    }]);
    imm.flush().unwrap();
    let d = *imm.counters();
    assert_eq!(d.barriers, 2);
    assert_eq!(d.cache_flushes - c.cache_flushes, 4, "every cache");
}

/// R-BAR-6: with `legacy_barriers=off`, once one kind was used the other is refused.
#[test]
fn r_bar_6_legacy_barriers_off_refuses_mixing() {
    let f = Fixture::on(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        legacy_barriers: false,
        ..DeviceDesc::default()
    });
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.resource_barrier(&[ResourceBarrier::Uav { resource: None }]);
    imm.flush().unwrap();
    imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
        f.rt,
        BarrierLayout::Common,
    )))]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    assert_eq!(imm.counters().barriers, 1);
    // On by default: mixing is fine.
    let g = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&g.device).unwrap();
    imm.resource_barrier(&[ResourceBarrier::Uav { resource: None }]);
    imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
        g.rt,
        BarrierLayout::Common,
    )))]);
    imm.flush().unwrap();
    assert_eq!(imm.counters().barriers, 2);
}

/// R-BAR-8: under validation, LayoutBefore must be the known layout (`undefined` matches any);
/// the message names the group and barrier index.
#[test]
fn r_bar_8_layout_before_must_match_the_known_layout() {
    let (f, mut imm) = validating(Validation::On);
    imm.barrier(&[
        BarrierGroup::Global(&[]),
        BarrierGroup::Texture(&[
            to_render_target(f.rt_plain, BarrierLayout::Common),
            to_shader_resource(f.rt),
        ]),
    ]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    let message = error.to_string();
    assert!(message.contains("known layout common"), "{message}");
    assert!(message.contains("-Group Index:   1"), "{message}");
    assert!(message.contains("-Barrier Index: 1"), "{message}");
    assert_eq!(imm.counters().barriers, 1, "the first ran");
    imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
        f.rt,
        BarrierLayout::Undefined,
    )))]);
    imm.flush().unwrap();
}

/// R-BAR-8: a texture range outside the texture, a texture barrier naming a buffer and
/// incompatible sync / access / layout are refused.
#[test]
fn r_bar_8_ranges_types_and_compatibility_are_checked() {
    let (f, mut imm) = validating(Validation::On);
    let mut outside = to_render_target(f.rt, BarrierLayout::Common);
    outside.subresources.mips = Span::new(0, 3);
    let mut buffer = to_render_target(f.rt, BarrierLayout::Common);
    buffer.resource = f.sb.into();
    let incompatible = texture_barrier(
        f.rt,
        (BarrierSync::ALL, BarrierSync::COPY),
        (BarrierAccess::NO_ACCESS, BarrierAccess::RENDER_TARGET),
        (BarrierLayout::Common, BarrierLayout::RenderTarget),
    );
    let wrong_layout = texture_barrier(
        f.rt,
        (BarrierSync::ALL, BarrierSync::PIXEL_SHADING),
        (BarrierAccess::NO_ACCESS, BarrierAccess::SHADER_RESOURCE),
        (BarrierLayout::Common, BarrierLayout::RenderTarget),
    );
    for (barrier, words) in [
        (outside, "outside the texture"),
        (buffer, "names a buffer"),
        (incompatible, "not compatible with SyncAfter"),
        (wrong_layout, "not compatible with LayoutAfter"),
    ] {
        imm.barrier(&[BarrierGroup::Texture(&[barrier])]);
        let error = imm.flush().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
        assert!(error.to_string().contains(words), "{words:?}: {error}");
    }
    assert_eq!(imm.counters().barriers, 0);
    assert_eq!(
        imm.gpu().texture_state(f.rt.raw()).layout,
        Some(BarrierLayout::Common)
    );
}

/// R-BAR-4: a split end that names other layouts or accesses than its begin matches no begin;
/// legacy split transitions (begin only / end only) run at the begin too.
#[test]
fn r_bar_4_a_split_end_must_match_its_begin_and_legacy_splits_run_at_the_begin() {
    let (f, mut imm) = validating(Validation::Off);
    let (texture, _) = target(&f, "split", false, false, 1);
    imm.barrier(&[BarrierGroup::Texture(&[split(
        to_render_target(texture, BarrierLayout::Common),
        true,
    )])]);
    imm.flush().unwrap();
    let mut other = split(to_render_target(texture, BarrierLayout::Common), false);
    other.access_after = BarrierAccess::SHADER_RESOURCE;
    imm.barrier(&[BarrierGroup::Texture(&[other])]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    imm.barrier(&[BarrierGroup::Texture(&[split(
        to_render_target(texture, BarrierLayout::Common),
        false,
    )])]);
    imm.flush().unwrap();

    let (legacy, _) = target(&f, "legacy_split", false, false, 1);
    let half = |split| ResourceBarrier::Transition {
        resource: legacy.into(),
        before: ResourceStates::COMMON,
        after: ResourceStates::RENDER_TARGET,
        subresource: None,
        split,
    };
    let start = *imm.counters();
    imm.resource_barrier(&[half(SplitHalf::Begin)]);
    imm.flush().unwrap();
    assert_eq!(
        imm.gpu().texture_state(legacy.raw()).layout,
        Some(BarrierLayout::RenderTarget)
    );
    let after_begin = *imm.counters();
    assert_eq!(after_begin.barriers - start.barriers, 1);
    assert_eq!(after_begin.stalls - start.stalls, 2, "CE and PFP");
    imm.resource_barrier(&[half(SplitHalf::End)]);
    imm.flush().unwrap();
    assert_eq!(*imm.counters(), after_begin);
}

/// R-BAR-5: no flush at an `execute_command_list` boundary: executing a list costs no drain,
/// write-back or invalidation of its own.
#[test]
fn r_bar_5_no_flush_at_an_execute_boundary() {
    let (f, mut imm) = validating(Validation::Off);
    let writes = f.fast(|c| {
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.draw(3, 0);
    });
    let reads = f.fast(|c| {
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
        c.draw(3, 0);
    });
    imm.execute_command_list(&writes, RestoreState::ClearState)
        .unwrap();
    imm.execute_command_list(&reads, RestoreState::ClearState)
        .unwrap();
    let c = *imm.counters();
    assert_eq!(
        (c.drains, c.cache_flushes, c.cache_invalidations),
        (0, 0, 0)
    );
}

/// R-BAR-6: a legacy transition of one subresource (`D3D12CalcSubresource` order) changes that
/// subresource only.
#[test]
fn r_bar_6_a_legacy_transition_of_one_subresource() {
    let (f, mut imm) = validating(Validation::On);
    let (texture, _) = target(&f, "mipped", false, false, 2);
    imm.resource_barrier(&[ResourceBarrier::Transition {
        resource: texture.into(),
        before: ResourceStates::COMMON,
        after: ResourceStates::COPY_DEST,
        subresource: Some(1),
        split: SplitHalf::None,
    }]);
    imm.flush().unwrap();
    assert_eq!(imm.gpu().texture_state(texture.raw()).layout, None);
    let mut mip1 = texture_barrier(
        texture,
        (BarrierSync::COPY, BarrierSync::PIXEL_SHADING),
        (BarrierAccess::COPY_DEST, BarrierAccess::SHADER_RESOURCE),
        (BarrierLayout::CopyDest, BarrierLayout::ShaderResource),
    );
    mip1.subresources.mips = Span::new(1, 1);
    // The legacy state is copy_dest: enhanced barriers wait for a transition back to common.
    imm.barrier(&[BarrierGroup::Texture(&[mip1])]);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::LegacyStateNotCommon, "{error}");
    assert!(
        error.to_string().contains("Current State is: copy_dest"),
        "{error}"
    );
    assert!(
        error.to_string().starts_with("barrier: "),
        "a direct call: {error}"
    );
}

/// R-BAR-8: without validation the layouts before are not checked (the barrier runs as given).
#[test]
fn r_bar_8_layout_checks_are_validation_only() {
    let (f, mut imm) = validating(Validation::Off);
    imm.barrier(&[BarrierGroup::Texture(&[to_shader_resource(f.rt)])]);
    imm.flush().unwrap();
    assert_eq!(imm.counters().barriers, 1);
    assert_eq!(
        imm.gpu().texture_state(f.rt.raw()).layout,
        Some(BarrierLayout::ShaderResource)
    );
}

std::thread_local! {
    /// The WARN messages collected on this thread, while [`warnings_of`] runs.
    static COLLECTED: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

/// Collects the messages of WARN events on the thread that runs [`warnings_of`]. Installed once
/// as the global default: a scoped default (`with_default`) races with the other tests' threads
/// over tracing's global cache of each callsite's interest, and a warning could be lost.
struct Warnings;

impl tracing::Subscriber for Warnings {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        *metadata.level() == tracing::Level::WARN
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        struct Message<'a>(&'a mut String);
        impl tracing::field::Visit for Message<'_> {
            fn record_debug(&mut self, _: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                self.0.push_str(&format!("{value:?}"));
            }
        }
        let mut text = String::new();
        event.record(&mut Message(&mut text));
        COLLECTED.with(|collected| {
            if let Some(all) = collected.borrow_mut().as_mut() {
                all.push(text);
            }
        });
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

fn warnings_of(run: impl FnOnce()) -> Vec<String> {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        // Nothing else in this test binary sets a global default.
        let _ = tracing::subscriber::set_global_default(Warnings);
    });
    COLLECTED.with(|collected| *collected.borrow_mut() = Some(Vec::new()));
    run();
    COLLECTED.with(|collected| collected.borrow_mut().take().unwrap_or_default())
}

/// R-BAR-8: under validation, a split begin unmatched at the end of its list, a texture left in
/// the `common` layout by a list, and an empty barrier call are warnings; the work still runs.
#[test]
fn r_bar_8_list_boundaries_and_empty_calls_warn() {
    let (f, mut imm) = validating(Validation::On);
    let (texture, _) = target(&f, "split", false, false, 1);
    let (common, _) = target(&f, "common", false, false, 1);
    let to_common = texture_barrier(
        common,
        (BarrierSync::ALL, BarrierSync::COPY),
        (BarrierAccess::NO_ACCESS, BarrierAccess::COPY_SOURCE),
        (BarrierLayout::Undefined, BarrierLayout::Common),
    );
    let list = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[
            split(to_render_target(texture, BarrierLayout::Common), true),
            to_common,
        ])]);
        c.barrier(&[]);
        c.barrier(&[
            BarrierGroup::Texture(&[]),
            BarrierGroup::Global(&[GlobalBarrier {
                sync_before: BarrierSync::ALL,
                sync_after: BarrierSync::ALL,
                access_before: BarrierAccess::UNORDERED_ACCESS,
                access_after: BarrierAccess::UNORDERED_ACCESS,
            }]),
        ]);
    });
    let warnings = warnings_of(|| {
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
    });
    let has = |words: &str| warnings.iter().any(|w| w.contains(words));
    assert!(has("unmatched at the end of its list"), "{warnings:?}");
    assert!(has("common layout crosses"), "{warnings:?}");
    assert!(has("a call with no barrier"), "{warnings:?}");
    assert!(
        has("an empty barrier group before this one"),
        "{warnings:?}"
    );
    assert_eq!(imm.counters().barriers, 3);
}

/// The seed's transition example (compute shader resource → render target), under validation:
/// accepted; a read before needs the wait but no cache work.
#[test]
fn r_bar_2_the_seeds_transition_to_render_target_waits_without_cache_work() {
    let (f, mut imm) = validating(Validation::On);
    let (texture, _) = target(&f, "renderTarget", false, false, 1);
    let to_sr = texture_barrier(
        texture,
        (BarrierSync::ALL, BarrierSync::COMPUTE_SHADING),
        (BarrierAccess::NO_ACCESS, BarrierAccess::SHADER_RESOURCE),
        (BarrierLayout::Common, BarrierLayout::ShaderResource),
    );
    imm.barrier(&[BarrierGroup::Texture(&[to_sr])]);
    imm.flush().unwrap();
    let start = *imm.counters();
    let seed = texture_barrier(
        texture,
        (BarrierSync::COMPUTE_SHADING, BarrierSync::RENDER_TARGET),
        (BarrierAccess::SHADER_RESOURCE, BarrierAccess::RENDER_TARGET),
        (BarrierLayout::ShaderResource, BarrierLayout::RenderTarget),
    );
    imm.barrier(&[BarrierGroup::Texture(&[seed])]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!(
        (
            c.drains - start.drains,
            c.stalls - start.stalls,
            c.cache_flushes - start.cache_flushes,
            c.cache_invalidations - start.cache_invalidations
        ),
        (1, 1, 0, 0)
    );
    assert_eq!(
        imm.gpu().texture_state(texture.raw()).layout,
        Some(BarrierLayout::RenderTarget)
    );
}

/// The seed's aliasing example (pTex0 render target → copy source, pTex1 activated from
/// `undefined` / `no_access` into copy source) as one group, under validation: one drain, one
/// stall, the CB write-back and the L2 invalidation.
#[test]
fn r_bar_2_the_seeds_aliasing_pair_costs_one_event() {
    let (f, mut imm) = validating(Validation::On);
    let (tex0, _) = target(&f, "pTex0", false, false, 1);
    let (tex1, _) = target(&f, "pTex1", false, false, 1);
    imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
        tex0,
        BarrierLayout::Common,
    )))]);
    imm.flush().unwrap();
    let start = *imm.counters();
    let mut tex0_barrier = texture_barrier(
        tex0,
        (BarrierSync::RENDER_TARGET, BarrierSync::COPY),
        (BarrierAccess::RENDER_TARGET, BarrierAccess::COPY_SOURCE),
        (
            BarrierLayout::RenderTarget,
            BarrierLayout::DirectQueueCopySource,
        ),
    );
    let mut tex1_barrier = texture_barrier(
        tex1,
        (BarrierSync::RENDER_TARGET, BarrierSync::COPY),
        (BarrierAccess::NO_ACCESS, BarrierAccess::COPY_SOURCE),
        (BarrierLayout::Undefined, BarrierLayout::CopySource),
    );
    let first = BarrierSubresources {
        mips: Span::new(0, 0),
        array: Span::new(0, 0),
        planes: Span::ALL,
    };
    tex0_barrier.subresources = first;
    tex1_barrier.subresources = first;
    imm.barrier(&[BarrierGroup::Texture(&[tex0_barrier, tex1_barrier])]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!(c.barriers - start.barriers, 2);
    assert_eq!(
        (
            c.drains - start.drains,
            c.stalls - start.stalls,
            c.cache_flushes - start.cache_flushes,
            c.cache_invalidations - start.cache_invalidations
        ),
        (1, 1, 1, 1)
    );
}

/// R-BAR-8, R-BAR-1: a buffer barrier names a buffer, at offset 0, with a size inside it (or
/// the whole buffer); under validation anything else is refused.
#[test]
fn r_bar_8_buffer_barriers_name_a_buffer_from_offset_0() {
    let (f, mut imm) = validating(Validation::On);
    let uav = |resource: Resource, offset, size| BufferBarrier {
        sync_before: BarrierSync::COMPUTE_SHADING,
        sync_after: BarrierSync::COMPUTE_SHADING,
        access_before: BarrierAccess::UNORDERED_ACCESS,
        access_after: BarrierAccess::UNORDERED_ACCESS,
        resource,
        offset,
        size,
    };
    for (barrier, words) in [
        (
            uav(f.sb.into(), 4, BufferBarrier::WHOLE),
            "Offset must be 0",
        ),
        (uav(f.sb.into(), 0, 1024), "past the buffer's 256 bytes"),
        (uav(f.rt.into(), 0, BufferBarrier::WHOLE), "names a texture"),
    ] {
        imm.barrier(&[BarrierGroup::Buffer(&[barrier])]);
        let error = imm.flush().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
        assert!(error.to_string().contains(words), "{words:?}: {error}");
        assert!(error.to_string().contains("-Offset:"), "{error}");
    }
    assert_eq!(imm.counters().barriers, 0);
    imm.barrier(&[BarrierGroup::Buffer(&[
        uav(f.sb.into(), 0, 256),
        uav(f.sb.into(), 0, BufferBarrier::WHOLE),
    ])]);
    imm.flush().unwrap();
    let c = *imm.counters();
    assert_eq!(
        (c.barriers, c.drains, c.stalls, c.cache_flushes),
        (2, 1, 1, 2)
    );
}

/// R-BAR-6: a texture that enhanced barriers moved (legacy state still `common`) takes a legacy
/// transition from the state its layout stands for.
#[test]
fn r_bar_6_a_legacy_state_before_may_be_the_layout_enhanced_barriers_set() {
    let (f, mut imm) = validating(Validation::On);
    let (texture, _) = target(&f, "mixed", false, false, 1);
    imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
        texture,
        BarrierLayout::Common,
    )))]);
    imm.resource_barrier(&[ResourceBarrier::Transition {
        resource: texture.into(),
        before: ResourceStates::RENDER_TARGET,
        after: ResourceStates::COMMON,
        subresource: None,
        split: SplitHalf::None,
    }]);
    imm.flush().unwrap();
    assert_eq!(
        imm.gpu().texture_state(texture.raw()).layout,
        Some(BarrierLayout::Common)
    );
    assert_eq!(imm.counters().barriers, 2);
}

/// The layouts of the property test below, each with an access and a sync it is compatible
/// with (D3D12's tables).
const LAYOUTS: [(BarrierLayout, BarrierAccess, BarrierSync); 6] = [
    (
        BarrierLayout::Common,
        BarrierAccess::COPY_SOURCE,
        BarrierSync::COPY,
    ),
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
        BarrierLayout::CopyDest,
        BarrierAccess::COPY_DEST,
        BarrierSync::COPY,
    ),
    (
        BarrierLayout::GenericRead,
        BarrierAccess::SHADER_RESOURCE,
        BarrierSync::ALL_SHADING,
    ),
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 64,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// R-BAR-3, R-BAR-8: random valid transitions (whole or one mip, LayoutBefore the known
    /// layout, compatible sync and access) are all accepted under validation, and the model's
    /// layouts are the ones a per-subresource reference expects; each barrier counts once.
    #[test]
    fn r_bar_8_valid_transition_sequences_are_accepted_and_tracked(
        steps in proptest::collection::vec((0usize..6, 0u16..3), 1..24),
    ) {
        let (f, mut imm) = validating(Validation::On);
        let (texture, _) = target(&f, "mipped", false, false, 2);
        let mut expected = [BarrierLayout::Common; 2];
        let mut before = (BarrierAccess::NO_ACCESS, BarrierSync::NONE);
        for (i, (layout, mips)) in steps.iter().enumerate() {
            let (layout_after, access_after, sync_after) = LAYOUTS[*layout];
            // 0: mip 0, 1: mip 1, 2: both.
            let range = match mips {
                0 => Span::new(0, 0),
                1 => Span::new(1, 1),
                _ => Span::ALL,
            };
            let named: Vec<usize> = match mips {
                0 => vec![0],
                1 => vec![1],
                _ => vec![0, 1],
            };
            let known = expected[named[0]];
            let (layout_before, (access_before, sync_before)) =
                if named.iter().all(|m| expected[*m] == known) {
                    let (_, a, s) = LAYOUTS
                        .iter()
                        .copied()
                        .find(|(l, _, _)| *l == known)
                        .unwrap_or(LAYOUTS[0]);
                    (known, if i == 0 { before } else { (a, s) })
                } else {
                    (BarrierLayout::Undefined, (BarrierAccess::NO_ACCESS, BarrierSync::ALL))
                };
            let mut barrier = texture_barrier(
                texture,
                (sync_before, sync_after),
                (access_before, access_after),
                (layout_before, layout_after),
            );
            barrier.subresources.mips = range;
            imm.barrier(&[BarrierGroup::Texture(&[barrier])]);
            let result = imm.flush();
            proptest::prop_assert!(result.is_ok(), "step {}: {:?}", i, result);
            for m in named {
                expected[m] = layout_after;
            }
            before = (access_after, sync_after);
        }
        let state = imm.gpu().texture_state(texture.raw());
        let all_same = expected[0] == expected[1];
        proptest::prop_assert_eq!(state.layout, all_same.then_some(expected[0]));
        proptest::prop_assert_eq!(imm.counters().barriers, steps.len() as u64);
    }
}

/// R-BAR-4, R-BAR-8: without validation, a direct barrier the GPU model refuses (here a split
/// end with no begin) is reported by its own call: the barrier ends the batch (the draw before it
/// is submitted with it, a draw alone stays batched), and its refusal is the next `flush`'s, not
/// charged to the `execute_command_list` in between.
#[test]
fn r_bar_8_a_direct_refusal_is_reported_by_its_call_without_validation() {
    let (f, mut imm) = validating(Validation::Off);
    let (texture, _) = target(&f, "lone_end", false, false, 1);
    let list = f.fast(|c| c.draw(3, 0));
    imm.draw(3, 0);
    let records = |imm: &ImmediateContext| imm.gpu_now().map(|gpu| gpu.records().len());
    assert_eq!(records(&imm), Some(0), "a draw stays in the batch");
    imm.barrier(&[BarrierGroup::Texture(&[split(
        to_render_target(texture, BarrierLayout::Common),
        false,
    )])]);
    assert_eq!(records(&imm), Some(1), "the barrier submitted the batch");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("the direct barrier's refusal is not the execution's");
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    assert!(error.to_string().starts_with("barrier:"), "{error}");
    imm.flush().expect("reported once");
    assert_eq!(imm.counters().barriers, 0, "refused: no effect");
    assert_eq!(records(&imm), Some(2));
}

/// R-BAR-6: without validation, an enhanced barrier of a texture a legacy transition left in
/// `render_target` is `legacy_state_not_common` at its call on the immediate context (the next
/// `flush`), naming `barrier`; the execution after it is accepted.
#[test]
fn r_bar_6_a_direct_legacy_state_not_common_is_reported_by_its_call() {
    let (f, mut imm) = validating(Validation::Off);
    let (texture, _) = target(&f, "legacy", false, false, 1);
    let list = f.fast(|c| c.draw(3, 0));
    imm.resource_barrier(&[ResourceBarrier::Transition {
        resource: texture.into(),
        before: ResourceStates::COMMON,
        after: ResourceStates::RENDER_TARGET,
        subresource: None,
        split: SplitHalf::None,
    }]);
    imm.flush().unwrap();
    imm.barrier(&[BarrierGroup::Texture(&[to_shader_resource(texture)])]);
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("the direct barrier's refusal is not the execution's");
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::LegacyStateNotCommon, "{error}");
    assert!(
        error
            .to_string()
            .starts_with("barrier: Resource is being transitioned"),
        "{error}"
    );
    assert_eq!(imm.counters().barriers, 1, "the legacy transition only");
    assert_eq!(
        imm.gpu().texture_state(texture.raw()).layout,
        Some(BarrierLayout::RenderTarget)
    );
}

/// R-BAR-6, R-BAR-8: with `legacy_barriers=off`, a direct legacy barrier after an enhanced one
/// is `invalid_barrier` at its call (`resource_barrier`), and a barrier the recorder refuses
/// (a released resource) submits nothing: its refusal is the next flush's, as any direct call's.
#[test]
fn r_bar_8_a_direct_resource_barrier_refused_by_the_model_or_the_recorder() {
    let f = Fixture::on(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        legacy_barriers: false,
        ..DeviceDesc::default()
    });
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.fast(|c| c.draw(3, 0));
    imm.barrier(&[BarrierGroup::Texture(&one(to_render_target(
        f.rt,
        BarrierLayout::Common,
    )))]);
    imm.flush().unwrap();
    imm.resource_barrier(&[ResourceBarrier::Uav { resource: None }]);
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("the direct barrier's refusal is not the execution's");
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    assert!(
        error.to_string().starts_with("resource_barrier:"),
        "{error}"
    );
    assert_eq!(imm.counters().barriers, 1);

    let (released, _) = target(&f, "released", false, false, 1);
    f.device.release(released);
    imm.draw(3, 0);
    let records = imm.gpu_now().map(|gpu| gpu.records().len());
    imm.resource_barrier(&[ResourceBarrier::Transition {
        resource: released.into(),
        before: ResourceStates::COMMON,
        after: ResourceStates::RENDER_TARGET,
        subresource: None,
        split: SplitHalf::None,
    }]);
    let refusal = imm.last_refusal().expect("refused by the recorder");
    assert_eq!(refusal.kind(), ErrorKind::ReleasedObject, "{refusal}");
    assert_eq!(
        imm.gpu_now().map(|gpu| gpu.records().len()),
        records,
        "nothing submitted"
    );
    let flushed = imm.flush().map_err(|error| error.kind());
    assert_eq!(
        flushed,
        Err(ErrorKind::ReleasedObject),
        "the next flush reports it"
    );
}
