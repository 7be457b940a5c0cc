//! The engine driver: a [`Frame`] run on the real API. A device of the frame's semantics and
//! its immediate context (GPU model inline), the frame's objects created in order, one
//! deferred context per worker thread; then, per frame, the workers record their lists at once
//! (scoped threads), the immediate context runs its steps (direct calls, executions) and
//! flushes, and the counters of the frame are read.
//!
//! **Checked, always:** a refused direct call on the immediate context (its call count does
//! not move), a refused map (its own result), a list whose finish fails (the recorder's sticky
//! first error, with its call index), an execution refused or reporting an error: each ends
//! the run with an error naming the scenario, the context or list and the call. Every frame
//! must count what the first counted (see the module essay of `mod.rs`).

use std::thread;
use std::time::{Duration, Instant};

use executor::{Counters, ImmediateContext};
use recorder::*;

use super::ir::{Call, Frame, Id, MapKind, ObjectDesc, Step, ViewKind};
use crate::cli::PhaseProgress;

/// What one list recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListCounts {
    /// The list's name.
    pub name: String,
    /// Its statistics: calls, commands, bytes, chunks, draws, split points by category.
    pub stats: ListStats,
}

/// What one frame counted: the lists' statistics and the GPU model's counters of the frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Every list, in execution order.
    pub lists: Vec<ListCounts>,
    /// Split points recorded, summed over the lists (`ListStats::split_points`).
    pub recorded: SplitCounts,
    /// Bytes of the lists, summed.
    pub bytes: u64,
    /// The GPU model's counters for the frame (split points resolved, indirect-buffer
    /// executions, decompressions, context rolls, draws, dispatches, ...).
    pub gpu: Counters,
}

impl Counts {
    /// Whether `other` reports the same: the lists' statistics, and the GPU model's counters
    /// the report and the trace's expectations show. (Cache flushes, which the report does not
    /// show, depend on the previous frame's last uses: a first frame has none to flush.)
    pub fn same_report(&self, other: &Counts) -> bool {
        let key = |c: &Counts| {
            let g = &c.gpu;
            (
                g.split_points_resolved,
                [g.ib_executions, g.decompressions, g.context_rolls],
                [g.draws, g.dispatches, g.barriers],
            )
        };
        self.lists == other.lists && self.recorded == other.recorded && key(self) == key(other)
    }
}

/// One scenario under one semantics, measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The scenario's name.
    pub scenario: &'static str,
    pub semantics: Semantics,
    /// What every frame counted.
    pub counts: Counts,
    /// Median over the timed frames of the slowest thread's record + finish time.
    pub record_max: Duration,
    /// Median over the timed frames of the record + finish time summed over the threads.
    pub record_sum: Duration,
    /// Median over the timed frames of the immediate context's steps and flush (GPU model
    /// inline).
    pub execute: Duration,
    /// Timed frames.
    pub frames: u32,
}

/// A created object.
#[derive(Clone, Copy)]
enum Made {
    Buffer(Buffer),
    Texture(Texture),
    ShaderResource(ShaderResourceView),
    UnorderedAccess(UnorderedAccessView),
    RenderTarget(RenderTargetView),
    DepthStencil(DepthStencilView),
    Shader(Shader),
    InputLayout(InputLayout),
    DepthStencilState(DepthStencilState),
    SamplerState(SamplerState),
    Predicate(Query),
}

/// The frame's objects, by [`Id`].
struct Objects {
    made: Vec<Made>,
    /// What maps write.
    fill: Vec<u8>,
}

macro_rules! getter {
    ($name:ident, $variant:ident, $handle:ty) => {
        fn $name(&self, id: Id) -> Result<$handle, String> {
            match self.made.get(id) {
                Some(Made::$variant(handle)) => Ok(*handle),
                _ => Err(format!(
                    "object {id} is not a {}: the scenario is built wrong",
                    stringify!($variant)
                )),
            }
        }
    };
}

impl Objects {
    getter!(buffer, Buffer, Buffer);
    getter!(texture, Texture, Texture);
    getter!(shader_resource, ShaderResource, ShaderResourceView);
    getter!(unordered_access, UnorderedAccess, UnorderedAccessView);
    getter!(render_target, RenderTarget, RenderTargetView);
    getter!(depth_stencil, DepthStencil, DepthStencilView);
    getter!(shader, Shader, Shader);
    getter!(input_layout, InputLayout, InputLayout);
    getter!(depth_stencil_state, DepthStencilState, DepthStencilState);
    getter!(sampler_state, SamplerState, SamplerState);
    getter!(predicate, Predicate, Query);

    /// Creates the frame's objects on `device`, in order.
    fn create(device: &Device, frame: &Frame) -> Result<Self, String> {
        let mut made = Vec::with_capacity(frame.objects.len());
        for object in &frame.objects {
            let name = object.name.as_str();
            let created = match &object.desc {
                ObjectDesc::Buffer { usage, bind, size } => device
                    .create_buffer(&BufferDesc {
                        name,
                        size: *size,
                        usage: *usage,
                        bind: *bind,
                        ..Default::default()
                    })
                    .map(Made::Buffer),
                ObjectDesc::Texture {
                    format,
                    width,
                    height,
                    bind,
                    compressible,
                    tc,
                } => device
                    .create_texture(&TextureDesc {
                        name,
                        format: *format,
                        width: *width,
                        height: *height,
                        bind: *bind,
                        compressible: *compressible,
                        texture_compatible: *tc,
                        ..Default::default()
                    })
                    .map(Made::Texture),
                ObjectDesc::View { kind, resource } => {
                    let resource: Resource = match made.get(*resource) {
                        Some(Made::Buffer(buffer)) => (*buffer).into(),
                        Some(Made::Texture(texture)) => (*texture).into(),
                        _ => return Err(format!("view {name}: its resource is not made first")),
                    };
                    let desc = ViewDesc::new(name, resource);
                    match kind {
                        ViewKind::ShaderResource => device
                            .create_shader_resource_view(&desc)
                            .map(Made::ShaderResource),
                        ViewKind::UnorderedAccess => device
                            .create_unordered_access_view(&desc)
                            .map(Made::UnorderedAccess),
                        ViewKind::RenderTarget => device
                            .create_render_target_view(&desc)
                            .map(Made::RenderTarget),
                        ViewKind::DepthStencil => device
                            .create_depth_stencil_view(&desc)
                            .map(Made::DepthStencil),
                    }
                }
                ObjectDesc::Shader {
                    stage,
                    constant_buffers,
                    shader_resources,
                    samplers,
                    unordered_access_views,
                } => device
                    .create_shader(&ShaderDesc {
                        constant_buffers: *constant_buffers,
                        shader_resources: *shader_resources,
                        samplers: *samplers,
                        unordered_access_views: *unordered_access_views,
                        ..ShaderDesc::new(name, *stage)
                    })
                    .map(Made::Shader),
                ObjectDesc::InputLayout { vertex_buffers } => device
                    .create_input_layout(&InputLayoutDesc {
                        name,
                        vertex_buffers: *vertex_buffers,
                    })
                    .map(Made::InputLayout),
                ObjectDesc::DepthStencilState => device
                    .create_depth_stencil_state(name)
                    .map(Made::DepthStencilState),
                ObjectDesc::SamplerState => {
                    device.create_sampler_state(name).map(Made::SamplerState)
                }
                ObjectDesc::Predicate => device
                    .create_query(name, QueryKind::Predicate)
                    .map(Made::Predicate),
            };
            made.push(created.map_err(|error| format!("creating {name}: {error}"))?);
        }
        let fill = (0..256u32).map(|k| (k * 37 + 11) as u8).collect();
        Ok(Self { made, fill })
    }
}

/// Makes `call` on `context`. A refused map is an error here; other refusals are the
/// context's to report (a deferred context's finish, the immediate context's call count).
#[inline]
fn apply<C: DeviceContext>(context: &mut C, call: &Call, objects: &Objects) -> Result<(), String> {
    match *call {
        Call::SetInputLayout(layout) => {
            context.set_input_layout(Some(objects.input_layout(layout)?))
        }
        Call::SetTriangleList => context.set_primitive_topology(PrimitiveTopology::TriangleList),
        Call::SetVertexBuffer { slot, buffer } => context.set_vertex_buffers(
            slot,
            &[VertexBuffer {
                buffer: Some(objects.buffer(buffer)?),
                stride: 0,
                offset: 0,
            }],
        ),
        Call::SetIndexBuffer { buffer, format } => {
            context.set_index_buffer(Some(objects.buffer(buffer)?), format, 0)
        }
        Call::SetShader { stage, shader } => {
            context.set_shader(stage, Some(objects.shader(shader)?))
        }
        Call::SetConstantBuffer {
            stage,
            slot,
            buffer,
        } => context.set_constant_buffers(stage, slot, &[Some(objects.buffer(buffer)?)]),
        Call::SetShaderResource { stage, slot, view } => {
            let view = view.map(|v| objects.shader_resource(v)).transpose()?;
            context.set_shader_resources(stage, slot, &[view])
        }
        Call::SetSampler {
            stage,
            slot,
            sampler,
        } => context.set_samplers(stage, slot, &[Some(objects.sampler_state(sampler)?)]),
        Call::SetPlacementConstantBuffer {
            stage,
            slot,
            buffer,
            address,
        } => context.set_placement_constant_buffer(stage, slot, objects.buffer(buffer)?, address),
        Call::SetComputeUav { slot, view } => {
            let view = view.map(|v| objects.unordered_access(v)).transpose()?;
            context.set_compute_unordered_access_views(slot, &[view])
        }
        Call::SetRenderTarget { target, depth } => {
            let depth = depth.map(|d| objects.depth_stencil(d)).transpose()?;
            context.set_render_targets(&[Some(objects.render_target(target)?)], depth)
        }
        Call::SetDepthStencilState(state) => {
            context.set_depth_stencil_state(Some(objects.depth_stencil_state(state)?), 0)
        }
        Call::SetViewport { width, height } => {
            context.set_viewports(&[Viewport::new(0.0, 0.0, width as f32, height as f32)])
        }
        Call::DrawIndexed { indices } => context.draw_indexed(indices, 0, 0),
        Call::DrawFullScreen => context.draw(3, 0),
        Call::Dispatch { groups } => context.dispatch(groups, 1, 1),
        Call::ClearRenderTarget { view, color } => {
            context.clear_render_target_view(objects.render_target(view)?, color)
        }
        Call::ClearDepthStencil { view } => context.clear_depth_stencil_view(
            objects.depth_stencil(view)?,
            ClearFlags::DEPTH_STENCIL,
            1.0,
            0,
        ),
        Call::Map { buffer, kind } => {
            let (map_type, flags) = match kind {
                MapKind::WriteDiscard => (MapType::WriteDiscard, MapFlags::None),
                MapKind::NoOverwriteDefault => {
                    (MapType::WriteNoOverwrite, MapFlags::AllowUsageDefault)
                }
            };
            let mut bytes = context
                .map(objects.buffer(buffer)?, map_type, flags)
                .map_err(|error| format!("map refused: {error}"))?;
            let n = bytes.len().min(objects.fill.len());
            bytes[..n].copy_from_slice(&objects.fill[..n]);
        }
        Call::DecompressResource(texture) => {
            context.decompress_resource(objects.texture(texture)?, None)
        }
        Call::SetPredication(predicate) => match predicate {
            Some(p) => context.set_predication(Some(objects.predicate(p)?), PredicateValue::True),
            None => context.set_predication(None, PredicateValue::False),
        },
        Call::UavToShaderResource(buffer) => {
            context.barrier(&[BarrierGroup::Buffer(&[BufferBarrier {
                sync_before: Call::UAV_TO_SRV_SYNC[0],
                sync_after: Call::UAV_TO_SRV_SYNC[1],
                access_before: Call::UAV_TO_SRV_ACCESS[0],
                access_after: Call::UAV_TO_SRV_ACCESS[1],
                resource: objects.buffer(buffer)?.into(),
                offset: 0,
                size: BufferBarrier::WHOLE,
            }])])
        }
        Call::TextureBarrier { texture, barrier } => {
            let ([sync_before, sync_after], [access_before, access_after], layouts, discard) =
                barrier.parts();
            context.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
                sync_before,
                sync_after,
                access_before,
                access_after,
                layout_before: layouts[0],
                layout_after: layouts[1],
                resource: objects.texture(texture)?.into(),
                subresources: BarrierSubresources::ALL,
                discard,
            }])])
        }
    }
    Ok(())
}

/// One frame's lists and times.
struct FrameRun {
    counts: Counts,
    record_max: Duration,
    record_sum: Duration,
    execute: Duration,
}

/// Runs `frame` once as warm-up and `frames` times timed (0: the warm-up is timed), on a fresh
/// device of its semantics, and returns the first frame's counts (every frame must report the
/// same, [`Counts::same_report`], or it is an error) and the median times.
/// `progress` advances by one per frame run.
pub fn measure(
    frame: &Frame,
    frames: u32,
    progress: Option<&PhaseProgress>,
) -> Result<Measurement, String> {
    measure_on(frame, frames, progress, Validation::Off)
}

/// One frame under `validation` (R-V-1, R-V-2): a violation is an error of the run. How the
/// tests check that the fast frames keep the fast contract (no compressed read, no missing
/// barrier).
pub fn validate(frame: &Frame, validation: Validation) -> Result<Counts, String> {
    measure_on(frame, 0, None, validation).map(|m| m.counts)
}

fn measure_on(
    frame: &Frame,
    frames: u32,
    progress: Option<&PhaseProgress>,
    validation: Validation,
) -> Result<Measurement, String> {
    let scope = |error: String| format!("{} ({}): {error}", frame.scenario, frame.semantics.name());
    let device = Device::new(DeviceDesc {
        immediate_semantics: frame.semantics,
        validation,
        ..DeviceDesc::default()
    });
    let mut immediate = ImmediateContext::new(&device).map_err(|e| scope(e.to_string()))?;
    let objects = Objects::create(&device, frame).map_err(scope)?;
    let mut contexts = (0..frame.threads)
        .map(|t| {
            device.create_deferred_context(&DeferredContextDesc {
                name: &Frame::context_name(t),
                semantics: frame.semantics,
                ..Default::default()
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| scope(format!("creating a deferred context: {e}")))?;
    let mut runs = Vec::with_capacity(frames as usize + 1);
    for _ in 0..=frames {
        let run = run_frame(frame, &objects, &mut contexts, &mut immediate).map_err(scope)?;
        if let Some(first) = runs.first().map(|r: &FrameRun| &r.counts) {
            if !first.same_report(&run.counts) {
                return Err(scope(format!(
                    "frame {} counted {:?}, the first frame {:?}: a frame must set up all it \
                     depends on",
                    runs.len(),
                    run.counts.gpu,
                    first.gpu
                )));
            }
        }
        runs.push(run);
        if let Some(progress) = progress {
            progress.advance(1);
        }
    }
    // The warm-up frame is timed only when it is the only one.
    let timed = match runs.len() {
        1 => &runs[..],
        _ => &runs[1..],
    };
    let median = |time: fn(&FrameRun) -> Duration| {
        let mut times: Vec<Duration> = timed.iter().map(time).collect();
        times.sort();
        times.get(times.len() / 2).copied().unwrap_or_default()
    };
    let (record_max, record_sum, execute) = (
        median(|r| r.record_max),
        median(|r| r.record_sum),
        median(|r| r.execute),
    );
    let timed_frames = timed.len() as u32;
    let counts = runs
        .into_iter()
        .next()
        .map(|r| r.counts)
        .ok_or_else(|| scope("no frame ran".into()))?;
    Ok(Measurement {
        scenario: frame.scenario,
        semantics: frame.semantics,
        counts,
        record_max,
        record_sum,
        execute,
        frames: timed_frames,
    })
}

/// What one worker recorded: its lists (by index in the frame) and its record + finish time.
type Recorded = Result<(Vec<(usize, CommandList)>, Duration), String>;

/// Records `frame`'s lists on the workers, runs the immediate context's steps, and counts.
fn run_frame(
    frame: &Frame,
    objects: &Objects,
    contexts: &mut [DeferredContext],
    immediate: &mut ImmediateContext,
) -> Result<FrameRun, String> {
    let recorded: Vec<Recorded> = thread::scope(|s| {
        let workers: Vec<_> = contexts
            .iter_mut()
            .enumerate()
            .map(|(thread, context)| {
                s.spawn(move || record_thread(frame, objects, thread, context))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a recording thread panicked".into()))
            })
            .collect()
    });
    let mut lists: Vec<Option<CommandList>> = frame.lists.iter().map(|_| None).collect();
    let (mut record_max, mut record_sum) = (Duration::ZERO, Duration::ZERO);
    for worker in recorded {
        let (made, elapsed) = worker?;
        record_max = record_max.max(elapsed);
        record_sum += elapsed;
        for (k, list) in made {
            if let Some(slot) = lists.get_mut(k) {
                *slot = Some(list);
            }
        }
    }
    let lists: Vec<CommandList> = lists
        .into_iter()
        .zip(&frame.lists)
        .map(|(list, ir)| list.ok_or_else(|| format!("list {} was not recorded", ir.name)))
        .collect::<Result<_, _>>()?;

    let before = *immediate.counters();
    let begin = Instant::now();
    for (k, step) in frame.immediate.iter().enumerate() {
        match step {
            Step::Call(call) => {
                let calls = immediate.stats().calls;
                let refused = |why: String| format!("imm step {k} ({call:?}) refused: {why}");
                apply(immediate, call, objects).map_err(refused)?;
                if let Call::TextureBarrier { .. } = call {
                    // A direct barrier ends the batch (its calls count starts again): what the
                    // GPU model refused of it is the flush's result (R-BAR-8).
                    immediate.flush().map_err(|e| refused(e.to_string()))?;
                } else if immediate.stats().calls == calls {
                    let why = immediate
                        .last_refusal()
                        .map_or_else(|| "no reason given".to_string(), |e| e.to_string());
                    return Err(refused(why));
                }
            }
            Step::Execute(list) => {
                let name = frame.lists.get(*list).map_or("?", |l| l.name.as_str());
                let list = lists
                    .get(*list)
                    .ok_or_else(|| format!("imm step {k}: no list {list}"))?;
                immediate
                    .execute_command_list(list, RestoreState::ClearState)
                    .map_err(|e| format!("executing {name}: {e}"))?;
            }
        }
    }
    immediate
        .flush()
        .map_err(|e| format!("flushing the immediate context: {e}"))?;
    let execute = begin.elapsed();
    if let Some(error) = immediate.take_execution_errors().into_iter().next() {
        return Err(format!("executing the lists: {error}"));
    }
    let gpu = delta(immediate.counters(), &before);
    immediate.clear_records();

    let mut counts = Counts {
        lists: Vec::with_capacity(lists.len()),
        recorded: SplitCounts::default(),
        bytes: 0,
        gpu,
    };
    for (list, ir) in lists.iter().zip(&frame.lists) {
        let stats = *list.stats();
        counts.recorded.add(&stats.split_points);
        counts.bytes += stats.bytes;
        counts.lists.push(ListCounts {
            name: ir.name.clone(),
            stats,
        });
    }
    Ok(FrameRun {
        counts,
        record_max,
        record_sum,
        execute,
    })
}

/// Worker `thread`'s part of a frame: its lists, recorded and finished in order.
fn record_thread(
    frame: &Frame,
    objects: &Objects,
    thread: usize,
    context: &mut DeferredContext,
) -> Recorded {
    let begin = Instant::now();
    let mut made = Vec::new();
    for (k, list) in frame.lists_of(thread) {
        for (index, call) in list.calls.iter().enumerate() {
            apply(context, call, objects)
                .map_err(|e| format!("list {}, call {index} ({call:?}): {e}", list.name))?;
        }
        let finished = context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|e| format!("finishing list {}: {e}", list.name))?;
        made.push((k, finished));
    }
    Ok((made, begin.elapsed()))
}

/// The counters from `before` to `after`.
fn delta(after: &Counters, before: &Counters) -> Counters {
    let mut resolved = SplitCounts::default();
    for category in SplitCategory::ALL {
        resolved[category] = after.split_points_resolved[category]
            .saturating_sub(before.split_points_resolved[category]);
    }
    let d = |a: u64, b: u64| a.saturating_sub(b);
    Counters {
        draws: d(after.draws, before.draws),
        dispatches: d(after.dispatches, before.dispatches),
        context_rolls: d(after.context_rolls, before.context_rolls),
        ib_executions: d(after.ib_executions, before.ib_executions),
        split_points_resolved: resolved,
        decompressions: d(after.decompressions, before.decompressions),
        ce_bytes: d(after.ce_bytes, before.ce_bytes),
        cache_flushes: d(after.cache_flushes, before.cache_flushes),
        cache_invalidations: d(after.cache_invalidations, before.cache_invalidations),
        fence_waits: d(after.fence_waits, before.fence_waits),
        bundle_calls: d(after.bundle_calls, before.bundle_calls),
        barriers: d(after.barriers, before.barriers),
        drains: d(after.drains, before.drains),
        stalls: d(after.stalls, before.stalls),
        metadata_inits: d(after.metadata_inits, before.metadata_inits),
    }
}
