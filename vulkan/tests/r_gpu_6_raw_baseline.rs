//! R-GPU-6's baseline: the workload's frame recorded with ash as a hand-written renderer would
//! (`VulkanBackend::record_raw`, what `workload --backend vulkan` times against the backend's
//! translation) draws the pixels the backend's translation of the same frame draws, under the
//! validation layer: the baseline is the same work, not less.

mod common;

use benches::render_workload::{
    Workload, CONSTANT_BUFFERS, PIPELINE_EVERY, STRIDE, VERTEX_BUFFERS,
};
use benches::workload_contents::workload_target;
use common::*;
use recorder::*;
use vulkan_backend::{RawDraw, RawPipeline};

/// The frame's draws: 250, so both pipelines and every buffer are used.
const DRAWS: u32 = 250;

#[test]
fn r_gpu_6_the_raw_baseline_draws_what_the_backend_draws() {
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let workload = Workload::with_gpu_contents(&gpu.device).expect("the workload's objects");
    let (texture, view, viewport) = workload_target(&gpu.device).expect("the target");
    // The backend's translation of the frame.
    let mut context = gpu
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "workload",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("a deferred context");
    workload.record(&mut context, 0..DRAWS);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .expect("the workload records");
    gpu.imm.set_render_targets(&[Some(view)], None);
    gpu.imm.set_viewports(&[viewport]);
    gpu.imm.clear_render_target_view(view, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm
        .execute_command_list(&list, RestoreState::ClearState)
        .expect("the backend translates the frame");
    gpu.imm.flush().expect("the frame is submitted");
    let translated = gpu.backend().read_texture(texture).expect("the target");
    // The same frame, raw, on a cleared target.
    gpu.imm.clear_render_target_view(view, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.flush().expect("the clear is submitted");
    let (pipelines, draws) = raw_pipelines_and_draws(&workload);
    let backend = gpu.backend();
    let built = backend.pipelines_built();
    let frame = backend
        .raw_frame(
            &pipelines,
            &workload.constants,
            &workload.vertices,
            (texture, view),
        )
        .expect("the raw frame's objects");
    assert_eq!(
        backend.pipelines_built(),
        built,
        "the raw frame binds the backend's pipelines"
    );
    backend.record_raw(&frame, &draws).expect("the raw frame");
    let raw = backend.read_texture(texture).expect("the target");
    assert_eq!((raw.0, raw.1), (translated.0, translated.1));
    let differ = raw
        .2
        .iter()
        .zip(&translated.2)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        differ, 0,
        "bytes differing between the raw and the translated frame"
    );
    assert!(
        translated.2.chunks(4).any(|t| t[..3] != [0, 0, 0]),
        "the frame drew something"
    );
    // A draw naming an object the frame lacks is refused, recording nothing.
    let beyond = RawDraw {
        pipeline: 2,
        ..draws[0]
    };
    assert!(gpu.backend().record_raw(&frame, &[beyond]).is_err());
    gpu.assert_clean();
}

#[test]
fn r_gpu_6_the_raw_baseline_on_threads_draws_what_it_draws_on_one() {
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let workload = Workload::with_gpu_contents(&gpu.device).expect("the workload's objects");
    let (texture, view, _) = workload_target(&gpu.device).expect("the target");
    let (pipelines, draws) = raw_pipelines_and_draws(&workload);
    let frame = gpu
        .backend()
        .raw_frame(
            &pipelines,
            &workload.constants,
            &workload.vertices,
            (texture, view),
        )
        .expect("the raw frame's objects");
    let drawn = |gpu: &mut Gpu, threads: Option<usize>, draws: &[RawDraw]| {
        gpu.imm.clear_render_target_view(view, [0.0, 0.0, 0.0, 1.0]);
        gpu.imm.flush().expect("the clear is submitted");
        let backend = gpu.backend();
        match threads {
            None => backend.record_raw(&frame, draws),
            Some(threads) => backend.record_raw_threaded(&frame, draws, threads),
        }
        .expect("the raw frame");
        backend.read_texture(texture).expect("the target")
    };
    let one = drawn(&mut gpu, None, &draws);
    assert!(
        one.2.chunks(4).any(|t| t[..3] != [0, 0, 0]),
        "the frame drew something"
    );
    // Three and four runs of the draws, and more threads than draws (empty secondaries): the
    // secondaries execute in order, so later draws still cover earlier ones.
    for (threads, draws) in [
        (1, &draws[..]),
        (3, &draws[..]),
        (4, &draws[..]),
        (8, &draws[..5]),
    ] {
        let expected = if draws.len() == DRAWS as usize {
            one.clone()
        } else {
            drawn(&mut gpu, None, draws)
        };
        let threaded = drawn(&mut gpu, Some(threads), draws);
        assert_eq!((threaded.0, threaded.1), (expected.0, expected.1));
        let differ = threaded
            .2
            .iter()
            .zip(&expected.2)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(differ, 0, "bytes differing on {threads} threads");
    }
    // No thread, or more than 64, is refused.
    assert!(gpu
        .backend()
        .record_raw_threaded(&frame, &draws, 0)
        .is_err());
    assert!(gpu
        .backend()
        .record_raw_threaded(&frame, &draws, 65)
        .is_err());
    gpu.assert_clean();
}

/// The workload's two pipelines and its [`DRAWS`] draws, as raw ones.
fn raw_pipelines_and_draws(workload: &Workload) -> ([RawPipeline; 2], Vec<RawDraw>) {
    let pipelines = [0, 1].map(|k| RawPipeline {
        vertex_shader: workload.vertex_shaders[k],
        pixel_shader: workload.pixel_shaders[k],
        blend: workload.blends[k],
        input_layout: workload.input_layout,
        stride: STRIDE,
        topology: PrimitiveTopology::default(),
    });
    let draws = (0..DRAWS)
        .map(|i| RawDraw {
            pipeline: ((i / PIPELINE_EVERY) % 2) as usize,
            constant_buffer: i as usize % CONSTANT_BUFFERS,
            vertex_buffer: i as usize % VERTEX_BUFFERS,
            vertices: 3,
        })
        .collect();
    (pipelines, draws)
}
