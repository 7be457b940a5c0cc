//! The backend's files import each other without circles: the graph is built from the
//! sources, re-exports followed, by the builder every crate's test shares (its `//!` gives the
//! rule: a file is a module; a `mod` declaration is not an edge).

#[path = "../../recorder/tests/import_graph/mod.rs"]
mod import_graph;

use std::path::Path;

#[test]
fn layout_vulkan_backend_has_no_import_circle() {
    let graph = import_graph::Graph::of_package(Path::new(env!("CARGO_MANIFEST_DIR")), &[]);
    graph.assert_no_circles_but(&[]);
}
