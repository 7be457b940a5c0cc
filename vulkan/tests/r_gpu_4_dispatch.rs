//! R-GPU-4, a dispatch: a compute shader writes a buffer through its UAV (binding 384 + slot),
//! scaled by its constant buffer (binding 5 * 64 + slot); the buffer is then copied into
//! another, and both read back hold what the GPU wrote.

mod common;

use common::*;
use recorder::*;

const CS: &str = r#"
struct Params { scale: vec4<u32> };
@group(0) @binding(1280) var<uniform> params: Params;
@group(0) @binding(1440) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn cs(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&out)) {
        out[id.x] = id.x * params.scale.x;
    }
}
"#;

#[test]
fn r_gpu_4_a_dispatch_writes_a_buffer_uav_read_back_after_a_copy() {
    let Some(mut gpu) = gpu() else { return };
    let cs = gpu
        .device
        .create_shader_with_code(
            &ShaderDesc {
                constant_buffers: Slots::of(&[0]),
                unordered_access_views: Slots::of(&[0]),
                ..ShaderDesc::new("cs", Stage::Compute)
            },
            ShaderCode::Wgsl {
                source: CS,
                entry: "cs",
            },
        )
        .unwrap();
    let params = gpu
        .device
        .create_buffer_with_data(
            &BufferDesc {
                name: "params",
                size: 16,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            },
            &[3, 0, 0, 0],
        )
        .unwrap();
    let desc = |name| BufferDesc {
        name,
        size: 256,
        bind: BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
        ..Default::default()
    };
    let written = gpu.device.create_buffer(&desc("written")).unwrap();
    let copy = gpu.device.create_buffer(&desc("copy")).unwrap();
    let uav = gpu
        .device
        .create_unordered_access_view(&ViewDesc::new("written.uav", written))
        .unwrap();
    gpu.imm.set_shader(Stage::Compute, Some(cs));
    gpu.imm
        .set_constant_buffers(Stage::Compute, 0, &[Some(params)]);
    gpu.imm.set_compute_unordered_access_views(0, &[Some(uav)]);
    gpu.imm.dispatch(1, 1, 1);
    gpu.imm.set_compute_unordered_access_views(0, &[None]);
    gpu.imm.copy_resource(copy, written);
    gpu.imm.flush().unwrap();
    let expected: Vec<u8> = (0..64u32).flat_map(|i| (i * 3).to_le_bytes()).collect();
    assert_eq!(
        gpu.backend().read_buffer(written).unwrap(),
        expected,
        "the UAV's buffer"
    );
    assert_eq!(
        gpu.backend().read_buffer(copy).unwrap(),
        expected,
        "its copy"
    );
    gpu.assert_clean();
}
