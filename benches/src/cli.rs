//! What the command-line front ends (`frame`, `splitpoints`, `workload`, the `renderer` example,
//! the peer comparison) share: their options read one way ([`Args`]), option values checked
//! with messages naming the option (a file to write: [`output_file`], one rule for every front
//! end), durations printed alike, printing
//! that ends the program quietly when its output is a closed pipe ([`out!`](crate::out),
//! [`outln!`](crate::outln)), and the progress line of a phase that runs long
//! ([`PhaseProgress`]).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use executor::GpuTiming;

/// A command line's options, one at a time: `--name VALUE` or `--name=VALUE`, `-h` / `--help`
/// anywhere. The front ends' loops read them so, each matching the names it knows.
///
/// ```
/// use benches::cli::{Arg, Args};
///
/// let line = ["--draws=400", "--threads", "2", "--json"].map(String::from);
/// let mut args = Args::new(line.into_iter());
/// let mut seen = Vec::new();
/// while let Some(arg) = args.next_arg() {
///     let Arg::Option(name) = arg.unwrap() else { unreachable!() };
///     let value = match name.as_str() {
///         "--json" => args.no_value(&name).map(|()| "yes".to_string()),
///         _ => args.value(&name),
///     };
///     seen.push(format!("{name}={}", value.unwrap()));
/// }
/// assert_eq!(seen, ["--draws=400", "--threads=2", "--json=yes"]);
/// let mut help = Args::new(["--draws", "4", "-h"].map(String::from).into_iter());
/// assert!(matches!(help.next_arg(), Some(Ok(Arg::Option(_)))));
/// assert_eq!(help.value("--draws").unwrap(), "4");
/// assert!(matches!(help.next_arg(), Some(Ok(Arg::Help))));
/// ```
pub struct Args<I: Iterator<Item = String>> {
    args: I,
    /// The value written after `=` of the option just read, if any.
    inline: Option<String>,
}

/// What [`Args::next_arg`] read.
#[derive(Debug, PartialEq, Eq)]
pub enum Arg {
    /// `-h` or `--help`.
    Help,
    /// An option, by its name (`--draws`); its value, if it takes one, comes from
    /// [`Args::value`].
    Option(String),
}

impl<I: Iterator<Item = String>> Args<I> {
    /// The options of `args` (the program's name left out).
    pub fn new(args: I) -> Self {
        Self { args, inline: None }
    }

    /// The next option, or `Err` naming an argument that is not one.
    pub fn next_arg(&mut self) -> Option<Result<Arg, String>> {
        let arg = self.args.next()?;
        if arg == "-h" || arg == "--help" {
            return Some(Ok(Arg::Help));
        }
        if !arg.starts_with("--") {
            return Some(Err(format!("unexpected argument '{arg}'")));
        }
        Some(Ok(match arg.split_once('=') {
            Some((name, value)) => {
                self.inline = Some(value.to_string());
                Arg::Option(name.to_string())
            }
            None => {
                self.inline = None;
                Arg::Option(arg)
            }
        }))
    }

    /// The value of option `name` just read: after its `=`, or the next argument.
    pub fn value(&mut self, name: &str) -> Result<String, String> {
        self.inline
            .take()
            .or_else(|| self.args.next())
            .ok_or_else(|| format!("{name} needs a value"))
    }

    /// Option `name` just read takes no value: `Err` if one was written after `=`.
    pub fn no_value(&mut self, name: &str) -> Result<(), String> {
        match self.inline.take() {
            Some(_) => Err(format!("{name} takes no value")),
            None => Ok(()),
        }
    }
}

/// A whole number from `min` to `max`, for option `name`.
pub fn count(name: &str, text: &str, min: u32, max: u32) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{name}: '{text}' is not a whole number from {min} to {max}"
        )),
    }
}

/// The value of an option that names a file the front end writes (`frame --capture`,
/// `splitpoints --json` and `--svg`, the renderer's `--capture`): one rule for every front end,
/// a file name in a folder that exists. A missing folder is refused, here, before the run does
/// any work; no front end makes folders (a typo in a path would otherwise leave a stray tree
/// and a report that says "wrote").
pub fn output_file(option: &str, value: &str) -> Result<PathBuf, String> {
    if value.is_empty() {
        return Err(format!("{option}: the file name is empty"));
    }
    let path = PathBuf::from(value);
    if path.file_name().is_none() {
        return Err(format!(
            "{option}: '{value}' names no file (it ends in a folder)"
        ));
    }
    output_folder_exists(option, &path)?;
    Ok(path)
}

/// `Err` naming `option` when the folder `path` would be written in does not exist (a default
/// path, checked when the run is about to write, as [`output_file`] checks a given one).
pub fn output_folder_exists(option: &str, path: &Path) -> Result<(), String> {
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(folder) if !folder.is_dir() => Err(format!(
            "{option}: the folder '{}' of '{}' does not exist (no front end makes folders: \
             make it first, or name a file in a folder that exists)",
            folder.display(),
            path.display()
        )),
        _ => Ok(()),
    }
}

/// A number from 0 to 1, for option `name`.
pub fn fraction(name: &str, text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("{name}: '{text}' is not a number from 0 to 1")),
    }
}

/// `--semantics legacy|fast|both`: the semantics to run, in run order.
pub fn semantics_choice(text: &str) -> Result<Vec<recorder::Semantics>, String> {
    use recorder::Semantics::{Fast, Legacy};
    match text {
        "legacy" => Ok(vec![Legacy]),
        "fast" => Ok(vec![Fast]),
        "both" => Ok(vec![Legacy, Fast]),
        other => Err(format!(
            "--semantics: '{other}' is not legacy, fast or both"
        )),
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

/// A progress line on stderr for a phase that may run long: silent for its first
/// [`QUIET`](Self::QUIET) of work, then at most one line every [`EVERY`](Self::EVERY), such as
/// `recording fast semantics: 1,200,000 / 2,000,000 draws (3.1 s)`. The time is the phase's own:
/// a phase that alternates with another (recording and executing, frame after frame) runs between
/// [`resume`](Self::resume) and [`pause`](Self::pause). Shared by the workers of the phase;
/// [`advance`](Self::advance) is called once per job of work, outside the timed calls.
pub struct PhaseProgress {
    phase: String,
    unit: &'static str,
    total: u64,
    done: AtomicU64,
    base: Instant,
    /// Nanoseconds spent in the phase before its current stretch.
    spent_ns: AtomicU64,
    /// When the current stretch began, in nanoseconds since `base`; `PAUSED` between stretches.
    stretch_ns: AtomicU64,
    /// When the last line was printed, in nanoseconds since `base`; 0 before the first.
    last_line_ns: AtomicU64,
}

impl PhaseProgress {
    /// How long a phase runs before its first line.
    pub const QUIET: Duration = Duration::from_secs(2);
    /// The least time between two lines.
    pub const EVERY: Duration = Duration::from_secs(1);
    const PAUSED: u64 = u64::MAX;

    /// A phase not started yet (see [`resume`](Self::resume)).
    pub fn new(phase: impl Into<String>, unit: &'static str, total: u64) -> Self {
        Self {
            phase: phase.into(),
            unit,
            total,
            done: AtomicU64::new(0),
            base: Instant::now(),
            spent_ns: AtomicU64::new(0),
            stretch_ns: AtomicU64::new(Self::PAUSED),
            last_line_ns: AtomicU64::new(0),
        }
    }

    fn now_ns(&self) -> u64 {
        self.base.elapsed().as_nanos() as u64
    }

    /// The phase runs again (or for the first time).
    pub fn resume(&self) {
        self.stretch_ns.store(self.now_ns(), Ordering::Relaxed);
    }

    /// The phase stops running until the next [`resume`](Self::resume).
    pub fn pause(&self) {
        let began = self.stretch_ns.swap(Self::PAUSED, Ordering::Relaxed);
        if began != Self::PAUSED {
            let stretch = self.now_ns().saturating_sub(began);
            self.spent_ns.fetch_add(stretch, Ordering::Relaxed);
        }
    }

    /// `units` more are done; prints the line when it is due (one thread prints it).
    pub fn advance(&self, units: u64) {
        let done = self.done.fetch_add(units, Ordering::Relaxed) + units;
        let now = self.now_ns();
        let began = self.stretch_ns.load(Ordering::Relaxed);
        let running = if began == Self::PAUSED {
            0
        } else {
            now.saturating_sub(began)
        };
        let spent = self.spent_ns.load(Ordering::Relaxed) + running;
        if spent < Self::QUIET.as_nanos() as u64 {
            return;
        }
        let last = self.last_line_ns.load(Ordering::Relaxed);
        if last != 0 && now < last + Self::EVERY.as_nanos() as u64 {
            return;
        }
        let claimed =
            self.last_line_ns
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed);
        if claimed.is_ok() {
            eprintln!(
                "{}: {} / {} {} ({:.1} s)",
                self.phase,
                grouped(done),
                grouped(self.total),
                self.unit,
                spent as f64 / 1e9
            );
        }
    }
}

/// `n` with its thousands separated by commas: 1,200,000.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `text` as a JSON string, escaped as `replay --json` escapes it (the front ends write their
/// JSON by hand: no serde).
pub fn json_string(text: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
