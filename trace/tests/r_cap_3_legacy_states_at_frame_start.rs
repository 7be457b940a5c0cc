//! R-CAP-3 for the legacy resource states a frame starts from (R-BAR-6): a legacy transition
//! before the captured frame leaves a texture or a buffer in a legacy state, and the frame's own
//! barriers of it are checked against that state (under validation a legacy StateBefore must be
//! the known state; an enhanced barrier of a resource whose legacy state is not `common` is
//! refused). The trace starts the resource in that state, so the replay accepts and refuses
//! what the live frame did and ends with the texture in the layout it had live.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};
use trace::replay;

/// What frame 1 does with the resource frame 0 left in a legacy state.
#[derive(Clone, Copy, Debug)]
enum InFrame {
    /// The texture, legacy `pixel_shader_resource` → `render_target` (accepted live).
    TextureTransition,
    /// The texture, an enhanced barrier (refused live: its legacy state is not `common`).
    TextureEnhanced,
    /// The buffer, legacy `unordered_access` → `copy_source` (accepted live).
    BufferTransition,
}

struct Captured {
    frame: trace::capture::CapturedFrame,
    /// The texture's layout after the frame, live, as `expect resource` writes it.
    layout: &'static str,
    /// Refusals the immediate context reported in the frame.
    refused: usize,
}

fn transition(
    resource: Resource,
    before: ResourceStates,
    after: ResourceStates,
) -> ResourceBarrier {
    ResourceBarrier::Transition {
        resource,
        before,
        after,
        subresource: None,
        split: SplitHalf::None,
    }
}

fn run(in_frame: InFrame) -> Captured {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            validation: Validation::On,
            ..Default::default()
        }),
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
    let rt = device
        .create_texture(&TextureDesc {
            name: "rt",
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .expect("texture");
    let data = device
        .create_buffer(&BufferDesc {
            name: "data",
            size: 256,
            usage: Usage::Default,
            bind: BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS,
            ..Default::default()
        })
        .expect("buffer");
    let vs = device
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .expect("vs");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    // Frame 0: the legacy states the captured frame starts from.
    imm.resource_barrier(&[
        transition(
            rt.into(),
            ResourceStates::COMMON,
            ResourceStates::PIXEL_SHADER_RESOURCE,
        ),
        transition(
            data.into(),
            ResourceStates::COMMON,
            ResourceStates::UNORDERED_ACCESS,
        ),
    ]);
    imm.flush().expect("frame 0's barriers are accepted");
    device.capture().trigger();
    imm.present(chain).expect("present");
    let mut refused = 0;
    match in_frame {
        InFrame::TextureTransition => imm.resource_barrier(&[transition(
            rt.into(),
            ResourceStates::PIXEL_SHADER_RESOURCE,
            ResourceStates::RENDER_TARGET,
        )]),
        InFrame::TextureEnhanced => imm.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
            sync_before: BarrierSync::NONE,
            sync_after: BarrierSync::NONE,
            access_before: BarrierAccess::NO_ACCESS,
            access_after: BarrierAccess::NO_ACCESS,
            layout_before: BarrierLayout::ShaderResource,
            layout_after: BarrierLayout::CopyDest,
            resource: rt.into(),
            subresources: BarrierSubresources::ALL,
            discard: false,
        }])]),
        InFrame::BufferTransition => imm.resource_barrier(&[transition(
            data.into(),
            ResourceStates::UNORDERED_ACCESS,
            ResourceStates::COPY_SOURCE,
        )]),
    }
    if imm.flush().is_err() {
        refused += 1;
    }
    imm.set_shader(Stage::Vertex, Some(vs));
    imm.draw(3, 0);
    imm.present(chain).expect("present");
    let layout = match imm.inner_mut().gpu().texture_state(rt.raw()).layout {
        Some(BarrierLayout::Common) => "common",
        Some(BarrierLayout::ShaderResource) => "shader_resource",
        Some(BarrierLayout::RenderTarget) => "render_target",
        other => panic!("{in_frame:?}: layout {other:?}"),
    };
    let outcomes = device.capture().take_outcomes();
    let frame = match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame.clone(),
        other => panic!("{in_frame:?}: {other:?}"),
    };
    Captured {
        frame,
        layout,
        refused,
    }
}

#[test]
fn r_cap_3_a_legacy_state_left_before_the_frame_starts_the_trace() {
    for (in_frame, refused, layout) in [
        (InFrame::TextureTransition, 0, "render_target"),
        (InFrame::TextureEnhanced, 1, "shader_resource"),
        (InFrame::BufferTransition, 0, "shader_resource"),
    ] {
        let captured = run(in_frame);
        assert_eq!(
            (captured.refused, captured.layout),
            (refused, layout),
            "{in_frame:?}: live"
        );
        let trace = &captured.frame.trace;
        modes::assert_round_trip(&captured.frame);
        // The replay refuses what the live frame refused, no more, and leaves the texture in
        // its live layout.
        let expected = match refused {
            0 => "expect accepted imm\n".to_string(),
            _ => "expect error imm legacy_state_not_common\n".to_string(),
        };
        let mut checked = trace.replacen(
            "imm vs_set_shader",
            &format!("{expected}imm vs_set_shader"),
            1,
        );
        assert_ne!(&checked, trace, "no vs_set_shader line");
        if !matches!(in_frame, InFrame::BufferTransition) {
            checked += &format!("expect resource rt layout={}\n", captured.layout);
        }
        for options in modes::three_modes() {
            let run = replay(checked.as_bytes(), &options);
            assert_eq!(
                run.exit_code, 0,
                "{in_frame:?} {options:?}\n{checked}\n{}{}",
                run.stdout, run.stderr
            );
        }
    }
}
