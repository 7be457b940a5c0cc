//! R-TOOL-1: the split-point harness's counts are the engine's. Every scenario, under both
//! semantics, is run through the harness's engine driver; its trace, with the driver's counts
//! appended as expectations, is replayed by `trace::replay` (alone, with `--compare`
//! and with `--threads 2`), which must agree (exit code 0); the same trace with one count off by
//! one must fail (exit code 1). And each scenario has the split points its description
//! promises.

use benches::splitpoints::{expected_trace, scenario_names, Counts, Options};
use recorder::{Semantics, SplitCategory};
use trace::{replay, Args, ReplayOptions};

/// Small sizes: the whole file runs in seconds in a debug build.
fn small() -> Options {
    Options {
        objects: 40,
        dynamic: 0.25,
        passes: 3,
        threads: 2,
        frames: 1,
    }
}

const BOTH: [Semantics; 2] = [Semantics::Legacy, Semantics::Fast];

fn replay_with(trace: &str, args: &str) -> trace::Replay {
    let line = format!("- {args}");
    let Ok(Args::Run { options, .. }) =
        ReplayOptions::from_args(line.split_whitespace().map(String::from))
    else {
        panic!("replay options '{args}' did not parse");
    };
    replay(trace.as_bytes(), &options)
}

#[test]
fn r_tool_1_every_scenario_counts_what_its_trace_replays() {
    for name in scenario_names() {
        for semantics in BOTH {
            let (trace, counts) = expected_trace(name, semantics, &small())
                .unwrap_or_else(|e| panic!("{name} ({}): {e}", semantics.name()));
            assert!(
                counts.gpu.draws + counts.gpu.dispatches > 0,
                "{name}: no work"
            );
            for args in ["", "--compare", "--threads 2"] {
                let run = replay_with(&trace, args);
                assert_eq!(
                    run.exit_code,
                    0,
                    "{name} ({}) replay {args}:\n{}{}\n--- trace ---\n{trace}",
                    semantics.name(),
                    run.stdout,
                    run.stderr
                );
            }
        }
    }
}

/// Changes the first `KEY=N` after `prefix` in the trace's last line that starts with `prefix`
/// to `KEY=N+1`.
fn off_by_one(trace: &str, prefix: &str, key: &str) -> String {
    let mut lines: Vec<String> = trace.lines().map(String::from).collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts with '{prefix}'"));
    let line = &lines[at];
    let start = line
        .find(&format!(" {key}="))
        .unwrap_or_else(|| panic!("no {key}= in '{line}'"))
        + key.len()
        + 2;
    let end = line[start..].find(' ').map_or(line.len(), |n| start + n);
    let value: u64 = line[start..end].parse().expect("a count");
    lines[at] = format!("{}{}{}", &line[..start], value + 1, &line[end..]);
    lines.join("\n") + "\n"
}

#[test]
fn r_tool_1_a_count_off_by_one_fails_the_replay() {
    let (trace, _) = expected_trace("post_compressible", Semantics::Legacy, &small()).unwrap();
    assert_eq!(replay_with(&trace, "").exit_code, 0);
    for (prefix, key) in [
        ("expect counters", "split_points_resolved"),
        ("expect counters", "ib_executions"),
        ("expect counters", "decompressions"),
        ("expect counters", "context_rolls"),
        ("expect split_points", "decompression"),
        ("expect split_points", "total"),
    ] {
        let wrong = off_by_one(&trace, prefix, key);
        assert_ne!(wrong, trace);
        let run = replay_with(&wrong, "");
        assert_eq!(run.exit_code, 1, "{prefix} {key}+1 was not caught");
        assert!(run.stdout.contains("expected"), "{}", run.stdout);
    }
}

fn counts(name: &str, semantics: Semantics, options: &Options) -> Counts {
    expected_trace(name, semantics, options)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .1
}

#[test]
fn r_tool_1_scenarios_have_the_split_points_they_promise() {
    use SplitCategory::*;
    let options = small();
    let dynamic = (options.objects as f64 * options.dynamic as f64).floor() as u32;
    let passes = options.passes;
    let threads = options.threads;
    for name in scenario_names() {
        let fast = counts(name, Semantics::Fast, &options);
        assert_eq!(fast.recorded.total(), 0, "{name} fast: {}", fast.recorded);
        assert_eq!(fast.gpu.split_points_resolved.total(), 0, "{name} fast");
        let legacy = counts(name, Semantics::Legacy, &options);
        assert_eq!(
            legacy.recorded, legacy.gpu.split_points_resolved,
            "{name}: every list runs once, so what is recorded is resolved"
        );
        let r = &legacy.recorded;
        let dynamics = r[DynamicConstantBuffer] + r[DynamicVertexBuffer] + r[DynamicIndexBuffer];
        match name {
            "static" => {
                assert_eq!(r[SetRenderTargets], threads, "{r}");
                assert_eq!(r.total(), threads, "{r}");
            }
            "dynamic_cb" => {
                assert!(dynamic > 0);
                assert_eq!(r[DynamicConstantBuffer], dynamic, "{r}");
                assert_eq!(r.total(), threads + dynamic, "{r}");
            }
            "dynamic_cb_mapped" | "default_no_overwrite" | "placement" => {
                assert_eq!(dynamics, 0, "{r}");
                assert_eq!(r.total(), threads, "{r}");
            }
            "render_targets" => {
                assert_eq!(r[SetRenderTargets], passes * threads, "{r}");
                assert_eq!(r[ClearRenderTarget], passes, "{r}");
                assert_eq!(r[ClearDepthStencil], passes, "{r}");
                assert_eq!(r[SetDepthStencilState], options.objects, "{r}");
            }
            "post_compressible" | "post_explicit" | "post_barriers" | "predicated" => {
                assert_eq!(r[Decompression], passes, "{r}");
                assert_eq!(r[ClearRenderTarget], passes, "{r}");
            }
            "post_tc" => {
                assert_eq!(r[Decompression], 0, "{r}");
                assert_eq!(r[ClearRenderTarget], passes, "{r}");
            }
            "uav_passes" => {
                assert_eq!(r[SetUnorderedAccessViews], passes * threads, "{r}");
                assert_eq!(r.total(), passes * threads, "{r}");
            }
            other => panic!("scenario {other} has no promise checked here"),
        }
        if name != "uav_passes" {
            assert!(legacy.gpu.draws > 0);
        }
    }
    // Where the decompressions happen: at the split points of post_compressible, by the
    // list's own decompress_resource in post_explicit, nowhere for post_tc.
    let compressible = counts("post_compressible", Semantics::Legacy, &options);
    let explicit = counts("post_explicit", Semantics::Legacy, &options);
    let tc = counts("post_tc", Semantics::Legacy, &options);
    assert_eq!(compressible.gpu.decompressions, passes as u64);
    assert_eq!(explicit.gpu.decompressions, passes as u64);
    assert_eq!(tc.gpu.decompressions, 0);
    // post_barriers: the render_target -> shader_resource barriers decompress, under both
    // semantics; legacy's split points then find nothing to decompress (R-BAR-3, R-SP-4).
    for semantics in BOTH {
        let barriers = counts("post_barriers", semantics, &options);
        assert_eq!(
            barriers.gpu.decompressions,
            passes as u64,
            "{}",
            semantics.name()
        );
        assert_eq!(
            barriers.gpu.barriers,
            2 * passes as u64 + 1,
            "{}",
            semantics.name()
        );
        assert_eq!(
            barriers.gpu.metadata_inits,
            passes as u64 + 1,
            "{}",
            semantics.name()
        );
    }
    // Each split point resolved inside the predicated scope rolls the context (R-SP-4).
    let predicated = counts("predicated", Semantics::Legacy, &options);
    assert!(
        predicated.gpu.context_rolls >= compressible.gpu.context_rolls + 3 * passes as u64,
        "predicated {} rolls, unpredicated {}",
        predicated.gpu.context_rolls,
        compressible.gpu.context_rolls
    );
    assert!(predicated.gpu.context_rolls >= predicated.gpu.split_points_resolved.total() as u64);
}

/// The fast frames keep the fast contract: validation (R-V-1) finds no compressed read, no
/// released object, nothing else, and counts what the run without validation counted. Hazard
/// validation (R-V-2) asks for enhanced barriers most scenarios do not make (their render
/// passes decompress explicitly, as the frame demo does without `--barriers`, and the
/// dispatches of a compute pass write disjoint parts of its buffer, which the model cannot
/// know); `post_barriers` makes them, and passes it.
#[test]
fn r_tool_1_fast_frames_keep_the_fast_contract_under_validation() {
    use benches::splitpoints::{scenario, validate};
    use recorder::Validation;
    for name in scenario_names() {
        let frame = scenario(name).unwrap().frame(Semantics::Fast, &small());
        let counts = validate(&frame, Validation::On)
            .unwrap_or_else(|e| panic!("{name} under validation: {e}"));
        assert_eq!(counts.recorded.total(), 0);
        assert!(counts.same_report(&counts_of(name, Semantics::Fast)));
    }
    let frame = scenario("post_barriers")
        .unwrap()
        .frame(Semantics::Fast, &small());
    let counts = validate(&frame, Validation::Hazards)
        .unwrap_or_else(|e| panic!("post_barriers under hazard validation: {e}"));
    assert!(counts.same_report(&counts_of("post_barriers", Semantics::Fast)));
    let frame = scenario("post_explicit")
        .unwrap()
        .frame(Semantics::Fast, &small());
    assert!(
        validate(&frame, Validation::Hazards).is_err(),
        "without barriers hazard validation reports the post passes' reads"
    );
}

fn counts_of(name: &str, semantics: Semantics) -> Counts {
    counts(name, semantics, &small())
}

/// R-TOOL-2 on the harness: the advisor's edit of a scenario's trace counts what the scenario
/// the harness builds with that fix counts: `dynamic_cb` with its buffers mapped in the list
/// is `dynamic_cb_mapped`, on default buffers written in place `default_no_overwrite`, and
/// `post_compressible` on texture-compatible targets is `post_tc`.
#[test]
fn r_tool_2_a_fix_of_the_advisor_counts_what_the_scenario_built_with_it_counts() {
    use trace::explain::{explain, Fix};
    let options = small();
    for (scenario, fix, fixed) in [
        ("dynamic_cb", Fix::MapInList, "dynamic_cb_mapped"),
        (
            "dynamic_cb",
            Fix::DefaultNoOverwrite,
            "default_no_overwrite",
        ),
        ("dynamic_cb", Fix::Placement, "placement"),
        ("post_compressible", Fix::TextureCompatible, "post_tc"),
    ] {
        let trace = benches::splitpoints::scenario_trace(scenario, Semantics::Legacy, &options)
            .unwrap_or_else(|e| panic!("{scenario}: {e}"));
        let advice = explain(trace.as_bytes()).unwrap_or_else(|e| panic!("{scenario}: {e}"));
        assert_eq!(
            advice.baseline.recorded,
            counts(scenario, Semantics::Legacy, &options).recorded
        );
        let outcome = advice
            .fixes
            .iter()
            .find(|o| o.fix == fix)
            .unwrap_or_else(|| panic!("{fix} applies to {scenario}"));
        let built = counts(fixed, Semantics::Legacy, &options);
        assert_eq!(
            outcome.after.recorded, built.recorded,
            "{scenario} with {fix} against {fixed}: split points recorded"
        );
        assert_eq!(
            outcome.after.resolved, built.gpu.split_points_resolved,
            "{scenario} with {fix} against {fixed}: split points resolved"
        );
        assert_eq!(
            outcome.after.ib_executions, built.gpu.ib_executions,
            "{scenario} {fix}"
        );
        assert_eq!(
            outcome.after.decompressions, built.gpu.decompressions,
            "{scenario} {fix}"
        );
        assert!(outcome.after.recorded.total() < advice.baseline.recorded.total());
    }
}

mod command {
    //! The `splitpoints` command: its outputs, its trace, its refusals.

    use std::path::Path;
    use std::process::{Command, Output};

    use super::replay_with;

    const SMALL: [&str; 8] = [
        "--objects",
        "24",
        "--passes",
        "2",
        "--threads",
        "2",
        "--frames",
        "1",
    ];

    fn splitpoints(args: &[&str]) -> Output {
        Command::new(Path::new(env!("CARGO_BIN_EXE_splitpoints")))
            .args(args)
            .output()
            .expect("splitpoints runs")
    }

    fn text(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }

    #[test]
    fn r_tool_1_the_command_prints_the_tables_and_writes_the_json_and_the_picture() {
        let folder = std::env::temp_dir().join(format!("splitpoints-test-{}", std::process::id()));
        // The folder exists: the front ends make none (`benches::cli::output_file`).
        std::fs::create_dir_all(folder.join("out")).expect("a temporary folder");
        let json = folder.join("out/run.json");
        let svg = folder.join("out/run.svg");
        let (json_arg, svg_arg) = (json.display().to_string(), svg.display().to_string());
        let mut args = SMALL.to_vec();
        args.extend(["--json", &json_arg, "--svg", &svg_arg]);
        let run = splitpoints(&args);
        let stdout = text(&run.stdout);
        assert_eq!(run.status.code(), Some(0), "{stdout}{}", text(&run.stderr));
        for name in benches::splitpoints::scenario_names() {
            for semantics in ["legacy", "fast"] {
                assert!(
                    stdout.contains(&format!("{name} ({semantics}): ")),
                    "{name}"
                );
            }
        }
        assert!(stdout.contains("summary"));
        assert!(stdout.contains(&format!("wrote {json_arg}")));
        let json = std::fs::read_to_string(&json).expect("the JSON was written");
        assert!(json.starts_with("{\"options\":{\"objects\":24,"), "{json}");
        let scenarios = benches::splitpoints::scenario_names().count();
        assert_eq!(scenarios, 12);
        assert_eq!(json.matches("\"scenario\":").count(), 2 * scenarios);
        let svg = std::fs::read_to_string(&svg).expect("the picture was written");
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("dynamic_constant_buffer") && svg.contains("predicated"));
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn r_tool_1_json_to_standard_output_sends_the_tables_to_standard_error() {
        let folder = std::env::temp_dir().join(format!("splitpoints-json-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        let svg = folder.join("run.svg").display().to_string();
        let mut args = SMALL.to_vec();
        args.extend([
            "--scenarios",
            "static,post_tc",
            "--json",
            "-",
            "--svg",
            &svg,
        ]);
        let run = splitpoints(&args);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
        assert!(stdout.starts_with("{\"options\":"), "{stdout}");
        assert_eq!(stdout.matches("\"scenario\":").count(), 4);
        assert!(stderr.contains("post_tc (legacy): ") && stderr.contains("summary"));
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn r_tool_1_the_trace_the_command_prints_replays() {
        let mut args = SMALL.to_vec();
        args.extend(["--trace", "dynamic_cb", "--semantics", "legacy"]);
        let run = splitpoints(&args);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        let trace = text(&run.stdout);
        assert!(trace.contains("\ndevice semantics=legacy\n"), "{trace}");
        assert!(trace.contains("imm map object."), "{trace}");
        assert_eq!(replay_with(&trace, "").exit_code, 0);
        let list = splitpoints(&["--list"]);
        assert_eq!(list.status.code(), Some(0));
        let scenarios = benches::splitpoints::scenario_names().count();
        assert_eq!(text(&list.stdout).lines().count(), scenarios);
    }

    #[test]
    fn r_tool_2_explain_names_each_scenarios_split_points_and_their_fixes() {
        let mut args = SMALL.to_vec();
        args.extend(["--explain", "--scenarios", "dynamic_cb,render_targets"]);
        let run = splitpoints(&args);
        let out = text(&run.stdout);
        assert!(run.status.success(), "{out}{}", text(&run.stderr));
        assert!(out.contains("== dynamic_cb (legacy)"), "{out}");
        assert!(out.contains("== render_targets (legacy)"), "{out}");
        assert!(out.contains("fix map_in_list:"), "{out}");
        assert!(out.contains("fix fewer_state_changes:"), "{out}");
        assert!(out.contains("-> dynamic_constant_buffer "), "{out}");
        assert!(!out.contains("(fast)"), "legacy only by default: {out}");
        args.extend(["--json", "-"]);
        let json = text(&splitpoints(&args).stdout);
        assert!(json.starts_with("{\"options\":"), "{json}");
        assert_eq!(json.matches("\"advice\":{").count(), 2, "{json}");
        let refused = splitpoints(&["--explain", "--trace", "static"]);
        assert_eq!(refused.status.code(), Some(2));
        assert!(text(&refused.stderr).contains("--explain and --trace"));
    }

    #[test]
    fn r_tool_1_bad_arguments_exit_2_naming_the_option() {
        for (args, says) in [
            (&["--objects", "0"][..], "--objects"),
            (&["--dynamic", "1.5"][..], "--dynamic"),
            (&["--threads", "49"][..], "--threads"),
            (
                &["--scenarios", "static,nope"][..],
                "no scenario called 'nope'",
            ),
            (&["--scenarios", "static,static"][..], "named twice"),
            (
                &["--trace", "static", "--semantics", "both"][..],
                "--semantics",
            ),
            (&["--semantics", "quick"][..], "--semantics"),
            (&["--svg", "-"][..], "--svg"),
            (&["--frames"][..], "--frames needs a value"),
            (&["--colour"][..], "unknown option"),
        ] {
            let run = splitpoints(args);
            let stderr = text(&run.stderr);
            assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(says), "{args:?}: {stderr}");
        }
    }
}
