//! What the command-line front ends (`frame`, the `renderer` example) share: option values
//! checked with messages naming the option, durations printed alike, and printing that ends
//! the program quietly when its output is a closed pipe ([`out!`](crate::out),
//! [`outln!`](crate::outln)).

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use executor::GpuTiming;

/// A whole number from `min` to `max`, for option `name`.
pub fn count(name: &str, text: &str, min: u32, max: u32) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{name}: '{text}' is not a whole number from {min} to {max}"
        )),
    }
}

/// A number from 0 to 1, for option `name`.
pub fn fraction(name: &str, text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("{name}: '{text}' is not a number from 0 to 1")),
    }
}

/// `--gpu inline|threaded|detached`: where the GPU model runs.
pub fn gpu_timing(text: &str) -> Result<GpuTiming, String> {
    match text {
        "inline" => Ok(GpuTiming::Inline),
        "threaded" => Ok(GpuTiming::Threaded),
        "detached" => Ok(GpuTiming::Detached),
        other => Err(format!(
            "--gpu: '{other}' is not inline, threaded or detached"
        )),
    }
}

/// Milliseconds with three decimals.
pub fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// Writes to standard output. A closed pipe (`frame | head -1`: the reader went away) ends the
/// program at once with status 0 and no message, as a Unix filter does; any other write error
/// ends it with status 1 and the error. `println!` would panic instead ("failed printing to
/// stdout"): Rust ignores `SIGPIPE`, so the write returns `EPIPE`.
pub fn write_stdout(text: std::fmt::Arguments<'_>) {
    let Err(error) = std::io::stdout().lock().write_fmt(text) else {
        return;
    };
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("standard output: {error}");
    std::process::exit(1);
}

/// `print!` through [`write_stdout`]: quiet on a closed pipe.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` through [`write_stdout`]: quiet on a closed pipe.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::cli::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// The end of a front end's `main`: `parsed` is what its option parser made of the arguments
/// (`Ok(None)`: `--help`, which prints `help`), `run` runs the options. Exit code 0 when it ran,
/// 2 for bad arguments (the message, then where the options are), 1 when the run failed; every
/// message starts with the front end's `name`.
pub fn finish_main<O, E: std::fmt::Display>(
    name: &str,
    help: &str,
    parsed: Result<Option<O>, String>,
    run: impl FnOnce(&O) -> Result<(), E>,
) -> ExitCode {
    let options = match parsed {
        Ok(Some(options)) => options,
        Ok(None) => {
            crate::outln!("{help}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("{name}: {message}\nRun `{name} --help` for the options.");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{name}: {error}");
            ExitCode::FAILURE
        }
    }
}
