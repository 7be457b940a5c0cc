//! R-GPU-6: the backend translates a draw without allocating. Once a frame has warmed the
//! backend up (pipelines built, objects made and uploaded, its scratch lists grown), executing
//! the workload's fast list (`benches::render_workload`: per draw a constant-buffer bind among
//! 16, a vertex-buffer bind among 8, `draw(3, 0)`, the pipeline changed every 100 draws) with
//! the backend installed allocates as much for 1,000 draws as for 10: nothing per draw, only
//! the frame's submission. The model allocates nothing when warm (`r_ex_3`), so what is counted
//! is the backend's. Counted with the oracle off (it builds the states it compares, a checking
//! mode) and the validation layer off (a C library: its allocations are not Rust's anyway).

#[path = "../../recorder/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use benches::render_workload::Workload;
use benches::workload_contents::workload_target;
use counting_alloc::allocations_during;
use executor::ImmediateContext;
use recorder::*;
use vulkan_backend::{BackendError, VulkanBackend, VulkanOptions};

/// The device, its immediate context with the backend (oracle and validation off), the
/// workload and its target; `None` where this machine has no Vulkan (unless required).
fn setup() -> Option<(
    Device,
    ImmediateContext,
    Workload,
    RenderTargetView,
    Viewport,
)> {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    });
    let options = VulkanOptions {
        oracle: false,
        ..VulkanOptions::default()
    };
    let backend = match VulkanBackend::new(&device, options) {
        Ok(backend) => backend,
        Err(missing @ (BackendError::NoLoader(_) | BackendError::NoDevice(_)))
            if std::env::var_os("VULKAN_BACKEND_REQUIRE").is_none() =>
        {
            eprintln!("skipped: {missing} (VULKAN_BACKEND_REQUIRE=1 makes this a failure)");
            return None;
        }
        Err(other) => panic!("the Vulkan backend could not be made: {other}"),
    };
    let mut imm = ImmediateContext::new(&device).expect("an immediate context");
    imm.set_gpu_backend(Some(Box::new(backend)));
    let workload = Workload::with_gpu_contents(&device).expect("the workload's objects");
    let (_, view, viewport) = workload_target(&device).expect("the target");
    Some((device, imm, workload, view, viewport))
}

#[test]
fn r_gpu_6_a_draw_translates_without_allocating() {
    let Some((device, mut imm, workload, view, viewport)) = setup() else {
        return;
    };
    let list = |draws: u32| {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "workload",
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .expect("a deferred context");
        workload.record(&mut context, 0..draws);
        context
            .finish_command_list(RestoreState::ClearState)
            .expect("the workload records")
    };
    let (long, short) = (list(1_000), list(10));
    let mut frame = |list: &CommandList| {
        imm.set_render_targets(&[Some(view)], None);
        imm.set_viewports(&[viewport]);
        imm.clear_render_target_view(view, [0.0, 0.0, 0.0, 1.0]);
        let ((), allocations) = allocations_during(|| {
            imm.execute_command_list(list, RestoreState::ClearState)
                .expect("the backend translates the workload");
            imm.flush().expect("the frame is submitted");
        });
        imm.clear_records();
        allocations
    };
    // Warm-up: pipelines, uploads, the scratch lists and the submission reach their sizes.
    frame(&long);
    frame(&short);
    let at_1000 = frame(&long);
    let at_10 = frame(&short);
    let again = frame(&long);
    assert_eq!(
        at_1000, at_10,
        "allocations in a frame of 1,000 draws against one of 10: the backend allocates per draw"
    );
    assert_eq!(
        at_1000, again,
        "a frame's allocations are the same each time"
    );
}
