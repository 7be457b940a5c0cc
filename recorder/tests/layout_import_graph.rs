//! The recorder's files import each other without circles, but for the one the design needs: a
//! bundle entry owns its list, so `device/` (which destroys entries) names `list/`, and a
//! list keeps its device alive, so `list/` names `device/`. Every other circle is an
//! accident that makes the code harder to read. The graph is built from the sources, re-exports
//! followed (`crate::Device` is `device.rs`), by the builder every crate's test shares
//! (`tests/import_graph/mod.rs`, whose `//!` gives the rule); its own tests are here.

mod import_graph;

use std::path::Path;

use import_graph::{scratch_package, Graph};

/// The one circle the recorder keeps: the device and the list own each other's ends.
const DEVICE_AND_LIST: &[&str] = &["src/device/mod.rs", "src/list/mod.rs"];

/// The same circle seen with the list's folder followed: the list's release
/// (`list_release.rs`) hands released objects back to the device.
const DEVICE_AND_LIST_RELEASE: &[&str] = &[
    "src/device/mod.rs",
    "src/list/mod.rs",
    "src/list/list_release.rs",
];

#[test]
fn layout_recorder_has_no_import_circle_beyond_device_and_list() {
    let graph = Graph::of_package(Path::new(env!("CARGO_MANIFEST_DIR")), &[]);
    assert!(
        graph.files.len() > 30,
        "found only {} files",
        graph.files.len()
    );
    graph.assert_no_circles_but(&[DEVICE_AND_LIST, DEVICE_AND_LIST_RELEASE]);
}

#[test]
fn import_graph_sees_a_circle_through_a_re_export_a_glob_and_a_path_in_code() {
    let package = scratch_package(
        "circle",
        &[
            (
                "src/lib.rs",
                "mod a;\nmod b;\nmod c;\npub use a::A;\npub use b::*;\n",
            ),
            // a -> b through the root's glob re-export of b.
            ("src/a.rs", "use crate::*;\npub struct A(B);\n"),
            // b -> c by a path in code, through `use crate::c;`.
            (
                "src/b.rs",
                "use crate::c;\npub struct B;\nfn f() { c::g(); }\n",
            ),
            // c -> a through the root's named re-export.
            (
                "src/c.rs",
                "pub fn g() -> Option<crate::A> { None }\n#[cfg(test)]\nmod tests { use crate::b::B; }\n",
            ),
        ],
    );
    let graph = Graph::of_package(&package, &[]);
    let circles = graph.circles();
    let expected: Vec<std::collections::BTreeSet<String>> =
        vec![["src/a.rs", "src/b.rs", "src/c.rs"]
            .map(String::from)
            .into()];
    assert_eq!(circles, expected, "{:?}", graph.edges);
    assert!(
        !graph
            .edges
            .contains_key(&("src/c.rs".into(), "src/b.rs".into())),
        "a #[cfg(test)] module's import is not an edge"
    );
    let _ = std::fs::remove_dir_all(package);
}

#[test]
fn import_graph_does_not_make_a_folder_a_circle() {
    // mod.rs declares and re-exports its children, a child reads mod.rs: no circle, but the
    // child using its sibling and the sibling using it is one.
    let package = scratch_package(
        "folder",
        &[
            ("src/lib.rs", "mod command;\npub use command::*;\n"),
            (
                "src/command/mod.rs",
                "mod decode;\nmod encode;\npub use decode::*;\npub use encode::Encoder;\npub struct Header;\n",
            ),
            (
                "src/command/decode.rs",
                "use super::*;\npub struct Decoded(Header);\n",
            ),
            (
                "src/command/encode.rs",
                "use super::Header;\npub struct Encoder(Header);\n",
            ),
        ],
    );
    let graph = Graph::of_package(&package, &[]);
    assert_eq!(graph.circles().len(), 0, "{:?}", graph.edges);
    assert!(graph
        .edges
        .contains_key(&("src/command/decode.rs".into(), "src/command/mod.rs".into())));
    let _ = std::fs::remove_dir_all(package);
}
