// R-GPU-2: the shaders of r_gpu_2_contents.trace. A quad's vertices from the vertex buffer,
// offset by the constant buffer; the pixel shader samples the texture.

struct Offset {
    xy: vec4f,
}

@group(0) @binding(0) var<uniform> offset: Offset;
@group(0) @binding(1040) var tex: texture_2d<f32>;
@group(0) @binding(1168) var smp: sampler;

struct Out {
    @builtin(position) position: vec4f,
    @location(0) uv: vec2f,
}

@vertex
fn vs_main(@location(0) position: vec3f, @location(1) uv: vec2f) -> Out {
    var out: Out;
    out.position = vec4f(position + offset.xy.xyz, 1.0);
    out.uv = uv;
    return out;
}

@fragment
fn fs_main(in: Out) -> @location(0) vec4f {
    return textureSample(tex, smp, in.uv);
}
