//! `replay TRACE|- [--compare] [--threads N] [--records] [--json]`: runs a trace against the
//! engine and checks its expectations (docs/TRACE.md). Exit codes: 0 every expectation held, 1
//! one failed (or `--compare` found a difference), 2 the trace is malformed or unreadable.
//!
//! A closed standard output (`replay t.trace --records | head -1`) ends the output quietly:
//! nothing more is printed, no message, and the exit code is still the verdict's.

use std::io::{Read as _, Write};
use std::process::ExitCode;

use trace::{replay, Args, ReplayOptions, TraceSource, USAGE};

fn main() -> ExitCode {
    trace::event_output::install("replay");
    let (options, source) = match ReplayOptions::from_args(std::env::args().skip(1)) {
        Ok(Args::Run { options, trace }) => (options, trace),
        Ok(Args::Help) => {
            write_quietly(&mut std::io::stdout(), &format!("{USAGE}\n"));
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            let first = USAGE.lines().next().unwrap_or("");
            eprintln!("replay: {message}\n{first}\nRun `replay --help` for the options.");
            return ExitCode::from(2);
        }
    };
    let read = match &source {
        TraceSource::File(path) => {
            std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))
        }
        TraceSource::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map(|_| bytes)
                .map_err(|error| format!("standard input: {error}"))
        }
    };
    let trace = match read {
        Ok(bytes) => bytes,
        Err(message) => {
            eprintln!("replay: {message}");
            return ExitCode::from(2);
        }
    };
    #[cfg(feature = "vulkan")]
    let options = with_vulkan(options);
    let run = replay(&trace, &options);
    write_quietly(&mut std::io::stdout(), &run.stdout);
    write_quietly(&mut std::io::stderr(), &run.stderr);
    ExitCode::from(run.exit_code.clamp(0, 255) as u8)
}

/// `--backend vulkan`: a factory of the Vulkan backend for the replay's device, which writes
/// each present as `DIR/CHAIN.N.png` under `--png DIR` (R-GPU-5).
#[cfg(feature = "vulkan")]
fn with_vulkan(mut options: trace::ReplayOptions) -> trace::ReplayOptions {
    use std::sync::Arc;
    use vulkan_backend::{VulkanBackend, VulkanOptions};

    if options.backend_name.as_deref() != Some("vulkan") {
        return options;
    }
    let png = options.png.clone();
    options.backend = Some(trace::BackendFactory(Arc::new(move |device| {
        // `expect query` lines are the model's values: get_data keeps answering with them.
        let vulkan = VulkanOptions {
            png_dir: png.clone(),
            gpu_query_results: false,
            ..VulkanOptions::default()
        };
        let backend = VulkanBackend::new(device, vulkan).map_err(|error| error.to_string())?;
        Ok(Box::new(backend) as Box<dyn executor::GpuBackend>)
    })));
    options
}

/// Writes `text` and flushes; a write error (a closed pipe: the reader is gone) drops the rest
/// of the output without a message, as a Unix filter does.
fn write_quietly(out: &mut impl Write, text: &str) {
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}
