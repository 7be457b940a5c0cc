//! Models of a legacy recorder's own reference counts (`recorder/src/refs.rs`) against the
//! shared counts of the object table: a recorder pins the shared count when its first reference
//! on an object is taken (one `fetch_add`, checked), publishes its finished list's counts with a
//! compare-and-swap per distinct object, and a list's drop gives them back with one `fetch_sub`
//! each, on whatever thread drops it. Built on a real `Device`: the recorders are legacy
//! deferred contexts, moved into the model's threads.
#![cfg(loom)]

use loom_tests::{check, spawn, DEVICE_BRANCHES};
use recorder::capabilities::*;
use recorder::{
    BindFlags, Buffer, BufferDesc, ChunkPolicy, CommandList, DeferredContext, DeferredContextDesc,
    Device, DeviceDesc, RestoreState, Semantics, VertexBuffer,
};

fn small_device() -> Device {
    Device::new(DeviceDesc {
        chunk_policy: ChunkPolicy {
            chunk_size: 4096,
            ..ChunkPolicy::default()
        },
        ..DeviceDesc::default()
    })
}

fn vertex_buffer(device: &Device) -> Buffer {
    device
        .create_buffer(&BufferDesc {
            name: "vb",
            size: 64,
            bind: BindFlags::VERTEX,
            ..Default::default()
        })
        .unwrap()
}

fn legacy(device: &Device) -> DeferredContext {
    device
        .create_deferred_context(&DeferredContextDesc {
            name: "",
            semantics: Semantics::Legacy,
            chunk_policy: None,
            ..Default::default()
        })
        .unwrap()
}

fn bind(context: &mut DeferredContext, buffer: Buffer) {
    context.set_vertex_buffers(
        0,
        &[VertexBuffer {
            buffer: Some(buffer),
            stride: 16,
            offset: 0,
        }],
    );
}

/// Two legacy contexts, on two threads, bind the same buffer twice each and finish, while the
/// main thread releases it. A bind that sees the buffer alive pins it before its list can
/// finish, so the release defers; one that comes after the release is refused (and its list
/// discarded at the finish). After the joins a finished list holds exactly its references (two
/// each: the bindings went with `ClearState`), and the buffer is destroyed once nothing holds it
/// and the deferred releases are processed.
#[test]
fn legacy_binds_on_two_threads_racing_a_release() {
    check(DEVICE_BRANCHES + 16 * 1024, || {
        let device = small_device();
        let vb = vertex_buffer(&device);
        let recorders = [legacy(&device), legacy(&device)].map(|mut context| {
            spawn(move || {
                bind(&mut context, vb);
                bind(&mut context, vb);
                let list = context.finish_command_list(RestoreState::ClearState).ok();
                (context, list)
            })
        });
        device.release(vb);
        let done = recorders.map(|recorder| recorder.join().unwrap());
        let lists: Vec<&CommandList> = done.iter().filter_map(|(_, l)| l.as_ref()).collect();
        match lists.len() {
            // Destroyed at the release, or (a bind had pinned it, then a later one was
            // refused and the list discarded) waiting for the deferred releases.
            0 => assert!(matches!(device.references(vb), None | Some(0))),
            held => assert_eq!(device.references(vb), Some(2 * held as u32)),
        }
        drop(lists);
        drop(done);
        device.process_deferred_releases();
        assert_eq!(device.references(vb), None, "destroyed once unreferenced");
    });
}

/// A finished legacy list is dropped on another thread (its counts given back with one
/// subtract each) while its context binds the same buffer again in its next list (a pin, as
/// its own table no longer holds it) and a third thread reads the counts. The reader sees the
/// buffer alive with at most the references that ever existed at once; after the joins the
/// counts are exact, and they go back to none when everything drops.
#[test]
fn list_dropped_on_another_thread_racing_a_rebind_and_a_reader() {
    check(DEVICE_BRANCHES + 16 * 1024, || {
        let device = small_device();
        let vb = vertex_buffer(&device);
        let mut context = legacy(&device);
        bind(&mut context, vb);
        let first = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap();
        assert_eq!(device.references(vb), Some(1));

        let dropper = spawn(move || drop(first));
        let reader = {
            let device = device.clone();
            spawn(move || device.references(vb))
        };
        bind(&mut context, vb);
        let seen = reader.join().unwrap();
        dropper.join().unwrap();
        assert!(
            matches!(seen, Some(0..=3)),
            "a reader racing the rebind saw {seen:?}"
        );
        assert_eq!(device.references(vb), Some(2), "binding + list");
        let second = context
            .finish_command_list(RestoreState::ClearState)
            .unwrap();
        assert_eq!(device.references(vb), Some(1));
        drop(second);
        assert_eq!(device.references(vb), Some(0));
        drop(context);
        device.release(vb);
        assert_eq!(device.references(vb), None);
    });
}
