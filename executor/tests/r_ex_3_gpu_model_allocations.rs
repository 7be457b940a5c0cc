//! R-EX-3 and the product's steady-state rule for the GPU model: once warm, consuming command
//! lists inline (the model attached, making one record per draw) allocates nothing. The
//! records live in the model's pools, which `clear_records` empties and keeps, as a long run
//! does once a frame; `draws` reads them in place.

mod common;
#[path = "../../recorder/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use common::*;
use counting_alloc::allocations_during;
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

#[test]
fn r_ex_3_consuming_lists_again_allocates_nothing_per_draw() {
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let f = Fixture::with_immediate(semantics);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        imm.set_gpu_timing(GpuTiming::Inline);
        // Per draw a constant-buffer and a vertex-buffer bind; the shaders, blend state and
        // render target change every 100 draws (new graphics parts), and a nested list.
        let nested = f.list(semantics, |c| c.draw(3, 0));
        let list = f.list(semantics, |c| {
            c.set_input_layout(Some(f.layout));
            for draw in 0..300u32 {
                if draw % 100 == 0 {
                    c.set_shader(Stage::Vertex, Some(f.vs));
                    c.set_shader(Stage::Pixel, Some(f.ps));
                    c.set_blend_state(Some(f.blend), [0.0; 4], u32::MAX);
                    c.set_render_targets(&[Some(f.rt_rtv)], None);
                }
                let cb = if draw % 2 == 0 { f.cb } else { f.cb2 };
                c.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
                let vb = VertexBuffer {
                    buffer: Some(if draw % 2 == 0 { f.vb } else { f.vb2 }),
                    stride: 16,
                    offset: 0,
                };
                c.set_vertex_buffers(0, &[vb]);
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
            let draws = imm.draws().len();
            imm.clear_records();
            draws
        };
        frame(&mut imm); // warm-up: the pools and the submission queue reach their sizes
        let (draws, allocations) = allocations_during(|| frame(&mut imm));
        assert_eq!(draws, 10 * 301, "{semantics:?}: every draw recorded");
        assert_eq!(allocations, 0, "{semantics:?}: allocations while consuming");
        // The records are the ones an owned copy shows.
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        let draws: Vec<_> = imm.draws().iter().map(|d| d.to_record()).collect();
        assert_eq!(draws.as_slice(), imm.records());
    }
}
