//! `peer`: the peer comparison (SPEC §14 R-TOOL-3). The render-bundle workload (after wgpu's
//! render-bundle benchmark: per draw a constant-buffer bind among 16, a vertex-buffer bind among
//! 8 and `draw(3, 0)`, shaders and blend changed every 100 draws; `benches::workload`) on this
//! engine, on wgpu 30's `noop` backend (a render pass, and render bundles) and on the naive
//! `Vec<enum>` + `Arc` recorder (`benches::render_workload::ArcRecorder`), in one run: ns per draw for
//! record, finish, execute/submit and drop, the replay of pre-recorded bundles, and T threads;
//! medians of `--runs` and the ratios to this engine's fast list.
//!
//! Its own workspace, outside the root one (the root's `exclude`): the default build and CI never
//! compile wgpu.
//!
//! ```text
//! cargo run --release --manifest-path peer/Cargo.toml -- --runs 11
//! peer/target/release/peer --threads 1,2,4,8,16 --json
//! ```
//!
//! **What counts where.** Ours: record = the calls on a fast deferred context; finish =
//! `finish_command_list`; execute = `execute_command_list` on the immediate context and its
//! `flush`, the GPU model detached (as `benches/src/bin/workload.rs`); drop = the list's drop.
//! wgpu, render pass: record = a command encoder, `begin_render_pass`, the calls, the pass ended;
//! finish = `CommandEncoder::finish`; submit = `Queue::submit` (on noop the submission completes
//! and is freed inside it); drop = the `Device::poll` after it. Bundles, both sides: record = the
//! calls (wgpu: and a bundle encoder per bundle, as its encoder is consumed by `finish`; ours
//! reuses one recorder), finish = the bundles' `finish` calls (timed one by one and subtracted
//! from the whole), execute = the replay of the bundles just made, drop = the bundles' drop.
//!
//! **How it is timed.** The eight single-threaded paths (the frame's five, the replay's three)
//! run interleaved: a round runs each path once, two warm-up rounds, then `--runs` timed ones.
//! A phase's figure is its median over the rounds; a ratio is the median of the rounds' own
//! ratios, so that a burst of load on a shared machine falls on both sides of it. The thread
//! counts run one path after another (each its own threads, barrier-synchronised,
//! `threads.rs`); their ratios are of medians.

mod engine;
mod gpu;

use std::fmt::Write as _;
use std::ops::Range;
use std::process::ExitCode;
use std::time::Duration;

use benches::cli::{count, finish_main, Arg, Args};
use benches::outln;
use benches::timing::{middle, ns, timed_runs};
use benches::render_workload::ArcRecorder;
use engine::Engine;
use gpu::Gpu;
use benches::timing::{scaling, Scaling};

const HELP: &str = "\
peer: the render-bundle workload on this engine, on wgpu's noop backend and on a naive recorder

Usage: peer [options]
    --draws N            draws per frame (default 100000)
    --runs N             timed runs per figure; the median is printed (default 11)
    --bundle-draws N     draws per bundle (default 100: 1,000 bundles a frame)
    --thread-draws N     draws shared among the threads (default 160000)
    --threads LIST       thread counts to scale over, e.g. 1,2,4,8,16
                         (default: 1, 2, 4, ... up to the cores there are)
    --json               the figures as one JSON object instead of the tables
    -h, --help           print this help";

/// The options.
pub struct Options {
    pub draws: u32,
    pub runs: u32,
    pub bundle_draws: u32,
    pub thread_draws: u32,
    pub threads: Vec<u32>,
    pub json: bool,
}

impl Options {
    /// `draws` cut into bundles of `--bundle-draws` (the last one shorter).
    pub fn bundle_ranges(&self, draws: Range<u32>) -> Vec<Range<u32>> {
        let end = draws.end;
        draws
            .step_by(self.bundle_draws as usize)
            .map(|start| start..start.saturating_add(self.bundle_draws).min(end))
            .collect()
    }
}

fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let mut options = Options {
        draws: 100_000,
        runs: 11,
        bundle_draws: 100,
        thread_draws: 160_000,
        threads: std::iter::successors(Some(1u32), |t| Some(t * 2))
            .take_while(|&t| t <= cores.max(2))
            .collect(),
        json: false,
    };
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg() {
        let name = match arg? {
            Arg::Help => return Ok(None),
            Arg::Option(name) => name,
        };
        match name.as_str() {
            "--draws" => options.draws = count(&name, &args.value(&name)?, 1, 10_000_000)?,
            "--runs" => options.runs = count(&name, &args.value(&name)?, 1, 1_000)?,
            "--bundle-draws" => {
                options.bundle_draws = count(&name, &args.value(&name)?, 1, 100_000)?
            }
            "--thread-draws" => {
                options.thread_draws = count(&name, &args.value(&name)?, 1, 10_000_000)?
            }
            "--threads" => {
                // Each thread holds a deferred context; the device keeps a few for the rest.
                let most = recorder::limits::MAX_DEFERRED_CONTEXTS - 8;
                options.threads = args
                    .value(&name)?
                    .split(',')
                    .map(|t| count(&name, t.trim(), 1, most))
                    .collect::<Result<_, _>>()?
            }
            "--json" => {
                args.no_value(&name)?;
                options.json = true
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(Some(options))
}

/// The median time of each phase of a path, for the whole frame; `None` where the path has no
/// such phase.
#[derive(Clone, Copy, Default)]
pub struct Phases {
    pub record: Duration,
    pub finish: Option<Duration>,
    pub execute: Option<Duration>,
    pub drop: Option<Duration>,
}

impl Phases {
    /// All four phases.
    pub fn all(record: Duration, finish: Duration, execute: Duration, drop: Duration) -> Self {
        Self {
            record,
            finish: Some(finish),
            execute: Some(execute),
            drop: Some(drop),
        }
    }

    pub fn total(&self) -> Duration {
        self.record
            + self.finish.unwrap_or_default()
            + self.execute.unwrap_or_default()
            + self.drop.unwrap_or_default()
    }

    fn columns(&self) -> [Option<Duration>; 5] {
        [
            Some(self.record),
            self.finish,
            self.execute,
            self.drop,
            Some(self.total()),
        ]
    }
}

/// One timed run of a path (its state set up, captured), what each of its phases took.
pub type Step<'a> = Box<dyn FnMut() -> Result<Phases, String> + 'a>;

/// One measured path: its label, its key in the JSON, the medians of its phases, and the runs
/// they came from (for ratios taken run by run).
struct Row {
    label: &'static str,
    key: &'static str,
    phases: Phases,
    runs: Vec<Phases>,
}

impl Row {
    /// The median over the runs of `of(self) / of(other)`, run `k` against run `k`: the paths
    /// ran interleaved, so a ratio taken within a round cancels the load that round saw.
    fn ratio(&self, other: &Row, of: impl Fn(&Phases) -> Duration) -> f64 {
        let ratios = self.runs.iter().zip(&other.runs);
        middle(ratios.map(|(a, b)| ratio(of(a), of(b)))).unwrap_or(f64::NAN)
    }
}

/// Runs `steps` in rounds, one run of each path a round (two warm-up rounds, then `runs`
/// timed ones): a burst of load on the machine then falls on every path alike. Each phase's
/// figure is its median over the timed rounds.
fn interleave(
    runs: u32,
    steps: Vec<(&'static str, &'static str, Step<'_>)>,
) -> Result<Vec<Row>, String> {
    let (names, mut steps): (Vec<_>, Vec<_>) = steps
        .into_iter()
        .map(|(label, key, step)| ((label, key), step))
        .unzip();
    let rounds = timed_runs(runs, || -> Result<Vec<Phases>, String> {
        names
            .iter()
            .zip(&mut steps)
            .map(|((label, _), step)| step().map_err(|e| format!("{label}: {e}")))
            .collect()
    });
    let rounds: Vec<Vec<Phases>> = rounds.into_iter().collect::<Result<_, _>>()?;
    Ok(names
        .into_iter()
        .enumerate()
        .map(|(k, (label, key))| {
            let runs: Vec<Phases> = rounds.iter().filter_map(|r| r.get(k).copied()).collect();
            let phase = |of: fn(&Phases) -> Option<Duration>| middle(runs.iter().filter_map(of));
            let phases = Phases {
                record: phase(|p| Some(p.record)).unwrap_or_default(),
                finish: phase(|p| p.finish),
                execute: phase(|p| p.execute),
                drop: phase(|p| p.drop),
            };
            Row {
                label,
                key,
                phases,
                runs,
            }
        })
        .collect())
}

/// The thread counts' figures for one path.
struct ThreadRow {
    label: &'static str,
    key: &'static str,
    scaling: Vec<Scaling>,
}

/// An error as the message the run ends with.
pub fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn run(o: &Options) -> Result<(), String> {
    let engine = Engine::new().map_err(text)?;
    let gpu = Gpu::new()?;
    let ours = engine.prerecorded(o).map_err(text)?;
    let theirs = gpu.prerecorded(o)?;
    let immediate = engine.immediate().map_err(text)?;
    let imm = &immediate;
    let mut rows = interleave(
        o.runs,
        vec![
            (
                "ours: fast list",
                "ours_fast_list",
                engine.fast_list(o, imm).map_err(text)?,
            ),
            (
                "ours: bundles",
                "ours_bundles",
                engine.bundles(o, imm).map_err(text)?,
            ),
            ("wgpu: render pass", "wgpu_render_pass", gpu.render_pass(o)),
            (
                "wgpu: render bundles",
                "wgpu_render_bundles",
                gpu.bundles(o),
            ),
            ("naive Vec<enum> + Arc", "naive", engine::naive(o)),
            (
                "ours: draw_bundle in a list",
                "ours_list",
                engine.replay_list(&ours, imm).map_err(text)?,
            ),
            (
                "ours: draw_bundle, immediate",
                "ours_immediate",
                engine.replay_immediate(&ours, imm),
            ),
            (
                "wgpu: execute_bundles",
                "wgpu_execute_bundles",
                gpu.replay(&theirs),
            ),
        ],
    )?;
    let replay = rows.split_off(5);
    let frame = rows;
    drop((ours, theirs, immediate));
    let threads = thread_rows(&engine, &gpu, o)?;
    if o.json {
        outln!("{}", json(o, &frame, &replay, &threads));
    } else {
        print_tables(o, &frame, &replay, &threads);
    }
    Ok(())
}

fn thread_rows(engine: &Engine, gpu: &Gpu, o: &Options) -> Result<Vec<ThreadRow>, String> {
    let (draws, runs) = (o.thread_draws, o.runs);
    let naive = ArcRecorder::default();
    let mut rows = vec![
        ThreadRow {
            label: "ours: fast list",
            key: "ours_fast_list",
            scaling: Vec::new(),
        },
        ThreadRow {
            label: "ours: bundles",
            key: "ours_bundles",
            scaling: Vec::new(),
        },
        ThreadRow {
            label: "wgpu: render pass",
            key: "wgpu_render_pass",
            scaling: Vec::new(),
        },
        ThreadRow {
            label: "wgpu: render bundles",
            key: "wgpu_render_bundles",
            scaling: Vec::new(),
        },
        ThreadRow {
            label: "naive Vec<enum> + Arc",
            key: "naive",
            scaling: Vec::new(),
        },
    ];
    for &t in &o.threads {
        let figures = [
            scaling(
                t,
                draws,
                runs,
                |k| engine.context(&format!("worker{k}")).map_err(text),
                |context, range| {
                    engine.workload.record(context, range);
                    context
                        .finish_command_list(recorder::RestoreState::ClearState)
                        .map_err(|e| e.error.to_string())
                },
                |_, list| drop(list),
            )?,
            scaling(
                t,
                draws,
                runs,
                |_| engine.bundle_recorder().map_err(text),
                |recorder, range| {
                    let mut bundles = Vec::new();
                    engine
                        .record_bundles(recorder, &o.bundle_ranges(range), &mut bundles)
                        .map_err(text)?;
                    Ok(bundles)
                },
                |_, bundles| drop(bundles),
            )?,
            scaling(
                t,
                draws,
                runs,
                |_| Ok::<_, String>(()),
                |(), range| Ok(gpu.pass_buffer(range)),
                |(), buffer| drop(buffer),
            )?,
            scaling(
                t,
                draws,
                runs,
                |_| Ok::<_, String>(()),
                |(), range| {
                    let mut bundles = Vec::new();
                    gpu.record_bundles(&o.bundle_ranges(range), &mut bundles);
                    Ok(bundles)
                },
                |(), bundles| drop(bundles),
            )?,
            scaling(
                t,
                draws,
                runs,
                |_| Ok::<_, String>(naive.clone()),
                |naive, range| {
                    naive.record(range);
                    Ok(())
                },
                // The commands' Arc clones are released here, untimed, as the lists' drop is.
                |naive, ()| naive.commands.clear(),
            )?,
        ];
        gpu.check(&format!("the recording on {t} threads"))?;
        for (row, figure) in rows.iter_mut().zip(figures) {
            row.scaling.push(figure);
        }
    }
    Ok(rows)
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-12)
}

fn cell(d: Option<Duration>, per: u32) -> String {
    d.map_or_else(|| "–".to_string(), |d| format!("{:.1}", ns(d, per)))
}

fn print_phases(rows: &[Row], per: u32, reference: &str) {
    outln!(
        "{:<30} {:>9} {:>9} {:>9} {:>9} {:>9} {:>12}",
        "ns per draw",
        "record",
        "finish",
        "execute",
        "drop",
        "total",
        reference
    );
    let Some(base) = rows.first() else {
        return;
    };
    for row in rows {
        let [record, finish, execute, drop, total] = row.phases.columns();
        outln!(
            "{:<30} {:>9} {:>9} {:>9} {:>9} {:>9} {:>11.2}x",
            row.label,
            cell(record, per),
            cell(finish, per),
            cell(execute, per),
            cell(drop, per),
            cell(total, per),
            row.ratio(base, Phases::total),
        );
    }
}

fn print_tables(o: &Options, frame: &[Row], replay: &[Row], threads: &[ThreadRow]) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bundles = o.bundle_ranges(0..o.draws).len();
    outln!(
        "peer: {} draws; per draw a constant-buffer bind among 16 (wgpu: a bind group), a \
         vertex-buffer bind among 8, draw(3, 0); shaders and blend every 100 draws (wgpu: a \
         pipeline); ours with the GPU model detached, wgpu on its noop backend; median of {} \
         runs; {cores} cores",
        o.draws,
        o.runs
    );
    outln!(
        "frame: record, finish, execute/submit, drop (bundles: {bundles} of {}, execute = their \
         replay)",
        o.bundle_draws
    );
    print_phases(frame, o.draws, "x ours list");
    if let [ours, ours_bundles, pass, wgpu_bundles, naive] = frame {
        let rf = |p: &Phases| p.record + p.finish.unwrap_or_default();
        outln!(
            "ratios to our fast list, record + finish / total: wgpu bundles {:.2}x / {:.2}x, \
             wgpu pass {:.2}x / {:.2}x, naive {:.2}x / {:.2}x; wgpu bundles / our bundles \
             {:.2}x / {:.2}x",
            wgpu_bundles.ratio(ours, rf),
            wgpu_bundles.ratio(ours, Phases::total),
            pass.ratio(ours, rf),
            pass.ratio(ours, Phases::total),
            naive.ratio(ours, rf),
            naive.ratio(ours, Phases::total),
            wgpu_bundles.ratio(ours_bundles, rf),
            wgpu_bundles.ratio(ours_bundles, Phases::total),
        );
    }
    outln!(
        "replay of {bundles} pre-recorded {}-draw bundles, ns per draw replayed (x 100: per \
         bundle call)",
        o.bundle_draws
    );
    print_phases(replay, o.draws, "x ours list");
    outln!(
        "threads: {} draws recorded over T threads, each its share on its own recorder (ours: \
         a fast deferred context, list finished; bundles of {}; wgpu: a command encoder and \
         pass, finished; naive: a clone sharing the Arcs); wall ns per draw (speedup over 1 \
         thread)",
        o.thread_draws,
        o.bundle_draws
    );
    let header: String = threads.iter().fold(String::new(), |mut s, r| {
        let _ = write!(s, " {:>22}", r.label);
        s
    });
    outln!("{:>3}{header}", "T");
    let per = o.thread_draws;
    for (k, t) in o.threads.iter().enumerate() {
        let mut line = format!("{t:>3}");
        for row in threads {
            let (Some(first), Some(s)) = (row.scaling.first(), row.scaling.get(k)) else {
                continue;
            };
            let cell = format!("{:.2} ({:.2}x)", ns(s.wall, per), ratio(first.wall, s.wall));
            let _ = write!(line, " {cell:>22}");
        }
        outln!("{line}");
    }
    outln!("threads: the threads' own recording times summed, ns per draw; wall ratios to ours");
    outln!(
        "{:>3}{header} {:>10} {:>10} {:>10}",
        "T",
        "pass/ours",
        "bndl/ours",
        "naive/ours"
    );
    for (k, t) in o.threads.iter().enumerate() {
        let mut line = format!("{t:>3}");
        let mut walls = Vec::new();
        for row in threads {
            if let Some(s) = row.scaling.get(k) {
                let _ = write!(line, " {:>22.1}", ns(s.summed, per));
                walls.push(s.wall);
            }
        }
        if let [ours, _, pass, bundles, naive] = walls[..] {
            let _ = write!(
                line,
                " {:>9.2}x {:>9.2}x {:>9.2}x",
                ratio(pass, ours),
                ratio(bundles, ours),
                ratio(naive, ours)
            );
        }
        outln!("{line}");
    }
}

/// ns per draw as a JSON number (or `null`).
fn number(d: Option<Duration>, per: u32) -> String {
    d.map_or_else(|| "null".into(), |d| format!("{:.3}", ns(d, per)))
}

fn json_rows(rows: &[Row], per: u32) -> String {
    let Some(base) = rows.first() else {
        return "{}".into();
    };
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            let p = r.phases;
            format!(
                "\"{}\":{{\"record\":{},\"finish\":{},\"execute\":{},\"drop\":{},\"total\":{},\
                 \"ratio_to_ours_list\":{:.3}}}",
                r.key,
                number(Some(p.record), per),
                number(p.finish, per),
                number(p.execute, per),
                number(p.drop, per),
                number(Some(p.total()), per),
                r.ratio(base, Phases::total)
            )
        })
        .collect();
    format!("{{{}}}", items.join(","))
}

fn json(o: &Options, frame: &[Row], replay: &[Row], threads: &[ThreadRow]) -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let counts: Vec<String> = o.threads.iter().map(|t| t.to_string()).collect();
    let scaling: Vec<String> = threads
        .iter()
        .map(|row| {
            let first = row.scaling.first().map_or(Duration::ZERO, |s| s.wall);
            let points: Vec<String> = row
                .scaling
                .iter()
                .map(|s| {
                    format!(
                        "{{\"wall\":{},\"summed\":{},\"speedup\":{:.3}}}",
                        number(Some(s.wall), o.thread_draws),
                        number(Some(s.summed), o.thread_draws),
                        ratio(first, s.wall)
                    )
                })
                .collect();
            format!("\"{}\":[{}]", row.key, points.join(","))
        })
        .collect();
    format!(
        "{{\"unit\":\"ns per draw\",\"draws\":{},\"runs\":{},\"bundle_draws\":{},\
         \"thread_draws\":{},\"cores\":{cores},\"frame\":{},\"replay\":{},\
         \"threads\":{{\"counts\":[{}],{}}}}}",
        o.draws,
        o.runs,
        o.bundle_draws,
        o.thread_draws,
        json_rows(frame, o.draws),
        json_rows(replay, o.draws),
        counts.join(","),
        scaling.join(",")
    )
}

fn main() -> ExitCode {
    finish_main("peer", HELP, parse(std::env::args().skip(1)), run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(args: &[&str]) -> Result<Option<Options>, String> {
        parse(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn r_tool_3_bad_options_are_named() {
        let error = |args: &[&str]| options(args).err().unwrap_or_default();
        assert!(error(&["--draws", "0"]).starts_with("--draws:"));
        assert!(error(&["--threads", "1,x"]).starts_with("--threads:"));
        assert!(error(&["--runs"]).contains("--runs needs a value"));
        assert!(error(&["--frobnicate"]).contains("unknown option"));
    }

    #[test]
    fn r_tool_3_bundles_cut_a_range_with_a_short_last_one() {
        let Ok(Some(o)) = options(&["--bundle-draws=100"]) else {
            panic!("options");
        };
        assert_eq!(o.bundle_ranges(0..250), [0..100, 100..200, 200..250]);
        let one = o.bundle_ranges(50..150);
        assert_eq!((one.len(), one.first()), (1, Some(&(50..150))));
    }
}
