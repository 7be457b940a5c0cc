//! R-B-4/R-B-5 with R-REC-3: once the chunk pool is warm, a bundle's binds and draws allocate
//! nothing: the budget is kept in the recorder (no recount, no lookup), and the bundle's chunks
//! come from the pool. A counting global allocator counts every allocation this test's thread
//! makes while it records. R-B-1 with the hot-path rule: finishing a bundle, which registers it
//! with the device, allocates nothing either once the recorder is warm.

#[path = "../../recorder/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use bundles::{BundleDesc, BundleRecorder};
use counting_alloc::allocations_during;
use recorder::*;

#[test]
fn r_b_5_binds_and_draws_of_a_bundle_allocate_nothing_in_steady_state() {
    let device = Device::new(DeviceDesc::default());
    let buffer = |name: &str, bind| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 256,
                bind,
                ..Default::default()
            })
            .expect("buffer")
    };
    let constants: Vec<Buffer> = (0..16).map(|_| buffer("cb", BindFlags::CONSTANT)).collect();
    let vertices: Vec<Buffer> = (0..8).map(|_| buffer("vb", BindFlags::VERTEX)).collect();
    let vs = device
        .create_shader(&ShaderDesc {
            constant_buffers: Slots::first(1),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .expect("shader");
    let layout = device
        .create_input_layout(&InputLayoutDesc {
            name: "layout",
            vertex_buffers: Slots::first(1),
        })
        .expect("layout");
    let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[])).expect("recorder");
    let record = |recorder: &mut BundleRecorder| {
        recorder.set_input_layout(Some(layout));
        for stage in Stage::GRAPHICS {
            recorder.set_shader(stage, None);
        }
        recorder.set_shader(Stage::Vertex, Some(vs));
        for draw in 0..1000 {
            recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(constants[draw % 16])]);
            let stream = VertexBuffer {
                buffer: Some(vertices[draw % 8]),
                stride: 16,
                offset: 0,
            };
            recorder.set_vertex_buffers(0, &[stream]);
            recorder.draw(3, 0);
        }
    };
    // Warm-up: the bundle's chunks go back to the pool when it drops.
    record(&mut recorder);
    drop(recorder.finish().expect("bundle"));

    let ((), allocations) = allocations_during(|| record(&mut recorder));
    assert_eq!(allocations, 0, "a bundle's binds and draws allocated");
    let bundle = recorder.finish().expect("bundle");
    assert_eq!(bundle.draws(), 1000);
    assert_eq!(bundle.footprint_bytes(), 2 * 16);
}

/// R-B-1 with the hot-path rule: a warm bundle recorder records and finishes bundles without
/// allocating. The finished bundle's shared part (its entry's handle, declaration, footprint and
/// name, and the count of its clones) lives in its list's header, in the first chunk, which comes
/// from the device's pool; the device's bundle table reuses the slots of dropped bundles; the
/// next bundle's first chunk is sized from the previous bundle. Counted over whole bundles, as
/// an application makes them: kept for a frame (the pool then holds the last round's chunks),
/// and dropped at once.
#[test]
fn r_b_1_a_warm_recorders_record_and_finish_allocate_nothing() {
    let device = Device::new(DeviceDesc::default());
    let constants: Vec<Buffer> = (0..16)
        .map(|_| {
            device
                .create_buffer(&BufferDesc {
                    name: "cb",
                    size: 256,
                    bind: BindFlags::CONSTANT,
                    ..Default::default()
                })
                .expect("buffer")
        })
        .collect();
    let vs = device
        .create_shader(&ShaderDesc {
            constant_buffers: Slots::first(1),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .expect("shader");
    let layout = device
        .create_input_layout(&InputLayoutDesc {
            name: "layout",
            vertex_buffers: Slots::first(0),
        })
        .expect("layout");
    let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[])).expect("recorder");
    let record = |recorder: &mut BundleRecorder| {
        recorder.set_input_layout(Some(layout));
        for stage in Stage::GRAPHICS {
            recorder.set_shader(stage, None);
        }
        recorder.set_shader(Stage::Vertex, Some(vs));
        for draw in 0..100 {
            recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(constants[draw % 16])]);
            recorder.draw(3, 0);
        }
    };
    let mut bundles = Vec::with_capacity(100);
    // Warm-up: rounds of bundles made and dropped fill the pool and the device's table.
    for _ in 0..2 {
        for _ in 0..100 {
            record(&mut recorder);
            bundles.push(recorder.finish().expect("bundle"));
        }
        bundles.clear();
    }
    // Kept for a frame: 100 bundles alive at once, then dropped together.
    for round in 0..3 {
        let ((), allocations) = allocations_during(|| {
            for _ in 0..100 {
                record(&mut recorder);
                bundles.push(recorder.finish().expect("bundle"));
            }
        });
        assert_eq!(
            allocations, 0,
            "round {round}: 100 bundles recorded and finished allocated {allocations} times"
        );
        assert!(bundles.iter().all(|bundle| bundle.draws() == 100));
        bundles.clear();
    }
    // Dropped at once, each finish reusing what the last bundle gave back; the clones of a
    // bundle share its part (a count, no copy).
    let ((), allocations) = allocations_during(|| {
        for _ in 0..100 {
            record(&mut recorder);
            let bundle = recorder.finish().expect("bundle");
            let clone = bundle.clone();
            assert_eq!(clone.footprint_bytes(), 16);
            drop(bundle);
            assert_eq!(clone.name(), "b");
        }
    });
    assert_eq!(
        allocations, 0,
        "record, finish and drop allocated {allocations} times"
    );
}
