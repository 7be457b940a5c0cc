//! `splitpoints`: the split-point harness (SPEC §14 R-TOOL-1). Runs named scenarios under
//! legacy and fast semantics, recorded on worker threads and executed on the immediate
//! context, and reports them like PIX's split-point counters: a table per scenario and
//! semantics, a one-screen summary, the JSON and an SVG picture (`benches::splitpoints` has the
//! scenarios, the driver and the report). `--trace NAME` prints a scenario's frame as a trace
//! instead, the calls the harness makes, for `replay`. Before the measured runs, one untimed
//! frame of the first scenario warms the process (allocator, caches), so the first scenario is
//! not measured colder than the rest; a progress line on stderr follows runs over 2 seconds.
//!
//! ```text
//! cargo run --release --bin splitpoints
//! cargo run --release --bin splitpoints -- --scenarios dynamic_cb,post_tc --objects 20000
//! cargo run --release --bin splitpoints -- --trace predicated --semantics legacy > p.trace
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use benches::cli::{
    count, finish_main, fraction, output_file, output_folder_exists, semantics_choice, Arg, Args,
    PhaseProgress,
};
use benches::splitpoints::splitpoint_tables as report;
use benches::splitpoints::{measure, scenario, scenario_trace, Options, SCENARIOS};
use benches::{out, outln};
use recorder::Semantics;

const HELP: &str = "\
splitpoints: split points, indirect-buffer executions, decompressions and context rolls of
named scenarios under legacy and fast semantics, like PIX's split-point counters

USAGE:
    splitpoints [OPTIONS]

OPTIONS:
    --objects N          objects per frame, shared among passes and threads (default 10000)
    --dynamic F          fraction of the objects with dynamic (or default, written in place)
                         constant buffers, 0 to 1 (default 0.25)
    --passes N           render-target, post-processing or compute passes (default 4)
    --threads N          worker threads, one deferred context each, 1 to 48 (default 2)
    --frames N           timed frames after a warm-up frame; times are medians (default 11)
    --scenarios A,B,..   the scenarios to run (default: all; see --list)
    --semantics S        legacy, fast or both (default both; with --trace: legacy or fast,
                         default legacy)
    --list               print the scenarios' names and what each records, and exit
    --json FILE          where the JSON goes (default target/splitpoints.json); '-' writes
                         it to standard output and the tables to standard error
    --svg FILE           where the picture goes (default target/splitpoints.svg)
                         (a file's folder must exist: none is made)
    --trace NAME         print scenario NAME's frame as a trace (trace/docs/TRACE.md), the
                         calls the harness makes, to standard output, and exit
    --explain            instead of measuring, explain each scenario's split points (default
                         legacy only): each with the call that made it, the fix the seeds
                         recommend, and what each fix removes, measured by running the
                         scenario's trace again with the fix applied (replay --explain); 12
                         split points listed per fix (`--trace NAME | replay - --explain` lists
                         every one); with --json -, the advice as JSON on standard output
    -h, --help           print this help

Options take their value as the next argument or after '=' (--objects=20000).
Exit codes: 0 done, 1 a scenario failed (a refused call is a bug of the scenario), 2 bad
arguments.";

/// What the command line asked for.
struct Cli {
    options: Options,
    scenarios: Vec<&'static str>,
    semantics: Option<Vec<Semantics>>,
    list: bool,
    json: PathBuf,
    svg: PathBuf,
    trace: Option<&'static str>,
    explain: bool,
}

/// Parses the arguments; `Ok(None)` asks for the help.
fn parse(args: impl Iterator<Item = String>) -> Result<Option<Cli>, String> {
    let mut cli = Cli {
        options: Options::default(),
        scenarios: SCENARIOS.iter().map(|s| s.name).collect(),
        semantics: None,
        list: false,
        json: PathBuf::from("target/splitpoints.json"),
        svg: PathBuf::from("target/splitpoints.svg"),
        trace: None,
        explain: false,
    };
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg() {
        let name = match arg? {
            Arg::Help => return Ok(None),
            Arg::Option(name) => name,
        };
        let o = &mut cli.options;
        match name.as_str() {
            "--objects" => o.objects = count(&name, &args.value(&name)?, 1, 1_000_000)?,
            "--dynamic" => o.dynamic = fraction(&name, &args.value(&name)?)?,
            "--passes" => o.passes = count(&name, &args.value(&name)?, 1, 1_000)?,
            "--threads" => {
                o.threads = count(
                    &name,
                    &args.value(&name)?,
                    1,
                    recorder::limits::MAX_DEFERRED_CONTEXTS,
                )?
            }
            "--frames" => o.frames = count(&name, &args.value(&name)?, 1, 10_000)?,
            "--scenarios" => {
                let mut chosen: Vec<&'static str> = Vec::new();
                for part in args.value(&name)?.split(',') {
                    let found = scenario(part).map_err(|e| format!("--scenarios: {e}"))?;
                    if chosen.contains(&found.name) {
                        return Err(format!("--scenarios: '{part}' is named twice"));
                    }
                    chosen.push(found.name);
                }
                cli.scenarios = chosen;
            }
            "--semantics" => cli.semantics = Some(semantics_choice(&args.value(&name)?)?),
            "--list" => {
                args.no_value(&name)?;
                cli.list = true
            }
            "--explain" => {
                args.no_value(&name)?;
                cli.explain = true
            }
            "--json" => {
                cli.json = match args.value(&name)?.as_str() {
                    "-" => PathBuf::from("-"),
                    value => output_file(&name, value)?,
                }
            }
            "--svg" => cli.svg = output_file(&name, &args.value(&name)?)?,
            "--trace" => {
                let text = args.value(&name)?;
                cli.trace = Some(scenario(&text).map_err(|e| format!("--trace: {e}"))?.name);
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    if let (Some(_), Some(semantics)) = (cli.trace, &cli.semantics) {
        if semantics.len() != 1 {
            return Err("--semantics: a trace is of one semantics, legacy or fast".into());
        }
    }
    if cli.explain && cli.trace.is_some() {
        return Err(
            "--explain and --trace: one at a time (--trace NAME | replay - --explain)".into(),
        );
    }
    if cli.svg.as_os_str() == "-" {
        return Err("--svg: '-' is not a file (the picture goes to a file)".into());
    }
    cli.options.validate()?;
    Ok(Some(cli))
}

/// Writes `text` to `path`, whose folder exists (checked before the run: [`output_file`],
/// [`output_folder_exists`]).
fn write_file(option: &str, path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text)
        .map_err(|e| format!("{option}: cannot write '{}': {e}", path.display()))
}

fn run(cli: &Cli) -> Result<(), String> {
    if cli.list {
        for s in SCENARIOS {
            outln!("{:<22}{}", s.name, s.description);
        }
        return Ok(());
    }
    let options = &cli.options;
    if let Some(name) = cli.trace {
        let semantics = cli
            .semantics
            .as_ref()
            .and_then(|s| s.first().copied())
            .unwrap_or(Semantics::Legacy);
        out!("{}", scenario_trace(name, semantics, options)?);
        return Ok(());
    }
    // With the JSON on standard output, everything else goes to standard error.
    let json_to_stdout = cli.json.as_os_str() == "-";
    if cli.explain {
        return explain(cli, json_to_stdout);
    }
    // The files' folders exist before anything runs (the defaults' `target/` too).
    if !json_to_stdout {
        output_folder_exists("--json", &cli.json)?;
    }
    output_folder_exists("--svg", &cli.svg)?;
    let say = |text: &str| match json_to_stdout {
        true => eprint!("{text}"),
        false => out!("{text}"),
    };
    let semantics = cli
        .semantics
        .clone()
        .unwrap_or_else(|| vec![Semantics::Legacy, Semantics::Fast]);
    let runs = cli.scenarios.len() * semantics.len();
    let progress = PhaseProgress::new(
        "splitpoints",
        "frames",
        (runs as u64) * (options.frames as u64 + 1),
    );
    progress.resume();
    let setup = format!(
        "{}, {} frame(s) timed after a warm-up",
        options.command_line(),
        options.frames
    );
    say(&format!(
        "splitpoints: {} scenarios x {} semantics; {setup}\n\n",
        cli.scenarios.len(),
        semantics.len()
    ));
    // The process's own warm-up (the allocator's first growth, caches, clocks): one untimed run
    // of the first scenario, so that it is not measured colder than the others.
    if let (Some(&first), Some(&s)) = (cli.scenarios.first(), semantics.first()) {
        measure(&scenario(first)?.frame(s, options), 0, None)?;
    }
    let mut measurements = Vec::with_capacity(runs);
    for &name in &cli.scenarios {
        let scenario = scenario(name)?;
        for &s in &semantics {
            let frame = scenario.frame(s, options);
            let measured = measure(&frame, options.frames, Some(&progress))?;
            say(&report::table(&measured, options.threads));
            say("\n");
            measurements.push(measured);
        }
    }
    progress.pause();
    say("summary (split points recorded per frame, indirect-buffer executions, execute ms)\n");
    say(&report::summary(&measurements));
    let json = report::json(options, &cli.scenarios, &measurements);
    match json_to_stdout {
        true => out!("{json}"),
        false => write_file("--json", &cli.json, &json)?,
    }
    let svg = report::svg(&measurements, &setup);
    write_file("--svg", &cli.svg, &svg)?;
    say("\n");
    if !json_to_stdout {
        say(&format!("wrote {}\n", cli.json.display()));
    }
    say(&format!("wrote {}\n", cli.svg.display()));
    Ok(())
}

/// `--explain`: the advisor (`trace::explain`) on each scenario's trace.
fn explain(cli: &Cli, json: bool) -> Result<(), String> {
    let semantics = cli
        .semantics
        .clone()
        .unwrap_or_else(|| vec![Semantics::Legacy]);
    let mut objects = Vec::new();
    for &name in &cli.scenarios {
        let scenario = scenario(name)?;
        for &s in &semantics {
            let trace = scenario_trace(name, s, &cli.options)?;
            let advice = trace::explain::explain(trace.as_bytes())
                .map_err(|e| format!("--explain: the trace of {name}: {e}"))?;
            let semantics = match s {
                Semantics::Legacy => "legacy",
                Semantics::Fast => "fast",
            };
            match json {
                true => objects.push(format!(
                    "{{\"scenario\":\"{name}\",\"semantics\":\"{semantics}\",\"advice\":{}}}",
                    advice.json()
                )),
                false => {
                    outln!("== {name} ({semantics}): {}", scenario.description);
                    out!("{}", advice.text_with_limit(12));
                    outln!();
                }
            }
        }
    }
    if json {
        outln!(
            "{{\"options\":\"{}\",\"explain\":[{}]}}",
            cli.options.command_line(),
            objects.join(",")
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    trace::event_output::install("splitpoints");
    finish_main("splitpoints", HELP, parse(std::env::args().skip(1)), run)
}
