//! R-GPU-3, queries as Vulkan queries: an occlusion query counts the pixels a quad covers (the
//! GPU's count, where the model counts one sample per primitive), nested and across passes and
//! submissions; pipeline statistics count the draws' vertices and primitives; timestamps
//! increase; `get_data` returns the GPU's results (and, asked not to, the model's); under the
//! validation layer, the oracle comparing every draw.

mod common;

use common::*;
use executor::QueryData;
use recorder::*;

/// A 32x32 chain, its two back buffers' views, the quad shaders and a green constant buffer
/// bound, the first buffer cleared and bound as the target.
fn scene(gpu: &mut Gpu) -> (SwapChain, RenderTargetView, RenderTargetView) {
    let chain = gpu.swap_chain(32, 32);
    let buffers = gpu.device.swap_chain_info(chain).unwrap().buffers;
    let (first, second) = (buffers[0].1, buffers[1].1);
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let cb = gpu.colour_buffer("green", Usage::Default, [0.0, 1.0, 0.0, 1.0]);
    gpu.imm
        .clear_render_target_view(first, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(first)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
    (chain, first, second)
}

fn samples(gpu: &mut Gpu, query: Query) -> u64 {
    match gpu.backend().query_result(query).expect("a result") {
        Some(QueryData::Occlusion { samples }) | Some(QueryData::Predicate { samples, .. }) => {
            samples
        }
        other => panic!("not an occlusion result: {other:?}"),
    }
}

#[test]
fn r_gpu_3_an_occlusion_query_counts_the_pixels_of_a_quad() {
    let Some(mut gpu) = gpu() else { return };
    let (chain, _, second) = scene(&mut gpu);
    let outer = gpu
        .device
        .create_query("outer", QueryKind::Occlusion)
        .unwrap();
    let inner = gpu
        .device
        .create_query("inner", QueryKind::Occlusion)
        .unwrap();
    let binary = gpu
        .device
        .create_query("binary", QueryKind::Predicate)
        .unwrap();
    gpu.imm.configure_query(binary, QueryMode::Binary);
    gpu.imm.begin_query(outer);
    gpu.imm.begin_query(binary);
    gpu.imm.begin_query(inner);
    // The middle half of 32x32: 16x16 pixels.
    gpu.imm.draw(6, 0);
    gpu.imm.end_query(inner);
    gpu.imm.end_query(binary);
    // The outer scope goes on across a submission and into a pass on another target.
    gpu.imm.flush().unwrap();
    gpu.imm
        .clear_render_target_view(second, [0.0, 0.0, 0.0, 1.0]);
    gpu.imm.set_render_targets(&[Some(second)], None);
    // All of 32x32.
    gpu.imm.draw(6, 6);
    gpu.imm.end_query(outer);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    assert_eq!(samples(&mut gpu, inner), 256, "16x16 pixels");
    assert_eq!(
        samples(&mut gpu, outer),
        256 + 1024,
        "both passes, both submissions"
    );
    assert_eq!(samples(&mut gpu, binary), 1, "a binary query");
    assert_eq!(
        gpu.imm.get_data(inner).unwrap(),
        QueryData::Occlusion { samples: 256 },
        "get_data reads the GPU"
    );
    let model = gpu
        .imm
        .gpu_now()
        .unwrap()
        .query_result(inner.raw())
        .unwrap();
    assert_eq!(
        model.counts.samples, 2,
        "the model's estimate: a sample per primitive"
    );
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_pipeline_statistics_count_the_draws() {
    let Some(mut gpu) = gpu() else { return };
    let (chain, _, _) = scene(&mut gpu);
    let stats = gpu
        .device
        .create_query("stats", QueryKind::PipelineStatistics)
        .unwrap();
    gpu.imm.begin_query(stats);
    gpu.imm.draw(6, 0);
    // The first triangle of the full quad.
    gpu.imm.draw(3, 6);
    gpu.imm.end_query(stats);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let Some(QueryData::PipelineStatistics(counts)) = gpu.backend().query_result(stats).unwrap()
    else {
        panic!("no statistics");
    };
    assert_eq!(
        (counts.ia_vertices, counts.ia_primitives),
        (9, 3),
        "{counts:?}"
    );
    assert_eq!(counts.vs_invocations, 9, "{counts:?}");
    assert_eq!(counts.c_invocations, 3, "{counts:?}");
    // At least the quad's 256 pixels and the half of 32x32 below the diagonal (496): the
    // GPU may count helper invocations too (lavapipe counts 2x2 quads: 896 here).
    assert!(counts.ps_invocations >= 256 + 496, "{counts:?}");
    assert_eq!(counts.cs_invocations, 0, "{counts:?}");
    assert_eq!(
        gpu.imm.get_data(stats).unwrap(),
        QueryData::PipelineStatistics(counts),
        "get_data reads the GPU"
    );
    let model = gpu
        .imm
        .gpu_now()
        .unwrap()
        .query_result(stats.raw())
        .unwrap()
        .counts;
    assert_eq!(
        (model.ia_vertices, model.ia_primitives, model.vs_invocations),
        (
            counts.ia_vertices,
            counts.ia_primitives,
            counts.vs_invocations
        ),
        "the input assembler's and vertex shader's counts are the model's"
    );
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_timestamps_increase() {
    let Some(mut gpu) = gpu() else { return };
    let (chain, _, _) = scene(&mut gpu);
    let times: Vec<Query> = (0..3)
        .map(|i| {
            gpu.device
                .create_query(&format!("t{i}"), QueryKind::Timestamp)
                .unwrap()
        })
        .collect();
    gpu.imm.end_query(times[0]);
    for _ in 0..50 {
        gpu.imm.draw(6, 6);
    }
    gpu.imm.end_query(times[1]);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    gpu.imm.draw(6, 0);
    gpu.imm.end_query(times[2]);
    gpu.imm.flush().unwrap();
    let mut ns = Vec::new();
    for &query in &times {
        match gpu.backend().query_result(query).unwrap() {
            Some(QueryData::Timestamp { ticks }) => ns.push(ticks),
            other => panic!("not a timestamp: {other:?}"),
        }
    }
    assert!(ns[0] > 0, "{ns:?}");
    assert!(
        ns[0] < ns[1] && ns[1] < ns[2],
        "timestamps increase: {ns:?}"
    );
    assert!(gpu.backend().timestamp_period_ns() > 0.0);
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_get_data_keeps_the_models_values_when_asked() {
    let Some(mut gpu) = gpu() else { return };
    let options = vulkan_backend::VulkanOptions {
        validation: true,
        gpu_query_results: false,
        ..Default::default()
    };
    let backend = vulkan_backend::VulkanBackend::new(&gpu.device, options).unwrap();
    gpu.imm.set_gpu_backend(Some(Box::new(backend)));
    let (chain, _, _) = scene(&mut gpu);
    let query = gpu.device.create_query("q", QueryKind::Occlusion).unwrap();
    gpu.imm.begin_query(query);
    gpu.imm.draw(6, 0);
    gpu.imm.end_query(query);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    assert_eq!(
        gpu.imm.get_data(query).unwrap(),
        QueryData::Occlusion { samples: 2 }
    );
    assert_eq!(samples(&mut gpu, query), 256, "the GPU's still counted");
    gpu.assert_clean();
}

#[test]
fn r_gpu_3_write_query_reads_an_open_scope_so_far() {
    let Some(mut gpu) = gpu() else { return };
    let (chain, _, _) = scene(&mut gpu);
    let query = gpu.device.create_query("q", QueryKind::Occlusion).unwrap();
    gpu.imm.begin_query(query);
    gpu.imm.draw(6, 0);
    gpu.imm.write_query(query);
    gpu.imm.flush().unwrap();
    assert_eq!(samples(&mut gpu, query), 256, "the scope so far");
    gpu.imm.draw(6, 6);
    gpu.imm.end_query(query);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    assert_eq!(samples(&mut gpu, query), 256 + 1024, "the scope went on");
    gpu.assert_clean();
}
