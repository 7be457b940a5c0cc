//! R-FX-6: device context state objects as D3D11.1 defines them (SPEC R-FX-6, Wine's
//! `test_device_context_state`): `swap_device_context_state` activates the given object, saving
//! the current state into the previously active one and making the given one's saved state
//! (its defaults, if never active) current; it returns the previously active object (an
//! implicit default one the first time); swapping in the active object changes nothing. A call
//! of the legacy immediate context alone: refused on a fast one (a deferred context has none).

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

fn vertex_shader(imm: &mut ImmediateContext) -> RawHandle {
    imm.get_shader(Stage::Vertex)
        .map_or(RawHandle::NULL, |s| s.raw())
}

fn pixel_shader(imm: &mut ImmediateContext) -> RawHandle {
    imm.get_shader(Stage::Pixel)
        .map_or(RawHandle::NULL, |s| s.raw())
}

#[test]
fn r_fx_6_swap_activates_the_given_object_and_returns_the_previous() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.set_shader(Stage::Vertex, Some(f.vs));
    imm.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    let first = imm.create_device_context_state().unwrap();
    // The first swap: the current state goes into an implicit default object, returned; the
    // given object was never active: its defaults become current.
    let default = imm.swap_device_context_state(&first).unwrap();
    assert!(!default.same_object(&first));
    assert_eq!(default.bindings().shader(Stage::Vertex).shader, f.vs.raw());
    assert_eq!(vertex_shader(&mut imm), RawHandle::NULL, "first's defaults");
    imm.set_shader(Stage::Pixel, Some(f.ps));
    // Back to the default object: first saves what is bound (ps), the default's state returns.
    let previous = imm.swap_device_context_state(&default).unwrap();
    assert!(previous.same_object(&first), "the previously active object");
    assert_eq!(vertex_shader(&mut imm), f.vs.raw());
    assert_eq!(pixel_shader(&mut imm), RawHandle::NULL);
    assert_eq!(
        imm.get_constant_buffer(Stage::Vertex, 0).map(|b| b.raw()),
        Some(f.cb.raw())
    );
    assert_eq!(first.bindings().shader(Stage::Pixel).shader, f.ps.raw());
    // And first again: its saved state (ps alone) is current.
    let previous = imm.swap_device_context_state(&first).unwrap();
    assert!(previous.same_object(&default));
    assert_eq!(pixel_shader(&mut imm), f.ps.raw());
    assert_eq!(vertex_shader(&mut imm), RawHandle::NULL);
    assert!(imm.flush().is_ok());
    // Each swap is one call: the statistics stay consistent.
    assert!(imm.stats().calls < 100);
}

#[test]
fn r_fx_6_swap_of_the_active_object_changes_nothing() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let state = imm.create_device_context_state().unwrap();
    imm.set_shader(Stage::Vertex, Some(f.vs));
    let _default = imm.swap_device_context_state(&state).unwrap();
    imm.set_shader(Stage::Pixel, Some(f.ps));
    let before = imm.stats().commands;
    let again = imm.swap_device_context_state(&state).unwrap();
    assert!(
        again.same_object(&state),
        "the active object is the previous one"
    );
    assert_eq!(imm.stats().commands, before, "nothing recorded");
    assert_eq!(pixel_shader(&mut imm), f.ps.raw(), "the state stays");
    assert_eq!(
        vertex_shader(&mut imm),
        RawHandle::NULL,
        "no old shader comes back"
    );
    // The same calls make the same records as without the second swap.
    imm.draw(3, 0);
    imm.flush().unwrap();
    assert_eq!(imm.counters().draws, 1);
}

#[test]
fn r_fx_6_swap_is_refused_on_a_fast_immediate_context_and_with_another_devices_object() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut legacy = f.context(Semantics::Legacy);
    let state = legacy.create_device_context_state().unwrap();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    assert!(imm.create_device_context_state().is_err());
    let error = imm
        .swap_device_context_state(&state)
        .expect_err("fast semantics keeps no state to save");
    assert!(
        matches!(
            error,
            Error::ForbiddenInFast {
                call: "swap_device_context_state",
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        imm.error().is_none(),
        "reported by the call, nothing poisoned"
    );
    assert!(imm.flush().is_ok());
    drop(imm);

    let other = Fixture::with_immediate(Semantics::Legacy);
    let mut imm = ImmediateContext::new(&other.device).unwrap();
    let error = imm
        .swap_device_context_state(&state)
        .expect_err("another device's object");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    assert!(
        error.to_string().contains("swap_device_context_state"),
        "{error}"
    );
}

#[test]
fn r_fx_6_a_swap_whose_rebind_is_refused_reports_itself_and_changes_nothing() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let doomed = f
        .device
        .create_buffer(&BufferDesc {
            name: "doomed_cb",
            size: 256,
            usage: Usage::Default,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let state = imm.create_device_context_state().unwrap();
    imm.set_constant_buffers(Stage::Vertex, 0, &[Some(doomed)]);
    let default = imm.swap_device_context_state(&state).unwrap();
    f.device.release(doomed);
    imm.set_shader(Stage::Vertex, Some(f.vs));
    let calls = imm.stats().calls;
    let error = imm
        .swap_device_context_state(&default)
        .expect_err("the saved state names a released buffer");
    assert!(
        matches!(
            error,
            Error::ReleasedObject {
                call: "swap_device_context_state",
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("doomed_cb"), "{error}");
    // Nothing poisoned, nothing lost, the statistics consistent (no underflow).
    assert!(imm.error().is_none(), "{:?}", imm.error());
    assert_eq!(imm.stats().calls, calls);
    assert_eq!(vertex_shader(&mut imm), f.vs.raw(), "the state stays");
    assert_eq!(
        default
            .bindings()
            .constant_buffers(Stage::Vertex)
            .first()
            .map(|b| b.buffer),
        Some(doomed.raw()),
        "the object keeps its state"
    );
    let again = imm.swap_device_context_state(&state).unwrap();
    assert!(again.same_object(&state), "still the active object");
    imm.draw(3, 0);
    assert!(imm.flush().is_ok());
    assert_eq!(imm.counters().draws, 1);
}
