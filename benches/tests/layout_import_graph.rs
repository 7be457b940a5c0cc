//! The benches crate's files (its library, the `frame`, `splitpoints` and `workload` binaries,
//! the examples) import each other without circles: the graph is built from the sources,
//! re-exports followed, by the builder every crate's test shares (its `//!` gives the rule: a
//! file is a module; a `mod` declaration is not an edge). Also: every file name in the workspace
//! is unique, so a name says which file.

#[path = "../../recorder/tests/import_graph/mod.rs"]
mod import_graph;

use std::path::Path;

#[test]
fn layout_benches_has_no_import_circle() {
    let graph = import_graph::Graph::of_package(Path::new(env!("CARGO_MANIFEST_DIR")), &[]);
    graph.assert_no_circles_but(&[]);
}

#[test]
fn layout_every_file_name_is_unique_in_the_workspace() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repeated = import_graph::repeated_file_names(&import_graph::workspace_of(package));
    let report: Vec<String> = repeated
        .iter()
        .map(|(name, paths)| format!("{name}: {}", paths.join(", ")))
        .collect();
    assert!(
        repeated.is_empty(),
        "file names used more than once (lib.rs, mod.rs, main.rs, sync.rs, tests/ and peer/ \
         aside):\n{}",
        report.join("\n")
    );
}
