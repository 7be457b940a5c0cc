//! R-FX-6 under the capture (SPEC §13): a frame with a title-managed legacy context and fence
//! kick-offs is written as trace statements that replay to the frame's digest; so is a frame
//! that swaps device context state objects, with the objects' saved states at its start.

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, FrameOutcome};
use trace::capture::{CapturedDeferred, CapturedImmediate};

#[path = "common/modes.rs"]
mod modes;
use modes::assert_round_trip;

struct App {
    device: CaptureDevice,
    cb: Buffer,
    vs: Shader,
    chain: SwapChain,
    imm: CapturedImmediate,
}

impl App {
    fn new() -> Self {
        let device = CaptureDevice::new(
            Device::new(DeviceDesc::default()),
            CaptureOptions::default(),
        );
        let cb = device
            .create_buffer(&BufferDesc {
                name: "cb",
                size: 256,
                usage: Usage::Default,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            })
            .unwrap();
        let vs = device
            .create_shader(&ShaderDesc {
                constant_buffers: Slots::first(1),
                ..ShaderDesc::new("vs", Stage::Vertex)
            })
            .unwrap();
        let chain = device
            .create_swap_chain(&SwapChainDesc {
                name: "main",
                buffers: 2,
                format: Format::R8G8B8A8Unorm,
                width: 64,
                height: 64,
            })
            .unwrap();
        let imm = CapturedImmediate::new(&device).unwrap();
        Self {
            device,
            cb,
            vs,
            chain,
            imm,
        }
    }

    fn title_managed(&self) -> CapturedDeferred {
        self.device
            .create_deferred_context(&DeferredContextDesc {
                name: "title",
                semantics: Semantics::Legacy,
                title_managed_lifetimes: true,
                ..Default::default()
            })
            .unwrap()
    }
}

#[test]
fn r_fx_6_capture_writes_title_managed_contexts_and_kick_offs() {
    let mut app = App::new();
    let mut worker = app.title_managed();
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    worker.set_shader(Stage::Vertex, Some(app.vs));
    worker.set_constant_buffers(Stage::Vertex, 0, &[Some(app.cb)]);
    worker.draw(3, 0);
    worker.insert_fence_with(Engine::Graphics, FenceFlags::KickOff);
    worker.draw(3, 1);
    let list = worker
        .finish_command_list(RestoreState::ClearState)
        .unwrap();
    app.imm
        .execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    app.imm.set_shader(Stage::Vertex, Some(app.vs));
    app.imm.draw(3, 2);
    app.imm
        .insert_fence_with(Engine::Graphics, FenceFlags::KickOff);
    app.imm.draw(3, 3);
    app.imm.present(app.chain).unwrap();
    let outcomes = app.device.capture().take_outcomes();
    let frame = match outcomes.first() {
        Some(FrameOutcome::Captured(frame)) => frame,
        other => panic!("{other:?}"),
    };
    assert!(
        frame
            .trace
            .contains("semantics=legacy title_managed_lifetimes=yes"),
        "{}",
        frame.trace
    );
    assert_eq!(
        frame.trace.matches(" kick_off").count(),
        2,
        "{}",
        frame.trace
    );
    assert_eq!(frame.records, 4);
    assert_round_trip(frame);
}

/// The frame `app` captured, after `before` ran before it and `during` in it.
fn captured(
    app: &mut App,
    before: impl FnOnce(&mut App),
    during: impl FnOnce(&mut App),
) -> trace::capture::CapturedFrame {
    before(app);
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    during(app);
    app.imm.present(app.chain).unwrap();
    let outcomes = app.device.capture().take_outcomes();
    match outcomes.into_iter().next() {
        Some(FrameOutcome::Captured(frame)) => frame,
        other => panic!("{other:?}"),
    }
}

/// A second vertex shader and constant buffer, for saved states that differ.
fn more(app: &App) -> (Shader, Buffer) {
    let vs = app
        .device
        .create_shader(&ShaderDesc {
            constant_buffers: Slots::first(1),
            ..ShaderDesc::new("vs_b", Stage::Vertex)
        })
        .unwrap();
    let cb = app
        .device
        .create_buffer(&BufferDesc {
            name: "cb_b",
            size: 256,
            usage: Usage::Default,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    (vs, cb)
}

#[test]
fn r_fx_6_capture_writes_swaps_between_objects_made_before_the_frame() {
    let mut app = App::new();
    let (vs_b, cb_b) = more(&app);
    let a = app.imm.create_device_context_state().unwrap();
    let b = app.imm.create_device_context_state().unwrap();
    let implicit = std::cell::RefCell::new(None);
    let frame = captured(
        &mut app,
        |app| {
            // The implicit default object keeps vs + cb, `a` keeps vs_b + cb_b, `b` is active
            // at the frame's start with the immediate context on vs_b alone.
            app.imm.set_shader(Stage::Vertex, Some(app.vs));
            app.imm
                .set_constant_buffers(Stage::Vertex, 0, &[Some(app.cb)]);
            *implicit.borrow_mut() = Some(app.imm.swap_device_context_state(&a).unwrap());
            app.imm.set_shader(Stage::Vertex, Some(vs_b));
            app.imm
                .set_constant_buffers(Stage::Vertex, 0, &[Some(cb_b)]);
            app.imm.swap_device_context_state(&b).unwrap();
            app.imm.set_shader(Stage::Vertex, Some(vs_b));
        },
        |app| {
            let implicit = implicit.borrow_mut().take().unwrap();
            app.imm.draw(3, 0);
            let previous = app.imm.swap_device_context_state(&a).unwrap();
            assert!(previous.same_object(&b));
            app.imm.draw(3, 1);
            // Swapping in the active object changes nothing.
            app.imm.swap_device_context_state(&a).unwrap();
            app.imm.draw(3, 2);
            app.imm.swap_device_context_state(&implicit).unwrap();
            app.imm.draw(3, 3);
            app.imm.swap_device_context_state(&b).unwrap();
            app.imm.draw(3, 4);
            app.imm.swap_device_context_state(&a).unwrap();
            app.imm.draw(3, 5);
        },
    );
    assert!(frame.not_written.is_empty(), "{:?}", frame.not_written);
    assert_eq!(
        frame.trace.matches("create_device_context_state").count(),
        3
    );
    assert_eq!(frame.records, 6);
    // The draws see what each object saved: a's state, the implicit one's, b's.
    let shader = |k: usize| frame.record_lines[k].contains("vs_b");
    assert_eq!(
        (0..6).map(shader).collect::<Vec<_>>(),
        [true, true, true, false, true, true],
        "{}",
        frame.record_lines.join("\n")
    );
    modes::assert_round_trip(&frame);
}

#[test]
fn r_fx_6_capture_names_the_implicit_object_a_frame_s_first_swap_returns() {
    let mut app = App::new();
    let (vs_b, _) = more(&app);
    let frame = captured(
        &mut app,
        |app| app.imm.set_shader(Stage::Vertex, Some(app.vs)),
        |app| {
            let made = app.imm.create_device_context_state().unwrap();
            let implicit = app.imm.swap_device_context_state(&made).unwrap();
            app.imm.set_shader(Stage::Vertex, Some(vs_b));
            app.imm.draw(3, 0);
            app.imm.swap_device_context_state(&implicit).unwrap();
            app.imm.draw(3, 1);
            app.imm.swap_device_context_state(&made).unwrap();
            app.imm.draw(3, 2);
        },
    );
    assert!(frame.not_written.is_empty(), "{:?}", frame.not_written);
    assert_eq!(frame.records, 3);
    modes::assert_round_trip(&frame);
}

#[test]
fn r_fx_6_capture_keeps_a_saved_state_naming_an_object_released_before_the_frame() {
    let mut app = App::new();
    let (vs_b, cb_b) = more(&app);
    let a = app.imm.create_device_context_state().unwrap();
    let b = app.imm.create_device_context_state().unwrap();
    let frame = captured(
        &mut app,
        |app| {
            app.imm.swap_device_context_state(&a).unwrap();
            app.imm.set_shader(Stage::Vertex, Some(vs_b));
            app.imm
                .set_constant_buffers(Stage::Vertex, 0, &[Some(cb_b)]);
            app.imm.swap_device_context_state(&b).unwrap();
            // `a` holds cb_b's last reference: swapping it in is refused (R-OBJ-3).
            app.device.release(cb_b);
            app.imm.set_shader(Stage::Vertex, Some(app.vs));
        },
        |app| {
            let refused = app.imm.swap_device_context_state(&a);
            assert!(
                matches!(refused, Err(Error::ReleasedObject { .. })),
                "{refused:?}"
            );
            app.imm.draw(3, 0);
        },
    );
    assert!(frame.trace.contains("release cb_b"), "{}", frame.trace);
    assert_eq!(frame.records, 1);
    modes::assert_round_trip(&frame);
}

/// R-FX-3 with R-FX-6 and R-CAP-3: a predicate set from a query (`set_predication_from_query`)
/// is the GPU's, not the legacy immediate context's shadow: a state swap does not save it, so
/// swapping another object in and the first one back drops it. The frame's start writes it as
/// the call that made it, so the replay's swaps drop it too (written as `set_predication`, which
/// the shadow keeps, the replay's draw was predicated and the live one not).
#[test]
fn r_fx_3_r_fx_6_a_predicate_from_a_query_at_the_frame_start_is_not_saved_by_a_swap() {
    let mut app = App::new();
    let predicate = app
        .device
        .create_query("predicate", QueryKind::Predicate)
        .unwrap();
    let other = app.imm.create_device_context_state().unwrap();
    app.imm
        .set_predication_from_query(Some(predicate), PredicateValue::True);
    app.device.capture().trigger();
    app.imm.present(app.chain).unwrap();
    let original = app.imm.swap_device_context_state(&other).unwrap();
    app.imm.swap_device_context_state(&original).unwrap();
    app.imm.set_shader(Stage::Vertex, Some(app.vs));
    app.imm.draw(3, 0);
    app.imm.present(app.chain).unwrap();
    let outcomes = app.device.capture().take_outcomes();
    let frame = match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame,
        other => panic!("{other:?}"),
    };
    assert!(
        frame
            .record_lines
            .iter()
            .all(|l| l.contains("predicated=no")),
        "{}",
        frame.record_lines.join("\n")
    );
    assert!(
        frame
            .trace
            .contains("imm set_predication_from_query predicate_ yes"),
        "{}",
        frame.trace
    );
    assert_round_trip(frame);
}
