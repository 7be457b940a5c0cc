//! The replay's modes agree (docs/TRACE.md "The replay command"): plain, `--compare` and
//! `--threads N` give one verdict, and the reference of `--compare` changes nothing for a call the
//! engine refused. And the reserved words: a declaration keyword a later version of the format
//! added says so when a trace names an object by it.

use std::path::Path;

use trace::{parse, replay, Replay, ReplayOptions};

fn run(trace: &str, options: ReplayOptions) -> Replay {
    replay(trace.as_bytes(), &options)
}

fn threads(n: usize) -> ReplayOptions {
    ReplayOptions {
        threads: n,
        ..ReplayOptions::default()
    }
}

/// A query ended on a deferred context before any execution of its list, asked after at once:
/// the end counts once recorded (R-FX-3), so `--threads` must see it recorded too.
const QUERY_ENDED_ON_A_DEFERRED_CONTEXT: &str = "\
device semantics=legacy
query occlusion occlusion
context dc semantics=legacy
context other semantics=legacy
dc begin occlusion
dc draw 3 0
dc end occlusion
other draw 3 0
expect query occlusion not_ready
dc finish list
imm execute list
expect query occlusion samples=0
";

#[test]
fn r_fx_3_expect_query_of_an_end_recorded_on_a_deferred_context_is_certain_under_threads() {
    let plain = run(QUERY_ENDED_ON_A_DEFERRED_CONTEXT, ReplayOptions::default());
    assert_eq!(plain.exit_code, 0, "{}{}", plain.stdout, plain.stderr);
    // The race this closes was a worker not yet having recorded the end when the main thread
    // asked; many runs make a lost race show.
    for round in 0..200 {
        let threaded = run(QUERY_ENDED_ON_A_DEFERRED_CONTEXT, threads(2));
        assert_eq!(
            threaded, plain,
            "round {round}: --threads 2 differs from the plain run"
        );
    }
}

/// Under validation the engine leaves out a barrier it refuses (R-BAR-8); the reference of
/// `--compare` must leave it out as well: here the refused barrier would have decompressed the
/// target a later draw reads.
const REFUSED_BARRIER_UNDER_VALIDATION: &str = "\
device semantics=fast validation=on
texture color format=r8g8b8a8_unorm width=64 height=64 bind=render_target,shader_resource
rtv color_rtv color
srv color_srv color
shader vs0 stage=vs
shader ps0 stage=ps srv=0
imm vs_set_shader vs0
imm ps_set_shader ps0
imm barrier texture color sync=none:render_target access=no_access:render_target layout=undefined:render_target discard
expect resource color layout=render_target compressed=yes
# LayoutBefore `common` is stale (the texture is in render_target): refused under validation.
imm barrier texture color sync=render_target:pixel_shading access=render_target:shader_resource layout=common:shader_resource
expect error imm invalid_barrier
expect resource color layout=render_target compressed=yes
imm ps_set_shader_resources 0 color_srv
imm draw 3 0
";

#[test]
fn r_bar_8_a_barrier_refused_under_validation_changes_nothing_in_the_reference() {
    let plain = run(REFUSED_BARRIER_UNDER_VALIDATION, ReplayOptions::default());
    assert_eq!(plain.exit_code, 0, "{}{}", plain.stdout, plain.stderr);
    let compared = run(
        REFUSED_BARRIER_UNDER_VALIDATION,
        ReplayOptions {
            compare: true,
            ..ReplayOptions::default()
        },
    );
    assert!(
        compared.exit_code == 0 && compared.stdout.contains("identical to the reference"),
        "{}{}",
        compared.stdout,
        compared.stderr
    );
}

/// The keywords docs/TRACE.md's table of versions lists after version 1, with their version.
fn later_keywords() -> Vec<(String, u32)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/TRACE.md"))
        .expect("docs/TRACE.md");
    let table = text
        .split("| version | keywords added | declares |")
        .nth(1)
        .expect("TRACE.md's table of versions");
    let mut keywords = Vec::new();
    for row in table.lines().skip(2) {
        let Some(row) = row.trim_start_matches('>').trim().strip_prefix('|') else {
            break;
        };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let version: u32 = cells[0].parse().expect("a version number");
        if version > 1 {
            for word in cells[1].trim_matches('`').split_whitespace() {
                keywords.push((word.to_string(), version));
            }
        }
    }
    keywords
}

#[test]
fn trace_lexical_rules_a_later_keyword_used_as_a_name_says_the_version_that_added_it() {
    let keywords = later_keywords();
    assert!(
        keywords
            .iter()
            .any(|(word, version)| word == "query" && *version == 2),
        "TRACE.md lists `query` as added by version 2: {keywords:?}"
    );
    for (word, version) in keywords {
        let as_a_name =
            format!("device semantics=legacy\nbuffer {word} usage=default bind=vertex size=16\n");
        let error = parse(as_a_name.as_bytes()).expect_err("a reserved word names no object");
        let message = error.to_string();
        assert!(
            message.contains(&format!(
                "'{word}' is a reserved word since version {version}"
            )),
            "{message}"
        );
        let as_an_argument = format!(
            "device semantics=legacy\ncontext dc semantics=legacy\ndc set_input_layout {word}\n"
        );
        let message = parse(as_an_argument.as_bytes())
            .expect_err("a reserved word names no object")
            .to_string();
        assert!(
            message.contains(&format!("reserved word since version {version}")),
            "{message}"
        );
    }
}
