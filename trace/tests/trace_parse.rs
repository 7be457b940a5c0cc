//! Tests of the trace parser (`trace`): every construct of TRACE.md parses, to the
//! trees it should; every class of malformed line gives its line number and a message naming
//! the token; no input panics or takes more than linear time; printing a tree gives text that
//! parses back to the same tree.
//!
//! `trace_parse/every_construct.trace` holds every declaration, call and expectation form of
//! TRACE.md; `trace_parse/errors.rs` has the malformed lines; `trace_parse/generate.rs`
//! generates random well-formed trees.

#[path = "trace_parse/errors.rs"]
mod errors;
#[path = "trace_parse/generate.rs"]
mod generate;
#[path = "trace_parse/generate_contents.rs"]
mod generate_contents;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use trace::*;

const EVERY_CONSTRUCT: &str = include_str!("trace_parse/every_construct.trace");

/// TRACE.md's methods, the STAGE_ ones with each stage.
const METHODS: &[&str] = &[
    "set_input_layout",
    "set_primitive_topology",
    "set_vertex_buffers",
    "set_index_buffer",
    "set_primitive_reset_index",
    "vs_set_shader",
    "hs_set_shader",
    "ds_set_shader",
    "gs_set_shader",
    "ps_set_shader",
    "cs_set_shader",
    "vs_set_constant_buffers",
    "hs_set_constant_buffers",
    "cs_set_constant_buffers",
    "ps_set_shader_resources",
    "ds_set_shader_resources",
    "ps_set_samplers",
    "gs_set_samplers",
    "cs_set_unordered_access_views",
    "om_set_render_targets",
    "om_set_render_targets_and_uavs",
    "om_set_blend_state",
    "om_set_depth_stencil_state",
    "rs_set_state",
    "rs_set_viewports",
    "rs_set_scissor_rects",
    "draw",
    "draw_indexed",
    "draw_instanced",
    "draw_indexed_instanced",
    "draw_auto",
    "draw_instanced_indirect",
    "draw_indexed_instanced_indirect",
    "dispatch",
    "dispatch_indirect",
    "clear_render_target_view",
    "clear_depth_stencil_view",
    "copy_resource",
    "update_subresource",
    "copy_structure_count",
    "map",
    "write",
    "unmap",
    "set_predication",
    "begin",
    "end",
    "clear_state",
    "decompress_resource",
    "set_resource_compression",
    "set_resource_min_lod",
    "set_shader_resource_view_min_lod",
    "insert_wait_on_present",
    "insert_fence",
    "insert_wait_on_fence",
    "draw_bundle",
    "remap_constant_buffer_inheritance",
    "remap_shader_resource_inheritance",
    "remap_sampler_inheritance",
    "remap_vertex_buffer_inheritance",
    "finish",
    "execute",
    "begin_command_list_execution",
    "end_command_list_execution",
    "present",
    "resume",
    "barrier",
    "resource_barrier",
    // R-FX-6 context state
    "create_device_context_state",
    "swap_device_context_state",
];

const DECLARATIONS: &[&str] = &[
    "device",
    "buffer",
    "texture",
    "srv",
    "uav",
    "rtv",
    "dsv",
    "shader",
    "input_layout",
    "blend_state",
    "rasterizer_state",
    "depth_stencil_state",
    "sampler_state",
    "predicate",
    "swapchain",
    "context",
    "bundle",
    "release",
];

/// Declarations the error tests and the fuzzing start from (six lines).
const PRELUDE: &str = "device semantics=fast # line 1\n\
    buffer vb usage=default bind=vertex size=64\n\
    texture albedo format=r8g8b8a8_unorm width=4 height=4 bind=shader_resource\n\
    context dc semantics=legacy\n\
    bundle bun rt=none\n\
    swapchain sc buffers=2 format=b8g8r8a8_unorm width=8 height=8\n";

fn name(text: &str) -> Name {
    Name::new(text).unwrap()
}

fn some(text: &str) -> Option<Name> {
    Some(name(text))
}

fn parse_ok(text: &str) -> Trace {
    parse(text.as_bytes()).unwrap_or_else(|error| panic!("{error}"))
}

/// The statement of `trace` on the line of `text` that starts with `line`.
fn on_line<'t>(trace: &'t Trace, text: &str, line: &str) -> &'t Statement {
    let number = text
        .lines()
        .position(|l| l.starts_with(line))
        .unwrap_or_else(|| panic!("no line '{line}'"))
        + 1;
    trace
        .statements
        .iter()
        .find(|(n, _)| *n == number)
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("no statement on line {number}"))
}

fn call(context: CallContext, method: Method) -> Statement {
    Statement::Call(Call { context, method })
}

#[test]
fn trace_parses_every_call_in_trace_md() {
    let text = EVERY_CONSTRUCT;
    let trace = parse_ok(text);

    // Every method, declaration and expectation form is in the file, and parsed.
    let mut firsts = HashSet::new();
    let mut methods = HashSet::new();
    let mut expectations = HashSet::new();
    for line in text.lines() {
        let code = line.split(" #").next().unwrap();
        let tokens: Vec<&str> = code.split_whitespace().collect();
        match tokens.as_slice() {
            [] => {}
            [first, ..] if first.starts_with('#') => {}
            ["expect", what, ..] => {
                expectations.insert(*what);
            }
            [first, method, ..] if !DECLARATIONS.contains(first) => {
                methods.insert(*method);
            }
            [first, ..] => {
                firsts.insert(*first);
            }
        }
    }
    for method in METHODS {
        assert!(methods.contains(method), "{method} is not in the trace");
    }
    for declaration in DECLARATIONS {
        assert!(
            firsts.contains(declaration),
            "{declaration} is not in the trace"
        );
    }
    for what in [
        "ok",
        "error",
        "resource",
        "split_points",
        "counters",
        "draw",
        "bundle_footprint",
    ] {
        assert!(
            expectations.contains(what),
            "expect {what} is not in the trace"
        );
    }
    let statement_lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    assert_eq!(trace.statements.len(), statement_lines);

    // A few trees, exactly.
    let imm = CallContext::Immediate;
    assert_eq!(
        on_line(&trace, text, "device"),
        &Statement::Declaration(Declaration::Device {
            semantics: Semantics::Legacy,
            validation: Some(Validation::Hazards),
            legacy_barriers: Some(false),
        })
    );
    assert_eq!(
        on_line(&trace, text, "buffer sb "),
        &Statement::Declaration(Declaration::Buffer {
            name: name("sb"),
            usage: Usage::Dynamic,
            bind: BindFlags::NONE | BindFlags::SHADER_RESOURCE | BindFlags::UNORDERED_ACCESS,
            size: 4096,
            uav_flag: Some(UavFlag::Append),
            placement: None,
            data: None,
        })
    );
    assert_eq!(
        on_line(&trace, text, "buffer ib "),
        &Statement::Declaration(Declaration::Buffer {
            name: name("ib"),
            usage: Usage::Default,
            bind: BindFlags::NONE | BindFlags::INDEX,
            size: 0x100,
            uav_flag: None,
            placement: None,
            data: None,
        })
    );
    assert_eq!(
        on_line(&trace, text, "texture albedo"),
        &Statement::Declaration(Declaration::Texture {
            name: name("albedo"),
            format: Format::new("r8g8b8a8_unorm").unwrap(),
            width: 256,
            height: 256,
            mips: Some(9),
            array: Some(1),
            samples: Some(1),
            bind: BindFlags::NONE | BindFlags::SHADER_RESOURCE,
            compressible: Some(false),
            tc: Some(true),
            dcc: None,
            placement: None,
            data: None,
        })
    );
    assert_eq!(
        on_line(&trace, text, "shader ps0"),
        &Statement::Declaration(Declaration::Shader {
            name: name("ps0"),
            stage: Stage::Pixel,
            constant_buffers: Some(SlotSet(vec![
                SlotRange { first: 0, last: 0 },
                SlotRange { first: 2, last: 3 },
            ])),
            shader_resources: Some(SlotSet(vec![
                SlotRange { first: 0, last: 0 },
                SlotRange { first: 1, last: 1 },
            ])),
            samplers: Some(SlotSet(vec![SlotRange { first: 0, last: 0 }])),
            unordered_access_views: Some(SlotSet(vec![SlotRange { first: 1, last: 1 }])),
            stream_output: None,
            code: None,
        })
    );
    assert_eq!(
        on_line(&trace, text, "bundle bun"),
        &Statement::Declaration(Declaration::Bundle {
            name: name("bun"),
            render_targets: vec![
                Format::new("r16g16b16a16_float").unwrap(),
                Format::new("r8g8b8a8_unorm").unwrap(),
            ],
            depth: Format::new("d32_float"),
            samples: Some(1),
        })
    );
    assert_eq!(
        on_line(&trace, text, "imm set_vertex_buffers"),
        &call(
            imm.clone(),
            Method::SetVertexBuffers {
                start: 0,
                buffers: [some("vb"), None, some("so")]
                    .map(VertexBinding::plain)
                    .to_vec(),
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "imm om_set_render_targets color_rtv"),
        &call(
            imm.clone(),
            Method::OmSetRenderTargets {
                render_targets: vec![some("color_rtv"), some("sc.0.rtv")],
                depth_stencil: some("depth_dsv"),
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "imm rs_set_viewports"),
        &call(
            imm.clone(),
            Method::RsSetViewports(vec![
                Viewport {
                    x: 0.0,
                    y: 0.0,
                    width: 640.0,
                    height: 480.0
                },
                Viewport {
                    x: -0.5,
                    y: 0.5,
                    width: 320.25,
                    height: 1000.0
                },
            ])
        )
    );
    assert_eq!(
        on_line(&trace, text, "imm draw_indexed "),
        &call(
            imm.clone(),
            Method::DrawIndexed {
                index_count: 36,
                start_index: 0,
                base_vertex: -4,
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "imm clear_render_target_view"),
        &call(
            imm.clone(),
            Method::ClearRenderTargetView {
                view: name("color_rtv"),
                color: [0.0, 0.25, 1.0, 1.0],
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "imm map ib"),
        &call(
            imm.clone(),
            Method::Map {
                resource: name("ib"),
                map_type: MapType::Write,
                allow_usage_default: true,
                instance: (),
                writes: (),
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "imm write ib"),
        &call(
            imm.clone(),
            Method::Write {
                resource: name("ib"),
                offset: 4,
                bytes: vec![0x00, 0xff, 0xa5],
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "bun remap_vertex_buffer_inheritance"),
        &call(
            CallContext::BundleRecorder(name("bun")),
            Method::RemapVertexBufferInheritance {
                slot: 0,
                inherit_slot: 1,
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "bun finish"),
        &call(
            CallContext::BundleRecorder(name("bun")),
            Method::FinishBundle
        )
    );
    assert_eq!(
        on_line(&trace, text, "dc finish list "),
        &call(
            CallContext::Deferred(name("dc")),
            Method::FinishCommandList {
                list: name("list"),
                restore: Some(true),
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "imm finish imm_list"),
        &call(
            CallContext::Immediate,
            Method::FinishCommandList {
                list: name("imm_list"),
                restore: None,
            }
        )
    );
    assert_eq!(
        on_line(&trace, text, "expect accepted dc"),
        &Statement::Expectation(Expectation::Accepted {
            subject: Subject::Named(name("dc")),
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect accepted imm"),
        &Statement::Expectation(Expectation::Accepted {
            subject: Subject::Immediate,
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect split_points list total"),
        &Statement::Expectation(Expectation::SplitPoints {
            list: name("list"),
            total: Some(4),
            categories: vec![
                (SplitCategory::ClearRenderTarget, 1),
                (SplitCategory::DynamicConstantBuffer, 2),
            ],
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect error cb"),
        &Statement::Expectation(Expectation::Error {
            subject: Subject::Named(name("cb")),
            kind: ErrorKind::InvalidArgument,
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect draw 0 vs.cb.0"),
        &Statement::Expectation(Expectation::Draw {
            index: 0,
            field: DrawField::ConstantBuffer(Stage::Vertex, 0),
            value: ExpectedValue::Object(ObjectRef {
                name: name("cb"),
                instance: Some(2),
                placement: None,
            }),
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect draw 0 ps.srv.0.min_lod"),
        &Statement::Expectation(Expectation::Draw {
            index: 0,
            field: DrawField::ShaderResourceMinLod(Stage::Pixel, 0),
            value: ExpectedValue::Number(Number::Float(1.5)),
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect draw 2 args"),
        &Statement::Expectation(Expectation::Draw {
            index: 2,
            field: DrawField::Args,
            value: ExpectedValue::Numbers(vec![
                Number::Float(3.0),
                Number::Integer(10),
                Number::Integer(0),
                Number::Integer(5),
            ]),
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect draw 5 args args#1"),
        &Statement::Expectation(Expectation::Draw {
            index: 5,
            field: DrawField::Args,
            value: ExpectedValue::IndirectArgs {
                buffer: ObjectRef {
                    name: name("args"),
                    instance: Some(1),
                    placement: None,
                },
                offset: 16,
            },
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect draw 0 reset_index"),
        &Statement::Expectation(Expectation::Draw {
            index: 0,
            field: DrawField::ResetIndex,
            value: ExpectedValue::Number(Number::Integer(0xffff)),
        })
    );
}

#[test]
fn trace_parses_every_vocabulary_word() {
    let mut text = String::from(
        "device semantics=fast\ncontext dc semantics=legacy\nbuffer b usage=dynamic \
         bind=vertex size=16\ndc finish l\n",
    );
    for usage in Usage::ALL {
        text += &format!("buffer b_{usage} usage={usage} bind=none size=1\n");
    }
    for (flag, _) in BindFlags::NAMED {
        text += &format!("buffer f_{flag} usage=default bind={flag} size=1\n");
    }
    for stage in Stage::ALL {
        text += &format!("shader s_{stage} stage={stage}\nimm {stage}_set_shader s_{stage}\n");
        text += &format!("expect draw 0 {stage} s_{stage}\n");
    }
    for topology in PrimitiveTopology::ALL {
        text += &format!("imm set_primitive_topology {topology}\n");
    }
    for map in MapType::ALL {
        text += &format!("imm map b {map}\n");
    }
    for engine in Engine::ALL {
        text += &format!("imm insert_fence f engine={engine}\n");
    }
    for kind in ErrorKind::ALL {
        text += &format!("expect error imm {kind}\nexpect error dc {kind}\n");
    }
    for key in CounterKey::ALL {
        text += &format!("expect counters {key}=0x10\n");
    }
    for category in SplitCategory::ALL {
        text += &format!("expect split_points l {category}=1 total=2\n");
    }
    text += "texture t format=r8_unorm width=1 height=1 bind=render_target\n";
    for sync in SyncWord::all() {
        text += &format!("imm barrier global sync={sync}:{sync}+all access=common:common\n");
    }
    for access in AccessWord::all() {
        text += &format!("imm barrier buffer b sync=all:all access={access}:common+{access}\n");
    }
    for layout in LayoutWord::all() {
        text += &format!(
            "imm barrier texture t sync=all:all access=common:common layout={layout}:{layout}\n\
             expect resource t layout={layout}\n"
        );
    }
    for state in StateWord::all() {
        text += &format!("imm resource_barrier transition t {state} common+{state}\n");
    }
    for split in [SplitHalf::Begin, SplitHalf::End] {
        text += &format!("imm resource_barrier transition t common common split={split}\n");
    }
    for compression in Compression::ALL {
        text += &format!("expect resource t depth={compression} stencil={compression}\n");
    }
    let trace = parse_ok(&text);
    assert_eq!(trace.statements.len(), text.lines().count());
    let reprinted = trace.to_string();
    assert_eq!(parse_ok(&reprinted), {
        let mut renumbered = trace.clone();
        for (i, (line, _)) in renumbered.statements.iter_mut().enumerate() {
            *line = i + 1;
        }
        renumbered
    });
}

#[test]
fn trace_prints_every_construct_back() {
    let trace = parse_ok(EVERY_CONSTRUCT);
    let printed = trace.to_string();
    let again = parse_ok(&printed);
    assert!(trace.statements().eq(again.statements()));
    // Canonical: printing the reparsed tree gives the same text.
    assert_eq!(again.to_string(), printed);
    // Integer and float values stay what they were.
    assert!(printed.contains("expect draw 2 args 3.0,10,0,5\n"));
    assert!(printed.contains("imm rs_set_viewports 0.0,0.0,640.0,480.0 -0.5,0.5,320.25,1000.0\n"));
    assert!(printed.contains("buffer staging usage=staging bind=none size=64\n"));
    assert!(printed.contains("bundle bare rt=none\n"));
    // Barriers: `|` between BARRIERs, `+` flags and ranges as written (a range of one as A-A).
    assert!(printed.contains(
        "| texture depth sync=none:depth_stencil access=no_access:depth_stencil_write \
         layout=undefined:depth_stencil_write mips=0-0 array=0-0 planes=0-1 discard\n"
    ));
    assert!(printed.contains(
        "imm resource_barrier transition color render_target \
         pixel_shader_resource+non_pixel_shader_resource subresource=0 split=begin\n"
    ));
}

#[test]
fn r_bar_1_barrier_parses_to_its_groups_as_written() {
    let trace = parse_ok(EVERY_CONSTRUCT);
    let text = EVERY_CONSTRUCT;
    let imm = CallContext::Immediate;
    let words = |w: &[SyncWord]| Flags(w.to_vec());
    assert_eq!(
        on_line(&trace, text, "imm barrier global"),
        &Statement::Call(Call {
            context: imm.clone(),
            method: Method::Barrier(vec![
                Barrier::Global {
                    sync: BeforeAfter {
                        before: words(&[
                            SyncWord::from_name("compute_shading").unwrap(),
                            SyncWord::from_name("pixel_shading").unwrap()
                        ]),
                        after: words(&[SyncWord::from_name("all").unwrap()]),
                    },
                    access: BeforeAfter {
                        before: Flags(vec![AccessWord::from_name("unordered_access").unwrap()]),
                        after: Flags(vec![AccessWord::from_name("common").unwrap()]),
                    },
                },
                Barrier::Buffer {
                    resource: name("sb"),
                    sync: BeforeAfter {
                        before: words(&[SyncWord::from_name("all").unwrap()]),
                        after: words(&[SyncWord::from_name("predication").unwrap()]),
                    },
                    access: BeforeAfter {
                        before: Flags(vec![AccessWord::from_name("unordered_access").unwrap()]),
                        after: Flags(vec![AccessWord::from_name("shader_resource").unwrap()]),
                    },
                    size: Some(64),
                },
                Barrier::Texture {
                    resource: name("depth"),
                    sync: BeforeAfter {
                        before: words(&[SyncWord::from_name("none").unwrap()]),
                        after: words(&[SyncWord::from_name("depth_stencil").unwrap()]),
                    },
                    access: BeforeAfter {
                        before: Flags(vec![AccessWord::from_name("no_access").unwrap()]),
                        after: Flags(vec![AccessWord::from_name("depth_stencil_write").unwrap()]),
                    },
                    layout: BeforeAfter {
                        before: LayoutWord::from_name("undefined").unwrap(),
                        after: LayoutWord::from_name("depth_stencil_write").unwrap(),
                    },
                    mips: Some(SlotRange { first: 0, last: 0 }),
                    array: Some(SlotRange { first: 0, last: 0 }),
                    planes: Some(SlotRange { first: 0, last: 1 }),
                    discard: true,
                },
            ]),
        })
    );
    assert_eq!(
        on_line(&trace, text, "imm resource_barrier transition sb"),
        &Statement::Call(Call {
            context: imm,
            method: Method::ResourceBarrier(LegacyBarrier::Transition {
                resource: name("sb"),
                before: Flags(vec![StateWord::from_name("present").unwrap()]),
                after: Flags(vec![StateWord::from_name("generic_read").unwrap()]),
                subresource: None,
                split: None,
            }),
        })
    );
    assert_eq!(
        on_line(&trace, text, "expect resource depth"),
        &Statement::Expectation(Expectation::Resource {
            resource: name("depth"),
            layout: Some(ExpectedLayout::Mixed),
            compressed: None,
            depth: Some(Compression::Compressed),
            stencil: Some(Compression::Decompressed),
        })
    );
}

/// `write RESOURCE OFFSET HEX`: the bytes as written, printed back lowercase, and a HEX that
/// breaks the rule is malformed, the message naming the call and the rule.
#[test]
fn r_cap_4_write_parses_prints_and_refuses_malformed_hex() {
    let head = "device semantics=fast\nbuffer cb usage=dynamic bind=constant size=16\n";
    let text = format!("{head}imm map cb write_discard\nimm write cb 0x4 0aFF10\nimm unmap cb\n");
    let trace = parse_ok(&text);
    assert_eq!(
        trace.statements[3].1,
        call(
            CallContext::Immediate,
            Method::Write {
                resource: name("cb"),
                offset: 4,
                bytes: vec![0x0a, 0xff, 0x10],
            }
        )
    );
    let printed = trace.to_string();
    assert!(printed.contains("\nimm write cb 4 0aff10\n"), "{printed}");
    assert!(parse_ok(&printed).statements().eq(trace.statements()));

    for (hex, rule) in [
        ("abc", "even number of hex digits"),
        ("0", "even number of hex digits"),
        ("0g", "hex digits only"),
        ("0x10", "hex digits only"),
        ("+1", "hex digits only"),
    ] {
        let bad = format!("{head}imm write cb 0 {hex}\n");
        let error = parse(bad.as_bytes()).unwrap_err();
        assert_eq!(error.line, 3, "{hex}: {error}");
        assert!(error.message.starts_with("write: HEX"), "{hex}: {error}");
        assert!(error.message.contains(rule), "{hex}: {error}");
        assert!(
            error.message.contains(&format!("'{hex}'")),
            "{hex}: {error}"
        );
    }
    // No HEX at all (a token cannot be empty), no OFFSET, an extra token, an unknown name.
    for (line, what) in [
        ("imm write cb 0", "expected HEX, found end of line"),
        ("imm write cb", "expected OFFSET"),
        ("imm write cb 0 00 11", "11"),
        ("imm write nothing 0 00", "nothing"),
        ("imm write cb -1 00", "OFFSET"),
    ] {
        let error = parse(format!("{head}{line}\n").as_bytes()).unwrap_err();
        assert_eq!(error.line, 3, "{line}: {error}");
        assert!(error.message.contains(what), "{line}: {error}");
    }
}

#[test]
fn trace_ten_megabyte_lines_parse_quickly() {
    const SIZE: usize = 10 << 20;
    let started = Instant::now();
    let head = "device semantics=fast\nbuffer vb usage=default bind=vertex size=64\n";

    // A long comment, a long list of bindings, a long slot set, a long number, a long name.
    let comment = format!("{head}# {}\nexpect ok\n", "x".repeat(SIZE));
    assert_eq!(parse_ok(&comment).statements.len(), 3);

    let bindings = format!(
        "{head}imm set_vertex_buffers 0{}\n",
        " vb null".repeat(SIZE / 8)
    );
    match &parse_ok(&bindings).statements[2].1 {
        Statement::Call(Call {
            method: Method::SetVertexBuffers { buffers, .. },
            ..
        }) => assert_eq!(buffers.len(), SIZE / 4),
        other => panic!("{other:?}"),
    }

    let slots = format!("{head}shader s stage=ps cb=0{}\n", ",1-2".repeat(SIZE / 4));
    parse_ok(&slots);

    let number = format!("{head}imm draw 1{} 0\n", "0".repeat(SIZE));
    let error = parse(number.as_bytes()).unwrap_err();
    assert_eq!(error.line, 3);
    assert!(error.message.starts_with("draw: number '1000"), "{error}");
    assert!(error.message.len() < 200);

    let float = format!(
        "{head}imm set_resource_min_lod vb 0.{}1\n",
        "0".repeat(SIZE)
    );
    parse_ok(&float);

    let unknown = format!("{head}imm set_vertex_buffers 0 {}\n", "v".repeat(SIZE));
    let error = parse(unknown.as_bytes()).unwrap_err();
    assert_eq!(error.line, 3);
    assert!(error.message.len() < 200);

    let lists = format!(
        "{head}imm om_set_render_targets {} null\n",
        "null,".repeat(SIZE / 5)
    );
    let error = parse(lists.as_bytes()).unwrap_err();
    assert!(error.message.contains("empty item"), "{error}");

    let elapsed = started.elapsed();
    eprintln!("10 MB lines: {elapsed:?}");
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
}

/// The number of lines of `bytes` as the parser counts them (an empty input is one line).
fn line_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|b| **b == b'\n').count() + 1
}

/// Checks the parser's contract on any input: no panic, an error's line within the input, and
/// a parsed trace prints back to itself.
fn check_any(bytes: &[u8]) -> Result<(), TestCaseError> {
    match parse(bytes) {
        Err(error) => {
            prop_assert!(
                error.line >= 1 && error.line <= line_count(bytes),
                "{error}"
            );
        }
        Ok(trace) => {
            let again = parse(trace.to_string().as_bytes());
            prop_assert!(again.is_ok(), "{:?}", again);
            prop_assert!(trace.statements().eq(again.unwrap().statements()));
        }
    }
    Ok(())
}

/// Trace-ish tokens, to build lines the parser gets far into.
fn token() -> impl Strategy<Value = String> {
    let words: Vec<&'static str> = [
        "imm",
        "dc",
        "bun",
        "vb",
        "albedo",
        "sc",
        "sc.0",
        "sc.1.rtv",
        "null",
        "none",
        "list",
        "expect",
        "ok",
        "error",
        "draw",
        "finish",
        "execute",
        "yes",
        "no",
        "0",
        "1",
        "-1",
        "0x10",
        "1.5",
        "99999999999999999999999",
        "0,1",
        "0,2-5",
        "a,,b",
        "usage=default",
        "bind=vertex",
        "size=4",
        "restore=yes",
        "engine=dma",
        "semantics=fast",
        "rt=none",
        "#",
        "cb#2",
        "vs",
        "ps.srv.0",
        "args",
        "args,16",
        "total=1",
        "draws=2",
    ]
    .into_iter()
    .chain(METHODS.iter().copied())
    .chain(DECLARATIONS.iter().copied())
    .collect();
    prop_oneof![
        4 => proptest::sample::select(words).prop_map(str::to_owned),
        1 => "[ -~]{0,8}",
        1 => any::<u64>().prop_map(|n| n.to_string()),
    ]
}

fn soup_line() -> impl Strategy<Value = String> {
    prop::collection::vec(token(), 0..6).prop_map(|tokens| tokens.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    })]

    #[test]
    fn trace_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check_any(&bytes)?;
        // The same bytes after a valid prelude reach the statement parsers.
        let mut prefixed = PRELUDE.as_bytes().to_vec();
        prefixed.extend_from_slice(&bytes);
        check_any(&prefixed)?;
    }

    #[test]
    fn trace_never_panics_on_token_soup(lines in prop::collection::vec(soup_line(), 0..12)) {
        let text = format!("{PRELUDE}dc finish list\nbun finish\n{}", lines.join("\n"));
        check_any(text.as_bytes())?;
    }

    #[test]
    fn trace_truncated_at_any_byte_never_panics(cut in 0..=EVERY_CONSTRUCT.len()) {
        let head = &EVERY_CONSTRUCT.as_bytes()[..cut];
        match parse(head) {
            Err(error) => {
                prop_assert!(error.line >= 1 && error.line <= line_count(head), "{}", error);
            }
            Ok(trace) => {
                // Every statement but the last (perhaps cut short: `draw 36` to `draw 3`) is
                // the full trace's.
                let full = parse_ok(EVERY_CONSTRUCT);
                let n = trace.statements.len();
                prop_assert!(n <= full.statements.len());
                if n > 1 {
                    prop_assert_eq!(&trace.statements[..n - 1], &full.statements[..n - 1]);
                }
            }
        }
    }

    #[test]
    fn trace_printed_trees_parse_back(seed in any::<u64>(), count in 0usize..60) {
        let statements = generate::trace(seed, count);
        let text: String = statements.iter().map(|s| format!("{s}\n")).collect();
        let parsed = parse(text.as_bytes()).map_err(|e| {
            TestCaseError::fail(format!("{e}\n{text}"))
        })?;
        prop_assert!(parsed.statements().eq(statements.iter()), "{}", text);
        prop_assert_eq!(parsed.statements.len(), statements.len());
    }
}

/// The syntax room never imports the engine's runtime or the replay (`trace/src/lib.rs`: the
/// replay reads the tree, never the other way; one call shape, the replay's form kept in the
/// replay). It reads and writes the engine's own vocabularies: `words.rs`, and only it, imports
/// the engine's value types and their word tables, from the list below, never a device, a
/// context, a list or the executor.
#[test]
fn trace_syntax_room_imports_neither_the_engine_nor_the_replay() {
    const ENGINE_WORDS: &[&str] = &[
        "AddressMode",
        "BarrierAccess",
        "BarrierLayout",
        "BarrierSync",
        "BindFlags",
        "BlendFactor",
        "BlendOp",
        "Comparison",
        "Compression",
        "CullMode",
        "DecompressKinds",
        "Engine",
        "ErrorKind",
        "MapType",
        "PrimitiveTopology",
        "QueryKind",
        "QueryMode",
        "ResourceStates",
        "Semantics",
        "SplitCategory",
        "SplitHalf",
        "Stage",
        "StencilOp",
        "UavFlag",
        "Usage",
        "Validation",
        "Word",
        "WordTable",
    ];
    let room = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/syntax");
    // Every file of the room, its folders' (`ast/`, `print/`) too.
    let mut paths = Vec::new();
    let mut folders = vec![room.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder of src/syntax") {
            let path = entry.expect("an entry").path();
            match path.is_dir() {
                true => folders.push(path),
                false => paths.push(path),
            }
        }
    }
    let mut files = 0;
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a source file");
        files += 1;
        let code: String = text
            .lines()
            .map(|line| line.split("//").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n");
        let words_file = path.file_name().is_some_and(|n| n == "words.rs");
        // The engine's words, in `words.rs` only: `pub use recorder::{..}` of the list above.
        let mut rest = code.as_str();
        if words_file {
            let import = "pub use recorder::{";
            let start = code
                .find(import)
                .expect("words.rs imports the engine's words");
            let names = &code[start + import.len()..];
            let names = &names[..names.find('}').expect("a closed import")];
            for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                assert!(
                    ENGINE_WORDS.contains(&name),
                    "words.rs imports `recorder::{name}`, not one of the engine's word tables"
                );
            }
            rest = &code[..start];
            let after = &code[start..];
            let tail = &after[after.find('}').expect("a closed import")..];
            assert!(
                !rest.contains("recorder::") && !tail.contains("recorder::"),
                "words.rs names `recorder::` outside its one import"
            );
            rest = tail;
        }
        for (index, line) in rest.lines().enumerate() {
            let forbidden: &[&str] = if words_file {
                &["replay", "bundles::", "executor::"]
            } else {
                &["replay", "recorder::", "bundles::", "executor::"]
            };
            for forbidden in forbidden {
                assert!(
                    !line.contains(forbidden),
                    "{}:{}: the syntax room names `{forbidden}`: {line}",
                    path.display(),
                    index + 1
                );
            }
        }
    }
    assert!(files >= 10, "only {files} files in {}", room.display());
}
