//! What a real GPU needs of a trace's objects (R-GPU-2, R-GPU-5), end to end inside the crate:
//! a declaration with contents makes an object whose `Device::gpu_contents` holds them, in the
//! real run and in the reference of `--compare`; files are read relative to the trace's folder;
//! a captured frame of objects with contents declares them so that its replay has them too.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use recorder::*;

use super::live::LiveRun;
use super::lower::lower_in;
use super::program::Op;
use super::reference::Reference;
use crate::capture::{CaptureDevice, CaptureOptions, CapturedImmediate, FrameOutcome};

const VS_SOURCE: &str = "@vertex fn main() -> @builtin(position) vec4f { return vec4f(0.0); }";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs `text` (its files relative to `dir`) on two worker threads and in the reference.
fn run(text: &str, dir: Option<&Path>) -> (LiveRun, Reference) {
    let trace = crate::parse(text.as_bytes()).expect("the trace parses");
    let program = Arc::new(lower_in(&trace, dir).expect("the trace lowers"));
    let mut live = LiveRun::new(program.clone(), 2).expect("a run");
    let mut reference = Reference::new(program.clone()).expect("a reference");
    for (index, step) in program.steps.iter().enumerate() {
        if !matches!(step.op, Op::Expect(_)) {
            let effect = live.step(index);
            reference.step(index, effect);
        }
    }
    live.settle();
    (live, reference)
}

/// What the real run's and the reference's devices keep of object `name` (they must agree).
fn contents(run: &(LiveRun, Reference), name: &str, kind: ObjectKind) -> Option<GpuContents> {
    let (live, reference) = run;
    let id = live
        .shared
        .program
        .objects
        .iter()
        .position(|o| o.name == name)
        .unwrap_or_else(|| panic!("'{name}' is declared"));
    let raw = live.shared.handles.get(id).expect("made");
    let ours = live.device.gpu_contents(kind, raw).map(|c| (*c).clone());
    let (device, handles) = reference.made();
    let theirs = handles
        .get(id)
        .and_then(|raw| device.gpu_contents(kind, raw))
        .map(|c| (*c).clone());
    assert_eq!(ours, theirs, "'{name}': the reference made it the same");
    ours
}

fn inline_trace() -> String {
    format!(
        "device semantics=legacy\n\
         buffer vb usage=immutable bind=vertex size=8 data=0102030405060708\n\
         buffer zeros usage=default bind=constant size=16 data=none\n\
         texture tex format=r8g8b8a8_unorm width=1 height=1 bind=shader_resource data=ff00ff00\n\
         shader vs stage=vs wgsl_hex={} entry=main\n\
         shader ps stage=ps spirv_hex=0302230700000100 entry=ps_main\n\
         shader bare stage=vs\n\
         input_layout layout vb=0,1 elements=POSITION:r32g32b32_float:0:0,TEXCOORD1:r32g32_float:1:12:instance\n\
         blend_state alpha independent=yes blend=src_alpha,inv_src_alpha,add/off:r\n\
         blend_state plain\n\
         depth_stencil_state ds depth_write=no depth_func=less_equal stencil=yes stencil_read_mask=15 front=keep,incr,replace,equal\n\
         rasterizer_state rs wireframe=yes cull=none front_ccw=yes depth_bias=-2 depth_bias_clamp=0.5 slope_scaled_depth_bias=1.5 depth_clip=no scissor=yes\n\
         sampler_state smp filter=point address=wrap,mirror,border mip_lod_bias=0.25 min_lod=1 max_lod=4 border=0,0.5,1,1\n\
         context dc semantics=legacy\n\
         dc vs_set_shader vs\n\
         dc om_set_blend_state alpha\n\
         dc draw 3 0\n\
         dc finish list\n\
         imm execute list\n",
        hex(VS_SOURCE.as_bytes())
    )
}

#[test]
fn r_gpu_2_a_declaration_with_contents_makes_the_object_with_them() {
    let run = run(&inline_trace(), None);
    let data = |bytes: &[u8]| Some(GpuContents::InitialData(Arc::from(bytes)));
    assert_eq!(
        contents(&run, "vb", ObjectKind::Buffer),
        data(&[1, 2, 3, 4, 5, 6, 7, 8])
    );
    assert_eq!(contents(&run, "zeros", ObjectKind::Buffer), data(&[]));
    assert_eq!(
        contents(&run, "tex", ObjectKind::Texture),
        data(&[0xff, 0, 0xff, 0])
    );
    assert_eq!(
        contents(&run, "vs", ObjectKind::Shader),
        Some(GpuContents::Shader(OwnedShaderCode::Wgsl {
            source: VS_SOURCE.into(),
            entry: "main".into()
        }))
    );
    assert_eq!(
        contents(&run, "ps", ObjectKind::Shader),
        Some(GpuContents::Shader(OwnedShaderCode::SpirV {
            words: vec![0x0723_0203, 0x0001_0000],
            entry: "ps_main".into()
        }))
    );
    let element = |semantic: &str, index, format, slot, offset, per_instance| InputElement {
        semantic: semantic.into(),
        semantic_index: index,
        format,
        input_slot: slot,
        byte_offset: offset,
        per_instance,
    };
    assert_eq!(
        contents(&run, "layout", ObjectKind::InputLayout),
        Some(GpuContents::InputLayout(vec![
            element("POSITION", 0, Format::R32G32B32Float, 0, 0, false),
            element("TEXCOORD", 1, Format::R32G32Float, 1, 12, true),
        ]))
    );
    let mut blend = BlendDesc {
        independent_blend: true,
        ..Default::default()
    };
    blend.targets[0] = TargetBlend {
        enable: true,
        src: BlendFactor::SrcAlpha,
        dest: BlendFactor::InvSrcAlpha,
        op: BlendOp::Add,
        src_alpha: BlendFactor::SrcAlpha,
        dest_alpha: BlendFactor::InvSrcAlpha,
        op_alpha: BlendOp::Add,
        write_mask: 0xf,
    };
    blend.targets[1].write_mask = 1;
    assert_eq!(
        contents(&run, "alpha", ObjectKind::BlendState),
        Some(GpuContents::Blend(blend))
    );
    assert_eq!(
        contents(&run, "ds", ObjectKind::DepthStencilState),
        Some(GpuContents::DepthStencil(DepthStencilDesc {
            depth_write: false,
            depth_func: Comparison::LessEqual,
            stencil_enable: true,
            stencil_read_mask: 15,
            front: StencilFace {
                fail: StencilOp::Keep,
                depth_fail: StencilOp::Incr,
                pass: StencilOp::Replace,
                func: Comparison::Equal,
            },
            ..Default::default()
        }))
    );
    assert_eq!(
        contents(&run, "rs", ObjectKind::RasterizerState),
        Some(GpuContents::Rasterizer(RasterizerDesc {
            wireframe: true,
            cull: CullMode::None,
            front_counter_clockwise: true,
            depth_bias: -2,
            depth_bias_clamp: 0.5,
            slope_scaled_depth_bias: 1.5,
            depth_clip: false,
            scissor: true,
        }))
    );
    assert_eq!(
        contents(&run, "smp", ObjectKind::SamplerState),
        Some(GpuContents::Sampler(SamplerDesc {
            linear: false,
            address: [AddressMode::Wrap, AddressMode::Mirror, AddressMode::Border],
            mip_lod_bias: 0.25,
            min_lod: 1.0,
            max_lod: 4.0,
            border_color: [0.0, 0.5, 1.0, 1.0],
        }))
    );
    // Without contents, objects have none, as before R-GPU-2.
    assert_eq!(contents(&run, "bare", ObjectKind::Shader), None);
    assert_eq!(contents(&run, "plain", ObjectKind::BlendState), None);
}

/// A fresh folder for one test's files.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("trace_{test}_{}", std::process::id()));
    std::fs::create_dir_all(dir.join("shaders")).expect("a temporary folder");
    dir
}

#[test]
fn r_gpu_2_files_are_read_relative_to_the_trace_folder() {
    let dir = folder("r_gpu_2_files");
    std::fs::write(dir.join("shaders/vs.wgsl"), VS_SOURCE).unwrap();
    let words = [0x0723_0203u32, 0x0001_0000, 7];
    let spirv: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(dir.join("ps.spv"), &spirv).unwrap();
    std::fs::write(dir.join("cb.bin"), [9u8, 8, 7]).unwrap();
    let text = "device semantics=fast\n\
                shader vs stage=vs wgsl=shaders/vs.wgsl entry=main\n\
                shader ps stage=ps spirv=ps.spv entry=main\n\
                buffer cb usage=default bind=constant size=16 data=@cb.bin\n";
    let run = run(text, Some(&dir));
    assert_eq!(
        contents(&run, "vs", ObjectKind::Shader),
        Some(GpuContents::Shader(OwnedShaderCode::Wgsl {
            source: VS_SOURCE.into(),
            entry: "main".into()
        }))
    );
    assert_eq!(
        contents(&run, "ps", ObjectKind::Shader),
        Some(GpuContents::Shader(OwnedShaderCode::SpirV {
            words: words.to_vec(),
            entry: "main".into()
        }))
    );
    assert_eq!(
        contents(&run, "cb", ObjectKind::Buffer),
        Some(GpuContents::InitialData(Arc::from(&[9u8, 8, 7][..])))
    );
    // A SPIR-V file that is not whole words is a clear error, naming the option.
    std::fs::write(dir.join("odd.spv"), [1u8, 2, 3]).unwrap();
    let odd = crate::parse(b"device semantics=fast\nshader ps stage=ps spirv=odd.spv entry=main\n")
        .unwrap();
    let error = lower_in(&odd, Some(&dir)).unwrap_err().to_string();
    assert_eq!(
        error,
        "trace:2: shader 'ps': spirv=odd.spv: its 3 bytes are not whole SPIR-V words (four bytes \
         each)"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn r_gpu_5_a_captured_frame_declares_the_contents_and_replays_with_them() {
    let device = CaptureDevice::new(
        Device::new(DeviceDesc::default()),
        CaptureOptions {
            all_objects: true,
            ..Default::default()
        },
    );
    let vs = device
        .create_shader_with_code(
            &ShaderDesc::new("vs", Stage::Vertex),
            ShaderCode::Wgsl {
                source: VS_SOURCE,
                entry: "main",
            },
        )
        .unwrap();
    let ps = device
        .create_shader_with_code(
            &ShaderDesc::new("ps", Stage::Pixel),
            ShaderCode::SpirV {
                words: &[0x0723_0203, 5],
                entry: "main",
            },
        )
        .unwrap();
    let layout = device
        .create_input_layout_with_elements(
            &InputLayoutDesc {
                name: "layout",
                vertex_buffers: Slots::first(1),
            },
            &[InputElement {
                semantic: "TEXCOORD".into(),
                semantic_index: 2,
                format: Format::R32G32Float,
                input_slot: 0,
                byte_offset: 4,
                per_instance: true,
            }],
        )
        .unwrap();
    let mut blend_desc = BlendDesc::default();
    blend_desc.targets[0].enable = true;
    blend_desc.targets[0].write_mask = 0b0111;
    let blend = device
        .create_blend_state_with("alpha", &blend_desc)
        .unwrap();
    let defaults = device
        .create_blend_state_with("defaults", &BlendDesc::default())
        .unwrap();
    let ds = device
        .create_depth_stencil_state_with(
            "ds",
            &DepthStencilDesc {
                depth_enable: false,
                ..Default::default()
            },
        )
        .unwrap();
    let rs = device
        .create_rasterizer_state_with("rs", &RasterizerDesc::default())
        .unwrap();
    let smp = device
        .create_sampler_state_with(
            "smp",
            &SamplerDesc {
                max_lod: 3.0,
                ..Default::default()
            },
        )
        .unwrap();
    let cb = device
        .create_buffer_with_data(
            &BufferDesc {
                name: "cb",
                size: 16,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            },
            &[1, 2, 3],
        )
        .unwrap();
    let plain = device.create_blend_state("plain").unwrap();
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "main",
            buffers: 2,
            format: Format::R8G8B8A8Unorm,
            width: 8,
            height: 8,
        })
        .unwrap();
    let mut imm = CapturedImmediate::new(&device).unwrap();
    imm.present(chain).unwrap();
    device.capture().trigger();
    imm.present(chain).unwrap();
    imm.set_shader(Stage::Vertex, Some(vs));
    imm.draw(3, 0);
    imm.present(chain).unwrap();
    let outcomes = device.capture().take_outcomes();
    let frame = match &outcomes[0] {
        FrameOutcome::Captured(frame) => frame,
        FrameOutcome::Failed { reason, .. } => panic!("frame failed: {reason}"),
    };
    let text = &frame.trace;
    for line in [
        format!(
            "shader vs stage=vs wgsl_hex={} entry=main\n",
            hex(VS_SOURCE.as_bytes())
        ),
        "shader ps stage=ps spirv_hex=0302230705000000 entry=main\n".into(),
        "input_layout layout vb=0 elements=TEXCOORD2:r32g32_float:0:4:instance\n".into(),
        "blend_state alpha blend=one,zero,add:rgb\n".into(),
        // All D3D11's defaults: one written, so that the replay's state has contents.
        "blend_state defaults alpha_to_coverage=no\n".into(),
        "rasterizer_state rs cull=back\n".into(),
        "depth_stencil_state ds depth=no\n".into(),
        "sampler_state smp max_lod=3.0\n".into(),
        "buffer cb usage=default bind=constant size=16 data=010203\n".into(),
        "blend_state plain\n".into(),
    ] {
        assert!(text.contains(&line), "no `{}` in\n{text}", line.trim_end());
    }
    let replayed = crate::replay(text.as_bytes(), &Default::default());
    assert!(
        replayed
            .stdout
            .contains(&format!("digest={:016x}", frame.digest)),
        "{}{}",
        replayed.stdout,
        replayed.stderr
    );
    let run = run(text, None);
    for (name, kind, raw) in [
        ("vs", ObjectKind::Shader, vs.raw()),
        ("ps", ObjectKind::Shader, ps.raw()),
        ("layout", ObjectKind::InputLayout, layout.raw()),
        ("alpha", ObjectKind::BlendState, blend.raw()),
        ("defaults", ObjectKind::BlendState, defaults.raw()),
        ("ds", ObjectKind::DepthStencilState, ds.raw()),
        ("rs", ObjectKind::RasterizerState, rs.raw()),
        ("smp", ObjectKind::SamplerState, smp.raw()),
        ("cb", ObjectKind::Buffer, cb.raw()),
        ("plain", ObjectKind::BlendState, plain.raw()),
    ] {
        let live = device
            .device()
            .gpu_contents(kind, raw)
            .map(|c| (*c).clone());
        assert_eq!(contents(&run, name, kind), live, "'{name}'");
    }
}
