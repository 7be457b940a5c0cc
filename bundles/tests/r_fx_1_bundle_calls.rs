//! R-FX-1 in a bundle: `set_fast_resources`, `set_fast_resources_from_batch` and
//! `set_fast_shader_resource` are one call each, whatever their entries (the call index of a
//! later error counts each once, as on a deferred context), and a call refused is refused as a
//! whole, nothing bound, as the recorder refuses it.

mod common;

use bundles::SlotKind;
use common::*;
use recorder::capabilities::*;
use recorder::*;

fn cb(stage: Stage, slot: u32, buffer: Option<Buffer>) -> FastResource {
    FastResource::ConstantBuffer {
        stage,
        slot,
        buffer,
    }
}

fn srv(stage: Stage, slot: u32, view: Option<ShaderResourceView>) -> FastResource {
    FastResource::ShaderResource { stage, slot, view }
}

#[test]
fn r_fx_1_bundle_fast_calls_count_once_in_the_call_index() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    let ready = recorder.stats().calls;
    let entries = [
        cb(Stage::Pixel, 0, Some(f.cb)),
        srv(Stage::Pixel, 1, Some(f.tex_srv)),
        cb(Stage::Vertex, 2, None),
    ];
    recorder.set_fast_resources(&entries);
    recorder.set_fast_resources(&[]);
    let mut batch = FastResourceBatch::new();
    recorder.set_fast_resources_into_batch(&mut batch, &entries);
    recorder.set_fast_resources_from_batch(&batch);
    recorder.set_fast_shader_resource(Stage::Pixel, 3, Some(f.tex_srv));
    assert!(
        recorder.last_refusal().is_none(),
        "{:?}",
        recorder.last_refusal()
    );
    assert_eq!(recorder.stats().calls, ready + 5, "five calls");
    // No `write_query` on a bundle recorder (no `QueryCalls`); made by name, as the replay does:
    recorder.refuse_missing_capability("write_query", Capability::Query);
    let error = recorder.finish().expect_err("write_query is refused");
    assert_eq!(error.kind(), ErrorKind::UnsupportedInBundle);
    assert_eq!(
        error.call_index,
        ready + 5,
        "the sixth call after the mandatory state"
    );
}

#[test]
fn r_fx_1_bundle_fast_resources_refused_as_a_whole() {
    let f = Fixture::new();
    let mut recorder = f.ready();
    let (commands, footprint) = (recorder.stats().commands, recorder.footprint_bytes());
    // The second entry's slot is out of range: the first is not bound either.
    recorder.set_fast_resources(&[cb(Stage::Pixel, 0, Some(f.cb)), cb(Stage::Pixel, 99, None)]);
    assert_eq!(
        recorder.last_refusal().map(Error::kind),
        Some(ErrorKind::InvalidArgument)
    );
    assert_eq!(recorder.stats().commands, commands, "nothing bound");
    assert_eq!(recorder.footprint_bytes(), footprint, "no slot overridden");
    assert!(!recorder
        .overrides()
        .contains(SlotKind::ConstantBuffer, Stage::Pixel, 0));
    // A dynamic buffer after a good entry: not encapsulable (R-B-6), nothing bound.
    recorder.set_fast_resources(&[
        cb(Stage::Pixel, 0, Some(f.cb)),
        cb(Stage::Pixel, 1, Some(f.cb_dyn)),
    ]);
    assert_eq!(
        recorder.last_refusal().map(Error::kind),
        Some(ErrorKind::NotEncapsulable)
    );
    assert_eq!(recorder.stats().commands, commands, "nothing bound");
    assert_eq!(recorder.footprint_bytes(), footprint);
    // Accepted: both slots overridden, in one call.
    let calls = recorder.stats().calls;
    recorder.set_fast_resources(&[
        cb(Stage::Pixel, 0, Some(f.cb)),
        srv(Stage::Pixel, 0, Some(f.tex_srv)),
    ]);
    assert_eq!(recorder.stats().calls, calls + 1);
    assert_eq!(recorder.footprint_bytes(), footprint + 16 + 64);
}
