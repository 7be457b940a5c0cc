//! `frame --json` (SPEC §14, R-TOOL-1): one JSON object on stdout holding every number
//! the summary prints (the summary goes to stderr, so one run gives both and they can be held
//! side by side), and the summary's rates and ratios given only where they mean something: not
//! when the recording threads and the GPU model's thread outnumber the cores, not over a zero.
//!
//! The JSON is read with the small parser below, which refuses anything that is not one
//! well-formed value.

use std::process::Command;

/// (exit status, stdout, stderr) of the frame demo with `args`.
fn frame(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_frame"))
        .args(args)
        .output()
        .expect("the frame demo runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object; panics naming it when it is missing.
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Object(members) => members
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no member {key:?} in {self:?}")),
            other => panic!("{other:?} is not an object (looking for {key:?})"),
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            Json::Number(n) => Some(*n),
            Json::Null => None,
            other => panic!("{other:?} is neither a number nor null"),
        }
    }

    /// A number that must be there.
    fn n(&self, key: &str) -> f64 {
        self.get(key)
            .number()
            .unwrap_or_else(|| panic!("{key} is null"))
    }

    fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            other => panic!("{other:?} is not an array"),
        }
    }

    fn keys(&self) -> Vec<&str> {
        match self {
            Json::Object(members) => members.iter().map(|(k, _)| k.as_str()).collect(),
            other => panic!("{other:?} is not an object"),
        }
    }
}

/// Parses `text` as exactly one JSON value (white space around it allowed).
fn parse(text: &str) -> Result<Json, String> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = parser.value()?;
    parser.space();
    if parser.at != parser.bytes.len() {
        return Err(format!("text after the value at byte {}", parser.at));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while matches!(self.bytes.get(self.at), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.space();
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", byte as char, self.at))
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(format!("bad literal at byte {}", self.at))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.space();
        match self.bytes.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                self.space();
                if self.bytes.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Ok(Json::Object(members));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    if members.iter().any(|(k, _)| *k == key) {
                        return Err(format!("duplicate key {key:?}"));
                    }
                    self.expect(b':')?;
                    members.push((key, self.value()?));
                    self.space();
                    match self.bytes.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(Json::Object(members));
                        }
                        _ => return Err(format!("expected ',' or '}}' at byte {}", self.at)),
                    }
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.bytes.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    self.space();
                    match self.bytes.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(Json::Array(items));
                        }
                        _ => return Err(format!("expected ',' or ']' at byte {}", self.at)),
                    }
                }
            }
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(format!("no value at byte {}", self.at)),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.bytes.get(self.at) != Some(&b'"') {
            return Err(format!("expected a string at byte {}", self.at));
        }
        self.at += 1;
        let mut out = Vec::new();
        loop {
            match self.bytes.get(self.at) {
                None => return Err("unterminated string".to_string()),
                Some(b'"') => {
                    self.at += 1;
                    return String::from_utf8(out).map_err(|e| e.to_string());
                }
                Some(b'\\') => {
                    let escaped = self.bytes.get(self.at + 1).copied();
                    self.at += 2;
                    match escaped {
                        Some(b'"') => out.push(b'"'),
                        Some(b'\\') => out.push(b'\\'),
                        Some(b'/') => out.push(b'/'),
                        Some(b'n') => out.push(b'\n'),
                        Some(b'r') => out.push(b'\r'),
                        Some(b't') => out.push(b'\t'),
                        Some(b'b') => out.push(8),
                        Some(b'f') => out.push(12),
                        Some(b'u') => {
                            let hex = self
                                .bytes
                                .get(self.at..self.at + 4)
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .and_then(char::from_u32)
                                .ok_or("bad \\u escape")?;
                            self.at += 4;
                            out.extend_from_slice(hex.to_string().as_bytes());
                        }
                        _ => return Err(format!("bad escape at byte {}", self.at - 1)),
                    }
                }
                Some(&c) if c < 0x20 => return Err("control character in a string".to_string()),
                Some(&c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        while matches!(
            self.bytes.get(self.at),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|e| e.to_string())?;
        // JSON's grammar: no leading '+', no leading zeros, digits on both sides of '.'.
        let body = text.strip_prefix('-').unwrap_or(text);
        let int = body.split(['.', 'e', 'E']).next().unwrap_or("");
        let well_formed = !int.is_empty()
            && int.bytes().all(|b| b.is_ascii_digit())
            && (int == "0" || !int.starts_with('0'))
            && !body.contains("..")
            && !body.ends_with('.')
            && !body.contains(".e")
            && !body.contains(".E");
        match text.parse::<f64>() {
            Ok(n) if well_formed && n.is_finite() => Ok(Json::Number(n)),
            _ => Err(format!("bad number {text:?} at byte {start}")),
        }
    }
}

#[test]
fn the_test_parser_refuses_what_is_not_json() {
    for bad in [
        "",
        "{",
        "{}{}",
        "[1,]",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "01",
        "1.",
        "+1",
        "inf",
        "NaN",
        "{\"a\":1,\"a\":2}",
        "\"\\x\"",
        "[1 2]",
        "nul",
    ] {
        assert!(parse(bad).is_err(), "{bad:?} parsed");
    }
    assert_eq!(
        parse(" {\"a\":[1,-2.5e3,true,null,\"\\u00b5\\n\"]}\n"),
        Ok(Json::Object(vec![(
            "a".to_string(),
            Json::Array(vec![
                Json::Number(1.0),
                Json::Number(-2500.0),
                Json::Bool(true),
                Json::Null,
                Json::String("µ\n".to_string())
            ])
        )]))
    );
}

/// One run's section of the human summary.
#[derive(Default, Debug)]
struct SummaryRun {
    /// Each list's row, then the total's, as printed (11 cells).
    rows: Vec<Vec<String>>,
    /// `(category, per-list counts, total)`.
    split_points: Vec<(String, Vec<u64>, u64)>,
    /// The numbers of the "GPU model per frame" line, in order.
    gpu: Vec<u64>,
    /// Every line of the section.
    lines: Vec<String>,
}

/// The numbers in `line`, in order (words dropped, commas kept as separators).
fn numbers(line: &str) -> Vec<u64> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().expect("digits"))
        .collect()
}

/// The runs of the summary, in the order printed (legacy, fast, bundles).
fn summary_runs(summary: &str) -> Vec<SummaryRun> {
    let mut runs: Vec<SummaryRun> = Vec::new();
    let mut in_splits = false;
    for line in summary.lines() {
        if line.starts_with("legacy semantics:")
            || line.starts_with("fast semantics:")
            || line.starts_with("bundles (fast lists")
        {
            runs.push(SummaryRun {
                lines: vec![line.to_string()],
                ..SummaryRun::default()
            });
            in_splits = false;
            continue;
        }
        let Some(run) = runs.last_mut() else {
            continue;
        };
        run.lines.push(line.to_string());
        let cells: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        if line.starts_with("split points by category") {
            in_splits = true;
        } else if in_splits && line.starts_with("  ") && !line.starts_with("  resolved") {
            let counts = numbers(line);
            let (total, per_list) = counts.split_last().expect("a category's counts");
            run.split_points
                .push((cells[0].clone(), per_list.to_vec(), *total));
        } else if line.starts_with("GPU model per frame:") {
            run.gpu = numbers(line);
            in_splits = false;
        } else if cells.len() == 11
            && (cells[0] == "total" || cells[0].bytes().all(|b| b.is_ascii_digit()))
        {
            run.rows.push(cells);
        }
    }
    runs
}

/// `x` as the summary prints a cell with one decimal, `-` for null.
fn cell(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |x| format!("{x:.1}"))
}

/// Runs `frame --json` with `args`; (the JSON, the summary from stderr).
fn frame_json(args: &[&str]) -> (Json, String) {
    let args = [args, &["--json"]].concat();
    let (status, stdout, stderr) = frame(&args);
    assert_eq!(status, Some(0), "{args:?}: stderr:\n{stderr}");
    let json =
        parse(&stdout).unwrap_or_else(|e| panic!("stdout is not one JSON value: {e}\n{stdout}"));
    assert!(
        matches!(json, Json::Object(_)),
        "stdout is not one JSON object: {stdout}"
    );
    (json, stderr)
}

/// Checks that the JSON's run `run` holds the numbers of the summary's section `text`.
fn assert_run_agrees(run: &Json, text: &SummaryRun) {
    let lists = run.get("lists").items();
    assert_eq!(text.rows.len(), lists.len() + 1, "rows {:?}", text.rows);
    let labels = (0..lists.len())
        .map(|k| k.to_string())
        .chain(["total".into()]);
    let lists_and_total = lists.iter().chain([run.get("total")]);
    for ((row, list), label) in text.rows.iter().zip(lists_and_total).zip(labels) {
        let expected = [
            label,
            format!("{}", list.n("draws")),
            format!("{}", list.n("calls")),
            format!("{}", list.n("commands")),
            format!("{}", list.n("bytes")),
            format!("{}", list.n("chunks")),
            cell(Some(list.n("record_ns") / 1e3)),
            cell(list.get("bytes_per_draw").number()),
            cell(list.get("ns_per_call").number()),
            cell(Some(list.n("drop_ns") / 1e3)),
            format!("{}", list.get("split_points").n("total")),
        ];
        assert_eq!(
            row[..],
            expected[..],
            "a list's row against its JSON {list:?}"
        );
    }
    for (k, list) in lists.iter().enumerate() {
        assert_eq!(list.n("list"), k as f64);
        // Deterministic: bytes per draw is the two counts' ratio.
        assert_eq!(
            list.get("bytes_per_draw").number(),
            (list.n("draws") > 0.0).then(|| list.n("bytes") / list.n("draws"))
        );
    }
    // The split points the summary lists by category: every nonzero one, per list and total.
    let total = run.get("total").get("split_points");
    let nonzero = total
        .keys()
        .into_iter()
        .filter(|&k| k != "total" && total.n(k) > 0.0)
        .count();
    assert_eq!(text.split_points.len(), nonzero, "{:?}", text.split_points);
    for (category, per_list, sum) in &text.split_points {
        assert_eq!(*sum as f64, total.n(category), "{category}");
        let json: Vec<u64> = lists
            .iter()
            .map(|l| l.get("split_points").n(category) as u64)
            .collect();
        assert_eq!(per_list, &json, "{category}");
    }
    let gpu = run.get("gpu_model_per_frame");
    let expected: Vec<u64> = [
        gpu.n("draws"),
        gpu.n("context_rolls"),
        gpu.n("ib_executions"),
        gpu.get("split_points_resolved").n("total"),
        gpu.n("decompressions"),
    ]
    .iter()
    .map(|&n| n as u64)
    .collect();
    assert_eq!(text.gpu, expected, "the GPU model's line");
    // The times of the same run, as the summary prints them (milliseconds, three decimals).
    let ms = |ns: f64| format!("{:.3} ms", ns / 1e9 * 1e3);
    let execute = run.get("execute");
    for said in [
        format!(
            "wall {}, min {}, max {}",
            ms(run.n("wall_ns")),
            ms(run.n("min_wall_ns")),
            ms(run.n("max_wall_ns"))
        ),
        format!(
            "record time: {} summed over threads, {} for the slowest thread; ",
            ms(run.n("record_sum_ns")),
            ms(run.n("record_max_ns"))
        ),
        format!(
            ": {} for the {} lists ({} per list)",
            ms(execute.n("ns")),
            execute.n("lists"),
            ms(execute.n("ns_per_list"))
        ),
    ] {
        assert!(
            text.lines.iter().any(|line| line.contains(&said)),
            "{said:?} not in {:#?}",
            text.lines
        );
    }
}

#[test]
fn r_tool_1_frame_json_is_one_object_with_the_summary_numbers() {
    // --cores 64: no warning on any machine, so that every ratio is given.
    let (json, summary) = frame_json(&["--draws", "400", "--frames", "1", "--cores", "64"]);
    assert_eq!(
        json.keys(),
        [
            "options",
            "machine",
            "warning",
            "runs",
            "semantics_comparison",
            "bundles",
            "captures"
        ]
    );
    assert_eq!(json.get("warning"), &Json::Null);
    assert_eq!(
        json.get("captures"),
        &Json::Null,
        "no --capture, no captures"
    );
    assert_eq!(json.get("options").n("draws"), 400.0);
    assert_eq!(json.get("options").n("threads"), 2.0);
    let machine = json.get("machine");
    assert_eq!(machine.n("cores"), 64.0);
    assert_eq!(machine.get("cores_from"), &Json::String("--cores".into()));
    assert_eq!(machine.n("competing_threads"), 2.0);

    let text = summary_runs(&summary);
    let runs = json.get("runs").items();
    let bundles = json.get("bundles");
    assert_eq!(
        text.len(),
        3,
        "legacy, fast and bundles in the summary:\n{summary}"
    );
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0].get("mode"), &Json::String("legacy".into()));
    assert_eq!(runs[1].get("mode"), &Json::String("fast".into()));
    for (run, section) in runs.iter().chain([bundles.get("run")]).zip(&text) {
        assert_run_agrees(run, section);
    }
    // The frame's draws, wherever they are counted.
    for run in runs.iter().chain([bundles.get("run")]) {
        assert_eq!(run.get("total").n("draws"), 400.0);
        assert_eq!(run.get("gpu_model_per_frame").n("draws"), 400.0);
    }
    // Legacy has split points at this mix; fast, none (its dynamic buffers are mapped first).
    assert!(runs[0].get("total").get("split_points").n("total") > 0.0);
    assert_eq!(runs[1].get("total").get("split_points").n("total"), 0.0);
    assert_eq!(
        runs[0].get("total").get("split_points").n("total"),
        runs[0]
            .get("gpu_model_per_frame")
            .get("split_points_resolved")
            .n("total"),
        "each split point recorded is resolved"
    );

    // The bundles: count, draws and bytes as the summary says them.
    let line = summary
        .lines()
        .find(|l| l.starts_with("bundles: "))
        .expect("the bundles' line");
    let said = numbers(line);
    assert_eq!(said[0] as f64, bundles.n("count"), "{line}");
    assert_eq!(bundles.n("count"), 200.0);
    assert_eq!(said[2] as f64, bundles.n("draws"), "{line}");
    let size = summary
        .lines()
        .find(|l| l.starts_with("  size "))
        .expect("the bundles' size line");
    assert!(
        size.starts_with(&format!(
            "  size {} bytes in all ({:.1} per bundle)",
            bundles.n("bytes"),
            bundles.n("bytes_per_bundle")
        )),
        "{size}"
    );

    // The ratios: given (nothing competed), and the ones the summary prints.
    let ratio = json
        .get("semantics_comparison")
        .n("fast_ns_per_call_over_legacy");
    assert!(
        summary.contains(&format!(
            "fast records a call in {ratio:.2}x the time legacy takes"
        )),
        "{summary}"
    );
    let against = bundles.get("against_fast_lists");
    let speedup = against.n("record_speedup");
    assert!(
        summary.contains(&format!(" ({speedup:.1}x); ")),
        "{summary}"
    );
    assert_eq!(
        against.n("fast_record_ns"),
        runs[1].n("record_sum_ns"),
        "the comparison's fast time is the fast run's"
    );
    for run in runs {
        assert!(run.n("calls_per_second_per_thread") > 0.0);
    }
}

#[test]
fn r_tool_1_frame_warns_when_threads_outnumber_cores_and_gives_no_timing_ratio() {
    // Three recording threads on two cores, then two and the GPU model's thread on two.
    for (args, competing) in [
        (&["--threads", "3", "--cores", "2"][..], 3.0),
        (
            &["--threads", "2", "--cores", "2", "--gpu", "threaded"][..],
            3.0,
        ),
    ] {
        let args = [&["--draws", "400", "--frames", "1"], args].concat();
        let (json, summary) = frame_json(&args);
        let Json::String(warning) = json.get("warning") else {
            panic!("{args:?}: no warning in the JSON");
        };
        assert!(
            warning.starts_with("3 threads compete for 2 core(s)"),
            "{warning}"
        );
        assert!(
            summary.contains(&format!("warning: {warning}\n")),
            "{summary}"
        );
        assert_eq!(json.get("machine").n("competing_threads"), competing);
        let runs = json.get("runs").items();
        let bundles = json.get("bundles");
        for run in runs.iter().chain([bundles.get("run")]) {
            assert_eq!(run.get("calls_per_second_per_thread"), &Json::Null);
            for list in run.get("lists").items().iter().chain([run.get("total")]) {
                assert_eq!(list.get("ns_per_call"), &Json::Null);
                // Counts alone still mean what they say.
                assert!(list.n("bytes_per_draw") > 0.0);
            }
        }
        assert_eq!(
            json.get("semantics_comparison")
                .get("fast_ns_per_call_over_legacy"),
            &Json::Null
        );
        let against = bundles.get("against_fast_lists");
        for ratio in ["record_speedup", "saved_ns", "frames_to_repay"] {
            assert_eq!(against.get(ratio), &Json::Null, "{ratio}");
        }
        // The times are still given: they are what was measured.
        assert!(against.n("fast_record_ns") > 0.0);
        // The summary prints no ratio either, and says why.
        assert!(!summary.contains("fast records a call in"), "{summary}");
        assert!(!summary.contains("frames' saving\n"), "{summary}");
        assert!(!summary.contains("x); "), "{summary}");
        assert!(
            summary.contains("fast's time per call against legacy's not given: threads competed"),
            "{summary}"
        );
        for section in summary_runs(&summary) {
            for row in &section.rows {
                assert_eq!(row[8], "-", "ns/call in {row:?}");
            }
        }
    }
}

#[test]
fn r_tool_1_frame_counts_the_machines_own_cores_when_not_told() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (json, _) = frame_json(&[
        "--draws",
        "400",
        "--frames",
        "1",
        "--bundles",
        "off",
        "--semantics",
        "fast",
    ]);
    assert_eq!(json.get("semantics_comparison"), &Json::Null, "fast alone");
    assert_eq!(json.get("bundles"), &Json::Null, "--bundles off");
    let machine = json.get("machine");
    assert_eq!(machine.n("cores"), cores as f64);
    assert_eq!(
        machine.get("cores_from"),
        &Json::String("available_parallelism".into())
    );
    // One thread more than the cores, where a device's 48 contexts allow it.
    if cores < 48 {
        let threads = (cores + 1).to_string();
        let (json, summary) = frame_json(&[
            "--draws",
            "400",
            "--frames",
            "1",
            "--bundles",
            "off",
            "--semantics",
            "fast",
            "--threads",
            &threads,
        ]);
        assert_ne!(
            json.get("warning"),
            &Json::Null,
            "{threads} threads on {cores} cores"
        );
        assert!(summary.contains("warning: "), "{summary}");
        assert_eq!(
            json.get("runs").items()[0].get("total").get("ns_per_call"),
            &Json::Null
        );
    }
}

#[test]
fn r_tool_1_frame_gives_no_ratio_over_a_zero_count() {
    // 3 draws are 2 objects: the bundles' run gives its first of 3 lists no object, so no draw.
    let (json, summary) = frame_json(&["--draws", "3", "--threads", "3", "--frames", "1"]);
    let run = json.get("bundles").get("run");
    let first = &run.get("lists").items()[0];
    assert_eq!(first.n("draws"), 0.0);
    assert_eq!(first.get("bytes_per_draw"), &Json::Null);
    let section = summary_runs(&summary);
    assert_eq!(section[2].rows[0][1], "0");
    assert_eq!(section[2].rows[0][7], "-", "B/draw over no draw");
    assert!(
        !summary.contains("inf") && !summary.contains("NaN"),
        "{summary}"
    );
}

#[test]
fn r_tool_1_frame_json_and_cores_options_are_checked() {
    let (status, _, stderr) = frame(&["--json=yes"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("--json takes no value"), "{stderr}");
    let (status, _, stderr) = frame(&["--cores", "0"]);
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("--cores: '0' is not a whole number"),
        "{stderr}"
    );
}

/// `--capture` with `--json` (R-CAP-6): `captures` holds each run's frame, as the stderr line
/// says it, and what failed first.
#[test]
fn r_cap_6_json_holds_the_captures() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("r_cap_6_json");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the test's folder");
    let file = dir.join("f.trace");
    let file = file.to_str().expect("a UTF-8 path");
    let (json, stderr) = frame_json(&[
        "--draws",
        "200",
        "--frames",
        "1",
        "--semantics",
        "fast",
        "--capture",
        file,
        "--capture-stale-list",
    ]);
    let captures = json.get("captures").items();
    let modes: Vec<&Json> = captures.iter().map(|c| c.get("mode")).collect();
    assert_eq!(
        modes,
        [
            &Json::String("fast".into()),
            &Json::String("bundles".into())
        ]
    );
    for capture in captures {
        let Json::String(mode) = capture.get("mode") else {
            panic!("{capture:?}")
        };
        let Json::String(path) = capture.get("path") else {
            panic!("{capture:?}")
        };
        let Json::String(digest) = capture.get("digest") else {
            panic!("{capture:?}")
        };
        let line = format!(
            "capture {mode}: wrote {path} ({} bytes): digest={digest} records={}",
            capture.n("bytes"),
            capture.n("records")
        );
        assert!(stderr.lines().any(|l| l == line), "{line}\n{stderr}");
        assert_eq!(
            std::fs::metadata(path).expect("written").len() as f64,
            capture.n("bytes")
        );
        // The stale list fails each run's first captured frame, the next one is written.
        let failed = capture.get("failed").items();
        assert_eq!(failed.len(), 1, "{capture:?}");
        assert!(failed[0].n("frame") < capture.n("frame"), "{capture:?}");
        let Json::String(reason) = failed[0].get("reason") else {
            panic!("{capture:?}")
        };
        assert!(
            reason.contains("recorded before the capture began"),
            "{reason}"
        );
    }
}
