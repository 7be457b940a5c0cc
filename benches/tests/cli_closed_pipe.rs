//! The command-line tools end quietly when their standard output is a closed pipe
//! (`frame | head -1`): status 0 and no panic message, as Unix filters do.
//!
//! Each tool is spawned with its standard output the write end of a pipe whose read end is
//! already closed, so its very first write fails with `EPIPE` (Rust ignores `SIGPIPE`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs `program` with `args`, its standard output a pipe nobody reads; (status, stderr).
fn run_into_closed_pipe(program: &Path, args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("the tool runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn assert_quiet(tool: &str, (status, stderr): (Option<i32>, String)) {
    assert!(
        !stderr.contains("panicked") && !stderr.contains("failed printing"),
        "{tool} panicked on a closed pipe:\n{stderr}"
    );
    assert_eq!(
        status,
        Some(0),
        "{tool} on a closed pipe; stderr:\n{stderr}"
    );
}

#[test]
fn cli_closed_pipe_frame_exits_quietly_with_status_0() {
    let frame = Path::new(env!("CARGO_BIN_EXE_frame"));
    let small = [
        "--draws",
        "64",
        "--frames",
        "1",
        "--materials",
        "4",
        "--meshes",
        "8",
    ];
    assert_quiet("frame", run_into_closed_pipe(frame, &small));
    assert_quiet("frame --help", run_into_closed_pipe(frame, &["--help"]));
}

/// The `renderer` example, built next to the `frame` binary (`target/PROFILE/examples/`). Built
/// here (a no-op when it is fresh): `cargo test --test cli_closed_pipe` builds no example, and
/// an old one would be tested instead.
fn renderer() -> PathBuf {
    let frame = Path::new(env!("CARGO_BIN_EXE_frame"));
    let profile = frame.parent().expect("target/PROFILE");
    let path = profile
        .join("examples")
        .join(format!("renderer{}", std::env::consts::EXE_SUFFIX));
    {
        let release = profile.file_name().is_some_and(|n| n == "release");
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "-q", "-p", "benches", "--example", "renderer"]);
        if release {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "building the renderer example");
    }
    path
}

#[test]
fn cli_closed_pipe_renderer_example_exits_quietly_with_status_0() {
    let renderer = renderer();
    let small = ["--draws", "64", "--jobs", "2", "--frames", "1"];
    assert_quiet("renderer", run_into_closed_pipe(&renderer, &small));
    assert_quiet(
        "renderer --help",
        run_into_closed_pipe(&renderer, &["--help"]),
    );
}
