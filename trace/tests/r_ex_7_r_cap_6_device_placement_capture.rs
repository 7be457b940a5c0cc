//! R-EX-7 with R-CAP-6: a placement made on the engine's device directly
//! (`recorder::Device::place_swap_chain_view`, not through the captured immediate context) while
//! a frame is captured has no statement of its own, but its effect reaches the trace: every call
//! that reads the buffer a swap-chain view names (a bind on any context, a clear, a legacy
//! present's re-bind) notes that buffer, and the text places the view there first where it has
//! it elsewhere (`capture/mod.rs`). The frame's replay has the live records, in the three modes.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{
    CaptureDevice, CaptureOptions, CapturedFrame, CapturedImmediate, FrameOutcome,
};

struct Fixture {
    device: CaptureDevice,
    imm: CapturedImmediate,
    chain: SwapChain,
    other: SwapChain,
    back: [RenderTargetView; 2],
    other_back: RenderTargetView,
    /// Shader-resource views of sc.0 and sc.1: the records show their compression.
    srvs: [ShaderResourceView; 2],
    vs: Shader,
}

fn fixture(semantics: Semantics) -> Fixture {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: semantics,
            ..DeviceDesc::default()
        }),
        CaptureOptions::default(),
    );
    let desc = |name| SwapChainDesc {
        name,
        buffers: 2,
        format: Format::R8G8B8A8Unorm,
        width: 16,
        height: 16,
    };
    let chain = device.create_swap_chain(&desc("sc")).expect("chain");
    let other = device.create_swap_chain(&desc("other")).expect("chain");
    let info = device.device().swap_chain_info(chain).expect("info");
    let other_info = device.device().swap_chain_info(other).expect("info");
    let vs = device
        .create_shader(&ShaderDesc {
            shader_resources: Slots::of(&[0, 1]),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .expect("vs");
    let srv = |name, k: usize| {
        device
            .create_shader_resource_view(&ViewDesc::new(name, info.buffers[k].0))
            .expect("srv")
    };
    let srvs = [srv("srv0", 0), srv("srv1", 1)];
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    device.capture().set_active_swap_chain(chain);
    device.capture().trigger();
    imm.present(chain).expect("present");
    imm.set_shader(Stage::Vertex, Some(vs));
    Fixture {
        device,
        imm,
        chain,
        other,
        back: [info.buffers[0].1, info.buffers[1].1],
        other_back: other_info.buffers[0].1,
        srvs,
        vs,
    }
}

fn frame(f: &mut Fixture) -> CapturedFrame {
    f.imm.present(f.chain).expect("present");
    let outcomes = f.device.capture().take_outcomes();
    match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame.clone(),
        other => panic!("{other:?}"),
    }
}

/// A bind on the immediate context after the device moved the view: the bind reads the buffer
/// the device put it on (under both semantics).
#[test]
fn r_ex_7_r_cap_6_an_immediate_bind_after_a_placement_on_the_device_replays_its_buffer() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut f = fixture(semantics);
        let view = f.back[0];
        f.imm.set_render_targets(&[Some(view)], None);
        f.imm.draw(3, 0);
        let now = f
            .device
            .device()
            .swap_chain_view_buffer(view)
            .expect("a view of sc")
            .1;
        f.device
            .device()
            .place_swap_chain_view(view, 1 - now)
            .expect("placed");
        f.imm.set_render_targets(&[Some(view)], None);
        f.imm.draw(3, 1);
        let frame = frame(&mut f);
        let last = frame.record_lines.last().cloned().unwrap_or_default();
        assert!(
            last.contains(&format!("rtv.0.resource=sc.{}", 1 - now)),
            "{semantics:?}: {last}"
        );
        modes::assert_round_trip(&frame);
    }
}

/// A legacy present of another chain re-binds the slots holding its views with the buffers they
/// name after the rotation: a view the device moved before it must be where the device put it.
#[test]
fn r_ex_7_r_cap_6_a_legacy_present_after_a_placement_on_the_device_rebinds_its_buffer() {
    let mut f = fixture(Semantics::Legacy);
    let view = f.other_back;
    f.imm.set_render_targets(&[Some(view)], None);
    f.imm.draw(3, 0);
    f.device
        .device()
        .place_swap_chain_view(view, 1)
        .expect("placed");
    // other.0.rtv on other.1; the present moves it to other.0 and re-binds the slot.
    f.imm.present(f.other).expect("present");
    f.imm.set_shader(Stage::Vertex, Some(f.vs));
    f.imm.draw(3, 1);
    let frame = frame(&mut f);
    let last = frame.record_lines.last().cloned().unwrap_or_default();
    assert!(last.contains("rtv.0.resource=other.0"), "{last}");
    modes::assert_round_trip(&frame);
}

/// A clear reads the buffer its view names too: the fast binds of both buffers' shader-resource
/// views after it show which one it compressed.
#[test]
fn r_ex_7_r_cap_6_a_clear_after_a_placement_on_the_device_clears_its_buffer() {
    let mut f = fixture(Semantics::Fast);
    let view = f.back[1];
    let info = f.device.device().swap_chain_info(f.chain).expect("info");
    for (texture, _) in info.buffers {
        f.imm
            .set_resource_compression(texture, Compression::Decompressed);
    }
    f.device
        .device()
        .place_swap_chain_view(view, 0)
        .expect("placed");
    f.imm.clear_render_target_view(view, [1.0; 4]);
    f.device
        .device()
        .place_swap_chain_view(view, 1)
        .expect("placed back");
    f.imm
        .set_shader_resources(Stage::Vertex, 0, &[Some(f.srvs[0]), Some(f.srvs[1])]);
    f.imm.draw(3, 0);
    let frame = frame(&mut f);
    let last = frame.record_lines.last().cloned().unwrap_or_default();
    assert!(
        last.contains("vs.srv.0.compressed=yes") && last.contains("vs.srv.1.compressed=no"),
        "{last}"
    );
    modes::assert_round_trip(&frame);
}
