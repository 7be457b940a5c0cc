//! R-GPU-2 "vertex-buffer strides and offsets", R-GPU-5: `set_vertex_buffers` entries
//! `BUF|null[:STRIDE[:OFFSET]]`, `set_fast_resources`' `vb.N=BUF[:STRIDE[:OFFSET]]` and
//! `set_placement_vertex_buffer SLOT BUF[:STRIDE[:OFFSET]] ADDRESS` parse,
//! print back (`:STRIDE` only where the stride or the offset is not 0, `:OFFSET` only where the
//! offset is not 0), replay with the stride and offset bound (the records' `vb.N.stride` and
//! `vb.N.offset`), and a captured bind keeps both, a call's and a binding carried into the frame.

#[path = "common/modes.rs"]
mod modes;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};
use trace::{parse, replay, Method, ReplayOptions, Statement, VertexBinding};

const TRACE: &str = "\
device semantics=fast
buffer vb usage=default bind=vertex size=1024
buffer vb2 usage=default bind=vertex size=1024
input_layout layout vb=0-2
shader vs0 stage=vs
imm set_input_layout layout
imm vs_set_shader vs0
imm set_vertex_buffers 0 vb:16:4 null:8 vb2:12
imm draw 3 0
expect draw 0 vb.0 vb
expect draw 0 vb.0.stride 16
expect draw 0 vb.0.offset 4
expect draw 0 vb.1 null
expect draw 0 vb.1.stride null
expect draw 0 vb.2 vb2
expect draw 0 vb.2.stride 12
expect draw 0 vb.2.offset 0
imm set_fast_resources vb.1=vb:32:8 vb.2=vb2
imm set_vertex_buffers 0 vb:0:0
imm draw 3 0
expect draw 1 vb.0.stride 0
expect draw 1 vb.0.offset 0
expect draw 1 vb.1 vb
expect draw 1 vb.1.stride 32
expect draw 1 vb.1.offset 8
expect draw 1 vb.2.stride 0
imm set_placement_vertex_buffer 0 vb:24:16 0x1000
imm draw 3 0
expect draw 2 vb.0 vb@0x1000
expect draw 2 vb.0.stride 24
expect draw 2 vb.0.offset 16
";

fn bindings(statement: &Statement) -> &[VertexBinding] {
    match statement {
        Statement::Call(call) => match &call.method {
            Method::SetVertexBuffers { buffers, .. } => buffers,
            other => panic!("not set_vertex_buffers: {other:?}"),
        },
        other => panic!("not a call: {other:?}"),
    }
}

/// The entries parse to their strides and offsets, print back in the shortest form (`vb:0:0`
/// as `vb`, `null:8` kept), and replay bound: every `expect draw` on them holds in the three
/// modes.
#[test]
fn r_gpu_2_vertex_buffer_strides_and_offsets_round_trip() {
    let trace = parse(TRACE.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let statements: Vec<&Statement> = trace.statements().collect();
    let first = bindings(statements[7]);
    assert_eq!(
        (first[0].stride, first[0].offset, first[1].buffer.is_none()),
        (16, 4, true)
    );
    assert_eq!((first[1].stride, first[1].offset), (8, 0));
    assert_eq!((first[2].stride, first[2].offset), (12, 0));
    let printed = trace.to_string();
    for line in [
        "imm set_vertex_buffers 0 vb:16:4 null:8 vb2:12\n",
        "imm set_fast_resources vb.1=vb:32:8 vb.2=vb2\n",
        "imm set_vertex_buffers 0 vb\n",
        "imm set_placement_vertex_buffer 0 vb:24:16 0x1000\n",
    ] {
        assert!(printed.contains(line), "{line}in\n{printed}");
    }
    let again = parse(printed.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert!(trace.statements().eq(again.statements()));
    modes::assert_holds_in_three_modes(TRACE);
    // Bound with stride and offset 0, as before the syntax had them, the expectations fail.
    let plain = TRACE.replace("vb:16:4", "vb");
    let run = replay(plain.as_bytes(), &ReplayOptions::default());
    assert_eq!(run.exit_code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("vb.0.stride"), "{}", run.stdout);
}

/// A stride or offset that is no number, too large, or a third `:` is a parse error naming the
/// call, the token and the argument.
#[test]
fn r_gpu_2_a_bad_stride_or_offset_is_a_clear_error() {
    let head = "device semantics=fast\nbuffer vb usage=default bind=vertex size=64\n";
    for (entry, wants) in [
        ("vb:x", "STRIDE"),
        ("vb:4:y", "OFFSET"),
        ("vb:4294967296", "STRIDE 4294967296"),
        ("vb:4:4:4", "OFFSET"),
        ("tex:4", "buffer"),
    ] {
        for line in [
            format!("imm set_vertex_buffers 0 {entry}"),
            format!("imm set_fast_resources vb.0={entry}"),
            format!("imm set_placement_vertex_buffer 0 {entry} 0x1000"),
        ] {
            let text = format!("{head}{line}\n");
            let error = parse(text.as_bytes()).expect_err(&line);
            let word = line.split(' ').nth(1).unwrap_or_default();
            assert_eq!(error.line, 3, "{error}");
            assert!(
                error.message.starts_with(word) && error.message.contains(wants),
                "{line}: {error}"
            );
        }
    }
}

/// A captured `set_vertex_buffers`, a `set_fast_resources` vertex buffer and a binding carried
/// into the frame keep their strides and offsets: the trace writes them and replays to the live
/// frame's digest, whose records list `vb.N.stride` and `vb.N.offset`.
#[test]
fn r_gpu_5_a_captured_bind_keeps_its_stride_and_offset() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions::default(),
    );
    let vb = device
        .create_buffer(&BufferDesc {
            name: "vb",
            size: 1024,
            usage: Usage::Default,
            bind: BindFlags::VERTEX,
            ..Default::default()
        })
        .unwrap();
    let layout = device
        .create_input_layout(&InputLayoutDesc {
            name: "layout",
            vertex_buffers: Slots::of(&[0, 1, 2]),
        })
        .unwrap();
    let vs = device
        .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
        .unwrap();
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "main",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 64,
        })
        .unwrap();
    let binding = |stride, offset| VertexBuffer {
        buffer: Some(vb),
        stride,
        offset,
    };
    let mut imm = CapturedImmediate::new(&device).unwrap();
    imm.set_input_layout(Some(layout));
    imm.set_shader(Stage::Vertex, Some(vs));
    // Carried into the frame: slot 2.
    imm.set_vertex_buffers(2, &[binding(24, 48)]);
    imm.present(chain).unwrap();
    device.capture().trigger();
    imm.present(chain).unwrap();
    imm.set_vertex_buffers(0, &[binding(20, 40)]);
    imm.set_fast_resources(&[FastResource::VertexBuffer {
        slot: 1,
        buffer: binding(36, 12),
    }]);
    imm.draw(3, 0);
    imm.set_placement_vertex_buffer(0, vb, 28, 8, 0x4000);
    imm.draw(3, 0);
    imm.present(chain).unwrap();
    let outcomes = device.capture().take_outcomes();
    let frame = match &outcomes[0] {
        FrameOutcome::Captured(frame) => frame,
        FrameOutcome::Failed { reason, .. } => panic!("frame failed: {reason}"),
    };
    for text in [
        "vb:24:48\n",
        "imm set_vertex_buffers 0 vb:20:40\n",
        "imm set_fast_resources vb.1=vb:36:12\n",
        "imm set_placement_vertex_buffer 0 vb:28:8 0x4000\n",
    ] {
        assert!(frame.trace.contains(text), "{text}in\n{}", frame.trace);
    }
    let live = frame.record_lines.join("\n");
    for field in [
        "vb.0.stride=20",
        "vb.1.offset=12",
        "vb.2.stride=24",
        "vb.0.stride=28",
    ] {
        assert!(live.contains(field), "{field} in {live}");
    }
    modes::assert_round_trip(frame);
}
