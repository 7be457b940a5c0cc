//! The `replay` command's command line (TRACE.md "The command"; docs/TRACE.md): `--help`, `-`
//! for standard input, `--threads=N`, where each record came from under `--records`, records
//! and failures as JSON objects, and a quiet end on a closed pipe. The binary itself is run
//! where the process matters (help, standard input, pipes); the library where the output does.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use trace::{replay, Args, Replay, ReplayOptions};

const REPLAY: &str = env!("CARGO_BIN_EXE_replay");

fn command(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(REPLAY)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("replay runs");
    let mut input = child.stdin.take().expect("stdin");
    // The command may end before reading (`--help`): a closed pipe here is no failure.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("replay ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A trace file under the test's own temporary folder.
fn trace_file(name: &str, trace: &str) -> std::path::PathBuf {
    let folder = std::env::temp_dir().join(format!("replay_command_{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("temporary folder");
    let path = folder.join(name);
    std::fs::write(&path, trace).expect("trace written");
    path
}

const SMALL: &str = "device semantics=fast\n\
                     shader vs0 stage=vs\n\
                     imm vs_set_shader vs0\n\
                     imm draw 3 0\n\
                     expect draw 0 vs vs0\n";

#[test]
fn replay_help_prints_the_usage_and_exits_0() {
    for flag in ["--help", "-h"] {
        let out = command(&[flag], "");
        assert_eq!(out.status.code(), Some(0), "{flag}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.starts_with("usage: replay TRACE|- [--compare] [--threads N]"),
            "{stdout}"
        );
        for option in [
            "--compare",
            "--threads",
            "--records",
            "--json",
            "docs/TRACE.md",
        ] {
            assert!(stdout.contains(option), "{option} in {stdout}");
        }
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    }
    // Help wins over anything else on the line, a missing trace included.
    let out = command(&["no_such.trace", "--help"], "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn replay_stdin_dash_reads_the_trace_from_standard_input() {
    let from_stdin = command(&["-", "--records"], SMALL);
    let path = trace_file("small.trace", SMALL);
    let from_file = command(&[path.to_str().expect("utf-8 path"), "--records"], "");
    assert_eq!(
        from_stdin.status.code(),
        Some(0),
        "{}",
        text(&from_stdin.stderr)
    );
    assert_eq!(from_stdin.stdout, from_file.stdout);
    assert!(text(&from_stdin.stdout).contains("expectations=1/1"));
    // A malformed trace on standard input: exit 2, `trace:LINE:` as for a file.
    let broken = command(&["-"], "device semantics=fast\nimm draw 3\n");
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        text(&broken.stderr).starts_with("trace:2: "),
        "{}",
        text(&broken.stderr)
    );
}

#[test]
fn replay_threads_equals_form_is_accepted_like_threads_space_n() {
    let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let joined = ReplayOptions::from_args(args(&["t.trace", "--threads=3"])).expect("parses");
    let spaced = ReplayOptions::from_args(args(&["t.trace", "--threads", "3"])).expect("parses");
    assert_eq!(joined, spaced);
    let Args::Run { options, .. } = joined else {
        panic!("a run, not help");
    };
    assert_eq!(options.threads, 3);
    assert!(ReplayOptions::from_args(args(&["t.trace", "--threads=x"])).is_err());
    assert!(ReplayOptions::from_args(args(&["t.trace", "--threads="])).is_err());
    let out = command(&["-", "--threads=2"], SMALL);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, command(&["-"], SMALL).stdout);
}

/// Direct draws, a bundle called on `imm`, a list executed twice that calls a bundle and
/// executes a nested list.
const ORIGINS: &str = "device semantics=fast\n\
    texture colour format=r8g8b8a8_unorm width=4 height=4 bind=render_target\n\
    rtv colour_rtv colour\n\
    shader vs0 stage=vs\n\
    input_layout layout\n\
    bundle b0 rt=r8g8b8a8_unorm\n\
    b0 set_input_layout layout\n\
    b0 vs_set_shader vs0\n\
    b0 hs_set_shader null\n\
    b0 ds_set_shader null\n\
    b0 gs_set_shader null\n\
    b0 ps_set_shader null\n\
    b0 draw 3 0\n\
    b0 draw 6 0\n\
    b0 finish\n\
    context inner_dc semantics=fast\n\
    inner_dc dispatch 1 1 1\n\
    inner_dc finish inner\n\
    context dc semantics=fast\n\
    dc draw 9 0\n\
    dc draw_bundle b0\n\
    dc execute inner\n\
    dc finish outer\n\
    imm om_set_render_targets colour_rtv null\n\
    imm draw 1 0\n\
    imm draw_bundle b0\n\
    imm execute outer\n\
    imm draw 2 0\n\
    imm execute outer\n";

fn records(trace: &str, threads: usize) -> Replay {
    replay(
        trace.as_bytes(),
        &ReplayOptions {
            records: true,
            threads,
            ..ReplayOptions::default()
        },
    )
}

#[test]
fn replay_records_say_where_each_record_came_from() {
    let run = records(ORIGINS, 0);
    assert_eq!(run.exit_code, 0, "{run:?}");
    let origins: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(": draw ") || l.contains(": dispatch "))
        .map(|l| l.split_once("  # ").map_or("", |(_, origin)| origin))
        .collect();
    assert_eq!(
        origins,
        [
            "line 25",
            "line 13, bundle b0 called on line 26",
            "line 14, bundle b0 called on line 26",
            "line 20, execution 1 of list outer on line 27",
            "line 13, bundle b0 called on line 21, execution 1 of list outer on line 27",
            "line 14, bundle b0 called on line 21, execution 1 of list outer on line 27",
            "line 17, list inner executed on line 22, execution 1 of list outer on line 27",
            "line 28",
            "line 20, execution 2 of list outer on line 29",
            "line 13, bundle b0 called on line 21, execution 2 of list outer on line 29",
            "line 14, bundle b0 called on line 21, execution 2 of list outer on line 29",
            "line 17, list inner executed on line 22, execution 2 of list outer on line 29",
        ]
    );
    // The origins are not records: the digest is what it is without them.
    let plain = replay(ORIGINS.as_bytes(), &ReplayOptions::default());
    let digest = |r: &Replay| r.stdout.lines().last().unwrap_or("").to_string();
    assert_eq!(digest(&run), digest(&plain));
    // And the threaded run prints exactly the same.
    assert_eq!(records(ORIGINS, 3), run);
}

#[test]
fn replay_json_holds_records_and_failures_as_objects() {
    let trace = format!("{ORIGINS}expect draw 0 args 2,0\nexpect accepted imm\n");
    let options = ReplayOptions {
        json: true,
        records: true,
        ..ReplayOptions::default()
    };
    let run = replay(trace.as_bytes(), &options);
    assert_eq!(run.exit_code, 1, "{run:?}");
    let json = &run.stdout;
    assert!(
        json.contains(
            "\"failures\":[{\"line\":30,\"expected\":\"draw 0 args 2,0\",\"found\":\"1,0\"}]"
        ),
        "{json}"
    );
    assert!(
        json.contains(
            "\"draw_records\":[{\"index\":0,\"kind\":\"draw\",\"fields\":{\"vs\":\"null\","
        ),
        "{json}"
    );
    assert!(
        json.contains("\"args\":\"1,0\"},\"from\":{\"line\":25,\"via\":[]}},"),
        "{json}"
    );
    assert!(
        json.contains(
            "\"from\":{\"line\":13,\"via\":[{\"bundle\":\"b0\",\"line\":21},\
             {\"list\":\"outer\",\"execution\":1,\"line\":27}]}"
        ),
        "{json}"
    );
    assert!(json.ends_with("}\n"));
    let threaded = replay(
        trace.as_bytes(),
        &ReplayOptions {
            threads: 2,
            ..options.clone()
        },
    );
    assert_eq!(threaded, run);
}

#[test]
fn cli_closed_pipe_replay_exits_quietly_with_status_0() {
    let path = trace_file("origins.trace", ORIGINS);
    for args in [
        vec![path.to_str().expect("utf-8 path"), "--records"],
        vec!["--help"],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(REPLAY)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("replay runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "{args:?}: {}", text(&out.stderr));
    }
}

/// R-BAR-2: the summary line prints what the barriers cost when barriers ran, and nothing more
/// when none did.
#[test]
fn replay_summary_prints_the_barrier_counters_when_barriers_ran() {
    let trace = "device semantics=fast\n\
                 texture t format=r8g8b8a8_unorm width=4 height=4 bind=render_target,shader_resource\n\
                 imm barrier texture t sync=none:render_target access=no_access:render_target layout=undefined:render_target discard\n";
    let with = text(&command(&["-"], trace).stdout);
    assert!(
        with.contains(" barriers=1 drains=") && with.contains(" metadata_inits=1 "),
        "{with}"
    );
    let without = text(&command(&["-"], "device semantics=fast\n").stdout);
    assert!(!without.contains("barriers="), "{without}");
}
