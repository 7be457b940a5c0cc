//! The `replay` command as a library: a trace's bytes in, what the command prints and its
//! exit code out (docs/TRACE.md "The command"), so tests run traces without a process.
//!
//! **In:** the trace and [`ReplayOptions`]. **Out:** a [`Replay`]: exit code 0 (every
//! expectation held), 1 (one failed, printed as `trace:LINE: expected …, found …`, and the
//! rest of the trace run anyway; or `--compare` found a record that differs from the
//! reference) or 2 (malformed: `trace:LINE: message` on stderr, nothing run).
//!
//! The steps: parse (the syntax room, `../syntax/`), lower (`lower/`: the engine's types,
//! numbering), run every statement in order against the real engine (`live.rs`, with
//! `workers.rs` for `--threads`) checking expectations as they come (`verdict.rs`), and under
//! `--compare` against the reference too (`reference/`); then the report (`replay_report.rs`).

use std::sync::Arc;

use super::live::LiveRun;
use super::lower::lower_in;
use super::names::{digest, record_lines};
use super::program::Op;
use super::reference::Reference;
use super::replay_report::{self, Failure, RecordDetail, Summary};
use super::verdict;

/// How to replay (the command's options).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// `--compare`: also run the reference and compare the draw records.
    pub compare: bool,
    /// `--threads N`: record deferred contexts and bundle recorders on N worker threads
    /// (0: on the main thread).
    pub threads: usize,
    /// `--records`: print every draw record.
    pub records: bool,
    /// `--json`: the report as JSON.
    pub json: bool,
    /// `--explain`: after the report, each split point with the call that made it and the
    /// fixes that remove it, measured by re-running the trace with each (`trace::explain`).
    pub explain: bool,
    /// `--backend NAME`: the GPU backend asked for (`vulkan`), made by [`backend`](Self::backend).
    pub backend_name: Option<String>,
    /// `--png DIR`: where the backend writes each present as a PNG (the binary's factory reads it).
    pub png: Option<std::path::PathBuf>,
    /// What makes the backend the replay feeds (R-GPU-5): set by a `replay` built with one
    /// (the `vulkan` feature); `None`: the GPU model alone.
    pub backend: Option<BackendFactory>,
    /// The folder the files a trace's declarations name (`wgsl=`, `spirv=`, `data=@`, R-GPU-2)
    /// are relative to: the trace file's; `None` (a trace from standard input, or bytes a test
    /// gives): the current directory.
    pub trace_dir: Option<std::path::PathBuf>,
}

/// What makes the GPU backend a replay feeds (R-GPU-1, R-GPU-5), for the replay's device: the
/// `replay` binary built with the `vulkan` feature makes one from `--backend vulkan --png DIR`.
#[derive(Clone)]
pub struct BackendFactory(pub Arc<MakeBackend>);

/// The function a [`BackendFactory`] holds: the backend for a device, or why none.
pub type MakeBackend =
    dyn Fn(&recorder::Device) -> Result<Box<dyn executor::GpuBackend>, String> + Send + Sync;

impl std::fmt::Debug for BackendFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BackendFactory")
    }
}

impl PartialEq for BackendFactory {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for BackendFactory {}

/// What `replay --help` prints (docs/TRACE.md "The command").
pub const USAGE: &str = "\
usage: replay TRACE|- [--compare] [--threads N] [--records] [--json] [--explain]

Runs a trace (the format is trace/docs/TRACE.md) against the engine, GPU model inline, and
checks its expectations. `-` reads the trace from standard input. The files a trace's
declarations name (wgsl=, spirv=, data=@) are read relative to its folder (from `-`, the
current directory).

  --compare      also run the reference (every call on the immediate context) and stop at
                 the first draw record that differs, printing both
  --threads N    record the deferred contexts and bundle recorders on N worker threads
                 (also --threads=N); the output is the single-threaded run's
  --records      print every draw record, and where it came from after '#': the call's
                 line, then the bundle calls and list executions it was reached through
  --json         the summary as one JSON object (records and failures as objects)
  --explain      then every split point with the call that made it (context, list, call
                 index, line, resource), the fix the Xbox documentation recommends for
                 it, and what each fix removes, measured by re-running the trace with
                 the fix applied
  --backend B    model (default: the GPU model alone) or vulkan: the trace also draws on a
                 GPU through Vulkan, fed by the model (R-GPU-5; a build with the `vulkan`
                 feature)
  --png DIR      with --backend vulkan: each present written as DIR/CHAIN.N.png
  -h, --help     print this help

Exit codes: 0 every expectation held, 1 one failed (or --compare found a difference),
2 the trace is malformed or unreadable.";

/// Where the trace comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceSource {
    /// A trace file, by path.
    File(std::path::PathBuf),
    /// `-`: standard input.
    Stdin,
}

/// What a command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Args {
    /// `--help` or `-h` (anywhere on the line): print [`USAGE`].
    Help,
    /// A replay of one trace.
    Run {
        /// `--compare`, `--threads`, `--records`, `--json`.
        options: ReplayOptions,
        /// The trace to replay.
        trace: TraceSource,
    },
}

impl ReplayOptions {
    /// The command line's request (`--compare`, `--threads N` or `--threads=N`, `--records`,
    /// `--json`, the trace or `-`; or `--help`), or what is wrong with it.
    ///
    /// ```
    /// use trace::{Args, ReplayOptions, TraceSource};
    ///
    /// let args = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
    /// let Ok(Args::Run { options, trace }) = ReplayOptions::from_args(args("- --threads=2"))
    /// else {
    ///     panic!("a run");
    /// };
    /// assert_eq!((options.threads, trace), (2, TraceSource::Stdin));
    /// assert_eq!(ReplayOptions::from_args(args("t.trace --help")), Ok(Args::Help));
    /// assert!(ReplayOptions::from_args(args("--threads two t.trace")).is_err());
    /// ```
    pub fn from_args(args: impl IntoIterator<Item = String>) -> Result<Args, String> {
        let args: Vec<String> = args.into_iter().collect();
        if args.iter().any(|a| a == "--help" || a == "-h") {
            return Ok(Args::Help);
        }
        let mut options = Self::default();
        let mut trace = None;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--compare" => options.compare = true,
                "--records" => options.records = true,
                "--json" => options.json = true,
                "--explain" => options.explain = true,
                "--backend" => {
                    let name = args.next().ok_or("--backend needs model or vulkan")?;
                    match name.as_str() {
                        "model" => options.backend_name = None,
                        "vulkan" => options.backend_name = Some(name),
                        other => return Err(format!("--backend {other}: not model or vulkan")),
                    }
                }
                "--png" => {
                    let dir = args.next().ok_or("--png needs a folder")?;
                    options.png = Some(dir.into());
                }
                "--threads" => {
                    let n = args.next().ok_or("--threads needs a number")?;
                    options.threads = threads(&n)?;
                }
                flag if flag.starts_with("--threads=") => {
                    options.threads = threads(&flag["--threads=".len()..])?;
                }
                flag if flag.starts_with('-') && flag != "-" => {
                    return Err(format!("unknown option {flag}"))
                }
                _ if trace.is_some() => return Err(format!("one trace at a time ({arg})")),
                "-" => trace = Some(TraceSource::Stdin),
                _ => trace = Some(TraceSource::File(arg.into())),
            }
        }
        let trace = trace.ok_or("no trace given")?;
        if options.png.is_some() && options.backend_name.is_none() {
            return Err("--png needs --backend vulkan: the GPU model draws no pixels".into());
        }
        if let TraceSource::File(path) = &trace {
            options.trace_dir = path.parent().map(std::path::Path::to_path_buf);
        }
        Ok(Args::Run { options, trace })
    }
}

/// The N of `--threads N`.
fn threads(n: &str) -> Result<usize, String> {
    n.parse()
        .map_err(|_| format!("--threads {n}: not a number of threads"))
}

/// What a replay printed, and its exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// 0: every expectation held; 1: one failed (or `--compare` found a difference); 2: the trace
    /// is malformed or unreadable (docs/TRACE.md "The command").
    pub exit_code: i32,
    /// What the replay printed on standard output: the failed expectations, the summary and
    /// records, or the JSON.
    pub stdout: String,
    /// What it printed on standard error: `trace:LINE: message` for a malformed trace, else
    /// nothing.
    pub stderr: String,
    /// The digest of the draw records (the `digest=` line: FNV-1a over the records as
    /// `--records` prints them), `None` for a trace that did not run (exit code 2).
    pub digest: Option<u64>,
    /// How many draw records the trace made (draws and dispatches).
    pub records: usize,
}

impl Replay {
    fn malformed(message: String) -> Self {
        Self {
            exit_code: 2,
            stdout: String::new(),
            stderr: message + "\n",
            digest: None,
            records: 0,
        }
    }
}

/// Every record's kind, fields and origin, for `--records` (and `--json`).
fn record_details(live: &mut LiveRun, program: &super::program::Program) -> Vec<RecordDetail> {
    let fields = live.with_records(|records, namer| {
        records
            .iter()
            .map(|record| {
                let fields = record
                    .fields()
                    .into_iter()
                    .map(|(name, value)| (name, value.display_with(namer).to_string()))
                    .collect();
                (record.kind.name(), fields)
            })
            .collect::<Vec<_>>()
    });
    let origins = live.origins();
    fields
        .into_iter()
        .enumerate()
        .map(|(index, (kind, fields))| {
            let origin = origins.and_then(|o| o.get(index));
            RecordDetail {
                kind,
                fields,
                origin_text: origin.map_or_else(String::new, |o| o.text(program)),
                origin_json: origin.map_or_else(|| "null".into(), |o| o.json(program)),
            }
        })
        .collect()
}

/// Replays `trace` (see the module essay).
///
/// ```
/// use trace::{replay, ReplayOptions};
///
/// let trace = b"device semantics=fast\n\
///               shader vs0 stage=vs\n\
///               imm vs_set_shader vs0\n\
///               imm draw 3 0\n\
///               expect draw 0 vs vs0\n\
///               expect counters draws=2\n";
/// let run = replay(trace, &ReplayOptions::default());
/// assert_eq!(run.exit_code, 1);
/// assert!(run.stdout.starts_with("trace:6: expected counters draws=2, found draws=1\n"));
///
/// let broken = replay(b"device semantics=fast\nimm draw 3\n", &ReplayOptions::default());
/// assert_eq!(broken.exit_code, 2);
/// assert!(broken.stderr.starts_with("trace:2: "));
/// ```
pub fn replay(trace: &[u8], options: &ReplayOptions) -> Replay {
    let parsed = match crate::parse(trace) {
        Ok(parsed) => parsed,
        Err(error) => return Replay::malformed(error.to_string()),
    };
    let program = match lower_in(&parsed, options.trace_dir.as_deref()) {
        Ok(program) => Arc::new(program),
        Err(error) => return Replay::malformed(error.to_string()),
    };
    let mut live = match LiveRun::new(program.clone(), options.threads) {
        Ok(live) => live,
        Err(error) => return Replay::malformed(format!("replay: {error}")),
    };
    match (&options.backend_name, &options.backend) {
        (_, Some(factory)) => match (factory.0)(&live.device) {
            Ok(backend) => {
                live.imm.set_gpu_backend(Some(backend));
            }
            Err(error) => return Replay::malformed(format!("replay: --backend: {error}")),
        },
        (Some(name), None) => {
            return Replay::malformed(format!(
                "replay: --backend {name}: this replay was built without it; build it with \
                 the `{name}` feature (cargo run --release --features {name} --bin replay)"
            ))
        }
        (None, None) => {}
    }
    if options.records {
        live.track_origins();
    }
    let mut reference = match options.compare {
        true => match Reference::new(program.clone()) {
            Ok(reference) => Some(reference),
            Err(error) => return Replay::malformed(format!("replay: reference: {error}")),
        },
        false => None,
    };
    let mut summary = Summary::default();
    let mut stdout = String::new();
    for (index, step) in program.steps.iter().enumerate() {
        match &step.op {
            Op::Expect(expect) => {
                summary.checked += 1;
                if let Err(found) = verdict::check(&mut live, expect) {
                    let failure = Failure {
                        line: step.line,
                        expected: verdict::expected(expect),
                        found,
                    };
                    if !options.json {
                        stdout.push_str(&failure.to_string());
                        stdout.push('\n');
                    }
                    summary.failures.push(failure);
                }
            }
            _ => {
                let effect = live.step(index);
                if let Some(reference) = reference.as_mut() {
                    reference.step(index, effect);
                }
            }
        }
    }
    live.settle();
    summary.counters = live.counters();
    summary.recorded = live.split_recorded;
    summary.records = live.with_records(record_lines);
    summary.digest = digest(&summary.records);
    if options.records {
        summary.details = record_details(&mut live, &program);
    }
    if let Some(reference) = reference.as_mut() {
        let theirs = reference.record_lines();
        let difference = super::reference::compare::first_difference(&summary.records, &theirs)
            .or_else(|| {
                super::reference::compare::memory_difference(
                    &live.memory_lines(),
                    &reference.memory_lines(),
                )
            });
        summary.compare = Some((summary.records.len(), difference));
    }
    let differs = matches!(&summary.compare, Some((_, Some(_))));
    let exit_code = if summary.failures.is_empty() && !differs {
        0
    } else {
        1
    };
    let advice = match options.explain {
        true => match crate::explain::explain_parsed_in(&parsed, options.trace_dir.as_deref()) {
            Ok(advice) => Some(advice),
            Err(error) => return Replay::malformed(format!("replay: explain: {error}")),
        },
        false => None,
    };
    if options.json {
        stdout = replay_report::json(&summary, exit_code, options.records);
        if let Some(advice) = &advice {
            // One object: the advice goes in before the closing brace.
            let object = stdout.trim_end().trim_end_matches('}');
            stdout = format!("{object},\"explain\":{}}}\n", advice.json());
        }
    } else {
        stdout.push_str(&replay_report::text(&summary, options.records));
        if let Some(advice) = &advice {
            stdout.push('\n');
            stdout.push_str(&advice.text());
        }
    }
    Replay {
        exit_code,
        stdout,
        stderr: String::new(),
        digest: Some(summary.digest),
        records: summary.records.len(),
    }
}
