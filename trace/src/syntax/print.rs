//! Canonical trace text for the syntax tree: `Display` for [`Trace`], [`Statement`] and every
//! part of them.
//!
//! **In:** a tree (parsed, or built by a generator). **Out:** one statement a line, tokens
//! separated by one space, options in docs/TRACE.md's order and only those present, numbers in
//! decimal (`write`'s HEX in lowercase hex digits, two a byte), floats in Rust's shortest round-trip form with a `.` or an exponent (`2.0`, `1e-7`),
//! so that an integer and a float value of `expect draw` stay what they were. Parsing the text
//! gives back the same tree for any tree the parser can produce (see `ast.rs`).

use std::fmt::{self, Display, Formatter, Write as _};

use super::ast::{
    Barrier, BeforeAfter, Call, CallContext, Declaration, Expectation, ExpectedLayout,
    ExpectedQuery, Flags, LegacyBarrier, Method, Placement, Rect, Remap, SlotRange, SlotSet,
    Statement, Subject, Trace, Viewport,
};
use super::name::{Format, Name};
use super::value::{DrawField, ExpectedValue, Number, ObjectRef};
use super::words::{on_off, yes_no};

type Result = fmt::Result;

/// A render-target list: `-` for none (see `Cursor::render_targets`).
fn targets(f: &mut Formatter<'_>, list: &[Option<Name>]) -> Result {
    match list.is_empty() {
        true => f.write_str("-"),
        false => joined(f, list, ','),
    }
}

impl Display for Trace {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        for (_, statement) in &self.statements {
            writeln!(f, "{statement}")?;
        }
        Ok(())
    }
}

impl Display for Statement {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Declaration(declaration) => declaration.fmt(f),
            Self::Call(call) => call.fmt(f),
            Self::Expectation(expectation) => expectation.fmt(f),
        }
    }
}

impl Display for Name {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        f.write_str(self.as_str())
    }
}

impl Display for Format {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        f.write_str(self.as_str())
    }
}

impl Display for SlotSet {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        for (i, range) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_char(',')?;
            }
            if range.first == range.last {
                write!(f, "{}", range.first)?;
            } else {
                write!(f, "{}-{}", range.first, range.last)?;
            }
        }
        Ok(())
    }
}

/// A float that reads back as the same `f32`, and as a float.
struct Float(f32);

impl Display for Float {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        // `Debug` of a finite f32 is its shortest round-trip form, always with `.` or `e`.
        write!(f, "{:?}", self.0)
    }
}

/// ` key=value` where present.
fn option<T: Display>(f: &mut Formatter<'_>, key: &str, value: &Option<T>) -> Result {
    match value {
        Some(value) => write!(f, " {key}={value}"),
        None => Ok(()),
    }
}

/// ` heap=HEAP offset=BYTES` of a placed resource (R-BAR-7), where present.
fn placement_option(f: &mut Formatter<'_>, placement: &Option<Placement>) -> Result {
    match placement {
        Some(Placement { heap, offset }) => write!(f, " heap={heap} offset={offset}"),
        None => Ok(()),
    }
}

/// ` key=yes|no` where present.
fn yes_no_option(f: &mut Formatter<'_>, key: &str, value: Option<bool>) -> Result {
    option(f, key, &value.map(yes_no))
}

/// An object or `null`.
struct Nullable<'a>(&'a Option<Name>);

impl Display for Nullable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self.0 {
            Some(name) => name.fmt(f),
            None => f.write_str("null"),
        }
    }
}

/// Objects or `null`s joined by `separator`.
fn joined(f: &mut Formatter<'_>, objects: &[Option<Name>], separator: char) -> Result {
    for (i, object) in objects.iter().enumerate() {
        if i > 0 {
            f.write_char(separator)?;
        }
        Nullable(object).fmt(f)?;
    }
    Ok(())
}

impl Display for Declaration {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Device {
                semantics,
                validation,
                legacy_barriers,
            } => {
                write!(f, "device semantics={semantics}")?;
                option(f, "validation", validation)?;
                option(f, "legacy_barriers", &legacy_barriers.map(on_off))
            }
            Self::Buffer {
                name,
                usage,
                bind,
                size,
                uav_flag,
                placement,
            } => {
                write!(f, "buffer {name} usage={usage} bind={bind} size={size}")?;
                option(f, "uav_flag", uav_flag)?;
                placement_option(f, placement)
            }
            Self::Texture {
                name,
                format,
                width,
                height,
                mips,
                array,
                samples,
                bind,
                compressible,
                tc,
                dcc,
                placement,
            } => {
                write!(
                    f,
                    "texture {name} format={format} width={width} height={height}"
                )?;
                option(f, "mips", mips)?;
                option(f, "array", array)?;
                option(f, "samples", samples)?;
                write!(f, " bind={bind}")?;
                yes_no_option(f, "compressible", *compressible)?;
                yes_no_option(f, "tc", *tc)?;
                yes_no_option(f, "dcc", *dcc)?;
                placement_option(f, placement)
            }
            Self::ShaderResourceView {
                name,
                resource,
                min_lod,
            } => {
                write!(f, "srv {name} {resource}")?;
                option(f, "min_lod", &min_lod.map(Float))
            }
            Self::UnorderedAccessView { name, resource } => write!(f, "uav {name} {resource}"),
            Self::RenderTargetView { name, resource } => write!(f, "rtv {name} {resource}"),
            Self::DepthStencilView { name, resource } => write!(f, "dsv {name} {resource}"),
            Self::Shader {
                name,
                stage,
                constant_buffers,
                shader_resources,
                samplers,
                unordered_access_views,
                stream_output,
            } => {
                write!(f, "shader {name} stage={stage}")?;
                option(f, "cb", constant_buffers)?;
                option(f, "srv", shader_resources)?;
                option(f, "sampler", samplers)?;
                option(f, "uav", unordered_access_views)?;
                yes_no_option(f, "stream_output", *stream_output)
            }
            Self::InputLayout {
                name,
                vertex_buffers,
            } => {
                write!(f, "input_layout {name}")?;
                option(f, "vb", vertex_buffers)
            }
            Self::BlendState { name } => write!(f, "blend_state {name}"),
            Self::RasterizerState { name } => write!(f, "rasterizer_state {name}"),
            Self::DepthStencilState { name } => write!(f, "depth_stencil_state {name}"),
            Self::SamplerState { name } => write!(f, "sampler_state {name}"),
            Self::Predicate { name } => write!(f, "predicate {name}"),
            Self::Query { name, kind } => write!(f, "query {name} {kind}"),
            Self::Swapchain {
                name,
                buffers,
                format,
                width,
                height,
            } => write!(
                f,
                "swapchain {name} buffers={buffers} format={format} width={width} height={height}"
            ),
            Self::Context {
                name,
                semantics,
                title_managed_lifetimes,
            } => {
                write!(f, "context {name} semantics={semantics}")?;
                match title_managed_lifetimes {
                    true => f.write_str(" title_managed_lifetimes=yes"),
                    false => Ok(()),
                }
            }
            Self::Bundle {
                name,
                render_targets,
                depth,
                samples,
            } => {
                write!(f, "bundle {name} rt=")?;
                if render_targets.is_empty() {
                    f.write_str("none")?;
                }
                for (i, format) in render_targets.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    format.fmt(f)?;
                }
                option(f, "depth", depth)?;
                option(f, "samples", samples)
            }
            Self::Heap { name, size } => write!(f, "heap {name} size={size}"),
            Self::Release { name } => write!(f, "release {name}"),
        }
    }
}

impl Display for CallContext {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Immediate => f.write_str("imm"),
            Self::Deferred(name) | Self::BundleRecorder(name) => name.fmt(f),
        }
    }
}

impl Display for Call {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "{} ", self.context)?;
        self.method.fmt(f)
    }
}

impl Display for Remap {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(
            f,
            "{} {} {} {}",
            self.stage, self.slot, self.inherit_stage, self.inherit_slot
        )
    }
}

impl Display for Viewport {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(
            f,
            "{},{},{},{}",
            Float(self.x),
            Float(self.y),
            Float(self.width),
            Float(self.height)
        )
    }
}

impl Display for Rect {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(
            f,
            "{},{},{},{}",
            self.left, self.top, self.right, self.bottom
        )
    }
}

impl Display for Method {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::SetInputLayout(layout) => write!(f, "set_input_layout {}", Nullable(layout)),
            Self::SetPrimitiveTopology(topology) => write!(f, "set_primitive_topology {topology}"),
            Self::SetVertexBuffers { start, buffers } => {
                write!(f, "set_vertex_buffers {start} ")?;
                joined(f, buffers, ' ')
            }
            Self::SetIndexBuffer {
                buffer,
                format,
                offset,
            } => {
                write!(f, "set_index_buffer {} {format}", Nullable(buffer))?;
                match offset {
                    Some(offset) => write!(f, " {offset}"),
                    None => Ok(()),
                }
            }
            Self::SetPrimitiveResetIndex(value) => write!(f, "set_primitive_reset_index {value}"),
            Self::SetShader { stage, shader } => {
                write!(f, "{stage}_set_shader {}", Nullable(shader))
            }
            Self::SetConstantBuffers {
                stage,
                start,
                buffers,
            } => {
                write!(f, "{stage}_set_constant_buffers {start} ")?;
                joined(f, buffers, ' ')
            }
            Self::SetShaderResources {
                stage,
                start,
                views,
            } => {
                write!(f, "{stage}_set_shader_resources {start} ")?;
                joined(f, views, ' ')
            }
            Self::SetSamplers {
                stage,
                start,
                samplers,
            } => {
                write!(f, "{stage}_set_samplers {start} ")?;
                joined(f, samplers, ' ')
            }
            Self::SetFastResources(entries) => {
                f.write_str("set_fast_resources")?;
                fast_entries(f, entries)
            }
            Self::SetFastResourcesIntoBatch { batch, entries } => {
                write!(f, "set_fast_resources_into_batch {batch}")?;
                fast_entries(f, entries)
            }
            Self::SetFastResourcesFromBatch { batch, .. } => {
                write!(f, "set_fast_resources_from_batch {batch}")
            }
            Self::SetFastShaderResource { stage, slot, view } => {
                write!(f, "{stage}_set_fast_shader_resource {slot} ")?;
                match view {
                    Some(view) => write!(f, "{view}"),
                    None => f.write_str("null"),
                }
            }
            Self::SetPlacementShaderResource {
                stage,
                slot,
                view,
                address,
            } => write!(
                f,
                "{stage}_set_placement_shader_resource {slot} {view} {address:#x}"
            ),
            Self::SetPlacementConstantBuffer {
                stage,
                slot,
                buffer,
                address,
            } => write!(
                f,
                "{stage}_set_placement_constant_buffer {slot} {buffer} {address:#x}"
            ),
            Self::SetPlacementVertexBuffer {
                slot,
                buffer,
                address,
            } => write!(f, "set_placement_vertex_buffer {slot} {buffer} {address:#x}"),
            Self::IaSetPlacementIndexBuffer {
                buffer,
                address,
                format,
            } => write!(
                f,
                "ia_set_placement_index_buffer {buffer} {address:#x} {format}"
            ),
            Self::CsSetUnorderedAccessViews { start, views } => {
                write!(f, "cs_set_unordered_access_views {start} ")?;
                joined(f, views, ' ')
            }
            Self::OmSetRenderTargets {
                render_targets,
                depth_stencil,
            } => {
                f.write_str("om_set_render_targets ")?;
                targets(f, render_targets)?;
                write!(f, " {}", Nullable(depth_stencil))
            }
            Self::OmSetRenderTargetsAndUavs {
                render_targets,
                depth_stencil,
                start,
                views,
            } => {
                f.write_str("om_set_render_targets_and_uavs ")?;
                targets(f, render_targets)?;
                write!(f, " {} {start} ", Nullable(depth_stencil))?;
                joined(f, views, ' ')
            }
            Self::OmSetBlendState(state) => write!(f, "om_set_blend_state {}", Nullable(state)),
            Self::OmSetDepthStencilState(state) => {
                write!(f, "om_set_depth_stencil_state {}", Nullable(state))
            }
            Self::RsSetState(state) => write!(f, "rs_set_state {}", Nullable(state)),
            Self::RsSetViewports(viewports) if viewports.is_empty() => {
                f.write_str("rs_set_viewports -")
            }
            Self::RsSetViewports(viewports) => {
                f.write_str("rs_set_viewports")?;
                viewports.iter().try_for_each(|v| write!(f, " {v}"))
            }
            Self::RsSetScissorRects(rects) if rects.is_empty() => {
                f.write_str("rs_set_scissor_rects -")
            }
            Self::RsSetScissorRects(rects) => {
                f.write_str("rs_set_scissor_rects")?;
                rects.iter().try_for_each(|r| write!(f, " {r}"))
            }
            Self::Draw {
                vertex_count,
                start_vertex,
            } => write!(f, "draw {vertex_count} {start_vertex}"),
            Self::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            } => write!(f, "draw_indexed {index_count} {start_index} {base_vertex}"),
            Self::DrawInstanced {
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
            } => write!(
                f,
                "draw_instanced {vertex_count} {instance_count} {start_vertex} {start_instance}"
            ),
            Self::DrawIndexedInstanced {
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            } => write!(
                f,
                "draw_indexed_instanced {index_count} {instance_count} {start_index} \
                 {base_vertex} {start_instance}"
            ),
            Self::DrawAuto => f.write_str("draw_auto"),
            Self::DrawInstancedIndirect { buffer, offset } => {
                write!(f, "draw_instanced_indirect {buffer} {offset}")
            }
            Self::DrawIndexedInstancedIndirect { buffer, offset } => {
                write!(f, "draw_indexed_instanced_indirect {buffer} {offset}")
            }
            Self::Dispatch { x, y, z } => write!(f, "dispatch {x} {y} {z}"),
            Self::DispatchIndirect { buffer, offset } => {
                write!(f, "dispatch_indirect {buffer} {offset}")
            }
            Self::ClearRenderTargetView { view, color } => {
                let [r, g, b, a] = color.map(Float);
                write!(f, "clear_render_target_view {view} {r} {g} {b} {a}")
            }
            Self::ClearDepthStencilView {
                view,
                depth,
                stencil,
            } => write!(
                f,
                "clear_depth_stencil_view {view} {} {stencil}",
                Float(*depth)
            ),
            Self::CopyResource {
                destination,
                source,
            } => write!(f, "copy_resource {destination} {source}"),
            Self::CopyBufferRegion {
                destination,
                destination_offset,
                source,
                source_offset,
                bytes,
            } => write!(
                f,
                "copy_buffer_region {destination} {destination_offset} {source} {source_offset} {bytes}"
            ),
            Self::CopyTextureRegion {
                destination,
                destination_subresource,
                at: [x, y],
                source,
                source_subresource,
                source_box: [l, t, r, b],
            } => write!(
                f,
                "copy_texture_region {destination} {destination_subresource} {x},{y} {source} {source_subresource} {l},{t},{r},{b}"
            ),
            Self::UpdateSubresource { resource } => write!(f, "update_subresource {resource}"),
            Self::CopyStructureCount {
                destination,
                offset,
                view,
            } => write!(f, "copy_structure_count {destination} {offset} {view}"),
            Self::Map {
                resource,
                map_type,
                allow_usage_default,
                instance: (),
                writes: (),
            } => {
                write!(f, "map {resource} {map_type}")?;
                if *allow_usage_default {
                    f.write_str(" allow_usage_default")?;
                }
                Ok(())
            }
            Self::Write {
                resource,
                offset,
                bytes,
            } => {
                write!(f, "write {resource} {offset} ")?;
                bytes.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
            }
            Self::Unmap { resource } => write!(f, "unmap {resource}"),
            Self::SetPredication { predicate, value } => write!(
                f,
                "set_predication {} {}",
                Nullable(predicate),
                yes_no(*value)
            ),
            Self::Begin { query } => write!(f, "begin {query}"),
            Self::End { query } => write!(f, "end {query}"),
            Self::WriteQuery { query } => write!(f, "write_query {query}"),
            Self::ResetQuery { query } => write!(f, "reset_query {query}"),
            Self::ConfigureQuery { query, mode } => {
                write!(f, "configure_query {query} {mode}")
            }
            Self::SetPredicationFromQuery { query, value } => write!(
                f,
                "set_predication_from_query {} {}",
                Nullable(query),
                yes_no(*value)
            ),
            Self::ClearState => f.write_str("clear_state"),
            Self::CreateDeviceContextState { state } => {
                write!(f, "create_device_context_state {state}")
            }
            Self::SwapDeviceContextState { state } => write!(f, "swap_device_context_state {state}"),
            Self::DecompressResource { resource, into } => {
                write!(f, "decompress_resource {resource}")?;
                option(f, "into", into)
            }
            Self::SetResourceCompression {
                resource,
                compression,
            } => write!(f, "set_resource_compression {resource} {compression}"),
            Self::SetResourceMinLod { resource, min_lod } => {
                write!(f, "set_resource_min_lod {resource} {}", Float(*min_lod))
            }
            Self::SetShaderResourceViewMinLod { view, min_lod } => write!(
                f,
                "set_shader_resource_view_min_lod {view} {}",
                Float(*min_lod)
            ),
            Self::InsertWaitOnPresent { swapchain } => {
                write!(f, "insert_wait_on_present {swapchain}")
            }
            Self::InsertFence {
                fence,
                engine,
                kick_off,
            } => {
                write!(f, "insert_fence {fence}")?;
                option(f, "engine", engine)?;
                match kick_off {
                    true => f.write_str(" kick_off"),
                    false => Ok(()),
                }
            }
            Self::InsertWaitOnFence { fence, engine } => {
                write!(f, "insert_wait_on_fence {fence}")?;
                option(f, "engine", engine)
            }
            Self::SetGdsRange {
                stage,
                offset,
                size,
            } => write!(f, "set_gds_range {stage} {offset} {size}"),
            Self::WriteGds { offset, values } => {
                write!(f, "write_gds {offset}")?;
                values.iter().try_for_each(|v| write!(f, " {v}"))
            }
            Self::ReadGds {
                offset,
                count,
                destination,
                destination_offset,
            } => write!(
                f,
                "read_gds {offset} {count} {destination} {destination_offset}"
            ),
            Self::LoadConstantRam {
                buffer,
                buffer_offset,
                ram_offset,
                bytes,
            } => write!(
                f,
                "load_constant_ram {buffer} {buffer_offset} {ram_offset} {bytes}"
            ),
            Self::StoreConstantRam {
                buffer,
                buffer_offset,
                ram_offset,
                bytes,
            } => write!(
                f,
                "store_constant_ram {buffer} {buffer_offset} {ram_offset} {bytes}"
            ),
            Self::DrawBundle { bundle } => write!(f, "draw_bundle {bundle}"),
            Self::RemapConstantBufferInheritance(remap) => {
                write!(f, "remap_constant_buffer_inheritance {remap}")
            }
            Self::RemapShaderResourceInheritance(remap) => {
                write!(f, "remap_shader_resource_inheritance {remap}")
            }
            Self::RemapSamplerInheritance(remap) => write!(f, "remap_sampler_inheritance {remap}"),
            Self::RemapVertexBufferInheritance { slot, inherit_slot } => write!(
                f,
                "remap_vertex_buffer_inheritance ia {slot} ia {inherit_slot}"
            ),
            Self::FinishCommandList { list, restore } => {
                write!(f, "finish {list}")?;
                yes_no_option(f, "restore", *restore)
            }
            Self::FinishBundle => f.write_str("finish"),
            Self::Execute { list, restore } => {
                write!(f, "execute {list}")?;
                yes_no_option(f, "restore", *restore)
            }
            Self::BeginCommandListExecution => f.write_str("begin_command_list_execution"),
            Self::EndCommandListExecution => f.write_str("end_command_list_execution"),
            Self::Present { swapchain } => write!(f, "present {swapchain}"),
            Self::Resume => f.write_str("resume"),
            Self::Barrier(barriers) => {
                f.write_str("barrier")?;
                for (i, barrier) in barriers.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" |")?;
                    }
                    write!(f, " {barrier}")?;
                }
                Ok(())
            }
            Self::ResourceBarrier(barrier) => write!(f, "resource_barrier {barrier}"),
        }
    }
}

impl Display for Subject {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Immediate => f.write_str("imm"),
            Self::Named(name) => name.fmt(f),
        }
    }
}

impl Display for Expectation {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Ok => f.write_str("expect ok"),
            Self::Accepted { subject } => write!(f, "expect accepted {subject}"),
            Self::Error { subject, kind } => write!(f, "expect error {subject} {kind}"),
            Self::SplitPoints {
                list,
                total,
                categories,
            } => {
                write!(f, "expect split_points {list}")?;
                option(f, "total", total)?;
                categories
                    .iter()
                    .try_for_each(|(category, n)| write!(f, " {category}={n}"))
            }
            Self::Counters(counters) => {
                f.write_str("expect counters")?;
                counters
                    .iter()
                    .try_for_each(|(key, n)| write!(f, " {key}={n}"))
            }
            Self::Draw {
                index,
                field,
                value,
            } => write!(f, "expect draw {index} {field} {value}"),
            Self::Resource {
                resource,
                layout,
                compressed,
                depth,
                stencil,
            } => {
                write!(f, "expect resource {resource}")?;
                match layout {
                    Some(ExpectedLayout::Is(layout)) => write!(f, " layout={layout}")?,
                    Some(ExpectedLayout::Mixed) => f.write_str(" layout=mixed")?,
                    None => {}
                }
                yes_no_option(f, "compressed", *compressed)?;
                option(f, "depth", depth)?;
                option(f, "stencil", stencil)
            }
            Self::Query { query, expected } => {
                write!(f, "expect query {query}")?;
                match expected {
                    ExpectedQuery::NotReady => f.write_str(" not_ready"),
                    ExpectedQuery::Data(keys) => {
                        keys.iter().try_for_each(|(key, n)| write!(f, " {key}={n}"))
                    }
                }
            }
            Self::Pending { resource, pending } => write!(
                f,
                "expect pending {resource} {}",
                if *pending { "yes" } else { "no" }
            ),
            Self::BundleFootprint { bundle, bytes } => {
                write!(f, "expect bundle_footprint {bundle} {bytes}")
            }
            Self::Gds { offset, values } => {
                write!(f, "expect gds {offset}")?;
                values.iter().try_for_each(|v| write!(f, " {v}"))
            }
            Self::ConstantRam { offset, values } => {
                write!(f, "expect constant_ram {offset}")?;
                values.iter().try_for_each(|v| write!(f, " {v}"))
            }
            Self::Memory {
                buffer,
                offset,
                values,
            } => {
                write!(f, "expect memory {buffer} {offset}")?;
                values.iter().try_for_each(|v| write!(f, " {v}"))
            }
        }
    }
}

impl Display for DrawField {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Shader(stage) => write!(f, "{stage}"),
            Self::InputLayout => f.write_str("input_layout"),
            Self::Topology => f.write_str("topology"),
            Self::ResetIndex => f.write_str("reset_index"),
            Self::IndexBuffer => f.write_str("ib"),
            Self::IndexBufferFormat => f.write_str("ib.format"),
            Self::IndexBufferOffset => f.write_str("ib.offset"),
            Self::VertexBuffer(n) => write!(f, "vb.{n}"),
            Self::ConstantBuffer(stage, n) => write!(f, "{stage}.cb.{n}"),
            Self::ShaderResource(stage, n) => write!(f, "{stage}.srv.{n}"),
            Self::ShaderResourceMinLod(stage, n) => write!(f, "{stage}.srv.{n}.min_lod"),
            Self::ShaderResourceCompressed(stage, n) => write!(f, "{stage}.srv.{n}.compressed"),
            Self::Sampler(stage, n) => write!(f, "{stage}.sampler.{n}"),
            Self::UnorderedAccessView(stage, n) => write!(f, "{stage}.uav.{n}"),
            Self::RenderTarget(n) => write!(f, "rtv.{n}"),
            Self::RenderTargetFormat(n) => write!(f, "rtv.{n}.format"),
            Self::DepthStencilView => f.write_str("dsv"),
            Self::DepthStencilFormat => f.write_str("dsv.format"),
            Self::Blend => f.write_str("blend"),
            Self::DepthStencilState => f.write_str("depth_stencil"),
            Self::Rasterizer => f.write_str("rasterizer"),
            Self::Viewport(n) => write!(f, "viewport.{n}"),
            Self::Scissor(n) => write!(f, "scissor.{n}"),
            Self::Predicated => f.write_str("predicated"),
            Self::Args => f.write_str("args"),
        }
    }
}

impl Display for Number {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Integer(n) => write!(f, "{n}"),
            Self::Float(x) => Float(*x).fmt(f),
        }
    }
}

impl Display for ObjectRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        // `NAME#K@ADDRESS`, the order the parser reads.
        self.name.fmt(f)?;
        if let Some(k) = self.instance {
            write!(f, "#{k}")?;
        }
        match self.placement {
            Some(address) => write!(f, "@{address:#x}"),
            None => Ok(()),
        }
    }
}

impl Display for ExpectedValue {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Object(object) => object.fmt(f),
            Self::Topology(topology) => topology.fmt(f),
            Self::Format(format) => format.fmt(f),
            Self::Number(number) => number.fmt(f),
            Self::Bool(value) => f.write_str(yes_no(*value)),
            Self::Numbers(numbers) => {
                for (i, number) in numbers.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    number.fmt(f)?;
                }
                Ok(())
            }
            Self::IndirectArgs { buffer, offset } => write!(f, "{buffer},{offset}"),
        }
    }
}

impl<W: Display> Display for Flags<W> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        for (i, word) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_char('+')?;
            }
            word.fmt(f)?;
        }
        Ok(())
    }
}

impl<T: Display> Display for BeforeAfter<T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "{}:{}", self.before, self.after)
    }
}

/// ` key=A-B` where present.
fn range_option(f: &mut Formatter<'_>, key: &str, range: &Option<SlotRange>) -> Result {
    match range {
        Some(range) => write!(f, " {key}={}-{}", range.first, range.last),
        None => Ok(()),
    }
}

impl Display for Barrier {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Global { sync, access } => write!(f, "global sync={sync} access={access}"),
            Self::Buffer {
                resource,
                sync,
                access,
                size,
            } => {
                write!(f, "buffer {resource} sync={sync} access={access}")?;
                option(f, "size", size)
            }
            Self::Texture {
                resource,
                sync,
                access,
                layout,
                mips,
                array,
                planes,
                discard,
            } => {
                write!(
                    f,
                    "texture {resource} sync={sync} access={access} layout={layout}"
                )?;
                range_option(f, "mips", mips)?;
                range_option(f, "array", array)?;
                range_option(f, "planes", planes)?;
                if *discard {
                    f.write_str(" discard")?;
                }
                Ok(())
            }
        }
    }
}

impl Display for LegacyBarrier {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Self::Transition {
                resource,
                before,
                after,
                subresource,
                split,
            } => {
                write!(f, "transition {resource} {before} {after}")?;
                option(f, "subresource", subresource)?;
                option(f, "split", split)
            }
            Self::Uav { resource } => write!(f, "uav {}", Nullable(resource)),
            Self::Aliasing { before, after } => {
                write!(f, "aliasing {} {}", Nullable(before), Nullable(after))
            }
        }
    }
}

/// ` ENTRY ENTRY ..` of `set_fast_resources` (R-FX-1).
fn fast_entries(f: &mut Formatter<'_>, entries: &[super::ast::FastEntry]) -> Result {
    for entry in entries {
        f.write_str(" ")?;
        if let Some(stage) = &entry.stage {
            write!(f, "{stage}.")?;
        }
        write!(f, "{}.{}=", entry.kind.word(), entry.slot)?;
        match &entry.object {
            Some(object) => write!(f, "{object}")?,
            None => f.write_str("null")?,
        }
    }
    Ok(())
}
