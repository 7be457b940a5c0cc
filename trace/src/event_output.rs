//! The binaries' event output: what the engine reports through `tracing` (R-BAR-8's barrier
//! warnings, refused barriers, lists dropped unexecuted, the jobs' and recorders' debug events)
//! reaches the user on standard error. One function for every binary of the workspace
//! (`replay` here; `frame`, `splitpoints` and `workload` in `benches`, which depends on this
//! crate): it lives here because this is the one crate every binary's package depends on that
//! the engine (`recorder`, `executor`, `bundles`) does not, so the engine stays free of a
//! subscriber and a library user installs their own.
//!
//! **Levels.** `RUST_LOG` chooses them, in `tracing-subscriber`'s `EnvFilter` syntax (`debug`,
//! `executor=debug,warn`, `off`); unset or empty, warnings and errors are shown. A `RUST_LOG`
//! that does not parse is said once, on standard error, naming the program, and the default is
//! kept. **Output.** One line an event on standard error (standard output stays the program's:
//! tables, JSON, traces), no colours, no time stamp (runs are compared as text).

use tracing_subscriber::filter::{EnvFilter, LevelFilter};

/// Installs the event output for the binary `program` (named in the message about a bad
/// `RUST_LOG`). Once per process: a second call, or one after another subscriber was set,
/// changes nothing.
pub fn install(program: &str) {
    let builder = EnvFilter::builder().with_default_directive(LevelFilter::WARN.into());
    let filter = match std::env::var("RUST_LOG") {
        Ok(text) if !text.trim().is_empty() => builder.parse(&text).unwrap_or_else(|error| {
            eprintln!("{program}: RUST_LOG '{text}' is not a filter ({error}); showing warnings");
            EnvFilter::default().add_directive(LevelFilter::WARN.into())
        }),
        _ => builder.parse_lossy(""),
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .without_time()
        .try_init();
}
