//! Declarations lowered: each declaration line of the trace to the object it numbers and its
//! [`Create`] step, or to the state the lowering keeps (`device`, `release`).
//!
//! **In:** one [`Declaration`] of the parsed trace, at the lowering's line. **Out:** an
//! [`Op::Create`] step (or [`Op::Release`]), the object numbered by
//! `Lowering::add` in declaration order, or the first problem as the message
//! of `trace:LINE: message`: a format the engine does not know, a number that does not fit the
//! engine's argument, a slot beyond a shader's slot masks (R-OBJ-5), a file of GPU contents
//! that cannot be read (R-GPU-2: `lower_contents.rs` lowers those options).
//!
//! **Invariant:** a declaration numbers its object (and a swap chain of up to
//! `MAX_BACK_BUFFERS` buffers its back buffers and their views, `NAME.K`, `NAME.K.rtv`) before
//! any later line can name it; what it converts is checked before the step is pushed, so a
//! malformed declaration pushes nothing.

use recorder::limits::MAX_BACK_BUFFERS;
use recorder::{Slots, Usage};

use super::super::convert::*;
use super::super::program::*;
use super::{lower_contents as contents, Lowering};
use crate::syntax::ast::{Declaration, Placement};
use crate::syntax::name::Name;

impl Lowering {
    /// One declaration (see the module essay).
    ///
    /// This match stays whole: it is one arm per declaration kind of the trace vocabulary,
    /// checked exhaustive by the compiler; the longer families (buffers, shaders, swap chains,
    /// recorders) each have a helper below, so an arm is where its kind is read.
    pub(super) fn declaration(&mut self, declaration: &Declaration) -> Converted<()> {
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
            Declaration::Release { name } => return self.release(name),
            Declaration::Buffer { .. } => self.buffer(declaration)?,
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
                data,
            } => {
                let placement = self.placement(placement)?;
                let data = self.initial_data(&format!("texture '{name}'"), data)?;
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
                    data,
                };
                (self.add(name.as_str(), ObjKind::Texture, false), create)
            }
            Declaration::ShaderResourceView {
                name,
                resource,
                min_lod,
                composed,
            } => {
                let (id, mut create) =
                    self.view(name, resource, ObjKind::ShaderResourceView, *min_lod)?;
                if let Create::View { composed: c, .. } = &mut create {
                    *c = composed.unwrap_or(false);
                }
                (id, create)
            }
            Declaration::UnorderedAccessView { name, resource } => {
                self.view(name, resource, ObjKind::UnorderedAccessView, None)?
            }
            Declaration::RenderTargetView { name, resource } => {
                self.view(name, resource, ObjKind::RenderTargetView, None)?
            }
            Declaration::DepthStencilView { name, resource } => {
                self.view(name, resource, ObjKind::DepthStencilView, None)?
            }
            Declaration::Shader { name, code, .. } => {
                let mut create = shader(declaration)?;
                if let Create::Shader { code: c, .. } = &mut create {
                    *c = self.shader_code(name.as_str(), code)?;
                }
                (self.add(name.as_str(), ObjKind::Shader, false), create)
            }
            Declaration::InputLayout {
                name,
                vertex_buffers,
                elements,
            } => {
                let create = Create::InputLayout {
                    vertex_buffers: Slots::from_bits(mask(vertex_buffers, 32, "vertex-buffer")?),
                    elements: contents::elements(elements)?,
                };
                (self.add(name.as_str(), ObjKind::InputLayout, false), create)
            }
            Declaration::BlendState { name, fields } => {
                let create = Create::BlendState(contents::blend(fields));
                self.plain(name, ObjKind::BlendState, create)
            }
            Declaration::RasterizerState { name, fields } => {
                let create = Create::RasterizerState(contents::rasterizer(fields)?);
                self.plain(name, ObjKind::RasterizerState, create)
            }
            Declaration::DepthStencilState { name, fields } => {
                let create = Create::DepthStencilState(contents::depth_stencil(fields)?);
                self.plain(name, ObjKind::DepthStencilState, create)
            }
            Declaration::SamplerState { name, fields } => {
                let create = Create::SamplerState(contents::sampler(fields));
                self.plain(name, ObjKind::SamplerState, create)
            }
            Declaration::Predicate { name } => self.plain(
                name,
                ObjKind::Predicate,
                Create::Predicate(recorder::QueryKind::Predicate),
            ),
            Declaration::Query { name, kind } => {
                self.plain(name, ObjKind::Predicate, Create::Predicate(*kind))
            }
            Declaration::Swapchain {
                name,
                buffers,
                format: f,
                width,
                height,
            } => self.swap_chain(name, *buffers, f, *width, *height)?,
            Declaration::Context {
                name,
                semantics: s,
                title_managed_lifetimes,
            } => self.recorder(
                name,
                ObjKind::Context,
                Create::Context {
                    semantics: *s,
                    title_managed_lifetimes: *title_managed_lifetimes,
                },
            ),
            Declaration::Bundle {
                name,
                render_targets,
                depth,
                samples,
            } => self.bundle(name, render_targets, depth, *samples)?,
            Declaration::Heap { name, size } => {
                self.plain(name, ObjKind::Heap, Create::Heap { size: *size })
            }
        };
        self.push(Op::Create { object, create });
        Ok(())
    }

    /// `release NAME`: the step, and a context, bundle recorder, command list or device context
    /// state object kept as released (no later line may name it).
    fn release(&mut self, name: &Name) -> Converted<()> {
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
        Ok(())
    }

    /// A buffer declaration: its placement, size and initial bytes converted, a dynamic buffer
    /// marked so.
    fn buffer(&mut self, declaration: &Declaration) -> Converted<(ObjId, Create)> {
        let Declaration::Buffer {
            name,
            usage,
            bind,
            size,
            uav_flag,
            placement,
            data,
        } = declaration
        else {
            unreachable!("buffer is given a buffer declaration")
        };
        let placement = self.placement(placement)?;
        let create = Create::Buffer {
            size: fit_u32(*size, "size")?,
            usage: *usage,
            bind: *bind,
            uav_flag: uav_flag.unwrap_or_default(),
            placement,
            data: self.initial_data(&format!("buffer '{name}'"), data)?,
        };
        let dynamic = *usage == Usage::Dynamic;
        Ok((self.add(name.as_str(), ObjKind::Buffer, dynamic), create))
    }

    /// `heap=HEAP offset=BYTES` of a placed resource (R-BAR-7), lowered.
    fn placement(&mut self, placement: &Option<Placement>) -> Converted<Option<(ObjId, u64)>> {
        match placement {
            Some(Placement { heap, offset }) => Ok(Some((self.id(heap)?, *offset))),
            None => Ok(None),
        }
    }

    /// A view of `resource`: dynamic when its resource is.
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
        Ok((
            id,
            Create::View {
                resource,
                min_lod,
                composed: false,
            },
        ))
    }

    /// A declaration with nothing to convert: the object numbered, its `create`.
    fn plain(&mut self, name: &Name, kind: ObjKind, create: Create) -> (ObjId, Create) {
        (self.add(name.as_str(), kind, false), create)
    }

    /// A deferred context or bundle recorder: numbered, and kept among the recorders.
    fn recorder(&mut self, name: &Name, kind: ObjKind, create: Create) -> (ObjId, Create) {
        let id = self.add(name.as_str(), kind, false);
        self.recorders.push(id);
        (id, create)
    }

    /// A bundle recorder: its declared output formats (which `draw_bundle` checks, R-B-10)
    /// converted.
    fn bundle(
        &mut self,
        name: &Name,
        render_targets: &[crate::Format],
        depth: &Option<crate::Format>,
        samples: Option<u64>,
    ) -> Converted<(ObjId, Create)> {
        let create = Create::Bundle {
            render_targets: render_targets
                .iter()
                .map(format)
                .collect::<Converted<_>>()?,
            depth: depth.as_ref().map(format).transpose()?,
            samples: fit_u32(samples.unwrap_or(1), "samples")?,
        };
        Ok(self.recorder(name, ObjKind::BundleRecorder, create))
    }

    /// A swap chain: numbered with its back buffers and their views (`NAME.K`, `NAME.K.rtv`)
    /// where the engine allows that many (`MAX_BACK_BUFFERS`); a larger one's are numbered
    /// where first used (`Lowering::id`) and never created.
    fn swap_chain(
        &mut self,
        name: &Name,
        buffers: u64,
        f: &crate::Format,
        width: u64,
        height: u64,
    ) -> Converted<(ObjId, Create)> {
        let chain = self.add(name.as_str(), ObjKind::SwapChain, false);
        let mut back_buffers = Vec::new();
        if buffers <= MAX_BACK_BUFFERS as u64 {
            for k in 0..buffers {
                let texture = self.add(&format!("{name}.{k}"), ObjKind::Texture, false);
                let view = self.add(&format!("{name}.{k}.rtv"), ObjKind::RenderTargetView, false);
                for id in [texture, view] {
                    self.objects[id].back_buffer = Some((chain, k as u32));
                }
                self.back_buffers.insert((chain, k), (texture, view));
                back_buffers.push((texture, view));
            }
        }
        let create = Create::SwapChain {
            buffers: fit_u32(buffers, "buffers")?,
            format: format(f)?,
            width: fit_u32(width, "width")?,
            height: fit_u32(height, "height")?,
            back_buffers,
        };
        Ok((chain, create))
    }
}

/// A shader declaration's slot sets as the engine's slot masks (R-OBJ-5: 16 constant-buffer
/// slots, 128 shader-resource, 16 sampler, 64 unordered-access); its code is the lowering's
/// (`lower_contents.rs`).
fn shader(declaration: &Declaration) -> Converted<Create> {
    let Declaration::Shader {
        stage,
        constant_buffers,
        shader_resources,
        samplers,
        unordered_access_views,
        stream_output,
        ..
    } = declaration
    else {
        unreachable!("shader is given a shader declaration")
    };
    Ok(Create::Shader {
        stage: *stage,
        constant_buffers: Slots::from_bits(mask(constant_buffers, 16, "constant-buffer")?),
        shader_resources: Slots::from_bits(mask(shader_resources, 128, "shader-resource")?),
        samplers: Slots::from_bits(mask(samplers, 16, "sampler")?),
        unordered_access_views: Slots::from_bits(mask(
            unordered_access_views,
            64,
            "unordered-access",
        )?),
        stream_output: stream_output.unwrap_or(false),
        code: None,
    })
}
