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

/// The frame demo's draws (`benches::Scene`, `frame --backend vulkan`): per draw a mesh change
/// (two vertex buffers, the index buffer and the object constants bound again), a quarter of
/// them a dynamic constant buffer mapped write_discard and bound, skinning palettes and the
/// particle stream mapped before their first bind; a material change (shaders, four textures,
/// sampler, constants) every few draws and a render-target pass switch (clears, the previous
/// pass's target read) every quarter of the frame. Two scenes of the same materials, meshes and
/// passes, one of 1,000 draws and one of 40, each executed as one fast list with the oracle on:
/// their frames allocate as much, so nothing is allocated per draw on the general path
/// (material, map, mesh) either, nor by the oracle's check.
#[test]
fn r_gpu_6_a_frame_of_material_changes_maps_and_passes_translates_without_allocating() {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    });
    let backend = match VulkanBackend::new(&device, VulkanOptions::default()) {
        Ok(backend) => backend,
        Err(missing @ (BackendError::NoLoader(_) | BackendError::NoDevice(_)))
            if std::env::var_os("VULKAN_BACKEND_REQUIRE").is_none() =>
        {
            eprintln!("skipped: {missing} (VULKAN_BACKEND_REQUIRE=1 makes this a failure)");
            return;
        }
        Err(other) => panic!("the Vulkan backend could not be made: {other}"),
    };
    let mut imm = ImmediateContext::new(&device).expect("an immediate context");
    imm.set_gpu_backend(Some(Box::new(backend)));
    let scene = |draws: u32| {
        let desc = benches::SceneDesc {
            draws,
            materials: 8,
            meshes: 32,
            gpu_contents: true,
            // Small targets: lavapipe draws them quickly; the calls are the same.
            size: (32, 18),
            ..benches::SceneDesc::default()
        };
        benches::Scene::new(&device, &desc).expect("the scene")
    };
    let (long, short) = (scene(1_000), scene(40));
    let list = |scene: &benches::Scene| {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "frame",
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .expect("a deferred context");
        benches::record_draws(&mut context, scene, 0..scene.desc.draws);
        context
            .finish_command_list(RestoreState::ClearState)
            .expect("the frame records")
    };
    let mut frame = |scene: &benches::Scene| {
        // Recorded outside the count: the lists' chunks are the recorder's.
        let list = list(scene);
        let ((), allocations) = allocations_during(|| {
            imm.execute_command_list(&list, RestoreState::ClearState)
                .expect("the backend translates the frame");
            imm.flush().expect("the frame is submitted");
        });
        imm.clear_records();
        allocations
    };
    // Warm-up: pipelines, uploads, views, the ring's regions, the scratch lists, and each of
    // the frames in flight's descriptor pools grown to a long frame's.
    for _ in 0..4 {
        frame(&long);
    }
    frame(&short);
    let at_1000 = frame(&long);
    let at_40 = frame(&short);
    let again = frame(&long);
    assert_eq!(
        at_1000, at_40,
        "allocations in a frame of 1,000 draws against one of 40: the backend allocates per draw"
    );
    assert_eq!(
        at_1000, again,
        "a frame's allocations are the same each time"
    );
    let backend = imm
        .gpu_backend_mut()
        .and_then(|b| b.as_any_mut())
        .and_then(|b| b.downcast_mut::<VulkanBackend>())
        .expect("the backend");
    let oracle = backend.oracle_counts();
    assert!(oracle.draws >= 4 * 1_040, "the oracle checked {oracle:?}");
    assert_eq!(oracle.mismatches, 0, "the oracle: {oracle:?}");
}
