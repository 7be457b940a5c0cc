//! Legacy hazard tracking at bind time (R-ST-10), in the one place both kinds of legacy context
//! bind through: the legacy shadow of a deferred context, which the immediate context's recorder
//! is too. A legacy context knows which resources it has bound for output (render targets, the
//! depth stencil, output-merger and compute UAVs) and for input (shader-resource views), and keeps
//! the two apart as stock D3D11 does:
//!
//! - binding a resource for output unbinds every shader-resource view of it on the context: the
//!   slots are encoded null right after the output bind, and the shadow drops them (with the
//!   references the bindings held, R-OBJ-4);
//! - binding a shader-resource view of a resource bound for output leaves the slot null: the
//!   null is what is encoded (no reference, no decompression split point, R-SP-2).
//!
//! Because the rule changes what is encoded, everything downstream sees one state: the GPU model
//! (and with it the draw records and the legacy immediate context's getters), the state a legacy
//! list carries into the next (R-ST-1), R-ST-8's re-binds after a map, and `--compare`'s
//! reference, which issues the same calls through the same recorder. The invariant the shadow
//! keeps: no shader-resource slot holds a view of a resource bound for output.
//!
//! A resource is the unit (not a subresource: an SRV of mip 1 of a target bound at mip 0 is
//! unbound too), a buffer and a texture with the same index are different resources, and the
//! engine has no read-only depth-stencil views, so every bound depth stencil is an output. A
//! second output bind of a resource already bound for output (a render target and a UAV of the
//! same texture) is left alone, as R-ST-10 says nothing of it. Fast contexts keep no shadow and
//! do none of this: they bind what they are told (R-ST-10, §9). The cost of the response, a
//! drain and a cache flush at the next draw, is the GPU model's to count (`executor`'s
//! `gpu/hazard.rs`).

use crate::command::{BoundView, Opcode, SlotsPayload, ViewFlags};
use crate::context::role::Role;
use crate::context::shadow::{forget_fast, LegacyShadow};
use crate::context::Recorder;
use crate::device::handle::ObjectKind;
use crate::limits::SHADER_RESOURCE_SLOTS;
use crate::state::STAGES;

/// A slot array of null views, for encoding unbound runs.
static NULL_VIEWS: [BoundView; SHADER_RESOURCE_SLOTS as usize] =
    [BoundView::NULL; SHADER_RESOURCE_SLOTS as usize];

/// Whether two bound views are of the same resource (a null view is of none).
#[inline]
fn same_resource(a: &BoundView, b: &BoundView) -> bool {
    !a.resource.is_null()
        && a.resource == b.resource
        && a.flags.has(ViewFlags::BUFFER) == b.flags.has(ViewFlags::BUFFER)
}

/// The bit of a resource in [`LegacyShadow::output_filter`].
#[inline]
fn filter_bit(view: &BoundView) -> u64 {
    let kind = view.flags.has(ViewFlags::BUFFER) as u32;
    1 << ((view.resource.index().wrapping_mul(2) + kind) % 64)
}

impl LegacyShadow {
    /// Every output slot: render targets, depth stencil, output-merger UAVs, compute UAVs.
    fn outputs(&self) -> impl Iterator<Item = &BoundView> {
        let bindings = &self.bindings;
        bindings
            .render_targets
            .iter()
            .chain(std::iter::once(&bindings.depth_stencil))
            .chain(&bindings.om_uavs)
            .chain(&bindings.compute_uavs)
    }

    /// Recomputes the filter of the resources bound for output, after an output bind.
    fn refresh_output_filter(&mut self) {
        self.output_filter = self
            .outputs()
            .filter(|v| !v.resource.is_null())
            .fold(0, |filter, v| filter | filter_bit(v));
    }

    /// Whether `view`'s resource is bound for output on this context: the filter answers most
    /// binds; a hit is confirmed against the output slots.
    #[inline]
    pub(crate) fn bound_for_output(&self, view: &BoundView) -> bool {
        !view.resource.is_null()
            && self.output_filter & filter_bit(view) != 0
            && self.output_slots_hold(view)
    }

    #[inline(never)]
    fn output_slots_hold(&self, view: &BoundView) -> bool {
        self.outputs().any(|output| same_resource(output, view))
    }

    /// The shader-resource slots, per stage, that hold a view of a resource bound for output.
    fn inputs_bound_for_output(&self) -> [u128; STAGES] {
        let mut found = [0u128; STAGES];
        for (stage, found) in found.iter_mut().enumerate() {
            let mut bits = self.bound_shader_resources[stage];
            while bits != 0 {
                let slot = bits.trailing_zeros();
                bits &= bits - 1;
                if self.bound_for_output(&self.bindings.shader_resources[stage][slot as usize]) {
                    *found |= 1 << slot;
                }
            }
        }
        found
    }
}

impl<R: Role> Recorder<R> {
    /// Whether a shader-resource view just resolved must be bound null instead: its resource is
    /// bound for output on this legacy context. Always `false` on a fast context.
    #[inline]
    pub(crate) fn input_bound_for_output(&self, view: &BoundView) -> bool {
        self.shadow
            .as_deref()
            .is_some_and(|shadow| shadow.bound_for_output(view))
    }

    /// After an output bind (render targets, depth stencil, UAVs), on a legacy context: unbinds
    /// every shader-resource view of a resource now bound for output. Nothing on a fast context.
    #[inline]
    pub(crate) fn unbind_inputs_bound_for_output(&mut self) {
        if self.shadow.is_some() {
            self.unbind_legacy_inputs_bound_for_output();
        }
    }

    /// [`unbind_inputs_bound_for_output`](Self::unbind_inputs_bound_for_output) on a legacy
    /// context: the null slots are encoded in runs, and the bindings' references dropped.
    #[inline(never)]
    fn unbind_legacy_inputs_bound_for_output(&mut self) {
        let Some(mut shadow) = self.shadow.take() else {
            return;
        };
        shadow.refresh_output_filter();
        if shadow.output_filter != 0 {
            let found = shadow.inputs_bound_for_output();
            for (stage, mut bits) in found.into_iter().enumerate() {
                while bits != 0 {
                    let start = bits.trailing_zeros();
                    let count = (bits >> start).trailing_ones();
                    let run = if count >= 128 {
                        u128::MAX
                    } else {
                        ((1u128 << count) - 1) << start
                    };
                    bits &= !run;
                    let (first, end) = (start as usize, (start + count) as usize);
                    // At most 128 views: always within the encoding's limits (R-REC-12).
                    let _ = self.emit_with(
                        "set_shader_resources",
                        Opcode::SetShaderResources,
                        stage as u8,
                        None,
                        SlotsPayload { start, count },
                        &NULL_VIEWS[..end - first],
                    );
                    // Fast-bound views hold no reference to give back (R-FX-1).
                    forget_fast(
                        &mut shadow.bindings.shader_resources[stage][first..end],
                        &mut shadow.fast.shader_resources[stage],
                        first,
                    );
                    Self::replace_slots(
                        self.refs.as_deref_mut(),
                        &self.device,
                        ObjectKind::ShaderResourceView,
                        &mut shadow.bindings.shader_resources[stage][first..end],
                        &NULL_VIEWS[..end - first],
                    );
                    shadow.bound_shader_resources[stage] &= !run;
                    shadow.dynamic_shader_resources[stage] &= !run;
                }
            }
        }
        self.shadow.put(shadow);
    }
}
