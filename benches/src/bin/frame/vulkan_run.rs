//! `frame --backend vulkan` (R-GPU-5): the Vulkan backend installed on the immediate context
//! before the runs, and after them what it drew: each run's last presented frame as a PNG
//! (`--png FILE`, named as `--capture` names its traces), the validation layer's messages (`--gpu-validation`: any stops the demo),
//! the oracle's checks (each draw's bound state against the model's record, R-GPU-4).
//!
//! **In:** the device, the immediate context, the options. **Out:** the backend on the model,
//! and a summary line on stderr: device, pipelines, descriptor sets, submissions, draws checked.

use benches::Scene;
use executor::ImmediateContext;
use recorder::Device;
use vulkan_backend::{VulkanBackend, VulkanOptions};

use crate::frame_options::Options;

/// Makes the backend for `device` and feeds it from `immediate`'s model.
pub(crate) fn install(
    device: &Device,
    immediate: &mut ImmediateContext,
    options: &Options,
) -> Result<(), String> {
    let backend = VulkanBackend::new(
        device,
        VulkanOptions {
            validation: options.gpu_validation,
            oracle: options.oracle,
            ..VulkanOptions::default()
        },
    )
    .map_err(|error| format!("--backend vulkan: {error}"))?;
    eprintln!("backend: Vulkan on {}", backend.device_name());
    immediate.set_gpu_backend(Some(Box::new(backend)));
    Ok(())
}

/// After a run (legacy lists, fast lists, bundles): its last presented frame as a PNG at
/// `--png FILE`, or at `FILE` with the run's name before the extension when several runs draw
/// (`f.png` -> `f.legacy.png`, ...), as `--capture` names its traces: the run's captured frame
/// is its last, so `replay --backend vulkan --png DIR` of that trace writes the same picture
/// (R-GPU-5).
pub(crate) fn write_run_png(
    immediate: &mut ImmediateContext,
    scene: &Scene,
    options: &Options,
    run: &str,
) -> Result<(), String> {
    let (Some(file), Some(post)) = (&options.png, &scene.post) else {
        return Ok(());
    };
    let path = benches::capture::capture_path(file, run, options.modes());
    immediate
        .flush()
        .map_err(|error| format!("the backend refused: {error}"))?;
    backend_of(immediate)?.write_png(post.chain, &path)?;
    eprintln!("backend: wrote {}", path.display());
    Ok(())
}

/// The Vulkan backend `install` put on `immediate`'s model.
fn backend_of(immediate: &mut ImmediateContext) -> Result<&mut VulkanBackend, String> {
    immediate
        .gpu_backend_mut()
        .and_then(|b| b.as_any_mut())
        .and_then(|b| b.downcast_mut::<VulkanBackend>())
        .ok_or_else(|| "--backend vulkan: the backend is gone".to_string())
}

/// What the backend drew: the validation messages, the summary (the PNGs are the runs').
pub(crate) fn finish(immediate: &mut ImmediateContext, options: &Options) -> Result<(), String> {
    let errors = immediate.flush();
    let backend = backend_of(immediate)?;
    // Every frame in flight counted (R-GPU-6: a submission is not waited for otherwise).
    backend
        .wait_for_gpu()
        .map_err(|error| format!("the backend refused: {error}"))?;
    let time = backend.gpu_time();
    if time.submissions > 0 {
        eprintln!(
            "backend: GPU time (timestamps) {:.3} ms the last submission, {:.3} ms a submission \
             over {} (a frame is one submission: its present reads the back buffer back)",
            time.last_ns / 1e6,
            time.total_ns / 1e6 / time.submissions as f64,
            time.submissions
        );
    }
    let oracle = backend.oracle_counts();
    eprintln!(
        "backend: {} pipelines, {} descriptor sets written, {} submissions, {} fence waits \
         (a frame in flight reused, a read-back), {:?}",
        backend.pipelines_built(),
        backend.descriptor_sets_written(),
        backend.submissions(),
        backend.fence_waits(),
        oracle,
    );
    if oracle.mismatches > 0 {
        return Err(format!(
            "the oracle (R-GPU-4): {} of {} draws bound other state than the model recorded",
            oracle.mismatches, oracle.draws
        ));
    }
    let messages = backend.validation_messages();
    if options.gpu_validation {
        eprintln!("backend: {} validation messages", messages.len());
        if let Some(first) = messages.first() {
            return Err(format!("the validation layer reported: {first}"));
        }
    }
    errors.map_err(|error| format!("the backend refused: {error}"))
}
