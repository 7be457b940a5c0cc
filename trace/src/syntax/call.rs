//! Calls: `CTX METHOD ARGS`, every method of docs/TRACE.md's "Calls" block.
//!
//! **In:** a line whose first token named a context (the caller has read it). **Out:** a
//! [`Call`]: the method and its typed arguments, each object argument checked to be declared
//! and of the kind the grammar names (a RESOURCE is any buffer or texture, a SHADER any shader:
//! binding a pixel shader to the vertex stage is the engine's `invalid_argument`, not a parse
//! error).
//!
//! Three methods change the symbol table. `finish LIST` on a deferred context declares the command
//! list LIST; `finish` on a bundle recorder makes the bundle of the recorder's name, which
//! `draw_bundle` and `expect bundle_footprint` need; `finish LIST` on `imm` declares LIST as well,
//! and the replay refuses the call (`invalid_argument`: the immediate context records no list;
//! docs/TRACE.md), so LIST is a list whose finish failed. The first `insert_fence F` or
//! `insert_wait_on_fence F` declares the fence F (a list may wait on a fence that a list recorded
//! later in the trace signals, so neither has to come first); F must not name another object.

use super::ast::{Call, CallContext, FastEntry, FastKind, Method, Rect, Remap, Viewport};
use super::cursor::{Cursor, Result};
use super::lex::quote;
use super::parse::Parser;
use super::symbols::{ObjKind, Symbols, Want};
use super::words::{
    parse_yes_no, Compression, Engine, MapType, PrimitiveTopology, QueryMode, Stage,
};

impl Parser {
    pub(crate) fn call(&mut self, mut cursor: Cursor<'_>, context: CallContext) -> Result<Call> {
        let context_name = match &context {
            CallContext::Immediate => "imm",
            CallContext::Deferred(name) | CallContext::BundleRecorder(name) => name.as_str(),
        };
        let method_token = cursor.next("a method")?;
        cursor.set_label(method_token);
        let method = match self.stage_method(&mut cursor, method_token)? {
            Some(method) => method,
            None => match self.method(&mut cursor, method_token, &context)? {
                Some(method) => method,
                None => {
                    return Err(super::ParseError::new(
                        cursor.line(),
                        format!(
                            "unknown method {} on {}",
                            quote(method_token),
                            quote(context_name)
                        ),
                    ))
                }
            },
        };
        cursor.end()?;
        Ok(Call { context, method })
    }

    /// `STAGE_set_shader`, `STAGE_set_constant_buffers`, `STAGE_set_shader_resources`,
    /// `STAGE_set_samplers`, `cs_set_unordered_access_views`.
    fn stage_method(&mut self, cursor: &mut Cursor<'_>, token: &str) -> Result<Option<Method>> {
        let Some((stage, rest)) = token.split_once('_') else {
            return Ok(None);
        };
        let Some(stage) = Stage::from_name(stage) else {
            return Ok(None);
        };
        let symbols = &self.symbols;
        Ok(Some(match rest {
            "set_shader" => Method::SetShader {
                stage,
                shader: cursor.object_or_null(symbols, Want::Shader)?,
            },
            "set_constant_buffers" => Method::SetConstantBuffers {
                stage,
                start: cursor.unsigned("START")?,
                buffers: cursor.objects_to_end(symbols, Want::Buffer)?,
            },
            "set_shader_resources" => Method::SetShaderResources {
                stage,
                start: cursor.unsigned("START")?,
                views: cursor.objects_to_end(symbols, Want::ShaderResourceView)?,
            },
            "set_samplers" => Method::SetSamplers {
                stage,
                start: cursor.unsigned("START")?,
                samplers: cursor.objects_to_end(symbols, Want::SamplerState)?,
            },
            "set_fast_shader_resource" => Method::SetFastShaderResource {
                stage,
                slot: cursor.unsigned("SLOT")?,
                view: cursor.object_or_null(symbols, Want::ShaderResourceView)?,
            },
            "set_placement_shader_resource" => Method::SetPlacementShaderResource {
                stage,
                slot: cursor.unsigned("SLOT")?,
                view: cursor.object(symbols, Want::ShaderResourceView)?,
                address: cursor.unsigned("ADDRESS")?,
            },
            "set_placement_constant_buffer" => Method::SetPlacementConstantBuffer {
                stage,
                slot: cursor.unsigned("SLOT")?,
                buffer: cursor.object(symbols, Want::Buffer)?,
                address: cursor.unsigned("ADDRESS")?,
            },
            "set_unordered_access_views" if stage == Stage::Compute => {
                Method::CsSetUnorderedAccessViews {
                    start: cursor.unsigned("START")?,
                    views: cursor.objects_to_end(symbols, Want::UnorderedAccessView)?,
                }
            }
            _ => return Ok(None),
        }))
    }

    /// Every other method; `None` for an unknown one.
    fn method(
        &mut self,
        cursor: &mut Cursor<'_>,
        token: &str,
        context: &CallContext,
    ) -> Result<Option<Method>> {
        // Over 150 lines, and stays whole: a table, one arm per method of the call vocabulary
        // (`ast/method.rs`; the STAGE_ methods are `stage_method`'s), each reading its arguments
        // in the order docs/TRACE.md writes them; an arm with more to do than reading (the
        // fences, `finish`) calls a function of its own. The match is on the method's word, so
        // the compiler checks each arm's `Method` but not that every method has an arm: the
        // parser tests do (`tests/trace_parse.rs`, every method of TRACE.md and the printer's
        // round trip). The next step generates these arms, with the printer's and the
        // capture's, from one call table.
        let symbols = &self.symbols;
        Ok(Some(match token {
            "set_input_layout" => {
                Method::SetInputLayout(cursor.object_or_null(symbols, Want::InputLayout)?)
            }
            "set_primitive_topology" => Method::SetPrimitiveTopology(cursor.word(
                "a topology",
                PrimitiveTopology::from_name,
                PrimitiveTopology::choices(),
            )?),
            "set_vertex_buffers" => Method::SetVertexBuffers {
                start: cursor.unsigned("START")?,
                buffers: cursor.objects_to_end(symbols, Want::Buffer)?,
            },
            "set_fast_resources" => {
                let mut entries = vec![fast_entry(cursor, symbols)?];
                while cursor.peek().is_some() {
                    entries.push(fast_entry(cursor, symbols)?);
                }
                Method::SetFastResources(entries)
            }
            "set_fast_resources_into_batch" => {
                let batch = cursor.new_name("BATCH")?;
                let mut entries = vec![fast_entry(cursor, symbols)?];
                while cursor.peek().is_some() {
                    entries.push(fast_entry(cursor, symbols)?);
                }
                self.batches.insert(batch.as_str().to_owned());
                Method::SetFastResourcesIntoBatch { batch, entries }
            }
            "set_fast_resources_from_batch" => {
                let batch = cursor.new_name("BATCH")?;
                if !self.batches.contains(batch.as_str()) {
                    return Err(cursor.error(format!(
                        "{} names no batch (no 'set_fast_resources_into_batch {}' before this line)",
                        quote(batch.as_str()),
                        batch.as_str()
                    )));
                }
                Method::SetFastResourcesFromBatch {
                    batch,
                    entries: Vec::new(),
                }
            }
            "set_placement_vertex_buffer" => Method::SetPlacementVertexBuffer {
                slot: cursor.unsigned("SLOT")?,
                buffer: cursor.object(symbols, Want::Buffer)?,
                address: cursor.unsigned("ADDRESS")?,
            },
            "ia_set_placement_index_buffer" => Method::IaSetPlacementIndexBuffer {
                buffer: cursor.object(symbols, Want::Buffer)?,
                address: cursor.unsigned("ADDRESS")?,
                format: {
                    let token = cursor.next("FORMAT")?;
                    cursor.format_token(token, "FORMAT")?
                },
            },
            "set_index_buffer" => Method::SetIndexBuffer {
                buffer: cursor.object_or_null(symbols, Want::Buffer)?,
                format: {
                    let token = cursor.next("FORMAT")?;
                    cursor.format_token(token, "FORMAT")?
                },
                offset: match cursor.peek() {
                    Some(_) => Some(cursor.unsigned("OFFSET")?),
                    None => None,
                },
            },
            "set_primitive_reset_index" => {
                Method::SetPrimitiveResetIndex(cursor.unsigned("VALUE")?)
            }
            "om_set_render_targets" => Method::OmSetRenderTargets {
                render_targets: cursor.render_targets(symbols)?,
                depth_stencil: cursor.object_or_null(symbols, Want::DepthStencilView)?,
            },
            "om_set_render_targets_and_uavs" => Method::OmSetRenderTargetsAndUavs {
                render_targets: cursor.render_targets(symbols)?,
                depth_stencil: cursor.object_or_null(symbols, Want::DepthStencilView)?,
                start: cursor.unsigned("START")?,
                views: cursor.objects_to_end(symbols, Want::UnorderedAccessView)?,
            },
            "om_set_blend_state" => {
                Method::OmSetBlendState(cursor.object_or_null(symbols, Want::BlendState)?)
            }
            "om_set_depth_stencil_state" => Method::OmSetDepthStencilState(
                cursor.object_or_null(symbols, Want::DepthStencilState)?,
            ),
            "rs_set_state" => {
                Method::RsSetState(cursor.object_or_null(symbols, Want::RasterizerState)?)
            }
            "rs_set_viewports" => {
                let mut viewports = Vec::new();
                for [x, y, width, height] in quads(cursor, "X,Y,W,H", Cursor::float_token)? {
                    viewports.push(Viewport {
                        x,
                        y,
                        width,
                        height,
                    });
                }
                Method::RsSetViewports(viewports)
            }
            "rs_set_scissor_rects" => {
                let mut rects = Vec::new();
                for [left, top, right, bottom] in quads(cursor, "L,T,R,B", Cursor::signed_token)? {
                    rects.push(Rect {
                        left,
                        top,
                        right,
                        bottom,
                    });
                }
                Method::RsSetScissorRects(rects)
            }
            "draw" => Method::Draw {
                vertex_count: cursor.unsigned("VERTEX_COUNT")?,
                start_vertex: cursor.unsigned("START_VERTEX")?,
            },
            "draw_indexed" => Method::DrawIndexed {
                index_count: cursor.unsigned("INDEX_COUNT")?,
                start_index: cursor.unsigned("START_INDEX")?,
                base_vertex: cursor.signed("BASE_VERTEX")?,
            },
            "draw_instanced" => Method::DrawInstanced {
                vertex_count: cursor.unsigned("VERTEX_COUNT")?,
                instance_count: cursor.unsigned("INSTANCE_COUNT")?,
                start_vertex: cursor.unsigned("START_VERTEX")?,
                start_instance: cursor.unsigned("START_INSTANCE")?,
            },
            "draw_indexed_instanced" => Method::DrawIndexedInstanced {
                index_count: cursor.unsigned("INDEX_COUNT")?,
                instance_count: cursor.unsigned("INSTANCE_COUNT")?,
                start_index: cursor.unsigned("START_INDEX")?,
                base_vertex: cursor.signed("BASE_VERTEX")?,
                start_instance: cursor.unsigned("START_INSTANCE")?,
            },
            "draw_auto" => Method::DrawAuto,
            "draw_instanced_indirect" => Method::DrawInstancedIndirect {
                buffer: cursor.object(symbols, Want::Buffer)?,
                offset: cursor.unsigned("OFFSET")?,
            },
            "draw_indexed_instanced_indirect" => Method::DrawIndexedInstancedIndirect {
                buffer: cursor.object(symbols, Want::Buffer)?,
                offset: cursor.unsigned("OFFSET")?,
            },
            "dispatch" => Method::Dispatch {
                x: cursor.unsigned("X")?,
                y: cursor.unsigned("Y")?,
                z: cursor.unsigned("Z")?,
            },
            "dispatch_indirect" => Method::DispatchIndirect {
                buffer: cursor.object(symbols, Want::Buffer)?,
                offset: cursor.unsigned("OFFSET")?,
            },
            "clear_render_target_view" => Method::ClearRenderTargetView {
                view: cursor.object(symbols, Want::RenderTargetView)?,
                color: [
                    cursor.float("R")?,
                    cursor.float("G")?,
                    cursor.float("B")?,
                    cursor.float("A")?,
                ],
            },
            "clear_depth_stencil_view" => Method::ClearDepthStencilView {
                view: cursor.object(symbols, Want::DepthStencilView)?,
                depth: cursor.float("DEPTH")?,
                stencil: cursor.unsigned("STENCIL")?,
            },
            "copy_resource" => Method::CopyResource {
                destination: cursor.object(symbols, Want::Resource)?,
                source: cursor.object(symbols, Want::Resource)?,
            },
            "copy_buffer_region" => Method::CopyBufferRegion {
                destination: cursor.object(symbols, Want::Buffer)?,
                destination_offset: cursor.unsigned("DST_OFFSET")?,
                source: cursor.object(symbols, Want::Buffer)?,
                source_offset: cursor.unsigned("SRC_OFFSET")?,
                bytes: cursor.unsigned("BYTES")?,
            },
            "copy_texture_region" => {
                let destination = cursor.object(symbols, Want::Resource)?;
                let destination_subresource = cursor.unsigned("DST_SUBRESOURCE")?;
                let at = numbers::<2>(cursor, "X,Y")?;
                let source = cursor.object(symbols, Want::Resource)?;
                let source_subresource = cursor.unsigned("SRC_SUBRESOURCE")?;
                let source_box = numbers::<4>(cursor, "L,T,R,B")?;
                Method::CopyTextureRegion {
                    destination,
                    destination_subresource,
                    at,
                    source,
                    source_subresource,
                    source_box,
                }
            }
            "update_subresource" => Method::UpdateSubresource {
                resource: cursor.object(symbols, Want::Resource)?,
            },
            "copy_structure_count" => Method::CopyStructureCount {
                destination: cursor.object(symbols, Want::Buffer)?,
                offset: cursor.unsigned("OFFSET")?,
                view: cursor.object(symbols, Want::UnorderedAccessView)?,
            },
            "map" => Method::Map {
                resource: cursor.object(symbols, Want::Resource)?,
                map_type: cursor.word("a map type", MapType::from_name, MapType::choices())?,
                allow_usage_default: match cursor.peek() {
                    Some("allow_usage_default") => {
                        cursor.next("allow_usage_default")?;
                        true
                    }
                    Some(other) => {
                        return Err(cursor.error(format_args!(
                            "expected allow_usage_default or end of line, found {}",
                            quote(other)
                        )))
                    }
                    None => false,
                },
                instance: (),
                writes: (),
            },
            "write" => {
                let resource = cursor.object(symbols, Want::Resource)?;
                let offset = cursor.unsigned("OFFSET")?;
                let hex = cursor.next("HEX")?;
                let bytes = super::lex::hex_bytes(hex)
                    .map_err(|rule| cursor.error(format_args!("{rule}, found {}", quote(hex))))?;
                Method::Write {
                    resource,
                    offset,
                    bytes,
                }
            }
            "unmap" => Method::Unmap {
                resource: cursor.object(symbols, Want::Resource)?,
            },
            "set_predication" => Method::SetPredication {
                predicate: cursor.object_or_null(symbols, Want::Predicate)?,
                value: cursor.word("the predicate value", parse_yes_no, "yes|no".into())?,
            },
            "begin" => Method::Begin {
                query: cursor.object(symbols, Want::Predicate)?,
            },
            "end" => Method::End {
                query: cursor.object(symbols, Want::Predicate)?,
            },
            "write_query" => Method::WriteQuery {
                query: cursor.object(symbols, Want::Predicate)?,
            },
            "reset_query" => Method::ResetQuery {
                query: cursor.object(symbols, Want::Predicate)?,
            },
            "configure_query" => Method::ConfigureQuery {
                query: cursor.object(symbols, Want::Predicate)?,
                mode: cursor.word("the query mode", QueryMode::from_name, QueryMode::choices())?,
            },
            "set_predication_from_query" => Method::SetPredicationFromQuery {
                query: cursor.object_or_null(symbols, Want::Predicate)?,
                value: cursor.word("the predicate value", parse_yes_no, "yes|no".into())?,
            },
            "clear_state" => Method::ClearState,
            "create_device_context_state" => {
                let state = cursor.new_name("a name for the device context state")?;
                self.symbols
                    .declare(state.as_str(), ObjKind::ContextState, cursor.line())
                    .map_err(|message| cursor.error(message))?;
                Method::CreateDeviceContextState { state }
            }
            "swap_device_context_state" => Method::SwapDeviceContextState {
                state: cursor.object(symbols, Want::ContextState)?,
            },
            "decompress_resource" => {
                let resource = cursor.object(symbols, Want::Resource)?;
                let options = cursor.options(&["into"])?;
                let into = match options.get("into") {
                    Some(into) => cursor.object_token(symbols, into, Want::Resource, false)?,
                    None => None,
                };
                Method::DecompressResource { resource, into }
            }
            "set_resource_compression" => Method::SetResourceCompression {
                resource: cursor.object(symbols, Want::Resource)?,
                compression: cursor.word(
                    "a compression",
                    Compression::from_name,
                    Compression::choices(),
                )?,
            },
            "set_resource_min_lod" => Method::SetResourceMinLod {
                resource: cursor.object(symbols, Want::Resource)?,
                min_lod: cursor.float("F")?,
            },
            "set_shader_resource_view_min_lod" => Method::SetShaderResourceViewMinLod {
                view: cursor.object(symbols, Want::ShaderResourceView)?,
                min_lod: cursor.float("F")?,
            },
            "insert_wait_on_present" => Method::InsertWaitOnPresent {
                swapchain: cursor.object(symbols, Want::Swapchain)?,
            },
            "insert_fence" | "insert_wait_on_fence" => self.fence(cursor, token)?,
            "set_gds_range" => Method::SetGdsRange {
                stage: cursor.word("a stage", Stage::from_name, Stage::choices())?,
                offset: cursor.unsigned("OFFSET")?,
                size: cursor.unsigned("SIZE")?,
            },
            "write_gds" => {
                let offset = cursor.unsigned("OFFSET")?;
                let mut values = vec![cursor.unsigned("V")?];
                while cursor.peek().is_some() {
                    values.push(cursor.unsigned("V")?);
                }
                Method::WriteGds { offset, values }
            }
            "read_gds" => Method::ReadGds {
                offset: cursor.unsigned("OFFSET")?,
                count: cursor.unsigned("COUNT")?,
                destination: cursor.object(symbols, Want::Buffer)?,
                destination_offset: cursor.unsigned("BUF_OFFSET")?,
            },
            "load_constant_ram" | "store_constant_ram" => {
                let buffer = cursor.object(symbols, Want::Buffer)?;
                let buffer_offset = cursor.unsigned("BUF_OFFSET")?;
                let ram_offset = cursor.unsigned("RAM_OFFSET")?;
                let bytes = cursor.unsigned("BYTES")?;
                match token {
                    "load_constant_ram" => Method::LoadConstantRam {
                        buffer,
                        buffer_offset,
                        ram_offset,
                        bytes,
                    },
                    _ => Method::StoreConstantRam {
                        buffer,
                        buffer_offset,
                        ram_offset,
                        bytes,
                    },
                }
            }
            "draw_bundle" => Method::DrawBundle {
                bundle: cursor.object(symbols, Want::Bundle)?,
            },
            "remap_constant_buffer_inheritance" => {
                Method::RemapConstantBufferInheritance(remap(cursor)?)
            }
            "remap_shader_resource_inheritance" => {
                Method::RemapShaderResourceInheritance(remap(cursor)?)
            }
            "remap_sampler_inheritance" => Method::RemapSamplerInheritance(remap(cursor)?),
            "remap_vertex_buffer_inheritance" => {
                ia(cursor)?;
                let slot = cursor.unsigned("SLOT")?;
                ia(cursor)?;
                let inherit_slot = cursor.unsigned("INHERIT_SLOT")?;
                Method::RemapVertexBufferInheritance { slot, inherit_slot }
            }
            "finish" => self.finish(cursor, context)?,
            "execute" => {
                let list = cursor.object(symbols, Want::CommandList)?;
                let options = cursor.options(&["restore"])?;
                let restore = options
                    .get("restore")
                    .map(|v| cursor.yes_no_token(v, "restore="))
                    .transpose()?;
                Method::Execute { list, restore }
            }
            "begin_command_list_execution" => Method::BeginCommandListExecution,
            "end_command_list_execution" => Method::EndCommandListExecution,
            "present" => Method::Present {
                swapchain: cursor.object(symbols, Want::Swapchain)?,
            },
            "resume" => Method::Resume,
            "barrier" => Method::Barrier(super::barrier::barriers(cursor, symbols)?),
            "resource_barrier" => Method::ResourceBarrier(super::barrier::legacy(cursor, symbols)?),
            _ => return Ok(None),
        }))
    }

    /// `insert_fence` or `insert_wait_on_fence` (`token`): the first of either declares the
    /// fence.
    fn fence(&mut self, cursor: &mut Cursor<'_>, token: &str) -> Result<Method> {
        let fence = cursor.new_name("FENCE_NAME")?;
        // `kick_off`, a word after the options (R-FX-6): `insert_fence` only.
        let kick_off = token == "insert_fence" && cursor.last_word("kick_off");
        let options = cursor.options(&["engine"])?;
        let engine = options
            .get("engine")
            .map(|v| cursor.word_token(v, "engine=", Engine::from_name, Engine::choices()))
            .transpose()?;
        match self.symbols.lookup(fence.as_str()) {
            Some(entry) if entry.kind == ObjKind::Fence => {}
            Some(entry) => {
                return Err(cursor.error(format_args!(
                    "expected a fence name, found {} {}",
                    entry.describe(),
                    quote(fence.as_str())
                )))
            }
            None => self
                .symbols
                .declare(fence.as_str(), ObjKind::Fence, cursor.line())
                .map_err(|message| cursor.error(message))?,
        }
        Ok(if token == "insert_fence" {
            Method::InsertFence {
                fence,
                engine,
                kick_off,
            }
        } else {
            Method::InsertWaitOnFence { fence, engine }
        })
    }

    /// `finish`: on a bundle recorder, the bundle; on a deferred context (or `imm`), `finish LIST`
    /// declares the command list.
    fn finish(&mut self, cursor: &mut Cursor<'_>, context: &CallContext) -> Result<Method> {
        Ok(match context {
            CallContext::BundleRecorder(name) => {
                if let Some(token) = cursor.peek() {
                    return Err(cursor.error(format_args!(
                        "a bundle recorder's finish takes no arguments (the bundle is named \
                         '{}'), found {}",
                        name.as_str(),
                        quote(token)
                    )));
                }
                self.symbols.finish_bundle(name.as_str());
                Method::FinishBundle
            }
            // On `imm` it parses alike, declaring LIST, and the replay refuses it.
            CallContext::Deferred(_) | CallContext::Immediate => {
                let list = cursor.new_name("a name for the command list")?;
                let options = cursor.options(&["restore"])?;
                let restore = options
                    .get("restore")
                    .map(|v| cursor.yes_no_token(v, "restore="))
                    .transpose()?;
                self.symbols
                    .declare(list.as_str(), ObjKind::CommandList, cursor.line())
                    .map_err(|message| cursor.error(message))?;
                Method::FinishCommandList { list, restore }
            }
        })
    }
}

/// The rest of the line as groups of four comma-separated numbers, at least one group.
fn quads<'a, T>(
    cursor: &mut Cursor<'a>,
    what: &str,
    number: fn(&Cursor<'a>, &str, &str) -> Result<T>,
) -> Result<Vec<[T; 4]>> {
    let mut quads = Vec::new();
    // `-`: none at all (zero viewports or rectangles bound).
    if cursor.peek() == Some("-") {
        let _ = cursor.next("-");
        return Ok(quads);
    }
    loop {
        let group = cursor.next(what)?;
        let items: Vec<&str> = cursor.list_items(group)?.collect();
        let [a, b, c, d] = items[..] else {
            return Err(cursor.error(format_args!(
                "expected {what} (four numbers), found {}",
                quote(group)
            )));
        };
        quads.push([
            number(cursor, a, what)?,
            number(cursor, b, what)?,
            number(cursor, c, what)?,
            number(cursor, d, what)?,
        ]);
        if cursor.peek().is_none() {
            return Ok(quads);
        }
    }
}

/// `N` unsigned numbers in one comma-separated token (`X,Y`, `L,T,R,B` of
/// `copy_texture_region`).
fn numbers<const N: usize>(cursor: &mut Cursor<'_>, what: &str) -> Result<[u64; N]> {
    let group = cursor.next(what)?;
    let items: Vec<&str> = cursor.list_items(group)?.collect();
    if items.len() != N {
        return Err(cursor.error(format_args!(
            "expected {what} ({N} numbers), found {}",
            quote(group)
        )));
    }
    let mut out = [0u64; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = cursor.unsigned_token(item, what)?;
    }
    Ok(out)
}

/// `STAGE SLOT INHERIT_STAGE INHERIT_SLOT`.
fn remap(cursor: &mut Cursor<'_>) -> Result<Remap> {
    Ok(Remap {
        stage: cursor.word("STAGE", Stage::from_name, Stage::choices())?,
        slot: cursor.unsigned("SLOT")?,
        inherit_stage: cursor.word("INHERIT_STAGE", Stage::from_name, Stage::choices())?,
        inherit_slot: cursor.unsigned("INHERIT_SLOT")?,
    })
}

/// The literal `ia` of `remap_vertex_buffer_inheritance`.
fn ia(cursor: &mut Cursor<'_>) -> Result<()> {
    cursor.word("'ia'", |t| (t == "ia").then_some(()), "ia".into())
}

/// One ENTRY of `set_fast_resources` (R-FX-1): `STAGE.cb|srv|sampler.SLOT=OBJ|null` or
/// `vb.SLOT=BUF|null`.
fn fast_entry(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<FastEntry> {
    const WHAT: &str = "an ENTRY (STAGE.cb.SLOT=BUF, STAGE.srv.SLOT=SRV, STAGE.sampler.SLOT=SAMPLER or vb.SLOT=BUF, each =null to unbind)";
    let token = cursor.next(WHAT)?;
    let bad =
        |cursor: &Cursor<'_>| cursor.error(format!("expected {WHAT}, found {}", quote(token)));
    let Some((key, object)) = token.split_once('=') else {
        return Err(bad(cursor));
    };
    let parts: Vec<&str> = key.split('.').collect();
    let (kind, stage, slot) = match parts.as_slice() {
        ["vb", slot] => (FastKind::VertexBuffer, None, *slot),
        [stage, kind, slot] => {
            let stage = Stage::from_name(stage).ok_or_else(|| bad(cursor))?;
            let kind = match *kind {
                "cb" => FastKind::ConstantBuffer,
                "srv" => FastKind::ShaderResource,
                "sampler" => FastKind::Sampler,
                _ => return Err(bad(cursor)),
            };
            (kind, Some(stage), *slot)
        }
        _ => return Err(bad(cursor)),
    };
    let slot = cursor.unsigned_token(slot, "SLOT")?;
    let want = match kind {
        FastKind::ConstantBuffer | FastKind::VertexBuffer => Want::Buffer,
        FastKind::ShaderResource => Want::ShaderResourceView,
        FastKind::Sampler => Want::SamplerState,
    };
    let object = cursor.object_token(symbols, object, want, true)?;
    Ok(FastEntry {
        kind,
        stage,
        slot,
        object,
    })
}
