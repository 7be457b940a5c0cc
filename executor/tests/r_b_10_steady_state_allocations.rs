//! R-B-10 with R-REC-3: calling a bundle allocates nothing in steady state, on the immediate
//! context (the CPU side: `GpuTiming::Detached`, the GPU model's records are not the CPU's
//! work) or recorded into a fast list once the chunk pool is warm. A counting global allocator
//! counts every allocation this test's thread makes while it calls.

#[path = "../../recorder/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use bundles::{BundleDesc, BundleRecorder, DrawBundleExt};
use counting_alloc::allocations_during;
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

#[test]
fn r_b_10_draw_bundle_allocates_nothing_in_steady_state() {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..Default::default()
    });
    let cb = device
        .create_buffer(&BufferDesc {
            name: "cb",
            size: 256,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .expect("buffer");
    let vs = device
        .create_shader(&ShaderDesc {
            constant_buffers: Slots::first(1),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .expect("shader");
    let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[])).expect("recorder");
    recorder.set_input_layout(None);
    for stage in Stage::GRAPHICS {
        recorder.set_shader(stage, None);
    }
    recorder.set_shader(Stage::Vertex, Some(vs));
    for draw in 0..100 {
        recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
        recorder.draw(3, draw);
    }
    let bundle = recorder.finish().expect("bundle");

    let mut imm = ImmediateContext::new(&device).expect("immediate");
    imm.set_gpu_timing(GpuTiming::Detached);
    imm.draw_bundle(&bundle).expect("warm-up");
    let (result, allocations) =
        allocations_during(|| (0..1000).try_for_each(|_| imm.draw_bundle(&bundle)));
    result.expect("draw_bundle");
    assert_eq!(allocations, 0, "immediate draw_bundle");

    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "dc",
            semantics: Semantics::Fast,
            chunk_policy: None,
            engine: Engine::Graphics,
            ..Default::default()
        })
        .expect("context");
    for _ in 0..2 {
        for _ in 0..1000 {
            context.draw_bundle(&bundle);
        }
        drop(
            context
                .finish_command_list(RestoreState::ClearState)
                .expect("list"),
        );
    }
    let (list, allocations) = allocations_during(|| {
        for _ in 0..1000 {
            context.draw_bundle(&bundle);
        }
        context.finish_command_list(RestoreState::ClearState)
    });
    assert_eq!(allocations, 0, "draw_bundle recorded into a fast list");
    assert!(list.is_ok());
}
