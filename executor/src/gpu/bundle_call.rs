//! The GPU model's expansion of a bundle call, the constant engine's (R-B-4, R-B-9, R-B-10), as the constant engine
//! does it: the CPU hands over a reference to the bundle; here its commands are applied over the
//! caller's state, its draws recorded, and the caller's state put back.
//!
//! **Overlay.** What the bundle overrides and what it inherits, its remaps, and putting the
//! caller's bindings back are the shared binding state's (`recorder::state::BundleOverlay`,
//! R-B-4, R-B-9, R-B-10). The body is decoded and stepped through the overlay once, at its first
//! call, and kept with it (`gpu/bundle_body.rs`): a call saves the caller's bindings of every
//! slot the body writes (its footprint), replays the kept commands, a binding or a draw through
//! the model's own `apply` under fast semantics (an index buffer leaves the reset index alone), a
//! remap through the overlay, and puts the saved bindings back. Bundles write no context register
//! (R-B-7), so putting the state back writes none either.
//!
//! **Checks and counters.** The bound render-target formats, depth format and sample count must
//! match the bundle's declaration, else the call is refused, counts nothing and is kept as a
//! refusal ([`GpuModel::take_bundle_refusals`]). An executed call counts one bundle call and its
//! constant-engine footprint in `ce_bytes` (the overrides are loaded at every call), and a
//! context roll when it is the first bundle call after other work (or a context register changed
//! since the last draw); the first draw or dispatch after the bundle rolls again (R-EX-4). The
//! bundle's own draws do not roll: nothing in it writes a context register.

use recorder::state::BundleOverlay;
use recorder::{CommandList, Error, OutputFormats, RawHandle, Semantics};

use super::bundle_body::{Op, PreparedBody};
use super::GpuModel;

/// The bundle overlay kept between calls, and the refused calls.
#[derive(Debug, Default)]
pub(super) struct Expansion {
    overlay: BundleOverlay,
    refusals: Vec<Error>,
}

impl GpuModel {
    /// The formats of the targets bound now; `sample_count_of` gives a texture's sample count.
    pub fn bound_output_formats(
        &self,
        sample_count_of: impl Fn(RawHandle) -> Option<u32>,
    ) -> OutputFormats {
        let bindings = self.state.bindings();
        OutputFormats::of_bound(
            bindings.render_targets(),
            &bindings.depth_stencil(),
            sample_count_of,
        )
    }

    /// Executes a call of the bundle whose commands are `body` (see the module essay), declared
    /// for `declaration`, with constant-engine footprint `footprint`. Refused (`format_mismatch`,
    /// nothing applied or counted, the refusal kept) when the bound targets do not match.
    pub fn execute_bundle(
        &mut self,
        body: &CommandList,
        declaration: &OutputFormats,
        footprint: u32,
        sample_count_of: impl Fn(RawHandle) -> Option<u32>,
    ) -> Result<(), Error> {
        let bound = self.bound_output_formats(sample_count_of);
        if !bound.satisfies(declaration) {
            let error = bound.mismatch("draw_bundle", declaration);
            self.bundle.refusals.push(error.clone());
            return Err(error);
        }
        self.counters.bundle_calls += 1;
        self.counters.ce_bytes += footprint as u64;
        if !self.after_bundle || self.context_changed {
            self.counters.context_rolls += 1;
        }
        self.context_changed = false;
        self.after_bundle = false;

        // The body decoded and stepped through the overlay once, at its first call, and kept
        // with it (`gpu/bundle_body.rs`); a list that already keeps another derived value (none
        // does) is prepared for this call alone.
        let transient;
        let prepared = match body.derived(PreparedBody::of) {
            Some(prepared) => prepared,
            None => {
                transient = PreparedBody::of(body);
                &transient
            }
        };
        // The overlay changes bindings outside `apply` (its remaps, the caller's put back): a
        // draw repeats no record across them (`record_valid`).
        self.record_valid = false;
        self.stages_valid = 0;
        self.changes.set_everything();
        let footprint = prepared.footprint();
        self.bundle
            .overlay
            .begin_saving(&self.state.bindings, footprint);
        for op in prepared.ops() {
            match prepared.command(op) {
                Some(command) => self.apply(&command, Semantics::Fast),
                None => {
                    if let Op::Remap(remap) = *op {
                        let bindings = &mut self.state.bindings;
                        self.bundle.overlay.remap(bindings, footprint, remap);
                    }
                    // A remap: the overlay changed a binding the next draw reads.
                    self.record_valid = false;
                    self.stages_valid = 0;
                    self.changes.set_everything();
                }
            }
        }
        self.bundle
            .overlay
            .end_saving(&mut self.state.bindings, footprint);
        self.record_valid = false;
        self.stages_valid = 0;
        self.changes.set_everything();
        // The draws' shared graphics part (`GpuModel::draw`) goes stale with any command
        // applied that may change it, as outside a bundle; the overlay's own changes are
        // remaps, of slots a record takes at each draw, and putting back what the bundle set,
        // which is stale again if the bundle set any of the graphics part's registers.
        if prepared.graphics_set() {
            self.graphics_valid = false;
        }
        self.after_bundle = true;
        Ok(())
    }

    /// Bundle calls refused since the last call of this, oldest first.
    pub fn take_bundle_refusals(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.bundle.refusals)
    }
}
