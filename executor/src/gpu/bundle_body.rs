//! A bundle's body as the GPU model replays it (R-B-10): decoded and stepped through the overlay
//! once, at the bundle's first call, and kept with the body (`CommandList::derived`) for every
//! later call, so a call walks no encoded command and decides nothing per command again.
//!
//! **What it holds.** One [`Op`] per command of the body, in order: a command the call applies
//! (a binding or a draw, copied whole when it borrows nothing, else with its slots copied into
//! the body's own pools), a remap, or a command a bundle does not hold (ignored); the overlay's
//! footprint (every slot the body writes, `recorder::state::OverlayFootprint`); whether any
//! command applied may change a record's graphics part.
//!
//! **Why it may be kept.** All of it follows from the body's commands alone: which commands
//! apply, which slots a call saves and puts back, what a remap reads from (the caller's slot as
//! it was at the call, read per call) never depend on the caller's state, the bound targets or
//! the model's modes; what does (the format check, counters, the slots' values, validation,
//! hazard tracking, the backend) is done at each call by `execute_bundle` and the model's
//! `apply`, as before. A body is immutable and its derived value lives and dies with it, so a
//! kept form can never be read for another bundle, or after its body changed.

use recorder::command::{BoundBuffer, BoundBuffers, BoundView, Command, Remap};
use recorder::state::{OverlayFootprint, OverlayStep};
use recorder::{CommandList, RawHandle, Stage};

use super::draw_execution::keeps_graphics;

/// A range of one of the body's pools.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    start: u32,
    len: u32,
}

impl Span {
    /// The span `pool` grows by when `items` are appended to it.
    fn push<T: Copy>(pool: &mut Vec<T>, items: &[T]) -> Self {
        let start = u32::try_from(pool.len()).unwrap_or(u32::MAX);
        pool.extend_from_slice(items);
        Self {
            start,
            len: u32::try_from(items.len()).unwrap_or(0),
        }
    }

    /// `pool`'s items in the span; empty where it lies outside (it never does: the pools and
    /// their spans are built together).
    #[inline]
    fn of<T>(self, pool: &[T]) -> &[T] {
        let start = self.start as usize;
        pool.get(start..start.saturating_add(self.len as usize))
            .unwrap_or(&[])
    }
}

/// One command of the body, as a call replays it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
    /// Applied as it is: a binding or a draw that borrows nothing.
    Whole(Command<'static>),
    /// Bindings whose slots lie in the body's pools, applied as the command that set them.
    VertexBuffers { start: u32, buffers: Span },
    ConstantBuffers {
        stage: Stage,
        start: u32,
        buffers: Span,
    },
    ShaderResources {
        stage: Stage,
        start: u32,
        views: Span,
    },
    Samplers {
        stage: Stage,
        start: u32,
        samplers: Span,
    },
    /// A remap (R-B-9), done by the overlay.
    Remap(Remap),
    /// A command a bundle does not hold (R-B-7, R-B-8): not applied.
    Ignore,
}

/// A bundle's body, prepared for its calls (see the module essay).
#[derive(Debug, Default)]
pub(super) struct PreparedBody {
    ops: Vec<Op>,
    buffers: Vec<BoundBuffer>,
    views: Vec<BoundView>,
    samplers: Vec<RawHandle>,
    footprint: OverlayFootprint,
    /// A command applied may change a record's graphics part (`keeps_graphics`).
    graphics_set: bool,
}

// SAFETY: a `Command` is not `Send` or `Sync` for one variant only, `ExecuteCommandList`, whose
// nested list is a pointer into another list's memory; the ops hold commands built by `whole`
// alone, which builds none of that variant (only bindings that carry their values and draws),
// and the pools hold plain values. Nothing else in the type is shared or mutable.
unsafe impl Send for PreparedBody {}
// SAFETY: as for `Send`: no op holds a nested list, and `&PreparedBody` only reads.
unsafe impl Sync for PreparedBody {}

impl PreparedBody {
    /// `body` decoded and stepped through the overlay once.
    pub(super) fn of(body: &CommandList) -> Self {
        let mut prepared = Self::default();
        let commands = body.commands().map(|decoded| decoded.command);
        prepared.footprint =
            OverlayFootprint::of(commands, |command, step| prepared.push(&command, step));
        prepared.ops.shrink_to_fit();
        prepared
    }

    fn push(&mut self, command: &Command<'_>, step: OverlayStep) {
        let op = match step {
            OverlayStep::Ignore => Op::Ignore,
            OverlayStep::Done => match *command {
                Command::RemapInheritance(remap) => Op::Remap(remap),
                // The overlay finishes only remaps by itself.
                _ => Op::Ignore,
            },
            OverlayStep::Apply => {
                self.graphics_set |= !keeps_graphics(command);
                self.applied(command)
            }
        };
        self.ops.push(op);
    }

    /// The op that applies `command`, which the overlay lets through.
    fn applied(&mut self, command: &Command<'_>) -> Op {
        if let Some(whole) = whole(command) {
            return Op::Whole(whole);
        }
        match *command {
            Command::SetVertexBuffers { start, buffers } => Op::VertexBuffers {
                start,
                buffers: Span::push(&mut self.buffers, &buffers),
            },
            Command::SetConstantBuffers {
                stage,
                start,
                buffers,
            } => Op::ConstantBuffers {
                stage,
                start,
                buffers: Span::push(&mut self.buffers, &buffers),
            },
            Command::SetShaderResources {
                stage,
                start,
                views,
            } => Op::ShaderResources {
                stage,
                start,
                views: Span::push(&mut self.views, views),
            },
            Command::SetSamplers {
                stage,
                start,
                samplers,
            } => Op::Samplers {
                stage,
                start,
                samplers: Span::push(&mut self.samplers, samplers),
            },
            // The overlay applies no other command (`BundleOverlay::step`).
            _ => Op::Ignore,
        }
    }

    /// The body's ops, in order.
    pub(super) fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// Every slot the body writes.
    pub(super) fn footprint(&self) -> &OverlayFootprint {
        &self.footprint
    }

    /// Whether a command applied may change a record's graphics part.
    pub(super) fn graphics_set(&self) -> bool {
        self.graphics_set
    }

    /// The command `op` applies, its slots read from the pools; `None` for a remap or an
    /// ignored command.
    #[inline]
    pub(super) fn command(&self, op: &Op) -> Option<Command<'_>> {
        Some(match *op {
            Op::Whole(command) => command,
            Op::VertexBuffers { start, buffers } => Command::SetVertexBuffers {
                start,
                buffers: BoundBuffers::Array(buffers.of(&self.buffers)),
            },
            Op::ConstantBuffers {
                stage,
                start,
                buffers,
            } => Command::SetConstantBuffers {
                stage,
                start,
                buffers: BoundBuffers::Array(buffers.of(&self.buffers)),
            },
            Op::ShaderResources {
                stage,
                start,
                views,
            } => Command::SetShaderResources {
                stage,
                start,
                views: views.of(&self.views),
            },
            Op::Samplers {
                stage,
                start,
                samplers,
            } => Command::SetSamplers {
                stage,
                start,
                samplers: samplers.of(&self.samplers),
            },
            Op::Remap(_) | Op::Ignore => return None,
        })
    }
}

/// `command` as a command that borrows nothing, when it has no borrowed payload: the bindings
/// a bundle holds that carry their values inline, one-slot binds included, and the draws.
fn whole(command: &Command<'_>) -> Option<Command<'static>> {
    Some(match *command {
        Command::SetInputLayout {
            layout,
            vertex_buffers,
        } => Command::SetInputLayout {
            layout,
            vertex_buffers,
        },
        Command::SetPrimitiveTopology(topology) => Command::SetPrimitiveTopology(topology),
        Command::SetIndexBuffer(buffer) => Command::SetIndexBuffer(buffer),
        Command::SetShader { stage, shader } => Command::SetShader { stage, shader },
        Command::SetVertexBuffers {
            start,
            buffers: BoundBuffers::One(buffer),
        } => Command::SetVertexBuffers {
            start,
            buffers: BoundBuffers::One(buffer),
        },
        Command::SetConstantBuffers {
            stage,
            start,
            buffers: BoundBuffers::One(buffer),
        } => Command::SetConstantBuffers {
            stage,
            start,
            buffers: BoundBuffers::One(buffer),
        },
        Command::Draw(args) => Command::Draw(args),
        Command::DrawIndexed(args) => Command::DrawIndexed(args),
        Command::DrawInstanced(args) => Command::DrawInstanced(args),
        Command::DrawIndexedInstanced(args) => Command::DrawIndexedInstanced(args),
        Command::DrawAuto => Command::DrawAuto,
        Command::DrawInstancedIndirect(args) => Command::DrawInstancedIndirect(args),
        Command::DrawIndexedInstancedIndirect(args) => Command::DrawIndexedInstancedIndirect(args),
        Command::Dispatch(args) => Command::Dispatch(args),
        Command::DispatchIndirect(args) => Command::DispatchIndirect(args),
        _ => return None,
    })
}
