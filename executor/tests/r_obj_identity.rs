//! R-OBJ-3 on the immediate context: a handle of another device is refused (`invalid_argument`,
//! naming both devices) by its direct calls, its maps and `present`, and never reaches the
//! object of its own device in the same slot.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

/// The refusal is `invalid_argument` naming both devices.
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
    // The message names both devices (R-REC-8).
    let message = error.to_string();
    for device in [home, foreign] {
        let name = format!("device #{}", device.serial());
        assert!(message.contains(&name), "{what}: '{message}' names {name}");
    }
}

type Case = (&'static str, fn(&Fixture, &mut ImmediateContext));

fn foreign_cases() -> Vec<Case> {
    vec![
        ("set_vertex_buffers", |g, imm| {
            imm.set_vertex_buffers(0, &[vertex(g.vb)])
        }),
        ("set_constant_buffers", |g, imm| {
            imm.set_constant_buffers(Stage::Vertex, 0, &[Some(g.cb)])
        }),
        ("set_shader_resources", |g, imm| {
            imm.set_shader_resources(Stage::Pixel, 0, &[Some(g.tex_srv)])
        }),
        ("set_shader", |g, imm| {
            imm.set_shader(Stage::Vertex, Some(g.vs))
        }),
        ("set_render_targets", |g, imm| {
            imm.set_render_targets(&[Some(g.rt_plain_rtv)], None)
        }),
        ("clear_render_target_view", |g, imm| {
            imm.clear_render_target_view(g.rt_rtv, [0.0; 4])
        }),
        ("draw_instanced_indirect", |g, imm| {
            imm.draw_instanced_indirect(g.args, 0)
        }),
        ("decompress_resource", |g, imm| {
            imm.decompress_resource(g.rt, None)
        }),
    ]
}

#[test]
fn r_obj_3_the_immediate_context_refuses_foreign_handles() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for (name, case) in foreign_cases() {
            let f = Fixture::with_immediate(semantics);
            let g = Fixture::with_immediate(semantics);
            let mut imm = ImmediateContext::new(&f.device).unwrap();
            case(&g, &mut imm);
            let what = format!("{semantics:?} {name}");
            assert_foreign(imm.last_refusal(), &f.device, &g.device, &what);
            if semantics == Semantics::Legacy {
                let bound = imm.get_constant_buffer(Stage::Vertex, 0).map(|b| b.raw());
                assert!(bound.is_some_and(|b| b.is_null()), "{what}: {bound:?}");
                let bound = imm.get_shader(Stage::Vertex).map(|s| s.raw());
                assert!(bound.is_some_and(|s| s.is_null()), "{what}: {bound:?}");
            }
        }
    }
}

#[test]
fn r_obj_3_immediate_maps_and_presents_refuse_foreign_handles() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let g = Fixture::with_immediate(Semantics::Legacy);
    let staging = |fixture: &Fixture| {
        let desc = BufferDesc {
            name: "staging",
            size: 64,
            usage: Usage::Staging,
            ..Default::default()
        };
        fixture.device.create_buffer(&desc).unwrap()
    };
    let (_, foreign_staging) = (staging(&f), staging(&g));
    let (_, foreign_chain) = (swap_chain(&f), swap_chain(&g));
    let mut imm = ImmediateContext::new(&f.device).unwrap();

    let error = imm
        .map(foreign_staging, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .err();
    assert_foreign(error.as_ref(), &f.device, &g.device, "map read");
    let error = imm
        .map(g.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .err();
    assert_foreign(error.as_ref(), &f.device, &g.device, "map write_discard");
    let error = imm.present(foreign_chain).err();
    assert_foreign(error.as_ref(), &f.device, &g.device, "present");
}

#[test]
fn r_obj_3_the_immediate_context_refuses_lists_and_bundles_of_another_device() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let g = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = g.fast(|c| c.draw(3, 0));
    let error = imm
        .execute_command_list(&list, RestoreState::ClearState)
        .err();
    assert_foreign(error.as_ref(), &f.device, &g.device, "execute_command_list");
    // An empty bundle: nothing mandatory to set (R-B-3).
    let mut recorder = bundles::BundleRecorder::new(
        &g.device,
        &bundles::BundleDesc::new("bundle", &[Format::R8G8B8A8Unorm]),
    )
    .unwrap();
    let error = match recorder.finish() {
        Ok(bundle) => imm.draw_bundle(&bundle).err(),
        Err(error) => panic!("finish: {error}"),
    };
    assert_foreign(error.as_ref(), &f.device, &g.device, "draw_bundle");
}
