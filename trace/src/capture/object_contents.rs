//! What a real GPU needs of a captured object (R-GPU-2, R-GPU-5), read back from the device
//! (`Device::gpu_contents`) as the options of its declaration, so that a captured frame of a
//! run with contents replays with them.
//!
//! **In:** the device and an object. **Out:** the declaration's options: shader code written
//! inline (`wgsl_hex=`, `spirv_hex=`: a captured trace is one text, with no file beside it),
//! input elements, the states' fields, initial bytes (`data=HEX`). An object without contents
//! gets none of them.
//!
//! **Invariant.** A state's fields are written where they differ from D3D11's defaults; a state
//! with contents whose fields are all the defaults writes its first field anyway, so that its
//! replay still has contents (a state with no field written has none). What the trace cannot
//! write (an entry point with a blank, a sampler's LOD or border colour that is not finite) is an `Err` naming
//! the object, never a trace that replays differently.

use recorder::{
    BlendDesc, DepthStencilDesc, Device, GpuContents, ObjectKind, OwnedShaderCode, RasterizerDesc,
    RawHandle, SamplerDesc, StencilFace, TargetBlend,
};

use super::form;
use crate::syntax::ast::{
    BlendFields, BlendTargetSpec, Declaration, DepthStencilFields, InitialData, InputElementSpec,
    RasterizerFields, SamplerFields, ShaderCode, ShaderSource, StencilFaceSpec,
};
use crate::syntax::words::Filter;

/// What the device keeps of object `raw` of `kind` for a backend, if anything.
fn contents(device: &Device, kind: ObjectKind, raw: RawHandle) -> Option<GpuContents> {
    device.gpu_contents(kind, raw).map(|c| (*c).clone())
}

/// A shader's code, inline; `shown` names the shader for an error.
pub(super) fn shader_code(
    device: &Device,
    raw: RawHandle,
    shown: &str,
) -> Result<Option<ShaderCode>, String> {
    let Some(GpuContents::Shader(code)) = contents(device, ObjectKind::Shader, raw) else {
        return Ok(None);
    };
    let entry = code.entry().to_string();
    if entry.is_empty() || entry.contains(char::is_whitespace) || entry.starts_with('#') {
        return Err(format!(
            "shader {shown}'s entry point {entry:?} cannot be written as a trace token \
             (entry=NAME has no blanks, R-GPU-5)"
        ));
    }
    let source = match code {
        OwnedShaderCode::Wgsl { source, .. } => ShaderSource::Wgsl(source),
        OwnedShaderCode::SpirV { words, .. } => ShaderSource::SpirV(words),
    };
    Ok(Some(ShaderCode { source, entry }))
}

/// A buffer's or texture's initial bytes, as `data=HEX`.
pub(super) fn initial_data(
    device: &Device,
    kind: ObjectKind,
    raw: RawHandle,
) -> Option<InitialData> {
    match contents(device, kind, raw)? {
        GpuContents::InitialData(bytes) => Some(InitialData::Bytes(bytes.to_vec())),
        _ => None,
    }
}

/// An input layout's elements.
pub(super) fn elements(device: &Device, raw: RawHandle) -> Option<Vec<InputElementSpec>> {
    let GpuContents::InputLayout(elements) = contents(device, ObjectKind::InputLayout, raw)? else {
        return None;
    };
    Some(
        elements
            .iter()
            .map(|e| InputElementSpec {
                semantic: e.semantic.clone(),
                semantic_index: e.semantic_index.into(),
                format: form::format(e.format),
                input_slot: e.input_slot.into(),
                byte_offset: e.byte_offset.into(),
                per_instance: e.per_instance,
            })
            .collect(),
    )
}

/// The declaration of a blend, rasterizer, depth-stencil or sampler state `name`, with its
/// fields where the device keeps them; `shown` names it for an error.
pub(super) fn state(
    device: &Device,
    kind: ObjectKind,
    raw: RawHandle,
    name: crate::Name,
    shown: &str,
) -> Result<Declaration, String> {
    Ok(match kind {
        ObjectKind::BlendState => Declaration::BlendState {
            name,
            fields: blend_fields(device, raw),
        },
        ObjectKind::RasterizerState => Declaration::RasterizerState {
            name,
            fields: rasterizer_fields(device, raw),
        },
        ObjectKind::DepthStencilState => Declaration::DepthStencilState {
            name,
            fields: depth_stencil_fields(device, raw),
        },
        _ => Declaration::SamplerState {
            name,
            fields: sampler_fields(device, raw, shown)?,
        },
    })
}

/// `Some(value)` where it differs from the default.
fn differs<T: PartialEq>(value: T, default: T) -> Option<T> {
    (value != default).then_some(value)
}

fn target(t: &TargetBlend) -> BlendTargetSpec {
    BlendTargetSpec {
        enable: t.enable,
        src: t.src,
        dest: t.dest,
        op: t.op,
        src_alpha: t.src_alpha,
        dest_alpha: t.dest_alpha,
        op_alpha: t.op_alpha,
        write_mask: t.write_mask,
    }
}

/// A blend state's fields (none: no contents).
fn blend_fields(device: &Device, raw: RawHandle) -> BlendFields {
    let Some(GpuContents::Blend(desc)) = contents(device, ObjectKind::BlendState, raw) else {
        return BlendFields::default();
    };
    let d = BlendDesc::default();
    let written = desc
        .targets
        .iter()
        .rposition(|t| *t != TargetBlend::default())
        .map_or(0, |last| last + 1);
    let mut fields = BlendFields {
        alpha_to_coverage: differs(desc.alpha_to_coverage, d.alpha_to_coverage),
        independent: differs(desc.independent_blend, d.independent_blend),
        targets: (written > 0).then(|| desc.targets[..written].iter().map(target).collect()),
    };
    if !fields.any() {
        fields.alpha_to_coverage = Some(desc.alpha_to_coverage);
    }
    fields
}

fn face(face: StencilFace) -> Option<StencilFaceSpec> {
    differs(face, StencilFace::default()).map(|f| StencilFaceSpec {
        fail: f.fail,
        depth_fail: f.depth_fail,
        pass: f.pass,
        func: f.func,
    })
}

/// A depth-stencil state's fields (none: no contents).
fn depth_stencil_fields(device: &Device, raw: RawHandle) -> DepthStencilFields {
    let Some(GpuContents::DepthStencil(desc)) =
        contents(device, ObjectKind::DepthStencilState, raw)
    else {
        return DepthStencilFields::default();
    };
    let d = DepthStencilDesc::default();
    let mut fields = DepthStencilFields {
        depth: differs(desc.depth_enable, d.depth_enable),
        depth_write: differs(desc.depth_write, d.depth_write),
        depth_func: differs(desc.depth_func, d.depth_func),
        stencil: differs(desc.stencil_enable, d.stencil_enable),
        stencil_read_mask: differs(desc.stencil_read_mask, d.stencil_read_mask).map(u64::from),
        stencil_write_mask: differs(desc.stencil_write_mask, d.stencil_write_mask).map(u64::from),
        front: face(desc.front),
        back: face(desc.back),
    };
    if !fields.any() {
        fields.depth = Some(desc.depth_enable);
    }
    fields
}

/// A rasterizer state's fields (none: no contents).
fn rasterizer_fields(device: &Device, raw: RawHandle) -> RasterizerFields {
    let Some(GpuContents::Rasterizer(desc)) = contents(device, ObjectKind::RasterizerState, raw)
    else {
        return RasterizerFields::default();
    };
    let d = RasterizerDesc::default();
    let mut fields = RasterizerFields {
        wireframe: differs(desc.wireframe, d.wireframe),
        cull: differs(desc.cull, d.cull),
        front_ccw: differs(desc.front_counter_clockwise, d.front_counter_clockwise),
        depth_bias: differs(desc.depth_bias, d.depth_bias).map(i64::from),
        depth_bias_clamp: differs(desc.depth_bias_clamp, d.depth_bias_clamp),
        slope_scaled_depth_bias: differs(desc.slope_scaled_depth_bias, d.slope_scaled_depth_bias),
        depth_clip: differs(desc.depth_clip, d.depth_clip),
        scissor: differs(desc.scissor, d.scissor),
    };
    if !fields.any() {
        fields.cull = Some(desc.cull);
    }
    fields
}

/// A sampler state's fields (none: no contents); `shown` names it for an error.
fn sampler_fields(device: &Device, raw: RawHandle, shown: &str) -> Result<SamplerFields, String> {
    let Some(GpuContents::Sampler(desc)) = contents(device, ObjectKind::SamplerState, raw) else {
        return Ok(SamplerFields::default());
    };
    let numbers = [desc.mip_lod_bias, desc.min_lod, desc.max_lod];
    if !numbers
        .iter()
        .chain(&desc.border_color)
        .all(|n| n.is_finite())
    {
        return Err(format!(
            "sampler state {shown}'s LOD bias, range or border colour is not finite ({:?}, \
             {:?}): a trace writes finite numbers (R-GPU-5)",
            numbers, desc.border_color
        ));
    }
    let d = SamplerDesc::default();
    let filter = |linear: bool| match linear {
        true => Filter::Linear,
        false => Filter::Point,
    };
    let mut fields = SamplerFields {
        filter: differs(desc.linear, d.linear).map(filter),
        address: differs(desc.address, d.address),
        mip_lod_bias: differs(desc.mip_lod_bias, d.mip_lod_bias),
        min_lod: differs(desc.min_lod, d.min_lod),
        max_lod: differs(desc.max_lod, d.max_lod),
        border: differs(desc.border_color, d.border_color),
    };
    if !fields.any() {
        fields.filter = Some(filter(desc.linear));
    }
    Ok(fields)
}
