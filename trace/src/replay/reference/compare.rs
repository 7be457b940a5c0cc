//! `--compare`: the first draw record where the real run and the reference differ, printed side
//! by side (the fields that differ, then both records whole); when the records agree, the GPU
//! model's memory (GDS, constant RAM, buffer words: R-FX-4, R-FX-5) is compared too.
//!
//! **In:** both runs' record lines (`KIND field=value ...`, objects by trace name). **Out:**
//! nothing when they are the same, else the text `replay` prints.

use std::fmt::Write as _;

/// The fields of a record line, after its kind.
fn fields(line: &str) -> (&str, Vec<(&str, &str)>) {
    let mut tokens = line.split(' ');
    let kind = tokens.next().unwrap_or("");
    let fields = tokens
        .map(|token| token.split_once('=').unwrap_or((token, "")))
        .collect();
    (kind, fields)
}

/// The first difference between `engine`'s records and the `reference`'s, as text.
pub(crate) fn first_difference(engine: &[String], reference: &[String]) -> Option<String> {
    let index = engine
        .iter()
        .zip(reference)
        .position(|(a, b)| a != b)
        .or((engine.len() != reference.len()).then(|| engine.len().min(reference.len())))?;
    let mut out = String::new();
    let (ours, theirs) = (engine.get(index), reference.get(index));
    let _ = writeln!(out, "compare: record {index} differs from the reference");
    match (ours, theirs) {
        (Some(ours), Some(theirs)) => {
            let (kind_a, a) = fields(ours);
            let (kind_b, b) = fields(theirs);
            let mut rows: Vec<(String, &str, &str)> = Vec::new();
            if kind_a != kind_b {
                rows.push(("(call)".into(), kind_a, kind_b));
            }
            fn find<'a>(list: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
                list.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
            }
            let mut names: Vec<&str> = a.iter().map(|(n, _)| *n).collect();
            names.extend(b.iter().map(|(n, _)| *n).filter(|n| find(&a, n).is_none()));
            for name in names {
                let (x, y) = (find(&a, name), find(&b, name));
                if x != y {
                    rows.push((name.into(), x.unwrap_or("-"), y.unwrap_or("-")));
                }
            }
            let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(5).max(5);
            let value_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(6).max(6);
            let _ = writeln!(
                out,
                "  {:width$}  {:value_width$}  reference",
                "field", "engine"
            );
            for (name, x, y) in rows {
                let _ = writeln!(out, "  {name:width$}  {x:value_width$}  {y}");
            }
        }
        (Some(_), None) => {
            let _ = writeln!(
                out,
                "  the engine made {} records, the reference {}",
                engine.len(),
                reference.len()
            );
        }
        _ => {
            let _ = writeln!(
                out,
                "  the engine made {} records, the reference {}",
                engine.len(),
                reference.len()
            );
        }
    }
    let _ = writeln!(
        out,
        "  engine:    {}",
        ours.map_or("(none)", String::as_str)
    );
    let _ = writeln!(
        out,
        "  reference: {}",
        theirs.map_or("(none)", String::as_str)
    );
    Some(out)
}

/// Where the engine's GPU memory differs from the reference's (R-FX-4, R-FX-5), as text: the
/// first line (`Memory::lines`) either side lacks.
pub(crate) fn memory_difference(engine: &[String], reference: &[String]) -> Option<String> {
    if engine == reference {
        return None;
    }
    let only = |a: &[String], b: &[String]| a.iter().find(|line| !b.contains(line)).cloned();
    let mut out = String::from("compare: the GPU memory differs from the reference\n");
    let _ = writeln!(
        out,
        "  engine only:    {}",
        only(engine, reference).unwrap_or_else(|| "(nothing)".into())
    );
    let _ = writeln!(
        out,
        "  reference only: {}",
        only(reference, engine).unwrap_or_else(|| "(nothing)".into())
    );
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::memory_difference;

    #[test]
    fn r_fx_4_compare_names_the_first_memory_line_either_side_lacks() {
        let engine = [
            "gds 0x0 0x1".to_string(),
            "memory target 0x4 0x7".to_string(),
        ];
        let reference = ["gds 0x0 0x1".to_string()];
        assert_eq!(memory_difference(&engine, &engine), None);
        let text = memory_difference(&engine, &reference).unwrap_or_default();
        assert!(
            text.contains("engine only:    memory target 0x4 0x7"),
            "{text}"
        );
        assert!(text.contains("reference only: (nothing)"), "{text}");
    }
}
