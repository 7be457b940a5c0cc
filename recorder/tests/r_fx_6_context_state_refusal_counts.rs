//! R-FX-6 with R-REC-8: `create_device_context_state` refused on a fast context is a call like
//! `map`: counted, kept as the last refusal, the list not poisoned, and the list's counters stay
//! consistent (the finish after it once underflowed `calls`).

use recorder::*;

#[test]
fn r_fx_6_refused_create_device_context_state_is_a_counted_call() {
    let device = Device::new(DeviceDesc::default());
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("context");
    context.draw(3, 0);
    let refused = context.create_device_context_state();
    assert_eq!(
        refused.map(|_| ()).map_err(|e| e.kind()),
        Err(ErrorKind::ForbiddenInFast)
    );
    assert_eq!(
        context.last_refusal().map(Error::kind),
        Some(ErrorKind::ForbiddenInFast)
    );
    assert_eq!(
        context.stats().calls,
        1,
        "the draw; the refused call is not counted in"
    );
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .expect("not poisoned");
    assert_eq!(list.stats().calls, 1);
    assert_eq!(list.stats().draws, 1);
}
