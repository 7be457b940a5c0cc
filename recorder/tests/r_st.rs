//! Requirement tests for what deferred contexts record of SPEC §5's state rules: a legacy list's
//! last dynamic instances (R-ST-8) and texture-compatible targets' views (R-ST-9).

mod common;

use common::*;
use recorder::*;

fn write_discard(context: &mut DeferredContext, buffer: Buffer) {
    let _ = context
        .map(buffer, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped);
    context.unmap(buffer);
}

fn last(list: &CommandList) -> Vec<(RawHandle, command::InstanceId)> {
    let mut table: Vec<_> = list
        .last_instances()
        .iter()
        .map(|l| (l.resource, l.instance))
        .collect();
    table.sort();
    table
}

#[test]
fn r_st_8_a_legacy_list_records_its_last_instance_of_each_buffer_a_fast_list_none() {
    let f = Fixture::new();
    let mut legacy = f.legacy();
    write_discard(&mut legacy, f.cb_dyn);
    write_discard(&mut legacy, f.vb_dyn);
    write_discard(&mut legacy, f.cb_dyn);
    let list = finish(&mut legacy);
    let maps = write_discards(&list);
    let mut expected = vec![(maps[1].0, maps[1].1), (maps[2].0, maps[2].1)];
    expected.sort();
    assert_eq!(last(&list), expected, "the last map of each buffer");
    // The table is the list's own: the next list starts empty.
    assert!(finish(&mut legacy).last_instances().is_empty());

    let mut fast = f.fast();
    write_discard(&mut fast, f.cb_dyn);
    assert!(
        finish(&mut fast).last_instances().is_empty(),
        "a fast list's maps revert"
    );
}

#[test]
fn r_st_8_a_nested_legacy_list_s_instance_is_the_outer_list_s_last_unless_mapped_after() {
    let f = Fixture::new();
    let mut inner = f.legacy();
    write_discard(&mut inner, f.cb_dyn);
    let inner = finish(&mut inner);
    let inner_instance = inner.last_instances()[0].instance;
    let mut outer = f.legacy();
    write_discard(&mut outer, f.cb_dyn);
    outer.execute_command_list(&inner, RestoreState::ClearState);
    // The outer context reads the nested list's instance now: no split point for the bind.
    outer.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
    let list = finish(&mut outer);
    assert_eq!(last(&list), vec![(f.cb_dyn.raw(), inner_instance)]);
    assert_eq!(list.stats().split_points.total(), 0);

    let mut outer = f.legacy();
    outer.execute_command_list(&inner, RestoreState::ClearState);
    write_discard(&mut outer, f.cb_dyn);
    let list = finish(&mut outer);
    let own = write_discards(&list)[0].1;
    assert_eq!(last(&list), vec![(f.cb_dyn.raw(), own)]);
}

#[test]
fn r_st_9_an_srv_of_a_tc_target_makes_no_decompression_split_point_its_uav_does() {
    let f = Fixture::new();
    let tc = f
        .device
        .create_texture(&TextureDesc {
            name: "tc",
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET
                | BindFlags::SHADER_RESOURCE
                | BindFlags::UNORDERED_ACCESS,
            texture_compatible: true,
            ..Default::default()
        })
        .unwrap();
    let srv = f
        .device
        .create_shader_resource_view(&ViewDesc::new("tc_srv", tc))
        .unwrap();
    let uav = f
        .device
        .create_unordered_access_view(&ViewDesc::new("tc_uav", tc))
        .unwrap();
    let mut legacy = f.legacy();
    legacy.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    let list = finish(&mut legacy);
    assert_eq!(list.stats().split_points[SplitCategory::Decompression], 0);
    legacy.set_compute_unordered_access_views(0, &[Some(uav)]);
    let list = finish(&mut legacy);
    assert_eq!(list.stats().split_points[SplitCategory::Decompression], 1);
}
