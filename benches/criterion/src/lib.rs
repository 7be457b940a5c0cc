//! The criterion benches of the workspace, in `benches/`: `cargo bench -p criterion-benches
//! --bench NAME`. The library is empty; the scenes the benches time are the `benches` crate's,
//! shared with the frame demo and the harnesses.
