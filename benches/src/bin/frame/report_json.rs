//! The frame demo's `--json`: everything it measured ([`Report`]) as one JSON object, printed
//! from the same parts as the summary (`frame_report.rs`, `run_report.rs`, `bundle_report.rs`).
//!
//! **In:** the report's parts. **Out:** one JSON object (a string).
//!
//! **Invariant.** Nothing is computed for the JSON alone: a rate or ratio is the part's
//! [`Derived`], `null` where the summary prints `-`.

use std::fmt::Write as _;

use benches::capture::CaptureReport;
use benches::cli::json_string as string;
use recorder::{Semantics, Validation};

use crate::bundle_report::*;
use crate::frame_options::Options;
use crate::frame_report::*;
use crate::run_report::*;

/// Everything the demo measured, for `--json`.
pub struct Report<'a> {
    pub options: &'a Options,
    pub machine: &'a Machine,
    /// Legacy, then fast, as `--semantics` asked.
    pub runs: &'a [RunReport],
    pub bundles: Option<&'a BundlePart>,
    /// `--capture`: the frame each mode wrote, in the order the modes ran (`None` without it).
    pub captures: Option<&'a [CaptureReport]>,
}

impl Report<'_> {
    pub fn semantics_comparison(&self) -> Option<SemanticsComparison<'_>> {
        let legacy = self
            .runs
            .iter()
            .find(|r| r.semantics == Semantics::Legacy)?;
        let fast = self.runs.iter().find(|r| r.semantics == Semantics::Fast)?;
        Some(SemanticsComparison { legacy, fast })
    }

    pub fn bundle_comparison(&self) -> Option<BundleComparison<'_>> {
        let part = self.bundles?;
        let fast = self.runs.iter().find(|r| r.semantics == Semantics::Fast)?;
        Some(BundleComparison {
            fast,
            bundles: &part.run,
            set: &part.set,
        })
    }
}

/// The report as one JSON object (one line, and a newline).
pub fn json(report: &Report<'_>) -> String {
    let o = report.options;
    let d = &o.scene;
    let m = report.machine;
    let semantics: Vec<String> = o.semantics.iter().map(|s| string(s.name())).collect();
    let mut out = format!(
        "{{\"options\":{{\"draws\":{},\"threads\":{},\"frames\":{},\"dynamic_fraction\":{},\
         \"unmapped_fraction\":{},\"passes\":{},\"materials\":{},\"meshes\":{},\
         \"textures_per_material\":{},\"seed\":{},\"semantics\":[{}],\"bundles\":{},\
         \"barriers\":{},\"validation\":{},\"gpu\":{}}}",
        d.draws,
        o.threads,
        o.frames,
        d.dynamic_fraction,
        d.unmapped_dynamic_fraction,
        d.passes,
        d.materials,
        d.meshes,
        d.textures_per_material,
        string(&format!("{:#x}", d.seed)),
        semantics.join(","),
        o.bundles,
        d.barriers,
        string(match o.validation {
            Validation::Off => "off",
            Validation::On => "on",
            Validation::Hazards => "hazards",
        }),
        string(gpu_placement(o.gpu).1)
    );
    let _ = write!(
        out,
        ",\"machine\":{{\"cores\":{},\"cores_from\":{},\"recording_threads\":{},\
         \"gpu_model\":{},\"gpu_model_thread\":{},\"competing_threads\":{}}}",
        m.cores.map_or("null".to_string(), |c| c.to_string()),
        string(if m.cores_from_option {
            "--cores"
        } else {
            "available_parallelism"
        }),
        m.recording_threads,
        string(gpu_placement(m.gpu).1),
        m.gpu_model_thread(),
        m.competing_threads()
    );
    let _ = write!(
        out,
        ",\"warning\":{}",
        m.warning().as_deref().map_or("null".to_string(), string)
    );
    let runs: Vec<String> = report.runs.iter().map(RunReport::json).collect();
    let _ = write!(out, ",\"runs\":[{}]", runs.join(","));
    let _ = write!(
        out,
        ",\"semantics_comparison\":{}",
        report
            .semantics_comparison()
            .map_or("null".to_string(), |c| c.json())
    );
    match report.bundles {
        None => out.push_str(",\"bundles\":null"),
        Some(part) => {
            let _ = write!(
                out,
                ",\"bundles\":{{{},\"run\":{},\"against_fast_lists\":{}}}",
                part.set.json(),
                part.run.json(),
                report
                    .bundle_comparison()
                    .map_or("null".to_string(), |c| c.json())
            );
        }
    }
    match report.captures {
        None => out.push_str(",\"captures\":null"),
        Some(captures) => {
            let captures: Vec<String> = captures.iter().map(CaptureReport::json).collect();
            let _ = write!(out, ",\"captures\":[{}]", captures.join(","));
        }
    }
    out.push_str("}\n");
    out
}
