//! R-FX-3: queries with results. Occlusion, predicate, timestamp and pipeline-statistics
//! queries counted by the GPU model's rules (`executor/src/gpu/query.rs`), `write_query`,
//! `reset_query`, `configure_query`, `set_predication_from_query`, and the immediate context's
//! `get_data`: legacy not-ready until the work has run, fast aggregating anyway (seed 000).

mod common;

use bundles::{BundleDesc, BundleRecorder};
use common::Fixture;
use executor::prelude::*;
use recorder::capabilities::*;

fn query(f: &Fixture, name: &str, kind: QueryKind) -> Query {
    f.device.create_query(name, kind).expect("create query")
}

/// Triangle lists with a vertex and a pixel shader into `rt`.
fn draw_state(c: &mut impl DeviceContext, f: &Fixture) {
    c.set_primitive_topology(PrimitiveTopology::TriangleList);
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_shader(Stage::Pixel, Some(f.ps));
    c.set_render_targets(&[Some(f.rt_rtv)], None);
}

fn statistics(data: QueryData) -> QueryCounts {
    match data {
        QueryData::PipelineStatistics(counts) => counts,
        other => panic!("not pipeline statistics: {other:?}"),
    }
}

#[test]
fn r_fx_3_pipeline_statistics_from_draw_arguments() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let stats = query(&f, "stats", QueryKind::PipelineStatistics);
    let mut imm = ImmediateContext::new(&f.device).expect("imm");
    imm.begin_query(stats);
    draw_state(&mut imm, &f);
    imm.draw(6, 0); // 6 vertices, 2 triangles
    imm.draw_instanced(3, 4, 0, 0); // 12 vertices, 4 triangles
    imm.set_primitive_topology(PrimitiveTopology::TriangleStrip);
    imm.draw_indexed(5, 0, 0); // 5 vertices, 3 triangles
    imm.draw_instanced_indirect(f.args, 0); // the arguments are in a buffer: nothing
    imm.set_shader(Stage::Compute, Some(f.cs));
    imm.dispatch(2, 3, 4); // 24 groups
    imm.set_render_targets(&[], None);
    imm.set_primitive_topology(PrimitiveTopology::LineList);
    imm.draw(4, 0); // no target: 2 lines, no samples
    imm.end_query(stats);
    imm.flush().expect("flush");
    let counts = statistics(imm.get_data(stats).expect("data"));
    assert_eq!(counts.ia_vertices, 6 + 12 + 5 + 4);
    assert_eq!(counts.ia_primitives, 2 + 4 + 3 + 2);
    assert_eq!(counts.vs_invocations, 27);
    assert_eq!(counts.c_primitives, 11);
    assert_eq!(
        counts.ps_invocations, 9,
        "only the draws with a target pass samples"
    );
    assert_eq!(counts.samples, 9);
    assert_eq!(
        (
            counts.hs_invocations,
            counts.gs_invocations,
            counts.ds_invocations
        ),
        (0, 0, 0),
        "no hull, geometry or domain shader bound"
    );
    assert_eq!(counts.cs_invocations, 24);
    assert_eq!(
        QueryData::PipelineStatistics(counts).get("ia_vertices"),
        Some(27)
    );
}

#[test]
fn r_fx_3_occlusion_rule() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let occlusion = query(&f, "occlusion", QueryKind::Occlusion);
    let binary = query(&f, "binary", QueryKind::Occlusion);
    let mut imm = ImmediateContext::new(&f.device).expect("imm");
    imm.configure_query(binary, QueryMode::Binary);
    draw_state(&mut imm, &f);
    imm.begin_query(occlusion);
    imm.begin_query(binary);
    imm.draw(9, 0); // 3 triangles into a render target
    imm.set_render_targets(&[], Some(f.ds_dsv));
    imm.draw_instanced(3, 2, 0, 0); // 2 triangles into a depth target
    imm.set_render_targets(&[], None);
    imm.draw(30, 0); // no target: nothing passes
    imm.end_query(occlusion);
    imm.end_query(binary);
    imm.flush().expect("flush");
    assert_eq!(
        imm.get_data(occlusion),
        Ok(QueryData::Occlusion { samples: 5 })
    );
    assert_eq!(
        imm.get_data(binary),
        Ok(QueryData::Occlusion { samples: 1 })
    );
    // configure_query counts samples: a timestamp has none to count.
    let stamp = query(&f, "stamp", QueryKind::Timestamp);
    imm.configure_query(stamp, QueryMode::Binary);
    assert!(matches!(
        imm.last_refusal(),
        Some(Error::QueryModeMismatch { .. })
    ));
    // A refused direct call is the next flush's result (R-REC-8).
    let flushed = imm.flush();
    assert!(
        matches!(flushed, Err(Error::QueryModeMismatch { .. })),
        "{flushed:?}"
    );
    // A reset query has no result until it ends again.
    imm.reset_query(occlusion);
    imm.flush().expect("flush");
    assert_eq!(
        imm.get_data(occlusion),
        Ok(QueryData::Occlusion { samples: 0 })
    );
}

#[test]
fn r_fx_3_timestamps_deterministic() {
    let run = || {
        let f = Fixture::with_immediate(Semantics::Legacy);
        let t0 = query(&f, "t0", QueryKind::Timestamp);
        let t1 = query(&f, "t1", QueryKind::Timestamp);
        let mut imm = ImmediateContext::new(&f.device).expect("imm");
        imm.end_query(t0);
        draw_state(&mut imm, &f);
        imm.draw(3, 0);
        imm.draw(3, 0);
        imm.dispatch(1, 1, 1);
        imm.write_query(t1);
        imm.flush().expect("flush");
        (imm.get_data(t0), imm.get_data(t1))
    };
    let first = run();
    assert_eq!(
        first,
        run(),
        "the clock is the model's: every run ticks alike"
    );
    assert_eq!(first.0, Ok(QueryData::Timestamp { ticks: 0 }));
    assert_eq!(
        first.1,
        Ok(QueryData::Timestamp { ticks: 3 }),
        "two draws and a dispatch ran before it"
    );
}

#[test]
fn r_fx_3_legacy_get_data_not_ready_before_work_runs() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let occlusion = query(&f, "occlusion", QueryKind::Occlusion);
    let never = query(&f, "never", QueryKind::Occlusion);
    let mut imm = ImmediateContext::new(&f.device).expect("imm");
    assert!(matches!(
        imm.get_data(never),
        Err(Error::QueryNeverEnded { .. })
    ));
    draw_state(&mut imm, &f);
    imm.begin_query(occlusion);
    imm.draw(3, 0);
    imm.end_query(occlusion);
    // The calls are batched: the GPU has not run the end.
    let error = imm.get_data(occlusion).expect_err("not ready");
    assert!(matches!(error, Error::QueryNotReady { .. }), "{error}");
    assert!(error.to_string().contains("not ready"), "{error}");
    imm.flush().expect("flush");
    assert_eq!(
        imm.get_data(occlusion),
        Ok(QueryData::Occlusion { samples: 1 })
    );
    // Begun again: not ready until that scope ends and runs.
    imm.begin_query(occlusion);
    imm.flush().expect("flush");
    assert!(matches!(
        imm.get_data(occlusion),
        Err(Error::QueryNotReady { .. })
    ));
    // Deferred timing: the model runs when observed, and get_data is no observation.
    imm.set_gpu_timing(GpuTiming::Deferred);
    imm.end_query(occlusion);
    imm.flush().expect("flush");
    assert!(matches!(
        imm.get_data(occlusion),
        Err(Error::QueryNotReady { .. })
    ));
    imm.sync_gpu();
    assert_eq!(
        imm.get_data(occlusion),
        Ok(QueryData::Occlusion { samples: 0 })
    );
    // A released query is refused.
    f.device.release(occlusion);
    assert!(matches!(
        imm.get_data(occlusion),
        Err(Error::ReleasedObject { .. })
    ));
}

#[test]
fn r_fx_3_fast_get_data_aggregates_anyway() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let occlusion = query(&f, "occlusion", QueryKind::Occlusion);
    let mut imm = ImmediateContext::new(&f.device).expect("imm");
    draw_state(&mut imm, &f);
    imm.begin_query(occlusion);
    imm.draw(6, 0);
    imm.flush().expect("flush"); // the first draw has run
    imm.draw(6, 0);
    imm.end_query(occlusion); // neither the second draw nor the end has run
    assert_eq!(
        imm.get_data(occlusion),
        Ok(QueryData::Occlusion { samples: 2 }),
        "what has run so far, the scope still open on the GPU"
    );
    imm.flush().expect("flush");
    assert_eq!(
        imm.get_data(occlusion),
        Ok(QueryData::Occlusion { samples: 4 })
    );
    // Threaded: what was submitted has run once the model is back.
    imm.set_gpu_timing(GpuTiming::Threaded);
    imm.begin_query(occlusion);
    imm.draw(3, 0);
    imm.end_query(occlusion);
    imm.flush().expect("flush");
    assert_eq!(
        imm.get_data(occlusion),
        Ok(QueryData::Occlusion { samples: 1 })
    );
}

#[test]
fn r_fx_3_predication_from_query_skips_draws() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::with_immediate(semantics);
        let empty = query(&f, "empty", QueryKind::Occlusion);
        let stats = query(&f, "stats", QueryKind::PipelineStatistics);
        let mut imm = ImmediateContext::new(&f.device).expect("imm");
        // A scope with no target bound passes nothing: its answer is `false`.
        imm.begin_query(empty);
        imm.draw(3, 0);
        imm.end_query(empty);
        draw_state(&mut imm, &f);
        imm.begin_query(stats);
        imm.flush().expect("flush");
        let references = f.device.references(empty);
        imm.set_predication_from_query(Some(empty), PredicateValue::False);
        imm.draw(3, 0); // skipped: the answer equals the value
        imm.set_predication_from_query(Some(empty), PredicateValue::True);
        imm.draw(6, 0); // runs
        imm.set_predication(Some(f.predicate), PredicateValue::True);
        imm.draw(9, 0); // the predicate never ended: not evaluated, runs
        imm.set_predication_from_query(None, PredicateValue::False);
        imm.draw(3, 0);
        imm.end_query(stats);
        let records = imm.take_records();
        let predicated: Vec<bool> = records.iter().map(DrawRecord::predicated).collect();
        assert_eq!(
            predicated,
            [false, true, false, true, false],
            "{semantics:?}"
        );
        let counts = statistics(imm.get_data(stats).expect("data"));
        assert_eq!(
            counts.ia_vertices,
            6 + 9 + 3,
            "the skipped draw counts nothing"
        );
        assert_eq!(
            imm.counters().draws,
            5,
            "a skipped draw keeps its record and count"
        );
        // No reference on the query, even on a legacy context.
        assert_eq!(f.device.references(empty), references, "{semantics:?}");
    }
}

#[test]
fn r_fx_3_predicated_split_points_still_roll() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let q = query(&f, "q", QueryKind::Occlusion);
    let mut imm = ImmediateContext::new(&f.device).expect("imm");
    let list = f.legacy(|c| {
        c.set_predication_from_query(Some(q), PredicateValue::True);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
        c.draw(3, 0);
    });
    assert!(list.stats().split_points.total() > 0);
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("execute");
    let rolls = imm.counters().context_rolls;
    let plain = {
        let f = Fixture::with_immediate(Semantics::Legacy);
        let mut imm = ImmediateContext::new(&f.device).expect("imm");
        let list = f.legacy(|c| {
            c.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
            c.draw(3, 0);
        });
        imm.execute_command_list(&list, RestoreState::ClearState)
            .expect("execute");
        imm.counters().context_rolls
    };
    assert!(
        rolls > plain,
        "{rolls} rolls under predication, {plain} without"
    );
}

/// The same calls, recorded in a list of `semantics` or made directly.
fn scene(c: &mut impl DeviceContext, f: &Fixture, q: &[Query; 4]) {
    let [occlusion, stats, stamp, predicate] = *q;
    draw_state(c, f);
    c.begin_query(occlusion);
    c.begin_query(stats);
    c.draw(12, 0);
    c.write_query(stamp);
    c.end_query(occlusion);
    c.begin_query(predicate);
    c.set_render_targets(&[], None);
    c.draw(3, 0);
    c.end_query(predicate);
    c.set_predication_from_query(Some(predicate), PredicateValue::False);
    c.draw_instanced(3, 3, 0, 0);
    c.set_predication_from_query(Some(occlusion), PredicateValue::False);
    c.draw(6, 0);
    c.end_query(stats);
}

#[test]
fn r_fx_3_list_queries_equal_direct() {
    let kinds = [
        QueryKind::Occlusion,
        QueryKind::PipelineStatistics,
        QueryKind::Timestamp,
        QueryKind::Predicate,
    ];
    let run = |how: Option<Semantics>| {
        let f = Fixture::with_immediate(how.unwrap_or(Semantics::Fast));
        let q = kinds.map(|k| query(&f, k.name(), k));
        let mut imm = ImmediateContext::new(&f.device).expect("imm");
        match how {
            None => scene(&mut imm, &f, &q),
            Some(semantics) => {
                let list = f.list(semantics, |c| scene(c, &f, &q));
                imm.execute_command_list(&list, RestoreState::ClearState)
                    .expect("execute");
            }
        }
        imm.flush().expect("flush");
        let data = q.map(|q| imm.get_data(q).expect("data"));
        let predicated: Vec<bool> = imm.records().iter().map(DrawRecord::predicated).collect();
        (data, predicated)
    };
    let direct = run(None);
    assert_eq!(
        direct.1,
        [false, false, true, false],
        "the third draw is skipped"
    );
    assert_eq!(direct.0[0], QueryData::Occlusion { samples: 4 });
    assert_eq!(direct.0[2], QueryData::Timestamp { ticks: 1 });
    assert_eq!(
        direct.0[3],
        QueryData::Predicate {
            passed: false,
            samples: 0
        }
    );
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        assert_eq!(run(Some(semantics)), direct, "{semantics:?} list");
    }
}

/// A bundle recorder has no [`QueryCalls`] and no [`InheritedStateCalls`] (the calls do not
/// compile on it: the `bundles` crate's doctests); a call made by name (the trace replay) gets
/// the refusal of its capability, naming the call.
#[test]
fn r_fx_3_bundle_refuses_queries() {
    let f = Fixture::new();
    let desc = BundleDesc::new("bundle", &[Format::R8G8B8A8Unorm]);
    let calls = [
        (
            "write_query",
            Capability::Query,
            ErrorKind::UnsupportedInBundle,
        ),
        (
            "reset_query",
            Capability::Query,
            ErrorKind::UnsupportedInBundle,
        ),
        (
            "configure_query",
            Capability::Query,
            ErrorKind::UnsupportedInBundle,
        ),
        (
            "set_predication_from_query",
            Capability::InheritedState,
            ErrorKind::InheritedStateInBundle,
        ),
    ];
    for (name, capability, kind) in calls {
        let mut recorder = BundleRecorder::new(&f.device, &desc).expect("recorder");
        recorder.refuse_missing_capability(name, capability);
        let error = recorder.last_refusal().expect("refused").clone();
        assert_eq!(error.kind(), kind, "{name}");
        assert!(error.to_string().starts_with(name), "{error}");
    }
}

#[test]
fn r_fx_3_released_query_refused_on_every_context() {
    let f = Fixture::new();
    let q = query(&f, "q", QueryKind::Occlusion);
    f.device.release(q);
    let mut context = f.context(Semantics::Legacy);
    context.write_query(q);
    let error = context.last_refusal().expect("refused").clone();
    assert_eq!(error.kind(), ErrorKind::ReleasedObject, "{error}");
    context.set_predication_from_query(Some(q), PredicateValue::True);
    assert_eq!(
        context.last_refusal().map(Error::kind),
        Some(ErrorKind::ReleasedObject)
    );
}
