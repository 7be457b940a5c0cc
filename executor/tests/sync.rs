//! Synchronisation on the immediate context: fences and engines (R-EX-5), maps that wait or not
//! (R-EX-6), presents, waits on present and back-buffer affinity (R-EX-7), the state getters
//! (R-ST-4), and the violations validation mode reports (R-V-1).

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

fn staging(f: &Fixture) -> Buffer {
    let desc = BufferDesc {
        name: "readback",
        size: 256,
        usage: Usage::Staging,
        bind: BindFlags::NONE,
        uav_flag: UavFlag::None,
        placement: None,
    };
    f.device.create_buffer(&desc).unwrap()
}

fn fence_waits(imm: &mut ImmediateContext) -> u64 {
    imm.counters().fence_waits
}

/// Draws into back buffer `index` of `chain`, with the vertex shader bound.
fn draw_to_back_buffer(f: &Fixture, c: &mut impl DeviceContext, chain: SwapChain, index: usize) {
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_render_targets(&[Some(back_buffer_rtv(f, chain, index))], None);
    c.draw(3, 0);
}

// ----- R-EX-5: fences and engines -------------------------------------------------------------

#[test]
fn r_ex_5_insert_fence_returns_increasing_values_on_every_context() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let mut dc = f.context(Semantics::Fast);
    let values = [
        imm.insert_fence(Engine::Graphics),
        dc.insert_fence(Engine::Compute),
        imm.insert_fence(Engine::Dma),
        dc.insert_fence(Engine::Graphics),
    ];
    assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
    assert!(values[0] > 0);
}

#[test]
fn r_ex_5_a_fence_is_pending_until_the_work_before_it_has_run() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let mut dc = f.context(Semantics::Fast);
    dc.draw(3, 0);
    let fence = dc.insert_fence(Engine::Graphics);
    let list = dc.finish_command_list(RestoreState::ClearState).unwrap();
    assert!(imm.is_fence_pending(fence), "its list has not executed");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert!(!imm.is_fence_pending(fence));
    let direct = imm.insert_fence(Engine::Graphics);
    assert!(
        !imm.is_fence_pending(direct),
        "a direct fence passes once run"
    );
    assert!(
        imm.is_fence_pending(direct + 100),
        "never inserted: pending"
    );
}

#[test]
fn r_ex_5_a_wait_on_a_fence_never_inserted_is_refused() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let last = imm.insert_fence(Engine::Graphics);
    imm.insert_wait_on_fence(Engine::Compute, last + 1);
    let refusal = imm.last_refusal().expect("refused").clone();
    assert_eq!(refusal.kind(), ErrorKind::InvalidArgument);
    assert!(
        matches!(
            refusal,
            Error::OutOfRange {
                call: "insert_wait_on_fence",
                argument: "fence",
                ..
            }
        ),
        "{refusal}"
    );
    let mut dc = f.context(Semantics::Fast);
    dc.insert_wait_on_fence(Engine::Graphics, 0);
    let error = dc
        .finish_command_list(RestoreState::ClearState)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
}

#[test]
fn r_ex_5_waits_on_fences_and_memory_are_counted() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let fence = imm.insert_fence(Engine::Compute);
    let list = f.fast(|c| {
        c.insert_wait_on_fence(Engine::Graphics, fence);
        c.insert_wait_on_memory(f.args, 8, 1);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(fence_waits(&mut imm), 2);
}

#[test]
fn r_ex_5_a_bottom_of_pipe_value_is_read_back_once_written() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.fast(|c| c.write_value_bottom_of_pipe(f.args, 8, 42));
    assert_eq!(imm.memory_value(f.args, 8), None);
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(imm.memory_value(f.args, 8), Some(42));
    assert_eq!(imm.memory_value(f.args, 16), None);
}

#[test]
fn r_ex_5_compute_contexts_are_always_fast() {
    let f = Fixture::new();
    let desc = |semantics| DeferredContextDesc {
        name: "async compute",
        semantics,
        engine: Engine::Compute,
        ..Default::default()
    };
    let error = f
        .device
        .create_deferred_context(&desc(Semantics::Legacy))
        .expect_err("a legacy compute context is refused");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(
        matches!(
            error,
            Error::InvalidDesc {
                problem: DescProblem::EngineNeedsFast {
                    engine: Engine::Compute
                },
                ..
            }
        ),
        "{error}"
    );
    let compute = f
        .device
        .create_deferred_context(&desc(Semantics::Fast))
        .unwrap();
    assert_eq!(
        (compute.engine(), compute.semantics()),
        (Engine::Compute, Semantics::Fast)
    );
}

// ----- R-EX-6: maps ----------------------------------------------------------------------------

#[test]
fn r_ex_6_a_legacy_map_of_a_buffer_the_gpu_uses_waits_for_it() {
    let f = Fixture::new();
    let readback = staging(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.copy_resource(readback, f.sb);
    assert!(imm
        .map(readback, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok());
    imm.unmap(readback);
    assert_eq!(fence_waits(&mut imm), 1, "waited for the copy");
    assert!(imm
        .map(readback, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok());
    imm.unmap(readback);
    assert_eq!(fence_waits(&mut imm), 1, "finished: no second wait");
}

#[test]
fn r_ex_6_a_fast_map_never_waits() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let readback = staging(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.copy_resource(readback, f.sb);
    assert!(imm
        .map(readback, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok());
    imm.unmap(readback);
    assert_eq!(fence_waits(&mut imm), 0);
}

#[test]
fn r_ex_6_a_fast_list_updates_no_fence_so_a_legacy_map_does_not_wait_for_it() {
    let f = Fixture::new();
    let readback = staging(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.fast(|c| c.copy_resource(readback, f.sb));
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert!(imm
        .map(readback, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok());
    assert_eq!(fence_waits(&mut imm), 0, "fast semantics updates no fence");
    let list = f.legacy(|c| c.copy_resource(f.sb, readback));
    imm.unmap(readback);
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert!(imm
        .map(readback, MapType::Write, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok());
    assert_eq!(fence_waits(&mut imm), 1, "a legacy list does");
}

#[test]
fn r_ex_6_a_legacy_map_of_an_indirect_argument_buffer_does_not_wait_for_it() {
    // Seed 000: the DrawIndirect APIs apply fast semantics synchronisation to the indirect
    // arguments buffer: its use as arguments updates no fence, a legacy map does not wait.
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.set_shader(Stage::Vertex, Some(f.vs));
    imm.draw_instanced_indirect(f.args, 0);
    imm.draw_indexed_instanced_indirect(f.args, 16);
    imm.set_shader(Stage::Compute, Some(f.cs));
    imm.dispatch_indirect(f.args, 32);
    let list = f.legacy(|c| c.draw_instanced_indirect(f.args, 0));
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert!(imm
        .map(f.args, MapType::Write, MapFlags::AllowUsageDefault)
        .map(Mapped::keep_mapped)
        .is_ok());
    imm.unmap(f.args);
    assert_eq!(fence_waits(&mut imm), 0, "indirect arguments: no wait");
    // Any other use of it is a legacy use: the map waits for that.
    imm.copy_resource(f.args, f.cb);
    imm.draw_instanced_indirect(f.args, 0);
    assert!(imm
        .map(f.args, MapType::Write, MapFlags::AllowUsageDefault)
        .map(Mapped::keep_mapped)
        .is_ok());
    imm.unmap(f.args);
    assert_eq!(fence_waits(&mut imm), 1, "waited for the copy");
}

#[test]
fn r_v_1_a_fast_map_of_an_indirect_argument_buffer_in_use_is_still_reported() {
    let f = Fixture::validated(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.draw_instanced_indirect(f.args, 0);
    let error = imm
        .map(f.args, MapType::Write, MapFlags::AllowUsageDefault)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ResourceInUse, "{error}");
}

#[test]
fn r_ex_6_read_and_write_maps_need_staging_or_allow_usage_default() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    for (buffer, allow) in [(f.cb_dyn, false), (f.vb, false), (f.cb, false)] {
        let error = imm
            .map(
                buffer,
                MapType::Read,
                if allow {
                    MapFlags::AllowUsageDefault
                } else {
                    MapFlags::None
                },
            )
            .map(Mapped::keep_mapped)
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        assert!(
            matches!(error, Error::WrongUsage { call: "map", usage, .. } if usage != Usage::Staging),
            "{error}"
        );
    }
    assert!(imm
        .map(f.cb, MapType::ReadWrite, MapFlags::AllowUsageDefault)
        .map(Mapped::keep_mapped)
        .is_ok());
    let error = imm
        .map(f.cb, MapType::Read, MapFlags::AllowUsageDefault)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert!(
        matches!(error, Error::AlreadyMapped { call: "map", ref object, .. } if object.handle == f.cb.raw()),
        "{error}"
    );
    imm.unmap(f.cb);
    let error = imm
        .map(f.tex, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::MapNotAllowed {
                call: "map",
                map_type: MapType::Read,
                ref object,
                ..
            } if object.kind == ObjectKind::Texture
        ),
        "{error}"
    );
}

#[test]
fn r_ex_6_what_a_write_map_wrote_a_read_map_reads() {
    let f = Fixture::new();
    let buffer = staging(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.map(buffer, MapType::Write, MapFlags::None).unwrap()[..4].copy_from_slice(&[1, 2, 3, 4]); // unmapped on drop
    let data = imm
        .map(buffer, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap();
    assert_eq!(&data[..5], &[1, 2, 3, 4, 0]);
    assert_eq!(data.len(), 256);
}

#[test]
fn r_ex_6_write_discard_on_the_immediate_context_never_waits() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.set_shader(Stage::Vertex, Some(f.vs));
    imm.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
    imm.draw(3, 0);
    assert_eq!(
        imm.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap()
            .len(),
        256
    );
    imm.unmap(f.cb_dyn);
    let error = imm
        .map(f.vb, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert_eq!(fence_waits(&mut imm), 0);
}

// ----- R-EX-7: presents, waits on present, affinity --------------------------------------------

#[test]
fn r_ex_7_legacy_waits_on_present_at_every_bind_of_a_back_buffer() {
    let f = Fixture::new();
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    for _ in 0..2 {
        draw_to_back_buffer(&f, &mut imm, chain, 0);
    }
    imm.set_render_targets(&[Some(f.rt_rtv)], None);
    assert_eq!(
        fence_waits(&mut imm),
        2,
        "one per back-buffer bind, none for rt"
    );
}

#[test]
fn r_ex_7_fast_waits_only_where_told() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    draw_to_back_buffer(&f, &mut imm, chain, 0);
    assert_eq!(fence_waits(&mut imm), 0, "no implicit wait");
    imm.insert_wait_on_present(chain);
    draw_to_back_buffer(&f, &mut imm, chain, 0);
    assert_eq!(fence_waits(&mut imm), 1);
}

#[test]
fn r_ex_7_a_list_is_bound_to_the_back_buffer_it_was_recorded_against() {
    for validation in [false, true] {
        let f = match validation {
            true => Fixture::validated(Semantics::Fast),
            false => Fixture::with_immediate(Semantics::Fast),
        };
        let chain = swap_chain(&f);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        let list = f.fast(|c| {
            c.insert_wait_on_present(chain);
            draw_to_back_buffer(&f, c, chain, 0);
        });
        assert_eq!(list.back_buffer_affinity(), Some((chain, 0)));
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        imm.present(chain).unwrap();
        let result = imm.execute_command_list(&list, RestoreState::ClearState);
        if validation {
            let error = result.unwrap_err();
            assert_eq!(error.kind(), ErrorKind::BackBufferAffinity);
            assert!(error.to_string().contains("'chain'"), "{error}");
            assert_eq!(imm.counters().draws, 1, "refused: nothing ran");
        } else {
            result.unwrap();
            let records = imm.records();
            assert_eq!(records.len(), 2, "without validation it runs as recorded");
        }
    }
}

// ----- R-ST-4: getters ------------------------------------------------------------------------

#[test]
fn r_st_4_legacy_getters_read_the_state_and_fast_ones_return_nothing() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.set_shader(Stage::Pixel, Some(f.ps));
    imm.set_constant_buffers(Stage::Pixel, 1, &[Some(f.cb)]);
    imm.set_shader_resources(Stage::Pixel, 2, &[Some(f.tex_srv)]);
    assert_eq!(imm.get_shader(Stage::Pixel), Some(f.ps));
    assert_eq!(imm.get_constant_buffer(Stage::Pixel, 1), Some(f.cb));
    assert_eq!(imm.get_shader_resource(Stage::Pixel, 2), Some(f.tex_srv));
    assert_eq!(
        imm.get_constant_buffer(Stage::Pixel, 99),
        None,
        "out of range"
    );
    let list = f.legacy(|c| c.set_shader(Stage::Pixel, Some(f.ps_uavs)));
    imm.execute_command_list(&list, RestoreState::Restore)
        .unwrap();
    assert_eq!(imm.get_shader(Stage::Pixel), Some(f.ps), "restored");

    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.set_shader(Stage::Pixel, Some(f.ps));
    assert!(imm.get_state().is_none());
    assert_eq!(imm.get_shader(Stage::Pixel), None);
}

// ----- R-V-1: validation -----------------------------------------------------------------------

#[test]
fn r_v_1_a_fast_map_of_a_buffer_in_use_is_refused_until_a_fence_passes() {
    let f = Fixture::validated(Semantics::Fast);
    let readback = staging(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.copy_resource(readback, f.sb);
    let error = imm
        .map(readback, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ResourceInUse);
    let message = error.to_string();
    for part in [
        "fast semantics",
        "buffer 'readback'",
        "graphics engine",
        "fence 0x",
        "Explicit synchronization",
    ] {
        assert!(message.contains(part), "{message}");
    }
    let fence = imm.insert_fence(Engine::Graphics);
    assert!(!imm.is_fence_pending(fence));
    assert!(
        imm.map(readback, MapType::Read, MapFlags::None)
            .map(Mapped::keep_mapped)
            .is_ok(),
        "synchronised"
    );
    assert_eq!(imm.counters().fence_waits, 0, "fast never waits");
}

#[test]
fn r_v_1_a_first_write_to_a_back_buffer_without_a_wait_on_present_is_reported() {
    let f = Fixture::validated(Semantics::Fast);
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    draw_to_back_buffer(&f, &mut imm, chain, 0);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::MissingWaitOnPresent);
    assert!(
        error.to_string().contains("insert_wait_on_present"),
        "{error}"
    );
    draw_to_back_buffer(&f, &mut imm, chain, 0);
    imm.flush().expect("one report a frame");
    imm.present(chain).unwrap();

    // The next frame's buffer needs its own wait; a list may carry it, or the context.
    let unwaited = f.fast(|c| draw_to_back_buffer(&f, c, chain, 1));
    let error = imm
        .execute_command_list(&unwaited, RestoreState::ClearState)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::MissingWaitOnPresent);
    imm.present(chain).unwrap();
    imm.insert_wait_on_present(chain);
    let list = f.fast(|c| draw_to_back_buffer(&f, c, chain, 2));
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    imm.present(chain).unwrap();
    let waits = f.fast(|c| {
        c.insert_wait_on_present(chain);
        c.clear_render_target_view(back_buffer_rtv(&f, chain, 0), [0.0; 4]);
    });
    imm.execute_command_list(&waits, RestoreState::ClearState)
        .unwrap();
}

#[test]
fn r_v_1_a_clear_or_copy_is_a_write_to_the_back_buffer_too() {
    let f = Fixture::validated(Semantics::Fast);
    let chain = swap_chain(&f);
    let (back_buffer, rtv) = f.device.swap_chain_info(chain).unwrap().buffers[0];
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(rtv, [0.0; 4]);
    assert_eq!(
        imm.flush().unwrap_err().kind(),
        ErrorKind::MissingWaitOnPresent
    );
    // The clear compressed it: presenting it so would be reported too (R-V-1).
    imm.decompress_resource(back_buffer, None);
    imm.present(chain).unwrap();
    imm.present(chain).unwrap();
    imm.present(chain).unwrap();
    imm.copy_resource(back_buffer, f.rt);
    assert_eq!(
        imm.flush().unwrap_err().kind(),
        ErrorKind::MissingWaitOnPresent
    );
}

#[test]
fn r_v_1_a_shader_read_of_a_still_compressed_target_is_reported() {
    let f = Fixture::validated(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    imm.set_shader(Stage::Pixel, Some(f.ps));
    imm.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    imm.draw(3, 0);
    let error = imm.flush().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CompressedRead);
    assert!(error.to_string().contains("'rt_srv'"), "{error}");
    assert!(error.to_string().contains("decompress_resource"), "{error}");
    imm.decompress_resource(f.rt, None);
    imm.draw(3, 0);
    imm.flush().expect("decompressed first");

    // A legacy immediate context decompresses on the bind itself: nothing to report.
    let f = Fixture::validated(Semantics::Legacy);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    imm.set_shader(Stage::Pixel, Some(f.ps));
    imm.set_shader_resources(Stage::Pixel, 0, &[Some(f.rt_srv)]);
    imm.draw(3, 0);
    imm.flush().unwrap();
}

#[test]
fn r_v_1_executing_a_fast_list_that_names_a_released_object_is_refused() {
    for validation in [false, true] {
        let f = match validation {
            true => Fixture::validated(Semantics::Fast),
            false => Fixture::with_immediate(Semantics::Fast),
        };
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        let list = f.fast(|c| {
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
            c.draw(3, 0);
        });
        f.device.release(f.cb);
        let result = imm.execute_command_list(&list, RestoreState::ClearState);
        if validation {
            let error = result.unwrap_err();
            assert_eq!(error.kind(), ErrorKind::ReleasedObject);
            assert!(error.to_string().contains("buffer 'cb'"), "{error}");
            assert_eq!(imm.counters().draws, 0, "refused: nothing ran");
        } else {
            result.expect("without validation the application's promise is taken (R-OBJ-4)");
        }
    }
}

#[test]
fn r_v_1_a_legacy_list_executed_after_the_application_released_its_buffer_is_valid() {
    // A legacy list keeps what it recorded alive (R-OBJ-4): validation holds it to legacy rules
    // only. A fast list may not name what the application released, destroyed or kept alive by
    // someone else. Each nested list follows its own semantics' rule.
    for immediate in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::validated(immediate);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        let binds_cb = |c: &mut DeferredContext| {
            c.set_shader(Stage::Vertex, Some(f.vs));
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
            c.draw(3, 0);
        };
        let legacy = f.legacy(binds_cb);
        let fast = f.fast(binds_cb);
        let fast_around_legacy =
            f.fast(|c| c.execute_command_list(&legacy, RestoreState::ClearState));
        let legacy_around_fast =
            f.legacy(|c| c.execute_command_list(&fast, RestoreState::ClearState));
        f.device.release(f.cb);
        assert!(
            f.device.references(f.cb).is_some_and(|n| n > 0),
            "the legacy list keeps the buffer alive"
        );
        imm.execute_command_list(&legacy, RestoreState::ClearState)
            .unwrap_or_else(|e| panic!("{immediate:?}: the legacy list is valid: {e}"));
        imm.execute_command_list(&fast_around_legacy, RestoreState::ClearState)
            .unwrap_or_else(|e| panic!("{immediate:?}: the nested legacy list is valid: {e}"));
        assert_eq!(imm.counters().draws, 2);
        assert_eq!(field(imm.gpu(), 1, "vs.cb.0"), Some(object(f.cb)));
        for list in [&fast, &legacy_around_fast] {
            let error = imm
                .execute_command_list(list, RestoreState::ClearState)
                .unwrap_err();
            assert_eq!(error.kind(), ErrorKind::ReleasedObject);
            assert!(error.to_string().contains("buffer 'cb'"), "{error}");
        }
        assert_eq!(imm.counters().draws, 2, "refused: nothing ran");
    }
}

#[test]
fn r_v_1_mixing_semantics_in_one_scope_is_refused_with_validation_too() {
    let f = Fixture::validated(Semantics::Legacy);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.begin_command_list_execution();
    imm.execute_command_list(&f.fast(|c| c.draw(3, 0)), RestoreState::ClearState)
        .unwrap();
    let error = imm
        .execute_command_list(&f.legacy(|c| c.draw(3, 0)), RestoreState::ClearState)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::MixedSemantics);
    imm.end_command_list_execution();
}

#[test]
fn r_ex_7_presenting_a_released_swap_chain_is_refused() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.present(chain).unwrap();
    f.device.release(chain);
    let error = imm.present(chain).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ReleasedObject);
    assert!(error.to_string().contains("'chain'"), "{error}");
}
