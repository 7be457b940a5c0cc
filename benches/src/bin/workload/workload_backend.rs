//! `workload --backend vulkan` (R-GPU-6): the workload's fast list executed on two devices in
//! interleaved rounds of one process, one feeding the GPU model alone, one feeding it and the
//! Vulkan backend, so the difference is the backend's translation; the submission (and the wait
//! for the GPU) timed apart, the GPU's time from timestamp queries, and the target's pixels
//! checked against the cells the draws must leave (`benches::workload_contents`). In the same
//! rounds, the raw-Vulkan baseline: the same frame recorded with ash as a hand-written renderer
//! records it (`vulkan_backend::RawFrame`: the pipeline bound on a change, the constant buffer
//! pushed, the vertex buffer bound, the draw), on the backend's device and objects, so the
//! translation's cost is given against it from one process. And the raw frame again in
//! secondary command buffers recorded on each of `--threads`' thread counts
//! (`VulkanBackend::record_raw_threaded`), against the one command buffer in the same rounds:
//! what recording Vulkan commands on several threads would save.
//!
//! **In:** the options (draws, runs). **Out:** lines on stdout: ns per draw of execution
//! (model, model + backend, the difference), of the raw frame's recording and the ratio, of
//! submission, GPU ms per frame, the pixel check.

use std::time::{Duration, Instant};

use benches::outln;
use benches::render_workload::{
    Workload, CONSTANT_BUFFERS, PIPELINE_EVERY, STRIDE, VERTEX_BUFFERS,
};
use benches::timing::ns;
use benches::workload_contents::{expected_cells, workload_target};
use executor::{GpuBackend, ImmediateContext};
use recorder::*;
use vulkan_backend::{RawDraw, RawFrame, RawPipeline, VulkanBackend, VulkanOptions};

use crate::Options;

/// The median of `samples`.
fn median(samples: &mut [Duration]) -> Duration {
    samples.sort_unstable();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

/// One device with its immediate context, workload and target.
struct Side {
    device: Device,
    immediate: ImmediateContext,
    workload: Workload,
    target: (Texture, RenderTargetView, Viewport),
}

impl Side {
    fn new() -> Result<Self, String> {
        let device = Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
            ..DeviceDesc::default()
        });
        let immediate = ImmediateContext::new(&device).map_err(|e| e.to_string())?;
        let workload = Workload::with_gpu_contents(&device).map_err(|e| e.to_string())?;
        let target = workload_target(&device).map_err(|e| e.to_string())?;
        Ok(Self {
            device,
            immediate,
            workload,
            target,
        })
    }

    /// Records the frame's fast list, then times its execution (the model inline, and the
    /// backend's translation when it has one).
    fn frame(&mut self, draws: u32) -> Result<Duration, String> {
        let mut context = self
            .device
            .create_deferred_context(&DeferredContextDesc {
                name: "workload",
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .map_err(|e| e.to_string())?;
        self.workload.record(&mut context, 0..draws);
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|e| e.error.to_string())?;
        let (_, view, viewport) = self.target;
        let imm = &mut self.immediate;
        imm.set_render_targets(&[Some(view)], None);
        imm.set_viewports(&[viewport]);
        imm.clear_render_target_view(view, [0.0, 0.0, 0.0, 1.0]);
        let begin = Instant::now();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .map_err(|e| e.to_string())?;
        imm.flush().map_err(|e| e.to_string())?;
        let took = begin.elapsed();
        imm.clear_records();
        Ok(took)
    }
}

/// The backend of `side`.
fn backend(side: &mut Side) -> Result<&mut VulkanBackend, String> {
    side.immediate
        .gpu_backend_mut()
        .and_then(|b| b.as_any_mut())
        .and_then(|b| b.downcast_mut::<VulkanBackend>())
        .ok_or_else(|| "the backend is gone".to_string())
}

/// The raw frame of `side`'s workload on its backend: its two pipelines, its buffers, its
/// target.
fn raw_frame(side: &mut Side) -> Result<RawFrame, String> {
    let w = &side.workload;
    let pipelines = [0, 1].map(|k| RawPipeline {
        vertex_shader: w.vertex_shaders[k],
        pixel_shader: w.pixel_shaders[k],
        blend: w.blends[k],
        input_layout: w.input_layout,
        stride: STRIDE,
        topology: PrimitiveTopology::default(),
    });
    let (constants, vertices) = (w.constants, w.vertices);
    let target = (side.target.0, side.target.1);
    backend(side)?
        .raw_frame(&pipelines, &constants, &vertices, target)
        .map_err(|e| format!("the raw frame: {e}"))
}

/// Draws `0..draws` as `Workload::record` makes them, as raw draws.
fn raw_draws(draws: u32) -> Vec<RawDraw> {
    (0..draws)
        .map(|i| RawDraw {
            pipeline: ((i / PIPELINE_EVERY) % 2) as usize,
            constant_buffer: i as usize % CONSTANT_BUFFERS,
            vertex_buffer: i as usize % VERTEX_BUFFERS,
            vertices: 3,
        })
        .collect()
}

/// Records the raw frame on `side`'s backend (timed), then submits it (not timed): on the
/// frame's command buffer (`threads` `None`), or in secondary command buffers on `threads`
/// threads.
fn raw_round(
    side: &mut Side,
    frame: &RawFrame,
    draws: &[RawDraw],
    threads: Option<usize>,
) -> Result<Duration, String> {
    let backend = backend(side)?;
    let begin = Instant::now();
    match threads {
        None => backend.record_raw(frame, draws),
        Some(threads) => backend.record_raw_threaded(frame, draws, threads),
    }
    .map_err(|e| format!("the raw frame: {e}"))?;
    let took = begin.elapsed();
    backend
        .submit()
        .map_err(|e| format!("the raw frame's submission: {e}"))?;
    Ok(took)
}

/// The backend rows (see the module essay).
pub(crate) fn run(o: &Options) -> Result<(), String> {
    let mut model = Side::new()?;
    let mut drawn = Side::new()?;
    let options = VulkanOptions {
        oracle: !o.no_oracle,
        ..VulkanOptions::default()
    };
    let vulkan =
        VulkanBackend::new(&drawn.device, options).map_err(|e| format!("--backend vulkan: {e}"))?;
    let name = vulkan.device_name();
    drawn.immediate.set_gpu_backend(Some(Box::new(vulkan)));
    let (mut alone, mut with, mut submit, mut gpu, mut raw) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let raw_list = raw_draws(o.draws);
    // The raw frame in secondary command buffers on each of the thread counts (does
    // recording on several threads pay?).
    let counts: Vec<usize> = o.threads.iter().map(|&t| t as usize).collect();
    let mut threaded = vec![Vec::new(); counts.len()];
    // The backend's pipelines and buffers for the workload, made (or found) once.
    let frame = raw_frame(&mut drawn)?;
    for round in 0..o.runs + 2 {
        let a = model.frame(o.draws)?;
        let r = raw_round(&mut drawn, &frame, &raw_list, None)?;
        for (k, &threads) in counts.iter().enumerate() {
            let t = raw_round(&mut drawn, &frame, &raw_list, Some(threads))?;
            if round >= 2 {
                threaded[k].push(t.as_secs_f64() / r.as_secs_f64().max(1e-12));
            }
        }
        let b = drawn.frame(o.draws)?;
        let begin = Instant::now();
        let backend = backend(&mut drawn)?;
        // The frame was submitted by the flush; wait for it here (frames in flight: nothing
        // else waits), so that its GPU time is read.
        backend
            .wait_for_gpu()
            .map_err(|e| format!("waiting for the GPU: {e}"))?;
        let s = begin.elapsed();
        let time = backend.gpu_time().last_ns;
        if round >= 2 {
            raw.push(r);
            alone.push(a);
            with.push(b);
            submit.push(s);
            gpu.push(Duration::from_nanos(time as u64));
        }
    }
    let (a, b) = (median(&mut alone), median(&mut with));
    outln!(
        "backend: Vulkan on {name}; {} draws, median of {} interleaved rounds; oracle {}; ns per draw",
        o.draws,
        o.runs,
        if o.no_oracle { "off" } else { "on" }
    );
    outln!(
        "  execute, model alone {:.1}; model + backend {:.1}; the backend's translation {:.1}",
        ns(a, o.draws),
        ns(b, o.draws),
        ns(b.saturating_sub(a), o.draws)
    );
    let (translation, raw) = (b.saturating_sub(a), median(&mut raw));
    outln!(
        "  raw Vulkan (the same frame recorded with ash) {:.1}; the backend's translation {:.2}x raw",
        ns(raw, o.draws),
        translation.as_secs_f64() / raw.as_secs_f64().max(1e-12)
    );
    for (threads, ratios) in counts.iter().zip(&mut threaded) {
        ratios.sort_unstable_by(f64::total_cmp);
        let ratio = ratios.get(ratios.len() / 2).copied().unwrap_or_default();
        outln!(
            "  raw Vulkan in secondary command buffers on {threads} threads: {:.1} ns per draw \
             (wall, threads started per frame), {ratio:.2}x the one command buffer",
            ns(raw, o.draws) * ratio
        );
    }
    outln!(
        "  submit and wait {:.1} ns per draw; GPU {:.3} ms per frame (timestamps)",
        ns(median(&mut submit), o.draws),
        median(&mut gpu).as_secs_f64() * 1e3
    );
    let texture = drawn.target.0;
    let (width, _, pixels) = backend(&mut drawn)?
        .read_texture(texture)
        .map_err(|e| e.to_string())?;
    let mut failed = Vec::new();
    let cells = expected_cells(o.draws);
    for ((x, y), want) in &cells {
        let at = ((y * width + x) * 4) as usize;
        let got = pixels.get(at..at + 4).unwrap_or(&[]);
        let close = got.len() == 4 && got.iter().zip(want).all(|(g, w)| g.abs_diff(*w) <= 2);
        if !close {
            failed.push(format!("({x}, {y}): {got:?}, not {want:?}"));
        }
    }
    let oracle = backend(&mut drawn)?.oracle_counts();
    outln!(
        "  pixel check: {} of {} cells as the draws left them; oracle: {} draws compared, {} differed",
        cells.len() - failed.len(),
        cells.len(),
        oracle.draws,
        oracle.mismatches
    );
    if let Some(first) = failed.first() {
        return Err(format!("pixel check failed at {first}"));
    }
    if oracle.mismatches > 0 {
        return Err("the oracle found draws bound otherwise than the model recorded".into());
    }
    Ok(())
}
