//! The trace-format rules of TRACE.md (trace/docs/TRACE.md) on refusals, names and fields,
//! through the replay's library API: `expect accepted`, the reserved words (`heap` among them),
//! `imm finish` as the engine's refusal, and the draw-record fields `ib.offset`, `rtv.N.format`,
//! `dsv.format`; heaps, placed resources and region copies (R-BAR-7).

use trace::{parse, replay, Replay, ReplayOptions};

fn run(trace: &str) -> Replay {
    replay(trace.as_bytes(), &ReplayOptions::default())
}

#[test]
fn trace_expect_accepted_holds_after_an_accepted_call_and_fails_after_a_refusal() {
    let trace = "device semantics=legacy\n\
                 buffer cb usage=default bind=constant size=64\n\
                 context dc semantics=legacy\n\
                 imm vs_set_constant_buffers 0 cb\n\
                 expect accepted imm\n\
                 expect accepted dc\n\
                 dc vs_set_constant_buffers 16 cb\n\
                 expect accepted dc\n\
                 dc draw 3 0\n\
                 expect accepted dc\n\
                 dc finish l\n\
                 expect accepted l\n\
                 context dc2 semantics=legacy\n\
                 dc2 draw 3 0\n\
                 dc2 finish l2\n\
                 expect accepted l2\n\
                 imm execute l2\n\
                 expect accepted l2\n\
                 expect accepted imm\n";
    let run = run(trace);
    assert_eq!(run.exit_code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("trace:8: expected accepted dc, found error invalid_argument ("),
        "{}",
        lines[0]
    );
    // The draw after the refusal was accepted; the list's finish is refused.
    assert!(
        lines[1].starts_with("trace:12: expected accepted l, found error invalid_argument ("),
        "{}",
        lines[1]
    );
    assert!(lines[2].ends_with(" expectations=6/8"), "{}", lines[2]);
}

#[test]
fn trace_expect_accepted_prints_back_and_names_its_context() {
    let text = "device semantics=fast\ncontext c semantics=fast\nexpect accepted c\n\
                expect accepted imm\n";
    let trace = trace::parse(text.as_bytes()).expect("parses");
    assert_eq!(trace.to_string(), text);
    let unknown = run("device semantics=fast\nexpect accepted nowhere\n");
    assert_eq!(unknown.exit_code, 2);
    assert!(
        unknown.stderr.starts_with("trace:2: "),
        "{}",
        unknown.stderr
    );
}

/// TRACE.md's reserved words, every one: none names an object (exit 2, the message saying
/// which word is reserved), wherever a name is declared.
const RESERVED: &[&str] = &[
    "imm",
    "null",
    "expect",
    "release",
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
    "heap",
];

fn assert_reserved(trace: &str, word: &str) {
    let run = run(trace);
    assert_eq!(run.exit_code, 2, "{trace:?}: {run:?}");
    assert!(
        run.stderr.contains(&format!("'{word}' is a reserved word")),
        "{trace:?}: {}",
        run.stderr
    );
}

#[test]
fn trace_reserved_word_heap_cannot_name_a_context_a_list_or_a_fence() {
    assert_reserved(
        "device semantics=legacy\ncontext heap semantics=legacy\n",
        "heap",
    );
    assert_reserved(
        "device semantics=legacy\ncontext c semantics=legacy\nc finish heap\n",
        "heap",
    );
    assert_reserved("device semantics=legacy\nimm insert_fence heap\n", "heap");
    assert_reserved(
        "device semantics=legacy\nbuffer heap usage=default bind=vertex size=16\n",
        "heap",
    );
}

#[test]
fn trace_reserved_words_each_refused_as_a_name_saying_which() {
    for word in RESERVED {
        assert_reserved(
            &format!("device semantics=fast\nblend_state {word}\n"),
            word,
        );
    }
}

#[test]
fn trace_reserved_word_heap_used_as_an_object_says_it_is_reserved() {
    for line in [
        "expect error heap invalid_argument",
        "expect accepted heap",
        "imm execute heap",
        "imm vs_set_shader heap",
        "imm om_set_render_targets heap null",
    ] {
        let run = run(&format!("device semantics=legacy\n{line}\n"));
        assert_eq!(run.exit_code, 2, "{line}: {run:?}");
        assert!(
            run.stderr.starts_with("trace:2: ")
                && run.stderr.contains("'heap', which is a reserved word"),
            "{line}: {}",
            run.stderr
        );
    }
}

/// R-BAR-7: `heap NAME size=BYTES`, `heap=HEAP offset=BYTES` on buffers and textures, and the
/// region copies parse, print back to what parses to the same tree, and replay.
#[test]
fn r_bar_7_trace_heaps_placed_resources_and_region_copies_round_trip() {
    let text = "device semantics=fast\n\
                heap h size=65536\n\
                buffer b usage=default bind=shader_resource size=256 heap=h offset=1024\n\
                texture t format=r8g8b8a8_unorm width=64 height=64 bind=shader_resource heap=h offset=0\n\
                imm copy_buffer_region b 128 b 0 128\n\
                imm copy_texture_region t 0 32,32 t 0 0,0,32,32\n\
                expect ok\n";
    let trace = parse(text.as_bytes()).expect("parses");
    let printed = trace.to_string();
    for line in [
        "heap h size=65536",
        "buffer b usage=default bind=shader_resource size=256 heap=h offset=1024",
        "imm copy_buffer_region b 128 b 0 128",
        "imm copy_texture_region t 0 32,32 t 0 0,0,32,32",
    ] {
        assert!(printed.lines().any(|l| l == line), "{line} in {printed}");
    }
    let again = parse(printed.as_bytes()).expect("printed parses");
    let statements = |t: &trace::Trace| {
        t.statements
            .iter()
            .map(|(_, s)| s.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(statements(&trace), statements(&again));
    let run = run(text);
    assert_eq!(run.exit_code, 0, "{run:?}");
}

/// R-BAR-7: the new forms' malformed variants stop the replay with exit code 2 and say why.
#[test]
fn r_bar_7_trace_malformed_placements_and_region_copies_say_why() {
    let prelude = "device semantics=fast\n\
                   heap h size=65536\n\
                   buffer b usage=default bind=shader_resource size=256\n\
                   texture t format=r8g8b8a8_unorm width=64 height=64 bind=shader_resource\n";
    for (line, says) in [
        (
            "buffer p usage=default bind=vertex size=16 heap=h",
            "missing option 'offset='",
        ),
        (
            "texture p format=r8g8b8a8_unorm width=4 height=4 bind=shader_resource offset=0",
            "missing option 'heap='",
        ),
        (
            "buffer p usage=default bind=vertex size=16 heap=b offset=0",
            "expected a heap",
        ),
        ("heap g", "missing option 'size='"),
        ("imm copy_buffer_region t 0 b 0 16", "expected a buffer"),
        (
            "imm copy_texture_region t 0 1 t 0 0,0,1,1",
            "X,Y (2 numbers)",
        ),
        (
            "imm copy_texture_region t 0 1,1 t 0 0,0,1",
            "L,T,R,B (4 numbers)",
        ),
        ("imm copy_buffer_region b 0 b 0", "BYTES"),
    ] {
        let run = run(&format!("{prelude}{line}\n"));
        assert_eq!(run.exit_code, 2, "{line}: {run:?}");
        assert!(
            run.stderr.starts_with("trace:5: ") && run.stderr.contains(says),
            "{line}: {}",
            run.stderr
        );
    }
    // A texture where copy_texture_region takes one is the engine's refusal, not malformed.
    let run = run(&format!(
        "{prelude}imm copy_texture_region b 0 0,0 t 0 0,0,1,1\nexpect error imm invalid_argument\n"
    ));
    assert_eq!(run.exit_code, 0, "{run:?}");
}

#[test]
fn trace_imm_finish_is_the_engines_invalid_argument_not_a_malformed_trace() {
    let trace = "device semantics=legacy\n\
                 imm finish l\n\
                 expect error imm invalid_argument\n\
                 expect error l invalid_argument\n\
                 imm finish l2 restore=yes\n\
                 expect error imm invalid_argument\n\
                 imm execute l\n\
                 expect error imm invalid_argument\n";
    let run = run(trace);
    assert_eq!(run.exit_code, 0, "{run:?}");
    let compared = replay(
        trace.as_bytes(),
        &ReplayOptions {
            compare: true,
            threads: 2,
            ..ReplayOptions::default()
        },
    );
    assert_eq!(compared.exit_code, 0, "{compared:?}");
}

#[test]
fn trace_draw_record_fields_ib_offset_rtv_format_dsv_format() {
    let trace = "device semantics=fast\n\
                 buffer ib usage=default bind=index size=256\n\
                 texture colour format=r8g8b8a8_unorm width=4 height=4 bind=render_target\n\
                 texture depth format=d32_float width=4 height=4 bind=depth_stencil\n\
                 rtv colour_rtv colour\n\
                 dsv depth_dsv depth\n\
                 imm set_index_buffer ib r16_uint 0x40\n\
                 imm om_set_render_targets colour_rtv depth_dsv\n\
                 imm draw_indexed 3 0 0\n\
                 expect draw 0 ib ib\n\
                 expect draw 0 ib.format r16_uint\n\
                 expect draw 0 ib.offset 64\n\
                 expect draw 0 rtv.0.format r8g8b8a8_unorm\n\
                 expect draw 0 dsv.format d32_float\n\
                 expect draw 0 ib.offset 0\n\
                 expect draw 0 dsv.format d16_unorm\n";
    let run = run(trace);
    assert_eq!(run.exit_code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "trace:15: expected draw 0 ib.offset 0, found 64");
    assert_eq!(
        lines[1],
        "trace:16: expected draw 0 dsv.format d16_unorm, found d32_float"
    );
    assert!(lines[2].ends_with(" expectations=5/7"), "{}", lines[2]);
}

/// docs/TRACE.md, its notes' `>` prefixes dropped and every run of white space one space.
fn docs() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/TRACE.md");
    let text = std::fs::read_to_string(path).expect("trace/docs/TRACE.md");
    let text = text.replace("\n>", "\n");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn trace_docs_trace_md_quotes_the_error_of_each_construct_not_built_yet() {
    let docs = docs();
    let prelude = "device semantics=legacy\nbuffer b usage=default bind=vertex size=64\n";
    // The construct, and how much of the replay's message the note quotes (the rest of a long
    // vocabulary list is elided there).
    // None today: `write`, the last, is built (R-CAP-4).
    let cases: &[(&str, Option<&str>)] = &[];
    assert_eq!(
        docs.matches("**Not built yet:**").count(),
        cases.len(),
        "each 'Not built yet' note of docs/TRACE.md has its case here, and no more"
    );
    for (line, quoted) in cases {
        let run = run(&format!("{prelude}{line}\n"));
        assert_eq!(run.exit_code, 2, "{line}: {run:?}");
        let message = run.stderr.trim_end().trim_start_matches("trace:3: ");
        let quoted = quoted.unwrap_or(message);
        assert!(message.starts_with(quoted), "{message}");
        assert!(
            docs.contains(&format!("`trace:N: {quoted}")),
            "docs/TRACE.md does not quote what `{line}` gives today: {message}"
        );
    }
    // Every word of the vocabularies the parser knows is on the page.
    for word in trace::ErrorKind::ALL {
        assert!(docs.contains(word.name()), "{}", word.name());
    }
    for word in trace::CounterKey::ALL {
        assert!(docs.contains(word.name()), "{}", word.name());
    }
}

/// The counter keys are the trace's own words (the executor's counters are a struct, not an
/// enum with a word table), so they must be the executor's `Counters::KEYS`, one to one: a counter
/// added on one side and not the other is a trace that can name what the engine never reports, or
/// the reverse. (The error kinds are the engine's own `ErrorKind` and its word table.)
#[test]
fn trace_counter_keys_are_the_engines_one_to_one() {
    let keys: Vec<&str> = trace::CounterKey::ALL
        .iter()
        .map(|key| key.name())
        .collect();
    assert_eq!(
        keys,
        executor::Counters::KEYS,
        "the trace's counter keys and Counters::KEYS differ"
    );
    let counters = executor::Counters::default();
    for key in keys {
        assert!(
            counters.get(key).is_some(),
            "Counters::get does not know {key}"
        );
    }
}
