//! R-EX-2 and the product's steady-state rule: once warm, executing command lists costs the CPU
//! side no heap allocation (the GPU model, which stands in for the hardware, is detached here:
//! its records are what it is for, and they allocate).

mod common;
#[path = "../../recorder/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use common::*;
use counting_alloc::allocations_during;
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

#[test]
fn r_ex_2_executing_lists_again_allocates_nothing_on_the_cpu_side() {
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let f = Fixture::with_immediate(semantics);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        imm.set_gpu_timing(GpuTiming::Detached);
        // A legacy list with split points of two kinds and a nested list; a fast one without.
        let nested = f.list(semantics, |c| c.draw(3, 0));
        let list = f.list(semantics, |c| {
            c.set_shader(Stage::Vertex, Some(f.vs));
            for _ in 0..100 {
                c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
                if semantics == Semantics::Legacy {
                    c.set_constant_buffers(Stage::Vertex, 1, &[Some(f.cb_dyn)]);
                    c.set_render_targets(&[Some(f.rt_rtv)], None);
                }
                c.draw(3, 0);
            }
            c.execute_command_list(&nested, RestoreState::ClearState);
        });
        let frame = |imm: &mut ImmediateContext| {
            for _ in 0..10 {
                imm.execute_command_list(&list, RestoreState::ClearState)
                    .unwrap();
            }
            imm.flush().unwrap();
        };
        frame(&mut imm); // warm-up: the submission queue reaches its size
        let ((), allocations) = allocations_during(|| frame(&mut imm));
        assert_eq!(allocations, 0, "{semantics:?}: allocations while executing");
    }
}
