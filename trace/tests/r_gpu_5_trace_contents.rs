//! R-GPU-5 (the trace format gains R-GPU-2's contents): each option of a declaration that
//! carries what a real GPU needs parses to its tree and prints back as written; a bad one is
//! refused naming the line, the declaration and the option; a shader file that is missing is a
//! clear error naming the line and the path tried; the command reads files relative to the
//! trace's folder. What the objects then hold is `src/replay/gpu_contents_replay_tests.rs`'s.

use trace::*;

const DEVICE: &str = "device semantics=fast\n";

/// Parses `line` after the device line: its declaration, and that it prints back as `line`.
fn declaration(line: &str) -> Declaration {
    let text = format!("{DEVICE}{line}\n");
    let trace = parse(text.as_bytes()).unwrap_or_else(|e| panic!("{line}: {e}"));
    let (_, statement) = &trace.statements[1];
    assert_eq!(statement.to_string(), line, "printed back");
    match statement {
        Statement::Declaration(d) => d.clone(),
        other => panic!("not a declaration: {other:?}"),
    }
}

/// The error of `line` after the device line.
fn error(line: &str) -> String {
    let text = format!("{DEVICE}{line}\n");
    parse(text.as_bytes())
        .expect_err("a malformed declaration")
        .to_string()
}

#[test]
fn r_gpu_5_shader_code_options_round_trip() {
    let code = |line: &str| match declaration(line) {
        Declaration::Shader { code, .. } => code.expect("code"),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        code("shader vs stage=vs cb=0 wgsl=shaders/quad.wgsl entry=vs_main"),
        ShaderCode {
            source: ShaderSource::WgslFile("shaders/quad.wgsl".into()),
            entry: "vs_main".into()
        }
    );
    assert_eq!(
        code("shader ps stage=ps spirv=ps.spv entry=main").source,
        ShaderSource::SpirvFile("ps.spv".into())
    );
    // Inline: WGSL's UTF-8 bytes, SPIR-V's words as their little-endian bytes.
    assert_eq!(
        code("shader ps stage=ps wgsl_hex=666e20782829207b7d entry=x").source,
        ShaderSource::Wgsl("fn x() {}".into())
    );
    assert_eq!(
        code("shader ps stage=ps spirv_hex=0302230700000100 entry=main").source,
        ShaderSource::SpirV(vec![0x0723_0203, 0x0001_0000])
    );
    // Without code, none: as before R-GPU-2.
    assert!(matches!(
        declaration("shader vs stage=vs"),
        Declaration::Shader { code: None, .. }
    ));
}

#[test]
fn r_gpu_5_input_layout_elements_round_trip() {
    let Declaration::InputLayout { elements, .. } = declaration(
        "input_layout layout vb=0-1 elements=POSITION:r32g32b32_float:0:0,TEXCOORD1:r32g32_float:1:12:instance",
    ) else {
        panic!("an input layout")
    };
    let element = |semantic: &str, index, format, slot, offset, per_instance| InputElementSpec {
        semantic: semantic.into(),
        semantic_index: index,
        format: Format::new(format).unwrap(),
        input_slot: slot,
        byte_offset: offset,
        per_instance,
    };
    assert_eq!(
        elements,
        Some(vec![
            element("POSITION", 0, "r32g32b32_float", 0, 0, false),
            element("TEXCOORD", 1, "r32g32_float", 1, 12, true),
        ])
    );
    assert!(matches!(
        declaration("input_layout empty elements=none"),
        Declaration::InputLayout { elements: Some(e), .. } if e.is_empty()
    ));
}

#[test]
fn r_gpu_5_state_fields_round_trip() {
    let Declaration::BlendState { fields, .. } = declaration(
        "blend_state b alpha_to_coverage=yes independent=yes blend=src_alpha,inv_src_alpha,add/off:r/off,one,one,add,zero,one,max:none",
    ) else {
        panic!("a blend state")
    };
    let targets = fields.targets.expect("targets");
    assert_eq!(targets.len(), 3);
    assert!(targets[0].enable && targets[0].src_alpha == BlendFactor::SrcAlpha);
    assert_eq!(
        targets[1],
        BlendTargetSpec {
            write_mask: 1,
            ..Default::default()
        }
    );
    assert!(!targets[2].enable && targets[2].op_alpha == BlendOp::Max);
    assert_eq!(targets[2].write_mask, 0);
    assert_eq!(fields.alpha_to_coverage, Some(true));

    let Declaration::DepthStencilState { fields, .. } = declaration(
        "depth_stencil_state d depth=yes depth_write=no depth_func=less_equal stencil=yes stencil_read_mask=15 stencil_write_mask=240 front=keep,incr,replace,equal back=zero,decr_sat,invert,never",
    ) else {
        panic!("a depth-stencil state")
    };
    assert_eq!(fields.depth_func, Some(Comparison::LessEqual));
    assert_eq!(fields.stencil_write_mask, Some(0xf0));
    assert_eq!(fields.back.map(|f| f.pass), Some(StencilOp::Invert));

    let Declaration::RasterizerState { fields, .. } = declaration(
        "rasterizer_state r wireframe=no cull=none front_ccw=yes depth_bias=-4 depth_bias_clamp=0.5 slope_scaled_depth_bias=2.0 depth_clip=no scissor=yes",
    ) else {
        panic!("a rasterizer state")
    };
    assert_eq!(
        (fields.cull, fields.depth_bias),
        (Some(CullMode::None), Some(-4))
    );

    let Declaration::SamplerState { fields, .. } = declaration(
        "sampler_state s filter=point address=wrap,wrap,clamp mip_lod_bias=0.5 min_lod=0.0 max_lod=8.0 border=0.0,0.0,0.0,1.0",
    ) else {
        panic!("a sampler state")
    };
    assert_eq!(fields.filter, Some(Filter::Point));
    assert_eq!(
        fields.address,
        Some([AddressMode::Wrap, AddressMode::Wrap, AddressMode::Clamp])
    );
    // One address word is all three; no field written is no contents.
    let Declaration::SamplerState { fields, .. } = declaration("sampler_state s2 address=mirror")
    else {
        panic!("a sampler state")
    };
    assert_eq!(fields.address, Some([AddressMode::Mirror; 3]));
    let Declaration::SamplerState { fields, .. } = declaration("sampler_state s3") else {
        panic!("a sampler state")
    };
    assert!(!fields.any());
}

#[test]
fn r_gpu_5_initial_data_round_trips() {
    let data = |line: &str| match declaration(line) {
        Declaration::Buffer { data, .. } | Declaration::Texture { data, .. } => data,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        data("buffer b usage=default bind=constant size=16 data=00ff7f"),
        Some(InitialData::Bytes(vec![0, 0xff, 0x7f]))
    );
    assert_eq!(
        data("buffer b usage=default bind=constant size=16 data=none"),
        Some(InitialData::Bytes(Vec::new()))
    );
    assert_eq!(
        data(
            "texture t format=r8g8b8a8_unorm width=256 height=256 bind=shader_resource data=@t.bin"
        ),
        Some(InitialData::File("t.bin".into()))
    );
    assert_eq!(data("buffer b usage=default bind=constant size=16"), None);
}

#[test]
fn r_gpu_5_a_bad_option_names_the_line_the_declaration_and_the_option() {
    for (line, message) in [
        (
            "shader vs stage=vs wgsl=vs.wgsl",
            "trace:2: shader 'vs': missing option 'entry=' (the entry point of the wgsl= code)",
        ),
        (
            "shader vs stage=vs entry=main",
            "trace:2: shader 'vs': entry= names the entry point of code the declaration does not \
             give (wgsl=, wgsl_hex=, spirv= or spirv_hex=)",
        ),
        (
            "shader vs stage=vs wgsl=a.wgsl spirv=a.spv entry=main",
            "trace:2: shader 'vs': a shader has one code: wgsl= and spirv= given together",
        ),
        (
            "shader vs stage=vs spirv_hex=030223 entry=main",
            "trace:2: shader 'vs': spirv_hex=: 3 bytes are not whole SPIR-V words (four bytes each)",
        ),
        (
            "shader vs stage=vs wgsl_hex=ff entry=main",
            "trace:2: shader 'vs': wgsl_hex=: the bytes are not UTF-8 text (WGSL source is)",
        ),
        (
            "input_layout l vb=0 elements=POSITION:r32g32b32_float:0",
            "trace:2: input_layout 'l': elements=: expected SEMANTIC[INDEX]:FORMAT:SLOT:OFFSET[:instance], \
             found 'POSITION:r32g32b32_float:0'",
        ),
        (
            "input_layout l vb=0 elements=POSITION:r32g32b32_float:0:0:vertex",
            "trace:2: input_layout 'l': elements=: expected 'instance' after an element's offset, found \
             'vertex'",
        ),
        (
            "blend_state b blend=src,one,add",
            "trace:2: blend_state 'b': expected blend= (a blend factor) (zero|one|src_color|",
        ),
        (
            "blend_state b blend=one,one",
            "trace:2: blend_state 'b': blend=: expected a target as off, or [off,]SRC,DEST,OP",
        ),
        (
            "blend_state b blend=off:rgbx",
            "trace:2: blend_state 'b': blend=: expected a write mask (some of r, g, b, a once each, or \
             none), found 'rgbx'",
        ),
        (
            "blend_state b blend=off/off/off/off/off/off/off/off/off",
            "trace:2: blend_state 'b': blend=: 9 targets, more than the 8 render targets a blend state has",
        ),
        (
            "depth_stencil_state d depth_func=lequal",
            "trace:2: depth_stencil_state 'd': expected depth_func= (never|less|equal|less_equal|",
        ),
        (
            "depth_stencil_state d front=keep,keep,keep",
            "trace:2: depth_stencil_state 'd': front=: expected FAIL,DEPTH_FAIL,PASS,FUNC",
        ),
        (
            "rasterizer_state r cull=both",
            "trace:2: rasterizer_state 'r': expected cull= (none|front|back), found 'both'",
        ),
        (
            "rasterizer_state r fill=wireframe",
            "trace:2: rasterizer_state: unknown option 'fill' (expected wireframe=, cull=,",
        ),
        (
            "sampler_state s address=wrap,clamp",
            "trace:2: sampler_state 's': address=: expected one mode or three (U,V,W), found \
             'wrap,clamp'",
        ),
        (
            "sampler_state s filter=anisotropic",
            "trace:2: sampler_state 's': expected filter= (linear|point), found 'anisotropic'",
        ),
        (
            "buffer b usage=default bind=constant size=4 data=abc",
            "trace:2: buffer 'b': data= (HEX, none or @FILE): HEX needs an even number of hex digits",
        ),
        (
            "buffer b usage=default bind=constant size=4 data=@",
            "trace:2: buffer 'b': data=@ names no file (data=@FILE)",
        ),
    ] {
        let got = error(line);
        assert!(
            got.starts_with(message),
            "{line}\n  got:  {got}\n  want: {message}"
        );
    }
}

/// A fresh folder for one test's files.
fn folder(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("trace_{test}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

#[test]
fn r_gpu_2_a_missing_shader_file_is_a_clear_error_naming_the_line_and_the_path() {
    let dir = folder("r_gpu_2_missing");
    let text = "device semantics=fast\n\
                shader ok stage=vs\n\
                shader vs stage=vs wgsl=missing.wgsl entry=main\n";
    let options = ReplayOptions {
        trace_dir: Some(dir.clone()),
        ..ReplayOptions::default()
    };
    let run = replay(text.as_bytes(), &options);
    assert_eq!(run.exit_code, 2, "{}", run.stdout);
    let path = dir.join("missing.wgsl");
    assert!(
        run.stderr.starts_with(&format!(
            "trace:3: shader 'vs': wgsl=missing.wgsl: cannot read '{}': ",
            path.display()
        )),
        "{}",
        run.stderr
    );
    // The same file present: the trace runs.
    std::fs::write(
        &path,
        "@vertex fn main() -> @builtin(position) vec4f { return vec4f(); }",
    )
    .unwrap();
    let run = replay(text.as_bytes(), &options);
    assert_eq!(run.exit_code, 0, "{}{}", run.stdout, run.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn r_gpu_5_the_command_reads_files_relative_to_the_trace_folder() {
    let args = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
    let Ok(Args::Run { options, .. }) =
        ReplayOptions::from_args(args("traces/r_gpu_2_contents.trace --compare"))
    else {
        panic!("a run")
    };
    assert_eq!(options.trace_dir, Some("traces".into()));
    // From standard input: the current directory.
    let Ok(Args::Run { options, .. }) = ReplayOptions::from_args(args("- --compare")) else {
        panic!("a run")
    };
    assert_eq!(options.trace_dir, None);
}
