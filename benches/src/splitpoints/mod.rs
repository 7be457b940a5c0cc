//! # The split-point harness (SPEC §14 R-TOOL-1)
//!
//! Named scenarios an engine programmer recognises (an all-static scene, per-object dynamic
//! constant buffers mapped on the immediate context or in the list, default buffers written
//! with write_no_overwrite, render-target passes with clears and depth-stencil-state sets,
//! post-processing on compressible, texture-compatible or explicitly decompressed targets,
//! compute passes, a predicated scope), each recorded under legacy and fast semantics on worker
//! threads, executed on the immediate context, and reported like PIX's split-point counters.
//!
//! **In:** [`Options`] (objects, dynamic fraction, passes, threads, frames) and the names of the
//! scenarios. **Out:** per scenario and semantics a [`Measurement`]: split points recorded per
//! list and resolved by category, indirect-buffer executions, decompressions, context rolls,
//! list bytes, record and execute time; and, for any scenario, its frame as a trace
//! (`trace/docs/TRACE.md`), optionally with the measured counts as expectations, which
//! `replay` runs and checks ([`scenario_trace`], [`expected_trace`]).
//!
//! **The one representation.** A scenario is data: [`Frame`] (`ir.rs`), the objects to create,
//! the calls of each list and the immediate context's steps, built by `scenario.rs`. Two
//! walkers read it: the engine driver (`drive.rs`) makes those calls on the real API, the trace
//! printer (`trace.rs`) prints them, so the trace is the calls the harness makes, and replaying
//! it gives the counts the harness measured (`benches/tests/splitpoints.rs` checks that for
//! every scenario). The report (`splitpoint_tables.rs`: the tables and the JSON; `svg.rs`: the picture)
//! reads only [`Measurement`]s.
//!
//! **Invariants.** Every call of a scenario is accepted by the engine, under both semantics: a
//! refused call, a list whose finish fails or an execution error is an error of the run, never
//! ignored. Fast frames have no split point (R-SP-3). Every frame of a run counts the same as
//! the first (each frame sets up everything it depends on: clears, maps), so one frame's trace,
//! replayed on a fresh device, counts what any measured frame counted; the driver checks it.
//!
//! **Choices** where the specification is silent: one deferred context per worker thread, each thread
//! recording its contiguous share of the objects, one list per thread per pass (a post pass,
//! one list, on thread `p % threads`); lists finish and execute with `restore = false`; the GPU
//! model runs inline, so the execute time includes its work (the counters need it); record time
//! is reported both for the slowest thread (the frame's critical path) and summed over the
//! threads; times are medians over the timed frames, after one warm-up frame that fills the
//! chunk pool.

mod drive;
mod frame_builder;
mod ir;
mod scenario;
pub mod splitpoint_tables;
mod svg;
mod trace;

pub use drive::{measure, validate, Counts, ListCounts, Measurement};
pub use ir::{Call, Frame, Id, List, MapKind, Object, ObjectDesc, Step, ViewKind};
pub use scenario::{find, Scenario, SCENARIOS};
pub use trace::print as trace_text;

use recorder::Semantics;

/// What a run is asked for: the sizes every scenario is built with, and how many frames are
/// timed.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Objects drawn (or dispatched, in `uav_passes`) per frame, shared among passes and
    /// threads.
    pub objects: u32,
    /// Fraction of the objects whose constants are dynamic (or default, written in place).
    pub dynamic: f32,
    /// Render-target passes (`render_targets`), post-processing passes (`post_*`,
    /// `predicated`), compute passes (`uav_passes`).
    pub passes: u32,
    /// Worker threads, one deferred context each.
    pub threads: u32,
    /// Timed frames; times are their medians.
    pub frames: u32,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            objects: 10_000,
            dynamic: 0.25,
            passes: 4,
            threads: 2,
            frames: 11,
        }
    }
}

impl Options {
    /// Checks the sizes; the message names the option and the rule.
    pub fn validate(&self) -> Result<(), String> {
        if self.objects == 0 {
            return Err("--objects must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&self.dynamic) {
            return Err(format!(
                "--dynamic must be from 0 to 1, not {}",
                self.dynamic
            ));
        }
        if self.passes == 0 {
            return Err("--passes must be at least 1".into());
        }
        if !(1..=recorder::limits::MAX_DEFERRED_CONTEXTS).contains(&self.threads) {
            return Err(format!(
                "--threads must be from 1 to {} (one deferred context each, R-REC-1), not {}",
                recorder::limits::MAX_DEFERRED_CONTEXTS,
                self.threads
            ));
        }
        if self.frames == 0 {
            return Err("--frames must be at least 1".into());
        }
        Ok(())
    }

    /// The options as the harness's command line writes them.
    pub fn command_line(&self) -> String {
        format!(
            "--objects {} --dynamic {} --passes {} --threads {}",
            self.objects, self.dynamic, self.passes, self.threads
        )
    }
}

/// The scenarios' names, in report order.
pub fn scenario_names() -> impl Iterator<Item = &'static str> {
    SCENARIOS.iter().map(|s| s.name)
}

/// The scenario called `name`, or an error listing the names.
pub fn scenario(name: &str) -> Result<&'static Scenario, String> {
    find(name).ok_or_else(|| {
        let names: Vec<&str> = scenario_names().collect();
        format!(
            "no scenario called '{name}' (the scenarios: {})",
            names.join(", ")
        )
    })
}

/// The trace of scenario `name` under `semantics`: exactly the calls the harness makes for one
/// frame, in TRACE.md syntax, without expectations (what `splitpoints --trace` prints and the
/// advisor reads).
pub fn scenario_trace(
    name: &str,
    semantics: Semantics,
    options: &Options,
) -> Result<String, String> {
    options.validate()?;
    let scenario = scenario(name)?;
    let frame = scenario.frame(semantics, options);
    Ok(trace::print(
        &frame,
        &header(scenario, semantics, options),
        None,
    ))
}

/// Runs scenario `name` under `semantics` through the engine driver (one frame, no timing
/// wanted) and returns its trace with the counts the driver measured appended as expectations
/// (`expect split_points` after each finish, `expect counters` at the end), and the counts.
pub fn expected_trace(
    name: &str,
    semantics: Semantics,
    options: &Options,
) -> Result<(String, Counts), String> {
    options.validate()?;
    let scenario = scenario(name)?;
    let frame = scenario.frame(semantics, options);
    let measured = measure(&frame, 0, None)?;
    let text = trace::print(
        &frame,
        &header(scenario, semantics, options),
        Some(&measured.counts),
    );
    Ok((text, measured.counts))
}

/// The comment lines a scenario's trace starts with.
fn header(scenario: &Scenario, semantics: Semantics, options: &Options) -> Vec<String> {
    vec![
        format!(
            "splitpoints scenario {} under {} semantics: {}",
            scenario.name,
            semantics.name(),
            scenario.description
        ),
        format!("built with {}", options.command_line()),
    ]
}
