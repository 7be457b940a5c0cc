//! # executor
//!
//! The immediate context, command-list and bundle execution with split-point resolution, the GPU
//! model, fences and validation (SPEC §5, §6, §8). Not built yet: this crate arrives with the
//! executor issue and exports nothing until then. What it will consume is already fixed by the
//! recorder: `recorder::CommandList::segments` and `recorder::encode::Command`.
