//! `replay TRACE [--compare] [--threads N] [--records] [--json]`: runs a trace against the
//! engine and checks its expectations (TRACE.md). Exit codes: 0 every expectation held, 1 one
//! failed (or `--compare` found a difference), 2 the trace is malformed or unreadable.

use std::io::Write;
use std::process::ExitCode;

use executor::trace::{replay, ReplayOptions};

const USAGE: &str = "usage: replay TRACE [--compare] [--threads N] [--records] [--json]";

fn main() -> ExitCode {
    let (options, path) = match ReplayOptions::from_args(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("replay: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let trace = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("replay: {}: {error}", path.display());
            return ExitCode::from(2);
        }
    };
    let run = replay(&trace, &options);
    let _ = std::io::stdout().write_all(run.stdout.as_bytes());
    let _ = std::io::stderr().write_all(run.stderr.as_bytes());
    ExitCode::from(run.exit_code.clamp(0, 255) as u8)
}
