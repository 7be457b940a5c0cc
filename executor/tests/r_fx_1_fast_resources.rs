//! R-FX-1: `set_fast_resources`, its batches and `set_fast_shader_resource` follow the fast
//! contract on every context (no references, no split points, the view's minimum LOD), keep a
//! legacy context's shadow exact and its reference counts right, and follow the bundle rules
//! in a bundle.

mod common;

use bundles::{BundleDesc, BundleRecorder};
use common::*;
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

fn sampler(stage: Stage, slot: u32, sampler: Option<SamplerState>) -> FastResource {
    FastResource::Sampler {
        stage,
        slot,
        sampler,
    }
}

#[test]
fn r_fx_1_legacy_context_takes_no_reference() {
    let f = Fixture::new();
    let before = (
        f.device.references(f.cb),
        f.device.references(f.tex_srv),
        f.device.references(f.sampler),
    );
    let mut c = f.context(Semantics::Legacy);
    c.set_shader(Stage::Pixel, Some(f.ps));
    c.set_fast_resources(&[
        cb(Stage::Pixel, 0, Some(f.cb)),
        srv(Stage::Pixel, 0, Some(f.tex_srv)),
        sampler(Stage::Pixel, 0, Some(f.sampler)),
    ]);
    c.draw(3, 0);
    let now = (
        f.device.references(f.cb),
        f.device.references(f.tex_srv),
        f.device.references(f.sampler),
    );
    assert_eq!(
        now, before,
        "a fast bind on a legacy context takes no reference"
    );
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .expect("finish");
    assert_eq!(f.device.references(f.cb), before.0);
    let gpu = gpu_after(&[&list]);
    assert_eq!(field(&gpu, 0, "ps.cb.0"), Some(object(f.cb)));
    assert_eq!(field(&gpu, 0, "ps.srv.0"), Some(object(f.tex_srv)));
    assert_eq!(field(&gpu, 0, "ps.sampler.0"), Some(object(f.sampler)));
}

#[test]
fn r_fx_1_a_legacy_bind_replacing_a_fast_one_keeps_the_counts() {
    let f = Fixture::new();
    let base = |b: Buffer| f.device.references(b).unwrap_or(0);
    let (cb0, cb20) = (base(f.cb), base(f.cb2));
    let mut c = f.context(Semantics::Legacy);
    // Legacy, then fast over it: the legacy binding's reference is given back, the list's stays.
    c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
    assert_eq!(
        base(f.cb),
        cb0 + 2,
        "the list's reference and the binding's"
    );
    c.set_fast_resources(&[cb(Stage::Pixel, 0, Some(f.cb2))]);
    assert_eq!(base(f.cb), cb0 + 1, "the binding's reference is given back");
    assert_eq!(base(f.cb2), cb20, "the fast binding holds none");
    // Legacy over the fast one: nothing is given back for it.
    c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb2)]);
    assert_eq!(base(f.cb2), cb20 + 2);
    c.set_fast_resources(&[cb(Stage::Pixel, 1, Some(f.cb))]);
    // clear_state drops the legacy binding's reference only.
    c.clear_state();
    assert_eq!((base(f.cb), base(f.cb2)), (cb0 + 1, cb20 + 1));
    // A fast bind over a slot, then reset by finish: nothing to give back either.
    c.set_fast_resources(&[cb(Stage::Pixel, 0, Some(f.cb))]);
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .expect("finish");
    drop(list);
    assert_eq!((base(f.cb), base(f.cb2)), (cb0, cb20), "all given back");
}

#[test]
fn r_fx_1_no_split_point_for_dynamic_on_legacy() {
    let f = Fixture::new();
    let mut c = f.context(Semantics::Legacy);
    c.set_shader(Stage::Pixel, Some(f.ps));
    write_discard(&mut c, f.cb_dyn);
    c.set_fast_resources(&[cb(Stage::Pixel, 0, Some(f.cb_dyn))]);
    c.draw(3, 0);
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .expect("finish");
    assert_eq!(list.stats().split_points.total(), 0);
    let instance = map_instances(&list)[0];
    let gpu = gpu_after(&[&list]);
    assert_eq!(field(&gpu, 0, "ps.cb.0"), Some(at(f.cb_dyn, instance)));

    // Not mapped on the list: refused as a fast bind is, never a split point.
    let mut c = f.context(Semantics::Legacy);
    c.set_fast_resources(&[cb(Stage::Pixel, 0, Some(f.cb_dyn))]);
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::DynamicBeforeMap)
    );
    assert!(c.finish_command_list(RestoreState::ClearState).is_err());
}

#[test]
fn r_fx_1_view_min_lod_on_legacy() {
    let f = Fixture::new();
    let list = f.legacy(|c| {
        c.set_resource_min_lod(f.tex, 2.0);
        c.set_shader_resource_view_min_lod(f.tex_srv, 1.0);
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv)]);
        c.set_fast_shader_resource(Stage::Pixel, 2, Some(f.tex_srv));
        c.draw(3, 0);
    });
    let gpu = gpu_after(&[&list]);
    assert_eq!(
        shown(&gpu, 0, "ps.srv.0.min_lod"),
        "2",
        "legacy: the texture's"
    );
    assert_eq!(
        shown(&gpu, 0, "ps.srv.2.min_lod"),
        "1",
        "fast call: the view's"
    );
}

#[test]
fn r_fx_1_refused_as_a_whole() {
    let f = Fixture::new();
    let mut c = f.context(Semantics::Fast);
    c.set_shader(Stage::Pixel, Some(f.ps));
    c.set_fast_resources(&[cb(Stage::Pixel, 0, Some(f.cb))]);
    c.draw(3, 0);
    let calls = c.stats().commands;
    c.set_fast_resources(&[
        cb(Stage::Pixel, 0, Some(f.cb2)),
        sampler(Stage::Pixel, SAMPLER_SLOTS_FOR_TEST, Some(f.sampler)),
    ]);
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::InvalidArgument)
    );
    assert_eq!(c.stats().commands, calls, "nothing encoded");
    // A buffer without the constant-buffer bind flag.
    c.set_fast_resources(&[cb(Stage::Pixel, 1, Some(f.vb))]);
    assert_eq!(
        c.last_refusal().map(Error::kind),
        Some(ErrorKind::InvalidArgument)
    );
}

const SAMPLER_SLOTS_FOR_TEST: u32 = recorder::limits::SAMPLER_SLOTS;

#[test]
fn r_fx_1_batch_reused_across_lists() {
    let f = Fixture::new();
    let mut batch = FastResourceBatch::new();
    let mut recording = f.context(Semantics::Legacy);
    recording.set_fast_resources_into_batch(
        &mut batch,
        &[
            cb(Stage::Pixel, 0, Some(f.cb)),
            srv(Stage::Pixel, 0, Some(f.tex_srv)),
        ],
    );
    recording
        .set_fast_resources_into_batch(&mut batch, &[sampler(Stage::Pixel, 0, Some(f.sampler))]);
    assert_eq!(batch.len(), 3);
    // Refused entries leave the batch as it was.
    recording.set_fast_resources_into_batch(&mut batch, &[cb(Stage::Pixel, 99, Some(f.cb))]);
    assert_eq!(batch.len(), 3);
    let lists: Vec<CommandList> = [Semantics::Legacy, Semantics::Fast]
        .into_iter()
        .flat_map(|semantics| (0..2).map(move |_| semantics))
        .map(|semantics| {
            f.list(semantics, |c| {
                c.set_shader(Stage::Pixel, Some(f.ps));
                c.set_fast_resources_from_batch(&batch);
                c.draw(3, 0);
            })
        })
        .collect();
    for list in &lists {
        assert_eq!(list.stats().split_points.total(), 0);
        let gpu = gpu_after(&[list]);
        assert_eq!(field(&gpu, 0, "ps.cb.0"), Some(object(f.cb)));
        assert_eq!(field(&gpu, 0, "ps.srv.0"), Some(object(f.tex_srv)));
        assert_eq!(field(&gpu, 0, "ps.sampler.0"), Some(object(f.sampler)));
    }
    // An object released since: refused by name, nothing bound.
    let extra = f.device.create_sampler_state("extra").expect("sampler");
    let mut with_extra = batch.clone();
    recording
        .set_fast_resources_into_batch(&mut with_extra, &[sampler(Stage::Pixel, 1, Some(extra))]);
    f.device.release(extra);
    f.device.process_deferred_releases();
    let mut c = f.context(Semantics::Fast);
    let commands = c.stats().commands;
    c.set_fast_resources_from_batch(&with_extra);
    assert!(matches!(
        c.last_refusal(),
        Some(Error::ReleasedObject {
            call: "set_fast_resources_from_batch",
            ..
        })
    ));
    assert_eq!(c.stats().commands, commands, "nothing bound");
}

#[test]
fn r_fx_1_bundle_budget_counts_fast_binds() {
    let f = Fixture::new();
    let desc = BundleDesc::new("bundle", &[Format::R8G8B8A8Unorm]);
    // 6 KB of shader-resource slots (64 bytes each): 96 slots fit, the 97th does not.
    let mut recorder = BundleRecorder::new(&f.device, &desc).expect("recorder");
    let entries: Vec<FastResource> = (0..96)
        .map(|slot| srv(Stage::Pixel, slot, Some(f.tex_srv)))
        .collect();
    recorder.set_fast_resources(&entries);
    assert!(
        recorder.last_refusal().is_none(),
        "{:?}",
        recorder.last_refusal()
    );
    recorder.set_fast_resources(&[srv(Stage::Pixel, 96, Some(f.tex_srv))]);
    assert_eq!(
        recorder.last_refusal().map(Error::kind),
        Some(ErrorKind::BudgetExceeded)
    );
    // A dynamic buffer is not encapsulable, fast entry or not (R-B-6).
    let mut recorder = BundleRecorder::new(&f.device, &desc).expect("recorder");
    recorder.set_fast_resources(&[cb(Stage::Pixel, 0, Some(f.cb_dyn))]);
    assert_eq!(
        recorder.last_refusal().map(Error::kind),
        Some(ErrorKind::NotEncapsulable)
    );
}
