//! Requirement tests for SPEC §4, split points recorded by deferred contexts (R-SP-1, R-SP-2,
//! R-SP-3, and the per-list counters of R-SP-5). Resolution at execution (R-SP-4, the resolved
//! and indirect-buffer counters of R-SP-5) belongs to the executor.

mod common;

use common::*;
use recorder::command::{Command, Decoded, InstanceId};
use recorder::*;

use SplitCategory as S;

/// Split counts of a list, checked three ways: the statistics, the commands marked as split
/// points, and the split-point segments (which must agree in number and order).
#[track_caller]
fn split_counts(list: &CommandList) -> SplitCounts {
    let from_commands = command_split_points(list);
    let from_segments = segment_split_points(list);
    assert_eq!(
        from_segments, from_commands,
        "segments() and commands() disagree"
    );
    let mut counted = SplitCounts::default();
    for category in &from_commands {
        counted[*category] += 1;
    }
    assert_eq!(
        counted,
        list.stats().split_points,
        "the statistics disagree with the list"
    );
    counted
}

/// Records `calls` on a fresh legacy context and returns the finished list.
fn legacy_list(f: &Fixture, calls: impl FnOnce(&mut DeferredContext)) -> CommandList {
    let mut c = f.legacy();
    calls(&mut c);
    finish(&mut c)
}

// ----- R-SP-1: the categories ------------------------------------------------------------------

#[test]
fn r_sp_1_each_clear_of_a_render_target_view_is_a_split_point() {
    let f = Fixture::new();
    let back_buffer = f.back_buffer().1;
    let list = legacy_list(&f, |c| {
        c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
        c.clear_render_target_view(f.rt_rtv, [1.0; 4]);
        c.clear_render_target_view(f.rt_plain_rtv, [0.0; 4]);
        c.clear_render_target_view(back_buffer, [0.0; 4]);
    });
    assert_eq!(split_counts(&list), counts(&[(S::ClearRenderTarget, 4)]));
    for segment in list.segments() {
        if let Segment::SplitPoint(decoded) = segment {
            assert!(matches!(
                decoded.command,
                Command::ClearRenderTargetView { .. }
            ));
        }
    }
}

#[test]
fn r_sp_1_each_clear_of_a_depth_stencil_view_is_a_split_point() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0);
        c.clear_depth_stencil_view(f.ds_plain_dsv, ClearFlags::DEPTH_STENCIL, 0.0, 1);
    });
    assert_eq!(split_counts(&list), counts(&[(S::ClearDepthStencil, 2)]));
}

#[test]
fn r_sp_1_each_render_target_bind_is_a_split_point() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
        c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv)); // the same again
        c.set_render_targets(&[Some(f.rt_plain_rtv), Some(f.rt_rtv)], None);
        c.set_render_targets(&[], None); // unbinding is a bind too
    });
    assert_eq!(split_counts(&list), counts(&[(S::SetRenderTargets, 4)]));
    assert_eq!(
        list.stats().commands,
        4,
        "one command per bind, not per target"
    );
}

#[test]
fn r_sp_1_each_uav_bind_is_a_split_point() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.set_compute_unordered_access_views(0, &[Some(f.sb_uav), Some(f.append_uav)]);
        c.set_compute_unordered_access_views(3, &[None]);
        c.set_render_targets_and_unordered_access_views(
            &[Some(f.rt_plain_rtv)],
            None,
            1,
            &[Some(f.sb_uav), Some(f.counter_uav)],
        );
    });
    assert_eq!(
        split_counts(&list),
        counts(&[(S::SetUnorderedAccessViews, 3), (S::SetRenderTargets, 1)])
    );
}

#[test]
fn r_sp_1_each_depth_stencil_state_set_is_a_split_point() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.set_depth_stencil_state(Some(f.dss), 0);
        c.set_depth_stencil_state(Some(f.dss), 1);
        c.set_depth_stencil_state(None, 0);
        // Other state objects are not split points.
        c.set_blend_state(Some(f.blend), [1.0; 4], u32::MAX);
        c.set_rasterizer_state(Some(f.raster));
    });
    assert_eq!(split_counts(&list), counts(&[(S::SetDepthStencilState, 3)]));
}

/// A bind of the dynamic resource of each dynamic category, with the buffer it binds.
type DynamicBind = (
    SplitCategory,
    fn(&Fixture) -> Buffer,
    fn(&Fixture, &mut DeferredContext),
);

fn dynamic_binds() -> Vec<DynamicBind> {
    vec![
        (
            S::DynamicIndexBuffer,
            |f| f.ib_dyn,
            |f, c| c.set_index_buffer(Some(f.ib_dyn), Format::R16Uint, 0),
        ),
        (
            S::DynamicVertexBuffer,
            |f| f.vb_dyn,
            |f, c| c.set_vertex_buffers(3, &[vertex(f.vb_dyn)]),
        ),
        (
            S::DynamicConstantBuffer,
            |f| f.cb_dyn,
            |f, c| c.set_constant_buffers(Stage::Pixel, 15, &[Some(f.cb_dyn)]),
        ),
        (
            S::DynamicShaderResource,
            |f| f.sb_dyn,
            |f, c| c.set_shader_resources(Stage::Compute, 9, &[Some(f.sb_dyn_srv)]),
        ),
    ]
}

/// The buffer and instance a split-point command binds, for the dynamic categories.
fn split_binding(command: &Command) -> Option<(u32, RawHandle, InstanceId)> {
    match *command {
        Command::SetIndexBuffer(b) => Some((0, b.buffer, b.instance)),
        Command::SetVertexBuffers { start, buffers } if buffers.len() == 1 => {
            Some((start, buffers[0].buffer, buffers[0].instance))
        }
        Command::SetConstantBuffers { start, buffers, .. } if buffers.len() == 1 => {
            Some((start, buffers[0].buffer, buffers[0].instance))
        }
        Command::SetShaderResources { start, views, .. } if views.len() == 1 => {
            Some((start, views[0].resource, views[0].instance))
        }
        _ => None,
    }
}

#[test]
fn r_sp_1_each_bind_of_a_dynamic_buffer_not_mapped_in_the_list_is_a_split_point() {
    for (category, buffer, bind) in dynamic_binds() {
        let f = Fixture::new();
        let list = legacy_list(&f, |c| {
            bind(&f, c);
            c.draw(3, 0);
            bind(&f, c);
        });
        assert_eq!(split_counts(&list), counts(&[(category, 2)]), "{category}");
        let slot = match category {
            S::DynamicIndexBuffer => 0,
            S::DynamicVertexBuffer => 3,
            S::DynamicConstantBuffer => 15,
            _ => 9,
        };
        for segment in list.segments() {
            if let Segment::SplitPoint(decoded) = segment {
                assert_eq!(
                    split_binding(&decoded.command),
                    Some((slot, buffer(&f).raw(), InstanceId::RESOLVE_AT_EXECUTION)),
                    "{category}: the split point names the unknown: {:?}",
                    decoded.command
                );
            }
        }
    }
}

#[test]
fn r_sp_1_write_discard_before_bind_creates_no_split_point() {
    for (category, buffer, bind) in dynamic_binds() {
        let f = Fixture::new();
        let list = legacy_list(&f, |c| {
            c.map(buffer(&f), MapType::WriteDiscard, MapFlags::None)
                .unwrap()[0] = 1; // unmapped on drop
            bind(&f, c);
            c.draw(3, 0);
            bind(&f, c);
        });
        assert_eq!(split_counts(&list), SplitCounts::default(), "{category}");
        assert!(
            list.segments()
                .all(|s| !matches!(s, Segment::SplitPoint(_))),
            "{category}"
        );
    }
}

#[test]
fn r_sp_1_a_bind_while_the_buffer_is_still_mapped_write_discard_creates_no_split_point() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap()[0] = 1;
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
        c.unmap(f.cb_dyn);
    });
    assert_eq!(split_counts(&list), SplitCounts::default());
}

#[test]
fn r_sp_1_a_dynamic_bind_before_its_map_splits_and_the_binds_after_do_not() {
    for (category, buffer, bind) in dynamic_binds() {
        let f = Fixture::new();
        let list = legacy_list(&f, |c| {
            bind(&f, c);
            c.map(buffer(&f), MapType::WriteDiscard, MapFlags::None)
                .unwrap()[0] = 1; // unmapped on drop
            bind(&f, c);
            bind(&f, c);
        });
        assert_eq!(split_counts(&list), counts(&[(category, 1)]), "{category}");
    }
}

#[test]
fn r_sp_1_write_discard_in_an_earlier_list_or_on_another_context_does_not_count() {
    for (category, buffer, bind) in dynamic_binds() {
        let f = Fixture::new();
        let mut c = f.legacy();
        c.map(buffer(&f), MapType::WriteDiscard, MapFlags::None)
            .unwrap(); // unmapped on drop
        let _earlier = c.finish_command_list(RestoreState::Restore).unwrap();
        let mut other = f.legacy();
        other
            .map(buffer(&f), MapType::WriteDiscard, MapFlags::None)
            .unwrap(); // unmapped on drop
        bind(&f, &mut c);
        let list = finish(&mut c);
        assert_eq!(split_counts(&list), counts(&[(category, 1)]), "{category}");
    }
}

#[test]
fn r_sp_1_default_buffers_mapped_write_no_overwrite_never_split() {
    let f = Fixture::new();
    let vb_default = f
        .device
        .create_buffer(&BufferDesc {
            name: "vb_default",
            size: 256,
            usage: Usage::Default,
            bind: BindFlags::VERTEX,
            ..Default::default()
        })
        .unwrap();
    let list = legacy_list(&f, |c| {
        for buffer in [vb_default, f.ib, f.cb, f.sb] {
            c.map(
                buffer,
                MapType::WriteNoOverwrite,
                MapFlags::AllowUsageDefault,
            )
            .unwrap()[0] = 1; // unmapped on drop
        }
        c.set_vertex_buffers(0, &[vertex(vb_default)]);
        c.set_index_buffer(Some(f.ib), Format::R32Uint, 0);
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
        c.set_shader_resources(Stage::Vertex, 0, &[Some(f.sb_srv)]);
        c.draw(3, 0);
    });
    assert_eq!(split_counts(&list), SplitCounts::default());
}

#[test]
fn r_sp_1_immutable_and_default_resources_never_split() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb2)]);
        c.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb), Some(f.cb_imm)]);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.sb_srv), Some(f.tex_srv)]);
        c.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_input_layout(Some(f.layout));
        c.set_blend_state(Some(f.blend), [1.0; 4], u32::MAX);
        c.set_rasterizer_state(Some(f.raster));
        c.set_viewports(&[Viewport::new(0.0, 0.0, 8.0, 8.0)]);
        c.set_predication(Some(f.predicate), PredicateValue::True);
        c.draw(3, 0);
        c.draw_instanced_indirect(f.args, 0);
        c.copy_resource(f.copy_a, f.copy_b);
        c.update_subresource(f.cb, &[1]);
    });
    assert_eq!(split_counts(&list), SplitCounts::default());
    assert!(list.segments().count() == 1, "one run of commands");
}

#[test]
fn r_sp_1_dynamic_split_points_are_per_slot() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.set_constant_buffers(
            Stage::Pixel,
            4,
            &[Some(f.cb_dyn), Some(f.cb_imm), Some(f.cb_dyn2)],
        );
    });
    assert_eq!(
        split_counts(&list),
        counts(&[(S::DynamicConstantBuffer, 2)])
    );
    let commands: Vec<_> = list.commands().collect();
    assert_eq!(commands.len(), 3);
    // The call's own command, with the slots to resolve left null...
    match commands[0].command {
        Command::SetConstantBuffers {
            start: 4, buffers, ..
        } => {
            assert_eq!(commands[0].split, None);
            let handles: Vec<_> = buffers.iter().map(|b| b.buffer).collect();
            assert_eq!(
                handles,
                vec![RawHandle::NULL, f.cb_imm.raw(), RawHandle::NULL]
            );
        }
        other => panic!("unexpected {other:?}"),
    }
    // ...then one split point per dynamic slot.
    let splits: Vec<_> = commands[1..]
        .iter()
        .map(|d| (d.split, split_binding(&d.command)))
        .collect();
    assert_eq!(
        splits,
        vec![
            (
                Some(S::DynamicConstantBuffer),
                Some((4, f.cb_dyn.raw(), InstanceId::RESOLVE_AT_EXECUTION))
            ),
            (
                Some(S::DynamicConstantBuffer),
                Some((6, f.cb_dyn2.raw(), InstanceId::RESOLVE_AT_EXECUTION))
            ),
        ]
    );

    // The same for vertex buffers and shader resources; a slot mapped in the list does not split.
    let list = legacy_list(&f, |c| {
        c.map(f.vb_dyn2, MapType::WriteDiscard, MapFlags::None)
            .unwrap(); // unmapped on drop
        c.set_vertex_buffers(0, &[vertex(f.vb_dyn), vertex(f.vb), vertex(f.vb_dyn2)]);
        c.set_shader_resources(
            Stage::Vertex,
            0,
            &[Some(f.sb_dyn_srv), Some(f.tex_srv), Some(f.sb_dyn_srv)],
        );
    });
    assert_eq!(
        split_counts(&list),
        counts(&[(S::DynamicVertexBuffer, 1), (S::DynamicShaderResource, 2)])
    );
    let slots: Vec<_> = list
        .segments()
        .filter_map(|s| match s {
            Segment::SplitPoint(d) => split_binding(&d.command).map(|(slot, ..)| slot),
            _ => None,
        })
        .collect();
    assert_eq!(slots, vec![0, 0, 2]);
}

#[test]
fn r_sp_1_segments_yield_one_split_point_per_split_point_in_order() {
    let f = Fixture::new();
    let mut inner = f.fast();
    inner.draw(3, 0);
    let inner = finish(&mut inner);
    let list = legacy_list(&f, |c| {
        c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
        c.draw(3, 0);
        c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0);
        c.set_render_targets(&[Some(f.rt_plain_rtv)], None);
        c.set_compute_unordered_access_views(0, &[Some(f.sb_uav)]);
        c.set_depth_stencil_state(Some(f.dss), 0);
        c.draw(3, 0);
        c.execute_command_list(&inner, RestoreState::Restore);
        c.set_index_buffer(Some(f.ib_dyn), Format::R16Uint, 0);
        c.set_vertex_buffers(0, &[vertex(f.vb_dyn)]);
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.sb_dyn_srv)]);
        c.set_shader_resources(Stage::Pixel, 1, &[Some(f.rt_srv)]);
        c.draw(3, 0);
    });
    let expected = vec![
        S::ClearRenderTarget,
        S::ClearDepthStencil,
        S::SetRenderTargets,
        S::SetUnorderedAccessViews,
        S::SetDepthStencilState,
        S::DynamicIndexBuffer,
        S::DynamicVertexBuffer,
        S::DynamicConstantBuffer,
        S::DynamicShaderResource,
        S::Decompression,
    ];
    assert_eq!(segment_split_points(&list), expected);
    let mut all = SplitCounts::default();
    for category in SplitCategory::ALL {
        all[category] = 1;
    }
    assert_eq!(split_counts(&list), all);

    // The segments cover every command once, in order: runs of commands, split points, nested.
    let segments: Vec<_> = list.segments().collect();
    let mut walked = Vec::new();
    let mut nested = 0;
    for segment in &segments {
        match segment {
            Segment::Commands(_) => {
                let run: Vec<_> = segment.commands().collect();
                assert!(!run.is_empty(), "no empty runs");
                assert!(run.iter().all(|d| d.split.is_none()));
                walked.extend(run.iter().map(|d| (d.offset, d.command)));
            }
            Segment::SplitPoint(d) => walked.push((d.offset, d.command)),
            Segment::Nested(d) => {
                assert!(
                    matches!(d.command, Command::ExecuteCommandList { list, restore: true } if list.header_ptr() == inner.header_ptr())
                );
                nested += 1;
                walked.push((d.offset, d.command));
            }
        }
    }
    assert_eq!(nested, 1);
    let direct: Vec<_> = list.commands().map(|d| (d.offset, d.command)).collect();
    assert_eq!(walked, direct);
}

#[test]
fn r_sp_1_segments_find_split_points_across_chunks() {
    let f = Fixture::with_policy(ChunkPolicy {
        chunk_size: 4096,
        growth: GrowthPolicy::Fixed,
        ..ChunkPolicy::default()
    });
    let list = legacy_list(&f, |c| {
        for i in 0..300 {
            c.clear_render_target_view(f.rt_rtv, [i as f32; 4]);
            c.draw(3, i);
            c.draw(3, i);
            c.set_constant_buffers(Stage::Pixel, i % 16, &[Some(f.cb_dyn)]);
        }
    });
    assert!(list.stats().chunks > 4, "{:?}", list.stats());
    assert_eq!(
        split_counts(&list),
        counts(&[(S::ClearRenderTarget, 300), (S::DynamicConstantBuffer, 300)])
    );
    let colours: Vec<f32> = list
        .segments()
        .filter_map(|s| match s {
            Segment::SplitPoint(Decoded {
                command: Command::ClearRenderTargetView { color, .. },
                ..
            }) => Some(color[0]),
            _ => None,
        })
        .collect();
    assert_eq!(colours, (0..300).map(|i| i as f32).collect::<Vec<_>>());
    let runs: usize = list
        .segments()
        .map(|s| match s {
            Segment::Commands(_) => s.commands().count(),
            _ => 1,
        })
        .sum();
    assert_eq!(runs, list.commands().count());
}

#[test]
fn r_sp_1_state_carried_by_restore_true_splits_again_in_the_next_list() {
    let f = Fixture::new();
    let mut c = f.legacy();
    for buffer in [f.vb_dyn, f.cb_dyn, f.sb_dyn] {
        c.map(buffer, MapType::WriteDiscard, MapFlags::None)
            .unwrap(); // unmapped on drop
    }
    c.set_vertex_buffers(0, &[vertex(f.vb_dyn)]);
    c.set_constant_buffers(Stage::Vertex, 2, &[Some(f.cb_dyn)]);
    // Not rt's SRV: binding rt_uav below would unbind it (R-ST-10).
    c.set_shader_resources(Stage::Pixel, 0, &[Some(f.sb_dyn_srv), Some(f.ds_srv)]);
    c.set_index_buffer(Some(f.ib_dyn), Format::R16Uint, 0);
    c.set_compute_unordered_access_views(0, &[Some(f.rt_uav)]);
    c.set_render_targets(&[Some(f.rt_plain_rtv)], None);
    c.set_depth_stencil_state(Some(f.dss), 0);
    let first = c.finish_command_list(RestoreState::Restore).unwrap();
    assert_eq!(
        split_counts(&first),
        counts(&[
            (S::SetRenderTargets, 1),
            (S::SetUnorderedAccessViews, 1),
            (S::SetDepthStencilState, 1),
            (S::DynamicIndexBuffer, 1),
            (S::Decompression, 2),
        ])
    );
    c.draw(3, 0);
    let second = finish(&mut c);
    assert_eq!(
        split_counts(&second),
        counts(&[
            (S::SetRenderTargets, 1),
            (S::SetUnorderedAccessViews, 1),
            (S::SetDepthStencilState, 1),
            (S::DynamicIndexBuffer, 1),
            (S::DynamicVertexBuffer, 1),
            (S::DynamicConstantBuffer, 1),
            (S::DynamicShaderResource, 1),
            (S::Decompression, 2),
        ]),
        "re-bound in a new list: the dynamic data stayed with the first list, and the targets \
         may have changed compression"
    );
}

// ----- R-SP-2 ----------------------------------------------------------------------------------

#[test]
fn r_sp_2_srv_of_a_compressible_render_target_or_depth_stencil_is_a_decompression_point() {
    let f = Fixture::new();
    for srv in [f.rt_srv, f.ds_srv] {
        let list = legacy_list(&f, |c| {
            c.set_shader_resources(Stage::Pixel, 2, &[Some(srv)])
        });
        assert_eq!(split_counts(&list), counts(&[(S::Decompression, 1)]));
        let splits: Vec<_> = list
            .segments()
            .filter_map(|s| match s {
                Segment::SplitPoint(d) => Some(d.command),
                _ => None,
            })
            .collect();
        assert!(
            matches!(splits[0], Command::SetShaderResources { start: 2, views, .. }
                if views.len() == 1 && views[0].view == srv.raw()),
            "{:?}",
            splits[0]
        );
    }
}

#[test]
fn r_sp_2_srv_of_a_back_buffer_is_a_decompression_point() {
    let f = Fixture::new();
    let (texture, _) = f.back_buffer();
    let srv = f
        .device
        .create_shader_resource_view(&ViewDesc::new("back_srv", texture))
        .unwrap();
    let list = legacy_list(&f, |c| {
        c.set_shader_resources(Stage::Pixel, 0, &[Some(srv)])
    });
    assert_eq!(split_counts(&list), counts(&[(S::Decompression, 1)]));
}

#[test]
fn r_sp_2_uav_of_a_compressible_render_target_is_a_decompression_point() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.set_compute_unordered_access_views(0, &[Some(f.rt_uav), Some(f.sb_uav)]);
    });
    assert_eq!(
        split_counts(&list),
        counts(&[(S::SetUnorderedAccessViews, 1), (S::Decompression, 1)])
    );
    let list = legacy_list(&f, |c| {
        c.set_render_targets_and_unordered_access_views(
            &[Some(f.rt_plain_rtv)],
            None,
            1,
            &[Some(f.sb_uav), Some(f.rt_uav)],
        );
    });
    assert_eq!(
        split_counts(&list),
        counts(&[
            (S::SetRenderTargets, 1),
            (S::SetUnorderedAccessViews, 1),
            (S::Decompression, 1)
        ])
    );
}

#[test]
fn r_sp_2_decompression_points_are_per_slot() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.set_shader_resources(
            Stage::Pixel,
            0,
            &[
                Some(f.rt_srv),
                Some(f.tex_srv),
                Some(f.ds_srv),
                Some(f.rt_srv),
            ],
        );
    });
    assert_eq!(split_counts(&list), counts(&[(S::Decompression, 3)]));
}

#[test]
fn r_sp_2_non_compressible_targets_and_plain_textures_need_no_decompression() {
    let f = Fixture::new();
    assert!(!f.device.texture_info(f.rt_plain).unwrap().compressible);
    assert!(!f.device.texture_info(f.ds_plain).unwrap().compressible);
    let list = legacy_list(&f, |c| {
        c.set_shader_resources(
            Stage::Pixel,
            0,
            &[Some(f.rt_plain_srv), Some(f.ds_plain_srv), Some(f.tex_srv)],
        );
        c.set_compute_unordered_access_views(0, &[Some(f.rt_plain_uav)]);
        // Render-target and depth-stencil views of compressible targets are not shader reads.
        c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
        c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    });
    assert_eq!(
        split_counts(&list),
        counts(&[
            (S::SetUnorderedAccessViews, 1),
            (S::SetRenderTargets, 1),
            (S::ClearRenderTarget, 1)
        ])
    );
}

// ----- R-SP-3 ----------------------------------------------------------------------------------

#[test]
fn r_sp_3_fast_contexts_record_zero_split_points() {
    let f = Fixture::new();
    let mut c = f.fast();
    c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0);
    c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    c.set_render_targets_and_unordered_access_views(
        &[Some(f.rt_plain_rtv)],
        None,
        1,
        &[Some(f.rt_uav)],
    );
    c.set_compute_unordered_access_views(0, &[Some(f.sb_uav), Some(f.rt_uav)]);
    c.set_depth_stencil_state(Some(f.dss), 0);
    for buffer in [f.ib_dyn, f.vb_dyn, f.cb_dyn, f.sb_dyn] {
        c.map(buffer, MapType::WriteDiscard, MapFlags::None)
            .unwrap(); // unmapped on drop
    }
    c.set_index_buffer(Some(f.ib_dyn), Format::R16Uint, 0);
    c.set_vertex_buffers(0, &[vertex(f.vb_dyn), vertex(f.vb)]);
    c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn), Some(f.cb)]);
    c.set_shader_resources(
        Stage::Pixel,
        0,
        &[Some(f.sb_dyn_srv), Some(f.rt_srv), Some(f.ds_srv)],
    );
    c.draw(3, 0);
    assert!(c.error().is_none(), "{:?}", c.error());
    assert_eq!(c.stats().split_points, SplitCounts::default());
    let list = finish(&mut c);
    assert_eq!(split_counts(&list), SplitCounts::default());
    assert!(list.commands().all(|d| d.split.is_none()));
    assert!(
        list.segments().all(|s| matches!(s, Segment::Commands(_))),
        "no split-point segment"
    );
    assert_eq!(
        list.stats().commands,
        16,
        "one command per call, no per-slot splits"
    );
}

#[test]
fn r_sp_3_fast_dynamic_bind_before_write_discard_is_dynamic_before_map() {
    for (category, _, bind) in dynamic_binds() {
        let f = Fixture::new();
        let mut c = f.fast();
        c.draw(3, 0);
        bind(&f, &mut c);
        assert_eq!(
            c.last_refusal().map(Error::kind),
            Some(ErrorKind::DynamicBeforeMap),
            "{category}"
        );
        assert_eq!(c.stats().commands, 1, "{category}: nothing encoded");
        expect_error(&mut c, ErrorKind::DynamicBeforeMap, 1);
    }
    // Also when the dynamic buffer is one slot of several, and when it was mapped in an
    // earlier list.
    let f = Fixture::new();
    let mut c = f.fast();
    c.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb_dyn)]);
    expect_error(&mut c, ErrorKind::DynamicBeforeMap, 0);
    c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .unwrap(); // unmapped on drop
    let _earlier = finish(&mut c);
    c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
    expect_error(&mut c, ErrorKind::DynamicBeforeMap, 0);
}

#[test]
fn r_sp_3_fast_decompression_is_explicit() {
    let f = Fixture::new();
    let mut c = f.fast();
    c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    c.decompress_resource(f.rt, None);
    c.decompress_resource(f.ds, Some(f.ds_plain));
    let list = finish(&mut c);
    assert_eq!(split_counts(&list), SplitCounts::default());
    let commands: Vec<_> = list.commands().map(|d| d.command).collect();
    assert_eq!(commands.len(), 3);
    assert!(
        matches!(commands[0], Command::SetShaderResources { views, .. } if views[0].view == f.rt_srv.raw())
    );
    assert!(
        matches!(commands[1], Command::DecompressResource { resource, into, .. } if resource == f.rt.raw() && into.is_null())
    );
    assert!(
        matches!(commands[2], Command::DecompressResource { resource, into, .. } if resource == f.ds.raw() && into == f.ds_plain.raw())
    );
}

// ----- R-SP-5 (recorded per list) --------------------------------------------------------------

#[test]
fn r_sp_5_split_points_are_counted_per_list_by_category() {
    let f = Fixture::new();
    let mut c = f.legacy();
    let record = |c: &mut DeferredContext, n: u32| {
        for _ in 0..n {
            c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
        }
        for _ in 0..2 * n {
            c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
        }
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    };
    record(&mut c, 2);
    assert_eq!(
        c.stats().split_points,
        counts(&[
            (S::ClearRenderTarget, 2),
            (S::DynamicConstantBuffer, 4),
            (S::Decompression, 1)
        ]),
        "counted while recording"
    );
    let first = finish(&mut c);
    record(&mut c, 3);
    let second = finish(&mut c);
    let a = split_counts(&first);
    let b = split_counts(&second);
    assert_eq!(
        a,
        counts(&[
            (S::ClearRenderTarget, 2),
            (S::DynamicConstantBuffer, 4),
            (S::Decompression, 1)
        ])
    );
    assert_eq!(
        b,
        counts(&[
            (S::ClearRenderTarget, 3),
            (S::DynamicConstantBuffer, 6),
            (S::Decompression, 1)
        ]),
        "each list counts its own"
    );
    assert_eq!(a.total(), 7);
    assert_eq!(b.total(), 10);
    assert_eq!(
        b.nonzero().collect::<Vec<_>>(),
        vec![
            (S::ClearRenderTarget, 3),
            (S::DynamicConstantBuffer, 6),
            (S::Decompression, 1)
        ]
    );
    let shown = b.to_string();
    assert!(shown.contains("total=10"), "{shown}");
    assert!(shown.contains("clear_render_target=3"), "{shown}");
    assert!(shown.contains("dynamic_constant_buffer=6"), "{shown}");
    let mut sum = a;
    sum.add(&b);
    assert_eq!(sum.total(), 17);
    assert_eq!(sum[S::DynamicConstantBuffer], 10);
}

#[test]
fn r_sp_5_categories_are_named_as_in_traces() {
    let names = [
        "clear_render_target",
        "clear_depth_stencil",
        "set_render_targets",
        "set_unordered_access_views",
        "set_depth_stencil_state",
        "dynamic_index_buffer",
        "dynamic_vertex_buffer",
        "dynamic_constant_buffer",
        "dynamic_shader_resource",
        "decompression",
    ];
    assert_eq!(SplitCategory::ALL.len(), SplitCategory::COUNT);
    assert_eq!(SplitCategory::COUNT, names.len());
    for (category, name) in SplitCategory::ALL.iter().zip(names) {
        assert_eq!(category.name(), name);
        assert_eq!(SplitCategory::from_name(name), Some(*category));
        assert_eq!(category.to_string(), name);
        assert_eq!(category.is_dynamic(), name.starts_with("dynamic_"));
    }
    assert_eq!(SplitCategory::from_name("dynamic"), None);
}

#[test]
fn r_sp_2_an_output_merger_uav_cut_out_as_a_split_point_re_binds_its_own_slot_only() {
    let f = Fixture::new();
    let list = legacy_list(&f, |c| {
        c.set_render_targets_and_unordered_access_views(
            &[Some(f.rt_plain_rtv)],
            None,
            1,
            &[Some(f.sb_uav), Some(f.rt_uav)],
        );
    });
    let uav_binds: Vec<(u32, usize, bool, Option<SplitCategory>)> = list
        .commands()
        .filter_map(|d: Decoded<'_>| match d.command {
            Command::SetRenderTargets {
                uavs: Some(views),
                uav_start,
                uav_patch,
                ..
            } => Some((uav_start, views.len(), uav_patch, d.split)),
            _ => None,
        })
        .collect();
    // The call's own bind (unbinding the other OM UAV slots, the compressible one left null),
    // then the compressible slot alone, marked as a patch so it unbinds nothing.
    assert_eq!(
        uav_binds,
        vec![
            (1, 2, false, Some(S::SetUnorderedAccessViews)),
            (2, 1, true, Some(S::Decompression)),
        ]
    );
}
