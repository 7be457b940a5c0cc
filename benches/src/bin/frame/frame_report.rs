//! The frame demo's report: what each part of the run measured, held once and printed twice,
//! as the human summary ([`fmt::Display`] on each part, printed as the part finishes) and as
//! `--json` (one object at the end, `report_json.rs`). Nothing is computed for one form alone: a rate
//! or ratio is a [`Derived`], made once, that the summary prints with its decimals and the JSON
//! as a number.
//!
//! **When a derived number means nothing.** Two cases, each decided once, in [`Derived`]:
//!
//! 1. *Threads competed for cores* ([`Machine::contended`]): the recording workers, plus the GPU
//!    model's thread under `--gpu threaded` (it consumes frame k while the workers record frame
//!    k+1), outnumber the cores. A worker's recording time is then wall time on a thread that
//!    was not always running, so every rate or ratio made from recording times (ns per call,
//!    calls per second, fast against legacy, bundles against lists, the frames that repay the
//!    bundles) is not given: the summary prints `-` or says why, the JSON gives `null`, and a
//!    warning with the numbers heads both. The times themselves are still printed: they are
//!    what was measured. (The main thread only waits for the workers while they record, and
//!    execution runs after them, so neither counts.)
//! 2. *Too small to divide by*: a count of zero, or a time under [`MIN_TIME`], where the
//!    clock's resolution is much of the measurement; the ratio would be noise, inf or NaN.
//!
//! Counts (draws, bytes, split points, the GPU model's counters) and the averages made of counts
//! alone (bytes per draw, bytes per bundle) are deterministic for a given scene and never
//! suppressed, except for a zero denominator.

use std::fmt;
use std::time::Duration;

use benches::out;
use executor::GpuTiming;

use crate::frame_options::Options;

/// The shortest time a rate or ratio is made from: under it, reading the clock is a large part
/// of what was read.
pub const MIN_TIME: Duration = Duration::from_micros(1);

/// A number derived from others (a rate, a ratio, an average), or why it is not given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Derived {
    Value(f64),
    /// Made from recording times measured while more threads ran than there are cores.
    Contended,
    /// Its denominator is zero, or a time it is made from is under [`MIN_TIME`].
    TooSmall,
}

impl Derived {
    /// `numerator / denominator`, of counts alone.
    pub fn per(numerator: u64, denominator: u64) -> Self {
        if denominator == 0 {
            Self::TooSmall
        } else {
            Self::Value(numerator as f64 / denominator as f64)
        }
    }

    /// A number that `value` makes from the recording times `times` (and counts).
    pub fn timed(contended: bool, times: &[Duration], value: impl FnOnce() -> f64) -> Self {
        if contended {
            return Self::Contended;
        }
        if times.iter().any(|&time| time < MIN_TIME) {
            return Self::TooSmall;
        }
        match value() {
            v if v.is_finite() => Self::Value(v),
            _ => Self::TooSmall,
        }
    }

    /// For a table: the value with `decimals` decimals, or `-`.
    pub(crate) fn cell(self, decimals: usize) -> String {
        match self {
            Self::Value(v) => format!("{v:.decimals$}"),
            Self::Contended | Self::TooSmall => "-".to_string(),
        }
    }

    /// For a sentence: the value as `format` writes it, or that `what` is not given and why.
    pub(crate) fn or_why(self, what: &str, format: impl FnOnce(f64) -> String) -> String {
        match self {
            Self::Value(v) => format(v),
            Self::Contended => format!("{what} not given: threads competed for cores"),
            Self::TooSmall => {
                format!("{what} not given: made from a time under {MIN_TIME:?} or a zero count")
            }
        }
    }

    pub(crate) fn json(self) -> String {
        match self {
            Self::Value(v) => format!("{v}"),
            Self::Contended | Self::TooSmall => "null".to_string(),
        }
    }
}

/// Where the GPU model ran, as the execute line says it.
pub(crate) fn gpu_placement(timing: GpuTiming) -> (&'static str, &'static str) {
    // (in the summary, in the JSON)
    match timing {
        GpuTiming::Inline | GpuTiming::Deferred => ("inline", "inline"),
        GpuTiming::Threaded => ("on its own thread", "threaded"),
        GpuTiming::Detached => ("detached", "detached"),
    }
}

/// The threads the run's timings share the machine with.
pub struct Machine {
    /// `None` when `available_parallelism` could not tell (no warning is possible then).
    pub cores: Option<u32>,
    /// Whether `--cores` gave `cores`.
    pub cores_from_option: bool,
    pub recording_threads: u32,
    /// Where the GPU model runs: the one asked for, except under validation (always inline).
    pub gpu: GpuTiming,
}

impl Machine {
    pub fn gpu_model_thread(&self) -> bool {
        self.gpu == GpuTiming::Threaded
    }

    /// The threads running at once while the workers record.
    pub fn competing_threads(&self) -> u32 {
        self.recording_threads + u32::from(self.gpu_model_thread())
    }

    pub fn contended(&self) -> bool {
        self.cores
            .is_some_and(|cores| self.competing_threads() > cores)
    }

    /// The warning that heads the summary (and the JSON's `"warning"`) when threads competed.
    pub fn warning(&self) -> Option<String> {
        let cores = self.cores.filter(|_| self.contended())?;
        Some(format!(
            "{} threads compete for {} core(s) ({} recording thread(s){}): a thread's recording \
             time includes time it waited for a core, so the rates and ratios made from recording \
             times (ns/call, calls/s, fast against legacy, bundles against lists) are not given",
            self.competing_threads(),
            cores,
            self.recording_threads,
            if self.gpu_model_thread() {
                " and the GPU model's thread"
            } else {
                ""
            }
        ))
    }
}

/// The summary's first lines: the scene, the run, the warning.
pub struct Header<'a> {
    pub options: &'a Options,
    pub machine: &'a Machine,
}

impl fmt::Display for Header<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.options.scene;
        writeln!(
            f,
            "scene: {} draws, {} materials ({} textures each), {} meshes, {} passes, \
             dynamic fraction {}, unmapped dynamic fraction {}, seed {:#x}",
            d.draws,
            d.materials,
            d.textures_per_material,
            d.meshes,
            d.passes,
            d.dynamic_fraction,
            d.unmapped_dynamic_fraction,
            d.seed
        )?;
        writeln!(
            f,
            "run: {} worker thread(s), one deferred context and one list each; 1 warm-up frame, \
             {} timed frame(s)",
            self.options.threads, self.options.frames
        )?;
        if let Some(file) = &self.options.capture {
            writeln!(
                f,
                "capture: each run captures the frame after its timed frames (a present of a \
                 swap chain ends every frame) into {}{}",
                file.display(),
                if self.options.modes() > 1 {
                    ", the run's name inserted before the extension"
                } else {
                    ""
                }
            )?;
        }
        if let Some(warning) = self.machine.warning() {
            writeln!(f, "warning: {warning}")?;
        }
        Ok(())
    }
}

/// Prints a part of the summary: on stdout, or on stderr under `--json` (stdout then holds the
/// JSON alone).
pub(crate) fn say(options: &Options, part: &dyn fmt::Display) {
    if options.json {
        eprint!("{part}");
    } else {
        out!("{part}");
    }
}

pub(crate) fn fail(message: &str) -> ! {
    eprintln!("frame: {message}");
    std::process::exit(1);
}
