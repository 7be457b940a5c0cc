//! R-EX-7, views of a swap chain's back buffers in the trace: `place_swap_chain_view` replays in
//! the three modes (the conformance trace `r_ex_7_swap_chain_views.trace`), is refused on a
//! deferred context, and a captured frame keeps where each view was at its start (moved by
//! placements and, under legacy, by presents) and the placements made in it: its replay's
//! records are the live ones.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};
use trace::{replay, ReplayOptions};

const TRACE: &str = include_str!("traces/r_ex_7_swap_chain_views.trace");

#[test]
fn r_ex_7_the_swap_chain_views_trace_holds_in_the_three_modes() {
    modes::assert_holds_in_three_modes(TRACE);
}

#[test]
fn r_ex_7_place_swap_chain_view_is_refused_past_the_chain_and_on_a_deferred_context() {
    let text = "device semantics=fast\n\
                swapchain sc buffers=2 format=b8g8r8a8_unorm width=8 height=8\n\
                context dc semantics=fast\n\
                imm place_swap_chain_view sc.0.rtv 2\n\
                expect error imm invalid_argument\n\
                dc place_swap_chain_view sc.0.rtv 1\n\
                expect error dc invalid_argument\n\
                imm place_swap_chain_view sc.0.rtv 1\n";
    modes::assert_holds_in_three_modes(text);
    // The refusal names the chain, its count and the rule (`expect ok` shows it).
    let shown = format!(
        "{}expect ok\n",
        text.replace("expect error imm invalid_argument\n", "")
    );
    let out = replay(shown.as_bytes(), &ReplayOptions::default());
    assert!(
        out.stdout
            .contains("swap chain 'sc' has 2 back buffers (R-EX-7)"),
        "{}",
        out.stdout
    );
    let bad = "device semantics=fast\n\
               shader vs0 stage=vs\n\
               imm place_swap_chain_view vs0 0\n";
    let out = replay(bad.as_bytes(), &ReplayOptions::default());
    assert_eq!(out.exit_code, 2, "a shader is no view: {}", out.stderr);
    assert!(out.stderr.contains("a view"), "{}", out.stderr);
}

/// A frame captured after presents and a placement moved the views, with a placement in it.
fn captured_frame(semantics: Semantics) -> String {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: semantics,
            ..DeviceDesc::default()
        }),
        CaptureOptions::default(),
    );
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "sc",
            buffers: 3,
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
        })
        .expect("chain");
    let info = device.device().swap_chain_info(chain).expect("info");
    let extra = device
        .create_render_target_view(&ViewDesc::new("extra", info.buffers[2].0))
        .expect("view");
    let vs = device
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .expect("vs");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    imm.present(chain).expect("present");
    imm.present(chain).expect("present");
    imm.place_swap_chain_view(info.buffers[1].1, 2)
        .expect("placed");
    imm.set_shader(Stage::Vertex, Some(vs));
    imm.set_render_targets(&[Some(info.buffers[0].1)], None);
    device.capture().trigger();
    imm.present(chain).expect("present");
    // The frame: the bound view's buffer (re-bound under legacy), a placement, another view.
    imm.set_shader(Stage::Vertex, Some(vs));
    imm.draw(3, 0);
    imm.place_swap_chain_view(extra, 1).expect("placed");
    imm.set_render_targets(&[Some(extra)], None);
    imm.draw(3, 1);
    imm.set_render_targets(&[Some(info.buffers[1].1)], None);
    imm.draw(3, 2);
    imm.present(chain).expect("present");
    let outcomes = device.capture().take_outcomes();
    let frame = match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame,
        other => panic!("{other:?}"),
    };
    assert!(
        frame.trace.contains("imm place_swap_chain_view extra 1"),
        "{}",
        frame.trace
    );
    modes::assert_round_trip(frame);
    frame.record_lines.join("\n")
}

#[test]
fn r_ex_7_a_captured_frame_keeps_where_each_swap_chain_view_was_legacy() {
    let lines = captured_frame(Semantics::Legacy);
    // Three presents shifted sc.0.rtv to buffer 0 again; sc.1.rtv, placed on 2, to 0: written
    // as a placement at the frame's start, as no declaration nor present gives it.
    let last = lines.lines().last().unwrap_or_default();
    assert!(
        last.contains("rtv.0=sc.1.rtv") && last.contains("rtv.0.resource=sc.0"),
        "{lines}"
    );
}

#[test]
fn r_ex_7_a_captured_frame_keeps_where_each_swap_chain_view_was_fast() {
    let lines = captured_frame(Semantics::Fast);
    assert!(
        lines.contains("rtv.0=extra") && lines.contains("rtv.0.resource=sc.1"),
        "{lines}"
    );
}
