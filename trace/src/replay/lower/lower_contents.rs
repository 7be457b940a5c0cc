//! What a real GPU needs of a declared object (R-GPU-2, R-GPU-5), lowered: shader code (a
//! file's read here), input elements, the four states' D3D11 fields with D3D11's defaults for
//! the fields not written, initial bytes (a file's read here).
//!
//! **In:** the options of one declaration (`ast/contents_tree.rs`) and the folder of the trace
//! (`Lowering::dir`; `None`: the current directory, as for `replay -`). **Out:** the engine's
//! values ([`OwnedShaderCode`], [`InputElement`], [`BlendDesc`], ...) that `create.rs` hands to
//! the device's `create_*_with` calls; or the message of `trace:LINE: message`: a file that
//! cannot be read (naming the option and the path it tried), a SPIR-V file that is not whole
//! words, a number that does not fit the engine's field, an unknown format.
//!
//! **Invariant.** A file is read once, at lowering, so a replay on several threads and the
//! reference of `--compare` create the same objects from the same bytes.

use std::path::PathBuf;
use std::sync::Arc;

use recorder::{
    BlendDesc, DepthStencilDesc, InputElement, OwnedShaderCode, RasterizerDesc, SamplerDesc,
    StencilFace, TargetBlend,
};

use super::super::convert::*;
use super::Lowering;
use crate::syntax::ast::{
    BlendFields, DepthStencilFields, InitialData, InputElementSpec, RasterizerFields,
    SamplerFields, ShaderCode, ShaderSource, StencilFaceSpec,
};
use crate::syntax::words::Filter;

impl Lowering {
    /// The path `file` names: relative to the trace's folder (the current directory without
    /// one).
    fn path(&self, file: &str) -> PathBuf {
        match &self.dir {
            Some(dir) => dir.join(file),
            None => PathBuf::from(file),
        }
    }

    /// The bytes of `file`, which option `written` (`wgsl=vs.wgsl`) of `declaration` names.
    fn read(&self, declaration: &str, written: &str, file: &str) -> Converted<Vec<u8>> {
        let path = self.path(file);
        std::fs::read(&path).map_err(|error| {
            format!(
                "{declaration}: {written}: cannot read '{}': {error}",
                path.display()
            )
        })
    }

    /// A shader's code: inline, or read from its file (R-GPU-2).
    pub(super) fn shader_code(
        &self,
        name: &str,
        code: &Option<ShaderCode>,
    ) -> Converted<Option<OwnedShaderCode>> {
        let Some(ShaderCode { source, entry }) = code else {
            return Ok(None);
        };
        let declaration = format!("shader '{name}'");
        let entry = entry.clone();
        Ok(Some(match source {
            ShaderSource::Wgsl(source) => OwnedShaderCode::Wgsl {
                source: source.clone(),
                entry,
            },
            ShaderSource::SpirV(words) => OwnedShaderCode::SpirV {
                words: words.clone(),
                entry,
            },
            ShaderSource::WgslFile(file) => {
                let bytes = self.read(&declaration, &format!("wgsl={file}"), file)?;
                let source = String::from_utf8(bytes).map_err(|_| {
                    format!("{declaration}: wgsl={file}: the file is not UTF-8 text")
                })?;
                OwnedShaderCode::Wgsl { source, entry }
            }
            ShaderSource::SpirvFile(file) => {
                let bytes = self.read(&declaration, &format!("spirv={file}"), file)?;
                if !bytes.len().is_multiple_of(4) {
                    return Err(format!(
                        "{declaration}: spirv={file}: its {} bytes are not whole SPIR-V words \
                         (four bytes each)",
                        bytes.len()
                    ));
                }
                let words = bytes
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect();
                OwnedShaderCode::SpirV { words, entry }
            }
        }))
    }

    /// A buffer's or texture's initial bytes: inline, or read from their file (R-GPU-2).
    pub(super) fn initial_data(
        &self,
        declaration: &str,
        data: &Option<InitialData>,
    ) -> Converted<Option<Arc<[u8]>>> {
        Ok(match data {
            None => None,
            Some(InitialData::Bytes(bytes)) => Some(Arc::from(bytes.as_slice())),
            Some(InitialData::File(file)) => {
                let written = format!("data=@{file}");
                Some(Arc::from(self.read(declaration, &written, file)?))
            }
        })
    }
}

/// `elements=`, in the engine's types.
pub(super) fn elements(
    elements: &Option<Vec<InputElementSpec>>,
) -> Converted<Option<Vec<InputElement>>> {
    let Some(elements) = elements else {
        return Ok(None);
    };
    elements
        .iter()
        .map(|e| {
            Ok(InputElement {
                semantic: e.semantic.clone(),
                semantic_index: fit_u32(e.semantic_index, "the semantic index")?,
                format: format(&e.format)?,
                input_slot: fit_u32(e.input_slot, "the input slot")?,
                byte_offset: fit_u32(e.byte_offset, "the byte offset")?,
                per_instance: e.per_instance,
            })
        })
        .collect::<Converted<Vec<_>>>()
        .map(Some)
}

/// A blend state's fields, where any is written.
pub(super) fn blend(fields: &BlendFields) -> Option<BlendDesc> {
    if !fields.any() {
        return None;
    }
    let mut desc = BlendDesc {
        alpha_to_coverage: fields.alpha_to_coverage.unwrap_or(false),
        independent_blend: fields.independent.unwrap_or(false),
        ..BlendDesc::default()
    };
    for (target, spec) in desc.targets.iter_mut().zip(fields.targets.iter().flatten()) {
        *target = TargetBlend {
            enable: spec.enable,
            src: spec.src,
            dest: spec.dest,
            op: spec.op,
            src_alpha: spec.src_alpha,
            dest_alpha: spec.dest_alpha,
            op_alpha: spec.op_alpha,
            write_mask: spec.write_mask,
        };
    }
    Some(desc)
}

fn stencil_face(spec: &Option<StencilFaceSpec>) -> StencilFace {
    match spec {
        Some(s) => StencilFace {
            fail: s.fail,
            depth_fail: s.depth_fail,
            pass: s.pass,
            func: s.func,
        },
        None => StencilFace::default(),
    }
}

/// A byte field: `stencil_read_mask=`, `stencil_write_mask=`.
fn fit_u8(value: Option<u64>, what: &str) -> Converted<Option<u8>> {
    value
        .map(|v| u8::try_from(v).map_err(|_| format!("{what} {v} does not fit a byte")))
        .transpose()
}

/// A depth-stencil state's fields, where any is written.
pub(super) fn depth_stencil(fields: &DepthStencilFields) -> Converted<Option<DepthStencilDesc>> {
    if !fields.any() {
        return Ok(None);
    }
    let d = DepthStencilDesc::default();
    Ok(Some(DepthStencilDesc {
        depth_enable: fields.depth.unwrap_or(d.depth_enable),
        depth_write: fields.depth_write.unwrap_or(d.depth_write),
        depth_func: fields.depth_func.unwrap_or(d.depth_func),
        stencil_enable: fields.stencil.unwrap_or(d.stencil_enable),
        stencil_read_mask: fit_u8(fields.stencil_read_mask, "stencil_read_mask=")?
            .unwrap_or(d.stencil_read_mask),
        stencil_write_mask: fit_u8(fields.stencil_write_mask, "stencil_write_mask=")?
            .unwrap_or(d.stencil_write_mask),
        front: stencil_face(&fields.front),
        back: stencil_face(&fields.back),
    }))
}

/// A rasterizer state's fields, where any is written.
pub(super) fn rasterizer(fields: &RasterizerFields) -> Converted<Option<RasterizerDesc>> {
    if !fields.any() {
        return Ok(None);
    }
    let d = RasterizerDesc::default();
    Ok(Some(RasterizerDesc {
        wireframe: fields.wireframe.unwrap_or(d.wireframe),
        cull: fields.cull.unwrap_or(d.cull),
        front_counter_clockwise: fields.front_ccw.unwrap_or(d.front_counter_clockwise),
        depth_bias: match fields.depth_bias {
            Some(bias) => fit_i32(bias, "depth_bias=")?,
            None => d.depth_bias,
        },
        depth_bias_clamp: fields.depth_bias_clamp.unwrap_or(d.depth_bias_clamp),
        slope_scaled_depth_bias: fields
            .slope_scaled_depth_bias
            .unwrap_or(d.slope_scaled_depth_bias),
        depth_clip: fields.depth_clip.unwrap_or(d.depth_clip),
        scissor: fields.scissor.unwrap_or(d.scissor),
    }))
}

/// A sampler state's fields, where any is written.
pub(super) fn sampler(fields: &SamplerFields) -> Option<SamplerDesc> {
    if !fields.any() {
        return None;
    }
    let d = SamplerDesc::default();
    Some(SamplerDesc {
        linear: fields.filter.map_or(d.linear, |f| f == Filter::Linear),
        address: fields.address.unwrap_or(d.address),
        mip_lod_bias: fields.mip_lod_bias.unwrap_or(d.mip_lod_bias),
        min_lod: fields.min_lod.unwrap_or(d.min_lod),
        max_lod: fields.max_lod.unwrap_or(d.max_lod),
        border_color: fields.border.unwrap_or(d.border_color),
    })
}
