//! R-BAR-8's warnings reach the user of a binary: `replay` installs the workspace's event output
//! (`trace::event_output`), so what the engine reports through `tracing` is printed on standard
//! error, warnings by default; `RUST_LOG` chooses the level (`off` silences it), and a
//! `RUST_LOG` that does not parse is said, naming the program, with warnings kept on. Standard
//! output (the verdict) is the same whatever the level. `frame`, `splitpoints` and `workload`
//! install the same output (`benches/tests/cli_output_files.rs`).

use std::process::{Command, Output, Stdio};

const REPLAY: &str = env!("CARGO_BIN_EXE_replay");

/// Under validation, a texture barrier naming a buffer: refused (`invalid_barrier`), and the
/// engine warns with the barrier described (R-BAR-8).
const TRACE: &str = "device semantics=fast validation=on
buffer data usage=default bind=shader_resource,unordered_access size=256
imm barrier texture data sync=all:all access=common:common layout=common:common
expect error imm invalid_barrier
";

fn replay(rust_log: Option<&str>) -> Output {
    let folder = std::env::temp_dir().join(format!("r-bar-8-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let file = folder.join("warn.trace");
    std::fs::write(&file, TRACE).expect("the trace is written");
    let mut command = Command::new(REPLAY);
    command.arg(&file).stdin(Stdio::null());
    match rust_log {
        Some(level) => command.env("RUST_LOG", level),
        None => command.env_remove("RUST_LOG"),
    };
    let output = command.output().expect("replay runs");
    let _ = std::fs::remove_dir_all(&folder);
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn r_bar_8_replay_prints_the_engines_warnings_on_standard_error_by_default() {
    let shown = replay(None);
    let stderr = text(&shown.stderr);
    assert_eq!(shown.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("WARN") && stderr.contains("a texture barrier names a buffer"),
        "{stderr}"
    );
    assert!(stderr.contains("(R-BAR-8)"), "{stderr}");
    assert!(stderr.contains("pResource:    buffer 'data'"), "{stderr}");

    let silent = replay(Some("off"));
    assert_eq!(silent.status.code(), Some(0));
    assert!(silent.stderr.is_empty(), "{}", text(&silent.stderr));
    assert_eq!(
        silent.stdout, shown.stdout,
        "the level changes standard output"
    );

    let errors_only = replay(Some("error"));
    assert!(
        errors_only.stderr.is_empty(),
        "{}",
        text(&errors_only.stderr)
    );

    let bad = replay(Some("[["));
    let stderr = text(&bad.stderr);
    assert_eq!(bad.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("replay: RUST_LOG '[[' is not a filter"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a texture barrier names a buffer"),
        "{stderr}"
    );
}
