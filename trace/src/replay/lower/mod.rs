//! Lowering: a parsed [`Trace`] to a [`Program`], with the checks the parser cannot make
//! because they need the engine's types.
//!
//! **In:** a trace as the parser returns it (objects declared before use, of the right kind).
//! **Out:** the program, or the first problem as a [`ParseError`] (`trace:LINE: message`, exit
//! code 2): a format name the engine does not know (docs/TRACE.md lists formats by example; the
//! engine's `Format` decides), a number that does not fit the engine's argument (a 32-bit
//! count, a `u8` stencil value, a slot beyond the slot masks of R-OBJ-5 in a shader
//! declaration), a context, command list or bundle used after its `release`.
//!
//! Numbering: every object gets an [`ObjId`] at its declaration; a swap chain of up to
//! `MAX_BACK_BUFFERS` buffers numbers its back buffers and their views with it (`NAME.K`,
//! `NAME.K.rtv`); a derived name of a larger swap chain (which the engine refuses) is numbered
//! where it is first used and never created. Command lists are numbered by the `finish` that
//! declares them, fences by their first use. Every write_discard `map` statement of a resource
//! gets the next instance number K of that resource (docs/TRACE.md "Instances"). Every `map`
//! statement gets the `write` statements after it on its context and resource, up to the
//! `unmap` there (`writes.rs`); a `write` OFFSET must fit a `u32` (a buffer's size does).

use std::collections::HashMap;

use recorder::limits::MAX_BACK_BUFFERS;
use recorder::Slots;
use recorder::{Rect, Viewport};

use super::convert::*;
use super::program::*;
use crate::syntax::ast::{
    Barrier, CallContext, Declaration, Expectation, ExpectedLayout, FastEntry, Flags,
    LegacyBarrier, Method, Placement, Remap, Statement, Subject as AstSubject, Trace,
};
use crate::syntax::name::Name;
use crate::syntax::split_derived;
use crate::ParseError;

/// Lowers `trace` (see the module essay).
pub(crate) fn lower(trace: &Trace) -> Result<Program, ParseError> {
    let mut lowering = Lowering::default();
    for (line, statement) in &trace.statements {
        lowering.line = *line;
        lowering
            .statement(statement)
            .map_err(|message| ParseError::new(*line, message))?;
    }
    let (semantics, validation) = lowering.device.unwrap_or_default();
    super::writes::attach(&mut lowering.steps);
    Ok(Program {
        semantics,
        validation,
        legacy_barriers: lowering.legacy_barriers.unwrap_or(true),
        objects: lowering.objects,
        steps: lowering.steps,
        recorders: lowering.recorders,
    })
}

#[derive(Default)]
struct Lowering {
    line: usize,
    device: Option<(recorder::Semantics, recorder::Validation)>,
    /// `device legacy_barriers=`, where written.
    legacy_barriers: Option<bool>,
    objects: Vec<Object>,
    steps: Vec<Step>,
    recorders: Vec<ObjId>,
    ids: HashMap<String, ObjId>,
    /// Swap chains and their back buffers: `(chain, K)` → `(texture, rtv)`.
    back_buffers: HashMap<(ObjId, u64), (ObjId, ObjId)>,
    /// Contexts, bundle recorders and command lists released, with the line.
    released: HashMap<ObjId, usize>,
    /// The last instance number of each resource mapped write_discard.
    instances: HashMap<ObjId, u32>,
    /// The entries of each batch of `set_fast_resources_into_batch` so far (R-FX-1).
    batches: HashMap<String, Vec<FastEntry<Lowered>>>,
}

impl Lowering {
    fn add(&mut self, name: &str, kind: ObjKind, dynamic: bool) -> ObjId {
        let id = self.objects.len();
        self.objects.push(Object {
            name: name.to_owned(),
            kind,
            line: self.line,
            dynamic,
            back_buffer: None,
        });
        self.ids.insert(name.to_owned(), id);
        id
    }

    /// `set_fast_resources` entries, lowered (R-FX-1).
    fn fast_entries(&mut self, entries: &[FastEntry]) -> Converted<Vec<FastEntry<Lowered>>> {
        let mut lowered = Vec::with_capacity(entries.len());
        for e in entries {
            lowered.push(FastEntry {
                kind: e.kind,
                stage: e.stage,
                slot: fit_u32(e.slot, "SLOT")?,
                object: self.opt(&e.object)?,
            });
        }
        Ok(lowered)
    }

    /// The object `name` names (declared before, as the parser checked).
    /// `heap=HEAP offset=BYTES` of a placed resource (R-BAR-7), lowered.
    fn placement(&mut self, placement: &Option<Placement>) -> Converted<Option<(ObjId, u64)>> {
        match placement {
            Some(Placement { heap, offset }) => Ok(Some((self.id(heap)?, *offset))),
            None => Ok(None),
        }
    }

    fn id(&mut self, name: &Name) -> Converted<ObjId> {
        let text = name.as_str();
        if let Some(&id) = self.ids.get(text) {
            if let Some(line) = self.released.get(&id) {
                return Err(format!(
                    "'{text}' was released on line {line}: the trace no longer has it"
                ));
            }
            return Ok(id);
        }
        // A back buffer of a swap chain the engine refuses (too many buffers): numbered here,
        // never created.
        let (prefix, k, rtv) =
            split_derived(text).ok_or_else(|| format!("'{text}' is not declared"))?;
        let chain = *self
            .ids
            .get(prefix)
            .ok_or_else(|| format!("'{text}' is not declared"))?;
        let (texture, view) = match self.back_buffers.get(&(chain, k)) {
            Some(pair) => *pair,
            None => {
                let index = u32::try_from(k).unwrap_or(u32::MAX);
                let texture = self.add(&format!("{prefix}.{k}"), ObjKind::Texture, false);
                let view = self.add(
                    &format!("{prefix}.{k}.rtv"),
                    ObjKind::RenderTargetView,
                    false,
                );
                for id in [texture, view] {
                    self.objects[id].back_buffer = Some((chain, index));
                }
                self.back_buffers.insert((chain, k), (texture, view));
                (texture, view)
            }
        };
        Ok(if rtv { view } else { texture })
    }

    fn ids(&mut self, names: &[Option<Name>]) -> Converted<Vec<Option<ObjId>>> {
        names.iter().map(|n| self.opt(n)).collect()
    }

    fn opt(&mut self, name: &Option<Name>) -> Converted<Option<ObjId>> {
        name.as_ref().map(|n| self.id(n)).transpose()
    }

    fn push(&mut self, op: Op) {
        self.steps.push(Step {
            line: self.line,
            op,
        });
    }

    fn statement(&mut self, statement: &Statement) -> Converted<()> {
        match statement {
            Statement::Declaration(declaration) => self.declaration(declaration),
            Statement::Call(call) => self.call(call),
            Statement::Expectation(expectation) => self.expectation(expectation),
        }
    }

    fn declaration(&mut self, declaration: &Declaration) -> Converted<()> {
        let (object, create) = match declaration {
            Declaration::Device {
                semantics: s,
                validation,
                legacy_barriers,
            } => {
                self.legacy_barriers = *legacy_barriers;
                self.device = Some((*s, validation.unwrap_or_default()));
                return Ok(());
            }
            Declaration::Release { name } => {
                let id = self.id(name)?;
                if matches!(
                    self.objects[id].kind,
                    ObjKind::Context
                        | ObjKind::BundleRecorder
                        | ObjKind::CommandList
                        | ObjKind::ContextState
                ) {
                    self.released.insert(id, self.line);
                }
                self.push(Op::Release(id));
                return Ok(());
            }
            Declaration::Buffer {
                name,
                usage,
                bind,
                size,
                uav_flag,
                placement,
            } => {
                let placement = self.placement(placement)?;
                let usage = *usage;
                let uav_flag = uav_flag.unwrap_or_default();
                let dynamic = usage == recorder::Usage::Dynamic;
                let create = Create::Buffer {
                    size: fit_u32(*size, "size")?,
                    usage,
                    bind: *bind,
                    uav_flag,
                    placement,
                };
                (self.add(name.as_str(), ObjKind::Buffer, dynamic), create)
            }
            Declaration::Texture {
                name,
                format: f,
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
                let placement = self.placement(placement)?;
                let create = Create::Texture {
                    format: format(f)?,
                    width: fit_u32(*width, "width")?,
                    height: fit_u32(*height, "height")?,
                    mips: fit_u32(mips.unwrap_or(1), "mips")?,
                    array: fit_u32(array.unwrap_or(1), "array")?,
                    samples: fit_u32(samples.unwrap_or(1), "samples")?,
                    bind: *bind,
                    compressible: *compressible,
                    texture_compatible: tc.unwrap_or(false),
                    dcc: dcc.unwrap_or(false),
                    placement,
                };
                (self.add(name.as_str(), ObjKind::Texture, false), create)
            }
            Declaration::ShaderResourceView {
                name,
                resource,
                min_lod,
            } => self.view(name, resource, ObjKind::ShaderResourceView, *min_lod)?,
            Declaration::UnorderedAccessView { name, resource } => {
                self.view(name, resource, ObjKind::UnorderedAccessView, None)?
            }
            Declaration::RenderTargetView { name, resource } => {
                self.view(name, resource, ObjKind::RenderTargetView, None)?
            }
            Declaration::DepthStencilView { name, resource } => {
                self.view(name, resource, ObjKind::DepthStencilView, None)?
            }
            Declaration::Shader {
                name,
                stage: s,
                constant_buffers,
                shader_resources,
                samplers,
                unordered_access_views,
                stream_output,
            } => {
                let create = Create::Shader {
                    stage: *s,
                    constant_buffers: Slots::from_bits(mask(
                        constant_buffers,
                        16,
                        "constant-buffer",
                    )?),
                    shader_resources: Slots::from_bits(mask(
                        shader_resources,
                        128,
                        "shader-resource",
                    )?),
                    samplers: Slots::from_bits(mask(samplers, 16, "sampler")?),
                    unordered_access_views: Slots::from_bits(mask(
                        unordered_access_views,
                        64,
                        "unordered-access",
                    )?),
                    stream_output: stream_output.unwrap_or(false),
                };
                (self.add(name.as_str(), ObjKind::Shader, false), create)
            }
            Declaration::InputLayout {
                name,
                vertex_buffers,
            } => {
                let create = Create::InputLayout {
                    vertex_buffers: Slots::from_bits(mask(vertex_buffers, 32, "vertex-buffer")?),
                };
                (self.add(name.as_str(), ObjKind::InputLayout, false), create)
            }
            Declaration::BlendState { name } => (
                self.add(name.as_str(), ObjKind::BlendState, false),
                Create::BlendState,
            ),
            Declaration::RasterizerState { name } => (
                self.add(name.as_str(), ObjKind::RasterizerState, false),
                Create::RasterizerState,
            ),
            Declaration::DepthStencilState { name } => (
                self.add(name.as_str(), ObjKind::DepthStencilState, false),
                Create::DepthStencilState,
            ),
            Declaration::SamplerState { name } => (
                self.add(name.as_str(), ObjKind::SamplerState, false),
                Create::SamplerState,
            ),
            Declaration::Predicate { name } => (
                self.add(name.as_str(), ObjKind::Predicate, false),
                Create::Predicate(recorder::QueryKind::Predicate),
            ),
            Declaration::Query { name, kind } => (
                self.add(name.as_str(), ObjKind::Predicate, false),
                Create::Predicate(*kind),
            ),
            Declaration::Swapchain {
                name,
                buffers,
                format: f,
                width,
                height,
            } => {
                let chain = self.add(name.as_str(), ObjKind::SwapChain, false);
                let mut back_buffers = Vec::new();
                if *buffers <= MAX_BACK_BUFFERS as u64 {
                    for k in 0..*buffers {
                        let texture = self.add(&format!("{name}.{k}"), ObjKind::Texture, false);
                        let view =
                            self.add(&format!("{name}.{k}.rtv"), ObjKind::RenderTargetView, false);
                        for id in [texture, view] {
                            self.objects[id].back_buffer = Some((chain, k as u32));
                        }
                        self.back_buffers.insert((chain, k), (texture, view));
                        back_buffers.push((texture, view));
                    }
                }
                let create = Create::SwapChain {
                    buffers: fit_u32(*buffers, "buffers")?,
                    format: format(f)?,
                    width: fit_u32(*width, "width")?,
                    height: fit_u32(*height, "height")?,
                    back_buffers,
                };
                (chain, create)
            }
            Declaration::Context {
                name,
                semantics: s,
                title_managed_lifetimes,
            } => {
                let id = self.add(name.as_str(), ObjKind::Context, false);
                self.recorders.push(id);
                (
                    id,
                    Create::Context {
                        semantics: *s,
                        title_managed_lifetimes: *title_managed_lifetimes,
                    },
                )
            }
            Declaration::Bundle {
                name,
                render_targets,
                depth,
                samples,
            } => {
                let create = Create::Bundle {
                    render_targets: render_targets
                        .iter()
                        .map(format)
                        .collect::<Converted<_>>()?,
                    depth: depth.as_ref().map(format).transpose()?,
                    samples: fit_u32(samples.unwrap_or(1), "samples")?,
                };
                let id = self.add(name.as_str(), ObjKind::BundleRecorder, false);
                self.recorders.push(id);
                (id, create)
            }
            Declaration::Heap { name, size } => (
                self.add(name.as_str(), ObjKind::Heap, false),
                Create::Heap { size: *size },
            ),
        };
        self.push(Op::Create { object, create });
        Ok(())
    }

    fn view(
        &mut self,
        name: &Name,
        resource: &Name,
        kind: ObjKind,
        min_lod: Option<f32>,
    ) -> Converted<(ObjId, Create)> {
        let resource = self.id(resource)?;
        let dynamic = self.objects[resource].dynamic;
        let id = self.add(name.as_str(), kind, dynamic);
        Ok((id, Create::View { resource, min_lod }))
    }

    fn fence(&mut self, name: &Name) -> ObjId {
        match self.ids.get(name.as_str()) {
            Some(&id) => id,
            None => self.add(name.as_str(), ObjKind::Fence, false),
        }
    }

    fn call(&mut self, call: &crate::syntax::ast::Call) -> Converted<()> {
        let on = match &call.context {
            CallContext::Immediate => On::Immediate,
            CallContext::Deferred(name) => On::Deferred(self.id(name)?),
            CallContext::BundleRecorder(name) => On::BundleRecorder(self.id(name)?),
        };
        let call = self.method(&call.method)?;
        self.push(Op::Call { on, call });
        Ok(())
    }

    fn method(&mut self, method: &Method) -> Converted<Call> {
        let slot = |n: u64| fit_u32(n, "START");
        Ok(match method {
            Method::SetInputLayout(layout) => Call::SetInputLayout(self.opt(layout)?),
            Method::SetPrimitiveTopology(t) => Call::SetPrimitiveTopology(*t),
            Method::SetVertexBuffers { start, buffers } => Call::SetVertexBuffers {
                start: slot(*start)?,
                buffers: self.ids(buffers)?,
            },
            Method::SetIndexBuffer {
                buffer,
                format: f,
                offset,
            } => Call::SetIndexBuffer {
                buffer: self.opt(buffer)?,
                format: format(f)?,
                offset: fit_u32(offset.unwrap_or(0), "OFFSET")?,
            },
            Method::SetPrimitiveResetIndex(value) => {
                Call::SetPrimitiveResetIndex(fit_u32(*value, "VALUE")?)
            }
            Method::SetShader { stage: s, shader } => Call::SetShader {
                stage: *s,
                shader: self.opt(shader)?,
            },
            Method::SetConstantBuffers {
                stage: s,
                start,
                buffers,
            } => Call::SetConstantBuffers {
                stage: *s,
                start: slot(*start)?,
                buffers: self.ids(buffers)?,
            },
            Method::SetShaderResources {
                stage: s,
                start,
                views,
            } => Call::SetShaderResources {
                stage: *s,
                start: slot(*start)?,
                views: self.ids(views)?,
            },
            Method::SetSamplers {
                stage: s,
                start,
                samplers,
            } => Call::SetSamplers {
                stage: *s,
                start: slot(*start)?,
                samplers: self.ids(samplers)?,
            },
            Method::SetFastResources(entries) => {
                Call::SetFastResources(self.fast_entries(entries)?)
            }
            Method::SetFastResourcesIntoBatch { batch, entries } => {
                let entries = self.fast_entries(entries)?;
                // A line with a slot past its kind's slots is refused and adds nothing; any
                // other refusal shows when the batch is applied (TRACE.md).
                if entries.iter().all(fast_slot_in_range) {
                    self.batches
                        .entry(batch.as_str().to_owned())
                        .or_default()
                        .extend(entries.iter().cloned());
                }
                Call::SetFastResourcesIntoBatch {
                    batch: batch.clone(),
                    entries,
                }
            }
            Method::SetFastResourcesFromBatch { batch, .. } => Call::SetFastResourcesFromBatch {
                batch: batch.clone(),
                entries: self
                    .batches
                    .get(batch.as_str())
                    .cloned()
                    .unwrap_or_default(),
            },
            Method::SetFastShaderResource {
                stage: s,
                slot: n,
                view,
            } => Call::SetFastShaderResource {
                stage: *s,
                slot: fit_u32(*n, "SLOT")?,
                view: self.opt(view)?,
            },
            Method::SetPlacementShaderResource {
                stage: s,
                slot: n,
                view,
                address,
            } => Call::SetPlacementShaderResource {
                stage: *s,
                slot: fit_u32(*n, "SLOT")?,
                view: self.id(view)?,
                address: *address,
            },
            Method::SetPlacementConstantBuffer {
                stage: s,
                slot: n,
                buffer,
                address,
            } => Call::SetPlacementConstantBuffer {
                stage: *s,
                slot: fit_u32(*n, "SLOT")?,
                buffer: self.id(buffer)?,
                address: *address,
            },
            Method::SetPlacementVertexBuffer {
                slot: n,
                buffer,
                address,
            } => Call::SetPlacementVertexBuffer {
                slot: fit_u32(*n, "SLOT")?,
                buffer: self.id(buffer)?,
                address: *address,
            },
            Method::IaSetPlacementIndexBuffer {
                buffer,
                address,
                format: f,
            } => Call::IaSetPlacementIndexBuffer {
                buffer: self.id(buffer)?,
                address: *address,
                format: format(f)?,
            },
            Method::CsSetUnorderedAccessViews { start, views } => Call::CsSetUnorderedAccessViews {
                start: slot(*start)?,
                views: self.ids(views)?,
            },
            Method::OmSetRenderTargets {
                render_targets,
                depth_stencil,
            } => Call::OmSetRenderTargets {
                render_targets: self.ids(render_targets)?,
                depth_stencil: self.opt(depth_stencil)?,
            },
            Method::OmSetRenderTargetsAndUavs {
                render_targets,
                depth_stencil,
                start,
                views,
            } => Call::OmSetRenderTargetsAndUavs {
                render_targets: self.ids(render_targets)?,
                depth_stencil: self.opt(depth_stencil)?,
                start: slot(*start)?,
                views: self.ids(views)?,
            },
            Method::OmSetBlendState(state) => Call::OmSetBlendState(self.opt(state)?),
            Method::OmSetDepthStencilState(state) => Call::OmSetDepthStencilState(self.opt(state)?),
            Method::RsSetState(state) => Call::RsSetState(self.opt(state)?),
            Method::RsSetViewports(viewports) => Call::RsSetViewports(
                viewports
                    .iter()
                    .map(|v| Viewport::new(v.x, v.y, v.width, v.height))
                    .collect(),
            ),
            Method::RsSetScissorRects(rects) => Call::RsSetScissorRects(
                rects
                    .iter()
                    .map(|r| {
                        Ok(Rect {
                            left: fit_i32(r.left, "L")?,
                            top: fit_i32(r.top, "T")?,
                            right: fit_i32(r.right, "R")?,
                            bottom: fit_i32(r.bottom, "B")?,
                        })
                    })
                    .collect::<Converted<_>>()?,
            ),
            Method::Draw {
                vertex_count,
                start_vertex,
            } => Call::Draw {
                vertex_count: fit_u32(*vertex_count, "VERTEX_COUNT")?,
                start_vertex: fit_u32(*start_vertex, "START_VERTEX")?,
            },
            Method::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            } => Call::DrawIndexed {
                index_count: fit_u32(*index_count, "INDEX_COUNT")?,
                start_index: fit_u32(*start_index, "START_INDEX")?,
                base_vertex: fit_i32(*base_vertex, "BASE_VERTEX")?,
            },
            Method::DrawInstanced {
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
            } => Call::DrawInstanced {
                vertex_count: fit_u32(*vertex_count, "VERTEX_COUNT")?,
                instance_count: fit_u32(*instance_count, "INSTANCE_COUNT")?,
                start_vertex: fit_u32(*start_vertex, "START_VERTEX")?,
                start_instance: fit_u32(*start_instance, "START_INSTANCE")?,
            },
            Method::DrawIndexedInstanced {
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            } => Call::DrawIndexedInstanced {
                index_count: fit_u32(*index_count, "INDEX_COUNT")?,
                instance_count: fit_u32(*instance_count, "INSTANCE_COUNT")?,
                start_index: fit_u32(*start_index, "START_INDEX")?,
                base_vertex: fit_i32(*base_vertex, "BASE_VERTEX")?,
                start_instance: fit_u32(*start_instance, "START_INSTANCE")?,
            },
            Method::DrawAuto => Call::DrawAuto,
            Method::DrawInstancedIndirect { buffer, offset } => Call::DrawInstancedIndirect {
                buffer: self.id(buffer)?,
                offset: fit_u32(*offset, "OFFSET")?,
            },
            Method::DrawIndexedInstancedIndirect { buffer, offset } => {
                Call::DrawIndexedInstancedIndirect {
                    buffer: self.id(buffer)?,
                    offset: fit_u32(*offset, "OFFSET")?,
                }
            }
            Method::Dispatch { x, y, z } => Call::Dispatch {
                x: fit_u32(*x, "X")?,
                y: fit_u32(*y, "Y")?,
                z: fit_u32(*z, "Z")?,
            },
            Method::DispatchIndirect { buffer, offset } => Call::DispatchIndirect {
                buffer: self.id(buffer)?,
                offset: fit_u32(*offset, "OFFSET")?,
            },
            Method::ClearRenderTargetView { view, color } => Call::ClearRenderTargetView {
                view: self.id(view)?,
                color: *color,
            },
            Method::ClearDepthStencilView {
                view,
                depth,
                stencil,
            } => Call::ClearDepthStencilView {
                view: self.id(view)?,
                depth: *depth,
                stencil: u8::try_from(*stencil).map_err(|_| {
                    format!("STENCIL {stencil} does not fit the engine's 8-bit argument")
                })?,
            },
            Method::CopyResource {
                destination,
                source,
            } => Call::CopyResource {
                destination: self.id(destination)?,
                source: self.id(source)?,
            },
            Method::CopyBufferRegion {
                destination,
                destination_offset,
                source,
                source_offset,
                bytes,
            } => Call::CopyBufferRegion {
                destination: self.id(destination)?,
                destination_offset: fit_u32(*destination_offset, "DST_OFFSET")?,
                source: self.id(source)?,
                source_offset: fit_u32(*source_offset, "SRC_OFFSET")?,
                bytes: fit_u32(*bytes, "BYTES")?,
            },
            Method::CopyTextureRegion {
                destination,
                destination_subresource,
                at: [x, y],
                source,
                source_subresource,
                source_box: [l, t, r, b],
            } => Call::CopyTextureRegion {
                destination: self.id(destination)?,
                destination_subresource: fit_u32(*destination_subresource, "DST_SUBRESOURCE")?,
                at: [fit_u32(*x, "X")?, fit_u32(*y, "Y")?],
                source: self.id(source)?,
                source_subresource: fit_u32(*source_subresource, "SRC_SUBRESOURCE")?,
                source_box: [
                    fit_u32(*l, "L")?,
                    fit_u32(*t, "T")?,
                    fit_u32(*r, "R")?,
                    fit_u32(*b, "B")?,
                ],
            },
            Method::UpdateSubresource { resource } => Call::UpdateSubresource {
                resource: self.id(resource)?,
            },
            Method::CopyStructureCount {
                destination,
                offset,
                view,
            } => Call::CopyStructureCount {
                destination: self.id(destination)?,
                offset: fit_u32(*offset, "OFFSET")?,
                view: self.id(view)?,
            },
            Method::Map {
                resource,
                map_type: m,
                allow_usage_default,
                instance: (),
                writes: (),
            } => {
                let resource = self.id(resource)?;
                let instance = (*m == recorder::MapType::WriteDiscard).then(|| {
                    let k = self.instances.entry(resource).or_insert(0);
                    *k += 1;
                    *k
                });
                Call::Map {
                    resource,
                    map_type: *m,
                    allow_usage_default: *allow_usage_default,
                    instance,
                    writes: Default::default(),
                }
            }
            Method::Write {
                resource,
                offset,
                bytes,
            } => Call::Write {
                resource: self.id(resource)?,
                offset: fit_u32(*offset, "OFFSET")?,
                bytes: bytes.clone(),
            },
            Method::Unmap { resource } => Call::Unmap {
                resource: self.id(resource)?,
            },
            Method::SetPredication { predicate, value } => Call::SetPredication {
                predicate: self.opt(predicate)?,
                value: *value,
            },
            Method::Begin { query } => Call::Begin {
                query: self.id(query)?,
            },
            Method::End { query } => Call::End {
                query: self.id(query)?,
            },
            Method::WriteQuery { query } => Call::WriteQuery {
                query: self.id(query)?,
            },
            Method::ResetQuery { query } => Call::ResetQuery {
                query: self.id(query)?,
            },
            Method::ConfigureQuery { query, mode } => Call::ConfigureQuery {
                query: self.id(query)?,
                mode: *mode,
            },
            Method::SetPredicationFromQuery { query, value } => Call::SetPredicationFromQuery {
                query: self.opt(query)?,
                value: *value,
            },
            Method::ClearState => Call::ClearState,
            Method::CreateDeviceContextState { state } => Call::CreateDeviceContextState {
                state: match self.ids.get(state.as_str()) {
                    Some(&id) => id,
                    None => self.add(state.as_str(), ObjKind::ContextState, false),
                },
            },
            Method::SwapDeviceContextState { state } => Call::SwapDeviceContextState {
                state: self.id(state)?,
            },
            Method::DecompressResource { resource, into } => Call::DecompressResource {
                resource: self.id(resource)?,
                into: self.opt(into)?,
            },
            Method::SetResourceCompression {
                resource,
                compression,
            } => Call::SetResourceCompression {
                resource: self.id(resource)?,
                compression: *compression,
            },
            Method::SetResourceMinLod { resource, min_lod } => Call::SetResourceMinLod {
                resource: self.id(resource)?,
                min_lod: *min_lod,
            },
            Method::SetShaderResourceViewMinLod { view, min_lod } => {
                Call::SetShaderResourceViewMinLod {
                    view: self.id(view)?,
                    min_lod: *min_lod,
                }
            }
            Method::InsertWaitOnPresent { swapchain } => Call::InsertWaitOnPresent {
                swapchain: self.id(swapchain)?,
            },
            Method::InsertFence {
                fence,
                engine: e,
                kick_off,
            } => Call::InsertFence {
                fence: self.fence(fence),
                engine: e.unwrap_or_default(),
                kick_off: *kick_off,
            },
            Method::InsertWaitOnFence { fence, engine: e } => Call::InsertWaitOnFence {
                fence: self.fence(fence),
                engine: e.unwrap_or_default(),
            },
            Method::SetGdsRange {
                stage: s,
                offset,
                size,
            } => Call::SetGdsRange {
                stage: *s,
                offset: fit_u32(*offset, "OFFSET")?,
                size: fit_u32(*size, "SIZE")?,
            },
            Method::WriteGds { offset, values } => Call::WriteGds {
                offset: fit_u32(*offset, "OFFSET")?,
                values: words(values)?,
            },
            Method::ReadGds {
                offset,
                count,
                destination,
                destination_offset,
            } => Call::ReadGds {
                offset: fit_u32(*offset, "OFFSET")?,
                count: fit_u32(*count, "COUNT")?,
                destination: self.id(destination)?,
                destination_offset: fit_u32(*destination_offset, "BUF_OFFSET")?,
            },
            Method::LoadConstantRam {
                buffer,
                buffer_offset,
                ram_offset,
                bytes,
            } => Call::LoadConstantRam {
                buffer: self.id(buffer)?,
                buffer_offset: fit_u32(*buffer_offset, "BUF_OFFSET")?,
                ram_offset: fit_u32(*ram_offset, "RAM_OFFSET")?,
                bytes: fit_u32(*bytes, "BYTES")?,
            },
            Method::StoreConstantRam {
                buffer,
                buffer_offset,
                ram_offset,
                bytes,
            } => Call::StoreConstantRam {
                buffer: self.id(buffer)?,
                buffer_offset: fit_u32(*buffer_offset, "BUF_OFFSET")?,
                ram_offset: fit_u32(*ram_offset, "RAM_OFFSET")?,
                bytes: fit_u32(*bytes, "BYTES")?,
            },
            Method::DrawBundle { bundle } => Call::DrawBundle {
                bundle: self.id(bundle)?,
            },
            Method::RemapConstantBufferInheritance(r) => {
                Call::RemapConstantBufferInheritance(remap(r)?)
            }
            Method::RemapShaderResourceInheritance(r) => {
                Call::RemapShaderResourceInheritance(remap(r)?)
            }
            Method::RemapSamplerInheritance(r) => Call::RemapSamplerInheritance(remap(r)?),
            Method::RemapVertexBufferInheritance { slot, inherit_slot } => {
                Call::RemapVertexBufferInheritance {
                    slot: fit_u32(*slot, "SLOT")?,
                    inherit_slot: fit_u32(*inherit_slot, "INHERIT_SLOT")?,
                }
            }
            Method::FinishCommandList { list, restore } => Call::FinishCommandList {
                list: self.add(list.as_str(), ObjKind::CommandList, false),
                restore: restore.unwrap_or(false),
            },
            Method::FinishBundle => Call::FinishBundle,
            Method::Execute { list, restore } => Call::Execute {
                list: self.id(list)?,
                restore: restore.unwrap_or(false),
            },
            Method::BeginCommandListExecution => Call::BeginCommandListExecution,
            Method::EndCommandListExecution => Call::EndCommandListExecution,
            Method::Present { swapchain } => Call::Present {
                swapchain: self.id(swapchain)?,
            },
            Method::Resume => Call::Resume,
            Method::Barrier(barriers) => Call::Barrier(
                barriers
                    .iter()
                    .map(|barrier| self.barrier(barrier))
                    .collect::<Converted<_>>()?,
            ),
            Method::ResourceBarrier(barrier) => Call::ResourceBarrier(match barrier {
                LegacyBarrier::Transition {
                    resource,
                    before,
                    after,
                    subresource,
                    split,
                } => LegacyBarrier::Transition {
                    resource: self.id(resource)?,
                    before: before.value(),
                    after: after.value(),
                    subresource: subresource
                        .map(|n| fit_u32(n, "subresource="))
                        .transpose()?,
                    split: *split,
                },
                LegacyBarrier::Uav { resource } => LegacyBarrier::Uav {
                    resource: self.opt(resource)?,
                },
                LegacyBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
                    before: self.opt(before)?,
                    after: self.opt(after)?,
                },
            }),
        })
    }

    /// One BARRIER of `barrier`.
    fn barrier(&mut self, barrier: &Barrier) -> Converted<Barrier<Lowered>> {
        Ok(match barrier {
            Barrier::Global { sync: s, access: a } => Barrier::Global {
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
            },
            Barrier::Buffer {
                resource,
                sync: s,
                access: a,
                size,
            } => Barrier::Buffer {
                resource: self.id(resource)?,
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
                size: *size,
            },
            Barrier::Texture {
                resource,
                sync: s,
                access: a,
                layout,
                mips,
                array,
                planes,
                discard,
            } => Barrier::Texture {
                resource: self.id(resource)?,
                sync: s.map(Flags::value),
                access: a.map(Flags::value),
                layout: layout.map(|word| word.value()),
                mips: span(mips, "mips=")?,
                array: span(array, "array=")?,
                planes: span(planes, "planes=")?,
                discard: *discard,
            },
        })
    }

    fn expectation(&mut self, expectation: &Expectation) -> Converted<()> {
        let check = match expectation {
            Expectation::Ok => Check::Ok,
            Expectation::Accepted { subject } => Check::Accepted {
                subject: self.subject_of(subject)?,
            },
            Expectation::Error { subject, kind } => Check::Error {
                subject: self.subject_of(subject)?,
                kind: recorder::ErrorKind::from_name(kind.name())
                    .ok_or_else(|| format!("the engine has no error kind '{kind}'"))?,
            },
            Expectation::SplitPoints {
                list,
                total,
                categories,
            } => Check::SplitPoints {
                list: self.id(list)?,
                total: *total,
                categories: categories
                    .iter()
                    .map(|(category, n)| {
                        recorder::SplitCategory::from_name(category.name())
                            .map(|c| (c, *n))
                            .ok_or_else(|| format!("the engine has no split category '{category}'"))
                    })
                    .collect::<Converted<_>>()?,
            },
            Expectation::Counters(keys) => {
                Check::Counters(keys.iter().map(|(key, n)| (key.name(), *n)).collect())
            }
            Expectation::Draw {
                index,
                field,
                value,
            } => Check::Draw {
                index: *index,
                field: *field,
                value: value.clone(),
            },
            Expectation::Resource {
                resource,
                layout,
                compressed,
                depth,
                stencil,
            } => Check::Resource {
                resource: self.id(resource)?,
                layout: layout.map(|layout| match layout {
                    ExpectedLayout::Is(layout) => ExpectedLayout::Is(layout.value()),
                    ExpectedLayout::Mixed => ExpectedLayout::Mixed,
                }),
                compressed: *compressed,
                depth: *depth,
                stencil: *stencil,
            },
            Expectation::Query { query, expected } => Check::Query {
                query: self.id(query)?,
                expected: expected.clone(),
            },
            Expectation::Pending { resource, pending } => Check::Pending {
                resource: self.id(resource)?,
                pending: *pending,
            },
            Expectation::BundleFootprint { bundle, bytes } => Check::BundleFootprint {
                bundle: self.id(bundle)?,
                bytes: *bytes,
            },
            Expectation::Gds { offset, values } => Check::Gds {
                offset: fit_u32(*offset, "OFFSET")?,
                values: words(values)?,
            },
            Expectation::ConstantRam { offset, values } => Check::ConstantRam {
                offset: fit_u32(*offset, "OFFSET")?,
                values: words(values)?,
            },
            Expectation::Memory {
                buffer,
                offset,
                values,
            } => Check::Memory {
                buffer: self.id(buffer)?,
                offset: fit_u32(*offset, "OFFSET")?,
                values: words(values)?,
            },
        };
        self.push(Op::Expect(Expect {
            written: expectation.clone(),
            check,
        }));
        Ok(())
    }

    /// The CTX of `expect error` and `expect accepted`.
    fn subject_of(&mut self, subject: &AstSubject) -> Converted<Subject> {
        Ok(match subject {
            AstSubject::Immediate => Subject::Immediate,
            AstSubject::Named(name) => Subject::Named(self.subject(name)?),
        })
    }

    /// `expect error NAME`: any declared name, a released one too (its last outcome stays).
    fn subject(&mut self, name: &Name) -> Converted<ObjId> {
        match self.ids.get(name.as_str()) {
            Some(&id) => Ok(id),
            None => self.id(name),
        }
    }
}

/// The arguments of a staged `remap_*_inheritance` call.
fn remap(remap: &Remap) -> Converted<Remap<Lowered>> {
    Ok(Remap {
        stage: remap.stage,
        slot: fit_u32(remap.slot, "SLOT")?,
        inherit_stage: remap.inherit_stage,
        inherit_slot: fit_u32(remap.inherit_slot, "INHERIT_SLOT")?,
    })
}

/// The words V of `write_gds` and `expect gds|constant_ram|memory`, each a 32-bit value.
fn words(values: &[u64]) -> Converted<Vec<u32>> {
    values.iter().map(|v| fit_u32(*v, "V")).collect()
}

/// Whether an entry's slot is within its kind's slots (R-FX-1).
fn fast_slot_in_range(entry: &FastEntry<Lowered>) -> bool {
    use crate::syntax::ast::FastKind;
    use recorder::limits::*;
    let limit = match entry.kind {
        FastKind::ConstantBuffer => CONSTANT_BUFFER_SLOTS,
        FastKind::ShaderResource => SHADER_RESOURCE_SLOTS,
        FastKind::Sampler => SAMPLER_SLOTS,
        FastKind::VertexBuffer => VERTEX_BUFFER_SLOTS,
    };
    entry.slot < limit
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(text: &str) -> Program {
        let trace = crate::parse(text.as_bytes()).expect("the trace parses");
        lower(&trace).expect("the trace lowers")
    }

    /// `device legacy_barriers=` reaches `DeviceDesc::legacy_barriers` (on when not written,
    /// the engine's default), `texture dcc=` reaches `TextureDesc::dcc` (no when not written).
    #[test]
    fn r_bar_6_legacy_barriers_and_r_bar_3_dcc_reach_the_engines_descriptions() {
        assert!(lowered("device semantics=fast\n").legacy_barriers);
        assert!(lowered("device semantics=fast legacy_barriers=on\n").legacy_barriers);
        assert!(!lowered("device semantics=fast legacy_barriers=off\n").legacy_barriers);
        assert_eq!(
            recorder::DeviceDesc::default().legacy_barriers,
            lowered("device semantics=fast\n").legacy_barriers
        );
        let program = lowered(
            "device semantics=fast\n\
             texture a format=r8g8b8a8_unorm width=4 height=4 bind=render_target dcc=yes\n\
             texture b format=r8g8b8a8_unorm width=4 height=4 bind=render_target dcc=no\n\
             texture c format=r8g8b8a8_unorm width=4 height=4 bind=render_target\n",
        );
        let dcc: Vec<bool> = program
            .steps
            .iter()
            .filter_map(|step| match &step.op {
                Op::Create {
                    create: Create::Texture { dcc, .. },
                    ..
                } => Some(*dcc),
                _ => None,
            })
            .collect();
        assert_eq!(dcc, [true, false, false]);
    }

    /// A BARRIER's words become the engine's bits, `+` ORing them; `present` is `common`;
    /// ranges become spans, every index when not written.
    #[test]
    fn r_bar_1_barrier_words_lower_to_the_engines_values() {
        let program = lowered(
            "device semantics=fast\n\
             texture t format=r8g8b8a8_unorm width=4 height=4 mips=3 bind=render_target\n\
             imm barrier texture t sync=compute_shading+predication:all access=predication:no_access \
             layout=present:direct_queue_shader_resource mips=1-2\n\
             imm resource_barrier transition t present generic_read+copy_dest split=end\n",
        );
        let calls: Vec<&Call> = program
            .steps
            .iter()
            .filter_map(|step| match &step.op {
                Op::Call { call, .. } => Some(call),
                _ => None,
            })
            .collect();
        let Call::Barrier(barriers) = calls[0] else {
            panic!("{:?}", calls[0]);
        };
        let Barrier::Texture {
            sync,
            access,
            layout,
            mips,
            array,
            ..
        } = &barriers[0]
        else {
            panic!("{:?}", barriers[0]);
        };
        use recorder::{BarrierAccess, BarrierLayout, BarrierSync};
        assert_eq!(
            sync.before,
            BarrierSync::COMPUTE_SHADING | BarrierSync::EXECUTE_INDIRECT
        );
        assert_eq!(sync.after, BarrierSync::ALL);
        assert_eq!(access.before, BarrierAccess::INDIRECT_ARGUMENT);
        assert_eq!(access.after, BarrierAccess::NO_ACCESS);
        assert_eq!(layout.before, BarrierLayout::Common);
        assert_eq!(layout.after, BarrierLayout::DirectQueueShaderResource);
        assert_eq!(*mips, recorder::Span::new(1, 2));
        assert_eq!(*array, recorder::Span::ALL);
        let Call::ResourceBarrier(LegacyBarrier::Transition {
            before,
            after,
            split,
            subresource,
            ..
        }) = calls[1]
        else {
            panic!("{:?}", calls[1]);
        };
        use recorder::ResourceStates;
        assert_eq!(*before, ResourceStates::COMMON);
        assert_eq!(
            *after,
            ResourceStates::GENERIC_READ | ResourceStates::COPY_DEST
        );
        assert_eq!(*split, Some(recorder::SplitHalf::End));
        assert_eq!(*subresource, None);
    }
}
