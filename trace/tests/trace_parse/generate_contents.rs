//! Random options of GPU contents (R-GPU-2, R-GPU-5) for the generator of well-formed trees
//! (`generate.rs`): shader code of every source, input elements, the four states' fields,
//! initial bytes; each the parser could have produced (a blend target's write mask a nibble,
//! a semantic's name not ending in a digit, HEX of at least one byte).

use super::generate::Rng;
use trace::*;

const ENTRIES: &[&str] = &["main", "vs_main", "e_1", "ps.main"];
const FILES: &[&str] = &["vs.wgsl", "shaders/a_b.spv", "../x/y.wgsl", "f"];
const SEMANTICS: &[&str] = &["POSITION", "TEXCOORD", "COLOR", "_s", "n_1a"];
const FORMATS: &[&str] = &["r32g32b32_float", "r8g8b8a8_unorm", "some_future_format"];
const TEXTS: &[&str] = &["@vertex fn main() {}", "é\n\t# not a comment", "x"];

fn maybe<T>(rng: &mut Rng, make: impl FnOnce(&mut Rng) -> T) -> Option<T> {
    match rng.coin() {
        true => Some(make(rng)),
        false => None,
    }
}

fn bytes(rng: &mut Rng) -> Vec<u8> {
    let n = 1 + rng.below(9);
    (0..n).map(|_| rng.next() as u8).collect()
}

/// `wgsl=`, `wgsl_hex=`, `spirv=` or `spirv_hex=`, with `entry=`; or none.
pub fn shader_code(rng: &mut Rng) -> Option<ShaderCode> {
    maybe(rng, |rng| ShaderCode {
        source: match rng.below(4) {
            0 => ShaderSource::WgslFile(rng.pick(FILES).to_string()),
            1 => ShaderSource::Wgsl(rng.pick(TEXTS).to_string()),
            2 => ShaderSource::SpirvFile(rng.pick(FILES).to_string()),
            _ => ShaderSource::SpirV((0..1 + rng.below(4)).map(|_| rng.next() as u32).collect()),
        },
        entry: rng.pick(ENTRIES).to_string(),
    })
}

/// `data=HEX|none|@FILE`, or none.
pub fn initial_data(rng: &mut Rng) -> Option<InitialData> {
    maybe(rng, |rng| match rng.below(3) {
        0 => InitialData::Bytes(bytes(rng)),
        1 => InitialData::Bytes(Vec::new()),
        _ => InitialData::File(rng.pick(FILES).to_string()),
    })
}

/// `elements=..|none`, or none.
pub fn elements(rng: &mut Rng) -> Option<Vec<InputElementSpec>> {
    maybe(rng, |rng| {
        (0..rng.below(4))
            .map(|_| InputElementSpec {
                semantic: rng.pick(SEMANTICS).to_string(),
                semantic_index: rng.u64(),
                format: Format::new(rng.pick(FORMATS)).unwrap(),
                input_slot: rng.u64(),
                byte_offset: rng.u64(),
                per_instance: rng.coin(),
            })
            .collect()
    })
}

fn target(rng: &mut Rng) -> BlendTargetSpec {
    let off = BlendTargetSpec::default();
    let factor = |rng: &mut Rng| rng.pick(BlendFactor::ALL);
    let op = |rng: &mut Rng| rng.pick(BlendOp::ALL);
    let mut t = match rng.below(3) {
        0 => off,
        _ => BlendTargetSpec {
            enable: rng.coin(),
            src: factor(rng),
            dest: factor(rng),
            op: op(rng),
            src_alpha: factor(rng),
            dest_alpha: factor(rng),
            op_alpha: op(rng),
            write_mask: 0xf,
        },
    };
    if rng.coin() {
        (t.src_alpha, t.dest_alpha, t.op_alpha) = (t.src, t.dest, t.op);
    }
    if rng.coin() {
        t.write_mask = rng.below(16) as u8;
    }
    t
}

pub fn blend_fields(rng: &mut Rng) -> BlendFields {
    BlendFields {
        alpha_to_coverage: maybe(rng, Rng::coin),
        independent: maybe(rng, Rng::coin),
        targets: maybe(rng, |rng| {
            (0..1 + rng.below(8)).map(|_| target(rng)).collect()
        }),
    }
}

fn face(rng: &mut Rng) -> StencilFaceSpec {
    StencilFaceSpec {
        fail: rng.pick(StencilOp::ALL),
        depth_fail: rng.pick(StencilOp::ALL),
        pass: rng.pick(StencilOp::ALL),
        func: rng.pick(Comparison::ALL),
    }
}

pub fn depth_stencil_fields(rng: &mut Rng) -> DepthStencilFields {
    DepthStencilFields {
        depth: maybe(rng, Rng::coin),
        depth_write: maybe(rng, Rng::coin),
        depth_func: maybe(rng, |rng| rng.pick(Comparison::ALL)),
        stencil: maybe(rng, Rng::coin),
        stencil_read_mask: maybe(rng, Rng::u64),
        stencil_write_mask: maybe(rng, Rng::u64),
        front: maybe(rng, face),
        back: maybe(rng, face),
    }
}

pub fn rasterizer_fields(rng: &mut Rng) -> RasterizerFields {
    RasterizerFields {
        wireframe: maybe(rng, Rng::coin),
        cull: maybe(rng, |rng| rng.pick(CullMode::ALL)),
        front_ccw: maybe(rng, Rng::coin),
        depth_bias: maybe(rng, Rng::i64),
        depth_bias_clamp: maybe(rng, Rng::f32),
        slope_scaled_depth_bias: maybe(rng, Rng::f32),
        depth_clip: maybe(rng, Rng::coin),
        scissor: maybe(rng, Rng::coin),
    }
}

pub fn sampler_fields(rng: &mut Rng) -> SamplerFields {
    let mode = |rng: &mut Rng| rng.pick(AddressMode::ALL);
    SamplerFields {
        filter: maybe(rng, |rng| rng.pick(Filter::ALL)),
        address: maybe(rng, |rng| match rng.coin() {
            true => [mode(rng); 3],
            false => [mode(rng), mode(rng), mode(rng)],
        }),
        mip_lod_bias: maybe(rng, Rng::f32),
        min_lod: maybe(rng, Rng::f32),
        max_lod: maybe(rng, Rng::f32),
        border: maybe(rng, |rng| [rng.f32(), rng.f32(), rng.f32(), rng.f32()]),
    }
}
