//! R-OBJ-3, device identity: a handle of one device used on another is refused
//! (`invalid_argument`, naming both devices) and never reaches, binds or releases the other
//! device's object in the same slot.
//!
//! Every test makes two fixtures in the same order, so that each handle of the foreign device
//! has the index (and, were it not for the device's tag, the generation) of the home device's
//! object of the same name: a handle that carried no device identity would bind that object.

mod common;

use common::*;
use recorder::*;

/// Two devices holding the same objects, made in the same order.
fn pair() -> (Fixture, Fixture) {
    (Fixture::new(), Fixture::new())
}

/// The refusal is `invalid_argument` and its message names both devices and the rule.
#[track_caller]
fn assert_foreign(error: Option<&Error>, home: &Device, foreign: &Device, what: &str) {
    let Some(error) = error else {
        panic!("{what}: accepted")
    };
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{what}: {error}");
    match error {
        Error::ForeignHandle { expected, .. } => assert_eq!(*expected, home.serial(), "{what}"),
        Error::WrongDevice {
            device, expected, ..
        } => assert_eq!(
            (*device, *expected),
            (foreign.serial(), home.serial()),
            "{what}"
        ),
        _ => panic!("{what}: not a refusal of another device's object: {error}"),
    }
    // The message names both devices and the rule (R-REC-8).
    let message = error.to_string();
    for device in [home, foreign] {
        let name = format!("device #{}", device.serial());
        assert!(message.contains(&name), "{what}: '{message}' names {name}");
    }
    assert!(message.contains("R-OBJ-3"), "{what}: '{message}'");
}

type Case = (&'static str, fn(&Fixture, &mut DeferredContext));

/// Calls that each pass one handle of the foreign fixture `g` (everything else is the home
/// device's, from the context's own fixture, which the case does not see).
fn foreign_cases() -> Vec<Case> {
    vec![
        ("set_vertex_buffers", |g, c| {
            c.set_vertex_buffers(0, &[vertex(g.vb)])
        }),
        ("set_index_buffer", |g, c| {
            c.set_index_buffer(Some(g.ib), Format::R16Uint, 0)
        }),
        ("set_constant_buffers", |g, c| {
            c.set_constant_buffers(Stage::Pixel, 0, &[Some(g.cb)])
        }),
        ("set_shader_resources", |g, c| {
            c.set_shader_resources(Stage::Pixel, 0, &[Some(g.tex_srv)])
        }),
        ("set_samplers", |g, c| {
            c.set_samplers(Stage::Pixel, 0, &[Some(g.sampler)])
        }),
        ("set_shader", |g, c| c.set_shader(Stage::Vertex, Some(g.vs))),
        ("set_input_layout", |g, c| {
            c.set_input_layout(Some(g.layout))
        }),
        ("set_render_targets rtv", |g, c| {
            c.set_render_targets(&[Some(g.rt_plain_rtv)], None)
        }),
        ("set_render_targets dsv", |g, c| {
            c.set_render_targets(&[], Some(g.ds_dsv))
        }),
        ("set_render_targets_and_unordered_access_views", |g, c| {
            c.set_render_targets_and_unordered_access_views(&[], None, 1, &[Some(g.sb_uav)])
        }),
        ("set_compute_unordered_access_views", |g, c| {
            c.set_compute_unordered_access_views(0, &[Some(g.sb_uav)])
        }),
        ("set_blend_state", |g, c| {
            c.set_blend_state(Some(g.blend), [1.0; 4], u32::MAX)
        }),
        ("set_depth_stencil_state", |g, c| {
            c.set_depth_stencil_state(Some(g.dss), 0)
        }),
        ("set_rasterizer_state", |g, c| {
            c.set_rasterizer_state(Some(g.raster))
        }),
        ("set_predication", |g, c| {
            c.set_predication(Some(g.predicate), PredicateValue::True)
        }),
        ("begin_query", |g, c| c.begin_query(g.occlusion)),
        ("end_query", |g, c| c.end_query(g.occlusion)),
        ("write_query", |g, c| c.write_query(g.occlusion)),
        ("reset_query", |g, c| c.reset_query(g.occlusion)),
        ("configure_query", |g, c| {
            c.configure_query(g.occlusion, QueryMode::Binary)
        }),
        ("set_predication_from_query", |g, c| {
            c.set_predication_from_query(Some(g.occlusion), PredicateValue::True)
        }),
        ("clear_render_target_view", |g, c| {
            c.clear_render_target_view(g.rt_rtv, [0.0; 4])
        }),
        ("clear_depth_stencil_view", |g, c| {
            c.clear_depth_stencil_view(g.ds_dsv, ClearFlags::DEPTH, 1.0, 0)
        }),
        // `map` answers the caller too (an `Option` or a `Result`); the refusal is what counts.
        ("map", |g, c| {
            let _ = c
                .map(g.cb_dyn, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped);
        }),
        ("unmap", |g, c| c.unmap(g.cb_dyn)),
        ("draw_instanced_indirect", |g, c| {
            c.draw_instanced_indirect(g.args, 0)
        }),
        ("draw_indexed_instanced_indirect", |g, c| {
            c.draw_indexed_instanced_indirect(g.args, 0)
        }),
        ("dispatch_indirect", |g, c| c.dispatch_indirect(g.args, 0)),
        ("decompress_resource", |g, c| {
            c.decompress_resource(g.rt, None)
        }),
        ("set_resource_compression", |g, c| {
            c.set_resource_compression(g.ds, Compression::Decompressed)
        }),
        ("set_resource_min_lod", |g, c| {
            c.set_resource_min_lod(g.tex, 1.0)
        }),
        ("set_shader_resource_view_min_lod", |g, c| {
            c.set_shader_resource_view_min_lod(g.tex_srv, 1.0)
        }),
        ("insert_wait_on_present", |g, c| {
            c.insert_wait_on_present(g.chain)
        }),
        ("write_value_bottom_of_pipe", |g, c| {
            c.write_value_bottom_of_pipe(g.args, 0, 1)
        }),
        ("insert_wait_on_memory", |g, c| {
            c.insert_wait_on_memory(g.args, 0, 1)
        }),
        ("read_gds", |g, c| c.read_gds(0, 1, g.args, 0)),
        ("load_constant_ram", |g, c| {
            c.load_constant_ram(g.args, 0, 0, 4)
        }),
        ("store_constant_ram", |g, c| {
            c.store_constant_ram(g.args, 0, 0, 4)
        }),
    ]
}

#[test]
fn r_obj_3_a_foreign_handle_is_refused_by_every_call_of_a_deferred_context() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for (name, case) in foreign_cases() {
            let (f, g) = pair();
            let before = f.references();
            let mut context = f.context(semantics);
            case(&g, &mut context);
            let what = format!("{semantics:?} {name}");
            assert_foreign(context.last_refusal(), &f.device, &g.device, &what);
            assert_eq!(context.stats().commands, 0, "{what}: nothing encoded");
            assert_eq!(
                f.references(),
                before,
                "{what}: no reference taken on the home device's object in the same slot"
            );
            match context.finish_command_list(RestoreState::ClearState) {
                // A refused map is reported to its caller and does not poison the list (R-REC-8).
                Ok(_) if name == "map" => {}
                Ok(_) => panic!("{what}: the list finished without error"),
                Err(error) => {
                    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{what}: {error}");
                    assert_eq!(error.call_index, 0, "{what}");
                }
            }
        }
    }
}

#[test]
fn r_obj_3_legacy_only_calls_refuse_foreign_handles() {
    let (f, g) = pair();
    let mut context = f.legacy();
    context.update_subresource(g.cb, &[1, 2, 3, 4]);
    assert_foreign(
        context.last_refusal(),
        &f.device,
        &g.device,
        "update_subresource",
    );

    let mut context = f.legacy();
    context.copy_structure_count(g.args, 0, f.append_uav);
    let what = "copy_structure_count destination";
    assert_foreign(context.last_refusal(), &f.device, &g.device, what);

    let mut context = f.legacy();
    context.copy_structure_count(f.args, 0, g.append_uav);
    let what = "copy_structure_count view";
    assert_foreign(context.last_refusal(), &f.device, &g.device, what);
}

#[test]
fn r_obj_3_copies_refuse_a_foreign_source_or_destination() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let (f, g) = pair();
        let before = f.references();
        let cases: [(&str, Resource, Resource); 4] = [
            ("buffer destination", g.copy_a.into(), f.copy_b.into()),
            ("buffer source", f.copy_a.into(), g.copy_b.into()),
            ("texture destination", g.tex.into(), f.tex2.into()),
            ("texture source", f.tex.into(), g.tex2.into()),
        ];
        for (name, destination, source) in cases {
            let mut context = f.context(semantics);
            context.copy_resource(destination, source);
            let what = format!("{semantics:?} copy_resource {name}");
            assert_foreign(context.last_refusal(), &f.device, &g.device, &what);
            assert_eq!(context.stats().commands, 0, "{what}: nothing encoded");
        }
        assert_eq!(f.references(), before, "{semantics:?}: no reference taken");
    }
}

#[test]
fn r_obj_3_creating_a_view_of_a_foreign_resource_is_invalid_argument() {
    let (f, g) = pair();
    let d = &f.device;
    let views = f.device.live_objects(ObjectKind::ShaderResourceView);
    let refusals = [
        (
            "create_shader_resource_view buffer",
            d.create_shader_resource_view(&ViewDesc::new("srv", g.sb))
                .err(),
        ),
        (
            "create_shader_resource_view texture",
            d.create_shader_resource_view(&ViewDesc::new("srv", g.tex))
                .err(),
        ),
        (
            "create_unordered_access_view",
            d.create_unordered_access_view(&ViewDesc::new("uav", g.sb))
                .err(),
        ),
        (
            "create_render_target_view",
            d.create_render_target_view(&ViewDesc::new("rtv", g.rt_plain))
                .err(),
        ),
        (
            "create_depth_stencil_view",
            d.create_depth_stencil_view(&ViewDesc::new("dsv", g.ds_plain))
                .err(),
        ),
    ];
    for (what, error) in refusals {
        assert_foreign(error.as_ref(), &f.device, &g.device, what);
    }
    assert_eq!(d.live_objects(ObjectKind::ShaderResourceView), views);
    assert_eq!(
        d.references(f.sb),
        Some(2),
        "f.sb keeps its own two views only"
    );
}

#[test]
fn r_obj_3_releasing_a_foreign_handle_leaves_this_devices_object_alive() {
    let (f, g) = pair();
    let d = &f.device;
    d.release(g.vb);
    d.release(g.tex);
    d.release(g.tex_srv);
    d.release(g.rt_rtv);
    d.release(g.ds_dsv);
    d.release(g.sb_uav);
    d.release(g.vs);
    d.release(g.layout);
    d.release(g.blend);
    d.release(g.raster);
    d.release(g.dss);
    d.release(g.sampler);
    d.release(g.predicate);
    d.release(g.chain);
    assert!(d.is_alive(f.vb));
    assert!(d.is_alive(f.tex));
    assert!(d.is_alive(f.tex_srv));
    assert!(d.is_alive(f.rt_rtv));
    assert!(d.is_alive(f.ds_dsv));
    assert!(d.is_alive(f.sb_uav));
    assert!(d.is_alive(f.vs));
    assert!(d.is_alive(f.layout));
    assert!(d.is_alive(f.blend));
    assert!(d.is_alive(f.raster));
    assert!(d.is_alive(f.dss));
    assert!(d.is_alive(f.sampler));
    assert!(d.is_alive(f.predicate));
    assert!(d.is_alive(f.chain));
    let (back_buffer, back_buffer_rtv) = f.back_buffer();
    assert!(d.is_alive(back_buffer) && d.is_alive(back_buffer_rtv));
    assert_eq!(
        d.process_deferred_releases(),
        0,
        "nothing was released here"
    );
    // And the foreign device's objects are untouched too: they are released on their own device.
    assert!(g.device.is_alive(g.vb));
    // Still usable: the home device's objects bind as before.
    let mut context = f.fast();
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    context.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv)]);
    finish(&mut context);
}

#[test]
fn r_obj_3_a_foreign_handle_reads_nothing_of_this_devices_objects() {
    let (f, g) = pair();
    let d = &f.device;
    assert!(d.owns(f.vb) && !d.owns(g.vb));
    assert!(!d.is_alive(g.vb));
    assert_eq!(d.buffer_info(g.vb), None);
    assert_eq!(d.texture_info(g.tex), None);
    assert_eq!(d.view_info(g.tex_srv), None);
    assert_eq!(d.references(g.tex), None);
    assert_eq!(d.name_of(g.vb), None);
    assert!(d.swap_chain_info(g.chain).is_none());
}

#[test]
fn r_obj_3_a_released_handle_is_still_released_object_on_its_own_device() {
    let (f, g) = pair();
    f.device.release(f.vb);
    let mut context = f.fast();
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    assert_eq!(
        context.last_refusal().map(Error::kind),
        Some(ErrorKind::ReleasedObject)
    );
    // The foreign device's live buffer in the same slot is foreign, not released.
    let mut context = f.fast();
    context.set_vertex_buffers(0, &[vertex(g.vb)]);
    assert_foreign(context.last_refusal(), &f.device, &g.device, "foreign");
}

#[test]
fn r_obj_3_live_devices_have_distinct_identities() {
    let devices: Vec<Device> = (0..8).map(|_| Device::new(DeviceDesc::default())).collect();
    for (i, a) in devices.iter().enumerate() {
        for b in &devices[i + 1..] {
            assert_ne!(a.serial(), b.serial());
        }
    }
    // A device made after others were dropped still refuses a handle of a live one.
    let survivor = Fixture::new();
    drop(devices);
    let newcomer = Fixture::new();
    let mut context = newcomer.fast();
    context.set_vertex_buffers(0, &[vertex(survivor.vb)]);
    assert_foreign(
        context.last_refusal(),
        &newcomer.device,
        &survivor.device,
        "newcomer",
    );
}

#[test]
fn r_obj_3_a_list_of_another_device_is_refused_naming_both_devices() {
    let (f, g) = pair();
    let mut foreign = g.fast();
    foreign.draw(3, 0);
    let list = finish(&mut foreign);
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut context = f.context(semantics);
        context.execute_command_list(&list, RestoreState::ClearState);
        let what = format!("{semantics:?} execute_command_list");
        assert_foreign(context.last_refusal(), &f.device, &g.device, &what);
    }
}
