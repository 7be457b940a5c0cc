//! The recorder's modules import each other without circles, but for the one edge the design
//! needs (issue 10): a bundle entry owns its list, so `device` (which destroys entries) names
//! `list`, and a list keeps its device alive, so `list` names `device`. Every other circle is an
//! accident that makes the code harder to read; this test finds them from the sources.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module a source file belongs to (`command/decode.rs` is in `command`).
fn module_of(path: &Path, src: &Path) -> String {
    let relative = path.strip_prefix(src).expect("under src");
    let first = relative
        .components()
        .next()
        .expect("a file")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.trim_end_matches(".rs").to_string()
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `crate::NAME` paths in code (comments and `#[cfg(test)]` modules left out).
fn imports(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

#[test]
fn layout_recorder_has_no_import_circle_beyond_device_and_list() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file, &src);
        if module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable source");
        graph
            .entry(module.clone())
            .or_default()
            .extend(imports(&text).into_iter().filter(|name| *name != module));
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for edges in graph.values_mut() {
        edges.retain(|name| modules.contains(name));
    }
    assert!(graph.len() > 20, "found only {} modules", graph.len());

    // Which modules reach which (transitive closure; the graph is small).
    let mut reach = graph.clone();
    loop {
        let mut grew = false;
        for module in &modules {
            let direct: Vec<String> = reach[module].iter().cloned().collect();
            for next in direct {
                let further: Vec<String> = reach[&next].iter().cloned().collect();
                let mine = reach.get_mut(module).expect("module");
                for name in further {
                    grew |= mine.insert(name);
                }
            }
        }
        if !grew {
            break;
        }
    }
    let in_circles: BTreeSet<String> = modules
        .iter()
        .filter(|module| reach[*module].contains(*module))
        .cloned()
        .collect();
    let inherent: BTreeSet<String> = ["device", "list"].map(String::from).into();
    assert_eq!(
        in_circles, inherent,
        "modules on an import circle (edges: {graph:?})"
    );
}
