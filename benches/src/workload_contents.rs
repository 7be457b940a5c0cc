//! The render-bundle workload with what a real GPU needs (R-GPU-2, R-GPU-6): the same objects
//! and calls as [`Workload::new`], created with code, elements and bytes, plus a target the
//! draws land in and the pixels they must leave there, so a backend run checks itself.
//!
//! **The picture.** Vertex buffer `k` (of 8) holds one triangle covering the `k`-th of 8 square
//! cells of a 4 × 2 grid; constant buffer `j` (of 16) holds colour `j`. Draw `i` reads vertex
//! buffer `i % 8` and constant buffer `i % 16` (`Workload::record`), so cell `k` ends with the
//! colour of the last draw that read vertex buffer `k`; the second vertex shader (bound for
//! the draws of every other hundred) halves the colour. [`expected_cells`] says, for a run of
//! `draws` draws, what each cell's centre must be.
//!
//! **Invariant.** The calls recorded are `Workload::record`'s: only the objects differ.

use recorder::*;

use crate::render_workload::{Workload, CONSTANT_BUFFERS, PIPELINE_EVERY, VERTEX_BUFFERS};

/// The target's side in pixels.
pub const TARGET_SIDE: u32 = 512;

/// The workload's vertex shader `k`: position from the vertex buffer, colour from constant
/// buffer 0, halved for `k = 1`.
fn vertex_wgsl(k: usize) -> String {
    let scale = if k == 0 { "1.0" } else { "0.5" };
    format!(
        "@group(0) @binding({}) var<uniform> constants: array<vec4<f32>, 256>;

struct Varyings {{
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
}}

@vertex
fn main(@location(0) position: vec4<f32>) -> Varyings {{
    var out: Varyings;
    out.position = position;
    out.color = vec4<f32>(constants[0].rgb * {scale}, 1.0);
    return out;
}}
",
        shader_binding(Stage::Vertex, SlotKind::ConstantBuffer, 0)
    )
}

const PIXEL_WGSL: &str = "
struct Varyings {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
}

@fragment
fn main(in: Varyings) -> @location(0) vec4<f32> {
    return in.color;
}
";

/// Colour `j` of the 16 constant buffers, RGBA8 as the target stores it (before halving).
pub fn cell_color(j: usize) -> [u8; 4] {
    let h = (j as u32 + 1).wrapping_mul(0x9e37_79b9);
    [
        (h >> 24) as u8 | 0x40,
        (h >> 16) as u8 | 0x40,
        (h >> 8) as u8 | 0x40,
        255,
    ]
}

/// Cell `k`'s rectangle in the target, in pixels: (left, top, side).
fn cell(k: usize) -> (u32, u32, u32) {
    let side = TARGET_SIDE / 4;
    ((k as u32 % 4) * side, (k as u32 / 4) * side, side)
}

/// The triangle of vertex buffer `k`: three float4 positions covering cell `k` (clip space,
/// `y` up), then zeros to the buffer's size.
fn triangle(k: usize, size: u32) -> Vec<u8> {
    let (left, top, side) = cell(k);
    let x = |px: u32| px as f32 / TARGET_SIDE as f32 * 2.0 - 1.0;
    let y = |py: u32| 1.0 - py as f32 / TARGET_SIDE as f32 * 2.0;
    // A triangle twice the cell's size, so the cell's square is inside it.
    let corners = [
        (x(left), y(top)),
        (x(left + 2 * side), y(top)),
        (x(left), y(top + 2 * side)),
    ];
    let mut bytes = vec![0u8; size as usize];
    for (v, (px, py)) in corners.iter().enumerate() {
        for (c, value) in [*px, *py, 0.5, 1.0].iter().enumerate() {
            let at = v * 16 + c * 4;
            bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        }
    }
    bytes
}

impl Workload {
    /// [`Workload::new`]'s objects with GPU contents (see the module essay); buffers of
    /// `size` bytes.
    pub fn with_gpu_contents(device: &Device) -> Result<Self, Error> {
        let size = 4096;
        let buffer = |name: &str, bind: BindFlags, data: Vec<u8>| {
            let desc = BufferDesc {
                name,
                size,
                usage: Usage::Default,
                bind,
                ..Default::default()
            };
            device.create_buffer_with_data(&desc, &data)
        };
        let constants = array(|j| {
            let mut data = vec![0u8; size as usize];
            for (c, value) in cell_color(j).iter().enumerate() {
                let unit = *value as f32 / 255.0;
                data[c * 4..c * 4 + 4].copy_from_slice(&unit.to_le_bytes());
            }
            buffer(&format!("cb{j}"), BindFlags::CONSTANT, data)
        })?;
        let vertices = array(|k| buffer(&format!("vb{k}"), BindFlags::VERTEX, triangle(k, size)))?;
        let vertex_shaders = array(|k| {
            let name = format!("vs{k}");
            let desc = ShaderDesc {
                constant_buffers: Slots::first(1),
                ..ShaderDesc::new(&name, Stage::Vertex)
            };
            let source = vertex_wgsl(k);
            device.create_shader_with_code(
                &desc,
                ShaderCode::Wgsl {
                    source: &source,
                    entry: "main",
                },
            )
        })?;
        let pixel_shaders = array(|k| {
            let name = format!("ps{k}");
            let desc = ShaderDesc::new(&name, Stage::Pixel);
            let code = ShaderCode::Wgsl {
                source: PIXEL_WGSL,
                entry: "main",
            };
            device.create_shader_with_code(&desc, code)
        })?;
        let blends =
            array(|k| device.create_blend_state_with(&format!("blend{k}"), &BlendDesc::default()))?;
        let elements = [InputElement {
            semantic: "POSITION".into(),
            semantic_index: 0,
            format: Format::R32G32B32A32Float,
            input_slot: 0,
            byte_offset: 0,
            per_instance: false,
        }];
        let layout = InputLayoutDesc {
            name: "layout",
            vertex_buffers: Slots::first(1),
        };
        Ok(Self {
            constants,
            vertices,
            vertex_shaders,
            pixel_shaders,
            blends,
            input_layout: device.create_input_layout_with_elements(&layout, &elements)?,
        })
    }
}

/// The target the backend run draws into: an RGBA8 texture of [`TARGET_SIDE`]², its view, and
/// the viewport covering it. Bound on the immediate context before fast lists execute (they
/// inherit it, R-ST-4).
pub fn workload_target(device: &Device) -> Result<(Texture, RenderTargetView, Viewport), Error> {
    let texture = device.create_texture(&TextureDesc {
        name: "workload.target",
        format: Format::R8G8B8A8Unorm,
        width: TARGET_SIDE,
        height: TARGET_SIDE,
        bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
        ..Default::default()
    })?;
    let view = device.create_render_target_view(&ViewDesc::new("workload.rtv", texture))?;
    let side = TARGET_SIDE as f32;
    Ok((texture, view, Viewport::new(0.0, 0.0, side, side)))
}

/// Each cell's centre `(x, y)` and the RGBA8 colour it must have after draws `0..draws`
/// (cells no draw reached are absent).
pub fn expected_cells(draws: u32) -> Vec<((u32, u32), [u8; 4])> {
    (0..VERTEX_BUFFERS)
        .filter_map(|k| {
            let last = (0..draws)
                .rev()
                .find(|i| *i as usize % VERTEX_BUFFERS == k)?;
            let color = cell_color(last as usize % CONSTANT_BUFFERS);
            let halved = (last / PIPELINE_EVERY) % 2 == 1;
            let shade = |c: u8| match halved {
                true => ((c as f32 / 255.0 * 0.5) * 255.0).round() as u8,
                false => c,
            };
            let (left, top, side) = cell(k);
            let centre = (left + side / 2, top + side / 2);
            Some((
                centre,
                [shade(color[0]), shade(color[1]), shade(color[2]), 255],
            ))
        })
        .collect()
}

fn array<T, const N: usize>(
    mut make: impl FnMut(usize) -> Result<T, Error>,
) -> Result<[T; N], Error> {
    let made: Vec<T> = (0..N).map(&mut make).collect::<Result<_, _>>()?;
    made.try_into()
        .map_err(|_| unreachable!("N items were collected"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_gpu_6_the_workload_with_contents_makes_the_same_objects_with_contents() {
        let device = Device::new(DeviceDesc::default());
        let workload = Workload::with_gpu_contents(&device).unwrap();
        let has = |kind, raw| device.gpu_contents(kind, raw).is_some();
        assert!(workload
            .vertex_shaders
            .iter()
            .all(|s| has(ObjectKind::Shader, s.raw())));
        assert!(workload
            .vertices
            .iter()
            .all(|b| has(ObjectKind::Buffer, b.raw())));
        assert!(has(ObjectKind::InputLayout, workload.input_layout.raw()));
        // Draws 0..16: cell k last drawn by draw 8 + k with colour 8 + k, unhalved.
        let cells = expected_cells(16);
        assert_eq!(cells.len(), 8);
        assert_eq!(cells[0].1, cell_color(8));
        // Draws 0..108: draw 100..108 are the halved vertex shader's.
        let halved = expected_cells(108);
        assert_ne!(halved[3].1, cell_color(107 % 16));
    }
}
