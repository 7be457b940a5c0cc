//! R-CAP-3 and R-CAP-6 for minimum LODs and carried bindings (R-ST-6): a legacy bind copies the
//! resource's minimum LOD when it is made, and a list finished with restore carries the bound
//! view, with that LOD, into the context's next list. When another context changes the
//! resource's minimum LOD in the frame before the next list starts, the trace's carried bind
//! (written where the list starts) would copy the new value: the trace writes the LOD each
//! carried view encoded around the carried binds, and the replay's records match the live
//! ones.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

#[test]
fn r_cap_3_a_carried_view_keeps_the_min_lod_it_encoded_when_another_context_changes_it() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "main",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
        })
        .expect("chain");
    let tex = device
        .create_texture(&TextureDesc {
            name: "tex",
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
            mip_levels: 4,
            bind: BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .expect("texture");
    let srv = device
        .create_shader_resource_view(&ViewDesc::new("tex_srv", tex))
        .expect("view");
    let vs = device
        .create_shader(&ShaderDesc {
            shader_resources: Slots::from_bits(1),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .expect("vs");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    let context = |name| {
        device
            .create_deferred_context(&DeferredContextDesc {
                name,
                ..Default::default()
            })
            .expect("context")
    };
    let (mut binder, mut setter) = (context("binder"), context("setter"));
    // Frame 0: the binder binds the view (LOD 1 copied) and keeps its state for its next list.
    imm.set_resource_min_lod(tex, 1.0);
    binder.set_shader(Stage::Vertex, Some(vs));
    binder.set_shader_resources(Stage::Vertex, 0, &[Some(srv)]);
    binder.draw(3, 0);
    let early = binder
        .finish_command_list(RestoreState::Restore)
        .expect("list");
    imm.execute_command_list(&early, RestoreState::ClearState)
        .expect("execute");
    device.capture().trigger();
    imm.present(chain).expect("present");
    // Frame 1: another context sets LOD 3 before the binder's next list starts; that list's
    // draw reads the carried view, LOD 1.
    setter.set_resource_min_lod(tex, 3.0);
    setter.draw(3, 0);
    binder.draw(3, 1);
    let set = setter
        .finish_command_list(RestoreState::ClearState)
        .expect("list");
    let bound = binder
        .finish_command_list(RestoreState::ClearState)
        .expect("list");
    imm.execute_command_list(&set, RestoreState::ClearState)
        .expect("execute");
    imm.execute_command_list(&bound, RestoreState::ClearState)
        .expect("execute");
    imm.present(chain).expect("present");
    let outcomes = device.capture().take_outcomes();
    let frame = match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame,
        other => panic!("{other:?}"),
    };
    let carried = frame
        .record_lines
        .iter()
        .find(|l| l.contains("args=3,1"))
        .expect("the binder's draw");
    assert!(
        carried.contains("tex_srv") && carried.contains("min_lod=1"),
        "{carried}"
    );
    modes::assert_round_trip(frame);
}
