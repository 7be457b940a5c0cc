//! One rule for every front end that writes a file (`frame --capture`, `splitpoints --json` and
//! `--svg`, their defaults included): the file's folder must exist. A missing one is refused
//! with a message naming the option and the folder, before the run does any work, and no
//! folder is made (`benches::cli::output_file`).

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
