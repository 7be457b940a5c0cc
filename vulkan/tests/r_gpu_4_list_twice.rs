//! R-GPU-4, a deferred context's list executed twice: the list maps a dynamic constant buffer
//! (write-discard: its bytes travel with the list) and draws a quad with it; each execution
//! draws the same quad over what the immediate context cleared before it.

mod common;

use common::*;
use recorder::*;

#[test]
fn r_gpu_4_a_list_executed_twice() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 32);
    let (texture, rtv) = gpu.device.swap_chain_info(chain).unwrap().buffers[0];
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    let cb = gpu
        .device
        .create_buffer(&BufferDesc {
            name: "dynamic colour",
            size: 16,
            usage: Usage::Dynamic,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    let mut context = gpu
        .device
        .create_deferred_context(&DeferredContextDesc {
            name: "scene",
            ..Default::default()
        })
        .unwrap();
    let data = context
        .map(cb, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .expect("a write-discard map in the list");
    data[..16].copy_from_slice(&colour_bytes([1.0, 1.0, 0.0, 1.0]));
    context.unmap(cb);
    context.set_render_targets(&[Some(rtv)], None);
    context.set_viewports(&[Viewport::new(0.0, 0.0, 32.0, 32.0)]);
    context.set_primitive_topology(PrimitiveTopology::TriangleList);
    context.set_shader(Stage::Vertex, Some(vs));
    context.set_shader(Stage::Pixel, Some(ps));
    context.set_constant_buffers(Stage::Pixel, 0, &[Some(cb)]);
    context.draw(6, 0);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap();

    gpu.imm.clear_render_target_view(rtv, [1.0, 0.0, 0.0, 1.0]);
    gpu.imm
        .execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    gpu.imm.flush().unwrap();
    let first = gpu.backend().read_texture(texture).unwrap();
    assert_eq!(texel(&first, 16, 16), [255, 255, 0, 255], "the list's quad");
    assert_eq!(texel(&first, 0, 0), [255, 0, 0, 255], "the first clear");

    gpu.imm.clear_render_target_view(rtv, [0.0, 0.0, 1.0, 1.0]);
    gpu.imm
        .execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let second = gpu.backend().presented_pixels(chain).expect("a present");
    assert_eq!(
        texel(&second, 16, 16),
        [255, 255, 0, 255],
        "the list's quad again"
    );
    assert_eq!(texel(&second, 0, 0), [0, 0, 255, 255], "the second clear");
    assert_eq!(gpu.backend().oracle_counts().draws, 2);
    gpu.assert_clean();
}
