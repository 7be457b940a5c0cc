//! R-REC-3/R-REC-4 for bundles: a bundle recorder sizes each bundle's first chunk from the bundle
//! it finished last, within its doubling policy's sizes, so a steady stream of like bundles takes
//! one chunk each from the device's pool, not a small first chunk that each bundle outgrows; it
//! takes those chunks a few at a time (the pool locks this saves are counted by the recorder's
//! own test, `chunk::tests::r_rec_3_like_bundles_take_the_pool_lock_once_per_batch`) and gives
//! back what it did not use when it drops.

use bundles::{BundleDesc, BundleRecorder, DrawBundle};
use recorder::*;

struct Objects {
    layout: InputLayout,
    vs: Shader,
    constants: Vec<Buffer>,
    vertices: Vec<Buffer>,
}

fn objects(device: &Device) -> Objects {
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
    Objects {
        layout: device
            .create_input_layout(&InputLayoutDesc {
                name: "layout",
                vertex_buffers: Slots::first(1),
            })
            .expect("layout"),
        vs: device
            .create_shader(&ShaderDesc {
                constant_buffers: Slots::first(1),
                ..ShaderDesc::new("vs", Stage::Vertex)
            })
            .expect("shader"),
        constants: (0..16).map(|_| buffer("cb", BindFlags::CONSTANT)).collect(),
        vertices: (0..8).map(|_| buffer("vb", BindFlags::VERTEX)).collect(),
    }
}

/// A bundle of `draws` draws, each with its own constant and vertex buffer.
fn bundle(recorder: &mut BundleRecorder, objects: &Objects, draws: usize) -> DrawBundle {
    recorder.set_input_layout(Some(objects.layout));
    for stage in Stage::GRAPHICS {
        recorder.set_shader(stage, None);
    }
    recorder.set_shader(Stage::Vertex, Some(objects.vs));
    for draw in 0..draws {
        recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(objects.constants[draw % 16])]);
        let stream = VertexBuffer {
            buffer: Some(objects.vertices[draw % 8]),
            stride: 16,
            offset: 0,
        };
        recorder.set_vertex_buffers(0, &[stream]);
        recorder.draw(3, 0);
    }
    recorder.finish().expect("bundle")
}

#[test]
fn r_rec_4_like_bundles_take_one_chunk_each() {
    let device = Device::new(DeviceDesc::default());
    let objects = objects(&device);
    let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[])).expect("recorder");

    // The first bundle of 100 draws outgrows the recorder's first 4 KB chunk.
    let first = bundle(&mut recorder, &objects, 100);
    assert!(first.size_bytes() > 4096, "{} bytes", first.size_bytes());
    assert_eq!(first.body().stats().chunks, 2);

    // Each later one fits the chunk sized from the one before: one chunk each (the first bundle
    // is still alive, so the pool has none of the size yet: each is allocated).
    let before = device.pool_stats();
    let bundles: Vec<DrawBundle> = (0..10)
        .map(|_| bundle(&mut recorder, &objects, 100))
        .collect();
    let after = device.pool_stats();
    assert_eq!(
        after.allocated_chunks - before.allocated_chunks,
        10,
        "{after:?}"
    );
    for later in &bundles {
        assert_eq!(later.body().stats().chunks, 1);
        assert_eq!(later.size_bytes(), first.size_bytes());
        assert_eq!(later.draws(), first.draws());
        assert_eq!(later.commands(), first.commands());
    }

    // Dropped, they give their chunks back, and the next bundles take them again: no new
    // allocation once the pool holds chunks of the size.
    drop(bundles);
    let before = device.pool_stats();
    let again: Vec<DrawBundle> = (0..10)
        .map(|_| bundle(&mut recorder, &objects, 100))
        .collect();
    let after = device.pool_stats();
    assert_eq!(after.allocated_chunks, before.allocated_chunks);
    assert!(again.iter().all(|b| b.body().stats().chunks == 1));
    drop(again);

    // A small bundle after big ones gets a small first chunk again: the size follows the last
    // bundle, so a recorder of varied bundles does not keep big chunks for small ones.
    let small = bundle(&mut recorder, &objects, 1);
    let tiny = bundle(&mut recorder, &objects, 1);
    assert_eq!(small.body().stats().chunks, 1);
    assert_eq!(tiny.body().stats().chunks, 1);
    let big = bundle(&mut recorder, &objects, 100);
    assert_eq!(
        big.body().stats().chunks,
        2,
        "after a small bundle, 4 KB and 8 KB again"
    );

    // Everything goes back: the bundles' chunks when they drop, the chunks the recorder took
    // ahead when it drops.
    drop((first, small, tiny, big, recorder));
    let stats = device.pool_stats();
    assert_eq!(stats.free_chunks, stats.allocated_chunks, "{stats:?}");
}

/// A policy that does not double keeps its sizes: every first chunk is its chunk size.
#[test]
fn r_rec_4_a_fixed_bundle_policy_is_kept() {
    let device = Device::new(DeviceDesc::default());
    let objects = objects(&device);
    let desc = BundleDesc {
        chunk_policy: Some(ChunkPolicy {
            chunk_size: 4096,
            growth: GrowthPolicy::Fixed,
            ..ChunkPolicy::default()
        }),
        ..BundleDesc::new("fixed", &[])
    };
    let mut recorder = BundleRecorder::new(&device, &desc).expect("recorder");
    for _ in 0..3 {
        let made = bundle(&mut recorder, &objects, 100);
        assert_eq!(made.body().stats().chunks, 2);
    }
}
