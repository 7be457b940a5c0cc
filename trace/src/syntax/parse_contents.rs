//! The options of a declaration that carry what a real GPU needs (R-GPU-2, R-GPU-5; docs/TRACE.md
//! "GPU contents"): shader code, input elements, the four states' D3D11 fields, initial bytes.
//!
//! **In:** a declaration's options, read by `parse.rs` with the keys listed here. **Out:** the
//! tree's values (`ast/contents_tree.rs`), or a [`ParseError`](super::ParseError) naming the line, the
//! declaration's keyword and the option (`blend_state: blend=: ...`), to which `parse.rs` adds
//! the object's name (`blend_state 'b': blend=: expected a blend factor (...), found 'src'`).
//!
//! **Invariant.** Nothing here reads a file: `wgsl=`, `spirv=` and `data=@` keep the path as
//! written, and the replay reads it where it lowers the declaration. Every value parses back from
//! what the printer (`print/contents_text.rs`) writes of it.

use super::ast::{
    BlendFields, BlendTargetSpec, DepthStencilFields, InitialData, InputElementSpec,
    RasterizerFields, SamplerFields, ShaderCode, ShaderSource, StencilFaceSpec,
};
use super::cursor::{Cursor, Options, Result};
use super::lex::{self, quote};
use super::words::{AddressMode, BlendFactor, BlendOp, Comparison, CullMode, Filter, StencilOp};

/// A state's fields may name at most this many render targets (`D3D11_BLEND_DESC`'s eight).
const MAX_TARGETS: usize = 8;

/// `shader`'s options (the slot sets' and the code's).
pub(super) const SHADER_KEYS: &[&str] = &[
    "stage",
    "cb",
    "srv",
    "sampler",
    "uav",
    "stream_output",
    "wgsl",
    "wgsl_hex",
    "spirv",
    "spirv_hex",
    "entry",
];

/// `blend_state`'s options.
pub(super) const BLEND_KEYS: &[&str] = &["alpha_to_coverage", "independent", "blend"];

/// `depth_stencil_state`'s options.
pub(super) const DEPTH_STENCIL_KEYS: &[&str] = &[
    "depth",
    "depth_write",
    "depth_func",
    "stencil",
    "stencil_read_mask",
    "stencil_write_mask",
    "front",
    "back",
];

/// `rasterizer_state`'s options.
pub(super) const RASTERIZER_KEYS: &[&str] = &[
    "wireframe",
    "cull",
    "front_ccw",
    "depth_bias",
    "depth_bias_clamp",
    "slope_scaled_depth_bias",
    "depth_clip",
    "scissor",
];

/// `sampler_state`'s options.
pub(super) const SAMPLER_KEYS: &[&str] = &[
    "filter",
    "address",
    "mip_lod_bias",
    "min_lod",
    "max_lod",
    "border",
];

/// The bytes of a HEX value, or the rule it breaks.
fn hex(cursor: &Cursor<'_>, token: &str, what: &str) -> Result<Vec<u8>> {
    lex::hex_bytes(token)
        .map_err(|rule| cursor.error(format_args!("{what}: {rule}, found {}", quote(token))))
}

/// `wgsl=FILE|wgsl_hex=HEX|spirv=FILE|spirv_hex=HEX entry=NAME`: at most one code option, and
/// `entry=` with it and only with it.
pub(super) fn shader_code(
    cursor: &Cursor<'_>,
    options: &Options<'_>,
) -> Result<Option<ShaderCode>> {
    let given: Vec<&str> = ["wgsl", "wgsl_hex", "spirv", "spirv_hex"]
        .into_iter()
        .filter(|key| options.get(key).is_some())
        .collect();
    let entry = options.get("entry");
    let key = match (given.as_slice(), entry) {
        ([], None) => return Ok(None),
        ([], Some(_)) => {
            return Err(cursor.error(
                "entry= names the entry point of code the declaration does not give (wgsl=, \
                 wgsl_hex=, spirv= or spirv_hex=)",
            ))
        }
        ([key], Some(_)) => *key,
        ([key], None) => {
            return Err(cursor.error(format_args!(
                "missing option 'entry=' (the entry point of the {key}= code)"
            )))
        }
        (keys, _) => {
            return Err(cursor.error(format_args!(
                "a shader has one code: {}= given together",
                keys.join("= and ")
            )))
        }
    };
    let value = options.get(key).unwrap_or_default();
    let source = match key {
        "wgsl" => ShaderSource::WgslFile(value.to_string()),
        "spirv" => ShaderSource::SpirvFile(value.to_string()),
        "wgsl_hex" => {
            let bytes = hex(cursor, value, "wgsl_hex=")?;
            let text = String::from_utf8(bytes).map_err(|_| {
                cursor.error("wgsl_hex=: the bytes are not UTF-8 text (WGSL source is)")
            })?;
            ShaderSource::Wgsl(text)
        }
        _ => {
            let bytes = hex(cursor, value, "spirv_hex=")?;
            if !bytes.len().is_multiple_of(4) {
                return Err(cursor.error(format_args!(
                    "spirv_hex=: {} bytes are not whole SPIR-V words (four bytes each)",
                    bytes.len()
                )));
            }
            ShaderSource::SpirV(
                bytes
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect(),
            )
        }
    };
    Ok(Some(ShaderCode {
        source,
        entry: entry.unwrap_or_default().to_string(),
    }))
}

/// `data=HEX|none|@FILE` of a `buffer` or `texture`.
pub(super) fn initial_data(
    cursor: &Cursor<'_>,
    options: &Options<'_>,
) -> Result<Option<InitialData>> {
    let Some(value) = options.get("data") else {
        return Ok(None);
    };
    Ok(Some(match value {
        "none" => InitialData::Bytes(Vec::new()),
        _ => match value.strip_prefix('@') {
            Some("") => return Err(cursor.error("data=@ names no file (data=@FILE)")),
            Some(file) => InitialData::File(file.to_string()),
            None => InitialData::Bytes(hex(cursor, value, "data= (HEX, none or @FILE)")?),
        },
    }))
}

/// `elements=SEMANTIC[INDEX]:FORMAT:SLOT:OFFSET[:instance],..|none`.
pub(super) fn elements(cursor: &Cursor<'_>, token: &str) -> Result<Vec<InputElementSpec>> {
    if token == "none" {
        return Ok(Vec::new());
    }
    cursor
        .list_items(token)?
        .map(|item| element(cursor, item))
        .collect()
}

fn element(cursor: &Cursor<'_>, item: &str) -> Result<InputElementSpec> {
    let parts: Vec<&str> = item.split(':').collect();
    let (semantic, format, slot, offset, rate) = match parts.as_slice() {
        [s, f, slot, offset] => (*s, *f, *slot, *offset, None),
        [s, f, slot, offset, rate] => (*s, *f, *slot, *offset, Some(*rate)),
        _ => {
            return Err(cursor.error(format_args!(
                "elements=: expected SEMANTIC[INDEX]:FORMAT:SLOT:OFFSET[:instance], found {}",
                quote(item)
            )))
        }
    };
    let per_instance = match rate {
        None => false,
        Some("instance") => true,
        Some(other) => {
            return Err(cursor.error(format_args!(
                "elements=: expected 'instance' after an element's offset, found {}",
                quote(other)
            )))
        }
    };
    let name = semantic.trim_end_matches(|c: char| c.is_ascii_digit());
    let index = &semantic[name.len()..];
    let good_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !good_name {
        return Err(cursor.error(format_args!(
            "elements=: expected a semantic (a letter or '_', then letters, digits and '_', an \
             index in digits last: TEXCOORD1), found {}",
            quote(semantic)
        )));
    }
    Ok(InputElementSpec {
        semantic: name.to_string(),
        semantic_index: match index {
            "" => 0,
            digits => cursor.unsigned_token(digits, "elements= (a semantic index)")?,
        },
        format: cursor.format_token(format, "elements=")?,
        input_slot: cursor.unsigned_token(slot, "elements= (an input slot)")?,
        byte_offset: cursor.unsigned_token(offset, "elements= (a byte offset)")?,
        per_instance,
    })
}

/// An optional `key=yes|no`.
fn yes_no(cursor: &Cursor<'_>, options: &Options<'_>, key: &'static str) -> Result<Option<bool>> {
    options
        .get(key)
        .map(|v| cursor.yes_no_token(v, &format!("{key}=")))
        .transpose()
}

/// An optional `key=F`.
fn float(cursor: &Cursor<'_>, options: &Options<'_>, key: &'static str) -> Result<Option<f32>> {
    options
        .get(key)
        .map(|v| cursor.float_token(v, &format!("{key}=")))
        .transpose()
}

/// An optional `key=WORD` of a vocabulary.
fn word<T>(
    cursor: &Cursor<'_>,
    options: &Options<'_>,
    key: &'static str,
    from_name: fn(&str) -> Option<T>,
    choices: String,
) -> Result<Option<T>> {
    options
        .get(key)
        .map(|v| cursor.word_token(v, &format!("{key}="), from_name, choices))
        .transpose()
}

/// `blend_state`'s fields.
pub(super) fn blend_fields(cursor: &Cursor<'_>, options: &Options<'_>) -> Result<BlendFields> {
    let targets = match options.get("blend") {
        None => None,
        Some(value) => {
            let targets = value
                .split('/')
                .map(|target| blend_target(cursor, target))
                .collect::<Result<Vec<_>>>()?;
            if targets.len() > MAX_TARGETS {
                return Err(cursor.error(format_args!(
                    "blend=: {} targets, more than the {MAX_TARGETS} render targets a blend \
                     state has",
                    targets.len()
                )));
            }
            Some(targets)
        }
    };
    Ok(BlendFields {
        alpha_to_coverage: yes_no(cursor, options, "alpha_to_coverage")?,
        independent: yes_no(cursor, options, "independent")?,
        targets,
    })
}

/// One target of `blend=`: `off`, or `[off,]SRC,DEST,OP[,SRC_A,DEST_A,OP_A]`, then `[:MASK]`.
fn blend_target(cursor: &Cursor<'_>, target: &str) -> Result<BlendTargetSpec> {
    let (body, mask) = match target.split_once(':') {
        Some((body, mask)) => (body, Some(mask)),
        None => (target, None),
    };
    let mut spec = BlendTargetSpec::default();
    if let Some(mask) = mask {
        spec.write_mask = write_mask(cursor, mask)?;
    }
    let mut items: Vec<&str> = cursor.list_items(body)?.collect();
    spec.enable = items.first() != Some(&"off");
    if !spec.enable {
        items.remove(0);
    }
    let factor = |token: &str| {
        cursor.word_token(
            token,
            "blend= (a blend factor)",
            BlendFactor::from_name,
            BlendFactor::choices(),
        )
    };
    let op = |token: &str| {
        cursor.word_token(
            token,
            "blend= (a blend operation)",
            BlendOp::from_name,
            BlendOp::choices(),
        )
    };
    match items.as_slice() {
        [] if !spec.enable => {}
        [src, dest, o] => {
            (spec.src, spec.dest, spec.op) = (factor(src)?, factor(dest)?, op(o)?);
            (spec.src_alpha, spec.dest_alpha, spec.op_alpha) = (spec.src, spec.dest, spec.op);
        }
        [src, dest, o, src_a, dest_a, o_a] => {
            (spec.src, spec.dest, spec.op) = (factor(src)?, factor(dest)?, op(o)?);
            (spec.src_alpha, spec.dest_alpha, spec.op_alpha) =
                (factor(src_a)?, factor(dest_a)?, op(o_a)?);
        }
        _ => {
            return Err(cursor.error(format_args!(
                "blend=: expected a target as off, or [off,]SRC,DEST,OP[,SRC_ALPHA,DEST_ALPHA,\
                 OP_ALPHA] then [:MASK], found {}",
                quote(target)
            )))
        }
    }
    Ok(spec)
}

/// `:MASK` of a blend target: `none`, or some of `r g b a` once each.
fn write_mask(cursor: &Cursor<'_>, mask: &str) -> Result<u8> {
    if mask == "none" {
        return Ok(0);
    }
    let mut bits = 0u8;
    for c in mask.chars() {
        let bit = match c {
            'r' => 1,
            'g' => 2,
            'b' => 4,
            'a' => 8,
            _ => 0,
        };
        if bit == 0 || bits & bit != 0 {
            return Err(cursor.error(format_args!(
                "blend=: expected a write mask (some of r, g, b, a once each, or none), found {}",
                quote(mask)
            )));
        }
        bits |= bit;
    }
    if bits == 0 {
        return Err(cursor.error("blend=: an empty write mask after ':' (none writes nothing)"));
    }
    Ok(bits)
}

/// `depth_stencil_state`'s fields.
pub(super) fn depth_stencil_fields(
    cursor: &Cursor<'_>,
    options: &Options<'_>,
) -> Result<DepthStencilFields> {
    let mask = |key: &'static str| {
        options
            .get(key)
            .map(|v| cursor.unsigned_token(v, &format!("{key}=")))
            .transpose()
    };
    let face = |key: &'static str| {
        options
            .get(key)
            .map(|v| stencil_face(cursor, key, v))
            .transpose()
    };
    Ok(DepthStencilFields {
        depth: yes_no(cursor, options, "depth")?,
        depth_write: yes_no(cursor, options, "depth_write")?,
        depth_func: word(
            cursor,
            options,
            "depth_func",
            Comparison::from_name,
            Comparison::choices(),
        )?,
        stencil: yes_no(cursor, options, "stencil")?,
        stencil_read_mask: mask("stencil_read_mask")?,
        stencil_write_mask: mask("stencil_write_mask")?,
        front: face("front")?,
        back: face("back")?,
    })
}

/// `front=` or `back=`: `FAIL,DEPTH_FAIL,PASS,FUNC`.
fn stencil_face(cursor: &Cursor<'_>, key: &str, value: &str) -> Result<StencilFaceSpec> {
    let items: Vec<&str> = cursor.list_items(value)?.collect();
    let [fail, depth_fail, pass, func] = items.as_slice() else {
        return Err(cursor.error(format_args!(
            "{key}=: expected FAIL,DEPTH_FAIL,PASS,FUNC (three stencil operations and a \
             comparison), found {}",
            quote(value)
        )));
    };
    let what = format!("{key}= (a stencil operation)");
    let op =
        |token: &str| cursor.word_token(token, &what, StencilOp::from_name, StencilOp::choices());
    Ok(StencilFaceSpec {
        fail: op(fail)?,
        depth_fail: op(depth_fail)?,
        pass: op(pass)?,
        func: cursor.word_token(
            func,
            &format!("{key}= (a comparison)"),
            Comparison::from_name,
            Comparison::choices(),
        )?,
    })
}

/// `rasterizer_state`'s fields.
pub(super) fn rasterizer_fields(
    cursor: &Cursor<'_>,
    options: &Options<'_>,
) -> Result<RasterizerFields> {
    Ok(RasterizerFields {
        wireframe: yes_no(cursor, options, "wireframe")?,
        cull: word(
            cursor,
            options,
            "cull",
            CullMode::from_name,
            CullMode::choices(),
        )?,
        front_ccw: yes_no(cursor, options, "front_ccw")?,
        depth_bias: options
            .get("depth_bias")
            .map(|v| cursor.signed_token(v, "depth_bias="))
            .transpose()?,
        depth_bias_clamp: float(cursor, options, "depth_bias_clamp")?,
        slope_scaled_depth_bias: float(cursor, options, "slope_scaled_depth_bias")?,
        depth_clip: yes_no(cursor, options, "depth_clip")?,
        scissor: yes_no(cursor, options, "scissor")?,
    })
}

/// `sampler_state`'s fields.
pub(super) fn sampler_fields(cursor: &Cursor<'_>, options: &Options<'_>) -> Result<SamplerFields> {
    let address = match options.get("address") {
        None => None,
        Some(value) => {
            let modes = cursor
                .list_items(value)?
                .map(|item| {
                    cursor.word_token(
                        item,
                        "address=",
                        AddressMode::from_name,
                        AddressMode::choices(),
                    )
                })
                .collect::<Result<Vec<_>>>()?;
            Some(match modes.as_slice() {
                [all] => [*all; 3],
                [u, v, w] => [*u, *v, *w],
                _ => {
                    return Err(cursor.error(format_args!(
                        "address=: expected one mode or three (U,V,W), found {}",
                        quote(value)
                    )))
                }
            })
        }
    };
    let border = match options.get("border") {
        None => None,
        Some(value) => {
            let channels = cursor
                .list_items(value)?
                .map(|item| cursor.float_token(item, "border="))
                .collect::<Result<Vec<_>>>()?;
            match channels.as_slice() {
                [r, g, b, a] => Some([*r, *g, *b, *a]),
                _ => {
                    return Err(cursor.error(format_args!(
                        "border=: expected four numbers (R,G,B,A), found {}",
                        quote(value)
                    )))
                }
            }
        }
    };
    Ok(SamplerFields {
        filter: word(
            cursor,
            options,
            "filter",
            Filter::from_name,
            Filter::choices(),
        )?,
        address,
        mip_lod_bias: float(cursor, options, "mip_lod_bias")?,
        min_lod: float(cursor, options, "min_lod")?,
        max_lod: float(cursor, options, "max_lod")?,
        border,
    })
}
