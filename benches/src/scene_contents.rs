//! What a real GPU needs to draw the synthetic scene (R-GPU-2, R-GPU-5): WGSL shaders at the
//! fixed slot bindings (`recorder::shader_binding`), input-layout elements, the D3D11 fields of
//! the states, and the initial bytes of meshes, textures and constants. Made only when
//! [`SceneDesc::gpu_contents`](crate::SceneDesc) asks (a backend run): the model needs none of
//! it, and the model-only demo pays nothing for it.
//!
//! **The picture.** Every mesh is a disc (a triangle fan around its first vertex; a submesh,
//! half of the indices, is a pie slice of it). The vertex shader places an object from the first
//! word of its object constants: the mesh's number for the immutable per-mesh constants, the
//! draw's number for the per-draw dynamic constants (`record_draws::write_discard` stamps it),
//! hashed into a position, a size and a hue. The pixel shader tints it with the material's
//! constant colour and its textures, and passes after the first show the previous pass's target
//! through their objects (additive). A post pass samples the last pass's target onto the back
//! buffer with a vignette.
//!
//! **Invariant.** Each shader declares exactly the slots its `ShaderDesc` names (the reflection
//! check of a backend refuses any other), and reads each of them, so none is optimised away.

use recorder::*;

/// The binding of `slot` of `kind` in `stage`, as WGSL text.
fn at(stage: Stage, kind: SlotKind, slot: u32) -> String {
    format!("@group(0) @binding({})", shader_binding(stage, kind, slot))
}

const HASH: &str = "
fn hash(x: u32) -> u32 {
    var h = x * 0x9e3779b9u;
    h = h ^ (h >> 16u);
    h = h * 0x85ebca6bu;
    h = h ^ (h >> 13u);
    return h;
}

fn hue(h: f32) -> vec3<f32> {
    let k = vec3<f32>(0.0, 2.0 / 3.0, 1.0 / 3.0);
    return clamp(abs(fract(vec3<f32>(h) + k) * 6.0 - 3.0) - 1.0, vec3<f32>(0.0), vec3<f32>(1.0));
}
";

/// The materials' vertex shader: frame constants, object constants, skinning palette.
pub(crate) fn material_vertex_wgsl(frame: u32, object: u32, palette: u32) -> String {
    let v = Stage::Vertex;
    let cb = SlotKind::ConstantBuffer;
    format!(
        "{HASH}
struct Block256 {{ words: array<vec4<u32>, 16> }}
struct Block128 {{ words: array<vec4<u32>, 8> }}
struct Palette {{ words: array<vec4<u32>, 48> }}
{} var<uniform> frame: Block256;
{} var<uniform> object: Block128;
{} var<uniform> palette: Palette;

struct Varyings {{
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
}}

@vertex
fn main(@location(0) position: vec3<f32>, @location(1) tint: vec4<f32>) -> Varyings {{
    // Frame and palette words change nothing but are read (the slots are declared).
    let unused = (frame.words[15].w & 0u) + (palette.words[0].x & 0u);
    let h = hash(object.words[0].x + unused);
    let center = vec2<f32>(f32(h & 0xffffu), f32(h >> 16u)) / 65535.0 * 1.8 - 0.9;
    let size = 0.03 + f32(hash(h) & 0xffu) / 255.0 * 0.09;
    var out: Varyings;
    out.position = vec4<f32>(center + position.xy * vec2<f32>(size * 0.5625, size), 0.5, 1.0);
    let shade = 0.55 + 0.45 * tint.r;
    out.color = vec4<f32>(hue(f32(hash(h ^ 0x5bd1e995u) & 0xffu) / 255.0) * shade, 1.0);
    return out;
}}
",
        at(v, cb, frame),
        at(v, cb, object),
        at(v, cb, palette),
    )
}

/// The materials' pixel shader: frame and material constants, `textures` material textures at
/// slots `0..textures`, the previous pass's target at `input`, the simulation's state at
/// `simulation` (barriers mode), sampler 0.
pub(crate) fn material_pixel_wgsl(
    frame: u32,
    material: u32,
    textures: u32,
    input: u32,
    simulation: Option<u32>,
) -> String {
    let p = Stage::Pixel;
    let (cb, srv) = (SlotKind::ConstantBuffer, SlotKind::ShaderResource);
    let mut globals = format!(
        "struct Block256 {{ words: array<vec4<f32>, 16> }}\n\
         {} var<uniform> frame: Block256;\n\
         {} var<uniform> material: Block256;\n\
         {} var pass_input: texture_2d<f32>;\n\
         {} var linear: sampler;\n",
        at(p, cb, frame),
        at(p, cb, material),
        at(p, srv, input),
        at(p, SlotKind::Sampler, 0),
    );
    let mut reads = String::new();
    for t in 0..textures {
        globals += &format!("{} var texture{t}: texture_2d<f32>;\n", at(p, srv, t));
        reads += &format!("    texel += textureSample(texture{t}, linear, uv * 3.0);\n");
    }
    let mut extra = String::new();
    if let Some(slot) = simulation {
        globals += &format!(
            "{} var<storage, read> simulation: array<u32>;\n",
            at(p, srv, slot)
        );
        extra = "    let simulated = f32(simulation[0] & 0u);\n".to_string();
    }
    let simulated = if simulation.is_some() {
        " + simulated"
    } else {
        ""
    };
    format!(
        "{globals}
struct Varyings {{
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
}}

@fragment
fn main(in: Varyings) -> @location(0) vec4<f32> {{
    let size = vec2<f32>(textureDimensions(pass_input));
    let uv = in.position.xy / max(size, vec2<f32>(1.0));
    var texel = vec4<f32>(0.0);
{reads}{extra}    texel = texel / {count}.0;
    let previous = textureSample(pass_input, linear, uv).rgb;
    let tint = material.words[0].rgb * (0.8 + 0.2 * texel.rgb) + frame.words[0].rgb * 0.0{simulated};
    return vec4<f32>(in.color.rgb * tint + 0.6 * previous, 1.0);
}}
",
        count = textures.max(1),
    )
}

/// The post pass's vertex shader: a full-screen triangle from the vertex index.
pub(crate) const POST_VERTEX_WGSL: &str = "
struct Varyings {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@vertex
fn main(@builtin(vertex_index) index: u32) -> Varyings {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: Varyings;
    out.position = vec4<f32>(uv * vec2<f32>(2.0, -2.0) + vec2<f32>(-1.0, 1.0), 0.0, 1.0);
    out.uv = uv;
    return out;
}
";

/// The post pass's pixel shader: the frame's last target, tone-mapped, with a vignette.
pub(crate) fn post_pixel_wgsl() -> String {
    let p = Stage::Pixel;
    format!(
        "{} var frame_target: texture_2d<f32>;
{} var linear: sampler;

struct Varyings {{
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
}}

@fragment
fn main(in: Varyings) -> @location(0) vec4<f32> {{
    let color = textureSample(frame_target, linear, in.uv).rgb;
    let mapped = color / (color + vec3<f32>(1.0));
    let d = in.uv - vec2<f32>(0.5);
    let vignette = 1.0 - 0.8 * dot(d, d);
    return vec4<f32>(mapped * 1.6 * vignette, 1.0);
}}
",
        at(p, SlotKind::ShaderResource, 0),
        at(p, SlotKind::Sampler, 0),
    )
}

/// The two vertex streams' elements: a position (stream 0, 12 bytes) and a tint (stream 1,
/// the first 4 bytes as unorm colour: the particle stream, random bytes, reads as a colour too).
pub(crate) fn mesh_elements() -> Vec<InputElement> {
    vec![
        InputElement {
            semantic: "POSITION".into(),
            semantic_index: 0,
            format: Format::R32G32B32Float,
            input_slot: 0,
            byte_offset: 0,
            per_instance: false,
        },
        InputElement {
            semantic: "COLOR".into(),
            semantic_index: 0,
            format: Format::R8G8B8A8Unorm,
            input_slot: 1,
            byte_offset: 0,
            per_instance: false,
        },
    ]
}

/// A disc of `vertices` vertices: the centre, then the rim (stream 0, 12 bytes each), and a
/// tint per vertex (stream 1, `stride1` bytes each).
pub(crate) fn disc_vertices(vertices: u32, stride1: u32) -> (Vec<u8>, Vec<u8>) {
    let rim = vertices.saturating_sub(1).max(1);
    let mut positions = Vec::with_capacity(vertices as usize * 12);
    let mut tints = vec![0u8; vertices as usize * stride1 as usize];
    for v in 0..vertices {
        let (x, y) = match v {
            0 => (0.0f32, 0.0f32),
            _ => {
                let angle = (v - 1) as f32 / rim as f32 * std::f32::consts::TAU;
                (angle.cos(), angle.sin())
            }
        };
        for word in [x, y, 0.0] {
            positions.extend_from_slice(&word.to_le_bytes());
        }
        let at = (v * stride1) as usize;
        let level = if v == 0 {
            255
        } else {
            96 + (v * 37 % 160) as u8
        };
        tints[at..at + 4].copy_from_slice(&[level, level, level, 255]);
    }
    (positions, tints)
}

/// A fan's indices: triangle `t` is (centre, rim `t`, rim `t + 1`), wrapping around the rim,
/// in `format` (16- or 32-bit).
pub(crate) fn fan_indices(vertices: u32, count: u32, format: Format) -> Vec<u8> {
    let rim = vertices.saturating_sub(1).max(1);
    let wide = format == Format::R32Uint;
    let mut bytes = Vec::with_capacity(count as usize * if wide { 4 } else { 2 });
    for i in 0..count {
        let t = i / 3;
        let index = match i % 3 {
            0 => 0,
            1 => 1 + t % rim,
            _ => 1 + (t + 1) % rim,
        };
        match wide {
            true => bytes.extend_from_slice(&index.to_le_bytes()),
            false => bytes.extend_from_slice(&(index as u16).to_le_bytes()),
        }
    }
    bytes
}

/// `size` bytes whose first word is `key` (the object constants the vertex shader hashes).
pub(crate) fn keyed_constants(key: u32, size: u32) -> Vec<u8> {
    let mut bytes = vec![0u8; size as usize];
    bytes[..4].copy_from_slice(&key.to_le_bytes());
    bytes
}

/// `size` bytes that start with `color` as four floats (a material's constants).
pub(crate) fn color_constants(color: [f32; 4], size: u32) -> Vec<u8> {
    let mut bytes = vec![0u8; size as usize];
    for (k, c) in color.iter().enumerate() {
        bytes[k * 4..k * 4 + 4].copy_from_slice(&c.to_le_bytes());
    }
    bytes
}

/// A `side`² RGBA8 checker texture's bytes, coloured by `seed`.
pub(crate) fn checker_texels(side: u32, seed: u32) -> Vec<u8> {
    let mut bytes = Vec::with_capacity((side * side * 4) as usize);
    for y in 0..side {
        for x in 0..side {
            let on = ((x / 8) ^ (y / 8)) & 1 == 1;
            let base = (seed.wrapping_mul(2_654_435_761) >> 8) as u8;
            let level = if on { 255 } else { base / 2 + 64 };
            bytes.extend_from_slice(&[level, base | 0x40, 255 - base / 2, 255]);
        }
    }
    bytes
}

/// A material's colour from its number.
pub(crate) fn material_color(m: u32) -> [f32; 4] {
    let h = m.wrapping_mul(0x9e37_79b9) >> 8;
    let channel = |shift: u32| 0.45 + ((h >> shift) & 0xff) as f32 / 255.0 * 0.55;
    [channel(0), channel(8), channel(16), 1.0]
}

/// The D3D11 fields of the scene's states: blends opaque and additive, depth tested
/// `less_equal` (every object sits at one depth) and written in the first pass only, no culling
/// (the discs are drawn in either winding), linear wrapping samplers.
pub(crate) fn additive_blend() -> BlendDesc {
    let mut desc = BlendDesc::default();
    desc.targets[0] = TargetBlend {
        enable: true,
        src: BlendFactor::One,
        dest: BlendFactor::One,
        ..TargetBlend::default()
    };
    desc
}

/// See [`additive_blend`].
pub(crate) fn depth_state(write: bool) -> DepthStencilDesc {
    DepthStencilDesc {
        depth_write: write,
        depth_func: Comparison::LessEqual,
        ..DepthStencilDesc::default()
    }
}

/// See [`additive_blend`].
pub(crate) fn no_culling() -> RasterizerDesc {
    RasterizerDesc {
        cull: CullMode::None,
        ..RasterizerDesc::default()
    }
}

/// See [`additive_blend`].
pub(crate) fn linear_wrap() -> SamplerDesc {
    SamplerDesc {
        address: [AddressMode::Wrap; 3],
        ..SamplerDesc::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_gpu_5_a_fan_names_only_its_vertices() {
        let bytes = fan_indices(5, 30, Format::R16Uint);
        let indices: Vec<u16> = bytes
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(&indices[..6], &[0, 1, 2, 0, 2, 3]);
        assert!(indices.iter().all(|&i| i < 5));
        let (positions, tints) = disc_vertices(5, 32);
        assert_eq!((positions.len(), tints.len()), (60, 160));
    }

    /// Every object a scene with GPU contents draws with has what a backend needs, and the
    /// model-only scene has none of it.
    #[test]
    fn r_gpu_2_a_scene_with_gpu_contents_carries_them_on_every_object() {
        for gpu in [false, true] {
            for barriers in [false, true] {
                let device = Device::new(DeviceDesc::default());
                let desc = crate::SceneDesc {
                    draws: 64,
                    materials: 4,
                    meshes: 4,
                    barriers,
                    gpu_contents: gpu,
                    ..crate::SceneDesc::default()
                };
                let scene = crate::Scene::new(&device, &desc).unwrap();
                let has =
                    |kind: ObjectKind, raw: RawHandle| device.gpu_contents(kind, raw).is_some();
                let mut objects = vec![
                    (ObjectKind::RasterizerState, scene.rasterizer.raw()),
                    (ObjectKind::Buffer, scene.frame_constants.raw()),
                ];
                for m in &scene.materials {
                    objects.push((ObjectKind::Shader, m.vertex_shader.raw()));
                    objects.push((ObjectKind::Shader, m.pixel_shader.raw()));
                    objects.push((ObjectKind::InputLayout, m.input_layout.raw()));
                    objects.push((ObjectKind::SamplerState, m.sampler.raw()));
                    objects.push((ObjectKind::Buffer, m.constants.raw()));
                }
                for mesh in &scene.meshes {
                    for stream in mesh.streams {
                        objects.push((ObjectKind::Buffer, stream.buffer.unwrap().raw()));
                    }
                    objects.push((ObjectKind::Buffer, mesh.index_buffer.raw()));
                    objects.push((ObjectKind::Buffer, mesh.object_constants.raw()));
                }
                for pass in &scene.passes {
                    objects.push((ObjectKind::BlendState, pass.blend.raw()));
                    objects.push((ObjectKind::DepthStencilState, pass.depth_state.raw()));
                }
                if let Some(simulation) = &scene.simulation {
                    objects.push((ObjectKind::Shader, simulation.shader.raw()));
                }
                for (kind, raw) in objects {
                    assert_eq!(
                        has(kind, raw),
                        gpu,
                        "{kind:?} {}",
                        device.object_name(kind, raw)
                    );
                }
                assert_eq!(scene.post.is_some(), gpu);
            }
        }
    }
}
