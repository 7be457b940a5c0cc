//! Draws and dispatches (R-REC-5): direct, instanced and indirect draws, `draw_auto`, and the
//! compute dispatches, on every context that records.
//!
//! **In:** the call's counts and offsets; for an indirect call the argument buffer and the byte
//! offset of its arguments. **Out:** one command each (`DirectArgs` or `IndirectPayload`), counted
//! in the list's statistics.
//!
//! **Invariant.** A direct draw is never refused and writes its command straight into the current
//! chunk (`#[inline]`, the hot path); an indirect one is refused as a whole when its argument
//! buffer is released or too short, and reads the arguments when the list executes (the buffer's
//! instance is resolved as a copy's is: `resolve_resource`, `binds/resolve.rs`).

use crate::command::*;
use crate::context::core_access::{Context, CoreAccess};
use crate::context::role::Role;
use crate::context::Recorder;
use crate::device::handle::*;
use crate::errors::Error;

impl<R: Role> Recorder<R> {
    #[inline]
    fn emit_draw(&mut self, opcode: Opcode, args: DirectArgs) {
        self.begin_call();
        self.stats.draws += 1;
        self.emit(opcode, 0, None, args);
    }

    /// [`DrawCalls::draw`](crate::DrawCalls::draw): its semantics.
    #[inline]
    pub(crate) fn draw(&mut self, vertex_count: u32, start_vertex: u32) {
        // Compact: the two numbers alone (16 bytes with the header); decoded as `DirectArgs`.
        self.begin_call();
        self.stats.draws += 1;
        self.emit(Opcode::Draw, 0, None, [vertex_count, start_vertex]);
    }

    /// [`DrawCalls::draw_indexed`](crate::DrawCalls::draw_indexed): its semantics.
    #[inline]
    pub(crate) fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) {
        self.emit_draw(
            Opcode::DrawIndexed,
            DirectArgs::draw_indexed(index_count, start_index, base_vertex),
        );
    }

    /// [`DrawCalls::draw_instanced`](crate::DrawCalls::draw_instanced): its semantics.
    #[inline]
    pub(crate) fn draw_instanced(
        &mut self,
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    ) {
        self.emit_draw(
            Opcode::DrawInstanced,
            DirectArgs::draw_instanced(vertex_count, instance_count, start_vertex, start_instance),
        );
    }

    /// [`DrawCalls::draw_indexed_instanced`](crate::DrawCalls::draw_indexed_instanced): its semantics.
    #[inline]
    pub(crate) fn draw_indexed_instanced(
        &mut self,
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    ) {
        self.emit_draw(
            Opcode::DrawIndexedInstanced,
            DirectArgs::draw_indexed_instanced(
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            ),
        );
    }

    /// [`DrawCalls::draw_auto`](crate::DrawCalls::draw_auto): its semantics.
    pub(crate) fn draw_auto(&mut self) {
        self.begin_call();
        self.stats.draws += 1;
        self.emit(Opcode::DrawAuto, 0, None, Empty);
    }

    /// [`DrawCalls::dispatch`](crate::DrawCalls::dispatch): its semantics.
    #[inline]
    pub(crate) fn dispatch(&mut self, x: u32, y: u32, z: u32) {
        self.emit_draw(Opcode::Dispatch, DirectArgs::dispatch(x, y, z));
    }

    /// [`DrawCalls::draw_instanced_indirect`](crate::DrawCalls::draw_instanced_indirect): its semantics.
    pub(crate) fn draw_instanced_indirect(&mut self, args: Buffer, offset: u32) {
        self.indirect(
            Opcode::DrawInstancedIndirect,
            "draw_instanced_indirect",
            args,
            offset,
        );
    }

    /// [`DrawCalls::draw_indexed_instanced_indirect`](crate::DrawCalls::draw_indexed_instanced_indirect): its semantics.
    pub(crate) fn draw_indexed_instanced_indirect(&mut self, args: Buffer, offset: u32) {
        self.indirect(
            Opcode::DrawIndexedInstancedIndirect,
            "draw_indexed_instanced_indirect",
            args,
            offset,
        );
    }

    /// [`IndirectDispatchCalls::dispatch_indirect`](crate::IndirectDispatchCalls::dispatch_indirect): its semantics.
    pub(crate) fn dispatch_indirect(&mut self, args: Buffer, offset: u32) {
        self.indirect(Opcode::DispatchIndirect, "dispatch_indirect", args, offset);
    }

    fn indirect(&mut self, opcode: Opcode, call: &'static str, args: Buffer, offset: u32) {
        self.begin_call();
        // The bytes of D3D11's argument structures: `D3D11_DRAW_INSTANCED_INDIRECT_ARGS` (4
        // words), `D3D11_DRAW_INDEXED_INSTANCED_INDIRECT_ARGS` (5), a dispatch's 3 group counts.
        let bytes: u64 = match opcode {
            Opcode::DrawInstancedIndirect => 16,
            Opcode::DrawIndexedInstancedIndirect => 20,
            _ => 12,
        };
        match self.resolve_resource(call, args.into()) {
            Ok((resource, info)) => {
                let size = info.map_or(0, |i| i.size);
                // Widened: `offset + bytes` cannot wrap in `u64`.
                if !offset.is_multiple_of(4) || offset as u64 + bytes > size as u64 {
                    return self.fail(Error::OutOfRange {
                        call,
                        argument: "argument offset",
                        value: offset.to_string(),
                        allowed: format!("a multiple of 4 with the {bytes} bytes of the arguments within the buffer's {size} bytes (R-REC-5)").into(),
                    });
                }
                if let Err(error) = self.retain(ObjectKind::Buffer, args.0, 1, call) {
                    return self.fail(error);
                }
                self.stats.draws += 1;
                let args = BoundBuffer {
                    buffer: args.0,
                    instance: resource.instance,
                    offset,
                    stride_or_format: 0,
                };
                self.emit(opcode, 0, None, IndirectPayload { args });
            }
            Err(error) => self.fail(error),
        }
    }
}

/// Draws, indirect draws and dispatches: every context, bundle recorders too.
pub trait DrawCalls: Context {
    /// Draws (`Draw`).
    ///
    /// Draws `vertex_count` vertices from `start_vertex` with the bound state. Never refused;
    /// counts a draw in [`stats`](crate::Context::stats).
    #[inline]
    fn draw(&mut self, vertex_count: u32, start_vertex: u32) {
        self.recorder(CoreAccess(()))
            .draw(vertex_count, start_vertex)
    }

    /// Draws indexed (`DrawIndexed`).
    ///
    /// Draws `index_count` indices of the bound index buffer from `start_index`, `base_vertex`
    /// added to each. Never refused; counts a draw.
    #[inline]
    fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) {
        self.recorder(CoreAccess(()))
            .draw_indexed(index_count, start_index, base_vertex)
    }

    /// Draws instanced (`DrawInstanced`).
    ///
    /// Draws `instance_count` instances of `vertex_count` vertices, from `start_vertex` and
    /// `start_instance`. Never refused; counts a draw.
    #[inline]
    fn draw_instanced(
        &mut self,
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    ) {
        self.recorder(CoreAccess(())).draw_instanced(
            vertex_count,
            instance_count,
            start_vertex,
            start_instance,
        )
    }

    /// Draws indexed and instanced (`DrawIndexedInstanced`).
    ///
    /// Draws `instance_count` instances of `index_count` indices, from `start_index` and
    /// `start_instance`, `base_vertex` added to each index. Never refused; counts a draw.
    #[inline]
    fn draw_indexed_instanced(
        &mut self,
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    ) {
        self.recorder(CoreAccess(())).draw_indexed_instanced(
            index_count,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        )
    }

    /// Draws what the stream-output buffer holds (`DrawAuto`).
    ///
    /// Draws what the bound stream-output buffer holds.
    #[inline]
    fn draw_auto(&mut self) {
        self.recorder(CoreAccess(())).draw_auto()
    }

    /// Draws instanced with arguments from a buffer (`DrawInstancedIndirect`).
    ///
    /// Draws instanced with the arguments at byte `offset` of `args`, read when the list executes.
    /// Refused when `offset` is not 4-aligned or the arguments past it (16 bytes here, 20 for
    /// the indexed draw, 12 for a dispatch: D3D11's argument structures) leave the buffer
    /// (`invalid_argument`, R-REC-5), or `args` is released (`released_object`).
    #[inline]
    fn draw_instanced_indirect(&mut self, args: Buffer, offset: u32) {
        self.recorder(CoreAccess(()))
            .draw_instanced_indirect(args, offset)
    }

    /// Draws indexed and instanced with arguments from a buffer (`DrawIndexedInstancedIndirect`).
    ///
    /// Draws indexed and instanced with the arguments at byte `offset` of `args`; refused as
    /// [`draw_instanced_indirect`](crate::DrawCalls::draw_instanced_indirect).
    #[inline]
    fn draw_indexed_instanced_indirect(&mut self, args: Buffer, offset: u32) {
        self.recorder(CoreAccess(()))
            .draw_indexed_instanced_indirect(args, offset)
    }

    /// Dispatches compute work (`Dispatch`).
    ///
    /// Dispatches `x * y * z` thread groups of the bound compute shader. Never refused; counted
    /// with the draws.
    #[inline]
    fn dispatch(&mut self, x: u32, y: u32, z: u32) {
        self.recorder(CoreAccess(())).dispatch(x, y, z)
    }
}

/// `DispatchIndirect`: deferred and immediate contexts; not a bundle recorder (R-B-8).
pub trait IndirectDispatchCalls: Context {
    /// Dispatches with arguments from a buffer (`DispatchIndirect`).
    ///
    /// Dispatches with the thread-group counts at byte `offset` of `args`; refused as
    /// [`draw_instanced_indirect`](crate::DrawCalls::draw_instanced_indirect).
    #[inline]
    fn dispatch_indirect(&mut self, args: Buffer, offset: u32) {
        self.recorder(CoreAccess(()))
            .dispatch_indirect(args, offset)
    }
}
