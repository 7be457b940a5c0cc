//! wgpu's side of the comparison: the same workload on wgpu 30's noop backend (no GPU: the
//! backend's calls do nothing, so what is timed is wgpu's own recording, validation and
//! submission), recorded in a render pass and into render bundles.
//!
//! **The mirror.** 16 uniform buffers, one bind group each (set 0, one uniform binding seen by
//! the vertex stage): our constant-buffer bind per draw is a `set_bind_group(0, ..)` per draw.
//! 8 vertex buffers: `set_vertex_buffer(0, ..)` per draw. Our two vertex/pixel shader pairs and two
//! blend states, changed together every 100 draws, are two render pipelines (`vs_k`/`fs_k`, the
//! second blending): `set_pipeline` every 100 draws and on a range's first draw. `draw(0..3,
//! 0..1)` for `draw(3, 0)`. The target is a 64x64 `Rgba8Unorm` texture of the noop device.
//!
//! **Errors.** wgpu reports validation errors to the device's uncaptured-error handler; ours
//! collects them, and every measurement ends with [`Gpu::check`], so a refused call is an error
//! of the run, not a silent figure.

use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use benches::render_workload::{CONSTANT_BUFFERS, PIPELINE_EVERY, VERTEX_BUFFERS};
use wgpu::util::RenderEncoder;

use crate::{Options, Phases, Step};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The two vertex/fragment shader pairs; the uniform is read so that the bind group is used.
const SHADER: &str = "
struct Object { offset: vec4<f32> }
@group(0) @binding(0) var<uniform> object: Object;
@vertex fn vs_0(@location(0) p: vec4<f32>) -> @builtin(position) vec4<f32> { return p + object.offset; }
@vertex fn vs_1(@location(0) p: vec4<f32>) -> @builtin(position) vec4<f32> { return p * object.offset; }
@fragment fn fs_0() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }
@fragment fn fs_1() -> @location(0) vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 0.5); }
";

/// The noop device, its queue and the workload's objects.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    view: wgpu::TextureView,
    pipelines: [wgpu::RenderPipeline; 2],
    bind_groups: Vec<wgpu::BindGroup>,
    vertex_buffers: Vec<wgpu::Buffer>,
    errors: Arc<Mutex<Vec<String>>>,
}

/// Polls a future that is ready at once (the noop backend's adapter and device requests).
fn ready<T>(future: impl std::future::Future<Output = T>) -> Option<T> {
    let mut context = Context::from_waker(Waker::noop());
    match std::pin::pin!(future).poll(&mut context) {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}

impl Gpu {
    /// The noop backend's device and the workload's objects.
    pub fn new() -> Result<Self, String> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::NOOP,
            backend_options: wgpu::BackendOptions {
                noop: wgpu::NoopBackendOptions::enabled(),
                ..Default::default()
            },
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = ready(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .ok_or("wgpu: the noop adapter request did not complete at once")?
            .map_err(|e| format!("wgpu: no noop adapter: {e}"))?;
        let (device, queue) = ready(adapter.request_device(&wgpu::DeviceDescriptor::default()))
            .ok_or("wgpu: the noop device request did not complete at once")?
            .map_err(|e| format!("wgpu: no noop device: {e}"))?;
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            if let Ok(mut errors) = sink.lock() {
                errors.push(error.to_string());
            }
        }));

        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("target"),
            size: wgpu::Extent3d {
                width: 64,
                height: 64,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let buffer = |usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: 256,
                usage,
                mapped_at_creation: false,
            })
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("object"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let bind_groups = (0..CONSTANT_BUFFERS)
            .map(|_| {
                let uniform = buffer(wgpu::BufferUsages::UNIFORM);
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout: &layout,
                    entries: &[wgpu::BindGroupEntry {
                        binding: 0,
                        resource: uniform.as_entire_binding(),
                    }],
                })
            })
            .collect();
        let vertex_buffers = (0..VERTEX_BUFFERS)
            .map(|_| buffer(wgpu::BufferUsages::VERTEX))
            .collect();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("workload"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("workload"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let attributes = [wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 0,
            shader_location: 0,
        }];
        let pipeline = |k: usize, blend: Option<wgpu::BlendState>| {
            let (vs, fs) = (format!("vs_{k}"), format!("fs_{k}"));
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: None,
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(&vs),
                    compilation_options: Default::default(),
                    buffers: &[Some(wgpu::VertexBufferLayout {
                        array_stride: 16,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &attributes,
                    })],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(&fs),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: FORMAT,
                        blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let pipelines = [
            pipeline(0, None),
            pipeline(1, Some(wgpu::BlendState::ALPHA_BLENDING)),
        ];
        let gpu = Self {
            device,
            queue,
            view,
            pipelines,
            bind_groups,
            vertex_buffers,
            errors,
        };
        gpu.check("creating the workload's objects")?;
        Ok(gpu)
    }

    /// The first validation error wgpu reported since the last check, if any.
    pub fn check(&self, what: &str) -> Result<(), String> {
        let mut errors = self
            .errors
            .lock()
            .map_err(|_| "wgpu: error sink poisoned")?;
        match errors.first() {
            None => Ok(()),
            Some(first) => {
                let message = format!(
                    "wgpu refused {what} ({} errors); the first: {first}",
                    errors.len()
                );
                errors.clear();
                Err(message)
            }
        }
    }

    /// Records draws `draws` on a render pass or a bundle encoder: the calls of
    /// `Workload::record`, mirrored (the module's essay).
    #[inline]
    fn record<'a, E: RenderEncoder<'a>>(&'a self, encoder: &mut E, draws: Range<u32>) {
        let first = draws.start;
        for i in draws {
            if i % PIPELINE_EVERY == 0 || i == first {
                let k = ((i / PIPELINE_EVERY) % 2) as usize;
                encoder.set_pipeline(&self.pipelines[k]);
            }
            let group = &self.bind_groups[i as usize % CONSTANT_BUFFERS];
            encoder.set_bind_group(0, Some(group), &[]);
            let vertices = &self.vertex_buffers[i as usize % VERTEX_BUFFERS];
            encoder.set_vertex_buffer(0, Some(vertices.slice(..)));
            encoder.draw(0..3, 0..1);
        }
    }

    fn encoder(&self) -> wgpu::CommandEncoder {
        self.device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None })
    }

    /// A render pass on the target, loading and storing it.
    fn pass<'e>(&self, encoder: &'e mut wgpu::CommandEncoder) -> wgpu::RenderPass<'e> {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }

    /// Draws `draws` in a render pass of a new command encoder, and the encoder finished.
    pub fn pass_buffer(&self, draws: Range<u32>) -> wgpu::CommandBuffer {
        let mut encoder = self.encoder();
        {
            let mut pass = self.pass(&mut encoder);
            self.record(&mut pass, draws);
        }
        encoder.finish()
    }

    /// Records `ranges` as one render bundle each (a new encoder each: wgpu's bundle encoder is
    /// consumed by `finish`), into `bundles`; returns the time the `finish` calls took.
    pub fn record_bundles(
        &self,
        ranges: &[Range<u32>],
        bundles: &mut Vec<wgpu::RenderBundle>,
    ) -> Duration {
        let mut finish = Duration::ZERO;
        for range in ranges {
            let mut encoder =
                self.device
                    .create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
                        label: None,
                        color_formats: &[Some(FORMAT)],
                        depth_stencil: None,
                        sample_count: 1,
                        multiview: None,
                    });
            self.record(&mut encoder, range.clone());
            let start = Instant::now();
            bundles.push(encoder.finish(&wgpu::RenderBundleDescriptor { label: None }));
            finish += start.elapsed();
        }
        finish
    }

    /// The frame in one render pass: record (a command encoder, the pass, the calls, the pass
    /// ended), finish (`CommandEncoder::finish`), submit (`Queue::submit`; on the noop backend
    /// the submission completes inside it and its own maintenance frees the command buffer),
    /// drop (the `Device::poll` that would retire it on a real device).
    pub fn render_pass<'a>(&'a self, o: &'a Options) -> Step<'a> {
        Box::new(move || {
            let start = Instant::now();
            let mut encoder = self.encoder();
            {
                let mut pass = self.pass(&mut encoder);
                self.record(&mut pass, 0..o.draws);
            }
            let recorded = start.elapsed();
            let phases = self.finish_submit_poll(encoder)?;
            self.check("the render pass")?;
            Ok(Phases {
                record: recorded,
                ..phases
            })
        })
    }

    /// Finishes `encoder`, submits its command buffer and polls: the finish, execute and drop
    /// phases of a pass (the record phase left zero).
    fn finish_submit_poll(&self, encoder: wgpu::CommandEncoder) -> Result<Phases, String> {
        let start = Instant::now();
        let buffer = encoder.finish();
        let finished = start.elapsed();
        let start = Instant::now();
        self.queue.submit([buffer]);
        let submitted = start.elapsed();
        let start = Instant::now();
        let polled = self.device.poll(wgpu::PollType::wait_indefinitely());
        let retired = start.elapsed();
        polled.map_err(|e| format!("wgpu: Device::poll failed: {e}"))?;
        Ok(Phases::all(Duration::ZERO, finished, submitted, retired))
    }

    /// Render bundles of `--bundle-draws`: record (an encoder per bundle and its calls), finish
    /// (`RenderBundleEncoder::finish`), execute (the replay: [`Gpu::replay`]'s phases
    /// together), drop (the bundles).
    pub fn bundles<'a>(&'a self, o: &'a Options) -> Step<'a> {
        let ranges = o.bundle_ranges(0..o.draws);
        let mut bundles = Vec::with_capacity(ranges.len());
        Box::new(move || {
            let start = Instant::now();
            let finished = self.record_bundles(&ranges, &mut bundles);
            let total = start.elapsed();
            let start = Instant::now();
            let mut encoder = self.encoder();
            {
                let mut pass = self.pass(&mut encoder);
                pass.execute_bundles(&bundles);
            }
            let replayed = self.finish_submit_poll(encoder);
            let execute = start.elapsed();
            replayed?;
            let start = Instant::now();
            bundles.clear();
            let dropped = start.elapsed();
            self.check("the render bundles")?;
            Ok(Phases::all(
                total.saturating_sub(finished),
                finished,
                execute,
                dropped,
            ))
        })
    }

    /// Pre-recorded bundles of the whole frame, for the replay.
    pub fn prerecorded(&self, o: &Options) -> Result<Vec<wgpu::RenderBundle>, String> {
        let mut bundles = Vec::new();
        self.record_bundles(&o.bundle_ranges(0..o.draws), &mut bundles);
        self.check("recording the bundles")?;
        Ok(bundles)
    }

    /// `bundles` executed in one render pass: record (an encoder, the pass, `execute_bundles`,
    /// the pass ended), finish, submit, drop (the poll), as [`Gpu::render_pass`].
    pub fn replay<'a>(&'a self, bundles: &'a [wgpu::RenderBundle]) -> Step<'a> {
        Box::new(move || {
            let start = Instant::now();
            let mut encoder = self.encoder();
            {
                let mut pass = self.pass(&mut encoder);
                pass.execute_bundles(bundles);
            }
            let recorded = start.elapsed();
            let phases = self.finish_submit_poll(encoder)?;
            self.check("the bundles' replay")?;
            Ok(Phases {
                record: recorded,
                ..phases
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_tool_3_the_wgpu_mirror_records_the_workload_without_a_validation_error() {
        let gpu = Gpu::new().expect("the noop device and the objects");
        gpu.queue.submit([gpu.pass_buffer(0..250)]);
        let mut bundles = Vec::new();
        gpu.record_bundles(&[0..100, 100..200, 200..250], &mut bundles);
        let mut replay = gpu.replay(&bundles);
        replay().expect("the replay");
        assert_eq!(gpu.check("the mirror"), Ok(()));
    }

    #[test]
    fn r_tool_3_a_call_wgpu_refuses_is_an_error_of_the_run() {
        let gpu = Gpu::new().expect("the noop device and the objects");
        let mut encoder = gpu.encoder();
        {
            // A draw with no pipeline set: refused when the encoder is finished.
            let mut pass = gpu.pass(&mut encoder);
            pass.draw(0..3, 0..1);
        }
        drop(encoder.finish());
        let refused = gpu.check("a draw without a pipeline");
        assert!(refused.is_err(), "{refused:?}");
        // The check reports an error once.
        assert_eq!(gpu.check("nothing"), Ok(()));
    }
}
