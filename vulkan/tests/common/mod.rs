//! What the backend's tests share: a device with the backend installed on an immediate
//! context (the validation layer on), the way an application does it; and reaching the backend
//! back to read pixels and validation messages.

#![allow(dead_code)]

use executor::ImmediateContext;
use recorder::{Device, DeviceDesc, Format, SwapChain, SwapChainDesc};
use vulkan_backend::{BackendError, VulkanBackend, VulkanOptions};

/// A device and its immediate context feeding a Vulkan backend.
pub struct Gpu {
    pub device: Device,
    pub imm: ImmediateContext,
    /// The tests of one binary draw one at a time: held until the backend (in `imm`, dropped
    /// first) is gone. One test binary crashed once (SIGSEGV, inside lavapipe or the layer) in
    /// a `.ci/run` with its tests running in parallel; it never did in thirty runs alone.
    _serial: std::sync::MutexGuard<'static, ()>,
}

/// The device and context with the backend installed, the validation layer on; `None` (the
/// reason printed) where this machine has no Vulkan loader, no Vulkan device or no validation
/// layer, unless `VULKAN_BACKEND_REQUIRE=1` (CI sets it, having installed all three: there the
/// tests run or fail, never skip). Any other failure fails the test.
pub fn gpu() -> Option<Gpu> {
    gpu_with(DeviceDesc::default())
}

/// [`gpu`] on a device described by `desc` (fast semantics, say).
pub fn gpu_with(desc: DeviceDesc) -> Option<Gpu> {
    gpu_with_options(desc, VulkanOptions::default())
}

/// [`gpu_with`] with the backend's `options` (the validation layer turned on in them).
pub fn gpu_with_options(desc: DeviceDesc, options: VulkanOptions) -> Option<Gpu> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    // A test that failed holding it poisons it; the next one goes on.
    let serial = SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let device = Device::new(desc);
    let options = VulkanOptions {
        validation: true,
        ..options
    };
    let backend = match VulkanBackend::new(&device, options) {
        Ok(backend) => backend,
        Err(
            missing @ (BackendError::NoLoader(_)
            | BackendError::NoDevice(_)
            | BackendError::NoValidationLayer),
        ) if std::env::var_os("VULKAN_BACKEND_REQUIRE").is_none() => {
            eprintln!(
                "skipped: {missing} (install Debian's mesa-vulkan-drivers, libvulkan1 and \
                 vulkan-validationlayers, or a GPU's driver and the layer; \
                 VULKAN_BACKEND_REQUIRE=1 makes this a failure)"
            );
            return None;
        }
        Err(other) => panic!("the Vulkan backend could not be made: {other}"),
    };
    let mut imm = ImmediateContext::new(&device).expect("an immediate context");
    imm.set_gpu_backend(Some(Box::new(backend)));
    Some(Gpu {
        device,
        imm,
        _serial: serial,
    })
}

impl Gpu {
    /// The backend, after the model consumed everything and the backend submitted.
    pub fn backend(&mut self) -> &mut VulkanBackend {
        self.imm
            .gpu_backend_mut()
            .and_then(|b| b.as_any_mut())
            .and_then(|b| b.downcast_mut::<VulkanBackend>())
            .expect("the Vulkan backend is installed")
    }

    /// Asserts the validation layer reported nothing and the engine no violation.
    pub fn assert_clean(&mut self) {
        let messages = self.backend().validation_messages();
        assert!(
            messages.is_empty(),
            "{} validation messages:\n{}",
            messages.len(),
            messages.join("\n")
        );
        assert_eq!(self.backend().oracle_counts().mismatches, 0);
    }

    /// A swap chain of `width` x `height` RGBA8 back buffers.
    pub fn swap_chain(&self, width: u32, height: u32) -> SwapChain {
        self.device
            .create_swap_chain(&SwapChainDesc {
                name: "chain",
                buffers: 2,
                format: Format::R8G8B8A8Unorm,
                width,
                height,
            })
            .expect("a swap chain")
    }
}

/// The RGBA8 texel at (x, y).
pub fn texel(pixels: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 4] {
    let i = ((y * pixels.0 + x) * 4) as usize;
    [
        pixels.2[i],
        pixels.2[i + 1],
        pixels.2[i + 2],
        pixels.2[i + 3],
    ]
}

/// A vertex shader making a quad of two clockwise triangles from the vertex index, covering
/// the middle half of the target (NDC -0.5..0.5), or, with `full`, all of it.
pub const QUAD_VS: &str = r#"
struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs(@builtin(vertex_index) index: u32) -> Out {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0),
    );
    let corner = corners[index % 6u];
    var out: Out;
    let scale = select(0.5, 1.0, index >= 6u);
    out.position = vec4<f32>(corner * scale, 0.0, 1.0);
    out.uv = vec2<f32>(corner.x * 0.5 + 0.5, 0.5 - corner.y * 0.5);
    return out;
}
"#;

/// A pixel shader returning the colour in its constant buffer 0 (binding 4 * 64 + 0).
pub const COLOUR_PS: &str = r#"
struct Constants { color: vec4<f32> };
@group(0) @binding(1024) var<uniform> constants: Constants;

@fragment
fn ps() -> @location(0) vec4<f32> {
    return constants.color;
}
"#;

/// A pixel shader sampling its shader resource 0 (binding 1040) with sampler 0 (binding 1168).
pub const SAMPLE_PS: &str = r#"
@group(0) @binding(1040) var source: texture_2d<f32>;
@group(0) @binding(1168) var linear: sampler;

@fragment
fn ps(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return textureSample(source, linear, uv);
}
"#;

/// The bytes of a `vec4<f32>` constant buffer.
pub fn colour_bytes(colour: [f32; 4]) -> Vec<u8> {
    colour.iter().flat_map(|c| c.to_le_bytes()).collect()
}

impl Gpu {
    /// The quad vertex shader (draw 6 vertices: the middle half; vertices 6..12: all).
    pub fn quad_vs(&self) -> recorder::Shader {
        self.device
            .create_shader_with_code(
                &recorder::ShaderDesc::new("quad_vs", recorder::Stage::Vertex),
                recorder::ShaderCode::Wgsl {
                    source: QUAD_VS,
                    entry: "vs",
                },
            )
            .expect("the quad vertex shader")
    }

    /// The pixel shader returning its constant buffer 0's colour.
    pub fn colour_ps(&self) -> recorder::Shader {
        let desc = recorder::ShaderDesc {
            constant_buffers: recorder::Slots::of(&[0]),
            ..recorder::ShaderDesc::new("colour_ps", recorder::Stage::Pixel)
        };
        self.device
            .create_shader_with_code(
                &desc,
                recorder::ShaderCode::Wgsl {
                    source: COLOUR_PS,
                    entry: "ps",
                },
            )
            .expect("the colour pixel shader")
    }

    /// The pixel shader sampling its shader resource 0 with sampler 0 ([`SAMPLE_PS`]).
    pub fn sample_ps(&self) -> recorder::Shader {
        let desc = recorder::ShaderDesc {
            shader_resources: recorder::Slots::of(&[0]),
            samplers: recorder::Slots::of(&[0]),
            ..recorder::ShaderDesc::new("sample_ps", recorder::Stage::Pixel)
        };
        self.device
            .create_shader_with_code(
                &desc,
                recorder::ShaderCode::Wgsl {
                    source: SAMPLE_PS,
                    entry: "ps",
                },
            )
            .expect("the sampling pixel shader")
    }

    /// A constant buffer of `usage` holding `colour`.
    pub fn colour_buffer(
        &self,
        name: &str,
        usage: recorder::Usage,
        colour: [f32; 4],
    ) -> recorder::Buffer {
        let desc = recorder::BufferDesc {
            name,
            size: 16,
            usage,
            bind: recorder::BindFlags::CONSTANT,
            ..Default::default()
        };
        self.device
            .create_buffer_with_data(&desc, &colour_bytes(colour))
            .expect("a constant buffer")
    }
}
