//! The frame demo's barrier mode (SPEC §9): fast lists synchronise the passes with enhanced
//! barriers, the demo prints the barrier counters, and under `--hazards` (validation=hazards)
//! the correct frame runs to the end with nothing reported.

use std::process::Command;

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

#[test]
fn frame_barriers_mode_runs_clean_under_hazard_validation_and_prints_the_counters() {
    let common = [
        "--draws",
        "400",
        "--frames",
        "1",
        "--semantics",
        "fast",
        "--bundles",
        "off",
    ];
    let (status, stdout, stderr) = frame(&[&common[..], &["--barriers", "--hazards"]].concat());
    assert_eq!(status, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    // Four passes: each makes two texture barriers at its start and three buffer barriers
    // around its UAV pass.
    assert!(stdout.contains("  20 barriers:"), "{stdout}");
    // The bundles mode draws with the same barriers, and runs clean too.
    let (status, stdout, stderr) = frame(&[
        "--draws",
        "400",
        "--frames",
        "1",
        "--semantics",
        "fast",
        "--barriers",
        "--hazards",
    ]);
    assert_eq!(status, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    let (status, stdout, _) = frame(&common);
    assert_eq!(status, Some(0));
    assert!(
        !stdout.contains(" barriers:"),
        "no barriers without --barriers: {stdout}"
    );
}

#[test]
fn frame_barrier_flags_take_no_value() {
    let (status, _, stderr) = frame(&["--barriers=on"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("--barriers takes no value"), "{stderr}");
}
