//! R-REC-3 and the product's steady-state rule, on the render-bundle workload (`benches::render_workload`):
//! once warm, every path the `workload` harness times records, executes and drops without a
//! heap allocation — fast and legacy lists (recorded, finished, executed with the GPU model
//! detached, dropped) and the same calls on the immediate context of either semantics.

#[path = "../../recorder/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use benches::render_workload::Workload;
use counting_alloc::allocations_during;
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

const DRAWS: u32 = 3_000;

fn device(immediate_semantics: Semantics) -> (Device, Workload, ImmediateContext) {
    let device = Device::new(DeviceDesc {
        immediate_semantics,
        ..DeviceDesc::default()
    });
    let workload = Workload::new(&device).unwrap();
    let mut immediate = ImmediateContext::new(&device).unwrap();
    immediate.set_gpu_timing(GpuTiming::Detached);
    (device, workload, immediate)
}

#[test]
fn r_rec_3_the_workload_lists_record_execute_and_drop_without_allocating() {
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let (device, workload, mut immediate) = device(Semantics::Fast);
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "workload",
                semantics,
                ..Default::default()
            })
            .unwrap();
        let mut frame = || {
            workload.record(&mut context, 0..DRAWS);
            let list = context
                .finish_command_list(RestoreState::ClearState)
                .unwrap();
            immediate
                .execute_command_list(&list, RestoreState::ClearState)
                .unwrap();
            immediate.flush().unwrap();
            list.stats().draws
        };
        for _ in 0..2 {
            frame();
        }
        let (draws, allocations) = allocations_during(&mut frame);
        assert_eq!(draws, DRAWS);
        assert_eq!(allocations, 0, "{semantics:?} list");
    }
}

#[test]
fn r_rec_3_the_workload_on_the_immediate_context_allocates_nothing() {
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let (_device, workload, mut immediate) = device(semantics);
        let mut frame = || {
            workload.record(&mut immediate, 0..DRAWS);
            immediate.flush().unwrap();
        };
        for _ in 0..2 {
            frame();
        }
        let ((), allocations) = allocations_during(&mut frame);
        assert_eq!(allocations, 0, "{semantics:?} immediate");
    }
}
