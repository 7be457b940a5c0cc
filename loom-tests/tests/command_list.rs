//! Model of the `CommandList` reference count (`recorder/src/list.rs`): a count in the list's
//! header, which lives in the list's own first chunk; the last drop returns the chunks to the
//! device's pool. Built on a real `Device` and `DeferredContext`.
#![cfg(loom)]

use loom_tests::{check, spawn, DEVICE_BRANCHES};
use recorder::capabilities::*;
use recorder::{ChunkPolicy, DeferredContextDesc, Device, DeviceDesc, RestoreState, Semantics};

/// A device whose lists are recorded into 4 KB chunks (loom needs no more memory than that).
fn small_device() -> Device {
    Device::new(DeviceDesc {
        chunk_policy: ChunkPolicy {
            chunk_size: 4096,
            ..ChunkPolicy::default()
        },
        ..DeviceDesc::default()
    })
}

/// A list cloned into two threads while the main thread drops the original: three owners drop
/// concurrently, and the list's chunks go back to the pool exactly once (the pool's free count
/// rises by the list's chunk count, no more), after which the context and the device drop
/// cleanly (loom checks the device's `Arc` is neither leaked nor dropped twice).
#[test]
fn clones_dropped_on_two_threads_return_chunks_once() {
    check(DEVICE_BRANCHES, || {
        let device = small_device();
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "recorder",
                semantics: Semantics::Legacy,
                chunk_policy: None,
                ..Default::default()
            })
            .unwrap();
        context.draw(3, 0);
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap();
        let list_chunks = list.stats().chunks as u64;
        assert_eq!(list_chunks, 1);
        let before = device.pool_stats();

        let owners: Vec<_> = (0..2)
            .map(|_| {
                let clone = list.clone();
                spawn(move || drop(clone))
            })
            .collect();
        drop(list);
        for owner in owners {
            owner.join().unwrap();
        }

        let after = device.pool_stats();
        assert_eq!(
            after.free_chunks,
            before.free_chunks + list_chunks,
            "the list's {list_chunks} chunk(s) were not returned exactly once: {before:?} -> {after:?}"
        );
        assert_eq!(after.allocated_chunks, before.allocated_chunks);

        // The context still owns the first chunk of its next list.
        drop(context);
        assert_eq!(device.pool_stats().free_chunks, after.free_chunks + 1);
        assert_eq!(device.live_deferred_contexts(), 0);
    });
}

/// A list nested in another (R-REC-9): the outer list drops on one thread while the inner
/// list's own handle drops on the main thread. Whichever drop takes the inner list's last
/// reference discards it (the outer one by chaining it through its header, `discard_lists`),
/// and both lists' chunks go back to the pool exactly once.
#[test]
fn nested_list_dropped_with_its_outer_list_on_two_threads_returns_chunks_once() {
    check(DEVICE_BRANCHES, || {
        let device = small_device();
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "recorder",
                semantics: Semantics::Fast,
                chunk_policy: None,
                ..Default::default()
            })
            .unwrap();
        context.draw(3, 0);
        let inner = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap();
        context.execute_command_list(&inner, RestoreState::ClearState);
        let outer = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap();
        let chunks = (inner.stats().chunks + outer.stats().chunks) as u64;
        assert_eq!(chunks, 2);
        let before = device.pool_stats();

        let owner = spawn(move || drop(outer));
        drop(inner);
        owner.join().unwrap();

        let after = device.pool_stats();
        assert_eq!(
            after.free_chunks,
            before.free_chunks + chunks,
            "the lists' {chunks} chunks were not returned exactly once: {before:?} -> {after:?}"
        );
        drop(context);
        assert_eq!(device.live_deferred_contexts(), 0);
    });
}

/// A registered bundle (`Device::register_bundle`, `recorder/src/bundle.rs`): the device's entry
/// holds a reference on the bundle's commands. Execution's `bundle_body` (retain the entry, clone
/// the commands, unretain) races the application's release: either it gets the commands, which
/// stay valid as long as it holds them, or it finds the bundle gone; the commands' chunks go back
/// to the pool exactly once, after the last of the two, and the device drops cleanly.
#[test]
fn bundle_body_racing_release_returns_chunks_once() {
    check(DEVICE_BRANCHES, || {
        let device = small_device();
        let mut context = device.bundle_recorder("bundle", None);
        context.draw(3, 0);
        let body = context.finish_bundle().unwrap();
        drop(context);
        let before = device.pool_stats();
        let handle = device
            .register_bundle(body, Default::default(), 16, "bundle")
            .expect("a body of the device");

        let reader = {
            let device = device.clone();
            spawn(move || {
                let body = device.bundle_body(recorder::Handle::raw(handle));
                if let Some(body) = &body {
                    assert_eq!(
                        body.commands.stats().draws,
                        1,
                        "the commands read back whole"
                    );
                    assert_eq!(body.footprint, 16);
                }
                body.is_some()
            })
        };
        device.release(handle);
        let got = reader.join().unwrap();
        // Whatever the reader got is dropped by now: the entry is gone or goes with the
        // deferred releases.
        device.process_deferred_releases();
        assert!(device.bundle_body(recorder::Handle::raw(handle)).is_none());
        let after = device.pool_stats();
        assert_eq!(
            after.free_chunks,
            before.free_chunks + 1,
            "the bundle's chunk was not returned exactly once (reader got it: {got})"
        );
    });
}

/// A bundle registered at its finish (`Recorder::finish_registered_bundle`,
/// `recorder/src/context/registered_bundle.rs`): its shared part, the holder count among them,
/// lives in its list's header. A clone dropped on another thread while the original drops here:
/// the last of the two, whichever it is, releases the device's entry and the list, and the
/// bundle's chunk goes back to the pool exactly once.
#[test]
fn registered_bundle_clones_dropped_on_two_threads_release_once() {
    check(DEVICE_BRANCHES, || {
        let device = small_device();
        let mut context = device.bundle_recorder("bundle", None);
        context.draw(3, 0);
        let name: std::sync::Arc<str> = "bundle".into();
        let before = device.pool_stats();
        let bundle = context
            .finish_registered_bundle(Default::default(), 16, &name)
            .expect("a bundle of one draw");
        let handle = bundle.handle();
        let clone = bundle.clone();
        let other = spawn(move || {
            assert_eq!(
                clone.footprint(),
                16,
                "the clone reads the shared part whole"
            );
            drop(clone);
        });
        drop(bundle);
        other.join().unwrap();
        device.process_deferred_releases();
        assert!(
            device.bundle_body(recorder::Handle::raw(handle)).is_none(),
            "the last holder released the device's entry"
        );
        drop(context);
        let after = device.pool_stats();
        assert!(
            after.free_chunks > before.free_chunks,
            "the bundle's chunk went back to the pool: {before:?} -> {after:?}"
        );
    });
}
