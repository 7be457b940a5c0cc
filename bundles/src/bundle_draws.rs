//! [`DrawCalls`] on a bundle recorder: a draw needs the mandatory state first (R-B-3: every
//! graphics stage's shader and the input layout; the compute shader for a dispatch).
//!
//! **In:** the application's draws. **Out:** the draws the bundle's core records, or
//! `missing_mandatory_state`.
//!
//! **Invariant.** The mandatory check is a mask test once the state is set.

use recorder::*;

use crate::recorder::{BundleRecorder, Mandatory};

impl DrawCalls for BundleRecorder {
    /// Draws, as on a deferred context. Refused with `missing_mandatory_state` until the input
    /// layout and the five graphics stages' shaders are set on this bundle (null counts, R-B-3).
    #[inline]
    fn draw(&mut self, vertex_count: u32, start_vertex: u32) {
        self.draw_call("draw", Mandatory::GRAPHICS, |c| {
            c.draw(vertex_count, start_vertex)
        });
    }

    /// Draws indexed; refused as [`draw`](Self::draw) until the mandatory state is set (R-B-3).
    #[inline]
    fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) {
        self.draw_call("draw_indexed", Mandatory::GRAPHICS, |c| {
            c.draw_indexed(index_count, start_index, base_vertex)
        });
    }

    /// Draws instanced; refused as [`draw`](Self::draw) until the mandatory state is set (R-B-3).
    fn draw_instanced(
        &mut self,
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    ) {
        self.draw_call("draw_instanced", Mandatory::GRAPHICS, |c| {
            c.draw_instanced(vertex_count, instance_count, start_vertex, start_instance)
        });
    }

    /// Draws indexed and instanced; refused as [`draw`](Self::draw) until the mandatory state is
    /// set (R-B-3).
    fn draw_indexed_instanced(
        &mut self,
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    ) {
        self.draw_call("draw_indexed_instanced", Mandatory::GRAPHICS, |c| {
            c.draw_indexed_instanced(
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            )
        });
    }

    /// Draws what the inherited stream-output buffer holds.
    fn draw_auto(&mut self) {
        self.draw_call("draw_auto", Mandatory::GRAPHICS, |c| c.draw_auto());
    }

    /// An indirect draw (the seeds: "Draw*Indirect methods are now supported in draw bundles").
    /// A dynamic argument buffer cannot be encapsulated (R-B-6).
    fn draw_instanced_indirect(&mut self, args: Buffer, offset: u32) {
        const CALL: &str = "draw_instanced_indirect";
        if let Err(error) = self.buffer_encapsulable(CALL, args) {
            return self.context.refuse(error);
        }
        self.draw_call(CALL, Mandatory::GRAPHICS, |c| {
            c.draw_instanced_indirect(args, offset)
        });
    }

    /// See [`draw_instanced_indirect`](Self::draw_instanced_indirect).
    fn draw_indexed_instanced_indirect(&mut self, args: Buffer, offset: u32) {
        const CALL: &str = "draw_indexed_instanced_indirect";
        if let Err(error) = self.buffer_encapsulable(CALL, args) {
            return self.context.refuse(error);
        }
        self.draw_call(CALL, Mandatory::GRAPHICS, |c| {
            c.draw_indexed_instanced_indirect(args, offset)
        });
    }

    /// A dispatch; the compute shader must be set first (R-B-3).
    fn dispatch(&mut self, x: u32, y: u32, z: u32) {
        self.draw_call("dispatch", Mandatory::COMPUTE, |c| c.dispatch(x, y, z));
    }
}
