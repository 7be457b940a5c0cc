//! The `execute` bench's lists: one vertex shader, one dynamic constant buffer, and lists of
//! draws that re-bind the buffer at evenly spaced draws, each re-bind a
//! `dynamic_constant_buffer` split point (the buffer is not mapped in the list). Shared by the
//! bench and `examples/count_execute.rs`, so that the instruction counts are of the bench's
//! own work.

use recorder::capabilities::*;
use recorder::{
    BarrierAccess, BarrierGroup, BarrierLayout, BarrierSubresources, BarrierSync, BindFlags,
    BlendState, Buffer, BufferDesc, CommandList, DeferredContextDesc, Device, Error, InputLayout,
    InputLayoutDesc, PrimitiveTopology, RenderTargetView, RestoreState, Semantics, Shader,
    ShaderDesc, Slots, Stage, Texture, TextureBarrier, TextureDesc, Usage, VertexBuffer, ViewDesc,
    Viewport,
};

/// The objects the lists use.
pub struct ExecuteScene {
    pub dynamic: Buffer,
    pub vs: Shader,
    /// A compressible render target that barriers move between layouts.
    pub target: Texture,
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
        let target = device.create_texture(&TextureDesc {
            name: "target",
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })?;
        Ok(Self {
            dynamic,
            vs,
            target,
        })
    }

    /// A fast list of `barriers` barrier calls of one texture barrier each, moving the target
    /// from `common` to render target and then back and forth between render target and
    /// shader resource (SPEC §9): what the GPU model's barrier response costs.
    pub fn barrier_list(&self, device: &Device, barriers: u32) -> Result<CommandList, Error> {
        let mut context = device.create_deferred_context(&DeferredContextDesc {
            name: "barriers",
            semantics: Semantics::Fast,
            chunk_policy: None,
            ..Default::default()
        })?;
        let write = (
            BarrierSync::RENDER_TARGET,
            BarrierAccess::RENDER_TARGET,
            BarrierLayout::RenderTarget,
        );
        let read = (
            BarrierSync::PIXEL_SHADING,
            BarrierAccess::SHADER_RESOURCE,
            BarrierLayout::ShaderResource,
        );
        let mut before = (
            BarrierSync::NONE,
            BarrierAccess::COMMON,
            BarrierLayout::Common,
        );
        for k in 0..barriers {
            let after = if k % 2 == 0 { write } else { read };
            context.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
                sync_before: before.0,
                sync_after: after.0,
                access_before: before.1,
                access_after: after.1,
                layout_before: before.2,
                layout_after: after.2,
                resource: self.target.into(),
                subresources: BarrierSubresources::ALL,
                discard: false,
            }])]);
            before = after;
        }
        context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|record| record.error)
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

/// The GPU model's throughput workload (the render-bundle workload, after wgpu's render-bundle benchmark): per
/// draw a constant-buffer bind rotating among 16 buffers, a vertex-buffer bind rotating among
/// 8, and `draw(3, 0)`; every 100 draws the vertex and pixel shaders and the blend state
/// change (two of each, alternating). One render target and viewport, bound once.
pub struct ThroughputScene {
    pub constant_buffers: Vec<Buffer>,
    pub vertex_buffers: Vec<Buffer>,
    pub layout: InputLayout,
    pub shaders: [(Shader, Shader); 2],
    pub blends: [BlendState; 2],
    pub target: RenderTargetView,
}

impl ThroughputScene {
    pub fn new(device: &Device) -> Result<Self, Error> {
        let buffer = |name: &str, bind| {
            device.create_buffer(&BufferDesc {
                name,
                size: 256,
                usage: Usage::Default,
                bind,
                ..Default::default()
            })
        };
        let constant_buffers = (0..16)
            .map(|i| buffer(&format!("cb.{i}"), BindFlags::CONSTANT))
            .collect::<Result<_, _>>()?;
        let vertex_buffers = (0..8)
            .map(|i| buffer(&format!("vb.{i}"), BindFlags::VERTEX))
            .collect::<Result<_, _>>()?;
        let layout = device.create_input_layout(&InputLayoutDesc {
            name: "layout",
            vertex_buffers: Slots::first(1),
        })?;
        let pair = |k: u32| -> Result<(Shader, Shader), Error> {
            Ok((
                device.create_shader(&ShaderDesc {
                    constant_buffers: Slots::first(1),
                    ..ShaderDesc::new(&format!("vs.{k}"), Stage::Vertex)
                })?,
                device.create_shader(&ShaderDesc::new(&format!("ps.{k}"), Stage::Pixel))?,
            ))
        };
        let color = device.create_texture(&TextureDesc {
            name: "color",
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })?;
        Ok(Self {
            constant_buffers,
            vertex_buffers,
            layout,
            shaders: [pair(0)?, pair(1)?],
            blends: [
                device.create_blend_state("blend.opaque")?,
                device.create_blend_state("blend.additive")?,
            ],
            target: device.create_render_target_view(&ViewDesc::new("color.rtv", color))?,
        })
    }

    /// A fast list of `draws` draws of the workload.
    pub fn list(&self, device: &Device, draws: u32) -> Result<CommandList, Error> {
        let mut context = device.create_deferred_context(&DeferredContextDesc {
            name: "throughput",
            semantics: Semantics::Fast,
            chunk_policy: None,
            ..Default::default()
        })?;
        context.set_render_targets(&[Some(self.target)], None);
        context.set_viewports(&[Viewport::new(0.0, 0.0, 64.0, 64.0)]);
        context.set_input_layout(Some(self.layout));
        context.set_primitive_topology(PrimitiveTopology::TriangleList);
        for draw in 0..draws as usize {
            if draw % 100 == 0 {
                let (vs, ps) = self.shaders[(draw / 100) % 2];
                context.set_shader(Stage::Vertex, Some(vs));
                context.set_shader(Stage::Pixel, Some(ps));
                let blend = self.blends[(draw / 100) % 2];
                context.set_blend_state(Some(blend), [0.0; 4], u32::MAX);
            }
            let cb = self.constant_buffers[draw % self.constant_buffers.len()];
            context.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
            let vb = self.vertex_buffers[draw % self.vertex_buffers.len()];
            context.set_vertex_buffers(
                0,
                &[VertexBuffer {
                    buffer: Some(vb),
                    stride: 16,
                    offset: 0,
                }],
            );
            context.draw(3, 0);
        }
        context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|record| record.error)
    }
}

/// The frame demo's bundle frame, for the GPU model's execution of bundle calls: the scene's
/// objects (pairs of draws) each recorded once as a bundle (`object_bundles`), and one fast list
/// that sets the pass state and per-frame data and calls every object's bundle, as the demo's
/// workers record each frame.
pub struct BundleFrameScene {
    pub scene: crate::Scene,
    pub bundles: Vec<bundles::DrawBundle>,
}

impl BundleFrameScene {
    /// The scene of `draws` draws (the demo's other defaults) and its objects' bundles.
    pub fn new(device: &Device, draws: u32) -> Result<Self, String> {
        let desc = crate::SceneDesc {
            draws,
            ..Default::default()
        };
        let scene = crate::Scene::new(device, &desc).map_err(|e| format!("{e:?}"))?;
        let objects = crate::object_bundles::objects(&scene);
        let bundles = crate::object_bundles::record_object_bundles(device, &scene, 0..objects)
            .map_err(|e| e.to_string())?;
        Ok(Self { scene, bundles })
    }

    /// One frame: a fast list calling every object's bundle.
    pub fn list(&self, device: &Device) -> Result<CommandList, String> {
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                name: "bundle_frame",
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .map_err(|e| e.to_string())?;
        let objects = crate::object_bundles::objects(&self.scene);
        crate::object_bundles::record_bundle_calls(
            &mut context,
            &self.scene,
            &self.bundles,
            0..objects,
        );
        context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|e| e.error.to_string())
    }
}
