//! The `replay` command through its library API (`trace::replay`):
//!
//! - the conformance suite, `tests/traces/*.trace`, one or more traces per requirement group of
//!   SPEC §3–§8, each run plain, with `--compare` and with `--threads 2`: every expectation
//!   holds, the reference agrees with the engine, and the threaded run prints exactly what the
//!   plain one prints;
//! - random valid traces (`replay/generate.rs`) replayed with and without `--threads` give the
//!   same output, and the engine's records are the reference's (`REPLAY_CASES` cases, 24 by
//!   default);
//! - garbage and truncated traces stop with exit code 2 and `trace:LINE:`;
//! - the command's choices where TRACE.md is silent.

mod replay {
    pub mod generate;
}

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use replay::generate;
use trace::{replay, Replay, ReplayOptions};

fn run(trace: &str, options: &ReplayOptions) -> Replay {
    replay(trace.as_bytes(), options)
}

/// The conformance traces' folder: the files a trace names (R-GPU-2) are relative to it.
fn traces_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces")
}

fn plain() -> ReplayOptions {
    ReplayOptions {
        trace_dir: Some(traces_dir()),
        ..ReplayOptions::default()
    }
}

fn compare() -> ReplayOptions {
    ReplayOptions {
        compare: true,
        ..plain()
    }
}

fn threads(n: usize) -> ReplayOptions {
    ReplayOptions {
        threads: n,
        ..plain()
    }
}

fn traces() -> Vec<PathBuf> {
    let folder = traces_dir();
    let mut traces: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("tests/traces")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "trace"))
        .collect();
    traces.sort();
    traces
}

#[test]
fn conformance_traces_hold_in_all_three_modes() {
    let traces = traces();
    assert!(
        traces.len() >= 7,
        "one trace per requirement group at least"
    );
    let mut failures = Vec::new();
    for path in &traces {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let text = std::fs::read_to_string(path).expect("readable trace");
        let single = run(&text, &plain());
        if single.exit_code != 0 {
            failures.push(format!(
                "{name}: exit {}\n{}{}",
                single.exit_code, single.stdout, single.stderr
            ));
            continue;
        }
        let compared = run(&text, &compare());
        if compared.exit_code != 0 || !compared.stdout.contains("identical to the reference") {
            failures.push(format!(
                "{name} --compare: exit {}\n{}",
                compared.exit_code, compared.stdout
            ));
        }
        let threaded = run(&text, &threads(2));
        if threaded != single {
            failures.push(format!(
                "{name} --threads 2 differs:\n{}\nplain:\n{}",
                threaded.stdout, single.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn readme_trace_runs_as_the_readme_shows() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README.md");
    let trace = readme
        .split("```text\n# example.trace")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .map(|body| format!("# example.trace{body}"))
        .expect("the README's example trace");
    let output = readme
        .split("```text\n$ cargo run --release --bin replay -- example.trace\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README's replay output");
    let run = run(&trace, &plain());
    assert_eq!(run.stdout, output);
}

fn check_threads_match(seed: u64, count: usize) -> Result<(), TestCaseError> {
    let trace = generate::trace(seed, count);
    let single = run(&trace, &plain());
    prop_assert_ne!(
        single.exit_code,
        2,
        "generated trace is malformed:\n{}\n{}",
        single.stderr,
        trace
    );
    for n in [1, 2, 3] {
        let threaded = run(&trace, &threads(n));
        prop_assert_eq!(&threaded, &single, "--threads {} differs on\n{}", n, trace);
    }
    let records = run(
        &trace,
        &ReplayOptions {
            records: true,
            threads: 2,
            ..ReplayOptions::default()
        },
    );
    let plain_records = run(
        &trace,
        &ReplayOptions {
            records: true,
            ..ReplayOptions::default()
        },
    );
    prop_assert_eq!(&records, &plain_records);
    // Each record names the line of a draw or dispatch as its origin (or, where the model
    // skipped a bundle call inside a list, the execution alone).
    let lines: Vec<&str> = trace.lines().collect();
    for record in records.stdout.lines().filter(|l| l.contains("  # ")) {
        let Some((_, origin)) = record.split_once("  # ") else {
            continue;
        };
        let Some(line) = origin
            .strip_prefix("line ")
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.parse::<usize>().ok())
        else {
            prop_assert!(origin.starts_with("a call of execution "), "{}", record);
            continue;
        };
        let method = lines
            .get(line - 1)
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("");
        prop_assert!(
            method.starts_with("draw") && method != "draw_bundle" || method.starts_with("dispatch"),
            "{} names line {}: {:?}\n{}",
            record,
            line,
            lines.get(line - 1),
            trace
        );
    }
    Ok(())
}

proptest! {
    // `REPLAY_CASES=2000` for a long run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("REPLAY_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(24),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_traces_print_the_same_with_and_without_threads(seed in any::<u64>(), count in 1usize..120) {
        check_threads_match(seed, count)?;
    }

    #[test]
    fn random_traces_agree_with_the_reference(seed in any::<u64>(), count in 1usize..160) {
        let trace = generate::trace(seed, count);
        let run = run(&trace, &compare());
        prop_assert!(
            run.stdout.contains("identical to the reference"),
            "{}\n{}",
            run.stdout,
            trace
        );
    }

    #[test]
    fn garbage_is_malformed_with_a_line_number(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut trace = b"device semantics=fast\n".to_vec();
        trace.extend_from_slice(&bytes);
        let run = replay(&trace, &plain());
        if run.exit_code == 2 {
            prop_assert!(run.stderr.starts_with("trace:"), "{}", run.stderr);
            let line: usize = run.stderr["trace:".len()..].split(':').next().unwrap_or("").parse().unwrap_or(0);
            prop_assert!(line >= 1);
        } else {
            // Bytes that happen to be a valid trace (comments, blank lines) run.
            prop_assert!(run.exit_code == 0 || run.exit_code == 1);
        }
    }

    #[test]
    fn truncated_traces_never_panic(seed in any::<u64>(), cut in 0usize..4000) {
        let trace = generate::trace(seed, 40);
        let cut = cut.min(trace.len());
        let run = replay(&trace.as_bytes()[..cut], &threads(2));
        prop_assert!(matches!(run.exit_code, 0..=2));
        if run.exit_code == 2 {
            prop_assert!(run.stderr.starts_with("trace:"), "{}", run.stderr);
        }
    }
}

#[test]
fn malformed_traces_stop_with_exit_2_and_the_line() {
    let cases: &[(&str, &str)] = &[
        ("", "trace:1: "),
        ("device semantics=fast\nimm draw 3\n", "trace:2: "),
        ("device semantics=fast\n\x00\x01\x02\n", "trace:2: "),
        ("device semantics=fast\nbuffer b usage=dynamic bind=vertex size=64\nimm vs_set_shader b\n", "trace:3: "),
        ("device semantics=fast\ntexture t format=r9_unorm width=4 height=4 bind=shader_resource\n", "trace:2: unknown format 'r9_unorm'"),
        ("device semantics=fast\nimm draw 4294967296 0\n", "trace:2: VERTEX_COUNT 4294967296 does not fit"),
        ("device semantics=fast\nshader s stage=ps cb=16\n", "trace:2: constant-buffer slot 16 is beyond"),
        ("device semantics=fast\ncontext c semantics=fast\nrelease c\nc draw 3 0\n", "trace:4: 'c' was released on line 3"),
        ("device semantics=legacy\ncontext c semantics=legacy\nc finish l\nrelease l\nimm execute l\n", "trace:5: 'l' was released"),
        ("device semantics=fast\ntexture t format=r8_unorm width=4 height=4 bind=render_target\nrtv v t\nimm clear_depth_stencil_view v 1 256\n", "trace:4: "),
    ];
    for (trace, start) in cases {
        let run = run(trace, &plain());
        assert_eq!(run.exit_code, 2, "{trace:?}: {run:?}");
        assert!(run.stdout.is_empty());
        assert!(run.stderr.starts_with(start), "{trace:?}: {}", run.stderr);
    }
}

#[test]
fn a_failed_expectation_is_reported_and_the_rest_runs() {
    let trace = "device semantics=fast\n\
                 shader vs0 stage=vs\n\
                 imm draw 3 0\n\
                 expect draw 0 vs vs0\n\
                 imm vs_set_shader vs0\n\
                 imm draw 3 0\n\
                 expect draw 1 vs vs0\n\
                 expect counters draws=3 dispatches=0\n\
                 expect draw 1 ps.srv.0 null\n\
                 expect draw 5 vs null\n";
    let run = run(trace, &plain());
    assert_eq!(run.exit_code, 1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "trace:4: expected draw 0 vs vs0, found null");
    assert_eq!(
        lines[1],
        "trace:8: expected counters draws=3 dispatches=0, found draws=2 dispatches=0"
    );
    assert!(
        lines[2].starts_with("trace:9: expected draw 1 ps.srv.0 null, found no field ps.srv.0"),
        "{}",
        lines[2]
    );
    assert_eq!(
        lines[3],
        "trace:10: expected draw 5 vs null, found 2 draw records"
    );
    assert!(lines[4].starts_with("draws=2 "), "{}", lines[4]);
    assert!(lines[4].ends_with(" expectations=1/5"), "{}", lines[4]);
}

#[test]
fn expect_error_asks_about_the_last_call_on_a_context_and_expect_ok_about_all() {
    let trace = "device semantics=legacy\n\
                 buffer cb usage=default bind=constant size=64\n\
                 context dc semantics=legacy\n\
                 expect ok\n\
                 dc vs_set_constant_buffers 16 cb\n\
                 expect error dc invalid_argument\n\
                 dc draw 3 0\n\
                 expect error dc invalid_argument\n\
                 dc finish l\n\
                 expect error dc invalid_argument\n\
                 expect error l invalid_argument\n\
                 expect error imm invalid_argument\n\
                 expect ok\n";
    let run = run(trace, &plain());
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(run.exit_code, 1, "{}", run.stdout);
    assert_eq!(
        lines[0],
        "trace:8: expected error dc invalid_argument, found ok (the last call on it was accepted)"
    );
    assert_eq!(lines[1], "trace:12: expected error imm invalid_argument, found ok (the last call on it was accepted)");
    assert!(
        lines[2].starts_with("trace:13: expected ok, found invalid_argument on dc at line 5: "),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with("(and 1 more)"), "{}", lines[2]);
}

#[test]
fn numbers_compare_by_value_and_names_without_k_match_any_instance() {
    let trace = "device semantics=legacy\n\
                 buffer ib usage=default bind=index size=64\n\
                 buffer cb usage=dynamic bind=constant size=64\n\
                 texture t format=r8g8b8a8_unorm width=4 height=4 bind=shader_resource\n\
                 srv v t\n\
                 shader vs0 stage=vs cb=0 srv=0\n\
                 imm set_resource_min_lod t 2\n\
                 imm vs_set_shader vs0\n\
                 imm set_index_buffer ib r16_uint\n\
                 imm map cb write_discard\n\
                 imm unmap cb\n\
                 imm vs_set_constant_buffers 0 cb\n\
                 imm vs_set_shader_resources 0 v\n\
                 imm rs_set_viewports 0,0,64,32\n\
                 imm draw_indexed 3 0 -1\n\
                 expect draw 0 reset_index 65535\n\
                 expect draw 0 reset_index 0xffff\n\
                 expect draw 0 vs.srv.0.min_lod 2.0\n\
                 expect draw 0 vs.cb.0 cb\n\
                 expect draw 0 vs.cb.0 cb#1\n\
                 expect draw 0 viewport.0 0,0,64.0,32\n\
                 expect draw 0 args 3,0,-1\n\
                 expect draw 0 vs.cb.0 cb#2\n";
    let run = run(trace, &plain());
    assert_eq!(run.exit_code, 1);
    assert_eq!(
        run.stdout.lines().next(),
        Some("trace:23: expected draw 0 vs.cb.0 cb#2, found cb#1")
    );
    assert!(run.stdout.contains("expectations=7/8"), "{}", run.stdout);
}

#[test]
fn a_fence_waited_on_before_it_is_inserted_is_the_engines_refusal() {
    let trace = "device semantics=fast\n\
                 context dc semantics=fast\n\
                 dc insert_wait_on_fence later\n\
                 expect error dc invalid_argument\n\
                 imm insert_fence later\n\
                 dc insert_wait_on_fence later\n\
                 expect error dc invalid_argument\n";
    let run = run(trace, &threads(2));
    assert_eq!(run.exit_code, 1);
    assert_eq!(
        run.stdout.lines().next(),
        Some("trace:7: expected error dc invalid_argument, found ok (the last call on it was accepted)")
    );
}

#[test]
fn records_json_and_compare_outputs() {
    let trace = "device semantics=fast\nshader vs0 stage=vs\nimm vs_set_shader vs0\nimm draw 3 0\n";
    let records = run(
        trace,
        &ReplayOptions {
            records: true,
            ..plain()
        },
    );
    assert!(
        records.stdout.starts_with("0: draw vs=vs0 hs=null "),
        "{}",
        records.stdout
    );
    let json = run(
        trace,
        &ReplayOptions {
            json: true,
            records: true,
            ..plain()
        },
    );
    assert!(
        json.stdout.starts_with("{\"exit\":0,\"draws\":1,"),
        "{}",
        json.stdout
    );
    assert!(
        json.stdout.contains(
            "\"draw_records\":[{\"index\":0,\"kind\":\"draw\",\"fields\":{\"vs\":\"vs0\","
        ),
        "{}",
        json.stdout
    );
    assert!(json.stdout.ends_with("}\n"));
    let compared = run(trace, &compare());
    assert!(compared
        .stdout
        .starts_with("compare: 1 records identical to the reference\n"));
    // The digest does not depend on handles or threads: the same records, the same digest.
    let renamed = trace.replace("vs0", "other");
    assert_ne!(
        digest(&run(&renamed, &plain())),
        digest(&run(trace, &plain()))
    );
    assert_eq!(
        digest(&run(trace, &threads(3))),
        digest(&run(trace, &plain()))
    );
}

fn digest(run: &Replay) -> String {
    run.stdout
        .lines()
        .find(|l| l.starts_with("digest="))
        .unwrap_or("")
        .to_string()
}

/// An engine bug the replay found (fixed): after `execute_command_list(list, RestoreState::ClearState)` a legacy
/// immediate context's state is the ClearState defaults, but its recorder still shadowed the
/// bindings from before, so a later write_discard map of a buffer that was bound re-bound it
/// (R-ST-8's patch of a bound buffer), and the draw read a constant buffer nothing binds.
#[test]
fn r_st_2_legacy_immediate_context_forgets_its_bindings_after_execute_restore_no() {
    let trace = "device semantics=legacy\n\
                 buffer cb usage=dynamic bind=constant size=256\n\
                 shader vs0 stage=vs cb=0\n\
                 context dc semantics=legacy\n\
                 imm vs_set_shader vs0\n\
                 imm vs_set_constant_buffers 0 cb\n\
                 dc finish empty\n\
                 imm execute empty\n\
                 imm vs_set_shader vs0\n\
                 imm map cb write_discard\n\
                 imm unmap cb\n\
                 imm draw 3 0\n\
                 expect draw 0 vs.cb.0 null\n";
    let run = run(trace, &compare());
    assert_eq!(run.exit_code, 0, "{}", run.stdout);
}

/// An engine bug the replay found (fixed): a legacy context's carried state (R-ST-1, `finish
/// restore=yes`) lost the reset index a legacy index-buffer bind derived (R-ST-5): it
/// re-emitted the index buffer, then the last explicit `set_primitive_reset_index`, whatever
/// their order. Here the list's state ends with reset index 0xffff (the r16_uint bind came
/// after the explicit 2), and the next list must start with it.
#[test]
fn r_st_1_legacy_carried_state_keeps_the_reset_index_the_index_format_set() {
    let trace = "device semantics=fast\n\
                 buffer ib usage=default bind=index size=256\n\
                 context c0 semantics=legacy\n\
                 c0 set_primitive_reset_index 2\n\
                 c0 set_index_buffer ib r16_uint\n\
                 c0 finish first restore=yes\n\
                 c0 draw_indexed 3 0 0\n\
                 c0 finish second\n\
                 imm execute second\n\
                 expect draw 0 reset_index 0xffff\n";
    let run = run(trace, &compare());
    assert_eq!(run.exit_code, 0, "{}", run.stdout);
}

/// The same bug, the other way: an r16_uint bind then a null bind leave the register at
/// 0xffff; the carried state binds no index buffer, and the next list must still start there.
#[test]
fn r_st_1_legacy_carried_state_keeps_the_reset_index_after_an_unbind() {
    let trace = "device semantics=legacy\n\
                 buffer ib usage=default bind=index size=256\n\
                 context c0 semantics=legacy\n\
                 c0 set_index_buffer ib r16_uint\n\
                 c0 set_index_buffer null r16_uint\n\
                 c0 finish first restore=yes\n\
                 c0 draw 3 0\n\
                 c0 finish second\n\
                 imm execute second restore=yes\n\
                 expect draw 0 reset_index 0xffff\n";
    let run = run(trace, &compare());
    assert_eq!(run.exit_code, 0, "{}", run.stdout);
}

/// A call the replay itself refuses (executing a list whose finish failed) fails the recording
/// list like any refused call (R-REC-8): its finish is refused, and a `restore=yes` on it
/// carries nothing into the next list. (The replay used to discard the list but let the engine
/// carry its state; `--compare` found it.)
#[test]
fn r_rec_8_a_list_with_a_call_the_replay_refused_carries_no_state() {
    let trace = "device semantics=fast\n\
                 buffer sb usage=dynamic bind=shader_resource size=256\n\
                 srv sb_srv sb\n\
                 shader vs0 stage=vs cb=0\n\
                 context c0 semantics=legacy\n\
                 context c1 semantics=fast\n\
                 c1 ps_set_shader_resources 1 sb_srv\n\
                 c1 finish l29\n\
                 expect error c1 dynamic_before_map\n\
                 c0 vs_set_shader vs0\n\
                 c0 execute l29\n\
                 expect error c0 invalid_argument\n\
                 c0 finish l59 restore=yes\n\
                 expect error c0 invalid_argument\n\
                 c0 finish l62\n\
                 imm execute l62\n\
                 imm draw 2 0\n\
                 expect draw 0 vs null\n";
    let run = run(trace, &compare());
    assert_eq!(run.exit_code, 0, "{}", run.stdout);
}

/// Every construct of TRACE.md (the parser's test trace, whose expectations are nonsense)
/// replays: nothing is malformed for the replay, nothing panics, and the threaded and compared
/// runs print what the plain one prints.
#[test]
fn every_construct_of_trace_md_replays() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/trace_parse/every_construct.trace"),
    )
    .expect("every_construct.trace");
    let single = run(&text, &plain());
    assert_eq!(single.exit_code, 1, "{}{}", single.stdout, single.stderr);
    assert!(single.stderr.is_empty());
    assert_eq!(run(&text, &threads(2)), single);
    let compared = run(&text, &compare());
    assert!(
        compared.stdout.contains("identical to the reference"),
        "{}",
        compared.stdout
    );
}

/// Runs `body` on a thread with a 1 MB stack: room for any one call (a legacy recorder's
/// shadow state is built on the stack in a debug build), far too little for a walk that takes
/// a stack frame per nesting level.
fn on_small_stack<T: Send>(body: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("small-stack".into())
            .stack_size(1 << 20)
            .spawn_scoped(scope, body)
            .expect("spawn a small-stack thread")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

#[test]
fn r_rec_9_compare_follows_deep_nesting_without_recursion() {
    // The reference keeps one recorder per level of nesting (see reference.rs): 2,000 levels
    // are far beyond what a 1 MB stack holds of a recursive walk.
    const DEPTH: usize = 2_000;
    for semantics in ["fast", "legacy"] {
        let mut trace = format!(
            "device semantics={semantics} validation=on\n\
             shader vs0 stage=vs cb=0\n\
             buffer cb usage=default bind=constant size=64\n\
             context dc semantics={semantics}\n\
             dc vs_set_shader vs0\n\
             dc vs_set_constant_buffers 0 cb\n\
             dc draw 3 0\n\
             dc finish l0\n"
        );
        for level in 1..DEPTH {
            let restore = if semantics == "legacy" && level % 2 == 0 {
                " restore=yes"
            } else {
                ""
            };
            trace += &format!("dc execute l{}{restore}\ndc finish l{level}\n", level - 1);
        }
        trace += &format!("imm execute l{}\nexpect counters draws=1\n", DEPTH - 1);
        let compared = on_small_stack(|| run(&trace, &compare()));
        assert_eq!(compared.exit_code, 0, "{semantics}: {}", compared.stdout);
        assert!(
            compared.stdout.contains("identical to the reference"),
            "{semantics}: {}",
            compared.stdout
        );
    }
}

/// The replay's own refusals (a call naming an object the engine refused, a call of
/// the wrong kind of context, a buffer where a texture is needed, `imm finish LIST`) cite
/// TRACE.md's rule and the nearest requirement id, as the engine's refusals do.
#[test]
fn r_rec_8_the_replays_refusals_cite_their_requirement() {
    let cases = [
        (
            "buffer b usage=default bind=vertex size=0\nimm set_vertex_buffers 0 b\nexpect accepted imm\n",
            "R-REC-8",
        ),
        ("imm finish l\nexpect accepted imm\n", "R-REC-6"),
        (
            "context dc semantics=fast\ndc resume\nexpect accepted dc\n",
            "R-ST-4",
        ),
        (
            "buffer b usage=default bind=vertex size=64\nimm decompress_resource b\nexpect accepted imm\n",
            "R-REC-5",
        ),
        (
            "buffer b usage=default bind=vertex size=64\nimm set_resource_min_lod b 1\nexpect accepted imm\n",
            "R-REC-5",
        ),
    ];
    for (body, rule) in cases {
        let trace = format!("device semantics=fast\n{body}");
        let run = run(&trace, &plain());
        let first = run.stdout.lines().next().unwrap_or_default();
        assert!(
            first.contains("expected accepted") && first.contains(rule),
            "{trace}: the refusal cites no {rule}: {}",
            run.stdout
        );
    }
}

/// R-BAR-1 (docs/TRACE.md): `buffer` and `texture` take any resource name; a type that does not
/// fit is the engine's business (`invalid_barrier` from the GPU model, R-BAR-8), never a
/// malformed trace: the trace runs to its end, in every mode, and the same in each.
#[test]
fn r_bar_1_a_barrier_whose_type_does_not_fit_its_resource_is_not_a_malformed_trace() {
    for validation in ["", " validation=on"] {
        let trace = format!(
            "device semantics=legacy{validation}\n\
             buffer b usage=default bind=vertex size=64\n\
             texture t format=r8g8b8a8_unorm width=4 height=4 bind=render_target\n\
             context dc semantics=legacy\n\
             imm barrier buffer t sync=all:all access=common:common\n\
             imm barrier texture b sync=all:all access=common:common layout=common:common\n\
             dc barrier buffer t sync=all:all access=common:common\n\
             dc finish l\n\
             imm execute l\n\
             imm draw 3 0\n\
             expect counters draws=1\n"
        );
        let single = run(&trace, &plain());
        assert_eq!(single.exit_code, 0, "{}{}", single.stdout, single.stderr);
        assert_eq!(run(&trace, &threads(2)), single);
        let compared = run(&trace, &compare());
        assert_eq!(compared.exit_code, 0, "{}", compared.stdout);
    }
}

/// R-BAR-1: consecutive BARRIERs of one type form one group, each BARRIER one barrier of the
/// call; a bundle recorder refuses the call with `unsupported_in_bundle` (R-B-8), and it
/// records nothing there.
#[test]
fn r_bar_1_barrier_calls_count_every_barrier_and_bundles_refuse_them() {
    let trace = "device semantics=fast\n\
                 buffer b usage=default bind=unordered_access size=64\n\
                 texture t format=r8g8b8a8_unorm width=4 height=4 bind=render_target\n\
                 context dc semantics=fast\n\
                 bundle bun rt=r8g8b8a8_unorm\n\
                 imm barrier global sync=all:all access=common:common | global sync=all:all \
                 access=common:common | buffer b sync=all:all access=common:common | texture t \
                 sync=all:all access=common:common layout=common:common | global sync=all:all \
                 access=common:common\n\
                 expect counters barriers=5\n\
                 dc resource_barrier uav b\n\
                 dc barrier buffer b sync=all:all access=common:common | buffer b sync=all:all \
                 access=common:common\n\
                 dc finish l\n\
                 imm execute l\n\
                 imm execute l\n\
                 expect counters barriers=11\n\
                 bun barrier global sync=all:all access=common:common\n\
                 expect error bun unsupported_in_bundle\n\
                 bun resource_barrier aliasing null null\n\
                 expect error bun unsupported_in_bundle\n\
                 expect counters barriers=11\n";
    for options in [plain(), compare(), threads(2)] {
        let run = run(trace, &options);
        assert_eq!(
            run.exit_code, 0,
            "{options:?}: {}{}",
            run.stdout, run.stderr
        );
    }
}

/// `expect resource` of a buffer (docs/TRACE.md, as built): a buffer has no layout and is never
/// compressed, so `compressed=no` holds and every other key fails, saying why.
#[test]
fn r_bar_3_expect_resource_of_a_buffer_holds_only_compressed_no() {
    let trace = "device semantics=legacy\n\
                 buffer b usage=default bind=vertex size=64\n\
                 expect resource b compressed=no\n\
                 expect resource b\n\
                 expect resource b layout=common\n\
                 expect resource b compressed=yes\n\
                 expect resource b depth=decompressed\n";
    let run = run(trace, &plain());
    assert_eq!(run.exit_code, 1, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let why = "found buffer 'b', which has no layout and is never compressed (for a buffer only \
               compressed=no holds)";
    assert_eq!(
        lines[0],
        format!("trace:5: expected resource b layout=common, {why}")
    );
    assert_eq!(
        lines[1],
        format!("trace:6: expected resource b compressed=yes, {why}")
    );
    assert_eq!(
        lines[2],
        format!("trace:7: expected resource b depth=decompressed, {why}")
    );
    assert!(lines[3].ends_with(" expectations=2/5"), "{}", lines[3]);
}

/// `expect resource` of a texture: the GPU model's state, key by key (every texture starts in
/// `common`, R-BAR-3); a plane the format does not have, or a layout it is not in, fails with
/// what the model reports.
#[test]
fn r_bar_3_expect_resource_of_a_texture_reports_what_the_model_knows() {
    let trace = "device semantics=legacy\n\
                 texture t format=r8g8b8a8_unorm width=4 height=4 bind=render_target\n\
                 expect resource t layout=common compressed=no\n\
                 expect resource t layout=render_target compressed=no\n\
                 expect resource t layout=mixed\n\
                 expect resource t depth=compressed stencil=decompressed\n\
                 expect resource t layout=present\n";
    let run = run(trace, &plain());
    assert_eq!(run.exit_code, 1, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "trace:4: expected resource t layout=render_target compressed=no, found layout=common \
         compressed=no"
    );
    assert_eq!(
        lines[1],
        "trace:5: expected resource t layout=mixed, found layout=common"
    );
    assert_eq!(
        lines[2],
        "trace:6: expected resource t depth=compressed stencil=decompressed, found no depth \
         plane no stencil plane"
    );
    // `present` is `common`.
    assert!(lines[3].ends_with(" expectations=2/5"), "{}", lines[3]);
}

/// `expect resource` names a resource whose declaration the engine refused: it fails, saying
/// so, as `expect split_points` of a list whose finish was refused does.
#[test]
fn r_bar_3_expect_resource_of_a_refused_declaration_says_so() {
    let trace = "device semantics=legacy\n\
                 texture t format=r8g8b8a8_unorm width=0 height=4 bind=render_target\n\
                 expect resource t compressed=no\n";
    let run = run(trace, &plain());
    assert_eq!(run.exit_code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .starts_with("trace:3: expected resource t compressed=no, found no resource: its declaration was refused ("),
        "{}",
        run.stdout
    );
}

/// R-O-1 with R-BAR-3: the reference's GPU model knows a texture's facts (compressible, TC,
/// planes) as the engine's does, so a transition of a compressible target into `render_target`
/// compresses it in both (a whole-plane transition into a compressed layout), whether the
/// barrier is a direct call or in a list. Before, the reference's model had no device, treated
/// the texture as having no metadata, and disagreed (found by `random_traces_agree_with_the_reference`,
/// seed 12240194109890223387, 95 statements).
#[test]
fn r_o_1_the_reference_reads_a_barriers_texture_facts_from_its_device() {
    for (semantics, context) in [("fast", "imm"), ("legacy", "c1")] {
        let trace = format!(
            "device semantics={semantics}
texture rt format=r8g8b8a8_unorm width=16 height=16 bind=render_target,shader_resource
rtv rt_rtv rt
srv rt_srv rt
shader vs0 stage=vs
shader ps0 stage=ps srv=0
context c1 semantics=fast
{context} resource_barrier transition rt pixel_shader_resource+non_pixel_shader_resource render_target
{context} ps_set_shader_resources 0 rt_srv
{context} vs_set_shader vs0
{context} ps_set_shader ps0
{context} draw 3 0
c1 finish l1
imm execute l1
expect draw 0 ps.srv.0.compressed yes
"
        );
        let run = run(&trace, &compare());
        assert_eq!(
            run.exit_code, 0,
            "{semantics} {context}\n{}{}",
            run.stdout, run.stderr
        );
        assert!(
            run.stdout.contains("identical to the reference"),
            "{semantics} {context}\n{}",
            run.stdout
        );
    }
}

/// The replay's result carries the digest it prints (`digest=...`) and the number of records, so
/// a caller compares frames without parsing the text; a trace that does not run has none.
#[test]
fn r_cap_6_the_replay_result_carries_its_digest() {
    let trace = "device semantics=legacy\nshader vs0 stage=vs\ncontext w semantics=legacy\n\
                 w vs_set_shader vs0\nw draw 3 0\nw draw 3 0\nw finish l\nimm execute l\n";
    let result = run(trace, &plain());
    assert_eq!(result.exit_code, 0, "{}{}", result.stdout, result.stderr);
    let printed = result
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix("digest="))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|hex| u64::from_str_radix(hex, 16).ok());
    assert_eq!(result.digest, printed, "{}", result.stdout);
    assert_eq!(result.records, 2);
    let malformed = run("device semantics=sideways\n", &plain());
    assert_eq!(malformed.exit_code, 2);
    assert_eq!(malformed.digest, None);
}
