//! "Every refusal names the call and the rule": each refusal of the recording and
//! creation API names the call it refuses and cites, by its SPEC.md id, the requirement the
//! call breaks (R-REC-8: the error is what the application sees of a refused call). One case
//! per construction site that the random misuse test (`executor/tests/misuse.rs`) may not reach.

mod common;

use common::*;
use recorder::*;

/// A refusal of `call` that must cite `rule`.
#[track_caller]
fn assert_cites(call: &str, rule: &str, error: Option<Error>) {
    let Some(error) = error else {
        panic!("{call}: accepted, expected a refusal citing {rule}")
    };
    let message = error.to_string();
    assert!(message.contains(call), "{call}: not named in '{message}'");
    assert!(
        message.contains(rule),
        "{call}: '{message}' cites no {rule}"
    );
}

type RecordCase = (
    &'static str,
    &'static str,
    fn(&Fixture, &mut DeferredContext),
);

/// Calls refused on a legacy deferred context: (call, requirement, the call).
fn recording_cases() -> Vec<RecordCase> {
    vec![
        ("draw_instanced_indirect", "R-REC-5", |f, c| {
            c.draw_instanced_indirect(f.args, 2)
        }),
        ("clear_depth_stencil_view", "R-REC-5", |f, c| {
            c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 2.0, 0)
        }),
        ("copy_resource", "R-REC-5", |f, c| {
            c.copy_resource(f.copy_a, f.tex)
        }),
        ("copy_resource", "R-BAR-7", |f, c| {
            c.copy_resource(f.copy_a, f.copy_a)
        }),
        ("copy_resource", "R-OBJ-2", |f, c| {
            c.copy_resource(f.vb, f.vb2)
        }),
        ("copy_buffer_region", "R-BAR-7", |f, c| {
            c.copy_buffer_region(f.copy_a, 16, f.copy_a, 0, 32)
        }),
        ("copy_buffer_region", "R-BAR-7", |f, c| {
            c.copy_buffer_region(f.copy_a, 0, f.copy_b, 250, 16)
        }),
        ("copy_buffer_region", "R-OBJ-2", |f, c| {
            c.copy_buffer_region(f.vb, 0, f.copy_a, 0, 16)
        }),
        ("copy_texture_region", "R-BAR-7", |f, c| {
            let quarter = CopyBox {
                left: 0,
                top: 0,
                right: 32,
                bottom: 32,
            };
            c.copy_texture_region(f.tex, 0, 8, 8, f.tex, 0, quarter)
        }),
        ("copy_texture_region", "R-BAR-7", |f, c| {
            let past = CopyBox {
                left: 0,
                top: 0,
                right: 65,
                bottom: 1,
            };
            c.copy_texture_region(f.tex2, 0, 0, 0, f.tex, 0, past)
        }),
        ("copy_resource", "R-REC-5", |f, c| {
            let small = f
                .device
                .create_buffer(&BufferDesc {
                    name: "small",
                    size: 16,
                    usage: Usage::Default,
                    bind: BindFlags::NONE,
                    uav_flag: UavFlag::None,
                    placement: None,
                })
                .expect("small buffer");
            c.copy_resource(f.copy_a, small)
        }),
        ("update_subresource", "R-OBJ-2", |f, c| {
            c.update_subresource(f.cb_dyn, &[0; 16])
        }),
        ("update_subresource", "R-REC-5", |f, c| {
            c.update_subresource(f.cb, &[0; 300])
        }),
        ("copy_structure_count", "R-OBJ-2", |f, c| {
            c.copy_structure_count(f.args, 0, f.sb_uav)
        }),
        ("decompress_resource", "R-ST-9", |f, c| {
            c.decompress_resource(f.rt, Some(f.rt))
        }),
        ("decompress_resource", "R-ST-9", |f, c| {
            let small = f
                .device
                .create_texture(&TextureDesc {
                    name: "small",
                    format: Format::R8G8B8A8Unorm,
                    width: 8,
                    height: 8,
                    bind: BindFlags::RENDER_TARGET,
                    ..Default::default()
                })
                .expect("small texture");
            c.decompress_resource(f.rt, Some(small))
        }),
        ("set_resource_min_lod", "R-ST-6", |f, c| {
            c.set_resource_min_lod(f.tex, -1.0)
        }),
        ("insert_wait_on_fence", "R-EX-5", |_, c| {
            c.insert_wait_on_fence(Engine::Graphics, u64::MAX)
        }),
        ("write_value_bottom_of_pipe", "R-EX-5", |f, c| {
            c.write_value_bottom_of_pipe(f.args, 3, 1)
        }),
        ("insert_wait_on_memory", "R-EX-5", |f, c| {
            c.insert_wait_on_memory(f.args, 256, 1)
        }),
        ("set_gds_range", "R-FX-4", |_, c| {
            c.set_gds_range(Stage::Vertex, 0, 64)
        }),
        ("write_gds", "R-FX-4", |_, c| c.write_gds(65536, &[1])),
        ("read_gds", "R-FX-4", |f, c| c.read_gds(0, 1, f.args, 256)),
        ("read_gds", "R-FX-4", |f, c| c.read_gds(0, 1, f.vb, 0)),
        ("load_constant_ram", "R-FX-5", |f, c| {
            c.load_constant_ram(f.args, 0, 49152, 4)
        }),
        ("store_constant_ram", "R-FX-5", |f, c| {
            c.store_constant_ram(f.args, 2, 0, 4)
        }),
        ("set_index_buffer", "R-REC-5", |f, c| {
            c.set_index_buffer(Some(f.ib), Format::R8G8B8A8Unorm, 0)
        }),
        ("set_shader", "R-OBJ-2", |f, c| {
            c.set_shader(Stage::Pixel, Some(f.vs))
        }),
        ("set_constant_buffers", "R-OBJ-2", |f, c| {
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.vb)])
        }),
        (
            "set_render_targets_and_unordered_access_views",
            "R-OBJ-5",
            |f, c| {
                c.set_render_targets_and_unordered_access_views(
                    &[Some(f.rt_rtv)],
                    None,
                    0,
                    &[Some(f.sb_uav)],
                )
            },
        ),
        ("set_predication", "R-FX-3", |f, c| {
            c.set_predication(Some(f.occlusion), PredicateValue::True)
        }),
        ("unmap", "R-REC-5", |f, c| c.unmap(f.cb_dyn)),
        ("map", "R-REC-11", |f, c| {
            let _ = c
                .map(f.tex, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped);
        }),
        ("map", "R-REC-5", |f, c| {
            let _ = c
                .map(f.cb, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped);
        }),
        ("map", "R-REC-5", |f, c| {
            let _ = c
                .map(f.cb, MapType::WriteNoOverwrite, MapFlags::None)
                .map(Mapped::keep_mapped);
        }),
        ("map", "R-REC-11", |f, c| {
            let _ = c
                .map(f.cb_dyn, MapType::Read, MapFlags::None)
                .map(Mapped::keep_mapped);
        }),
        ("map", "R-REC-5", |f, c| {
            let _ = c
                .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped);
            let _ = c
                .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped);
        }),
    ]
}

#[test]
fn r_rec_8_every_recording_refusal_cites_its_requirement() {
    let f = Fixture::new();
    for (call, rule, case) in recording_cases() {
        let mut context = f.legacy();
        case(&f, &mut context);
        assert_cites(call, rule, context.last_refusal().cloned());
    }
}

#[test]
fn r_rec_6_finish_with_a_mapped_buffer_cites_its_requirement() {
    let f = Fixture::new();
    let mut context = f.legacy();
    let mapped = context
        .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok();
    assert!(mapped, "fixture: map cb_dyn");
    let error = context
        .finish_command_list(RestoreState::ClearState)
        .err()
        .map(|e| e.error);
    assert_cites("finish_command_list", "R-REC-6", error);
}

#[test]
fn r_obj_2_every_creation_refusal_cites_its_requirement() {
    let f = Fixture::new();
    let d = &f.device;
    let buffer = |size, bind, uav_flag| BufferDesc {
        name: "bad",
        size,
        usage: Usage::Default,
        bind,
        uav_flag,
        placement: None,
    };
    let cases: Vec<(&str, &str, Option<Error>)> = vec![
        (
            "create_buffer",
            "R-OBJ-2",
            d.create_buffer(&buffer(0, BindFlags::VERTEX, UavFlag::None))
                .err(),
        ),
        (
            "create_buffer",
            "R-OBJ-2",
            d.create_buffer(&buffer(16, BindFlags::VERTEX, UavFlag::Append))
                .err(),
        ),
        (
            "create_buffer",
            "R-OBJ-2",
            d.create_buffer(&buffer(16, BindFlags::RENDER_TARGET, UavFlag::None))
                .err(),
        ),
        (
            "create_texture",
            "R-OBJ-2",
            d.create_texture(&TextureDesc {
                name: "flat",
                width: 0,
                ..Default::default()
            })
            .err(),
        ),
        (
            "create_texture",
            "R-OBJ-2",
            d.create_texture(&TextureDesc {
                name: "odd",
                width: 4,
                height: 4,
                sample_count: 3,
                ..Default::default()
            })
            .err(),
        ),
        (
            "create_texture",
            "R-OBJ-2",
            d.create_texture(&TextureDesc {
                name: "vertex texture",
                width: 4,
                height: 4,
                bind: BindFlags::VERTEX,
                ..Default::default()
            })
            .err(),
        ),
        (
            "create_render_target_view",
            "R-OBJ-2",
            d.create_render_target_view(&ViewDesc::new("rtv", f.args))
                .err(),
        ),
        (
            "create_shader_resource_view",
            "R-OBJ-2",
            d.create_shader_resource_view(&ViewDesc::new("srv", f.args))
                .err(),
        ),
        (
            "create_shader",
            "R-OBJ-2",
            d.create_shader(&ShaderDesc {
                stream_output: true,
                ..ShaderDesc::new("so_ps", Stage::Pixel)
            })
            .err(),
        ),
        (
            "create_shader",
            "R-OBJ-5",
            d.create_shader(&ShaderDesc {
                unordered_access_views: Slots::of(&[40]),
                ..ShaderDesc::new("wide_ps", Stage::Pixel)
            })
            .err(),
        ),
        (
            "create_deferred_context",
            "R-EX-5",
            d.create_deferred_context(&DeferredContextDesc {
                name: "legacy compute",
                semantics: Semantics::Legacy,
                engine: Engine::Compute,
                ..Default::default()
            })
            .err(),
        ),
    ];
    for (call, rule, error) in cases {
        assert_cites(call, rule, error);
    }
}
