//! R-REC-8 on the immediate context: a refused direct call is ignored, and reported
//! where `ImmediateContext::flush`'s documentation says: by `error()` until the next `flush`,
//! and by that `flush`, with or without validation.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

/// A vertex shader of the fixture's device, released at once.
fn released_shader(f: &Fixture) -> Shader {
    let shader = f
        .device
        .create_shader(&ShaderDesc::new("doomed_vs", Stage::Vertex))
        .expect("a vertex shader");
    f.device.release(shader);
    f.device.process_deferred_releases();
    shader
}

#[test]
fn r_rec_8_a_refused_direct_call_is_the_next_flush_result() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for f in [
            Fixture::with_immediate(semantics),
            Fixture::validated(semantics),
        ] {
            let mut imm = ImmediateContext::new(&f.device).unwrap();
            let released = released_shader(&f);
            imm.set_shader(Stage::Vertex, Some(released));
            imm.draw(3, 0);
            let held = imm.error().map(|e| e.error.kind());
            assert_eq!(held, Some(ErrorKind::ReleasedObject), "{semantics:?}");
            let error = imm
                .flush()
                .expect_err("the refused set_shader is the flush's result");
            assert!(
                matches!(error, Error::ReleasedObject { .. }),
                "{semantics:?}: {error:?}"
            );
            assert!(error.to_string().contains("set_shader"), "{error}");
            assert_eq!(imm.counters().draws, 1, "the rest of the batch ran");
            assert!(imm.error().is_none(), "reported once");
            assert!(imm.flush().is_ok(), "reported once");
            assert_eq!(
                imm.last_refusal().map(Error::kind),
                Some(ErrorKind::ReleasedObject)
            );
        }
    }
}

#[test]
fn r_rec_8_a_refused_direct_call_waits_for_flush_across_executions() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let released = released_shader(&f);
    imm.set_shader(Stage::Vertex, Some(released));
    imm.set_shader(Stage::Vertex, Some(released));
    // An execution submits the batch, and reports its own list only.
    let list = f.legacy(|c| c.draw(3, 0));
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("the list is fine");
    assert!(imm.error().is_some(), "still waiting for the flush");
    assert!(imm.flush().is_err());
    // Taken by a caller that reports it itself, the flush does not report it again.
    imm.set_shader(Stage::Vertex, Some(released));
    let taken = imm.take_refusal().map(|r| r.error.kind());
    assert_eq!(taken, Some(ErrorKind::ReleasedObject));
    assert!(imm.flush().is_ok());
}
