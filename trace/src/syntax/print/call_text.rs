//! Calls as text: `Display` for [`Call`], its [`CallContext`] and [`Method`], and the arguments
//! only calls take (viewports, rectangles, remaps, fast-resource entries, render-target lists).
//!
//! **In:** a [`Call`] as written. **Out:** `CTX METHOD ARGS`, the method's name as docs/TRACE.md
//! spells it and its arguments in the order the parser reads them.
//!
//! **Invariant.** Every method of the vocabulary prints to a line that parses back to the same
//! method: [`Method`]'s `fmt` is one arm per method (the barriers' arguments are
//! `barrier_text.rs`).

use std::fmt::{Display, Formatter};

use super::{joined, option, yes_no_option, Float, Nullable, Result};
use crate::syntax::ast::{Call, CallContext, FastEntry, Method, Rect, Remap, Viewport};
use crate::syntax::name::Name;
use crate::syntax::words::yes_no;

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
    // Over 150 lines, and stays whole: a table, one arm per method of the call vocabulary
    // (`ast/method.rs`), each as short as its method's text. The compiler checks the match is
    // exhaustive, so a method added to the vocabulary cannot go unprinted; splitting it would
    // only cut the table in arbitrary places. The next step generates these arms, with the
    // parser's (`call.rs`) and the capture's, from one call table.
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

/// A render-target list: `-` for none (see `Cursor::render_targets`).
fn targets(f: &mut Formatter<'_>, list: &[Option<Name>]) -> Result {
    match list.is_empty() {
        true => f.write_str("-"),
        false => joined(f, list, ','),
    }
}

/// ` ENTRY ENTRY ..` of `set_fast_resources` (R-FX-1).
fn fast_entries(f: &mut Formatter<'_>, entries: &[FastEntry]) -> Result {
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
