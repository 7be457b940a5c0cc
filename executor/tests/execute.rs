//! Command-list execution on the immediate context: the state rules of R-ST-1..3, split-point
//! resolution (R-SP-4), nesting (R-REC-9) and what a refused execution leaves (R-EX-1).

mod common;

use common::*;
use executor::{FieldValue, GpuTiming, ImmediateContext};
use recorder::command::InstanceId;
use recorder::*;

/// Binds the vertex shader and the input layout (reads vertex-buffer slots 0 and 2).
fn pipeline(f: &Fixture, c: &mut DeferredContext) {
    c.set_input_layout(Some(f.layout));
    c.set_shader(Stage::Vertex, Some(f.vs));
}

fn binds_vertex_buffer(f: &Fixture) -> CommandList {
    f.fast(|c| {
        pipeline(f, c);
        c.set_vertex_buffers(0, &[vertex(f.vb)]);
    })
}

fn draws(f: &Fixture, semantics: Semantics) -> CommandList {
    f.list(semantics, |c| {
        if semantics == Semantics::Legacy {
            pipeline(f, c);
        }
        c.draw(3, 0);
    })
}

#[test]
fn r_st_1_a_fast_list_inherits_the_immediate_state() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.execute_command_list(&binds_vertex_buffer(&f), RestoreState::ClearState)
        .unwrap();
    imm.execute_command_list(&draws(&f, Semantics::Fast), RestoreState::ClearState)
        .unwrap();
    assert_eq!(field(imm.gpu(), 0, "vb.0"), Some(object(f.vb)));
    assert_eq!(field(imm.gpu(), 0, "vs"), Some(object(f.vs)));
}

#[test]
fn r_st_1_a_legacy_list_never_sees_the_immediate_state() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.execute_command_list(&binds_vertex_buffer(&f), RestoreState::ClearState)
        .unwrap();
    imm.execute_command_list(&draws(&f, Semantics::Legacy), RestoreState::ClearState)
        .unwrap();
    assert_eq!(
        field(imm.gpu(), 0, "vb.0"),
        Some(FieldValue::Null),
        "ClearState first"
    );
    assert_eq!(
        field(imm.gpu(), 0, "vs"),
        Some(object(f.vs)),
        "its own bindings"
    );
}

#[test]
fn r_st_2_a_fast_immediate_context_keeps_what_the_list_left_and_refuses_restore() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let legacy = f.legacy(|c| {
        pipeline(&f, c);
        c.set_vertex_buffers(0, &[vertex(f.vb2)]);
    });
    imm.execute_command_list(&legacy, RestoreState::ClearState)
        .unwrap();
    imm.execute_command_list(&draws(&f, Semantics::Fast), RestoreState::ClearState)
        .unwrap();
    assert_eq!(
        field(imm.gpu(), 0, "vb.0"),
        Some(object(f.vb2)),
        "whatever the list's kind"
    );

    let counters = *imm.counters();
    let error = imm
        .execute_command_list(&draws(&f, Semantics::Fast), RestoreState::Restore)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::RestoreNotSupported);
    assert_eq!(
        imm.counters(),
        &counters,
        "a refused execution counts nothing"
    );
}

#[test]
fn r_st_2_a_legacy_immediate_context_clears_or_restores_after_a_list() {
    for restore in [false, true] {
        let f = Fixture::new();
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        // A nested execution lets the outer list set state "on the executing context" first.
        let inner = binds_vertex_buffer(&f);
        let mut outer = f.context(Semantics::Legacy);
        pipeline(&f, &mut outer);
        outer.set_vertex_buffers(0, &[vertex(f.vb2)]);
        outer.execute_command_list(
            &inner,
            if restore {
                RestoreState::Restore
            } else {
                RestoreState::ClearState
            },
        );
        outer.draw(3, 0);
        let outer = outer.finish_command_list(RestoreState::ClearState).unwrap();
        imm.execute_command_list(&outer, RestoreState::ClearState)
            .unwrap();
        // The outer list's legacy context restored its own state (vb2) or cleared it.
        let expected = if restore {
            object(f.vb2)
        } else {
            FieldValue::Null
        };
        assert_eq!(
            field(imm.gpu(), 0, "vb.0"),
            if restore { Some(expected) } else { None }
        );
        // And after the outer list, the legacy immediate context is back to ClearState.
        imm.execute_command_list(&draws(&f, Semantics::Fast), RestoreState::ClearState)
            .unwrap();
        assert_eq!(
            field(imm.gpu(), 1, "vs"),
            Some(FieldValue::Null),
            "restore={restore}"
        );
    }
}

#[test]
fn r_st_3_fast_and_legacy_lists_do_not_mix_in_one_execution_scope() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.begin_command_list_execution();
    imm.execute_command_list(&draws(&f, Semantics::Fast), RestoreState::ClearState)
        .unwrap();
    let error = imm
        .execute_command_list(&draws(&f, Semantics::Legacy), RestoreState::ClearState)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::MixedSemantics);
    imm.execute_command_list(&draws(&f, Semantics::Fast), RestoreState::ClearState)
        .unwrap();
    imm.end_command_list_execution();
    imm.execute_command_list(&draws(&f, Semantics::Legacy), RestoreState::ClearState)
        .unwrap();
    assert_eq!(imm.counters().draws, 3);
}

#[test]
fn r_sp_4_split_points_are_resolved_and_counted_by_category() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.legacy(|c| {
        pipeline(&f, c);
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
        c.draw(3, 0);
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
        // Unbound from the output merger first: an SRV of a bound target reads null (R-ST-10).
        c.set_render_targets(&[None], None);
        c.set_shader_resources(Stage::Vertex, 0, &[Some(f.rt_srv)]);
        c.draw(3, 0);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    let counters = imm.counters();
    assert_eq!(counters.split_points_resolved, list.stats().split_points);
    let command_segments = list
        .segments()
        .filter(|s| matches!(s, Segment::Commands(_)))
        .count();
    assert_eq!(counters.ib_executions, command_segments as u64);
    // The clear compressed the target; binding its SRV decompressed it.
    assert_eq!(counters.decompressions, 1);
    assert_eq!(
        field(imm.gpu(), 1, "vs.srv.0.compressed"),
        Some(FieldValue::Bool(false))
    );
}

#[test]
fn r_sp_4_a_dynamic_binding_reads_the_immediate_context_instance() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.legacy(|c| {
        pipeline(&f, c);
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
        c.draw(3, 0);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(
        field(imm.gpu(), 0, "vs.cb.0"),
        Some(at(f.cb_dyn, InstanceId::INITIAL))
    );
}

#[test]
fn r_rec_9_a_nested_list_runs_where_it_was_executed() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let inner = f.fast(|c| c.draw(4, 0));
    let mut outer = f.context(Semantics::Fast);
    outer.draw(3, 0);
    outer.execute_command_list(&inner, RestoreState::ClearState);
    outer.draw(5, 0);
    let outer = outer.finish_command_list(RestoreState::ClearState).unwrap();
    drop(inner);
    imm.execute_command_list(&outer, RestoreState::ClearState)
        .unwrap();
    let vertex_counts: Vec<_> = (0..3).map(|i| shown(imm.gpu(), i, "args")).collect();
    assert_eq!(vertex_counts, ["3,0", "4,0", "5,0"]);
}

/// Runs `body` on a thread with a 256 KB stack: room for any one call of the engine, far too
/// little for a walk that takes a stack frame per nesting level.
fn on_small_stack<T: Send>(body: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("small-stack".into())
            .stack_size(256 << 10)
            .spawn_scoped(scope, body)
            .expect("spawn a small-stack thread")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A chain of `depth` lists of `semantics`, each executing the one before (with `restore`
/// where legacy allows it); the first binds the constant buffer and draws. Every list is one
/// 4 KB chunk.
fn nested_chain(f: &Fixture, semantics: Semantics, depth: usize) -> CommandList {
    let mut context = f
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "chain",
            semantics,
            chunk_policy: Some(ChunkPolicy {
                chunk_size: limits::MIN_CHUNK_SIZE,
                ..ChunkPolicy::default()
            }),
            ..Default::default()
        })
        .expect("create the chain's context");
    context.set_shader(Stage::Vertex, Some(f.vs));
    context.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    context.draw(3, 0);
    let finish = |context: &mut DeferredContext| {
        context
            .finish_command_list(RestoreState::ClearState)
            .unwrap_or_else(|e| panic!("finish_command_list: {e}"))
    };
    let mut list = finish(&mut context);
    for level in 1..depth {
        let restore = semantics == Semantics::Legacy && level % 2 == 0;
        context.execute_command_list(
            &list,
            if restore {
                RestoreState::Restore
            } else {
                RestoreState::ClearState
            },
        );
        list = finish(&mut context);
    }
    list
}

#[test]
fn r_rec_9_a_chain_of_100000_nested_lists_executes_without_recursion() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        on_small_stack(|| {
            let f = Fixture::with_immediate(semantics);
            let mut imm = ImmediateContext::new(&f.device).unwrap();
            let list = nested_chain(&f, semantics, 100_000);
            imm.execute_command_list(&list, RestoreState::ClearState)
                .unwrap_or_else(|e| panic!("{semantics:?}: {e}"));
            assert_eq!(imm.counters().draws, 1, "{semantics:?}");
            assert_eq!(field(imm.gpu(), 0, "vs.cb.0"), Some(object(f.cb)));
        });
    }
}

#[test]
fn r_rec_9_a_chain_of_100000_nested_lists_executes_under_validation_without_recursion() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        on_small_stack(|| {
            let f = Fixture::validated(semantics);
            let mut imm = ImmediateContext::new(&f.device).unwrap();
            let list = nested_chain(&f, semantics, 100_000);
            imm.execute_command_list(&list, RestoreState::ClearState)
                .unwrap_or_else(|e| panic!("{semantics:?}: {e}"));
            assert_eq!(imm.counters().draws, 1, "{semantics:?}");
            // Released: the fast chain is refused from 100,000 levels up; the legacy chain keeps
            // the buffer alive and runs (R-OBJ-4, R-V-1).
            f.device.release(f.cb);
            let again = imm.execute_command_list(&list, RestoreState::ClearState);
            match semantics {
                Semantics::Fast => {
                    let error = again.expect_err("a fast list names a released buffer");
                    assert_eq!(error.kind(), ErrorKind::ReleasedObject);
                    assert_eq!(imm.counters().draws, 1);
                }
                Semantics::Legacy => {
                    again.expect("the legacy chain holds the buffer");
                    assert_eq!(imm.counters().draws, 2);
                }
            }
        });
    }
}

#[test]
fn r_ex_1_a_list_of_another_device_is_refused() {
    let f = Fixture::new();
    let other = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let error = imm
        .execute_command_list(&draws(&other, Semantics::Fast), RestoreState::ClearState)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert_eq!(imm.counters().draws, 0);
}

#[test]
fn r_ex_1_direct_calls_run_in_order_with_executed_lists() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.set_input_layout(Some(f.layout));
    imm.set_shader(Stage::Vertex, Some(f.vs));
    imm.set_vertex_buffers(0, &[vertex(f.vb)]);
    imm.draw(3, 0);
    // A fast list inherits what the direct calls bound, and its draw comes second.
    imm.execute_command_list(&draws(&f, Semantics::Fast), RestoreState::ClearState)
        .unwrap();
    imm.set_vertex_buffers(0, &[vertex(f.vb2)]);
    imm.draw(5, 0);
    assert_eq!(
        imm.gpu_now().unwrap().records().len(),
        2,
        "the last calls wait for a flush"
    );
    assert_eq!(imm.records().len(), 3, "which reading the records does");
    let buffers: Vec<_> = (0..3).map(|i| field(imm.gpu(), i, "vb.0")).collect();
    assert_eq!(buffers[..2], [Some(object(f.vb)), Some(object(f.vb))]);
    assert_eq!(field(imm.gpu(), 2, "vb.0"), Some(object(f.vb2)));
}

#[test]
fn r_ex_1_a_device_has_one_immediate_context_and_it_finishes_no_list() {
    let f = Fixture::new();
    let imm = ImmediateContext::new(&f.device).unwrap();
    let second = ImmediateContext::new(&f.device).unwrap_err();
    assert_eq!(second.kind(), ErrorKind::InvalidArgument);
    // It finishes no list: `ImmediateContext` has no `finish_command_list` (the compile_fail
    // doctest in `executor/src/immediate.rs`).
    drop(imm);
    assert!(
        ImmediateContext::new(&f.device).is_ok(),
        "another once the first is gone"
    );
}

#[test]
fn r_ex_7_present_rotates_the_back_buffers() {
    let f = Fixture::new();
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let mut seen = vec![f.device.current_back_buffer(chain).unwrap()];
    for _ in 0..3 {
        imm.present(chain).unwrap();
        seen.push(f.device.current_back_buffer(chain).unwrap());
    }
    assert_eq!(seen, [0, 1, 2, 0]);
}

#[test]
fn r_obj_4_a_released_but_bound_object_is_destroyed_at_the_present_after_its_unbind() {
    let f = Fixture::new();
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let buffer = f
        .device
        .create_buffer(&BufferDesc {
            name: "doomed",
            size: 64,
            bind: BindFlags::VERTEX,
            ..Default::default()
        })
        .unwrap();
    imm.set_vertex_buffers(0, &[vertex(buffer)]);
    imm.flush().unwrap();
    f.device.release(buffer);
    assert!(!f.device.is_alive(buffer), "released: no new use");
    imm.present(chain).unwrap();
    assert_eq!(
        f.device.references(buffer),
        Some(1),
        "still bound: kept (legacy)"
    );
    imm.set_vertex_buffers(0, &[VertexBuffer::default()]);
    imm.present(chain).unwrap();
    assert_eq!(
        f.device.references(buffer),
        None,
        "destroyed at the present after the unbind"
    );
}

#[test]
fn r_st_4_a_fast_immediate_context_clears_its_state_at_present_and_resume() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    for present in [true, false] {
        imm.set_shader(Stage::Vertex, Some(f.vs));
        imm.draw(3, 0);
        if present {
            imm.present(chain).unwrap();
        } else {
            imm.resume();
        }
        imm.draw(3, 0);
        let last = imm.records().len() - 1;
        assert_eq!(field(imm.gpu(), last - 1, "vs"), Some(object(f.vs)));
        assert_eq!(
            field(imm.gpu(), last, "vs"),
            Some(FieldValue::Null),
            "present={present}"
        );
    }
}

#[test]
fn r_st_9_the_immediate_context_reads_and_overrides_compression() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    assert!(!imm.resource_compression(f.rt));
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    assert!(imm.resource_compression(f.rt), "a full clear compresses");
    imm.set_resource_compression(f.rt, Compression::Decompressed);
    assert!(!imm.resource_compression(f.rt), "the override");
}

#[test]
fn r_ex_3_a_gpu_model_running_behind_or_on_its_thread_sees_what_an_inline_one_sees() {
    let run = |timing: GpuTiming| {
        let f = Fixture::with_immediate(Semantics::Fast);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        imm.set_gpu_timing(timing);
        let list = f.legacy(|c| {
            pipeline(&f, c);
            c.set_render_targets(&[Some(f.rt_rtv)], None);
            c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
            c.set_shader_resources(Stage::Vertex, 0, &[Some(f.rt_srv)]);
            c.draw(3, 0);
        });
        imm.set_shader(Stage::Vertex, Some(f.vs));
        imm.draw(1, 0);
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        let seen_before_sync = imm.gpu_now().map(|gpu| gpu.records().len());
        imm.draw(2, 0);
        let records: Vec<String> = imm.records().iter().map(|r| r.to_string()).collect();
        (seen_before_sync, records, *imm.counters())
    };
    let (inline_seen, inline_records, inline_counters) = run(GpuTiming::Inline);
    let (deferred_seen, deferred_records, deferred_counters) = run(GpuTiming::Deferred);
    assert_eq!(
        (inline_seen, deferred_seen),
        (Some(2), Some(0)),
        "deferred: nothing consumed until observed"
    );
    assert_eq!(deferred_records, inline_records);
    assert_eq!(deferred_counters, inline_counters);
    let (threaded_seen, threaded_records, threaded_counters) = run(GpuTiming::Threaded);
    assert_eq!(threaded_seen, None, "threaded: the model is on its thread");
    assert_eq!(threaded_records, inline_records);
    assert_eq!(threaded_counters, inline_counters);
}

/// Each command of a list is decoded once when the list executes (the decode-once layout): a run's
/// commands by the GPU model as it consumes them, a split point by the segment walk, which hands
/// the GPU model the decoded command (`SplitPointQueue`). Counted in debug builds, where the
/// decoder counts what it decodes on its thread (the GPU model consumes inline, on this one).
#[cfg(debug_assertions)]
#[test]
fn r_sp_4_each_command_is_decoded_once_at_execution() {
    use recorder::command::decodes_on_this_thread;
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.legacy(|c| {
        pipeline(&f, c);
        for draw in 0..5 {
            // A dynamic buffer not mapped in the list: each bind is a split point.
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
            c.draw(3, draw);
        }
    });
    assert_eq!(list.stats().split_points.total(), 5, "five split points");
    let commands = list.stats().commands as u64;
    let before = decodes_on_this_thread();
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(imm.records().len(), 5);
    assert_eq!(
        decodes_on_this_thread() - before,
        commands,
        "{commands} commands, each decoded once"
    );
}
