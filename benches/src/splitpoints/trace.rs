//! The trace printer: a [`Frame`] in `trace/docs/TRACE.md` syntax, in the order the driver
//! makes its calls: the device, the objects, one deferred context per worker; each worker's
//! lists, call by call, each ended by its `finish`; then the immediate context's steps. With
//! [`Counts`], the driver's counts follow as expectations: `expect split_points LIST` with
//! the total and every category after each `finish`, and at the end `expect ok` and `expect
//! counters` with the split points resolved, indirect-buffer executions, decompressions,
//! context rolls, draws and dispatches of the frame.

use std::fmt::Write as _;

use recorder::{BindFlags, SplitCategory, Stage, Usage};

use super::drive::Counts;
use super::ir::{Call, Frame, Id, MapKind, ObjectDesc, Step};

/// `frame` as a trace, `header` as its first comment lines, `expect` appended as expectations.
pub fn print(frame: &Frame, header: &[String], expect: Option<&Counts>) -> String {
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "# {line}");
    }
    let semantics = frame.semantics.name();
    let _ = writeln!(out, "device semantics={semantics}");
    for object in &frame.objects {
        let _ = writeln!(out, "{}", declaration(frame, &object.name, &object.desc));
    }
    for thread in 0..frame.threads {
        let _ = writeln!(
            out,
            "context {} semantics={semantics}",
            Frame::context_name(thread)
        );
    }
    for thread in 0..frame.threads {
        let context = Frame::context_name(thread);
        for (k, list) in frame.lists_of(thread) {
            let _ = writeln!(out, "\n# list {} on worker {thread}", list.name);
            for call in &list.calls {
                call_lines(&mut out, frame, &context, call);
            }
            let _ = writeln!(out, "{context} finish {}", list.name);
            if let Some(counts) = expect {
                let _ = writeln!(out, "expect accepted {context}");
                if let Some(list_counts) = counts.lists.get(k) {
                    let split = &list_counts.stats.split_points;
                    let _ = write!(
                        out,
                        "expect split_points {} total={}",
                        list.name,
                        split.total()
                    );
                    for category in SplitCategory::ALL {
                        let _ = write!(out, " {}={}", category.name(), split[category]);
                    }
                    out.push('\n');
                }
            }
        }
    }
    let _ = writeln!(out, "\n# the immediate context");
    for step in &frame.immediate {
        match step {
            Step::Call(call) => call_lines(&mut out, frame, "imm", call),
            Step::Execute(k) => {
                let name = frame.lists.get(*k).map_or("missing", |l| l.name.as_str());
                let _ = writeln!(out, "imm execute {name}");
            }
        }
    }
    if let Some(counts) = expect {
        let gpu = &counts.gpu;
        let _ = writeln!(out, "expect ok");
        let _ = writeln!(
            out,
            "expect counters split_points_resolved={} ib_executions={} decompressions={} \
             context_rolls={} draws={} dispatches={}",
            gpu.split_points_resolved.total(),
            gpu.ib_executions,
            gpu.decompressions,
            gpu.context_rolls,
            gpu.draws,
            gpu.dispatches
        );
    }
    out
}

fn name(frame: &Frame, id: Id) -> &str {
    frame.objects.get(id).map_or("missing", |o| o.name.as_str())
}

fn name_or_null(frame: &Frame, id: Option<Id>) -> &str {
    id.map_or("null", |id| name(frame, id))
}

fn usage(usage: Usage) -> &'static str {
    match usage {
        Usage::Default => "default",
        Usage::Immutable => "immutable",
        Usage::Dynamic => "dynamic",
        Usage::Staging => "staging",
    }
}

/// `bind=` flags: the engine's `Debug` writes the trace's names joined by commas.
fn flags(bind: BindFlags) -> String {
    format!("{bind:?}")
}

/// A slot set as TRACE.md writes it: numbers and inclusive ranges, `0,2-5`.
fn slots(set: recorder::Slots) -> String {
    let mut parts = Vec::new();
    let mut slots = set.iter().peekable();
    while let Some(first) = slots.next() {
        let mut last = first;
        while slots.peek() == Some(&(last + 1)) {
            last += 1;
            slots.next();
        }
        parts.push(match first == last {
            true => first.to_string(),
            false => format!("{first}-{last}"),
        });
    }
    parts.join(",")
}

fn declaration(frame: &Frame, object: &str, desc: &ObjectDesc) -> String {
    match desc {
        ObjectDesc::Buffer {
            usage: u,
            bind,
            size,
        } => format!(
            "buffer {object} usage={} bind={} size={size}",
            usage(*u),
            flags(*bind)
        ),
        ObjectDesc::Texture {
            format,
            width,
            height,
            bind,
            compressible,
            tc,
        } => {
            let mut line = format!(
                "texture {object} format={} width={width} height={height} bind={}",
                format.name(),
                flags(*bind)
            );
            if let Some(compressible) = compressible {
                line += if *compressible {
                    " compressible=yes"
                } else {
                    " compressible=no"
                };
            }
            if *tc {
                line += " tc=yes";
            }
            line
        }
        ObjectDesc::View { kind, resource } => {
            format!("{} {object} {}", kind.keyword(), name(frame, *resource))
        }
        ObjectDesc::Shader {
            stage,
            constant_buffers,
            shader_resources,
            samplers,
            unordered_access_views,
        } => {
            let mut line = format!("shader {object} stage={}", stage.name());
            for (key, set) in [
                ("cb", constant_buffers),
                ("srv", shader_resources),
                ("sampler", samplers),
                ("uav", unordered_access_views),
            ] {
                if !set.is_empty() {
                    let _ = write!(line, " {key}={}", slots(*set));
                }
            }
            line
        }
        ObjectDesc::InputLayout { vertex_buffers } => match vertex_buffers.is_empty() {
            true => format!("input_layout {object}"),
            false => format!("input_layout {object} vb={}", slots(*vertex_buffers)),
        },
        ObjectDesc::DepthStencilState => format!("depth_stencil_state {object}"),
        ObjectDesc::SamplerState => format!("sampler_state {object}"),
        ObjectDesc::Predicate => format!("predicate {object}"),
    }
}

/// The trace lines of `call` on `context` (a map is two: `map`, `unmap`).
fn call_lines(out: &mut String, frame: &Frame, context: &str, call: &Call) {
    let n = |id: Id| name(frame, id);
    let stage = |stage: Stage| stage.name();
    let line = match *call {
        Call::SetInputLayout(layout) => format!("set_input_layout {}", n(layout)),
        Call::SetTriangleList => "set_primitive_topology triangle_list".into(),
        Call::SetVertexBuffer { slot, buffer } => {
            format!("set_vertex_buffers {slot} {}", n(buffer))
        }
        Call::SetIndexBuffer { buffer, format } => {
            format!("set_index_buffer {} {} 0", n(buffer), format.name())
        }
        Call::SetShader { stage: s, shader } => format!("{}_set_shader {}", stage(s), n(shader)),
        Call::SetConstantBuffer {
            stage: s,
            slot,
            buffer,
        } => format!("{}_set_constant_buffers {slot} {}", stage(s), n(buffer)),
        Call::SetShaderResource {
            stage: s,
            slot,
            view,
        } => format!(
            "{}_set_shader_resources {slot} {}",
            stage(s),
            name_or_null(frame, view)
        ),
        Call::SetSampler {
            stage: s,
            slot,
            sampler,
        } => format!("{}_set_samplers {slot} {}", stage(s), n(sampler)),
        Call::SetPlacementConstantBuffer {
            stage: s,
            slot,
            buffer,
            address,
        } => format!(
            "{}_set_placement_constant_buffer {slot} {} {address:#x}",
            stage(s),
            n(buffer)
        ),
        Call::SetComputeUav { slot, view } => format!(
            "cs_set_unordered_access_views {slot} {}",
            name_or_null(frame, view)
        ),
        Call::SetRenderTarget { target, depth } => format!(
            "om_set_render_targets {} {}",
            n(target),
            name_or_null(frame, depth)
        ),
        Call::SetDepthStencilState(state) => format!("om_set_depth_stencil_state {}", n(state)),
        Call::SetViewport { width, height } => format!("rs_set_viewports 0,0,{width},{height}"),
        Call::DrawIndexed { indices } => format!("draw_indexed {indices} 0 0"),
        Call::DrawFullScreen => "draw 3 0".into(),
        Call::Dispatch { groups } => format!("dispatch {groups} 1 1"),
        Call::ClearRenderTarget { view, color } => format!(
            "clear_render_target_view {} {} {} {} {}",
            n(view),
            color[0],
            color[1],
            color[2],
            color[3]
        ),
        Call::ClearDepthStencil { view } => format!("clear_depth_stencil_view {} 1 0", n(view)),
        Call::Map { buffer, kind } => {
            let map = match kind {
                MapKind::WriteDiscard => "write_discard",
                MapKind::NoOverwriteDefault => "write_no_overwrite allow_usage_default",
            };
            let _ = writeln!(out, "{context} map {} {map}", n(buffer));
            format!("unmap {}", n(buffer))
        }
        Call::DecompressResource(texture) => format!("decompress_resource {}", n(texture)),
        Call::SetPredication(predicate) => match predicate {
            Some(p) => format!("set_predication {} yes", n(p)),
            None => "set_predication null no".into(),
        },
        Call::UavToShaderResource(buffer) => format!(
            "barrier buffer {} sync={}:{} access={}:{}",
            n(buffer),
            Call::UAV_TO_SRV_SYNC[0],
            Call::UAV_TO_SRV_SYNC[1],
            Call::UAV_TO_SRV_ACCESS[0],
            Call::UAV_TO_SRV_ACCESS[1]
        ),
        Call::TextureBarrier { texture, barrier } => {
            let (sync, access, layout, discard) = barrier.parts();
            format!(
                "barrier texture {} sync={}:{} access={}:{} layout={}:{}{}",
                n(texture),
                sync[0],
                sync[1],
                access[0],
                access[1],
                layout[0].name(),
                layout[1].name(),
                if discard { " discard" } else { "" }
            )
        }
    };
    let _ = writeln!(out, "{context} {line}");
}
