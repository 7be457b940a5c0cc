//! The split-point advisor (SPEC R-TOOL-2, `replay --explain`): every split point of a trace
//! named with the call that made it, and each fix's removals what a re-run of the fixed trace
//! counts.

mod replay {
    pub mod generate;
}

use std::path::Path;

use proptest::prelude::*;
use recorder::{SplitCategory, SplitCounts};
use trace::explain::{explain, Advice, Fix};
use trace::{replay, Args, ReplayOptions};

fn traces() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces");
    let mut all: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("the conformance traces")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "trace"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a trace");
            (path.display().to_string(), text)
        })
        .collect();
    all.sort();
    all
}

/// The advice on `trace`, the files it names (R-GPU-2) relative to the conformance traces'
/// folder.
fn advise(trace: &str) -> Advice {
    let parsed = trace::parse(trace.as_bytes()).unwrap_or_else(|error| panic!("parse: {error}"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces");
    trace::explain::explain_parsed_in(&parsed, Some(&dir))
        .unwrap_or_else(|error| panic!("explain: {error}"))
}

fn by_category(advice: &Advice) -> SplitCounts {
    let mut counts = SplitCounts::default();
    for point in &advice.points {
        counts[point.category] += 1;
    }
    counts
}

/// Split points recorded by a replay of `trace`, read from its JSON report.
fn recorded_by_replay(trace: &str) -> u32 {
    let options = ReplayOptions {
        json: true,
        ..Default::default()
    };
    let run = replay(trace.as_bytes(), &options);
    assert_ne!(run.exit_code, 2, "{}", run.stderr);
    let key = "\"split_points\":{\"recorded\":{\"total\":";
    let at = run.stdout.find(key).expect("split points in the JSON") + key.len();
    let digits: String = run.stdout[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a count")
}

#[test]
fn r_tool_2_every_split_point_of_the_conformance_traces_is_named_with_its_call() {
    let mut named = 0;
    for (path, text) in traces() {
        let advice = advise(&text);
        assert_eq!(
            by_category(&advice),
            advice.baseline.recorded,
            "{path}: one note per recorded split point, by category"
        );
        let lines: Vec<&str> = text.lines().collect();
        for point in &advice.points {
            let line = lines[point.line - 1];
            let method = point.statement.split(' ').next().unwrap_or("");
            match point.call {
                Some(_) => {
                    assert!(
                        line.trim_start()
                            .starts_with(&format!("{} {method}", point.context)),
                        "{path}:{}: the note names `{} {}`, the line is `{line}`",
                        point.line,
                        point.context,
                        point.statement
                    );
                }
                None => assert!(line.contains("finish"), "{path}:{}: {line}", point.line),
            }
            if point.category.is_dynamic() || point.category == SplitCategory::Decompression {
                let resource = point.resource.as_deref().expect("the resource it is about");
                // A swap binds what its state object holds: the resource is not on its line
                // (R-FX-6).
                assert!(
                    line.contains(resource) || line.contains("swap_device_context_state"),
                    "{path}:{}: {resource}",
                    point.line
                );
            }
            assert_eq!(
                point.also.last().copied().unwrap_or(point.fix),
                Fix::FastSemantics
            );
            named += 1;
        }
    }
    assert!(
        named >= 14,
        "the conformance traces have split points to name ({named})"
    );
}

#[test]
fn r_tool_2_the_split_points_trace_is_explained_call_by_call() {
    let text = traces()
        .into_iter()
        .find(|(path, _)| path.ends_with("r_sp_split_points.trace"))
        .expect("r_sp_split_points.trace")
        .1;
    let advice = advise(&text);
    let at = |line: usize| -> Vec<(SplitCategory, Fix)> {
        advice
            .points
            .iter()
            .filter(|p| p.line == line)
            .map(|p| (p.category, p.fix))
            .collect()
    };
    // Lines 34-42 of the trace: one split point of each category of R-SP-1.
    assert_eq!(
        at(34),
        [(SplitCategory::ClearRenderTarget, Fix::FastSemantics)]
    );
    assert_eq!(
        at(36),
        [(SplitCategory::SetRenderTargets, Fix::FastSemantics)]
    );
    assert_eq!(
        at(39),
        [(SplitCategory::DynamicVertexBuffer, Fix::Immutable)]
    );
    // `cb` is mapped twice on `imm`: its contents change, so it is mapped in the list instead.
    assert_eq!(
        at(41),
        [(SplitCategory::DynamicConstantBuffer, Fix::MapInList)]
    );
    assert_eq!(
        at(58),
        [(SplitCategory::Decompression, Fix::TextureCompatible)]
    );
    let call_of_41 = advice
        .points
        .iter()
        .find(|p| p.line == 41)
        .expect("line 41");
    assert_eq!(
        (call_of_41.list.as_str(), call_of_41.call),
        ("every_category", Some(7))
    );
    let fast = advice
        .fixes
        .iter()
        .find(|f| f.fix == Fix::FastSemantics)
        .expect("fast semantics applies to every split point");
    assert_eq!(fast.applies_to, advice.baseline.recorded);
    assert_eq!(fast.after.recorded.total(), 0);
    assert_eq!(fast.after.new_refusals(&advice.baseline).count(), 0);
}

/// A legacy frame with a split point of each kind a tip of the command-list documentation
/// removes, and the same frame fixed by hand as each fix says: the advisor's re-run must count
/// what the replay of the hand-fixed trace counts.
const FRAME: &str = "device semantics=legacy
buffer once usage=dynamic bind=constant size=256
buffer often usage=dynamic bind=constant size=256
texture color format=r8g8b8a8_unorm width=64 height=64 bind=render_target,shader_resource
rtv color_rtv color
srv color_srv color
texture out format=r8g8b8a8_unorm width=64 height=64 bind=render_target
rtv out_rtv out
depth_stencil_state ds
shader vs0 stage=vs cb=0-1
shader ps0 stage=ps srv=0
context dc semantics=legacy
imm map once write_discard
imm unmap once
imm map often write_discard
imm unmap often
imm clear_render_target_view color_rtv 0 0 0 0
dc om_set_render_targets out_rtv null
dc om_set_depth_stencil_state ds
dc vs_set_shader vs0
dc ps_set_shader ps0
dc vs_set_constant_buffers 0 once often
dc ps_set_shader_resources 0 color_srv
dc draw 3 0
dc om_set_depth_stencil_state ds
dc om_set_render_targets out_rtv null
dc draw 3 0
dc finish list
imm execute list
imm map often write_discard
imm unmap often
imm execute list
";

fn edited(from: &[(&str, &str)]) -> String {
    let mut text = FRAME.to_string();
    for (old, new) in from {
        assert!(text.contains(old), "the frame has `{old}`");
        text = text.replacen(old, new, 1);
    }
    text
}

#[test]
fn r_tool_2_each_fix_removes_what_a_rerun_of_the_fixed_trace_counts() {
    let advice = advise(FRAME);
    assert_eq!(recorded_by_replay(FRAME), advice.baseline.recorded.total());
    // Split points: the two target binds, the two state sets, two dynamic cbs, one decompression.
    assert_eq!(advice.baseline.recorded.total(), 7);
    let by_hand = [
        (
            Fix::Immutable,
            edited(&[
                ("buffer once usage=dynamic", "buffer once usage=immutable"),
                ("imm map once write_discard\nimm unmap once\n", ""),
            ]),
        ),
        (
            Fix::MapInList,
            edited(&[(
                "dc vs_set_constant_buffers 0 once often",
                "dc map once write_discard\ndc unmap once\ndc map often write_discard\n\
                 dc unmap often\ndc vs_set_constant_buffers 0 once often",
            )]),
        ),
        (
            Fix::TextureCompatible,
            edited(&[("bind=render_target,shader_resource", "bind=render_target,shader_resource tc=yes")]),
        ),
        (
            Fix::FewerStateChanges,
            edited(&[(
                "dc draw 3 0\ndc om_set_depth_stencil_state ds\ndc om_set_render_targets out_rtv null\n",
                "dc draw 3 0\n",
            )]),
        ),
    ];
    for (fix, trace) in by_hand {
        let outcome = advice
            .fixes
            .iter()
            .find(|o| o.fix == fix)
            .unwrap_or_else(|| panic!("{fix} applies to the frame"));
        assert_eq!(
            outcome.after.recorded.total(),
            recorded_by_replay(&trace),
            "{fix}: the advisor's re-run against the replay of the trace fixed by hand"
        );
        assert!(
            outcome.after.recorded.total() < advice.baseline.recorded.total(),
            "{fix} removes split points"
        );
        if fix == Fix::FewerStateChanges {
            // Only re-binds of what was bound went: the draws are the same.
            assert_eq!(outcome.after.records_changed(&advice.baseline), 0);
        }
    }
    let all = advice
        .recommended
        .as_ref()
        .expect("the command-list documentation's fixes apply");
    // Left: the first target bind and the first state set, which the draws need.
    assert_eq!(all.after.recorded.total(), 2);
    assert_eq!(all.after.recorded[SplitCategory::SetRenderTargets], 1);
    assert_eq!(all.after.recorded[SplitCategory::SetDepthStencilState], 1);
}

/// The immutable fix removes a buffer's maps and unmaps, and the `write` statements between
/// them (R-CAP-4): left alone, each would be refused (no open map) in the re-run.
#[test]
fn r_cap_4_write_statements_go_with_the_maps_the_immutable_fix_removes() {
    let frame = edited(&[(
        "imm map once write_discard\nimm unmap once\n",
        "imm map once write_discard\nimm write once 0 0000803f\nimm unmap once\n",
    )]);
    let advice = advise(&frame);
    assert!(
        advice.baseline.refusals.is_empty(),
        "{:?}",
        advice.baseline.refusals
    );
    let immutable = advice
        .fixes
        .iter()
        .find(|o| o.fix == Fix::Immutable)
        .expect("the immutable fix applies to `once`");
    assert_eq!(
        immutable.after.new_refusals(&advice.baseline).count(),
        0,
        "{:?}",
        immutable.after.refusals
    );
    assert!(
        immutable.edit.contains("3 map/write/unmap statement(s)"),
        "{}",
        immutable.edit
    );
}

#[test]
fn r_tool_2_a_carried_start_is_named_by_the_finish_that_carried_it() {
    let trace = "device semantics=legacy
buffer cb usage=dynamic bind=constant size=256
shader vs0 stage=vs cb=0
context dc semantics=legacy
dc vs_set_constant_buffers 0 cb
dc finish first restore=yes
dc vs_set_shader vs0
dc draw 3 0
dc finish second
";
    let advice = advise(trace);
    let second: Vec<_> = advice
        .points
        .iter()
        .filter(|p| p.list == "second")
        .collect();
    assert_eq!(second.len(), 1, "{:?}", advice.points);
    assert_eq!((second[0].call, second[0].line), (None, 6));
    assert_eq!(second[0].category, SplitCategory::DynamicConstantBuffer);
    assert_eq!(second[0].fix, Fix::FastSemantics);
}

#[test]
fn r_tool_2_replay_explain_adds_the_advice_and_keeps_the_verdict() {
    let args = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
    let Ok(Args::Run { options, .. }) = ReplayOptions::from_args(args("t.trace --explain")) else {
        panic!("--explain is an option");
    };
    assert!(options.explain);
    let run = replay(FRAME.as_bytes(), &options);
    assert_eq!(run.exit_code, 0);
    assert!(run
        .stdout
        .contains("\nexplain: 1 lists; 7 split points recorded"));
    assert!(run.stdout.contains("fix map_in_list:"));
    assert!(run
        .stdout
        .contains("line 22: dc list call 4: vs_set_constant_buffers 0 once often"));
    let failing = format!("{FRAME}expect split_points list total=0\n");
    assert_eq!(replay(failing.as_bytes(), &options).exit_code, 1);
    let json = replay(
        FRAME.as_bytes(),
        &ReplayOptions {
            json: true,
            ..options
        },
    );
    assert_eq!(json.exit_code, 0);
    assert!(json.stdout.starts_with("{\"exit\":0,"));
    assert!(json.stdout.ends_with("}}\n"));
    assert!(json.stdout.contains(",\"explain\":{\"lists\":1,"));
    assert_eq!(
        json.stdout.matches('{').count(),
        json.stdout.matches('}').count()
    );
}

proptest! {
    // `EXPLAIN_CASES=2000` for a long run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("EXPLAIN_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(24),
        ..ProptestConfig::default()
    })]

    /// On random traces (the replay's generator): every recorded split point has its note, each
    /// naming a line of the trace, and every fix's edited trace runs (`explain` is `Ok`).
    #[test]
    fn r_tool_2_random_traces_are_explained_split_point_by_split_point(
        seed in any::<u64>(),
        count in 1usize..160,
    ) {
        let trace = replay::generate::trace(seed, count);
        let advice = explain(trace.as_bytes());
        prop_assert!(advice.is_ok(), "{:?}\n{}", advice.err(), trace);
        let advice = advice.unwrap_or_else(|_| unreachable!());
        prop_assert_eq!(by_category(&advice), advice.baseline.recorded);
        let lines = trace.lines().count();
        for point in &advice.points {
            prop_assert!(point.line >= 1 && point.line <= lines, "{:?}", point);
        }
        if let Some(fast) = advice.fixes.iter().find(|f| f.fix == Fix::FastSemantics) {
            prop_assert_eq!(fast.applies_to, advice.baseline.recorded);
        }
    }
}
