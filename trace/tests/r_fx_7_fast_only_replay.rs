//! R-FX-7 under the `fast-only` build: every conformance trace that declares no legacy context
//! (and a fast device) replays unchanged in the three modes (plain, `--compare`, `--threads 2`),
//! its expectations holding, and a trace that declares a legacy context has that declaration
//! refused, naming the feature. CI runs it:
//!
//! ```text
//! cargo test -p trace --features fast-only --test r_fx_7_fast_only_replay
//! ```
#![cfg(feature = "fast-only")]

use trace::{replay, ReplayOptions};

fn all_fast_traces() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces");
    let mut traces: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("the conformance traces")
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "trace"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a trace");
            (path.display().to_string(), text)
        })
        .filter(|(_, text)| {
            let fast_device = text
                .lines()
                .find(|l| l.starts_with("device "))
                .is_some_and(|l| l.contains("semantics=fast"));
            fast_device && !text.contains("semantics=legacy")
        })
        .collect();
    traces.sort();
    traces
}

#[test]
fn r_fx_7_fast_traces_replay_unchanged_in_the_fast_only_build() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces");
    let traces = all_fast_traces();
    assert!(
        traces
            .iter()
            .any(|(path, _)| path.ends_with("r_fx_7_fast_only.trace")),
        "the R-FX-7 trace is among them: {traces:?}"
    );
    for (path, text) in &traces {
        // The files a trace names (R-GPU-2) are relative to its folder.
        let base = ReplayOptions {
            trace_dir: Some(dir.into()),
            ..ReplayOptions::default()
        };
        let plain = replay(text.as_bytes(), &base);
        assert_eq!(
            plain.exit_code, 0,
            "{path}: {}{}",
            plain.stdout, plain.stderr
        );
        let compare = ReplayOptions {
            compare: true,
            ..base.clone()
        };
        let compared = replay(text.as_bytes(), &compare);
        assert_eq!(
            compared.exit_code, 0,
            "{path} --compare: {}",
            compared.stdout
        );
        let threads = ReplayOptions {
            threads: 2,
            ..base.clone()
        };
        let threaded = replay(text.as_bytes(), &threads);
        assert_eq!(threaded.stdout, plain.stdout, "{path} --threads 2");
    }
}

#[test]
fn r_fx_7_legacy_context_declaration_refused_naming_the_feature() {
    let trace = "device semantics=fast\ncontext old semantics=legacy\nexpect ok\n";
    let replayed = replay(trace.as_bytes(), &ReplayOptions::default());
    assert_eq!(replayed.exit_code, 1, "{}", replayed.stdout);
    assert!(
        replayed.stdout.contains("fast-only"),
        "the refusal names the feature: {}",
        replayed.stdout
    );
}
