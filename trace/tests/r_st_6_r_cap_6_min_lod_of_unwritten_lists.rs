//! R-ST-6 with R-CAP-6: a minimum-LOD call changes its object at once, for every context, on
//! whatever context it is made. Made on a deferred context whose list the captured frame never
//! executes (or whose list is discarded), it is in no list the trace writes, yet a later bind on
//! another context reads the value: the trace must write it where it was made (on `imm`), and
//! the replay's records are the live ones, in the three modes.

#[path = "common/modes.rs"]
mod modes;

use recorder::capabilities::*;
use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

/// What becomes of the list that makes the minimum-LOD call.
#[derive(Clone, Copy, Debug)]
enum Fate {
    /// Finished, never executed.
    NotExecuted,
    /// Finished with an error (a refused call before it), so discarded.
    Discarded,
}

fn captured(fate: Fate, view_lod: bool) -> trace::capture::CapturedFrame {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "sc",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
        })
        .expect("chain");
    let tex = device
        .create_texture(&TextureDesc {
            name: "tex",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            mip_levels: 4,
            bind: BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .expect("tex");
    let srv = device
        .create_shader_resource_view(&ViewDesc::new("tex_srv", tex))
        .expect("srv");
    let vs = device
        .create_shader(&ShaderDesc {
            shader_resources: Slots::of(&[0]),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .expect("vs");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    let context = |name: &str, semantics| {
        device
            .create_deferred_context(&DeferredContextDesc {
                name,
                semantics,
                ..Default::default()
            })
            .expect("context")
    };
    let mut setter = context("setter", Semantics::Legacy);
    // A fast context's bind reads the view's minimum LOD, a legacy one the texture's (R-ST-6).
    let mut reader = context(
        "reader",
        if view_lod {
            Semantics::Fast
        } else {
            Semantics::Legacy
        },
    );
    device.capture().trigger();
    imm.present(chain).expect("present");
    if let Fate::Discarded = fate {
        // A vertex shader at the hull stage: refused, the list's finish fails.
        setter.set_shader(Stage::Hull, Some(vs));
    }
    match view_lod {
        true => setter.set_shader_resource_view_min_lod(srv, 2.5),
        false => setter.set_resource_min_lod(tex, 2.0),
    }
    match fate {
        Fate::NotExecuted => {
            setter
                .finish_command_list(RestoreState::ClearState)
                .map_err(|e| e.error)
                .expect("finished");
        }
        Fate::Discarded => {
            assert!(setter
                .finish_command_list(RestoreState::ClearState)
                .is_err());
        }
    }
    reader.set_shader(Stage::Vertex, Some(vs));
    reader.set_shader_resources(Stage::Vertex, 0, &[Some(srv)]);
    reader.draw(3, 0);
    let list = reader
        .finish_command_list(RestoreState::ClearState)
        .map_err(|e| e.error)
        .expect("reader's list");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("executed");
    imm.present(chain).expect("present");
    let outcomes = device.capture().take_outcomes();
    match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn r_st_6_r_cap_6_a_min_lod_call_of_a_list_the_frame_does_not_write_reaches_the_trace() {
    for fate in [Fate::NotExecuted, Fate::Discarded] {
        for (view_lod, lod) in [(true, "2.5"), (false, "2")] {
            let frame = captured(fate, view_lod);
            let lines = frame.record_lines.join("\n");
            assert!(
                lines.contains(&format!("vs.srv.0.min_lod={lod} ")),
                "{fate:?} view_lod={view_lod}: the bind read the LOD\n{lines}"
            );
            modes::assert_round_trip(&frame);
        }
    }
}
