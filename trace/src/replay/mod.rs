//! # trace::replay: running a trace on the engine (docs/TRACE.md "The command")
//!
//! **In:** the bytes of a trace, parsed by the syntax room (`../syntax/`) into a
//! [`Trace`](super::Trace) whose tree this room reads and never builds, and the command line
//! ([`Args`], [`ReplayOptions`]). **Out:** what the `replay` command prints (the summary,
//! `digest=`, `--records`, `--json`, the failed expectations, and under `--compare` the first
//! difference from the reference) and its exit code ([`Replay`]).
//!
//! **The flow.** `command.rs` is the command: it parses the trace (the syntax room), lowers it
//! (`lower/`, with `convert.rs` for the vocabularies) into a [`Program`](program::Program)
//! (`program.rs`: the trace in the engine's types, objects by index), runs the program on the
//! engine (`live.rs`), checks each expectation at its line (`verdict.rs`), and under
//! `--compare` runs the reference (`reference/`) and compares the two runs' records.
//!
//! ## The layout
//! * `command.rs`: the command. `program.rs`: the trace in the engine's types, a call being the
//!   syntax room's `Method` in the replay's `Lowered` form (one shape, two forms: see
//!   `syntax/ast/forms.rs`'s `Form`); `lower/` makes it from the tree (`mod.rs`: the numbering of
//!   objects and the walk over the statements; `declarations.rs`, `methods.rs` and
//!   `expectations.rs`: each kind of statement lowered), `convert.rs` holds its conversions of
//!   words and numbers.
//! * The real run: `live.rs` (the run, in trace order, on the main thread), `workers.rs` (the
//!   `--threads` worker threads), `recorders.rs` (each deferred context and bundle recorder as
//!   the run holds it, a `HeldRecorder`), `apply.rs` (one call applied to a recorder), `create.rs`
//!   (the declarations), `writes.rs` (the bytes of `write` statements, and their rules).
//! * What is said about it: `verdict.rs` (expectations), `names.rs` (records in trace names,
//!   the digest), `origin.rs` (where each record came from), `replay_report.rs` (the output).
//! * `reference/`: the reference run of `--compare` (`mod.rs`: its state and the step
//!   dispatch; `follow.rs`, `list_runs.rs`, `bundle_runs.rs`, `lods.rs`, `setters.rs`: how it
//!   issues the trace's calls), the GPU model it feeds (`feed.rs`) and the comparison of the two
//!   runs' records (`compare.rs`).
//!
//! ## Choices of the replay where docs/TRACE.md is silent
//! * **Malformed, exit 2** (besides the parser's): a format the engine does not know, a number
//!   that does not fit the engine's argument (a 32-bit count, an 8-bit stencil value, a slot
//!   beyond a shader's 128-bit, 16-bit... slot masks), a context, command list or bundle named
//!   after its `release`, a file of GPU contents (R-GPU-2: `wgsl=`, `spirv=`, `data=@`) that
//!   cannot be read, relative to the trace's folder (`ReplayOptions::trace_dir`; the current
//!   directory for `-`), or a SPIR-V file that is not whole words. Files are read once, at
//!   lowering (`lower/lower_contents.rs`), so every thread and the reference make the same objects.
//! * **Refused by the replay** (`invalid_argument`, like an engine refusal, and it fails the
//!   list's `finish` with the list's first refusal, no state carried): a call naming an object
//!   whose declaration the engine refused, an `execute` of a list whose `finish` failed, a
//!   `draw_bundle` of a bundle that does not exist, an immediate-context call (`present`,
//!   `resume`, `begin_command_list_execution`, ...) on a deferred context, a texture call
//!   (`decompress_resource`, compression, `set_resource_min_lod`) given a buffer. A bundle
//!   recorder refuses the immediate-context calls with `unsupported_in_bundle`, as R-B-8 does
//!   `present`.
//! * **`write`** (R-CAP-4, `writes.rs`): lowering gives each `map` the `write` statements after
//!   it on its context and resource up to the `unmap`, and the run copies those that fit when
//!   the map returns its memory (the engine's slice cannot be held across later calls). At its
//!   line a `write` with no open map on its context, into a `read` map, or past the mapped
//!   bytes is refused with `invalid_argument` on that context (on a bundle recorder,
//!   `unsupported_in_bundle`, as its `map` is); like a refused `map` it does not poison the
//!   list. A `write` makes no record: the reference of `--compare` leaves it out.
//! * **Instances.** K counts every write_discard `map` statement of the resource, accepted or
//!   not. In `expect draw`, `NAME` without `#K` matches any instance of a dynamic resource.
//! * **Defaults** of what docs/TRACE.md has no syntax for (or leaves out): a vertex buffer
//!   written `BUF` alone is bound with stride and offset 0 (`BUF:STRIDE:OFFSET` gives them,
//!   R-GPU-2), blend factor 1,1,1,1 and every sample, stencil
//!   reference 0, `clear_depth_stencil_view` clearing depth and stencil, `update_subresource`
//!   writing no bytes.
//! * **Outcomes.** `expect error CTX` asks about the last call on CTX, its `finish` included;
//!   on a command list's name, about its `finish` and then each `execute` of it on `imm`; on
//!   any other name, about its declaration. Under `validation=on` the immediate context flushes
//!   after every call, and a report is the refusal of the call whose work shows it (the work
//!   ran); a bundle call the GPU model skipped inside an executed list (`format_mismatch`, a
//!   released bundle) is the refusal of that `execute`. `expect ok` fails on any refusal so
//!   far, declarations and reports included, and names the first.
//! * **Fences** get their values in trace order; a wait on a fence no earlier line inserted
//!   passes 0, which the engine refuses (`invalid_argument`): it cannot wait on a value it has
//!   not handed out, so a list cannot wait on a fence a later line signals.
//! * **Barriers** (R-BAR-1, R-BAR-6). A `barrier` statement is one `BarrierCalls::barrier`
//!   call: its BARRIERs in the engine's types (`+` ORs the words' bits; a `size=` not written
//!   is `BufferBarrier::WHOLE`, a range not written `Span::ALL`), each run of consecutive
//!   BARRIERs of one type one `BarrierGroup`. A `resource_barrier` statement is one
//!   `resource_barrier` call of one barrier. The resource goes to the engine as what it was
//!   declared (a buffer or a texture), whatever the BARRIER's type: a mismatch is the engine's to
//!   refuse. The reference of `--compare` issues them as any call, with the trace's
//!   `legacy_barriers=`.
//! * **`expect resource`** reads `GpuModel::texture_state` through the immediate context after
//!   its direct calls so far have run, as `expect counters` does. For a buffer (no layout, never
//!   compressed) only `compressed=no` holds; every other key fails with a message that says so.
//!   A resource whose declaration the engine refused fails the expectation (`no resource`).
//! * **Bundles.** A second `finish` of a recorder makes a new bundle under its name; the
//!   earlier one stays alive (a list may have called it) until the name is released.
//! * **Output.** The summary line and `digest=` line (FNV-1a, 64 bits, over the records as
//!   `--records` prints them before their origin, objects by trace name: where a record came
//!   from is not part of it, so `--compare` and the digest ignore it), `--records` as `INDEX:
//!   KIND field=value ...  # ORIGIN` in `DrawRecord::fields` order, `--json` one object with the
//!   summary, every counter, the failures and (`--compare`) the difference.
//! * **Origins** (`--records`, `origin.rs`): ORIGIN is `line L` of the draw or dispatch call,
//!   then, innermost first, `bundle B called on line L`, `list M executed on line L` (a list
//!   executed inside a list) and `execution K of list M on line L`: K counts the `imm`
//!   executions of M whose work ran (a refused one does not count; one under a validation
//!   report does). Where the GPU model skipped a bundle call inside an execution (formats, a
//!   released bundle), that execution's records say `a call of execution K of list M on line
//!   L`, the call not being known.
//! * **JSON.** Records (`--json --records`) are `{"index","kind","fields":{NAME:VALUE,…},
//!   "from":{"line","via":[…]}}`, the values strings as `--records` prints them, each `via`
//!   `{"bundle","line"}`, `{"list","line"}` or `{"list","execution","line"}`; failures are
//!   `{"line","expected","found"}`, `expected` the expectation as written without `expect`.
//! * **The command line.** `--help` or `-h` anywhere wins over everything else (exit 0);
//!   `-` is standard input; `--threads N` and `--threads=N` are the same; an unknown option
//!   is exit 2 with the usage line. A closed standard output ends the output without a message
//!   and the exit code stays the verdict's (0 when every expectation held): a filter's reader
//!   going away is no failure of the trace.

mod apply;
mod barrier_conversion;
mod command;
mod convert;
mod counted;
mod create;
mod handles;
mod live;
mod live_immediate;
mod live_queries;
mod lower;
mod names;
mod origin;
mod program;
mod recorders;
mod recording_targets;
mod reference;
mod replay_report;
mod sites;
mod verdict;
mod workers;
mod writes;

#[cfg(test)]
mod gpu_contents_replay_tests;

pub(crate) use names::digest as digest_of;

pub use command::{replay, Args, BackendFactory, Replay, ReplayOptions, TraceSource, USAGE};
pub(crate) use counted::{counted_run, CountedRun};
pub(crate) use replay_report::string as json_string;
