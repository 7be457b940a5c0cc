//! R-B-4/R-B-5 with R-REC-3: once the chunk pool is warm, a bundle's binds and draws allocate
//! nothing: the budget is kept in the recorder (no recount, no lookup), and the bundle's chunks
//! come from the pool. A counting global allocator counts every allocation this test's thread
//! makes while it records. (Finishing a bundle registers it with the device, which allocates: it
//! is not counted.)

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

/// Finishing a bundle, once the pool and the device's bundle table are warm, allocates at most
/// once (the `DrawBundle`'s shared part): the finish scans no empty map table, copies nothing, and
/// the next bundle's first chunk comes from the pool.
#[test]
fn r_b_5_finishing_a_bundle_allocates_at_most_once_in_steady_state() {
    let device = Device::new(DeviceDesc::default());
    let vs = device
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
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
        for _ in 0..100 {
            recorder.draw(3, 0);
        }
    };
    let mut bundles = Vec::with_capacity(100);
    // Warm-up: a round of bundles made and dropped fills the pool and the device's table.
    for _ in 0..2 {
        for _ in 0..100 {
            record(&mut recorder);
            bundles.push(recorder.finish().expect("bundle"));
        }
        bundles.clear();
    }
    for _ in 0..100 {
        record(&mut recorder);
        let (bundle, allocations) = allocations_during(|| recorder.finish().expect("bundle"));
        assert!(
            allocations <= 1,
            "finishing a bundle allocated {allocations} times"
        );
        assert_eq!(bundle.draws(), 100);
        bundles.push(bundle);
    }
}
