//! R-OBJ-3 on a bundle recorder: a handle of another device is refused (`invalid_argument`,
//! naming both devices) before any bundle rule looks at the object, and never reaches the
//! recorder's device's object in the same slot.

mod common;

use bundles::BundleRecorder;
use common::*;
use recorder::*;

fn vertex(buffer: Buffer) -> VertexBuffer {
    VertexBuffer {
        buffer: Some(buffer),
        stride: 16,
        offset: 0,
    }
}

/// The texture a view of `g` is a view of.
fn texture_of(g: &Fixture, view: ShaderResourceView) -> Texture {
    match g.device.view_info(view).map(|info| info.resource) {
        Some(Resource::Texture(texture)) => texture,
        other => panic!("{view:?} is a view of {other:?}"),
    }
}

/// A call on a recorder that passes one handle of the foreign fixture.
type Case = (&'static str, fn(&Fixture, &mut BundleRecorder));

fn foreign_cases() -> Vec<Case> {
    vec![
        ("set_input_layout", |g, r| {
            r.set_input_layout(Some(g.layout))
        }),
        ("set_shader", |g, r| r.set_shader(Stage::Vertex, Some(g.vs))),
        // The stream-output shader would be `stream_output_in_bundle` were it this device's.
        ("set_shader stream output", |g, r| {
            r.set_shader(Stage::Geometry, Some(g.so_gs))
        }),
        ("set_vertex_buffers", |g, r| {
            r.set_vertex_buffers(0, &[vertex(g.vb)])
        }),
        // Dynamic: `not_encapsulable` were it this device's.
        ("set_vertex_buffers dynamic", |g, r| {
            r.set_vertex_buffers(0, &[vertex(g.vb_dyn)])
        }),
        ("set_index_buffer", |g, r| {
            r.set_index_buffer(Some(g.ib), Format::R16Uint, 0)
        }),
        ("set_constant_buffers", |g, r| {
            r.set_constant_buffers(Stage::Pixel, 0, &[Some(g.cb)])
        }),
        ("set_shader_resources", |g, r| {
            r.set_shader_resources(Stage::Pixel, 0, &[Some(g.tex_srv)])
        }),
        ("set_shader_resources render target", |g, r| {
            r.set_shader_resources(Stage::Pixel, 0, &[Some(g.rt_srv)])
        }),
        ("set_samplers", |g, r| {
            r.set_samplers(Stage::Pixel, 0, &[Some(g.sampler)])
        }),
        ("set_resource_min_lod", |g, r| {
            r.set_resource_min_lod(texture_of(g, g.tex_srv), 1.0)
        }),
        ("set_shader_resource_view_min_lod", |g, r| {
            r.set_shader_resource_view_min_lod(g.tex_srv, 1.0)
        }),
        ("draw_instanced_indirect", |g, r| {
            r.draw_instanced_indirect(g.args, 0)
        }),
        ("draw_indexed_instanced_indirect", |g, r| {
            r.draw_indexed_instanced_indirect(g.args, 0)
        }),
    ]
}

#[test]
fn r_obj_3_a_bundle_recorder_refuses_foreign_handles() {
    for (name, case) in foreign_cases() {
        let (f, g) = (Fixture::new(), Fixture::new());
        let mut recorder = f.ready();
        let commands = recorder.stats().commands;
        case(&g, &mut recorder);
        let error = recorder
            .last_refusal()
            .unwrap_or_else(|| panic!("{name}: accepted"));
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{name}: {error}");
        assert!(
            matches!(error, Error::ForeignHandle { expected, .. } if *expected == f.device.serial()),
            "{name}: {error}"
        );
        // The message names both devices (R-REC-8).
        let message = error.to_string();
        for device in [&f.device, &g.device] {
            let device = format!("device #{}", device.serial());
            assert!(
                message.contains(&device),
                "{name}: '{message}' names {device}"
            );
        }
        assert_eq!(
            recorder.stats().commands,
            commands,
            "{name}: nothing encoded"
        );
        assert_eq!(
            recorder.finish().map(|_| ()).map_err(|e| e.kind()),
            Err(ErrorKind::InvalidArgument),
            "{name}"
        );
    }
}

#[test]
fn r_obj_3_a_bundle_of_another_device_is_refused_naming_both_devices() {
    use bundles::DrawBundleExt;
    let (f, g) = (Fixture::new(), Fixture::new());
    let mut recorder = g.ready();
    recorder.draw(3, 0);
    let bundle = finish(&mut recorder);
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut context = f.context(semantics);
        context.draw_bundle(&bundle);
        let error = context.last_refusal().expect("refused");
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        assert!(
            matches!(
                error,
                Error::WrongDevice { object: "bundle", device, expected, .. }
                    if (*device, *expected) == (g.device.serial(), f.device.serial())
            ),
            "{error}"
        );
        // The message names both devices (R-REC-8).
        for device in [&f.device, &g.device] {
            let device = format!("device #{}", device.serial());
            assert!(
                error.to_string().contains(&device),
                "'{error}' names {device}"
            );
        }
    }
}
