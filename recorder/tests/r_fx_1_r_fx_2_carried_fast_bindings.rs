//! R-FX-1 and R-FX-2 with R-ST-1: a legacy context's fast bindings are carried into its next
//! list (`finish_command_list(Restore)`) as they were bound: a placed default buffer at its
//! address (it is no dynamic binding, so the carry neither resolves it again at execution nor
//! counts a split point for it), a fast-bound view of a compressible target with no
//! decompression split point (as the fast bind itself made none).

use recorder::command::{Command, InstanceId};
use recorder::*;

#[test]
fn r_fx_2_a_carried_placed_binding_keeps_its_address() {
    let device = Device::new(DeviceDesc::default());
    let buffer = |name, bind| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 256,
                bind,
                ..Default::default()
            })
            .expect("buffer")
    };
    let (cb, vb) = (
        buffer("cb", BindFlags::CONSTANT),
        buffer("vb", BindFlags::VERTEX),
    );
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            semantics: Semantics::Legacy,
            ..Default::default()
        })
        .expect("context");
    context.set_placement_constant_buffer(Stage::Vertex, 0, cb, 0x2000);
    context.set_placement_vertex_buffer(1, vb, 16, 0, 0x3000);
    let _first = context
        .finish_command_list(RestoreState::Restore)
        .expect("first");
    context.draw(1, 0);
    let second = context
        .finish_command_list(RestoreState::ClearState)
        .expect("second");
    assert_eq!(second.stats().split_points.total(), 0, "no split point");
    let mut found = (None, None);
    for decoded in second.commands() {
        match decoded.command {
            Command::SetConstantBuffers {
                stage: Stage::Vertex,
                buffers,
                ..
            } => {
                if let Some(b) = buffers.iter().find(|b| b.buffer == cb.raw()) {
                    found.0 = Some(b.instance);
                }
            }
            Command::SetVertexBuffers { buffers, .. } => {
                if let Some(b) = buffers.iter().find(|b| b.buffer == vb.raw()) {
                    found.1 = Some(b.instance);
                }
            }
            _ => {}
        }
    }
    assert_eq!(
        found.0,
        Some(InstanceId::placed(0x2000)),
        "the constant buffer"
    );
    assert_eq!(
        found.1,
        Some(InstanceId::placed(0x3000)),
        "the vertex buffer"
    );
}

#[test]
fn r_fx_1_a_carried_fast_view_of_a_compressible_target_is_no_split_point() {
    let device = Device::new(DeviceDesc::default());
    let rt = device
        .create_texture(&TextureDesc {
            name: "rt",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .expect("rt");
    let srv = device
        .create_shader_resource_view(&ViewDesc::new("rt_srv", rt))
        .expect("srv");
    let carried = |fast: bool| {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                semantics: Semantics::Legacy,
                ..Default::default()
            })
            .expect("context");
        if fast {
            context.set_fast_shader_resource(Stage::Pixel, 0, Some(srv));
        } else {
            context.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
        }
        let first = context
            .finish_command_list(RestoreState::Restore)
            .expect("first");
        let second = context
            .finish_command_list(RestoreState::ClearState)
            .expect("second");
        (
            first.stats().split_points.total(),
            second.stats().split_points.total(),
        )
    };
    // A legacy bind of it is a decompression split point, carried again; a fast one is neither.
    let (legacy_first, legacy_second) = carried(false);
    assert!(
        legacy_first > 0 && legacy_second > 0,
        "{legacy_first} {legacy_second}"
    );
    assert_eq!(carried(true), (0, 0));
}
