//! R-FX-3 in the trace: captured frames with queries, and the trace syntax of query lines. The
//! engine's side of R-FX-3 is tested in `executor/tests/r_fx_3_queries.rs`.

#[path = "common/modes.rs"]
mod modes;

mod capture {
    //! A captured frame with queries replays to the live frame's digest (R-CAP-6, R-FX-3).

    use recorder::*;
    use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

    struct App {
        device: CaptureDevice,
        imm: CapturedImmediate,
        chain: SwapChain,
        rtv: RenderTargetView,
        vs: Shader,
    }

    fn app() -> App {
        let device = CaptureDevice::new(
            Device::new(DeviceDesc {
                immediate_semantics: Semantics::Fast,
                ..Default::default()
            }),
            CaptureOptions::default(),
        );
        let chain = device
            .create_swap_chain(&SwapChainDesc {
                name: "main",
                buffers: 2,
                format: Format::R8G8B8A8Unorm,
                width: 64,
                height: 64,
            })
            .expect("chain");
        let color = device
            .create_texture(&TextureDesc {
                name: "color",
                format: Format::R8G8B8A8Unorm,
                width: 64,
                height: 64,
                bind: BindFlags::RENDER_TARGET,
                ..Default::default()
            })
            .expect("texture");
        let rtv = device
            .create_render_target_view(&ViewDesc::new("color_rtv", Resource::from(color)))
            .expect("rtv");
        let vs = device
            .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
            .expect("vs");
        let imm = CapturedImmediate::new(&device).expect("imm");
        App {
            device,
            imm,
            chain,
            rtv,
            vs,
        }
    }

    #[test]
    fn r_fx_3_captured_frame_with_queries_replays_to_its_digest() {
        let mut app = app();
        let q = |name, kind| app.device.create_query(name, kind).expect("query");
        let (empty, stats, stamp) = (
            q("empty", QueryKind::Occlusion),
            q("stats", QueryKind::PipelineStatistics),
            q("stamp", QueryKind::Timestamp),
        );
        let mut worker = app
            .device
            .create_deferred_context(&DeferredContextDesc {
                name: "worker",
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .expect("context");
        app.device.capture().trigger();
        for frame in 0..3 {
            let imm = &mut app.imm;
            if frame == 0 {
                // A result from before the captured frame: nothing passed (no target).
                imm.begin_query(empty);
                imm.draw(3, 0);
                imm.end_query(empty);
            }
            imm.set_primitive_topology(PrimitiveTopology::TriangleList);
            imm.set_shader(Stage::Vertex, Some(app.vs));
            imm.set_render_targets(&[Some(app.rtv)], None);
            imm.begin_query(stats);
            imm.set_predication_from_query(Some(empty), PredicateValue::False);
            imm.draw(3, 0); // skipped
            imm.set_predication_from_query(Some(empty), PredicateValue::True);
            imm.draw(6, 0); // runs
            imm.set_predication_from_query(None, PredicateValue::False);
            worker.set_render_targets(&[], None); // nothing passes
            worker.begin_query(empty);
            worker.draw(3, 0);
            worker.end_query(empty);
            worker.write_query(stamp);
            let list = worker
                .finish_command_list(RestoreState::ClearState)
                .expect("list");
            imm.execute_command_list(&list, RestoreState::ClearState)
                .expect("execute");
            imm.end_query(stats);
            imm.present(app.chain).expect("present");
        }
        assert!(matches!(
            app.imm.get_data(stats),
            Ok(executor::QueryData::PipelineStatistics(_))
        ));
        let outcomes = app.device.capture().take_outcomes();
        let frame = match outcomes.as_slice() {
            [FrameOutcome::Captured(frame)] => frame,
            other => panic!("{other:?}"),
        };
        assert!(
            frame.trace.contains("query stats pipeline_statistics\n"),
            "{}",
            frame.trace
        );
        assert!(
            frame.trace.contains("query stamp timestamp\n"),
            "{}",
            frame.trace
        );
        assert!(frame
            .trace
            .contains("set_predication_from_query empty no\n"));
        crate::modes::assert_round_trip(frame);
    }

    #[test]
    fn r_fx_3_a_frame_reading_samples_passed_before_it_fails_with_the_reason() {
        let mut app = app();
        let occ = app
            .device
            .create_query("occ", QueryKind::Occlusion)
            .expect("query");
        app.device.capture().trigger();
        for frame in 0..2 {
            let imm = &mut app.imm;
            imm.set_primitive_topology(PrimitiveTopology::TriangleList);
            imm.set_render_targets(&[Some(app.rtv)], None);
            if frame == 0 {
                imm.begin_query(occ);
                imm.draw(3, 0); // a triangle passes
                imm.end_query(occ);
            }
            imm.set_predication_from_query(Some(occ), PredicateValue::False);
            imm.draw(3, 0);
            imm.present(app.chain).expect("present");
        }
        let outcomes = app.device.capture().take_outcomes();
        match outcomes.as_slice() {
            [FrameOutcome::Failed { reason, .. }] => {
                assert!(reason.contains("occ"), "{reason}");
                assert!(
                    reason.contains("passed samples before the frame"),
                    "{reason}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn r_fx_3_trace_syntax_refuses_bad_query_lines_naming_the_rule() {
    use trace::{replay, ReplayOptions};
    let cases = [
        (
            "query q bogus\n",
            "the query kind (occlusion|timestamp|pipeline_statistics|predicate)",
        ),
        (
            "query q occlusion\nimm configure_query q sometimes\n",
            "counting|binary",
        ),
        (
            "query q occlusion\nexpect query q frames=1\n",
            "expected a query key (samples|passed|timestamp|ia_vertices",
        ),
        (
            "query q occlusion\nexpect query q not_ready samples=1\n",
            "not_ready stands alone",
        ),
        ("query q occlusion\nexpect query q\n", "not_ready or KEY=N"),
        ("query query occlusion\n", "reserved"),
    ];
    for (body, wanted) in cases {
        let trace = format!("device semantics=legacy\n{body}");
        let run = replay(trace.as_bytes(), &ReplayOptions::default());
        assert_eq!(run.exit_code, 2, "{trace}\n{}", run.stderr);
        assert!(run.stderr.contains(wanted), "{trace}\n{}", run.stderr);
    }
}
