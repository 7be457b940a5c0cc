//! One call of a [`Program`] applied to one of the engine's recording APIs ([`Recording`]:
//! `recorder::DeferredContext`, the immediate context and `bundles::BundleRecorder`: every one
//! binds and draws; the calls of the other capabilities go to the recorder as a full
//! [`DeviceContext`], and a bundle recorder, which is none, refuses them as a bundle does, by the
//! call's capability): the trace's objects turned into handles, the arguments docs/TRACE.md
//! leaves out given their defaults. This is what each call of the call table
//! (`syntax/call_table.rs`) means to the engine: one arm per call, the one per-call match the
//! replay keeps.
//!
//! **In:** a [`Call`], the recorder, the handles the declarations made (`handles.rs`), the
//! fence values inserted so far, and the command list or bundle the call names. **Out:** what
//! happened ([`Recorded`]): done, a fence value, an accepted map (its memory given the trace's
//! `write` bytes: `writes.rs`), a refusal
//! the replay makes itself because the engine's API cannot even be called
//! (`decompress_resource` of a buffer, `execute` of a list whose finish failed), or "not a
//! call of this recorder" for the calls only the immediate context or a `finish` handle.
//!
//! **Defaults** (docs/TRACE.md gives no syntax for them): vertex buffers bind with stride 0 and
//! offset 0; blend states with factor 1,1,1,1 and every sample; depth-stencil states with
//! stencil reference 0; `clear_depth_stencil_view` clears depth and stencil;
//! `update_subresource` writes no bytes (the model keeps no contents).
//!
//! The recorders' own answers are `recording_targets.rs`'s; the barriers in the engine's types,
//! `barrier_conversion.rs`'s.
//!
//! **A device call** (R-EX-7): `place_swap_chain_view` is `Device::place_swap_chain_view`, which
//! no recorder makes; a trace writes it on `imm`, whose line orders it. [`place_swap_chain_view`]
//! makes it on a device (the real run's, `live_immediate.rs`; the reference's,
//! `reference/swap_chain_placement.rs`); a recorder answers "elsewhere", and a deferred context
//! refuses it (`recorders.rs`).

use bundles::DrawBundle;
use recorder::command::InstanceId;
use recorder::FenceFlags;
use recorder::{
    BarrierCalls, Capability, ClearFlags, ClearStateCalls, CommandList, DecompressRegion,
    EngineMemoryCalls, Error, FastResource, FastResourceBatch, FenceCalls, IndirectDispatchCalls,
    InheritedStateCalls, MapCalls, MapFlags, MapType, PredicateValue, QueryCalls, Resource,
    RestoreState, Stage, TransferCalls, VertexBuffer,
};

use super::barrier_conversion::{barrier, legacy_barrier};
use super::handles::Resolver;
use super::program::{Call, MapWrites, ObjId, ObjKind, Program};
use super::recording_targets::{in_context, Recording};
use super::writes::copy;

/// Maps a resource, left mapped for the trace's `unmap` line, and copies into its memory the
/// `write` statements after the map (`writes.rs`); the bytes mapped, if the map was accepted.
fn map_resource<C: MapCalls>(
    context: &mut C,
    resource: Resource,
    map_type: MapType,
    flags: MapFlags,
    writes: &MapWrites,
) -> Option<usize> {
    let memory = context.map(resource, map_type, flags).ok()?.keep_mapped();
    copy(memory, map_type, writes);
    Some(memory.len())
}

/// The trace's `restore` flag as the engine's [`RestoreState`].
pub(crate) fn restore_state(restore: bool) -> RestoreState {
    match restore {
        true => RestoreState::Restore,
        false => RestoreState::ClearState,
    }
}

/// The trace's `allow_usage_default` flag as the engine's [`MapFlags`].
pub(crate) fn map_flags(allow_usage_default: bool) -> MapFlags {
    match allow_usage_default {
        true => MapFlags::AllowUsageDefault,
        false => MapFlags::None,
    }
}

/// What applying a call did.
#[derive(Debug)]
pub(crate) enum Recorded {
    /// Handed to the engine (which may have refused it: ask [`Recording::accepted`]).
    Done,
    /// `insert_fence`: the value the engine handed out.
    Fence(u64),
    /// A map the engine accepted: the instance a write_discard map made (the current one for
    /// another map type), and the bytes it returned.
    Mapped {
        /// The instance current after the map.
        instance: InstanceId,
        /// The length of the memory the map returned.
        bytes: usize,
    },
    /// The engine's API cannot take the call as written; the replay refuses it.
    Refused(Error),
    /// `create_device_context_state` (R-FX-6), which reports its own result and is no
    /// recorded call: `None` when it made the object, else the refusal (which poisons nothing);
    /// or a `swap_device_context_state` refused by its own result (`Some`).
    Made(Option<Error>),
    /// Not a call of this recorder (present, resume, finish, ...).
    Elsewhere,
}

/// What a call names besides objects: the list an `execute` runs, the bundle a `draw_bundle`
/// calls (`None` when it does not exist), what that list or bundle draws (`origin.rs`), the
/// fences inserted so far.
pub(crate) struct Named<'a> {
    /// The finished list an `execute` runs; `None` when it does not exist.
    pub list: Option<&'a CommandList>,
    /// The bundle a `draw_bundle` calls; `None` when it does not exist.
    pub bundle: Option<&'a DrawBundle>,
    /// What that list or bundle draws (`origin.rs`), where the run tracks records.
    pub layout: Option<&'a super::origin::Layout>,
    /// The value the engine gave the fence a trace id names; 0 before it is inserted.
    pub fence: &'a dyn Fn(super::program::ObjId) -> u64,
}

impl Named<'_> {
    /// Nothing: for calls that name no list, bundle or fence.
    pub(crate) const NONE: Named<'static> = Named {
        list: None,
        bundle: None,
        layout: None,
        fence: &|_| 0,
    };
}

/// Applies `call` to `recorder` (see the module essay).
///
/// This function stays whole although it is long: it is a table-like match over the trace's
/// call vocabulary, one arm per call, each arm one engine call with its arguments converted.
/// The compiler checks it exhaustive, so a call added to the vocabulary cannot be forgotten;
/// split, the table would only be scattered over helpers that each repeat the match.
pub(crate) fn record<R: Recording>(
    recorder: &mut R,
    call: &Call,
    objects: &Resolver<'_>,
    named: &Named<'_>,
) -> Recorded {
    match call {
        Call::SetInputLayout(layout) => recorder.set_input_layout(objects.opt(*layout)),
        Call::SetPrimitiveTopology(topology) => recorder.set_primitive_topology(*topology),
        Call::SetVertexBuffers { start, buffers } => {
            let buffers: Vec<VertexBuffer> = buffers
                .iter()
                .map(|binding| VertexBuffer {
                    buffer: objects.opt(binding.buffer),
                    stride: binding.stride,
                    offset: binding.offset,
                })
                .collect();
            recorder.set_vertex_buffers(*start, &buffers)
        }
        Call::SetIndexBuffer {
            buffer,
            format,
            offset,
        } => recorder.set_index_buffer(objects.opt(*buffer), *format, *offset),
        Call::SetPrimitiveResetIndex(value) => in_context(
            recorder,
            "set_primitive_reset_index",
            Capability::InheritedState,
            |c| c.set_primitive_reset_index(*value),
        ),
        Call::SetShader { stage, shader } => recorder.set_shader(*stage, objects.opt(*shader)),
        Call::SetConstantBuffers {
            stage,
            start,
            buffers,
        } => recorder.set_constant_buffers(*stage, *start, &objects.all(buffers)),
        Call::SetShaderResources {
            stage,
            start,
            views,
        } => recorder.set_shader_resources(*stage, *start, &objects.all(views)),
        Call::SetSamplers {
            stage,
            start,
            samplers,
        } => recorder.set_samplers(*stage, *start, &objects.all(samplers)),
        Call::SetFastResources(entries) => {
            let entries: Vec<FastResource> =
                entries.iter().map(|e| fast_resource(e, objects)).collect();
            recorder.set_fast_resources(&entries)
        }
        Call::SetFastResourcesIntoBatch { entries, .. } => {
            // The batch the replay applies is built from the lines (`lower/methods.rs`); this
            // one is the engine's check of the line, and its refusal.
            let entries: Vec<FastResource> =
                entries.iter().map(|e| fast_resource(e, objects)).collect();
            let mut batch = FastResourceBatch::new();
            recorder.set_fast_resources_into_batch(&mut batch, &entries)
        }
        Call::SetFastResourcesFromBatch { entries, .. } => {
            let entries: Vec<FastResource> =
                entries.iter().map(|e| fast_resource(e, objects)).collect();
            recorder.set_fast_resources_from_batch(&FastResourceBatch::from(entries))
        }
        Call::SetFastShaderResource { stage, slot, view } => {
            recorder.set_fast_shader_resource(*stage, *slot, objects.opt(*view))
        }
        Call::SetPlacementShaderResource {
            stage,
            slot,
            view,
            address,
        } => recorder.set_placement_shader_resource(*stage, *slot, objects.one(*view), *address),
        Call::SetPlacementConstantBuffer {
            stage,
            slot,
            buffer,
            address,
        } => recorder.set_placement_constant_buffer(*stage, *slot, objects.one(*buffer), *address),
        Call::SetPlacementVertexBuffer {
            slot,
            buffer,
            address,
        } => recorder.set_placement_vertex_buffer(
            *slot,
            objects.one(buffer.buffer),
            buffer.stride,
            buffer.offset,
            *address,
        ),
        Call::IaSetPlacementIndexBuffer {
            buffer,
            address,
            format,
        } => recorder.set_placement_index_buffer(objects.one(*buffer), *address, *format),
        Call::CsSetUnorderedAccessViews { start, views } => in_context(
            recorder,
            "set_compute_unordered_access_views",
            Capability::InheritedState,
            |c| c.set_compute_unordered_access_views(*start, &objects.all(views)),
        ),
        Call::OmSetRenderTargets {
            render_targets,
            depth_stencil,
        } => in_context(
            recorder,
            "set_render_targets",
            Capability::InheritedState,
            |c| c.set_render_targets(&objects.all(render_targets), objects.opt(*depth_stencil)),
        ),
        Call::OmSetRenderTargetsAndUavs {
            render_targets,
            depth_stencil,
            start,
            views,
        } => in_context(
            recorder,
            "set_render_targets_and_unordered_access_views",
            Capability::InheritedState,
            |c| {
                c.set_render_targets_and_unordered_access_views(
                    &objects.all(render_targets),
                    objects.opt(*depth_stencil),
                    *start,
                    &objects.all(views),
                )
            },
        ),
        Call::OmSetBlendState(state) => in_context(
            recorder,
            "set_blend_state",
            Capability::InheritedState,
            |c| c.set_blend_state(objects.opt(*state), [1.0; 4], u32::MAX),
        ),
        Call::OmSetDepthStencilState(state) => in_context(
            recorder,
            "set_depth_stencil_state",
            Capability::InheritedState,
            |c| c.set_depth_stencil_state(objects.opt(*state), 0),
        ),
        Call::RsSetState(state) => in_context(
            recorder,
            "set_rasterizer_state",
            Capability::InheritedState,
            |c| c.set_rasterizer_state(objects.opt(*state)),
        ),
        Call::RsSetViewports(viewports) => {
            in_context(recorder, "set_viewports", Capability::InheritedState, |c| {
                c.set_viewports(viewports)
            })
        }
        Call::RsSetScissorRects(rects) => in_context(
            recorder,
            "set_scissor_rects",
            Capability::InheritedState,
            |c| c.set_scissor_rects(rects),
        ),
        Call::Draw {
            vertex_count,
            start_vertex,
        } => recorder.draw(*vertex_count, *start_vertex),
        Call::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        } => recorder.draw_indexed(*index_count, *start_index, *base_vertex),
        Call::DrawInstanced {
            vertex_count,
            instance_count,
            start_vertex,
            start_instance,
        } => recorder.draw_instanced(
            *vertex_count,
            *instance_count,
            *start_vertex,
            *start_instance,
        ),
        Call::DrawIndexedInstanced {
            index_count,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        } => recorder.draw_indexed_instanced(
            *index_count,
            *instance_count,
            *start_index,
            *base_vertex,
            *start_instance,
        ),
        Call::DrawAuto => recorder.draw_auto(),
        Call::DrawInstancedIndirect { buffer, offset } => {
            recorder.draw_instanced_indirect(objects.one(*buffer), *offset)
        }
        Call::DrawIndexedInstancedIndirect { buffer, offset } => {
            recorder.draw_indexed_instanced_indirect(objects.one(*buffer), *offset)
        }
        Call::Dispatch { x, y, z } => recorder.dispatch(*x, *y, *z),
        Call::DispatchIndirect { buffer, offset } => in_context(
            recorder,
            "dispatch_indirect",
            Capability::IndirectDispatch,
            |c| c.dispatch_indirect(objects.one(*buffer), *offset),
        ),
        Call::ClearRenderTargetView { view, color } => in_context(
            recorder,
            "clear_render_target_view",
            Capability::Transfer,
            |c| c.clear_render_target_view(objects.one(*view), *color),
        ),
        Call::ClearDepthStencilView {
            view,
            depth,
            stencil,
        } => in_context(
            recorder,
            "clear_depth_stencil_view",
            Capability::Transfer,
            |c| {
                c.clear_depth_stencil_view(
                    objects.one(*view),
                    ClearFlags::DEPTH_STENCIL,
                    *depth,
                    *stencil,
                )
            },
        ),
        Call::CopyResource {
            destination,
            source,
        } => in_context(recorder, "copy_resource", Capability::Transfer, |c| {
            c.copy_resource(objects.resource(*destination), objects.resource(*source))
        }),
        Call::CopyBufferRegion {
            destination,
            destination_offset,
            source,
            source_offset,
            bytes,
        } => in_context(recorder, "copy_buffer_region", Capability::Transfer, |c| {
            c.copy_buffer_region(
                objects.one(*destination),
                *destination_offset as u64,
                objects.one(*source),
                *source_offset as u64,
                *bytes as u64,
            )
        }),
        Call::CopyTextureRegion {
            destination,
            destination_subresource,
            at: [x, y],
            source,
            source_subresource,
            source_box: [left, top, right, bottom],
        } => {
            const CALL: &str = "copy_texture_region";
            let textures = objects
                .texture(CALL, *destination)
                .and_then(|d| Ok((d, objects.texture(CALL, *source)?)));
            match textures {
                Ok((d, s)) => {
                    in_context(recorder, "copy_texture_region", Capability::Transfer, |c| {
                        c.copy_texture_region(
                            d,
                            *destination_subresource,
                            *x,
                            *y,
                            s,
                            *source_subresource,
                            recorder::CopyBox {
                                left: *left,
                                top: *top,
                                right: *right,
                                bottom: *bottom,
                            },
                        )
                    })
                }
                Err(error) => return Recorded::Refused(error),
            }
        }
        Call::UpdateSubresource { resource } => {
            in_context(recorder, "update_subresource", Capability::Transfer, |c| {
                c.update_subresource(objects.resource(*resource), &[])
            })
        }
        Call::CopyStructureCount {
            destination,
            offset,
            view,
        } => in_context(
            recorder,
            "copy_structure_count",
            Capability::Transfer,
            |c| c.copy_structure_count(objects.one(*destination), *offset, objects.one(*view)),
        ),
        Call::Map {
            resource,
            map_type,
            allow_usage_default,
            writes,
            ..
        } => {
            let resource = objects.resource(*resource);
            let flags = map_flags(*allow_usage_default);
            let mut mapped = None;
            in_context(recorder, "map", Capability::Map, |c| {
                mapped = map_resource(c, resource, *map_type, flags, writes);
            });
            if let Some(bytes) = mapped {
                let instance = recorder.instance_of(resource.raw());
                return Recorded::Mapped { instance, bytes };
            }
        }
        Call::Unmap { resource } => {
            let resource = objects.resource(*resource);
            in_context(recorder, "unmap", Capability::Map, |c| c.unmap(resource))
        }
        Call::SetPredication { predicate, value } => in_context(
            recorder,
            "set_predication",
            Capability::InheritedState,
            |c| {
                c.set_predication(
                    objects.opt(*predicate),
                    if *value {
                        PredicateValue::True
                    } else {
                        PredicateValue::False
                    },
                )
            },
        ),
        Call::Begin { query } => in_context(recorder, "begin_query", Capability::Query, |c| {
            c.begin_query(objects.one(*query))
        }),
        Call::End { query } => in_context(recorder, "end_query", Capability::Query, |c| {
            c.end_query(objects.one(*query))
        }),
        Call::WriteQuery { query } => in_context(recorder, "write_query", Capability::Query, |c| {
            c.write_query(objects.one(*query))
        }),
        Call::ResetQuery { query } => in_context(recorder, "reset_query", Capability::Query, |c| {
            c.reset_query(objects.one(*query))
        }),
        Call::ConfigureQuery { query, mode } => {
            in_context(recorder, "configure_query", Capability::Query, |c| {
                c.configure_query(objects.one(*query), *mode)
            })
        }
        Call::SetPredicationFromQuery { query, value } => in_context(
            recorder,
            "set_predication_from_query",
            Capability::InheritedState,
            |c| {
                c.set_predication_from_query(
                    objects.opt(*query),
                    if *value {
                        PredicateValue::True
                    } else {
                        PredicateValue::False
                    },
                )
            },
        ),
        Call::ClearState => in_context(recorder, "clear_state", Capability::ClearState, |c| {
            c.clear_state()
        }),
        Call::CreateDeviceContextState { state } => {
            return Recorded::Made(match recorder.create_state() {
                Ok(made) => {
                    objects.handles.keep_state(*state, made);
                    None
                }
                Err(error) => Some(error),
            })
        }
        Call::SwapDeviceContextState { state } => {
            let swapped = objects
                .handles
                .with_state(*state, |held| recorder.swap_state(held));
            match swapped {
                None => {
                    let object = &objects.program.objects[*state];
                    return Recorded::Refused(Error::RefusedDeclaration {
                        call: "swap_device_context_state",
                        what: "device context state",
                        object: object.name.to_string(),
                        line: object.line,
                    });
                }
                // The swap reports its own result: a refusal poisons nothing (R-FX-6).
                Some(Some(refused)) => return Recorded::Made(Some(refused)),
                Some(None) => {}
            }
        }
        Call::DecompressResource { resource, options } => {
            const CALL: &str = "decompress_resource";
            let textures = objects.texture(CALL, *resource).and_then(|texture| {
                let into = options
                    .into
                    .map(|into| objects.texture(CALL, into))
                    .transpose()?;
                Ok((texture, into))
            });
            let (kinds, region) = (options.kinds, options.region.map(decompress_region));
            match textures {
                Ok((texture, into)) => {
                    in_context(recorder, "decompress_resource", Capability::Barrier, |c| {
                        c.decompress_resource_x(texture, into, kinds, region)
                    })
                }
                Err(error) => return Recorded::Refused(error),
            }
        }
        Call::SetResourceCompression {
            resource,
            compression,
        } => match objects.texture("set_resource_compression", *resource) {
            Ok(texture) => in_context(
                recorder,
                "set_resource_compression",
                Capability::Barrier,
                |c| c.set_resource_compression(texture, *compression),
            ),
            Err(error) => return Recorded::Refused(error),
        },
        Call::SetResourceMinLod { resource, min_lod } => {
            match objects.texture("set_resource_min_lod", *resource) {
                Ok(texture) => recorder.set_resource_min_lod(texture, *min_lod),
                Err(error) => return Recorded::Refused(error),
            }
        }
        Call::SetShaderResourceViewMinLod { view, min_lod } => {
            recorder.set_shader_resource_view_min_lod(objects.one(*view), *min_lod)
        }
        Call::InsertWaitOnPresent { swapchain: chain } => {
            in_context(recorder, "insert_wait_on_present", Capability::Fence, |c| {
                c.insert_wait_on_present(objects.one(*chain))
            })
        }
        Call::InsertFence {
            engine, kick_off, ..
        } => {
            let flags = match kick_off {
                true => FenceFlags::KickOff,
                false => FenceFlags::NoKickOff,
            };
            if let Some(value) = recorder.fence(*engine, flags) {
                return Recorded::Fence(value);
            }
        }
        Call::InsertWaitOnFence { fence, engine } => {
            in_context(recorder, "insert_wait_on_fence", Capability::Fence, |c| {
                c.insert_wait_on_fence(*engine, (named.fence)(*fence))
            })
        }
        Call::SetGdsRange {
            stage,
            offset,
            size,
        } => in_context(recorder, "set_gds_range", Capability::EngineMemory, |c| {
            c.set_gds_range(*stage, *offset, *size)
        }),
        Call::WriteGds { offset, values } => {
            in_context(recorder, "write_gds", Capability::EngineMemory, |c| {
                c.write_gds(*offset, values)
            })
        }
        Call::ReadGds {
            offset,
            count,
            destination,
            destination_offset,
        } => in_context(recorder, "read_gds", Capability::EngineMemory, |c| {
            c.read_gds(
                *offset,
                *count,
                objects.one(*destination),
                *destination_offset as u64,
            )
        }),
        Call::LoadConstantRam {
            buffer,
            buffer_offset,
            ram_offset,
            bytes,
        } => in_context(
            recorder,
            "load_constant_ram",
            Capability::EngineMemory,
            |c| {
                c.load_constant_ram(
                    objects.one(*buffer),
                    *buffer_offset as u64,
                    *ram_offset,
                    *bytes,
                )
            },
        ),
        Call::StoreConstantRam {
            buffer,
            buffer_offset,
            ram_offset,
            bytes,
        } => in_context(
            recorder,
            "store_constant_ram",
            Capability::EngineMemory,
            |c| {
                c.store_constant_ram(
                    objects.one(*buffer),
                    *buffer_offset as u64,
                    *ram_offset,
                    *bytes,
                )
            },
        ),
        Call::Execute { list, restore } => match named.list {
            Some(made) => recorder.execute(made, restore_state(*restore)),
            None => return Recorded::Refused(missing(objects.program, *list)),
        },
        Call::DrawBundle { bundle } => match named.bundle {
            Some(made) => recorder.call_bundle(made),
            None => return Recorded::Refused(missing(objects.program, *bundle)),
        },
        Call::Barrier(barriers) => in_context(recorder, "barrier", Capability::Barrier, |c| {
            barrier(c, barriers, objects)
        }),
        Call::ResourceBarrier(barrier) => {
            in_context(recorder, "resource_barrier", Capability::Barrier, |c| {
                c.resource_barrier(&[legacy_barrier(barrier, objects)])
            })
        }
        Call::RemapConstantBufferInheritance(_)
        | Call::RemapShaderResourceInheritance(_)
        | Call::RemapSamplerInheritance(_)
        | Call::RemapVertexBufferInheritance { .. } => {
            if !call.remap().is_some_and(|remap| recorder.remap(remap)) {
                return Recorded::Elsewhere;
            }
        }
        // The context's open maps answer a `write` (`writes.rs`), not the recorder.
        Call::FinishCommandList { .. }
        | Call::FinishBundle
        | Call::BeginCommandListExecution
        | Call::EndCommandListExecution
        | Call::Present { .. }
        | Call::PlaceSwapChainView { .. }
        | Call::Resume
        | Call::Write { .. } => return Recorded::Elsewhere,
    }
    Recorded::Done
}

/// `place_swap_chain_view VIEW INDEX` (R-EX-7): a device call, which the immediate context's
/// line orders (the replay's `imm` and the reference's devices make it here).
pub(crate) fn place_swap_chain_view(
    device: &recorder::Device,
    objects: &Resolver<'_>,
    view: ObjId,
    index: u32,
) -> Result<(), Error> {
    use recorder::{DepthStencilView, RenderTargetView, ShaderResourceView, UnorderedAccessView};
    match objects.program.objects[view].kind {
        ObjKind::ShaderResourceView => {
            device.place_swap_chain_view(objects.one::<ShaderResourceView>(view), index)
        }
        ObjKind::UnorderedAccessView => {
            device.place_swap_chain_view(objects.one::<UnorderedAccessView>(view), index)
        }
        ObjKind::RenderTargetView => {
            device.place_swap_chain_view(objects.one::<RenderTargetView>(view), index)
        }
        // The syntax admits views only (`Want::View`).
        _ => device.place_swap_chain_view(objects.one::<DepthStencilView>(view), index),
    }
}

/// The refusal of a call naming a command list or bundle that does not exist.
pub(crate) fn missing(program: &Program, id: ObjId) -> Error {
    let object = &program.objects[id];
    let what = match object.kind {
        ObjKind::CommandList => "command list",
        _ => "bundle",
    };
    Error::RefusedDeclaration {
        call: "replay",
        what,
        object: object.name.to_string(),
        line: object.line,
    }
}

/// A lowered `set_fast_resources` ENTRY as the engine's (R-FX-1).
fn fast_resource(
    entry: &crate::syntax::ast::FastEntry<super::program::Lowered>,
    objects: &Resolver<'_>,
) -> FastResource {
    use crate::syntax::ast::FastKind;
    let stage = entry.stage.unwrap_or(Stage::Vertex);
    let slot = entry.slot;
    match entry.kind {
        FastKind::ConstantBuffer => FastResource::ConstantBuffer {
            stage,
            slot,
            buffer: objects.opt(entry.object),
        },
        FastKind::ShaderResource => FastResource::ShaderResource {
            stage,
            slot,
            view: objects.opt(entry.object),
        },
        FastKind::Sampler => FastResource::Sampler {
            stage,
            slot,
            sampler: objects.opt(entry.object),
        },
        FastKind::VertexBuffer => FastResource::VertexBuffer {
            slot,
            buffer: VertexBuffer {
                buffer: objects.opt(entry.object),
                stride: entry.vertex[0],
                offset: entry.vertex[1],
            },
        },
    }
}

/// A `region=SUB:L,T,R,B` of `decompress_resource` in the engine's terms (R-ST-9).
fn decompress_region(
    (subresource, [left, top, right, bottom]): (u32, [u32; 4]),
) -> DecompressRegion {
    DecompressRegion {
        subresource,
        rect: recorder::CopyBox {
            left,
            top,
            right,
            bottom,
        },
    }
}
