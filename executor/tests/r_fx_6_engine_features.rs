//! R-FX-6: the engine features of seed 000 beside fast semantics: `is_resource_pending` (legacy
//! work only), the fence kick-off, title-managed lifetimes and device context state objects.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

/// Binds `f.vb` and `f.cb` and draws: the uses `is_resource_pending` counts.
fn draw_with_buffers(f: &Fixture, c: &mut impl DeviceContext) {
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_input_layout(Some(f.layout));
    c.set_vertex_buffers(0, &[vertex(f.vb)]);
    c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    c.draw(3, 0);
}

// ----- is_resource_pending --------------------------------------------------------------------

#[test]
fn r_fx_6_resource_pending_legacy_only() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    assert!(!imm.is_resource_pending(f.vb), "nothing used it yet");

    // A fast list's draw never makes its resources pending (seed 000).
    let fast = f.fast(|c| draw_with_buffers(&f, c));
    imm.execute_command_list(&fast, RestoreState::ClearState)
        .unwrap();
    assert!(!imm.is_resource_pending(f.vb));
    assert!(!imm.is_resource_pending(f.cb));

    // A legacy list's draw does, until the CPU sees a fence after it pass.
    let legacy = f.legacy(|c| draw_with_buffers(&f, c));
    imm.execute_command_list(&legacy, RestoreState::ClearState)
        .unwrap();
    assert!(imm.is_resource_pending(f.vb));
    assert!(imm.is_resource_pending(f.cb));
    assert!(!imm.is_resource_pending(f.vb2), "not used");
    let fence = imm.insert_fence(Engine::Graphics);
    assert!(imm.is_resource_pending(f.vb), "the fence is not seen yet");
    assert!(!imm.is_fence_pending(fence));
    assert!(!imm.is_resource_pending(f.vb), "finished: the fence passed");
    assert!(!imm.is_resource_pending(f.cb));

    // Direct legacy work counts as soon as it is made (it is submitted for the check).
    imm.copy_resource(f.cb2, f.cb);
    assert!(imm.last_refusal().is_none(), "{:?}", imm.last_refusal());
    assert!(imm.is_resource_pending(f.cb2));
    assert!(imm.is_resource_pending(f.cb));
}

#[test]
fn r_fx_6_resource_never_pending_on_a_fast_immediate_context() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    draw_with_buffers(&f, &mut imm);
    imm.copy_resource(f.cb2, f.cb);
    assert!(imm.last_refusal().is_none(), "{:?}", imm.last_refusal());
    assert!(!imm.is_resource_pending(f.cb));
    assert!(!imm.is_resource_pending(f.cb2));
    // A legacy list executed on the fast immediate context is legacy work.
    let legacy = f.legacy(|c| draw_with_buffers(&f, c));
    imm.execute_command_list(&legacy, RestoreState::ClearState)
        .unwrap();
    assert!(imm.is_resource_pending(f.vb));
}

// ----- the fence kick-off ---------------------------------------------------------------------

fn commands_runs(list: &CommandList) -> usize {
    list.segments()
        .filter(|s| matches!(s, Segment::Commands(_)))
        .count()
}

#[test]
fn r_fx_6_fence_kick_off_ends_segment() {
    let f = Fixture::with_immediate(Semantics::Fast);
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let record = |flags: FenceFlags| {
            f.list(semantics, |c| {
                draw_with_buffers(&f, c);
                c.insert_fence_with(Engine::Graphics, flags);
                c.draw(3, 0);
            })
        };
        let plain = record(FenceFlags::NoKickOff);
        let kicked = record(FenceFlags::KickOff);
        assert_eq!(commands_runs(&plain), 1, "{semantics:?}");
        assert_eq!(commands_runs(&kicked), 2, "{semantics:?}");
        // The run ends right after the fence: the fence is its last command.
        let first = kicked.segments().next().map(|s| {
            s.commands().last().map(|d| {
                matches!(
                    d.command,
                    command::Command::InsertFence { kick_off: true, .. }
                )
            })
        });
        assert_eq!(first, Some(Some(true)), "{semantics:?}");
        // Executed, the kicked-off list is one more indirect-buffer execution, and draws the
        // same.
        let mut runs = Vec::new();
        for list in [&plain, &kicked] {
            let mut imm = ImmediateContext::new(&f.device).unwrap();
            let before = imm.counters().ib_executions;
            imm.execute_command_list(list, RestoreState::ClearState)
                .unwrap();
            let counters = *imm.counters();
            runs.push((counters.ib_executions - before, counters.draws));
            drop(imm);
        }
        assert_eq!(runs[1].0, runs[0].0 + 1, "{semantics:?}: {runs:?}");
        assert_eq!(runs[1].1, runs[0].1);
    }
}

#[test]
fn r_fx_6_fence_kick_off_submits_the_immediate_batch() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let drawn = |imm: &ImmediateContext| imm.gpu_now().map(|gpu| gpu.records().len());
    imm.draw(3, 0);
    let plain = imm.insert_fence(Engine::Graphics);
    assert_eq!(drawn(&imm), Some(0), "without a kick-off the batch waits");
    let kicked = imm.insert_fence_with(Engine::Graphics, FenceFlags::KickOff);
    assert_eq!(drawn(&imm), Some(1), "the kick-off submitted the batch");
    assert!(kicked > plain);
    assert!(!imm.is_fence_pending(kicked));
    assert!(!imm.is_fence_pending(plain));
}

// ----- title-managed lifetimes ----------------------------------------------------------------

fn title_managed(f: &Fixture) -> DeferredContext {
    f.device
        .create_deferred_context(&DeferredContextDesc {
            name: "title",
            semantics: Semantics::Legacy,
            title_managed_lifetimes: true,
            ..Default::default()
        })
        .expect("a title-managed legacy context")
}

fn references(f: &Fixture, handles: &[Buffer]) -> Vec<Option<u32>> {
    handles.iter().map(|&b| f.device.references(b)).collect()
}

#[test]
fn r_fx_6_title_managed_takes_no_references() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let watched = [f.vb, f.vb2, f.cb, f.cb2, f.cb_dyn];
    let baseline = references(&f, &watched);
    let shader_baseline = f.device.references(f.vs);
    let mut context = title_managed(&f);
    assert!(context.title_managed_lifetimes());
    draw_with_buffers(&f, &mut context);
    context.copy_resource(f.cb2, f.cb);
    // Legacy semantics stays: the shadow keeps the bindings, and a dynamic buffer bound
    // without a map in the list is a split point (R-SP-1).
    context.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb_dyn)]);
    let shadowed = context
        .legacy_state()
        .map(|state| state.shader(Stage::Vertex).shader);
    assert_eq!(shadowed, Some(f.vs.raw()));
    assert_eq!(references(&f, &watched), baseline, "while recording");
    assert_eq!(f.device.references(f.vs), shader_baseline);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    assert!(list.title_managed_lifetimes());
    assert_eq!(list.semantics(), Semantics::Legacy);
    assert_eq!(list.stats().split_points.total(), 1);
    assert_eq!(references(&f, &watched), baseline, "after finish");
    // The same calls on a plain legacy context do take references: the test can fail.
    let mut plain = f.context(Semantics::Legacy);
    draw_with_buffers(&f, &mut plain);
    assert_ne!(references(&f, &watched), baseline);
    drop(plain);
    // Executed, the list draws as a legacy list does (from the ClearState defaults).
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(imm.counters().draws, 1);
    drop(list);
    assert_eq!(references(&f, &watched), baseline, "after drop");
}

#[test]
fn r_fx_6_title_managed_list_naming_a_released_object_is_refused() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let doomed = f
        .device
        .create_buffer(&BufferDesc {
            name: "doomed",
            size: 256,
            usage: Usage::Default,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    let mut context = title_managed(&f);
    context.set_constant_buffers(Stage::Vertex, 0, &[Some(doomed)]);
    context.draw(3, 0);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    f.device.release(doomed);
    f.device.process_deferred_releases();
    assert!(
        !f.device.is_alive(doomed),
        "nothing held it: the list took no reference"
    );
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let error = imm
        .execute_command_list(&list, RestoreState::ClearState)
        .expect_err("the list names a released buffer");
    assert!(matches!(error, Error::ReleasedObject { .. }), "{error:?}");
    assert!(error.to_string().contains("doomed"), "{error}");
    assert_eq!(imm.counters().draws, 0, "nothing ran");
}

#[test]
fn r_fx_6_title_managed_changes_nothing_on_a_fast_context() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut context = f
        .device
        .create_deferred_context(&DeferredContextDesc {
            semantics: Semantics::Fast,
            title_managed_lifetimes: true,
            ..Default::default()
        })
        .unwrap();
    assert!(!context.title_managed_lifetimes());
    context.draw(3, 0);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    assert!(!list.title_managed_lifetimes());
}

// Device context state objects: `r_fx_6_context_state.rs`.
