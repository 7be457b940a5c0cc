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
}

/// The device and context with the backend installed; `None` (the reason printed) only when the
/// Vulkan loader cannot be loaded (CI installs it, so there the tests run). Any other failure
/// fails the test.
pub fn gpu() -> Option<Gpu> {
    let device = Device::new(DeviceDesc::default());
    let options = VulkanOptions {
        validation: true,
        ..VulkanOptions::default()
    };
    let backend = match VulkanBackend::new(&device, options) {
        Ok(backend) => backend,
        Err(BackendError::NoLoader(why)) => {
            eprintln!("skipped: no Vulkan loader ({why})");
            return None;
        }
        Err(other) => panic!("the Vulkan backend could not be made: {other}"),
    };
    let mut imm = ImmediateContext::new(&device).expect("an immediate context");
    imm.set_gpu_backend(Some(Box::new(backend)));
    Some(Gpu { device, imm })
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
    [pixels.2[i], pixels.2[i + 1], pixels.2[i + 2], pixels.2[i + 3]]
}
