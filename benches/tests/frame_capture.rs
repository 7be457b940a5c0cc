//! `frame --capture FILE` (SPEC §13, R-CAP-6): each run of the frame demo (legacy
//! lists, fast lists, bundles) writes the frame after its timed frames as a trace and prints
//! `capture MODE: wrote PATH (BYTES bytes): digest=D records=N`; replaying each file gives the
//! same digest, on the main thread, with `--compare` (the reference agrees) and with
//! `--threads 2`. A frame that executes a list recorded before the capture began is reported as
//! not captured, and the next frame is.

use std::path::{Path, PathBuf};
use std::process::Command;

use trace::{replay, ReplayOptions};

/// (exit status, stdout, stderr) of the frame demo with `args`.
fn frame(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_frame"))
        .args(args)
        .output()
        .expect("the frame demo runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh folder for one test's files.
fn folder(test: &str) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("the test's folder");
    folder
}

/// One `capture MODE: wrote PATH (BYTES bytes): digest=D records=N` line.
#[derive(Debug, PartialEq)]
struct Written {
    mode: String,
    path: PathBuf,
    bytes: u64,
    digest: u64,
    records: usize,
}

/// The `capture MODE: wrote ...` lines of `stderr`, in order.
fn written(stderr: &str) -> Vec<Written> {
    stderr
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("capture ")?;
            let (mode, rest) = rest.split_once(": wrote ")?;
            let (path, rest) = rest.rsplit_once(" (")?;
            let (bytes, rest) = rest.split_once(" bytes): digest=")?;
            let (digest, records) = rest.split_once(" records=")?;
            Some(Written {
                mode: mode.to_string(),
                path: PathBuf::from(path),
                bytes: bytes.parse().ok()?,
                digest: u64::from_str_radix(digest, 16).ok()?,
                records: records.parse().ok()?,
            })
        })
        .collect()
}

/// The digest `replay` printed.
fn digest_of(stdout: &str) -> Option<u64> {
    let at = stdout.find("digest=")? + "digest=".len();
    u64::from_str_radix(stdout.get(at..at + 16)?, 16).ok()
}

/// Replays each file in the three modes and checks exit code 0 and the printed digest.
fn assert_replays(files: &[Written]) {
    for file in files {
        let trace = std::fs::read(&file.path).expect("the capture's file");
        assert_eq!(trace.len() as u64, file.bytes, "{file:?}");
        let modes = [
            ("default", ReplayOptions::default()),
            (
                "--compare",
                ReplayOptions {
                    compare: true,
                    ..Default::default()
                },
            ),
            (
                "--threads 2",
                ReplayOptions {
                    threads: 2,
                    ..Default::default()
                },
            ),
        ];
        for (name, options) in modes {
            let run = replay(&trace, &options);
            assert_eq!(
                run.exit_code, 0,
                "{} replayed {name}:\n{}{}",
                file.mode, run.stdout, run.stderr
            );
            assert_eq!(
                digest_of(&run.stdout),
                Some(file.digest),
                "{} replayed {name}:\n{}",
                file.mode,
                run.stdout
            );
            assert!(
                run.stdout.contains(&format!("records={}", file.records)),
                "{} replayed {name}: {}",
                file.mode,
                run.stdout
            );
        }
    }
}

const SMALL: [&str; 4] = ["--draws", "400", "--frames", "1"];

#[test]
fn r_cap_6_frame_capture_replays() {
    let dir = folder("r_cap_6_frame_capture_replays");
    let file = dir.join("f.trace");
    let file = file.to_str().expect("a UTF-8 path");
    let (status, _, stderr) = frame(&[&SMALL[..], &["--capture", file]].concat());
    assert_eq!(status, Some(0), "{stderr}");
    let files = written(&stderr);
    let modes: Vec<&str> = files.iter().map(|f| f.mode.as_str()).collect();
    assert_eq!(modes, ["legacy", "fast", "bundles"], "{stderr}");
    for f in &files {
        assert_eq!(f.path, dir.join(format!("f.{}.trace", f.mode)));
        assert_eq!(f.records, 400, "every draw of the frame: {f:?}");
    }
    assert!(!stderr.contains("not captured"), "{stderr}");
    assert_replays(&files);
}

#[test]
fn r_cap_6_frame_capture_replays_legacy_with_bundles() {
    let dir = folder("r_cap_6_frame_capture_replays_legacy_with_bundles");
    let file = dir.join("legacy.trace");
    let file = file.to_str().expect("a UTF-8 path");
    let args = [&SMALL[..], &["--semantics", "legacy", "--capture", file]].concat();
    let (status, _, stderr) = frame(&args);
    assert_eq!(status, Some(0), "{stderr}");
    let files = written(&stderr);
    let modes: Vec<&str> = files.iter().map(|f| f.mode.as_str()).collect();
    assert_eq!(modes, ["legacy", "bundles"], "{stderr}");
    assert_replays(&files);
}

#[test]
fn r_cap_5_a_stale_list_fails_the_frame_and_the_next_one_is_captured() {
    let dir = folder("r_cap_5_a_stale_list_fails_the_frame");
    let file = dir.join("fast.trace");
    let file = file.to_str().expect("a UTF-8 path");
    // One worker: a dynamic buffer's instances are numbered as the maps come, so with two
    // workers racing two runs need not give the same digest; with one they must (below).
    let args = [
        &SMALL[..],
        &["--threads", "1", "--semantics", "fast", "--bundles", "off"],
        &["--capture", file, "--capture-stale-list"],
    ]
    .concat();
    let (status, _, stderr) = frame(&args);
    assert_eq!(status, Some(0), "{stderr}");
    // One run: the file itself. The failure comes first, naming the list and the rule.
    let failed = stderr
        .lines()
        .position(|l| l.starts_with("capture fast: frame ") && l.contains("not captured"))
        .unwrap_or_else(|| panic!("no failure reported:\n{stderr}"));
    let line = stderr.lines().nth(failed).unwrap_or_default();
    assert!(line.contains("recorded before the capture began"), "{line}");
    assert!(line.contains("tries the next frame"), "{line}");
    let files = written(&stderr);
    assert_eq!(files.len(), 1, "{stderr}");
    assert_eq!(files[0].path, PathBuf::from(file));
    let wrote = stderr
        .lines()
        .position(|l| l.starts_with("capture fast: wrote "))
        .unwrap_or(0);
    assert!(wrote > failed, "the frame after the failed one: {stderr}");
    assert_replays(&files);

    // The same frame without the stale list: the same draws, the same digest.
    let again = dir.join("again.trace");
    let again = again.to_str().expect("a UTF-8 path");
    let args = [
        &SMALL[..],
        &["--threads", "1", "--semantics", "fast", "--bundles", "off"],
        &["--capture", again],
    ]
    .concat();
    let (status, _, stderr) = frame(&args);
    assert_eq!(status, Some(0), "{stderr}");
    let again = written(&stderr);
    assert_eq!(again.len(), 1, "{stderr}");
    assert_eq!(again[0].digest, files[0].digest, "{stderr}");
}

#[test]
fn capture_options_are_checked_before_the_run() {
    let (status, _, stderr) = frame(&["--capture-stale-list"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("--capture-stale-list: needs --capture"),
        "{stderr}"
    );
    let (status, _, stderr) = frame(&["--capture", "no/such/folder/f.trace"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("--capture:"), "{stderr}");
    assert!(stderr.contains("does not exist"), "{stderr}");
    let (status, _, stderr) = frame(&["--capture"]);
    assert_eq!(status, Some(2), "{stderr}");
    // Nothing to take the digest of: no GPU model, no draw records.
    let (status, _, stderr) = frame(&["--capture", "f.trace", "--gpu", "detached"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("--gpu detached"), "{stderr}");
}
