//! The project's reference documents kept true: every example block of the trace-format
//! reference (`trace/docs/TRACE.md`) and of the semantics guide (`recorder/docs/semantics.md`)
//! runs through the replay's library API, and every synopsis line of the reference is checked
//! against the parser.
//!
//! The blocks, by their fence's info string:
//! * ` ```trace `: a complete trace; it parses, and replays with every expectation holding (exit
//!   code 0), alone, under `--compare` and with `--threads 2`.
//! * ` ```trace exit-N `: a complete trace that ends with exit code N (2: malformed, 1: an
//!   expectation failed); the ` ```output ` block right after it holds lines that each appear in
//!   what the replay printed (the error or the failure).
//! * ` ```text `: a synopsis (the grammar of declarations, calls, expectations, the command).
//!   Every declaration keyword, method and expectation it names is one the parser knows, or one
//!   the reference says is not built yet, which the parser must then still refuse as unknown (so
//!   building it fails this test until the note goes).
//!
//! Any other fenced block fails the test: no example goes unchecked.

use std::path::Path;

use trace::{parse, replay, ReplayOptions};

/// A fenced block: its info string, its text, the line its fence opens on.
struct Block {
    info: String,
    text: String,
    line: usize,
}

fn blocks(path: &str) -> Vec<Block> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (index, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_owned(),
                    text: String::new(),
                    line: index + 1,
                })
            }
            (Some(_), Some("")) => blocks.extend(open.take()),
            (Some(block), _) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{path}: a fenced block is not closed");
    blocks
}

/// Runs the example blocks of `path`; how many complete traces ran.
fn run_examples(path: &str) -> usize {
    let blocks = blocks(path);
    let mut traces = 0;
    let mut index = 0;
    while index < blocks.len() {
        let block = &blocks[index];
        let at = format!("{path}:{}", block.line);
        index += 1;
        match block.info.as_str() {
            "text" => {}
            "trace" => {
                traces += 1;
                parse(block.text.as_bytes()).unwrap_or_else(|e| panic!("{at}: {e}"));
                for options in [
                    ReplayOptions::default(),
                    ReplayOptions {
                        compare: true,
                        ..ReplayOptions::default()
                    },
                    ReplayOptions {
                        threads: 2,
                        ..ReplayOptions::default()
                    },
                ] {
                    let run = replay(block.text.as_bytes(), &options);
                    assert_eq!(
                        run.exit_code, 0,
                        "{at}: the example does not hold ({options:?}):\n{}{}",
                        run.stdout, run.stderr
                    );
                }
            }
            info => {
                let code: i32 = info
                    .strip_prefix("trace exit-")
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{at}: unknown example block '```{info}'"));
                traces += 1;
                let output = blocks
                    .get(index)
                    .filter(|next| next.info == "output")
                    .unwrap_or_else(|| panic!("{at}: a '```{info}' block needs an output block"));
                index += 1;
                if code != 2 {
                    parse(block.text.as_bytes()).unwrap_or_else(|e| panic!("{at}: {e}"));
                }
                let run = replay(block.text.as_bytes(), &ReplayOptions::default());
                let printed = format!("{}{}", run.stdout, run.stderr);
                assert_eq!(run.exit_code, code, "{at}: exit code; printed:\n{printed}");
                for line in output.text.lines() {
                    assert!(
                        printed.lines().any(|p| p == line),
                        "{at}: the replay does not print `{line}`; printed:\n{printed}"
                    );
                }
            }
        }
    }
    traces
}

#[test]
fn trace_reference_every_example_runs_as_documented() {
    assert!(run_examples("trace/docs/TRACE.md") >= 5);
}

#[test]
fn semantics_guide_every_example_runs_as_documented() {
    assert!(run_examples("recorder/docs/semantics.md") >= 4);
}

/// What the reference says is not built yet: each is still refused as unknown.
const NOT_BUILT: &[&str] = &[];

/// Whether the parser knows the declaration, method or expectation a synopsis line starts
/// with: it may refuse the line's arguments, never the word.
fn known(line: &str) -> Result<(), String> {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or_default();
    let (statement, word, unknown) = match first {
        "expect" => {
            let what = words.next().unwrap_or_default();
            (
                format!("expect {what}"),
                format!("expect {what}"),
                "expected ok, accepted, error",
            )
        }
        "device" => return Ok(()),
        // A declaration keyword: `NAME` follows it, a method's arguments start otherwise.
        _ if words.next() == Some("NAME") => (
            format!("{first} x_x"),
            first.to_owned(),
            "unknown statement",
        ),
        _ => {
            let method = first.replace("STAGE_", "vs_");
            (format!("imm {method}"), method, "unknown method")
        }
    };
    let trace = format!("device semantics=fast\n{statement}\n");
    let refused_as_unknown = match parse(trace.as_bytes()) {
        Ok(_) => false,
        Err(e) => e.to_string().contains(unknown) || e.to_string().contains("not built yet"),
    };
    match (NOT_BUILT.contains(&word.as_str()), refused_as_unknown) {
        (false, false) | (true, true) => Ok(()),
        (false, true) => Err(format!("the parser does not know `{word}`")),
        (true, false) => Err(format!(
            "`{word}` is built now: the reference's 'Not built yet' note and NOT_BUILT must go"
        )),
    }
}

/// A BARRIER form of the synopsis (`global …`, `buffer BUF …`, `texture TEX …`): the parser
/// knows its kind (it may refuse the placeholder arguments, never the kind).
fn barrier_form_known(line: &str) -> Result<(), String> {
    let kind = line.split_whitespace().next().unwrap_or_default();
    let trace = format!("device semantics=fast\nimm barrier {kind}\n");
    match parse(trace.as_bytes()) {
        Err(e) if e.to_string().contains("expected a barrier (") => Err(format!(
            "the parser does not know the BARRIER `{kind}` ({e})"
        )),
        _ => Ok(()),
    }
}

#[test]
fn trace_reference_every_synopsis_line_names_what_the_parser_knows() {
    let mut checked = 0;
    for block in blocks("trace/docs/TRACE.md") {
        let first = block.text.split_whitespace().next().unwrap_or_default();
        // The command line; the BARRIER forms are checked below.
        if block.info != "text" || first == "replay" {
            continue;
        }
        if first == "global" {
            for line in block.text.lines().filter(|l| !l.trim().is_empty()) {
                checked += 1;
                if let Err(problem) = barrier_form_known(line) {
                    panic!("trace/docs/TRACE.md:{}: {problem}: {line}", block.line);
                }
            }
            continue;
        }
        for line in block.text.lines() {
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            checked += 1;
            if let Err(problem) = known(line) {
                panic!("trace/docs/TRACE.md:{}: {problem}: {line}", block.line);
            }
        }
    }
    assert!(checked > 70, "only {checked} synopsis lines checked");
}

#[test]
fn trace_reference_the_command_synopsis_is_the_usage() {
    let usage = trace::USAGE;
    let command = blocks("trace/docs/TRACE.md")
        .into_iter()
        .find(|b| b.text.starts_with("replay "))
        .expect("the command's synopsis");
    for word in command.text.split_whitespace() {
        let option = word.trim_matches(|c| c == '[' || c == ']');
        if option.starts_with("--") {
            assert!(usage.contains(option), "USAGE lacks {option}: {usage}");
        }
    }
}
