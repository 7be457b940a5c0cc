//! R-B-10 with the records a bundle call shares (`executor/src/gpu/bundle_call.rs`): the first
//! draw of a call reads the stages and graphics part of the caller's last record that the body
//! left as they were, and the caller's first draw after the call those the call left as the
//! bundle's last draw had them. What every draw sees must be what it would see with nothing
//! shared: each call is checked against the same draws made with the bundle's binds (and its
//! remaps' sources) applied directly on another context, and the caller's bindings put back.

mod common;

use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use common::*;
use executor::{DrawRecord, ImmediateContext};
use recorder::*;

fn desc() -> BundleDesc<'static> {
    BundleDesc {
        depth: Some(Format::D32Float),
        ..BundleDesc::new("bundle", &[Format::R8G8B8A8Unorm])
    }
}

/// A fast immediate context with the caller's state: vs with cb 0, ps with cb 0-1, null hs /
/// ds / gs, a triangle list.
fn caller(f: &Fixture, vs_cb0: Buffer) -> ImmediateContext {
    let mut imm = ImmediateContext::new(&f.device).expect("immediate context");
    imm.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    imm.set_input_layout(Some(f.layout));
    imm.set_primitive_topology(PrimitiveTopology::TriangleList);
    imm.set_shader(Stage::Vertex, Some(f.vs));
    imm.set_shader(Stage::Pixel, Some(f.ps));
    imm.set_constant_buffers(Stage::Vertex, 0, &[Some(vs_cb0)]);
    imm.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb), Some(f.cb2)]);
    imm
}

/// The bundles the tests call, each as a bundle and as the same binds made directly; each
/// first sets what a bundle must (R-B-3, every graphics stage's shader and the input layout) to
/// what the caller has.
#[derive(Clone, Copy, Debug)]
enum Body {
    /// Rebinds the pixel shader alone.
    PixelShader,
    /// Binds nothing past what every body binds: changes nothing.
    Same,
    /// Binds a hull shader where the caller has none.
    HullShader,
    /// Overrides vs cb 0.
    VertexConstants,
    /// Sets a point list.
    Topology,
    /// Overrides ps cb 1, draws, then remaps it to the caller's vs cb 0 and draws again.
    Remap,
}

impl Body {
    const ALL: [Body; 6] = [
        Body::PixelShader,
        Body::Same,
        Body::HullShader,
        Body::VertexConstants,
        Body::Topology,
        Body::Remap,
    ];

    /// The body's binds and draws on `c`; `vs_cb0` is the caller's (what a remap reads), for a
    /// context that binds it directly; `None` for the bundle recorder, which remaps.
    fn record<C: BindCalls + DrawCalls>(
        self,
        f: &Fixture,
        c: &mut C,
        vs_cb0: Option<Buffer>,
        remap: impl FnOnce(&mut C),
    ) {
        // What a bundle must set before it draws (R-B-3): the caller's own.
        c.set_input_layout(Some(f.layout));
        c.set_shader(Stage::Vertex, Some(f.vs));
        for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
            c.set_shader(stage, None);
        }
        c.set_shader(Stage::Pixel, Some(f.ps));
        match self {
            Body::PixelShader => {
                c.set_shader(Stage::Pixel, Some(f.ps_uavs));
                c.draw(3, 0);
                c.draw(4, 0);
            }
            Body::Same => c.draw(5, 0),
            Body::HullShader => {
                c.set_shader(Stage::Hull, Some(f.hs));
                c.draw(11, 0);
            }
            Body::VertexConstants => {
                c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb2)]);
                c.draw(6, 0);
            }
            Body::Topology => {
                c.set_primitive_topology(PrimitiveTopology::PointList);
                c.draw(7, 0);
            }
            Body::Remap => {
                c.set_constant_buffers(Stage::Pixel, 1, &[Some(f.cb)]);
                c.draw(8, 0);
                match vs_cb0 {
                    Some(buffer) => c.set_constant_buffers(Stage::Pixel, 1, &[Some(buffer)]),
                    None => remap(c),
                }
                c.draw(9, 0);
            }
        }
    }

    fn bundle(self, f: &Fixture) -> DrawBundle {
        let mut recorder = BundleRecorder::new(&f.device, &desc()).expect("recorder");
        self.record(f, &mut recorder, None, |r: &mut BundleRecorder| {
            r.remap_constant_buffer_inheritance(Stage::Pixel, 1, Stage::Vertex, 0)
        });
        recorder.finish().expect("finish")
    }

    /// The body bound and drawn directly on `imm`, whose vs cb 0 is `vs_cb0`, then the
    /// caller's bindings put back (`caller`'s).
    fn direct(self, f: &Fixture, imm: &mut ImmediateContext, vs_cb0: Buffer) {
        self.record(f, imm, Some(vs_cb0), |_| {});
        match self {
            Body::PixelShader | Body::Same => imm.set_shader(Stage::Pixel, Some(f.ps)),
            Body::HullShader => imm.set_shader(Stage::Hull, None),
            Body::VertexConstants => imm.set_constant_buffers(Stage::Vertex, 0, &[Some(vs_cb0)]),
            Body::Topology => imm.set_primitive_topology(PrimitiveTopology::TriangleList),
            Body::Remap => imm.set_constant_buffers(Stage::Pixel, 1, &[Some(f.cb2)]),
        }
    }
}

/// The records of the caller drawing once, then for each of `calls`: setting its vs cb 0 to
/// the call's buffer, drawing, calling the bundle and drawing again; the bundles called, or
/// (`direct`) their binds made directly.
fn records(f: &Fixture, calls: &[(Body, Buffer)], direct: bool) -> Vec<DrawRecord> {
    let mut imm = caller(f, f.cb);
    let bundles: Vec<DrawBundle> = Body::ALL.iter().map(|body| body.bundle(f)).collect();
    imm.draw(1, 0);
    for &(body, vs_cb0) in calls {
        imm.set_constant_buffers(Stage::Vertex, 0, &[Some(vs_cb0)]);
        imm.draw(2, 0);
        match direct {
            true => body.direct(f, &mut imm, vs_cb0),
            false => imm
                .draw_bundle(&bundles[body as usize])
                .expect("draw_bundle"),
        }
        imm.draw(10, 0);
    }
    imm.records().to_vec()
}

fn shader(record: &DrawRecord, stage: Stage) -> RawHandle {
    record.stage(stage).expect("the stage").shader
}

#[test]
fn r_b_10_a_bundle_that_rebinds_the_pixel_shader_shows_it_and_the_callers_vertex_stage() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let calls = [(Body::PixelShader, f.cb), (Body::PixelShader, f.cb2)];
    let records = records(&f, &calls, false);
    // The caller's draw, then per call: the caller's, the bundle's two, the caller's.
    assert_eq!(records.len(), 1 + 4 * calls.len());
    for (call, &(_, vs_cb0)) in calls.iter().enumerate() {
        let at = 1 + 4 * call;
        for (index, pixel_shader) in [
            (at, f.ps.raw()),
            (at + 1, f.ps_uavs.raw()),
            (at + 2, f.ps_uavs.raw()),
            (at + 3, f.ps.raw()),
        ] {
            let record = &records[index];
            assert_eq!(shader(record, Stage::Pixel), pixel_shader, "record {index}");
            assert_eq!(shader(record, Stage::Vertex), f.vs.raw(), "record {index}");
            let vertex = record.stage(Stage::Vertex).expect("the vertex stage");
            assert_eq!(
                vertex.constant_buffers.first().map(|(_, cb)| cb.buffer),
                Some(vs_cb0.raw()),
                "record {index}: the caller's vs cb 0"
            );
        }
    }
    assert_eq!(records, self::records(&f, &calls, true));
}

#[test]
fn r_b_10_records_across_bundle_calls_are_those_of_the_same_binds_made_directly() {
    let f = Fixture::with_immediate(Semantics::Fast);
    // Every body after every body (and itself), the caller's vs cb 0 alternating, so that a
    // call follows each kind of call and each remap reads a changed source.
    let mut calls = Vec::new();
    for (n, &first) in Body::ALL.iter().enumerate() {
        for (m, &second) in Body::ALL.iter().enumerate() {
            let cb = |k: usize| if k.is_multiple_of(2) { f.cb } else { f.cb2 };
            calls.push((first, cb(n + m)));
            calls.push((second, cb(n + m + 1)));
        }
    }
    let called = records(&f, &calls, false);
    let direct = records(&f, &calls, true);
    assert_eq!(called.len(), direct.len());
    for (index, (called, direct)) in called.iter().zip(&direct).enumerate() {
        assert_eq!(called, direct, "record {index}");
    }
}
