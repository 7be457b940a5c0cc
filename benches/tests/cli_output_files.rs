//! The front ends' shared rules. One rule for every front end that writes a file (`frame
//! --capture`, `splitpoints --json` and `--svg`, their defaults included): the file's folder
//! must exist. A missing one is refused with a message naming the option and the folder, before
//! the run does any work, and no folder is made (`benches::cli::output_file`). And every front
//! end shows the engine's `tracing` events on standard error as `RUST_LOG` chooses, warnings by
//! default (`trace::event_output`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder of the test's own that does not exist, and a file in a folder under it.
fn missing(tag: &str) -> (PathBuf, String) {
    let folder = std::env::temp_dir().join(format!("cli-output-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let file = folder.join("dir").join("x.out").display().to_string();
    (folder, file)
}

fn run(program: &str, args: &[&str], cwd: Option<&Path>) -> Output {
    let mut command = Command::new(program);
    command.args(args);
    if let Some(cwd) = cwd {
        command.current_dir(cwd);
    }
    command.output().expect("the front end runs")
}

fn assert_refused(what: &str, output: &Output, option: &str, status: i32, folder: &Path) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(status), "{what}: {stderr}");
    assert!(
        stderr.contains(&format!("{option}: the folder '")) && stderr.contains("does not exist"),
        "{what}: {stderr}"
    );
    assert!(
        !folder.exists(),
        "{what} made the folder {}",
        folder.display()
    );
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("wrote"),
        "{what}"
    );
}

#[test]
fn cli_every_front_end_refuses_a_file_in_a_missing_folder_and_makes_none() {
    let splitpoints = env!("CARGO_BIN_EXE_splitpoints");
    let small = ["--objects", "24", "--passes", "2", "--frames", "1"];
    for option in ["--svg", "--json"] {
        let (folder, file) = missing(&option[2..]);
        let args = [&small[..], &[option, &file]].concat();
        let output = run(splitpoints, &args, None);
        assert_refused(
            &format!("splitpoints {option}"),
            &output,
            option,
            2,
            &folder,
        );
    }
    let (folder, file) = missing("capture");
    let output = run(
        env!("CARGO_BIN_EXE_frame"),
        &["--draws", "64", "--frames", "1", "--capture", &file],
        None,
    );
    assert_refused("frame --capture", &output, "--capture", 2, &folder);
}

#[test]
fn cli_splitpoints_refuses_its_default_files_where_no_target_folder_is() {
    // Run where `target/` does not exist: the default `target/splitpoints.json` is refused
    // before any scenario runs, and no `target/` is made.
    let (cwd, _) = missing("default");
    std::fs::create_dir_all(&cwd).expect("a temporary folder");
    let output = run(
        env!("CARGO_BIN_EXE_splitpoints"),
        &["--objects", "24", "--passes", "2", "--frames", "1"],
        Some(&cwd),
    );
    assert_refused(
        "splitpoints (defaults)",
        &output,
        "--json",
        1,
        &cwd.join("target"),
    );
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("summary"),
        "the scenarios ran before the refusal"
    );
    let _ = std::fs::remove_dir_all(&cwd);
}

/// Every front end installs the workspace's event output (`trace::event_output`): a bad
/// `RUST_LOG` is said naming the program, and `RUST_LOG=debug` shows the engine's events on
/// standard error.
#[test]
fn cli_every_front_end_shows_the_engines_events_as_rust_log_chooses() {
    let with_log = |program: &str, args: &[&str], level: &str| {
        let output = Command::new(program)
            .args(args)
            .env("RUST_LOG", level)
            .output()
            .expect("the front end runs");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let tools = [
        ("frame", env!("CARGO_BIN_EXE_frame"), &["--help"][..]),
        (
            "splitpoints",
            env!("CARGO_BIN_EXE_splitpoints"),
            &["--list"],
        ),
        ("workload", env!("CARGO_BIN_EXE_workload"), &["--help"]),
    ];
    for (name, program, args) in tools {
        let (status, stderr) = with_log(program, args, "[[");
        assert_eq!(status, Some(0), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("{name}: RUST_LOG '[[' is not a filter")),
            "{name}: {stderr}"
        );
    }
    let small = ["--draws", "64", "--frames", "1", "--semantics", "fast"];
    let (status, stderr) = with_log(env!("CARGO_BIN_EXE_frame"), &small, "debug");
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains("DEBUG") && stderr.contains("finish_command_list"),
        "{stderr}"
    );
    let (_, quiet) = with_log(env!("CARGO_BIN_EXE_frame"), &small, "warn");
    assert!(!quiet.contains("DEBUG"), "{quiet}");
}
