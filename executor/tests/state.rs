//! What executed work sees: execution cost in segments (R-EX-2), minimum LOD (R-ST-6) and
//! dynamic-resource instances per context (R-ST-8), end to end through the immediate context.

mod common;

use common::*;
use executor::{FieldValue, ImmediateContext};
use recorder::command::InstanceId;
use recorder::*;

/// The instance record `index` shows at `name`.
#[track_caller]
fn instance(imm: &mut ImmediateContext, index: usize, name: &str) -> InstanceId {
    match imm.records()[index].field(name) {
        Some(FieldValue::Object { instance, .. }) => instance,
        other => panic!("record {index} {name}: {other:?}"),
    }
}

#[track_caller]
fn min_lod(imm: &mut ImmediateContext, index: usize) -> String {
    imm.sync_gpu();
    shown(imm.gpu(), index, "vs.srv.0.min_lod")
}

fn bind_and_draw(f: &Fixture, c: &mut impl DeviceContext) {
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_shader_resources(Stage::Vertex, 0, &[Some(f.tex_srv)]);
    c.draw(3, 0);
}

// ----- R-EX-2 ----------------------------------------------------------------------------------

#[test]
fn r_ex_2_a_list_goes_to_the_gpu_in_one_run_per_segment_whatever_its_length() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    for draws in [10, 10_000] {
        let list = f.fast(|c| (0..draws).for_each(|_| c.draw(3, 0)));
        assert_eq!(list.segments().count(), 1);
        let before = imm.counters().ib_executions;
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        assert_eq!(imm.counters().ib_executions - before, 1, "{draws} draws");
    }
    // Legacy: each split point cuts the list; runs between them go by reference.
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.legacy(|c| {
        for _ in 0..3 {
            (0..1000).for_each(|_| c.draw(3, 0));
            c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
        }
        c.draw(3, 0);
    });
    assert_eq!(list.segments().count(), 7, "4 runs, 3 split points");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    let counters = imm.counters();
    assert_eq!(
        (
            counters.ib_executions,
            counters.split_points_resolved.total()
        ),
        (4, 3)
    );
}

// ----- R-ST-6 ----------------------------------------------------------------------------------

#[test]
fn r_st_6_legacy_binds_copy_the_resource_min_lod_seen_after_a_rebind() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.set_resource_min_lod(f.tex, 2.0);
    imm.set_shader_resource_view_min_lod(f.tex_srv, 5.0);
    bind_and_draw(&f, &mut imm);
    assert_eq!(min_lod(&mut imm, 0), "2", "the resource's, not the view's");
    imm.set_resource_min_lod(f.tex, 3.0);
    imm.draw(3, 0);
    assert_eq!(min_lod(&mut imm, 1), "2", "not bound again yet");
    // A deferred context changes the object at once too; the list's bind copies it.
    let list = f.legacy(|c| {
        c.set_resource_min_lod(f.tex, 4.0);
        bind_and_draw(&f, c);
    });
    assert_eq!(f.device.resource_min_lod(f.tex), Some(4.0), "at once");
    imm.draw(3, 0);
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(min_lod(&mut imm, 2), "2");
    assert_eq!(min_lod(&mut imm, 3), "4");
}

#[test]
fn r_st_6_fast_binds_copy_the_view_min_lod_seen_after_a_rebind() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.set_resource_min_lod(f.tex, 2.0);
    imm.set_shader_resource_view_min_lod(f.tex_srv, 1.5);
    bind_and_draw(&f, &mut imm);
    assert_eq!(
        min_lod(&mut imm, 0),
        "1.5",
        "the view's, not the resource's"
    );
    imm.set_shader_resource_view_min_lod(f.tex_srv, 0.5);
    imm.draw(3, 0);
    assert_eq!(min_lod(&mut imm, 1), "1.5", "not bound again yet");
    let list = f.fast(|c| bind_and_draw(&f, c));
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(min_lod(&mut imm, 2), "0.5");
}

// ----- R-ST-8 ----------------------------------------------------------------------------------

fn bind_dynamic_and_draw(f: &Fixture, c: &mut impl DeviceContext) {
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_dyn)]);
    c.draw(3, 0);
}

#[test]
fn r_st_8_a_list_maps_its_own_instance_and_never_changes_the_immediate_one() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::with_immediate(semantics);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        write_discard(&mut imm, f.cb_dyn);
        bind_dynamic_and_draw(&f, &mut imm);
        let immediate = instance(&mut imm, 0, "vs.cb.0");
        assert_ne!(immediate, InstanceId::INITIAL);
        let list = f.list(semantics, |c| {
            write_discard(c, f.cb_dyn);
            bind_dynamic_and_draw(&f, c);
        });
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        let listed = instance(&mut imm, 1, "vs.cb.0");
        assert_ne!(listed, immediate, "{semantics:?}: the list's own instance");
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        assert_eq!(
            instance(&mut imm, 2, "vs.cb.0"),
            listed,
            "the same every time"
        );
        bind_dynamic_and_draw(&f, &mut imm);
        let after = match semantics {
            // A legacy list's last instance becomes the immediate context's (R-ST-8).
            Semantics::Legacy => listed,
            // A fast list's contents revert.
            Semantics::Fast => immediate,
        };
        assert_eq!(
            instance(&mut imm, 3, "vs.cb.0"),
            after,
            "{semantics:?}: the immediate context's instance after the list"
        );
    }
}

#[test]
fn r_st_8_after_a_legacy_list_the_immediate_context_reads_its_last_instance() {
    for immediate in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::with_immediate(immediate);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        write_discard(&mut imm, f.cb_dyn);
        let list = f.legacy(|c| {
            write_discard(c, f.cb_dyn);
            write_discard(c, f.cb_dyn);
        });
        let last = *map_instances(&list).last().unwrap();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        bind_dynamic_and_draw(&f, &mut imm);
        assert_eq!(
            instance(&mut imm, 0, "vs.cb.0"),
            last,
            "{immediate:?} immediate context: the legacy list's last instance"
        );
        // A later legacy list's split point resolves to it too (R-SP-4).
        let split = f.legacy(|c| bind_dynamic_and_draw(&f, c));
        imm.execute_command_list(&split, RestoreState::ClearState)
            .unwrap();
        assert_eq!(instance(&mut imm, 1, "vs.cb.0"), last);
        // A fast list's maps revert.
        let fast = f.fast(|c| write_discard(c, f.cb_dyn));
        imm.execute_command_list(&fast, RestoreState::ClearState)
            .unwrap();
        bind_dynamic_and_draw(&f, &mut imm);
        assert_eq!(
            instance(&mut imm, 2, "vs.cb.0"),
            last,
            "{immediate:?}: fast reverts"
        );
    }
}

#[test]
fn r_st_8_a_draw_after_a_legacy_list_sees_its_instance_without_a_rebind() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    bind_dynamic_and_draw(&f, &mut imm);
    let list = f.legacy(|c| write_discard(c, f.cb_dyn));
    let last = map_instances(&list)[0];
    // restore = true puts the binding back: the runtime patches it to the new instance.
    imm.execute_command_list(&list, RestoreState::Restore)
        .unwrap();
    imm.draw(3, 0);
    assert_eq!(instance(&mut imm, 1, "vs.cb.0"), last);
    assert_eq!(imm.get_constant_buffer(Stage::Vertex, 0), Some(f.cb_dyn));
}

#[test]
fn r_st_8_nested_legacy_lists_leave_the_last_instance_in_execution_order() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let inner = f.legacy(|c| write_discard(c, f.cb_dyn));
    let inner_instance = map_instances(&inner)[0];
    // The outer list maps first, then executes the inner list: the inner list's is the last;
    // a split point after the inner list reads it too.
    let outer = f.legacy(|c| {
        write_discard(c, f.cb_dyn);
        c.execute_command_list(&inner, RestoreState::ClearState);
    });
    let reader = f.legacy(|c| {
        c.execute_command_list(&inner, RestoreState::ClearState);
        bind_dynamic_and_draw(&f, c);
    });
    imm.execute_command_list(&outer, RestoreState::ClearState)
        .unwrap();
    bind_dynamic_and_draw(&f, &mut imm);
    assert_eq!(instance(&mut imm, 0, "vs.cb.0"), inner_instance);
    imm.execute_command_list(&reader, RestoreState::ClearState)
        .unwrap();
    assert_eq!(
        instance(&mut imm, 1, "vs.cb.0"),
        inner_instance,
        "split after nesting"
    );
    // The inner list first, then the outer list's own map: the outer's is the last.
    let outer_last = f.legacy(|c| {
        c.execute_command_list(&inner, RestoreState::ClearState);
        write_discard(c, f.cb_dyn);
    });
    let own = map_instances(&outer_last)[0];
    imm.execute_command_list(&outer_last, RestoreState::ClearState)
        .unwrap();
    bind_dynamic_and_draw(&f, &mut imm);
    assert_eq!(instance(&mut imm, 2, "vs.cb.0"), own);
    // A legacy list nested in a fast one still executed: it leaves its instance; the fast
    // list's own maps revert.
    let fast_outer = f.fast(|c| {
        c.execute_command_list(&inner, RestoreState::ClearState);
        write_discard(c, f.cb_dyn);
    });
    imm.execute_command_list(&fast_outer, RestoreState::ClearState)
        .unwrap();
    bind_dynamic_and_draw(&f, &mut imm);
    assert_eq!(instance(&mut imm, 3, "vs.cb.0"), inner_instance);
}

#[test]
fn r_st_8_legacy_sees_a_write_discard_of_a_bound_buffer_without_a_rebind() {
    let f = Fixture::new();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    bind_dynamic_and_draw(&f, &mut imm);
    write_discard(&mut imm, f.cb_dyn);
    imm.draw(3, 0);
    let (before, after) = (
        instance(&mut imm, 0, "vs.cb.0"),
        instance(&mut imm, 1, "vs.cb.0"),
    );
    assert_ne!(before, after, "the runtime patched the binding");
    // In a legacy list too.
    let list = f.legacy(|c| {
        bind_dynamic_and_draw(&f, c);
        write_discard(c, f.cb_dyn);
        c.draw(3, 0);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_ne!(
        instance(&mut imm, 2, "vs.cb.0"),
        instance(&mut imm, 3, "vs.cb.0")
    );
}

#[test]
fn r_st_8_fast_sees_the_old_instance_until_the_buffer_is_bound_again() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    bind_dynamic_and_draw(&f, &mut imm);
    write_discard(&mut imm, f.cb_dyn);
    imm.draw(3, 0);
    bind_dynamic_and_draw(&f, &mut imm);
    let seen: Vec<_> = (0..3).map(|i| instance(&mut imm, i, "vs.cb.0")).collect();
    assert_eq!(seen[0], seen[1], "not bound again: the old instance");
    assert_ne!(seen[1], seen[2], "bound again: the new one");
}
