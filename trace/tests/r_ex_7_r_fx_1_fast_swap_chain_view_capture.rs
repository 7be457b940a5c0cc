//! R-EX-7 with R-FX-1 and R-CAP-6: a fast bind (`set_fast_resources`, its batch,
//! `set_fast_shader_resource`) of a view of a swap chain's back buffer encodes the buffer the view
//! names then, as every bind does; a list recorded before the presents (legacy) or the placement
//! (fast) that moved the view keeps it. With `keep_all_lists` such a list executed in the
//! captured frame is written (R-CAP-5) after the frame's start, where the replay's view is
//! elsewhere: the trace must replay the buffer the bind encoded, in the three modes.

#[path = "common/modes.rs"]
mod modes;

use recorder::capabilities::*;
use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

/// Which fast bind the list makes.
#[derive(Clone, Copy, Debug)]
enum Bind {
    Resources,
    Batch,
    ShaderResource,
}

/// A list binding the back buffer's shader-resource view with `bind`, recorded before two
/// presents (legacy: each moves the view) or a placement (fast); the frame after executes it.
fn captured(semantics: Semantics, bind: Bind) -> trace::capture::CapturedFrame {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc {
            immediate_semantics: semantics,
            ..DeviceDesc::default()
        }),
        CaptureOptions {
            keep_all_lists: true,
            ..CaptureOptions::default()
        },
    );
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "sc",
            buffers: 3,
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
        })
        .expect("chain");
    let info = device.device().swap_chain_info(chain).expect("info");
    let back = device
        .create_shader_resource_view(&ViewDesc::new("back", info.buffers[0].0))
        .expect("view");
    let vs = device
        .create_shader(&ShaderDesc {
            shader_resources: Slots::of(&[0]),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .expect("vs");
    let mut worker = device
        .create_deferred_context(&DeferredContextDesc::default())
        .expect("worker");
    worker.set_shader(Stage::Vertex, Some(vs));
    let entry = FastResource::ShaderResource {
        stage: Stage::Vertex,
        slot: 0,
        view: Some(back),
    };
    match bind {
        Bind::Resources => worker.set_fast_resources(&[entry]),
        Bind::Batch => {
            let mut batch = FastResourceBatch::new();
            worker.set_fast_resources_into_batch(&mut batch, &[entry]);
            worker.set_fast_resources_from_batch(&batch);
        }
        Bind::ShaderResource => worker.set_fast_shader_resource(Stage::Vertex, 0, Some(back)),
    }
    worker.draw(3, 0);
    let early = worker
        .finish_command_list(RestoreState::ClearState)
        .map_err(|e| e.error)
        .expect("early list");
    let mut imm = CapturedImmediate::new(&device).expect("imm");
    imm.present(chain).expect("present");
    if semantics == Semantics::Fast {
        imm.place_swap_chain_view(back, 2).expect("placed");
    }
    // The records show a view's compression, not its buffer: sc.0 alone is compressed.
    imm.set_resource_compression(info.buffers[0].0, Compression::Compressed);
    device.capture().trigger();
    imm.present(chain).expect("present");
    imm.execute_command_list(&early, RestoreState::ClearState)
        .expect("executed");
    imm.present(chain).expect("present");
    let outcomes = device.capture().take_outcomes();
    match outcomes.as_slice() {
        [FrameOutcome::Captured(frame)] => frame.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn r_ex_7_r_fx_1_a_fast_bind_of_a_swap_chain_view_in_an_early_list_replays_its_buffer() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for bind in [Bind::Resources, Bind::Batch, Bind::ShaderResource] {
            let frame = captured(semantics, bind);
            let lines = frame.record_lines.join("\n");
            assert!(
                lines.contains("vs.srv.0=back vs.srv.0.min_lod=0 vs.srv.0.compressed=yes"),
                "{semantics:?} {bind:?}: the list's bind encoded sc.0\n{lines}"
            );
            modes::assert_round_trip(&frame);
        }
    }
}
