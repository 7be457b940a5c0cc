//! The three replay modes every conformance trace and captured frame must agree in (plain,
//! `--compare`, `--threads 2`), and the capture round trip (R-CAP-6): one place for the tests
//! that replay a trace or a captured frame. Included by `common/mod.rs`, and by path from the
//! tests that do not use the fixture.

#![allow(dead_code)]

use trace::capture::CapturedFrame;
use trace::{replay, ReplayOptions};

/// Plain, `--compare`, `--threads 2`.
pub fn three_modes() -> [ReplayOptions; 3] {
    [
        ReplayOptions::default(),
        ReplayOptions {
            compare: true,
            ..Default::default()
        },
        ReplayOptions {
            threads: 2,
            ..Default::default()
        },
    ]
}

/// The `digest=` a replay printed.
pub fn digest_of(stdout: &str) -> Option<u64> {
    let at = stdout.find("digest=")? + "digest=".len();
    u64::from_str_radix(stdout.get(at..at + 16)?, 16).ok()
}

/// Replays `frame`'s trace in the three modes: each exits 0 with the live frame's digest.
pub fn assert_round_trip(frame: &CapturedFrame) {
    for options in three_modes() {
        let run = replay(
            frame.trace.as_bytes(),
            &ReplayOptions {
                records: true,
                ..options.clone()
            },
        );
        assert_eq!(
            (run.exit_code, digest_of(&run.stdout)),
            (0, Some(frame.digest)),
            "{options:?}\n{}\nlive records:\n{}\n{}{}",
            frame.trace,
            frame.record_lines.join("\n"),
            run.stdout,
            run.stderr
        );
    }
}

/// Replays `trace` in the three modes: each exits 0 (its expectations hold, `--compare` finds
/// the reference's records).
pub fn assert_holds_in_three_modes(trace: &str) {
    for options in three_modes() {
        let run = replay(trace.as_bytes(), &options);
        assert_eq!(
            run.exit_code, 0,
            "{options:?}\n{trace}\n{}{}",
            run.stdout, run.stderr
        );
    }
}
