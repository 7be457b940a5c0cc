//! The recorder's modules (each file one module, in a folder or not) import each other without
//! circles, but for the one edge the design needs (issue 10): a bundle entry owns its list, so `device` (which destroys entries) names
//! `list`, and a list keeps its device alive, so `list` names `device`. Every other circle is an
//! accident that makes the code harder to read; this test finds them from the sources.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The module a source file is (`command/decode.rs` is `command::decode`, `command/mod.rs` is
/// `command`): every file is one node of the graph, in a folder or not.
fn module_of(path: &Path, src: &Path) -> String {
    let relative = path.strip_prefix(src).expect("under src");
    let mut names: Vec<String> = relative
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if names.last().is_some_and(|name| name == "mod") {
        names.pop();
    }
    names.join("::")
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

/// `crate::a::b::c` paths in code (comments and `#[cfg(test)]` modules left out), as written:
/// which module each names is decided against the modules found ([`named_module`]).
fn imports(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let path: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_' || *c == ':')
                .collect();
            let path = path.trim_end_matches(':');
            if !path.is_empty() {
                found.insert(path.to_string());
            }
        }
    }
    found
}

/// The longest module that a path starts with (`device::handle::Buffer` names
/// `device::handle`; `device::Device` names `device`).
fn named_module(path: &str, modules: &BTreeSet<String>) -> Option<String> {
    let segments: Vec<&str> = path.split("::").collect();
    (1..=segments.len())
        .rev()
        .map(|n| segments[..n].join("::"))
        .find(|candidate| modules.contains(candidate))
}

#[test]
fn layout_recorder_has_no_import_circle_beyond_device_and_list() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut written: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file, &src);
        if module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable source");
        written.entry(module).or_default().extend(imports(&text));
    }
    let modules: BTreeSet<String> = written.keys().cloned().collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, paths) in &written {
        let edges = paths
            .iter()
            .filter_map(|path| named_module(path, &modules))
            .filter(|name| name != module);
        graph.entry(module.clone()).or_default().extend(edges);
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
