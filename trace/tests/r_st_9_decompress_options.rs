//! R-ST-9 in the trace format: `decompress_resource RESOURCE [into=RESOURCE] [kinds=KIND,..|all]
//! [region=SUB:L,T,R,B]` parses into the call's options, prints back to itself (`kinds=all` and a
//! left-out `kinds=` are one value, printed as nothing, so older traces keep their text), and a
//! malformed option names the line and the token.

use trace::{parse, Decompression, Method, Statement};

const PRELUDE: &str = "device semantics=fast
texture rt format=r8g8b8a8_unorm width=64 height=64 bind=render_target samples=4 dcc=yes
texture copy format=r8g8b8a8_unorm width=64 height=64 bind=render_target
";

fn options(line: &str) -> (Decompression<trace::Name>, String) {
    let text = format!("{PRELUDE}imm {line}\n");
    let trace = parse(text.as_bytes()).unwrap_or_else(|e| panic!("{line}: {e}"));
    let printed = trace.to_string();
    let reparsed = parse(printed.as_bytes()).expect("the printed trace parses");
    assert_eq!(reparsed, trace, "round trip of {line}");
    let call = trace
        .statements
        .iter()
        .find_map(|(_, s)| match s {
            Statement::Call(call) => Some(call.method.clone()),
            _ => None,
        })
        .expect("one call");
    let Method::DecompressResource { options, .. } = call else {
        panic!("{call:?}")
    };
    let last = printed.lines().last().unwrap_or_default().to_string();
    (options, last)
}

#[test]
fn r_st_9_decompress_kinds_and_region_parse_and_print_back() {
    let (o, printed) = options("decompress_resource rt kinds=fmask,clear region=0:0,0,32,16");
    assert_eq!(o.into, None);
    assert_eq!(
        o.kinds,
        recorder::DecompressKinds::FMASK.union(recorder::DecompressKinds::CLEAR)
    );
    assert_eq!(o.region, Some((0, [0, 0, 32, 16])));
    assert_eq!(
        printed,
        "imm decompress_resource rt kinds=clear,fmask region=0:0,0,32,16"
    );
    // Older traces: no options, or into= alone, print as they were written.
    let (o, printed) = options("decompress_resource rt into=copy");
    assert_eq!(o.kinds, recorder::DecompressKinds::ALL);
    assert_eq!(printed, "imm decompress_resource rt into=copy");
    let (_, printed) = options("decompress_resource rt kinds=all");
    assert_eq!(printed, "imm decompress_resource rt");
}

#[test]
fn r_st_9_malformed_decompress_options_name_the_token() {
    for (line, part) in [
        (
            "decompress_resource rt kinds=cmask",
            "unknown kind of decompression 'cmask'",
        ),
        (
            "decompress_resource rt region=0,0,4,4",
            "expected region=SUB:L,T,R,B",
        ),
        (
            "decompress_resource rt region=0:0,0,4",
            "expected region=SUB:L,T,R,B",
        ),
        (
            "decompress_resource rt region=0:0,0,4,4294967296",
            "does not fit in 32 bits",
        ),
        ("decompress_resource rt layers=2", "unknown option 'layers'"),
    ] {
        let text = format!("{PRELUDE}imm {line}\n");
        let error = parse(text.as_bytes()).expect_err(line);
        assert_eq!(error.line, 4, "{line}");
        assert!(error.message.contains(part), "{line}: {}", error.message);
    }
}
