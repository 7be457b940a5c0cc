//! The `execute` bench's lists: one vertex shader, one dynamic constant buffer, and lists of
//! draws that re-bind the buffer at evenly spaced draws, each re-bind a
//! `dynamic_constant_buffer` split point (the buffer is not mapped in the list). Shared by the
//! bench and `examples/count_execute.rs`, so that the instruction counts are of the bench's
//! own work.

use recorder::{
    BindFlags, Buffer, BufferDesc, CommandList, DeferredContextDesc, Device, Error, RestoreState,
    Semantics, Shader, ShaderDesc, Slots, Stage, Usage,
};

/// The objects the lists use.
pub struct ExecuteScene {
    pub dynamic: Buffer,
    pub vs: Shader,
}

impl ExecuteScene {
    pub fn new(device: &Device) -> Result<Self, Error> {
        let dynamic = device.create_buffer(&BufferDesc {
            name: "per_draw",
            size: 256,
            usage: Usage::Dynamic,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })?;
        let vs = device.create_shader(&ShaderDesc {
            constant_buffers: Slots::first(1),
            ..ShaderDesc::new("vs", Stage::Vertex)
        })?;
        Ok(Self { dynamic, vs })
    }

    /// A list of `draws` draws with `split_points` of them re-binding the dynamic buffer first
    /// (none when `split_points` is 0).
    pub fn list(
        &self,
        device: &Device,
        semantics: Semantics,
        draws: u32,
        split_points: u32,
    ) -> Result<CommandList, Error> {
        let desc = DeferredContextDesc {
            name: "bench",
            semantics,
            chunk_policy: None,
            ..Default::default()
        };
        let mut context = device.create_deferred_context(&desc)?;
        context.set_shader(Stage::Vertex, Some(self.vs));
        let every = draws.checked_div(split_points);
        for draw in 0..draws {
            if every.is_some_and(|every| draw % every == 0) {
                context.set_constant_buffers(Stage::Vertex, 0, &[Some(self.dynamic)]);
            }
            context.draw(3, draw);
        }
        context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|record| record.error)
    }
}
