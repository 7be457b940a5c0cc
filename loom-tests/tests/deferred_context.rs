//! Models of the deferred-context limit (`recorder/src/device.rs`): in
//! `Device::create_deferred_context` a CAS loop on `live_contexts` bounds the live contexts to
//! `MAX_DEFERRED_CONTEXTS` (48); `DeferredContext::drop` decrements it. Built on a real `Device`,
//! brought to the edge of the limit single-threaded, so loom only explores the last steps.
#![cfg(loom)]

use loom_tests::{check, spawn, DEVICE_BRANCHES};
use recorder::limits::MAX_DEFERRED_CONTEXTS;
use recorder::{
    ChunkPolicy, DeferredContext, DeferredContextDesc, Device, DeviceDesc, Error, Semantics,
};

/// Branch points of bringing a device to the limit: each creation and drop takes a few dozen.
const AT_THE_LIMIT_BRANCHES: usize = DEVICE_BRANCHES + 64 * MAX_DEFERRED_CONTEXTS as usize * 2;

fn small_device() -> Device {
    Device::new(DeviceDesc {
        chunk_policy: ChunkPolicy {
            chunk_size: 4096,
            ..ChunkPolicy::default()
        },
        ..DeviceDesc::default()
    })
}

fn create(device: &Device) -> Result<DeferredContext, Error> {
    device.create_deferred_context(&DeferredContextDesc {
        name: "",
        semantics: Semantics::Fast,
        chunk_policy: None,
        ..Default::default()
    })
}

/// `count` contexts, created one after another.
fn contexts(device: &Device, count: u32) -> Vec<DeferredContext> {
    (0..count).map(|_| create(device).unwrap()).collect()
}

/// Spawns a thread that tries to create one context on `device`.
fn creator(device: &Device) -> loom::thread::JoinHandle<Result<DeferredContext, Error>> {
    let device = device.clone();
    spawn(move || {
        let created = create(&device);
        assert!(device.live_deferred_contexts() <= MAX_DEFERRED_CONTEXTS);
        created
    })
}

fn is_too_many(result: &Result<DeferredContext, Error>) -> bool {
    matches!(
        result,
        Err(Error::TooManyContexts {
            limit: MAX_DEFERRED_CONTEXTS
        })
    )
}

/// With 47 contexts alive, two threads create one each: exactly one succeeds, the other gets
/// `TooManyContexts`, and the count ends at 48, then 0 once everything drops.
#[test]
fn creation_near_the_limit() {
    check(AT_THE_LIMIT_BRANCHES, || {
        let device = small_device();
        let alive = contexts(&device, MAX_DEFERRED_CONTEXTS - 1);

        let creators = [creator(&device), creator(&device)];
        let results = creators.map(|creator| creator.join().unwrap());

        let created = results.iter().filter(|result| result.is_ok()).count();
        let refused = results.iter().filter(|result| is_too_many(result)).count();
        assert_eq!(
            (created, refused),
            (1, 1),
            "the limit let {created} of 2 through"
        );
        assert_eq!(device.live_deferred_contexts(), MAX_DEFERRED_CONTEXTS);

        drop(results);
        drop(alive);
        assert_eq!(device.live_deferred_contexts(), 0);
    });
}

/// With 47 contexts alive, two threads create one each while the main thread drops one of the
/// 47. At least one creation succeeds (there was room for one from the start), the count never
/// passes 48 (checked by each creator right after its attempt), it ends equal to the contexts
/// really alive (a refused creation leaves no increment behind), and recorder serials are unique.
#[test]
fn creation_racing_a_drop_at_the_limit() {
    check(AT_THE_LIMIT_BRANCHES, || {
        let device = small_device();
        let mut alive = contexts(&device, MAX_DEFERRED_CONTEXTS - 1);

        let creators = [creator(&device), creator(&device)];
        drop(alive.pop());
        let results = creators.map(|creator| creator.join().unwrap());

        let created = results.iter().filter(|result| result.is_ok()).count();
        assert!(
            results
                .iter()
                .all(|result| result.is_ok() || is_too_many(result)),
            "a creation failed for another reason"
        );
        assert!(created >= 1, "a creation was refused below the limit");
        alive.extend(results.into_iter().flatten());
        assert_eq!(device.live_deferred_contexts(), alive.len() as u32);

        let mut serials: Vec<u32> = alive.iter().map(DeferredContext::serial).collect();
        serials.sort_unstable();
        serials.dedup();
        assert_eq!(
            serials.len(),
            alive.len(),
            "two contexts got the same serial"
        );

        drop(alive);
        assert_eq!(device.live_deferred_contexts(), 0);
    });
}
