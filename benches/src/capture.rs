//! `--capture FILE` of the frame demo and the renderer example (SPEC §13, R-CAP-6): where a
//! captured frame is written, and the line that says so.
//!
//! **In:** the option's value; per mode (legacy lists, fast lists, bundles) the outcomes the
//! capture hands back after each frame ([`FrameOutcome`]). **Out:** the frame's trace in a file
//! and, on stderr, `capture MODE: wrote PATH (BYTES bytes): digest=D records=N`, `D` as
//! `replay PATH` prints it (`digest={:016x}`), so that the two can be compared by eye or by a
//! test; [`CaptureReport`] holds the same for `--json`.
//!
//! **Failures.** A frame the capture could not write (a list recorded before the capture began,
//! R-CAP-5) is reported with its reason, `capture MODE: frame F not captured: REASON`, and the
//! front end runs another frame: a triggered capture tries the next one by itself. After
//! [`ATTEMPTS`] frames in a row have failed, the run stops with the last reason.
//!
//! **Files.** One mode writes `FILE` itself; several write `FILE` with the mode inserted before
//! the extension (`f.trace` -> `f.legacy.trace`, `f.fast.trace`, `f.bundles.trace`; `f` ->
//! `f.legacy`).

use std::path::{Path, PathBuf};

use trace::capture::{CapturedFrame, FrameOutcome};

use crate::cli::{json_string, output_file};

/// Frames a front end runs for one capture before it gives up: the first, and two retries.
pub const ATTEMPTS: u32 = 3;

/// `--capture`'s value: a file name in a folder that exists ([`output_file`]'s rule, checked
/// now, so that a typo stops the run before it records anything; the file itself is written
/// after the frame).
pub fn capture_path_option(option: &str, value: &str) -> Result<PathBuf, String> {
    output_file(option, value)
}

/// Where mode `mode` writes its frame when `modes` modes run: `file` itself for one, else
/// `file` with `.mode` before its extension.
pub fn capture_path(file: &Path, mode: &str, modes: usize) -> PathBuf {
    if modes <= 1 {
        return file.to_path_buf();
    }
    let name = match (file.file_stem(), file.extension()) {
        (Some(stem), Some(extension)) => format!(
            "{}.{mode}.{}",
            stem.to_string_lossy(),
            extension.to_string_lossy()
        ),
        _ => format!(
            "{}.{mode}",
            file.file_name().unwrap_or_default().to_string_lossy()
        ),
    };
    file.with_file_name(name)
}

/// A frame written, and the frames that failed before it.
#[derive(Clone, Debug)]
pub struct CaptureReport {
    /// `legacy`, `fast` or `bundles` (the frame demo), or the renderer's semantics.
    pub mode: &'static str,
    pub path: PathBuf,
    pub bytes: u64,
    /// The frame written: presents of the active swap chain before it.
    pub frame: u64,
    pub digest: u64,
    pub records: usize,
    /// Calls the trace format has no statement for, written as comments.
    pub not_written: Vec<&'static str>,
    /// The frames that failed first: (frame, reason).
    pub failed: Vec<(u64, String)>,
}

impl CaptureReport {
    /// The summary's line, `capture MODE: wrote PATH (BYTES bytes): digest=D records=N`.
    pub fn line(&self) -> String {
        let mut line = format!(
            "capture {}: wrote {} ({} bytes): digest={:016x} records={}",
            self.mode,
            self.path.display(),
            self.bytes,
            self.digest,
            self.records
        );
        if !self.not_written.is_empty() {
            line.push_str(&format!(
                " ({} call(s) the trace format cannot say, written as comments: {})",
                self.not_written.len(),
                self.not_written.join(", ")
            ));
        }
        line
    }

    /// The report as a JSON object; the digest as a string of 16 hex digits, as `replay` prints
    /// it (a JSON number cannot hold every u64).
    pub fn json(&self) -> String {
        let failed: Vec<String> = self
            .failed
            .iter()
            .map(|(frame, reason)| {
                format!("{{\"frame\":{frame},\"reason\":{}}}", json_string(reason))
            })
            .collect();
        let not_written: Vec<String> = self.not_written.iter().map(|n| json_string(n)).collect();
        format!(
            "{{\"mode\":{},\"path\":{},\"bytes\":{},\"frame\":{},\"digest\":{},\"records\":{},\
             \"not_written\":[{}],\"failed\":[{}]}}",
            json_string(self.mode),
            json_string(&self.path.to_string_lossy()),
            self.bytes,
            self.frame,
            json_string(&format!("{:016x}", self.digest)),
            self.records,
            not_written.join(","),
            failed.join(",")
        )
    }
}

/// One mode's capture while its frames run: takes the outcomes after each frame, reports the
/// failures, writes the frame.
pub struct PendingCapture {
    mode: &'static str,
    path: PathBuf,
    failed: Vec<(u64, String)>,
}

impl PendingCapture {
    pub fn new(mode: &'static str, path: PathBuf) -> Self {
        Self {
            mode,
            path,
            failed: Vec::new(),
        }
    }

    /// Frames run for this capture so far that failed.
    pub fn failures(&self) -> usize {
        self.failed.len()
    }

    /// What the capture handed back after a frame: each failure reported on stderr (the
    /// capture tries the next frame), a captured frame written to the file and reported.
    /// `Ok(None)` while no frame is written; `Err` when the file cannot be written or
    /// [`ATTEMPTS`] frames have failed.
    pub fn take(&mut self, outcomes: Vec<FrameOutcome>) -> Result<Option<CaptureReport>, String> {
        for outcome in outcomes {
            match outcome {
                FrameOutcome::Failed { frame, reason } => {
                    eprintln!(
                        "capture {}: frame {frame} not captured: {reason}; the capture tries \
                         the next frame",
                        self.mode
                    );
                    self.failed.push((frame, reason));
                    if self.failed.len() >= ATTEMPTS as usize {
                        return Err(format!(
                            "capture {}: {ATTEMPTS} frames in a row could not be captured",
                            self.mode
                        ));
                    }
                }
                FrameOutcome::Captured(frame) => return self.write(frame).map(Some),
            }
        }
        Ok(None)
    }

    fn write(&mut self, frame: CapturedFrame) -> Result<CaptureReport, String> {
        std::fs::write(&self.path, frame.trace.as_bytes()).map_err(|error| {
            format!(
                "capture {}: writing '{}': {error}",
                self.mode,
                self.path.display()
            )
        })?;
        let report = CaptureReport {
            mode: self.mode,
            path: self.path.clone(),
            bytes: frame.trace.len() as u64,
            frame: frame.frame,
            digest: frame.digest,
            records: frame.records,
            not_written: frame.not_written,
            failed: std::mem::take(&mut self.failed),
        };
        eprintln!("{}", report.line());
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_mode_writes_the_file_several_insert_the_mode() {
        let file = Path::new("out/f.trace");
        assert_eq!(capture_path(file, "fast", 1), PathBuf::from("out/f.trace"));
        assert_eq!(
            capture_path(file, "legacy", 3),
            PathBuf::from("out/f.legacy.trace")
        );
        assert_eq!(
            capture_path(Path::new("f"), "bundles", 2),
            PathBuf::from("f.bundles")
        );
        assert_eq!(
            capture_path(Path::new("a.b.trace"), "fast", 2),
            PathBuf::from("a.b.fast.trace")
        );
    }

    #[test]
    fn the_option_names_a_file_in_a_folder_that_exists() {
        assert!(capture_path_option("--capture", "f.trace").is_ok());
        let empty = capture_path_option("--capture", "").unwrap_err();
        assert!(empty.starts_with("--capture:"), "{empty}");
        let missing = capture_path_option("--capture", "no/such/folder/f.trace").unwrap_err();
        assert!(missing.contains("does not exist"), "{missing}");
        let folder = capture_path_option("--capture", "..").unwrap_err();
        assert!(folder.contains("names no file"), "{folder}");
    }
}
