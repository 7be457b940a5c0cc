//! Deterministic hazard detection (R-V-2) under `validation=hazards`: a write and a later access
//! through another path without a covering barrier is `hazard`, naming both calls.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

/// The fixture on a device validating hazards, its immediate context of `semantics`.
fn hazards(semantics: Semantics) -> (Fixture, ImmediateContext) {
    let f = Fixture::on(DeviceDesc {
        immediate_semantics: semantics,
        validation: Validation::Hazards,
        ..DeviceDesc::default()
    });
    let imm = ImmediateContext::new(&f.device).unwrap();
    (f, imm)
}

/// Draws into `rtv` with the fixture's pixel shader (it reads SRV slots 0 and 2).
fn draw_into(f: &Fixture, c: &mut impl DeviceContext, rtv: RenderTargetView) {
    c.set_render_targets(&[Some(rtv)], None);
    c.set_shader(Stage::Pixel, Some(f.ps));
    c.draw(3, 0);
}

/// Unbinds the targets and draws reading `srv` at slot 0.
fn draw_reading(f: &Fixture, c: &mut impl DeviceContext, srv: ShaderResourceView) {
    c.set_render_targets(&[], None);
    c.set_shader(Stage::Pixel, Some(f.ps));
    c.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    c.draw(3, 0);
}

/// Render target → shader resource, as R-BAR-2 writes it.
fn rt_to_srv(texture: Texture) -> TextureBarrier {
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

/// A global barrier covering every write.
fn full_barrier(c: &mut DeferredContext) {
    c.barrier(&[BarrierGroup::Global(&[GlobalBarrier {
        sync_before: BarrierSync::ALL,
        sync_after: BarrierSync::ALL,
        access_before: BarrierAccess::COMMON,
        access_after: BarrierAccess::COMMON,
    }])]);
}

/// Undefined → render target, waiting for nothing (the contents are discarded): valid whatever
/// layout the texture is in (R-BAR-8).
fn to_rt(texture: Texture) -> TextureBarrier {
    TextureBarrier {
        sync_before: BarrierSync::NONE,
        sync_after: BarrierSync::RENDER_TARGET,
        access_before: BarrierAccess::NO_ACCESS,
        access_after: BarrierAccess::RENDER_TARGET,
        layout_before: BarrierLayout::Undefined,
        layout_after: BarrierLayout::RenderTarget,
        resource: texture.into(),
        subresources: BarrierSubresources::ALL,
        discard: false,
    }
}

/// A legacy transition of all of `texture`.
fn legacy(
    texture: Texture,
    split: SplitHalf,
    before: ResourceStates,
    after: ResourceStates,
) -> ResourceBarrier {
    ResourceBarrier::Transition {
        resource: texture.into(),
        before,
        after,
        subresource: None,
        split,
    }
}

fn uav_barrier() -> GlobalBarrier {
    GlobalBarrier {
        sync_before: BarrierSync::COMPUTE_SHADING,
        sync_after: BarrierSync::COMPUTE_SHADING,
        access_before: BarrierAccess::UNORDERED_ACCESS,
        access_after: BarrierAccess::UNORDERED_ACCESS,
    }
}

/// The index of the `n`-th command of `list` (0-based) matching `is`.
fn command_index(
    list: &CommandList,
    n: usize,
    is: impl Fn(&command::Command<'_>) -> bool,
) -> usize {
    list.commands()
        .enumerate()
        .filter(|(_, d)| is(&d.command))
        .map(|(i, _)| i)
        .nth(n)
        .expect("the command is in the list")
}

fn is_draw(c: &command::Command<'_>) -> bool {
    matches!(c, command::Command::Draw(_))
}

fn is_dispatch(c: &command::Command<'_>) -> bool {
    matches!(c, command::Command::Dispatch(_))
}

/// The hazard `result` reports, or a panic saying what came instead.
fn hazard(result: Result<(), Error>) -> (String, String, ObjectName, String) {
    match result {
        Err(error @ Error::Hazard { .. }) => {
            let message = error.to_string();
            let Error::Hazard {
                first_call,
                second_call,
                object,
            } = error
            else {
                unreachable!()
            };
            (first_call, second_call, object, message)
        }
        other => panic!("expected a hazard, got {other:?}"),
    }
}

/// R-V-2: a fast list that draws into a render target and then reads it through a
/// shader-resource view without a barrier is a hazard, reported by `execute_command_list`,
/// naming both calls (list, command index, method, view, use); the work still ran.
#[test]
fn r_v_2_render_target_then_srv_read_without_barrier_is_a_hazard() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let mut context = f.context(Semantics::Fast);
    let serial = context.serial();
    draw_into(&f, &mut context, f.rt_plain_rtv);
    draw_reading(&f, &mut context, f.rt_plain_srv);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    let (first, second, object, message) =
        hazard(imm.execute_command_list(&list, RestoreState::ClearState));
    let (write, read) = (
        command_index(&list, 0, is_draw),
        command_index(&list, 1, is_draw),
    );
    assert_eq!(object.handle, f.rt_plain.raw(), "{message}");
    let list_words = format!("of the fast command list recorded by context #{serial}");
    assert!(
        first.starts_with(&format!("draw (command {write} {list_words}")),
        "{first}"
    );
    assert!(
        first.contains("writing it through render-target view 'rt_plain_rtv'"),
        "{first}"
    );
    assert!(
        second.starts_with(&format!("draw (command {read} {list_words}")),
        "{second}"
    );
    assert!(
        second.contains("reading it through shader-resource view 'rt_plain_srv'"),
        "{second}"
    );
    assert!(message.contains("texture 'rt_plain'"), "{message}");
    assert!(message.contains("R-V-2"), "{message}");
    assert_eq!(imm.counters().draws, 2, "the call still runs");
}

/// R-V-2: with the covering barrier between (render target → shader resource) there is none;
/// a barrier of another resource, or one whose access before misses the write, does not cover.
#[test]
fn r_v_2_the_covering_barrier_makes_it_no_hazard() {
    // Each case on a device of its own, with barriers valid under R-BAR-8 from the start (a
    // refused barrier covers nothing).
    let (f, mut imm) = hazards(Semantics::Fast);
    let covered = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[to_rt(f.rt_plain)])]);
        draw_into(&f, c, f.rt_plain_rtv);
        c.barrier(&[BarrierGroup::Texture(&[rt_to_srv(f.rt_plain)])]);
        draw_reading(&f, c, f.rt_plain_srv);
    });
    imm.execute_command_list(&covered, RestoreState::ClearState)
        .unwrap();

    let (f, mut imm) = hazards(Semantics::Fast);
    let elsewhere = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[to_rt(f.rt_plain)])]);
        draw_into(&f, c, f.rt_plain_rtv);
        let other = TextureBarrier {
            sync_after: BarrierSync::PIXEL_SHADING,
            access_after: BarrierAccess::SHADER_RESOURCE,
            layout_after: BarrierLayout::ShaderResource,
            ..to_rt(f.tex)
        };
        c.barrier(&[BarrierGroup::Texture(&[other])]);
        draw_reading(&f, c, f.rt_plain_srv);
    });
    hazard(imm.execute_command_list(&elsewhere, RestoreState::ClearState));

    // Sync none and no access before: the barrier waits for nothing, so covers nothing.
    let (f, mut imm) = hazards(Semantics::Fast);
    let waits_for_nothing = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[to_rt(f.rt_plain)])]);
        draw_into(&f, c, f.rt_plain_rtv);
        let barrier = TextureBarrier {
            sync_before: BarrierSync::NONE,
            access_before: BarrierAccess::NO_ACCESS,
            ..rt_to_srv(f.rt_plain)
        };
        c.barrier(&[BarrierGroup::Texture(&[barrier])]);
        draw_reading(&f, c, f.rt_plain_srv);
    });
    hazard(imm.execute_command_list(&waits_for_nothing, RestoreState::ClearState));

    let (f, mut imm) = hazards(Semantics::Fast);
    let legacy_transition = f.fast(|c| {
        c.resource_barrier(&[legacy(
            f.rt_plain,
            SplitHalf::None,
            ResourceStates::COMMON,
            ResourceStates::RENDER_TARGET,
        )]);
        draw_into(&f, c, f.rt_plain_rtv);
        c.resource_barrier(&[legacy(
            f.rt_plain,
            SplitHalf::None,
            ResourceStates::RENDER_TARGET,
            ResourceStates::PIXEL_SHADER_RESOURCE,
        )]);
        draw_reading(&f, c, f.rt_plain_srv);
    });
    imm.execute_command_list(&legacy_transition, RestoreState::ClearState)
        .unwrap();
}

/// R-V-2: when both accesses are made under legacy semantics the driver responds itself
/// (R-ST-10), in one list and across lists, and nothing is reported.
#[test]
fn r_v_2_legacy_write_then_legacy_read_is_not_reported() {
    let (f, mut imm) = hazards(Semantics::Legacy);
    let list = f.legacy(|c| {
        draw_into(&f, c, f.rt_plain_rtv);
        draw_reading(&f, c, f.rt_plain_srv);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    let write = f.legacy(|c| draw_into(&f, c, f.rt_plain_rtv));
    let read = f.legacy(|c| draw_reading(&f, c, f.rt_plain_srv));
    imm.execute_command_list(&write, RestoreState::ClearState)
        .unwrap();
    imm.execute_command_list(&read, RestoreState::ClearState)
        .unwrap();
    // Direct legacy calls too.
    draw_into(&f, &mut imm, f.rt_plain_rtv);
    draw_reading(&f, &mut imm, f.rt_plain_srv);
    imm.flush().unwrap();
    assert!(
        imm.counters().cache_flushes > 0,
        "the driver's response ran"
    );
}

/// R-V-2: a legacy write then a fast read is reported (the driver does not see the fast use),
/// and a fast write then a legacy read too.
#[test]
fn r_v_2_legacy_write_then_fast_read_is_reported() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let write = f.legacy(|c| draw_into(&f, c, f.rt_plain_rtv));
    let read = f.fast(|c| draw_reading(&f, c, f.rt_plain_srv));
    imm.execute_command_list(&write, RestoreState::ClearState)
        .unwrap();
    let (first, second, _, _) = hazard(imm.execute_command_list(&read, RestoreState::ClearState));
    assert!(first.contains("of the legacy command list"), "{first}");
    assert!(second.contains("of the fast command list"), "{second}");
    // Run by different executions: each names its own.
    assert!(first.contains("execute_command_list #1"), "{first}");
    assert!(second.contains("execute_command_list #2"), "{second}");

    let write = f.fast(|c| draw_into(&f, c, f.rt_plain_rtv));
    let read = f.legacy(|c| draw_reading(&f, c, f.rt_plain_srv));
    imm.execute_command_list(&write, RestoreState::ClearState)
        .unwrap();
    hazard(imm.execute_command_list(&read, RestoreState::ClearState));
}

/// Binds the compute shader (UAV slots 0 and 2) with `uav` at slot 0 and dispatches.
fn dispatch_with(f: &Fixture, c: &mut impl DeviceContext, uav: UnorderedAccessView) {
    c.set_shader(Stage::Compute, Some(f.cs));
    c.set_compute_unordered_access_views(0, &[Some(uav)]);
    c.dispatch(1, 1, 1);
}

/// R-V-2: a UAV written by a dispatch and used by the next dispatch without a UAV barrier is a
/// hazard, even through the same view; a UAV barrier (enhanced or legacy) covers it.
#[test]
fn r_v_2_uav_then_uav_across_two_dispatches_needs_a_uav_barrier() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let list = f.fast(|c| {
        dispatch_with(&f, c, f.sb_uav);
        c.dispatch(1, 1, 1);
    });
    let (first, second, object, _) =
        hazard(imm.execute_command_list(&list, RestoreState::ClearState));
    let settle = f.fast(full_barrier);
    imm.execute_command_list(&settle, RestoreState::ClearState)
        .unwrap();
    assert_eq!(object.kind, ObjectKind::Buffer);
    assert_eq!(object.handle, f.sb.raw());
    let (a, b) = (
        command_index(&list, 0, is_dispatch),
        command_index(&list, 1, is_dispatch),
    );
    assert!(
        first.starts_with(&format!("dispatch (command {a} ")),
        "{first}"
    );
    assert!(
        second.starts_with(&format!("dispatch (command {b} ")),
        "{second}"
    );
    assert!(
        second.contains("reading and writing it through unordered-access view 'sb_uav'"),
        "{second}"
    );
    for barrier in [
        |c: &mut DeferredContext| c.barrier(&[BarrierGroup::Global(&[uav_barrier()])]),
        |c: &mut DeferredContext| c.resource_barrier(&[ResourceBarrier::Uav { resource: None }]),
    ] {
        let list = f.fast(|c| {
            dispatch_with(&f, c, f.sb_uav);
            barrier(c);
            c.dispatch(1, 1, 1);
            full_barrier(c);
        });
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
    }
    // A UAV barrier of the buffer covers it; one of another resource does not.
    let sb = Resource::from(f.sb);
    let list = f.fast(|c| {
        dispatch_with(&f, c, f.sb_uav);
        c.resource_barrier(&[ResourceBarrier::Uav { resource: Some(sb) }]);
        c.dispatch(1, 1, 1);
        full_barrier(c);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    let other = Resource::from(f.rt);
    let list = f.fast(|c| {
        dispatch_with(&f, c, f.sb_uav);
        c.resource_barrier(&[ResourceBarrier::Uav {
            resource: Some(other),
        }]);
        c.dispatch(1, 1, 1);
    });
    hazard(imm.execute_command_list(&list, RestoreState::ClearState));
}

/// R-V-2, R-BAR-5: no flush at an `execute_command_list` boundary: a write in one list and a
/// read in the next is a hazard, reported by the second execution, each call named by its list.
#[test]
fn r_v_2_across_two_command_lists() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let mut a = f.context(Semantics::Fast);
    let mut b = f.context(Semantics::Fast);
    dispatch_with(&f, &mut a, f.sb_uav);
    c_read_sb(&f, &mut b);
    let (sa, sb) = (a.serial(), b.serial());
    let a = a.finish_command_list(RestoreState::ClearState).unwrap();
    let b = b.finish_command_list(RestoreState::ClearState).unwrap();
    imm.execute_command_list(&a, RestoreState::ClearState)
        .unwrap();
    let (first, second, _, _) = hazard(imm.execute_command_list(&b, RestoreState::ClearState));
    assert!(
        first.contains(&format!("recorded by context #{sa},")),
        "{first}"
    );
    assert!(
        second.contains(&format!("recorded by context #{sb},")),
        "{second}"
    );
    assert!(
        second.contains("reading it through shader-resource view 'sb_srv'"),
        "{second}"
    );
    // And the same across a nested list: the nested list's commands are named as such.
    let inner = f.fast(|c| c_read_sb(&f, c));
    let outer = f.fast(|c| {
        dispatch_with(&f, c, f.sb_uav);
        c.execute_command_list(&inner, RestoreState::ClearState);
    });
    let (_, second, _, _) = hazard(imm.execute_command_list(&outer, RestoreState::ClearState));
    assert!(second.contains(", nested,"), "{second}");
}

/// A dispatch reading `sb` through its SRV at slot 0 (no UAV bound).
fn c_read_sb(f: &Fixture, c: &mut impl DeviceContext) {
    c.set_shader(Stage::Compute, Some(f.cs));
    c.set_compute_unordered_access_views(0, &[None, None, None]);
    c.set_shader_resources(Stage::Compute, 0, &[Some(f.sb_srv)]);
    c.dispatch(1, 1, 1);
}

/// R-V-2: two reads through two read paths are not a hazard, nor is a draw that reads one
/// resource and writes another, nor a draw writing the same render-target view again.
#[test]
fn r_v_2_two_reads_and_different_resources_are_no_hazard() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let list = f.fast(|c| {
        c.set_shader(Stage::Vertex, Some(f.vs));
        c.set_shader_resources(Stage::Vertex, 0, &[Some(f.tex_srv)]);
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv), None, Some(f.tex_srv)]);
        c.set_render_targets(&[Some(f.rt_plain_rtv)], None);
        c.draw(3, 0);
        c.draw(3, 0);
        c.clear_render_target_view(f.rt_plain_rtv, [0.0; 4]);
        c.draw(3, 0);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    // A copy reads what the draws only read, into a texture nobody used.
    let (copy, _) = twin_target(&f, "copy");
    let (source, source_srv) = twin_target(&f, "source");
    let list = f.fast(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(source_srv)]);
        c.draw(3, 0);
        c.copy_resource(copy, source);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
}

/// R-V-2: direct calls on the immediate context are named as such, and reported by the call
/// that submits them (`flush`).
#[test]
fn r_v_2_direct_calls_are_named_by_their_index() {
    let (f, mut imm) = hazards(Semantics::Fast);
    draw_into(&f, &mut imm, f.rt_plain_rtv);
    imm.flush().unwrap();
    draw_reading(&f, &mut imm, f.rt_plain_srv);
    let (first, second, _, _) = hazard(imm.flush());
    // Three calls each; the draws are the third and the seventh direct commands.
    assert!(
        first.starts_with("draw (direct call 2 of the fast immediate context)"),
        "{first}"
    );
    assert!(
        second.starts_with("draw (direct call 6 of the fast immediate context)"),
        "{second}"
    );
}

/// A plain (not compressible) render target like `rt_plain`, with its SRV, to copy to and from.
fn twin_target(f: &Fixture, name: &str) -> (Texture, ShaderResourceView) {
    let texture = f
        .device
        .create_texture(&TextureDesc {
            name,
            format: Format::R16G16B16A16Float,
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            compressible: Some(false),
            ..Default::default()
        })
        .unwrap();
    let srv = f
        .device
        .create_shader_resource_view(&ViewDesc::new(name, texture))
        .unwrap();
    (texture, srv)
}

/// R-V-2: a copy destination read by a draw, and a clear read by a copy, without a barrier;
/// a copy-sync barrier covers the copy.
#[test]
fn r_v_2_copies_and_clears_are_writes() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let (copy, copy_srv) = twin_target(&f, "copy");
    let copy_then_read = f.fast(|c| {
        c.copy_resource(copy, f.rt_plain);
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(copy_srv)]);
        c.draw(3, 0);
    });
    let (first, second, _, _) =
        hazard(imm.execute_command_list(&copy_then_read, RestoreState::ClearState));
    assert!(first.starts_with("copy_resource"), "{first}");
    assert!(
        first.contains("writing it as the copy destination"),
        "{first}"
    );
    assert!(second.starts_with("draw"), "{second}");
    let covered = f.fast(|c| {
        c.copy_resource(copy, f.rt_plain);
        c.barrier(&[BarrierGroup::Global(&[GlobalBarrier {
            sync_before: BarrierSync::COPY,
            sync_after: BarrierSync::PIXEL_SHADING,
            access_before: BarrierAccess::COPY_DEST,
            access_after: BarrierAccess::SHADER_RESOURCE,
        }])]);
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(copy_srv)]);
        c.draw(3, 0);
    });
    imm.execute_command_list(&covered, RestoreState::ClearState)
        .unwrap();
    let clear_then_copy = f.fast(|c| {
        c.clear_render_target_view(f.rt_plain_rtv, [0.0; 4]);
        c.copy_resource(copy, f.rt_plain);
    });
    let (first, second, _, _) =
        hazard(imm.execute_command_list(&clear_then_copy, RestoreState::ClearState));
    assert!(first.starts_with("clear_render_target_view"), "{first}");
    assert!(second.contains("reading it as the copy source"), "{second}");
}

/// R-V-2: ranges matter: a render-target view of mip 1 written and a view of mip 0 read is no
/// hazard; a texture barrier of mip 0 does not cover a write of mip 1.
#[test]
fn r_v_2_subresources_are_tracked_apart() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let texture = f
        .device
        .create_texture(&TextureDesc {
            name: "mips",
            width: 64,
            height: 64,
            mip_levels: 2,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            compressible: Some(false),
            ..Default::default()
        })
        .unwrap();
    let view = |mip: u32| ViewDesc {
        range: SubresourceRange {
            first_mip: mip,
            mip_count: 1,
            ..SubresourceRange::ALL
        },
        ..ViewDesc::new("mip", texture)
    };
    let rtv1 = f.device.create_render_target_view(&view(1)).unwrap();
    let srv0 = f.device.create_shader_resource_view(&view(0)).unwrap();
    let srv1 = f.device.create_shader_resource_view(&view(1)).unwrap();
    let apart = f.fast(|c| {
        draw_into(&f, c, rtv1);
        draw_reading(&f, c, srv0);
    });
    imm.execute_command_list(&apart, RestoreState::ClearState)
        .unwrap();
    let mip0_barrier = TextureBarrier {
        subresources: BarrierSubresources {
            mips: Span::new(0, 0),
            ..BarrierSubresources::ALL
        },
        ..rt_to_srv(texture)
    };
    let wrong_mip = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[to_rt(texture)])]);
        draw_into(&f, c, rtv1);
        c.barrier(&[BarrierGroup::Texture(&[mip0_barrier])]);
        draw_reading(&f, c, srv1);
    });
    let (_, second, _, _) = hazard(imm.execute_command_list(&wrong_mip, RestoreState::ClearState));
    assert!(second.contains("(mips 1, slices 0)"), "{second}");
    let right_mip = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[to_rt(texture)])]);
        draw_into(&f, c, rtv1);
        c.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
            subresources: BarrierSubresources {
                mips: Span::new(1, 1),
                ..BarrierSubresources::ALL
            },
            ..rt_to_srv(texture)
        }])]);
        draw_reading(&f, c, srv1);
    });
    imm.execute_command_list(&right_mip, RestoreState::ClearState)
        .unwrap();
}

/// R-V-2: `validation=on` finds no hazard (hazards are `validation=hazards`' only).
#[test]
fn r_v_2_validation_on_does_not_track_hazards() {
    let f = Fixture::validated(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.fast(|c| {
        draw_into(&f, c, f.rt_plain_rtv);
        draw_reading(&f, c, f.rt_plain_srv);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert!(!imm.gpu().validates_hazards(), "no tracker, no cost");
    let (_, mut imm) = hazards(Semantics::Fast);
    assert!(imm.gpu().validates_hazards());
}

/// R-V-2: a bundle's draws and dispatches are named by the draw_bundle command that calls them,
/// in the list that calls it, and are fast work whatever the list's semantics.
#[test]
fn r_v_2_bundle_draws_are_named_by_their_draw_bundle() {
    let (f, mut imm) = hazards(Semantics::Fast);
    // A bundle reads plain textures only (no view of a target): a copy writes one.
    let plain = |name| {
        let texture = f
            .device
            .create_texture(&TextureDesc {
                name,
                width: 64,
                height: 64,
                bind: BindFlags::SHADER_RESOURCE,
                ..Default::default()
            })
            .unwrap();
        let srv = f
            .device
            .create_shader_resource_view(&ViewDesc::new(name, texture))
            .unwrap();
        (texture, srv)
    };
    let (copy, copy_srv) = plain("copy");
    let (source, _) = plain("source");
    let mut recorder =
        bundles::BundleRecorder::new(&f.device, &bundles::BundleDesc::new("b", &[])).unwrap();
    recorder.set_shader(Stage::Compute, Some(f.cs));
    recorder.set_shader_resources(Stage::Compute, 0, &[Some(copy_srv)]);
    recorder.dispatch(1, 1, 1);
    let bundle = recorder.finish().unwrap();
    let list = f.fast(|c| {
        c.copy_resource(copy, source);
        bundles::DrawBundleExt::draw_bundle(c, &bundle);
    });
    let (_, second, _, _) = hazard(imm.execute_command_list(&list, RestoreState::ClearState));
    let at = command_index(&list, 0, |c| {
        matches!(c, command::Command::DrawBundle { .. })
    });
    assert!(
        second.starts_with(&format!(
            "dispatch (command 2 of the bundle called by draw_bundle (command {at} "
        )),
        "{second}"
    );
    assert!(second.contains("of the fast command list"), "{second}");
    // A legacy list's copy, then its bundle call: the bundle's work is fast, so it is reported,
    // and named by the legacy list's draw_bundle.
    let settle = f.fast(full_barrier);
    imm.execute_command_list(&settle, RestoreState::ClearState)
        .unwrap();
    let list = f.legacy(|c| {
        c.copy_resource(copy, source);
        bundles::DrawBundleExt::draw_bundle(c, &bundle);
    });
    let (first, second, _, _) = hazard(imm.execute_command_list(&list, RestoreState::ClearState));
    assert!(first.starts_with("copy_resource (command "), "{first}");
    assert!(first.contains("of the legacy command list"), "{first}");
    assert!(second.contains("of the legacy command list"), "{second}");
}

/// R-V-2: the hazard report keeps `Error` within its 80 bytes (the const assertion in
/// `recorder/src/error.rs` pins it at build time too).
#[test]
fn r_v_2_error_stays_within_80_bytes() {
    assert!(std::mem::size_of::<Error>() <= 80);
}

// ----- the property: full synchronisation reports nothing, and every needed barrier counts -----

mod frame {
    use super::*;
    use proptest::prelude::*;

    /// One draw or dispatch of a random frame.
    #[derive(Clone, Copy, Debug)]
    pub struct Op {
        /// A draw into render-target view `Some(v)` (`VIEWS`), or a dispatch writing the UAV of
        /// texture `Some(t)`.
        pub dispatch: bool,
        pub target: Option<u8>,
        /// The texture read through its SRV (slot 0), if any.
        pub read: Option<u8>,
    }

    /// Render-target views: texture 0 has two (another view of the same subresources).
    pub const VIEWS: [u8; 4] = [0, 0, 1, 2];

    impl Op {
        /// The texture written, and the path (`Some(view)` for a render target, `None` for a UAV).
        pub fn write(&self) -> Option<(u8, Option<u8>)> {
            let t = self.target?;
            Some(match self.dispatch {
                false => (VIEWS[t as usize], Some(t)),
                true => (t, None),
            })
        }
    }

    pub fn op() -> impl Strategy<Value = Op> {
        (
            any::<bool>(),
            prop::option::of(0u8..4),
            prop::option::of(0u8..3),
        )
            .prop_map(|(dispatch, target, read)| {
                let target = match dispatch {
                    true => target.map(|t| t % 3),
                    false => target,
                };
                let mut op = Op {
                    dispatch,
                    target,
                    read,
                };
                // A call that reads and writes one texture is not a hazard between calls.
                if op.write().map(|(t, _)| t) == op.read {
                    op.read = None;
                }
                op
            })
    }

    /// Whether the barrier between `a` and `b` is needed: `a` wrote a texture that `b` uses,
    /// other than a render-target view written again through the same view.
    pub fn needed(a: &Op, b: &Op) -> bool {
        let Some((written, path)) = a.write() else {
            return false;
        };
        let read = b.read == Some(written);
        let rewritten = b
            .write()
            .is_some_and(|(t, p)| t == written && !(path.is_some() && p == path));
        read || rewritten
    }

    pub struct Textures {
        pub rtvs: Vec<RenderTargetView>,
        pub srvs: Vec<ShaderResourceView>,
        pub uavs: Vec<UnorderedAccessView>,
    }

    pub fn textures(f: &Fixture) -> Textures {
        let mut t = Textures {
            rtvs: Vec::new(),
            srvs: Vec::new(),
            uavs: Vec::new(),
        };
        let mut made = Vec::new();
        for i in 0..3 {
            let texture = f
                .device
                .create_texture(&TextureDesc {
                    name: ["t0", "t1", "t2"][i],
                    width: 16,
                    height: 16,
                    bind: BindFlags::RENDER_TARGET
                        | BindFlags::SHADER_RESOURCE
                        | BindFlags::UNORDERED_ACCESS,
                    compressible: Some(false),
                    ..Default::default()
                })
                .unwrap();
            let view = ViewDesc::new("v", texture);
            t.srvs
                .push(f.device.create_shader_resource_view(&view).unwrap());
            t.uavs
                .push(f.device.create_unordered_access_view(&view).unwrap());
            made.push(texture);
        }
        for &texture in VIEWS.iter() {
            let view = ViewDesc::new("rtv", made[texture as usize]);
            t.rtvs
                .push(f.device.create_render_target_view(&view).unwrap());
        }
        t
    }

    pub fn record(f: &Fixture, t: &Textures, c: &mut DeferredContext, op: &Op) {
        let srv = op.read.map(|r| t.srvs[r as usize]);
        if op.dispatch {
            c.set_shader(Stage::Compute, Some(f.cs));
            c.set_shader_resources(Stage::Compute, 0, &[srv]);
            let uav = op.target.map(|u| t.uavs[u as usize]);
            c.set_compute_unordered_access_views(0, &[uav, None, None]);
            c.dispatch(1, 1, 1);
        } else {
            c.set_shader(Stage::Pixel, Some(f.ps));
            c.set_shader_resources(Stage::Pixel, 0, &[srv, None, None]);
            let rtv = op.target.map(|v| t.rtvs[v as usize]);
            c.set_render_targets(&[rtv], None);
            c.draw(3, 0);
        }
    }

    /// Runs `ops` cut into lists after the ops in `cuts`, with a full barrier after every op
    /// but `skip`; returns the first report.
    pub fn run(
        f: &Fixture,
        t: &Textures,
        imm: &mut ImmediateContext,
        ops: &[Op],
        cuts: &[bool],
        skip: Option<usize>,
    ) -> Result<(), Error> {
        let mut result = Ok(());
        let mut context = f.context(Semantics::Fast);
        for (i, op) in ops.iter().enumerate() {
            record(f, t, &mut context, op);
            if skip != Some(i) {
                full_barrier(&mut context);
            }
            let last = i + 1 == ops.len();
            if last || cuts.get(i).copied().unwrap_or(false) {
                let list = context
                    .finish_command_list(RestoreState::ClearState)
                    .unwrap();
                result = result.and(imm.execute_command_list(&list, RestoreState::ClearState));
            }
        }
        // Whatever the frame left pending, the next one starts covered.
        let settle = f.fast(full_barrier);
        imm.execute_command_list(&settle, RestoreState::ClearState)
            .unwrap();
        result
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// R-V-2 (the hazard property): a random fast frame of draws writing render targets and
    /// dispatches writing UAVs, reading SRVs of three textures, across lists, with a full barrier
    /// after every draw, reports no hazard; without any one barrier, a hazard is reported
    /// exactly when that barrier was needed (the two calls around it share a texture, one
    /// writing it), naming the call before it and the one after it.
    #[test]
    fn r_v_2_full_synchronisation_reports_nothing_and_every_needed_barrier_counts(
        ops in proptest::collection::vec(frame::op(), 2..8),
        cuts in proptest::collection::vec(proptest::prelude::any::<bool>(), 8),
    ) {
        let (f, mut imm) = hazards(Semantics::Fast);
        let t = frame::textures(&f);
        let synchronised = frame::run(&f, &t, &mut imm, &ops, &cuts, None);
        proptest::prop_assert!(synchronised.is_ok(), "{:?}", synchronised);
        for i in 0..ops.len() - 1 {
            let needed = frame::needed(&ops[i], &ops[i + 1]);
            let result = frame::run(&f, &t, &mut imm, &ops, &cuts, Some(i));
            match result {
                Err(Error::Hazard { first_call, second_call, .. }) => {
                    proptest::prop_assert!(needed, "barrier {i} was not needed: {first_call} / {second_call}");
                    let method = |op: &frame::Op| if op.dispatch { "dispatch (" } else { "draw (" };
                    proptest::prop_assert!(first_call.starts_with(method(&ops[i])), "{first_call}");
                    proptest::prop_assert!(second_call.starts_with(method(&ops[i + 1])), "{second_call}");
                }
                other => proptest::prop_assert!(!needed && other.is_ok(), "barrier {i} removed: {other:?}"),
            }
        }
    }
}

/// R-V-2, R-BAR-4: what covers a render-target write: `sync_before` `all`, `draw` or
/// `render_target` with `access_before` `render_target` or `common`; not `none`, not
/// `pixel_shading` alone, not `no_access`. A legacy split transition covers at its begin (R-BAR-4);
/// an end alone covers nothing.
#[test]
fn r_v_2_coverage_follows_the_sync_and_access_groups() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let global = |sync_before, access_before| GlobalBarrier {
        sync_before,
        sync_after: BarrierSync::ALL,
        access_before,
        access_after: BarrierAccess::SHADER_RESOURCE,
    };
    let cases = [
        (global(BarrierSync::ALL, BarrierAccess::COMMON), true),
        (
            global(BarrierSync::DRAW, BarrierAccess::RENDER_TARGET),
            true,
        ),
        (
            global(BarrierSync::RENDER_TARGET, BarrierAccess::RENDER_TARGET),
            true,
        ),
        (
            global(BarrierSync::NONE, BarrierAccess::RENDER_TARGET),
            false,
        ),
        (
            global(BarrierSync::PIXEL_SHADING, BarrierAccess::RENDER_TARGET),
            false,
        ),
        (global(BarrierSync::ALL, BarrierAccess::NO_ACCESS), false),
    ];
    for (barrier, covers) in cases {
        let list = f.fast(|c| {
            draw_into(&f, c, f.rt_plain_rtv);
            c.barrier(&[BarrierGroup::Global(&[barrier])]);
            draw_reading(&f, c, f.rt_plain_srv);
            full_barrier(c);
        });
        match imm.execute_command_list(&list, RestoreState::ClearState) {
            Ok(()) => assert!(covers, "{barrier:?} covered the write"),
            // Once R-BAR-8 validates barriers, a barrier that cannot cover may be refused
            // first (a refused barrier has no effect).
            Err(Error::Hazard { .. } | Error::InvalidBarrier { .. }) if !covers => {}
            Err(error) => panic!("{barrier:?}: {error}"),
        }
    }
    let transition = |texture, split| {
        legacy(
            texture,
            split,
            ResourceStates::RENDER_TARGET,
            ResourceStates::PIXEL_SHADER_RESOURCE,
        )
    };
    let to_rt = |texture| {
        legacy(
            texture,
            SplitHalf::None,
            ResourceStates::COMMON,
            ResourceStates::RENDER_TARGET,
        )
    };
    let (f, mut imm) = hazards(Semantics::Fast);
    let split = f.fast(|c| {
        c.resource_barrier(&[to_rt(f.rt_plain)]);
        draw_into(&f, c, f.rt_plain_rtv);
        c.resource_barrier(&[transition(f.rt_plain, SplitHalf::Begin)]);
        c.resource_barrier(&[transition(f.rt_plain, SplitHalf::End)]);
        draw_reading(&f, c, f.rt_plain_srv);
    });
    imm.execute_command_list(&split, RestoreState::ClearState)
        .unwrap();
    let (f, mut imm) = hazards(Semantics::Fast);
    let end_only = f.fast(|c| {
        c.resource_barrier(&[to_rt(f.rt_plain)]);
        draw_into(&f, c, f.rt_plain_rtv);
        c.resource_barrier(&[transition(f.rt_plain, SplitHalf::End)]);
        draw_reading(&f, c, f.rt_plain_srv);
    });
    // An end without its begin is also `invalid_barrier` once R-BAR-4's validation runs: the
    // execution is then reported for that first; the end covers nothing either way.
    match imm.execute_command_list(&end_only, RestoreState::ClearState) {
        Err(Error::Hazard { .. } | Error::InvalidBarrier { .. }) => {}
        other => panic!("expected a hazard, got {other:?}"),
    }
}

/// Records a write and then a barrier meant to cover it (`true`: a barrier that is refused).
type BarrierCase<'a> = dyn Fn(&Fixture, &mut ImmediateContext, bool) + 'a;

/// What `flush` returns, as a kind (for the messages of the R-BAR-8 tests).
fn flushed_kind(imm: &mut ImmediateContext) -> Option<ErrorKind> {
    imm.flush().err().map(|e| e.kind())
}

/// R-BAR-8 with R-V-2: a refused barrier has no effect, so it covers no write: the enhanced
/// render target → shader resource barrier refused for its LayoutBefore (the texture is in
/// `render_target`, not `copy_source`) and the legacy transition refused for its StateBefore
/// leave the draw's write pending, and the read after them is a hazard; the refusal is reported
/// first, by the call that submits the barrier. The same barrier accepted covers the write.
#[test]
fn r_bar_8_a_refused_barrier_does_not_cover_the_write() {
    let wrong_layout = |f: &Fixture| TextureBarrier {
        layout_before: BarrierLayout::CopySource,
        access_before: BarrierAccess::RENDER_TARGET,
        ..rt_to_srv(f.rt_plain)
    };
    let enhanced = |f: &Fixture, imm: &mut ImmediateContext, refused: bool| {
        imm.barrier(&[BarrierGroup::Texture(&[to_rt(f.rt_plain)])]);
        draw_into(f, imm, f.rt_plain_rtv);
        assert_eq!(flushed_kind(imm), None);
        let barrier = if refused {
            wrong_layout(f)
        } else {
            rt_to_srv(f.rt_plain)
        };
        imm.barrier(&[BarrierGroup::Texture(&[barrier])]);
    };
    let legacy_transition = |f: &Fixture, imm: &mut ImmediateContext, refused: bool| {
        let (common, rt) = (ResourceStates::COMMON, ResourceStates::RENDER_TARGET);
        imm.resource_barrier(&[legacy(f.rt_plain, SplitHalf::None, common, rt)]);
        draw_into(f, imm, f.rt_plain_rtv);
        assert_eq!(flushed_kind(imm), None);
        // The texture is in render_target: from copy_source is refused.
        let before = if refused {
            ResourceStates::COPY_SOURCE
        } else {
            rt
        };
        imm.resource_barrier(&[legacy(
            f.rt_plain,
            SplitHalf::None,
            before,
            ResourceStates::PIXEL_SHADER_RESOURCE,
        )]);
    };
    let cases: [(&str, &BarrierCase<'_>); 2] =
        [("enhanced", &enhanced), ("legacy", &legacy_transition)];
    for (what, barrier) in cases {
        // Each on a device of its own: nothing pending from the other.
        let (f, mut imm) = hazards(Semantics::Fast);
        barrier(&f, &mut imm, true);
        assert_eq!(
            flushed_kind(&mut imm),
            Some(ErrorKind::InvalidBarrier),
            "{what}: the refusal is reported"
        );
        draw_reading(&f, &mut imm, f.rt_plain_srv);
        let (first, second, object, _) = hazard(imm.flush());
        assert_eq!(object.handle, f.rt_plain.raw(), "{what}");
        assert!(first.starts_with("draw (direct call"), "{what}: {first}");
        assert!(
            second.contains("reading it through shader-resource view 'rt_plain_srv'"),
            "{what}: {second}"
        );

        let (f, mut imm) = hazards(Semantics::Fast);
        barrier(&f, &mut imm, false);
        assert_eq!(flushed_kind(&mut imm), None, "{what}: accepted");
        draw_reading(&f, &mut imm, f.rt_plain_srv);
        assert_eq!(flushed_kind(&mut imm), None, "{what}: covered");
    }
}

/// R-V-2 with R-BAR-7: a draw that reads, through a shader-resource view, a placed texture whose
/// alias was activated over its bytes is a hazard, reported by `execute_command_list` and naming
/// the draw and the activating barrier of the list; the seed's `pTex0` activated again first is
/// none.
#[test]
fn r_v_2_a_draw_reading_a_deactivated_alias_is_a_hazard() {
    let (f, mut imm) = hazards(Semantics::Fast);
    let heap = f
        .device
        .create_heap(&HeapDesc {
            name: "heap",
            size: 1 << 16,
        })
        .unwrap();
    let placed = |name: &str| {
        f.device
            .create_texture(&TextureDesc {
                name,
                width: 64,
                height: 64,
                bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
                compressible: Some(false),
                placement: Some(Placement { heap, offset: 0 }),
                ..Default::default()
            })
            .unwrap()
    };
    let (tex0, tex1) = (placed("pTex0"), placed("pTex1"));
    let srv0 = f
        .device
        .create_shader_resource_view(&ViewDesc::new("pTex0_srv", tex0))
        .unwrap();
    let activate = |texture: Texture| TextureBarrier {
        sync_after: BarrierSync::PIXEL_SHADING,
        access_after: BarrierAccess::SHADER_RESOURCE,
        layout_after: BarrierLayout::ShaderResource,
        ..to_rt(texture)
    };
    let list = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[activate(tex1)])]);
        draw_reading(&f, c, srv0);
    });
    let (first, second, object, _) =
        hazard(imm.execute_command_list(&list, RestoreState::ClearState));
    assert_eq!(object.handle, tex0.raw());
    let barrier = command_index(&list, 0, |c| matches!(c, command::Command::Barrier { .. }));
    let draw = command_index(&list, 0, is_draw);
    assert!(
        first.starts_with(&format!(
            "barrier (command {barrier} of the fast command list"
        )),
        "{first}"
    );
    assert!(first.contains("activating texture 'pTex1'"), "{first}");
    assert!(
        second.starts_with(&format!("draw (command {draw} of the fast command list")),
        "{second}"
    );
    assert!(
        second.contains("reading it through shader-resource view 'pTex0_srv', a deactivated alias"),
        "{second}"
    );
    let again = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[activate(tex1)])]);
        c.barrier(&[BarrierGroup::Texture(&[activate(tex0)])]);
        draw_reading(&f, c, srv0);
    });
    imm.execute_command_list(&again, RestoreState::ClearState)
        .unwrap();
}
