//! R-FX-1 / R-OBJ-3: the calls that keep the fast contract on every context take no
//! reference, so a list that names an object through them is checked at every execution,
//! legacy or fast, with or without validation: one that names a released object is refused as
//! `released_object` and never runs. R-FX-6: a title-managed list is refused so, nested too.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

/// A buffer of the fixture's device that a test releases.
fn doomed(f: &Fixture, name: &str, usage: Usage, bind: BindFlags) -> Buffer {
    f.device
        .create_buffer(&BufferDesc {
            name,
            size: 256,
            usage,
            bind,
            ..Default::default()
        })
        .expect("a buffer")
}

fn release(f: &Fixture, buffer: Buffer) {
    f.device.release(buffer);
    f.device.process_deferred_releases();
}

/// Executes `list` on a new immediate context of `f`: its result and the draws it made.
fn execute(f: &Fixture, list: &CommandList) -> (Result<(), Error>, u64) {
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let result = imm.execute_command_list(list, RestoreState::ClearState);
    let draws = imm.counters().draws;
    (result, draws)
}

fn assert_refused(result: Result<(), Error>, draws: u64, name: &str, what: &str) {
    let error = result.expect_err(what);
    assert!(
        matches!(error, Error::ReleasedObject { .. }),
        "{what}: {error:?}"
    );
    assert!(error.to_string().contains(name), "{what}: {error}");
    assert_eq!(draws, 0, "{what}: nothing ran");
}

#[test]
fn r_fx_1_a_legacy_list_naming_a_released_object_through_set_fast_resources_is_refused() {
    for (validated, semantics) in [
        (false, Semantics::Legacy),
        (true, Semantics::Legacy),
        (false, Semantics::Fast),
        (true, Semantics::Fast),
    ] {
        let f = match validated {
            true => Fixture::validated(semantics),
            false => Fixture::with_immediate(semantics),
        };
        let cb = doomed(&f, "fast_cb", Usage::Default, BindFlags::CONSTANT);
        let list = f.list(Semantics::Legacy, |c| {
            c.set_shader(Stage::Vertex, Some(f.vs));
            c.set_fast_resources(&[FastResource::ConstantBuffer {
                stage: Stage::Vertex,
                slot: 0,
                buffer: Some(cb),
            }]);
            c.draw(3, 0);
        });
        assert!(list.checked_at_every_execution());
        release(&f, cb);
        let (result, draws) = execute(&f, &list);
        let what = format!("validated={validated}, {semantics:?} immediate");
        assert_refused(result, draws, "fast_cb", &what);
    }
}

#[test]
fn r_fx_1_every_fast_contract_call_marks_the_list_and_is_checked() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    // set_predication_from_query: the query.
    let query = f
        .device
        .create_query("doomed_predicate", QueryKind::Predicate)
        .unwrap();
    let list = f.legacy(|c| {
        c.set_predication_from_query(Some(query), PredicateValue::True);
        c.draw(3, 0);
    });
    f.device.release(query);
    f.device.process_deferred_releases();
    let (result, draws) = execute(&f, &list);
    assert_refused(
        result,
        draws,
        "doomed_predicate",
        "set_predication_from_query",
    );
    // read_gds: the destination.
    let target = doomed(&f, "gds_target", Usage::Default, BindFlags::default());
    let list = f.legacy(|c| {
        c.read_gds(0, 2, target, 0);
        c.draw(3, 0);
    });
    release(&f, target);
    let (result, draws) = execute(&f, &list);
    assert_refused(result, draws, "gds_target", "read_gds");
    // A placement bind: the buffer.
    let vb = doomed(&f, "placed_vb", Usage::Default, BindFlags::VERTEX);
    let list = f.legacy(|c| {
        c.set_placement_vertex_buffer(0, vb, 16, 0, 0x1000);
        c.draw(3, 0);
    });
    release(&f, vb);
    let (result, draws) = execute(&f, &list);
    assert_refused(result, draws, "placed_vb", "set_placement_vertex_buffer");
}

#[test]
fn r_fx_1_a_legacy_list_without_fast_contract_calls_keeps_what_it_names() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let cb = doomed(&f, "held_cb", Usage::Default, BindFlags::CONSTANT);
    let list = f.legacy(|c| {
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
        c.draw(3, 0);
    });
    assert!(!list.checked_at_every_execution(), "no check to pay for");
    release(&f, cb);
    let (result, draws) = execute(&f, &list);
    assert!(result.is_ok(), "the list holds its reference: {result:?}");
    assert_eq!(draws, 1);
    // The same object named by an ordinary bind too: the list keeps it alive for both.
    let cb = doomed(&f, "both_cb", Usage::Default, BindFlags::CONSTANT);
    let list = f.legacy(|c| {
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
        c.set_fast_resources(&[FastResource::ConstantBuffer {
            stage: Stage::Vertex,
            slot: 0,
            buffer: Some(cb),
        }]);
        c.draw(3, 0);
    });
    release(&f, cb);
    let (result, draws) = execute(&f, &list);
    assert!(result.is_ok(), "held by the list: {result:?}");
    assert_eq!(draws, 1);
}

#[test]
fn r_fx_1_a_list_nesting_a_checked_list_is_checked() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let cb = doomed(&f, "nested_fast_cb", Usage::Default, BindFlags::CONSTANT);
    let inner = f.legacy(|c| {
        c.set_fast_resources(&[FastResource::ConstantBuffer {
            stage: Stage::Vertex,
            slot: 0,
            buffer: Some(cb),
        }]);
        c.draw(3, 0);
    });
    let outer = f.legacy(|c| {
        c.draw(3, 0);
        c.execute_command_list(&inner, RestoreState::ClearState);
    });
    assert!(outer.checked_at_every_execution());
    drop(inner);
    release(&f, cb);
    let (result, draws) = execute(&f, &outer);
    assert_refused(result, draws, "nested_fast_cb", "nested");
}

#[test]
fn r_fx_6_a_title_managed_list_nested_in_another_is_refused_without_validation() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let cb = doomed(&f, "title_cb", Usage::Default, BindFlags::CONSTANT);
    let mut title = f
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "title",
            semantics: Semantics::Legacy,
            title_managed_lifetimes: true,
            ..Default::default()
        })
        .unwrap();
    title.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
    title.draw(3, 0);
    let inner = title.finish_command_list(RestoreState::ClearState).unwrap();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let outer = f.list(semantics, |c| {
            c.draw(3, 0);
            c.execute_command_list(&inner, RestoreState::ClearState);
        });
        let twice = f.legacy(|c| c.execute_command_list(&outer, RestoreState::ClearState));
        if semantics == Semantics::Legacy {
            release(&f, cb);
        }
        assert!(!f.device.is_alive(cb), "nothing held it");
        let (result, draws) = execute(&f, &outer);
        assert_refused(result, draws, "title_cb", "nested once");
        let (result, draws) = execute(&f, &twice);
        assert_refused(result, draws, "title_cb", "nested twice");
    }
}
