//! A bundle call in the reference (R-B-4, R-B-9, R-B-10): the bound formats checked against
//! the bundle's declaration, the bundle's calls issued over the caller's state on a fresh fast
//! recorder, each remap binding the caller's binding as it was at the call, and the caller's
//! registers put back.
//!
//! **In:** a finished bundle ([`BundleBook`]) and the recorders below it (`stack`, empty for
//! `imm`). **Out:** the bundle's draws fed to the GPU model, or nothing where the formats do not
//! match (the engine skips the call).
//!
//! **Invariant:** the caller's registers after the call are the ones before it: the bundle's
//! set calls override their slots only while it runs.

use recorder::command::Command;
use recorder::{Handle, RemapKind, Semantics, Texture};

use super::list_runs::Level;
use super::setters::call_of;
use super::{BundleBook, Reference};

impl Reference {
    /// Calls `bundle` over the current state (see the module essay).
    pub(super) fn call_bundle(&mut self, bundle: &BundleBook, stack: &mut Vec<Level>) {
        // The bundle reads the state the levels below leave.
        self.open_all(stack);
        let device = &self.device;
        let bound = self.feed.gpu.bound_output_formats(|texture| {
            device
                .texture_info(Texture::from_raw(texture))
                .map(|info| info.sample_count)
        });
        if !bound.satisfies(&bundle.declaration) {
            return;
        }
        let caller = self.feed.gpu.snapshot();
        if !self.enter_bundle(stack) {
            return;
        }
        let program = self.program.clone();
        for op in &bundle.ops {
            match call_of(&program, *op).map(|call| (call, call.remap())) {
                Some((_, Some(remap))) => {
                    let (stage, slot) = (remap.stage, remap.slot);
                    let (from, inherit) = (remap.inherit_stage, remap.inherit_slot);
                    let gpu = &mut self.feed.gpu;
                    match remap.kind {
                        RemapKind::ConstantBuffer => {
                            if let Some(bound) = caller.constant_buffer(from, inherit) {
                                let buffers = [bound];
                                let command = Command::SetConstantBuffers {
                                    stage,
                                    start: slot,
                                    buffers: (&buffers).into(),
                                };
                                gpu.execute(&command, Semantics::Fast);
                            }
                        }
                        RemapKind::ShaderResource => {
                            if let Some(bound) = caller.shader_resource(from, inherit) {
                                let views = [bound];
                                let command = Command::SetShaderResources {
                                    stage,
                                    start: slot,
                                    views: &views,
                                };
                                gpu.execute(&command, Semantics::Fast);
                            }
                        }
                        RemapKind::Sampler => {
                            if let Some(bound) = caller.sampler(from, inherit) {
                                let samplers = [bound];
                                let command = Command::SetSamplers {
                                    stage,
                                    start: slot,
                                    samplers: &samplers,
                                };
                                gpu.execute(&command, Semantics::Fast);
                            }
                        }
                        RemapKind::VertexBuffer => {
                            if let Some(bound) = caller.vertex_buffer(inherit) {
                                let buffers = [bound];
                                let command = Command::SetVertexBuffers {
                                    start: slot,
                                    buffers: (&buffers).into(),
                                };
                                gpu.execute(&command, Semantics::Fast);
                            }
                        }
                    }
                }
                Some((call, None)) => self.issue_on_top(stack, Some(*op), call),
                None => {}
            }
        }
        self.leave_bundle(stack);
        self.feed.gpu.restore(&caller);
    }
}
